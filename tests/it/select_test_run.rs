//! `smtcomp select --test` (issue 21 item 3): the organizers' test run, as the
//! reference tool's test mode (anchor spec 1.4 and 7.3 step 8: min 20, ratio 0,
//! triviality inverted, seed 1). Expected selections worked out in the comments.

use crate::support::smtcomp;
use smtcomp::benchmarks::{Inventory, NonIncrementalInfo, Smt2File};
use smtcomp::formats::datafile;
use smtcomp::formats::results::{ResultsFile, RunRecord};
use smtcomp::model::{Answer, Logic, Status, Track};
use smtcomp::select::Selection;
use std::path::{Path, PathBuf};

fn file(logic: &str, name: &str) -> Smt2File {
    Smt2File {
        incremental: false,
        logic: Logic::new(logic),
        family: vec!["2019-f".to_string()],
        name: name.to_string(),
    }
}

fn run(f: &Smt2File, solver: &str, cpu: f64) -> RunRecord {
    RunRecord {
        track: Track::SingleQuery,
        solver: solver.into(),
        file: f.clone(),
        result: Answer::Sat,
        cpu_time: cpu,
        wallclock_time: cpu,
        memory_usage: 0.0,
        nb_answers: None,
    }
}

/// The inventory (all sat, family 2019-f, so nothing is new):
/// QF_UF u0..u5, QF_BV v0..v2, QF_LIA l0, l1.
///
/// Previous results (solvers S and T; trivial = both correct in < 1 s CPU):
/// QF_UF u1, u3: 0.1 s each (trivial); u0, u4: 0.1 s and 5 s (not trivial);
/// u2, u5 never run. QF_LIA l0: 0.2 s each (trivial); l1: 7 s (not). QF_BV:
/// never run.
struct Setup {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    inventory: PathBuf,
    previous: PathBuf,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let mut benches = Vec::new();
    for (logic, names) in [
        ("QF_UF", &["u0", "u1", "u2", "u3", "u4", "u5"][..]),
        ("QF_BV", &["v0", "v1", "v2"][..]),
        ("QF_LIA", &["l0", "l1"][..]),
    ] {
        for n in names {
            benches.push(NonIncrementalInfo {
                file: file(logic, &format!("{n}.smt2")),
                status: Status::Sat,
                asserts: 3,
                category: None,
            });
        }
    }
    let inventory = dir.join("inv.json");
    let inv = Inventory {
        non_incremental: benches,
        ..Inventory::default()
    };
    datafile::write_json(&inventory, &inv).unwrap();
    let mut results = Vec::new();
    for (logic, name, s, t) in [
        ("QF_UF", "u1", 0.1, 0.1),
        ("QF_UF", "u3", 0.1, 0.1),
        ("QF_UF", "u0", 0.1, 5.0),
        ("QF_UF", "u4", 5.0, 0.1),
        ("QF_LIA", "l0", 0.2, 0.2),
        ("QF_LIA", "l1", 7.0, 7.0),
    ] {
        let f = file(logic, &format!("{name}.smt2"));
        results.push(run(&f, "S", s));
        results.push(run(&f, "T", t));
    }
    let previous = dir.join("previous-results.json");
    ResultsFile { results }.write(&previous).unwrap();
    Setup {
        _tmp: tmp,
        dir,
        inventory,
        previous,
    }
}

/// Runs `smtcomp select SingleQuery --inventory INV EXTRA... -o DIR/OUT`;
/// returns the selection, the output bytes and stderr.
fn select(s: &Setup, extra: &[&str], out: &str) -> (Selection, Vec<u8>, String) {
    let path = s.dir.join(out);
    let mut args = vec![
        "select",
        "SingleQuery",
        "--inventory",
        s.inventory.to_str().unwrap(),
        "-o",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = smtcomp(&args);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&path).unwrap();
    (serde_json::from_slice(&bytes).unwrap(), bytes, err)
}

fn names(s: &Selection, logic: &str) -> Vec<String> {
    s.benchmarks
        .iter()
        .filter(|b| b.file.logic.as_str() == logic)
        .map(|b| b.file.name.trim_end_matches(".smt2").to_string())
        .collect()
}

/// Default N = 20: QF_UF has trivial benchmarks, so only they: u1, u3 (2 <= 20,
/// all taken). QF_LIA: only l0. QF_BV: no trivial one known, all 3 eligible,
/// all taken. The competition's selection keeps exactly the others: QF_UF
/// u0, u2, u4, u5; QF_LIA l1; QF_BV v0..v2. Seed 1 without --seed.
#[test]
fn test_run_prefers_trivial_benchmarks() {
    let s = setup();
    let prev = s.previous.to_str().unwrap();
    let (t, bytes, err) = select(&s, &["--test", "--previous-results", prev], "t1.json");
    assert_eq!(t.seed, 1);
    assert_eq!(names(&t, "QF_UF"), ["u1", "u3"]);
    assert_eq!(names(&t, "QF_LIA"), ["l0"]);
    assert_eq!(names(&t, "QF_BV"), ["v0", "v1", "v2"]);
    assert_eq!(t.benchmarks.len(), 6);
    let uf = &t.logics[&Logic::new("QF_UF")];
    // trivial = the trivial ones kept; eligible = them; cap = min(2, 20).
    assert_eq!((uf.all, uf.trivial, uf.eligible, uf.cap), (6, 2, 2, 2));
    assert!(
        err.contains("note: test run: up to 20 benchmarks per logic, seed 1; in logics with"),
        "{err}"
    );
    assert!(t.notes.iter().any(|n| n.starts_with("test run: ")));
    // Deterministic: the same bytes again.
    let (_, again, _) = select(&s, &["--test", "--previous-results", prev], "t2.json");
    assert_eq!(bytes, again);
    // The competition's selection drops the trivial ones instead.
    let (c, _, _) = select(&s, &["--seed", "1", "--previous-results", prev], "c.json");
    assert_eq!(names(&c, "QF_UF"), ["u0", "u2", "u4", "u5"]);
    assert_eq!(names(&c, "QF_LIA"), ["l1"]);
    assert_eq!(names(&c, "QF_BV"), ["v0", "v1", "v2"]);
}

