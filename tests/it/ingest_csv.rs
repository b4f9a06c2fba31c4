//! Cloud/Parallel results as CSV (issue 21, item 4): the columns of the
//! organizers' `convert-aws-results` (`solver, scramble_id, logic,
//! solver_time, file, track, solver_result`) ingested into the run table; bad
//! rows are reported with file, line and reason, counted, and make the exit
//! code 1; the good rows are kept.

use crate::support::smtcomp;
use smtcomp::formats::runtable::RunAnswer;
use smtcomp::ingest::read_table;
use smtcomp::model::Track;

/// Four rows with the values of four real 2025 Parallel runs
/// (`results-parallel-2025.json.gz`: solver, logic, family, name, result,
/// wall-clock time), columns in another order than the organizers' list and
/// one extra column, which is ignored.
const GOOD: &str = "\
track,solver,logic,file,solver_time,solver_result,scramble_id,extra
Parallel,Bitwuzla,QF_ABV,non-incremental/QF_ABV/2019-Wolf-fmbench/2018E/VexRiscv-regch0-30-unrolled-mem.smt2,1201.0083175292239,timeout,11,x
Parallel,Yices2,QF_ABV,QF_ABV/brummayerbiere/bubsort014un.smt2,164.93645775411278,unsat,12,x
parallel,SMTS,QF_ALIA,\"20230321-UltimateAutomizerSvcomp2023/AllInterval-015.c_AllErrorsAtOnce_Iteration2_0.smt2\",127.07047931104898,sat,13,x
Parallel,STP-Parti-Bitwuzla,QF_BV,QF_BV/log-slicing/bvurem_18.smt2,252.6129529774189,Unknown,14,x
";

fn p(x: &std::path::Path) -> &str {
    x.to_str().unwrap()
}

#[test]
fn csv_rows_become_run_table_records() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("parallel.csv");
    std::fs::write(&csv, GOOD).unwrap();
    let runs = tmp.path().join("runs.jsonl");
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 0, "{out}{err}");
    let (_, records) = read_table(&runs).unwrap();
    assert_eq!(records.len(), 4);
    let by_solver = |s: &str| records.iter().find(|r| r.solver == s).unwrap();
    let b = by_solver("Bitwuzla");
    assert_eq!(b.track, Some(Track::Parallel));
    assert_eq!(b.answer, RunAnswer::Timeout);
    assert_eq!(b.walltime, Some(1201.0083175292239));
    assert_eq!(b.cputime, None, "the CSV has no CPU time");
    assert_eq!(
        b.benchmark_key,
        "non-incremental/QF_ABV/2019-Wolf-fmbench/2018E/VexRiscv-regch0-30-unrolled-mem.smt2"
    );
    assert_eq!(
        b.division.as_ref().map(|d| d.to_string()).as_deref(),
        Some("QF_Equality+Bitvec")
    );
    assert_eq!(b.notes, ["scramble_id 11"]);
    // The path without the library prefix gets it; "parallel" parses as the track.
    let y = by_solver("Yices2");
    assert_eq!(y.answer, RunAnswer::Unsat);
    assert_eq!(
        y.benchmark_key,
        "non-incremental/QF_ABV/brummayerbiere/bubsort014un.smt2"
    );
    let s = by_solver("SMTS");
    assert_eq!(s.answer, RunAnswer::Sat);
    assert_eq!(
        s.benchmark_key,
        "non-incremental/QF_ALIA/20230321-UltimateAutomizerSvcomp2023/AllInterval-015.c_AllErrorsAtOnce_Iteration2_0.smt2"
    );
    assert_eq!(by_solver("STP-Parti-Bitwuzla").answer, RunAnswer::Unknown);
    // A directory is walked for results*.csv only (not original_id.csv & co).
    let dir = tmp.path().join("dir");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("results-parallel.csv"), GOOD).unwrap();
    std::fs::write(dir.join("original_id.csv"), "scramble_id,file\n1,a.smt2\n").unwrap();
    let runs2 = tmp.path().join("runs2.jsonl");
    let (code, out, err) = smtcomp(&["ingest", p(&dir), "-o", p(&runs2), "--quiet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(read_table(&runs2).unwrap().1.len(), 4);
}

/// Bad rows: each named with file, line and reason; counted (3 of 7 rows);
/// exit 1; the 4 good rows are still in the table.
#[test]
fn bad_rows_are_reported_counted_and_fail_the_exit_code() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("bad.csv");
    let text = format!(
        "{GOOD}\
Parallel,z3,QF_BV,QF_BV/a/b.smt2,12.5,maybe,1,x
Parallel,z3,QF_BV,QF_BV/a/b.smt2,-3,sat,1,x
Parallel,z3,QF_BV,QF_BV/a/b.smt2,3,sat,1
\n"
    );
    std::fs::write(&csv, text).unwrap();
    let runs = tmp.path().join("runs.jsonl");
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 1, "{out}{err}");
    let all = format!("{out}{err}");
    let name = p(&csv);
    for want in [
        format!("{name}: 3 of 7 row(s) bad, not ingested"),
        format!("{name}: line 6: solver_result 'maybe' is none of sat, unsat, unknown"),
        format!("{name}: line 7: solver_time '-3' is not a number of seconds"),
        format!("{name}: line 8: 7 field(s), the header has 8"),
    ] {
        assert!(all.contains(&want), "{want}\n{all}");
    }
    assert_eq!(read_table(&runs).unwrap().1.len(), 4);
}

