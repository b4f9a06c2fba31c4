//! Outputs: JSON in the shape of the organizers' website data (`PodiumDivision`,
//! `PodiumStep` and the recognition pages, anchor spec 9.1), CSV and Markdown.
//! Floats are rounded to 6 decimals; every list is in a fixed order.

use super::TrackScores;
use super::division::{GroupScores, Kind, Podium};
use crate::model::Track;
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// Rounds to 6 decimals (the website data's precision).
pub fn r6(x: f64) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    let r = (x * 1e6).round() / 1e6;
    if r == 0.0 { 0.0 } else { r }
}

/// Hugo's track name (`track_single_query`, ...).
pub fn hugo_track(track: Track) -> String {
    format!("track_{}", track.page_suffix().replace('-', "_"))
}

/// The page file stem of a group (`qf_bitvec-parallel`).
pub fn page_name(g: &GroupScores, track: Track) -> String {
    format!("{}-{}", g.identifier.to_lowercase(), track.page_suffix())
}

fn steps_json(p: &Podium) -> Value {
    let steps: Vec<Value> = p
        .steps
        .iter()
        .map(|s| {
            let base = s
                .base
                .as_ref()
                .and_then(|b| p.steps.iter().find(|x| &x.solver == b));
            json!({
                "name": s.solver,
                "baseSolver": s.base.clone().unwrap_or_default(),
                "deltaBaseSolver": base.map_or(0, |b| s.n - b.n),
                "competing": if s.competitive { "yes" } else { "no" },
                "errorScore": s.e,
                "correctScore": s.n,
                "CPUScore": r6(s.c),
                "WallScore": r6(s.w),
                "solved": s.solved,
                "solved_sat": s.solved_sat,
                "solved_unsat": s.solved_unsat,
                "unsolved": s.unsolved,
                "abstained": s.abstained,
                "timeout": s.timeout,
                "memout": s.memout,
            })
        })
        .collect();
    Value::Array(steps)
}

/// The `mem_limit` of a page, which the site prints followed by "GB". The
/// organizers' tool wrote its one memory limit in MB on every track's pages:
/// 30720 in 2025, 20480 in 2024 (shown as "30720 GB", also on the Parallel
/// pages, whose limit is 1000 GB); the published policies reproduce that,
/// every other policy writes the track's own limit in GB.
pub fn page_mem_limit(policy: &str, track_mem_mb: u64) -> u64 {
    match policy {
        "published-2025" => 30 * 1024,
        super::editions::p2024::NAME => 20 * 1024,
        _ => track_mem_mb / 1024,
    }
}

/// One page in the `PodiumDivision` shape (plus `ranking` and `nameTies`, which
/// say which order and tie rule were used).
pub fn podium_division(
    scores: &TrackScores,
    g: &GroupScores,
    time_limit: u64,
    mem_mb: u64,
    year: u16,
) -> Value {
    let mut m = Map::new();
    m.insert("layout".into(), json!("result"));
    m.insert("resultdate".into(), json!(format!("{year}")));
    m.insert("year".into(), json!(year));
    m.insert("divisions".into(), json!(format!("divisions_{year}")));
    m.insert("participants".into(), json!(format!("participants_{year}")));
    m.insert(
        "disagreements".into(),
        json!(format!("disagreements_{year}")),
    );
    m.insert("division".into(), json!(g.identifier));
    m.insert("is_competitive".into(), json!(g.competitive));
    m.insert("track".into(), json!(hugo_track(scores.track)));
    m.insert("n_benchmarks".into(), json!(g.n_benchmarks));
    m.insert("time_limit".into(), json!(time_limit));
    m.insert(
        "mem_limit".into(),
        json!(page_mem_limit(&scores.policy, mem_mb)),
    );
    m.insert("logics".into(), json!(g.logics));
    for k in Kind::ALL {
        let w = g
            .podium(k)
            .and_then(|p| p.winner.clone())
            .unwrap_or_else(|| "-".into());
        m.insert(k.winner_key().into(), json!(w));
    }
    for k in Kind::ALL {
        m.insert(k.key().into(), g.podium(k).map_or(json!([]), steps_json));
    }
    let mut ranking = Map::new();
    let mut ties = Map::new();
    for p in &g.podiums {
        ranking.insert(p.kind.key().into(), json!(p.ranking));
        if !p.name_ties.is_empty() {
            ties.insert(p.kind.key().into(), json!(p.name_ties));
        }
    }
    m.insert("ranking".into(), Value::Object(ranking));
    m.insert("nameTies".into(), Value::Object(ties));
    Value::Object(m)
}

