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
    /// `/proc/meminfo` reports (`MemTotal`; 1 GB if unreadable).
    pub fn this() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let memory_mb = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("MemTotal:"))?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<u64>()
                    .ok()
            })
            .map_or(1024, |kb| kb / 1024);
        Machine { cores, memory_mb }
    }
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
                "{t}: {} cores per run instead of the test limit's {} (this machine has {cores})",
                cores, l.cores
            ));
            l.cores = cores;
        }
        if l.memory_mb > memory {
            notes.push(format!(
                "{t}: {memory} MB per run instead of the test limit's {} MB (this machine has {} MB)",
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
            ["Parallel: 2 cores per run instead of the test limit's 8 (this machine has 2)"]
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
