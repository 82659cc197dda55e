//! The parser generated for tests/schemas/notes.xsd: mixed content (text between the
//! children of paragraphs, a text-only element, a remark whose one child has text around
//! it) and QName values (an attribute, an enumeration, a list, a union member), read by
//! both sources, written back, given as events in document order, and checked as the
//! validator checks them.

#[allow(dead_code)]
mod notes {
    include!("golden/notes.rs");
}

mod common;

use notes::{Document, Kind, ParaChoice, Role};
use xwire::bind::events::Handler;
use xwire::bind::{Cursor, MixedText, QName, Scanner};

const NS: &str = "urn:notes";

const VALID: &str = r#"<n:notes xmlns:n="urn:notes" xmlns:x="urn:x" schema="x:memo"><n:para role="n:lead">The <n:em>first</n:em> words, then <n:link to="x:target">a &amp; link</n:link>.</n:para><n:para role=" 7 "><n:q>so <n:em>said</n:em> she</n:q></n:para><n:para>
  <n:em>only</n:em>
</n:para><n:remark>said <n:by>me</n:by></n:remark><n:kind xmlns:m="urn:notes">m:letter</n:kind><n:refs xmlns="urn:default"> x:a b </n:refs></n:notes>"#;

fn read(doc: &str) -> Result<Document, xwire::bind::Error> {
    Document::from_slice(doc.as_bytes())
}

#[test]
fn both_sources_read_mixed_content_and_qnames_alike() {
    let general = Document::read(&mut Cursor::new(VALID.as_bytes())).unwrap();
    let fast = Document::read(&mut Scanner::new(VALID.as_bytes())).unwrap();
    assert_eq!(fast, general);
    let Document::Notes(n) = general else {
        panic!("a notes document");
    };
    assert_eq!(n.schema, Some(QName::new("urn:x", "memo")));
    let p = &n.para[0];
    assert_eq!(p.role, Some(Role::QName(QName::new(NS, "lead"))));
    assert_eq!(
        p.text,
        [
            MixedText::new(0, "The "),
            MixedText::new(1, " words, then "),
            MixedText::new(2, "."),
        ]
    );
    let ParaChoice::Link(link) = &p.choice[1] else {
        panic!("not a link")
    };
    assert_eq!(link.to, QName::new("urn:x", "target"));
    assert_eq!(link.text, [MixedText::new(0, "a & link")]);
    assert_eq!(n.para[1].role, Some(Role::Int(7)));
    assert!(n.para[1].text.is_empty());
    // A quote is a paragraph in a paragraph, its text its own.
    let ParaChoice::Q(q) = &n.para[1].choice[0] else {
        panic!("not a quote")
    };
    assert_eq!(
        q.text,
        [MixedText::new(0, "so "), MixedText::new(1, " she")]
    );
    // White space is text in mixed content.
    assert_eq!(n.para[2].text.len(), 2);
    let remark = n.remark.as_ref().unwrap();
    assert_eq!(remark.text, [MixedText::new(0, "said ")]);
    // Resolved where the document wrote it: another prefix for the schema's namespace.
    assert_eq!(n.kind, Some(Kind::NLetter));
    let refs = n.refs.as_ref().unwrap();
    assert_eq!(
        refs,
        &[QName::new("urn:x", "a"), QName::new("urn:default", "b")]
    );
}

#[test]
fn comments_and_cdata_in_mixed_text_are_read_by_the_cursor() {
    let doc = VALID.replace("The <n:em>", "Th<!-- c -->e<![CDATA[ ]]><n:em>");
    assert!(Document::read(&mut Scanner::new(doc.as_bytes())).is_err());
    let Document::Notes(n) = read(&doc).unwrap() else {
        panic!("a notes document");
    };
    assert_eq!(n.para[0].text[0], MixedText::new(0, "The "));
}

#[test]
fn written_back_it_reads_the_same() {
    let doc = read(VALID).unwrap();
    let xml = doc.to_xml().unwrap();
    assert_eq!(read(&xml).unwrap(), doc, "{xml}");
    // The text between the children, where it was (the prefixes are the writer's).
    for piece in [">The <", ":em> words, then <", ":link>.</", ">said <"] {
        assert!(xml.contains(piece), "{piece}: {xml}");
    }
}

/// Events as one line each.
#[derive(Default)]
struct Log(Vec<String>);

impl Handler for Log {
    fn start(&mut self, _ns: &str, local: &str) {
        self.0.push(format!("<{local}"));
    }
    fn attribute(&mut self, _ns: &str, local: &str, value: &str) {
        self.0.push(format!("@{local}={value}"));
    }
    fn text(&mut self, text: &str) {
        self.0.push(format!("'{text}'"));
    }
    fn end(&mut self) {
        self.0.push(">".into());
    }
}

