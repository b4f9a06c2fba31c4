//! The run manifest written by BenchExec generation: what each run is.
//!
//! A run in a result file is identified by the benchmark-definition file
//! (`benchmarkname` in the XML), the rundefinition name and the task (`run@name`).
//! The manifest maps that triple to the competition identity of the run
//! (solver, participation, track, division, logic, benchmark). Schema in
//! `docs/ingest.md`.

use crate::formats::datafile::{self, DataFileError};
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
    names: Interner,
    divisions: Vec<Division>,
    logics: Vec<Logic>,
    benchmarks: Vec<Smt2File>,
    /// Name index -> division/logic index (a name seen as one of them).
    division_of: HashMap<u32, u32>,
    logic_of: HashMap<u32, u32>,
    /// Task name index -> its benchmarks (one, unless a hand-written
    /// manifest gives a task several).
    benchmarks_of: HashMap<u32, Vec<u32>>,
    runs: Vec<PackedRun>,
    /// (benchmark name, rundefinition, task basename, run), sorted by the key
    /// once read ([`ManifestIndex::seal`]): 16 bytes a run, where a map of
    /// vectors took about 64.
    by_key: Vec<[u32; 4]>,
    /// Run indices ordered by (definition name index, run): the runs of one
    /// definition without a scan of all runs ([`ManifestIndex::definition_runs`]).
    by_definition: Vec<u32>,
}

/// A run of a [`ManifestIndex`]: indices into its tables.
#[derive(Debug, Clone, Copy)]
struct PackedRun {
    definition: u32,
    rundefinition: u32,
    task: u32,
    solver: u32,
    participation: u32,
    track: Track,
    division: u32,
    logic: u32,
    benchmark: u32,
}

/// Distinct strings, each with its index.
#[derive(Debug, Default)]
struct Interner {
    items: Vec<Box<str>>,
    ix: HashMap<Box<str>, u32>,
}

impl Interner {
    fn index_of(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.ix.get(s) {
            return i;
        }
        let i = u32::try_from(self.items.len()).unwrap_or(u32::MAX);
        self.items.push(s.into());
        self.ix.insert(s.into(), i);
        i
    }

    fn get(&self, s: &str) -> Option<u32> {
        self.ix.get(s).copied()
    }
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

/// Reads `{"format": N, "runs": [...]}` into an index, one run at a time.
struct ManifestSeed<'i>(&'i mut ManifestIndex);

impl<'de> serde::de::DeserializeSeed<'de> for ManifestSeed<'_> {
    type Value = Option<u32>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ManifestSeed<'_> {
    type Value = Option<u32>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a runs manifest {\"format\": 1, \"runs\": [...]}")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Option<u32>, A::Error> {
        use serde::de::Error;
        let mut format = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "format" => format = Some(map.next_value::<u32>()?),
                "runs" => map.next_value_seed(RunsSeed(self.0))?,
                other => return Err(A::Error::unknown_field(other, &["format", "runs"])),
            }
        }
        Ok(format)
    }
}

/// The `runs` array, each run added as it is read.
struct RunsSeed<'i>(&'i mut ManifestIndex);

impl<'de> serde::de::DeserializeSeed<'de> for RunsSeed<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for RunsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of runs")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(run) = seq.next_element::<ManifestRun>()? {
            self.0.push(&run);
        }
        Ok(())
    }
}

impl ManifestIndex {
    /// Reads a manifest file (JSON or JSON.gz) and indexes it, one run at a time.
    pub fn read(path: &Path) -> Result<ManifestIndex, DataFileError> {
        let reader = std::io::BufReader::with_capacity(1 << 20, datafile::open(path)?);
        let mut index = ManifestIndex::default();
        let mut de = serde_json::Deserializer::from_reader(reader);
        let format = serde::de::DeserializeSeed::deserialize(ManifestSeed(&mut index), &mut de)
            .and_then(|f| de.end().map(|()| f))
            .map_err(|e| DataFileError::new(path, format!("invalid content: {e}")))?;
        match format {
            Some(MANIFEST_FORMAT) => Ok(index.seal()),
            Some(f) => Err(DataFileError::new(
                path,
                format!("manifest format {f} (this version reads {MANIFEST_FORMAT})"),
            )),
            None => Err(DataFileError::new(
                path,
                "invalid content: missing field `format`",
            )),
        }
    }

