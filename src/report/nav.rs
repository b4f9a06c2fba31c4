//! Navigation shown on every page of a track: where the page is (all tracks ›
//! track › division › logic), the track's divisions and its ranking pages.
//! The current page is shown in bold, never as a link to itself.

use super::TrackReport;
use super::files::group_file;
use super::html::esc;
use crate::scoring::GroupScores;
use std::fmt::Write;

/// The ranking pages of a track: `(file, label)`.
pub const RANKINGS: [(&str, &str); 3] = [
    ("best-overall.html", "best overall"),
    ("biggest-lead.html", "biggest lead"),
    ("largest-contribution.html", "largest contribution"),
];

/// Which page of a track the navigation is drawn on.
#[derive(Debug, Clone, Copy)]
pub enum Here<'a> {
    /// `<track>/index.html`.
    TrackIndex,
    /// A division or logic page.
    Group(&'a GroupScores),
    /// A per-benchmark table of a logic (the logic's group).
    Benchmarks(&'a GroupScores),
    /// A ranking page (its file name, one of [`RANKINGS`]).
    Ranking(&'static str),
}

fn link_or_bold(b: &mut String, href: &str, label: &str, current: bool) {
    if current {
        let _ = write!(b, "<b>{}</b>", esc(label));
    } else {
        let _ = write!(b, "<a href=\"{}\">{}</a>", esc(href), esc(label));
    }
}

const SEP: &str = "<span class=\"sep\">›</span>";

/// The navigation block of a page of track `r` (links relative to the track directory).
pub fn track_nav(r: &TrackReport, here: Here<'_>) -> String {
    let track = r.scores.track;
    let mut b = String::from("<nav class=\"track\"><div class=\"crumbs\">");
    link_or_bold(&mut b, "../index.html", "All tracks", false);
    b.push_str(SEP);
    let track_label = format!("{track} track");
    link_or_bold(
        &mut b,
        "index.html",
        &track_label,
        matches!(here, Here::TrackIndex),
    );
    let group = match here {
        Here::Group(g) | Here::Benchmarks(g) => Some(g),
        _ => None,
    };
    if let Some(g) = group {
        if !g.is_division {
            if let Some(d) = r.scores.group(&g.division, true) {
                b.push_str(SEP);
                link_or_bold(&mut b, &group_file(d), &d.name, false);
            }
        }
        b.push_str(SEP);
        link_or_bold(
            &mut b,
            &group_file(g),
            &g.name,
            matches!(here, Here::Group(_)),
        );
        if matches!(here, Here::Benchmarks(_)) {
            b.push_str(SEP);
            b.push_str("<b>benchmarks</b>");
        }
    }
    if let Here::Ranking(file) = here {
        if let Some((_, label)) = RANKINGS.iter().find(|(f, _)| *f == file) {
            b.push_str(SEP);
            let _ = write!(b, "<b>{}</b>", esc(label));
        }
    }
    b.push_str("</div>\n<div>Divisions: ");
    for (i, d) in r.scores.groups.iter().filter(|g| g.is_division).enumerate() {
        if i > 0 {
            b.push(' ');
        }
        let current = group.is_some_and(|g| g.is_division && g.identifier == d.identifier)
            && matches!(here, Here::Group(_));
        link_or_bold(&mut b, &group_file(d), &d.name, current);
    }
    b.push_str("</div>\n<div>Rankings: ");
    for (file, label) in RANKINGS {
        link_or_bold(
            &mut b,
            file,
            label,
            matches!(here, Here::Ranking(f) if f == file),
        );
        b.push(' ');
    }
    b.push_str("| <a href=\"scores.xml\">scores XML</a></div></nav>\n");
    b
}
