//! One edition dispatch: the pipeline's scoring stage (`smtcomp run`, the
//! demo) scores by the definition's edition, with the same tables as `smtcomp
//! score --edition`; a policy an edition cannot apply is an error, never
//! ignored.

use crate::support::{replay, root, smtcomp};
use smtcomp::benchmarks::Inventory;
use smtcomp::model::{Competition, RulesEdition, Track};

/// The reduced demo's runs (replayed), scored by `pipeline::score_tracks`
/// under the 2025, 2023 and 2015 editions of the demo definition: each
/// edition's Single Query tables are those of `smtcomp score --edition`, and
/// the editions differ.
#[test]
fn the_pipeline_scores_by_the_definitions_edition() {
    let tmp = crate::support::work_dir("edition-dispatch");
    let out = tmp.path().join("demo");
    replay::exec_dir(&out);
    let runs_file = out.join("runs.jsonl.gz");
    let inv_file = out.join("inventory.json");
    let subs = replay::dir().join("submissions");
    let runs = smtcomp::ingest::read_jsonl(&runs_file).unwrap();
    let inventory = Inventory::read(&inv_file).unwrap();
    let mut tables = Vec::new();
    for (edition, name) in [
        (RulesEdition::Rules2025, "2025"),
        (RulesEdition::Rules2023, "2023"),
        (RulesEdition::Rules2015, "2015"),
    ] {
        let mut comp = Competition::from_path(&root().join("demo/competition.toml")).unwrap();
        comp.rules = edition;
        let loaded = smtcomp::submission::load_set(std::slice::from_ref(&subs), &comp);
        let dir = tmp.path().join(format!("scores-{name}"));
        let reports = smtcomp::pipeline::score_tracks(
            &comp,
            &loaded,
            &inventory,
            &mut smtcomp::pipeline::TrackRuns::of(&runs),
            &[Track::SingleQuery],
            &dir,
        )
        .unwrap();
        // The 2015 tables are no engine report (no pages).
        assert_eq!(
            reports.len(),
            usize::from(edition != RulesEdition::Rules2015)
        );
        let ours = std::fs::read_to_string(dir.join("single-query.md")).unwrap();
        let (code, theirs, err) = smtcomp(&[
            "--competition",
            "demo/competition.toml",
            "score",
            "--track",
            "SingleQuery",
            "--edition",
            name,
            "--runs",
            runs_file.to_str().unwrap(),
            "--inventory",
            inv_file.to_str().unwrap(),
            "--submissions",
            subs.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            ours, theirs,
            "{name}: the pipeline's tables differ from score --edition"
        );
        tables.push(ours);
    }
    assert_ne!(tables[0], tables[1], "2023 scored as 2025");
    assert_ne!(tables[1], tables[2], "2015 scored as 2023");
}

#[test]
fn a_policy_the_edition_cannot_apply_is_refused() {
    let score = |year: &str| {
        smtcomp(&[
            "--year",
            year,
            "score",
            "--track",
            "SingleQuery",
            "--policy",
            "published-2025",
            "--runs",
            "no-such-runs.jsonl",
            "--inventory",
            "no-such-inventory.json",
            "--submissions",
            "demo/submissions",
        ])
    };
    let (code, out, err) = score("2023");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--policy published-2025 reproduces the organizers' 2025 tool and applies to the 2025 rules only, not to the 2023 rules"),
        "{err}"
    );
    // Under the 2025 rules it is a policy like any other (here: the missing runs are the error).
    let (code, _, err) = score("2025");
    assert_ne!(code, 0);
    assert!(!err.contains("applies to the 2025 rules only"), "{err}");
}
