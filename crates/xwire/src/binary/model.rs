//! The typed data model: the XML data model (elements, attributes, namespace declarations,
//! text, CDATA, comments, PIs) plus **leaf** elements holding one typed value and **array**
//! elements holding a packed `Vec` of one primitive type.
//!
//! Nodes live in one arena and link to their first child and next sibling, so appending is
//! O(1) and walking allocates nothing; names and strings live in one string arena; arrays are
//! plain `Vec`s handed out as slices. A document writes itself to any [`XmlSink`] (the text
//! [`crate::writer::Writer`] or the binary [`super::BinaryWriter`]) and reads itself from any
//! [`Reader`] (text or binary input, typed content taken from binary leaves and arrays).
//!
//! ```
//! use xwire::binary::{TypedDocument, TypedValue};
//! let mut doc = TypedDocument::new();
//! let data = doc.append_element(doc.root(), "", "data");
//! doc.append_leaf(data, "", "count", TypedValue::I32(3));
//! doc.append_array(data, "", "values", vec![1.5f64, 2.5, 4.0]);
//! let values = doc.children(data).nth(1).unwrap();
//! assert_eq!(doc.array_of::<f64>(values), Some(&[1.5, 2.5, 4.0][..]));
//! let mut w = xwire::writer::Writer::new(Vec::new());
//! doc.write(&mut w).unwrap();
//! assert_eq!(
//!     String::from_utf8(w.finish().unwrap()).unwrap(),
//!     "<data><count>3</count><values>1.5 2.5 4.0</values></data>"
//! );
//! ```

use std::borrow::Cow;
use std::ops::Range;

use super::value::{Array, Primitive, TypedValue};
use crate::error::Result;
use crate::reader::event::{Event, StartTag};
use crate::reader::Reader;
use crate::writer::{WriteError, XmlSink};

/// A node of a [`TypedDocument`]: an index into its arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node of a [`TypedDocument`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The document node, parent of the root element and top-level comments and PIs.
    Document,
    /// An element with child nodes.
    Element,
    /// An element holding one typed value.
    Leaf,
    /// An element holding an array of one primitive type.
    Array,
    /// Character data.
    Text,
    /// A CDATA section.
    CData,
    /// A comment.
    Comment,
    /// A processing instruction.
    Pi,
}

const NONE: u32 = u32::MAX;

type Span = Range<u32>;

#[derive(Clone, Debug)]
struct Name {
    prefix: Span,
    local: Span,
    ns: Span,
}

#[derive(Clone, Debug)]
struct Attr {
    name: Name,
    value: Span,
}

