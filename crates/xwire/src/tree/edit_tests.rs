//! Every edit operation and every error it can return.

use std::cmp::Ordering;

use super::*;
use crate::{XMLNS_NS, XML_NS};

fn parse(s: &str) -> Document {
    Document::parse(s.as_bytes()).unwrap()
}

fn xml(d: &Document) -> String {
    d.to_xml().unwrap()
}

/// The element children of `n` by local name.
fn child(d: &Document, n: NodeId, name: &str) -> NodeId {
    d.children(n)
        .find(|&c| d.local_name(c) == name)
        .unwrap_or_else(|| panic!("no child {name}"))
}

/// Checks every link of the tree (and of detached subtrees) against its neighbours.
fn check_links(d: &Document) {
    for (i, node) in d.nodes.iter().enumerate() {
        if node.kind() == K_FREE {
            continue;
        }
        let n = NodeId(i as u32);
        let kids: Vec<_> = d.children(n).collect();
        assert_eq!(d.last_child(n), kids.last().copied(), "last child of {n:?}");
        for (j, &k) in kids.iter().enumerate() {
            assert_eq!(d.parent(k), Some(n));
            let prev = j.checked_sub(1).map(|j| kids[j]);
            assert_eq!(d.prev_sibling(k), prev, "prev of {k:?}");
        }
        if node.parent == NONE {
            assert_eq!((node.prev, node.next), (NONE, NONE));
        }
    }
}

#[test]
fn created_nodes_are_detached_and_have_no_offset() {
    let mut d = parse("<r/>");
    let e = d.create_element("p", "e", "urn:p").unwrap();
    let t = d.create_text("t").unwrap();
    let c = d.create_comment("c").unwrap();
    let pi = d.create_pi("t", "d").unwrap();
    for n in [e, t, c, pi] {
        assert_eq!(d.parent(n), None);
        assert!(!d.is_attached(n));
        assert_eq!(d.offset(n), None);
    }
    assert_eq!(
        (d.prefix(e), d.local_name(e), d.namespace_uri(e)),
        ("p", "e", "urn:p")
    );
    assert_eq!((d.kind(t), d.text(t)), (NodeKind::Text, "t"));
    assert_eq!((d.kind(c), d.text(c)), (NodeKind::Comment, "c"));
    assert_eq!(
        (d.kind(pi), d.local_name(pi), d.text(pi)),
        (NodeKind::Pi, "t", "d")
    );
    assert_eq!(d.offset(d.root_element().unwrap()), Some(0));
    assert_eq!(d.offset(d.root()), None);
    assert!(d.is_attached(d.root_element().unwrap()));
}

#[test]
fn names_are_checked() {
    let mut d = parse("<r/>");
    let bad = [
        (
            ("", "1a", ""),
            EditError::InvalidName("local name", "1a".into()),
        ),
        (
            ("", "a:b", ""),
            EditError::InvalidName("local name", "a:b".into()),
        ),
        (
            ("", "", ""),
            EditError::InvalidName("local name", "".into()),
        ),
        (
            ("p q", "a", "u"),
            EditError::InvalidName("prefix", "p q".into()),
        ),
        (
            ("p", "a", ""),
            EditError::Namespace("a prefixed name needs a namespace URI"),
        ),
        (
            ("xml", "a", "urn:x"),
            EditError::Namespace("the prefix xml and the XML namespace go together only"),
        ),
        (
            ("x", "a", XML_NS),
            EditError::Namespace("the prefix xml and the XML namespace go together only"),
        ),
        (
            ("xmlns", "a", "urn:x"),
            EditError::Namespace("xmlns names are namespace declarations (declare_namespace)"),
        ),
        (
            ("", "a", XMLNS_NS),
            EditError::Namespace("xmlns names are namespace declarations (declare_namespace)"),
        ),
        (("", "a", "urn:\u{1}"), EditError::InvalidChar('\u{1}')),
    ];
    let r = d.root_element().unwrap();
    let before = xml(&d);
    for ((p, l, u), e) in bad {
        assert_eq!(d.create_element(p, l, u), Err(e.clone()), "{p}:{l} {u}");
        assert_eq!(d.rename(r, p, l, u), Err(e.clone()), "{p}:{l} {u}");
        assert_eq!(d.set_attribute(r, p, l, u, "v"), Err(e), "{p}:{l} {u}");
    }
    // An attribute named xmlns is a declaration; an element may be called that.
    assert!(matches!(
        d.set_attribute(r, "", "xmlns", "", "urn:x"),
        Err(EditError::Namespace(_))
    ));
    assert!(d.create_element("", "xmlns", "").is_ok());
    assert!(d.create_element("xml", "a", XML_NS).is_ok());
    assert_eq!(xml(&d), before);
    // Errors print something readable.
    let msg = EditError::InvalidName("prefix", "p q".into()).to_string();
    assert_eq!(msg, "'p q' is not a valid prefix");
}

