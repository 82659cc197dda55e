//! A namespace-aware, mutable document tree in an arena.
//!
//! Nodes live in one `Vec` and are addressed by [`NodeId`]s (no reference counting); their
//! text lives in one string arena and their names are interned once per document. Every
//! element and attribute knows its namespace URI, every parsed node its byte offset in the
//! source.
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
//!
//! # Editing
//!
//! New nodes are made detached ([`Document::create_element`], [`Document::create_text`],
//! [`Document::create_comment`], [`Document::create_pi`]) and put in place with
//! [`Document::append_child`], [`Document::prepend_child`], [`Document::insert_before`] or
//! [`Document::insert_after`]. [`Document::detach`] takes a subtree out and keeps it for
//! reinsertion (a move is a detach and an insert); [`Document::remove`] drops it. Names,
//! attributes, text and namespace declarations change in place. Every edit checks its
//! arguments and returns an [`EditError`] instead of building something that cannot be
//! written as namespace-well-formed XML.
//!
//! ```
//! use xwire::tree::{Document, EditError};
//! let mut doc = Document::parse(br#"<list xmlns="urn:l"><a/></list>"#)?;
//! let list = doc.root_element().unwrap();
//! let b = doc.create_element("", "b", "urn:l")?;
//! doc.append_child(list, b)?;
//! doc.set_attribute(b, "x", "n", "urn:x", "1")?;
//! let t = doc.create_text("hi")?;
//! doc.append_child(b, t)?;
//! let a = doc.first_child(list).unwrap();
//! doc.detach(a)?;
//! doc.insert_after(b, a)?;
//! // Inserting only takes detached nodes, and never into themselves.
//! assert_eq!(doc.append_child(a, list), Err(EditError::Attached(list)));
//! doc.detach(list)?;
//! assert_eq!(doc.append_child(a, list), Err(EditError::Cycle));
//! doc.append_child(doc.root(), list)?;
//! // The writer declares the prefix `x`, which no declaration in the tree binds.
//! assert_eq!(
//!     doc.to_xml().unwrap(),
//!     r#"<list xmlns="urn:l"><b xmlns:x="urn:x" x:n="1">hi</b><a/></list>"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Node ids across edits
//!
//! Ids of nodes stay valid across edits until the node is removed ([`Document::remove`],
//! [`Document::set_text_content`], [`Document::normalize`]). A removed node's slot is never
//! reused: passing its id to any method panics with a message saying it was removed, like
//! indexing a `Vec` out of bounds, and so does an id from another document that is out of
//! this one's range. Removed nodes and replaced text stay in the arenas until the document is
//! dropped; a document that churns through many edits can be compacted by writing and
//! parsing it again.
//!
//! ## Text nodes
//!
//! Parsing yields maximal text nodes (character data, CDATA sections and entity text merged,
//! never empty), as the XPath data model wants. Edits can leave two text nodes side by side
//! or an empty one; the writer does not mind (their text is written one after the other),
//! but XPath does, so call [`Document::normalize`] before querying an edited tree
//! ([`Document::is_normalized`] says whether it is needed).
//!
//! ## Document order
//!
//! [`Document::cmp_order`] compares two nodes in document order in O(1). Until the first
//! structural edit that is arena order; after one, order stamps are recomputed in one walk
//! by the first comparison that needs them (so `cmp_order` stays a `&self` method and
//! `Document` stays `Sync`). Detached subtrees sort after the document's tree, each in
//! document order, in the order of their roots' ids.
//!
//! ## Namespaces
//!
//! Each element and attribute carries its namespace URI and the prefix it was written
//! with; namespace declarations ([`Document::namespace_declarations`]) are kept as written
//! and edited on their own ([`Document::declare_namespace`]). The names are the truth: when
//! writing ([`Document::write_node`]), a name whose prefix no declaration in scope binds to
//! its URI gets one declared where it is used (namespace fix-up, or another prefix if that
//! one is taken on the tag), and a declaration that would rebind an element's own prefix to
//! another URI is left out. So the output is namespace-well-formed whatever the edits, and
//! reads back with the same expanded names. Declarations are not fixed up in the tree
//! itself: after edits, the in-scope declarations of an element (what XPath's namespace
//! axis shows) need not cover the prefixes its names use.
//!
//! ## Memory
//!
//! A node takes 32 bytes: its kind packed with its name id, four links (parent, first child,
//! previous and next sibling; a first child's previous link holds the last child), a data
//! range (attributes of an element, text of the others) and a 32-bit source offset (larger
//! offsets go to a side table). White-space-only text of the form newlines-then-spaces or
//! newlines-then-tabs (indentation) points into a static table instead of the text arena.
//!
//! ## Names shared with other modules
//!
//! [`NodeId`] and [`Attribute`] share their names with [`binary::NodeId`](crate::binary::NodeId)
//! and the reader's [`xwire::Attribute`](crate::Attribute) on purpose: each document model has
//! its own node id and attribute view, meant to be named module-qualified (`tree::NodeId`), as
//! std has `btree_map::Iter` and `hash_map::Iter`.

