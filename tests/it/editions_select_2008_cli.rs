//! `smtcomp select --edition 2008` on a hand-made library (categories in
//! `set-info`) and a hand-made previous run table (`smtcomp ingest` format).
//!
//! Division QF_UF (`--year 2008`):
//!
//! | family | category | per subdivision (sat-easy, sat-hard, unsat-easy, unsat-hard) | total |
//! |---|---|---|---|
//! | ind | industrial | 60 each | 240 |
//! | cra | crafted (8 of them without a category: crafted too) | 10 each | 40 |
//! | ran | random | 3 each | 12 |
//! | chk | check, status sat, no previous runs | - | 3 |
//! | chk | check, status unknown (ineligible) | - | 1 |
//! | unk | industrial, status unknown (ineligible) | - | 2 |
//!
//! Previous runs (4 solvers), benchmark i of its subdivision:
//! * easy: i even: 4/4 correct → difficulty 0; i odd: 3 correct within 600 s and
//!   one correct in 700 s (over 10 minutes, not solved) → 5·(1 − 3/4) = 1.25 → 1.
//! * hard: i%3 = 0: 2 correct, 1 wrong, 1 unknown → 5·(1 − 2/4) = 2.5 → 3 (halves
//!   up: hard); i%3 = 1: 4 timeouts → 5; i%3 = 2: no runs → 5 (our reading).
//!
//! Expected (rules section 4): step 1 the 3 eligible checks; step 2 family `ind`
//! (240 > 200) is cut to 50 per subdivision, `cra` and `ran` enter whole; step 3
//! industrial 170, crafted 20, random 10 (enough of each); step 4 industrial
//! ⌊170/4⌋ = 42 each + 2 to distinct random subdivisions → {42, 42, 43, 43};
//! crafted 5 each; random ⌊10/4⌋ = 2 each + 2 distinct → {2, 2, 3, 3}.
//! QF_UF: 3 + 170 + 20 + 10 = 203.
//! No-previous count: hard subdivisions with i%3 = 2: ind 20 × 2, cra 3 × 2, ran 1 × 2 = 48.
//! Easy = hard = 120 + 20 + 6 = 146.
//!
//! Division QF_IDL: 2 checks (sat, unsat) + 5 industrial sat-easy: everything → 7.
//! Total 210.

use crate::support::smtcomp;
use smtcomp::benchmarks::Smt2File;
use smtcomp::ingest::{IngestRecord, RunAnswer, write_jsonl};
use smtcomp::model::{Logic, Track};
use smtcomp::select::Selection;
use std::path::Path;

const SUBS: [(&str, &str, bool); 4] = [
    ("sat", "sat-easy", false),
    ("sat", "sat-hard", true),
    ("unsat", "unsat-easy", false),
    ("unsat", "unsat-hard", true),
];

struct Lib {
    runs: Vec<IngestRecord>,
}

impl Lib {
    fn bench(
        &mut self,
        root: &Path,
        logic: &str,
        family: &str,
        name: &str,
        status: &str,
        category: Option<&str>,
    ) -> Smt2File {
        let dir = root.join("non-incremental").join(logic).join(family);
        std::fs::create_dir_all(&dir).unwrap();
        let cat = category
            .map(|c| format!("(set-info :category \"{c}\")\n"))
            .unwrap_or_default();
        std::fs::write(
            dir.join(name),
            format!(
                "(set-info :smt-lib-version 2.6)\n{cat}(set-logic {logic})\n(set-info :status {status})\n(declare-fun p () Bool)\n(assert p)\n(check-sat)\n(exit)\n"
            ),
        )
        .unwrap();
        Smt2File {
            incremental: false,
            logic: Logic::new(logic.to_string()),
            family: vec![family.to_string()],
            name: name.to_string(),
        }
    }

    fn run(&mut self, f: &Smt2File, solver: &str, answer: RunAnswer, cpu: f64) {
        let mut r = IngestRecord::new("prev.xml", f.path());
        r.solver = solver.into();
        r.track = Some(Track::SingleQuery);
        r.logic = Some(f.logic.clone());
        r.benchmark = Some(f.clone());
        r.benchmark_key = f.path();
        r.answer = answer;
        r.cputime = Some(cpu);
        r.walltime = Some(cpu);
        self.runs.push(r);
    }

