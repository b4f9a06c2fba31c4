//! Proof wrapper integration tests: the stdout contract, every checker verdict,
//! files (proof, logs, gzip), command forms and error handling, with mock
//! solver/checker shell scripts.

use std::process::Command;

use crate::common::*;
use smtcomp_proof_wrapper::{ProofVerdict, interpret};

/// Mock solver printing `unsat` and a proof naming the verdict the checker will give.
fn solver_for(word: &str) -> String {
    match word {
        "sat" => "echo sat\necho '(error \"no proof\")'\necho solver-log >&2\n".into(),
        "unknown" => "echo unknown\necho '(error \"no proof\")'\necho solver-log >&2\n".into(),
        w => format!("echo unsat\necho '(proof {w})'\necho solver-log >&2\n"),
    }
}

#[test]
fn every_checker_verdict_exact_stdout_and_files() {
    let cases = [
        (
            "valid",
            ProofVerdict::Valid,
            "valid\nsteps=3\nholes=0\n",
            20,
        ),
        (
            "holey",
            ProofVerdict::Holey,
            "holey\nsteps=3\nholes=0\n",
            20,
        ),
        (
            "invalid",
            ProofVerdict::Invalid,
            "invalid\nsteps=3\nholes=0\n",
            22,
        ),
        ("sat", ProofVerdict::Sat, "sat\n", 23),
        ("unknown", ProofVerdict::Unknown, "unknown\n", 27),
    ];
    for (word, verdict, checker_out, size) in cases {
        let w = Work::new();
        w.script("smtcomp_solver", &solver_for(word));
        w.script("smtcomp_checker", MOCK_CHECKER);
        let run = w.run(&["bench.smt2"]);
        assert_eq!(run.code, Some(0), "{word}: {}", run.stderr);
        assert_eq!(
            run.stderr, "",
            "{word}: the wrapper itself is silent on stderr"
        );
        let expected = format!(
            "{}{checker_out}{}",
            preamble(size, true),
            normal_report(size, true)
        );
        assert_eq!(normalise(&run.stdout), expected, "{word}");

        let outcome = interpret(&run.stdout);
        assert_eq!(outcome.verdict, verdict, "{word}");
        assert_eq!(outcome.proof_size(), Some(size));
        assert!(outcome.has_wrapper_report());
        assert_eq!(
            outcome.verdict.is_erroneous(),
            word == "sat" || word == "invalid"
        );

        // Files: the proof holds the complete solver stdout, the gzip the same
        // bytes, the logs the stderr of each side.
        let proof = w.read("proof.txt");
        assert_eq!(proof.len() as u64, size);
        assert_eq!(gunzip(&w.path("proof.txt.gz")), proof);
        assert_eq!(outcome.compressed_size(), Some(w.size("proof.txt.gz")));
        assert_eq!(w.read("solver-error.log"), b"solver-log\n");
        assert_eq!(w.read("checker-error.log"), b"checker stderr line\n");
    }
}

