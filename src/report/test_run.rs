//! The organizers' test-run report per submission: what they post on each
//! submission's pull request after the test run (`smtcomp run --test`).
//!
//! Per solver, into `DIR/test-run/submissions/<solver>/`:
//! * `summary.md`, ready to paste: per track the runs planned and their
//!   outcomes; the answers that contradict the benchmark's status (or an
//!   incremental check-sat's expected answer, a refuted core, an invalid
//!   model); the errors with their message, exit code or signal; and what
//!   was not run and why (a logic the test selection has no benchmark of, runs
//!   without a result). Every count reconciles: planned = results + missing.
//! * `<track>.table.html`: BenchExec's `table-generator` table of the
//!   solver's result files of the track (one column, the union of its
//!   definitions), when `table-generator` is found.

use crate::formats::generation;
use crate::formats::run_answer::RunAnswer;
use crate::formats::runs_manifest::ManifestRun;
use crate::formats::runtable::IngestRecord;
use crate::formats::verdict::{CoreStatus, ModelStatus, Verdict};
use crate::model::{Logic, Status, Track};
use crate::util::path_error::PathError;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What the summaries are made of.
#[derive(Debug, Default)]
pub struct Facts<'a> {
    /// Competition display name.
    pub competition: String,
    /// Solver -> track -> the logics it entered.
    pub entered: BTreeMap<String, BTreeMap<Track, BTreeSet<Logic>>>,
    /// Track -> the logics the test selection has benchmarks of.
    pub selected: BTreeMap<Track, BTreeSet<Logic>>,
    /// Every planned run (the runs manifest).
    pub planned: &'a [ManifestRun],
    /// The validated run table.
    pub runs: &'a [IngestRecord],
    /// Benchmark path -> its status.
    pub status: HashMap<String, Status>,
    /// Track -> its test limits, as text.
    pub limits: BTreeMap<Track, String>,
    /// The seed of the test selection.
    pub seed: Option<u32>,
}

/// Outcome counts of one track.
#[derive(Debug, Default)]
struct Counts {
    planned: usize,
    results: usize,
    answers: BTreeMap<RunAnswer, usize>,
    wrong: usize,
}

/// One line of a list section: track, logic, benchmark, what.
type Item = (Track, String, String, String);

/// The Markdown summary of `solver`'s test run.
pub fn summary(solver: &str, f: &Facts) -> String {
    let mut counts: BTreeMap<Track, Counts> = BTreeMap::new();
    let mut planned_by_logic: BTreeMap<(Track, String), usize> = BTreeMap::new();
    for p in f.planned.iter().filter(|p| p.solver == solver) {
        counts.entry(p.track).or_default().planned += 1;
        *planned_by_logic
            .entry((p.track, p.logic.to_string()))
            .or_default() += 1;
    }
    let mut results_by_logic: BTreeMap<(Track, String), usize> = BTreeMap::new();
    let (mut wrong, mut errors): (Vec<Item>, Vec<Item>) = (Vec::new(), Vec::new());
    for r in f.runs.iter().filter(|r| r.solver == solver) {
        let Some(track) = r.track else { continue };
        let logic = r.logic.as_ref().map_or("?".into(), |l| l.to_string());
        let path = r
            .benchmark
            .as_ref()
            .map_or_else(|| r.task.clone(), |b| b.path());
        let c = counts.entry(track).or_default();
        c.results += 1;
        *c.answers.entry(r.answer).or_default() += 1;
        *results_by_logic.entry((track, logic.clone())).or_default() += 1;
        if let Some(why) = contradiction(r, f.status.get(&path).copied()) {
            c.wrong += 1;
            wrong.push((track, logic.clone(), path.clone(), why));
        }
        if r.answer == RunAnswer::Error {
            errors.push((track, logic, path, error_text(r)));
        }
    }
    let mut not_run: Vec<(Track, String, String)> = Vec::new();
    if let Some(tracks) = f.entered.get(solver) {
        for (track, logics) in tracks {
            for l in logics {
                let selected = f.selected.get(track).is_some_and(|s| s.contains(l));
                if !selected {
                    not_run.push((
                        *track,
                        l.to_string(),
                        "no benchmark of the logic in the test selection".into(),
                    ));
                }
            }
        }
    }
    for ((track, logic), planned) in &planned_by_logic {
        let got = results_by_logic
            .get(&(*track, logic.clone()))
            .copied()
            .unwrap_or(0);
        if got < *planned {
            not_run.push((
                *track,
                logic.clone(),
                format!(
                    "{} of {planned} planned runs have no result (smtcomp status names them)",
                    planned - got
                ),
            ));
        }
    }
    not_run.sort();

    let mut s = format!("## Test run of {solver} ({})\n\n", f.competition);
    let _ = writeln!(
        s,
        "The organizers' test run: at most 20 easy benchmarks per entered logic{}, \
         scrambled as the competition runs them, the test limits.\n",
        f.seed.map_or(String::new(), |x| format!(" (seed {x})"))
    );
    s.push_str(
        "| track | limits | planned | results | sat | unsat | unknown | done | timeout | memout | error | wrong |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (track, c) in &counts {
        let n = |a: RunAnswer| c.answers.get(&a).copied().unwrap_or(0);
        let _ = writeln!(
            s,
            "| {track} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            f.limits.get(track).map_or("", String::as_str),
            c.planned,
            c.results,
            n(RunAnswer::Sat),
            n(RunAnswer::Unsat),
            n(RunAnswer::Unknown),
            n(RunAnswer::Done),
            n(RunAnswer::Timeout),
            n(RunAnswer::Memout),
            n(RunAnswer::Error),
            c.wrong
        );
    }
    if counts.is_empty() {
        s.push_str("| (no run planned) | | 0 | 0 | | | | | | | | |\n");
    }
    section(&mut s, "Wrong answers", &wrong);
    section(&mut s, "Errors", &errors);
    s.push_str("\n### Not run\n\n");
    if not_run.is_empty() {
        s.push_str("Every entered logic was run.\n");
    }
    for (track, logic, why) in &not_run {
        let _ = writeln!(s, "- {track}, {logic}: {why}");
    }
    s
}

