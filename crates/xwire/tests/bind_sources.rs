//! The fast scanner of generated parsers (`xwire::bind::Scanner`) against the general cursor
//! (`xwire::bind::Cursor`, the reader's tokens): whenever the scanner reads a document, the
//! cursor reads it too and sees the same thing. A walker stands in for generated code: `t`
//! elements hold text, `e` elements are empty, `m` elements hold text and elements (mixed
//! content, as wildcard and `xs:anyType` content is read), the others hold elements.

use proptest::prelude::*;
use xwire::bind::{Content, Cursor, Expected, Fallback, Scanner, Source};

const NAMES: [(&str, &str); 10] = [
    ("", "a"),
    ("", "b"),
    ("", "t"),
    ("", "e"),
    ("urn:x", "a"),
    ("urn:x", "t"),
    ("urn:y", "b"),
    ("urn:y", "e"),
    ("", "m"),
    ("urn:x", "m"),
];

const HINTS: [Expected; 7] = [
    Expected::new("", "t"),
    Expected::new("", "e"),
    Expected::new("urn:x", "a"),
    Expected::new("", "m"),
    Expected::new("", "é"),
    Expected::new("", "a b"),
    Expected::new("", ""),
];

fn element<S: Source>(s: &mut S, out: &mut String) -> Result<(), S::Error> {
    let Some(&(ns, local)) = NAMES.iter().find(|(ns, l)| s.at(ns, l)) else {
        return Err(s.unexpected("a known name"));
    };
    // The name a wildcard would keep is the one the walker matched.
    if s.name() != (ns, local) {
        return Err(s.unexpected("the name at() matched"));
    }
    out.push_str(&format!("<{{{ns}}}{local}"));
    s.attributes(|ns, l, v| {
        out.push_str(&format!(" {{{ns}}}{l}={v:?}"));
        Ok(())
    })?;
    if let Some((ns, l)) = s.xsi_type()? {
        out.push_str(&format!(" xsi:type={{{ns}}}{l}"));
    }
    out.push('>');
    match local {
        "t" => out.push_str(&format!("{:?}", s.text()?)),
        "e" => s.empty()?,
        "m" => loop {
            match s.content()? {
                Content::Text(t) => out.push_str(&format!("{t:?}")),
                Content::Start => element(s, out)?,
                Content::End => break,
            }
        },
        // Children through `child_expecting`, told names that come, that come prefixed,
        // that do not come, and that the scanner does not compare: it must move as `child`.
        _ => {
            let mut i = out.len();
            while s.child_expecting(&HINTS[i % HINTS.len()])? {
                element(s, out)?;
                i += 1;
            }
        }
    }
    out.push_str("</>");
    Ok(())
}

fn walk<S: Source>(s: &mut S) -> Result<String, S::Error> {
    let mut out = String::new();
    s.root()?;
    element(s, &mut out)?;
    s.finish()?;
    Ok(out)
}

/// What the scanner gives (`None`: it fell back) and what the cursor gives.
fn both(doc: &[u8]) -> (Option<String>, Result<String, xwire::bind::Error>) {
    let fast: Result<String, Fallback> = walk(&mut Scanner::new(doc));
    (fast.ok(), walk(&mut Cursor::new(doc)))
}

/// The scanner reads `doc` and sees what the cursor sees.
#[track_caller]
fn fast(doc: &str) {
    let (fast, general) = both(doc.as_bytes());
    let general = general.unwrap_or_else(|e| panic!("the cursor rejects {doc:?}: {e}"));
    assert_eq!(fast.as_deref(), Some(general.as_str()), "{doc:?}");
}

/// The scanner leaves `doc` to the cursor, which reads it or not (`ok`).
#[track_caller]
fn falls_back(doc: &str, ok: bool) {
    let (fast, general) = both(doc.as_bytes());
    assert_eq!(fast, None, "the scanner reads {doc:?}");
    assert_eq!(general.is_ok(), ok, "{doc:?}: {general:?}");
}

