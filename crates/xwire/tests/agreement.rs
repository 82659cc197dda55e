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
