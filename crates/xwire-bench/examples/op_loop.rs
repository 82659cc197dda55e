//! Runs one benchmark operation of one in-process peer on a document many times, for
//! instruction counts (`scripts/instructions.sh` runs it under callgrind) and profilers:
//!
//! ```text
//! cargo run --release -p xwire-bench --example op_loop -- PEER OP DOC [ROUNDS] [--schema XSD]
//! cargo run --release -p xwire-bench --example op_loop -- tiny DOC [ROUNDS]
//! ```
//!
//! PEER and OP are the benchmark's (`xwire bench --peers`, `--ops`): the run is the peer's own
//! runner, prepared as the driver prepares it (`Peer::prepare` with the schema and the
//! document: `validate` compiles the schema, `decode` encodes the document, both outside the
//! loop), so it does per document exactly what `xwire bench` times. For xwire: `xwire parse`
//! pulls every event from `Reader::from_slice`, reading names and values; `xwire validate`
//! validates through `Validator::validate_with` (the lean pass first), taking every event;
//! `xwire-psvi validate` through a `ValidatingReader`, taking every event and its PSVI;
//! `xwire-index index` parses into a token index reused from run to run and walks it;
//! `xwire decode` reads the document's binary form (schema-less, `xsi:type`d elements typed)
//! through the `Reader`, consuming every event as the parse does.
//!
//! `tiny` is the loop of `crates/xwire/examples/tiny.rs`: a new reader per document, every
//! event pulled, the reader dropped (the one-element overhead, on `<a/>`).
//!
//! One untimed round runs first (it checks the outcome, warms the caches and lets the peer
//! allocate what it reuses), then ROUNDS rounds (default 1000), each checked against the
//! first. ROUNDS may be 0: the run is then the set-up alone, for subtracting it from a
//! profile, so that `(instructions(R) - instructions(0)) / R` is the steady-state cost of one
//! document.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use xwire_bench::peers::{self, Op, Setup};

fn main() {
    if let Err(e) = run() {
        eprintln!("op_loop: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut schema: Option<PathBuf> = None;
    if let Some(i) = args.iter().position(|a| a == "--schema") {
        let path = args.get(i + 1).ok_or("--schema needs a file")?;
        schema = Some(PathBuf::from(path));
        args.drain(i..i + 2);
    }
    let usage = "usage: op_loop PEER OP DOC [ROUNDS] [--schema XSD] | op_loop tiny DOC [ROUNDS]";
    let (peer, op, rest) = match args.first().map(String::as_str) {
        Some("tiny") => (None, None, &args[1..]),
        Some(peer) if args.len() >= 3 => (Some(peer), Some(args[1].as_str()), &args[2..]),
        _ => return Err(usage.into()),
    };
    let path = rest.first().ok_or(usage)?;
    let doc = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let rounds: usize = match rest.get(1) {
        Some(s) => s.parse().map_err(|e| format!("rounds '{s}': {e}"))?,
        None => 1000,
    };
    let (Some(peer), Some(op)) = (peer, op) else {
        return tiny(&doc, rounds);
    };

    let op = Op::from_name(op).ok_or_else(|| format!("unknown operation '{op}'"))?;
    let all = peers::in_process();
    let p = all
        .iter()
        .find(|p| p.name == peer)
        .ok_or_else(|| format!("no in-process peer '{peer}'"))?;
    let setup = Setup {
        schema: schema.as_deref(),
        document: Some(&doc),
    };
    let mut runner = p
        .prepare(op, &setup)
        .ok_or_else(|| format!("{peer} cannot {op}"))??;
    let expected = runner(&doc).map_err(|e| format!("{peer} {op}: {e}"))?;
    let start = Instant::now();
    for _ in 0..rounds {
        let sum = runner(black_box(&doc)).map_err(|e| format!("{peer} {op}: {e}"))?;
        if sum != expected {
            return Err(format!("{peer} {op}: checksum {sum}, first run {expected}"));
        }
    }
    report(start, rounds, expected);
    Ok(())
}

/// `crates/xwire/examples/tiny.rs`'s loop: a new reader per document, dropped after it.
fn tiny(doc: &[u8], rounds: usize) -> Result<(), String> {
    let once = |doc: &[u8]| -> Result<u64, String> {
        let mut r = xwire::Reader::from_slice(black_box(doc));
        let mut events = 0;
        while !matches!(r.next().map_err(|e| e.to_string())?, xwire::Event::Eof) {
            events += 1;
        }
        Ok(events)
    };
    let expected = once(doc)?;
    let start = Instant::now();
    let mut events = 0;
    for _ in 0..rounds {
        events += once(doc)?;
    }
    if events != expected * rounds as u64 {
        return Err(format!("{events} events in {rounds} rounds of {expected}"));
    }
    report(start, rounds, expected);
    Ok(())
}

fn report(start: Instant, rounds: usize, sum: u64) {
    let per = start.elapsed() / rounds.max(1) as u32;
    println!("{per:?} per document, {rounds} rounds (checksum {sum})");
}
