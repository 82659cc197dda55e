//! Editing a [`Document`]: making nodes, putting them in place, taking them out, and changing
//! names, attributes, text and namespace declarations.
//!
//! Every method checks its arguments before it changes anything, so an `Err` leaves the
//! document as it was.

use std::fmt;

use super::build::stored_text;
use super::{
    Attr, Decl, Document, Node, NodeId, NodeKind, KIND_SHIFT, K_COMMENT, K_DOCUMENT, K_ELEMENT,
    K_FREE, K_PI, NONE, OFF_NONE,
};
use crate::chars;
use crate::reader::{XMLNS_NS, XML_NS};

/// Why an edit was refused. The document is unchanged after an error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The node is not of a kind the operation applies to: (operation, the node's kind).
    WrongKind(&'static str, NodeKind),
    /// Only the document node and elements have children.
    NotAParent(NodeId),
    /// The node to insert is in a tree already: detach it first.
    Attached(NodeId),
    /// The document node cannot be inserted, detached or removed.
    DocumentNode,
    /// The insertion would put a node inside itself.
    Cycle,
    /// Inserting before or after a node that has no parent.
    NoParent(NodeId),
    /// The document node has a root element already.
    SecondRootElement,
    /// Text as a child of the document node.
    TextOutsideRoot,
    /// Not an NCName: (what, the string).
    InvalidName(&'static str, String),
    /// A character XML 1.0 does not allow.
    InvalidChar(char),
    /// A comment containing `--` or ending in `-`.
    InvalidComment,
    /// A processing instruction whose target is `xml` (in any case), or whose data holds
    /// `?>` or begins with white space (why).
    InvalidPi(&'static str),
    /// A name or declaration the Namespaces recommendation forbids (why).
    Namespace(&'static str),
    /// The document is full: 2^32 - 2 nodes, 4 GiB of text, 2^29 distinct names, or 2^32
    /// attribute or declaration slots.
    TooLarge,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::WrongKind(op, kind) => write!(f, "{op} does not apply to {kind:?} nodes"),
            EditError::NotAParent(n) => {
                write!(
                    f,
                    "{n:?} cannot have children (only elements and the document)"
                )
            }
            EditError::Attached(n) => write!(f, "{n:?} is in a tree already; detach it first"),
            EditError::DocumentNode => {
                f.write_str("the document node cannot be inserted, detached or removed")
            }
            EditError::Cycle => f.write_str("a node cannot be inserted into itself"),
            EditError::NoParent(n) => write!(f, "{n:?} has no parent to insert into"),
            EditError::SecondRootElement => f.write_str("the document has a root element already"),
            EditError::TextOutsideRoot => f.write_str("the document node cannot hold text"),
            EditError::InvalidName(what, s) => write!(f, "'{s}' is not a valid {what}"),
            EditError::InvalidChar(c) => write!(
                f,
                "the character U+{:04X} is not allowed in XML 1.0",
                *c as u32
            ),
            EditError::InvalidComment => {
                f.write_str("a comment cannot contain '--' or end with '-'")
            }
            EditError::InvalidPi(why) => write!(f, "invalid processing instruction: {why}"),
            EditError::Namespace(why) => f.write_str(why),
            EditError::TooLarge => f.write_str("the document cannot hold more nodes or text"),
        }
    }
}

impl std::error::Error for EditError {}

type Result<T> = std::result::Result<T, EditError>;

/// Where a new child goes among its parent's children.
enum Place {
    First,
    Last,
    Before(NodeId),
    After(NodeId),
}

impl Document {
    /// Makes a detached element `prefix:local` in namespace `uri` (`""` prefix: unprefixed,
    /// `""` URI: no namespace). A prefix needs a URI; `xml` goes with the XML namespace only
    /// and `xmlns` with nothing. The prefix is kept for writing; the writer declares it where
    /// no declaration in scope binds it.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let e = doc.create_element("s", "item", "urn:s")?;
    /// doc.append_child(doc.root_element().unwrap(), e)?;
    /// assert_eq!(doc.to_xml()?, r#"<r><s:item xmlns:s="urn:s"/></r>"#);
    /// assert!(doc.create_element("s", "item", "").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_element(&mut self, prefix: &str, local: &str, uri: &str) -> Result<NodeId> {
        check_name(prefix, local, uri, false)?;
        self.room(0)?;
        let name = self.qname_id(local, uri, prefix);
        let at = self.attrs.len() as u32;
        Ok(self.add_node(Node::new(K_ELEMENT, name, (at, at), OFF_NONE)))
    }

    /// Makes a detached text node. Empty text is allowed (until [`Document::normalize`]).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let t = doc.create_text("a < b")?;
    /// doc.append_child(doc.root_element().unwrap(), t)?;
    /// assert_eq!(doc.to_xml()?, "<r>a &lt; b</r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_text(&mut self, text: &str) -> Result<NodeId> {
        check_chars(text)?;
        self.room(text.len())?;
        let (kind, data) = stored_text(self, text);
        Ok(self.add_node(Node::new(kind, 0, data, OFF_NONE)))
    }

    /// Makes a detached comment (no `--` inside, no `-` at the end).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let c = doc.create_comment(" note ")?;
    /// doc.prepend_child(doc.root(), c)?;
    /// assert_eq!(doc.to_xml()?, "<!-- note --><r/>");
    /// assert!(doc.create_comment("a--b").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_comment(&mut self, text: &str) -> Result<NodeId> {
        check_comment(text)?;
        self.room(text.len())?;
        let data = self.push_text(text);
        Ok(self.add_node(Node::new(K_COMMENT, 0, data, OFF_NONE)))
    }

    /// Makes a detached processing instruction (target an NCName other than `xml`, data
    /// without `?>` and not beginning with white space).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let pi = doc.create_pi("style", "href='a.css'")?;
    /// doc.prepend_child(doc.root(), pi)?;
    /// assert_eq!(doc.to_xml()?, "<?style href='a.css'?><r/>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create_pi(&mut self, target: &str, data: &str) -> Result<NodeId> {
        check_pi(target, data)?;
        self.room(data.len())?;
        let name = self.qname_id(target, "", "");
        let data = self.push_text(data);
        Ok(self.add_node(Node::new(K_PI, name, data, OFF_NONE)))
    }

    /// Makes the detached node `new` the last child of `parent`.
    ///
    /// Errors: `parent` is not an element or the document node, `new` is the document node
    /// or is attached, `new` is `parent` or one of its ancestors, or the document node would
    /// get text or a second element.
    ///
    /// ```
    /// use xwire::tree::{Document, EditError};
    /// let mut doc = Document::parse(b"<r><a/></r>")?;
    /// let r = doc.root_element().unwrap();
    /// let b = doc.create_element("", "b", "")?;
    /// doc.append_child(r, b)?;
    /// assert_eq!(doc.to_xml()?, "<r><a/><b/></r>");
    /// let a = doc.first_child(r).unwrap();
    /// assert_eq!(doc.append_child(b, a), Err(EditError::Attached(a)));
    /// let second = doc.create_element("", "r2", "")?;
    /// assert_eq!(doc.append_child(doc.root(), second), Err(EditError::SecondRootElement));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_child(&mut self, parent: NodeId, new: NodeId) -> Result<()> {
        self.insert(parent, new, Place::Last)
    }

    /// Makes the detached node `new` the first child of `parent` (errors as
    /// [`Document::append_child`]).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a/></r>")?;
    /// let r = doc.root_element().unwrap();
    /// let t = doc.create_text("x")?;
    /// doc.prepend_child(r, t)?;
    /// assert_eq!(doc.to_xml()?, "<r>x<a/></r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepend_child(&mut self, parent: NodeId, new: NodeId) -> Result<()> {
        self.insert(parent, new, Place::First)
    }

    /// Puts the detached node `new` just before `reference` (errors as
    /// [`Document::append_child`] for `reference`'s parent, and [`EditError::NoParent`]).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a/></r>")?;
    /// let a = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// let c = doc.create_comment("before a")?;
    /// doc.insert_before(a, c)?;
    /// assert_eq!(doc.to_xml()?, "<r><!--before a--><a/></r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert_before(&mut self, reference: NodeId, new: NodeId) -> Result<()> {
        let parent = self
            .parent(reference)
            .ok_or(EditError::NoParent(reference))?;
        self.insert(parent, new, Place::Before(reference))
    }

    /// Puts the detached node `new` just after `reference` (errors as
    /// [`Document::insert_before`]).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a/><c/></r>")?;
    /// let a = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// let b = doc.create_element("", "b", "")?;
    /// doc.insert_after(a, b)?;
    /// assert_eq!(doc.to_xml()?, "<r><a/><b/><c/></r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert_after(&mut self, reference: NodeId, new: NodeId) -> Result<()> {
        let parent = self
            .parent(reference)
            .ok_or(EditError::NoParent(reference))?;
        self.insert(parent, new, Place::After(reference))
    }

    /// Takes `n` and its descendants out of the tree; the subtree keeps its ids and can be
    /// inserted again (a move). Detaching a detached node does nothing.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a/><b/></r>")?;
    /// let r = doc.root_element().unwrap();
    /// let a = doc.first_child(r).unwrap();
    /// doc.detach(a)?;
    /// assert_eq!(doc.to_xml()?, "<r><b/></r>");
    /// doc.append_child(r, a)?;
    /// assert_eq!(doc.to_xml()?, "<r><b/><a/></r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn detach(&mut self, n: NodeId) -> Result<()> {
        if n == self.root() {
            self.node(n);
            return Err(EditError::DocumentNode);
        }
        if self.node(n).parent == NONE {
            return Ok(());
        }
        let (prev, next) = (self.prev_sibling(n), self.next_sibling(n));
        self.unlink(n.0);
        if let (Some(p), Some(q)) = (prev, next) {
            if self.node(p).is_text() && self.node(q).is_text() {
                self.normalized = false;
            }
        }
        self.reordered();
        Ok(())
    }

    /// Takes `n` out of the tree and drops it with its descendants: their ids become invalid
    /// (using one panics; slots are not reused).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a><b/></a></r>")?;
    /// let a = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// doc.remove(a)?;
    /// assert_eq!(doc.to_xml()?, "<r/>");
    /// assert!(std::panic::catch_unwind(|| doc.kind(a)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn remove(&mut self, n: NodeId) -> Result<()> {
        self.detach(n)?;
        self.free_subtree(n);
        Ok(())
    }

    /// Whether `n` is in the document's tree (not detached, nor inside a detached subtree).
    /// O(depth).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r><a><b/></a></r>")?;
    /// let a = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// let b = doc.first_child(a).unwrap();
    /// doc.detach(a)?;
    /// assert!(!doc.is_attached(b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn is_attached(&self, n: NodeId) -> bool {
        self.top(n) == self.root()
    }

    /// Renames an element (checks as [`Document::create_element`]). Its attributes,
    /// declarations and children are unchanged.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let r = doc.root_element().unwrap();
    /// doc.rename(r, "n", "root", "urn:n")?;
    /// assert_eq!(doc.to_xml()?, r#"<n:root xmlns:n="urn:n"/>"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn rename(&mut self, n: NodeId, prefix: &str, local: &str, uri: &str) -> Result<()> {
        self.expect_element(n, "rename")?;
        check_name(prefix, local, uri, false)?;
        self.room(0)?;
        let name = self.qname_id(local, uri, prefix);
        self.nodes[n.index()].tag = K_ELEMENT << KIND_SHIFT | name;
        Ok(())
    }

    /// Sets the attribute `(uri, local)` of an element: replaces its value and prefix in
    /// place if the element has it, else adds it last. Names are checked as for
    /// [`Document::create_element`]; `xmlns` attributes are namespace declarations
    /// ([`Document::declare_namespace`]).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(br#"<r a="1" b="2"/>"#)?;
    /// let r = doc.root_element().unwrap();
    /// doc.set_attribute(r, "", "a", "", "one")?;
    /// doc.set_attribute(r, "xml", "lang", xwire::XML_NS, "en")?;
    /// assert_eq!(doc.to_xml()?, r#"<r a="one" b="2" xml:lang="en"/>"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn set_attribute(
        &mut self,
        n: NodeId,
        prefix: &str,
        local: &str,
        uri: &str,
        value: &str,
    ) -> Result<()> {
        self.expect_element(n, "set_attribute")?;
        check_name(prefix, local, uri, true)?;
        check_chars(value)?;
        self.room(value.len())?;
        let (a, b) = self.nodes[n.index()].data;
        if self.attrs.len() + (b - a) as usize + 1 >= u32::MAX as usize {
            return Err(EditError::TooLarge);
        }
        let found = self.find_attribute(n, uri, local);
        let attr = Attr {
            name: self.qname_id(local, uri, prefix),
            value: self.push_text(value),
        };
        match found {
            Some(i) => self.attrs[i] = attr,
            None => {
                let data = self.grow(a, b, attr);
                self.nodes[n.index()].data = data;
            }
        }
        Ok(())
    }

    /// Removes the attribute `(uri, local)` of an element; whether it had it. The other
    /// attributes keep their order.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(br#"<r a="1" b="2"/>"#)?;
    /// let r = doc.root_element().unwrap();
    /// assert!(doc.remove_attribute(r, "", "a")?);
    /// assert!(!doc.remove_attribute(r, "", "a")?);
    /// assert_eq!(doc.to_xml()?, r#"<r b="2"/>"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn remove_attribute(&mut self, n: NodeId, uri: &str, local: &str) -> Result<bool> {
        self.expect_element(n, "remove_attribute")?;
        let Some(i) = self.find_attribute(n, uri, local) else {
            return Ok(false);
        };
        let end = self.nodes[n.index()].data.1 as usize;
        self.attrs[i..end].rotate_left(1);
        self.nodes[n.index()].data.1 -= 1;
        Ok(true)
    }

    /// Replaces the text of a text or comment node, or the data of a PI (checked as when
    /// creating one). The node keeps its id and source offset.
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r>old<!--c--></r>")?;
    /// let t = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// doc.set_text(t, "new")?;
    /// assert_eq!(doc.to_xml()?, "<r>new<!--c--></r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn set_text(&mut self, n: NodeId, text: &str) -> Result<()> {
        self.room(text.len())?;
        let node = self.node(n);
        let (kind, data) = match node.kind() {
            _ if node.is_text() => {
                check_chars(text)?;
                if text.is_empty() {
                    self.normalized = false;
                }
                stored_text(self, text)
            }
            K_COMMENT => {
                check_comment(text)?;
                (K_COMMENT, self.push_text(text))
            }
            K_PI => {
                check_pi(self.local_name(n), text)?;
                (K_PI, self.push_text(text))
            }
            _ => return Err(EditError::WrongKind("set_text", self.kind(n))),
        };
        let node = &mut self.nodes[n.index()];
        node.tag = kind << KIND_SHIFT | node.name();
        node.data = data;
        Ok(())
    }

    /// Replaces the children of an element by one text node holding `text` (none if `text`
    /// is empty), which it returns. The old children are removed (their ids become
    /// invalid).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r>a<b/>c</r>")?;
    /// let r = doc.root_element().unwrap();
    /// let t = doc.set_text_content(r, "x & y")?.unwrap();
    /// assert_eq!(doc.text(t), "x & y");
    /// assert_eq!(doc.to_xml()?, "<r>x &amp; y</r>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn set_text_content(&mut self, element: NodeId, text: &str) -> Result<Option<NodeId>> {
        self.expect_element(element, "set_text_content")?;
        check_chars(text)?;
        self.room(text.len())?;
        while let Some(c) = self.first_child(element) {
            self.unlink(c.0);
            self.free_subtree(c);
        }
        self.reordered();
        if text.is_empty() {
            return Ok(None);
        }
        let t = self.create_text(text)?;
        self.insert(element, t, Place::Last)?;
        Ok(Some(t))
    }

    /// Declares `prefix` (`""`: the default namespace) bound to `uri` on an element,
    /// replacing its declaration of the same prefix. Names in the tree keep their URIs: a
    /// declaration only says where the writer binds a prefix (it repairs conflicts by
    /// declaring what names need).
    ///
    /// Errors: not an element; a prefix that is not an NCName, is `xmlns`, or is `xml` with
    /// another URI; the XML namespace for another prefix; the `xmlns` namespace; a prefix
    /// with the empty URI (undeclaring is Namespaces 1.1).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r/>")?;
    /// let r = doc.root_element().unwrap();
    /// doc.declare_namespace(r, "p", "urn:p")?;
    /// assert_eq!(doc.to_xml()?, r#"<r xmlns:p="urn:p"/>"#);
    /// assert!(doc.remove_namespace_declaration(r, "p")?);
    /// assert_eq!(doc.to_xml()?, "<r/>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn declare_namespace(&mut self, element: NodeId, prefix: &str, uri: &str) -> Result<()> {
        self.expect_element(element, "declare_namespace")?;
        if !prefix.is_empty() && !chars::is_ncname(prefix) {
            return Err(EditError::InvalidName("prefix", prefix.into()));
        }
        check_chars(uri)?;
        if prefix == "xmlns" || uri == XMLNS_NS {
            return Err(EditError::Namespace(
                "the prefix xmlns and its namespace cannot be declared",
            ));
        }
        if (prefix == "xml") != (uri == XML_NS) {
            return Err(EditError::Namespace(
                "the prefix xml and the XML namespace go together only",
            ));
        }
        if !prefix.is_empty() && uri.is_empty() {
            return Err(EditError::Namespace(
                "a prefix cannot be bound to the empty namespace URI",
            ));
        }
        self.room(0)?;
        if self.decls.len() + self.namespace_declarations(element).count() + 1 >= u32::MAX as usize
        {
            return Err(EditError::TooLarge);
        }
        let decl = Decl {
            prefix: self.names.intern(prefix).0,
            uri: self.uris.intern(uri).0,
        };
        match self.decl_slot(element) {
            Some(slot) => {
                let (_, a, b) = self.decl_ranges[slot];
                if let Some(d) = self.decls[a as usize..b as usize]
                    .iter_mut()
                    .find(|d| d.prefix == decl.prefix)
                {
                    *d = decl;
                    return Ok(());
                }
                let (a, b) = grow(&mut self.decls, a, b, decl);
                self.decl_ranges[slot] = (element.0, a, b);
            }
            None => {
                let at = self.decl_ranges.partition_point(|r| r.0 < element.0);
                let start = self.decls.len() as u32;
                self.decls.push(decl);
                self.decl_ranges.insert(at, (element.0, start, start + 1));
            }
        }
        Ok(())
    }

    /// Removes the declaration of `prefix` (`""`: the default namespace) from an element;
    /// whether it had one.
    #[track_caller]
    pub fn remove_namespace_declaration(&mut self, element: NodeId, prefix: &str) -> Result<bool> {
        self.expect_element(element, "remove_namespace_declaration")?;
        let Some(slot) = self.decl_slot(element) else {
            return Ok(false);
        };
        let (_, a, b) = self.decl_ranges[slot];
        let (a, b) = (a as usize, b as usize);
        let Some(i) = (a..b).find(|&i| self.names.get(crate::Id(self.decls[i].prefix)) == prefix)
        else {
            return Ok(false);
        };
        self.decls[i..b].rotate_left(1);
        if b - 1 == a {
            self.decl_ranges.remove(slot);
        } else {
            self.decl_ranges[slot].2 -= 1;
        }
        Ok(true)
    }

    /// Whether no edit has left adjacent or empty text nodes since the document was parsed
    /// or last normalized (conservative: an edit that might have is enough).
    pub fn is_normalized(&self) -> bool {
        self.normalized
    }

    /// Merges adjacent text nodes and removes empty ones, in the tree and in detached
    /// subtrees, so text nodes are maximal again as the XPath data model wants. A run of
    /// text nodes becomes its first node; the others are removed (their ids become invalid).
    /// O(nodes) unless [`Document::is_normalized`] already holds.
    ///
    /// # Panics
    ///
    /// If the merged text does not fit the 4 GiB text arena (only a document close to that
    /// limit).
    ///
    /// ```
    /// let mut doc = xwire::tree::Document::parse(b"<r>a</r>")?;
    /// let r = doc.root_element().unwrap();
    /// let a = doc.first_child(r).unwrap();
    /// let b = doc.create_text("b")?;
    /// doc.append_child(r, b)?;
    /// assert_eq!(doc.children(r).count(), 2);
    /// assert!(!doc.is_normalized());
    /// doc.normalize();
    /// assert_eq!(doc.children(r).collect::<Vec<_>>(), [a]);
    /// assert_eq!(doc.text(a), "ab");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize(&mut self) {
        if self.normalized {
            return;
        }
        let mut removed = false;
        for p in 0..self.nodes.len() {
            if !matches!(self.nodes[p].kind(), K_ELEMENT | K_DOCUMENT) {
                continue;
            }
            let mut c = self.nodes[p].first_child;
            while c != NONE {
                let mut end = self.nodes[c as usize].next;
                if !self.nodes[c as usize].is_text() {
                    c = end;
                    continue;
                }
                let joins = end != NONE && self.nodes[end as usize].is_text();
                if joins || self.text(NodeId(c)).is_empty() {
                    let mut joined = self.text(NodeId(c)).to_string();
                    while end != NONE && self.nodes[end as usize].is_text() {
                        joined.push_str(self.text(NodeId(end)));
                        let after = self.nodes[end as usize].next;
                        self.unlink(end);
                        self.free_subtree(NodeId(end));
                        end = after;
                    }
                    if joined.is_empty() {
                        self.unlink(c);
                        self.free_subtree(NodeId(c));
                    } else if joins {
                        assert!(
                            self.room(joined.len()).is_ok(),
                            "normalize: the text arena is full"
                        );
                        let (kind, data) = stored_text(self, &joined);
                        let node = &mut self.nodes[c as usize];
                        node.tag = kind << KIND_SHIFT;
                        node.data = data;
                    }
                    removed = true;
                }
                c = end;
            }
        }
        if removed {
            self.reordered();
        }
        self.normalized = true;
    }

    // ---- helpers ----

    /// Whether the document has room for a node, a name and `text` more bytes of text.
    pub(super) fn room(&self, text: usize) -> Result<()> {
        if self.nodes.len() >= NONE as usize - 2
            || self.text.len().saturating_add(text) >= u32::MAX as usize
            || self.qnames.len() >= super::MAX_QNAMES - 2
        {
            return Err(EditError::TooLarge);
        }
        Ok(())
    }

    fn add_node(&mut self, node: Node) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(node);
        self.reordered();
        NodeId(id as u32)
    }

    #[track_caller]
    fn expect_element(&self, n: NodeId, op: &'static str) -> Result<()> {
        match self.node(n).kind() {
            K_ELEMENT => Ok(()),
            _ => Err(EditError::WrongKind(op, self.kind(n))),
        }
    }

    /// The root of the tree holding `n` (the document node if it is attached).
    fn top(&self, n: NodeId) -> NodeId {
        let mut top = n;
        while let Some(p) = self.parent(top) {
            top = p;
        }
        top
    }

    #[track_caller]
    fn insert(&mut self, parent: NodeId, new: NodeId, place: Place) -> Result<()> {
        let p = self.node(parent).kind();
        let node = self.node(new);
        let kind = node.kind();
        if p != K_ELEMENT && p != K_DOCUMENT {
            return Err(EditError::NotAParent(parent));
        }
        if new == self.root() {
            return Err(EditError::DocumentNode);
        }
        if node.parent != NONE {
            return Err(EditError::Attached(new));
        }
        if self.top(parent) == new {
            return Err(EditError::Cycle);
        }
        if parent == self.root() {
            if node.is_text() {
                return Err(EditError::TextOutsideRoot);
            }
            if kind == K_ELEMENT && self.root_element().is_some() {
                return Err(EditError::SecondRootElement);
            }
        }
        let before = match place {
            Place::First => self.nodes[parent.index()].first_child,
            Place::Last => NONE,
            Place::Before(r) => r.0,
            Place::After(r) => self.nodes[r.index()].next,
        };
        self.link_child(parent.0, before, new.0);
        if self.nodes[new.index()].is_text() {
            let adjacent = |s: Option<NodeId>| s.is_some_and(|s| self.nodes[s.index()].is_text());
            if self.text(new).is_empty()
                || adjacent(self.prev_sibling(new))
                || adjacent(self.next_sibling(new))
            {
                self.normalized = false;
            }
        }
        self.reordered();
        Ok(())
    }

    /// Links the detached `x` as a child of `p` before its child `before` (`NONE`: last).
    fn link_child(&mut self, p: u32, before: u32, x: u32) {
        let first = self.nodes[p as usize].first_child;
        let (prev, next) = if first == NONE {
            self.nodes[p as usize].first_child = x;
            (x, NONE)
        } else if before == NONE {
            let last = self.nodes[first as usize].prev;
            self.nodes[last as usize].next = x;
            self.nodes[first as usize].prev = x;
            (last, NONE)
        } else if before == first {
            let last = self.nodes[first as usize].prev;
            self.nodes[first as usize].prev = x;
            self.nodes[p as usize].first_child = x;
            (last, first)
        } else {
            let prev = self.nodes[before as usize].prev;
            self.nodes[prev as usize].next = x;
            self.nodes[before as usize].prev = x;
            (prev, before)
        };
        let node = &mut self.nodes[x as usize];
        node.parent = p;
        node.prev = prev;
        node.next = next;
    }

    /// Unlinks `x` from its parent (which it has).
    fn unlink(&mut self, x: u32) {
        let Node {
            parent, prev, next, ..
        } = self.nodes[x as usize];
        let first = self.nodes[parent as usize].first_child;
        if x == first {
            self.nodes[parent as usize].first_child = next;
            if next != NONE {
                // `prev` of the first child is the last child.
                self.nodes[next as usize].prev = prev;
            }
        } else {
            self.nodes[prev as usize].next = next;
            let after = if next == NONE { first } else { next };
            self.nodes[after as usize].prev = prev;
        }
        let node = &mut self.nodes[x as usize];
        node.parent = NONE;
        node.prev = NONE;
        node.next = NONE;
    }

    /// Marks the detached subtree of `top` removed.
    fn free_subtree(&mut self, top: NodeId) {
        let doomed: Vec<NodeId> = self.descendants(top).collect();
        let mut declared = false;
        for n in doomed {
            let node = &mut self.nodes[n.index()];
            declared |= node.kind() == K_ELEMENT;
            *node = Node::new(K_FREE, 0, (0, 0), OFF_NONE);
        }
        if declared && !self.decl_ranges.is_empty() {
            let nodes = &self.nodes;
            self.decl_ranges
                .retain(|r| nodes[r.0 as usize].kind() != K_FREE);
        }
        self.reordered();
    }

    /// The index in `attrs` of an element's attribute `(uri, local)`.
    fn find_attribute(&self, n: NodeId, uri: &str, local: &str) -> Option<usize> {
        self.attr_range(n).find(|&i| {
            let a = self.attr_at(i);
            a.local_name == local && a.namespace_uri == uri
        })
    }

    /// Adds `attr` to the attributes `a..b` of an element; their new range.
    fn grow(&mut self, a: u32, b: u32, attr: Attr) -> (u32, u32) {
        grow(&mut self.attrs, a, b, attr)
    }
}

