//! The parser generated for po.xsd (tests/golden/po.rs) beside xwire's generic parse (no
//! validation, nothing built) and xwire-schema's validator, on one document, in one run: the
//! ratios issue 29 asks about (typed objects, and the validate-only API, against the generic
//! non-validating parse).
//!
//! `xwire gen po-8k -o po.xml && cargo run --release -p xwire-codegen --example po_speed -- po.xml`
//!
//! With `--profile objects|check|events|anytype|cursor|parse [N]` after the file it runs only the generated parser
//! (or the generated parser on its general path, or only the generic parse), N times (20,000 by default), for a profiler to watch
//! (`perf record`) or count (callgrind: instructions with N rounds minus instructions with
//! 0, over N, is the cost of one document).

use std::hint::black_box;
use std::time::Instant;

#[allow(dead_code)]
mod po {
    include!("../tests/golden/po.rs");
}

/// The generic parse as the benchmark's xwire runner does it: every event, names, attribute
/// values and text consumed.
fn generic(doc: &[u8]) -> u64 {
    use xwire::Event;
    let mut r = xwire::Reader::from_slice(doc);
    let mut sum = 0u64;
    loop {
        match r.next().expect("well-formed") {
            Event::Start(t) => {
                sum += 1;
                black_box((t.local_name(), t.ns()));
                for a in t.attributes() {
                    black_box((a.local_name(), a.ns(), a.value()));
                }
            }
            Event::Text(t) => sum += t.unescape().len() as u64,
            Event::Eof => return sum,
            _ => {}
        }
    }
}

/// An event handler that counts what the benchmark's `events` counts.
struct Count(u64);

impl xwire::bind::events::Handler for Count {
    fn start(&mut self, _ns: &str, _local: &str) {
        self.0 += 1;
    }
    fn attribute(&mut self, _ns: &str, _local: &str, _value: &str) {
        self.0 += 1;
    }
    fn text(&mut self, text: &str) {
        if !text.bytes().all(|b| b.is_ascii_whitespace()) {
            self.0 += text.len() as u64;
        }
    }
}

/// Median seconds per call of `f` over 9 batches sized to about 50 ms each.
fn time(mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    let mut n = 0u32;
    while t.elapsed().as_secs_f64() < 0.05 {
        f();
        n += 1;
    }
    let mut samples: Vec<f64> = (0..9)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_secs_f64() / n as f64
        })
        .collect();
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[4]
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: po_speed FILE");
    let doc = std::fs::read(&path).expect("read the document");
    let xsd = concat!(env!("CARGO_MANIFEST_DIR"), "/../xwire-bench/schemas/po.xsd");
    let schema = xwire_schema::model::Schema::load(xsd).expect("po.xsd loads");
    let mut validator = xwire_schema::validate::Validator::new(
        &schema,
        xwire_schema::validate::ValidationOptions::default(),
    );
    assert!(
        validator.validate(&doc).is_ok(),
        "{path} is not valid against po.xsd"
    );
    po::Document::from_slice(&doc).expect("the generated parser reads it");
    if std::env::args().nth(2).as_deref() == Some("--profile") {
        let what = std::env::args()
            .nth(3)
            .expect("--profile objects|check|events|anytype|cursor|parse [N]");
        let rounds = std::env::args()
            .nth(4)
            .map_or(20_000, |n| n.parse().expect("a count"));
        for _ in 0..rounds {
            match what.as_str() {
                "objects" => black_box(po::Document::from_slice(black_box(&doc)).is_ok()),
                "check" => black_box(po::Document::validate(black_box(&doc)).is_ok()),
                "events" => black_box(po::Document::events(black_box(&doc), &mut Count(0)).is_ok()),
                "anytype" => {
                    black_box(po::Document::events_any_type(black_box(&doc), &mut Count(0)).is_ok())
                }
                // The general path alone: the reader's events through the cursor.
                "cursor" => black_box(
                    po::Document::read(&mut xwire::bind::Cursor::new(black_box(&doc))).is_ok(),
                ),
                _ => black_box(generic(black_box(&doc)) > 0),
            };
        }
        return;
    }

    let mb = doc.len() as f64 / 1e6;
    let parse = time(|| {
        black_box(generic(black_box(&doc)));
    });
    let validate = time(|| {
        black_box(validator.validate(black_box(&doc)).is_ok());
    });
    let objects = time(|| {
        black_box(po::Document::from_slice(black_box(&doc)).is_ok());
    });
    let check = time(|| {
        black_box(po::Document::validate(black_box(&doc)).is_ok());
    });
    let events = time(|| {
        black_box(po::Document::events(black_box(&doc), &mut Count(0)).is_ok());
    });
    let any_type = time(|| {
        black_box(po::Document::events_any_type(black_box(&doc), &mut Count(0)).is_ok());
    });
    println!("{path}: {} bytes, medians of 9 batches", doc.len());
    for (what, t) in [
        ("generic parse (no validation, nothing built)", parse),
        ("runtime validator (Validator::validate)", validate),
        ("generated parser, typed objects", objects),
        ("generated parser, validate only", check),
        ("generated parser, events", events),
        ("generated parser, events of the anyType root", any_type),
    ] {
        println!(
            "  {what:<46} {:>8.1} MB/s  {:>6.2}x the generic parse",
            mb / t,
            parse / t
        );
    }
}
