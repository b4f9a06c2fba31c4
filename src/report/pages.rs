//! The HTML pages: site index, track index, division and logic pages, and the
//! three ranking pages (best overall, biggest lead, largest contribution).

use super::files::{benchmarks_file, group_file};
use super::html::{dec2, esc, page, table};
use super::nav::{Here, RANKINGS, track_nav};
use super::{SiteMeta, TrackReport};
use crate::proof::ProofVerdict;
use crate::scoring::editions::e2023::{PROOF_STATS, ProofLine};
use crate::scoring::{GroupScores, Kind, Podium};
use std::fmt::Write;

/// Human name of a kind.
pub fn kind_title(k: Kind) -> &'static str {
    match k {
        Kind::Sequential => "Sequential performance",
        Kind::Parallel => "Parallel performance",
        Kind::Sat => "SAT performance",
        Kind::Unsat => "UNSAT performance",
        Kind::TwentyFour => "24 seconds performance",
    }
}

/// The rank shown for step `i` of a podium: competitive solvers are ranked,
/// non-competing ones show `-`.
pub fn rank_label(p: &Podium, i: usize) -> String {
    if p.steps[i].competitive {
        (p.steps[..i].iter().filter(|s| s.competitive).count() + 1).to_string()
    } else {
        "-".into()
    }
}

/// Header of the per-kind score tables (shared with `xsl/scores.xsl`).
pub const SCORE_HEAD: [&str; 14] = [
    "Rank",
    "Solver",
    "Competing",
    "Errors",
    "Correct",
    "Wall (s)",
    "CPU (s)",
    "Solved",
    "Sat",
    "Unsat",
    "Unsolved",
    "Abstained",
    "Timeout",
    "Memout",
];

/// The per-kind score table of a group page.
pub fn score_table(g: &GroupScores, p: &Podium) -> String {
    let rows: Vec<(String, Vec<String>)> = p
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let class = if s.competitive { "" } else { "noncompeting" };
            (
                class.to_string(),
                vec![
                    rank_label(p, i),
                    esc(&s.solver),
                    if s.competitive { "yes" } else { "no" }.to_string(),
                    s.e.to_string(),
                    s.n.to_string(),
                    dec2(s.w),
                    dec2(s.c),
                    s.solved.to_string(),
                    s.solved_sat.to_string(),
                    s.solved_unsat.to_string(),
                    s.unsolved.to_string(),
                    s.abstained.to_string(),
                    s.timeout.to_string(),
                    s.memout.to_string(),
                ],
            )
        })
        .collect();
    let attrs = format!(
        " class=\"scores\" data-page=\"{}\" data-group=\"{}\" data-kind=\"{}\"",
        if g.is_division { "division" } else { "logic" },
        esc(&g.identifier),
        p.kind.key()
    );
    table(&attrs, &SCORE_HEAD, &rows)
}

fn badges(g: &GroupScores) -> String {
    let mut s = String::new();
    if g.competitive {
        s.push_str("<span class=\"badge ok\">competitive</span>");
    } else {
        s.push_str("<span class=\"badge\">non-competitive</span>");
    }
    if g.experimental {
        s.push_str("<span class=\"badge\">experimental</span>");
    }
    s
}