    /// Indexes a manifest.
    pub fn new(m: Manifest) -> ManifestIndex {
        let mut index = ManifestIndex::default();
        for r in &m.runs {
            index.push(r);
        }
        index.seal()
    }

    /// Adds a run.
    fn push(&mut self, r: &ManifestRun) {
        let definition = self.names.index_of(&r.benchmark_definition);
        let bench = r
            .benchmark_definition
            .strip_suffix(".xml")
            .unwrap_or(&r.benchmark_definition);
        let bench = self.names.index_of(bench);
        let rundefinition = self.names.index_of(&r.rundefinition);
        let task = self.names.index_of(&r.task);
        let base = self.names.index_of(basename(&r.task));
        let solver = self.names.index_of(&r.solver);
        let division_name = self.names.index_of(r.division.as_str());
        let division = *self.division_of.entry(division_name).or_insert_with(|| {
            self.divisions.push(r.division.clone());
            (self.divisions.len() - 1) as u32
        });
        let logic_name = self.names.index_of(r.logic.as_str());
        let logic = *self.logic_of.entry(logic_name).or_insert_with(|| {
            self.logics.push(r.logic.clone());
            (self.logics.len() - 1) as u32
        });
        let known = self.benchmarks_of.entry(task).or_default();
        let benchmark = match known
            .iter()
            .find(|&&b| self.benchmarks[b as usize] == r.benchmark)
        {
            Some(&b) => b,
            None => {
                self.benchmarks.push(r.benchmark.clone());
                let b = (self.benchmarks.len() - 1) as u32;
                known.push(b);
                b
            }
        };
        let i = self.runs.len() as u32;
        self.runs.push(PackedRun {
            definition,
            rundefinition,
            task,
            solver,
            participation: r.participation,
            track: r.track,
            division,
            logic,
            benchmark,
        });
        self.by_key.push([bench, rundefinition, base, i]);
    }

    /// Sorts the lookup keys (after the last [`ManifestIndex::push`]).
    fn seal(mut self) -> Self {
        self.by_key.sort_unstable();
        let mut by_definition: Vec<u32> = (0..self.runs.len() as u32).collect();
        // Stable: a definition's runs stay in manifest order.
        by_definition.sort_by_key(|&i| self.runs[i as usize].definition);
        self.by_definition = by_definition;
        self
    }

    fn view(&self, p: &PackedRun) -> RunRef<'_> {
        let name = |i: u32| &*self.names.items[i as usize];
        RunRef {
            benchmark_definition: name(p.definition),
            rundefinition: name(p.rundefinition),
            task: name(p.task),
            solver: name(p.solver),
            participation: p.participation,
            track: p.track,
            division: &self.divisions[p.division as usize],
            logic: &self.logics[p.logic as usize],
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
                let def = |i: &u32| self.runs[*i as usize].definition;
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
        let (Some(bench), Some(rundef), Some(base)) = (
            self.names.get(benchmarkname),
            self.names.get(rundefinition),
            self.names.get(basename(task)),
        ) else {
            return Ok(None);
        };
        let key = [bench, rundef, base];
        let from = self.by_key.partition_point(|k| k[..3] < key[..]);
        let to = from + self.by_key[from..].partition_point(|k| k[..3] == key[..]);
        let cands = &self.by_key[from..to];
        match cands {
            [] => return Ok(None),
            [one] => return Ok(Some(one[3] as usize)),
            _ => {}
        }
        let score = |k: &[u32; 4]| {
            let t = &self.names.items[self.runs[k[3] as usize].task as usize];
            common_suffix(t, task)
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
