//! `smtcomp submissions ...`, `smtcomp seed` and `smtcomp competition show` end to end.

use crate::support::{golden, root, smtcomp};

const REAL: &str = "tests/data/submissions-2025";
const BROKEN: &str = "tests/data/submissions-broken";

/// Sorted `*.json` files of a directory, as paths relative to the crate root.
fn json_files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    v.sort();
    v
}

#[test]
fn real_2025_submissions_validate_except_two_named_rule_breaks() {
    let (code, out, _) = smtcomp(&["submissions", "validate", REAL]);
    assert_eq!(code, 1, "two real files break the derived-naming rule");
    assert!(
        out.ends_with("43 files: 41 valid, 2 invalid, 6 warnings (SMT-COMP 2025)\n"),
        "{out}"
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors[0].starts_with(&format!(
        "{REAL}/yicesQS.json: $.name: error: derived solver 'YicesQS'"
    )));
    assert!(errors[1].starts_with(&format!(
        "{REAL}/z3-siri.json: $.name: error: derived solver 'z3siri'"
    )));
    golden::check("tests/golden/validate-2025.txt", &out);
}

#[test]
fn every_valid_real_file_validates_alone() {
    for f in json_files(REAL) {
        if f.ends_with("yicesQS.json") || f.ends_with("z3-siri.json") {
            continue;
        }
        let (code, out, err) = smtcomp(&["submissions", "validate", "--no-warnings", &f]);
        assert_eq!(code, 0, "{f}: {out}{err}");
        assert_eq!(
            out,
            "1 file: 1 valid, 0 invalid, 0 warnings (SMT-COMP 2025)\n"
        );
    }
}

#[test]
fn each_broken_file_gets_its_precise_message() {
    let cases: &[(&str, &str)] = &[
        (
            "bad-contact",
            "$.contacts[0]: error: 'jane-at-example.org' is not a valid e-mail address",
        ),
        (
            "bad-hash",
            "$.archive.h.sha256: error: expected 64 hexadecimal digits, found 6 characters",
        ),
        (
            "bad-seed",
            "$.seed: error: expected an integer (or null), found the string 'forty-two'",
        ),
        (
            "bad-solver-type",
            "$.solver_type: error: unknown solver type 'standalone' (spelling is case-sensitive: 'Standalone')",
        ),
        (
            "bad-url",
            "$.website: error: 'www.example.org' is not an absolute URL",
        ),
        (
            "derived-bad-name",
            "$.name: error: derived solver 'MyZ3' does not follow the naming convention [name of base solver]-[solver name]",
        ),
        ("empty-command", "$.command: error: empty command"),
        (
            "empty-contributors",
            "$.contributors: error: needs at least one contributor",
        ),
        (
            "enters-nothing",
            "$.participations[0]: error: enters nothing",
        ),
        (
            "final-not-zenodo",
            "$.archive.url: error: a final submission's archive must be on zenodo.org, not 'github.com'",
        ),
        (
            "final-local-file",
            "$.archive.url: error: a final submission's archive must be on zenodo.org, not a local file:// archive",
        ),
        (
            "invalid-track-division",
            "$.participations[0].divisions[0]: error: invalid track/division pair: track Incremental has no division QF_Strings",
        ),
        (
            "missing-archive",
            "$.archive: error: missing: give a top-level 'archive' or one in every participation",
        ),
        (
            "missing-command",
            "$.command: error: missing: give a top-level 'command' or one in every participation",
        ),
        (
            "missing-required",
            "$: error: missing required field 'name'",
        ),
        (
            "not-json",
            "$: error: not valid JSON at line 4, column 1: trailing comma",
        ),
        (
            "not-object",
            "$: error: expected a JSON object, found an array",
        ),
        ("not-utf8", "$: error: not UTF-8 text"),
        (
            "participation-unknown-field",
            "$.participations[0].logic: error: unknown field 'logic' (did you mean 'logics'?)",
        ),
        (
            "regex-invalid",
            "$.participations[0].logics: error: invalid regular expression 'QF_(BV'",
        ),
        (
            "regex-matches-nothing",
            "$.participations[0].logics: error: the pattern 'QF_BV.*X' matches no logic of track(s) SingleQuery",
        ),
        (
            "unknown-division",
            "$.participations[0].divisions[0]: error: unknown division 'QF_Bitvector'",
        ),
        (
            "unknown-field",
            "$.seeds: error: unknown field 'seeds' (did you mean 'seed'?)",
        ),
        (
            "unknown-logic",
            "$.participations[0].logics[0]: error: unknown logic 'QF_BVV' (did you mean 'QF_BV'?)",
        ),
        (
            "unknown-track",
            "$.participations[0].tracks[0]: error: unknown track 'SingleQuerry'",
        ),
        (
            "wrong-types",
            "$.competitive: error: expected true or false, found a string",
        ),
    ];
    assert!(cases.len() >= 15);
    for (name, expected) in cases {
        let file = format!("{BROKEN}/{name}.json");
        let (code, out, err) = smtcomp(&["submissions", "validate", &file]);
        assert_eq!(code, 1, "{file} must be invalid: {out}{err}");
        let want = format!("{file}: {expected}");
        assert!(
            out.lines().any(|l| l.starts_with(&want)),
            "{file}: expected a line starting with\n  {want}\ngot:\n{out}"
        );
        assert!(err.is_empty(), "{file}: nothing on stderr, got {err}");
    }
}

