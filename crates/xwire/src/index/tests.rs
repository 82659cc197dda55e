use super::*;
use crate::xpath::Navigator;

fn ix(doc: &[u8]) -> Index<'_> {
    Index::parse(doc).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(doc)))
}

fn el<'a>(ix: &Index<'a>, path: &[usize]) -> NodeRef {
    let mut n = ix.root_element().unwrap();
    for &k in path {
        n = ix.children(n).nth(k).unwrap();
    }
    n
}

#[test]
fn descriptors_are_in_document_order_with_attributes_after_their_element() {
    let doc = b"<a x='1' y='2'><b z='3'/>t<!--c--><?p d?></a>";
    let ix = ix(doc);
    let kinds: Vec<_> = (0..ix.len())
        .map(|i| ix.kind(ix.node(i).unwrap()))
        .collect();
    use NodeKind::*;
    assert_eq!(
        kinds,
        [Document, Element, Attribute, Attribute, Element, Attribute, Text, Comment, Pi]
    );
    let depths: Vec<_> = (0..ix.len())
        .map(|i| ix.depth(ix.node(i).unwrap()))
        .collect();
    assert_eq!(depths, [0, 1, 2, 2, 2, 3, 2, 2, 2]);
}

#[test]
fn names_and_namespaces() {
    let doc =
        br#"<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b/><q:c xmlns:q="urn:q"/></p:a>"#;
    let ix = ix(doc);
    let a = el(&ix, &[]);
    assert_eq!(
        (ix.name(a), ix.prefix(a), ix.local_name(a)),
        ("p:a", "p", "a")
    );
    assert_eq!(ix.namespace_uri(a), "urn:p");
    let attrs: Vec<_> = ix
        .attributes(a)
        .map(|n| (ix.name(n), ix.namespace_uri(n), ix.value(n).into_owned()))
        .collect();
    assert_eq!(attrs, [("p:x", "urn:p", "1".into()), ("y", "", "2".into())]);
    assert_eq!(ix.namespace_uri(el(&ix, &[0])), "urn:d");
    assert_eq!(ix.namespace_uri(el(&ix, &[1])), "urn:q");
    assert!(ix.has_name(el(&ix, &[1]), "c", "urn:q"));
    assert!(!ix.has_name(el(&ix, &[1]), "c", ""));
    assert!(!ix.has_name(el(&ix, &[1]), "q:c", "urn:q"));
}

#[test]
fn namespaces_off_keeps_names_whole() {
    let doc = b"<p:a xmlns:p='urn:p' p:x='1'/>";
    let config = Config {
        namespaces: false,
        ..Config::default()
    };
    let ix = Index::parse_with(doc, &config).unwrap();
    let a = ix.root_element().unwrap();
    assert_eq!(
        (ix.local_name(a), ix.prefix(a), ix.namespace_uri(a)),
        ("p:a", "", "")
    );
}

#[test]
fn text_is_merged_and_unescaped_lazily() {
    let doc = b"<a>x &amp; y<![CDATA[<z>]]>&#65;\r\nw</a>";
    let ix = ix(doc);
    let a = el(&ix, &[]);
    assert_eq!(ix.children(a).count(), 1);
    let t = ix.first_child(a).unwrap();
    assert_eq!(ix.text(t), "x & y<z>A\nw");
    assert_eq!(ix.span(t), 3..doc.len() - 4);
    let plain = b"<a>plain</a>";
    let ix2 = super::Index::parse(plain).unwrap();
    let t = ix2.first_child(ix2.root_element().unwrap()).unwrap();
    assert!(matches!(ix2.text(t), Cow::Borrowed("plain")));
    assert!(matches!(
        ix2.string_value(ix2.root()),
        Cow::Borrowed("plain")
    ));
}

#[test]
fn attribute_values_are_normalised() {
    let doc = b"<a x='a\tb\r\nc&#10;&lt;' y=\"'\"/>";
    let ix = ix(doc);
    let a = el(&ix, &[]);
    assert_eq!(ix.attribute(a, "", "x").unwrap(), "a b c\n<");
    assert_eq!(ix.attribute(a, "", "y").unwrap(), "'");
}

