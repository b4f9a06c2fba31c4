//! The 2008 selection algorithm (2008 rules section 4), hand-computed cases.

use smtcomp::model::Status;
use smtcomp::select::e2008::{
    Candidate, Category, allocate, category_slots, difficulty, select_division,
};
use smtcomp::util::rng::GlibcRandom;

/// difficulty = 5 (1 − solved/total): 0/4 → 5, 4/4 → 0, 1/4 → 3.75 → 4,
/// 2/4 → 2.5 → 3 (halves up), 1/3 → 3.33 → 3; no solver → none.
#[test]
fn difficulty_formula() {
    assert_eq!(difficulty(0, 4), Some(5));
    assert_eq!(difficulty(4, 4), Some(0));
    assert_eq!(difficulty(1, 4), Some(4));
    assert_eq!(difficulty(2, 4), Some(3));
    assert_eq!(difficulty(1, 3), Some(3));
    assert_eq!(difficulty(0, 0), None);
}

/// Step 2/4 allocation. 200 slots, all plenty: 50 each. Available [1, 100, 100,
/// 100]: round 1 gives 50 each but the first only has 1 → [1, 50, 50, 50], 49
/// left; round 2 ⌊49/3⌋ = 16 each → [1, 66, 66, 66], 1 left; it goes to one
/// random open subdivision → one 67. Rules step 4 with n = 170: ⌊170/4⌋ = 42
/// each, 2 remaining to two *distinct* random subdivisions → two 43s.
#[test]
fn allocation_with_reallocation() {
    let mut rng = GlibcRandom::new(7);
    assert_eq!(allocate([80, 80, 80, 80], 200, &mut rng), [50; 4]);
    let a = allocate([1, 100, 100, 100], 200, &mut rng);
    assert_eq!(a[0], 1);
    assert_eq!(a.iter().sum::<usize>(), 200);
    let mut rest = a[1..].to_vec();
    rest.sort();
    assert_eq!(rest, [66, 66, 67]);
    let b = allocate([100; 4], 170, &mut rng);
    let mut b = b.to_vec();
    b.sort();
    assert_eq!(b, [42, 42, 43, 43]);
    assert_eq!(allocate([3, 0, 2, 0], 200, &mut rng), [3, 0, 2, 0]);
}

/// Step 3: random 5 (< 10), crafted 150 → 20, industrial min(175, 100) = 100,
/// then industrial is short so crafted = min(150, 200 − 5 − 100) = 95.
/// Plenty of everything: 170 / 20 / 10.
#[test]
fn category_slot_allocation() {
    assert_eq!(category_slots(100, 150, 5), (100, 95, 5));
    assert_eq!(category_slots(1000, 1000, 1000), (170, 20, 10));
    assert_eq!(category_slots(1000, 3, 0), (197, 3, 0));
}

fn cand(id: usize, family: &str, cat: Category, st: Status, d: u8) -> Candidate {
    Candidate {
        id: format!("{family}/b{id:04}"),
        family: family.into(),
        category: cat,
        status: st,
        difficulty: d,
    }
}

/// A division: family F with 400 industrial benchmarks, 100 in each subdivision;
/// 3 check benchmarks; 2 unknown-status ones (ineligible). Step 2 cuts F to 50
/// per subdivision (200); step 3 gives industrial all 200 slots (no crafted or
/// random); step 4 gives 50 per subdivision: 200 + 3 checks = 203 benchmarks,
/// the same for the same seed.
#[test]
fn whole_division() {
    let mut cs = Vec::new();
    let mut id = 0;
    for (st, d) in [
        (Status::Sat, 0),
        (Status::Sat, 4),
        (Status::Unsat, 2),
        (Status::Unsat, 5),
    ] {
        for _ in 0..100 {
            cs.push(cand(id, "F", Category::Industrial, st, d));
            id += 1;
        }
    }
    for _ in 0..3 {
        cs.push(cand(id, "C", Category::Check, Status::Sat, 0));
        id += 1;
    }
    for _ in 0..2 {
        cs.push(cand(id, "U", Category::Industrial, Status::Unknown, 0));
        id += 1;
    }
    let a = select_division(&cs, &mut GlibcRandom::new(42));
    assert_eq!(a.len(), 203);
    assert_eq!(a.iter().filter(|x| x.starts_with("C/")).count(), 3);
    assert!(!a.iter().any(|x| x.starts_with("U/")));
    for q in 0..4 {
        let n = a
            .iter()
            .filter(|x| x.starts_with("F/"))
            .filter(|x| x[3..].parse::<usize>().unwrap() / 100 == q)
            .count();
        assert_eq!(n, 50, "subdivision {q}");
    }
    assert_eq!(a, select_division(&cs, &mut GlibcRandom::new(42)));
    assert_ne!(a, select_division(&cs, &mut GlibcRandom::new(43)));
}
