//! Step 2, selection: the competition seed and the benchmarks of a track.

use super::step::{StageResult, Step};
use crate::benchmarks::Inventory;
use crate::model::{Competition, Track};
use crate::select::{Selection, SelectionInputs, SoundAnswers, Triviality, select};
use crate::submission::{Submission, competition_seed};

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

/// The rules' selection of `track` (no triviality or soundness evidence, no heats).
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
