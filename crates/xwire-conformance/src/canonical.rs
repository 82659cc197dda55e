//! James Clark's canonical form of XML documents, the form of the W3C suite's OUTPUT files
//! (with the "second canonical form" notation declarations when the DTD declares notations).

use xwire::{Event, Reader};

fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

/// Reads the whole document and writes its canonical form.
pub fn canonical(reader: &mut Reader<'_>) -> Result<String, xwire::Error> {
    let mut out = String::new();
    let mut attrs: Vec<(String, String)> = Vec::new();
    loop {
        match reader.next()? {
            // The canonical form has no notation for an entity that was not read.
            Event::SkippedEntity(_) => {}
            Event::Doctype(d) => {
                let root = d.name().to_string();
                for (target, data) in reader.dtd_processing_instructions() {
                    out.push_str(&format!("<?{target} {data}?>"));
                }
                notation_head(reader, &root, &mut out);
            }
            Event::Start(t) => {
                out.push('<');
                out.push_str(t.name());
                attrs.clear();
                attrs.extend(
                    t.attributes()
                        .map(|a| (a.name().to_string(), a.value().to_string())),
                );
                attrs.sort();
                for (n, v) in &attrs {
                    out.push(' ');
                    out.push_str(n);
                    out.push_str("=\"");
                    escape_into(&mut out, v);
                    out.push('"');
                }
                out.push('>');
            }
            Event::End(t) => {
                out.push_str("</");
                out.push_str(t.name());
                out.push('>');
            }
            Event::Text(t) => escape_into(&mut out, &t.unescape()),
            Event::CData(c) => escape_into(&mut out, &c.text()),
            Event::Pi(p) => {
                out.push_str("<?");
                out.push_str(p.target());
                out.push(' ');
                out.push_str(&p.data());
                out.push_str("?>");
            }
            Event::Comment(_) => {}
            Event::Eof => break,
        }
    }
    Ok(out)
}

/// The second canonical form's DOCTYPE with the declared notations, if there are any.
fn notation_head(reader: &Reader<'_>, root: &str, out: &mut String) {
    let mut notations: Vec<_> = reader.notations().collect();
    if notations.is_empty() {
        return;
    }
    notations.sort();
    out.push_str(&format!("<!DOCTYPE {root} [\n"));
    for (name, public, system) in notations {
        out.push_str(&format!("<!NOTATION {name} "));
        match (public, system) {
            (Some(p), Some(s)) => out.push_str(&format!("PUBLIC '{p}' '{s}'")),
            (Some(p), None) => out.push_str(&format!("PUBLIC '{p}'")),
            (None, Some(s)) => out.push_str(&format!("SYSTEM '{s}'")),
            (None, None) => {}
        }
        out.push_str(">\n");
    }
    out.push_str("]>\n");
}
