//! `smtcomp generate` on the 2025 data (43 real submissions, a selection of the
//! 2025 inventory): every definition follows BenchExec's DTD rules;
//! task files and scripts are valid; bad names and arguments are rejected early.

use crate::support::{data, root, work_dir};
use quick_xml::events::Event;
use smtcomp::benchexec::{GenerateOptions, Manifest, SolverLocation, generate};
use smtcomp::model::{Competition, Status, Track};
use smtcomp::prepare::{PreparedBenchmark, PreparedSet};
use smtcomp::submission::load_set;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

/// A prepared set with up to `n` benchmarks per logic and track (empty files).
fn prepare_selection(dest: &Path, n: usize) {
    let inv = data::inventory_2025();
    let comp = Competition::builtin(2025).unwrap();
    for track in [
        Track::SingleQuery,
        Track::UnsatCore,
        Track::ModelValidation,
        Track::Parallel,
        Track::Incremental,
    ] {
        let mut per_logic: BTreeMap<String, usize> = BTreeMap::new();
        let mut benchmarks = Vec::new();
        let mut add = |file: &smtcomp::benchmarks::Smt2File,
                       status: Status,
                       expected: Option<Vec<Status>>| {
            if comp
                .track(track)
                .unwrap()
                .division_of(file.logic.as_str())
                .is_none()
            {
                return;
            }
            let k = per_logic
                .entry(file.logic.as_str().to_string())
                .or_default();
            if *k >= n {
                return;
            }
            *k += 1;
            let path = format!("{}/scrambled{}.smt2", file.logic, benchmarks.len() + 1);
            let p = PreparedSet::track_dir(dest, track).join(&path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "").unwrap();
            benchmarks.push(PreparedBenchmark {
                path,
                original: file.clone(),
                status,
                expected,
                count: 1,
                heat: None,
            });
        };
        if track == Track::Incremental {
            for b in &inv.incremental {
                add(
                    &b.file,
                    Status::Incremental,
                    Some(vec![Status::Sat; b.check_sats as usize]),
                );
            }
        } else {
            for b in &inv.non_incremental {
                let keep = match track {
                    Track::UnsatCore => b.status == Status::Unsat,
                    Track::ModelValidation => {
                        b.status == Status::Sat && b.file.logic.as_str().starts_with("QF_")
                    }
                    _ => true,
                };
                if keep {
                    add(&b.file, b.status, None);
                }
            }
        }
        benchmarks.sort_by(|a, b| a.path.cmp(&b.path));
        let set = PreparedSet {
            track,
            year: 2025,
            seed: 0,
            method: "test".into(),
            benchmarks,
            failures: vec![],
        };
        set.write(dest).unwrap();
    }
}