/// A division or logic page. `plots`: the cactus and scatter SVG file names
/// (relative to the page) with their alt texts.
pub fn group_page(
    meta: &SiteMeta,
    r: &TrackReport,
    g: &GroupScores,
    plots: &[(String, String)],
) -> String {
    let track = r.scores.track;
    let what = if g.is_division { "Division" } else { "Logic" };
    let title = format!("{what} {} - {track} track", g.name);
    let mut b = format!("<h1>{} {}</h1>\n", esc(&title), badges(g));
    let _ = writeln!(
        b,
        "<p><a href=\"index.html\">{} track</a> | benchmarks: <b>{}</b> | time limit: {} s | memory limit: {} MB | policy: {}</p>",
        esc(&track.to_string()),
        g.n_benchmarks,
        dec_limit(r.input.time_limit),
        r.input.memory_mb,
        esc(&r.scores.policy)
    );
    if g.is_division && !g.logics.is_empty() {
        b.push_str("<p>Logics: ");
        for (i, (l, n)) in g.logics.iter().enumerate() {
            if i > 0 {
                b.push_str(", ");
            }
            let link = r.scores.group(l, false).map(group_file);
            match link {
                Some(f) => {
                    let _ = write!(b, "<a href=\"{}\">{}</a> ({n})", esc(&f), esc(l));
                }
                None => {
                    let _ = write!(b, "{} ({n})", esc(l));
                }
            }
        }
        b.push_str("</p>\n");
        b.push_str("<p>Per-benchmark tables (answer and time of every solver): ");
        let mut any = false;
        for l in g.logics.keys() {
            if let Some(lg) = r.scores.group(l, false) {
                let _ = write!(
                    b,
                    "<a href=\"{}\">{}</a> ",
                    esc(&benchmarks_file(lg, 0)),
                    esc(l)
                );
                any = true;
            }
        }
        if !any {
            b.push_str("none (no runs)");
        }
        b.push_str("</p>\n");
    } else if !g.is_division {
        if let Some(d) = r.scores.group(&g.division, true) {
            let _ = writeln!(
                b,
                "<p>Division: <a href=\"{}\">{}</a></p>",
                esc(&group_file(d)),
                esc(&g.division)
            );
        }
        let _ = writeln!(
            b,
            "<p><a href=\"{}\">Per-benchmark table</a> (answer and time of every solver)</p>",
            esc(&benchmarks_file(g, 0))
        );
    }
    b.push_str("<h2>Winners</h2>\n");
    let rows: Vec<(String, Vec<String>)> = g
        .podiums
        .iter()
        .map(|p| {
            (
                String::new(),
                vec![
                    esc(kind_title(p.kind)),
                    p.winner.as_ref().map_or("-".into(), |w| {
                        format!("<span class=\"winner\">{}</span>", esc(w))
                    }),
                ],
            )
        })
        .collect();
    b.push_str(&table(" class=\"winners\"", &["Kind", "Winner"], &rows));
    if !g.competitive {
        b.push_str(
            "<p class=\"muted\">Non-competitive: no winner is declared (rules section 6).</p>\n",
        );
    }
    for p in &g.podiums {
        let _ = writeln!(
            b,
            "<h2 id=\"{}\">{}</h2>",
            p.kind.key(),
            esc(kind_title(p.kind))
        );
        b.push_str(&score_table(g, p));
        let _ = writeln!(b, "<p class=\"muted\">Order: {}</p>", esc(p.ranking));
        if !p.name_ties.is_empty() {
            let ties: Vec<String> = p
                .name_ties
                .iter()
                .map(|(a, c)| format!("{} = {}", esc(a), esc(c)))
                .collect();
            let _ = writeln!(
                b,
                "<p class=\"muted\">Ties broken by name: {}</p>",
                ties.join("; ")
            );
        }
    }
    disagreements(r, g, &mut b);
    if !plots.is_empty() {
        b.push_str("<h2>Plots</h2>\n<div class=\"plots\">\n");
        for (file, alt) in plots {
            let _ = writeln!(b, "<img src=\"{}\" alt=\"{}\" />", esc(file), esc(alt));
        }
        b.push_str("</div>\n");
    }
    page(meta, &title, "../", &track_nav(r, Here::Group(g)), &b)
}

fn dec_limit(t: f64) -> String {
    if t.fract() == 0.0 && t.is_finite() {
        format!("{}", t as i64)
    } else {
        dec2(t)
    }
}

