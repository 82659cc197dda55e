//! The two document models against each other on random documents (nested elements with
//! attributes, prefixed and default namespaces with redeclarations, text with references
//! and a declared entity, CDATA sections, comments, PIs):
//!
//! - random XPath expressions (paths over the 13 axes with name and node tests, positional
//!   and boolean predicates, a few functions, unions) give the same result on the tree and on
//!   the index;
//! - random edit sequences (delete, set text, set an attribute's value, on nodes chosen by
//!   their preorder position) applied to the tree (its mutation API, then `to_xml`) and to the
//!   index (its `Editor`, then `to_vec`) give documents with the same infoset;
//! - parse → tree → `to_xml` → parse keeps the infoset.
//!
//! Namespace nodes have an implementation-defined order among the namespace nodes of one
//! element (the tree sorts them by prefix, the index by declaration), so the expressions
//! select them only by name (`namespace::p`) or count them (`count(E/namespace::*)`), and
//! node-set results are compared as sets of node descriptions.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use proptest::prelude::*;
use xwire::index::Index;
use xwire::tree::{Document, Handle, NodeId};
use xwire::xpath::{Namespaces, Navigator, NodeKind, Value, XPath};

// ----- random documents ---------------------------------------------------------------------

#[derive(Clone, Debug)]
enum G {
    Elem {
        /// Prefix ("" for none) and local name.
        name: (&'static str, &'static str),
        decls: Vec<(&'static str, &'static str)>,
        attrs: BTreeMap<&'static str, String>,
        kids: Vec<G>,
    },
    Text(String),
    CData(String),
    Comment(String),
    Pi(&'static str, String),
    /// A reference to the entity declared in the DTD (when there is one).
    Entity,
}

fn chars() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'b', '1', ' ', '&', '<', '>', '"', '\'', '\n', '\r', '\t', ']', 'é',
        ]),
        0..6,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn attr_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["", "1", "2.5", "v", "a b", "-3"]).prop_map(str::to_string),
        chars(),
    ]
}

fn leaf() -> impl Strategy<Value = G> {
    prop_oneof![
        3 => chars().prop_map(G::Text),
        1 => chars().prop_map(|s| G::CData(s.replace("]]>", ""))),
        1 => "[a-z -]{0,5}".prop_map(|s| G::Comment(s.replace("--", "").trim_end_matches('-').to_string())),
        1 => (prop::sample::select(vec!["t", "u"]), "[a-z ]{0,4}")
            .prop_map(|(t, d)| G::Pi(t, d.trim_start().to_string())),
        1 => Just(G::Entity),
    ]
}

/// An element whose children come from `kid`.
fn element(
    kid: impl Strategy<Value = G>,
    kids: std::ops::Range<usize>,
) -> impl Strategy<Value = G> {
    (
        prop::sample::select(vec![
            ("", "a"),
            ("", "b"),
            ("", "c"),
            ("p", "a"),
            ("p", "c"),
            ("q", "b"),
        ]),
        prop::collection::vec(
            prop::sample::select(vec![
                ("", "urn:d"),
                ("", ""),
                ("r", "urn:r"),
                ("p", "urn:p2"),
            ]),
            0..2,
        ),
        prop::collection::btree_map(
            prop::sample::select(vec!["x", "y", "n", "p:x", "q:x", "q:y"]),
            attr_value(),
            0..3,
        ),
        prop::collection::vec(kid, kids),
    )
        .prop_map(|(name, mut decls, attrs, kids)| {
            decls.sort();
            decls.dedup_by_key(|d| d.0);
            G::Elem {
                name,
                decls,
                attrs,
                kids,
            }
        })
}

/// A root element with up to four levels of children (about 10-40 nodes).
fn gen() -> impl Strategy<Value = G> {
    let mut node = element(leaf(), 0..4).boxed();
    for _ in 0..2 {
        node = element(prop_oneof![1 => leaf(), 2 => node], 0..4).boxed();
    }
    element(prop_oneof![1 => leaf(), 3 => node], 2..6)
}