/// Every page and recognition: `{page name: data}`, sorted by name.
pub fn pages(scores: &TrackScores, time_limit: u64, mem_mb: u64, year: u16) -> Map<String, Value> {
    let suffix = scores.track.page_suffix();
    let mut out = Map::new();
    let mut names: Vec<(String, Value)> = scores
        .groups
        .iter()
        .map(|g| {
            (
                page_name(g, scores.track),
                podium_division(scores, g, time_limit, mem_mb, year),
            )
        })
        .collect();
    let track = hugo_track(scores.track);
    let mut best = recognition_page("best_overall", &track, year);
    for k in Kind::ALL {
        best.insert(format!("{}_score", k.winner_key()), json!(0.0));
    }
    for o in &scores.best_overall {
        let w = o
            .winner
            .as_ref()
            .map_or("-".to_string(), |w| w.solver.clone());
        best.insert(o.kind.winner_key().into(), json!(w));
        best.insert(
            format!("{}_score", o.kind.winner_key()),
            json!(o.winner.as_ref().map_or(0.0, |w| r6(w.score))),
        );
        let list: Vec<Value> = o
            .entries
            .iter()
            .map(|e| {
                json!({"name": e.solver, "contribution": r6(e.contribution),
                "division": e.division.replace('+', "_"), "tieBreakTimeScore": r6(e.time)})
            })
            .collect();
        best.insert(o.kind.key().into(), Value::Array(list));
    }
    // Editions without the recognition (2023) have no best-overall entries: no page.
    if !scores.best_overall.is_empty() {
        names.push((format!("best-overall-{suffix}"), Value::Object(best)));
    }
    let mut lead = recognition_page("biggest_lead", &track, year);
    for l in &scores.biggest_lead {
        lead.insert(
            l.kind.winner_key().into(),
            json!(l.winner.clone().unwrap_or("-".into())),
        );
        let list: Vec<Value> = l
            .entries
            .iter()
            .map(|e| {
                json!({"name": e.solver, "second": e.second, "correctScore": r6(e.correct_rank),
                "timeScore": r6(e.time_rank), "division": e.division.replace('+', "_")})
            })
            .collect();
        lead.insert(l.kind.key().into(), Value::Array(list));
    }
    names.push((format!("biggest-lead-{suffix}"), Value::Object(lead)));
    let mut lc = recognition_page("largest_contribution", &track, year);
    for l in &scores.largest_contribution {
        lc.insert(
            l.kind.winner_key().into(),
            json!(l.winner.clone().unwrap_or("-".into())),
        );
        let list: Vec<Value> = l
            .entries
            .iter()
            .map(|e| {
                json!({"name": e.solver, "correctScore": r6(e.correct_rank),
                "timeScore": r6(e.time_rank), "division": e.division.replace('+', "_"),
                "experimental": "false"})
            })
            .collect();
        lc.insert(l.kind.key().into(), Value::Array(list));
    }
    names.push((format!("largest-contribution-{suffix}"), Value::Object(lc)));
    names.sort_by(|a, b| a.0.cmp(&b.0));
    for (n, v) in names {
        out.insert(n, v);
    }
    out
}

