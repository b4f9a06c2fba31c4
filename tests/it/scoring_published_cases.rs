//! Hand-computed cases of issue 17's published-pages items, through the CLI
//! (`tests/data/scoring/published-cases/`, arithmetic in its README.md and
//! below): the Unsat-Core/Model-Validation sat/unsat tables, negative core
//! reductions, `score --selection`, the 2024 submission schema and unknown
//! solvers, `ingest` then `score` = `score` for every track, and
//! `--continue-after-unknown` with the real trace executor and z3.

use crate::support::{data, require_tool, smtcomp};
use serde_json::Value;
use smtcomp::model::{Competition, Track};
use smtcomp::scoring::{self, Kind, Policy, ScoredRun};
use smtcomp::submission::load_set;
use std::path::{Path, PathBuf};

const CASES: &str = "scoring/published-cases";

fn case(p: &str) -> PathBuf {
    data::path(&format!("{CASES}/{p}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `smtcomp score --format json` of `results` (plus `extra`); (exit code,
/// document or Null, stderr).
fn score(track: &str, results: &[&Path], policy: &str, extra: &[&str]) -> (i32, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scores.json");
    let inv = case("inventory.json");
    let subs = case("submissions");
    let mut args = vec!["score", "--track", track, "--runs"];
    args.extend(results.iter().map(|p| s(p)));
    args.extend([
        "--inventory",
        s(&inv),
        "--submissions",
        s(&subs),
        "--policy",
        policy,
        "--format",
        "json",
        "-o",
        s(&out),
    ]);
    args.extend_from_slice(extra);
    let (code, _, err) = smtcomp(&args);
    let doc = std::fs::read_to_string(&out)
        .ok()
        .map_or(Value::Null, |t| serde_json::from_str(&t).unwrap());
    (code, doc, err)
}

/// The (solver, error, correct) rows of one table of a page.
fn rows(doc: &Value, page: &str, kind: &str) -> Vec<(String, i64, i64)> {
    doc["pages"][page][kind]
        .as_array()
        .unwrap_or_else(|| panic!("{page}/{kind} missing: {doc}"))
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["errorScore"].as_i64().unwrap(),
                r["correctScore"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn row(doc: &Value, page: &str, kind: &str, solver: &str) -> Value {
    doc["pages"][page][kind]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == solver)
        .unwrap_or_else(|| panic!("{page}/{kind}/{solver} missing"))
        .clone()
}

fn owned(v: &[(&str, i64, i64)]) -> Vec<(String, i64, i64)> {
    v.iter().map(|(a, b, c)| (a.to_string(), *b, *c)).collect()
}

/// Items 1 and 2 (Unsat Core). N (asserts): a = 10, b = 5 (status unknown),
/// d = 3. Cores: SolverA a 4, b 7, d 2 (all validated); SolverB a 12
/// (validated), b refuted (`UnsatCoreNotValidated`: e = 1), d timeout.
///
/// rules (clamped at 0):   A: n = (10-4) + max(0, 5-7) + (3-2) = 6 + 0 + 1 = 7
///                         B: n = max(0, 10-12) = 0, e = 1
/// published-2025:         A: n = 6 + (5-7) + 1 = 6 - 2 + 1 = 5
///                         B: n = 10 - 12 = -2, e = 1
/// published "unsat" table (every UC benchmark unsat: a, b, d): the same as
/// the parallel table; with the benchmark's status (a, d only): A 6 + 1 = 7,
/// B -2 with e = 0 (b, the refuted core, is not in the table).
#[test]
fn unsat_core_tables_and_negative_reductions() {
    let uc = case("results-uc-cases.json");
    let page = "qf_linearintarith-unsat-core";
    let (code, rules, err) = score("UnsatCore", &[&uc], "rules", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        rows(&rules, page, "parallel"),
        owned(&[("SolverA", 0, 7), ("SolverB", 1, 0)])
    );
    // Rules 7.2: no sat/unsat tables for Unsat Core.
    assert_eq!(rules["pages"][page]["unsat"], serde_json::json!([]));
    let (code, published, err) = score("UnsatCore", &[&uc], "published-2025", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        rows(&published, page, "parallel"),
        owned(&[("SolverA", 0, 5), ("SolverB", 1, -2)])
    );
    assert_eq!(
        rows(&published, page, "unsat"),
        owned(&[("SolverA", 0, 5), ("SolverB", 1, -2)])
    );
    // No benchmark is sat in the Unsat Core track: the sat table has no rows
    // (abstained_total_minus_rows: solvers without rows vanish).
    assert_eq!(published["pages"][page]["sat"], serde_json::json!([]));

    // The switch alone (library): the benchmark's status decides the table.
    let mut p = Policy::published_2025();
    p.track_status_for_uc_mv = false;
    let scores = scoring::score(&library_input(Track::UnsatCore, &uc), &p);
    let unsat = scores.groups[0].podium(Kind::Unsat).unwrap();
    let got: Vec<_> = unsat
        .steps
        .iter()
        .map(|s| (s.solver.as_str(), s.e, s.n))
        .collect();
    assert_eq!(got, [("SolverA", 0, 7), ("SolverB", 0, -2)]);
}

/// Item 1 (Model Validation): c is sat, b unknown. SolverA: both models
/// valid; SolverB: c `ModelUnsat` (e = 1), b `ModelPartialFunctionMissing` (0).
/// published "sat" table (every MV benchmark sat: b, c): A n = 2, B e = 1;
/// with the benchmark's status (c only): A n = 1.
#[test]
fn model_validation_sat_table() {
    let mv = case("results-mv-cases.json");
    let page = "qf_linearintarith-model-validation";
    let (code, published, err) = score("ModelValidation", &[&mv], "published-2025", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        rows(&published, page, "sat"),
        owned(&[("SolverA", 0, 2), ("SolverB", 1, 0)])
    );
    let mut p = Policy::published_2025();
    p.track_status_for_uc_mv = false;
    let scores = scoring::score(&library_input(Track::ModelValidation, &mv), &p);
    let sat = scores.groups[0].podium(Kind::Sat).unwrap();
    assert_eq!(
        (sat.steps[0].solver.as_str(), sat.steps[0].n),
        ("SolverA", 1)
    );
}

fn library_input(track: Track, results: &Path) -> scoring::ScoringInput {
    let comp = Competition::builtin(2025).unwrap();
    let subs = load_set(&[case("submissions")], &comp);
    let inv = smtcomp::benchmarks::Inventory::read(&case("inventory.json")).unwrap();
    let file: smtcomp::formats::results::ResultsFile =
        serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    let runs: Vec<ScoredRun> = file.results.iter().map(ScoredRun::from_record).collect();
    scoring::build_input(&comp, track, &subs, &inv, runs).0
}

/// Item 3. Parallel runs: SolverA a unsat, b sat; SolverB a timeout;
/// SolverC-cloud (entered, 2024 schema) none. Without a selection N = 2 (the
/// benchmarks with a run): A unsolved 0, B 2 (timeout a, no run on b), C 2.
/// With the union of the Parallel selection (a, b, c) and the Cloud one (c, d):
/// N = 4, A unsolved 4 - 2 = 2 (c, d missing), B 4 (missing b, c, d: 3),
/// C 4 (missing a, b, c, d: 4).
#[test]
fn selection_counts_benchmarks_without_runs() {
    let par = case("results-parallel-cases.json");
    let page = "qf_linearintarith-parallel";
    let unsolved =
        |doc: &Value, solver: &str| row(doc, page, "parallel", solver)["unsolved"].clone();
    let (code, plain, err) = score("Parallel", &[&par], "rules", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(plain["pages"][page]["n_benchmarks"], 2);
    assert_eq!(
        [
            unsolved(&plain, "SolverA"),
            unsolved(&plain, "SolverB"),
            unsolved(&plain, "SolverC-cloud")
        ],
        [0, 2, 2]
    );
    assert!(!err.contains("missing:"), "{err}");
    assert!(plain.get("missing").is_none());

    let (sel_p, sel_c) = (case("selection-parallel.json"), case("selection-cloud.txt"));
    let (code, sel, err) = score(
        "Parallel",
        &[&par],
        "rules",
        &["--selection", s(&sel_p), s(&sel_c)],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(sel["pages"][page]["n_benchmarks"], 4);
    assert_eq!(
        [
            unsolved(&sel, "SolverA"),
            unsolved(&sel, "SolverB"),
            unsolved(&sel, "SolverC-cloud")
        ],
        [2, 4, 4]
    );
    assert_eq!(row(&sel, page, "parallel", "SolverA")["correctScore"], 2);
    let missing: Vec<(String, u64)> = sel["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["solver"].as_str().unwrap().into(),
                m["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        missing,
        [
            ("SolverA".to_string(), 2),
            ("SolverB".to_string(), 3),
            ("SolverC-cloud".to_string(), 4)
        ]
    );
    assert!(
        err.contains(
            "missing: SolverA: 2 benchmark(s) without a run (scored unsolved), e.g. non-incremental/QF_LIA/cases/c.smt2, non-incremental/QF_LIA/cases/d.smt2"
        ),
        "{err}"
    );

    // A selection line that is not a benchmark path: exit 1, file and line named.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "non-incremental/QF_LIA/cases/a.smt2\nQF_LIA/x.smt2\n").unwrap();
    let (code, _, err) = score("Parallel", &[&par], "rules", &["--selection", s(&bad)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("bad.txt:2: 'QF_LIA/x.smt2' is not a benchmark path"),
        "{err}"
    );
}

/// Item 4: SolverC-cloud is a 2024-schema entry (Cloud/Parallel with an
/// `aws_repository`, no archive, no command): read, so its Cloud runs are
/// scored (a unsat, c sat: n = 2). A run of a solver no submission names is an
/// error naming it (exit 1) unless `--allow-unknown-solvers`.
#[test]
fn aws_entries_are_read_and_unknown_solvers_are_errors() {
    let cloud = case("results-cloud-cases.json");
    let (code, doc, err) = score("Cloud", &[&cloud], "rules", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        rows(&doc, "qf_linearintarith-cloud", "parallel"),
        owned(&[("SolverC-cloud", 0, 2)])
    );

    let dir = tempfile::tempdir().unwrap();
    let ghost = dir.path().join("ghost.json");
    let mut text = std::fs::read_to_string(&cloud).unwrap();
    text = text.replace("SolverC-cloud", "Ghost");
    std::fs::write(&ghost, text).unwrap();
    let (code, _, err) = score("Cloud", &[&cloud, &ghost], "rules", &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("runs of solvers that no submission names: Ghost (2 run(s))"),
        "{err}"
    );
    let (code, doc, err) = score(
        "Cloud",
        &[&cloud, &ghost],
        "rules",
        &["--allow-unknown-solvers"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("ignored: Ghost (2 run(s))"), "{err}");
    assert_eq!(
        rows(&doc, "qf_linearintarith-cloud", "parallel"),
        owned(&[("SolverC-cloud", 0, 2)])
    );
    // `report` reads runs the same way: the same error.
    let site = dir.path().join("site");
    let (inv, subs) = (case("inventory.json"), case("submissions"));
    let (code, _, err) = smtcomp(&[
        "report",
        "--track",
        "Cloud",
        "--runs",
        s(&cloud),
        s(&ghost),
        "--inventory",
        s(&inv),
        "--submissions",
        s(&subs),
        "-o",
        s(&site),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Cloud: runs of solvers that no submission names: Ghost (2 run(s))"),
        "{err}"
    );
}

/// Item 5: for every track, `ingest` then `score` gives the same document as
/// `score` of the results file, under both policies (the Unsat Core core sizes
/// and verdicts, the Model Validation verdicts and the incremental answers are
/// kept by `ingest`).
#[test]
fn ingest_then_score_equals_score_for_every_track() {
    let dir = tempfile::tempdir().unwrap();
    for (track, file) in [
        ("SingleQuery", "results-sq-cases.json"),
        ("Incremental", "results-inc-cases.json"),
        ("UnsatCore", "results-uc-cases.json"),
        ("ModelValidation", "results-mv-cases.json"),
        ("Parallel", "results-parallel-cases.json"),
        ("Cloud", "results-cloud-cases.json"),
    ] {
        let table = dir.path().join(format!("{track}.jsonl"));
        let (code, _, err) = smtcomp(&["ingest", s(&case(file)), "-o", s(&table), "--quiet"]);
        assert_eq!(code, 0, "ingest {file}: {err}");
        for policy in ["rules", "published-2025"] {
            let (c1, direct, e1) = score(track, &[&case(file)], policy, &[]);
            let (c2, ingested, e2) = score(track, &[&table], policy, &[]);
            assert_eq!((c1, c2), (0, 0), "{track} {policy}: {e1} {e2}");
            assert!(
                direct == ingested,
                "{track} {policy}: the run table scores differently:\n{direct}\n{ingested}"
            );
        }
    }
}

/// Item 6: `sat, unknown, sat` run by the real trace executor and z3. With
/// `--continue-after-unknown` (the 2025 definition) the three check-sats are
/// answered: 3 correct answers (n = 3); without it the run stops at the
/// `unknown` expectation: 1.
#[test]
fn continue_after_unknown_scores_every_answer() {
    if require_tool("z3").is_none() {
        return;
    }
    let comp = Competition::builtin(2025).unwrap();
    assert!(
        comp.track(Track::Incremental)
            .unwrap()
            .continue_after_unknown
    );
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("i.smt2");
    std::fs::write(
        &bench,
        "sat\nunknown\nsat\n--- BENCHMARK BEGINS HERE ---\n(set-logic QF_LIA)\n(declare-fun x () Int)\n\
         (assert (> x 0))\n(check-sat)\n(assert (> x 1))\n(check-sat)\n(assert (> x 2))\n(check-sat)\n(exit)\n",
    )
    .unwrap();
    let executor =
        Path::new(env!("CARGO_BIN_EXE_smtcomp")).with_file_name("smtcomp-trace-executor");
    let answers = |flags: &[&str]| -> u64 {
        let out = std::process::Command::new(&executor)
            .args(flags)
            .args(["--", "z3", "-in"])
            .arg(&bench)
            .output()
            .expect("run smtcomp-trace-executor (cargo build --workspace)");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{text}");
        // The tool-info's `correct` column: lines that are sat or unsat.
        text.lines()
            .filter(|l| matches!(l.trim(), "sat" | "unsat"))
            .count() as u64
    };
    assert_eq!(answers(&["--times"]), 1);
    let n = answers(&["--times", "--continue-after-unknown"]);
    assert_eq!(n, 3);
    // Scored: the results record of that run gives 3 correct answers.
    let results = dir.path().join("results-inc.json");
    let text = std::fs::read_to_string(case("results-inc-cases.json"))
        .unwrap()
        .replacen("\"nb_answers\": 3", &format!("\"nb_answers\": {n}"), 1);
    std::fs::write(&results, text).unwrap();
    let (code, doc, err) = score("Incremental", &[&results], "rules", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        row(&doc, "qf_linearintarith-incremental", "parallel", "SolverA")["correctScore"],
        3
    );
}

/// Item 4: the 2024 schema as published (the 2024 template's `aws_dockerfile`,
/// a `cvc5-cloud`-like entry with `aws_repository` and a repeated key in a
/// contributor object) is read; an AWS repository outside Cloud/Parallel is
/// refused with its JSON path, as the 2024 schema does.
#[test]
fn the_2024_submission_schema_is_read() {
    use smtcomp::submission::{Problems, parse_submission};
    let head = r#""contacts": ["Jane <jane@example.org>"], "website": "https://example.org/",
        "system_description": "https://example.org/d.pdf", "solver_type": "Standalone", "seed": "42""#;
    let template = format!(
        r#"{{"name": "t", "contributors": ["First Smith", {{"name": "Second Baker", "website": "http://baker.com/"}}], {head},
        "participations": [
          {{"tracks": ["Cloud"], "divisions": ["Equality"], "aws_dockerfile": "https://github.com/project/repository"}},
          {{"tracks": ["Parallel"], "logics": "QF_.*LRA.*", "aws_dockerfile": "https://github.com/project/repository"}}]}}"#
    );
    let cloud = format!(
        r#"{{"name": "cvc5-cloud", "contributors": ["A", {{"name": "B", "name": "C"}}], {head},
        "participations": [{{"tracks": ["Cloud"], "logics": ["QF_UF", "QF_LIA"],
          "aws_repository": "https://github.com/example/smtcomp24"}}]}}"#
    );
    for text in [&template, &cloud] {
        let mut p = Problems::new("s.json");
        let sub = parse_submission(text, &mut p);
        assert!(!p.has_errors(), "{p:?}");
        let sub = sub.unwrap();
        assert!(sub.archive.is_none() && sub.command.is_none());
        assert!(
            sub.participations
                .iter()
                .all(|p| p.aws_repository.is_some())
        );
    }
    let wrong = cloud.replace(r#"["Cloud"]"#, r#"["SingleQuery"]"#);
    let mut p = Problems::new("s.json");
    assert!(parse_submission(&wrong, &mut p).is_none());
    let text = format!("{p:?}");
    assert!(text.contains("participations[0].aws_repository"), "{text}");
    assert!(
        text.contains("only with the Cloud and Parallel tracks"),
        "{text}"
    );
}
