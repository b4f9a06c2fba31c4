//! Benchmark selection (rules 2025 section 6) on synthetic and real inventories.

use crate::support::smtcomp;
use smtcomp::benchmarks::{IncrementalInfo, Inventory, NonIncrementalInfo, Smt2File};
use smtcomp::formats::results::RunRecord;
use smtcomp::model::{Answer, Competition, Logic, Status, Track};
use smtcomp::select::{
    Selection, SelectionInputs, SoundAnswers, Triviality, cap, fastest_solves, select,
    select_parallel,
};
use std::collections::{BTreeMap, HashMap};

fn file(logic: &str, family: &str, name: &str) -> Smt2File {
    Smt2File {
        incremental: false,
        logic: Logic::new(logic),
        family: family.split('/').map(String::from).collect(),
        name: name.to_string(),
    }
}

fn bench(
    logic: &str,
    family: &str,
    name: &str,
    status: Status,
    asserts: u64,
) -> NonIncrementalInfo {
    NonIncrementalInfo {
        file: file(logic, family, name),
        status,
        asserts,
        category: None,
    }
}

fn run(f: &Smt2File, solver: &str, result: Answer, cpu: f64) -> RunRecord {
    RunRecord {
        track: Track::SingleQuery,
        solver: solver.into(),
        file: f.clone(),
        result,
        cpu_time: cpu,
        wallclock_time: cpu,
        memory_usage: 0.0,
        nb_answers: None,
    }
}

fn statuses(inv: &Inventory) -> HashMap<String, Status> {
    inv.non_incremental
        .iter()
        .map(|b| (b.file.path(), b.status))
        .collect()
}

fn run_select(
    inv: &Inventory,
    track: Track,
    previous: &[RunRecord],
    current: &[RunRecord],
    seed: u32,
    heats: u32,
) -> Selection {
    let comp = Competition::builtin(2025).unwrap();
    let st = statuses(inv);
    let triviality = Triviality::tally([previous], &st, comp.selection.trivial_time_s);
    let sound = SoundAnswers::collect(current, &st, &comp);
    select(
        inv,
        &SelectionInputs {
            competition: &comp,
            track,
            seed,
            triviality: &triviality,
            sound: &sound,
            heats,
            only_logics: None,
            previous: None,
            test_per_logic: None,
        },
    )
    .unwrap()
}

fn names(s: &Selection) -> Vec<String> {
    s.benchmarks.iter().map(|b| b.file.name.clone()).collect()
}

#[test]
fn triviality_removes_only_benchmarks_all_solvers_solved_fast_and_correctly() {
    let inv = Inventory {
        non_incremental: vec![
            bench("QF_BV", "f", "easy.smt2", Status::Sat, 1),
            bench("QF_BV", "f", "one-slow.smt2", Status::Sat, 1),
            bench("QF_BV", "f", "exactly-1s.smt2", Status::Sat, 1),
            bench("QF_BV", "f", "wrong.smt2", Status::Unsat, 1),
            bench("QF_BV", "f", "timeout-fast.smt2", Status::Unknown, 1),
            bench("QF_BV", "f", "disagree.smt2", Status::Unknown, 1),
            bench("QF_BV", "f", "never-run.smt2", Status::Unknown, 1),
        ],
        ..Inventory::default()
    };
    let f = |i: usize| &inv.non_incremental[i].file;
    let prev = vec![
        run(f(0), "a", Answer::Sat, 0.1),
        run(f(0), "b", Answer::Sat, 0.9),
        run(f(1), "a", Answer::Sat, 0.1),
        run(f(1), "b", Answer::Sat, 3.0),
        run(f(2), "a", Answer::Sat, 0.1),
        run(f(2), "b", Answer::Sat, 1.0),
        run(f(3), "a", Answer::Sat, 0.1),
        run(f(3), "b", Answer::Sat, 0.1),
        run(f(4), "a", Answer::Timeout, 0.5),
        run(f(4), "b", Answer::Sat, 0.1),
        run(f(5), "a", Answer::Sat, 0.1),
        run(f(5), "b", Answer::Unsat, 0.1),
    ];
    let s = run_select(&inv, Track::SingleQuery, &prev, &[], 1, 0);
    assert_eq!(s.logics[&Logic::new("QF_BV")].trivial, 1);
    let mut got = names(&s);
    got.sort();
    assert_eq!(
        got,
        [
            "disagree.smt2",
            "exactly-1s.smt2",
            "never-run.smt2",
            "one-slow.smt2",
            "timeout-fast.smt2",
            "wrong.smt2"
        ]
    );
    // Triviality is a Single Query rule only.
    let mv = run_select(&inv, Track::ModelValidation, &prev, &[], 1, 0);
    assert!(names(&mv).contains(&"easy.smt2".to_string()));
}

