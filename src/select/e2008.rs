//! The 2008 benchmark selection algorithm (2008 rules section 4), one division at
//! a time. `smtcomp select --edition 2008` builds the candidates from the
//! inventory and previous runs ([`super::e2008_inventory`]).
//!
//! 1. every eligible *check* benchmark is included;
//! 2. per family, non-check benchmarks form a pool: all if ≤ 200, else 200 split
//!    equally over the four subdivisions (sat/unsat × difficulty 0-2 / 3-5), with
//!    shortfalls reallocated and left-over slots given to *distinct* random
//!    subdivisions ([`allocate`]);
//! 3. 200 division slots: 170 industrial, 20 crafted, 10 random; missing crafted /
//!    random slots go to industrial, missing industrial slots to crafted
//!    ([`category_slots`]);
//! 4. each category's slots split over the subdivisions the same way ([`allocate`]);
//! 5. benchmarks are drawn at random from the pool into the slots.
//!
//! Unknown-status benchmarks are ineligible. Randomness: glibc `random()`
//! ([`GlibcRandom`]); every iteration is in a fixed (sorted) order, so the result
//! is a function of the seed and the candidates.

use crate::model::Status;
use crate::util::rng::GlibcRandom;
use std::collections::BTreeMap;

/// Division slots (rules step 3).
pub const DIVISION_SLOTS: usize = 200;
/// Family pool size (rules step 2).
pub const FAMILY_POOL: usize = 200;

pub use crate::benchmarks::Category;

/// One selectable benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Unique identifier (library path); also the deterministic sort key.
    pub id: String,
    /// Family.
    pub family: String,
    /// Category.
    pub category: Category,
    /// Expected status (only sat/unsat are eligible).
    pub status: Status,
    /// Difficulty 0..=5 (see [`difficulty`]).
    pub difficulty: u8,
}

/// Difficulty = 5 (1 − solved/total), rounded to the nearest integer (the rules
/// say "an integer between 0 and 5" without a rounding rule; halves round up).
/// `None` when no solver was tried.
pub fn difficulty(solved: u32, total: u32) -> Option<u8> {
    if total == 0 {
        return None;
    }
    let s = solved.min(total) as f64 / total as f64;
    Some((5.0 * (1.0 - s)).round() as u8)
}

/// Subdivision index: 0 sat 0-2, 1 sat 3-5, 2 unsat 0-2, 3 unsat 3-5.
pub fn subdivision(c: &Candidate) -> Option<usize> {
    let hard = usize::from(c.difficulty >= 3);
    match c.status {
        Status::Sat => Some(hard),
        Status::Unsat => Some(2 + hard),
        _ => None,
    }
}

/// Splits `slots` over subdivisions with `available` benchmarks each: equal shares,
/// each capped by what is available, shortfalls reallocated equally to the others,
/// and slots that cannot be split equally given to distinct random subdivisions.
/// Never allocates more than available; allocates min(slots, Σ available).
pub fn allocate(available: [usize; 4], slots: usize, rng: &mut GlibcRandom) -> [usize; 4] {
    let mut alloc = [0usize; 4];
    let mut remaining = slots.min(available.iter().sum());
    while remaining > 0 {
        let open: Vec<usize> = (0..4).filter(|&i| alloc[i] < available[i]).collect();
        if open.is_empty() {
            break;
        }
        let share = remaining / open.len();
        if share == 0 {
            for k in rng.sample_indices(open.len(), remaining) {
                alloc[open[k]] += 1;
            }
            break;
        }
        for &i in &open {
            let give = share.min(available[i] - alloc[i]);
            alloc[i] += give;
            remaining -= give;
        }
    }
    alloc
}

/// Step 3: (industrial, crafted, random) slots given the pool's counts.
pub fn category_slots(industrial: usize, crafted: usize, random: usize) -> (usize, usize, usize) {
    let r = random.min(10);
    let mut c = crafted.min(20);
    let i = industrial.min(DIVISION_SLOTS - r - c);
    c = crafted.min(DIVISION_SLOTS - r - i);
    (i, c, r)
}

/// Draws `k` of `items` (sorted by id first) at random.
fn draw<'a>(mut items: Vec<&'a Candidate>, k: usize, rng: &mut GlibcRandom) -> Vec<&'a Candidate> {
    items.sort_by(|a, b| a.id.cmp(&b.id));
    let n = items.len();
    rng.sample_indices(n, k)
        .into_iter()
        .map(|i| items[i])
        .collect()
}

/// Splits candidates by subdivision.
fn by_sub<'a>(items: &[&'a Candidate]) -> [Vec<&'a Candidate>; 4] {
    let mut subs: [Vec<&Candidate>; 4] = Default::default();
    for &c in items {
        if let Some(s) = subdivision(c) {
            subs[s].push(c);
        }
    }
    subs
}

/// Selects the benchmarks of one division; returns their ids, sorted.
pub fn select_division(candidates: &[Candidate], rng: &mut GlibcRandom) -> Vec<String> {
    let eligible: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| subdivision(c).is_some())
        .collect();
    let mut out: Vec<String> = eligible
        .iter()
        .filter(|c| c.category == Category::Check)
        .map(|c| c.id.clone())
        .collect();
    // Step 2: family pools.
    let mut families: BTreeMap<&str, Vec<&Candidate>> = BTreeMap::new();
    for &c in eligible.iter().filter(|c| c.category != Category::Check) {
        families.entry(c.family.as_str()).or_default().push(c);
    }
    let mut pool: Vec<&Candidate> = Vec::new();
    for (_, members) in families {
        if members.len() <= FAMILY_POOL {
            pool.extend(members);
            continue;
        }
        let subs = by_sub(&members);
        let alloc = allocate(subs.each_ref().map(Vec::len), FAMILY_POOL, rng);
        for (s, items) in subs.into_iter().enumerate() {
            pool.extend(draw(items, alloc[s], rng));
        }
    }
    // Steps 3-5.
    let of = |cat: Category| -> Vec<&Candidate> {
        pool.iter().copied().filter(|c| c.category == cat).collect()
    };
    let (ind, cra, ran) = (
        of(Category::Industrial),
        of(Category::Crafted),
        of(Category::Random),
    );
    let (si, sc, sr) = category_slots(ind.len(), cra.len(), ran.len());
    for (items, slots) in [(ind, si), (cra, sc), (ran, sr)] {
        let subs = by_sub(&items);
        let alloc = allocate(subs.each_ref().map(Vec::len), slots, rng);
        for (s, items) in subs.into_iter().enumerate() {
            out.extend(draw(items, alloc[s], rng).into_iter().map(|c| c.id.clone()));
        }
    }
    out.sort();
    out
}
