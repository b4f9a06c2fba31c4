//! Model text: reading it from the run logs, parsing it with the project's
//! lexer, checking it against the benchmark's declarations, and substituting
//! it into the benchmark (the check a trusted solver then decides).

use super::sexp::{self, Sexp};
use crate::formats::runtable::{LogRef, ModelRef};
use crate::model::Answer;
use crate::smtlib::{CommandReader, tokenize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest model text validated (bigger ones are UNKNOWN, not read further).
pub const MAX_MODEL_BYTES: usize = 64 << 20;

/// A model that cannot be validated, in the reference tool's vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// `ModelParsingError`, `ModelPartialFunctionMissing`, …
    pub result: Answer,
    /// A human-readable reason.
    pub reason: String,
}

fn parsing(reason: impl Into<String>) -> Problem {
    Problem {
        result: Answer::ModelParsingError,
        reason: reason.into(),
    }
}

/// Why a run's model could not be read from its log.
#[derive(Debug, thiserror::Error)]
pub enum ModelTextError {
    /// The log file (in a log directory) cannot be read.
    #[error("log {}: {source}", path.display())]
    Log {
        /// The log file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The log ZIP cannot be opened.
    #[error("log archive {}: {source}", archive.display())]
    Archive {
        /// The ZIP.
        archive: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The log ZIP is not a readable ZIP.
    #[error("log archive {} is corrupt: {reason}", archive.display())]
    CorruptArchive {
        /// The ZIP.
        archive: PathBuf,
        /// The zip reader's reason.
        reason: String,
    },
    /// The member of the ZIP is missing or cannot be read.
    #[error("log {member} in {}: {reason}", archive.display())]
    Member {
        /// The member's name.
        member: String,
        /// The ZIP.
        archive: PathBuf,
        /// The zip reader's reason.
        reason: String,
    },
    /// The model's byte range lies outside the log.
    #[error("model range {start}..{end} is outside the log {member} ({len} bytes)")]
    Range {
        /// Start of the model.
        start: usize,
        /// End of the model.
        end: usize,
        /// The log's member name.
        member: String,
        /// The log's length.
        len: usize,
    },
}

/// Reads a whole log: `root/<archive>` is a log ZIP (member `member`) or a
/// log directory (file `basename(member)`).
pub fn read_log(root: &Path, log: &LogRef) -> Result<Vec<u8>, ModelTextError> {
    let archive = root.join(&log.archive);
    let limit = crate::ingest::MAX_LOG_BYTES;
    if archive.is_dir() {
        let base = log.member.rsplit('/').next().unwrap_or(&log.member);
        let path = archive.join(base);
        let log_error = |source| ModelTextError::Log {
            path: path.clone(),
            source,
        };
        let f = std::fs::File::open(&path).map_err(log_error)?;
        let mut out = Vec::new();
        f.take(limit + 1).read_to_end(&mut out).map_err(log_error)?;
        return Ok(out);
    }
    thread_local! {
        // The last log ZIP opened by this thread: runs sorted by archive read
        // each central directory once per worker, not once per run.
        static OPEN: std::cell::RefCell<Option<(std::path::PathBuf, zip::ZipArchive<std::fs::File>)>> =
            const { std::cell::RefCell::new(None) };
    }
    OPEN.with(|open| {
        let mut open = open.borrow_mut();
        if open.as_ref().is_none_or(|(p, _)| *p != archive) {
            let f = std::fs::File::open(&archive).map_err(|source| ModelTextError::Archive {
                archive: archive.clone(),
                source,
            })?;
            let z = zip::ZipArchive::new(f).map_err(|e| ModelTextError::CorruptArchive {
                archive: archive.clone(),
                reason: e.to_string(),
            })?;
            *open = Some((archive.clone(), z));
        }
        let (_, z) = open.as_mut().expect("opened above");
        let member_error = |reason: String| ModelTextError::Member {
            member: log.member.clone(),
            archive: archive.clone(),
            reason,
        };
        let entry = z
            .by_name(&log.member)
            .map_err(|e| member_error(e.to_string()))?;
        let mut out = Vec::new();
        entry
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| member_error(e.to_string()))?;
        Ok(out)
    })
}

/// The model bytes of a run from its log (checked against the log's size).
pub fn slice<'a>(log: &'a [u8], m: &ModelRef) -> Result<&'a [u8], ModelTextError> {
    let (s, e) = (m.start as usize, m.end as usize);
    if s > e || e > log.len() {
        return Err(ModelTextError::Range {
            start: s,
            end: e,
            member: m.log.member.clone(),
            len: log.len(),
        });
    }
    Ok(&log[s..e])
}

