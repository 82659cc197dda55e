//! Building a [`Document`] from the reader's events.

use super::{
    inline_ws, Attr, Decl, Document, Node, K_COMMENT, K_ELEMENT, K_PI, K_TEXT, MAX_QNAMES, NONE,
    OFF_BIG,
};
use crate::error::{Error, ErrorKind, LimitKind};
use crate::{Event, Reader};

/// The elements being built, the document node first: (node, its last child so far).
///
/// A first child's `prev` link (which holds the last child) is set once, when its parent
/// closes, so appending touches only the new node and its previous sibling.
struct Open(Vec<(u32, u32)>);

impl Open {
    /// Appends `node` as the last child of the innermost open element; its id.
    fn push(&mut self, doc: &mut Document, mut node: Node, offset: u64) -> u32 {
        let id = doc.nodes.len() as u32;
        let (parent, last) = self.0.last_mut().expect("the document node stays open");
        node.parent = *parent;
        if *last == NONE {
            doc.nodes[*parent as usize].first_child = id;
        } else {
            node.prev = *last;
            doc.nodes[*last as usize].next = id;
        }
        *last = id;
        node.offset = match u32::try_from(offset) {
            Ok(o) if o < OFF_BIG => o,
            _ => {
                doc.big_offsets.push((id, offset));
                OFF_BIG
            }
        };
        doc.nodes.push(node);
        id
    }

    /// Closes the innermost open element.
    fn pop(&mut self, doc: &mut Document) {
        let (n, last) = self.0.pop().expect("the reader matches end tags");
        if last != NONE {
            let first = doc.nodes[n as usize].first_child;
            doc.nodes[first as usize].prev = last;
        }
    }
}

pub(super) fn build(r: &mut Reader<'_>) -> crate::Result<Document> {
    let mut doc = Document::new();
    let mut open = Open(vec![(0, NONE)]);
    loop {
        // Peeking first fixes the event's offset without holding the event's borrow.
        r.peek_kind()?;
        let offset = r.offset();
        if doc.nodes.len() >= NONE as usize - 1
            || doc.text.len() >= u32::MAX as usize / 2
            || doc.qnames.len() >= MAX_QNAMES - 1
        {
            return Err(Error::new(
                ErrorKind::LimitExceeded(LimitKind::TreeSize, u32::MAX as u64),
                r.location_of(offset),
            ));
        }
        match r.next()? {
            Event::Start(t) => {
                let name =
                    doc.qname_id(t.local_name(), t.namespace_uri(), t.prefix().unwrap_or(""));
                let id = doc.nodes.len() as u32;
                let a0 = doc.attrs.len() as u32;
                let d0 = doc.decls.len() as u32;
                for a in t.attributes() {
                    if a.is_namespace_decl() {
                        let prefix = a.name().strip_prefix("xmlns:").unwrap_or("");
                        doc.decls.push(Decl {
                            prefix: doc.names.intern(prefix).0,
                            uri: doc.uris.intern(a.value()).0,
                        });
                    } else {
                        let name = doc.qname_id(
                            a.local_name(),
                            a.namespace_uri(),
                            a.prefix().unwrap_or(""),
                        );
                        let value = doc.push_text(a.value());
                        doc.attrs.push(Attr { name, value });
                        if a.is_id() && !doc.ids.contains_key(a.value()) {
                            doc.ids.insert(a.value().into(), super::NodeId(id));
                        }
                    }
                }
                if doc.decls.len() as u32 > d0 {
                    doc.decl_ranges.push((id, d0, doc.decls.len() as u32));
                }
                let attrs = (a0, doc.attrs.len() as u32);
                let id = open.push(&mut doc, Node::new(K_ELEMENT, name, attrs, 0), offset);
                open.0.push((id, NONE));
            }
            Event::End(_) => open.pop(&mut doc),
            Event::Text(t) => add_text(&mut doc, &mut open, &t.unescape(), offset),
            Event::CData(c) => add_text(&mut doc, &mut open, &c.text(), offset),
            Event::Comment(c) => {
                let text = doc.push_text(&c.text());
                open.push(&mut doc, Node::new(K_COMMENT, 0, text, 0), offset);
            }
            Event::Pi(p) => {
                let target = doc.qname_id(p.target(), "", "");
                let text = doc.push_text(&p.data());
                open.push(&mut doc, Node::new(K_PI, target, text, 0), offset);
            }
            // The DTD has done its work in the reader (defaults, entities); entities it did
            // not read leave no node.
            Event::Doctype(_) | Event::SkippedEntity(_) => {}
            Event::Eof => {
                open.pop(&mut doc);
                // Growth slack can be half of each vector: give it back.
                doc.nodes.shrink_to_fit();
                doc.attrs.shrink_to_fit();
                doc.decls.shrink_to_fit();
                doc.decl_ranges.shrink_to_fit();
                doc.qnames.shrink_to_fit();
                doc.text.shrink_to_fit();
                return Ok(doc);
            }
        }
    }
}

/// Adds character data to the innermost open element, merged into a text node just before
/// it (text split by CDATA sections, entity references or buffer boundaries is one node, as
/// XPath sees it). Indentation goes to a white-space table, not the text arena.
fn add_text(doc: &mut Document, open: &mut Open, s: &str, offset: u64) {
    let &(parent, last) = open.0.last().expect("the document node stays open");
    if s.is_empty() || parent == 0 {
        return;
    }
    if last != NONE && doc.nodes[last as usize].is_text() {
        let node = &doc.nodes[last as usize];
        if node.kind() == K_TEXT && node.data.1 as usize == doc.text.len() {
            // That node's text is the arena's tail: extend it in place.
            doc.text.push_str(s);
            doc.nodes[last as usize].data.1 = doc.text.len() as u32;
        } else {
            let joined = format!("{}{s}", doc.text(super::NodeId(last)));
            let (kind, data) = stored_text(doc, &joined);
            let node = &mut doc.nodes[last as usize];
            node.tag = kind << super::KIND_SHIFT;
            node.data = data;
        }
        return;
    }
    let (kind, data) = stored_text(doc, s);
    open.push(doc, Node::new(kind, 0, data, 0), offset);
}

/// Where text goes: a white-space table or the text arena; (storage kind, range).
pub(super) fn stored_text(doc: &mut Document, s: &str) -> (u32, (u32, u32)) {
    inline_ws(s).unwrap_or_else(|| (K_TEXT, doc.push_text(s)))
}
