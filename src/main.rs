//! The `smtcomp` command line (see `smtcomp --help`).

use std::process::ExitCode;

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
