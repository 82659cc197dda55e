//! The HTML report: rendered from a real (small) run of the driver and from a synthetic report
//! that has every section, checked for well-formed charts with xwire's reader and, when
//! Chromium is installed, rendered by a real browser (DOM dump and screenshot).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use xwire::stats::Stats;
use xwire_bench::bxsa::{BxsaReport, Encoding, Phase, SizeRow, TimeRow};
use xwire_bench::driver::{self, Machine, Measurement, PeerInfo, Report, WorkloadResult};
use xwire_bench::peers::{self, Lang, Op, PipelineExpr};
use xwire_bench::throughput::{self, MixDoc, Row, ThroughputReport};
use xwire_bench::timing::Cell;
use xwire_bench::workloads::{self, Group, Series};
use xwire_bench::{html, report};

/// A real run: overhead, a small mesh and purchase orders with three Rust peers, parse / push
/// / reserialize, and a short throughput run.
fn real() -> &'static Report {
    static R: OnceLock<Report> = OnceLock::new();
    R.get_or_init(|| {
        let ws: Vec<_> = ["overhead", "mesh", "po"]
            .iter()
            .map(|n| workloads::named(n).expect("workload exists"))
            .collect();
        let ps = peers::select(Some("xwire,quick-xml,roxmltree")).unwrap();
        let mut opts = driver::Options::new(true);
        opts.size = 20_000;
        opts.ops = vec![Op::Parse, Op::Push, Op::Tree, Op::Reserialize];
        let mut r = driver::run(&ws, &ps, &opts, &mut |_, _, _| {});
        let mix: Vec<throughput::Doc> = ws[1..]
            .iter()
            .map(|w| throughput::Doc {
                name: w.name.clone(),
                bytes: w.load(20_000, opts.seed).unwrap(),
                file: None,
            })
            .collect();
        let mut t = throughput::Options::new(true);
        t.threads = 1;
        t.ramp_up = Duration::from_millis(50);
        t.steady = Duration::from_millis(100);
        t.ramp_down = Duration::from_millis(50);
        r.throughput = Some(throughput::run(&mix, &ps, &t, &mut |_| {}));
        r
    })
}

fn measured(median_s: f64, differs: bool) -> Cell {
    Cell::Measured {
        median_s,
        min_s: median_s * 0.95,
        runs: 9,
        checksum_differs: differs,
        peak_bytes: Some((median_s * 1e9) as u64),
    }
}

fn peer(name: &str, lang: Lang, ops: &[Op], missing: Option<&str>) -> PeerInfo {
    PeerInfo {
        name: name.into(),
        lang,
        checks: format!("what {name} checks: <well-formedness> & \"more\""),
        ops: ops.to_vec(),
        missing: missing.map(str::to_string),
    }
}

/// A workload whose peers run at `speeds` MB/s (parse, and push at 0.9 of it; reserialize
/// at 0.4; validate at 0.3 for the peers that validate).
fn workload(
    name: &str,
    group: Group,
    series: Option<(&str, f64)>,
    size: u64,
    has_schema: bool,
    speeds: &[(&str, f64)],
) -> WorkloadResult {
    let mut results = Vec::new();
    for &(p, mbs) in speeds {
        let t = size as f64 / (mbs * 1e6);
        results.push(Measurement {
            peer: p.into(),
            op: Op::Parse,
            cell: measured(t, false),
        });
        results.push(Measurement {
            peer: p.into(),
            op: Op::Push,
            cell: measured(t / 0.9, p == "roxmltree"),
        });
        results.push(Measurement {
            peer: p.into(),
            op: Op::Reserialize,
            cell: if p == "quick-xml" && name.ends_with("big") {
                Cell::Failed {
                    error: "ran out of <patience> & \"time\"".into(),
                }
            } else {
                measured(t / 0.4, false)
            },
        });
        // The latency files are the XPath-pipeline set; libxml2 runs the pipelines there, at
        // a third of its parse speed, and fails one on the big file.
        for (i, op) in Op::pipelines().enumerate() {
            let cell = match (group == Group::Latency, p) {
                (true, "libxml2") if i == 4 && name.ends_with("big") => Cell::Failed {
                    error: "XPath <error> & more".into(),
                },
                (true, "libxml2") => measured(t * (3.0 + i as f64 * 0.2), i == 1),
                _ => Cell::Unsupported,
            };
            results.push(Measurement {
                peer: p.into(),
                op,
                cell,
            });
        }
        results.push(Measurement {
            peer: p.into(),
            op: Op::Validate,
            cell: if has_schema && (p == "xwire" || p == "libxml2") {
                measured(t / 0.3, false)
            } else {
                Cell::Unsupported
            },
        });
    }
    WorkloadResult {
        name: name.into(),
        group,
        series: series.map(|(n, x)| Series {
            name: n.into(),
            x,
            unit: "elements",
        }),
        description: format!("synthetic {name} <with> & \"quotes\""),
        stats: Stats {
            size,
            elements: size / 40,
            attributes: size / 100,
            max_depth: 5,
            distinct_names: 12,
            namespaces_declared: 3,
            text_bytes: size / 3,
            skipped_entities: 0,
        },
        has_schema,
        pipelines: group == Group::Latency,
        results,
    }
}

