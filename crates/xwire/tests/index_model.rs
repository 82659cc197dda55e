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
        if tree.kind(t) != NodeKind::Document && tree.offset(t) != ix.offset(i) {
            return Err(format!(
                "{}: offset {} vs {}",
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
