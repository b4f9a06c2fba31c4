//! `--policy published-2023`: what the organizers published for the 2023
//! Parallel and Cloud tracks (their `score.py` of 2023, run as `-y 2023 -t 1200
//! -T pt|ct`), reproduced exactly. Every difference from the 2023 rules is
//! named here and in docs/scoring.md; the evidence is the 2023 runs and pages
//! in `tests/data/replay-2023` (their `NOTES.md`, section 4).
//!
//! 1. Kinds: parallel, sat, unsat and 24 seconds (the 2023 rules give Parallel
//!    and Cloud the parallel score only); no sequential table.
//! 2. Over the limit (wall > T; T = the track's limit, 24 s for the 24-second
//!    table): the run is unknown with time T and counts as a timeout.
//! 3. Solved: a sat/unsat answer within T that matches a known status, or any
//!    sat/unsat answer on a benchmark of unknown status; only solved runs add
//!    time. Error: a sat/unsat answer contradicting a known status, which is
//!    also unsolved (the rules count it as neither).
//! 4. sat/unsat tables (F, its opposite ¬F): the benchmarks B of status F, or
//!    of unknown status with a run answering F; a run answering ¬F, and a run
//!    outside B not answering F, becomes unknown with time 0; runs outside B
//!    are not unsolved (so a wrong answer shows in the table of the answer).
//! 5. Every run counts, also a second run of a solver on a benchmark the
//!    selection holds twice under two scrambled names; `abstained` =
//!    benchmarks − correct − unsolved, negative when runs are counted twice.
//! 6. Order: errors asc, correct desc, wall asc, CPU asc, then the order of the
//!    solvers' first runs. Both tracks were experimental: no winner is named.
//! 7. Disagreements: benchmarks of unknown status that sound solvers answer
//!    both sat and unsat are removed (matched by the path below the logic).
//! 8. Biggest lead (parallel only): divisions with two or more solvers whose
//!    first has a correct answer; (1 + n₁)/(1 + n₂) and (1 + w₂)/(1 + w₁).

use super::EditionError;
use crate::model::{Answer, Status, Track};
use crate::scoring::division::{GroupScores, Kind, Podium, SolverScore};
use crate::scoring::lead::{LeadEntry, LeadKind};
use crate::scoring::soundness::{Disagreement, JoinReport};
use crate::scoring::{Policy, ScoringInput, TrackScores};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The 24-second table's limit.
const TWENTYFOUR_S: f64 = 24.0;

/// The policy of this module (no engine switch applies to it).
pub fn policy() -> Policy {
    let mut p = Policy::rules();
    p.name = "published-2023".into();
    p
}

/// One run as the organizers' script saw it.
#[derive(Debug, Clone)]
struct Row {
    solver: usize,
    logic: String,
    /// The path below the logic (their `benchmark`).
    benchmark: String,
    wall: f64,
    cpu: f64,
    /// `Some(true)` sat, `Some(false)` unsat, `None` anything else.
    answer: Option<bool>,
    timeout: bool,
    memout: bool,
    status: Status,
}

/// One scored run of one kind (the counters of their `score()`).
#[derive(Debug, Clone, Copy, Default)]
struct Scored {
    correct: u64,
    error: u64,
    sat: u64,
    unsat: u64,
    timeout: u64,
    memout: u64,
    unsolved: u64,
    wall: f64,
    cpu: f64,
}

