//! SMT-COMP 2015 scoring (rules section 7).
//!
//! * 7.1 raw score ⟨e, n, w, c⟩ per benchmark. Main track: a result counts only if
//!   the solver terminated within the limit (the join drops answers of timed-out
//!   runs); `e = 1` for a wrong `sat`/`unsat`, `n = 1` for a correct one, else 0.
//!   Application (Incremental) track: `e = 1` if any check-sat answer is wrong,
//!   otherwise `n` = correct answers before the limit (the trace executor stops at
//!   the first check-sat of unknown status, so only the known-status prefix counts,
//!   rules footnote 5). `w`, `c`: the run's wall (capped at T) and CPU time,
//!   *whether or not* the benchmark was solved (rules section 3: "time spent on
//!   unsolved benchmarks" counts); `c` capped at m·T (`c ∈ [0, 4T]`). A main-track
//!   answer with a wall time above T is not taken into consideration (7.1: the
//!   process must terminate within the limit), flagged as a timeout or not.
//! * 7.2 sequential score: `e_S = n_S = 0` if `c > T`, else `e, n`; `c_S = min(c, T)`.
//! * 7.3 division score = component-wise sums; raw order `e` asc, `n` desc, `w` asc,
//!   `c` asc; sequential order `e_S` asc, `n_S` desc, `c_S` asc (then name, for
//!   determinism). Application track: raw only.
//! * 6: benchmarks with unknown status are not used (main track).
//! * 7 competitive: two teams of author-submitted solvers, and not experimental
//!   (floating-point divisions, from the definition's `experimental_divisions`).
//! * 7.4 competition-wide score (main track), over the competitive divisions the
//!   solver entered: `Σ (e_i == 0 ? (n_i/N_i)^2 : −e_i) · ln N_i`. The printed rule
//!   reads `e_i ≠ 0 ? (n_i/N_i)^2 : −e_i`, which would reward erroneous solvers
//!   and give a (non-positive) `−0` to every correct one, contradicting its own
//!   rationale (footnote 10) and 7.3 (errors first): we implement the evident
//!   intent. The logarithm's base is not given; any base gives the same ranking
//!   (every term scales by the same factor); we use the natural logarithm. Only
//!   author-submitted (competitive) solvers are ranked: organizers' comparison
//!   entries are not eligible for recognition (rules section 7).

use super::{competitive_teams, entrants, tables};
use crate::model::{Answer, Division, Status, Track};
use crate::scoring::input::ScoringInput;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// One solver's division score (sums over the division's benchmarks).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Solver.
    pub solver: String,
    /// Author-submitted.
    pub competitive: bool,
    /// Σ e (raw).
    pub e: u64,
    /// Σ n (raw).
    pub n: u64,
    /// Σ w (raw).
    pub w: f64,
    /// Σ c (raw).
    pub c: f64,
    /// Σ e_S.
    pub e_s: u64,
    /// Σ n_S.
    pub n_s: u64,
    /// Σ c_S.
    pub c_s: f64,
}

/// One division under the 2015 rules.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DivisionScores {
    /// Division.
    pub division: String,
    /// N: benchmarks used (unknown status excluded on the main track).
    pub benchmarks: u64,
    /// Benchmarks with runs that were excluded (unknown status).
    pub excluded_unknown: u64,
    /// Experimental division (never competitive).
    pub experimental: bool,
    /// Two teams of author-submitted solvers and not experimental.
    pub competitive: bool,
    /// Rows in raw order.
    pub raw: Vec<Row>,
    /// Rows in sequential order (main track only; empty otherwise).
    pub sequential: Vec<Row>,
    /// Best competitive solver by raw score (competitive divisions only).
    pub winner_raw: Option<String>,
    /// Best competitive solver by sequential score (main track, competitive only).
    pub winner_seq: Option<String>,
}

/// A solver's competition-wide score (rules 7.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WideScore {
    /// Solver.
    pub solver: String,
    /// From raw division scores.
    pub raw: f64,
    /// From sequential division scores.
    pub sequential: f64,
    /// Competitive divisions counted.
    pub divisions: u64,
}

