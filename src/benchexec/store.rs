//! The planned tasks in compact form: what `generate` keeps of the 370k tasks of a
//! whole competition (2025) between planning and writing. Per task a few indices
//! and one text arena slice instead of a [`TaskEntry`] of nine strings in a B-tree
//! (the whole generation went from 407 MB to a third of that); logic names and
//! families are interned, and everything [`TaskEntry`] holds that follows from
//! the prepared path (task path, prepared path, expected verdict, division) is
//! derived when it is written. [`TaskStore::entry`] gives the borrowed form
//! serialized exactly as the [`TaskEntry`] of `manifest.json`.
//!
//! [`TaskEntry`]: crate::formats::generation::TaskEntry

use super::BenchexecError;
use crate::formats::generation::TaskEntryRef;
use crate::formats::inventory::{Smt2File, Smt2FileRef};
use crate::model::{Division, Logic, Status, Track};
use std::collections::{BTreeMap, HashMap};

/// One task: slices of its track's text arena and interned names.
#[derive(Debug)]
struct Task {
    /// Start of `prepared path, name, input file` in the arena.
    start: u32,
    /// Length of the path of the prepared file in the track directory.
    path_len: u32,
    /// Length of the original's file name.
    name_len: u32,
    /// Length of the YAML's `input_files` value.
    input_len: u32,
    /// The original's family (index into [`TaskStore::families`]).
    family: u32,
    /// The logic (index into [`TaskStore::logics`]).
    logic: u16,
    incremental: bool,
    status: Status,
    heat: Option<u32>,
    expected: Option<Box<[Status]>>,
}

/// The tasks of one track, sorted by task path.
#[derive(Debug)]
pub struct TrackTasks {
    track: Track,
    text: String,
    tasks: Vec<Task>,
    /// Division of each logic index used by the track.
    divisions: HashMap<u16, Division>,
    /// Logic -> its tasks (indices into `tasks`) in path order.
    by_logic: BTreeMap<Logic, Vec<u32>>,
}

/// A task being added ([`TaskStore::push`]).
#[derive(Debug)]
pub struct NewTask {
    /// Path of the prepared file in the track directory (`QF_BV/scrambled12.smt2`).
    pub path: String,
    /// The original benchmark.
    pub original: Smt2File,
    /// The YAML's `input_files` value.
    pub input_file: String,
    /// The logic's division in the track.
    pub division: Division,
    /// Expected status.
    pub status: Status,
    /// Incremental: expected answer of each check-sat.
    pub expected: Option<Vec<Status>>,
    /// Heat.
    pub heat: Option<u32>,
}

/// Every planned task, by track.
#[derive(Debug, Default)]
pub struct TaskStore {
    logics: Vec<Logic>,
    logic_index: HashMap<Logic, u16>,
    families: Vec<Vec<String>>,
    family_index: HashMap<Vec<String>, u32>,
    /// Tracks in task-path order (`tasks/<dir>/...`).
    tracks: Vec<TrackTasks>,
}

/// The task path `tasks/<track dir>/<prepared path without .smt2>.yml`.
pub fn task_path(track: Track, path: &str) -> String {
    let mut s = String::with_capacity(path.len() + 32);
    write_task_path(track, path, &mut s);
    s
}

fn write_task_path(track: Track, path: &str, s: &mut String) {
    s.push_str("tasks/");
    s.push_str(track.page_suffix());
    s.push('/');
    s.push_str(path.trim_end_matches(".smt2"));
    s.push_str(".yml");
}

fn small(n: usize, what: &'static str) -> Result<u32, BenchexecError> {
    u32::try_from(n).map_err(|_| BenchexecError::TooMany {
        what,
        limit: u64::from(u32::MAX),
    })
}