fn disagreements(r: &TrackReport, g: &GroupScores, b: &mut String) {
    let logic_prefix = format!("/{}/", g.name);
    let ds: Vec<_> = r
        .scores
        .disagreements
        .iter()
        .filter(|d| d.division == g.division && (g.is_division || d.file.contains(&logic_prefix)))
        .collect();
    let unsound: Vec<&String> = r
        .scores
        .unsound
        .iter()
        .filter(|(d, _)| *d == g.division)
        .flat_map(|(_, s)| s)
        .collect();
    b.push_str("<h2>Disagreements</h2>\n");
    if ds.is_empty() {
        b.push_str("<p class=\"muted\">None.</p>\n");
    } else {
        let rows: Vec<(String, Vec<String>)> = ds
            .iter()
            .map(|d| {
                (
                    String::new(),
                    vec![
                        esc(&d.file),
                        esc(&d.sat.join(", ")),
                        esc(&d.unsat.join(", ")),
                    ],
                )
            })
            .collect();
        b.push_str(&table(
            " class=\"disagreements\"",
            &["Benchmark (removed)", "sat", "unsat"],
            &rows,
        ));
    }
    if !unsound.is_empty() {
        let names: Vec<String> = unsound.iter().map(|s| esc(s)).collect();
        let _ = writeln!(
            b,
            "<p>Unsound solvers in this division: {}</p>",
            names.join(", ")
        );
    }
}

/// The index of one track: divisions, logics and the ranking pages.
pub fn track_index(meta: &SiteMeta, r: &TrackReport) -> String {
    let track = r.scores.track;
    let title = format!("{track} track ({})", r.input.year);
    let mut b = format!("<h1>{}</h1>\n", esc(&title));
    let _ = writeln!(
        b,
        "<p>Time limit: {} s | memory limit: {} MB | policy: {}</p>",
        dec_limit(r.input.time_limit),
        r.input.memory_mb,
        esc(&r.scores.policy)
    );
    for (is_div, h) in [(true, "Divisions"), (false, "Logics")] {
        let _ = writeln!(b, "<h2>{h}</h2>");
        let mut head: Vec<&str> = vec![
            if is_div { "Division" } else { "Logic" },
            "Status",
            "Benchmarks",
        ];
        head.extend(r.scores.kinds.iter().map(|&k| kind_title(k)));
        let rows: Vec<(String, Vec<String>)> = r
            .scores
            .groups
            .iter()
            .filter(|g| g.is_division == is_div)
            .map(|g| {
                let mut cells = vec![
                    format!("<a href=\"{}\">{}</a>", esc(&group_file(g)), esc(&g.name)),
                    badges(g),
                    g.n_benchmarks.to_string(),
                ];
                for &k in &r.scores.kinds {
                    cells.push(
                        g.podium(k)
                            .and_then(|p| p.winner.as_deref())
                            .map_or("-".into(), esc),
                    );
                }
                (String::new(), cells)
            })
            .collect();
        b.push_str(&table(" class=\"index\"", &head, &rows));
    }
    if !r.scores.missing.is_empty() {
        b.push_str(
            "<h2>Missing runs</h2>\n<p>Benchmarks of the track without a run of a registered \
             solver, scored as not solved:</p>\n",
        );
        let rows: Vec<(String, Vec<String>)> = r
            .scores
            .missing
            .iter()
            .map(|m| {
                (
                    String::new(),
                    vec![
                        esc(&m.solver),
                        m.count.to_string(),
                        esc(&m.examples.join(", ")),
                    ],
                )
            })
            .collect();
        b.push_str(&table(
            " class=\"missing\"",
            &["Solver", "Benchmarks without a run", "e.g."],
            &rows,
        ));
    }
    let _ = writeln!(
        b,
        "<p>{} disagreement(s) (benchmarks removed), {} division(s) with unsound solvers.</p>",
        r.scores.disagreements.len(),
        r.scores.unsound.len()
    );
    page(meta, &title, "../", &track_nav(r, Here::TrackIndex), &b)
}

/// The best-overall winner of each kind of a track, e.g. `Parallel: cvc5`.
fn overall_winners(r: &TrackReport) -> String {
    let ws: Vec<String> = r
        .scores
        .best_overall
        .iter()
        .map(|o| {
            let w = o.winner.as_ref().map_or("-", |w| w.solver.as_str());
            format!("{}: <b>{}</b>", esc(o.kind.key()), esc(w))
        })
        .collect();
    if ws.is_empty() {
        "-".into()
    } else {
        ws.join("<br />")
    }
}

