//! Property tests of ingestion's readers on arbitrary and mutated input: the
//! result-XML reader, log-ZIP access and results JSON. No panic, bounded
//! time, and every run is accounted for: runs read = records written, and a
//! run that was in the input but not read means the file is reported.

use crate::ingest_hostile::{PREFIX, ingest_dir, log, ok_run, write_logs, write_result};
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Generous: a case takes milliseconds; a hang or a quadratic blow-up fails.
const CASE_TIME: Duration = Duration::from_secs(20);

const TASKS: [&str; 3] = [
    "tasks/QF_BV/1_a.yml",
    "tasks/QF_BV/2_b.yml",
    "tasks/QF_BV/3_c.yml",
];

fn document() -> String {
    let body: String = TASKS
        .iter()
        .zip(["true", "false", "TIMEOUT (true)"])
        .map(|(t, s)| ok_run(t, s))
        .collect();
    format!(
        "<?xml version=\"1.0\"?>\n<result benchmarkname=\"fx\" name=\"s,0,SingleQuery\" tool=\"fx\">\n{body}</result>\n"
    )
}

fn xml_name() -> String {
    format!("{PREFIX}.results.s,0,SingleQuery.xml")
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Cut(usize),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pieces = prop_oneof![
        Just(b"<run name=\"x\">".to_vec()),
        Just(b"</run>".to_vec()),
        Just(b"<result>".to_vec()),
        Just(b"</result>".to_vec()),
        Just(b"<column title=\"status\" value=\"TIMEOUT (TIMEOUT (".to_vec()),
        Just(b"&#0;&bogus;<![CDATA[".to_vec()),
        prop::collection::vec(any::<u8>(), 0..16),
    ];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        any::<usize>().prop_map(Mutation::Cut),
        (any::<usize>(), pieces).prop_map(|(i, p)| Mutation::Insert(i, p)),
        (any::<usize>(), 0usize..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 0usize..200).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn apply(doc: &mut Vec<u8>, m: &Mutation) {
    let len = doc.len();
    // An earlier cut can leave nothing: only an insertion applies then (the
    // positions are taken modulo the length; found by `scripts/fuzz`).
    if len == 0 && !matches!(m, Mutation::Insert(..)) {
        return;
    }
    match m {
        Mutation::Flip(i, b) => doc[i % len] ^= b | 1,
        Mutation::Cut(i) => doc.truncate(i % len),
        Mutation::Insert(i, p) => {
            let at = i % (len + 1);
            doc.splice(at..at, p.iter().copied());
        }
        Mutation::Delete(i, n) => {
            let at = i % len;
            let end = (at + n).min(len);
            doc.drain(at..end);
        }
        Mutation::Duplicate(i, n) => {
            let at = i % len;
            let end = (at + n).min(len);
            let piece = doc[at..end].to_vec();
            doc.splice(end..end, piece);
        }
    }
}

fn check_accounting(got: &smtcomp::ingest::Ingested) {
    let files = &got.summary.files;
    let runs: u64 = files.iter().map(|f| f.runs).sum();
    let records: u64 = files.iter().map(|f| f.records).sum();
    assert_eq!(runs, records, "{}", got.summary.render());
    assert_eq!(records, got.records.len() as u64);
    assert_eq!(got.summary.records, records);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::fuzz_cases(48), ..ProptestConfig::default() })]

    /// Mutated result XML: no panic, bounded time, runs read = records, and
    /// fewer runs than the document had only with a reported problem or a
    /// mutation that changed the runs themselves.
    #[test]
    fn mutated_result_xml(muts in prop::collection::vec(mutation(), 1..4), bz2 in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let mut doc = document().into_bytes();
        for m in &muts {
            apply(&mut doc, m);
        }
        let path = dir.path().join(xml_name());
        if bz2 {
            use std::io::Write;
            let mut w = bzip2::write::BzEncoder::new(
                std::fs::File::create(path.with_extension("xml.bz2")).unwrap(),
                bzip2::Compression::fast(),
            );
            w.write_all(&doc).unwrap();
            w.finish().unwrap();
        } else {
            std::fs::write(&path, &doc).unwrap();
        }
        let t = Instant::now();
        let got = ingest_dir(dir.path());
        prop_assert!(t.elapsed() < CASE_TIME);
        check_accounting(&got);
        // A cut inside the document (before the end of the root) is reported.
        if let [Mutation::Cut(i)] = muts.as_slice() {
            let at = i % document().len();
            if at < document().find("</result>").unwrap() {
                prop_assert!(got.has_unreadable(), "{}", got.summary.render());
            }
        }
    }

    /// Arbitrary bytes as a result XML.
    #[test]
    fn arbitrary_result_xml(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(xml_name()), &bytes).unwrap();
        let t = Instant::now();
        let got = ingest_dir(dir.path());
        prop_assert!(t.elapsed() < CASE_TIME);
        check_accounting(&got);
    }

    /// Mutated or arbitrary log ZIPs: every run still gives exactly one
    /// record; a corrupt archive or member is reported (file or record).
    #[test]
    fn mutated_log_zip(muts in prop::collection::vec(mutation(), 0..3), arbitrary in prop::option::of(prop::collection::vec(any::<u8>(), 0..512))) {
        let dir = tempfile::tempdir().unwrap();
        let body: String = TASKS.iter().map(|t| ok_run(t, "true")).collect();
        write_result(dir.path(), "s,0,SingleQuery", None, &body);
        let logs: Vec<(String, Vec<u8>)> = TASKS
            .iter()
            .map(|t| {
                let base = t.rsplit('/').next().unwrap();
                (format!("s,0,SingleQuery.{base}.log"), log(&b"sat\n".repeat(50)))
            })
            .collect();
        let members: Vec<(&str, &[u8])> =
            logs.iter().map(|(n, c)| (n.as_str(), c.as_slice())).collect();
        write_logs(dir.path(), &members);
        let zip = dir.path().join(format!("{PREFIX}.logfiles.zip"));
        let mut bytes = match &arbitrary {
            Some(b) => b.clone(),
            None => std::fs::read(&zip).unwrap(),
        };
        for m in &muts {
            if !bytes.is_empty() {
                apply(&mut bytes, m);
            }
        }
        std::fs::write(&zip, &bytes).unwrap();
        let t = Instant::now();
        let got = ingest_dir(dir.path());
        prop_assert!(t.elapsed() < CASE_TIME);
        check_accounting(&got);
        prop_assert_eq!(got.records.len(), 3);
        for r in &got.records {
            // Either the log was read, or the record says why not.
            prop_assert!(r.log.is_some() || !r.notes.is_empty(), "{:#?}", r);
        }
    }

    /// Mutated or arbitrary results JSON: rows = records, or the file is reported.
    #[test]
    fn mutated_results_json(muts in prop::collection::vec(mutation(), 0..3), arbitrary in prop::option::of(prop::collection::vec(any::<u8>(), 0..512))) {
        let dir = tempfile::tempdir().unwrap();
        let row = |name: &str, cpu: f64| serde_json::json!({
            "solver": "s", "track": "SingleQuery", "result": "sat",
            "cpu_time": cpu, "wallclock_time": 1.0, "memory_usage": 1.0,
            "file": {"incremental": false, "logic": "QF_BV", "family": ["f"], "name": name},
        });
        let doc = serde_json::json!({"results": [row("a.smt2", 1.0), row("b.smt2", 2.0)]});
        let mut bytes = match &arbitrary {
            Some(b) => b.clone(),
            None => serde_json::to_vec(&doc).unwrap(),
        };
        for m in &muts {
            if !bytes.is_empty() {
                apply(&mut bytes, m);
            }
        }
        std::fs::write(dir.path().join("results-x.json"), &bytes).unwrap();
        let t = Instant::now();
        let got = ingest_dir(dir.path());
        prop_assert!(t.elapsed() < CASE_TIME);
        check_accounting(&got);
        if muts.is_empty() && arbitrary.is_none() {
            prop_assert_eq!(got.records.len(), 2);
        }
        if got.records.is_empty() && !bytes.is_empty() {
            // Nothing read from a non-empty file: reported, or it really held no rows.
            let s = String::from_utf8_lossy(&bytes);
            prop_assert!(got.has_unreadable() || !s.contains("solver"), "{}", got.summary.render());
        }
    }
}

/// Deeply nested JSON in a results file is refused by serde's recursion
/// limit, reported, no stack overflow.
#[test]
fn deeply_nested_results_json_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(dir.path().join("results-deep.json"), text).unwrap();
    let got = ingest_dir(dir.path());
    assert!(got.has_unreadable());
    assert!(got.records.is_empty());
}
