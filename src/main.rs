//! The `smtcomp` command line (see `smtcomp --help`).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = smtcomp::cli::Cli::parse();
    ExitCode::from(smtcomp::cli::exit_code(smtcomp::cli::run(cli)))
}
