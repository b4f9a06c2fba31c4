//! Rules editions: which year's selection and scoring semantics apply.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A rules edition. Later stages dispatch on it for selection and scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum RulesEdition {
    /// SMT-COMP 2008 (SMT-EXEC era).
    #[serde(rename = "2008")]
    Rules2008,
    /// SMT-COMP 2015 (main and application tracks).
    #[serde(rename = "2015")]
    Rules2015,
    /// SMT-COMP 2023 (StarExec era, Cloud/Parallel/Proof Exhibition).
    #[serde(rename = "2023")]
    Rules2023,
    /// SMT-COMP 2025 (BenchExec era), the default.
    #[serde(rename = "2025")]
    Rules2025,
}

impl RulesEdition {
    /// The edition's stable name (its year).
    pub fn name(self) -> &'static str {
        match self {
            RulesEdition::Rules2008 => "2008",
            RulesEdition::Rules2015 => "2015",
            RulesEdition::Rules2023 => "2023",
            RulesEdition::Rules2025 => "2025",
        }
    }
}

impl std::str::FromStr for RulesEdition {
    type Err = String;

    /// Parses `2008`, `2015`, `2023` or `2025`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "2008" => Ok(RulesEdition::Rules2008),
            "2015" => Ok(RulesEdition::Rules2015),
            "2023" => Ok(RulesEdition::Rules2023),
            "2025" => Ok(RulesEdition::Rules2025),
            other => Err(format!(
                "unknown rules edition '{other}' (known: 2008, 2015, 2023, 2025)"
            )),
        }
    }
}

impl fmt::Display for RulesEdition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
