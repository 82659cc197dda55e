//! Validates a document many times, for profilers (`perf record`, callgrind):
//!
//! ```text
//! cargo run --release -p xwire-bench --example validate_loop -- SCHEMA DOC [ROUNDS] [MODE] [--cold]
//! ```
//!
//! By default through a `ValidatingReader` (as the benchmark's xwire-psvi peer does). MODE:
//! `--parse` only parses; `--stream` parses through `Reader::from_reader`; `--verdict`
//! validates through `Validator::validate` (the lean pass first); `--events` through
//! `Validator::validate_with`, taking each event as the benchmark's runners do
//! (`peers::event_sum`). `--cold` evicts the data caches between documents (as the
//! benchmark's interleaved rounds do, running the other peers between two calls), and times
//! each document alone.

use std::time::Instant;

use xwire_bench::peers::event_sum;
use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidatingReader, ValidationOptions, Validator};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let mode = match () {
        _ if flag("--parse") => Mode::Parse,
        _ if flag("--stream") => Mode::Stream,
        _ if flag("--events") => Mode::Events,
        _ if flag("--verdict") => Mode::Verdict,
        _ => Mode::Psvi,
    };
    let cold = flag("--cold");
    let mut evict = vec![0u8; if cold { 8 << 20 } else { 0 }];
    let mut timed = std::time::Duration::ZERO;
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let schema = Schema::load(args[0]).expect("schema");
    let doc = std::fs::read(args[1]).expect("document");
    let rounds: usize = args.get(2).map_or(1000, |s| s.parse().expect("rounds"));
    let mut v = Validator::new(&schema, ValidationOptions::default());
    let start = Instant::now();
    let mut sum = 0u64;
    for round in 0..rounds {
        if !cold {
            one(&mut v, &doc, &mode, &mut sum);
            continue;
        }
        for i in (0..evict.len()).step_by(64) {
            evict[i] = evict[i].wrapping_add(round as u8);
        }
        std::hint::black_box(&evict);
        let t = Instant::now();
        one(&mut v, &doc, &mode, &mut sum);
        timed += t.elapsed();
    }
    // Zero rounds measures the set-up alone (for subtracting it from a profile).
    let per = if cold { timed } else { start.elapsed() } / rounds.max(1) as u32;
    println!("{per:?} per document ({sum})");
}

enum Mode {
    Parse,
    Stream,
    Events,
    Verdict,
    Psvi,
}

/// One document, parsed or validated.
fn one(v: &mut Validator<'_>, doc: &[u8], mode: &Mode, sum: &mut u64) {
    match mode {
        Mode::Parse => {
            let mut r = xwire::Reader::from_slice(doc);
            loop {
                match r.next().expect("well-formed") {
                    xwire::Event::Eof => break,
                    ev => *sum += event_sum(&ev),
                }
            }
        }
        Mode::Stream => {
            let mut r = xwire::Reader::from_reader(doc, xwire::Config::default());
            loop {
                match r.next().expect("well-formed") {
                    xwire::Event::Eof => break,
                    ev => *sum += event_sum(&ev),
                }
            }
        }
        Mode::Events => v
            .validate_with(doc, |ev| *sum += event_sum(ev))
            .expect("valid"),
        Mode::Verdict => {
            v.validate(doc).expect("valid");
            *sum += 1;
        }
        Mode::Psvi => {
            let mut r = ValidatingReader::new(v, xwire::Reader::from_slice(doc));
            loop {
                let (ev, psvi) = r.next().expect("well-formed").split();
                if matches!(ev, xwire::Event::Eof) {
                    break;
                }
                *sum += matches!(
                    std::hint::black_box(psvi),
                    xwire_schema::validate::Psvi::Start { .. }
                ) as u64;
            }
            if let Some(e) = r.errors().first() {
                panic!("invalid: {e}");
            }
        }
    }
}
