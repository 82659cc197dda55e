use super::*;
use std::io;

fn write(f: impl FnOnce(&mut Writer<Vec<u8>>) -> Result<()>) -> Result<String> {
    let mut w = Writer::new(Vec::new());
    f(&mut w)?;
    Ok(String::from_utf8(w.finish()?).unwrap())
}

fn pretty(f: impl FnOnce(&mut Writer<Vec<u8>>) -> Result<()>) -> String {
    let mut w = Writer::with_config(Vec::new(), WriterConfig::pretty("  "));
    f(&mut w).unwrap();
    String::from_utf8(w.finish().unwrap()).unwrap()
}

#[test]
fn elements_attributes_and_escaping() {
    let out = write(|w| {
        w.xml_declaration("1.0", Some("UTF-8"), None)?;
        w.start_element("a")?;
        w.attribute("x", "1 \"2\" <3> &\t\n\r")?;
        w.text("t < & > \r")?;
        w.start_element("b")?;
        w.end_element()?;
        w.cdata("x]]>y")?;
        w.comment(" c ")?;
        w.processing_instruction("pi", "data")?;
        w.processing_instruction("empty", "")?;
        w.end_element()
    })
    .unwrap();
    assert_eq!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a x=\"1 &quot;2&quot; &lt;3> &amp;&#9;&#10;&#13;\">t &lt; &amp; &gt; &#13;<b/><![CDATA[x]]]]><![CDATA[>y]]><!-- c --><?pi data?><?empty?></a>"
    );
}

#[test]
fn not_self_closing_when_configured() {
    let mut w = Writer::with_config(
        Vec::new(),
        WriterConfig {
            self_close_empty: false,
            ..WriterConfig::default()
        },
    );
    w.start_element("a").unwrap();
    w.end_element().unwrap();
    assert_eq!(w.finish().unwrap(), b"<a></a>");
}

/// One way of driving the writer.
type Step = dyn Fn(&mut Writer<Vec<u8>>) -> Result<()>;