#[test]
fn comments_and_pis() {
    let doc = b"<?pi  some data?><a><!-- c\r\n --><?t?></a><!--after-->";
    let ix = ix(doc);
    let pi = ix.first_child(ix.root()).unwrap();
    assert_eq!(ix.kind(pi), NodeKind::Pi);
    assert_eq!((ix.local_name(pi), &*ix.text(pi)), ("pi", "some data"));
    assert_eq!(ix.span(pi), 0..17);
    let a = ix.root_element().unwrap();
    let c = ix.first_child(a).unwrap();
    assert_eq!(ix.text(c), " c\n ");
    let t = ix.next_sibling(c).unwrap();
    assert_eq!((ix.local_name(t), &*ix.text(t)), ("t", ""));
    assert_eq!(ix.text(ix.last_child(ix.root()).unwrap()), "after");
}

#[test]
fn dtd_defaults_and_entities_are_kept_as_strings() {
    let doc = br#"<!DOCTYPE a [
        <!ENTITY e "ent &#38;amp; text">
        <!ATTLIST a d CDATA "dflt" t NMTOKENS #IMPLIED xmlns:p CDATA "urn:p">
    ]><a t="  x   y "><p:b>&e; and &e;</p:b></a>"#;
    let ix = ix(doc);
    let a = el(&ix, &[]);
    let attrs: Vec<_> = ix
        .attributes(a)
        .map(|n| (ix.name(n), ix.value(n).into_owned()))
        .collect();
    assert_eq!(attrs, [("t", "x y".into()), ("d", "dflt".into())]);
    let b = el(&ix, &[0]);
    assert_eq!(ix.namespace_uri(b), "urn:p");
    assert_eq!(ix.string_value(b), "ent & text and ent & text");
    let d = ix.attributes(a).nth(1).unwrap();
    assert_eq!(ix.offset(d), ix.offset(a));
    assert!(ix.edit().delete(d).is_err());
}

#[test]
fn unsupported_documents_are_refused_clearly() {
    let markup = br#"<!DOCTYPE a [<!ENTITY e "<b/>">]><a>&e;</a>"#;
    let err = Index::parse(markup).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    let utf16: Vec<u8> = "\u{feff}<a/>"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let err = Index::parse(&utf16).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    // Not well-formed: the reader's error.
    assert!(matches!(
        Index::parse(b"<a>").unwrap_err().kind(),
        ErrorKind::WellFormedness(_)
    ));
}

#[test]
fn limits_are_the_readers() {
    let mut config = Config::default();
    config.limits.max_depth = 3;
    assert!(Index::parse_with(b"<a><b><c/></b></a>", &config).is_ok());
    let err = Index::parse_with(b"<a><b><c><d/></c></b></a>", &config).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::LimitExceeded(LimitKind::Depth, 3)
    ));
}

#[test]
fn a_failed_parse_leaves_an_empty_index() {
    let good = b"<a><b/></a>";
    let bad = b"<a><b></a>";
    let mut ix = Index::new();
    ix.parse_into(good).unwrap();
    assert!(ix.parse_into(bad).is_err());
    assert!(ix.is_empty());
    assert_eq!(ix.root_element(), None);
    ix.parse_into(good).unwrap();
    assert_eq!(ix.len(), 3);
}

#[test]
fn navigation_links() {
    let doc = b"<r><a x='1'/><b><c/>t</b><!--d--></r>";
    let ix = ix(doc);
    let r = el(&ix, &[]);
    let kids: Vec<_> = ix.children(r).collect();
    assert_eq!(kids.len(), 3);
    assert_eq!(ix.last_child(r), Some(kids[2]));
    assert_eq!(ix.prev_sibling(kids[1]), Some(kids[0]));
    assert_eq!(ix.prev_sibling(kids[2]), Some(kids[1]));
    assert_eq!(ix.prev_sibling(kids[0]), None);
    assert_eq!(ix.last_child(kids[0]), None);
    assert_eq!(
        ix.last_child(kids[1]).map(|n| ix.kind(n)),
        Some(NodeKind::Text)
    );
    let x = ix.first_attribute(kids[0]).unwrap();
    assert_eq!(ix.parent(x), Some(kids[0]));
    assert_eq!((ix.next_sibling(x), ix.prev_sibling(x)), (None, None));
    assert_eq!(ix.descendants(kids[1]).count(), 3);
    assert_eq!(ix.descendants(x).collect::<Vec<_>>(), [x]);
}

