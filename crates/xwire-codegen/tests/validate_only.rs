//! The validate-only API (`Document::validate`, `Type::check`) and the event API
//! (`Document::events`) against the object API (`Document::from_slice`, `Type::read`) of the
//! same generated code: on every document, valid or broken, all give the same verdict and the
//! same first error (constraint, message, line and column), on both of the parser's paths;
//! and on valid po and ipo documents the events are those of the document read as
//! `xs:anyType` (`Document::events_any_type`). The documents are the fuzz seeds, each
//! broken once at every byte (deleted, or replaced by a byte that matters to XML), through the
//! fuzz targets' own bodies, which also hold both APIs to the schema validator.

#[path = "../fuzz/bodies.rs"]
mod bodies;

use std::path::Path;

/// The bytes a position is replaced with, in turn: markup, quotes, a name character, a digit,
/// white space and an entity start.
const REPLACEMENTS: &[u8] = b"<>\"/=x9 &-";

/// Runs `body` over every seed of `dir`, and over each seed broken at every `step`-th byte.
fn broken_seeds(dir: &str, step: usize, body: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut runs = 0;
    for e in std::fs::read_dir(&dir).expect("the seeds are checked in") {
        let seed = std::fs::read(e.unwrap().path()).unwrap();
        body(&seed);
        for (n, at) in (0..seed.len()).step_by(step).enumerate() {
            let mut deleted = seed.clone();
            deleted.remove(at);
            body(&deleted);
            let mut replaced = seed.clone();
            replaced[at] = REPLACEMENTS[n % REPLACEMENTS.len()];
            body(&replaced);
            runs += 2;
        }
    }
    runs
}

#[test]
fn po_documents_broken_everywhere() {
    let runs = broken_seeds("fuzz/seeds/po", 3, bodies::generated_po);
    assert!(runs > 5_000, "{runs} documents");
}

#[test]
fn ipo_documents_broken_everywhere() {
    let runs = broken_seeds("fuzz/seeds/ipo", 3, bodies::generated_ipo);
    assert!(runs > 5_000, "{runs} documents");
}

#[test]
fn drawing_documents_broken_everywhere() {
    // Wildcards, anyType, nil, IDs, lists, a union, keys: every byte.
    let runs = broken_seeds("fuzz/seeds/drawing", 1, bodies::generated_drawing);
    assert!(runs > 4_000, "{runs} documents");
}

/// A broken document's error is the object API's, word for word.
#[test]
fn the_first_error_is_the_same() {
    let doc = br#"<purchaseOrder orderDate="1999-10-20"><shipTo country="US"><name>A</name><street>B</street><city>C</city><state>D</state><zip>1x</zip></shipTo></purchaseOrder>"#;
    let validate = bodies::po::Document::validate(doc).unwrap_err();
    let objects = bodies::po::Document::from_slice(doc).unwrap_err();
    assert_eq!(validate, objects);
    assert_eq!(validate.constraint, "cvc-datatype-valid.1.2.1");
    assert_eq!((validate.line, validate.column), (1, 122));
}

/// The `xs:anyType` baselines (events and objects) assess the root's content laxly: an element whose `xsi:type`
/// names a complex type of the schema is checked as it (the address's zip), an element with
/// neither a global declaration nor an `xsi:type` is not (the item's quantity).
#[test]
fn the_any_type_baseline_is_lax() {
    let seed =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/ipo/ipo8k.xml"))
            .unwrap();
    let seed = String::from_utf8(seed).unwrap();
    let mut none = ();
    assert!(bodies::ipo::Document::events_any_type(seed.as_bytes(), &mut none).is_ok());
    let zip = seed.replacen("<zip>41283</zip>", "<zip>x</zip>", 1);
    let err = bodies::ipo::Document::events_any_type(zip.as_bytes(), &mut none).unwrap_err();
    assert_eq!(
        err,
        bodies::ipo::Document::validate(zip.as_bytes()).unwrap_err()
    );
    let quantity = seed.replacen("<quantity>35</quantity>", "<quantity>x</quantity>", 1);
    assert!(bodies::ipo::Document::validate(quantity.as_bytes()).is_err());
    assert!(bodies::ipo::Document::events_any_type(quantity.as_bytes(), &mut none).is_ok());

    // The objects' baseline the same way: the root kept as XML, the typed address read as
    // the schema's type.
    use bodies::ipo::{Document, Typed};
    use xwire::bind::{Any, AnyNode};
    let Any::Other(root) = Document::from_slice_any_type(seed.as_bytes()).unwrap() else {
        panic!("the root is kept as XML");
    };
    assert_eq!(root.local.as_str(), "purchaseOrder");
    let typed = root.children.iter().find_map(|n| match n {
        AnyNode::Element(Any::Typed(t)) => Some(t),
        _ => None,
    });
    let typed = typed.expect("shipTo's xsi:type names ipo:USAddress");
    assert_eq!(typed.local.as_str(), "shipTo");
    assert!(matches!(typed.value, Typed::UsAddress(_)));
    let err = Document::from_slice_any_type(zip.as_bytes()).unwrap_err();
    assert_eq!(err, Document::validate(zip.as_bytes()).unwrap_err());
    assert!(Document::from_slice_any_type(quantity.as_bytes()).is_ok());
}
