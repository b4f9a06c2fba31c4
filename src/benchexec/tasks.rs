//! Task-definition YAML files (BenchExec format 2.0) and the property file.

use crate::formats::generation::TaskEntry;
use crate::util::escape::yaml;

/// File name of the (empty) property file in `tasks/`: BenchExec needs one to
/// use expected verdicts; an empty file is not an SV-COMP property.
pub const PROPERTY_FILE: &str = "SMT.prp";

/// The YAML text of a task at depth `tasks/<track>/<LOGIC>/x.yml`.
pub fn render(task: &TaskEntry) -> String {
    let mut s = String::from("format_version: \"2.0\"\n");
    s.push_str(&format!("input_files: {}\n", yaml(&task.input_file)));
    s.push_str(&format!(
        "# original: {}\n",
        task.original.path().replace('\n', " ")
    ));
    s.push_str("properties:\n");
    s.push_str(&format!("  - property_file: ../../{PROPERTY_FILE}\n"));
    if let Some(v) = task.expected_verdict {
        s.push_str(&format!("    expected_verdict: {v}\n"));
    }
    s.push_str("options:\n  smtcomp:\n");
    s.push_str(&format!("    track: {}\n", task.track));
    s.push_str(&format!("    logic: {}\n", yaml(task.logic.as_str())));
    s.push_str(&format!("    division: {}\n", yaml(task.division.as_str())));
    s
}
