//! The limits of a test run: the competition's test limits (`--year`,
//! `--competition`), clamped to what this machine can give BenchExec. BenchExec
//! refuses to start (exit code 1) when `-N` runs of `cores` cores each need
//! more cores than there are, or their memory more than there is; that would
//! be our configuration's fault, never the solver's.

use crate::model::{Competition, Track};
use std::collections::BTreeSet;

/// What the machine offers BenchExec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    /// CPU cores available to us.
    pub cores: u32,
    /// Memory in MB.
    pub memory_mb: u64,
}

impl Machine {
    /// This machine: the cores available to this process and the memory
    /// BenchExec will accept: the least of `/proc/meminfo`'s `MemTotal`,
    /// the memory banks' total (`/sys/devices/system/node/node*/meminfo`,
    /// which BenchExec checks) and the `memory.max` of our cgroup and its
    /// ancestors (cgroup v2; BenchExec checks it too); 1 GB if unreadable.
    pub fn this() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let read = |p: &str| std::fs::read_to_string(p).ok();
        let total = read("/proc/meminfo").and_then(|t| mem_total_kb(&t));
        let banks: Option<u64> = std::fs::read_dir("/sys/devices/system/node")
            .ok()
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().starts_with("node"))
                    .filter_map(|e| {
                        std::fs::read_to_string(e.path().join("meminfo"))
                            .ok()
                            .and_then(|t| mem_total_kb(&t))
                    })
                    .sum()
            })
            .filter(|kb: &u64| *kb > 0);
        let cgroup = read("/proc/self/cgroup")
            .and_then(|t| cgroup_memory_max(&t, |p| read(&format!("/sys/fs/cgroup{p}/memory.max"))))
            .map(|bytes| bytes / 1024);
        let kb = [total, banks, cgroup].into_iter().flatten().min();
        Machine {
            cores,
            memory_mb: kb.map_or(1024, |kb| kb / 1024),
        }
    }
}

/// The `MemTotal` (kB) of a `meminfo` text (`/proc/meminfo`, or a memory
/// bank's `Node 0 MemTotal: N kB`).
pub fn mem_total_kb(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.contains("MemTotal:"))?;
    line.split("MemTotal:")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The least `memory.max` (bytes) of the cgroup v2 path of `proc_cgroup`
/// (`/proc/self/cgroup`: `0::/a/b`) and its ancestors, read through `max_of`
/// (path -> the file's text); `None` when none is limited (`max`).
pub fn cgroup_memory_max(
    proc_cgroup: &str,
    max_of: impl Fn(&str) -> Option<String>,
) -> Option<u64> {
    let path = proc_cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))?
        .trim()
        .trim_end_matches('/');
    let mut least: Option<u64> = None;
    let mut p = path.to_string();
    loop {
        if let Some(v) = max_of(&p).and_then(|t| t.trim().parse::<u64>().ok()) {
            least = Some(least.map_or(v, |l| l.min(v)));
        }
        match p.rfind('/') {
            Some(i) if !p.is_empty() => p.truncate(i),
            _ => break,
        }
    }
    least
}

/// Memory (MB) left to the system and to our own processes beside BenchExec's runs.
pub const RESERVED_MB: u64 = 512;

/// A competition whose test limits fit the machine, and what was changed.
#[derive(Debug, Clone)]
pub struct Clamped {
    /// The competition with clamped test limits.
    pub competition: Competition,
    /// BenchExec's `-N`: runs side by side in one call.
    pub jobs: usize,
    /// One line per change, in plain words.
    pub notes: Vec<String>,
}

