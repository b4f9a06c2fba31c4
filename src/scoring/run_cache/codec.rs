//! The byte format of a run cache file (documented in docs/performance.md,
//! "The run cache").
//!
//! Header (56 bytes): magic [`MAGIC`], format version (u32 LE), the BLAKE3
//! of the input file, the payload length (u64 LE), the payload's CRC-32
//! (u32 LE). Payload (unsigned LEB128 varints `u`, strings as `u` length +
//! UTF-8 bytes, floats as the 8 bytes of their IEEE bits, LE):
//!
//! ```text
//! flags u8            bit 0: ingested run table, bit 1: identity present
//! [identity]          string: the table's header line (JSON)
//! skipped u
//! solvers u, string*  distinct solver names
//! logics u, string*   distinct logics
//! families u, (parts u, string*)*
//! files u, (incremental u8, logic u, family u, name string)*
//! runs u, run*
//! run = solver u, file u, track u8, answer u8, cpu f64, wall f64,
//!       present u8 (bit 0 nb_answers, bit 1 last_answer_time, bit 2 answer_at_timeout,
//!       bit 3 error),
//!       [nb_answers u], [last cpu f64, last wall f64], [answer_at_timeout u8]
//! ```
//!
//! Track and answer codes are the positions in [`Track::ALL`] and [`ANSWERS`].

use super::RunsFile;
use crate::benchmarks::Smt2File;
use crate::formats::cache_file::{
    self, CacheError, CacheKind, DecodeFault, Reader, put_bytes as put_b, put_u,
};
use crate::formats::table_identity::TableIdentity;
use crate::model::{Answer, Logic, Track};
use crate::scoring::{RunTime, ScoredRun, SolverName};
use crate::util::fxhash::{FxHashMap, IndexTable};
use std::sync::Arc;

/// The first bytes of a run cache file.
pub const MAGIC: &[u8; 8] = b"SMTCRUN\0";
/// The version of the encoding; bumped whenever it (or [`ScoredRun`]) changes.
pub const FORMAT_VERSION: u32 = 2;
/// This cache's kind of [`cache_file`].
pub const KIND: CacheKind = CacheKind {
    magic: MAGIC,
    version: FORMAT_VERSION,
    prefix: "runs",
    what: "a run cache",
    source: "file",
};
/// The fewest bytes a run takes (two one-byte varints, two codes, two
/// floats, the presence byte): bounds the run count by the payload's size.
const MIN_RUN_BYTES: usize = 2 + 2 + 16 + 1;

/// Every answer, in code order (code = position).
pub const ANSWERS: [Answer; 15] = [
    Answer::Unsat,
    Answer::Sat,
    Answer::Unknown,
    Answer::Incremental,
    Answer::OutOfMemory,
    Answer::Timeout,
    Answer::ModelNotValidated,
    Answer::ModelUnsat,
    Answer::ModelParsingError,
    Answer::ModelPartialFunctionMissing,
    Answer::ModelValidatorException,
    Answer::ModelValidatorBenchmarkStrictTyping,
    Answer::ModelValidatorTimeout,
    Answer::IncrementalError,
    Answer::UnsatCoreInvalidated,
];

/// The code of an answer (exhaustive: a new variant does not compile
/// until it has a code).
pub fn answer_code(a: Answer) -> u8 {
    match a {
        Answer::Unsat => 0,
        Answer::Sat => 1,
        Answer::Unknown => 2,
        Answer::Incremental => 3,
        Answer::OutOfMemory => 4,
        Answer::Timeout => 5,
        Answer::ModelNotValidated => 6,
        Answer::ModelUnsat => 7,
        Answer::ModelParsingError => 8,
        Answer::ModelPartialFunctionMissing => 9,
        Answer::ModelValidatorException => 10,
        Answer::ModelValidatorBenchmarkStrictTyping => 11,
        Answer::ModelValidatorTimeout => 12,
        Answer::IncrementalError => 13,
        Answer::UnsatCoreInvalidated => 14,
    }
}

