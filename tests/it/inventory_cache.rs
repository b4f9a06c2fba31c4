//! The binary inventory cache (`formats::inventory_cache`): the same inventory
//! as the JSON, keyed by content hash, and never trusted when damaged.

use crate::support::cache_damage;
use crate::support::root;
use smtcomp::benchmarks::Inventory;
use smtcomp::formats::cache_file::CacheError;
use smtcomp::formats::inventory::{
    Category, IncrementalInfo, NonIncrementalInfo, ScanError, Smt2File,
};
use smtcomp::formats::inventory_cache::{self as cache, Source};
use smtcomp::model::{Logic, Status};
use std::path::{Path, PathBuf};

fn file(incremental: bool, logic: &str, family: &[&str], name: &str) -> Smt2File {
    Smt2File {
        incremental,
        logic: Logic::new(logic),
        family: family.iter().map(|s| s.to_string()).collect(),
        name: name.into(),
    }
}

/// Every field and variant the format has: empty and nested families,
/// every status and category, per-check-sat statuses, scan errors, non-ASCII.
fn sample() -> Inventory {
    let mut inv = Inventory {
        incremental: vec![
            IncrementalInfo {
                file: file(true, "QF_BV", &["a", "b"], "i1.smt2"),
                check_sats: 3,
                statuses: Some(vec![Status::Sat, Status::Unsat, Status::Unknown]),
            },
            IncrementalInfo {
                file: file(true, "ALIA", &[], "i2.smt2"),
                check_sats: 1 << 40,
                statuses: None,
            },
            IncrementalInfo {
                file: file(true, "ALIA", &[], "i3.smt2"),
                check_sats: 0,
                statuses: Some(vec![]),
            },
        ],
        non_incremental: Vec::new(),
        errors: vec![ScanError {
            path: "non-incremental/QF_UF/x/bad.smt2".into(),
            reason: "unreadable: é".into(),
        }],
    };
    let cats = [
        None,
        Some(Category::Check),
        Some(Category::Industrial),
        Some(Category::Crafted),
        Some(Category::Random),
    ];
    let statuses = [Status::Sat, Status::Unsat, Status::Unknown];
    for i in 0..500u64 {
        inv.non_incremental.push(NonIncrementalInfo {
            file: file(
                false,
                ["QF_LIA", "QF_UF", "UF"][i as usize % 3],
                &[["2019-x", "sub"], ["fam-é", "deep"]][i as usize % 2],
                &format!("b{i:04}.smt2"),
            ),
            status: statuses[i as usize % 3],
            asserts: i * 1000,
            category: cats[i as usize % 5],
        });
    }
    inv.sort();
    inv
}

fn write_sample(dir: &Path) -> PathBuf {
    let p = dir.join("inventory.json.gz");
    sample().write(&p).unwrap();
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

/// The sample inventory written in `tmp` and its cache written in
/// `tmp/cache`: (inventory file, cache directory).
fn sample_with_cache(tmp: &Path) -> (PathBuf, PathBuf) {
    let inv = write_sample(tmp);
    let dir = tmp.join("cache");
    cache::load(&inv, Some(&dir), 0).unwrap();
    (inv, dir)
}

/// Applies `damage` to the bytes of the only cache file in `dir`.
fn damage_cache_file(dir: &Path, damage: impl FnOnce(&mut Vec<u8>)) {
    let f = only_cache_file(dir);
    let mut bytes = std::fs::read(&f).unwrap();
    damage(&mut bytes);
    std::fs::write(&f, &bytes).unwrap();
}

#[test]
fn written_once_then_read_back_equal_to_the_json() {
    let tmp = tempfile::tempdir().unwrap();
    let inv = write_sample(tmp.path());
    let dir = tmp.path().join("cache");
    let first = cache::load(&inv, Some(&dir), 0).unwrap();
    assert_eq!(first.source, Source::JsonCacheWritten);
    assert_eq!(first.inventory, sample());
    let second = cache::load(&inv, Some(&dir), 0).unwrap();
    assert_eq!(second.source, Source::Cache);
    assert_eq!(second.inventory, sample());
    let name = only_cache_file(&dir);
    let name = name.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("inventory-") && name.ends_with(".bin"),
        "{name}"
    );
    // Below the size threshold, or without a directory: plain JSON, no file.
    let small = cache::load(&inv, Some(&tmp.path().join("c2")), u64::MAX).unwrap();
    assert_eq!(small.source, Source::Json);
    assert!(!tmp.path().join("c2").exists());
    assert_eq!(cache::load(&inv, None, 0).unwrap().source, Source::Json);
}

