//! The static results site (`smtcomp::report`): the replayed 2025 Incremental
//! track and a synthetic demo competition are rendered; every HTML page and SVG
//! plot must parse as XML (no unclosed or mismatched tag), the numbers of the
//! pages must equal the scoring output, solver names are escaped, the XSLT
//! output of the scores XML (xsltproc) shows the same tables as the Rust pages,
//! and headless Chromium loads a division page and screenshots it.

use crate::support::data::{inventory_2025, results_inc_2025};
use crate::support::solvers::HANG_WATCHDOG;
use crate::support::{require_tool, root};
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use smtcomp::benchmarks::{Inventory, Smt2File};
use smtcomp::model::{Answer, Competition, Logic, Track};
use smtcomp::report::{self, TrackReport};
use smtcomp::scoring::{self, Kind, Policy, ScoredRun};
use smtcomp::submission::load_set;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The 2025 Incremental track report (computed once per binary).
fn incremental() -> TrackReport {
    static REPORT: OnceLock<TrackReport> = OnceLock::new();
    REPORT.get_or_init(compute_incremental).clone()
}

fn compute_incremental() -> TrackReport {
    let comp = Competition::builtin(2025).unwrap();
    let inv = inventory_2025();
    let subs = load_set(&[root().join("tests/data/submissions-2025")], &comp);
    let runs: Vec<ScoredRun> = results_inc_2025()
        .results
        .iter()
        .map(ScoredRun::from_record)
        .collect();
    let (input, _) = scoring::build_input(&comp, Track::Incremental, &subs, inv, runs);
    TrackReport::compute(input, &Policy::rules())
}

const EVIL: &str = "<script>alert(1)</script>&\"'";

/// The demo competition and submissions, with a synthetic run set: three logics,
/// 12 benchmarks each, and one solver renamed to a hostile name.
fn demo() -> TrackReport {
    let comp = Competition::from_path(&root().join("demo/competition.toml")).unwrap();
    let subs = load_set(&[root().join("demo/submissions")], &comp);
    let mut runs = Vec::new();
    let solvers = ["z3", "cvc5", "Yices 2", "CVC4 (1.8)"];
    for logic in ["QF_LIA", "QF_BV", "QF_UF"] {
        for i in 0..12u32 {
            for (k, s) in solvers.iter().enumerate() {
                let seed = (i * 7 + k as u32 * 3) % 11;
                let answer = match seed {
                    0 | 1 => Answer::Timeout,
                    2 => Answer::Unknown,
                    x if x % 2 == 0 => Answer::Sat,
                    _ => Answer::Unsat,
                };
                let t = if answer == Answer::Timeout {
                    10.0
                } else {
                    0.1 + seed as f64 * 0.7
                };
                runs.push(ScoredRun {
                    solver: (*s).into(),
                    track: Track::SingleQuery,
                    file: Smt2File {
                        incremental: false,
                        logic: Logic::new(logic),
                        family: vec!["demo".into()],
                        name: format!("b{i}.smt2"),
                    }
                    .into(),
                    answer,
                    cpu_time: t,
                    wall_time: t,
                    nb_answers: None,
                    last_answer_time: None,
                    answer_at_timeout: None,
                    error: false,
                });
            }
        }
    }
    let (mut input, _) = scoring::build_input(
        &comp,
        Track::SingleQuery,
        &subs,
        &Inventory::default(),
        runs,
    );
    for p in &mut input.participants {
        if p.solver == "CVC4 (1.8)" {
            p.solver = EVIL.into();
        }
        if p.solver == "z3" {
            p.competitive = false;
        }
    }
    for r in &mut input.runs {
        if r.solver == "CVC4 (1.8)" {
            r.solver = EVIL.into();
        }
    }
    TrackReport::compute(input, &Policy::rules())
}

/// Number of distinct benchmarks with runs in `logic`.
fn benchmarks_of(r: &TrackReport, logic: &str) -> usize {
    let files: std::collections::BTreeSet<String> = r
        .input
        .runs
        .iter()
        .filter(|run| run.track == r.input.track && run.file.logic.to_string() == logic)
        .map(|run| run.file.path())
        .collect();
    files.len()
}

