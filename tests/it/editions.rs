//! Golden tests of the historical rules editions (2015, 2008, 2023), every
//! expected number worked out by hand from the rules text in the comments.

use smtcomp::benchmarks::Smt2File;
use smtcomp::model::{Answer, Competition, Division, Logic, RulesEdition, Status, Track};
use smtcomp::proof::interpret;
use smtcomp::scoring::editions::{e2008, e2015, e2023};
use smtcomp::scoring::{BenchInfo, Kind, Participant, ScoredRun, ScoringInput};
use std::collections::{BTreeMap, BTreeSet};

const EPS: f64 = 1e-9;

fn file(logic: &str, name: &str, inc: bool) -> Smt2File {
    Smt2File {
        incremental: inc,
        logic: Logic::new(logic),
        family: vec!["fam".into()],
        name: name.into(),
    }
}

/// A run: (solver, logic, file, answer, cpu, wall).
fn run(track: Track, s: &str, l: &str, f: &str, a: Answer, cpu: f64, wall: f64) -> ScoredRun {
    ScoredRun {
        solver: s.into(),
        track,
        file: file(l, f, track == Track::Incremental).into(),
        answer: a,
        cpu_time: cpu,
        wall_time: wall,
        nb_answers: None,
        last_answer_time: None,
        answer_at_timeout: None,
        error: false,
    }
}

/// Division `D<logic>` = [logic]; `who` = (solver, competitive, logics entered).
fn input(
    track: Track,
    t: f64,
    who: &[(&str, bool, &[&str])],
    files: &[(&str, &str, Status, u64)],
    runs: Vec<ScoredRun>,
) -> ScoringInput {
    let inc = track == Track::Incremental;
    let benchmarks: smtcomp::scoring::BenchInfos = files
        .iter()
        .map(|(l, n, st, k)| {
            let info = BenchInfo {
                status: *st,
                asserts: *k,
                check_sats: *k,
            };
            (file(l, n, inc).path(), info)
        })
        .collect();
    let mut divisions = BTreeMap::new();
    for (l, ..) in files {
        divisions.insert(Division::new(format!("D{l}")), vec![Logic::new(*l)]);
    }
    let participants = who
        .iter()
        .map(|(s, comp, ls)| Participant {
            solver: s.to_string(),
            competitive: *comp,
            team: s.to_lowercase(),
            base: None,
            entries: ls
                .iter()
                .map(|l| {
                    (
                        Division::new(format!("D{l}")),
                        BTreeSet::from([Logic::new(*l)]),
                    )
                })
                .collect(),
        })
        .collect();
    ScoringInput {
        track,
        time_limit: t,
        cores: 4,
        memory_mb: 1000,
        year: 2015,
        divisions,
        participants,
        runs,
        benchmarks,
        base_solvers: BTreeMap::new(),
        selection: Vec::new(),
    }
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < EPS, "{a} != {b}");
}

// ---------------------------------------------------------------- 2015 ----

