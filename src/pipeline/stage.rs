//! Resumable stages: a stage whose inputs are unchanged since it last
//! completed is skipped. The fingerprint covers the inputs' paths, sizes and
//! modification times (recursively) and this program's build ([`build_identity`]:
//! a rebuilt or upgraded `smtcomp` redoes every stage, as its output may differ).

use anyhow::Context;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The stage bookkeeping of one output directory (`OUT/.stages/`).
pub struct Stages {
    dir: PathBuf,
    fresh: bool,
}

/// How a cached stage went.
#[derive(Debug, Clone, PartialEq)]
pub enum Cached {
    /// Its work ran now: its summary and seconds.
    Ran {
        /// The work's one-line summary.
        summary: String,
        /// Seconds the work took.
        secs: f64,
    },
    /// Its inputs did not change since it completed: the summary it had then.
    Reused {
        /// The summary remembered from the run that completed it.
        summary: String,
    },
}

impl Stages {
    /// Bookkeeping below `out`; `fresh` redoes every stage.
    pub fn new(out: &Path, fresh: bool) -> anyhow::Result<Stages> {
        let dir = out.join(".stages");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("{}: cannot create", dir.display()))?;
        Ok(Stages { dir, fresh })
    }

    /// Runs `work` unless stage `name` already completed with the same inputs.
    /// `work` returns a one-line summary, remembered for re-runs.
    pub fn run(
        &mut self,
        name: &str,
        inputs: &[&Path],
        work: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<Cached> {
        let stamp = self.dir.join(name.replace(['/', ' ', '+', ':'], "_"));
        let fp = fingerprint(inputs);
        if !self.fresh
            && let Ok(text) = std::fs::read_to_string(&stamp)
            && let Some((saved, summary)) = text.split_once('\n')
            && saved == fp
        {
            return Ok(Cached::Reused {
                summary: summary.trim_end().to_string(),
            });
        }
        let _ = std::fs::remove_file(&stamp);
        let start = Instant::now();
        // The error as the work gave it (the caller names the stage).
        let summary = work()?;
        let secs = start.elapsed().as_secs_f64();
        crate::util::fault::point("stamp", name);
        std::fs::write(&stamp, format!("{fp}\n{}\n", summary.replace('\n', " ")))
            .with_context(|| format!("{}: cannot write", stamp.display()))?;
        Ok(Cached::Ran { summary, secs })
    }
}

/// The identity of this program's build: its version and the length and
/// CRC-32 of its executable (read once per process, ~2 ms for 16 MB), so
/// that every build, not only every release, has its own. Unreadable
/// executable: the version alone.
pub fn build_identity() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let content = exe.as_deref().and_then(|p| std::fs::read(p).ok());
        match content {
            Some(bytes) => format!(
                "{} {} {:08x}",
                env!("CARGO_PKG_VERSION"),
                bytes.len(),
                crc32fast::hash(&bytes)
            ),
            None => env!("CARGO_PKG_VERSION").to_string(),
        }
    })
}

/// A fingerprint of files and directory trees (paths, sizes, mtimes) and of
/// this program's build.
pub fn fingerprint(inputs: &[&Path]) -> String {
    fingerprint_of_build(build_identity(), inputs)
}

/// [`fingerprint`] for the build `build`.
pub fn fingerprint_of_build(build: &str, inputs: &[&Path]) -> String {
    let mut h = DefaultHasher::new();
    build.hash(&mut h);
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

    fn run(stages: &mut Stages, name: &str, inputs: &[&Path], calls: &mut u32) -> Cached {
        stages
            .run(name, inputs, || {
                *calls += 1;
                Ok(format!("call {calls}"))
            })
            .unwrap()
    }

    fn ran(c: &Cached) -> bool {
        matches!(c, Cached::Ran { .. })
    }

    #[test]
    fn a_stage_with_unchanged_inputs_is_reused_with_its_summary() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input");
        std::fs::write(&input, "a").unwrap();
        let mut calls = 0;
        let mut stages = Stages::new(dir.path(), false).unwrap();
        let first = run(&mut stages, "a stage+x: y", &[&input], &mut calls);
        assert!(
            matches!(&first, Cached::Ran { summary, .. } if summary == "call 1"),
            "{first:?}"
        );
        let mut again = Stages::new(dir.path(), false).unwrap();
        let second = run(&mut again, "a stage+x: y", &[&input], &mut calls);
        assert_eq!(
            second,
            Cached::Reused {
                summary: "call 1".into()
            }
        );
        assert_eq!(calls, 1);
        // The stamp's file name has no '/', ' ', '+' or ':'.
        assert!(dir.path().join(".stages/a_stage_x__y").is_file());
    }

    #[test]
    fn changed_inputs_or_fresh_redo_the_stage() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("f"), "a").unwrap();
        let mut calls = 0;
        let stages = |fresh| Stages::new(dir.path(), fresh).unwrap();
        assert!(ran(&run(&mut stages(false), "s", &[&input], &mut calls)));
        // A file added below an input directory changes the fingerprint.
        std::fs::write(input.join("g"), "bb").unwrap();
        assert!(ran(&run(&mut stages(false), "s", &[&input], &mut calls)));
        assert!(!ran(&run(&mut stages(false), "s", &[&input], &mut calls)));
        assert_eq!(calls, 2);
        assert!(ran(&run(&mut stages(true), "s", &[&input], &mut calls)));
        assert_eq!(calls, 3);
    }

    #[test]
    fn a_failed_stage_is_not_stamped() {
        let dir = tempfile::tempdir().unwrap();
        let mut stages = Stages::new(dir.path(), false).unwrap();
        let err = stages
            .run("broken", &[], || anyhow::bail!("boom"))
            .unwrap_err();
        assert_eq!(format!("{err:#}"), "boom");
        assert!(!dir.path().join(".stages/broken").exists());
        let mut calls = 0;
        assert!(ran(&run(&mut stages, "broken", &[], &mut calls)));
        assert_eq!(calls, 1);
    }

    #[test]
    fn another_build_has_another_fingerprint() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a");
        std::fs::write(&f, "x").unwrap();
        let a = fingerprint_of_build("0.1.0 100 0000abcd", &[&f]);
        assert_eq!(a, fingerprint_of_build("0.1.0 100 0000abcd", &[&f]));
        assert_ne!(a, fingerprint_of_build("0.1.0 100 0000abce", &[&f]));
        assert!(build_identity().starts_with(env!("CARGO_PKG_VERSION")));
        assert!(
            build_identity().split(' ').count() == 3,
            "{}",
            build_identity()
        );
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
