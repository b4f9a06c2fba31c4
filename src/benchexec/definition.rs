//! The BenchExec benchmark-definition XML of one [`Definition`].
//!
//! Everything is escaped; text content is never padded (BenchExec does not trim
//! it); one `<option>` per argv element; limits are integers with units.

use crate::formats::generation::Definition;
use crate::model::Track;
use crate::util::escape::xml;

/// The DOCTYPE line BenchExec documents (informational; it is not validated).
pub const DOCTYPE: &str = r#"<!DOCTYPE benchmark PUBLIC "+//IDN sosy-lab.org//DTD BenchExec benchmark 3.30//EN" "https://www.sosy-lab.org/benchexec/benchmark-3.30.dtd">"#;

/// Path of the property file relative to the `definitions/` directory.
pub const PROPERTY_FROM_DEFINITIONS: &str = "../tasks/SMT.prp";

/// Extra result columns of a track: (title, identifier for `get_value_from_output`).
pub fn columns(track: Track) -> &'static [(&'static str, &'static str)] {
    match track {
        Track::Incremental => &[
            ("correct", "correct"),
            ("wrong", "wrong"),
            ("last-answer-time", "last-answer-time"),
        ],
        Track::UnsatCore => &[("unsat-core", "unsat-core")],
        Track::ModelValidation => &[("model", "model")],
        Track::ProofExhibition => &[("proof", "proof")],
        _ => &[],
    }
}

/// The XML text of `def`.
pub fn render(def: &Definition) -> String {
    let l = def.limits;
    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\"?>\n");
    s.push_str(DOCTYPE);
    s.push('\n');
    s.push_str(&format!(
        "<benchmark tool=\"{}\" displayName=\"{}\" timelimit=\"{} s\" walltimelimit=\"{} s\" memlimit=\"{} MB\" cpuCores=\"{}\">\n",
        xml(&def.tool_module),
        xml(&format!("{} {} {}", def.solver, def.track, def.division)),
        u64::from(l.time_s) * u64::from(l.cores),
        l.time_s,
        l.memory_mb,
        l.cores
    ));
    if let Some(model) = &def.cpu_model {
        s.push_str(&format!(
            "  <require cpuModel=\"{}\" cpuCores=\"{}\" memory=\"{} MB\"/>\n",
            xml(model),
            l.cores,
            l.memory_mb
        ));
    }
    if def.track == Track::ProofExhibition {
        s.push_str("  <resultfiles>*.log</resultfiles>\n");
    }
    s.push_str(&format!(
        "  <propertyfile>{}</propertyfile>\n",
        PROPERTY_FROM_DEFINITIONS
    ));
    for (name, rd) in &def.rundefinitions {
        s.push_str(&format!("  <rundefinition name=\"{}\">\n", xml(name)));
        for arg in &rd.command {
            s.push_str(&format!("    <option>{}</option>\n", xml(arg)));
        }
        for logic in &rd.logics {
            s.push_str(&format!(
                "    <tasks name=\"{0}\">\n      <include>../tasks/{1}/{0}/*.yml</include>\n    </tasks>\n",
                xml(logic.as_str()),
                def.track.page_suffix()
            ));
        }
        s.push_str("  </rundefinition>\n");
    }
    let cols = columns(def.track);
    if !cols.is_empty() {
        s.push_str("  <columns>\n");
        for (title, id) in cols {
            s.push_str(&format!(
                "    <column title=\"{}\">{}</column>\n",
                xml(title),
                xml(id)
            ));
        }
        s.push_str("  </columns>\n");
    }
    s.push_str("</benchmark>\n");
    s
}
