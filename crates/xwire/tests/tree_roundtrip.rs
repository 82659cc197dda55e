//! The tree against the W3C suite: every well-formed standalone document of xmltest/valid/sa
//! is built, written and read back to the same serialization.

mod common;

use xwire::tree::Document;

#[test]
fn every_w3c_document_round_trips_through_the_tree() {
    let Some(dir) = common::corpus("xmlconf/xmltest/valid/sa") else {
        return;
    };
    let mut checked = 0;
    for path in common::xml_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(d) = Document::parse(&bytes) else {
            continue;
        };
        let out = d
            .to_xml()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let again = Document::parse(out.as_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}\n{out}", path.display()));
        assert_eq!(again.to_xml().unwrap(), out, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 100, "only {checked} documents");
}
