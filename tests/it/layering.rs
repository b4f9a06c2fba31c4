//! The layering test: every module of `src/` sits on a layer, and a module
//! may only use (`crate::x`, `super::x` reaching another top-level module)
//! modules of lower layers. An upward edge, an edge between two modules of the
//! same layer, or a cycle fails the test with the file and line of the `use`.
//! The layers are those of `docs/architecture.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. The helper crates (`smtlib`, `executor`, `proof`,
/// re-exported at the crate root) are below every layer.
const LAYERS: &[&[&str]] = &[
    &["smtlib", "executor", "proof"],
    &["model"],
    &["util"],
    &["formats"],
    &["diag"],
    &["submission", "benchmarks"],
    &["select"],
    &["prepare"],
    &["archives"],
    &["benchexec"],
    &["ingest"],
    &["validate"],
    &["scoring"],
    &["report"],
    &["pipeline"],
    &["demo", "testsolver", "workspace"],
    &["cli"],
];

/// One `crate::X` reference: in which file, on which line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    from: String,
    to: String,
    file: PathBuf,
    line: usize,
}

/// The top-level module a file under `src/` belongs to (`src/ingest/xml.rs` ->
/// `ingest`, `src/diag.rs` -> `diag`); `None` for the crate root files.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "lib" | "main" | "bin" => None,
        _ => Some(name.to_string()),
    }
}

/// Every `crate::<module>` reference in the Rust files below `src`, outside
/// comments.
fn edges(src: &Path) -> Vec<Edge> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    for file in files {
        let Some(from) = module_of(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(at) = rest.find("crate::") {
                let after = &rest[at + "crate::".len()..];
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // `$crate::` in macros and `smtcomp_x::crate` never occur; a
                // preceding identifier character means another path.
                let before = rest[..at].chars().last();
                if after.starts_with('{') {
                    // Keep the scan simple and complete: one path per module.
                    out.push(Edge {
                        from: from.clone(),
                        to: "{grouped crate import: write one `use crate::module::...` per module}"
                            .to_string(),
                        file: file.clone(),
                        line: i + 1,
                    });
                } else if !name.is_empty()
                    && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                    && name != from
                {
                    out.push(Edge {
                        from: from.clone(),
                        to: name,
                        file: file.clone(),
                        line: i + 1,
                    });
                }
                rest = after;
            }
        }
    }
    out
}

/// The violations of `layers` by `edges`: unknown modules, upward and
/// same-layer edges, and cycles.
fn violations(edges: &[Edge], layers: &[&[&str]]) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (*m, i)))
        .collect();
    let mut out = BTreeSet::new();
    for e in edges {
        let (Some(&from), Some(&to)) = (layer_of.get(e.from.as_str()), layer_of.get(e.to.as_str()))
        else {
            let unknown = if layer_of.contains_key(e.from.as_str()) {
                &e.to
            } else {
                &e.from
            };
            out.insert(format!(
                "{}:{}: module `{unknown}` is on no layer (add it to the layering test and docs/architecture.md)",
                e.file.display(),
                e.line
            ));
            continue;
        };
        if to > from {
            out.insert(format!(
                "{}:{}: `{}` (layer {from}) uses `{}` (layer {to}): upward edge",
                e.file.display(),
                e.line,
                e.from,
                e.to
            ));
        } else if to == from {
            out.insert(format!(
                "{}:{}: `{}` uses `{}` on the same layer {from}",
                e.file.display(),
                e.line,
                e.from,
                e.to
            ));
        }
    }
    // Cycles among modules (caught above too when the layers are right; this
    // also names them when two modules were put on the wrong layers).
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in edges {
        graph.entry(&e.from).or_default().insert(&e.to);
    }
    for cycle in cycles(&graph) {
        out.insert(format!("cycle: {}", cycle.join(" -> ")));
    }
    out.into_iter().collect()
}

/// The cycles of `graph`, each as a path starting and ending at its smallest module.
fn cycles<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut found = BTreeSet::new();
    for &start in graph.keys() {
        // Depth-first search for paths back to `start` through larger modules only.
        let mut stack: Vec<(&str, Vec<&str>)> = vec![(start, vec![start])];
        while let Some((node, path)) = stack.pop() {
            for &next in graph.get(node).into_iter().flatten() {
                if next == start {
                    let mut c = path.clone();
                    c.push(start);
                    found.insert(c);
                } else if next > start && !path.contains(&next) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push((next, p));
                }
            }
        }
    }
    found.into_iter().collect()
}

#[test]
fn the_crate_has_no_upward_edge_and_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = edges(&src);
    assert!(all.len() > 100, "the scan found only {} edges", all.len());
    let bad = violations(&all, LAYERS);
    assert!(bad.is_empty(), "layering violations:\n{}", bad.join("\n"));
    // Every top-level module is on a layer.
    let on_layer: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    for entry in std::fs::read_dir(&src).unwrap() {
        let p = entry.unwrap().path();
        if let Some(m) = module_of(&src, &p) {
            assert!(on_layer.contains(m.as_str()), "module `{m}` is on no layer");
        }
    }
}

