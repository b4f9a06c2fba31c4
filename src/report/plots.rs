//! Hand-written, deterministic SVG plots (no JavaScript): the cactus plot
//! (solved benchmarks vs time, one line per solver) and the scatter plot of two
//! solvers' times per benchmark (log scales; unsolved at the time limit).

use super::html::esc;
use std::fmt::Write;

/// Line colours, by solver order.
const COLORS: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

const W: f64 = 720.0;
const H: f64 = 420.0;
const ML: f64 = 64.0;
const MR: f64 = 190.0;
const MT: f64 = 36.0;
const MB: f64 = 52.0;

/// One solver's solved benchmarks: the time (s) of each, any order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Solver name.
    pub solver: String,
    /// Times (s) of the solved benchmarks.
    pub times: Vec<f64>,
}

fn head(title: &str, w: f64, h: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
font-family=\"sans-serif\" font-size=\"12\">\n<title>{t}</title>\n\
<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\" />\n\
<text x=\"{cx}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">{t}</text>\n",
        t = esc(title),
        cx = w / 2.0,
    )
}

fn finite(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

/// A "nice" tick step for `max` split in about five steps.
fn nice_step(max: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let raw = max / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    f * p
}

fn fmt_tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v}")
    }
}

/// Lowest time of the log time axes (s): faster answers are drawn at it.
const T_MIN: f64 = 0.01;

/// Cactus plot: x = number of solved benchmarks, y = time (s, log scale from
/// [`T_MIN`] to `time_limit`, so sub-second answers stay apart); each solver's
/// sorted times as a step line.
pub fn cactus(title: &str, series: &[Series], time_limit: f64) -> String {
    let tl = if time_limit.is_finite() && time_limit > T_MIN {
        time_limit
    } else {
        1.0
    };
    let max_n = series
        .iter()
        .map(|s| s.times.len())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let (pw, ph) = (W - ML - MR, H - MT - MB);
    let (lo, hi) = (T_MIN.log10(), tl.log10());
    let x = |n: f64| ML + n / max_n * pw;
    let y = |t: f64| MT + ph - ((t.clamp(T_MIN, tl).log10() - lo) / (hi - lo)) * ph;
    let mut s = head(title, W, H);
    axes(&mut s, pw, ph, "solved benchmarks", "time (s, log scale)");
    let xs = nice_step(max_n);
    let mut v = 0.0;
    while v <= max_n + 1e-9 {
        let _ = writeln!(
            s,
            "<line x1=\"{a:.1}\" y1=\"{b:.1}\" x2=\"{a:.1}\" y2=\"{c:.1}\" stroke=\"#e5e7eb\" />\
<text x=\"{a:.1}\" y=\"{d:.1}\" text-anchor=\"middle\">{l}</text>",
            a = x(v),
            b = MT,
            c = MT + ph,
            d = MT + ph + 16.0,
            l = fmt_tick(v)
        );
        v += xs;
    }
    for v in log_ticks(tl) {
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#e5e7eb\" />",
            ML,
            ML + pw,
            yy = y(v)
        );
        tick_y(&mut s, y(v), &fmt_tick(v));
    }
    for (i, se) in series.iter().enumerate() {
        let mut t: Vec<f64> = se.times.iter().map(|&t| finite(t)).collect();
        t.sort_by(f64::total_cmp);
        let color = COLORS[i % COLORS.len()];
        let mut pts = format!("{:.1},{:.1}", x(0.0), y(0.0));
        let mut last = (x(0.0), y(0.0));
        for (k, tk) in t.iter().enumerate() {
            let p = (x(k as f64 + 1.0), y(*tk));
            // Points closer than half a pixel to the last drawn one add nothing.
            if k + 1 < t.len() && (p.0 - last.0).abs() < 0.5 && (p.1 - last.1).abs() < 0.5 {
                continue;
            }
            let _ = write!(pts, " {:.1},{:.1}", p.0, p.1);
            last = p;
        }
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{pts}\"><title>{} ({} solved)</title></polyline>",
            esc(&se.solver),
            t.len()
        );
        legend(&mut s, i, color, &format!("{} ({})", se.solver, t.len()));
    }
    s.push_str("</svg>\n");
    s
}

