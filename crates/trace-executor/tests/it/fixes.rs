//! The [FIX] and [IMPROVE] requirements of spec §9.1 and the known bugs of
//! §8: lexing, command framing, tolerant comparison, quoting, PATH lookup,
//! timing and statistics output, status-from-body mode.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::*;

fn sent(log: &Path) -> Vec<String> {
    logged(log).into_iter().map(|(_, t)| t).collect()
}

fn log_arg(dir: &Path) -> (std::path::PathBuf, String) {
    let log = dir.join("log");
    let s = log.to_string_lossy().into_owned();
    (log, s)
}

#[test]
fn strings_quoted_symbols_and_backslashes_split_correctly() {
    let dir = tmp();
    let body = "(set-logic QF_SLIA)\n(declare-const s String)\n\
        (assert (= s \"a)b;c|\"))\n(assert (= |a)b| |x;\"|))\n(assert (= s \"\\\"))\n\
        (assert (= s \"q\"\"(\"))\n(assert (= s \"two\nlines)\"))\n(check-sat)\n(exit)\n";
    let b = bench(dir.path(), &["sat"], body);
    let (log, logs) = log_arg(dir.path());
    run_mock(dir.path(), &[], &["--log", &logs], &b).expect("sat\n", 0);
    assert_eq!(
        sent(&log),
        [
            "(set-option :print-success true)",
            "(set-logic QF_SLIA)",
            "(declare-const s String)",
            "(assert (= s \"a)b;c|\"))",
            "(assert (= |a)b| |x;\"|))",
            "(assert (= s \"\\\"))",
            "(assert (= s \"q\"\"(\"))",
            "(assert (= s \"two\\nlines)\"))",
            "(check-sat)",
            "(exit)",
        ]
    );
}

#[test]
fn comments_and_leading_whitespace_are_not_forwarded() {
    let dir = tmp();
    let body = "; leading comment\n  \t(set-logic QF_UF) ; trailing (comment\n\
        (push 1)(assert (; inner ) comment kept\n true))\r\n(check-sat)\n";
    let b = bench(dir.path(), &["sat"], body);
    let raw = dir.path().join("raw");
    let raws = raw.to_string_lossy().into_owned();
    run_mock(dir.path(), &[], &["--raw-log", &raws], &b).expect("sat\n", 0);
    assert_eq!(
        std::fs::read_to_string(&raw).unwrap(),
        "(set-option :print-success true)\n(set-logic QF_UF)\n(push 1)\n\
         (assert (; inner ) comment kept\n true))\n(check-sat)\n(exit)\n"
    );
}

#[test]
fn crlf_header_and_body_give_no_false_wrong() {
    let dir = tmp();
    let text = "sat\r\n  unsat  \r\n--- BENCHMARK BEGINS HERE ---\r\n(set-logic QF_UF)\r\n\
        (declare-fun a () Bool)\r\n(assert a)\r\n(check-sat)\r\n(assert (not a))\r\n(check-sat)\r\n(exit)\r\n";
    let b = write(dir.path(), "crlf.smt2", text);
    run_mock(dir.path(), &[], &["--answers", "sat,unsat"], &b).expect("sat\nunsat\n", 0);
}

#[test]
fn solver_crlf_and_trailing_spaces_give_no_false_wrong() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    for eol in ["\\r\\n", " \\r\\n", " \\t \\n", "\\n\\n\\n"] {
        run_mock(
            dir.path(),
            &["--continue-after-unknown"],
            &["--answers", "sat,unknown,unsat", "--eol", eol],
            &b,
        )
        .expect("sat\nunknown\nunsat\n", 0);
    }
    run_mock(
        dir.path(),
        &[],
        &["--answers", "  unsat \\r", "--eol", "\\r\\n"],
        &b,
    )
    .expect("WRONG solver response: got unsat, expected sat\n", 2);
}

#[test]
fn final_answer_without_newline_still_counts() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(dir.path(), &[], &["--on-query", "1=sat@exit"], &b).expect("sat\n", 0);
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    run_mock(
        dir.path(),
        &["--continue-after-unknown"],
        &["--on-query", "1=sat@exit"],
        &b,
    )
    .expect("sat\nBAD response: unexpected EOF\n", 1);
}