/// Number of answer codes in use.
const ANSWER_CODES: u8 = ANSWERS.len() as u8;

fn answer_of(c: u8) -> Result<Answer, DecodeFault> {
    if c < ANSWER_CODES {
        Ok(ANSWERS[usize::from(c)])
    } else {
        Err(format!("bad answer code {c}").into())
    }
}

fn track_code(t: Track) -> u8 {
    Track::ALL.iter().position(|x| *x == t).unwrap_or(0) as u8
}

fn track(c: u8) -> Result<Track, DecodeFault> {
    Track::ALL
        .get(usize::from(c))
        .copied()
        .ok_or_else(|| format!("bad track code {c}").into())
}

/// Encodes `runs` as a cache file for the input file hashing to `hash`.
pub fn encode(runs: &RunsFile, hash: &[u8; 32]) -> Vec<u8> {
    let mut p = Vec::with_capacity(64 + runs.runs.len() * 26);
    let identity = runs.identity.as_ref().map(TableIdentity::header_line);
    p.push(u8::from(runs.ingested) | (u8::from(identity.is_some()) << 1));
    if let Some(line) = &identity {
        put_b(&mut p, line);
    }
    put_u(&mut p, runs.skipped as u64);
    let mut solvers = IndexTable::default();
    let mut logics = IndexTable::default();
    let mut families: IndexTable<&[String]> = IndexTable::default();
    let mut files: Vec<&Smt2File> = Vec::new();
    let mut file_ix: FxHashMap<*const Smt2File, u64> = FxHashMap::default();
    let mut rows = Vec::with_capacity(runs.runs.len() * 24);
    for r in &runs.runs {
        put_u(&mut rows, u64::from(solvers.index_of(r.solver.as_str())));
        let f = *file_ix.entry(Arc::as_ptr(&r.file)).or_insert_with(|| {
            files.push(&r.file);
            files.len() as u64 - 1
        });
        put_u(&mut rows, f);
        rows.push(track_code(r.track));
        rows.push(answer_code(r.answer));
        rows.extend_from_slice(&r.cpu_time.to_bits().to_le_bytes());
        rows.extend_from_slice(&r.wall_time.to_bits().to_le_bytes());
        rows.push(
            u8::from(r.nb_answers.is_some())
                | u8::from(r.last_answer_time.is_some()) << 1
                | u8::from(r.answer_at_timeout.is_some()) << 2
                | u8::from(r.error) << 3,
        );
        if let Some(n) = r.nb_answers {
            put_u(&mut rows, n);
        }
        if let Some(t) = r.last_answer_time.as_deref() {
            rows.extend_from_slice(&t.cpu.to_bits().to_le_bytes());
            rows.extend_from_slice(&t.wall.to_bits().to_le_bytes());
        }
        if let Some(a) = r.answer_at_timeout {
            rows.push(answer_code(a));
        }
    }
    let file_rows: Vec<(bool, u64, u64, &str)> = files
        .iter()
        .map(|f| {
            (
                f.incremental,
                u64::from(logics.index_of(f.logic.as_str())),
                u64::from(families.index_of(f.family.as_slice())),
                f.name.as_str(),
            )
        })
        .collect();
    put_u(&mut p, solvers.items.len() as u64);
    for s in &solvers.items {
        put_b(&mut p, s.as_bytes());
    }
    put_u(&mut p, logics.items.len() as u64);
    for s in &logics.items {
        put_b(&mut p, s.as_bytes());
    }
    put_u(&mut p, families.items.len() as u64);
    for fam in &families.items {
        put_u(&mut p, fam.len() as u64);
        for part in *fam {
            put_b(&mut p, part.as_bytes());
        }
    }
    put_u(&mut p, file_rows.len() as u64);
    for (incremental, logic, family, name) in file_rows {
        p.push(u8::from(incremental));
        put_u(&mut p, logic);
        put_u(&mut p, family);
        put_b(&mut p, name.as_bytes());
    }
    put_u(&mut p, runs.runs.len() as u64);
    p.extend_from_slice(&rows);
    cache_file::frame(&KIND, hash, &p)
}

