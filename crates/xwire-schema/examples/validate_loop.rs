//! Validates a document many times through a `ValidatingReader` (as the benchmark's xwire-psvi
//! peer does), for profiling: `validate_loop SCHEMA DOC [ROUNDS]`. With `--parse`, only parses;
//! with `--verdict`, validates through `Validator::validate` (the lean pass first); with
//! `--events`, through `Validator::validate_with`, taking each event as the benchmark does.

use std::time::Instant;

use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidatingReader, ValidationOptions, Validator};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse_only = args.iter().any(|a| a == "--parse");
    let verdict = args.iter().any(|a| a == "--verdict");
    let events = args.iter().any(|a| a == "--events");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let schema = Schema::load(args[0]).expect("schema");
    let doc = std::fs::read(args[1]).expect("document");
    let rounds: usize = args.get(2).map_or(1000, |s| s.parse().expect("rounds"));
    let mut v = Validator::new(&schema, ValidationOptions::default());
    let start = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        if parse_only {
            let mut r = xwire::Reader::from_slice(&doc);
            loop {
                match r.next().expect("well-formed") {
                    xwire::Event::Eof => break,
                    ev => sum += event_sum(&ev),
                }
            }
            continue;
        }
        if events {
            v.validate_with(&doc, |ev| sum += event_sum(ev))
                .expect("valid");
            continue;
        }
        if verdict {
            v.validate(&doc).expect("valid");
            sum += 1;
            continue;
        }
        let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(&doc));
        loop {
            let (ev, psvi) = r.next().expect("well-formed").split();
            if matches!(ev, xwire::Event::Eof) {
                break;
            }
            sum += matches!(
                std::hint::black_box(psvi),
                xwire_schema::validate::Psvi::Start { .. }
            ) as u64;
        }
        if let Some(e) = r.errors().first() {
            panic!("invalid: {e}");
        }
    }
    // Zero rounds measures the set-up alone (for subtracting it from a profile).
    let per = start.elapsed() / rounds.max(1) as u32;
    println!("{per:?} per document ({sum})");
}

/// What the benchmark's consumers take from each event.
fn event_sum(ev: &xwire::Event<'_>) -> u64 {
    use xwire::Event;
    match ev {
        Event::Start(t) => 1 + t.attributes().filter(|a| !a.is_namespace_decl()).count() as u64,
        Event::Text(t) => t.unescape().len() as u64,
        Event::CData(c) => c.raw().len() as u64,
        _ => 0,
    }
}