/// A header without the required columns makes the file unreadable (exit 1),
/// naming the missing columns; a non-Cloud/Parallel track is a bad row.
#[test]
fn header_and_track_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("h.csv");
    std::fs::write(&csv, "solver,logic,file,track\nz3,QF_BV,a.smt2,Parallel\n").unwrap();
    let runs = tmp.path().join("runs.jsonl");
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("line 1: header lacks the column(s) scramble_id, solver_time, solver_result"),
        "{out}{err}"
    );
    std::fs::write(
        &csv,
        "solver,scramble_id,logic,solver_time,file,track,solver_result\nz3,1,QF_BV,1,QF_BV/a.smt2,SingleQuery,sat\nz3,1,QF_BV,1,QF_BV/a.smt2,Paralel,sat\n",
    )
    .unwrap();
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("line 2: track SingleQuery: CSV results are Cloud or Parallel runs"),
        "{out}"
    );
    assert!(
        out.contains("line 3: unknown track 'Paralel' (did you mean Parallel?)"),
        "{out}"
    );
}

/// Rows that would double or contradict a run, a logic the definition does not
/// have, a path in another logic than its logic column, a control character,
/// and a file with a header but no row: each a bad row (or file) naming the
/// line and, for duplicates, the first line too; exit 1; only the first row of
/// a run is kept.
#[test]
fn duplicate_conflicting_and_inconsistent_rows_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("dup.csv");
    let text = format!(
        "{GOOD}\
Parallel,Yices2,QF_ABV,QF_ABV/brummayerbiere/bubsort014un.smt2,164.9,unsat,12,x
Parallel,Yices2,QF_ABV,non-incremental/QF_ABV/brummayerbiere/bubsort014un.smt2,10,sat,12,x
Parallel,z3,QF_NOPE,QF_NOPE/a.smt2,1,sat,1,x
Parallel,z3,QF_BV,non-incremental/QF_LIA/a/b.smt2,1,sat,1,x
Parallel,z\u{0}3,QF_BV,QF_BV/a/b.smt2,1,sat,1,x
"
    );
    std::fs::write(&csv, text).unwrap();
    let runs = tmp.path().join("runs.jsonl");
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 1, "{out}{err}");
    let all = format!("{out}{err}");
    let name = p(&csv);
    let key = "Yices2 on non-incremental/QF_ABV/brummayerbiere/bubsort014un.smt2 in Parallel";
    for want in [
        format!(
            "{name}: line 6: a second row for {key} (line 3 has it already, same answer unsat); not counted twice"
        ),
        format!(
            "{name}: line 7: conflicting rows for {key}: line 3 says unsat, this line sat; the first is kept"
        ),
        format!(
            "{name}: line 8: logic QF_NOPE is in no division of track Parallel of SMT-COMP 2025"
        ),
        format!(
            "{name}: line 9: file 'non-incremental/QF_LIA/a/b.smt2' lies in logic QF_LIA, the logic column says QF_BV"
        ),
        format!("{name}: line 10: control character '\\0' in a solver, file or scramble_id field"),
    ] {
        assert!(all.contains(&want), "{want}\n{all}");
    }
    let (_, records) = read_table(&runs).unwrap();
    assert_eq!(records.len(), 4);
    let y = records.iter().find(|r| r.solver == "Yices2").unwrap();
    assert_eq!(y.answer, RunAnswer::Unsat);

    std::fs::write(
        &csv,
        "solver,scramble_id,logic,solver_time,file,track,solver_result\n",
    )
    .unwrap();
    let (code, out, err) = smtcomp(&["ingest", p(&csv), "-o", p(&runs), "--quiet"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}").contains(&format!("{name}: no row after the header: no results")),
        "{out}{err}"
    );
}