/// A report with data for every section, over the peers of the real run plus one that
/// validates and one that is missing.
fn synthetic() -> Report {
    let speeds = |k: f64| {
        vec![
            ("xwire", 400.0 * k),
            ("quick-xml", 300.0 * k),
            ("roxmltree", 150.0 * k),
            ("libxml2", 120.0 * k),
        ]
    };
    let mut ws = Vec::new();
    for (series, k) in [
        ("arrays-double", 1.0),
        ("arrays-int", 1.3),
        ("arrays-<string>", 0.8),
    ] {
        for n in [10.0, 100.0, 1000.0, 10_000.0, 100_000.0] {
            // Small arrays are dominated by per-document overhead.
            let f = k * n / (n + 300.0);
            ws.push(workload(
                &format!("{series}-{n}"),
                Group::Arrays,
                Some((series, n)),
                (n * 40.0) as u64 + 400,
                false,
                &speeds(f),
            ));
        }
    }
    ws.push(workload(
        "ns-heavy",
        Group::Namespaces,
        None,
        2_000_000,
        false,
        &speeds(0.6),
    ));
    ws.push(workload(
        "multiref",
        Group::ObjectGraphs,
        None,
        1_500_000,
        false,
        &speeds(0.7),
    ));
    ws.push(workload(
        "soap-req",
        Group::Soap,
        None,
        80_000,
        false,
        &speeds(0.5),
    ));
    ws.push(workload(
        "soap-resp",
        Group::Soap,
        None,
        120_000,
        false,
        &speeds(0.55),
    ));
    ws.push(workload(
        "po-small",
        Group::Latency,
        Some(("po-latency", 1.0)),
        2_000,
        true,
        &speeds(0.2),
    ));
    ws.push(workload(
        "po-medium",
        Group::Latency,
        Some(("po-latency", 2.0)),
        200_000,
        true,
        &speeds(0.8),
    ));
    ws.push(workload(
        "po-big",
        Group::Latency,
        Some(("po-latency", 3.0)),
        20_000_000,
        true,
        &speeds(1.0),
    ));
    ws.push(workload(
        "climate",
        Group::Numeric,
        None,
        3_000_000,
        false,
        &speeds(0.9),
    ));
    Report {
        version: "0.1.0-test".into(),
        quick: true,
        cold: true,
        command: "xwire bench --quick --html \"target/<out>\" & more".into(),
        machine: Machine {
            cpus: 2,
            cpu: "Test CPU <3GHz>".into(),
            os: "linux x86_64".into(),
        },
        peers: vec![
            peer(
                "xwire",
                Lang::Rust,
                &[Op::Parse, Op::Push, Op::Reserialize, Op::Validate],
                None,
            ),
            peer("quick-xml", Lang::Rust, &[Op::Parse, Op::Reserialize], None),
            peer(
                "roxmltree",
                Lang::Rust,
                &[Op::Parse, Op::Push, Op::Reserialize],
                None,
            ),
            peer(
                "libxml2",
                Lang::C,
                &[
                    Op::Parse,
                    Op::Push,
                    Op::Reserialize,
                    Op::Validate,
                    Op::Pipeline(PipelineExpr::EvenGrandchildren),
                    Op::Pipeline(PipelineExpr::CheapItems),
                    Op::Pipeline(PipelineExpr::QuantityText),
                    Op::Pipeline(PipelineExpr::ItemComments),
                    Op::Pipeline(PipelineExpr::CommentedQuantities),
                ],
                None,
            ),
            peer(
                "xerces-j",
                Lang::Java,
                &[Op::Parse, Op::Validate],
                Some("no JDK found: apt-get install default-jdk-headless & re-run"),
            ),
        ],
        ops: vec![Op::Parse, Op::Push, Op::Reserialize, Op::Validate],
        workloads: ws,
        skipped: vec![("xmark".into(), "corpora not found <here>".into())],
        probes: vec![xwire_bench::peers::probes::ProbeRow {
            peer: "xwire".into(),
            op: Op::Parse,
            rejected: vec![true, false],
        }],
        probe_names: vec!["mismatched end tag".into(), "bad & <name>".into()],
        bxsa: Some(synthetic_bxsa()),
        throughput: Some(ThroughputReport {
            threads: 2,
            ops: vec![Op::Parse, Op::Push],
            periods_s: [0.5, 2.0, 0.5],
            mix: vec![
                MixDoc {
                    name: "soap-req".into(),
                    size: 80_000,
                },
                MixDoc {
                    name: "po-small".into(),
                    size: 2_000,
                },
            ],
            rows: vec![
                throughput_row("xwire", 21_000.0),
                throughput_row("quick-xml", 15_500.0),
                throughput_row("roxmltree", 7_200.0),
                Row {
                    peer: "libxml2".into(),
                    op: Op::Push,
                    tps: None,
                    mean_s: None,
                    per_doc_s: vec![],
                    error: Some("worker <panicked>".into()),
                },
            ],
        }),
    }
}

