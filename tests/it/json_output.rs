//! `--json` on the commands that print a result (issue 21, item 7): one JSON
//! document on stdout, keys in a fixed order, the same numbers as the text
//! output. (`archives fetch`, `prepare`, `generate` and `run-local` are tested
//! next to their fixtures: tests/it/{archives,prepare,benchexec_generate,run_local}.rs.)

use crate::support::{root, smtcomp};
use serde_json::Value;
use std::path::Path;

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

fn parse(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn benchmarks_stats_json_has_the_tables_counts() {
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("inv.json.gz");
    let (code, _, err) = smtcomp(&["benchmarks", "scan", "corpus", "-o", inv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = smtcomp(&["benchmarks", "stats", inv.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = parse(&out);
    assert_eq!(keys(&v), ["inventory", "logics", "total"]);
    assert_eq!(v["inventory"], inv.to_str().unwrap());
    let t = &v["total"];
    assert_eq!(keys(t), ["sat", "unsat", "unknown", "incremental"]);
    // 48 single + 4 slow + 5 unsat-core = 57 non-incremental; 14 incremental.
    let n = |x: &Value| x.as_u64().unwrap();
    assert_eq!(n(&t["sat"]) + n(&t["unsat"]) + n(&t["unknown"]), 57);
    assert_eq!(t["incremental"], 14);
    // The logics add up to the total, and the text table shows the same rows.
    let logics = v["logics"].as_object().unwrap();
    let (_, text, _) = smtcomp(&["benchmarks", "stats", inv.to_str().unwrap()]);
    for k in ["sat", "unsat", "unknown", "incremental"] {
        assert_eq!(
            logics.values().map(|c| n(&c[k])).sum::<u64>(),
            n(&t[k]),
            "{k}"
        );
    }
    for (logic, c) in logics {
        let row = format!(
            "{logic:<16} {:>8} {:>8} {:>8} {:>11}",
            n(&c["sat"]),
            n(&c["unsat"]),
            n(&c["unknown"]),
            n(&c["incremental"])
        );
        assert!(text.lines().any(|l| l == row), "{row}\n{text}");
    }
    assert_eq!(text.lines().count(), logics.len() + 2, "{text}");
}

#[test]
fn report_json_counts_the_files_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let o = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args([
            "report",
            "--track",
            "Incremental",
            "--date",
            "2025-08-11",
            "--runs",
        ])
        .arg(root().join("tests/data/scoring/results-inc-2025.json.gz"))
        .arg("--inventory")
        .arg(root().join("tests/data/benchmarks-2025.json.gz"))
        .arg("--submissions")
        .arg(root().join("tests/data/submissions-2025"))
        .arg("-o")
        .arg(&site)
        .arg("--json")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = parse(&out);
    assert_eq!(
        keys(&v),
        [
            "site", "index", "tracks", "pages", "plots", "other", "bytes"
        ]
    );
    assert_eq!(v["site"], site.display().to_string());
    assert_eq!(v["index"], site.join("index.html").display().to_string());
    assert_eq!(v["tracks"], serde_json::json!(["Incremental"]));
    let files = files_under(&site);
    let count = |ext: &str| files.iter().filter(|f| f.ends_with(ext)).count();
    assert_eq!(v["pages"], count(".html"), "{files:?}");
    assert_eq!(v["plots"], count(".svg"), "{files:?}");
    assert_eq!(v["other"], count(".xml") + count(".xsl"), "{files:?}");
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(site.join(f)).unwrap().len())
        .sum();
    assert_eq!(v["bytes"], bytes);
}

#[test]
fn export_website_json_lists_the_files_written() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    let o = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["export", "website", "-o"])
        .arg(&web)
        .args([
            "--track",
            "Incremental",
            "--policy",
            "published-2025",
            "--date",
            "2025-08-11",
            "--json",
        ])
        .arg("--runs")
        .arg(root().join("tests/data/scoring/results-inc-2025.json.gz"))
        .arg("--inventory")
        .arg(root().join("tests/data/benchmarks-2025.json.gz"))
        .arg("--submissions")
        .arg(root().join("tests/data/submissions-2025"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = parse(&out);
    assert_eq!(keys(&v), ["output", "tracks", "files"]);
    assert_eq!(v["output"], web.display().to_string());
    assert_eq!(v["tracks"], serde_json::json!(["Incremental"]));
    let mut listed: Vec<String> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    // The results pages first, then the three data files.
    assert_eq!(
        listed[listed.len() - 3..],
        [
            "data/tracks.json",
            "data/division_tracks.json",
            "data/participants.json"
        ]
    );
    listed.sort();
    assert_eq!(listed, files_under(&web));
}