/// Writes character data, choosing among equivalent forms with `bits`.
fn write_chars(out: &mut String, s: &str, attr: bool, bits: &mut u64) {
    for c in s.chars() {
        *bits = bits.rotate_left(5) ^ 0x9E37_79B9_7F4A_7C15;
        let r = (*bits % 3) as usize;
        match c {
            '&' => out.push_str(["&amp;", "&#38;", "&#x26;"][r]),
            '<' => out.push_str(["&lt;", "&#60;", "&#x3c;"][r]),
            '>' => out.push_str(["&gt;", "&#62;", "&gt;"][r]),
            '"' if attr => out.push_str("&quot;"),
            '\'' if r == 0 => out.push_str("&apos;"),
            // Raw, a carriage return is a line end (and white space in attributes) to both.
            '\r' if r == 2 => out.push('\r'),
            '\r' => out.push_str("&#13;"),
            '\n' | '\t' if attr && r < 2 => out.push_str(if c == '\n' { "&#10;" } else { "&#9;" }),
            'é' if r == 1 => out.push_str("&#233;"),
            c => out.push(c),
        }
    }
}

fn write(g: &G, out: &mut String, bits: &mut u64, dtd: bool) {
    match g {
        G::Elem {
            name,
            decls,
            attrs,
            kids,
        } => {
            let qname = if name.0.is_empty() {
                name.1.to_string()
            } else {
                format!("{}:{}", name.0, name.1)
            };
            out.push('<');
            out.push_str(&qname);
            for (p, uri) in decls {
                *bits = bits.rotate_left(7) ^ 0x5851_F42D_4C95_7F2D;
                let sp = [" ", "\n  ", "  "][(*bits % 3) as usize];
                if p.is_empty() {
                    out.push_str(&format!("{sp}xmlns='{uri}'"));
                } else {
                    out.push_str(&format!("{sp}xmlns:{p}=\"{uri}\""));
                }
            }
            for (k, v) in attrs {
                out.push_str(&format!(" {k}=\""));
                write_chars(out, v, true, bits);
                out.push('"');
            }
            if kids.is_empty() && *bits % 2 == 0 {
                out.push_str("/>");
                return;
            }
            out.push('>');
            for k in kids {
                write(k, out, bits, dtd);
            }
            out.push_str(&format!("</{qname}>"));
        }
        G::Text(s) => write_chars(out, s, false, bits),
        G::CData(s) => out.push_str(&format!("<![CDATA[{s}]]>")),
        G::Comment(s) => out.push_str(&format!("<!--{s}-->")),
        G::Pi(t, d) if d.is_empty() => out.push_str(&format!("<?{t}?>")),
        G::Pi(t, d) => out.push_str(&format!("<?{t} {d}?>")),
        G::Entity if dtd => out.push_str("&e;"),
        G::Entity => out.push_str("&#x20;"),
    }
}

/// A whole document: a prolog (a DTD declaring `e` when `dtd`), the root element (declaring
/// `p` and `q`, and sometimes the default namespace) and an epilogue.
fn document(root: G, bits: u64, dtd: bool, default_ns: bool) -> String {
    let G::Elem {
        name,
        mut decls,
        attrs,
        kids,
    } = root
    else {
        unreachable!()
    };
    decls.retain(|d| d.0 != "p" && d.0 != "q" && (!default_ns || !d.0.is_empty()));
    decls.push(("p", "urn:p"));
    decls.push(("q", "urn:q"));
    if default_ns {
        decls.push(("", "urn:d"));
    }
    let root = G::Elem {
        name,
        decls,
        attrs,
        kids,
    };
    let mut out = String::from("<?xml version=\"1.0\"?>\n");
    if dtd {
        out.push_str("<!DOCTYPE a [\n  <!ENTITY e \"ent val\">\n]>\n");
    }
    out.push_str("<!--pre--><?t top?>\n");
    let mut b = bits;
    write(&root, &mut out, &mut b, dtd);
    out.push_str("\n<!--post-->");
    out
}

