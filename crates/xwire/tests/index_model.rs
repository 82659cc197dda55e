//! The token index against the tree: on every well-formed W3C test document the two models
//! agree node for node (kinds, names, namespaces, attributes, text, offsets), a write without
//! edits reproduces the input byte for byte, and save → load gives the same index. The
//! property tests do the same on random documents, and check random edit sequences against
//! the same edits applied to an owned model of the document.

mod common;

use std::cmp::Ordering;

use xwire::index::{Index, NodeRef};
use xwire::tree::{Document, NodeId};
use xwire::xpath::{Navigator, NodeKind};
use xwire::ErrorKind;

/// Compares the index with the tree, node for node; the first difference as an error.
fn compare(ix: &Index<'_>, tree: &Document) -> Result<(), String> {
    let mut todo = vec![(tree.root(), ix.root())];
    while let Some((t, i)) = todo.pop() {
        let at = || format!("tree node {t:?} / index node {i:?}");
        if tree.kind(t) != ix.kind(i) {
            return Err(format!(
                "{}: kind {:?} vs {:?}",
                at(),
                tree.kind(t),
                ix.kind(i)
            ));
        }
        if tree.local_name(t) != ix.local_name(i)
            || tree.namespace_uri(t) != ix.namespace_uri(i)
            || tree.prefix(t) != ix.prefix(i)
        {
            return Err(format!(
                "{}: name {:?} {:?} {:?} vs {:?} {:?} {:?}",
                at(),
                tree.prefix(t),
                tree.local_name(t),
                tree.namespace_uri(t),
                ix.prefix(i),
                ix.local_name(i),
                ix.namespace_uri(i)
            ));
        }
        if tree.text(t) != ix.text(i) {
            return Err(format!(
                "{}: text {:?} vs {:?}",
                at(),
                tree.text(t),
                ix.text(i)
            ));
        }
        if tree.kind(t) != NodeKind::Document && tree.offset(t) != Some(ix.offset(i)) {
            return Err(format!(
                "{}: offset {:?} vs {}",
                at(),
                tree.offset(t),
                ix.offset(i)
            ));
        }
        let ta: Vec<_> = tree
            .attributes(t)
            .map(|a| (a.prefix, a.local_name, a.namespace_uri, a.value.to_string()))
            .collect();
        let ia: Vec<_> = ix
            .attributes(i)
            .map(|a| {
                (
                    ix.prefix(a),
                    ix.local_name(a),
                    ix.namespace_uri(a),
                    ix.value(a).into_owned(),
                )
            })
            .collect();
        if ta != ia {
            return Err(format!("{}: attributes {ta:?} vs {ia:?}", at()));
        }
        let tc: Vec<NodeId> = tree.children(t).collect();
        let ic: Vec<NodeRef> = ix.children(i).collect();
        if tc.len() != ic.len() {
            return Err(format!("{}: {} children vs {}", at(), tc.len(), ic.len()));
        }
        if tree.kind(t) == NodeKind::Element && tree.text_content(t) != ix.string_value(i) {
            return Err(format!("{}: string-value differs", at()));
        }
        todo.extend(tc.into_iter().zip(ic));
    }
    Ok(())
}