#[derive(Clone, Debug)]
enum Stored {
    /// Numbers and booleans.
    Scalar(TypedValue<'static>),
    /// A string in the arena.
    Str(Span),
    /// Bytes in the byte arena.
    Bytes(Range<usize>),
}

#[derive(Clone, Debug)]
#[allow(clippy::enum_variant_names)] // `CData` is the XML name, not a suffix
enum Data {
    Document,
    Element {
        name: Name,
        /// (prefix, uri) declarations in order; an empty prefix is the default namespace.
        decls: Vec<(Span, Span)>,
        attrs: Vec<Attr>,
        content: Content,
    },
    Text(Span),
    CData(Span),
    Comment(Span),
    Pi(Span, Span),
}

#[derive(Clone, Debug)]
enum Content {
    Children,
    Leaf(Stored),
    Array(Array<'static>),
}

#[derive(Clone, Debug)]
struct Node {
    data: Data,
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
}

/// A typed XML document in an arena: the XML data model plus **leaf** elements holding one
/// typed value and **array** elements holding a packed `Vec` of one primitive type. It writes
/// itself to any [`XmlSink`] and reads itself from any [`Reader`], text or binary (see
/// [`crate::binary`]).
#[derive(Clone, Debug)]
pub struct TypedDocument {
    nodes: Vec<Node>,
    text: String,
    bytes: Vec<u8>,
    /// The arrays of the document last [`TypedDocument::clear`]ed, whose allocations new arrays
    /// copied from borrowed values reuse.
    spare: Vec<Array<'static>>,
}

impl Default for TypedDocument {
    fn default() -> Self {
        TypedDocument::new()
    }
}

impl TypedDocument {
    /// An empty document (just the document node).
    pub fn new() -> TypedDocument {
        TypedDocument {
            nodes: vec![Node {
                data: Data::Document,
                parent: NONE,
                first_child: NONE,
                last_child: NONE,
                next_sibling: NONE,
            }],
            text: String::new(),
            bytes: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Empties the document (back to just its document node), keeping its memory: the node
    /// and string arenas keep their capacity, and the arrays' allocations are kept for the
    /// arrays appended or read next (those of the previous clear are freed). Decoding message
    /// after message into one document with [`TypedDocument::read_into`] then copies arrays
    /// into memory already mapped, instead of fresh pages.
    ///
    /// ```
    /// use xwire::binary::TypedDocument;
    /// let mut doc = TypedDocument::new();
    /// let a = doc.append_element(doc.root(), "", "a");
    /// doc.append_array(a, "", "v", vec![1.0f64; 1000]);
    /// doc.clear();
    /// assert!(doc.is_empty() && doc.root_element().is_none());
    /// ```
    pub fn clear(&mut self) {
        self.spare.clear();
        for node in self.nodes.drain(1..) {
            if let Data::Element {
                content: Content::Array(a),
                ..
            } = node.data
            {
                if !a.is_borrowed() {
                    self.spare.push(a);
                }
            }
        }
        let doc = &mut self.nodes[0];
        doc.first_child = NONE;
        doc.last_child = NONE;
        self.text.clear();
        self.bytes.clear();
    }

    /// The document node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The root element, once appended.
    pub fn root_element(&self) -> Option<NodeId> {
        self.children(self.root())
            .find(|&n| matches!(self.kind(n), Kind::Element | Kind::Leaf | Kind::Array))
    }

    /// The number of nodes, the document node included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the document has only its document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    // ----- building -----------------------------------------------------------------------

    fn span(&mut self, s: &str) -> Span {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        start..self.text.len() as u32
    }

    fn name(&mut self, prefix: &str, local: &str, ns: &str) -> Name {
        Name {
            prefix: self.span(prefix),
            local: self.span(local),
            ns: self.span(ns),
        }
    }

    fn push(&mut self, parent: NodeId, data: Data) -> NodeId {
        let id = self.nodes.len() as u32;
        assert!(
            id != NONE,
            "a binary::TypedDocument holds at most 2^32 - 1 nodes"
        );
        self.nodes.push(Node {
            data,
            parent: parent.0,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        });
        let p = &mut self.nodes[parent.index()];
        let last = std::mem::replace(&mut p.last_child, id);
        if last == NONE {
            p.first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        NodeId(id)
    }

    fn element(&mut self, parent: NodeId, ns: &str, qname: &str, content: Content) -> NodeId {
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        let name = self.name(prefix, local, ns);
        self.push(
            parent,
            Data::Element {
                name,
                decls: Vec::new(),
                attrs: Vec::new(),
                content,
            },
        )
    }

    /// Appends an element named `qname` (`p:local` or `local`) in namespace `ns` (`""` for
    /// none). Names are not checked here; the writer checks them when the document is written.
    pub fn append_element(&mut self, parent: NodeId, ns: &str, qname: &str) -> NodeId {
        self.element(parent, ns, qname, Content::Children)
    }

    /// Appends the element a reader's start tag opens: its name, namespace declarations and
    /// attributes (its content is the caller's to append).
    ///
    /// ```
    /// use xwire::binary::TypedDocument;
    /// use xwire::{Event, Reader};
    /// let mut r = Reader::from_slice(b"<p:a xmlns:p='urn:p' n='1'/>");
    /// let Event::Start(t) = r.next()? else { unreachable!() };
    /// let mut doc = TypedDocument::new();
    /// let a = doc.append_start(doc.root(), &t);
    /// assert_eq!((doc.namespace_uri(a), doc.attribute(a, "", "n")), ("urn:p", Some("1")));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn append_start(&mut self, parent: NodeId, tag: &StartTag<'_>) -> NodeId {
        let el = self.append_element(parent, tag.namespace_uri(), tag.name());
        for a in tag.attributes() {
            if a.is_namespace_decl() {
                let p = a.name().strip_prefix("xmlns:").unwrap_or("");
                self.declare_namespace(el, p, a.value());
            } else {
                self.set_attribute(el, a.namespace_uri(), a.name(), a.value());
            }
        }
        el
    }

    /// Inserts an element named `qname` in namespace `ns` as the sibling just before node
    /// `before` (which must not be the document node), returning it: how a SOAP header is
    /// added to an envelope whose body is already there.
    ///
    /// ```
    /// use xwire::binary::TypedDocument;
    /// let mut doc = TypedDocument::new();
    /// let r = doc.append_element(doc.root(), "", "r");
    /// let b = doc.append_element(r, "", "b");
    /// let a = doc.insert_element_before(b, "", "a");
    /// assert_eq!(doc.children(r).collect::<Vec<_>>(), [a, b]);
    /// ```
    pub fn insert_element_before(&mut self, before: NodeId, ns: &str, qname: &str) -> NodeId {
        let parent = self.nodes[before.index()].parent;
        assert!(parent != NONE, "insert_element_before the document node");
        // Appended first (which allocates its node), then moved in front of `before`.
        let el = self.element(NodeId(parent), ns, qname, Content::Children);
        let mut prev = NONE;
        let mut at = self.nodes[parent as usize].first_child;
        while at != before.0 {
            prev = at;
            at = self.nodes[at as usize].next_sibling;
        }
        // `el` is the last child; its predecessor becomes the last again.
        let mut before_el = at;
        while self.nodes[before_el as usize].next_sibling != el.0 {
            before_el = self.nodes[before_el as usize].next_sibling;
        }
        self.nodes[before_el as usize].next_sibling = NONE;
        self.nodes[parent as usize].last_child = before_el;
        self.nodes[el.index()].next_sibling = before.0;
        match prev {
            NONE => self.nodes[parent as usize].first_child = el.0,
            prev => self.nodes[prev as usize].next_sibling = el.0,
        }
        el
    }

    /// Appends a leaf element holding `value`.
    pub fn append_leaf(
        &mut self,
        parent: NodeId,
        ns: &str,
        qname: &str,
        value: TypedValue<'_>,
    ) -> NodeId {
        let stored = self.store(value);
        self.element(parent, ns, qname, Content::Leaf(stored))
    }

    fn store(&mut self, value: TypedValue<'_>) -> Stored {
        match value {
            TypedValue::String(s) => Stored::Str(self.span(s)),
            TypedValue::Bytes(b) => {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(b);
                Stored::Bytes(start..self.bytes.len())
            }
            TypedValue::I8(v) => Stored::Scalar(TypedValue::I8(v)),
            TypedValue::I16(v) => Stored::Scalar(TypedValue::I16(v)),
            TypedValue::I32(v) => Stored::Scalar(TypedValue::I32(v)),
            TypedValue::I64(v) => Stored::Scalar(TypedValue::I64(v)),
            TypedValue::U8(v) => Stored::Scalar(TypedValue::U8(v)),
            TypedValue::U16(v) => Stored::Scalar(TypedValue::U16(v)),
            TypedValue::U32(v) => Stored::Scalar(TypedValue::U32(v)),
            TypedValue::U64(v) => Stored::Scalar(TypedValue::U64(v)),
            TypedValue::F32(v) => Stored::Scalar(TypedValue::F32(v)),
            TypedValue::F64(v) => Stored::Scalar(TypedValue::F64(v)),
            TypedValue::Bool(v) => Stored::Scalar(TypedValue::Bool(v)),
        }
    }

    /// Appends an array element holding `values` (moved in, not copied).
    pub fn append_array<T: Primitive>(
        &mut self,
        parent: NodeId,
        ns: &str,
        qname: &str,
        values: Vec<T>,
    ) -> NodeId {
        self.append_array_value(parent, ns, qname, T::wrap(Cow::Owned(values)))
    }

    /// Appends an array element holding `array` (made owned).
    pub fn append_array_value(
        &mut self,
        parent: NodeId,
        ns: &str,
        qname: &str,
        array: Array<'_>,
    ) -> NodeId {
        let owned = array.into_owned_reusing(&mut self.spare);
        self.element(parent, ns, qname, Content::Array(owned))
    }

    /// Declares a namespace on element `el`: `prefix` (`""` for the default namespace) bound
    /// to `uri` (`""` undeclares the default namespace).
    pub fn declare_namespace(&mut self, el: NodeId, prefix: &str, uri: &str) {
        let d = (self.span(prefix), self.span(uri));
        if let Data::Element { decls, .. } = &mut self.nodes[el.index()].data {
            decls.push(d);
        } else {
            panic!("declare_namespace on a node that is not an element");
        }
    }

    /// Adds an attribute named `qname` in namespace `ns` to element `el`.
    pub fn set_attribute(&mut self, el: NodeId, ns: &str, qname: &str, value: &str) {
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        let a = Attr {
            name: self.name(prefix, local, ns),
            value: self.span(value),
        };
        if let Data::Element { attrs, .. } = &mut self.nodes[el.index()].data {
            attrs.push(a);
        } else {
            panic!("set_attribute on a node that is not an element");
        }
    }

    /// Appends character data.
    pub fn append_text(&mut self, parent: NodeId, text: &str) -> NodeId {
        let s = self.span(text);
        self.push(parent, Data::Text(s))
    }

    /// Appends a CDATA section.
    pub fn append_cdata(&mut self, parent: NodeId, text: &str) -> NodeId {
        let s = self.span(text);
        self.push(parent, Data::CData(s))
    }

    /// Appends a comment.
    pub fn append_comment(&mut self, parent: NodeId, text: &str) -> NodeId {
        let s = self.span(text);
        self.push(parent, Data::Comment(s))
    }

    /// Appends a processing instruction.
    pub fn append_pi(&mut self, parent: NodeId, target: &str, data: &str) -> NodeId {
        let (t, d) = (self.span(target), self.span(data));
        self.push(parent, Data::Pi(t, d))
    }

    // ----- walking ------------------------------------------------------------------------

    fn s(&self, s: &Span) -> &str {
        &self.text[s.start as usize..s.end as usize]
    }

    /// What node `n` is.
    pub fn kind(&self, n: NodeId) -> Kind {
        match &self.nodes[n.index()].data {
            Data::Document => Kind::Document,
            Data::Element { content, .. } => match content {
                Content::Children => Kind::Element,
                Content::Leaf(_) => Kind::Leaf,
                Content::Array(_) => Kind::Array,
            },
            Data::Text(_) => Kind::Text,
            Data::CData(_) => Kind::CData,
            Data::Comment(_) => Kind::Comment,
            Data::Pi(..) => Kind::Pi,
        }
    }

    /// The parent of `n` (`None` for the document node).
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        let p = self.nodes[n.index()].parent;
        (p != NONE).then_some(NodeId(p))
    }

    /// The children of `n`, in document order.
    pub fn children(&self, n: NodeId) -> Children<'_> {
        Children {
            doc: self,
            next: self.nodes[n.index()].first_child,
        }
    }