#[test]
fn generation_for_2025_follows_the_dtd_rules() {
    let work = work_dir("gen2025");
    let prepared = work.path().join("prepared");
    prepare_selection(&prepared, 5);
    let comp = Competition::builtin(2025).unwrap();
    let out = work.path().join("ex");
    let start = Instant::now();
    let loaded = load_set(&[root().join("tests/data/submissions-2025")], &comp);
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    assert_eq!(subs.len(), 43);
    let opts = GenerateOptions {
        prepared: prepared.clone(),
        out: out.clone(),
        test: false,
        location: SolverLocation::default(),
        binaries_from: None,
        max_tasks: None,
        check_binaries: false,
        skip_divisions: Default::default(),
    };
    let g = generate(&comp, &subs, &opts).unwrap_or_else(|e| panic!("{e:#?}"));
    let elapsed = start.elapsed();
    println!(
        "generated {} definitions, {} tasks in {elapsed:?}",
        g.manifest.definitions.len(),
        g.tasks
    );
    assert!(
        g.manifest.definitions.len() > 300,
        "{}",
        g.manifest.definitions.len()
    );

    let m = Manifest::read(&out).unwrap();
    // `generate` returns the manifest without its tasks (not kept in memory).
    assert_eq!(m.tasks.len(), g.tasks);
    assert!(g.manifest.tasks.is_empty());
    let mut head = m.clone();
    head.tasks.clear();
    assert_eq!(head, g.manifest);
    let tracks: BTreeSet<Track> = m.definitions.values().map(|d| d.track).collect();
    for t in [
        Track::SingleQuery,
        Track::Incremental,
        Track::UnsatCore,
        Track::ModelValidation,
        Track::Parallel,
    ] {
        assert!(tracks.contains(&t), "no {t} definitions");
    }
    // Names with spaces, '+' and parentheses become file-name-safe slugs.
    assert_eq!(m.solvers["SMTS (32 cores)"], "SMTS_32_cores");
    assert!(
        m.definitions.contains_key("iProver_v3.9.3_QF_Equality.xml")
            || m.definitions
                .keys()
                .any(|k| k.starts_with("iProver_v3.9.3"))
    );
    for (file, d) in &m.definitions {
        check_definition(&out.join("definitions").join(file), d.rundefinitions.len());
        if d.track != Track::Parallel {
            assert_eq!(
                d.cpu_model.as_deref(),
                Some("Intel Xeon E3-1230 v5 @ 3.40 GHz"),
                "{file}"
            );
        }
    }
    for (path, t) in m.tasks.iter().step_by(37) {
        check_task(&out.join(path), t.expected_verdict);
    }
    for script in ["run-local.sh", "run-vcloud.sh"] {
        bash_syntax(&out.join(script));
    }
    // The VerifierCloud script: every definition but Parallel/Cloud (no worker
    // offers 128 cores), and no container image unless one is asked for.
    let vcloud = std::fs::read_to_string(out.join("run-vcloud.sh")).unwrap();
    let parallel = m
        .definitions
        .values()
        .filter(|d| matches!(d.track, Track::Parallel | Track::Cloud))
        .count();
    assert!(parallel > 0);
    for d in m.definitions.values() {
        let listed = vcloud.contains(&d.path);
        assert_eq!(
            listed,
            !matches!(d.track, Track::Parallel | Track::Cloud),
            "{}",
            d.path
        );
    }
    assert!(
        vcloud.contains("IMAGE=${SMTCOMP_DOCKER_IMAGE:-}\n"),
        "{vcloud}"
    );
    // The streamed, per-definition-compressed runs manifest is exactly the runs
    // of the manifest, and every definition's tool module was written and names
    // its solver and the archives of the definition's participations.
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(
            std::fs::File::open(out.join("runs-manifest.json.gz")).unwrap(),
        ),
        &mut text,
    )
    .unwrap();
    assert_eq!(text, serde_json::to_string(&m.runs()).unwrap() + "\n");
    for d in m.definitions.values() {
        let t = &m.tools[&d.tool_module];
        assert_eq!(t.solver, d.solver);
        let py = std::fs::read_to_string(
            out.join("tools")
                .join(format!("{}.py", d.tool_module.trim_start_matches("tools."))),
        )
        .unwrap();
        assert!(
            py.contains(&format!("from tools import {} as _base", t.base)),
            "{py}"
        );
        // 2025 Incremental: the trace executor continues after `unknown`.
        assert_eq!(
            py.contains("CONTINUE_AFTER_UNKNOWN = True"),
            d.track == Track::Incremental,
            "{py}"
        );
        for rd in d.rundefinitions.values() {
            let a = rd.archive.as_ref().unwrap();
            assert!(t.program_files.contains(a), "{}: {a}", d.tool_module);
            assert!(py.contains(&serde_json::to_string(a).unwrap()), "{py}");
        }
    }
    // The container scripts of Incremental runs pass the flag too.
    let mut incremental_scripts = 0;
    for e in std::fs::read_dir(out.join("docker")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        if text.contains("helper smtcomp-trace-executor") {
            incremental_scripts += 1;
            assert!(
                text.contains("--times --continue-after-unknown --"),
                "{text}"
            );
        }
    }
    assert!(incremental_scripts > 0);
}

