//! The binary run cache (`scoring::run_cache`): the same runs as the JSON,
//! keyed by content hash, never trusted when damaged; and `smtcomp score`
//! through it prints the same bytes as without it.

use crate::support::cache_damage::{self, HEADER, reseal};
use crate::support::root;
use smtcomp::benchmarks::Smt2File;
use smtcomp::formats::inventory_cache::Source;
use smtcomp::ingest::TableIdentity;
use smtcomp::model::{Logic, Track};
use smtcomp::scoring::run_cache::{self as cache, RunsFile, codec};
use smtcomp::scoring::{RunTime, ScoredRun};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn file(incremental: bool, logic: &str, family: &[&str], name: &str) -> Arc<Smt2File> {
    Arc::new(Smt2File {
        incremental,
        logic: Logic::new(logic),
        family: family.iter().map(|s| s.to_string()).collect(),
        name: name.into(),
    })
}

/// Every field and variant the format has: every track and answer, each
/// optional field present and absent, empty and nested families, non-ASCII
/// names, extreme floats, a table identity.
fn sample() -> RunsFile {
    let files = [
        file(false, "QF_BV", &["a", "b"], "x.smt2"),
        file(true, "ALIA", &[], "i-é.smt2"),
        file(false, "QF_UF", &["fam-é"], "y.smt2"),
    ];
    let answers = codec::ANSWERS;
    let mut runs = Vec::new();
    for i in 0..300usize {
        runs.push(ScoredRun {
            solver: ["z3", "cvc5-é", "Bitwuzla"][i % 3].into(),
            track: Track::ALL[i % Track::ALL.len()],
            file: Arc::clone(&files[i % 3]),
            answer: answers[i % answers.len()],
            cpu_time: [0.5, 1.5, 1e300, -0.25][i % 4] + i as f64,
            wall_time: (i + 1) as f64 / 7.0,
            nb_answers: (i % 2 == 0).then_some(i as u64 * 1_000_000_007),
            last_answer_time: (i % 5 == 0).then_some(Box::new(RunTime {
                cpu: i as f64 + 0.5,
                wall: 0.25,
            })),
            answer_at_timeout: (i % 7 == 0).then_some(answers[i % 4]),
            error: i % 3 == 1,
        });
    }
    RunsFile {
        runs,
        skipped: 3,
        identity: Some(TableIdentity {
            competition: "SMT-COMP 2025".into(),
            year: 2025,
            limits: Default::default(),
        }),
        ingested: true,
    }
}

/// A file to key the cache by (its content is the key, `parse` supplies the runs).
fn input(dir: &Path, content: &str) -> PathBuf {
    let p = dir.join("runs.jsonl");
    std::fs::write(&p, content).unwrap();
    p
}

fn only_cache_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

fn parse_sample(_: &Path) -> anyhow::Result<RunsFile> {
    Ok(sample())
}

fn not_parsed(_: &Path) -> anyhow::Result<RunsFile> {
    panic!("the cache should have been used")
}

#[test]
fn written_once_then_read_back_equal() {
    let tmp = tempfile::tempdir().unwrap();
    let p = input(tmp.path(), "content");
    let dir = tmp.path().join("cache");
    let first = cache::load(&p, Some(&dir), 0, parse_sample).unwrap();
    assert_eq!(first.source, Source::JsonCacheWritten);
    let second = cache::load(&p, Some(&dir), 0, not_parsed).unwrap();
    assert_eq!(second.source, Source::Cache);
    assert_eq!(second.runs, sample());
    // Equal benchmarks share one allocation, as the JSON reader gives them.
    let distinct: std::collections::HashSet<*const Smt2File> = second
        .runs
        .runs
        .iter()
        .map(|r| Arc::as_ptr(&r.file))
        .collect();
    assert_eq!(distinct.len(), 3);
    let name = only_cache_file(&dir);
    let name = name.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("runs-") && name.ends_with(".bin"),
        "{name}"
    );
    // Below the size threshold, or without a directory: parsed, no file.
    let small = cache::load(&p, Some(&tmp.path().join("c2")), u64::MAX, parse_sample).unwrap();
    assert_eq!(small.source, Source::Json);
    assert!(!tmp.path().join("c2").exists());
    let none = cache::load(&p, None, 0, parse_sample).unwrap();
    assert_eq!(none.source, Source::Json);
}

#[test]
fn an_edited_file_gets_its_own_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let p = input(tmp.path(), "content");
    let dir = tmp.path().join("cache");
    cache::load(&p, Some(&dir), 0, parse_sample).unwrap();
    input(tmp.path(), "content edited");
    let mut edited = sample();
    edited.runs.truncate(5);
    let got = cache::load(&p, Some(&dir), 0, |_| anyhow::Ok(edited.clone())).unwrap();
    assert_eq!(got.source, Source::JsonCacheWritten);
    assert_eq!(got.runs, edited);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

