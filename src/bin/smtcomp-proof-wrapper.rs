//! Placeholder: the proof wrapper is implemented in its own issue.
fn main() {
    eprintln!("smtcomp-proof-wrapper: not built yet");
    std::process::exit(2);
}
