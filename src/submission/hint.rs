//! "Did you mean ...?" hints for misspelled names.

/// Names longer than this (in bytes) get no hint: no logic, track or field
/// name is near that long, and the edit distance costs length x length.
pub const MAX_HINT_LEN: usize = 64;

/// The candidate closest to `given` if it is a plausible misspelling: equal
/// ignoring case and separators, or within a small edit distance. Bounded:
/// `None` at once for names over [`MAX_HINT_LEN`] bytes, and candidates whose
/// length differs by more than the allowed distance are not compared.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if given.len() > MAX_HINT_LEN {
        return None;
    }
    let norm = |s: &str| s.to_ascii_lowercase().replace(['_', '+', '-', ' '], "");
    let g = norm(given);
    let glen = g.chars().count();
    let limit = (glen / 4).clamp(1, 2);
    candidates
        .into_iter()
        .filter(|c| c.len() <= 4 * MAX_HINT_LEN)
        .map(|c| (norm(c), c))
        .filter(|(n, _)| n.chars().count().abs_diff(glen) <= limit)
        .map(|(n, c)| (distance(&g, &n), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// " (did you mean 'X'?)" or nothing.
pub fn did_you_mean<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(given, candidates)
        .map(|c| format!(" (did you mean '{c}'?)"))
        .unwrap_or_default()
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_near_misses_only() {
        let fields = ["seed", "name", "final"];
        assert_eq!(closest("seeds", fields), Some("seed"));
        assert_eq!(closest("Name", fields), Some("name"));
        assert_eq!(closest("colour", fields), None);
        assert_eq!(closest("qf_lia", ["QF_LIA", "QF_LRA"]), Some("QF_LIA"));
        assert_eq!(closest("QF_BVV", ["QF_BV", "QF_ABV"]), Some("QF_BV"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    /// Regression (issue 18): a 2 MB unknown logic name took 43 s here. Now
    /// names over 64 bytes get no hint, and neither do candidates whose length
    /// rules them out (both checks before any distance is computed).
    #[test]
    fn huge_names_get_no_hint() {
        let huge = "Q".repeat(2 << 20);
        assert_eq!(closest(&huge, ["QF_BV", "QF_LIA"]), None);
        let long = "QF_".repeat(22); // 66 bytes
        assert_eq!(closest(&long, [long.as_str()]), None);
        assert_eq!(closest("QF_BV", [huge.as_str(), "QF_BVV"]), Some("QF_BVV"));
    }
}