#[test]
fn unsat_core_and_model_validation_status_filters() {
    let inv = Inventory {
        non_incremental: vec![
            bench("QF_UF", "f", "unsat.smt2", Status::Unsat, 5),
            bench("QF_UF", "f", "unsat-one-assert.smt2", Status::Unsat, 1),
            bench("QF_UF", "f", "sat.smt2", Status::Sat, 5),
            bench("QF_UF", "f", "unknown-sound-unsat.smt2", Status::Unknown, 5),
            bench(
                "QF_UF",
                "f",
                "unknown-unsound-unsat.smt2",
                Status::Unknown,
                5,
            ),
            bench("QF_UF", "f", "unknown-sound-sat.smt2", Status::Unknown, 5),
            bench("QF_UF", "f", "unknown-nothing.smt2", Status::Unknown, 5),
        ],
        ..Inventory::default()
    };
    let f = |i: usize| &inv.non_incremental[i].file;
    let current = vec![
        run(f(3), "good", Answer::Unsat, 1.0),
        // "bad" is unsound in QF_Equality: it said sat on an unsat benchmark.
        run(f(0), "bad", Answer::Sat, 1.0),
        run(f(4), "bad", Answer::Unsat, 1.0),
        run(f(5), "good", Answer::Sat, 1.0),
    ];
    let uc = run_select(&inv, Track::UnsatCore, &[], &current, 1, 0);
    let mut got = names(&uc);
    got.sort();
    assert_eq!(got, ["unknown-sound-unsat.smt2", "unsat.smt2"]);
    let st = &uc.logics[&Logic::new("QF_UF")];
    assert_eq!((st.wrong_status, st.too_few_asserts), (4, 1));
    let mv = run_select(&inv, Track::ModelValidation, &[], &current, 1, 0);
    let mut got = names(&mv);
    got.sort();
    assert_eq!(got, ["sat.smt2", "unknown-sound-sat.smt2"]);
}

fn big_logic(n: usize, new_families: usize) -> Inventory {
    let mut v = Vec::new();
    for i in 0..n {
        let family = if i < new_families * 3 {
            format!("2025-new{}", i / 3)
        } else {
            format!("2010-old{}", i % 7)
        };
        v.push(bench(
            "QF_LIA",
            &family,
            &format!("b{i:05}.smt2"),
            Status::Sat,
            2,
        ));
    }
    Inventory {
        non_incremental: v,
        ..Inventory::default()
    }
}

#[test]
fn capped_logics_take_one_benchmark_of_each_new_family_first() {
    let inv = big_logic(1000, 20);
    let s = run_select(&inv, Track::SingleQuery, &[], &[], 42, 0);
    assert_eq!(s.benchmarks.len(), cap(1000, 300, 0.5));
    assert_eq!(s.benchmarks.len(), 500);
    for k in 0..20 {
        let fam = format!("2025-new{k}");
        assert!(
            s.benchmarks.iter().any(|b| b.file.family[0] == fam),
            "family {fam} missing"
        );
    }
    let st = &s.logics[&Logic::new("QF_LIA")];
    assert_eq!((st.new, st.new_families, st.cap), (60, 20, 500));
    // Uncapped logics take everything.
    let small = big_logic(250, 2);
    assert_eq!(
        run_select(&small, Track::SingleQuery, &[], &[], 42, 0)
            .benchmarks
            .len(),
        250
    );
}

#[test]
fn same_seed_same_selection_other_seed_other_selection() {
    let inv = big_logic(2000, 5);
    let a = run_select(&inv, Track::SingleQuery, &[], &[], 7, 3);
    let b = run_select(&inv, Track::SingleQuery, &[], &[], 7, 3);
    let c = run_select(&inv, Track::SingleQuery, &[], &[], 8, 3);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_ne!(names(&a), names(&c));
}