    fn element_name(&self, n: NodeId) -> Option<&Name> {
        match &self.nodes[n.index()].data {
            Data::Element { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The local name of an element (`""` for other nodes).
    pub fn local_name(&self, n: NodeId) -> &str {
        self.element_name(n).map_or("", |name| self.s(&name.local))
    }

    /// The prefix of an element's name (`""` for none).
    pub fn prefix(&self, n: NodeId) -> &str {
        self.element_name(n).map_or("", |name| self.s(&name.prefix))
    }

    /// The namespace URI of an element (`""` for none).
    pub fn namespace_uri(&self, n: NodeId) -> &str {
        self.element_name(n).map_or("", |name| self.s(&name.ns))
    }

    /// The namespace declarations of an element: (prefix, uri), `""` prefix for the default.
    pub fn namespaces(&self, n: NodeId) -> impl Iterator<Item = (&str, &str)> + '_ {
        let decls: &[(Span, Span)] = match &self.nodes[n.index()].data {
            Data::Element { decls, .. } => decls,
            _ => &[],
        };
        decls.iter().map(|(p, u)| (self.s(p), self.s(u)))
    }

    /// The attributes of an element: (namespace URI, prefix, local name, value).
    pub fn attributes(&self, n: NodeId) -> impl Iterator<Item = (&str, &str, &str, &str)> + '_ {
        let attrs: &[Attr] = match &self.nodes[n.index()].data {
            Data::Element { attrs, .. } => attrs,
            _ => &[],
        };
        attrs.iter().map(|a| {
            (
                self.s(&a.name.ns),
                self.s(&a.name.prefix),
                self.s(&a.name.local),
                self.s(&a.value),
            )
        })
    }

    /// The namespace URI `prefix` (`""` for the default namespace) is bound to where element
    /// `n` is, from the declarations on it and its ancestors: how a QName in text or in an
    /// attribute value (`env:Sender`, `xsd:int`) is resolved. `xml` is always bound; an
    /// unbound prefix, or a default namespace undeclared with `xmlns=""`, gives `None`.
    ///
    /// ```
    /// use xwire::binary::TypedDocument;
    /// let mut doc = TypedDocument::new();
    /// let a = doc.append_element(doc.root(), "", "a");
    /// doc.declare_namespace(a, "p", "urn:p");
    /// let b = doc.append_element(a, "", "b");
    /// assert_eq!(doc.lookup_namespace(b, "p"), Some("urn:p"));
    /// assert_eq!(doc.lookup_namespace(b, "q"), None);
    /// ```
    pub fn lookup_namespace(&self, n: NodeId, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(crate::XML_NS);
        }
        let mut at = Some(n);
        while let Some(e) = at {
            if let Some((_, uri)) = self.namespaces(e).find(|(p, _)| *p == prefix) {
                return (!uri.is_empty()).then_some(uri);
            }
            at = self.parent(e);
        }
        None
    }

