//! `smtcomp prepare` on the real corpus: file layout and manifest, and real
//! solvers (z3, cvc5) answering the prepared Unsat-Core and Model-Validation
//! files; prepared incremental files run through `smtcomp-trace-executor`.

use crate::support::solvers::run_solver;
use crate::support::{require_tool, root, smtcomp};
use smtcomp::benchmarks::{Inventory, scan};
use smtcomp::model::{Competition, Status, Track};
use smtcomp::prepare::PreparedSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `inv`, selects `track` with `seed` and prepares it from `library`
/// into `dir/prepared` (extra `prepare` arguments in `extra`).
fn select_prepare(
    dir: &Path,
    track: &str,
    inv: &Inventory,
    library: &Path,
    seed: &str,
    extra: &[&str],
) -> PreparedSet {
    let inv_path = dir.join(format!("{track}.inv.json"));
    inv.write(&inv_path).unwrap();
    let sel = dir.join(format!("{track}.sel.json"));
    let (code, _, err) = smtcomp(&[
        "select",
        track,
        "--inventory",
        inv_path.to_str().unwrap(),
        "--seed",
        seed,
        "-o",
        sel.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let prepared = dir.join("prepared");
    let mut args = vec![
        "prepare",
        track,
        "--selection",
        sel.to_str().unwrap(),
        "--library",
        library.to_str().unwrap(),
        "--out",
        prepared.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, err) = smtcomp(&args);
    assert_eq!(code, 0, "{stdout}{err}");
    PreparedSet::read(&prepared, track.parse().unwrap()).unwrap()
}

/// Scans the corpus (without the slow files) and selects + prepares `track` with seed 5.
fn prepare_corpus(track: &str, out: &Path) -> PreparedSet {
    let comp = Competition::builtin(2025).unwrap();
    let inv = scan(&root().join("corpus"), &comp, 2);
    let lib = out.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    // Only the fast files: a library root without corpus/slow.
    for kind in ["single", "incremental"] {
        std::os::unix::fs::symlink(root().join("corpus").join(kind), lib.join(kind)).unwrap();
    }
    let inv = Inventory {
        non_incremental: inv
            .non_incremental
            .into_iter()
            .filter(|b| {
                lib.join("single")
                    .join(b.file.logic.as_str())
                    .join(&b.file.name)
                    .exists()
            })
            .collect(),
        ..inv
    };
    select_prepare(out, track, &inv, &lib.join("single"), "5", &[])
}

fn prepared_file(out: &Path, set: &PreparedSet, rel: &str) -> PathBuf {
    PreparedSet::track_dir(&out.join("prepared"), set.track).join(rel)
}

#[test]
fn layout_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let set = prepare_corpus("SingleQuery", dir.path());
    assert!(set.failures.is_empty(), "{:?}", set.failures);
    assert_eq!(set.method, "smtcomp");
    assert!(set.benchmarks.len() >= 40);
    for b in &set.benchmarks {
        assert!(
            b.path
                .starts_with(&format!("{}/scrambled", b.original.logic)),
            "{}",
            b.path
        );
        let text = std::fs::read_to_string(prepared_file(dir.path(), &set, &b.path)).unwrap();
        assert!(text.starts_with("(set-option :print-success false)\n"));
        assert!(!text.contains("set-info"), "{}", b.path);
    }
    // File names are a permutation of 0..n.
    let mut ids: Vec<usize> = set
        .benchmarks
        .iter()
        .map(|b| {
            b.path
                .rsplit("scrambled")
                .next()
                .unwrap()
                .trim_end_matches(".smt2")
                .parse()
                .unwrap()
        })
        .collect();
    ids.sort();
    assert_eq!(ids, (0..set.benchmarks.len()).collect::<Vec<_>>());
}

#[test]
fn real_solvers_give_cores_for_prepared_unsat_core_files() {
    let (Some(_), Some(_)) = (require_tool("z3"), require_tool("cvc5")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let set = prepare_corpus("UnsatCore", dir.path());
    let qf: Vec<_> = set
        .benchmarks
        .iter()
        .filter(|b| b.original.logic.as_str().starts_with("QF_"))
        .collect();
    assert!(qf.len() >= 5, "{}", qf.len());
    for b in qf {
        assert_eq!(b.status, Status::Unsat);
        let f = prepared_file(dir.path(), &set, &b.path);
        for solver in ["z3 -smt2", "cvc5 --lang smt2"] {
            let out = run_solver(solver, &f).0;
            let mut lines = out.lines();
            assert_eq!(
                lines.next(),
                Some("unsat"),
                "{solver:?} on {} ({}): {out}",
                b.path,
                b.original.name
            );
            let core = lines.collect::<Vec<_>>().join(" ");
            assert!(
                core.trim_start().starts_with('('),
                "{solver:?} {}: {out}",
                b.original.name
            );
            assert!(
                core.contains("smtcomp"),
                "{solver:?} {}: core {core}",
                b.original.name
            );
        }
    }
}

#[test]
fn real_solvers_give_models_for_prepared_model_validation_files() {
    let (Some(_), Some(_)) = (require_tool("z3"), require_tool("cvc5")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let set = prepare_corpus("ModelValidation", dir.path());
    assert!(set.benchmarks.len() >= 5);
    for b in &set.benchmarks {
        assert_eq!(b.status, Status::Sat);
        let f = prepared_file(dir.path(), &set, &b.path);
        for solver in ["z3 -smt2", "cvc5 --lang smt2"] {
            let out = run_solver(solver, &f).0;
            let mut lines = out.lines();
            assert_eq!(
                lines.next(),
                Some("sat"),
                "{solver:?} on {}: {out}",
                b.original.name
            );
            let model = lines.collect::<Vec<_>>().join("\n");
            assert!(
                model.trim_start().starts_with('('),
                "{solver:?} {}: {out}",
                b.original.name
            );
            assert!(
                !model.contains("error"),
                "{solver:?} {}: {out}",
                b.original.name
            );
        }
    }
}

#[test]
fn prepared_incremental_files_run_through_the_trace_executor() {
    let Some(_) = require_tool("z3") else { return };
    let dir = tempfile::tempdir().unwrap();
    // The incremental corpus files live under corpus/incremental (the library root for them).
    let comp = Competition::builtin(2025).unwrap();
    let inv = scan(&root().join("corpus"), &comp, 2);
    let set = select_prepare(
        dir.path(),
        "Incremental",
        &inv,
        &root().join("corpus"),
        "5",
        &[],
    );
    let prepared = dir.path().join("prepared");
    let with_status: Vec<_> = set
        .benchmarks
        .iter()
        .filter(|b| {
            b.expected
                .as_ref()
                .is_some_and(|e| e.iter().all(|s| *s != Status::Unknown))
        })
        .collect();
    assert!(with_status.len() >= 3, "{}", with_status.len());
    for b in with_status {
        let f = PreparedSet::track_dir(&prepared, Track::Incremental).join(&b.path);
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(text.contains("--- BENCHMARK BEGINS HERE ---\n"));
        assert!(text.ends_with("(exit)\n"));
        let output = // The executor is another workspace package: its binary is next to ours.
        Command::new(Path::new(env!("CARGO_BIN_EXE_smtcomp")).with_file_name("smtcomp-trace-executor"))
            .args(["z3", "-in"])
            .arg(&f)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let expected = b.expected.as_ref().unwrap();
        let answers: Vec<&str> = stdout
            .lines()
            .filter(|l| *l == "sat" || *l == "unsat")
            .collect();
        let want: Vec<&str> = expected.iter().map(|s| s.name()).collect();
        assert_eq!(answers, want, "{}: {stdout}", b.original.name);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: {stdout}",
            b.original.name
        );
    }
}

#[test]
fn an_external_scrambler_is_used_when_given() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("scrambler");
    // A stand-in that records its arguments and copies stdin.
    std::fs::write(&fake, "#!/bin/sh\necho \"; args: $*\"\ncat\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let comp = Competition::builtin(2025).unwrap();
    let inv = scan(&root().join("corpus/incremental"), &comp, 1);
    let set = select_prepare(
        dir.path(),
        "Incremental",
        &inv,
        &root().join("corpus/incremental"),
        "9",
        &["--scrambler", fake.to_str().unwrap()],
    );
    let prepared = dir.path().join("prepared");
    assert!(
        set.method
            .ends_with("scrambler -term_annot pattern -incremental true -seed 9"),
        "{}",
        set.method
    );
    let b = &set.benchmarks[0];
    let text = std::fs::read_to_string(
        PreparedSet::track_dir(&prepared, Track::Incremental).join(&b.path),
    )
    .unwrap();
    let header_len = b.expected.as_ref().unwrap().len();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[header_len], "--- BENCHMARK BEGINS HERE ---");
    assert_eq!(
        lines[header_len + 1],
        "; args: -term_annot pattern -incremental true -seed 9"
    );
}

/// `prepare --json`: the counts and the track directory of the text line, as
/// one JSON document, agreeing with the prepared manifest.
#[test]
fn prepare_json_reports_the_prepared_set() {
    let tmp = tempfile::tempdir().unwrap();
    let set = prepare_corpus("SingleQuery", tmp.path());
    let out = tmp.path().join("again");
    let (code, stdout, stderr) = smtcomp(&[
        "prepare",
        "--track",
        "SingleQuery",
        "--selection",
        tmp.path().join("SingleQuery.sel.json").to_str().unwrap(),
        "--library",
        tmp.path().join("lib/single").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "track",
            "track_dir",
            "method",
            "prepared",
            "failed",
            "failures"
        ]
    );
    assert_eq!(v["track"], "SingleQuery");
    assert_eq!(
        v["track_dir"],
        PreparedSet::track_dir(&out, Track::SingleQuery)
            .display()
            .to_string()
    );
    assert_eq!(v["method"], set.method);
    assert_eq!(v["prepared"], set.benchmarks.len());
    assert!(!set.benchmarks.is_empty());
    assert_eq!(v["failed"], 0);
    assert_eq!(v["failures"], serde_json::json!([]));
    let again = PreparedSet::read(&out, Track::SingleQuery).unwrap();
    assert_eq!(again.benchmarks.len(), set.benchmarks.len());
}
