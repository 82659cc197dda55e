//! Document characteristics: what `xwire parse` and every benchmark workload print.

use std::collections::HashSet;

use xwire::{Event, Reader};

/// The characteristics of a document.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Stats {
    /// Size in bytes.
    pub size: u64,
    /// Number of elements.
    pub elements: u64,
    /// Number of attributes, namespace declarations not included.
    pub attributes: u64,
    /// Deepest element nesting.
    pub max_depth: usize,
    /// Distinct element names (namespace URI, local name).
    pub distinct_names: usize,
    /// Namespace declarations.
    pub namespaces_declared: u64,
    /// Character data after unescaping, in bytes.
    pub text_bytes: u64,
    /// References to entities that were not read (external entities without a resolver).
    pub skipped_entities: u64,
}

impl Stats {
    /// Average attributes per element.
    pub fn attributes_per_element(&self) -> f64 {
        if self.elements > 0 {
            self.attributes as f64 / self.elements as f64
        } else {
            0.0
        }
    }

    /// One line: the figures the benchmark report prints under a workload's name.
    pub fn one_line(&self) -> String {
        format!(
            "{:.1} MB, {} elements, {} attributes, depth {}, {} distinct names, {:.2} attributes/element, {} namespace declarations",
            self.size as f64 / 1e6,
            self.elements,
            self.attributes,
            self.max_depth,
            self.distinct_names,
            self.attributes_per_element(),
            self.namespaces_declared
        )
    }

    /// Several indented lines, as `xwire parse` prints them.
    pub fn render(&self) -> String {
        let avg = self.attributes_per_element();
        let mut s = format!(
            "  size: {} bytes\n  elements: {}\n  attributes: {}\n  max depth: {}\n  distinct element names: {}\n  attributes per element: {:.2}\n  namespace declarations: {}\n  text: {} bytes",
            self.size, self.elements, self.attributes, self.max_depth, self.distinct_names, avg, self.namespaces_declared, self.text_bytes
        );
        if self.skipped_entities > 0 {
            s.push_str(&format!(
                "\n  entity references not read: {} (external entities are read only with --load-external)",
                self.skipped_entities
            ));
        }
        s
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
            Event::SkippedEntity(_) => s.skipped_entities += 1,
            Event::Eof => break,
            _ => {}
        }
    }
    s.distinct_names = names.len();
    Ok(s)
}
