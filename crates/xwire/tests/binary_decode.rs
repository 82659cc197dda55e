//! The binary XML decoder through `Reader`: hand-written fixtures (built with the tiny
//! frame writer below, not with the encoder), checked against the text reader's events for
//! the same document, and every rule of `docs/binary-format.md` a reader enforces.

use std::borrow::Cow;

use xwire::binary::{decode_to_text, write_varint, Array, Typed, TypedValue};
use xwire::{Config, ErrorKind, Event, LimitKind, OwnedEvent, Reader, TokenKind};

// ----- a tiny frame writer ----------------------------------------------------------------

const HEADER: [u8; 10] = [0x89, b'X', b'W', b'B', 0x0D, 0x0A, 0x1A, 0x0A, 1, 0];
const ELEMENT: u8 = 0x02;
const LEAF: u8 = 0x03;
const ARRAY: u8 = 0x04;
const TEXT: u8 = 0x05;
const CDATA: u8 = 0x06;
const COMMENT: u8 = 0x07;
const PI: u8 = 0x08;
const BE: u8 = 0x80;

/// Varints.
fn vs(xs: &[u64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &x in xs {
        write_varint(&mut out, x);
    }
    out
}

/// A frame: prefix, size, body.
fn frame(prefix: u8, body: &[u8]) -> Vec<u8> {
    let mut f = vec![prefix];
    write_varint(&mut f, body.len() as u64);
    f.extend_from_slice(body);
    f
}

/// A string: length, bytes.
fn string(s: &[u8]) -> Vec<u8> {
    let mut out = vs(&[s.len() as u64]);
    out.extend_from_slice(s);
    out
}

/// The file: header, then a DOCUMENT frame with the string table and `frames`.
fn file(strings: &[&str], frames: &[Vec<u8>]) -> Vec<u8> {
    let mut body = vs(&[strings.len() as u64]);
    for s in strings {
        body.extend(string(s.as_bytes()));
    }
    for f in frames {
        body.extend_from_slice(f);
    }
    let mut out = HEADER.to_vec();
    out.extend(frame(0x01, &body));
    out
}

/// The head of an element-like frame: declarations (optional string references), the name
/// (namespace reference and local name as varints), attributes (the same, and a value).
fn head(decls: &[(u64, u64)], name: &[u64], attrs: &[(&[u64], &str)]) -> Vec<u8> {
    let mut h = vs(&[decls.len() as u64]);
    for &(p, u) in decls {
        h.extend(vs(&[p, u]));
    }
    h.extend(vs(name));
    h.extend(vs(&[attrs.len() as u64]));
    for (n, value) in attrs {
        h.extend(vs(n));
        h.extend(string(value.as_bytes()));
    }
    h
}

/// An ELEMENT frame.
fn element(head: Vec<u8>, children: &[Vec<u8>]) -> Vec<u8> {
    let mut body = head;
    for c in children {
        body.extend_from_slice(c);
    }
    frame(ELEMENT, &body)
}

/// A LEAF frame (`prefix` carries the byte order).
fn leaf(prefix: u8, head: Vec<u8>, ty: u8, value: &[u8]) -> Vec<u8> {
    let mut body = head;
    body.push(ty);
    body.extend_from_slice(value);
    frame(prefix, &body)
}

/// An ARRAY frame of `count` values of `width` bytes, `pad` bytes of padding before them.
fn array(prefix: u8, head: Vec<u8>, ty: u8, width: usize, values: &[u8], pad: usize) -> Vec<u8> {
    let mut body = head;
    body.push(ty);
    body.extend(vs(&[(values.len() / width) as u64]));
    body.push(pad as u8);
    body.extend(std::iter::repeat(0).take(pad));
    body.extend_from_slice(values);
    body.extend(std::iter::repeat(0).take(width - 1 - pad));
    frame(prefix, &body)
}

/// Builds a file whose array (values `values`, of `width` bytes) gets the padding that aligns
/// it in the file: frame sizes do not depend on the padding, so build once to find where the
/// values land.
fn aligned(build: impl Fn(usize) -> Vec<u8>, values: &[u8], width: usize) -> Vec<u8> {
    let f = build(0);
    let at = f
        .windows(values.len())
        .position(|w| w == values)
        .expect("values in the file");
    let pad = (width - at % width) % width;
    let f = build(pad);
    assert_eq!(f.len(), build(0).len(), "padding changes no size");
    f
}

// ----- helpers ------------------------------------------------------------------------------

fn events(bytes: &[u8]) -> Result<Vec<OwnedEvent>, xwire::Error> {
    Reader::from_slice(bytes).into_events().collect()
}

fn error(bytes: &[u8]) -> xwire::Error {
    error_with(bytes, Config::default())
}

fn error_with(bytes: &[u8], config: Config) -> xwire::Error {
    let mut r = Reader::with_config(bytes, config);
    loop {
        match r.next() {
            Ok(Event::Eof) => panic!("no error in {bytes:02X?}"),
            Ok(Event::Start(_)) => {
                let _ = r.typed_content();
            }
            Ok(_) => {}
            Err(e) => return e,
        }
    }
}

/// Asserts a binary-format error whose message contains `what`.
#[track_caller]
fn assert_binary(bytes: &[u8], what: &str) -> xwire::Error {
    let e = error(bytes);
    match e.kind() {
        ErrorKind::Binary(m) if m.contains(what) => e,
        _ => panic!("expected a binary error with {what:?}, got {e}"),
    }
}

/// The spec's example, byte for byte.
const SPEC_EXAMPLE: [u8; 54] = [
    0x89, 0x58, 0x57, 0x42, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x00, // header
    0x01, 0x2A, // DOCUMENT, 42 bytes
    0x04, // 4 strings
    0x05, 0x75, 0x72, 0x6E, 0x3A, 0x78, // "urn:x"
    0x01, 0x61, 0x01, 0x6E, 0x01, 0x76, // "a" "n" "v"
    0x02, 0x1B, // ELEMENT, 27 bytes
    0x01, 0x00, 0x01, // xmlns="urn:x"
    0x02, 0x00, 0x01, // name: declaration 0 of this frame, "a"
    0x01, 0x00, 0x02, 0x01, 0x31, // n="1"
    0x03, 0x0E, // LEAF, 14 bytes
    0x00, 0x03, 0x00, 0x03, 0x00, // no declarations, name: one level up, "v"; no attributes
    0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40, // f64 2.5
];

// ----- documents --------------------------------------------------------------------------

#[test]
fn the_spec_example_decodes_to_the_spec_document() {
    let text = br#"<a xmlns="urn:x" n="1"><v>2.5</v></a>"#;
    assert_eq!(events(&SPEC_EXAMPLE).unwrap(), events(text).unwrap());
    assert_eq!(decode_to_text(&SPEC_EXAMPLE, Vec::new()).unwrap(), text);

    let mut r = Reader::from_slice(&SPEC_EXAMPLE);
    assert!(r.is_binary());
    let Event::Start(a) = r.next().unwrap() else {
        panic!()
    };
    assert_eq!(
        (a.name(), a.namespace_uri(), a.is_empty()),
        ("a", "urn:x", false)
    );
    let attrs: Vec<_> = a
        .attributes()
        .map(|x| (x.name(), x.value(), x.is_namespace_decl()))
        .collect();
    assert_eq!(attrs, [("xmlns", "urn:x", true), ("n", "1", false)]);
    assert_eq!(r.offset(), 25, "the element frame's offset");
    let (at, Event::Start(v)) = r.next_with_offset().unwrap() else {
        panic!()
    };
    assert_eq!((at, v.name(), v.namespace_uri()), (38, "v", "urn:x"));
    assert_eq!(r.depth(), 2);
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::F64(2.5)))
    );
    assert!(matches!(r.next().unwrap(), Event::End(e) if e.name() == "v"));
    assert!(matches!(r.next().unwrap(), Event::End(e) if e.name() == "a"));
    assert!(matches!(r.next().unwrap(), Event::Eof));
    assert!(matches!(r.next().unwrap(), Event::Eof));
    assert_eq!(r.offset(), SPEC_EXAMPLE.len() as u64);
}

