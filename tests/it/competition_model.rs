//! The built-in 2025 competition against the reference table (anchor spec section 2.4,
//! copied to tests/data/anchor-2025-mapping.md), and loading of user definitions.

use smtcomp::model::{Competition, CompetitionError, Track};
use std::collections::BTreeMap;

/// Parses the markdown tables: section heading -> division value -> logics.
fn reference_tables() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let text = include_str!("../data/anchor-2025-mapping.md");
    let mut tables = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("#### ") {
            let name = h.split_whitespace().next().unwrap().to_string();
            current = Some(name);
            continue;
        }
        let Some(section) = &current else { continue };
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || !cells[2].starts_with('`') {
            continue;
        }
        let division = cells[2].trim_matches('`').to_string();
        let logics = cells[3].split(',').map(|l| l.trim().to_string()).collect();
        tables
            .entry(section.clone())
            .or_insert_with(BTreeMap::new)
            .insert(division, logics);
    }
    tables
}

fn builtin_map(c: &Competition, track: Track) -> BTreeMap<String, Vec<String>> {
    c.track(track)
        .unwrap()
        .divisions
        .iter()
        .map(|(d, l)| {
            let mut l: Vec<String> = l.iter().map(|x| x.to_string()).collect();
            l.sort();
            (d.to_string(), l)
        })
        .collect()
}

#[test]
fn builtin_2025_matches_reference_mapping() {
    let c = Competition::builtin(2025).unwrap();
    let reference = reference_tables();
    let expect = |section: &str| {
        let mut m = reference[section].clone();
        m.values_mut().for_each(|v| v.sort());
        m
    };
    let sq = expect("SingleQuery");
    for t in [
        Track::SingleQuery,
        Track::UnsatCore,
        Track::Parallel,
        Track::Cloud,
        Track::ProofExhibition,
    ] {
        assert_eq!(builtin_map(&c, t), sq, "track {t}");
    }
    assert_eq!(builtin_map(&c, Track::Incremental), expect("Incremental"));
    assert_eq!(
        builtin_map(&c, Track::ModelValidation),
        expect("ModelValidation")
    );
}

#[test]
fn builtin_2025_counts() {
    let c = Competition::builtin(2025).unwrap();
    let count = |t| {
        let d = c.track(t).unwrap();
        (d.divisions.len(), d.logics().count())
    };
    assert_eq!(count(Track::SingleQuery), (19, 89));
    assert_eq!(count(Track::Incremental), (17, 39));
    assert_eq!(count(Track::ModelValidation), (13, 38));
    assert_eq!(
        c.all_logics().len(),
        94,
        "the reference tool's Logic enum has 94 members"
    );
}

#[test]
fn builtin_2025_limits_and_seed() {
    let c = Competition::builtin(2025).unwrap();
    let sq = c.track(Track::SingleQuery).unwrap();
    assert_eq!(
        (sq.limits.time_s, sq.limits.memory_mb, sq.limits.cores),
        (1200, 30720, 4)
    );
    assert_eq!(
        (
            sq.test_limits.time_s,
            sq.test_limits.memory_mb,
            sq.test_limits.cores
        ),
        (60, 8192, 2)
    );
    let par = c.track(Track::Parallel).unwrap();
    assert_eq!((par.limits.memory_mb, par.limits.cores), (1_024_000, 128));
    assert_eq!(c.seed.nyse_value, Some(2_033_841));
    let uc = c.track(Track::UnsatCore).unwrap();
    assert_eq!(uc.validation_limits.unwrap().memory_mb, 15360);
    assert!(!c.track(Track::Cloud).unwrap().held);
    let mv = c.track(Track::ModelValidation).unwrap();
    assert!(mv.is_experimental("QF_FPArith"));
    assert!(!mv.is_experimental("QF_Bitvec"));
    assert_eq!(
        c.track(Track::Incremental)
            .unwrap()
            .division_of("QF_BVLRA")
            .map(|d| d.as_str()),
        Some("QF_Equality+Bitvec+Arith")
    );
    assert_eq!(c.removed_benchmarks.len(), 2);
}

