//! Hostile inputs to `smtcomp ingest`, each from a minimal input built here
//! (docs/reliability.md lists them): deep statuses, bombs (huge elements,
//! huge attributes, huge logs), malformed structure, symbolic links, false
//! duplicate-file claims, log names escaping the results directory, absurd
//! times, empty inputs. Bad input never panics, never hangs and is never
//! dropped silently.

use assert_cmd::Command;
use smtcomp::formats::runtable::RunAnswer;
use smtcomp::ingest::{
    IngestOptions, IngestRecord, Ingested, LogText, MAX_ATTRIBUTE_BYTES, MAX_LOG_READ_BYTES,
    discover, ingest, ingest_to_file, interpret,
};
use smtcomp::model::{Competition, Track};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The BenchExec file prefix of the fixtures.
pub const PREFIX: &str = "fx.2025-06-01_12-00-00";

/// A run element: `name`, then `(title, value)` columns.
pub fn run_xml(name: &str, cols: &[(&str, &str)]) -> String {
    let mut s = format!("<run name=\"{name}\">");
    for (t, v) in cols {
        s.push_str(&format!("<column title=\"{t}\" value=\"{v}\"/>"));
    }
    s.push_str("</run>\n");
    s
}

/// A finished run: status, category, times.
pub fn ok_run(name: &str, status: &str) -> String {
    run_xml(
        name,
        &[
            ("status", status),
            ("category", "correct"),
            ("cputime", "1.5s"),
            ("walltime", "1.6s"),
        ],
    )
}

/// Writes `<dir>/<PREFIX>.results.<rundef>[.<block>].xml` with the given
/// root attributes and body; returns its path.
pub fn write_result(dir: &Path, rundef: &str, block: Option<&str>, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let name = match block {
        Some(b) => format!("{rundef}.{b}"),
        None => rundef.to_string(),
    };
    let block_attr = block.map_or(String::new(), |b| format!(" block=\"{b}\""));
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<result benchmarkname=\"fx\" name=\"{name}\"{block_attr} tool=\"fx\">\n{body}</result>\n"
    );
    let path = dir.join(format!("{PREFIX}.results.{name}.xml"));
    std::fs::write(&path, xml).unwrap();
    path
}

/// Writes the log ZIP of the fixtures with `(file name, content)` members
/// (deflated).
pub fn write_logs(dir: &Path, members: &[(&str, &[u8])]) {
    let f = std::fs::File::create(dir.join(format!("{PREFIX}.logfiles.zip"))).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let o = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (name, content) in members {
        z.start_file(format!("{PREFIX}.logfiles/{name}"), o)
            .unwrap();
        z.write_all(content).unwrap();
    }
    z.finish().unwrap();
}

/// A BenchExec log: header, separator, then `output`.
pub fn log(output: &[u8]) -> Vec<u8> {
    let mut v = format!("fx-solver x.smt2\n\n\n{}\n\n\n", "-".repeat(80)).into_bytes();
    v.extend_from_slice(output);
    v
}

pub fn opts(comp: &Competition) -> IngestOptions<'_> {
    IngestOptions {
        competition: comp,
        manifest: None,
        progress: false,
    }
}

pub fn ingest_dir(dir: &Path) -> Ingested {
    let comp = Competition::builtin(2025).unwrap();
    ingest(&[dir.to_path_buf()], &opts(&comp))
}

fn record<'a>(got: &'a Ingested, task: &str) -> &'a IngestRecord {
    got.records
        .iter()
        .find(|r| r.task == task)
        .unwrap_or_else(|| panic!("no record for {task}: {:#?}", got.records))
}

/// Runs `f` on a thread with a small stack: a recursion over the input depth
/// would overflow it.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow, no panic")
}

