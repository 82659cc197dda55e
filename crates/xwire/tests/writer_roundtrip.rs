//! The writer against the reader: what the writer writes reads back as what was written.

mod common;

use xwire::writer::{Writer, WriterConfig};
use xwire::{Event, OwnedEvent, Reader};

/// The events of a document in a comparable form: adjacent text and CDATA merged into text,
/// namespace declarations left out of attribute lists (the writer drops redundant ones; the
/// resolved namespace of every name is compared instead).
fn infoset(xml: &[u8]) -> Result<Vec<OwnedEvent>, xwire::Error> {
    let mut out: Vec<OwnedEvent> = Vec::new();
    for e in Reader::from_slice(xml).into_events() {
        let e = match e? {
            OwnedEvent::CData(t) => OwnedEvent::Text(t),
            OwnedEvent::Start {
                name,
                ns,
                attributes,
                empty: _,
            } => OwnedEvent::Start {
                name,
                ns,
                attributes: attributes
                    .into_iter()
                    .filter(|(n, _, _)| n != "xmlns" && !n.starts_with("xmlns:"))
                    .collect(),
                empty: false,
            },
            e => e,
        };
        match (out.last_mut(), e) {
            (Some(OwnedEvent::Text(a)), OwnedEvent::Text(b)) => a.push_str(&b),
            (_, e) => out.push(e),
        }
    }
    // Text that unescapes to nothing (a reference to an empty entity) is no content.
    out.retain(|e| !matches!(e, OwnedEvent::Text(t) if t.is_empty()));
    Ok(out)
}

fn rewrite(xml: &[u8], config: WriterConfig) -> Vec<u8> {
    let mut reader = Reader::from_slice(xml);
    let mut w = Writer::with_config(Vec::new(), config);
    loop {
        let e = reader.next().expect("the source is well-formed");
        if matches!(e, Event::Eof) {
            break;
        }
        w.write_event(&e).expect("writable");
    }
    w.finish().expect("complete")
}

#[test]
fn every_well_formed_w3c_document_reads_back_the_same() {
    let Some(dir) = common::corpus("xmlconf") else {
        return;
    };
    let (mut checked, mut not_wf) = (0, 0);
    for path in common::xml_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(before) = infoset(&bytes) else {
            not_wf += 1;
            continue;
        };
        let out = rewrite(&bytes, WriterConfig::default());
        let after = infoset(&out).unwrap_or_else(|e| {
            panic!(
                "{}: the writer's output does not parse: {e}\n{}",
                path.display(),
                String::from_utf8_lossy(&out)
            )
        });
        assert_eq!(before, after, "{}", path.display());
        checked += 1;
    }
    println!("writer round trip: {checked} documents, {not_wf} not well-formed (skipped)");
    assert!(checked > 1000, "only {checked} documents checked");
}

#[test]
fn random_trees_written_read_back() {
    let mut rng = common::Rng(42);
    let names = ["a", "b", "p:c", "d-e", "f.g", "ünï", "h"];
    let texts = [
        "",
        "x",
        "a & b",
        "<tag>",
        "]]>",
        "\r\n",
        " \t ",
        "é€𝄞",
        "\"'",
    ];
    for case in 0..500 {
        let mut w = Writer::new(Vec::new());
        let mut expected: Vec<OwnedEvent> = Vec::new();
        let mut open: Vec<String> = Vec::new();
        let mut steps = 0;
        w.start_element("root").unwrap();
        w.namespace(Some("p"), "urn:p").unwrap();
        open.push("root".into());
        expected.push(OwnedEvent::Start {
            name: "root".into(),
            ns: String::new(),
            attributes: vec![],
            empty: false,
        });
        while !open.is_empty() {
            steps += 1;
            match rng.below(if steps > 40 { 1 } else { 4 }) {
                0 => {
                    w.end_element().unwrap();
                    let name = open.pop().unwrap();
                    let ns = if name.starts_with("p:") { "urn:p" } else { "" };
                    expected.push(OwnedEvent::End {
                        name,
                        ns: ns.into(),
                    });
                }
                1 => {
                    let name = names[rng.below(names.len())].to_string();
                    w.start_element(&name).unwrap();
                    let mut attributes = Vec::new();
                    for k in 0..rng.below(3) {
                        let an = format!("at{k}");
                        let v = texts[rng.below(texts.len())];
                        w.attribute(&an, v).unwrap();
                        attributes.push((an, String::new(), v.to_string()));
                    }
                    let ns = if name.starts_with("p:") { "urn:p" } else { "" };
                    expected.push(OwnedEvent::Start {
                        name: name.clone(),
                        ns: ns.into(),
                        attributes,
                        empty: false,
                    });
                    open.push(name);
                }
                2 => {
                    let t = texts[rng.below(texts.len())];
                    if rng.below(2) == 0 {
                        w.text(t).unwrap()
                    } else {
                        w.cdata(t).unwrap()
                    }
                    if !t.is_empty() {
                        match expected.last_mut() {
                            Some(OwnedEvent::Text(a)) => a.push_str(t),
                            _ => expected.push(OwnedEvent::Text(t.into())),
                        }
                    }
                }
                _ => {
                    w.comment("c").unwrap();
                    expected.push(OwnedEvent::Comment("c".into()));
                }
            }
        }
        let out = w.finish().unwrap();
        let got = infoset(&out)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{}", String::from_utf8_lossy(&out)));
        assert_eq!(
            got,
            expected,
            "case {case}: {}",
            String::from_utf8_lossy(&out)
        );
    }
}

#[test]
fn pretty_printing_keeps_the_content_of_a_data_document() {
    let xml = b"<a><b x='1'>text</b><c><d/></c></a>";
    let out = rewrite(xml, WriterConfig::pretty("\t"));
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "<a>\n\t<b x=\"1\">text</b>\n\t<c>\n\t\t<d/>\n\t</c>\n</a>\n"
    );
}
