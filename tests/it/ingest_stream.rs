//! The streaming ingestion (`ingest_to_file`: per-file sorted runs spilled to
//! disk, k-way merged) writes exactly the bytes of the in-memory path
//! (`ingest` + `write_jsonl`) and the same summary: on the fixtures (real and
//! broken, unreadable inputs included), on synthetic sets of many files with
//! several merge passes, with duplicate files and with equal sort keys. Its
//! temporary files are gone afterwards, also after an error.

use proptest::prelude::*;
use smtcomp::ingest::synth::{SynthSpec, generate};
use smtcomp::ingest::{
    IngestOptions, discover, ingest, ingest_inputs_to_file, ingest_to_file, write_jsonl,
};
use smtcomp::model::Competition;
use std::io::Read;
use std::path::{Path, PathBuf};

fn data(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ingest")
        .join(p)
}

fn opts(comp: &Competition) -> IngestOptions<'_> {
    IngestOptions {
        competition: comp,
        manifest: None,
        progress: false,
    }
}

/// The names in `dir`.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Both output forms: compressed and plain.
const BOTH: &[&str] = &["runs.jsonl.gz", "runs.jsonl"];

/// Ingests `roots` both ways (for each fan-in and each output name in `names`)
/// and checks bytes, summary and that only the outputs are left in the output
/// directory. Returns the number of records.
fn same_both_ways(roots: &[PathBuf], fan_ins: &[usize], names: &[&str]) -> u64 {
    let comp = Competition::builtin(2025).unwrap();
    let mem = ingest(roots, &opts(&comp));
    let out = tempfile::tempdir().unwrap();
    if discover(roots).inputs.is_empty() {
        // No result file at all: an error both ways, and nothing is written.
        assert!(mem.has_unreadable());
        let path = out.path().join("runs.jsonl.gz");
        let err = ingest_to_file(roots, &opts(&comp), &path).unwrap_err();
        assert!(err.to_string().contains("no result files"), "{err}");
        assert!(listing(out.path()).is_empty());
        return 0;
    }
    for name in names {
        let want = out.path().join(format!("mem-{name}"));
        write_jsonl(
            &want,
            Some(&smtcomp::ingest::TableIdentity::of(&comp)),
            &mem.records,
        )
        .unwrap();
        let want = std::fs::read(&want).unwrap();
        let got_path = out.path().join(name);
        let summary = ingest_to_file(roots, &opts(&comp), &got_path).unwrap();
        assert_eq!(summary, mem.summary);
        assert!(std::fs::read(&got_path).unwrap() == want, "{name} differs");
        let found = discover(roots);
        for &fan_in in fan_ins {
            let s = ingest_inputs_to_file(&found, &opts(&comp), &got_path, fan_in).unwrap();
            assert_eq!(s, mem.summary);
            assert!(
                std::fs::read(&got_path).unwrap() == want,
                "{name} differs with fan-in {fan_in}"
            );
        }
    }
    let mut left: Vec<String> = names
        .iter()
        .flat_map(|n| [format!("mem-{n}"), n.to_string()])
        .collect();
    left.sort();
    assert_eq!(listing(out.path()), left);
    mem.summary.records
}

#[test]
fn fixtures_stream_to_the_same_bytes_and_summary() {
    let results = crate::support::data::path("scoring/results-inc-2025.json.gz");
    for input in [data("real"), data("broken")] {
        assert!(
            same_both_ways(std::slice::from_ref(&input), &[2, 3], BOTH) > 0,
            "{}",
            input.display()
        );
    }
    // The organizers' results file (tens of thousands of runs): one output
    // form, one fan-in (the fixtures above cover the others).
    assert!(same_both_ways(std::slice::from_ref(&results), &[2], &BOTH[..1]) > 0);
    // Everything at once, with a missing input (an input error).
    let all = [data("real"), data("broken"), results, data("no-such-dir")];
    same_both_ways(&all, &[5], &BOTH[1..]);
}

#[test]
fn unreadable_inputs_have_the_same_accounting() {
    let comp = Competition::builtin(2025).unwrap();
    let roots = [
        data("broken/truncated"),
        data("broken/corruptzip"),
        data("no-such-dir"),
    ];
    let out = tempfile::tempdir().unwrap();
    let s = ingest_to_file(&roots, &opts(&comp), &out.path().join("r.jsonl.gz")).unwrap();
    assert!(s.has_unreadable());
    assert_eq!(s.input_errors.len(), 1, "{:?}", s.input_errors);
    assert!(s.files.iter().any(|f| !f.unreadable.is_empty()));
    assert_eq!(s, ingest(&roots, &opts(&comp)).summary);
    assert_eq!(s.render(), ingest(&roots, &opts(&comp)).summary.render());
}

