//! The competition seed (rules section 6, "Pseudo-random numbers").
//!
//! seed = (sum of the competitive entrants' seeds mod 2^30) + NYSE value, where the
//! NYSE value is floor(100 x the NYSE Composite opening value on the announced day).
//! As in the reference tool, the NYSE value is added without a further modulo; the
//! result always fits the `unsigned int` that C `srandom()` takes.

use serde::Serialize;

/// 2^30, the modulus of the entrants' seed sum.
pub const SEED_MODULUS: i128 = 1 << 30;

/// One submission's part in the seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeedContribution {
    /// Solver name.
    pub solver: String,
    /// The file it came from.
    pub file: String,
    /// Its declared seed (`None`: not given).
    pub seed: Option<i128>,
    /// Whether it counts (only competitive entrants' seeds do).
    pub counted: bool,
}

/// The computed seed with everything that went into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeedReport {
    /// Every submission, counted or not, sorted by solver name.
    pub contributions: Vec<SeedContribution>,
    /// Sum of counted seeds modulo 2^30 (non-negative).
    pub sum_mod_2_30: u64,
    /// The NYSE value added, if known.
    pub nyse_value: Option<u64>,
    /// The seed to pass to `srandom()`.
    pub seed: u64,
}

/// Why no seed could be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// Counted submissions without a seed (the reference tool refuses too).
    #[error(
        "submission(s) counted for the seed without a seed: {0}; add a \"seed\" to each, or pass --missing-seed-as-zero"
    )]
    MissingSeeds(String),
}

/// Computes the seed from `(file, solver, seed, counted)` tuples: `counted`
/// says whether the submission's seed is part of the sum (the competitive
/// submissions by default, every entrant but the organizers' with
/// `seed --all-entrants`).
pub fn competition_seed(
    submissions: &[(String, String, Option<i128>, bool)],
    nyse_value: Option<u64>,
    missing_as_zero: bool,
) -> Result<SeedReport, SeedError> {
    let mut contributions: Vec<SeedContribution> = submissions
        .iter()
        .map(|(file, solver, seed, competitive)| SeedContribution {
            solver: solver.clone(),
            file: file.clone(),
            seed: *seed,
            counted: *competitive,
        })
        .collect();
    contributions.sort_by(|a, b| a.solver.cmp(&b.solver).then(a.file.cmp(&b.file)));
    let missing: Vec<&str> = contributions
        .iter()
        .filter(|c| c.counted && c.seed.is_none())
        .map(|c| c.solver.as_str())
        .collect();
    if !missing.is_empty() && !missing_as_zero {
        return Err(SeedError::MissingSeeds(missing.join(", ")));
    }
    let sum: i128 = contributions
        .iter()
        .filter(|c| c.counted)
        .map(|c| c.seed.unwrap_or(0).rem_euclid(SEED_MODULUS))
        .sum();
    let sum_mod = sum.rem_euclid(SEED_MODULUS) as u64;
    Ok(SeedReport {
        contributions,
        sum_mod_2_30: sum_mod,
        nyse_value,
        seed: sum_mod + nyse_value.unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(
        name: &str,
        seed: Option<i128>,
        competitive: bool,
    ) -> (String, String, Option<i128>, bool) {
        (format!("{name}.json"), name.to_string(), seed, competitive)
    }

    #[test]
    fn sums_competitive_seeds_mod_2_30_then_adds_nyse() {
        let r = competition_seed(
            &[
                s("a", Some((1 << 30) + 5), true),
                s("b", Some(7), true),
                s("c", Some(1000), false),
            ],
            Some(100),
            false,
        )
        .unwrap();
        assert_eq!(r.sum_mod_2_30, 12);
        assert_eq!(r.seed, 112);
    }

    #[test]
    fn negative_seeds_wrap_like_python() {
        let r = competition_seed(&[s("a", Some(-1), true)], None, false).unwrap();
        assert_eq!(r.sum_mod_2_30, (1 << 30) - 1);
    }

    #[test]
    fn missing_competitive_seed_is_an_error_unless_allowed() {
        let subs = [s("a", None, true), s("b", None, false)];
        let err = competition_seed(&subs, None, false).unwrap_err();
        assert!(err.to_string().contains("without a seed: a;"));
        assert_eq!(competition_seed(&subs, Some(3), true).unwrap().seed, 3);
    }
}