#[test]
fn heats_partition_each_division_evenly() {
    let inv = big_logic(700, 0);
    let s = run_select(&inv, Track::SingleQuery, &[], &[], 3, 4);
    let mut sizes: BTreeMap<u32, usize> = BTreeMap::new();
    for b in &s.benchmarks {
        *sizes.entry(b.heat.expect("heat assigned")).or_default() += 1;
    }
    assert_eq!(sizes.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    let (min, max) = (sizes.values().min().unwrap(), sizes.values().max().unwrap());
    assert!(max - min <= 1, "{sizes:?}");
}

#[test]
fn removed_benchmarks_of_the_definition_are_never_selected() {
    let comp = Competition::builtin(2025).unwrap();
    let r = &comp.removed_benchmarks[0];
    let inv = Inventory {
        non_incremental: vec![
            bench(r.logic.as_str(), &r.family, &r.name, Status::Unsat, 95),
            bench(r.logic.as_str(), &r.family, "kept.smt2", Status::Unsat, 95),
        ],
        ..Inventory::default()
    };
    let s = run_select(&inv, Track::SingleQuery, &[], &[], 1, 0);
    assert_eq!(names(&s), ["kept.smt2"]);
    assert_eq!(s.logics[&r.logic].removed, 1);
}

#[test]
fn incremental_track_selects_incremental_benchmarks_of_its_logics() {
    let inc = |logic: &str, name: &str| IncrementalInfo {
        file: Smt2File {
            incremental: true,
            ..file(logic, "fam", name)
        },
        check_sats: 3,
        statuses: None,
    };
    let inv = Inventory {
        incremental: vec![
            inc("QF_BV", "a.smt2"),
            inc("QF_S", "not-a-track-logic.smt2"),
        ],
        non_incremental: vec![bench("QF_BV", "f", "single.smt2", Status::Sat, 1)],
        ..Inventory::default()
    };
    let s = run_select(&inv, Track::Incremental, &[], &[], 1, 0);
    assert_eq!(names(&s), ["a.smt2"]);
    assert_eq!(s.benchmarks[0].status, Status::Incremental);
}

#[test]
fn parallel_selection_prefers_hard_and_unsolved() {
    let comp = Competition::builtin(2025).unwrap();
    let mut v = Vec::new();
    for i in 0..600 {
        v.push(bench(
            if i % 2 == 0 { "QF_BV" } else { "QF_LIA" },
            "f",
            &format!("p{i:04}.smt2"),
            Status::Unknown,
            1,
        ));
    }
    let inv = Inventory {
        non_incremental: v,
        ..Inventory::default()
    };
    let mut prev = Vec::new();
    for (i, b) in inv.non_incremental.iter().enumerate() {
        match i % 3 {
            0 => prev.push(run(&b.file, "a", Answer::Sat, 10.0)), // solved fast: excluded
            1 => prev.push(run(&b.file, "a", Answer::Unsat, 500.0)), // hard
            _ => prev.push(run(&b.file, "a", Answer::Timeout, 1200.0)), // unsolved
        }
    }
    let fastest = fastest_solves([prev.as_slice()], &statuses(&inv));
    let s = select_parallel(&inv, &comp, Track::Parallel, 1, &fastest, None).unwrap();
    assert_eq!(s.benchmarks.len(), 400);
    let hard = s
        .benchmarks
        .iter()
        .filter(|b| fastest.contains_key(&b.file.path()))
        .count();
    assert_eq!(hard, 200);
    assert!(
        s.benchmarks
            .iter()
            .all(|b| fastest.get(&b.file.path()).is_none_or(|t| *t > 180.0))
    );
    assert!(s.notes.is_empty(), "{:?}", s.notes);
}

#[test]
fn real_2025_inventory_every_track_obeys_the_cap_and_is_reproducible() {
    let inv = "tests/data/benchmarks-2025.json.gz";
    for track in ["SingleQuery", "Incremental", "UnsatCore", "ModelValidation"] {
        let dir = tempfile::tempdir().unwrap();
        let select = |name: &str| {
            let out = dir.path().join(name);
            let (code, _, err) = smtcomp(&[
                "select",
                track,
                "--inventory",
                inv,
                "--seed",
                "1",
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            out
        };
        let out = select("sel.json");
        // Reproducible: a second run writes the same bytes (checked on the
        // largest track; each call parses the 114 MB inventory).
        if track == "SingleQuery" {
            let out2 = select("sel2.json");
            assert_eq!(
                std::fs::read(&out).unwrap(),
                std::fs::read(&out2).unwrap(),
                "{track}: byte-identical"
            );
        }
        let s: Selection = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        for (logic, st) in &s.logics {
            assert_eq!(st.cap, cap(st.eligible, 300, 0.5), "{track} {logic}");
            assert_eq!(st.selected, st.cap, "{track} {logic}");
            let n = s
                .benchmarks
                .iter()
                .filter(|b| &b.file.logic == logic)
                .count();
            assert_eq!(n, st.selected, "{track} {logic}");
        }
        if track == "SingleQuery" {
            assert_eq!(s.benchmarks.len(), 227413);
        }
    }
}

#[test]
fn explain_prints_a_table_and_ignores_results_of_other_years() {
    let dir = tempfile::tempdir().unwrap();
    let prev = dir.path().join("results-sq-2017.json");
    std::fs::write(&prev, r#"{"results": []}"#).unwrap();
    let (code, out, err) = smtcomp(&[
        "select",
        "UnsatCore",
        "--inventory",
        "tests/data/benchmarks-2025.json.gz",
        "--seed",
        "757067271",
        "--previous-results",
        prev.to_str().unwrap(),
        "--explain",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Selection for UnsatCore 2025 (seed 757067271)\n"),
        "{out}"
    );
    assert!(
        out.contains("results-sq-2017.json: ignored, 2017 is not among the previous_results_years")
    );
    assert!(out.lines().any(|l| l.starts_with("total ")));
}

#[test]
fn proof_exhibition_2023_takes_unsat_benchmarks_and_its_own_cap() {
    // 2023 rules 6: the track uses non-incremental unsat benchmarks (unknown ones
    // only when a sound solver said unsat) and runs min(n, max(150, 25n/100)).
    // 1000 unsat + 500 sat in QF_LIA: n = 1000 eligible, max(150, 250) = 250.
    // 400 unsat in QF_UF: max(150, 100) = 150. 100 unsat in QF_BV: all 100.
    let mut v = Vec::new();
    for i in 0..1500 {
        let st = if i < 1000 { Status::Unsat } else { Status::Sat };
        v.push(bench("QF_LIA", "2010-f", &format!("b{i:05}.smt2"), st, 1));
    }
    for i in 0..400 {
        v.push(bench(
            "QF_UF",
            "2010-f",
            &format!("u{i:05}.smt2"),
            Status::Unsat,
            1,
        ));
    }
    for i in 0..100 {
        v.push(bench(
            "QF_BV",
            "2010-f",
            &format!("v{i:05}.smt2"),
            Status::Unsat,
            1,
        ));
    }
    let inv = Inventory {
        non_incremental: v,
        ..Inventory::default()
    };
    let comp = Competition::builtin(2023).unwrap();
    let (triviality, sound) = (Triviality::default(), SoundAnswers::default());
    let s = select(
        &inv,
        &SelectionInputs {
            competition: &comp,
            track: Track::ProofExhibition,
            seed: 5,
            triviality: &triviality,
            sound: &sound,
            heats: 0,
            only_logics: None,
            previous: None,
            test_per_logic: None,
        },
    )
    .unwrap();
    let count = |l: &str| {
        s.benchmarks
            .iter()
            .filter(|b| b.file.logic.as_str() == l)
            .count()
    };
    assert_eq!(
        (count("QF_LIA"), count("QF_UF"), count("QF_BV")),
        (250, 150, 100)
    );
    assert!(s.benchmarks.iter().all(|b| b.file.name.starts_with('u')
        || b.file.name.starts_with('v')
        || b.file.name.as_str() < "b01000.smt2"));
    assert_eq!(s.logics[&Logic::new("QF_LIA")].wrong_status, 500);
    // The 2023 Single Query Track keeps the competition-wide size: min(n, max(300, n/2)).
    let sq = select(
        &inv,
        &SelectionInputs {
            competition: &comp,
            track: Track::SingleQuery,
            seed: 5,
            triviality: &triviality,
            sound: &sound,
            heats: 0,
            only_logics: None,
            previous: None,
            test_per_logic: None,
        },
    )
    .unwrap();
    assert_eq!(sq.logics[&Logic::new("QF_LIA")].cap, 750);
}