    /// Appends to `parent` a copy of node `node` of document `src` and of everything under
    /// it, returning the copy. A copied element also gets the namespace declarations that
    /// were in scope at `node` from its ancestors, so that it writes with the same names
    /// wherever it lands (as a header block echoed into a reply, or a body relayed).
    ///
    /// ```
    /// use xwire::binary::TypedDocument;
    /// let mut src = TypedDocument::new();
    /// let a = src.append_element(src.root(), "urn:p", "p:a");
    /// src.declare_namespace(a, "p", "urn:p");
    /// let b = src.append_element(a, "urn:p", "p:b");
    /// src.append_text(b, "hi");
    /// let mut out = TypedDocument::new();
    /// let copy = out.append_copy(out.root(), &src, b);
    /// assert_eq!(out.lookup_namespace(copy, "p"), Some("urn:p"));
    /// let mut w = xwire::writer::Writer::new(Vec::new());
    /// out.write(&mut w)?;
    /// assert_eq!(w.finish()?, br#"<p:b xmlns:p="urn:p">hi</p:b>"#);
    /// # Ok::<(), xwire::writer::WriteError>(())
    /// ```
    pub fn append_copy(&mut self, parent: NodeId, src: &TypedDocument, node: NodeId) -> NodeId {
        let top = self.append_copy_of_one(parent, src, node);
        if matches!(src.nodes[node.index()].data, Data::Element { .. }) {
            // In-scope declarations from the ancestors, nearest first, unless shadowed.
            let mut seen: Vec<&str> = src.namespaces(node).map(|(p, _)| p).collect();
            let mut at = src.parent(node);
            while let Some(e) = at {
                for (p, u) in src.namespaces(e) {
                    if !seen.contains(&p) {
                        seen.push(p);
                        self.declare_namespace(top, p, u);
                    }
                }
                at = src.parent(e);
            }
        }
        // An explicit stack of (source node, its copy): depth is bounded only by memory.
        let mut stack = vec![(node, top)];
        while let Some((from, to)) = stack.pop() {
            let children: Vec<NodeId> = src.children(from).collect();
            for c in children {
                let copy = self.append_copy_of_one(to, src, c);
                if src.nodes[c.index()].first_child != NONE {
                    stack.push((c, copy));
                }
            }
        }
        top
    }

