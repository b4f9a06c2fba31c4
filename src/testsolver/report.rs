//! The `test-solver` report: per track, per logic, per benchmark, with a
//! verdict and its reason in plain words; text and JSON (`report.json`).

use crate::model::{Limits, Track};
use serde::Serialize;
use std::fmt::Write;

/// OK, FAIL, NOT CHECKED or NOT RUN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The run did what the competition expects.
    #[serde(rename = "OK")]
    Ok,
    /// It did not; see the reason.
    #[serde(rename = "FAIL")]
    Fail,
    /// BenchExec could not run it for a reason on our side (see the report's
    /// problems); says nothing about the solver.
    #[serde(rename = "NOT RUN")]
    NotRun,
    /// It answered as expected, but its unsat core or model could not be
    /// validated (no validator on PATH): not a pass.
    #[serde(rename = "NOT CHECKED")]
    NotChecked,
}

impl Verdict {
    /// The verdict as the report prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "OK",
            Verdict::Fail => "FAIL",
            Verdict::NotRun => "NOT RUN",
            Verdict::NotChecked => "NOT CHECKED",
        }
    }
}

/// What a (track, logic) pair was tested with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TestedWith {
    /// Benchmarks of the library only.
    Library,
    /// Generated benchmarks only.
    Generated,
    /// Both.
    Both,
}

impl TestedWith {
    /// In words.
    pub fn as_str(self) -> &'static str {
        match self {
            TestedWith::Library => "library",
            TestedWith::Generated => "generated",
            TestedWith::Both => "library+generated",
        }
    }
}

/// How much of what the submission enters (after the filters) was tested.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Entered (track, logic) pairs kept by the filters.
    pub entered: usize,
    /// Pairs with at least one run.
    pub tested: usize,
    /// ... of them with every run checked (no NOT CHECKED run).
    pub checked: usize,
    /// ... of them with library benchmarks only.
    pub library: usize,
    /// ... with generated benchmarks only.
    pub generated: usize,
    /// ... with both.
    pub both: usize,
}

/// One benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// Library path of the original benchmark.
    pub benchmark: String,
    /// The prepared file the solver ran on (relative to the output directory).
    pub prepared: String,
    /// Expected status (`sat`, `unsat`, `unknown`, or `N check-sat` for incremental).
    pub expected: String,
    /// What the solver answered (`sat`, `unsat`, `unknown`, `timeout`, `memout`,
    /// `error`, or `K/N answered` for incremental).
    pub answer: String,
    /// Wall time in seconds, when known.
    pub time_s: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in plain words (empty when there is nothing to add).
    pub reason: String,
    /// The run's log (`archive!member`, relative to the output directory).
    pub log: Option<String>,
    /// Whether the benchmark was generated (`generated.rs`), not from the library.
    pub generated: bool,
}

/// One entered logic of a track.
#[derive(Debug, Clone, Serialize)]
pub struct LogicResult {
    /// The logic.
    pub logic: String,
    /// Its division in the track.
    pub division: String,
    /// The runs (empty when not tested).
    pub runs: Vec<RunResult>,
    /// Why the logic was not tested (`no benchmark`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_tested: Option<String>,
    /// What it was tested with (set by [`TestReport::count`]).
    pub tested_with: Option<TestedWith>,
}

