//! The run manifest written by BenchExec generation: what each run is.
//!
//! A run in a result file is identified by the benchmark-definition file
//! (`benchmarkname` in the XML), the rundefinition name and the task (`run@name`).
//! The manifest maps that triple to the competition identity of the run
//! (solver, participation, track, division, logic, benchmark). Schema in
//! `docs/ingest.md`.

mod fast;
mod read;

use crate::formats::datafile::DataFileError;
use crate::formats::inventory::Smt2File;
use crate::model::{Division, Logic, Track};
use crate::util::fxhash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest format version this crate reads.
pub const MANIFEST_FORMAT: u32 = 1;

/// A manifest file: `{"format": 1, "runs": [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Format version ([`MANIFEST_FORMAT`]).
    pub format: u32,
    /// One entry per (benchmark definition, rundefinition, task).
    pub runs: Vec<ManifestRun>,
}

/// One run of the competition as generated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestRun {
    /// Benchmark-definition file name (`cvc5_SingleQuery_QF_BV.xml`); the result
    /// XML's `benchmarkname` is this without `.xml`.
    pub benchmark_definition: String,
    /// Rundefinition name (`cvc5,0,SingleQuery`).
    pub rundefinition: String,
    /// Task file path as written in the definition (`tasks/QF_BV/123_x.yml`);
    /// matched against `run@name` by basename, then by the longest common
    /// path suffix.
    pub task: String,
    /// Solver name.
    pub solver: String,
    /// Participation index in the submission.
    pub participation: u32,
    /// Track.
    pub track: Track,
    /// Division.
    pub division: Division,
    /// Logic.
    pub logic: Logic,
    /// The benchmark (its library identity).
    pub benchmark: Smt2File,
}

/// A run as read, borrowed from the reader's buffer ([`ManifestIndex::push`]
/// stores only what it has not seen): `F` is a family part, `String` from a
/// [`ManifestRun`], a borrowed string from the fast reader.
struct NewRun<'a, F> {
    benchmark_definition: &'a str,
    rundefinition: &'a str,
    task: &'a str,
    solver: &'a str,
    participation: u32,
    track: Track,
    division: &'a str,
    logic: &'a str,
    benchmark: NewBenchmark<'a, F>,
}

/// The benchmark of a [`NewRun`].
struct NewBenchmark<'a, F> {
    incremental: bool,
    logic: &'a str,
    family: &'a [F],
    name: &'a str,
}

impl<F: AsRef<str>> NewBenchmark<'_, F> {
    /// Whether it is `b`.
    fn is(&self, b: &Smt2File) -> bool {
        self.incremental == b.incremental
            && self.logic == b.logic.as_str()
            && self.name == b.name
            && self.family.len() == b.family.len()
            && self
                .family
                .iter()
                .zip(&b.family)
                .all(|(x, y)| x.as_ref() == y)
    }

    fn to_owned(&self) -> Smt2File {
        Smt2File {
            incremental: self.incremental,
            logic: Logic::new(self.logic),
            family: self.family.iter().map(|f| f.as_ref().to_string()).collect(),
            name: self.name.to_string(),
        }
    }
}

impl<'a> NewRun<'a, String> {
    fn of(r: &'a ManifestRun) -> Self {
        NewRun {
            benchmark_definition: &r.benchmark_definition,
            rundefinition: &r.rundefinition,
            task: &r.task,
            solver: &r.solver,
            participation: r.participation,
            track: r.track,
            division: r.division.as_str(),
            logic: r.logic.as_str(),
            benchmark: NewBenchmark {
                incremental: r.benchmark.incremental,
                logic: r.benchmark.logic.as_str(),
                family: &r.benchmark.family,
                name: &r.benchmark.name,
            },
        }
    }
}

