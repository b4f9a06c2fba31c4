//! Defaults from the competition workspace (`smtcomp.toml`, see
//! [`crate::workspace`]) for the commands that take a competition,
//! submissions, a library, an execution directory or the workspace's
//! outputs: a flag given on the command line wins, else the workspace's value.

use super::Failure;
use crate::model::{Competition, Track};
use crate::workspace::Workspace;
use std::path::PathBuf;

/// The workspace of the current directory, if any; an unusable `smtcomp.toml`
/// is an error (naming its file and line).
pub(crate) fn current() -> Result<Option<Workspace>, Failure> {
    Workspace::discover().map_err(|e| Failure::Error(e.into()))
}

/// The workspace, or a usage error saying how to make one (`command` needs it).
pub(crate) fn required(command: &str) -> Result<Workspace, Failure> {
    match current()? {
        Some(ws) => Ok(ws),
        None => Err(Failure::usage(format!(
            "`smtcomp {command}` needs a workspace: no {} in the current directory or its parents \
             (`smtcomp init DIR --competition FILE --submissions DIR --library DIR` writes one)",
            crate::workspace::FILE_NAME
        ))),
    }
}

/// `flag` if given, else the workspace's value (`of`), else `None`.
pub(crate) fn path_or(
    flag: Option<PathBuf>,
    of: impl FnOnce(&Workspace) -> PathBuf,
) -> Result<Option<PathBuf>, Failure> {
    if flag.is_some() {
        return Ok(flag);
    }
    Ok(current()?.map(|ws| of(&ws)))
}

/// `flags` if any, else the workspace's value (`of`) as the one entry; an
/// error naming `flag` when neither is there.
pub(crate) fn paths_or(
    flags: Vec<PathBuf>,
    flag: &str,
    of: impl FnOnce(&Workspace) -> PathBuf,
) -> Result<Vec<PathBuf>, Failure> {
    if !flags.is_empty() {
        return Ok(flags);
    }
    match current()? {
        Some(ws) => Ok(vec![of(&ws)]),
        None => Err(missing(flag)),
    }
}

/// The usage error for a required input absent outside a workspace: `usage`
/// is the flag with its value (`--exec <EXECDIR>`), as clap's usage shows it.
fn missing(usage: &str) -> Failure {
    let hint = "run in a workspace: `smtcomp init`";
    match usage.split_once(' ') {
        Some((flag, _)) => Failure::usage(format!("{flag} is required ({usage}, or {hint})")),
        None => Failure::usage(format!("{usage} is required (or {hint})")),
    }
}

/// A path input every command needs: `flag` if given, else the workspace's
/// value (`of`), else the usage error `NAME is required` (exit 2).
fn one(
    flag: Option<PathBuf>,
    name: &str,
    of: impl FnOnce(&Workspace) -> PathBuf,
) -> Result<PathBuf, Failure> {
    match path_or(flag, of)? {
        Some(p) => Ok(p),
        None => Err(missing(name)),
    }
}

/// Submission files or directories (`--submissions`): the flags, else the
/// workspace's `submissions`.
pub(crate) fn submissions(flags: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
    paths_or(flags, "--submissions <DIR>...", |w| w.submissions.clone())
}

/// One submission file or directory (flag `name`): the flag, else the
/// workspace's `submissions`.
pub(crate) fn submission_dir(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, |w| w.submissions.clone())
}

/// The benchmark library (flag `name`): the flag, else the workspace's `library`.
pub(crate) fn library(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, |w| w.library.clone())
}

/// The benchmark inventory (flag `name`): the flag, else the workspace's
/// `benchmarks.json.gz`.
pub(crate) fn inventory(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, Workspace::inventory)
}

/// The prepared benchmarks (flag `name`): the flag, else the workspace's `prepared/`.
pub(crate) fn prepared(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, Workspace::prepared)
}

/// The execution directory (flag `name`): the flag, else the workspace's `execdir`.
pub(crate) fn execdir(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, |w| w.execdir.clone())
}

/// The validated run table (`--runs`): the flags, else the workspace's
/// `runs.jsonl.gz` (written by the validation stage of `smtcomp run`).
pub(crate) fn runs(flags: Vec<PathBuf>) -> Result<Vec<PathBuf>, Failure> {
    paths_or(flags, "--runs <FILE>...", Workspace::runs)
}

/// The inputs of `ingest`: result paths (`RESULTS`), else the workspace's
/// `EXECDIR/results` with its runs manifest (unless `--manifest` is given);
/// the output (`-o`), else the workspace's ingested run table. Returns the output.
pub(crate) fn fill_ingest(
    inputs: &mut Vec<PathBuf>,
    manifest: &mut Option<PathBuf>,
    output: Option<PathBuf>,
) -> Result<PathBuf, Failure> {
    if inputs.is_empty() {
        let Some(ws) = current()? else {
            return Err(missing("<RESULTS>..."));
        };
        inputs.push(crate::pipeline::results_dir(&ws.execdir));
        if manifest.is_none() {
            *manifest = Some(ws.execdir.join(crate::formats::generation::RUNS_FILE));
        }
    }
    one(output, "--output <FILE>", Workspace::ingested_runs)
}

