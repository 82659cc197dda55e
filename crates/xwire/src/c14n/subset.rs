//! Canonical XML of document subsets (XPath node-sets) over any [`Navigator`].
//!
//! The rules are those of Canonical XML 1.0 section 2.3 and 4 ("Document Subsets"), of
//! Canonical XML 1.1 section 2.4 and of Exclusive XML Canonicalization 1.0 section 3; see the
//! [module documentation](super) for what each mode does.

use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};
use std::io::Write;

use super::{
    base, escape, is_relative, relative_uri_message, write_attr_value, write_comment, write_ns,
    write_pi, C14nError, C14nOptions, Mode, Place, FLUSH_AT, TEXT,
};
use crate::xpath::{Evaluator, Navigator, NodeKind, XPath, XPathError, XML_NAMESPACE};

/// The nodes of a document subset: what [`canonicalize_subset`] asks of a node-set.
///
/// Implemented for a `HashSet` of nodes (any hasher) and for any `Fn(node) -> bool`.
///
/// ```
/// use std::collections::HashSet;
/// use xwire::c14n::NodeSet;
///
/// let set: HashSet<u32> = [1, 2].into_iter().collect();
/// assert!(NodeSet::contains(&set, 2));
/// let even = |n: u32| n % 2 == 0;
/// assert!(NodeSet::contains(&even, 4));
/// ```
pub trait NodeSet<N> {
    /// Whether `node` is in the set.
    fn contains(&self, node: N) -> bool;
}

impl<N: Eq + Hash, S: BuildHasher> NodeSet<N> for HashSet<N, S> {
    fn contains(&self, node: N) -> bool {
        HashSet::contains(self, &node)
    }
}

impl<N, F: Fn(N) -> bool> NodeSet<N> for F {
    fn contains(&self, node: N) -> bool {
        self(node)
    }
}

/// Canonicalizes the document subset `set` of `nav`'s document into `out`.
///
/// The set is an XPath node-set: elements, text, comments and PIs, but also attributes and
/// namespace nodes, each of which is output only if it is in the set. Elements outside the set
/// are omitted while their descendants in the set are output; an element's namespace
/// declarations are derived from its namespace nodes in the set (inclusive modes) or from the
/// prefixes it and its attributes in the set visibly use (exclusive mode). Comments are output
/// only with [`C14nOptions::with_comments`].
///
/// ```
/// use std::collections::HashSet;
/// use xwire::c14n::{self, C14nOptions};
/// use xwire::tree::{Document, Handle};
/// use xwire::xpath::Navigator;
///
/// let doc = Document::parse(br#"<a xml:lang="en"><b x="1" y="2">t</b><c/></a>"#)?;
/// let b = doc.descendants(doc.root()).find(|&n| doc.local_name(n) == "b").unwrap();
/// // `b`, its attribute `y` and its text; `a` is omitted, its `xml:lang` is inherited.
/// let y = Navigator::next_attribute(&doc, Navigator::first_attribute(&doc, b.into()).unwrap());
/// let text = doc.first_child(b).unwrap();
/// let set: HashSet<Handle> = [b.into(), y.unwrap(), text.into()].into_iter().collect();
/// let mut out = Vec::new();
/// c14n::canonicalize_subset(&doc, &set, &C14nOptions::default(), &mut out)?;
/// assert_eq!(out, br#"<b y="2" xml:lang="en">t</b>"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn canonicalize_subset<N, S>(
    nav: &N,
    set: &S,
    options: &C14nOptions,
    out: impl Write,
) -> Result<(), C14nError>
where
    N: Navigator,
    S: NodeSet<N::Node> + ?Sized,
{
    Subset::new(nav, set, options).run(nav.root(), out)
}

/// Canonicalizes the subtree of `apex` (the node, its descendants, and their attributes and
/// namespace nodes; comments only with [`C14nOptions::with_comments`]) as a document subset:
/// the node-set of an XML Signature same-document reference (`URI="#id"` without comments,
/// `URI="#xpointer(id('id'))"` with them). The apex inherits the namespaces in scope (in
/// inclusive modes) and, in Canonical XML 1.0 and 1.1, the `xml:` attributes of its ancestors.
///
/// ```
/// use xwire::c14n::{self, C14nOptions, Mode};
/// use xwire::tree::Document;
///
/// let doc = Document::parse(br#"<a xmlns="urn:a" xmlns:p="urn:p"><p:b><c/></p:b></a>"#)?;
/// let b = doc.first_child(doc.root_element().unwrap()).unwrap();
/// let mut out = Vec::new();
/// c14n::canonicalize_subtree(&doc, b.into(), &C14nOptions::default(), &mut out)?;
/// assert_eq!(out, br#"<p:b xmlns="urn:a" xmlns:p="urn:p"><c></c></p:b>"#);
/// out.clear();
/// let exclusive = C14nOptions::new(Mode::exclusive(""), false);
/// c14n::canonicalize_subtree(&doc, b.into(), &exclusive, &mut out)?;
/// assert_eq!(out, br#"<p:b xmlns:p="urn:p"><c xmlns="urn:a"></c></p:b>"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn canonicalize_subtree<N: Navigator>(
    nav: &N,
    apex: N::Node,
    options: &C14nOptions,
    out: impl Write,
) -> Result<(), C14nError> {
    let in_subtree = |n: N::Node| {
        let mut cur = Some(n);
        while let Some(c) = cur {
            if c == apex {
                return true;
            }
            cur = nav.parent(c);
        }
        false
    };
    Subset::new(nav, &in_subtree, options).run(apex, out)
}

