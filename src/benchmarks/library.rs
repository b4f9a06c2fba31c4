//! A library view of the repository's `corpus/` layout.

use crate::util::path_error::PathError;
use std::path::Path;

/// Links the corpus' fast files into `library` as an SMT-LIB library:
/// `non-incremental/` (`corpus/single`) and `incremental/`; `corpus/slow` is
/// left out. Existing links are kept.
pub fn link_corpus(corpus: &Path, library: &Path) -> Result<(), PathError> {
    std::fs::create_dir_all(library).map_err(PathError::on(library, "create"))?;
    for (name, kind) in [
        ("non-incremental", "single"),
        ("incremental", "incremental"),
    ] {
        let link = library.join(name);
        if link.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(corpus.join(kind), &link)
                .map_err(PathError::on(&link, "link"))?;
        }
    }
    Ok(())
}
