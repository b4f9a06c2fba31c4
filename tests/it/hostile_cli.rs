//! Accounting and hostile inputs at the command line (issue 18), each from a
//! minimal input built here (docs/reliability.md, "entry points x hostile
//! classes"): a run table made under another competition definition, empty
//! inputs, `validate-models` without its logs, absurd validation time limits,
//! special files named `.smt2`. Every case exits 1 with a clear message and
//! writes no result file.

use crate::ingest_hostile::{ok_run, write_result};
use crate::support::smtcomp;
use smtcomp::formats::core_validation::{CoreManifest, CoreTask, MANIFEST, Producer};
use smtcomp::formats::runtable::{LogRef, ModelRef, RunAnswer};
use smtcomp::ingest::{IngestRecord, TableIdentity, read_table, write_jsonl};
use smtcomp::model::{Competition, Track};
use std::path::Path;

fn p(x: &Path) -> String {
    x.to_str().unwrap().to_string()
}

/// A Single Query run table of one record, with the given identity.
fn table(path: &Path, identity: Option<&TableIdentity>) {
    let mut r = IngestRecord::new("r.xml", "QF_UF/a.yml");
    r.track = Some(Track::SingleQuery);
    r.solver = "s".into();
    r.benchmark_key = "QF_UF/a.smt2".into();
    r.answer = RunAnswer::Sat;
    write_jsonl(path, identity, &[r]).unwrap();
}

/// `ingest --year 2023` records the 2023 identity; `score`, `report` and
/// `validate-models` under the default (2025) refuse the table naming both
/// definitions, exit 1, and write nothing. Under `--year 2023` the check
/// passes (the commands then fail later, on the missing inventory).
#[test]
fn a_table_made_under_another_definition_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    write_result(
        &results,
        "s.SingleQuery",
        None,
        &ok_run("QF_UF/a.yml", "true"),
    );
    let runs = tmp.path().join("runs.jsonl");
    let (code, out, err) = smtcomp(&[
        "--year",
        "2023",
        "ingest",
        &p(&results),
        "-o",
        &p(&runs),
        "--quiet",
    ]);
    assert!(code <= 1, "{out}{err}");
    let (identity, records) = read_table(&runs).unwrap();
    assert_eq!(records.len(), 1);
    let want = TableIdentity::of(&Competition::builtin(2023).unwrap());
    assert_eq!(identity.as_ref(), Some(&want));
    // The header is the table's first line.
    let first = std::fs::read_to_string(&runs).unwrap();
    assert!(
        first.starts_with("{\"run_table\":{\"competition\":\"SMT-COMP 2023\",\"year\":2023,"),
        "{first}"
    );

    let out_file = tmp.path().join("scores.md");
    let refused = |args: &[&str]| {
        let (code, out, err) = smtcomp(args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains("run table made under a different competition definition than the one in use (built-in 2025): table `SMT-COMP 2023` (year 2023) vs `SMT-COMP 2025` (year 2025); give the definition it was made under with --competition FILE or --year YEAR"),
            "{args:?}: {err}"
        );
    };
    let r = p(&runs);
    let o = p(&out_file);
    let score = [
        "score",
        "--track",
        "SingleQuery",
        "--runs",
        &r,
        "--inventory",
        "none.json",
        "--submissions",
        "none",
        "-o",
        &o,
    ];
    refused(&score);
    refused(&[
        "report",
        "--track",
        "SingleQuery",
        "--runs",
        &r,
        "--inventory",
        "none.json",
        "--submissions",
        "none",
        "-o",
        &o,
    ]);
    refused(&["validate-models", "--runs", &r, "--prepared", "none"]);
    refused(&["validate-cores", "join", "--runs", &r, "--exec", "none"]);
    assert!(!out_file.exists());
    // The table is untouched (validate-* rewrite it in place on success).
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), first);

    // Under the right definition the identity check passes.
    let mut with_year = vec!["--year", "2023"];
    with_year.extend_from_slice(&score);
    let (code, _, err) = smtcomp(&with_year);
    assert_eq!(code, 1);
    assert!(!err.contains("different competition definition"), "{err}");
    assert!(err.contains("none.json"), "{err}");
}

