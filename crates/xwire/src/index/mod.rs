//! A non-extractive token index (VTD-style): the document stays the caller's bytes, and the
//! index is a few arrays of small integers that say where every node is in them.
//!
//! [`Index::parse`] reads a document once with the [`Reader`](crate::Reader) and records,
//! for every node in document order (the document, each element followed by its attributes,
//! then its children), a descriptor: offset and length in the input, kind, flags and depth,
//! plus the parent and next-sibling links navigation needs and the namespace of element and
//! attribute names. No name or value is copied: [`Index::local_name`] is a slice of the input,
//! and [`Index::text`], [`Index::value`] and [`Index::string_value`] borrow it too unless the
//! node holds references, CDATA sections or carriage returns, which are then resolved on
//! demand.
//!
//! ```
//! use xwire::index::Index;
//!
//! let xml = br#"<po:order xmlns:po="urn:po" id="7"><po:item>a &amp; b</po:item><!--x--></po:order>"#;
//! let ix = Index::parse(xml)?;
//! let order = ix.root_element().unwrap();
//! assert_eq!(ix.local_name(order), "order");
//! assert_eq!(ix.namespace_uri(order), "urn:po");
//! assert_eq!(ix.attribute(order, "", "id").as_deref(), Some("7"));
//! let item = ix.first_child(order).unwrap();
//! assert_eq!(ix.string_value(item), "a & b");
//! assert_eq!(ix.offset(item), 35); // where `<po:item` starts in `xml`
//! # Ok::<(), xwire::Error>(())
//! ```
//!
//! The index also implements [`xpath::Navigator`](crate::xpath::Navigator), records edits as
//! byte splices ([`Index::edit`]) and saves its arrays beside the document
//! ([`Index::save`], [`Index::load`]) so a large document need not be parsed again.
//!
//! What it cannot describe, it rejects with [`ErrorKind::Unsupported`]: input that is not
//! UTF-8 (the index addresses the caller's bytes, and transcoding would copy them), and
//! references to entities whose replacement text holds markup (their nodes are not in the
//! document's bytes). Text entities declared in the DTD, attribute defaults and attribute
//! types are supported: the few values they change are kept beside the arrays. Offsets are
//! 32-bit: documents over 4 GiB are rejected with [`LimitKind::TreeSize`].
//!
//! Layout, per node (struct of arrays, 24 bytes a node):
//!
//! | array    | element            | attribute              | text            | comment, PI  |
//! |----------|--------------------|------------------------|-----------------|--------------|
//! | `off`    | qualified name     | qualified name         | first byte      | body, target |
//! | `len`    | its length         | its length             | bytes up to the end of the last merged piece | body length |
//! | `info`   | kind, flags, depth | kind, flags, depth     | kind, flags, depth | kind, flags, depth |
//! | `parent` | parent             | element                | parent          | parent       |
//! | `next`   | next sibling       | next attribute         | next sibling    | next sibling |
//! | `aux`    | namespace URI id   | namespace URI id       | –               | –            |
//!
//! Side tables: namespace declarations (owner element, prefix span, URI id), the distinct
//! namespace URIs, and the values the DTD changed (defaulted attributes, text with declared
//! entities) in one string.
//!
//! [`Children`] and [`Attributes`] share their names with
//! [`binary::Children`](crate::binary::Children) and the reader's
//! [`xwire::Attributes`](crate::Attributes) on purpose: each is the iterator of its own model,
//! meant to be named module-qualified (`index::Children`), as std has `btree_map::Iter` and
//! `hash_map::Iter`.

use std::borrow::Cow;
use std::ops::Range;

use crate::error::{Error, ErrorKind, LimitKind, Location};
use crate::{Config, ReaderBuffers};

mod build;
mod edit;
mod nav;
mod save;
mod text;

#[cfg(test)]
mod tests;

pub use edit::{Editor, SpliceError};
pub use nav::{Attributes, Children, Descendants};
pub use save::LoadError;

pub use crate::node::NodeKind;

/// "No node" in the link arrays.
const NONE: u32 = u32::MAX;

// Kinds, in the low 3 bits of `info`.
const K_DOCUMENT: u32 = 0;
const K_ELEMENT: u32 = 1;
const K_ATTRIBUTE: u32 = 2;
const K_TEXT: u32 = 3;
const K_COMMENT: u32 = 4;
const K_PI: u32 = 5;

