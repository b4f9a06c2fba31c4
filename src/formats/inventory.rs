//! The benchmark inventory format: every SMT-LIB file of a library with its
//! logic, family, status and counts, in the reference tool's
//! `benchmarks-YYYY.json.gz` format (so a published list can be used directly
//! as an inventory).

use crate::formats::datafile::{self, DataFileError};
use crate::model::{Logic, Status};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A benchmark's identity: where it lives in the library.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Smt2File {
    /// Whether it is an incremental benchmark.
    pub incremental: bool,
    /// Its logic (the first directory below `incremental/` or `non-incremental/`).
    pub logic: Logic,
    /// Family path parts (directories between the logic and the file).
    pub family: Vec<String>,
    /// File name.
    pub name: String,
}

impl Smt2File {
    /// The library-relative path: `(non-)incremental/LOGIC/family.../name`.
    pub fn path(&self) -> String {
        let mut p = String::new();
        self.write_path(&mut p);
        p
    }

    /// Appends [`Smt2File::path`] to `p` (reuse one buffer to look paths up
    /// without allocating).
    pub fn write_path(&self, p: &mut String) {
        self.borrowed().write_path(p);
    }

    /// The borrowed form (serialized the same way).
    pub fn borrowed(&self) -> Smt2FileRef<'_> {
        Smt2FileRef {
            incremental: self.incremental,
            logic: self.logic.as_str(),
            family: &self.family,
            name: &self.name,
        }
    }

    /// The family as one string (`a/b`).
    pub fn family_path(&self) -> String {
        self.family.join("/")
    }
}

/// A borrowed [`Smt2File`]: the same JSON (field names and order), built from
/// compact storage without allocating (`generate` keeps 370k benchmarks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Smt2FileRef<'a> {
    /// Whether it is an incremental benchmark.
    pub incremental: bool,
    /// Its logic.
    pub logic: &'a str,
    /// Family path parts.
    pub family: &'a [String],
    /// File name.
    pub name: &'a str,
}

impl Smt2FileRef<'_> {
    /// Appends the library-relative path ([`Smt2File::path`]) to `p`.
    pub fn write_path(&self, p: &mut String) {
        p.push_str(if self.incremental {
            "incremental/"
        } else {
            "non-incremental/"
        });
        p.push_str(self.logic);
        for part in self.family {
            p.push('/');
            p.push_str(part);
        }
        p.push('/');
        p.push_str(self.name);
    }
}

/// SMT-LIB benchmark category (`(set-info :category "...")`), used by the 2008
/// benchmark selection (2008 rules section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Hand-crafted feature checks (always included in 2008).
    Check,
    /// From real applications.
    Industrial,
    /// Everything else.
    Crafted,
    /// Randomly generated.
    Random,
}

impl Category {
    /// Parses the category value (`industrial`, `crafted`, `random`, `check`),
    /// ignoring ASCII case and surrounding whitespace. Anything else is `None`.
    pub fn parse(value: &[u8]) -> Option<Category> {
        match value.trim_ascii().to_ascii_lowercase().as_slice() {
            b"check" => Some(Category::Check),
            b"industrial" => Some(Category::Industrial),
            b"crafted" => Some(Category::Crafted),
            b"random" => Some(Category::Random),
            _ => None,
        }
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Check => "check",
            Category::Industrial => "industrial",
            Category::Crafted => "crafted",
            Category::Random => "random",
        }
    }
}

/// A non-incremental benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NonIncrementalInfo {
    /// Identity.
    pub file: Smt2File,
    /// Expected status.
    pub status: Status,
    /// Number of `assert` commands.
    pub asserts: u64,
    /// Category from `(set-info :category ...)`, when the scan found a recognized
    /// one (absent from reference lists and older inventories; not written when
    /// `None`, so inventories of files without a category are unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<Category>,
}

/// An incremental benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncrementalInfo {
    /// Identity.
    pub file: Smt2File,
    /// Number of `check-sat` commands.
    pub check_sats: u64,
    /// Expected status of each check-sat, when scanned by us (not in reference lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statuses: Option<Vec<Status>>,
}

/// A file that could not be read during a scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanError {
    /// Library-relative path.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// A benchmark inventory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    /// Incremental benchmarks, sorted by path.
    pub incremental: Vec<IncrementalInfo>,
    /// Non-incremental benchmarks, sorted by path.
    pub non_incremental: Vec<NonIncrementalInfo>,
    /// Files that could not be read (only in our own scans).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ScanError>,
}

impl Inventory {
    /// Reads an inventory file (JSON or JSON.gz).
    pub fn read(path: &Path) -> Result<Inventory, DataFileError> {
        datafile::read_json(path)
    }

    /// Reads an inventory file (JSON or JSON.gz) through the binary cache of
    /// [`inventory_cache`](crate::formats::inventory_cache) (written on first
    /// use, validated by the file's content hash; same result as [`Inventory::read`]).
    pub fn read_cached(path: &Path) -> Result<Inventory, DataFileError> {
        crate::formats::inventory_cache::read(path)
    }

    /// [`Inventory::read_cached`], keeping only the benchmarks that `keep`
    /// keeps (see [`inventory_cache::read_only`](crate::formats::inventory_cache::read_only)).
    pub fn read_cached_only(
        path: &Path,
        keep: &crate::formats::inventory_cache::Keep<'_>,
    ) -> Result<Inventory, DataFileError> {
        crate::formats::inventory_cache::read_only(path, keep)
    }

    /// Writes the inventory (gzip when `path` ends in `.gz`).
    pub fn write(&self, path: &Path) -> Result<(), DataFileError> {
        datafile::write_json(path, self)
    }

