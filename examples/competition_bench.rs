//! Helper of `scripts/bench-competition` (the whole competition at full size).
//!
//! ```text
//! competition_bench synth EXECDIR TALLY.json LOG_PADDING  # results for every run of EXECDIR
//! competition_bench check TABLE.jsonl[.gz] TALLY.json      # the table counts what was written
//! competition_bench validation-runs CV_EXEC OUT.jsonl.gz    # validators' answers for every core task
//! competition_bench model-verdicts TABLE PREPARED LOGS CACHE SOLVER TIMEOUT  # a verdict for every model
//! ```
//! `synth` reads `EXECDIR/manifest.json` and `EXECDIR/runs-manifest.json.gz`
//! (written by `smtcomp generate`) and writes BenchExec result files for every
//! run ([`smtcomp::ingest::synth_competition`]), and the tally of what it
//! wrote (per track, solver and answer). `check` reads an ingested run table
//! line by line (only the fields it counts) and compares its tally with the
//! generator's: exit 0 when equal, 1 with every difference listed.
//! `validation-runs` reads the core-validation manifest that `smtcomp
//! validate-cores generate --exec CV_EXEC` wrote and writes the validators'
//! runs on its tasks (recorded verdicts: no validator runs), for `smtcomp
//! validate-cores join --validation-runs`.
//! `model-verdicts` records a verdict for the model of every Model-Validation
//! `sat` run of TABLE in the verdict cache CACHE, under the key `smtcomp
//! validate-models --prepared PREPARED --logs LOGS --cache CACHE --solver
//! SOLVER --timeout TIMEOUT` looks up ([`smtcomp::validate::record_verdicts`]):
//! recorded verdicts, so no validator runs. One model in [`INVALID_ONE_IN`]
//! (by a hash of its solver and benchmark) is invalid.

use serde::Deserialize;
use smtcomp::formats::datafile;
use smtcomp::formats::table_identity::TableIdentity;
use smtcomp::ingest::RunAnswer;
use smtcomp::ingest::synth::SynthSpec;
use smtcomp::ingest::synth_competition::{Tally, generate, tally_json};
use smtcomp::model::Track;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One recorded model verdict in this many is "the model does not satisfy
/// the benchmark".
const INVALID_ONE_IN: u64 = 50;

/// The recorded verdict of run `r`'s model (deterministic: FNV-1a of the
/// solver and the benchmark).
fn recorded_verdict(r: &smtcomp::ingest::IngestRecord) -> smtcomp::validate::ModelVerdict {
    let h = r
        .solver
        .bytes()
        .chain([0])
        .chain(r.benchmark_key.bytes())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    if h % INVALID_ONE_IN == 0 {
        smtcomp::validate::ModelVerdict::new(
            smtcomp::model::Answer::ModelUnsat,
            Some("recorded: the model does not satisfy the benchmark".into()),
            "recorded",
        )
    } else {
        smtcomp::validate::ModelVerdict::new(smtcomp::model::Answer::Sat, None, "recorded")
    }
}

/// The fields of a run-table line that the tally counts.
#[derive(Deserialize)]
struct Counted {
    track: Option<Track>,
    solver: String,
    answer: RunAnswer,
}

/// One tally row as `tally_json` writes it.
#[derive(Deserialize)]
struct Row {
    track: Track,
    solver: String,
    answer: RunAnswer,
    runs: u64,
}

fn read_tally(path: &Path) -> anyhow::Result<Tally> {
    let rows: Vec<Row> = datafile::read_json(path)?;
    Ok(rows
        .into_iter()
        .map(|r| ((r.track, r.solver, r.answer), r.runs))
        .collect())
}

