//! Step 2, selection: the competition seed and the benchmarks of a track, by
//! the rules' whole selection (2025 section 6) from the [`Evidence`] the
//! organizers have: previous results (triviality; Parallel/Cloud hardness),
//! this year's results (status filters), the previous release's inventory
//! (new families), the submissions (entered logics, competitive divisions
//! only), heats and the test run. `smtcomp select` and the workspace's
//! selection stage (`smtcomp run`) both call [`select_with`], so the same
//! evidence gives the same bytes.

use super::step::{StageResult, Step};
use crate::benchmarks::Inventory;
use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::InventoryView;
use crate::formats::inventory_cache;
use crate::formats::results::{ResultsFile, RunRecord};
use crate::model::{Competition, Logic, Status, Track};
use crate::select::{
    PreviousRelease, Selection, SelectionInputs, SelectionView, SoundAnswers, Triviality,
    fastest_solves, select, select_parallel, select_view, write_selection_json,
};
use crate::submission::{Submission, competition_seed, load_set};
use crate::util::writeback::with_write_behind;
use std::collections::{BTreeSet, HashMap};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The competition seed (rules section 6) of the usable submissions
/// `(file, submission)`.
pub fn seed(comp: &Competition, subs: &[(String, Submission)]) -> StageResult<u32> {
    Step::Selection.scope(|| {
        let tuples: Vec<_> = subs
            .iter()
            .map(|(f, s)| (f.clone(), s.name.clone(), s.seed, s.competitive))
            .collect();
        Ok(competition_seed(&tuples, comp.seed.nyse_value, true)?.seed as u32)
    })
}

/// The rules' selection of `track` without evidence (no triviality or
/// soundness evidence, no heats, every logic): the demo's and
/// `test-solver`'s small libraries.
pub fn select_track(
    inv: &Inventory,
    comp: &Competition,
    track: Track,
    seed: u32,
) -> StageResult<Selection> {
    Step::Selection.scope(|| {
        let triviality = Triviality::default();
        let sound = SoundAnswers::default();
        select(
            inv,
            &SelectionInputs {
                competition: comp,
                track,
                seed,
                triviality: &triviality,
                sound: &sound,
                heats: 0,
                only_logics: None,
                previous: None,
                test_per_logic: None,
            },
        )
        .map_err(|e| anyhow::anyhow!(e))
    })
}

/// What the rules' selection takes besides the inventory, the competition,
/// the track and the seed (`smtcomp select`'s flags; the workspace's
/// `[selection]` table and `submissions`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Previous years' Single Query results: triviality, and Parallel/Cloud
    /// hardness. Files named with a year outside the definition's
    /// `previous_results_years` are ignored (with a note).
    pub previous_results: Vec<PathBuf>,
    /// This year's Single Query results: the Unsat Core and Model Validation
    /// status filters (an unknown status counts when a sound solver answered).
    pub current_results: Vec<PathBuf>,
    /// The previous release's inventory: a family not in it is new.
    pub previous_inventory: Option<PathBuf>,
    /// Submissions (files or directories): only the logics they enter, and
    /// only competitive divisions unless `include_non_competitive`.
    pub submissions: Vec<PathBuf>,
    /// Select in non-competitive divisions too.
    pub include_non_competitive: bool,
    /// Divide each division's selection into this many heats (0: none).
    pub heats: u32,
    /// The organizers' test run: at most this many benchmarks per logic.
    pub test_per_logic: Option<usize>,
}

/// A selection: borrowed from the inventory's view (every track but
/// Parallel and Cloud: nothing is copied per benchmark), or owned.
#[derive(Debug)]
pub enum Chosen<'v, 'a> {
    /// Entries of the inventory view.
    View(SelectionView<'v, 'a>),
    /// Parallel and Cloud.
    Owned(Selection),
}

impl Chosen<'_, '_> {
    /// The number of benchmarks selected.
    pub fn len(&self) -> usize {
        match self {
            Chosen::View(v) => v.benchmarks.len(),
            Chosen::Owned(s) => s.benchmarks.len(),
        }
    }

    /// Whether nothing was selected.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The owned [`Selection`].
    pub fn to_owned(&self) -> Selection {
        match self {
            Chosen::View(v) => v.to_owned(),
            Chosen::Owned(s) => s.clone(),
        }
    }

    /// The notes on the inputs.
    pub fn notes(&self) -> &[String] {
        match self {
            Chosen::View(v) => &v.notes,
            Chosen::Owned(s) => &s.notes,
        }
    }

