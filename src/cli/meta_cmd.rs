//! `smtcomp completions SHELL` and `smtcomp man DIR`: generated from the
//! command definitions themselves (clap_complete, clap_mangen), so they never
//! disagree with `--help`.

use super::{CmdResult, GlobalArgs, Outcome, print};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `smtcomp completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    shell: clap_complete::Shell,
}

/// Arguments of `smtcomp man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Directory to write the pages into (created if missing).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Prints the completion script.
pub(super) fn completions(global: &GlobalArgs, args: CompletionsArgs) -> CmdResult {
    global.unused("completions")?;
    let mut cmd = super::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "smtcomp", &mut out);
    print(&String::from_utf8_lossy(&out))?;
    Ok(Outcome::Ok)
}

/// Writes `smtcomp.1` and `smtcomp-<command>[-<subcommand>].1` for every
/// command (not `help`), and lists them.
pub(super) fn man(global: &GlobalArgs, args: ManArgs) -> CmdResult {
    global.unused("man")?;
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.dir.display()))?;
    let mut cmd = super::command();
    cmd.build();
    let mut written = Vec::new();
    write_pages(&cmd, "smtcomp", &args.dir, &mut written)?;
    let mut text = String::new();
    for w in &written {
        text.push_str(&format!("{}\n", w.display()));
    }
    print(&text)?;
    Ok(Outcome::Ok)
}

fn write_pages(
    cmd: &clap::Command,
    name: &str,
    dir: &std::path::Path,
    written: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    // clap names are `&'static str` (without its `string` feature): a few
    // short names, leaked once per `smtcomp man`.
    let static_name: &'static str = Box::leak(name.to_string().into_boxed_str());
    let page = cmd.clone().name(static_name).bin_name(static_name);
    let mut bytes = Vec::new();
    clap_mangen::Man::new(page).render(&mut bytes)?;
    let path = dir.join(format!("{name}.1"));
    std::fs::write(&path, bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    written.push(path);
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        write_pages(sub, &format!("{name}-{}", sub.get_name()), dir, written)?;
    }
    Ok(())
}
