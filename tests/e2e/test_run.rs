//! `smtcomp run --test`, the organizers' test run, on real BenchExec: per
//! submission a Markdown summary ready to paste on its pull request and
//! BenchExec's `table-generator` table of each track it ran.

use crate::interrupt::{output, smtcomp, workspace_with};
use crate::support::{require_tool, work_dir};

#[test]
fn the_test_run_reports_wrong_answers_errors_and_tables_per_submission() {
    for tool in ["benchexec", "table-generator"] {
        if require_tool(tool).is_none() {
            return;
        }
    }
    let work = work_dir("test-run-report");
    // Two QF_LIA benchmarks (one of status sat); a solver that always says
    // unsat and one that fails with an error message.
    let ws = workspace_with(
        work.path(),
        &[
            ("Liar", "Ann", "#!/bin/sh\necho unsat\n"),
            (
                "Crash",
                "Bob",
                "#!/bin/sh\necho '(error \"boom\")'\necho 'libfoo.so: cannot open' >&2\nexit 3\n",
            ),
        ],
    );
    let (code, out, err) = output(smtcomp(&ws).args(["run", "--test"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("test-run report of 2 submission(s)"), "{out}");
    assert!(out.contains("2 table-generator table(s)"), "{out}");
    let dir = ws.join("test-run/submissions");
    let liar = std::fs::read_to_string(dir.join("Liar/summary.md")).unwrap();
    assert!(liar.starts_with("## Test run of Liar ("), "{liar}");
    assert!(
        liar.contains("per entered logic (seed 1), scrambled"),
        "{liar}"
    );
    assert!(
        liar.contains("| SingleQuery | 5 s, 1000 MB, 1 core | 2 | 2 | 0 | 2 |"),
        "{liar}"
    );
    assert!(liar.contains("### Wrong answers (1)"), "{liar}");
    assert!(
        liar.contains("CVC4-1.8_test_regress_regress0_bug383.smt2`: unsat, expected sat"),
        "{liar}"
    );
    assert!(liar.contains("### Errors (0)"), "{liar}");
    assert!(liar.contains("Every entered logic was run."), "{liar}");
    let crash = std::fs::read_to_string(dir.join("Crash/summary.md")).unwrap();
    assert!(crash.contains("### Errors (2)"), "{crash}");
    assert!(crash.contains("(exit code 3)"), "{crash}");
    // planned = results (2) and both errors, in the track's row.
    assert!(
        crash.contains(" | 2 | 2 | 0 | 0 | 0 | 0 | 0 | 0 | 2 | 0 |"),
        "{crash}"
    );
    for solver in ["Liar", "Crash"] {
        let html = std::fs::read_to_string(dir.join(solver).join("single-query.table.html"))
            .unwrap_or_else(|e| panic!("{solver}: {e}"));
        // BenchExec's table of the two runs (tasks scrambled as run).
        assert!(
            html.contains("scrambled0.yml") && html.contains("scrambled1.yml"),
            "{solver}"
        );
        assert!(html.contains(solver), "{solver}: the column");
    }
}
