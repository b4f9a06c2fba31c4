//! Result interpreter tests: the old post-processor's table (spec §5.3) on
//! StarExec-style fixtures, BenchExec-era wrapper output, and hostile input
//! (binary garbage, huge lines, missing or spoofed keys).

use std::path::Path;

use proptest::prelude::*;
use smtcomp_proof_wrapper::verdict::MAX_KEPT_LINE;
use smtcomp_proof_wrapper::{ProofVerdict, interpret, interpret_bytes};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn fixtures_reproduce_the_post_processor_output() {
    let cases = [
        ("starexec_valid", ProofVerdict::Valid),
        ("starexec_timeout", ProofVerdict::Timeout),
        ("starexec_alarm", ProofVerdict::Error),
        ("starexec_sat", ProofVerdict::Sat),
        ("starexec_silent_checker", ProofVerdict::Error),
        ("starexec_invalid", ProofVerdict::Invalid),
        ("benchexec_unknown", ProofVerdict::Unknown),
    ];
    for (name, verdict) in cases {
        let outcome = interpret(&fixture(&format!("{name}.out")));
        assert_eq!(outcome.verdict, verdict, "{name}");
        assert_eq!(
            outcome.postprocessor_lines(),
            fixture(&format!("{name}.expected")),
            "{name}"
        );
    }
}

#[test]
fn first_line_table() {
    let cases = [
        ("valid", ProofVerdict::Valid),
        ("  valid \t", ProofVerdict::Valid),
        ("holey", ProofVerdict::Holey),
        ("invalid", ProofVerdict::Invalid),
        ("sat", ProofVerdict::Sat),
        ("unknown", ProofVerdict::Unknown),
        ("EOF", ProofVerdict::Timeout),
        ("Valid", ProofVerdict::Error),
        ("valid proof", ProofVerdict::Error),
        ("unsat", ProofVerdict::Error),
        ("error", ProofVerdict::Error),
        ("timeout", ProofVerdict::Error),
        ("(error \"x\")", ProofVerdict::Error),
        ("Alarm clock", ProofVerdict::Error),
    ];
    for (first, verdict) in cases {
        let text = format!("; run solver\n\n   ; indented comment\n{first}\nvalid\nproofsize=1\n");
        let outcome = interpret(&text);
        assert_eq!(outcome.verdict, verdict, "{first:?}");
        assert_eq!(outcome.verdict_line.as_deref(), Some(first.trim()));
    }
}

#[test]
fn missing_verdict_uses_the_wrapper_keys() {
    let base = "; run solver\n; compressing proof\n; proof size: 0 ( compressed)\n";
    // Checker silent, wrapper finished normally: error (as the old post-processor).
    let o = interpret(&format!(
        "{base}; checking proof\nproofsize=0\ncompressedsize=\nchecker_timeout=0\nchecker_skipped=0\n"
    ));
    assert_eq!(o.verdict, ProofVerdict::Error);
    assert!(o.has_wrapper_report());
    // Solver stopped by the wrapper's limit: the first line is a pair, yet timeout.
    let o = interpret(&format!(
        "{base}; checker skipped: solver timeout\nproofsize=0\nsolver_timeout=1\nchecker_skipped=1\n"
    ));
    assert_eq!(o.verdict, ProofVerdict::Timeout);
    assert_eq!(o.verdict_line.as_deref(), Some("proofsize=0"));
    // Checker stopped by its limit before answering.
    let o = interpret(&format!(
        "{base}; checking proof\nproofsize=0\nchecker_timeout=1\n"
    ));
    assert_eq!(o.verdict, ProofVerdict::Timeout);
    // Wrapper signalled.
    let o = interpret(&format!("{base}proofsize=0\nwrapper_signal=15\n"));
    assert_eq!(o.verdict, ProofVerdict::Timeout);
    // Wrapper killed by the harness before the checker said anything.
    for text in ["", "; run solver\n", base] {
        let o = interpret(text);
        assert_eq!(o.verdict, ProofVerdict::Timeout, "{text:?}");
        assert_eq!(o.verdict_line, None);
        assert!(!o.has_wrapper_report());
        assert!(o.values.is_empty());
    }
}

