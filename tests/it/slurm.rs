//! The Slurm backend's parsing of Slurm's answers and its job script (the
//! backend itself runs on a real Slurm in `tests/e2e/slurm.rs`), and a
//! cancelled array against a stand-in Slurm.

use smtcomp::benchexec::{Manifest, RunOptions};
use smtcomp::pipeline::{
    RunStatus, Runner, SlurmBenchExec, SlurmCommands, TaskState, parse_job_id, parse_scontrol,
    parse_status,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// Writes an executable `sh` script.
fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stand-in Slurm whose array outlives its deadline: `sbatch` records, as
/// the first definition of task 0, `run-local` exit 143 (killed by SIGTERM);
/// the tasks run until `scancel`, then are `COMPLETING` for two `squeue`
/// polls, and `scontrol` says `COMPLETING` until they have left the queue,
/// `CANCELLED` after.
fn cancelling_slurm(dir: &Path) -> SlurmCommands {
    let d = dir.display();
    script(
        &dir.join("sbatch"),
        "for a; do last=$a; done\nb=$(dirname \"$last\")\n\
         echo \"143 $(head -n1 \"$b/chunk-0.txt\")\" > \"$b/status-0.txt\"\necho 42\n",
    );
    script(
        &dir.join("squeue"),
        &format!(
            "if [ ! -f {d}/cancelled ]; then echo '0 RUNNING None'; echo '1 RUNNING None'; exit 0; fi\n\
             n=$(cat {d}/drain 2>/dev/null || echo 0)\n\
             [ \"$n\" -ge 2 ] && exit 0\n\
             echo $((n + 1)) > {d}/drain\necho '0 COMPLETING None'\necho '1 COMPLETING None'\n"
        ),
    );
    script(&dir.join("scancel"), &format!("touch {d}/cancelled\n"));
    script(
        &dir.join("scontrol"),
        &format!(
            "s=COMPLETING; [ \"$(cat {d}/drain 2>/dev/null)\" = 2 ] && s=CANCELLED\n\
             for k in 0 1; do echo \"JobId=4$k ArrayJobId=42 ArrayTaskId=$k JobState=$s Reason=None ExitCode=0:15 NodeList=vm\"; done\n"
        ),
    );
    SlurmCommands {
        sbatch: dir.join("sbatch"),
        squeue: dir.join("squeue"),
        scontrol: dir.join("scontrol"),
        scancel: dir.join("scancel"),
    }
}

#[test]
fn a_cancelled_array_is_reported_in_its_final_state_once_its_tasks_left_the_queue() {
    let out = tempfile::tempdir().unwrap();
    let exec = crate::support::replay::exec_dir(out.path());
    let manifest = Manifest::read(&exec).unwrap();
    let defs: Vec<&str> = manifest
        .definitions
        .keys()
        .map(String::as_str)
        .take(3)
        .collect();
    assert_eq!(defs.len(), 3);
    let fake = tempfile::tempdir().unwrap();
    let mut r = SlurmBenchExec::new(
        PathBuf::from("/nonexistent/smtcomp"),
        RunOptions {
            benchexec: "benchexec".into(),
            jobs: None,
            container: false,
            extra_path: Vec::new(),
            start_time: None,
            timeout: None,
            replace: false,
            read_only_dirs: Vec::new(),
        },
    );
    r.commands = cancelling_slurm(fake.path());
    r.definitions_per_job = 2;
    r.timeout = Some(Duration::from_millis(300));
    r.poll = Duration::from_millis(20);
    let runs = r.run(&exec, &manifest, &defs);

    // squeue was asked until the tasks had left the queue.
    assert_eq!(
        std::fs::read_to_string(fake.path().join("drain"))
            .unwrap()
            .trim(),
        "2"
    );
    let reasons: Vec<(&str, &RunStatus)> = runs
        .iter()
        .map(|d| (d.definition.as_str(), &d.status))
        .collect();
    assert_eq!(reasons.len(), 3);
    for (i, (def, status)) in reasons.iter().enumerate() {
        assert_eq!(*def, defs[i]);
        let RunStatus::TimedOut { reason } = status else {
            panic!("{def}: {status:?}");
        };
        let task = if i < 2 { 0 } else { 1 };
        assert!(
            reason.contains(&format!(
                "Slurm job 42_{task} on vm CANCELLED (reason None, exit code 0:15)"
            )),
            "{reason}"
        );
        let expected = if i == 0 {
            "deadline passed, array cancelled; run-local killed by signal 15 in Slurm job 42_0"
        } else {
            "deadline passed, array cancelled; not run: Slurm job "
        };
        assert!(reason.starts_with(expected), "{reason}");
    }
}

#[test]
fn an_array_still_working_in_the_execution_directory_stops_a_second_submission() {
    let out = tempfile::tempdir().unwrap();
    let exec = crate::support::replay::exec_dir(out.path());
    let manifest = Manifest::read(&exec).unwrap();
    let defs: Vec<&str> = manifest.definitions.keys().map(String::as_str).collect();
    let fake = tempfile::tempdir().unwrap();
    let d = fake.path().display();
    // squeue lists array 77 of ours working in EXECDIR (and one elsewhere);
    // sbatch records that it was called.
    script(
        &fake.path().join("squeue"),
        &format!(
            "echo '77 {}'\necho '78 /elsewhere'\n",
            exec.join(".").display()
        ),
    );
    script(
        &fake.path().join("sbatch"),
        &format!("touch {d}/submitted\necho 1\n"),
    );
    for c in ["scontrol", "scancel"] {
        script(&fake.path().join(c), "exit 0\n");
    }
    let mut r = SlurmBenchExec::new(
        PathBuf::from("/nonexistent/smtcomp"),
        RunOptions {
            benchexec: "benchexec".into(),
            jobs: None,
            container: false,
            extra_path: Vec::new(),
            start_time: None,
            timeout: None,
            replace: false,
            read_only_dirs: Vec::new(),
        },
    );
    r.commands = SlurmCommands {
        sbatch: fake.path().join("sbatch"),
        squeue: fake.path().join("squeue"),
        scontrol: fake.path().join("scontrol"),
        scancel: fake.path().join("scancel"),
    };
    assert_eq!(
        smtcomp::pipeline::slurm_live_jobs(&r.commands, &exec),
        Some(vec![77])
    );
    let runs = r.run(&exec, &manifest, &defs);
    assert_eq!(runs.len(), defs.len());
    for run in &runs {
        let RunStatus::Failed { reason } = &run.status else {
            panic!("{run:?}");
        };
        assert!(
            reason.contains("Slurm job array 77 still works in") && reason.contains("`scancel 77`"),
            "{reason}"
        );
    }
    assert!(!fake.path().join("submitted").exists(), "nothing submitted");
}
