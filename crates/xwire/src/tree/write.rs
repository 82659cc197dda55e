//! Writing a [`Document`] (or one of its subtrees) through the core writer.

use std::io::Write;

use super::{Document, NodeId, NodeKind};
use crate::writer::{WriteError, Writer};

type Result<T> = std::result::Result<T, WriteError>;

impl Document {
    /// Writes `n` and its descendants (the whole document for [`Document::root`]) to `w`.
    /// Names come out as parsed, with their namespace declarations where they were written.
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
                w.start_qname(self.prefix(n), self.local_name(n))?;
                for (prefix, uri) in self.namespace_declarations(n) {
                    w.namespace((!prefix.is_empty()).then_some(prefix), uri)?;
                }
                for i in self.attr_range(n) {
                    let a = &self.attrs[i];
                    let name = self.qnames[a.name as usize];
                    w.attribute_qname(
                        self.names.get(crate::Id(name.prefix)),
                        self.names.get(crate::Id(name.local)),
                        self.str_at(a.value),
                    )?;
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
