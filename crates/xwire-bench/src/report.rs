//! Renders a [`Report`] as aligned text tables and as JSON (the HTML page is [`crate::html`]).

use std::fmt::Write;

use xwire::stats::Stats;

use crate::driver::{Report, WorkloadResult};
use crate::peers::{validate_beside, Op};
use crate::timing::Cell;
use crate::workloads::Group;

/// Streaming parse time of a peer on a workload: the faster of its pull and push parses.
pub fn streaming(w: &WorkloadResult, peer: &str) -> Option<f64> {
    [Op::Parse, Op::Push]
        .iter()
        .filter_map(|&op| w.cell(peer, op).and_then(Cell::median))
        .min_by(f64::total_cmp)
}

/// The fastest streaming parse among peers other than xwire: (peer, seconds).
pub fn fastest_other(w: &WorkloadResult, peers: &[String]) -> Option<(String, f64)> {
    peers
        .iter()
        .filter(|p| *p != "xwire")
        .filter_map(|p| streaming(w, p).map(|t| (p.clone(), t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// A validating peer's `validate` on a workload beside its own non-validating parse
/// ([`crate::peers::VALIDATE_BESIDE`]): one row of the validation tables.
pub struct ValidationRow<'a> {
    /// The validating peer.
    pub peer: &'a str,
    /// Its `validate` cell (measured or failed).
    pub validate: &'a Cell,
    /// The peer and operation of its non-validating parse, if it has one.
    pub beside: Option<(&'static str, Op)>,
    /// That parse's median, when measured.
    pub parse_s: Option<f64>,
}

impl ValidationRow<'_> {
    /// Validate median over parse median: what validation costs on top of the parse.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.validate.median()? / self.parse_s?)
    }
}

/// The rows of `w`'s validation table: each peer whose `validate` was measured or failed, in
/// report order.
pub fn validation_rows(w: &WorkloadResult) -> Vec<ValidationRow<'_>> {
    w.results
        .iter()
        .filter(|m| m.op == Op::Validate)
        .filter(|m| matches!(m.cell, Cell::Measured { .. } | Cell::Failed { .. }))
        .map(|m| {
            let beside = validate_beside(&m.peer);
            ValidationRow {
                peer: &m.peer,
                validate: &m.cell,
                beside,
                parse_s: beside
                    .and_then(|(p, op)| w.cell(p, op))
                    .and_then(Cell::median),
            }
        })
        .collect()
}

/// The whole report as text: per group and workload a table (peers x operations), a summary
/// of xwire against its fastest peer, throughput, missing peers and failures.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let mode = if r.quick { "quick" } else { "full" };
    let cold = if r.cold { ", cold caches" } else { "" };
    let _ = writeln!(
        out,
        "xwire bench {} ({mode}{cold}) on {} CPUs, {}, {}",
        r.version, r.machine.cpus, r.machine.cpu, r.machine.os
    );
    let _ = writeln!(
        out,
        "median and min time per document over the timed runs; vs fastest: median relative to the fastest peer doing the same operation; peak: memory one run touched\n"
    );
    let peer_names: Vec<String> = r.peers.iter().map(|p| p.name.clone()).collect();
    for &g in Group::ALL {
        let ws: Vec<&WorkloadResult> = r.workloads.iter().filter(|w| w.group == g).collect();
        if ws.is_empty() {
            continue;
        }
        let _ = writeln!(out, "=== {}", g.title());
        for w in ws {
            table(&mut out, r, w);
        }
    }
    for (name, why) in &r.skipped {
        let _ = writeln!(out, "skipped {name}: {why}");
    }
    validation(&mut out, r);
    summary(&mut out, r, &peer_names);
    if let Some(b) = &r.bxsa {
        bxsa(&mut out, b);
    }
    if let Some(t) = &r.throughput {
        let _ = writeln!(
            out,
            "\n=== throughput ({} threads, streaming parse; ramp-up {:.1} s, steady {:.1} s, ramp-down {:.1} s; mix: {})",
            t.threads,
            t.periods_s[0],
            t.periods_s[1],
            t.periods_s[2],
            t.mix.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(
            out,
            "   {:<18} {:<6} {:>12} {:>14}",
            "peer", "op", "docs/s", "mean ms/doc"
        );
        for row in &t.rows {
            match (row.tps, row.mean_s) {
                (Some(tps), Some(mean)) => {
                    let _ = writeln!(
                        out,
                        "   {:<18} {:<6} {:>12.0} {:>14.3}",
                        row.peer,
                        row.op.name(),
                        tps,
                        mean * 1e3
                    );
                }
                _ => {
                    let _ = writeln!(
                        out,
                        "   {:<18} failed: {}",
                        row.peer,
                        row.error.as_deref().unwrap_or("?")
                    );
                }
            }
        }
    }
    let missing: Vec<_> = r.peers.iter().filter(|p| p.missing.is_some()).collect();
    if !missing.is_empty() {
        let _ = writeln!(out, "\n=== peers not found (the suite ran without them)");
        for p in missing {
            let _ = writeln!(
                out,
                "   {:<18} {}",
                p.name,
                p.missing.as_deref().unwrap_or("")
            );
        }
    }
    let mut failures = String::new();
    for w in &r.workloads {
        for m in &w.results {
            if let Cell::Failed { error } = &m.cell {
                let _ = writeln!(failures, "   {} {} on {}: {}", m.peer, m.op, w.name, error);
            }
        }
    }
    let skipped: Vec<String> = r
        .workloads
        .iter()
        .flat_map(|w| {
            w.results.iter().filter_map(move |m| match &m.cell {
                Cell::Skipped { reason } => {
                    Some(format!("{} {} on {}: {reason}", m.peer, m.op, w.name))
                }
                _ => None,
            })
        })
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(out, "\n=== not run in this mode ({} cells)", skipped.len());
        for line in skipped.iter().take(5) {
            let _ = writeln!(out, "   {line}");
        }
        if skipped.len() > 5 {
            let _ = writeln!(out, "   ... (all of them in the JSON and HTML reports)");
        }
    }
    if !failures.is_empty() {
        let _ = writeln!(out, "\n=== failures\n{failures}");
    }
    if !r.probes.is_empty() {
        let _ = writeln!(
            out,
            "\n=== not-well-formed probes: rejected (yes) or accepted (NO)"
        );
        let _ = write!(out, "   {:<28}", "probe");
        for row in &r.probes {
            let _ = write!(out, " {:>w$}", row.peer, w = row.peer.len().max(4));
        }
        out.push('\n');
        for (i, name) in r.probe_names.iter().enumerate() {
            let _ = write!(out, "   {name:<28}");
            for row in &r.probes {
                let v = if row.rejected[i] { "yes" } else { "NO" };
                let _ = write!(out, " {:>w$}", v, w = row.peer.len().max(4));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "\n=== what each peer checks");
    for p in &r.peers {
        let ops: Vec<&str> = p.ops.iter().map(|o| o.name()).collect();
        let _ = writeln!(out, "   {:<18} [{}] {}", p.name, ops.join(" "), p.checks);
    }
    out
}

/// A duration with a unit that suits it: "312 ns", "45.2 us", "12.3 ms", "1.20 s".
pub fn duration(s: f64) -> String {
    if s < 1e-6 {
        format!("{:.0} ns", s * 1e9)
    } else if s < 1e-3 {
        format!("{:.1} us", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// A workload's characteristics on one line, under its name.
fn one_line(s: &Stats) -> String {
    format!(
        "{:.1} MB, {} elements, {} attributes, depth {}, {} distinct names, {:.2} attributes/element, {} namespace declarations",
        s.size as f64 / 1e6,
        s.elements,
        s.attributes,
        s.max_depth,
        s.distinct_names,
        s.attributes_per_element(),
        s.namespaces_declared
    )
}

/// One workload: a row per (operation, peer) measured or failed, grouped by operation.
fn table(out: &mut String, r: &Report, w: &WorkloadResult) {
    let _ = writeln!(out, "-- {}: {}", w.name, w.description);
    let _ = writeln!(out, "   {}", one_line(&w.stats));
    let _ = writeln!(
        out,
        "   {:<12} {:<22} {:>10} {:>10} {:>8} {:>10} {:>8}",
        "op", "peer", "median", "min", "MB/s", "vs fastest", "peak MB"
    );
    let mut any = false;
    for &op in &r.ops {
        let best = w.fastest(op).map(|b| b.1);
        let mut first = true;
        for m in w.results.iter().filter(|m| m.op == op) {
            let label = if first { op.name() } else { "" };
            // A pipeline's rows are headed by its expression.
            if first
                && op.is_pipeline()
                && matches!(m.cell, Cell::Measured { .. } | Cell::Failed { .. })
            {
                let _ = writeln!(out, "   {}", op.title());
            }
            match &m.cell {
                Cell::Measured {
                    median_s,
                    min_s,
                    checksum_differs,
                    peak_bytes,
                    ..
                } => {
                    let _ = writeln!(
                        out,
                        "   {:<12} {:<22} {:>10} {:>10} {:>8.0} {:>9.2}x {:>8}{}",
                        label,
                        m.peer,
                        duration(*median_s),
                        duration(*min_s),
                        w.stats.size as f64 / median_s / 1e6,
                        median_s / best.unwrap_or(*median_s),
                        peak_bytes.map_or(String::new(), |b| format!("{:.1}", b as f64 / 1e6)),
                        if *checksum_differs {
                            "  checksum differs"
                        } else {
                            ""
                        }
                    );
                }
                Cell::Failed { error } => {
                    let short: String = error.chars().take(60).collect();
                    let _ = writeln!(out, "   {:<12} {:<22} failed: {short}", label, m.peer);
                }
                Cell::Missing | Cell::Unsupported | Cell::Skipped { .. } => continue,
            }
            first = false;
            any = true;
        }
    }
    if !any {
        let _ = writeln!(out, "   (nothing measured)");
    }
    out.push('\n');
}

/// Each validating peer's `validate` beside its own non-validating parse, per workload.
fn validation(out: &mut String, r: &Report) {
    let ws: Vec<(&WorkloadResult, Vec<ValidationRow<'_>>)> = r
        .workloads
        .iter()
        .map(|w| (w, validation_rows(w)))
        .filter(|(_, rows)| !rows.is_empty())
        .collect();
    if ws.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n=== validation: each processor's validate beside its own non-validating parse (medians; validate/parse: what validation costs)"
    );
    let _ = writeln!(
        out,
        "   {:<24} {:<22} {:>10} {:>7} {:<26} {:>10} {:>9}",
        "workload", "peer", "validate", "MB/s", "non-validating parse", "parse", "val/parse"
    );
    for (w, rows) in ws {
        for (i, row) in rows.iter().enumerate() {
            let name = if i == 0 { w.name.as_str() } else { "" };
            let (validate, speed) = match row.validate {
                Cell::Measured { median_s, .. } => (
                    duration(*median_s),
                    format!("{:.0}", w.stats.size as f64 / median_s / 1e6),
                ),
                _ => ("failed".to_string(), String::new()),
            };
            let beside = row
                .beside
                .map_or("-".to_string(), |(p, op)| format!("{p} {op}"));
            let _ = writeln!(
                out,
                "   {:<24} {:<22} {:>10} {:>7} {:<26} {:>10} {:>9}",
                name,
                row.peer,
                validate,
                speed,
                beside,
                row.parse_s.map_or("-".to_string(), duration),
                row.ratio().map_or("-".to_string(), |q| format!("{q:.2}x"))
            );
        }
    }
}

fn summary(out: &mut String, r: &Report, peers: &[String]) {
    let _ = writeln!(
        out,
        "\n=== summary: xwire's streaming parse (pull or push, the faster) against the fastest other peer's"
    );
    for w in &r.workloads {
        let (Some(x), Some((peer, m))) = (streaming(w, "xwire"), fastest_other(w, peers)) else {
            continue;
        };
        let verdict = if x < m { "faster" } else { "SLOWER" };
        let speed = |t: f64| {
            if w.group == Group::Overhead {
                format!("{:>7.0} ns", t * 1e9)
            } else {
                format!("{:>7.0} MB/s", w.stats.size as f64 / t / 1e6)
            }
        };
        let _ = writeln!(
            out,
            "   {:<24} xwire {}, fastest peer {:<16} {}: xwire {:.2}x ({verdict})",
            w.name,
            speed(x),
            peer,
            speed(m),
            m / x
        );
    }
}

/// A size in bytes with thousands separators: `12,000`.
pub fn bytes(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A cell of the BXSA time table: `median (MB/s of the native size)`, or why there is none.
pub fn bxsa_cell(c: Option<&Cell>, native_bytes: usize) -> String {
    match c {
        None => String::new(),
        Some(Cell::Measured {
            median_s,
            checksum_differs,
            ..
        }) => {
            let speed = if native_bytes > 0 {
                format!(" ({:.0})", native_bytes as f64 / median_s / 1e6)
            } else {
                String::new()
            };
            let flag = if *checksum_differs {
                " checksum differs"
            } else {
                ""
            };
            format!("{}{speed}{flag}", duration(*median_s))
        }
        Some(Cell::Failed { .. }) => "failed".into(),
        Some(Cell::Skipped { .. }) => "skipped".into(),
        Some(Cell::Missing) => "missing".into(),
        Some(Cell::Unsupported) => "-".into(),
    }
}

/// The BXSA experiment: the paper's size table, the times per size, the goals.
fn bxsa(out: &mut String, b: &crate::bxsa::BxsaReport) {
    use crate::bxsa::{Encoding, Phase, PAIR_BYTES, TABLE_PAIRS};
    let _ = writeln!(
        out,
        "\n=== binary XML: the BXSA data set, n (int32 index, float64 value) pairs, native 12n bytes (seed {})",
        b.seed
    );
    let _ = writeln!(
        out,
        "-- sizes at {} pairs (native {} bytes); the paper's rows are quoted from it, not measured",
        bytes(TABLE_PAIRS as u64),
        bytes((TABLE_PAIRS * PAIR_BYTES) as u64)
    );
    let _ = writeln!(
        out,
        "   {:<26} {:>10} {:>10}",
        "encoding", "bytes", "overhead"
    );
    for (label, size, pct, paper) in b.size_table() {
        let _ = writeln!(
            out,
            "   {:<26} {:>10} {:>10}{}",
            label,
            size.map_or("-".to_string(), bytes),
            pct.map_or("-".to_string(), |p| format!("{p:.2}%")),
            if paper { "  (from the paper)" } else { "" }
        );
    }
    let phases = Phase::ALL;
    let _ = writeln!(
        out,
        "-- median time per run (MB/s of the native 12n bytes); in place: xwire's reader summing the arrays viewed in the input, no model; memcpy: into a buffer allocated before timing; copy to new: into one each run allocates; EXI encodes the text document (Xerces parse included) and decodes to counted SAX events"
    );
    for &n in &b.pairs {
        let native = n * PAIR_BYTES;
        let _ = writeln!(
            out,
            "   {} pairs, native {} bytes",
            bytes(n as u64),
            bytes(native as u64)
        );
        let _ = write!(out, "   {:<18} {:>12}", "encoding", "bytes");
        for ph in phases {
            let _ = write!(out, " {:>16}", ph.short());
        }
        out.push('\n');
        for &e in &b.encodings {
            if !b.times.iter().any(|t| t.pairs == n && t.encoding == e) {
                continue;
            }
            let size = match e {
                Encoding::Model => String::new(),
                e => b.size(n, e).map_or("-".to_string(), bytes),
            };
            let _ = write!(out, "   {:<18} {:>12}", e.title(), size);
            for ph in phases {
                let _ = write!(out, " {:>16}", bxsa_cell(b.cell(n, e, ph), native));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "-- goals (issue 6)");
    for g in &b.goals {
        let _ = writeln!(out, "   {}: {}", g.name, g.line());
        if !g.detail.is_empty() {
            let _ = writeln!(out, "      ({})", g.detail);
        }
    }
    for note in &b.notes {
        let _ = writeln!(out, "   note: {note}");
    }
    let failed: Vec<String> = b
        .times
        .iter()
        .filter_map(|t| match &t.cell {
            Cell::Failed { error } | Cell::Skipped { reason: error } => Some(format!(
                "{} {} at {} pairs: {error}",
                t.encoding.name(),
                t.phase.name(),
                t.pairs
            )),
            _ => None,
        })
        .collect();
    for f in failed {
        let _ = writeln!(out, "   not measured: {f}");
    }
}

/// The report as pretty-printed JSON.
pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).expect("the report is plain data")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Measurement;

    fn measured(median_s: f64) -> Cell {
        Cell::Measured {
            median_s,
            min_s: median_s,
            runs: 3,
            checksum_differs: false,
            peak_bytes: None,
        }
    }

    #[test]
    fn the_bxsa_experiment_renders_in_text_json_and_html() {
        let mut r = crate::driver::run(
            &[],
            &[],
            &crate::driver::Options::new(true),
            &mut |_, _, _| {},
        );
        let b = crate::bxsa::tests::small_run(&[0, 1_000, 3_000], false);
        r.bxsa = Some(b.clone());
        let text = text(&r);
        assert!(text.contains("=== binary XML: the BXSA data set"), "{text}");
        assert!(text.contains("-- sizes at 1,000 pairs (native 12,000 bytes)"));
        let binary = b.size(1_000, crate::bxsa::Encoding::Xwire).unwrap();
        let row = format!("   {:<26} {:>10}", "xwire binary", bytes(binary));
        assert!(text.contains(&row), "{text}");
        let paper = format!(
            "   {:<26} {:>10} {:>10}  (from the paper)",
            "BXSA (paper)", "-", "1.30%"
        );
        assert!(text.contains(&paper), "{text}");
        assert!(text.contains("   3,000 pairs, native 36,000 bytes"));
        assert!(text.contains("xwire binary size overhead over native at 1000 pairs: 0."));
        // Text was not run at 100,000 pairs: that goal is not measured, and says so.
        assert!(text.contains("speed-up over text XML at 100000 pairs: not measured"));
        // JSON: the numbers come back as they were.
        let v: serde_json::Value = serde_json::from_str(&json(&r)).unwrap();
        let back: crate::bxsa::BxsaReport = serde_json::from_value(v["bxsa"].clone()).unwrap();
        // serde_json may read a float back one unit in the last place off: compare floats
        // closely, everything else exactly.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
        assert_eq!(
            (&back.sizes, &back.pairs, &back.notes),
            (&b.sizes, &b.pairs, &b.notes)
        );
        assert_eq!(back.times.len(), b.times.len());
        for (x, y) in back.times.iter().zip(&b.times) {
            assert_eq!(
                (x.pairs, x.encoding, x.phase),
                (y.pairs, y.encoding, y.phase)
            );
            assert!(
                close(x.cell.median().unwrap(), y.cell.median().unwrap()),
                "{x:?} {y:?}"
            );
        }
        for (x, y) in back.goals.iter().zip(&b.goals) {
            assert_eq!((&x.name, x.met), (&y.name, y.met));
            assert_eq!(x.measured.is_some(), y.measured.is_some());
            assert!(x
                .measured
                .zip(y.measured)
                .map_or(true, |(p, q)| close(p, q)));
        }
        assert_eq!(v["bxsa"]["sizes"][0]["encoding"], "native");
        // HTML: the size table with the paper's rows, the goals, a time table per size, charts.
        let page = crate::html::render_dated(&r, "2024-01-01 00:00 UTC");
        assert!(page.contains("<table class=\"bxsa-sizes\">"));
        assert!(page.contains(&format!("<td class=\"n\">{}</td>", bytes(binary))));
        assert!(page.contains("<tr class=\"paper\"><td>netCDF (paper) <em>(from the paper, not measured)</em></td><td class=\"n\">-</td><td class=\"n\">2.20%</td></tr>"));
        assert_eq!(page.matches("<table class=\"bxsa-times\">").count(), 3);
        assert!(page.contains("<th>copy into new memory</th>"));
        assert!(page.contains("Decode: median time against pairs"));
        assert!(page.contains("Encode: median time against pairs"));
        assert!(!page.contains("this run has none.</p>\n<h3>Numeric"));
    }

    #[test]
    fn bytes_have_thousands_separators() {
        assert_eq!(bytes(0), "0");
        assert_eq!(bytes(999), "999");
        assert_eq!(bytes(12_000), "12,000");
        assert_eq!(bytes(1_234_567), "1,234,567");
    }

    #[test]
    fn validation_rows_pair_each_validating_peer_with_its_own_parse() {
        let m = |peer: &str, op, cell| Measurement {
            peer: peer.into(),
            op,
            cell,
        };
        let w = WorkloadResult {
            name: "po-1k".into(),
            group: Group::PurchaseOrders,
            series: None,
            description: String::new(),
            stats: Stats {
                size: 1_000,
                ..Default::default()
            },
            has_schema: true,
            pipelines: false,
            results: vec![
                m("libxml2-sax", Op::Push, measured(1e-5)),
                m("libxml2-xsd", Op::Validate, measured(3e-5)),
                m("quick-xml", Op::Validate, Cell::Unsupported),
                m(
                    "lxml",
                    Op::Validate,
                    Cell::Failed {
                        error: "invalid".into(),
                    },
                ),
            ],
        };
        let rows = validation_rows(&w);
        assert_eq!(rows.len(), 2, "measured or failed only");
        assert_eq!(rows[0].peer, "libxml2-xsd");
        assert_eq!(rows[0].beside, Some(("libxml2-sax", Op::Push)));
        assert!((rows[0].ratio().unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(rows[1].beside, Some(("lxml", Op::Tree)));
        assert_eq!((rows[1].parse_s, rows[1].ratio()), (None, None));
    }
}
