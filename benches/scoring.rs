//! Scoring speed: the 2025 Incremental data (65,327 runs) and a synthetic
//! Single Query track (default 500,000 runs; `-- --runs N`), with its floor
//! (one pass aggregating the runs per solver x benchmark) and peak memory. Run with `cargo bench --bench scoring` or
//! `scripts/bench-score`.
//!
//! `-- --write-table FILE [--runs N] [--table-format ingest|results]` writes, instead,
//! a Single Query run table of N runs (default 500,000) over the real 2025
//! benchmarks and submissions of `tests/data` (every registered solver on each
//! benchmark of its logics, in inventory order, deterministic answers and
//! times), gzipped when FILE ends in `.gz`: an `smtcomp ingest` run table
//! (default) or JSON lines of results records. `scripts/bench-score` times
//! `smtcomp score` on it.

use smtcomp::benchmarks::{Inventory, Smt2File};
use smtcomp::formats::results::ResultsFile;
use smtcomp::model::{Answer, Competition, Division, Logic, Status, Track};
use smtcomp::scoring::{self, BenchInfo, Participant, Policy, ScoredRun, ScoringInput};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::time::Instant;

fn real_2025() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let comp = Competition::builtin(2025).unwrap();
    let inv = Inventory::read(&data.join("benchmarks-2025.json.gz")).unwrap();
    let subs = smtcomp::submission::load_set(&[data.join("submissions-2025")], &comp);
    let runs: Vec<ScoredRun> = ResultsFile::read(&data.join("scoring/results-inc-2025.json.gz"))
        .unwrap()
        .results
        .iter()
        .map(ScoredRun::from_record)
        .collect();
    let n = runs.len();
    let (input, _) = scoring::build_input(&comp, Track::Incremental, &subs, &inv, runs);
    for policy in [Policy::rules(), Policy::published_2025()] {
        let t = Instant::now();
        let s = scoring::score(&input, &policy);
        println!(
            "incremental 2025, {n} runs, policy {}: {:.3} s ({} pages)",
            policy.name,
            t.elapsed().as_secs_f64(),
            s.groups.len()
        );
    }
}

