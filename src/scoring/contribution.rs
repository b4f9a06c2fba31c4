//! Largest contribution ranking / virtual best solver (rules 7.3.3), and the
//! reference tool's variant (`anchor_largest_contribution`, anchor spec 6.8).

use super::division::{GroupScores, Kind, TWENTYFOUR_LIMIT_S, kind_cells};
use super::input::ScoringInput;
use super::policy::Policy;
use super::soundness::DivisionTable;
use crate::model::Status;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One solver's contribution in one division.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContributionEntry {
    /// Division.
    pub division: String,
    /// Solver.
    pub solver: String,
    /// Normalised correctness rank.
    pub correct_rank: f64,
    /// Normalised CPU (sequential) or wall-clock time rank.
    pub time_rank: f64,
}

/// Largest contribution for one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContributionKind {
    /// Kind.
    pub kind: Kind,
    /// Entries, best first (correct desc, time desc, division, solver).
    pub entries: Vec<ContributionEntry>,
    /// The first entry's solver.
    pub winner: Option<String>,
}

/// (n, c, w) of one solver on one benchmark.
type Ncw = (i64, f64, f64);

fn ratio(num: f64, den: f64) -> f64 {
    if den == 0.0 { 0.0 } else { num / den }
}

/// Computes largest contribution for `kind`.
pub fn largest_contribution(
    tables: &[DivisionTable],
    groups: &[GroupScores],
    kind: Kind,
    input: &ScoringInput,
    policy: &Policy,
) -> ContributionKind {
    let mut entries = if policy.anchor_largest_contribution {
        anchor(tables, kind, input)
    } else {
        rules(tables, groups, kind, input, policy)
    };
    entries.sort_by(|a, b| {
        b.correct_rank
            .total_cmp(&a.correct_rank)
            .then(b.time_rank.total_cmp(&a.time_rank))
            .then(if policy.anchor_largest_contribution {
                b.division.cmp(&a.division)
            } else {
                a.division.cmp(&b.division)
            })
            .then(a.solver.cmp(&b.solver))
    });
    if policy.anchor_largest_contribution {
        entries.truncate(19);
    }
    let winner = entries.first().map(|e| e.solver.clone());
    ContributionKind {
        kind,
        entries,
        winner,
    }
}

/// Rules 7.3.3: competitive sound solvers S (division error score 0) of competitive
/// divisions with |S| > 2; empty-set time T; ranks normalised by n_D / N, the
/// competitive solver/benchmark pairs of D over those of the track's competitive
/// divisions (non-competitive divisions are not run, rules 6).
fn rules(
    tables: &[DivisionTable],
    groups: &[GroupScores],
    kind: Kind,
    input: &ScoringInput,
    policy: &Policy,
) -> Vec<ContributionEntry> {
    let t_default = input.time_limit;
    let mut per_div = Vec::new();
    let mut total_pairs = 0u64;
    for table in tables {
        let (cells, _) = kind_cells(table, None, kind, input, policy);
        let Some(g) = groups
            .iter()
            .find(|g| g.is_division && g.name == table.division.as_str())
        else {
            continue;
        };
        // Rules 6: non-competitive divisions are not run, so their pairs are
        // not among the track's N competitive solver/benchmark pairs.
        if !g.competitive {
            continue;
        }
        let comp_pairs = cells
            .iter()
            .filter(|k| input.participants[table.cells[k.cell].solver].competitive)
            .count() as u64;
        total_pairs += comp_pairs;
        let Some(p) = g.podium(kind) else { continue };
        let sound: Vec<usize> = p
            .steps
            .iter()
            .filter(|s| s.competitive && s.e == 0)
            .map(|s| s.index)
            .collect();
        if sound.len() <= 2 {
            continue;
        }
        per_div.push((table, cells, sound, comp_pairs));
    }
    let mut out = Vec::new();
    for (table, cells, sound, comp_pairs) in per_div {
        let pos: BTreeMap<usize, usize> = sound.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let k = sound.len();
        // Per file: per sound solver (n, c, w) when n > 0.
        let mut per_file: BTreeMap<usize, Vec<Option<Ncw>>> = BTreeMap::new();
        for f in table
            .files
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.removed)
            .filter(|(_, f)| match kind {
                Kind::Sat => f.sound_status == Status::Sat,
                Kind::Unsat => f.sound_status == Status::Unsat,
                _ => true,
            })
            .map(|(i, _)| i)
        {
            per_file.insert(f, vec![None; k]);
        }
        for kc in &cells {
            let c = &table.cells[kc.cell];
            if let (Some(&j), Some(v)) = (pos.get(&c.solver), per_file.get_mut(&c.file)) {
                if kc.n > 0 {
                    v[j] = Some((kc.n, kc.c, kc.w));
                }
            }
        }
        // VBS over S and over S - s for every s.
        let vbs = |skip: Option<usize>| {
            let (mut n, mut c, mut w) = (0i64, 0f64, 0f64);
            for v in per_file.values() {
                let mut best: Option<Ncw> = None;
                for (j, x) in v.iter().enumerate() {
                    if Some(j) == skip {
                        continue;
                    }
                    if let Some((xn, xc, xw)) = x {
                        best = Some(match best {
                            None => (*xn, *xc, *xw),
                            Some((bn, bc, bw)) => (bn.max(*xn), bc.min(*xc), bw.min(*xw)),
                        });
                    }
                }
                match best {
                    Some((bn, bc, bw)) => {
                        n += bn;
                        c += bc;
                        w += bw;
                    }
                    None => {
                        c += t_default;
                        w += t_default;
                    }
                }
            }
            (n as f64, c, w)
        };
        let (n_all, c_all, w_all) = vbs(None);
        let norm = ratio(comp_pairs as f64, total_pairs as f64);
        for (j, &s) in sound.iter().enumerate() {
            let (n_s, c_s, w_s) = vbs(Some(j));
            let correct = 1.0 - ratio(n_s, n_all).min(1.0);
            let correct = if n_all == 0.0 { 0.0 } else { correct };
            let time = if kind.uses_cpu_time() {
                if c_s == 0.0 { 0.0 } else { 1.0 - c_all / c_s }
            } else if w_s == 0.0 {
                0.0
            } else {
                1.0 - w_all / w_s
            };
            out.push(ContributionEntry {
                division: table.division.to_string(),
                solver: input.participants[s].solver.clone(),
                correct_rank: norm * correct,
                time_rank: norm * time,
            });
        }
    }
    out
}

