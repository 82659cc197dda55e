//! Navigation over the descriptor arrays, and the [`Navigator`] implementation.
//!
//! Descriptors are in document order with each element's attributes right after it, so a
//! subtree is a contiguous run of indexes: descendants are a range scan, document order is
//! the order of indexes, and the last child or previous sibling is found by walking up
//! from the node before (O(depth)) instead of being stored.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::*;
use crate::xpath::Navigator;
use crate::XML_NS;

impl<'a> Index<'a> {
    /// One past the last descriptor of `i`'s subtree (its attributes and descendants).
    pub(super) fn subtree_end(&self, i: u32) -> u32 {
        let n = self.off.len() as u32;
        match self.k(i) {
            K_DOCUMENT => n,
            K_ELEMENT => {
                let mut cur = i;
                loop {
                    let next = self.next[cur as usize];
                    if next != NONE {
                        return next;
                    }
                    let p = self.parent[cur as usize];
                    if p == NONE || p == 0 {
                        return n;
                    }
                    cur = p;
                }
            }
            _ => i + 1,
        }
    }

    /// The parent: the element of an attribute or namespace node; `None` for the document.
    pub fn parent(&self, n: NodeRef) -> Option<NodeRef> {
        if n.ns != 0 {
            return Some(NodeRef::at(n.node));
        }
        let p = self.parent[n.node as usize];
        (p != NONE).then(|| NodeRef::at(p))
    }

    /// The first child of the document or an element.
    pub fn first_child(&self, n: NodeRef) -> Option<NodeRef> {
        if n.ns != 0 {
            return None;
        }
        let i = n.node;
        let mut j = i as usize + 1;
        match self.k(i) {
            K_DOCUMENT => {}
            K_ELEMENT => {
                while j < self.info.len() && self.info[j] & 7 == K_ATTRIBUTE {
                    j += 1;
                }
            }
            _ => return None,
        }
        (j < self.parent.len() && self.parent[j] == i).then(|| NodeRef::at(j as u32))
    }

    /// The last child of the document or an element.
    pub fn last_child(&self, n: NodeRef) -> Option<NodeRef> {
        self.first_child(n)?;
        let i = n.node;
        let mut c = self.subtree_end(i).checked_sub(1)?;
        while self.parent[c as usize] != i {
            c = self.parent[c as usize];
            if c == NONE || c <= i {
                return None; // Only a corrupt loaded index gets here.
            }
        }
        Some(NodeRef::at(c))
    }

    /// The next sibling (`None` for attributes, namespace nodes and the document).
    pub fn next_sibling(&self, n: NodeRef) -> Option<NodeRef> {
        if n.ns != 0 || matches!(self.k(n.node), K_ATTRIBUTE | K_DOCUMENT) {
            return None;
        }
        let s = self.next[n.node as usize];
        (s != NONE).then(|| NodeRef::at(s))
    }

    /// The previous sibling (`None` for attributes, namespace nodes and the document).
    pub fn prev_sibling(&self, n: NodeRef) -> Option<NodeRef> {
        if n.ns != 0 || matches!(self.k(n.node), K_ATTRIBUTE | K_DOCUMENT) {
            return None;
        }
        let i = n.node;
        let p = self.parent[i as usize];
        let mut j = i.checked_sub(1)?;
        if j == p || (self.k(j) == K_ATTRIBUTE && self.parent[j as usize] == p) {
            return None;
        }
        // `j` ends the previous sibling's subtree: climb to it.
        while self.parent[j as usize] != p {
            j = self.parent[j as usize];
            if j == NONE || j < p {
                return None; // Only a corrupt loaded index gets here.
            }
        }
        Some(NodeRef::at(j))
    }

    /// The first attribute of an element (namespace declarations are not attributes).
    pub fn first_attribute(&self, element: NodeRef) -> Option<NodeRef> {
        if element.ns != 0 || self.k(element.node) != K_ELEMENT {
            return None;
        }
        let j = element.node as usize + 1;
        (j < self.info.len() && self.info[j] & 7 == K_ATTRIBUTE).then(|| NodeRef::at(j as u32))
    }