/// Canonicalizes the node-set `xpath` selects with the document node as context: how the
/// examples of Canonical XML and libxml2's test vectors name a document subset, typically
/// `(//. | //@* | //namespace::*)[predicate]`. An expression whose value is not a node-set is
/// an error.
///
/// ```
/// use xwire::c14n::{self, C14nOptions};
/// use xwire::tree::Document;
/// use xwire::xpath::{Namespaces, XPath};
///
/// let doc = Document::parse(br#"<a xmlns="urn:a"><b x="1"/><c><b/></c></a>"#)?;
/// let ns = Namespaces::new().with("a", "urn:a");
/// let xp = XPath::compile_with("(//. | //@* | //namespace::*)[ancestor-or-self::a:c]", &ns)?;
/// let mut out = Vec::new();
/// c14n::canonicalize_xpath(&doc, &xp, &C14nOptions::default(), &mut out)?;
/// assert_eq!(out, br#"<c xmlns="urn:a"><b></b></c>"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn canonicalize_xpath<N: Navigator>(
    nav: &N,
    xpath: &XPath,
    options: &C14nOptions,
    out: impl Write,
) -> Result<(), C14nError> {
    let nodes = xpath.select(nav, nav.root()).map_err(C14nError::XPath)?;
    let set: HashSet<N::Node> = nodes.into_iter().collect();
    canonicalize_subset(nav, &set, options, out)
}

/// The nodes of the subtree of `from` in document order, attributes and namespace nodes
/// included, comments only if `comments`: the node-set of an XML Signature reference to a
/// whole document (`URI=""` without comments, `URI="#xpointer(/)"` with them) when `from` is
/// the document node, or to an element.
///
/// ```
/// use xwire::c14n;
/// use xwire::tree::Document;
/// use xwire::xpath::Navigator;
///
/// let doc = Document::parse(b"<a x='1'><!--c-->t</a>")?;
/// // document, a, its namespace node for `xml`, x, the text.
/// assert_eq!(c14n::subtree_nodes(&doc, doc.root().into(), false).len(), 5);
/// assert_eq!(c14n::subtree_nodes(&doc, doc.root().into(), true).len(), 6);
/// # Ok::<(), xwire::Error>(())
/// ```
pub fn subtree_nodes<N: Navigator>(nav: &N, from: N::Node, comments: bool) -> Vec<N::Node> {
    let mut out = Vec::new();
    let mut next = Some(from);
    while let Some(n) = next {
        let kind = nav.kind(n);
        if kind != NodeKind::Comment || comments {
            out.push(n);
        }
        if kind == NodeKind::Element {
            nav.namespaces(n, &mut out);
            let mut a = nav.first_attribute(n);
            while let Some(x) = a {
                out.push(x);
                a = nav.next_attribute(x);
            }
        }
        // Document order without recursion: first child, else the next sibling of the
        // nearest ancestor (or self) below `from` that has one.
        next = nav.first_child(n);
        let mut up = n;
        while next.is_none() && up != from {
            next = nav.next_sibling(up);
            match nav.parent(up) {
                Some(p) if next.is_none() => up = p,
                _ => break,
            }
        }
    }
    out
}

/// The XML Signature XPath filter (XMLDSig section 6.6.3): the nodes of `input` for which
/// `xpath`, evaluated with the node as context and converted to a boolean, is true. The
/// evaluator brings the variables and extension functions (such as `here()`) the expression
/// uses.
///
/// ```
/// use xwire::c14n::{self, C14nOptions};
/// use xwire::tree::Document;
/// use xwire::xpath::{Evaluator, XPath};
///
/// let doc = Document::parse(b"<a><b><c/></b><d/></a>")?;
/// let all = c14n::subtree_nodes(&doc, doc.root().into(), false);
/// let not_b = XPath::compile("not(ancestor-or-self::b)")?;
/// let kept = c14n::xpath_filter(&doc, &not_b, &mut Evaluator::new(), all)?;
/// let mut out = Vec::new();
/// c14n::canonicalize_subset(&doc, &kept, &C14nOptions::default(), &mut out)?;
/// assert_eq!(out, b"<a><d></d></a>");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn xpath_filter<N: Navigator>(
    nav: &N,
    xpath: &XPath,
    evaluator: &mut Evaluator<'_, N::Node>,
    input: impl IntoIterator<Item = N::Node>,
) -> Result<HashSet<N::Node>, XPathError> {
    let mut kept = HashSet::new();
    for n in input {
        if evaluator.evaluate(xpath, nav, n)?.to_boolean() {
            kept.insert(n);
        }
    }
    Ok(kept)
}

