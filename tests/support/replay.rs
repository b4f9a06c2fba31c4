//! The replay recording (`tests/data/replay/`): a reduced demo competition and
//! the BenchExec result files of one real run of it (see its README).

use smtcomp::demo::DemoOptions;
use smtcomp::pipeline::Replay;
use std::path::{Path, PathBuf};

/// The recording's directory.
pub fn dir() -> PathBuf {
    super::root().join("tests/data/replay")
}

/// The recorded `EXECDIR/results/` tree.
pub fn recording() -> PathBuf {
    dir().join("results")
}

/// The options of the reduced demo (the recording's inputs) writing to `out`.
pub fn demo_options(out: &Path) -> DemoOptions {
    DemoOptions {
        corpus: dir().join("corpus"),
        submissions: dir().join("submissions"),
        competition: super::root().join("demo/competition.toml"),
        archives: super::root().join("demo/archives"),
        out: out.to_path_buf(),
        jobs: 2,
        fresh: false,
    }
}

/// An execution directory of the reduced demo under `out` (generated, and run
/// from the recording, so its results are there).
pub fn exec_dir(out: &Path) -> PathBuf {
    let runner = Replay {
        recording: recording(),
    };
    smtcomp::demo::run(&demo_options(out), &runner, &mut |_| {}).unwrap();
    out.join("exec")
}