/// Scores the Parallel or Cloud track of `input` as the organizers did in 2023.
pub fn score(input: &ScoringInput, policy: &Policy) -> Result<TrackScores, EditionError> {
    if !matches!(input.track, Track::Parallel | Track::Cloud) {
        return Err(EditionError::Published2023Track(input.track));
    }
    let mut solvers: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut join = JoinReport::default();
    let mut rows = Vec::new();
    for r in &input.runs {
        if r.track != input.track {
            join.other_track_runs += 1;
            continue;
        }
        let s = *index.entry(r.solver.to_string()).or_insert_with(|| {
            solvers.push(r.solver.to_string());
            solvers.len() - 1
        });
        let status = input
            .benchmarks
            .get(&r.file.path())
            .map_or(Status::Unknown, |b| b.status);
        let mut below = r.file.family.clone();
        below.push(r.file.name.clone());
        rows.push(Row {
            solver: s,
            logic: r.file.logic.to_string(),
            benchmark: below.join("/"),
            wall: r.wall_time,
            cpu: r.cpu_time,
            answer: match r.answer {
                Answer::Sat => Some(true),
                Answer::Unsat => Some(false),
                _ => None,
            },
            timeout: r.answer == Answer::Timeout,
            memout: r.answer == Answer::OutOfMemory,
            status,
        });
    }
    // Logic -> its division (every logic of the track).
    let division_of: HashMap<String, String> = input
        .divisions
        .iter()
        .flat_map(|(d, ls)| ls.iter().map(move |l| (l.to_string(), d.to_string())))
        .collect();
    let (rows, disagreements, unsound_solvers) = remove_disagreements(rows, &division_of, &solvers);
    let kinds = [Kind::Parallel, Kind::Sat, Kind::Unsat, Kind::TwentyFour];
    // Logic -> its rows; division pages sum their logics' pages.
    let mut by_logic: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        by_logic.entry(r.logic.clone()).or_default().push(r);
    }
    let mut groups = Vec::new();
    for (division, logics) in &input.divisions {
        let present: Vec<&String> = logics
            .iter()
            .map(|l| l.to_string())
            .filter_map(|l| by_logic.get_key_value(&l).map(|(k, _)| k))
            .collect();
        if present.is_empty() {
            continue;
        }
        let mut sizes = BTreeMap::new();
        for l in &present {
            sizes.insert((*l).clone(), distinct(&by_logic[*l]));
        }
        let mut podiums = Vec::new();
        for &kind in &kinds {
            let mut scored: Vec<(&Row, Scored)> = Vec::new();
            for l in &present {
                scored.extend(score_logic(&by_logic[*l], kind, input.time_limit));
            }
            podiums.push(podium(kind, &scored, sizes.values().sum(), &solvers, input));
        }
        let n = sizes.values().sum();
        groups.push(group(
            (
                division.to_string(),
                division.identifier(),
                division.to_string(),
            ),
            true,
            sizes,
            n,
            podiums,
        ));
    }
    for (logic, logic_rows) in &by_logic {
        let Some(division) = division_of.get(logic) else {
            continue;
        };
        let size = distinct(logic_rows);
        let podiums = kinds
            .iter()
            .map(|&kind| {
                let scored = score_logic(logic_rows, kind, input.time_limit);
                podium(kind, &scored, size, &solvers, input)
            })
            .collect();
        groups.push(group(
            (logic.clone(), logic.clone(), division.clone()),
            false,
            BTreeMap::new(),
            size,
            podiums,
        ));
    }
    let unsound = unsound_by_division(&rows, &division_of, &solvers, &unsound_solvers);
    Ok(TrackScores {
        track: input.track,
        policy: policy.name.clone(),
        kinds: kinds.to_vec(),
        biggest_lead: vec![biggest_lead(&groups)],
        groups,
        best_overall: Vec::new(),
        largest_contribution: Vec::new(),
        disagreements,
        unsound,
        join,
        missing: Vec::new(),
    })
}

/// Distinct benchmarks of a logic's rows.
fn distinct(rows: &[&Row]) -> u64 {
    rows.iter()
        .map(|r| r.benchmark.as_str())
        .collect::<HashSet<_>>()
        .len() as u64
}

