//! Hand-computed golden tests straight from the rules text (2025 rules section 7).
//! Every expected number is worked out in the comments.

use smtcomp::benchmarks::Smt2File;
use smtcomp::model::{Answer, Division, Logic, Status, Track};
use smtcomp::scoring::{
    self, BenchInfo, Kind, Participant, Policy, RunTime, ScoredRun, ScoringInput, SolverScore,
    TrackScores,
};
use std::collections::{BTreeMap, BTreeSet};

const D: &str = "Div";
const L: &str = "QF_X";

fn file(name: &str, inc: bool) -> Smt2File {
    Smt2File {
        incremental: inc,
        logic: Logic::new(L),
        family: vec!["fam".into()],
        name: name.into(),
    }
}

fn run(track: Track, solver: &str, f: &str, answer: Answer, cpu: f64, wall: f64) -> ScoredRun {
    ScoredRun {
        solver: solver.into(),
        track,
        file: file(f, track == Track::Incremental).into(),
        answer,
        cpu_time: cpu,
        wall_time: wall,
        nb_answers: None,
        last_answer_time: None,
        answer_at_timeout: None,
        error: false,
    }
}

fn participant(name: &str, competitive: bool) -> Participant {
    let mut entries = BTreeMap::new();
    entries.insert(Division::new(D), BTreeSet::from([Logic::new(L)]));
    Participant {
        solver: name.into(),
        competitive,
        team: name.to_lowercase(),
        base: None,
        entries,
    }
}

fn input(
    track: Track,
    solvers: &[&str],
    files: &[(&str, Status, u64)],
    runs: Vec<ScoredRun>,
) -> ScoringInput {
    let benchmarks: smtcomp::scoring::BenchInfos = files
        .iter()
        .map(|(n, st, k)| {
            let f = file(n, track == Track::Incremental);
            (
                f.path(),
                BenchInfo {
                    status: *st,
                    asserts: *k,
                    check_sats: *k,
                },
            )
        })
        .collect();
    ScoringInput {
        track,
        time_limit: 1200.0,
        cores: 4,
        memory_mb: 30720,
        year: 2025,
        divisions: BTreeMap::from([(Division::new(D), vec![Logic::new(L)])]),
        participants: solvers.iter().map(|s| participant(s, true)).collect(),
        runs,
        benchmarks,
        base_solvers: BTreeMap::new(),
        selection: Vec::new(),
    }
}

fn step<'a>(s: &'a TrackScores, kind: Kind, solver: &str) -> &'a SolverScore {
    let g = s.group(D, true).expect("division page");
    g.podium(kind)
        .unwrap()
        .steps
        .iter()
        .find(|x| x.solver == solver)
        .unwrap_or_else(|| panic!("{solver} in {kind:?}"))
}

fn order(s: &TrackScores, kind: Kind) -> Vec<String> {
    s.group(D, true)
        .unwrap()
        .podium(kind)
        .unwrap()
        .steps
        .iter()
        .map(|x| x.solver.clone())
        .collect()
}

fn winner(s: &TrackScores, kind: Kind) -> Option<String> {
    s.group(D, true)
        .unwrap()
        .podium(kind)
        .unwrap()
        .winner
        .clone()
}

fn approx(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "{a} != {b}");
}

/// Single Query: f1 sat, f2 unsat, f3 unknown; T = 1200.
///   A: f1 sat (c10 w5), f2 unsat (c20 w10), f3 sat (c1 w1)
///   B: f1 unsat (WRONG, c3 w3), f2 unsat (c4 w4), f3 Timeout (c1300 w1200)
///   C: f1 sat (c2000 w600: over the virtual CPU limit), f2 unknown (c1 w1), f3 no run
fn sq_runs() -> ScoringInput {
    let t = Track::SingleQuery;
    input(
        t,
        &["A", "B", "C"],
        &[
            ("f1", Status::Sat, 1),
            ("f2", Status::Unsat, 1),
            ("f3", Status::Unknown, 1),
        ],
        vec![
            run(t, "A", "f1", Answer::Sat, 10.0, 5.0),
            run(t, "A", "f2", Answer::Unsat, 20.0, 10.0),
            run(t, "A", "f3", Answer::Sat, 1.0, 1.0),
            run(t, "B", "f1", Answer::Unsat, 3.0, 3.0),
            run(t, "B", "f2", Answer::Unsat, 4.0, 4.0),
            run(t, "B", "f3", Answer::Timeout, 1300.0, 1200.0),
            run(t, "C", "f1", Answer::Sat, 2000.0, 600.0),
            run(t, "C", "f2", Answer::Unknown, 1.0, 1.0),
        ],
    )
}

