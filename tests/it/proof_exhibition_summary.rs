//! `smtcomp score --edition 2023 --track ProofExhibition` on a constructed run
//! table (`smtcomp ingest` format).
//!
//! Records (2023 divisions: QF_BV → QF_Bitvec, QF_LIA → QF_LinearIntArith):
//!
//! | solver | benchmark (known status) | proof data | counts as |
//! |---|---|---|---|
//! | cvc5 | QF_BV/a (unsat) | valid, steps=10 holes=0 | valid |
//! | cvc5 | QF_BV/b (unsat) | holey, steps=5 holes=2 | holey |
//! | cvc5 | QF_BV/c (sat) | valid, steps=3 | valid, **unsound valid** |
//! | cvc5 | QF_BV/d (unsat) | invalid | invalid (error) |
//! | cvc5 | QF_BV/e (unsat) | sat | sat (error) |
//! | cvc5 | QF_LIA/f (unknown) | unknown, axioms=4 steps=x | unknown; steps not a number: skipped |
//! | cvc5 | QF_LIA/g (unsat) | none, answer timeout | timeout |
//! | cvc5 | QF_LIA/h (not in inventory) | none, answer error | error |
//! | `ve|ri,t"` | QF_BV/a (unsat) | valid, assertions=7 axioms=1 | valid |
//! | cvc5 | QF_BV/a | (SingleQuery record) | skipped |
//!
//! Hand count, cvc5 / QF_Bitvec: valid 2, holey 1, invalid 1, sat 1, errors 2,
//! holes 2, steps 18, unsound 1 (QF_BV/c). cvc5 / QF_LinearIntArith: unknown 1,
//! timeout 1, error 1, errors 0, axioms 4. `ve|ri,t"` / QF_Bitvec: valid 1,
//! axioms 1, assertions 7. Notes: 1 other-track record, 2 without proof data.

use crate::support::{golden, smtcomp};
use smtcomp::benchmarks::{Inventory, NonIncrementalInfo, Smt2File};
use smtcomp::formats::runtable::{IngestRecord, ProofData, RunAnswer};
use smtcomp::ingest::write_jsonl;
use smtcomp::model::{Logic, Status, Track};
use smtcomp::proof::{KeyValues, ProofVerdict};
use std::path::Path;

fn file(logic: &str, name: &str) -> Smt2File {
    Smt2File {
        incremental: false,
        logic: Logic::new(logic.to_string()),
        family: vec!["fam".into()],
        name: format!("{name}.smt2"),
    }
}

fn rec(
    solver: &str,
    f: &Smt2File,
    answer: RunAnswer,
    proof: Option<(ProofVerdict, &[(&str, &str)])>,
) -> IngestRecord {
    let mut r = IngestRecord::new("pe.xml", f.path());
    r.solver = solver.into();
    r.track = Some(Track::ProofExhibition);
    r.logic = Some(f.logic.clone());
    r.benchmark = Some(f.clone());
    r.benchmark_key = f.path();
    r.answer = answer;
    r.proof = proof.map(|(verdict, kv)| {
        let mut values = KeyValues::new();
        for (k, v) in kv {
            values.push(*k, *v);
        }
        ProofData { verdict, values }
    });
    r
}