// ----- random expressions -------------------------------------------------------------------

/// The axes of element-like steps (the attribute and namespace axes come last in a path:
/// see `leaf_step`).
const AXES: &[&str] = &[
    "child",
    "descendant",
    "parent",
    "ancestor",
    "following-sibling",
    "preceding-sibling",
    "following",
    "preceding",
    "self",
    "descendant-or-self",
    "ancestor-or-self",
];

/// Name tests that the attribute axis can match.
const ATTRIBUTE_TESTS: &[&str] = &["*", "*", "x", "y", "n", "p:x", "q:x", "q:*", "node()"];

const TESTS: &[&str] = &[
    "*",
    "*",
    "*",
    "node()",
    "node()",
    "node()",
    "a",
    "b",
    "p:a",
    "p:c",
    "q:b",
    "d:a",
    "d:c",
    "d:b",
    "c",
    "x",
    "q:*",
    "text()",
    "comment()",
    "processing-instruction()",
    "processing-instruction('t')",
];

const PREDICATE_LEAVES: &[&str] = &[
    "1",
    "2",
    "last()",
    "position() = 2",
    "position() < last()",
    "@x",
    "@*",
    "text()",
    "not(*)",
    "count(*) > 1",
    "count(node()) = 0",
    "contains(., 'a')",
    "string(@x) = 'v'",
    "@n = 1",
    "number(@n) < 2",
    "sum(@*) > 0",
    "name() = 'p:c'",
    "local-name() = 'b'",
    "string-length(name()) = 1",
    ". = ' '",
    "namespace::r",
];

fn predicate() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(PREDICATE_LEAVES).prop_map(str::to_string);
    leaf.prop_recursive(1, 4, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) or ({b})")),
            inner.clone().prop_map(|a| format!("not({a})")),
            // A relative path with a predicate of its own.
            (
                prop::sample::select(AXES),
                prop::sample::select(TESTS),
                inner
            )
                .prop_map(|(ax, t, p)| format!("{ax}::{t}[{p}]")),
        ]
    })
}

/// A step along one of `axes` (element-like nodes).
fn node_step(axes: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (
            prop::sample::select(axes),
            prop::sample::select(TESTS),
            prop::option::weighted(0.35, predicate()),
            prop::option::weighted(0.1, predicate()),
        )
            .prop_map(|(ax, t, p1, p2)| {
                let preds: String = p1.iter().chain(&p2).map(|p| format!("[{p}]")).collect();
                format!("{ax}::{t}{preds}")
            }),
        1 => prop::sample::select(vec![".", "..", "*", "text()", "node()"]).prop_map(str::to_string),
    ]
}

/// A last step to attributes or (named) namespace nodes, possibly followed by `..`.
fn leaf_step() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (prop::sample::select(ATTRIBUTE_TESTS), prop::option::weighted(0.3, predicate()))
            .prop_map(|(t, pred)| match pred {
                Some(pred) => format!("attribute::{t}[{pred}]"),
                None => format!("attribute::{t}"),
            }),
        1 => prop::sample::select(vec!["@x", "@*", "@p:x", "@*/..", "@n/parent::*/@*"])
            .prop_map(str::to_string),
        // Named namespace nodes: at most one per element.
        1 => (
            prop::sample::select(vec!["p", "q", "r", "xml"]),
            prop::option::weighted(0.3, predicate()),
            prop::sample::select(vec!["", "", "/..", "/ancestor::*[1]", "/self::node()"]),
        )
            .prop_map(|(p, pred, tail)| match pred {
                Some(pred) => format!("namespace::{p}[{pred}]{tail}"),
                None => format!("namespace::{p}{tail}"),
            }),
    ]
}

