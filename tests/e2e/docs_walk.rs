//! The docs' transcripts, replayed: every ` ```text` block with `$ ` command
//! lines in the walked documents is run, in order, as a newcomer would type
//! it, and its output compared with what the document shows, so the docs
//! cannot drift from the tool.
//!
//! A document is walked in a fresh directory (a copy of the checkout's
//! tracked files when it says `<!-- walk: in checkout -->`) with the debug
//! build and the tools venv on PATH; `cd` carries over from one command to
//! the next, as in a shell. HTML comments steer the walk without showing in
//! the rendered page:
//!
//! | comment | effect |
//! |---|---|
//! | `<!-- walk: in checkout -->` | (document) start in a copy of the checkout, not an empty directory |
//! | `<!-- walk: as /tmp/oc-work -->` | (document) the walk directory is shown as this path in the document |
//! | `<!-- walk: run CMD -->` | run CMD (not shown) before the next block |
//! | `<!-- walk: skip REASON -->` | the next block is not run (counted and printed with its reason) |
//! | `<!-- walk: stdout -->` | compare only the next block's standard output (the document shows no stderr) |
//!
//! Comparison, line by line after normalising both sides (runs of blanks as
//! one, every decimal number as `#.#`, the walk directory as the document's
//! path): a document line `...` stands for any number of lines, and `…`
//! inside a line for any text (machine-specific values such as memory).
//! Exit codes are not compared: a block that shows a failure shows its text.

use crate::support::{require_tool, root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Documents walked, in the order a newcomer reads them.
const DOCS: [&str; 3] = ["README.md", "docs/organizer.md", "docs/test-solver.md"];

/// One `$ ` command of a block and the output the document shows for it.
#[derive(Debug)]
struct Step {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// One transcript block and the walk comments before it.
#[derive(Debug, Default)]
struct Block {
    line: usize,
    setup: Vec<String>,
    skip: Option<String>,
    stdout_only: bool,
    steps: Vec<Step>,
}

/// A document's walk: its blocks and document-wide settings.
#[derive(Debug, Default)]
struct Walk {
    in_checkout: bool,
    shown_dir: Option<String>,
    blocks: Vec<Block>,
}

fn parse(md: &str) -> Walk {
    let mut walk = Walk::default();
    let mut pending = Block::default();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("<!-- walk:") {
            let body = rest.trim_end().trim_end_matches("-->").trim();
            match body.split_once(' ').unwrap_or((body, "")) {
                ("in", "checkout") => walk.in_checkout = true,
                ("as", dir) => walk.shown_dir = Some(dir.trim().to_string()),
                ("run", cmd) => pending.setup.push(cmd.trim().to_string()),
                ("skip", why) => pending.skip = Some(why.trim().to_string()),
                ("stdout", _) => pending.stdout_only = true,
                _ => panic!("line {}: unknown walk comment: {line}", i + 1),
            }
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") {
            let indent = line.len() - trimmed.len();
            let start = i;
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                body.push(lines[i].get(indent..).unwrap_or("").trim_end());
                i += 1;
            }
            i += 1;
            let steps = steps(&body, start + 2);
            if steps.is_empty() {
                continue;
            }
            let mut block = std::mem::take(&mut pending);
            block.line = start + 1;
            block.steps = steps;
            walk.blocks.push(block);
            continue;
        }
        i += 1;
    }
    assert!(
        pending.setup.is_empty() && pending.skip.is_none(),
        "walk comments after the last block"
    );
    walk
}

/// The `$ ` commands of a block's lines (continued with a trailing `\`) and
/// the lines shown after each.
fn steps(body: &[&str], first_line: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut k = 0;
    while k < body.len() {
        if let Some(cmd) = body[k].strip_prefix("$ ") {
            let line = first_line + k;
            let mut command = cmd.to_string();
            while command.ends_with('\\') && k + 1 < body.len() {
                command.pop();
                command.truncate(command.trim_end().len());
                k += 1;
                command.push(' ');
                command.push_str(body[k].trim());
            }
            steps.push(Step {
                line,
                command,
                shown: Vec::new(),
            });
        } else if let Some(s) = steps.last_mut() {
            s.shown.push(body[k].to_string());
        }
        k += 1;
    }
    steps
}

