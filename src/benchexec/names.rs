//! Names derived from solver and division names: sanitized for file names,
//! BenchExec rundefinitions and shell scripts, and checked for collisions.

use std::collections::BTreeMap;

pub use crate::util::escape::sanitize;

/// Sanitized names for a set of solver names, keyed by the original name.
/// Two names whose sanitized forms are equal ignoring ASCII case (which would
/// collide on case-insensitive file systems) are an error naming both.
pub fn solver_slugs<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<BTreeMap<String, String>, super::BenchexecError> {
    let mut by_folded: BTreeMap<String, String> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for name in names {
        let slug = sanitize(name);
        if let Some(other) = by_folded.insert(slug.to_ascii_lowercase(), name.to_string()) {
            if other != name {
                return Err(super::BenchexecError::SlugCollision {
                    first: other,
                    second: name.to_string(),
                    slug,
                });
            }
        }
        out.insert(name.to_string(), slug);
    }
    Ok(out)
}

/// Python module identifiers for the solvers (keyed by original name): the slug
/// with every character outside `[A-Za-z0-9_]` as `_`, made unique (ignoring
/// ASCII case, for case-insensitive file systems) by a `_2`, `_3`... suffix in
/// the order of the original names.
pub fn module_idents(slugs: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut taken = std::collections::BTreeSet::new();
    let mut out = BTreeMap::new();
    for (name, slug) in slugs {
        let base: String = slug
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let mut ident = base.clone();
        let mut n = 2;
        while !taken.insert(ident.to_ascii_lowercase()) {
            ident = format!("{base}_{n}");
            n += 1;
        }
        out.insert(name.clone(), ident);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_real_and_hostile_names() {
        assert_eq!(sanitize("SMTS (32 cores)"), "SMTS_32_cores");
        assert_eq!(
            sanitize("UltimateEliminator+MathSAT"),
            "UltimateEliminator+MathSAT"
        );
        assert_eq!(sanitize("iProver v3.9.3"), "iProver_v3.9.3");
        assert_eq!(sanitize("a<&\"' /b"), "a_b");
        assert_eq!(sanitize("../.."), "solver");
        assert_eq!(sanitize(".hidden"), "hidden");
        assert_eq!(sanitize("ünï"), "n");
    }

    #[test]
    fn collisions_are_errors_naming_both() {
        let err = solver_slugs(["a b", "a/b"]).unwrap_err();
        assert!(
            matches!(&err, super::super::BenchexecError::SlugCollision { first, second, slug }
                if first == "a b" && second == "a/b" && slug == "a_b"),
            "{err}"
        );
        let text = err.to_string();
        assert!(text.contains("'a b'") && text.contains("'a/b'"), "{text}");
        assert!(solver_slugs(["Z3", "z3"]).is_err());
        let ok = solver_slugs(["z3", "cvc5"]).unwrap();
        assert_eq!(ok["z3"], "z3");
    }

    #[test]
    fn module_identifiers_are_python_names_and_unique() {
        let slugs = solver_slugs(["a-b", "a_b", "A.b", "z3++"]).unwrap();
        let ids = module_idents(&slugs);
        assert_eq!(ids["A.b"], "A_b");
        assert_eq!(ids["a-b"], "a_b_2");
        assert_eq!(ids["a_b"], "a_b_3");
        assert_eq!(ids["z3++"], "z3__");
    }
}
