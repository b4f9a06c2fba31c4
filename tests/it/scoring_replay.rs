//! Replay of the 2025 Incremental and Parallel tracks under `published-2025`:
//! every number of every table of the published pages
//! (`tests/data/scoring/published-2025-*.json`, scraped from the result pages)
//! must be reproduced, and the recognition pages too.
//!
//! Scraping quirks handled explicitly here (documented in docs/scoring.md):
//! * best-overall rows have their columns shifted: `solver` holds the contribution
//!   (as a string) and the solver name is lost; we compare the (division,
//!   contribution) multiset and the winner "name (score)" strings.
//! * a table with no rows is absent from the scrape (e.g. `unsat` when the
//!   division has no unsat benchmark): absent = empty.
//! * CPU and wall scores are shown with 2 decimals.

use crate::support::data::inventory_2025;
use crate::support::python_fmt6 as fmt6;
use serde_json::Value;
use smtcomp::benchmarks::Inventory;
use smtcomp::model::{Competition, Track};
use smtcomp::scoring::{self, Kind, Policy, ScoredRun, TrackScores};
use smtcomp::submission::load_set;
use std::path::{Path, PathBuf};

fn data(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(p)
}

fn input_for(track: Track, results: &str, inv: &Inventory) -> scoring::ScoringInput {
    let comp = Competition::builtin(2025).unwrap();
    let subs = load_set(&[data("submissions-2025")], &comp);
    let runs: Vec<ScoredRun> = crate::support::data::results(results)
        .results
        .iter()
        .map(ScoredRun::from_record)
        .collect();
    let (input, missing) = scoring::build_input(&comp, track, &subs, inv, runs);
    assert!(
        missing.is_empty(),
        "benchmarks missing from the inventory: {missing:?}"
    );
    input
}

fn winner_kind(label: &str) -> Kind {
    if label.starts_with("24") {
        Kind::TwentyFour
    } else if label.starts_with("Parallel") {
        Kind::Parallel
    } else if label.starts_with("SAT") {
        Kind::Sat
    } else if label.starts_with("UNSAT") {
        Kind::Unsat
    } else {
        Kind::Sequential
    }
}

#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn check(&mut self, what: String, ok: bool) {
        self.compared += 1;
        if !ok {
            self.mismatches.push(what);
        }
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn compare_pages(scores: &TrackScores, published: &Value, t: &mut Tally) {
    for (page, v) in published.as_object().unwrap() {
        if page.starts_with("best-overall")
            || page.starts_with("biggest-lead")
            || page.starts_with("largest-contribution")
            || page.starts_with("results-")
        {
            continue;
        }
        let g = scores
            .groups
            .iter()
            .find(|g| smtcomp::scoring::output::page_name(g, scores.track) == *page);
        let Some(g) = g else {
            t.check(format!("{page}: page missing"), false);
            continue;
        };
        t.check(
            format!(
                "{page}: benchmarks {} vs {}",
                g.n_benchmarks, v["benchmarks"]
            ),
            v["benchmarks"].as_u64() == Some(g.n_benchmarks),
        );
        t.check(
            format!("{page}: non_competitive"),
            v["non_competitive"].as_bool() == Some(!g.competitive),
        );
        for k in &scores.kinds {
            let ours = g.podium(*k).map(|p| p.steps.as_slice()).unwrap_or(&[]);
            let theirs: Vec<Value> = v["tables"][k.key()].as_array().cloned().unwrap_or_default();
            t.check(
                format!(
                    "{page}/{}: {} rows vs {}",
                    k.key(),
                    ours.len(),
                    theirs.len()
                ),
                ours.len() == theirs.len(),
            );
            for (o, p) in ours.iter().zip(theirs.iter()) {
                let ctx = format!("{page}/{}/{}", k.key(), o.solver);
                t.check(
                    format!("{ctx}: solver vs {}", p["solver"]),
                    p["solver"] == o.solver.as_str(),
                );
                t.check(
                    format!("{ctx}: competing"),
                    p["competing"].as_bool() == Some(o.competitive),
                );
                for (f, ov) in [
                    ("error", o.e),
                    ("correct", u64::try_from(o.n).unwrap_or(u64::MAX)),
                    ("solved", o.solved),
                    ("solved_sat", o.solved_sat),
                    ("solved_unsat", o.solved_unsat),
                    ("unsolved", o.unsolved),
                    ("abstained", u64::try_from(o.abstained).unwrap_or(u64::MAX)),
                    ("timeout", o.timeout),
                    ("memout", o.memout),
                ] {
                    if p[f].is_null() {
                        continue; // column not shown on this track's pages
                    }
                    t.check(
                        format!("{ctx}: {f} {ov} vs {}", p[f]),
                        p[f].as_u64() == Some(ov),
                    );
                }
                for (f, ov) in [("cpu", o.c), ("wall", o.w)] {
                    let pv = p[f].as_f64().unwrap_or(f64::NAN);
                    t.check(format!("{ctx}: {f} {ov:.4} vs {pv}"), close(ov, pv, 0.0051));
                }
            }
        }
        for (label, w) in v["winners"].as_object().unwrap() {
            let k = winner_kind(label);
            let ours = g
                .podium(k)
                .and_then(|p| p.winner.clone())
                .unwrap_or_else(|| "-".into());
            t.check(
                format!("{page}: winner {label} {ours} vs {w}"),
                w == ours.as_str(),
            );
        }
    }
}