/// Every 2015 score of one track.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    /// Track (SingleQuery = main, Incremental = application).
    pub track: Track,
    /// Divisions with runs, by name.
    pub divisions: Vec<DivisionScores>,
    /// Main track: competition-wide scores, best raw first (top three recognized).
    pub competition_wide: Vec<WideScore>,
}

/// Raw order (7.3): e asc, n desc, w asc, c asc, then name.
pub fn raw_order(a: &Row, b: &Row) -> Ordering {
    a.e.cmp(&b.e)
        .then(b.n.cmp(&a.n))
        .then(a.w.total_cmp(&b.w))
        .then(a.c.total_cmp(&b.c))
        .then(a.solver.cmp(&b.solver))
}

/// Sequential order (7.3): e_S asc, n_S desc, c_S asc, then name.
pub fn seq_order(a: &Row, b: &Row) -> Ordering {
    a.e_s
        .cmp(&b.e_s)
        .then(b.n_s.cmp(&a.n_s))
        .then(a.c_s.total_cmp(&b.c_s))
        .then(a.solver.cmp(&b.solver))
}

/// One division's term of the competition-wide score (7.4, corrected reading):
/// `(e == 0 ? (n/N)^2 : −e) · ln N`; 0 for an empty division.
pub fn wide_term(e: u64, n: u64, big_n: u64) -> f64 {
    if big_n == 0 {
        return 0.0;
    }
    let base = if e == 0 {
        let r = n as f64 / big_n as f64;
        r * r
    } else {
        -(e as f64)
    };
    base * (big_n as f64).ln()
}

/// Scores `input` (SingleQuery or Incremental) under the 2015 rules.
/// `experimental` lists divisions that are never competitive.
pub fn score(input: &ScoringInput, experimental: &BTreeSet<Division>) -> Scores {
    let main = input.track != Track::Incremental;
    let t = input.time_limit;
    let cpu_t = input.cpu_limit();
    let mut divisions = Vec::new();
    // solver -> (raw, seq, count)
    let mut wide: BTreeMap<usize, (f64, f64, u64)> = BTreeMap::new();
    for table in tables(input, "rules-2015", true) {
        let ents = entrants(input, &table.division);
        let mut rows: BTreeMap<usize, Row> = ents
            .iter()
            .map(|&i| {
                let p = &input.participants[i];
                let row = Row {
                    solver: p.solver.clone(),
                    competitive: p.competitive,
                    e: 0,
                    n: 0,
                    w: 0.0,
                    c: 0.0,
                    e_s: 0,
                    n_s: 0,
                    c_s: 0.0,
                };
                (i, row)
            })
            .collect();
        let used: Vec<bool> = table
            .files
            .iter()
            .map(|f| !main || f.info.status != Status::Unknown)
            .collect();
        for cell in &table.cells {
            if !used[cell.file] {
                continue;
            }
            let Some(row) = rows.get_mut(&cell.solver) else {
                continue;
            };
            let Some(answer) = cell.answer else {
                continue; // no run: ⟨0, 0, 0, 0⟩
            };
            let status = table.files[cell.file].info.status;
            // 7.1: "for a (correct or incorrect) result to be taken into
            // consideration, the solver process must terminate ... within the
            // time limit": a wall time above T discards the answer even when no
            // timeout was flagged (the join already discards flagged ones).
            let in_time = cell.score.aw <= t;
            let (e, n) = if main {
                match answer {
                    Answer::Sat | Answer::Unsat if !in_time => (0, 0),
                    Answer::Sat | Answer::Unsat if answer.contradicts(status) => (1, 0),
                    Answer::Sat | Answer::Unsat => (0, 1),
                    _ => (0, 0),
                }
            } else {
                (cell.score.e, u64::try_from(cell.score.n).unwrap_or(0))
            };
            // w ∈ [0, T], c ∈ [0, 4T] (m·T: the track's cores).
            let w = cell.score.aw.min(t);
            let c = cell.score.ac.min(cpu_t);
            row.e += e;
            row.n += n;
            row.w += w;
            row.c += c;
            if c <= t {
                row.e_s += e;
                row.n_s += n;
            }
            row.c_s += c.min(t);
        }
        let big_n = used.iter().filter(|&&u| u).count() as u64;
        let is_exp = experimental.contains(&table.division);
        let competitive = !is_exp && competitive_teams(input, &ents) >= 2;
        if competitive && main {
            for (&i, r) in rows.iter().filter(|(_, r)| r.competitive) {
                let acc = wide.entry(i).or_insert((0.0, 0.0, 0));
                acc.0 += wide_term(r.e, r.n, big_n);
                acc.1 += wide_term(r.e_s, r.n_s, big_n);
                acc.2 += 1;
            }
        }
        let mut raw: Vec<Row> = rows.into_values().collect();
        let mut sequential = if main { raw.clone() } else { Vec::new() };
        raw.sort_by(raw_order);
        sequential.sort_by(seq_order);
        let first = |v: &[Row]| {
            v.iter()
                .find(|r| r.competitive)
                .filter(|_| competitive)
                .map(|r| r.solver.clone())
        };
        divisions.push(DivisionScores {
            division: table.division.to_string(),
            benchmarks: big_n,
            excluded_unknown: table.files.len() as u64 - big_n,
            experimental: is_exp,
            competitive,
            winner_raw: first(&raw),
            winner_seq: first(&sequential),
            raw,
            sequential,
        });
    }
    let mut competition_wide: Vec<WideScore> = wide
        .into_iter()
        .map(|(i, (raw, sequential, k))| WideScore {
            solver: input.participants[i].solver.clone(),
            raw,
            sequential,
            divisions: k,
        })
        .collect();
    competition_wide.sort_by(|a, b| b.raw.total_cmp(&a.raw).then(a.solver.cmp(&b.solver)));
    Scores {
        track: input.track,
        divisions,
        competition_wide,
    }
}