#[test]
fn success_twice_desynchronizes_strictly() {
    let dir = tmp();
    let b = bench(
        dir.path(),
        &["sat"],
        "(set-logic QF_UF)\n(assert true)\n(check-sat)\n",
    );
    run_mock(dir.path(), &[], &["--on-cmd", "1=success\\nsuccess\\n"], &b)
        .expect("BAD response to check command: 'success'\n", 1);
}

#[test]
fn multi_line_error_is_quoted_on_one_line() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(
        dir.path(),
        &[],
        &["--on-cmd", "1=(error \"line one\\nline two\")\\n"],
        &b,
    )
    .expect("BAD response to status command: '(error \"line one'\n", 1);
}

#[test]
fn binary_garbage_is_escaped() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    run_mock(
        dir.path(),
        &[],
        &["--on-cmd", "1=\\x00\\xff\\x1b[31mgarbage\\r\\n"],
        &b,
    )
    .expect(
        "BAD response to status command: '\\x00\\xff\\x1b[31mgarbage'\n",
        1,
    );
    run_mock(dir.path(), &[], &["--on-query", "1=s\\x07at\\n"], &b)
        .expect("BAD response to check command: 's\\x07at'\n", 1);
}

#[test]
fn huge_solver_line_is_truncated_in_the_message() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    let long = format!("1={}\\n", "x".repeat(100_000));
    let expected = format!(
        "BAD response to status command: '{}...'\n",
        "x".repeat(1024)
    );
    run_mock(dir.path(), &[], &["--on-cmd", &long], &b).expect(&expected, 1);
}

#[test]
fn check_sat_variants() {
    let dir = tmp();
    let body = "(set-logic QF_UF)\n(declare-fun a () Bool)\n( check-sat )\n(check-sat ; comment\n)\n\
        (check - sat)\n(check-sat-assuming (a))\n(check-sat\n)\n(exit)\n";
    let b = bench(dir.path(), &["sat", "unsat", "sat", "unsat"], body);
    let (log, logs) = log_arg(dir.path());
    run_mock(
        dir.path(),
        &[],
        &["--answers", "sat,unsat,sat,unsat", "--log", &logs],
        &b,
    )
    .expect("sat\nunsat\nsat\nunsat\n", 0);
    // `(check - sat)` was sent as an ordinary command and answered `success`.
    assert!(sent(&log).contains(&"(check - sat)".to_string()));
    // A solver answering `sat` to `(check - sat)` is a BAD status response.
    let b = bench(dir.path(), &["sat"], "(check - sat)\n(check-sat)\n");
    run_mock(dir.path(), &[], &["--on-cmd", "1=sat\\n"], &b)
        .expect("BAD response to status command: 'sat'\n", 1);
}

#[test]
fn exit_variants_end_the_run_without_being_forwarded() {
    for exit in ["( exit )", "; bye\n(exit)", "(exit ; bye\n)", "(\nexit\n)"] {
        let dir = tmp();
        let body = format!("(set-logic QF_UF)\n(check-sat)\n{exit}\n(check-sat)\n");
        let b = bench(dir.path(), &["sat", "sat"], &body);
        let (log, logs) = log_arg(dir.path());
        run_mock(dir.path(), &[], &["--log", &logs], &b).expect("sat\n", 0);
        assert_eq!(
            sent(&log),
            [
                "(set-option :print-success true)",
                "(set-logic QF_UF)",
                "(check-sat)",
                "(exit)"
            ],
            "for {exit:?}"
        );
    }
}

#[test]
fn malformed_top_level_is_reported_with_position() {
    let dir = tmp();
    let cases = [
        (
            "(check-sat)\n)\n(check-sat)\n",
            "sat\nBAD benchmark: line 5, column 1: unexpected ')' outside a command\n",
        ),
        (
            "(check-sat)\n  junk (check-sat)\n",
            "sat\nBAD benchmark: line 5, column 3: unexpected symbol outside a command\n",
        ),
        (
            "(check-sat)\n(assert (= s \"abc))\n(check-sat)\n",
            "sat\nBAD benchmark: unterminated string literal starting at line 5, column 14\n",
        ),
        (
            "(check-sat)\n(assert |abc)\n",
            "sat\nBAD benchmark: unterminated quoted symbol starting at line 5, column 9\n",
        ),
        (
            "(check-sat)\n(assert (and a b)\n",
            "sat\nBAD benchmark: unexpected EOF inside the command starting at line 5, column 1\n",
        ),
    ];
    for (body, expected) in cases {
        let b = bench(dir.path(), &["sat", "sat"], body);
        let r = run_mock(dir.path(), &[], &[], &b);
        r.expect(expected, 1);
        assert!(!r.stdout.to_lowercase().contains("error"));
    }
}

