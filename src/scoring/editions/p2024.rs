//! `--policy published-2024`: what the organizers published for 2024.
//!
//! Their 2024 tool scored as their 2025 tool does (every switch of
//! [`Policy::published_2025`]; the 2024 Incremental pages are reproduced by
//! it value for value), with two differences in *which benchmarks a page
//! counts* (N), both read from their pages and their 2024 configuration:
//!
//! * **Parallel and Cloud count the union of both tracks' benchmarks.** Each
//!   2024 Parallel and Cloud page counts the same benchmarks (597 in all), the
//!   union of what the two tracks ran; a solver without a run on a benchmark
//!   of the other track is unsolved on it. Scoring one of them needs the runs
//!   (or the selections) of both.
//! * **A removed result stays in N.** After the runs the organizers removed
//!   the results of one benchmark with a wrong SMT-LIB status (their 2024
//!   `Config.removed_results`), but not the benchmark from the selection: the
//!   Unsat Core pages count it (QF_BV: 2,947 benchmarks, 2,946 with results)
//!   and every solver is unsolved on it. Only the Unsat Core Track is known to
//!   have held it (the 2024 Single Query and Model Validation results are not
//!   published).
//!
//! * **No division is marked non-competitive.** The 2024 pages never say
//!   "non-competitive" (a one-solver division such as QF_Strings in the Unsat
//!   Core Track is shown as any other, with its winners, which the 2025 tool
//!   names in non-competitive divisions too): [`as_published`].
//!
//! Everything else is the 2025 engine: the 2024 rules document is not among
//! the rules texts this project reads, so 2024 results are scored under the
//! 2025 definition (same tracks, divisions, limits) with this policy.

use super::EditionError;
use crate::formats::inventory::Smt2File;
use crate::model::{Logic, Track};
use crate::scoring::{Policy, ScoredRun, TrackScores};

/// The policy's name.
pub const NAME: &str = "published-2024";

/// The 2025 tool's switches under the name `published-2024`.
pub fn policy() -> Policy {
    let mut p = Policy::published_2025();
    p.name = NAME.into();
    p
}

/// The scores as the 2024 pages show them: every division competitive.
pub fn as_published(scores: &mut TrackScores) {
    for g in &mut scores.groups {
        g.competitive = true;
    }
}

/// The results the organizers removed after the 2024 runs from the pages of
/// `track`, which the pages still count.
pub fn removed_results(track: Track) -> Vec<Smt2File> {
    match track {
        Track::UnsatCore => vec![Smt2File {
            incremental: false,
            logic: Logic::new("QF_BV"),
            family: vec!["20230221-oisc-gurtner".into()],
            name: "SLL-NESTED-8-32-sp-not-excluded.smt2".into(),
        }],
        _ => Vec::new(),
    }
}

/// The benchmarks a 2024 page of `track` counts, from the runs given: those
/// of the track (Parallel and Cloud: of both tracks) and its removed results.
/// An error when the runs of the other track are missing for Parallel or
/// Cloud (the pages would not be reproduced).
pub fn selection(track: Track, runs: &[ScoredRun]) -> Result<Vec<Smt2File>, EditionError> {
    let counted: &[Track] = match track {
        Track::Parallel | Track::Cloud => &[Track::Parallel, Track::Cloud],
        _ => std::slice::from_ref(&track),
    };
    // Parallel and Cloud need the runs of both tracks (the other tracks'
    // own runs are already required by the score command).
    for t in counted
        .iter()
        .filter(|_| matches!(track, Track::Parallel | Track::Cloud))
    {
        if !runs.iter().any(|r| r.track == *t) {
            return Err(EditionError::OtherTrackMissing {
                policy: NAME,
                track,
                missing: *t,
            });
        }
    }
    let mut files: Vec<Smt2File> = runs
        .iter()
        .filter(|r| counted.contains(&r.track))
        .map(|r| (*r.file).clone())
        .chain(removed_results(track))
        .collect();
    files.sort_by_cached_key(|f| f.path());
    files.dedup();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Answer;

    fn run(track: Track, name: &str) -> ScoredRun {
        ScoredRun::from_record(&crate::formats::results::RunRecord {
            track,
            solver: "S".into(),
            file: Smt2File {
                incremental: false,
                logic: Logic::new("QF_LIA"),
                family: vec!["f".into()],
                name: name.into(),
            },
            result: Answer::Unknown,
            cpu_time: 0.0,
            wallclock_time: 1.0,
            memory_usage: 0.0,
            nb_answers: None,
        })
    }

    #[test]
    fn parallel_and_cloud_count_the_union_and_need_both_tracks() {
        let runs = [
            run(Track::Parallel, "a.smt2"),
            run(Track::Cloud, "b.smt2"),
            run(Track::Cloud, "a.smt2"),
            run(Track::SingleQuery, "c.smt2"),
        ];
        for t in [Track::Parallel, Track::Cloud] {
            let names: Vec<String> = selection(t, &runs)
                .unwrap()
                .into_iter()
                .map(|f| f.name)
                .collect();
            assert_eq!(names, ["a.smt2", "b.smt2"], "{t}");
        }
        let err = selection(Track::Parallel, &runs[..1]).unwrap_err();
        assert!(err.to_string().contains("none of the Cloud Track"), "{err}");
    }

    #[test]
    fn the_unsat_core_pages_keep_the_removed_benchmark() {
        let runs = [run(Track::UnsatCore, "a.smt2")];
        let files = selection(Track::UnsatCore, &runs).unwrap();
        assert_eq!(files.len(), 2);
        assert!(files.iter().any(|f| f.name.starts_with("SLL-NESTED-8-32")));
        // Other tracks: their own runs only.
        let files = selection(Track::Incremental, &runs).unwrap();
        assert!(files.is_empty());
    }
}
