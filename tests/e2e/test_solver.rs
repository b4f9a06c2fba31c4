//! `smtcomp test-solver` on real BenchExec: a real run for z3 (restricted
//! tracks and logics), mock solvers whose failures must each get their own
//! plain-words reason, Proof Exhibition entries. The input errors (exit 2) are
//! in `tests/it/test_solver.rs`.
//!
//! The BenchExec runs need `benchexec` (and z3 for the z3 run and as a core
//! validator); without them the tests print "skipped" unless
//! `SMTCOMP_REQUIRE_SOLVERS=1`.

use crate::support::{require_tool, root, smtcomp, work_dir};
use std::path::Path;
use std::process::Command;

/// Runs `smtcomp test-solver ARGS` from `dir`: (exit code, stdout, stderr).
fn test_solver_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::support::smtcomp_bin())
        .arg("test-solver")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run smtcomp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A submission `name` of `participations` (tracks, logics, command) in `dir`.
fn write_submission(
    dir: &Path,
    name: &str,
    participations: &[(&[&str], &[&str], &[&str])],
) -> String {
    let parts: Vec<serde_json::Value> = participations
        .iter()
        .map(|(t, l, c)| serde_json::json!({ "tracks": t, "logics": l, "command": c }))
        .collect();
    let sub = serde_json::json!({
        "name": name,
        "contributors": ["Test"],
        "contacts": ["Test <test@example.org>"],
        "archive": { "url": "https://example.org/s.tar.gz" },
        "website": "https://example.org",
        "system_description": "https://example.org/s.pdf",
        "solver_type": "Standalone",
        "participations": parts,
        "seed": 7,
        "competitive": false,
        "final": false
    });
    let file = dir.join(format!("{name}.json"));
    std::fs::write(&file, serde_json::to_string_pretty(&sub).unwrap()).unwrap();
    file.to_str().unwrap().to_string()
}

/// From a directory that is not the repository (the corpus and the
/// definitions are built in), a solver in a directory under /tmp (which
/// BenchExec's container hides unless it is mounted): every entered logic x
/// track is tested, from the corpus or with generated benchmarks.
#[test]
fn a_solver_under_tmp_from_any_directory_covers_every_entered_logic() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("ts-any")
        .tempdir_in("/tmp")
        .unwrap();
    let solver = tmp.path().join("solver");
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&solver).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    executable(&solver.join("run-z3"), "#!/bin/sh\nexec z3 \"$@\"\n");
    let sub = write_submission(
        tmp.path(),
        "z3-in-tmp",
        &[
            (
                &["SingleQuery", "UnsatCore", "ModelValidation"],
                &["QF_IDL", "QF_UFNIA"],
                &["./run-z3", "-smt2"],
            ),
            (&["Incremental"], &["QF_UFNIA"], &["./run-z3", "-in"]),
        ],
    );
    let (code, stdout, stderr) = test_solver_in(
        &work,
        &[
            &sub,
            "--solver-dir",
            "../solver",
            "--jobs",
            "2",
            "--out",
            "out",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let solver_dir = solver.canonicalize().unwrap();
    assert!(
        r["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().ends_with(&format!(
                "(it hides /home, /tmp and /run): {}",
                solver_dir.display()
            ))),
        "{stdout}"
    );
    assert!(stderr.contains("library (built in): "), "{stderr}");
    // 3 tracks x 2 logics + Incremental x 1, all tested.
    assert_eq!(r["coverage"]["entered"], 7, "{stdout}");
    assert_eq!(r["coverage"]["tested"], 7, "{stdout}");
    // QF_IDL Unsat Core: the corpus' file, its core validated.
    let uc = runs(&r, "UnsatCore", "QF_IDL");
    assert_eq!(
        uc[0]["benchmark"],
        "non-incremental/QF_IDL/smtcomp_unsat-core_idl-cycle.smt2"
    );
    assert!(
        uc[0]["reason"].as_str().unwrap().contains("validated ("),
        "{stdout}"
    );
    // QF_UFNIA: generated sat and unsat; Incremental QF_UFNIA: generated, 3 check-sat.
    let sq = runs(&r, "SingleQuery", "QF_UFNIA");
    assert_eq!(sq.len(), 2, "{stdout}");
    assert!(
        sq.iter()
            .all(|x| x["generated"] == true && x["verdict"] == "OK")
    );
    let inc = runs(&r, "Incremental", "QF_UFNIA");
    assert_eq!(inc[0]["answer"], "3/3", "{stdout}");
    assert_eq!(inc[0]["generated"], true);
    let tracks = r["tracks"].as_array().unwrap();
    let with = |track: &str, logic: &str| {
        tracks
            .iter()
            .find(|t| t["track"] == track)
            .and_then(|t| {
                t["logics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|l| l["logic"] == logic)
            })
            .map(|l| l["tested_with"].clone())
    };
    assert_eq!(with("UnsatCore", "QF_IDL"), Some("library".into()));
    assert_eq!(with("SingleQuery", "QF_UFNIA"), Some("generated".into()));
    assert!(work.join("out/report.json").exists());
}

