//! `smtcomp generate ...`: BenchExec definitions, task files, tool-info modules,
//! run scripts and the manifest.

use super::{CmdResult, GlobalArgs, Outcome, print};
use crate::benchexec::{GenerateOptions, SolverLocation, generate};
use crate::submission::load_set;
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `smtcomp generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Directory of submission files (or files).
    /// Default in a workspace: its submissions.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Prepared benchmarks (the output of `smtcomp prepare`). Default in a
    /// workspace: its `prepared/`.
    #[arg(long = "prepared", value_name = "DIR")]
    prepared_flag: Option<PathBuf>,
    /// The prepared benchmarks used: `--prepared` or the workspace's.
    #[arg(skip)]
    prepared: PathBuf,
    /// Execution directory to write. Default in a workspace: its `execdir`.
    #[arg(
        short = 'o',
        long = "output",
        alias = "out",
        alias = "exec",
        value_name = "EXECDIR"
    )]
    out_flag: Option<PathBuf>,
    /// The execution directory used: `-o` or the workspace's.
    #[arg(skip)]
    out: PathBuf,
    /// Use the tracks' test-mode limits.
    #[arg(long)]
    test: bool,
    /// Directory holding solver NAME's unpacked archive (repeatable); its command's
    /// binary is taken relative to DIR.
    #[arg(long, value_name = "NAME=DIR", value_parser = super::name_dir)]
    solver_dir: Vec<(String, PathBuf)>,
    /// Keep binaries without '/' as bare names, found on PATH when the runs start
    /// (local testing with installed solvers).
    #[arg(long)]
    solvers_on_path: bool,
    /// Copy the helper executables smtcomp-trace-executor and smtcomp-proof-wrapper
    /// into EXECDIR/bin/ (needed on the VerifierCloud): the static builds of
    /// `scripts/build-helpers` from target/helpers/ (i.e. ../helpers/ next to this
    /// program) if both are there, otherwise the ones next to this program.
    #[arg(long)]
    copy_binaries: bool,
    /// At most N tasks per definition: larger ones (and selections with heats) are
    /// split into `<definition>[_heatH][_partK].xml`, so that BenchExec loads each
    /// in a few seconds.
    #[arg(long, value_name = "N", default_value_t = crate::benchexec::DEFAULT_MAX_TASKS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_tasks: usize,
    /// Do not check that every run's solver binary exists and is executable in
    /// EXECDIR (or --solver-dir) before writing: for a generation whose archives
    /// are unpacked later (`smtcomp archives fetch --submissions DIR --exec EXECDIR`).
    #[arg(long)]
    no_binary_check: bool,
    /// Generate runs in non-competitive divisions too. By default they are
    /// skipped (rules 6: "We will not run non-competitive divisions";
    /// competitive = author-submitted solvers from two teams, docs/scoring.md).
    #[arg(long)]
    include_non_competitive: bool,
    /// One JSON document instead of the summary line: `{"exec", "definitions",
    /// "tasks", "runs", "warnings", "per_definition": [{"name", "path", "solver",
    /// "track", "division", "runs"}]}` (warnings are printed on stderr too).
    #[arg(long)]
    json: bool,
}

/// Where `--copy-binaries` takes the helpers from: `EXE_DIR/../helpers/` (the
/// static builds of `scripts/build-helpers`, `target/helpers/` for a program in
/// `target/{debug,release}/`) if it holds all of them, else `exe_dir`.
fn helpers_dir(exe_dir: &std::path::Path) -> PathBuf {
    let static_dir = exe_dir.join("../helpers");
    if crate::benchexec::HELPER_BINARIES
        .iter()
        .all(|b| static_dir.join(b).is_file())
    {
        static_dir
    } else {
        exe_dir.to_path_buf()
    }
}