/// `<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1"><b><p:c xmlns:q="urn:q" q:y="2" z="3"><d
/// xmlns=""><xml:e xml:lang="en"/></d></p:c>t&amp;u</b><!--k--><?t d?></p:a>`
fn namespaced() -> Vec<u8> {
    let strings = [
        "p", "urn:p", "urn:d", "a", "x", "b", "q", "urn:q", "c", "y", "z", "d", "e", "lang", "t",
    ];
    let e = element(head(&[], &[1, 12], &[(&[1, 13], "en")]), &[]);
    let d = element(head(&[(0, 0)], &[0, 11], &[]), &[e]);
    let c = element(
        head(&[(7, 8)], &[4, 0, 8], &[(&[2, 0, 9], "2"), (&[0, 10], "3")]),
        &[d],
    );
    let b = element(head(&[], &[3, 1, 5], &[]), &[c, frame(TEXT, b"t&u")]);
    let mut pi = vs(&[14]);
    pi.extend_from_slice(b"d");
    let a = element(
        head(&[(1, 2), (0, 3)], &[2, 0, 3], &[(&[2, 0, 4], "1")]),
        &[b, frame(COMMENT, b"k"), frame(PI, &pi)],
    );
    file(&strings, &[a])
}

const NAMESPACED_TEXT: &str = r#"<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1"><b><p:c xmlns:q="urn:q" q:y="2" z="3"><d xmlns=""><xml:e xml:lang="en"/></d></p:c>t&amp;u</b><!--k--><?t d?></p:a>"#;

/// For each start tag: its depth and the bindings in scope, as the reader reports them.
fn scopes(bytes: &[u8]) -> Vec<(usize, Vec<(String, String)>)> {
    let mut r = Reader::from_slice(bytes);
    let mut out = Vec::new();
    loop {
        match r.next().unwrap() {
            Event::Start(t) => {
                let (id, name) = (t.name_id(), t.name().to_string());
                assert_eq!(r.name_of(id), name);
                let scope = r
                    .namespaces_in_scope()
                    .map(|(p, u)| (p.to_string(), u.to_string()))
                    .collect();
                out.push((r.depth(), scope));
            }
            Event::Eof => return out,
            _ => {}
        }
    }
}

