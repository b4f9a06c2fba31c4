//! `smtcomp benchmarks scan`: the real corpus against its manifest, hostile
//! inputs, determinism.

use crate::support::{root, smtcomp};
use smtcomp::benchmarks::{Inventory, scan};
use smtcomp::model::{Competition, Status};
use std::collections::BTreeMap;
use std::io::Write;

/// Reads the corpus manifest: one map (column -> value) per row.
fn corpus_manifest() -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(root().join("corpus/MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn corpus_scan_matches_the_manifest() {
    let comp = Competition::builtin(2025).unwrap();
    let inv = scan(&root().join("corpus"), &comp, 2);
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    let rows = corpus_manifest();
    assert_eq!(
        inv.non_incremental.len() + inv.incremental.len(),
        rows.len()
    );
    for r in &rows {
        let name = r["path_in_package"].replace('/', "_");
        let from_set_info = r["status_source"] == "set-info";
        let n: u64 = r["n_check_sat"].parse().unwrap();
        if r["kind"] == "incremental" {
            let b = inv
                .incremental
                .iter()
                .find(|b| b.file.name == name)
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(b.check_sats, n, "{name}");
            assert_eq!(b.file.logic.as_str(), r["logic"]);
            let got: Vec<&str> = b
                .statuses
                .as_ref()
                .unwrap()
                .iter()
                .map(|s| s.name())
                .collect();
            if from_set_info {
                assert_eq!(got.join(","), r["expected"], "{name}");
            } else {
                // `; EXPECT:` comments are not SMT-LIB statuses.
                assert!(got.iter().all(|s| *s == "unknown"), "{name}");
            }
        } else {
            let b = inv
                .non_incremental
                .iter()
                .find(|b| b.file.name == name)
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(n, 1, "{name}");
            let want = if from_set_info {
                r["expected"].as_str()
            } else {
                "unknown"
            };
            assert_eq!(b.status.name(), want, "{name}");
            assert!(b.asserts > 0 || name.contains("regr"), "{name}");
        }
    }
}

#[test]
fn scan_is_deterministic_and_the_cli_reports_counts() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json.gz");
    let b = dir.path().join("b.json.gz");
    let (code, out, _) = smtcomp(&[
        "benchmarks",
        "scan",
        "corpus",
        "-o",
        a.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0);
    assert!(
        // 48 single + 4 slow + 5 unsat-core; 14 incremental.
        out.ends_with(": 57 non-incremental, 14 incremental, 0 unreadable\n"),
        "{out}"
    );
    smtcomp(&[
        "benchmarks",
        "scan",
        "corpus",
        "-o",
        b.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let inv = Inventory::read(&a).unwrap();
    assert_eq!(inv.non_incremental.len() + inv.incremental.len(), 71);
}

#[test]
fn hostile_files_are_reported_and_the_scan_completes() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("non-incremental/QF_BV/fam");
    std::fs::create_dir_all(&lib).unwrap();
    let w = |name: &str, content: &[u8]| std::fs::write(lib.join(name), content).unwrap();
    w(
        "good.smt2",
        b"(set-info :status sat)\n(set-logic QF_BV)\n(assert true)\n(check-sat)\n",
    );
    w(
        "string.smt2",
        b"(set-logic QF_BV)\n(assert (= \"abc\n(check-sat)\n",
    );
    w(
        "unbalanced.smt2",
        b"(set-logic QF_BV)\n(assert (and a b)\n(check-sat)\n",
    );
    w("stray.smt2", b"(set-logic QF_BV))\n");
    w(
        "binary.smt2",
        &(0u8..=255).cycle().take(4096).collect::<Vec<u8>>(),
    );
    w(
        "comment-paren.smt2",
        b"; (check-sat)\n(assert (= |)| \")\")) ; )\n(check-sat)\n",
    );
    // A large file: 200,000 assertions, streamed.
    let mut big = std::fs::File::create(lib.join("big.smt2")).unwrap();
    for i in 0..200_000 {
        writeln!(big, "(assert (= x{i} #b0101))").unwrap();
    }
    writeln!(big, "(check-sat)").unwrap();
    drop(big);
    std::fs::create_dir_all(dir.path().join("nologic")).unwrap();
    std::fs::write(dir.path().join("nologic/x.smt2"), "(check-sat)").unwrap();
    std::os::unix::fs::symlink(dir.path().join("non-incremental"), lib.join("loop")).unwrap();

    let comp = Competition::builtin(2025).unwrap();
    let inv = scan(dir.path(), &comp, 2);
    let err = |name: &str| {
        inv.errors
            .iter()
            .find(|e| e.path.ends_with(name))
            .unwrap_or_else(|| panic!("no error for {name}: {:?}", inv.errors))
            .reason
            .clone()
    };
    assert!(
        err("string.smt2").contains("string"),
        "{}",
        err("string.smt2")
    );
    assert!(
        err("unbalanced.smt2").contains("EOF"),
        "{}",
        err("unbalanced.smt2")
    );
    assert!(err("stray.smt2").contains("outside a command"));
    assert!(!err("binary.smt2").is_empty());
    assert!(err("nologic/x.smt2").contains("no logic directory"));
    assert!(err("loop").contains("symlink loop"), "{}", err("loop"));
    let names: Vec<&str> = inv
        .non_incremental
        .iter()
        .map(|b| b.file.name.as_str())
        .collect();
    assert_eq!(names, ["big.smt2", "comment-paren.smt2", "good.smt2"]);
    let good = &inv.non_incremental[2];
    assert_eq!(
        (good.status, good.asserts, good.file.family.clone()),
        (Status::Sat, 1, vec!["fam".to_string()])
    );
    assert_eq!(inv.non_incremental[0].asserts, 200_000);
    assert_eq!(
        inv.non_incremental[1].asserts, 1,
        "comments and strings are not commands"
    );

    let (code, out, _) = smtcomp(&[
        "benchmarks",
        "scan",
        dir.path().to_str().unwrap(),
        "-o",
        dir.path().join("inv.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "unreadable files make the exit code 1");
    assert!(
        out.contains("3 non-incremental, 0 incremental, 6 unreadable"),
        "{out}"
    );
}