#[test]
fn single_query_parallel_score_wrong_answers_and_counters() {
    let s = scoring::score(&sq_runs(), &Policy::rules());
    // A: e=0, n=3, w=5+10+1=16, c=10+20+1=31.
    let a = step(&s, Kind::Parallel, "A");
    assert_eq!(
        (a.e, a.n, a.solved, a.solved_sat, a.solved_unsat, a.unsolved),
        (0, 3, 3, 2, 1, 0)
    );
    approx(a.w, 16.0);
    approx(a.c, 31.0);
    // B: e=1 (f1), n=1 (f2); rules 7.1: w=c=0 for the wrong answer -> w=4, c=4; f3 timeout.
    let b = step(&s, Kind::Parallel, "B");
    assert_eq!((b.e, b.n, b.solved, b.unsolved, b.timeout), (1, 1, 2, 1, 1));
    approx(b.w, 4.0);
    approx(b.c, 4.0);
    // C: n=1 (f1, wall 600 is within T), unknown and missing run are unsolved.
    let c = step(&s, Kind::Parallel, "C");
    assert_eq!(
        (c.e, c.n, c.solved, c.unsolved, c.timeout, c.abstained),
        (0, 1, 1, 2, 0, 0)
    );
    approx(c.w, 600.0);
    approx(c.c, 2000.0);
    // Order: e asc, n desc: A (0,3), C (0,1), B (1,1).
    assert_eq!(order(&s, Kind::Parallel), ["A", "C", "B"]);
    assert_eq!(winner(&s, Kind::Parallel).as_deref(), Some("A"));
    // B is unsound (unsat on a sat benchmark); nobody disagrees on f3 -> N = 3.
    assert_eq!(s.unsound, vec![(D.to_string(), vec!["B".to_string()])]);
    assert_eq!(s.group(D, true).unwrap().n_benchmarks, 3);

    // published-2025: the wrong answer keeps its time: B w = 3+4 = 7, c = 7.
    let p = scoring::score(&sq_runs(), &Policy::published_2025());
    let b = step(&p, Kind::Parallel, "B");
    approx(b.w, 7.0);
    approx(b.c, 7.0);
}

#[test]
fn single_query_sequential_over_the_cpu_limit() {
    let s = scoring::score(&sq_runs(), &Policy::rules());
    // C's f1 used c = 2000 > T = 1200: e_S = n_S = c_S = 0; C: n=0; counted unsolved.
    let c = step(&s, Kind::Sequential, "C");
    assert_eq!((c.e, c.n, c.solved, c.unsolved), (0, 0, 0, 3));
    approx(c.c, 0.0);
    // A unchanged (n=3, c=31); B: e=1, n=1, c=4 (f3's 1300 s were unsolved anyway).
    let a = step(&s, Kind::Sequential, "A");
    assert_eq!((a.e, a.n), (0, 3));
    approx(a.c, 31.0);
    assert_eq!(order(&s, Kind::Sequential), ["A", "C", "B"]);
    // published-2025 keeps the parallel counters in the sequential table (solved 1 > correct 0).
    let p = scoring::score(&sq_runs(), &Policy::published_2025());
    let c = step(&p, Kind::Sequential, "C");
    assert_eq!((c.n, c.solved), (0, 1));
}

