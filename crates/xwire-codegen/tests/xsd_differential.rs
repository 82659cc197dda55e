//! The XSD-suite differential (`differential/mod.rs`) as a test: the generated parsers and the
//! runtime validator must agree on every instance test of every valid schema that compiles,
//! but the disagreements listed, with a reason each, in
//! `crates/xwire-conformance/known-failures/xsd-generated.txt`; a listed test that agrees
//! fails too (remove it: the list only shrinks). The scanner and the cursor must never read
//! an instance differently. Needs the suite (`../shared/corpora/xsdtests`; missing under
//! `CI=true` is a failure) and builds a crate of generated code (a few minutes). Every
//! instance both accept is also written back by the generated serializer, validated, and
//! read again to an equal value, but those listed in `known-failures/xsd-round-trip.txt`.

use std::collections::BTreeMap;
use std::path::Path;

mod differential;

#[test]
fn generated_parsers_agree_with_the_validator_on_the_xsd_suite() {
    let Some(dir) = xwire_conformance::corpus("xsdtests") else {
        return;
    };
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/xsd-differential-test");
    let r = differential::run(&dir, &work, usize::MAX);
    eprintln!(
        "xsd differential: {} of {} valid schemas compile to parsers; {} of {} instances agree",
        r.compiled, r.valid, r.agree, r.instances
    );
    assert!(
        r.paths_differ.is_empty(),
        "the scanner and the cursor, or validate and from_slice, differ on {:?}",
        r.paths_differ
    );
    let found = same_as_listed("xsd-generated", "disagreements", &r.disagreements);
    assert_eq!(r.agree + found, r.instances);
    eprintln!(
        "round trip: {} documents written back, validated and read again; {} failed",
        r.round_trips,
        r.round_trip_failures.len()
    );
    same_as_listed(
        "xsd-round-trip",
        "round-trip failures",
        &r.round_trip_failures,
    );
}

/// Fails unless `found` holds exactly the tests listed in `known-failures/{list}.txt`: none
/// new, none fixed but still listed. Returns how many there are.
fn same_as_listed(list: &str, what: &str, found: &[(String, String)]) -> usize {
    let known: BTreeMap<String, String> = xwire_conformance::known_failures(list)
        .into_iter()
        .collect();
    let found: BTreeMap<&str, &str> = found
        .iter()
        .map(|(id, why)| (id.as_str(), why.as_str()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(id, _)| !known.contains_key(**id))
        .map(|(id, why)| format!("{id}  {why}"))
        .collect();
    let fixed: Vec<&String> = known
        .keys()
        .filter(|id| !found.contains_key(id.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "{what} not in known-failures/{list}.txt:\n{}",
        new.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed in known-failures/{list}.txt but passing now (remove them): {fixed:?}"
    );
    found.len()
}
