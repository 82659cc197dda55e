//! The tree seen through [`xpath::Navigator`](crate::xpath::Navigator).
//!
//! Attributes and namespace nodes are not tree nodes, so the navigator's handle is a
//! [`Handle`]: a tree node, or an attribute or namespace node named by its element and an
//! index.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::{Document, NodeId, NodeKind};
use crate::xpath::{Navigator, XML_NAMESPACE};

/// The namespace slot of the implicit `xml` prefix.
const XML_SLOT: u32 = u32::MAX;

/// A node of the XPath data model over a [`Document`].
///
/// ```
/// use xwire::tree::{Document, Handle};
/// use xwire::xpath::{Navigator, NodeKind};
///
/// let doc = Document::parse(br#"<a xmlns:p="urn:p" p:x="1" y="2"/>"#)?;
/// // `Document` has inherent methods of the same names over `NodeId`s, so the trait's
/// // are called by path.
/// let a = Handle::Node(doc.root_element().unwrap());
/// let x = Navigator::first_attribute(&doc, a).unwrap();
/// assert_eq!(Navigator::kind(&doc, x), NodeKind::Attribute);
/// assert_eq!((Navigator::local_name(&doc, x), Navigator::namespace_uri(&doc, x)), ("x", "urn:p"));
/// let y = Navigator::next_attribute(&doc, x).unwrap();
/// assert_eq!(Navigator::string_value(&doc, y), "2");
/// assert_eq!(Navigator::parent(&doc, x), Some(a));
/// # Ok::<(), xwire::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Handle {
    /// The document node, an element, text, comment or PI.
    Node(NodeId),
    /// The `i`-th attribute (in document order) of an element.
    Attribute(NodeId, u32),
    /// A namespace node of an element: the element and the declaration in scope that binds
    /// the prefix (an index of the document's declarations; `u32::MAX` for the implicit
    /// `xml`). Like attribute handles, valid until the next edit of declarations.
    Namespace(NodeId, u32),
}

impl Handle {
    /// The tree node, or the element of an attribute or namespace node.
    pub fn node(self) -> NodeId {
        match self {
            Handle::Node(n) | Handle::Attribute(n, _) | Handle::Namespace(n, _) => n,
        }
    }
}

impl From<NodeId> for Handle {
    fn from(n: NodeId) -> Handle {
        Handle::Node(n)
    }
}

impl Document {
    /// The namespaces in scope on an element, as (prefix, URI) sorted by prefix (`""` for the
    /// default namespace, absent when undeclared), `xml` included: its XPath namespace nodes.
    pub fn in_scope_namespaces(&self, element: NodeId) -> Vec<(&str, &str)> {
        let mut slots = Vec::new();
        self.in_scope_slots(element, &mut slots);
        let mut pairs: Vec<_> = slots.into_iter().map(|s| self.namespace_at(s)).collect();
        pairs.sort_unstable_by(|a, b| a.0.cmp(b.0));
        pairs
    }

    /// The declarations in scope on `element` (the nearest one for each prefix, `XML_SLOT`
    /// for `xml`, none for an undeclared default namespace), in slot order.
    fn in_scope_slots(&self, element: NodeId, out: &mut Vec<u32>) {
        let start = out.len();
        out.push(XML_SLOT);
        let mut cur = Some(element);
        while let Some(e) = cur {
            if self.kind(e) == NodeKind::Element {
                for slot in self.decl_indices(e) {
                    let prefix = self.decls[slot].prefix;
                    if prefix != self.xml_prefix_id()
                        && !out[start..]
                            .iter()
                            .any(|&s| s != XML_SLOT && self.decls[s as usize].prefix == prefix)
                    {
                        out.push(slot as u32);
                    }
                }
            }
            cur = self.parent(e);
        }
        // `xmlns=""` undeclares the default namespace: no namespace node for it.
        let mut i = start;
        while i < out.len() {
            if out[i] != XML_SLOT && self.namespace_at(out[i]).1.is_empty() {
                out.remove(i);
            } else {
                i += 1;
            }
        }
        // In `cmp_order`'s order (declaration index; `xml` last), so the namespace axis needs
        // no sorting.
        out[start..].sort_unstable();
    }

    /// Id of the prefix `xml` in the names (declarations of it are not namespace nodes of
    /// their own: `xml` is always bound, to the one URI it may be declared with).
    fn xml_prefix_id(&self) -> u32 {
        self.names.find("xml").map_or(u32::MAX, |id| id.0)
    }

    /// (prefix, URI) of a declaration slot.
    fn namespace_at(&self, slot: u32) -> (&str, &str) {
        if slot == XML_SLOT {
            return ("xml", XML_NAMESPACE);
        }
        let d = &self.decls[slot as usize];
        (
            self.names.get(crate::Id(d.prefix)),
            self.uris.get(crate::Id(d.uri)),
        )
    }

    fn attribute_at(&self, element: NodeId, i: u32) -> super::Attribute<'_> {
        self.attributes(element)
            .nth(i as usize)
            .expect("attribute handles come from the navigator")
    }
}

impl Navigator for Document {
    type Node = Handle;

    fn root(&self) -> Handle {
        Handle::Node(Document::root(self))
    }

    fn kind(&self, n: Handle) -> NodeKind {
        match n {
            Handle::Node(n) => Document::kind(self, n),
            Handle::Attribute(..) => NodeKind::Attribute,
            Handle::Namespace(..) => NodeKind::Namespace,
        }
    }

