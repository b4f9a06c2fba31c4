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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stages: &mut Stages, name: &str, inputs: &[&Path], calls: &mut u32) -> Vec<String> {
        let mut lines = Vec::new();
        stages
            .run(name, inputs, &mut |l| lines.push(l.to_string()), || {
                *calls += 1;
                Ok(format!("call {calls}"))
            })
            .unwrap();
        lines
    }

    #[test]
    fn a_stage_with_unchanged_inputs_is_reused_with_its_summary() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input");
        std::fs::write(&input, "a").unwrap();
        let mut calls = 0;
        let mut stages = Stages::new(dir.path(), false).unwrap();
        let first = run(&mut stages, "a stage+x", &[&input], &mut calls);
        assert!(first[0].starts_with("a stage+x: call 1 ("), "{first:?}");
        let mut again = Stages::new(dir.path(), false).unwrap();
        let second = run(&mut again, "a stage+x", &[&input], &mut calls);
        assert_eq!(second, ["a stage+x: reused (call 1)"]);
        assert_eq!(calls, 1);
        assert_eq!(again.timings(), [("a stage+x".to_string(), 0.0, true)]);
        // The stamp's file name has no '/', ' ' or '+'.
        assert!(dir.path().join(".stages/a_stage_x").is_file());
    }

    #[test]
    fn changed_inputs_or_fresh_redo_the_stage() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("f"), "a").unwrap();
        let mut calls = 0;
        run(
            &mut Stages::new(dir.path(), false).unwrap(),
            "s",
            &[&input],
            &mut calls,
        );
        // A file added below an input directory changes the fingerprint.
        std::fs::write(input.join("g"), "bb").unwrap();
        run(
            &mut Stages::new(dir.path(), false).unwrap(),
            "s",
            &[&input],
            &mut calls,
        );
        assert_eq!(calls, 2);
        run(
            &mut Stages::new(dir.path(), false).unwrap(),
            "s",
            &[&input],
            &mut calls,
        );
        assert_eq!(calls, 2);
        let mut fresh = Stages::new(dir.path(), true).unwrap();
        run(&mut fresh, "s", &[&input], &mut calls);
        assert_eq!(calls, 3);
        assert!(!fresh.timings()[0].2);
    }

    #[test]
    fn a_failed_stage_is_not_stamped_and_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        let mut stages = Stages::new(dir.path(), false).unwrap();
        let err = stages
            .run("broken", &[], &mut |_| {}, || anyhow::bail!("boom"))
            .unwrap_err();
        assert_eq!(format!("{err:#}"), "stage broken: boom");
        assert!(!dir.path().join(".stages/broken").exists());
        let mut calls = 0;
        run(&mut stages, "broken", &[], &mut calls);
        assert_eq!(calls, 1);
    }

    #[test]
    fn the_fingerprint_follows_sizes_and_paths() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "1").unwrap();
        std::fs::write(&b, "1").unwrap();
        let fa = fingerprint(&[&a]);
        assert_eq!(fa, fingerprint(&[&a]));
        assert_eq!(fa.len(), 16);
        assert_ne!(fa, fingerprint(&[&b]));
        std::fs::write(&a, "22").unwrap();
        assert_ne!(fa, fingerprint(&[&a]));
        // A missing input counts as empty, not as an error.
        assert_eq!(
            fingerprint(&[&dir.path().join("none")]),
            fingerprint(&[&dir.path().join("none")])
        );
    }
}