/// A BXSA experiment at three sizes: every in-process encoding measured, EXI failed at the
/// largest size (with a message that needs escaping).
fn synthetic_bxsa() -> BxsaReport {
    let mut times = Vec::new();
    let mut sizes = Vec::new();
    let pairs = vec![0, 1_000, 100_000];
    for &n in &pairs {
        let native = (n * 12) as f64;
        for (e, factor) in [
            (Encoding::Native, 1.0),
            (Encoding::Xwire, 1.01),
            (Encoding::Text, 2.2),
            (Encoding::Gzip, 1.0),
            (Encoding::Exi, 1.9),
        ] {
            sizes.push(SizeRow {
                pairs: n,
                encoding: e,
                bytes: (native * factor) as u64 + 60,
            });
        }
        let t = |k: f64| measured(1e-7 + native * k, false);
        let mut row = |encoding, phase, cell| {
            times.push(TimeRow {
                pairs: n,
                encoding,
                phase,
                cell,
            })
        };
        row(Encoding::Model, Phase::Build, t(2e-10));
        row(Encoding::Model, Phase::Consume, t(1e-10));
        row(Encoding::Native, Phase::Memcpy, t(1e-10));
        row(Encoding::Xwire, Phase::Encode, t(3e-10));
        row(Encoding::Xwire, Phase::Decode, t(2e-10));
        row(Encoding::Xwire, Phase::InPlace, t(1.2e-10));
        row(Encoding::Text, Phase::Encode, t(1e-8));
        row(Encoding::Text, Phase::Decode, t(8e-9));
        row(Encoding::Gzip, Phase::Encode, t(4e-8));
        row(Encoding::Gzip, Phase::Decode, t(1e-8));
        let exi = |p| {
            if n == 100_000 {
                Cell::Failed {
                    error: "out of <heap> & more".into(),
                }
            } else {
                t(p)
            }
        };
        row(Encoding::Exi, Phase::Encode, exi(3e-8));
        row(Encoding::Exi, Phase::Decode, exi(2e-8));
    }
    BxsaReport {
        seed: 7,
        pairs,
        encodings: Encoding::ALL.to_vec(),
        sizes,
        paper: vec![xwire_bench::bxsa::PaperRow {
            format: "BXSA".into(),
            overhead_pct: 1.3,
        }],
        times,
        goals: Vec::new(),
        notes: vec!["a <note> & more".into()],
    }
}

fn throughput_row(peer: &str, tps: f64) -> Row {
    Row {
        peer: peer.into(),
        op: Op::Parse,
        tps: Some(tps),
        mean_s: Some(2.0 / tps),
        per_doc_s: vec![3.0 / tps, 1.0 / tps],
        error: None,
    }
}

/// The real run with the synthetic workloads (and peers) added: every section has data.
fn combined() -> Report {
    let mut r = real().clone();
    let s = synthetic();
    r.peers = s.peers;
    r.ops = s.ops;
    r.workloads.extend(s.workloads);
    r.skipped = s.skipped;
    r.bxsa = s.bxsa;
    r
}

