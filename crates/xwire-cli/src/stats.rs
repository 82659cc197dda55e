//! Document characteristics for `xwire parse`.

use std::collections::HashSet;

use xwire::{Event, Reader};

/// What `xwire parse` prints about a document.
#[derive(Debug, Default)]
pub struct Stats {
    pub size: u64,
    pub elements: u64,
    pub attributes: u64,
    pub max_depth: usize,
    pub distinct_names: usize,
    pub namespaces_declared: u64,
    pub text_bytes: u64,
}

impl Stats {
    pub fn render(&self) -> String {
        let avg = if self.elements > 0 {
            self.attributes as f64 / self.elements as f64
        } else {
            0.0
        };
        format!(
            "  size: {} bytes\n  elements: {}\n  attributes: {}\n  max depth: {}\n  distinct element names: {}\n  attributes per element: {:.2}\n  namespace declarations: {}\n  text: {} bytes",
            self.size, self.elements, self.attributes, self.max_depth, self.distinct_names, avg, self.namespaces_declared, self.text_bytes
        )
    }
}

/// Reads the whole document, counting. Namespace declarations are counted apart from attributes.
pub fn collect(r: &mut Reader<'_>, size: u64) -> Result<Stats, xwire::Error> {
    let mut s = Stats {
        size,
        ..Stats::default()
    };
    let mut names = HashSet::new();
    loop {
        match r.next()? {
            Event::Start(t) => {
                s.elements += 1;
                names.insert((t.ns(), t.local_name().to_string()));
                for a in t.attributes() {
                    if a.is_namespace_decl() {
                        s.namespaces_declared += 1;
                    } else {
                        s.attributes += 1;
                    }
                }
                s.max_depth = s.max_depth.max(r.depth());
            }
            Event::Text(t) => s.text_bytes += t.unescape().len() as u64,
            Event::CData(c) => s.text_bytes += c.text().len() as u64,
            Event::Eof => break,
            _ => {}
        }
    }
    s.distinct_names = names.len();
    Ok(s)
}
