//! Import of the reference tool's published results files
//! (`results-inc-2025.json.gz`, anchor spec 10.2) into ingestion records.

use crate::support::data::{self, results_inc_2025};
use smtcomp::formats::runtable::RunAnswer;
use smtcomp::ingest::{IngestOptions, ingest};
use smtcomp::model::{Answer, Competition, Track};

#[test]
fn results_inc_2025_imports_every_row() {
    let comp = Competition::builtin(2025).unwrap();
    let path = data::path("scoring/results-inc-2025.json.gz");
    let rows = &results_inc_2025().results;
    assert_eq!(rows.len(), 65_327);
    let got = ingest(
        std::slice::from_ref(&path),
        &IngestOptions {
            competition: &comp,
            manifest: None,
            progress: false,
        },
    );
    assert!(!got.has_unreadable());
    assert_eq!(got.records.len(), 65_327);
    assert_eq!(got.summary.files[0].kind, "results-json");
    assert_eq!(got.summary.files[0].runs, 65_327);
    // Every row is there, with its values, and the original result kept.
    let mut seen = 0;
    for row in rows {
        let key = row.file.path();
        let r = got
            .records
            .binary_search_by(|r| {
                (r.track, &r.solver, &r.benchmark_key).cmp(&(Some(row.track), &row.solver, &key))
            })
            .map(|i| &got.records[i])
            .unwrap_or_else(|_| panic!("{} {key}", row.solver));
        assert_eq!(r.anchor_result, Some(row.result));
        assert_eq!(r.cputime, Some(row.cpu_time));
        assert_eq!(r.walltime, Some(row.wallclock_time));
        assert_eq!(r.memory, Some(row.memory_usage as u64));
        assert_eq!(r.nb_answers, row.nb_answers);
        assert_eq!(r.benchmark.as_ref(), Some(&row.file));
        assert_eq!(r.track, Some(Track::Incremental));
        assert!(r.division.is_some(), "{key}");
        let want = match row.result {
            Answer::Incremental => RunAnswer::Done,
            Answer::Timeout => RunAnswer::Timeout,
            Answer::OutOfMemory => RunAnswer::Memout,
            other => panic!("unexpected result {other:?} in the 2025 incremental file"),
        };
        assert_eq!(r.answer, want);
        assert_eq!(
            r.incremental.as_ref().map(|d| d.correct),
            Some(row.nb_answers.unwrap_or(0))
        );
        seen += 1;
    }
    assert_eq!(seen, 65_327);
    assert_eq!(
        got.summary.answers["done"]
            + got.summary.answers["timeout"]
            + got.summary.answers.get("memout").copied().unwrap_or(0),
        65_327
    );
}

#[test]
fn every_anchor_result_has_an_answer() {
    use smtcomp::ingest::answer_of;
    let cases = [
        (Answer::Sat, RunAnswer::Sat),
        (Answer::Unsat, RunAnswer::Unsat),
        (Answer::Unknown, RunAnswer::Unknown),
        (Answer::Incremental, RunAnswer::Done),
        (Answer::OutOfMemory, RunAnswer::Memout),
        (Answer::Timeout, RunAnswer::Timeout),
        (Answer::ModelNotValidated, RunAnswer::Sat),
        (Answer::ModelUnsat, RunAnswer::Sat),
        (Answer::IncrementalError, RunAnswer::Error),
        (Answer::UnsatCoreInvalidated, RunAnswer::Unsat),
    ];
    for (a, want) in cases {
        assert_eq!(answer_of(a), want, "{a:?}");
    }
}

#[test]
fn unreadable_results_file_is_reported() {
    let comp = Competition::builtin(2025).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("results-x.json");
    std::fs::write(&p, "{\"results\": [ {\"track\": \"Nope\"} ]}").unwrap();
    let got = ingest(
        &[dir.path().to_path_buf()],
        &IngestOptions {
            competition: &comp,
            manifest: None,
            progress: false,
        },
    );
    assert!(got.has_unreadable());
    assert!(got.summary.files[0].unreadable[0].contains("results-x.json"));
    assert!(got.records.is_empty());
}
