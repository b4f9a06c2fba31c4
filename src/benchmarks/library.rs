//! A library view of the repository's `corpus/` layout.

use anyhow::Context;
use std::path::Path;

/// Links the corpus' fast files into `library` as an SMT-LIB library:
/// `non-incremental/` (`corpus/single`) and `incremental/`; `corpus/slow` is
/// left out. Existing links are kept.
pub fn link_corpus(corpus: &Path, library: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(library)?;
    for (name, kind) in [
        ("non-incremental", "single"),
        ("incremental", "incremental"),
    ] {
        let link = library.join(name);
        if link.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(corpus.join(kind), &link)
                .with_context(|| format!("{}: cannot link", link.display()))?;
        }
    }
    Ok(())
}