#[test]
fn solver_arguments_reach_the_solver_unchanged() {
    let dir = tmp();
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args.txt\"\nexec '{}'\n",
        mock_s()
    );
    let solver = write(dir.path(), "solver.sh", script);
    std::fs::set_permissions(&solver, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let b = bench(dir.path(), &["sat"], BODY);
    run_in(
        dir.path(),
        &[&solver, "--incremental", "--times", "-", "a b", "--", &b],
    )
    .expect("sat\n", 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("args.txt")).unwrap(),
        "--incremental\n--times\n-\na b\n--\n"
    );
}

#[test]
fn solver_lookup_cwd_then_path() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    // A bare name in the cwd is executed (what execv did).
    std::os::unix::fs::symlink(mock(), dir.path().join("localsolver")).unwrap();
    run_in(dir.path(), &["localsolver", &b]).expect("sat\n", 0);
    // A name found only on PATH works too, which makes `sh -c ...` possible.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(mock(), bin.join("pathsolver")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new(exe());
    cmd.args(["pathsolver", "--answers", "sat", &b])
        .env("PATH", &path)
        .current_dir(dir.path());
    run_cmd(cmd, Duration::from_secs(60)).expect("sat\n", 0);
    let mut cmd = Command::new(exe());
    let m = mock_s();
    cmd.args(["sh", "-c", "exec \"$0\" \"$@\"", &m, "--answers", "sat", &b])
        .current_dir(dir.path());
    run_cmd(cmd, Duration::from_secs(60)).expect("sat\n", 0);
}

fn parse_times(stdout: &str) -> Vec<f64> {
    let re = regex::Regex::new(r"^time ([0-9.]*)$").unwrap();
    stdout
        .lines()
        .filter_map(|l| re.captures(l).map(|c| c[1].parse::<f64>().unwrap()))
        .collect()
}

#[test]
fn times_follow_each_sat_or_unsat_answer() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    let r = run_mock(
        dir.path(),
        &["--continue-after-unknown", "--times"],
        &["--answers", "sat,unknown,unsat", "--delay-ms", "20"],
        &b,
    );
    assert_eq!(r.code, Some(0));
    let shape: Vec<&str> = r
        .stdout
        .lines()
        .map(|l| if l.starts_with("time ") { "time" } else { l })
        .collect();
    assert_eq!(shape, ["sat", "time", "unknown", "unsat", "time"]);
    let times = parse_times(&r.stdout);
    assert_eq!(times.len(), 2);
    assert!(times[0] >= 0.02 && times[1] >= times[0] + 0.04, "{times:?}");
    assert!(times[1] <= r.elapsed.as_secs_f64());
    let format = regex::Regex::new(r"^time [0-9]+\.[0-9]{6}$").unwrap();
    for l in r.stdout.lines().filter(|l| l.starts_with("time ")) {
        assert!(format.is_match(l), "{l}");
    }
    // The --te- spelling is the same option; default output has no time lines.
    let r = run_mock(dir.path(), &["--te-times"], &[], &b);
    assert_eq!(parse_times(&r.stdout).len(), 1);
    run_mock(dir.path(), &[], &[], &b).expect("sat\n", 0);
}

