//! Random trees and random edit sequences against a naive owned model (a recursive enum
//! tree): after every edit the document and the model hold the same nodes, links and
//! errors; `cmp_order` sorts nodes as a preorder walk of the model does; and the document
//! written and parsed again has the model's infoset.

use proptest::prelude::*;

use super::*;
use crate::XML_NS;

const ELEMENTS: &[(&str, &str, &str)] = &[
    ("", "a", ""),
    ("", "b", ""),
    ("p", "c", "urn:p"),
    ("q", "d", "urn:q"),
    ("", "e", "urn:d"),
    // The prefix p bound to another URI than c's: the writer has to sort it out.
    ("p", "f", "urn:q"),
];
const ATTRIBUTES: &[(&str, &str, &str)] = &[
    ("", "x", ""),
    ("", "y", ""),
    ("p", "z", "urn:p"),
    // Same expanded name as p:z.
    ("q", "z", "urn:p"),
    ("q", "w", "urn:q"),
    ("xml", "lang", XML_NS),
];
const TEXTS: &[&str] = &["a", "b c", "&<>]]>", "\n  ", "\n", " ", "\t", ""];
const COMMENTS: &[&str] = &["", "c", " x "];
const PIS: &[(&str, &str)] = &[("t", ""), ("u", "d"), ("t", "x y")];
const DECLS: &[(&str, &str)] = &[
    ("", ""),
    ("", "urn:p"),
    ("", "urn:x"),
    ("p", "urn:p"),
    ("p", "urn:x"),
    ("q", "urn:q"),
    ("r", "urn:p"),
];

fn s(x: &str) -> String {
    x.to_string()
}

/// The model: a node and its subtree, owned.
#[derive(Clone, Debug, PartialEq)]
enum M {
    E {
        id: NodeId,
        /// prefix, local, URI
        name: [String; 3],
        /// prefix, local, URI, value
        attrs: Vec<[String; 4]>,
        decls: Vec<(String, String)>,
        kids: Vec<M>,
    },
    T {
        id: NodeId,
        text: String,
    },
    C {
        id: NodeId,
        text: String,
    },
    P {
        id: NodeId,
        target: String,
        data: String,
    },
}

impl M {
    fn id(&self) -> NodeId {
        match self {
            M::E { id, .. } | M::T { id, .. } | M::C { id, .. } | M::P { id, .. } => *id,
        }
    }

    fn kind(&self) -> NodeKind {
        match self {
            M::E { .. } => NodeKind::Element,
            M::T { .. } => NodeKind::Text,
            M::C { .. } => NodeKind::Comment,
            M::P { .. } => NodeKind::Pi,
        }
    }

    fn ids(&self, out: &mut Vec<NodeId>) {
        out.push(self.id());
        if let M::E { kids, .. } = self {
            kids.iter().for_each(|k| k.ids(out));
        }
    }

    fn set_id(&mut self, new: NodeId) {
        match self {
            M::E { id, .. } | M::T { id, .. } | M::C { id, .. } | M::P { id, .. } => *id = new,
        }
    }
}

/// Merges adjacent text and drops empty text, as `Document::normalize` does.
fn normalize_list(list: &mut Vec<M>) {
    let mut out: Vec<M> = Vec::new();
    for mut m in list.drain(..) {
        if let M::E { kids, .. } = &mut m {
            normalize_list(kids);
        }
        if let (Some(M::T { text: prev, .. }), M::T { text, .. }) = (out.last_mut(), &m) {
            prev.push_str(text);
            continue;
        }
        out.push(m);
    }
    out.retain(|m| !matches!(m, M::T { text, .. } if text.is_empty()));
    *list = out;
}

