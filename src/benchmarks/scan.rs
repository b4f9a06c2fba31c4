//! Scanning an SMT-LIB library into an [`Inventory`], with the project's lexer
//! (comments, strings and quoted symbols handled; streaming, constant memory).
//!
//! Path rules: below ROOT, a component `incremental` or `non-incremental`
//! decides the kind; the first component that names a logic of the competition
//! (or, right after the kind directory, any valid logic name) is the logic; the
//! directories between it and the file are the family. Without a kind
//! directory, a file with more than one query is incremental.
//! Files that cannot be read are reported with the reason, never dropped.

use super::{Category, IncrementalInfo, Inventory, NonIncrementalInfo, ScanError, Smt2File};
use crate::model::{Competition, Logic, Status, is_valid_name};
use crate::smtlib::{CommandKind, CommandReader, TokenKind, tokenize};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// What the content of one file says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptFacts {
    /// `assert` commands.
    pub asserts: u64,
    /// Status of each query (from the last `set-info :status` before it).
    pub statuses: Vec<Status>,
    /// Whether `push`/`pop` occur.
    pub push_pop: bool,
    /// Status declared before the first query (or anywhere, if there is no query).
    pub first_status: Option<Status>,
    /// The first `(set-info :category V)`: V a string literal (SMT-LIB 2), a
    /// symbol or a quoted symbol naming a [`Category`]. `None` when there is no
    /// such command or the first one is malformed or names no known category.
    pub category: Option<Category>,
}

/// The category of a `set-info` command, if it is `(set-info :category V)`:
/// `Some(None)` for a malformed or unknown value.
fn set_info_category(text: &[u8]) -> Option<Option<Category>> {
    let toks = tokenize(text).ok()?;
    let key = toks.get(2)?;
    if key.kind != TokenKind::Keyword || key.text != b":category" {
        return None;
    }
    if toks.len() != 5 {
        return Some(None);
    }
    let v = &toks[3];
    let value = match v.kind {
        TokenKind::String => crate::smtlib::lexer::string_content(&v.text),
        TokenKind::Symbol => v.text.clone(),
        TokenKind::QuotedSymbol => v.text[1..v.text.len() - 1].to_vec(),
        _ => return Some(None),
    };
    Some(Category::parse(&value))
}