/// A run that several manifest entries match equally well (the same benchmark
/// definition, rundefinition and task basename, and as long a path suffix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{entries} manifest entries match task '{task}' equally well")]
pub struct AmbiguousRun {
    /// The run's task, as in the result file.
    pub task: String,
    /// How many entries match.
    pub entries: usize,
}

/// A manifest indexed for lookups, stored compactly: every run is a handful
/// of indices into tables of the distinct definitions, rundefinitions,
/// solvers, tasks, divisions, logics and benchmarks (the 2025 competition's
/// 1.8 million runs share 370,000 tasks and a few thousand names). Read from
/// its file one run at a time ([`ManifestIndex::read`]): neither the file's
/// text (720 MB for 2025) nor the runs as separate values are held at once.
#[derive(Debug, Default)]
pub struct ManifestIndex {
    /// Definitions (with and without `.xml`), rundefinitions, solvers,
    /// division and logic names, task basenames.
    names: Interner,
    /// Task paths; by task index, the name index of its basename and its
    /// first benchmark.
    tasks: Interner,
    task_base: Vec<u32>,
    task_benchmark: Vec<u32>,
    /// Task index -> its benchmarks after the first (only a hand-written
    /// manifest gives a task several).
    more_benchmarks: HashMap<u32, Vec<u32>>,
    divisions: Vec<Division>,
    logics: Vec<Logic>,
    benchmarks: Vec<Smt2File>,
    /// Name index -> division/logic index (a name seen as one of them).
    division_of: HashMap<u32, u32>,
    logic_of: HashMap<u32, u32>,
    /// What the runs of a result file share (a few thousand in 2025).
    groups: Vec<Group>,
    group_of: HashMap<Group, u32>,
    runs: Vec<PackedRun>,
    /// The benchmark name (definition without `.xml`) of the last run added:
    /// the runs of a definition come together, so most of a run's names are
    /// the previous run's ([`ManifestIndex::push`] compares before it hashes).
    last_bench: u32,
    /// (benchmark name, rundefinition, task basename, run), sorted by the key
    /// once read ([`ManifestIndex::seal`]): 16 bytes a run, where a map of
    /// vectors took about 64.
    by_key: Vec<[u32; 4]>,
    /// Run indices ordered by (definition name index, run): the runs of one
    /// definition without a scan of all runs ([`ManifestIndex::definition_runs`]).
    by_definition: Vec<u32>,
}

/// A run of a [`ManifestIndex`]: indices into its tables (12 bytes).
#[derive(Debug, Clone, Copy)]
struct PackedRun {
    group: u32,
    task: u32,
    benchmark: u32,
}

/// What the runs of one definition and rundefinition have in common
/// (indices into the tables of a [`ManifestIndex`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Group {
    definition: u32,
    rundefinition: u32,
    solver: u32,
    participation: u32,
    track: Track,
    division: u32,
    logic: u32,
}

/// No entry (a task without a benchmark yet).
const NONE: u32 = u32::MAX;

/// Distinct strings, each with its index; each string is stored once (the
/// table holds indices, probed with the string's hash).
#[derive(Debug, Default)]
struct Interner {
    items: Vec<Box<str>>,
    ix: hashbrown::HashTable<u32>,
}

impl Interner {
    fn hash(s: &str) -> u64 {
        use std::hash::BuildHasher;
        crate::util::fxhash::FxBuildHasher.hash_one(s)
    }

    fn index_of(&mut self, s: &str) -> u32 {
        let hash = Self::hash(s);
        let items = &self.items;
        if let Some(&i) = self.ix.find(hash, |&i| &*items[i as usize] == s) {
            return i;
        }
        let i = u32::try_from(self.items.len()).unwrap_or(NONE);
        self.items.push(s.into());
        let items = &self.items;
        self.ix
            .insert_unique(hash, i, |&j| Self::hash(&items[j as usize]));
        i
    }

