//! Import of Cloud/Parallel results delivered as CSV (the organizers'
//! `convert-aws-results`, anchor spec 1): a header naming at least the columns
//! `solver, scramble_id, logic, solver_time, file, track, solver_result` (in
//! any order; further columns are ignored), then one run per line.
//!
//! | column | record |
//! |---|---|
//! | `solver` | `solver` |
//! | `track` | `track` (Cloud or Parallel, any spelling of the track parser) |
//! | `logic` | `logic`, and the division through the competition definition |
//! | `file` | the benchmark: `non-incremental/LOGIC/family.../name` (a path without the `non-incremental/` or `LOGIC/` prefix gets it) |
//! | `solver_time` | `walltime` (seconds; no CPU time or memory: the organizers' import set them to 0) |
//! | `solver_result` | `sat`, `unsat`, `unknown`; also `timeout`, `memout`, `error` (any case) |
//! | `scramble_id` | a note `scramble_id N` |
//!
//! A bad row (wrong field count, unknown track or answer, not a logic name, a
//! logic the definition does not have in the track, a path whose logic
//! directory contradicts the logic column, a control character in a name, a
//! time that is not a number between 0 and the plausible maximum, an empty
//! solver or file, a second row for the same solver, track and benchmark,
//! whether it repeats or contradicts the first) is never dropped silently: it
//! is reported as `FILE: line N: reason` among the file's unreadable problems
//! (exit 1), and counted; the good rows are kept (of two rows for one run, the
//! first). A file with a header and no row is reported too.

use crate::formats::inventory::Smt2File;
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::model::{Competition, Logic, Track, is_valid_name};
use std::path::Path;

/// The columns the organizers' import requires.
pub const COLUMNS: [&str; 7] = [
    "solver",
    "scramble_id",
    "logic",
    "solver_time",
    "file",
    "track",
    "solver_result",
];

/// Whether a file name is a CSV results file (`*.csv`).
pub fn is_results_csv(name: &str) -> bool {
    name.ends_with(".csv")
}

/// What one CSV file gave: the good rows as records, the bad rows as
/// `FILE: line N: reason` (a header problem makes the whole file bad).
#[derive(Debug, Default)]
pub struct Imported {
    /// One record per good row, in file order.
    pub records: Vec<IngestRecord>,
    /// One message per bad row (or one for an unreadable file or header).
    pub bad: Vec<String>,
    /// Data rows read (good + bad; blank lines are not rows).
    pub rows: u64,
}

/// Splits one CSV line into fields (RFC 4180: `"` quotes, `""` inside quotes).
/// `Err` for an unterminated quote.
pub fn split_line(line: &str) -> Result<Vec<String>, &'static str> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    cur.push('"');
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' && at_start {
            quoted = true;
            at_start = false;
        } else if c == ',' {
            fields.push(std::mem::take(&mut cur));
            at_start = true;
        } else {
            cur.push(c);
            at_start = false;
        }
    }
    if quoted {
        return Err("unterminated quoted field");
    }
    fields.push(cur);
    Ok(fields)
}

/// The answer of a `solver_result` value.
fn answer(v: &str) -> Option<RunAnswer> {
    Some(match v.trim().to_ascii_lowercase().as_str() {
        "sat" => RunAnswer::Sat,
        "unsat" => RunAnswer::Unsat,
        "unknown" => RunAnswer::Unknown,
        "timeout" => RunAnswer::Timeout,
        "memout" | "outofmemory" => RunAnswer::Memout,
        "error" => RunAnswer::Error,
        _ => return None,
    })
}

/// The benchmark of a `file` value in `logic`, or why it is none.
fn benchmark(file: &str, logic: &Logic) -> Result<Smt2File, String> {
    let not_a_path = || format!("file '{file}' is not a benchmark path");
    let file = file.trim().trim_start_matches("./");
    let rest = match file.strip_prefix("non-incremental/") {
        // A full library path names its logic: it must be the logic column's.
        Some(rest) => match rest.split_once('/') {
            Some((l, tail)) if l == logic.as_str() => tail,
            Some((l, _)) => {
                return Err(format!(
                    "file '{file}' lies in logic {l}, the logic column says {logic}"
                ));
            }
            None => return Err(not_a_path()),
        },
        None => file
            .strip_prefix(&format!("{}/", logic.as_str()))
            .unwrap_or(file),
    };
    let mut parts: Vec<&str> = rest.split('/').collect();
    let name = parts.pop().ok_or_else(not_a_path)?;
    if name.is_empty() || parts.iter().any(|p| p.is_empty() || *p == "..") {
        return Err(not_a_path());
    }
    let f = Smt2File {
        incremental: false,
        logic: logic.clone(),
        family: parts.into_iter().map(String::from).collect(),
        name: name.to_string(),
    };
    match f.unsafe_component() {
        Some(why) => Err(format!("file '{file}': {why}")),
        None => Ok(f),
    }
}

