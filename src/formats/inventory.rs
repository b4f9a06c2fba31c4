//! The benchmark inventory format: every SMT-LIB file of a library with its
//! logic, family, status and counts, in the reference tool's
//! `benchmarks-YYYY.json.gz` format (so a published list can be used directly
//! as an inventory).

use crate::formats::datafile::{self, DataFileError};
use crate::model::{Logic, Status};
use crate::util::fxhash::IndexTable;
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

    /// Why this path could leave the library (or the prepared directory):
    /// a logic, family part or name that is empty, `.` or `..`, or holds `/`,
    /// `\` or NUL (an inventory from elsewhere is untrusted); `None` when
    /// every part is one plain file name.
    pub fn unsafe_component(&self) -> Option<String> {
        let parts = std::iter::once(self.logic.as_str())
            .chain(self.family.iter().map(String::as_str))
            .chain(std::iter::once(self.name.as_str()));
        for part in parts {
            if part.is_empty() || part == "." || part == ".." || part.contains(['/', '\\', '\0']) {
                return Some(format!(
                    "path component {part:?} is not a plain file name (empty, `.`, `..`, or holding `/`, `\\` or NUL)"
                ));
            }
        }
        None
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

/// One benchmark of an [`InventoryView`]: its name borrowed, its logic and
/// family as indices into the view's tables (40 bytes where a [`BenchRef`]
/// takes 56: `select` keeps one per benchmark of the library). Only the view
/// builders of this module and of the inventory cache make them, with indices
/// in range of their view's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewEntry<'a> {
    /// File name.
    pub name: &'a str,
    /// Assertions (non-incremental) or check-sats (incremental).
    pub count: u64,
    /// Index into the view's family table.
    pub(crate) family: u32,
    /// Index into the view's logic table.
    pub(crate) logic: u32,
    /// Expected status (`incremental` for incremental benchmarks).
    pub status: Status,
    /// Whether it is an incremental benchmark.
    pub incremental: bool,
}

impl ViewEntry<'_> {
    /// A slot not filled yet (the cache decoder fills a list section by
    /// section in parallel; every slot is overwritten before use).
    pub(crate) const PLACEHOLDER: ViewEntry<'static> = ViewEntry {
        name: "",
        count: 0,
        family: 0,
        logic: 0,
        status: Status::Unknown,
        incremental: false,
    };

    /// The index of its family in its view's table (equal indices, equal
    /// families; a damaged cache may repeat a family under two indices).
    pub fn family_index(&self) -> usize {
        self.family as usize
    }

    /// The index of its logic in its view's table.
    pub fn logic_index(&self) -> usize {
        self.logic as usize
    }
}

/// An inventory's benchmarks, borrowed (from an [`Inventory`] or directly from
/// its binary cache, [`inventory_cache::with_view`](crate::formats::inventory_cache::with_view)),
/// in the inventory's order: compact entries ([`ViewEntry`]) and the logic and
/// family tables they index; [`InventoryView::bench`] resolves an entry.
#[derive(Debug, Clone, Default)]
pub struct InventoryView<'a> {
    /// The logics the entries index.
    pub(crate) logics: Vec<&'a Logic>,
    /// The families the entries index.
    pub(crate) families: Vec<&'a [String]>,
    /// Incremental benchmarks.
    pub incremental: Vec<ViewEntry<'a>>,
    /// Non-incremental benchmarks.
    pub non_incremental: Vec<ViewEntry<'a>>,
}

impl<'a> InventoryView<'a> {
    /// A view with these tables and no entries yet.
    pub(crate) fn with_tables(logics: Vec<&'a Logic>, families: Vec<&'a [String]>) -> Self {
        InventoryView {
            logics,
            families,
            incremental: Vec::new(),
            non_incremental: Vec::new(),
        }
    }

    /// One list (`true`: the incremental one).
    pub fn list(&self, incremental_list: bool) -> &[ViewEntry<'a>] {
        if incremental_list {
            &self.incremental
        } else {
            &self.non_incremental
        }
    }

