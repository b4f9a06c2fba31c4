//! The VerifierCloud path up to the client boundary: `smtcomp generate` (solvers in
//! unpacked archives, helper binaries copied), then the generated `run-vcloud.sh`
//! with BenchExec's own `contrib/vcloud-benchmark.py` (from its source distribution,
//! fetched by `scripts/install-deps`) and a stand-in for the Java client
//! (`tests/support/vcloud-client/java`) that records each run collection and runs it
//! as a cloud worker would: in a sandbox holding only the uploaded files.
//!
//! Asserted: every run's command line, uploaded files and limits against the
//! manifest; BenchExec's results agree with the corpus and ingestion accounts for
//! every run through the runs manifest; and (negative case) a tool-info module that
//! does not upload the solver's archive is caught.
//!
//! Needs `benchexec`, `z3`, `yices-smt2`, `cvc5`, `cvc4`, the helper binaries
//! (`cargo build --workspace`) and `$SMTCOMP_TOOLS/benchexec-3.35/contrib`; fails
//! when one is missing and `SMTCOMP_REQUIRE_SOLVERS=1`, else prints "skipped: ...".

use crate::support::benchexec::{normalize, read_result_runs};
use crate::support::{copy_tree, require_tool, root, work_dir};
use smtcomp::benchexec::Manifest;
use smtcomp::model::{Status, Track};
use std::path::{Path, PathBuf};
use std::process::Command;

fn contrib() -> Option<PathBuf> {
    let tools = std::env::var_os("SMTCOMP_TOOLS").map_or_else(
        || {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".local/share/smtcomp-tools")
        },
        PathBuf::from,
    );
    let c = tools.join("benchexec-3.35/contrib");
    if c.join("vcloud-benchmark.py").is_file() {
        return Some(c);
    }
    if std::env::var("SMTCOMP_REQUIRE_SOLVERS").is_ok_and(|v| v == "1") {
        panic!("{}: missing (scripts/install-deps fetches it)", c.display());
    }
    eprintln!("skipped: {} missing", c.display());
    None
}