#[test]
fn status_nested_10000_deep_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}true{}", "TIMEOUT (".repeat(10_000), ")".repeat(10_000));
    let it = small_stack(move || {
        interpret(
            Track::SingleQuery,
            Some(&deep),
            &LogText::Unavailable("no log".into()),
        )
    });
    assert_eq!(it.answer, Some(RunAnswer::Error), "{it:?}");
    let e = it.error.unwrap();
    assert!(
        e.starts_with("unrecognised BenchExec status 'TIMEOUT (TIMEOUT (")
            && e.ends_with("… (100004 bytes)' (longer than 4096 bytes)"),
        "{e}"
    );
    // Deep but short: the depth bound (the outer limits still say timeout).
    let deep = format!("{}true{}", "TIMEOUT (".repeat(400), ")".repeat(400));
    let it = small_stack(move || {
        interpret(
            Track::SingleQuery,
            Some(&deep),
            &LogText::Unavailable("no log".into()),
        )
    });
    assert_eq!(it.answer, Some(RunAnswer::Timeout), "{it:?}");
    // Through a whole file: the attribute is cut, the run is an error or a
    // timeout, never a crash.
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}true{}", "TIMEOUT (".repeat(10_000), ")".repeat(10_000));
    write_result(
        dir.path(),
        "s,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", &deep),
    );
    let d = dir.path().to_path_buf();
    let got = small_stack(move || ingest_dir(&d));
    let r = record(&got, "tasks/QF_BV/1_a.yml");
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("attribute column@value cut to 65536")),
        "{r:#?}"
    );
    // Shallow nesting still works as documented.
    let it = interpret(
        Track::SingleQuery,
        Some("TIMEOUT (TIMEOUT (TIMEOUT (TIMEOUT (true))))"),
        &LogText::Unavailable("no log".into()),
    );
    assert_eq!(it.answer, Some(RunAnswer::Timeout));
    let it = interpret(
        Track::SingleQuery,
        Some("TIMEOUT (true)"),
        &LogText::Unavailable("no log".into()),
    );
    assert_eq!(it.answer, Some(RunAnswer::Sat));
}

#[test]
fn huge_attribute_is_cut_and_noted() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(1 << 20);
    write_result(
        dir.path(),
        "s,0,SingleQuery",
        None,
        &(ok_run("tasks/QF_BV/1_a.yml", &big) + &ok_run("tasks/QF_BV/2_b.yml", "true")),
    );
    let got = ingest_dir(dir.path());
    assert_eq!(got.records.len(), 2);
    let r = record(&got, "tasks/QF_BV/1_a.yml");
    assert_eq!(r.answer, RunAnswer::Error);
    assert_eq!(r.status.as_ref().unwrap().len(), MAX_ATTRIBUTE_BYTES);
    assert!(
        r.notes
            .iter()
            .any(|n| n == "attribute column@value cut to 65536 of 1048576 bytes"),
        "{:?}",
        r.notes
    );
    assert!(r.error.as_ref().unwrap().len() < 1000, "{:?}", r.error);
    assert_eq!(record(&got, "tasks/QF_BV/2_b.yml").answer, RunAnswer::Sat);
}

#[test]
fn bz2_bomb_of_one_huge_element_makes_the_file_unreadable_not_big() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path()).unwrap();
    // 20 MB of one attribute value (the parser's element cap is 16 MiB),
    // compressed to a few kB, after one good run.
    let head = format!(
        "<?xml version=\"1.0\"?><result benchmarkname=\"fx\" name=\"s,0,SingleQuery\" tool=\"fx\">{}<run name=\"",
        ok_run("tasks/QF_BV/1_a.yml", "true")
    );
    let path = dir
        .path()
        .join(format!("{PREFIX}.results.s,0,SingleQuery.xml.bz2"));
    let f = std::fs::File::create(&path).unwrap();
    let mut w = bzip2::write::BzEncoder::new(f, bzip2::Compression::best());
    w.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..20 {
        w.write_all(&chunk).unwrap();
    }
    w.write_all(b"\"/></result>").unwrap();
    w.finish().unwrap();
    let got = ingest_dir(dir.path());
    assert_eq!(got.records.len(), 1);
    let f = &got.summary.files[0];
    assert_eq!(f.unreadable.len(), 1, "{f:?}");
    assert!(
        f.unreadable[0].contains("an element or text longer than 16777216 bytes")
            && f.unreadable[0].contains("(1 runs read before the error were kept)"),
        "{f:?}"
    );
}

fn uc_run(name: &str) -> String {
    ok_run(name, "false")
}

