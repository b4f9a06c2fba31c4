//! Largest contribution ranking / virtual best solver (rules 7.3.3), and the
//! reference tool's variant (`anchor_largest_contribution`, anchor spec 6.8).

use super::division::{GroupScores, Kind, TWENTYFOUR_LIMIT_S, kind_cells};
use super::input::ScoringInput;
use super::policy::Policy;
use super::soundness::DivisionTable;
use crate::model::Status;
use serde::Serialize;
use std::collections::BTreeSet;

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
        let mut pos = vec![usize::MAX; input.participants.len()];
        for (i, &s) in sound.iter().enumerate() {
            pos[s] = i;
        }
        let k = sound.len();
        // Per file of the kind (ascending): per sound solver (n, c, w) when n > 0.
        let mut slot_of_file = vec![usize::MAX; table.files.len()];
        let mut per_file: Vec<Option<Ncw>> = Vec::new();
        for (f, row) in table.files.iter().enumerate() {
            let kept = !row.removed
                && match kind {
                    Kind::Sat => row.sound_status == Status::Sat,
                    Kind::Unsat => row.sound_status == Status::Unsat,
                    _ => true,
                };
            if kept {
                slot_of_file[f] = per_file.len() / k.max(1);
                per_file.resize(per_file.len() + k, None);
            }
        }
        for kc in &cells {
            let c = &table.cells[kc.cell];
            let (j, slot) = (pos[c.solver], slot_of_file[c.file]);
            if j != usize::MAX && slot != usize::MAX && kc.n > 0 {
                per_file[slot * k + j] = Some((kc.n, kc.c, kc.w));
            }
        }
        // VBS over S and over S - s for every s.
        let vbs = |skip: Option<usize>| {
            let (mut n, mut c, mut w) = (0i64, 0f64, 0f64);
            for v in per_file.chunks(k) {
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

/// Accumulates the kind-filtered VBS rows, in file order: (rows kept, Σn, Σtime).
#[derive(Default)]
struct KindSum {
    kept: usize,
    n: i64,
    time: f64,
}

impl KindSum {
    /// Adds the VBS row of file `f` (rows must come in ascending file order, so
    /// the float sums are those of a walk over a file-ordered map).
    fn add(&mut self, table: &DivisionTable, f: usize, r: &VbsRow, kind: Kind, t: f64) {
        let st = table.files[f].sound_status;
        let keep = match kind {
            Kind::Sat => st == Status::Sat,
            Kind::Unsat => st == Status::Unsat,
            Kind::TwentyFour => r.aw <= TWENTYFOUR_LIMIT_S,
            _ => true,
        };
        if !keep {
            return;
        }
        self.kept += 1;
        if kind == Kind::Sequential {
            if r.ac <= t {
                self.n += r.n;
                self.time += r.c;
            }
        } else {
            self.n += r.n;
            self.time += r.w;
        }
    }
}

/// The VBS row of one cell.
fn vbs_of(table: &DivisionTable, i: usize) -> VbsRow {
    let c = &table.cells[i];
    VbsRow {
        n: c.score.n,
        aw: c.score.aw,
        w: c.score.w,
        ac: c.score.ac,
        c: c.score.c,
    }
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
        let t = input.time_limit;
        // The kept rows grouped by file: cells are sorted by (file, solver), so
        // each file's rows are contiguous and the files ascend.
        let mut by_file: Vec<(usize, &[usize])> = Vec::new();
        let mut start = 0;
        while start < rows_d.len() {
            let f = table.cells[rows_d[start]].file;
            let mut end = start + 1;
            while end < rows_d.len() && table.cells[rows_d[end]].file == f {
                end += 1;
            }
            by_file.push((f, &rows_d[start..end]));
            start = end;
        }
        // VBS over every solver, and without each solver s. A merge takes
        // max n and min times, none of them NaN (times are clamped at 0), so
        // it is associative and commutative up to the sign of a zero time,
        // which no sum from 0.0 can show: the row without s is merge(rows
        // before s, rows after s) of the file's rows. Every sum runs over the
        // files in ascending order, as a walk over a file-ordered map would.
        let solvers: Vec<usize> = rows_d
            .iter()
            .map(|&i| table.cells[i].solver)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut slot = vec![usize::MAX; input.participants.len()];
        for (j, &s) in solvers.iter().enumerate() {
            slot[s] = j;
        }
        let mut all = KindSum::default();
        let mut sums: Vec<KindSum> = solvers.iter().map(|_| KindSum::default()).collect();
        let mut excl: Vec<Option<VbsRow>> = vec![None; solvers.len()];
        let mut present = vec![false; solvers.len()];
        let mut suffix: Vec<Option<VbsRow>> = Vec::new();
        for &(f, rows) in &by_file {
            // suffix[i] = merge of rows[i..]
            suffix.clear();
            suffix.resize(rows.len() + 1, None);
            for i in (0..rows.len()).rev() {
                suffix[i] = Some(merge(suffix[i + 1], vbs_of(table, rows[i])));
            }
            let mut prefix: Option<VbsRow> = None;
            for (i, &cell) in rows.iter().enumerate() {
                let j = slot[table.cells[cell].solver];
                present[j] = true;
                excl[j] = match (prefix, suffix[i + 1]) {
                    (p, Some(s)) => Some(merge(p, s)),
                    (p, None) => p,
                };
                prefix = Some(merge(prefix, vbs_of(table, cell)));
            }
            let Some(whole) = prefix else { continue };
            all.add(table, f, &whole, kind, t);
            for (j, sum) in sums.iter_mut().enumerate() {
                if present[j] {
                    present[j] = false;
                    if let Some(r) = excl[j] {
                        sum.add(table, f, &r, kind, t);
                    }
                } else {
                    sum.add(table, f, &whole, kind, t);
                }
            }
        }
        let (n_all, t_all) = (all.n as f64, all.time);
        let without: Vec<(usize, f64, f64)> = solvers
            .iter()
            .zip(&sums)
            .filter(|(_, sum)| sum.kept > 0)
            .map(|(&s, sum)| (s, sum.n as f64, sum.time))
            .collect();
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
