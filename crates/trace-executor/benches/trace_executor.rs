//! Performance benchmark of `smtcomp-trace-executor` (run by
//! `scripts/bench-trace-executor`, or `cargo bench --bench trace_executor`).
//!
//! Writes a synthetic benchmark (default 1,000,000 commands, one check-sat in
//! four) and runs it several times against the trivial echo solver
//! `smtcomp-mock-solver --fast`. For each run it reads the executor's own CPU time
//! (user + system, from `/proc/<pid>/stat` of the exited but not yet reaped
//! process, so the solver's time is excluded), the wall time and the maximum
//! RSS. Prints the medians over the runs. `--compare EXE` measures another
//! executor with the original's command line the same way.
//!
//! `--floor EXE` measures the floor the same way (the C byte-mover
//! `benches/byte_mover.c`, built by `scripts/bench-trace-executor`), and the
//! executor is also run with `--te-stats FILE` to measure the statistics' cost.
//!
//! Arguments: `[--commands N] [--runs R] [--compare EXE]... [--floor EXE]`.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

struct Sample {
    cpu_s: f64,
    solver_cpu_s: f64,
    wall_s: f64,
    max_rss_kib: i64,
}

/// The crate's `smtcomp-mock-solver` binary (built by Cargo with the bench).
fn mock() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_smtcomp-mock-solver"))
}

fn synthetic(path: &Path, commands: usize) -> (usize, usize) {
    let queries = commands / 4;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for _ in 0..queries {
        out.write_all(b"sat\n").unwrap();
    }
    out.write_all(b"--- BENCHMARK BEGINS HERE ---\n").unwrap();
    for i in 0..queries {
        // No string literals: the original C executor mis-splits `"s;)"`.
        write!(
            out,
            "(push 1)\n(assert (= x{i} (f y z)))\n(check-sat)\n(pop 1)\n"
        )
        .unwrap();
    }
    out.write_all(b"(exit)\n").unwrap();
    // Commands sent: all but the last pop (nothing after the last query).
    (queries, queries * 4 - 1)
}

