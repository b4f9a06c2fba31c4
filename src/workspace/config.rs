//! `smtcomp.toml`: the competition workspace's one configuration file.
//!
//! Found like Cargo finds `Cargo.toml`: in the current directory or one of its
//! parents (or the file or directory named by `SMTCOMP_WORKSPACE`). Relative
//! paths in it are relative to the file's directory. An unknown key is an
//! error naming the file, the line and the key.

use crate::model::{Competition, DEFAULT_YEAR, Track};
use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Benchmarks per logic of the organizers' test run (`select --test`'s default).
pub const TEST_PER_LOGIC: usize = 20;

/// The file name of a workspace.
pub const FILE_NAME: &str = "smtcomp.toml";

/// The environment variable naming a workspace (its `smtcomp.toml` or its
/// directory) instead of the search from the current directory; empty: none.
pub const ENV_VAR: &str = "SMTCOMP_WORKSPACE";

/// Which backend runs the BenchExec definitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// BenchExec on this machine (`run-local`).
    Local,
    /// A Slurm job array, BenchExec on the nodes (`run-slurm`).
    Slurm,
    /// The VerifierCloud through BenchExec's client: `smtcomp run` writes the
    /// scripts and stops; the organizer runs them, then `smtcomp run` again.
    Vcloud,
}

impl BackendKind {
    /// The name in `smtcomp.toml`.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Local => "local",
            BackendKind::Slurm => "slurm",
            BackendKind::Vcloud => "vcloud",
        }
    }
}

impl std::str::FromStr for BackendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BackendKind, String> {
        match s {
            "local" => Ok(BackendKind::Local),
            "slurm" => Ok(BackendKind::Slurm),
            "vcloud" => Ok(BackendKind::Vcloud),
            _ => Err(format!(
                "unknown backend `{s}` (expected local, slurm or vcloud)"
            )),
        }
    }
}

/// The file as written (paths unresolved).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkspaceFile {
    competition: Option<PathBuf>,
    year: Option<u16>,
    submissions: PathBuf,
    library: PathBuf,
    #[serde(default = "default_execdir")]
    execdir: PathBuf,
    archives: Option<PathBuf>,
    solvers_on_path: Option<bool>,
    inventory: Option<PathBuf>,
    #[serde(default)]
    tracks: Vec<String>,
    #[serde(default)]
    include_non_competitive: bool,
    #[serde(default)]
    seed: SeedInputs,
    #[serde(default)]
    selection: SelectionFile,
    #[serde(default)]
    backend: BackendFile,
}

/// `[selection]` as written: the rules' selection evidence (paths unresolved).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SelectionFile {
    #[serde(default)]
    previous_results: Vec<PathBuf>,
    #[serde(default)]
    current_results: Vec<PathBuf>,
    previous_inventory: Option<PathBuf>,
    #[serde(default)]
    heats: u32,
}

/// `[selection]`: the evidence of the rules' selection (2025 section 6)
/// besides the submissions (`smtcomp select`'s flags of the same names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionSettings {
    /// Previous years' Single Query results (triviality; Parallel/Cloud hardness).
    pub previous_results: Vec<PathBuf>,
    /// This year's Single Query results (Unsat Core and Model Validation status filters).
    pub current_results: Vec<PathBuf>,
    /// The previous release's inventory (new families).
    pub previous_inventory: Option<PathBuf>,
    /// Heats per division (0: none).
    pub heats: u32,
}

fn default_execdir() -> PathBuf {
    PathBuf::from("exec")
}

/// The inputs of the competition seed (rules section 6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedInputs {
    /// The NYSE value (100 x the opening value) instead of the definition's.
    pub nyse_value: Option<u64>,
    /// A fixed seed instead of the computed one (a test run).
    pub value: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BackendFile {
    #[serde(default = "default_kind")]
    kind: BackendKind,
    jobs: Option<u32>,
    #[serde(default = "default_benchexec")]
    benchexec: PathBuf,
    #[serde(default = "yes")]
    container: bool,
    start_time: Option<String>,
    vcloud_benchmark: Option<PathBuf>,
    #[serde(default)]
    slurm: SlurmSettings,
}