#[test]
fn events_give_mixed_text_in_document_order() {
    let mut log = Log::default();
    Document::events(VALID.as_bytes(), &mut log).unwrap();
    let first: Vec<&str> = log.0.iter().map(String::as_str).take(14).collect();
    assert_eq!(
        first,
        [
            "<notes",
            "@schema=x:memo",
            "<para",
            "@role=n:lead",
            "'The '",
            "<em",
            "'first'",
            ">",
            "' words, then '",
            "<link",
            "@to=x:target",
            "'a & link'",
            ">",
            "'.'",
        ]
    );
}

const BROKEN: &[common::Break] = &[
    (
        "an element mixed content does not admit",
        "<n:em>first</n:em>",
        "<n:by>x</n:by>",
    ),
    (
        "text where the content is not mixed",
        "<n:kind ",
        "x<n:kind ",
    ),
    (
        "a QName of an undeclared prefix",
        "schema=\"x:memo\"",
        "schema=\"y:memo\"",
    ),
    ("a QName outside the enumeration", "m:letter", "m:note"),
    (
        "the enumeration's name in another namespace",
        "m:letter",
        "x:letter",
    ),
    ("a list item that is no QName", " x:a b ", " x:a 1b "),
    ("a union value of no member", "role=\" 7 \"", "role=\"7.5\""),
    ("a link without its QName", " to=\"x:target\"", ""),
    ("a remark without its child", "<n:by>me</n:by>", ""),
];

#[test]
fn what_the_schema_forbids_is_an_error_as_for_the_validator() {
    let xsd = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/notes.xsd");
    common::agree_with_the_validator(xsd, VALID, BROKEN, |doc| {
        let read = Document::from_slice(doc)
            .map(drop)
            .map_err(|e| e.to_string());
        assert_eq!(Document::validate(doc).is_ok(), read.is_ok());
        read
    });
}

/// A root no global element names: its `xsi:type` types it (a complex type, a built-in type,
/// `xs:anyType`), as the validator assesses it, in every API; without one it is an error.
#[test]
fn a_root_typed_by_xsi_type_alone_is_read_in_every_api() {
    const XSI: &str = r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
    let doc = |ty: &str, content: &str| {
        format!(
            r#"<n:memo xmlns:n="urn:notes" xmlns:xs="http://www.w3.org/2001/XMLSchema" {XSI} xsi:type="{ty}">{content}</n:memo>"#
        )
    };
    let para = doc("n:Para", "so <n:em>said</n:em> she");
    let Document::Undeclared(xwire::bind::Any::Typed(t)) = read(&para).unwrap() else {
        panic!("a root typed by a complex type");
    };
    assert_eq!((t.ns.as_str(), t.local.as_str()), (NS, "memo"));
    assert!(matches!(t.value, notes::Typed::Para(_)));
    let kind = doc("xs:int", " 42 ");
    assert!(matches!(
        read(&kind).unwrap(),
        Document::Undeclared(xwire::bind::Any::Other(_))
    ));
    let any = doc("xs:anyType", "<x>free</x>");
    let xsd = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/notes.xsd");
    let schema = xwire_schema::model::Schema::load(xsd).expect("the schema loads");
    let validator = |doc: &str| {
        xwire_schema::validate::Validator::new(&schema, Default::default())
            .validate(doc.as_bytes())
            .is_ok()
    };
    for d in [&para, &kind, &any] {
        assert!(validator(d), "{d}");
        let value = read(d).unwrap_or_else(|e| panic!("{d}: {e}"));
        assert!(Document::validate(d.as_bytes()).is_ok(), "{d}");
        let mut log = Log::default();
        Document::events(d.as_bytes(), &mut log).unwrap();
        assert_eq!(log.0.first().map(String::as_str), Some("<memo"), "{d}");
        let xml = value.to_xml().unwrap();
        assert_eq!(read(&xml).unwrap(), value, "{xml}");
    }
    // Invalid for its type, typed by nothing the schema has, or not typed at all.
    let wrong = [
        doc("n:Para", "<n:by>x</n:by>"),
        doc("xs:int", "forty-two"),
        doc("n:Nothing", ""),
        r#"<n:memo xmlns:n="urn:notes">x</n:memo>"#.to_string(),
    ];
    for d in &wrong {
        assert!(!validator(d), "the validator accepts {d}");
        assert!(read(d).is_err(), "{d}");
        assert!(Document::validate(d.as_bytes()).is_err(), "{d}");
        assert!(
            Document::events(d.as_bytes(), &mut Log::default()).is_err(),
            "{d}"
        );
    }
}
