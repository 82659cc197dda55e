//! Writing a [`Document`] (or one of its subtrees) through the core writer.

use std::io::Write;

use super::{Document, NodeId, NodeKind};
use crate::writer::{WriteError, Writer};

type Result<T> = std::result::Result<T, WriteError>;

impl Document {
    /// Writes `n` and its descendants (the whole document for [`Document::root`]) to `w`.
    ///
    /// Namespace declarations come out where the tree has them (except one that binds the
    /// element's own prefix to another URI than its name's: the name wins); names are written by
    /// namespace URI, preferring their own prefix, and the writer declares a prefix where
    /// no declaration in scope binds it to the name's URI (namespace fix-up, with the
    /// writer's repairing on, its default). So a subtree, or a tree whose names and
    /// declarations edits have taken apart, is still written namespace-well-formed.
    ///
    /// ```
    /// use xwire::writer::Writer;
    /// let doc = xwire::tree::Document::parse(br#"<p:a xmlns:p="urn:p"><p:b/></p:a>"#)?;
    /// let b = doc.first_child(doc.root_element().unwrap()).unwrap();
    /// let mut w = Writer::new(Vec::new());
    /// doc.write_node(b, &mut w)?;
    /// assert_eq!(w.finish()?, br#"<p:b xmlns:p="urn:p"/>"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn write_node<W: Write>(&self, n: NodeId, w: &mut Writer<W>) -> Result<()> {
        let mut scope = Scope::default();
        // Iterative walk: entering a node writes its start, leaving it writes its end, so
        // depth costs no stack.
        let mut cur = n;
        loop {
            self.enter(cur, w, &mut scope)?;
            if let Some(c) = self.first_child(cur) {
                cur = c;
                continue;
            }
            loop {
                self.leave(cur, w, &mut scope)?;
                if cur == n {
                    return Ok(());
                }
                match self.next_sibling(cur) {
                    Some(s) => {
                        cur = s;
                        break;
                    }
                    None => cur = self.parent(cur).expect("below n"),
                }
            }
        }
    }

    /// The document serialized to a string (UTF-8, no XML declaration).
    pub fn to_xml(&self) -> std::result::Result<String, WriteError> {
        let mut w = Writer::new(Vec::new());
        self.write_node(self.root(), &mut w)?;
        let bytes = w.finish()?;
        Ok(String::from_utf8(bytes).expect("the writer writes UTF-8"))
    }

    fn enter<W: Write>(&self, n: NodeId, w: &mut Writer<W>, scope: &mut Scope) -> Result<()> {
        match self.kind(n) {
            // Attribute and namespace kinds never name tree nodes.
            NodeKind::Document | NodeKind::Attribute | NodeKind::Namespace => Ok(()),
            NodeKind::Element => {
                let name = self.qnames[self.nodes[n.index()].name() as usize];
                let (prefix, local, uri) = (
                    self.names.get(crate::Id(name.prefix)),
                    self.names.get(crate::Id(name.local)),
                    self.uris.get(crate::Id(name.uri)),
                );
                scope.marks.push(scope.bindings.len());
                // The declarations to write: all but one that would rebind the element's own
                // prefix to another URI (the name wins).
                let decls = self.decl_slot(n).map_or(0..0, |i| {
                    let (_, a, b) = self.decl_ranges[i];
                    a as usize..b as usize
                });
                let written = |d: &super::Decl| d.prefix != name.prefix || d.uri == name.uri;
                for d in &self.decls[decls.clone()] {
                    if written(d) {
                        scope.bindings.push((d.prefix, d.uri));
                    }
                }
                if self.bound(scope, name.prefix, name.uri) {
                    w.start_qname(prefix, local)?;
                } else {
                    w.start_element_ns(uri, local, some(prefix))?;
                    scope.bindings.push((name.prefix, UNKNOWN));
                }
                for d in &self.decls[decls] {
                    if written(d) {
                        let p = self.names.get(crate::Id(d.prefix));
                        w.namespace(some(p), self.uris.get(crate::Id(d.uri)))?;
                    }
                }
                for i in self.attr_range(n) {
                    let a = &self.attrs[i];
                    let name = self.qnames[a.name as usize];
                    let value = self.str_at(a.value);
                    let (prefix, local) = (
                        self.names.get(crate::Id(name.prefix)),
                        self.names.get(crate::Id(name.local)),
                    );
                    // Unprefixed attributes are in no namespace whatever the default.
                    if (name.prefix == 0 && name.uri == 0)
                        || (name.prefix != 0 && self.bound(scope, name.prefix, name.uri))
                    {
                        w.attribute_qname(prefix, local, value)?;
                    } else {
                        let uri = self.uris.get(crate::Id(name.uri));
                        w.attribute_ns(uri, local, some(prefix), value)?;
                        scope.bindings.push((name.prefix, UNKNOWN));
                    }
                }
                Ok(())
            }
            NodeKind::Text => w.text(self.text(n)),
            NodeKind::Comment => w.comment(self.text(n)),
            NodeKind::Pi => w.processing_instruction(self.local_name(n), self.text(n)),
        }
    }

    fn leave<W: Write>(&self, n: NodeId, w: &mut Writer<W>, scope: &mut Scope) -> Result<()> {
        match self.kind(n) {
            NodeKind::Element => {
                let mark = scope.marks.pop().expect("entered");
                scope.bindings.truncate(mark);
                w.end_element()
            }
            _ => Ok(()),
        }
    }

    /// Whether the writer has `prefix` bound to `uri` in scope, as far as `scope` knows
    /// (`false` when unsure: the writer then resolves the name itself).
    fn bound(&self, scope: &Scope, prefix: u32, uri: u32) -> bool {
        match scope.bindings.iter().rev().find(|b| b.0 == prefix) {
            Some(&(_, u)) => u == uri,
            // Nothing declared: the default namespace is none, `xml` is bound by the writer.
            None if prefix == 0 => uri == 0,
            None => {
                self.names.get(crate::Id(prefix)) == "xml"
                    && self.uris.get(crate::Id(uri)) == crate::XML_NS
            }
        }
    }
}

/// The bindings the writer has in scope, as interned (prefix, URI) ids, known from the
/// declarations written: names they cover take the writer's fast path (a QName as written),
/// other names the repairing one. A prefix the writer may have declared itself while
/// repairing is marked `UNKNOWN` until its element ends.
#[derive(Default)]
struct Scope {
    bindings: Vec<(u32, u32)>,
    /// Length of `bindings` before each open element.
    marks: Vec<usize>,
}

const UNKNOWN: u32 = u32::MAX;

/// `None` for the empty prefix.
fn some(prefix: &str) -> Option<&str> {
    (!prefix.is_empty()).then_some(prefix)
}
