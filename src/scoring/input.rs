//! The scoring input: one typed record per run ([`ScoredRun`]), what is known about
//! each benchmark ([`BenchInfo`]) and who is registered where ([`Participant`]).
//!
//! This is the boundary of the scoring engine. Anything that produces runs (the
//! reference tool's `results-*.json.gz` via [`ScoredRun::from_record`], or the
//! BenchExec ingestion, whose adapter lives with the ingestion code) converts into
//! [`ScoredRun`]; scoring never looks at any other run format.

use crate::benchmarks::{Inventory, Smt2File};
use crate::formats::results::RunRecord;
use crate::model::{Answer, Division, Logic, Status, Track};
use crate::util::fxhash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// CPU and wall-clock seconds at one point of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RunTime {
    /// CPU seconds (all cores).
    pub cpu: f64,
    /// Wall-clock seconds.
    pub wall: f64,
}

/// One run of one solver on one benchmark, as scoring needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredRun {
    /// Solver (submission) name, shared by the runs of one reader
    /// ([`SolverName`]: a 500,000-run table names a few dozen solvers).
    pub solver: SolverName,
    /// Track the run belongs to.
    pub track: Track,
    /// The benchmark (its logic decides the division). Shared: a run table
    /// names each benchmark once per solver, and readers give equal files one
    /// allocation ([`FileInterner`]).
    pub file: Arc<Smt2File>,
    /// Outcome: `sat`/`unsat`/`unknown`, `Timeout`, `OutOfMemory`, `incremental`,
    /// or a validation verdict (`UnsatCoreNotValidated`, `ModelUnsat`, ...).
    /// For the Unsat-Core track `unsat` means "core validated" and for the
    /// Model-Validation track `sat` means "model validated".
    pub answer: Answer,
    /// Actual CPU time `ac` (seconds, all cores).
    pub cpu_time: f64,
    /// Actual wall-clock time `aw` (seconds).
    pub wall_time: f64,
    /// Incremental: number of correct check-sat answers; Unsat-Core: size of the core.
    pub nb_answers: Option<u64>,
    /// Incremental: the time at which the last `sat`/`unsat` was returned (rules 7.1,
    /// w and c of the Incremental Track). `None` when no answer was returned.
    /// Boxed: only Incremental runs with an answer have one, and a 16-byte
    /// pair inline would grow every run of every track by 16 bytes.
    pub last_answer_time: Option<Box<RunTime>>,
    /// A `sat`/`unsat` printed by a run that then hit the time limit (rules 7.1.2:
    /// "a response is taken into consideration even when the solver process ...
    /// does not terminate within the time limit"). `answer` is then `Timeout`.
    pub answer_at_timeout: Option<Answer>,
    /// The run could not be interpreted or the solver reported an error
    /// (run table `error`): scored as `unknown`, shown as an error.
    pub error: bool,
}

impl ScoredRun {
    /// Adapter from the reference tool's results record.
    ///
    /// The reference data has already replaced an incremental run's times by the
    /// time of its last answer (the trace executor's last `time` line), so
    /// `last_answer_time` is the record's times when `nb_answers > 0`. A timeout that
    /// carried an answer is not distinguishable in that format (`answer_at_timeout`
    /// is `None`).
    pub fn from_record(r: &RunRecord) -> ScoredRun {
        ScoredRun::from_owned(r.clone())
    }

    /// [`ScoredRun::from_record`], consuming the record (no copy of its strings).
    pub fn from_owned(r: RunRecord) -> ScoredRun {
        ScoredRun::from_record_parts(
            r.track,
            SolverName::from(r.solver),
            Arc::new(r.file),
            r.result,
            (r.cpu_time, r.wallclock_time),
            r.nb_answers,
        )
    }