// Flags, in bits 3..8 of `info`; their meaning depends on the kind.
/// Element: written as an empty-element tag (`<a/>`).
const F_EMPTY: u32 = 1;
/// Attribute: the value needs normalisation (references, white space); text: references or
/// carriage returns; comment and PI: carriage returns.
const F_ESC: u32 = 1;
/// Text: holds CDATA sections (their markup is inside the node's bytes).
const F_CDATA: u32 = 2;
/// Attribute or text: the value is kept in `extra_text` (the DTD changed it).
const F_EXTRA: u32 = 8;
/// Attribute: defaulted from the DTD; its name is in `extra_text` too.
const F_DEFAULTED: u32 = 16;

const FLAG_SHIFT: u32 = 3;
const DEPTH_SHIFT: u32 = 8;
/// Deepest depth `info` can hold.
const MAX_DEPTH: u32 = (1 << 24) - 1;

/// A node of an [`Index`]: a descriptor, or a namespace node (an element and one of the
/// prefixes in scope on it). Small and `Copy`; valid for the index that gave it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct NodeRef {
    node: u32,
    /// 0: the descriptor `node`; 1: the `xml` namespace node of element `node`; `d + 2`:
    /// the namespace node for declaration `d` on element `node` or one of its ancestors.
    ns: u32,
}

impl NodeRef {
    const fn at(node: u32) -> NodeRef {
        NodeRef { node, ns: 0 }
    }

    /// The descriptor index: the position of the node in document order among the
    /// document, elements, attributes, text, comments and PIs (namespace nodes give their
    /// element's).
    pub fn index(self) -> usize {
        self.node as usize
    }

    /// Whether this is a namespace node.
    pub fn is_namespace(self) -> bool {
        self.ns != 0
    }
}

/// A namespace declaration: `xmlns:prefix="uri"` or `xmlns="uri"` on `owner`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decl {
    owner: u32,
    /// Prefix span in the document, or in `extra_text` when `in_extra` (a declaration
    /// defaulted from the DTD). Empty for the default namespace.
    prefix: u32,
    prefix_len: u32,
    /// Namespace URI id; 0 (`""`) undeclares the default namespace.
    uri: u32,
    in_extra: bool,
}

/// A value the DTD changed, kept as a string: the node, its name (defaulted attributes) and
/// value spans in `extra_text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extra {
    node: u32,
    name: u32,
    name_len: u32,
    value: u32,
    value_len: u32,
}

/// A non-extractive index of an XML document held in memory. See the [module
/// documentation](self).
///
/// Methods taking a [`NodeRef`] expect one of this index; another index's handle may panic or
/// give another node.
pub struct Index<'a> {
    doc: &'a [u8],
    namespaces: bool,
    off: Vec<u32>,
    len: Vec<u32>,
    info: Vec<u32>,
    parent: Vec<u32>,
    next: Vec<u32>,
    aux: Vec<u32>,
    decls: Vec<Decl>,
    uri_spans: Vec<(u32, u32)>,
    uri_text: String,
    extras: Vec<Extra>,
    extra_text: String,
    // Reused while building.
    scratch: build::Scratch,
    reader: Option<ReaderBuffers>,
}

impl Default for Index<'_> {
    fn default() -> Self {
        Index::new()
    }
}

impl std::fmt::Debug for Index<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("document_bytes", &self.doc.len())
            .field("nodes", &self.off.len())
            .field("namespace_declarations", &self.decls.len())
            .finish()
    }
}

