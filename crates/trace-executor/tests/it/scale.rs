//! Streaming: a 1,000,000-command synthetic benchmark runs in constant
//! memory (maximum RSS barely above that of a 10,000-command run).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Writes a benchmark of `commands` commands, one query in four.
fn synthetic(path: &Path, commands: usize) -> usize {
    let queries = commands / 4;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..queries {
        out.write_all(if i % 2 == 0 { b"sat\n" } else { b"sat \r\n" })
            .unwrap();
    }
    out.write_all(b"--- BENCHMARK BEGINS HERE ---\n(set-logic QF_UF)\n")
        .unwrap();
    for i in 0..queries {
        write!(
            out,
            "(push 1)\n(assert (= |x{i}| \"s;){i}\"))\n(check-sat)\n(pop 1)\n"
        )
        .unwrap();
    }
    out.write_all(b"(exit)\n").unwrap();
    queries
}

/// Runs the executor with the fast mock; returns (stdout lines, max RSS in KiB, wall).
fn run_measured(bench: &Path, out: &Path) -> (usize, i64, Duration) {
    let start = Instant::now();
    // Reaped below with wait4(2), which std does not offer.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(exe())
        .args([
            mock().as_os_str(),
            std::ffi::OsStr::new("--fast"),
            bench.as_os_str(),
        ])
        .stdout(Stdio::from(std::fs::File::create(out).unwrap()))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data; waiting for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(r, child.id() as i32);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "status {status}"
    );
    let text = std::fs::read_to_string(out).unwrap();
    assert!(text.lines().all(|l| l == "sat"), "unexpected output line");
    (text.lines().count(), usage.ru_maxrss, start.elapsed())
}

#[test]
fn million_commands_in_constant_memory() {
    let dir = tmp();
    let small = dir.path().join("small.smt2");
    let large = dir.path().join("large.smt2");
    let out = dir.path().join("out");
    let q_small = synthetic(&small, 10_000);
    let q_large = synthetic(&large, 1_000_000);
    let (n_small, rss_small, _) = run_measured(&small, &out);
    let (n_large, rss_large, wall) = run_measured(&large, &out);
    assert_eq!((n_small, n_large), (q_small, q_large));
    println!(
        "10k commands: max RSS {rss_small} KiB; 1M commands: max RSS {rss_large} KiB, {wall:?}"
    );
    // 250,000 header entries cost 250 KB; everything else must be flat.
    assert!(
        rss_large - rss_small < 4 * 1024,
        "RSS grew from {rss_small} to {rss_large} KiB"
    );
    assert!(rss_large < 64 * 1024, "max RSS {rss_large} KiB");
}