    /// [`ScoredRun::from_owned`] of a record given by its fields (`times`: CPU
    /// and wall-clock seconds), the file already shared.
    pub fn from_record_parts(
        track: Track,
        solver: SolverName,
        file: Arc<Smt2File>,
        result: Answer,
        times: (f64, f64),
        nb_answers: Option<u64>,
    ) -> ScoredRun {
        let (cpu_time, wall_time) = times;
        let last_answer_time = match (track, nb_answers) {
            (Track::Incremental, Some(n)) if n > 0 => Some(Box::new(RunTime {
                cpu: cpu_time,
                wall: wall_time,
            })),
            _ => None,
        };
        ScoredRun {
            solver,
            track,
            file,
            answer: result,
            cpu_time,
            wall_time,
            nb_answers,
            last_answer_time,
            answer_at_timeout: None,
            error: false,
        }
    }
}

/// The name of a run's solver: one shared allocation per distinct name (a
/// reader hands every run of a solver the same [`SolverName`], see
/// [`FileInterner::solver`]), 8 bytes per run (a thin pointer to the shared
/// boxed string) instead of a `String` and its heap copy. Derefs to `str`;
/// compares, orders and hashes as the string.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SolverName(Arc<Box<str>>);

impl SolverName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for SolverName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SolverName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for SolverName {
    fn from(s: &str) -> Self {
        SolverName(Arc::new(Box::from(s)))
    }
}

impl From<String> for SolverName {
    fn from(s: String) -> Self {
        SolverName(Arc::new(s.into_boxed_str()))
    }
}

impl From<&String> for SolverName {
    fn from(s: &String) -> Self {
        SolverName::from(s.as_str())
    }
}

impl PartialEq<str> for SolverName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SolverName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SolverName {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl std::fmt::Debug for SolverName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for SolverName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Gives equal benchmark identities one shared allocation (a 500,000-run
/// table names each benchmark once per solver). Files are found by a hash of
/// their parts, so a reader can look a borrowed identity up
/// ([`FileInterner::intern_parts`]) and allocate only the first time.
#[derive(Debug, Default)]
pub struct FileInterner {
    /// Hash of the parts -> the first file with that hash.
    first: FxHashMap<u64, Arc<Smt2File>>,
    /// Files whose hash equals that of a different, earlier file (searched in
    /// order; 64-bit collisions are rare, correctness does not depend on it).
    collided: Vec<(u64, Arc<Smt2File>)>,
    /// The solver names seen.
    solvers: FxHashSet<SolverName>,
}

impl FileInterner {
    /// The shared [`SolverName`] of `name`, allocated on first sight.
    pub fn solver(&mut self, name: &str) -> SolverName {
        if let Some(s) = self.solvers.get(name) {
            return s.clone();
        }
        let s = SolverName::from(name);
        self.solvers.insert(s.clone());
        s
    }

    /// The shared copy of `file` (`file` itself when it is the first).
    pub fn intern(&mut self, file: Arc<Smt2File>) -> Arc<Smt2File> {
        let family: Vec<&str> = file.family.iter().map(String::as_str).collect();
        self.intern_with(
            file.incremental,
            file.logic.as_str(),
            &family,
            &file.name,
            || file.clone(),
        )
    }

    /// The shared file with these parts, allocated on first sight.
    pub fn intern_parts(
        &mut self,
        incremental: bool,
        logic: &str,
        family: &[&str],
        name: &str,
    ) -> Arc<Smt2File> {
        self.intern_with(incremental, logic, family, name, || {
            Arc::new(Smt2File {
                incremental,
                logic: Logic::new(logic),
                family: family.iter().map(|p| (*p).to_owned()).collect(),
                name: name.to_owned(),
            })
        })
    }

    fn intern_with(
        &mut self,
        incremental: bool,
        logic: &str,
        family: &[&str],
        name: &str,
        make: impl FnOnce() -> Arc<Smt2File>,
    ) -> Arc<Smt2File> {
        let same = |f: &Smt2File| {
            f.incremental == incremental
                && f.logic.as_str() == logic
                && f.name == name
                && f.family.len() == family.len()
                && f.family.iter().zip(family).all(|(a, b)| a == b)
        };
        let h = parts_hash(incremental, logic, family, name);
        match self.first.get(&h) {
            Some(f) if same(f) => Arc::clone(f),
            Some(_) => {
                if let Some((_, f)) = self.collided.iter().find(|(k, f)| *k == h && same(f)) {
                    return Arc::clone(f);
                }
                let f = make();
                self.collided.push((h, Arc::clone(&f)));
                f
            }
            None => {
                let f = make();
                self.first.insert(h, Arc::clone(&f));
                f
            }
        }
    }
}

/// The hash [`FileInterner`] files a benchmark under (each part's length
/// written too, so parts cannot run into each other).
fn parts_hash(incremental: bool, logic: &str, family: &[&str], name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::util::fxhash::FxHasher::default();
    h.write_u8(u8::from(incremental));
    for part in std::iter::once(logic)
        .chain(family.iter().copied())
        .chain([name])
    {
        h.write_usize(part.len());
        h.write(part.as_bytes());
    }
    h.write_usize(family.len());
    h.finish()
}

/// What scoring needs to know about a benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchInfo {
    /// Expected status (`incremental` for incremental benchmarks).
    pub status: Status,
    /// Number of assertions (Unsat-Core N).
    pub asserts: u64,
    /// Number of check-sat commands (Incremental N).
    pub check_sats: u64,
}

/// A registered solver in one track.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    /// Solver name.
    pub solver: String,
    /// Submitted by its authors (rules section 6): only these make a division
    /// competitive and can win.
    pub competitive: bool,
    /// Team identifier (see [`crate::scoring::competitive`]).
    pub team: String,
    /// Base solver, for derived solvers.
    pub base: Option<String>,
    /// Divisions and logics entered in the track.
    pub entries: BTreeMap<Division, BTreeSet<Logic>>,
}