/// 2015 rules 7.1-7.4, main track, T = 100 s.
///
/// Division DL1 (competitive: teams a, b), files f1 sat, f2 unsat, f3 sat,
/// f4 unsat, f5 unknown (excluded, rules 6: N = 4):
/// * A: f1 sat (c 10, w 5), f2 unsat (c 150, w 50), f3 timeout that printed sat
///   (c 400, w 100: the process did not terminate, the answer does not count),
///   f4 unsat (c 20, w 20), f5 sat (excluded).
///   raw ⟨e, n, w, c⟩ = ⟨0, 3, 5+50+100+20 = 175, 10+150+400+20 = 580⟩;
///   sequential: f2 has c = 150 > T so n_S drops it, f3 has n = 0:
///   ⟨e_S, n_S, c_S⟩ = ⟨0, 2, 10+100+100+20 = 230⟩.
/// * B: f1 sat, f2 sat (wrong), f3 sat, f4 unsat, times 1, 2, 3, 4 (cpu = wall):
///   raw ⟨1, 3, 10, 10⟩, sequential ⟨1, 3, 10⟩.
/// * C (organizers, not competitive): all four right, 1 s each: ⟨0, 4, 4, 4⟩.
///   Raw order (e asc, n desc, ...): C, A, B; winner = first competitive = A.
///   Sequential order: C ⟨0,4⟩, A ⟨0,2⟩, B ⟨1,..⟩; winner A.
///
/// Division DL2 (competitive, N = 2): g1 sat, g2 unsat.
/// * A: g1 sat (c 1), g2 timeout: raw ⟨0, 1⟩, seq ⟨0, 1⟩.
/// * B: both right (c 1 each): ⟨0, 2⟩. Winner B.
///
/// Division DQF_FP (experimental, never competitive): A solves its benchmark.
///
/// Competition-wide (7.4, corrected reading (e == 0 ? (n/N)^2 : −e) · ln N, over
/// competitive divisions; C is not eligible):
/// * A raw = (3/4)^2 ln 4 + (1/2)^2 ln 2 = 0.5625·1.3862943611198906 +
///   0.25·0.6931471805599453 = 0.7797905781299385 + 0.1732867951399863 =
///   0.9530773732699248; A seq = (2/4)^2 ln 4 + (1/2)^2 ln 2 =
///   0.34657359027997264 + 0.1732867951399863 = 0.519860385419959.
/// * B raw = −1·ln 4 + (2/2)^2 ln 2 = −1.3862943611198906 + 0.6931471805599453
///   = −0.6931471805599453 (= seq).
///
/// The printed formula (e ≠ 0 ? (n/N)^2 : −e) would give A −0 + −0 = 0 and
/// B (3/4)^2 ln 4 + 0 = 0.78 > 0: the erroneous solver first, which the rationale
/// (and 7.3's errors-first order) rules out.
#[test]
fn e2015_main_track_golden() {
    use Answer::*;
    let tr = Track::SingleQuery;
    let mut runs = vec![
        run(tr, "A", "L1", "f1", Sat, 10.0, 5.0),
        run(tr, "A", "L1", "f2", Unsat, 150.0, 50.0),
        run(tr, "A", "L1", "f3", Timeout, 400.0, 100.0),
        run(tr, "A", "L1", "f4", Unsat, 20.0, 20.0),
        run(tr, "A", "L1", "f5", Sat, 1.0, 1.0),
        run(tr, "B", "L1", "f1", Sat, 1.0, 1.0),
        run(tr, "B", "L1", "f2", Sat, 2.0, 2.0),
        run(tr, "B", "L1", "f3", Sat, 3.0, 3.0),
        run(tr, "B", "L1", "f4", Unsat, 4.0, 4.0),
        run(tr, "C", "L1", "f1", Sat, 1.0, 1.0),
        run(tr, "C", "L1", "f2", Unsat, 1.0, 1.0),
        run(tr, "C", "L1", "f3", Sat, 1.0, 1.0),
        run(tr, "C", "L1", "f4", Unsat, 1.0, 1.0),
        run(tr, "A", "L2", "g1", Sat, 1.0, 1.0),
        run(tr, "A", "L2", "g2", Timeout, 100.0, 100.0),
        run(tr, "B", "L2", "g1", Sat, 1.0, 1.0),
        run(tr, "B", "L2", "g2", Unsat, 1.0, 1.0),
        run(tr, "A", "QF_FP", "h1", Sat, 1.0, 1.0),
        run(tr, "B", "QF_FP", "h1", Unknown, 1.0, 1.0),
    ];
    runs[2].answer_at_timeout = Some(Sat);
    let inp = input(
        tr,
        100.0,
        &[
            ("A", true, &["L1", "L2", "QF_FP"]),
            ("B", true, &["L1", "L2", "QF_FP"]),
            ("C", false, &["L1"]),
        ],
        &[
            ("L1", "f1", Status::Sat, 1),
            ("L1", "f2", Status::Unsat, 1),
            ("L1", "f3", Status::Sat, 1),
            ("L1", "f4", Status::Unsat, 1),
            ("L1", "f5", Status::Unknown, 1),
            ("L2", "g1", Status::Sat, 1),
            ("L2", "g2", Status::Unsat, 1),
            ("QF_FP", "h1", Status::Sat, 1),
        ],
        runs,
    );
    let exp = BTreeSet::from([Division::new("DQF_FP")]);
    let s = e2015::score(&inp, &exp);
    assert_eq!(s.divisions.len(), 3);
    let d1 = &s.divisions[0];
    assert_eq!(d1.division, "DL1");
    assert_eq!((d1.benchmarks, d1.excluded_unknown), (4, 1));
    assert!(d1.competitive);
    let names: Vec<_> = d1.raw.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(names, ["C", "A", "B"]);
    let a = &d1.raw[1];
    assert_eq!((a.e, a.n, a.e_s, a.n_s), (0, 3, 0, 2));
    close(a.w, 175.0);
    close(a.c, 580.0);
    close(a.c_s, 230.0);
    let b = &d1.raw[2];
    assert_eq!((b.e, b.n, b.e_s, b.n_s), (1, 3, 1, 3));
    close(b.w, 10.0);
    close(b.c_s, 10.0);
    let seq: Vec<_> = d1.sequential.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(seq, ["C", "A", "B"]);
    assert_eq!(d1.winner_raw.as_deref(), Some("A"));
    assert_eq!(d1.winner_seq.as_deref(), Some("A"));
    let d2 = &s.divisions[1];
    assert_eq!(d2.winner_raw.as_deref(), Some("B"));
    let fp = &s.divisions[2];
    assert!(fp.experimental && !fp.competitive && fp.winner_raw.is_none());
    // Competition-wide.
    assert_eq!(s.competition_wide.len(), 2);
    let (wa, wb) = (&s.competition_wide[0], &s.competition_wide[1]);
    assert_eq!((wa.solver.as_str(), wa.divisions), ("A", 2));
    close(wa.raw, 0.9530773732699248);
    close(wa.sequential, 0.519860385419959);
    assert_eq!(wb.solver, "B");
    // −ln 4 + ln 2 = −ln 2 = −0.6931471805599453.
    close(wb.raw, -std::f64::consts::LN_2);
    close(wb.sequential, -std::f64::consts::LN_2);
    // The printed (inverted) condition would rank B first; the corrected one A.
    close(e2015::wide_term(0, 3, 4), 0.7797905781299385);
    close(e2015::wide_term(1, 3, 4), -1.3862943611198906);
    assert_eq!(e2015::wide_term(0, 0, 0), 0.0);
}

