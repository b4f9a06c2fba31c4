//! SMT-COMP 2008 scoring (rules section 5, Figure 1).
//!
//! * Points per benchmark (Figure 1): correct `sat`/`unsat` +1, wrong −8;
//!   `unknown`, timeout and abort 0. A run over the time limit is killed
//!   (section 3): its answer does not count (the join drops it).
//! * Unknown-status benchmarks are ineligible (section 4) and skipped.
//! * "At most three wrong answers per division. Four wrong answers within a single
//!   division will cause the tool to be disqualified from all divisions": a solver
//!   with ≥ 4 wrong answers in any division of the track is disqualified
//!   everywhere (still listed, never ranked above a qualified solver, never winner).
//! * Ranking: points desc; tie: lowest average CPU time on correctly answered
//!   benchmarks (a solver without correct answers sorts after those with); then
//!   name, for determinism.
//! * A winner only where at least three entrants from distinct research groups
//!   compete: three distinct teams among the author-submitted solvers that
//!   entered the division (entrants are counted as entered, before any
//!   disqualification). The winner is the best qualified competitive solver.

use super::{competitive_teams, entrants, tables};
use crate::model::{Answer, Status};
use crate::scoring::input::ScoringInput;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Points of a correct answer.
pub const CORRECT_POINTS: i64 = 1;
/// Points of a wrong answer.
pub const WRONG_POINTS: i64 = -8;
/// Wrong answers allowed per division; one more disqualifies.
pub const MAX_WRONG: u64 = 3;
/// Distinct groups needed for a winner.
pub const MIN_GROUPS: usize = 3;

/// One solver in one division.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Solver.
    pub solver: String,
    /// Author-submitted.
    pub competitive: bool,
    /// Total points.
    pub points: i64,
    /// Correct answers.
    pub correct: u64,
    /// Wrong answers.
    pub wrong: u64,
    /// Σ CPU time over correct answers.
    pub cpu_correct: f64,
    /// Disqualified (≥ 4 wrong answers in some division).
    pub disqualified: bool,
}

impl Row {
    /// Average CPU time on correct answers (`None` without correct answers).
    pub fn avg_cpu(&self) -> Option<f64> {
        (self.correct > 0).then(|| self.cpu_correct / self.correct as f64)
    }
}

/// One division under the 2008 rules.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DivisionScores {
    /// Division.
    pub division: String,
    /// Benchmarks scored (known status).
    pub benchmarks: u64,
    /// Distinct groups among competitive entrants.
    pub groups: usize,
    /// Rows in rank order (disqualified solvers last).
    pub rows: Vec<Row>,
    /// Winner (at least [`MIN_GROUPS`] groups).
    pub winner: Option<String>,
}

/// Every 2008 score of the track.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    /// Divisions with runs, by name.
    pub divisions: Vec<DivisionScores>,
    /// Disqualified solvers, sorted.
    pub disqualified: Vec<String>,
}

/// The 2008 order: qualified first, points desc, average CPU asc (none last), name.
pub fn order(a: &Row, b: &Row) -> Ordering {
    let avg = |r: &Row| r.avg_cpu().unwrap_or(f64::INFINITY);
    a.disqualified
        .cmp(&b.disqualified)
        .then(b.points.cmp(&a.points))
        .then(avg(a).total_cmp(&avg(b)))
        .then(a.solver.cmp(&b.solver))
}

/// Scores `input` under the 2008 rules.
pub fn score(input: &ScoringInput) -> Scores {
    let mut divisions = Vec::new();
    let mut disq: BTreeSet<usize> = BTreeSet::new();
    for table in tables(input, "rules-2008", false) {
        let ents = entrants(input, &table.division);
        let mut rows: BTreeMap<usize, Row> = ents
            .iter()
            .map(|&i| {
                let p = &input.participants[i];
                let row = Row {
                    solver: p.solver.clone(),
                    competitive: p.competitive,
                    points: 0,
                    correct: 0,
                    wrong: 0,
                    cpu_correct: 0.0,
                    disqualified: false,
                };
                (i, row)
            })
            .collect();
        for cell in &table.cells {
            let status = table.files[cell.file].info.status;
            if !matches!(status, Status::Sat | Status::Unsat) {
                continue;
            }
            let (Some(row), Some(answer)) = (rows.get_mut(&cell.solver), cell.answer) else {
                continue;
            };
            if !matches!(answer, Answer::Sat | Answer::Unsat) {
                continue;
            }
            if answer.contradicts(status) {
                row.wrong += 1;
                row.points += WRONG_POINTS;
            } else {
                row.correct += 1;
                row.points += CORRECT_POINTS;
                row.cpu_correct += cell.score.ac;
            }
        }
        for (&i, r) in &rows {
            if r.wrong > MAX_WRONG {
                disq.insert(i);
            }
        }
        let benchmarks = table
            .files
            .iter()
            .filter(|f| matches!(f.info.status, Status::Sat | Status::Unsat))
            .count() as u64;
        divisions.push((
            table.division.to_string(),
            benchmarks,
            competitive_teams(input, &ents),
            rows,
        ));
    }
    let divisions = divisions
        .into_iter()
        .map(|(division, benchmarks, groups, rows)| {
            let mut rows: Vec<Row> = rows
                .into_iter()
                .map(|(i, mut r)| {
                    r.disqualified = disq.contains(&i);
                    r
                })
                .collect();
            rows.sort_by(order);
            let winner = rows
                .iter()
                .find(|r| r.competitive && !r.disqualified)
                .filter(|_| groups >= MIN_GROUPS)
                .map(|r| r.solver.clone());
            DivisionScores {
                division,
                benchmarks,
                groups,
                rows,
                winner,
            }
        })
        .collect();
    Scores {
        divisions,
        disqualified: disq
            .into_iter()
            .map(|i| input.participants[i].solver.clone())
            .collect(),
    }
}

/// Markdown tables, one per division.
pub fn markdown(s: &Scores) -> String {
    let mut out = String::from("# SMT-COMP 2008 rules\n");
    if !s.disqualified.is_empty() {
        out.push_str(&format!(
            "\nDisqualified (4+ wrong answers in a division): {}\n",
            s.disqualified.join(", ")
        ));
    }
    for d in &s.divisions {
        out.push_str(&format!(
            "\n## {} ({} benchmarks, {} groups{})\n\n",
            d.division,
            d.benchmarks,
            d.groups,
            if d.groups >= MIN_GROUPS {
                ""
            } else {
                ", no winner"
            }
        ));
        out.push_str(
            "| rank | solver | points | correct | wrong | avg CPU (correct) |\n|---|---|---|---|---|---|\n",
        );
        for (k, r) in d.rows.iter().enumerate() {
            out.push_str(&format!(
                "| {} | {}{}{} | {} | {} | {} | {} |\n",
                k + 1,
                r.solver,
                if d.winner.as_deref() == Some(&r.solver) {
                    " (winner)"
                } else {
                    ""
                },
                if r.disqualified {
                    " (disqualified)"
                } else {
                    ""
                },
                r.points,
                r.correct,
                r.wrong,
                r.avg_cpu().map_or("-".into(), |a| format!("{a:.2}"))
            ));
        }
    }
    out
}
