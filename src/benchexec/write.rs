//! Writing a planned [`Manifest`] into the execution directory.

use super::{definition, scripts, tasks};
use crate::formats::generation::{MANIFEST_FILE, Manifest};
use std::fs;
use std::io;
use std::path::Path;

/// The tool-info package shipped in `EXECDIR/tools/` (file name, content).
pub const TOOL_INFO: &[(&str, &str)] = &[
    (
        "__init__.py",
        include_str!("../../tool-info/tools/__init__.py"),
    ),
    (
        "smtcomp_common.py",
        include_str!("../../tool-info/tools/smtcomp_common.py"),
    ),
    (
        "smtcomp_tool.py",
        include_str!("../../tool-info/tools/smtcomp_tool.py"),
    ),
    (
        "smtcomp_incremental.py",
        include_str!("../../tool-info/tools/smtcomp_incremental.py"),
    ),
    (
        "smtcomp_proof.py",
        include_str!("../../tool-info/tools/smtcomp_proof.py"),
    ),
];

/// Our executables the tool-info modules run (copied to `EXECDIR/bin/` on request).
pub const HELPER_BINARIES: &[&str] = &["smtcomp-trace-executor", "smtcomp-proof-wrapper"];

/// Directories of the execution directory that `generate` owns and rewrites.
const OWNED: &[&str] = &["definitions", "tasks", "tools", "docker"];

fn ctx(path: &Path) -> impl Fn(io::Error) -> String + '_ {
    move |e| format!("{}: cannot write: {e}", path.display())
}

fn put(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(ctx(parent))?;
    }
    fs::write(path, text).map_err(ctx(path))
}

fn put_executable(path: &Path, text: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    put(path, text)?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).map_err(ctx(path))
}

/// Writes everything into `out` (which exists). Directories `generate` owns are
/// replaced when `out` holds an earlier manifest; results are never touched.
/// `binaries_from`, if
/// given, is where `smtcomp-trace-executor` and `smtcomp-proof-wrapper` are copied
/// from. Returns warnings.
pub fn write(
    out: &Path,
    m: &Manifest,
    binaries_from: Option<&Path>,
) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    if out.join(MANIFEST_FILE).is_file() {
        for d in OWNED {
            let p = out.join(d);
            if p.exists() {
                fs::remove_dir_all(&p)
                    .map_err(|e| format!("{}: cannot remove: {e}", p.display()))?;
            }
        }
    }
    for (name, text) in TOOL_INFO {
        put(&out.join("tools").join(name), text)?;
    }
    put(&out.join("tasks").join(tasks::PROPERTY_FILE), "")?;
    for (path, task) in &m.tasks {
        put(&out.join(path), &tasks::render(task))?;
    }
    for (file, d) in &m.definitions {
        put(&out.join("definitions").join(file), &definition::render(d))?;
    }
    put_executable(
        &out.join("run-local.sh"),
        &scripts::run_local(m, &m.prepared),
    )?;
    put_executable(&out.join("run-vcloud.sh"), &scripts::run_vcloud(m))?;
    for (file, text) in scripts::docker(m, &m.prepared) {
        put_executable(&out.join("docker").join(file), &text)?;
    }
    if let Some(dir) = binaries_from {
        for b in HELPER_BINARIES {
            let src = dir.join(b);
            let dst = out.join("bin").join(b);
            if src.is_file() {
                fs::create_dir_all(out.join("bin")).map_err(ctx(&dst))?;
                fs::copy(&src, &dst).map_err(ctx(&dst))?;
            } else {
                warnings.push(format!("{}: not found; not copied to bin/", src.display()));
            }
        }
    }
    m.write(out).map_err(|e| e.to_string())?;
    Ok(warnings)
}
