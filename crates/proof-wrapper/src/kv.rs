//! The `key=value` line syntax of the Proof Exhibition Track.
//!
//! A line is a key=value pair when it matches `^[-A-Za-z0-9_]+=[-A-Za-z0-9_.]*$`,
//! exactly the pattern of the old post-processor `proof-track/process`: values with
//! `/`, `:` or spaces are not pairs, an empty value is.

/// True if `c` may appear in a key (`[-A-Za-z0-9_]`).
pub fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// True if `c` may appear in a value (`[-A-Za-z0-9_.]`).
pub fn is_value_char(c: char) -> bool {
    is_key_char(c) || c == '.'
}

/// Splits `line` into `(key, value)` if the whole line is a well-formed pair.
pub fn parse_pair(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('=')?;
    if key.is_empty() || !key.chars().all(is_key_char) || !value.chars().all(is_value_char) {
        return None;
    }
    Some((key, value))
}

/// Replaces every character that may not appear in a value by `_`, so that
/// whatever the wrapper emits is always a well-formed pair.
pub fn sanitize_value(value: &str) -> String {
    value
        .chars()
        .map(|c| if is_value_char(c) { c } else { '_' })
        .collect()
}

/// An ordered list of `key=value` pairs. Duplicate keys are kept in order;
/// [`KeyValues::get`] returns the **last** occurrence, so the wrapper's own
/// trailing lines win over a checker that prints the same key earlier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeyValues {
    pairs: Vec<(String, String)>,
}

impl KeyValues {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a pair (no validation; use [`parse_pair`] first for untrusted text).
    pub fn push(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.pairs.push((key.into(), value.into()));
    }

    /// The value of the last pair named `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key` as an unsigned integer (`None` if absent, empty or not a number).
    pub fn get_u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.parse().ok()
    }

    /// The value of `key` as a float (`None` if absent, empty or not a number).
    pub fn get_f64(&self, key: &str) -> Option<f64> {
        self.get(key)?.parse().ok().filter(|v: &f64| v.is_finite())
    }

    /// The value of a `0|1` flag: `Some(true)` for `1`, `Some(false)` for `0`.
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)? {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }

    /// All pairs in the order they appeared.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Number of pairs (duplicates included).
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// True if there is no pair.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_follow_the_post_processor_pattern() {
        assert_eq!(parse_pair("steps=12"), Some(("steps", "12")));
        assert_eq!(parse_pair("compressedsize="), Some(("compressedsize", "")));
        assert_eq!(parse_pair("a-b_C9=1.5e-3"), Some(("a-b_C9", "1.5e-3")));
        assert_eq!(parse_pair("=1"), None);
        assert_eq!(parse_pair("path=/tmp/x"), None);
        assert_eq!(parse_pair("t=1:2"), None);
        assert_eq!(parse_pair("k=a b"), None);
        assert_eq!(parse_pair("k v=1"), None);
        assert_eq!(parse_pair("k=1=2"), None);
        assert_eq!(parse_pair("valid"), None);
    }

    #[test]
    fn last_occurrence_wins_and_typed_getters() {
        let mut kv = KeyValues::new();
        kv.push("proofsize", "1");
        kv.push("x", "abc");
        kv.push("proofsize", "42");
        kv.push("flag", "1");
        kv.push("nan", "NaN");
        assert_eq!(kv.get("proofsize"), Some("42"));
        assert_eq!(kv.get_u64("proofsize"), Some(42));
        assert_eq!(kv.get_u64("x"), None);
        assert_eq!(kv.get_f64("nan"), None);
        assert_eq!(kv.flag("flag"), Some(true));
        assert_eq!(kv.flag("x"), None);
        assert_eq!(kv.len(), 5);
    }

    #[test]
    fn sanitize_makes_values_well_formed() {
        assert_eq!(sanitize_value("a b/c:1.5"), "a_b_c_1.5");
        assert!(parse_pair(&format!("k={}", sanitize_value("é\n="))).is_some());
    }
}
