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
//! Arguments: `[--commands N] [--runs R] [--compare EXE]`.

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

fn run_once(exe: &Path, bench: &Path, out: &Path, queries: usize) -> Sample {
    let start = Instant::now();
    let child = Command::new(exe)
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
    let mut compare: Option<PathBuf> = None;
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].to_str() {
            Some("--commands") => commands = args[i + 1].to_str().unwrap().parse().unwrap(),
            Some("--runs") => runs = args[i + 1].to_str().unwrap().parse().unwrap(),
            Some("--compare") => compare = Some(PathBuf::from(&args[i + 1])),
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
    let (queries, sent) = synthetic(&bench, commands);
    println!(
        "{commands}-command benchmark ({sent} sent, {queries} queries), {runs} runs, echo solver `smtcomp-mock-solver --fast`"
    );
    let mut executors = vec![PathBuf::from(env!("CARGO_BIN_EXE_smtcomp-trace-executor"))];
    executors.extend(compare);
    for exe in executors {
        let samples: Vec<Sample> = (0..runs)
            .map(|_| run_once(&exe, &bench, &out, queries))
            .collect();
        let per = |f: &dyn Fn(&Sample) -> f64| {
            median(samples.iter().map(f).collect()) * 1e6 / sent as f64
        };
        println!(
            "{:<28} executor CPU/command {:6.2} us | solver CPU/command {:6.2} us | wall/command {:6.2} us | max RSS {} KiB",
            exe.file_name().unwrap().to_string_lossy(),
            per(&|s| s.cpu_s),
            per(&|s| s.solver_cpu_s),
            per(&|s| s.wall_s),
            median(samples.iter().map(|s| s.max_rss_kib as f64).collect()),
        );
    }
}
