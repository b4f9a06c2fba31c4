//! What BenchExec's container lets a run see, and making visible what the runs
//! need.
//!
//! Our BenchExec calls run in container mode (`--read-only-dir /
//! --hidden-dir /home --overlay-dir EXECDIR`); BenchExec itself hides `/tmp`
//! and `/run` (fresh empty directories). Since BenchExec 3.x the tool-info
//! modules run in such a container too, so a helper binary found on the host's
//! PATH under `/home/<user>/...` or `/tmp/...` is "not found" there. Before
//! each call, therefore:
//!
//! * [`stage_helpers`]: the `smtcomp-*` helpers the definition's track runs
//!   are copied into `EXECDIR/bin/` (where the tool-info modules look first),
//!   which the overlay makes visible wherever the execution directory lives;
//! * [`definition_mounts`]: the directories of solver binaries named by an
//!   absolute path or found on PATH, of their `#!` interpreters, of archives and
//!   of absolute file arguments are mounted read-only when they lie in a hidden
//!   directory (a `bin/` directory: its parent, the installation prefix with
//!   its `lib/` and `share/`);
//! * [`READ_ONLY_DIRS_ENV`]: what else the runs need (a solver's data files
//!   that no command names) the user lists in `SMTCOMP_READ_ONLY_DIRS`.
//!
//! When a call still fails, [`hidden_path_hint`] names a path of BenchExec's
//! log that exists on the host but lies in a hidden directory, and the remedy.

use crate::formats::generation::Definition;
use crate::model::Track;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Directories the container of our BenchExec calls hides: `--hidden-dir
/// /home` (ours) and BenchExec's defaults (`/tmp`, `/run`).
pub const HIDDEN_DIRS: [&str; 4] = ["/home", "/tmp", "/run", "/var/run"];

/// Environment variable: more directories (separated by `:`) to mount
/// read-only into the container of every BenchExec call.
pub const READ_ONLY_DIRS_ENV: &str = "SMTCOMP_READ_ONLY_DIRS";

/// Whether `p` lies in a directory BenchExec's container hides.
pub fn hidden(p: &Path) -> bool {
    HIDDEN_DIRS.iter().any(|h| p.starts_with(h))
}

/// The hidden directory `p` lies in (`/home`), if any.
pub fn hiding_dir(p: &Path) -> Option<&'static str> {
    HIDDEN_DIRS.iter().copied().find(|h| p.starts_with(h))
}

/// Adds `dir` (absolute) to `mounts` when it lies in a directory the
/// container hides; its canonical path too (a symbolic link into `/home`).
pub fn mount_if_hidden(dir: &Path, mounts: &mut BTreeSet<PathBuf>) {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    for d in [dir.to_path_buf(), abs] {
        if d.is_absolute() && hidden(&d) {
            mounts.insert(d);
        }
    }
}

/// The program a `#!` line starts (`/usr/bin/env X`: X), if the file has one.
pub fn interpreter(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(file).ok()?.read(&mut head).ok()?;
    let head = &head[..n];
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let first = words.next()?.to_string();
    if first.ends_with("/env") {
        return words.find(|w| !w.starts_with('-')).map(str::to_string);
    }
    Some(first)
}

/// The directory to mount for a program in `dir`: `dir`, or for a `bin/`
/// directory its parent (an installation prefix or a Python venv, whose
/// programs need their `lib/`).
fn program_dir(dir: &Path) -> &Path {
    match (dir.file_name(), dir.parent()) {
        (Some(n), Some(parent)) if n == "bin" && parent.parent().is_some() => parent,
        _ => dir,
    }
}

/// `name` looked up on `path` (a name with a `/` is taken as it is).
pub fn find_program(name: &str, path: &[PathBuf]) -> Option<PathBuf> {
    if name.contains('/') {
        return Some(PathBuf::from(name)).filter(|p| p.is_file());
    }
    path.iter().map(|d| d.join(name)).find(|f| f.is_file())
}