#[test]
fn namespace_references_at_several_levels_read_like_the_text() {
    let bin = namespaced();
    assert_eq!(
        events(&bin).unwrap(),
        events(NAMESPACED_TEXT.as_bytes()).unwrap()
    );
    assert_eq!(scopes(&bin), scopes(NAMESPACED_TEXT.as_bytes()));
    let text = decode_to_text(&bin, Vec::new()).unwrap();
    assert_eq!(
        events(&text).unwrap(),
        events(NAMESPACED_TEXT.as_bytes()).unwrap()
    );

    // Prefixes, local names, namespace ids and empty tags, as the text reader has them.
    let mut r = Reader::from_slice(&bin);
    let mut seen = Vec::new();
    loop {
        match r.next().unwrap() {
            Event::Start(t) => {
                let attrs: Vec<_> = t
                    .attributes()
                    .map(|a| {
                        format!(
                            "{:?}/{}/{}{}",
                            a.prefix(),
                            a.local_name(),
                            a.namespace_uri(),
                            if a.is_namespace_decl() { "/decl" } else { "" }
                        )
                    })
                    .collect();
                seen.push(format!(
                    "{:?} {} {} {} {attrs:?}",
                    t.prefix(),
                    t.local_name(),
                    t.namespace_uri(),
                    t.is_empty()
                ));
            }
            Event::Text(t) => {
                assert_eq!(t.raw(), "t&u", "raw is the character data for binary input");
                assert!(matches!(t.unescape(), Cow::Borrowed("t&u")));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(
        seen,
        [
            r#"Some("p") a urn:p false ["Some(\"xmlns\")/p/http://www.w3.org/2000/xmlns//decl", "None/xmlns/http://www.w3.org/2000/xmlns//decl", "Some(\"p\")/x/urn:p"]"#,
            r#"None b urn:d false []"#,
            r#"Some("p") c urn:p false ["Some(\"xmlns\")/q/http://www.w3.org/2000/xmlns//decl", "Some(\"q\")/y/urn:q", "None/z/"]"#,
            r#"None d  false ["None/xmlns/http://www.w3.org/2000/xmlns//decl"]"#,
            r#"Some("xml") e http://www.w3.org/XML/1998/namespace true ["Some(\"xml\")/lang/http://www.w3.org/XML/1998/namespace"]"#,
        ]
    );
}

#[test]
fn without_namespace_processing_names_are_plain() {
    let mut config = Config::default();
    config.namespaces = false;
    let bin = namespaced();
    let plain = |bytes: &[u8]| -> Vec<OwnedEvent> {
        Reader::with_config(bytes, config.clone())
            .into_events()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(plain(&bin), plain(NAMESPACED_TEXT.as_bytes()));
    let mut r = Reader::with_config(&bin, config.clone());
    let Event::Start(t) = r.next().unwrap() else {
        panic!()
    };
    assert_eq!((t.local_name(), t.prefix()), ("p:a", None));
    assert_eq!(r.namespaces_in_scope().count(), 1, "only xml");
}

#[test]
fn typed_elements_read_as_text_or_as_values() {
    // <r><i>-7</i><s>x &lt; y</s><e/><b>aGk=</b><t>true</t><f>1.5 -0.0 INF</f><n/></r>
    let strings = ["r", "i", "s", "e", "b", "t", "f", "n"];
    let name = |k: u64| head(&[], &[0, k], &[]);
    let floats: Vec<u8> = [1.5f32, -0.0, f32::INFINITY]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let build = |pad: usize| {
        let children = [
            leaf(LEAF, name(1), 0x04, &(-7i64).to_le_bytes()),
            leaf(LEAF, name(2), 0x0C, &string(b"x < y")),
            leaf(LEAF, name(3), 0x0C, &string(b"")),
            leaf(LEAF, name(4), 0x0D, &string(b"hi")),
            leaf(LEAF, name(5), 0x0B, &[1]),
            array(ARRAY, name(6), 0x09, 4, &floats, pad),
            array(ARRAY, name(7), 0x0A, 8, &[], 0),
        ];
        file(&strings, &[element(name(0), &children)])
    };
    let bin = aligned(build, &floats, 4);
    // Typed elements are never empty-element tags, even with empty content.
    let text =
        "<r><i>-7</i><s>x &lt; y</s><e></e><b>aGk=</b><t>true</t><f>1.5 -0.0 INF</f><n></n></r>";
    assert_eq!(events(&bin).unwrap(), events(text.as_bytes()).unwrap());
    let written =
        "<r><i>-7</i><s>x &lt; y</s><e/><b>aGk=</b><t>true</t><f>1.5 -0.0 INF</f><n/></r>";
    assert_eq!(
        decode_to_text(&bin, Vec::new()).unwrap(),
        written.as_bytes()
    );
    // element_text and the other StAX helpers see the text form.
    let mut r = Reader::from_slice(&bin);
    let mut texts = Vec::new();
    while let Some(name) = r.next_start().unwrap() {
        if name != "r" {
            texts.push(r.element_text().unwrap());
        }
    }
    assert_eq!(
        texts,
        ["-7", "x < y", "", "aGk=", "true", "1.5 -0.0 INF", ""]
    );

    // Typed: the values, and no text event.
    let mut r = Reader::from_slice(&bin);
    let mut typed = Vec::new();
    loop {
        match r.next().unwrap() {
            Event::Start(t) => {
                let empty = t.is_empty();
                let name = t.name().to_string();
                let v = r.typed_content().unwrap().map(|v| match v {
                    Typed::Value(v) => format!("{v:?}"),
                    Typed::Array(a) => format!("{a:?}"),
                });
                typed.push(format!("{name} {empty} {v:?}"));
                if v.is_some() {
                    assert_eq!(r.peek_kind().unwrap(), TokenKind::End);
                    assert_eq!(r.typed_content().unwrap(), None, "taken");
                }
            }
            Event::Text(t) => panic!("text {t:?}"),
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(
        typed,
        [
            "r false None",
            r#"i false Some("I64(-7)")"#,
            r#"s false Some("String(\"x < y\")")"#,
            r#"e false Some("String(\"\")")"#,
            r#"b false Some("Bytes([104, 105])")"#,
            r#"t false Some("Bool(true)")"#,
            r#"f false Some("F32([1.5, -0.0, inf])")"#,
            r#"n false Some("F64([])")"#,
        ]
    );
}

#[test]
fn typed_content_after_peeking_the_text_takes_it_back() {
    let mut r = Reader::from_slice(&SPEC_EXAMPLE);
    r.next().unwrap();
    r.next().unwrap();
    assert_eq!(r.peek_kind().unwrap(), TokenKind::Text);
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::F64(2.5)))
    );
    assert!(matches!(r.next().unwrap(), Event::End(_)));
    // Once the text was read, there is nothing left to take.
    let mut r = Reader::from_slice(&SPEC_EXAMPLE);
    r.next().unwrap();
    r.next().unwrap();
    assert!(matches!(r.next().unwrap(), Event::Text(t) if t.raw() == "2.5"));
    assert_eq!(r.typed_content().unwrap(), None);
    // Text input has no typed content.
    let mut r = Reader::from_slice(b"<v>2.5</v>");
    r.next().unwrap();
    assert_eq!(r.typed_content().unwrap(), None);
    assert_eq!(r.array::<f64>().unwrap(), None);
}

#[test]
fn big_endian_frames_read_correctly() {
    let values: Vec<u8> = [1.5f64, -2.25, 1e300]
        .iter()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let build = |pad: usize| {
        let children = [
            leaf(
                LEAF | BE,
                head(&[], &[0, 1], &[]),
                0x03,
                &258i32.to_be_bytes(),
            ),
            leaf(
                LEAF | BE,
                head(&[], &[0, 1], &[]),
                0x06,
                &0xABCDu16.to_be_bytes(),
            ),
            array(ARRAY | BE, head(&[], &[0, 2], &[]), 0x0A, 8, &values, pad),
        ];
        file(
            &["r", "v", "a"],
            &[element(head(&[], &[0, 0], &[]), &children)],
        )
    };
    let bin = aligned(build, &values, 8);
    assert_eq!(
        decode_to_text(&bin, Vec::new()).unwrap(),
        b"<r><v>258</v><v>43981</v><a>1.5 -2.25 1e300</a></r>"
    );
    let mut r = Reader::from_slice(&bin);
    r.next().unwrap();
    r.next().unwrap();
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::I32(258)))
    );
    r.next().unwrap();
    r.next().unwrap();
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::U16(0xABCD)))
    );
    r.next().unwrap();
    r.next().unwrap();
    let a = r.array::<f64>().unwrap().unwrap();
    assert_eq!(&*a, &[1.5, -2.25, 1e300]);
    assert!(
        matches!(a, Cow::Owned(_)),
        "big-endian values are swapped into a copy"
    );
}