mod build;
mod edit;
mod nav;
mod order;
mod write;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use crate::intern::Interner;

pub use edit::EditError;

/// A node of a [`Document`]: an index into its arena, valid for that document only.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index (for an unedited document, also the position in document order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

pub use crate::node::NodeKind;
pub use nav::Handle;

const NONE: u32 = u32::MAX;

// Storage kinds, in the top three bits of `Node::tag`.
const K_DOCUMENT: u32 = 0;
const K_ELEMENT: u32 = 1;
/// Text in the text arena.
const K_TEXT: u32 = 2;
const K_COMMENT: u32 = 3;
const K_PI: u32 = 4;
/// Text in `WS_SPACES`.
const K_WS_SPACES: u32 = 5;
/// Text in `WS_TABS`.
const K_WS_TABS: u32 = 6;
/// A removed node.
const K_FREE: u32 = 7;
const KIND_SHIFT: u32 = 29;
const NAME_MASK: u32 = (1 << KIND_SHIFT) - 1;
/// Distinct names a document can hold (the name id shares a word with the kind).
const MAX_QNAMES: usize = 1 << KIND_SHIFT;
/// The public kind of each storage kind.
const KINDS: [NodeKind; 8] = [
    NodeKind::Document,
    NodeKind::Element,
    NodeKind::Text,
    NodeKind::Comment,
    NodeKind::Pi,
    NodeKind::Text,
    NodeKind::Text,
    NodeKind::Document,
];

/// `Node::offset` of a node made by an edit.
const OFF_NONE: u32 = u32::MAX;
/// `Node::offset` of a node whose offset is in `Document::big_offsets`.
const OFF_BIG: u32 = u32::MAX - 1;

/// Sixteen newlines then 240 spaces: white space of the form newlines-then-spaces is a slice.
const WS_SPACES: &str = concat!(
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "                                                                                ",
    "                                                                                ",
    "                                                                                "
);
/// Sixteen newlines then 48 tabs.
const WS_TABS: &str = concat!(
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
    "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
    "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
);
const WS_NEWLINES: usize = 16;

/// Where `s` sits in a white-space table: (storage kind, range), if it is up to sixteen
/// newlines followed by only spaces or only tabs (that fit the table), and not empty.
#[inline]
fn inline_ws(s: &str) -> Option<(u32, (u32, u32))> {
    let b = s.as_bytes();
    let nl = b.iter().take_while(|&&c| c == b'\n').count();
    let rest = &b[nl..];
    if b.is_empty() || nl > WS_NEWLINES {
        return None;
    }
    let (kind, fill, table) = match rest.first() {
        None | Some(b' ') => (K_WS_SPACES, b' ', WS_SPACES),
        Some(b'\t') => (K_WS_TABS, b'\t', WS_TABS),
        _ => return None,
    };
    if rest.len() > table.len() - WS_NEWLINES || rest.iter().any(|&c| c != fill) {
        return None;
    }
    Some((
        kind,
        ((WS_NEWLINES - nl) as u32, (WS_NEWLINES + rest.len()) as u32),
    ))
}

/// A name: local name, namespace URI and prefix as written (ids of `names` and `uris`),
/// kept once per document in `Document::qnames`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Name {
    local: u32,
    uri: u32,
    prefix: u32,
}

