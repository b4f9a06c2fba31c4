//! The model-validation cache on 1,000 sat runs: the first run checks every
//! model with z3, the second takes every verdict from the cache (0 checks,
//! 1,000 hits; the times are printed, not asserted); a changed benchmark is a new key, so verdicts are never stale.

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
    let set = prepare_x_gt_10(&prepared);
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

/// Recorded verdicts (`validate::record_verdicts`, what `scripts/bench-competition`
/// feeds model validation with) are the verdicts `validate-models` finds:
/// every one from the cache, no validator run (the "validator" is /bin/false,
/// which would make every model UNKNOWN). The command holds only the
/// Model-Validation runs: the other tracks' runs come out unchanged and in
/// their place.
#[test]
fn recorded_verdicts_are_found_and_other_runs_kept() {
    use smtcomp::ingest::{read_jsonl, write_jsonl};
    use smtcomp::model::Answer;
    use smtcomp::validate::{ModelVerdict, record_verdicts};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prepared = dir.join("prepared");
    let set = prepare_x_gt_10(&prepared);
    let b = &set.benchmarks[0];
    let mut runs: Vec<(IngestRecord, Vec<u8>)> = (0..6)
        .map(|i| {
            let r = record(Track::ModelValidation, &format!("s{i}"), b, RunAnswer::Sat);
            let model = format!("sat\n(\n  (define-fun x () Int {})\n)\n", 20 + i);
            (r, model.into_bytes())
        })
        .collect();
    write_logs(dir, &mut runs);
    // Single Query runs between the Model-Validation ones.
    let mut table = Vec::new();
    for (i, (r, _)) in runs.into_iter().enumerate() {
        let mut sq = record(Track::SingleQuery, &format!("q{i}"), b, RunAnswer::Unsat);
        sq.walltime = Some(i as f64 + 0.5);
        table.push(sq);
        table.push(r);
    }
    // Recorded: the even solvers' models invalid (a real check says valid).
    let recorded = |r: &IngestRecord| {
        let even = r.solver.trim_start_matches('s').parse::<u32>().unwrap() % 2 == 0;
        if even {
            ModelVerdict::new(Answer::ModelUnsat, Some("recorded".into()), "rec")
        } else {
            ModelVerdict::new(Answer::Sat, None, "rec")
        }
    };
    let opts = ModelOptions {
        prepared: prepared.clone(),
        logs: dir.to_path_buf(),
        checker: Checker::Builtin(vec!["/bin/false".into()]),
        timeout: Duration::from_secs(60),
        cache: Some(dir.join("cache")),
        jobs: 1,
    };
    assert_eq!(record_verdicts(&table, &opts, recorded).unwrap(), 6);
    let input = dir.join("runs.jsonl.gz");
    let output = dir.join("validated.jsonl.gz");
    write_jsonl(&input, None, &table).unwrap();
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let (code, out, err) = crate::support::smtcomp(&[
        "validate-models",
        "--runs",
        &p(&input),
        "--prepared",
        &p(&prepared),
        "--logs",
        &p(dir),
        "--cache",
        &p(&dir.join("cache")),
        "--solver",
        "/bin/false",
        "--timeout",
        "60",
        "-o",
        &p(&output),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            &summary["validated"],
            &summary["cache_hits"],
            &summary["checked"]
        ),
        (&6.into(), &6.into(), &0.into()),
        "{summary}"
    );
    let got = read_jsonl(&output).unwrap();
    assert_eq!(got.len(), table.len());
    for (g, want) in got.iter().zip(&table) {
        if g.track == Some(Track::SingleQuery) {
            assert_eq!(g, want);
            continue;
        }
        let Some(Verdict::Model(v)) = &g.validation else {
            panic!("{}: no model verdict", g.solver);
        };
        let r = recorded(want);
        assert_eq!(
            (g.solver.as_str(), v.status, v.result),
            (want.solver.as_str(), r.status, r.result)
        );
    }
    // The input is kept as it was.
    assert_eq!(read_jsonl(&input).unwrap(), table);
}