/// Both sides alike: blanks collapsed, decimals as `#.#`, the walk directory
/// shown as the document's path.
fn normalise(line: &str, dir: &str, shown_dir: Option<&str>) -> String {
    let line = match shown_dir {
        Some(s) if !dir.is_empty() => line.replace(dir, s),
        _ => line.to_string(),
    };
    let decimals = regex::Regex::new(r"\d+\.\d+").unwrap();
    let line = decimals.replace_all(&line, "#.#");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `actual` is what `shown` shows (`...` lines, `…` inside lines).
fn matches(shown: &[String], actual: &[String]) -> bool {
    fn line_matches(pattern: &str, actual: &str) -> bool {
        if !pattern.contains('…') {
            return pattern == actual;
        }
        let re: Vec<String> = pattern.split('…').map(regex::escape).collect();
        regex::Regex::new(&format!("^{}$", re.join(".*")))
            .unwrap()
            .is_match(actual)
    }
    fn go(s: &[String], a: &[String]) -> bool {
        match s.first() {
            None => a.is_empty(),
            Some(p) if p == "..." => (0..=a.len()).any(|k| go(&s[1..], &a[k..])),
            Some(p) => !a.is_empty() && line_matches(p, &a[0]) && go(&s[1..], &a[1..]),
        }
    }
    go(shown, actual)
}

/// Copies the checkout's tracked files into `to`.
fn copy_checkout(to: &Path) {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git ls-files");
    for rel in out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rel = String::from_utf8_lossy(rel).into_owned();
        let from = root().join(&rel);
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        if from.is_file() {
            std::fs::copy(&from, &dest).unwrap();
        }
    }
}

/// Runs `command` in `cwd` (bash, stderr merged unless `stdout_only`);
/// returns its output lines, the directory it ended in and its exit code.
fn run(
    command: &str,
    cwd: &Path,
    stdout_only: bool,
    env_path: &str,
) -> (Vec<String>, PathBuf, i32) {
    let pwd = cwd.join(".walk-pwd");
    let script = format!(
        "cd \"$WALK_CWD\" || exit 99\n{}eval \"$WALK_CMD\"\nrc=$?\npwd > \"$WALK_PWD\"\nexit $rc\n",
        if stdout_only {
            "exec 2>/dev/null\n"
        } else {
            "exec 2>&1\n"
        }
    );
    let out = Command::new("timeout")
        .args(["900", "bash", "-c", &script])
        .env("WALK_CWD", cwd)
        .env("WALK_CMD", command)
        .env("WALK_PWD", &pwd)
        .env("PATH", env_path)
        .env("NO_COLOR", "1")
        .env("SMTCOMP_PROGRESS_INTERVAL", "100000")
        .env("SMTCOMP_CACHE_DIR", root().join("target/test-cache"))
        .env("REPO", root())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run bash");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let next = std::fs::read_to_string(&pwd)
        .map(|p| PathBuf::from(p.trim()))
        .unwrap_or_else(|_| cwd.to_path_buf());
    let _ = std::fs::remove_file(&pwd);
    (
        text.lines().map(String::from).collect(),
        next,
        out.status.code().unwrap_or(-1),
    )
}