/// From the root down (`/` or a relative path from the document node: only the downward
/// axes find anything there), or from every node (`//`), then along any axis.
fn path() -> impl Strategy<Value = String> {
    const DOWN: &[&str] = &["child", "descendant", "descendant-or-self", "self"];
    (
        prop_oneof![
            1 => (prop::sample::select(vec!["/", ""]), node_step(DOWN))
                .prop_map(|(s, st)| format!("{s}{st}")),
            3 => node_step(AXES).prop_map(|st| format!("//{st}")),
        ],
        prop::collection::vec(
            (prop::sample::select(vec!["/", "//", "/"]), node_step(AXES)),
            0..2,
        ),
        prop::option::weighted(0.35, (prop::sample::select(vec!["/", "//"]), leaf_step())),
    )
        .prop_map(|(first, steps, last)| {
            let mut s = first;
            for (sep, st) in steps.iter().chain(&last) {
                s.push_str(sep);
                s.push_str(st);
            }
            s
        })
}

fn expression() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => path(),
        2 => (path(), path()).prop_map(|(a, b)| format!("{a} | {b}")),
        4 => (
            prop::sample::select(vec![
                "count", "string", "sum", "number", "name", "local-name", "boolean",
                "string-length", "normalize-space",
            ]),
            path(),
        )
            .prop_map(|(f, p)| format!("{f}({p})")),
        1 => path().prop_map(|p| format!("count({p}/namespace::*)")),
        1 => path().prop_map(|p| format!("contains(string({p}), 'a')")),
        1 => path().prop_map(|p| format!("{p} = 'v'")),
        1 => (path(), path()).prop_map(|(a, b)| format!("count({a}) + count({b}) * 2")),
    ]
}

// ----- comparing results --------------------------------------------------------------------

/// A node as both models must describe it: kind, prefix, local name, namespace URI,
/// string-value and preorder position (of the element, for namespace nodes).
type Key = (String, String, String, String, String, usize);

/// Preorder positions of every node but namespace nodes: the document, each element, its
/// attributes, its children.
fn preorder<N: Navigator>(nav: &N) -> Vec<N::Node> {
    let mut out = Vec::new();
    let mut todo = vec![nav.root()];
    while let Some(n) = todo.pop() {
        out.push(n);
        let mut a = nav.first_attribute(n);
        while let Some(x) = a {
            out.push(x);
            a = nav.next_attribute(x);
        }
        let mut kids = Vec::new();
        let mut c = nav.first_child(n);
        while let Some(k) = c {
            kids.push(k);
            c = nav.next_sibling(k);
        }
        todo.extend(kids.into_iter().rev());
    }
    out
}

fn key<N: Navigator>(nav: &N, pos: &HashMap<N::Node, usize>, n: N::Node) -> Key {
    let at = match nav.kind(n) {
        NodeKind::Namespace => nav.parent(n).map_or(usize::MAX, |p| pos[&p]),
        _ => pos[&n],
    };
    (
        format!("{:?}", nav.kind(n)),
        nav.prefix(n).to_string(),
        nav.local_name(n).to_string(),
        nav.namespace_uri(n).to_string(),
        nav.string_value(n).into_owned(),
        at,
    )
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Nodes(Vec<Key>),
    Number(Option<u64>),
    String(String),
    Boolean(bool),
    Error(String),
}

fn evaluate<N: Navigator>(nav: &N, xp: &XPath) -> Outcome {
    let pos: HashMap<N::Node, usize> = preorder(nav)
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, i))
        .collect();
    match xp.evaluate(nav, nav.root()) {
        Ok(Value::NodeSet(nodes)) => {
            let mut keys: Vec<Key> = nodes.iter().map(|&n| key(nav, &pos, n)).collect();
            keys.sort();
            Outcome::Nodes(keys)
        }
        // NaN as `None`: any NaN equals any other here.
        Ok(Value::Number(x)) => Outcome::Number((!x.is_nan()).then_some(x.to_bits())),
        Ok(Value::String(s)) => Outcome::String(s),
        Ok(Value::Boolean(b)) => Outcome::Boolean(b),
        Err(e) => Outcome::Error(format!("{:?}", e.kind())),
    }
}