/// Charts the page should have: one bar chart for the overhead workload, one line chart per
/// array series, one grouped bar chart per document group, one for throughput.
fn expected_charts(r: &Report) -> usize {
    let streaming = |w: &WorkloadResult| {
        w.results
            .iter()
            .any(|m| matches!(m.op, Op::Parse | Op::Push) && m.cell.median().is_some())
    };
    let overhead = r
        .workloads
        .iter()
        .filter(|w| w.group == Group::Overhead && streaming(w))
        .count();
    let mut series: Vec<&str> = r
        .workloads
        .iter()
        .filter(|w| w.group == Group::Arrays && streaming(w))
        .filter_map(|w| w.series.as_ref().map(|s| s.name.as_str()))
        .collect();
    series.sort();
    series.dedup();
    let single_arrays = r
        .workloads
        .iter()
        .any(|w| w.group == Group::Arrays && w.series.is_none() && streaming(w));
    let mut groups: Vec<Group> = r
        .workloads
        .iter()
        .filter(|w| {
            matches!(
                w.group,
                Group::Namespaces
                    | Group::ObjectGraphs
                    | Group::Soap
                    | Group::Application
                    | Group::Real
            ) && streaming(w)
        })
        .map(|w| w.group)
        .collect();
    groups.dedup();
    let tput = r
        .throughput
        .as_ref()
        .is_some_and(|t| t.rows.iter().any(|r| r.tps.is_some()));
    // One bar chart per workload with a pipeline measured.
    let pipelines = r
        .workloads
        .iter()
        .filter(|w| {
            w.results
                .iter()
                .any(|m| m.op.is_pipeline() && m.cell.median().is_some())
        })
        .count();
    // The BXSA experiment: decode and encode against pairs.
    let bxsa = r.bxsa.as_ref().map_or(0, |b| {
        [Phase::Decode, Phase::Encode]
            .iter()
            .filter(|&&ph| {
                b.times
                    .iter()
                    .any(|t| t.pairs > 0 && t.phase == ph && t.cell.median().is_some())
            })
            .count()
    });
    overhead
        + series.len()
        + usize::from(single_arrays)
        + groups.len()
        + usize::from(tput)
        + pipelines
        + bxsa
}