    /// [`Interner::index_of`] when `s` is the string at `last`, without hashing.
    fn index_like(&mut self, last: u32, s: &str) -> u32 {
        match self.items.get(last as usize) {
            Some(item) if &**item == s => last,
            _ => self.index_of(s),
        }
    }

    fn get(&self, s: &str) -> Option<u32> {
        self.ix
            .find(Self::hash(s), |&i| &*self.items[i as usize] == s)
            .copied()
    }
}

/// The index of name `s` in `table` (the divisions or the logics), added
/// when new (`of`: name index -> table index); `last` (the previous run's)
/// is compared first, without hashing.
fn table_index<T: AsRef<str>>(
    names: &mut Interner,
    table: &mut Vec<T>,
    of: &mut HashMap<u32, u32>,
    last: Option<u32>,
    s: &str,
    new: impl FnOnce(&str) -> T,
) -> u32 {
    if let Some(l) = last
        && table[l as usize].as_ref() == s
    {
        return l;
    }
    let name = names.index_of(s);
    *of.entry(name).or_insert_with(|| {
        table.push(new(s));
        (table.len() - 1) as u32
    })
}

/// A run of a [`ManifestIndex`], borrowed from its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunRef<'a> {
    /// See [`ManifestRun::benchmark_definition`].
    pub benchmark_definition: &'a str,
    /// See [`ManifestRun::rundefinition`].
    pub rundefinition: &'a str,
    /// See [`ManifestRun::task`].
    pub task: &'a str,
    /// See [`ManifestRun::solver`].
    pub solver: &'a str,
    /// See [`ManifestRun::participation`].
    pub participation: u32,
    /// See [`ManifestRun::track`].
    pub track: Track,
    /// See [`ManifestRun::division`].
    pub division: &'a Division,
    /// See [`ManifestRun::logic`].
    pub logic: &'a Logic,
    /// See [`ManifestRun::benchmark`].
    pub benchmark: &'a Smt2File,
}

impl RunRef<'_> {
    /// The run as an owned [`ManifestRun`].
    pub fn to_owned(&self) -> ManifestRun {
        ManifestRun {
            benchmark_definition: self.benchmark_definition.to_string(),
            rundefinition: self.rundefinition.to_string(),
            task: self.task.to_string(),
            solver: self.solver.to_string(),
            participation: self.participation,
            track: self.track,
            division: self.division.clone(),
            logic: self.logic.clone(),
            benchmark: self.benchmark.clone(),
        }
    }
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

fn common_suffix(a: &str, b: &str) -> usize {
    a.rsplit('/')
        .zip(b.rsplit('/'))
        .take_while(|(x, y)| x == y && *x != ".." && *x != ".")
        .count()
}

impl ManifestIndex {
    /// Reads a manifest file (JSON or JSON.gz) and indexes it, one run at a
    /// time ([`read`]).
    pub fn read(path: &Path) -> Result<ManifestIndex, DataFileError> {
        read::read(path)
    }

    /// Indexes a manifest.
    pub fn new(m: Manifest) -> ManifestIndex {
        let mut index = ManifestIndex::default();
        for r in &m.runs {
            index.push(&NewRun::of(r));
        }
        index.seal()
    }