/// A copy of `bytes` starting at an address that is a multiple of 8 plus `shift`.
fn placed(bytes: &[u8], shift: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; bytes.len() + 16];
    let base = buf.as_ptr() as usize;
    let at = (8 - base % 8) % 8 + shift;
    buf[at..at + bytes.len()].copy_from_slice(bytes);
    (buf, at)
}

#[test]
fn arrays_are_viewed_in_place_when_aligned_in_native_order() {
    let values: Vec<u8> = (0..5u64)
        .flat_map(|v| (v * 1000 + 7).to_ne_bytes())
        .collect();
    let native = if cfg!(target_endian = "big") { BE } else { 0 };
    let build = |pad: usize| {
        let a = array(
            ARRAY | native,
            head(&[], &[0, 0], &[]),
            0x08,
            8,
            &values,
            pad,
        );
        file(&["a"], &[a])
    };
    let bin = aligned(build, &values, 8);
    let expected: Vec<u64> = (0..5).map(|v| v * 1000 + 7).collect();
    for shift in [0, 1, 4] {
        let (buf, at) = placed(&bin, shift);
        let mut r = Reader::from_slice(&buf[at..at + bin.len()]);
        r.next().unwrap();
        let a = r.array::<u64>().unwrap().unwrap();
        assert_eq!(&*a, &expected[..]);
        assert_eq!(
            matches!(a, Cow::Borrowed(_)),
            shift == 0,
            "borrowed exactly when aligned (shift {shift})"
        );
        drop(a);
        assert!(matches!(r.next().unwrap(), Event::End(_)));
    }
    // The wrong type leaves the content to be read as text.
    let (buf, at) = placed(&bin, 0);
    let mut r = Reader::from_slice(&buf[at..at + bin.len()]);
    r.next().unwrap();
    assert_eq!(r.array::<i64>().unwrap(), None);
    assert!(matches!(r.next().unwrap(), Event::Text(t) if t.raw() == "7 1007 2007 3007 4007"));
    // Bytes and bools are never misaligned.
    let build = |pad: usize| {
        file(
            &["a"],
            &[array(
                ARRAY,
                head(&[], &[0, 0], &[]),
                0x0B,
                1,
                &[1, 0, 1],
                pad,
            )],
        )
    };
    let bin = build(0);
    let (buf, at) = placed(&bin, 3);
    let mut r = Reader::from_slice(&buf[at..at + bin.len()]);
    r.next().unwrap();
    let a = r.typed_content().unwrap().unwrap();
    assert_eq!(
        a,
        Typed::Array(Array::Bool(Cow::Borrowed(&[true, false, true])))
    );
    assert!(matches!(a, Typed::Array(Array::Bool(Cow::Borrowed(_)))));
}

#[test]
fn generic_reader_code_works_on_binary_input() {
    let bin = namespaced();
    let text = NAMESPACED_TEXT.as_bytes();

    // The tree.
    let t1 = xwire::tree::Document::parse(&bin).unwrap();
    let t2 = xwire::tree::Document::parse(text).unwrap();
    let mut w1 = xwire::writer::Writer::new(Vec::new());
    let mut w2 = xwire::writer::Writer::new(Vec::new());
    t1.write_node(t1.root(), &mut w1).unwrap();
    t2.write_node(t2.root(), &mut w2).unwrap();
    assert_eq!(w1.finish().unwrap(), w2.finish().unwrap());

    // Streamed input.
    let streamed: Vec<OwnedEvent> = Reader::from_reader(&bin[..], Config::default())
        .into_events()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(streamed, events(text).unwrap());
    let mut config = Config::default();
    config.chunk_size = 64;
    let mut r = Reader::from_reader(&SPEC_EXAMPLE[..], config);
    r.next().unwrap();
    r.next().unwrap();
    assert_eq!(r.array::<f64>().unwrap(), None);
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::F64(2.5)))
    );

    // SAX, filter, skip_element, next_tag.
    #[derive(Default)]
    struct Count(usize, String);
    impl xwire::sax::Handler for Count {
        fn start_element(&mut self, _: &xwire::StartTag<'_>) -> Result<(), xwire::Error> {
            self.0 += 1;
            Ok(())
        }
        fn characters(&mut self, text: &str) -> Result<(), xwire::Error> {
            self.1.push_str(text);
            Ok(())
        }
    }
    let mut c = Count::default();
    xwire::sax::parse(&mut Reader::from_slice(&bin), &mut c).unwrap();
    assert_eq!((c.0, c.1.as_str()), (5, "t&u"));
    let mut r = Reader::from_slice(&bin);
    let mut f = r.filter(&[TokenKind::Comment, TokenKind::Pi, TokenKind::Text]);
    let mut kinds = Vec::new();
    loop {
        let k = f.next().unwrap().kind();
        kinds.push(k);
        if k == TokenKind::Eof {
            break;
        }
    }
    assert_eq!(kinds.len(), 11);
    let mut r = Reader::from_slice(&bin);
    assert!(matches!(r.next_tag().unwrap(), Event::Start(t) if t.local_name() == "a"));
    assert!(matches!(r.next_tag().unwrap(), Event::Start(t) if t.local_name() == "b"));
    r.next().unwrap();
    r.skip_element().unwrap();
    assert!(matches!(r.next().unwrap(), Event::Text(_)));
    assert_eq!(r.depth(), 2);

    // Canonical XML reads through the reader too.
    let mut c1 = Vec::new();
    let mut c2 = Vec::new();
    let options = xwire::c14n::C14nOptions::default();
    xwire::c14n::canonicalize(&bin, &options, &mut c1).unwrap();
    xwire::c14n::canonicalize(text, &options, &mut c2).unwrap();
    assert_eq!(c1, c2);
}

