//! A namespace-aware document tree in an arena.
//!
//! Nodes live in one `Vec` and are addressed by [`NodeId`]s (no reference counting); their
//! text lives in one string arena and their names are interned once per document. Every
//! element and attribute knows its namespace URI, every node its byte offset in the source.
//!
//! ```
//! use xwire::tree::{Document, NodeKind};
//! let doc = Document::parse(br#"<o:order xmlns:o="urn:o" id="7"><o:item>3 &amp; 4</o:item></o:order>"#)?;
//! let root = doc.root_element().unwrap();
//! assert_eq!((doc.local_name(root), doc.namespace_uri(root)), ("order", "urn:o"));
//! assert_eq!(doc.attribute(root, "", "id"), Some("7"));
//! let item = doc.children(root).next().unwrap();
//! assert_eq!(doc.kind(item), NodeKind::Element);
//! assert_eq!(doc.text_content(item), "3 & 4");
//! # Ok::<(), xwire::Error>(())
//! ```

mod build;
mod nav;
mod write;

use std::ops::Range;

use crate::intern::Interner;

/// A node of a [`Document`]: an index into its arena, valid for that document only.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

pub use crate::node::NodeKind;
pub use nav::Handle;

const NONE: u32 = u32::MAX;

/// A name: local name, namespace URI and prefix as written (ids of `names` and `uris`),
/// kept once per document in `Document::qnames`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Name {
    local: u32,
    uri: u32,
    prefix: u32,
}

#[derive(Clone, Debug)]
struct Node {
    kind: NodeKind,
    parent: u32,
    first_child: u32,
    last_child: u32,
    prev: u32,
    next: u32,
    /// Elements: the name; PIs: `local` is the target (an index of `Document::qnames`).
    name: u32,
    /// Elements: their attributes (a range of `Document::attrs`); text, comment and PI
    /// nodes: their data (a range of the string arena).
    data: (u32, u32),
    /// Byte offset in the source document (0 for nodes made later).
    offset: u64,
}

/// An attribute of an element.
#[derive(Clone, Debug)]
struct Attr {
    /// Index of `Document::qnames`.
    name: u32,
    value: (u32, u32),
}

/// A namespace declaration on an element: (prefix, URI), `""` prefix for the default.
#[derive(Clone, Debug)]
struct Decl {
    prefix: u32,
    uri: u32,
}

/// A parsed document.
pub struct Document {
    nodes: Vec<Node>,
    attrs: Vec<Attr>,
    decls: Vec<Decl>,
    /// The few elements with namespace declarations: (node, range of `decls`), by node.
    decl_ranges: Vec<(u32, u32, u32)>,
    /// Distinct names of the document.
    qnames: Vec<Name>,
    /// Text of text, comment and PI nodes and attribute values.
    text: String,
    /// Local names, prefixes and PI targets.
    names: Interner,
    /// Namespace URIs (`""`: none).
    uris: Interner,
    /// Values of attributes the DTD declares of type ID, to their elements (the first one
    /// wins when a value repeats).
    ids: std::collections::HashMap<Box<str>, NodeId>,
}

/// An attribute as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'d> {
    /// Local name.
    pub local_name: &'d str,
    /// Namespace URI (`""`: none).
    pub namespace_uri: &'d str,
    /// Prefix as written (`""`: none).
    pub prefix: &'d str,
    /// Normalised value.
    pub value: &'d str,
}

impl Document {
    /// Parses a whole document in memory with the default configuration.
    pub fn parse(bytes: &[u8]) -> crate::Result<Document> {
        build::build(&mut crate::Reader::from_slice(bytes))
    }

    /// Builds the tree from a reader positioned at the start of a document (any input and
    /// configuration the reader supports).
    pub fn from_reader(reader: &mut crate::Reader<'_>) -> crate::Result<Document> {
        build::build(reader)
    }

    /// The document node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The root element.
    pub fn root_element(&self) -> Option<NodeId> {
        self.children(self.root())
            .find(|&n| self.kind(n) == NodeKind::Element)
    }