pub(super) fn run(global: &GlobalArgs, mut args: GenerateArgs) -> CmdResult {
    use super::workspace_defaults as ws;
    args.submissions = ws::submissions(std::mem::take(&mut args.submissions))?;
    args.prepared = ws::prepared(args.prepared_flag.take(), "--prepared <DIR>")?;
    args.out = ws::execdir(args.out_flag.take(), "--output <EXECDIR>")?;
    let comp = global.competition()?;
    let mut solver_dirs = BTreeMap::new();
    for (name, dir) in &args.solver_dir {
        solver_dirs.insert(name.clone(), std::path::absolute(dir)?);
    }
    let loaded = load_set(&args.submissions, &comp);
    let mut failed = false;
    for l in &loaded {
        if l.submission.is_none() {
            for p in &l.problems {
                eprintln!("{p}");
            }
            failed = true;
        }
    }
    if failed {
        eprintln!(
            "{} some submission files cannot be read; nothing generated",
            crate::util::colour::error_prefix()
        );
        return Ok(Outcome::Problems);
    }
    if loaded.is_empty() {
        eprintln!(
            "{} no submission files found in {}; nothing generated",
            crate::util::colour::error_prefix(),
            super::score_cmd::paths_list(&args.submissions)
        );
        return Ok(Outcome::Problems);
    }
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    for name in solver_dirs.keys() {
        if !subs.iter().any(|s| &s.name == name) {
            eprintln!(
                "{} --solver-dir {name}=...: no submission named '{name}'",
                crate::util::colour::error_prefix()
            );
            return Ok(Outcome::Problems);
        }
    }
    let binaries_from = if args.copy_binaries {
        std::env::current_exe()?.parent().map(helpers_dir)
    } else {
        None
    };
    let mut skip = crate::pipeline::noncompetitive::entered(&loaded, &comp);
    skip.retain(|_, e| e.distinct_teams() < 2);
    if args.include_non_competitive {
        skip.clear();
    } else if !skip.is_empty() {
        eprintln!(
            "note: non-competitive divisions not generated (rules 6; \
             --include-non-competitive generates them): {}",
            crate::pipeline::noncompetitive::describe(&skip)
        );
    }
    let opts = GenerateOptions {
        prepared: args.prepared,
        out: args.out.clone(),
        test: args.test,
        location: SolverLocation {
            solver_dirs,
            on_path: args.solvers_on_path,
            dirs_for_paths_only: false,
        },
        binaries_from,
        max_tasks: Some(args.max_tasks),
        check_binaries: !args.no_binary_check,
        skip_divisions: skip.into_keys().collect(),
    };
    match generate(&comp, &subs, &opts) {
        Err(problems) => {
            for p in &problems {
                eprintln!("{} {p}", crate::util::colour::error_prefix());
            }
            eprintln!(
                "{} {} problem(s); nothing generated",
                crate::util::colour::error_prefix(),
                problems.len()
            );
            Ok(Outcome::Problems)
        }
        Ok(g) => {
            for w in &g.warnings {
                eprintln!("{} {w}", crate::util::colour::warning_prefix());
            }
            let runs: usize = g.manifest.run_count();
            if args.json {
                let per_definition: Vec<_> = g
                    .manifest
                    .definitions
                    .iter()
                    .map(|(name, d)| {
                        serde_json::json!({
                            "name": name,
                            "path": d.path,
                            "solver": d.solver,
                            "track": d.track.to_string(),
                            "division": d.division.to_string(),
                            "runs": d.rundefinitions.values().map(|r| r.tasks).sum::<usize>(),
                        })
                    })
                    .collect();
                print(&super::to_json(&serde_json::json!({
                    "exec": args.out.display().to_string(),
                    "definitions": g.manifest.definitions.len(),
                    "tasks": g.tasks,
                    "runs": runs,
                    "warnings": g.warnings,
                    "per_definition": per_definition,
                }))?)?;
                return Ok(Outcome::Ok);
            }
            print(&format!(
                "{}: {} definitions, {} tasks, {} runs\n",
                args.out.display(),
                g.manifest.definitions.len(),
                g.tasks,
                runs
            ))?;
            Ok(Outcome::Ok)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::helpers_dir;
    use crate::benchexec::HELPER_BINARIES;

    #[test]
    fn static_helpers_win_only_when_all_are_there() {
        let tmp = tempfile::tempdir().unwrap();
        let exe = tmp.path().join("release");
        let helpers = tmp.path().join("helpers");
        std::fs::create_dir_all(&exe).unwrap();
        std::fs::create_dir_all(&helpers).unwrap();
        assert_eq!(helpers_dir(&exe), exe, "no static builds");
        std::fs::write(helpers.join(HELPER_BINARIES[0]), "x").unwrap();
        assert_eq!(helpers_dir(&exe), exe, "one static build missing");
        for b in HELPER_BINARIES {
            std::fs::write(helpers.join(b), "x").unwrap();
        }
        assert_eq!(helpers_dir(&exe), exe.join("../helpers"));
    }
}