/// Their `remove_disagreements`: unsound solvers (a definite answer against a
/// known status), then the unknown-status benchmarks sound solvers answered
/// both ways, removed by their path below the logic.
fn remove_disagreements(
    rows: Vec<Row>,
    division_of: &HashMap<String, String>,
    solvers: &[String],
) -> (Vec<Row>, Vec<Disagreement>, BTreeSet<usize>) {
    let unsound: BTreeSet<usize> = rows
        .iter()
        .filter(|r| {
            r.answer.is_some_and(|a| {
                matches!((a, r.status), (true, Status::Unsat) | (false, Status::Sat))
            })
        })
        .map(|r| r.solver)
        .collect();
    // (logic, path below it) -> (sound solvers answering sat, answering unsat).
    type Answers<'r> = BTreeMap<(&'r str, &'r str), (BTreeSet<usize>, BTreeSet<usize>)>;
    let mut answers: Answers<'_> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.status == Status::Unknown) {
        if unsound.contains(&r.solver) {
            continue;
        }
        let e = answers.entry((&r.logic, &r.benchmark)).or_default();
        match r.answer {
            Some(true) => {
                e.0.insert(r.solver);
            }
            Some(false) => {
                e.1.insert(r.solver);
            }
            None => {}
        }
    }
    let mut disagreements = Vec::new();
    let mut bad: HashSet<String> = HashSet::new();
    for ((logic, benchmark), (sat, unsat)) in &answers {
        if !sat.is_empty() && !unsat.is_empty() {
            bad.insert((*benchmark).to_string());
            let names = |s: &BTreeSet<usize>| s.iter().map(|&i| solvers[i].clone()).collect();
            disagreements.push(Disagreement {
                division: division_of.get(*logic).cloned().unwrap_or_default(),
                file: format!("{logic}/{benchmark}"),
                sat: names(sat),
                unsat: names(unsat),
            });
        }
    }
    let kept = rows
        .into_iter()
        .filter(|r| !bad.contains(&r.benchmark))
        .collect();
    (kept, disagreements, unsound)
}

