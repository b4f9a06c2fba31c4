//! Embeds the test corpus (`corpus/`, without `slow/`) into the binary so that
//! `smtcomp test-solver` works from any directory: writes
//! `$OUT_DIR/corpus_files.rs`, a sorted list of (path below `corpus/`, bytes).

use std::path::{Path, PathBuf};

/// What of `corpus/` is embedded: the benchmark kinds test-solver uses and the
/// files that say where they come from.
const EMBEDDED: [&str; 3] = ["single", "incremental", "unsat-core"];

fn main() {
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
