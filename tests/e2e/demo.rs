//! The demo competition end to end (`smtcomp demo`): real BenchExec, real
//! solvers (z3, yices, cvc5, cvc4), our trace executor; the runs are checked
//! against the corpus' known answers and every selected benchmark must have a
//! run for every entered solver. The Proof Exhibition Track runs cvc5 through
//! the proof wrapper and its checker: every proof is checked valid and
//! summarized (not scored). A second run reuses every stage.

use crate::support::{require_tool, root};
use std::process::Command;

#[test]
fn demo_runs_the_whole_pipeline_and_reuses_finished_stages() {
    for tool in ["benchexec", "z3", "yices-smt2", "cvc5", "cvc4"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    // Not under /tmp: BenchExec's container hides /tmp.
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-test");
    let run = |fresh: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_smtcomp"));
        cmd.current_dir(root())
            .args(["demo", "--jobs", "2", "--out"])
            .arg(&out);
        if fresh {
            cmd.arg("--fresh");
        }
        let o = cmd.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run(true);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "Check: every selected benchmark ran for every entered solver; no wrong answer"
        ),
        "{stdout}"
    );
    for line in [
        "SingleQuery",
        "Incremental",
        "UnsatCore",
        "ModelValidation",
        "ProofExhibition",
    ] {
        assert!(
            stdout.contains(&format!("  {line}")),
            "{line} missing:\n{stdout}"
        );
    }
    assert!(stdout.contains("Winners (competitive divisions, rules policy):"));
    for f in [
        "single-query.md",
        "incremental.json",
        "unsat-core.md",
        "model-validation.json",
    ] {
        assert!(out.join("scores").join(f).is_file(), "{f}");
    }
    assert!(
        stderr.contains("demo: benchexec runs: 154 definitions run"),
        "{stderr}"
    );
    // Proof Exhibition: cvc5 on the 16 unsat QF_ benchmarks of the corpus, every
    // proof accepted by the checker, summarized per division (not scored).
    assert!(
        stdout.contains("  ProofExhibition  unsat 16 (expected runs: 16)"),
        "{stdout}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("scores/proof-exhibition.json")).unwrap())
            .unwrap();
    let lines = summary["lines"].as_array().unwrap();
    let count = |k: &str| -> u64 {
        lines
            .iter()
            .map(|l| l["verdicts"][k].as_u64().unwrap())
            .sum()
    };
    assert_eq!((count("valid"), count("invalid"), count("sat")), (16, 0, 0));
    assert!(
        lines
            .iter()
            .all(|l| l["solver"] == "cvc5" && l["errors"] == 0)
    );
    let page = std::fs::read_to_string(out.join("site/proof-exhibition/index.html")).unwrap();
    assert!(
        page.contains("<td class=\"name\">QF_Equality</td>"),
        "{page}"
    );
    let index = std::fs::read_to_string(out.join("site/index.html")).unwrap();
    assert!(index.contains("href=\"proof-exhibition/index.html\""));

    let (code, stdout2, stderr2) = run(false);
    assert_eq!(code, Some(0), "{stdout2}\n{stderr2}");
    assert!(
        stderr2.contains("demo: benchexec runs: reused"),
        "{stderr2}"
    );
    // Same runs, same scores.
    let tail = |s: &str| s.split("Winners").nth(1).map(str::to_string);
    assert_eq!(
        tail(&stdout).map(|t| t.split("Stages:").next().unwrap().to_string()),
        tail(&stdout2).map(|t| t.split("Stages:").next().unwrap().to_string())
    );
}
