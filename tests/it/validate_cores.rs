//! Unsat-core validation end to end with real solvers on the curated corpus:
//! z3 and cvc5 produce cores, a mock solver drops a needed assertion; the
//! validators (z3, cvc5, yices, sound in SQ) run locally with the producing
//! run's time limit; the majority rule refutes the wrong core (e = 1) and
//! validates the right ones (n = reduction).

use crate::support::solvers::{require_tools, run_solver};
use crate::support::validate::*;
use crate::support::{root, smtcomp};
use smtcomp::ingest::parse_unsat_core;
use smtcomp::ingest::{IngestRecord, RunAnswer, read_jsonl, write_jsonl};
use smtcomp::model::{Status, Track};
use smtcomp::scoring::{RunScore, run_score};
use smtcomp::validate::cores::{self, CoreManifest, Validators};
use smtcomp::validate::{CoreStatus, Verdict};

const LOGICS: &[&str] = &["QF_UF", "QF_LRA", "QF_BV", "QF_UFLIA", "QF_AX", "QF_LIA"];

fn core_run(
    solver: &str,
    cmd: &str,
    b: &smtcomp::prepare::PreparedBenchmark,
    file: &std::path::Path,
) -> IngestRecord {
    let (out, time) = run_solver(cmd, file);
    let mut r = record(Track::UnsatCore, solver, b, answer_of(&out));
    r.walltime = Some(time);
    let after = out.find('\n').map_or("", |i| &out[i + 1..]);
    r.unsat_core = parse_unsat_core(after.as_bytes()).unwrap();
    r
}