#[test]
fn unknown_builtin_year_says_how_to_fix() {
    let err = Competition::builtin(1999).unwrap_err();
    assert!(matches!(err, CompetitionError::UnknownYear(1999)));
    assert!(err.to_string().contains("--competition FILE"));
}

const MINIMAL: &str = r#"
year = 2030
name = "Mini"
rules = "2025"
[selection]
min_used_benchmarks = 10
ratio_of_used_benchmarks = 0.5
unsat_core_min_num_asserts = 2
[tracks.SingleQuery]
limits = { time_s = 10, memory_mb = 100, cores = 1 }
test_limits = { time_s = 5, memory_mb = 100, cores = 1 }
[tracks.SingleQuery.divisions]
"QF_Bitvec" = ["QF_BV"]
"#;

#[test]
fn user_definition_loads_from_toml_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let toml_path = dir.path().join("c.toml");
    std::fs::write(&toml_path, MINIMAL).unwrap();
    let c = Competition::from_path(&toml_path).unwrap();
    assert_eq!(c.year, 2030);
    assert_eq!(c.tracks.len(), 1);
    // The same definition as JSON.
    let file: smtcomp::model::CompetitionFile = toml::from_str(MINIMAL).unwrap();
    let json_path = dir.path().join("c.json");
    std::fs::write(&json_path, serde_json::to_string(&file).unwrap()).unwrap();
    let j = Competition::from_path(&json_path).unwrap();
    assert_eq!(
        builtin_map(&j, Track::SingleQuery),
        builtin_map(&c, Track::SingleQuery)
    );
}

fn load_err(text: &str) -> String {
    Competition::from_toml(text, "c.toml")
        .unwrap_err()
        .to_string()
}

#[test]
fn inconsistent_definitions_are_rejected_with_path() {
    let dup = MINIMAL.replace(
        r#""QF_Bitvec" = ["QF_BV"]"#,
        "\"QF_Bitvec\" = [\"QF_BV\"]\n\"Other\" = [\"QF_BV\"]",
    );
    let e = load_err(&dup);
    assert!(
        e.contains("c.toml: tracks.SingleQuery.divisions: logic QF_BV is in two divisions"),
        "{e}"
    );

    let from_missing = format!(
        "{MINIMAL}\n[tracks.UnsatCore]\ndivisions_from = \"Incremental\"\nlimits = {{ time_s = 1, memory_mb = 1, cores = 1 }}\ntest_limits = {{ time_s = 1, memory_mb = 1, cores = 1 }}\n"
    );
    let e = load_err(&from_missing);
    assert!(
        e.contains("tracks.UnsatCore.divisions_from: track Incremental is not defined"),
        "{e}"
    );

    let bad_ratio = MINIMAL.replace(
        "ratio_of_used_benchmarks = 0.5",
        "ratio_of_used_benchmarks = 2.0",
    );
    assert!(
        load_err(&bad_ratio)
            .contains("selection.ratio_of_used_benchmarks: must be between 0 and 1")
    );

    let zero = MINIMAL.replace("time_s = 10", "time_s = 0");
    assert!(load_err(&zero).contains("tracks.SingleQuery.limits: limits must all be positive"));

    let unknown_field = MINIMAL.replace("name = \"Mini\"", "name = \"Mini\"\ncolour = 1");
    let e = load_err(&unknown_field);
    assert!(
        e.contains("invalid competition definition") && e.contains("colour"),
        "{e}"
    );

    let unknown_track = MINIMAL
        .replace("[tracks.SingleQuery]", "[tracks.Main]")
        .replace("[tracks.SingleQuery.divisions]", "[tracks.Main.divisions]");
    assert!(load_err(&unknown_track).contains("Main"));

    let bad_name = MINIMAL.replace("[\"QF_BV\"]", "[\"QF BV\"]");
    assert!(load_err(&bad_name).contains("'QF BV' is not a valid logic name"));
}

#[test]
fn unreadable_file_names_the_path() {
    let err = Competition::from_path(std::path::Path::new("/nonexistent/c.toml")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("/nonexistent/c.toml: cannot read")
    );
}