    /// The attribute after `attribute` on its element.
    pub fn next_attribute(&self, attribute: NodeRef) -> Option<NodeRef> {
        if attribute.ns != 0 || self.k(attribute.node) != K_ATTRIBUTE {
            return None;
        }
        let s = self.next[attribute.node as usize];
        (s != NONE).then(|| NodeRef::at(s))
    }

    /// The children of the document or an element.
    pub fn children(&self, n: NodeRef) -> Children<'_, 'a> {
        Children {
            ix: self,
            next: self.first_child(n),
        }
    }

    /// The attributes of an element, in document order, then the ones defaulted from the DTD.
    pub fn attributes(&self, element: NodeRef) -> Attributes<'_, 'a> {
        Attributes {
            ix: self,
            next: self.first_attribute(element),
        }
    }

    /// `n` and its descendants in document order (attributes and namespace nodes are not
    /// descendants). A scan of a range of descriptors.
    ///
    /// ```
    /// let ix = xwire::index::Index::parse(b"<a><b x='1'><c/></b>t</a>")?;
    /// let names: Vec<_> = ix.descendants(ix.root()).map(|n| ix.name(n).to_string()).collect();
    /// assert_eq!(names, ["", "a", "b", "c", ""]);
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn descendants(&self, n: NodeRef) -> Descendants<'_, 'a> {
        let (next, end) = if n.ns != 0 || self.k(n.node) == K_ATTRIBUTE {
            (n.node, n.node) // Attributes and namespace nodes: none; see below.
        } else {
            (n.node, self.subtree_end(n.node))
        };
        Descendants {
            ix: self,
            next,
            end,
            single: (n.ns != 0 || self.k(n.node) == K_ATTRIBUTE).then_some(n),
        }
    }

    // ----- namespace nodes ------------------------------------------------------------------

    /// The declarations on element `e`.
    fn decls_of(&self, e: u32) -> &[Decl] {
        let a = self.decls.partition_point(|d| d.owner < e);
        let b = a + self.decls[a..].partition_point(|d| d.owner == e);
        &self.decls[a..b]
    }

    fn decl_prefix(&self, d: &Decl) -> &str {
        let (a, b) = (d.prefix as usize, (d.prefix + d.prefix_len) as usize);
        if d.in_extra {
            self.extra_text.get(a..b).unwrap_or("")
        } else {
            self.str_at(a, b)
        }
    }

    pub(super) fn ns_prefix(&self, n: NodeRef) -> &str {
        match n.ns {
            1 => "xml",
            d => self
                .decls
                .get(d as usize - 2)
                .map_or("", |d| self.decl_prefix(d)),
        }
    }

    pub(super) fn ns_uri(&self, n: NodeRef) -> &str {
        match n.ns {
            1 => XML_NS,
            d => self
                .decls
                .get(d as usize - 2)
                .map_or("", |d| self.uri(d.uri)),
        }
    }

    /// Appends the namespace nodes of an element: one per prefix in scope (the default
    /// namespace as prefix `""` unless undeclared, and always `xml`), ordered by handle.
    ///
    /// ```
    /// let ix = xwire::index::Index::parse(br#"<a xmlns="urn:a" xmlns:p="urn:p"><b xmlns=""/></a>"#)?;
    /// let b = ix.first_child(ix.root_element().unwrap()).unwrap();
    /// let mut ns = Vec::new();
    /// ix.namespaces(b, &mut ns);
    /// let mut seen: Vec<_> = ns.iter().map(|&n| (ix.name(n), ix.string_value(n).into_owned())).collect();
    /// seen.sort();
    /// assert_eq!(seen, [("p", "urn:p".to_string()), ("xml", xwire::XML_NS.to_string())]);
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn namespaces(&self, element: NodeRef, out: &mut Vec<NodeRef>) {
        if element.ns != 0 || self.k(element.node) != K_ELEMENT {
            return;
        }
        let e = element.node;
        let start = out.len();
        out.push(NodeRef { node: e, ns: 1 });
        let mut seen: Vec<&str> = Vec::new();
        let mut a = e;
        while a != NONE && a != 0 {
            let first = self.decls.partition_point(|d| d.owner < a);
            for (k, d) in self.decls_of(a).iter().enumerate() {
                let p = self.decl_prefix(d);
                if p == "xml" || seen.contains(&p) {
                    continue;
                }
                seen.push(p);
                if d.uri != 0 {
                    out.push(NodeRef {
                        node: e,
                        ns: (first + k) as u32 + 2,
                    });
                }
            }
            a = self.parent[a as usize];
        }
        out[start..].sort_unstable();
    }

