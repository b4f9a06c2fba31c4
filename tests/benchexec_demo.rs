//! The committed demo data stay what the code produces: `tests/data/prepared-demo`
//! (the corpus selection, prepared) and `benchexec-defs/` (`smtcomp generate` on it
//! with the local submissions). `UPDATE_GOLDEN=1` rewrites both.

mod benchexec_support;

use benchexec_support::*;
use std::path::Path;
use std::process::Command;

fn generate(prepared: &Path, out: &Path) -> (i32, String) {
    let r = root();
    let o = Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .arg("--competition")
        .arg(r.join("demo/competition.toml"))
        .arg("generate")
        .arg("--submissions")
        .arg(r.join("demo/submissions"))
        .arg("--prepared")
        .arg(prepared)
        .arg("--out")
        .arg(out)
        .arg("--solvers-on-path")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn prepared_demo_is_current() {
    let committed = root().join("tests/data/prepared-demo");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        write_prepared_demo(&committed);
    }
    let tmp = tempfile::tempdir().unwrap();
    write_prepared_demo(tmp.path());
    assert_same_tree(&committed, tmp.path(), "UPDATE_GOLDEN=1 rewrites it");
}

#[test]
fn benchexec_defs_example_is_current_and_deterministic() {
    let committed = root().join("benchexec-defs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        let (code, err) = generate(&root().join("tests/data/prepared-demo"), &committed);
        assert_eq!(code, 0, "{err}");
    }
    // Same relative layout as the repository: <tmp>/benchexec-defs next to <tmp>/tests/data/prepared-demo.
    let tmp = tempfile::tempdir().unwrap();
    let prepared = tmp.path().join("tests/data/prepared-demo");
    copy_tree(&root().join("tests/data/prepared-demo"), &prepared);
    let out = tmp.path().join("benchexec-defs");
    let (code, err) = generate(&prepared, &out);
    assert_eq!(code, 0, "{err}");
    assert_same_tree(&committed, &out, "UPDATE_GOLDEN=1 rewrites it");
    // A second generation into the same directory gives the same bytes.
    let (code, err) = generate(&prepared, &out);
    assert_eq!(code, 0, "{err}");
    assert_same_tree(&committed, &out, "regeneration");
}