#[test]
fn equal_sort_keys_keep_input_order() {
    // The same result directory under two roots: every record has a twin
    // with the same sort key (same relative source and task) but another
    // note (the absolute path of the missing log).
    let tmp = tempfile::tempdir().unwrap();
    let mut roots = Vec::new();
    for copy in ["a", "b"] {
        let dst = tmp.path().join(copy);
        std::fs::create_dir(&dst).unwrap();
        for e in std::fs::read_dir(data("broken/missinglog")).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
        }
        roots.push(dst);
    }
    let comp = Competition::builtin(2025).unwrap();
    let mem = ingest(&roots, &opts(&comp));
    let n = mem.records.len();
    assert!(n >= 2 && n % 2 == 0);
    assert_eq!(mem.records[0].sort_key(), mem.records[1].sort_key());
    assert_ne!(
        mem.records[0], mem.records[1],
        "twins must differ somewhere"
    );
    same_both_ways(&roots, &[2], BOTH);
}

/// Writes a per-rundefinition copy (no `block`) of a synthetic per-task-set
/// result file next to it, so the latter is skipped as a duplicate.
fn add_per_rundefinition_copy(xml_bz2: &Path) {
    let mut text = String::new();
    bzip2::read::BzDecoder::new(std::fs::File::open(xml_bz2).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let name = xml_bz2.file_name().unwrap().to_string_lossy();
    let whole_name = name.replace(".task.xml.bz2", ".xml");
    let text =
        text.replacen(" block=\"task\"", "", 1)
            .replacen(".task\" options=", "\" options=", 1);
    std::fs::write(xml_bz2.with_file_name(whole_name), text).unwrap();
}

fn synthetic(spec: &SynthSpec, duplicate: bool, fan_ins: &[usize]) {
    let comp = Competition::builtin(2025).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = generate(dir.path(), spec, &comp).unwrap();
    if duplicate && let Some(x) = out.xml_files.first() {
        add_per_rundefinition_copy(x);
    }
    let roots = [dir.path().to_path_buf()];
    let n = same_both_ways(&roots, fan_ins, BOTH);
    assert_eq!(n as usize, out.expected.len());
    if duplicate && !out.xml_files.is_empty() {
        let s = ingest(&roots, &opts(&comp)).summary;
        let skipped: Vec<_> = s.files.iter().filter(|f| !f.warnings.is_empty()).collect();
        assert_eq!(skipped.len(), 1, "{}", s.render());
        assert_eq!(skipped[0].records, 0);
    }
}

#[test]
fn many_files_stream_to_the_same_bytes() {
    let spec = SynthSpec {
        seed: 11,
        files: 40,
        runs_per_file: 30,
        log_padding: 50,
        bzip2_level: 1,
    };
    synthetic(&spec, false, &[2, 3, 7, 40, 1000]);
    synthetic(&spec, true, &[3]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
    #[test]
    fn random_sets_stream_to_the_same_bytes(
        seed in any::<u64>(), files in 0usize..12, runs in 0usize..20,
        fan_in in 2usize..6, duplicate in any::<bool>(),
    ) {
        synthetic(
            &SynthSpec { seed, files, runs_per_file: runs, log_padding: 10, bzip2_level: 1 },
            duplicate,
            &[fan_in],
        );
    }
}

#[test]
fn temporary_files_are_removed_after_an_error() {
    let comp = Competition::builtin(2025).unwrap();
    let out = tempfile::tempdir().unwrap();
    // The output is a non-empty directory: not a regular file, so it is opened
    // in place, which fails ("Is a directory") with the path named.
    let target = out.path().join("runs.jsonl.gz");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("x"), "x").unwrap();
    let err = ingest_to_file(&[data("real")], &opts(&comp), &target).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("runs.jsonl.gz: cannot create"), "{msg}");
    assert_eq!(listing(out.path()), ["runs.jsonl.gz"]);
    // The output directory does not exist: nothing is created.
    let missing = out.path().join("no/such/dir/runs.jsonl.gz");
    assert!(ingest_to_file(&[data("real")], &opts(&comp), &missing).is_err());
    assert_eq!(listing(out.path()), ["runs.jsonl.gz"]);
}

/// `-o /dev/null` (or a FIFO) must stream into the special file, never rename a
/// plain file over it (which once turned a test machine's /dev/null into a
/// regular file), and must not put spill files next to it.
#[test]
fn special_output_files_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let comp = Competition::builtin(2025).unwrap();
    let mem = ingest(&[data("real")], &opts(&comp));
    let dir = tempfile::tempdir().unwrap();
    let want = dir.path().join("want.jsonl.gz");
    write_jsonl(
        &want,
        Some(&smtcomp::ingest::TableIdentity::of(&comp)),
        &mem.records,
    )
    .unwrap();
    let fifo = dir.path().join("pipe.jsonl.gz");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).unwrap())
    };
    let summary = ingest_to_file(&[data("real")], &opts(&comp), &fifo).unwrap();
    assert_eq!(summary, mem.summary);
    assert!(reader.join().unwrap() == std::fs::read(&want).unwrap());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(listing(dir.path()), ["pipe.jsonl.gz", "want.jsonl.gz"]);
}
