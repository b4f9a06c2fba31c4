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

    /// The report without its runs and benchmark facts (all the site index
    /// reads is the scores and the limits): kept once a track's pages are
    /// written ([`SiteWriter`]).
    pub fn light(mut self) -> TrackReport {
        self.input.runs = Vec::new();
        self.input.benchmarks = Default::default();
        self.input.selection = Vec::new();
        self
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
    let mut site = SiteWriter::new(meta, out, progress);
    for r in tracks {
        site.track(r)?;
    }
    site.finish(tracks, proofs)
}

/// Writes a site one track at a time ([`SiteWriter::track`]), so that a
/// track's runs can be dropped once its pages are written ([`TrackReport::light`]),
/// then the pages over all tracks ([`SiteWriter::finish`]). The files are
/// those of [`write_site_with_progress`].
pub struct SiteWriter<'a> {
    meta: &'a SiteMeta,
    out: &'a Path,
    progress: &'a ProgressBar,
    sum: SiteSummary,
}

impl<'a> SiteWriter<'a> {
    /// A site in `out` (created if needed); `progress` is advanced by one per
    /// group page, its length grown per track.
    pub fn new(meta: &'a SiteMeta, out: &'a Path, progress: &'a ProgressBar) -> Self {
        progress.set_length(0);
        SiteWriter {
            meta,
            out,
            progress,
            sum: SiteSummary {
                dir: out.to_path_buf(),
                ..Default::default()
            },
        }
    }

    fn write(&mut self, path: PathBuf, text: &str, kind: u8) -> Result<(), PathError> {
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(PathError::on(p, "create"))?;
        }
        std::fs::write(&path, text).map_err(PathError::on(&path, "write"))?;
        self.sum.bytes += text.len() as u64;
        match kind {
            0 => self.sum.pages += 1,
            1 => self.sum.plots += 1,
            _ => self.sum.other += 1,
        }
        Ok(())
    }

    /// Writes the pages of one track (its index, rankings, scores XML,
    /// division and logic pages, plots and per-benchmark tables).
    pub fn track(&mut self, r: &TrackReport) -> Result<(), PathError> {
        let meta = self.meta;
        self.progress.inc_length(r.scores.groups.len() as u64 + 1);
        self.sum.tracks += 1;
        let dir = self.out.join(r.scores.track.page_suffix());
        self.write(dir.join("index.html"), &pages::track_index(meta, r), 0)?;
        for (f, html) in pages::ranking_pages(meta, r) {
            self.write(dir.join(f), &html, 0)?;
        }
        let xml = xml::scores_xml(
            &r.scores,
            r.input.time_limit,
            r.input.memory_mb,
            r.input.year,
            Some("../xsl/scores.xsl"),
        );
        self.write(dir.join("scores.xml"), &xml, 2)?;
        self.progress.inc(1);
        let solved = data::SolvedIndex::new(&r.input);
        let by_logic = benchmarks::RunsByLogic::new(r);
        for g in &r.scores.groups {
            let mut imgs = Vec::new();
            if g.is_division {
                for (file, alt, svg) in group_plots(r.input.time_limit, g, &solved.group(g)) {
                    self.write(dir.join("plots").join(&file), &svg, 1)?;
                    imgs.push((format!("plots/{file}"), alt));
                }
            }
            self.write(
                dir.join(files::group_file(g)),
                &pages::group_page(meta, r, g, &imgs),
                0,
            )?;
            if !g.is_division {
                let order: Vec<String> = plot_podium(g)
                    .map(|p| p.steps.iter().map(|s| s.solver.clone()).collect())
                    .unwrap_or_default();
                let runs = by_logic.get(&g.name);
                for (f, html) in benchmarks::benchmark_pages(meta, r, g, runs, &order) {
                    self.write(dir.join(f), &html, 0)?;
                }
            }
            self.progress.inc(1);
        }
        Ok(())
    }

    /// Writes the pages over all tracks (`tracks`: those written, in order,
    /// possibly [`TrackReport::light`]): the site index, the Proof Exhibition
    /// summary (`proofs`, none if empty) and the stylesheets.
    pub fn finish(
        mut self,
        tracks: &[TrackReport],
        proofs: &[ProofLine],
    ) -> Result<SiteSummary, PathError> {
        let out = self.out;
        self.write(
            out.join("index.html"),
            &pages::site_index(self.meta, tracks, proofs),
            0,
        )?;
        if !proofs.is_empty() {
            self.write(
                out.join(pages::PROOF_PAGE),
                &pages::proof_summary_page(self.meta, proofs),
                0,
            )?;
        }
        self.write(out.join("xsl/scores.xsl"), xml::SCORES_XSL, 2)?;
        self.write(out.join("xsl/benchexec-results.xsl"), xml::BENCHEXEC_XSL, 2)?;
        self.progress.finish_and_clear();
        Ok(self.sum)
    }
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
