//! The XML Schema Primer's schemas and instances (`../shared/corpora/xsd-primer`): every
//! instance is valid, and each mutation of one is rejected with a message that names what is
//! wrong, at the right line.

use std::path::{Path, PathBuf};

use xwire_schema::model::Schema;
use xwire_schema::validate::{validate_bytes, ValidationError, ValidationOptions};

fn primer() -> Option<PathBuf> {
    let root = std::env::var_os("XWIRE_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"));
    let dir = root.join("xsd-primer");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("the corpora are missing under CI: {}", dir.display());
    }
    eprintln!("skipped: no corpora at {}", dir.display());
    None
}

fn load(path: &Path) -> Schema {
    Schema::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn errors(schema: &Schema, xml: &str) -> Vec<ValidationError> {
    match validate_bytes(schema, xml.as_bytes(), &ValidationOptions::default()) {
        Ok(()) => Vec::new(),
        Err(errors) => errors,
    }
}

#[test]
fn primer_instances_are_valid() {
    let Some(dir) = primer() else { return };
    let pairs = [
        ("po.xsd", "po.xml"),
        ("ipo.xsd", "ipo.xml"),
        ("po1.xsd", "po1.xml"),
    ];
    for (xsd, xml) in pairs {
        let schema = load(&dir.join(xsd));
        let text = std::fs::read_to_string(dir.join(xml)).unwrap();
        let errs = errors(&schema, &text);
        assert!(errs.is_empty(), "{xml}: {errs:?}");
    }
    for i in 1..=6 {
        let folder = dir.join(format!("boeing/ipo{i}"));
        let schema = load(&folder.join("ipo.xsd"));
        for xml in ["ipo_1.xml", "ipo_2.xml"] {
            let text = std::fs::read_to_string(folder.join(xml)).unwrap();
            let errs = errors(&schema, &text);
            assert!(errs.is_empty(), "boeing/ipo{i}/{xml}: {errs:?}");
        }
    }
}

/// (what the mutation does, text to find, its replacement, fragments the first error must
/// contain, the line it must be reported on).
type Mutation = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    u64,
);

const PO: &[Mutation] = &[
    ("SKU against its pattern", "partNum=\"926-AA\"", "partNum=\"926-aa\"", &["926-aa", "pattern"], 30),
    (
        "quantity over maxExclusive",
        "<quantity>1</quantity>\n            <USPrice>148.95",
        "<quantity>100</quantity>\n            <USPrice>148.95",
        &["100", "quantity"],
        26,
    ),
    ("impossible date", "orderDate=\"1999-10-20\"", "orderDate=\"1999-13-20\"", &["1999-13-20", "orderDate"], 2),
    ("price not a decimal", "<USPrice>39.98</USPrice>", "<USPrice>cheap</USPrice>", &["cheap", "decimal"], 33),
    ("undeclared attribute", "<item partNum=\"872-AA\">", "<item partNum=\"872-AA\" colour=\"red\">", &["colour"], 24),
    ("required attribute missing", "<item partNum=\"872-AA\">", "<item>", &["partNum"], 24),
    ("fixed attribute changed", "<shipTo country=\"US\">", "<shipTo country=\"UK\">", &["country", "US", "UK"], 8),
    (
        "shipTo missing",
        "<shipTo country=\"US\">\n        <name>Alice Smith</name>\n        <street>123 Maple Street</street>\n        <city>Mill Valley</city>\n        <state>CA</state>\n        <zip>90952</zip>\n    </shipTo>\n    ",
        "",
        &["billTo", "shipTo"],
        8,
    ),
    ("undeclared element", "<comment>Hurry", "<remark/><comment>Hurry", &["remark"], 22),
    ("text in element-only content", "<items>", "<items>loose text", &["loose text"], 23),
    ("items out of order", "<USPrice>148.95</USPrice>\n            <comment>Confirm this is electric</comment>", "<comment>Confirm this is electric</comment>\n            <USPrice>148.95</USPrice>", &["comment", "USPrice"], 27),
];

const IPO: &[Mutation] = &[
    (
        "UK postcode against its pattern",
        "<postcode>CB1 1JR</postcode>",
        "<postcode>CB1-1JR</postcode>",
        &["CB1-1JR"],
        14,
    ),
    (
        "US state outside the enumeration",
        "<state>PA</state>",
        "<state>ZZ</state>",
        &["ZZ", "enumerat"],
        22,
    ),
    (
        "xsi:type naming no type",
        "xsi:type=\"ipo:UKAddress\"",
        "xsi:type=\"ipo:FRAddress\"",
        &["FRAddress"],
        10,
    ),
    (
        "US content under a UK type",
        "xsi:type=\"ipo:USAddress\"",
        "xsi:type=\"ipo:UKAddress\"",
        &["state"],
        22,
    ),
    (
        "abstract-free Address without xsi:type is not enough",
        "<billTo xsi:type=\"ipo:USAddress\">",
        "<billTo>",
        &["state"],
        22,
    ),
];

fn check(schema: &Schema, original: &str, mutations: &[Mutation]) {
    for &(what, find, replace, fragments, line) in mutations {
        assert!(
            original.contains(find),
            "{what}: the text to mutate is not in the document"
        );
        let mutated = original.replacen(find, replace, 1);
        let errs = errors(schema, &mutated);
        let first = errs.first().unwrap_or_else(|| panic!("{what}: accepted"));
        let text = first.to_string();
        for f in fragments {
            let found = text.contains(f) || first.expected.iter().any(|e| e.contains(f));
            assert!(
                found,
                "{what}: '{f}' not in: {text} (expected {:?})",
                first.expected
            );
        }
        assert_eq!(first.line, line, "{what}: {text}");
    }
}

#[test]
fn mutated_purchase_orders_are_rejected_with_the_right_message() {
    let Some(dir) = primer() else { return };
    let schema = load(&dir.join("po.xsd"));
    // The Primer files have CR LF line ends; the mutations are written with LF.
    let original = std::fs::read_to_string(dir.join("po.xml"))
        .unwrap()
        .replace("\r\n", "\n");
    check(&schema, &original, PO);

    let schema = load(&dir.join("ipo.xsd"));
    let original = std::fs::read_to_string(dir.join("ipo.xml"))
        .unwrap()
        .replace("\r\n", "\n");
    check(&schema, &original, IPO);
}