#[test]
fn the_real_2025_inventory_round_trips() {
    let tmp = tempfile::tempdir().unwrap();
    let path = root().join("tests/data/benchmarks-2025.json.gz");
    let json = Inventory::read(&path).unwrap();
    let w = cache::load(&path, Some(tmp.path()), 0).unwrap();
    assert_eq!(w.source, Source::JsonCacheWritten);
    let c = cache::load(&path, Some(tmp.path()), 0).unwrap();
    assert_eq!(c.source, Source::Cache);
    assert!(c.inventory == json, "cache decodes to the JSON inventory");
    assert_eq!(
        (json.incremental.len(), json.non_incremental.len()),
        (44_708, 450_474)
    );
}

#[test]
fn an_edited_inventory_gets_its_own_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let (inv, dir) = sample_with_cache(tmp.path());
    let mut edited = sample();
    edited.non_incremental[7].status = Status::Unknown;
    edited.write(&inv).unwrap();
    let got = cache::load(&inv, Some(&dir), 0).unwrap();
    assert_eq!(got.source, Source::JsonCacheWritten);
    assert_eq!(got.inventory, edited);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

/// Damages the cache file with `damage`, then checks that the next load
/// rejects it (with a reason containing `why`), returns the JSON's inventory
/// and rewrites a cache that the load after that uses.
fn damaged(damage: impl Fn(&mut Vec<u8>), why: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (inv, dir) = sample_with_cache(tmp.path());
    damage_cache_file(&dir, damage);
    let got = cache::load(&inv, Some(&dir), 0).unwrap();
    assert_eq!(got.source, Source::JsonCacheRebuilt, "{why}");
    let reason = got.rejected.unwrap();
    assert!(reason.contains(why), "{reason} should mention {why}");
    assert_eq!(got.inventory, sample());
    let again = cache::load(&inv, Some(&dir), 0).unwrap();
    assert_eq!(again.source, Source::Cache);
    assert_eq!(again.inventory, sample());
}

#[test]
fn a_truncated_corrupt_or_foreign_cache_is_detected_and_rebuilt() {
    for (damage, why) in cache_damage::HEADER_DAMAGES {
        damaged(damage, why);
    }
}

#[test]
fn a_cache_of_another_inventory_is_not_used() {
    damaged(|b| b[20] ^= 1, "another inventory");
}

/// A payload that passes the checksum but is damaged (a bug, or a file
/// crafted on purpose) is rejected with a reason: no panic, no huge allocation.
#[test]
fn damaged_payloads_with_a_valid_checksum_are_rejected_not_trusted() {
    let hash = [7u8; 32];
    let good = cache::encode(&sample(), &hash);
    let rejected = cache_damage::assert_resealed_damage_rejected(&good, &sample(), |b| {
        cache::decode(b, &hash)
    });
    assert!(rejected > 100, "{rejected}");
}

#[test]
fn an_unwritable_cache_directory_falls_back_to_the_json() {
    let tmp = tempfile::tempdir().unwrap();
    let inv = write_sample(tmp.path());
    let not_a_dir = tmp.path().join("file");
    std::fs::write(&not_a_dir, "x").unwrap();
    let got = cache::load(&inv, Some(&not_a_dir), 0).unwrap();
    assert_eq!(got.source, Source::Json);
    assert_eq!(got.inventory, sample());
}

#[test]
fn only_the_kept_benchmarks_from_json_and_from_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let inv = write_sample(tmp.path());
    let dir = tmp.path().join("cache");
    let keep = |p: &str| p.starts_with("incremental/ALIA/") || p.ends_with("/b0003.smt2");
    let mut want = sample();
    want.incremental.retain(|b| keep(&b.file.path()));
    want.non_incremental.retain(|b| keep(&b.file.path()));
    assert_eq!(want.incremental.len(), 2);
    assert_eq!(want.non_incremental.len(), 1);
    for expected in [Source::JsonCacheWritten, Source::Cache] {
        let got = cache::load_only(&inv, Some(&dir), 0, &keep).unwrap();
        assert_eq!(got.source, expected);
        assert_eq!(got.inventory, want);
    }
    // The cache written by a filtered load holds the whole inventory.
    assert_eq!(
        cache::load(&inv, Some(&dir), 0).unwrap().inventory,
        sample()
    );
}

#[test]
fn a_damaged_json_inventory_is_still_an_error_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("inv.json");
    std::fs::write(&p, "{\"incremental\": [").unwrap();
    let e = cache::load(&p, Some(&tmp.path().join("c")), 0).unwrap_err();
    assert!(e.to_string().contains("inv.json: invalid content"), "{e}");
    let gz = tmp.path().join("inv.json.gz");
    sample().write(&gz).unwrap();
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() / 2]).unwrap();
    let e = cache::load(&gz, Some(&tmp.path().join("c")), 0).unwrap_err();
    assert!(e.to_string().contains("truncated or corrupt gzip"), "{e}");
}

