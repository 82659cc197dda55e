//! Behaviour of the reader's public API that the conformance suites don't pin down.

use xwire::{Config, Event, OwnedEvent, Reader, ReaderBuffers, ReaderSlot};

fn owned(xml: &[u8]) -> Vec<OwnedEvent> {
    Reader::from_slice(xml)
        .into_events()
        .collect::<Result<_, _>>()
        .expect("well-formed")
}

#[test]
fn unread_external_entities_are_reported_not_fetched() {
    let xml = br#"<!DOCTYPE a [<!ENTITY e SYSTEM "/etc/passwd">]><a>x&e;y&amp;</a>"#;
    let events = owned(xml);
    let body: Vec<_> = events
        .iter()
        .filter(|e| !matches!(e, OwnedEvent::Doctype(..)))
        .cloned()
        .collect();
    assert_eq!(
        body[1..4],
        [
            OwnedEvent::Text("x".into()),
            OwnedEvent::SkippedEntity("e".into()),
            OwnedEvent::Text("y&".into()),
        ]
    );
}

#[test]
fn undeclared_entities_are_skipped_only_when_declarations_may_be_missing() {
    // An external subset that was not read: `&u;` may be declared there.
    let events = owned(br#"<!DOCTYPE a SYSTEM "a.dtd"><a>&u;</a>"#);
    assert!(events.contains(&OwnedEvent::SkippedEntity("u".into())));
    // No external markup: an undeclared entity is a well-formedness error.
    let err = Reader::from_slice(b"<a>&u;</a>")
        .into_events()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_err();
    assert!(matches!(err.kind(), xwire::ErrorKind::UndeclaredEntity(n) if n == "u"));
}

#[test]
fn recycled_buffers_parse_like_fresh_readers() {
    // The names (and their cached resolutions) a recycled reader keeps from one document
    // must not leak into the next: the same prefix bound elsewhere, or not at all, a name
    // that failed its check, names read with namespaces off. Nor in a reader kept in a
    // `ReaderSlot` (one per setting of `namespaces`). A name resolved under the bindings
    // every document starts with stays resolved in the next document: not once a default
    // namespace is in scope, again after it goes out of scope, not for another one later.
    let docs: [(&[u8], bool); 15] = [
        (b"<a><b/></a>", true),
        (br#"<r xmlns="urn:d"><a/><b/></r>"#, true),
        (b"<a><b/></a>", true),
        (br#"<r><x xmlns="urn:d"><a/></x><a/><b/></r>"#, true),
        (
            br#"<x xmlns="urn:e"><a/><y xmlns="urn:d"><b/></y></x>"#,
            true,
        ),
        (br#"<p:a xmlns:p="urn:1" p:x="1"><p:b/></p:a>"#, true),
        (
            br#"<p:a xmlns:p="urn:other" p:x="1"><p:b xmlns:p="urn:1"/></p:a>"#,
            true,
        ),
        (b"<p:a/>", true),
        (
            br#"<!DOCTYPE a [<!ATTLIST a d CDATA "dflt"><!ENTITY e "E">]><a>&e;</a>"#,
            true,
        ),
        (b"<a><unclosed></a>", true),
        (br#"<q:a xmlns:q="urn:2"><xml/><b q:y="2"/></q:a>"#, true),
        (b"<a:b:c/>", false),
        (b"<a:b:c/>", true),
        (b"<a:b:c/>", true),
        (
            br#"<p:a xmlns:p="urn:1"><p:b p:x="1" xmlns:p="urn:3"/><p:c/></p:a>"#,
            true,
        ),
    ];
    fn read_all(r: &mut Reader<'_>) -> Result<Vec<OwnedEvent>, xwire::Error> {
        let mut events = Vec::new();
        loop {
            match r.next()? {
                Event::Eof => return Ok(events),
                e => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            }
        }
    }
    let mut buffers = ReaderBuffers::default();
    let mut slots = [false, true].map(|namespaces| {
        let mut config = Config::default();
        config.namespaces = namespaces;
        ReaderSlot::new(config)
    });
    for round in 0..3 {
        for (doc, namespaces) in docs {
            let mut config = Config::default();
            config.namespaces = namespaces;
            let fresh: Result<Vec<_>, _> =
                Reader::with_buffers(doc, config.clone(), ReaderBuffers::default())
                    .into_events()
                    .collect();
            let mut r = Reader::with_buffers(doc, config, buffers);
            let recycled = read_all(&mut r);
            let kept = slots[namespaces as usize].read(doc, read_all);
            for (how, outcome) in [("recycled", recycled), ("kept", kept)] {
                match (&fresh, outcome) {
                    (Ok(a), Ok(b)) => assert_eq!(*a, b, "round {round}, {how}"),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "round {round}, {how}")
                    }
                    (a, b) => panic!("round {round}: fresh {a:?}, {how} {b:?}"),
                }
            }
            buffers = r.into_buffers();
        }
    }
}

#[test]
fn the_end_of_the_document_stays_the_end() {
    // Done is on the reader's slow path: every call after the end gives the end again.
    let mut r = Reader::from_slice(b"<a/>");
    while !matches!(r.next().unwrap(), Event::Eof) {}
    for _ in 0..3 {
        assert!(matches!(r.peek().unwrap(), Event::Eof));
        assert_eq!(r.next_token().unwrap(), xwire::TokenKind::Eof);
        assert!(matches!(r.next().unwrap(), Event::Eof));
    }
    // And an error stays the error.
    let mut r = Reader::from_slice(b"<a>");
    while r.next().is_ok() {}
    let first = r.next().unwrap_err().to_string();
    assert_eq!(r.next().unwrap_err().to_string(), first);
}

/// `text_in_input` borrows exactly the text `unescape` would borrow, from the input itself,
/// and nothing else: not references, CR, CDATA, an entity's replacement text, a stream, or
/// transcoded input.
#[test]
fn text_in_input_is_the_plain_text_of_the_document() {
    let docs: [&[u8]; 4] = [
        b"<a>one<b>two</b>x&amp;y<![CDATA[cd]]>z\r\nw<!--c-->three</a>",
        b"<!DOCTYPE a [<!ENTITY e 'in <b>entity</b> text'>]><a>before&e;after</a>",
        b"<a>\xc3\xa9t\xc3\xa9 \xe2\x82\xac</a>",
        b"\xef\xbb\xbf<a> </a>",
    ];
    let mut borrowed = Vec::new();
    for doc in docs {
        let mut r = Reader::from_slice(doc);
        loop {
            let kind = r.next_token().expect("well-formed");
            if kind == xwire::TokenKind::Eof {
                break;
            }
            let expected = match r.current() {
                Event::Text(t) if t.is_plain() => Some(t.raw().to_string()),
                _ => None,
            };
            let got = r.text_in_input();
            match (&expected, got) {
                // Outside entities: the same text, at its place in the input.
                (Some(e), Some(g)) => {
                    assert_eq!(e, g);
                    let at = g.as_ptr() as usize - doc.as_ptr() as usize;
                    assert_eq!(&doc[at..at + g.len()], g.as_bytes());
                    borrowed.push(g);
                }
                (_, None) => {}
                (None, Some(g)) => panic!("{g:?} is not plain text"),
            }
        }
    }
    // Kept after the readers are gone. Not borrowed: `x&amp;y` and `z\r\nw` (one token
    // each), the CDATA section, the entity's text.
    assert_eq!(
        borrowed,
        ["one", "two", "three", "before", "after", "été €", " "]
    );
    // Read from a stream, or transcoded: never.
    let mut r = Reader::from_reader(&b"<a>text</a>"[..], Config::default());
    r.next_token().unwrap();
    assert_eq!(r.next_token().unwrap(), xwire::TokenKind::Text);
    assert_eq!(r.text_in_input(), None);
    let utf16: Vec<u8> = "\u{feff}<a>text</a>"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let mut r = Reader::from_slice(&utf16);
    r.next_token().unwrap();
    assert_eq!(r.next_token().unwrap(), xwire::TokenKind::Text);
    assert!(matches!(r.current(), Event::Text(t) if t.raw() == "text"));
    assert_eq!(r.text_in_input(), None);
}

/// A name the reader predicts (it followed the same name in an earlier document) is still held
/// to this document's limits and read under its own ids.
#[test]
fn predicted_names_keep_their_checks() {
    let doc = b"<o i='1'><item sku='a' xsi:type='t' xmlns:xsi='urn:x'/><item sku='b'/></o>";
    let mut buffers = ReaderBuffers::default();
    let mut names = Vec::new();
    for _ in 0..3 {
        let mut r = Reader::with_buffers(doc, Config::default(), buffers);
        let mut seen = Vec::new();
        loop {
            match r.next().unwrap() {
                Event::Eof => break,
                Event::Start(t) => {
                    seen.push(t.name().to_string());
                    seen.extend(t.attributes().map(|a| a.name().to_string()));
                }
                _ => {}
            }
        }
        names.push(seen);
        buffers = r.into_buffers();
    }
    assert_eq!(
        names[0],
        [
            "o",
            "i",
            "item",
            "sku",
            "xsi:type",
            "xmlns:xsi",
            "item",
            "sku"
        ]
    );
    assert!(names.iter().all(|n| *n == names[0]));
    let mut short = Config::default();
    short.limits.max_name_length = 4;
    let mut r = Reader::with_buffers(doc, short, buffers);
    let err = loop {
        match r.next() {
            Ok(Event::Eof) => panic!("read past a name over the limit"),
            Ok(_) => {}
            Err(e) => break e,
        }
    };
    // `xsi:type`, predicted after `sku`, is the first name over the limit.
    assert!(err.to_string().contains("name"), "{err}");
    let at = doc.windows(8).position(|w| w == b"xsi:type").unwrap() as u64;
    assert_eq!(err.location().offset, at, "{err}");
}
