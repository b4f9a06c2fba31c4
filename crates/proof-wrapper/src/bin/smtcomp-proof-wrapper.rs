//! `smtcomp-proof-wrapper`: Proof Exhibition Track wrapper (drop-in replacement
//! for `starexec_run_proof`). See `docs/proof-wrapper.md` and [`smtcomp_proof_wrapper`].

use smtcomp_proof_wrapper::{Options, run, signals};

fn main() {
    let opts = match Options::parse_from(std::env::args_os()) {
        Ok(opts) => opts,
        Err(e) => std::process::exit(e.report()),
    };
    match run::run(&opts) {
        Ok(result) => {
            if let Some(sig) = result.interrupted {
                signals::reraise(sig);
            }
        }
        Err(e) => {
            eprintln!("smtcomp-proof-wrapper: {e:#}");
            std::process::exit(2);
        }
    }
}