/// A cache of a previous format version (1: no sections; 2: each name
/// next to its entry) is rejected and rebuilt, never decoded.
#[test]
fn a_cache_of_format_version_1_or_2_is_rebuilt() {
    for v in [1u32, 2] {
        damaged(
            |b| b[8..12].copy_from_slice(&v.to_le_bytes()),
            "format version",
        );
    }
}

/// Format version 3 keeps a section's names together (one UTF-8 check per
/// section) and each entry the length of its name: a length that ends inside
/// a character, runs past the names or leaves some unused is rejected as
/// corrupt (checksum forged: the decoder's own checks), never a panic.
#[test]
fn name_lengths_must_split_the_section_s_names_exactly() {
    let hash = [7u8; 32];
    let inv = Inventory {
        incremental: Vec::new(),
        non_incremental: ["é.smt2", "b.smt2"]
            .iter()
            .map(|n| NonIncrementalInfo {
                file: file(false, "QF_UF", &[], n),
                status: Status::Sat,
                asserts: 1,
                category: None,
            })
            .collect(),
        errors: Vec::new(),
    };
    let good = cache::encode(&inv, &hash);
    assert_eq!(cache::decode(&good, &hash).unwrap(), inv);
    // The names ("é.smt2b.smt2", 13 bytes), then the first entry: its family
    // index (one byte), its name length (7: `é` is two bytes).
    let names = "é.smt2b.smt2".as_bytes();
    let at = find(&good, names) + names.len() + 1;
    assert_eq!(good[at], 7);
    for (len, why) in [
        (1, "character boundary"),
        (14, "past the section's names"),
        (6, "the entries use 12"),
    ] {
        let mut bad = good.clone();
        bad[at] = len;
        cache_damage::reseal(&mut bad);
        let e = cache::decode(&bad, &hash).unwrap_err();
        assert!(
            cache_damage::is_corrupt(&e) && e.to_string().contains(why),
            "{len}: {e}"
        );
    }
}

/// Keeps the non-incremental `QF_LIA` and `UF` benchmarks only (the logic
/// test lets the cache skip the other sections; the path test decides).
fn lia_and_uf() -> cache::Keep<'static> {
    cache::Keep {
        logic: &|inc, logic| !inc && (logic == "QF_LIA" || logic == "UF"),
        path: &|p| p.starts_with("non-incremental/QF_LIA/") || p.starts_with("non-incremental/UF/"),
    }
}

/// The sample, filtered as [`lia_and_uf`] keeps.
fn lia_and_uf_of(mut inv: Inventory) -> Inventory {
    inv.incremental.clear();
    inv.non_incremental
        .retain(|b| ["QF_LIA", "UF"].contains(&b.file.logic.as_str()));
    inv
}

/// The offset in `b` of the first occurrence of `what`.
fn find(b: &[u8], what: &[u8]) -> usize {
    b.windows(what.len()).position(|w| w == what).unwrap()
}

/// Sections: a filtered read skips the sections of the kinds and logics it
/// does not keep without decoding them, but the checksum still covers the
/// whole payload, so any damage (even in a skipped section) rejects the file.
/// Only a damage that also forges the checksum (a bug, or a crafted file) can
/// get past it, and then a filtered read returns exactly the kept sections'
/// entries, never data from the damaged, skipped one, while a full read
/// rejects the file.
#[test]
fn a_filtered_read_skips_sections_but_never_a_damaged_one_s_data() {
    let hash = [7u8; 32];
    let good = cache::encode(&sample(), &hash);
    let want = lia_and_uf_of(sample());
    assert_eq!(want.non_incremental.len(), 333);
    assert_eq!(
        cache::decode_filtered(&good, &hash, &lia_and_uf()).unwrap(),
        want
    );
    // A name in the incremental QF_BV section, made invalid UTF-8.
    let at = find(&good, b"i1.smt2");
    let mut bad = good.clone();
    bad[at] = 0xff;
    // Checksum not forged: every read rejects the file, filtered or not.
    for keep in [cache::Keep::ALL, lia_and_uf()] {
        let e = cache::decode_filtered(&bad, &hash, &keep).unwrap_err();
        assert_eq!(e, CacheError::Checksum);
    }
    // Checksum forged: the full read finds the damage, the filtered one
    // skips the section and returns the kept entries only.
    cache_damage::reseal(&mut bad);
    let e = cache::decode(&bad, &hash).unwrap_err();
    assert!(
        cache_damage::is_corrupt(&e) && e.to_string().contains("UTF-8"),
        "{e}"
    );
    assert_eq!(
        cache::decode_filtered(&bad, &hash, &lia_and_uf()).unwrap(),
        want
    );
    // A damaged kept section (a QF_LIA name) is an error for the filtered read.
    let lia = sample()
        .non_incremental
        .into_iter()
        .find(|b| b.file.logic.as_str() == "QF_LIA")
        .unwrap();
    let mut bad = good.clone();
    bad[find(&good, lia.file.name.as_bytes())] = 0xff;
    cache_damage::reseal(&mut bad);
    let e = cache::decode_filtered(&bad, &hash, &lia_and_uf()).unwrap_err();
    assert!(
        cache_damage::is_corrupt(&e) && e.to_string().contains("UTF-8"),
        "{e}"
    );
}

