//! Selection and generation by the text of each edition (issue 17): 2015 drops
//! unknown status, 2023 Model Validation drops arrays and datatypes, new families
//! from the previous release, non-competitive divisions not run. Expected counts
//! worked out in the comments.

use crate::support::{copy_tree, root, smtcomp};
use smtcomp::benchmarks::{Inventory, NonIncrementalInfo, Smt2File};
use smtcomp::formats::datafile;
use smtcomp::model::{Competition, Logic, Status, Track};
use smtcomp::select::{Selection, SelectionInputs, SoundAnswers, Triviality, select};
use std::path::Path;

fn bench(logic: &str, family: &str, name: &str, status: Status) -> NonIncrementalInfo {
    NonIncrementalInfo {
        file: Smt2File {
            incremental: false,
            logic: Logic::new(logic),
            family: family.split('/').map(String::from).collect(),
            name: name.to_string(),
        },
        status,
        asserts: 3,
        category: None,
    }
}

fn inventory(benches: Vec<NonIncrementalInfo>) -> Inventory {
    Inventory {
        non_incremental: benches,
        ..Inventory::default()
    }
}

fn run(comp: &Competition, track: Track, inv: &Inventory) -> Selection {
    let (triviality, sound) = (Triviality::default(), SoundAnswers::default());
    select(
        inv,
        &SelectionInputs {
            competition: comp,
            track,
            seed: 1,
            triviality: &triviality,
            sound: &sound,
            heats: 0,
            only_logics: None,
            previous: None,
            test_per_logic: None,
        },
    )
    .unwrap()
}

fn count(s: &Selection, logic: &str) -> usize {
    s.benchmarks
        .iter()
        .filter(|b| b.file.logic.as_str() == logic)
        .count()
}

/// 2015 rules 6 step 2: "Any benchmark whose expected output is neither sat
/// nor unsat is removed." QF_UF: 3 sat + 2 unsat + 4 unknown. 2015: eligible 5
/// (4 counted as wrong status), all 5 selected (5 < 300). 2025 keeps the
/// unknown ones: 9.
#[test]
fn e2015_selection_drops_unknown_status() {
    let mut v = Vec::new();
    for (i, st) in [
        Status::Sat,
        Status::Sat,
        Status::Sat,
        Status::Unsat,
        Status::Unsat,
        Status::Unknown,
        Status::Unknown,
        Status::Unknown,
        Status::Unknown,
    ]
    .into_iter()
    .enumerate()
    {
        v.push(bench("QF_UF", "2010-f", &format!("b{i}.smt2"), st));
    }
    let inv = inventory(v);
    let s = run(
        &Competition::builtin(2015).unwrap(),
        Track::SingleQuery,
        &inv,
    );
    let st = &s.logics[&Logic::new("QF_UF")];
    assert_eq!((st.all, st.wrong_status, st.eligible), (9, 4, 5));
    assert_eq!(count(&s, "QF_UF"), 5);
    assert!(s.benchmarks.iter().all(|b| b.status != Status::Unknown));
    let s = run(
        &Competition::builtin(2025).unwrap(),
        Track::SingleQuery,
        &inv,
    );
    assert_eq!(count(&s, "QF_UF"), 9);
}

/// 2023 rules 5.5: "We exclude from the selection all benchmarks containing
/// arrays or datatypes" (Model Validation). Sat benchmarks: QF_BV 2, QF_ABV 2,
/// QF_UFDT 2, QF_DT 1, QF_AUFBV 1. 2023: only QF_BV (2), the others named in a
/// note. 2025 (no such rule; its Model Validation map has QF_BV, QF_ABV...): the
/// 2025 map decides; QF_BV is selected under both.
#[test]
fn e2023_model_validation_excludes_arrays_and_datatypes() {
    let inv = inventory(vec![
        bench("QF_BV", "f", "a.smt2", Status::Sat),
        bench("QF_BV", "f", "b.smt2", Status::Sat),
        bench("QF_ABV", "f", "c.smt2", Status::Sat),
        bench("QF_ABV", "f", "d.smt2", Status::Sat),
        bench("QF_UFDT", "f", "e.smt2", Status::Sat),
        bench("QF_UFDT", "f", "g.smt2", Status::Sat),
        bench("QF_DT", "f", "h.smt2", Status::Sat),
        bench("QF_AUFBV", "f", "i.smt2", Status::Sat),
    ]);
    let comp = Competition::builtin(2023).unwrap();
    let s = run(&comp, Track::ModelValidation, &inv);
    assert_eq!(s.benchmarks.len(), 2);
    assert_eq!(count(&s, "QF_BV"), 2);
    assert_eq!(
        s.notes,
        [
            "2023 rules 5.5: logics with arrays or datatypes excluded from the Model Validation \
          selection: QF_ABV, QF_AUFBV, QF_DT, QF_UFDT"
        ]
    );
    // The 2023 Single Query Track keeps them (the exclusion is Model Validation's).
    let sq = run(&comp, Track::SingleQuery, &inv);
    assert_eq!(count(&sq, "QF_ABV"), 2);
    assert!(sq.notes.is_empty());
}