/// The site index: one row per track with its best-overall winners.
pub fn site_index(meta: &SiteMeta, reports: &[TrackReport], proofs: &[ProofLine]) -> String {
    let title = format!("{} results", meta.competition);
    let mut b = format!("<h1>{}</h1>\n", esc(&title));
    let mut rows: Vec<(String, Vec<String>)> = reports
        .iter()
        .map(|r| {
            let divs = r.scores.groups.iter().filter(|g| g.is_division).count();
            (
                String::new(),
                vec![
                    format!(
                        "<a href=\"{}/index.html\">{}</a>",
                        r.scores.track.page_suffix(),
                        esc(&r.scores.track.to_string())
                    ),
                    r.input.year.to_string(),
                    divs.to_string(),
                    esc(&r.scores.policy),
                    overall_winners(r),
                ],
            )
        })
        .collect();
    if !proofs.is_empty() {
        let divisions: std::collections::BTreeSet<&str> =
            proofs.iter().map(|l| l.division.as_str()).collect();
        rows.push((
            String::new(),
            vec![
                format!("<a href=\"{PROOF_PAGE}\">Proof Exhibition</a>"),
                reports
                    .first()
                    .map(|r| r.input.year.to_string())
                    .unwrap_or_default(),
                divisions.len().to_string(),
                "not scored (2023 rules 5.8)".into(),
                "-".into(),
            ],
        ));
    }
    b.push_str(&table(
        " class=\"index\"",
        &["Track", "Year", "Divisions", "Policy", "Best overall"],
        &rows,
    ));
    page(meta, &title, "", "", &b)
}

/// Path of the Proof Exhibition summary page below the site root.
pub const PROOF_PAGE: &str = "proof-exhibition/index.html";

/// The Proof Exhibition summary page: per solver and division, the checkers'
/// verdicts, the erroneous results (invalid + sat), the summed statistics, and
/// the benchmarks known sat on which a checker said valid (checker unsound).
pub fn proof_summary_page(meta: &SiteMeta, lines: &[ProofLine]) -> String {
    let mut b = String::from(
        "<h1>Proof Exhibition Track</h1>\n<p class=\"muted\">Not scored (2023 rules 5.8): \
         the proof checkers' verdicts per solver and division. Erroneous: the checker said \
         <code>invalid</code>, or <code>sat</code> on an unsat benchmark.</p>\n",
    );
    let verdicts: Vec<&str> = ProofVerdict::ALL.iter().map(|v| v.as_str()).collect();
    let stats: Vec<&str> = PROOF_STATS.to_vec();
    let mut head = vec!["Solver", "Division"];
    head.extend(&verdicts);
    head.push("errors");
    head.extend(&stats);
    let rows: Vec<(String, Vec<String>)> = lines
        .iter()
        .map(|l| {
            let mut cells = vec![esc(&l.solver), esc(&l.division)];
            let n = |m: &std::collections::BTreeMap<String, u64>, k: &str| {
                m.get(k).copied().unwrap_or(0).to_string()
            };
            cells.extend(verdicts.iter().map(|v| n(&l.verdicts, v)));
            cells.push(l.errors.to_string());
            cells.extend(stats.iter().map(|k| n(&l.stats, k)));
            (String::new(), cells)
        })
        .collect();
    b.push_str(&table("", &head, &rows));
    let unsound: Vec<String> = lines
        .iter()
        .flat_map(|l| {
            l.unsound_valid
                .iter()
                .map(move |bm| format!("<li>{}: {}</li>", esc(&l.solver), esc(bm)))
        })
        .collect();
    if !unsound.is_empty() {
        b.push_str(&format!(
            "<h2>Checker soundness</h2>\n<p>A checker said <code>valid</code> on these \
             benchmarks of known status sat:</p>\n<ul>\n{}\n</ul>\n",
            unsound.join("\n")
        ));
    }
    page(meta, "Proof Exhibition Track", "../", "", &b)
}