/// Every byte flip and truncation of a resealed cache, read filtered: an
/// error saying "corrupt", or an inventory; never a panic. The section
/// headers (kind, logic, count, length) are checked even where the entries
/// are skipped, so many flips outside the kept sections are rejected too.
#[test]
fn filtered_reads_of_damaged_payloads_never_panic() {
    let hash = [7u8; 32];
    let good = cache::encode(&sample(), &hash);
    let mut rejected = 0;
    for i in cache_damage::HEADER..good.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = good.clone();
            b[i] ^= x;
            cache_damage::reseal(&mut b);
            if let Err(e) = cache::decode_filtered(&b, &hash, &lia_and_uf()) {
                assert!(cache_damage::is_corrupt(&e), "{e}");
                rejected += 1;
            }
        }
    }
    assert!(rejected > 100, "{rejected}");
    for len in [cache_damage::HEADER + 1, good.len() / 2, good.len() - 1] {
        let mut b = good[..len].to_vec();
        cache_damage::reseal(&mut b);
        let e = cache::decode_filtered(&b, &hash, &lia_and_uf()).unwrap_err();
        assert!(cache_damage::is_corrupt(&e), "{e}");
    }
}

/// A damaged cache file (checksum not forged) read filtered is rejected and
/// rebuilt: the result comes from the JSON and is the same.
#[test]
fn a_damaged_cache_read_filtered_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let (inv, dir) = sample_with_cache(tmp.path());
    damage_cache_file(&dir, |bytes| {
        let at = find(bytes, b"i1.smt2");
        bytes[at] ^= 0x20;
    });
    let got = cache::load_filtered(&inv, Some(&dir), 0, &lia_and_uf()).unwrap();
    assert_eq!(got.source, Source::JsonCacheRebuilt);
    assert!(got.rejected.unwrap().contains("checksum"));
    assert_eq!(got.inventory, lia_and_uf_of(sample()));
    let again = cache::load_filtered(&inv, Some(&dir), 0, &lia_and_uf()).unwrap();
    assert_eq!(again.source, Source::Cache);
    assert_eq!(again.inventory, lia_and_uf_of(sample()));
}

/// The borrowed view of `select`, of some lists and logics only: the same
/// benchmarks from the cache (sections skipped), from the JSON, and from a
/// damaged cache (which is rebuilt).
#[test]
fn a_view_of_some_lists_and_logics_is_the_same_from_cache_and_json() {
    let tmp = tempfile::tempdir().unwrap();
    let inv = write_sample(tmp.path());
    let dir = tmp.path().join("cache");
    // The incremental ALIA list entries and the non-incremental QF_UF ones.
    let lists = |inc: bool, logic: &str| {
        if inc {
            logic == "ALIA"
        } else {
            logic == "QF_UF"
        }
    };
    let paths = |v: &smtcomp::formats::inventory::InventoryView<'_>| {
        let p = |incremental_list: bool| {
            v.benches(incremental_list)
                .map(|b| (b.path(), b.status, b.count))
                .collect::<Vec<_>>()
        };
        (p(true), p(false))
    };
    let s = sample();
    let full = s.view();
    let want = (
        paths(&full)
            .0
            .into_iter()
            .filter(|p| p.0.starts_with("incremental/ALIA/"))
            .collect(),
        paths(&full)
            .1
            .into_iter()
            .filter(|p| p.0.starts_with("non-incremental/QF_UF/"))
            .collect(),
    );
    let from_json = cache::with_view_in(&inv, None, 0, &lists, |v| paths(v)).unwrap();
    assert_eq!(from_json, want);
    assert_eq!((want.0.len(), want.1.len()), (2, 167));
    for _ in 0..2 {
        // First call: JSON, cache written; second: from the cache.
        let got = cache::with_view_in(&inv, Some(&dir), 0, &lists, |v| paths(v)).unwrap();
        assert_eq!(got, want);
    }
    damage_cache_file(&dir, |bytes| bytes[cache_damage::HEADER + 5] ^= 1);
    let got = cache::with_view_in(&inv, Some(&dir), 0, &lists, |v| paths(v)).unwrap();
    assert_eq!(got, want);
    assert_eq!(
        cache::load(&inv, Some(&dir), 0).unwrap().source,
        Source::Cache
    );
}
