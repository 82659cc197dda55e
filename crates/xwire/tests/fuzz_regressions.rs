//! Inputs found by the fuzz targets in `crates/xwire/fuzz`, kept as regression tests. Each
//! says what went wrong.

mod common;

use xwire::{Config, Event, OwnedEvent, Reader};

fn run(mut r: Reader<'_>) -> (Vec<OwnedEvent>, Option<String>) {
    let mut events = Vec::new();
    loop {
        match r.next() {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            Err(e) => {
                return (
                    events,
                    Some(format!("{:?} at {}", e.kind(), e.location().offset)),
                )
            }
        }
    }
}

/// Slice and stream (every chunk size up to 300) give the same outcome.
fn agree(doc: &[u8], config: &Config) {
    let slice = run(Reader::with_config(doc, config.clone()));
    for chunk in 1..300 {
        let mut c = config.clone();
        c.chunk_size = chunk;
        assert_eq!(slice, run(Reader::from_reader(doc, c)), "chunk {chunk}");
    }
}

/// reader_agreement: a stream whose buffer ended right after the lead byte of a bad UTF-8
/// sequence reported "truncated" one byte later instead of "invalid" at the lead byte.
#[test]
fn bad_utf8_at_a_chunk_end() {
    let doc = include_bytes!("data/fuzz/agreement-bad-utf8-at-chunk-end.bin");
    agree(&doc[1..], &Config::default());
    let mut c = Config::default();
    c.chunk_size = 1 + doc[0] as usize;
    assert_eq!(
        run(Reader::from_slice(&doc[1..])),
        run(Reader::from_reader(&doc[1..], c))
    );
}

/// reader_limits: an unterminated doctype exactly as long as the token window was a text
/// length error in a stream but an unexpected end in a slice.
#[test]
fn unterminated_doctype_as_long_as_the_window() {
    let doc = include_bytes!("data/fuzz/limits-doctype-at-window.xml");
    let mut config = Config::default();
    config.limits.max_depth = 4;
    config.limits.max_attributes = 3;
    config.limits.max_name_length = 8;
    config.limits.max_text_length = 32;
    config.limits.max_entity_expansion = 256;
    config.limits.max_entity_depth = 3;
    agree(doc, &config);
}

/// reader_agreement (chunk 7): a byte order mark, then an XML declaration whose encoding value
/// never ends. The stream dropped the BOM from its buffer on a refill, no longer knew it stood
/// at the document's start, and reported a processing instruction named 'xml' (offset 5)
/// instead of the bad encoding name.
#[test]
fn xml_declaration_after_a_bom_survives_a_refill() {
    let input = include_bytes!("data/fuzz/agreement-bom-then-unterminated-decl.bin");
    agree(&input[1..], &Config::default());
    let (_, err) = run(Reader::from_slice(&input[1..]));
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("WellFormedness") && !e.contains("xml'")),
        "{err:?}"
    );
    // A declaration that ends is the declaration in every mode.
    let doc = "\u{feff}<?xml version='1.0'?><a/>".as_bytes();
    agree(doc, &Config::default());
    assert_eq!(run(Reader::from_slice(doc)).1, None);
}

#[path = "../fuzz/fuzz_targets/index_check.rs"]
mod index_check;

/// The `index` fuzz target's checks over the W3C suite (and any kept crash inputs named
/// `index-*.bin` in `data/fuzz`), so they run without cargo-fuzz too.
#[test]
fn index_fuzz_checks_over_the_w3c_suite() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz"))
    {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("index-") {
                inputs.push(std::fs::read(e.path()).unwrap());
            }
        }
    }
    if let Some(dir) = common::corpus("xmlconf") {
        for p in common::xml_files(&dir) {
            inputs.push(std::fs::read(p).unwrap());
        }
    }
    for data in &inputs {
        index_check::check(data);
    }
}
