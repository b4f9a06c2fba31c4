//! Benchmark lists: one library path per line (`non-incremental/LOGIC/.../NAME`
//! or `incremental/LOGIC/.../NAME`), `#` comments, and an optional
//! `# track: NAME` header; or a selection file (`smtcomp select` output).
//!
//! `smtcomp benchmarks used` writes them, `score --selection` and
//! `test-solver --benchmarks` read them.

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::Smt2File;
use crate::model::{Logic, Track};
use std::path::Path;

/// A benchmark list as read from a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BenchmarkList {
    /// The track its `# track:` header names (a selection file's track).
    pub track: Option<Track>,
    /// The benchmarks, in file order, each once.
    pub files: Vec<Smt2File>,
}

/// Why a list could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] DataFileError),
    /// A line that is no benchmark path, or a bad header.
    #[error("{file}:{line}: {reason}")]
    Line {
        /// The list file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A selection file that does not parse.
    #[error("{file}: not a selection (`smtcomp select` output): {reason}")]
    Selection {
        /// The file.
        file: String,
        /// The parser's words.
        reason: String,
    },
}

/// The benchmark identity of a library path (`incremental/QF_BV/fam/x.smt2`),
/// or `None` when it is not one (no kind directory, no logic, an empty,
/// `.` or `..` part).
pub fn parse_path(p: &str) -> Option<Smt2File> {
    let parts: Vec<&str> = p.split('/').collect();
    let incremental = match parts.first().copied()? {
        "incremental" => true,
        "non-incremental" => false,
        _ => return None,
    };
    if parts.len() < 3
        || parts
            .iter()
            .any(|x| x.is_empty() || *x == "." || *x == "..")
    {
        return None;
    }
    Some(Smt2File {
        incremental,
        logic: Logic::new(parts[1]),
        family: parts[2..parts.len() - 1]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        name: parts[parts.len() - 1].to_string(),
    })
}

/// Reads a list or a selection file; a benchmark listed twice is kept once.
pub fn read(path: &Path) -> Result<BenchmarkList, ListError> {
    let bytes = datafile::read_bytes(path)?;
    let text = String::from_utf8(bytes).map_err(|_| DataFileError::new(path, "not UTF-8 text"))?;
    let file = path.display().to_string();
    if text.trim_start().starts_with('{') {
        return read_selection(&text, &file);
    }
    let mut list = BenchmarkList::default();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let bad = |reason: String| ListError::Line {
            file: file.clone(),
            line: i + 1,
            reason,
        };
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(name) = comment.trim().strip_prefix("track:") {
                let track: Track = name
                    .trim()
                    .parse()
                    .map_err(|e| bad(format!("header `{line}`: {e}")))?;
                if list.track.is_some_and(|t| t != track) {
                    return Err(bad(format!("a second `# track:` header names {track}")));
                }
                list.track = Some(track);
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let f = parse_path(line).ok_or_else(|| {
            bad(format!(
                "'{line}' is not a benchmark path (non-incremental/LOGIC/.../NAME or incremental/LOGIC/.../NAME)"
            ))
        })?;
        if seen.insert(f.clone()) {
            list.files.push(f);
        }
    }
    Ok(list)
}

fn read_selection(text: &str, file: &str) -> Result<BenchmarkList, ListError> {
    #[derive(serde::Deserialize)]
    struct Selected {
        file: Smt2File,
    }
    #[derive(serde::Deserialize)]
    struct SelectionFile {
        track: Option<Track>,
        benchmarks: Vec<Selected>,
    }
    let f: SelectionFile = serde_json::from_str(text).map_err(|e| ListError::Selection {
        file: file.to_string(),
        reason: e.to_string(),
    })?;
    Ok(BenchmarkList {
        track: f.track,
        files: f.benchmarks.into_iter().map(|b| b.file).collect(),
    })
}

/// The list as text: `# ` + each header line, `# track: NAME` when a track is
/// given, then one path per line (the order given).
pub fn render(track: Option<Track>, header: &[String], files: &[Smt2File]) -> String {
    let mut s = String::new();
    for h in header {
        for l in h.lines() {
            s.push_str("# ");
            s.push_str(l);
            s.push('\n');
        }
    }
    if let Some(t) = track {
        s.push_str(&format!("# track: {}\n", t.name()));
    }
    for f in files {
        f.write_path(&mut s);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_and_bad_ones_are_refused() {
        let f = parse_path("incremental/QF_BV/a/b/x.smt2").unwrap();
        assert!(f.incremental);
        assert_eq!(f.logic.as_str(), "QF_BV");
        assert_eq!(f.family, vec!["a", "b"]);
        assert_eq!(f.name, "x.smt2");
        assert_eq!(f.path(), "incremental/QF_BV/a/b/x.smt2");
        for bad in [
            "QF_BV/a/x.smt2",
            "non-incremental/QF_BV",
            "non-incremental//x.smt2",
            "non-incremental/QF_BV/../x.smt2",
            "",
        ] {
            assert!(parse_path(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_rendered_list_reads_back_with_its_track_and_once_per_benchmark() {
        let files = vec![
            parse_path("non-incremental/QF_FP/f/a.smt2").unwrap(),
            parse_path("non-incremental/QF_FP/f/b.smt2").unwrap(),
        ];
        let mut text = render(
            Some(Track::SingleQuery),
            &["from somewhere\n2 benchmarks".into()],
            &files,
        );
        text.push_str("non-incremental/QF_FP/f/a.smt2\n");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("l.txt");
        std::fs::write(&p, &text).unwrap();
        let l = read(&p).unwrap();
        assert_eq!(l.track, Some(Track::SingleQuery));
        assert_eq!(l.files, files);

        std::fs::write(&p, "# track: sq\nnon-incremental/QF_FP/x\nQF_FP/y.smt2\n").unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(e.ends_with(":3: 'QF_FP/y.smt2' is not a benchmark path (non-incremental/LOGIC/.../NAME or incremental/LOGIC/.../NAME)"), "{e}");
        std::fs::write(&p, "# track: nonsense\n").unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(e.contains(":1: header `# track: nonsense`"), "{e}");
    }
}
