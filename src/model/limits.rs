//! Resource limits of a track.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Resource limits for one run: wall-clock time, memory and CPU cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Wall-clock time limit T in seconds.
    pub time_s: u32,
    /// Memory limit in MB (BenchExec's `memlimit` unit).
    pub memory_mb: u64,
    /// Number of CPU cores.
    pub cores: u32,
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} s, {} MB, {} core{}",
            self.time_s,
            self.memory_mb,
            self.cores,
            if self.cores == 1 { "" } else { "s" }
        )
    }
}
