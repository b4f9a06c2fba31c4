//! The commands validation solvers run with in `validate-cores run`: given by
//! hand (`--solver NAME=COMMAND`), or taken from the submissions as BenchExec
//! takes them (`smtcomp generate`): a validator is named by its submission
//! name and runs the command of its Single Query participation that entered
//! the task's logic ([`crate::submission::participation_entries`],
//! [`crate::submission::command_for`]).

use crate::model::{Competition, Logic, Track};
use crate::submission::SolverLocation;
use crate::submission::Submission;
use crate::submission::command_for;
use crate::submission::participation_entries;
use std::collections::BTreeMap;

/// Validator commands (program and arguments; the file is appended).
#[derive(Debug, Clone, Default)]
pub struct ValidatorCommands {
    /// Given by hand, for every logic; they take precedence.
    pub given: BTreeMap<String, Vec<String>>,
    /// From the submissions: (submission name, logic) -> command.
    pub by_logic: BTreeMap<(String, Logic), Vec<String>>,
}

impl ValidatorCommands {
    /// Commands given by hand only.
    pub fn given(given: BTreeMap<String, Vec<String>>) -> ValidatorCommands {
        ValidatorCommands {
            given,
            by_logic: BTreeMap::new(),
        }
    }

    /// Adds the Single Query commands of `subs` (binaries resolved as `loc`
    /// says, as `smtcomp generate` does; the first participation entering a
    /// logic wins). Returns the participations whose command is unusable.
    pub fn add_submissions(
        &mut self,
        comp: &Competition,
        subs: &[&Submission],
        loc: &SolverLocation,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        for sub in subs {
            for i in 0..sub.participations.len() {
                let entered = participation_entries(sub, i, comp);
                let Some(ucv) = entered.get(&Track::UnsatCoreValidation) else {
                    continue;
                };
                let command = match command_for(sub, i, loc) {
                    Ok(c) => c,
                    Err(e) => {
                        problems.push(e.to_string());
                        continue;
                    }
                };
                for logic in ucv.values().flatten() {
                    self.by_logic
                        .entry((sub.name.clone(), logic.clone()))
                        .or_insert_with(|| command.clone());
                }
            }
        }
        problems
    }

    /// The command of validator `name` on a task of `logic`.
    pub fn get(&self, name: &str, logic: Option<&Logic>) -> Option<&[String]> {
        if let Some(c) = self.given.get(name) {
            return Some(c);
        }
        let logic = logic?;
        self.by_logic
            .get(&(name.to_string(), logic.clone()))
            .map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::load_set;

    #[test]
    fn submissions_give_their_single_query_command_per_logic() {
        let comp = Competition::builtin(2025).unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let loaded = load_set(&[root.join("demo/submissions")], &comp);
        let subs: Vec<&Submission> = loaded
            .iter()
            .filter_map(|l| l.submission.as_ref())
            .collect();
        let mut c = ValidatorCommands::default();
        let loc = SolverLocation {
            on_path: true,
            dirs_for_paths_only: false,
            ..Default::default()
        };
        assert!(c.add_submissions(&comp, &subs, &loc).is_empty());
        let qf_uf = Logic::new("QF_UF");
        // The Single Query command, not the Incremental one.
        assert_eq!(c.get("z3", Some(&qf_uf)).unwrap(), ["z3", "-smt2"]);
        assert_eq!(c.get("Yices 2", Some(&qf_uf)).unwrap(), ["yices-smt2"]);
        // Not entered in Single Query: no command.
        assert!(c.get("z3", Some(&Logic::new("UF"))).is_none());
        assert!(c.get("nobody", Some(&qf_uf)).is_none());
        assert!(c.get("z3", None).is_none());
        // Given by hand: for every logic, first.
        c.given.insert("z3".into(), vec!["z3".into(), "-v".into()]);
        assert_eq!(c.get("z3", Some(&qf_uf)).unwrap(), ["z3", "-v"]);
        assert_eq!(c.get("z3", None).unwrap(), ["z3", "-v"]);
    }
}