/// What a directory entry that is neither a regular file nor a directory is
/// (`FIFO`, `character device`, ...), for the "not a regular file" error.
fn special_kind(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "FIFO"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_block_device() {
        "block device"
    } else if t.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

/// Why a benchmark script cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// It cannot be opened.
    #[error("cannot open: {0}")]
    Open(std::io::Error),
    /// It is not a regular file (a FIFO, a device, ...).
    #[error("not a regular file ({0}); not read")]
    NotRegular(&'static str),
    /// Its commands cannot be read (with line and column).
    #[error(transparent)]
    Commands(#[from] crate::smtlib::CommandError),
}

/// Opens a script for reading without ever blocking: `O_NONBLOCK`, so a file
/// replaced by a FIFO after the scan listed it fails here instead of waiting
/// for a writer forever; anything but a regular file is refused.
fn open_regular(path: &Path) -> Result<File, ScriptError> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(ScriptError::Open)?;
    let t = file.metadata().map_err(ScriptError::Open)?.file_type();
    if !t.is_file() {
        return Err(ScriptError::NotRegular(special_kind(t)));
    }
    Ok(file)
}

/// Reads the facts of one script.
pub fn script_facts(path: &Path) -> Result<ScriptFacts, ScriptError> {
    let file = open_regular(path)?;
    let mut reader = CommandReader::new(BufReader::with_capacity(1 << 16, file));
    let mut facts = ScriptFacts::default();
    let mut pending: Option<Status> = None;
    let mut category_seen = false;
    while let Some(cmd) = reader.next_command()? {
        match cmd.kind {
            CommandKind::SetInfoStatus(s) => {
                let s = match s {
                    crate::smtlib::Status::Sat => Status::Sat,
                    crate::smtlib::Status::Unsat => Status::Unsat,
                    crate::smtlib::Status::Unknown => Status::Unknown,
                };
                pending = Some(s);
                if facts.statuses.is_empty() {
                    facts.first_status = Some(s);
                }
            }
            k if k.is_query() => facts
                .statuses
                .push(pending.take().unwrap_or(Status::Unknown)),
            _ => match cmd.head() {
                Some(b"assert") => facts.asserts += 1,
                Some(b"push") | Some(b"pop") => facts.push_pop = true,
                Some(b"set-info") if !category_seen => {
                    if let Some(c) = set_info_category(cmd.text) {
                        category_seen = true;
                        facts.category = c;
                    }
                }
                _ => {}
            },
        }
    }
    Ok(facts)
}

/// Where a file sits: kind, logic and family, from its path below the root.
fn classify(
    rel: &Path,
    comp: &Competition,
) -> Result<(Option<bool>, Logic, Vec<String>, String), String> {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let (name, dirs) = parts.split_last().ok_or("empty path")?;
    let mut kind = None;
    let mut logic_at = None;
    for (i, d) in dirs.iter().enumerate() {
        match d.as_str() {
            "incremental" if logic_at.is_none() => kind = Some(true),
            "non-incremental" if logic_at.is_none() => kind = Some(false),
            _ => {
                let after_kind =
                    i > 0 && matches!(dirs[i - 1].as_str(), "incremental" | "non-incremental");
                if comp.knows_logic(d) || (after_kind && is_valid_name(d)) {
                    logic_at = Some(i);
                    break;
                }
            }
        }
    }
    let at =
        logic_at.ok_or("no logic directory in the path (expected .../LOGIC/family/name.smt2)")?;
    Ok((
        kind,
        Logic::new(dirs[at].clone()),
        dirs[at + 1..].to_vec(),
        name.clone(),
    ))
}

/// Scans `root` with `jobs` threads.
pub fn scan(root: &Path, comp: &Competition, jobs: usize) -> Inventory {
    let mut inv = Inventory::default();
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
    {
        match entry {
            Ok(e)
                if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "smt2") =>
            {
                files.push(e.into_path())
            }
            // A FIFO, device or socket named `.smt2`: listed, never opened
            // (opening a FIFO waits for a writer).
            Ok(e)
                if !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "smt2") =>
            {
                let p = e.path();
                inv.errors.push(ScanError {
                    path: p.strip_prefix(root).unwrap_or(p).display().to_string(),
                    reason: format!(
                        "not a regular file ({}); not read",
                        special_kind(e.file_type())
                    ),
                })
            }
            Ok(_) => {}
            Err(e) => inv.errors.push(ScanError {
                path: e
                    .path()
                    .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
                    .unwrap_or_default(),
                reason: match e.loop_ancestor() {
                    Some(a) => format!("symlink loop back to {}", a.display()),
                    None => e.to_string(),
                },
            }),
        }
    }
    let results = crate::util::parallel::map(&files, jobs, "scanning", |path| {
        let rel = path.strip_prefix(root).unwrap_or(path);
        let shown = rel.display().to_string();
        let err = |reason: String| ScanError {
            path: shown.clone(),
            reason,
        };
        let (kind, logic, family, name) = classify(rel, comp).map_err(|r| err(r.to_string()))?;
        let facts = script_facts(path).map_err(|e| err(e.to_string()))?;
        let incremental = kind.unwrap_or(facts.statuses.len() > 1);
        let file = Smt2File {
            incremental,
            logic,
            family,
            name,
        };
        Ok(if incremental {
            Entry::Inc(IncrementalInfo {
                file,
                check_sats: facts.statuses.len() as u64,
                statuses: Some(facts.statuses),
            })
        } else {
            Entry::NonInc(NonIncrementalInfo {
                file,
                status: facts.first_status.unwrap_or(Status::Unknown),
                asserts: facts.asserts,
                category: facts.category,
            })
        })
    });
    for r in results {
        match r {
            Ok(Entry::Inc(b)) => inv.incremental.push(b),
            Ok(Entry::NonInc(b)) => inv.non_incremental.push(b),
            Err(e) => inv.errors.push(e),
        }
    }
    inv.sort();
    inv
}

enum Entry {
    Inc(IncrementalInfo),
    NonInc(NonIncrementalInfo),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn category_of(text: &str) -> Option<Category> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.smt2");
        std::fs::write(&p, text).unwrap();
        script_facts(&p).unwrap().category
    }

    #[test]
    fn category_string_symbol_quoted() {
        let body = "(set-logic QF_UF)\n(check-sat)\n";
        for (info, want) in [
            (
                "(set-info :category \"industrial\")",
                Some(Category::Industrial),
            ),
            ("(set-info :category \"crafted\")", Some(Category::Crafted)),
            ("(set-info :category \"random\")", Some(Category::Random)),
            ("(set-info :category \"check\")", Some(Category::Check)),
            (
                "(set-info :category industrial)",
                Some(Category::Industrial),
            ),
            ("(set-info :category |random|)", Some(Category::Random)),
            (
                "(set-info   :category\n  \" Crafted \" )",
                Some(Category::Crafted),
            ),
        ] {
            assert_eq!(category_of(&format!("{info}\n{body}")), want, "{info}");
        }
    }

    #[test]
    fn category_missing_or_malformed() {
        let body = "(set-logic QF_UF)\n(check-sat)\n";
        assert_eq!(category_of(body), None);
        assert_eq!(
            category_of(&format!("(set-info :status sat)\n{body}")),
            None
        );
        for bad in [
            "(set-info :category \"industral\")",
            "(set-info :category)",
            "(set-info :category 3)",
            "(set-info :category \"industrial\" extra)",
            "(set-info :category (industrial))",
            "(set-info :category \"\")",
        ] {
            assert_eq!(category_of(&format!("{bad}\n{body}")), None, "{bad}");
        }
        // The first :category decides; a comment mentioning one does not count.
        assert_eq!(
            category_of(&format!(
                "; (set-info :category \"check\")\n(set-info :category \"random\")\n(set-info :category \"check\")\n{body}"
            )),
            Some(Category::Random)
        );
    }
}
