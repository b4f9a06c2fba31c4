//! The `smtcomp` command line (see `smtcomp --help`).

use std::process::ExitCode;

/// mimalloc instead of glibc malloc: the run tables, scoring and pages make
/// millions of small allocations from several threads (measured in
/// docs/performance.md, "The allocator"). Feature `system-allocator`: glibc's
/// malloc, for heap profilers that hook it.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|a| a == smtcomp::util::guard::GUARD_ARG)
    {
        return ExitCode::from(smtcomp::util::guard::main(&args[2..]));
    }
    smtcomp::util::guard::enable();
    let cli = smtcomp::cli::parse();
    ExitCode::from(smtcomp::cli::exit_code(smtcomp::cli::run(cli)))
}
