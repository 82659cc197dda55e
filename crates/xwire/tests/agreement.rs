//! Slice and streaming input must agree on every input: the same events, or the same error
//! (kind and byte offset), whatever the chunk size.

mod common;

use xwire::{Config, ErrorKind, Event, OwnedEvent, Reader};

type Outcome = (Vec<OwnedEvent>, Option<(ErrorKind, u64)>);

/// Events up to the end or the first error.
fn run(mut r: Reader<'_>) -> Outcome {
    let mut events = Vec::new();
    loop {
        match r.next() {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            Err(e) => return (events, Some((e.kind().clone(), e.location().offset))),
        }
    }
}

fn check(doc: &[u8], config: &Config, what: &str) {
    let slice = run(Reader::with_config(doc, config.clone()));
    for chunk in [1, 7, 4096] {
        let mut c = config.clone();
        c.chunk_size = chunk;
        let stream = run(Reader::from_reader(doc, c));
        assert_eq!(
            slice, stream,
            "{what}: slice and stream (chunk {chunk}) disagree"
        );
    }
}

#[test]
fn every_w3c_test_file() {
    let Some(dir) = common::corpus("xmlconf") else {
        return;
    };
    let files = common::xml_files(&dir);
    assert!(files.len() > 2000, "only {} files", files.len());
    for path in &files {
        let doc = std::fs::read(path).unwrap();
        check(&doc, &Config::default(), &path.display().to_string());
    }
    println!("slice/stream agreement: {} W3C files", files.len());
}

#[test]
fn mutated_documents() {
    let seeds: [&[u8]; 4] = [
        br#"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE r [<!ENTITY e "x&amp;<b/>"><!ATTLIST r a CDATA "d">]><r xmlns:p="urn:p" p:x="1&#x20;2"><p:c>t&e;</p:c><![CDATA[]]]]><?pi d?><!--c--></r>"#,
        b"<a>\r\n<b c='\t'>&lt;&#233;</b>\xc3\xa9</a>\r\n",
        b"\xef\xbb\xbf<soap:Envelope xmlns:soap='http://schemas.xmlsoap.org/soap/envelope/'><soap:Body><x xsi:type='t' xmlns:xsi='urn:i'>1.5</x></soap:Body></soap:Envelope>",
        b"<?xml version='1.0' encoding='ISO-8859-1'?><a>caf\xe9</a>",
    ];
    let fragments: [&[u8]; 12] = [
        b"<",
        b">",
        b"&",
        b";",
        b"]]>",
        b"<!--",
        b"-->",
        b"<![CDATA[",
        b"\"",
        b"\xc3",
        b"\r",
        b"<x/>",
    ];
    let mut rng = common::Rng(7);
    let mut tiny = Config::default();
    tiny.limits.max_text_length = 20;
    tiny.limits.max_depth = 3;
    tiny.limits.max_attributes = 2;
    tiny.limits.max_name_length = 4;
    for round in 0..3000 {
        let mut doc = seeds[rng.below(seeds.len())].to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(doc.len() + 1);
            match rng.below(4) {
                0 if at < doc.len() => doc[at] ^= 1 << rng.below(8),
                1 => {
                    let f = fragments[rng.below(fragments.len())];
                    doc.splice(at..at, f.iter().copied());
                }
                2 if at < doc.len() => {
                    doc.remove(at);
                }
                _ => doc.truncate(at),
            }
        }
        check(
            &doc,
            &Config::default(),
            &format!("round {round}: {:?}", String::from_utf8_lossy(&doc)),
        );
        check(
            &doc,
            &tiny,
            &format!(
                "round {round} (tiny limits): {:?}",
                String::from_utf8_lossy(&doc)
            ),
        );
    }
}

/// The reader moves between its fast path (a whole document in memory, read in place or
/// transcoded), the general one (an entity's replacement text, a document longer than a
/// token's window, a stream) and back: every encoding and every input reads the same events.
#[test]
fn fast_and_general_paths_agree() {
    let doc =
        "<?xml version='1.0' encoding='ENC'?>\n<!DOCTYPE r [<!ENTITY e 'x<b>&#60;i/>&f;</b>y'>\
               <!ENTITY f '&#38;amp;'><!ENTITY g 'v'>]>\n <!--c-->\n\
               <r a='&g;&amp;'>t&e;&e;<c/>&f;<?p d?>caf\u{e9}&e;</r>\n <!--end-->\n";
    let utf8 = doc.replace("ENC", "UTF-8").into_bytes();
    let (events, err) = run(Reader::from_slice(&utf8));
    assert_eq!(err, None);
    // Three expansions of `e` (each a start, text, an empty element and an end), the rest.
    assert!(events.len() > 25, "{events:?}");
    check(&utf8, &Config::default(), "UTF-8");
    let mut utf16 = vec![0xff, 0xfe];
    for u in doc.replace("ENC", "UTF-16").encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let latin1: Vec<u8> = doc
        .replace("ENC", "ISO-8859-1")
        .chars()
        .map(|c| u8::try_from(u32::from(c)).expect("Latin-1"))
        .collect();
    for (what, bytes) in [("UTF-16", &utf16), ("ISO-8859-1", &latin1)] {
        let (other, err) = run(Reader::from_slice(bytes));
        assert_eq!(err, None, "{what}");
        assert_eq!(other, events, "{what} and UTF-8 disagree");
        check(bytes, &Config::default(), what);
    }
    // Longer than a token's window (the limit plus 1 KiB): read on the general path throughout.
    let mut long = b"<r>".to_vec();
    for i in 0..400 {
        long.extend_from_slice(format!("<c n='{i}'>text {i}</c>\n").as_bytes());
    }
    long.extend_from_slice(b"</r>");
    let mut small = Config::default();
    small.limits.max_text_length = 64;
    assert!(long.len() > 64 + 1024);
    let (windowed, err) = run(Reader::with_config(&long, small.clone()));
    assert_eq!(err, None);
    assert_eq!(windowed, run(Reader::from_slice(&long)).0);
    check(&long, &small, "longer than the window");
}
