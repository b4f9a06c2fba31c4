//! Typed errors (issue 34, docs/architecture.md "Errors"): below the
//! orchestration layers (`pipeline`, `workspace`, `demo`, `testsolver`, `cli`)
//! no module uses `anyhow`, and no public function returns
//! `Result<_, String>`: each stage returns its own error type, which names
//! the file, line or run and the reason. The CLI's clap value parsers keep
//! `String` (clap's interface). A fixture checks that the scan can fail.

use std::path::{Path, PathBuf};

/// Modules that compose the stages and may wrap their errors with `anyhow`
/// context ([`smtcomp::pipeline::StageError`]).
const ORCHESTRATION: &[&str] = &["pipeline", "workspace", "demo", "testsolver", "cli"];

/// Rust files below `src` outside the orchestration modules.
fn stage_files(src: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| {
            let rel = p.strip_prefix(src).unwrap();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_str()
                .unwrap();
            let module = first.strip_suffix(".rs").unwrap_or(first);
            !ORCHESTRATION.contains(&module) && !["lib", "main"].contains(&module)
        })
        .collect();
    files.sort();
    files
}

/// The code of a file before its unit tests, comments removed line by line.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every violation in the files: `file:line: what`.
fn violations(files: &[PathBuf]) -> Vec<String> {
    let public_string_error = regex::Regex::new(
        r"pub(\([a-z]+\))?\s+fn\s+(\w+)[^{;]*?->\s*Result<[^{;]*,\s*String>\s*(where[^{]*)?\{",
    )
    .unwrap();
    let mut out = Vec::new();
    for f in files {
        let text = code(&std::fs::read_to_string(f).unwrap());
        let line_of = |at: usize| text[..at].matches('\n').count() + 1;
        if let Some(at) = text.find("anyhow") {
            out.push(format!("{}:{}: uses anyhow", f.display(), line_of(at)));
        }
        for m in public_string_error.captures_iter(&text) {
            let at = m.get(0).unwrap().start();
            out.push(format!(
                "{}:{}: pub fn {} returns Result<_, String>",
                f.display(),
                line_of(at),
                &m[2]
            ));
        }
    }
    out
}

#[test]
fn stages_return_typed_errors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = stage_files(&src);
    assert!(files.len() > 100, "only {} files scanned", files.len());
    let v = violations(&files);
    assert!(
        v.is_empty(),
        "untyped errors below the orchestration layers:\n{}",
        v.join("\n")
    );
}

#[test]
fn the_scan_finds_string_errors_and_anyhow() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("ingest")).unwrap();
    std::fs::create_dir_all(src.join("pipeline")).unwrap();
    std::fs::write(
        src.join("ingest/a.rs"),
        "/// x\npub fn parse(\n    s: &str,\n) -> Result<Vec<u8>, String> {\n    todo!()\n}\n\
         fn private() -> Result<(), String> { Ok(()) }\n\
         pub fn typed() -> Result<(), MyError> { Ok(()) }\n\
         // anyhow in a comment\n\
         #[cfg(test)]\nmod tests { pub fn t() -> Result<(), String> { Ok(()) } }\n",
    )
    .unwrap();
    std::fs::write(src.join("ingest/b.rs"), "use anyhow::Context;\n").unwrap();
    std::fs::write(
        src.join("pipeline/c.rs"),
        "pub fn run() -> anyhow::Result<()> { Ok(()) }\npub fn s() -> Result<(), String> { Ok(()) }\n",
    )
    .unwrap();
    let files = stage_files(&src);
    assert_eq!(files.len(), 2);
    let v = violations(&files);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v[0].ends_with("a.rs:2: pub fn parse returns Result<_, String>"),
        "{v:?}"
    );
    assert!(v[1].ends_with("b.rs:1: uses anyhow"), "{v:?}");
}