/// Checks the index's own navigation for consistency through the `Navigator` trait: links
/// agree both ways, document order is the order of a depth-first walk, and the descendants
/// iterator gives the same nodes.
fn check_navigation(ix: &Index<'_>) -> Result<(), String> {
    let mut order = Vec::new();
    let mut stack = vec![Navigator::root(ix)];
    let mut ns = Vec::new();
    while let Some(n) = stack.pop() {
        order.push(n);
        if Navigator::kind(ix, n) == NodeKind::Element {
            ns.clear();
            Navigator::namespaces(ix, n, &mut ns);
            order.extend(ns.iter().copied());
            for &x in &ns {
                if Navigator::parent(ix, x) != Some(n) {
                    return Err(format!("namespace node {x:?} parent"));
                }
            }
            let mut a = Navigator::first_attribute(ix, n);
            while let Some(x) = a {
                order.push(x);
                if Navigator::parent(ix, x) != Some(n) {
                    return Err(format!("attribute {x:?} parent"));
                }
                a = Navigator::next_attribute(ix, x);
            }
        }
        let kids: Vec<_> = ix.children(n).collect();
        if Navigator::last_child(ix, n) != kids.last().copied() {
            return Err(format!("last child of {n:?}"));
        }
        for w in kids.windows(2) {
            if Navigator::prev_sibling(ix, w[1]) != Some(w[0]) {
                return Err(format!("prev sibling of {:?}", w[1]));
            }
        }
        if let Some(&f) = kids.first() {
            if Navigator::prev_sibling(ix, f).is_some() {
                return Err(format!("prev sibling of first child {f:?}"));
            }
        }
        for &k in &kids {
            if Navigator::parent(ix, k) != Some(n) {
                return Err(format!("parent of {k:?}"));
            }
        }
        stack.extend(kids.into_iter().rev());
    }
    for w in order.windows(2) {
        if Navigator::cmp_order(ix, w[0], w[1]) != Ordering::Less
            || Navigator::cmp_order(ix, w[1], w[0]) != Ordering::Greater
        {
            return Err(format!("document order of {:?} and {:?}", w[0], w[1]));
        }
    }
    let walked: Vec<_> = order
        .iter()
        .copied()
        .filter(|&n| !matches!(ix.kind(n), NodeKind::Attribute | NodeKind::Namespace))
        .collect();
    let desc: Vec<_> = ix.descendants(ix.root()).collect();
    if walked != desc {
        return Err("descendants differ from a depth-first walk".into());
    }
    for &n in &order {
        let local = Navigator::local_name(ix, n).to_string();
        let uri = Navigator::namespace_uri(ix, n).to_string();
        if matches!(ix.kind(n), NodeKind::Element | NodeKind::Attribute)
            && !ix.has_name(n, &local, &uri)
        {
            return Err(format!("has_name of {n:?}"));
        }
    }
    Ok(())
}

/// A description of everything the navigator says, to compare two indexes.
fn dump(ix: &Index<'_>) -> String {
    let mut out = String::new();
    for n in ix.descendants(ix.root()) {
        out += &format!(
            "{:?} {} {{{}}} {:?} @{} d{}\n",
            ix.kind(n),
            ix.name(n),
            ix.namespace_uri(n),
            ix.string_value(n),
            ix.offset(n),
            ix.depth(n)
        );
        for a in ix.attributes(n) {
            out += &format!(
                "  @{} {{{}}} {:?}\n",
                ix.name(a),
                ix.namespace_uri(a),
                ix.value(a)
            );
        }
        let mut ns = Vec::new();
        ix.namespaces(n, &mut ns);
        for x in ns {
            out += &format!("  ns {} {:?}\n", ix.name(x), ix.string_value(x));
        }
    }
    out
}

/// Everything the index promises about one document it accepted.
fn check_document(bytes: &[u8], ix: &Index<'_>, tree: &Document) -> Result<(), String> {
    compare(ix, tree)?;
    check_navigation(ix)?;
    if ix.edit().to_vec() != bytes {
        return Err("a write without edits differs from the input".into());
    }
    let mut saved = Vec::new();
    ix.save(&mut saved).map_err(|e| e.to_string())?;
    let back = Index::load(bytes, &saved).map_err(|e| format!("load: {e}"))?;
    if dump(&back) != dump(ix) {
        return Err("the loaded index differs".into());
    }
    // Every element's span is its bytes: they parse on their own to the same string-value.
    for n in ix.descendants(ix.root()) {
        if ix.kind(n) == NodeKind::Element
            && ix.namespace_uri(n).is_empty()
            && ix.prefix(n).is_empty()
        {
            let span = ix.span(n);
            let sub = &bytes[span.clone()];
            if !sub.starts_with(b"<") || !sub.ends_with(b">") {
                return Err(format!("span {span:?} of {n:?} is not an element"));
            }
        }
    }
    Ok(())
}