/// CSV: one line per (page, kind, solver), rank order.
pub fn csv(scores: &TrackScores) -> String {
    let mut s = String::from(
        "page,division,is_division,kind,rank,solver,competing,error,correct,cpu,wall,solved,solved_sat,solved_unsat,unsolved,abstained,timeout,memout,winner\n",
    );
    for g in &scores.groups {
        for p in &g.podiums {
            for (i, st) in p.steps.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{:.6},{:.6},{},{},{},{},{},{},{},{}",
                    page_name(g, scores.track),
                    g.division,
                    g.is_division,
                    p.kind.key(),
                    i + 1,
                    st.solver,
                    st.competitive,
                    st.e,
                    st.n,
                    r6(st.c),
                    r6(st.w),
                    st.solved,
                    st.solved_sat,
                    st.solved_unsat,
                    st.unsolved,
                    st.abstained,
                    st.timeout,
                    st.memout,
                    p.winner.as_deref() == Some(st.solver.as_str()),
                );
            }
        }
    }
    s
}

/// Markdown tables for the terminal (division pages; logic pages too if `logics`).
pub fn markdown(scores: &TrackScores, logics: bool) -> String {
    let mut s = format!("# {} ({} policy)\n", scores.track, scores.policy);
    for g in scores.groups.iter().filter(|g| logics || g.is_division) {
        let _ = writeln!(
            s,
            "\n## {} {} ({} benchmarks{})",
            if g.is_division { "Division" } else { "Logic" },
            g.name,
            g.n_benchmarks,
            if g.competitive {
                ""
            } else {
                ", non-competitive"
            }
        );
        for p in &g.podiums {
            let _ = writeln!(
                s,
                "\n### {} (winner: {}; order: {})\n\n| # | solver | error | correct | CPU | wall | solved | unsolved | abstained | timeout | memout |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                p.kind.key(),
                p.winner.as_deref().unwrap_or("-"),
                p.ranking
            );
            for (i, st) in p.steps.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "| {} | {}{} | {} | {} | {:.2} | {:.2} | {} | {} | {} | {} | {} |",
                    i + 1,
                    st.solver,
                    if st.competitive { "" } else { " (n)" },
                    st.e,
                    st.n,
                    st.c,
                    st.w,
                    st.solved,
                    st.unsolved,
                    st.abstained,
                    st.timeout,
                    st.memout
                );
            }
        }
    }
    for o in &scores.best_overall {
        let _ = writeln!(
            s,
            "\nBest overall ({}): {}",
            o.kind.key(),
            o.winner
                .as_ref()
                .map_or("-".into(), |w| format!("{} ({:.6})", w.solver, w.score))
        );
    }
    for l in &scores.biggest_lead {
        let _ = writeln!(
            s,
            "Biggest lead ({}): {}",
            l.kind.key(),
            l.winner.as_deref().unwrap_or("-")
        );
    }
    for l in &scores.largest_contribution {
        let _ = writeln!(
            s,
            "Largest contribution ({}): {}",
            l.kind.key(),
            l.winner.as_deref().unwrap_or("-")
        );
    }
    s
}

/// The common head of a recognition page (`result_comp` layout), with every
/// key the organizers' pages have (`PodiumBestOverall`, `PodiumBiggestLead`,
/// `PodiumLargestContribution`): a kind not computed has the winner "-" and
/// an empty list (the theme draws a column per winner key, so a missing one
/// shifts the others).
fn recognition_page(recognition: &str, track: &str, year: u16) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("layout".into(), json!("result_comp"));
    m.insert("recognition".into(), json!(recognition));
    m.insert("track".into(), json!(track));
    m.insert("resultdate".into(), json!(format!("{year}")));
    m.insert("year".into(), json!(year));
    m.insert("results".into(), json!(format!("results_{year}")));
    m.insert("participants".into(), json!(format!("participants_{year}")));
    for k in Kind::ALL {
        m.insert(k.winner_key().into(), json!("-"));
        m.insert(k.key().into(), json!([]));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_limit_is_their_constant_when_published_else_the_tracks_in_gb() {
        // The site prints the value followed by "GB".
        assert_eq!(page_mem_limit("published-2025", 1_024_000), 30720);
        assert_eq!(page_mem_limit("published-2024", 1_024_000), 20480);
        assert_eq!(page_mem_limit("rules", 1_024_000), 1000);
        assert_eq!(page_mem_limit("rules", 30720), 30);
    }
}