fn write_inventory(path: &Path, benches: Vec<NonIncrementalInfo>) {
    datafile::write_json(path, &inventory(benches)).unwrap();
}

fn read_selection(path: &Path) -> Selection {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `select --previous-inventory F`: a family is new when F has no benchmark of
/// its logic and family path; for a logic F has nothing of, the prefix rule
/// (`new_family_prefix` = "2025" in the 2025 definition) decides.
///
/// This year, QF_UF: 2019-a (4 benchmarks, in F), 2024-b (2, not in F),
/// 2025-c (3, in F: an old family despite its prefix). QF_BV (F has no QF_BV):
/// 2025-d (2), 2020-e (1).
/// * With F: QF_UF new = 2024-b's 2 (1 family); QF_BV by prefix: 2025-d's 2
///   (1 family).
/// * Without F (prefix rule): QF_UF new = 2025-c's 3 (1 family); QF_BV the same.
#[test]
fn new_families_from_the_previous_inventory() {
    let tmp = tempfile::tempdir().unwrap();
    let mut now = Vec::new();
    for i in 0..4 {
        now.push(bench("QF_UF", "2019-a", &format!("a{i}.smt2"), Status::Sat));
    }
    for i in 0..2 {
        now.push(bench("QF_UF", "2024-b", &format!("b{i}.smt2"), Status::Sat));
    }
    for i in 0..3 {
        now.push(bench("QF_UF", "2025-c", &format!("c{i}.smt2"), Status::Sat));
    }
    for i in 0..2 {
        now.push(bench("QF_BV", "2025-d", &format!("d{i}.smt2"), Status::Sat));
    }
    now.push(bench("QF_BV", "2020-e", "e0.smt2", Status::Sat));
    let previous = vec![
        bench("QF_UF", "2019-a", "a0.smt2", Status::Sat),
        bench("QF_UF", "2025-c", "old.smt2", Status::Sat),
        bench("QF_LIA", "2025-d", "x.smt2", Status::Sat),
    ];
    let (inv, prev) = (tmp.path().join("inv.json"), tmp.path().join("prev.json"));
    write_inventory(&inv, now);
    write_inventory(&prev, previous);
    let select = |extra: &[&str], name: &str| {
        let out = tmp.path().join(name);
        let mut args = vec![
            "select",
            "SingleQuery",
            "--inventory",
            inv.to_str().unwrap(),
            "--seed",
            "1",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = smtcomp(&args);
        assert_eq!(code, 0, "{err}");
        read_selection(&out)
    };
    let with = select(
        &["--previous-inventory", prev.to_str().unwrap()],
        "with.json",
    );
    let uf = &with.logics[&Logic::new("QF_UF")];
    assert_eq!((uf.new, uf.new_families), (2, 1));
    let bv = &with.logics[&Logic::new("QF_BV")];
    assert_eq!((bv.new, bv.new_families), (2, 1));
    let new: Vec<&str> = with
        .benchmarks
        .iter()
        .filter(|b| b.new)
        .map(|b| b.file.name.as_str())
        .collect();
    assert_eq!(new, ["d0.smt2", "d1.smt2", "b0.smt2", "b1.smt2"]);
    assert!(
        with.notes[0].ends_with("prev.json (3 families)"),
        "{:?}",
        with.notes
    );
    let without = select(&[], "without.json");
    let uf = &without.logics[&Logic::new("QF_UF")];
    assert_eq!((uf.new, uf.new_families), (3, 1));
    let bv = &without.logics[&Logic::new("QF_BV")];
    assert_eq!((bv.new, bv.new_families), (2, 1));
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

/// Rules 2025 6: "We will not run non-competitive divisions." Submissions: A
/// (authors a) enters QF_UF and QF_BV, B (authors b) QF_UF, C (authors a: A's
/// team) QF_BV. QF_Equality (QF_UF) has teams {a, b}: competitive; QF_Bitvec
/// (QF_BV) has only team {a}: not competitive, not selected (a note names it);
/// `--include-non-competitive` selects it. 3 QF_UF + 2 QF_BV benchmarks.
#[test]
fn non_competitive_divisions_are_not_selected() {
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("subs");
    std::fs::create_dir(&subs).unwrap();
    submission(&subs, "A", &["a"], "QF_(UF|BV)");
    submission(&subs, "B", &["b"], "QF_UF");
    submission(&subs, "C", &["a"], "QF_BV");
    let inv = tmp.path().join("inv.json");
    write_inventory(
        &inv,
        vec![
            bench("QF_UF", "f", "u0.smt2", Status::Sat),
            bench("QF_UF", "f", "u1.smt2", Status::Sat),
            bench("QF_UF", "f", "u2.smt2", Status::Unsat),
            bench("QF_BV", "f", "v0.smt2", Status::Sat),
            bench("QF_BV", "f", "v1.smt2", Status::Sat),
        ],
    );
    let select = |extra: &[&str], name: &str| {
        let out = tmp.path().join(name);
        let mut args = vec![
            "select",
            "SingleQuery",
            "--inventory",
            inv.to_str().unwrap(),
            "--seed",
            "1",
            "--submissions",
            subs.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = smtcomp(&args);
        assert_eq!(code, 0, "{err}");
        read_selection(&out)
    };
    let s = select(&[], "rules.json");
    assert_eq!((count(&s, "QF_UF"), count(&s, "QF_BV")), (3, 0));
    assert_eq!(
        s.notes,
        [
            "non-competitive divisions not selected (rules 6; --include-non-competitive selects \
          them): SingleQuery QF_Bitvec (1 team(s))"
        ]
    );
    let all = select(&["--include-non-competitive"], "all.json");
    assert_eq!((count(&all, "QF_UF"), count(&all, "QF_BV")), (3, 2));
    assert!(all.notes.is_empty());
}

/// `generate` skips non-competitive divisions too: the demo submissions with
/// one author set for all four solvers (one team) make every division
/// non-competitive: no definition, a note; `--include-non-competitive`
/// generates the usual ones.
#[test]
fn generate_skips_non_competitive_divisions() {
    let tmp = tempfile::tempdir().unwrap();
    let subs = tmp.path().join("subs");
    copy_tree(&root().join("demo/submissions"), &subs);
    for e in std::fs::read_dir(&subs).unwrap() {
        let p = e.unwrap().path();
        let mut j: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        j["contributors"] = serde_json::json!(["One Team"]);
        std::fs::write(&p, j.to_string()).unwrap();
    }
    let prepared = root().join("tests/data/prepared-demo");
    let competition = root().join("demo/competition.toml");
    let gen_ = |extra: &[&str], out: &str| {
        let out = tmp.path().join(out);
        let mut args = vec![
            "--competition",
            competition.to_str().unwrap(),
            "generate",
            "--solvers-on-path",
            "--no-binary-check",
            "--submissions",
            subs.to_str().unwrap(),
            "--prepared",
            prepared.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let (code, stdout, err) = smtcomp(&args);
        assert_eq!(code, 0, "{err}");
        (stdout, err)
    };
    // "<out>: N definitions, ..." -> N
    let definitions = |out: &str| -> usize {
        let n = out.split(": ").nth(1).unwrap().split(' ').next().unwrap();
        n.parse().unwrap()
    };
    let (out, err) = gen_(&[], "skip");
    assert!(
        err.contains("note: non-competitive divisions not generated (rules 6;"),
        "{err}"
    );
    // Left: the Proof Exhibition Track (an exhibition, never skipped).
    let skipped = definitions(&out);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("skip/manifest.json")).unwrap())
            .unwrap();
    let tracks: Vec<&str> = manifest["definitions"]
        .as_object()
        .unwrap()
        .values()
        .map(|d| d["track"].as_str().unwrap())
        .collect();
    assert_eq!(tracks.len(), skipped);
    assert!(tracks.iter().all(|t| *t == "ProofExhibition"), "{tracks:?}");
    let (out, err) = gen_(&["--include-non-competitive"], "all");
    assert!(definitions(&out) > skipped, "{out}");
    assert!(!err.contains("non-competitive"), "{err}");
}

/// `validate-cores join --edition`: 2023 and 2025 have an Unsat Core Track;
/// 2015 has none, a usage error (exit 2) before any file is read.
#[test]
fn core_join_edition_2015_is_a_usage_error() {
    let (code, _, err) = smtcomp(&[
        "validate-cores",
        "join",
        "--runs",
        "missing.jsonl",
        "--exec",
        "missing",
        "--edition",
        "2015",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the 2015 rules have no Unsat Core Track"),
        "{err}"
    );
}