fn copy_exe(from: &Path, to: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `EXECDIR/run-vcloud.sh [DEFS...]` with the client stand-in; returns
/// (success, output).
fn run_vcloud(ex: &Path, client: &Path, record: &Path, defs: &[&str]) -> (bool, String) {
    let path = format!(
        "{}:{}",
        root().join("tests/support/vcloud-client").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new(ex.join("run-vcloud.sh"))
        .args(defs)
        .current_dir(ex)
        .env("PATH", path)
        .env("VCLOUD_BENCHMARK", client.join("vcloud-benchmark.py"))
        .env("SMTCOMP_DOCKER_IMAGE", "")
        .env("VCLOUD_STANDIN_RECORD", record)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

#[test]
fn vcloud_client_uploads_what_every_run_needs() {
    let mut solvers = Vec::new();
    for tool in ["benchexec", "z3", "yices-smt2", "cvc5", "cvc4"] {
        match require_tool(tool) {
            Some(p) => solvers.push(p),
            None => return,
        }
    }
    let Some(contrib) = contrib() else { return };
    let smtcomp = crate::support::smtcomp_bin();
    let helpers = smtcomp.parent().unwrap();
    for h in smtcomp::benchexec::HELPER_BINARIES {
        assert!(
            helpers.join(h).is_file(),
            "{}: missing; run `cargo build --workspace` first",
            helpers.join(h).display()
        );
    }
    let work = work_dir("vcloud");
    let prepared = work.path().join("prepared");
    copy_tree(&root().join("tests/data/prepared-demo"), &prepared);
    let subs = work.path().join("submissions");
    copy_tree(&root().join("demo/submissions"), &subs);
    let ex = work.path().join("ex");
    // The unpacked archives: the real solver binaries (self-contained), and cvc5's
    // Proof Exhibition scripts.
    for (slug, bin, from) in [
        ("z3", "z3", &solvers[1]),
        ("Yices_2", "yices-smt2", &solvers[2]),
        ("cvc5", "cvc5", &solvers[3]),
        ("CVC4_1.8", "cvc4", &solvers[4]),
    ] {
        copy_exe(from, &ex.join("archives").join(slug).join(bin));
    }
    for f in ["smtcomp_solver", "smtcomp_checker"] {
        copy_exe(
            &root().join("demo/archives/cvc5").join(f),
            &ex.join("archives/cvc5").join(f),
        );
    }
    // (Before generate, which checks that every run's binary is there.)
    let o = Command::new(&smtcomp)
        .arg("--competition")
        .arg(root().join("demo/competition.toml"))
        .args(["generate", "--copy-binaries", "--submissions"])
        .arg(&subs)
        .arg("--prepared")
        .arg(&prepared)
        .arg("--out")
        .arg(&ex)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // BenchExec's client, with the Ivy jar present (the stand-in does its retrieval).
    let client = work.path().join("contrib");
    std::fs::create_dir_all(client.join("vcloud/lib")).unwrap();
    std::fs::copy(
        contrib.join("vcloud-benchmark.py"),
        client.join("vcloud-benchmark.py"),
    )
    .unwrap();
    for e in std::fs::read_dir(contrib.join("vcloud")).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), client.join("vcloud").join(e.file_name())).unwrap();
        }
    }
    std::fs::write(client.join("vcloud/lib/ivy-2.5.0.jar"), b"").unwrap();

    let record = work.path().join("requests");
    let (ok, out) = run_vcloud(&ex, &client, &record, &[]);
    assert!(ok, "run-vcloud.sh failed:\n{out}");
    println!("{out}");

    let m = Manifest::read(&ex).unwrap();
    let requests = records(&record);
    assert_eq!(
        requests.len(),
        m.definitions.len(),
        "one run collection per definition"
    );
    // The collections come in the order of the run script (manifest order).
    for ((file, d), req) in m.definitions.iter().zip(&requests) {
        let ctx = format!("{file}: {req}");
        assert_eq!(req["problems"], serde_json::json!([]), "{ctx}");
        let l = d.limits;
        let limits = &req["limits"];
        assert_eq!(
            limits["cputime_s"],
            u64::from(l.time_s) * u64::from(l.cores),
            "{ctx}"
        );
        assert_eq!(limits["walltime_s"], l.time_s, "{ctx}");
        assert_eq!(limits["memory_mb"], l.memory_mb, "{ctx}");
        assert_eq!(limits["cores"], l.cores, "{ctx}");
        assert_eq!(req["requirements"]["cpu_cores"], l.cores, "{ctx}");
        assert_eq!(req["requirements"]["memory_mb"], l.memory_mb, "{ctx}");
        let runs: usize = d.rundefinitions.values().map(|r| r.tasks).sum();
        assert_eq!(limits["runs"], runs, "{ctx}");
        assert_eq!(req["lines_and_priority"][1], "URGENT", "{ctx}");
        let args: Vec<&str> = req["client_args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(
            args.windows(2).any(|w| w == ["--cgroupAccess", "True"]),
            "{ctx}"
        );
        assert_eq!(
            req["result_files"],
            smtcomp::benchexec::result_files_pattern(d.track),
            "{ctx}"
        );
        // Uploaded: the executable and every participation's archive.
        let uploads: Vec<&str> = req["tool_paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let exec_rel = |p: &str| format!("ex/{p}");
        let executable = match d.track {
            Track::Incremental => "bin/smtcomp-trace-executor".to_string(),
            Track::ProofExhibition => "bin/smtcomp-proof-wrapper".to_string(),
            _ => d.rundefinitions.values().next().unwrap().command[0].clone(),
        };
        assert!(uploads.contains(&exec_rel(&executable).as_str()), "{ctx}");
        for rd in d.rundefinitions.values() {
            let archive = rd.archive.as_deref().unwrap();
            assert!(uploads.contains(&exec_rel(archive).as_str()), "{ctx}");
        }
        // Every run: the executable, the participation's command, the benchmark
        // (its own uploaded file), never an absolute path.
        let req_runs = req["runs"].as_array().unwrap();
        assert_eq!(req_runs.len(), runs, "{ctx}");
        for r in req_runs {
            let argv: Vec<&str> = r["argv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            assert!(argv.iter().all(|a| !a.starts_with('/')), "{ctx}: {argv:?}");
            let (name, rd) = d
                .rundefinitions
                .iter()
                .find(|(name, _)| r["log"].as_str().unwrap().starts_with(&format!("{name}.")))
                .unwrap_or_else(|| panic!("{ctx}: run {} of no rundefinition", r["log"]));
            let bench = *argv
                .iter()
                .find(|a| a.ends_with(".smt2"))
                .unwrap_or_else(|| panic!("{ctx}: {argv:?}: no benchmark"));
            let files: Vec<&str> = r["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            let bench_rel = bench.trim_start_matches("../");
            assert!(
                files.iter().any(|f| f.ends_with(bench_rel)),
                "{ctx}: {files:?}"
            );
            let cmd: Vec<&str> = rd.command.iter().map(String::as_str).collect();
            let expected: Vec<&str> = match d.track {
                Track::Incremental => {
                    [&[executable.as_str(), "--times", "--"][..], &cmd, &[bench]].concat()
                }
                Track::ProofExhibition => {
                    let dir = argv[6];
                    assert!(dir.starts_with("proofs/"), "{ctx}: {argv:?}");
                    let proof = format!("{dir}/proof.txt");
                    let checker = format!("{}/smtcomp_checker", rd.archive.as_deref().unwrap());
                    let v: Vec<String> = [
                        executable.as_str(),
                        "--total-budget",
                        &l.time_s.to_string(),
                        "--proof-file",
                        &proof,
                        bench,
                        dir,
                        "--solver",
                    ]
                    .iter()
                    .map(|s| s.to_string())
                    .chain(cmd.iter().map(|s| s.to_string()))
                    .chain(["--".to_string(), "--checker".to_string(), checker])
                    .collect();
                    assert_eq!(
                        argv,
                        v.iter().map(String::as_str).collect::<Vec<_>>(),
                        "{ctx} {name}"
                    );
                    continue;
                }
                _ => [&cmd[..], &[bench]].concat(),
            };
            assert_eq!(argv, expected, "{ctx} {name}");
        }
    }

    // BenchExec read the results back: every run with a status agreeing with the corpus.
    let mut checked = 0;
    for d in m.definitions.values() {
        let dir = ex.join(&d.results_dir);
        for (rd_name, rd) in &d.rundefinitions {
            let file = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .ends_with(&format!(".results.{rd_name}.xml.bz2"))
                })
                .unwrap_or_else(|| panic!("{}: no result file for {rd_name}", dir.display()));
            let runs = read_result_runs(&file);
            assert_eq!(runs.len(), rd.tasks, "{}", file.display());
            for run in runs {
                let task = normalize(&dir, &run.name);
                let key = task.strip_prefix(&ex).unwrap().display().to_string();
                let t = &m.tasks[&key];
                let status = run.columns.get("status").map(String::as_str);
                let ctx = format!("{} {rd_name} {key}: {:?}", d.path, run.columns);
                let want = match (d.track, t.status) {
                    (Track::Incremental, _) => "done",
                    (_, Status::Sat) => "true",
                    (_, Status::Unsat) => "false",
                    (_, s) => panic!("{ctx}: unexpected status {s}"),
                };
                assert_eq!(status, Some(want), "{ctx}");
                if d.track == Track::ProofExhibition {
                    assert_eq!(
                        run.columns.get("proof").map(String::as_str),
                        Some("valid"),
                        "{ctx}"
                    );
                }
                checked += 1;
            }
        }
    }
    // 4 solvers x 5 Single Query tasks, x (2 incremental + 2 unsat-core + 2 model-validation),
    // 1 proof (cvc5).
    assert_eq!(checked, 4 * 5 + 4 * 6 + 1);
    let o = Command::new(&smtcomp)
        .arg("--competition")
        .arg(root().join("demo/competition.toml"))
        .arg("ingest")
        .arg(ex.join("results"))
        .arg("--manifest")
        .arg(ex.join("runs-manifest.json.gz"))
        .arg("-o")
        .arg(work.path().join("runs.jsonl"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "ingest: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    // A second call deletes nothing and runs nothing: every definition has results.
    let before = crate::support::tree(&ex.join("results"));
    let (ok, out) = run_vcloud(&ex, &client, &record, &[]);
    assert!(ok, "{out}");
    assert_eq!(
        out.matches("kept, skipped").count(),
        m.definitions.len(),
        "{out}"
    );
    assert_eq!(crate::support::tree(&ex.join("results")), before);

    // Negative case: a tool-info module that does not name the archive (as the
    // generic modules did): the client uploads only the executable, and the run
    // that needs the checker next to the solver script is caught.
    let proof = m
        .definitions
        .iter()
        .find(|(_, d)| d.track == Track::ProofExhibition)
        .unwrap();
    let module = proof.1.tool_module.trim_start_matches("tools.");
    let path = ex.join("tools").join(format!("{module}.py"));
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("PROGRAM_FILES") {
                "    PROGRAM_FILES = ()"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(broken, text);
    std::fs::write(&path, broken + "\n").unwrap();
    std::fs::remove_dir_all(ex.join(&proof.1.results_dir)).unwrap();
    let record2 = work.path().join("requests-broken");
    let (_, out) = run_vcloud(&ex, &client, &record2, &[proof.0.as_str()]);
    let req = &records(&record2)[0];
    let problems = req["problems"].to_string();
    assert!(
        problems.contains("archives/cvc5/smtcomp_solver, which was not uploaded"),
        "{problems}\n{out}"
    );
    let uploads = req["tool_paths"].to_string();
    assert!(!uploads.contains("archives"), "{uploads}");
}