#[test]
fn core_log_of_open_parentheses_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let rundef = "s,0,UnsatCore";
    let mut two_m = b"unsat\n".to_vec();
    two_m.extend(std::iter::repeat_n(b'(', 2 << 20));
    // Longer than the log read cap: cut, and the core cannot be read.
    let mut huge = b"unsat\n".to_vec();
    huge.extend(std::iter::repeat_n(
        b'(',
        (MAX_LOG_READ_BYTES + (1 << 20)) as usize,
    ));
    let logs = [
        ("s,0,UnsatCore.1_a.yml.log", log(&two_m)),
        ("s,0,UnsatCore.2_b.yml.log", log(&huge)),
        ("s,0,UnsatCore.3_c.yml.log", log(b"unsat\n(a b |c d|)\n")),
    ];
    write_result(
        dir.path(),
        rundef,
        None,
        &(uc_run("tasks/QF_BV/1_a.yml")
            + &uc_run("tasks/QF_BV/2_b.yml")
            + &uc_run("tasks/QF_BV/3_c.yml")),
    );
    let members: Vec<(&str, &[u8])> = logs.iter().map(|(n, c)| (*n, c.as_slice())).collect();
    write_logs(dir.path(), &members);
    let d = dir.path().to_path_buf();
    let got = small_stack(move || ingest_dir(&d));
    assert!(!got.has_unreadable(), "{}", got.summary.render());
    let r = record(&got, "tasks/QF_BV/1_a.yml");
    assert_eq!(r.answer, RunAnswer::Error);
    assert_eq!(
        r.error.as_deref(),
        Some("unsat core: unbalanced parentheses")
    );
    let r = record(&got, "tasks/QF_BV/2_b.yml");
    assert_eq!(r.answer, RunAnswer::Error);
    assert!(
        r.error.as_deref().unwrap().contains("limit 16777216"),
        "{r:#?}"
    );
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("log cut: only the first 33554432 of")),
        "{r:#?}"
    );
    let r = record(&got, "tasks/QF_BV/3_c.yml");
    assert_eq!(r.answer, RunAnswer::Unsat);
    assert_eq!(r.unsat_core.as_ref().unwrap().names, ["a", "b", "c d"]);
}

#[test]
fn proof_log_of_millions_of_key_values_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let rundef = "s,0,ProofExhibition";
    let mut out = b"valid\n".to_vec();
    for i in 0..10_000_000u32 {
        out.extend_from_slice(format!("k{}=v\n", i % 10).as_bytes());
    }
    let logs = [("s,0,ProofExhibition.1_a.yml.log", log(&out))];
    write_result(
        dir.path(),
        rundef,
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "false"),
    );
    let members: Vec<(&str, &[u8])> = logs.iter().map(|(n, c)| (*n, c.as_slice())).collect();
    write_logs(dir.path(), &members);
    drop(logs);
    let got = ingest_dir(dir.path());
    let r = record(&got, "tasks/QF_BV/1_a.yml");
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("proof output cut: only the first 65536 of")),
        "{:?}",
        r.notes
    );
    assert!(r.notes.iter().any(|n| n.starts_with("log cut:")));
    let json = serde_json::to_string(r).unwrap();
    assert!(json.len() < 400_000, "record of {} bytes", json.len());
}

#[test]
fn run_inside_a_run_is_an_error_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{}<run name=\"tasks/QF_BV/2_outer.yml\"><column title=\"status\" value=\"true\"/>{}</run>",
        ok_run("tasks/QF_BV/1_a.yml", "true"),
        ok_run("tasks/QF_BV/3_inner.yml", "false")
    );
    write_result(dir.path(), "s,0,SingleQuery", None, &body);
    let got = ingest_dir(dir.path());
    assert!(got.has_unreadable());
    assert_eq!(got.records.len(), 1);
    let u = &got.summary.files[0].unreadable[0];
    assert!(
        u.contains("a <run> inside the <run> 'tasks/QF_BV/2_outer.yml'")
            && u.contains("(1 runs read before the error were kept)"),
        "{u}"
    );
}