/// The scoring inputs `--runs`, `--inventory`, `--submissions` (of `score`,
/// `report`, `export website`): each flag given wins, else the workspace's
/// validated run table, inventory and submissions. Returns the inventory.
/// Without `need_submissions` (`score --track ProofExhibition`) missing
/// submissions outside a workspace stay empty.
pub(crate) fn fill_scoring(
    runs: &mut Vec<PathBuf>,
    inventory: Option<PathBuf>,
    submissions: &mut Vec<PathBuf>,
    need_submissions: bool,
) -> Result<PathBuf, Failure> {
    *runs = self::runs(std::mem::take(runs))?;
    if need_submissions || !submissions.is_empty() {
        *submissions = self::submissions(std::mem::take(submissions))?;
    } else if let Some(ws) = current()? {
        *submissions = vec![ws.submissions];
    }
    self::inventory(inventory, "--inventory <FILE>")
}

/// The report site directory (`-o`): the flag, else the workspace's `site/`.
pub(crate) fn site(flag: Option<PathBuf>) -> Result<PathBuf, Failure> {
    one(flag, "--output <SITE>", Workspace::site)
}

/// The tracks to report (`--track`): the flags, else the tracks the workspace
/// runs (its `tracks`, or every track its `submissions` enter).
pub(crate) fn tracks(
    flags: Vec<Track>,
    comp: &Competition,
    submissions: &[PathBuf],
) -> Result<Vec<Track>, Failure> {
    if !flags.is_empty() {
        return Ok(flags);
    }
    match current()? {
        Some(ws) => Ok(crate::workspace::tracks(
            &ws,
            comp,
            &crate::submission::load_set(submissions, comp),
        )),
        None => Err(missing("--track <TRACK>...")),
    }
}

/// The NYSE value of the seed (`--nyse`): the flag, else the workspace's
/// `[seed] nyse_value`, else `None` (the competition definition's).
pub(crate) fn nyse(flag: Option<u64>) -> Result<Option<u64>, Failure> {
    if flag.is_some() {
        return Ok(flag);
    }
    Ok(current()?.and_then(|ws| ws.seed.nyse_value))
}

/// The unsat-core validation directory of `validate-cores` (flag `name`,
/// `--exec`): the flag, else the workspace's `EXECDIR/core-validation` (where
/// `smtcomp run` writes its tasks).
pub(crate) fn core_validation(flag: Option<PathBuf>, name: &str) -> Result<PathBuf, Failure> {
    one(flag, name, Workspace::core_tasks)
}

/// The run table `validate-cores generate` reads (`--runs`): the flag, else
/// the workspace's ingested `runs-ingested.jsonl.gz`.
pub(crate) fn ingested_runs(flag: Option<PathBuf>) -> Result<PathBuf, Failure> {
    one(flag, "--runs <FILE>", Workspace::ingested_runs)
}

/// The run table a validation step (`validate-cores join`, `validate-models`)
/// reads and the one it writes: `--runs` (written in place unless `-o`);
/// else, in a workspace, the validated `runs.jsonl.gz` if it is there and not
/// older than the ingested `runs-ingested.jsonl.gz` (the step continues from
/// the previous one), otherwise the ingested table (the first step after
/// `ingest`), written to `runs.jsonl.gz` unless `-o`. Returns (input, output).
pub(crate) fn validation_tables(
    runs: Option<PathBuf>,
    output: Option<PathBuf>,
) -> Result<(PathBuf, PathBuf), Failure> {
    if let Some(runs) = runs {
        let output = output.unwrap_or_else(|| runs.clone());
        return Ok((runs, output));
    }
    let Some(ws) = current()? else {
        return Err(missing("--runs <FILE>"));
    };
    let (validated, ingested) = (ws.runs(), ws.ingested_runs());
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let input = match (modified(&validated), modified(&ingested)) {
        (Some(v), Some(i)) if v >= i => validated.clone(),
        (Some(_), None) => validated.clone(),
        _ => ingested,
    };
    Ok((input, output.unwrap_or(validated)))
}

/// The options of `validate-models` a workspace supplies: the directory the
/// log paths are relative to (`--logs`: the flag, else `EXECDIR/results`,
/// what the workspace's `ingest` reads) and the verdict cache (`--cache`: the
/// flag, else the workspace's `model-cache/`, shared with `smtcomp run`; the
/// cache keys name the validator). `None`: the command's own default.
pub(crate) fn model_inputs(
    logs: Option<PathBuf>,
    cache: Option<PathBuf>,
) -> Result<(Option<PathBuf>, Option<PathBuf>), Failure> {
    let logs = path_or(logs, |w| crate::pipeline::results_dir(&w.execdir))?;
    let cache = path_or(cache, |w| w.dir.join("model-cache"))?;
    Ok((logs, cache))
}
