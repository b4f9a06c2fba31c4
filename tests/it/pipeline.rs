//! The pipeline without BenchExec: the demo pipeline end to end on the
//! `Replay` runner, from the recording in `tests/data/replay/` (a reduced demo:
//! z3 and Yices on five QF_LIA benchmarks), and the runner backends' failures.

use crate::support::{copy_tree, replay, require_tool};
use smtcomp::benchexec::Manifest;
use smtcomp::pipeline::{LocalBenchExec, Replay, RunStatus, Runner, reason_line};
use std::collections::BTreeMap;

fn answers(outcome: &smtcomp::demo::DemoOutcome) -> BTreeMap<String, BTreeMap<String, usize>> {
    outcome.check.answers.clone()
}

#[test]
fn the_demo_pipeline_replays_recorded_benchexec_results() {
    // Model validation runs z3 on the substituted benchmarks.
    if require_tool("z3").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let opts = replay::demo_options(out.path());
    let runner = Replay {
        recording: replay::recording(),
    };
    let mut log = Vec::new();
    let outcome = smtcomp::demo::run(&opts, &runner, &mut |l| log.push(l.to_string())).unwrap();
    let log = log.join("\n");
    assert!(log.contains("generation: 6 benchmark definitions"), "{log}");
    assert!(log.contains("runs: 6 definitions run"), "{log}");
    assert!(log.contains("ingestion: 12 runs"), "{log}");
    assert!(log.contains("2 models ({\"VALID\": 2})"), "{log}");

    // The run table: what the recorded run answered.
    assert_eq!(outcome.runs.len(), 12);
    let expected: BTreeMap<String, BTreeMap<String, usize>> = [
        ("Incremental", vec![("done", 6)]),
        ("ModelValidation", vec![("sat", 2)]),
        ("SingleQuery", vec![("error", 1), ("sat", 2), ("unsat", 1)]),
    ]
    .into_iter()
    .map(|(t, a)| {
        (
            t.to_string(),
            a.into_iter().map(|(k, n)| (k.to_string(), n)).collect(),
        )
    })
    .collect();
    assert_eq!(answers(&outcome), expected);
    assert!(outcome.check.ok(), "{:?}", outcome.check);
    assert_eq!(outcome.check.expected_runs["SingleQuery"], 4);

    // The scores: z3 answered both Single Query benchmarks, Yices 2 erred on the unsat one.
    let winners: Vec<String> = smtcomp::demo::winners(&outcome.scores)
        .into_iter()
        .map(|(t, d, k, w)| format!("{t} {d} {k} {w}"))
        .collect();
    for w in [
        "SingleQuery QF_LinearIntArith sequential z3",
        "SingleQuery QF_LinearIntArith unsat z3",
        "SingleQuery QF_LinearIntArith sat Yices 2",
        "ModelValidation QF_LinearIntArith sequential Yices 2",
    ] {
        assert!(winners.contains(&w.to_string()), "{w} not in {winners:?}");
    }
    for f in [
        "single-query.md",
        "incremental.json",
        "model-validation.json",
        "proof-exhibition.json",
    ] {
        assert!(out.path().join("scores").join(f).is_file(), "{f}");
    }
    assert!(outcome.site_index.is_file());

    // A second run reuses every stage and scores the same.
    let mut log2 = Vec::new();
    let again = smtcomp::demo::run(&opts, &runner, &mut |l| log2.push(l.to_string())).unwrap();
    assert!(
        log2.iter().any(|l| l == "runs: reused (6 definitions run)"),
        "{log2:?}"
    );
    assert_eq!(answers(&again), expected);
    assert_eq!(
        smtcomp::demo::winners(&again.scores),
        smtcomp::demo::winners(&outcome.scores)
    );
}

