//! What a submission enters (track -> division -> logics) in a given competition,
//! and the rule checks that need the competition to decide.

use super::hint::did_you_mean;
use super::types::{LogicSelector, SolverType, Submission};
use crate::diag::Problems;
use crate::model::{Competition, Division, Logic, Track};
use std::collections::{BTreeMap, BTreeSet};

/// Track -> division -> logics entered, sorted.
pub type Entries = BTreeMap<Track, BTreeMap<Division, BTreeSet<Logic>>>;

/// The host every archive of a final submission must be on (rules section 4).
pub const FINAL_ARCHIVE_HOST: &str = "zenodo.org";

/// Resolves what `sub` enters in `comp`, recording problems (unknown tracks,
/// divisions and logics, invalid track/division pairs, patterns matching nothing).
///
/// Semantics follow the reference tool: a listed division adds all its logics in
/// each listed track; a listed (or matched) logic is added to whichever division
/// contains it in each track, and ignored in tracks that do not have it.
pub fn entries(sub: &Submission, comp: &Competition, problems: &mut Problems) -> Entries {
    let mut out = Entries::new();
    let known: Vec<&Logic> = comp.all_logics().into_iter().collect();
    for (i, p) in sub.participations.iter().enumerate() {
        let path = format!("$.participations[{i}]");
        let defs: Vec<_> = p
            .tracks
            .iter()
            .enumerate()
            .filter_map(|(j, t)| match comp.track(*t) {
                Some(def) => {
                    if !def.held {
                        problems.warning(
                            &format!("{path}.tracks[{j}]"),
                            format!("track {t} is not held in {}; this entry will not run", comp.name),
                        );
                    }
                    Some(def)
                }
                None => {
                    if *t == Track::UnsatCoreValidation {
                        problems.warning(
                            &format!("{path}.tracks[{j}]"),
                            "UnsatCoreValidation is an internal track; the organizers choose validation solvers",
                        );
                    } else {
                        problems.error(
                            &format!("{path}.tracks[{j}]"),
                            format!("track {t} is not part of {} (tracks: {})", comp.name, track_list(comp)),
                        );
                    }
                    None
                }
            })
            .collect();

        let logics: Vec<&Logic> = match &p.logics {
            LogicSelector::List(list) => {
                let mut found = Vec::new();
                let mut ignored = Vec::new();
                for (j, l) in list.iter().enumerate() {
                    if !comp.knows_logic(l.as_str()) {
                        problems.error(
                            &format!("{path}.logics[{j}]"),
                            format!(
                                "unknown logic '{l}'{}",
                                did_you_mean(l.as_str(), known.iter().map(|k| k.as_str()))
                            ),
                        );
                    } else if !defs.is_empty()
                        && defs.iter().all(|d| d.division_of(l.as_str()).is_none())
                    {
                        ignored.push(l.as_str());
                    } else {
                        found.push(l);
                    }
                }
                if !ignored.is_empty() {
                    problems.warning(
                        &format!("{path}.logics"),
                        format!(
                            "not part of track(s) {}, ignored there: {}",
                            names(&defs),
                            ignored.join(", ")
                        ),
                    );
                }
                found
            }
            LogicSelector::Pattern(pattern) => {
                let lpath = format!("{path}.logics");
                match compile_fullmatch(pattern) {
                    Err(e) => {
                        problems.error(
                            &lpath,
                            format!("invalid regular expression '{pattern}': {e}"),
                        );
                        Vec::new()
                    }
                    Ok(re) => {
                        let matched: Vec<&Logic> = known
                            .iter()
                            .copied()
                            .filter(|l| re.is_match(l.as_str()).unwrap_or(false))
                            .collect();
                        let in_tracks = matched
                            .iter()
                            .any(|l| defs.iter().any(|d| d.division_of(l.as_str()).is_some()));
                        if !defs.is_empty() && !in_tracks {
                            problems.error(
                                &lpath,
                                format!(
                                    "the pattern '{pattern}' matches no logic of track(s) {}; it must match whole logic names such as QF_BV",
                                    names(&defs)
                                ),
                            );
                        }
                        matched
                    }
                }
            }
        };
        if p.divisions.is_empty() && matches!(&p.logics, LogicSelector::List(l) if l.is_empty()) {
            problems.error(
                &path,
                "enters nothing: give 'logics' (a list or a pattern) or 'divisions'",
            );
        }
        for (j, d) in p.divisions.iter().enumerate() {
            let dpath = format!("{path}.divisions[{j}]");
            if !comp.knows_division(d.as_str()) {
                let all: BTreeSet<&Division> = comp
                    .tracks
                    .values()
                    .flat_map(|t| t.divisions.keys())
                    .collect();
                let hint = did_you_mean(d.as_str(), all.iter().map(|k| k.as_str()));
                problems.error(&dpath, format!("unknown division '{d}'{hint}"));
                continue;
            }
            for def in &defs {
                if def.logics_of(d.as_str()).is_none() {
                    problems.error(
                        &dpath,
                        format!(
                            "invalid track/division pair: track {} has no division {d}",
                            def.track
                        ),
                    );
                }
            }
        }
        for def in &defs {
            let track_entries = out.entry(def.track).or_default();
            for d in &p.divisions {
                if let Some(ls) = def.logics_of(d.as_str()) {
                    track_entries
                        .entry(d.clone())
                        .or_default()
                        .extend(ls.iter().cloned());
                }
            }
            for l in &logics {
                if let Some(d) = def.division_of(l.as_str()) {
                    track_entries
                        .entry(d.clone())
                        .or_default()
                        .insert((*l).clone());
                }
            }
        }
    }
    out.retain(|_, divisions| !divisions.is_empty());
    out
}

