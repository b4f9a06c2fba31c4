//! The `smtcomp` command line (see `smtcomp --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = smtcomp::cli::parse();
    ExitCode::from(smtcomp::cli::exit_code(smtcomp::cli::run(cli)))
}