#[test]
fn second_root_element_is_an_error_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_result(
        dir.path(),
        "s,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!(
        "<result benchmarkname=\"other\" name=\"t,0,SingleQuery\">{}</result>\n",
        ok_run("tasks/QF_BV/2_b.yml", "true")
    ));
    std::fs::write(&path, text).unwrap();
    let got = ingest_dir(dir.path());
    assert!(got.has_unreadable());
    assert_eq!(got.records.len(), 1);
    let u = &got.summary.files[0].unreadable[0];
    assert!(u.contains("a second root element <result>"), "{u}");
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_followed_inside_the_roots_and_reported_otherwise() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let real = results.join("a");
    write_result(
        &real,
        "s,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    let elsewhere = tmp.path().join("elsewhere");
    write_result(
        &elsewhere,
        "t,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    symlink(&real, results.join("b")).unwrap(); // inside: followed, same files
    symlink(&results, real.join("loop")).unwrap(); // a loop
    symlink(&elsewhere, results.join("out")).unwrap(); // outside the roots
    symlink(tmp.path().join("nothing"), results.join("dangling")).unwrap();
    let found = discover(std::slice::from_ref(&results));
    assert_eq!(found.inputs.len(), 1, "{found:?}");
    assert_eq!(found.warnings.len(), 1, "{found:?}");
    assert!(
        found.warnings[0].contains("the same file as a/"),
        "{found:?}"
    );
    let errs = found.errors.join("\n");
    assert!(errs.contains("symbolic link loop"), "{errs}");
    assert!(
        errs.contains("outside the given paths; not followed"),
        "{errs}"
    );
    assert!(errs.contains("dangling symbolic link"), "{errs}");
    // Given as a root, the other directory is inside: followed.
    let found = discover(&[results.clone(), elsewhere.clone()]);
    assert_eq!(found.inputs.len(), 2, "{found:?}");
    // A root that is itself a link is followed.
    let link_root = tmp.path().join("link-root");
    symlink(&elsewhere, &link_root).unwrap();
    let got = ingest_dir(&link_root);
    assert_eq!(got.records.len(), 1);
    assert!(!got.has_unreadable(), "{}", got.summary.render());
}

#[test]
fn per_task_set_file_is_dropped_only_when_its_runs_are_really_elsewhere() {
    // True claim: the per-task-set file's runs are in the per-rundefinition file.
    let dir = tempfile::tempdir().unwrap();
    let runs = ok_run("tasks/QF_BV/1_a.yml", "true") + &ok_run("tasks/QF_BV/2_b.yml", "false");
    write_result(dir.path(), "s,0,SingleQuery", None, &runs);
    write_result(
        dir.path(),
        "s,0,SingleQuery",
        Some("task"),
        &ok_run("tasks/QF_BV/2_b.yml", "false"),
    );
    let got = ingest_dir(dir.path());
    assert_eq!(got.records.len(), 2);
    assert!(
        got.summary
            .files
            .iter()
            .any(|f| f.warnings.iter().any(|w| w.contains("verified); skipped"))),
        "{}",
        got.summary.render()
    );
    // False claim: same rundefinition, other runs: kept, with a warning.
    let dir = tempfile::tempdir().unwrap();
    write_result(
        dir.path(),
        "s,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    write_result(
        dir.path(),
        "s,0,SingleQuery",
        Some("task"),
        &ok_run("tasks/QF_BV/2_b.yml", "false"),
    );
    let got = ingest_dir(dir.path());
    assert_eq!(got.records.len(), 2, "{}", got.summary.render());
    assert!(
        got.summary.files.iter().any(|f| f
            .warnings
            .iter()
            .any(|w| w.contains("1 of its 1 runs are not in"))),
        "{}",
        got.summary.render()
    );
}

#[test]
fn log_names_cannot_leave_the_results_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    // The rundefinition name climbs out of the log directory.
    let rundef = "../../s,0,SingleQuery";
    write_result(
        &results,
        "s,0,SingleQuery",
        None,
        &ok_run("tasks/QF_BV/1_a.yml", "true"),
    );
    // Rewrite the root name (the file name keeps a harmless rundefinition).
    let path = results.join(format!("{PREFIX}.results.s,0,SingleQuery.xml"));
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("name=\"s,0,SingleQuery\"", &format!("name=\"{rundef}\""));
    std::fs::write(&path, text).unwrap();
    std::fs::create_dir_all(results.join(format!("{PREFIX}.logfiles"))).unwrap();
    // What `<logfiles>/../../secret.1_a.yml.log` would reach.
    std::fs::write(
        tmp.path().join("s,0,SingleQuery.1_a.yml.log"),
        log(b"unsat\n"),
    )
    .unwrap();
    let got = ingest_dir(&results);
    let r = &got.records[0];
    assert_eq!(r.output_answer, None, "{r:#?}");
    assert_eq!(r.log, None);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("contains a path separator or is '..'; not read")),
        "{r:#?}"
    );
}

