//! Division (and logic) scores per kind: parallel, sequential, sat, unsat and
//! 24 seconds (rules 7.2), counters, the lexicographic orders and winners.

use super::input::ScoringInput;
use super::policy::Policy;
use super::soundness::{DivisionTable, FileRow};
use crate::model::{Answer, Logic, Status, Track};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The wall-clock limit of the 24-seconds score (rules 7.2.3).
pub const TWENTYFOUR_LIMIT_S: f64 = 24.0;

/// A scoring kind (rules 7.2.1 to 7.2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Sequential score (virtual CPU limit T).
    Sequential,
    /// Parallel score.
    Parallel,
    /// Parallel score on satisfiable benchmarks.
    Sat,
    /// Parallel score on unsatisfiable benchmarks.
    Unsat,
    /// Parallel score with T = 24 s.
    TwentyFour,
}

impl Kind {
    /// Every kind, in page order.
    pub const ALL: [Kind; 5] = [
        Kind::Sequential,
        Kind::Parallel,
        Kind::Sat,
        Kind::Unsat,
        Kind::TwentyFour,
    ];

    /// The page's list name (`sequential`, `parallel`, `sat`, `unsat`, `twentyfour`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Sequential => "sequential",
            Kind::Parallel => "parallel",
            Kind::Sat => "sat",
            Kind::Unsat => "unsat",
            Kind::TwentyFour => "twentyfour",
        }
    }

    /// The page's winner field (`winner_seq`, ...).
    pub fn winner_key(self) -> &'static str {
        match self {
            Kind::Sequential => "winner_seq",
            Kind::Parallel => "winner_par",
            Kind::Sat => "winner_sat",
            Kind::Unsat => "winner_unsat",
            Kind::TwentyFour => "winner_24s",
        }
    }

    /// Whether the kind's time tie-break is CPU (sequential) rather than wall.
    pub fn uses_cpu_time(self) -> bool {
        self == Kind::Sequential
    }
}

/// The kinds computed for `track` (rules 7.2; `all_kinds_every_track` adds the
/// reference tool's extra kinds).
pub fn kinds_for(track: Track, policy: &Policy) -> Vec<Kind> {
    match track {
        Track::SingleQuery => Kind::ALL.to_vec(),
        _ if policy.all_kinds_every_track => match track {
            Track::Parallel | Track::Cloud | Track::Incremental => Kind::ALL[1..].to_vec(),
            _ => Kind::ALL.to_vec(),
        },
        Track::UnsatCore | Track::ModelValidation => vec![Kind::Sequential, Kind::Parallel],
        _ => vec![Kind::Parallel],
    }
}

/// One solver's division score for one kind, with the page counters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverScore {
    /// Solver.
    pub solver: String,
    /// Participant index.
    #[serde(skip)]
    pub index: usize,
    /// Competitive (author-submitted) solver.
    pub competitive: bool,
    /// Base solver (derived solvers).
    pub base: Option<String>,
    /// Σ e.
    pub e: u64,
    /// Σ n (negative only under `negative_core_reduction`).
    pub n: i64,
    /// Σ w.
    pub w: f64,
    /// Σ c.
    pub c: f64,
    /// Answers sat/unsat (including wrong ones).
    pub solved: u64,
    /// Answers sat.
    pub solved_sat: u64,
    /// Answers unsat.
    pub solved_unsat: u64,
    /// Benchmarks not solved.
    pub unsolved: u64,
    /// Benchmarks of the group the solver did not take part in (negative
    /// only under `published-2023`, which counts a benchmark's two runs).
    pub abstained: i64,
    /// Timeouts.
    pub timeout: u64,
    /// Memory outs.
    pub memout: u64,
    /// Cells counted.
    pub rows: u64,
}

/// The ranked list of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Podium {
    /// Kind.
    pub kind: Kind,
    /// Competitive solvers in rank order, then non-competitive ones.
    pub steps: Vec<SolverScore>,
    /// First competitive solver with n > 0 (none in a non-competitive division
    /// under the rules).
    pub winner: Option<String>,
    /// The order used, tie rule included.
    pub ranking: &'static str,
    /// Adjacent steps equal on every score key, ordered by name: (first, second).
    pub name_ties: Vec<(String, String)>,
}

/// A division page or a logic page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupScores {
    /// Division name, or logic name for a logic page.
    pub name: String,
    /// Page identifier (division identifier or logic).
    pub identifier: String,
    /// The division of the group.
    pub division: String,
    /// Whether this is a division page.
    pub is_division: bool,
    /// Logics with their benchmark counts (division pages).
    pub logics: BTreeMap<String, u64>,
    /// Benchmarks (after removal of disagreements).
    pub n_benchmarks: u64,
    /// N for best overall: check-sats (Incremental), assertions (Unsat-Core),
    /// benchmarks otherwise.
    pub n_total: u64,
    /// Competitive group (rules section 6, or the name-prefix rule).
    pub competitive: bool,
    /// Experimental division (reported only).
    pub experimental: bool,
    /// Podiums per kind.
    pub podiums: Vec<Podium>,
}