/// A list section; "None." when empty; at most 50 lines, then a count.
fn section(s: &mut String, title: &str, items: &[Item]) {
    let _ = writeln!(s, "\n### {title} ({})\n", items.len());
    if items.is_empty() {
        s.push_str("None.\n");
    }
    for (track, logic, path, what) in items.iter().take(50) {
        let _ = writeln!(s, "- {track}, {logic}: `{}`: {what}", code(path));
    }
    if items.len() > 50 {
        let _ = writeln!(s, "- ... and {} more", items.len() - 50);
    }
}

/// Text inside Markdown backticks: no backtick, no line break.
fn code(text: &str) -> String {
    text.replace('`', "'").replace(['\n', '\r'], " ")
}

/// Why `r` contradicts what is known, if it does.
fn contradiction(r: &IngestRecord, status: Option<Status>) -> Option<String> {
    if let Some(w) = r.incremental.as_ref().and_then(|i| i.wrong.as_ref()) {
        return Some(format!(
            "check-sat {} answered {}, expected {}",
            w.index, w.got, w.expected
        ));
    }
    match (r.answer, status) {
        (RunAnswer::Sat, Some(Status::Unsat)) => return Some("sat, expected unsat".into()),
        (RunAnswer::Unsat, Some(Status::Sat)) => return Some("unsat, expected sat".into()),
        _ => {}
    }
    match &r.validation {
        Some(Verdict::Core(v)) if v.status == CoreStatus::Refuted => Some(format!(
            "the unsat core is refuted ({} validators sat, {} unsat)",
            v.sat, v.unsat
        )),
        Some(Verdict::Core(v)) if v.status == CoreStatus::Malformed => {
            Some("the unsat core names assertions the benchmark does not have".into())
        }
        Some(Verdict::Model(v)) if v.status == ModelStatus::Invalid => Some(format!(
            "the model is invalid{}",
            v.reason
                .as_deref()
                .map_or(String::new(), |x| format!(": {}", code(x)))
        )),
        _ => None,
    }
}

/// The error message of `r` with its exit code or signal.
fn error_text(r: &IngestRecord) -> String {
    let mut t = r.error.as_deref().map_or_else(
        || "error".to_string(),
        |e| code(e).chars().take(300).collect(),
    );
    if let Some(sig) = r.exitsignal {
        let _ = write!(t, " (signal {sig})");
    } else if let Some(c) = r.exitcode.filter(|c| *c != 0) {
        let _ = write!(t, " (exit code {c})");
    }
    t
}

