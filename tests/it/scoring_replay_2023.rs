//! The organizers' 2023 Parallel and Cloud pages, replayed value by value:
//! `--policy published-2023` (`scoring::editions::p2023`) on their 2023 AWS
//! runs (`tests/data/replay-2023`, joined as they did) gives every published
//! number: each division and logic page's benchmark count, logic list, the
//! rows of the parallel, sat, unsat and 24-second tables in their order with
//! every counter shown (error, correct, solved, solved_sat, solved_unsat,
//! unsolved, abstained (negative where a benchmark ran twice), timeout,
//! memout) and the wall time, no winner (experimental tracks), the biggest-lead
//! rows, and the winners their generator computed but the pages do not show
//! (the ranking's first row). The 2023 rules reading (the default) differs:
//! it is pinned below so that the difference stays visible.

use crate::support::data;
use serde_json::Value;
use smtcomp::benchmarks::Inventory;
use smtcomp::model::{Competition, Track};
use smtcomp::scoring::editions::p2023;
use smtcomp::scoring::{self, Kind, ScoredRun, ScoringInput, TrackScores};
use smtcomp::submission::load_set;

fn input(track: Track) -> ScoringInput {
    let comp = Competition::builtin(2023).unwrap();
    let subs = load_set(&[data::path("replay-2023/submissions")], &comp);
    let inv = Inventory::read(&data::path("replay-2023/inventory-aws-2023.json.gz")).unwrap();
    let runs: Vec<ScoredRun> = data::results(&format!(
        "replay-2023/results-{}-2023.json.gz",
        track.short_name()
    ))
    .results
    .iter()
    .map(ScoredRun::from_record)
    .collect();
    let (input, missing) = scoring::build_input(&comp, track, &subs, &inv, runs);
    assert!(missing.is_empty(), "not in the inventory: {missing:?}");
    input
}

fn published(track: Track) -> Value {
    let path = data::path(&format!(
        "replay-2023/published-2023-{}.json.gz",
        track.short_name()
    ));
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()),
        &mut text,
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The organizers' 2023 page name of a group (`+` and `_` both `-`).
fn page_name(identifier: &str, track: Track) -> String {
    format!(
        "{}-{}",
        identifier.to_lowercase().replace(['_', '+'], "-"),
        track.page_suffix()
    )
}

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

fn kind_of(label: &str) -> Kind {
    match label {
        "Parallel Performance" => Kind::Parallel,
        "SAT Performance" => Kind::Sat,
        "UNSAT Performance" => Kind::Unsat,
        _ => Kind::TwentyFour,
    }
}

fn compare(scores: &TrackScores, published: &Value, track: Track) -> Tally {
    let mut t = Tally::default();
    for (page, v) in published.as_object().unwrap() {
        if page.starts_with("results-") {
            continue;
        }
        if page.starts_with("biggest-lead") {
            let ours = &scores.biggest_lead[0].entries;
            let theirs = v["tables"]["parallel"].as_array().unwrap();
            t.check(
                || format!("{page}: {} rows vs {}", ours.len(), theirs.len()),
                ours.len() == theirs.len(),
            );
            for (o, p) in ours.iter().zip(theirs) {
                t.check(
                    || format!("{page}: {} vs {}", o.solver, p["solver"]),
                    p["solver"] == o.solver.as_str(),
                );
                t.check(
                    || format!("{page}: {} vs {}", o.division, p["Division_published"]),
                    p["Division_published"] == o.division.as_str(),
                );
                t.check(
                    || {
                        format!(
                            "{page}/{}: correct {} vs {}",
                            o.division, o.correct_rank, p["correct"]
                        )
                    },
                    (o.correct_rank - p["correct"].as_f64().unwrap()).abs() < 1e-8,
                );
                t.check(
                    || {
                        format!(
                            "{page}/{}: time {} vs {}",
                            o.division, o.time_rank, p["Time Score"]
                        )
                    },
                    (o.time_rank - p["Time Score"].as_f64().unwrap()).abs() < 1e-8,
                );
            }
            let hidden = v["md_winners_not_shown"]["Parallel Performance"].as_str();
            let first = ours.first().map_or("-", |e| e.solver.as_str());
            t.check(
                || format!("{page}: first {first} vs {hidden:?}"),
                hidden == Some(first),
            );
            t.check(
                || format!("{page}: a winner named"),
                scores.biggest_lead[0].winner.is_none(),
            );
            continue;
        }
        let Some(g) = scores
            .groups
            .iter()
            .find(|g| page_name(&g.identifier, track) == *page)
        else {
            t.check(|| format!("{page}: page missing"), false);
            continue;
        };
        t.check(
            || {
                format!(
                    "{page}: benchmarks {} vs {}",
                    g.n_benchmarks, v["benchmarks"]
                )
            },
            v["benchmarks"].as_u64() == Some(g.n_benchmarks),
        );
        if let Some(logics) = v["logics"].as_object() {
            let theirs: Vec<(String, u64)> = logics
                .iter()
                .map(|(l, n)| (l.clone(), n.as_u64().unwrap()))
                .collect();
            let ours: Vec<(String, u64)> = g.logics.iter().map(|(l, n)| (l.clone(), *n)).collect();
            t.check(
                || format!("{page}: logics {ours:?} vs {theirs:?}"),
                ours == theirs,
            );
        }
        for (key, rows) in v["tables"].as_object().unwrap() {
            let kind = *scores.kinds.iter().find(|k| k.key() == key).unwrap();
            let podium = g.podium(kind).unwrap();
            let ours = &podium.steps;
            let theirs = rows.as_array().unwrap();
            t.check(
                || format!("{page}/{key}: {} rows vs {}", ours.len(), theirs.len()),
                ours.len() == theirs.len(),
            );
            t.check(
                || format!("{page}/{key}: a winner named"),
                podium.winner.is_none(),
            );
            for (o, p) in ours.iter().zip(theirs) {
                let ctx = format!("{page}/{key}/{}", o.solver);
                t.check(
                    || format!("{ctx}: order, published {}", p["solver"]),
                    p["solver"] == o.solver.as_str(),
                );
                for (f, ov) in [
                    ("error", o.e as i64),
                    ("correct", o.n),
                    ("solved", o.solved as i64),
                    ("solved_sat", o.solved_sat as i64),
                    ("solved_unsat", o.solved_unsat as i64),
                    ("unsolved", o.unsolved as i64),
                    ("abstained", o.abstained),
                    ("timeout", o.timeout as i64),
                    ("memout", o.memout as i64),
                ] {
                    if p[f].is_null() {
                        continue; // not shown on this page
                    }
                    t.check(
                        || format!("{ctx}: {f} {ov} vs {}", p[f]),
                        p[f].as_i64() == Some(ov),
                    );
                }
                let pw = p["wall"].as_f64().unwrap();
                t.check(
                    || format!("{ctx}: wall {:.4} vs {pw}", o.w),
                    (o.w - pw).abs() <= 0.0005 + 1e-9,
                );
            }
        }
        // The winners their generator computed (the ranking's first row if it
        // solved something); the pages hide them.
        if let Some(hidden) = v["md_winners_not_shown"].as_object() {
            for (label, w) in hidden {
                let p = g.podium(kind_of(label)).unwrap();
                let first = p
                    .steps
                    .first()
                    .filter(|s| s.n > 0)
                    .map_or("-", |s| s.solver.as_str());
                t.check(
                    || format!("{page}: hidden winner {label} {first} vs {w}"),
                    w == first,
                );
            }
        }
    }
    t
}