    /// A copy of `node` alone (an element with its name, declarations and attributes).
    fn append_copy_of_one(&mut self, parent: NodeId, src: &TypedDocument, node: NodeId) -> NodeId {
        match &src.nodes[node.index()].data {
            Data::Document => parent,
            Data::Text(t) => self.append_text(parent, src.s(t)),
            Data::CData(t) => self.append_cdata(parent, src.s(t)),
            Data::Comment(t) => self.append_comment(parent, src.s(t)),
            Data::Pi(t, d) => self.append_pi(parent, src.s(t), src.s(d)),
            Data::Element {
                name,
                decls,
                attrs,
                content,
            } => {
                let copied = match content {
                    Content::Children => Content::Children,
                    Content::Leaf(_) => Content::Leaf(self.store(src.value(node).expect("a leaf"))),
                    Content::Array(a) => Content::Array(a.clone()),
                };
                let name = self.name(src.s(&name.prefix), src.s(&name.local), src.s(&name.ns));
                let el = self.push(
                    parent,
                    Data::Element {
                        name,
                        decls: Vec::new(),
                        attrs: Vec::new(),
                        content: copied,
                    },
                );
                let decls: Vec<(Span, Span)> = decls
                    .iter()
                    .map(|(p, u)| (self.span(src.s(p)), self.span(src.s(u))))
                    .collect();
                let attrs: Vec<Attr> = attrs
                    .iter()
                    .map(|a| Attr {
                        name: self.name(
                            src.s(&a.name.prefix),
                            src.s(&a.name.local),
                            src.s(&a.name.ns),
                        ),
                        value: self.span(src.s(&a.value)),
                    })
                    .collect();
                if let Data::Element {
                    decls: d,
                    attrs: at,
                    ..
                } = &mut self.nodes[el.index()].data
                {
                    *d = decls;
                    *at = attrs;
                }
                el
            }
        }
    }

    /// The value of the attribute `local` in namespace `ns` of element `n`.
    pub fn attribute(&self, n: NodeId, ns: &str, local: &str) -> Option<&str> {
        self.attributes(n)
            .find(|a| a.0 == ns && a.2 == local)
            .map(|a| a.3)
    }

    /// The text of a text, CDATA or comment node, the data of a PI (`""` otherwise).
    pub fn text(&self, n: NodeId) -> &str {
        match &self.nodes[n.index()].data {
            Data::Text(s) | Data::CData(s) | Data::Comment(s) | Data::Pi(_, s) => self.s(s),
            _ => "",
        }
    }