#[test]
fn a_missing_recording_fails_naming_the_definition() {
    let rec = tempfile::tempdir().unwrap();
    copy_tree(&replay::recording(), rec.path());
    std::fs::remove_dir_all(
        rec.path()
            .join("model-validation/z3_model_QF_LinearIntArith"),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let runner = Replay {
        recording: rec.path().to_path_buf(),
    };
    let err =
        smtcomp::demo::run(&replay::demo_options(out.path()), &runner, &mut |_| {}).unwrap_err();
    let text = format!("{err:#}");
    assert!(text.contains("stage runs"), "{text}");
    assert!(
        text.contains("BenchExec failed for 1 definitions"),
        "{text}"
    );
    assert!(
        text.contains("z3_model_QF_LinearIntArith.xml: replay of z3_model_QF_LinearIntArith.xml: no recorded BenchExec results in"),
        "{text}"
    );

    // The runner itself: one status per requested definition, in order.
    let exec = out.path().join("exec");
    let manifest = Manifest::read(&exec).unwrap();
    let defs: Vec<&str> = manifest.definitions.keys().map(String::as_str).collect();
    let runs = runner.run(&exec, &manifest, &defs);
    assert_eq!(runs.len(), 6);
    let failed: Vec<&str> = runs
        .iter()
        .filter(|r| r.status != RunStatus::Ran)
        .map(|r| r.definition.as_str())
        .collect();
    assert_eq!(failed, ["z3_model_QF_LinearIntArith.xml"]);
    let unknown = runner.run(&exec, &manifest, &["nope.xml"]);
    assert_eq!(
        unknown[0].failure(),
        Some("replay of nope.xml: nope.xml: no such definition in the manifest")
    );
}

#[test]
fn the_local_runner_checks_for_benchexec_and_reads_its_reason_line() {
    let runner = LocalBenchExec {
        options: smtcomp::benchexec::RunOptions {
            benchexec: "/nonexistent/benchexec".into(),
            jobs: None,
            container: true,
            extra_path: Vec::new(),
            start_time: None,
            timeout: None,
            replace: true,
            read_only_dirs: Vec::new(),
        },
        calls: 1,
    };
    let err = runner.check().unwrap_err().to_string();
    assert!(
        err.contains("/nonexistent/benchexec: BenchExec not found"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("benchexec.log");
    std::fs::write(
        &log,
        "2025-07-01 12:00:00 - INFO - BenchExec 3.2\n\
         2025-07-01 12:00:01 - ERROR - Cannot execute 'z3': not found\n\
         \n2025-07-01 12:00:01 - INFO - done\n",
    )
    .unwrap();
    assert_eq!(
        reason_line(&log).as_deref(),
        Some("Cannot execute 'z3': not found")
    );
    std::fs::write(&log, "Traceback\n  KeyError: 'x'\n\n").unwrap();
    assert_eq!(reason_line(&log).as_deref(), Some("KeyError: 'x'"));
    assert_eq!(reason_line(&dir.path().join("none")), None);
}

#[test]
fn missing_helper_binaries_are_named() {
    let empty = tempfile::tempdir().unwrap();
    let dirs = vec![empty.path().to_path_buf()];
    assert_eq!(
        smtcomp::pipeline::missing_helpers(&dirs),
        ["smtcomp-trace-executor", "smtcomp-proof-wrapper"]
    );
    std::fs::write(empty.path().join("smtcomp-trace-executor"), "").unwrap();
    assert_eq!(
        smtcomp::pipeline::missing_helpers(&dirs),
        ["smtcomp-proof-wrapper"]
    );
}

/// A stand-in for BenchExec's `vcloud-benchmark.py` that "runs" a definition
/// by copying its recorded results into the `-o` directory (a definition of
/// missing runs, `definitions/missing/...`, under another start time, as a
/// later collection), and fails (exit 1, an ERROR line, no results) once a
/// file `fail` exists beside it.
fn fake_vcloud_client(dir: &std::path::Path, recording: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let client = dir.join("vcloud-benchmark.py");
    std::fs::write(
        &client,
        format!(
            "#!/bin/sh\ndef=$1; out=\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n\
             [ -e '{}' ] && {{ echo \"2025-07-01 - ERROR - run collection $def rejected\" >&2; exit 1; }}\n\
             rel=${{out#results/}}\nfor f in '{}'/\"$rel\"*; do n=$(basename \"$f\")\n\
             case $def in definitions/missing/*) n=$(echo \"$n\" | sed s/12-00-00/13-00-00/) ;; esac\n\
             cp \"$f\" \"$out/$n\"; done\necho \"$def\" >> '{}'\n",
            dir.join("fail").display(),
            recording.display(),
            dir.join("calls").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&client, std::fs::Permissions::from_mode(0o755)).unwrap();
    client
}

#[test]
fn the_verifiercloud_runner_drives_run_vcloud_per_definition_and_names_failures() {
    if require_tool("z3").is_none() {
        return;
    }
    // The demo pipeline with the VerifierCloud backend: the same runs as the replay.
    let out = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let client = fake_vcloud_client(bin.path(), &replay::recording());
    let runner = smtcomp::pipeline::VcloudBenchExec::new(client.clone());
    runner.check().unwrap();
    let mut log = Vec::new();
    let outcome = smtcomp::demo::run(&replay::demo_options(out.path()), &runner, &mut |l| {
        log.push(l.to_string())
    })
    .unwrap();
    assert!(
        log.iter().any(|l| l.starts_with("runs: 6 definitions run")),
        "{log:?}"
    );
    assert_eq!(outcome.runs.len(), 12);
    assert!(outcome.check.ok(), "{:?}", outcome.check);
    let calls = std::fs::read_to_string(bin.path().join("calls")).unwrap();
    assert_eq!(
        calls.lines().count(),
        6,
        "one client call per definition: {calls}"
    );

    // A definition the cloud rejects: failed, with the client's reason and its log.
    let exec = out.path().join("exec");
    let manifest = Manifest::read(&exec).unwrap();
    let (file, def) = manifest.definitions.iter().next().unwrap();
    std::fs::remove_dir_all(exec.join(&def.results_dir)).unwrap();
    std::fs::write(bin.path().join("fail"), "").unwrap();
    let runs = runner.run(&exec, &manifest, &[file.as_str()]);
    let why = runs[0].failure().unwrap();
    assert!(
        why.starts_with("the VerifierCloud client exit code 1, 0 of "),
        "{why}"
    );
    assert!(
        why.contains("; it said: run collection ") && why.ends_with(" rejected"),
        "{why}"
    );
    assert!(runs[0].log.as_ref().unwrap().ends_with("vcloud-client.log"));

    // A definition whose results lack runs: only those runs, through
    // `run-vcloud.sh --missing`, next to its results (a new result file).
    std::fs::remove_file(bin.path().join("fail")).unwrap();
    let runs = runner.run(&exec, &manifest, &[file.as_str()]);
    assert!(runs[0].failure().is_none(), "{:?}", runs[0]);
    let mut missing = std::collections::BTreeMap::new();
    let (rd, _) = def.rundefinitions.iter().next().unwrap();
    missing.insert(rd.clone(), vec!["../../../tasks/x.yml".to_string()]);
    let again = runner.run_missing(&exec, &manifest, file, &missing);
    assert!(again.failure().is_none(), "{again:?}");
    let subset = exec.join("definitions/missing").join(file);
    assert!(subset.is_file(), "{}", subset.display());
    let calls = std::fs::read_to_string(bin.path().join("calls")).unwrap();
    assert_eq!(
        calls.lines().last(),
        Some(format!("definitions/missing/{file}").as_str()),
        "{calls}"
    );
    let names: Vec<String> = smtcomp::benchexec::result_files(&exec.join(&def.results_dir))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.contains("12-00-00"))
            && names.iter().any(|n| n.contains("13-00-00")),
        "{names:?}"
    );
    // Without its subset file, `--missing` fails instead of skipping quietly.
    std::fs::remove_file(&subset).unwrap();
    let st = std::process::Command::new(exec.join("run-vcloud.sh"))
        .args(["--missing", &def.path])
        .env("VCLOUD_BENCHMARK", &client)
        .current_dir(&exec)
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&st.stderr)
            .contains("smtcomp run writes the runs still missing there")
    );

    // No client: the check names the setting.
    let none = smtcomp::pipeline::VcloudBenchExec::new(bin.path().join("nope.py"));
    let err = none.check().unwrap_err().to_string();
    assert!(err.contains("[backend] vcloud_benchmark"), "{err}");
}