/// Reads a CSV results file (`source` names it in the records).
pub fn import(path: &Path, source: &str, comp: &Competition) -> Imported {
    let mut out = Imported::default();
    let shown = path.display();
    let text = match std::fs::read(path) {
        Ok(b) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(e) => {
                out.bad.push(format!("{shown}: not UTF-8 text: {e}"));
                return out;
            }
        },
        Err(e) => {
            out.bad.push(format!("{shown}: cannot read: {e}"));
            return out;
        }
    };
    let mut lines = text.lines().enumerate();
    let header = loop {
        match lines.next() {
            Some((_, l)) if l.trim().is_empty() => continue,
            Some((i, l)) => match split_line(l.trim_start_matches('\u{feff}')) {
                Ok(h) => break h,
                Err(e) => {
                    out.bad
                        .push(format!("{shown}: line {}: header: {e}", i + 1));
                    return out;
                }
            },
            None => {
                out.bad
                    .push(format!("{shown}: empty file (no header line)"));
                return out;
            }
        }
    };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
    let mut col = [0usize; 7];
    let mut missing = Vec::new();
    for (k, name) in COLUMNS.iter().enumerate() {
        match header.iter().position(|h| h == name) {
            Some(i) => col[k] = i,
            None => missing.push(*name),
        }
    }
    if !missing.is_empty() {
        out.bad.push(format!(
            "{shown}: line 1: header lacks the column(s) {} (needs {})",
            missing.join(", "),
            COLUMNS.join(", ")
        ));
        return out;
    }
    // (solver, track, benchmark) -> (line, answer) of the first row for the run.
    let mut seen: std::collections::BTreeMap<(String, String, String), (usize, RunAnswer)> =
        std::collections::BTreeMap::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        out.rows += 1;
        let r = row(line, &header, &col, source, i + 1, comp).and_then(|r| {
            let track = r.track.map(|t| t.to_string()).unwrap_or_default();
            let key = (r.solver.clone(), track, r.benchmark_key.clone());
            match seen.get(&key) {
                Some((first, a)) if *a == r.answer => Err(format!(
                    "a second row for {} on {} in {} (line {first} has it already, same answer {a}); not counted twice",
                    key.0, key.2, key.1
                )),
                Some((first, a)) => Err(format!(
                    "conflicting rows for {} on {} in {}: line {first} says {a}, this line {}; the first is kept",
                    key.0, key.2, key.1, r.answer
                )),
                None => {
                    seen.insert(key, (i + 1, r.answer));
                    Ok(r)
                }
            }
        });
        match r {
            Ok(r) => out.records.push(r),
            Err(reason) => out.bad.push(format!("{shown}: line {}: {reason}", i + 1)),
        }
    }
    if out.rows == 0 {
        out.bad
            .push(format!("{shown}: no row after the header: no results"));
    }
    out
}

/// One data line.
fn row(
    line: &str,
    header: &[String],
    col: &[usize; 7],
    source: &str,
    lineno: usize,
    comp: &Competition,
) -> Result<IngestRecord, String> {
    let fields = split_line(line)?;
    if fields.len() != header.len() {
        return Err(format!(
            "{} field(s), the header has {}",
            fields.len(),
            header.len()
        ));
    }
    let get = |k: usize| fields[col[k]].trim();
    let (solver, scramble, logic, time, file, track, result) =
        (get(0), get(1), get(2), get(3), get(4), get(5), get(6));
    if solver.is_empty() {
        return Err("empty solver".into());
    }
    if let Some(c) = [solver, file, scramble]
        .iter()
        .flat_map(|f| f.chars())
        .find(|c| c.is_control())
    {
        return Err(format!(
            "control character {c:?} in a solver, file or scramble_id field"
        ));
    }
    let track: Track = track.parse().map_err(|e| format!("{e}"))?;
    if !matches!(track, Track::Cloud | Track::Parallel) {
        return Err(format!(
            "track {track}: CSV results are Cloud or Parallel runs"
        ));
    }
    if !is_valid_name(logic) {
        return Err(format!("'{logic}' is not a logic name"));
    }
    let logic = Logic::new(logic);
    let seconds: f64 = time
        .parse()
        .ok()
        .filter(|t| super::file::plausible_seconds(*t))
        .ok_or_else(|| {
            format!(
                "solver_time '{time}' is not a number of seconds between 0 and {}",
                super::file::MAX_PLAUSIBLE_SECONDS
            )
        })?;
    let answer = answer(result).ok_or_else(|| {
        format!("solver_result '{result}' is none of sat, unsat, unknown, timeout, memout, error")
    })?;
    let bench = benchmark(file, &logic)?;
    let division = comp
        .track(track)
        .and_then(|t| t.division_of(logic.as_str()))
        .cloned()
        .ok_or_else(|| {
            format!(
                "logic {logic} is in no division of track {track} of {} (a typo, or another year's definition?)",
                comp.name
            )
        })?;
    let mut rec = IngestRecord::new(source, format!("line {lineno}"));
    rec.solver = solver.to_string();
    rec.track = Some(track);
    rec.division = Some(division);
    rec.logic = Some(logic);
    rec.benchmark_key = bench.path();
    rec.benchmark = Some(bench);
    rec.answer = answer;
    rec.walltime = Some(seconds);
    if !scramble.is_empty() {
        rec.notes.push(format!("scramble_id {scramble}"));
    }
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_handles_quotes() {
        assert_eq!(split_line("a,b,,c").unwrap(), ["a", "b", "", "c"]);
        assert_eq!(
            split_line(r#""x,y","he said ""hi""",z"#).unwrap(),
            ["x,y", r#"he said "hi""#, "z"]
        );
        assert!(split_line(r#""open,b"#).is_err());
    }
}
