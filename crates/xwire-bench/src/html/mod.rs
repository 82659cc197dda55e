//! The report as one self-contained HTML page: inline CSS, charts as inline SVG drawn by
//! [`svg`], no scripts and no external resources, so the page can be mailed or archived as
//! one file. Every section is shown when the report has data for it, and otherwise replaced
//! by a one-line note saying what would be there and what produces it.
//!
//! The page is XHTML-compatible (every element closed, only XML's entities), so each chart
//! can be checked with xwire's own reader.

pub mod svg;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::driver::{Report, WorkloadResult};
use crate::peers::{Lang, Op};
use crate::report::{duration, streaming, validation_rows};
use crate::timing::Cell;
use crate::workloads::Group;
use svg::{escape, number};

/// Writes `index.html` (and `report.json` beside it) into `dir`; the page's path.
pub fn write(r: &Report, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let page = dir.join("index.html");
    std::fs::write(&page, render(r)).map_err(|e| format!("{}: {e}", page.display()))?;
    let json = dir.join("report.json");
    std::fs::write(&json, crate::report::json(r))
        .map_err(|e| format!("{}: {e}", json.display()))?;
    Ok(page)
}

/// The page, dated now.
pub fn render(r: &Report) -> String {
    render_dated(r, &utc_now())
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian calendar).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