#[test]
fn namespace_nodes_order_between_element_and_attributes() {
    let doc = br#"<a xmlns:p="urn:p" x="1"><b xmlns:p="urn:p2"/></a>"#;
    let ix = ix(doc);
    let a = el(&ix, &[]);
    let b = el(&ix, &[0]);
    let mut ns = Vec::new();
    ix.namespaces(a, &mut ns);
    assert_eq!(ns.len(), 2);
    let x = ix.first_attribute(a).unwrap();
    for &n in &ns {
        assert_eq!(ix.kind(n), NodeKind::Namespace);
        assert_eq!(ix.cmp_order(a, n), Ordering::Less);
        assert_eq!(ix.cmp_order(n, x), Ordering::Less);
        assert_eq!(ix.cmp_order(n, b), Ordering::Less);
    }
    ns.clear();
    ix.namespaces(b, &mut ns);
    let p: Vec<_> = ns
        .iter()
        .filter(|&&n| ix.local_name(n) == "p")
        .map(|&n| ix.string_value(n).into_owned())
        .collect();
    assert_eq!(p, ["urn:p2"]);
    assert!(Navigator::has_name(&ix, ns[0], "xml", ""));
}

use std::cmp::Ordering;

#[test]
fn edits_splice_bytes() {
    let doc = br#"<a x="1" y='2'><b/><c>old</c>text<!--k--><?p?></a>"#;
    let ix = ix(doc);
    let a = el(&ix, &[]);
    let kids: Vec<_> = ix.children(a).collect();
    let [x, y]: [NodeRef; 2] = ix.attributes(a).collect::<Vec<_>>().try_into().unwrap();

    let mut ed = ix.edit();
    ed.delete(x).unwrap();
    ed.set_attribute_value(y, "it's").unwrap();
    ed.replace_content(kids[0], b"<new/>").unwrap();
    ed.set_text(kids[1], "a<b").unwrap();
    ed.set_text(kids[2], "T").unwrap();
    ed.delete(kids[3]).unwrap();
    ed.insert_before(kids[4], b"<i/>").unwrap();
    assert_eq!(
        String::from_utf8(ed.to_vec()).unwrap(),
        r#"<a y='it&apos;s'><b><new/></b><c>a&lt;b</c>T<i/><?p?></a>"#
    );
}

#[test]
fn conflicting_edits_are_refused() {
    let doc = b"<a><b x='1'>t</b><c/></a>";
    let ix = ix(doc);
    let b = el(&ix, &[0]);
    let c = el(&ix, &[1]);
    let x = ix.first_attribute(b).unwrap();
    let t = ix.first_child(b).unwrap();
    let mut ed = ix.edit();
    ed.delete(b).unwrap();
    assert!(matches!(ed.delete(t), Err(SpliceError::Conflict { .. })));
    assert!(matches!(
        ed.set_attribute_value(x, "2"),
        Err(SpliceError::Conflict { .. })
    ));
    assert!(ed.insert_before(t, b"x").is_err());
    assert!(ed.delete(ix.root_element().unwrap()).is_err());
    // At the edges of the deleted range: fine, in order.
    ed.insert_before(b, b"<1/>").unwrap();
    ed.insert_after(b, b"<2/>").unwrap();
    ed.insert_before(c, b"<3/>").unwrap();
    ed.delete(c).unwrap();
    assert!(ed.delete(c).is_err());
    assert!(matches!(
        ed.delete(ix.root()),
        Err(SpliceError::NotEditable(_))
    ));
    assert_eq!(ed.to_vec(), b"<a><1/><2/><3/></a>");
}

#[test]
fn replace_content_rewrites_empty_tags_and_keeps_inner_spacing() {
    let doc = b"<a><e  k='>'  /><f >x</f ></a>";
    let ix = ix(doc);
    let mut ed = ix.edit();
    ed.replace_content(el(&ix, &[0]), b"in").unwrap();
    ed.replace_content(el(&ix, &[1]), b"").unwrap();
    assert_eq!(ed.to_vec(), b"<a><e  k='>'  >in</e><f ></f ></a>");
}

