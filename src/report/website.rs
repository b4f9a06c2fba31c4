//! The files the organizers' Hugo site (SMT-COMP/smt-comp.github.io) builds its
//! results and participants pages from, in the format their tool writes:
//!
//! * `content/results/<page>.md`: one JSON document per page (Hugo reads JSON
//!   front matter): the division and logic pages (`layout: result`), the three
//!   recognitions (`layout: result_comp`) and the track summary
//!   `results-<track>.md` (`layout: results_summary`: every division page that
//!   has logics, sorted by division), as `export-results-pages` writes them;
//! * `data/tracks.json`: the track names but Proof Exhibition, sorted
//!   (`export-tracks`);
//! * `data/division_tracks.json`: `[division, [tracks]]` pairs, sorted
//!   (`export-division-tracks`);
//! * `data/participants.json`: one summary per submission (`show-json`);
//! * `content/results/<page>-chart.html`: the chart page each result page
//!   links to ([`chart_pages`]).

use crate::model::{Competition, Track};
use crate::scoring::{ScoringInput, TrackScores, output};
use crate::submission::LoadedSubmission;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The results pages of one track: `(page name, document)`, page names as the
/// organizers' (`qf_bv-incremental`, `best-overall-incremental`,
/// `results-incremental`, ...), sorted by name. `date` is every page's
/// `resultdate` (the year when none is given).
pub fn results_pages(
    scores: &TrackScores,
    time_limit: u64,
    memory_mb: u64,
    year: u16,
    date: Option<&str>,
) -> Vec<(String, Value)> {
    let mut pages = output::pages(scores, time_limit, memory_mb, year);
    if let Some(d) = date {
        for v in pages.values_mut() {
            if let Some(m) = v.as_object_mut() {
                if m.contains_key("resultdate") {
                    m.insert("resultdate".into(), json!(d));
                }
            }
        }
    }
    let summary = results_summary(scores.track, &pages);
    pages.insert(format!("results-{}", scores.track.page_suffix()), summary);
    let mut out: Vec<(String, Value)> = pages.into_iter().collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The chart page of every division and logic page (`<page>-chart.html`, the
/// "Chart" link of each result page): YAML front matter (`layout: chart`, the
/// title the organizers' `generate-website-graphics` writes) and our
/// deterministic SVG plots inline (cactus plot of every solver, scatter plot
/// of the first two), no JavaScript; the organizers' pages draw their
/// interactive charts from the same runs.
pub fn chart_pages(input: &ScoringInput, scores: &TrackScores) -> Vec<(String, String)> {
    let solved = super::data::SolvedIndex::new(input);
    let mut out: Vec<(String, String)> = scores
        .groups
        .iter()
        .map(|g| {
            let title = if g.is_division {
                format!("Chart for division {}", g.identifier)
            } else {
                format!("Chart for logic {}", g.name)
            };
            let s = solved.group(g);
            let mut text = format!(
                "---\nlayout: chart\ntitle: {}\n---\n",
                serde_json::to_string(&title).unwrap_or_default()
            );
            for (_, _, svg) in super::group_plots(input.time_limit, g, &s) {
                text.push_str(&svg);
                text.push('\n');
            }
            (
                format!("{}-chart", output::page_name(g, scores.track)),
                text,
            )
        })
        .collect();
    out.sort();
    out
}

/// The track summary (`results-<track>.md`): every division page (a page with
/// logics) of `pages`, sorted by division name.
pub fn results_summary(track: Track, pages: &Map<String, Value>) -> Value {
    let mut divisions: Vec<&Value> = pages
        .values()
        .filter(|v| {
            v.get("layout").and_then(Value::as_str) == Some("result")
                && v.get("logics")
                    .and_then(Value::as_object)
                    .is_some_and(|l| !l.is_empty())
        })
        .collect();
    divisions.sort_by(|a, b| {
        let key = |v: &Value| v["division"].as_str().unwrap_or_default().to_string();
        key(a).cmp(&key(b))
    });
    json!({
        "track": output::hugo_track(track),
        "divisions": divisions,
        "layout": "results_summary",
    })
}

/// Tracks with results pages: every track of the definition but Proof
/// Exhibition and the internal Unsat Core validation.
fn result_tracks(comp: &Competition) -> impl Iterator<Item = Track> + '_ {
    comp.tracks
        .keys()
        .copied()
        .filter(|t| !matches!(t, Track::ProofExhibition | Track::UnsatCoreValidation))
}

/// `data/tracks.json`: the track names, sorted.
pub fn tracks_data(comp: &Competition) -> Value {
    let mut names: Vec<String> = result_tracks(comp).map(|t| t.to_string()).collect();
    names.sort();
    json!(names)
}

/// `data/division_tracks.json`: `[division, [tracks, sorted]]`, sorted by division.
pub fn division_tracks_data(comp: &Competition) -> Value {
    let mut by_division: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in result_tracks(comp) {
        for d in comp.tracks[&t].divisions.keys() {
            by_division
                .entry(d.to_string())
                .or_default()
                .push(t.to_string());
        }
    }
    Value::Array(
        by_division
            .into_iter()
            .map(|(d, mut ts)| {
                ts.sort();
                json!([d, ts])
            })
            .collect(),
    )
}

/// `data/participants.json`: per readable submission its name, authors,
/// website, archive URL, system description, competitive flag, what it enters
/// (track -> division -> logics) and seed, in file order.
pub fn participants_data(subs: &[LoadedSubmission]) -> Value {
    let list: Vec<Value> = subs
        .iter()
        .filter_map(|l| l.submission.as_ref().map(|s| (l, s)))
        .map(|(l, s)| {
            let tracks: Map<String, Value> = l
                .entries
                .iter()
                .map(|(t, divs)| {
                    let d: Map<String, Value> = divs
                        .iter()
                        .map(|(d, logics)| {
                            let ls: Vec<String> = logics.iter().map(|x| x.to_string()).collect();
                            (d.to_string(), json!(ls))
                        })
                        .collect();
                    (t.to_string(), Value::Object(d))
                })
                .collect();
            json!({
                "name": s.name,
                "authors": s.contributors.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
                "website": url_as_published(&s.website),
                "archive_url": s.archive.as_ref().map(|a| url_as_published(&a.url)).unwrap_or_default(),
                "system_description": url_as_published(&s.system_description),
                "competitive": s.competitive,
                "tracks": tracks,
                "seed": seed_value(s.seed),
            })
        })
        .collect();
    Value::Array(list)
}

/// A URL as the organizers' tool writes it (pydantic's `HttpUrl`): a bare
/// `scheme://host` gets the root path `/` (`https://bitwuzla.github.io` ->
/// `https://bitwuzla.github.io/`); anything else is kept as given.
pub fn url_as_published(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest))
            if !scheme.is_empty()
                && !rest.is_empty()
                && !rest.contains(['/', '?', '#'])
                && (scheme == "http" || scheme == "https") =>
        {
            format!("{url}/")
        }
        _ => url.to_string(),
    }
}

/// A seed as a JSON number (as a string beyond 64 bits, where JSON numbers stop).
fn seed_value(seed: Option<i128>) -> Value {
    match seed {
        None => Value::Null,
        Some(x) => i64::try_from(x)
            .map(Value::from)
            .unwrap_or_else(|_| Value::String(x.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_host_gets_the_root_path_as_pydantic_writes_it() {
        assert_eq!(
            url_as_published("https://bitwuzla.github.io"),
            "https://bitwuzla.github.io/"
        );
        for kept in [
            "https://bitwuzla.github.io/",
            "https://github.com/z3prover/z3",
            "https://example.org?x=1",
            "file:///tmp/solver.tar.gz",
            "",
            "not a url",
        ] {
            assert_eq!(url_as_published(kept), kept);
        }
    }
}