/// A file the solver reads that no command names, in a directory BenchExec's
/// container hides (/tmp): the run fails with a reason that names the file,
/// the hiding directory and the remedy; with that remedy
/// (`SMTCOMP_READ_ONLY_DIRS`) the same test passes.
#[test]
fn a_hidden_file_the_solver_reads_is_named_with_its_remedy() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("ts-hidden")
        .tempdir_in("/tmp")
        .unwrap();
    let (solver, data) = (tmp.path().join("solver"), tmp.path().join("data"));
    std::fs::create_dir_all(&solver).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    let config = data.join("config.sh");
    std::fs::write(&config, "Z3=z3\n").unwrap();
    executable(
        &solver.join("run-z3"),
        &format!("#!/bin/sh\n. {}\nexec \"$Z3\" \"$@\"\n", config.display()),
    );
    let sub = write_submission(
        tmp.path(),
        "z3-with-data",
        &[(&["SingleQuery"], &["QF_IDL"], &["./run-z3", "-smt2"])],
    );
    let run = |env: Option<&Path>| {
        let mut cmd = Command::new(crate::support::smtcomp_bin());
        cmd.arg("test-solver")
            .args([sub.as_str(), "--solver-dir"])
            .arg(&solver)
            .args(["--jobs", "2", "--out", "out", "--json"])
            .current_dir(tmp.path())
            .env_remove("SMTCOMP_READ_ONLY_DIRS");
        if let Some(d) = env {
            cmd.env("SMTCOMP_READ_ONLY_DIRS", d);
        }
        let o = cmd.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, stdout) = run(None);
    assert_eq!(code, Some(1), "{stdout}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let sq = runs(&r, "SingleQuery", "QF_IDL");
    assert!(!sq.is_empty(), "{stdout}");
    for x in &sq {
        let reason = x["reason"].as_str().unwrap();
        assert!(
            reason.contains(&format!(
                "{} exists on this machine but lies under /tmp",
                config.display()
            )) && reason.contains(&format!("SMTCOMP_READ_ONLY_DIRS={}", data.display())),
            "{reason}"
        );
    }
    let (code, stdout) = run(Some(&data));
    assert_eq!(code, Some(0), "{stdout}");
}