#[test]
fn drop_in_paths_with_spaces_and_outdir() {
    let w = Work::new();
    std::fs::write(w.path("my bench.smt2"), "(check-sat)\n").unwrap();
    // The solver sees exactly one argument: the benchmark path with its space.
    w.script(
        "smtcomp_solver",
        "[ \"$#\" -eq 1 ] && [ \"$1\" = 'my bench.smt2' ] || exit 9\necho unsat\necho '(proof valid)'\n",
    );
    w.script("smtcomp_checker", MOCK_CHECKER);
    let run = w.run(&["my bench.smt2", "out dir/sub"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        normalise(&run.stdout),
        format!(
            "{}valid\nsteps=3\nholes=0\n{}",
            preamble(20, true),
            normal_report(20, true)
        )
    );
    // Proof in the cwd, everything else in OUTDIR (created if missing).
    assert_eq!(w.read("proof.txt"), b"unsat\n(proof valid)\n");
    assert!(w.path("out dir/sub/proof.txt.gz").is_file());
    assert!(w.path("out dir/sub/solver-error.log").is_file());
    assert_eq!(
        w.read("out dir/sub/checker-error.log"),
        b"checker stderr line\n"
    );
    assert!(!w.path("proof.txt.gz").exists());
}

#[test]
fn explicit_commands_with_arguments_and_custom_proof_file() {
    let w = Work::new();
    w.script("checker.sh", MOCK_CHECKER);
    // `sh -c SCRIPT BENCH`: sh is found on PATH, the appended benchmark is $0,
    // and the solver arguments contain a lone `--`.
    let run = w.run(&[
        "--proof-file",
        "p.out",
        "bench.smt2",
        "o",
        "--solver",
        "sh",
        "-c",
        "echo unsat; echo '(proof valid)'; echo \"bench=$0 --\" >&2",
        "--",
        "--checker",
        "./checker.sh",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        normalise(&run.stdout),
        format!(
            "{}valid\nsteps=3\nholes=0\n{}",
            preamble(20, true),
            normal_report(20, true)
        )
    );
    assert_eq!(w.read("p.out"), b"unsat\n(proof valid)\n");
    assert_eq!(w.read("o/solver-error.log"), b"bench=bench.smt2 --\n");
    assert_eq!(gunzip(&w.path("o/p.out.gz")), b"unsat\n(proof valid)\n");
    assert!(!w.path("proof.txt").exists());

    // A checker that gets the wrong benchmark says so; its exit status is
    // reported, not propagated, and the verdict is an error.
    let run = w.run(&["nope.smt2", "o", "--checker", "./checker.sh"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stdout
            .contains("\n; checking proof\nbenchmark 'nope.smt2' missing\n")
    );
    assert!(
        run.stdout.contains("\nsolver_exit=127\n") && run.stdout.contains("\nchecker_exit=1\n")
    );
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Error);
}

#[test]
fn solver_output_never_reaches_stdout_and_exit_codes_are_reported() {
    let w = Work::new();
    w.script(
        "smtcomp_solver",
        "echo unsat\necho '(proof valid)'\necho 'valid'\nexit 3\n",
    );
    w.script("smtcomp_checker", "echo holey\nexit 4\n");
    let run = w.run(&["bench.smt2"]);
    assert_eq!(run.code, Some(0), "exit 0 whatever the children do");
    let out = normalise(&run.stdout);
    assert!(
        out.starts_with(&format!("{}holey\nproofsize=26\n", preamble(26, true))),
        "{out}"
    );
    assert!(out.contains("\nsolver_exit=3\n") && out.contains("\nchecker_exit=4\n"));
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Holey);
}

#[test]
fn checker_output_streamed_unchanged_and_newline_added_at_end() {
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\n");
    // Binary garbage, a CR, no final newline.
    w.script(
        "smtcomp_checker",
        "printf 'valid\\r\\n\\001\\377\\000x=1 y'\n",
    );
    let run = Command::new(WRAPPER)
        .arg("bench.smt2")
        .current_dir(w.dir.path())
        .output()
        .unwrap();
    let stdout = run.stdout;
    let start = b"; checking proof\n".len()
        + stdout
            .windows(17)
            .position(|x| x == b"; checking proof\n")
            .unwrap();
    assert_eq!(&stdout[start..start + 16], b"valid\r\n\x01\xff\x00x=1 y\n");
    assert_eq!(&stdout[start + 16..start + 26], b"proofsize=");
    assert_eq!(
        smtcomp_proof_wrapper::interpret_bytes(&stdout).verdict,
        ProofVerdict::Valid
    );
}

#[test]
fn missing_solver_and_checker_are_reported_not_fatal() {
    let w = Work::new();
    let run = w.run(&["bench.smt2"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        normalise(&run.stdout),
        "; run solver\n\
         ; cannot run solver './smtcomp_solver': No such file or directory (os error 2)\n\
         ; compressing proof\n; proof size: 0 (GZ compressed)\n; checking proof\n\
         ; cannot run checker './smtcomp_checker': No such file or directory (os error 2)\n\
         proofsize=0\ncompressedsize=GZ\nsolver_cpu_time=T\nsolver_wall_time=T\nsolver_exit=127\n\
         solver_timeout=0\nsolver_stderr_truncated=0\nproof_truncated=0\ncompress_wall_time=T\n\
         checker_cpu_time=T\nchecker_wall_time=T\nchecker_exit=127\nchecker_timeout=0\n\
         checker_stderr_truncated=0\nchecker_skipped=0\n"
    );
    assert_eq!(interpret(&run.stdout).verdict, ProofVerdict::Error);
    // Not executable: 126, like a shell.
    std::fs::write(w.path("smtcomp_solver"), "echo unsat\n").unwrap();
    let run = w.run(&["bench.smt2"]);
    assert!(run.stdout.contains("\nsolver_exit=126\n"), "{}", run.stdout);
}

#[test]
fn usage_and_setup_errors_exit_2_with_clear_messages() {
    let w = Work::new();
    let run = w.run(&[]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("BENCHMARK"), "{}", run.stderr);
    assert_eq!(run.stdout, "");

    let run = w.run(&["bench.smt2", "--solver"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("--solver needs a command"),
        "{}",
        run.stderr
    );

    let run = w.run(&["--solver-timeout", "0", "bench.smt2"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("--solver-timeout"), "{}", run.stderr);

    // OUTDIR blocked by a regular file: named in the message, nothing printed on stdout.
    std::fs::write(w.path("blocker"), "").unwrap();
    let run = w.run(&["bench.smt2", "blocker/out"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("cannot create output directory 'blocker/out'"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");

    let run = w.run(&["--help"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("--max-proof-bytes") && run.stdout.contains("-- --checker"));
}

#[test]
fn compression_threshold_skips_gzip_and_removes_stale_file() {
    let w = Work::new();
    w.script("smtcomp_solver", "echo unsat\necho '(proof valid)'\n");
    w.script("smtcomp_checker", MOCK_CHECKER);
    std::fs::write(w.path("proof.txt.gz"), "stale").unwrap();
    let run = w.run(&["--compress-threshold", "20", "bench.smt2"]);
    // 20 bytes is not below the threshold of 20: not compressed.
    assert_eq!(
        normalise(&run.stdout),
        format!(
            "{}valid\nsteps=3\nholes=0\n{}",
            preamble(20, false),
            normal_report(20, false)
        )
    );
    assert!(!w.path("proof.txt.gz").exists());
    assert_eq!(interpret(&run.stdout).compressed_size(), None);
    let run = w.run(&["--compress-threshold", "21", "bench.smt2"]);
    assert!(normalise(&run.stdout).contains("\ncompressedsize=GZ\n"));
    assert!(w.path("proof.txt.gz").exists());
}
