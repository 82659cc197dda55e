//! Adapters for xwire and the Rust crates people use: quick-xml, xml-rs, xmlparser, roxmltree.

use std::hint::black_box;

use super::{simple, Engine, Lang, Op, Outcome, Peer};

pub(super) fn peers() -> Vec<Peer> {
    vec![
        Peer {
            name: "xwire",
            lang: Lang::Rust,
            checks:
                "everything: well-formedness, Char/Name productions, namespaces, DTD, entities; \
                     encode/decode: its binary format, schema-less (xsi:type-typed elements \
                     become typed values, their lexical forms dropped as EXI's typed encodings \
                     drop them: Lexical::Drop; the rest stays text), read back through the same \
                     Reader",
            engine: Engine::InProcess({
                let mut ops: Vec<(Op, super::Prepare)> = vec![
                    (Op::Parse, simple(xwire)),
                    (Op::Push, simple(xwire_sax)),
                    (Op::Reserialize, simple(xwire_reserialize)),
                    (Op::Encode, simple(xwire_encode)),
                    (Op::Decode, Box::new(xwire_decode)),
                ];
                // The tree and its XPath pipelines (xwire::tree).
                ops.extend(super::models::tree_ops());
                // Validation (crate xwire-schema): the events and the verdict.
                ops.push((Op::Validate, Box::new(xwire_validate)));
                ops
            }),
        },
        Peer {
            name: "xwire-psvi",
            lang: Lang::Rust,
            checks: "as xwire, validating through a ValidatingReader: each event comes with its \
                     PSVI (declaration, type, typed values), all taken by the consumer",
            engine: Engine::InProcess(vec![(Op::Validate, Box::new(xwire_validate_psvi))]),
        },
        Peer {
            name: "xwire-index",
            lang: Lang::Rust,
            checks: "as xwire (it indexes through xwire's reader); UTF-8 only",
            engine: Engine::InProcess(super::models::index_ops()),
        },
        Peer {
            name: "quick-xml",
            lang: Lang::Rust,
            checks: "end-tag names; no character or name checks, no namespaces, no DTD",
            engine: Engine::InProcess(vec![
                (Op::Parse, simple(quick_xml_raw)),
                (Op::Reserialize, simple(quick_xml_reserialize)),
            ]),
        },
        Peer {
            name: "quick-xml-ns",
            lang: Lang::Rust,
            checks: "as quick-xml, plus namespace resolution of elements and attributes",
            engine: Engine::InProcess(vec![(Op::Parse, simple(quick_xml_ns))]),
        },
        Peer {
            name: "xml-rs",
            lang: Lang::Rust,
            checks: "well-formedness and namespaces; internal DTD only partly",
            engine: Engine::InProcess(vec![(Op::Parse, simple(xml_rs))]),
        },
        Peer {
            name: "xmlparser",
            lang: Lang::Rust,
            checks:
                "tokens only: no end-tag matching, no namespaces, no entity expansion (done here)",
            engine: Engine::InProcess(vec![(Op::Parse, simple(xmlparser))]),
        },
        Peer {
            name: "roxmltree",
            lang: Lang::Rust,
            checks: "well-formedness and namespaces; builds a read-only tree (no serializer, no \
                     edits: no reserialize, no pipelines)",
            engine: Engine::InProcess(vec![(Op::Tree, simple(roxmltree))]),
        },
    ]
}

