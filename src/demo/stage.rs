//! Resumable stages: a stage whose inputs are unchanged since it last
//! completed is skipped. The fingerprint covers the inputs' paths, sizes and
//! modification times (recursively) and this program's version.

use anyhow::Context;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The stage bookkeeping of one output directory (`OUT/.stages/`).
pub struct Stages {
    dir: PathBuf,
    fresh: bool,
    timings: Vec<(String, f64, bool)>,
}

impl Stages {
    /// Bookkeeping below `out`; `fresh` redoes every stage.
    pub fn new(out: &Path, fresh: bool) -> anyhow::Result<Stages> {
        let dir = out.join(".stages");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("{}: cannot create", dir.display()))?;
        Ok(Stages {
            dir,
            fresh,
            timings: Vec::new(),
        })
    }

    /// Runs `work` unless stage `name` already completed with the same inputs.
    /// `work` returns a one-line summary, logged (and remembered for re-runs).
    pub fn run(
        &mut self,
        name: &str,
        inputs: &[&Path],
        log: &mut dyn FnMut(&str),
        work: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        let stamp = self.dir.join(name.replace(['/', ' ', '+'], "_"));
        let fp = fingerprint(inputs);
        if !self.fresh
            && let Ok(text) = std::fs::read_to_string(&stamp)
            && let Some((saved, summary)) = text.split_once('\n')
            && saved == fp
        {
            log(&format!("{name}: reused ({})", summary.trim_end()));
            self.timings.push((name.to_string(), 0.0, true));
            return Ok(());
        }
        let _ = std::fs::remove_file(&stamp);
        let start = Instant::now();
        let summary = work().with_context(|| format!("stage {name}"))?;
        let secs = start.elapsed().as_secs_f64();
        log(&format!("{name}: {summary} ({secs:.1} s)"));
        // Fingerprint again: the stage may have created its inputs' siblings, not its inputs.
        std::fs::write(&stamp, format!("{fp}\n{summary}\n"))?;
        self.timings.push((name.to_string(), secs, false));
        Ok(())
    }

    /// Per stage: name, seconds, reused.
    pub fn timings(&self) -> Vec<(String, f64, bool)> {
        self.timings.clone()
    }
}

/// A fingerprint of files and directory trees (paths, sizes, mtimes).
pub fn fingerprint(inputs: &[&Path]) -> String {
    let mut h = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    for input in inputs {
        for entry in walkdir::WalkDir::new(input)
            .follow_links(true)
            .sort_by_file_name()
        {
            let Ok(e) = entry else { continue };
            e.path().hash(&mut h);
            if let Ok(m) = e.metadata() {
                m.len().hash(&mut h);
                if let Ok(t) = m.modified() {
                    t.hash(&mut h);
                }
            }
        }
    }
    format!("{:016x}", h.finish())
}
