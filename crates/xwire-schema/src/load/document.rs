//! One schema document read into a small owned tree: element names with namespace URIs,
//! attributes, the namespaces in scope and the line and column of every start tag.

use std::rc::Rc;

use xwire::tree::Document;
use xwire::NodeKind;

/// Deeper schema documents are refused (they are not schemas anyone writes, and the loader
/// walks them recursively).
pub(crate) const MAX_DEPTH: u32 = 256;

/// An element of a schema document.
#[derive(Debug)]
pub(crate) struct XNode {
    /// Namespace URI (`""` for none).
    pub ns: String,
    /// Local name.
    pub local: String,
    /// Attributes: namespace URI, local name, value.
    pub attrs: Vec<(String, String, String)>,
    /// Child elements, in order.
    pub children: Vec<Rc<XNode>>,
    /// The character data directly in this element (concatenated).
    pub text: String,
    /// The whole text content (for documentation and appinfo).
    pub deep_text: String,
    /// Namespaces in scope: (prefix, URI), `""` prefix for the default namespace.
    pub scope: Rc<Vec<(String, String)>>,
    /// 1-based line and column of the start tag.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl XNode {
    /// An unqualified attribute's value.
    pub fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(ns, l, _)| ns.is_empty() && l == local)
            .map(|(_, _, v)| v.as_str())
    }

    /// The namespace bound to `prefix` (`""`: the default namespace) on this element.
    pub fn resolve_prefix(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some("http://www.w3.org/XML/1998/namespace");
        }
        let found = self
            .scope
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, u)| u.as_str())
            .filter(|u| !u.is_empty() || prefix.is_empty());
        if prefix.is_empty() {
            return Some(found.unwrap_or(""));
        }
        found
    }

    /// Whether the `vc:` attributes of the versioning namespace (conditional inclusion, XSD 1.1
    /// section 4.2.1, which XSD 1.0 processors are encouraged to honour) leave this element
    /// out of a 1.0 schema: `minVersion` above 1.0, `maxVersion` at or below it, a type or
    /// facet in `typeAvailable` / `facetAvailable` that 1.0 lacks, or all of those in
    /// `typeUnavailable` / `facetUnavailable` present.
    pub fn excluded_by_version_control(&self) -> bool {
        const VC: &str = "http://www.w3.org/2007/XMLSchema-versioning";
        const FACETS: [&str; 12] = [
            "length",
            "minLength",
            "maxLength",
            "pattern",
            "enumeration",
            "whiteSpace",
            "maxInclusive",
            "maxExclusive",
            "minInclusive",
            "minExclusive",
            "totalDigits",
            "fractionDigits",
        ];
        let version = |v: &str| v.trim().parse::<f64>().ok();
        // A QName list: each name available in XSD 1.0?
        let available = |names: &str, facets: bool| -> Vec<bool> {
            names
                .split_ascii_whitespace()
                .map(|q| {
                    let (prefix, local) = q.split_once(':').unwrap_or(("", q));
                    let in_xs = self.resolve_prefix(prefix) == Some(crate::model::XSD_NAMESPACE);
                    in_xs
                        && if facets {
                            FACETS.contains(&local)
                        } else {
                            local == "anyType"
                                || crate::datatypes::Builtin::from_name(local).is_some()
                        }
                })
                .collect()
        };
        self.attrs
            .iter()
            .filter(|(ns, _, _)| ns == VC)
            .any(|(_, local, value)| match local.as_str() {
                "minVersion" => version(value).is_some_and(|v| v > 1.0),
                "maxVersion" => version(value).is_some_and(|v| v <= 1.0),
                "typeAvailable" => !available(value, false).iter().all(|&a| a),
                "typeUnavailable" => available(value, false).iter().all(|&a| a),
                "facetAvailable" => !available(value, true).iter().all(|&a| a),
                "facetUnavailable" => available(value, true).iter().all(|&a| a),
                _ => false,
            })
    }

    /// Whether this is `xs:<local>`.
    pub fn is_xs(&self, local: &str) -> bool {
        self.ns == crate::model::XSD_NAMESPACE && self.local == local
    }

    /// Child elements in the XML Schema namespace other than `xs:annotation`.
    pub fn xs_children(&self) -> impl Iterator<Item = &Rc<XNode>> {
        self.children
            .iter()
            .filter(|c| c.ns == crate::model::XSD_NAMESPACE && c.local != "annotation")
    }
}