/// Clamps the test limits of `tracks` to `machine`, and the runs side by
/// side (`jobs`) so that they fit: cores per run at most the machine's, memory
/// per run at most the machine's less [`RESERVED_MB`], and `-N` runs of the
/// largest cores and memory fit together (at least one).
pub fn clamp(
    comp: &Competition,
    tracks: &BTreeSet<Track>,
    machine: Machine,
    jobs: usize,
) -> Clamped {
    let mut competition = comp.clone();
    let mut notes = Vec::new();
    let cores = machine.cores.max(1);
    let memory = machine.memory_mb.saturating_sub(RESERVED_MB).max(256);
    let (mut max_cores, mut max_memory) = (1u32, 1u64);
    for t in tracks {
        let Some(def) = competition.tracks.get_mut(t) else {
            continue;
        };
        let l = &mut def.test_limits;
        if l.cores > cores {
            notes.push(format!(
                "{t}: {} cores per run instead of the limit's {} (this machine has {cores})",
                cores, l.cores
            ));
            l.cores = cores;
        }
        if l.memory_mb > memory {
            notes.push(format!(
                "{t}: {memory} MB per run instead of the limit's {} MB (this machine has {} MB)",
                l.memory_mb, machine.memory_mb
            ));
            l.memory_mb = memory;
        }
        max_cores = max_cores.max(l.cores);
        max_memory = max_memory.max(l.memory_mb);
    }
    let fit = ((cores / max_cores) as u64).min(memory / max_memory).max(1) as usize;
    let wanted = jobs.max(1);
    let jobs = wanted.min(fit);
    if jobs < wanted {
        notes.push(format!(
            "{jobs} run(s) side by side instead of {wanted}: runs of {max_cores} core(s) and {max_memory} MB on {cores} core(s) and {} MB",
            machine.memory_mb
        ));
    }
    Clamped {
        competition,
        jobs,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_the_least_of_meminfo_banks_and_cgroup_limits() {
        assert_eq!(
            mem_total_kb("MemTotal:       12806364 kB\nMemFree: 1 kB\n"),
            Some(12806364)
        );
        assert_eq!(
            mem_total_kb("Node 0 MemTotal:       12806360 kB\n"),
            Some(12806360)
        );
        assert_eq!(mem_total_kb("nothing"), None);
        let files = |p: &str| match p {
            "/user.slice/session" => Some("max\n".to_string()),
            "/user.slice" => Some("4294967296\n".to_string()),
            _ => None,
        };
        assert_eq!(
            cgroup_memory_max("0::/user.slice/session\n", files),
            Some(4294967296)
        );
        assert_eq!(cgroup_memory_max("0::/\n", |_| Some("max".into())), None);
        assert_eq!(
            cgroup_memory_max("1:cpu:/x\n", files),
            None,
            "cgroup v1: not read"
        );
        let m = Machine::this();
        assert!(m.memory_mb >= 256 && m.cores >= 1, "{m:?}");
    }

    fn tracks(t: &[Track]) -> BTreeSet<Track> {
        t.iter().copied().collect()
    }

    #[test]
    fn the_2025_test_limits_on_a_two_core_machine() {
        let comp = Competition::builtin(2025).unwrap();
        let two = Machine {
            cores: 2,
            memory_mb: 24105,
        };
        // Single Query: 60 s, 8192 MB, 2 cores; 2 cores / 2 = 1 run at a time.
        let c = clamp(&comp, &tracks(&[Track::SingleQuery]), two, 2);
        let l = c.competition.track(Track::SingleQuery).unwrap().test_limits;
        assert_eq!((l.time_s, l.memory_mb, l.cores), (60, 8192, 2));
        assert_eq!(c.jobs, 1);
        assert_eq!(
            c.notes,
            [
                "1 run(s) side by side instead of 2: runs of 2 core(s) and 8192 MB on 2 core(s) and 24105 MB"
            ]
        );
        // Parallel: 8 cores -> 2; memory 8192 fits.
        let c = clamp(&comp, &tracks(&[Track::Parallel]), two, 1);
        assert_eq!(
            c.competition
                .track(Track::Parallel)
                .unwrap()
                .test_limits
                .cores,
            2
        );
        assert_eq!(c.jobs, 1);
        assert_eq!(
            c.notes,
            ["Parallel: 2 cores per run instead of the limit's 8 (this machine has 2)"]
        );
    }

    #[test]
    fn memory_is_clamped_and_limits_jobs() {
        let comp = Competition::builtin(2025).unwrap();
        // 4 cores, 6000 MB: 8192 MB -> 6000 - 512 = 5488 MB; 5488 / 5488 = 1 run.
        let m = Machine {
            cores: 4,
            memory_mb: 6000,
        };
        let c = clamp(&comp, &tracks(&[Track::SingleQuery]), m, 4);
        let l = c.competition.track(Track::SingleQuery).unwrap().test_limits;
        assert_eq!(l.memory_mb, 5488);
        assert_eq!(c.jobs, 1);
        // The demo's 1000 MB, 1 core on 2 cores: 2 runs fit, nothing to say.
        let demo = Competition::from_toml(
            include_str!("../../demo/competition.toml"),
            "demo/competition.toml",
        )
        .unwrap();
        let c = clamp(
            &demo,
            &tracks(&[Track::SingleQuery]),
            Machine {
                cores: 2,
                memory_mb: 24105,
            },
            2,
        );
        assert_eq!(c.jobs, 2);
        assert!(c.notes.is_empty());
    }
}
