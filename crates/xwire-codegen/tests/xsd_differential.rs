//! The XSD-suite differential (`differential/mod.rs`) as a test: the generated parsers and the
//! runtime validator must agree on every instance test of every valid schema that compiles,
//! but the disagreements listed, with a reason each, in
//! `crates/xwire-conformance/known-failures/xsd-generated.txt`; a listed test that agrees
//! fails too (remove it: the list only shrinks). The scanner and the cursor must never read
//! an instance differently. Needs the suite (`../shared/corpora/xsdtests`; missing under
//! `CI=true` is a failure) and builds a crate of generated code (a few minutes).

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
        "the scanner and the cursor differ on {:?}",
        r.paths_differ
    );
    let known: BTreeMap<String, String> = xwire_conformance::known_failures("xsd-generated")
        .into_iter()
        .collect();
    let found: BTreeMap<&str, &str> = r
        .disagreements
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
        "disagreements not in known-failures/xsd-generated.txt:\n{}",
        new.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed in known-failures/xsd-generated.txt but agreeing now (remove them): {fixed:?}"
    );
    assert_eq!(r.agree + found.len(), r.instances);
}