/// One node, 32 bytes.
#[derive(Clone, Debug)]
struct Node {
    /// Storage kind (`K_*`, top three bits) and, for elements and PIs, the name: an index of
    /// `Document::qnames` (the PI target is its `local`).
    tag: u32,
    parent: u32,
    first_child: u32,
    /// The previous sibling; for a first child, the last child of its parent (so the last
    /// child is one step from the parent and needs no field of its own). `NONE` for nodes
    /// without a parent.
    prev: u32,
    next: u32,
    /// Elements: their attributes (a range of `Document::attrs`); text, comment and PI
    /// nodes: their data (a range of the text arena, or of a white-space table).
    data: (u32, u32),
    /// Byte offset in the source document, or `OFF_NONE` / `OFF_BIG`.
    offset: u32,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

impl Node {
    fn new(kind: u32, name: u32, data: (u32, u32), offset: u32) -> Node {
        Node {
            tag: kind << KIND_SHIFT | name,
            parent: NONE,
            first_child: NONE,
            prev: NONE,
            next: NONE,
            data,
            offset,
        }
    }

    #[inline]
    fn kind(&self) -> u32 {
        self.tag >> KIND_SHIFT
    }

    #[inline]
    fn name(&self) -> u32 {
        self.tag & NAME_MASK
    }

    fn is_text(&self) -> bool {
        matches!(self.kind(), K_TEXT | K_WS_SPACES | K_WS_TABS)
    }
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

/// A document: parsed ([`Document::parse`]) or built from scratch ([`Document::new`]), and
/// edited in place (see the [module docs](self)).
#[derive(Clone)]
pub struct Document {
    nodes: Vec<Node>,
    attrs: Vec<Attr>,
    decls: Vec<Decl>,
    /// The few elements with namespace declarations: (node, range of `decls`), by node.
    decl_ranges: Vec<(u32, u32, u32)>,
    /// Distinct names of the document.
    qnames: Vec<Name>,
    /// The index of each name of `qnames`.
    qname_ids: HashMap<Name, u32>,
    /// Text of text, comment and PI nodes and attribute values.
    text: String,
    /// Local names, prefixes and PI targets.
    names: Interner,
    /// Namespace URIs (`""`: none).
    uris: Interner,
    /// Values of attributes the DTD declares of type ID, to their elements (the first one
    /// wins when a value repeats).
    ids: std::collections::HashMap<Box<str>, NodeId>,
    /// Source offsets of 4 GiB and more: (node, offset), by node.
    big_offsets: Vec<(u32, u64)>,
    /// Whether the tree changed shape since it was parsed (arena order is no longer
    /// document order).
    edited: bool,
    /// Document order stamps by arena index, computed by the first `cmp_order` after an edit.
    order: OnceLock<Vec<u32>>,
    /// No edit has left adjacent or empty text nodes since parsing or `normalize`.
    normalized: bool,
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

impl Default for Document {
    fn default() -> Document {
        Document::new()
    }
}

impl Document {
    /// A document with only its document node, to build with the editing methods.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::new();
    /// let root = doc.create_element("", "greeting", "")?;
    /// doc.append_child(doc.root(), root)?;
    /// doc.set_text_content(root, "hello")?;
    /// assert_eq!(doc.to_xml().unwrap(), "<greeting>hello</greeting>");
    /// # Ok::<(), xwire::tree::EditError>(())
    /// ```
    pub fn new() -> Document {
        let mut doc = Document {
            nodes: Vec::new(),
            attrs: Vec::new(),
            decls: Vec::new(),
            decl_ranges: Vec::new(),
            qnames: Vec::new(),
            qname_ids: HashMap::new(),
            text: String::new(),
            names: Interner::with_capacity(64, 256),
            uris: Interner::with_capacity(16, 128),
            big_offsets: Vec::new(),
            edited: false,
            order: OnceLock::new(),
            normalized: true,
            ids: HashMap::new(),
        };
        // Id 0 of both interners is "": no name, no prefix, no namespace; qname 0 is all three.
        doc.qname_id("", "", "");
        doc.nodes.push(Node::new(K_DOCUMENT, 0, (0, 0), OFF_NONE));
        doc
    }

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

    /// Number of slots in the node arena: nodes in the tree, detached nodes, and removed
    /// nodes (whose slots are not reused). Attributes are not nodes here.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the document has only its document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The node `n`; panics if `n` was removed or belongs to no document this size.
    #[inline]
    #[track_caller]
    fn node(&self, n: NodeId) -> &Node {
        match self.nodes.get(n.index()) {
            Some(node) if node.kind() != K_FREE => node,
            _ => self.invalid(n),
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn invalid(&self, n: NodeId) -> ! {
        if n.index() < self.nodes.len() {
            panic!("{n:?} was removed from the document")
        }
        panic!(
            "{n:?} is not a node of this document ({} nodes)",
            self.nodes.len()
        )
    }

    #[inline]
    fn link(v: u32) -> Option<NodeId> {
        (v != NONE).then_some(NodeId(v))
    }

    /// What `n` is (never `Attribute` or `Namespace`).
    ///
    /// # Panics
    ///
    /// This and every other method taking a [`NodeId`] panics if the node was removed (see
    /// the [module docs](self#node-ids-across-edits)).
    #[track_caller]
    pub fn kind(&self, n: NodeId) -> NodeKind {
        KINDS[self.node(n).kind() as usize]
    }

    /// The parent (`None` for the document node and detached nodes).
    #[track_caller]
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).parent)
    }