#[test]
fn duplicate_names_are_found_across_files() {
    let a = format!("{BROKEN}/duplicate-a.json");
    let b = format!("{BROKEN}/duplicate-b.json");
    let (code, out, _) = smtcomp(&["submissions", "validate", &a, &b]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "{b}: $.name: error: duplicate solver name 'Twin' (also in {a})"
        )),
        "{out}"
    );
}

#[test]
fn broken_directory_golden_and_valid_example_is_valid() {
    let (code, out, _) = smtcomp(&["submissions", "validate", BROKEN]);
    assert_eq!(code, 1);
    assert!(
        !out.contains("valid-example.json"),
        "the valid example has no problem:\n{out}"
    );
    for f in json_files(BROKEN) {
        if !f.ends_with("valid-example.json") && !f.ends_with("duplicate-a.json") {
            assert!(
                out.contains(&format!("{f}: ")),
                "{f} has no problem reported"
            );
        }
    }
    golden::check("tests/golden/validate-broken.txt", &out);
}

#[test]
fn validate_json_report_is_machine_readable() {
    let (code, out, _) = smtcomp(&[
        "submissions",
        "validate",
        "--json",
        &format!("{BROKEN}/unknown-logic.json"),
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["valid"], false);
    assert_eq!(v[0]["solver"], "Example unknown-logic");
    assert_eq!(v[0]["problems"][0]["path"], "$.participations[0].logics[0]");
    assert_eq!(v[0]["problems"][0]["severity"], "error");
}

#[test]
fn missing_file_is_a_problem_not_a_crash() {
    let (code, out, _) = smtcomp(&["submissions", "validate", "tests/data/nope.json"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("tests/data/nope.json: $: error: cannot read file:"),
        "{out}"
    );
}

#[test]
fn show_golden_and_json() {
    let files = [
        format!("{REAL}/cvc5.json"),
        format!("{REAL}/COLIBRI.json"),
        format!("{REAL}/yices2.json"),
        format!("{REAL}/z3alpha.json"),
    ];
    let mut args = vec!["submissions", "show"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, _) = smtcomp(&args);
    assert_eq!(code, 0);
    golden::check("tests/golden/show-2025.txt", &out);
    assert!(out.contains("COLIBRI  (Standalone, competitive;"));
    assert!(
        out.contains("    QF_FPArith  all except QF_UFFPDTNIRA\n"),
        "look-ahead pattern QF_.*FP(?!DT).*"
    );

    let (code, out, _) = smtcomp(&["submissions", "show", "--json", &files[1]]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fp = v[0]["tracks"]["SingleQuery"]["QF_FPArith"]
        .as_array()
        .unwrap();
    assert_eq!(fp.len(), 8);
    assert!(!fp.iter().any(|l| l == "QF_UFFPDTNIRA"));
}

#[test]
fn seed_2025_matches_the_documented_value() {
    let (code, out, _) = smtcomp(&["seed", "--submissions", REAL]);
    assert_eq!(code, 0);
    assert!(
        out.contains("sum of 26 competitive seeds mod 2^30 = 755033430\n"),
        "{out}"
    );
    assert!(out.ends_with("seed = 757067271\n"), "{out}");
    golden::check("tests/golden/seed-2025.txt", &out);
    let (_, out, _) = smtcomp(&["seed", "--submissions", REAL, "--nyse", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"], 755033431u64);
}

/// `--all-entrants`: the rules' literal "all entrants other than the
/// organizers'". The 2025 set has 43 submissions; the 7 base solvers of the
/// definition's `base_solvers` are the organizers' entries, leaving 36 with a
/// seed each. Sum of the 36 seeds mod 2^30 = 302048866 (summed by hand with a
/// script over tests/data/submissions-2025); + NYSE 2033841 = 304082707.
#[test]
fn seed_all_entrants_counts_non_competitive_author_submissions() {
    let (code, out, err) = smtcomp(&["seed", "--submissions", REAL, "--all-entrants"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("sum of 36 entrants' seeds mod 2^30 = 302048866\n"),
        "{out}"
    );
    assert!(out.contains("Z3-Owl-base"), "{out}");
    assert!(
        out.contains("(the organizers' entry: not counted)"),
        "{out}"
    );
    assert!(out.ends_with("seed = 304082707\n"), "{out}");
}

#[test]
fn seed_refuses_unreadable_submissions() {
    let (code, _, err) = smtcomp(&["seed", "--submissions", &format!("{BROKEN}/not-json.json")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot be read; the seed depends on all of them"),
        "{err}"
    );
}

#[test]
fn competition_show_text_and_json() {
    let (code, out, _) = smtcomp(&["competition", "show"]);
    assert_eq!(code, 0);
    golden::check("tests/golden/competition-2025.txt", &out);
    assert!(out.contains("SingleQuery: 19 divisions, 89 logics"));
    assert!(out.contains("Incremental: 17 divisions, 39 logics"));
    assert!(out.contains("ModelValidation: 13 divisions, 38 logics"));

    let (code, out, _) = smtcomp(&["competition", "show", "--year", "2025", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["year"], 2025);
    assert_eq!(v["tracks"]["SingleQuery"]["limits"]["time_s"], 1200);
    assert_eq!(
        v["tracks"]["Incremental"]["divisions"]
            .as_object()
            .unwrap()
            .len(),
        17
    );

    let (code, out, _) = smtcomp(&["competition", "show", "--track", "inc"]);
    assert_eq!(code, 0);
    assert!(out.contains("Incremental: 17") && !out.contains("SingleQuery:"));
}

#[test]
fn competition_errors_and_usage_exit_codes() {
    // A year without a built-in edition is a bad flag value: a usage error.
    let (code, _, err) = smtcomp(&["competition", "show", "--year", "1999"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no built-in competition definition for 1999"),
        "{err}"
    );
    let (code, _, err) = smtcomp(&[
        "competition",
        "show",
        "--competition",
        "tests/data/nope.toml",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("tests/data/nope.toml: cannot read competition file"),
        "{err}"
    );
    let (code, _, _) = smtcomp(&["competition", "show", "--track", "Main"]);
    assert_eq!(code, 2, "an unknown track name is a usage error");
    let (code, _, _) = smtcomp(&["submissions", "validate"]);
    assert_eq!(code, 2);
}

#[test]
fn help_is_available_for_every_command() {
    for args in [
        vec!["--help"],
        vec!["competition", "--help"],
        vec!["competition", "show", "--help"],
        vec!["submissions", "--help"],
        vec!["submissions", "validate", "--help"],
        vec!["submissions", "show", "--help"],
        vec!["seed", "--help"],
    ] {
        let (code, out, _) = smtcomp(&args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Usage: smtcomp"), "{args:?}: {out}");
    }
}

/// A local archive (`file:///...`) is accepted for a submission that is not
/// final: a solver author tests it without a web server (`archives fetch`,
/// `test-solver --archive` read it); a final one still needs the permanent host.
#[test]
fn a_local_archive_url_is_valid_until_the_submission_is_final() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(
        crate::support::root().join("tests/data/submissions-broken/final-local-file.json"),
    )
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&src).unwrap();
    v["final"] = false.into();
    let f = dir.path().join("local.json");
    std::fs::write(&f, v.to_string()).unwrap();
    let (code, out, err) = smtcomp(&[
        "submissions",
        "validate",
        "--no-warnings",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    v["archive"]["url"] = "file://relative/s.tar.gz".into();
    std::fs::write(&f, v.to_string()).unwrap();
    let (code, out, _) = smtcomp(&[
        "submissions",
        "validate",
        "--no-warnings",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a file:// URL needs an absolute path"),
        "{out}"
    );
}
