//! "Did you mean ...?" hints for misspelled names.

/// The candidate closest to `given` if it is a plausible misspelling: equal
/// ignoring case and separators, or within a small edit distance.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace(['_', '+', '-', ' '], "");
    let g = norm(given);
    let limit = (g.chars().count() / 4).clamp(1, 2);
    candidates
        .into_iter()
        .map(|c| (distance(&g, &norm(c)), c))
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
}
