//! `smtcomp-trace-executor`: drop-in replacement for SMT-COMP's
//! `smtlib2_trace_executor` (see `docs/trace-executor.md`).

fn main() {
    let code = smtcomp_trace_executor::main_with_args(std::env::args_os().collect());
    std::process::exit(code);
}