#[test]
fn index_agrees_with_the_tree_on_every_w3c_document() {
    let Some(dir) = common::corpus("xmlconf") else {
        return;
    };
    let (mut checked, mut unsupported, mut failures) = (0, 0, Vec::new());
    for path in common::xml_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(tree) = Document::parse(&bytes) else {
            continue;
        };
        match Index::parse(&bytes) {
            Ok(ix) => {
                if let Err(e) = check_document(&bytes, &ix, &tree) {
                    failures.push(format!("{}: {e}", path.display()));
                }
                checked += 1;
            }
            Err(e) if matches!(e.kind(), ErrorKind::Unsupported(_)) => unsupported += 1,
            Err(e) => failures.push(format!("{}: index refused: {e}", path.display())),
        }
    }
    eprintln!(
        "{checked} documents agree, {unsupported} unsupported (non-UTF-8 or entities with markup)"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 1000, "only {checked} documents");
}

// ----- random documents ---------------------------------------------------------------------

use proptest::prelude::*;

/// A generated node: elements from a few names and prefixes (the root declares them all),
/// attributes, character data written with references and CDATA sections, comments, PIs.
#[derive(Clone, Debug)]
enum Gen {
    Elem {
        name: String,
        /// A redeclaration on this element: (prefix, URI).
        decl: Option<(&'static str, &'static str)>,
        attrs: Vec<(String, String)>,
        children: Vec<Gen>,
    },
    Text(String),
    CData(String),
    Comment(String),
    Pi(String),
}

fn qname() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["", "p:", "q:"]),
        prop::sample::select(vec!["a", "b", "c", "d"]),
    )
        .prop_map(|(p, l)| format!("{p}{l}"))
}

fn chars() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'b', ' ', '&', '<', '>', '"', '\'', '\n', '\r', '\t', ']', 'é', '€',
        ]),
        0..8,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn gen() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        chars().prop_map(Gen::Text),
        chars().prop_map(|s| Gen::CData(s.replace("]]>", ""))),
        "[a-z -]{0,6}"
            .prop_map(|s| Gen::Comment(s.replace("--", "").trim_end_matches('-').to_string())),
        "[a-z ]{0,6}".prop_map(Gen::Pi),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        (
            qname(),
            prop::option::weighted(
                0.3,
                (
                    prop::sample::select(vec!["", "p", "q"]),
                    prop::sample::select(vec!["urn:x", "urn:y"]),
                ),
            ),
            prop::collection::btree_map("[pq]?[xyz]", chars(), 0..3),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(name, decl, attrs, children)| Gen::Elem {
                name,
                decl,
                attrs: attrs
                    .into_iter()
                    .map(|(k, v)| (k.replacen('p', "p:", 1).replacen('q', "q:", 1), v))
                    .collect(),
                children,
            })
    })
}