impl Participant {
    /// Whether the solver entered `logic` of `division`.
    pub fn entered(&self, division: &Division, logic: &Logic) -> bool {
        self.entries
            .get(division)
            .is_some_and(|ls| ls.contains(logic))
    }
}

/// Everything one track's scoring needs.
#[derive(Debug, Clone)]
pub struct ScoringInput {
    /// The track.
    pub track: Track,
    /// Wall-clock limit T in seconds.
    pub time_limit: f64,
    /// Cores m per run: the CPU-time limit is m·T (rules 2025 7.1, 2015 7.1).
    pub cores: u32,
    /// Memory limit in MB (reported only).
    pub memory_mb: u64,
    /// Competition year (reported only).
    pub year: u16,
    /// Divisions of the track and their logics.
    pub divisions: BTreeMap<Division, Vec<Logic>>,
    /// Registered solvers, sorted by name.
    pub participants: Vec<Participant>,
    /// Runs of the track (runs of other tracks are ignored).
    pub runs: Vec<ScoredRun>,
    /// Benchmark facts, by library path ([`Smt2File::path`]).
    pub benchmarks: BenchInfos,
    /// Derived solver -> base solver (for `deltaBaseSolver`).
    pub base_solvers: BTreeMap<String, String>,
    /// Selected benchmarks (`score --selection`): each is in its division's N even
    /// without any run, and a registered solver without a run on it is unsolved.
    /// Empty: N = the benchmarks with at least one run (anchor 5.6).
    pub selection: Vec<Smt2File>,
}

impl ScoringInput {
    /// The CPU-time limit m·T of a run (rules 7.1: `ac ∈ [0, mT]`); m is at least 1.
    pub fn cpu_limit(&self) -> f64 {
        f64::from(self.cores.max(1)) * self.time_limit
    }
}

/// Benchmark facts by library path ([`ScoringInput::benchmarks`]). Keyed with
/// [`FxHashMap`] (only looked up, never iterated for output): the soundness join
/// looks up one path per benchmark, which SipHash made a few per cent of `score`.
pub type BenchInfos = FxHashMap<String, BenchInfo>;

