//! The Slurm backend's parsing of Slurm's answers and its job script (the
//! backend itself runs on a real Slurm in `tests/e2e/slurm.rs`).

use smtcomp::benchexec::RunOptions;
use smtcomp::pipeline::{SlurmBenchExec, TaskState, parse_job_id, parse_scontrol, parse_status};
use std::path::{Path, PathBuf};

#[test]
fn scontrol_lines_give_each_array_task_its_state_reason_exit_code_and_node() {
    // Two lines of `scontrol -o show job 48` on the one-node cluster (shortened).
    let text = "JobId=48 ArrayJobId=48 ArrayTaskId=1 JobName=smtcomp-benchexec UserId=root(0) \
        JobState=FAILED Reason=NonZeroExitCode Dependency=(null) ExitCode=1:0 RunTime=00:00:00 \
        NodeList=vm BatchHost=vm Command=/x/batch-4/job.sh\n\
        JobId=49 ArrayJobId=48 ArrayTaskId=0 JobState=CANCELLED Reason=None ExitCode=0:15 NodeList=vm\n\
        JobId=50 ArrayJobId=48 ArrayTaskId=2-19 JobState=PENDING Reason=Resources\n\
        garbage without fields\n";
    let got = parse_scontrol(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        got[&1],
        TaskState {
            state: "FAILED".into(),
            reason: "NonZeroExitCode".into(),
            exit_code: "1:0".into(),
            node: "vm".into(),
        }
    );
    assert_eq!(got[&0].state, "CANCELLED");
    assert_eq!(got[&0].exit_code, "0:15");
}

#[test]
fn sbatch_parsable_output_and_status_files_are_read_strictly() {
    assert_eq!(parse_job_id("48\n"), Some(48));
    assert_eq!(parse_job_id("48;cluster2\n"), Some(48));
    assert_eq!(parse_job_id("Submitted batch job 48\n"), None);
    assert_eq!(parse_job_id(""), None);
    let s = parse_status("0 z3_QF_Bitvec.xml\n1 cvc5 odd name.xml\nx broken\n\n");
    assert_eq!(s.len(), 2);
    assert_eq!(s["z3_QF_Bitvec.xml"], 0);
    assert_eq!(s["cvc5 odd name.xml"], 1);
}

#[test]
fn the_job_script_runs_run_local_per_definition_with_every_word_escaped() {
    let r = SlurmBenchExec::new(
        PathBuf::from("/opt/it's here/smtcomp"),
        RunOptions {
            benchexec: "benchexec".into(),
            jobs: Some(1),
            container: false,
            extra_path: Vec::new(),
            start_time: Some("2025-07-01 12:00:00".into()),
            timeout: None,
            replace: false,
            read_only_dirs: Vec::new(),
        },
    );
    let s = r.job_script(Path::new("/e x/exec"), Path::new("/e x/exec/slurm/batch-1"));
    for line in [
        "BATCH='/e x/exec/slurm/batch-1'",
        "EXECDIR='/e x/exec'",
        "SMTCOMP='/opt/it'\\''s here/smtcomp'",
        "PATH='/opt/it'\\''s here'${PATH:+:$PATH}",
        "  \"$SMTCOMP\" run-local --exec \"$EXECDIR\" --definition \"$d\" --benchexec benchexec --jobs 1 --no-container --start-time '2025-07-01 12:00:00'",
        "  echo \"$c $d\" >> \"$status\"",
        "done < \"$BATCH/chunk-$K.txt\"",
    ] {
        assert!(s.lines().any(|l| l == line), "{line:?} not in\n{s}");
    }
    // The script is valid sh.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("job.sh");
    std::fs::write(&p, &s).unwrap();
    let ok = std::process::Command::new("sh")
        .arg("-n")
        .arg(&p)
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn run_local_rejects_an_unknown_definition_as_a_usage_error() {
    let (code, _out, err) = crate::support::smtcomp(&[
        "run-local",
        "benchexec-defs",
        "--definition",
        "no_such_definition.xml",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--definition no_such_definition.xml: no such definition in")
            && err.contains("benchexec-defs/manifest.json"),
        "{err}"
    );
}
