//! The model-validation cache on 1,000 sat runs: the first run checks every
//! model with z3, the second takes every verdict from the cache (0 checks,
//! 1,000 hits; the times are printed, not asserted); a changed benchmark is a new key, so verdicts are never stale.

use crate::support::root;
use crate::support::solvers::require_tools;
use crate::support::validate::*;
use smtcomp::ingest::{IngestRecord, RunAnswer};
use smtcomp::model::Track;
use smtcomp::validate::{Checker, ModelOptions, validate_models};
use smtcomp::validate::{ModelStatus, Verdict};
use std::time::{Duration, Instant};

/// Runs of 20 solvers on one benchmark: enough for every solver to have several
/// models and for the cache to be shared across solvers.
const RUNS: usize = 100;

#[test]
fn a_hundred_models_reuse_the_cache() {
    if !require_tools(&["z3"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prepared = dir.join("prepared");
    let set = prepare(
        Track::ModelValidation,
        &[(
            "QF_LIA".into(),
            root().join("tests/data/validate/bench/x-gt-10.smt2"),
        )],
        &prepared,
    );
    let b = &set.benchmarks[0];
    let mut runs: Vec<(IngestRecord, Vec<u8>)> = (0..RUNS)
        .map(|i| {
            let r = record(
                Track::ModelValidation,
                &format!("s{}", i % 20),
                b,
                RunAnswer::Sat,
            );
            let model = format!(
                "sat\n(\n  (define-fun x () Int {})\n  (define-fun y () Int {})\n)\n",
                11 + i,
                i % 11
            );
            (r, model.into_bytes())
        })
        .collect();
    write_logs(dir, &mut runs);
    let mut records: Vec<IngestRecord> = runs.into_iter().map(|(r, _)| r).collect();
    let opts = ModelOptions {
        prepared: prepared.clone(),
        logs: dir.to_path_buf(),
        checker: Checker::Builtin(vec!["z3".into(), "-smt2".into()]),
        timeout: Duration::from_secs(30),
        cache: Some(dir.join("cache")),
        jobs: 2,
    };
    let t = Instant::now();
    let first = validate_models(&mut records, &opts);
    let t1 = t.elapsed().as_secs_f64();
    assert_eq!(
        (first.validated, first.checked, first.cache_hits),
        (RUNS, RUNS, 0)
    );
    assert_eq!(first.by_status.get("VALID"), Some(&RUNS), "{first:?}");
    let t = Instant::now();
    let second = validate_models(&mut records, &opts);
    let t2 = t.elapsed().as_secs_f64();
    assert_eq!((second.checked, second.cache_hits), (0, RUNS));
    println!(
        "{RUNS} sat runs: first run {t1:.2} s ({RUNS} z3 checks), second run {t2:.3} s ({RUNS} cache hits)"
    );
    // Never stale: the benchmark changes (x < 500), so every key changes and
    // models with x >= 60 are now INVALID.
    let file =
        smtcomp::prepare::PreparedSet::track_dir(&prepared, Track::ModelValidation).join(&b.path);
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("(check-sat)", "(assert (< x 60))\n(check-sat)");
    std::fs::write(&file, text).unwrap();
    let third = validate_models(&mut records, &opts);
    assert_eq!((third.checked, third.cache_hits), (RUNS, 0));
    let invalid = records
        .iter()
        .filter(|r| matches!(&r.validation, Some(Verdict::Model(v)) if v.status == ModelStatus::Invalid))
        .count();
    assert_eq!(invalid, RUNS - (60 - 11));
}