const CSS: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1100px;padding:1em 2em 4em;color:#222;line-height:1.4}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #4e79a7;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.5em}h4{margin:1.2em 0 .2em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;vertical-align:top}
th{background:#f0f3f7;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.xwire td{background:#f4f8fc;font-weight:600}
.note{color:#555;font-style:italic;background:#fafafa;border-left:3px solid #bbb;padding:.3em .8em}
.meta td:first-child{font-weight:600;white-space:nowrap}
.chars{color:#555;font-size:13px;margin:.1em 0 .3em}
.differs{color:#b00;font-weight:bold;font-size:13px}h4 .desc{font-weight:normal;color:#444;font-size:14px}.failed{color:#b00}.cannot{color:#888}
figure{margin:1em 0}svg.chart{max-width:100%;height:auto;border:1px solid #eee;background:#fff}
code{background:#f3f3f3;padding:0 .25em}
nav ol{columns:2;font-size:14px}
";

/// The page, with `date` in its header.
pub fn render_dated(r: &Report, date: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>xwire bench {}</title><style>{CSS}</style></head><body>\n",
        escape(&r.version)
    );
    header(&mut out, r, date);
    peers(&mut out, r);
    overhead(&mut out, r);
    arrays(&mut out, r);
    documents(&mut out, r);
    validation(&mut out, r);
    compiled(&mut out, r);
    latency(&mut out, r);
    pipelines(&mut out, r);
    throughput(&mut out, r);
    binary(&mut out, r);
    every_workload(&mut out, r);
    out.push_str("</body></html>\n");
    out
}

/// The sections, as (id, heading).
const SECTIONS: &[(&str, &str)] = &[
    ("peers", "Peers"),
    ("overhead", "Overhead per processor"),
    ("arrays", "Throughput against array size"),
    ("documents", "Namespace-heavy and application documents"),
    ("validation", "Non-validating and validating parse"),
    ("compiled", "Typed objects from schemas (XML Screamer)"),
    ("latency", "Latency per file size"),
    ("pipelines", "XPath-and-edit pipelines"),
    ("throughput", "Transactions per second"),
    ("binary", "Binary XML: sizes and times against text"),
    ("workloads", "Every workload"),
];

fn h2(out: &mut String, id: &str) {
    let title = SECTIONS.iter().find(|s| s.0 == id).map_or(id, |s| s.1);
    let _ = writeln!(out, "<section id=\"{id}\"><h2>{}</h2>", escape(title));
}

fn note(out: &mut String, text: &str) {
    let _ = writeln!(out, "<p class=\"note\">{text}</p>");
}

fn figure(out: &mut String, chart: &str) {
    let _ = writeln!(out, "<figure>{chart}</figure>");
}

fn lang(l: Lang) -> &'static str {
    match l {
        Lang::Rust => "Rust",
        Lang::C => "C",
        Lang::Cpp => "C++",
        Lang::Java => "Java",
        Lang::Python => "Python",
    }
}

fn mode(r: &Report) -> String {
    let mut m = String::from(if r.quick { "quick" } else { "full" });
    if r.cold {
        m.push_str(", cold caches (each run parses the next of several copies)");
    } else {
        m.push_str(", warm caches");
    }
    m
}

fn header(out: &mut String, r: &Report, date: &str) {
    let _ = writeln!(
        out,
        "<header><h1>xwire bench {}</h1><table class=\"meta\"><tr><td>mode</td><td>{}</td></tr><tr><td>machine</td><td>{} logical CPUs, {}, {}</td></tr><tr><td>command</td><td><code>{}</code></td></tr><tr><td>date</td><td>{}</td></tr><tr><td>operations</td><td>{}</td></tr></table>",
        escape(&r.version),
        escape(&mode(r)),
        r.machine.cpus,
        escape(&r.machine.cpu),
        escape(&r.machine.os),
        escape(&r.command),
        escape(date),
        escape(&r.ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(", "))
    );
    out.push_str("<p>Speeds are MB/s of document text over the median of interleaved rounds (higher is better); ratios are times relative to the fastest peer for the same operation (1.00&#215; is the fastest). &#8220;Streaming parse&#8221; is the faster of a peer&#8217;s pull and push parses. Read every ratio with the peers&#8217; <a href=\"#peers\">checks</a> in mind: a parser that checks less does less work.</p>\n<nav><ol>");
    for (id, title) in SECTIONS {
        let _ = write!(out, "<li><a href=\"#{id}\">{}</a></li>", escape(title));
    }
    out.push_str("</ol></nav></header>\n");
}

/// Peers available on this machine, with their colour index (their place in the report).
fn present(r: &Report) -> Vec<(usize, &str)> {
    r.peers
        .iter()
        .enumerate()
        .filter(|(_, p)| p.missing.is_none())
        .map(|(i, p)| (i, p.name.as_str()))
        .collect()
}

fn peers(out: &mut String, r: &Report) {
    h2(out, "peers");
    if r.peers.is_empty() {
        note(out, "No peers were selected (<code>--peers</code>).");
    } else {
        out.push_str("<table><tr><th>peer</th><th>language</th><th>operations</th><th>what it checks</th></tr>\n");
        for p in r.peers.iter().filter(|p| p.missing.is_none()) {
            let cls = if p.name == "xwire" {
                " class=\"xwire\""
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<tr{cls}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&p.name),
                lang(p.lang),
                escape(
                    &p.ops
                        .iter()
                        .map(|o| o.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                escape(&p.checks)
            );
        }
        out.push_str("</table>\n");
        let missing: Vec<_> = r.peers.iter().filter(|p| p.missing.is_some()).collect();
        if !missing.is_empty() {
            out.push_str("<h3>Not found on this machine (the suite ran without them)</h3><table><tr><th>peer</th><th>language</th><th>why, and how to get it</th></tr>\n");
            for p in missing {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                    escape(&p.name),
                    lang(p.lang),
                    escape(p.missing.as_deref().unwrap_or(""))
                );
            }
            out.push_str("</table>\n");
        }
    }
    probes(out, r);
    out.push_str("</section>\n");
}

/// Which not-well-formed probes each peer rejects, inside the peers section.
fn probes(out: &mut String, r: &Report) {
    if r.probes.is_empty() {
        return;
    }
    out.push_str("<h3>What each peer rejects (measured on small not-well-formed documents)</h3><div style=\"overflow-x:auto\"><table><tr><th>probe</th>");
    for row in &r.probes {
        let _ = write!(out, "<th>{}</th>", escape(&row.peer));
    }
    out.push_str("</tr>\n");
    for (i, name) in r.probe_names.iter().enumerate() {
        let _ = write!(out, "<tr><td>{}</td>", escape(name));
        for row in &r.probes {
            let (cls, text) = if row.rejected.get(i) == Some(&true) {
                ("n", "rejected")
            } else {
                ("failed", "ACCEPTED")
            };
            let _ = write!(out, "<td class=\"{cls}\">{text}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
}

fn in_group(r: &Report, g: Group) -> Vec<&WorkloadResult> {
    r.workloads.iter().filter(|w| w.group == g).collect()
}

fn mbps(w: &WorkloadResult, t: f64) -> f64 {
    w.stats.size as f64 / t / 1e6
}

fn overhead(out: &mut String, r: &Report) {
    h2(out, "overhead");
    let ws = in_group(r, Group::Overhead);
    if ws.is_empty() {
        note(out, "The fixed cost of one parse is measured on the <code>overhead</code> workload (a single element); it was not part of this run (<code>--only overhead</code> adds it).");
    }
    for w in ws {
        let ps: Vec<(usize, &str)> = present(r)
            .into_iter()
            .filter(|(_, p)| streaming(w, p).is_some())
            .collect();
        let values: Vec<Vec<Option<f64>>> = ps
            .iter()
            .map(|(_, p)| vec![streaming(w, p).map(|t| t * 1e9)])
            .collect();
        if values.is_empty() {
            note(
                out,
                &format!(
                    "No streaming parse was measured on <code>{}</code>.",
                    escape(&w.name)
                ),
            );
            continue;
        }
        let _ = writeln!(
            out,
            "<p>Nanoseconds per parse of <code>{}</code> ({}), the faster of pull and push parse; lower is better.</p>",
            escape(&w.name),
            escape(&w.description)
        );
        figure(
            out,
            &svg::bar_chart(&svg::Bars {
                title: format!("Overhead: ns per parse of {}", w.name),
                unit: "ns per parse (lower is better)".into(),
                categories: ps.iter().map(|(_, p)| p.to_string()).collect(),
                series: vec![("ns per parse".into(), 0)],
                values,
            }),
        );
    }
    out.push_str("</section>\n");
}

/// Series names of `ws`, in order of first appearance.
fn series_names<'a>(ws: &[&'a WorkloadResult]) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for w in ws {
        if let Some(s) = &w.series {
            if !names.contains(&s.name.as_str()) {
                names.push(&s.name);
            }
        }
    }
    names
}

fn arrays(out: &mut String, r: &Report) {
    h2(out, "arrays");
    let ws = in_group(r, Group::Arrays);
    let names = series_names(&ws);
    if names.is_empty() {
        note(out, "Lines of MB/s against array length, one chart per element type, come from the array series of the <code>Arrays</code> group (SOAP-encoded arrays at several lengths, issue 3); this run has none.");
    }
    for name in names {
        let points: Vec<&WorkloadResult> = ws
            .iter()
            .copied()
            .filter(|w| w.series.as_ref().is_some_and(|s| s.name == name))
            .collect();
        let unit = points
            .first()
            .and_then(|w| w.series.as_ref())
            .map_or("elements", |s| s.unit);
        let lines: Vec<svg::Line> = present(r)
            .iter()
            .map(|&(c, p)| svg::Line {
                name: p.to_string(),
                color: c,
                points: points
                    .iter()
                    .filter_map(|w| {
                        let x = w.series.as_ref()?.x;
                        streaming(w, p).map(|t| (x, mbps(w, t)))
                    })
                    .collect(),
            })
            .filter(|l| !l.points.is_empty())
            .collect();
        if lines.is_empty() {
            note(
                out,
                &format!(
                    "Nothing was measured for the series <code>{}</code>.",
                    escape(name)
                ),
            );
            continue;
        }
        figure(
            out,
            &svg::loglog_chart(&svg::LogLog {
                title: format!("{name}: streaming parse MB/s against {unit}"),
                x_label: unit.to_string(),
                y_label: "MB/s".into(),
                lines,
            }),
        );
    }
    let single: Vec<&WorkloadResult> = ws.iter().copied().filter(|w| w.series.is_none()).collect();
    if !single.is_empty() {
        out.push_str("<p>Array workloads of one size:</p>\n");
        grouped_bars(
            out,
            r,
            &format!("{}: streaming parse MB/s", Group::Arrays.title()),
            &single,
        );
    }
    out.push_str("</section>\n");
}

/// A grouped bar chart: one group of bars per workload, one bar per present peer (streaming
/// parse MB/s). Draws nothing when nothing was measured.
fn grouped_bars(out: &mut String, r: &Report, title: &str, ws: &[&WorkloadResult]) -> bool {
    // Peers with a streaming parse on at least one of the workloads.
    let ps: Vec<(usize, &str)> = present(r)
        .into_iter()
        .filter(|(_, p)| ws.iter().any(|w| streaming(w, p).is_some()))
        .collect();
    let values: Vec<Vec<Option<f64>>> = ws
        .iter()
        .map(|w| {
            ps.iter()
                .map(|(_, p)| streaming(w, p).map(|t| mbps(w, t)))
                .collect()
        })
        .collect();
    if values.iter().flatten().all(Option::is_none) {
        return false;
    }
    figure(
        out,
        &svg::bar_chart(&svg::Bars {
            title: title.to_string(),
            unit: "MB/s, streaming parse (higher is better)".into(),
            categories: ws.iter().map(|w| w.name.clone()).collect(),
            series: ps.iter().map(|&(c, p)| (p.to_string(), c)).collect(),
            values,
        }),
    );
    true
}

/// Groups drawn as grouped bar charts in the documents section.
const DOCUMENT_GROUPS: &[Group] = &[
    Group::Namespaces,
    Group::ObjectGraphs,
    Group::Soap,
    Group::Application,
    Group::Real,
];

fn documents(out: &mut String, r: &Report) {
    h2(out, "documents");
    let mut any = false;
    for &g in DOCUMENT_GROUPS {
        let ws = in_group(r, g);
        if ws.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h3>{}</h3>", escape(g.title()));
        if grouped_bars(out, r, &format!("{}: streaming parse MB/s", g.title()), &ws) {
            any = true;
        } else {
            note(out, "No streaming parse was measured here.");
        }
    }
    if !any && !DOCUMENT_GROUPS.iter().any(|&g| !in_group(r, g).is_empty()) {
        note(out, "MB/s per peer on namespace-heavy, object-graph, SOAP, application and real documents come from the workloads of those groups (<code>--list</code> shows them); this run has none.");
    }
    out.push_str("</section>\n");
}

fn validation(out: &mut String, r: &Report) {
    h2(out, "validation");
    let ws: Vec<&WorkloadResult> = r.workloads.iter().filter(|w| w.has_schema).collect();
    if ws.is_empty() {
        note(out, "The table of non-validating against validating parse (in the manner of XML Screamer) needs workloads with a schema (the purchase orders <code>po</code>, <code>po-*</code>, <code>ipo-*</code>; the SOAP arrays and messages <code>arrays-*</code>, <code>soap-echo-*</code>; the numeric sets <code>numeric-*</code>); this run has none.");
        out.push_str("</section>\n");
        return;
    }
    if !r.ops.contains(&Op::Validate) {
        note(out, "The <code>validate</code> operation was not part of this run (<code>--ops</code>); the validating columns are empty.");
    }
    out.push_str("<p>MB/s of the best streaming parse without validation and of <code>validate</code> with the workload&#8217;s schema, and the speed relative to xwire&#8217;s (above 1 is faster than xwire). <span class=\"cannot\">cannot</span>: the processor does not validate; -: not measured or not on this machine.</p>\n<table><tr><th rowspan=\"2\">processor</th>");
    for w in &ws {
        let _ = write!(out, "<th colspan=\"4\">{}</th>", escape(&w.name));
    }
    out.push_str("</tr><tr>");
    for _ in &ws {
        out.push_str("<th>parse MB/s</th><th>vs xwire</th><th>validate MB/s</th><th>vs xwire</th>");
    }
    out.push_str("</tr>\n");
    for p in &r.peers {
        let cls = if p.name == "xwire" {
            " class=\"xwire\""
        } else {
            ""
        };
        let _ = write!(out, "<tr{cls}><td>{}</td>", escape(&p.name));
        for w in &ws {
            if p.missing.is_some() {
                out.push_str("<td class=\"n\">-</td><td class=\"n\">-</td>");
            } else {
                let ratio = streaming(w, "xwire")
                    .zip(streaming(w, &p.name))
                    .map(|(x, t)| x / t);
                let _ = write!(
                    out,
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                    streaming(w, &p.name).map_or("-".into(), |t| number(mbps(w, t))),
                    ratio.map_or("-".into(), |q| format!("{q:.2}"))
                );
            }
            if !p.ops.contains(&Op::Validate) {
                out.push_str(
                    "<td class=\"n cannot\">cannot</td><td class=\"n cannot\">cannot</td>",
                );
                continue;
            }
            let x = w.cell("xwire", Op::Validate).and_then(Cell::median);
            match w.cell(&p.name, Op::Validate) {
                Some(Cell::Measured { median_s, .. }) => {
                    let _ = write!(
                        out,
                        "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                        number(mbps(w, *median_s)),
                        x.map_or("-".into(), |x| format!("{:.2}", x / median_s))
                    );
                }
                Some(Cell::Failed { error }) => {
                    let _ = write!(
                        out,
                        "<td class=\"n failed\" title=\"{}\">failed</td><td class=\"n\">-</td>",
                        escape(error)
                    );
                }
                Some(Cell::Unsupported) => out.push_str(
                    "<td class=\"n cannot\">cannot</td><td class=\"n cannot\">cannot</td>",
                ),
                _ => out.push_str("<td class=\"n\">-</td><td class=\"n\">-</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    validation_cost(out, &ws);
    out.push_str("</section>\n");
}

/// `bind` (typed objects, parse + validate + deserialize, from code generated from the
/// schema) beside the parse and the validation of the same documents, in the manner of
/// XML Screamer's table: for each workload with a `bind` measured, one row per processor and
/// operation, with the speed of `xwire-compiled` relative to it.
fn compiled(out: &mut String, r: &Report) {
    h2(out, "compiled");
    let ws: Vec<&WorkloadResult> = r
        .workloads
        .iter()
        .filter(|w| {
            w.results
                .iter()
                .any(|m| m.op == Op::Bind && m.cell.median().is_some())
        })
        .collect();
    if ws.is_empty() {
        note(out, "The table of typed objects needs the <code>bind</code> operation (<code>--ops bind</code>) on workloads whose schemas have generated parsers (<code>po-*</code>, <code>ipo-*</code>, <code>po</code>); this run has none.");
        out.push_str(
            "</section>
",
        );
        return;
    }
    out.push_str("<p>MB/s of each processor on the same document, and how much faster <code>xwire-compiled</code> (parse, validate and build the objects of the types xwire-codegen generated from the schema) is than it (for <code>check</code> and <code>events</code> rows, xwire-compiled's own <code>check</code> or <code>events</code>; for the others, its typed objects): <code>bind</code> is typed objects, <code>check</code> the same generated code's validate-only API (nothing built), <code>events</code> its event API (the schema's names as constants; <code>xwire-compiled-anytype</code>: the same events with the root as <code>xs:anyType</code>, names from the document), <code>parse</code> the best streaming parse without validation (building nothing), <code>validate</code> a validating parse. Operations are timed in separate rounds of the same run.</p>\n<table><tr><th>workload</th><th>processor</th><th>operation</th><th>MB/s</th><th>xwire-compiled / it</th></tr>\n");
    for w in ws {
        // Rows of `check` and `events` are set against xwire-compiled's own of the same
        // operation; the others (typed objects, the parse, validation) against its objects.
        let ours_of = |op: &str| {
            let op = match op {
                "check" => Op::Check,
                "events" => Op::Events,
                _ => Op::Bind,
            };
            w.cell("xwire-compiled", op).and_then(Cell::median)
        };
        let mut rows: Vec<(String, &str, f64)> = Vec::new();
        for m in &w.results {
            let Some(t) = m.cell.median() else { continue };
            match m.op {
                Op::Bind => rows.push((m.peer.clone(), "bind", t)),
                Op::Check => rows.push((m.peer.clone(), "check", t)),
                Op::Events => rows.push((m.peer.clone(), "events", t)),
                Op::Validate => rows.push((m.peer.clone(), "validate", t)),
                _ => {}
            }
        }
        if let Some(t) = streaming(w, "xwire") {
            rows.push(("xwire".to_string(), "parse", t));
        }
        // Typed objects first (xwire-compiled leading), then validate-only, the parse and
        // validation.
        let rank = |op: &str| {
            ["bind", "check", "events", "parse", "validate"]
                .iter()
                .position(|o| *o == op)
        };
        rows.sort_by_key(|(peer, op, _)| (rank(op), peer != "xwire-compiled"));
        for (i, (peer, op, t)) in rows.iter().enumerate() {
            let name = if i == 0 {
                escape(&w.name)
            } else {
                String::new()
            };
            let cls = if peer.starts_with("xwire") {
                " class=\"xwire\""
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<tr{cls}><td>{name}</td><td>{}</td><td>{op}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                escape(peer),
                number(mbps(w, *t)),
                ours_of(op).map_or("-".into(), |o| format!("{:.2}", t / o))
            );
        }
    }
    out.push_str("</table>\n</section>\n");
}

/// Each validating peer's `validate` beside its own non-validating parse (the same parser
/// without a schema, or the closest configuration: `peers::VALIDATE_BESIDE`), per workload.
fn validation_cost(out: &mut String, ws: &[&WorkloadResult]) {
    let rows: Vec<_> = ws.iter().map(|w| (*w, validation_rows(w))).collect();
    if rows.iter().all(|(_, r)| r.is_empty()) {
        return;
    }
    out.push_str("<h3>the cost of validation</h3>\n<p>Median time of each processor&#8217;s <code>validate</code> beside its own non-validating parse of the same document (the same parser without a schema, or the closest configuration: libxml2&#8217;s SAX2 parser for its streaming validator, its tree for <code>xmlSchemaValidateDoc</code>), and their ratio: what validation costs on top of the parse. <code>--ops validate</code> runs these parses too.</p>\n<table><tr><th>workload</th><th>processor</th><th>validate</th><th>MB/s</th><th>non-validating parse</th><th>parse</th><th>MB/s</th><th>validate / parse</th></tr>\n");
    for (w, rows) in rows {
        for (i, row) in rows.iter().enumerate() {
            let name = if i == 0 {
                escape(&w.name)
            } else {
                String::new()
            };
            let cls = if row.peer == "xwire" {
                " class=\"xwire\""
            } else {
                ""
            };
            let _ = write!(out, "<tr{cls}><td>{name}</td><td>{}</td>", escape(row.peer));
            match row.validate {
                Cell::Measured { median_s, .. } => {
                    let _ = write!(
                        out,
                        "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                        escape(&duration(*median_s)),
                        number(mbps(w, *median_s))
                    );
                }
                Cell::Failed { error } => {
                    let _ = write!(
                        out,
                        "<td class=\"n failed\" title=\"{}\">failed</td><td class=\"n\">-</td>",
                        escape(error)
                    );
                }
                _ => out.push_str("<td class=\"n\">-</td><td class=\"n\">-</td>"),
            }
            let beside = row
                .beside
                .map_or("-".to_string(), |(p, op)| format!("{p} {op}"));
            let _ = writeln!(
                out,
                "<td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                escape(&beside),
                row.parse_s.map_or("-".into(), |t| escape(&duration(t))),
                row.parse_s.map_or("-".into(), |t| number(mbps(w, t))),
                row.ratio().map_or("-".into(), |q| format!("{q:.2}&#215;"))
            );
        }
    }
    out.push_str("</table>\n");
}

fn latency(out: &mut String, r: &Report) {
    h2(out, "latency");
    let mut ws: Vec<&WorkloadResult> = r
        .workloads
        .iter()
        .filter(|w| {
            w.group == Group::Latency
                || (w.group == Group::PurchaseOrders && w.series.is_some())
                || w.pipelines
        })
        .collect();
    if ws.is_empty() {
        note(out, "Latency tables (median milliseconds to parse, and to parse and re-serialize, a small, a medium and a big file) come from the <code>Latency</code> group, the purchase-order size series and the XPath-pipeline set (issues 3 and 4); this run has none.");
        out.push_str("</section>\n");
        return;
    }
    ws.sort_by(|a, b| {
        (
            a.group,
            a.series.as_ref().map(|s| s.name.clone()),
            a.stats.size,
        )
            .cmp(&(
                b.group,
                b.series.as_ref().map(|s| s.name.clone()),
                b.stats.size,
            ))
    });
    let reserialize =
        |w: &WorkloadResult, p: &str| w.cell(p, Op::Reserialize).and_then(Cell::median);
    let tables: [(&str, &Timing); 3] = [
        ("parse (faster of pull and push)", &streaming),
        (
            "parse into the processor's model (tree, or index for VTD-style processors)",
            &model,
        ),
        ("parse + re-serialize", &reserialize),
    ];
    for (title, f) in tables {
        let _ = write!(
            out,
            "<h3>Median ms: {}</h3><table><tr><th>processor</th>",
            escape(title)
        );
        for w in &ws {
            let _ = write!(
                out,
                "<th>{}<br/>{}</th>",
                escape(&w.name),
                escape(&size_text(w.stats.size))
            );
        }
        out.push_str("</tr>\n");
        let mut rows = 0;
        for (_, p) in present(r) {
            let cells: Vec<Option<f64>> = ws.iter().map(|w| f(w, p)).collect();
            if cells.iter().all(Option::is_none) {
                continue;
            }
            rows += 1;
            let cls = if p == "xwire" { " class=\"xwire\"" } else { "" };
            let _ = write!(out, "<tr{cls}><td>{}</td>", escape(p));
            for c in cells {
                let _ = write!(
                    out,
                    "<td class=\"n\">{}</td>",
                    c.map_or("-".into(), |t| format!("{:.3}", t * 1e3))
                );
            }
            out.push_str("</tr>\n");
        }
        if rows == 0 {
            let _ = write!(
                out,
                "<tr><td colspan=\"{}\">not measured in this run</td></tr>",
                ws.len() + 1
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</section>\n");
}

/// Seconds a peer took on a workload, if measured.
type Timing = dyn Fn(&WorkloadResult, &str) -> Option<f64>;

/// Time to parse into a peer's document model: the faster of its tree and its index.
fn model(w: &WorkloadResult, p: &str) -> Option<f64> {
    [Op::Tree, Op::Index]
        .iter()
        .filter_map(|&op| w.cell(p, op).and_then(Cell::median))
        .min_by(f64::total_cmp)
}

fn size_text(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else if bytes >= 1000 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// Whether `op` was measured (or failed) for some peer on `w`.
fn ran(w: &WorkloadResult, op: Op) -> bool {
    w.results
        .iter()
        .any(|m| m.op == op && matches!(m.cell, Cell::Measured { .. } | Cell::Failed { .. }))
}

fn pipelines(out: &mut String, r: &Report) {
    h2(out, "pipelines");
    let ws: Vec<&WorkloadResult> = r
        .workloads
        .iter()
        .filter(|w| Op::pipelines().any(|op| ran(w, op)))
        .collect();
    if ws.is_empty() {
        note(out, "The XPath-and-edit pipelines of the VTD-XML article (parse, evaluate one precompiled expression, delete the selected nodes, write the result to memory) run on the workloads of the XPath-pipeline set (<code>xwire bench --list</code> marks them <code>xpath</code>) with <code>--ops pipeline</code>; this run has none.");
    } else {
        pipeline_tables(out, r, &ws);
    }
    let measured: Vec<(&WorkloadResult, Op)> = r
        .workloads
        .iter()
        .flat_map(|w| w.measured_ops().into_iter().map(move |o| (w, o)))
        .filter(|(_, o)| *o == Op::Index)
        .collect();
    if !measured.is_empty() {
        out.push_str("<p>Token index built and walked (the first step of an index-based pipeline). MB/s.</p>");
        op_table(out, r, &measured);
    }
    out.push_str("</section>\n");
}

/// The pipelines' tables (median ms per workload, a row group per expression) and one bar
/// chart per workload (MB/s of model parse, re-serialize and each pipeline, per peer).
fn pipeline_tables(out: &mut String, r: &Report, ws: &[&WorkloadResult]) {
    out.push_str("<p>Each run parses the document from memory, evaluates one XPath expression (compiled once, before timing), deletes every node it selects (a text node alone, an element with its subtree) and writes the whole result to memory. Processors agree on a checksum (nodes selected, elements left) so none skips work. Median milliseconds (lower is better) and the time relative to the fastest processor for the same expression and file. <span class=\"cannot\">cannot</span>: the processor has no XPath 1.0 or cannot edit (yet).</p>\n<ol>");
    for op in Op::pipelines() {
        let _ = write!(
            out,
            "<li><code>{}</code>: <code>{}</code></li>",
            op.name(),
            escape(&op.title()["pipeline ".len()..])
        );
    }
    out.push_str("</ol>\n<table><tr><th>processor</th>");
    for w in ws {
        let _ = write!(
            out,
            "<th colspan=\"2\">{}<br/>{}</th>",
            escape(&w.name),
            escape(&size_text(w.stats.size))
        );
    }
    out.push_str("</tr>\n");
    // Processors with a document model: those that run a pipeline, tree or index, and xwire.
    let rows: Vec<(usize, &str)> = present(r)
        .into_iter()
        .filter(|&(i, p)| {
            p == "xwire"
                || r.peers[i]
                    .ops
                    .iter()
                    .any(|o| o.is_pipeline() || matches!(o, Op::Tree | Op::Index))
        })
        .collect();
    for op in Op::pipelines() {
        let _ = writeln!(
            out,
            "<tr><th colspan=\"{}\">{}</th></tr>",
            2 * ws.len() + 1,
            escape(&op.title())
        );
        for &(i, p) in &rows {
            let cls = if p == "xwire" { " class=\"xwire\"" } else { "" };
            let _ = write!(out, "<tr{cls}><td>{}</td>", escape(p));
            for w in ws {
                let can = r.peers[i].ops.contains(&op);
                match w.cell(p, op) {
                    Some(Cell::Measured {
                        median_s,
                        checksum_differs,
                        ..
                    }) => {
                        let best = w.fastest(op).map_or(*median_s, |b| b.1);
                        let flag = if *checksum_differs {
                            " <span class=\"differs\" title=\"checksum differs from the other processors'\">&#9888;</span>"
                        } else {
                            ""
                        };
                        let _ = write!(
                            out,
                            "<td class=\"n\">{:.3}{flag}</td><td class=\"n\">{:.2}&#215;</td>",
                            median_s * 1e3,
                            median_s / best
                        );
                    }
                    Some(Cell::Failed { error }) => {
                        let _ = write!(
                            out,
                            "<td class=\"n failed\" colspan=\"2\" title=\"{}\">failed</td>",
                            escape(error)
                        );
                    }
                    _ if !can => out.push_str("<td class=\"n cannot\" colspan=\"2\">cannot</td>"),
                    _ => out.push_str("<td class=\"n\" colspan=\"2\">-</td>"),
                }
            }
            out.push_str("</tr>\n");
        }
    }
    out.push_str("</table>\n");
    let mut steps: Vec<(String, Box<Timing>)> = vec![
        ("parse (model)".into(), Box::new(model)),
        (
            "reserialize".into(),
            Box::new(|w: &WorkloadResult, p: &str| {
                w.cell(p, Op::Reserialize).and_then(Cell::median)
            }),
        ),
    ];
    for op in Op::pipelines() {
        steps.push((
            op.name().into(),
            Box::new(move |w: &WorkloadResult, p: &str| w.cell(p, op).and_then(Cell::median)),
        ));
    }
    for w in ws {
        let ps: Vec<(usize, &str)> = rows
            .iter()
            .copied()
            .filter(|&(_, p)| {
                Op::pipelines().any(|op| w.cell(p, op).and_then(Cell::median).is_some())
            })
            .collect();
        if ps.is_empty() {
            continue;
        }
        let values: Vec<Vec<Option<f64>>> = steps
            .iter()
            .map(|(_, f)| {
                ps.iter()
                    .map(|&(_, p)| f(w, p).map(|t| mbps(w, t)))
                    .collect()
            })
            .collect();
        figure(
            out,
            &svg::bar_chart(&svg::Bars {
                title: format!("Pipelines on {} ({})", w.name, size_text(w.stats.size)),
                unit: "MB/s of the document (higher is better)".into(),
                categories: steps.iter().map(|(n, _)| n.clone()).collect(),
                series: ps.iter().map(|&(c, p)| (p.to_string(), c)).collect(),
                values,
            }),
        );
    }
}

/// A table of (workload, op) columns by present peers, MB/s.
fn op_table(out: &mut String, r: &Report, cols: &[(&WorkloadResult, Op)]) {
    out.push_str("<table><tr><th>processor</th>");
    for (w, op) in cols {
        let _ = write!(out, "<th>{} {}</th>", escape(&w.name), op.name());
    }
    out.push_str("</tr>\n");
    for (_, p) in present(r) {
        let _ = write!(out, "<tr><td>{}</td>", escape(p));
        for (w, op) in cols {
            let v = w.cell(p, *op).and_then(Cell::median);
            let _ = write!(
                out,
                "<td class=\"n\">{}</td>",
                v.map_or("-".into(), |t| number(mbps(w, t)))
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn throughput(out: &mut String, r: &Report) {
    h2(out, "throughput");
    let Some(t) = &r.throughput else {
        note(out, "Transactions per second (worker threads parsing a mix of messages back to back, in the manner of XMLTest) are measured unless <code>--no-throughput</code> is given; this run has none.");
        out.push_str("</section>\n");
        return;
    };
    let _ = writeln!(
        out,
        "<p>{} worker thread{}, each processor's streaming parse (the first of <code>{}</code> it can do); ramp-up {:.1} s, steady state {:.1} s (counted), ramp-down {:.1} s. Mix: {}.</p>",
        t.threads,
        if t.threads == 1 { "" } else { "s" },
        t.ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(", "),
        t.periods_s[0],
        t.periods_s[1],
        t.periods_s[2],
        escape(
            &t.mix
                .iter()
                .map(|d| format!("{} ({})", d.name, size_text(d.size as u64)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    out.push_str("<table><tr><th>processor</th><th>operation</th><th>documents/s</th><th>mean ms/document</th>");
    for d in &t.mix {
        let _ = write!(out, "<th>{} ms</th>", escape(&d.name));
    }
    out.push_str("</tr>\n");
    for row in &t.rows {
        let cls = if row.peer == "xwire" {
            " class=\"xwire\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{cls}><td>{}</td><td>{}</td>",
            escape(&row.peer),
            row.op.name()
        );
        match (row.tps, row.mean_s) {
            (Some(tps), Some(mean)) => {
                let _ = write!(
                    out,
                    "<td class=\"n\">{tps:.0}</td><td class=\"n\">{:.3}</td>",
                    mean * 1e3
                );
                for i in 0..t.mix.len() {
                    let _ = write!(
                        out,
                        "<td class=\"n\">{}</td>",
                        row.per_doc_s
                            .get(i)
                            .map_or("-".into(), |s| format!("{:.3}", s * 1e3))
                    );
                }
            }
            _ => {
                let _ = write!(
                    out,
                    "<td colspan=\"{}\" class=\"failed\">failed: {}</td>",
                    t.mix.len() + 2,
                    escape(row.error.as_deref().unwrap_or("no figures"))
                );
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    let measured: Vec<(String, usize, f64)> = t
        .rows
        .iter()
        .filter_map(|row| {
            let c = r.peers.iter().position(|p| p.name == row.peer).unwrap_or(0);
            row.tps.map(|v| (row.peer.clone(), c, v))
        })
        .collect();
    if !measured.is_empty() {
        figure(
            out,
            &svg::bar_chart(&svg::Bars {
                title: format!(
                    "Throughput: documents per second, {} thread{}",
                    t.threads,
                    if t.threads == 1 { "" } else { "s" }
                ),
                unit: "documents/s (higher is better)".into(),
                categories: measured.iter().map(|m| m.0.clone()).collect(),
                series: vec![("documents/s".into(), 0)],
                values: measured.iter().map(|m| vec![Some(m.2)]).collect(),
            }),
        );
    }
    out.push_str("</section>\n");
}

fn binary(out: &mut String, r: &Report) {
    h2(out, "binary");
    let ws = in_group(r, Group::Numeric);
    match &r.bxsa {
        Some(b) => bxsa(out, b),
        None => note(out, "The BXSA data-set experiment (sizes at 1,000 pairs against the paper&#8217;s, times to build, encode, decode and consume 0 to 5.5 million (int32, float64) pairs in xwire binary, text, gzip&#8217;d text and EXI) runs with <code>xwire bench</code> when the numeric workloads and the encode/decode operations are selected (<code>--only bxsa</code> runs it alone); this run has none."),
    }
    if !ws.is_empty() {
        out.push_str("<h3>Numeric workloads</h3><p>Text sizes of the numeric workloads (one element per value).</p><table><tr><th>workload</th><th>text size</th><th>elements</th><th>attributes</th><th>character data</th></tr>\n");
        for w in &ws {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                escape(&w.name),
                escape(&size_text(w.stats.size)),
                w.stats.elements,
                w.stats.attributes,
                escape(&size_text(w.stats.text_bytes))
            );
        }
        out.push_str("</table>\n");
    }
    let cols: Vec<(&WorkloadResult, Op)> = r
        .workloads
        .iter()
        .flat_map(|w| w.measured_ops().into_iter().map(move |o| (w, o)))
        .filter(|(_, o)| matches!(o, Op::Encode | Op::Decode))
        .collect();
    if !cols.is_empty() {
        out.push_str("<h3>Encode and decode on the workloads</h3><p>The document encoded from text (xwire: schema-less, <code>xsi:type</code>d elements typed) and decoded back to events, MB/s of the text document.</p>\n");
        op_table(out, r, &cols);
    }
    out.push_str("</section>\n");
}

/// The BXSA experiment: size table, goals, charts of time against pairs, time tables.
fn bxsa(out: &mut String, b: &crate::bxsa::BxsaReport) {
    use crate::bxsa::{Encoding, Phase, PAIR_BYTES, TABLE_PAIRS};
    use crate::report::{bxsa_cell, bytes};
    let _ = writeln!(
        out,
        "<h3>The BXSA data set: sizes at {} pairs</h3><p>{} (int32 index, float64 value) pairs, native {} bytes. The rows marked <em>paper</em> are the BXSA paper&#8217;s figures, quoted, not measured.</p>",
        bytes(TABLE_PAIRS as u64),
        bytes(TABLE_PAIRS as u64),
        bytes((TABLE_PAIRS * PAIR_BYTES) as u64)
    );
    out.push_str("<table class=\"bxsa-sizes\"><tr><th>encoding</th><th>bytes</th><th>overhead over native</th></tr>\n");
    for (label, size, pct, paper) in b.size_table() {
        let cls = if paper { " class=\"paper\"" } else { "" };
        let _ = writeln!(
            out,
            "<tr{cls}><td>{}{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(&label),
            if paper {
                " <em>(from the paper, not measured)</em>"
            } else {
                ""
            },
            size.map_or("-".to_string(), bytes),
            pct.map_or("-".to_string(), |p| format!("{p:.2}%"))
        );
    }
    out.push_str("</table>\n<h4>Goals (issue 6)</h4><table class=\"bxsa-goals\"><tr><th>goal</th><th>measured</th><th>how</th></tr>\n");
    for g in &b.goals {
        let cls = match g.met {
            Some(true) => "",
            Some(false) => " class=\"failed\"",
            None => " class=\"cannot\"",
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td{cls}>{}</td><td>{}</td></tr>",
            escape(&g.name),
            escape(&g.line()),
            escape(&g.detail)
        );
    }
    out.push_str("</table>\n");
    let color = |e: Encoding| Encoding::ALL.iter().position(|&x| x == e).unwrap_or(0);
    for (phase, title) in [
        (Phase::Decode, "Decode: median time against pairs (bytes to model; xwire in place: no model; native: memcpy)"),
        (Phase::Encode, "Encode: median time against pairs (model to bytes; EXI: text document to EXI; native: memcpy)"),
    ] {
        let mut series: Vec<(String, Encoding, Phase)> = b
            .encodings
            .iter()
            .filter(|&&e| !matches!(e, Encoding::Model | Encoding::Native))
            .map(|&e| (e.title().to_string(), e, phase))
            .collect();
        if phase == Phase::Decode {
            series.insert(1, ("xwire binary, in place".into(), Encoding::Xwire, Phase::InPlace));
        }
        series.push(("memcpy of the native bytes".into(), Encoding::Native, Phase::Memcpy));
        if phase == Phase::Decode {
            series.push(("copy into new memory".into(), Encoding::Native, Phase::CopyNew));
        }
        let lines: Vec<svg::Line> = series
            .iter()
            .enumerate()
            .map(|(i, (name, e, ph))| svg::Line {
                name: name.clone(),
                color: if matches!(ph, Phase::InPlace | Phase::CopyNew) {
                    Encoding::ALL.len() + i
                } else {
                    color(*e)
                },
                points: b
                    .pairs
                    .iter()
                    .filter(|&&n| n > 0)
                    .filter_map(|&n| b.median(n, *e, *ph).map(|t| (n as f64, t * 1e6)))
                    .collect(),
            })
            .filter(|l| !l.points.is_empty())
            .collect();
        if !lines.is_empty() {
            figure(
                out,
                &svg::loglog_chart(&svg::LogLog {
                    title: title.to_string(),
                    x_label: "pairs".into(),
                    y_label: "median microseconds per run".into(),
                    lines,
                }),
            );
        }
    }
    out.push_str("<h4>Times</h4><p>Median time per run and, in parentheses, MB/s of the native 12n bytes (whatever the encoding&#8217;s size). <em>in place</em>: xwire&#8217;s reader summing the arrays viewed in the input, no model. <em>memcpy</em> copies the native bytes into a buffer allocated before timing, <em>copy into new memory</em> into one each run allocates and frees: a decode into a new model pays for fresh memory too (page faults, and unmapping the previous model on large sizes). Build and consume belong to the model (xwire&#8217;s <code>binary::TypedDocument</code>), shared by xwire, text and gzip. EXI encodes the text document (the Xerces parse included) and decodes to counted SAX events.</p>\n");
    for &n in &b.pairs {
        let native = n * PAIR_BYTES;
        let _ = write!(
            out,
            "<table class=\"bxsa-times\"><tr><th colspan=\"{}\">{} pairs, native {} bytes</th></tr><tr><th>encoding</th><th>bytes</th>",
            Phase::ALL.len() + 2,
            bytes(n as u64),
            bytes(native as u64)
        );
        for ph in Phase::ALL {
            let _ = write!(out, "<th>{}</th>", escape(ph.name()));
        }
        out.push_str("</tr>\n");
        for &e in &b.encodings {
            if !b.times.iter().any(|t| t.pairs == n && t.encoding == e) {
                continue;
            }
            let cls = if e == Encoding::Xwire {
                " class=\"xwire\""
            } else {
                ""
            };
            let size = match e {
                Encoding::Model => String::new(),
                e => b.size(n, e).map_or("-".to_string(), bytes),
            };
            let _ = write!(
                out,
                "<tr{cls}><td>{}</td><td class=\"n\">{}</td>",
                escape(e.title()),
                size
            );
            for ph in Phase::ALL {
                let c = b.cell(n, e, ph);
                let title = match c {
                    Some(Cell::Failed { error }) => format!(" title=\"{}\"", escape(error)),
                    Some(Cell::Skipped { reason }) => format!(" title=\"{}\"", escape(reason)),
                    _ => String::new(),
                };
                let _ = write!(
                    out,
                    "<td class=\"n\"{title}>{}</td>",
                    escape(&bxsa_cell(c, native))
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }
    if !b.notes.is_empty() {
        out.push_str("<ul class=\"bxsa-notes\">");
        for n in &b.notes {
            let _ = write!(out, "<li>{}</li>", escape(n));
        }
        out.push_str("</ul>\n");
    }
}

fn every_workload(out: &mut String, r: &Report) {
    h2(out, "workloads");
    if r.workloads.is_empty() {
        note(out, "No workload was measured.");
    }
    out.push_str("<p>Per operation: MB/s (ns per parse for the overhead workload) and the time relative to the fastest peer for that operation. <span class=\"differs\">&#9888;</span> marks a checksum that differs from xwire&#8217;s (the processor saw a different document).</p>\n");
    for &g in Group::ALL {
        let ws = in_group(r, g);
        if ws.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h3>{}</h3>", escape(g.title()));
        for w in ws {
            workload_table(out, r, w);
        }
    }
    if !r.skipped.is_empty() {
        out.push_str("<h3>Skipped workloads</h3><ul>");
        for (name, why) in &r.skipped {
            let _ = write!(
                out,
                "<li><code>{}</code>: {}</li>",
                escape(name),
                escape(why)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

fn workload_table(out: &mut String, r: &Report, w: &WorkloadResult) {
    let s = &w.stats;
    let _ = writeln!(
        out,
        "<h4 id=\"w-{}\">{} <span class=\"desc\">{}</span></h4><p class=\"chars\">{}, {} elements, {} attributes, depth {}, {} distinct names, {:.2} attributes per element, {} namespace declarations</p>",
        escape(&w.name),
        escape(&w.name),
        escape(&w.description),
        escape(&size_text(s.size)),
        s.elements,
        s.attributes,
        s.max_depth,
        s.distinct_names,
        s.attributes_per_element(),
        s.namespaces_declared
    );
    let ops: Vec<Op> = r
        .ops
        .iter()
        .copied()
        .filter(|&op| {
            w.results.iter().any(|m| {
                m.op == op && matches!(m.cell, Cell::Measured { .. } | Cell::Failed { .. })
            })
        })
        .collect();
    if ops.is_empty() {
        note(out, "Nothing was measured on this workload.");
        return;
    }
    let with_memory = w.results.iter().any(|m| {
        matches!(
            m.cell,
            Cell::Measured {
                peak_bytes: Some(_),
                ..
            }
        )
    });
    out.push_str("<table><tr><th>processor</th>");
    for op in &ops {
        let unit = if w.group == Group::Overhead {
            "ns"
        } else {
            "MB/s"
        };
        let _ = write!(
            out,
            "<th title=\"{}\">{op} {unit}</th><th>ratio</th>",
            escape(&op.title())
        );
    }
    if with_memory {
        out.push_str("<th>peak MB</th>");
    }
    out.push_str("</tr>\n");
    let mut failures = Vec::new();
    for (_, p) in present(r) {
        let cells: Vec<&Cell> = ops
            .iter()
            .map(|&op| w.cell(p, op).unwrap_or(&Cell::Unsupported))
            .collect();
        if cells
            .iter()
            .all(|c| matches!(c, Cell::Unsupported | Cell::Missing | Cell::Skipped { .. }))
        {
            continue;
        }
        let cls = if p == "xwire" { " class=\"xwire\"" } else { "" };
        let _ = write!(out, "<tr{cls}><td>{}</td>", escape(p));
        let mut peak = None::<u64>;
        for (&op, c) in ops.iter().zip(&cells) {
            match c {
                Cell::Measured {
                    median_s,
                    checksum_differs,
                    peak_bytes,
                    ..
                } => {
                    peak = peak.max(*peak_bytes);
                    let best = w.fastest(op).map_or(*median_s, |b| b.1);
                    let speed = if w.group == Group::Overhead {
                        format!("{:.0}", median_s * 1e9)
                    } else {
                        number(mbps(w, *median_s))
                    };
                    let flag = if *checksum_differs {
                        " <span class=\"differs\" title=\"checksum differs from xwire's\">&#9888;</span>"
                    } else {
                        ""
                    };
                    let _ = write!(
                        out,
                        "<td class=\"n\">{speed}{flag}</td><td class=\"n\">{:.2}&#215;</td>",
                        median_s / best
                    );
                }
                Cell::Failed { error } => {
                    failures.push((p, op, error.as_str()));
                    out.push_str("<td class=\"n failed\" colspan=\"2\">failed</td>");
                }
                Cell::Missing => out.push_str("<td class=\"n\" colspan=\"2\">-</td>"),
                Cell::Skipped { reason } => {
                    let _ = write!(
                        out,
                        "<td class=\"n cannot\" colspan=\"2\" title=\"{}\">not run</td>",
                        escape(reason)
                    );
                }
                Cell::Unsupported => {
                    out.push_str("<td class=\"n cannot\" colspan=\"2\">cannot</td>")
                }
            }
        }
        if with_memory {
            let _ = write!(
                out,
                "<td class=\"n\">{}</td>",
                peak.map_or("-".into(), |b| format!("{:.1}", b as f64 / 1e6))
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    let differs: Vec<String> = w
        .results
        .iter()
        .filter(|m| {
            matches!(
                m.cell,
                Cell::Measured {
                    checksum_differs: true,
                    ..
                }
            )
        })
        .map(|m| format!("{} {}", m.peer, m.op))
        .collect();
    if !differs.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"differs\">Checksum differs from xwire&#8217;s: {}.</p>",
            escape(&differs.join(", "))
        );
    }
    if !failures.is_empty() {
        out.push_str("<ul class=\"failures\">");
        for (p, op, e) in failures {
            let _ = write!(
                out,
                "<li class=\"failed\">{} {op} failed: {}</li>",
                escape(p),
                escape(e)
            );
        }
        out.push_str("</ul>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc(1_709_210_096), "2024-02-29 12:34 UTC");
        assert_eq!(utc(4_102_444_799), "2099-12-31 23:59 UTC");
    }
}
