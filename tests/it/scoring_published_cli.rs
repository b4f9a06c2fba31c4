//! The published 2025 and 2024 pages replayed through the CLI, as a user runs it:
//!
//! * `smtcomp score --runs results-*.json.gz --policy published-YYYY --format json`
//!   (the organizers' results files scored directly), and
//! * `smtcomp ingest results-*.json.gz -o runs.jsonl.gz` then
//!   `smtcomp score --runs runs.jsonl.gz ...` (the run table path),
//!
//! for every track with published pages and results: 2025 Incremental and
//! Parallel (`tests/data/scoring`; the 2025 Parallel results hold no Cloud runs
//! and no Cloud, Unsat Core or Model Validation pages were scraped), 2024
//! Incremental, Unsat Core, Parallel and Cloud (`tests/data/replay-2024`; their
//! Single Query and Model Validation results are not published). Every published row
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
    // 2024 published no best-overall page (the output's is listed as unpublished).
    let best_winners = best_p["winners"].as_object().cloned().unwrap_or_default();
    for (label, w) in &best_winners {
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
    for kind in KINDS.iter().filter(|_| !best_p.is_null()) {
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

/// One year's replay of one track: what `smtcomp score` gets and what it must
/// reproduce.
struct Replay<'a> {
    track: &'a str,
    suffix: &'a str,
    /// Results files (several: Parallel and Cloud of 2024 count both tracks).
    results: &'a [&'a str],
    published: &'a str,
    inventory: &'a str,
    submissions: &'a str,
    policy: &'a str,
    /// Pages we output that were not published (pinned).
    unpublished_pages: usize,
}

/// Runs `smtcomp score` on `runs` as `r` says and returns the JSON document.
fn score_json(r: &Replay, runs: &[String], out: &Path) -> Value {
    let mut args = vec!["score", "--track", r.track, "--runs"];
    args.extend(runs.iter().map(String::as_str));
    let out_s = out.to_str().unwrap();
    args.extend([
        "--inventory",
        r.inventory,
        "--submissions",
        r.submissions,
        "--policy",
        r.policy,
        "--format",
        "json",
        "-o",
        out_s,
    ]);
    let (code, _, err) = smtcomp(&args);
    assert_eq!(code, 0, "smtcomp score {}: {err}", r.track);
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

/// Scores the results directly and through `ingest`; both documents must be
/// identical; returns the direct one's pages.
fn both_paths(r: &Replay, dir: &Path) -> Value {
    let results: Vec<String> = r
        .results
        .iter()
        .map(|f| data::path(f).to_str().unwrap().to_string())
        .collect();
    let a = score_json(r, &results, &dir.join(format!("{}-direct.json", r.track)));
    let mut tables = Vec::new();
    for (i, f) in results.iter().enumerate() {
        let table = dir.join(format!("{}-runs{i}.jsonl.gz", r.track));
        let (code, _, err) = smtcomp(&["ingest", f, "-o", table.to_str().unwrap(), "--quiet"]);
        assert_eq!(code, 0, "smtcomp ingest {f}: {err}");
        tables.push(table.to_str().unwrap().to_string());
    }
    let b = score_json(r, &tables, &dir.join(format!("{}-ingested.json", r.track)));
    assert!(
        a == b,
        "{}: scoring the run tables differs from scoring {:?} directly",
        r.track,
        r.results
    );
    a["pages"].clone()
}

/// Reads a published-pages file (`.json`, or `.json.gz`).
fn published(rel: &str) -> Value {
    let bytes = std::fs::read(data::path(rel)).unwrap();
    let text = if rel.ends_with(".gz") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    };
    serde_json::from_str(&text).unwrap()
}

fn replay(r: &Replay) -> (Tally, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let ours = both_paths(r, dir.path());
    let theirs = published(r.published);
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
    compare_recognitions(r.suffix, &ours, &theirs, &mut t);
    let unpublished: Vec<String> = ours
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| theirs.get(k.as_str()).is_none())
        .cloned()
        .collect();
    (t, unpublished)
}

