//! The one-command run selects as `smtcomp select` does: a workspace made by
//! `smtcomp init` with the selection evidence (the 2025 inventory and
//! submissions, previous results, a previous inventory) and `smtcomp run
//! --until selection` writes, for every 2025 track, the same bytes as
//! `smtcomp select` given the same evidence; the evidence is used (trivial
//! benchmarks left out, new families from the previous inventory, entered
//! logics and competitive divisions only).

use crate::support::{data, root, smtcomp_bin};
use std::path::Path;
use std::process::Command;

fn smtcomp_in<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> (i32, String, String) {
    let o = Command::new(smtcomp_bin())
        .args(args)
        .current_dir(dir)
        .env_remove("SMTCOMP_WORKSPACE")
        .env("SMTCOMP_CACHE_DIR", root().join("target/test-cache"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Previous results: the 2025 Parallel runs as Single Query runs of a year the
/// 2025 definition takes (`previous_results_years`), their CPU times divided
/// by 1000, so that the benchmarks every solver solved fast are trivial and
/// Parallel/Cloud have hardness evidence.
fn previous_results(dir: &Path) -> std::path::PathBuf {
    let mut v: serde_json::Value = {
        let f = std::fs::File::open(data::path("scoring/results-parallel-2025.json.gz")).unwrap();
        serde_json::from_reader(flate2::read::GzDecoder::new(f)).unwrap()
    };
    for r in v["results"].as_array_mut().unwrap() {
        r["track"] = "SingleQuery".into();
        let t = r["cpu_time"].as_f64().unwrap();
        r["cpu_time"] = (t / 1000.0).into();
    }
    let out = dir.join("results-sq-2024.json.gz");
    let mut w = flate2::write::GzEncoder::new(
        std::fs::File::create(&out).unwrap(),
        flate2::Compression::fast(),
    );
    serde_json::to_writer(&mut w, &v).unwrap();
    w.finish().unwrap();
    out
}

/// A previous release: the 2025 inventory without every third family.
fn previous_inventory(dir: &Path) -> std::path::PathBuf {
    let mut inv = data::inventory_2025().clone();
    let keep = |family: &[String]| family.concat().len() % 3 != 0;
    inv.non_incremental.retain(|b| keep(&b.file.family));
    inv.incremental.retain(|b| keep(&b.file.family));
    let out = dir.join("benchmarks-2024.json.gz");
    inv.write(&out).unwrap();
    out
}

#[test]
fn workspace_selection_equals_select_with_the_same_evidence_on_every_2025_track() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let inventory = data::path("benchmarks-2025.json.gz");
    // The 2025 submissions but the two our validator rejects (derived solvers
    // not named `<base>-<name>`): `smtcomp run` refuses invalid submissions.
    let submissions = dir.join("submissions");
    std::fs::create_dir_all(&submissions).unwrap();
    for e in std::fs::read_dir(data::path("submissions-2025")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !["yicesQS.json", "z3-siri.json"].contains(&name.as_str()) {
            std::fs::copy(&p, submissions.join(name)).unwrap();
        }
    }
    let previous = previous_results(dir);
    let prev_inv = previous_inventory(dir);
    std::fs::create_dir_all(dir.join("library")).unwrap();
    let tracks = [
        "SingleQuery",
        "Incremental",
        "UnsatCore",
        "ModelValidation",
        "Parallel",
        "Cloud",
    ];
    let ws = dir.join("ws");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    // `smtcomp select` with the workspace's evidence, `more` flags, into `out`.
    let select_args = |track: &str, more: &[&str], out: &Path| -> Vec<String> {
        let mut v: Vec<String> = ["--year", "2025", "select", "--track", track]
            .into_iter()
            .chain(more.iter().copied())
            .map(String::from)
            .collect();
        for (flag, p) in [
            ("--inventory", &inventory),
            ("--previous-results", &previous),
            ("--previous-inventory", &prev_inv),
            ("--submissions", &submissions),
        ] {
            v.extend([flag.to_string(), s(p)]);
        }
        v.extend(["-o".to_string(), s(out)]);
        v
    };
    let mut init = vec![
        "--year".to_string(),
        "2025".into(),
        "init".into(),
        s(&ws),
        "--submissions".into(),
        s(&submissions),
        "--library".into(),
        s(&dir.join("library")),
        "--inventory".into(),
        s(&inventory),
        "--previous-results".into(),
        s(&previous),
        "--previous-inventory".into(),
        s(&prev_inv),
    ];
    for t in tracks {
        init.extend(["--track".to_string(), t.to_string()]);
    }
    let init: Vec<&str> = init.iter().map(String::as_str).collect();
    let (code, out, err) = smtcomp_in(dir, &init);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = smtcomp_in(&ws, &["run", "--until", "selection"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("every stage up to selection done"), "{out}");
    assert!(
        out.contains("inventory                    skipped  given: "),
        "{out}"
    );
    let sq: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.join("selection-sq.json")).unwrap()).unwrap();
    let seed = sq["seed"].as_u64().unwrap().to_string();
    let mut compared = 0;
    let mut non_competitive_noted = 0;
    for track in tracks {
        let short = track.parse::<smtcomp::model::Track>().unwrap().short_name();
        let ours = ws.join(format!("selection-{short}.json"));
        let theirs = dir.join(format!("select-{short}.json"));
        let (code, o, e) = smtcomp_in(dir, &select_args(track, &["--seed", &seed], &theirs));
        if !ours.exists() {
            // No competitive division in the track (2025 Cloud): neither selects.
            assert!(out.contains(&format!("{short} none (not run)")), "{out}");
            assert_ne!(
                code, 0,
                "{track}: select selected what the workspace did not"
            );
            assert!(e.contains("no benchmark of track"), "{track}: {e}");
            continue;
        }
        compared += 1;
        let ours_bytes = std::fs::read(&ours).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&ours_bytes).unwrap();
        assert_eq!(code, 0, "{track}: {o}\n{e}");
        assert!(
            std::fs::read(&theirs).unwrap() == ours_bytes,
            "{track}: the workspace's selection differs from `smtcomp select`'s"
        );
        // The evidence was used.
        let notes: Vec<&str> = v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        if notes
            .iter()
            .any(|n| n.starts_with("non-competitive divisions not selected"))
        {
            non_competitive_noted += 1;
        }
        if !matches!(track, "Parallel" | "Cloud") {
            assert!(
                notes.iter().any(|n| n.starts_with("new families: not in")),
                "{track}: {notes:?}"
            );
        }
        if track == "SingleQuery" {
            let trivial: u64 = v["logics"]
                .as_object()
                .unwrap()
                .values()
                .map(|l| l["trivial"].as_u64().unwrap_or(0))
                .sum();
            assert!(trivial > 0, "no trivial benchmark left out");
        }
    }
    // Every track but Cloud (no competitive division in 2025) was compared.
    assert_eq!(compared, 5);
    // Competitive divisions only: some track left a non-competitive one out.
    assert!(non_competitive_noted > 0);

    // The organizers' test run through the same stages: `select --test`'s
    // selection (seed 1, at most 20 per logic) in its own directory.
    let (code, out, err) = smtcomp_in(&ws, &["run", "--test", "--until", "selection"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("the test run, in "), "{out}");
    for track in ["SingleQuery", "Incremental", "UnsatCore", "ModelValidation"] {
        let short = track.parse::<smtcomp::model::Track>().unwrap().short_name();
        let ours = ws.join(format!("test-run/selection-{short}.json"));
        let theirs = dir.join(format!("select-test-{short}.json"));
        let (code, o, e) = smtcomp_in(dir, &select_args(track, &["--test"], &theirs));
        assert_eq!(code, 0, "{track}: {o}\n{e}");
        assert!(
            std::fs::read(&theirs).unwrap() == std::fs::read(&ours).unwrap(),
            "{track}: the workspace's test run selection differs from `select --test`'s"
        );
    }
    // No test run of Parallel and Cloud.
    assert!(!ws.join("test-run/selection-parallel.json").exists());
}
