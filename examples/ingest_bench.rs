//! Benchmark helper for `scripts/bench-ingest`.
//!
//! ```text
//! ingest_bench generate DIR FILES RUNS_PER_FILE LOG_PADDING   # synthetic competition
//! ingest_bench ingest OUT.jsonl.gz INPUT...                   # timed ingestion
//! ingest_bench ingest-mem OUT.jsonl.gz INPUT...               # same, in memory
//! ingest_bench bunzip BUF_KB FILE.xml.bz2...                   # decompression only
//! ingest_bench ours BUF_KB FILE.xml.bz2...                     # our decoder, two walks
//! ingest_bench ours1 BUF_KB FILE.xml.bz2...                    # our decoder, one walk
//! ```
//! `bunzip` decompresses the files one after the other exactly as ingestion
//! opens them (`MultiBzDecoder` over a 64 KiB `BufReader` of the file), reading
//! BUF_KB KiB at a time and discarding the bytes: the cost of the bzip2 crate
//! alone, to compare with ingestion's bzip2 share and with `bzip2 -dc`.
//! `ours` and `ours1` do the same with `smtcomp_bunzip::Decoder` (two walks
//! of the inverse BWT at once, or one as libbzip2).
//! `ingest` uses the streaming path of `smtcomp ingest`
//! ([`smtcomp::ingest::ingest_to_file`]); `ingest-mem` the in-memory one
//! ([`smtcomp::ingest::ingest`] + `write_jsonl`), for comparison.
//! `ingest` prints `runs=N seconds=S` on stdout (peak memory is measured by
//! the script with `/usr/bin/time`).

use smtcomp::ingest::synth::{SynthSpec, generate};
use smtcomp::ingest::{IngestOptions, ingest, ingest_to_file, write_jsonl};
use smtcomp::model::Competition;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let comp = Competition::builtin(2025)?;
    match args.first().map(String::as_str) {
        Some("generate") if args.len() == 5 => {
            let spec = SynthSpec {
                seed: 2025,
                files: args[2].parse()?,
                runs_per_file: args[3].parse()?,
                log_padding: args[4].parse()?,
                bzip2_level: 9,
            };
            let t = Instant::now();
            let out = generate(&PathBuf::from(&args[1]), &spec, &comp)?;
            println!(
                "generated runs={} files={} seconds={:.2}",
                out.expected.len(),
                out.xml_files.len(),
                t.elapsed().as_secs_f64()
            );
        }
        Some(mode @ ("ingest" | "ingest-mem")) if args.len() >= 3 => {
            let inputs: Vec<PathBuf> = args[2..].iter().map(PathBuf::from).collect();
            let output = PathBuf::from(&args[1]);
            let opts = IngestOptions {
                competition: &comp,
                manifest: None,
                progress: false,
            };
            let t = Instant::now();
            let summary = if mode == "ingest" {
                ingest_to_file(&inputs, &opts, &output)?
            } else {
                let got = ingest(&inputs, &opts);
                write_jsonl(
                    &output,
                    Some(&smtcomp::ingest::TableIdentity::of(&comp)),
                    &got.records,
                )?;
                got.summary
            };
            println!(
                "runs={} seconds={:.3} unreadable={}",
                summary.records,
                t.elapsed().as_secs_f64(),
                summary.has_unreadable()
            );
        }
        Some(mode @ ("bunzip" | "ours" | "ours1" | "oursm")) if args.len() >= 3 => {
            let mut buf = vec![0u8; args[1].parse::<usize>()? << 10];
            let mut total = 0u64;
            for p in &args[2..] {
                let file = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(p)?);
                let mut d: Box<dyn std::io::Read> = match mode {
                    "bunzip" => Box::new(bzip2::read::MultiBzDecoder::new(file)),
                    "ours" => Box::new(smtcomp_bunzip::Decoder::with_walk(
                        file,
                        smtcomp_bunzip::Walk::Two,
                    )),
                    "oursm" => Box::new(smtcomp_bunzip::Decoder::with_walk(
                        file,
                        smtcomp_bunzip::Walk::Multi,
                    )),
                    _ => Box::new(smtcomp_bunzip::Decoder::with_walk(
                        file,
                        smtcomp_bunzip::Walk::One,
                    )),
                };
                loop {
                    let n = std::io::Read::read(&mut d, &mut buf)?;
                    if n == 0 {
                        break;
                    }
                    total += n as u64;
                }
            }
            println!("bytes={total}");
        }
        _ => anyhow::bail!(
            "usage: ingest_bench generate DIR FILES RUNS_PER_FILE LOG_PADDING | ingest[-mem] OUT INPUT... | bunzip|ours|ours1 BUF_KB FILE..."
        ),
    }
    Ok(())
}
