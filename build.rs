//! Embeds the test corpus (`corpus/`, without `slow/`) into the binary so that
//! `smtcomp test-solver` works from any directory: writes
//! `$OUT_DIR/corpus_files.rs`, a sorted list of (path below `corpus/`, bytes).
//! Also sets `SMTCOMP_GIT_COMMIT` for `smtcomp --version`: the short commit of
//! the checkout, `unknown` outside git (a source tarball), or the value of that
//! variable when the build environment sets it.

use std::path::{Path, PathBuf};

/// What of `corpus/` is embedded: the benchmark kinds test-solver uses and the
/// files that say where they come from.
const EMBEDDED: [&str; 3] = ["single", "incremental", "unsat-core"];

fn main() {
    git_commit();
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("corpus");
    println!("cargo:rerun-if-changed=corpus");
    let mut files = Vec::new();
    for kind in EMBEDDED {
        walk(&root.join(kind), &mut files);
    }
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        let p = e.path();
        if p.is_file() {
            files.push(p);
        }
    }
    files.sort();
    let mut out = String::from(
        "/// The embedded corpus: (path below `corpus/`, contents), sorted by path.\n\
         pub static CORPUS_FILES: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_str().unwrap();
        out.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            f.to_str().unwrap()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("corpus_files.rs");
    std::fs::write(dest, out).unwrap();
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, files);
        } else if p.is_file() {
            files.push(p);
        }
    }
}

/// `cargo:rustc-env=SMTCOMP_GIT_COMMIT=...`, re-run when HEAD or the branch
/// moves. Never fails the build: without git or a checkout it is `unknown`.
/// (No `-dirty` marker: it would need a re-run on every file change.)
fn git_commit() {
    println!("cargo:rerun-if-env-changed=SMTCOMP_GIT_COMMIT");
    if let Ok(given) = std::env::var("SMTCOMP_GIT_COMMIT") {
        println!("cargo:rustc-env=SMTCOMP_GIT_COMMIT={given}");
        return;
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(std::env::var("CARGO_MANIFEST_DIR").ok()?)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !text.is_empty()).then_some(text)
    };
    let commit = git(&["rev-parse", "--short=10", "HEAD"]);
    if commit.is_some() {
        // HEAD itself, the branch it points to, and packed refs.
        let mut watch = vec![git(&["rev-parse", "--git-path", "HEAD"])];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch.push(git(&["rev-parse", "--git-path", &branch]));
        }
        watch.push(git(&["rev-parse", "--git-path", "packed-refs"]));
        let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        for p in watch.into_iter().flatten() {
            let p = root.join(p);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    println!(
        "cargo:rustc-env=SMTCOMP_GIT_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".to_string())
    );
}
