//! The competition identity of a run table: its first line,
//! `{"run_table":{"competition":NAME,"year":YEAR,"limits":{TRACK:{...}}}}`,
//! so that a table made under one definition is never scored, reported or
//! validated under another (the limits decide timeouts and scores).
//!
//! Tables written before the identity was recorded have no such line: they
//! are read as made under the definition in use, with a warning
//! ([`check_table`]).

use crate::model::{Competition, Limits, Track};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The competition a run table was made under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableIdentity {
    /// The competition's display name (`SMT-COMP 2025`).
    pub competition: String,
    /// The competition year.
    pub year: u16,
    /// Every track's competition limits.
    pub limits: BTreeMap<Track, Limits>,
}

/// The header line as stored.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    run_table: TableIdentity,
}

impl TableIdentity {
    /// The identity of `comp`.
    pub fn of(comp: &Competition) -> TableIdentity {
        TableIdentity {
            competition: comp.name.clone(),
            year: comp.year,
            limits: comp.tracks.iter().map(|(t, d)| (*t, d.limits)).collect(),
        }
    }

    /// The header line (JSON, without the newline).
    pub fn header_line(&self) -> Vec<u8> {
        serde_json::to_vec(&HeaderLine {
            run_table: self.clone(),
        })
        .expect("a table identity serializes")
    }

    /// The identity if `line` is a header line (never a run record: the
    /// header has one key, `run_table`, that no record has).
    pub fn parse_header(line: &[u8]) -> Option<TableIdentity> {
        serde_json::from_slice::<HeaderLine>(line.trim_ascii())
            .ok()
            .map(|h| h.run_table)
    }

    /// How two identities differ, in words (`year 2026` / `year 2025`, or
    /// the first track whose limits differ).
    fn difference(&self, other: &TableIdentity) -> String {
        if self.competition != other.competition || self.year != other.year {
            return format!(
                "`{}` (year {}) vs `{}` (year {})",
                self.competition, self.year, other.competition, other.year
            );
        }
        let tracks: std::collections::BTreeSet<&Track> =
            self.limits.keys().chain(other.limits.keys()).collect();
        for t in tracks {
            let (a, b) = (self.limits.get(t), other.limits.get(t));
            if a != b {
                let show = |l: Option<&Limits>| match l {
                    Some(l) => l.to_string(),
                    None => "no such track".to_string(),
                };
                return format!(
                    "`{}` with {t} limits {} vs {}",
                    self.competition,
                    show(a),
                    show(b)
                );
            }
        }
        format!("`{}` (year {})", self.competition, self.year)
    }
}

/// A run table made under another competition definition than the one in use.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "{}: run table made under a different competition definition than the one in use ({origin}): table {difference}; give the definition it was made under with --competition FILE or --year YEAR",
    path.display()
)]
pub struct ForeignTable {
    /// The table.
    pub path: std::path::PathBuf,
    /// Where the definition in use comes from.
    pub origin: String,
    /// How the table's identity differs from it.
    pub difference: String,
}

/// Checks that the run table at `path`, with header `table`, was made under
/// `comp`. A different identity is an error naming both; no identity (a table
/// written before identities were recorded) is accepted with the warning
/// returned.
pub fn check_table(
    path: &Path,
    table: Option<&TableIdentity>,
    comp: &Competition,
) -> Result<Option<String>, ForeignTable> {
    let here = TableIdentity::of(comp);
    match table {
        Some(t) if *t == here => Ok(None),
        Some(t) => Err(ForeignTable {
            path: path.to_path_buf(),
            origin: comp.origin.to_string(),
            difference: t.difference(&here).to_string(),
        }),
        None => Ok(Some(format!(
            "warning: {}: run table without competition identity (written by an older smtcomp); read as made under `{}` ({})",
            path.display(),
            comp.name,
            comp.origin
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_is_never_a_record() {
        let comp = Competition::builtin(2025).unwrap();
        let id = TableIdentity::of(&comp);
        let line = id.header_line();
        assert_eq!(TableIdentity::parse_header(&line), Some(id.clone()));
        let rec =
            serde_json::to_vec(&crate::formats::runtable::IngestRecord::new("s", "t")).unwrap();
        assert_eq!(TableIdentity::parse_header(&rec), None);
        assert!(serde_json::from_slice::<crate::formats::runtable::IngestRecord>(&line).is_err());
        assert!(
            check_table(Path::new("t"), Some(&id), &comp)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn other_limits_are_refused_naming_both() {
        let comp = Competition::builtin(2025).unwrap();
        let mut id = TableIdentity::of(&comp);
        let sq = id.limits.get_mut(&Track::SingleQuery).unwrap();
        sq.time_s = 600;
        let e = check_table(Path::new("r.jsonl"), Some(&id), &comp)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("r.jsonl: run table made under a different competition definition than the one in use (built-in 2025): table `SMT-COMP 2025` with SingleQuery limits 600 s"), "{e}");
        assert!(e.contains(" vs 1200 s"), "{e}");
    }
}