/// The infoset as a string: expanded names, attributes sorted, text merged; no prefixes
/// or declarations (those are the writer's business).
fn canon(list: &[M], out: &mut String) {
    let mut list = list.to_vec();
    normalize_list(&mut list);
    for m in &list {
        match m {
            M::E {
                name, attrs, kids, ..
            } => {
                let mut a: Vec<_> = attrs
                    .iter()
                    .map(|a| format!("{{{}}}{}={:?}", a[2], a[1], a[3]))
                    .collect();
                a.sort();
                out.push_str(&format!("<{{{}}}{} {a:?}>", name[2], name[1]));
                canon(kids, out);
                out.push_str("</>");
            }
            M::T { text, .. } => out.push_str(&format!("{text:?}")),
            M::C { text, .. } => out.push_str(&format!("<!--{text}-->")),
            M::P { target, data, .. } => out.push_str(&format!("<?{target} {data}?>")),
        }
    }
}

fn to_model(d: &Document, n: NodeId) -> M {
    match d.kind(n) {
        NodeKind::Element => M::E {
            id: n,
            name: [d.prefix(n), d.local_name(n), d.namespace_uri(n)].map(s),
            attrs: d
                .attributes(n)
                .map(|a| [a.prefix, a.local_name, a.namespace_uri, a.value].map(s))
                .collect(),
            decls: d
                .namespace_declarations(n)
                .map(|(p, u)| (s(p), s(u)))
                .collect(),
            kids: d.children(n).map(|c| to_model(d, c)).collect(),
        },
        NodeKind::Text => M::T {
            id: n,
            text: s(d.text(n)),
        },
        NodeKind::Comment => M::C {
            id: n,
            text: s(d.text(n)),
        },
        NodeKind::Pi => M::P {
            id: n,
            target: s(d.local_name(n)),
            data: s(d.text(n)),
        },
        k => panic!("{k:?} below the document node"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Top {
    Doc,
    Detached(usize),
}

/// The document's children and the detached subtrees.
#[derive(Debug)]
struct Model {
    top: Vec<M>,
    detached: Vec<M>,
}

const ROOT: NodeId = NodeId(0);

impl Model {
    fn find(list: &[M], id: NodeId, path: &mut Vec<usize>) -> bool {
        for (i, m) in list.iter().enumerate() {
            path.push(i);
            if m.id() == id {
                return true;
            }
            if let M::E { kids, .. } = m {
                if Model::find(kids, id, path) {
                    return true;
                }
            }
            path.pop();
        }
        false
    }

    /// Where `id` is: its tree and the path of child indices from that tree's top (for a
    /// detached subtree, the path below its root).
    fn locate(&self, id: NodeId) -> (Top, Vec<usize>) {
        let mut path = Vec::new();
        if id == ROOT || Model::find(&self.top, id, &mut path) {
            return (Top::Doc, path);
        }
        for (i, m) in self.detached.iter().enumerate() {
            if m.id() == id {
                return (Top::Detached(i), vec![]);
            }
            if let M::E { kids, .. } = m {
                if Model::find(kids, id, &mut path) {
                    return (Top::Detached(i), path);
                }
            }
        }
        panic!("{id:?} is not in the model")
    }

    fn at(&self, top: Top, path: &[usize]) -> Option<&M> {
        let (mut m, rest) = match top {
            Top::Doc => (self.top.get(*path.first()?)?, &path[1..]),
            Top::Detached(i) => (&self.detached[i], path),
        };
        for &i in rest {
            let M::E { kids, .. } = m else { panic!() };
            m = &kids[i];
        }
        Some(m)
    }

    fn at_mut(&mut self, top: Top, path: &[usize]) -> &mut M {
        let (mut m, rest) = match top {
            Top::Doc => (&mut self.top[path[0]], &path[1..]),
            Top::Detached(i) => (&mut self.detached[i], path),
        };
        for &i in rest {
            let M::E { kids, .. } = m else { panic!() };
            m = &mut kids[i];
        }
        m
    }

    fn kind(&self, id: NodeId) -> NodeKind {
        let (top, path) = self.locate(id);
        self.at(top, &path).map_or(NodeKind::Document, M::kind)
    }

    fn kids_mut(&mut self, id: NodeId) -> &mut Vec<M> {
        if id == ROOT {
            return &mut self.top;
        }
        let (top, path) = self.locate(id);
        match self.at_mut(top, &path) {
            M::E { kids, .. } => kids,
            _ => panic!("not a parent"),
        }
    }

    /// The parent of `id` (`None`: the document node or a detached root).
    fn parent(&self, id: NodeId) -> Option<NodeId> {
        let (top, path) = self.locate(id);
        match (top, path.len()) {
            (Top::Doc, 0) | (Top::Detached(_), 0) => None,
            (Top::Doc, 1) => Some(ROOT),
            _ => Some(self.at(top, &path[..path.len() - 1]).unwrap().id()),
        }
    }

    fn take(&mut self, id: NodeId) -> M {
        let (top, path) = self.locate(id);
        if path.is_empty() {
            let Top::Detached(i) = top else { panic!() };
            return self.detached.remove(i);
        }
        let parent = self.parent(id).unwrap();
        self.kids_mut(parent).remove(*path.last().unwrap())
    }

    /// Every node: the document's tree in preorder, then each detached subtree by root id.
    fn order(&self) -> Vec<NodeId> {
        let mut out = vec![ROOT];
        self.top.iter().for_each(|m| m.ids(&mut out));
        let mut det: Vec<_> = self.detached.iter().collect();
        det.sort_by_key(|m| m.id());
        det.iter().for_each(|m| m.ids(&mut out));
        out
    }

    fn insert(&mut self, parent: NodeId, new: NodeId, place: Place) -> Result<(), EditError> {
        let pk = self.kind(parent);
        if pk != NodeKind::Element && pk != NodeKind::Document {
            return Err(EditError::NotAParent(parent));
        }
        if new == ROOT {
            return Err(EditError::DocumentNode);
        }
        let (ntop, npath) = self.locate(new);
        if ntop == Top::Doc || !npath.is_empty() {
            return Err(EditError::Attached(new));
        }
        if self.locate(parent).0 == ntop {
            return Err(EditError::Cycle);
        }
        let nk = self.kind(new);
        if parent == ROOT {
            if nk == NodeKind::Text {
                return Err(EditError::TextOutsideRoot);
            }
            if nk == NodeKind::Element && self.top.iter().any(|m| m.kind() == NodeKind::Element) {
                return Err(EditError::SecondRootElement);
            }
        }
        let node = self.take(new);
        let kids = self.kids_mut(parent);
        let pos = |r: NodeId| kids.iter().position(|k| k.id() == r).unwrap();
        let at = match place {
            Place::First => 0,
            Place::Last => kids.len(),
            Place::Before(r) => pos(r),
            Place::After(r) => pos(r) + 1,
        };
        kids.insert(at, node);
        Ok(())
    }

    fn normalize(&mut self) {
        normalize_list(&mut self.top);
        // Detached roots are not siblings: only what is below them is normalized.
        for t in &mut self.detached {
            if let M::E { kids, .. } = t {
                normalize_list(kids);
            }
        }
    }

    fn element(&mut self, id: NodeId, op: &'static str) -> Result<&mut M, EditError> {
        let kind = self.kind(id);
        if kind != NodeKind::Element {
            return Err(EditError::WrongKind(op, kind));
        }
        let (top, path) = self.locate(id);
        Ok(self.at_mut(top, &path))
    }
}

#[derive(Clone, Copy, Debug)]
enum Place {
    First,
    Last,
    Before(NodeId),
    After(NodeId),
}

#[derive(Clone, Debug)]
enum Op {
    Element(usize),
    Text(usize),
    Comment(usize),
    Pi(usize),
    /// 0 append, 1 prepend, 2 before, 3 after: (how, target, new)
    Insert(u8, usize, usize),
    Detach(usize),
    Remove(usize),
    Rename(usize, usize),
    SetAttribute(usize, usize, usize),
    RemoveAttribute(usize, usize),
    SetText(usize, usize),
    SetTextContent(usize, usize),
    Declare(usize, usize),
    Undeclare(usize, usize),
    Normalize,
}

fn arb_op() -> impl Strategy<Value = Op> {
    let i = || 0..64usize;
    prop_oneof![
        1 => (0..ELEMENTS.len()).prop_map(Op::Element),
        1 => (0..TEXTS.len()).prop_map(Op::Text),
        1 => (0..COMMENTS.len()).prop_map(Op::Comment),
        1 => (0..PIS.len()).prop_map(Op::Pi),
        4 => (0..4u8, i(), i()).prop_map(|(h, t, n)| Op::Insert(h, t, n)),
        1 => i().prop_map(Op::Detach),
        1 => i().prop_map(Op::Remove),
        1 => (i(), 0..ELEMENTS.len()).prop_map(|(n, k)| Op::Rename(n, k)),
        2 => (i(), 0..ATTRIBUTES.len(), 0..TEXTS.len()).prop_map(|(n, a, v)| Op::SetAttribute(n, a, v)),
        1 => (i(), 0..ATTRIBUTES.len()).prop_map(|(n, a)| Op::RemoveAttribute(n, a)),
        1 => (i(), 0..TEXTS.len()).prop_map(|(n, t)| Op::SetText(n, t)),
        1 => (i(), 0..TEXTS.len()).prop_map(|(n, t)| Op::SetTextContent(n, t)),
        1 => (i(), 0..DECLS.len()).prop_map(|(n, d)| Op::Declare(n, d)),
        1 => (i(), 0..DECLS.len()).prop_map(|(n, d)| Op::Undeclare(n, d)),
        1 => Just(Op::Normalize),
    ]
}

/// A random element subtree (ids are given when it is built).
fn arb_tree() -> impl Strategy<Value = M> {
    let none = NodeId(u32::MAX);
    let leaf = prop_oneof![
        (0..TEXTS.len()).prop_map(move |t| M::T {
            id: none,
            text: s(TEXTS[t])
        }),
        (0..COMMENTS.len()).prop_map(move |t| M::C {
            id: none,
            text: s(COMMENTS[t])
        }),
        (0..PIS.len()).prop_map(move |t| M::P {
            id: none,
            target: s(PIS[t].0),
            data: s(PIS[t].1)
        }),
    ];
    let element = move |kids: BoxedStrategy<Vec<M>>| {
        (
            0..ELEMENTS.len(),
            prop::collection::vec((0..ATTRIBUTES.len(), 0..TEXTS.len()), 0..3),
            prop::collection::vec(0..DECLS.len(), 0..2),
            kids,
        )
            .prop_map(move |(e, attrs, decls, kids)| {
                let (p, l, u) = ELEMENTS[e];
                let mut a: Vec<[String; 4]> = Vec::new();
                for (k, v) in attrs {
                    let (ap, al, au) = ATTRIBUTES[k];
                    a.retain(|x| (x[1].as_str(), x[2].as_str()) != (al, au));
                    a.push([s(ap), s(al), s(au), s(TEXTS[v])]);
                }
                let mut d: Vec<(String, String)> = Vec::new();
                for k in decls {
                    let (dp, du) = DECLS[k];
                    d.retain(|x| x.0 != dp);
                    d.push((s(dp), s(du)));
                }
                M::E {
                    id: none,
                    name: [s(p), s(l), s(u)],
                    attrs: a,
                    decls: d,
                    kids,
                }
            })
    };
    let leaf_element = element(Just(vec![]).boxed());
    prop_oneof![leaf, leaf_element].prop_recursive(4, 32, 4, move |inner| {
        element(prop::collection::vec(inner, 0..4).boxed())
    })
}

/// Builds `m` in `d` through the editing API, detached; its id.
fn build(d: &mut Document, m: &mut M) -> NodeId {
    let id = match m {
        M::E {
            name,
            attrs,
            decls,
            kids,
            ..
        } => {
            let e = d.create_element(&name[0], &name[1], &name[2]).unwrap();
            for a in attrs.iter() {
                d.set_attribute(e, &a[0], &a[1], &a[2], &a[3]).unwrap();
            }
            for (p, u) in decls.iter() {
                d.declare_namespace(e, p, u).unwrap();
            }
            for k in kids.iter_mut() {
                let c = build(d, k);
                d.append_child(e, c).unwrap();
            }
            e
        }
        M::T { text, .. } => d.create_text(text).unwrap(),
        M::C { text, .. } => d.create_comment(text).unwrap(),
        M::P { target, data, .. } => d.create_pi(target, data).unwrap(),
    };
    m.set_id(id);
    id
}

/// Applies `op` to the document and the model; both must agree on the outcome.
fn apply(d: &mut Document, m: &mut Model, op: &Op) {
    let live = m.order();
    let pick = |i: usize| live[i % live.len()];
    let got: Result<(), EditError>;
    let want: Result<(), EditError>;
    match *op {
        Op::Element(k) => {
            let (p, l, u) = ELEMENTS[k];
            let id = d.create_element(p, l, u).unwrap();
            m.detached.push(M::E {
                id,
                name: [s(p), s(l), s(u)],
                attrs: vec![],
                decls: vec![],
                kids: vec![],
            });
            return;
        }
        Op::Text(k) => {
            let id = d.create_text(TEXTS[k]).unwrap();
            m.detached.push(M::T {
                id,
                text: s(TEXTS[k]),
            });
            return;
        }
        Op::Comment(k) => {
            let id = d.create_comment(COMMENTS[k]).unwrap();
            m.detached.push(M::C {
                id,
                text: s(COMMENTS[k]),
            });
            return;
        }
        Op::Pi(k) => {
            let (t, data) = PIS[k];
            let id = d.create_pi(t, data).unwrap();
            m.detached.push(M::P {
                id,
                target: s(t),
                data: s(data),
            });
            return;
        }
        Op::Insert(how, t, n) => {
            let (t, n) = (pick(t), pick(n));
            (got, want) = match how {
                0 => (d.append_child(t, n), m.insert(t, n, Place::Last)),
                1 => (d.prepend_child(t, n), m.insert(t, n, Place::First)),
                _ => {
                    let got = if how == 2 {
                        d.insert_before(t, n)
                    } else {
                        d.insert_after(t, n)
                    };
                    let place = if how == 2 {
                        Place::Before(t)
                    } else {
                        Place::After(t)
                    };
                    let want = match m.parent(t) {
                        None => Err(EditError::NoParent(t)),
                        Some(p) => m.insert(p, n, place),
                    };
                    (got, want)
                }
            };
        }
        Op::Detach(n) | Op::Remove(n) => {
            let n = pick(n);
            let remove = matches!(op, Op::Remove(_));
            got = if remove { d.remove(n) } else { d.detach(n) };
            want = if n == ROOT {
                Err(EditError::DocumentNode)
            } else {
                let node = m.take(n);
                if !remove {
                    m.detached.push(node);
                }
                Ok(())
            };
        }
        Op::Rename(n, k) => {
            let n = pick(n);
            let (p, l, u) = ELEMENTS[k];
            got = d.rename(n, p, l, u);
            want = m.element(n, "rename").map(|e| {
                let M::E { name, .. } = e else { panic!() };
                *name = [s(p), s(l), s(u)];
            });
        }
        Op::SetAttribute(n, a, v) => {
            let n = pick(n);
            let (p, l, u) = ATTRIBUTES[a];
            got = d.set_attribute(n, p, l, u, TEXTS[v]);
            want = m.element(n, "set_attribute").map(|e| {
                let M::E { attrs, .. } = e else { panic!() };
                let new = [s(p), s(l), s(u), s(TEXTS[v])];
                match attrs.iter_mut().find(|x| x[1] == l && x[2] == u) {
                    Some(x) => *x = new,
                    None => attrs.push(new),
                }
            });
        }
        Op::RemoveAttribute(n, a) => {
            let n = pick(n);
            let (_, l, u) = ATTRIBUTES[a];
            let got_b = d.remove_attribute(n, u, l);
            let want_b = m.element(n, "remove_attribute").map(|e| {
                let M::E { attrs, .. } = e else { panic!() };
                let before = attrs.len();
                attrs.retain(|x| !(x[1] == l && x[2] == u));
                attrs.len() != before
            });
            assert_eq!(got_b, want_b);
            return;
        }
        Op::SetText(n, t) => {
            let n = pick(n);
            let k = m.kind(n);
            // Texts fit text nodes; comments and PIs take their own lists.
            let text = match k {
                NodeKind::Comment => COMMENTS[t % COMMENTS.len()],
                NodeKind::Pi => PIS[t % PIS.len()].1,
                _ => TEXTS[t],
            };
            got = d.set_text(n, text);
            want = match k {
                NodeKind::Text | NodeKind::Comment | NodeKind::Pi => {
                    let (top, path) = m.locate(n);
                    match m.at_mut(top, &path) {
                        M::T { text: x, .. } | M::C { text: x, .. } | M::P { data: x, .. } => {
                            *x = s(text)
                        }
                        M::E { .. } => unreachable!(),
                    }
                    Ok(())
                }
                k => Err(EditError::WrongKind("set_text", k)),
            };
        }
        Op::SetTextContent(n, t) => {
            let n = pick(n);
            let r = d.set_text_content(n, TEXTS[t]);
            let want_r = m.element(n, "set_text_content").map(|e| {
                let M::E { kids, .. } = e else { panic!() };
                kids.clear();
                if !TEXTS[t].is_empty() {
                    kids.push(M::T {
                        id: NodeId(u32::MAX),
                        text: s(TEXTS[t]),
                    });
                }
            });
            assert_eq!(r.is_ok(), want_r.is_ok(), "{r:?} {want_r:?}");
            if let Ok(Some(id)) = r {
                m.kids_mut(n)[0].set_id(id);
            }
            return;
        }
        Op::Declare(n, k) => {
            let n = pick(n);
            let (p, u) = DECLS[k];
            got = d.declare_namespace(n, p, u);
            want = m.element(n, "declare_namespace").map(|e| {
                let M::E { decls, .. } = e else { panic!() };
                match decls.iter_mut().find(|x| x.0 == p) {
                    Some(x) => x.1 = s(u),
                    None => decls.push((s(p), s(u))),
                }
            });
        }
        Op::Undeclare(n, k) => {
            let n = pick(n);
            let (p, _) = DECLS[k];
            let got_b = d.remove_namespace_declaration(n, p);
            let want_b = m.element(n, "remove_namespace_declaration").map(|e| {
                let M::E { decls, .. } = e else { panic!() };
                let before = decls.len();
                decls.retain(|x| x.0 != p);
                decls.len() != before
            });
            assert_eq!(got_b, want_b);
            return;
        }
        Op::Normalize => {
            d.normalize();
            m.normalize();
            return;
        }
    }
    assert_eq!(got, want, "{op:?}");
}

/// The document and the model hold the same trees, and document order agrees.
fn check(d: &Document, m: &Model) {
    let top: Vec<M> = d.children(d.root()).map(|c| to_model(d, c)).collect();
    assert_eq!(top, m.top);
    let mut detached: Vec<M> = (1..d.len() as u32)
        .map(NodeId)
        .filter(|&n| d.nodes[n.index()].kind() != K_FREE && d.parent(n).is_none())
        .map(|n| to_model(d, n))
        .collect();
    let mut want = m.detached.clone();
    want.sort_by_key(M::id);
    detached.sort_by_key(M::id);
    assert_eq!(detached, want);
    // Links both ways.
    for n in m.order() {
        let kids: Vec<_> = d.children(n).collect();
        assert_eq!(d.last_child(n), kids.last().copied());
        for w in kids.windows(2) {
            assert_eq!(d.prev_sibling(w[1]), Some(w[0]));
        }
        if let Some(&f) = kids.first() {
            assert_eq!(d.prev_sibling(f), None);
        }
    }
    // Document order: sorting every node with cmp_order gives the model's preorder.
    let order = m.order();
    let mut sorted = order.clone();
    sorted.reverse();
    sorted.sort_by(|&a, &b| d.cmp_order(a, b));
    assert_eq!(sorted, order);
}

/// The document written and parsed again has the model's infoset.
fn check_written(d: &Document, m: &Model) {
    let has_root = m.top.iter().any(|n| n.kind() == NodeKind::Element);
    let out = match d.to_xml() {
        Ok(out) => out,
        Err(e) => {
            assert!(!has_root, "{e}");
            return;
        }
    };
    let again = Document::parse(out.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let reparsed: Vec<M> = again
        .children(again.root())
        .map(|c| to_model(&again, c))
        .collect();
    let (mut want, mut got) = (String::new(), String::new());
    canon(&m.top, &mut want);
    canon(&reparsed, &mut got);
    assert_eq!(got, want, "{out}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_agree_with_the_model(
        tree in arb_tree(),
        before in prop::option::of(0..COMMENTS.len()),
        ops in prop::collection::vec(arb_op(), 0..40),
    ) {
        // The random tree goes in through the editing API, out through the writer and back
        // through the parser, then ids are matched to the model by position.
        let mut root = match tree {
            e @ M::E { .. } => e,
            leaf => M::E {
                id: NodeId(u32::MAX),
                name: [s(""), s("a"), s("")],
                attrs: vec![],
                decls: vec![],
                kids: vec![leaf],
            },
        };
        let mut built = Document::new();
        let mut top = Vec::new();
        if let Some(c) = before {
            let id = built.create_comment(COMMENTS[c]).unwrap();
            built.append_child(built.root(), id).unwrap();
            top.push(M::C { id, text: s(COMMENTS[c]) });
        }
        let r = build(&mut built, &mut root);
        built.append_child(built.root(), r).unwrap();
        top.push(root);
        let model = Model { top, detached: vec![] };
        check(&built, &model);
        check_written(&built, &model);
        let mut d = Document::parse(built.to_xml().unwrap().as_bytes()).unwrap();
        // The parsed document is the model's tree normalized, with the writer's prefixes and
        // declarations: that becomes the model.
        let mut m = Model {
            top: d.children(d.root()).map(|c| to_model(&d, c)).collect(),
            detached: vec![],
        };
        let (mut a, mut b) = (String::new(), String::new());
        canon(&model.top, &mut a);
        canon(&m.top, &mut b);
        prop_assert_eq!(a, b);
        for op in &ops {
            apply(&mut d, &mut m, op);
            check(&d, &m);
        }
        check_written(&d, &m);
        // Normalized, the document reads back to the same tree (ids aside).
        d.normalize();
        m.normalize();
        check(&d, &m);
        if let Ok(out) = d.to_xml() {
            let again = Document::parse(out.as_bytes()).unwrap();
            let strip = |d: &Document| {
                let mut s = String::new();
                let top: Vec<M> = d.children(d.root()).map(|c| to_model(d, c)).collect();
                canon(&top, &mut s);
                s
            };
            prop_assert_eq!(strip(&again), strip(&d));
        }
    }
}