/// The distinct library paths of `files` (each distinct file's path is built
/// once: a run table names each benchmark once per solver).
pub fn paths_of<'a>(files: impl Iterator<Item = &'a Smt2File>) -> FxHashSet<String> {
    // Interned files (one allocation per benchmark) are recognized by address
    // first: one hash of a pointer per run instead of one of the file's parts.
    // (Files not interned build their path once per occurrence; equal paths
    // are one entry.)
    let mut seen: FxHashSet<*const Smt2File> = FxHashSet::default();
    let mut out = FxHashSet::default();
    let mut p = String::new();
    for f in files {
        if seen.insert(std::ptr::from_ref(f)) {
            p.clear();
            f.write_path(&mut p);
            if !out.contains(p.as_str()) {
                out.insert(p.clone());
            }
        }
    }
    out
}

/// The facts of the benchmarks of `wanted` (the [`paths_of`] of the runs and the
/// selection), from an inventory. Benchmarks missing from the inventory get
/// status `unknown` (or `incremental`) and zero counts; they are listed, sorted,
/// in the second value.
pub fn bench_infos_of(
    inventory: &Inventory,
    mut wanted: FxHashSet<String>,
) -> (BenchInfos, Vec<String>) {
    let mut out = BenchInfos::with_capacity_and_hasher(wanted.len(), Default::default());
    // One path buffer for the whole library; a wanted path found is moved
    // out of `wanted` into `out` (no copy), so what is left is missing. An
    // inventory listing a path twice: the last entry wins, as an insert would.
    let mut p = String::new();
    let mut found = |p: &String, info: BenchInfo| {
        if let Some(p) = wanted.take(p) {
            out.insert(p, info);
        } else if let Some(v) = out.get_mut(p) {
            *v = info;
        }
    };
    for b in &inventory.non_incremental {
        p.clear();
        b.file.write_path(&mut p);
        let info = BenchInfo {
            status: b.status,
            asserts: b.asserts,
            check_sats: 1,
        };
        found(&p, info);
    }
    for b in &inventory.incremental {
        p.clear();
        b.file.write_path(&mut p);
        let info = BenchInfo {
            status: Status::Incremental,
            asserts: 0,
            check_sats: b.check_sats,
        };
        found(&p, info);
    }
    let mut missing: Vec<String> = wanted.into_iter().collect();
    missing.sort();
    for p in &missing {
        let status = if p.starts_with("incremental/") {
            Status::Incremental
        } else {
            Status::Unknown
        };
        out.insert(
            p.clone(),
            BenchInfo {
                status,
                asserts: 0,
                check_sats: 0,
            },
        );
    }
    (out, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run stays at 64 bytes: the whole 2025 competition holds 1.79 million
    /// of them in `report` (88 bytes each took 158 MB).
    #[test]
    fn a_run_is_64_bytes() {
        assert_eq!(std::mem::size_of::<SolverName>(), 8);
        assert_eq!(std::mem::size_of::<ScoredRun>(), 64);
    }

    /// A `SolverName` behaves as its string (equality, order, hash lookups,
    /// display), and the interner hands equal names one allocation.
    #[test]
    fn solver_names_are_shared_and_behave_as_strings() {
        let mut files = FileInterner::default();
        let a = files.solver("cvc5");
        let b = files.solver(&String::from("cvc5"));
        let z = files.solver("Bitwuzla");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert!(!Arc::ptr_eq(&a.0, &z.0));
        assert_eq!(a, "cvc5");
        assert_eq!(a, *"cvc5");
        assert_eq!(a, String::from("cvc5"));
        assert_eq!(a.as_str(), "cvc5");
        assert_eq!(a.len(), 4); // Deref to str
        // Ordered as the strings: "Bitwuzla" < "cvc5" (uppercase first).
        assert!(z < a);
        assert_eq!(format!("{a} {a:?}"), "cvc5 \"cvc5\"");
        let set: FxHashSet<SolverName> = [a.clone()].into_iter().collect();
        assert!(set.contains("cvc5"));
        assert_eq!(SolverName::from("x"), SolverName::from(String::from("x")));
    }
}
