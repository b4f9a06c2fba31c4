//! Differences between two policies, each explained by the switches that cause it.
//!
//! Method: score with policy A and policy B and list every differing item (winner,
//! order, a solver's number, presence, recognition winners). Then, for every switch
//! on which A and B differ, score with A plus that one switch flipped; a difference
//! is caused by the switches whose single flip changes the same item. Items that no
//! single switch changes are reported as caused by a combination.

use super::division::{GroupScores, Kind, SolverScore};
use super::input::ScoringInput;
use super::policy::{Policy, SWITCHES};
use super::{TrackScores, score};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One difference between two policies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// Page (division identifier or logic) or recognition name.
    pub page: String,
    /// Kind key.
    pub kind: String,
    /// What differs (`winner`, `order`, `<solver>.<field>`, ...).
    pub item: String,
    /// Value under the first policy.
    pub left: String,
    /// Value under the second policy.
    pub right: String,
    /// Switches whose single flip reproduces the difference.
    pub switches: Vec<String>,
}

type Key = (String, String, String);
/// Per (page, kind): differing items, switches, notes.
type Summary = (usize, BTreeSet<String>, Vec<String>);

fn fields(s: &SolverScore) -> Vec<(&'static str, String)> {
    vec![
        ("error", s.e.to_string()),
        ("correct", s.n.to_string()),
        ("cpu", format!("{:.2}", s.c)),
        ("wall", format!("{:.2}", s.w)),
        ("solved", s.solved.to_string()),
        ("unsolved", s.unsolved.to_string()),
        ("abstained", s.abstained.to_string()),
        ("timeout", s.timeout.to_string()),
        ("memout", s.memout.to_string()),
    ]
}

fn page_key(g: &GroupScores) -> String {
    if g.is_division {
        g.identifier.clone()
    } else {
        format!("logic {}", g.name)
    }
}

fn items(t: &TrackScores) -> BTreeMap<Key, String> {
    let mut m = BTreeMap::new();
    for g in &t.groups {
        let page = page_key(g);
        m.insert(
            (page.clone(), String::new(), "competitive".into()),
            g.competitive.to_string(),
        );
        m.insert(
            (page.clone(), String::new(), "benchmarks".into()),
            g.n_benchmarks.to_string(),
        );
        for p in &g.podiums {
            let k = p.kind.key().to_string();
            m.insert(
                (page.clone(), k.clone(), "winner".into()),
                p.winner.clone().unwrap_or("-".into()),
            );
            let order: Vec<&str> = p.steps.iter().map(|s| s.solver.as_str()).collect();
            m.insert((page.clone(), k.clone(), "order".into()), order.join(" > "));
            for s in &p.steps {
                for (f, v) in fields(s) {
                    m.insert((page.clone(), k.clone(), format!("{}.{f}", s.solver)), v);
                }
            }
        }
    }
    for o in &t.best_overall {
        m.insert(
            ("best-overall".into(), o.kind.key().into(), "winner".into()),
            o.winner
                .as_ref()
                .map_or("-".into(), |w| format!("{} ({:.6})", w.solver, w.score)),
        );
    }
    for l in &t.biggest_lead {
        m.insert(
            ("biggest-lead".into(), l.kind.key().into(), "winner".into()),
            l.winner.clone().unwrap_or("-".into()),
        );
    }
    for l in &t.largest_contribution {
        m.insert(
            (
                "largest-contribution".into(),
                l.kind.key().into(),
                "winner".into(),
            ),
            l.winner.clone().unwrap_or("-".into()),
        );
    }
    m
}

fn diff(a: &BTreeMap<Key, String>, b: &BTreeMap<Key, String>) -> BTreeMap<Key, (String, String)> {
    let keys: BTreeSet<&Key> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (a.get(k), b.get(k));
            (x != y).then(|| {
                (
                    k.clone(),
                    (
                        x.cloned().unwrap_or("(absent)".into()),
                        y.cloned().unwrap_or("(absent)".into()),
                    ),
                )
            })
        })
        .collect()
}

/// Lists every difference between `left` and `right` on `input`, with causes.
pub fn explain(input: &ScoringInput, left: &Policy, right: &Policy) -> Vec<Difference> {
    let base = items(&score(input, left));
    let other = items(&score(input, right));
    let all = diff(&base, &other);
    let mut causes: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for s in SWITCHES {
        let (Some(l), Some(r)) = (left.get(s.name), right.get(s.name)) else {
            continue;
        };
        if l == r {
            continue;
        }
        let mut p = left.clone();
        p.set(s.name, r);
        let d = diff(&base, &items(&score(input, &p)));
        for k in d.keys() {
            if all.contains_key(k) {
                causes
                    .entry(k.clone())
                    .or_default()
                    .push(s.name.to_string());
            }
        }
    }
    all.into_iter()
        .map(|(k, (l, r))| Difference {
            switches: causes
                .remove(&k)
                .unwrap_or_else(|| vec!["(combination of switches)".into()]),
            page: k.0,
            kind: k.1,
            item: k.2,
            left: l,
            right: r,
        })
        .collect()
}

/// Summary: per page and kind, the number of differing items and the switches.
pub fn summary(diffs: &[Difference]) -> String {
    let mut by: BTreeMap<(String, String), Summary> = BTreeMap::new();
    for d in diffs {
        let e = by.entry((d.page.clone(), d.kind.clone())).or_default();
        e.0 += 1;
        e.1.extend(d.switches.iter().cloned());
        if d.item == "winner" || d.item == "competitive" {
            e.2.push(format!("{}: {} -> {}", d.item, d.left, d.right));
        }
    }
    let mut s = String::new();
    for ((page, kind), (n, sw, notes)) in by {
        let kind = if kind.is_empty() {
            "-".to_string()
        } else {
            kind
        };
        s.push_str(&format!(
            "{page} [{kind}]: {n} item(s) differ; switches: {}{}\n",
            sw.into_iter().collect::<Vec<_>>().join(", "),
            if notes.is_empty() {
                String::new()
            } else {
                format!("; {}", notes.join("; "))
            }
        ));
    }
    s
}

/// Kind helper for callers that want one kind's differences.
pub fn of_kind(diffs: &[Difference], kind: Kind) -> Vec<&Difference> {
    diffs.iter().filter(|d| d.kind == kind.key()).collect()
}