#[test]
fn negative_nan_and_absurd_times_are_errors_naming_file_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let bad = |name: &str, t: &str| {
        run_xml(
            name,
            &[
                ("status", "true"),
                ("category", "correct"),
                ("cputime", t),
                ("walltime", "1s"),
            ],
        )
    };
    let body = bad("tasks/QF_BV/1_neg.yml", "-1.0s")
        + &bad("tasks/QF_BV/2_nan.yml", "NaNs")
        + &bad("tasks/QF_BV/3_huge.yml", "1e300s")
        + &bad("tasks/QF_BV/4_inf.yml", "infs")
        + &bad("tasks/QF_BV/5_ok.yml", "0.25s");
    write_result(dir.path(), "s,0,SingleQuery", None, &body);
    let got = ingest_dir(dir.path());
    let file = format!("{PREFIX}.results.s,0,SingleQuery.xml");
    for (task, v) in [
        ("tasks/QF_BV/1_neg.yml", "-1.0s"),
        ("tasks/QF_BV/2_nan.yml", "NaNs"),
        ("tasks/QF_BV/3_huge.yml", "1e300s"),
        ("tasks/QF_BV/4_inf.yml", "infs"),
    ] {
        let r = record(&got, task);
        assert_eq!(r.answer, RunAnswer::Error, "{task}");
        assert_eq!(
            r.error.as_deref(),
            Some(
                format!(
                    "bad cputime value '{v}' in {file}, run '{task}' (not a time between 0 and 1000000 s)"
                )
                .as_str()
            )
        );
        assert_eq!(r.cputime, None);
    }
    let r = record(&got, "tasks/QF_BV/5_ok.yml");
    assert_eq!((r.answer, r.cputime), (RunAnswer::Sat, Some(0.25)));
}

#[test]
fn empty_input_is_an_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("README"), "not a result").unwrap();
    let out = tmp.path().join("runs.jsonl.gz");
    let a = Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["ingest", "--quiet", "-o"])
        .arg(&out)
        .arg(&empty)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        stderr.contains(
            "error: no result files (*.results.*.xml[.bz2|.gz], results*.json[.gz], results*.csv) found under"
        ) && stderr.contains("nothing written to"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["empty"], "no output and no temporary file");
    // The library says the same.
    let comp = Competition::builtin(2025).unwrap();
    let err = ingest_to_file(std::slice::from_ref(&empty), &opts(&comp), &out).unwrap_err();
    assert!(err.to_string().contains("no result files"), "{err}");
    assert!(!out.exists());
    let got = ingest(&[empty], &opts(&comp));
    assert!(got.has_unreadable());
    assert!(got.summary.input_errors[0].contains("no result files"));
}

#[test]
fn results_json_with_negative_time_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let row = |file: &str, cpu: f64| {
        serde_json::json!({
            "solver": "s", "track": "SingleQuery", "result": "sat",
            "cpu_time": cpu, "wallclock_time": 1.0, "memory_usage": 1.0,
            "file": {"incremental": false, "logic": "QF_BV", "family": ["f"], "name": file},
        })
    };
    let doc = serde_json::json!({"results": [row("a.smt2", -3.0), row("b.smt2", 2.0)]});
    std::fs::write(
        dir.path().join("results-sq.json"),
        serde_json::to_vec(&doc).unwrap(),
    )
    .unwrap();
    let got = ingest_dir(dir.path());
    assert!(!got.has_unreadable(), "{}", got.summary.render());
    let bad = got
        .records
        .iter()
        .find(|r| r.task.ends_with("a.smt2"))
        .unwrap();
    assert_eq!(bad.answer, RunAnswer::Error);
    assert!(
        bad.error
            .as_deref()
            .unwrap()
            .starts_with("bad cpu_time value -3 in results-sq.json"),
        "{bad:#?}"
    );
}

/// A `.xml.bz2` whose block fails its CRC (here its stored CRC altered, so the
/// block still decodes: a damaged block can decode to plausible XML with other
/// values) yields no run of that block: the file is unreadable with the
/// decoder's reason, and no record carries the block's values.
#[test]
fn a_block_failing_its_crc_gives_no_records() {
    let dir = tempfile::tempdir().unwrap();
    let xml = write_result(dir.path(), "s.a", None, &ok_run("t1.yml", "true"));
    let text = std::fs::read(&xml).unwrap();
    std::fs::remove_file(&xml).unwrap();
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    e.write_all(&text).unwrap();
    let mut bz = e.finish().unwrap();
    bz[10] ^= 1; // the block's stored CRC (bytes 10..14)
    let path = xml.with_file_name(format!(
        "{}.bz2",
        xml.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&path, bz).unwrap();
    let out = dir.path().join("runs.jsonl");
    let (code, stdout, stderr) = crate::support::smtcomp(&[
        "ingest",
        dir.path().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("CRC mismatch"), "{all}");
    assert!(
        all.contains("0 runs read before the error were kept"),
        "{all}"
    );
}
