//! Round trip: a synthetic BenchExec result set (XML.bz2 + log ZIPs + manifest,
//! written by `smtcomp::ingest::synth`) ingests to exactly the records the
//! generator predicted, field by field; with and without the manifest; and the
//! JSON Lines output reads back equal and is byte-identical across runs.

use proptest::prelude::*;
use smtcomp::formats::runtable::Guessed;
use smtcomp::ingest::synth::{SynthSpec, generate};
use smtcomp::ingest::{
    IngestOptions, IngestRecord, ManifestIndex, ingest, read_jsonl, write_jsonl,
};
use smtcomp::model::Competition;

fn assert_same(got: &[IngestRecord], want: &[IngestRecord]) {
    assert_eq!(got.len(), want.len(), "record count");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g, w, "record of task {}", w.task);
    }
}

fn round_trip(spec: &SynthSpec) {
    let comp = Competition::builtin(2025).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = generate(dir.path(), spec, &comp).unwrap();
    let manifest = ManifestIndex::new(out.manifest.clone());
    let opts = IngestOptions {
        competition: &comp,
        manifest: Some(&manifest),
        progress: false,
    };
    let got = ingest(&[dir.path().to_path_buf()], &opts);
    assert!(!got.has_unreadable(), "{}", got.summary.render());
    assert_same(&got.records, &out.expected);
    assert_eq!(got.summary.records as usize, out.expected.len());
    assert_eq!(got.summary.files.len(), spec.files);
    for f in &got.summary.files {
        assert_eq!(f.runs, spec.runs_per_file as u64, "{}", f.source);
        assert_eq!(f.records, f.runs);
    }

    // Without the manifest the same identity is derived from the XML and
    // marked as guessed.
    let opts = IngestOptions {
        competition: &comp,
        manifest: None,
        progress: false,
    };
    let guessed = ingest(&[dir.path().to_path_buf()], &opts);
    let want: Vec<IngestRecord> = out
        .expected
        .iter()
        .cloned()
        .map(|mut r| {
            r.guessed = vec![
                Guessed::Solver,
                Guessed::Participation,
                Guessed::Track,
                Guessed::Logic,
                Guessed::Benchmark,
                Guessed::Division,
            ];
            if r.division.is_none() {
                r.guessed.pop();
            }
            r
        })
        .collect();
    assert_same(&guessed.records, &want);

    // JSON Lines: reads back equal; the bytes do not depend on the run.
    let a = dir.path().join("a.jsonl.gz");
    let b = dir.path().join("b.jsonl.gz");
    write_jsonl(&a, None, &got.records).unwrap();
    write_jsonl(
        &b,
        None,
        &ingest(
            &[dir.path().to_path_buf()],
            &IngestOptions {
                competition: &comp,
                manifest: Some(&manifest),
                progress: false,
            },
        )
        .records,
    )
    .unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_same(&read_jsonl(&a).unwrap(), &out.expected);
    let plain = dir.path().join("c.jsonl");
    write_jsonl(&plain, None, &got.records).unwrap();
    assert_same(&read_jsonl(&plain).unwrap(), &out.expected);
}

#[test]
fn synthetic_set_round_trips() {
    round_trip(&SynthSpec {
        seed: 7,
        files: 10,
        runs_per_file: 60,
        log_padding: 300,
        bzip2_level: 1,
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_synthetic_sets_round_trip(seed in any::<u64>(), files in 1usize..8, runs in 0usize..25, pad in 0usize..400) {
        round_trip(&SynthSpec { seed, files, runs_per_file: runs, log_padding: pad, bzip2_level: 1 });
    }
}

#[test]
fn truncated_bz2_keeps_the_runs_before_the_cut() {
    let comp = Competition::builtin(2025).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = SynthSpec {
        seed: 3,
        files: 1,
        runs_per_file: 600,
        log_padding: 0,
        bzip2_level: 1,
    };
    let out = generate(dir.path(), &spec, &comp).unwrap();
    let xml = &out.xml_files[0];
    let bytes = std::fs::read(xml).unwrap();
    assert!(
        bytes.len() > 20_000,
        "needs several bzip2 blocks: {}",
        bytes.len()
    );
    std::fs::write(xml, &bytes[..bytes.len() * 3 / 4]).unwrap();
    let got = ingest(
        &[dir.path().to_path_buf()],
        &IngestOptions {
            competition: &comp,
            manifest: None,
            progress: false,
        },
    );
    assert!(got.has_unreadable());
    let f = &got.summary.files[0];
    assert!(
        f.unreadable[0].contains("runs read before the error were kept"),
        "{:?}",
        f.unreadable
    );
    let n = got.records.len();
    assert!(n > 100 && n < 600, "{n} runs kept");
    assert_eq!(f.runs as usize, n);
    assert!(
        f.unreadable[0].starts_with("malformed or truncated XML"),
        "{:?}",
        f.unreadable
    );
}

/// Results for every run of a generated competition (the demo's, as
/// `benchexec-defs/` holds it) ingest with its runs manifest to every run
/// found, none missing, and the answers the generator wrote; the same seed
/// writes the same files.
#[test]
fn a_generated_competition_gets_results_for_every_run() {
    use smtcomp::formats::datafile;
    use smtcomp::ingest::synth_competition::{generate, tally_of};
    let comp = Competition::builtin(2025).unwrap();
    let defs = crate::support::root().join("benchexec-defs");
    let generation: smtcomp::formats::generation::Manifest =
        datafile::read_json(&defs.join("manifest.json")).unwrap();
    let runs: smtcomp::ingest::Manifest =
        datafile::read_json(&defs.join("runs-manifest.json.gz")).unwrap();
    let spec = SynthSpec::default();
    let mut written = Vec::new();
    let mut bytes = Vec::new();
    for _ in 0..2 {
        let dir = tempfile::tempdir().unwrap();
        let tally = generate(dir.path(), &generation, &runs, &spec).unwrap();
        let index = ManifestIndex::new(runs.clone());
        let opts = IngestOptions {
            competition: &comp,
            manifest: Some(&index),
            progress: false,
        };
        let got = ingest(&[dir.path().join("results")], &opts);
        let total = &got.summary.manifest.as_ref().unwrap().total;
        assert_eq!(
            (
                total.expected,
                total.present,
                total.missing,
                total.unexpected,
                total.duplicated
            ),
            (runs.runs.len() as u64, runs.runs.len() as u64, 0, 0, 0),
            "{total:?}"
        );
        assert_eq!(got.summary.missing_records, 0);
        assert_eq!(got.records.len(), runs.runs.len());
        assert_eq!(tally_of(got.records.iter()), tally);
        assert_eq!(tally.values().sum::<u64>() as usize, runs.runs.len());
        // Every track of the demo has runs, and some answers of each kind.
        let tracks: std::collections::BTreeSet<_> = tally.keys().map(|k| k.0).collect();
        assert!(tracks.len() >= 4, "{tracks:?}");
        let mut files: Vec<_> = walkdir::WalkDir::new(dir.path().join("results"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().strip_prefix(dir.path()).unwrap().to_path_buf(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        written.push(tally);
        bytes.push(files);
    }
    assert_eq!(written[0], written[1]);
    assert!(bytes[0] == bytes[1], "the same seed wrote different files");
}
