//! Scoring speed: the 2025 Incremental data (65,327 runs) and a synthetic
//! 1,000,000-run Single Query track. Run with `cargo bench --bench scoring` or
//! `scripts/bench-score`.

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
    let mut benchmarks = HashMap::new();
    let mut runs = Vec::with_capacity(n_runs);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for f in 0..files {
        let file = Smt2File {
            incremental: false,
            logic: logic_names[f % logics].clone(),
            family: vec!["fam".into()],
            name: format!("b{f}.smt2"),
        };
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
                solver: format!("S{s:02}"),
                track: Track::SingleQuery,
                file: file.clone(),
                answer,
                cpu_time: wall * 1.5,
                wall_time: wall,
                nb_answers: None,
                last_answer_time: None,
                answer_at_timeout: None,
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
        memory_mb: 30720,
        year: 2025,
        divisions: BTreeMap::from([(div, logic_names.clone())]),
        participants,
        runs,
        benchmarks,
        base_solvers: BTreeMap::new(),
    };
    for policy in [Policy::rules(), Policy::published_2025()] {
        let t = Instant::now();
        let s = scoring::score(&input, &policy);
        println!(
            "synthetic single query, {} runs, policy {}: {:.3} s ({} pages)",
            input.runs.len(),
            policy.name,
            t.elapsed().as_secs_f64(),
            s.groups.len()
        );
    }
}

fn main() {
    real_2025();
    synthetic(1_000_000);
}
