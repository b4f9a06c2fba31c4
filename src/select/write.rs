//! The selection file written by hand: the same bytes as serde_json's pretty
//! printer gives for the [`Selection`](super::Selection) (`smtcomp select -o
//! FILE.json`), an order of magnitude faster on a 2025 Single Query selection
//! (227,413 benchmarks, 68 MB). The header (track, year, seed, notes, per-logic
//! statistics) is still serde_json's; the benchmarks are rendered in blocks in
//! parallel and written in order.

use super::selection::{LogicStats, SelectedRef, SelectionView};
use crate::formats::inventory::{InventoryView, ViewEntry};
use crate::model::{Logic, Status, Track};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Benchmarks rendered per block (about 300 bytes each).
const BLOCK: usize = 4096;

/// The selection's fields before the benchmarks, serialised by serde_json with
/// an empty benchmark list (whose `[]\n}` is then replaced by the benchmarks).
#[derive(Serialize)]
struct Header<'s> {
    track: Track,
    year: u16,
    seed: u32,
    notes: &'s [String],
    logics: &'s BTreeMap<Logic, LogicStats>,
    benchmarks: [u8; 0],
}

/// Writes `s` as the pretty JSON of its [`Selection`](super::Selection)
/// (`serde_json::to_writer_pretty`, without the final newline).
pub fn write_selection_json(w: &mut impl Write, s: &SelectionView<'_, '_>) -> io::Result<()> {
    let header = serde_json::to_vec_pretty(&Header {
        track: s.track,
        year: s.year,
        seed: s.seed,
        notes: &s.notes,
        logics: &s.logics,
        benchmarks: [],
    })
    .map_err(io::Error::other)?;
    if s.benchmarks.is_empty() {
        return w.write_all(&header);
    }
    let open = header
        .strip_suffix(b"[]\n}")
        .ok_or_else(|| io::Error::other("unexpected selection header"))?;
    w.write_all(open)?;
    w.write_all(b"[")?;
    let statuses = StatusNames::new()?;
    // A block per pool thread per batch: bounded memory. While this thread
    // writes one batch, the pool renders the next into the other buffers
    // (rendering and the kernel's copy of the output overlap). The buffers
    // are reused from batch to batch (fresh buffers for the whole 68 MB of a
    // Single Query selection cost as much in page faults as the rendering).
    let per_batch = rayon::current_num_threads().max(1);
    let mut ready: Vec<Vec<u8>> = vec![Vec::new(); per_batch];
    let mut next: Vec<Vec<u8>> = vec![Vec::new(); per_batch];
    let mut batches = s.benchmarks.chunks(BLOCK * per_batch).enumerate();
    let render_batch = |out: &mut [Vec<u8>], (k, batch): (usize, &[SelectedRef])| {
        out.par_iter_mut()
            .zip(batch.par_chunks(BLOCK))
            .enumerate()
            .for_each(|(i, (out, block))| {
                out.clear();
                let mut identity = Identity::default();
                for (j, b) in block.iter().enumerate() {
                    let first = k == 0 && i == 0 && j == 0;
                    render(out, s, b, first, &statuses, &mut identity);
                }
            });
        batch.len().div_ceil(BLOCK)
    };
    let render_batch = &render_batch;
    let mut n = batches.next().map_or(0, |b| render_batch(&mut ready, b));
    while n > 0 {
        let batch = batches.next();
        let mut rendered = 0;
        let written = rayon::in_place_scope(|scope| {
            if let Some(b) = batch {
                let (next, rendered) = (&mut next, &mut rendered);
                scope.spawn(move |_| *rendered = render_batch(next, b));
            }
            ready[..n].iter().try_for_each(|out| w.write_all(out))
        });
        written?;
        std::mem::swap(&mut ready, &mut next);
        n = rendered;
    }
    w.write_all(b"\n  ]\n}")
}

/// The rendered `"file"` object up to the name, of the last benchmark
/// rendered: consecutive benchmarks of one family share it.
#[derive(Default)]
struct Identity {
    /// Kind, logic and family indices (equal indices, equal values).
    of: Option<(bool, usize, usize)>,
    text: Vec<u8>,
}

impl Identity {
    /// The text for `e` (rendered again when its kind, logic or family differs).
    fn of(&mut self, view: &InventoryView<'_>, e: &ViewEntry<'_>) -> &[u8] {
        let key = (e.incremental, e.logic_index(), e.family_index());
        if self.of != Some(key) {
            self.of = Some(key);
            let out = &mut self.text;
            out.clear();
            out.extend_from_slice(b"\n      \"file\": {\n        \"incremental\": ");
            out.extend_from_slice(if e.incremental { b"true" } else { b"false" });
            out.extend_from_slice(b",\n        \"logic\": ");
            string(out, view.logic(e).as_str());
            let family = view.family(e);
            if family.is_empty() {
                out.extend_from_slice(b",\n        \"family\": [],");
            } else {
                out.extend_from_slice(b",\n        \"family\": [");
                for (i, part) in family.iter().enumerate() {
                    out.extend_from_slice(if i == 0 {
                        b"\n          "
                    } else {
                        b",\n          "
                    });
                    string(out, part);
                }
                out.extend_from_slice(b"\n        ],");
            }
            out.extend_from_slice(b"\n        \"name\": ");
        }
        &self.text
    }
}