    /// Adds a run.
    fn push<F: AsRef<str>>(&mut self, r: &NewRun<'_, F>) {
        let last = self.runs.last().map(|r| self.groups[r.group as usize]);
        let (definition, bench) = match last {
            Some(l) if &*self.names.items[l.definition as usize] == r.benchmark_definition => {
                (l.definition, self.last_bench)
            }
            _ => {
                let definition = self.names.index_of(r.benchmark_definition);
                let bench = r
                    .benchmark_definition
                    .strip_suffix(".xml")
                    .unwrap_or(r.benchmark_definition);
                (definition, self.names.index_of(bench))
            }
        };
        self.last_bench = bench;
        let rundefinition = self
            .names
            .index_like(last.map_or(NONE, |l| l.rundefinition), r.rundefinition);
        let solver = self
            .names
            .index_like(last.map_or(NONE, |l| l.solver), r.solver);
        let division = table_index(
            &mut self.names,
            &mut self.divisions,
            &mut self.division_of,
            last.map(|l| l.division),
            r.division,
            |s: &str| Division::new(s),
        );
        let logic = table_index(
            &mut self.names,
            &mut self.logics,
            &mut self.logic_of,
            last.map(|l| l.logic),
            r.logic,
            |s: &str| Logic::new(s),
        );
        let task = self.tasks.index_of(r.task);
        if task as usize == self.task_base.len() {
            self.task_base.push(self.names.index_of(basename(r.task)));
            self.task_benchmark.push(NONE);
        }
        let base = self.task_base[task as usize];
        let benchmark = self.benchmark_of(task, &r.benchmark);
        let group = Group {
            definition,
            rundefinition,
            solver,
            participation: r.participation,
            track: r.track,
            division,
            logic,
        };
        let group = match self.runs.last() {
            Some(l) if last == Some(group) => l.group,
            _ => *self.group_of.entry(group).or_insert_with(|| {
                self.groups.push(group);
                (self.groups.len() - 1) as u32
            }),
        };
        let i = self.runs.len() as u32;
        self.runs.push(PackedRun {
            group,
            task,
            benchmark,
        });
        self.by_key.push([bench, rundefinition, base, i]);
    }

    /// The index of `task`'s benchmark `b`, added when new.
    fn benchmark_of<F: AsRef<str>>(&mut self, task: u32, b: &NewBenchmark<'_, F>) -> u32 {
        let first = self.task_benchmark[task as usize];
        if first != NONE && b.is(&self.benchmarks[first as usize]) {
            return first;
        }
        if let Some(&known) = self
            .more_benchmarks
            .get(&task)
            .and_then(|more| more.iter().find(|&&k| b.is(&self.benchmarks[k as usize])))
        {
            return known;
        }
        let new = self.benchmarks.len() as u32;
        self.benchmarks.push(b.to_owned());
        if first == NONE {
            self.task_benchmark[task as usize] = new;
        } else {
            self.more_benchmarks.entry(task).or_default().push(new);
        }
        new
    }

    /// Sorts the lookup keys (after the last [`ManifestIndex::push`]).
    fn seal(mut self) -> Self {
        self.by_key.sort_unstable();
        let mut by_definition: Vec<u32> = (0..self.runs.len() as u32).collect();
        // Stable: a definition's runs stay in manifest order.
        by_definition
            .sort_by_key(|&i| self.groups[self.runs[i as usize].group as usize].definition);
        self.by_definition = by_definition;
        self
    }

    fn view(&self, p: &PackedRun) -> RunRef<'_> {
        let g = &self.groups[p.group as usize];
        let name = |i: u32| &*self.names.items[i as usize];
        RunRef {
            benchmark_definition: name(g.definition),
            rundefinition: name(g.rundefinition),
            task: &self.tasks.items[p.task as usize],
            solver: name(g.solver),
            participation: g.participation,
            track: g.track,
            division: &self.divisions[g.division as usize],
            logic: &self.logics[g.logic as usize],
            benchmark: &self.benchmarks[p.benchmark as usize],
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether the manifest is empty.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Every entry, in manifest order (indices of [`ManifestIndex::lookup_index`]).
    pub fn runs(&self) -> impl ExactSizeIterator<Item = RunRef<'_>> + '_ {
        self.runs.iter().map(|p| self.view(p))
    }

    /// The entries of benchmark definition `file` (its `benchmark_definition`),
    /// in manifest order; none for a definition the manifest does not name.
    /// A binary search, not a scan: asking for each of 1,100 definitions of
    /// 1.8 million runs stays linear in total.
    pub fn definition_runs(&self, file: &str) -> impl Iterator<Item = RunRef<'_>> + '_ {
        let range = match self.names.get(file) {
            Some(d) => {
                let def = |i: &u32| self.groups[self.runs[*i as usize].group as usize].definition;
                let from = self.by_definition.partition_point(|i| def(i) < d);
                let to = from + self.by_definition[from..].partition_point(|i| def(i) == d);
                from..to
            }
            None => 0..0,
        };
        self.by_definition[range]
            .iter()
            .map(|&i| self.view(&self.runs[i as usize]))
    }

    /// The entry at `index` (from [`ManifestIndex::lookup_index`]).
    pub fn get(&self, index: usize) -> RunRef<'_> {
        self.view(&self.runs[index])
    }