impl Default for BackendFile {
    fn default() -> BackendFile {
        BackendFile {
            kind: default_kind(),
            jobs: None,
            benchexec: default_benchexec(),
            container: true,
            start_time: None,
            vcloud_benchmark: None,
            slurm: SlurmSettings::default(),
        }
    }
}

fn default_kind() -> BackendKind {
    BackendKind::Local
}
fn default_benchexec() -> PathBuf {
    PathBuf::from("benchexec")
}
fn yes() -> bool {
    true
}

/// `[backend.slurm]`: the options of `smtcomp run-slurm`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlurmSettings {
    /// Definitions per array task (default 1).
    pub definitions_per_job: Option<usize>,
    /// At most this many array tasks at once.
    pub max_parallel_jobs: Option<usize>,
    /// `--partition`.
    pub partition: Option<String>,
    /// `--cpus-per-task`.
    pub cpus_per_job: Option<u32>,
    /// `--mem` in MB.
    pub mem_per_job_mb: Option<u64>,
    /// Further `sbatch` arguments.
    #[serde(default)]
    pub sbatch_args: Vec<String>,
    /// How long to wait for the array (seconds).
    pub timeout_s: Option<u64>,
}

/// How the runs are executed (`[backend]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backend {
    /// local, slurm or vcloud.
    pub kind: BackendKind,
    /// Parallel runs per BenchExec call (`-N`; default: 1).
    pub jobs: Option<u32>,
    /// The `benchexec` executable (bare name: on PATH).
    pub benchexec: PathBuf,
    /// BenchExec's container mode.
    pub container: bool,
    /// A fixed BenchExec start time (reproducible result file names).
    pub start_time: Option<String>,
    /// BenchExec's VerifierCloud client (`contrib/vcloud-benchmark.py` of its
    /// source distribution); default: `VCLOUD_BENCHMARK`, else the copy
    /// `scripts/install-deps` fetches into `$SMTCOMP_TOOLS`.
    pub vcloud_benchmark: Option<PathBuf>,
    /// Slurm's options.
    pub slurm: SlurmSettings,
}

/// Where the competition definition comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefinitionSource {
    /// A definition file (TOML or JSON).
    File(PathBuf),
    /// A built-in edition.
    Year(u16),
}

/// A loaded workspace: every path absolute (resolved against the file's directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The `smtcomp.toml`.
    pub file: PathBuf,
    /// Its directory: everything `smtcomp run` writes besides the execution directory.
    pub dir: PathBuf,
    /// The competition definition.
    pub definition: DefinitionSource,
    /// The submissions directory.
    pub submissions: PathBuf,
    /// The benchmark library (SMT-LIB layout `non-incremental/`, `incremental/`,
    /// or the repository's corpus layout).
    pub library: PathBuf,
    /// The BenchExec execution directory.
    pub execdir: PathBuf,
    /// Unpacked solver archives, one directory per solver (copied to
    /// `EXECDIR/archives/`); without it, bare binaries are found on PATH.
    pub archives: Option<PathBuf>,
    /// Whether a command's bare binary name (`z3`, no `/`) is looked up on
    /// PATH (`solvers_on_path`; default: when there is no `archives` key);
    /// else it is a file in the solver's unpacked archive.
    pub solvers_on_path: bool,
    /// A given benchmark inventory (e.g. the release's `benchmarks-YYYY.json.gz`)
    /// instead of the one `smtcomp run` scans from the library.
    pub given_inventory: Option<PathBuf>,
    /// The tracks to run (empty: every track of the definition the submissions enter).
    pub tracks: Vec<Track>,
    /// Run non-competitive divisions too.
    pub include_non_competitive: bool,
    /// The seed inputs.
    pub seed: SeedInputs,
    /// The selection's evidence.
    pub selection: SelectionSettings,
    /// The backend.
    pub backend: Backend,
    /// The organizers' test run ([`Workspace::test_run`]): `select --test`'s
    /// selection and seed, the test limits, its own directories.
    pub test: bool,
}

/// Why a workspace file cannot be used: one line, `FILE: line N: error: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {place}: error: {message}")]
pub struct WorkspaceError {
    /// The file.
    pub file: String,
    /// `line N` or `$`.
    pub place: String,
    /// What is wrong.
    pub message: String,
}

