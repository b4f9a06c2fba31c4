//! The rules policy read from the text of each edition (issue 17): hand-computed
//! cases, the arithmetic in the comments.

use smtcomp::benchmarks::Smt2File;
use smtcomp::model::{Answer, Division, Logic, Status, Track};
use smtcomp::scoring::editions::e2015;
use smtcomp::scoring::{self, BenchInfo, Kind, Participant, Policy, ScoredRun, ScoringInput};
use std::collections::{BTreeMap, BTreeSet};

fn file(logic: &str, name: &str) -> Smt2File {
    Smt2File {
        incremental: false,
        logic: Logic::new(logic),
        family: vec!["fam".into()],
        name: name.into(),
    }
}

/// A Single Query run of `solver` on `QF_X/fam/f` (no timeout flagged).
fn run(solver: &str, f: &str, answer: Answer, cpu: f64, wall: f64) -> ScoredRun {
    run_in(solver, "QF_X", f, answer, cpu, wall)
}

/// A Single Query run of `solver` on `logic/fam/f` (no timeout flagged).
fn run_in(solver: &str, logic: &str, f: &str, answer: Answer, cpu: f64, wall: f64) -> ScoredRun {
    ScoredRun {
        solver: solver.into(),
        track: Track::SingleQuery,
        file: file(logic, f).into(),
        answer,
        cpu_time: cpu,
        wall_time: wall,
        nb_answers: None,
        last_answer_time: None,
        answer_at_timeout: None,
        error: false,
    }
}

/// One division `Div` = [QF_X] with sat files `files`; every solver is
/// competitive and its own team; T = `t`, 4 cores (CPU limit 4T).
fn input(t: f64, solvers: &[&str], files: &[&str], runs: Vec<ScoredRun>) -> ScoringInput {
    let who: Vec<(&str, Vec<&str>)> = solvers.iter().map(|s| (*s, vec!["QF_X"])).collect();
    let files: Vec<(&str, &str)> = files.iter().map(|f| ("QF_X", *f)).collect();
    input_divs(t, &who, &files, runs)
}

/// Division `D<logic>` = [logic] per logic of `files` (all sat); `who` =
/// (solver, logics entered), every solver competitive and its own team.
fn input_divs(
    t: f64,
    who: &[(&str, Vec<&str>)],
    files: &[(&str, &str)],
    runs: Vec<ScoredRun>,
) -> ScoringInput {
    let div = |l: &str| {
        Division::new(if l == "QF_X" {
            "Div".to_string()
        } else {
            format!("D{l}")
        })
    };
    let participants = who
        .iter()
        .map(|(s, logics)| Participant {
            solver: s.to_string(),
            competitive: true,
            team: s.to_lowercase(),
            base: None,
            entries: logics
                .iter()
                .map(|l| (div(l), BTreeSet::from([Logic::new(*l)])))
                .collect(),
        })
        .collect();
    let benchmarks: smtcomp::scoring::BenchInfos = files
        .iter()
        .map(|(l, f)| {
            let info = BenchInfo {
                status: Status::Sat,
                asserts: 1,
                check_sats: 1,
            };
            (file(l, f).path(), info)
        })
        .collect();
    let divisions = files
        .iter()
        .map(|(l, _)| (div(l), vec![Logic::new(*l)]))
        .collect();
    ScoringInput {
        track: Track::SingleQuery,
        time_limit: t,
        cores: 4,
        memory_mb: 1000,
        year: 2025,
        divisions,
        participants,
        runs,
        benchmarks,
        base_solvers: BTreeMap::new(),
        selection: Vec::new(),
    }
}

/// The first step of the parallel podium of division `Div` under `policy`.
fn first_parallel_step(inp: &ScoringInput, policy: &Policy) -> scoring::SolverScore {
    let s = scoring::score(inp, policy);
    let g = s.group("Div", true).unwrap();
    g.podium(Kind::Parallel).unwrap().steps[0].clone()
}