    /// Sorts both lists by path (the canonical order).
    pub fn sort(&mut self) {
        self.incremental.sort_by_cached_key(|b| b.file.path());
        self.non_incremental.sort_by_cached_key(|b| b.file.path());
        self.errors.sort_by(|a, b| a.path.cmp(&b.path));
    }
}

/// One benchmark of an inventory, borrowed: what selection needs of it, without
/// owning a string (see [`InventoryView`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchRef<'a> {
    /// Whether it is an incremental benchmark.
    pub incremental: bool,
    /// Its logic.
    pub logic: &'a Logic,
    /// Family path parts.
    pub family: &'a [String],
    /// File name.
    pub name: &'a str,
    /// Expected status (`incremental` for incremental benchmarks).
    pub status: Status,
    /// Assertions (non-incremental) or check-sats (incremental).
    pub count: u64,
}

impl BenchRef<'_> {
    /// The library path, as [`Smt2File::path`].
    pub fn path(&self) -> String {
        let mut p = String::new();
        self.write_path(&mut p);
        p
    }

    /// Appends the library path to `p`.
    pub fn write_path(&self, p: &mut String) {
        p.push_str(if self.incremental {
            "incremental/"
        } else {
            "non-incremental/"
        });
        p.push_str(self.logic.as_str());
        for part in self.family {
            p.push('/');
            p.push_str(part);
        }
        p.push('/');
        p.push_str(self.name);
    }

    /// An owned copy of its identity.
    pub fn to_file(&self) -> Smt2File {
        Smt2File {
            incremental: self.incremental,
            logic: self.logic.clone(),
            family: self.family.to_vec(),
            name: self.name.to_owned(),
        }
    }

    /// Compares the library paths of two benchmarks of the same kind and
    /// logic (the part after `LOGIC/`) without building them: benchmarks of one
    /// family (the common case) compare by name.
    pub fn cmp_in_logic(&self, other: &BenchRef<'_>) -> std::cmp::Ordering {
        let same_family = (std::ptr::eq(self.family.as_ptr(), other.family.as_ptr())
            && self.family.len() == other.family.len())
            || self.family == other.family;
        if same_family {
            return self.name.cmp(other.name);
        }
        // The first family part that differs decides, unless one family is
        // a prefix of the other (then its `/` or its name comes next).
        let (a, b) = (self.family, other.family);
        let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let rest = |f: &'_ [String], name: &'_ str| {
            let parts = f[common..].iter().flat_map(|p| p.bytes().chain([b'/']));
            parts.chain(name.bytes()).collect::<Vec<u8>>()
        };
        match (a.get(common), b.get(common)) {
            // Neither path string is built in the usual case: two different parts.
            (Some(x), Some(y)) => {
                let n = x.len().min(y.len());
                match x.as_bytes()[..n].cmp(&y.as_bytes()[..n]) {
                    std::cmp::Ordering::Equal => rest(a, self.name).cmp(&rest(b, other.name)),
                    unequal => unequal,
                }
            }
            _ => rest(a, self.name).cmp(&rest(b, other.name)),
        }
    }
}

/// An inventory's benchmarks, borrowed (from an [`Inventory`] or directly from
/// its binary cache, [`inventory_cache::with_view`](crate::formats::inventory_cache::with_view)),
/// in the inventory's order.
#[derive(Debug, Clone, Default)]
pub struct InventoryView<'a> {
    /// Incremental benchmarks.
    pub incremental: Vec<BenchRef<'a>>,
    /// Non-incremental benchmarks.
    pub non_incremental: Vec<BenchRef<'a>>,
}

impl<'a> BenchRef<'a> {
    /// The borrowed form of an owned benchmark file with its status and count.
    fn of(file: &'a Smt2File, status: Status, count: u64) -> Self {
        BenchRef {
            incremental: file.incremental,
            logic: &file.logic,
            family: &file.family,
            name: &file.name,
            status,
            count,
        }
    }
}

impl Inventory {
    /// The benchmarks, borrowed.
    pub fn view(&self) -> InventoryView<'_> {
        InventoryView {
            incremental: self
                .incremental
                .iter()
                .map(|b| BenchRef::of(&b.file, Status::Incremental, b.check_sats))
                .collect(),
            non_incremental: self
                .non_incremental
                .iter()
                .map(|b| BenchRef::of(&b.file, b.status, b.asserts))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cmp_in_logic` orders as the library paths do, whatever the families:
    /// one a prefix of the other, parts that are prefixes of each other, `-`
    /// (before `/`) and `0` (after it), no family at all.
    #[test]
    fn cmp_in_logic_is_the_path_order() {
        let logic = Logic::new("QF_BV");
        let fams: Vec<Vec<String>> = [
            &[][..],
            &["a"],
            &["a", "b"],
            &["a", "b-c"],
            &["a-b"],
            &["a0"],
            &["ab"],
            &["a", "b", "c"],
        ]
        .iter()
        .map(|f| f.iter().map(|p| p.to_string()).collect())
        .collect();
        let names = ["b", "b-c", "a.smt2", "c", "b0"];
        let mut all = Vec::new();
        for f in &fams {
            for n in names {
                all.push(BenchRef {
                    incremental: false,
                    logic: &logic,
                    family: f,
                    name: n,
                    status: Status::Sat,
                    count: 0,
                });
            }
        }
        for x in &all {
            for y in &all {
                assert_eq!(
                    x.cmp_in_logic(y),
                    x.path().cmp(&y.path()),
                    "{} vs {}",
                    x.path(),
                    y.path()
                );
            }
        }
    }
}