/// Walks one document; returns the mismatches (and prints the skipped blocks).
fn walk_doc(doc: &str, env_path: &str) -> Vec<String> {
    let md = std::fs::read_to_string(root().join(doc)).unwrap();
    let walk = parse(&md);
    let base = tempfile::Builder::new()
        .prefix("walk")
        .tempdir_in("/tmp")
        .unwrap();
    let dir = base.path().canonicalize().unwrap();
    if walk.in_checkout {
        copy_checkout(&dir);
    }
    let shown_dir = walk.shown_dir.as_deref();
    let dir_text = dir.display().to_string();
    let mut cwd = dir.clone();
    let mut problems = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for block in &walk.blocks {
        if let Some(why) = &block.skip {
            skipped += 1;
            eprintln!("{doc}:{}: block not walked: {why}", block.line);
            continue;
        }
        for cmd in &block.setup {
            let (out, next, code) = run(cmd, &cwd, false, env_path);
            cwd = next;
            assert_eq!(code, 0, "{doc}:{}: setup `{cmd}`: {out:?}", block.line);
        }
        for step in &block.steps {
            let (out, next, _) = run(&step.command, &cwd, block.stdout_only, env_path);
            cwd = next;
            ran += 1;
            let norm = |v: &[String]| -> Vec<String> {
                v.iter()
                    .map(|l| normalise(l, &dir_text, shown_dir))
                    .collect()
            };
            let shown = norm(&step.shown);
            let actual = norm(&out);
            if !matches(&shown, &actual) {
                let first = shown
                    .iter()
                    .zip(&actual)
                    .take_while(|(s, _)| *s != "...")
                    .position(|(s, a)| !matches(std::slice::from_ref(s), std::slice::from_ref(a)))
                    .map_or(
                        format!(" ({} lines shown, {} printed)", shown.len(), actual.len()),
                        |k| {
                            format!(
                                " (first difference, output line {}: shown `{}`, printed `{}`)",
                                k + 1,
                                shown[k],
                                actual[k]
                            )
                        },
                    );
                problems.push(format!(
                    "{doc}:{}: `{}`{first} printed (normalised):\n{}\n-- the document shows:\n{}",
                    step.line,
                    step.command,
                    actual.join("\n"),
                    shown.join("\n")
                ));
            }
        }
    }
    eprintln!("{doc}: {ran} commands walked, {skipped} blocks skipped");
    problems
}

#[test]
fn the_match_rules_are_exact_but_for_gaps_and_wildcards() {
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "b"]), &v(&["a", "b"])));
    assert!(!matches(&v(&["a", "b"]), &v(&["a", "b", "c"])));
    assert!(!matches(&v(&["a"]), &v(&["b"])));
    assert!(matches(&v(&["a", "...", "d"]), &v(&["a", "b", "c", "d"])));
    assert!(matches(&v(&["a", "..."]), &v(&["a"])));
    assert!(matches(&v(&["x … MB"]), &v(&["x 24105 MB"])));
    assert!(!matches(&v(&["x … MB"]), &v(&["y 24105 MB"])));
    assert_eq!(
        normalise(
            "ran  in 0.25 s at /tmp/walkX/c",
            "/tmp/walkX",
            Some("/tmp/oc")
        ),
        "ran in #.# s at /tmp/oc/c"
    );
    let w = parse(
        "<!-- walk: in checkout -->\n<!-- walk: run touch f -->\n```text\n$ echo a \\\n  b\na b\n```\n```bash\nnot a transcript\n```\n<!-- walk: skip needs Slurm -->\n  ```text\n  $ squeue\n  ```\n",
    );
    assert!(w.in_checkout);
    assert_eq!(w.blocks.len(), 2);
    assert_eq!(w.blocks[0].setup, ["touch f"]);
    assert_eq!(w.blocks[0].steps[0].command, "echo a b");
    assert_eq!(w.blocks[0].steps[0].shown, ["a b"]);
    assert_eq!(w.blocks[1].skip.as_deref(), Some("needs Slurm"));
    assert_eq!(w.blocks[1].steps[0].command, "squeue");
}

/// README, the organizer's guide and the solver author's guide, as a
/// newcomer walks them.
#[test]
fn the_documented_transcripts_are_what_the_tool_prints() {
    if require_tool("benchexec").is_none() || require_tool("z3").is_none() {
        return;
    }
    let bin = root().join("target/debug");
    let env_path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut problems = Vec::new();
    // SMTCOMP_WALK_DOCS=a.md,b.md walks only those (while editing them).
    let only = std::env::var("SMTCOMP_WALK_DOCS").unwrap_or_default();
    for doc in DOCS
        .iter()
        .filter(|d| only.is_empty() || only.split(',').any(|o| o == **d))
    {
        problems.extend(walk_doc(doc, &env_path));
    }
    assert!(
        problems.is_empty(),
        "{} transcript(s) differ:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