/// The workload's schema, loaded once per workload and worker. A runner must be 'static and
/// a validator borrows its schema: the schema (a few KB) lives for the rest of the benchmark
/// process.
fn leaked_schema(setup: &super::Setup<'_>) -> Result<&'static xwire_schema::model::Schema, String> {
    let path = setup.schema.ok_or("this workload has no schema")?;
    let schema = xwire_schema::model::Schema::load(path).map_err(err)?;
    Ok(Box::leak(Box::new(schema)))
}

/// The parse checksum's share of one event (as the parse runners count it), public for the
/// profiling examples, which consume events as the runners do.
#[inline]
pub fn event_sum(ev: &xwire::Event<'_>) -> u64 {
    use xwire::Event;
    match ev {
        Event::Start(t) => 1 + t.attributes().filter(|a| !a.is_namespace_decl()).count() as u64,
        Event::Text(t) => t.unescape().len() as u64,
        Event::CData(c) => c.raw().len() as u64,
        _ => 0,
    }
}

/// Validates each document with `Validator::validate_with` (its lean pass first, the
/// general pass when that gives up), the consumer taking every event for the parse
/// checksum, as the validating SAX peers' handlers do.
fn xwire_validate(setup: &super::Setup<'_>) -> Result<super::Runner, String> {
    use xwire_schema::validate::{ValidationOptions, Validator};
    let mut validator = Validator::new(leaked_schema(setup)?, ValidationOptions::default());
    Ok(Box::new(move |doc: &[u8]| {
        let mut sum = 0u64;
        match validator.validate_with(doc, |ev| sum += event_sum(ev)) {
            Ok(()) => Ok(sum),
            Err(errors) => Err(err(&errors[0])),
        }
    }))
}

/// Validates each document through a `ValidatingReader` (one pass: parse, validate, typed
/// values), the consumer taking every event and its PSVI, typed values included.
fn xwire_validate_psvi(setup: &super::Setup<'_>) -> Result<super::Runner, String> {
    use xwire_schema::validate::{ValidatingReader, ValidationOptions, Validator};
    let mut validator = Validator::new(leaked_schema(setup)?, ValidationOptions::default());
    Ok(Box::new(move |doc: &[u8]| {
        let mut r = ValidatingReader::new(&mut validator, xwire::Reader::from_slice(doc));
        let mut sum = 0u64;
        loop {
            let (ev, psvi) = r.next().map_err(err)?.split();
            if matches!(ev, xwire::Event::Eof) {
                break;
            }
            sum += event_sum(&ev);
            black_box(psvi);
        }
        match r.errors().first() {
            None => Ok(sum),
            Some(e) => Err(err(e)),
        }
    }))
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub(super) fn xwire(doc: &[u8]) -> Outcome {
    use xwire::Event;
    let mut r = xwire::Reader::from_slice(doc);
    let mut sum = 0u64;
    loop {
        match r.next().map_err(err)? {
            Event::Start(t) => {
                sum += 1;
                black_box((t.local_name(), t.ns()));
                for a in t.attributes() {
                    black_box((a.local_name(), a.ns(), a.value()));
                    sum += !a.is_namespace_decl() as u64;
                }
            }
            Event::Text(t) => sum += t.unescape().len() as u64,
            Event::CData(c) => sum += c.raw().len() as u64,
            Event::Eof => return Ok(sum),
            _ => {}
        }
    }
}

/// Transcodes `doc` to xwire's binary format schema-less, typing elements by their
/// `xsi:type` only ([`xwire::binary::XsiTyping`]), values only ([`Lexical::Drop`]: every
/// typed element a value, as EXI's typed encodings and earlier runs of this suite measure
/// it; the default keeps non-canonical text as text); the binary form and the parse
/// checksum of the events it encoded.
///
/// [`Lexical::Drop`]: xwire::binary::Lexical::Drop
pub(super) fn xwire_encode_counting(doc: &[u8]) -> Result<(Vec<u8>, u64), String> {
    use xwire::binary::{EventEncoder, Lexical, XsiTyping};
    use xwire::Event;
    let mut r = xwire::Reader::from_slice(doc);
    let mut enc = EventEncoder::new(Vec::with_capacity(doc.len() / 2 + 64)).lexical(Lexical::Drop);
    let mut sum = 0u64;
    loop {
        let (offset, e) = r.next_with_offset().map_err(err)?;
        match &e {
            Event::Start(t) => {
                sum += 1 + t.attributes().filter(|a| !a.is_namespace_decl()).count() as u64
            }
            Event::Text(t) => sum += t.unescape().len() as u64,
            Event::CData(c) => sum += c.raw().len() as u64,
            _ => {}
        }
        let eof = matches!(e, Event::Eof);
        enc.event(offset, &e, &mut XsiTyping).map_err(err)?;
        if eof {
            break;
        }
    }
    Ok((enc.finish().map_err(err)?, sum))
}

/// Encodes to memory (the output's length to `black_box`); the parse checksum.
fn xwire_encode(doc: &[u8]) -> Outcome {
    let (bytes, sum) = xwire_encode_counting(doc)?;
    black_box(bytes.len());
    Ok(sum)
}

/// Encodes the workload's document once, untimed; each run reads the binary form through
/// `xwire::Reader` and consumes every event as the parse does ([`xwire`] reads binary input
/// itself). Given another document (tests, probes), a run encodes it first.
fn xwire_decode(setup: &super::Setup<'_>) -> Result<super::Runner, String> {
    let prepared = match setup.document {
        Some(doc) => Some((super::DocumentKey::of(doc), xwire_encode_counting(doc)?.0)),
        None => None,
    };
    Ok(Box::new(move |doc: &[u8]| match &prepared {
        Some((key, binary)) if key.matches(doc) => xwire(binary),
        _ => xwire(&xwire_encode_counting(doc)?.0),
    }))
}

/// The checksum through the push API.
fn xwire_sax(doc: &[u8]) -> Outcome {
    use xwire::sax::{self, Handler};
    struct Sum(u64);
    impl Handler for Sum {
        fn start_element(&mut self, t: &xwire::StartTag<'_>) -> xwire::Result<()> {
            self.0 += 1;
            black_box((t.local_name(), t.ns()));
            for a in t.attributes() {
                black_box((a.local_name(), a.ns(), a.value()));
                self.0 += !a.is_namespace_decl() as u64;
            }
            Ok(())
        }
        fn characters(&mut self, text: &str) -> xwire::Result<()> {
            self.0 += text.len() as u64;
            Ok(())
        }
    }
    let mut h = Sum(0);
    sax::parse(&mut xwire::Reader::from_slice(doc), &mut h).map_err(err)?;
    Ok(h.0)
}

/// Reads every event and writes it back through the core writer, to memory.
fn xwire_reserialize(doc: &[u8]) -> Outcome {
    use xwire::Event;
    let mut r = xwire::Reader::from_slice(doc);
    let mut w = xwire::writer::Writer::new(Vec::with_capacity(doc.len()));
    let mut sum = 0u64;
    loop {
        let e = r.next().map_err(err)?;
        match &e {
            Event::Start(t) => {
                sum += 1 + t.attributes().filter(|a| !a.is_namespace_decl()).count() as u64
            }
            Event::Text(t) => sum += t.unescape().len() as u64,
            Event::CData(c) => sum += c.raw().len() as u64,
            Event::Eof => break,
            _ => {}
        }
        w.write_event(&e).map_err(err)?;
    }
    black_box(w.finish().map_err(err)?.len());
    Ok(sum)
}

fn quick_xml_raw(doc: &[u8]) -> Outcome {
    quick_xml_run(doc, false, None)
}

fn quick_xml_ns(doc: &[u8]) -> Outcome {
    quick_xml_run(doc, true, None)
}

fn quick_xml_reserialize(doc: &[u8]) -> Outcome {
    let mut w = quick_xml::Writer::new(Vec::with_capacity(doc.len()));
    let sum = quick_xml_run(doc, false, Some(&mut w))?;
    black_box(w.into_inner().len());
    Ok(sum)
}

/// Pulls every event (resolving namespaces when asked), writing each to `out` if given.
fn quick_xml_run(
    doc: &[u8],
    namespaces: bool,
    mut out: Option<&mut quick_xml::Writer<Vec<u8>>>,
) -> Outcome {
    use quick_xml::events::{BytesStart, Event};
    use quick_xml::reader::NsReader;

    fn attributes(
        e: &BytesStart<'_>,
        ns: Option<&NsReader<&[u8]>>,
        sum: &mut u64,
    ) -> Result<(), String> {
        for a in e.attributes() {
            let a = a.map_err(err)?;
            let key = a.key.as_ref();
            if key == b"xmlns" || key.starts_with(b"xmlns:") {
                continue;
            }
            if let Some(r) = ns {
                black_box(r.resolve_attribute(a.key));
            }
            black_box(a.unescape_value().map_err(err)?);
            *sum += 1;
        }
        Ok(())
    }

    let mut r = NsReader::from_reader(doc);
    r.config_mut().check_end_names = true;
    let mut sum = 0u64;
    let mut depth = 0usize;
    loop {
        let event = if namespaces {
            let (ns, e) = r.read_resolved_event().map_err(err)?;
            black_box(ns);
            e
        } else {
            r.read_event().map_err(err)?
        };
        match &event {
            Event::Start(e) => {
                depth += 1;
                sum += 1;
                black_box(e.local_name());
                attributes(e, namespaces.then_some(&r), &mut sum)?;
            }
            Event::Empty(e) => {
                sum += 1;
                black_box(e.local_name());
                attributes(e, namespaces.then_some(&r), &mut sum)?;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(t) if depth > 0 => sum += t.unescape().map_err(err)?.len() as u64,
            Event::CData(c) => sum += c.len() as u64,
            Event::Eof => {
                return if depth == 0 && sum > 0 {
                    Ok(sum)
                } else {
                    Err("unexpected end of document".into())
                }
            }
            _ => {}
        }
        if let Some(w) = out.as_deref_mut() {
            w.write_event(event).map_err(err)?;
        }
    }
}

fn xml_rs(doc: &[u8]) -> Outcome {
    use xml::reader::{EventReader, XmlEvent};
    let mut sum = 0u64;
    let mut depth = 0usize;
    for e in EventReader::new(doc) {
        match e.map_err(err)? {
            XmlEvent::StartElement {
                name, attributes, ..
            } => {
                depth += 1;
                sum += 1 + attributes.len() as u64;
                black_box((name, attributes));
            }
            XmlEvent::EndElement { .. } => depth -= 1,
            XmlEvent::Characters(s) | XmlEvent::Whitespace(s) | XmlEvent::CData(s) if depth > 0 => {
                sum += s.len() as u64
            }
            _ => {}
        }
    }
    Ok(sum)
}

fn xmlparser(doc: &[u8]) -> Outcome {
    use xmlparser::{ElementEnd, Token, Tokenizer};
    let text = std::str::from_utf8(doc).map_err(err)?;
    let mut sum = 0u64;
    let mut depth = 0usize;
    let mut in_tag = false;
    for t in Tokenizer::from(text) {
        match t.map_err(err)? {
            Token::ElementStart { local, .. } => {
                sum += 1;
                in_tag = true;
                black_box(local.as_str());
            }
            Token::Attribute {
                prefix,
                local,
                value,
                ..
            } => {
                if prefix.as_str() == "xmlns" || (prefix.is_empty() && local.as_str() == "xmlns") {
                    continue;
                }
                sum += 1;
                black_box(unescaped_len(value.as_str())?);
            }
            Token::ElementEnd { end, .. } => {
                in_tag = false;
                match end {
                    ElementEnd::Open => depth += 1,
                    ElementEnd::Close(..) => depth = depth.saturating_sub(1),
                    ElementEnd::Empty => {}
                }
            }
            Token::Text { text } if depth > 0 => sum += unescaped_len(text.as_str())? as u64,
            Token::Cdata { text, .. } => sum += text.len() as u64,
            _ => {}
        }
    }
    // The tokenizer stops quietly at the end of the input; an unclosed element is left to us.
    if in_tag || depth > 0 || sum == 0 {
        return Err("unexpected end of document".into());
    }
    Ok(sum)
}

/// Length in UTF-8 of `s` with the predefined entities and character references replaced: the
/// unescaping xmlparser leaves to its users.
fn unescaped_len(s: &str) -> Result<usize, String> {
    let mut n = 0;
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        n += amp;
        let semi = rest[amp..].find(';').ok_or("unterminated reference")? + amp;
        let name = &rest[amp + 1..semi];
        n += match name {
            "amp" | "lt" | "gt" | "quot" | "apos" => 1,
            _ => {
                let code = if let Some(hex) = name.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).map_err(err)?
                } else if let Some(dec) = name.strip_prefix('#') {
                    dec.parse().map_err(err)?
                } else {
                    return Err(format!("unknown entity '{name}'"));
                };
                char::from_u32(code)
                    .ok_or("bad character reference")?
                    .len_utf8()
            }
        };
        rest = &rest[semi + 1..];
    }
    Ok(n + rest.len())
}

fn roxmltree(doc: &[u8]) -> Outcome {
    let text = std::str::from_utf8(doc).map_err(err)?;
    let d = roxmltree::Document::parse(text).map_err(err)?;
    let mut sum = 0u64;
    for n in d.root_element().descendants() {
        if n.is_element() {
            sum += 1 + n.attributes().len() as u64;
            black_box((n.tag_name(), n.attributes().map(|a| a.value()).next_back()));
        } else if n.is_text() {
            sum += n.text().map_or(0, str::len) as u64;
        }
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unescaped_len_counts_replacements() {
        assert_eq!(super::unescaped_len("a&amp;b&#233;&#x41;").unwrap(), 6);
        assert!(super::unescaped_len("a&b").is_err());
    }
}