fn run_once(exe: &Path, pre: &[OsString], bench: &Path, out: &Path, queries: usize) -> Sample {
    let start = Instant::now();
    let child = Command::new(exe)
        .args(pre)
        .arg(mock())
        .arg("--fast")
        .arg(bench)
        .stdout(Stdio::from(std::fs::File::create(out).unwrap()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // Wait for the exit without reaping, so /proc/<pid>/stat still holds
    // the executor's own final CPU times.
    // SAFETY: siginfo is plain data; waiting for our own child.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    assert_eq!(r, 0);
    let wall_s = start.elapsed().as_secs_f64();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_ascii_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // SAFETY: sysconf has no preconditions.
    let tck = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let (utime, stime, cutime, cstime) = (fields[11], fields[12], fields[13], fields[14]);
    let mut status = 0;
    // SAFETY: reaping our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child);
    let lines = std::fs::read_to_string(out).unwrap().lines().count();
    assert_eq!(lines, queries, "{} printed {lines} answers", exe.display());
    Sample {
        cpu_s: (utime + stime) / tck,
        solver_cpu_s: (cutime + cstime) / tck,
        wall_s,
        max_rss_kib: usage.ru_maxrss,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut commands = 1_000_000usize;
    let mut runs = 5usize;
    let mut compare: Vec<PathBuf> = Vec::new();
    let mut floor: Option<PathBuf> = None;
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].to_str() {
            Some("--commands") => commands = args[i + 1].to_str().unwrap().parse().unwrap(),
            Some("--runs") => runs = args[i + 1].to_str().unwrap().parse().unwrap(),
            Some("--compare") => compare.push(PathBuf::from(&args[i + 1])),
            Some("--floor") => floor = Some(PathBuf::from(&args[i + 1])),
            _ => {
                i += 1; // cargo bench passes `--bench`
                continue;
            }
        }
        i += 2;
    }
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("bench.smt2");
    let out = dir.path().join("out");
    let stats = dir.path().join("stats.jsonl");
    let (queries, sent) = synthetic(&bench, commands);
    println!(
        "{commands}-command benchmark ({sent} sent, {queries} queries), {runs} runs, echo solver `smtcomp-mock-solver --fast`"
    );
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_smtcomp-trace-executor"));
    let mut executors: Vec<(String, PathBuf, Vec<OsString>)> = vec![
        ("smtcomp-trace-executor".into(), ours.clone(), vec![]),
        (
            "... --te-stats FILE".into(),
            ours,
            vec![format!("--te-stats={}", stats.display()).into()],
        ),
    ];
    executors.extend(
        floor
            .iter()
            .map(|f| ("floor (C byte-mover)".into(), f.clone(), vec![])),
    );
    executors.extend(compare.into_iter().map(|c| {
        let name = c.file_name().unwrap().to_string_lossy().into_owned();
        (name, c, vec![])
    }));
    // Paired rounds: each round runs every executor once, in the same order.
    let mut samples: Vec<Vec<Sample>> = executors.iter().map(|_| Vec::new()).collect();
    for _ in 0..runs {
        for (k, (_, exe, pre)) in executors.iter().enumerate() {
            samples[k].push(run_once(exe, pre, &bench, &out, queries));
        }
    }
    let per = |k: usize, f: &dyn Fn(&Sample) -> f64| {
        median(samples[k].iter().map(f).collect()) * 1e6 / sent as f64
    };
    for (k, (name, _, _)) in executors.iter().enumerate() {
        println!(
            "{:<28} executor CPU/command {:6.2} us | solver CPU/command {:6.2} us | wall/command {:6.2} us | max RSS {} KiB",
            name,
            per(k, &|s| s.cpu_s),
            per(k, &|s| s.solver_cpu_s),
            per(k, &|s| s.wall_s),
            median(samples[k].iter().map(|s| s.max_rss_kib as f64).collect()),
        );
    }
    // Machine-readable lines for scripts/bench-all (stage|ours|floor|ratio|peak MB).
    let rss_mb =
        |k: usize| median(samples[k].iter().map(|s| s.max_rss_kib as f64).collect()) / 1024.0;
    let wall = |k: usize| per(k, &|s| s.wall_s);
    if floor.is_some() {
        println!(
            "BENCH|trace-executor wall us/cmd|{:.2}|{:.2}|{:.2}|{:.1}",
            wall(0),
            wall(2),
            wall(0) / wall(2),
            rss_mb(0)
        );
    }
    for (k, (name, _, _)) in executors
        .iter()
        .enumerate()
        .skip(2 + usize::from(floor.is_some()))
    {
        println!(
            "BENCH|trace-executor wall us/cmd vs {name}|{:.2}|{:.2}|{:.2}|{:.1}",
            wall(0),
            wall(k),
            wall(0) / wall(k),
            rss_mb(0)
        );
    }
    let overhead = per(1, &|s| s.cpu_s) - per(0, &|s| s.cpu_s);
    let ratio = per(1, &|s| s.cpu_s) / per(0, &|s| s.cpu_s);
    println!(
        "te-stats: {:.2} us executor CPU per command more than without: {:.2} us with stats, {ratio:.2}x \
         (goal of issue 39: <= 1.3x; {})",
        overhead,
        per(1, &|s| s.cpu_s),
        if ratio <= 1.3 { "met" } else { "NOT met" }
    );
    println!(
        "BENCH|--te-stats CPU us/cmd|{:.2}|{:.2}|{:.2}|{:.1}",
        per(1, &|s| s.cpu_s),
        per(0, &|s| s.cpu_s),
        per(1, &|s| s.cpu_s) / per(0, &|s| s.cpu_s),
        rss_mb(1)
    );
}
