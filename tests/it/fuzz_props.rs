//! Property (fuzz) tests of the parsers not covered elsewhere (issue 18):
//! the SMT-LIB lexer and command splitter, unsat-core text, the trace
//! executor's input header, the runs manifest and the run table. (Result XML,
//! log ZIP and results JSON: `ingest_props`; submissions: `submission_props`;
//! model text: `smtcomp::validate::model_text` unit tests `fuzz_*`; proof
//! wrapper output: `crates/proof-wrapper/tests/it/interpret.rs`.)
//!
//! Each asserts no panic, bounded work on bounded input (output no bigger
//! than the input allows; no hang: a hang fails the suite's time budget), and
//! what goes in comes out: commands split = commands written, core names =
//! names written, header entries = entries written, manifest runs = runs
//! written, run-table lines = records read, or an error naming the line.
//!
//! Case count: `SMTCOMP_FUZZ_CASES` (default 64, the CI setting);
//! `scripts/fuzz` runs them with many more.

use proptest::prelude::*;
use smtcomp::formats::runs_manifest::{MANIFEST_FORMAT, Manifest, ManifestIndex, ManifestRun};
use smtcomp::formats::runtable::{IngestRecord, RunAnswer};
use smtcomp::ingest::{TableIdentity, parse_unsat_core, read_table, write_jsonl};
use smtcomp::model::{Competition, Track};
use smtcomp::smtlib::{CommandReader, tokenize};

/// Cases per property: `SMTCOMP_FUZZ_CASES`, default 64.
pub fn fuzz_config() -> ProptestConfig {
    ProptestConfig {
        cases: crate::support::fuzz_cases(64),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Bytes weighted towards what the SMT-LIB lexer treats specially.
fn smt_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(b"()|\";\\ \n\r\tax:#0.".to_vec()),
            1 => any::<u8>(),
        ],
        0..max,
    )
}

/// A well-formed command: `(head args...)` with nested lists, strings,
/// quoted symbols.
fn command() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        "[a-z][a-z0-9_!-]{0,6}",
        "\\|[^|\\\\]{0,6}\\|",
        "\"([^\"]|\"\"){0,6}\"",
        "[0-9]{1,4}",
        ":[a-z]{1,5}",
    ];
    let term = atom.prop_recursive(3, 16, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(|v| format!("({})", v.join(" ")))
    });
    ("[a-z][a-z-]{0,8}", prop::collection::vec(term, 0..4))
        .prop_map(|(head, args)| format!("({head} {})", args.join(" ")))
}

/// Splits `bytes` into commands until the end or the first error; checks
/// each command's shape. Returns (commands, ended with an error).
fn split(bytes: &[u8]) -> (usize, bool) {
    let mut reader = CommandReader::new(bytes);
    let mut n = 0;
    loop {
        match reader.next_command() {
            Ok(Some(c)) => {
                assert!(c.text.starts_with(b"(") && c.text.ends_with(b")"));
                if let Some(r) = c.head_span() {
                    assert!(r.end <= c.text.len());
                }
                n += 1;
                // Each command holds at least `(` and `)`.
                assert!(2 * n <= bytes.len());
            }
            Ok(None) => return (n, false),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return (n, true);
            }
        }
    }
}

/// A runs-manifest entry (task `t<i>.yml`).
fn manifest_run(i: usize) -> ManifestRun {
    ManifestRun {
        benchmark_definition: "s_SingleQuery_QF_UF.xml".into(),
        rundefinition: "s,0,SingleQuery".into(),
        task: format!("tasks/QF_UF/t{i}.yml"),
        solver: "s".into(),
        participation: 0,
        track: Track::SingleQuery,
        division: smtcomp::model::Division::new("QF_Equality"),
        logic: smtcomp::model::Logic::new("QF_UF"),
        benchmark: smtcomp::formats::inventory::Smt2File {
            incremental: false,
            logic: smtcomp::model::Logic::new("QF_UF"),
            family: vec!["f".into()],
            name: format!("t{i}.smt2"),
        },
    }
}

/// A run-table record with fields from the strategy.
fn record(solver: String, key: String, answer: RunAnswer, time: Option<f64>) -> IngestRecord {
    let mut r = IngestRecord::new("r.xml", format!("{key}.yml"));
    r.solver = solver;
    r.benchmark_key = key;
    r.track = Some(Track::SingleQuery);
    r.answer = answer;
    r.walltime = time;
    r.cputime = time;
    r
}