/// Rule checks on one submission that need no other submission (rules section 4).
pub fn check_rules(sub: &Submission, problems: &mut Problems) {
    if sub.solver_type == SolverType::Derived && !is_derived_name(&sub.name) {
        problems.error(
            "$.name",
            format!(
                "derived solver '{}' does not follow the naming convention [name of base solver]-[solver name] (rules section 4), e.g. '<base>-{}'",
                sub.name, sub.name
            ),
        );
    }
    if sub.solver_type == SolverType::Portfolio {
        problems.warning(
            "$.solver_type",
            "portfolio solvers are in general not allowed (rules section 4); ask the organizers",
        );
    }
    if sub.is_final {
        let archives = sub
            .archive
            .iter()
            .map(|a| ("$.archive.url".to_string(), a))
            .chain(sub.participations.iter().enumerate().filter_map(|(i, p)| {
                p.archive
                    .as_ref()
                    .map(|a| (format!("$.participations[{i}].archive.url"), a))
            }));
        for (path, a) in archives {
            if a.host != FINAL_ARCHIVE_HOST {
                problems.error(
                    &path,
                    if a.host.is_empty() {
                        format!(
                            "a final submission's archive must be on {FINAL_ARCHIVE_HOST}, not a local file:// archive"
                        )
                    } else {
                        format!(
                            "a final submission's archive must be on {FINAL_ARCHIVE_HOST}, not '{}'",
                            a.host
                        )
                    },
                );
            }
        }
    }
    if sub.competitive && sub.seed.is_none() {
        problems.warning(
            "$.seed",
            "a competitive submission should give an integer seed (rules section 6: pseudo-random numbers); it counts as 0",
        );
    }
    if sub.participations.is_empty() {
        problems.warning("$.participations", "enters no track");
    }
}

/// Whether `name` has the derived-tool form `<base>-<name>` (both parts non-empty).
pub fn is_derived_name(name: &str) -> bool {
    name.split_once('-')
        .is_some_and(|(base, rest)| !base.trim().is_empty() && !rest.trim().is_empty())
}

/// Compiles a Python-style pattern that must match a whole logic name.
fn compile_fullmatch(pattern: &str) -> Result<fancy_regex::Regex, String> {
    fancy_regex::Regex::new(&format!("^(?:{pattern})$")).map_err(|e| e.to_string())
}

fn names(defs: &[&crate::model::TrackDefinition]) -> String {
    defs.iter()
        .map(|d| d.track.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn track_list(comp: &Competition) -> String {
    comp.tracks
        .keys()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_names() {
        assert!(is_derived_name("Z3-Owl"));
        assert!(is_derived_name("bv_decide-nokernel"));
        assert!(!is_derived_name("YicesQS"));
        assert!(!is_derived_name("-x"));
        assert!(!is_derived_name("x-"));
    }

    #[test]
    fn python_patterns_with_lookahead() {
        let re = compile_fullmatch("QF_.*FP(?!DT).*").unwrap();
        assert!(re.is_match("QF_BVFP").unwrap());
        assert!(!re.is_match("QF_UFFPDTNIRA").unwrap());
        assert!(
            !compile_fullmatch("QF_BV")
                .unwrap()
                .is_match("QF_BVFP")
                .unwrap()
        );
    }
}
