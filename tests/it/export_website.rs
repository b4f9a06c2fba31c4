//! `smtcomp export website`: the organizers' Hugo files for the 2025 Incremental
//! and Parallel tracks (published-2025 policy), checked number by number against
//! the tables published on their pages (`tests/data/scoring/published-2025-*.json`,
//! scraped from the pages the organizers built), and the page sets must be equal:
//! no published page missing, none exported that was not published.
//!
//! Scraping conventions (as in `scoring_replay`): an absent table is empty; CPU
//! and wall scores are shown with 2 decimals; best-overall rows have their
//! columns shifted (`solver` holds the contribution, rounded to 6 digits).

use crate::support::{python_fmt6 as fmt6, root};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn export(out: &Path, track: &str, results: &str) {
    let o = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["export", "website"])
        .arg(out)
        .args([
            "--track",
            track,
            "--policy",
            "published-2025",
            "--date",
            "2025-08-11",
        ])
        .arg("--runs")
        .arg(root().join("tests/data/scoring").join(results))
        .arg("--inventory")
        .arg(root().join("tests/data/benchmarks-2025.json.gz"))
        .arg("--submissions")
        .arg(root().join("tests/data/submissions-2025"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Published winner label -> our page's winner key.
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

/// Published table key -> our page's kind key.
fn kind_key(k: &str) -> &str {
    if k == "sequential" { "sequential" } else { k }
}

fn check(mismatches: &mut Vec<String>, compared: &mut usize, what: String, ok: bool) {
    *compared += 1;
    if !ok {
        mismatches.push(what);
    }
}

fn replay(track: &str, suffix: &str, results: &str, published: &str) {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), track, results);
    let pages_dir = dir.path().join("content/results");
    let published: Value = read(&root().join("tests/data/scoring").join(published));
    let published = published.as_object().unwrap();
    let files: Vec<String> = std::fs::read_dir(&pages_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let ours: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.strip_suffix(".md"))
        .map(str::to_string)
        .collect();
    // Every division and logic page links to its chart page ("Chart"): one
    // `<page>-chart.html` each (front matter, then inline SVG plots).
    let charts: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.strip_suffix("-chart.html"))
        .map(str::to_string)
        .collect();
    let result_pages: BTreeSet<String> = ours
        .iter()
        .filter(|p| read(&pages_dir.join(format!("{p}.md")))["layout"] == "result")
        .cloned()
        .collect();
    assert_eq!(charts, result_pages, "a chart page per result page");
    assert_eq!(files.len(), ours.len() + charts.len(), "{files:?}");
    for c in &charts {
        let text = std::fs::read_to_string(pages_dir.join(format!("{c}-chart.html"))).unwrap();
        assert!(
            text.starts_with("---\nlayout: chart\ntitle: \"Chart for ")
                && text.contains("\n---\n<svg "),
            "{c}: {}",
            &text[..text.len().min(200)]
        );
    }
    let theirs: BTreeSet<String> = published.keys().cloned().collect();
    assert_eq!(
        ours, theirs,
        "exported pages (left) differ from the published pages (right)"
    );
    let (mut bad, mut n) = (Vec::new(), 0usize);
    for (name, p) in published {
        let page = read(&pages_dir.join(format!("{name}.md")));
        if !name.starts_with("results-") {
            // Every page the theme dates ("generated on") has the date, and
            // a winner key per kind: the theme draws a winners column per key,
            // so a missing one shifts the others (best-overall-parallel did).
            assert_eq!(page["resultdate"].as_str(), Some("2025-08-11"), "{name}");
            for k in ["seq", "par", "sat", "unsat", "24s"] {
                assert!(
                    page[format!("winner_{k}")].is_string(),
                    "{name}: winner_{k}"
                );
            }
        }
        if page["layout"] == "result" {
            // Their one memory limit on every track (the site prints "30720 GB").
            assert_eq!(page["mem_limit"], 30720, "{name}");
        }
        if name.starts_with("best-overall") {
            for (k, rows) in p["tables"].as_object().unwrap() {
                let mut pub_rows: Vec<(String, String)> = rows
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r["Division"].as_str().unwrap().into(),
                            r["solver"].as_str().unwrap().into(),
                        )
                    })
                    .collect();
                let mut our_rows: Vec<(String, String)> = page[kind_key(k)]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r["division"].as_str().unwrap().into(),
                            fmt6(r["contribution"].as_f64().unwrap()),
                        )
                    })
                    .collect();
                pub_rows.sort();
                our_rows.sort();
                check(
                    &mut bad,
                    &mut n,
                    format!("{name}/{k}: {our_rows:?} vs {pub_rows:?}"),
                    pub_rows == our_rows,
                );
            }
            // Winners are shown as "name (score)", "—" without a winner.
            for (label, w) in p["winners"].as_object().unwrap() {
                let key = winner_key(label);
                // Parallel/Cloud pages have no sequential kind: no winner key, shown "—".
                let ours = match page[key].as_str().unwrap_or("-") {
                    "-" => "—".to_string(),
                    name => format!(
                        "{name} ({})",
                        fmt6(page[format!("{key}_score")].as_f64().unwrap())
                    ),
                };
                check(
                    &mut bad,
                    &mut n,
                    format!("{name}: {label} {ours} vs {w}"),
                    w == ours.as_str(),
                );
            }
            continue;
        }
        if name.starts_with("biggest-lead") || name.starts_with("largest-contribution") {
            for (k, rows) in p["tables"].as_object().unwrap() {
                let rows = rows.as_array().unwrap();
                let our = page[kind_key(k)].as_array().unwrap();
                check(
                    &mut bad,
                    &mut n,
                    format!("{name}/{k}: {} rows vs {}", our.len(), rows.len()),
                    our.len() == rows.len(),
                );
                for (o, r) in our.iter().zip(rows) {
                    let ctx = format!("{name}/{k}/{}", r["solver"]);
                    check(
                        &mut bad,
                        &mut n,
                        format!("{ctx}: solver {}", o["name"]),
                        o["name"] == r["solver"],
                    );
                    check(
                        &mut bad,
                        &mut n,
                        format!("{ctx}: division {}", o["division"]),
                        o["division"] == r["Division"],
                    );
                    for (ours, theirs) in [("correctScore", "correct"), ("timeScore", "Time Score")]
                    {
                        let (a, b) = (o[ours].as_f64().unwrap(), r[theirs].as_f64().unwrap());
                        check(
                            &mut bad,
                            &mut n,
                            format!("{ctx}: {ours} {a} vs {b}"),
                            (a - b).abs() <= 1.5e-6,
                        );
                    }
                }
            }
            for (label, w) in p["winners"].as_object().unwrap() {
                check(
                    &mut bad,
                    &mut n,
                    format!("{name}: {label} {} vs {w}", page[winner_key(label)]),
                    page[winner_key(label)].as_str().unwrap_or("-") == w,
                );
            }
            continue;
        }
        if name.starts_with("results-") {
            // The summary: every division page with logics, its winners as on that page.
            assert_eq!(page["layout"], "results_summary");
            assert_eq!(page["track"], format!("track_{}", suffix.replace('-', "_")));
            let divs = page["divisions"].as_array().unwrap();
            assert!(!divs.is_empty());
            let names: Vec<&str> = divs
                .iter()
                .map(|d| d["division"].as_str().unwrap())
                .collect();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(names, sorted, "summary divisions sorted");
            for d in divs {
                let file = format!(
                    "{}-{suffix}",
                    d["division"].as_str().unwrap().to_lowercase()
                );
                let own = read(&pages_dir.join(format!("{file}.md")));
                check(
                    &mut bad,
                    &mut n,
                    format!("{name}: {file} as on its page"),
                    &own == d,
                );
            }
            continue;
        }
        // A division or logic page.
        check(
            &mut bad,
            &mut n,
            format!(
                "{name}: n_benchmarks {} vs {}",
                page["n_benchmarks"], p["benchmarks"]
            ),
            page["n_benchmarks"] == p["benchmarks"],
        );
        check(
            &mut bad,
            &mut n,
            format!("{name}: is_competitive"),
            page["is_competitive"].as_bool() == p["non_competitive"].as_bool().map(|x| !x),
        );
        for (k, rows) in p["tables"].as_object().unwrap() {
            let rows = rows.as_array().unwrap();
            let our = page[kind_key(k)].as_array().unwrap();
            check(
                &mut bad,
                &mut n,
                format!("{name}/{k}: {} rows vs {}", our.len(), rows.len()),
                our.len() == rows.len(),
            );
            for (o, r) in our.iter().zip(rows) {
                let ctx = format!("{name}/{k}/{}", r["solver"]);
                check(
                    &mut bad,
                    &mut n,
                    format!("{ctx}: name {}", o["name"]),
                    o["name"] == r["solver"],
                );
                let competing = if r["competing"].as_bool() == Some(true) {
                    "yes"
                } else {
                    "no"
                };
                check(
                    &mut bad,
                    &mut n,
                    format!("{ctx}: competing {}", o["competing"]),
                    o["competing"] == competing,
                );
                for (ours, theirs) in [
                    ("errorScore", "error"),
                    ("correctScore", "correct"),
                    ("solved", "solved"),
                    ("solved_sat", "solved_sat"),
                    ("solved_unsat", "solved_unsat"),
                    ("unsolved", "unsolved"),
                    ("abstained", "abstained"),
                    ("timeout", "timeout"),
                    ("memout", "memout"),
                ] {
                    if r[theirs].is_null() {
                        continue; // column not shown on this track's pages
                    }
                    check(
                        &mut bad,
                        &mut n,
                        format!("{ctx}: {ours} {} vs {}", o[ours], r[theirs]),
                        o[ours].as_i64() == r[theirs].as_i64(),
                    );
                }
                for (ours, theirs) in [("CPUScore", "cpu"), ("WallScore", "wall")] {
                    let (a, b) = (o[ours].as_f64().unwrap(), r[theirs].as_f64().unwrap());
                    check(
                        &mut bad,
                        &mut n,
                        format!("{ctx}: {ours} {a} vs {b}"),
                        (a - b).abs() <= 0.0051,
                    );
                }
            }
        }
        for (label, w) in p["winners"].as_object().unwrap() {
            check(
                &mut bad,
                &mut n,
                format!("{name}: {label} {} vs {w}", page[winner_key(label)]),
                &page[winner_key(label)] == w,
            );
        }
    }
    assert!(n > 1000, "only {n} values compared");
    assert!(
        bad.is_empty(),
        "{} of {n} values differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    eprintln!("{track}: {n} published values equal in the exported website files");
    // The data files.
    let tracks = read(&dir.path().join("data/tracks.json"));
    assert_eq!(
        tracks,
        serde_json::json!([
            "Cloud",
            "Incremental",
            "ModelValidation",
            "Parallel",
            "SingleQuery",
            "UnsatCore"
        ])
    );
    let dt = read(&dir.path().join("data/division_tracks.json"));
    let qf_bitvec = dt
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e[0] == "QF_Bitvec")
        .unwrap();
    for t in ["Incremental", "Parallel", "SingleQuery", "UnsatCore"] {
        assert!(
            qf_bitvec[1].as_array().unwrap().iter().any(|x| x == t),
            "QF_Bitvec in {t}: {qf_bitvec}"
        );
    }
    let participants = read(&dir.path().join("data/participants.json"));
    let participants = participants.as_array().unwrap();
    assert!(
        participants.len() >= 40,
        "{} participants",
        participants.len()
    );
    let cvc5 = participants.iter().find(|p| p["name"] == "cvc5").unwrap();
    assert_eq!(cvc5["competitive"], true);
    assert!(
        cvc5["tracks"]["SingleQuery"]["QF_Bitvec"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "QF_BV")
    );
}