/// Byte mutations: (position fraction, byte, action 0 insert / 1 delete / 2 replace).
fn mutations() -> impl Strategy<Value = Vec<(f64, u8, u8)>> {
    prop::collection::vec((0.0..1.0f64, any::<u8>(), 0..3u8), 1..6)
}

fn mutate(bytes: &mut Vec<u8>, muts: &[(f64, u8, u8)]) {
    for &(at, b, action) in muts {
        let i = ((bytes.len() as f64) * at) as usize;
        match action {
            0 => bytes.insert(i.min(bytes.len()), b),
            1 if i < bytes.len() => {
                bytes.remove(i);
            }
            _ if i < bytes.len() => bytes[i] = b,
            _ => bytes.push(b),
        }
    }
}

proptest! {
    #![proptest_config(fuzz_config())]

    /// Arbitrary bytes: the splitter and the tokenizer never panic and stop.
    #[test]
    fn fuzz_smtlib_arbitrary_bytes(bytes in smt_bytes(4096)) {
        split(&bytes);
        if let Ok(tokens) = tokenize(&bytes) {
            prop_assert!(tokens.len() <= bytes.len());
        }
    }

    /// Well-formed commands with comments and whitespace between them split
    /// into exactly those commands, byte for byte; mutated, the split stops
    /// with an error or gives commands, never panics.
    #[test]
    fn fuzz_smtlib_commands_in_equal_commands_out(
        cmds in prop::collection::vec(command(), 0..20),
        seps in prop::collection::vec("[ \t\r\n]{0,3}(; [^\n]{0,8}\n)?", 20),
        muts in mutations(),
    ) {
        let mut script = String::new();
        for (c, s) in cmds.iter().zip(&seps) {
            script.push_str(s);
            script.push_str(c);
        }
        let mut reader = CommandReader::new(script.as_bytes());
        let mut got = Vec::new();
        while let Some(c) = reader.next_command().unwrap() {
            got.push(String::from_utf8(c.text.to_vec()).unwrap());
        }
        prop_assert_eq!(&got, &cmds);
        let mut bytes = script.into_bytes();
        mutate(&mut bytes, &muts);
        split(&bytes);
    }

    /// Core text: arbitrary bytes never panic; a core written with any
    /// symbols (simple or quoted) and surrounding noise is read back as its
    /// sorted distinct names.
    #[test]
    fn fuzz_core_text(
        noise in smt_bytes(512),
        names in prop::collection::vec("[a-z][a-z0-9_]{0,6}|\\|[a-z ]{1,6}\\|", 0..30),
    ) {
        // A list starting with `error` is an error message, not a core.
        prop_assume!(names.first().is_none_or(|n| n != "error"));
        let _ = parse_unsat_core(&noise);
        let text = format!("success\n({})\n", names.join(" "));
        let core = parse_unsat_core(text.as_bytes()).unwrap().unwrap();
        let mut want: Vec<String> = names
            .iter()
            .map(|n| n.trim_matches('|').to_string())
            .collect();
        want.sort();
        want.dedup();
        prop_assert_eq!(core.names, want);
    }

    /// The trace executor's header: arbitrary bytes never panic and never
    /// give more entries than lines; a written header is read back.
    #[test]
    fn fuzz_trace_executor_header(
        noise in smt_bytes(2048),
        entries in prop::collection::vec(prop::sample::select(vec!["sat", "unsat"]), 0..50),
        pad in "[ \t\r]{0,3}",
    ) {
        use smtcomp::executor::input::{MARKER, read_header};
        let lines = noise.iter().filter(|b| **b == b'\n').count() as u64 + 1;
        if let Ok(h) = read_header(&mut &noise[..], true) {
            prop_assert!(h.lines <= lines && h.expected.len() as u64 <= h.lines);
        }
        let mut text = Vec::new();
        for e in &entries {
            text.extend_from_slice(format!("{pad}{e}{pad}\n").as_bytes());
        }
        text.extend_from_slice(MARKER);
        text.extend_from_slice(b"\n(check-sat)\n");
        let h = read_header(&mut &text[..], true).unwrap();
        let got: Vec<&str> = h.expected.iter().map(|s| s.as_str()).collect();
        prop_assert_eq!(&got, &entries);
        prop_assert_eq!(h.lines, entries.len() as u64 + 1);
    }

    /// Runs manifest: N runs written are N runs read; mutated JSON is
    /// either read (then every run is indexed) or an error, never a panic.
    #[test]
    fn fuzz_runs_manifest(n in 0usize..40, muts in mutations(), gz in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(if gz { "m.json.gz" } else { "m.json" });
        let m = Manifest { format: MANIFEST_FORMAT, runs: (0..n).map(manifest_run).collect() };
        smtcomp::formats::datafile::write_json(&path, &m).unwrap();
        let index = ManifestIndex::read(&path).unwrap();
        prop_assert_eq!(index.len(), n);
        // Runs of one definition: by its index, exactly what a scan finds.
        let mut runs = m.runs.clone();
        for (i, r) in runs.iter_mut().enumerate() {
            r.benchmark_definition = format!("d{}.xml", (i * 7 + muts.len()) % 3);
        }
        let spread = ManifestIndex::new(Manifest { format: MANIFEST_FORMAT, runs: runs.clone() });
        for def in ["d0.xml", "d1.xml", "d2.xml", "s", "tasks/QF_UF/t0.yml", "nothing.xml"] {
            let got: Vec<String> = spread.definition_runs(def).map(|r| r.task.to_string()).collect();
            let want: Vec<String> = runs.iter().filter(|r| r.benchmark_definition == def).map(|r| r.task.clone()).collect();
            prop_assert_eq!(got, want, "definition {}", def);
        }
        let plain = dir.path().join("mutated.json");
        let mut bytes = serde_json::to_vec(&m).unwrap();
        mutate(&mut bytes, &muts);
        std::fs::write(&plain, &bytes).unwrap();
        match ManifestIndex::read(&plain) {
            Ok(i) => prop_assert!(i.len() <= bytes.len()),
            Err(e) => prop_assert!(e.to_string().contains("mutated.json"), "{}", e),
        }
    }

    /// Run table: records written (with or without identity, gz or not) are
    /// read back equal; a mutated table gives one record per non-empty
    /// record line, or an error naming the file and line.
    #[test]
    fn fuzz_run_table(
        rows in prop::collection::vec(
            ("\\PC{0,8}", "[A-Z_]{1,6}/[a-z]{1,6}\\.smt2",
             prop::sample::select(RunAnswer::ALL.to_vec()),
             prop::option::of(0.0..2000.0f64)),
            0..30),
        identity in any::<bool>(),
        gz in any::<bool>(),
        muts in mutations(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let comp = Competition::builtin(2025).unwrap();
        let id = TableIdentity::of(&comp);
        let records: Vec<IngestRecord> = rows
            .into_iter()
            .map(|(s, k, a, t)| record(s, k, a, t))
            .collect();
        let path = dir.path().join(if gz { "r.jsonl.gz" } else { "r.jsonl" });
        write_jsonl(&path, identity.then_some(&id), &records).unwrap();
        let (got_id, got) = read_table(&path).unwrap();
        prop_assert_eq!(got_id.as_ref(), identity.then_some(&id));
        prop_assert_eq!(&got, &records);
        let plain = dir.path().join("m.jsonl");
        let mut bytes = Vec::new();
        if identity {
            bytes.extend_from_slice(&id.header_line());
            bytes.push(b'\n');
        }
        for r in &records {
            bytes.extend_from_slice(&serde_json::to_vec(r).unwrap());
            bytes.push(b'\n');
        }
        mutate(&mut bytes, &muts);
        std::fs::write(&plain, &bytes).unwrap();
        match read_table(&plain) {
            Ok((h, rs)) => {
                // As `BufRead::lines`: a trailing `\r` is part of the line end.
                let lines = bytes
                    .split(|b| *b == b'\n')
                    .filter(|l| !l.is_empty() && *l != b"\r")
                    .count();
                prop_assert_eq!(rs.len() + usize::from(h.is_some()), lines);
            }
            Err(e) => prop_assert!(e.to_string().contains("m.jsonl: line "), "{}", e),
        }
    }
}