    /// Runs giving benchmark `i` of a subdivision its planned difficulty.
    fn difficulty_runs(&mut self, f: &Smt2File, status: &str, hard: bool, i: usize) {
        let right = if status == "sat" {
            RunAnswer::Sat
        } else {
            RunAnswer::Unsat
        };
        let wrong = if status == "sat" {
            RunAnswer::Unsat
        } else {
            RunAnswer::Sat
        };
        let s = ["s1", "s2", "s3", "s4"];
        if !hard {
            for (k, solver) in s.iter().enumerate() {
                let cpu = if i % 2 == 1 && k == 3 { 700.0 } else { 1.0 };
                self.run(f, solver, right, cpu);
            }
        } else if i % 3 == 0 {
            self.run(f, s[0], right, 2.0);
            self.run(f, s[1], right, 600.0);
            self.run(f, s[2], wrong, 1.0);
            self.run(f, s[3], RunAnswer::Unknown, 1.0);
        } else if i % 3 == 1 {
            for solver in s {
                self.run(f, solver, RunAnswer::Timeout, 1200.0);
            }
        }
    }
}

/// Builds the library under `root` and the run table at `runs`.
fn build(root: &Path, runs: &Path) {
    let mut lib = Lib { runs: Vec::new() };
    for (family, category, per_sub) in [
        ("ind", Some("industrial"), 60),
        ("cra", Some("crafted"), 10),
        ("ran", Some("random"), 3),
    ] {
        for (status, sub, hard) in SUBS {
            for i in 0..per_sub {
                // Two crafted benchmarks per subdivision carry no category.
                let cat = if family == "cra" && i < 2 {
                    None
                } else {
                    category
                };
                let f = lib.bench(
                    root,
                    "QF_UF",
                    family,
                    &format!("{sub}-{i:03}.smt2"),
                    status,
                    cat,
                );
                lib.difficulty_runs(&f, status, hard, i);
            }
        }
    }
    for i in 0..3 {
        lib.bench(
            root,
            "QF_UF",
            "chk",
            &format!("check-{i}.smt2"),
            "sat",
            Some("check"),
        );
    }
    lib.bench(
        root,
        "QF_UF",
        "chk",
        "check-unknown.smt2",
        "unknown",
        Some("check"),
    );
    for i in 0..2 {
        let f = lib.bench(
            root,
            "QF_UF",
            "unk",
            &format!("u{i}.smt2"),
            "unknown",
            Some("industrial"),
        );
        lib.run(&f, "s1", RunAnswer::Sat, 1.0);
    }
    lib.bench(root, "QF_IDL", "chk", "c-sat.smt2", "sat", Some("check"));
    lib.bench(
        root,
        "QF_IDL",
        "chk",
        "c-unsat.smt2",
        "unsat",
        Some("check"),
    );
    for i in 0..5 {
        let f = lib.bench(
            root,
            "QF_IDL",
            "ind",
            &format!("e{i}.smt2"),
            "sat",
            Some("industrial"),
        );
        lib.difficulty_runs(&f, "sat", false, i);
    }
    write_jsonl(runs, None, &lib.runs).unwrap();
}

fn count(sel: &Selection, prefix: &str) -> usize {
    sel.benchmarks
        .iter()
        .filter(|b| b.file.path().starts_with(prefix))
        .count()
}

fn sorted_counts(sel: &Selection, family: &str) -> Vec<usize> {
    let mut v: Vec<usize> = SUBS
        .iter()
        .map(|(_, sub, _)| count(sel, &format!("non-incremental/QF_UF/{family}/{sub}-")))
        .collect();
    v.sort();
    v
}