#[test]
fn single_query_sat_unsat_and_24_seconds() {
    let s = scoring::score(&sq_runs(), &Policy::rules());
    // Sat kind: f1 and f3 (f3 unknown, resolved sat by the sound solver A). A: n=2, w=6, c=11.
    let a = step(&s, Kind::Sat, "A");
    assert_eq!((a.n, a.abstained), (2, 0));
    approx(a.w, 6.0);
    // Unsat kind: only f2. B: e=0, n=1, w=4 beats A: n=1, w=10; C: n=0.
    assert_eq!(order(&s, Kind::Unsat), ["B", "A", "C"]);
    assert_eq!(winner(&s, Kind::Unsat).as_deref(), Some("B"));
    // 24 s (rules: T = 24): C's f1 (w=600) and B's f3 are over 24 s: unsolved, timeout.
    let c = step(&s, Kind::TwentyFour, "C");
    assert_eq!((c.n, c.timeout, c.abstained), (0, 1, 0));
    let a = step(&s, Kind::TwentyFour, "A");
    assert_eq!(a.n, 3);
    // published-2025: runs over 24 s vanish and count as abstained; B's f1 wrong answer
    // (3 s) stays; f3's 1200 s row is dropped: B rows = 2, abstained = 1.
    let p = scoring::score(&sq_runs(), &Policy::published_2025());
    let c = step(&p, Kind::TwentyFour, "C");
    assert_eq!((c.n, c.abstained, c.unsolved), (0, 1, 2));
    let b = step(&p, Kind::TwentyFour, "B");
    assert_eq!((b.e, b.abstained, b.timeout), (1, 1, 0));
    // published-2025: in the sat kind abstained = 3 files - 2 rows = 1.
    assert_eq!(step(&p, Kind::Sat, "A").abstained, 1);
}