/// The result files of `solver`'s definitions of `track` in `execdir`.
pub fn result_files(
    m: &generation::Manifest,
    execdir: &Path,
    solver: &str,
    track: Track,
) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = m
        .definitions
        .values()
        .filter(|d| d.solver == solver && d.track == track)
        .flat_map(|d| {
            std::fs::read_dir(execdir.join(&d.results_dir))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let n = p.file_name().unwrap_or_default().to_string_lossy();
                    n.contains(".results.") && n.ends_with(".xml.bz2")
                })
        })
        .collect();
    files.sort();
    files
}

/// The `table-generator` table definition: one column, `solver`, the union
/// of `files` (XML-escaped).
pub fn table_definition(solver: &str, files: &[PathBuf]) -> String {
    let esc = crate::util::escape::xml;
    let mut s = format!(
        "<?xml version=\"1.0\"?>\n<table>\n  <union title=\"{}\">\n",
        esc(solver)
    );
    for f in files {
        let _ = writeln!(
            s,
            "    <result filename=\"{}\"/>",
            esc(&f.display().to_string())
        );
    }
    s.push_str("  </union>\n</table>\n");
    s
}

/// Where `table-generator` comes from: BenchExec's installation.
#[derive(Debug, Clone)]
pub struct Tables<'a> {
    /// The `table-generator` program (a path, or a name on `PATH`).
    pub program: PathBuf,
    /// The generation manifest of the test run.
    pub manifest: &'a generation::Manifest,
    /// The test run's execution directory.
    pub execdir: &'a Path,
}

/// What [`write_all`] wrote.
#[derive(Debug, Default)]
pub struct Written {
    /// Solvers with a report.
    pub solvers: usize,
    /// `table-generator` tables written.
    pub tables: usize,
    /// Tables that could not be made (solver, track, reason).
    pub table_failures: Vec<(String, Track, String)>,
}