#[test]
fn select_2008_from_library_and_previous_runs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lib");
    let runs = dir.path().join("runs.jsonl.gz");
    build(&root, &runs);
    let inv = dir.path().join("inv.json");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let (code, _, err) = smtcomp(&[
        "--year",
        "2008",
        "benchmarks",
        "scan",
        &p(&root),
        "-o",
        &p(&inv),
    ]);
    assert_eq!(code, 0, "{err}");
    // The inventory carries the categories.
    let text = std::fs::read_to_string(&inv).unwrap();
    assert_eq!(text.matches("\"category\": \"check\"").count(), 6, "{err}");

    let sel_path = dir.path().join("sel.json");
    let args = |seed: &str, out: &Path| -> Vec<String> {
        [
            "--year",
            "2008",
            "select",
            "SingleQuery",
            "--edition",
            "2008",
            "--inventory",
            &p(&inv),
            "--previous-results",
            &p(&runs),
            "--seed",
            seed,
            "--explain",
            "-o",
            &p(out),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let a: Vec<String> = args("42", &sel_path);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let (code, explain, err) = smtcomp(&a);
    assert_eq!(code, 0, "{err}");
    let sel: Selection =
        serde_json::from_str(&std::fs::read_to_string(&sel_path).unwrap()).unwrap();
    assert_eq!(sel.track, Track::SingleQuery);
    assert_eq!(sel.year, 2008);
    assert_eq!(count(&sel, "non-incremental/QF_UF/"), 203);
    assert_eq!(count(&sel, "non-incremental/QF_UF/chk/check-"), 3);
    assert_eq!(count(&sel, "non-incremental/QF_UF/chk/check-unknown"), 0);
    assert_eq!(count(&sel, "non-incremental/QF_UF/unk/"), 0);
    assert_eq!(count(&sel, "non-incremental/QF_UF/ind/"), 170);
    assert_eq!(count(&sel, "non-incremental/QF_UF/cra/"), 20);
    assert_eq!(count(&sel, "non-incremental/QF_UF/ran/"), 10);
    assert_eq!(sorted_counts(&sel, "ind"), [42, 42, 43, 43]);
    assert_eq!(sorted_counts(&sel, "cra"), [5, 5, 5, 5]);
    assert_eq!(sorted_counts(&sel, "ran"), [2, 2, 3, 3]);
    assert_eq!(count(&sel, "non-incremental/QF_IDL/"), 7);
    assert_eq!(sel.benchmarks.len(), 210);
    // --explain: all removed unknown check industr crafted random nocat noprev easy hard selected
    let row = |d: &str| -> Vec<String> {
        explain
            .lines()
            .find(|l| l.split_whitespace().next() == Some(d))
            .unwrap_or_else(|| panic!("no {d} row in\n{explain}"))
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect()
    };
    let nums = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        row("QF_UF"),
        nums(&[298, 0, 3, 3, 240, 40, 12, 8, 48, 146, 146, 203]),
        "{explain}"
    );
    assert_eq!(row("QF_IDL"), nums(&[7, 0, 0, 2, 5, 0, 0, 0, 0, 5, 0, 7]));
    assert!(
        explain.contains(
            "note: QF_UF: 48 eligible non-check benchmark(s) without previous runs: difficulty 5"
        ),
        "{explain}"
    );
    assert!(explain.contains("note: QF_UF: 8 eligible benchmark(s) without a category: crafted"));

    // Deterministic for a seed; another seed draws differently.
    let again = dir.path().join("sel2.json");
    let a: Vec<String> = args("42", &again);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert_eq!(smtcomp(&a).0, 0);
    assert_eq!(
        std::fs::read(&sel_path).unwrap(),
        std::fs::read(&again).unwrap()
    );
    let other = dir.path().join("sel3.json");
    let a: Vec<String> = args("43", &other);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert_eq!(smtcomp(&a).0, 0);
    let sel3: Selection = serde_json::from_str(&std::fs::read_to_string(&other).unwrap()).unwrap();
    assert_eq!(sel3.benchmarks.len(), 210);
    assert_ne!(sel.benchmarks, sel3.benchmarks);

    // `prepare` takes the selection.
    let out = dir.path().join("prepared");
    let (code, _, err) = smtcomp(&[
        "prepare",
        "SingleQuery",
        "--selection",
        &p(&sel_path),
        "--library",
        &p(&root),
        "--out",
        &p(&out),
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let prepared = smtcomp::prepare::PreparedSet::read(&out, Track::SingleQuery).unwrap();
    assert_eq!(prepared.benchmarks.len(), 210);
}

#[test]
fn select_2008_needs_previous_results() {
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("inv.json");
    std::fs::write(&inv, r#"{"incremental": [], "non_incremental": []}"#).unwrap();
    let (code, out, err) = smtcomp(&[
        "--year",
        "2008",
        "select",
        "SingleQuery",
        "--inventory",
        inv.to_str().unwrap(),
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("--edition 2008 needs --previous-results"),
        "{err}"
    );
    // Explicit edition on another year's definition: same rule.
    let (code, _, err) = smtcomp(&[
        "select",
        "SingleQuery",
        "--edition",
        "2008",
        "--inventory",
        inv.to_str().unwrap(),
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --previous-results"), "{err}");
    let (code, _, err) = smtcomp(&[
        "--year",
        "2008",
        "select",
        "Incremental",
        "--inventory",
        inv.to_str().unwrap(),
        "--seed",
        "1",
        "--previous-results",
        inv.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("single track"), "{err}");
}
