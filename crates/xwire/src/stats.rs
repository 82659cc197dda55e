//! Document characteristics, read in one pass of a [`Reader`]: size, elements, attributes,
//! depth, distinct names, namespace declarations, text. `xwire parse` prints them, and the
//! benchmark reports them under each workload; each formats them its own way.
//!
//! ```
//! let mut r = xwire::Reader::from_slice(b"<a xmlns='urn:x' n='1'><b>text</b><b/></a>");
//! let s = xwire::stats::collect(&mut r, 42)?;
//! assert_eq!((s.size, s.elements, s.attributes, s.namespaces_declared), (42, 3, 1, 1));
//! assert_eq!((s.max_depth, s.distinct_names, s.text_bytes), (2, 2, 4));
//! # Ok::<(), xwire::Error>(())
//! ```

use std::collections::HashSet;

use crate::{Event, Reader};

/// The characteristics of a document.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Size in bytes (as the caller gave it to [`collect`]).
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
    /// Average attributes per element (0 without elements).
    pub fn attributes_per_element(&self) -> f64 {
        if self.elements > 0 {
            self.attributes as f64 / self.elements as f64
        } else {
            0.0
        }
    }
}

/// Reads the rest of the document, counting; `size` is recorded as the document's size.
/// Namespace declarations are counted apart from attributes. Fails with the reader's first
/// error.
pub fn collect(r: &mut Reader<'_>, size: u64) -> Result<Stats, crate::Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn of(doc: &str) -> Stats {
        collect(&mut Reader::from_slice(doc.as_bytes()), doc.len() as u64).unwrap()
    }

    #[test]
    fn names_are_told_apart_by_namespace() {
        let s = of("<a xmlns:p='urn:p'><b/><p:b/><p:b/></a>");
        assert_eq!((s.elements, s.distinct_names), (4, 3));
        assert_eq!((s.attributes, s.namespaces_declared), (0, 1));
    }

    #[test]
    fn text_is_counted_unescaped_with_cdata() {
        let s = of("<a>&lt;&amp;<![CDATA[<x>]]></a>");
        assert_eq!(s.text_bytes, 5);
        assert_eq!(s.max_depth, 1);
    }

    #[test]
    fn an_empty_count_has_no_attributes_per_element() {
        assert_eq!(Stats::default().attributes_per_element(), 0.0);
        assert_eq!(
            of("<a x='1' y='2'><b z='3'/></a>").attributes_per_element(),
            1.5
        );
    }

    #[test]
    fn the_first_error_is_the_readers() {
        assert!(collect(&mut Reader::from_slice(b"<a></b>"), 7).is_err());
    }
}
