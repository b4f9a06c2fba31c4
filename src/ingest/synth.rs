//! A synthetic BenchExec result set: result XMLs (`.xml.bz2`), log ZIPs and a
//! manifest, written in BenchExec's formats, together with the records that
//! ingesting them must give. Used by the round-trip tests and the benchmark
//! (`examples/ingest_bench.rs`).
//!
//! Every file is one (solver, track) rundefinition `<solver>,0,<Track>` of
//! `runs_per_file` runs; each run is drawn from a catalogue of scenarios per
//! track (answers, limits with and without an answer, crashes, aborted runs,
//! unsat cores, models, proofs, incremental traces with wrong answers and BAD
//! lines). The expected records are built from the scenario, independently of
//! the interpreter.

use crate::benchmarks::Smt2File;
use crate::formats::runs_manifest::{MANIFEST_FORMAT, Manifest, ManifestRun};
use crate::formats::runtable::{
    IncrementalData, IngestRecord, Limit, LogRef, ModelRef, ProofData, RunAnswer, UnsatCore,
    WrongAnswer,
};
use crate::model::{Competition, Logic, Track};
use crate::proof::kv::KeyValues;
use crate::proof::verdict::ProofVerdict;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Debug, Clone)]
pub struct SynthSpec {
    /// Random seed.
    pub seed: u64,
    /// Number of result files (rundefinitions).
    pub files: usize,
    /// Runs per file.
    pub runs_per_file: usize,
    /// Average bytes of extra solver output (comment lines) per log.
    pub log_padding: usize,
    /// bzip2 level for the XML files (1–9).
    pub bzip2_level: u32,
}

impl Default for SynthSpec {
    fn default() -> Self {
        SynthSpec {
            seed: 1,
            files: 10,
            runs_per_file: 20,
            log_padding: 100,
            bzip2_level: 9,
        }
    }
}

/// What was generated.
#[derive(Debug)]
pub struct SynthOutput {
    /// The records ingestion must produce (canonical order), with the manifest.
    pub expected: Vec<IngestRecord>,
    /// The manifest (also written to `manifest.json`).
    pub manifest: Manifest,
    /// The result XML files written.
    pub xml_files: Vec<PathBuf>,
}

/// SplitMix64: small, fast, deterministic.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const TRACKS: [Track; 5] = [
    Track::SingleQuery,
    Track::Incremental,
    Track::UnsatCore,
    Track::ModelValidation,
    Track::ProofExhibition,
];

const HEADER_SEP: &str =
    "\n\n\n--------------------------------------------------------------------------------\n\n\n";

