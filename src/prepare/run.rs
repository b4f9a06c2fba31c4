//! Preparing a whole selection: reading the library, transforming (ours or the
//! official scrambler), naming, writing, in parallel, with a manifest.

use super::transform::{INCREMENTAL_MARKER, transform};
use super::{PrepareFailure, PreparedBenchmark, PreparedSet};
use crate::benchmarks::Smt2File;
use crate::model::{Status, Track};
use crate::select::Selection;
use crate::util::process::{self, Sink, Source, Supervised};
use crate::util::rng::GlibcRandom;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the official scrambler may take on one benchmark before the
/// benchmark is reported as not prepared (the largest SMT-LIB files take seconds).
pub const SCRAMBLER_DEADLINE: Duration = Duration::from_secs(600);

/// Options of a preparation run.
#[derive(Debug, Clone)]
pub struct PrepareOptions {
    /// The SMT-LIB library root (holding `non-incremental/` and `incremental/`, or
    /// the logic directories themselves).
    pub library: PathBuf,
    /// Output root (the track directory is created below it).
    pub out: PathBuf,
    /// The official SMT-COMP scrambler, to use instead of our transformation.
    pub scrambler: Option<PathBuf>,
    /// Worker threads.
    pub jobs: usize,
}

/// Where a benchmark is in the library: `ROOT/<path>` or, for a root that is
/// already `non-incremental/` or `incremental/`, `ROOT/<LOGIC>/...`.
pub fn library_file(root: &Path, file: &Smt2File) -> PathBuf {
    let full = root.join(file.path());
    if full.exists() {
        return full;
    }
    let mut p = root.join(file.logic.as_str());
    for f in &file.family {
        p.push(f);
    }
    p.push(&file.name);
    p
}

/// The scrambler's arguments for a track (anchor spec 7.4), or `None` when the
/// scrambler has no mode for it.
pub fn scrambler_args(track: Track, seed: u32) -> Option<Vec<String>> {
    let mut args = vec!["-term_annot".to_string(), "pattern".to_string()];
    match track {
        Track::SingleQuery | Track::Parallel | Track::Cloud => {}
        Track::Incremental => args.extend(["-incremental".into(), "true".into()]),
        Track::ModelValidation => args.extend(["-gen-model-val".into(), "true".into()]),
        Track::UnsatCore | Track::UnsatCoreValidation => {
            args.extend(["-gen-unsat-core".into(), "true".into()])
        }
        Track::ProofExhibition => return None,
    }
    args.extend(["-seed".into(), seed.to_string()]);
    Some(args)
}

/// Prepares every benchmark of `selection`, writes the files and the manifest,
/// and returns the manifest. Failures are recorded, never fatal.
pub fn prepare(selection: &Selection, opts: &PrepareOptions) -> std::io::Result<PreparedSet> {
    let track = selection.track;
    let dir = PreparedSet::track_dir(&opts.out, track);
    std::fs::create_dir_all(&dir)?;
    let n = selection.benchmarks.len();
    // File ids: a random() permutation, so names do not reveal benchmarks.
    let mut order: Vec<usize> = (0..n).collect();
    GlibcRandom::new(selection.seed).shuffle(&mut order);
    let mut ids = vec![0usize; n];
    for (id, &i) in order.iter().enumerate() {
        ids[i] = id;
    }
    let use_scrambler = opts
        .scrambler
        .as_ref()
        .filter(|_| scrambler_args(track, selection.seed).is_some());
    let method = match use_scrambler {
        Some(s) => format!(
            "{} {}",
            s.display(),
            scrambler_args(track, selection.seed)
                .unwrap_or_default()
                .join(" ")
        ),
        None => "smtcomp".to_string(),
    };
    let indices: Vec<usize> = (0..n).collect();
    let results = crate::util::parallel::map(&indices, opts.jobs, "preparing", |&i| {
        let b = &selection.benchmarks[i];
        let rel = format!("{}/scrambled{}.smt2", b.file.logic, ids[i]);
        prepare_one(track, b, &rel, &dir, opts, use_scrambler, selection.seed).map_err(|reason| {
            PrepareFailure {
                original: b.file.clone(),
                reason,
            }
        })
    });
    let mut benchmarks = Vec::new();
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok(b) => benchmarks.push(b),
            Err(f) => failures.push(f),
        }
    }
    benchmarks.sort_by(|a, b| a.path.cmp(&b.path));
    failures.sort_by_cached_key(|f| f.original.path());
    let set = PreparedSet {
        track,
        year: selection.year,
        seed: selection.seed,
        method,
        benchmarks,
        failures,
    };
    set.write(&opts.out).map_err(std::io::Error::other)?;
    Ok(set)
}

