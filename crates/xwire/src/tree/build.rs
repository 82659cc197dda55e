//! Building a [`Document`] from the reader's events.

use std::collections::HashMap;

use super::{Attr, Decl, Document, Name, Node, NodeId, NodeKind, NONE};
use crate::error::{Error, ErrorKind, LimitKind};
use crate::intern::Interner;
use crate::{Event, Reader};

/// `qnames[0]`: no name (document, text and comment nodes).
const NO_NAME: u32 = 0;

/// Keeps each distinct (local, URI, prefix) once.
struct Names(HashMap<Name, u32>);

impl Names {
    fn id(&mut self, doc: &mut Document, local: &str, uri: &str, prefix: &str) -> u32 {
        let name = Name {
            local: doc.names.intern(local).0,
            uri: doc.uris.intern(uri).0,
            prefix: doc.names.intern(prefix).0,
        };
        *self.0.entry(name).or_insert_with(|| {
            doc.qnames.push(name);
            doc.qnames.len() as u32 - 1
        })
    }
}

pub(super) fn build(r: &mut Reader<'_>) -> crate::Result<Document> {
    let mut doc = Document {
        nodes: Vec::new(),
        attrs: Vec::new(),
        decls: Vec::new(),
        decl_ranges: Vec::new(),
        qnames: Vec::new(),
        text: String::new(),
        names: Interner::with_capacity(64, 256),
        uris: Interner::with_capacity(16, 128),
        ids: HashMap::new(),
    };
    let mut names = Names(HashMap::new());
    // Id 0 of both interners is "": no name, no prefix, no namespace; qname 0 is all three.
    names.id(&mut doc, "", "", "");
    doc.nodes
        .push(node(NodeKind::Document, NONE, NO_NAME, (0, 0), 0));
    let mut open = NodeId(0);
    loop {
        // Peeking first fixes the event's offset without holding the event's borrow.
        r.peek_kind()?;
        let offset = r.offset();
        if doc.nodes.len() >= NONE as usize - 1 || doc.text.len() >= u32::MAX as usize / 2 {
            return Err(Error::new(
                ErrorKind::LimitExceeded(LimitKind::TreeSize, u32::MAX as u64),
                r.location_of(offset),
            ));
        }
        match r.next()? {
            Event::Start(t) => {
                let name = names.id(
                    &mut doc,
                    t.local_name(),
                    t.namespace_uri(),
                    t.prefix().unwrap_or(""),
                );
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
                        let name = names.id(
                            &mut doc,
                            a.local_name(),
                            a.namespace_uri(),
                            a.prefix().unwrap_or(""),
                        );
                        let value = doc.push_text(a.value());
                        doc.attrs.push(Attr { name, value });
                        if a.is_id() && !doc.ids.contains_key(a.value()) {
                            doc.ids.insert(a.value().into(), NodeId(id));
                        }
                    }
                }
                if doc.decls.len() as u32 > d0 {
                    doc.decl_ranges.push((id, d0, doc.decls.len() as u32));
                }
                let attrs = (a0, doc.attrs.len() as u32);
                open = append(
                    &mut doc,
                    open,
                    node(NodeKind::Element, open.0, name, attrs, offset),
                );
            }
            Event::End(_) => {
                open = doc.parent(open).expect("the reader matches end tags");
            }
            Event::Text(t) => add_text(&mut doc, open, &t.unescape(), offset),
            Event::CData(c) => add_text(&mut doc, open, &c.text(), offset),
            Event::Comment(c) => {
                let text = doc.push_text(&c.text());
                let n = node(NodeKind::Comment, open.0, NO_NAME, text, offset);
                append(&mut doc, open, n);
            }
            Event::Pi(p) => {
                let target = names.id(&mut doc, p.target(), "", "");
                let text = doc.push_text(&p.data());
                let n = node(NodeKind::Pi, open.0, target, text, offset);
                append(&mut doc, open, n);
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

fn node(kind: NodeKind, parent: u32, name: u32, data: (u32, u32), offset: u64) -> Node {
    Node {
        kind,
        parent,
        first_child: NONE,
        last_child: NONE,
        prev: NONE,
        next: NONE,
        name,
        data,
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
        let (a, b) = doc.nodes[last as usize].data;
        if b as usize == doc.text.len() {
            // That node's text is the arena's tail: extend it in place.
            doc.text.push_str(s);
        } else {
            let joined = format!("{}{s}", &doc.text[a as usize..b as usize]);
            let (a, _) = doc.push_text(&joined);
            doc.nodes[last as usize].data.0 = a;
        }
        doc.nodes[last as usize].data.1 = doc.text.len() as u32;
        return;
    }
    let text = doc.push_text(s);
    append(
        doc,
        parent,
        node(NodeKind::Text, parent.0, NO_NAME, text, offset),
    );
}