impl Workspace {
    /// Reads and resolves `file`.
    pub fn load(file: &Path) -> Result<Workspace, WorkspaceError> {
        let shown = file.display().to_string();
        let text =
            crate::util::bounded::read_text_capped(file, 1 << 20).map_err(|e| WorkspaceError {
                file: shown.clone(),
                place: "$".into(),
                message: format!("cannot read: {e}"),
            })?;
        Workspace::parse(&text, file)
    }

    /// Parses the text of `file` (paths relative to its directory).
    pub fn parse(text: &str, file: &Path) -> Result<Workspace, WorkspaceError> {
        let shown = file.display().to_string();
        let err = |place: String, message: String| WorkspaceError {
            file: shown.clone(),
            place,
            message,
        };
        let raw: WorkspaceFile = toml::from_str(text).map_err(|e| {
            let place = e
                .span()
                .map(|s| format!("line {}", line_of(text, s.start)))
                .unwrap_or_else(|| "$".into());
            err(place, e.message().trim_end().to_string())
        })?;
        let dir = std::path::absolute(file)
            .ok()
            .and_then(|f| f.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| PathBuf::from("."));
        let at = |p: &Path| normalize(&dir.join(p));
        let line_of_key = |key: &str| {
            text.lines()
                .position(|l| l.trim_start().starts_with(key))
                .map_or("$".to_string(), |i| format!("line {}", i + 1))
        };
        let definition = match (raw.competition, raw.year) {
            (Some(_), Some(_)) => {
                return Err(err(
                    line_of_key("year"),
                    "give `competition` (a definition file) or `year` (a built-in edition), not both"
                        .into(),
                ));
            }
            (Some(p), None) => DefinitionSource::File(at(&p)),
            (None, Some(y)) => DefinitionSource::Year(y),
            (None, None) => DefinitionSource::Year(DEFAULT_YEAR),
        };
        let mut tracks = Vec::new();
        for t in &raw.tracks {
            match t.parse::<Track>() {
                Ok(track) => tracks.push(track),
                Err(e) => return Err(err(line_of_key("tracks"), format!("tracks: {e}"))),
            }
        }
        Ok(Workspace {
            file: dir.join(file.file_name().unwrap_or(FILE_NAME.as_ref())),
            definition,
            submissions: at(&raw.submissions),
            library: at(&raw.library),
            execdir: at(&raw.execdir),
            archives: raw.archives.as_deref().map(at),
            solvers_on_path: raw.solvers_on_path.unwrap_or(raw.archives.is_none()),
            given_inventory: raw.inventory.as_deref().map(at),
            tracks,
            include_non_competitive: raw.include_non_competitive,
            seed: raw.seed,
            selection: SelectionSettings {
                previous_results: raw
                    .selection
                    .previous_results
                    .iter()
                    .map(|p| at(p))
                    .collect(),
                current_results: raw
                    .selection
                    .current_results
                    .iter()
                    .map(|p| at(p))
                    .collect(),
                previous_inventory: raw.selection.previous_inventory.as_deref().map(at),
                heats: raw.selection.heats,
            },
            backend: Backend {
                kind: raw.backend.kind,
                jobs: raw.backend.jobs,
                benchexec: if raw.backend.benchexec.components().count() > 1 {
                    at(&raw.backend.benchexec)
                } else {
                    raw.backend.benchexec
                },
                container: raw.backend.container,
                start_time: raw.backend.start_time,
                vcloud_benchmark: raw.backend.vcloud_benchmark.as_deref().map(at),
                slurm: raw.backend.slurm,
            },
            test: false,
            dir,
        })
    }

    /// The workspace the current directory is in: `SMTCOMP_WORKSPACE` if set
    /// (a file or a directory; empty: no workspace), else the first
    /// `smtcomp.toml` in the current directory or its parents. `Ok(None)`
    /// when there is none; an error when one is found but cannot be used.
    pub fn discover() -> Result<Option<Workspace>, WorkspaceError> {
        if let Some(named) = std::env::var_os(ENV_VAR) {
            if named.is_empty() {
                return Ok(None);
            }
            let p = PathBuf::from(named);
            let file = if p.is_dir() { p.join(FILE_NAME) } else { p };
            return Workspace::load(&file).map(Some);
        }
        let Ok(cwd) = std::env::current_dir() else {
            return Ok(None);
        };
        match find(&cwd) {
            Some(file) => Workspace::load(&file).map(Some),
            None => Ok(None),
        }
    }