#[test]
fn the_token_index_refuses_binary_input() {
    let e = xwire::index::Index::parse(&SPEC_EXAMPLE).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Unsupported(m) if m.contains("binary")),
        "{e}"
    );
}

// ----- errors -----------------------------------------------------------------------------

fn leaf_file(prefix: u8, ty: u8, value: &[u8]) -> Vec<u8> {
    file(&["v"], &[leaf(prefix, head(&[], &[0, 0], &[]), ty, value)])
}

#[test]
fn every_limit_of_the_spec_is_an_error() {
    // A size past the enclosing body.
    let mut f = file(
        &["a"],
        &[element(head(&[], &[0, 0], &[]), &[frame(TEXT, b"xy")])],
    );
    let n = f.len();
    f[n - 3] = 9; // the TEXT frame's size
    let e = assert_binary(&f, "frame size 9 exceeds its parent's remaining 2 bytes");
    assert_eq!(e.location().offset, n as u64 - 4, "at the frame");
    assert_eq!((e.location().line, e.location().column), (1, n as u64 - 3));
    let mut f = SPEC_EXAMPLE.to_vec();
    f[11] = 0x2B;
    assert_binary(&f, "frame size 43 exceeds the file's remaining 42 bytes");
    // A count past the body.
    let mut f = SPEC_EXAMPLE.to_vec();
    f[12] = 0x50;
    assert_binary(&f, "string count 80 overflows the frame");
    let mut f = SPEC_EXAMPLE.to_vec();
    f[33] = 0x7F; // attribute count
    assert_binary(&f, "attribute count 127 overflows the frame");
    let mut f = SPEC_EXAMPLE.to_vec();
    f[27] = 0x7F; // declaration count
    assert_binary(&f, "declaration count 127 overflows the frame");
    // A string reference >= N.
    let mut f = SPEC_EXAMPLE.to_vec();
    f[32] = 0x11;
    assert_binary(&f, "string reference 17 out of range (table has 4)");
    // Namespace references above the root, or past the declarations.
    let mut f = SPEC_EXAMPLE.to_vec();
    f[41] = 0x04; // the leaf's name: two levels up
    assert_binary(
        &f,
        "namespace reference 2 levels up, above the root element (depth 2)",
    );
    let mut f = SPEC_EXAMPLE.to_vec();
    f[42] = 0x01;
    assert_binary(
        &f,
        "namespace reference to declaration 1 of an element that has 1",
    );
    // Array counts that overflow or do not fit.
    let arr = |count: &[u8]| {
        let mut body = head(&[], &[0, 0], &[]);
        body.push(0x0A);
        body.extend_from_slice(count);
        body.extend_from_slice(&[0; 8]);
        file(&["a"], &[frame(ARRAY, &body)])
    };
    assert_binary(
        &arr(&vs(&[1 << 62])),
        "array count 4611686018427387904 overflows the frame",
    );
    assert_binary(&arr(&vs(&[2])), "array count 2 overflows the frame");
    assert_binary(&arr(&vs(&[u64::MAX])), "overflows the frame");
    // Nesting deeper than the depth limit (a reader limit: reported as such).
    let mut deep = element(head(&[], &[0, 0], &[]), &[]);
    for _ in 0..5 {
        deep = element(head(&[], &[0, 0], &[]), &[deep]);
    }
    let mut config = Config::default();
    config.limits.max_depth = 4;
    let e = error_with(&file(&["a"], &[deep.clone()]), config);
    assert_eq!(e.kind(), &ErrorKind::LimitExceeded(LimitKind::Depth, 4));
    assert!(events(&file(&["a"], &[deep])).is_ok());
    // Invalid UTF-8, and characters XML does not allow.
    let bad_utf8 = file(
        &["a"],
        &[element(head(&[], &[0, 0], &[]), &[frame(TEXT, b"\xC3(")])],
    );
    assert_binary(&bad_utf8, "in a TEXT frame");
    assert_binary(&file(&["a\u{1}"], &[]), "in string 0");
    assert_binary(&file(&["\u{FFFE}"], &[]), "in string 0");
    let bad_attr = file(
        &["a"],
        &[element(head(&[], &[0, 0], &[(&[0, 0], "\u{0}")]), &[])],
    );
    assert_binary(&bad_attr, "in an attribute value");
    // Reserved kinds and type codes.
    let mut f = file(
        &["a"],
        &[element(head(&[], &[0, 0], &[]), &[frame(0x2A, b"")])],
    );
    assert_binary(&f, "reserved frame kind 0x2A");
    f[HEADER.len()] = 0x02;
    assert_binary(&f, "the first frame has kind 0x02, not DOCUMENT");
    assert_binary(&leaf_file(LEAF, 0x0E, &[]), "unknown type code 0x0E");
    assert_binary(&leaf_file(LEAF, 0x00, &[]), "unknown type code 0x00");
    let mut body = head(&[], &[0, 0], &[]);
    body.extend_from_slice(&[0x0C, 0x00, 0x00]);
    assert_binary(
        &file(&["a"], &[frame(ARRAY, &body)]),
        "arrays hold fixed-width types only",
    );
}