    /// The target of a PI (`""` otherwise).
    pub fn pi_target(&self, n: NodeId) -> &str {
        match &self.nodes[n.index()].data {
            Data::Pi(t, _) => self.s(t),
            _ => "",
        }
    }

    /// The value of a leaf element.
    pub fn value(&self, n: NodeId) -> Option<TypedValue<'_>> {
        match &self.nodes[n.index()].data {
            Data::Element {
                content: Content::Leaf(v),
                ..
            } => Some(match v {
                Stored::Scalar(v) => *v,
                Stored::Str(s) => TypedValue::String(self.s(s)),
                Stored::Bytes(r) => TypedValue::Bytes(&self.bytes[r.clone()]),
            }),
            _ => None,
        }
    }

    /// The values of an array element.
    pub fn array(&self, n: NodeId) -> Option<&Array<'static>> {
        match &self.nodes[n.index()].data {
            Data::Element {
                content: Content::Array(a),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The values of an array element as a slice of `T`, if it holds that type.
    pub fn array_of<T: Primitive>(&self, n: NodeId) -> Option<&[T]> {
        self.array(n).and_then(|a| a.as_slice::<T>())
    }

    // ----- writing and reading ------------------------------------------------------------

    /// Writes the document to a text or binary writer (the caller calls its `finish`).
    /// Namespace declarations are written as stored and names by their prefix, so a document
    /// read from a file writes back the same names and declarations.
    pub fn write<S: XmlSink + ?Sized>(&self, sink: &mut S) -> std::result::Result<(), WriteError> {
        let mut qname = String::new();
        // An explicit stack instead of recursion: depth is only bounded by memory.
        let mut stack: Vec<u32> = Vec::new();
        let mut next = self.nodes[0].first_child;
        loop {
            while next == NONE {
                let Some(done) = stack.pop() else {
                    return Ok(());
                };
                sink.end_element()?;
                next = self.nodes[done as usize].next_sibling;
            }
            let id = next;
            let node = &self.nodes[id as usize];
            next = node.next_sibling;
            match &node.data {
                Data::Document => {}
                Data::Text(s) => sink.text(self.s(s))?,
                Data::CData(s) => sink.cdata(self.s(s))?,
                Data::Comment(s) => sink.comment(self.s(s))?,
                Data::Pi(t, d) => sink.processing_instruction(self.s(t), self.s(d))?,
                Data::Element {
                    name,
                    decls,
                    attrs,
                    content,
                } => {
                    qualified(&mut qname, self.s(&name.prefix), self.s(&name.local));
                    sink.start_element(&qname)?;
                    for (p, u) in decls {
                        let p = self.s(p);
                        sink.namespace((!p.is_empty()).then_some(p), self.s(u))?;
                    }
                    for a in attrs {
                        qualified(&mut qname, self.s(&a.name.prefix), self.s(&a.name.local));
                        sink.attribute(&qname, self.s(&a.value))?;
                    }
                    match content {
                        Content::Children => {
                            stack.push(id);
                            next = node.first_child;
                            continue;
                        }
                        Content::Leaf(_) => sink.value(self.value(NodeId(id)).expect("a leaf"))?,
                        Content::Array(a) => sink.array(a)?,
                    }
                    sink.end_element()?;
                }
            }
        }
    }

    /// Reads a whole document from `reader` (text or binary input). Binary leaves and arrays
    /// become typed nodes; text input gives untyped elements (type it while encoding, see
    /// [`super::encode_events`]). Doctypes are dropped and defaulted attributes kept, as in
    /// the binary format.
    pub fn read(reader: &mut Reader<'_>) -> Result<TypedDocument> {
        let mut doc = TypedDocument::new();
        doc.read_into(reader)?;
        Ok(doc)
    }

    /// [`TypedDocument::read`] into this document, [`clear`](TypedDocument::clear)ed first, reusing its
    /// memory (arrays are copied into the allocations of the arrays it held). After an error
    /// the document holds what was read before it.
    ///
    /// ```
    /// use xwire::binary::{BinaryWriter, TypedDocument};
    /// let mut w = BinaryWriter::new(Vec::new());
    /// w.start_element("v")?;
    /// w.array_of(&[0.5f64, 1.5])?;
    /// w.end_element()?;
    /// let file = w.finish()?;
    /// let mut doc = TypedDocument::new();
    /// for _ in 0..3 {
    ///     doc.read_into(&mut xwire::Reader::from_slice(&file))?;
    ///     let v = doc.root_element().unwrap();
    ///     assert_eq!(doc.array_of::<f64>(v), Some(&[0.5, 1.5][..]));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_into(&mut self, reader: &mut Reader<'_>) -> Result<()> {
        self.read_into_with(reader, ReadOptions::default())
    }

    /// [`TypedDocument::read_into`], refusing what `options` says a format built on XML
    /// forbids (SOAP: a document type declaration, processing instructions). A refusal is an
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) error at the construct.
    ///
    /// ```
    /// use xwire::binary::{ReadOptions, TypedDocument};
    /// let mut options = ReadOptions::default();
    /// options.refuse_doctype = true;
    /// let mut doc = TypedDocument::new();
    /// let mut r = xwire::Reader::from_slice(b"<!DOCTYPE a><a/>");
    /// let e = doc.read_into_with(&mut r, options).unwrap_err();
    /// assert!(e.to_string().contains("document type declaration"));
    /// ```
    pub fn read_into_with(&mut self, reader: &mut Reader<'_>, options: ReadOptions) -> Result<()> {
        self.clear();
        let doc = self;
        let mut open = vec![doc.root()];
        loop {
            let (parent, kind) = {
                let parent = *open.last().expect("the document node stays");
                (parent, reader.peek()?.kind())
            };
            use crate::reader::event::TokenKind as K;
            match kind {
                K::Eof => return Ok(()),
                K::Start => {
                    let el = {
                        let Event::Start(t) = reader.next()? else {
                            unreachable!("peeked a start tag")
                        };
                        doc.append_start(parent, &t)
                    };
                    match reader.typed_content()? {
                        Some(super::Typed::Value(v)) => {
                            let stored = doc.store(v);
                            doc.set_content(el, Content::Leaf(stored));
                        }
                        Some(super::Typed::Array(a)) => {
                            let owned = a.into_owned_reusing(&mut doc.spare);
                            doc.set_content(el, Content::Array(owned));
                        }
                        None => {
                            open.push(el);
                            continue;
                        }
                    }
                    // Typed content consumed: the end tag follows.
                    reader.next()?;
                }
                K::End => {
                    reader.next()?;
                    open.pop();
                }
                K::Text | K::CData | K::Comment | K::Pi => match reader.next()? {
                    Event::Text(t) => {
                        if open.len() > 1 {
                            doc.append_text(parent, &t.unescape());
                        }
                    }
                    Event::CData(c) => {
                        doc.append_cdata(parent, &c.text());
                    }
                    Event::Comment(c) => {
                        doc.append_comment(parent, &c.text());
                    }
                    Event::Pi(p) => {
                        if options.refuse_pis {
                            let what = format!("a processing instruction ('{}')", p.target());
                            return Err(refused(reader, &what));
                        }
                        doc.append_pi(parent, p.target(), &p.data());
                    }
                    _ => unreachable!("peeked"),
                },
                K::Doctype | K::SkippedEntity => {
                    let ev = reader.next()?;
                    if matches!(ev, Event::Doctype(_)) && options.refuse_doctype {
                        return Err(refused(reader, "a document type declaration"));
                    }
                    if let Event::SkippedEntity(e) = ev {
                        return Err(crate::error::Error::new(
                            crate::error::ErrorKind::Unsupported(format!(
                                "the entity '{}' was not read and cannot be represented",
                                e.name()
                            )),
                            Default::default(),
                        ));
                    }
                }
            }
        }
    }

