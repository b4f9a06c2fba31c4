//! Static results site (`smtcomp report`): an index per track, a page per
//! division and per logic, the three ranking pages, SVG plots (cactus and
//! scatter), a per-benchmark table per logic (sortable with a few lines of
//! plain JavaScript, complete without it) and the scores XML with its XSLT
//! stylesheet. Every page of a track has the same navigation (all tracks ›
//! track › division › logic, the divisions, the rankings).
//!
//! Layout of a site:
//! `index.html`, `xsl/scores.xsl`, `xsl/benchexec-results.xsl`, and per track
//! `<track>/index.html`, `<track>/division-<id>.html`, `<track>/logic-<id>.html`,
//! `<track>/{best-overall,biggest-lead,largest-contribution}.html`,
//! `<track>/benchmarks-<logic>[-K].html`,
//! `<track>/scores.xml`, `<track>/plots/<id>-{cactus,scatter}.svg`; with a Proof
//! Exhibition summary, `proof-exhibition/index.html`.

mod benchmarks;
mod data;
mod files;
mod html;
mod nav;
mod pages;
mod plots;
pub mod test_run;
pub mod website;
mod xml;

pub use benchmarks::ROWS_PER_PAGE;
pub use files::{benchmarks_file, group_file};
pub use xml::scores_xml;

use crate::scoring::editions::e2023::ProofLine;
use crate::scoring::{self, Policy, ScoringInput, TrackScores};
use crate::util::path_error::PathError;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// One scored track with the input it was scored from (its runs feed the plots).
#[derive(Debug, Clone)]
pub struct TrackReport {
    /// The scores.
    pub scores: TrackScores,
    /// The scoring input (limits, divisions, runs).
    pub input: ScoringInput,
}

impl TrackReport {
    /// Scores `input` under `policy`.
    pub fn compute(input: ScoringInput, policy: &Policy) -> TrackReport {
        let scores = scoring::score(&input, policy);
        TrackReport { scores, input }
    }
}

/// What every page names: the competition and the generation date.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteMeta {
    /// Competition name shown in the header and titles (e.g. `SMT-COMP 2025`).
    pub competition: String,
    /// Generation date shown in the footer (e.g. `2025-08-11`); none: not shown,
    /// so that the same inputs give byte-identical files.
    pub generated: Option<String>,
}

impl SiteMeta {
    /// `SMT-COMP <year>` of the first track (plain `SMT-COMP` without tracks), no date.
    pub fn for_tracks(tracks: &[TrackReport]) -> SiteMeta {
        let competition = match tracks.first() {
            Some(t) => format!("SMT-COMP {}", t.input.year),
            None => "SMT-COMP".into(),
        };
        SiteMeta {
            competition,
            generated: None,
        }
    }
}

/// What [`write_site`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteSummary {
    /// Output directory.
    pub dir: PathBuf,
    /// Tracks.
    pub tracks: usize,
    /// HTML pages.
    pub pages: usize,
    /// SVG plots.
    pub plots: usize,
    /// Other files (XML, XSL).
    pub other: usize,
    /// Bytes written.
    pub bytes: u64,
}

impl std::fmt::Display for SiteSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "wrote {} track(s): {} HTML pages, {} SVG plots, {} XML/XSL files ({:.1} kB) to {}",
            self.tracks,
            self.pages,
            self.plots,
            self.other,
            self.bytes as f64 / 1024.0,
            self.dir.join("index.html").display()
        )
    }
}

/// Writes the site for `tracks` into `out` (created if needed), named after the
/// tracks' year ([`SiteMeta::for_tracks`]), without a generation date.
pub fn write_site(tracks: &[TrackReport], out: &Path) -> Result<SiteSummary, PathError> {
    let meta = SiteMeta::for_tracks(tracks);
    write_site_with_progress(&meta, tracks, &[], out, &ProgressBar::hidden())
}