/// `--year 2025`: the 2025 test limits (60 s, 8192 MB, 2 cores; Parallel and
/// Cloud 8 cores), clamped to this machine and said so; Parallel and Cloud
/// entries run on small benchmarks with their limits.
#[test]
fn the_2025_test_limits_fit_the_machine_and_parallel_cloud_run() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("y2025");
    let sub = write_submission(
        work.path(),
        "z3-2025",
        &[(
            &["SingleQuery", "Parallel", "Cloud"],
            &["QF_LIA"],
            &["z3", "-smt2"],
        )],
    );
    let out = work.path().join("out");
    let (code, stdout, stderr) = test_solver(&[
        &sub,
        "--year",
        "2025",
        "--per-logic",
        "1",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let r = report(&out);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let limits = |track: &str| {
        r["tracks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["track"] == track)
            .map(|t| t["limits"].clone())
            .unwrap()
    };
    assert_eq!(limits("SingleQuery")["time_s"], 60);
    assert_eq!(limits("SingleQuery")["memory_mb"], 8192);
    assert_eq!(limits("SingleQuery")["cores"], 2u64.min(cores));
    assert_eq!(limits("Parallel")["cores"], 8u64.min(cores));
    assert!(stdout.contains("SingleQuery (60 s, 8192 MB, "), "{stdout}");
    if cores < 8 {
        assert!(
            stdout.contains(&format!(
                "note: Parallel: {cores} cores per run instead of the limit's 8 (this machine has {cores})"
            )),
            "{stdout}"
        );
    }
    for track in ["SingleQuery", "Parallel", "Cloud"] {
        let v = runs(&r, track, "QF_LIA");
        assert_eq!(v.len(), 1, "{track}: {stdout}");
        assert_eq!(v[0]["verdict"], "OK", "{track}: {stdout}");
    }
}

/// Runs `smtcomp test-solver ARGS` from the crate root: (exit code, stdout, stderr).
fn test_solver(args: &[&str]) -> (i32, String, String) {
    smtcomp(&[&["test-solver"], args].concat())
}

fn report(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

/// The runs of `track`/`logic` in a JSON report.
fn runs<'a>(r: &'a serde_json::Value, track: &str, logic: &str) -> Vec<&'a serde_json::Value> {
    r["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["track"] == track)
        .flat_map(|t| t["logics"].as_array().unwrap())
        .filter(|l| l["logic"] == logic)
        .flat_map(|l| l["runs"].as_array().unwrap())
        .collect()
}

#[test]
fn z3_passes_on_the_entered_tracks_it_is_asked_for() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("z3");
    let out = work.path().join("out");
    let start = std::time::Instant::now();
    let (code, stdout, stderr) = test_solver(&[
        "demo/submissions/z3.json",
        "--logic",
        "QF_BV|QF_UFLIA|QF_UFNIA",
        "--track",
        "SingleQuery",
        "--track",
        "inc",
        "--track",
        "UnsatCore",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    println!("z3 run: {:.1} s", start.elapsed().as_secs_f64());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("PASSED: "), "{stdout}");
    let r = report(&out);
    // --track restricts: Model Validation is entered but not asked for.
    let tracks: Vec<&str> = r["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["track"].as_str().unwrap())
        .collect();
    assert_eq!(tracks, ["SingleQuery", "Incremental", "UnsatCore"]);
    // One sat and one unsat in Single Query, both right.
    let sq = runs(&r, "SingleQuery", "QF_BV");
    let mut expected: Vec<&str> = sq.iter().map(|x| x["expected"].as_str().unwrap()).collect();
    expected.sort();
    assert_eq!(expected, ["sat", "unsat"], "{stdout}");
    assert!(sq.iter().all(|x| x["verdict"] == "OK"));
    // Incremental through the trace executor: every check-sat answered.
    let inc = runs(&r, "Incremental", "QF_BV");
    assert_eq!(inc.len(), 2, "{stdout}");
    assert!(inc.iter().all(|x| x["answer"] == "8/8"), "{stdout}");
    // Unsat Core: the core was validated.
    // (the corpus' benchmark, and a generated one: QF_UFLIA lacks an
    // incremental benchmark, so its generated files exist and count too).
    let uc = runs(&r, "UnsatCore", "QF_UFLIA");
    assert_eq!(uc.len(), 2, "{stdout}");
    assert!(
        uc.iter()
            .all(|x| x["reason"].as_str().unwrap().contains("validated (")),
        "{stdout}"
    );
    // Unsat Core in QF_BV: the corpus' Unsat-Core-eligible file.
    let uc = runs(&r, "UnsatCore", "QF_BV");
    assert_eq!(
        uc[0]["benchmark"],
        "non-incremental/QF_BV/smtcomp_unsat-core_bv-bounds.smt2"
    );
    assert!(uc[0]["reason"].as_str().unwrap().contains("validated ("));
    // QF_UFNIA has no benchmark in the corpus: generated ones, in every track.
    for track in ["SingleQuery", "Incremental", "UnsatCore"] {
        let g = runs(&r, track, "QF_UFNIA");
        assert!(!g.is_empty(), "{track}: {stdout}");
        assert!(
            g.iter()
                .all(|x| x["generated"] == true && x["verdict"] == "OK")
        );
    }
    // Every entered logic x track tested: 3 tracks x 3 logics.
    assert_eq!(r["coverage"]["entered"], 9, "{stdout}");
    assert_eq!(r["coverage"]["tested"], 9, "{stdout}");
    assert!(stdout.contains("Coverage: 9 of 9 entered logic x track combinations tested"));
}

/// A mock solver: its first argument says how it misbehaves.
const MOCK: &str = include_str!("../data/test-solver/mock.sh");

#[test]
fn mock_failures_get_their_own_reasons() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("mock");
    let dir = work.path();
    let mock = dir.join("mock.sh");
    std::fs::write(&mock, MOCK).unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&mock)
        .status()
        .unwrap();
    let file = dir.join("mock.json");
    std::fs::write(&file, include_str!("../data/test-solver/mock.json")).unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) = test_solver(&[
        file.to_str().unwrap(),
        "--solver-dir",
        dir.to_str().unwrap(),
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("FAILED: "), "{stdout}");
    for want in [
        // (a) incremental: the command the bad response answered.
        "solver answered 'unsupported' to (set-logic QF_BV) (command 1 of the benchmark, after 0 of 8 check-sat answers)",
        // (a') incremental: a solver that cannot start (a missing library),
        // one that crashes later, one that buffers its answers.
        "the solver crashed before answering the first command, (set-option :print-success true), which the trace executor sends first: exit code 127 (the command or a shared library it needs was not found); its last standard-error lines:",
        "| mock: error while loading shared libraries: libmock.so.1",
        "the solver crashed at (declare-fun x () Real) (command 2 of the benchmark), after 0 of 3 check-sat answers: killed by signal 11 (SIGSEGV)",
        "killed by signal 11 (SIGSEGV); its last standard-error lines:",
        "| mock: assertion failed in module Y",
        "it must flush standard output after each response",
        // (b) wrong answer.
        "wrong answer: answered sat, expected unsat",
        // (c) crash by a signal, with the last output line.
        "crash: killed by signal 11 (SIGSEGV)",
        "| mock: fatal error in module X",
        // (d) a core without a needed assertion.
        "unsat core refuted: the benchmark restricted to the core (smtcomp1 smtcomp2 smtcomp3) is sat",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    let r = report(&out);
    // 2 incremental 'unsupported', 3 incremental (missing library, crash,
    // buffered output), 1 wrong, 2 crashes (QF_LIA: the corpus' sat
    // benchmark and a generated unsat one), 1 core.
    assert_eq!(r["failed"], 2 + 3 + 1 + 2 + 1, "{stdout}");
    let sq = runs(&r, "SingleQuery", "QF_BV");
    let verdict_of = |status: &str| {
        sq.iter()
            .find(|x| x["expected"] == status)
            .map(|x| x["verdict"].clone())
    };
    assert_eq!(
        verdict_of("sat"),
        Some("OK".into()),
        "the sat benchmark is right"
    );
    assert_eq!(verdict_of("unsat"), Some("FAIL".into()));
}

/// A Proof Exhibition entry: `smtcomp_solver` and `smtcomp_checker` from the
/// submission's archive directory run through `smtcomp-proof-wrapper` on real
/// BenchExec. cvc5's proofs (the demo's archive) are checked valid; a mock
/// whose checker rejects the proof fails with the checker's verdict.
#[test]
fn proof_exhibition_entries_run_solver_and_checker() {
    if require_tool("benchexec").is_none() || require_tool("cvc5").is_none() {
        return;
    }
    let work = work_dir("proof");
    let dir = work.path();
    let submission = |name: &str| {
        let sub = serde_json::json!({
            "name": name,
            "contributors": ["Test"],
            "contacts": ["Test <test@example.org>"],
            "archive": { "url": "https://example.org/proof.tar.gz" },
            "website": "https://example.org",
            "system_description": "https://example.org/proof.pdf",
            "solver_type": "Standalone",
            "participations": [
                { "tracks": ["ProofExhibition"], "logics": "QF_UF", "command": ["./smtcomp_solver"] }
            ],
            "seed": 7,
            "competitive": false,
            "final": false
        });
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&sub).unwrap()).unwrap();
        file
    };
    let run = |file: &Path, solver_dir: &Path, out: &Path| {
        test_solver(&[
            file.to_str().unwrap(),
            "--solver-dir",
            solver_dir.to_str().unwrap(),
            "--per-logic",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let cvc5_out = dir.join("cvc5-out");
    let (code, stdout, stderr) = run(
        &submission("cvc5-proofs"),
        &root().join("demo/archives/cvc5"),
        &cvc5_out,
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("proof checked valid, proof of "),
        "{stdout}"
    );
    let r = report(&cvc5_out);
    assert_eq!(
        (r["passed"].as_u64(), r["failed"].as_u64()),
        (Some(1), Some(0)),
        "{stdout}"
    );

    let mock = dir.join("mock-archive");
    std::fs::create_dir_all(&mock).unwrap();
    for (name, text) in [
        (
            "smtcomp_solver",
            "#!/bin/sh\necho unsat\necho '(not a proof)'\n",
        ),
        ("smtcomp_checker", "#!/bin/sh\necho invalid\n"),
    ] {
        std::fs::write(mock.join(name), text).unwrap();
        Command::new("chmod")
            .arg("755")
            .arg(mock.join(name))
            .status()
            .unwrap();
    }
    let mock_out = dir.join("mock-out");
    let (code, stdout, stderr) = run(&submission("bad-proofs"), &mock, &mock_out);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("proof checker said invalid, proof of 20 bytes"),
        "{stdout}"
    );
}

/// Serves `body` over HTTP on 127.0.0.1 for `n` requests; returns the URL base.
fn serve(body: Vec<u8>, n: usize) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(n) {
            let Ok(mut s) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(&body);
        }
    });
    format!("http://127.0.0.1:{port}")
}

