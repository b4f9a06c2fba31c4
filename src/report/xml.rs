//! The scores as an XML document (`smtcomp score --format xml`), rendered by
//! `xsl/scores.xsl` (XSLT 1.0). Numbers are raw (CPU and wall scores to 6
//! decimals); `rank` is the rank shown on the pages (`-` for non-competing).

use super::html::esc;
use super::pages::rank_label;
use crate::scoring::TrackScores;
use crate::scoring::output::r6;
use std::fmt::Write;

/// The stylesheet embedded in sites (`xsl/scores.xsl`).
pub const SCORES_XSL: &str = include_str!("../../xsl/scores.xsl");
/// The BenchExec results stylesheet (`xsl/benchexec-results.xsl`).
pub const BENCHEXEC_XSL: &str = include_str!("../../xsl/benchexec-results.xsl");

/// The scores XML of one track. `stylesheet`: the `href` of the
/// `<?xml-stylesheet?>` processing instruction (none when `None`).
pub fn scores_xml(
    s: &TrackScores,
    time_limit: f64,
    memory_mb: u64,
    year: u16,
    stylesheet: Option<&str>,
) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if let Some(h) = stylesheet {
        let _ = writeln!(
            x,
            "<?xml-stylesheet type=\"text/xsl\" href=\"{}\"?>",
            esc(h)
        );
    }
    let _ = writeln!(
        x,
        "<scores track=\"{}\" year=\"{year}\" policy=\"{}\" timeLimitS=\"{}\" memoryLimitMB=\"{memory_mb}\">",
        esc(&s.track.to_string()),
        esc(&s.policy),
        r6(time_limit)
    );
    for g in &s.groups {
        let _ = writeln!(
            x,
            "  <group page=\"{}\" name=\"{}\" identifier=\"{}\" division=\"{}\" competitive=\"{}\" experimental=\"{}\" benchmarks=\"{}\">",
            if g.is_division { "division" } else { "logic" },
            esc(&g.name),
            esc(&g.identifier),
            esc(&g.division),
            g.competitive,
            g.experimental,
            g.n_benchmarks
        );
        for p in &g.podiums {
            let _ = writeln!(
                x,
                "    <kind name=\"{}\" winner=\"{}\" ranking=\"{}\">",
                p.kind.key(),
                esc(p.winner.as_deref().unwrap_or("-")),
                esc(p.ranking)
            );
            for (i, st) in p.steps.iter().enumerate() {
                let _ = writeln!(
                    x,
                    "      <solver rank=\"{}\" name=\"{}\" competing=\"{}\" errorScore=\"{}\" correctScore=\"{}\" \
wallScore=\"{}\" cpuScore=\"{}\" solved=\"{}\" solvedSat=\"{}\" solvedUnsat=\"{}\" unsolved=\"{}\" \
abstained=\"{}\" timeout=\"{}\" memout=\"{}\" />",
                    rank_label(p, i),
                    esc(&st.solver),
                    if st.competitive { "yes" } else { "no" },
                    st.e,
                    st.n,
                    r6(st.w),
                    r6(st.c),
                    st.solved,
                    st.solved_sat,
                    st.solved_unsat,
                    st.unsolved,
                    st.abstained,
                    st.timeout,
                    st.memout
                );
            }
            x.push_str("    </kind>\n");
        }
        x.push_str("  </group>\n");
    }
    for d in &s.disagreements {
        let _ = writeln!(
            x,
            "  <disagreement division=\"{}\" file=\"{}\" sat=\"{}\" unsat=\"{}\" />",
            esc(&d.division),
            esc(&d.file),
            esc(&d.sat.join(", ")),
            esc(&d.unsat.join(", "))
        );
    }
    x.push_str("</scores>\n");
    x
}