impl<'a> Index<'a> {
    /// An index of the empty document: only the document node. Fill it with
    /// [`Index::parse_into`].
    pub fn new() -> Index<'a> {
        let mut ix = Index {
            doc: &[],
            namespaces: true,
            off: Vec::new(),
            len: Vec::new(),
            info: Vec::new(),
            parent: Vec::new(),
            next: Vec::new(),
            aux: Vec::new(),
            decls: Vec::new(),
            uri_spans: Vec::new(),
            uri_text: String::new(),
            extras: Vec::new(),
            extra_text: String::new(),
            scratch: build::Scratch::default(),
            reader: None,
        };
        ix.reset(&[]);
        ix
    }

    /// Indexes a UTF-8 document with the default [`Config`].
    ///
    /// ```
    /// let ix = xwire::index::Index::parse(b"<a><b/>text</a>")?;
    /// assert_eq!(ix.len(), 4); // document, a, b, text
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn parse(doc: &'a [u8]) -> crate::Result<Index<'a>> {
        Index::parse_with(doc, &Config::default())
    }

    /// Indexes a UTF-8 document with a configuration (limits, namespace processing). The
    /// arrays are trimmed to size (an index to be reused for other documents keeps its
    /// growth room: see [`Index::parse_into`]).
    pub fn parse_with(doc: &'a [u8], config: &Config) -> crate::Result<Index<'a>> {
        let mut ix = Index::new();
        ix.parse_into_with(doc, config)?;
        ix.shrink_to_fit();
        Ok(ix)
    }

    /// Indexes another document in this index, reusing every allocation (the reader's too):
    /// once warm, indexing a document of the same shape allocates nothing. On error the
    /// index describes the empty document.
    ///
    /// ```
    /// let (a, b) = (b"<a x='1'/>".to_vec(), b"<b y='2'/>".to_vec());
    /// let mut ix = xwire::index::Index::new();
    /// for doc in [&a, &b] {
    ///     ix.parse_into(doc)?;
    ///     assert_eq!(ix.len(), 3);
    /// }
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn parse_into(&mut self, doc: &'a [u8]) -> crate::Result<()> {
        self.parse_into_with(doc, &Config::default())
    }

    /// [`Index::parse_into`] with a configuration.
    pub fn parse_into_with(&mut self, doc: &'a [u8], config: &Config) -> crate::Result<()> {
        let r = build::build(self, doc, config);
        if r.is_err() {
            self.reset(&[]);
        }
        r
    }

    /// Empties the index for a document of another lifetime, keeping its allocations (for
    /// [`Index::parse_into`] in a loop over documents that do not outlive the index).
    ///
    /// ```
    /// let mut ix = xwire::index::Index::new();
    /// for n in 0..3 {
    ///     let doc = format!("<a n='{n}'/>");
    ///     let mut cur = ix.reuse();
    ///     cur.parse_into(doc.as_bytes())?;
    ///     assert_eq!(cur.string_value(cur.first_attribute(cur.root_element().unwrap()).unwrap()), n.to_string());
    ///     ix = cur.reuse();
    /// }
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn reuse<'b>(self) -> Index<'b> {
        let mut ix = Index {
            doc: &[],
            namespaces: self.namespaces,
            off: self.off,
            len: self.len,
            info: self.info,
            parent: self.parent,
            next: self.next,
            aux: self.aux,
            decls: self.decls,
            uri_spans: self.uri_spans,
            uri_text: self.uri_text,
            extras: self.extras,
            extra_text: self.extra_text,
            scratch: self.scratch,
            reader: self.reader,
        };
        ix.reset(&[]);
        ix
    }

    /// Clears every table and adds the document node for `doc`.
    fn reset(&mut self, doc: &'a [u8]) {
        self.doc = doc;
        self.off.clear();
        self.len.clear();
        self.info.clear();
        self.parent.clear();
        self.next.clear();
        self.aux.clear();
        self.decls.clear();
        self.uri_spans.clear();
        self.uri_text.clear();
        self.extras.clear();
        self.extra_text.clear();
        self.off.push(0);
        self.len.push(doc.len().min(u32::MAX as usize) as u32);
        self.info.push(K_DOCUMENT);
        self.parent.push(NONE);
        self.next.push(NONE);
        self.aux.push(0);
        self.uri_spans.push((0, 0));
    }

    // ----- the document ---------------------------------------------------------------------

    /// The indexed document's bytes.
    pub fn document(&self) -> &'a [u8] {
        self.doc
    }

    /// Number of descriptors: the document node, elements, attributes, text, comments, PIs
    /// (namespace nodes are not counted: they are synthetic).
    pub fn len(&self) -> usize {
        self.off.len()
    }

    /// Whether the index holds only the document node (nothing indexed yet, or the last
    /// parse failed).
    pub fn is_empty(&self) -> bool {
        self.off.len() <= 1
    }

    /// The node with descriptor index `i` (see [`NodeRef::index`]).
    pub fn node(&self, i: usize) -> Option<NodeRef> {
        (i < self.off.len()).then(|| NodeRef::at(i as u32))
    }

    /// The document node.
    pub fn root(&self) -> NodeRef {
        NodeRef::at(0)
    }

    /// The root element.
    pub fn root_element(&self) -> Option<NodeRef> {
        self.children(self.root())
            .find(|&c| self.kind(c) == NodeKind::Element)
    }

    /// Heap bytes held by the index (its arrays and side tables, not the document, not the
    /// reader buffers kept for reuse).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        (self.off.capacity()
            + self.len.capacity()
            + self.info.capacity()
            + self.parent.capacity()
            + self.next.capacity()
            + self.aux.capacity())
            * size_of::<u32>()
            + self.decls.capacity() * size_of::<Decl>()
            + self.uri_spans.capacity() * size_of::<(u32, u32)>()
            + self.uri_text.capacity()
            + self.extras.capacity() * size_of::<Extra>()
            + self.extra_text.capacity()
    }

    /// Gives back growth slack of the arrays (after indexing a document that will be kept).
    pub fn shrink_to_fit(&mut self) {
        self.off.shrink_to_fit();
        self.len.shrink_to_fit();
        self.info.shrink_to_fit();
        self.parent.shrink_to_fit();
        self.next.shrink_to_fit();
        self.aux.shrink_to_fit();
        self.decls.shrink_to_fit();
        self.extras.shrink_to_fit();
    }

    // ----- descriptors ----------------------------------------------------------------------

    #[inline]
    fn k(&self, i: u32) -> u32 {
        self.info[i as usize] & 7
    }

    #[inline]
    fn flags(&self, i: u32) -> u32 {
        (self.info[i as usize] >> FLAG_SHIFT) & 31
    }

    /// The document's bytes `a..b` as text (`""` if out of range or not UTF-8, which only a
    /// loaded index that lies about its document could ask for).
    #[inline]
    fn str_at(&self, a: usize, b: usize) -> &'a str {
        let doc: &'a [u8] = self.doc;
        doc.get(a..b)
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    #[inline]
    fn bytes_at(&self, a: usize, b: usize) -> &'a [u8] {
        let doc: &'a [u8] = self.doc;
        doc.get(a..b).unwrap_or(&[])
    }

    /// The descriptor's span `off..off + len`.
    #[inline]
    fn span_of(&self, i: u32) -> (usize, usize) {
        let a = self.off[i as usize] as usize;
        (a, a + self.len[i as usize] as usize)
    }

    fn extra(&self, i: u32) -> Option<&Extra> {
        let k = self.extras.binary_search_by_key(&i, |e| e.node).ok()?;
        self.extras.get(k)
    }

    fn extra_str(&self, start: u32, len: u32) -> &str {
        let a = start as usize;
        self.extra_text.get(a..a + len as usize).unwrap_or("")
    }

    fn uri(&self, id: u32) -> &str {
        match self.uri_spans.get(id as usize) {
            Some(&(a, l)) => self
                .uri_text
                .get(a as usize..(a + l) as usize)
                .unwrap_or(""),
            None => "",
        }
    }

    /// The qualified name as bytes: of an element, an attribute, or the target of a PI.
    fn qname_bytes(&self, i: u32) -> &[u8] {
        match self.k(i) {
            K_ELEMENT => {
                let (a, b) = self.span_of(i);
                self.bytes_at(a, b)
            }
            K_ATTRIBUTE if self.flags(i) & F_DEFAULTED != 0 => match self.extra(i) {
                Some(e) => self.extra_str(e.name, e.name_len).as_bytes(),
                None => &[],
            },
            K_ATTRIBUTE => {
                let (a, b) = self.span_of(i);
                self.bytes_at(a, b)
            }
            K_PI => {
                let (a, b) = self.span_of(i);
                let t = text::name_end(self.doc, a, b);
                self.bytes_at(a, t)
            }
            _ => &[],
        }
    }

    /// Length of the prefix of a qualified name (0: none).
    #[inline]
    fn prefix_len(&self, qname: &[u8]) -> usize {
        if !self.namespaces {
            return 0;
        }
        memchr::memchr(b':', qname).unwrap_or(0)
    }

    // ----- node properties ------------------------------------------------------------------

    /// What `n` is.
    pub fn kind(&self, n: NodeRef) -> NodeKind {
        if n.ns != 0 {
            return NodeKind::Namespace;
        }
        match self.k(n.node) {
            K_DOCUMENT => NodeKind::Document,
            K_ELEMENT => NodeKind::Element,
            K_ATTRIBUTE => NodeKind::Attribute,
            K_TEXT => NodeKind::Text,
            K_COMMENT => NodeKind::Comment,
            _ => NodeKind::Pi,
        }
    }

    /// Nesting depth: 0 for the document, 1 for the root element (and nodes beside it),
    /// one more than its parent for every other node (attributes and namespace nodes too).
    pub fn depth(&self, n: NodeRef) -> u32 {
        let d = self.info[n.node as usize] >> DEPTH_SHIFT;
        if n.ns != 0 {
            d + 1
        } else {
            d
        }
    }

    /// Byte offset in the document where the node starts: the `<` of an element, comment,
    /// PI (or CDATA section), the name of an attribute, the first byte of text. The
    /// document node, attributes defaulted from the DTD and namespace nodes give the offset
    /// of their element (0 for the document).
    pub fn offset(&self, n: NodeRef) -> u64 {
        if n.ns != 0 {
            return self.offset(NodeRef::at(n.node));
        }
        let i = n.node;
        let off = self.off[i as usize] as u64;
        match self.k(i) {
            K_DOCUMENT => 0,
            K_ELEMENT => off.saturating_sub(1),
            K_ATTRIBUTE if self.flags(i) & F_DEFAULTED != 0 => {
                self.offset(NodeRef::at(self.parent[i as usize]))
            }
            K_COMMENT => off.saturating_sub(4),
            K_PI => off.saturating_sub(2),
            _ => off,
        }
    }

    /// The bytes of the whole node in the document: an element from `<` to the end of its
    /// end tag, an attribute from its name to the closing quote, a comment or PI with its
    /// delimiters, text with any CDATA markup; the whole document for the document node.
    /// Empty (at the element) for namespace nodes and defaulted attributes.
    pub fn span(&self, n: NodeRef) -> Range<usize> {
        if n.ns != 0 {
            let at = self.offset(n) as usize;
            return at..at;
        }
        let (a, b) = self.range(n.node);
        if self.k(n.node) == K_ATTRIBUTE && a < b {
            // `range` starts at the white space before the name.
            return self.off[n.node as usize] as usize..b;
        }
        a..b
    }

    /// The qualified name as written: of an element or attribute, the target of a PI, the
    /// prefix of a namespace node; `""` for other nodes.
    pub fn name(&self, n: NodeRef) -> &str {
        if n.ns != 0 {
            return self.ns_prefix(n);
        }
        std::str::from_utf8(self.qname_bytes(n.node)).unwrap_or("")
    }

    /// Local name of an element or attribute, target of a PI, prefix of a namespace node
    /// (`""` for the default namespace); `""` for other nodes.
    pub fn local_name(&self, n: NodeRef) -> &str {
        let q = self.name(n);
        if n.ns != 0 || self.k(n.node) == K_PI {
            return q;
        }
        let p = self.prefix_len(q.as_bytes());
        if p > 0 {
            &q[p + 1..]
        } else {
            q
        }
    }

    /// Prefix of an element or attribute name (`""`: none); `""` for other nodes.
    pub fn prefix(&self, n: NodeRef) -> &str {
        if n.ns != 0 || !matches!(self.k(n.node), K_ELEMENT | K_ATTRIBUTE) {
            return "";
        }
        let q = self.name(n);
        &q[..self.prefix_len(q.as_bytes())]
    }

    /// Namespace URI of an element or attribute (`""`: none); `""` for other nodes.
    pub fn namespace_uri(&self, n: NodeRef) -> &str {
        if n.ns != 0 || !matches!(self.k(n.node), K_ELEMENT | K_ATTRIBUTE) {
            return "";
        }
        self.uri(self.aux[n.node as usize])
    }

    /// Whether `n` is an element or attribute with this local name and namespace URI (or a
    /// PI with this target and `uri` empty). Compares bytes in place.
    pub fn has_name(&self, n: NodeRef, local: &str, uri: &str) -> bool {
        if n.ns != 0 {
            return uri.is_empty() && self.ns_prefix(n) == local;
        }
        match self.k(n.node) {
            K_ELEMENT | K_ATTRIBUTE => {
                let q = self.qname_bytes(n.node);
                let p = self.prefix_len(q);
                let l = if p > 0 { &q[p + 1..] } else { q };
                l == local.as_bytes() && self.uri(self.aux[n.node as usize]) == uri
            }
            K_PI => uri.is_empty() && self.qname_bytes(n.node) == local.as_bytes(),
            _ => false,
        }
    }

    /// Content of a text node (references resolved, CDATA sections unwrapped, line ends
    /// normalised), of a comment, or the data of a PI; `""` for other nodes. Borrowed from
    /// the document unless something had to be replaced.
    pub fn text(&self, n: NodeRef) -> Cow<'_, str> {
        if n.ns != 0 {
            return Cow::Borrowed("");
        }
        let i = n.node;
        let (a, b) = self.span_of(i);
        match self.k(i) {
            K_TEXT => {
                let f = self.flags(i);
                if f & F_EXTRA != 0 {
                    return Cow::Borrowed(
                        self.extra(i)
                            .map_or("", |e| self.extra_str(e.value, e.value_len)),
                    );
                }
                let raw = self.bytes_at(a, b);
                if f & (F_ESC | F_CDATA) == 0 {
                    return Cow::Borrowed(std::str::from_utf8(raw).unwrap_or(""));
                }
                let mut out = String::with_capacity(raw.len());
                text::unescape_text(raw, &mut out);
                Cow::Owned(out)
            }
            K_COMMENT => text::line_ends(self.bytes_at(a, b), self.flags(i) & F_ESC != 0),
            K_PI => {
                let d = text::pi_data_start(self.doc, a, b);
                text::line_ends(self.bytes_at(d, b), self.flags(i) & F_ESC != 0)
            }
            _ => Cow::Borrowed(""),
        }
    }

    /// The normalised value of an attribute (XML 1.0 section 3.3.3), or the URI of a
    /// namespace node; `""` for other nodes.
    pub fn value(&self, n: NodeRef) -> Cow<'_, str> {
        if n.ns != 0 {
            return Cow::Borrowed(self.ns_uri(n));
        }
        let i = n.node;
        if self.k(i) != K_ATTRIBUTE {
            return Cow::Borrowed("");
        }
        let f = self.flags(i);
        if f & F_EXTRA != 0 {
            return Cow::Borrowed(
                self.extra(i)
                    .map_or("", |e| self.extra_str(e.value, e.value_len)),
            );
        }
        let (a, b) = self.attr_value_span(i);
        let raw = self.bytes_at(a, b);
        if f & F_ESC == 0 {
            return Cow::Borrowed(std::str::from_utf8(raw).unwrap_or(""));
        }
        let mut out = String::with_capacity(raw.len());
        text::normalize_attr(raw, &mut out);
        Cow::Owned(out)
    }

    /// The value of the attribute of `element` with this namespace URI and local name.
    pub fn attribute(&self, element: NodeRef, uri: &str, local: &str) -> Option<Cow<'_, str>> {
        self.attributes(element)
            .find(|&a| self.has_name(a, local, uri))
            .map(|a| self.value(a))
    }

    /// The XPath string-value: the text of text and comment nodes, PI data, attribute
    /// values, namespace URIs, and the concatenated descendant text of elements and the
    /// document (borrowed when it is a single plain text node).
    pub fn string_value(&self, n: NodeRef) -> Cow<'_, str> {
        if n.ns != 0 {
            return Cow::Borrowed(self.ns_uri(n));
        }
        match self.k(n.node) {
            K_ATTRIBUTE => self.value(n),
            K_ELEMENT | K_DOCUMENT => {
                let end = self.subtree_end(n.node);
                let mut texts = (n.node + 1..end).filter(|&j| self.k(j) == K_TEXT);
                let Some(first) = texts.next() else {
                    return Cow::Borrowed("");
                };
                let Some(second) = texts.next() else {
                    return self.text(NodeRef::at(first));
                };
                let mut out = String::new();
                out.push_str(&self.text(NodeRef::at(first)));
                out.push_str(&self.text(NodeRef::at(second)));
                for j in texts {
                    out.push_str(&self.text(NodeRef::at(j)));
                }
                Cow::Owned(out)
            }
            _ => self.text(n),
        }
    }

    /// Appends the string-value of `n` to `out` without an intermediate string.
    pub fn append_string_value(&self, n: NodeRef, out: &mut String) {
        if n.ns == 0 && matches!(self.k(n.node), K_ELEMENT | K_DOCUMENT) {
            let end = self.subtree_end(n.node);
            for j in n.node + 1..end {
                if self.k(j) == K_TEXT {
                    out.push_str(&self.text(NodeRef::at(j)));
                }
            }
        } else {
            out.push_str(&self.string_value(n));
        }
    }

    /// Starts recording edits of the document; see [`Editor`].
    pub fn edit(&self) -> Editor<'_, 'a> {
        Editor::new(self)
    }
}

#[cold]
fn too_big(offset: u64, limit: u64) -> Error {
    Error::new(
        ErrorKind::LimitExceeded(LimitKind::TreeSize, limit),
        Location {
            offset,
            line: 0,
            column: 0,
        },
    )
}
