//! Per-benchmark tables: for one logic of a track, one row per benchmark and
//! one column per solver (answer and wall time). Sortable by a click on a
//! column header (a few lines of plain JavaScript); without JavaScript the
//! table is complete, in benchmark order.
//!
//! Large logics are split into pages of [`ROWS_PER_PAGE`] rows
//! (`benchmarks-<logic>.html`, `benchmarks-<logic>-2.html`, ...), each linking
//! to the others; sorting applies within a page.

use super::html::{dec2, esc, page};
use super::nav::{Here, track_nav};
use super::{SiteMeta, TrackReport};
use crate::model::{Answer, Status};
use crate::scoring::{GroupScores, ScoredRun};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Rows of one per-benchmark page.
pub const ROWS_PER_PAGE: usize = 5000;

use super::files::benchmarks_file;

/// Sorting: a click on a header sorts by that column (again: reversed).
/// Cells sort by their `data-v` attribute (numbers compare as numbers).
const SORT_JS: &str = "//<![CDATA[
document.querySelectorAll('table.sortable th').forEach(function (th, i) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var asc = th.getAttribute('data-dir') !== 'asc';
    th.setAttribute('data-dir', asc ? 'asc' : 'desc');
    var key = function (row) { var c = row.cells[i]; return c.getAttribute('data-v') || c.textContent; };
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
      var c = (isNaN(nx) || isNaN(ny)) ? x.localeCompare(y) : nx - ny;
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
//]]>";

/// Sort key of runs that did not solve their benchmark: after every time.
const UNSOLVED_KEY: f64 = 1e9;

/// One cell: `(class, text, sort key)`.
fn cell(run: Option<&ScoredRun>, status: Status, check_sats: u64) -> (&'static str, String, f64) {
    let Some(run) = run else {
        return ("none", "no run".into(), UNSOLVED_KEY + 9.0);
    };
    let t = dec2(run.wall_time);
    match run.answer {
        Answer::Sat | Answer::Unsat => {
            let wrong = matches!(
                (run.answer, status),
                (Answer::Sat, Status::Unsat) | (Answer::Unsat, Status::Sat)
            );
            let word = if run.answer == Answer::Sat {
                "sat"
            } else {
                "unsat"
            };
            let text = format!("{word} {t}");
            if wrong {
                ("wrong", format!("{text} (wrong)"), UNSOLVED_KEY + 8.0)
            } else {
                ("ok", text, run.wall_time)
            }
        }
        Answer::Incremental => {
            let got = run.nb_answers.unwrap_or(0);
            let text = format!("{got}/{check_sats} {t}");
            if check_sats > 0 && got >= check_sats {
                ("ok", text, run.wall_time)
            } else {
                ("none", text, UNSOLVED_KEY + 1.0 - got as f64 / 1e6)
            }
        }
        Answer::Timeout => ("none", format!("timeout {t}"), UNSOLVED_KEY + 2.0),
        Answer::OutOfMemory => ("none", format!("memout {t}"), UNSOLVED_KEY + 3.0),
        // A run that could not be interpreted or reported an error scores
        // as unknown but is not one: say so.
        Answer::Unknown if run.error => ("none", format!("error {t}"), UNSOLVED_KEY + 4.5),
        Answer::Unknown => ("none", format!("unknown {t}"), UNSOLVED_KEY + 4.0),
        other => ("none", format!("{other:?} {t}"), UNSOLVED_KEY + 5.0),
    }
}

fn status_text(s: Status) -> &'static str {
    match s {
        Status::Sat => "sat",
        Status::Unsat => "unsat",
        Status::Incremental => "incremental",
        Status::Unknown => "unknown",
    }
}

/// The runs of a track by logic, in run order: found in one pass, so that
/// each logic's pages read only its own runs (a scan of every run per logic,
/// with a string made per run, was 150 million allocations for the 2025
/// Single Query track).
pub struct RunsByLogic<'a>(std::collections::HashMap<&'a str, Vec<&'a ScoredRun>>);