/// Heats and `--max-tasks`: Single Query's selection in two heats and at most 3
/// tasks per definition give `<definition>_heatH[_partK].xml` files; together they
/// hold every run of the unsplit generation exactly once, each part only tasks of
/// its heat, listed one by one (includes that exist), and ingestion's runs
/// manifest follows.
#[test]
fn heats_and_large_definitions_are_split_covering_every_run_once() {
    let work = work_dir("genparts");
    let prepared = work.path().join("prepared");
    prepare_selection(&prepared, 5);
    let mut sq = PreparedSet::read(&prepared, Track::SingleQuery).unwrap();
    for (i, b) in sq.benchmarks.iter_mut().enumerate() {
        b.heat = Some(1 + (i % 2) as u32);
    }
    sq.write(&prepared).unwrap();
    let comp = Competition::builtin(2025).unwrap();
    let loaded = load_set(&[root().join("tests/data/submissions-2025")], &comp);
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    let make = |name: &str, max| {
        let out = work.path().join(name);
        let opts = GenerateOptions {
            prepared: prepared.clone(),
            out: out.clone(),
            test: false,
            location: SolverLocation::default(),
            binaries_from: None,
            max_tasks: max,
            check_binaries: false,
            skip_divisions: Default::default(),
        };
        generate(&comp, &subs, &opts).unwrap_or_else(|e| panic!("{e:#?}"));
        // The written manifest (the returned one has no tasks).
        let m = Manifest::read(&out).unwrap();
        (out, m)
    };
    let key = |r: &smtcomp::ingest::ManifestRun| {
        (
            r.solver.clone(),
            r.track,
            r.division.clone(),
            r.rundefinition.clone(),
            r.task.clone(),
        )
    };
    let (_, whole) = make("whole", Some(usize::MAX));
    let (out, parts) = make("parts", Some(3));
    let all: BTreeSet<_> = whole.runs().runs.iter().map(key).collect();
    let split_runs = parts.runs().runs;
    let split: BTreeSet<_> = split_runs.iter().map(key).collect();
    assert_eq!(split_runs.len(), split.len(), "a run in two parts");
    assert_eq!(split, all);
    assert!(parts.definitions.len() > whole.definitions.len());
    let mut heats = BTreeSet::new();
    for (file, d) in &parts.definitions {
        let tasks = parts.definition_tasks(d);
        assert!(tasks.len() <= 3, "{file}: {} tasks", tasks.len());
        let per_rd: usize = d.rundefinitions.values().map(|r| r.tasks).sum();
        let listed: usize = d
            .rundefinitions
            .values()
            .map(|r| {
                tasks
                    .iter()
                    .filter(|(_, t)| r.logics.contains(&t.logic))
                    .count()
            })
            .sum();
        assert_eq!(per_rd, listed, "{file}");
        if d.track == Track::SingleQuery {
            let sel = d
                .selection
                .as_ref()
                .unwrap_or_else(|| panic!("{file}: no selection"));
            let h = sel.heat.unwrap();
            heats.insert(h);
            assert!(file.contains(&format!("_heat{h}")), "{file}");
            assert!(tasks.iter().all(|(_, t)| t.heat == Some(h)), "{file}");
            let text = std::fs::read_to_string(out.join(&d.path)).unwrap();
            for (path, _) in &tasks {
                assert!(
                    text.contains(&format!("<include>../{path}</include>")),
                    "{text}"
                );
            }
            check_definition(&out.join(&d.path), d.rundefinitions.len());
        } else if d.selection.is_none() {
            assert!(whole.definitions.contains_key(file), "{file}");
        }
    }
    assert_eq!(heats, BTreeSet::from([1, 2]));
    let (path, _) = parts
        .tasks
        .iter()
        .find(|(_, t)| t.track == Track::SingleQuery)
        .unwrap();
    let yml = std::fs::read_to_string(out.join(path)).unwrap();
    assert!(yml.contains("    heat: "), "{yml}");
}

