//! Ingestion of fixtures produced by real BenchExec 3.35 runs
//! (`tests/data/ingest/make-fixtures.sh`) and of hand-broken copies: every
//! status kind, truncated `.bz2`, corrupt ZIP, missing log, missing ZIP, runs
//! missing columns, duplicate task basenames. Each run gives the documented
//! record; bad input never panics.
//!
//! The golden files `tests/data/ingest/expected/<case>.jsonl` hold a
//! projection of every record (all fields except times, memory and the
//! absolute-path parts of the task; the checkout path in notes is `<root>`);
//! `UPDATE_GOLDEN=1` rewrites them.

use crate::support::golden;
use assert_cmd::Command;
use serde_json::{Value, json};
use smtcomp::formats::runtable::{Limit, RunAnswer};
use smtcomp::ingest::{IngestOptions, IngestRecord, Ingested, ingest};
use smtcomp::model::Competition;
use std::path::{Path, PathBuf};

fn data(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ingest")
        .join(p)
}

fn run(case: &str) -> Ingested {
    let comp = Competition::builtin(2025).unwrap();
    ingest(
        &[data(case)],
        &IngestOptions {
            competition: &comp,
            manifest: None,
            progress: false,
        },
    )
}

fn short_task(r: &IngestRecord) -> String {
    r.task.split("/bx/").last().unwrap_or(&r.task).to_string()
}

fn project(r: &IngestRecord) -> String {
    let mut v = serde_json::to_value(r).unwrap();
    let o = v.as_object_mut().unwrap();
    o.insert("task".into(), json!(short_task(r)));
    for k in ["cputime", "walltime", "memory"] {
        let present = !o[k].is_null();
        o.insert(k.into(), json!(present));
    }
    if let Some(t) = o.get_mut("incremental").and_then(Value::as_object_mut) {
        let present = !t["last_answer_time"].is_null();
        t.insert("last_answer_time".into(), json!(present));
    }
    // Notes name files by absolute path: make them independent of the checkout.
    serde_json::to_string(&v)
        .unwrap()
        .replace(env!("CARGO_MANIFEST_DIR"), "<root>")
}

fn golden(case: &str, got: &Ingested) {
    let text: String = got.records.iter().map(|r| project(r) + "\n").collect();
    golden::check(
        data(&format!("expected/{}.jsonl", case.replace('/', "_"))),
        &text,
    );
}

fn by_task<'a>(got: &'a Ingested, task: &str) -> &'a IngestRecord {
    got.records
        .iter()
        .find(|r| short_task(r) == task)
        .unwrap_or_else(|| panic!("no record for {task}"))
}

