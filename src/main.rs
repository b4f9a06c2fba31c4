//! The `smtcomp` command line (see `smtcomp --help`).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = smtcomp::cli::Cli::parse();
    match smtcomp::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(smtcomp::cli::EXIT_PROBLEMS)
        }
    }
}
