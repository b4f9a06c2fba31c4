//! `smtcomp benchmarks used`: the benchmarks a past competition ran, from the
//! organizers' published results, checked against a second, independent
//! source: the organizers' 2025 Incremental selection as `select --policy
//! published-2025` reproduces it from the inventory and seed (22,942
//! benchmarks), and per division against the results file counted here.

use crate::support::data::{self, results_inc_2025};
use crate::support::smtcomp;
use smtcomp::model::{Competition, Track};
use std::collections::{BTreeMap, BTreeSet};

fn results() -> String {
    data::path("scoring/results-inc-2025.json.gz")
        .display()
        .to_string()
}

/// `smtcomp --year 2025 benchmarks used ARGS`.
fn used(args: &[&str]) -> (i32, String, String) {
    smtcomp(&[&["--year", "2025", "benchmarks", "used"], args].concat())
}

/// The paths of a `benchmarks used` list (comments skipped).
fn paths(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

#[test]
fn the_2025_incremental_benchmarks_are_the_organizers_selection() {
    let (code, out, err) = used(&["--track", "inc", "--results", &results()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "# 22942 benchmarks of SMT-COMP 2025 Incremental, every division: 65327 runs of "
        ),
        "{out:.300}"
    );
    assert!(out.contains("\n# track: Incremental\n"), "{out:.300}");
    let listed = paths(&out);
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(listed, sorted, "sorted, each once");

    let selected = crate::support::data::select_inc_2025(757_067_271);
    let selected: BTreeSet<String> = selected.benchmarks.iter().map(|b| b.file.path()).collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(listed.len(), 22_942);
    assert!(listed == selected, "the list differs from the selection");
    assert!(
        err.contains("benchmarks used: 22942 benchmarks (ABVFPLRA 4, "),
        "{err}"
    );
}

#[test]
fn a_division_or_logic_lists_exactly_its_benchmarks_and_a_mistake_is_named() {
    let comp = Competition::builtin(2025).unwrap();
    let inc = comp.track(Track::Incremental).unwrap();
    // Independent count: the results file's benchmarks per logic.
    let mut per_logic: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &results_inc_2025().results {
        per_logic
            .entry(r.file.logic.to_string())
            .or_default()
            .insert(r.file.path());
    }
    let division = "QF_Bitvec";
    let want: BTreeSet<String> = inc
        .logics_of(division)
        .unwrap()
        .iter()
        .flat_map(|l| per_logic.get(l.as_str()).cloned().unwrap_or_default())
        .collect();
    assert!(want.len() > 100, "{}", want.len());
    let (code, out, err) = used(&[
        "--track",
        "Incremental",
        "--division",
        division,
        "--results",
        &results(),
    ]);
    assert_eq!(code, 0, "{err}");
    let got: BTreeSet<String> = paths(&out).into_iter().collect();
    assert!(got == want, "{} listed, {} expected", got.len(), want.len());

    // Written to a file, read back by score --selection's reader.
    let dir = crate::support::work_dir("benchmarks-used");
    let file = dir.path().join("qf_bv.txt");
    let (code, _, err) = used(&[
        "--track",
        "inc",
        "--logic",
        "QF_BV",
        "--results",
        &results(),
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let list = smtcomp::benchmarks::list::read(&file).unwrap();
    assert_eq!(list.track, Some(Track::Incremental));
    assert_eq!(list.files.len(), per_logic["QF_BV"].len());
    assert!(
        err.contains(&format!("written to {}", file.display())),
        "{err}"
    );

    // A logic that ran nothing (in a results file of QF_BV rows only): named, exit 1.
    let only_bv = smtcomp::formats::results::ResultsFile {
        results: results_inc_2025()
            .results
            .iter()
            .filter(|r| r.file.logic.as_str() == "QF_BV")
            .cloned()
            .collect(),
    };
    let bv_file = dir.path().join("results-inc-bv.json.gz");
    only_bv.write(&bv_file).unwrap();
    let (code, out, err) = used(&[
        "--track",
        "inc",
        "--logic",
        "QF_ABV",
        "--logic",
        "QF_BV",
        "--results",
        bv_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(paths(&out).len(), per_logic["QF_BV"].len());
    assert!(err.contains("for logic QF_ABV\n"), "{err}");

    // Mistakes: case, division, track, year, a missing file.
    let r = results();
    for (args, says) in [
        (
            vec!["--logic", "qf_bv"],
            "--logic qf_bv: not a logic of the Incremental track of SMT-COMP 2025 (logic names are case-sensitive: try --logic QF_BV)",
        ),
        (
            vec!["--division", "QF_Nope"],
            "--division QF_Nope: not a division of the Incremental track",
        ),
    ] {
        let (code, _, err) = used(&[&["--track", "inc", "--results", &r], &args[..]].concat());
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let (code, _, err) = used(&["--track", "sq", "--results", &r]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "no SingleQuery result among its 65327 rows (is it the results file of another track?)"
        ),
        "{err}"
    );
    let (code, _, err) = used(&["--track", "sq"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no results file: looked for ./results-sq-2025.json.gz and data/results-sq-2025.json.gz; download results-sq-2025.json.gz from https://github.com/SMT-COMP/smt-comp.github.io"),
        "{err}"
    );
    let (code, _, err) = smtcomp(&["benchmarks", "used", "--track", "sq", "--results", &r]);
    assert_eq!(code, 2);
    assert!(err.contains("give the year (--year Y)"), "{err}");
}