#[test]
fn element_spans_cover_the_element() {
    let doc = b"<r><a>x<![CDATA[]]></a><b><c/><![CDATA[]]></b><d k='v'/></r>";
    let ix = ix(doc);
    for (path, want) in [
        (&[0][..], &b"<a>x<![CDATA[]]></a>"[..]),
        (&[1], b"<b><c/><![CDATA[]]></b>"),
        (&[2], b"<d k='v'/>"),
    ] {
        assert_eq!(&doc[ix.span(el(&ix, path))], want);
    }
    assert_eq!(ix.span(ix.root_element().unwrap()), 0..doc.len());
}

#[test]
fn save_load_round_trip_and_corruption() {
    let doc = br#"<!DOCTYPE a [<!ATTLIST a d CDATA "v">]><a xmlns:p="urn:p" p:x="&lt;"><b>t&amp;</b></a>"#;
    let ix = ix(doc);
    let mut saved = Vec::new();
    ix.save(&mut saved).unwrap();
    let back = Index::load(doc, &saved).unwrap();
    assert_eq!(back.off, ix.off);
    assert_eq!(back.len, ix.len);
    assert_eq!(back.info, ix.info);
    assert_eq!(back.parent, ix.parent);
    assert_eq!(back.next, ix.next);
    assert_eq!(back.aux, ix.aux);
    assert_eq!(back.decls, ix.decls);
    assert_eq!(back.extras, ix.extras);
    assert_eq!(back.string_value(back.root()), "t&");

    assert_eq!(Index::load(b"<a/>", &saved).unwrap_err(), LoadError::Stale);
    assert_eq!(
        Index::load(doc, b"nonsense").unwrap_err(),
        LoadError::NotAnIndex
    );
    let mut v = saved.clone();
    v[8] = 9;
    assert!(Index::load(doc, &v).is_err());
    // Every truncation and every single-byte change is refused (the checksum), and
    // a file whose checksum is made to match is still checked field by field.
    for cut in 0..saved.len() {
        assert!(Index::load(doc, &saved[..cut]).is_err());
    }
    for i in 0..saved.len() - 8 {
        let mut v = saved.clone();
        v[i] ^= 0x5A;
        assert!(Index::load(doc, &v).is_err(), "byte {i}");
        let n = v.len() - 8;
        let sum = save::hash_for_tests(&v[..n]);
        v[n..].copy_from_slice(&sum.to_le_bytes());
        if let Ok(l) = Index::load(doc, &v) {
            // Forged but consistent: using it must not panic.
            exercise(&l);
        }
    }
}

/// Touches every accessor of every node.
fn exercise(ix: &Index<'_>) {
    let mut ns = Vec::new();
    for i in 0..ix.len() {
        let n = ix.node(i).unwrap();
        let _ = (
            ix.kind(n),
            ix.name(n),
            ix.local_name(n),
            ix.prefix(n),
            ix.namespace_uri(n),
        );
        let _ = (
            ix.text(n),
            ix.value(n),
            ix.string_value(n),
            ix.span(n),
            ix.offset(n),
        );
        let _ = (ix.parent(n), ix.first_child(n), ix.last_child(n));
        let _ = (ix.next_sibling(n), ix.prev_sibling(n), ix.depth(n));
        let _ = ix.descendants(n).count() + ix.children(n).count() + ix.attributes(n).count();
        ns.clear();
        ix.namespaces(n, &mut ns);
        for &x in &ns {
            let _ = (ix.name(x), ix.string_value(x), ix.cmp_order(n, x));
        }
        let mut ed = ix.edit();
        let _ = ed.delete(n);
        let _ = ed.replace_content(n, b"x");
        let _ = ed.set_attribute_value(n, "v");
        let _ = ed.insert_after(n, b"y");
        let _ = ed.to_vec();
    }
}

#[test]
fn heap_bytes_counts_the_arrays() {
    let ix = ix(b"<a><b/><b/></a>");
    assert!(ix.heap_bytes() >= 4 * 24);
}

#[test]
fn index_and_tree_are_send_and_sync() {
    // Built once, queried from many threads: both models must be shareable.
    fn shareable<T: Send + Sync>() {}
    shareable::<Index<'static>>();
    shareable::<crate::tree::Document>();
    shareable::<crate::ReaderBuffers>();
}