/// An attribute to output.
#[derive(Clone)]
struct Attr<'a> {
    prefix: &'a str,
    local: &'a str,
    uri: &'a str,
    value: Cow<'a, str>,
}

/// The state of one canonicalization.
struct Subset<'a, N: Navigator, S: ?Sized> {
    nav: &'a N,
    set: &'a S,
    with_comments: bool,
    mode: &'a Mode,
    /// `Some` in exclusive mode: the inclusive prefixes (`""` for `#default`).
    inclusive: Option<Vec<String>>,
    buf: Vec<u8>,
    /// Per output element, innermost last: in inclusive modes its namespace nodes in the set;
    /// in exclusive mode the declarations it rendered. As (prefix, URI).
    ns: Vec<NsEntry<'a>>,
    /// Start of each open output element's entries in `ns`.
    frames: Vec<usize>,
    /// Scratch: an element's namespace nodes.
    nodes: Vec<N::Node>,
}

impl<'a, N, S> Subset<'a, N, S>
where
    N: Navigator,
    S: NodeSet<N::Node> + ?Sized,
{
    fn new(nav: &'a N, set: &'a S, options: &'a C14nOptions) -> Self {
        Subset {
            nav,
            set,
            with_comments: options.with_comments,
            mode: &options.mode,
            inclusive: options.mode.exclusive_prefixes(),
            buf: Vec::new(),
            ns: Vec::new(),
            frames: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Walks `from` and its descendants in document order (with an explicit stack: no
    /// recursion proportional to the input), writing what the set selects.
    fn run(mut self, from: N::Node, mut out: impl Write) -> Result<(), C14nError> {
        let nav = self.nav;
        let root = nav.root();
        // Open elements below `from`, and whether each was output.
        let mut open: Vec<(N::Node, bool)> = Vec::new();
        let mut place = if from == root {
            Place::Before
        } else {
            Place::Inside
        };
        let mut next = if nav.kind(from) == NodeKind::Document {
            nav.first_child(from)
        } else {
            Some(from)
        };
        while let Some(n) = next {
            match nav.kind(n) {
                NodeKind::Element => {
                    let output = self.set.contains(n);
                    if output {
                        self.start(n)?;
                    } else {
                        self.omitted(n)?;
                    }
                    if open.is_empty() && place == Place::Before {
                        place = Place::Inside;
                    }
                    if let Some(child) = nav.first_child(n) {
                        open.push((n, output));
                        next = Some(child);
                        continue;
                    }
                    self.end(n, output);
                    if open.is_empty() {
                        place = Place::After;
                    }
                }
                NodeKind::Text if self.set.contains(n) && place == Place::Inside => {
                    escape(&mut self.buf, nav.string_value(n).as_bytes(), &TEXT);
                }
                NodeKind::Comment if self.with_comments && self.set.contains(n) => {
                    write_comment(&mut self.buf, place, &nav.string_value(n));
                }
                NodeKind::Pi if self.set.contains(n) => {
                    write_pi(
                        &mut self.buf,
                        place,
                        nav.local_name(n),
                        &nav.string_value(n),
                    );
                }
                _ => {}
            }
            if self.buf.len() >= FLUSH_AT {
                out.write_all(&self.buf)?;
                self.buf.clear();
            }
            // The next node in document order: a sibling, or the sibling of an ancestor
            // closed on the way up, never leaving `from`.
            next = if open.is_empty() && n == from {
                None
            } else {
                nav.next_sibling(n)
            };
            while next.is_none() {
                let Some((parent, output)) = open.pop() else {
                    break;
                };
                self.end(parent, output);
                if open.is_empty() {
                    place = Place::After;
                    if parent == from {
                        break;
                    }
                }
                next = nav.next_sibling(parent);
            }
        }
        out.write_all(&self.buf)?;
        out.flush()?;
        Ok(())
    }

    fn end(&mut self, e: N::Node, output: bool) {
        if output {
            self.buf.extend_from_slice(b"</");
            self.write_qname(e);
            self.buf.push(b'>');
            let start = self.frames.pop().unwrap_or_default();
            self.ns.truncate(start);
        }
    }

    fn write_qname(&mut self, e: N::Node) {
        let prefix = self.nav.prefix(e);
        if !prefix.is_empty() {
            self.buf.extend_from_slice(prefix.as_bytes());
            self.buf.push(b':');
        }
        self.buf
            .extend_from_slice(self.nav.local_name(e).as_bytes());
    }

    /// The element's namespace nodes in the set (but `xml`).
    fn namespace_nodes(&mut self, e: N::Node) -> Result<Vec<(&'a str, Cow<'a, str>)>, C14nError> {
        let nav = self.nav;
        self.nodes.clear();
        nav.namespaces(e, &mut self.nodes);
        let mut namespaces = Vec::new();
        for &n in &self.nodes {
            let prefix = nav.local_name(n);
            if prefix == "xml" || !self.set.contains(n) {
                continue;
            }
            let uri = nav.string_value(n);
            if is_relative(&uri) {
                return Err(C14nError::Namespace(relative_uri_message(&uri)));
            }
            namespaces.push((prefix, uri));
        }
        Ok(namespaces)
    }

    /// The element's attributes in the set, and its `xml:` attributes whether in the set or
    /// not.
    fn attributes(&self, e: N::Node) -> (Vec<Attr<'a>>, Vec<Attr<'a>>) {
        let nav = self.nav;
        let (mut attrs, mut own_xml) = (Vec::new(), Vec::new());
        let mut a = nav.first_attribute(e);
        while let Some(x) = a {
            let attr = || Attr {
                prefix: nav.prefix(x),
                local: nav.local_name(x),
                uri: nav.namespace_uri(x),
                value: nav.string_value(x),
            };
            if nav.namespace_uri(x) == XML_NAMESPACE {
                own_xml.push(attr());
            }
            if self.set.contains(x) {
                attrs.push(attr());
            }
            a = nav.next_attribute(x);
        }
        (attrs, own_xml)
    }

    /// Writes namespace declarations, sorted by prefix, then attributes, sorted by URI and
    /// local name.
    fn write_axes(&mut self, mut ns: Vec<(&'a str, Cow<'a, str>)>, mut attrs: Vec<Attr<'a>>) {
        ns.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (p, u) in &ns {
            write_ns(&mut self.buf, p.as_bytes(), u.as_bytes());
        }
        attrs.sort_unstable_by(|a, b| (a.uri, a.local).cmp(&(b.uri, b.local)));
        for a in &attrs {
            write_attr_value(&mut self.buf, a.prefix, a.local, &a.value);
        }
    }

    /// The entries of the nearest output ancestor (inclusive modes).
    fn parent_frame(&self) -> &[NsEntry<'a>] {
        self.frames.last().map_or(&[][..], |&s| &self.ns[s..])
    }

    /// An element outside the set: Canonical XML still processes its namespace and attribute
    /// axes, so those of its namespace nodes (inclusive modes, or inclusive prefixes of
    /// exclusive mode) and attributes that are in the set are written, bare, into the content
    /// of the nearest output ancestor.
    fn omitted(&mut self, e: N::Node) -> Result<(), C14nError> {
        let namespaces = self.namespace_nodes(e)?;
        let (attrs, _) = self.attributes(e);
        if namespaces.is_empty() && attrs.is_empty() {
            return Ok(());
        }
        let parent = self.parent_frame();
        let rendered = namespaces
            .into_iter()
            .filter(|(p, u)| {
                self.inclusive
                    .as_ref()
                    .map_or(true, |l| l.iter().any(|q| q == p))
                    && !parent.iter().any(|x| x.prefix == *p && x.uri == *u)
            })
            .collect();
        self.write_axes(rendered, attrs);
        Ok(())
    }

    /// Writes the start tag of an element in the set.
    fn start(&mut self, e: N::Node) -> Result<(), C14nError> {
        let namespaces = self.namespace_nodes(e)?;
        let (mut attrs, own_xml) = self.attributes(e);
        let frame = self.ns.len();
        let mut rendered: Vec<(&'a str, Cow<'a, str>)> = Vec::new();
        if self.inclusive.is_some() {
            self.exclusive_namespaces(e, &namespaces, &attrs, &mut rendered);
        } else {
            // A namespace node is rendered unless the nearest output ancestor has one in the
            // set with the same prefix and URI; `xmlns=""` undoes that ancestor's default.
            let parent = self.parent_frame();
            for (p, u) in &namespaces {
                if !parent.iter().any(|x| x.prefix == *p && x.uri == *u) {
                    rendered.push((p, u.clone()));
                }
            }
            if !namespaces.iter().any(|(p, _)| p.is_empty())
                && parent.iter().any(|x| x.prefix.is_empty())
            {
                rendered.push(("", Cow::Borrowed("")));
            }
            self.ns
                .extend(namespaces.into_iter().map(|(prefix, uri)| NsEntry {
                    prefix,
                    uri,
                    in_set: true,
                }));
            self.xml_attributes(e, &own_xml, &mut attrs);
        }
        self.frames.push(frame);
        self.buf.push(b'<');
        self.write_qname(e);
        self.write_axes(rendered, attrs);
        self.buf.push(b'>');
        Ok(())
    }

    /// Exclusive mode: the namespace nodes in the set that the element visibly uses (its
    /// prefix, or the default namespace when it has none; the prefixes of its attributes in
    /// the set), and those of the inclusive prefixes, each unless the nearest output ancestor
    /// that visibly used the prefix had the same URI and its namespace node in the set (so
    /// rendered it, or had it rendered); an unused default counts as empty. Every prefix used
    /// is recorded, in the set or not, as the interop vectors of the specification expect.
    fn exclusive_namespaces(
        &mut self,
        e: N::Node,
        namespaces: &[(&'a str, Cow<'a, str>)],
        attrs: &[Attr<'a>],
        rendered: &mut Vec<(&'a str, Cow<'a, str>)>,
    ) {
        let nav = self.nav;
        // (prefix, URI, namespace node in the set)
        let mut used: Vec<(&'a str, Cow<'a, str>, bool)> = Vec::new();
        let mut add = |prefix: &'a str, uri: Cow<'a, str>| {
            if used.iter().any(|(p, _, _)| *p == prefix) {
                return;
            }
            match namespaces.iter().find(|(p, _)| *p == prefix) {
                Some((p, u)) => used.push((p, u.clone(), true)),
                // An unprefixed element in no namespace uses the empty default.
                None if prefix.is_empty() && uri.is_empty() => {
                    used.push(("", Cow::Borrowed(""), true))
                }
                None if prefix != "xml" => used.push((prefix, uri, false)),
                None => {}
            }
        };
        add(nav.prefix(e), Cow::Borrowed(nav.namespace_uri(e)));
        for a in attrs {
            if !a.prefix.is_empty() {
                add(a.prefix, Cow::Borrowed(a.uri));
            }
        }
        for p in self.inclusive.iter().flatten() {
            if let Some((prefix, uri)) = namespaces.iter().find(|(q, _)| q == p) {
                add(prefix, uri.clone());
            } else if p.is_empty() && !namespaces.iter().any(|(q, _)| q.is_empty()) {
                // `#default` without a default namespace node in the set: as in Canonical
                // XML, `xmlns=""` if the output had a default.
                add("", Cow::Borrowed(""));
            }
        }
        for (p, u, in_set) in used {
            let nearest = self.ns.iter().rev().find(|x| x.prefix == p);
            let done = match nearest {
                Some(x) => x.in_set && x.uri == u,
                None => u.is_empty(),
            };
            if in_set && !done {
                rendered.push((p, u.clone()));
            }
            self.ns.push(NsEntry {
                prefix: p,
                uri: u,
                in_set,
            });
        }
    }

    /// Canonical XML 1.0 and 1.1: the `xml:` attributes an element in the set gets from its
    /// ancestors. 1.0, when its parent element is omitted: the nearest occurrences among all
    /// ancestors of those it does not have itself. 1.1: `xml:lang` and `xml:space` likewise but
    /// only from the omitted ancestors up to the nearest output one, `xml:id` never, and
    /// `xml:base` joined with the omitted ancestors' (its own included whether or not in the
    /// set, as the 1.1 interop vectors do; so are its own `xml:lang` and `xml:space`).
    fn xml_attributes(&self, e: N::Node, own: &[Attr<'a>], attrs: &mut Vec<Attr<'a>>) {
        let nav = self.nav;
        let c14n11 = *self.mode == Mode::Inclusive11;
        let has = |attrs: &[Attr<'a>], local: &str| {
            attrs
                .iter()
                .any(|a| a.uri == XML_NAMESPACE && a.local == local)
        };
        let mut own_base = None;
        if c14n11 {
            for a in own {
                match a.local {
                    "lang" | "space" if !has(attrs, a.local) => attrs.push(a.clone()),
                    "base" => own_base = Some(a.value.clone()),
                    _ => {}
                }
            }
            attrs.retain(|a| !(a.uri == XML_NAMESPACE && a.local == "base"));
        }
        let is_element = |n: &N::Node| nav.kind(*n) == NodeKind::Element;
        let parent = nav
            .parent(e)
            .filter(is_element)
            .filter(|&p| !self.set.contains(p));
        let mut bases: Vec<Cow<'a, str>> = Vec::new();
        let mut anc = parent;
        while let Some(p) = anc.filter(is_element) {
            if c14n11 && self.set.contains(p) {
                break;
            }
            let mut a = nav.first_attribute(p);
            while let Some(x) = a {
                a = nav.next_attribute(x);
                if nav.namespace_uri(x) != XML_NAMESPACE {
                    continue;
                }
                let local = nav.local_name(x);
                if c14n11 && local == "base" {
                    bases.push(nav.string_value(x));
                    continue;
                }
                if (c14n11 && !matches!(local, "lang" | "space"))
                    || own.iter().any(|a| a.local == local)
                    || has(attrs, local)
                {
                    continue;
                }
                attrs.push(Attr {
                    prefix: "xml",
                    local,
                    uri: XML_NAMESPACE,
                    value: nav.string_value(x),
                });
            }
            anc = nav.parent(p);
        }
        if !c14n11 {
            return;
        }
        let mut bases = bases.into_iter();
        let Some(mut value) = own_base.or_else(|| bases.next()) else {
            return;
        };
        for b in bases {
            value = Cow::Owned(base::join_base(&b, &value));
        }
        if !value.is_empty() {
            attrs.push(Attr {
                prefix: "xml",
                local: "base",
                uri: XML_NAMESPACE,
                value,
            });
        }
    }
}

/// A namespace binding of an output element: inclusive modes record its namespace nodes in
/// the set, exclusive mode the prefixes it visibly uses.
struct NsEntry<'a> {
    prefix: &'a str,
    uri: Cow<'a, str>,
    /// Whether the namespace node was in the set (exclusive mode).
    in_set: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Document, Handle};

    /// Every node of the document: tree nodes, attributes and namespace nodes.
    fn all_nodes(doc: &Document) -> Vec<Handle> {
        let mut out = Vec::new();
        for n in doc.descendants(doc.root()) {
            let h = Handle::Node(n);
            out.push(h);
            if Navigator::kind(doc, h) == NodeKind::Element {
                Navigator::namespaces(doc, h, &mut out);
                let mut a = Navigator::first_attribute(doc, h);
                while let Some(x) = a {
                    out.push(x);
                    a = Navigator::next_attribute(doc, x);
                }
            }
        }
        out
    }

    /// Canonicalizes the nodes of `xml` that `keep` selects.
    fn subset(
        xml: &str,
        options: &C14nOptions,
        keep: impl Fn(&Document, Handle) -> bool,
    ) -> String {
        let doc = Document::parse(xml.as_bytes()).unwrap();
        let set: HashSet<Handle> = all_nodes(&doc)
            .into_iter()
            .filter(|&h| keep(&doc, h))
            .collect();
        let mut out = Vec::new();
        canonicalize_subset(&doc, &set, options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The name of a node's element (its own for elements, its parent's for attributes and
    /// namespace nodes).
    fn owner(doc: &Document, h: Handle) -> &str {
        doc.local_name(h.node())
    }

    fn inc() -> C14nOptions {
        C14nOptions::default()
    }

    fn inc11() -> C14nOptions {
        C14nOptions::new(Mode::Inclusive11, false)
    }

    fn exc(list: &str) -> C14nOptions {
        C14nOptions::new(Mode::exclusive(list), false)
    }

    #[test]
    fn full_set_equals_streaming() {
        let xml = "<?p d?><!--c--><a xmlns='urn:d' xmlns:p='urn:p' p:x='1' y='&lt;'><b xmlns=''>t&amp;<![CDATA[>]]></b><p:c xmlns:q='urn:q'><!--in--><?q?></p:c></a><!--after-->";
        for options in [
            C14nOptions::new(Mode::Inclusive, true),
            inc(),
            inc11(),
            exc(""),
            exc("q #default"),
        ] {
            let streaming =
                String::from_utf8(super::super::to_vec(xml.as_bytes(), &options).unwrap()).unwrap();
            assert_eq!(subset(xml, &options, |_, _| true), streaming, "{options:?}");
        }
    }

    #[test]
    fn omitted_elements_keep_their_descendants() {
        let xml = "<a><b>1<c>2</c>3</b><d/></a>";
        assert_eq!(
            subset(xml, &inc(), |d, h| owner(d, h) != "b"
                || d.kind(h.node()) != NodeKind::Element),
            "<a>1<c>2</c>3<d></d></a>"
        );
        // Text only.
        assert_eq!(
            subset(xml, &inc(), |d, h| d.kind(h.node()) == NodeKind::Text
                && matches!(h, Handle::Node(_))),
            "123"
        );
    }

    #[test]
    fn namespace_nodes_render_where_the_output_changes() {
        let xml = "<a xmlns:p='urn:p' xmlns='urn:d'><b><c/></b></a>";
        // Without a's namespace nodes, b renders them (b is a's nearest output descendant).
        assert_eq!(
            subset(xml, &inc(), |d, h| !(owner(d, h) == "a"
                && matches!(h, Handle::Namespace(..)))),
            r#"<a><b xmlns="urn:d" xmlns:p="urn:p"><c></c></b></a>"#
        );
        // Without b, c's nearest output ancestor is a: nothing to render.
        assert_eq!(
            subset(xml, &inc(), |d, h| owner(d, h) != "b"),
            r#"<a xmlns="urn:d" xmlns:p="urn:p"><c></c></a>"#
        );
        // c without its default namespace node under a with one: xmlns="".
        assert_eq!(
            subset(xml, &inc(), |d, h| !(owner(d, h) == "c"
                && matches!(h, Handle::Namespace(..))
                && Navigator::local_name(d, h).is_empty())),
            r#"<a xmlns="urn:d" xmlns:p="urn:p"><b><c xmlns=""></c></b></a>"#
        );
        // No namespace nodes at all: no declarations, no xmlns="".
        assert_eq!(
            subset(xml, &inc(), |_, h| !matches!(h, Handle::Namespace(..))),
            "<a><b><c></c></b></a>"
        );
    }

    #[test]
    fn xml_attributes_of_omitted_ancestors_are_inherited() {
        let xml = "<a xml:lang='en' xml:space='preserve' xml:id='i' xml:base='http://x/d/'><b xml:lang='fr' xml:base='e/'><c xml:base='f'/></b></a>";
        let no_b = |d: &Document, h: Handle| owner(d, h) != "b";
        assert_eq!(
            subset(xml, &inc(), no_b),
            r#"<a xml:base="http://x/d/" xml:id="i" xml:lang="en" xml:space="preserve"><c xml:base="f" xml:id="i" xml:lang="fr" xml:space="preserve"></c></a>"#
        );
        // 1.0 looks at every ancestor, 1.1 only at the omitted ones.
        assert_eq!(
            subset(xml, &inc11(), no_b),
            r#"<a xml:base="http://x/d/" xml:id="i" xml:lang="en" xml:space="preserve"><c xml:base="e/f" xml:lang="fr"></c></a>"#
        );
        let only_c = |d: &Document, h: Handle| owner(d, h) == "c";
        assert_eq!(
            subset(xml, &inc(), only_c),
            r#"<c xml:base="f" xml:id="i" xml:lang="fr" xml:space="preserve"></c>"#
        );
        assert_eq!(
            subset(xml, &inc11(), only_c),
            r#"<c xml:base="http://x/d/e/f" xml:lang="fr" xml:space="preserve"></c>"#
        );
        // Exclusive canonicalization inherits nothing.
        assert_eq!(subset(xml, &exc(""), only_c), r#"<c xml:base="f"></c>"#);
    }

    #[test]
    fn exclusive_renders_visibly_used_namespaces_in_the_set() {
        let xml =
            "<a xmlns:p='urn:p' xmlns:q='urn:q' xmlns='urn:d'><p:b q:x='1' y='2'><c/></p:b></a>";
        let no_a = |d: &Document, h: Handle| owner(d, h) != "a";
        assert_eq!(
            subset(xml, &exc(""), no_a),
            r#"<p:b xmlns:p="urn:p" xmlns:q="urn:q" y="2" q:x="1"><c xmlns="urn:d"></c></p:b>"#
        );
        // An attribute outside the set uses nothing.
        assert_eq!(
            subset(xml, &exc(""), |d, h| no_a(d, h)
                && !(matches!(h, Handle::Attribute(..))
                    && Navigator::local_name(d, h) == "x")),
            r#"<p:b xmlns:p="urn:p" y="2"><c xmlns="urn:d"></c></p:b>"#
        );
        // The inclusive prefix list renders as inclusive C14N does; #default is the default.
        assert_eq!(
            subset(xml, &exc("#default"), no_a),
            r#"<p:b xmlns="urn:d" xmlns:p="urn:p" xmlns:q="urn:q" y="2" q:x="1"><c></c></p:b>"#
        );
    }

    #[test]
    fn exclusive_undeclares_a_rendered_default() {
        let xml = "<a xmlns='urn:d'><b xmlns=''><c/></b></a>";
        assert_eq!(
            subset(xml, &exc(""), |_, _| true),
            r#"<a xmlns="urn:d"><b xmlns=""><c></c></b></a>"#
        );
        assert_eq!(
            subset(xml, &exc(""), |d, h| owner(d, h) != "b"),
            r#"<a xmlns="urn:d"><c xmlns=""></c></a>"#
        );
        assert_eq!(
            subset(xml, &exc("#default"), |d, h| owner(d, h) == "c"),
            "<c></c>"
        );
    }

    #[test]
    fn comments_and_pis_beside_the_document_element() {
        let xml = "<?x?><!--c--><a><?y?></a><!--d--><?z?>";
        let options = C14nOptions::new(Mode::Inclusive, true);
        // Without the document element, the line feeds stay on its side.
        assert_eq!(
            subset(xml, &options, |d, h| owner(d, h) != "a"),
            "<?x?>\n<!--c-->\n<?y?>\n<!--d-->\n<?z?>"
        );
    }

    #[test]
    fn subtree_of_an_element() {
        let xml = "<a xmlns:p='urn:p' xml:lang='en'><p:b x='1'><!--k--><c>t</c></p:b><d/></a>";
        let doc = Document::parse(xml.as_bytes()).unwrap();
        let b = doc.first_child(doc.root_element().unwrap()).unwrap();
        let mut out = Vec::new();
        canonicalize_subtree(&doc, b.into(), &inc(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"<p:b xmlns:p="urn:p" x="1" xml:lang="en"><c>t</c></p:b>"#
        );
        let mut out = Vec::new();
        canonicalize_subtree(
            &doc,
            b.into(),
            &C14nOptions::new(Mode::exclusive(""), true),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"<p:b xmlns:p="urn:p" x="1"><!--k--><c>t</c></p:b>"#
        );
        // The document node's subtree is the whole document.
        let mut out = Vec::new();
        canonicalize_subtree(&doc, Navigator::root(&doc), &inc(), &mut out).unwrap();
        assert_eq!(out, super::super::to_vec(xml.as_bytes(), &inc()).unwrap());
    }

    #[test]
    fn relative_namespace_uri_in_the_set_is_an_error() {
        let doc = Document::parse(b"<a xmlns:r='../x'><b/></a>").unwrap();
        let err = canonicalize_subset(&doc, &|_| true, &inc(), Vec::new()).unwrap_err();
        assert!(matches!(err, C14nError::Namespace(_)), "{err}");
        // Outside the set it does not matter.
        let no_ns = |h: Handle| !matches!(h, Handle::Namespace(..));
        assert!(canonicalize_subset(&doc, &no_ns, &inc(), Vec::new()).is_ok());
    }

    #[test]
    fn omitted_elements_write_their_selected_namespace_and_attribute_nodes() {
        // Canonical XML processes the axes of an element outside the set too: the selected
        // nodes come out bare, in the content of the nearest output ancestor.
        let xml = "<a><b xmlns:p='urn:p' x='1'><c/></b></a>";
        assert_eq!(
            subset(xml, &inc(), |d, h| !matches!(h, Handle::Node(_))
                || owner(d, h) != "b"),
            r#"<a> xmlns:p="urn:p" x="1"<c xmlns:p="urn:p"></c></a>"#
        );
        // Exclusive mode writes only the inclusive prefixes' namespace nodes there.
        assert_eq!(
            subset(xml, &exc(""), |d, h| !matches!(h, Handle::Node(_))
                || owner(d, h) != "b"),
            r#"<a> x="1"<c></c></a>"#
        );
        assert_eq!(
            subset(xml, &exc("p"), |d, h| !matches!(h, Handle::Node(_))
                || owner(d, h) != "b"),
            r#"<a> xmlns:p="urn:p" x="1"<c xmlns:p="urn:p"></c></a>"#
        );
    }

    #[test]
    fn exclusive_renders_again_below_a_user_without_the_namespace_node() {
        // b uses p but its namespace node is not selected, so c's use renders p again.
        let xml = "<p:a xmlns:p='urn:p'><p:b><p:c/></p:b></p:a>";
        let keep =
            |d: &Document, h: Handle| !(matches!(h, Handle::Namespace(..)) && owner(d, h) == "b");
        assert_eq!(
            subset(xml, &exc(""), keep),
            r#"<p:a xmlns:p="urn:p"><p:b><p:c xmlns:p="urn:p"></p:c></p:b></p:a>"#
        );
    }

    #[test]
    fn c14n11_fixes_up_xml_base_through_omitted_ancestors() {
        // The third xml:base example of Canonical XML 1.1: `..` bases name directories, and
        // a's own xml:base is kept though only the element is selected.
        let xml =
            "<a xml:base='foo/bar'><b xml:base='..'><c xml:base='..'><d xml:base='x'/></c></b></a>";
        assert_eq!(
            subset(xml, &inc11(), |d, h| (owner(d, h) == "a"
                && matches!(h, Handle::Node(_)))
                || owner(d, h) == "d"),
            r#"<a xml:base="foo/bar"><d xml:base="../../x"></d></a>"#
        );
        // xml:id is not inherited; an ancestor's xml:base reaches an element without one.
        let xml = "<a xml:id='i' xml:base='http://e/x/'><b><c/></b></a>";
        assert_eq!(
            subset(xml, &inc11(), |d, h| owner(d, h) == "c"),
            r#"<c xml:base="http://e/x/"></c>"#
        );
    }
}