#[test]
fn text_comment_and_pi_content_is_checked() {
    let mut d = parse("<r/>");
    assert_eq!(d.create_text("a\u{0}"), Err(EditError::InvalidChar('\0')));
    assert_eq!(
        d.create_text("\u{FFFE}"),
        Err(EditError::InvalidChar('\u{FFFE}'))
    );
    assert_eq!(d.create_comment("a--b"), Err(EditError::InvalidComment));
    assert_eq!(d.create_comment("a-"), Err(EditError::InvalidComment));
    assert_eq!(
        d.create_comment("\u{1}"),
        Err(EditError::InvalidChar('\u{1}'))
    );
    assert_eq!(
        d.create_pi("a:b", ""),
        Err(EditError::InvalidName("PI target", "a:b".into()))
    );
    assert!(matches!(
        d.create_pi("XmL", ""),
        Err(EditError::InvalidPi(_))
    ));
    assert!(matches!(
        d.create_pi("t", "a?>b"),
        Err(EditError::InvalidPi(_))
    ));
    assert!(matches!(
        d.create_pi("t", " a"),
        Err(EditError::InvalidPi(_))
    ));
    assert_eq!(
        d.create_pi("t", "\u{2}"),
        Err(EditError::InvalidChar('\u{2}'))
    );
    // Text with carriage returns and markup characters is fine: the writer escapes it.
    let t = d.create_text("a\r\n<&>]]>").unwrap();
    let r = d.root_element().unwrap();
    d.append_child(r, t).unwrap();
    let again = Document::parse(xml(&d).as_bytes()).unwrap();
    assert_eq!(
        again.text_content(again.root_element().unwrap()),
        "a\r\n<&>]]>"
    );
}

#[test]
fn the_four_insertions_put_nodes_in_place() {
    let mut d = parse("<r><m/></r>");
    let r = d.root_element().unwrap();
    let m = child(&d, r, "m");
    let [a, b, c, e] = ["a", "b", "c", "e"].map(|n| d.create_element("", n, "").unwrap());
    d.append_child(r, e).unwrap();
    d.prepend_child(r, a).unwrap();
    d.insert_before(m, b).unwrap();
    d.insert_after(m, c).unwrap();
    assert_eq!(xml(&d), "<r><a/><b/><m/><c/><e/></r>");
    let f = d.create_element("", "f", "").unwrap();
    d.insert_after(e, f).unwrap();
    let z = d.create_element("", "z", "").unwrap();
    d.insert_before(a, z).unwrap();
    assert_eq!(xml(&d), "<r><z/><a/><b/><m/><c/><e/><f/></r>");
    // Into an empty element, each way.
    for (i, op) in ["append", "prepend"].iter().enumerate() {
        let x = d.create_element("", "x", "").unwrap();
        let y = d.create_text(op).unwrap();
        d.append_child(r, x).unwrap();
        if i == 0 {
            d.append_child(x, y).unwrap();
        } else {
            d.prepend_child(x, y).unwrap();
        }
    }
    assert!(xml(&d).ends_with("<f/><x>append</x><x>prepend</x></r>"));
    // Comments and PIs around the root element.
    let c1 = d.create_comment("c").unwrap();
    let p1 = d.create_pi("p", "").unwrap();
    d.insert_before(r, c1).unwrap();
    d.insert_after(r, p1).unwrap();
    assert!(xml(&d).starts_with("<!--c--><r>"));
    assert!(xml(&d).ends_with("</r><?p?>"));
    check_links(&d);
}

