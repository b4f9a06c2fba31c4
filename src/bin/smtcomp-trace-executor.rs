//! Placeholder: the trace executor is implemented in its own issue.
fn main() {
    eprintln!("smtcomp-trace-executor: not built yet");
    std::process::exit(2);
}