impl TaskStore {
    /// Adds the tasks of `track` (in any order; a later task with the same path
    /// replaces an earlier one, as a map keyed by path would).
    pub fn add_track(&mut self, track: Track, tasks: Vec<NewTask>) -> Result<(), BenchexecError> {
        let mut text = String::new();
        let mut list = Vec::with_capacity(tasks.len());
        let mut divisions = HashMap::new();
        let mut keys = Vec::with_capacity(tasks.len());
        for t in tasks {
            let logic = match self.logic_index.get(&t.original.logic) {
                Some(&i) => i,
                None => {
                    let i =
                        u16::try_from(self.logics.len()).map_err(|_| BenchexecError::TooMany {
                            what: "logics",
                            limit: u64::from(u16::MAX) + 1,
                        })?;
                    self.logics.push(t.original.logic.clone());
                    self.logic_index.insert(t.original.logic.clone(), i);
                    i
                }
            };
            divisions.entry(logic).or_insert(t.division);
            let family = match self.family_index.get(&t.original.family) {
                Some(&i) => i,
                None => {
                    let i = small(self.families.len(), "benchmark families")?;
                    self.families.push(t.original.family.clone());
                    self.family_index.insert(t.original.family, i);
                    i
                }
            };
            let start = small(text.len(), "bytes of task names")?;
            text.push_str(&t.path);
            text.push_str(&t.original.name);
            text.push_str(&t.input_file);
            small(text.len(), "bytes of task names")?;
            keys.push(task_path(track, &t.path));
            list.push(Task {
                start,
                path_len: small(t.path.len(), "bytes in a path")?,
                name_len: small(t.original.name.len(), "bytes in a name")?,
                input_len: small(t.input_file.len(), "bytes in a path")?,
                family,
                logic,
                incremental: t.original.incremental,
                status: t.status,
                heat: t.heat,
                expected: t.expected.map(Vec::into_boxed_slice),
            });
        }
        // Path order; of equal paths the last one added.
        let mut order: Vec<usize> = (0..list.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(b.cmp(&a)));
        order.dedup_by(|later, earlier| keys[*later] == keys[*earlier]);
        drop(keys);
        let mut slots: Vec<Option<Task>> = list.into_iter().map(Some).collect();
        let tasks: Vec<Task> = order.into_iter().filter_map(|i| slots[i].take()).collect();
        drop(slots);
        let mut by_logic: BTreeMap<Logic, Vec<u32>> = BTreeMap::new();
        for (i, t) in tasks.iter().enumerate() {
            by_logic
                .entry(self.logics[usize::from(t.logic)].clone())
                .or_default()
                .push(i as u32);
        }
        text.shrink_to_fit();
        self.tracks.retain(|t| t.track != track);
        self.tracks.push(TrackTasks {
            track,
            text,
            tasks,
            divisions,
            by_logic,
        });
        // `tasks/<dir>/` order of the task paths.
        self.tracks
            .sort_by_key(|t| format!("{}/", t.track.page_suffix()));
        Ok(())
    }

    /// The number of tasks.
    pub fn len(&self) -> usize {
        self.tracks.iter().map(|t| t.tasks.len()).sum()
    }

    /// Whether there is no task.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tracks with tasks, in task-path order.
    pub fn tracks(&self) -> &[TrackTasks] {
        &self.tracks
    }

    /// The tasks of `track`, if it has any.
    pub fn track(&self, track: Track) -> Option<&TrackTasks> {
        self.tracks.iter().find(|t| t.track == track)
    }
}

/// One task, borrowed from the store.
#[derive(Debug, Clone, Copy)]
pub struct TaskRef<'a> {
    /// Its track.
    pub track: Track,
    /// Path of the prepared file in the track directory.
    pub path: &'a str,
    /// The YAML's `input_files` value.
    pub input_file: &'a str,
    /// The logic.
    pub logic: &'a str,
    /// The logic's division.
    pub division: &'a str,
    /// The original benchmark.
    pub original: Smt2FileRef<'a>,
    /// Expected status.
    pub status: Status,
    /// Incremental: expected answer of each check-sat.
    pub expected: Option<&'a [Status]>,
    /// Heat.
    pub heat: Option<u32>,
}

impl TaskRef<'_> {
    /// The task path (`tasks/single-query/QF_BV/scrambled12.yml`).
    pub fn task_path(&self) -> String {
        task_path(self.track, self.path)
    }

    /// Appends [`TaskRef::task_path`] to `s`.
    pub fn write_task_path(&self, s: &mut String) {
        write_task_path(self.track, self.path, s)
    }

    /// The expected verdict written to the YAML (`true` sat, `false` unsat).
    pub fn expected_verdict(&self) -> Option<bool> {
        match (self.track.is_incremental(), self.status) {
            (false, Status::Sat) => Some(true),
            (false, Status::Unsat) => Some(false),
            _ => None,
        }
    }

    /// The manifest entry; `prepared` is a buffer for its `prepared` field.
    pub fn entry<'b>(&'b self, prepared: &'b mut String) -> TaskEntryRef<'b> {
        prepared.clear();
        prepared.push_str(self.track.page_suffix());
        prepared.push('/');
        prepared.push_str(self.path);
        TaskEntryRef {
            track: self.track,
            logic: self.logic,
            division: self.division,
            input_file: self.input_file,
            prepared,
            original: self.original,
            status: self.status,
            expected: self.expected,
            expected_verdict: self.expected_verdict(),
            heat: self.heat,
        }
    }
}