/// A table written before identities were recorded is read as made under
/// the definition in use, with a warning naming the file.
#[test]
fn a_table_without_identity_is_read_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("old.jsonl");
    table(&runs, None);
    let (code, _, err) = smtcomp(&[
        "score",
        "--track",
        "SingleQuery",
        "--runs",
        &p(&runs),
        "--inventory",
        "none.json",
        "--submissions",
        "none",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "warning: {}: run table without competition identity (written by an older smtcomp); read as made under `SMT-COMP 2025` (built-in 2025)",
            runs.display()
        )),
        "{err}"
    );
}

/// Empty inputs are errors, not empty successes: a table without runs of the
/// scored track, a directory without submissions, a library without
/// benchmarks. Nothing is written.
#[test]
fn empty_inputs_are_errors_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let comp = Competition::builtin(2025).unwrap();
    let runs = dir.join("runs.jsonl");
    table(&runs, Some(&TableIdentity::of(&comp)));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out_file = dir.join("out");
    let inventory = dir.join("inventory.json");
    smtcomp::benchmarks::Inventory::default()
        .write(&inventory)
        .unwrap();
    let (code, _, err) = smtcomp(&[
        "score",
        "--track",
        "Incremental",
        "--runs",
        &p(&runs),
        "--inventory",
        &p(&inventory),
        "--submissions",
        &p(&crate::support::data::path("submissions-2025")),
        "-o",
        &p(&out_file),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "no runs of track Incremental in {}; nothing written",
            runs.display()
        )),
        "{err}"
    );
    for sub in [
        vec!["generate", "--prepared", "none", "--out"],
        vec!["join", "--exec"],
    ] {
        let mut args = vec!["validate-cores"];
        args.extend(sub);
        let o = p(&out_file);
        let r = p(&runs);
        args.extend([o.as_str(), "--runs", r.as_str()]);
        let (code, _, err) = smtcomp(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{}: no Unsat-Core runs; nothing written",
                runs.display()
            )),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = smtcomp(&["submissions", "validate", &p(&empty)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("no submission files found in {}", empty.display())),
        "{err}"
    );
    let (code, _, err) = smtcomp(&["submissions", "show", &p(&empty)]);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = smtcomp(&["benchmarks", "scan", &p(&empty), "-o", &p(&out_file)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{}: no readable .smt2 benchmark found (0 unreadable); nothing written to {}",
            empty.display(),
            out_file.display()
        )),
        "{err}"
    );
    assert!(!out_file.exists());
    // select on an empty inventory: nothing selected is an error, nothing written.
    let (code, _, err) = smtcomp(&[
        "select",
        "SingleQuery",
        "--inventory",
        &p(&inventory),
        "--seed",
        "1",
        "-o",
        &p(&out_file),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{}: no benchmark of track SingleQuery selected (an empty inventory, none of its logics, or no competitive division entered); nothing written",
            inventory.display()
        )),
        "{err}"
    );
    assert!(!out_file.exists());
    // prepare of an empty selection: an error, nothing prepared.
    let selection = dir.join("selection.json");
    let empty_selection = smtcomp::select::Selection {
        track: Track::SingleQuery,
        year: 2025,
        seed: 1,
        notes: Vec::new(),
        logics: Default::default(),
        benchmarks: Vec::new(),
    };
    std::fs::write(&selection, serde_json::to_string(&empty_selection).unwrap()).unwrap();
    let (code, _, err) = smtcomp(&[
        "prepare",
        "SingleQuery",
        "--selection",
        &p(&selection),
        "--library",
        &p(&empty),
        "--out",
        &p(&out_file),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{}: the selection holds no benchmark; nothing prepared",
            selection.display()
        )),
        "{err}"
    );
    assert!(!out_file.exists());
}