#[test]
fn incremental_website_files_reproduce_the_published_pages() {
    replay(
        "Incremental",
        "incremental",
        "results-inc-2025.json.gz",
        "published-2025-incremental.json",
    );
}

#[test]
fn parallel_website_files_reproduce_the_published_pages() {
    replay(
        "Parallel",
        "parallel",
        "results-parallel-2025.json.gz",
        "published-2025-parallel.json",
    );
}

#[test]
fn export_website_fails_without_writing_on_unknown_solvers() {
    let dir = tempfile::tempdir().unwrap();
    let subs = tempfile::tempdir().unwrap();
    // Only one submission: the runs of every other solver are unknown.
    std::fs::copy(
        root().join("tests/data/submissions-2025/cvc5.json"),
        subs.path().join("cvc5.json"),
    )
    .unwrap();
    let o = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["export", "website"])
        .arg(dir.path().join("web"))
        .args(["--track", "Parallel", "--runs"])
        .arg(root().join("tests/data/scoring/results-parallel-2025.json.gz"))
        .arg("--inventory")
        .arg(root().join("tests/data/benchmarks-2025.json.gz"))
        .arg("--submissions")
        .arg(subs.path())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("runs of solvers that no submission names")
    );
    assert!(
        !dir.path().join("web").exists(),
        "nothing written on failure"
    );
}