#[test]
fn a_fixture_with_an_upward_edge_and_a_cycle_fails() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("low")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod low; pub mod high;\n").unwrap();
    std::fs::write(
        src.join("low/mod.rs"),
        "// crate::high in a comment does not count\nuse crate::high::Thing;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("high.rs"),
        "use crate::low::Other;\npub struct Thing;\n",
    )
    .unwrap();
    let e = edges(&src);
    assert_eq!(e.len(), 2, "{e:?}");
    let bad = violations(&e, &[&["low"], &["high"]]);
    assert_eq!(bad.len(), 2, "{bad:#?}");
    assert!(
        bad.iter()
            .any(|v| v.contains("low/mod.rs:2") && v.contains("upward edge")),
        "{bad:#?}"
    );
    assert!(
        bad.iter().any(|v| v == "cycle: high -> low -> high"),
        "{bad:#?}"
    );
    // Same layer, and a module on no layer.
    let bad = violations(&e, &[&["low", "high"]]);
    assert!(bad.iter().any(|v| v.contains("same layer")), "{bad:#?}");
    let bad = violations(&e, &[&["low"]]);
    assert!(
        bad.iter().any(|v| v.contains("`high` is on no layer")),
        "{bad:#?}"
    );
    // A clean fixture passes.
    std::fs::write(src.join("low/mod.rs"), "pub struct Other;\n").unwrap();
    assert!(violations(&edges(&src), &[&["low"], &["high"]]).is_empty());
}

/// The file-level imports inside each folder of `src` (`super::x` and
/// `crate::<folder>::x` naming a sibling file `x.rs`, also inside grouped
/// imports); `mod.rs` is the folder itself, not a node.
fn sibling_edges(src: &Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.into_path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .filter(|p| p.file_name().is_some_and(|n| n != "mod.rs"))
            .collect();
        files.sort();
        let names: BTreeSet<String> = files
            .iter()
            .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
            .collect();
        let folder = dir
            .strip_prefix(src)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('/', "::");
        let prefixes: Vec<String> = if folder.is_empty() {
            vec![]
        } else {
            vec!["super::".to_string(), format!("crate::{folder}::")]
        };
        for file in &files {
            let me = file.file_stem().unwrap().to_str().unwrap().to_string();
            let code: String = std::fs::read_to_string(file)
                .unwrap()
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            for prefix in &prefixes {
                let mut rest = code.as_str();
                while let Some(at) = rest.find(prefix.as_str()) {
                    let before = rest[..at].chars().last();
                    let after = &rest[at + prefix.len()..];
                    rest = after;
                    if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                        continue;
                    }
                    let mut targets = Vec::new();
                    if let Some(group) = after.strip_prefix('{') {
                        let mut depth = 0;
                        let mut item = String::new();
                        for c in group.chars() {
                            match c {
                                '{' => depth += 1,
                                '}' if depth == 0 => break,
                                '}' => depth -= 1,
                                ',' if depth == 0 => {
                                    targets.push(std::mem::take(&mut item));
                                    continue;
                                }
                                _ => {}
                            }
                            item.push(c);
                        }
                        targets.push(item);
                    } else {
                        targets.push(after.to_string());
                    }
                    for t in targets {
                        let name: String = t
                            .trim_start()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if name != me && names.contains(&name) {
                            out.push((folder.clone(), me.clone(), name));
                        }
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn no_two_files_of_a_folder_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = sibling_edges(&src);
    assert!(
        edges.len() > 50,
        "the scan found only {} edges",
        edges.len()
    );
    let mut bad = Vec::new();
    let folders: BTreeSet<&str> = edges.iter().map(|(f, _, _)| f.as_str()).collect();
    for folder in folders {
        let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (f, from, to) in &edges {
            if f == folder {
                graph.entry(from).or_default().insert(to);
            }
        }
        for c in cycles(&graph) {
            bad.push(format!(
                "src/{}: {}",
                folder.replace("::", "/"),
                c.join(" -> ")
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "import circles between files:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_sibling_scan_sees_grouped_and_qualified_imports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("f")).unwrap();
    std::fs::write(src.join("f/mod.rs"), "mod a; mod b; mod c;\n").unwrap();
    std::fs::write(
        src.join("f/a.rs"),
        "use super::{b::X, c};\n// super::c in a comment\n",
    )
    .unwrap();
    std::fs::write(src.join("f/b.rs"), "fn g() { crate::f::a::h(); }\n").unwrap();
    std::fs::write(src.join("f/c.rs"), "use super::Thing;\n").unwrap();
    let e = sibling_edges(&src);
    let want = [("f", "a", "b"), ("f", "a", "c"), ("f", "b", "a")]
        .map(|(x, y, z)| (x.to_string(), y.to_string(), z.to_string()));
    assert_eq!(e, want);
}
