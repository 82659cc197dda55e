//! Inline SVG charts for the HTML report: horizontal (grouped) bar charts on a linear axis
//! and line charts on log-log axes. Each chart is a standalone `<svg>` element with a
//! `<title>` and `<desc>` (read by screen readers) and `class="chart ..."`, well-formed XML
//! so that it can be checked with xwire's own reader.

use std::fmt::Write;

/// Colours of series, in order (Tableau 10: distinguishable, print acceptably in grey).
pub const PALETTE: &[&str] = &[
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// Dash patterns that tell lines apart without colour.
const DASHES: &[&str] = &["", "6 3", "2 3", "8 3 2 3", "4 4", "1 2"];

/// The colour of series `i`.
pub fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 does not allow, even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A number for a label: three significant digits or so, no exponent.
pub fn number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A tick label: short, with k / M / G for thousands and up.
pub fn tick_label(v: f64) -> String {
    let (scaled, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let mut s = format!("{scaled:.3}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    s + suffix
}

/// Ticks of a linear axis from 0 that covers `max`: steps of 1, 2 or 5 times a power of ten,
/// about five of them. The last tick is the axis' end.
pub fn linear_ticks(max: f64) -> Vec<f64> {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let n = (max / step - 1e-9).ceil().max(1.0) as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// Ticks of a log axis covering `[min, max]` (both > 0): the powers of ten from the one at
/// or below `min` to the one at or above `max` (at least one decade), with 2 and 5 times
/// each power in between when the axis spans at most two decades. The first and last ticks
/// are the axis' ends.
pub fn log_ticks(min: f64, max: f64) -> Vec<f64> {
    let (min, max) = if min > 0.0 && max >= min && max.is_finite() {
        (min, max)
    } else {
        (1.0, 10.0)
    };
    // A hair of slack so that exact powers of ten are not pushed to the next decade.
    let lo = (min.log10() + 1e-9).floor() as i32;
    let mut hi = (max.log10() - 1e-9).ceil() as i32;
    if hi <= lo {
        hi = lo + 1;
    }
    let minor = hi - lo <= 2;
    let mut ticks = Vec::new();
    for k in lo..=hi {
        let p = 10f64.powi(k);
        ticks.push(p);
        if minor && k < hi {
            ticks.push(2.0 * p);
            ticks.push(5.0 * p);
        }
    }
    ticks
}

/// A horizontal bar chart: for each category a group of bars, one per series.
pub struct Bars {
    /// What the chart shows (the SVG title).
    pub title: String,
    /// What the value axis measures (`"MB/s"`).
    pub unit: String,
    /// Category labels (one group of bars each).
    pub categories: Vec<String>,
    /// Series: (name, colour index); a legend is drawn when there is more than one.
    pub series: Vec<(String, usize)>,
    /// `values[category][series]`; `None` leaves a gap (labelled "n/a").
    pub values: Vec<Vec<Option<f64>>>,
}

/// One line of a line chart.
pub struct Line {
    /// Legend label.
    pub name: String,
    /// Colour (and dash) index.
    pub color: usize,
    /// (x, y) points, both > 0.
    pub points: Vec<(f64, f64)>,
}

/// A line chart on log-log axes.
pub struct LogLog {
    /// What the chart shows (the SVG title).
    pub title: String,
    /// The x axis label.
    pub x_label: String,
    /// The y axis label.
    pub y_label: String,
    /// The lines.
    pub lines: Vec<Line>,
}

const WIDTH: f64 = 820.0;
const FONT: &str = "font-family=\"system-ui, sans-serif\" font-size=\"12\"";

fn open(out: &mut String, class: &str, height: f64, title: &str, desc: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart {class}\" role=\"img\" width=\"{WIDTH}\" height=\"{height:.0}\" viewBox=\"0 0 {WIDTH} {height:.0}\" {FONT}><title>{}</title><desc>{}</desc>",
        escape(title),
        escape(desc)
    );
}

/// Draws a bar chart.
pub fn bar_chart(b: &Bars) -> String {
    let label_w = 190.0;
    let legend_h = if b.series.len() > 1 {
        18.0 * b.series.len().div_ceil(4) as f64 + 6.0
    } else {
        0.0
    };
    let top = 30.0 + legend_h;
    let bar_h = 16.0;
    let gap = 10.0;
    let group_h = bar_h * b.series.len().max(1) as f64 + gap;
    let plot_h = group_h * b.categories.len().max(1) as f64;
    let height = top + plot_h + 40.0;
    let left = label_w + 10.0;
    let right = WIDTH - 80.0;
    let max = b
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let ticks = linear_ticks(max);
    let end = *ticks.last().unwrap_or(&1.0);
    let x = |v: f64| left + (right - left) * (v / end).clamp(0.0, 1.0);

    let desc = format!(
        "Bar chart, {} by {}: {}",
        b.unit,
        if b.series.len() > 1 {
            "category and series"
        } else {
            "category"
        },
        b.categories
            .iter()
            .zip(&b.values)
            .map(|(c, vs)| {
                let v: Vec<String> = b
                    .series
                    .iter()
                    .zip(vs)
                    .map(|((s, _), v)| match v {
                        Some(v) if b.series.len() > 1 => format!("{s} {}", number(*v)),
                        Some(v) => number(*v),
                        None => format!("{s} n/a"),
                    })
                    .collect();
                format!("{c}: {}", v.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    let mut out = String::new();
    open(&mut out, "bar-chart", height, &b.title, &desc);
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"18\" font-weight=\"bold\" font-size=\"14\">{}</text>",
        10.0,
        escape(&b.title)
    );
    // Legend.
    if b.series.len() > 1 {
        for (i, (name, c)) in b.series.iter().enumerate() {
            let lx = 10.0 + (i % 4) as f64 * 200.0;
            let ly = 30.0 + (i / 4) as f64 * 18.0;
            let _ = write!(
                out,
                "<g class=\"legend\"><rect x=\"{lx:.1}\" y=\"{ly:.1}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
                color(*c),
                lx + 16.0,
                ly + 10.0,
                escape(name)
            );
        }
    }
    // Grid and ticks.
    let bottom = top + plot_h;
    for &t in &ticks {
        let tx = x(t);
        let _ = write!(
            out,
            "<line x1=\"{tx:.1}\" y1=\"{top:.1}\" x2=\"{tx:.1}\" y2=\"{bottom:.1}\" stroke=\"#ddd\"/><text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#444\">{}</text>",
            bottom + 15.0,
            tick_label(t)
        );
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        (left + right) / 2.0,
        bottom + 32.0,
        escape(&b.unit)
    );
    // Bars.
    for (ci, (cat, vs)) in b.categories.iter().zip(&b.values).enumerate() {
        let gy = top + ci as f64 * group_h + gap / 2.0;
        let _ = write!(
            out,
            "<text x=\"{label_w:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            gy + group_h / 2.0 - gap / 2.0 + 4.0,
            escape(cat)
        );
        for (si, ((sname, c), v)) in b.series.iter().zip(vs).enumerate() {
            let y = gy + si as f64 * bar_h;
            match v {
                Some(v) if v.is_finite() => {
                    let w = (x(*v) - left).max(1.0);
                    let _ = write!(
                        out,
                        "<rect class=\"bar\" x=\"{left:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {} {}</title></rect><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#333\">{}</text>",
                        y + 1.0,
                        bar_h - 2.0,
                        color(*c),
                        escape(&format!("{cat}, {sname}")),
                        number(*v),
                        escape(&b.unit),
                        left + w + 4.0,
                        y + bar_h - 4.0,
                        number(*v)
                    );
                }
                _ => {
                    let _ = write!(
                        out,
                        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#999\">n/a</text>",
                        left + 4.0,
                        y + bar_h - 4.0
                    );
                }
            }
        }
    }
    let _ = write!(
        out,
        "<line x1=\"{left:.1}\" y1=\"{top:.1}\" x2=\"{left:.1}\" y2=\"{bottom:.1}\" stroke=\"#333\"/></svg>"
    );
    out
}

/// Draws a log-log line chart.
pub fn loglog_chart(c: &LogLog) -> String {
    let height = 440.0;
    let (left, right, top, bottom) = (70.0, WIDTH - 190.0, 40.0, height - 55.0);
    let pts = || {
        c.lines
            .iter()
            .flat_map(|l| l.points.iter())
            .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
    };
    let fold = |f: fn(&(f64, f64)) -> f64| {
        pts().map(f).fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
    };
    let (xmin, xmax) = fold(|p| p.0);
    let (ymin, ymax) = fold(|p| p.1);
    let xt = log_ticks(xmin, xmax);
    let yt = log_ticks(ymin, ymax);
    let (x0, x1) = (xt[0].log10(), xt[xt.len() - 1].log10());
    let (y0, y1) = (yt[0].log10(), yt[yt.len() - 1].log10());
    let sx = |v: f64| left + (right - left) * (v.log10() - x0) / (x1 - x0);
    let sy = |v: f64| bottom - (bottom - top) * (v.log10() - y0) / (y1 - y0);

    let desc = format!(
        "Line chart on log-log axes, {} against {}. {}",
        c.y_label,
        c.x_label,
        c.lines
            .iter()
            .map(|l| format!(
                "{}: {}",
                l.name,
                l.points
                    .iter()
                    .map(|(x, y)| format!("{} at {}", number(*y), tick_label(*x)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let mut out = String::new();
    open(&mut out, "line-chart", height, &c.title, &desc);
    let _ = write!(
        out,
        "<text x=\"10\" y=\"20\" font-weight=\"bold\" font-size=\"14\">{}</text>",
        escape(&c.title)
    );
    let major = |t: f64| {
        let l = t.log10();
        (l - l.round()).abs() < 1e-9
    };
    for &t in &xt {
        let x = sx(t);
        let stroke = if major(t) { "#ccc" } else { "#eee" };
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\" stroke=\"{stroke}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#444\">{}</text>",
            bottom + 16.0,
            tick_label(t)
        );
    }
    for &t in &yt {
        let y = sy(t);
        let stroke = if major(t) { "#ccc" } else { "#eee" };
        let _ = write!(
            out,
            "<line x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{right:.1}\" y2=\"{y:.1}\" stroke=\"{stroke}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#444\">{}</text>",
            left - 6.0,
            y + 4.0,
            tick_label(t)
        );
    }
    let _ = write!(
        out,
        "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>",
        right - left,
        bottom - top
    );
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{} (log scale)</text>",
        (left + right) / 2.0,
        bottom + 38.0,
        escape(&c.x_label)
    );
    let _ = write!(
        out,
        "<text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">{} (log scale)</text>",
        (top + bottom) / 2.0,
        escape(&c.y_label)
    );
    for (i, l) in c.lines.iter().enumerate() {
        let mut p: Vec<(f64, f64)> = l
            .points
            .iter()
            .copied()
            .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
            .collect();
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        let col = color(l.color);
        let dash = DASHES[l.color % DASHES.len()];
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = write!(
            out,
            "<g class=\"series\"><title>{}</title>",
            escape(&l.name)
        );
        if p.len() > 1 {
            let d: Vec<String> = p
                .iter()
                .map(|(x, y)| format!("{:.1},{:.1}", sx(*x), sy(*y)))
                .collect();
            let _ = write!(
                out,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"2\"{dash}/>",
                d.join(" ")
            );
        }
        for (x, y) in &p {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{col}\"><title>{}: {} at {}</title></circle>",
                sx(*x),
                sy(*y),
                escape(&l.name),
                number(*y),
                tick_label(*x)
            );
        }
        // Legend on the right.
        let ly = top + 6.0 + i as f64 * 20.0;
        let lx = right + 16.0;
        let _ = write!(
            out,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{col}\" stroke-width=\"2\"{dash}/><circle cx=\"{:.1}\" cy=\"{ly:.1}\" r=\"3.5\" fill=\"{col}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            lx + 28.0,
            lx + 14.0,
            lx + 34.0,
            ly + 4.0,
            escape(&l.name)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 1e-9 * y.abs())
    }

    #[test]
    fn log_ticks_cover_whole_decades() {
        let t = log_ticks(30.0, 70_000.0);
        assert!(close(&t, &[10.0, 100.0, 1e3, 1e4, 1e5]), "{t:?}");
        // Exact powers of ten stay where they are.
        let t = log_ticks(100.0, 1e5);
        assert!(close(&t, &[100.0, 1e3, 1e4, 1e5]), "{t:?}");
    }

    #[test]
    fn log_ticks_add_minor_ticks_on_short_ranges() {
        let t = log_ticks(150.0, 900.0);
        assert!(close(&t, &[100.0, 200.0, 500.0, 1000.0]), "{t:?}");
        // A single value still gets a decade.
        let t = log_ticks(3.0, 3.0);
        assert!(close(&t, &[1.0, 2.0, 5.0, 10.0]), "{t:?}");
        // Below one.
        let t = log_ticks(0.02, 0.3);
        assert!(close(&t, &[0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]), "{t:?}");
    }

    #[test]
    fn log_ticks_survive_bad_input() {
        assert!(close(&log_ticks(0.0, 0.0), &[1.0, 2.0, 5.0, 10.0]));
        assert!(close(
            &log_ticks(f64::INFINITY, 0.0),
            &[1.0, 2.0, 5.0, 10.0]
        ));
    }

    #[test]
    fn linear_ticks_are_round() {
        let t = linear_ticks(870.0);
        assert!(
            close(&t, &[0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]),
            "{t:?}"
        );
        let t = linear_ticks(5.0);
        assert!(close(&t, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]), "{t:?}");
        assert!(close(&linear_ticks(0.0), &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]));
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(1000.0), "1k");
        assert_eq!(tick_label(2_000_000.0), "2M");
        assert_eq!(tick_label(0.05), "0.05");
        assert_eq!(tick_label(200.0), "200");
        assert_eq!(tick_label(1500.0), "1.5k");
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
        );
        let svg = bar_chart(&Bars {
            title: "<&\"title".into(),
            unit: "MB/s".into(),
            categories: vec!["x<y".into()],
            series: vec![("p&q".into(), 0), ("\"r\"".into(), 1)],
            values: vec![vec![Some(3.0), None]],
        });
        assert!(!svg.contains("<&"));
        assert!(svg.contains("&lt;&amp;&quot;title"));
        assert!(svg.contains("p&amp;q"));
        assert!(svg.contains("&quot;r&quot;"));
        parse(&svg);
        let svg = loglog_chart(&LogLog {
            title: "t".into(),
            x_label: "elements".into(),
            y_label: "MB/s".into(),
            lines: vec![Line {
                name: "a<b>&c".into(),
                color: 1,
                points: vec![(10.0, 5.0), (1000.0, 50.0), (100.0, 20.0)],
            }],
        });
        assert!(svg.contains("a&lt;b&gt;&amp;c"));
        parse(&svg);
    }

    #[test]
    fn empty_charts_are_well_formed() {
        parse(&bar_chart(&Bars {
            title: "empty".into(),
            unit: "MB/s".into(),
            categories: vec![],
            series: vec![],
            values: vec![],
        }));
        parse(&loglog_chart(&LogLog {
            title: "empty".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            lines: vec![],
        }));
    }

    fn parse(svg: &str) {
        let mut r = xwire::Reader::from_slice(svg.as_bytes());
        loop {
            match r.next() {
                Ok(xwire::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("{e}: {svg}"),
            }
        }
    }
}