/// [`write_site`] with the competition name and date of `meta` and a Proof
/// Exhibition summary page (`proofs`, none if empty), advancing `progress` by
/// one per group page (its length is set).
pub fn write_site_with_progress(
    meta: &SiteMeta,
    tracks: &[TrackReport],
    proofs: &[ProofLine],
    out: &Path,
    progress: &ProgressBar,
) -> Result<SiteSummary, PathError> {
    let total: usize = tracks.iter().map(|t| t.scores.groups.len() + 1).sum();
    progress.set_length(total as u64);
    let mut sum = SiteSummary {
        dir: out.to_path_buf(),
        tracks: tracks.len(),
        ..Default::default()
    };
    let mut w = |path: PathBuf, text: &str, kind: u8| -> Result<(), PathError> {
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(PathError::on(p, "create"))?;
        }
        std::fs::write(&path, text).map_err(PathError::on(&path, "write"))?;
        sum.bytes += text.len() as u64;
        match kind {
            0 => sum.pages += 1,
            1 => sum.plots += 1,
            _ => sum.other += 1,
        }
        Ok(())
    };
    w(
        out.join("index.html"),
        &pages::site_index(meta, tracks, proofs),
        0,
    )?;
    if !proofs.is_empty() {
        w(
            out.join(pages::PROOF_PAGE),
            &pages::proof_summary_page(meta, proofs),
            0,
        )?;
    }
    w(out.join("xsl/scores.xsl"), xml::SCORES_XSL, 2)?;
    w(out.join("xsl/benchexec-results.xsl"), xml::BENCHEXEC_XSL, 2)?;
    for r in tracks {
        let dir = out.join(r.scores.track.page_suffix());
        w(dir.join("index.html"), &pages::track_index(meta, r), 0)?;
        for (f, html) in pages::ranking_pages(meta, r) {
            w(dir.join(f), &html, 0)?;
        }
        let xml = xml::scores_xml(
            &r.scores,
            r.input.time_limit,
            r.input.memory_mb,
            r.input.year,
            Some("../xsl/scores.xsl"),
        );
        w(dir.join("scores.xml"), &xml, 2)?;
        progress.inc(1);
        let solved = data::SolvedIndex::new(&r.input);
        for g in &r.scores.groups {
            let mut imgs = Vec::new();
            if g.is_division {
                for (file, alt, svg) in group_plots(r.input.time_limit, g, &solved.group(g)) {
                    w(dir.join("plots").join(&file), &svg, 1)?;
                    imgs.push((format!("plots/{file}"), alt));
                }
            }
            w(
                dir.join(files::group_file(g)),
                &pages::group_page(meta, r, g, &imgs),
                0,
            )?;
            if !g.is_division {
                let order: Vec<String> = plot_podium(g)
                    .map(|p| p.steps.iter().map(|s| s.solver.clone()).collect())
                    .unwrap_or_default();
                for (f, html) in benchmarks::benchmark_pages(meta, r, g, &order) {
                    w(dir.join(f), &html, 0)?;
                }
            }
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    Ok(sum)
}

/// The podium used for plots: parallel if computed, else the first one.
fn plot_podium(g: &scoring::GroupScores) -> Option<&scoring::Podium> {
    g.podium(scoring::Kind::Parallel).or(g.podiums.first())
}

/// Cactus and scatter plots of a division: `(file, alt text, svg)`.
fn group_plots(
    tl: f64,
    g: &scoring::GroupScores,
    solved: &data::Solved,
) -> Vec<(String, String, String)> {
    let Some(p) = plot_podium(g) else {
        return Vec::new();
    };
    let id = html::slug(&g.identifier);
    let series: Vec<plots::Series> = p
        .steps
        .iter()
        .map(|s| plots::Series {
            solver: s.solver.clone(),
            times: solved
                .get(&s.solver)
                .map(|m| m.values().copied().collect())
                .unwrap_or_default(),
        })
        .collect();
    let title = format!("{}: solved benchmarks vs wall time", g.name);
    let mut out = vec![(
        format!("{id}-cactus.svg"),
        format!("Cactus plot of {}", g.name),
        plots::cactus(&title, &series, tl),
    )];
    if p.steps.len() >= 2 {
        let (a, b) = (&p.steps[0].solver, &p.steps[1].solver);
        let empty = Default::default();
        let ma = solved.get(a).unwrap_or(&empty);
        let mb = solved.get(b).unwrap_or(&empty);
        let mut files: Vec<&String> = ma.keys().chain(mb.keys()).collect();
        files.sort();
        files.dedup();
        let pts: Vec<(Option<f64>, Option<f64>)> = files
            .iter()
            .map(|f| (ma.get(*f).copied(), mb.get(*f).copied()))
            .collect();
        out.push((
            format!("{id}-scatter.svg"),
            format!("Scatter plot of {a} vs {b} on {}", g.name),
            plots::scatter(
                &format!("{}: {a} vs {b} (wall time)", g.name),
                a,
                b,
                &pts,
                tl,
            ),
        ));
    }
    out
}