/// One generated run: its XML columns and log, and the expected record.
pub(crate) struct Run {
    pub(crate) name: String,
    pub(crate) columns: Vec<(&'static str, String, bool)>,
    pub(crate) log: Option<Vec<u8>>,
    pub(crate) expected: IngestRecord,
}

/// One run of `track` on `file` (task `task`, rundefinition `rundef`, log
/// member below `prefix`), drawn from the track's scenarios. With `status`
/// `Some((sat, wrong))` (the benchmark is sat or unsat), a sat or unsat
/// answer agrees with it except in `wrong` of 1000, as real solvers mostly
/// do; `None` draws the answer at random.
#[allow(clippy::too_many_arguments)]
pub(crate) fn make_run(
    rng: &mut Rng,
    spec: &SynthSpec,
    track: Track,
    file: &Smt2File,
    task: &str,
    rundef: &str,
    prefix: &str,
    base: IngestRecord,
    status: Option<(bool, u64)>,
) -> Run {
    let mut e = base;
    let scenarios: u64 = match track {
        Track::Incremental => 6,
        _ => 12,
    };
    let mut sc = rng.below(scenarios);
    if let Some((sat, wrong_per_mille)) = status
        && track != Track::Incremental
        && sc <= 3
    {
        let wrong = rng.below(1000) < wrong_per_mille;
        sc = if sat != wrong { 0 } else { 2 };
    }
    let cpu = format!("{}.{:09}s", rng.below(1200), rng.below(1_000_000_000));
    let wall = (rng.below(1_200_000_000) as f64) / 1e6 + 1e-7;
    let wall_s = format!("{wall:?}s");
    let mem = 1_000_000 + rng.below(15_000_000_000);
    let mut cols: Vec<(&'static str, String, bool)> = Vec::new();
    let mut body = String::new();
    let mut status = String::new();
    let mut category = "error";
    let mut rc: Option<i32> = Some(0);
    let mut sig: Option<i32> = None;
    let mut term: Option<&str> = None;
    let mut aborted = false;
    let header_len = |log_head: &str| log_head.len();
    let sat = |t: Track| match t {
        Track::ModelValidation => {
            "sat\n(\n  (define-fun x () Int 3)\n  (define-fun |y z| () Bool true)\n)\n".to_string()
        }
        Track::ProofExhibition => {
            "; run solver\n; checking proof\nsat\nproofsize=10\ncompressedsize=8\n".into()
        }
        _ => "sat\n".into(),
    };
    if track == Track::Incremental {
        let mut d = IncrementalData::default();
        match sc {
            0 | 1 => {
                let n = 1 + rng.below(5);
                for i in 0..n {
                    let t = (i + 1) as f64 * 0.125;
                    let _ = write!(
                        body,
                        "{}\ntime {t:.6}\nunknown\n",
                        if i % 2 == 0 { "sat" } else { "unsat" }
                    );
                    d.last_answer_time = Some(t);
                }
                d.correct = n;
                status = "done".into();
                category = "missing";
                e.answer = RunAnswer::Done;
            }
            2 => {
                body =
                    "sat\ntime 0.500000\nWRONG solver response: got sat, expected unsat\n".into();
                d.correct = 1;
                d.last_answer_time = Some(0.5);
                d.wrong = Some(WrongAnswer {
                    index: 2,
                    got: "sat".into(),
                    expected: "unsat".into(),
                });
                status = "ERROR (2)".into();
                rc = Some(2);
                e.answer = RunAnswer::Done;
            }
            3 => {
                body = "unsat\ntime 0.250000\n".into();
                d.correct = 1;
                d.last_answer_time = Some(0.25);
                status = "TIMEOUT".into();
                rc = None;
                sig = Some(9);
                term = Some("cputime");
                e.answer = RunAnswer::Timeout;
            }
            4 => {
                body = "sat\ntime 0.200000\nBAD response: unexpected EOF\n".into();
                d.correct = 1;
                d.last_answer_time = Some(0.2);
                d.bad = Some("BAD response: unexpected EOF".into());
                status = "ERROR (1)".into();
                rc = Some(1);
                e.answer = RunAnswer::Error;
                e.error = Some("trace executor: BAD response: unexpected EOF".into());
            }
            _ => {
                status = "OUT OF MEMORY".into();
                rc = None;
                sig = Some(9);
                term = Some("memory");
                e.answer = RunAnswer::Memout;
            }
        }
        e.incremental = Some(d);
    } else {
        match sc {
            0 | 1 => {
                body = sat(track);
                status = "true".into();
                category = "correct";
                e.answer = RunAnswer::Sat;
            }
            2 | 3 => {
                body = match track {
                    Track::UnsatCore => "unsat\n(smtcomp1 |smtcomp 2| smtcomp1)\n".into(),
                    Track::ProofExhibition => {
                        "; run solver\n; checking proof\nvalid\nsteps=12\nholes=0\nproofsize=345\ncompressedsize=\n".into()
                    }
                    _ => "unsat\n".into(),
                };
                status = "false".into();
                category = "correct";
                e.answer = RunAnswer::Unsat;
            }
            4 => {
                body = "unknown\n".into();
                status = "unknown".into();
                category = "unknown";
                e.answer = RunAnswer::Unknown;
            }
            5 => {
                status = "TIMEOUT".into();
                rc = None;
                sig = Some(9);
                term = Some("cputime");
                e.answer = RunAnswer::Timeout;
            }
            6 => {
                body = sat(track);
                status = "TIMEOUT (true)".into();
                rc = None;
                sig = Some(9);
                term = Some("cputime");
                e.answer = RunAnswer::Sat;
                e.limit_hit = Some(Limit::Timeout);
            }
            7 => {
                status = "OUT OF MEMORY".into();
                rc = None;
                sig = Some(9);
                term = Some("memory");
                e.answer = RunAnswer::Memout;
            }
            8 => {
                status = "SEGMENTATION FAULT".into();
                rc = None;
                sig = Some(11);
                e.answer = RunAnswer::Error;
                e.error = Some("segmentation fault (signal 11)".into());
            }
            9 => {
                body = "(error \"unsupported\")\n".into();
                status = "ERROR (3)".into();
                rc = Some(3);
                e.answer = RunAnswer::Error;
                e.error = Some("exit code 3 (status ERROR (3))".into());
            }
            10 if track == Track::UnsatCore => {
                body = "unsat\n(smtcomp1)\n(smtcomp2)\n".into();
                status = "false".into();
                category = "correct";
                e.answer = RunAnswer::Error;
                e.error = Some("2 unsat cores in the output (one expected)".into());
            }
            10 => {
                status = "FAILED".into();
                rc = None;
                term = Some("failed");
                e.answer = RunAnswer::Error;
                e.error = Some("BenchExec could not start the tool (status FAILED)".into());
            }
            _ => {
                aborted = true;
                e.answer = RunAnswer::Error;
                e.error = Some(
                    "BenchExec did not execute the run (no columns; table-generator: aborted)"
                        .into(),
                );
            }
        }
    }
    // Padding: solver chatter as comment lines, after the answer.
    if spec.log_padding > 0 {
        let target = rng.below(2 * spec.log_padding as u64) as usize;
        let mut k = 0;
        while k < target {
            let line = format!(
                "; stats: decisions={} conflicts={} restarts={}\n",
                rng.below(1 << 30),
                rng.below(1 << 20),
                rng.below(1000)
            );
            k += line.len();
            body.push_str(&line);
        }
    }
    let name = task.to_string();
    let log_name = format!("{rundef}.{}.log", task.rsplit('/').next().unwrap_or(task));
    let at = LogRef {
        archive: e
            .log
            .as_ref()
            .map(|l| l.archive.clone())
            .unwrap_or_default(),
        member: format!("{prefix}.logfiles/{log_name}"),
    };
    e.log = None;
    if aborted {
        return Run {
            name,
            columns: Vec::new(),
            log: None,
            expected: e,
        };
    }
    let head = format!(
        "fx-solver --seed 42 'x y' ../benchmarks/{}{HEADER_SEP}",
        file.name
    );
    let log = format!("{head}{body}");
    // Expected track data that depends on the log layout.
    let out = &body;
    let first_line = out
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && *l != "success" && !l.starts_with(';'));
    if track != Track::Incremental && track != Track::ProofExhibition {
        e.output_answer = first_line.map(str::to_string);
    }
    match track {
        Track::UnsatCore if e.answer == RunAnswer::Unsat => {
            e.unsat_core = Some(UnsatCore {
                names: vec!["smtcomp 2".into(), "smtcomp1".into()],
            });
        }
        Track::ModelValidation if e.answer == RunAnswer::Sat => {
            let start = header_len(&head) + "sat\n".len();
            e.model = Some(ModelRef {
                log: at.clone(),
                start: start as u64,
                end: log.len() as u64,
            });
        }
        Track::ProofExhibition => {
            let o = crate::proof::verdict::interpret(out);
            let mut kv = KeyValues::new();
            for (k, v) in o.values.pairs() {
                kv.push(k.clone(), v.clone());
            }
            let verdict = match first_line {
                Some("valid") => ProofVerdict::Valid,
                Some("sat") => ProofVerdict::Sat,
                Some("unknown") => ProofVerdict::Unknown,
                Some(_) => ProofVerdict::Error,
                None => ProofVerdict::Timeout,
            };
            e.proof = Some(ProofData {
                verdict,
                values: kv,
            });
        }
        _ => {}
    }
    e.log = Some(at);
    e.status = Some(status.clone());
    e.category = Some(category.to_string());
    e.cputime = Some(cpu.trim_end_matches('s').parse().expect("generated number"));
    e.walltime = Some(wall);
    e.memory = Some(mem);
    e.exitcode = rc;
    e.exitsignal = sig;
    e.terminationreason = term.map(str::to_string);
    cols.push(("cputime", cpu.clone(), false));
    cols.push(("host", format!("worker{:02}", rng.below(40)), false));
    cols.push(("memory", format!("{mem}B"), false));
    cols.push(("status", status, false));
    cols.push(("walltime", wall_s, false));
    cols.push(("blkio-read", "0B".into(), true));
    cols.push(("blkio-write", "4096B".into(), true));
    cols.push(("category", category.into(), true));
    cols.push(("cpuCores", "0,1,2,3".into(), true));
    cols.push(("cputime-cpu0", cpu, true));
    if let Some(s) = sig {
        cols.push(("exitsignal", s.to_string(), true));
    }
    cols.push(("memoryNodes", "0".into(), true));
    if let Some(r) = rc {
        cols.push(("returnvalue", r.to_string(), true));
    }
    cols.push(("starttime", "2025-06-01T12:00:00.123456+00:00".into(), true));
    if let Some(t) = term {
        cols.push(("terminationreason", t.into(), true));
    }
    cols.push(("vcloud-outerwalltime", "1.5s".into(), true));
    Run {
        name,
        columns: cols,
        log: Some(log.into_bytes()),
        expected: e,
    }
}

fn write_file(
    dir: &Path,
    index: usize,
    spec: &SynthSpec,
    comp: &Competition,
) -> std::io::Result<(PathBuf, Vec<IngestRecord>, Vec<ManifestRun>)> {
    let mut rng = Rng(spec.seed ^ (index as u64).wrapping_mul(0x1000_0000_01B3));
    let track = TRACKS[index % TRACKS.len()];
    let solver = format!("Solver{}", (index / TRACKS.len()) % 7);
    let rundef = format!("{solver},0,{track}");
    let bench = format!("{solver}_{track}_{index}");
    let prefix = format!("{bench}.2025-06-01_12-00-00");
    let sub = dir.join(&bench);
    std::fs::create_dir_all(&sub)?;
    let xml_name = format!("{prefix}.results.{rundef}.task.xml.bz2");
    let zip_name = format!("{prefix}.logfiles.zip");
    let logics: Vec<Logic> = comp
        .track(track)
        .map(|t| t.logics().cloned().collect())
        .unwrap_or_default();
    let mut runs = Vec::with_capacity(spec.runs_per_file);
    let mut manifest = Vec::with_capacity(spec.runs_per_file);
    for j in 0..spec.runs_per_file {
        let logic = if logics.is_empty() {
            Logic::new("QF_BV")
        } else {
            logics[rng.below(logics.len() as u64) as usize].clone()
        };
        let file = Smt2File {
            incremental: track == Track::Incremental,
            logic: logic.clone(),
            family: vec![
                format!("2025{:04}-fam{}", rng.below(10_000), rng.below(5)),
                "sub".into(),
            ],
            name: format!("b{index}_{j}.smt2"),
        };
        let lib_task = format!("tasks/{}.yml", file.path());
        let task = format!("../{lib_task}");
        let mut base = IngestRecord::new(format!("{bench}/{xml_name}"), task.clone());
        base.rundefinition = Some(rundef.clone());
        base.solver = solver.clone();
        base.participation = Some(0);
        base.track = Some(track);
        base.division = comp
            .track(track)
            .and_then(|t| t.division_of(logic.as_str()))
            .cloned();
        base.logic = Some(logic.clone());
        base.benchmark_key = file.path();
        base.benchmark = Some(file.clone());
        base.log = Some(LogRef {
            archive: format!("{bench}/{zip_name}"),
            member: String::new(),
        });
        manifest.push(ManifestRun {
            benchmark_definition: format!("{bench}.xml"),
            rundefinition: rundef.clone(),
            task: lib_task,
            solver: solver.clone(),
            participation: 0,
            track,
            division: base
                .division
                .clone()
                .unwrap_or_else(|| crate::model::Division::new("none")),
            logic,
            benchmark: file.clone(),
        });
        runs.push(make_run(
            &mut rng, spec, track, &file, &task, &rundef, &prefix, base, None,
        ));
    }
    let xml_path = sub.join(&xml_name);
    write_result_xml(
        &xml_path,
        &bench,
        &format!("{rundef}.task"),
        &solver,
        &runs,
        spec,
    )?;
    write_log_zip(&sub.join(&zip_name), runs.iter())?;
    Ok((
        xml_path,
        runs.into_iter().map(|r| r.expected).collect(),
        manifest,
    ))
}

/// Writes the result XML (bzip2) of `runs` of rundefinition `name` of the
/// benchmark definition `bench` run with `solver`'s tool-info module.
pub(crate) fn write_result_xml(
    xml_path: &Path,
    bench: &str,
    name: &str,
    solver: &str,
    runs: &[Run],
    spec: &SynthSpec,
) -> std::io::Result<()> {
    let f = std::fs::File::create(xml_path)?;
    let mut w = std::io::BufWriter::with_capacity(
        1 << 16,
        bzip2::write::BzEncoder::new(f, bzip2::Compression::new(spec.bzip2_level)),
    );
    writeln!(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?>")?;
    writeln!(
        w,
        "<!DOCTYPE result PUBLIC '+//IDN sosy-lab.org//DTD BenchExec result 3.12//EN' 'https://www.sosy-lab.org/benchexec/result-3.12.dtd'>"
    )?;
    writeln!(
        w,
        "<result benchmarkname=\"{}\" block=\"task\" cpuCores=\"4\" date=\"2025-06-01 12:00:00 \" generator=\"BenchExec 3.35\" memlimit=\"16000000000B\" name=\"{}\" options=\"\" starttime=\"2025-06-01T12:00:00\" timelimit=\"1200s\" tool=\"SMT-COMP\" toolmodule=\"tools.{}\" version=\"1.0\">",
        crate::util::escape::xml(bench),
        crate::util::escape::xml(name),
        crate::util::escape::xml(&solver.to_lowercase())
    )?;
    writeln!(
        w,
        "  <columns>\n    <column title=\"status\"/>\n    <column title=\"cputime\"/>\n    <column title=\"walltime\"/>\n  </columns>"
    )?;
    writeln!(
        w,
        "  <systeminfo hostname=\"worker01\">\n    <os name=\"Linux\"/>\n    <cpu cores=\"8\" model=\"Intel Xeon\"/>\n    <ram size=\"33000000000B\"/>\n  </systeminfo>"
    )?;
    for r in runs {
        let n = crate::util::escape::xml(&r.name);
        if r.columns.is_empty() {
            writeln!(
                w,
                "  <run expectedVerdict=\"true\" files=\"[{n}]\" name=\"{n}\" properties=\"smt\" propertyFile=\"../properties/SMT.prp\"/>"
            )?;
            continue;
        }
        writeln!(
            w,
            "  <run expectedVerdict=\"true\" files=\"[{n}]\" name=\"{n}\" properties=\"smt\" propertyFile=\"../properties/SMT.prp\">"
        )?;
        for (t, v, hidden) in &r.columns {
            if *hidden {
                writeln!(
                    w,
                    "    <column hidden=\"true\" title=\"{t}\" value=\"{}\"/>",
                    crate::util::escape::xml(v)
                )?;
            } else {
                writeln!(
                    w,
                    "    <column title=\"{t}\" value=\"{}\"/>",
                    crate::util::escape::xml(v)
                )?;
            }
        }
        writeln!(w, "  </run>")?;
    }
    writeln!(
        w,
        "  <column title=\"cputime\" value=\"1234.5s\"/>\n</result>"
    )?;
    w.into_inner().map_err(|e| e.into_error())?.finish()?;
    Ok(())
}

/// Writes the log ZIP of `runs` (every run with a log, under its member name).
pub(crate) fn write_log_zip<'r>(
    path: &Path,
    runs: impl Iterator<Item = &'r Run>,
) -> std::io::Result<()> {
    let zf = std::fs::File::create(path)?;
    let mut z = zip::ZipWriter::new(std::io::BufWriter::new(zf));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for r in runs {
        if let Some(log) = &r.log {
            let member = r
                .expected
                .log
                .as_ref()
                .map(|l| l.member.clone())
                .unwrap_or_default();
            z.start_file(member, opts).map_err(std::io::Error::other)?;
            z.write_all(log)?;
        }
    }
    z.finish().map_err(std::io::Error::other)?;
    Ok(())
}

/// Writes the synthetic result set into `dir` (one subdirectory per result
/// file, plus `manifest.json`). Files are written in parallel.
pub fn generate(dir: &Path, spec: &SynthSpec, comp: &Competition) -> std::io::Result<SynthOutput> {
    std::fs::create_dir_all(dir)?;
    let parts: Vec<_> = (0..spec.files)
        .into_par_iter()
        .map(|i| write_file(dir, i, spec, comp))
        .collect::<std::io::Result<_>>()?;
    let mut expected = Vec::new();
    let mut runs = Vec::new();
    let mut xml_files = Vec::new();
    for (x, e, m) in parts {
        xml_files.push(x);
        expected.extend(e);
        runs.extend(m);
    }
    crate::formats::runtable::sort_records(&mut expected);
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        runs,
    };
    crate::formats::datafile::write_json(&dir.join("manifest.json"), &manifest)
        .map_err(std::io::Error::other)?;
    Ok(SynthOutput {
        expected,
        manifest,
        xml_files,
    })
}