    /// The entry of a run; `Ok(None)` if the manifest has none, `Err` if several
    /// entries match equally well.
    pub fn lookup(
        &self,
        benchmarkname: &str,
        rundefinition: &str,
        task: &str,
    ) -> Result<Option<RunRef<'_>>, AmbiguousRun> {
        Ok(self
            .lookup_index(benchmarkname, rundefinition, task)?
            .map(|i| self.get(i)))
    }

    /// The index of a run's entry (see [`ManifestIndex::lookup`]).
    pub fn lookup_index(
        &self,
        benchmarkname: &str,
        rundefinition: &str,
        task: &str,
    ) -> Result<Option<usize>, AmbiguousRun> {
        self.file_runs(benchmarkname, rundefinition)
            .lookup_index(task)
    }

    /// The entries of one result file (its `benchmarkname` and
    /// rundefinition), to look its runs up by task without finding the file's
    /// names again for every run.
    pub fn file_runs(&self, benchmarkname: &str, rundefinition: &str) -> FileRuns<'_> {
        let keys = match (self.names.get(benchmarkname), self.names.get(rundefinition)) {
            (Some(bench), Some(rundef)) => {
                let key = [bench, rundef];
                let from = self.by_key.partition_point(|k| k[..2] < key[..]);
                let to = from + self.by_key[from..].partition_point(|k| k[..2] == key[..]);
                &self.by_key[from..to]
            }
            _ => &[],
        };
        FileRuns { index: self, keys }
    }
}

/// The entries of one result file ([`ManifestIndex::file_runs`]).
#[derive(Debug, Clone, Copy)]
pub struct FileRuns<'a> {
    index: &'a ManifestIndex,
    /// The file's part of [`ManifestIndex::by_key`].
    keys: &'a [[u32; 4]],
}

impl<'a> FileRuns<'a> {
    /// The entry at `index` (from [`FileRuns::lookup_index`]).
    pub fn get(&self, index: usize) -> RunRef<'a> {
        self.index.get(index)
    }

    /// The index of the entry of the file's run `task` (see
    /// [`ManifestIndex::lookup`]).
    pub fn lookup_index(&self, task: &str) -> Result<Option<usize>, AmbiguousRun> {
        if self.keys.is_empty() {
            return Ok(None);
        }
        let Some(base) = self.index.names.get(basename(task)) else {
            return Ok(None);
        };
        let from = self.keys.partition_point(|k| k[2] < base);
        let to = from + self.keys[from..].partition_point(|k| k[2] == base);
        let cands = &self.keys[from..to];
        match cands {
            [] => return Ok(None),
            [one] => return Ok(Some(one[3] as usize)),
            _ => {}
        }
        let score = |k: &[u32; 4]| {
            let run = &self.index.runs[k[3] as usize];
            common_suffix(&self.index.tasks.items[run.task as usize], task)
        };
        let best = cands.iter().map(score).max().unwrap_or(0);
        let winners: Vec<_> = cands.iter().filter(|k| score(k) == best).collect();
        match winners.as_slice() {
            [one] => Ok(Some(one[3] as usize)),
            _ => Err(AmbiguousRun {
                task: task.to_string(),
                entries: winners.len(),
            }),
        }
    }
}