impl GroupScores {
    /// The podium of `kind`, if computed.
    pub fn podium(&self, kind: Kind) -> Option<&Podium> {
        self.podiums.iter().find(|p| p.kind == kind)
    }
}

/// Cells of a group after a kind's adjustment: (cell index, adjusted score, answer).
pub struct KindCell {
    /// Index into the table's cells.
    pub cell: usize,
    /// Error.
    pub e: u64,
    /// Correct.
    pub n: i64,
    /// Wall score.
    pub w: f64,
    /// CPU score.
    pub c: f64,
    /// Answer for counters (`None`: no run).
    pub answer: Option<Answer>,
}

/// Whether `file` is a benchmark of the group of `logic` (`None`: the whole
/// division): not removed, and of that logic.
pub fn in_group(file: &FileRow, logic: Option<&Logic>) -> bool {
    !file.removed && logic.is_none_or(|l| &file.logic == l)
}

/// Whether the cells of `file` count for `kind` in the group of `logic`: in
/// the group, and of the kind's sound status (sat or unsat kinds).
fn file_kept(file: &FileRow, logic: Option<&Logic>, kind: Kind) -> bool {
    in_group(file, logic)
        && match kind {
            Kind::Sat => file.sound_status == Status::Sat,
            Kind::Unsat => file.sound_status == Status::Unsat,
            _ => true,
        }
}

/// Applies `kind` to the cells of the group (logic `None` = whole division).
/// Returns the kept cells and the number of benchmarks the kind is about.
pub fn kind_cells(
    table: &DivisionTable,
    logic: Option<&Logic>,
    kind: Kind,
    input: &ScoringInput,
    policy: &Policy,
) -> (Vec<KindCell>, u64) {
    // Allocated once at the number of kept cells (an upper bound of the cells
    // returned): no growth, no slack of up to twice the cells.
    let n_kept_cells: usize = (0..table.files.len())
        .filter(|&f| file_kept(&table.files[f], logic, kind))
        .map(|f| table.file_cells[f + 1] - table.file_cells[f])
        .sum();
    let mut out = Vec::with_capacity(n_kept_cells);
    let n_kind = for_each_kind_cell(table, logic, kind, input, policy, |k| out.push(k));
    (out, n_kind)
}

/// [`kind_cells`] without collecting them: hands each kept cell, in cell
/// order, to `visit`, and returns the number of benchmarks the kind is about.
pub fn for_each_kind_cell(
    table: &DivisionTable,
    logic: Option<&Logic>,
    kind: Kind,
    input: &ScoringInput,
    policy: &Policy,
    mut visit: impl FnMut(KindCell),
) -> u64 {
    // Per file: in the group and kept by the kind (decided once per file,
    // not once per cell).
    let kept: Vec<bool> = table
        .files
        .iter()
        .map(|f| file_kept(f, logic, kind))
        .collect();
    let n_kind = kept.iter().filter(|&&k| k).count() as u64;
    let t = input.time_limit;
    // Only the cells of the kept files, in cell order (files ascend).
    let kept_cells = kept
        .iter()
        .enumerate()
        .filter(|(_, k)| **k)
        .flat_map(|(f, _)| table.file_cells[f]..table.file_cells[f + 1]);
    for i in kept_cells {
        let c = &table.cells[i];
        let s = c.score;
        let mut k = KindCell {
            cell: i,
            e: s.e,
            n: s.n,
            w: s.w,
            c: s.c,
            answer: c.answer,
        };
        match kind {
            Kind::Sequential if s.ac > t => {
                k.e = 0;
                k.n = 0;
                k.c = 0.0;
                k.w = 0.0;
                if !policy.seq_counters_not_zeroed && c.answer.is_some() {
                    k.answer = Some(Answer::Timeout);
                }
            }
            Kind::TwentyFour if s.aw > TWENTYFOUR_LIMIT_S => {
                if policy.twentyfour_filters_rows {
                    continue;
                }
                k.e = 0;
                k.n = 0;
                k.c = 0.0;
                k.w = 0.0;
                k.answer = Some(Answer::Timeout);
            }
            // Rules 7.2.3 with 7.1: T = 24 s, so c = 0 unless solved within
            // m·24 s; the answer and w stay (n and w are judged on T alone;
            // the virtual CPU limit drops answers only in the sequential score).
            Kind::TwentyFour
                if !policy.over_limit_answer_keeps_time
                    && s.ac > f64::from(input.cores.max(1)) * TWENTYFOUR_LIMIT_S =>
            {
                k.c = 0.0;
            }
            _ => {}
        }
        visit(k);
    }
    n_kind
}