#[test]
fn cores_are_validated_refuted_and_scored() {
    if !require_tools(&["z3", "cvc5", "yices-smt2"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let prepared = dir.join("prepared");
    let files = corpus_files(LOGICS, Status::Unsat);
    assert!(files.len() >= 5);
    let set = prepare(Track::UnsatCore, &files, &prepared);
    let uc_dir = smtcomp::prepare::PreparedSet::track_dir(&prepared, Track::UnsatCore);
    let dropper = root().join("tests/data/validate/mock-core-dropper.sh");
    let mut runs = Vec::new();
    let mut sq = Vec::new();
    for b in &set.benchmarks {
        let f = uc_dir.join(&b.path);
        runs.push(core_run("z3", "z3 -smt2", b, &f));
        runs.push(core_run("cvc5", "cvc5 --lang smt2", b, &f));
        runs.push(core_run("dropper", dropper.to_str().unwrap(), b, &f));
        // Single Query results: z3, cvc5 and yices sound; "liar" says sat on an unsat benchmark.
        for (s, a) in [
            ("z3", RunAnswer::Unsat),
            ("cvc5", RunAnswer::Unsat),
            ("yices", RunAnswer::Unsat),
            ("liar", RunAnswer::Sat),
        ] {
            sq.push(record(Track::SingleQuery, s, b, a));
        }
    }
    for r in &runs {
        assert_eq!(
            r.answer,
            RunAnswer::Unsat,
            "{} on {}",
            r.solver,
            r.benchmark_key
        );
        assert!(
            r.unsat_core.is_some(),
            "{} on {}",
            r.solver,
            r.benchmark_key
        );
    }
    let runs_path = dir.join("uc-runs.jsonl");
    let sq_path = dir.join("sq-runs.jsonl.gz");
    write_jsonl(&runs_path, None, &runs).unwrap();
    write_jsonl(&sq_path, None, &sq).unwrap();
    let exec = dir.join("exec");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let (code, out, err) = smtcomp(&[
        "validate-cores",
        "generate",
        "--runs",
        &p(&runs_path),
        "--prepared",
        &p(&prepared),
        "--out",
        &p(&exec),
        "--sq-runs",
        &p(&sq_path),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let manifest = CoreManifest::read(&exec).unwrap();
    // Distinct cores only: at most 3 per benchmark, every task has the sound validators.
    assert!(manifest.tasks.len() <= 3 * set.benchmarks.len());
    for t in &manifest.tasks {
        assert_eq!(t.validators, ["cvc5", "yices", "z3"], "{}", t.file);
        let longest = t
            .producers
            .iter()
            .filter_map(|p| p.time)
            .fold(0.0, f64::max);
        // Default `--time-limit track`: the 2025 Unsat Core limit (1200 s),
        // never below the producing run's time.
        assert_eq!(t.time_limit, longest.max(1200.0));
        let text = std::fs::read_to_string(CoreManifest::dir(&exec).join(&t.file)).unwrap();
        assert!(!text.contains(":named"), "{text}");
        assert_eq!(text.matches("(assert ").count(), t.core.len(), "{text}");
    }
    // The validation tasks are a prepared set: the BenchExec generator can take them.
    let vset = smtcomp::prepare::PreparedSet::read(&exec, Track::UnsatCoreValidation).unwrap();
    assert_eq!(vset.benchmarks.len(), manifest.tasks.len());

    let (code, out, err) = smtcomp(&[
        "validate-cores",
        "run",
        "--exec",
        &p(&exec),
        "--solver",
        "z3=z3 -smt2",
        "--solver",
        "cvc5=cvc5 --lang smt2",
        "--solver",
        "yices=yices-smt2",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = smtcomp(&[
        "validate-cores",
        "join",
        "--runs",
        &p(&runs_path),
        "--exec",
        &p(&exec),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let joined = read_jsonl(&runs_path).unwrap();
    let mut refuted = 0;
    for r in &joined {
        let Some(Verdict::Core(v)) = &r.validation else {
            panic!("no verdict for {} on {}", r.solver, r.benchmark_key)
        };
        let b = set
            .benchmarks
            .iter()
            .find(|b| b.original.path() == r.benchmark_key)
            .unwrap();
        let score = run_score(r, b.count).unwrap();
        let size = r.unsat_core.as_ref().unwrap().names.len() as u64;
        match r.solver.as_str() {
            "z3" | "cvc5" => {
                assert_eq!(v.status, CoreStatus::Validated, "{r:?}");
                assert_eq!((v.unsat, v.sat), (3, 0));
                assert_eq!(
                    score,
                    RunScore {
                        error: 0,
                        correct: b.count - size
                    }
                );
            }
            _ => {
                // Dropping a name from a core either keeps it unsat (validated)
                // or makes it sat: then every validator says so, and it is an error.
                if v.status == CoreStatus::Refuted {
                    refuted += 1;
                    assert_eq!((v.unsat, v.sat), (0, 3), "{r:?}");
                    assert_eq!(
                        score,
                        RunScore {
                            error: 1,
                            correct: 0
                        }
                    );
                } else {
                    assert_eq!(v.status, CoreStatus::Validated);
                }
            }
        }
    }
    assert!(
        refuted >= 3,
        "the mock's wrong cores must be refuted ({refuted})"
    );
    println!("{out}");

    // `smtcomp run`'s streaming path on one table of both tracks: the same
    // validators and runs to validate, and the same verdicts as the command.
    let both = dir.join("both.jsonl.gz");
    let all: Vec<IngestRecord> = sq.iter().chain(&runs).cloned().collect();
    write_jsonl(&both, None, &all).unwrap();
    let comp = smtcomp::model::Competition::builtin(2025).unwrap();
    let inputs = smtcomp::pipeline::core_inputs(&both, &comp, &prepared).unwrap();
    assert_eq!(inputs.with_core, runs);
    let Validators::SoundInSq(sound) = &inputs.validators else {
        panic!("{:?}", inputs.validators)
    };
    assert!(!sound.is_empty());
    for solvers in sound.values() {
        assert_eq!(solvers.iter().collect::<Vec<_>>(), ["cvc5", "yices", "z3"]);
    }
    assert!(smtcomp::pipeline::has_unsat_cores(&both).unwrap());
    assert!(!smtcomp::pipeline::has_unsat_cores(&sq_path).unwrap());
    let validation = read_jsonl(&CoreManifest::dir(&exec).join(cores::LOCAL_RUNS)).unwrap();
    let verdicts = smtcomp::pipeline::CoreVerdicts {
        manifest: &manifest,
        validation: &validation,
        rule: smtcomp::validate::CoreRule::Majority2025,
    };
    let out_path = dir.join("both-validated.jsonl.gz");
    let models = smtcomp::pipeline::z3_models(&prepared, dir, None, 1);
    let done =
        smtcomp::pipeline::validate_table(&both, &out_path, Some(verdicts), &models).unwrap();
    assert_eq!(done.runs, all.len());
    assert!(done.models.is_none(), "no Model-Validation run");
    let written = read_jsonl(&out_path).unwrap();
    let (sq_out, uc_out) = written.split_at(sq.len());
    assert_eq!(sq_out, &sq[..], "Single Query runs unchanged");
    assert_eq!(uc_out, &joined[..], "the command's verdicts");
    assert_eq!(read_jsonl(&both).unwrap(), all, "the input is kept");
}