/// `--archive`: the submission's archive downloaded over HTTP, its sha256
/// checked, unpacked and run from `EXECDIR/archives/<solver>/` as the
/// competition runs it; a wrong hash stops the test (exit 2) before anything runs.
#[test]
fn archive_is_downloaded_checked_and_run_as_the_competition_does() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("archive");
    let d = work.path();
    std::fs::create_dir_all(d.join("src/bin")).unwrap();
    executable(&d.join("src/bin/run-z3"), "#!/bin/sh\nexec z3 \"$@\"\n");
    let tgz = d.join("solver.tar.gz");
    let ok = Command::new("tar")
        .args([
            "czf",
            tgz.to_str().unwrap(),
            "-C",
            d.join("src").to_str().unwrap(),
            "bin",
        ])
        .status()
        .unwrap();
    assert!(ok.success());
    let sha = String::from_utf8(Command::new("sha256sum").arg(&tgz).output().unwrap().stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let url = format!("{}/solver.tar.gz", serve(std::fs::read(&tgz).unwrap(), 2));
    let sub = |hash: &str| {
        let v = serde_json::json!({
            "name": "z3-archive",
            "contributors": ["Test"],
            "contacts": ["Test <test@example.org>"],
            "archive": { "url": url, "h": { "sha256": hash } },
            "website": "https://example.org",
            "system_description": "https://example.org/s.pdf",
            "solver_type": "Standalone",
            "command": ["bin/run-z3", "-smt2"],
            "participations": [ { "tracks": ["SingleQuery"], "logics": ["QF_LIA"] } ],
            "seed": 7,
            "competitive": false,
            "final": false
        });
        let f = d.join(format!("sub-{}.json", &hash[..8]));
        std::fs::write(&f, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        f
    };
    let out = d.join("out");
    let good = sub(&sha);
    let (code, stdout, stderr) = test_solver(&[
        good.to_str().unwrap(),
        "--archive",
        "--per-logic",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "archive {url}: unpacked into archives/z3-archive ("
        )) && stderr.contains(&format!("sha256 {sha}, checked)")),
        "{stderr}"
    );
    assert!(out.join("exec/archives/z3-archive/bin/run-z3").is_file());
    let r = report(&out);
    assert_eq!(
        runs(&r, "SingleQuery", "QF_LIA")[0]["verdict"],
        "OK",
        "{stdout}"
    );

    let bad = sub(&"0".repeat(64));
    let (code, stdout, stderr) = test_solver(&[
        bad.to_str().unwrap(),
        "--archive",
        "--out",
        d.join("out-bad").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(stderr.contains("--archive: "), "{stderr}");
    assert!(stderr.to_lowercase().contains("sha256"), "{stderr}");
}

/// Without a validator on PATH, a model no one checked is `NOT CHECKED` and
/// the test `INCOMPLETE` (exit 2), never `PASSED`; `--no-validation` accepts
/// unchecked runs on purpose (exit 0, saying so).
#[test]
fn without_a_validator_models_are_not_checked_and_the_test_does_not_pass() {
    let (Some(z3), Some(benchexec)) = (require_tool("z3"), require_tool("benchexec")) else {
        return;
    };
    let work = work_dir("not-checked");
    let dir = work.path();
    // The solver by its absolute path: PATH below holds no z3 (nor cvc5 from it).
    let sub = write_submission(
        dir,
        "z3abs",
        &[(
            &["ModelValidation"],
            &["QF_LIA"],
            &[z3.to_str().unwrap(), "-smt2"],
        )],
    );
    let helpers = crate::support::smtcomp_bin()
        .parent()
        .unwrap()
        .to_path_buf();
    // No z3 on this PATH (it is in the tools venv only), but the system tools BenchExec needs.
    let path = format!("{}:/usr/bin:/bin", helpers.display());
    assert!(
        !std::path::Path::new("/usr/bin/z3").exists(),
        "a z3 on the system PATH"
    );
    let run = |extra: &[&str]| {
        let out = Command::new(crate::support::smtcomp_bin())
            .args(["test-solver", &sub, "--per-logic", "1", "--benchexec"])
            .arg(&benchexec)
            .arg("--out")
            .arg(dir.join("out"))
            .args(extra)
            .env("PATH", &path)
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("NOT CHECKED"), "{out}");
    assert!(
        out.contains(
            "model not checked: no validator on PATH; install z3 (`pip install z3-solver`)"
        ),
        "{out}"
    );
    assert!(
        out.contains("INCOMPLETE: 0 OK, 0 FAIL, 1 NOT CHECKED, 0 not tested"),
        "{out}"
    );
    assert!(out.contains("tested, 0 of them checked"), "{out}");
    let (code, out, err) = run(&["--no-validation"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("model not validated (--no-validation)"),
        "{out}"
    );
    assert!(out.contains("PASSED: 1 OK, 0 FAIL, 0 not tested"), "{out}");
}

/// `test-solver --benchmarks FILE --library DIR`: exactly the listed
/// benchmarks of a local SMT-LIB copy, with the competition's limits; a listed
/// benchmark missing from the copy is NOT RUN and named (exit 2), one of a
/// logic the solver does not enter is accounted for in a note; the list's
/// `# track:` header is the default track, an incremental list runs through
/// the trace executor.
#[test]
fn a_listed_past_division_runs_exactly_its_benchmarks_with_the_competition_limits() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let work = work_dir("ts-list");
    let lib = work.path().join("smtlib");
    let corpus = root().join("tests/data/replay/corpus");
    for (from, to) in [
        ("single", "non-incremental"),
        ("incremental", "incremental"),
    ] {
        let dir = lib.join(to).join("QF_LIA/fam");
        std::fs::create_dir_all(&dir).unwrap();
        for e in std::fs::read_dir(corpus.join(from).join("QF_LIA")).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
    let present = [
        "non-incremental/QF_LIA/fam/CVC4-1.8_test_regress_regress0_bug383.smt2",
        "non-incremental/QF_LIA/fam/CVC4-1.8_test_regress_regress1_simplification_bug4.smt2",
    ];
    let absent = "non-incremental/QF_LIA/fam/not-in-the-copy.smt2";
    let other_logic = "non-incremental/LIA/fam/x.smt2";
    let list = work.path().join("list.txt");
    std::fs::write(
        &list,
        format!(
            "# 4 benchmarks\n# track: SingleQuery\n{}\n{absent}\n{}\n{other_logic}\n",
            present[0], present[1]
        ),
    )
    .unwrap();
    let out = work.path().join("out");
    let args = |list: &Path, out: &Path| -> Vec<String> {
        [
            "--year",
            "2025",
            "test-solver",
            "tests/data/replay/submissions/z3.json",
            "--benchmarks",
            list.to_str().unwrap(),
            "--library",
            lib.to_str().unwrap(),
            "--jobs",
            "2",
            "-o",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let a = args(&list, &out);
    let (code, stdout, stderr) = smtcomp(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("SMT-COMP 2025, competition limits"),
        "{stdout}"
    );
    assert!(
        stdout.contains("SingleQuery: the competition's limits for the listed benchmarks: 1200 s"),
        "{stdout}"
    );
    assert!(stdout.contains("SingleQuery (1200 s, "), "{stdout}");
    assert!(
        stdout.contains("note: 1 listed benchmark(s) not run: z3 does not enter their logic in SingleQuery, or they do not suit the track (LIA 1)"),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!(
            "test-solver: incomplete, 1 listed benchmark(s) not in the library {} (the first: {absent})",
            lib.display()
        )),
        "{stderr}"
    );
    let r = report(&out);
    let got: Vec<(String, String)> = runs(&r, "SingleQuery", "QF_LIA")
        .iter()
        .map(|x| {
            (
                x["benchmark"].as_str().unwrap().to_string(),
                x["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut want: Vec<(String, String)> = present
        .iter()
        .map(|p| (p.to_string(), "OK".to_string()))
        .collect();
    want.push((absent.to_string(), "NOT RUN".to_string()));
    want.sort();
    assert_eq!(got, want);
    // Every listed benchmark accounted for: 2 run + 1 missing + 1 not entered.
    assert_eq!(
        (r["passed"].as_u64(), r["not_run"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(r["missing"], serde_json::json!([absent]));
    // Only the listed logic is in the report (z3 enters every QF_ logic).
    assert_eq!(r["tracks"].as_array().unwrap().len(), 1);
    assert_eq!(r["tracks"][0]["logics"].as_array().unwrap().len(), 1);

    // The listed benchmarks that are there: PASSED.
    std::fs::write(
        &list,
        format!("# track: SingleQuery\n{}\n{}\n", present[0], present[1]),
    )
    .unwrap();
    let a = args(&list, &out);
    let (code, stdout, stderr) = smtcomp(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("PASSED: 2 OK, 0 FAIL"), "{stdout}");

    // An incremental list: the Incremental track, through the trace executor.
    let inc: Vec<String> = std::fs::read_dir(lib.join("incremental/QF_LIA/fam"))
        .unwrap()
        .map(|e| {
            format!(
                "incremental/QF_LIA/fam/{}",
                e.unwrap().file_name().to_string_lossy()
            )
        })
        .collect();
    std::fs::write(&list, format!("# track: Incremental\n{}\n", inc.join("\n"))).unwrap();
    let a = args(&list, &out);
    let (code, stdout, stderr) = smtcomp(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let r = report(&out);
    assert_eq!(runs(&r, "Incremental", "QF_LIA").len(), inc.len());
    assert_eq!(r["passed"].as_u64(), Some(inc.len() as u64));
}
