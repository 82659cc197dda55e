//! Canonicalizes a file repeatedly and prints the throughput in MB/s of input (median and best),
//! for inclusive and exclusive Canonical XML, with the output size for a check.
//!
//! `cargo run --release -p xwire --example canon_speed -- [FILE] [ITERATIONS]`
//! (default FILE: ../shared/corpora/xmark/auction-f0.1.xml, 20 iterations)

use std::time::Instant;

use xwire::c14n::{C14nOptions, Canonicalizer, Mode};

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpora/xmark/auction-f0.1.xml".into());
    let iters: usize = std::env::args()
        .nth(2)
        .map_or(20, |s| s.parse().expect("number of iterations"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (name, mode) in [
        ("inclusive", Mode::Inclusive),
        ("exclusive", Mode::exclusive("")),
    ] {
        let mut c = Canonicalizer::new(C14nOptions::new(mode, false));
        let mut out = Vec::with_capacity(bytes.len());
        let mut times = Vec::with_capacity(iters);
        for _ in 0..iters {
            out.clear();
            let t = Instant::now();
            c.canonicalize(&mut xwire::Reader::from_slice(&bytes), &mut out)
                .expect("canonicalizable document");
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let mb = bytes.len() as f64 / 1e6;
        println!(
            "{path} {name}: {:.0} MB/s median, {:.0} MB/s best ({} bytes out)",
            mb / times[times.len() / 2],
            mb / times[0],
            out.len()
        );
    }
}
