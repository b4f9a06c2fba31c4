//! Typed solver submissions (the official JSON format, rules section 4).

use crate::model::{Division, Logic, Track};
use serde::Serialize;

/// The kind of solver, as declared (rules section 4). The JSON spelling is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SolverType {
    /// A wrapper tool calling other solvers on subproblems.
    #[serde(rename = "wrapped")]
    Wrapped,
    /// A derived tool, named `<base>-<name>`.
    #[serde(rename = "derived")]
    Derived,
    /// A solver of its own.
    Standalone,
    /// A portfolio (in general not allowed).
    Portfolio,
}

impl SolverType {
    /// The JSON spelling.
    pub fn name(self) -> &'static str {
        match self {
            SolverType::Wrapped => "wrapped",
            SolverType::Derived => "derived",
            SolverType::Standalone => "Standalone",
            SolverType::Portfolio => "Portfolio",
        }
    }

    /// Parses the JSON spelling (case-sensitive, as the schema says).
    pub fn from_json(s: &str) -> Option<SolverType> {
        match s {
            "wrapped" => Some(SolverType::Wrapped),
            "derived" => Some(SolverType::Derived),
            "Standalone" => Some(SolverType::Standalone),
            "Portfolio" => Some(SolverType::Portfolio),
            _ => None,
        }
    }
}

/// A contributor: a name and maybe a website.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contributor {
    /// Name.
    pub name: String,
    /// Website, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub website: Option<String>,
}

/// A contact: `Name <email>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contact {
    /// Display name (may be empty).
    pub name: String,
    /// E-mail address.
    pub email: String,
}

/// Hashes of an archive (at least one is present).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ArchiveHash {
    /// Hex SHA-256.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Hex SHA-512.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha512: Option<String>,
}

/// Where a solver archive is downloaded from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Archive {
    /// Download URL.
    pub url: String,
    /// Host of the URL (lower case).
    #[serde(skip)]
    pub host: String,
    /// Optional hashes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<ArchiveHash>,
}

/// How to run the solver: a binary (relative to the archive) and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    /// The executable, relative to the unpacked archive.
    pub binary: String,
    /// Its arguments (the benchmark is appended by the tool-info module).
    pub arguments: Vec<String>,
    /// StarExec compatibility mode (`compa_starexec`).
    pub compa_starexec: bool,
}

/// Which logics a participation enters: a list or a (Python) regular expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LogicSelector {
    /// An explicit list.
    List(Vec<Logic>),
    /// A pattern full-matched against every logic name.
    Pattern(String),
}

/// One participation: tracks x (divisions and logics), maybe with its own archive/command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Participation {
    /// Tracks entered.
    pub tracks: Vec<Track>,
    /// Logics entered (added to whichever division contains them in each track).
    pub logics: LogicSelector,
    /// Whole divisions entered.
    pub divisions: Vec<Division>,
    /// Archive overriding the submission's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<Archive>,
    /// Command overriding the submission's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Command>,
    /// Declared experimental.
    pub experimental: bool,
    /// Cloud/Parallel entries of the 2024 schema: the solver's repository
    /// (`aws_repository`, or `aws_dockerfile` of the 2024 template) instead of an
    /// archive and a command. Such a participation cannot be run by BenchExec.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aws_repository: Option<String>,
}

/// A solver submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Submission {
    /// Solver name (derived solvers: `<base>-<name>`).
    pub name: String,
    /// Contributors (at least one).
    pub contributors: Vec<Contributor>,
    /// Contacts (at least one).
    pub contacts: Vec<Contact>,
    /// Default archive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<Archive>,
    /// Default command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Command>,
    /// Solver website.
    pub website: String,
    /// System description URL.
    pub system_description: String,
    /// Declared solver type.
    pub solver_type: SolverType,
    /// Participations.
    pub participations: Vec<Participation>,
    /// The entrant's seed contribution, if any.
    pub seed: Option<i128>,
    /// Whether the solver competes (false: entered by the organizers for comparison).
    pub competitive: bool,
    /// Whether this is the final version (archives must be on Zenodo).
    #[serde(rename = "final")]
    pub is_final: bool,
}

impl Submission {
    /// The archive a participation runs with (its own, else the submission's).
    pub fn archive_of<'a>(&'a self, p: &'a Participation) -> Option<&'a Archive> {
        p.archive.as_ref().or(self.archive.as_ref())
    }

    /// The command a participation runs with (its own, else the submission's).
    pub fn command_of<'a>(&'a self, p: &'a Participation) -> Option<&'a Command> {
        p.command.as_ref().or(self.command.as_ref())
    }
}
