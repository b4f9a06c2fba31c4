//! A small competition run as an organizer runs it: `smtcomp init` + `smtcomp
//! run` (real BenchExec, z3 and Yices 2; Single Query, Unsat Core with its
//! second BenchExec round of core validation, Model Validation) + `smtcomp
//! export website`, with `smtcomp status` before, after, and after results
//! were lost. A second `run` resumes every stage without running BenchExec
//! again (the result files are untouched).

use crate::support::{require_tool, root, work_dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// (logic directory, corpus file): two unsat benchmarks with named
/// assertions (Unsat Core) and two QF_LIA ones (one sat: Model Validation).
const LIBRARY: &[(&str, &str)] = &[
    (
        "QF_AX",
        "CVC4-1.8_test_regress_regress0_arrays_bool-array.smt2",
    ),
    ("QF_UFLIA", "CVC4-1.8_test_regress_regress0_bug303.smt2"),
    ("QF_LIA", "CVC4-1.8_test_regress_regress0_bug383.smt2"),
    (
        "QF_LIA",
        "CVC4-1.8_test_regress_regress1_simplification_bug4.smt2",
    ),
];

fn smtcomp(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::support::smtcomp_bin())
        .args(args)
        .current_dir(dir)
        .env_remove("SMTCOMP_WORKSPACE")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each stage line of `smtcomp run`'s output: (stage, state).
fn states(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter(|l| l.len() > 29 && !l.starts_with("workspace ") && !l.starts_with("next:"))
        .filter(|l| !l.starts_with(' ') && !l.starts_with("left:"))
        .map(|l| {
            let (stage, rest) = l.split_at(29);
            let state = rest.split_whitespace().next().unwrap_or("").to_string();
            (stage.trim().to_string(), state)
        })
        .collect()
}

/// Every result file below `dir` with its modification time.
fn result_files(dir: &Path) -> BTreeMap<PathBuf, std::time::SystemTime> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            let p = e.path().to_string_lossy();
            p.contains(".results.") && p.ends_with(".xml.bz2")
        })
        .map(|e| {
            (
                e.path().to_path_buf(),
                e.metadata().unwrap().modified().unwrap(),
            )
        })
        .collect()
}

#[test]
fn init_run_status_and_export_run_a_small_competition_and_resume() {
    for tool in ["benchexec", "z3", "yices-smt2"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    let start = std::time::Instant::now();
    let work = work_dir("workspace");
    let base = work.path();
    for (logic, file) in LIBRARY {
        let to = base.join("library/non-incremental").join(logic);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(
            root().join("corpus/single").join(logic).join(file),
            to.join(file),
        )
        .unwrap();
    }
    std::fs::create_dir_all(base.join("submissions")).unwrap();
    for s in ["z3.json", "yices.json"] {
        std::fs::copy(
            root().join("demo/submissions").join(s),
            base.join("submissions").join(s),
        )
        .unwrap();
    }
    let init = crate::support::demo_init_args(&["SingleQuery", "UnsatCore", "ModelValidation"], 2);
    let init: Vec<&str> = init.iter().map(String::as_str).collect();
    let (code, _, err) = smtcomp(base, &init);
    assert_eq!(code, 0, "{err}");
    let ws = base.join("ws");

    // Before the run: nothing generated, exit 1.
    let (code, out, _) = smtcomp(&ws, &["status"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("runs: not generated yet ("), "{out}");

    // The run: every stage done, both BenchExec rounds.
    let (code, out, err) = smtcomp(&ws, &["run"]);
    assert_eq!(code, 0, "{out}{err}");
    let all: Vec<(String, String)> = smtcomp::pipeline::Step::ALL
        .iter()
        .map(|s| (s.name().to_string(), "done".to_string()))
        .collect();
    assert_eq!(states(&out), all, "{out}");
    // 4 SQ benchmarks x 2 + 2 UC x 2 + 1 MV x 2 = 14 runs in 12 definitions;
    // 2 distinct cores x 2 validators = 4 validation runs.
    assert!(
        out.contains("generation                   done     12 definitions, 14 runs"),
        "{out}"
    );
    assert!(out.contains("core validation: runs        done     definitions run: 4 (local); all 4 runs have results"), "{out}");
    assert!(out.contains("validation                   done     cores validated 4 (4 validator runs); models VALID 2 (2 checked)"), "{out}");
    assert!(
        out.ends_with("next: smtcomp export website -o OUT\nevery stage done\n"),
        "{out}"
    );

    // Again: every stage resumed, BenchExec not called (result files untouched).
    let before = result_files(&ws.join("exec"));
    assert_eq!(before.len(), 12 + 4, "{before:#?}");
    let (code, again, err) = smtcomp(&ws, &["run"]);
    assert_eq!(code, 0, "{again}{err}");
    let resumed: Vec<(String, String)> = smtcomp::pipeline::Step::ALL
        .iter()
        .map(|s| {
            let s = s.name();
            let state = if matches!(s, "scoring" | "report") {
                "done"
            } else {
                "resumed"
            };
            (s.to_string(), state.to_string())
        })
        .collect();
    assert_eq!(states(&again), resumed, "{again}");
    assert!(
        again.contains("runs                         resumed  all 14 runs have results"),
        "{again}"
    );
    assert_eq!(result_files(&ws.join("exec")), before);

    // Status: complete, exit 0.
    let (code, json, _) = smtcomp(&ws, &["status", "--json"]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for (i, n) in [(0, 14), (1, 4)] {
        let r = &v["rounds"][i];
        assert_eq!(
            (
                r["expected"].as_u64(),
                r["done"].as_u64(),
                r["missing"].as_u64()
            ),
            (Some(n), Some(n), Some(0)),
            "{json}"
        );
    }

    // The website files from the workspace's inputs alone.
    let (code, out, err) = smtcomp(&ws, &["export", "website", "web"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("wrote ") && out.contains("for SingleQuery, UnsatCore, ModelValidation"),
        "{out}"
    );
    assert!(
        ws.join("web/content/results/results-single-query.md")
            .is_file()
            || ws.join("web/content/results").read_dir().unwrap().count() > 10
    );

    // Results lost: status names the missing runs (exit 1); run runs just them.
    let lost = ws.join("exec/results/single-query/Yices_2_QF_LinearIntArith");
    std::fs::remove_dir_all(&lost).unwrap();
    let (code, out, _) = smtcomp(&ws, &["status"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("  12 of 14 runs done (86 %), 0 failed, 2 missing\n"),
        "{out}"
    );
    assert!(
        out.contains("  missing: Yices_2_QF_LinearIntArith.xml: Yices_2,0,SingleQuery: "),
        "{out}"
    );
    let (code, out, err) = smtcomp(&ws, &["run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("runs                         done     definitions run: 1 (local); all 14 runs have results"), "{out}");
    assert!(
        out.contains("ingestion                    done     14 runs"),
        "{out}"
    );
    assert_eq!(smtcomp(&ws, &["status"]).0, 0);
    println!("workspace e2e: {:.1} s", start.elapsed().as_secs_f64());
}