#[test]
fn ordinary_documents_are_the_scanners() {
    fast("<a/>");
    fast("<a><t>hi</t><e/><e></e></a>");
    fast("<?xml version=\"1.0\"?>\n<a>\n  <t> x </t>\n</a>\n");
    fast("<?xml version='1.0' encoding='utf-8' standalone='yes' ?><a/>");
    fast("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>");
    fast("<a k='v' l=\"w'\"><t m = 'x\"y'>é ü &lt;&amp;&gt;&#65;&#x42;&quot;&apos;</t></a>");
    fast("<t>a\r\nb\rc]d]]e</t>");
    fast("<a k=' x\ty\r\nz &#9;'/>");
    fast("<a xmlns='urn:x'><t>1</t><b xmlns='urn:y'><e/></b><t xmlns=''/></a>");
    fast("<p:a xmlns:p='urn:x' xmlns:q='urn:y' p:k='1' q:k='2' k='3'><q:b><q:e/></q:b></p:a>");
    fast("<a xml:lang='en'><t xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:type='p:T' xmlns:p='urn:x'/></a>");
    fast("<a xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><t xsi:type='T'>x</t></a>");
    // Mixed content: text runs with references and line ends, children, nothing.
    fast("<m>a &amp; b<e/>\r\n c<m xmlns='urn:x'>d<m/></m></m>");
    fast("<m/>");
    fast("<m></m>");
    fast("<m>  </m>");
}

/// The scanner reads a start tag that repeats an earlier one's bytes from its memo (from
/// the third time on): what it finds must be what reading the tag gives, under the
/// bindings in scope where it stands.
#[test]
fn a_repeated_start_tag_is_read_as_the_first() {
    let xsi = "xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'";
    let four = |tag: &str| tag.repeat(4);
    // The same tag four times, then under another binding of its prefix, then again.
    let item = "<t xsi:type='p:T' p:k='1' k='2'>v</t>";
    fast(&format!(
        "<a {xsi} xmlns:p='urn:x'>{}<b xmlns:p='urn:y'>{}</b>{}</a>",
        four(item),
        four(item),
        four(item)
    ));
    // Self-closing and not, in one slot; values that normalising changes are not kept.
    fast(&format!(
        "<a>{}{}{}</a>",
        four("<e k='1'/>"),
        four("<e k='1'></e>"),
        four("<e k='&amp; \t'/>")
    ));
    // Tags with declarations are not kept; the declared prefix holds inside each.
    fast(&format!(
        "<a>{}</a>",
        four("<p:t xmlns:p='urn:x' p:k='1'>x</p:t>")
    ));
    // Other tags between the repeats, in other slots and in the same one.
    fast(&format!(
        "<a>{}</a>",
        four("<t k='1'>x</t><m k='1'><e k='1'/></m><t k='2'>y</t>")
    ));
    // What the reader rejects is rejected every time, kept or not.
    falls_back(&format!("<a>{}</a>", four("<e k='1' k='1'/>")), false);
    falls_back(
        &format!(
            "<a xmlns:p='urn:x' xmlns:q='urn:x'>{}</a>",
            four("<e p:k='1' q:k='1'/>")
        ),
        false,
    );
    falls_back(&format!("<a>{}<e p:k='1'/></a>", four("<e k='1'/>")), false);
}

#[test]
fn an_expected_name_is_taken_only_whole() {
    const T: Expected = Expected::new("", "t");
    for (doc, local) in [
        ("<a><t>x</t></a>", "t"),
        ("<a><t\n/></a>", "t"),
        ("<a><tt>x</tt></a>", "tt"),
        ("<a><t-1/></a>", "t-1"),
        ("<a><t.x/></a>", "t.x"),
        ("<a><t:x xmlns:t='urn:t'/></a>", "x"),
        ("<a><b/></a>", "b"),
    ] {
        let mut s = Scanner::new(doc.as_bytes());
        s.root().unwrap();
        assert_eq!(s.child_expecting(&T), Ok(true), "{doc}");
        assert_eq!(s.name().1, local, "{doc}");
    }
    // A name the scanner does not compare (not an ASCII NCName) is scanned as usual.
    let mut s = Scanner::new("<a><é/></a>".as_bytes());
    s.root().unwrap();
    assert_eq!(s.child_expecting(&Expected::new("", "é")), Err(Fallback));
}

