//! The command-line conventions (issue 21, item 7): one track-name parser on
//! every command that takes a track, `-o/--output` and `--exec` with the older
//! spellings still accepted, completions, man pages, `--version`, colour,
//! `--json` on every command that prints a result.

use crate::support::smtcomp;

/// Every command line that takes a track, with `TRACK` where the name goes and
/// `TMP` for a scratch directory. Every other input names a missing file, so
/// that a command whose track parsed fails on reading (exit 1), never on usage.
const TRACK_COMMANDS: &[&[&str]] = &[
    &["competition", "show", "--track", "TRACK"],
    &[
        "select",
        "--track",
        "TRACK",
        "--inventory",
        "TMP/nope.json",
        "--seed",
        "1",
    ],
    &[
        "select",
        "TRACK",
        "--inventory",
        "TMP/nope.json",
        "--seed",
        "1",
    ],
    &[
        "prepare",
        "--track",
        "TRACK",
        "--selection",
        "TMP/nope.json",
        "--library",
        "TMP",
        "-o",
        "TMP/out",
    ],
    &["run-local", "--exec", "TMP/nope", "--track", "TRACK"],
    &["run-slurm", "--exec", "TMP/nope", "--track", "TRACK"],
    &[
        "score",
        "--track",
        "TRACK",
        "--runs",
        "TMP/nope.jsonl",
        "--inventory",
        "TMP/nope.json",
        "--submissions",
        "TMP/nope",
    ],
    &[
        "report",
        "--track",
        "TRACK",
        "--runs",
        "TMP/nope.jsonl",
        "--inventory",
        "TMP/nope.json",
        "--submissions",
        "TMP/nope",
        "-o",
        "TMP/site",
    ],
    &[
        "report",
        "--track",
        "SingleQuery",
        "--selection",
        "TRACK=TMP/nope.json",
        "--runs",
        "TMP/nope.jsonl",
        "--inventory",
        "TMP/nope.json",
        "--submissions",
        "TMP/nope",
        "-o",
        "TMP/site",
    ],
    &[
        "export",
        "website",
        "-o",
        "TMP/web",
        "--runs",
        "TMP/nope.jsonl",
        "--inventory",
        "TMP/nope.json",
        "--submissions",
        "TMP/nope",
        "--track",
        "TRACK",
    ],
    &["test-solver", "TMP/nope.json", "--track", "TRACK"],
];

fn with(cmd: &[&str], track: &str, tmp: &std::path::Path) -> Vec<String> {
    let tmp = tmp.to_str().unwrap();
    cmd.iter()
        .map(|a| a.replace("TRACK", track).replace("TMP", tmp))
        .collect()
}

fn run(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    smtcomp(&args)
}

/// A misspelt track is a usage error (exit 2) naming the closest track, on
/// every command that takes one.
#[test]
fn every_track_option_suggests_the_closest_name() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in TRACK_COMMANDS {
        let args = with(cmd, "singel-query", tmp.path());
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("unknown track 'singel-query' (did you mean SingleQuery?)"),
            "{args:?}: {err}"
        );
    }
}

/// Every spelling the competition uses parses on every command: the command
/// then fails on its missing input (exit 1), not on the track.
#[test]
fn every_track_option_takes_every_spelling() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in TRACK_COMMANDS {
        for name in [
            "SingleQuery",
            "single-query",
            "sq",
            "SINGLE_QUERY",
            "singlequery",
        ] {
            let args = with(cmd, name, tmp.path());
            let (code, out, err) = run(&args);
            assert!(
                !err.contains("unknown track") && !err.contains("invalid value"),
                "{args:?}: {err}"
            );
            // `competition show` has no other input: it succeeds; the others
            // fail on the missing input (test-solver: exit 2 when it cannot
            // start, its documented contract), never on the command line.
            assert!(!err.contains("Usage: smtcomp"), "{args:?}: {err}");
            let want = if cmd[0] == "competition" {
                0
            } else if cmd[0] == "test-solver" {
                2
            } else {
                1
            };
            assert_eq!(code, want, "{args:?}: {out}{err}");
        }
    }
    for name in [
        "UnsatCore",
        "unsat-core",
        "uc",
        "ModelValidation",
        "mv",
        "Incremental",
        "inc",
    ] {
        let (code, _, err) = smtcomp(&["competition", "show", "--track", name]);
        assert_eq!(code, 0, "{name}: {err}");
    }
}