    /// Number of nodes (attributes are not nodes here).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the document has only its document node (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.index()]
    }

    fn link(v: u32) -> Option<NodeId> {
        (v != NONE).then_some(NodeId(v))
    }

    /// What `n` is.
    pub fn kind(&self, n: NodeId) -> NodeKind {
        self.node(n).kind
    }

    /// The parent (`None` for the document node).
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).parent)
    }

    /// The first child.
    pub fn first_child(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).first_child)
    }

    /// The last child.
    pub fn last_child(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).last_child)
    }

    /// The next sibling.
    pub fn next_sibling(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).next)
    }

    /// The previous sibling.
    pub fn prev_sibling(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).prev)
    }

    /// The children of `n`, in order.
    pub fn children(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.first_child(n), move |&c| self.next_sibling(c))
    }

    /// `n` and its descendants in document order.
    pub fn descendants(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut next = Some(n);
        std::iter::from_fn(move || {
            let cur = next?;
            next = self.first_child(cur).or_else(|| {
                let mut up = cur;
                loop {
                    if up == n {
                        return None;
                    }
                    if let Some(s) = self.next_sibling(up) {
                        return Some(s);
                    }
                    up = self.parent(up)?;
                }
            });
            Some(cur)
        })
    }

    fn str_at(&self, (start, end): (u32, u32)) -> &str {
        &self.text[start as usize..end as usize]
    }

    /// Local name of an element, or target of a PI; `""` for other nodes.
    pub fn local_name(&self, n: NodeId) -> &str {
        match self.kind(n) {
            NodeKind::Element | NodeKind::Pi => self.names.get(crate::Id(self.name_of(n).local)),
            _ => "",
        }
    }

    /// Namespace URI of an element (`""`: none).
    pub fn namespace_uri(&self, n: NodeId) -> &str {
        match self.kind(n) {
            NodeKind::Element => self.uris.get(crate::Id(self.name_of(n).uri)),
            _ => "",
        }
    }

    /// Prefix of an element as written (`""`: none).
    pub fn prefix(&self, n: NodeId) -> &str {
        match self.kind(n) {
            NodeKind::Element => self.names.get(crate::Id(self.name_of(n).prefix)),
            _ => "",
        }
    }

    /// Text of a text, comment or PI node (PI data); `""` for elements and the document.
    pub fn text(&self, n: NodeId) -> &str {
        match self.kind(n) {
            NodeKind::Text | NodeKind::Comment | NodeKind::Pi => self.str_at(self.node(n).data),
            _ => "",
        }
    }

    /// Concatenated text of `n` and its descendants (XPath string-value of elements).
    pub fn text_content(&self, n: NodeId) -> String {
        match self.kind(n) {
            NodeKind::Text | NodeKind::Comment | NodeKind::Pi => self.text(n).to_string(),
            _ => self
                .descendants(n)
                .filter(|&d| self.kind(d) == NodeKind::Text)
                .map(|d| self.text(d))
                .collect(),
        }
    }

    /// Attributes of an element, namespace declarations excluded.
    pub fn attributes(&self, n: NodeId) -> impl Iterator<Item = Attribute<'_>> + '_ {
        self.attrs[self.attr_range(n)].iter().map(|a| {
            let name = self.qnames[a.name as usize];
            Attribute {
                local_name: self.names.get(crate::Id(name.local)),
                namespace_uri: self.uris.get(crate::Id(name.uri)),
                prefix: self.names.get(crate::Id(name.prefix)),
                value: self.str_at(a.value),
            }
        })
    }

    /// The value of the attribute `(uri, local)` of an element.
    pub fn attribute(&self, n: NodeId, uri: &str, local: &str) -> Option<&str> {
        self.attributes(n)
            .find(|a| a.local_name == local && a.namespace_uri == uri)
            .map(|a| a.value)
    }

    /// Namespace declarations written on an element: (prefix, URI), `""` for the default.
    pub fn namespace_declarations(&self, n: NodeId) -> impl Iterator<Item = (&str, &str)> + '_ {
        let range = self
            .decl_ranges
            .binary_search_by_key(&n.0, |r| r.0)
            .map_or(0..0, |i| {
                let (_, a, b) = self.decl_ranges[i];
                a as usize..b as usize
            });
        self.decls[range].iter().map(|d| {
            (
                self.names.get(crate::Id(d.prefix)),
                self.uris.get(crate::Id(d.uri)),
            )
        })
    }

    /// The element with an attribute of type ID (declared in the DTD) of value `id`.
    pub fn element_by_id(&self, id: &str) -> Option<NodeId> {
        self.ids.get(id).copied()
    }

    /// Byte offset of the node in the source document.
    pub fn offset(&self, n: NodeId) -> u64 {
        self.node(n).offset
    }

    /// Bytes the tree holds on the heap (nodes, attributes, declarations, text, names).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.attrs.capacity() * std::mem::size_of::<Attr>()
            + self.decls.capacity() * std::mem::size_of::<Decl>()
            + self.decl_ranges.capacity() * 12
            + self.qnames.capacity() * std::mem::size_of::<Name>()
            + self.text.capacity()
            + self.names.heap_bytes()
            + self.uris.heap_bytes()
            + self
                .ids
                .keys()
                .map(|k| k.len() + std::mem::size_of::<(Box<str>, NodeId)>())
                .sum::<usize>()
    }

    /// A range of the text arena, for the builder.
    fn push_text(&mut self, s: &str) -> (u32, u32) {
        let start = self.text.len();
        self.text.push_str(s);
        (start as u32, self.text.len() as u32)
    }

    /// The attribute indices of an element.
    fn attr_range(&self, n: NodeId) -> Range<usize> {
        match self.kind(n) {
            NodeKind::Element => {
                let (a, b) = self.node(n).data;
                a as usize..b as usize
            }
            _ => 0..0,
        }
    }

    /// The name of an element or PI.
    fn name_of(&self, n: NodeId) -> Name {
        self.qnames[self.node(n).name as usize]
    }
}

#[cfg(test)]
mod tests;