impl<'a> RunsByLogic<'a> {
    /// The runs of `r`'s track.
    pub fn new(r: &'a TrackReport) -> RunsByLogic<'a> {
        let mut by: std::collections::HashMap<&str, Vec<&ScoredRun>> = Default::default();
        for run in r.input.runs.iter().filter(|run| run.track == r.input.track) {
            by.entry(run.file.logic.as_str()).or_default().push(run);
        }
        RunsByLogic(by)
    }

    /// The runs on benchmarks of `logic`.
    pub fn get(&self, logic: &str) -> &[&'a ScoredRun] {
        self.0.get(logic).map_or(&[], Vec::as_slice)
    }
}

/// The per-benchmark pages of logic group `g` of track `r`: `(file, html)`.
/// `runs` are the logic's runs ([`RunsByLogic`]). `solvers` gives the column
/// order (e.g. the podium's); solvers with runs in the logic that it does not
/// list are appended in name order.
pub fn benchmark_pages(
    meta: &SiteMeta,
    r: &TrackReport,
    g: &GroupScores,
    runs: &[&ScoredRun],
    solvers: &[String],
) -> Vec<(String, String)> {
    let track = r.input.track;
    let mut rows: BTreeMap<String, BTreeMap<&str, &ScoredRun>> = BTreeMap::new();
    for &run in runs {
        rows.entry(run.file.path())
            .or_default()
            .insert(run.solver.as_str(), run);
    }
    let mut columns: Vec<String> = solvers.to_vec();
    let mut extra: Vec<&str> = rows
        .values()
        .flat_map(|m| m.keys().copied())
        .filter(|s| !solvers.iter().any(|k| k == s))
        .collect();
    extra.sort_unstable();
    extra.dedup();
    columns.extend(extra.into_iter().map(String::from));
    let rows: Vec<_> = rows.into_iter().collect();
    let chunks: Vec<&[_]> = if rows.is_empty() {
        vec![&[][..]]
    } else {
        rows.chunks(ROWS_PER_PAGE).collect()
    };
    let n_pages = chunks.len();
    let mut out = Vec::with_capacity(n_pages);
    for (k, chunk) in chunks.into_iter().enumerate() {
        let title = format!("Benchmarks of {} - {track} track", g.name);
        let mut b = format!("<h1>{}</h1>\n", esc(&title));
        let _ = writeln!(
            b,
            "<p>{} benchmark(s) with runs; one column per solver: answer and wall time (s). \
             Click a column header to sort (again to reverse).</p>",
            rows.len()
        );
        if n_pages > 1 {
            b.push_str("<p>Pages: ");
            for p in 0..n_pages {
                if p == k {
                    let _ = write!(b, "<b>{}</b> ", p + 1);
                } else {
                    let _ = write!(
                        b,
                        "<a href=\"{}\">{}</a> ",
                        esc(&benchmarks_file(g, p)),
                        p + 1
                    );
                }
            }
            let _ = writeln!(
                b,
                "(rows {}-{} of {}; sorting applies within this page)</p>",
                k * ROWS_PER_PAGE + 1,
                k * ROWS_PER_PAGE + chunk.len(),
                rows.len()
            );
        }
        b.push_str("<table class=\"sortable benchmarks\">\n<thead><tr><th class=\"name\">Benchmark</th><th class=\"name\">Status</th>");
        for s in &columns {
            let _ = write!(b, "<th>{}</th>", esc(s));
        }
        b.push_str("</tr></thead>\n<tbody>\n");
        for (path, runs) in chunk {
            let info = r.input.benchmarks.get(path);
            let status = info.map_or(Status::Unknown, |i| i.status);
            let check_sats = info.map_or(0, |i| i.check_sats);
            let _ = write!(
                b,
                "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td>",
                esc(path),
                status_text(status)
            );
            for s in &columns {
                let (class, text, key) = cell(runs.get(s.as_str()).copied(), status, check_sats);
                let _ = write!(
                    b,
                    "<td class=\"{class}\" data-v=\"{key}\">{}</td>",
                    esc(&text)
                );
            }
            b.push_str("</tr>\n");
        }
        b.push_str("</tbody>\n</table>\n<script>\n");
        b.push_str(SORT_JS);
        b.push_str("\n</script>\n");
        out.push((
            benchmarks_file(g, k),
            page(meta, &title, "../", &track_nav(r, Here::Benchmarks(g)), &b),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::Smt2File;
    use crate::model::Logic;

    fn run(answer: Answer, error: bool) -> ScoredRun {
        ScoredRun {
            solver: "s".into(),
            track: crate::model::Track::SingleQuery,
            file: Smt2File {
                incremental: false,
                logic: Logic::new("QF_BV"),
                family: vec![],
                name: "x.smt2".into(),
            }
            .into(),
            answer,
            cpu_time: 1.5,
            wall_time: 1.5,
            nb_answers: None,
            last_answer_time: None,
            answer_at_timeout: None,
            error,
        }
    }

    #[test]
    fn an_error_is_shown_as_an_error_not_as_unknown() {
        let e = cell(Some(&run(Answer::Unknown, true)), Status::Sat, 0);
        assert_eq!((e.0, e.1.as_str()), ("none", "error 1.50"));
        let u = cell(Some(&run(Answer::Unknown, false)), Status::Sat, 0);
        assert_eq!((u.0, u.1.as_str()), ("none", "unknown 1.50"));
        assert!(e.2 > u.2, "errors sort after unknowns");
    }
}