/// What a model defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The symbols it defines (none for `declare-fun` abstract values).
    pub names: Vec<Vec<u8>>,
    /// Its bytes in the model text.
    pub text: std::ops::Range<usize>,
    /// Whether it declares rather than defines (z3's abstract values).
    pub declaration: bool,
    /// Symbols its body mentions (for ordering definitions).
    pub mentions: Vec<Vec<u8>>,
    /// A `define-fun`'s signature: its parameter sorts and result sort, each
    /// with its whitespace normalised (`(_ BitVec 8)`).
    pub signature: Option<(Vec<String>, String)>,
    /// The sort of its body when the body is a literal: `Bool` (`true`,
    /// `false`), `Int|Real` (a numeral), `Real` (a decimal), `(_ BitVec n)`
    /// (`#b`/`#x`), `String`.
    pub literal_sort: Option<String>,
}

/// A parsed model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Model {
    /// Its items, in model order.
    pub items: Vec<Item>,
    /// Abstract values `(as @v S)` of uninterpreted sorts (cvc5 style):
    /// value name -> sort text. They are declared, pairwise distinct per sort,
    /// in the substituted benchmark.
    pub abstract_values: std::collections::BTreeMap<Vec<u8>, Vec<u8>>,
}

/// Shows at most 80 bytes of `b`, escaped (for messages).
pub fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(&b[..b.len().min(80)]);
    let mut out: String = s.escape_debug().collect();
    if b.len() > 80 {
        out.push('…');
    }
    out
}

fn symbols_in(
    node: &Sexp,
    src: &[u8],
    out: &mut Vec<Vec<u8>>,
    abstract_values: &mut std::collections::BTreeMap<Vec<u8>, Vec<u8>>,
) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.items() {
            Some(items) => {
                if let [a, v, sort] = items
                    && a.symbol(src) == Some(b"as")
                    && let Some(name) = v.symbol(src).filter(|s| s.starts_with(b"@"))
                {
                    abstract_values.insert(name.to_vec(), src[sort.span()].to_vec());
                    continue;
                }
                stack.extend(items.iter())
            }
            None => {
                if let Some(s) = n.symbol(src) {
                    out.push(s.to_vec());
                }
            }
        }
    }
}