impl TrackTasks {
    /// The track.
    pub fn track(&self) -> Track {
        self.track
    }

    /// The number of tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the track has no task.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Logic -> its tasks (indices for [`TrackTasks::get`]) in path order.
    pub fn by_logic(&self) -> &BTreeMap<Logic, Vec<u32>> {
        &self.by_logic
    }

    /// Task `i` (in path order).
    pub fn get<'a>(&'a self, store: &'a TaskStore, i: u32) -> TaskRef<'a> {
        let t = &self.tasks[i as usize];
        let s = t.start as usize;
        let p = s + t.path_len as usize;
        let n = p + t.name_len as usize;
        let e = n + t.input_len as usize;
        let logic = store.logics[usize::from(t.logic)].as_str();
        TaskRef {
            track: self.track,
            path: &self.text[s..p],
            input_file: &self.text[n..e],
            logic,
            division: self.divisions.get(&t.logic).map_or("", Division::as_str),
            original: Smt2FileRef {
                incremental: t.incremental,
                logic,
                family: &store.families[t.family as usize],
                name: &self.text[p..n],
            },
            status: t.status,
            expected: t.expected.as_deref(),
            heat: t.heat,
        }
    }

    /// Every task in path order.
    pub fn iter<'a>(&'a self, store: &'a TaskStore) -> impl Iterator<Item = TaskRef<'a>> + 'a {
        (0..self.tasks.len() as u32).map(move |i| self.get(store, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::generation::TaskEntry;

    fn new(path: &str, name: &str, status: Status, heat: Option<u32>) -> NewTask {
        NewTask {
            path: path.to_string(),
            original: Smt2File {
                incremental: false,
                logic: Logic::new("QF_UF"),
                family: vec!["fam".to_string(), "sub".to_string()],
                name: name.to_string(),
            },
            input_file: format!("../../../prep/single-query/{path}"),
            division: Division::new("QF_Equality"),
            status,
            expected: None,
            heat,
        }
    }

    /// Path order (not insertion order: `a.t.smt2` sorts before `a.smt2` as
    /// `a.t.yml` before `a.yml`), the last of equal paths, and the entry
    /// serialized exactly as the [`TaskEntry`] it stands for.
    #[test]
    fn order_duplicates_and_entries() {
        let mut store = TaskStore::default();
        store
            .add_track(
                Track::SingleQuery,
                vec![
                    new("QF_UF/a.smt2", "first.smt2", Status::Sat, None),
                    new("QF_UF/a.t.smt2", "x.smt2", Status::Unknown, Some(2)),
                    new("QF_UF/a.smt2", "second.smt2", Status::Unsat, None),
                ],
            )
            .unwrap();
        let track = store.track(Track::SingleQuery).unwrap();
        let tasks: Vec<TaskRef> = track.iter(&store).collect();
        let paths: Vec<String> = tasks.iter().map(TaskRef::task_path).collect();
        assert_eq!(
            paths,
            [
                "tasks/single-query/QF_UF/a.t.yml",
                "tasks/single-query/QF_UF/a.yml"
            ]
        );
        assert_eq!(tasks[1].original.name, "second.smt2");
        let owned = TaskEntry {
            track: Track::SingleQuery,
            logic: Logic::new("QF_UF"),
            division: Division::new("QF_Equality"),
            input_file: "../../../prep/single-query/QF_UF/a.smt2".to_string(),
            prepared: "single-query/QF_UF/a.smt2".to_string(),
            original: Smt2File {
                incremental: false,
                logic: Logic::new("QF_UF"),
                family: vec!["fam".to_string(), "sub".to_string()],
                name: "second.smt2".to_string(),
            },
            status: Status::Unsat,
            expected: None,
            expected_verdict: Some(false),
            heat: None,
        };
        let mut buf = String::new();
        assert_eq!(
            serde_json::to_string_pretty(&tasks[1].entry(&mut buf)).unwrap(),
            serde_json::to_string_pretty(&owned).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&owned.borrowed()).unwrap(),
            serde_json::to_string(&owned).unwrap()
        );
        assert_eq!(track.by_logic()[&Logic::new("QF_UF")], [0, 1]);
        assert_eq!(store.len(), 2);
    }
}
