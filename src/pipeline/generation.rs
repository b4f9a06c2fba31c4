//! Step 4, generation: the execution directory (BenchExec definitions, task
//! files, tool-info modules), with the solver archives installed.

use super::step::{StageResult, Step};
use crate::benchexec::{GenerateOptions, Generated, Manifest, SolverLocation, generate as plan};
use crate::model::Competition;
use crate::submission::Submission;
use anyhow::{Context, bail};
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Generation<'a> {
    /// The competition definition.
    pub competition: &'a Competition,
    /// The submissions that run.
    pub submissions: &'a [&'a Submission],
    /// The prepared root.
    pub prepared: &'a Path,
    /// The execution directory (`EXECDIR`).
    pub exec: &'a Path,
    /// Test-mode limits.
    pub test: bool,
    /// Where the solvers' binaries are.
    pub location: SolverLocation,
    /// Unpacked solver archives: each subdirectory is copied to
    /// `EXECDIR/archives/`, where commands with a relative binary are looked up.
    pub archives: Option<&'a Path>,
}

/// Generates the execution directory; errors list every problem of the plan.
pub fn generate(g: &Generation<'_>) -> StageResult<Generated> {
    Step::Generation.scope(|| {
        let generated = plan(
            g.competition,
            g.submissions,
            &GenerateOptions {
                prepared: g.prepared.to_path_buf(),
                out: g.exec.to_path_buf(),
                test: g.test,
                location: g.location.clone(),
                binaries_from: None,
                max_tasks: None,
                // `install_archives` checks them once they are copied.
                check_binaries: false,
                skip_divisions: Default::default(),
            },
        )
        .map_err(|e| anyhow::anyhow!("cannot generate BenchExec definitions:\n{}", e.join("\n")))?;
        if let Some(archives) = g.archives {
            install_archives(archives, g.exec, &generated.manifest)?;
        }
        Ok(generated)
    })
}

/// Copies each directory of `archives` (unpacked solver archives) to
/// `EXECDIR/archives/`, then checks that every relative binary of `manifest`
/// exists there: a missing one is named before BenchExec runs.
pub fn install_archives(archives: &Path, exec: &Path, manifest: &Manifest) -> StageResult<()> {
    Step::Generation.scope(|| {
        if archives.is_dir() {
            for entry in walkdir::WalkDir::new(archives).sort_by_file_name() {
                let entry =
                    entry.with_context(|| format!("{}: cannot read", archives.display()))?;
                let rel = entry.path().strip_prefix(archives)?;
                let to = exec.join("archives").join(rel);
                if entry.file_type().is_dir() {
                    std::fs::create_dir_all(&to)
                        .with_context(|| format!("{}: cannot create", to.display()))?;
                } else {
                    std::fs::copy(entry.path(), &to).with_context(|| {
                        format!(
                            "{} -> {}: cannot copy",
                            entry.path().display(),
                            to.display()
                        )
                    })?;
                }
            }
        }
        for (name, def) in &manifest.definitions {
            for rd in def.rundefinitions.values() {
                if let Some(bin) = rd.command.first().filter(|b| b.starts_with("archives/"))
                    && !exec.join(bin).is_file()
                {
                    bail!(
                        "{name}: solver binary {bin} not found: put the unpacked archive in {}",
                        archives.display()
                    );
                }
            }
        }
        Ok(())
    })
}