/// 2015 application track (7.1): e = 1, n = 0 if any check-sat answer is wrong;
/// otherwise n = correct answers before the limit; raw order only.
/// * A: 5 correct answers, c = w = 10 → ⟨0, 5, 10, 10⟩.
/// * B: wrong answer after 3 correct ones → ⟨1, 0, 2, 2⟩.
/// * C: timeout (w 100) after 7 correct answers → ⟨0, 7, 100, 100⟩ (answers before
///   the limit count).
///
/// Order: C (n 7), A (n 5), B (e 1). No competition-wide score (main track only).
#[test]
fn e2015_application_track_golden() {
    let tr = Track::Incremental;
    let mut a = run(tr, "A", "L1", "i1", Answer::Incremental, 10.0, 10.0);
    a.nb_answers = Some(5);
    let mut b = run(tr, "B", "L1", "i1", Answer::IncrementalError, 2.0, 2.0);
    b.nb_answers = Some(3);
    let mut c = run(tr, "C", "L1", "i1", Answer::Timeout, 100.0, 100.0);
    c.nb_answers = Some(7);
    let inp = input(
        tr,
        100.0,
        &[
            ("A", true, &["L1"]),
            ("B", true, &["L1"]),
            ("C", true, &["L1"]),
        ],
        &[("L1", "i1", Status::Incremental, 10)],
        vec![a, b, c],
    );
    let s = e2015::score(&inp, &BTreeSet::new());
    let d = &s.divisions[0];
    let got: Vec<_> = d
        .raw
        .iter()
        .map(|r| (r.solver.as_str(), r.e, r.n))
        .collect();
    assert_eq!(got, [("C", 0, 7), ("A", 0, 5), ("B", 1, 0)]);
    close(d.raw[0].w, 100.0);
    assert!(d.sequential.is_empty());
    assert_eq!(d.winner_raw.as_deref(), Some("C"));
    assert!(s.competition_wide.is_empty());
}

