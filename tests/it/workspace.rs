//! The competition workspace (`smtcomp.toml`): `smtcomp init` writes it
//! (golden), commands inside it take their competition from it and flags
//! override, a bad file is an error naming file, line and key, and
//! `smtcomp status` reports expected / done / failed / missing runs per
//! track, division and solver from the result files of the reduced demo's
//! replay recording: before any run, part-way (a definition without results,
//! a truncated result XML) and complete. The real BenchExec run of
//! `smtcomp run` is in `tests/e2e/workspace.rs`.

use crate::support::{copy_tree, golden, replay, root};
use smtcomp::pipeline::Replay;
use std::path::Path;
use std::process::Command;

/// Runs `smtcomp ARGS` in `dir` (no `SMTCOMP_WORKSPACE`); (exit code, stdout, stderr).
fn smtcomp_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .args(args)
        .current_dir(dir)
        .env_remove("SMTCOMP_WORKSPACE")
        .env_remove("NO_COLOR")
        .env("SMTCOMP_CACHE_DIR", root().join("target/test-cache"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A workspace directory `ws` with its inputs inside it (so that `init`
/// writes relative paths): the demo definition, two submissions, a library.
fn inputs(base: &Path) -> std::path::PathBuf {
    let ws = base.join("ws");
    std::fs::create_dir_all(ws.join("submissions")).unwrap();
    std::fs::create_dir_all(ws.join("library/non-incremental")).unwrap();
    std::fs::copy(
        root().join("demo/competition.toml"),
        ws.join("competition.toml"),
    )
    .unwrap();
    for s in ["z3.json", "yices.json"] {
        std::fs::copy(
            root().join("demo/submissions").join(s),
            ws.join("submissions").join(s),
        )
        .unwrap();
    }
    ws
}

#[test]
fn init_writes_the_workspace_file_and_refuses_to_overwrite_it() {
    let tmp = tempfile::tempdir().unwrap();
    inputs(tmp.path());
    let (code, out, err) = smtcomp_in(
        tmp.path(),
        &[
            "init",
            "ws",
            "--competition",
            "ws/competition.toml",
            "--submissions",
            "ws/submissions",
            "--library",
            "ws/library",
            "--track",
            "sq",
            "--track",
            "UnsatCore",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let ws = std::fs::canonicalize(tmp.path().join("ws")).unwrap();
    assert_eq!(
        out,
        format!(
            "wrote {}/smtcomp.toml\nnext: cd {} && smtcomp run\n",
            ws.display(),
            ws.display()
        )
    );
    let text = std::fs::read_to_string(ws.join("smtcomp.toml")).unwrap();
    golden::check("tests/data/workspace/smtcomp.toml", &text);

    // A second init does not overwrite it; --force does.
    let args = [
        "init",
        "ws",
        "--year",
        "2025",
        "--submissions",
        "ws/submissions",
        "--library",
        "ws/library",
    ];
    let (code, _, err) = smtcomp_in(tmp.path(), &args);
    assert_eq!(code, 1);
    assert!(
        err.contains("smtcomp.toml: exists; --force overwrites it"),
        "{err}"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(smtcomp_in(tmp.path(), &forced).0, 0);
    let text = std::fs::read_to_string(ws.join("smtcomp.toml")).unwrap();
    assert!(text.contains("\nyear = 2025\n"), "{text}");

    // No definition: a usage error; a missing input directory: an error.
    let (code, _, err) = smtcomp_in(
        tmp.path(),
        &[
            "init",
            "w2",
            "--submissions",
            "ws/submissions",
            "--library",
            "ws/library",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--competition FILE"), "{err}");
    let (code, _, err) = smtcomp_in(
        tmp.path(),
        &[
            "init",
            "w2",
            "--year",
            "2025",
            "--submissions",
            "nope",
            "--library",
            "ws/library",
        ],
    );
    assert_eq!(code, 1);
    assert!(err.contains("--submissions nope: not a directory"), "{err}");
}

#[test]
fn commands_inside_a_workspace_take_its_competition_and_flags_override() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = inputs(tmp.path());
    std::fs::write(
        ws.join("smtcomp.toml"),
        "competition = \"competition.toml\"\nsubmissions = \"submissions\"\nlibrary = \"library\"\n",
    )
    .unwrap();
    // From a subdirectory: the file is found in a parent, its paths are relative to it.
    let sub = ws.join("deep/er");
    std::fs::create_dir_all(&sub).unwrap();
    let (code, out, err) = smtcomp_in(&sub, &["competition", "show"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "SMT-COMP demo (2025 rules, local limits) (rules edition 2025, from {}/competition.toml)",
            ws.display()
        )
    );
    // A flag wins over the workspace.
    let (code, out, _) = smtcomp_in(&sub, &["--year", "2023", "competition", "show"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("SMT-COMP 2023"), "{out}");
    // Outside the workspace: the default edition.
    let (_, out, _) = smtcomp_in(tmp.path(), &["competition", "show"]);
    assert!(out.starts_with("SMT-COMP 2025 "), "{out}");
    // SMTCOMP_WORKSPACE names one from anywhere.
    let out = Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .args(["competition", "show"])
        .current_dir(tmp.path())
        .env("SMTCOMP_WORKSPACE", &ws)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("SMT-COMP demo"));
}

#[test]
fn a_bad_workspace_file_is_an_error_naming_file_line_and_key() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = inputs(tmp.path());
    let file = ws.join("smtcomp.toml");
    let cases = [
        // (text, the error line after the file name)
        (
            "submissions = \"s\"\nlibrary = \"l\"\n\n[backend]\nkind = \"local\"\njbos = 2\n",
            "line 6: error: unknown field `jbos`, expected one of `kind`, `jobs`, `benchexec`, `container`, `start_time`, `vcloud_benchmark`, `slurm`",
        ),
        (
            "submissions = \"s\"\nlibrary = \"l\"\n[backend]\nkind = \"cloud\"\n",
            "line 4: error: unknown variant `cloud`, expected one of `local`, `slurm`, `vcloud`",
        ),
        (
            "submissions = \"s\"\nlibrary = \"l\"\ntracks = [\"SingleQuery\", \"Sprint\"]\n",
            "line 3: error: tracks: unknown track 'Sprint'",
        ),
        (
            "submissions = \"s\"\n",
            "line 1: error: missing field `library`",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = smtcomp_in(&ws, &["competition", "show"]);
        assert_eq!(code, 1, "{text}: {out}");
        let want = format!("error: {}: {expected}", file.display());
        assert!(err.starts_with(&want), "{text}\n got: {err}\nwant: {want}");
    }
    // `run` and `status` without a workspace: a usage error saying how to make one.
    std::fs::remove_file(&file).unwrap();
    for cmd in ["run", "status"] {
        let (code, _, err) = smtcomp_in(&ws, &[cmd]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("needs a workspace: no smtcomp.toml"), "{err}");
    }
}

/// `smtcomp status --json` in `ws` with the temporary directory replaced by `TMP`.
fn status_json(ws: &Path, tmp: &Path) -> (i32, String) {
    let (code, out, err) = smtcomp_in(ws, &["status", "--json"]);
    assert!(err.is_empty(), "{err}");
    (code, out.replace(&tmp.display().to_string(), "TMP"))
}

#[test]
fn status_counts_expected_done_and_missing_runs_at_every_point() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp_path = std::fs::canonicalize(tmp.path()).unwrap();
    // The reduced demo, generated, its runs replayed: `out/exec`.
    let out = tmp_path.join("out");
    let runner = Replay {
        recording: replay::recording(),
    };
    smtcomp::demo::run(&replay::demo_options(&out), &runner, &mut |_| {}).unwrap();
    let ws = tmp_path.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(
        ws.join("smtcomp.toml"),
        format!(
            "competition = {:?}\nsubmissions = {:?}\nlibrary = {:?}\nexecdir = \"../out/exec\"\n",
            root().join("demo/competition.toml").display().to_string(),
            replay::dir().join("submissions").display().to_string(),
            replay::dir().join("corpus").display().to_string(),
        ),
    )
    .unwrap();
    let results = out.join("exec/results");

    // Complete: every run done, exit 0.
    let (code, json) = status_json(&ws, &tmp_path);
    assert_eq!(code, 0, "{json}");
    golden::check("tests/data/workspace/status-complete.json", &json);
    let (_, text, _) = smtcomp_in(&ws, &["status"]);
    assert!(
        text.starts_with("runs: 6 definitions in ")
            && text.contains("\n  12 of 12 runs done (100 %), 0 failed, 0 missing\n"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour when piped: {text}");
    assert!(
        text.contains("core validation runs: not generated yet"),
        "{text}"
    );

    // Before any run: all 12 runs missing, exit 1.
    std::fs::rename(&results, tmp_path.join("kept")).unwrap();
    let (code, json) = status_json(&ws, &tmp_path);
    assert_eq!(code, 1);
    golden::check("tests/data/workspace/status-before.json", &json);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rounds"][0]["missing"], 12);
    assert_eq!(v["rounds"][0]["done"], 0);

    // Part-way: z3's Single Query definition (2 runs) has no results yet, and
    // Yices' Incremental result XML (3 runs) is cut after its first run:
    // the runs read before the cut count, the file is listed unreadable.
    copy_tree(&tmp_path.join("kept"), &results);
    std::fs::remove_dir_all(results.join("single-query/z3_QF_LinearIntArith")).unwrap();
    let inc = results.join("incremental/Yices_2_inc_QF_LinearIntArith");
    let xml = std::fs::read_dir(&inc)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".xml.bz2"))
        .unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut bzip2::read::BzDecoder::new(std::fs::File::open(&xml).unwrap()),
        &mut text,
    )
    .unwrap();
    let cut = text.find("</run>").unwrap() + "</run>".len() + 20;
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    std::io::Write::write_all(&mut enc, &text.as_bytes()[..cut]).unwrap();
    std::fs::write(&xml, enc.finish().unwrap()).unwrap();
    let (code, json) = status_json(&ws, &tmp_path);
    assert_eq!(code, 1);
    golden::check("tests/data/workspace/status-partial.json", &json);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let r = &v["rounds"][0];
    // 12 expected - 2 (z3 SQ, no results) - 2 (Yices Incremental, after the cut) = 8 done.
    assert_eq!(
        (r["done"].as_u64(), r["missing"].as_u64()),
        (Some(8), Some(4))
    );
    assert_eq!(r["unreadable"].as_array().unwrap().len(), 1);
    let (_, text, _) = smtcomp_in(&ws, &["status"]);
    assert!(
        text.contains("\n  8 of 12 runs done (67 %), 0 failed, 4 missing; 0 duplicated, 1 unreadable result file(s)\n"),
        "{text}"
    );
    assert!(
        text.contains("  unreadable: incremental/Yices_2_inc_QF_LinearIntArith/"),
        "{text}"
    );

    // Every run has a result, but a run has two (a copied result file): not
    // complete, exit 1, the duplicate named.
    std::fs::remove_dir_all(&results).unwrap();
    copy_tree(&tmp_path.join("kept"), &results);
    let sq = results.join("single-query/z3_QF_LinearIntArith");
    let first = std::fs::read_dir(&sq)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".xml.bz2"))
        .unwrap();
    let copy = sq.join(first.file_name().unwrap().to_string_lossy().replacen(
        ".results.",
        ".results.again.",
        1,
    ));
    std::fs::copy(&first, &copy).unwrap();
    let (code, text, _) = smtcomp_in(&ws, &["status"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("12 of 12 runs done (100 %), 0 failed, 0 missing; 2 duplicated, 0 unreadable result file(s)"),
        "{text}"
    );
    assert!(
        text.contains("  duplicated: single-query/z3_QF_LinearIntArith/"),
        "{text}"
    );
    std::fs::remove_file(&copy).unwrap();

    // Junk after the end of a result file: every run read, but the file is
    // not what BenchExec wrote: not complete, exit 1.
    let mut bytes = std::fs::read(&first).unwrap();
    bytes.extend_from_slice(b"junk");
    std::fs::write(&first, bytes).unwrap();
    let (code, text, _) = smtcomp_in(&ws, &["status"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("0 duplicated, 1 unreadable result file(s)"),
        "{text}"
    );
}

/// The reduced demo's outputs (replayed) as a workspace: `tmp/out` with its
/// `smtcomp.toml` (execdir `exec`, inventory, prepared, run table as the
/// workspace names them).
fn demo_workspace(tmp: &Path) -> std::path::PathBuf {
    let out = tmp.join("out");
    let runner = Replay {
        recording: replay::recording(),
    };
    smtcomp::demo::run(&replay::demo_options(&out), &runner, &mut |_| {}).unwrap();
    std::fs::write(
        out.join("smtcomp.toml"),
        format!(
            "competition = {:?}\nsubmissions = {:?}\nlibrary = \"library\"\ntracks = [\"SingleQuery\"]\n",
            root().join("demo/competition.toml").display().to_string(),
            replay::dir().join("submissions").display().to_string(),
        ),
    )
    .unwrap();
    out
}

#[test]
fn score_report_generate_and_ingest_take_the_workspace_inputs_and_flags_override() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let ws = demo_workspace(&tmp);
    let subs = replay::dir().join("submissions");
    let subs = subs.to_str().unwrap();
    let runs = ws.join("runs.jsonl.gz");
    let inventory = ws.join("inventory.json");
    let score = ["score", "--track", "SingleQuery", "--format", "json"];

    // score: inside, no path flags = the workspace's runs, inventory, submissions.
    let (code, inside, err) = smtcomp_in(&ws, &score);
    assert_eq!(code, 0, "{err}");
    let comp = root().join("demo/competition.toml");
    let mut flagged: Vec<&str> = vec!["--competition", comp.to_str().unwrap()];
    flagged.extend(score);
    flagged.extend(["--runs", runs.to_str().unwrap()]);
    flagged.extend(["--inventory", inventory.to_str().unwrap()]);
    flagged.extend(["--submissions", subs]);
    let (code, outside, err) = smtcomp_in(&tmp, &flagged);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inside, outside);
    // A flag wins over the workspace's value.
    let (code, _, err) = smtcomp_in(&ws, &[&score[..], &["--inventory", "nope.json"]].concat());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nope.json"), "{err}");
    // Outside a workspace the flags stay required: a usage error naming the first.
    let (code, _, err) = smtcomp_in(&tmp, &score);
    assert_eq!(code, 2);
    assert!(
        err.contains("--runs is required (--runs <FILE>..., or run in a workspace"),
        "{err}"
    );
    let (code, _, err) = smtcomp_in(
        &tmp,
        &[&score[..], &["--runs", "r.jsonl", "--inventory", "i.json"]].concat(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--submissions is required"), "{err}");

    // report: the workspace's tracks (`tracks`) into its `site/`; `-o` wins.
    std::fs::remove_dir_all(ws.join("site")).unwrap();
    let (code, _, err) = smtcomp_in(&ws, &["report", "--date", "none"]);
    assert_eq!(code, 0, "{err}");
    assert!(ws.join("site/index.html").is_file());
    let (code, _, err) = smtcomp_in(&ws, &["report", "--date", "none", "-o", "../other"]);
    assert_eq!(code, 0, "{err}");
    assert!(tmp.join("other/index.html").is_file());
    let (code, _, err) = smtcomp_in(&tmp, &["report", "--date", "none"]);
    assert_eq!(code, 2);
    assert!(err.contains("--runs is required"), "{err}");

    // ingest: EXECDIR/results with its runs manifest into runs-ingested.jsonl.gz.
    let (code, out, err) = smtcomp_in(&ws, &["ingest", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(ws.join("runs-ingested.jsonl.gz").is_file(), "{out}");
    let (code, _, err) = smtcomp_in(&tmp, &["ingest", "--quiet"]);
    assert_eq!(code, 2);
    assert!(err.contains("<RESULTS>... is required"), "{err}");

    // generate: the workspace's submissions and prepared/ into its execdir.
    std::fs::remove_dir_all(ws.join("exec")).unwrap();
    let gen_args = ["generate", "--solvers-on-path", "--no-binary-check"];
    let (code, _, err) = smtcomp_in(&ws, &gen_args);
    assert_eq!(code, 0, "{err}");
    assert!(ws.join("exec/manifest.json").is_file());
    let (code, _, err) = smtcomp_in(&ws, &[&gen_args[..], &["-o", "../exec2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(tmp.join("exec2/manifest.json").is_file());
    let (code, _, err) = smtcomp_in(&tmp, &gen_args);
    assert_eq!(code, 2);
    assert!(err.contains("--submissions is required"), "{err}");
}

/// Every file below `dir` (relative path -> bytes), to compare two outputs.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                files.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// A workspace (2025 definition, the demo's z3 and Yices 2 submissions) whose
/// `runs-ingested.jsonl.gz` holds z3's real unsat cores on two prepared Unsat
/// Core benchmarks and both solvers' (sound) Single Query answers on them.
fn core_workspace(tmp: &Path) -> std::path::PathBuf {
    use crate::support::solvers::run_solver;
    use crate::support::validate::{answer_of, corpus_files, prepare, record};
    use smtcomp::ingest::{RunAnswer, TableIdentity, parse_unsat_core, write_jsonl};
    use smtcomp::model::{Competition, Status, Track};
    let ws = inputs(tmp);
    std::fs::write(
        ws.join("smtcomp.toml"),
        "year = 2025\nsubmissions = \"submissions\"\nlibrary = \"library\"\n",
    )
    .unwrap();
    let files: Vec<_> = corpus_files(&["QF_UF", "QF_LRA"], Status::Unsat)
        .into_iter()
        .take(2)
        .collect();
    let prepared = ws.join("prepared");
    let set = prepare(Track::UnsatCore, &files, &prepared);
    let uc_dir = smtcomp::prepare::PreparedSet::track_dir(&prepared, Track::UnsatCore);
    let mut runs = Vec::new();
    for b in &set.benchmarks {
        let (out, _) = run_solver("z3 -smt2", &uc_dir.join(&b.path));
        let mut r = record(Track::UnsatCore, "z3", b, answer_of(&out));
        let after = out.find('\n').map_or("", |i| &out[i + 1..]);
        r.unsat_core = parse_unsat_core(after.as_bytes()).unwrap();
        assert!(r.unsat_core.is_some(), "z3 gave no core: {out}");
        runs.push(r);
        for s in ["z3", "Yices 2"] {
            runs.push(record(Track::SingleQuery, s, b, RunAnswer::Unsat));
        }
    }
    let comp = Competition::builtin(2025).unwrap();
    write_jsonl(
        &ws.join("runs-ingested.jsonl.gz"),
        Some(&TableIdentity::of(&comp)),
        &runs,
    )
    .unwrap();
    ws
}

#[test]
fn validate_cores_take_the_workspace_paths_and_give_what_the_flags_give_outside() {
    if !crate::support::solvers::require_tools(&["z3", "yices-smt2"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let ws = core_workspace(&tmp);
    let ingested = ws.join("runs-ingested.jsonl.gz");
    let core = ws.join("exec/core-validation");
    let (ingested_s, core_s) = (ingested.to_str().unwrap(), core.to_str().unwrap());
    let prepared = ws.join("prepared");
    let subs = ws.join("submissions");

    // generate: the ingested runs and prepared/ into EXECDIR/core-validation.
    let (code, inside, err) = smtcomp_in(&ws, &["validate-cores", "generate"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        inside,
        format!(
            "2 runs with a core, 2 benchmarks, 2 validation tasks (0 without validators) in {}/unsat-core-validation\n",
            core.display()
        )
    );
    let written = tree(&core);
    std::fs::remove_dir_all(&core).unwrap();
    let flags = [
        "--year",
        "2025",
        "validate-cores",
        "generate",
        "--runs",
        ingested_s,
        "--prepared",
        prepared.to_str().unwrap(),
        "--exec",
        core_s,
    ];
    let (code, outside, err) = smtcomp_in(&tmp, &flags);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inside, outside);
    assert_eq!(written, tree(&core), "the written tasks differ");

    // run: the workspace's submissions run the validators (z3, Yices 2: 2 x 2 runs).
    let (code, inside, err) = smtcomp_in(&ws, &["validate-cores", "run"]);
    assert_eq!(code, 0, "{err}");
    let local_runs = core.join("unsat-core-validation/local-runs.jsonl");
    assert_eq!(
        inside,
        format!("4 validation runs (unsat 4) -> {}\n", local_runs.display())
    );
    let (code, outside, err) = smtcomp_in(
        &tmp,
        &[
            "--year",
            "2025",
            "validate-cores",
            "run",
            "--exec",
            core_s,
            "--submissions",
            subs.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(inside, outside);

    // join: from the ingested table (a runs.jsonl.gz older than it is stale,
    // not read) into runs.jsonl.gz.
    let validated = ws.join("runs.jsonl.gz");
    std::fs::write(&validated, "stale, unreadable").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&validated)
        .unwrap()
        .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1000))
        .unwrap();
    let (code, inside, err) = smtcomp_in(&ws, &["validate-cores", "join"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        inside,
        "cores: validated 2 (4 validation runs, 0 unmatched)\n"
    );
    let joined = tmp.join("joined.jsonl.gz");
    let (code, outside, err) = smtcomp_in(
        &tmp,
        &[
            "--year",
            "2025",
            "validate-cores",
            "join",
            "--runs",
            ingested_s,
            "--exec",
            core_s,
            "-o",
            joined.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(inside, outside);
    assert_eq!(
        std::fs::read(&validated).unwrap(),
        std::fs::read(&joined).unwrap()
    );
    // Again: runs.jsonl.gz is now the newer table, rewritten in place, unchanged.
    let (code, again, err) = smtcomp_in(&ws, &["validate-cores", "join"]);
    assert_eq!((code, again), (0, inside), "{err}");
    assert_eq!(
        std::fs::read(&validated).unwrap(),
        std::fs::read(&joined).unwrap()
    );

    // Outside a workspace the paths stay required: a usage error naming the flag.
    for (args, flag) in [
        (&["validate-cores", "generate"][..], "--runs <FILE>"),
        (
            &["validate-cores", "generate", "--runs", "r"][..],
            "--prepared <DIR>",
        ),
        (
            &[
                "validate-cores",
                "generate",
                "--runs",
                "r",
                "--prepared",
                "p",
            ][..],
            "--exec <DIR>",
        ),
        (&["validate-cores", "run"][..], "--exec <DIR>"),
        (&["validate-cores", "join"][..], "--runs <FILE>"),
        (
            &["validate-cores", "join", "--runs", "r"][..],
            "--exec <DIR>",
        ),
        (&["validate-models"][..], "--runs <FILE>"),
        (&["validate-models", "--runs", "r"][..], "--prepared <DIR>"),
    ] {
        let (code, _, err) = smtcomp_in(&tmp, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let name = flag.split(' ').next().unwrap();
        let want =
            format!("error: {name} is required ({flag}, or run in a workspace: `smtcomp init`)");
        assert!(err.contains(&want), "{args:?}: {err}");
    }
}

/// `text` without the timing of the `validate-models` summary (`, 0.12 s`).
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match l.rfind(", ") {
            Some(i) if l.ends_with(" s") => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn validate_models_takes_the_workspace_paths_and_gives_what_the_flags_give_outside() {
    if !crate::support::solvers::require_tools(&["z3"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let ws = demo_workspace(&tmp);
    // The demo's ingested table is `runs.jsonl.gz`: the step reads and rewrites it.
    let runs = ws.join("runs.jsonl.gz");
    let pristine = tmp.join("pristine.jsonl.gz");
    std::fs::copy(&runs, &pristine).unwrap();
    let cache = ws.join("model-cache");
    let (code, inside, err) = smtcomp_in(&ws, &["validate-models"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        inside.starts_with("models: 2 validated: VALID 2 (sat 2); 0 from the cache, 2 checked, "),
        "{inside}"
    );
    assert!(cache.is_dir(), "the workspace's model-cache/");
    std::fs::remove_dir_all(&cache).unwrap();
    let out = tmp.join("models.jsonl.gz");
    let comp = root().join("demo/competition.toml");
    let (code, outside, err) = smtcomp_in(
        &tmp,
        &[
            "--competition",
            comp.to_str().unwrap(),
            "validate-models",
            "--runs",
            pristine.to_str().unwrap(),
            "--prepared",
            ws.join("prepared").to_str().unwrap(),
            "--logs",
            ws.join("exec/results").to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(untimed(&inside), untimed(&outside));
    assert_eq!(std::fs::read(&runs).unwrap(), std::fs::read(&out).unwrap());
}

/// The stage cache knows the build: a stage done by one `smtcomp` is redone
/// by another build (here: the same program with one byte appended, a
/// different executable), and reused by that build afterwards.
#[test]
fn another_build_redoes_the_stages_of_the_cache() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let ws = qf_lia_workspace(tmp.path(), &[]);
    let build = |name: &str, extra: &[u8]| {
        let p = tmp.path().join(name);
        let mut bytes = std::fs::read(crate::support::smtcomp_bin()).unwrap();
        bytes.extend_from_slice(extra);
        std::fs::write(&p, bytes).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    };
    let (a, b) = (build("smtcomp-a", b""), build("smtcomp-b", b"\0"));
    let inventory = |exe: &Path| {
        let o = Command::new(exe)
            .args(["run", "--until", "inventory"])
            .current_dir(&ws)
            .env_remove("SMTCOMP_WORKSPACE")
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(0), "{out}");
        let line = out
            .lines()
            .find(|l| l.starts_with("inventory "))
            .unwrap()
            .to_string();
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    assert_eq!(inventory(&a), "done");
    assert_eq!(inventory(&a), "resumed");
    assert_eq!(inventory(&b), "done", "another build reused the stage");
    assert_eq!(inventory(&b), "resumed");
}

/// `smtcomp run --test`: the organizers' test run through the same stages,
/// in its own directories (`test-run/`), with the test limits; the
/// competition's own stages and files are untouched.
#[test]
fn the_test_run_has_its_own_directories_and_the_test_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = qf_lia_workspace(tmp.path(), &["--track", "SingleQuery"]);
    let (code, out, err) = smtcomp_in(&ws, &["run", "--test", "--until", "generation"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("every stage up to generation done (--until)"),
        "{out}"
    );
    assert!(out.contains("seed 1;"), "{out}");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.join("exec/test-run/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["test"], true);
    let defs = manifest["definitions"].as_object().unwrap();
    assert!(!defs.is_empty());
    for d in defs.values() {
        assert_eq!(d["limits"]["time_s"], 5, "{d}");
        assert_eq!(d["limits"]["memory_mb"], 1000, "{d}");
    }
    assert!(ws.join("test-run/selection-sq.json").is_file());
    assert!(
        !ws.join("selection-sq.json").exists(),
        "the competition's selection written"
    );
    assert!(
        !ws.join("exec/manifest.json").exists(),
        "the competition's generation written"
    );
}

/// `smtcomp init` of a workspace `base/ws` (the demo definition, z3 and Yices
/// 2, two QF_LIA benchmarks of the corpus as its library) with `more` flags.
fn qf_lia_workspace(base: &Path, more: &[&str]) -> std::path::PathBuf {
    let ws = inputs(base);
    std::fs::create_dir_all(ws.join("library/non-incremental/QF_LIA")).unwrap();
    for f in [
        "CVC4-1.8_test_regress_regress0_bug383.smt2",
        "CVC4-1.8_test_regress_regress1_simplification_bug4.smt2",
    ] {
        std::fs::copy(
            root().join("corpus/single/QF_LIA").join(f),
            ws.join("library/non-incremental/QF_LIA").join(f),
        )
        .unwrap();
    }
    let mut args = vec![
        "init",
        "ws",
        "--competition",
        "ws/competition.toml",
        "--submissions",
        "ws/submissions",
        "--library",
        "ws/library",
    ];
    args.extend_from_slice(more);
    let (code, out, err) = smtcomp_in(base, &args);
    assert_eq!(code, 0, "{out}{err}");
    ws
}

/// A command that names a file of the solver's archive (`./bin/s`) needs the
/// unpacked archive: without it the generation stage fails naming every
/// missing binary and `smtcomp archives fetch`, not every run later. With an
/// `archives` directory a bare name (`z3`) is a file of the archive too, not
/// a binary from PATH, unless `solvers_on_path = true` says so.
#[test]
fn solver_binaries_are_checked_at_generation_and_path_is_used_only_when_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = inputs(tmp.path());
    let lib = ws.join("library/non-incremental/QF_LIA");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::copy(
        root().join("corpus/single/QF_LIA/CVC4-1.8_test_regress_regress0_bug383.smt2"),
        lib.join("a.smt2"),
    )
    .unwrap();
    // Two teams, Single Query QF_LIA only.
    for (file, name, author) in [("z3.json", "z3", "A"), ("yices.json", "Yices 2", "B")] {
        let p = ws.join("submissions").join(file);
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        v["name"] = name.into();
        v["contributors"] = serde_json::json!([author]);
        v["participations"] =
            serde_json::json!([{ "tracks": ["SingleQuery"], "logics": "QF_LIA" }]);
        if name == "z3" {
            v["command"] = serde_json::json!(["./bin/z3", "-smt2"]);
        }
        std::fs::write(&p, v.to_string()).unwrap();
    }
    let (code, out, err) = smtcomp_in(
        tmp.path(),
        &[
            "init",
            "ws",
            "--competition",
            "ws/competition.toml",
            "--submissions",
            "ws/submissions",
            "--library",
            "ws/library",
            "--track",
            "sq",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let run = || smtcomp_in(&ws, &["run", "--until", "generation"]);

    // No archives key, a relative command: generation fails with the fix.
    let (code, out, err) = run();
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("generation                   failed"), "{out}");
    assert!(
        out.contains("1 solver binary not found; the commands name files of the solvers' archives, and the workspace has no `archives` key: unpack them with `smtcomp archives fetch`"),
        "{out}"
    );
    assert!(
        out.contains("z3_QF_LinearIntArith.xml: solver binary archives/z3/bin/z3 not found"),
        "{out}"
    );

    // An archives directory (empty): the bare `yices-smt2` is a file of
    // Yices' archive now, and missing too.
    std::fs::create_dir_all(ws.join("archives")).unwrap();
    let toml = ws.join("smtcomp.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("# archives = \"archives\"", "archives = \"archives\""),
    )
    .unwrap();
    let (code, out, err) = run();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("2 solver binaries not found; put each solver's unpacked archive in "),
        "{out}"
    );
    assert!(
        out.contains("solver binary archives/Yices_2/yices-smt2 not found"),
        "{out}"
    );

    // The archive unpacked, and PATH allowed for bare names: generated.
    std::fs::create_dir_all(ws.join("archives/z3/bin")).unwrap();
    std::fs::write(ws.join("archives/z3/bin/z3"), "#!/bin/sh\necho unknown\n").unwrap();
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("# solvers_on_path = false", "solvers_on_path = true"),
    )
    .unwrap();
    let (code, out, err) = run();
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("generation                   done"), "{out}");

    // A submission that cannot be used fails the selection, its first user,
    // naming the command that lists every problem (the inventory is made).
    let p = ws.join("submissions/yices.json");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["seed"] = "x".into();
    std::fs::write(&p, v.to_string()).unwrap();
    let (code, out, err) = run();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        !out.contains("inventory                    failed"),
        "{out}"
    );
    assert!(
        out.contains("selection                    failed   the submissions cannot be used (`smtcomp submissions validate` lists every problem): ")
            && out.contains("$.seed"),
        "{out}"
    );
}
