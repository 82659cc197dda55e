//! The bodies of the fuzz targets of generated parsers, shared by `fuzz_targets/` and by
//! `crates/xwire-codegen/tests/fuzz_regressions.rs` (which runs them over the seeds and the
//! saved crashes under `cargo test`). Each feeds bytes to a parser generated from a schema
//! (the checked-in golden files) and to xwire-schema's validator: the parser never panics,
//! and both give the same verdict, except on documents that use the `xsi:` attributes, where
//! cases the generated parsers do not read remain (`xsi:type` on a root without a
//! declaration, or naming a complex type on an element of simple type). The parser's two paths
//! agree too: whatever the fast scanner reads, the general cursor reads the same.
#![allow(dead_code)]

use std::sync::OnceLock;

use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidationOptions, Validator};

pub mod po {
    include!("../tests/golden/po.rs");
}

pub mod drawing {
    include!("../tests/golden/drawing.rs");
}

pub mod ipo {
    include!("../tests/golden/ipo.rs");
}

pub mod notes {
    include!("../tests/golden/notes.rs");
}

fn schema(cell: &'static OnceLock<Schema>, text: &str) -> &'static Schema {
    cell.get_or_init(|| {
        Schema::parse_str(text, &xwire_schema::load::LoadOptions::default())
            .expect("the schema loads")
    })
}

/// The checks of every target: the parser's error prints, and its verdict is the
/// validator's (but on documents with `xsi:` attributes).
fn agree<T>(schema: &Schema, data: &[u8], parsed: Result<T, xwire::bind::Error>) {
    if let Err(e) = &parsed {
        let _ = e.to_string();
    }
    let parsed = parsed.is_ok();
    let valid = Validator::new(schema, ValidationOptions::default())
        .validate(data)
        .is_ok();
    let xsi = data
        .windows(b"XMLSchema-instance".len())
        .any(|w| w == b"XMLSchema-instance");
    if !xsi {
        assert_eq!(
            parsed,
            valid,
            "the generated parser says {parsed}, the validator {valid}, on {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// Whenever the scanner reads the document, the cursor reads the same value.
fn same_paths<T: PartialEq + std::fmt::Debug>(
    data: &[u8],
    fast: Result<T, xwire::bind::Fallback>,
    general: Result<T, xwire::bind::Error>,
) {
    if let Ok(fast) = fast {
        // Compared as printed: a NaN is not equal to itself.
        assert_eq!(
            format!("{:?}", Ok::<_, xwire::bind::Error>(fast)),
            format!("{general:?}"),
            "the scanner and the cursor differ on {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// The validate-only API gives the object API's verdict and first error, on both paths.
macro_rules! same_verdict {
    ($module:ident, $data:expr) => {{
        let objects = $module::Document::from_slice($data).map(drop);
        assert_eq!(
            $module::Document::validate($data),
            objects,
            "validate and from_slice differ on {:?}",
            String::from_utf8_lossy($data)
        );
        let fast = $module::Document::read(&mut xwire::bind::Scanner::new($data)).map(drop);
        let check = $module::Document::check(&mut xwire::bind::Scanner::new($data));
        assert_eq!(check, fast, "check and read differ on the scanner");
    }};
}

/// A document's events as lines: each element's start with its attributes sorted, the text
/// of each element joined (white space alone dropped: between elements, only the `xs:anyType`
/// events have it), its end.
#[derive(Default)]
struct Log {
    lines: Vec<String>,
    attributes: Vec<String>,
    text: String,
}

impl Log {
    fn flush(&mut self) {
        self.attributes.sort();
        let attributes = std::mem::take(&mut self.attributes);
        self.lines.extend(attributes);
        let text = std::mem::take(&mut self.text);
        if !text.trim().is_empty() {
            self.lines.push(format!("'{text}'"));
        }
    }
}

impl xwire::bind::events::Handler for Log {
    fn start(&mut self, ns: &str, local: &str) {
        self.flush();
        self.lines.push(format!("<{{{ns}}}{local}"));
    }
    fn attribute(&mut self, ns: &str, local: &str, value: &str) {
        self.attributes.push(format!("@{{{ns}}}{local}={value}"));
    }
    fn text(&mut self, text: &str) {
        self.text.push_str(text);
    }
    fn end(&mut self) {
        self.flush();
        self.lines.push(">".to_string());
    }
}

/// The event API gives `validate`'s verdict and first error; on a valid document of a schema
/// without wildcards or defaults (`same_as_any_type`), the events are those of the document
/// read as `xs:anyType`, but for the white space between elements.
macro_rules! same_events {
    ($module:ident, $data:expr, $same_as_any_type:expr) => {{
        let mut log = Log::default();
        let events = $module::Document::events($data, &mut log);
        assert_eq!(
            events,
            $module::Document::validate($data),
            "events and validate differ on {:?}",
            String::from_utf8_lossy($data)
        );
        let mut any = Log::default();
        let any_type = $module::Document::events_any_type($data, &mut any);
        if events.is_ok() {
            assert!(any_type.is_ok(), "a valid document is well-formed");
            if $same_as_any_type {
                assert_eq!(
                    log.lines,
                    any.lines,
                    "the events differ from the anyType events on {:?}",
                    String::from_utf8_lossy($data)
                );
            }
        }
    }};
}

macro_rules! both_paths {
    ($module:ident, $data:expr) => {
        same_paths(
            $data,
            $module::Document::read(&mut xwire::bind::Scanner::new($data)),
            $module::Document::read(&mut xwire::bind::Cursor::new($data)),
        )
    };
}

/// `generated_po`: bytes through po.xsd's generated parser and the validator.
pub fn generated_po(data: &[u8]) {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    let s = schema(&SCHEMA, include_str!("../../xwire-bench/schemas/po.xsd"));
    both_paths!(po, data);
    same_verdict!(po, data);
    same_events!(po, data, true);
    agree(s, data, po::Document::from_slice(data));
}

/// `generated_drawing`: bytes through drawing.xsd's generated parser and the validator.
pub fn generated_drawing(data: &[u8]) {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    let s = schema(&SCHEMA, include_str!("../tests/schemas/drawing.xsd"));
    both_paths!(drawing, data);
    same_verdict!(drawing, data);
    same_events!(drawing, data, false);
    agree(s, data, drawing::Document::from_slice(data));
}

/// `generated_ipo`: bytes through ipo.xsd's generated parser (a family of address types
/// chosen by `xsi:type`) and the validator: no panic; agreement where no `xsi:` attribute is
/// used (the documents that use `xsi:` attributes are checked for no panic and for the two
/// paths only).
pub fn generated_ipo(data: &[u8]) {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    let s = schema(&SCHEMA, include_str!("../../xwire-bench/schemas/ipo.xsd"));
    both_paths!(ipo, data);
    same_verdict!(ipo, data);
    same_events!(ipo, data, true);
    agree(s, data, ipo::Document::from_slice(data));
}

/// `generated_notes`: bytes through notes.xsd's generated parser (mixed content, QName
/// values) and the validator.
pub fn generated_notes(data: &[u8]) {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    let s = schema(&SCHEMA, include_str!("../tests/schemas/notes.xsd"));
    both_paths!(notes, data);
    same_verdict!(notes, data);
    same_events!(notes, data, true);
    agree(s, data, notes::Document::from_slice(data));
}
