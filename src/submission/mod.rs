//! Solver submissions: the official JSON format, its validation against a
//! competition, what each submission enters, and the competition seed.
//!
//! Loading never stops at the first problem: every file yields all of its
//! problems (file, JSON path, reason), and a file that is structurally sound
//! yields its [`Submission`] even when it breaks a rule, so that organizers can
//! decide what to do with it.

mod command;
mod entries;
mod hint;
mod parse;
mod seed;
mod types;
mod url;

pub use crate::diag::{Problem, Problems, Severity};
pub use command::{SolverLocation, archive_dir, command_for, participation_entries};
pub use entries::{Entries, FINAL_ARCHIVE_HOST, check_rules, entries, is_derived_name};
pub use parse::parse_submission;
pub use seed::{SEED_MODULUS, SeedContribution, SeedError, SeedReport, competition_seed};
pub use types::{
    Archive, ArchiveHash, Command, Contact, Contributor, LogicSelector, Participation, SolverType,
    Submission,
};
pub use url::{HttpUrl, UrlError, parse_http_url};

use crate::model::Competition;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One submission file after loading.
#[derive(Debug, Clone)]
pub struct LoadedSubmission {
    /// The file as given.
    pub file: PathBuf,
    /// The submission, when the file is structurally valid.
    pub submission: Option<Submission>,
    /// What it enters in the competition (empty when `submission` is `None`).
    pub entries: Entries,
    /// Every problem found, errors first in file order.
    pub problems: Vec<Problem>,
}

impl LoadedSubmission {
    /// Whether any error (not warning) was found.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

/// Why a set of submissions cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum UnusableSubmissions {
    /// A file has errors: every problem of it, one per line, each naming the file.
    #[error("{}", problems.join("\n"))]
    Problems {
        /// The file.
        file: std::path::PathBuf,
        /// Its problems, as shown.
        problems: Vec<String>,
    },
    /// No submission at all.
    #[error("no submissions found")]
    None,
}

/// The submissions a competition can run, as `(file, submission)`: an error
/// listing every problem (one per line, each naming its file) if any file has
/// an error, or if there is no submission at all.
pub fn usable(
    loaded: &[LoadedSubmission],
) -> Result<Vec<(String, Submission)>, UnusableSubmissions> {
    let mut v = Vec::new();
    for l in loaded {
        match &l.submission {
            Some(s) if !l.has_errors() => v.push((l.file.display().to_string(), s.clone())),
            _ => {
                return Err(UnusableSubmissions::Problems {
                    file: l.file.clone(),
                    problems: l.problems.iter().map(|p| p.to_string()).collect(),
                });
            }
        }
    }
    if v.is_empty() {
        return Err(UnusableSubmissions::None);
    }
    Ok(v)
}

/// The largest submission file read (the official ones are a few kilobytes).
pub const MAX_SUBMISSION_BYTES: u64 = 4 << 20;

/// Loads and checks one submission file against `comp`.
pub fn load_file(path: &Path, comp: &Competition) -> LoadedSubmission {
    let file = path.display().to_string();
    let mut problems = Problems::new(&file);
    // Submissions are a few kilobytes: a device or a huge file is refused, not read.
    let submission = match crate::util::bounded::read_capped(path, MAX_SUBMISSION_BYTES) {
        Err(e) => {
            problems.error("$", format!("cannot read file: {e}"));
            None
        }
        Ok(bytes) => match String::from_utf8(bytes) {
            Err(e) => {
                problems.error(
                    "$",
                    format!(
                        "not UTF-8 text (invalid byte at offset {})",
                        e.utf8_error().valid_up_to()
                    ),
                );
                None
            }
            Ok(text) => parse_submission(&text, &mut problems),
        },
    };
    let entries = match &submission {
        Some(sub) => {
            check_rules(sub, &mut problems);
            entries(sub, comp, &mut problems)
        }
        None => Entries::new(),
    };
    LoadedSubmission {
        file: path.to_path_buf(),
        submission,
        entries,
        problems: problems.into_vec(),
    }
}

/// Loads several files (a directory stands for its `*.json` files, sorted) and
/// runs the checks that need the whole set: duplicate names and base solvers
/// of derived solvers.
pub fn load_set(paths: &[PathBuf], comp: &Competition) -> Vec<LoadedSubmission> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            files.extend(json_files_in(p));
        } else {
            files.push(p.clone());
        }
    }
    let mut loaded: Vec<LoadedSubmission> = files.iter().map(|f| load_file(f, comp)).collect();
    check_set(&mut loaded);
    loaded
}

/// The `*.json` files directly in `dir`, sorted by name; an unreadable directory
/// yields itself so that loading reports the error.
pub fn json_files_in(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir) {
        Ok(rd) => {
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                .collect();
            v.sort();
            v
        }
        Err(_) => vec![dir.to_path_buf()],
    }
}

fn check_set(loaded: &mut [LoadedSubmission]) {
    let mut first_file: BTreeMap<String, String> = BTreeMap::new();
    let mut first_clean: BTreeMap<String, (String, String)> = BTreeMap::new();
    let names: Vec<String> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref().map(|s| s.name.clone()))
        .collect();
    let several = loaded.len() > 1;
    for l in loaded.iter_mut() {
        let Some(sub) = &l.submission else { continue };
        let file = l.file.display().to_string();
        let mut problems = Problems::new(&file);
        match first_file.get(&sub.name) {
            Some(first) => problems.error(
                "$.name",
                format!(
                    "duplicate solver name '{}' (also in {first}); solver names must be unique",
                    sub.name
                ),
            ),
            None => {
                first_file.insert(sub.name.clone(), file.clone());
            }
        }
        // Archive directories and BenchExec file names come from the cleaned-up name.
        let clean = crate::util::escape::sanitize(&sub.name);
        match first_clean.get(&clean) {
            Some((other, first)) if *other != sub.name => problems.error(
                "$.name",
                format!(
                    "solver names '{other}' (in {first}) and '{}' give the same directory and file name '{clean}' (archives/{clean}/, the BenchExec definitions): one solver would run the other's binary; rename one",
                    sub.name
                ),
            ),
            Some(_) => {}
            None => {
                first_clean.insert(clean, (sub.name.clone(), file.clone()));
            }
        }
        if several && sub.solver_type == SolverType::Derived {
            let base = format!("{}-base", sub.name);
            let prefixes: Vec<&str> = sub
                .name
                .match_indices('-')
                .map(|(i, _)| &sub.name[..i])
                .collect();
            let has_base = names
                .iter()
                .any(|n| *n == base || (n != &sub.name && prefixes.contains(&n.as_str())));
            if !has_base {
                problems.warning(
                    "$.name",
                    format!(
                        "derived solver '{}': no base solver among these submissions (expected '{base}' or the base solver's own submission); rules section 4 asks for the base tool in the same tracks and logics",
                        sub.name
                    ),
                );
            }
        }
        l.problems.extend(problems.into_vec());
    }
}