/// The tally of a run table, read one line at a time (a full-size table does
/// not fit in memory as records).
fn table_tally(path: &Path) -> anyhow::Result<(Tally, u64)> {
    let reader = std::io::BufReader::new(datafile::open(path)?);
    let mut t = Tally::new();
    let mut lines = 0;
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.is_empty() || (i == 0 && TableIdentity::parse_header(line.as_bytes()).is_some()) {
            continue;
        }
        let c: Counted = serde_json::from_str(&line)
            .map_err(|e| anyhow::anyhow!("{}: line {}: {e}", path.display(), i + 1))?;
        lines += 1;
        if let Some(track) = c.track {
            *t.entry((track, c.solver, c.answer)).or_default() += 1;
        }
    }
    Ok((t, lines))
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("synth") if args.len() == 4 => {
            let exec = PathBuf::from(&args[1]);
            let t = Instant::now();
            let generation = datafile::read_json(&exec.join("manifest.json"))?;
            let runs = datafile::read_json(&exec.join("runs-manifest.json.gz"))?;
            let spec = SynthSpec {
                seed: 2025,
                files: 0,
                runs_per_file: 0,
                log_padding: args[3].parse()?,
                bzip2_level: 9,
            };
            let tally = generate(&exec, &generation, &runs, &spec)?;
            datafile::write_json(Path::new(&args[2]), &tally_json(&tally))?;
            println!(
                "synthetic results: runs={} seconds={:.1}",
                tally.values().sum::<u64>(),
                t.elapsed().as_secs_f64()
            );
        }
        Some("check") if args.len() == 3 => {
            let want = read_tally(Path::new(&args[2]))?;
            let (got, lines) = table_tally(Path::new(&args[1]))?;
            let mut keys: Vec<_> = want.keys().chain(got.keys()).collect();
            keys.sort();
            keys.dedup();
            let mut differ = 0;
            for k in keys {
                let (w, g) = (
                    want.get(k).copied().unwrap_or(0),
                    got.get(k).copied().unwrap_or(0),
                );
                if w != g {
                    differ += 1;
                    println!(
                        "differs: {} {} {:?}: written {w}, ingested {g}",
                        k.0, k.1, k.2
                    );
                }
            }
            let written: u64 = want.values().sum();
            println!(
                "check: {written} runs written, {lines} records in the table, {} (track, solver, answer) counts, {differ} differ",
                want.len()
            );
            if differ > 0 || written != lines {
                std::process::exit(1);
            }
        }
        Some("validation-runs") if args.len() == 3 => {
            let manifest = smtcomp::validate::cores::CoreManifest::read(Path::new(&args[1]))?;
            let runs = smtcomp::ingest::synth_competition::validation_runs(&manifest, 2025);
            let comp = smtcomp::model::Competition::builtin(2025)?;
            let identity = TableIdentity::of(&comp);
            smtcomp::ingest::write_jsonl(Path::new(&args[2]), Some(&identity), &runs)?;
            println!(
                "validation runs: tasks={} runs={}",
                manifest.tasks.len(),
                runs.len()
            );
        }
        Some("model-verdicts") if args.len() == 7 => {
            let runs = smtcomp::pipeline::model_runs_of(Path::new(&args[1]))?;
            let opts = smtcomp::validate::ModelOptions {
                prepared: PathBuf::from(&args[2]),
                logs: PathBuf::from(&args[3]),
                checker: smtcomp::validate::Checker::Builtin(smtcomp::validate::split_command(
                    &args[5],
                )),
                timeout: std::time::Duration::from_secs(args[6].parse::<u64>()?.max(1)),
                cache: Some(PathBuf::from(&args[4])),
                jobs: 1,
            };
            let n = smtcomp::validate::record_verdicts(&runs, &opts, recorded_verdict)?;
            println!(
                "model verdicts: {} Model-Validation runs, {n} verdicts recorded",
                runs.len()
            );
        }
        _ => {
            eprintln!(
                "usage: competition_bench synth EXECDIR TALLY.json LOG_PADDING | check TABLE TALLY.json \
                 | validation-runs CV_EXEC OUT.jsonl.gz | model-verdicts TABLE PREPARED LOGS CACHE SOLVER TIMEOUT"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