    /// Writes the selection's JSON to `w` (pretty, then a newline): the bytes
    /// `smtcomp prepare` reads, whichever way the selection is held.
    pub fn write_json(&self, w: &mut impl Write) -> std::io::Result<()> {
        match self {
            Chosen::View(v) => write_selection_json(w, v)?,
            Chosen::Owned(s) => serde_json::to_writer_pretty(&mut *w, s)?,
        }
        w.write_all(b"\n")
    }

    /// Writes the selection to `path` (gzip when it ends in `.gz`), replacing
    /// it only when complete.
    pub fn write(&self, path: &Path) -> Result<(), DataFileError> {
        if path.extension().is_some_and(|e| e == "gz") {
            return datafile::write_json(path, &self.to_owned());
        }
        // 68 MB for Single Query: its write-back is started while the rest is
        // written (the rename that replaces the file would otherwise wait
        // while all of it is queued).
        datafile::write_replacing(path, |file| {
            with_write_behind(&file, |behind| {
                let mut w = BufWriter::with_capacity(1 << 20, behind);
                self.write_json(&mut w)?;
                w.flush()
            })
        })
        .map_err(|e| DataFileError::new(path, format!("cannot write: {e}")))
    }
}

/// Why nothing was selected: an empty inventory, none of the track's logics,
/// or (with submissions) no competitive division entered.
#[derive(Debug, thiserror::Error)]
#[error(
    "{inventory}: no benchmark of track {track} selected (an empty inventory, none of its logics, or no competitive division entered); nothing written"
)]
pub struct NothingSelected {
    /// The inventory selected from.
    pub inventory: String,
    /// The track.
    pub track: Track,
}

/// The note of a test run on what it preferred.
pub const TEST_NOTE_PREFIX: &str = "test run:";

/// The rules' selection of `track` from the inventory file `inventory` with
/// `evidence`; `consume` gets the selection (its notes say what evidence was
/// used or ignored). An empty selection is a [`NothingSelected`] error (it
/// would prepare and run nothing). The competition's `rules` decide the
/// edition's own filters.
pub fn select_with<R>(
    comp: &Competition,
    inventory: &Path,
    track: Track,
    seed: u32,
    evidence: &Evidence,
    consume: impl FnOnce(Chosen<'_, '_>) -> anyhow::Result<R>,
) -> anyhow::Result<R> {
    let mut notes = Vec::new();
    let previous_release = match &evidence.previous_inventory {
        Some(f) => {
            let p = PreviousRelease::from_inventory(&Inventory::read_cached(f)?);
            notes.push(format!(
                "new families: not in {} ({} families)",
                f.display(),
                p.families()
            ));
            Some(p)
        }
        None => None,
    };
    let previous = read_results(&evidence.previous_results, comp, &mut notes, true)?;
    let current = read_results(&evidence.current_results, comp, &mut notes, false)?;
    // Expected statuses by path: only needed to judge results.
    let no_results = previous.is_empty() && current.is_empty();
    let statuses = |inv: &InventoryView<'_>| -> HashMap<String, Status> {
        if no_results {
            HashMap::new()
        } else {
            inv.benches(false).map(|b| (b.path(), b.status)).collect()
        }
    };
    let only = entered_logics(&evidence.submissions, comp, track)?;
    let only = if evidence.include_non_competitive {
        only
    } else {
        competitive_only(&evidence.submissions, comp, track, only, &mut notes)
    };
    let empty = |n: usize| -> anyhow::Result<()> {
        if n == 0 {
            return Err(NothingSelected {
                inventory: inventory.display().to_string(),
                track,
            }
            .into());
        }
        Ok(())
    };
    if matches!(track, Track::Parallel | Track::Cloud) {
        let inv = Inventory::read_cached(inventory)?;
        let fastest = fastest_solves(previous.iter().map(Vec::as_slice), &statuses(&inv.view()));
        let mut selection = select_parallel(&inv, comp, track, seed, &fastest, only.as_ref())
            .map_err(|e| anyhow::anyhow!(e))?;
        notes.append(&mut selection.notes);
        selection.notes = notes;
        empty(selection.benchmarks.len())?;
        let out = consume(Chosen::Owned(selection));
        // Freeing the inventory one allocation at a time (a million strings)
        // costs time and gains nothing in a command about to end.
        std::mem::forget(inv);
        return out;
    }
    // The other tracks select over the inventory borrowed from its cache.
    // Only the track's list and the logics of its divisions (those entered,
    // with submissions) are decoded; every non-incremental benchmark when
    // results are judged (their expected statuses).
    let def = comp.track(track);
    let lists = |incremental_list: bool, logic: &str| {
        (!incremental_list && !no_results)
            || (incremental_list == track.is_incremental()
                && def.is_some_and(|d| d.division_of(logic).is_some())
                && only.as_ref().is_none_or(|o| o.contains(logic)))
    };
    inventory_cache::with_view_of(inventory, &lists, |inv| -> anyhow::Result<R> {
        let statuses = statuses(inv);
        let triviality = Triviality::tally(
            previous.iter().map(Vec::as_slice),
            &statuses,
            comp.selection.trivial_time_s,
        );
        let all_current: Vec<RunRecord> = current.into_iter().flatten().collect();
        let sound = SoundAnswers::collect(&all_current, &statuses, comp);
        let input = SelectionInputs {
            competition: comp,
            track,
            seed,
            triviality: &triviality,
            sound: &sound,
            heats: evidence.heats,
            only_logics: only.as_ref(),
            previous: previous_release.as_ref(),
            test_per_logic: evidence.test_per_logic,
        };
        if let Some(n) = evidence.test_per_logic {
            notes.push(test_note(
                n,
                &triviality,
                seed,
                comp.selection.trivial_time_s,
            ));
        }
        let mut selection = select_view(inv, &input).map_err(|e| anyhow::anyhow!(e))?;
        notes.append(&mut selection.notes);
        selection.notes = notes;
        empty(selection.benchmarks.len())?;
        consume(Chosen::View(selection))
    })?
}