/// One entered track.
#[derive(Debug, Clone, Serialize)]
pub struct TrackResult {
    /// The track.
    pub track: Track,
    /// The limits of the runs (test limits).
    pub limits: Option<Limits>,
    /// Why the whole track was not tested, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_tested: Option<String>,
    /// Remarks (validators used, ...).
    pub notes: Vec<String>,
    /// The entered logics, sorted.
    pub logics: Vec<LogicResult>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct TestReport {
    /// The solver's name.
    pub solver: String,
    /// The submission file.
    pub submission: String,
    /// The competition definition used (name).
    pub competition: String,
    /// Remarks on the whole run (limits clamped, benchmarks generated, mounts).
    pub notes: Vec<String>,
    /// Which limits the runs had: `test limits`, or `competition limits`
    /// (a benchmark list).
    pub limits_used: String,
    /// Problems on our side (BenchExec failed as a whole): exit code 2.
    pub problems: Vec<String>,
    /// Listed benchmarks (`--benchmarks FILE`) not in the library: their runs
    /// are NOT RUN (exit code 2), not the solver's fault nor ours.
    pub missing: Vec<String>,
    /// Every entered track (in track order) with a logic kept by the filters.
    pub tracks: Vec<TrackResult>,
    /// Runs with verdict OK.
    pub passed: usize,
    /// Runs with verdict FAIL.
    pub failed: usize,
    /// Runs with verdict NOT RUN.
    pub not_run: usize,
    /// Runs with verdict NOT CHECKED.
    pub not_checked: usize,
    /// Entered (track, logic) pairs with no run.
    pub not_tested: usize,
    /// Entered (track, logic) pairs and what tested them.
    pub coverage: Coverage,
}

impl TestReport {
    /// Counts the verdicts into `passed`, `failed`, `not_run` and
    /// `not_tested`, and the coverage (each logic's `tested_with`).
    pub fn count(&mut self) {
        let (mut p, mut f, mut x, mut n, mut u) = (0, 0, 0, 0, 0);
        let mut c = Coverage::default();
        for t in &mut self.tracks {
            let untested = t.not_tested.is_some();
            for l in &mut t.logics {
                c.entered += 1;
                if l.not_tested.is_some() || untested || l.runs.is_empty() {
                    n += 1;
                }
                for r in &l.runs {
                    match r.verdict {
                        Verdict::Ok => p += 1,
                        Verdict::Fail => f += 1,
                        Verdict::NotRun => x += 1,
                        Verdict::NotChecked => u += 1,
                    }
                }
                let checked = !l.runs.is_empty()
                    && l.runs
                        .iter()
                        .all(|r| !matches!(r.verdict, Verdict::NotChecked | Verdict::NotRun));
                let ran: Vec<&RunResult> = l
                    .runs
                    .iter()
                    .filter(|r| r.verdict != Verdict::NotRun)
                    .collect();
                let generated = ran.iter().filter(|r| r.generated).count();
                l.tested_with = match (ran.len() - generated, generated) {
                    (0, 0) => None,
                    (_, 0) => Some(TestedWith::Library),
                    (0, _) => Some(TestedWith::Generated),
                    _ => Some(TestedWith::Both),
                };
                if checked && l.tested_with.is_some() {
                    c.checked += 1;
                }
                match l.tested_with {
                    Some(TestedWith::Library) => c.library += 1,
                    Some(TestedWith::Generated) => c.generated += 1,
                    Some(TestedWith::Both) => c.both += 1,
                    None => {}
                }
            }
        }
        c.tested = c.library + c.generated + c.both;
        (self.passed, self.failed, self.not_run, self.not_tested) = (p, f, x, n);
        self.not_checked = u;
        self.coverage = c;
    }

    /// The exit code the report stands for: 2 when our side failed (a problem
    /// or a run not run), a run could not be checked, or nothing ran at all
    /// (0 runs pass nothing), else 1 when a run failed, else 0.
    pub fn exit_code(&self) -> i32 {
        let runs = self.passed + self.failed + self.not_run + self.not_checked;
        if !self.problems.is_empty() || self.not_run > 0 || self.not_checked > 0 || runs == 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }

    /// The human-readable report.
    pub fn render(&self) -> String {
        self.render_styled(false)
    }