/// The older spellings still parse: `--out` for `-o/--output`, positional
/// EXECDIR / SUBMISSIONS / OUT / TRACK; they fail on the missing input (1), not
/// as usage errors (2). Giving both spellings is a usage error.
#[test]
fn older_spellings_are_hidden_aliases() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().to_str().unwrap();
    let nope = format!("{t}/nope");
    let out = format!("{t}/out");
    for args in [
        vec!["run-local", nope.as_str()],
        vec!["run-slurm", nope.as_str()],
        vec!["archives", "fetch", nope.as_str(), out.as_str()],
        vec![
            "archives",
            "fetch",
            "--submissions",
            nope.as_str(),
            "--exec",
            out.as_str(),
        ],
        vec![
            "export",
            "website",
            out.as_str(),
            "--runs",
            nope.as_str(),
            "--inventory",
            nope.as_str(),
            "--submissions",
            nope.as_str(),
        ],
        vec![
            "generate",
            "--submissions",
            nope.as_str(),
            "--prepared",
            nope.as_str(),
            "--out",
            out.as_str(),
        ],
        vec![
            "generate",
            "--submissions",
            nope.as_str(),
            "--prepared",
            nope.as_str(),
            "-o",
            out.as_str(),
        ],
        vec![
            "prepare",
            "sq",
            "--selection",
            nope.as_str(),
            "--library",
            t,
            "--out",
            out.as_str(),
        ],
        vec![
            "validate-cores",
            "generate",
            "--runs",
            nope.as_str(),
            "--prepared",
            nope.as_str(),
            "--out",
            out.as_str(),
        ],
    ] {
        let (code, o, e) = smtcomp(&args);
        assert_eq!(code, 1, "{args:?}: {o}{e}");
    }
    // test-solver: exit 2 when the test cannot start, but past the parser.
    let (code, _, err) = smtcomp(&["test-solver", &nope, "--out", &out]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot read file") && !err.contains("Usage:"),
        "{err}"
    );
    let (code, _, err) = smtcomp(&["run-local", "--exec", &nope, &nope]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = smtcomp(&[
        "select",
        "sq",
        "--track",
        "sq",
        "--seed",
        "1",
        "--inventory",
        &nope,
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = smtcomp(&["run-local"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--exec <EXECDIR>"), "{err}");
}

/// Runs smtcomp with extra environment variables (NO_COLOR and CLICOLOR_FORCE
/// removed first, so the caller's environment does not leak in).
fn smtcomp_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_smtcomp"));
    cmd.args(args)
        .current_dir(crate::support::root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--version` names the package version and the commit:
/// `smtcomp 0.1.0 (commit 0123abcdef)` (or `unknown` outside git).
#[test]
fn version_names_the_commit() {
    let (code, out, _) = smtcomp(&["--version"]);
    assert_eq!(code, 0);
    let re = regex::Regex::new(r"^smtcomp \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,40}|unknown)\)\n$")
        .unwrap();
    assert!(re.is_match(&out), "{out:?}");
}

/// The bash completion script knows every subcommand.
#[test]
fn bash_completions_name_every_subcommand() {
    let (code, out, err) = smtcomp(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    use clap::CommandFactory;
    let cmd = smtcomp::cli::Cli::command();
    let mut n = 0;
    for sub in cmd.get_subcommands() {
        assert!(out.contains(sub.get_name()), "{} missing", sub.get_name());
        n += 1;
    }
    assert!(n >= 20, "{n} subcommands");
    assert!(out.contains("complete -F _smtcomp"), "a bash completion");
    let (code, _, _) = smtcomp(&["completions", "tcsh"]);
    assert_eq!(code, 2, "an unknown shell is a usage error");
}

/// `man DIR` writes one page per command and subcommand (`help` aside),
/// byte-identical on a second run.
#[test]
fn man_pages_one_per_subcommand_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for d in [a.path(), b.path()] {
        let (code, _, err) = smtcomp(&["man", d.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }
    let names = |d: &std::path::Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    let pages = names(a.path());
    assert_eq!(pages, names(b.path()));
    use clap::CommandFactory;
    let cmd = smtcomp::cli::Cli::command();
    let mut want = vec!["smtcomp.1".to_string()];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        want.push(format!("smtcomp-{}.1", sub.get_name()));
        for s2 in sub.get_subcommands().filter(|s| s.get_name() != "help") {
            want.push(format!("smtcomp-{}-{}.1", sub.get_name(), s2.get_name()));
        }
    }
    want.sort();
    assert_eq!(pages, want);
    assert!(pages.contains(&"smtcomp-validate-cores-join.1".to_string()));
    for p in &pages {
        let x = std::fs::read(a.path().join(p)).unwrap();
        assert_eq!(x, std::fs::read(b.path().join(p)).unwrap(), "{p}");
        assert!(
            String::from_utf8(x)
                .unwrap()
                .starts_with(".ie \\n(.g .ds Aq"),
            "{p}: roff"
        );
    }
    let select = std::fs::read_to_string(a.path().join("smtcomp-select.1")).unwrap();
    assert!(select.contains("\\-\\-track"), "{select}");
}

/// Errors are red only on a terminal or when forced: piped output has no
/// escape codes; `--color always` and `CLICOLOR_FORCE=1` colour;
/// `--color never` wins over CLICOLOR_FORCE.
#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let bad = [
        "competition",
        "show",
        "--competition",
        "tests/data/nope.toml",
    ];
    let (code, _, err) = smtcomp_env(&bad, &[]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && !err.contains('\x1b'),
        "{err:?}"
    );
    let (_, _, err) = smtcomp_env(&bad, &[("NO_COLOR", "1")]);
    assert!(!err.contains('\x1b'), "{err:?}");
    let mut always = bad.to_vec();
    always.extend(["--color", "always"]);
    let (_, _, err) = smtcomp_env(&always, &[("NO_COLOR", "1")]);
    assert!(err.starts_with("\x1b[1m\x1b[31merror:\x1b[0m "), "{err:?}");
    let (_, _, err) = smtcomp_env(&bad, &[("CLICOLOR_FORCE", "1")]);
    assert!(err.starts_with("\x1b[1m\x1b[31merror:\x1b[0m "), "{err:?}");
    let mut never = bad.to_vec();
    never.extend(["--color", "never"]);
    let (_, _, err) = smtcomp_env(&never, &[("CLICOLOR_FORCE", "1")]);
    assert!(!err.contains('\x1b'), "{err:?}");
}

/// A missing input is named once with its OS error, never
/// `... (os error 2): No such file or directory (os error 2)`.
#[test]
fn an_os_error_is_printed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let nx = tmp.path().join("nope");
    let nx = nx.to_str().unwrap();
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["--competition", nx, "competition", "show"],
        &["benchmarks", "stats", nx],
        &["select", "--track", "sq", "--inventory", nx, "--seed", "1"],
        &[
            "score",
            "--track",
            "sq",
            "--runs",
            nx,
            "--inventory",
            nx,
            "--submissions",
            nx,
        ],
        &[
            "prepare",
            "--track",
            "sq",
            "--selection",
            nx,
            "--library",
            nx,
            "-o",
            out,
        ],
        &["run-local", "--exec", nx],
        &["generate", "--submissions", nx, "--prepared", nx, "-o", out],
        &["archives", "fetch", "--submissions", nx, "--exec", out],
        &["test-solver", nx],
    ];
    for args in commands {
        let (code, _, err) = smtcomp(args);
        assert_ne!(code, 0, "{args:?}: {err}");
        assert_eq!(
            err.matches("(os error 2)").count(),
            1,
            "{args:?}: the OS error is not named exactly once:\n{err}"
        );
    }
}

/// Every command and subcommand states its exit codes in `--help` (its own,
/// or the common ones).
#[test]
fn every_help_states_the_exit_codes() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>, n: &mut usize) {
        *n += 1;
        let help = cmd
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        if !help.contains("Exit codes: 0 ") {
            missing.push(path.to_string());
        }
        for sc in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            walk(sc, &format!("{path} {}", sc.get_name()), missing, n);
        }
    }
    let mut cmd = smtcomp::cli::command();
    cmd.build();
    let (mut missing, mut n) = (Vec::new(), 0);
    walk(&cmd, "smtcomp", &mut missing, &mut n);
    assert!(n > 30, "{n} commands");
    assert!(missing.is_empty(), "no exit codes in --help: {missing:?}");
    // As printed: a subcommand of a subcommand too.
    let (code, out, _) = smtcomp(&["benchmarks", "used", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Exit codes: 0 success, 1 problems"), "{out}");
}
