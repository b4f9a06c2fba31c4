//! Step 8, scoring: scores per track (rules policy) with their tables, and
//! the Proof Exhibition summary (not scored, 2023 rules 5.8).

use super::step::{StageResult, Step};
use crate::benchmarks::Inventory;
use crate::ingest::IngestRecord;
use crate::model::{Competition, Status, Track};
use crate::prepare::PreparedSet;
use crate::report::TrackReport;
use crate::scoring::editions::dispatch::{self, EditionScores, PolicyChoice};
use crate::scoring::editions::e2023::ProofLine;
use crate::scoring::editions::e2023_proof;
use crate::scoring::{FileInterner, ScoredRun};
use crate::scoring::{TrackScores, output};
use crate::submission::LoadedSubmission;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// What scoring reads of a run table: per track the runs as the engine scores
/// them (benchmarks and solver names shared), and the Proof Exhibition runs
/// whole (their summary reads the checkers' statistics). A full-size table is
/// read one record at a time into this ([`TrackRuns::read`]): 1.8 million
/// records never held at once.
#[derive(Debug, Default)]
pub struct TrackRuns {
    scored: BTreeMap<Track, Vec<ScoredRun>>,
    proof: Vec<IngestRecord>,
    files: FileInterner,
}

impl TrackRuns {
    /// Adds one run of the table.
    pub fn add(&mut self, r: IngestRecord) {
        // A run without a track or benchmark cannot be placed (the ingestion
        // summary lists it).
        if let Some(run) = crate::scoring::scored_run_interned(&r, &mut self.files) {
            self.scored.entry(run.track).or_default().push(run);
        }
        if r.track == Some(Track::ProofExhibition) {
            self.proof.push(r);
        }
    }

    /// The runs of `records`.
    pub fn of(records: &[IngestRecord]) -> TrackRuns {
        let mut runs = TrackRuns::default();
        for r in records {
            runs.add(r.clone());
        }
        runs
    }

    /// The runs of the table at `path`, read one record at a time.
    pub fn read(path: &Path) -> StageResult<TrackRuns> {
        Step::Scoring.scope(|| {
            let mut runs = TrackRuns::default();
            for r in crate::formats::jsonl::open_table(path)?.1 {
                runs.add(r?);
            }
            Ok(runs)
        })
    }

    /// The Proof Exhibition runs.
    pub fn proof(&self) -> &[IngestRecord] {
        &self.proof
    }
}

/// Scores `tracks` (their runs taken out of `runs`) by the definition's edition (`comp.rules`, rules policy;
/// [`dispatch`]) and writes, per track, Markdown tables (`<track>.md`) and the
/// website-compatible pages (`<track>.json`) into `dir`. The 2015 and 2008
/// editions have their own tables (`<track>.md` and `<track>.json`, their
/// format) and no report pages: they give no [`TrackReport`].
pub fn score_tracks(
    comp: &Competition,
    loaded: &[LoadedSubmission],
    inventory: &Inventory,
    runs: &mut TrackRuns,
    tracks: &[Track],
    dir: &Path,
) -> StageResult<Vec<TrackReport>> {
    Step::Scoring.scope(|| {
        std::fs::create_dir_all(dir)?;
        let edition = comp.rules;
        let policy = dispatch::policy(edition, PolicyChoice::Rules).map_err(anyhow::Error::msg)?;
        let mut all = Vec::new();
        for &track in tracks {
            // Moved out: each track is scored once.
            let scored = runs.scored.remove(&track).unwrap_or_default();
            let (input, _missing) =
                crate::scoring::build_input(comp, track, loaded, inventory, scored);
            let name = track.page_suffix();
            let scores = match dispatch::score(comp, edition, track, &input, &policy)
                .map_err(|e| anyhow::anyhow!("{track} ({edition} rules): {e}"))?
            {
                EditionScores::Engine(scores) => *scores,
                tables => {
                    // The edition's own tables: no report pages.
                    let json = match &tables {
                        EditionScores::Tables2015(s) => serde_json::to_string_pretty(s)?,
                        EditionScores::Tables2008(s) => serde_json::to_string_pretty(s)?,
                        EditionScores::Engine(s) => serde_json::to_string_pretty(&s.groups)?,
                    };
                    std::fs::write(dir.join(format!("{name}.md")), tables.markdown())?;
                    std::fs::write(dir.join(format!("{name}.json")), json + "\n")?;
                    continue;
                }
            };
            let report = TrackReport { scores, input };
            std::fs::write(
                dir.join(format!("{name}.md")),
                output::markdown(&report.scores, false),
            )?;
            let pages = output::pages(
                &report.scores,
                report.input.time_limit as u64,
                report.input.memory_mb,
                comp.year,
            );
            crate::formats::datafile::write_json(&dir.join(format!("{name}.json")), &pages)?;
            all.push(report);
        }
        Ok(all)
    })
}

/// Winners of the competitive divisions: (track, division, kind, solver).
pub fn winners(scores: &[TrackScores]) -> Vec<(Track, String, &'static str, String)> {
    let mut v = Vec::new();
    for s in scores {
        for g in s.groups.iter().filter(|g| g.is_division && g.competitive) {
            for p in &g.podiums {
                if let Some(w) = &p.winner {
                    v.push((s.track, g.name.clone(), p.kind.key(), w.clone()));
                }
            }
        }
    }
    v
}

/// Summarizes the Proof Exhibition runs (known statuses from the prepared
/// sets) by the same code as `smtcomp score --track ProofExhibition`
/// ([`e2023_proof::report`]) and writes `proof-exhibition.json` and
/// `proof-exhibition.md` into `dir`.
pub fn proof_summary(
    comp: &Competition,
    runs: &TrackRuns,
    sets: &[PreparedSet],
    dir: &Path,
) -> StageResult<Vec<ProofLine>> {
    Step::Scoring.scope(|| {
        let statuses: HashMap<String, Status> = sets
            .iter()
            .filter(|s| s.track == Track::ProofExhibition)
            .flat_map(|s| s.benchmarks.iter().map(|b| (b.original.path(), b.status)))
            .collect();
        let report = e2023_proof::report(runs.proof(), comp, &statuses);
        std::fs::create_dir_all(dir)?;
        crate::formats::datafile::write_json(&dir.join("proof-exhibition.json"), &report)?;
        std::fs::write(
            dir.join("proof-exhibition.md"),
            e2023_proof::markdown(&report),
        )?;
        Ok(report.lines)
    })
}