/// Parses `text` as XML; panics on any unclosed or mismatched tag.
fn check_xml(path: &Path, text: &str) {
    let mut r = Reader::from_str(text);
    r.config_mut().check_end_names = true;
    let mut depth = 0i64;
    loop {
        match r.read_event() {
            Ok(Event::Start(_)) => depth += 1,
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{}: not well-formed: {e}", path.display()),
        }
    }
    assert_eq!(depth, 0, "{}: unclosed tags", path.display());
}

/// Tables `class="scores"`: (page, group, kind) -> rows of cell texts (header first).
type Tables = BTreeMap<(String, String, String), Vec<Vec<String>>>;

fn score_tables(text: &str, out: &mut Tables) {
    let mut r = Reader::from_str(text);
    let mut cur: Option<(String, String, String)> = None;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut cell: Option<String> = None;
    loop {
        match r.read_event().unwrap() {
            Event::Start(e) => match e.name().as_ref() {
                "table" => {
                    let a = |n: &str| {
                        e.try_get_attribute(n).unwrap().map(|v| {
                            v.normalized_value(XmlVersion::Implicit1_0)
                                .unwrap()
                                .to_string()
                        })
                    };
                    if a("class").as_deref() == Some("scores") {
                        cur = Some((
                            a("data-page").unwrap(),
                            a("data-group").unwrap(),
                            a("data-kind").unwrap(),
                        ));
                        rows.clear();
                    }
                }
                "tr" if cur.is_some() => rows.push(Vec::new()),
                "td" | "th" if cur.is_some() => cell = Some(String::new()),
                _ => {}
            },
            Event::Text(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(g) => {
                if let Some(c) = cell.as_mut() {
                    if let Some(ch) = g.resolve_char_ref().unwrap() {
                        c.push(ch);
                    } else {
                        let name = g.into_inner().to_string();
                        let ch = match name.as_str() {
                            "amp" => "&",
                            "lt" => "<",
                            "gt" => ">",
                            "quot" => "\"",
                            "apos" => "'",
                            other => panic!("unexpected entity {other}"),
                        };
                        c.push_str(ch);
                    }
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "td" | "th" => {
                    if let (Some(c), Some(row)) = (cell.take(), rows.last_mut()) {
                        row.push(c.trim().to_string());
                    }
                }
                "table" => {
                    if let Some(k) = cur.take() {
                        out.insert(k, std::mem::take(&mut rows));
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
}

fn site_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn rust_tables(dir: &Path) -> Tables {
    let mut t = Tables::new();
    for f in site_files(dir) {
        if f.extension().is_some_and(|e| e == "html") {
            score_tables(&std::fs::read_to_string(&f).unwrap(), &mut t);
        }
    }
    t
}

#[test]
fn incremental_site_is_valid_and_matches_scores() {
    let r = incremental();
    let dir = tempfile::tempdir().unwrap();
    let sum = report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let groups = r.scores.groups.len();
    // Site index, track index, 3 rankings, a page per group, and the
    // per-benchmark pages of every logic (one per ROWS_PER_PAGE benchmarks).
    let benchmark_pages: usize = r
        .scores
        .groups
        .iter()
        .filter(|g| !g.is_division)
        .map(|g| {
            benchmarks_of(&r, &g.name)
                .div_ceil(report::ROWS_PER_PAGE)
                .max(1)
        })
        .sum();
    assert_eq!(sum.pages, 1 + 1 + 3 + groups + benchmark_pages);
    let divisions = r.scores.groups.iter().filter(|g| g.is_division).count();
    assert!(sum.plots >= divisions, "one cactus per division at least");
    assert!(sum.to_string().contains("HTML pages"));
    for f in site_files(dir.path()) {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ["html", "svg", "xml", "xsl"].contains(&ext) {
            check_xml(&f, &std::fs::read_to_string(&f).unwrap());
        }
    }
    let tables = rust_tables(&dir.path().join("incremental"));
    // Every podium has its table and every number equals the scoring output.
    let mut n = 0;
    for g in &r.scores.groups {
        for p in &g.podiums {
            let page = if g.is_division { "division" } else { "logic" };
            let rows = &tables[&(page.into(), g.identifier.clone(), p.kind.key().into())];
            assert_eq!(rows.len(), p.steps.len() + 1);
            for (s, row) in p.steps.iter().zip(&rows[1..]) {
                assert_eq!(row[1], s.solver);
                assert_eq!(row[3], s.e.to_string());
                assert_eq!(row[4], s.n.to_string());
                assert_eq!(row[5], format!("{:.2}", s.w), "{} {}", g.name, s.solver);
                assert_eq!(row[6], format!("{:.2}", s.c));
                assert_eq!(row[13], s.memout.to_string());
                n += 1;
            }
        }
    }
    assert!(n > 50, "only {n} rows compared");
    // Units: memory in MB.
    let idx = std::fs::read_to_string(dir.path().join("incremental/index.html")).unwrap();
    assert!(idx.contains("30720 MB") && !idx.contains(" GB"));
    // Non-competitive divisions are badged (QF_FPArith under the rules policy).
    let fp = r
        .scores
        .groups
        .iter()
        .find(|g| g.is_division && !g.competitive);
    if let Some(g) = fp {
        let page = dir.path().join("incremental").join(report::group_file(g));
        assert!(
            std::fs::read_to_string(page)
                .unwrap()
                .contains("non-competitive")
        );
    }
}

#[test]
fn demo_site_escapes_names_and_marks_non_competing() {
    let r = demo();
    let dir = tempfile::tempdir().unwrap();
    let sum = report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    assert!(sum.pages > 5);
    let mut saw_evil = false;
    for f in site_files(dir.path()) {
        let text = std::fs::read_to_string(&f).unwrap();
        // The only script is our sorter (per-benchmark pages), in a CDATA section.
        let ours = text.matches("<script>\n//<![CDATA[").count();
        assert_eq!(
            text.matches("<script").count(),
            ours,
            "{}: unescaped name",
            f.display()
        );
        saw_evil |= text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;");
        if f.extension().is_some_and(|e| e != "png") {
            check_xml(&f, &text);
        }
    }
    assert!(saw_evil, "the hostile solver name appears, escaped");
    let tables = rust_tables(&dir.path().join("single-query"));
    let evil_rows: Vec<&Vec<String>> = tables
        .values()
        .flat_map(|rows| {
            rows.iter()
                .filter(|r| r.get(1).map(String::as_str) == Some(EVIL))
        })
        .collect();
    assert!(!evil_rows.is_empty(), "decoded name round-trips");
    // The non-competing solver is listed, unranked, marked "no".
    for rows in tables.values() {
        for row in rows.iter().filter(|r| r[1] == "z3") {
            assert_eq!((row[0].as_str(), row[2].as_str()), ("-", "no"));
        }
    }
    // Every kind of Single Query has its table on the division pages.
    let div = r.scores.groups.iter().find(|g| g.is_division).unwrap();
    for k in Kind::ALL {
        assert!(tables.contains_key(&("division".into(), div.identifier.clone(), k.key().into())));
    }
}

#[test]
fn xslt_output_matches_rust_pages() {
    let Some(xsltproc) = require_tool("xsltproc") else {
        return;
    };
    for r in [incremental(), demo()] {
        let dir = tempfile::tempdir().unwrap();
        report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
        let track = dir.path().join(r.scores.track.page_suffix());
        let out = Command::new(&xsltproc)
            .arg(track.join("scores.xml"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let html = String::from_utf8(out.stdout).unwrap();
        check_xml(Path::new("xsltproc output"), &html);
        let mut xslt = Tables::new();
        score_tables(&html, &mut xslt);
        let rust = rust_tables(&track);
        assert!(!rust.is_empty());
        assert_eq!(xslt, rust, "XSLT tables differ from the Rust pages");
    }
    // The BenchExec stylesheet renders a result XML.
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("r.xml");
    std::fs::write(
        &xml,
        "<?xml version=\"1.0\"?><result benchmarkname=\"b&amp;\" tool=\"z3\" version=\"4\" \
starttime=\"t\" timelimit=\"10 s\" memlimit=\"2000 MB\"><run name=\"a.smt2\" properties=\"\">\
<column title=\"status\" value=\"sat\"/><column title=\"cputime\" value=\"0.5s\"/></run></result>",
    )
    .unwrap();
    let out = Command::new(&xsltproc)
        .arg(root().join("xsl/benchexec-results.xsl"))
        .arg(&xml)
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    check_xml(Path::new("benchexec xslt"), &html);
    assert!(html.contains("<td class=\"num\">0.5s</td>") && html.contains("b&amp;"));
}

/// Runs chromium with a timeout; kills it on hang.
fn chromium(bin: &Path, args: &[String]) -> (bool, String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > HANG_WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium hung (killed by the watchdog)");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn chromium_loads_division_page_and_screenshots_it() {
    let Some(bin) = require_tool("chromium") else {
        return;
    };
    let r = incremental();
    let dir = tempfile::tempdir().unwrap();
    report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let g = r.scores.group("QF_Bitvec", true).unwrap();
    let page = dir.path().join("incremental").join(report::group_file(g));
    let url = format!("file://{}", page.display());
    let (ok, dom, err) = chromium(&bin, &["--dump-dom".into(), url.clone()]);
    assert!(ok, "chromium failed: {err}");
    assert!(dom.contains("class=\"scores\""), "score table missing");
    assert!(dom.contains("class=\"winners\""), "winners table missing");
    let winner = g.podium(Kind::Parallel).unwrap().winner.clone().unwrap();
    assert!(dom.contains(&winner));
    assert!(!err.contains("CONSOLE"), "console errors: {err}");
    assert!(
        !err.contains("ERR_FILE_NOT_FOUND"),
        "missing resource: {err}"
    );
    let shot_dir = root().join("target/report-test");
    std::fs::create_dir_all(&shot_dir).unwrap();
    let shot = shot_dir.join("division.png");
    let _ = std::fs::remove_file(&shot);
    let (ok, _, err) = chromium(
        &bin,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,1600".into(),
            url,
        ],
    );
    assert!(ok, "chromium screenshot failed: {err}");
    let png = std::fs::read(&shot).unwrap();
    assert!(png.len() > 10_000 && png.starts_with(b"\x89PNG"));
}

#[test]
fn score_format_xml_cli() {
    let out = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args([
            "score",
            "--track",
            "Incremental",
            "--format",
            "xml",
            "--runs",
        ])
        .arg(root().join("tests/data/scoring/results-inc-2025.json.gz"))
        .arg("--inventory")
        .arg(root().join("tests/data/benchmarks-2025.json.gz"))
        .arg("--submissions")
        .arg(root().join("tests/data/submissions-2025"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.contains("<?xml-stylesheet type=\"text/xsl\" href=\"xsl/scores.xsl\"?>"));
    check_xml(Path::new("score --format xml"), &xml);
    // Same document as the site's scores.xml, apart from the stylesheet path.
    let r = incremental();
    let site = report::scores_xml(
        &r.scores,
        r.input.time_limit,
        r.input.memory_mb,
        r.input.year,
        Some("xsl/scores.xsl"),
    );
    assert_eq!(xml, site);
}

/// Every `href`/`src` of a page: `(page, target)` for relative links (no `#`, no scheme).
fn local_links(dir: &Path) -> Vec<(PathBuf, String)> {
    let re = regex::Regex::new(r##"(?:href|src)="([^"#:]+)""##).unwrap();
    let mut out = Vec::new();
    for f in site_files(dir) {
        if f.extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(&f).unwrap();
            for c in re.captures_iter(&text) {
                out.push((f.clone(), c[1].replace("&amp;", "&")));
            }
        }
    }
    out
}

#[test]
fn every_link_of_the_site_resolves_and_every_page_is_reachable() {
    let r = incremental();
    let dir = tempfile::tempdir().unwrap();
    report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let links = local_links(dir.path());
    assert!(links.len() > 500, "only {} links", links.len());
    let mut reached = std::collections::BTreeSet::new();
    for (page, target) in &links {
        let to = page.parent().unwrap().join(target);
        assert!(to.exists(), "{}: broken link {target}", page.display());
        reached.insert(to.canonicalize().unwrap());
    }
    // Every HTML page but the index is the target of some link.
    for f in site_files(dir.path()) {
        if f.extension().is_some_and(|e| e == "html") && f != dir.path().join("index.html") {
            assert!(
                reached.contains(&f.canonicalize().unwrap()),
                "{}: no page links to it",
                f.display()
            );
        }
    }
    // A logic page: crumbs all tracks > track > division > logic (bold), and
    // links to every division and the three rankings.
    let logic = r
        .scores
        .groups
        .iter()
        .find(|g| !g.is_division && g.name != g.division)
        .expect("a division with a logic of another name");
    let page = std::fs::read_to_string(
        dir.path()
            .join("incremental")
            .join(report::group_file(logic)),
    )
    .unwrap();
    let division = r.scores.group(&logic.division, true).unwrap();
    let crumbs = format!(
        "<a href=\"../index.html\">All tracks</a><span class=\"sep\">›</span>\
<a href=\"index.html\">Incremental track</a><span class=\"sep\">›</span>\
<a href=\"{}\">{}</a><span class=\"sep\">›</span><b>{}</b>",
        report::group_file(division),
        division.name,
        logic.name
    );
    assert!(page.contains(&crumbs), "crumbs missing: {page}");
    for d in r.scores.groups.iter().filter(|g| g.is_division) {
        assert!(page.contains(&format!("href=\"{}\"", report::group_file(d))));
    }
    for f in [
        "best-overall.html",
        "biggest-lead.html",
        "largest-contribution.html",
    ] {
        assert!(page.contains(&format!("href=\"{f}\"")));
    }
    assert!(page.contains(&format!("href=\"{}\"", report::benchmarks_file(logic, 0))));
}

#[test]
fn index_names_winners_and_best_overall_lists_division_contributions() {
    let r = incremental();
    let dir = tempfile::tempdir().unwrap();
    report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let index = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(index.contains("<h1>SMT-COMP 2025 results</h1>"));
    assert!(!r.scores.best_overall.is_empty());
    for o in &r.scores.best_overall {
        let w = o.winner.as_ref().map_or("-", |w| w.solver.as_str());
        assert!(
            index.contains(&format!("{}: <b>{w}</b>", o.kind.key())),
            "{}: winner {w} not on the index",
            o.kind.key()
        );
    }
    // Best overall: per kind, every division's contribution, in order.
    let best = std::fs::read_to_string(dir.path().join("incremental/best-overall.html")).unwrap();
    let mut rows = 0;
    for o in &r.scores.best_overall {
        for e in &o.entries {
            assert!(
                best.contains(&format!("{:.4}", e.contribution)),
                "{} {}",
                e.solver,
                e.division
            );
            rows += 1;
        }
        assert!(best.contains(&format!(
            "<table class=\"contributions\" data-kind=\"{}\">",
            o.kind.key()
        )));
    }
    assert!(rows > 10, "{rows} contribution rows");
}

/// Rows of the first `table.sortable` of a page: cell texts, header first.
fn sortable_rows(html: &str) -> Vec<Vec<String>> {
    let start = html
        .find("<table class=\"sortable")
        .expect("a sortable table");
    let end = start + html[start..].find("</table>").unwrap();
    let cell = regex::Regex::new(r"<t[dh][^>]*>([^<]*)</t[dh]>").unwrap();
    html[start..end]
        .split("<tr")
        .skip(1)
        .map(|row| {
            cell.captures_iter(row)
                .map(|c| {
                    c[1].replace("&lt;", "<")
                        .replace("&gt;", ">")
                        .replace("&quot;", "\"")
                        .replace("&#39;", "'")
                        .replace("&amp;", "&")
                })
                .collect()
        })
        .collect()
}

#[test]
fn per_benchmark_table_shows_every_run() {
    let r = demo();
    let dir = tempfile::tempdir().unwrap();
    report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let g = r.scores.group("QF_LIA", false).unwrap();
    let html = std::fs::read_to_string(
        dir.path()
            .join("single-query")
            .join(report::benchmarks_file(g, 0)),
    )
    .unwrap();
    let rows = sortable_rows(&html);
    // Header + 12 benchmarks; columns: benchmark, status, 4 solvers.
    assert_eq!(rows.len(), 13, "{rows:?}");
    assert_eq!(rows[0].len(), 6);
    let col = |solver: &str| rows[0].iter().position(|h| h == solver).unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r[0] == format!("non-incremental/QF_LIA/demo/{name}"))
            .unwrap_or_else(|| panic!("{name} missing: {rows:?}"))
    };
    // demo(): seed = (i*7 + k*3) % 11 with k the solver index (z3 0, cvc5 1, Yices 2 2).
    // b0, z3: seed 0 -> timeout at 10 s.
    assert_eq!(row("b0.smt2")[col("z3")], "timeout 10.00");
    // b1, z3: seed 7 (odd) -> unsat, t = 0.1 + 7*0.7 = 5.0.
    assert_eq!(row("b1.smt2")[col("z3")], "unsat 5.00");
    // b1, cvc5: seed 10 (even) -> sat, t = 0.1 + 10*0.7 = 7.1.
    assert_eq!(row("b1.smt2")[col("cvc5")], "sat 7.10");
    // b0, Yices 2: seed 6 -> sat, t = 4.3; the hostile name is a column, escaped.
    assert_eq!(row("b0.smt2")[col("Yices 2")], "sat 4.30");
    assert!(rows[0].iter().any(|h| h == EVIL));
    // Without JavaScript the rows are in benchmark order.
    let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn chromium_sorts_a_benchmark_table_by_a_click() {
    let Some(bin) = require_tool("chromium") else {
        return;
    };
    let r = demo();
    let dir = tempfile::tempdir().unwrap();
    report::write_site(std::slice::from_ref(&r), dir.path()).unwrap();
    let g = r.scores.group("QF_LIA", false).unwrap();
    let page = dir
        .path()
        .join("single-query")
        .join(report::benchmarks_file(g, 0));
    let html = std::fs::read_to_string(&page).unwrap();
    let rows = sortable_rows(&html);
    let z3 = rows[0].iter().position(|h| h == "z3").unwrap();
    // Click the z3 header once (ascending), as a user would.
    let clicked = html.replace(
        "</body>",
        &format!(
            "<script>document.querySelectorAll('table.sortable th')[{z3}].click();</script>\n</body>"
        ),
    );
    let test_page = page.with_file_name("clicked.html");
    std::fs::write(&test_page, clicked).unwrap();
    let (ok, dom, err) = chromium(
        &bin,
        &[
            "--dump-dom".into(),
            format!("file://{}", test_page.display()),
        ],
    );
    assert!(ok, "chromium failed: {err}");
    assert!(!err.contains("Uncaught"), "script error: {err}");
    let sorted = sortable_rows(&dom);
    assert_eq!(sorted.len(), rows.len());
    // Solved runs first by time, then timeouts, then the rest.
    let times: Vec<f64> = sorted[1..]
        .iter()
        .filter_map(|r| {
            let cell = &r[z3];
            (cell.starts_with("sat") || cell.starts_with("unsat"))
                .then(|| cell.split(' ').nth(1).unwrap().parse().unwrap())
        })
        .collect();
    assert!(times.len() >= 4, "{sorted:?}");
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "not sorted: {times:?}"
    );
    let first_unsolved = sorted[1..]
        .iter()
        .position(|r| !(r[z3].starts_with("sat") || r[z3].starts_with("unsat")))
        .unwrap();
    assert_eq!(
        first_unsolved,
        times.len(),
        "solved rows come first: {sorted:?}"
    );
    // A screenshot of the table for the docs.
    let shot_dir = root().join("target/report-test");
    std::fs::create_dir_all(&shot_dir).unwrap();
    let shot = shot_dir.join("benchmarks.png");
    let _ = std::fs::remove_file(&shot);
    let (ok, _, err) = chromium(
        &bin,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,900".into(),
            format!("file://{}", page.display()),
        ],
    );
    assert!(ok, "chromium screenshot failed: {err}");
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn report_cli_names_the_competition_and_date_and_is_reproducible() {
    let run = |out: &Path, date: &str| {
        assert_cmd::Command::cargo_bin("smtcomp")
            .unwrap()
            .args(["report", "--track", "Incremental", "--date", date, "--runs"])
            .arg(root().join("tests/data/scoring/results-inc-2025.json.gz"))
            .arg("--inventory")
            .arg(root().join("tests/data/benchmarks-2025.json.gz"))
            .arg("--submissions")
            .arg(root().join("tests/data/submissions-2025"))
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for d in [&a, &b] {
        let o = run(d.path(), "2025-08-11");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let page = std::fs::read_to_string(a.path().join("incremental/index.html")).unwrap();
    assert!(page.contains("<header><a href=\"../index.html\">SMT-COMP 2025 results</a></header>"));
    assert!(page.contains(" on 2025-08-11. Times in seconds"));
    let files = site_files(a.path());
    assert_eq!(files.len(), site_files(b.path()).len());
    for f in files {
        let twin = b.path().join(f.strip_prefix(a.path()).unwrap());
        assert!(
            std::fs::read(&f).unwrap() == std::fs::read(&twin).unwrap(),
            "{} differs between two runs",
            f.display()
        );
    }
    let bad = run(a.path(), "11/08/2025");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a date YYYY-MM-DD"));
}

/// `report --selection TRACK=FILE` (issue 18 accounting 4), on the hand-computed
/// Parallel case of `scoring_published_cases::selection_counts_benchmarks_without_runs`:
/// runs SolverA a unsat, b sat; SolverB a timeout; SolverC-cloud none. The union
/// of the Parallel (a, b, c) and Cloud (c, d) selections: N = 4; missing runs:
/// A 2 (c, d), B 3 (b, c, d), C 4 (a, b, c, d), reported on stderr and on the
/// track index; the division page shows N = 4.
#[test]
fn report_selection_counts_and_shows_benchmarks_without_runs() {
    let cases = root().join("tests/data/scoring/published-cases");
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["report", "--track", "Parallel", "--date", "none", "--runs"])
        .arg(cases.join("results-parallel-cases.json"))
        .arg("--inventory")
        .arg(cases.join("inventory.json"))
        .arg("--submissions")
        .arg(cases.join("submissions"))
        .arg("--selection")
        .arg(format!(
            "Parallel={}",
            cases.join("selection-parallel.json").display()
        ))
        .arg("--selection")
        .arg(format!(
            "Parallel={}",
            cases.join("selection-cloud.txt").display()
        ))
        .arg("-o")
        .arg(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for (solver, n) in [("SolverA", 2), ("SolverB", 3), ("SolverC-cloud", 4)] {
        assert!(
            err.contains(&format!(
                "missing: Parallel: {solver}: {n} benchmark(s) without a run"
            )),
            "{solver}: {err}"
        );
    }
    let index = std::fs::read_to_string(dir.path().join("parallel/index.html")).unwrap();
    assert!(index.contains("<h2>Missing runs</h2>"));
    assert!(
        index.contains("<td class=\"name\">SolverB</td><td class=\"name\">3</td>"),
        "{index}"
    );
    let division =
        std::fs::read_to_string(dir.path().join("parallel/division-qf_linearintarith.html"))
            .unwrap();
    assert!(division.contains("benchmarks: <b>4</b>"), "{division}");
    // A selection of a track that is not reported is a usage error.
    let bad = assert_cmd::Command::cargo_bin("smtcomp")
        .unwrap()
        .args(["report", "--track", "Parallel", "--runs"])
        .arg(cases.join("results-parallel-cases.json"))
        .arg("--inventory")
        .arg(cases.join("inventory.json"))
        .arg("--submissions")
        .arg(cases.join("submissions"))
        .arg("--selection")
        .arg(format!(
            "Cloud={}",
            cases.join("selection-cloud.txt").display()
        ))
        .arg("-o")
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("track Cloud is not reported"));
}