    /// Compares two nodes in document order: O(1), by descriptor index (a namespace node
    /// sorts after its element and before the element's attributes).
    pub fn cmp_order(&self, a: NodeRef, b: NodeRef) -> Ordering {
        match (a.ns, b.ns) {
            (0, 0) => a.node.cmp(&b.node),
            (_, 0) => {
                if b.node <= a.node {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (0, _) => self.cmp_order(b, a).reverse(),
            _ => (a.node, a.ns).cmp(&(b.node, b.ns)),
        }
    }

    // ----- byte ranges ----------------------------------------------------------------------

    /// End of the start tag of element `e` (after its `>`).
    pub(super) fn start_tag_end(&self, e: u32) -> usize {
        let (_, name_end) = self.span_of(e);
        text::tag_end(self.doc, name_end)
    }

    /// The value span (between the quotes) of attribute `i` in the document.
    pub(super) fn attr_value_span(&self, i: u32) -> (usize, usize) {
        let (_, name_end) = self.span_of(i);
        text::attr_value(self.doc, name_end)
    }

    /// End of element `e` (after its end tag, or the `/>` of an empty-element tag).
    pub(super) fn element_end(&self, e: u32) -> usize {
        // The last descriptor of the subtree, then one end tag per element back up to `e`.
        let last = self.subtree_end(e).saturating_sub(1).max(e);
        let (mut cur, mut pos) = match self.k(last) {
            K_ELEMENT => (last, self.childless_end(last)),
            K_ATTRIBUTE => {
                let owner = self.parent[last as usize];
                (owner, self.childless_end(owner))
            }
            _ => (last, self.range(last).1),
        };
        while cur != e {
            let p = self.parent[cur as usize];
            if p == NONE || p < e {
                break; // Only a corrupt loaded index gets here.
            }
            cur = p;
            pos = text::after_end_tag(self.doc, pos);
        }
        pos
    }

    /// End of an element without children.
    fn childless_end(&self, e: u32) -> usize {
        let end = self.start_tag_end(e);
        if self.flags(e) & F_EMPTY != 0 {
            end
        } else {
            text::after_end_tag(self.doc, end)
        }
    }

    /// The bytes of a descriptor's node: an attribute with the white space before it.
    pub(super) fn range(&self, i: u32) -> (usize, usize) {
        let (a, b) = self.span_of(i);
        let end = match self.k(i) {
            K_DOCUMENT => return (0, self.doc.len()),
            K_ELEMENT => return (a.saturating_sub(1), self.element_end(i)),
            K_ATTRIBUTE => {
                if self.flags(i) & F_DEFAULTED != 0 {
                    let at = self.offset(NodeRef::at(i)) as usize;
                    return (at, at);
                }
                let mut s = a.min(self.doc.len());
                while s > 0 && crate::chars::is_whitespace(self.doc[s - 1]) {
                    s -= 1;
                }
                let (_, ve) = self.attr_value_span(i);
                return (s, (ve + 1).min(self.doc.len()));
            }
            K_TEXT => return (a, b),
            K_COMMENT => (a.saturating_sub(4), b + 3),
            _ => (a.saturating_sub(2), b + 2),
        };
        (end.0, end.1.min(self.doc.len()))
    }
}

/// Iterator over the children of a node ([`Index::children`]).
#[derive(Clone, Debug)]
pub struct Children<'i, 'a> {
    ix: &'i Index<'a>,
    next: Option<NodeRef>,
}

impl Iterator for Children<'_, '_> {
    type Item = NodeRef;

    fn next(&mut self) -> Option<NodeRef> {
        let cur = self.next?;
        self.next = self.ix.next_sibling(cur);
        Some(cur)
    }
}

/// Iterator over the attributes of an element ([`Index::attributes`]).
#[derive(Clone, Debug)]
pub struct Attributes<'i, 'a> {
    ix: &'i Index<'a>,
    next: Option<NodeRef>,
}

impl Iterator for Attributes<'_, '_> {
    type Item = NodeRef;

    fn next(&mut self) -> Option<NodeRef> {
        let cur = self.next?;
        self.next = self.ix.next_attribute(cur);
        Some(cur)
    }
}

/// Iterator over a node and its descendants ([`Index::descendants`]).
#[derive(Clone, Debug)]
pub struct Descendants<'i, 'a> {
    ix: &'i Index<'a>,
    next: u32,
    end: u32,
    /// An attribute or namespace node: it alone.
    single: Option<NodeRef>,
}

impl Iterator for Descendants<'_, '_> {
    type Item = NodeRef;

    fn next(&mut self) -> Option<NodeRef> {
        if let Some(n) = self.single.take() {
            return Some(n);
        }
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            if self.ix.k(i) != K_ATTRIBUTE {
                return Some(NodeRef::at(i));
            }
        }
        None
    }
}

/// The XPath data model over the index: text nodes are maximal (text, CDATA sections and
/// references merged), namespace declarations are namespace nodes, not attributes, and
/// document order is the order of descriptor indexes.
///
/// ```
/// use xwire::xpath::{Navigator, NodeKind};
///
/// let ix = xwire::index::Index::parse(b"<a>x<![CDATA[y]]>&amp;z<!--c--></a>")?;
/// let a = Navigator::first_child(&ix, Navigator::root(&ix)).unwrap();
/// let text = Navigator::first_child(&ix, a).unwrap();
/// assert_eq!(Navigator::kind(&ix, text), NodeKind::Text);
/// assert_eq!(Navigator::string_value(&ix, text), "xy&z");
/// # Ok::<(), xwire::Error>(())
/// ```
impl Navigator for Index<'_> {
    type Node = NodeRef;

