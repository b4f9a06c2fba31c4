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
    let out = crate::support::target_tmp().join("demo-test");
    let run = |fresh: bool| {
        let mut cmd = Command::new(crate::support::smtcomp_bin());
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
        stderr.contains("demo: runs: 154 definitions run"),
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
    assert!(stderr2.contains("demo: runs: reused"), "{stderr2}");
    // Same runs, same scores.
    let tail = |s: &str| s.split("Winners").nth(1).map(str::to_string);
    assert_eq!(
        tail(&stdout).map(|t| t.split("Stages:").next().unwrap().to_string()),
        tail(&stdout2).map(|t| t.split("Stages:").next().unwrap().to_string())
    );
}

/// The keys of `demo --json`, in their documented order.
pub const DEMO_JSON_KEYS: [&str; 9] = [
    "output",
    "site_index",
    "ok",
    "runs",
    "winners",
    "proofs",
    "stages",
    "missing",
    "wrong",
];

/// The records of a run table (every gzip member, the header line dropped).
pub fn table(path: &std::path::Path) -> Vec<serde_json::Value> {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("run_table").is_none())
        .collect()
}

/// Checks a `demo --json` document of the demo written to `out` against the
/// files it wrote: its keys in the documented order, the answers per track
/// equal to the validated run table's, every winner named in its track's
/// score table, the site index there.
pub fn check_demo_json(v: &serde_json::Value, out: &std::path::Path) {
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, DEMO_JSON_KEYS);
    assert_eq!(v["output"], out.display().to_string());
    assert_eq!(v["ok"], true);
    assert_eq!(v["missing"], serde_json::json!([]));
    assert_eq!(v["wrong"], serde_json::json!([]));
    let index = out.join("site/index.html");
    assert_eq!(v["site_index"], index.display().to_string());
    assert!(index.is_file());
    // runs: TRACK -> {answers: {ANSWER: n}, expected}, as counted in the table.
    let mut counted: std::collections::BTreeMap<String, std::collections::BTreeMap<String, u64>> =
        Default::default();
    for r in table(&out.join("runs-validated.jsonl.gz")) {
        *counted
            .entry(r["track"].as_str().unwrap().to_string())
            .or_default()
            .entry(r["answer"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let runs = v["runs"].as_object().unwrap();
    assert_eq!(
        runs.keys().collect::<Vec<_>>(),
        counted.keys().collect::<Vec<_>>()
    );
    for (track, answers) in &counted {
        let j = &runs[track];
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["answers", "expected"]);
        assert_eq!(j["answers"], serde_json::json!(answers), "{track}");
        // Nothing missing: every expected run is in the table.
        let total: u64 = answers.values().sum();
        assert_eq!(j["expected"], total, "{track}");
    }
    // winners: each in its track's score table, under its division.
    let winners = v["winners"].as_array().unwrap();
    assert!(!winners.is_empty());
    for w in winners {
        let keys: Vec<&str> = w.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["track", "division", "kind", "solver"]);
        let track: smtcomp::model::Track = w["track"].as_str().unwrap().parse().unwrap();
        let md = std::fs::read_to_string(
            out.join("scores")
                .join(format!("{}.md", track.page_suffix())),
        )
        .unwrap();
        let division = format!("\n## Division {} (", w["division"].as_str().unwrap());
        let section = md.split(&division).nth(1).unwrap_or_else(|| panic!("{w}"));
        let section = section.split("\n## ").next().unwrap();
        let line = format!(
            "### {} (winner: {};",
            w["kind"].as_str().unwrap(),
            w["solver"].as_str().unwrap()
        );
        assert!(section.contains(&line), "{w}: {section}");
    }
    let stages = v["stages"].as_array().unwrap();
    assert!(!stages.is_empty());
    for s in stages {
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["name", "seconds", "reused"]);
    }
}

#[test]
fn demo_json_is_one_document_that_agrees_with_the_files_written() {
    for tool in ["benchexec", "z3", "yices-smt2"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    // The reduced demo (the replay recording's inputs: z3 and Yices 2 on five
    // QF_LIA files); not under /tmp: BenchExec's container hides /tmp.
    let out = crate::support::target_tmp().join("demo-json-test");
    let run = |fresh: bool| {
        let mut cmd = Command::new(crate::support::smtcomp_bin());
        cmd.current_dir(root()).args([
            "demo",
            "--jobs",
            "2",
            "--corpus",
            "tests/data/replay/corpus",
            "--submissions",
            "tests/data/replay/submissions",
            "--json",
            "-o",
        ]);
        cmd.arg(&out);
        if fresh {
            cmd.arg("--fresh");
        }
        let o = cmd.output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // One document: the whole of stdout parses.
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let first = run(true);
    check_demo_json(&first, &out);
    // 2 solvers x (2 Single Query + 3 Incremental + 1 Model Validation) benchmarks.
    let total: u64 = first["runs"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t["expected"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 12, "{first}");
    assert!(
        first["stages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["reused"] == false)
    );
    // Again: every stage reused, the same runs and winners.
    let second = run(false);
    check_demo_json(&second, &out);
    assert_eq!(first["runs"], second["runs"]);
    assert_eq!(first["winners"], second["winners"]);
    let names = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["stages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].clone())
            .collect()
    };
    assert_eq!(names(&first), names(&second));
    let benchexec = second["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "runs")
        .unwrap_or_else(|| panic!("{second}"));
    assert_eq!(benchexec["reused"], true, "{second}");
}