#[test]
fn malformed_files_are_errors() {
    // The header.
    let mut f = SPEC_EXAMPLE.to_vec();
    f[8] = 2;
    assert_binary(&f, "unsupported version 2");
    let mut f = SPEC_EXAMPLE.to_vec();
    f[9] = 1;
    assert_binary(&f, "reserved header flags");
    assert_binary(&HEADER[..9], "ends inside its header");
    assert_binary(&HEADER, "no DOCUMENT frame");
    let mut f = SPEC_EXAMPLE.to_vec();
    f.push(0);
    assert_binary(&f, "1 bytes after the DOCUMENT frame");
    let e = decode_to_text(b"<a/>", Vec::new()).unwrap_err();
    assert!(e.to_string().contains("bad magic"), "{e}");
    // Varints.
    let mut f = SPEC_EXAMPLE.to_vec();
    f.splice(32..33, [0x81, 0x00]); // non-minimal "1"
    f[11] += 1;
    f[26] += 1;
    assert_binary(&f, "not minimal");
    // The document frame.
    let a = || element(head(&[], &[0, 0], &[]), &[]);
    assert_binary(&file(&["a"], &[]), "holds no element");
    assert_binary(&file(&["a"], &[a(), a()]), "a second element");
    assert_binary(
        &file(&["a"], &[frame(TEXT, b"x"), a()]),
        "directly in the DOCUMENT frame",
    );
    assert_binary(
        &file(
            &["a"],
            &[element(head(&[], &[0, 0], &[]), &[frame(0x01, b"")])],
        ),
        "DOCUMENT frame inside",
    );
    // Names.
    assert_binary(
        &file(&["1a"], &[a()]),
        "string 0 \"1a\" is not a name (NCName)",
    );
    assert_binary(&file(&["p:a"], &[a()]), "is not a name");
    let mut pi = vs(&[0]);
    pi.extend_from_slice(b"?>");
    assert_binary(&file(&["a"], &[a(), frame(PI, &pi)]), "cannot contain '?>'");
    assert_binary(
        &file(
            &["xml", "a"],
            &[frame(PI, &vs(&[0])), element(head(&[], &[0, 1], &[]), &[])],
        ),
        "not a processing instruction target",
    );
    assert_binary(
        &file(&["a"], &[a(), frame(COMMENT, b"x--y")]),
        "cannot contain '--'",
    );
    assert_binary(
        &file(&["a"], &[a(), frame(COMMENT, b"x-")]),
        "cannot contain '--' or end with '-'",
    );
    // Content no text document gives: its text form would read back as something else.
    assert_binary(
        &file(&["a"], &[a(), frame(COMMENT, b"x\ry")]),
        "a comment cannot hold a carriage return",
    );
    let mut pi = vs(&[0]);
    pi.extend_from_slice(b"x\r");
    assert_binary(
        &file(
            &["t", "a"],
            &[frame(PI, &pi), element(head(&[], &[0, 1], &[]), &[])],
        ),
        "cannot hold a carriage return",
    );
    for lead in [b' ', b'\t', b'\n'] {
        let mut pi = vs(&[0]);
        pi.extend_from_slice(&[lead, b'x']);
        assert_binary(
            &file(
                &["t", "a"],
                &[frame(PI, &pi), element(head(&[], &[0, 1], &[]), &[])],
            ),
            "cannot start with white space",
        );
    }
    for body in [&b"x\ry"[..], b"x]]>y"] {
        let what = if body.contains(&b'\r') {
            "a CDATA frame cannot hold a carriage return"
        } else {
            "a CDATA frame cannot hold ']]>'"
        };
        assert_binary(
            &file(
                &["a"],
                &[element(head(&[], &[0, 0], &[]), &[frame(CDATA, body)])],
            ),
            what,
        );
    }
    // Their neighbours are fine: `]]` and `>` in separate frames, white space after the start
    // of PI data, a carriage return in TEXT.
    let ok = file(
        &["t", "a"],
        &[
            frame(PI, &[&vs(&[0])[..], b"x \t"].concat()),
            element(
                head(&[], &[0, 1], &[]),
                &[frame(CDATA, b"]]"), frame(CDATA, b">"), frame(TEXT, b"\r")],
            ),
        ],
    );
    let text = decode_to_text(&ok, Vec::new()).unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        "<?t x \t?><a><![CDATA[]]]]><![CDATA[>]]>&#13;</a>"
    );
    // Namespaces.
    let ns = |decls: &[(u64, u64)], name: &[u64], attrs: &[(&[u64], &str)]| {
        file(
            &[
                "p",
                "urn:p",
                "a",
                "xmlns",
                "xml",
                "",
                "http://www.w3.org/2000/xmlns/",
            ],
            &[element(head(decls, name, attrs), &[])],
        )
    };
    assert_binary(
        &ns(&[(0, 0)], &[2, 0, 2], &[]),
        "reference to an undeclaration",
    );
    assert_binary(
        &ns(&[(4, 2)], &[0, 2], &[]),
        "the prefix 'xmlns' cannot be declared",
    );
    assert_binary(&ns(&[(1, 0)], &[0, 2], &[]), "the prefix 'p' has no uri");
    assert_binary(
        &ns(&[(1, 2), (1, 2)], &[0, 2], &[]),
        "two declarations of the prefix 'p'",
    );
    assert_binary(&ns(&[(5, 2)], &[0, 2], &[]), "only the prefix 'xml'");
    assert_binary(&ns(&[(0, 7)], &[0, 2], &[]), "no prefix can be bound to");
    assert_binary(&ns(&[(0, 6)], &[0, 2], &[]), "the empty string");
    assert_binary(
        &ns(&[(0, 2)], &[0, 2], &[]),
        "an element in no namespace while the default namespace \"urn:p\" is in scope",
    );
    assert_binary(
        &ns(&[(0, 2)], &[2, 0, 2], &[(&[2, 0, 2], "v")]),
        "an attribute refers to a default namespace declaration",
    );
    assert_binary(
        &ns(&[], &[0, 2], &[(&[0, 2], "1"), (&[0, 2], "2")]),
        "duplicate attribute {}a",
    );
    assert_binary(
        &ns(
            &[(1, 2)],
            &[0, 2],
            &[(&[2, 0, 2], "1"), (&[0, 2], "2"), (&[2, 0, 2], "3")],
        ),
        "duplicate attribute {urn:p}a",
    );
    assert_binary(
        &ns(&[], &[0, 2], &[(&[0, 3], "1")]),
        "an attribute named 'xmlns'",
    );
    // A reference that a nearer declaration of the same prefix overrides.
    let strings = ["p", "urn:1", "urn:2", "a"];
    let inner = element(head(&[(1, 3)], &[3, 0, 3], &[]), &[]);
    assert_binary(
        &file(
            &strings,
            &[element(head(&[(1, 2)], &[2, 0, 3], &[]), &[inner])],
        ),
        "prefix 'p' that a nearer one overrides",
    );
    let inner = element(head(&[(0, 3)], &[3, 0, 3], &[]), &[]);
    assert_binary(
        &file(
            &strings,
            &[element(head(&[(0, 2)], &[2, 0, 3], &[]), &[inner])],
        ),
        "a default namespace declaration that a nearer one overrides",
    );
    // Typed values.
    assert_binary(
        &leaf_file(LEAF, 0x0B, &[2]),
        "bool value 0x02 is not 0 or 1",
    );
    assert_binary(
        &leaf_file(LEAF, 0x0A, &[0; 4]),
        "the f64 value is cut short",
    );
    assert_binary(
        &leaf_file(LEAF, 0x05, &[1, 2]),
        "1 bytes after the leaf value",
    );
    assert_binary(
        &leaf_file(LEAF, 0x0C, &[5, b'a']),
        "string value of 5 bytes exceeds",
    );
    assert_binary(&leaf_file(LEAF, 0x0C, &[1, 0xFF]), "in a string value");
    assert_binary(
        &file(
            &["a"],
            &[array(ARRAY, head(&[], &[0, 0], &[]), 0x0B, 1, &[0, 3], 0)],
        ),
        "bool value 0x03",
    );
    let mut pad = array(ARRAY, head(&[], &[0, 0], &[]), 0x03, 4, &[0; 4], 1);
    let n = pad.len();
    pad[n - 7] = 9; // the padding byte
    assert_binary(&file(&["a"], &[pad]), "array padding bytes are not zero");
    let mut trail = array(ARRAY, head(&[], &[0, 0], &[]), 0x03, 4, &[0; 4], 1);
    let n = trail.len();
    trail[n - 1] = 9;
    assert_binary(&file(&["a"], &[trail]), "array trailing bytes are not zero");
    let mut bad_pad = array(ARRAY, head(&[], &[0, 0], &[]), 0x03, 4, &[0; 4], 0);
    let n = bad_pad.len();
    bad_pad[n - 8] = 4;
    assert_binary(
        &file(&["a"], &[bad_pad]),
        "array padding 4 is not below the width 4",
    );
}