#[test]
fn unknown_status_with_sound_disagreement_is_removed_and_reported() {
    let t = Track::SingleQuery;
    // k1 sat (all right), u1 unknown: A says sat, C says unsat (both sound) -> removed.
    // u2 unknown: A says unsat, B (unsound: wrong on k2) says sat.
    let inp = input(
        t,
        &["A", "B", "C"],
        &[
            ("k1", Status::Sat, 1),
            ("k2", Status::Unsat, 1),
            ("u1", Status::Unknown, 1),
            ("u2", Status::Unknown, 1),
        ],
        vec![
            run(t, "A", "k1", Answer::Sat, 1.0, 1.0),
            run(t, "B", "k1", Answer::Sat, 1.0, 1.0),
            run(t, "C", "k1", Answer::Sat, 1.0, 1.0),
            run(t, "B", "k2", Answer::Sat, 1.0, 1.0),
            run(t, "A", "u1", Answer::Sat, 1.0, 1.0),
            run(t, "C", "u1", Answer::Unsat, 1.0, 1.0),
            run(t, "A", "u2", Answer::Unsat, 1.0, 1.0),
            run(t, "B", "u2", Answer::Sat, 1.0, 1.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    assert_eq!(s.disagreements.len(), 1);
    assert_eq!(s.disagreements[0].sat, ["A"]);
    assert_eq!(s.disagreements[0].unsat, ["C"]);
    // N = 4 - 1 removed = 3.
    assert_eq!(s.group(D, true).unwrap().n_benchmarks, 3);
    // Rules (footnote 4): on an unknown-status benchmark the answer is treated as
    // correct: B's sat on u2 counts, B: e=1 (k2), n=2 (k1, u2).
    let b = step(&s, Kind::Parallel, "B");
    assert_eq!((b.e, b.n), (1, 2));
    // published-2025: u2's status comes from the sound solver A (unsat): B gets e=2, n=1.
    let p = scoring::score(&inp, &Policy::published_2025());
    let b = step(&p, Kind::Parallel, "B");
    assert_eq!((b.e, b.n), (2, 1));
}

#[test]
fn one_solver_only_never_divides_by_zero() {
    let t = Track::SingleQuery;
    let inp = input(
        t,
        &["A"],
        &[("f1", Status::Sat, 1)],
        vec![run(t, "A", "f1", Answer::Sat, 1.0, 1.0)],
    );
    for policy in [Policy::rules(), Policy::published_2025()] {
        let s = scoring::score(&inp, &policy);
        let g = s.group(D, true).unwrap();
        // One team only: not competitive.
        assert!(!g.competitive);
        assert_eq!(step(&s, Kind::Parallel, "A").n, 1);
        // Rules: no winner in a non-competitive division; the reference tool names one.
        assert_eq!(
            winner(&s, Kind::Parallel).is_some(),
            policy.winners_in_non_competitive
        );
        // Recognitions: no division qualifies, nothing is NaN.
        for o in &s.best_overall {
            assert!(o.entries.iter().all(|e| e.contribution.is_finite()));
            assert!(o.entries.is_empty());
        }
        assert!(s.biggest_lead.iter().all(|l| l.entries.is_empty()));
        assert!(s.largest_contribution.iter().all(|l| l.entries.is_empty()));
    }
    // Empty input: no pages, no panic.
    let empty = input(t, &["A"], &[], vec![]);
    let s = scoring::score(&empty, &Policy::rules());
    assert!(s.groups.is_empty());
}

#[test]
fn all_solvers_unsound() {
    let t = Track::SingleQuery;
    // A wrong on k1, B wrong on k2; on u (unknown) they disagree but neither is sound,
    // so u is kept and (rules) both answers count as correct.
    let inp = input(
        t,
        &["A", "B"],
        &[
            ("k1", Status::Sat, 1),
            ("k2", Status::Unsat, 1),
            ("u", Status::Unknown, 1),
        ],
        vec![
            run(t, "A", "k1", Answer::Unsat, 1.0, 1.0),
            run(t, "B", "k2", Answer::Sat, 1.0, 1.0),
            run(t, "A", "u", Answer::Sat, 2.0, 2.0),
            run(t, "B", "u", Answer::Unsat, 1.0, 1.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    assert!(s.disagreements.is_empty());
    assert_eq!(s.group(D, true).unwrap().n_benchmarks, 3);
    let (a, b) = (step(&s, Kind::Parallel, "A"), step(&s, Kind::Parallel, "B"));
    assert_eq!((a.e, a.n, b.e, b.n), (1, 1, 1, 1));
    // Tie on e and n; B is faster on u (w 1 < 2).
    assert_eq!(order(&s, Kind::Parallel), ["B", "A"]);
    // Best overall: nn = -2 for both; contribution = -2 * log10(3) = -0.954243.
    let bo = &s
        .best_overall
        .iter()
        .find(|o| o.kind == Kind::Parallel)
        .unwrap();
    approx(bo.entries[0].contribution, -2.0 * 3f64.log10());
}

#[test]
fn ties_are_broken_by_the_documented_rule() {
    let t = Track::SingleQuery;
    // A: c=10, w=20; B: c=20, w=10; C identical to A. All n=1.
    let inp = input(
        t,
        &["A", "B", "C"],
        &[("f", Status::Sat, 1)],
        vec![
            run(t, "A", "f", Answer::Sat, 10.0, 20.0),
            run(t, "B", "f", Answer::Sat, 20.0, 10.0),
            run(t, "C", "f", Answer::Sat, 10.0, 20.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    // Parallel: wall first: B (10), then A and C (20) tied on everything -> by name.
    assert_eq!(order(&s, Kind::Parallel), ["B", "A", "C"]);
    let p = s.group(D, true).unwrap().podium(Kind::Parallel).unwrap();
    assert_eq!(p.name_ties, [("A".to_string(), "C".to_string())]);
    assert!(p.ranking.contains("name"));
    // Sequential (rules 7.2.2): CPU time: A, C (10) before B (20).
    assert_eq!(order(&s, Kind::Sequential), ["A", "C", "B"]);
    // published-2025 ties sequential on wall first: B first.
    let pb = scoring::score(&inp, &Policy::published_2025());
    assert_eq!(order(&pb, Kind::Sequential), ["B", "A", "C"]);
}

#[test]
fn incremental_scores() {
    let t = Track::Incremental;
    // i1 has 10 check-sats, i2 has 5. T = 1200.
    //   A on i1: 7 answers, last at c=5 w=6, then Timeout (c=1250, w=1200).
    //   B on i1: Timeout without any answer.
    //   C on i1: IncrementalError after 3 answers.
    //   A on i2: 5 answers, done at c=2 w=2.
    let mut a1 = run(t, "A", "i1", Answer::Timeout, 1250.0, 1200.0);
    a1.nb_answers = Some(7);
    a1.last_answer_time = Some(Box::new(RunTime {
        cpu: 5.0,
        wall: 6.0,
    }));
    let mut b1 = run(t, "B", "i1", Answer::Timeout, 1200.0, 1200.0);
    b1.nb_answers = Some(0);
    let mut c1 = run(t, "C", "i1", Answer::IncrementalError, 3.0, 3.0);
    c1.nb_answers = Some(3);
    c1.last_answer_time = Some(Box::new(RunTime {
        cpu: 3.0,
        wall: 3.0,
    }));
    let mut a2 = run(t, "A", "i2", Answer::Incremental, 2.0, 2.0);
    a2.nb_answers = Some(5);
    a2.last_answer_time = Some(Box::new(RunTime {
        cpu: 2.0,
        wall: 2.0,
    }));
    let inp = input(
        t,
        &["A", "B", "C"],
        &[
            ("i1", Status::Incremental, 10),
            ("i2", Status::Incremental, 5),
        ],
        vec![a1, b1, c1, a2],
    );
    let s = scoring::score(&inp, &Policy::rules());
    assert_eq!(s.kinds, [Kind::Parallel]);
    // A: n = 7 + 5 = 12, w = 6 + 2 = 8 (time of the last answer), c = 5 + 2 = 7.
    let a = step(&s, Kind::Parallel, "A");
    assert_eq!((a.e, a.n), (0, 12));
    approx(a.w, 8.0);
    approx(a.c, 7.0);
    // B: no answer: w = c = 0. C: e = 1 and n = 0 (rules 7.1.3).
    let b = step(&s, Kind::Parallel, "B");
    approx(b.w, 0.0);
    let c = step(&s, Kind::Parallel, "C");
    assert_eq!((c.e, c.n), (1, 0));
    // N for best overall = check-sats = 15.
    assert_eq!(s.group(D, true).unwrap().n_total, 15);
    // published-2025: n kept on error (3), times always the run's (B: 1200).
    let p = scoring::score(&inp, &Policy::published_2025());
    assert_eq!(step(&p, Kind::Parallel, "C").n, 3);
    approx(step(&p, Kind::Parallel, "B").w, 1200.0);
    approx(step(&p, Kind::Parallel, "A").w, 1202.0);
}

#[test]
fn unsat_core_reduction_and_errors() {
    let t = Track::UnsatCore;
    // u1 has 10 assertions, u2 has 4.
    //   A: u1 core of 3 -> n = 7 (c4 w4); u2 core of 4 -> n = 0 but solved (c1 w1).
    //   B: u1 core invalidated -> e = 1; C: u1 sat -> e = 1 (status unsat).
    let mut a1 = run(t, "A", "u1", Answer::Unsat, 4.0, 4.0);
    a1.nb_answers = Some(3);
    let mut a2 = run(t, "A", "u2", Answer::Unsat, 1.0, 1.0);
    a2.nb_answers = Some(4);
    let mut b1 = run(t, "B", "u1", Answer::UnsatCoreInvalidated, 2.0, 2.0);
    b1.nb_answers = Some(2);
    let c1 = run(t, "C", "u1", Answer::Sat, 1.0, 1.0);
    let inp = input(
        t,
        &["A", "B", "C"],
        &[("u1", Status::Unsat, 10), ("u2", Status::Unsat, 4)],
        vec![a1, a2, b1, c1],
    );
    let s = scoring::score(&inp, &Policy::rules());
    assert_eq!(s.kinds, [Kind::Sequential, Kind::Parallel]);
    let a = step(&s, Kind::Parallel, "A");
    assert_eq!((a.e, a.n), (0, 7));
    approx(a.w, 5.0);
    let b = step(&s, Kind::Parallel, "B");
    assert_eq!((b.e, b.n), (1, 0));
    approx(b.w, 0.0);
    assert_eq!(step(&s, Kind::Parallel, "C").e, 1);
    // N = assertions = 14; A's best-overall contribution: (7/14)^2 * log10(14) = 0.286532.
    assert_eq!(s.group(D, true).unwrap().n_total, 14);
    let bo = s
        .best_overall
        .iter()
        .find(|o| o.kind == Kind::Parallel)
        .unwrap();
    let a_entry = bo.entries.iter().find(|e| e.solver == "A").unwrap();
    approx(a_entry.contribution, 0.25 * 14f64.log10());
}

#[test]
fn model_validation_verdicts() {
    let t = Track::ModelValidation;
    // A: validated model (sat) n=1; B: ModelUnsat e=1; C: ModelParsingError 0/0.
    let inp = input(
        t,
        &["A", "B", "C"],
        &[("m", Status::Sat, 1)],
        vec![
            run(t, "A", "m", Answer::Sat, 3.0, 3.0),
            run(t, "B", "m", Answer::ModelUnsat, 1.0, 1.0),
            run(t, "C", "m", Answer::ModelParsingError, 1.0, 1.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    let (a, b, c) = (
        step(&s, Kind::Parallel, "A"),
        step(&s, Kind::Parallel, "B"),
        step(&s, Kind::Parallel, "C"),
    );
    assert_eq!((a.e, a.n, b.e, b.n, c.e, c.n), (0, 1, 1, 0, 0, 0));
    approx(a.c, 3.0);
    approx(c.c, 0.0);
    assert_eq!(order(&s, Kind::Parallel), ["A", "C", "B"]);
}

#[test]
fn parallel_track_has_no_sequential_score_and_timeouts_with_answers_count() {
    let t = Track::Parallel;
    // A printed sat then hit the limit: rules 7.1.2 count the answer (n=1) but
    // w = c = 0 (not solved within T); the reference tool counts a timeout.
    let mut a = run(t, "A", "p", Answer::Timeout, 1300.0, 1201.0);
    a.answer_at_timeout = Some(Answer::Sat);
    let b = run(t, "B", "p", Answer::Sat, 50.0, 20.0);
    let inp = input(t, &["A", "B"], &[("p", Status::Sat, 1)], vec![a, b]);
    let s = scoring::score(&inp, &Policy::rules());
    assert_eq!(s.kinds, [Kind::Parallel]);
    let a = step(&s, Kind::Parallel, "A");
    assert_eq!((a.n, a.solved), (1, 1));
    approx(a.w, 0.0);
    let p = scoring::score(&inp, &Policy::published_2025());
    assert!(p.kinds.contains(&Kind::TwentyFour) && !p.kinds.contains(&Kind::Sequential));
    let a = step(&p, Kind::Parallel, "A");
    assert_eq!((a.n, a.timeout), (0, 1));
}

#[test]
fn best_overall_biggest_lead_and_largest_contribution() {
    let t = Track::SingleQuery;
    // Four sat files f1..f4, three competitive solvers of different teams:
    //   A solves f1 (w2 c2), f2 (w2 c2), f3 (w10 c10)
    //   B solves f1 (w1 c1), f2 (w4 c4)
    //   C solves f3 (w5 c5)
    // f4 unsolved (C times out on it; a benchmark without any run is not part of N).
    let inp = input(
        t,
        &["A", "B", "C"],
        &[
            ("f1", Status::Sat, 1),
            ("f2", Status::Sat, 1),
            ("f3", Status::Sat, 1),
            ("f4", Status::Sat, 1),
        ],
        vec![
            run(t, "A", "f1", Answer::Sat, 2.0, 2.0),
            run(t, "A", "f2", Answer::Sat, 2.0, 2.0),
            run(t, "A", "f3", Answer::Sat, 10.0, 10.0),
            run(t, "B", "f1", Answer::Sat, 1.0, 1.0),
            run(t, "B", "f2", Answer::Sat, 4.0, 4.0),
            run(t, "C", "f3", Answer::Sat, 5.0, 5.0),
            run(t, "C", "f4", Answer::Timeout, 1300.0, 1200.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    // Best overall (N = 4): A (3/4)^2 log10 4 = 0.338654..., B (2/4)^2 log10 4, C (1/4)^2 log10 4.
    let bo = s
        .best_overall
        .iter()
        .find(|o| o.kind == Kind::Parallel)
        .unwrap();
    let w = bo.winner.as_ref().unwrap();
    assert_eq!(w.solver, "A");
    approx(w.score, 0.5625 * 4f64.log10());
    // Biggest lead: winner A (n=3, w=14) over B (n=2, w=5): (3+1)/(2+1) = 4/3,
    // time (5+1)/(14+1) = 0.4.
    let bl = s
        .biggest_lead
        .iter()
        .find(|l| l.kind == Kind::Parallel)
        .unwrap();
    approx(bl.entries[0].correct_rank, 4.0 / 3.0);
    approx(bl.entries[0].time_rank, 0.4);
    assert_eq!(bl.entries[0].second, "B");
    // Largest contribution (rules 7.3.3), S = {A, B, C} (3 sound competitive), T = 1200:
    //   vbs_n(S) = 3 (f1, f2, f3); vbs_w(S) = 1 + 2 + 5 + 1200 (f4 empty) = 1208.
    //   S-A: f1 1, f2 4, f3 5, f4 1200 -> n = 3, w = 1210 -> correct 0, time 1 - 1208/1210.
    //   S-B: f1 2, f2 2, f3 5, f4 1200 -> n = 3, w = 1209.
    //   S-C: f1 1, f2 2, f3 10, f4 1200 -> n = 3, w = 1213.
    //   Normalisation: n_D / N = 1 (one division).
    let lc = s
        .largest_contribution
        .iter()
        .find(|l| l.kind == Kind::Parallel)
        .unwrap();
    let get = |n: &str| lc.entries.iter().find(|e| e.solver == n).unwrap();
    approx(get("A").correct_rank, 0.0);
    approx(get("A").time_rank, 1.0 - 1208.0 / 1210.0);
    approx(get("B").time_rank, 1.0 - 1208.0 / 1209.0);
    approx(get("C").time_rank, 1.0 - 1208.0 / 1213.0);
    // Tie on correctness (all 0): the higher time rank wins: C.
    assert_eq!(lc.winner.as_deref(), Some("C"));
    // published-2025: empty set = 0 (f4 contributes nothing):
    //   VBS w = 1+2+5 = 8; S-A = 1+4+5 = 10 -> time = 1 - 8/10 = 0.2 (ratio 1).
    let p = scoring::score(&inp, &Policy::published_2025());
    let lc = p
        .largest_contribution
        .iter()
        .find(|l| l.kind == Kind::Parallel)
        .unwrap();
    let a = lc.entries.iter().find(|e| e.solver == "A").unwrap();
    approx(a.time_rank, 0.2);
}

#[test]
fn teams_come_from_the_submissions() {
    use smtcomp::model::Competition;
    use smtcomp::scoring::teams;
    let comp = Competition::builtin(2025).unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/submissions-2025");
    let loaded = smtcomp::submission::load_set(&[dir], &comp);
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    let t = teams(&subs, &comp.base_solvers, &comp.teams);
    // A team id is a submission's author set (docs/scoring.md); "different
    // teams" is read pairwise: disjoint author sets. Equal sets are one team
    // (bv_decide and bv_decide-nokernel; OpenSMT and its min-ucore variant)...
    let differ = |a: &str, b: &str| smtcomp::scoring::different_teams(&t[a], &t[b]);
    assert_eq!(t["bv_decide"], t["bv_decide-nokernel"]);
    assert!(!differ("bv_decide", "bv_decide-nokernel"));
    assert_eq!(t["OpenSMT"], t["OpenSMT (min-ucore)"]);
    // ...and so are sets sharing an author: cvc5 and Bitwuzla (Niemetz,
    // Preiner) are not two teams for each other.
    assert!(!differ("cvc5", "Bitwuzla"));
    // Z3-Owl (derived) is not in the team of its base solver; Yices2 and cvc5
    // share no author.
    assert!(differ("Z3-Owl", "Z3-Owl-base"));
    assert!(differ("Yices2", "cvc5"));
    // The definition's [teams] overrides: one named team for two solvers.
    let mut explicit = std::collections::BTreeMap::new();
    explicit.insert("cvc5".to_string(), "Stanford-Iowa".to_string());
    explicit.insert("Bitwuzla".to_string(), "Stanford-Iowa".to_string());
    let t2 = teams(&subs, &comp.base_solvers, &explicit);
    assert_eq!(t2["cvc5"], t2["Bitwuzla"]);
    assert_eq!(t2["cvc5"], "team:Stanford-Iowa");
    assert_eq!(t2["SMTInterpol"], t["SMTInterpol"]);
}

/// Teams are read pairwise and never linked transitively: X = {a}, Y = {a,
/// b}, Z = {b}. X and Z (disjoint authors) are different teams, so a division
/// entered by X and Z is competitive; Y shares an author with each, so a
/// division entered by X and Y only is not; X, Y, Z hold at most two pairwise
/// different teams.
#[test]
fn teams_are_not_linked_through_a_third_submission() {
    use smtcomp::scoring::teams;
    let sub = |name: &str, authors: &[&str]| {
        let json = serde_json::json!({
            "name": name,
            "contributors": authors,
            "contacts": ["x <x@example.org>"],
            "archive": {"url": "https://example.org/a.zip"},
            "website": "https://example.org",
            "system_description": "https://example.org/d.pdf",
            "command": ["./s"],
            "solver_type": "Standalone",
            "participations": [{"tracks": ["SingleQuery"], "logics": "QF_UF"}],
            "seed": 1,
            "competitive": true
        });
        let mut problems = smtcomp::submission::Problems::new("t.json");
        let s = smtcomp::submission::parse_submission(&json.to_string(), &mut problems);
        s.unwrap_or_else(|| panic!("{:?}", problems.into_vec()))
    };
    let (x, y, z) = (sub("X", &["a"]), sub("Y", &["a", "B "]), sub("Z", &["b"]));
    let t = teams(&[&x, &y, &z], &Default::default(), &Default::default());
    assert_eq!(t["X"], "authors:a");
    assert_eq!(t["Y"], "authors:a; b");
    assert_eq!(t["Z"], "authors:b");
    use smtcomp::scoring::{different_teams, distinct_teams};
    assert!(different_teams(&t["X"], &t["Z"]));
    assert!(!different_teams(&t["X"], &t["Y"]));
    assert_eq!(distinct_teams(&[&t["X"], &t["Y"], &t["Z"]]), 2);
}

#[test]
fn explicit_teams_are_read_and_checked() {
    use smtcomp::model::Competition;
    let base = include_str!("../../demo/competition.toml");
    let ok = format!("{base}\n[teams]\n\"cvc5 team\" = [\"cvc5\"]\nBitwuzla = [\"Bitwuzla\"]\n");
    let comp = Competition::from_toml(&ok, "t.toml").unwrap();
    assert_eq!(comp.teams["cvc5"], "cvc5 team");
    let twice = format!("{base}\n[teams]\na = [\"cvc5\"]\nb = [\"cvc5\"]\n");
    let e = Competition::from_toml(&twice, "t.toml")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "t.toml: teams.b: solver 'cvc5' is also in team 'a'");
}

#[test]
fn explain_differences_names_the_switch() {
    let diffs = scoring::explain::explain(&sq_runs(), &Policy::rules(), &Policy::published_2025());
    // B's parallel wall score: 4 (rules) vs 7 (published), caused by wrong answers keeping time.
    let d = diffs
        .iter()
        .find(|d| d.page == "Div" && d.kind == "parallel" && d.item == "B.wall")
        .expect("B.wall differs");
    assert_eq!((d.left.as_str(), d.right.as_str()), ("4.00", "7.00"));
    assert_eq!(d.switches, ["wrong_answer_keeps_time"]);
    // The sequential order differs for no reason other than... nothing: A, C, B both ways.
    assert!(
        !diffs
            .iter()
            .any(|d| d.kind == "sequential" && d.item == "order")
    );
}

/// Rules 2025 7.1: w is the wall time of a benchmark solved *within* T, c its
/// CPU time when solved within mT (m = 4 cores: 4800 s). An answer with a wall
/// time above T (BenchExec did not flag a timeout, e.g. the answer came during
/// its grace period) still counts (n = 1, 7.1.2) but has w = 0; its CPU time
/// (1150 s <= 4800 s) is within mT, so c stays; `over_limit_answer_keeps_time`
/// keeps both. The CPU case: `tests/it/rules_limits.rs`.
#[test]
fn answer_over_the_wall_limit_has_no_time_scores() {
    let t = Track::SingleQuery;
    // T = 1200 s. A: sat at aw = 1200.3 s, ac = 1150 s; and sat at 10 s on g.
    // B: sat at 1000 s on f, nothing on g.
    let inp = input(
        t,
        &["A", "B"],
        &[("f", Status::Sat, 1), ("g", Status::Sat, 1)],
        vec![
            run(t, "A", "f", Answer::Sat, 1150.0, 1200.3),
            run(t, "A", "g", Answer::Sat, 10.0, 10.0),
            run(t, "B", "f", Answer::Sat, 1000.0, 1000.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    // A: e = 0, n = 2 (both answers count), w = 0 + 10 = 10, c = 1150 + 10 = 1160.
    let a = step(&s, Kind::Parallel, "A");
    assert_eq!((a.e, a.n), (0, 2));
    approx(a.w, 10.0);
    approx(a.c, 1160.0);
    // B: n = 1, w = c = 1000. Order by n: A before B.
    let b = step(&s, Kind::Parallel, "B");
    assert_eq!((b.e, b.n), (0, 1));
    approx(b.w, 1000.0);
    // published-2025 keeps the over-limit time: A w = 1200.3 + 10 = 1210.3, c = 1160.
    let p = scoring::score(&inp, &Policy::published_2025());
    let a = step(&p, Kind::Parallel, "A");
    approx(a.w, 1210.3);
    approx(a.c, 1160.0);
}