/// Adds `item` after the range `a..b` of `v`: in place when the range ends `v`, else after a
/// copy of the range at the end (the old slots are left unused). The new range.
fn grow<T: Clone>(v: &mut Vec<T>, a: u32, b: u32, item: T) -> (u32, u32) {
    let (a, b) = if b as usize == v.len() {
        (a, b)
    } else {
        let start = v.len() as u32;
        v.extend_from_within(a as usize..b as usize);
        (start, v.len() as u32)
    };
    v.push(item);
    (a, b + 1)
}

/// Checks a name for an element (`attribute`: false) or an attribute.
fn check_name(prefix: &str, local: &str, uri: &str, attribute: bool) -> Result<()> {
    if !chars::is_ncname(local) {
        return Err(EditError::InvalidName("local name", local.into()));
    }
    if !prefix.is_empty() && !chars::is_ncname(prefix) {
        return Err(EditError::InvalidName("prefix", prefix.into()));
    }
    check_chars(uri)?;
    if prefix == "xmlns" || uri == XMLNS_NS || (attribute && prefix.is_empty() && local == "xmlns")
    {
        return Err(EditError::Namespace(
            "xmlns names are namespace declarations (declare_namespace)",
        ));
    }
    if (prefix == "xml") != (uri == XML_NS) {
        return Err(EditError::Namespace(
            "the prefix xml and the XML namespace go together only",
        ));
    }
    if !prefix.is_empty() && uri.is_empty() {
        return Err(EditError::Namespace(
            "a prefixed name needs a namespace URI",
        ));
    }
    Ok(())
}

fn check_chars(s: &str) -> Result<()> {
    match s.chars().find(|&c| !chars::is_xml_char(c)) {
        Some(c) => Err(EditError::InvalidChar(c)),
        None => Ok(()),
    }
}

fn check_comment(s: &str) -> Result<()> {
    if s.contains("--") || s.ends_with('-') {
        return Err(EditError::InvalidComment);
    }
    check_chars(s)
}

fn check_pi(target: &str, data: &str) -> Result<()> {
    if !chars::is_ncname(target) {
        return Err(EditError::InvalidName("PI target", target.into()));
    }
    if target.eq_ignore_ascii_case("xml") {
        return Err(EditError::InvalidPi("the target xml is reserved"));
    }
    if data.contains("?>") {
        return Err(EditError::InvalidPi("the data contains '?>'"));
    }
    if data.bytes().next().is_some_and(chars::is_whitespace) {
        return Err(EditError::InvalidPi("the data begins with white space"));
    }
    check_chars(data)
}