/// Adds to `mounts` what running the program `file` (absolute) needs when it
/// is hidden: its directory (as given and resolved), and its `#!`
/// interpreter's (looked up on `path`).
pub fn program_mounts(file: &Path, path: &[PathBuf], mounts: &mut BTreeSet<PathBuf>) {
    for f in [Some(file.to_path_buf()), std::fs::canonicalize(file).ok()]
        .into_iter()
        .flatten()
    {
        if let Some(dir) = f.parent() {
            mount_if_hidden(program_dir(dir), mounts);
        }
    }
    if let Some(interp) = interpreter(file).and_then(|i| find_program(&i, path)) {
        for f in [Some(interp.clone()), std::fs::canonicalize(&interp).ok()]
            .into_iter()
            .flatten()
        {
            if let Some(dir) = f.parent() {
                mount_if_hidden(program_dir(dir), mounts);
            }
        }
    }
}

/// The hidden directories the runs of `def` need mounted read-only: for each
/// rundefinition, the solver binary (relative to `execdir`, absolute, or a
/// bare name on `path`), its interpreter, its archive, and every absolute
/// argument naming an existing file or directory. What lies inside `execdir`
/// (overlaid, so visible) is left out, and so is a directory inside another.
pub fn definition_mounts(execdir: &Path, def: &Definition, path: &[PathBuf]) -> Vec<PathBuf> {
    let mut mounts = BTreeSet::new();
    for rd in def.rundefinitions.values() {
        let Some((binary, args)) = rd.command.split_first() else {
            continue;
        };
        let program = if binary.contains('/') {
            Some(execdir.join(binary)).filter(|p| p.is_file())
        } else {
            find_program(binary, path)
        };
        if let Some(p) = program {
            program_mounts(&p, path, &mut mounts);
        }
        if let Some(a) = &rd.archive {
            mount_if_hidden(&execdir.join(a), &mut mounts);
        }
        for a in args.iter().map(Path::new).filter(|a| a.is_absolute()) {
            if a.is_dir() {
                mount_if_hidden(a, &mut mounts);
            } else if let (true, Some(dir)) = (a.is_file(), a.parent()) {
                mount_if_hidden(dir, &mut mounts);
            }
        }
    }
    let exec_abs = std::fs::canonicalize(execdir).unwrap_or_else(|_| execdir.to_path_buf());
    mounts.retain(|m| !m.starts_with(execdir) && !m.starts_with(&exec_abs));
    outermost(mounts)
}

/// `dirs` without those inside another one of them (sorted).
pub fn outermost(dirs: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let all: BTreeSet<PathBuf> = dirs.into_iter().collect();
    all.iter()
        .filter(|m| !all.iter().any(|o| o != *m && m.starts_with(o)))
        .cloned()
        .collect()
}

/// The directories of [`READ_ONLY_DIRS_ENV`] (absolute ones only; `Err`
/// names a relative or missing entry).
pub fn env_read_only_dirs() -> Result<Vec<PathBuf>, super::BenchexecError> {
    let Some(value) = std::env::var_os(READ_ONLY_DIRS_ENV) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for d in std::env::split_paths(&value).filter(|d| !d.as_os_str().is_empty()) {
        if !d.is_absolute() || !d.exists() {
            return Err(super::BenchexecError::ReadOnlyDir {
                var: READ_ONLY_DIRS_ENV,
                why: if d.is_absolute() {
                    "missing"
                } else {
                    "relative"
                },
                dir: d,
            });
        }
        out.push(d);
    }
    Ok(out)
}

/// The helper binaries the runs of `track` execute (the tool-info module's
/// `executable()`).
pub fn helpers_of(track: Track) -> &'static [&'static str] {
    match track {
        Track::Incremental => &["smtcomp-trace-executor"],
        Track::ProofExhibition => &["smtcomp-proof-wrapper"],
        _ => &[],
    }
}