/// Their `score()` of one logic for one kind: every row with its counters.
fn score_logic<'a>(rows: &[&'a Row], kind: Kind, track_limit: f64) -> Vec<(&'a Row, Scored)> {
    let limit = if kind == Kind::TwentyFour {
        TWENTYFOUR_S
    } else {
        track_limit
    };
    let filter = match kind {
        Kind::Sat => Some(true),
        Kind::Unsat => Some(false),
        _ => None,
    };
    let known = |s: Status| match s {
        Status::Sat => Some(true),
        Status::Unsat => Some(false),
        _ => None,
    };
    // Over the limit first: the run is unknown with time T, a timeout.
    let adjusted: Vec<(&'a Row, f64, f64, Option<bool>, bool)> = rows
        .iter()
        .map(|&r| {
            if r.wall > limit {
                (r, limit, limit, None, true)
            } else {
                (r, r.wall, r.cpu, r.answer, r.timeout)
            }
        })
        .collect();
    // Their B (after that): benchmarks of status F, or of unknown status answered F.
    let in_b: HashSet<&str> = match filter {
        None => HashSet::new(),
        Some(f) => adjusted
            .iter()
            .filter(|(r, _, _, answer, _)| {
                known(r.status) == Some(f) || (r.status == Status::Unknown && *answer == Some(f))
            })
            .map(|&(r, ..)| r.benchmark.as_str())
            .collect(),
    };
    let mut out = Vec::with_capacity(rows.len());
    for (r, mut wall, mut cpu, mut answer, timeout) in adjusted {
        let mut s = Scored {
            timeout: u64::from(timeout),
            memout: u64::from(r.memout),
            ..Scored::default()
        };
        let outside = filter.is_some() && !in_b.contains(r.benchmark.as_str());
        if let Some(f) = filter {
            if (outside && answer != Some(f)) || answer == Some(!f) {
                wall = 0.0;
                cpu = 0.0;
                answer = None;
            }
        }
        let expected = known(r.status);
        let solved =
            answer.is_some() && wall <= limit && (expected.is_none() || answer == expected);
        if solved {
            s.correct = 1;
            s.sat = u64::from(answer == Some(true));
            s.unsat = u64::from(answer == Some(false));
            s.wall = wall;
            s.cpu = cpu;
        }
        if answer.is_some() && expected.is_some() && answer != expected {
            s.error = 1;
        }
        if s.correct == 0 && !outside {
            s.unsolved = 1;
        }
        out.push((r, s));
    }
    out
}

/// The table of one kind: per solver (in the order of their first row), the
/// sums, ranked errors asc, correct desc, wall asc, CPU asc (stable).
fn podium(
    kind: Kind,
    scored: &[(&Row, Scored)],
    size: u64,
    solvers: &[String],
    input: &ScoringInput,
) -> Podium {
    let mut order: Vec<usize> = Vec::new();
    let mut sums: HashMap<usize, (Scored, u64)> = HashMap::new();
    for (r, s) in scored {
        let e = sums.entry(r.solver).or_insert_with(|| {
            order.push(r.solver);
            (Scored::default(), 0)
        });
        e.1 += 1;
        let a = &mut e.0;
        a.correct += s.correct;
        a.error += s.error;
        a.sat += s.sat;
        a.unsat += s.unsat;
        a.timeout += s.timeout;
        a.memout += s.memout;
        a.unsolved += s.unsolved;
        a.wall += s.wall;
        a.cpu += s.cpu;
    }
    let mut steps: Vec<SolverScore> = order
        .iter()
        .map(|&i| {
            let (a, rows) = sums[&i];
            let participant = input
                .participants
                .iter()
                .position(|p| p.solver == solvers[i]);
            SolverScore {
                solver: solvers[i].clone(),
                index: participant.unwrap_or(0),
                competitive: participant.is_none_or(|p| input.participants[p].competitive),
                base: None,
                e: a.error,
                n: i64::try_from(a.correct).unwrap_or(i64::MAX),
                w: a.wall,
                c: a.cpu,
                solved: a.correct,
                solved_sat: a.sat,
                solved_unsat: a.unsat,
                unsolved: a.unsolved,
                abstained: i64::try_from(size).unwrap_or(i64::MAX)
                    - i64::try_from(a.correct + a.unsolved).unwrap_or(i64::MAX),
                timeout: a.timeout,
                memout: a.memout,
                rows,
            }
        })
        .collect();
    steps.sort_by(|a, b| {
        a.e.cmp(&b.e)
            .then(b.n.cmp(&a.n))
            .then(a.w.total_cmp(&b.w))
            .then(a.c.total_cmp(&b.c))
    });
    Podium {
        kind,
        steps,
        winner: None,
        ranking: "errors asc, correct desc, wall time asc, CPU time asc; ties: first run order",
        name_ties: Vec::new(),
    }
}

fn group(
    (name, identifier, division): (String, String, String),
    is_division: bool,
    logics: BTreeMap<String, u64>,
    n: u64,
    podiums: Vec<Podium>,
) -> GroupScores {
    GroupScores {
        name,
        identifier,
        division,
        is_division,
        logics,
        n_benchmarks: n,
        n_total: n,
        competitive: true,
        experimental: true,
        podiums,
    }
}

/// Their biggest lead (parallel table of each division page).
fn biggest_lead(groups: &[GroupScores]) -> LeadKind {
    let mut entries = Vec::new();
    for g in groups.iter().filter(|g| g.is_division) {
        let Some(p) = g.podium(Kind::Parallel) else {
            continue;
        };
        if p.steps.len() <= 1 || p.steps[0].n == 0 {
            continue;
        }
        let (a, b) = (&p.steps[0], &p.steps[1]);
        entries.push(LeadEntry {
            division: g.name.clone(),
            solver: a.solver.clone(),
            second: b.solver.clone(),
            correct_rank: (1.0 + a.n as f64) / (1.0 + b.n as f64),
            time_rank: (1.0 + b.w) / (1.0 + a.w),
        });
    }
    entries.sort_by(|a, b| {
        b.correct_rank
            .total_cmp(&a.correct_rank)
            .then(b.time_rank.total_cmp(&a.time_rank))
    });
    LeadKind {
        kind: Kind::Parallel,
        entries,
        winner: None,
    }
}

/// Division -> the unsound solvers with a wrong answer in it.
fn unsound_by_division(
    rows: &[Row],
    division_of: &HashMap<String, String>,
    solvers: &[String],
    unsound: &BTreeSet<usize>,
) -> Vec<(String, Vec<String>)> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in rows {
        let wrong = r
            .answer
            .is_some_and(|a| matches!((a, r.status), (true, Status::Unsat) | (false, Status::Sat)));
        if wrong && unsound.contains(&r.solver) {
            if let Some(d) = division_of.get(&r.logic) {
                out.entry(d.clone())
                    .or_default()
                    .insert(solvers[r.solver].clone());
            }
        }
    }
    out.into_iter()
        .map(|(d, s)| (d, s.into_iter().collect()))
        .collect()
}
