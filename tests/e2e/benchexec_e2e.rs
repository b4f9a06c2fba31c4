//! End to end on real BenchExec with real solvers: `smtcomp generate` on the demo
//! prepared set (Single Query, Incremental through our trace executor, Unsat Core,
//! Model Validation, Proof Exhibition through our proof wrapper) for z3, yices, cvc5, cvc4 and a solver with a hostile name,
//! then `smtcomp run-local`; every run of every rundefinition must be in the
//! result XML with a status that agrees with the corpus' expected answers.
//!
//! Needs `benchexec`, `z3`, `yices-smt2`, `cvc5`, `cvc4` on PATH; fails when one is
//! missing and `SMTCOMP_REQUIRE_SOLVERS=1`, else prints "skipped: ...".

use crate::support::benchexec::{normalize, read_result_runs};
use crate::support::{copy_tree, require_tool, root, work_dir};
use smtcomp::benchexec::Manifest;
use smtcomp::model::{Status, Track};
use std::process::Command;

const HOSTILE: &str = "we<&\"' /ird (solver)";

#[test]
fn real_benchexec_runs_agree_with_the_corpus() {
    for tool in ["benchexec", "z3", "yices-smt2", "cvc5", "cvc4"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    let work = work_dir("e2e");
    let prepared = work.path().join("tests/data/prepared-demo");
    copy_tree(&root().join("tests/data/prepared-demo"), &prepared);
    let subs = work.path().join("submissions");
    copy_tree(&root().join("demo/submissions"), &subs);
    // A solver name with every troublesome character, running z3 in Single Query.
    let z3 = std::fs::read_to_string(subs.join("z3.json")).unwrap();
    let hostile = z3
        .replace("\"name\": \"z3\"", &format!("\"name\": {}", serde_json::to_string(HOSTILE).unwrap()))
        .replace("\"SingleQuery\", \"UnsatCore\", \"ModelValidation\"", "\"SingleQuery\"")
        .replace(
            "{ \"tracks\": [\"Incremental\"], \"logics\": \"QF_.*\", \"command\": [\"z3\", \"-in\"] }",
            "{ \"tracks\": [\"SingleQuery\"], \"logics\": \"QF_BV\", \"command\": [\"env\", \"X=it's \\\"q\\\" <&> ~\", \"z3\", \"-smt2\"] }",
        );
    std::fs::write(subs.join("hostile.json"), hostile).unwrap();
    let ex = work.path().join("ex");
    // cvc5's Proof Exhibition entry runs `./smtcomp_solver` from its archive
    // (with its `smtcomp_checker` next to it): unpacked where generate
    // looks for it (generate fails when it is missing).
    let archive = ex.join("archives/cvc5");
    std::fs::create_dir_all(&archive).unwrap();
    for f in ["smtcomp_solver", "smtcomp_checker"] {
        std::fs::copy(root().join("demo/archives/cvc5").join(f), archive.join(f)).unwrap();
    }

    let smtcomp = crate::support::smtcomp_bin();
    let o = Command::new(&smtcomp)
        .arg("--competition")
        .arg(root().join("demo/competition.toml"))
        .args(["generate", "--solvers-on-path", "--submissions"])
        .arg(&subs)
        .arg("--prepared")
        .arg(&prepared)
        .arg("--out")
        .arg(&ex)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let start = std::time::Instant::now();
    let log = std::fs::File::create(work.path().join("run-local.log")).unwrap();
    let status = Command::new(&smtcomp)
        .arg("run-local")
        .arg(&ex)
        .args(["--jobs", "2", "--start-time", "2025-06-01 12:00:00"])
        .stdin(std::process::Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .status()
        .unwrap();
    let log_text = std::fs::read_to_string(work.path().join("run-local.log")).unwrap();
    assert!(status.success(), "run-local failed:\n{log_text}");
    println!("run-local: {:.1} s", start.elapsed().as_secs_f64());

    let m = Manifest::read(&ex).unwrap();
    let tracks: std::collections::BTreeSet<Track> =
        m.definitions.values().map(|d| d.track).collect();
    assert_eq!(
        tracks.into_iter().collect::<Vec<_>>(),
        vec![
            Track::SingleQuery,
            Track::Incremental,
            Track::UnsatCore,
            Track::ModelValidation,
            Track::ProofExhibition
        ]
    );
    let hostile_slug = &m.solvers[HOSTILE];
    assert!(m.definitions.values().any(|d| d.solver == HOSTILE));
    let mut checked = 0;
    for d in m.definitions.values() {
        let dir = ex.join(&d.results_dir);
        for (rd_name, rd) in &d.rundefinitions {
            let file = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    let n = p.file_name().unwrap().to_string_lossy().into_owned();
                    n.ends_with(&format!(".results.{rd_name}.xml.bz2"))
                })
                .unwrap_or_else(|| panic!("{}: no result file for {rd_name}", dir.display()));
            let runs = read_result_runs(&file);
            assert_eq!(runs.len(), rd.tasks, "{}", file.display());
            for run in runs {
                let task = normalize(&dir, &run.name);
                let key = task.strip_prefix(&ex).unwrap().display().to_string();
                let t = m
                    .tasks
                    .get(&key)
                    .unwrap_or_else(|| panic!("{key} not in the manifest"));
                let status = run.columns.get("status").map(String::as_str);
                let ctx = format!("{} {rd_name} {key}: {:?}", d.path, run.columns);
                match d.track {
                    Track::Incremental => {
                        assert_eq!(status, Some("done"), "{ctx}");
                        let n = t.expected.as_ref().unwrap().len().to_string();
                        assert_eq!(run.columns.get("correct"), Some(&n), "{ctx}");
                        assert_eq!(
                            run.columns.get("wrong").map(String::as_str),
                            Some("0"),
                            "{ctx}"
                        );
                        assert!(run.columns.contains_key("last-answer-time"), "{ctx}");
                    }
                    _ => {
                        let want = match t.status {
                            Status::Sat => "true",
                            Status::Unsat => "false",
                            s => panic!("{ctx}: unexpected status {s}"),
                        };
                        assert_eq!(status, Some(want), "{ctx}");
                        assert_eq!(
                            run.columns.get("category").map(String::as_str),
                            Some("correct"),
                            "{ctx}"
                        );
                        if d.track == Track::UnsatCore {
                            let n: usize = run.columns["unsat-core"].parse().unwrap();
                            assert!(n >= 1, "{ctx}");
                        }
                        if d.track == Track::ProofExhibition {
                            assert_eq!(
                                run.columns.get("proof").map(String::as_str),
                                Some("valid"),
                                "{ctx}"
                            );
                        }
                        if d.track == Track::ModelValidation {
                            assert_eq!(
                                run.columns.get("model").map(String::as_str),
                                Some("yes"),
                                "{ctx}"
                            );
                        }
                    }
                }
                checked += 1;
            }
        }
        // Logs are where ingestion looks for them.
        assert!(
            std::fs::read_dir(&dir).unwrap().any(|e| e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".logfiles.zip")),
            "{}: no logfiles.zip",
            dir.display()
        );
    }
    // 5 solvers x 5 Single Query tasks (+2 for the hostile second participation),
    // 4 x (2 incremental + 2 unsat-core + 2 model-validation), 1 proof (cvc5).
    assert_eq!(checked, 5 * 5 + 2 + 4 * 6 + 1);
    // Ingestion maps every run back through the generated per-run manifest.
    let runs = work.path().join("runs.jsonl");
    let o = Command::new(&smtcomp)
        .arg("--competition")
        .arg(root().join("demo/competition.toml"))
        .arg("ingest")
        .arg(ex.join("results"))
        .arg("--manifest")
        .arg(ex.join("runs-manifest.json.gz"))
        .arg("-o")
        .arg(&runs)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "ingest: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let records: Vec<serde_json::Value> = std::fs::read_to_string(&runs)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("run_table").is_none()) // the header line (competition identity)
        .collect();
    assert_eq!(records.len(), checked);
    for r in &records {
        assert_eq!(r["guessed"], serde_json::json!([]), "{r}");
        assert_ne!(r["answer"], "error", "{r}");
    }
    assert!(records.iter().any(|r| r["solver"] == HOSTILE));
    let proofs: Vec<_> = records
        .iter()
        .filter(|r| r["track"] == "ProofExhibition")
        .collect();
    assert_eq!(proofs.len(), 1);
    assert_eq!(proofs[0]["answer"], "unsat", "{}", proofs[0]);
    assert_eq!(proofs[0]["proof"]["verdict"], "valid", "{}", proofs[0]);

    // The hostile argument reached the solver exactly (BenchExec logs the argv shell-quoted).
    let dir = ex
        .join("results/single-query")
        .join(format!("{hostile_slug}_QF_Bitvec"));
    let zip_path = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".logfiles.zip"))
        .unwrap();
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap()).unwrap();
    let mut found = false;
    for i in 0..zip.len() {
        use std::io::Read;
        let mut text = String::new();
        zip.by_index(i).unwrap().read_to_string(&mut text).unwrap();
        found |= text
            .lines()
            .next()
            .unwrap()
            .contains(r#"'X=it'"'"'s "q" <&> ~'"#);
    }
    assert!(
        found,
        "{}: the argument was not passed exactly",
        zip_path.display()
    );
}