    fn set_content(&mut self, el: NodeId, c: Content) {
        if let Data::Element { content, .. } = &mut self.nodes[el.index()].data {
            *content = c;
        }
    }
}

/// What [`TypedDocument::read_into_with`] refuses. By default nothing: a document reads as
/// [`TypedDocument::read_into`] reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Refuse a document type declaration (SOAP messages must not have one).
    pub refuse_doctype: bool,
    /// Refuse processing instructions, anywhere in the document.
    pub refuse_pis: bool,
}

#[cold]
fn refused(reader: &mut Reader<'_>, what: &str) -> crate::error::Error {
    let kind = crate::error::ErrorKind::Unsupported(format!("{what}, which this format forbids"));
    crate::error::Error::new(kind, reader.location())
}

fn qualified(out: &mut String, prefix: &str, local: &str) {
    out.clear();
    if !prefix.is_empty() {
        out.push_str(prefix);
        out.push(':');
    }
    out.push_str(local);
}

/// The children of a node, in document order.
#[derive(Clone)]
pub struct Children<'d> {
    doc: &'d TypedDocument,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id as usize].next_sibling;
        Some(NodeId(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn building_and_walking() {
        let mut doc = TypedDocument::new();
        doc.append_comment(doc.root(), " top ");
        let r = doc.append_element(doc.root(), "urn:x", "x:r");
        doc.declare_namespace(r, "x", "urn:x");
        doc.set_attribute(r, "", "n", "1");
        doc.append_text(r, "hi");
        let leaf = doc.append_leaf(r, "", "s", TypedValue::String("str"));
        let b = doc.append_leaf(r, "", "b", TypedValue::Bytes(b"\x00\x01"));
        let arr = doc.append_array(r, "", "a", vec![1i32, 2, 3]);
        doc.append_pi(r, "t", "d");
        assert_eq!(doc.root_element(), Some(r));
        assert_eq!(doc.kind(r), Kind::Element);
        assert_eq!(
            (doc.prefix(r), doc.local_name(r), doc.namespace_uri(r)),
            ("x", "r", "urn:x")
        );
        assert_eq!(doc.namespaces(r).collect::<Vec<_>>(), [("x", "urn:x")]);
        assert_eq!(doc.attribute(r, "", "n"), Some("1"));
        let kinds: Vec<Kind> = doc.children(r).map(|n| doc.kind(n)).collect();
        assert_eq!(
            kinds,
            [Kind::Text, Kind::Leaf, Kind::Leaf, Kind::Array, Kind::Pi]
        );
        assert_eq!(doc.value(leaf), Some(TypedValue::String("str")));
        assert_eq!(doc.value(b), Some(TypedValue::Bytes(b"\x00\x01")));
        assert_eq!(doc.array_of::<i32>(arr), Some(&[1, 2, 3][..]));
        assert_eq!(doc.array_of::<f64>(arr), None);
        assert_eq!(doc.parent(arr), Some(r));
        let mut w = crate::writer::Writer::new(Vec::new());
        doc.write(&mut w).unwrap();
        assert_eq!(
            String::from_utf8(w.finish().unwrap()).unwrap(),
            r#"<!-- top --><x:r xmlns:x="urn:x" n="1">hi<s>str</s><b>AAE=</b><a>1 2 3</a><?t d?></x:r>"#
        );
    }

    /// Reading into a cleared document copies arrays into the allocations of the arrays it
    /// held (of the same type, with room), and gives the same document as a fresh read.
    #[test]
    fn read_into_reuses_array_memory() {
        use crate::binary::BinaryWriter;
        let file = |n: usize| {
            let mut w = BinaryWriter::new(Vec::new());
            w.start_element("m").unwrap();
            w.start_element("i").unwrap();
            w.array_of(&vec![7i32; n]).unwrap();
            w.end_element().unwrap();
            w.start_element("d").unwrap();
            w.array_of(&vec![0.5f64; n]).unwrap();
            w.end_element().unwrap();
            w.end_element().unwrap();
            w.finish().unwrap()
        };
        let (big, small) = (file(1000), file(10));
        let ptrs = |doc: &TypedDocument| {
            let m = doc.root_element().unwrap();
            let mut c = doc.children(m);
            let (i, d) = (c.next().unwrap(), c.next().unwrap());
            (
                doc.array_of::<i32>(i).unwrap().as_ptr() as usize,
                doc.array_of::<f64>(d).unwrap().as_ptr() as usize,
            )
        };
        let mut doc = TypedDocument::new();
        doc.read_into(&mut Reader::from_slice(&big)).unwrap();
        let first = ptrs(&doc);
        doc.read_into(&mut Reader::from_slice(&small)).unwrap();
        assert_eq!(
            ptrs(&doc),
            first,
            "the smaller arrays reuse the allocations"
        );
        let fresh = TypedDocument::read(&mut Reader::from_slice(&small)).unwrap();
        let text = |d: &TypedDocument| {
            let mut w = crate::writer::Writer::new(Vec::new());
            d.write(&mut w).unwrap();
            w.finish().unwrap()
        };
        assert_eq!(text(&doc), text(&fresh));
        assert_eq!(doc.len(), fresh.len());
        // Arrays appended from borrowed values reuse them too; owned ones are moved in.
        doc.clear();
        let r = doc.append_element(doc.root(), "", "r");
        let a = doc.append_array_value(r, "", "a", Array::I32(Cow::Borrowed(&[1, 2])));
        assert_eq!(doc.array_of::<i32>(a).unwrap().as_ptr() as usize, first.0);
        let v = vec![1.0f64; 3];
        let at = v.as_ptr() as usize;
        let b = doc.append_array(r, "", "b", v);
        assert_eq!(doc.array_of::<f64>(b).unwrap().as_ptr() as usize, at);
    }
}