/// Decodes a cache file made for the input file hashing to `hash`: the runs
/// as the JSON reader returns them (equal benchmarks share one allocation).
/// Any damage is an error naming it; nothing is trusted unchecked.
pub fn decode(bytes: &[u8], hash: &[u8; 32]) -> Result<RunsFile, CacheError> {
    let payload = cache_file::checked_payload(&KIND, bytes, hash)?;
    let mut r = Reader::new(payload);
    decode_payload(&mut r).map_err(|e| e.at(&r))
}

fn decode_payload(r: &mut Reader<'_>) -> Result<RunsFile, DecodeFault> {
    let flags = r.byte()?;
    if flags > 3 {
        return Err(format!("bad flags {flags}").into());
    }
    let identity = if flags & 2 != 0 {
        let line = r.bytes_prefixed()?;
        Some(TableIdentity::parse_header(line).ok_or("bad table identity")?)
    } else {
        None
    };
    let skipped = usize::try_from(r.u()?).map_err(|_| "skipped count too large")?;
    let n = r.count(1)?;
    let mut solvers = Vec::with_capacity(n);
    for _ in 0..n {
        solvers.push(SolverName::from(r.str()?));
    }
    let n = r.count(1)?;
    let mut logics = Vec::with_capacity(n);
    for _ in 0..n {
        logics.push(r.str()?);
    }
    let n = r.count(1)?;
    let mut families = Vec::with_capacity(n);
    for _ in 0..n {
        let parts = r.count(1)?;
        let mut fam = Vec::with_capacity(parts);
        for _ in 0..parts {
            fam.push(r.str()?.to_owned());
        }
        families.push(fam);
    }
    let n = r.count(4)?;
    let mut files = Vec::with_capacity(n);
    for _ in 0..n {
        let incremental = match r.byte()? {
            0 => false,
            1 => true,
            x => return Err(format!("bad incremental flag {x}").into()),
        };
        let logic = *r.index(&logics)?;
        let family = r.index(&families)?.clone();
        files.push(Arc::new(Smt2File {
            incremental,
            logic: Logic::new(logic),
            family,
            name: r.str()?.to_owned(),
        }));
    }
    let n = r.count(MIN_RUN_BYTES)?;
    let mut runs = Vec::with_capacity(n);
    for _ in 0..n {
        let solver = r.index(&solvers)?.clone();
        let file = Arc::clone(r.index(&files)?);
        let track = track(r.byte()?)?;
        let answer = answer_of(r.byte()?)?;
        let cpu_time = r.f64()?;
        let wall_time = r.f64()?;
        let present = r.byte()?;
        if present > 15 {
            return Err(format!("bad presence bits {present}").into());
        }
        let nb_answers = if present & 1 != 0 { Some(r.u()?) } else { None };
        let last_answer_time = if present & 2 != 0 {
            Some(Box::new(RunTime {
                cpu: r.f64()?,
                wall: r.f64()?,
            }))
        } else {
            None
        };
        let answer_at_timeout = if present & 4 != 0 {
            Some(answer_of(r.byte()?)?)
        } else {
            None
        };
        runs.push(ScoredRun {
            solver,
            track,
            file,
            answer,
            cpu_time,
            wall_time,
            nb_answers,
            last_answer_time,
            answer_at_timeout,
            error: present & 8 != 0,
        });
    }
    if !r.at_end() {
        return Err(format!("{} trailing bytes after the runs", r.remaining()).into());
    }
    Ok(RunsFile {
        runs,
        skipped,
        identity,
        ingested: flags & 1 != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_codes_round_trip() {
        for c in 0..ANSWER_CODES {
            assert_eq!(answer_code(answer_of(c).unwrap()), c);
        }
        assert!(answer_of(ANSWER_CODES).is_err());
        for t in Track::ALL {
            assert_eq!(track(track_code(t)).unwrap(), t);
        }
    }
}
