//! The generated parsers against xwire-schema's validator over the W3C XML Schema Test Suite
//! (see `tests/differential/mod.rs`): prints the share of valid schemas that compile to
//! parsers, the agreement on their instances, and the disagreements by constraint.
//!
//! ```text
//! cargo run --release -p xwire-codegen --example xsd_differential [-- --limit N] [--out FILE]
//! ```
//!
//! `--limit N` takes the first N schemas that compile; `--out FILE` writes every
//! disagreement there, one per line (`SET/GROUP/TEST  what each said`). Exit status 1 when
//! the scanner and the cursor read an instance differently, or the validate-only API judges
//! it differently from the object API. The test
//! `tests/xsd_differential.rs` runs the same and holds the disagreements to
//! `crates/xwire-conformance/known-failures/xsd-generated.txt`.

use std::collections::BTreeMap;
use std::path::Path;

#[path = "../tests/differential/mod.rs"]
mod differential;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let limit: usize = flag("--limit").map_or(usize::MAX, |n| n.parse().expect("--limit N"));
    let dir = xwire_conformance::corpora_dir()
        .expect("the corpora (../shared/corpora or $XWIRE_CORPORA)")
        .join("xsdtests");
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/xsd-differential");
    let r = differential::run(&dir, &work, limit);
    println!(
        "schemas: {} valid XSD 1.0 schemas taken, {} compiled to parsers ({:.1}%)",
        r.valid,
        r.compiled,
        100.0 * r.compiled as f64 / r.valid.max(1) as f64
    );
    println!(
        "instances: {}; generated parser and validator agree on {} ({:.2}%)",
        r.instances,
        r.agree,
        100.0 * r.agree as f64 / r.instances.max(1) as f64
    );
    println!(
        "scanner and cursor, or validate and from_slice, differ on {}",
        r.paths_differ.len()
    );
    for id in &r.paths_differ {
        println!("  {id}");
    }
    // Grouped by which side rejects and the constraint it names.
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for (_, why) in &r.disagreements {
        *kinds.entry(differential::kind(why)).or_default() += 1;
    }
    let mut kinds: Vec<_> = kinds.into_iter().collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    for (k, n) in &kinds {
        println!("  {n:>5}  {k}");
    }
    println!(
        "round trip: {} documents read, written back, validated and read again; {} failed",
        r.round_trips,
        r.round_trip_failures.len()
    );
    for (id, why) in &r.round_trip_failures {
        println!("  {id}  {why}");
    }
    if let Some(out) = flag("--out") {
        let lines: String = r
            .disagreements
            .iter()
            .map(|(id, why)| format!("{id}  {why}\n"))
            .collect();
        std::fs::write(&out, lines).expect("write the disagreements");
    }
    if !r.paths_differ.is_empty() {
        std::process::exit(1);
    }
}