fn compare_recognitions(scores: &TrackScores, published: &Value, t: &mut Tally) {
    let suffix = scores.track.page_suffix();
    let best = &published[format!("best-overall-{suffix}")];
    for o in &scores.best_overall {
        let label = best["winners"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(l, _)| winner_kind(l) == o.kind)
            .map(|(_, w)| w.as_str().unwrap().to_string());
        if let Some(label) = label {
            let ours = o.winner.as_ref().map_or("—".to_string(), |w| {
                format!("{} ({})", w.solver, fmt6(w.score))
            });
            t.check(
                format!("best-overall/{}: winner {ours} vs {label}", o.kind.key()),
                ours == label,
            );
        }
        // Shifted columns: "solver" holds the contribution, the name is lost.
        let theirs: Vec<(String, String)> = best["tables"][o.kind.key()]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|r| {
                (
                    r["Division"].as_str().unwrap().to_string(),
                    r["solver"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let ours: Vec<(String, String)> = o
            .entries
            .iter()
            .map(|e| (e.division.replace('+', "_"), fmt6(e.contribution)))
            .collect();
        // The contributions must appear in the same order; within runs of equal
        // (contribution, time) the reference order is an artifact of its data-frame
        // grouping (and the names are lost), so (division, contribution) pairs are
        // compared as multisets.
        let values = |v: &[(String, String)]| v.iter().map(|x| x.1.clone()).collect::<Vec<_>>();
        t.check(
            format!(
                "best-overall/{}: contributions {:?} vs {:?}",
                o.kind.key(),
                values(&ours),
                values(&theirs)
            ),
            values(&ours) == values(&theirs),
        );
        let (mut a, mut b) = (ours.clone(), theirs.clone());
        a.sort();
        b.sort();
        t.check(
            format!(
                "best-overall/{}: (division, contribution) pairs",
                o.kind.key()
            ),
            a == b,
        );
    }
    let lead = &published[format!("biggest-lead-{suffix}")];
    for l in &scores.biggest_lead {
        let theirs = lead["tables"][l.kind.key()]
            .as_array()
            .cloned()
            .unwrap_or_default();
        t.check(
            format!(
                "biggest-lead/{}: {} entries vs {}",
                l.kind.key(),
                l.entries.len(),
                theirs.len()
            ),
            l.entries.len() == theirs.len(),
        );
        for (o, p) in l.entries.iter().zip(theirs.iter()) {
            let ctx = format!("biggest-lead/{}/{}", l.kind.key(), o.division);
            t.check(
                format!("{ctx}: solver {} vs {}", o.solver, p["solver"]),
                p["solver"] == o.solver.as_str(),
            );
            t.check(
                format!("{ctx}: division"),
                p["Division"] == o.division.replace('+', "_").as_str(),
            );
            t.check(
                format!("{ctx}: correct {} vs {}", o.correct_rank, p["correct"]),
                close(
                    o.correct_rank,
                    p["correct"].as_f64().unwrap_or(f64::NAN),
                    1e-6,
                ),
            );
            t.check(
                format!("{ctx}: time {} vs {}", o.time_rank, p["Time Score"]),
                close(
                    o.time_rank,
                    p["Time Score"].as_f64().unwrap_or(f64::NAN),
                    1e-6,
                ),
            );
        }
        check_winner(t, "biggest-lead", lead, l.kind, l.winner.as_deref());
    }
    let lc = &published[format!("largest-contribution-{suffix}")];
    for l in &scores.largest_contribution {
        let theirs = lc["tables"][l.kind.key()]
            .as_array()
            .cloned()
            .unwrap_or_default();
        t.check(
            format!(
                "largest-contribution/{}: {} entries vs {}",
                l.kind.key(),
                l.entries.len(),
                theirs.len()
            ),
            l.entries.len() == theirs.len(),
        );
        for (o, p) in l.entries.iter().zip(theirs.iter()) {
            let ctx = format!(
                "largest-contribution/{}/{}/{}",
                l.kind.key(),
                o.division,
                o.solver
            );
            t.check(
                format!("{ctx}: solver vs {}", p["solver"]),
                p["solver"] == o.solver.as_str(),
            );
            t.check(
                format!("{ctx}: division vs {}", p["Division"]),
                p["Division"] == o.division.replace('+', "_").as_str(),
            );
            t.check(
                format!("{ctx}: correct {} vs {}", o.correct_rank, p["correct"]),
                close(
                    o.correct_rank,
                    p["correct"].as_f64().unwrap_or(f64::NAN),
                    1e-6,
                ),
            );
            t.check(
                format!("{ctx}: time {} vs {}", o.time_rank, p["Time Score"]),
                close(
                    o.time_rank,
                    p["Time Score"].as_f64().unwrap_or(f64::NAN),
                    1e-6,
                ),
            );
        }
        check_winner(t, "largest-contribution", lc, l.kind, l.winner.as_deref());
    }
}

fn check_winner(t: &mut Tally, what: &str, page: &Value, kind: Kind, ours: Option<&str>) {
    if let Some((_, w)) = page["winners"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(l, _)| winner_kind(l) == kind)
    {
        let ours = ours.unwrap_or("-");
        t.check(
            format!("{what}/{}: winner {ours} vs {w}", kind.key()),
            w == ours,
        );
    }
}

fn replay(track: Track, results: &str, published: &str, inv: &Inventory) -> Tally {
    let input = input_for(track, results, inv);
    let scores = scoring::score(&input, &Policy::published_2025());
    let published: Value =
        serde_json::from_str(&std::fs::read_to_string(data(published)).unwrap()).unwrap();
    let mut t = Tally::default();
    compare_pages(&scores, &published, &mut t);
    compare_recognitions(&scores, &published, &mut t);
    t
}

#[test]
fn published_2025_incremental_and_parallel_are_reproduced() {
    let inv = inventory_2025();
    let mut failed = Vec::new();
    for (track, results, published) in [
        (
            Track::Incremental,
            "scoring/results-inc-2025.json.gz",
            "scoring/published-2025-incremental.json",
        ),
        (
            Track::Parallel,
            "scoring/results-parallel-2025.json.gz",
            "scoring/published-2025-parallel.json",
        ),
    ] {
        let t = replay(track, results, published, inv);
        eprintln!(
            "{track}: {} numbers compared, {} differ",
            t.compared,
            t.mismatches.len()
        );
        for m in &t.mismatches {
            eprintln!("  {m}");
        }
        assert!(t.compared > 1000, "{track}: too few numbers compared");
        failed.extend(t.mismatches);
    }
    assert!(
        failed.is_empty(),
        "{} published numbers not reproduced",
        failed.len()
    );
}

/// `score` hands the paths it filtered the inventory with to
/// `build_input_with_paths`; they are the paths of every track's runs, so they
/// are reused only when every run is of the scored track. One extra run of
/// another track on a benchmark the inventory does not list: with the paths
/// reused it would be reported missing; the input must equal `build_input`'s.
#[test]
fn paths_of_other_tracks_are_not_reused() {
    let comp = Competition::builtin(2025).unwrap();
    let subs = load_set(&[data("submissions-2025")], &comp);
    let inv = inventory_2025();
    let mut runs: Vec<ScoredRun> = crate::support::data::results_inc_2025()
        .results
        .iter()
        .map(ScoredRun::from_record)
        .collect();
    let mut other = runs[0].clone();
    let mut file = (*other.file).clone();
    file.name = "not-in-the-inventory.smt2".into();
    other.file = std::sync::Arc::new(file);
    other.track = Track::SingleQuery;
    runs.push(other);
    let paths = scoring::paths_of(runs.iter().map(|r| &*r.file));
    let (plain, missing) =
        scoring::build_input(&comp, Track::Incremental, &subs, inv, runs.clone());
    let (reused, missing_reused) = scoring::build_input_with_paths(
        &comp,
        Track::Incremental,
        &subs,
        inv,
        runs,
        Vec::new(),
        Some(paths),
    );
    assert!(missing.is_empty(), "{missing:?}");
    assert_eq!(missing_reused, missing);
    assert_eq!(reused.benchmarks, plain.benchmarks);
    assert_eq!(reused.runs.len(), plain.runs.len());
}