    fn root(&self) -> NodeRef {
        NodeRef::at(0)
    }

    fn kind(&self, n: NodeRef) -> NodeKind {
        Index::kind(self, n)
    }

    fn parent(&self, n: NodeRef) -> Option<NodeRef> {
        Index::parent(self, n)
    }

    fn first_child(&self, n: NodeRef) -> Option<NodeRef> {
        Index::first_child(self, n)
    }

    fn last_child(&self, n: NodeRef) -> Option<NodeRef> {
        Index::last_child(self, n)
    }

    fn next_sibling(&self, n: NodeRef) -> Option<NodeRef> {
        Index::next_sibling(self, n)
    }

    fn prev_sibling(&self, n: NodeRef) -> Option<NodeRef> {
        Index::prev_sibling(self, n)
    }

    fn first_attribute(&self, element: NodeRef) -> Option<NodeRef> {
        Index::first_attribute(self, element)
    }

    fn next_attribute(&self, attribute: NodeRef) -> Option<NodeRef> {
        Index::next_attribute(self, attribute)
    }

    fn namespaces(&self, element: NodeRef, out: &mut Vec<NodeRef>) {
        Index::namespaces(self, element, out)
    }

    fn local_name(&self, n: NodeRef) -> &str {
        Index::local_name(self, n)
    }

    fn namespace_uri(&self, n: NodeRef) -> &str {
        Index::namespace_uri(self, n)
    }

    fn prefix(&self, n: NodeRef) -> &str {
        Index::prefix(self, n)
    }

    fn string_value(&self, n: NodeRef) -> Cow<'_, str> {
        Index::string_value(self, n)
    }

    fn cmp_order(&self, a: NodeRef, b: NodeRef) -> Ordering {
        Index::cmp_order(self, a, b)
    }

    fn has_name(&self, n: NodeRef, local: &str, uri: &str) -> bool {
        Index::has_name(self, n, local, uri)
    }

    fn append_string_value(&self, n: NodeRef, out: &mut String) {
        Index::append_string_value(self, n, out)
    }
}