#[test]
fn real_benchexec_results() {
    let got = run("real");
    assert!(!got.has_unreadable(), "{}", got.summary.render());
    assert_eq!(got.records.len(), 29);
    golden("real", &got);
    // Every status kind maps to the documented answer.
    let expect = [
        ("tasks/QF_LIA/1_sat.yml", "true", RunAnswer::Sat),
        ("tasks/QF_LIA/2_unsat.yml", "false", RunAnswer::Unsat),
        ("tasks/QF_LIA/3_wrong.yml", "true", RunAnswer::Sat),
        ("tasks/QF_BV/5_timeout.yml", "TIMEOUT", RunAnswer::Timeout),
        (
            "tasks/QF_BV/6_satthenhang.yml",
            "TIMEOUT (true)",
            RunAnswer::Sat,
        ),
        ("tasks/QF_BV/7_oom.yml", "OUT OF MEMORY", RunAnswer::Memout),
        (
            "tasks/QF_BV/8_segv.yml",
            "SEGMENTATION FAULT",
            RunAnswer::Error,
        ),
        ("tasks/QF_UF/9_exit3.yml", "ERROR (3)", RunAnswer::Error),
        ("tasks/QF_UF/10_error.yml", "ERROR", RunAnswer::Error),
        ("tasks/QF_UF/11_unknown.yml", "unknown", RunAnswer::Unknown),
        ("tasks/QF_UF/12_failed.yml", "FAILED", RunAnswer::Error),
        ("inc/QF_LIA/1_ok.yml", "done", RunAnswer::Done),
        ("inc/QF_LIA/2_wrong.yml", "ERROR (2)", RunAnswer::Done),
        ("inc/QF_LIA/3_hang.yml", "TIMEOUT", RunAnswer::Timeout),
    ];
    for (task, status, answer) in expect {
        let r = by_task(&got, task);
        assert_eq!(r.status.as_deref(), Some(status), "{task}");
        assert_eq!(r.answer, answer, "{task}");
    }
    assert_eq!(
        by_task(&got, "tasks/QF_LIA/3_wrong.yml")
            .category
            .as_deref(),
        Some("wrong")
    );
    assert_eq!(
        by_task(&got, "tasks/QF_LIA/4_nostatus.yml")
            .category
            .as_deref(),
        Some("missing")
    );
    // An answer before the timeout is kept and flagged.
    let r = by_task(&got, "tasks/QF_BV/6_satthenhang.yml");
    assert_eq!(
        (r.answer, r.limit_hit),
        (RunAnswer::Sat, Some(Limit::Timeout))
    );
    assert_eq!(r.category.as_deref(), Some("error"));
    // The run BenchExec could not execute (tool-info raised): an error record.
    let r = by_task(&got, "tasks/QF_UF/13_raise.yml");
    assert_eq!(r.status, None);
    assert_eq!(r.answer, RunAnswer::Error);
    assert!(r.error.as_deref().unwrap().contains("did not execute"));
    // Duplicate basenames: BenchExec overwrote the log; neither run reads it.
    for t in ["tasks/QF_LIA/dup.yml", "tasks/QF_BV/dup.yml"] {
        let r = by_task(&got, t);
        assert_eq!(r.log, None, "{t}");
        assert!(r.notes[0].contains("shared by 2 runs"), "{t}");
    }
    assert_eq!(by_task(&got, "tasks/QF_LIA/dup.yml").answer, RunAnswer::Sat);
    assert_eq!(
        by_task(&got, "tasks/QF_BV/dup.yml").answer,
        RunAnswer::Unsat
    );
    // Incremental: counts, first wrong answer, time of the last answer.
    let inc = |t| by_task(&got, t).incremental.clone().unwrap();
    assert_eq!(inc("inc/QF_LIA/1_ok.yml").correct, 3);
    let w = inc("inc/QF_LIA/2_wrong.yml");
    assert_eq!(w.correct, 1);
    let wrong = w.wrong.unwrap();
    assert_eq!(
        (wrong.index, wrong.got.as_str(), wrong.expected.as_str()),
        (2, "unsat", "sat")
    );
    assert_eq!(inc("inc/QF_LIA/3_hang.yml").correct, 1);
    assert!(inc("inc/QF_LIA/3_hang.yml").last_answer_time.is_some());
    assert_eq!(inc("inc/QF_LIA/4_unknown.yml").correct, 1);
    // Unsat cores: real z3 output, quoted names, empty core, two cores.
    let core = |t| by_task(&got, t).unsat_core.clone().map(|c| c.names);
    assert_eq!(
        core("uc/QF_LIA/1_real.yml").unwrap(),
        ["smtcomp1", "smtcomp3"]
    );
    assert_eq!(
        core("uc/QF_UF/2_quoted.yml").unwrap(),
        ["smtcomp 2", "smtcomp1", "smtcomp3"]
    );
    assert_eq!(core("uc/QF_UF/3_empty.yml").unwrap(), Vec::<String>::new());
    let two = by_task(&got, "uc/QF_UF/4_two.yml");
    assert_eq!(two.answer, RunAnswer::Error);
    assert_eq!(
        two.error.as_deref(),
        Some("2 unsat cores in the output (one expected)")
    );
    assert_eq!(core("uc/QF_UF/5_unsupported.yml"), None);
    // Model location: the bytes after `sat` in the log member.
    let m = by_task(&got, "mv/QF_LIA/1_model.yml")
        .model
        .clone()
        .unwrap();
    let zip = std::fs::File::open(data("real").join(&m.log.archive)).unwrap();
    let mut z = zip::ZipArchive::new(zip).unwrap();
    let mut log = Vec::new();
    std::io::Read::read_to_end(&mut z.by_name(&m.log.member).unwrap(), &mut log).unwrap();
    let model = String::from_utf8_lossy(&log[m.start as usize..m.end as usize]);
    assert!(model.trim_start().starts_with('('), "{model}");
    assert!(model.contains("define-fun x"), "{model}");
    assert!(String::from_utf8_lossy(&log[..m.start as usize]).ends_with("sat\n"));
    // Proofs.
    let p = by_task(&got, "pe/QF_UF/1_valid.yml").proof.clone().unwrap();
    assert_eq!(p.verdict.as_str(), "valid");
    assert_eq!(p.values.get("steps"), Some("12"));
    let p = by_task(&got, "pe/QF_UF/2_invalid.yml")
        .proof
        .clone()
        .unwrap();
    assert_eq!(p.verdict.as_str(), "invalid");
}

#[test]
fn truncated_bz2_is_an_unreadable_input() {
    let got = run("broken/truncated");
    assert!(got.has_unreadable());
    let f = &got.summary.files[0];
    assert!(f.unreadable[0].contains("truncated"), "{:?}", f.unreadable);
    assert!(
        f.unreadable[0].contains("0 runs read"),
        "{:?}",
        f.unreadable
    );
    assert_eq!(got.records.len(), 0);
}

#[test]
fn corrupt_zip_keeps_every_run() {
    let got = run("broken/corruptzip");
    assert!(got.has_unreadable());
    assert!(got.summary.files[0].unreadable[0].contains("is corrupt"));
    assert_eq!(got.records.len(), 15);
    golden("broken/corruptzip", &got);
    // Single query does not need the log: the status decides.
    let r = by_task(&got, "tasks/QF_LIA/1_sat.yml");
    assert_eq!(r.answer, RunAnswer::Sat);
    assert_eq!(r.log, None);
    assert!(r.notes[0].contains("is corrupt"), "{:?}", r.notes);
}