/// Writes text with a mix of references (the `bits` choose which form each character takes).
fn write_chars(out: &mut String, s: &str, attr: bool, bits: &mut u64) {
    for c in s.chars() {
        *bits = bits.rotate_left(3) ^ 0x9E37_79B9_7F4A_7C15;
        let r = *bits % 4;
        match c {
            '&' => out.push_str(["&amp;", "&#38;", "&#x26;", "&amp;"][r as usize]),
            '<' => out.push_str(["&lt;", "&#60;", "&lt;", "&#x3C;"][r as usize]),
            '"' if attr => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            '\n' | '\t' if attr && r < 2 => out.push_str(if c == '\n' { "&#10;" } else { "&#9;" }),
            '>' if r == 0 => out.push_str("&gt;"),
            ']' => out.push_str("&#93;"),
            c if r == 3 && c.is_alphabetic() => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
}

fn write_gen(g: &Gen, out: &mut String, bits: &mut u64, root: bool) {
    match g {
        Gen::Elem {
            name,
            decl,
            attrs,
            children,
        } => {
            out.push('<');
            out.push_str(name);
            if root {
                out.push_str(" xmlns:p='urn:p' xmlns:q='urn:q'");
            }
            if let Some((p, uri)) = decl {
                if p.is_empty() {
                    out.push_str(&format!(" xmlns='{uri}'"));
                } else {
                    out.push_str(&format!(" xmlns:{p}='{uri}'"));
                }
            }
            for (k, v) in attrs {
                out.push_str(&format!(" {k}=\""));
                write_chars(out, v, true, bits);
                out.push('"');
            }
            if children.is_empty() && *bits % 2 == 0 {
                out.push_str("/>");
                return;
            }
            out.push('>');
            for c in children {
                write_gen(c, out, bits, false);
            }
            out.push_str(&format!("</{name}>"));
        }
        Gen::Text(s) => write_chars(out, s, false, bits),
        Gen::CData(s) => out.push_str(&format!("<![CDATA[{s}]]>")),
        Gen::Comment(s) => out.push_str(&format!("<!--{s}-->")),
        Gen::Pi(s) => out.push_str(&format!("<?pi {s}?>")),
    }
}

// ----- an owned model of a document, for the edits' reference ------------------------------

/// A document as plain values: what a correct edit must produce.
#[derive(Clone, Debug, PartialEq)]
enum M {
    Elem {
        name: String,
        decls: Vec<(String, String)>,
        attrs: Vec<(String, String)>,
        children: Vec<M>,
    },
    Text(String),
    Comment(String),
    Pi(String, String),
}

/// The owned model of a tree node.
fn model(tree: &Document, n: NodeId) -> M {
    match tree.kind(n) {
        NodeKind::Element => M::Elem {
            name: qualified(tree.prefix(n), tree.local_name(n)),
            decls: tree
                .namespace_declarations(n)
                .map(|(p, u)| (p.to_string(), u.to_string()))
                .collect(),
            attrs: tree
                .attributes(n)
                .map(|a| (qualified(a.prefix, a.local_name), a.value.to_string()))
                .collect(),
            children: tree.children(n).map(|c| model(tree, c)).collect(),
        },
        NodeKind::Text => M::Text(tree.text(n).to_string()),
        NodeKind::Comment => M::Comment(tree.text(n).to_string()),
        _ => M::Pi(tree.local_name(n).to_string(), tree.text(n).to_string()),
    }
}

fn qualified(prefix: &str, local: &str) -> String {
    if prefix.is_empty() {
        local.to_string()
    } else {
        format!("{prefix}:{local}")
    }
}

/// Merges adjacent text and drops empty text, as parsing the written model would.
fn normalize(children: Vec<M>) -> Vec<M> {
    let mut out: Vec<M> = Vec::new();
    for c in children {
        match c {
            M::Text(t) if t.is_empty() => {}
            M::Text(t) => match out.last_mut() {
                Some(M::Text(prev)) => prev.push_str(&t),
                _ => out.push(M::Text(t)),
            },
            M::Elem {
                name,
                decls,
                attrs,
                children,
            } => out.push(M::Elem {
                name,
                decls,
                attrs,
                children: normalize(children),
            }),
            other => out.push(other),
        }
    }
    out
}

/// Fragments an edit inserts: the bytes, and the nodes they are.
fn fragment(k: usize) -> (&'static [u8], Vec<M>) {
    let ins = |children| M::Elem {
        name: "ins".into(),
        decls: vec![],
        attrs: vec![("k".into(), "v&".into())],
        children,
    };
    match k % 5 {
        0 => (b"<ins k='v&amp;'/>", vec![ins(vec![])]),
        1 => (
            b"<ins k='v&amp;'>t</ins>",
            vec![ins(vec![M::Text("t".into())])],
        ),
        2 => (b"plain &lt;", vec![M::Text("plain <".into())]),
        3 => (b"<!--n-->", vec![M::Comment("n".into())]),
        _ => (b"", vec![]),
    }
}

/// The reference: a node of the owned model with the edits recorded on it, by position.
#[derive(Clone, Debug)]
struct Slot {
    node: M,
    /// Descriptor index of the node in the index (to find it by the edit's target).
    id: usize,
    deleted: bool,
    /// Replacement nodes (a text node replaced, or an element's new content).
    replaced: Option<Vec<M>>,
    /// Per attribute: deleted, or a new value.
    attr_edits: Vec<Option<Option<String>>>,
    attr_ids: Vec<usize>,
    /// Children as slots, with the insertions in each gap (`gaps[k]` before child `k`).
    children: Vec<Slot>,
    gaps: Vec<Gap>,
}

/// The insertions between two children (or before the first, after the last).
#[derive(Clone, Debug, Default)]
struct Gap {
    /// Each insertion: whether it was made after the node before the gap, and its nodes.
    inserts: Vec<(bool, Vec<M>)>,
    /// Markup without a node of its own (an empty CDATA section) lies in the gap: what was
    /// inserted after the node before it then comes first, whatever the order of the edits.
    split: bool,
}

impl Gap {
    fn nodes(&self) -> Vec<M> {
        let mut inserts: Vec<&(bool, Vec<M>)> = self.inserts.iter().collect();
        if self.split {
            inserts.sort_by_key(|(after, _)| !after); // stable
        }
        inserts
            .into_iter()
            .flat_map(|(_, m)| m.iter().cloned())
            .collect()
    }
}

fn slot(ix: &Index<'_>, n: NodeRef, m: M) -> Slot {
    let (children, attr_ids) = match &m {
        M::Elem { children, .. } => (
            ix.children(n)
                .zip(children.iter().cloned())
                .map(|(c, cm)| slot(ix, c, cm))
                .collect::<Vec<_>>(),
            ix.attributes(n).map(|a| a.index()).collect(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut gaps = vec![Gap::default(); children.len() + 1];
    // A text node's own extent takes in such markup beside it (edits before or after the
    // text go outside it), so only markup between two other nodes splits a gap.
    for k in 1..children.len() {
        let (a, b) = (children[k - 1].id, children[k].id);
        let (a, b) = (ix.node(a).unwrap(), ix.node(b).unwrap());
        gaps[k].split = ix.span(a).end != ix.span(b).start
            && ix.kind(a) != NodeKind::Text
            && ix.kind(b) != NodeKind::Text;
    }
    Slot {
        gaps,
        attr_edits: vec![None; attr_ids.len()],
        attr_ids,
        node: m,
        id: n.index(),
        deleted: false,
        replaced: None,
        children,
    }
}

/// Finds the slot of descriptor `id`: its parent slot and position, or itself at the root.
fn find(s: &mut Slot, id: usize) -> Option<&mut Slot> {
    if s.id == id {
        return Some(s);
    }
    s.children.iter_mut().find_map(|c| find(c, id))
}

fn find_parent(s: &mut Slot, id: usize) -> Option<(&mut Slot, usize)> {
    if let Some(k) = s.children.iter().position(|c| c.id == id) {
        return Some((s, k));
    }
    s.children.iter_mut().find_map(|c| find_parent(c, id))
}

/// The edited owned model.
fn flatten(s: &Slot) -> Vec<M> {
    if s.deleted {
        return Vec::new();
    }
    match &s.node {
        M::Elem {
            name, decls, attrs, ..
        } => {
            let attrs = attrs
                .iter()
                .zip(&s.attr_edits)
                .filter_map(|((k, v), e)| match e {
                    None => Some((k.clone(), v.clone())),
                    Some(None) => None,
                    Some(Some(nv)) => Some((k.clone(), nv.clone())),
                })
                .collect();
            let mut children = s.gaps[0].nodes();
            match &s.replaced {
                Some(r) => children.extend(r.iter().cloned()),
                None => {
                    for (k, c) in s.children.iter().enumerate() {
                        if k > 0 {
                            children.extend(s.gaps[k].nodes());
                        }
                        children.extend(flatten(c));
                    }
                }
            }
            if !s.children.is_empty() {
                children.extend(s.gaps[s.children.len()].nodes());
            }
            vec![M::Elem {
                name: name.clone(),
                decls: decls.clone(),
                attrs,
                children,
            }]
        }
        other => s.replaced.clone().unwrap_or_else(|| vec![other.clone()]),
    }
}

/// One random edit, applied to the editor and, when it accepts it, to the reference.
// Each arm calls the editor, then updates the reference only if the editor accepted: as
// match guards, the editor calls would hide in conditions.
#[allow(clippy::collapsible_match)]
fn edit(
    ix: &Index<'_>,
    ed: &mut xwire::index::Editor<'_, '_>,
    reference: &mut Slot,
    op: usize,
    target: usize,
    arg: usize,
) {
    let Some(n) = ix.node(target % ix.len()) else {
        return;
    };
    let id = n.index();
    let (bytes, nodes) = fragment(arg);
    match (op % 6, ix.kind(n)) {
        (_, NodeKind::Document) => {}
        (0, NodeKind::Attribute) | (5, NodeKind::Attribute) => {
            let owner = ix.parent(n).unwrap().index();
            let value = ["", "new", "a\"b<&>\t\n'"][arg % 3];
            let ok = if op % 6 == 0 {
                ed.delete(n).is_ok()
            } else {
                ed.set_attribute_value(n, value).is_ok()
            };
            if ok {
                let s = find(reference, owner).unwrap();
                let k = s.attr_ids.iter().position(|&a| a == id).unwrap();
                s.attr_edits[k] = Some((op % 6 == 5).then(|| value.to_string()));
            }
        }
        (_, NodeKind::Attribute) => {}
        (0, _) => {
            if ed.delete(n).is_ok() {
                find(reference, id).unwrap().deleted = true;
            }
        }
        (1, _) | (2, _) => {
            let before = op % 6 == 1;
            let ok = if before {
                ed.insert_before(n, bytes)
            } else {
                ed.insert_after(n, bytes)
            }
            .is_ok();
            if ok {
                match find_parent(reference, id) {
                    Some((p, k)) => p.gaps[if before { k } else { k + 1 }]
                        .inserts
                        .push((!before, nodes)),
                    None => panic!("root element edits are not generated"),
                }
            }
        }
        (3, NodeKind::Element) | (3, NodeKind::Text) => {
            if ed.replace_content(n, bytes).is_ok() {
                find(reference, id).unwrap().replaced = Some(nodes);
            }
        }
        (4, NodeKind::Element) | (4, NodeKind::Text) => {
            let text = ["", "x", "a<&>]]>\r\n"][arg % 3];
            if ed.set_text(n, text).is_ok() {
                // Escaped so it reads back exactly.
                find(reference, id).unwrap().replaced = Some(vec![M::Text(text.to_string())]);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_documents_agree_with_the_tree(root in gen(), bits in any::<u64>()) {
        let root = match root {
            e @ Gen::Elem { .. } => e,
            other => Gen::Elem { name: "r".into(), decl: None, attrs: vec![], children: vec![other] },
        };
        let mut doc = String::from("<?xml version='1.0'?><!--pre-->");
        let mut b = bits;
        write_gen(&root, &mut doc, &mut b, true);
        doc.push_str("<?post?>");
        let bytes = doc.into_bytes();
        let tree = Document::parse(&bytes);
        let ix = Index::parse(&bytes);
        match (tree, ix) {
            (Ok(tree), Ok(ix)) => {
                if let Err(e) = check_document(&bytes, &ix, &tree) {
                    return Err(TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))));
                }
            }
            (Err(_), Err(_)) => {} // Duplicate expanded attribute names, for one.
            (t, i) => return Err(TestCaseError::fail(format!(
                "tree {:?} index {:?}\n{}", t.err(), i.err(), String::from_utf8_lossy(&bytes)))),
        }
    }

    #[test]
    fn random_edits_match_the_reference(
        root in gen(),
        bits in any::<u64>(),
        ops in prop::collection::vec((0usize..6, 1usize..1000, 0usize..15), 0..14),
    ) {
        let root = match root {
            e @ Gen::Elem { .. } => e,
            other => Gen::Elem { name: "r".into(), decl: None, attrs: vec![], children: vec![other] },
        };
        let mut doc = String::new();
        let mut b = bits;
        write_gen(&root, &mut doc, &mut b, true);
        let bytes = doc.into_bytes();
        let Ok(tree) = Document::parse(&bytes) else { return Ok(()) };
        let ix = Index::parse(&bytes).unwrap();
        let root_el = ix.root_element().unwrap();
        let mut reference = slot(&ix, root_el, model(&tree, tree.root_element().unwrap()));
        let mut ed = ix.edit();
        for (op, target, arg) in ops {
            // The root element itself is not edited (deleting it leaves no document).
            if target % ix.len() <= root_el.index() {
                continue;
            }
            edit(&ix, &mut ed, &mut reference, op, target, arg);
        }
        let out = ed.to_vec();
        let edited = Document::parse(&out).map_err(|e| TestCaseError::fail(format!(
            "{e}\n{}\n{}", String::from_utf8_lossy(&bytes), String::from_utf8_lossy(&out))))?;
        let got = normalize(vec![model(&edited, edited.root_element().unwrap())]);
        let want = normalize(flatten(&reference));
        prop_assert_eq!(got, want, "\n{}\n{}", String::from_utf8_lossy(&bytes), String::from_utf8_lossy(&out));
    }
}
