//! Building a [`Document`] from the reader's events.

use super::{Attr, Decl, Document, Name, Node, NodeId, NodeKind, NONE};
use crate::error::{Error, ErrorKind, LimitKind};
use crate::intern::Interner;
use crate::{Event, Reader};

pub(super) fn build(r: &mut Reader<'_>) -> crate::Result<Document> {
    let mut doc = Document {
        nodes: Vec::new(),
        attrs: Vec::new(),
        decls: Vec::new(),
        text: String::new(),
        names: Interner::with_capacity(64, 256),
        uris: Interner::with_capacity(16, 128),
    };
    // Id 0 of both interners is "": no name, no prefix, no namespace.
    doc.names.intern("");
    doc.uris.intern("");
    let no_name = Name {
        local: 0,
        uri: 0,
        prefix: 0,
    };
    doc.nodes
        .push(node(NodeKind::Document, NONE, no_name, (0, 0), 0));
    let mut open = NodeId(0);
    loop {
        // Peeking first fixes the event's offset without holding the event's borrow.
        r.peek_kind()?;
        let offset = r.offset();
        let event = r.next()?;
        let too_big = |r: &mut Reader<'_>| {
            Error::new(
                ErrorKind::LimitExceeded(LimitKind::TreeSize, u32::MAX as u64),
                r.location_of(offset),
            )
        };
        if doc.nodes.len() >= NONE as usize || doc.text.len() >= u32::MAX as usize / 2 {
            return Err(too_big(r));
        }
        match event {
            Event::Start(t) => {
                let name = Name {
                    local: doc.names.intern(t.local_name()).0,
                    uri: doc.uris.intern(t.namespace_uri()).0,
                    prefix: doc.names.intern(t.prefix().unwrap_or("")).0,
                };
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
                        let name = Name {
                            local: doc.names.intern(a.local_name()).0,
                            uri: doc.uris.intern(a.namespace_uri()).0,
                            prefix: doc.names.intern(a.prefix().unwrap_or("")).0,
                        };
                        let value = doc.push_text(a.value());
                        doc.attrs.push(Attr { name, value });
                    }
                }
                let mut n = node(NodeKind::Element, open.0, name, (0, 0), offset);
                n.attrs = (a0, doc.attrs.len() as u32);
                n.decls = (d0, doc.decls.len() as u32);
                open = append(&mut doc, open, n);
            }
            Event::End(_) => {
                open = doc.parent(open).expect("the reader matches end tags");
            }
            Event::Text(t) => add_text(&mut doc, open, &t.unescape(), offset),
            Event::CData(c) => add_text(&mut doc, open, &c.text(), offset),
            Event::Comment(c) => {
                let text = doc.push_text(&c.text());
                append(
                    &mut doc,
                    open,
                    node(NodeKind::Comment, open.0, no_name, text, offset),
                );
            }
            Event::Pi(p) => {
                let target = doc.names.intern(p.target()).0;
                let text = doc.push_text(&p.data());
                let name = Name {
                    local: target,
                    ..no_name
                };
                append(
                    &mut doc,
                    open,
                    node(NodeKind::Pi, open.0, name, text, offset),
                );
            }
            // The DTD has done its work in the reader (defaults, entities); entities it did
            // not read leave no node.
            Event::Doctype(_) | Event::SkippedEntity(_) => {}
            Event::Eof => {
                // Growth slack can be half of each vector: give it back.
                doc.nodes.shrink_to_fit();
                doc.attrs.shrink_to_fit();
                doc.decls.shrink_to_fit();
                doc.text.shrink_to_fit();
                return Ok(doc);
            }
        }
    }
}

fn node(kind: NodeKind, parent: u32, name: Name, text: (u32, u32), offset: u64) -> Node {
    Node {
        kind,
        parent,
        first_child: NONE,
        last_child: NONE,
        prev: NONE,
        next: NONE,
        name,
        text,
        attrs: (0, 0),
        decls: (0, 0),
        offset,
    }
}

/// Appends `n` as the last child of `parent`; its id.
fn append(doc: &mut Document, parent: NodeId, mut n: Node) -> NodeId {
    let id = doc.nodes.len() as u32;
    let p = &mut doc.nodes[parent.index()];
    n.prev = p.last_child;
    if p.last_child == NONE {
        p.first_child = id;
    }
    let prev = std::mem::replace(&mut p.last_child, id);
    if prev != NONE {
        doc.nodes[prev as usize].next = id;
    }
    doc.nodes.push(n);
    NodeId(id)
}

/// Adds character data to `parent`, merged into a text node just before it (text split by
/// CDATA sections, entity references or buffer boundaries is one node, as XPath sees it).
fn add_text(doc: &mut Document, parent: NodeId, s: &str, offset: u64) {
    if s.is_empty() || parent == NodeId(0) {
        return;
    }
    let last = doc.nodes[parent.index()].last_child;
    if last != NONE && doc.nodes[last as usize].kind == NodeKind::Text {
        // The arena's last bytes are that node's text: text is pushed in document order and
        // nothing else is pushed between two text events of one parent.
        let end = doc.nodes[last as usize].text.1 as usize;
        if end == doc.text.len() {
            doc.text.push_str(s);
            doc.nodes[last as usize].text.1 = doc.text.len() as u32;
            return;
        }
        let (a, b) = doc.nodes[last as usize].text;
        let joined = format!("{}{s}", &doc.text[a as usize..b as usize]);
        doc.nodes[last as usize].text = doc.push_text(&joined);
        return;
    }
    let text = doc.push_text(s);
    let name = Name {
        local: 0,
        uri: 0,
        prefix: 0,
    };
    append(
        doc,
        parent,
        node(NodeKind::Text, parent.0, name, text, offset),
    );
}