/// The fields of the organizers' page models (their `generate_website_page.py`:
/// `PodiumDivision`, `PodiumBestOverall`, `PodiumBiggestLead`,
/// `PodiumLargestContribution`, `PodiumSummaryResults`), written down from
/// their source: every exported page has each field of its model, with its
/// JSON type (s: string, i: integer, n: number, b: bool, l: list, o: object).
const MODELS: &[(&str, &str)] = &[
    (
        "result",
        "resultdate:s year:i divisions:s participants:s disagreements:s division:s \
         is_competitive:b track:s n_benchmarks:i time_limit:i mem_limit:i logics:o \
         winner_seq:s winner_par:s winner_sat:s winner_unsat:s winner_24s:s sequential:l \
         parallel:l sat:l unsat:l twentyfour:l layout:s",
    ),
    (
        "best_overall",
        "resultdate:s year:i results:s participants:s track:s recognition:s winner_seq:s \
         winner_par:s winner_sat:s winner_unsat:s winner_24s:s winner_seq_score:n \
         winner_par_score:n winner_sat_score:n winner_unsat_score:n winner_24s_score:n \
         sequential:l parallel:l sat:l unsat:l twentyfour:l layout:s",
    ),
    (
        "biggest_lead",
        "resultdate:s year:i results:s participants:s track:s recognition:s winner_seq:s \
         winner_par:s winner_sat:s winner_unsat:s winner_24s:s sequential:l parallel:l sat:l \
         unsat:l twentyfour:l layout:s",
    ),
    (
        "largest_contribution",
        "resultdate:s year:i results:s participants:s track:s recognition:s winner_seq:s \
         winner_par:s winner_sat:s winner_unsat:s winner_24s:s sequential:l parallel:l sat:l \
         unsat:l twentyfour:l layout:s",
    ),
    ("results_summary", "track:s divisions:l layout:s"),
];

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "s" => v.is_string(),
        "i" => v.is_i64() || v.is_u64(),
        "n" => v.is_number(),
        "b" => v.is_boolean(),
        "l" => v.is_array(),
        "o" => v.is_object(),
        _ => false,
    }
}

#[test]
fn every_exported_page_has_the_fields_of_the_organizers_page_model() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), "Parallel", "results-parallel-2025.json.gz");
    let pages = dir.path().join("content/results");
    let mut checked = 0;
    for e in std::fs::read_dir(&pages).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let page = read(&path);
        let model = page["recognition"]
            .as_str()
            .or(page["layout"].as_str())
            .unwrap();
        let fields = MODELS
            .iter()
            .find(|(m, _)| *m == model)
            .unwrap_or_else(|| panic!("{}: no model {model}", path.display()))
            .1;
        for f in fields.split_whitespace() {
            let (key, t) = f.split_once(':').unwrap();
            assert!(
                has_type(&page[key], t),
                "{}: {key} should be of type {t}: {}",
                path.display(),
                page[key]
            );
        }
        // A summary's divisions are division pages of the same model.
        for d in page["divisions"].as_array().into_iter().flatten() {
            assert_eq!(d["layout"], "result");
            assert!(has_type(&d["mem_limit"], "i") && has_type(&d["logics"], "o"));
        }
        checked += 1;
    }
    assert_eq!(checked, 25, "the 2025 Parallel pages");
}