/// Writes the run table and the inventory into `dir`.
fn inputs(dir: &Path) -> (String, String) {
    use ProofVerdict::*;
    let (a, b, c, d, e) = (
        file("QF_BV", "a"),
        file("QF_BV", "b"),
        file("QF_BV", "c"),
        file("QF_BV", "d"),
        file("QF_BV", "e"),
    );
    let (f, g, h) = (
        file("QF_LIA", "f"),
        file("QF_LIA", "g"),
        file("QF_LIA", "h"),
    );
    let mut sq = rec("cvc5", &a, RunAnswer::Unsat, None);
    sq.track = Some(Track::SingleQuery);
    let records = vec![
        rec(
            "cvc5",
            &a,
            RunAnswer::Unsat,
            Some((Valid, &[("steps", "10"), ("holes", "0")])),
        ),
        rec(
            "cvc5",
            &b,
            RunAnswer::Unsat,
            Some((Holey, &[("steps", "5"), ("holes", "2")])),
        ),
        rec(
            "cvc5",
            &c,
            RunAnswer::Unsat,
            Some((Valid, &[("steps", "3")])),
        ),
        rec("cvc5", &d, RunAnswer::Unsat, Some((Invalid, &[]))),
        rec("cvc5", &e, RunAnswer::Sat, Some((Sat, &[]))),
        rec(
            "cvc5",
            &f,
            RunAnswer::Unknown,
            Some((Unknown, &[("axioms", "4"), ("steps", "x")])),
        ),
        rec("cvc5", &g, RunAnswer::Timeout, None),
        rec("cvc5", &h, RunAnswer::Error, None),
        rec(
            "ve|ri,t\"",
            &a,
            RunAnswer::Unsat,
            Some((Valid, &[("assertions", "7"), ("axioms", "1")])),
        ),
        sq,
    ];
    let runs = dir.join("pe.jsonl.gz");
    write_jsonl(&runs, None, &records).unwrap();
    let mut inv = Inventory::default();
    for (fl, status) in [
        (a, Status::Unsat),
        (b, Status::Unsat),
        (c, Status::Sat),
        (d, Status::Unsat),
        (e, Status::Unsat),
        (f, Status::Unknown),
        (g, Status::Unsat),
    ] {
        inv.non_incremental.push(NonIncrementalInfo {
            file: fl,
            status,
            asserts: 1,
            category: None,
        });
    }
    let inv_path = dir.join("inv.json");
    inv.write(&inv_path).unwrap();
    (
        runs.to_str().unwrap().to_string(),
        inv_path.to_str().unwrap().to_string(),
    )
}

fn score(runs: &str, inv: &str, format: &str) -> String {
    let (code, out, err) = smtcomp(&[
        "--year",
        "2023",
        "score",
        "--edition",
        "2023",
        "--track",
        "ProofExhibition",
        "--runs",
        runs,
        "--inventory",
        inv,
        "--format",
        format,
    ]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn proof_exhibition_summary_formats() {
    let dir = tempfile::tempdir().unwrap();
    let (runs, inv) = inputs(dir.path());
    golden::check(
        "tests/golden/proof-exhibition-2023.md",
        &score(&runs, &inv, "md"),
    );
    golden::check(
        "tests/golden/proof-exhibition-2023.csv",
        &score(&runs, &inv, "csv"),
    );
    let json: serde_json::Value = serde_json::from_str(&score(&runs, &inv, "json")).unwrap();
    let lines = json["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let l = &lines[0];
    assert_eq!(l["solver"], "cvc5");
    assert_eq!(l["division"], "QF_Bitvec");
    assert_eq!(l["verdicts"]["valid"], 2);
    assert_eq!(l["errors"], 2);
    assert_eq!(l["stats"]["steps"], 18);
    assert_eq!(l["unsound_valid"][0], "non-incremental/QF_BV/fam/c.smt2");
    assert_eq!(json["notes"].as_array().unwrap().len(), 2);
}

#[test]
fn proof_exhibition_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (runs, inv) = inputs(dir.path());
    let (code, _, err) = smtcomp(&[
        "--year",
        "2023",
        "score",
        "--track",
        "ProofExhibition",
        "--runs",
        &runs,
        "--inventory",
        &inv,
        "--format",
        "xml",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("md, json or csv"), "{err}");
    // A results file is not a run table.
    let results = dir.path().join("results.json");
    std::fs::write(&results, r#"{"results": []}"#).unwrap();
    let (code, _, err) = smtcomp(&[
        "--year",
        "2023",
        "score",
        "--track",
        "ProofExhibition",
        "--runs",
        results.to_str().unwrap(),
        "--inventory",
        &inv,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("needs an `smtcomp ingest` run table"), "{err}");
    // Other tracks still need --submissions.
    let (code, _, err) = smtcomp(&[
        "--year",
        "2023",
        "score",
        "--track",
        "SingleQuery",
        "--runs",
        &runs,
        "--inventory",
        &inv,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--submissions is required"), "{err}");
}
