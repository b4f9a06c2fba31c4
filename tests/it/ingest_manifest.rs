//! Accounting against the runs manifest (`smtcomp ingest --manifest`): per
//! solver x track x division, expected = present + missing; failed starts,
//! unexpected and duplicated runs counted; missing runs written as `error`
//! records; exit 1 unless `--allow-missing`. Real case: 76 of 157 expected
//! runs were taken without a word.

use crate::ingest_hostile::{PREFIX, ok_run, run_xml, write_result};
use assert_cmd::Command;
use serde_json::Value;
use smtcomp::formats::inventory::Smt2File;
use smtcomp::formats::runtable::RunAnswer;
use smtcomp::ingest::{
    IngestOptions, MISSING_ERROR, Manifest, ManifestIndex, ManifestRun, ingest, ingest_to_file,
    read_jsonl, write_jsonl,
};
use smtcomp::model::{Competition, Division, Logic, Track};
use std::path::Path;

fn entry(solver: &str, task: &str, logic: &str, division: &str) -> ManifestRun {
    let name = task.rsplit('/').next().unwrap().trim_end_matches(".yml");
    let name = name.split_once('_').map_or(name, |(_, n)| n).to_string();
    ManifestRun {
        benchmark_definition: "fx.xml".into(),
        rundefinition: format!("{solver},0,SingleQuery"),
        task: task.into(),
        solver: solver.into(),
        participation: 0,
        track: Track::SingleQuery,
        division: Division::new(division),
        logic: Logic::new(logic),
        benchmark: Smt2File {
            incremental: false,
            logic: Logic::new(logic),
            family: vec!["fam".into()],
            name: format!("{name}.smt2"),
        },
    }
}

/// Manifest: 6 runs of `s` (4 QF_BV, 2 QF_LIA). Results: 1, 2 (FAILED), 3
/// (no columns: never executed), 5; 4 and 6 missing; `9_extra` unexpected.
fn fixture(dir: &Path) -> Manifest {
    let runs = vec![
        entry("s", "tasks/QF_BV/1_a.yml", "QF_BV", "QF_Bitvec"),
        entry("s", "tasks/QF_BV/2_b.yml", "QF_BV", "QF_Bitvec"),
        entry("s", "tasks/QF_BV/3_c.yml", "QF_BV", "QF_Bitvec"),
        entry("s", "tasks/QF_BV/4_d.yml", "QF_BV", "QF_Bitvec"),
        entry("s", "tasks/QF_LIA/5_e.yml", "QF_LIA", "Arith"),
        entry("s", "tasks/QF_LIA/6_f.yml", "QF_LIA", "Arith"),
    ];
    let body = ok_run("tasks/QF_BV/1_a.yml", "true")
        + &run_xml(
            "tasks/QF_BV/2_b.yml",
            &[("status", "FAILED"), ("category", "error")],
        )
        + "<run name=\"tasks/QF_BV/3_c.yml\"/>\n"
        + &ok_run("tasks/QF_LIA/5_e.yml", "false")
        + &ok_run("tasks/QF_BV/9_extra.yml", "true");
    write_result(dir, "s,0,SingleQuery", None, &body);
    Manifest { format: 1, runs }
}

fn opts<'a>(comp: &'a Competition, m: &'a ManifestIndex) -> IngestOptions<'a> {
    IngestOptions {
        competition: comp,
        manifest: Some(m),
        progress: false,
    }
}