/// Aggregated VBS row of one file (anchor spec 6.8 step 3).
#[derive(Clone, Copy)]
struct VbsRow {
    n: i64,
    aw: f64,
    w: f64,
    ac: f64,
    c: f64,
}

fn merge(a: Option<VbsRow>, b: VbsRow) -> VbsRow {
    match a {
        None => b,
        Some(a) => VbsRow {
            n: a.n.max(b.n),
            aw: a.aw.min(b.aw),
            w: a.w.min(b.w),
            ac: a.ac.min(b.ac),
            c: a.c.min(b.c),
        },
    }
}

/// Sums the kind-filtered VBS rows: (rows kept, Σn, Σtime).
fn sum_kind(
    rows: &BTreeMap<usize, VbsRow>,
    table: &DivisionTable,
    kind: Kind,
    t: f64,
) -> (usize, f64, f64) {
    let (mut k, mut n, mut time) = (0usize, 0i64, 0f64);
    for (&f, r) in rows {
        let st = table.files[f].sound_status;
        let keep = match kind {
            Kind::Sat => st == Status::Sat,
            Kind::Unsat => st == Status::Unsat,
            Kind::TwentyFour => r.aw <= TWENTYFOUR_LIMIT_S,
            _ => true,
        };
        if !keep {
            continue;
        }
        k += 1;
        if kind == Kind::Sequential {
            if r.ac <= t {
                n += r.n;
                time += r.c;
            }
        } else {
            n += r.n;
            time += r.w;
        }
    }
    (k, n as f64, time)
}

/// The reference tool's computation (anchor spec 6.8).
fn anchor(tables: &[DivisionTable], kind: Kind, input: &ScoringInput) -> Vec<ContributionEntry> {
    // Rows kept by the reference tool: no error, sound solver, correct answer.
    let kept = |t: &DivisionTable| -> Vec<usize> {
        let mut sound = vec![false; input.participants.len()];
        for &i in &t.sound {
            sound[i] = true;
        }
        t.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                !t.files[c.file].removed && c.score.e == 0 && c.score.n > 0 && sound[c.solver]
            })
            .map(|(i, _)| i)
            .collect()
    };
    let kept_rows: Vec<Vec<usize>> = tables.iter().map(kept).collect();
    let track_rows: usize = kept_rows.iter().map(Vec::len).sum();
    let mut out = Vec::new();
    for (table, rows_d) in tables.iter().zip(&kept_rows) {
        let ratio_d = ratio(rows_d.len() as f64, track_rows as f64);
        let row_of = |i: usize| {
            let c = &table.cells[i];
            VbsRow {
                n: c.score.n,
                aw: c.score.aw,
                w: c.score.w,
                ac: c.score.ac,
                c: c.score.c,
            }
        };
        let mut solvers: BTreeSet<usize> = BTreeSet::new();
        let mut vbs: BTreeMap<usize, VbsRow> = BTreeMap::new();
        for &i in rows_d {
            let c = &table.cells[i];
            solvers.insert(c.solver);
            let e = vbs.get(&c.file).copied();
            vbs.insert(c.file, merge(e, row_of(i)));
        }
        let (_, n_all, t_all) = sum_kind(&vbs, table, kind, input.time_limit);
        let mut without = Vec::new();
        for &s in &solvers {
            let mut rows: BTreeMap<usize, VbsRow> = BTreeMap::new();
            for &i in rows_d {
                let c = &table.cells[i];
                if c.solver == s {
                    continue;
                }
                let e = rows.get(&c.file).copied();
                rows.insert(c.file, merge(e, row_of(i)));
            }
            let (k, n_s, t_s) = sum_kind(&rows, table, kind, input.time_limit);
            if k > 0 {
                without.push((s, n_s, t_s));
            }
        }
        if without.len() <= 2 {
            continue;
        }
        for (s, n_s, t_s) in without {
            let correct = ratio_d * (1.0 - ratio(n_s, n_all));
            let time = if t_s == 0.0 {
                ratio_d
            } else {
                ratio_d * (1.0 - t_all / t_s)
            };
            out.push(ContributionEntry {
                division: table.division.to_string(),
                solver: input.participants[s].solver.clone(),
                correct_rank: correct,
                time_rank: time,
            });
        }
    }
    out
}
