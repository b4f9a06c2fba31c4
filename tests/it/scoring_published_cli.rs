//! The 2025 published pages replayed through the CLI, as a user runs it:
//!
//! * `smtcomp score --runs results-*.json.gz --policy published-2025 --format json`
//!   (the organizers' results file scored directly), and
//! * `smtcomp ingest results-*.json.gz -o runs.jsonl.gz` then
//!   `smtcomp score --runs runs.jsonl.gz ...` (the run table path),
//!
//! for every track with published pages and results in `tests/data/scoring`
//! (Incremental and Parallel; the 2025 Parallel results hold no Cloud runs and no
//! Cloud, Unsat Core or Model Validation pages were scraped). Every published row
//! and every column shown is compared with our `--format json` pages; pages we
//! output that were not published are listed (and pinned, so a change is seen).
//! Scrape quirks are those of `scoring_replay.rs` (documented in docs/scoring.md).

use crate::support::python_fmt6 as fmt6;
use crate::support::{data, smtcomp};
use serde_json::Value;
use std::path::Path;

fn winner_key(label: &str) -> &'static str {
    if label.starts_with("24") {
        "winner_24s"
    } else if label.starts_with("Parallel") {
        "winner_par"
    } else if label.starts_with("SAT") {
        "winner_sat"
    } else if label.starts_with("UNSAT") {
        "winner_unsat"
    } else {
        "winner_seq"
    }
}

const KINDS: [&str; 5] = ["sequential", "parallel", "sat", "unsat", "twentyfour"];

#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn check(&mut self, what: impl FnOnce() -> String, ok: bool) {
        self.compared += 1;
        if !ok {
            self.mismatches.push(what());
        }
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn num(v: &Value) -> f64 {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// Compares one division/logic page: benchmarks, competitiveness, every row of
/// every table (order, solver, competing, every counter, CPU and wall to the 2
/// decimals shown) and every winner.
fn compare_page(name: &str, ours: &Value, theirs: &Value, t: &mut Tally) {
    t.check(
        || {
            format!(
                "{name}: benchmarks {} vs {}",
                ours["n_benchmarks"], theirs["benchmarks"]
            )
        },
        ours["n_benchmarks"] == theirs["benchmarks"],
    );
    t.check(
        || format!("{name}: competitive"),
        theirs["non_competitive"].as_bool() == ours["is_competitive"].as_bool().map(|c| !c),
    );
    for kind in KINDS {
        let o = ours[kind].as_array().cloned().unwrap_or_default();
        let p = theirs["tables"][kind]
            .as_array()
            .cloned()
            .unwrap_or_default();
        t.check(
            || format!("{name}/{kind}: {} rows vs {}", o.len(), p.len()),
            o.len() == p.len(),
        );
        for (o, p) in o.iter().zip(&p) {
            let ctx = format!("{name}/{kind}/{}", o["name"]);
            t.check(
                || format!("{ctx}: solver vs {}", p["solver"]),
                p["solver"] == o["name"],
            );
            t.check(
                || format!("{ctx}: competing"),
                p["competing"].as_bool() == Some(o["competing"] == "yes"),
            );
            for (col, field) in [
                ("error", "errorScore"),
                ("correct", "correctScore"),
                ("solved", "solved"),
                ("solved_sat", "solved_sat"),
                ("solved_unsat", "solved_unsat"),
                ("unsolved", "unsolved"),
                ("abstained", "abstained"),
                ("timeout", "timeout"),
                ("memout", "memout"),
            ] {
                if p[col].is_null() {
                    continue; // a column the track's pages do not show
                }
                t.check(
                    || format!("{ctx}: {col} {} vs {}", o[field], p[col]),
                    p[col].as_i64() == o[field].as_i64(),
                );
            }
            for (col, field) in [("cpu", "CPUScore"), ("wall", "WallScore")] {
                t.check(
                    || format!("{ctx}: {col} {} vs {}", o[field], p[col]),
                    close(num(&o[field]), num(&p[col]), 0.0051),
                );
            }
        }
    }
    for (label, w) in theirs["winners"].as_object().unwrap() {
        let key = winner_key(label);
        t.check(
            || format!("{name}: winner {label} {} vs {w}", ours[key]),
            &ours[key] == w,
        );
    }
}

fn compare_recognitions(suffix: &str, ours: &Value, theirs: &Value, t: &mut Tally) {
    let best_o = &ours[format!("best-overall-{suffix}")];
    let best_p = &theirs[format!("best-overall-{suffix}")];
    for (label, w) in best_p["winners"].as_object().unwrap() {
        let key = winner_key(label);
        // A kind we do not compute (no winner field) or without a winner: "—".
        let o = if best_o[key].is_null() || best_o[key] == "-" {
            "—".to_string()
        } else {
            format!(
                "{} ({})",
                best_o[key].as_str().unwrap(),
                fmt6(num(&best_o[format!("{key}_score")]))
            )
        };
        t.check(
            || format!("best-overall: winner {label} {o} vs {w}"),
            w.as_str() == Some(o.as_str()),
        );
    }
    for kind in KINDS {
        let p: Vec<(String, String)> = best_p["tables"][kind]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|r| {
                (
                    r["Division"].as_str().unwrap().into(),
                    r["solver"].as_str().unwrap().into(),
                )
            })
            .collect();
        let o: Vec<(String, String)> = best_o[kind]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|r| {
                (
                    r["division"].as_str().unwrap().into(),
                    fmt6(num(&r["contribution"])),
                )
            })
            .collect();
        // Shifted scraped columns: the contribution sequence, then (division,
        // contribution) pairs as multisets (see scoring_replay.rs).
        let values = |v: &[(String, String)]| v.iter().map(|x| x.1.clone()).collect::<Vec<_>>();
        t.check(
            || format!("best-overall/{kind}: contributions"),
            values(&o) == values(&p),
        );
        let (mut a, mut b) = (o.clone(), p.clone());
        a.sort();
        b.sort();
        t.check(
            || format!("best-overall/{kind}: (division, contribution) pairs"),
            a == b,
        );
    }
    for page in ["biggest-lead", "largest-contribution"] {
        let po = &ours[format!("{page}-{suffix}")];
        let pp = &theirs[format!("{page}-{suffix}")];
        for kind in KINDS {
            let o = po[kind].as_array().cloned().unwrap_or_default();
            let p = pp["tables"][kind].as_array().cloned().unwrap_or_default();
            t.check(
                || format!("{page}/{kind}: {} entries vs {}", o.len(), p.len()),
                o.len() == p.len(),
            );
            for (o, p) in o.iter().zip(&p) {
                let ctx = format!("{page}/{kind}/{}/{}", o["division"], o["name"]);
                t.check(
                    || format!("{ctx}: solver vs {}", p["solver"]),
                    p["solver"] == o["name"],
                );
                t.check(
                    || format!("{ctx}: division vs {}", p["Division"]),
                    p["Division"] == o["division"],
                );
                t.check(
                    || format!("{ctx}: correct {} vs {}", o["correctScore"], p["correct"]),
                    close(num(&o["correctScore"]), num(&p["correct"]), 1.5e-6),
                );
                t.check(
                    || format!("{ctx}: time {} vs {}", o["timeScore"], p["Time Score"]),
                    close(num(&o["timeScore"]), num(&p["Time Score"]), 1.5e-6),
                );
            }
        }
        for (label, w) in pp["winners"].as_object().unwrap() {
            let key = winner_key(label);
            // A kind we do not compute has no winner field: "-".
            let o = po[key].as_str().unwrap_or("-");
            t.check(
                || format!("{page}: winner {label} {o} vs {w}"),
                w.as_str() == Some(o),
            );
        }
    }
}