/// A division name linked to its page in this track (plain text when the track has no such page).
fn division_link(r: &TrackReport, division: &str) -> String {
    match r.scores.group(division, true) {
        Some(g) => format!("<a href=\"{}\">{}</a>", esc(&group_file(g)), esc(division)),
        None => esc(division),
    }
}

/// Rows numbered from 1 (cells already escaped).
fn numbered(cells: Vec<Vec<String>>) -> Vec<(String, Vec<String>)> {
    cells
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            c.insert(0, (i + 1).to_string());
            (String::new(), c)
        })
        .collect()
}

/// The three ranking pages: `(file name, html)`. Best overall shows, per kind,
/// the totals and each division's contribution to them.
pub fn ranking_pages(meta: &SiteMeta, r: &TrackReport) -> Vec<(String, String)> {
    let track = r.scores.track;
    let mut best = String::new();
    for o in &r.scores.best_overall {
        let _ = writeln!(
            best,
            "<h2 id=\"{}\">{}</h2>",
            o.kind.key(),
            esc(kind_title(o.kind))
        );
        let totals = o
            .totals
            .iter()
            .map(|x| vec![esc(&x.solver), format!("{:.4}", x.score), dec2(x.time)])
            .collect();
        best.push_str(&table(
            &format!(" class=\"ranking\" data-kind=\"{}\"", o.kind.key()),
            &["Rank", "Solver", "Score", "Time (s)"],
            &numbered(totals),
        ));
        let _ = writeln!(
            best,
            "<h3>{}: contribution of each division</h3>",
            esc(kind_title(o.kind))
        );
        let entries = o
            .entries
            .iter()
            .map(|x| {
                vec![
                    esc(&x.solver),
                    division_link(r, &x.division),
                    format!("{:.4}", x.contribution),
                    dec2(x.time),
                ]
            })
            .collect();
        best.push_str(&table(
            &format!(" class=\"contributions\" data-kind=\"{}\"", o.kind.key()),
            &["#", "Solver", "Division", "Contribution", "Time (s)"],
            &numbered(entries),
        ));
    }
    let mut lead = String::new();
    for l in &r.scores.biggest_lead {
        let _ = writeln!(
            lead,
            "<h2 id=\"{}\">{}</h2>",
            l.kind.key(),
            esc(kind_title(l.kind))
        );
        let rows = l
            .entries
            .iter()
            .map(|x| {
                vec![
                    esc(&x.solver),
                    division_link(r, &x.division),
                    esc(&x.second),
                    format!("{:.4}", x.correct_rank),
                    format!("{:.4}", x.time_rank),
                ]
            })
            .collect();
        lead.push_str(&table(
            &format!(" class=\"ranking\" data-kind=\"{}\"", l.kind.key()),
            &[
                "Rank",
                "Solver",
                "Division",
                "Second",
                "Correct ratio",
                "Time ratio",
            ],
            &numbered(rows),
        ));
    }
    let mut contribution = String::new();
    for c in &r.scores.largest_contribution {
        let _ = writeln!(
            contribution,
            "<h2 id=\"{}\">{}</h2>",
            c.kind.key(),
            esc(kind_title(c.kind))
        );
        let rows = c
            .entries
            .iter()
            .map(|x| {
                vec![
                    esc(&x.solver),
                    division_link(r, &x.division),
                    format!("{:.4}", x.correct_rank),
                    format!("{:.4}", x.time_rank),
                ]
            })
            .collect();
        contribution.push_str(&table(
            &format!(" class=\"ranking\" data-kind=\"{}\"", c.kind.key()),
            &["Rank", "Solver", "Division", "Correct", "Time"],
            &numbered(rows),
        ));
    }
    RANKINGS
        .iter()
        .zip([best, lead, contribution])
        .map(|((file, label), body)| {
            let title = format!("{} - {track} track", capitalise(label));
            let b = format!("<h1>{}</h1>\n{body}", esc(&title));
            (
                file.to_string(),
                page(meta, &title, "../", &track_nav(r, Here::Ranking(file)), &b),
            )
        })
        .collect()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