// ---------------------------------------------------------------- 2008 ----

/// 2008 rules section 5 (Figure 1: +1 correct, −8 wrong, 0 otherwise).
///
/// DL1 (files f1..f6 known, f7 unknown status: skipped), entrants A, B, C
/// (competitive, three groups) and D (organizers):
/// * A: correct f1, f2, f3 (CPU 10, 20, 30 → average 20), f4 timeout that printed
///   sat (killed: 0), f5 unknown → 3 points.
/// * C: correct f1, f2, f3 (CPU 30 each → average 30) → 3 points: tie with A,
///   broken by the lower average CPU time on correct answers: A before C.
/// * D: correct f1..f6 → 6 points, ranked first, not eligible.
/// * B: correct f1..f6 → 6 points but disqualified (see DL2): listed last.
///
/// Winner DL1: A.
///
/// DL2 (g1..g5 sat): B answers unsat on g1..g4 (4 wrong: −32) and sat on g5 (+1)
/// → −31 and four wrong answers: disqualified from all divisions. C: 3 wrong
/// (−24), 2 correct → −22, three wrong answers are allowed. A: g1 correct → 1.
/// Order: A (1), C (−22), B (disqualified). Winner A.
///
/// DL3: only A and C entered (two groups): no winner.
#[test]
fn e2008_golden() {
    use Answer::*;
    let tr = Track::SingleQuery;
    let mut runs = vec![
        run(tr, "A", "L1", "f1", Sat, 10.0, 10.0),
        run(tr, "A", "L1", "f2", Unsat, 20.0, 20.0),
        run(tr, "A", "L1", "f3", Sat, 30.0, 30.0),
        run(tr, "A", "L1", "f4", Timeout, 100.0, 100.0),
        run(tr, "A", "L1", "f5", Unknown, 1.0, 1.0),
        run(tr, "C", "L1", "f1", Sat, 30.0, 30.0),
        run(tr, "C", "L1", "f2", Unsat, 30.0, 30.0),
        run(tr, "C", "L1", "f3", Sat, 30.0, 30.0),
        run(tr, "A", "L2", "g1", Sat, 1.0, 1.0),
        run(tr, "A", "L3", "k1", Sat, 1.0, 1.0),
        run(tr, "C", "L3", "k1", Unknown, 1.0, 1.0),
    ];
    runs[3].answer_at_timeout = Some(Unsat);
    let st = |i: usize| if i % 2 == 1 { Sat } else { Unsat };
    for s in ["D", "B"] {
        for i in 1..=6 {
            runs.push(run(tr, s, "L1", &format!("f{i}"), st(i), 1.0, 1.0));
        }
        runs.push(run(tr, s, "L1", "f7", Sat, 1.0, 1.0));
    }
    for i in 1..=5 {
        let g = format!("g{i}");
        runs.push(run(
            tr,
            "B",
            "L2",
            &g,
            if i <= 4 { Unsat } else { Sat },
            1.0,
            1.0,
        ));
        runs.push(run(
            tr,
            "C",
            "L2",
            &g,
            if i <= 3 { Unsat } else { Sat },
            1.0,
            1.0,
        ));
    }
    let mut files: Vec<(&str, String, Status)> = (1..=6)
        .map(|i| {
            let s = if i % 2 == 1 {
                Status::Sat
            } else {
                Status::Unsat
            };
            ("L1", format!("f{i}"), s)
        })
        .collect();
    files.push(("L1", "f7".into(), Status::Unknown));
    files.extend((1..=5).map(|i| ("L2", format!("g{i}"), Status::Sat)));
    files.push(("L3", "k1".into(), Status::Sat));
    let files: Vec<(&str, &str, Status, u64)> = files
        .iter()
        .map(|(l, f, s)| (*l, f.as_str(), *s, 1))
        .collect();
    let inp = input(
        tr,
        100.0,
        &[
            ("A", true, &["L1", "L2", "L3"]),
            ("B", true, &["L1", "L2"]),
            ("C", true, &["L1", "L2", "L3"]),
            ("D", false, &["L1"]),
        ],
        &files,
        runs,
    );
    let s = e2008::score(&inp);
    assert_eq!(s.disqualified, ["B"]);
    let d1 = &s.divisions[0];
    assert_eq!(
        (d1.division.as_str(), d1.benchmarks, d1.groups),
        ("DL1", 6, 3)
    );
    let got: Vec<_> = d1
        .rows
        .iter()
        .map(|r| {
            (
                r.solver.as_str(),
                r.points,
                r.correct,
                r.wrong,
                r.disqualified,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("D", 6, 6, 0, false),
            ("A", 3, 3, 0, false),
            ("C", 3, 3, 0, false),
            ("B", 6, 6, 0, true),
        ]
    );
    close(d1.rows[1].avg_cpu().unwrap(), 20.0);
    close(d1.rows[2].avg_cpu().unwrap(), 30.0);
    assert_eq!(d1.winner.as_deref(), Some("A"));
    let d2 = &s.divisions[1];
    let got: Vec<_> = d2
        .rows
        .iter()
        .map(|r| (r.solver.as_str(), r.points, r.wrong, r.disqualified))
        .collect();
    assert_eq!(
        got,
        [
            ("A", 1, 0, false),
            ("C", -22, 3, false),
            ("B", -31, 4, true)
        ]
    );
    assert_eq!(d2.winner.as_deref(), Some("A"));
    let d3 = &s.divisions[2];
    assert_eq!((d3.groups, d3.winner.as_deref()), (2, None));
    assert!(e2008::markdown(&s).contains("Disqualified (4+ wrong answers in a division): B"));
}

// ---------------------------------------------------------------- 2023 ----

/// 2023 rules 5.4: refuted iff #sat validators > #unsat validators.
#[test]
fn e2023_core_refutation() {
    assert!(e2023::core_refuted(2, 1));
    assert!(e2023::core_refuted(1, 0));
    assert!(!e2023::core_refuted(1, 1));
    assert!(!e2023::core_refuted(0, 0));
    assert!(!e2023::core_refuted(1, 2));
}

/// 2023 Cloud: the engine with the parallel kind only, and no best overall
/// (2023 rules 7.3). A solves f1 (w 10), B does not: A wins the parallel kind.
#[test]
fn e2023_cloud_parallel_only_no_best_overall() {
    let tr = Track::Cloud;
    let inp = input(
        tr,
        100.0,
        &[("A", true, &["L1"]), ("B", true, &["L1"])],
        &[("L1", "f1", Status::Sat, 1)],
        vec![
            run(tr, "A", "L1", "f1", Answer::Sat, 10.0, 10.0),
            run(tr, "B", "L1", "f1", Answer::Unknown, 1.0, 1.0),
        ],
    );
    let s = e2023::score(&inp);
    assert_eq!(s.kinds, [Kind::Parallel]);
    assert!(s.best_overall.is_empty());
    let g = s.group("DL1", true).unwrap();
    let p = g.podium(Kind::Parallel).unwrap();
    assert_eq!(p.winner.as_deref(), Some("A"));
    assert_eq!(s.policy, "rules-2023");
    let pages = smtcomp::scoring::output::pages(&s, 100, 1000, 2023);
    assert!(!pages.keys().any(|k| k.starts_with("best-overall")));
    assert!(pages.keys().any(|k| k.starts_with("biggest-lead")));
}

/// 2023 Proof Exhibition summary (5.8): per (solver, division) verdict counts,
/// errors = invalid + sat, sums of holes/axioms/steps/assertions, and a checker
/// saying valid on a known-sat benchmark flagged.
///
/// S in D: valid (steps 10, holes 0), holey (holes 3, steps 5, axioms 2),
/// invalid, sat, unknown, valid on b6 which is known sat (steps 1).
/// → valid 2, holey 1, invalid 1, sat 1, unknown 1, errors 2, steps 16,
///   holes 3, axioms 2, assertions 0; unsound_valid = [b6].
#[test]
fn e2023_proof_summary() {
    let outs = [
        ("b1", "valid\nholes=0\nsteps=10\n", Status::Unsat),
        ("b2", "holey\nholes=3\nsteps=5\naxioms=2\n", Status::Unsat),
        ("b3", "invalid\n", Status::Unsat),
        ("b4", "sat\n", Status::Unsat),
        ("b5", "unknown\nsteps=x\n", Status::Unknown),
        ("b6", "valid\nsteps=1\n", Status::Sat),
    ];
    let runs: Vec<e2023::ProofRun> = outs
        .iter()
        .map(|(b, o, st)| e2023::ProofRun {
            solver: "S".into(),
            division: "D".into(),
            benchmark: b.to_string(),
            status: *st,
            outcome: interpret(o),
        })
        .collect();
    let sum = e2023::proof_summary(&runs);
    assert_eq!(sum.len(), 1);
    let l = &sum[0];
    let v = |k: &str| l.verdicts[k];
    assert_eq!(
        (v("valid"), v("holey"), v("invalid"), v("sat"), v("unknown")),
        (2, 1, 1, 1, 1)
    );
    assert_eq!(l.errors, 2);
    let st = |k: &str| l.stats[k];
    assert_eq!(
        (st("steps"), st("holes"), st("axioms"), st("assertions")),
        (16, 3, 2, 0)
    );
    assert_eq!(l.unsound_valid, ["b6"]);
}

// ---------------------------------------------------------- definitions ----

#[test]
fn builtin_editions_load() {
    let c08 = Competition::builtin(2008).unwrap();
    assert_eq!(c08.rules, RulesEdition::Rules2008);
    let sq = c08.track(Track::SingleQuery).unwrap();
    assert_eq!(sq.divisions.len(), 15);
    assert!(sq.logics_of("AUFLIA-p").is_some() && sq.logics_of("AUFLIRA+p").is_some());
    let c15 = Competition::builtin(2015).unwrap();
    assert_eq!(c15.rules, RulesEdition::Rules2015);
    assert!(c15.track(Track::UnsatCore).is_none());
    assert!(
        c15.track(Track::SingleQuery)
            .unwrap()
            .is_experimental("QF_FP")
    );
    let c23 = Competition::builtin(2023).unwrap();
    assert_eq!(c23.rules, RulesEdition::Rules2023);
    let sq = c23.track(Track::SingleQuery).unwrap();
    for new in [
        "AUFBVFPDTNIRA",
        "UFBVDTLIA",
        "UFBVDTNIA",
        "UFBVDTNIRA",
        "UFBVFPDTNIRA",
    ] {
        assert!(sq.division_of(new).is_none(), "{new}");
    }
    assert!(sq.division_of("UFBVDT").is_some());
    assert!(c23.track(Track::Cloud).unwrap().held);
    assert_eq!("2015".parse::<RulesEdition>(), Ok(RulesEdition::Rules2015));
    assert!("2016".parse::<RulesEdition>().is_err());
}