fn prepare_one(
    track: Track,
    b: &crate::select::SelectedBenchmark,
    rel: &str,
    dir: &Path,
    opts: &PrepareOptions,
    scrambler: Option<&PathBuf>,
    seed: u32,
) -> Result<PreparedBenchmark, String> {
    // An untrusted inventory must not lead outside the library or the output.
    if let Some(why) = b.file.unsafe_component() {
        return Err(format!("{}: {why}; not prepared", b.file.path()));
    }
    let src = library_file(&opts.library, &b.file);
    let open = || File::open(&src).map_err(|e| format!("{}: cannot open: {e}", src.display()));
    let ours =
        transform(track, BufReader::new(open()?)).map_err(|e| format!("{}: {e}", src.display()))?;
    let target = dir.join(rel);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    match scrambler {
        None => std::fs::write(&target, &ours.text)
            .map_err(|e| format!("{}: cannot write: {e}", target.display()))?,
        Some(bin) => run_scrambler(bin, track, seed, &src, &target, &ours.expected)?,
    }
    let incremental = track == Track::Incremental;
    Ok(PreparedBenchmark {
        path: rel.to_string(),
        original: b.file.clone(),
        status: if incremental {
            Status::Incremental
        } else {
            b.status
        },
        expected: incremental.then(|| ours.expected.clone()),
        count: if incremental {
            ours.expected.len() as u64
        } else {
            ours.asserts
        },
        heat: b.heat,
    })
}

fn run_scrambler(
    bin: &Path,
    track: Track,
    seed: u32,
    src: &Path,
    target: &Path,
    expected: &[Status],
) -> Result<(), String> {
    let args = scrambler_args(track, seed).unwrap_or_default();
    let mut out = File::create(target).map_err(|e| format!("{}: {e}", target.display()))?;
    if track == Track::Incremental {
        let mut header = String::new();
        for s in expected {
            header.push_str(s.name());
            header.push('\n');
        }
        header.push_str(INCREMENTAL_MARKER);
        header.push('\n');
        out.write_all(header.as_bytes())
            .map_err(|e| format!("{}: {e}", target.display()))?;
    }
    let input = File::open(src).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut argv = vec![bin.to_string_lossy().into_owned()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let mut call = Supervised::new(argv, SCRAMBLER_DEADLINE);
    call.stdin = Source::File(input);
    call.stdout = Sink::File(out);
    call.stderr = Sink::Capture { cap: 4096 };
    let done = process::run(call).map_err(|e| format!("{}: scrambler: {e}", src.display()))?;
    if done.timed_out {
        return Err(format!(
            "{}: scrambler {} did not finish within {} s",
            src.display(),
            bin.display(),
            SCRAMBLER_DEADLINE.as_secs()
        ));
    }
    if !done.status.is_some_and(|s| s.success()) {
        let why = String::from_utf8_lossy(&done.stderr);
        let why = why.lines().last().unwrap_or("").trim();
        return Err(format!(
            "{}: scrambler {} failed ({}){}",
            src.display(),
            bin.display(),
            done.status
                .map_or("not waited for".into(), |s| s.to_string()),
            if why.is_empty() {
                String::new()
            } else {
                format!(": {why}")
            }
        ));
    }
    Ok(())
}
