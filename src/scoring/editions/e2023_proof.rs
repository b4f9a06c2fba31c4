//! `smtcomp score --track ProofExhibition`: the 2023 Proof Exhibition summary
//! ([`super::e2023::proof_summary`]) over an ingested run table, in Markdown,
//! JSON or CSV.
//!
//! Inputs: the run table's Proof Exhibition records (`smtcomp ingest`), whose
//! `proof` field holds the checker verdict and the `key=value` lines of the
//! wrapper output. A record without it (no readable output) gets the verdict
//! `timeout` if BenchExec reported a limit, else `error`, and is counted in the
//! notes. Division: the logic's division in the definition's Proof Exhibition
//! track (else the record's division, else the logic). Known status: the
//! inventory's, by benchmark path.

use super::e2023::{PROOF_STATS, ProofLine, ProofRun, proof_summary};
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::model::{Competition, Status, Track};
use crate::proof::{KeyValues, ProofOutcome, ProofVerdict};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write;

/// The summary with what was made of the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProofReport {
    /// Always `ProofExhibition`.
    pub track: Track,
    /// Remarks on the input (skipped records, missing proof data).
    pub notes: Vec<String>,
    /// One line per (solver, division), sorted.
    pub lines: Vec<ProofLine>,
}

/// Builds the summary from run-table records (other tracks are skipped).
pub fn report(
    records: &[IngestRecord],
    comp: &Competition,
    statuses: &HashMap<String, Status>,
) -> ProofReport {
    let track = comp.track(Track::ProofExhibition);
    let mut runs = Vec::new();
    let (mut other, mut no_data) = (0usize, 0usize);
    for r in records {
        if r.track != Some(Track::ProofExhibition) {
            other += 1;
            continue;
        }
        let logic = r
            .logic
            .clone()
            .or_else(|| r.benchmark.as_ref().map(|b| b.logic.clone()));
        let division = logic
            .as_ref()
            .and_then(|l| track.and_then(|t| t.division_of(l.as_str())))
            .map(|d| d.as_str().to_string())
            .or_else(|| r.division.as_ref().map(|d| d.as_str().to_string()))
            .or_else(|| logic.as_ref().map(|l| l.as_str().to_string()))
            .unwrap_or_else(|| "-".into());
        let outcome = match &r.proof {
            Some(p) => ProofOutcome {
                verdict: p.verdict,
                verdict_line: None,
                values: p.values.clone(),
            },
            None => {
                no_data += 1;
                ProofOutcome {
                    verdict: match r.answer {
                        RunAnswer::Timeout | RunAnswer::Memout => ProofVerdict::Timeout,
                        _ => ProofVerdict::Error,
                    },
                    verdict_line: None,
                    values: KeyValues::new(),
                }
            }
        };
        runs.push(ProofRun {
            solver: r.solver.clone(),
            division,
            benchmark: r.benchmark_key.clone(),
            status: statuses
                .get(&r.benchmark_key)
                .copied()
                .unwrap_or(Status::Unknown),
            outcome,
        });
    }
    let mut notes = Vec::new();
    if other > 0 {
        notes.push(format!("{other} record(s) of other tracks skipped"));
    }
    if no_data > 0 {
        notes.push(format!(
            "{no_data} record(s) without proof data (no readable output): verdict timeout on a limit, else error"
        ));
    }
    ProofReport {
        track: Track::ProofExhibition,
        notes,
        lines: proof_summary(&runs),
    }
}

/// A Markdown table cell: `|` escaped, line breaks as spaces.
fn md(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// A CSV field, quoted when needed (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The numbers of one line, in column order: verdicts, errors, statistics.
fn numbers(l: &ProofLine) -> Vec<u64> {
    let mut v: Vec<u64> = ProofVerdict::ALL
        .iter()
        .map(|x| l.verdicts.get(x.as_str()).copied().unwrap_or(0))
        .collect();
    v.push(l.errors);
    v.extend(
        PROOF_STATS
            .iter()
            .map(|k| l.stats.get(*k).copied().unwrap_or(0)),
    );
    v
}

/// Column names after solver and division.
fn columns() -> Vec<&'static str> {
    let mut c: Vec<&str> = ProofVerdict::ALL.iter().map(|v| v.as_str()).collect();
    c.push("errors");
    c.extend(PROOF_STATS);
    c
}

/// Markdown: one table, then the checker-soundness flags.
pub fn markdown(r: &ProofReport) -> String {
    let mut out = String::from(
        "# Proof Exhibition (2023 rules 5.8: not scored)\n\nerrors = invalid + sat; statistics are sums of the checkers' key=value lines.\n",
    );
    for n in &r.notes {
        let _ = writeln!(out, "\nNote: {}", md(n));
    }
    let cols = columns();
    let _ = writeln!(
        out,
        "\n| solver | division | {} | unsound valid |\n|---|---|{}---:|",
        cols.join(" | "),
        "---:|".repeat(cols.len())
    );
    for l in &r.lines {
        let nums: Vec<String> = numbers(l).iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            md(&l.solver),
            md(&l.division),
            nums.join(" | "),
            l.unsound_valid.len()
        );
    }
    let flagged: Vec<&ProofLine> = r
        .lines
        .iter()
        .filter(|l| !l.unsound_valid.is_empty())
        .collect();
    if !flagged.is_empty() {
        out.push_str("\n## Checker soundness: `valid` on benchmarks known sat\n\n");
        for l in flagged {
            for b in &l.unsound_valid {
                let _ = writeln!(out, "* {} / {}: {}", md(&l.solver), md(&l.division), md(b));
            }
        }
    }
    out
}

/// CSV: one line per (solver, division); `unsound_benchmarks` joined with `;`.
pub fn csv(r: &ProofReport) -> String {
    let mut out = format!(
        "solver,division,{},unsound_valid,unsound_benchmarks\n",
        columns().join(",")
    );
    for l in &r.lines {
        let nums: Vec<String> = numbers(l).iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "{},{},{},{},{}",
            csv_field(&l.solver),
            csv_field(&l.division),
            nums.join(","),
            l.unsound_valid.len(),
            csv_field(&l.unsound_valid.join(";"))
        );
    }
    out
}