/// Replays every `Replay` and fails listing every value not reproduced.
fn replay_all(year: u16, replays: &[Replay]) {
    let mut failed = Vec::new();
    for r in replays {
        let (t, unpublished) = replay(r);
        eprintln!(
            "{year} {}: {} published values compared through the CLI, {} differ; pages output but not published: {unpublished:?}",
            r.track,
            t.compared,
            t.mismatches.len()
        );
        for m in &t.mismatches {
            eprintln!("  {m}");
        }
        assert!(t.compared > 500, "{}: too few values compared", r.track);
        assert_eq!(
            unpublished.len(),
            r.unpublished_pages,
            "{}: pages output but not published: {unpublished:?}",
            r.track
        );
        failed.extend(t.mismatches);
    }
    assert!(
        failed.is_empty(),
        "{} published values not reproduced",
        failed.len()
    );
}

#[test]
fn published_2025_pages_through_the_cli_and_the_run_table() {
    let base = Replay {
        track: "Incremental",
        suffix: "incremental",
        results: &["scoring/results-inc-2025.json.gz"],
        published: "scoring/published-2025-incremental.json",
        inventory: "tests/data/benchmarks-2025.json.gz",
        submissions: "tests/data/submissions-2025",
        policy: "published-2025",
        unpublished_pages: 0,
    };
    replay_all(
        2025,
        &[
            Replay { ..base },
            Replay {
                track: "Parallel",
                suffix: "parallel",
                results: &["scoring/results-parallel-2025.json.gz"],
                published: "scoring/published-2025-parallel.json",
                ..base
            },
        ],
    );
}

/// 2024 under `published-2024` (scored with the 2025 definition; stand-in
/// submissions: tests/data/replay-2024/README.md). The pages we output that
/// 2024 did not publish: best overall (a 2025 recognition).
#[test]
fn published_2024_pages_through_the_cli_and_the_run_table() {
    let both = &[
        "replay-2024/results-parallel-2024.json.gz",
        "replay-2024/results-cloud-2024.json.gz",
    ];
    let base = Replay {
        track: "Incremental",
        suffix: "incremental",
        results: &["replay-2024/results-incremental-2024.json.gz"],
        published: "replay-2024/published-2024-incremental.json.gz",
        inventory: "tests/data/replay-2024/inventory-2024.json.gz",
        submissions: "tests/data/replay-2024/submissions",
        policy: "published-2024",
        unpublished_pages: 1,
    };
    replay_all(
        2024,
        &[
            Replay { ..base },
            Replay {
                track: "UnsatCore",
                suffix: "unsat-core",
                results: &["replay-2024/results-unsat-core-2024.json.gz"],
                published: "replay-2024/published-2024-unsat-core.json.gz",
                ..base
            },
            Replay {
                track: "Parallel",
                suffix: "parallel",
                results: both,
                published: "replay-2024/published-2024-parallel.json.gz",
                ..base
            },
            Replay {
                track: "Cloud",
                suffix: "cloud",
                results: both,
                published: "replay-2024/published-2024-cloud.json.gz",
                ..base
            },
        ],
    );
}

/// `published-2024` cannot reproduce a Parallel or Cloud page from one
/// track's runs: a usage error naming what to add, never another N.
#[test]
fn published_2024_parallel_without_the_cloud_runs_is_refused() {
    let runs = data::path("replay-2024/results-parallel-2024.json.gz");
    let (code, out, err) = smtcomp(&[
        "score",
        "--track",
        "Parallel",
        "--runs",
        runs.to_str().unwrap(),
        "--inventory",
        "tests/data/replay-2024/inventory-2024.json.gz",
        "--submissions",
        "tests/data/replay-2024/submissions",
        "--policy",
        "published-2024",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("none of the Cloud Track"), "{err}");
    assert!(out.is_empty(), "{out}");
}
