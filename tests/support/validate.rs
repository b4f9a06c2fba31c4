//! Helpers of the validation tests: prepared sets from corpus files, run
//! records from real solver outputs, log ZIPs holding models.

use super::root;
use smtcomp::benchmarks::Smt2File;
use smtcomp::formats::runtable::{LogRef, ModelRef};
use smtcomp::ingest::{IngestRecord, RunAnswer};
use smtcomp::model::{Competition, Logic, Status, Track};
use smtcomp::prepare::transform;
use smtcomp::prepare::{PreparedBenchmark, PreparedSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Corpus files of `logics` whose expected status is `status`, plus extras.
pub fn corpus_files(logics: &[&str], status: Status) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for l in logics {
        let dir = root().join("corpus/single").join(l);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let t = transform(Track::SingleQuery, std::fs::read(&f).unwrap().as_slice()).unwrap();
            if t.expected.first() == Some(&status) {
                out.push((l.to_string(), f));
            }
        }
    }
    out
}

/// Prepares `files` for `track` below `out` (our transformation).
pub fn prepare(track: Track, files: &[(String, PathBuf)], out: &Path) -> PreparedSet {
    let dir = PreparedSet::track_dir(out, track);
    let mut benchmarks = Vec::new();
    for (i, (logic, f)) in files.iter().enumerate() {
        let t = transform(track, std::fs::read(f).unwrap().as_slice()).unwrap();
        let path = format!("{logic}/scrambled{i}.smt2");
        std::fs::create_dir_all(dir.join(logic)).unwrap();
        std::fs::write(dir.join(&path), &t.text).unwrap();
        benchmarks.push(PreparedBenchmark {
            path,
            original: Smt2File {
                incremental: false,
                logic: Logic::new(logic.as_str()),
                family: vec![],
                name: f.file_name().unwrap().to_string_lossy().into_owned(),
            },
            status: t.expected[0],
            expected: None,
            count: t.asserts,
            heat: None,
        });
    }
    let set = PreparedSet {
        track,
        year: 2025,
        seed: 5,
        method: "smtcomp".into(),
        benchmarks,
        failures: vec![],
    };
    set.write(out).unwrap();
    set
}

/// The Model-Validation set of the one benchmark `x > 10` (QF_LIA,
/// tests/data/validate/bench/x-gt-10.smt2), prepared into `out`.
pub fn prepare_x_gt_10(out: &Path) -> PreparedSet {
    prepare(
        Track::ModelValidation,
        &[(
            "QF_LIA".into(),
            root().join("tests/data/validate/bench/x-gt-10.smt2"),
        )],
        out,
    )
}

/// A run record of `solver` on a prepared benchmark.
pub fn record(
    track: Track,
    solver: &str,
    b: &PreparedBenchmark,
    answer: RunAnswer,
) -> IngestRecord {
    let comp = Competition::builtin(2025).unwrap();
    let mut r = IngestRecord::new(format!("{solver}.results.xml"), b.path.clone());
    r.solver = solver.into();
    r.participation = Some(0);
    r.track = Some(track);
    r.logic = Some(b.original.logic.clone());
    r.division = comp
        .track(if track == Track::ModelValidation {
            track
        } else {
            Track::SingleQuery
        })
        .and_then(|t| t.division_of(b.original.logic.as_str()))
        .cloned();
    r.benchmark = Some(b.original.clone());
    r.benchmark_key = b.original.path();
    r.answer = answer;
    r
}

/// The answer of a solver output's first line.
pub fn answer_of(out: &str) -> RunAnswer {
    match out.lines().next().map(str::trim) {
        Some("sat") => RunAnswer::Sat,
        Some("unsat") => RunAnswer::Unsat,
        _ => RunAnswer::Unknown,
    }
}

/// Writes solver outputs as BenchExec logs into `<root>/mv.logfiles.zip` and
/// points each record's `model` at the text after its `sat` line.
pub fn write_logs(root: &Path, runs: &mut [(IngestRecord, Vec<u8>)]) {
    let zip_path = root.join("mv.logfiles.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
    for (i, (r, output)) in runs.iter_mut().enumerate() {
        let member = format!("mv.logfiles/{}.{i}.log", r.solver);
        let header = format!("z3 x.smt2\n\n\n{}\n\n\n", "-".repeat(80));
        let mut log = header.clone().into_bytes();
        log.extend_from_slice(output);
        z.start_file(member.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(&log).unwrap();
        let at = LogRef {
            archive: "mv.logfiles.zip".into(),
            member,
        };
        r.log = Some(at.clone());
        if r.answer == RunAnswer::Sat {
            let nl = output
                .iter()
                .position(|&b| b == b'\n')
                .map_or(output.len(), |p| p + 1);
            r.model = Some(ModelRef {
                log: at,
                start: (header.len() + nl) as u64,
                end: log.len() as u64,
            });
        }
    }
    z.finish().unwrap();
}
