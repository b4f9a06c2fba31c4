//! Small benchmarks of known status, generated for an entered logic the
//! library has nothing suitable for (as the organizers' CI tests every logic
//! with trivial files): declared in that logic, over a constant of one of its
//! sorts (bit-vectors, integers, reals; Booleans otherwise):
//!
//! * `sat.smt2`: satisfiable (Single Query, Parallel, Cloud, Model Validation);
//! * `unsat.smt2`: three assertions of which two are contradictory (Single
//!   Query, Unsat Core: a core must keep both, Proof Exhibition);
//! * `incremental.smt2` (incremental): three `check-sat` (sat, unsat, sat)
//!   with `push`/`pop` (Incremental).
//!
//! They live in `OUT/library/<kind>/<LOGIC>/test-solver-generated/`.

use std::path::Path;

/// The family directory of generated benchmarks.
pub const FAMILY: &str = "test-solver-generated";

/// A sort of the logic and two distinct values of it.
struct Sort {
    name: &'static str,
    one: &'static str,
    other: &'static str,
}

/// The sort the generated benchmarks of `logic` use: the logic's own
/// bit-vectors, integers or reals where its name says so (difference logics
/// excepted: their atoms have a fixed form), Booleans otherwise.
fn sort_of(logic: &str) -> Sort {
    let theories = logic.strip_prefix("QF_").unwrap_or(logic);
    if theories.contains("BV") {
        Sort {
            name: "(_ BitVec 8)",
            one: "#x05",
            other: "#x06",
        }
    } else if theories.contains("IDL") || theories.contains("RDL") {
        bool_sort()
    } else if theories.contains("LIA") || theories.contains("NIA") || theories.contains("LIRA") {
        Sort {
            name: "Int",
            one: "5",
            other: "6",
        }
    } else if theories.contains("LRA") || theories.contains("NRA") {
        Sort {
            name: "Real",
            one: "5.0",
            other: "6.0",
        }
    } else {
        bool_sort()
    }
}

fn bool_sort() -> Sort {
    Sort {
        name: "Bool",
        one: "true",
        other: "false",
    }
}

/// The generated benchmarks of `logic`: (incremental, file name, text).
pub fn benchmarks(logic: &str) -> Vec<(bool, &'static str, String)> {
    let s = sort_of(logic);
    let head = |what: &str| {
        format!(
            "(set-info :smt-lib-version 2.6)\n(set-logic {logic})\n\
             (set-info :source |smtcomp test-solver: generated, {what}|)\n"
        )
    };
    let decls = format!("(declare-fun x () {})\n(declare-fun b () Bool)\n", s.name);
    let sat = format!(
        "{}(set-info :status sat)\n{decls}(assert (= x {}))\n(assert (or b (not b)))\n(check-sat)\n(exit)\n",
        head("satisfiable"),
        s.one
    );
    let unsat = format!(
        "{}(set-info :status unsat)\n{decls}(assert (= x {}))\n(assert b)\n(assert (= x {}))\n(check-sat)\n(exit)\n",
        head("unsatisfiable; the first and the third assertion contradict each other"),
        s.one,
        s.other
    );
    let incremental = format!(
        "{}{decls}(assert b)\n(push 1)\n(assert (= x {}))\n(set-info :status sat)\n(check-sat)\n\
         (assert (= x {}))\n(set-info :status unsat)\n(check-sat)\n(pop 1)\n\
         (set-info :status sat)\n(check-sat)\n(exit)\n",
        head("incremental: sat, unsat, sat"),
        s.one,
        s.other
    );
    vec![
        (false, "sat.smt2", sat),
        (false, "unsat.smt2", unsat),
        (true, "incremental.smt2", incremental),
    ]
}

/// Writes the generated benchmarks of `logic` into `library`; returns how many.
pub fn write(library: &Path, logic: &str) -> anyhow::Result<usize> {
    let files = benchmarks(logic);
    for (incremental, name, text) in &files {
        let kind = if *incremental {
            "incremental"
        } else {
            "non-incremental"
        };
        let dir = library.join(kind).join(logic).join(FAMILY);
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", dir.display()))?;
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
    }
    Ok(files.len())
}

/// Whether the library file of `family` is a generated one.
pub fn is_generated(family: &[String]) -> bool {
    family.first().is_some_and(|f| f == FAMILY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_follow_the_logic() {
        assert_eq!(sort_of("QF_ABVFPLRA").name, "(_ BitVec 8)");
        assert_eq!(sort_of("QF_UFLIA").name, "Int");
        assert_eq!(sort_of("UFDTLIRA").name, "Int");
        assert_eq!(sort_of("QF_NRA").name, "Real");
        assert_eq!(sort_of("QF_IDL").name, "Bool");
        assert_eq!(sort_of("QF_S").name, "Bool");
    }

    #[test]
    fn the_files_say_their_status() {
        let files = benchmarks("QF_LIA");
        assert!(files[0].2.contains("(set-logic QF_LIA)"));
        assert!(files[0].2.contains("(set-info :status sat)"));
        assert!(files[1].2.contains("(set-info :status unsat)"));
        assert_eq!(files[1].2.matches("(assert").count(), 3);
        assert_eq!(files[2].2.matches("(check-sat)").count(), 3);
        assert_eq!(files[2].2.matches("(set-info :status").count(), 3);
    }
}