fn approx(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

/// 2025 rules 7.1: c = 0 unless solved within the CPU limit mT; w is judged on
/// the wall limit T alone. T = 1200 s, m = 4: mT = 4800 s.
/// * A on f: sat, aw = 1000 (<= T: w = 1000), ac = 4800.5 (> mT: c = 0); n = 1.
/// * A on g: sat, aw = ac = 10: w = c = 10.
///
/// Rules: A ⟨e, n, w, c⟩ = ⟨0, 2, 1000 + 10 = 1010, 0 + 10 = 10⟩.
/// published-2025 (`over_limit_answer_keeps_time`): c = 4800.5 + 10 = 4810.5.
#[test]
fn answer_over_the_cpu_limit_has_no_cpu_score() {
    let inp = input(
        1200.0,
        &["A"],
        &["f", "g"],
        vec![
            run("A", "f", Answer::Sat, 4800.5, 1000.0),
            run("A", "g", Answer::Sat, 10.0, 10.0),
        ],
    );
    approx(inp.cpu_limit(), 4800.0);
    let a = |policy: &Policy| first_parallel_step(&inp, policy);
    let r = a(&Policy::rules());
    assert_eq!((r.e, r.n), (0, 2));
    approx(r.w, 1010.0);
    approx(r.c, 10.0);
    let p = a(&Policy::published_2025());
    approx(p.w, 1010.0);
    approx(p.c, 4810.5);
}

/// 2015 rules 7.1: "for a (correct or incorrect) result to be taken into
/// consideration, the solver process must terminate ... within the time limit".
/// T = 2400 s (40 minutes), m = 4.
/// * A: f sat at aw = 2400.5 (no timeout flagged), ac = 2400; g sat at 10 s.
///   f is not taken into consideration: e = 0, n = 0 on f; w = min(2400.5, T) =
///   2400, c = 2400 (time on unsolved benchmarks counts, rules 3).
///   raw ⟨e, n, w, c⟩ = ⟨0, 1, 2400 + 10 = 2410, 2400 + 10 = 2410⟩.
/// * B: f unknown at 5 s, g sat at 10 s: ⟨0, 1, 15, 15⟩.
///
/// Raw order e asc, n desc, w asc: B (n 1, w 15) before A (n 1, w 2410): the
/// winner is B. Had A's over-limit answer counted (before this fix), A would have
/// n = 2 and win.
/// * Sequential: A's f has c = 2400 <= T, n_S = n = 1 on g only; c_S =
///   min(2400, T) + 10 = 2410. B c_S = 15. Winner B.
///
/// A third run, C on f at aw = 100, ac = 9700 (> 4T = 9600): c = min(9700, 9600)
/// = 9600 (c ∈ [0, 4T]); its answer counts (terminated within T): n = 1.
#[test]
fn e2015_answer_over_the_limit_is_not_considered_and_changes_the_winner() {
    let inp = input(
        2400.0,
        &["A", "B", "C"],
        &["f", "g"],
        vec![
            run("A", "f", Answer::Sat, 2400.0, 2400.5),
            run("A", "g", Answer::Sat, 10.0, 10.0),
            run("B", "f", Answer::Unknown, 5.0, 5.0),
            run("B", "g", Answer::Sat, 10.0, 10.0),
            run("C", "f", Answer::Sat, 9700.0, 100.0),
        ],
    );
    let s = e2015::score(&inp, &BTreeSet::new());
    let d = &s.divisions[0];
    assert!(d.competitive);
    let row = |name: &str| d.raw.iter().find(|r| r.solver == name).unwrap().clone();
    let a = row("A");
    assert_eq!((a.e, a.n), (0, 1));
    approx(a.w, 2410.0);
    approx(a.c, 2410.0);
    assert_eq!((a.e_s, a.n_s), (0, 1));
    approx(a.c_s, 2410.0);
    let b = row("B");
    assert_eq!((b.e, b.n), (0, 1));
    approx(b.w, 15.0);
    let c = row("C");
    assert_eq!((c.e, c.n), (0, 1));
    approx(c.c, 9600.0);
    // C: n 1, w 100 ranks between B (w 15) and A (w 2410).
    let order: Vec<_> = d.raw.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(order, ["B", "C", "A"]);
    assert_eq!(d.winner_raw.as_deref(), Some("B"));
    // Sequential: C's c = 9600 > T: n_S = 0; order B (1, 15), A (1, 2410), C (0).
    let seq: Vec<_> = d.sequential.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(seq, ["B", "A", "C"]);
    assert_eq!(d.winner_seq.as_deref(), Some("B"));
}

/// 2025 rules 7.3.3 and 6: ranks are normalised by n_D / N, N = the competitive
/// solver/benchmark pairs of the track; non-competitive divisions are not run
/// (rules 6), so their pairs are not in N.
/// * Div (QF_X, competitive: A, B, C, three teams), f1..f4 sat:
///   A solves f1 (w 2), f2 (w 2), f3 (w 10); B f1 (w 1), f2 (w 4); C f3 (w 5).
///   4 files x 3 solvers = 12 competitive pairs (a solver without a run on a
///   file has an unsolved row).
///   VBS w = 1 + 2 + 5 + 1200 (f4: nobody, T) = 1208; S - A: 1 + 4 + 5 + 1200 =
///   1210, so A's time rank before normalisation is 1 - 1208/1210.
/// * DQF_Y (only A entered: one team, not competitive), g1, g2: 2 pairs.
///
/// N = 12 (rules) -> factor 12/12 = 1: A's time rank = 1 - 1208/1210 =
/// 0.0016528925619834. Counting DQF_Y's pairs too would give 12/14 of that.
#[test]
fn largest_contribution_counts_competitive_divisions_only() {
    let inp = input_divs(
        1200.0,
        &[
            ("A", vec!["QF_X", "QF_Y"]),
            ("B", vec!["QF_X"]),
            ("C", vec!["QF_X"]),
        ],
        &[
            ("QF_X", "f1"),
            ("QF_X", "f2"),
            ("QF_X", "f3"),
            ("QF_X", "f4"),
            ("QF_Y", "g1"),
            ("QF_Y", "g2"),
        ],
        vec![
            run("A", "f1", Answer::Sat, 2.0, 2.0),
            run("A", "f2", Answer::Sat, 2.0, 2.0),
            run("A", "f3", Answer::Sat, 10.0, 10.0),
            run("B", "f1", Answer::Sat, 1.0, 1.0),
            run("B", "f2", Answer::Sat, 4.0, 4.0),
            run("C", "f3", Answer::Sat, 5.0, 5.0),
            run("C", "f4", Answer::Timeout, 1300.0, 1200.0),
            run_in("A", "QF_Y", "g1", Answer::Sat, 1.0, 1.0),
            run_in("A", "QF_Y", "g2", Answer::Sat, 1.0, 1.0),
        ],
    );
    let s = scoring::score(&inp, &Policy::rules());
    assert!(!s.group("DQF_Y", true).unwrap().competitive);
    let lc = s
        .largest_contribution
        .iter()
        .find(|l| l.kind == Kind::Parallel)
        .unwrap();
    let a = lc
        .entries
        .iter()
        .find(|e| e.solver == "A" && e.division == "Div")
        .unwrap();
    approx(a.time_rank, 1.0 - 1208.0 / 1210.0);
    assert!(lc.entries.iter().all(|e| e.division == "Div"));
}

/// 2025 rules 7.1.2: "a (correct or incorrect) response is taken into
/// consideration even when the solver process terminates abnormally". T = 1200 s.
/// * A on f: answered sat, then was killed for memory (BenchExec `OUT OF MEMORY`
///   with the answer in its log), aw = 50, ac = 60: the answer counts with its
///   times: n = 1, w = 50, c = 60.
/// * A on g: sat, aw = 24, ac = 30.
///
/// Rules: A ⟨e, n, w, c⟩ = ⟨0, 2, 50 + 24 = 74, 60 + 30 = 90⟩.
/// published-2025 (the organizers' tool maps `OUT OF MEMORY (…)` to OutOfMemory):
/// ⟨0, 1, 24, 30⟩, f counted as a memout. 2008 rules (an abort "due to
/// exhausting memory" scores as unknown) drop it too; 2015 keeps it (the process
/// terminated within the time limit).
#[test]
fn an_answer_given_before_a_memory_kill_counts() {
    use smtcomp::formats::runtable::{Limit, RunAnswer};
    // The run table's record of such a run, as ingestion writes it.
    let mut rec = smtcomp::ingest::IngestRecord::new("r.xml.bz2", "f.yml");
    rec.track = Some(Track::SingleQuery);
    rec.benchmark = Some(file("QF_X", "f"));
    rec.solver = "A".into();
    rec.answer = RunAnswer::Sat;
    rec.limit_hit = Some(Limit::Memout);
    rec.cputime = Some(60.0);
    rec.walltime = Some(50.0);
    let memout = scoring::scored_run(&rec).expect("a scored run");
    assert_eq!(
        (memout.answer, memout.answer_at_timeout),
        (Answer::OutOfMemory, Some(Answer::Sat))
    );
    let inp = input(
        1200.0,
        &["A"],
        &["f", "g"],
        vec![memout, run("A", "g", Answer::Sat, 30.0, 24.0)],
    );
    let a = |policy: &Policy| first_parallel_step(&inp, policy);
    let r = a(&Policy::rules());
    assert_eq!((r.e, r.n), (0, 2));
    approx(r.w, 74.0);
    approx(r.c, 90.0);
    let p = a(&Policy::published_2025());
    assert_eq!((p.e, p.n), (0, 1));
    approx(p.w, 24.0);
    approx(p.c, 30.0);
    let table = |edition| {
        let policy = smtcomp::scoring::editions::dispatch::policy(
            edition,
            smtcomp::scoring::editions::dispatch::PolicyChoice::Rules,
        )
        .unwrap();
        first_parallel_step(&inp, &policy).n
    };
    assert_eq!(table(smtcomp::model::RulesEdition::Rules2015), 2);
    assert_eq!(table(smtcomp::model::RulesEdition::Rules2008), 1);
}

/// 2025 rules 7.2.3: the 24-seconds score is "the parallel division score
/// with a wall-clock time limit T of 24 seconds". With 7.1 that makes the CPU
/// limit mT = 4 x 24 = 96 s: c = 0 for an answer above it, while n and w are
/// judged on T alone (the virtual CPU limit that drops answers is the
/// sequential score's, 7.1.1, not the parallel one's). T = 1200 s, m = 4.
/// * A on f: sat, aw = 20, ac = 100 (> 96): n = 1, w = 20, c = 0.
/// * A on g: sat, aw = 10, ac = 90 (<= 96): n = 1, w = 10, c = 90.
///
/// Rules, 24 s: A ⟨e, n, w, c⟩ = ⟨0, 2, 30, 90⟩; published-2025
/// (`over_limit_answer_keeps_time`) keeps c = 190. The parallel score
/// (T = 1200, mT = 4800) keeps both: c = 190.
#[test]
fn the_24_second_score_has_no_cpu_score_above_4_x_24_s_but_keeps_the_answer() {
    let inp = input(
        1200.0,
        &["A"],
        &["f", "g"],
        vec![
            run("A", "f", Answer::Sat, 100.0, 20.0),
            run("A", "g", Answer::Sat, 90.0, 10.0),
        ],
    );
    let step = |policy: &Policy, kind: Kind| {
        let s = scoring::score(&inp, policy);
        let g = s.group("Div", true).unwrap();
        g.podium(kind).unwrap().steps[0].clone()
    };
    let r = step(&Policy::rules(), Kind::TwentyFour);
    assert_eq!((r.e, r.n), (0, 2));
    approx(r.w, 30.0);
    approx(r.c, 90.0);
    let p = step(&Policy::published_2025(), Kind::TwentyFour);
    assert_eq!((p.e, p.n), (0, 2));
    approx(p.c, 190.0);
    let par = step(&Policy::rules(), Kind::Parallel);
    approx(par.c, 190.0);
}