/// What a test run preferred, for the selection's notes.
fn test_note(n: usize, triviality: &Triviality, seed: u32, trivial_s: f64) -> String {
    if triviality.known() == 0 {
        format!(
            "{TEST_NOTE_PREFIX} up to {n} benchmarks per logic, seed {seed}; no previous results, so no \
             benchmark is known to be trivial: drawn from all eligible ones (new families first)"
        )
    } else {
        format!(
            "{TEST_NOTE_PREFIX} up to {n} benchmarks per logic, seed {seed}; in logics with benchmarks \
             solved by every solver in under {trivial_s} s in the previous results, only those"
        )
    }
}

/// Reads results files; previous-year files outside the configured years are
/// skipped with a note.
fn read_results(
    files: &[PathBuf],
    comp: &Competition,
    notes: &mut Vec<String>,
    previous: bool,
) -> anyhow::Result<Vec<Vec<RunRecord>>> {
    let mut sets = Vec::new();
    for f in files {
        if previous
            && let Some(year) = year_in_name(f)
            && !comp.selection.previous_results_years.contains(&year)
        {
            notes.push(format!(
                "{}: ignored, {year} is not among the previous_results_years of {}",
                f.display(),
                comp.name
            ));
            continue;
        }
        sets.push(ResultsFile::read(f)?.results);
    }
    Ok(sets)
}

/// A 4-digit year (19xx/20xx) in the file name, if any.
fn year_in_name(path: &Path) -> Option<u16> {
    let name = path.file_name()?.to_string_lossy();
    let re = regex::Regex::new(r"(?:^|[^0-9])((?:19|20)[0-9]{2})(?:[^0-9]|$)").ok()?;
    re.captures(&name)?.get(1)?.as_str().parse().ok()
}

/// Logics entered in `track` by the given submissions, if any were given.
pub fn entered_logics(
    paths: &[PathBuf],
    comp: &Competition,
    track: Track,
) -> anyhow::Result<Option<BTreeSet<Logic>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let loaded = load_set(paths, comp);
    if let Some(bad) = loaded.iter().find(|l| l.submission.is_none()) {
        let reasons: Vec<String> = bad.problems.iter().map(|p| p.to_string()).collect();
        anyhow::bail!("cannot read submission:\n{}", reasons.join("\n"));
    }
    Ok(Some(
        loaded
            .iter()
            .filter_map(|l| l.entries.get(&track))
            .flat_map(|divisions| divisions.values().flatten().cloned())
            .collect(),
    ))
}

/// Rules 6: non-competitive divisions are not run. With submissions, keeps of
/// `only` (the logics entered) those of the track's competitive divisions
/// ([`super::noncompetitive::entered`]) and notes the divisions left out.
fn competitive_only(
    paths: &[PathBuf],
    comp: &Competition,
    track: Track,
    only: Option<BTreeSet<Logic>>,
    notes: &mut Vec<String>,
) -> Option<BTreeSet<Logic>> {
    let mut only = only?;
    let mut skipped = super::noncompetitive::entered(&load_set(paths, comp), comp);
    skipped.retain(|(t, _), e| *t == track && e.distinct_teams() < 2);
    for e in skipped.values() {
        only.retain(|l| !e.logics.contains(l));
    }
    if !skipped.is_empty() {
        notes.push(format!(
            "non-competitive divisions not selected (rules 6; --include-non-competitive \
             selects them): {}",
            super::noncompetitive::describe(&skipped)
        ));
    }
    Some(only)
}