    /// The competition definition.
    pub fn competition(&self) -> anyhow::Result<Competition> {
        let mut comp = match &self.definition {
            DefinitionSource::File(p) => Competition::from_path(p)?,
            DefinitionSource::Year(y) => Competition::builtin(*y)?,
        };
        if let Some(v) = self.seed.nyse_value {
            comp.seed.nyse_value = Some(v);
        }
        Ok(comp)
    }

    /// The benchmark inventory: the given one, else the one `smtcomp run` writes.
    pub fn inventory(&self) -> PathBuf {
        self.given_inventory
            .clone()
            .unwrap_or_else(|| self.dir.join("inventory.json"))
    }

    /// The organizers' test run of this workspace: the same inputs, written
    /// below `DIR/test-run/` (selections, prepared files, run tables, scores,
    /// site, stage cache) and `EXECDIR/test-run/`; the selection of `select
    /// --test` (at most [`TEST_PER_LOGIC`] easy benchmarks per logic, seed 1
    /// unless `[seed] value`), the test limits. Parallel and Cloud have no
    /// test run. The workspace's inventory is reused when it exists.
    pub fn test_run(&self) -> Workspace {
        let mut t = self.clone();
        t.test = true;
        if t.given_inventory.is_none() && self.inventory().is_file() {
            t.given_inventory = Some(self.inventory());
        }
        t.dir = self.dir.join("test-run");
        t.execdir = self.execdir.join("test-run");
        t
    }

    /// The evidence of the rules' selection: `[selection]`, the submissions
    /// (entered logics; competitive divisions unless `include_non_competitive`).
    pub fn evidence(&self) -> crate::pipeline::selection::Evidence {
        crate::pipeline::selection::Evidence {
            previous_results: self.selection.previous_results.clone(),
            current_results: self.selection.current_results.clone(),
            previous_inventory: self.selection.previous_inventory.clone(),
            submissions: vec![self.submissions.clone()],
            include_non_competitive: self.include_non_competitive,
            heats: self.selection.heats,
            test_per_logic: self.test.then_some(TEST_PER_LOGIC),
        }
    }

    /// The files the selection reads besides the inventory and the
    /// submissions (its cache inputs).
    pub fn evidence_files(&self) -> Vec<PathBuf> {
        let s = &self.selection;
        s.previous_results
            .iter()
            .chain(&s.current_results)
            .chain(&s.previous_inventory)
            .cloned()
            .collect()
    }
    /// The selection of `track`.
    pub fn selection(&self, track: Track) -> PathBuf {
        self.dir
            .join(format!("selection-{}.json", track.short_name()))
    }
    /// The prepared benchmarks.
    pub fn prepared(&self) -> PathBuf {
        self.dir.join("prepared")
    }
    /// The run table as ingested (no verdicts yet).
    pub fn ingested_runs(&self) -> PathBuf {
        self.dir.join("runs-ingested.jsonl.gz")
    }
    /// The run table with the validation verdicts: what scoring reads.
    pub fn runs(&self) -> PathBuf {
        self.dir.join("runs.jsonl.gz")
    }
    /// The unsat-core validation tasks (a prepared root, `validate-cores generate --out`).
    pub fn core_tasks(&self) -> PathBuf {
        self.execdir.join("core-validation")
    }
    /// The execution directory of the core-validation round.
    pub fn core_execdir(&self) -> PathBuf {
        self.core_tasks().join("exec")
    }
    /// The score tables.
    pub fn scores(&self) -> PathBuf {
        self.dir.join("scores")
    }
    /// The static results site.
    pub fn site(&self) -> PathBuf {
        self.dir.join("site")
    }
}