#[test]
fn reader_limits_apply_to_binary_input() {
    let mut config = Config::default();
    config.limits.max_attributes = 1;
    let f = file(
        &["p", "urn:p", "a"],
        &[element(head(&[(1, 2)], &[0, 2], &[(&[0, 2], "1")]), &[])],
    );
    assert_eq!(
        error_with(&f, config).kind(),
        &ErrorKind::LimitExceeded(LimitKind::Attributes, 1)
    );
    let mut config = Config::default();
    config.limits.max_name_length = 3;
    let f = file(&["abcd"], &[element(head(&[], &[0, 0], &[]), &[])]);
    assert_eq!(
        error_with(&f, config.clone()).kind(),
        &ErrorKind::LimitExceeded(LimitKind::NameLength, 3)
    );
    let f = file(
        &["ab", "cd"],
        &[element(head(&[(0, 2)], &[2, 0, 1], &[]), &[])],
    );
    assert!(Reader::with_config(&f, config.clone())
        .into_events()
        .all(|e| e.is_ok()));
    let f = file(
        &["ab", "urn", "cd"],
        &[element(head(&[(1, 2)], &[2, 0, 2], &[]), &[])],
    );
    assert_eq!(
        error_with(&f, config).kind(),
        &ErrorKind::LimitExceeded(LimitKind::NameLength, 3)
    );
    let mut config = Config::default();
    config.limits.max_text_length = 4;
    let text = |t: &[u8]| {
        file(
            &["a"],
            &[element(head(&[], &[0, 0], &[]), &[frame(TEXT, t)])],
        )
    };
    assert!(Reader::with_config(&text(b"abcd"), config.clone())
        .into_events()
        .all(|e| e.is_ok()));
    assert_eq!(
        error_with(&text(b"abcde"), config.clone()).kind(),
        &ErrorKind::LimitExceeded(LimitKind::TextLength, 4)
    );
    // The text form of a typed value counts; the typed value itself does not.
    let f = leaf_file(LEAF, 0x04, &(-12345i64).to_le_bytes());
    assert_eq!(
        Reader::with_config(&f, config.clone())
            .into_events()
            .find_map(|e| e.err())
            .unwrap()
            .kind(),
        &ErrorKind::LimitExceeded(LimitKind::TextLength, 4)
    );
    let mut r = Reader::with_config(&f, config);
    r.next().unwrap();
    assert_eq!(
        r.typed_content().unwrap(),
        Some(Typed::Value(TypedValue::I64(-12345)))
    );
    assert!(matches!(r.next().unwrap(), Event::End(_)));
}