fn order(a: &SolverScore, b: &SolverScore, kind: Kind, policy: &Policy) -> Ordering {
    let head = a.e.cmp(&b.e).then(b.n.cmp(&a.n));
    let times = if kind == Kind::Sequential && !policy.seq_ties_on_wall {
        a.c.total_cmp(&b.c)
    } else {
        a.w.total_cmp(&b.w).then(a.c.total_cmp(&b.c))
    };
    head.then(times)
}

/// The ranking rule of `kind` under `policy`, as shown in outputs.
pub fn ranking_rule(kind: Kind, policy: &Policy) -> &'static str {
    if kind == Kind::Sequential && !policy.seq_ties_on_wall {
        "errors asc, correct desc, CPU time asc; ties: solver name asc"
    } else {
        "errors asc, correct desc, wall time asc, CPU time asc; ties: solver name asc"
    }
}

/// Computes the podium of one kind for a group.
pub fn podium(
    table: &DivisionTable,
    logic: Option<&Logic>,
    kind: Kind,
    input: &ScoringInput,
    policy: &Policy,
    group_competitive: bool,
) -> Podium {
    let group_files = table.files.iter().filter(|f| in_group(f, logic)).count() as u64;
    // Per participant index (ascending, as a map by index would give).
    let mut acc: Vec<Option<SolverScore>> = vec![None; input.participants.len()];
    if !policy.abstained_total_minus_rows {
        // Rules: every solver entered in the group is listed.
        for (i, p) in input.participants.iter().enumerate() {
            let entered = match logic {
                Some(l) => p.entered(&table.division, l),
                None => p.entries.contains_key(&table.division),
            };
            if entered {
                acc[i] = Some(new_score(input, i));
            }
        }
    }
    // The kept cells are summed as they are visited (in cell order, so the
    // float sums are those of a collected list), never collected.
    let n_kind = for_each_kind_cell(table, logic, kind, input, policy, |k| {
        let si = table.cells[k.cell].solver;
        let s = acc[si].get_or_insert_with(|| new_score(input, si));
        s.rows += 1;
        s.e += k.e;
        s.n += k.n;
        s.w += k.w;
        s.c += k.c;
        match k.answer {
            Some(Answer::Sat) => {
                s.solved += 1;
                s.solved_sat += 1;
            }
            Some(Answer::Unsat) => {
                s.solved += 1;
                s.solved_unsat += 1;
            }
            other => {
                s.unsolved += 1;
                match other {
                    Some(Answer::Timeout) => s.timeout += 1,
                    Some(Answer::OutOfMemory) => s.memout += 1,
                    _ => {}
                }
            }
        }
    });
    let base_total = if policy.abstained_total_minus_rows {
        group_files
    } else {
        n_kind
    };
    let mut steps: Vec<SolverScore> = acc
        .into_iter()
        .flatten()
        .map(|mut s| {
            s.abstained = i64::try_from(base_total.saturating_sub(s.rows)).unwrap_or(i64::MAX);
            s
        })
        .collect();
    steps.sort_by(|a, b| {
        b.competitive
            .cmp(&a.competitive)
            .then(order(a, b, kind, policy))
            .then(a.solver.cmp(&b.solver))
    });
    let name_ties = steps
        .windows(2)
        .filter(|w| {
            w[0].competitive == w[1].competitive && order(&w[0], &w[1], kind, policy).is_eq()
        })
        .map(|w| (w[0].solver.clone(), w[1].solver.clone()))
        .collect();
    let winner = if group_competitive || policy.winners_in_non_competitive {
        steps
            .iter()
            .find(|s| s.competitive)
            .filter(|s| s.n > 0)
            .map(|s| s.solver.clone())
    } else {
        None
    };
    Podium {
        kind,
        steps,
        winner,
        ranking: ranking_rule(kind, policy),
        name_ties,
    }
}

fn new_score(input: &ScoringInput, i: usize) -> SolverScore {
    let p = &input.participants[i];
    SolverScore {
        solver: p.solver.clone(),
        index: i,
        competitive: p.competitive,
        base: p.base.clone(),
        e: 0,
        n: 0,
        w: 0.0,
        c: 0.0,
        solved: 0,
        solved_sat: 0,
        solved_unsat: 0,
        unsolved: 0,
        abstained: 0,
        timeout: 0,
        memout: 0,
        rows: 0,
    }
}
