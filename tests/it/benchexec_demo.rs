//! The committed demo data stay what the code produces: `tests/data/prepared-demo`
//! (the corpus selection, prepared) and `benchexec-defs/` (`smtcomp generate` on it
//! with the local submissions). `UPDATE_GOLDEN=1` rewrites both.

use crate::support::prepared_demo::write_prepared_demo;
use crate::support::{copy_tree, golden, root, tree};
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
        // The example holds no archives (cvc5's Proof Exhibition script is in demo/archives).
        .arg("--no-binary-check")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn prepared_demo_is_current() {
    let tmp = tempfile::tempdir().unwrap();
    write_prepared_demo(tmp.path());
    golden::check_tree("tests/data/prepared-demo", tmp.path());
}

#[test]
fn benchexec_defs_example_is_current_and_deterministic() {
    // Same relative layout as the repository: <tmp>/benchexec-defs next to <tmp>/tests/data/prepared-demo.
    let tmp = tempfile::tempdir().unwrap();
    let prepared = tmp.path().join("tests/data/prepared-demo");
    copy_tree(&root().join("tests/data/prepared-demo"), &prepared);
    let out = tmp.path().join("benchexec-defs");
    let (code, err) = generate(&prepared, &out);
    assert_eq!(code, 0, "{err}");
    golden::check_tree("benchexec-defs", &out);
    // A second generation into the same directory gives the same bytes.
    let first = tree(&out);
    let (code, err) = generate(&prepared, &out);
    assert_eq!(code, 0, "{err}");
    assert!(tree(&out) == first, "regeneration changed benchexec-defs");
}