/// `path` without `.` components and with each `..` applied to the component
/// before it (lexically: the workspace's paths are shown in messages).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The first `smtcomp.toml` in `start` or its parents.
pub fn find(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|f| f.is_file())
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// What `smtcomp init` writes.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// The definition.
    pub definition: DefinitionSource,
    /// Submissions directory.
    pub submissions: PathBuf,
    /// Benchmark library.
    pub library: PathBuf,
    /// Execution directory (default `exec`).
    pub execdir: Option<PathBuf>,
    /// Unpacked solver archives.
    pub archives: Option<PathBuf>,
    /// A given inventory instead of scanning the library.
    pub inventory: Option<PathBuf>,
    /// The selection's evidence.
    pub selection: SelectionSettings,
    /// Tracks (empty: all).
    pub tracks: Vec<Track>,
    /// Backend kind.
    pub backend: BackendKind,
    /// BenchExec's `-N`.
    pub jobs: Option<u32>,
}

/// `path` as written into the workspace in `dir`: relative to `dir` when it
/// is inside it, else absolute.
fn written(path: &Path, dir: &Path) -> anyhow::Result<String> {
    let abs = std::path::absolute(path)?;
    let shown = match abs.strip_prefix(dir) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
        Ok(_) => PathBuf::from("."),
        Err(_) => abs,
    };
    let s = shown
        .to_str()
        .with_context(|| format!("{}: not UTF-8", shown.display()))?;
    Ok(toml_string(s))
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The text of a new `smtcomp.toml` in `dir` (absolute).
pub fn render(dir: &Path, o: &InitOptions) -> anyhow::Result<String> {
    let mut t = String::new();
    t.push_str("# smtcomp workspace, written by `smtcomp init`. Commands run in this directory (or below)\n");
    t.push_str(
        "# take their inputs from here; command-line flags override. Relative paths are relative\n",
    );
    t.push_str("# to this file. `smtcomp run` runs the competition, `smtcomp status` shows its progress.\n\n");
    match &o.definition {
        DefinitionSource::File(p) => {
            t.push_str(&format!("competition = {}\n", written(p, dir)?));
        }
        DefinitionSource::Year(y) => t.push_str(&format!("year = {y}\n")),
    }
    t.push_str(&format!(
        "submissions = {}\n",
        written(&o.submissions, dir)?
    ));
    t.push_str(&format!("library = {}\n", written(&o.library, dir)?));
    t.push_str("# The BenchExec execution directory (on a shared file system for Slurm).\n");
    t.push_str(&format!(
        "execdir = {}\n",
        written(&o.execdir.clone().unwrap_or_else(|| dir.join("exec")), dir)?
    ));
    match &o.archives {
        Some(a) => t.push_str(&format!("archives = {}\n", written(a, dir)?)),
        None => t.push_str(
            "# Unpacked solver archives, one directory per solver (else binaries on PATH):\n# archives = \"archives\"\n",
        ),
    }
    t.push_str(
        "# A bare binary name in a command (`z3`) is looked up on PATH without archives, else in the\n# solver's archive; true: on PATH even with archives.\n# solvers_on_path = false\n",
    );
    match &o.inventory {
        Some(i) => t.push_str(&format!(
            "# The benchmark inventory (instead of scanning the library):\ninventory = {}\n",
            written(i, dir)?
        )),
        None => t.push_str(
            "# A given benchmark inventory instead of scanning the library (e.g. the release's):\n# inventory = \"benchmarks-2025.json.gz\"\n",
        ),
    }
    if o.tracks.is_empty() {
        t.push_str("# Tracks to run (default: every track of the definition the submissions enter):\n# tracks = [\"SingleQuery\", \"UnsatCore\"]\n");
    } else {
        let names: Vec<String> = o.tracks.iter().map(|t| toml_string(t.name())).collect();
        t.push_str(&format!("tracks = [{}]\n", names.join(", ")));
    }
    t.push_str(
        "# Rules 6: non-competitive divisions are not run.\ninclude_non_competitive = false\n",
    );
    t.push_str("\n[seed]\n# Rules 6: the seed is the entrants' seeds plus the NYSE value of the definition;\n");
    t.push_str("# nyse_value = 2033841   # replaces the definition's\n# value = 1234           # a fixed seed (test runs)\n");
    t.push_str("\n[selection]\n# The rules' selection evidence (section 6), as `smtcomp select` takes it:\n");
    t.push_str("# previous years' Single Query results (trivial benchmarks are left out; Parallel/Cloud hardness),\n");
    t.push_str(
        "# this year's (Unsat Core and Model Validation status filters), the previous release's\n",
    );
    t.push_str("# inventory (new families), heats per division.\n");
    let list = |files: &[PathBuf]| -> anyhow::Result<String> {
        let v: anyhow::Result<Vec<String>> = files.iter().map(|f| written(f, dir)).collect();
        Ok(format!("[{}]", v?.join(", ")))
    };
    t.push_str(&format!(
        "previous_results = {}\n",
        list(&o.selection.previous_results)?
    ));
    t.push_str(&format!(
        "current_results = {}\n",
        list(&o.selection.current_results)?
    ));
    match &o.selection.previous_inventory {
        Some(p) => t.push_str(&format!("previous_inventory = {}\n", written(p, dir)?)),
        None => t.push_str("# previous_inventory = \"benchmarks-2024.json.gz\"\n"),
    }
    t.push_str(&format!("heats = {}\n", o.selection.heats));
    t.push_str("\n[backend]\n# local: BenchExec here; slurm: a job array; vcloud: scripts for the VerifierCloud client.\n");
    t.push_str(&format!("kind = \"{}\"\n", o.backend.name()));
    match o.jobs {
        Some(j) => t.push_str(&format!("jobs = {j}\n")),
        None => t.push_str("# jobs = 2                # parallel runs per BenchExec call\n"),
    }
    t.push_str("benchexec = \"benchexec\"\ncontainer = true\n");
    t.push_str("# start_time = \"2025-07-01 12:00:00\"   # fixed BenchExec start time\n");
    t.push_str("# vcloud_benchmark = \"/opt/benchexec/contrib/vcloud-benchmark.py\"   # the VerifierCloud client\n");
    t.push_str("\n[backend.slurm]\n# definitions_per_job = 8\n# partition = \"main\"\n# cpus_per_job = 2\n# mem_per_job_mb = 16000\n# max_parallel_jobs = 100\n# sbatch_args = []\n# timeout_s = 86400\n");
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_counts_newlines_before_the_offset() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 4), 3);
        assert_eq!(line_of("a", 99), 1);
    }

    #[test]
    fn an_unknown_key_names_line_and_key() {
        let text = "submissions = \"s\"\nlibrary = \"l\"\n\n[backend]\nkind = \"local\"\njob = 2\n";
        let e = Workspace::parse(text, Path::new("/w/smtcomp.toml")).unwrap_err();
        assert_eq!(e.place, "line 6");
        assert!(e.message.contains("unknown field `job`"), "{e}");
        assert!(
            e.to_string()
                .starts_with("/w/smtcomp.toml: line 6: error: ")
        );
    }

    #[test]
    fn the_vcloud_client_comes_from_the_workspace() {
        let text = "submissions = \"s\"\nlibrary = \"l\"\n[backend]\nkind = \"vcloud\"\nvcloud_benchmark = \"bx/contrib/vcloud-benchmark.py\"\n";
        let w = Workspace::parse(text, Path::new("/w/smtcomp.toml")).unwrap();
        assert_eq!(
            crate::workspace::vcloud_command(Path::new("/w/exec"), &w.backend),
            "VCLOUD_BENCHMARK=/w/bx/contrib/vcloud-benchmark.py /w/exec/run-vcloud.sh"
        );
    }

    #[test]
    fn paths_resolve_against_the_files_directory() {
        let text = "competition = \"c.toml\"\nsubmissions = \"s\"\nlibrary = \"/abs/lib\"\n";
        let w = Workspace::parse(text, Path::new("/w/x/smtcomp.toml")).unwrap();
        assert_eq!(w.definition, DefinitionSource::File("/w/x/c.toml".into()));
        assert_eq!(w.submissions, Path::new("/w/x/s"));
        assert_eq!(w.library, Path::new("/abs/lib"));
        assert_eq!(w.execdir, Path::new("/w/x/exec"));
        assert_eq!(w.backend.kind, BackendKind::Local);
        assert_eq!(w.backend.benchexec, Path::new("benchexec"));
        assert!(w.backend.container);
    }
}