/// Runs `smtcomp score` with `args` (plus the 2025 inventory and submissions)
/// and returns the JSON document.
fn score_json(track: &str, runs: &Path, out: &Path, extra: &[&str]) -> (Value, String) {
    let runs = runs.to_str().unwrap();
    let out_s = out.to_str().unwrap();
    let mut args = vec![
        "score",
        "--track",
        track,
        "--runs",
        runs,
        "--inventory",
        "tests/data/benchmarks-2025.json.gz",
        "--submissions",
        "tests/data/submissions-2025",
        "--policy",
        "published-2025",
        "--format",
        "json",
        "-o",
        out_s,
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = smtcomp(&args);
    assert_eq!(code, 0, "smtcomp score {track}: {err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    (v, err)
}

/// Scores `results` directly and through `ingest`; both documents must be
/// identical; returns the direct one's pages.
fn both_paths(track: &str, results: &str, dir: &Path) -> Value {
    let direct = dir.join(format!("{track}-direct.json"));
    let (a, _) = score_json(track, &data::path(results), &direct, &[]);
    let table = dir.join(format!("{track}-runs.jsonl.gz"));
    let (code, _, err) = smtcomp(&[
        "ingest",
        data::path(results).to_str().unwrap(),
        "-o",
        table.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "smtcomp ingest {results}: {err}");
    let via = dir.join(format!("{track}-ingested.json"));
    let (b, _) = score_json(track, &table, &via, &[]);
    assert!(
        a == b,
        "{track}: scoring the run table differs from scoring {results} directly"
    );
    a["pages"].clone()
}

fn replay(track: &str, suffix: &str, results: &str, published: &str) -> (Tally, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let ours = both_paths(track, results, dir.path());
    let theirs: Value =
        serde_json::from_str(&std::fs::read_to_string(data::path(published)).unwrap()).unwrap();
    let mut t = Tally::default();
    for (page, p) in theirs.as_object().unwrap() {
        if page.starts_with("best-overall")
            || page.starts_with("biggest-lead")
            || page.starts_with("largest-contribution")
            || page.starts_with("results-")
        {
            continue;
        }
        match ours.get(page) {
            Some(o) => compare_page(page, o, p, &mut t),
            None => t.check(|| format!("{page}: published, not output"), false),
        }
    }
    compare_recognitions(suffix, &ours, &theirs, &mut t);
    let unpublished: Vec<String> = ours
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| theirs.get(k.as_str()).is_none())
        .cloned()
        .collect();
    (t, unpublished)
}

#[test]
fn published_2025_pages_through_the_cli_and_the_run_table() {
    let mut failed = Vec::new();
    for (track, suffix, results, published, unpublished_pages) in [
        (
            "Incremental",
            "incremental",
            "scoring/results-inc-2025.json.gz",
            "scoring/published-2025-incremental.json",
            0usize,
        ),
        (
            "Parallel",
            "parallel",
            "scoring/results-parallel-2025.json.gz",
            "scoring/published-2025-parallel.json",
            0,
        ),
    ] {
        let (t, unpublished) = replay(track, suffix, results, published);
        eprintln!(
            "{track}: {} published values compared through the CLI, {} differ; pages output but not published: {unpublished:?}",
            t.compared,
            t.mismatches.len()
        );
        for m in &t.mismatches {
            eprintln!("  {m}");
        }
        assert!(t.compared > 1000, "{track}: too few values compared");
        assert_eq!(
            unpublished.len(),
            unpublished_pages,
            "{track}: pages output but not published: {unpublished:?}"
        );
        failed.extend(t.mismatches);
    }
    assert!(
        failed.is_empty(),
        "{} published values not reproduced",
        failed.len()
    );
}