/// serde_json's spelling of each status.
struct StatusNames([Vec<u8>; 4]);

impl StatusNames {
    fn new() -> io::Result<Self> {
        let name = |s: Status| serde_json::to_vec(&s).map_err(io::Error::other);
        Ok(StatusNames([
            name(Status::Sat)?,
            name(Status::Unsat)?,
            name(Status::Unknown)?,
            name(Status::Incremental)?,
        ]))
    }

    fn of(&self, s: Status) -> &[u8] {
        &self.0[match s {
            Status::Sat => 0,
            Status::Unsat => 1,
            Status::Unknown => 2,
            Status::Incremental => 3,
        }]
    }
}

/// One element of the `benchmarks` array, as serde_json's pretty printer
/// writes it (two spaces per level, the array at level 1).
fn render(
    out: &mut Vec<u8>,
    s: &SelectionView<'_, '_>,
    b: &SelectedRef,
    first: bool,
    statuses: &StatusNames,
    identity: &mut Identity,
) {
    let e = s.entry(b);
    out.extend_from_slice(if first { b"\n    {" } else { b",\n    {" });
    out.extend_from_slice(identity.of(s.view, e));
    string(out, e.name);
    out.extend_from_slice(b"\n      },\n      \"status\": ");
    out.extend_from_slice(statuses.of(e.status));
    out.extend_from_slice(b",\n      \"count\": ");
    number(out, e.count);
    out.extend_from_slice(b",\n      \"new\": ");
    out.extend_from_slice(if b.new { b"true" } else { b"false" });
    if let Some(heat) = b.heat {
        out.extend_from_slice(b",\n      \"heat\": ");
        number(out, u64::from(heat.get()));
    }
    out.extend_from_slice(b"\n    }");
}

/// A JSON string as serde_json writes it: quoted, with `"`, `\` and control
/// characters escaped (serde_json itself does it when there is any).
fn string(out: &mut Vec<u8>, s: &str) {
    // Without an early exit: the compiler checks many bytes at a time.
    let plain = s
        .bytes()
        .fold(true, |ok, c| ok & (c >= 0x20) & (c != b'"') & (c != b'\\'));
    if plain {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// A decimal number.
fn number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::inventory::ViewEntry;
    use std::num::NonZeroU32;

    fn check(view: &SelectionView<'_, '_>) {
        let mut ours = Vec::new();
        write_selection_json(&mut ours, view).unwrap();
        let theirs = serde_json::to_vec_pretty(&view.to_owned()).unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            String::from_utf8(theirs).unwrap()
        );
    }

    #[test]
    fn same_bytes_as_serde_json() {
        let logics = [Logic::new("QF_BV"), Logic::new("ALL")];
        let fams = [
            vec![],
            vec!["20250101-a".to_string()],
            vec![
                "we\"ird\\".to_string(),
                "tab\there\u{1}".to_string(),
                "é".into(),
            ],
        ];
        let statuses = [
            Status::Sat,
            Status::Unsat,
            Status::Unknown,
            Status::Incremental,
        ];
        let mut inv = InventoryView::with_tables(
            logics.iter().collect(),
            fams.iter().map(Vec::as_slice).collect(),
        );
        let mut benchmarks = Vec::new();
        // More than one block and one batch, with every shape of entry.
        for i in 0..(BLOCK * 2 * rayon::current_num_threads().max(1) + 7) {
            inv.non_incremental.push(ViewEntry {
                incremental: i % 5 == 0,
                logic: (i % 2) as u32,
                family: (i % 3) as u32,
                name: if i % 7 == 0 {
                    "n\"a\nme.smt2"
                } else {
                    "b.smt2"
                },
                status: statuses[i % 4],
                count: [0, 9, 10, u64::MAX][i % 4],
            });
            benchmarks.push(SelectedRef {
                index: i as u32,
                new: i % 3 == 0,
                heat: NonZeroU32::new(i as u32).filter(|_| i % 4 == 1),
            });
        }
        let mut stats = BTreeMap::new();
        stats.insert(Logic::new("QF_BV"), LogicStats::default());
        let view = SelectionView {
            track: Track::SingleQuery,
            year: 2025,
            seed: 7,
            notes: vec!["a \"note\"".into(), "b".into()],
            logics: stats,
            view: &inv,
            list: &inv.non_incremental,
            benchmarks,
        };
        check(&view);
        check(&SelectionView {
            benchmarks: view.benchmarks[..1].to_vec(),
            notes: vec![],
            logics: BTreeMap::new(),
            ..view.clone()
        });
        check(&SelectionView {
            benchmarks: vec![],
            ..view.clone()
        });
    }
}