/// Markdown tables: one per division (raw, then sequential on the main track),
/// then the competition-wide ranking.
pub fn markdown(s: &Scores) -> String {
    let mut out = format!("# SMT-COMP 2015 rules: {} track\n", s.track);
    for d in &s.divisions {
        out.push_str(&format!(
            "\n## {} (N = {}{}{})\n\n",
            d.division,
            d.benchmarks,
            if d.excluded_unknown > 0 {
                format!(", {} unknown-status excluded", d.excluded_unknown)
            } else {
                String::new()
            },
            if d.experimental {
                ", experimental"
            } else if d.competitive {
                ", competitive"
            } else {
                ", not competitive"
            }
        ));
        out.push_str("| raw rank | solver | e | n | w | c |\n|---|---|---|---|---|---|\n");
        for (k, r) in d.raw.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {}{} | {} | {} | {:.2} | {:.2} |\n",
                k + 1,
                r.solver,
                if d.winner_raw.as_deref() == Some(&r.solver) {
                    " (winner)"
                } else {
                    ""
                },
                r.e,
                r.n,
                r.w,
                r.c
            ));
        }
        if !d.sequential.is_empty() {
            out.push_str("\n| seq rank | solver | e_S | n_S | c_S |\n|---|---|---|---|---|\n");
            for (k, r) in d.sequential.iter().enumerate() {
                out.push_str(&format!(
                    "| {} | {}{} | {} | {} | {:.2} |\n",
                    k + 1,
                    r.solver,
                    if d.winner_seq.as_deref() == Some(&r.solver) {
                        " (winner)"
                    } else {
                        ""
                    },
                    r.e_s,
                    r.n_s,
                    r.c_s
                ));
            }
        }
    }
    if !s.competition_wide.is_empty() {
        out.push_str("\n## Competition-wide (rules 7.4, corrected reading)\n\n");
        out.push_str("| rank | solver | raw | sequential | divisions |\n|---|---|---|---|---|\n");
        for (k, w) in s.competition_wide.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {} | {:.6} | {:.6} | {} |\n",
                k + 1,
                w.solver,
                w.raw,
                w.sequential,
                w.divisions
            ));
        }
    }
    out
}
