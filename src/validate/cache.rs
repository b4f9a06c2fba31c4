//! Content-addressed verdict cache: the key is a SHA-256 of everything the
//! verdict depends on (validator identity, benchmark bytes, model bytes), so
//! an entry can never be stale: change any input and the key changes.
//!
//! Layout: `DIR/<first 2 hex>/<64 hex>.json` holding `{key, verdict}`.
//! Writes go to a temporary file and are renamed, so concurrent workers (or
//! concurrent invocations) never see a half-written entry.

use crate::formats::verdict::ModelVerdict;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A cache directory.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    verdict: ModelVerdict,
}

/// SHA-256 over `parts`, each length-prefixed (so `("ab","c")` and `("a","bc")`
/// differ), as lowercase hex.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

/// SHA-256 of a file's content, as hex (`None` if it cannot be read).
pub fn file_hash(path: &Path) -> Option<String> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).ok()?;
    Some(hex(&h.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cache {
    /// A cache in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir
            .join(&key[..2.min(key.len())])
            .join(format!("{key}.json"))
    }

    /// The cached verdict for `key`; a missing, unreadable or foreign entry is a miss.
    pub fn get(&self, key: &str) -> Option<ModelVerdict> {
        let bytes = std::fs::read(self.path(key)).ok()?;
        let e: Entry = serde_json::from_slice(&bytes).ok()?;
        (e.key == key).then_some(e.verdict)
    }

    /// Stores a verdict (errors are returned; callers may ignore them, a
    /// cache that cannot be written only costs time).
    pub fn put(&self, key: &str, verdict: &ModelVerdict) -> std::io::Result<()> {
        let path = self.path(key);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let tmp = path.with_extension(format!(
            "tmp.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let entry = Entry {
            key: key.to_string(),
            verdict: verdict.clone(),
        };
        std::fs::write(&tmp, serde_json::to_vec(&entry)?)?;
        std::fs::rename(&tmp, &path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Answer;

    #[test]
    fn keys_are_length_prefixed_and_entries_round_trip() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"x"]).len(), 64);
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::new(dir.path());
        let k = key(&[b"bench", b"model"]);
        assert!(c.get(&k).is_none());
        let v = ModelVerdict::new(Answer::Sat, None, "builtin:z3");
        c.put(&k, &v).unwrap();
        assert_eq!(c.get(&k), Some(v));
        // A corrupt entry is a miss, not an error.
        std::fs::write(c.path(&k), b"{garbage").unwrap();
        assert!(c.get(&k).is_none());
    }
}