/// BenchExec's benchmark DTD, as rules: elements, attributes, units, texts.
fn check_definition(path: &Path, rundefinitions: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let dir = path.parent().unwrap();
    let allowed: BTreeMap<&str, (&[&str], &[&str])> = BTreeMap::from([
        (
            "benchmark",
            (
                &[
                    "tool",
                    "displayName",
                    "memlimit",
                    "timelimit",
                    "walltimelimit",
                    "hardtimelimit",
                    "cpuCores",
                    "threads",
                ][..],
                &[
                    "rundefinition",
                    "option",
                    "propertyfile",
                    "tasks",
                    "requiredfiles",
                    "resultfiles",
                    "require",
                    "columns",
                ][..],
            ),
        ),
        (
            "rundefinition",
            (
                &["name"][..],
                &["tasks", "option", "propertyfile", "requiredfiles"][..],
            ),
        ),
        (
            "tasks",
            (
                &["name"][..],
                &[
                    "include",
                    "includesfile",
                    "exclude",
                    "excludesfile",
                    "append",
                    "withoutfile",
                    "option",
                    "propertyfile",
                    "requiredfiles",
                ][..],
            ),
        ),
        ("option", (&["name"][..], &[][..])),
        ("propertyfile", (&["expectedverdict"][..], &[][..])),
        ("include", (&[][..], &[][..])),
        ("resultfiles", (&[][..], &[][..])),
        (
            "require",
            (&["cpuModel", "cpuCores", "memory"][..], &[][..]),
        ),
        ("columns", (&[][..], &["column"][..])),
        ("column", (&["title", "numberOfDigits"][..], &[][..])),
    ]);
    let time = regex::Regex::new(r"^[1-9][0-9]* ?(s|min|h|d)?$").unwrap();
    let mem = regex::Regex::new(r"^[1-9][0-9]* ?(B|kB|MB|GB|TB)$").unwrap();
    let mut reader = quick_xml::Reader::from_str(&text);
    let mut stack: Vec<String> = Vec::new();
    let mut names = BTreeSet::new();
    let mut buf = String::new();
    let ctx = path.display();
    loop {
        let ev = reader
            .read_event()
            .unwrap_or_else(|e| panic!("{ctx}: not well-formed: {e}"));
        let (start, empty) = match &ev {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name = e.name().0.to_string();
            let (attrs, _) = allowed
                .get(name.as_str())
                .unwrap_or_else(|| panic!("{ctx}: unknown element <{name}>"));
            match stack.last() {
                None => assert_eq!(name, "benchmark", "{ctx}: root"),
                Some(parent) => assert!(
                    allowed[parent.as_str()].1.contains(&name.as_str()),
                    "{ctx}: <{name}> in <{parent}>"
                ),
            }
            let mut values = BTreeMap::new();
            for a in e.attributes() {
                let a = a.unwrap();
                let k = a.key.0.to_string();
                assert!(attrs.contains(&k.as_str()), "{ctx}: <{name} {k}>");
                values.insert(
                    k,
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap()
                        .into_owned(),
                );
            }
            if name == "benchmark" {
                assert!(values.contains_key("tool"), "{ctx}: no tool");
                for k in ["timelimit", "walltimelimit", "hardtimelimit"] {
                    if let Some(v) = values.get(k) {
                        assert!(time.is_match(v), "{ctx}: {k}={v}");
                    }
                }
                assert!(mem.is_match(&values["memlimit"]), "{ctx}: memlimit");
                values["cpuCores"].parse::<u32>().unwrap();
            }
            if name == "require" {
                assert!(mem.is_match(&values["memory"]), "{ctx}: require memory");
            }
            if name == "rundefinition" {
                let n = values.get("name").cloned().unwrap_or_default();
                assert!(
                    !n.is_empty() && names.insert(n.clone()),
                    "{ctx}: rundefinition name '{n}'"
                );
            }
            if empty {
                assert!(
                    !["option", "include", "propertyfile"].contains(&name.as_str()),
                    "{ctx}: empty <{name}/>"
                );
            } else {
                stack.push(name);
                buf.clear();
            }
        }
        match ev {
            Event::Text(t) => buf.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => {
                let s: &str = r.as_ref();
                buf.push_str(match s {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "?",
                });
            }
            Event::End(_) => {
                let name = stack.pop().unwrap();
                match name.as_str() {
                    "option" => assert!(!buf.is_empty(), "{ctx}: empty option"),
                    "include" | "propertyfile" => {
                        assert!(
                            !buf.is_empty() && buf.trim() == buf,
                            "{ctx}: <{name}> text '{buf}'"
                        );
                        let target = dir.join(&buf);
                        if name == "include" {
                            let d = target.parent().unwrap();
                            // A logic's pattern, or (a split definition) one task file.
                            assert!(
                                (buf.ends_with("/*.yml") && d.is_dir())
                                    || (buf.ends_with(".yml") && target.is_file()),
                                "{ctx}: include {buf}"
                            );
                        } else {
                            assert!(target.is_file(), "{ctx}: propertyfile {buf}");
                        }
                    }
                    _ => {}
                }
                buf.clear();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(names.len(), rundefinitions, "{ctx}");
}

/// A task YAML: the generated-file header, version string, existing input
/// file, the shared property file.
fn check_task(path: &Path, verdict: Option<bool>) {
    let text = std::fs::read_to_string(path).unwrap();
    let dir = path.parent().unwrap();
    assert!(
        text.starts_with(
            "# Generated by `smtcomp generate`; do not edit (regenerate instead).\nformat_version: \"2.0\"\n"
        ),
        "{}",
        path.display()
    );
    let input = text
        .lines()
        .find_map(|l| l.strip_prefix("input_files: '"))
        .unwrap();
    let input = input.strip_suffix('\'').unwrap().replace("''", "'");
    assert!(dir.join(&input).is_file(), "{}: {input}", path.display());
    let prp = text
        .lines()
        .find_map(|l| l.strip_prefix("  - property_file: "))
        .unwrap();
    assert!(
        dir.join(prp).ends_with("tasks/SMT.prp")
            || std::fs::canonicalize(dir.join(prp))
                .unwrap()
                .ends_with("tasks/SMT.prp")
    );
    match verdict {
        Some(v) => assert!(text.contains(&format!("    expected_verdict: {v}\n"))),
        None => assert!(!text.contains("expected_verdict")),
    }
}

fn bash_syntax(path: &Path) {
    let o = std::process::Command::new("bash")
        .arg("-n")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn submission(name: &str, command: &str) -> String {
    format!(
        r#"{{"name": {}, "contributors": ["A"], "contacts": ["A <a@b.org>"],
  "archive": {{"url": "https://example.org/s.zip"}}, "website": "https://example.org",
  "system_description": "https://example.org", "command": {command},
  "solver_type": "Standalone", "participations": [{{"tracks": ["SingleQuery", "Incremental"], "logics": "QF_.*"}}],
  "seed": 1, "competitive": false, "final": false}}"#,
        serde_json::to_string(name).unwrap()
    )
}

fn generate_with(subs: &[(&str, String)]) -> (std::process::Output, tempfile::TempDir) {
    generate_with_args(subs, &[])
}

fn generate_with_args(
    subs: &[(&str, String)],
    extra: &[&str],
) -> (std::process::Output, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let sdir = tmp.path().join("subs");
    std::fs::create_dir_all(&sdir).unwrap();
    for (file, text) in subs {
        std::fs::write(sdir.join(file), text).unwrap();
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_smtcomp"))
        .arg("--competition")
        .arg(root().join("demo/competition.toml"))
        .arg("generate")
        // The hand-made submissions are about names and commands, not teams:
        // their divisions may be non-competitive (skipped by default).
        .arg("--include-non-competitive")
        .arg("--submissions")
        .arg(&sdir)
        .arg("--prepared")
        .arg(root().join("tests/data/prepared-demo"))
        .arg("--out")
        .arg(tmp.path().join("ex"))
        // No archives here: what is generated, not whether the solvers are there.
        .arg("--no-binary-check")
        .args(extra)
        .output()
        .unwrap();
    (o, tmp)
}

/// `generate --copy-binaries` puts every helper binary BenchExec's runs need
/// into `EXECDIR/bin/`, byte for byte the ones next to the program (or the
/// static builds of `scripts/build-helpers` in `target/helpers/` when all of
/// them are there), executable.
#[test]
fn copy_binaries_ships_every_helper() {
    use std::os::unix::fs::PermissionsExt;
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_smtcomp")).parent().unwrap();
    let helpers = smtcomp::benchexec::HELPER_BINARIES;
    if helpers.iter().any(|b| !exe_dir.join(b).is_file()) {
        panic!(
            "helper binaries missing in {}: run `cargo build --workspace` first",
            exe_dir.display()
        );
    }
    let static_dir = exe_dir.join("../helpers");
    let from = if helpers.iter().all(|b| static_dir.join(b).is_file()) {
        static_dir
    } else {
        exe_dir.to_path_buf()
    };
    let (o, tmp) = generate_with_args(
        &[("s.json", submission("S", r#"["bin/s"]"#))],
        &["--copy-binaries"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bin = tmp.path().join("ex/bin");
    for b in helpers {
        let got = bin.join(b);
        assert_eq!(
            std::fs::read(&got).unwrap(),
            std::fs::read(from.join(b)).unwrap(),
            "{b} differs from {}",
            from.display()
        );
        let mode = std::fs::metadata(&got).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{b} not executable: {mode:o}");
    }
    // Without the flag, nothing is copied.
    let (o, tmp) = generate_with(&[("s.json", submission("S", r#"["bin/s"]"#))]);
    assert!(o.status.success());
    assert!(!tmp.path().join("ex/bin").join(helpers[0]).exists());
}

#[test]
fn hostile_solver_names_give_valid_files_and_scripts() {
    let name = "a<&\"' /b  c";
    let (o, tmp) = generate_with(&[(
        "h.json",
        submission(name, r#"["bin/my solver", "--x=it's \"q\" <&>"]"#),
    )]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ex = tmp.path().join("ex");
    let m = Manifest::read(&ex).unwrap();
    assert_eq!(m.solvers[name], "a_b_c");
    assert!(!m.definitions.is_empty());
    for (file, d) in &m.definitions {
        assert!(file.starts_with("a_b_c"), "{file}");
        let p = ex.join("definitions").join(file);
        check_definition(&p, d.rundefinitions.len());
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.contains("displayName=\"a&lt;&amp;&quot;&apos; /b  c "),
            "{text}"
        );
        assert!(
            text.contains("<option>archives/a_b_c/bin/my solver</option>"),
            "{text}"
        );
        assert!(
            text.contains("<option>--x=it&apos;s &quot;q&quot; &lt;&amp;&gt;</option>"),
            "{text}"
        );
    }
    for e in std::fs::read_dir(ex.join("docker")).unwrap() {
        bash_syntax(&e.unwrap().path());
    }
    bash_syntax(&ex.join("run-local.sh"));
    bash_syntax(&ex.join("run-vcloud.sh"));
}

#[test]
fn bad_commands_and_colliding_names_are_rejected_naming_the_solver() {
    for (cmd, why) in [
        (r#"["z3", ""]"#, "empty argument"),
        (r#"["z3", "$HOME/x"]"#, "BenchExec replaces"),
        (r#"["z3", "~/x"]"#, "home directory"),
    ] {
        let (o, tmp) = generate_with(&[("s.json", submission("my solver", cmd))]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains("solver 'my solver'") && err.contains(why),
            "{cmd}: {err}"
        );
        assert!(!tmp.path().join("ex/manifest.json").exists());
    }
    let (o, _tmp) = generate_with(&[
        ("a.json", submission("x y", r#"["z3"]"#)),
        ("b.json", submission("x/y", r#"["z3"]"#)),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("'x y'") && err.contains("'x/y'"), "{err}");
}

/// `generate --json`: the numbers of the text line, and one entry per
/// definition whose runs add up to the total.
#[test]
fn generate_json_reconciles_with_the_text_line() {
    let subs = [("s.json", submission("S", r#"["bin/s"]"#))];
    let (o, tmp) = generate_with_args(&subs, &["--json"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "exec",
            "definitions",
            "tasks",
            "runs",
            "warnings",
            "per_definition"
        ]
    );
    assert_eq!(v["exec"], tmp.path().join("ex").display().to_string());
    let defs = v["per_definition"].as_array().unwrap();
    assert_eq!(v["definitions"], defs.len());
    let runs: u64 = defs.iter().map(|d| d["runs"].as_u64().unwrap()).sum();
    assert_eq!(v["runs"], runs);
    for d in defs {
        assert_eq!(d["solver"], "S", "{d}");
        assert!(
            tmp.path()
                .join("ex")
                .join(d["path"].as_str().unwrap())
                .is_file(),
            "{d}"
        );
    }
    // The same generation without --json prints the same numbers as text.
    let (o, tmp) = generate_with_args(&subs, &[]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "{}: {} definitions, {} tasks, {} runs\n",
            tmp.path().join("ex").display(),
            v["definitions"],
            v["tasks"],
            v["runs"]
        )
    );
}