#[test]
fn wrapper_keys_win_over_spoofed_checker_keys() {
    let o = interpret(
        "valid\nproofsize=999\nsolver_timeout=1\nproofsize=10\ncompressedsize=\nsolver_timeout=0\n",
    );
    assert_eq!(o.verdict, ProofVerdict::Valid);
    assert_eq!(o.proof_size(), Some(10));
    assert_eq!(o.compressed_size(), None);
    assert_eq!(o.values.flag("solver_timeout"), Some(false));
    assert_eq!(o.values.len(), 5);
}

#[test]
fn crlf_and_malformed_pairs() {
    let o = interpret("holey\r\nsteps=4\r\nbad key=1\npath=/x\nempty=\nsolver_cpu_time=1.25\n");
    assert_eq!(o.verdict, ProofVerdict::Holey);
    let keys: Vec<_> = o.values.pairs().iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["steps", "empty", "solver_cpu_time"]);
    assert_eq!(o.solver_cpu_time(), Some(1.25));
    assert_eq!(o.checker_cpu_time(), None);
}

#[test]
fn hostile_output_binary_garbage_and_huge_lines() {
    let mut garbage = vec![0xffu8, 0xfe, 0, 1, 2, b'\n'];
    garbage.extend_from_slice(b"valid\n\x00\x80steps=1\nsteps=2\n");
    let o = interpret_bytes(&garbage);
    assert_eq!(o.verdict, ProofVerdict::Error);
    assert_eq!(o.values.get("steps"), Some("2"));

    let huge = format!("valid{}\nproofsize=1\n", "x".repeat(5_000_000));
    let o = interpret(&huge);
    assert_eq!(o.verdict, ProofVerdict::Error);
    assert_eq!(o.verdict_line.unwrap().chars().count(), MAX_KEPT_LINE);

    let huge_pair = format!("valid\nk={}\n", "9".repeat(1_000_000));
    let o = interpret(&huge_pair);
    assert_eq!(o.verdict, ProofVerdict::Valid);
    assert_eq!(o.values.get_u64("k"), None, "overflow is not a number");

    // Multi-byte characters at the cut do not panic.
    let o = interpret(&"é".repeat(1000));
    assert_eq!(o.verdict_line.unwrap().chars().count(), MAX_KEPT_LINE);
}

#[test]
fn outcome_serialises_to_json() {
    let o = interpret("sat\nproofsize=3\n");
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(json["verdict"], "sat");
    assert_eq!(json["verdict_line"], "sat");
    assert_eq!(json["values"]["pairs"][0][0], "proofsize");
    assert_eq!(o.verdict.benchexec_result(), "true");
    assert_eq!(o.verdict.starexec_result(), "sat");
}

proptest! {
    #[test]
    fn never_panics_and_lines_are_bounded(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let o = interpret_bytes(&bytes);
        prop_assert!(o.verdict_line.map_or(0, |l| l.chars().count()) <= MAX_KEPT_LINE);
        for (k, v) in o.values.pairs() {
            let line = format!("{k}={v}");
            prop_assert!(smtcomp_proof_wrapper::kv::parse_pair(&line).is_some());
        }
    }

    #[test]
    fn comments_and_blank_lines_before_the_verdict_do_not_matter(
        word in prop::sample::select(vec!["valid", "holey", "invalid", "sat", "unknown", "junk"]),
        comments in proptest::collection::vec("( *;[ -~]*|[ \t]*)", 0..5),
    ) {
        let plain = interpret(&format!("{word}\nproofsize=1\n"));
        let noisy = interpret(&format!("{}\n{word}\nproofsize=1\n", comments.join("\n")));
        prop_assert_eq!(plain.verdict, noisy.verdict);
    }
}