#[test]
fn a_truncated_file_is_an_error_at_every_length() {
    let values: Vec<u8> = [1i16, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut files = vec![SPEC_EXAMPLE.to_vec(), namespaced()];
    files.push(file(
        &["a", "b"],
        &[element(
            head(&[], &[0, 0], &[]),
            &[
                array(ARRAY, head(&[], &[0, 1], &[]), 0x02, 2, &values, 1),
                frame(CDATA, b"c"),
                leaf(LEAF | BE, head(&[], &[0, 1], &[]), 0x0D, &string(b"xyz")),
            ],
        )],
    ));
    for f in files {
        assert!(events(&f).is_ok());
        for len in 0..f.len() {
            let _ = error(&f[..len]);
            // Cut inside, the length fields disagree: an error too, never a panic.
            let mut cut = f[..len].to_vec();
            cut.extend_from_slice(&f[len + 1..]);
            let mut r = Reader::from_slice(&cut);
            while let Ok(e) = r.next() {
                if matches!(e, Event::Eof) {
                    break;
                }
                let _ = r.typed_content();
            }
        }
    }
}

#[test]
fn combining_long_prefixes_and_names_cannot_take_unbounded_memory() {
    // 40 prefixes and 40 local names of 1000 bytes: 80 KB of strings, 1600 attributes whose
    // names would take 3.2 MB.
    let long = |c: char, i: usize| format!("{c}{i:03}{}", "x".repeat(996));
    let mut strings: Vec<String> = vec!["a".into()];
    for i in 0..40 {
        strings.push(long('p', i));
        strings.push(format!("urn:{i}"));
        strings.push(long('l', i));
    }
    let refs: Vec<&str> = strings.iter().map(|s| s.as_str()).collect();
    let decls: Vec<(u64, u64)> = (0..40).map(|i| (3 * i + 2, 3 * i + 3)).collect();
    let names: Vec<[u64; 3]> = (0..1600u64)
        .map(|k| [2, k / 40, 3 * (k % 40) + 3])
        .collect();
    let attrs: Vec<(&[u64], &str)> = names.iter().map(|n| (&n[..], "")).collect();
    let f = file(&refs, &[element(head(&decls, &[0, 0], &attrs), &[])]);
    assert!(f.len() < 100_000);
    assert_binary(&f, "prefixed names take more than");
    // The same with few attributes is fine.
    let f = file(&refs, &[element(head(&decls, &[0, 0], &attrs[..30]), &[])]);
    assert!(events(&f).is_ok());
}

#[test]
fn an_array_frame_that_ends_inside_its_padding_is_an_error() {
    // Count 0, padding 7 of 8-byte values, and nothing after the padding byte.
    let mut body = head(&[], &[0, 0], &[]);
    body.extend_from_slice(&[0x0A, 0x00, 0x07]);
    assert_binary(
        &file(&["a"], &[frame(ARRAY, &body)]),
        "ends inside its padding",
    );
    let inner = frame(ARRAY, &body);
    let f = file(
        &["a"],
        &[element(
            head(&[], &[0, 0], &[]),
            &[inner, frame(COMMENT, b"0123456789")],
        )],
    );
    assert_binary(&f, "ends inside its padding");
}

// ----- frame layout -------------------------------------------------------------------------

/// `Reader::frame` names each event's frame (offset, kind, byte order, body, values) as the
/// writer laid it out, in either byte order; ends and text input have none.
#[test]
fn frames_are_reported_where_the_writer_put_them() {
    use xwire::binary::{BinaryWriter, ByteOrder, FrameKind};
    for order in [ByteOrder::Little, ByteOrder::Big] {
        let mut w = BinaryWriter::with_byte_order(Vec::new(), order);
        w.start_element("r").unwrap();
        w.comment("c").unwrap();
        w.start_element("a").unwrap();
        w.array_of(&[1.5f64, -2.0]).unwrap();
        w.end_element().unwrap();
        w.start_element("v").unwrap();
        w.value(TypedValue::I16(-3)).unwrap();
        w.end_element().unwrap();
        w.text("t").unwrap();
        w.end_element().unwrap();
        let file = w.finish().unwrap();

        let mut r = Reader::from_slice(&file);
        let mut seen = Vec::new();
        loop {
            let ev = r.next().unwrap();
            let (start, eof) = (matches!(ev, Event::Start(_)), matches!(ev, Event::Eof));
            if eof {
                break;
            }
            let Some(f) = r.frame() else {
                seen.push(None);
                if start {
                    panic!("a start without a frame");
                }
                continue;
            };
            assert_eq!(f.byte_order, order);
            assert_eq!(file[f.offset] & 0x7F, f.kind as u8);
            let mut p = f.offset + 1;
            let size = xwire::binary::read_varint(&file, &mut p).unwrap() as usize;
            assert_eq!(f.body, p..p + size);
            match f.kind {
                FrameKind::Array => {
                    let v = f.values.clone().unwrap();
                    assert_eq!((v.start % 8, v.len()), (0, 16));
                    let first: [u8; 8] = file[v.start..v.start + 8].try_into().unwrap();
                    let x = match order {
                        ByteOrder::Little => f64::from_le_bytes(first),
                        ByteOrder::Big => f64::from_be_bytes(first),
                    };
                    assert_eq!(x, 1.5);
                }
                FrameKind::Leaf => {
                    let v = f.values.clone().unwrap();
                    assert_eq!(v.len(), 2);
                    assert_eq!(v.end, f.body.end);
                }
                _ => assert_eq!(f.values, None),
            }
            seen.push(Some(f.kind));
        }
        use FrameKind::*;
        assert_eq!(
            seen,
            [
                Some(Element),
                Some(Comment),
                Some(Array),
                None, // the array's text form
                None, // its end
                Some(Leaf),
                None,
                None,
                Some(Text),
                None, // the root's end
            ]
        );
        assert_eq!(
            r.string_table().collect::<Vec<_>>(),
            ["r", "a", "v"],
            "{order:?}"
        );
    }
    let mut text = Reader::from_slice(b"<r>t</r>");
    text.next().unwrap();
    assert_eq!(text.frame(), None);
    assert_eq!(text.string_table().count(), 0);
}

/// The event encoder writes the byte order it is given, and the reader reads either back to
/// the same values.
#[test]
fn event_encoder_writes_either_byte_order() {
    use xwire::binary::{ByteOrder, EventEncoder, MapTyping, PrimitiveType};
    let doc = b"<r><a>1 -2 3</a><v>7</v></r>";
    let mut files = Vec::new();
    for order in [ByteOrder::Little, ByteOrder::Big] {
        let mut typing = MapTyping::builder()
            .array("", "a", PrimitiveType::I32)
            .leaf("", "v", PrimitiveType::U16)
            .build();
        let mut enc = EventEncoder::with_byte_order(Vec::new(), order);
        let mut r = Reader::from_slice(doc);
        loop {
            let (offset, ev) = r.next_with_offset().unwrap();
            let eof = matches!(ev, Event::Eof);
            enc.event(offset, &ev, &mut typing).unwrap();
            if eof {
                break;
            }
        }
        let file = enc.finish().unwrap();
        let mut r = Reader::from_slice(&file);
        r.next().unwrap();
        assert_eq!(r.frame().unwrap().byte_order, order);
        r.next().unwrap();
        assert_eq!(r.frame().unwrap().byte_order, order);
        assert_eq!(&*r.array::<i32>().unwrap().unwrap(), &[1, -2, 3]);
        drop(r);
        let text = decode_to_text(&file, Vec::new()).unwrap();
        assert_eq!(text, b"<r><a>1 -2 3</a><v>7</v></r>");
        files.push(file);
    }
    assert_ne!(files[0], files[1]);
}