/// An expected name in the namespace of the last element prefix is compared in place as
/// `prefix:local`; a declaration on the tag itself, or one gone out of scope, is still
/// seen, as the scanned name would see it.
#[test]
fn an_expected_prefixed_name_follows_the_bindings() {
    const B: Expected = Expected::new("urn:x", "b");
    // (document, name after the first and the second `child_expecting`)
    let cases = [
        (
            "<p:a xmlns:p='urn:x'><p:b/><p:b/></p:a>",
            ["urn:x", "urn:x"],
        ),
        // The tag rebinds its own prefix.
        (
            "<p:a xmlns:p='urn:x'><p:b xmlns:p='urn:y'/><p:b/></p:a>",
            ["urn:y", "urn:x"],
        ),
        // Another prefix for the same namespace, then the first again.
        (
            "<p:a xmlns:p='urn:x' xmlns:q='urn:x'><q:b/><p:b/></p:a>",
            ["urn:x", "urn:x"],
        ),
        // The prefix bound again inside, then out of scope: its outer binding holds.
        (
            "<p:a xmlns:p='urn:x'><p:b><p:b xmlns:p='urn:y'/></p:b><p:b/></p:a>",
            ["urn:x", "urn:x"],
        ),
    ];
    for (doc, ns) in cases {
        let mut s = Scanner::new(doc.as_bytes());
        s.root().unwrap();
        assert_eq!(s.child_expecting(&B), Ok(true), "{doc}");
        assert_eq!(s.name(), (ns[0], "b"), "{doc}");
        // Through the first child's content, if any, to the second child.
        while s.child_expecting(&B) == Ok(true) {
            assert_eq!(s.name(), ("urn:y", "b"), "{doc}");
            assert_eq!(s.child_expecting(&B), Ok(false), "{doc}");
        }
        assert_eq!(s.child_expecting(&B), Ok(true), "{doc}");
        assert_eq!(s.name(), (ns[1], "b"), "{doc}");
        assert_eq!(s.child_expecting(&B), Ok(false), "{doc}");
        assert_eq!(s.child_expecting(&B), Ok(false), "{doc}");
        s.finish().unwrap();
    }
    // A prefix whose declaration went out of scope with a sibling is unbound: left to the
    // cursor, which rejects it.
    falls_back("<a xmlns:q='urn:x'><p:a xmlns:p='urn:x'/><p:a/></a>", false);
    // A longer name or another local name after the prefix is scanned as usual.
    for doc in [
        "<p:a xmlns:p='urn:x'><p:bb/></p:a>",
        "<p:a xmlns:p='urn:x'><p:a/></p:a>",
    ] {
        let mut s = Scanner::new(doc.as_bytes());
        s.root().unwrap();
        assert_eq!(s.child_expecting(&B), Ok(true), "{doc}");
        assert_ne!(s.name(), ("urn:x", "b"), "{doc}");
    }
}

#[test]
fn unusual_documents_go_to_the_cursor() {
    falls_back("<a><!-- c --><t/></a>", true);
    // The cursor gives text around a comment as one run, as the scanner would.
    falls_back("<m>x<!-- c -->y<e/></m>", true);
    assert_eq!(
        both(b"<m>x<!-- c -->y<![CDATA[z]]></m>").1.unwrap(),
        "<{}m>\"xyz\"</>"
    );
    falls_back("<a><?pi x?><t/></a>", true);
    falls_back("<a><t><![CDATA[x]]></t></a>", true);
    falls_back("<!DOCTYPE a [<!ENTITY x 'y'>]><a><t>&x;</t></a>", true);
    falls_back("<?xml version=\"1.1\"?><a/>", true);
    falls_back("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", true);
    falls_back("<a/><!-- after -->", true);
    falls_back("<é/>", false);
    falls_back(
        "<a xmlns:p='urn:x' xmlns:xml='http://www.w3.org/XML/1998/namespace'/>",
        true,
    );
    falls_back("<a xmlns='&#117;rn:x'/>", true);
}