/// Why a document could not be read: a message, the line and column when known, and the
/// reader's error when it was not well-formed.
pub(crate) type ReadError = (String, Option<(u32, u32)>, Option<xwire::Error>);

/// Reads a schema document.
pub(crate) fn read(bytes: &[u8]) -> Result<Rc<XNode>, ReadError> {
    let mut config = xwire::Config::default();
    config.limits.max_depth = MAX_DEPTH;
    let mut reader = xwire::Reader::with_config(bytes, config);
    let doc = match Document::from_reader(&mut reader) {
        Ok(d) => d,
        Err(e) => {
            let at = e.location();
            let position = Some((at.line as u32, at.column as u32));
            let message = match e.entity() {
                Some(name) => format!("{} (in entity '{name}')", e.kind()),
                None => e.kind().to_string(),
            };
            return Err((message, position, Some(e)));
        }
    };
    let Some(root) = doc.root_element() else {
        return Err(("no root element".into(), None, None));
    };
    let lines = LineIndex::new(bytes);
    let scope = Rc::new(Vec::new());
    Ok(Rc::new(convert(&doc, root, &lines, &scope)))
}

fn convert(
    doc: &Document,
    n: xwire::tree::NodeId,
    lines: &LineIndex,
    parent_scope: &Rc<Vec<(String, String)>>,
) -> XNode {
    let decls: Vec<(String, String)> = doc
        .namespace_declarations(n)
        .map(|(p, u)| (p.to_string(), u.to_string()))
        .collect();
    let scope = if decls.is_empty() {
        parent_scope.clone()
    } else {
        let mut v = (**parent_scope).clone();
        v.extend(decls);
        Rc::new(v)
    };
    let (line, column) = doc
        .offset(n)
        .map(|o| lines.locate(o as usize))
        .unwrap_or((0, 0));
    let mut node = XNode {
        ns: doc.namespace_uri(n).to_string(),
        local: doc.local_name(n).to_string(),
        attrs: doc
            .attributes(n)
            .map(|a| {
                (
                    a.namespace_uri.to_string(),
                    a.local_name.to_string(),
                    a.value.to_string(),
                )
            })
            .collect(),
        children: Vec::new(),
        text: String::new(),
        deep_text: String::new(),
        scope: scope.clone(),
        line,
        column,
    };
    for c in doc.children(n) {
        match doc.kind(c) {
            NodeKind::Element => {
                let child = convert(doc, c, lines, &scope);
                if child.excluded_by_version_control() {
                    continue;
                }
                node.deep_text.push_str(&child.deep_text);
                node.children.push(Rc::new(child));
            }
            NodeKind::Text => {
                node.text.push_str(doc.text(c));
                node.deep_text.push_str(doc.text(c));
            }
            _ => {}
        }
    }
    node
}

/// Byte offsets to 1-based line and column (in characters). Offsets asked in increasing
/// order (document order) cost only the characters between them, also on one long line.
pub(crate) struct LineIndex<'a> {
    bytes: &'a [u8],
    starts: Vec<usize>,
    /// The last answer: byte offset and its 0-based column in characters.
    last: std::cell::Cell<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex {
            bytes,
            starts,
            last: std::cell::Cell::new((0, 0)),
        }
    }

    pub fn locate(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.bytes.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let (last_offset, last_col) = self.last.get();
        let (from, col0) = if last_offset >= start && last_offset <= offset {
            (last_offset, last_col)
        } else {
            (start, 0)
        };
        let col = col0 + chars_in(&self.bytes[from..offset]);
        self.last.set((offset, col));
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(col + 1).unwrap_or(u32::MAX),
        )
    }
}

/// Characters in UTF-8 bytes (bytes that do not continue a sequence).
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}