    /// The benchmarks of one list (`true`: the incremental one), resolved.
    pub fn benches(&self, incremental_list: bool) -> impl Iterator<Item = BenchRef<'a>> + '_ {
        self.list(incremental_list).iter().map(|e| self.bench(e))
    }

    /// An entry of this view, with its logic and family.
    pub fn bench(&self, e: &ViewEntry<'a>) -> BenchRef<'a> {
        BenchRef {
            incremental: e.incremental,
            logic: self.logic(e),
            family: self.family(e),
            name: e.name,
            status: e.status,
            count: e.count,
        }
    }

    /// The logic of an entry of this view.
    pub fn logic(&self, e: &ViewEntry<'a>) -> &'a Logic {
        self.logics[e.logic as usize]
    }

    /// The family of an entry of this view.
    pub fn family(&self, e: &ViewEntry<'a>) -> &'a [String] {
        self.families[e.family as usize]
    }

    /// [`BenchRef::cmp_in_logic`] of two entries of this view: entries of one
    /// family (the common case) compare by name without a table lookup.
    pub fn cmp_in_logic(&self, a: &ViewEntry<'a>, b: &ViewEntry<'a>) -> std::cmp::Ordering {
        if a.family == b.family {
            a.name.cmp(b.name)
        } else {
            self.bench(a).cmp_in_logic(&self.bench(b))
        }
    }
}

impl Inventory {
    /// The benchmarks, borrowed: the tables hold each distinct logic and
    /// family once (in order of first appearance).
    pub fn view(&self) -> InventoryView<'_> {
        let mut tables = ViewTables::default();
        let incremental = self
            .incremental
            .iter()
            .map(|b| tables.entry(&b.file, Status::Incremental, b.check_sats))
            .collect();
        let non_incremental = self
            .non_incremental
            .iter()
            .map(|b| tables.entry(&b.file, b.status, b.asserts))
            .collect();
        InventoryView {
            logics: tables.logics.items,
            families: tables.families.items,
            incremental,
            non_incremental,
        }
    }
}

/// The logic and family tables of a view of an owned [`Inventory`], built as
/// its entries are visited (consecutive benchmarks mostly share both).
#[derive(Default)]
struct ViewTables<'a> {
    logics: IndexTable<&'a Logic>,
    families: IndexTable<&'a [String]>,
    /// The previous entry's logic and family, and their indices.
    last: Option<(&'a Logic, u32, &'a [String], u32)>,
}

impl<'a> ViewTables<'a> {
    fn entry(&mut self, file: &'a Smt2File, status: Status, count: u64) -> ViewEntry<'a> {
        let (logic, family) = match self.last {
            Some((l, li, f, fi)) if *l == file.logic && f == file.family.as_slice() => (li, fi),
            _ => {
                let li = self.logics.index_of(&file.logic);
                let fi = self.families.index_of(&file.family);
                self.last = Some((&file.logic, li, &file.family, fi));
                (li, fi)
            }
        };
        ViewEntry {
            name: &file.name,
            count,
            family,
            logic,
            status,
            incremental: file.incremental,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_could_leave_the_library_is_named() {
        let f = |logic: &str, family: &[&str], name: &str| Smt2File {
            incremental: false,
            logic: Logic::new(logic.to_string()),
            family: family.iter().map(|s| s.to_string()).collect(),
            name: name.to_string(),
        };
        assert_eq!(f("QF_LIA", &["a", "b"], "x.smt2").unsafe_component(), None);
        for bad in [
            f("QF_LIA", &["..", ".."], "x.smt2"),
            f("..", &[], "x.smt2"),
            f("QF_LIA", &["a/b"], "x.smt2"),
            f("QF_LIA", &[], "../../etc/passwd"),
            f("QF_LIA", &[""], "x.smt2"),
            f("QF_LIA", &["a\\b"], "x.smt2"),
        ] {
            let why = bad.unsafe_component();
            assert!(
                why.as_deref()
                    .is_some_and(|w| w.contains("is not a plain file name")),
                "{bad:?}: {why:?}"
            );
        }
    }

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