/// Makes `EXECDIR/bin/<helper>` the helper found first in `search` (the
/// directories next to the running `smtcomp`, then PATH), copying it when
/// missing or different; the copy is written under a temporary name and
/// renamed, so concurrent calls (and Slurm jobs) never see half a file. A
/// helper found nowhere is fine when `EXECDIR/bin/` already holds it
/// (`generate --copy-binaries`); otherwise the error names it and the remedy.
/// Both files are read only when either changed (size, modification time)
/// since this process last staged the helper, not at every BenchExec call.
pub fn stage_helpers(
    execdir: &Path,
    helpers: &[&str],
    search: &[PathBuf],
) -> Result<(), super::BenchexecError> {
    use super::BenchexecError;
    use std::sync::Mutex;
    /// Destination -> (source, both files' size and mtime) when last staged.
    type Staged = std::collections::BTreeMap<PathBuf, (PathBuf, [Option<Stamp>; 2])>;
    static STAGED: Mutex<Staged> = Mutex::new(Staged::new());
    let bin = execdir.join("bin");
    for name in helpers {
        let dst = bin.join(name);
        let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
        let dst_abs = std::fs::canonicalize(&dst).ok();
        let src = search
            .iter()
            .map(|d| d.join(name))
            .find(|p| p.is_file() && std::fs::canonicalize(p).ok() != dst_abs);
        let Some(src) = src else {
            if dst.is_file() {
                continue;
            }
            return Err(BenchexecError::HelperMissing {
                helper: name.to_string(),
                bin,
                searched: search.to_vec(),
            });
        };
        let stamps = [stamp(&src), stamp(&dst)];
        if staged.get(&dst) == Some(&(src.clone(), stamps)) && stamps[1].is_some() {
            continue;
        }
        if same_content(&src, &dst) {
            staged.insert(dst, (src, stamps));
            continue;
        }
        std::fs::create_dir_all(&bin).map_err(BenchexecError::io(&bin, "create"))?;
        let tmp = bin.join(format!(".{name}.{}.tmp", std::process::id()));
        std::fs::copy(&src, &tmp).map_err(|source| BenchexecError::HelperCopy {
            helper: name.to_string(),
            from: src.clone(),
            to: tmp.clone(),
            source,
        })?;
        std::fs::rename(&tmp, &dst).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            BenchexecError::io(&dst, "write")(e)
        })?;
        let stamps = [stamp(&src), stamp(&dst)];
        staged.insert(dst, (src, stamps));
    }
    Ok(())
}

/// A file's size and modification time.
type Stamp = (u64, std::time::SystemTime);

fn stamp(p: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(p).ok()?;
    Some((m.len(), m.modified().ok()?))
}

fn same_content(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) if x.len() == y.len() => {
            matches!((std::fs::read(a), std::fs::read(b)), (Ok(p), Ok(q)) if p == q)
        }
        _ => false,
    }
}

