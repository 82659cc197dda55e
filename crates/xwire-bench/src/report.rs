//! Renders a [`Report`] as aligned text tables (and JSON through serde).

use std::fmt::Write;

use crate::driver::{Cell, Report};

/// The whole report as text: one table per workload, a summary of xwire against its fastest
/// peer, the tiny-document overhead, and what each peer checks.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let mode = if r.quick { "quick" } else { "full" };
    let _ = writeln!(out, "xwire bench ({mode}): parse = pull every event, read every name, attribute value and text\n");
    for w in &r.workloads {
        let _ = writeln!(out, "== {}: {}", w.name, w.description);
        let _ = writeln!(out, "   {}", w.stats.one_line());
        let size = w.stats.size as f64;
        let fastest = w
            .cells
            .iter()
            .filter_map(|(_, c)| c.median())
            .fold(f64::INFINITY, f64::min);
        let xwire = w
            .cells
            .iter()
            .find(|(n, _)| n == "xwire")
            .and_then(|(_, c)| c.median());
        let _ = writeln!(
            out,
            "   {:<16} {:>10} {:>10} {:>9} {:>11} {:>9}",
            "peer", "median ms", "min ms", "MB/s", "vs fastest", "xwire is"
        );
        for (name, cell) in &w.cells {
            match cell {
                Cell::Measured {
                    median_s,
                    min_s,
                    checksum_differs,
                    ..
                } => {
                    let speedup = xwire
                        .map(|x| format!("{:.2}x", median_s / x))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "   {:<16} {:>10.2} {:>10.2} {:>9.0} {:>10.2}x {:>9}{}",
                        name,
                        median_s * 1e3,
                        min_s * 1e3,
                        size / median_s / 1e6,
                        median_s / fastest,
                        if name == "xwire" { "" } else { &speedup },
                        if *checksum_differs {
                            "  (checksum differs)"
                        } else {
                            ""
                        }
                    );
                }
                Cell::Failed { error } => {
                    let _ = writeln!(out, "   {name:<16} failed: {error}");
                }
                Cell::Missing { reason } => {
                    let _ = writeln!(out, "   {name:<16} not found: {reason}");
                }
            }
        }
        out.push('\n');
    }
    for (name, why) in &r.skipped {
        let _ = writeln!(out, "== {name}: skipped: {why}\n");
    }
    let _ = writeln!(
        out,
        "== summary: xwire against the fastest other peer (median time ratio)"
    );
    for w in &r.workloads {
        let x = w
            .cells
            .iter()
            .find(|(n, _)| n == "xwire")
            .and_then(|(_, c)| c.median());
        let best = w
            .cells
            .iter()
            .filter(|(n, _)| n != "xwire")
            .filter_map(|(n, c)| c.median().map(|m| (n, m)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(x), Some((peer, m))) = (x, best) {
            let verdict = if x < m { "faster" } else { "SLOWER" };
            let _ = writeln!(
                out,
                "   {:<14} xwire {:>6.0} MB/s, fastest peer {} {:.0} MB/s: xwire {:.2}x ({verdict})",
                w.name,
                w.stats.size as f64 / x / 1e6,
                peer,
                w.stats.size as f64 / m / 1e6,
                m / x
            );
        }
    }
    let _ = writeln!(
        out,
        "\n== overhead: one-element document, parser creation included"
    );
    for o in &r.overhead {
        match o.ns_per_parse {
            Some(ns) => {
                let _ = writeln!(out, "   {:<16} {:>9.0} ns/parse", o.peer, ns);
            }
            None => {
                let _ = writeln!(out, "   {:<16} {:>9}", o.peer, "-");
            }
        }
    }
    let _ = writeln!(out, "\n== what each peer checks");
    for (name, checks, missing) in &r.peers {
        let _ = writeln!(
            out,
            "   {:<16} {}{}",
            name,
            checks,
            missing
                .as_ref()
                .map(|m| format!(" [not found: {m}]"))
                .unwrap_or_default()
        );
    }
    out
}

/// The report as pretty-printed JSON.
pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).expect("the report is plain data")
}