#[test]
fn insertion_errors() {
    let mut d = parse("<r><a><b/></a>t<!--c--></r>");
    let r = d.root_element().unwrap();
    let a = child(&d, r, "a");
    let b = child(&d, a, "b");
    let t = d.first_child(r).and_then(|n| d.next_sibling(n)).unwrap();
    let comment = d.last_child(r).unwrap();
    let x = d.create_element("", "x", "").unwrap();
    let before = xml(&d);
    assert_eq!(d.append_child(t, x), Err(EditError::NotAParent(t)));
    assert_eq!(
        d.prepend_child(comment, x),
        Err(EditError::NotAParent(comment))
    );
    assert_eq!(d.append_child(r, b), Err(EditError::Attached(b)));
    assert_eq!(d.insert_before(b, a), Err(EditError::Attached(a)));
    assert_eq!(d.append_child(r, d.root()), Err(EditError::DocumentNode));
    assert_eq!(
        d.insert_before(d.root(), x),
        Err(EditError::NoParent(d.root()))
    );
    let y = d.create_element("", "y", "").unwrap();
    assert_eq!(d.insert_after(y, x), Err(EditError::NoParent(y)));
    // Cycles: a node into itself, an ancestor into its descendant.
    assert_eq!(d.append_child(x, x), Err(EditError::Cycle));
    d.append_child(x, y).unwrap();
    assert_eq!(d.append_child(y, x), Err(EditError::Cycle));
    d.detach(a).unwrap();
    assert_eq!(d.prepend_child(b, a), Err(EditError::Cycle));
    d.append_child(r, a).unwrap();
    // The document node: one element, no text.
    assert_eq!(
        d.append_child(d.root(), x),
        Err(EditError::SecondRootElement)
    );
    let t2 = d.create_text("\n").unwrap();
    assert_eq!(
        d.append_child(d.root(), t2),
        Err(EditError::TextOutsideRoot)
    );
    assert_eq!(d.insert_before(r, t2), Err(EditError::TextOutsideRoot));
    // Taking the root element out makes room for another.
    d.detach(r).unwrap();
    d.append_child(d.root(), x).unwrap();
    assert_eq!(xml(&d), "<x><y/></x>");
    d.detach(x).unwrap();
    d.append_child(d.root(), r).unwrap();
    assert_eq!(
        xml(&d).replace("<a><b/></a>", ""),
        before.replace("<a><b/></a>", "")
    );
    check_links(&d);
}

#[test]
fn detach_keeps_the_subtree_for_a_move() {
    let mut d = parse("<r><a>1</a><b>2</b><c>3</c></r>");
    let r = d.root_element().unwrap();
    let [a, b, c] = ["a", "b", "c"].map(|n| child(&d, r, n));
    assert_eq!(d.detach(d.root()), Err(EditError::DocumentNode));
    // Middle, first, last and only child.
    d.detach(b).unwrap();
    check_links(&d);
    assert_eq!(xml(&d), "<r><a>1</a><c>3</c></r>");
    d.detach(a).unwrap();
    check_links(&d);
    d.detach(c).unwrap();
    check_links(&d);
    assert_eq!(xml(&d), "<r/>");
    d.detach(c).unwrap(); // detached already: nothing happens
    d.append_child(r, c).unwrap();
    d.append_child(c, b).unwrap();
    d.insert_before(c, a).unwrap();
    assert_eq!(xml(&d), "<r><a>1</a><c>3<b>2</b></c></r>");
    assert_eq!(d.text_content(b), "2");
    check_links(&d);
}

