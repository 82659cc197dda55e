use super::*;

const DOC: &[u8] = br#"<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY e "entity text"><!ATTLIST p:r d CDATA "dflt">]>
<!-- before -->
<p:r xmlns:p="urn:p" xmlns="urn:d" a="1 &amp; 2" p:b="x">
  <c>one <![CDATA[<two>]]> &e; three</c>
  <?pi data?>
  <e/>
</p:r>"#;

#[test]
fn structure_names_and_namespaces() {
    let d = Document::parse(DOC).unwrap();
    let r = d.root_element().unwrap();
    assert_eq!(d.parent(r), Some(d.root()));
    assert_eq!(
        (d.local_name(r), d.namespace_uri(r), d.prefix(r)),
        ("r", "urn:p", "p")
    );
    let decls: Vec<_> = d.namespace_declarations(r).collect();
    assert_eq!(decls, [("p", "urn:p"), ("", "urn:d")]);
    let attrs: Vec<_> = d
        .attributes(r)
        .map(|a| (a.local_name, a.namespace_uri, a.value))
        .collect();
    // The DTD's default attribute is there too; xmlns declarations are not attributes.
    assert_eq!(
        attrs,
        [("a", "", "1 & 2"), ("b", "urn:p", "x"), ("d", "", "dflt")]
    );
    let kinds: Vec<_> = d.children(r).map(|n| d.kind(n)).collect();
    use NodeKind::{Element as E, Pi as P, Text as T};
    assert_eq!(kinds, [T, E, T, P, T, E, T]);
    let c = d.children(r).nth(1).unwrap();
    assert_eq!((d.local_name(c), d.namespace_uri(c)), ("c", "urn:d"));
    // Text, CDATA and entity text are one text node.
    assert_eq!(d.children(c).count(), 1);
    assert_eq!(d.text_content(c), "one <two> entity text three");
    let pi = d.children(r).nth(3).unwrap();
    assert_eq!((d.local_name(pi), d.text(pi)), ("pi", "data"));
    // The comment before the root is a child of the document node.
    assert_eq!(d.kind(d.first_child(d.root()).unwrap()), NodeKind::Comment);
}

#[test]
fn siblings_link_both_ways_and_descendants_are_in_document_order() {
    let d = Document::parse(b"<a><b><c/></b><d/>t<e/></a>").unwrap();
    let names: Vec<_> = d
        .descendants(d.root())
        .filter(|&n| d.kind(n) == NodeKind::Element)
        .map(|n| d.local_name(n))
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e"]);
    let a = d.root_element().unwrap();
    let last = d.last_child(a).unwrap();
    let back: Vec<_> = std::iter::successors(Some(last), |&n| d.prev_sibling(n))
        .map(|n| d.kind(n))
        .collect();
    assert_eq!(
        back,
        [
            NodeKind::Element,
            NodeKind::Text,
            NodeKind::Element,
            NodeKind::Element
        ]
    );
    // Descendants of an inner node stop at its end.
    let b = d.first_child(a).unwrap();
    assert_eq!(d.descendants(b).count(), 2);
}

#[test]
fn offsets_point_at_the_source() {
    let src = b"<a>\n  <b x='1'/>\n</a>";
    let d = Document::parse(src).unwrap();
    let b = d
        .descendants(d.root())
        .find(|&n| d.local_name(n) == "b")
        .unwrap();
    assert_eq!(&src[d.offset(b).unwrap() as usize..][..2], b"<b");
}

#[test]
fn writing_back_gives_the_same_infoset() {
    let d = Document::parse(DOC).unwrap();
    let out = d.to_xml().unwrap();
    let again = Document::parse(out.as_bytes()).unwrap();
    assert_eq!(again.to_xml().unwrap(), out);
    assert!(
        out.contains(r#"<p:r xmlns:p="urn:p" xmlns="urn:d" a="1 &amp; 2" p:b="x" d="dflt">"#),
        "{out}"
    );
    assert!(
        out.contains("<c>one &lt;two&gt; entity text three</c>"),
        "{out}"
    );
}

#[test]
fn deep_documents_build_and_write_without_recursion() {
    let n = 3000;
    let doc = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
    let d = Document::parse(doc.as_bytes()).unwrap();
    assert_eq!(d.len(), n + 1);
    assert_eq!(
        d.to_xml().unwrap(),
        format!("{}{}", "<a>".repeat(n - 1) + "<a/>", "</a>".repeat(n - 1))
    );
}

#[test]
fn navigator_namespaces_attributes_and_order() {
    use crate::xpath::Navigator;
    let d = Document::parse(
        br#"<a xmlns="urn:d" xmlns:p="urn:p" x="1"><p:b xmlns="" p:y="2">t</p:b></a>"#,
    )
    .unwrap();
    let a = Handle::Node(d.root_element().unwrap());
    let mut ns = Vec::new();
    Navigator::namespaces(&d, a, &mut ns);
    let names: Vec<_> = ns
        .iter()
        .map(|&n| {
            (
                Navigator::local_name(&d, n),
                Navigator::string_value(&d, n).into_owned(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("", "urn:d".to_string()),
            ("p", "urn:p".into()),
            ("xml", crate::xpath::XML_NAMESPACE.into())
        ]
    );
    let a_ns = ns[0];
    let b = Navigator::first_child(&d, a).unwrap();
    ns.clear();
    Navigator::namespaces(&d, b, &mut ns);
    assert_eq!(ns.len(), 2, "xmlns=\"\" leaves no default namespace node");
    let y = Navigator::first_attribute(&d, b).unwrap();
    assert_eq!(
        (Navigator::namespace_uri(&d, y), Navigator::prefix(&d, y)),
        ("urn:p", "p")
    );
    assert_eq!(Navigator::next_attribute(&d, y), None);
    let x = Navigator::first_attribute(&d, a).unwrap();
    // a < its namespaces < its attributes < b < b's attributes < text
    let t = Navigator::first_child(&d, b).unwrap();
    let order = [a, a_ns, x, b, ns[0], y, t];
    for w in order.windows(2) {
        assert_eq!(
            Navigator::cmp_order(&d, w[0], w[1]),
            std::cmp::Ordering::Less,
            "{w:?}"
        );
    }
    assert_eq!(Navigator::string_value(&d, a), "t");
    assert_eq!(Navigator::parent(&d, y), Some(b));
    assert_eq!(Navigator::first_child(&d, y), None);
}