fn namespaces() -> Namespaces {
    Namespaces::new()
        .with("p", "urn:p")
        .with("q", "urn:q")
        .with("d", "urn:d")
        .with("r", "urn:r")
}

// ----- infosets -----------------------------------------------------------------------------

/// What a parsed document says, ignoring how it is written: element and attribute names as
/// (local, URI), attributes as a set, adjacent text merged and empty text dropped.
#[derive(Debug, PartialEq, Eq)]
enum Info {
    Elem {
        name: (String, String),
        attrs: BTreeSet<(String, String, String)>,
        kids: Vec<Info>,
    },
    Text(String),
    Comment(String),
    Pi(String, String),
}

fn infoset(doc: &Document) -> Vec<Info> {
    children_info(doc, doc.root())
}

fn children_info(doc: &Document, n: NodeId) -> Vec<Info> {
    let mut out: Vec<Info> = Vec::new();
    for c in doc.children(n) {
        let item = match doc.kind(c) {
            NodeKind::Element => Info::Elem {
                name: (
                    doc.local_name(c).to_string(),
                    doc.namespace_uri(c).to_string(),
                ),
                attrs: doc
                    .attributes(c)
                    .map(|a| {
                        (
                            a.local_name.to_string(),
                            a.namespace_uri.to_string(),
                            a.value.to_string(),
                        )
                    })
                    .collect(),
                kids: children_info(doc, c),
            },
            NodeKind::Text => {
                if let Some(Info::Text(prev)) = out.last_mut() {
                    prev.push_str(doc.text(c));
                    continue;
                }
                Info::Text(doc.text(c).to_string())
            }
            NodeKind::Comment => Info::Comment(doc.text(c).to_string()),
            NodeKind::Pi => Info::Pi(doc.local_name(c).to_string(), doc.text(c).to_string()),
            _ => continue,
        };
        out.push(item);
    }
    out.retain(|i| !matches!(i, Info::Text(t) if t.is_empty()));
    out
}

fn parse_info(bytes: &[u8]) -> Result<Vec<Info>, TestCaseError> {
    Document::parse(bytes).map(|d| infoset(&d)).map_err(|e| {
        TestCaseError::fail(format!(
            "output does not parse: {e}\n{}",
            String::from_utf8_lossy(bytes)
        ))
    })
}

// ----- edits --------------------------------------------------------------------------------

/// An edit target in the tree, resolved on the unedited tree (attributes by name, since
/// their positions move when one is removed).
#[derive(Clone, Debug)]
enum TreeTarget {
    Node(NodeId),
    Attribute {
        element: NodeId,
        prefix: String,
        local: String,
        uri: String,
    },
}

const TEXTS: &[&str] = &["", "x", "a<&>]]>\r\n\t\"'", " é "];