#[test]
fn malformed_output_is_refused() {
    let cases: Vec<(&str, Box<Step>)> = vec![
        ("bad name", Box::new(|w| w.start_element("1a"))),
        ("bad qname", Box::new(|w| w.start_element("a:b:c"))),
        ("end without start", Box::new(|w| w.end_element())),
        (
            "second root",
            Box::new(|w| {
                w.start_element("a")?;
                w.end_element()?;
                w.start_element("b")
            }),
        ),
        ("text outside", Box::new(|w| w.text("x"))),
        (
            "attribute after content",
            Box::new(|w| {
                w.start_element("a")?;
                w.text("x")?;
                w.attribute("y", "1")
            }),
        ),
        (
            "duplicate attribute",
            Box::new(|w| {
                w.start_element("a")?;
                w.attribute("y", "1")?;
                w.attribute("y", "2")?;
                w.end_element()
            }),
        ),
        (
            "duplicate expanded name",
            Box::new(|w| {
                w.start_element("a")?;
                w.namespace(Some("p"), "urn:x")?;
                w.namespace(Some("q"), "urn:x")?;
                w.attribute("p:y", "1")?;
                w.attribute("q:y", "2")?;
                w.end_element()
            }),
        ),
        (
            "undeclared prefix",
            Box::new(|w| {
                w.start_element("p:a")?;
                w.end_element()
            }),
        ),
        ("comment --", Box::new(|w| w.comment("a--b"))),
        ("comment ending -", Box::new(|w| w.comment("a-"))),
        ("pi xml", Box::new(|w| w.processing_instruction("XmL", ""))),
        ("pi ?>", Box::new(|w| w.processing_instruction("p", "a?>"))),
        (
            "bad char",
            Box::new(|w| {
                w.start_element("a")?;
                w.text("\u{1}")
            }),
        ),
        (
            "bad char in attribute",
            Box::new(|w| {
                w.start_element("a")?;
                w.attribute("b", "\u{FFFF}")?;
                w.end_element()
            }),
        ),
        (
            "rebind xml",
            Box::new(|w| {
                w.start_element("a")?;
                w.namespace(Some("xml"), "urn:x")
            }),
        ),
        (
            "declare xmlns",
            Box::new(|w| {
                w.start_element("a")?;
                w.namespace(Some("xmlns"), "urn:x")
            }),
        ),
        (
            "prefix to empty",
            Box::new(|w| {
                w.start_element("a")?;
                w.namespace(Some("p"), "")
            }),
        ),
        (
            "late declaration",
            Box::new(|w| {
                w.start_element("a")?;
                w.xml_declaration("1.0", None, None)
            }),
        ),
    ];
    for (what, f) in cases {
        assert!(write(|w| f(w)).is_err(), "{what} was accepted");
    }
    assert!(matches!(
        Writer::new(Vec::new()).finish(),
        Err(WriteError::NoRootElement)
    ));
    let mut w = Writer::new(Vec::new());
    w.start_element("a").unwrap();
    w.start_element("b").unwrap();
    w.text("x").unwrap();
    match w.finish() {
        Err(WriteError::Unclosed(names)) => assert_eq!(names, ["a", "b"]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn namespace_repairing() {
    let out = write(|w| {
        w.start_element_ns("urn:a", "root", None)?;
        w.attribute_ns("urn:b", "x", None, "1")?;
        w.attribute_ns("urn:b", "y", Some("bb"), "2")?;
        w.start_element_ns("urn:a", "child", None)?;
        w.start_element_ns("", "plain", None)?;
        w.start_element_ns("urn:c", "deep", Some("c"))?;
        w.end_element()?;
        w.end_element()?;
        w.end_element()?;
        w.end_element()
    })
    .unwrap();
    assert_eq!(
        out,
        r#"<root xmlns="urn:a" xmlns:ns1="urn:b" ns1:x="1" ns1:y="2"><child><plain xmlns=""><c:deep xmlns:c="urn:c"/></plain></child></root>"#
    );
}

#[test]
fn repairing_an_attribute_never_rebinds_a_prefix_its_tag_uses() {
    // q is bound to urn:q above; the attribute wants q for urn:p. Declaring q="urn:p" on this
    // tag would move the element into urn:p, so the attribute gets another prefix.
    let out = write(|w| {
        w.start_element_ns("urn:q", "a", Some("q"))?;
        w.start_element_ns("urn:q", "b", Some("q"))?;
        w.attribute_ns("urn:p", "z", Some("q"), "v")?;
        w.end_element()?;
        // Nor the prefix of an attribute before it on the same tag.
        w.start_element_ns("", "c", None)?;
        w.attribute_ns("urn:q", "w", Some("q"), "1")?;
        w.attribute_ns("urn:p", "z", Some("q"), "2")?;
        w.end_element()?;
        w.end_element()
    })
    .unwrap();
    assert_eq!(
        out,
        r#"<q:a xmlns:q="urn:q"><q:b xmlns:ns1="urn:p" ns1:z="v"/><c xmlns:ns2="urn:p" q:w="1" ns2:z="2"/></q:a>"#
    );
}

#[test]
fn explicit_declarations_are_used_and_not_repeated() {
    let out = write(|w| {
        w.start_element("p:a")?;
        w.namespace(Some("p"), "urn:p")?;
        w.start_element_ns("urn:p", "b", Some("p"))?;
        w.namespace(Some("p"), "urn:p")?;
        w.attribute_ns("urn:p", "at", None, "v")?;
        w.end_element()?;
        w.end_element()
    })
    .unwrap();
    assert_eq!(out, r#"<p:a xmlns:p="urn:p"><p:b p:at="v"/></p:a>"#);
}

#[test]
fn without_repairing_an_unbound_uri_is_an_error() {
    let mut w = Writer::with_config(
        Vec::new(),
        WriterConfig {
            repair_namespaces: false,
            ..WriterConfig::default()
        },
    );
    w.start_element_ns("urn:x", "a", None).unwrap();
    assert!(matches!(
        w.end_element(),
        Err(WriteError::UndeclaredPrefix(_))
    ));
}

#[test]
fn pretty_printing_indents_element_content_only() {
    let out = pretty(|w| {
        w.comment("top")?;
        w.start_element("a")?;
        w.text("\n   ")?;
        w.start_element("b")?;
        w.text("mixed ")?;
        w.start_element("i")?;
        w.text("x")?;
        w.end_element()?;
        w.end_element()?;
        w.start_element("c")?;
        w.attribute("xml:space", "preserve")?;
        w.start_element("d")?;
        w.end_element()?;
        w.end_element()?;
        w.start_element("e")?;
        w.end_element()?;
        w.end_element()
    });
    assert_eq!(
        out,
        "<!--top-->\n<a>\n  <b>mixed <i>x</i></b>\n  <c xml:space=\"preserve\"><d/></c>\n  <e/>\n</a>\n"
    );
}

#[test]
fn copies_a_document_read_by_the_reader() {
    let src = br#"<?xml version="1.0"?>
<!DOCTYPE r [<!ATTLIST r d CDATA "dflt"><!ENTITY e "ent">]>
<r xmlns="urn:d" xmlns:p="urn:p" p:a="1&amp;2"><!--c--><?pi x?>t&e;<![CDATA[<c>]]><p:x/></r>"#;
    let mut reader = crate::Reader::from_slice(src);
    let mut w = Writer::new(Vec::new());
    loop {
        let e = reader.next().unwrap();
        if matches!(e, Event::Eof) {
            break;
        }
        w.write_event(&e).unwrap();
    }
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    assert_eq!(
        out,
        "<!DOCTYPE r [<!ATTLIST r d CDATA \"dflt\"><!ENTITY e \"ent\">]><r xmlns=\"urn:d\" xmlns:p=\"urn:p\" p:a=\"1&amp;2\"><!--c--><?pi x?>tent<![CDATA[<c>]]><p:x/></r>"
    );
}

#[test]
fn large_output_is_flushed_in_chunks() {
    struct Counting(Vec<usize>);
    impl Write for Counting {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.push(b.len());
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut w = Writer::new(Counting(Vec::new()));
    w.start_element("a").unwrap();
    for _ in 0..10_000 {
        w.start_element("item").unwrap();
        w.text("some text to fill the buffer").unwrap();
        w.end_element().unwrap();
    }
    w.end_element().unwrap();
    let sink = w.finish().unwrap();
    assert!(sink.0.len() > 3, "{:?}", sink.0);
    assert!(sink.0.iter().all(|&n| n < 2 * FLUSH_AT));
}