#[test]
fn removed_ids_panic_with_a_message() {
    let mut d = parse(r#"<r><a xmlns:p="urn:p"><b/></a><c/></r>"#);
    let r = d.root_element().unwrap();
    let a = child(&d, r, "a");
    let b = child(&d, a, "b");
    assert_eq!(d.remove(d.root()), Err(EditError::DocumentNode));
    d.remove(a).unwrap();
    assert_eq!(xml(&d), "<r><c/></r>");
    assert!(d.decl_ranges.is_empty());
    let len = d.len();
    for n in [a, b] {
        let msg = std::panic::catch_unwind(|| d.kind(n)).unwrap_err();
        let msg = msg.downcast_ref::<String>().unwrap();
        assert_eq!(*msg, format!("{n:?} was removed from the document"));
    }
    let far = NodeId(len as u32 + 5);
    let msg = std::panic::catch_unwind(|| d.parent(far)).unwrap_err();
    assert!(msg
        .downcast_ref::<String>()
        .unwrap()
        .contains("is not a node of this document"));
    // Removing a detached subtree works too; slots are not reused.
    let x = d.create_element("", "x", "").unwrap();
    d.remove(x).unwrap();
    let y = d.create_element("", "y", "").unwrap();
    assert_ne!(x, y);
    assert!(std::panic::catch_unwind(|| d.local_name(x)).is_err());
    check_links(&d);
}

#[test]
fn rename_changes_the_name_only() {
    let mut d = parse(r#"<r a="1"><c>t</c></r>"#);
    let r = d.root_element().unwrap();
    d.rename(r, "", "root", "").unwrap();
    assert_eq!(xml(&d), r#"<root a="1"><c>t</c></root>"#);
    let t = d.first_child(child(&d, r, "c")).unwrap();
    assert_eq!(
        d.rename(t, "", "x", ""),
        Err(EditError::WrongKind("rename", NodeKind::Text))
    );
    assert_eq!(
        d.rename(d.root(), "", "x", ""),
        Err(EditError::WrongKind("rename", NodeKind::Document))
    );
}

#[test]
fn attributes_are_set_replaced_and_removed_in_a_stable_order() {
    let mut d = parse(r#"<r a="1" b="2"><s c="3"/></r>"#);
    let r = d.root_element().unwrap();
    let s = child(&d, r, "s");
    let names = |d: &Document, n| {
        d.attributes(n)
            .map(|a| format!("{}={}", a.local_name, a.value))
            .collect::<Vec<_>>()
    };
    // Replace in place; add to an element whose attributes are not last in the arena.
    d.set_attribute(r, "", "a", "", "one").unwrap();
    d.set_attribute(r, "", "z", "", "26").unwrap();
    d.set_attribute(s, "", "d", "", "4").unwrap();
    d.set_attribute(r, "q", "b", "urn:q", "qb").unwrap();
    assert_eq!(names(&d, r), ["a=one", "b=2", "z=26", "b=qb"]);
    assert_eq!(names(&d, s), ["c=3", "d=4"]);
    // Same expanded name, other prefix: replaced, prefix included.
    d.set_attribute(r, "k", "b", "urn:q", "kb").unwrap();
    assert_eq!(d.attribute(r, "urn:q", "b"), Some("kb"));
    assert_eq!(d.attributes(r).last().unwrap().prefix, "k");
    assert_eq!(d.remove_attribute(r, "", "b"), Ok(true));
    assert_eq!(d.remove_attribute(r, "", "b"), Ok(false));
    assert_eq!(names(&d, r), ["a=one", "z=26", "b=kb"]);
    assert_eq!(
        xml(&d),
        r#"<r xmlns:k="urn:q" a="one" z="26" k:b="kb"><s c="3" d="4"/></r>"#
    );
    // attr_range / attr_at agree with attributes().
    let via_index: Vec<_> = d.attr_range(r).map(|i| d.attr_at(i)).collect();
    assert_eq!(via_index, d.attributes(r).collect::<Vec<_>>());
    // Errors.
    assert_eq!(
        d.set_attribute(r, "", "v", "", "\u{0}"),
        Err(EditError::InvalidChar('\0'))
    );
    let t = d.create_text("t").unwrap();
    assert_eq!(
        d.set_attribute(t, "", "a", "", ""),
        Err(EditError::WrongKind("set_attribute", NodeKind::Text))
    );
    assert_eq!(
        d.remove_attribute(t, "", "a"),
        Err(EditError::WrongKind("remove_attribute", NodeKind::Text))
    );
}

#[test]
fn set_text_on_text_comment_and_pi_nodes() {
    let mut d = parse("<r>a<!--b--><?c d?></r>");
    let r = d.root_element().unwrap();
    let kids: Vec<_> = d.children(r).collect();
    d.set_text(kids[0], "A").unwrap();
    d.set_text(kids[1], "B").unwrap();
    d.set_text(kids[2], "D").unwrap();
    assert_eq!(xml(&d), "<r>A<!--B--><?c D?></r>");
    assert_eq!(d.set_text(kids[1], "-"), Err(EditError::InvalidComment));
    assert!(matches!(
        d.set_text(kids[2], "?>"),
        Err(EditError::InvalidPi(_))
    ));
    assert_eq!(
        d.set_text(kids[0], "\u{0}"),
        Err(EditError::InvalidChar('\0'))
    );
    assert_eq!(
        d.set_text(r, "x"),
        Err(EditError::WrongKind("set_text", NodeKind::Element))
    );
    // Text keeps its offset; white space moves to the table and back.
    assert_eq!(d.offset(kids[0]), Some(3));
    d.set_text(kids[0], "\n  ").unwrap();
    assert_eq!(d.nodes[kids[0].index()].kind(), K_WS_SPACES);
    d.set_text(kids[0], "x").unwrap();
    assert_eq!((d.kind(kids[0]), d.text(kids[0])), (NodeKind::Text, "x"));
    assert!(d.is_normalized());
    d.set_text(kids[0], "").unwrap();
    assert!(!d.is_normalized());
}

#[test]
fn set_text_content_replaces_the_children() {
    let mut d = parse("<r>a<b>c</b><!--d--></r>");
    let r = d.root_element().unwrap();
    let b = child(&d, r, "b");
    let t = d.set_text_content(r, "new").unwrap().unwrap();
    assert_eq!(d.children(r).collect::<Vec<_>>(), [t]);
    assert_eq!(xml(&d), "<r>new</r>");
    assert!(std::panic::catch_unwind(|| d.kind(b)).is_err());
    assert_eq!(d.set_text_content(r, ""), Ok(None));
    assert_eq!(xml(&d), "<r/>");
    assert_eq!(
        d.set_text_content(d.root(), "x"),
        Err(EditError::WrongKind("set_text_content", NodeKind::Document))
    );
    assert_eq!(
        d.set_text_content(r, "\u{0}"),
        Err(EditError::InvalidChar('\0'))
    );
    check_links(&d);
}

#[test]
fn namespace_declarations_are_added_replaced_and_removed() {
    let mut d = parse(r#"<r xmlns:a="urn:a"><s xmlns="urn:d"/><t/></r>"#);
    let r = d.root_element().unwrap();
    let [s, t] = ["s", "t"].map(|n| child(&d, r, n));
    fn decls(d: &Document, n: NodeId) -> Vec<(&str, &str)> {
        d.namespace_declarations(n).collect()
    }
    d.declare_namespace(r, "b", "urn:b").unwrap(); // relocated: s's come after r's
    d.declare_namespace(r, "a", "urn:a2").unwrap(); // replaced
    d.declare_namespace(t, "", "urn:t").unwrap(); // a new entry, between others by node
    assert_eq!(decls(&d, r), [("a", "urn:a2"), ("b", "urn:b")]);
    assert_eq!(decls(&d, s), [("", "urn:d")]);
    assert_eq!(decls(&d, t), [("", "urn:t")]);
    // The names keep their URIs: t is in no namespace, so its declaration of the default
    // namespace is not written.
    assert_eq!(
        xml(&d),
        r#"<r xmlns:a="urn:a2" xmlns:b="urn:b"><s xmlns="urn:d"/><t/></r>"#
    );
    assert_eq!(d.remove_namespace_declaration(r, "a"), Ok(true));
    assert_eq!(d.remove_namespace_declaration(r, "a"), Ok(false));
    assert_eq!(d.remove_namespace_declaration(s, ""), Ok(true));
    assert_eq!(decls(&d, r), [("b", "urn:b")]);
    assert_eq!(decls(&d, s), []);
    assert_eq!(d.decl_ranges.len(), 2);
    // Errors.
    let err = |r| matches!(r, Err(EditError::Namespace(_)));
    assert!(err(d.declare_namespace(r, "xmlns", "urn:x")));
    assert!(err(d.declare_namespace(r, "x", XMLNS_NS)));
    assert!(err(d.declare_namespace(r, "xml", "urn:x")));
    assert!(err(d.declare_namespace(r, "x", XML_NS)));
    assert!(err(d.declare_namespace(r, "x", "")));
    assert_eq!(
        d.declare_namespace(r, "1", "urn:x"),
        Err(EditError::InvalidName("prefix", "1".into()))
    );
    assert_eq!(
        d.declare_namespace(r, "x", "\u{0}"),
        Err(EditError::InvalidChar('\0'))
    );
    let c = d.create_comment("c").unwrap();
    assert_eq!(
        d.declare_namespace(c, "x", "urn:x"),
        Err(EditError::WrongKind("declare_namespace", NodeKind::Comment))
    );
    assert_eq!(
        d.remove_namespace_declaration(c, "x"),
        Err(EditError::WrongKind(
            "remove_namespace_declaration",
            NodeKind::Comment
        ))
    );
    // The default may be undeclared, and xml declared (pointlessly).
    d.declare_namespace(s, "", "").unwrap();
    d.declare_namespace(s, "xml", XML_NS).unwrap();
}

#[test]
fn the_writer_declares_what_edited_names_need() {
    let mut d = parse(r#"<p:r xmlns:p="urn:p" xmlns="urn:d"><p:a><b/></p:a></p:r>"#);
    let r = d.root_element().unwrap();
    let a = child(&d, r, "a");
    let b = child(&d, a, "b");
    // A new prefix on an element and on an attribute.
    let q = d.create_element("q", "n", "urn:q").unwrap();
    d.append_child(b, q).unwrap();
    d.set_attribute(q, "z", "at", "urn:z", "v").unwrap();
    // The declaration of p removed while p:a still uses it.
    d.remove_namespace_declaration(r, "p").unwrap();
    // A prefix declared to another URI than the element's own.
    d.declare_namespace(a, "p", "urn:other").unwrap();
    // An unqualified element under the default namespace.
    let u = d.create_element("", "u", "").unwrap();
    d.append_child(a, u).unwrap();
    let out = xml(&d);
    let again = Document::parse(out.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let names = |d: &Document| {
        d.descendants(d.root())
            .filter(|&n| d.kind(n) == NodeKind::Element)
            .map(|n| {
                let attrs: Vec<_> = d
                    .attributes(n)
                    .map(|a| format!("{{{}}}{}={}", a.namespace_uri, a.local_name, a.value))
                    .collect();
                format!("{{{}}}{} {attrs:?}", d.namespace_uri(n), d.local_name(n))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&again), names(&d), "{out}");
    assert_eq!(
        names(&d),
        [
            "{urn:p}r []",
            "{urn:p}a []",
            "{urn:d}b []",
            r#"{urn:q}n ["{urn:z}at=v"]"#,
            "{}u []"
        ]
    );
    // A subtree written alone declares what it uses from above.
    let mut w = crate::writer::Writer::new(Vec::new());
    d.write_node(b, &mut w).unwrap();
    let sub = String::from_utf8(w.finish().unwrap()).unwrap();
    assert!(sub.starts_with(r#"<b xmlns="urn:d">"#), "{sub}");
    Document::parse(sub.as_bytes()).unwrap();
}

#[test]
fn normalize_merges_adjacent_text_and_drops_empty_text() {
    let mut d = parse("<r>a<b/>c</r>");
    let r = d.root_element().unwrap();
    let [a, b, c] = [0, 1, 2].map(|i| d.children(r).nth(i).unwrap());
    assert!(d.is_normalized());
    d.remove(b).unwrap();
    assert!(!d.is_normalized());
    let e = d.create_text("").unwrap();
    let x = d.create_element("", "x", "").unwrap();
    d.append_child(r, x).unwrap();
    d.append_child(x, e).unwrap();
    let t = d.create_text("\n").unwrap();
    d.append_child(r, t).unwrap();
    // Text in a detached subtree is normalized too.
    let y = d.create_element("", "y", "").unwrap();
    let (y1, y2) = (d.create_text("1").unwrap(), d.create_text("2").unwrap());
    d.append_child(y, y1).unwrap();
    d.append_child(y, y2).unwrap();
    d.normalize();
    assert!(d.is_normalized());
    assert_eq!(d.children(r).collect::<Vec<_>>(), [a, x, t]);
    assert_eq!(d.text(a), "ac");
    assert_eq!(d.first_child(x), None);
    assert_eq!(d.text_content(y), "12");
    assert_eq!(d.children(y).count(), 1);
    for gone in [c, e, y2] {
        assert!(std::panic::catch_unwind(|| d.kind(gone)).is_err());
    }
    // White space joins as white space: "\n" then "  " is still a table slice.
    let (w1, w2) = (d.create_text("\n").unwrap(), d.create_text("  ").unwrap());
    d.append_child(x, w1).unwrap();
    d.append_child(x, w2).unwrap();
    d.normalize();
    assert_eq!(d.text(w1), "\n  ");
    assert_eq!(d.nodes[w1.index()].kind(), K_WS_SPACES);
    check_links(&d);
}

#[test]
fn cmp_order_follows_edits() {
    let mut d = parse("<r><a><b/></a><c/></r>");
    let all: Vec<_> = d.descendants(d.root()).collect();
    for w in all.windows(2) {
        assert_eq!(d.cmp_order(w[0], w[1]), Ordering::Less);
    }
    let r = d.root_element().unwrap();
    let (a, c) = (child(&d, r, "a"), child(&d, r, "c"));
    let b = child(&d, a, "b");
    d.detach(a).unwrap();
    d.append_child(c, a).unwrap();
    // r, c, a, b
    assert_eq!(d.cmp_order(c, a), Ordering::Less);
    assert_eq!(d.cmp_order(b, c), Ordering::Greater);
    assert_eq!(d.cmp_order(a, a), Ordering::Equal);
    // Detached nodes come after the tree.
    let x = d.create_element("", "x", "").unwrap();
    assert_eq!(d.cmp_order(b, x), Ordering::Less);
    d.prepend_child(r, x).unwrap();
    assert_eq!(d.cmp_order(x, c), Ordering::Less);
    assert_eq!(d.cmp_order(r, x), Ordering::Less);
    d.remove(c).unwrap();
    assert!(std::panic::catch_unwind(|| d.cmp_order(r, c)).is_err());
    assert!(d.heap_bytes() > 0);
}

#[test]
fn indentation_stays_out_of_the_text_arena() {
    let src = "<r>\n  <a>\n\t\t<b/>\n\t</a>\n\n    <c> x </c> \t\n</r>";
    let d = parse(src);
    let kinds: Vec<_> = d
        .descendants(d.root())
        .filter(|&n| d.kind(n) == NodeKind::Text)
        .map(|n| (d.text(n), d.nodes[n.index()].kind()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("\n  ", K_WS_SPACES),
            ("\n\t\t", K_WS_TABS),
            ("\n\t", K_WS_TABS),
            ("\n\n    ", K_WS_SPACES),
            (" x ", K_TEXT),
            (" \t\n", K_TEXT),
        ]
    );
    assert_eq!(xml(&d), src);
    // The tables' limits: sixteen newlines, 240 spaces, 48 tabs.
    assert_eq!(WS_SPACES.len(), 256);
    assert_eq!(WS_TABS.len(), 64);
    for (s, fits) in [
        ("\n".repeat(16) + &" ".repeat(240), true),
        ("\n".repeat(17), false),
        (" ".repeat(241), false),
        ("\t".repeat(48), true),
        ("\t".repeat(49), false),
        ("".into(), false),
    ] {
        assert_eq!(inline_ws(&s).is_some(), fits, "{s:?}");
        if let Some((kind, (a, b))) = inline_ws(&s) {
            let table = if kind == K_WS_SPACES {
                WS_SPACES
            } else {
                WS_TABS
            };
            assert_eq!(&table[a as usize..b as usize], s);
        }
    }
}

#[test]
fn offsets_past_4_gib_come_from_the_side_table() {
    let mut d = parse("<r><a/></r>");
    let a = d.first_child(d.root_element().unwrap()).unwrap();
    d.nodes[a.index()].offset = OFF_BIG;
    d.big_offsets.push((a.0, 5 << 32));
    assert_eq!(d.offset(a), Some(5 << 32));
}

#[test]
fn a_document_built_from_scratch() {
    let mut d = Document::new();
    assert!(d.is_empty());
    assert_eq!(d.root_element(), None);
    let c = d.create_comment(" generated ").unwrap();
    d.append_child(d.root(), c).unwrap();
    let r = d.create_element("s", "Envelope", "urn:soap").unwrap();
    d.append_child(d.root(), r).unwrap();
    let body = d.create_element("s", "Body", "urn:soap").unwrap();
    d.append_child(r, body).unwrap();
    d.set_text_content(body, "hi").unwrap();
    assert_eq!(
        xml(&d),
        r#"<!-- generated --><s:Envelope xmlns:s="urn:soap"><s:Body>hi</s:Body></s:Envelope>"#
    );
    assert_eq!(d.cmp_order(c, body), Ordering::Less);
}

#[test]
fn documents_are_send_and_sync() {
    fn check<T: Send + Sync + Clone>() {}
    check::<Document>();
}

#[test]
fn a_full_document_refuses_to_grow() {
    let mut d = parse("<r/>");
    let r = d.root_element().unwrap();
    // Pretend the text arena is at its limit: the check looks at lengths only.
    let room = u32::MAX as usize - d.text.len();
    assert_eq!(d.room(room), Err(EditError::TooLarge));
    assert_eq!(d.room(room - 1), Ok(()));
    assert_eq!(
        EditError::TooLarge.to_string(),
        "the document cannot hold more nodes or text"
    );
    assert!(d.set_attribute(r, "", "a", "", "v").is_ok());
}

#[test]
fn a_prefix_the_writer_rebinds_is_not_trusted_below() {
    // p is declared for urn:p on r; the child's name needs p for urn:q, so the writer binds p
    // there; the grandchild's p (urn:p) must not be written as if r's declaration held.
    let mut d = parse(r#"<r xmlns:p="urn:p"><p:x/></r>"#);
    let r = d.root_element().unwrap();
    let x = d.first_child(r).unwrap();
    d.rename(x, "p", "f", "urn:q").unwrap();
    let c = d.create_element("p", "c", "urn:p").unwrap();
    d.append_child(x, c).unwrap();
    d.set_attribute(c, "p", "a", "urn:p", "1").unwrap();
    let out = xml(&d);
    let again = Document::parse(out.as_bytes()).unwrap();
    let f = again.first_child(again.root_element().unwrap()).unwrap();
    let c = again.first_child(f).unwrap();
    assert_eq!(again.namespace_uri(f), "urn:q", "{out}");
    assert_eq!(again.namespace_uri(c), "urn:p", "{out}");
    assert_eq!(again.attribute(c, "urn:p", "a"), Some("1"), "{out}");
}

#[test]
fn element_by_id_forgets_removed_and_detached_elements() {
    let mut d =
        Document::parse(br#"<!DOCTYPE r [<!ATTLIST e i ID #IMPLIED>]><r><e i="a"/><e i="b"/></r>"#)
            .unwrap();
    let a = d.element_by_id("a").unwrap();
    let b = d.element_by_id("b").unwrap();
    d.remove(a).unwrap();
    assert_eq!(d.element_by_id("a"), None);
    d.detach(b).unwrap();
    assert_eq!(d.element_by_id("b"), None);
    let r = d.root_element().unwrap();
    d.append_child(r, b).unwrap();
    assert_eq!(d.element_by_id("b"), Some(b));
}