/// Every `<svg ...>...</svg>` slice of the page.
fn svgs(page: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("svg closed") + start + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

/// Parses `xml` to the end with xwire's reader; returns the element names seen.
fn parse(xml: &str) -> Vec<String> {
    let mut r = xwire::Reader::from_slice(xml.as_bytes());
    let mut names = Vec::new();
    loop {
        match r.next() {
            Ok(xwire::Event::Start(t)) => names.push(t.local_name().to_string()),
            Ok(xwire::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{xml}"),
        }
    }
    names
}

fn check_charts(r: &Report) -> String {
    let page = html::render_dated(r, "2024-01-02 03:04 UTC");
    let charts = svgs(&page);
    assert_eq!(charts.len(), expected_charts(r), "charts on the page");
    for svg in &charts {
        let names = parse(svg);
        assert_eq!(names[0], "svg");
        assert!(names.iter().any(|n| n == "title"), "chart without a title");
        assert!(svg.contains("class=\"chart "));
        assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    }
    // The page as a whole is XHTML-compatible: everything after the doctype parses as XML.
    let body = page.split_once('\n').expect("doctype line").1;
    parse(body);
    // Names with markup characters never reach the page raw.
    assert!(!page.contains("<with>"));
    assert!(!page.contains("<patience>"));
    page
}

#[test]
fn real_run_renders_well_formed_charts() {
    let r = real();
    let page = check_charts(r);
    assert!(page.contains("2024-01-02 03:04 UTC"));
    // Overhead, mesh (application documents) and throughput have charts; no array series.
    assert!(expected_charts(r) >= 3);
    assert!(page.contains("Overhead: ns per parse of overhead"));
    assert!(page.contains("with <code>--ops pipeline</code>; this run has none"));
    assert!(page.contains("The BXSA data-set experiment"));
    for name in ["overhead", "mesh", "po"] {
        assert!(page.contains(&format!("id=\"w-{name}\"")), "{name} table");
    }
}

#[test]
fn synthetic_report_has_every_section() {
    let r = synthetic();
    let page = check_charts(&r);
    assert_eq!(
        svgs(&page)
            .iter()
            .filter(|s| s.contains("line-chart"))
            .count(),
        // Three array series, and the BXSA experiment's decode and encode charts.
        5
    );
    assert!(page.contains("arrays-&lt;string&gt;"));
    assert!(page.contains("cannot"));
    assert!(page.contains("po-big"));
    assert!(page.contains("Median ms: parse + re-serialize"));
    assert!(page.contains("ran out of &lt;patience&gt; &amp; &quot;time&quot;"));
    assert!(page.contains("class=\"differs\""));
    assert!(page.contains("no JDK found"));
    assert!(page.contains("worker &lt;panicked&gt;"));
    assert!(page.contains("climate"));
    assert!(!page.contains("The BXSA data-set experiment"));
    // The BXSA experiment: the size table with the paper's row, a time table per size, the
    // EXI failure's message escaped in its cell's title.
    assert!(page.contains(
        "<tr class=\"paper\"><td>BXSA (paper) <em>(from the paper, not measured)</em></td>"
    ));
    assert!(page.contains("<td class=\"n\">12,180</td><td class=\"n\">1.50%</td>"));
    assert_eq!(page.matches("<table class=\"bxsa-times\">").count(), 3);
    assert!(page.contains("title=\"out of &lt;heap&gt; &amp; more\">failed</td>"));
    assert!(page.contains("<li>a &lt;note&gt; &amp; more</li>"));
    // The pipelines: a row group per expression, xwire "cannot", libxml2's failure kept.
    assert!(
        page.contains("<th colspan=\"7\">pipeline /purchaseOrder/items/item[USPrice&lt;100]</th>")
    );
    assert!(page.contains("Pipelines on po-big"));
    assert!(page.contains("XPath &lt;error&gt; &amp; more"));
    let xwire_row = page
        .split("<tr class=\"xwire\"><td>xwire</td>")
        .find(|row| row.starts_with("<td class=\"n cannot\" colspan=\"2\">cannot</td>"));
    assert!(xwire_row.is_some(), "xwire cannot do the pipelines yet");
}

#[test]
fn empty_report_has_notes_only() {
    let mut r = synthetic();
    r.workloads.clear();
    r.throughput = None;
    r.bxsa = None;
    let page = check_charts(&r);
    assert_eq!(svgs(&page).len(), 0);
    assert!(page.matches("class=\"note\"").count() >= 8);
}

#[test]
fn write_puts_page_and_json_in_the_folder() {
    let dir = std::env::temp_dir().join(format!("xwire-html-write-{}", std::process::id()));
    let page = html::write(&synthetic(), &dir).unwrap();
    assert_eq!(page, dir.join("index.html"));
    let json = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert_eq!(json, report::json(&synthetic()));
    let _ = std::fs::remove_dir_all(&dir);
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Runs the browser with `args` on `page`, with a time limit; its standard output.
fn browse(exe: &Path, profile: &Path, args: &[&str], page: &Path) -> String {
    let mut child = Command::new(exe)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut { stdout }, &mut s);
        s
    });
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{} {args:?}: {status}", exe.display());
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{} {args:?} did not finish in 120 s", exe.display());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader.join().unwrap()
}

#[test]
fn chromium_renders_the_page_with_its_charts() {
    let Some(exe) = chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is not installed (CI=true): .ci/run installs it");
        }
        eprintln!("note: chromium not found on PATH (chromium, chromium-browser, google-chrome); browser rendering not checked");
        return;
    };
    let r = combined();
    let dir = std::env::temp_dir().join(format!("xwire-html-chromium-{}", std::process::id()));
    let page = html::write(&r, &dir).unwrap();
    let expected = expected_charts(&r);
    assert!(
        expected >= 8,
        "the combined report draws every kind of chart"
    );

    let dom = browse(&exe, &dir.join("profile"), &["--dump-dom"], &page);
    assert_eq!(
        dom.matches("<svg").count(),
        expected,
        "charts in the browser's DOM"
    );
    assert!(dom.matches("class=\"chart ").count() == expected);
    for (id, _) in [
        ("peers", ""),
        ("overhead", ""),
        ("arrays", ""),
        ("documents", ""),
        ("validation", ""),
        ("compiled", ""),
        ("latency", ""),
        ("pipelines", ""),
        ("throughput", ""),
        ("workloads", ""),
    ] {
        assert!(
            dom.contains(&format!("<section id=\"{id}\"><h2>")),
            "section {id}"
        );
    }
    assert!(dom.contains("<polyline"), "line charts drawn");

    let png = dir.join("page.png");
    browse(
        &exe,
        &dir.join("profile"),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,4000",
        ],
        &page,
    );
    let bytes = std::fs::read(&png).expect("screenshot written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert!(bytes.len() > 50_000, "screenshot of {} bytes", bytes.len());
    if let Some(keep) = std::env::var_os("XWIRE_HTML_SCREENSHOT") {
        std::fs::copy(&png, keep).unwrap();
        std::fs::copy(&page, dir.with_extension("html")).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
