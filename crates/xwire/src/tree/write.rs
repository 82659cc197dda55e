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
        // Iterative walk: entering a node writes its start, leaving it writes its end, so
        // depth costs no stack.
        let mut cur = n;
        loop {
            self.enter(cur, w)?;
            if let Some(c) = self.first_child(cur) {
                cur = c;
                continue;
            }
            loop {
                self.leave(cur, w)?;
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

    fn enter<W: Write>(&self, n: NodeId, w: &mut Writer<W>) -> Result<()> {
        match self.kind(n) {
            // Attribute and namespace kinds never name tree nodes.
            NodeKind::Document | NodeKind::Attribute | NodeKind::Namespace => Ok(()),
            NodeKind::Element => {
                w.start_element_ns(
                    self.namespace_uri(n),
                    self.local_name(n),
                    some(self.prefix(n)),
                )?;
                let (own_prefix, own_uri) = (self.prefix(n), self.namespace_uri(n));
                for (prefix, uri) in self.namespace_declarations(n) {
                    // The name wins over a declaration that would rebind its own prefix.
                    if prefix != own_prefix || uri == own_uri {
                        w.namespace(some(prefix), uri)?;
                    }
                }
                for a in self.attributes(n) {
                    w.attribute_ns(a.namespace_uri, a.local_name, some(a.prefix), a.value)?;
                }
                Ok(())
            }
            NodeKind::Text => w.text(self.text(n)),
            NodeKind::Comment => w.comment(self.text(n)),
            NodeKind::Pi => w.processing_instruction(self.local_name(n), self.text(n)),
        }
    }

    fn leave<W: Write>(&self, n: NodeId, w: &mut Writer<W>) -> Result<()> {
        match self.kind(n) {
            NodeKind::Element => w.end_element(),
            _ => Ok(()),
        }
    }
}

/// `None` for the empty prefix.
fn some(prefix: &str) -> Option<&str> {
    (!prefix.is_empty()).then_some(prefix)
}
