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

#[path = "../fuzz/fuzz_targets/decode_check.rs"]
mod decode_check;

/// Measures the allocations of the `decode` checks (the other tests only pay a thread-local
/// lookup per allocation).
#[global_allocator]
static ALLOCATOR: decode_check::Counting = decode_check::Counting;

/// The `decode` fuzz target's checks, allocation bound included, over any kept crash inputs
/// named `decode-*.bin` in `data/fuzz` and the binary form (`xsi:type` typing) of every W3C
/// suite document that encodes, so they run without cargo-fuzz too.
#[test]
fn decode_fuzz_checks_over_binaries_of_the_w3c_suite() {
    use xwire::binary::{encode_events, XsiTyping};
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz"))
    {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("decode-") {
                inputs.push(std::fs::read(e.path()).unwrap());
            }
        }
    }
    let mut encoded = 0;
    if let Some(dir) = common::corpus("xmlconf") {
        for p in common::xml_files(&dir) {
            let text = std::fs::read(p).unwrap();
            let mut r = Reader::from_slice(&text);
            if let Ok(file) = encode_events(&mut r, &mut XsiTyping, Vec::new()) {
                inputs.push(decode_check::input_of(&file));
                encoded += 1;
            }
        }
        assert!(encoded > 1000, "only {encoded} W3C documents encoded");
    }
    for data in &inputs {
        decode_check::check(data, true);
        assert!(
            decode_check::largest() > 0,
            "the reader's allocations are measured"
        );
    }
}

/// The largest allocations the `decode` fuzz target found relative to the input: a string
/// table of empty strings (the reader's index of the table takes 16 bytes per one-byte string)
/// and a bool array (its text form takes up to 6 bytes per value). Both stay within the bound
/// of docs/binary-format.md, and a count larger than the file allocates nothing for it.
#[test]
fn decode_allocations_stay_within_the_documented_bound() {
    use xwire::binary::write_varint;
    /// A frame: prefix, size, body.
    fn frame(prefix: u8, body: &[u8]) -> Vec<u8> {
        let mut f = vec![prefix];
        write_varint(&mut f, body.len() as u64);
        f.extend_from_slice(body);
        f
    }
    /// The file of a DOCUMENT frame body.
    fn file(body: &[u8]) -> Vec<u8> {
        let mut f = xwire::binary::MAGIC.to_vec();
        f.extend([1, 0]);
        f.extend(frame(0x01, body));
        f
    }

    // N empty strings, then "a"; the root element <a/>.
    let n = 200_000u64;
    let mut body = Vec::new();
    write_varint(&mut body, n + 1);
    body.extend(std::iter::repeat(0).take(n as usize));
    body.extend([1, b'a']);
    let mut head = vec![0x00, 0x00];
    write_varint(&mut head, n);
    head.push(0x00);
    body.extend(frame(0x02, &head));
    let f = file(&body);
    decode_check::check(&decode_check::input_of(&f), true);
    assert!(decode_check::largest() <= decode_check::alloc_bound(f.len()));
    assert!(
        decode_check::largest() > 8 * f.len(),
        "the index of the string table is measured: {} for {} bytes",
        decode_check::largest(),
        f.len()
    );

    // A bool ARRAY of 100,000 values: its text is "false false ...".
    let values = 100_000usize;
    let mut arr = vec![0x00, 0x00, 0x00, 0x00, 0x0B];
    write_varint(&mut arr, values as u64);
    arr.push(0); // no padding for 1-byte values
    arr.extend(std::iter::repeat(0).take(values));
    let mut body = vec![0x01, 0x01, b'a'];
    body.extend(frame(0x04, &arr));
    let f = file(&body);
    decode_check::check(&decode_check::input_of(&f), true);
    assert!(decode_check::largest() <= decode_check::alloc_bound(f.len()));
    assert!(
        decode_check::largest() >= 6 * values,
        "the text form is measured"
    );

    // A string count of 2^40 in a 20-byte file: an error, nothing reserved for it.
    let mut body = Vec::new();
    write_varint(&mut body, 1 << 40);
    body.extend([0; 4]);
    let f = file(&body);
    let e = Reader::from_slice(&f).next().unwrap_err();
    assert!(e.to_string().contains("string count"), "{e}");
    decode_check::check(&decode_check::input_of(&f), true);
    assert!(
        decode_check::largest() < 4096,
        "{}",
        decode_check::largest()
    );
}

/// `xpath_compile` found `1--11E88888*/`: the exponent overflows, the negation folds into
/// `Number(-inf)`, and the printer wrote an infinite number without its sign, so the printed
/// form compiled to `+inf`. The printed form must compile to the same tree.
#[test]
fn a_folded_negative_infinity_prints_with_its_sign() {
    use xwire::xpath::XPath;
    for s in [
        "1--11E88888*/",
        "-1e999",
        "--1e999",
        "1 - -1e999 * 2",
        "-(1e999)",
    ] {
        let x = XPath::compile(s).expect(s);
        let printed = x.to_string();
        let y = XPath::compile(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(x.expr(), y.expr(), "{s:?} printed as {printed:?}");
    }
}