#[test]
fn missing_log_is_an_error_for_that_run_only() {
    let got = run("broken/missinglog");
    assert!(!got.has_unreadable());
    golden("broken/missinglog", &got);
    let r = by_task(&got, "uc/QF_LIA/1_real.yml");
    assert_eq!(r.answer, RunAnswer::Error);
    assert_eq!(
        r.error.as_deref(),
        Some("unsat answer but no log to read the core from")
    );
    assert!(r.notes[0].contains("not in"), "{:?}", r.notes);
    let ok = by_task(&got, "uc/QF_UF/2_quoted.yml");
    assert_eq!(ok.answer, RunAnswer::Unsat);
}

#[test]
fn runs_missing_columns() {
    let got = run("broken/missingcols");
    assert!(!got.has_unreadable());
    golden("broken/missingcols", &got);
    let r = by_task(&got, "tasks/QF_LIA/1_sat.yml");
    assert_eq!(r.answer, RunAnswer::Sat);
    assert_eq!((r.cputime, r.walltime, r.memory), (None, None, None));
    let r = by_task(&got, "tasks/QF_LIA/2_unsat.yml");
    assert_eq!(r.answer, RunAnswer::Error);
    assert_eq!(
        r.error.as_deref(),
        Some("no status column (BenchExec did not finish the run)")
    );
    let r = by_task(&got, "tasks/QF_LIA/4_nostatus.yml");
    assert_eq!(r.category, None);
    assert_eq!(r.notes, ["no category column"]);
}

#[test]
fn missing_zip_is_a_warning() {
    let got = run("broken/nozip");
    assert!(!got.has_unreadable());
    assert_eq!(got.records.len(), 15);
    assert!(
        got.summary.files[0]
            .warnings
            .iter()
            .any(|w| w.contains("no log archive"))
    );
}

#[test]
fn cli_exit_codes_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("runs.jsonl.gz");
    let a = Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "-o"])
        .arg(&out)
        .arg(data("real"))
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(stdout.starts_with("29 records from 5 files\n"), "{stdout}");
    assert!(stdout.contains("TIMEOUT (true): 1"), "{stdout}");
    assert_eq!(smtcomp::ingest::read_jsonl(&out).unwrap().len(), 29);
    let first = std::fs::read(&out).unwrap();
    Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "-o"])
        .arg(&out)
        .arg(data("real"))
        .assert()
        .code(0);
    assert_eq!(first, std::fs::read(&out).unwrap(), "byte-identical output");
    // Unreadable inputs: exit 1, and the readable runs are still written.
    Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "--json", "-o"])
        .arg(&out)
        .arg(data("broken/truncated"))
        .arg(data("broken/corruptzip"))
        .assert()
        .code(1);
    assert_eq!(smtcomp::ingest::read_jsonl(&out).unwrap().len(), 15);
    Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "-o"])
        .arg(&out)
        .arg(data("no-such-dir"))
        .assert()
        .code(1);
}

/// A log without its run (the result file lost the run, or the logs are of
/// another attempt) is reported as a warning of the file, naming the log;
/// the other runs are read as before.
#[test]
fn a_log_that_belongs_to_no_run_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = data("real/fx_SingleQuery");
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
    }
    let read = || {
        ingest(
            &[dir.path().to_path_buf()],
            &IngestOptions {
                competition: &Competition::builtin(2025).unwrap(),
                manifest: None,
                progress: false,
            },
        )
    };
    let complete = read();
    let n = complete.records.len();
    assert!(
        complete.summary.files[0]
            .warnings
            .iter()
            .all(|w| !w.contains("belong to no run")),
        "{:?}",
        complete.summary.files[0].warnings
    );
    // The first <run> of the result file removed; its log stays in the ZIP.
    let xml = dir
        .path()
        .join("fx_SingleQuery.2025-06-01_12-00-00.results.fxsolver,0,SingleQuery.task.xml.bz2");
    let mut text = String::new();
    use std::io::{Read, Write};
    bzip2::read::BzDecoder::new(std::fs::File::open(&xml).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let start = text.find("<run ").unwrap();
    let end = start + text[start..].find("</run>").unwrap() + "</run>".len();
    let removed = &text[start..end];
    let task = removed
        .split("name=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let base = task.rsplit('/').next().unwrap().to_string();
    let cut = format!("{}{}", &text[..start], &text[end..]);
    let mut enc = bzip2::write::BzEncoder::new(
        std::fs::File::create(&xml).unwrap(),
        bzip2::Compression::default(),
    );
    enc.write_all(cut.as_bytes()).unwrap();
    enc.finish().unwrap();

    let got = read();
    assert_eq!(got.records.len(), n - 1);
    let w = &got.summary.files[0].warnings;
    let line = w
        .iter()
        .find(|w| w.contains("belong to no run"))
        .unwrap_or_else(|| panic!("{w:?}"));
    assert!(
        line.starts_with("1 log(s) in fx_SingleQuery.2025-06-01_12-00-00.logfiles.zip belong to no run of this file")
            && line.ends_with(&format!("fxsolver,0,SingleQuery.{base}.log")),
        "{line}"
    );
}