/// A hint for a failed BenchExec call or run whose log (`log`, its text)
/// names a path that exists on this machine but lies in a directory the
/// container hides and in none of the directories made `visible` (mounted,
/// overlaid, or listed in [`READ_ONLY_DIRS_ENV`]): which path, which
/// directory hides it, and the remedy.
pub fn hidden_path_hint(log: &str, visible: &[PathBuf]) -> Option<String> {
    let mut visible = visible.to_vec();
    visible.extend(env_read_only_dirs().unwrap_or_default());
    let canonical: Vec<PathBuf> = visible
        .iter()
        .filter_map(|v| std::fs::canonicalize(v).ok())
        .collect();
    visible.extend(canonical);
    let mut seen = BTreeSet::new();
    for word in log.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ','))
    {
        let word = word.trim_end_matches(['.', ':', ';']);
        let p = Path::new(word);
        let Some(dir) = hiding_dir(p) else {
            continue;
        };
        if !seen.insert(p.to_path_buf()) || !p.exists() || visible.iter().any(|v| p.starts_with(v))
        {
            continue;
        }
        let mount = if p.is_dir() {
            p
        } else {
            p.parent().unwrap_or(p)
        };
        return Some(format!(
            "{} exists on this machine but lies under {dir}, which BenchExec's container hides from the runs; \
             mount it read-only with {READ_ONLY_DIRS_ENV}={} (':'-separated), or move it out of {dir}",
            p.display(),
            mount.display()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpreters_of_scripts() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s");
        std::fs::write(&f, "#!/usr/bin/env -S python3 -u\nprint(1)\n").unwrap();
        assert_eq!(interpreter(&f).as_deref(), Some("python3"));
        std::fs::write(&f, "#! /bin/sh -e\n").unwrap();
        assert_eq!(interpreter(&f).as_deref(), Some("/bin/sh"));
        std::fs::write(&f, "\x7fELF").unwrap();
        assert_eq!(interpreter(&f), None);
    }

    #[test]
    fn hidden_directories() {
        assert!(hidden(Path::new("/home/u/solver")));
        assert!(hidden(Path::new("/tmp/x")));
        assert!(!hidden(Path::new("/homework/x")));
        assert!(!hidden(Path::new("/usr/bin")));
        assert_eq!(hiding_dir(Path::new("/run/user/1")), Some("/run"));
    }

    #[test]
    fn a_bin_directory_is_mounted_with_its_prefix() {
        assert_eq!(
            program_dir(Path::new("/home/u/venv/bin")),
            Path::new("/home/u/venv")
        );
        assert_eq!(
            program_dir(Path::new("/home/u/z3")),
            Path::new("/home/u/z3")
        );
        // `/bin` itself is no prefix to mount.
        assert_eq!(program_dir(Path::new("/bin")), Path::new("/bin"));
    }

    #[test]
    fn nested_mounts_are_dropped() {
        let got = outermost(["/tmp/a/b", "/tmp/a", "/home/x", "/tmp/ab"].map(PathBuf::from));
        assert_eq!(got, ["/home/x", "/tmp/a", "/tmp/ab"].map(PathBuf::from));
    }

    #[test]
    fn helpers_are_copied_once_and_refreshed_when_changed() {
        let d = tempfile::tempdir().unwrap();
        let src = d.path().join("build");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("smtcomp-trace-executor"), b"v1").unwrap();
        let exec = d.path().join("exec");
        std::fs::create_dir_all(&exec).unwrap();
        let staged = exec.join("bin/smtcomp-trace-executor");
        stage_helpers(
            &exec,
            &["smtcomp-trace-executor"],
            std::slice::from_ref(&src),
        )
        .unwrap();
        assert_eq!(std::fs::read(&staged).unwrap(), b"v1");
        std::fs::write(src.join("smtcomp-trace-executor"), b"v2").unwrap();
        stage_helpers(
            &exec,
            &["smtcomp-trace-executor"],
            std::slice::from_ref(&src),
        )
        .unwrap();
        assert_eq!(std::fs::read(&staged).unwrap(), b"v2");
        // Found nowhere else: the staged copy serves; nothing at all: an error.
        stage_helpers(&exec, &["smtcomp-trace-executor"], &[]).unwrap();
        let e = stage_helpers(&exec, &["smtcomp-proof-wrapper"], &[src]).unwrap_err();
        assert!(
            matches!(&e, super::super::BenchexecError::HelperMissing { helper, .. }
                if helper == "smtcomp-proof-wrapper"),
            "{e}"
        );
        assert!(e.to_string().contains("cargo build"), "{e}");
        let leftovers: Vec<_> = std::fs::read_dir(exec.join("bin"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn hint_names_the_hidden_path_and_the_remedy() {
        let d = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
        let f = d.path().join("solver.sh");
        std::fs::write(&f, "").unwrap();
        let log = format!(
            "2025-01-01 - ERROR - solver binary {} not found (unpack the archive)\n",
            f.display()
        );
        let hint = hidden_path_hint(&log, &[]).unwrap();
        // A path in a directory made visible is no container matter.
        assert_eq!(hidden_path_hint(&log, &[d.path().to_path_buf()]), None);
        assert!(hint.contains(&f.display().to_string()), "{hint}");
        assert!(hint.contains("under /tmp"), "{hint}");
        assert!(
            hint.contains(&format!("SMTCOMP_READ_ONLY_DIRS={}", d.path().display())),
            "{hint}"
        );
        // A path that does not exist on the host is no container matter.
        assert_eq!(
            hidden_path_hint("ERROR /tmp/nope-xyz/solver not found", &[]),
            None
        );
        assert_eq!(hidden_path_hint("ERROR /usr/bin/env not found", &[]), None);
    }
}