    /// [`Report::render`], with the verdicts and the final line in colour
    /// when `colour` (OK green, FAIL red; for a terminal, `util::colour`).
    pub fn render_styled(&self, colour: bool) -> String {
        use crate::util::colour::{Style, styled};
        let mut s = String::new();
        let _ = writeln!(
            s,
            "test-solver: {} ({}), {}, {}",
            self.solver, self.submission, self.competition, self.limits_used
        );
        let _ = writeln!(
            s,
            "Each run: logic, verdict, expected -> answered, wall time, benchmark; the reason below a failure."
        );
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        for t in &self.tracks {
            let limits = t.limits.map_or(String::new(), |l| {
                format!(
                    " ({} s, {} MB, {} core{})",
                    l.time_s,
                    l.memory_mb,
                    l.cores,
                    if l.cores == 1 { "" } else { "s" }
                )
            });
            let _ = writeln!(s, "\n{}{limits}", t.track);
            if let Some(why) = &t.not_tested {
                let _ = writeln!(s, "  not tested: {why}");
            }
            for n in &t.notes {
                let _ = writeln!(s, "  note: {n}");
            }
            if t.not_tested.is_some() {
                continue;
            }
            let width = t
                .logics
                .iter()
                .map(|l| l.logic.len())
                .max()
                .unwrap_or(0)
                .max(8);
            let mut untested: Vec<(&str, Vec<&str>)> = Vec::new();
            for l in &t.logics {
                if let Some(why) = &l.not_tested {
                    match untested.iter_mut().find(|(w, _)| *w == why.as_str()) {
                        Some((_, v)) => v.push(&l.logic),
                        None => untested.push((why, vec![&l.logic])),
                    }
                }
                for r in &l.runs {
                    let time = r.time_s.map_or("-".to_string(), |t| format!("{t:.2} s"));
                    let style = match r.verdict {
                        Verdict::Ok => Style::Ok,
                        Verdict::Fail => Style::Error,
                        Verdict::NotRun | Verdict::NotChecked => Style::Warning,
                    };
                    // Padded first, so that the escape codes keep the columns.
                    let verdict = styled(&format!("{:<4}", r.verdict.as_str()), style, colour);
                    let _ = writeln!(
                        s,
                        "  {:<width$} {verdict} {:>11} -> {:<8} {time:>7}  {}",
                        l.logic, r.expected, r.answer, r.benchmark
                    );
                    for line in r.reason.lines() {
                        let _ = writeln!(s, "  {:<width$}      {line}", "");
                    }
                }
            }
            for (why, logics) in untested {
                let prefix = format!("  not tested ({why}):");
                let _ = writeln!(s, "{}", wrap(&prefix, &logics.join(", "), 100, "    "));
            }
        }
        let c = &self.coverage;
        let _ = writeln!(
            s,
            "\nCoverage: {} of {} entered logic x track combinations tested, {} of them checked ({} with library benchmarks, {} with generated ones only, {} with both)",
            c.tested, c.entered, c.checked, c.library, c.generated, c.both
        );
        if let Some(first) = self.missing.first() {
            let _ = writeln!(
                s,
                "missing: {} listed benchmark(s) not in the library, NOT RUN (the first: {first})",
                self.missing.len()
            );
        }
        for p in &self.problems {
            let _ = writeln!(s, "problem (ours, not the solver's): {p}");
        }
        let _ = writeln!(
            s,
            "\n{}: {} OK, {} FAIL, {}{}{} not tested",
            match self.exit_code() {
                0 => styled("PASSED", Style::Ok, colour),
                1 => styled("FAILED", Style::Error, colour),
                _ => styled("INCOMPLETE", Style::Warning, colour),
            },
            self.passed,
            self.failed,
            if self.not_run > 0 {
                format!("{} NOT RUN, ", self.not_run)
            } else {
                String::new()
            },
            if self.not_checked > 0 {
                format!("{} NOT CHECKED, ", self.not_checked)
            } else {
                String::new()
            },
            self.not_tested
        );
        s
    }
}

/// `prefix` followed by `text` broken at spaces into lines of at most
/// `width` bytes; continuation lines start with `indent`.
fn wrap(prefix: &str, text: &str, width: usize, indent: &str) -> String {
    let mut out = prefix.to_string();
    let mut line = prefix.len();
    for word in text.split(' ') {
        if line + 1 + word.len() > width && line > indent.len() {
            out.push('\n');
            out.push_str(indent);
            line = indent.len();
        } else {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> TestReport {
        TestReport {
            solver: "s".into(),
            submission: "s.json".into(),
            competition: "c".into(),
            notes: vec![],
            limits_used: "test limits".into(),
            problems: vec![],
            missing: vec![],
            tracks: vec![],
            passed: 0,
            failed: 0,
            not_run: 0,
            not_checked: 0,
            not_tested: 0,
            coverage: Coverage::default(),
        }
    }

    #[test]
    fn nothing_run_passes_nothing_and_our_side_outranks_a_failure() {
        let mut r = report();
        r.not_tested = 3;
        assert_eq!(r.exit_code(), 2, "0 runs");
        r.passed = 1;
        assert_eq!(r.exit_code(), 0);
        r.failed = 1;
        assert_eq!(r.exit_code(), 1);
        r.not_run = 1;
        r.missing = vec!["non-incremental/QF_FP/x.smt2".into()];
        assert_eq!(r.exit_code(), 2);
        assert!(
            r.render()
                .contains("missing: 1 listed benchmark(s) not in the library, NOT RUN (the first: non-incremental/QF_FP/x.smt2)")
        );
    }

    #[test]
    fn wrap_keeps_the_prefix_and_breaks_at_spaces() {
        assert_eq!(wrap("  x:", "a, b, c", 9, "    "), "  x: a,\n    b, c");
        assert_eq!(wrap("  x:", "a", 80, "    "), "  x: a");
    }
}