/// Writes `dir/<solver>/summary.md` for every solver of `f.entered` and,
/// with `tables`, `dir/<solver>/<track>.table.html` per track with results.
/// Solver names become directory names through
/// [`crate::util::escape::sanitize`] (`-2`, `-3`, ... on a clash).
pub fn write_all(dir: &Path, f: &Facts, tables: Option<&Tables>) -> Result<Written, PathError> {
    let mut w = Written::default();
    let mut taken = BTreeSet::new();
    for (solver, tracks) in &f.entered {
        let base = crate::util::escape::sanitize(solver);
        let mut name = base.clone();
        for i in 2.. {
            if taken.insert(name.clone()) {
                break;
            }
            name = format!("{base}-{i}");
        }
        let sdir = dir.join(&name);
        std::fs::create_dir_all(&sdir).map_err(PathError::on(&sdir, "create"))?;
        let md = sdir.join("summary.md");
        std::fs::write(&md, summary(solver, f)).map_err(PathError::on(&md, "write"))?;
        w.solvers += 1;
        let Some(t) = tables else { continue };
        for track in tracks.keys() {
            let files = result_files(t.manifest, t.execdir, solver, *track);
            if files.is_empty() {
                continue;
            }
            let name = track.page_suffix();
            let def = sdir.join(format!("{name}.table.xml"));
            std::fs::write(&def, table_definition(solver, &files))
                .map_err(PathError::on(&def, "write"))?;
            let mut call = crate::util::process::Supervised::new(
                vec![
                    t.program.to_string_lossy().into_owned(),
                    "-x".into(),
                    def.to_string_lossy().into_owned(),
                    "-o".into(),
                    sdir.to_string_lossy().into_owned(),
                    "-n".into(),
                    name.to_string(),
                    "-f".into(),
                    "html".into(),
                    "--no-diff".into(),
                    "-q".into(),
                ],
                std::time::Duration::from_secs(600),
            );
            call.stdout = crate::util::process::Sink::Null;
            let out = crate::util::process::run(call);
            let html = sdir.join(format!("{name}.table.html"));
            match out {
                Ok(o) if o.code() == Some(0) && html.is_file() => w.tables += 1,
                Ok(o) => w.table_failures.push((
                    solver.clone(),
                    *track,
                    format!(
                        "{}: {}",
                        crate::util::process::exit_text(o.code()),
                        String::from_utf8_lossy(&o.stderr)
                            .lines()
                            .last()
                            .unwrap_or_default()
                    ),
                )),
                Err(e) => w
                    .table_failures
                    .push((solver.clone(), *track, e.to_string())),
            }
        }
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::inventory::Smt2File;
    use crate::formats::runtable::{IncrementalData, WrongAnswer};
    use crate::model::Division;

    fn bench(name: &str) -> Smt2File {
        Smt2File {
            incremental: false,
            logic: Logic::new("QF_LIA"),
            family: vec!["fam".into()],
            name: name.into(),
        }
    }

    fn planned(solver: &str, name: &str) -> ManifestRun {
        ManifestRun {
            benchmark_definition: format!("{solver}_QF_LIA.xml"),
            rundefinition: format!("{solver},0,SingleQuery"),
            task: format!("tasks/{name}.yml"),
            solver: solver.into(),
            participation: 0,
            track: Track::SingleQuery,
            division: Division::new("QF_LinearIntArith"),
            logic: Logic::new("QF_LIA"),
            benchmark: bench(name),
        }
    }

    fn run(solver: &str, name: &str, answer: RunAnswer) -> IngestRecord {
        let mut r = IngestRecord::new("x.xml.bz2", format!("tasks/{name}.yml"));
        r.solver = solver.into();
        r.answer = answer;
        r.track = Some(Track::SingleQuery);
        r.logic = Some(Logic::new("QF_LIA"));
        r.benchmark = Some(bench(name));
        r
    }

    #[test]
    fn wrong_answers_errors_and_what_was_not_run_reconcile() {
        let planned = [
            planned("S", "a.smt2"),
            planned("S", "b.smt2"),
            planned("S", "c.smt2"),
            planned("S", "d.smt2"),
        ];
        let mut err = run("S", "b.smt2", RunAnswer::Error);
        err.error = Some("(error \"boom\")\nat `line` 2".into());
        err.exitcode = Some(3);
        let mut inc = run("S", "c.smt2", RunAnswer::Done);
        inc.incremental = Some(IncrementalData {
            correct: 1,
            wrong: Some(WrongAnswer {
                index: 2,
                got: "sat".into(),
                expected: "unsat".into(),
            }),
            ..Default::default()
        });
        let runs = [run("S", "a.smt2", RunAnswer::Unsat), err, inc];
        let mut f = Facts {
            competition: "Demo test run".into(),
            planned: &planned,
            runs: &runs,
            ..Default::default()
        };
        f.status
            .insert("non-incremental/QF_LIA/fam/a.smt2".into(), Status::Sat);
        f.entered.insert(
            "S".into(),
            BTreeMap::from([(
                Track::SingleQuery,
                BTreeSet::from([Logic::new("QF_LIA"), Logic::new("QF_BV")]),
            )]),
        );
        f.selected
            .insert(Track::SingleQuery, BTreeSet::from([Logic::new("QF_LIA")]));
        let md = summary("S", &f);
        // 4 planned = 3 results + 1 without a result.
        assert!(
            md.contains("| SingleQuery |  | 4 | 3 | 0 | 1 | 0 | 1 | 0 | 0 | 1 | 2 |"),
            "{md}"
        );
        assert!(md.contains("### Wrong answers (2)"), "{md}");
        assert!(
            md.contains("`non-incremental/QF_LIA/fam/a.smt2`: unsat, expected sat"),
            "{md}"
        );
        assert!(
            md.contains("check-sat 2 answered sat, expected unsat"),
            "{md}"
        );
        assert!(md.contains("### Errors (1)"), "{md}");
        // The message on one line, backticks out, with the exit code.
        assert!(
            md.contains(": (error \"boom\") at 'line' 2 (exit code 3)"),
            "{md}"
        );
        assert!(
            md.contains("- SingleQuery, QF_BV: no benchmark of the logic in the test selection"),
            "{md}"
        );
        assert!(
            md.contains("- SingleQuery, QF_LIA: 1 of 4 planned runs have no result"),
            "{md}"
        );
    }

    #[test]
    fn the_table_definition_is_one_escaped_union_column() {
        let t = table_definition("a\"<b>", &[PathBuf::from("/r/x&y.results.xml.bz2")]);
        assert!(t.contains("<union title=\"a&quot;&lt;b&gt;\">"), "{t}");
        assert!(
            t.contains("<result filename=\"/r/x&amp;y.results.xml.bz2\"/>"),
            "{t}"
        );
    }
}
