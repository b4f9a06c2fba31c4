//! Reading a manifest file into a [`ManifestIndex`].
//!
//! Two readers build the same index: the fast one ([`super::fast`]) for the
//! layout `generate` writes, and, when it gives up, the streaming serde reader
//! here, which reads the file from the start: its messages name the line and
//! column, and it holds one run at a time whatever the file holds.

use super::fast::read_fast;
use super::{MANIFEST_FORMAT, ManifestIndex, ManifestRun, NewRun};
use crate::formats::datafile::{self, DataFileError};
use std::borrow::Cow;
use std::path::Path;

/// Reads a manifest file (JSON or JSON.gz): the fast reader, or when it gives
/// up, the streaming one.
pub(super) fn read(path: &Path) -> Result<ManifestIndex, DataFileError> {
    if let Some(index) = read_fast(path) {
        return Ok(index.seal());
    }
    read_streaming(path)
}

/// The streaming reader: one [`ManifestRun`] at a time through serde, with
/// serde_json's messages (line and column) for what is wrong.
fn read_streaming(path: &Path) -> Result<ManifestIndex, DataFileError> {
    let reader = std::io::BufReader::with_capacity(1 << 20, datafile::open(path)?);
    let mut index = ManifestIndex::default();
    let mut de = serde_json::Deserializer::from_reader(reader);
    let format = serde::de::DeserializeSeed::deserialize(ManifestSeed(&mut index), &mut de)
        .and_then(|f| de.end().map(|()| f))
        .map_err(|e| DataFileError::new(path, format!("invalid content: {e}")))?;
    match format {
        Some(MANIFEST_FORMAT) => Ok(index.seal()),
        Some(f) => Err(DataFileError::new(
            path,
            format!("manifest format {f} (this version reads {MANIFEST_FORMAT})"),
        )),
        None => Err(DataFileError::new(
            path,
            "invalid content: missing field `format`",
        )),
    }
}

/// Reads `{"format": N, "runs": [...]}` into an index, one run at a time.
struct ManifestSeed<'i>(&'i mut ManifestIndex);

impl<'de> serde::de::DeserializeSeed<'de> for ManifestSeed<'_> {
    type Value = Option<u32>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ManifestSeed<'_> {
    type Value = Option<u32>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a runs manifest {\"format\": 1, \"runs\": [...]}")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Option<u32>, A::Error> {
        use serde::de::Error;
        let mut format = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "format" => format = Some(map.next_value::<u32>()?),
                "runs" => map.next_value_seed(RunsSeed(self.0))?,
                other => return Err(A::Error::unknown_field(other, &["format", "runs"])),
            }
        }
        Ok(format)
    }
}

/// The `runs` array, each run added as it is read.
struct RunsSeed<'i>(&'i mut ManifestIndex);