/// Scatter plot of two solvers: one point per benchmark (x = `a`'s time,
/// y = `b`'s time, log scales from 0.01 s to `time_limit`); `None` (unsolved)
/// is drawn at the time limit.
pub fn scatter(
    title: &str,
    a: &str,
    b: &str,
    points: &[(Option<f64>, Option<f64>)],
    time_limit: f64,
) -> String {
    let tl = if time_limit.is_finite() && time_limit > 0.01 {
        time_limit
    } else {
        1.0
    };
    let (lo, hi) = (0.01f64.log10(), tl.log10());
    let side = H - MT - MB;
    let pos = |t: f64| ((t.clamp(0.01, tl).log10() - lo) / (hi - lo)).clamp(0.0, 1.0);
    let x = |t: f64| ML + pos(t) * side;
    let y = |t: f64| MT + side - pos(t) * side;
    let w = ML + side + MR;
    let mut s = head(title, w, H);
    axes(
        &mut s,
        side,
        side,
        &format!("{a} time (s)"),
        &format!("{b} time (s)"),
    );
    for d in log_ticks(tl) {
        tick_y(&mut s, y(d), &fmt_tick(d));
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x(d),
            MT + side + 16.0,
            fmt_tick(d)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#9ca3af\" stroke-dasharray=\"4 3\" />",
        x(0.01),
        y(0.01),
        x(tl),
        y(tl)
    );
    let (mut both, mut only) = (0, 0);
    // One circle per pixel and colour: identical SVG, a fraction of the size.
    let mut drawn = std::collections::BTreeSet::new();
    for (pa, pb) in points {
        let (ta, tb) = (pa.map(finite).unwrap_or(tl), pb.map(finite).unwrap_or(tl));
        let color = if pa.is_some() && pb.is_some() {
            both += 1;
            COLORS[0]
        } else if pa.is_some() || pb.is_some() {
            only += 1;
            COLORS[3]
        } else {
            continue;
        };
        let (cx, cy) = (x(ta).round() as i64, y(tb).round() as i64);
        if drawn.insert((cx, cy, color)) {
            let _ = writeln!(
                s,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"2.5\" fill=\"{color}\" fill-opacity=\"0.6\" />"
            );
        }
    }
    let lx = ML + side;
    let _ = writeln!(
        s,
        "<g transform=\"translate({:.1},0)\">",
        lx - (W - MR) + 0.0
    );
    legend(&mut s, 0, COLORS[0], &format!("both solved ({both})"));
    legend(&mut s, 1, COLORS[3], &format!("one solved ({only})"));
    s.push_str("</g>\n</svg>\n");
    s
}

/// Ticks of a log time axis: the powers of ten from [`T_MIN`] up to `tl`
/// (printed exactly: `0.01`, `0.1`, `1`, `10`, ...).
fn log_ticks(tl: f64) -> Vec<f64> {
    [0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7]
        .into_iter()
        .filter(|d| *d <= tl * 1.0001)
        .collect()
}

fn axes(s: &mut String, pw: f64, ph: f64, xl: &str, yl: &str) {
    let _ = writeln!(
        s,
        "<rect x=\"{ML}\" y=\"{MT}\" width=\"{pw:.1}\" height=\"{ph:.1}\" fill=\"none\" stroke=\"#374151\" />\n\
<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
<text x=\"16\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">{}</text>",
        ML + pw / 2.0,
        MT + ph + 40.0,
        esc(xl),
        MT + ph / 2.0,
        MT + ph / 2.0,
        esc(yl)
    );
}

fn tick_y(s: &mut String, yy: f64, label: &str) {
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
        ML - 6.0,
        yy + 4.0,
        esc(label)
    );
}

fn legend(s: &mut String, i: usize, color: &str, label: &str) {
    let ly = MT + 10.0 + i as f64 * 18.0;
    let lx = W - MR + 12.0;
    let _ = writeln!(
        s,
        "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"12\" height=\"4\" fill=\"{color}\" />\
<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        ly - 4.0,
        lx + 18.0,
        ly,
        esc(label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cactus_is_deterministic_and_escaped() {
        let s = vec![Series {
            solver: "<b>".into(),
            times: vec![3.0, 1.0, f64::NAN],
        }];
        let a = cactus("t", &s, 10.0);
        assert_eq!(a, cactus("t", &s, 10.0));
        assert!(a.contains("&lt;b&gt; (3)"));
        assert!(!a.contains("<b>"));
        assert!(!a.contains("NaN"));
    }

    #[test]
    fn cactus_time_axis_is_logarithmic() {
        let s = vec![Series {
            solver: "a".into(),
            times: vec![0.01, 0.1, 1.0, 10.0, 100.0],
        }];
        let svg = cactus("t", &s, 100.0);
        // Ticks 0.01 .. 100 are equally spaced: 4 decades over the plot height
        // (H - MT - MB = 332 px), 83 px per decade; 0.01 at the bottom (y = 368).
        for (label, y) in [
            ("0.01", 368.0),
            ("0.1", 285.0),
            ("1", 202.0),
            ("10", 119.0),
            ("100", 36.0),
        ] {
            let text = format!("y=\"{:.1}\" text-anchor=\"end\">{label}</text>", y + 4.0);
            assert!(svg.contains(&text), "tick {label} at {y}: {svg}");
        }
        // The five solved points climb one decade each: y 368, 285, 202, 119, 36.
        assert!(
            svg.contains(
                "points=\"64.0,368.0 157.2,368.0 250.4,285.0 343.6,202.0 436.8,119.0 530.0,36.0\""
            ),
            "{svg}"
        );
    }

    #[test]
    fn empty_inputs_do_not_panic() {
        assert!(cactus("x", &[], 0.0).ends_with("</svg>\n"));
        assert!(scatter("x", "a", "b", &[], f64::NAN).ends_with("</svg>\n"));
        let s = scatter("x", "a", "b", &[(Some(1.0), None), (None, None)], 100.0);
        assert!(s.contains("one solved (1)"));
    }
}