#[test]
fn missing_and_failed_runs_are_counted_and_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let index = ManifestIndex::new(fixture(&results));
    let comp = Competition::builtin(2025).unwrap();
    let got = ingest(std::slice::from_ref(&results), &opts(&comp, &index));
    let m = got.summary.manifest.as_ref().expect("accounting");
    let t = &m.total;
    assert_eq!(
        (
            t.expected,
            t.present,
            t.missing,
            t.failed,
            t.unexpected,
            t.duplicated
        ),
        (6, 4, 2, 2, 1, 0),
        "{}",
        got.summary.render()
    );
    // Every count reconciles.
    assert_eq!(t.expected, t.present + t.missing);
    assert_eq!(m.runs_read, t.present + t.duplicated + t.unexpected);
    assert_eq!(m.runs_read, got.summary.files[0].runs);
    assert_eq!(
        got.records.len() as u64,
        got.summary.files[0].records + got.summary.missing_records
    );
    assert_eq!(got.summary.records, got.records.len() as u64);
    assert!(got.summary.has_missing());
    // Per solver x track x division.
    let group = |division: &str| {
        m.groups
            .iter()
            .find(|g| g.solver == "s" && g.track == "SingleQuery" && g.division == division)
            .map(|g| (g.expected, g.present, g.missing, g.failed))
            .unwrap_or_else(|| panic!("no group {division}: {:#?}", m.groups))
    };
    assert_eq!(group("QF_Bitvec"), (4, 3, 1, 2));
    assert_eq!(group("Arith"), (2, 1, 1, 0));
    assert_eq!(m.groups.iter().map(|g| g.unexpected).sum::<u64>(), 1);
    assert_eq!(
        m.missing_runs,
        [
            "fx.xml: s,0,SingleQuery: tasks/QF_BV/4_d.yml",
            "fx.xml: s,0,SingleQuery: tasks/QF_LIA/6_f.yml"
        ]
    );
    assert_eq!(m.failed_runs.len(), 2);
    assert_eq!(
        m.unexpected_runs,
        [format!(
            "{PREFIX}.results.s,0,SingleQuery.xml: tasks/QF_BV/9_extra.yml"
        )]
    );
    // Missing runs are error records with the manifest's identity.
    let missing: Vec<_> = got
        .records
        .iter()
        .filter(|r| r.error.as_deref() == Some(MISSING_ERROR))
        .collect();
    assert_eq!(missing.len(), 2);
    for r in missing {
        assert_eq!(r.answer, RunAnswer::Error);
        assert_eq!(r.solver, "s");
        assert_eq!(r.track, Some(Track::SingleQuery));
        assert!(r.guessed.is_empty());
        assert!(r.benchmark.is_some());
        assert_eq!(r.source, "fx.xml");
    }
    let render = got.summary.render();
    assert!(
        render.contains("manifest: 6 expected, 4 present, 2 missing, 2 failed to start, 1 unexpected, 0 duplicated (5 runs read = 4 present + 0 duplicated + 1 unexpected)"),
        "{render}"
    );
    // The streaming path writes the same bytes and the same summary.
    let a = tmp.path().join("a.jsonl.gz");
    let b = tmp.path().join("b.jsonl.gz");
    write_jsonl(
        &a,
        Some(&smtcomp::ingest::TableIdentity::of(&comp)),
        &got.records,
    )
    .unwrap();
    // One input: the in-memory path of `ingest_to_file` (the merge path is
    // the next test).
    let s = ingest_to_file(std::slice::from_ref(&results), &opts(&comp, &index), &b).unwrap();
    assert_eq!(s, got.summary);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn streaming_merge_places_missing_records_like_the_in_memory_sort() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let mut manifest = fixture(&results);
    // A second result file (another solver) so that the merge path runs.
    manifest
        .runs
        .push(entry("t", "tasks/QF_BV/1_a.yml", "QF_BV", "QF_Bitvec"));
    manifest
        .runs
        .push(entry("t", "tasks/QF_BV/7_g.yml", "QF_BV", "QF_Bitvec"));
    write_result(
        &results,
        "t,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    let index = ManifestIndex::new(manifest);
    let comp = Competition::builtin(2025).unwrap();
    let mem = ingest(std::slice::from_ref(&results), &opts(&comp, &index));
    assert_eq!(mem.summary.manifest.as_ref().unwrap().total.missing, 3);
    let a = tmp.path().join("a.jsonl.gz");
    let b = tmp.path().join("b.jsonl.gz");
    write_jsonl(
        &a,
        Some(&smtcomp::ingest::TableIdentity::of(&comp)),
        &mem.records,
    )
    .unwrap();
    let s = ingest_to_file(std::slice::from_ref(&results), &opts(&comp, &index), &b).unwrap();
    assert_eq!(s, mem.summary);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(read_jsonl(&b).unwrap().len(), 5 + 1 + 3);
}

#[test]
fn cli_exits_1_on_missing_runs_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let manifest = fixture(&results);
    let mpath = tmp.path().join("runs-manifest.json.gz");
    smtcomp::formats::datafile::write_json(&mpath, &manifest).unwrap();
    let out = tmp.path().join("runs.jsonl.gz");
    let a = Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "--manifest"])
        .arg(&mpath)
        .arg("-o")
        .arg(&out)
        .arg(&results)
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(stdout.contains("2 missing"), "{stdout}");
    assert!(
        stdout.contains("  missing: fx.xml: s,0,SingleQuery: tasks/QF_BV/4_d.yml"),
        "{stdout}"
    );
    assert!(stderr.contains("--allow-missing"), "{stderr}");
    // The run table has every manifest run (and the unexpected one).
    let recs = read_jsonl(&out).unwrap();
    assert_eq!(recs.len(), 5 + 2);
    // JSON report; --allow-missing: exit 0, same table.
    let a = Command::cargo_bin("smtcomp")
        .unwrap()
        .args([
            "ingest",
            "--quiet",
            "--json",
            "--allow-missing",
            "--manifest",
        ])
        .arg(&mpath)
        .arg("-o")
        .arg(&out)
        .arg(&results)
        .assert()
        .code(0);
    let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v["manifest"]["total"]["missing"], 2);
    assert_eq!(v["manifest"]["total"]["failed"], 2);
    assert_eq!(v["manifest"]["total"]["unexpected"], 1);
    assert_eq!(v["missing_records"], 2);
    assert_eq!(read_jsonl(&out).unwrap(), recs);
    // --allow-missing without a manifest is a usage error.
    Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "--allow-missing", "-o"])
        .arg(&out)
        .arg(&results)
        .assert()
        .code(2);
}

#[test]
fn a_run_in_two_result_files_is_a_duplicate() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let manifest = fixture(&results);
    // The same runs again under another timestamp (a rerun left next to it).
    let copy = results.join("again");
    std::fs::create_dir_all(&copy).unwrap();
    for e in std::fs::read_dir(&results).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
    }
    let index = ManifestIndex::new(manifest);
    let comp = Competition::builtin(2025).unwrap();
    let got = ingest(std::slice::from_ref(&results), &opts(&comp, &index));
    let m = got.summary.manifest.as_ref().unwrap();
    assert_eq!(m.total.duplicated, 4, "{}", got.summary.render());
    assert_eq!(m.total.unexpected, 2);
    assert_eq!(m.runs_read, 10);
    assert_eq!(
        m.runs_read,
        m.total.present + m.total.duplicated + m.total.unexpected
    );
    assert!(got.summary.has_missing());
}