impl<'de> serde::de::DeserializeSeed<'de> for RunsSeed<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for RunsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of runs")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(run) = seq.next_element::<ManifestRun>()? {
            self.0.push(&NewRun::of(&run));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Manifest;
    use super::super::fast::{MAX_RUN_BYTES, READ_CHUNK};
    use super::*;
    use crate::formats::inventory::Smt2File;
    use crate::model::Track;
    use crate::model::{Division, Logic};
    use std::io::Write;

    fn run(i: usize) -> ManifestRun {
        let solver = ["cvc5", "Bitwuzla \"quoted\" \\ é", "z3"][i % 3];
        let definition = format!("{}_{}.xml", solver, i / 1000);
        ManifestRun {
            benchmark_definition: definition,
            rundefinition: format!("{solver},{},SingleQuery", i % 2),
            task: format!("tasks/QF_BV/{}_{}.yml", i % 700, "x\u{1}y"),
            solver: solver.to_string(),
            participation: (i % 2) as u32,
            track: Track::SingleQuery,
            division: Division::new(if i % 5 == 0 { "QF_Bitvec" } else { "Arith" }),
            logic: Logic::new("QF_BV"),
            benchmark: Smt2File {
                incremental: false,
                logic: Logic::new("QF_BV"),
                family: (0..i % 3).map(|f| format!("fam{f}")).collect(),
                // Task 7 names two benchmarks (a hand-written manifest).
                name: format!("b{}{}.smt2", i % 700, if i % 700 == 7 { i % 2 } else { 0 }),
            },
        }
    }

    /// 8,000 runs: 2.5 MB, over two of the fast reader's 1 MB buffers.
    fn manifest() -> Manifest {
        Manifest {
            format: MANIFEST_FORMAT,
            runs: (0..8000).map(run).collect(),
        }
    }

    fn write(dir: &Path, name: &str, text: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        let mut f = std::fs::File::create(&path).unwrap();
        if name.ends_with(".gz") {
            let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
            gz.write_all(text).unwrap();
            gz.finish().unwrap();
        } else {
            f.write_all(text).unwrap();
        }
        path
    }

    fn runs(index: &ManifestIndex) -> Vec<ManifestRun> {
        index.runs().map(|r| r.to_owned()).collect()
    }

    #[test]
    fn both_readers_build_the_same_index() {
        let d = tempfile::tempdir().unwrap();
        let m = manifest();
        let compact = serde_json::to_vec(&m).unwrap();
        assert!(compact.len() > 2 * READ_CHUNK, "{}", compact.len());
        let pretty = serde_json::to_vec_pretty(&m).unwrap();
        for (name, text) in [
            ("m.json", &compact),
            ("m.json.gz", &compact),
            ("pretty.json", &pretty),
        ] {
            let path = write(d.path(), name, text);
            let fast = read_fast(&path).expect(name).seal();
            let slow = read_streaming(&path).unwrap();
            assert_eq!(runs(&fast), m.runs, "{name}");
            assert_eq!(runs(&slow), m.runs, "{name}");
            for (i, r) in m.runs.iter().enumerate().step_by(97) {
                let def = r.benchmark_definition.trim_end_matches(".xml");
                let got = fast.lookup_index(def, &r.rundefinition, &r.task);
                assert_eq!(got, slow.lookup_index(def, &r.rundefinition, &r.task));
                // Tasks repeat across definitions only: the entry is this run.
                assert_eq!(got, Ok(Some(i)), "{name}: run {i}");
            }
        }
    }

    #[test]
    fn other_layouts_are_read_by_the_streaming_reader() {
        let d = tempfile::tempdir().unwrap();
        let m = Manifest {
            format: MANIFEST_FORMAT,
            runs: (0..50).map(run).collect(),
        };
        let runs_json = serde_json::to_string(&m.runs).unwrap();
        let mut long = run(1);
        long.task = format!("tasks/{}.yml", "t".repeat(MAX_RUN_BYTES));
        let long_json = serde_json::to_string(&Manifest {
            format: MANIFEST_FORMAT,
            runs: vec![long.clone()],
        })
        .unwrap();
        let cases: [(&str, String, Vec<ManifestRun>); 3] = [
            (
                "runs first",
                format!("{{\"runs\": {runs_json}, \"format\": 1}}"),
                m.runs.clone(),
            ),
            ("a run over the limit", long_json, vec![long]),
            ("no runs", "{\"format\":1,\"runs\":[ ]}\n".into(), vec![]),
        ];
        for (what, text, want) in cases {
            let path = write(d.path(), "m.json", text.as_bytes());
            assert_eq!(runs(&read(&path).expect(what)), want, "{what}");
        }
    }

    #[test]
    fn a_bad_manifest_is_reported_by_the_streaming_reader() {
        let d = tempfile::tempdir().unwrap();
        let good = serde_json::to_string(&Manifest {
            format: MANIFEST_FORMAT,
            runs: (0..3).map(run).collect(),
        })
        .unwrap();
        let big = serde_json::to_string(&manifest()).unwrap();
        let cases = [
            (
                "format 2",
                good.replacen("\"format\":1", "\"format\":2", 1),
                "manifest format 2",
            ),
            (
                "an unknown field",
                good.replacen("\"solver\"", "\"solvers\"", 1),
                "unknown field `solvers`",
            ),
            ("trailing text", format!("{good} x"), "trailing characters"),
            (
                "cut short",
                good[..good.len() - 40].to_string(),
                "EOF while parsing",
            ),
            (
                "a run that is not an object",
                good.replacen("[{", "[7,{", 1),
                "invalid type",
            ),
            ("no comma", good.replacen("},{", "} {", 1), "expected"),
            // Wrong after many batches were handed over: they are dropped.
            (
                "the last of 8,000 runs cut",
                big[..big.len() - 40].to_string(),
                "EOF while parsing",
            ),
        ];
        for (what, text, reason) in cases {
            let path = write(d.path(), "m.json.gz", text.as_bytes());
            let e = read(&path).expect_err(what);
            assert!(e.reason.contains(reason), "{what}: {}", e.reason);
            assert!(read_fast(&path).is_none(), "{what}");
        }
    }
}