/// Parses the output after `sat`: one model, `( item* )` or `(model item*)`,
/// with items `define-fun`, `define-fun-rec`, `define-funs-rec` and z3's
/// abstract-value `declare-fun` (its cardinality `forall`s are skipped).
pub fn parse_model(text: &[u8]) -> Result<Model, Problem> {
    if text.len() > MAX_MODEL_BYTES {
        return Err(parsing(format!(
            "model text is {} bytes (limit {MAX_MODEL_BYTES})",
            text.len()
        )));
    }
    let top = sexp::parse(text, 1).map_err(|e| parsing(format!("model: {e}")))?;
    let Some(first) = top.first() else {
        return Err(parsing("no model after sat"));
    };
    let Some(items) = first.items() else {
        return Err(parsing(format!(
            "expected a model, found `{}`",
            shown(&text[first.span()])
        )));
    };
    if first.head(text) == Some(b"error") {
        return Err(parsing(format!(
            "the solver printed an error instead of a model: {}",
            shown(&text[first.span()])
        )));
    }
    let items = match items.first().and_then(|i| i.symbol(text)) {
        Some(b"model") => &items[1..],
        _ => items,
    };
    let mut model = Model::default();
    for it in items {
        let bad = |why: &str| parsing(format!("{why}: `{}`", shown(&text[it.span()])));
        let parts = it.items().ok_or_else(|| bad("not a definition"))?;
        let head = it.head(text).unwrap_or_default();
        let name_of = |n: Option<&Sexp>| -> Result<Vec<u8>, Problem> {
            n.and_then(|s| s.symbol(text))
                .map(<[u8]>::to_vec)
                .ok_or_else(|| bad("definition without a symbol name"))
        };
        let mut mentions = Vec::new();
        let mut signature = None;
        let mut literal_sort = None;
        let (names, declaration) = match head {
            b"define-fun" | b"define-fun-rec" => {
                if parts.len() != 5 {
                    return Err(bad(
                        "malformed definition (expected name, parameters, sort, body)",
                    ));
                }
                symbols_in(&parts[4], text, &mut mentions, &mut model.abstract_values);
                let params = parts[2]
                    .items()
                    .ok_or_else(|| bad("malformed parameter list"))?
                    .iter()
                    .map(|p| match p.items() {
                        Some([_, sort]) => Ok(normalised(&text[sort.span()])),
                        _ => Err(bad("malformed parameter")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                signature = Some((params, normalised(&text[parts[3].span()])));
                literal_sort = literal_sort_of(&parts[4], text);
                (vec![name_of(parts.get(1))?], false)
            }
            b"define-funs-rec" => {
                let decls = parts
                    .get(1)
                    .and_then(Sexp::items)
                    .ok_or_else(|| bad("malformed define-funs-rec"))?;
                let mut names = Vec::new();
                for d in decls {
                    names.push(name_of(d.items().and_then(|x| x.first()))?);
                }
                (names, false)
            }
            b"declare-fun" | b"declare-const" => (Vec::new(), true),
            b"forall" => continue,
            _ => return Err(bad("unexpected item in model")),
        };
        model.items.push(Item {
            names,
            text: it.span(),
            declaration,
            mentions,
            signature,
            literal_sort,
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    for n in model.items.iter().flat_map(|i| &i.names) {
        if !seen.insert(n) {
            return Err(parsing(format!("`{}` is defined twice", shown(n))));
        }
    }
    Ok(model)
}

/// A sort's text with every run of whitespace one space and none inside
/// parentheses' edges: `( _  BitVec 8 )` -> `(_ BitVec 8)`.
fn normalised(sort: &[u8]) -> String {
    let text = String::from_utf8_lossy(sort);
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    spaced
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(" )", ")")
}

/// The sort of a literal body (see [`Item::literal_sort`]); `None` for any
/// other term.
fn literal_sort_of(body: &Sexp, src: &[u8]) -> Option<String> {
    use crate::smtlib::TokenKind;
    let Sexp::Atom { kind, span } = body else {
        return None;
    };
    let t = &src[span.clone()];
    Some(match kind {
        TokenKind::Symbol if t == b"true" || t == b"false" => "Bool".into(),
        TokenKind::Numeral => "Int|Real".into(),
        TokenKind::Decimal => "Real".into(),
        TokenKind::Binary => format!("(_ BitVec {})", t.len().saturating_sub(2)),
        TokenKind::Hexadecimal => format!("(_ BitVec {})", 4 * t.len().saturating_sub(2)),
        TokenKind::String => "String".into(),
        _ => return None,
    })
}

/// The declared signature (parameter sorts, result sort) of a
/// `declare-fun`/`declare-const` command, normalised as [`normalised`].
fn declared_signature(text: &[u8]) -> Option<(Vec<u8>, Vec<String>, String)> {
    let top = sexp::parse(text, 1).ok()?;
    let parts = top.first()?.items()?;
    let name = parts.get(1)?.symbol(text)?.to_vec();
    match (parts.first()?.symbol(text)?, parts.len()) {
        (b"declare-const", 3) => Some((name, Vec::new(), normalised(&text[parts[2].span()]))),
        (b"declare-fun", 4) => {
            let params = parts[2]
                .items()?
                .iter()
                .map(|s| normalised(&text[s.span()]))
                .collect();
            Some((name, params, normalised(&text[parts[3].span()])))
        }
        _ => None,
    }
}

/// The symbol a `declare-fun`/`declare-const` command declares.
fn declared(text: &[u8]) -> Option<Vec<u8>> {
    let toks = tokenize(text).ok()?;
    let t = toks.get(2)?;
    match t.kind {
        crate::smtlib::TokenKind::Symbol => Some(t.text.clone()),
        crate::smtlib::TokenKind::QuotedSymbol => Some(t.text[1..t.text.len() - 1].to_vec()),
        _ => None,
    }
}

/// Commands kept from the benchmark (everything else, queries and output
/// commands included, is dropped).
fn kept(head: &[u8]) -> bool {
    matches!(
        head,
        b"set-logic"
            | b"set-option"
            | b"declare-sort"
            | b"define-sort"
            | b"declare-datatype"
            | b"declare-datatypes"
            | b"declare-fun"
            | b"declare-const"
            | b"define-fun"
            | b"define-fun-rec"
            | b"define-funs-rec"
            | b"define-const"
            | b"assert"
    )
}

fn is_declaration(head: &[u8]) -> bool {
    matches!(
        head,
        b"set-logic"
            | b"set-option"
            | b"declare-sort"
            | b"define-sort"
            | b"declare-datatype"
            | b"declare-datatypes"
            | b"declare-fun"
            | b"declare-const"
    )
}

/// Model items in an order where every definition follows the definitions it
/// mentions (declarations first; cycles keep model order): at each step the
/// first definition in model order whose dependencies are all placed, or, when
/// none is (a cycle), the first one not yet placed.
///
/// Kahn's algorithm with a min-heap of ready positions: O((n + m) log n) for n
/// definitions mentioning m symbols. (The earlier scan for the first ready
/// definition was quadratic: a 640 KB model whose definitions chain in reverse
/// order took 74 s, before the validator's time limit applied.)
fn ordered(model: &Model) -> Vec<&Item> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let mut out: Vec<&Item> = model.items.iter().filter(|i| i.declaration).collect();
    let defs: Vec<&Item> = model.items.iter().filter(|i| !i.declaration).collect();
    let mut owner: HashMap<&[u8], usize> = HashMap::new();
    for (k, d) in defs.iter().enumerate() {
        for n in &d.names {
            owner.entry(n.as_slice()).or_insert(k);
        }
    }
    let mut waiting = vec![0usize; defs.len()];
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); defs.len()];
    for (k, d) in defs.iter().enumerate() {
        let mut deps: Vec<usize> = d
            .mentions
            .iter()
            .filter(|m| !d.names.contains(m))
            .filter_map(|m| owner.get(m.as_slice()).copied())
            .filter(|&j| j != k)
            .collect();
        deps.sort_unstable();
        deps.dedup();
        waiting[k] = deps.len();
        for j in deps {
            dependents[j].push(k);
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> = (0..defs.len())
        .filter(|&k| waiting[k] == 0)
        .map(Reverse)
        .collect();
    let mut placed = vec![false; defs.len()];
    let mut first_unplaced = 0;
    for _ in 0..defs.len() {
        let k = loop {
            match ready.pop() {
                Some(Reverse(k)) if placed[k] => continue,
                Some(Reverse(k)) => break k,
                None => {
                    // A cycle: the first definition not yet placed.
                    while placed[first_unplaced] {
                        first_unplaced += 1;
                    }
                    break first_unplaced;
                }
            }
        };
        placed[k] = true;
        out.push(defs[k]);
        for &d in &dependents[k] {
            waiting[d] -= 1;
            if waiting[d] == 0 && !placed[d] {
                ready.push(Reverse(d));
            }
        }
    }
    out
}

/// Rules 2025 5.5: a model defines "all and only the user-declared function
/// symbols". A definition of a symbol the benchmark does not declare, or an
/// abstract value (`(as @a S)`) of a sort the benchmark does not declare with
/// `declare-sort` (e.g. `(define-fun x () Int (as @a Int))`: an Int has no
/// abstract values), makes the model not valid (`ModelParsingError`, no
/// points). Declarations the model itself makes (z3's `U!val!0` abstract
/// values of uninterpreted sorts) are not definitions and are allowed.
fn only_declared_symbols(benchmark: &[u8], model: &Model) -> Result<(), Problem> {
    let mut funs = std::collections::BTreeSet::new();
    let mut sorts = std::collections::BTreeSet::new();
    let mut signatures = std::collections::BTreeMap::new();
    let mut reader = CommandReader::new(benchmark);
    while let Ok(Some(cmd)) = reader.next_command() {
        match cmd.head().unwrap_or_default() {
            b"declare-fun" | b"declare-const" => {
                funs.extend(declared(cmd.text));
                if let Some((name, params, sort)) = declared_signature(cmd.text) {
                    signatures.insert(name, (params, sort));
                }
            }
            b"declare-sort" => sorts.extend(declared(cmd.text)),
            _ => {}
        }
    }
    let extra: Vec<String> = model
        .items
        .iter()
        .filter(|i| !i.declaration)
        .flat_map(|i| i.names.iter())
        .filter(|n| !funs.contains(*n))
        .map(|n| shown(n))
        .collect();
    if !extra.is_empty() {
        return Err(parsing(format!(
            "the model defines {} symbol(s) the benchmark does not declare: {}{} (rules 5.5: all and only the declared symbols)",
            extra.len(),
            extra.iter().take(5).cloned().collect::<Vec<_>>().join(", "),
            if extra.len() > 5 { ", …" } else { "" }
        )));
    }
    // Sorts as Dolmen's typing checks them (a solver may coerce, or report
    // the error and go on without the definition: never a valid model).
    for item in &model.items {
        let (Some((params, sort)), Some(name)) = (&item.signature, item.names.first()) else {
            continue;
        };
        if let Some((want_params, want)) = signatures.get(name)
            && (want_params != params || want != sort)
        {
            return Err(parsing(format!(
                "the model defines {} with sort ({}) {sort}, the benchmark declares it ({}) {want}",
                shown(name),
                params.join(" "),
                want_params.join(" ")
            )));
        }
        if let Some(lit) = &item.literal_sort {
            let fits = lit == sort || (lit == "Int|Real" && (sort == "Int" || sort == "Real"));
            if !fits {
                return Err(parsing(format!(
                    "the model defines {} of sort {sort} as a literal of sort {}",
                    shown(name),
                    lit.replace("Int|Real", "Int")
                )));
            }
        }
    }
    if let Some((v, sort)) = model
        .abstract_values
        .iter()
        .find(|(_, sort)| !sorts.contains(*sort))
    {
        return Err(parsing(format!(
            "abstract value {} of sort {}: abstract values stand only for elements of sorts the benchmark declares with declare-sort",
            shown(v),
            shown(sort)
        )));
    }
    Ok(())
}

/// Checks the model defines every symbol the benchmark declares, and builds
/// the benchmark with the model substituted for the declarations, ending in
/// `(check-sat)`: a trusted solver answering `sat` on it validates the model.
pub fn substitute(benchmark: &[u8], text: &[u8], model: &Model) -> Result<Vec<u8>, Problem> {
    only_declared_symbols(benchmark, model)?;
    let defined: std::collections::BTreeSet<&[u8]> = model
        .items
        .iter()
        .flat_map(|i| i.names.iter().map(Vec::as_slice))
        .collect();
    let mut reader = CommandReader::new(benchmark);
    let mut out = Vec::with_capacity(benchmark.len() + text.len() + 64);
    let mut emitted = false;
    let mut missing = Vec::new();
    let emit = |out: &mut Vec<u8>| {
        out.extend_from_slice(b"; the model\n");
        let mut by_sort: std::collections::BTreeMap<&[u8], Vec<&[u8]>> = Default::default();
        for (v, sort) in &model.abstract_values {
            out.extend_from_slice(b"(declare-fun ");
            out.extend_from_slice(v);
            out.extend_from_slice(b" () ");
            out.extend_from_slice(sort);
            out.extend_from_slice(b")\n");
            by_sort.entry(sort).or_default().push(v);
        }
        for values in by_sort.values().filter(|v| v.len() > 1) {
            out.extend_from_slice(b"(assert (distinct");
            for v in values {
                out.push(b' ');
                out.extend_from_slice(v);
            }
            out.extend_from_slice(b"))\n");
        }
        for item in ordered(model) {
            out.extend_from_slice(&text[item.text.clone()]);
            out.push(b'\n');
        }
        out.extend_from_slice(b"; the benchmark\n");
    };
    loop {
        let cmd = match reader.next_command() {
            Ok(Some(c)) => c,
            Ok(None) => break,
            Err(e) => {
                return Err(Problem {
                    result: Answer::ModelValidatorException,
                    reason: format!("benchmark: {e}"),
                });
            }
        };
        let head = cmd.head().unwrap_or_default();
        if !kept(head) {
            continue;
        }
        if !emitted && !is_declaration(head) {
            emit(&mut out);
            emitted = true;
        }
        if matches!(head, b"declare-fun" | b"declare-const") {
            match declared(cmd.text) {
                Some(name) if defined.contains(name.as_slice()) => continue,
                Some(name) => missing.push(name),
                None => {}
            }
        }
        out.extend_from_slice(cmd.text);
        out.push(b'\n');
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().take(5).map(|n| shown(n)).collect();
        return Err(Problem {
            result: Answer::ModelPartialFunctionMissing,
            reason: format!(
                "partial model: no definition for {} declared symbol(s): {}{}",
                missing.len(),
                names.join(", "),
                if missing.len() > 5 { ", …" } else { "" }
            ),
        });
    }
    if !emitted {
        emit(&mut out);
    }
    out.extend_from_slice(b"(check-sat)\n(exit)\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 18): a 640 KB model whose definitions chain in
    /// reverse order (`f0` uses `f1`, ..., the last is a constant) took 74 s
    /// to order. The order must be the chain reversed; the watchdog names the
    /// hang instead of letting the suite stall.
    #[test]
    fn reverse_chain_of_640_kb_orders_in_linear_time() {
        let n = 20_000;
        let mut text = b"(".to_vec();
        for i in 0..n {
            text.extend_from_slice(
                format!("(define-fun f{i} () Int (+ f{} 1))\n", i + 1).as_bytes(),
            );
        }
        text.extend_from_slice(format!("(define-fun f{n} () Int 0))").as_bytes());
        assert!(text.len() >= 640 << 10, "{} bytes", text.len());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let model = parse_model(&text).unwrap();
            let names: Vec<Vec<u8>> = ordered(&model).iter().map(|i| i.names[0].clone()).collect();
            let _ = tx.send(names);
        });
        let names = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("hang watchdog: ordering a 640 KB reverse chain took over 120 s");
        // f20000 (the constant) first, then f19999, ..., f0 last.
        let want: Vec<Vec<u8>> = (0..=n)
            .rev()
            .map(|i| format!("f{i}").into_bytes())
            .collect();
        assert_eq!(names, want);
    }

    fn fuzz_cases() -> u32 {
        std::env::var("SMTCOMP_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(64)
    }

    /// A model of `n` definitions `f<i>`, each mentioning the given others.
    fn model_text(deps: &[Vec<usize>]) -> Vec<u8> {
        let n = deps.len();
        let mut text = b"(".to_vec();
        for (i, ds) in deps.iter().enumerate() {
            let body = ds
                .iter()
                .map(|d| format!("f{}", d % n))
                .fold("0".to_string(), |acc, f| format!("(+ {acc} {f})"));
            text.extend_from_slice(format!("(define-fun f{i} () Int {body})\n").as_bytes());
        }
        text.push(b')');
        text
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: fuzz_cases(),
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Model text: arbitrary bytes never panic; a parsed model substitutes
        /// (or fails with a reason) without panicking.
        #[test]
        fn fuzz_model_text_arbitrary(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                4 => proptest::sample::select(b"()|\"; \nadefin-u@s!:0".to_vec()),
                1 => proptest::prelude::any::<u8>(),
            ], 0..2048)) {
            if let Ok(model) = parse_model(&bytes) {
                proptest::prop_assert_eq!(ordered(&model).len(), model.items.len());
                let _ = substitute(b"(declare-fun a () Int)\n(assert (> a 0))\n", &bytes, &model);
            }
        }

        /// Definitions in, definitions out: ordering is a permutation of the
        /// items, and outside cycles every definition follows the ones it
        /// mentions.
        #[test]
        fn fuzz_model_order_is_a_permutation_respecting_dependencies(
            deps in proptest::collection::vec(proptest::collection::vec(0usize..64, 0..4), 1..40),
            acyclic in proptest::prelude::any::<bool>(),
        ) {
            let n = deps.len();
            // Acyclic: f<i> mentions only higher indices (a reverse chain's shape).
            let deps: Vec<Vec<usize>> = if acyclic {
                deps.iter()
                    .enumerate()
                    .map(|(i, ds)| ds.iter().map(|d| i + 1 + d % n).filter(|&d| d < n).collect())
                    .collect()
            } else {
                deps
            };
            let text = model_text(&deps);
            let model = parse_model(&text).unwrap();
            let order: Vec<usize> = ordered(&model)
                .iter()
                .map(|it| std::str::from_utf8(&it.names[0][1..]).unwrap().parse().unwrap())
                .collect();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            proptest::prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
            if acyclic {
                let mut at = vec![0; n];
                for (pos, &i) in order.iter().enumerate() {
                    at[i] = pos;
                }
                for (i, ds) in deps.iter().enumerate() {
                    for &d in ds {
                        proptest::prop_assert!(at[d] < at[i], "f{} before f{}", i, d);
                    }
                }
            }
        }
    }

    /// Cycles keep model order; independent definitions keep model order;
    /// a definition comes after what it mentions.
    #[test]
    fn ordering_keeps_model_order_where_free() {
        let text = b"((define-fun a () Int b) (define-fun c () Int 1) (define-fun b () Int 2) (define-fun x () Int y) (define-fun y () Int x))";
        let model = parse_model(text).unwrap();
        let names: Vec<&[u8]> = ordered(&model)
            .iter()
            .map(|i| i.names[0].as_slice())
            .collect();
        assert_eq!(names, [&b"c"[..], b"b", b"a", b"x", b"y"]);
    }

    const BENCH: &[u8] = b"(set-option :print-success false)\n(set-option :produce-models true)\n(set-logic QF_UFLIA)\n(declare-fun |f| (Int) Int)\n(declare-const x Int)\n(assert (> (f x) 0))\n(check-sat)\n(get-model)\n(exit)\n";

    #[test]
    fn z3_cvc4_and_dependent_models() {
        let z3 = b"(\n  (define-fun x () Int\n    2)\n  (define-fun f ((x!0 Int)) Int\n    1)\n)\n";
        let m = parse_model(z3).unwrap();
        assert_eq!(m.items.len(), 2);
        let s = String::from_utf8(substitute(BENCH, z3, &m).unwrap()).unwrap();
        assert!(!s.contains("declare"), "{s}");
        assert!(s.contains("(define-fun x () Int\n    2)\n(define-fun f ((x!0 Int)) Int\n    1)\n; the benchmark\n(assert (> (f x) 0))\n(check-sat)\n(exit)\n"), "{s}");
        let cvc4 = b"(model\n(define-fun x () Int 0)\n(define-fun f ((B Int)) Int 1)\n)";
        assert_eq!(parse_model(cvc4).unwrap().items.len(), 2);
        // A definition using a later one is moved after it.
        let dep = b"((define-fun f ((a Int)) Int (g a)) (define-fun g ((a Int)) Int 1) (define-fun x () Int 0))";
        let m = parse_model(dep).unwrap();
        let with_g = String::from_utf8_lossy(BENCH).replace(
            "(declare-const x Int)",
            "(declare-const x Int)\n(declare-fun g (Int) Int)",
        );
        let s = String::from_utf8(substitute(with_g.as_bytes(), dep, &m).unwrap()).unwrap();
        assert!(s.find("(define-fun g").unwrap() < s.find("(define-fun f").unwrap());
    }

    #[test]
    fn partial_malformed_and_hostile_models() {
        let partial = b"((define-fun x () Int 2))";
        let p = substitute(BENCH, partial, &parse_model(partial).unwrap()).unwrap_err();
        assert_eq!(p.result, Answer::ModelPartialFunctionMissing);
        assert!(p.reason.contains("f"), "{}", p.reason);
        for (text, want) in [
            (&b"((define-fun x () Int 2)"[..], "unbalanced"),
            (b"", "no model"),
            (b"unsupported\n", "expected a model"),
            (b"(error \"no model\")", "error instead of a model"),
            (
                b"((define-fun x () Int 2) (define-fun x () Int 3))",
                "defined twice",
            ),
            (b"((define-fun x Int 2))", "malformed"),
            (b"((assert true))", "unexpected item"),
            (b"(\"abc", "unterminated"),
            (b"\xff\xfe\x00(", "expected a model"),
        ] {
            let e = parse_model(text).unwrap_err();
            assert_eq!(e.result, Answer::ModelParsingError);
            assert!(e.reason.contains(want), "{:?}: {}", shown(text), e.reason);
        }
    }
}

#[cfg(test)]
mod only_declared_tests {
    use super::*;

    const BENCH: &[u8] = b"(set-logic QF_UFLIA)\n(declare-sort U 0)\n(declare-fun u () U)\n(declare-const x Int)\n(assert (> x 0))\n(check-sat)\n";

    #[test]
    fn a_model_defining_an_undeclared_symbol_is_not_valid() {
        let m =
            b"((define-fun x () Int 1) (define-fun u () U (as @U_0 U)) (define-fun y () Int 2))";
        let e = substitute(BENCH, m, &parse_model(m).unwrap()).unwrap_err();
        assert_eq!(e.result, Answer::ModelParsingError);
        assert!(e.reason.contains("does not declare: y"), "{}", e.reason);
    }

    #[test]
    fn abstract_values_of_builtin_sorts_never_make_a_model_valid() {
        let m = b"((define-fun x () Int (as @a Int)) (define-fun u () U (as @U_0 U)))";
        let e = substitute(BENCH, m, &parse_model(m).unwrap()).unwrap_err();
        assert_eq!(e.result, Answer::ModelParsingError);
        assert!(
            e.reason.contains("abstract value @a of sort Int"),
            "{}",
            e.reason
        );
        // Of the declared sort U they are fine.
        let ok = b"((define-fun x () Int 3) (define-fun u () U (as @U_0 U)))";
        assert!(substitute(BENCH, ok, &parse_model(ok).unwrap()).is_ok());
    }

    /// Rules 5.5 with Dolmen's typing: a definition whose sort, or whose
    /// literal body, disagrees with the declaration is not a model (z3 coerces
    /// `true` to 1, or reports the error and answers `sat` without the
    /// definition: it must never reach a solver).
    #[test]
    fn definitions_of_the_wrong_sort_are_never_valid() {
        let bad = |m: &[u8], want: &str| {
            let e = substitute(BENCH, m, &parse_model(m).unwrap()).unwrap_err();
            assert_eq!(e.result, Answer::ModelParsingError, "{}", e.reason);
            assert!(e.reason.contains(want), "{}", e.reason);
        };
        bad(
            b"((define-fun x () Int true) (define-fun u () U (as @U_0 U)))",
            "the model defines x of sort Int as a literal of sort Bool",
        );
        bad(
            b"((define-fun x () Bool true) (define-fun u () U (as @U_0 U)))",
            "the model defines x with sort () Bool, the benchmark declares it () Int",
        );
        bad(
            b"((define-fun x () Int 1.5) (define-fun u () U (as @U_0 U)))",
            "as a literal of sort Real",
        );
        bad(
            b"((define-fun x () Int #b0101) (define-fun u () U (as @U_0 U)))",
            "as a literal of sort (_ BitVec 4)",
        );
        // Whitespace in sorts and compound bodies are fine.
        let ok = b"((define-fun x ()  Int (- 3)) (define-fun u () U (as @U_0 U)))";
        assert!(substitute(BENCH, ok, &parse_model(ok).unwrap()).is_ok());
        let bv = b"(set-logic QF_BV)\n(declare-const b (_ BitVec 8))\n(declare-fun f ((_ BitVec 8)) Bool)\n";
        let m =
            b"((define-fun b () ( _ BitVec 8 ) #xff) (define-fun f ((y (_ BitVec 8))) Bool true))";
        assert!(substitute(bv, m, &parse_model(m).unwrap()).is_ok());
        let m =
            b"((define-fun b () (_ BitVec 8) #xfff) (define-fun f ((y (_ BitVec 8))) Bool true))";
        let e = substitute(bv, m, &parse_model(m).unwrap()).unwrap_err();
        assert!(
            e.reason
                .contains("of sort (_ BitVec 8) as a literal of sort (_ BitVec 12)"),
            "{}",
            e.reason
        );
        let m = b"((define-fun b () (_ BitVec 8) #xff) (define-fun f ((y Int)) Bool true))";
        let e = substitute(bv, m, &parse_model(m).unwrap()).unwrap_err();
        assert!(e.reason.contains("the model defines f with sort (Int) Bool, the benchmark declares it ((_ BitVec 8)) Bool"), "{}", e.reason);
    }
}

#[cfg(test)]
mod abstract_tests {
    use super::*;

    #[test]
    fn abstract_values_are_declared_distinct() {
        let bench = b"(set-logic QF_UF)\n(declare-sort U 0)\n(declare-const a U)\n(declare-const b U)\n(assert (not (= a b)))\n";
        let m = b"(\n(define-fun a () U (as @U_0 U))\n(define-fun b () U (as @U_1 U))\n)";
        let s = String::from_utf8(substitute(bench, m, &parse_model(m).unwrap()).unwrap()).unwrap();
        assert!(s.contains("(declare-sort U 0)\n; the model\n(declare-fun @U_0 () U)\n(declare-fun @U_1 () U)\n(assert (distinct @U_0 @U_1))\n"), "{s}");
    }
}