/// `validate-models` whose logs are not where the table says (no `--logs`,
/// the table moved away from the results): an error naming the directory and
/// an archive, exit 1, the table not rewritten. (It used to mark every model
/// UNKNOWN and write that.)
#[test]
fn validate_models_without_its_logs_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let comp = Competition::builtin(2025).unwrap();
    let runs = tmp.path().join("mv.jsonl");
    let mut r = IngestRecord::new("r.xml", "QF_UF/a.yml");
    r.track = Some(Track::ModelValidation);
    r.solver = "s".into();
    r.benchmark_key = "QF_UF/a.smt2".into();
    r.answer = RunAnswer::Sat;
    r.model = Some(ModelRef {
        log: LogRef {
            archive: "results/s.logfiles.zip".into(),
            member: "s.logfiles/a.yml.log".into(),
        },
        start: 0,
        end: 10,
    });
    write_jsonl(&runs, Some(&TableIdentity::of(&comp)), &[r]).unwrap();
    let before = std::fs::read(&runs).unwrap();
    let (code, out, err) = smtcomp(&["validate-models", "--runs", &p(&runs), "--prepared", "none"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!(
            "{}: 1 of 1 log archive(s) of the models are not there (e.g. results/s.logfiles.zip); give the directory that was ingested with --logs DIR (default: the run table's directory); nothing written to {}",
            tmp.path().display(),
            runs.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read(&runs).unwrap(), before);
    // A table without Model-Validation runs is an error too.
    table(&runs, Some(&TableIdentity::of(&comp)));
    let (code, _, err) = smtcomp(&["validate-models", "--runs", &p(&runs), "--prepared", "none"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no Model-Validation runs; nothing written"),
        "{err}"
    );
}

/// `validate-cores run` with a task time limit of 1e30 s (a hand-edited
/// manifest; `generate` clamps a producing time of 1e300 s to one year):
/// no panic, the task is an error record saying why, exit 1.
#[test]
fn absurd_validation_time_limits_do_not_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let exec = tmp.path();
    let task = |file: &str, time_limit: f64| CoreTask {
        file: file.into(),
        benchmark: "QF_UF/a.smt2".into(),
        logic: None,
        division: None,
        core: vec!["smtcomp1".into()],
        unknown_names: Vec::new(),
        producers: vec![Producer {
            solver: "s".into(),
            participation: None,
            source: "r.xml".into(),
            task: "QF_UF/a.yml".into(),
            time: Some(1e300),
        }],
        time_limit,
        validators: vec!["v".into()],
    };
    let manifest = CoreManifest {
        validator_selection: "given".into(),
        time_limit_policy: "fixed".into(),
        tasks: vec![task("huge.smt2", 1e30), task("nan.smt2", f64::MAX)],
    };
    let dir = CoreManifest::dir(exec);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(MANIFEST),
        serde_json::to_string(&manifest).unwrap(),
    )
    .unwrap();
    let (code, out, err) = smtcomp(&[
        "validate-cores",
        "run",
        "--exec",
        &p(exec),
        "--solver",
        "v=true",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.contains("problem: v on huge.smt2: time limit 1000000000000000000000000000000 s of huge.smt2 is not a number of seconds above 0 and at most 31536000 (one year); not run"),
        "{out}"
    );
    assert!(out.contains("problem: v on nan.smt2: time limit "), "{out}");
}

/// FIFOs and devices named `.smt2` are listed as unreadable (never opened:
/// opening a FIFO waits for a writer), next to the readable benchmark.
#[test]
fn special_files_named_smt2_are_listed_not_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let logic = tmp.path().join("non-incremental/QF_UF/f");
    std::fs::create_dir_all(&logic).unwrap();
    std::fs::write(logic.join("ok.smt2"), "(set-logic QF_UF)\n(check-sat)\n").unwrap();
    let fifo = logic.join("pipe.smt2");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink("/dev/null", logic.join("null.smt2")).unwrap();
    let comp = Competition::builtin(2025).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let root = tmp.path().to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(smtcomp::benchmarks::scan(&root, &comp, 2));
    });
    let inv = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("hang watchdog: scanning a FIFO named .smt2 took over 60 s");
    assert_eq!(inv.non_incremental.len(), 1);
    let errors: Vec<(String, String)> = inv
        .errors
        .iter()
        .map(|e| (e.path.clone(), e.reason.clone()))
        .collect();
    assert_eq!(
        errors,
        [
            (
                "non-incremental/QF_UF/f/null.smt2".to_string(),
                "not a regular file (character device); not read".to_string()
            ),
            (
                "non-incremental/QF_UF/f/pipe.smt2".to_string(),
                "not a regular file (FIFO); not read".to_string()
            ),
        ]
    );
}

/// `/dev/zero` (or any huge file) given as a competition definition or a
/// submission is refused at a size cap, never read until memory runs out.
#[test]
fn a_device_as_competition_or_submission_is_refused_at_a_cap() {
    let (code, _, err) = smtcomp(&["--competition", "/dev/zero", "competition", "show"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("/dev/zero: cannot read competition file: larger than 16777216 bytes"),
        "{err}"
    );
    let (code, out, err) = smtcomp(&["submissions", "validate", "/dev/zero"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}")
            .contains("/dev/zero: $: error: cannot read file: larger than 4194304 bytes"),
        "{out}{err}"
    );
}