#[test]
fn published_2023_parallel_and_cloud_are_reproduced() {
    let mut failed = Vec::new();
    for (track, at_least) in [(Track::Parallel, 1900), (Track::Cloud, 1700)] {
        let input = input(track);
        let scores = p2023::score(&input, &p2023::policy()).unwrap();
        let t = compare(&scores, &published(track), track);
        eprintln!(
            "{track}: {} published values compared, {} differ",
            t.compared,
            t.mismatches.len()
        );
        for m in t.mismatches.iter().take(40) {
            eprintln!("  {m}");
        }
        assert!(
            t.compared >= at_least,
            "{track}: only {} values compared",
            t.compared
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
fn published_2023_applies_to_parallel_and_cloud_only() {
    let comp = Competition::builtin(2023).unwrap();
    let subs = load_set(&[data::path("replay-2023/submissions")], &comp);
    let (input, _) = scoring::build_input(
        &comp,
        Track::SingleQuery,
        &subs,
        &Inventory::default(),
        Vec::new(),
    );
    let err = p2023::score(&input, &p2023::policy()).unwrap_err();
    assert!(
        err.to_string().contains("Parallel and Cloud pages"),
        "{err}"
    );
}

/// As a user runs it; the policy where it cannot apply is a usage error.
#[test]
fn the_cli_scores_with_published_2023_and_refuses_it_elsewhere() {
    use crate::support::smtcomp;
    let p = |r: &str| {
        data::path(&format!("replay-2023/{r}"))
            .display()
            .to_string()
    };
    let (runs, inv, subs) = (
        p("results-cloud-2023.json.gz"),
        p("inventory-aws-2023.json.gz"),
        p("submissions"),
    );
    let base = [
        "score",
        "--track",
        "Cloud",
        "--runs",
        &runs,
        "--inventory",
        &inv,
        "--submissions",
        &subs,
    ];
    let with = |extra: &[&str]| smtcomp(&[&base[..], extra].concat());
    let (code, out, err) = with(&[
        "--year",
        "2023",
        "--policy",
        "published-2023",
        "--format",
        "md",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(published-2023 policy)"), "{out:.400}");
    assert!(
        out.contains("| -4 |"),
        "the doubly counted benchmarks' abstained: {out:.2000}"
    );
    let (code, _, err) = with(&["--year", "2025", "--policy", "published-2023"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("applies to the 2023 rules only, not to the 2025 rules"),
        "{err}"
    );
    let (code, _, err) = smtcomp(&[
        "--year",
        "2023",
        "report",
        "--track",
        "Cloud",
        "--runs",
        &runs,
        "--inventory",
        &inv,
        "--submissions",
        &subs,
        "--policy",
        "published-2023",
        "-o",
        "/nonexistent/site",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.to_string().contains("report does not apply it"),
        "{err}"
    );
}