/// `--test-per-logic 1`: QF_UF one of u1, u3; QF_LIA l0; QF_BV one of v0..v2
/// (glibc random, seed 1: u1 and v1). Two runs: identical bytes. Another
/// seed may draw others, but always among the same candidates.
#[test]
fn test_run_caps_per_logic_and_is_deterministic() {
    let s = setup();
    let prev = s.previous.to_str().unwrap();
    let args = [
        "--test",
        "--test-per-logic",
        "1",
        "--previous-results",
        prev,
    ];
    let (t, bytes, _) = select(&s, &args, "a.json");
    // Seed 1 draws u1 of {u1, u3} and v1 of {v0, v1, v2}.
    assert_eq!(names(&t, "QF_UF"), ["u1"]);
    assert_eq!(names(&t, "QF_LIA"), ["l0"]);
    assert_eq!(names(&t, "QF_BV"), ["v1"]);
    let (_, again, _) = select(&s, &args, "b.json");
    assert_eq!(bytes, again);
    for seed in ["2", "3", "4"] {
        let mut more = args.to_vec();
        more.extend_from_slice(&["--seed", seed]);
        let (o, _, _) = select(&s, &more, &format!("seed{seed}.json"));
        let uf = names(&o, "QF_UF");
        assert!(uf == ["u1"] || uf == ["u3"], "{uf:?}");
        assert_eq!(names(&o, "QF_LIA"), ["l0"]);
        assert_eq!(o.seed.to_string(), seed);
    }
}

/// A submission file entering `logics` of the Single Query Track.
fn submission(dir: &Path, name: &str, authors: &[&str], logics: &str) {
    let json = serde_json::json!({
        "name": name,
        "contributors": authors,
        "contacts": ["x <x@example.org>"],
        "archive": {"url": "https://example.org/a.zip"},
        "website": "https://example.org",
        "system_description": "https://example.org/d.pdf",
        "command": ["./s"],
        "solver_type": "Standalone",
        "participations": [{"tracks": ["SingleQuery"], "logics": logics}],
        "seed": 1,
        "competitive": true
    });
    std::fs::write(dir.join(format!("{name}.json")), json.to_string()).unwrap();
}

/// `--submissions`: two teams enter QF_UF and QF_LIA, nobody QF_BV: the test
/// run has u1, u3 and l0 only.
#[test]
fn test_run_only_for_entered_logics() {
    let s = setup();
    let subs = s.dir.join("subs");
    std::fs::create_dir(&subs).unwrap();
    submission(&subs, "A", &["a"], "QF_(UF|LIA)");
    submission(&subs, "B", &["b"], "QF_(UF|LIA)");
    let (t, _, _) = select(
        &s,
        &[
            "--test",
            "--previous-results",
            s.previous.to_str().unwrap(),
            "--submissions",
            subs.to_str().unwrap(),
        ],
        "subs.json",
    );
    assert_eq!(names(&t, "QF_UF"), ["u1", "u3"]);
    assert_eq!(names(&t, "QF_LIA"), ["l0"]);
    assert!(names(&t, "QF_BV").is_empty());
    assert!(!t.logics.contains_key(&Logic::new("QF_BV")));
}

/// Without previous results nothing is known to be trivial: up to N of all
/// eligible benchmarks (N = 2: QF_UF 2 of 6, QF_BV 2 of 3, QF_LIA both), said
/// on stderr. `--test` on Parallel or without `--test` and `--seed`: usage.
#[test]
fn test_run_without_previous_results_and_usage_errors() {
    let s = setup();
    let (t, _, err) = select(&s, &["--test", "--test-per-logic", "2"], "none.json");
    assert_eq!(names(&t, "QF_UF").len(), 2);
    assert_eq!(names(&t, "QF_BV").len(), 2);
    assert_eq!(names(&t, "QF_LIA"), ["l0", "l1"]);
    assert!(
        err.contains("no previous results, so no benchmark is known to be trivial"),
        "{err}"
    );
    let inv = s.inventory.to_str().unwrap();
    let (code, _, err) = smtcomp(&["select", "Parallel", "--inventory", inv, "--test"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not Parallel/Cloud"), "{err}");
    let (code, _, err) = smtcomp(&["select", "SingleQuery", "--inventory", inv]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = smtcomp(&[
        "select",
        "SingleQuery",
        "--inventory",
        inv,
        "--seed",
        "1",
        "--test-per-logic",
        "3",
    ]);
    assert_eq!(code, 2, "{err}");
}