#[test]
fn stats_file_has_one_json_line_per_command() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat", "unknown", "unsat"], BODY);
    let stats = dir.path().join("stats.jsonl");
    let st = stats.to_string_lossy().into_owned();
    run_mock(
        dir.path(),
        &["--continue-after-unknown", "--stats", &st],
        &["--answers", "sat,unknown,unsat"],
        &b,
    )
    .expect("sat\nunknown\nunsat\n", 0);
    let records: Vec<serde_json::Value> = std::fs::read_to_string(&stats)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "handshake",
            "cmd",
            "cmd",
            "cmd",
            "cmd",
            "query",
            "cmd",
            "query",
            "cmd",
            "query",
            "end"
        ]
    );
    let queries: Vec<_> = records.iter().filter(|r| r["kind"] == "query").collect();
    let got: Vec<(&str, &str)> = queries
        .iter()
        .map(|r| {
            (
                r["response"].as_str().unwrap(),
                r["expected"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [("sat", "sat"), ("unknown", "unknown"), ("unsat", "unsat")]
    );
    for r in &records[..10] {
        let (send, resp, lat) = (
            r["send_s"].as_f64().unwrap(),
            r["response_s"].as_f64().unwrap(),
            r["latency_s"].as_f64().unwrap(),
        );
        assert!(resp >= send && (resp - send - lat).abs() < 1e-5, "{r}");
        assert!(r["solver_cpu_s"].as_f64().unwrap() >= 0.0);
        assert!(r["bytes"].as_u64().unwrap() > 0);
    }
    assert_eq!(records[1]["line"], 5);
    assert_eq!(records[5]["index"], 5);
    let end = records.last().unwrap();
    assert_eq!(end["outcome"], "done");
    assert_eq!(end["answers"], 3);
    assert_eq!(end["solver_exit"], 0);
    assert_eq!(end["sent_sigterm"], false);
}

#[test]
fn status_from_body_runs_raw_smtlib() {
    let dir = tmp();
    let raw = "(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(declare-fun a () Bool)\n\
        (push 1)\n(assert a)\n(set-info :status sat)\n(check-sat)\n(pop 1)\n(assert (not a))\n\
        (set-info :status unsat)\n(check-sat)\n(check-sat)\n(set-info :status unsat)\n(check-sat)\n(exit)\n";
    let b = write(dir.path(), "raw.smt2", raw);
    let (log, logs) = log_arg(dir.path());
    // Without the flag the run stops before the first query without status.
    run_mock(
        dir.path(),
        &["--status-from-body"],
        &["--answers", "sat,unsat,unsat,unsat", "--log", &logs],
        &b,
    )
    .expect("sat\nunsat\n", 0);
    let s = sent(&log);
    assert!(!s.iter().any(|c| c.contains(":status")), "{s:?}");
    assert!(s.contains(&"(set-info :smt-lib-version 2.6)".to_string()));
    assert_eq!(s.last().unwrap(), "(exit)");
    run_mock(
        dir.path(),
        &["--te-status-from-body", "--continue-after-unknown"],
        &["--answers", "sat,unsat,sat,unsat"],
        &b,
    )
    .expect("sat\nunsat\nsat\nunsat\n", 0);
    run_mock(
        dir.path(),
        &["--status-from-body"],
        &["--answers", "sat,sat"],
        &b,
    )
    .expect("sat\nWRONG solver response: got sat, expected unsat\n", 2);
    // End of file without (exit) is a normal end in this mode.
    let b = write(
        dir.path(),
        "raw2.smt2",
        "(set-info :status sat)\n(check-sat)\n",
    );
    run_mock(dir.path(), &["--status-from-body"], &[], &b).expect("sat\n", 0);
}

#[test]
fn bad_own_options_are_reported() {
    let dir = tmp();
    let b = bench(dir.path(), &["sat"], BODY);
    let usage = format!(
        "Usage: {} [--continue-after-unknown] SOLVER [SOLVER_OPTIONS] BENCHMARK_WITH_SOLUTIONS\n",
        exe().display()
    );
    let m = mock_s();
    run_in(dir.path(), &["--te-bogus", &m, &b]).expect(
        &format!("BAD option: unknown option --te-bogus\n{usage}"),
        1,
    );
    run_in(dir.path(), &["--timeout", "soon", &m, &b]).expect(
        &format!("BAD option: invalid value for --timeout: 'soon'\n{usage}"),
        1,
    );
    let r = run_in(dir.path(), &["--version"]);
    assert!(r.stdout.starts_with("smtcomp-trace-executor "));
    let r = run_in(dir.path(), &["--help"]);
    assert!(r.stdout.contains("--te-times") && r.code == Some(0));
}