#[test]
fn wrong_documents_go_to_the_cursor_which_rejects_them() {
    for doc in [
        "",
        "<a>",
        "<a></b>",
        "<a></a",
        "<a/><a/>",
        "<a/>x",
        "<a k='1' k='2'/>",
        "<a xmlns:p='urn:x' xmlns:q='urn:x' p:k='1' q:k='2'/>",
        "<a xmlns:p='urn:x' xmlns:p='urn:y'/>",
        "<p:a/>",
        "<a p:k='1'/>",
        "<a k='1'l='2'/>",
        "<a k=1/>",
        "<a k='<'/>",
        "<a k='&nope;'/>",
        "<t>&nope;</t>",
        "<t>&#0;</t>",
        "<t>a]]>b</t>",
        "<t>\u{1}</t>",
        "<t>\u{FFFE}</t>",
        "<a xmlns:p=''/>",
        "<a xmlns:xmlns='urn:x'/>",
        "<a xmlns='http://www.w3.org/2000/xmlns/'/>",
        "<a:b:c/>",
        "<:a/>",
        "<a: />",
        "<1a/>",
        "<?xml version=\"1.0\"encoding=\"UTF-8\"?><a/>",
        "<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
        "<a>text<t/></a>",
        "<e> </e>",
        "<t><a/></t>",
    ] {
        falls_back(doc, false);
    }
    // Bytes that are not UTF-8, in text, in a value.
    for doc in [
        &b"<t>\xFF</t>"[..],
        b"<a k='\xC3'/>",
        b"<t>\xED\xA0\x80</t>",
    ] {
        let (fast, general) = both(doc);
        assert_eq!(fast, None);
        assert!(general.is_err());
    }
}

#[test]
fn the_reader_limits_hold() {
    let deep = format!("{}{}", "<a>".repeat(5000), "</a>".repeat(5000));
    falls_back(&deep, false);
}

/// Pieces inserted into valid documents: markup, references, characters the scanner treats
/// apart.
const PIECES: [&str; 30] = [
    "<",
    // Name characters, after an expected name making it another.
    "x",
    "-",
    ":",
    ">",
    "/",
    "'",
    "\"",
    "=",
    " ",
    "&amp;",
    "&#x41;",
    "&x;",
    "]]>",
    "\r\n",
    "\t",
    "é",
    "\u{1}",
    "<!--c-->",
    "<?p?>",
    "<![CDATA[z]]>",
    "xmlns:p='urn:x' ",
    "p:",
    "<t>",
    "</t>",
    "<e/>",
    " k='v'",
    "<m>x<!--c-->y</m>",
    "<m/>",
    "\r\n",
];

fn tree() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-z &<>]{0,6}"
            .prop_map(|t| format!("<t>{}</t>", t.replace('&', "&amp;").replace('<', "&lt;"))),
        Just("<e/>".to_string()),
        Just("<e></e>".to_string()),
        Just("<t xmlns='urn:x' k='1'>v</t>".to_string()),
        // Tags that repeat, for the scanner's memo: one with a prefix bound outside it.
        Just("<e k='1' l='2'/>".to_string()),
        Just("<e p:k='1'/>".to_string()),
        "[a-z &<>]{0,6}".prop_map(|t| format!(
            "<m>{}<e/>{}</m>",
            t.replace('&', "&amp;").replace('<', "&lt;"),
            t.replace('&', "&#38;").replace('>', "&gt;")
        )),
    ];
    leaf.prop_recursive(4, 24, 6, |inner| {
        (prop::collection::vec(inner, 0..6), 0..4u8).prop_map(|(kids, form)| {
            // `p:a` declaring its prefix, `p:a` using an outer one (unbound at the top: the
            // cursor rejects it), `b` binding `p` elsewhere, `b`.
            let (open, close) = match form {
                0 => ("<p:a xmlns:p='urn:x' p:k='1'>", "</p:a>"),
                1 => ("<p:a>", "</p:a>"),
                2 => ("<b xmlns:p='urn:y'>", "</b>"),
                _ => ("<b>", "</b>"),
            };
            format!("{open}\n  {}\n{close}", kids.concat())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Valid documents, then some with pieces inserted at random places: whenever the
    /// scanner reads one, the cursor reads it and sees the same.
    #[test]
    fn the_scanner_never_disagrees(
        doc in tree(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0..PIECES.len()), 0..3),
    ) {
        let mut doc = format!("<a>{doc}</a>").into_bytes();
        for (at, piece) in edits {
            let at = at.index(doc.len() + 1);
            doc.splice(at..at, PIECES[piece].bytes());
        }
        let (fast, general) = both(&doc);
        if let Some(fast) = fast {
            let general = general.map_err(|e| e.to_string());
            prop_assert_eq!(Ok(fast), general, "{:?}", String::from_utf8_lossy(&doc));
        }
    }
}
