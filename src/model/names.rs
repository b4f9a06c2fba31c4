//! Logic and division names.
//!
//! Logics and divisions are data: each edition defines its own set (2015 had a
//! division per logic, 2025 groups logics). They are typed newtypes around their
//! stable string name, ordered by that name, so maps keyed by them are
//! deterministic. Which names exist is decided by a [`Competition`](super::Competition).

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! name_type {
    ($(#[$doc:meta])* $ty:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $ty(String);

        impl $ty {
            /// Wraps a name. Whether it exists in an edition is checked by the competition.
            pub fn new(name: impl Into<String>) -> Self {
                Self(name.into())
            }

            /// The stable string name.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $ty {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $ty {
            fn borrow(&self) -> &str {
                &self.0
            }
        }
    };
}

name_type!(
    /// An SMT-LIB logic such as `QF_BV`.
    Logic
);
name_type!(
    /// A competition division such as `QF_Equality+LinearArith` (the JSON value form).
    Division
);

impl Division {
    /// The identifier form used in web page file names (`+` replaced by `_`).
    pub fn identifier(&self) -> String {
        self.0.replace('+', "_")
    }
}

/// Whether `s` is a plausible logic or division name: non-empty, ASCII letters,
/// digits, `_`, `+` and `-`, starting with a letter; `-` only inside the name and
/// never twice in a row (the 2008 divisions `AUFLIA+p` / `AUFLIA-p`).
pub fn is_valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '+' || c == '-')
        && !s.ends_with('-')
        && !s.contains("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_identifier_replaces_plus() {
        let d = Division::new("QF_Equality+Bitvec+Arith");
        assert_eq!(d.identifier(), "QF_Equality_Bitvec_Arith");
    }

    #[test]
    fn name_validity() {
        assert!(is_valid_name("QF_BV"));
        assert!(is_valid_name("Equality+LinearArith"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("_X"));
        assert!(!is_valid_name("QF BV"));
        assert!(is_valid_name("AUFLIA-p"));
        assert!(is_valid_name("AUFLIA+p"));
        assert!(!is_valid_name("-X"));
        assert!(!is_valid_name("X-"));
        assert!(!is_valid_name("A--B"));
    }
}