fn synthetic(n_runs: usize) {
    let solvers = 20usize;
    let logics = 10usize;
    let files = n_runs / solvers;
    let div = Division::new("Synthetic");
    let logic_names: Vec<Logic> = (0..logics)
        .map(|i| Logic::new(format!("QF_L{i}")))
        .collect();
    let mut benchmarks = smtcomp::scoring::BenchInfos::default();
    let mut runs = Vec::with_capacity(n_runs);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for f in 0..files {
        // One shared allocation per benchmark, as the run-table readers intern them.
        let file = std::sync::Arc::new(Smt2File {
            incremental: false,
            logic: logic_names[f % logics].clone(),
            family: vec!["fam".into()],
            name: format!("b{f}.smt2"),
        });
        let status = [Status::Sat, Status::Unsat, Status::Unknown][f % 3];
        benchmarks.insert(
            file.path(),
            BenchInfo {
                status,
                asserts: 10,
                check_sats: 1,
            },
        );
        for s in 0..solvers {
            let r = rnd();
            let answer = match (r % 10, status) {
                (0..=5, Status::Unsat) => Answer::Unsat,
                (0..=5, _) => Answer::Sat,
                (6, _) => Answer::Unknown,
                (7, _) => Answer::OutOfMemory,
                _ => Answer::Timeout,
            };
            let wall = (r >> 8) as f64 % 1200.0;
            runs.push(ScoredRun {
                solver: format!("S{s:02}").into(),
                track: Track::SingleQuery,
                file: file.clone(),
                answer,
                cpu_time: wall * 1.5,
                wall_time: wall,
                nb_answers: None,
                last_answer_time: None,
                answer_at_timeout: None,
                error: false,
            });
        }
    }
    let participants = (0..solvers)
        .map(|s| Participant {
            solver: format!("S{s:02}"),
            competitive: true,
            team: format!("t{s}"),
            base: None,
            entries: BTreeMap::from([(
                div.clone(),
                logic_names.iter().cloned().collect::<BTreeSet<_>>(),
            )]),
        })
        .collect();
    let input = ScoringInput {
        track: Track::SingleQuery,
        time_limit: 1200.0,
        cores: 4,
        memory_mb: 30720,
        year: 2025,
        divisions: BTreeMap::from([(div, logic_names.clone())]),
        participants,
        runs,
        benchmarks,
        base_solvers: BTreeMap::new(),
        selection: Vec::new(),
    };
    // The floor: one pass over the runs aggregating per solver x benchmark
    // (what any scorer must do at least), median of 3.
    let floor = median(
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let mut agg: HashMap<(&str, String), (u32, f64)> = HashMap::new();
                for r in &input.runs {
                    let e = agg.entry((&r.solver, r.file.path())).or_default();
                    e.0 += u32::from(r.answer == Answer::Sat || r.answer == Answer::Unsat);
                    e.1 += r.wall_time;
                }
                std::hint::black_box(&agg);
                t.elapsed().as_secs_f64()
            })
            .collect(),
    );
    for policy in [Policy::rules(), Policy::published_2025()] {
        let times: Vec<f64> = (0..3)
            .map(|_| {
                let t = Instant::now();
                let s = scoring::score(&input, &policy);
                std::hint::black_box(&s);
                t.elapsed().as_secs_f64()
            })
            .collect();
        let ours = median(times);
        println!(
            "synthetic single query, {} runs, policy {}: {ours:.3} s (median of 3; floor {floor:.3} s)",
            input.runs.len(),
            policy.name,
        );
        println!(
            "BENCH|score {}k runs ({})|{ours:.3}|{floor:.3}|{:.2}|{}",
            input.runs.len() / 1000,
            policy.name,
            ours / floor,
            peak_mb().map_or("-".into(), |m| format!("{m} (process)")),
        );
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The process's peak resident memory (VmHWM) in MB: the runs held in memory
/// plus scoring.
fn peak_mb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = s
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// Writes the synthetic 2025 Single Query run table (see the crate doc).
fn write_table(path: &Path, n_runs: usize, ingest_format: bool) {
    use smtcomp::formats::runtable::{IngestRecord, LogRef, RunAnswer};
    use smtcomp::formats::table_identity::TableIdentity;
    use std::io::Write;
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let comp = Competition::builtin(2025).unwrap();
    let inv = Inventory::read(&data.join("benchmarks-2025.json.gz")).unwrap();
    let subs = smtcomp::submission::load_set(&[data.join("submissions-2025")], &comp);
    let (input, _) = scoring::build_input(&comp, Track::SingleQuery, &subs, &inv, Vec::new());
    let division_of: HashMap<&Logic, &Division> = input
        .divisions
        .iter()
        .flat_map(|(d, ls)| ls.iter().map(move |l| (l, d)))
        .collect();
    let file = std::fs::File::create(path).unwrap();
    let mut out: Box<dyn Write> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::write::GzEncoder::new(
            std::io::BufWriter::new(file),
            flate2::Compression::fast(),
        ))
    } else {
        Box::new(std::io::BufWriter::new(file))
    };
    if ingest_format {
        out.write_all(&TableIdentity::of(&comp).header_line())
            .unwrap();
        out.write_all(b"\n").unwrap();
    }
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut written = 0;
    'all: for b in &inv.non_incremental {
        let Some(division) = division_of.get(&b.file.logic) else {
            continue;
        };
        let path = b.file.path();
        for p in input
            .participants
            .iter()
            .filter(|p| p.entered(division, &b.file.logic))
        {
            if written == n_runs {
                break 'all;
            }
            written += 1;
            let r = rnd();
            let answer = match (r % 10, b.status) {
                (0..=5, Status::Unsat) => Answer::Unsat,
                (0..=5, Status::Sat) => Answer::Sat,
                (0..=5, _) => [Answer::Sat, Answer::Unsat][(r >> 4) as usize % 2],
                (6, _) => Answer::Unknown,
                (7, _) => Answer::OutOfMemory,
                _ => Answer::Timeout,
            };
            let wall = ((r >> 8) % 1_200_000) as f64 / 1000.0;
            let cpu = wall * 1.5;
            let line = if ingest_format {
                let rundef = format!("{},0,SingleQuery", p.solver);
                let mut rec = IngestRecord::new(
                    format!("{}/sq.results.{rundef}.{}.xml.bz2", p.solver, b.file.logic),
                    format!("tasks/{}/{}.yml", b.file.logic, b.file.name),
                );
                rec.rundefinition = Some(rundef.clone());
                rec.solver = p.solver.clone();
                rec.participation = Some(0);
                rec.track = Some(Track::SingleQuery);
                rec.division = Some((*division).clone());
                rec.logic = Some(b.file.logic.clone());
                rec.benchmark = Some(b.file.clone());
                rec.benchmark_key = path.clone();
                rec.answer = match answer {
                    Answer::Sat => RunAnswer::Sat,
                    Answer::Unsat => RunAnswer::Unsat,
                    Answer::Unknown => RunAnswer::Unknown,
                    Answer::OutOfMemory => RunAnswer::Memout,
                    _ => RunAnswer::Timeout,
                };
                rec.status = Some(
                    match rec.answer {
                        RunAnswer::Sat => "true",
                        RunAnswer::Unsat => "false",
                        RunAnswer::Unknown => "unknown",
                        RunAnswer::Memout => "OUT OF MEMORY",
                        _ => "TIMEOUT",
                    }
                    .into(),
                );
                rec.category = Some("correct".into());
                rec.cputime = Some(cpu);
                rec.walltime = Some(wall);
                rec.memory = Some(r % (1 << 34));
                rec.exitcode = Some(0);
                rec.output_answer = Some(format!("{answer:?}").to_lowercase());
                rec.log = Some(LogRef {
                    archive: format!("{}/sq.logfiles.zip", p.solver),
                    member: format!("sq.logfiles/{rundef}.{}.yml.log", b.file.name),
                });
                serde_json::to_vec(&rec).unwrap()
            } else {
                serde_json::to_vec(&smtcomp::formats::results::RunRecord {
                    track: Track::SingleQuery,
                    solver: p.solver.clone(),
                    file: b.file.clone(),
                    result: answer,
                    cpu_time: cpu,
                    wallclock_time: wall,
                    memory_usage: (r % (1 << 34)) as f64,
                    nb_answers: None,
                })
                .unwrap()
            };
            out.write_all(&line).unwrap();
            out.write_all(b"\n").unwrap();
        }
    }
    out.flush().unwrap();
    drop(out);
    println!("{written} runs written to {}", path.display());
}

fn main() {
    let arg = |name: &str| std::env::args().skip_while(|a| a != name).nth(1);
    if let Some(path) = arg("--write-table") {
        let n = arg("--runs")
            .and_then(|n| n.parse().ok())
            .unwrap_or(500_000);
        let ingest = arg("--table-format").is_none_or(|f| f != "results");
        write_table(Path::new(&path), n, ingest);
        return;
    }
    real_2025();
    let n = std::env::args()
        .skip_while(|a| a != "--runs")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(500_000);
    synthetic(n);
}