    fn parent(&self, n: Handle) -> Option<Handle> {
        match n {
            Handle::Node(n) => Document::parent(self, n).map(Handle::Node),
            Handle::Attribute(e, _) | Handle::Namespace(e, _) => Some(Handle::Node(e)),
        }
    }

    fn first_child(&self, n: Handle) -> Option<Handle> {
        match n {
            Handle::Node(n) => Document::first_child(self, n).map(Handle::Node),
            _ => None,
        }
    }

    fn last_child(&self, n: Handle) -> Option<Handle> {
        match n {
            Handle::Node(n) => Document::last_child(self, n).map(Handle::Node),
            _ => None,
        }
    }

    fn next_sibling(&self, n: Handle) -> Option<Handle> {
        match n {
            Handle::Node(n) => Document::next_sibling(self, n).map(Handle::Node),
            _ => None,
        }
    }

    fn prev_sibling(&self, n: Handle) -> Option<Handle> {
        match n {
            Handle::Node(n) => Document::prev_sibling(self, n).map(Handle::Node),
            _ => None,
        }
    }

    fn first_attribute(&self, element: Handle) -> Option<Handle> {
        match element {
            Handle::Node(e) if self.attributes(e).next().is_some() => Some(Handle::Attribute(e, 0)),
            _ => None,
        }
    }

    fn next_attribute(&self, attribute: Handle) -> Option<Handle> {
        match attribute {
            Handle::Attribute(e, i) if self.attributes(e).nth(i as usize + 1).is_some() => {
                Some(Handle::Attribute(e, i + 1))
            }
            _ => None,
        }
    }

    fn namespaces(&self, element: Handle, out: &mut Vec<Handle>) {
        if let Handle::Node(e) = element {
            if Document::kind(self, e) == NodeKind::Element {
                let mut slots = Vec::new();
                self.in_scope_slots(e, &mut slots);
                out.extend(slots.into_iter().map(|s| Handle::Namespace(e, s)));
            }
        }
    }

    fn local_name(&self, n: Handle) -> &str {
        match n {
            Handle::Node(n) => Document::local_name(self, n),
            Handle::Attribute(e, i) => self.attribute_at(e, i).local_name,
            Handle::Namespace(_, s) => self.namespace_at(s).0,
        }
    }

    fn namespace_uri(&self, n: Handle) -> &str {
        match n {
            Handle::Node(n) => Document::namespace_uri(self, n),
            Handle::Attribute(e, i) => self.attribute_at(e, i).namespace_uri,
            Handle::Namespace(..) => "",
        }
    }

    fn prefix(&self, n: Handle) -> &str {
        match n {
            Handle::Node(n) => Document::prefix(self, n),
            Handle::Attribute(e, i) => self.attribute_at(e, i).prefix,
            Handle::Namespace(..) => "",
        }
    }

    fn string_value(&self, n: Handle) -> Cow<'_, str> {
        match n {
            Handle::Node(n) => match Document::kind(self, n) {
                NodeKind::Document | NodeKind::Element => Cow::Owned(self.text_content(n)),
                _ => Cow::Borrowed(self.text(n)),
            },
            Handle::Attribute(e, i) => Cow::Borrowed(self.attribute_at(e, i).value),
            Handle::Namespace(_, s) => Cow::Borrowed(self.namespace_at(s).1),
        }
    }

    fn append_string_value(&self, n: Handle, out: &mut String) {
        match n {
            Handle::Node(n)
                if matches!(
                    Document::kind(self, n),
                    NodeKind::Document | NodeKind::Element
                ) =>
            {
                for d in self.descendants(n) {
                    if Document::kind(self, d) == NodeKind::Text {
                        out.push_str(self.text(d));
                    }
                }
            }
            _ => out.push_str(&self.string_value(n)),
        }
    }

    fn element_by_id(&self, id: &str) -> Option<Handle> {
        Document::element_by_id(self, id).map(Handle::Node)
    }

    fn name_key(&self, local: &str, uri: &str) -> Option<u64> {
        // Interned ids of the local name and URI. A name the document never interned can
        // still be a namespace node's (the implicit `xml` prefix): compare strings then.
        match (self.names.find(local), self.uris.find(uri)) {
            (Some(l), Some(u)) => Some((u64::from(l.0) << 32) | u64::from(u.0)),
            _ => None,
        }
    }

    fn has_name_key(&self, n: Handle, key: u64) -> bool {
        let name = match n {
            Handle::Node(n) => self.qnames[self.nodes[n.index()].name() as usize],
            Handle::Attribute(e, i) => {
                let a = &self.attrs[self.attr_range(e).start + i as usize];
                self.qnames[a.name as usize]
            }
            Handle::Namespace(..) => {
                let local = (key >> 32) as u32;
                return key as u32 == 0
                    && self.names.get(crate::Id(local)) == Navigator::local_name(self, n);
            }
        };
        key == (u64::from(name.local) << 32) | u64::from(name.uri)
    }

    fn cmp_order(&self, a: Handle, b: Handle) -> Ordering {
        // An element, then its namespace nodes, then its attributes, then its children.
        let key = |h: Handle| match h {
            Handle::Node(n) => (self.order_key(n), 0, 0),
            Handle::Namespace(e, i) => (self.order_key(e), 1, i),
            Handle::Attribute(e, i) => (self.order_key(e), 2, i),
        };
        key(a).cmp(&key(b))
    }
}