proptest! {
    // About 3 s in a debug build, all three.
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn xpath_agrees_on_tree_and_index(
        root in gen(),
        bits in any::<u64>(),
        dtd in any::<bool>(),
        default_ns in any::<bool>(),
        exprs in prop::collection::vec(expression(), 1..8),
    ) {
        let text = document(root, bits, dtd, default_ns);
        let tree = Document::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let ix = Index::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let ns = namespaces();
        for e in &exprs {
            let xp = XPath::compile_with(e, &ns).map_err(|err| TestCaseError::fail(format!("{e}: {err}")))?;
            let (t, i) = (evaluate(&tree, &xp), evaluate(&ix, &xp));
            prop_assert_eq!(t, i, "expression {}\n{}", e, text);
        }
    }

    #[test]
    fn edits_agree_on_tree_and_index(
        root in gen(),
        bits in any::<u64>(),
        dtd in any::<bool>(),
        default_ns in any::<bool>(),
        ops in prop::collection::vec((0usize..3, any::<prop::sample::Index>(), 0usize..4), 1..10),
    ) {
        let text = document(root, bits, dtd, default_ns);
        let bytes = text.as_bytes();
        let mut tree = Document::parse(bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let ix = Index::parse(bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // The same nodes in the same preorder on both sides (the document node left out).
        let tree_nodes = preorder(&tree);
        let ix_nodes = preorder(&ix);
        prop_assert_eq!(tree_nodes.len(), ix_nodes.len());
        let targets: Vec<TreeTarget> = tree_nodes
            .iter()
            .map(|&h| match h {
                Handle::Attribute(e, _) => TreeTarget::Attribute {
                    element: e,
                    prefix: Navigator::prefix(&tree, h).to_string(),
                    local: Navigator::local_name(&tree, h).to_string(),
                    uri: Navigator::namespace_uri(&tree, h).to_string(),
                },
                h => TreeTarget::Node(h.node()),
            })
            .collect();
        let root_element = tree.root_element().unwrap();
        let mut ed = ix.edit();
        let mut log = Vec::new();
        for (op, at, arg) in ops {
            let k = 1 + at.index(tree_nodes.len() - 1);
            let (target, n) = (&targets[k], ix_nodes[k]);
            let value = TEXTS[arg];
            // The editor refuses overlapping edits (inside a deleted node, a value set
            // twice); those are left out on the tree too, where they would touch nodes
            // already gone.
            let (recorded, what) = match (op, target) {
                (0, TreeTarget::Node(id)) if *id == root_element => continue,
                (0, _) => (ed.delete(n), "delete"),
                (1, TreeTarget::Node(_)) if matches!(ix.kind(n), NodeKind::Element | NodeKind::Text) => {
                    (ed.set_text(n, value), "set text")
                }
                (_, TreeTarget::Attribute { .. }) => (ed.set_attribute_value(n, value), "set value"),
                _ => continue,
            };
            if recorded.is_err() {
                continue;
            }
            log.push(format!("{what} {k} {value:?}"));
            match (what, target) {
                ("delete", TreeTarget::Node(id)) => tree.remove(*id).unwrap(),
                ("delete", TreeTarget::Attribute { element, uri, local, .. }) => {
                    prop_assert!(tree.remove_attribute(*element, uri, local).unwrap());
                }
                ("set text", TreeTarget::Node(id)) if tree.kind(*id) == NodeKind::Element => {
                    tree.set_text_content(*id, value).unwrap();
                }
                ("set text", TreeTarget::Node(id)) => tree.set_text(*id, value).unwrap(),
                (_, TreeTarget::Attribute { element, prefix, local, uri }) => {
                    tree.set_attribute(*element, prefix, local, uri, value).unwrap();
                }
                _ => unreachable!(),
            }
        }
        let from_tree = tree.to_xml().map_err(|e| TestCaseError::fail(format!("{e}\n{text}\n{log:?}")))?;
        let from_index = ed.to_vec();
        let (t, i) = (parse_info(from_tree.as_bytes())?, parse_info(&from_index)?);
        prop_assert_eq!(
            t, i, "\n{}\n{:?}\ntree:  {}\nindex: {}",
            text, log, from_tree, String::from_utf8_lossy(&from_index)
        );
    }

    #[test]
    fn tree_round_trip_keeps_the_infoset(
        root in gen(),
        bits in any::<u64>(),
        dtd in any::<bool>(),
        default_ns in any::<bool>(),
    ) {
        let text = document(root, bits, dtd, default_ns);
        let tree = Document::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let out = tree.to_xml().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let again = parse_info(out.as_bytes())?;
        prop_assert_eq!(infoset(&tree), again, "\n{}\n{}", text, out);
        // And the index reads the same document as the tree.
        let ix = Index::parse(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(parse_info(&ix.edit().to_vec())?, infoset(&tree));
    }
}