    /// The first child.
    #[track_caller]
    pub fn first_child(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).first_child)
    }

    /// The last child.
    #[track_caller]
    pub fn last_child(&self, n: NodeId) -> Option<NodeId> {
        let first = self.node(n).first_child;
        (first != NONE).then(|| NodeId(self.nodes[first as usize].prev))
    }

    /// The next sibling.
    #[track_caller]
    pub fn next_sibling(&self, n: NodeId) -> Option<NodeId> {
        Self::link(self.node(n).next)
    }

    /// The previous sibling.
    #[track_caller]
    pub fn prev_sibling(&self, n: NodeId) -> Option<NodeId> {
        let node = self.node(n);
        if node.parent == NONE || self.nodes[node.parent as usize].first_child == n.0 {
            return None;
        }
        Some(NodeId(node.prev))
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
            next = self.following_in(n, cur);
            Some(cur)
        })
    }

    /// The node after `cur` in document order within the subtree of `top`.
    fn following_in(&self, top: NodeId, cur: NodeId) -> Option<NodeId> {
        self.first_child(cur).or_else(|| {
            let mut up = cur;
            loop {
                if up == top {
                    return None;
                }
                if let Some(s) = self.next_sibling(up) {
                    return Some(s);
                }
                up = self.parent(up)?;
            }
        })
    }

    fn str_at(&self, (start, end): (u32, u32)) -> &str {
        &self.text[start as usize..end as usize]
    }

    /// Local name of an element, or target of a PI; `""` for other nodes.
    #[track_caller]
    pub fn local_name(&self, n: NodeId) -> &str {
        let node = self.node(n);
        match node.kind() {
            K_ELEMENT | K_PI => self
                .names
                .get(crate::Id(self.qnames[node.name() as usize].local)),
            _ => "",
        }
    }

    /// Namespace URI of an element (`""`: none).
    #[track_caller]
    pub fn namespace_uri(&self, n: NodeId) -> &str {
        let node = self.node(n);
        match node.kind() {
            K_ELEMENT => self
                .uris
                .get(crate::Id(self.qnames[node.name() as usize].uri)),
            _ => "",
        }
    }

    /// Prefix of an element as written (`""`: none).
    #[track_caller]
    pub fn prefix(&self, n: NodeId) -> &str {
        let node = self.node(n);
        match node.kind() {
            K_ELEMENT => self
                .names
                .get(crate::Id(self.qnames[node.name() as usize].prefix)),
            _ => "",
        }
    }

    /// Text of a text, comment or PI node (PI data); `""` for elements and the document.
    #[track_caller]
    pub fn text(&self, n: NodeId) -> &str {
        let node = self.node(n);
        let (a, b) = (node.data.0 as usize, node.data.1 as usize);
        match node.kind() {
            K_TEXT | K_COMMENT | K_PI => &self.text[a..b],
            K_WS_SPACES => &WS_SPACES[a..b],
            K_WS_TABS => &WS_TABS[a..b],
            _ => "",
        }
    }

    /// Concatenated text of `n` and its descendants (XPath string-value of elements).
    #[track_caller]
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

    /// Attributes of an element, namespace declarations excluded, in a stable order (as
    /// parsed; a replaced attribute keeps its place, a new one comes last).
    #[track_caller]
    pub fn attributes(&self, n: NodeId) -> impl Iterator<Item = Attribute<'_>> + '_ {
        self.attr_range(n).map(|i| self.attr_at(i))
    }

    /// The value of the attribute `(uri, local)` of an element.
    #[track_caller]
    pub fn attribute(&self, n: NodeId, uri: &str, local: &str) -> Option<&str> {
        self.attributes(n)
            .find(|a| a.local_name == local && a.namespace_uri == uri)
            .map(|a| a.value)
    }

    /// Namespace declarations written on an element: (prefix, URI), `""` for the default.
    #[track_caller]
    pub fn namespace_declarations(&self, n: NodeId) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.decls[self.decl_indices(n)].iter().map(|d| {
            (
                self.names.get(crate::Id(d.prefix)),
                self.uris.get(crate::Id(d.uri)),
            )
        })
    }

    /// Indices of `decls` holding the declarations written on `n`.
    pub(crate) fn decl_indices(&self, n: NodeId) -> Range<usize> {
        self.node(n);
        self.decl_slot(n).map_or(0..0, |i| {
            let (_, a, b) = self.decl_ranges[i];
            a as usize..b as usize
        })
    }

    /// The element with an attribute of type ID (declared in the DTD) of value `id`, as
    /// parsed: `None` once that element is removed or detached (edits do not add IDs).
    pub fn element_by_id(&self, id: &str) -> Option<NodeId> {
        let n = *self.ids.get(id)?;
        (self.nodes[n.index()].kind() != K_FREE && self.is_attached(n)).then_some(n)
    }

    /// Byte offset of the node in the source document; `None` for the document node and
    /// for nodes made by edits (a renamed or retexted node keeps its offset).
    #[track_caller]
    pub fn offset(&self, n: NodeId) -> Option<u64> {
        match self.node(n).offset {
            OFF_NONE => None,
            OFF_BIG => self
                .big_offsets
                .binary_search_by_key(&n.0, |b| b.0)
                .ok()
                .map(|i| self.big_offsets[i].1),
            o => Some(o as u64),
        }
    }

    /// Bytes the tree holds on the heap (nodes, attributes, declarations, text, names, order
    /// stamps once computed).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + self.attrs.capacity() * size_of::<Attr>()
            + self.decls.capacity() * size_of::<Decl>()
            + self.decl_ranges.capacity() * size_of::<(u32, u32, u32)>()
            + self.qnames.capacity() * size_of::<Name>()
            // A swiss table: about 8/7 buckets per entry and a control byte each.
            + self.qname_ids.capacity() * 8 / 7 * (size_of::<(Name, u32)>() + 1)
            + self.text.capacity()
            + self.names.heap_bytes()
            + self.uris.heap_bytes()
            + self
                .ids
                .keys()
                .map(|k| k.len() + std::mem::size_of::<(Box<str>, NodeId)>())
                .sum::<usize>()
            + self.big_offsets.capacity() * size_of::<(u32, u64)>()
            + self.order.get().map_or(0, |o| o.capacity() * size_of::<u32>())
    }

    /// The attribute indices of an element (empty for other nodes): positions of
    /// [`Document::attr_at`], in the order of [`Document::attributes`]. Valid until the next
    /// edit of the element's attributes.
    #[track_caller]
    pub(crate) fn attr_range(&self, n: NodeId) -> Range<usize> {
        let node = self.node(n);
        match node.kind() {
            K_ELEMENT => node.data.0 as usize..node.data.1 as usize,
            _ => 0..0,
        }
    }

    /// The attribute at index `i` (from [`Document::attr_range`]).
    pub(crate) fn attr_at(&self, i: usize) -> Attribute<'_> {
        let a = &self.attrs[i];
        let name = self.qnames[a.name as usize];
        Attribute {
            local_name: self.names.get(crate::Id(name.local)),
            namespace_uri: self.uris.get(crate::Id(name.uri)),
            prefix: self.names.get(crate::Id(name.prefix)),
            value: self.str_at(a.value),
        }
    }

    /// The index of `n`'s entry in `decl_ranges`.
    fn decl_slot(&self, n: NodeId) -> Option<usize> {
        self.decl_ranges.binary_search_by_key(&n.0, |r| r.0).ok()
    }

    /// A range of the text arena.
    fn push_text(&mut self, s: &str) -> (u32, u32) {
        let start = self.text.len();
        self.text.push_str(s);
        (start as u32, self.text.len() as u32)
    }

    /// The id of a name, added to `qnames` on first sight.
    fn qname_id(&mut self, local: &str, uri: &str, prefix: &str) -> u32 {
        let name = Name {
            local: self.names.intern(local).0,
            uri: self.uris.intern(uri).0,
            prefix: self.names.intern(prefix).0,
        };
        *self.qname_ids.entry(name).or_insert_with(|| {
            self.qnames.push(name);
            self.qnames.len() as u32 - 1
        })
    }
}

#[cfg(test)]
mod edit_tests;
#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