/// Damages the cache file with `damage`, then checks that the next load
/// rejects it (with a reason containing `why`), parses, and rewrites a cache
/// that the load after that uses.
fn damaged(damage: impl Fn(&mut Vec<u8>), why: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let p = input(tmp.path(), "content");
    let dir = tmp.path().join("cache");
    cache::load(&p, Some(&dir), 0, parse_sample).unwrap();
    let f = only_cache_file(&dir);
    let mut bytes = std::fs::read(&f).unwrap();
    damage(&mut bytes);
    std::fs::write(&f, &bytes).unwrap();
    let got = cache::load(&p, Some(&dir), 0, parse_sample).unwrap();
    assert_eq!(got.source, Source::JsonCacheRebuilt, "{why}");
    let reason = got.rejected.unwrap();
    assert!(reason.contains(why), "{reason} should mention {why}");
    assert_eq!(got.runs, sample());
    let again = cache::load(&p, Some(&dir), 0, not_parsed).unwrap();
    assert_eq!(again.source, Source::Cache);
    assert_eq!(again.runs, sample());
}

#[test]
fn a_truncated_corrupt_or_foreign_cache_is_detected_and_rebuilt() {
    for (damage, why) in cache_damage::HEADER_DAMAGES {
        damaged(damage, why);
    }
    damaged(|b| b[20] ^= 1, "another file");
    // An inventory cache put in its place is not a run cache.
    damaged(|b| b[..8].copy_from_slice(b"SMTCINV\0"), "magic");
}

/// A payload that passes the checksum but is damaged (a bug, or a file
/// crafted on purpose) is rejected with a reason: no panic, no huge allocation.
#[test]
fn damaged_payloads_with_a_valid_checksum_are_rejected_not_trusted() {
    let hash = [7u8; 32];
    let good = codec::encode(&sample(), &hash);
    let rejected = cache_damage::assert_resealed_damage_rejected(&good, &sample(), |b| {
        codec::decode(b, &hash)
    });
    assert!(rejected > 1000, "{rejected}");
    // A run count far beyond the bytes left is refused before allocating.
    let mut b = good[..HEADER].to_vec();
    b.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    reseal(&mut b);
    let reason = codec::decode(&b, &hash).unwrap_err();
    assert!(
        cache_damage::is_corrupt(&reason)
            && reason.to_string().contains("exceeds the remaining bytes"),
        "{reason}"
    );
}

#[test]
fn an_unwritable_cache_directory_falls_back_to_parsing() {
    let tmp = tempfile::tempdir().unwrap();
    let p = input(tmp.path(), "content");
    let not_a_dir = tmp.path().join("file");
    std::fs::write(&not_a_dir, "x").unwrap();
    let got = cache::load(&p, Some(&not_a_dir), 0, parse_sample).unwrap();
    assert_eq!(got.source, Source::Json);
    assert_eq!(got.runs, sample());
}

#[test]
fn a_parse_error_is_returned_and_nothing_cached() {
    let tmp = tempfile::tempdir().unwrap();
    let p = input(tmp.path(), "content");
    let dir = tmp.path().join("cache");
    let e = cache::load(&p, Some(&dir), 0, |_| anyhow::bail!("runs.jsonl:1: bad")).unwrap_err();
    assert!(e.to_string().contains("runs.jsonl:1: bad"), "{e}");
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().count() == 0);
}

/// `smtcomp score` of the 2025 Incremental results (1.4 MB, so cached):
/// the first call writes the run cache, the second reads it, and a damaged
/// cache is rebuilt; every output is the same bytes.
#[test]
fn score_prints_the_same_bytes_through_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cache");
    let d = |p: &str| root().join("tests/data").join(p).display().to_string();
    let score = |out: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_smtcomp"))
            .env("SMTCOMP_CACHE_DIR", &dir)
            .args([
                "score",
                "--track",
                "Incremental",
                "--format",
                "json",
                "--runs",
            ])
            .arg(d("scoring/results-inc-2025.json.gz"))
            .args(["--inventory", &d("benchmarks-2025.json.gz")])
            .args(["--submissions", &d("submissions-2025")])
            .arg("-o")
            .arg(tmp.path().join(out))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(tmp.path().join(out)).unwrap()
    };
    let runs_cache = || -> Vec<PathBuf> {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("runs-")
            })
            .collect()
    };
    let first = score("first.json");
    let cached = runs_cache();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let written = std::fs::metadata(&cached[0]).unwrap().modified().unwrap();
    assert_eq!(score("second.json"), first);
    assert_eq!(
        std::fs::metadata(&cached[0]).unwrap().modified().unwrap(),
        written,
        "the second call reads the cache, it does not rewrite it"
    );
    let bytes = std::fs::read(&cached[0]).unwrap();
    std::fs::write(&cached[0], &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(score("third.json"), first);
    assert_eq!(std::fs::read(&cached[0]).unwrap(), bytes, "rebuilt");
}
