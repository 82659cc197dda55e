//! Round trips of the binary encoding on random typed trees (`binary::TypedDocument`s with
//! namespaces declared, redeclared and undeclared in nested scopes, attributes, text, CDATA,
//! comments, PIs, leaves of every primitive type and arrays of every fixed-width type), in
//! both byte orders:
//!
//! - binary → `TypedDocument::read` → binary gives the same bytes;
//! - binary → text (`decode_to_text`) → binary (`encode_events` with a `MapTyping` naming the
//!   tree's typed elements) gives the bytes the binary writer writes, in the machine's byte
//!   order, for the same tree; NaNs come back as the canonical NaN (documented: the text form
//!   has one `NaN`), so the expected bytes are those of the tree with its NaNs made canonical;
//! - the text writer's output for the tree encodes to those same bytes, and it and the
//!   decoded binary have the same canonical XML (C14N with comments);
//! - typed values and arrays read back through `Reader::typed_content` and `Reader::array`
//!   equal the originals bit for bit (floats compared by their bits, NaN payloads included).

use std::borrow::Cow;

use proptest::prelude::*;

use xwire::binary::{
    decode_to_text, encode_events, Array, BinaryWriter, ByteOrder, MapTyping, MapTypingBuilder,
    NodeId, Primitive, PrimitiveType, Typed, TypedDocument, TypedValue,
};
use xwire::c14n::{self, C14nOptions, Mode};
use xwire::writer::Writer;
use xwire::{Event, Reader, XML_NS};

// ----- the generated trees --------------------------------------------------------------------

/// A leaf value, owned.
#[derive(Clone, Debug)]
enum Val {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
    Str(String),
    Bytes(Vec<u8>),
}

impl Val {
    fn value(&self) -> TypedValue<'_> {
        match self {
            Val::I8(v) => TypedValue::I8(*v),
            Val::I16(v) => TypedValue::I16(*v),
            Val::I32(v) => TypedValue::I32(*v),
            Val::I64(v) => TypedValue::I64(*v),
            Val::U8(v) => TypedValue::U8(*v),
            Val::U16(v) => TypedValue::U16(*v),
            Val::U32(v) => TypedValue::U32(*v),
            Val::U64(v) => TypedValue::U64(*v),
            Val::F32(v) => TypedValue::F32(*v),
            Val::F64(v) => TypedValue::F64(*v),
            Val::Bool(v) => TypedValue::Bool(*v),
            Val::Str(s) => TypedValue::String(s),
            Val::Bytes(b) => TypedValue::Bytes(b),
        }
    }
}

#[derive(Clone, Debug)]
enum Content {
    Children(Vec<Node>),
    Leaf(Val),
    Array(Array<'static>),
}

#[derive(Clone, Debug)]
enum Node {
    Elem {
        prefix: &'static str,
        /// Ignored for typed elements, whose local name says their type (see `typed_name`).
        local: &'static str,
        /// (prefix, uri): `""` prefix for the default namespace, `""` uri to undeclare it.
        decls: Vec<(&'static str, &'static str)>,
        /// (prefix, local, value).
        attrs: Vec<(&'static str, &'static str, String)>,
        content: Content,
    },
    Text(String),
    CData(String),
    Comment(String),
    Pi(&'static str, String),
}

/// A document: comments and PIs, the root element, comments and PIs.
#[derive(Clone, Debug)]
struct Tree {
    before: Vec<Node>,
    root: Node,
    after: Vec<Node>,
}

const URIS: [&str; 3] = ["urn:a", "urn:b", "http://example.com/ns?x=1&y=<2>"];

/// Characters that need escaping, line ends, the characters of `]]>`, `--` and `?>`, and
/// non-ASCII ones of every UTF-8 length.
fn chars(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'z', ' ', '\t', '\n', '\r', '&', '<', '>', '"', '\'', ']', '-', '?', 'é', '€',
            '𝄞', '\u{85}', '\u{2028}', '\u{FEFF}', '\u{FFFD}',
        ]),
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        any::<f32>(),
        prop::sample::select(vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7FC0_0001), // a NaN with a payload
            f32::from_bits(1),           // the smallest subnormal
            f32::from_bits(0x007F_FFFF), // the largest subnormal
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            f32::EPSILON,
            0.1,
            16_777_217.0,
        ]),
    ]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<f64>(),
        prop::sample::select(vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7FF0_0000_0000_0001), // a signalling NaN
            f64::from_bits(1),
            f64::from_bits(0x000F_FFFF_FFFF_FFFF),
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            0.1,
            1e16,
            1.2345678901234568e17,
            2.5e-5,
        ]),
    ]
}

fn vals() -> impl Strategy<Value = Val> {
    prop_oneof![
        any::<i8>().prop_map(Val::I8),
        any::<i16>().prop_map(Val::I16),
        any::<i32>().prop_map(Val::I32),
        any::<i64>().prop_map(Val::I64),
        any::<u8>().prop_map(Val::U8),
        any::<u16>().prop_map(Val::U16),
        any::<u32>().prop_map(Val::U32),
        any::<u64>().prop_map(Val::U64),
        f32s().prop_map(Val::F32),
        f64s().prop_map(Val::F64),
        any::<bool>().prop_map(Val::Bool),
        chars(8).prop_map(Val::Str),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(Val::Bytes),
    ]
}

fn arrays() -> impl Strategy<Value = Array<'static>> {
    fn v<T: std::fmt::Debug + Clone + 'static>(
        s: impl Strategy<Value = T>,
    ) -> impl Strategy<Value = Cow<'static, [T]>>
    where
        [T]: ToOwned<Owned = Vec<T>>,
    {
        prop::collection::vec(s, 0..6).prop_map(Cow::Owned)
    }
    prop_oneof![
        v(any::<i8>()).prop_map(Array::I8),
        v(any::<i16>()).prop_map(Array::I16),
        v(any::<i32>()).prop_map(Array::I32),
        v(any::<i64>()).prop_map(Array::I64),
        v(any::<u8>()).prop_map(Array::U8),
        v(any::<u16>()).prop_map(Array::U16),
        v(any::<u32>()).prop_map(Array::U32),
        v(any::<u64>()).prop_map(Array::U64),
        v(f32s()).prop_map(Array::F32),
        v(f64s()).prop_map(Array::F64),
        v(any::<bool>()).prop_map(Array::Bool),
    ]
}

/// Comments: no `--`, no `-` at the end (the writers refuse those).
fn comment() -> impl Strategy<Value = Node> {
    chars(8).prop_map(|s| {
        let mut s = s;
        while s.contains("--") {
            s = s.replace("--", "-");
        }
        Node::Comment(s.trim_end_matches('-').to_string())
    })
}

/// PIs: data without `?>` (the writers refuse it).
fn pi() -> impl Strategy<Value = Node> {
    (
        prop::sample::select(vec!["pi", "t-1.x", "é", "xml-stylesheet"]),
        chars(8),
    )
        .prop_map(|(t, mut d)| {
            while d.contains("?>") {
                d = d.replace("?>", ">");
            }
            Node::Pi(t, d)
        })
}

type Head = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
    Vec<(&'static str, &'static str, String)>,
);

/// An element's name, declarations and attributes. Prefixes may be used before any
/// declaration (the builder then declares them) and declared again in nested scopes.
fn head() -> impl Strategy<Value = Head> {
    let decl = prop_oneof![
        4 => (prop::sample::select(vec!["p", "q", "r"]), prop::sample::select(URIS.to_vec())),
        2 => prop::sample::select(URIS.to_vec()).prop_map(|u| ("", u)),
        1 => Just(("", "")),
        1 => Just(("xml", XML_NS)),
    ];
    (
        prop::sample::select(vec!["", "", "p", "q"]),
        prop::sample::select(vec!["a", "b", "é", "long-name.x_1"]),
        prop::collection::vec(decl, 0..3),
        prop::collection::vec(
            (
                prop::sample::select(vec!["", "", "p", "q", "xml"]),
                prop::sample::select(vec!["x", "y", "lang"]),
                chars(6),
            ),
            0..3,
        ),
    )
}

fn typed_element() -> impl Strategy<Value = Node> {
    let content = prop_oneof![
        vals().prop_map(Content::Leaf),
        arrays().prop_map(Content::Array)
    ];
    (head(), content).prop_map(|((prefix, local, decls, attrs), content)| Node::Elem {
        prefix,
        local,
        decls,
        attrs,
        content,
    })
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        2 => chars(8).prop_map(Node::Text),
        1 => chars(8).prop_map(Node::CData),
        1 => comment(),
        1 => pi(),
        4 => typed_element(),
    ];
    leaf.prop_recursive(5, 96, 8, |inner| {
        (head(), prop::collection::vec(inner, 0..8)).prop_map(
            |((prefix, local, decls, attrs), children)| Node::Elem {
                prefix,
                local,
                decls,
                attrs,
                content: Content::Children(children),
            },
        )
    })
}

fn tree() -> impl Strategy<Value = Tree> {
    let misc = || prop::collection::vec(prop_oneof![comment(), pi()], 0..3);
    (misc(), head(), prop::collection::vec(node(), 0..8), misc()).prop_map(
        |(before, (prefix, local, decls, attrs), children, after)| Tree {
            before,
            root: Node::Elem {
                prefix,
                local,
                decls,
                attrs,
                content: Content::Children(children),
            },
            after,
        },
    )
}

// ----- building the model ---------------------------------------------------------------------

/// The local name of a typed element: its type, so that one (namespace, local name) never
/// names two kinds of content and a `MapTyping` can say how to encode each.
fn typed_name(content: &Content) -> Option<String> {
    match content {
        Content::Children(_) => None,
        Content::Leaf(v) => Some(format!("v-{}", v.value().primitive_type().name())),
        Content::Array(a) => Some(format!("a-{}", a.primitive_type().name())),
    }
}

struct Builder {
    doc: TypedDocument,
    /// Bindings in scope: (prefix, uri), innermost last.
    scope: Vec<(&'static str, &'static str)>,
    typing: MapTypingBuilder,
    /// The typed contents in document order.
    typed: Vec<Content>,
}

impl Builder {
    fn lookup(&self, prefix: &str) -> Option<&'static str> {
        if prefix == "xml" {
            return Some(XML_NS);
        }
        self.scope.iter().rev().find(|b| b.0 == prefix).map(|b| b.1)
    }

    fn add(&mut self, parent: NodeId, n: &Node) {
        match n {
            Node::Text(s) => {
                self.doc.append_text(parent, s);
            }
            Node::CData(s) => {
                self.doc.append_cdata(parent, s);
            }
            Node::Comment(s) => {
                self.doc.append_comment(parent, s);
            }
            Node::Pi(t, d) => {
                self.doc.append_pi(parent, t, d);
            }
            Node::Elem {
                prefix,
                local,
                decls,
                attrs,
                content,
            } => {
                let mark = self.scope.len();
                let mut own: Vec<(&'static str, &'static str)> = Vec::new();
                for &(p, u) in decls {
                    if !own.iter().any(|d| d.0 == p) {
                        own.push((p, u));
                        self.scope.push((p, u));
                    }
                }
                // Prefixes used but not in scope get a declaration here.
                let mut need = |b: &mut Self, p: &'static str, u: &'static str| {
                    if !p.is_empty() && b.lookup(p).is_none() {
                        own.push((p, u));
                        b.scope.push((p, u));
                    }
                };
                need(self, prefix, URIS[0]);
                for (p, _, _) in attrs {
                    need(self, p, URIS[1]);
                }
                let ns = self.lookup(prefix).unwrap_or("");
                let name = typed_name(content).unwrap_or_else(|| local.to_string());
                let qname = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}:{name}")
                };
                let el = match content {
                    Content::Children(_) => self.doc.append_element(parent, ns, &qname),
                    Content::Leaf(v) => {
                        let ty = v.value().primitive_type();
                        let b = std::mem::replace(&mut self.typing, MapTyping::builder());
                        self.typing = b.leaf(ns, &name, ty);
                        self.typed.push(content.clone());
                        self.doc.append_leaf(parent, ns, &qname, v.value())
                    }
                    Content::Array(a) => {
                        let ty = a.primitive_type();
                        let b = std::mem::replace(&mut self.typing, MapTyping::builder());
                        self.typing = b.array(ns, &name, ty);
                        self.typed.push(content.clone());
                        self.doc.append_array_value(parent, ns, &qname, a.clone())
                    }
                };
                for &(p, u) in &own {
                    self.doc.declare_namespace(el, p, u);
                }
                let mut seen: Vec<(&str, &str)> = Vec::new();
                for (p, l, v) in attrs {
                    let ans = if p.is_empty() {
                        ""
                    } else {
                        self.lookup(p).expect("declared above")
                    };
                    if seen.contains(&(ans, l)) {
                        continue; // (namespace, local name) must be unique
                    }
                    seen.push((ans, l));
                    let q = if p.is_empty() {
                        l.to_string()
                    } else {
                        format!("{p}:{l}")
                    };
                    self.doc.set_attribute(el, ans, &q, v);
                }
                if let Content::Children(children) = content {
                    for c in children {
                        self.add(el, c);
                    }
                }
                self.scope.truncate(mark);
            }
        }
    }
}

/// The model of a tree, the typing that encodes its text form back, and its typed contents in
/// document order.
fn build(t: &Tree) -> (TypedDocument, MapTyping, Vec<Content>) {
    let mut b = Builder {
        doc: TypedDocument::new(),
        scope: Vec::new(),
        typing: MapTyping::builder(),
        typed: Vec::new(),
    };
    let root = b.doc.root();
    for n in t.before.iter().chain([&t.root]).chain(&t.after) {
        b.add(root, n);
    }
    (b.doc, b.typing.build(), b.typed)
}

/// The tree with every NaN replaced by the canonical one, as the text form gives them back.
fn canonical_nans(t: &Tree) -> Tree {
    fn f32c(v: f32) -> f32 {
        if v.is_nan() {
            f32::NAN
        } else {
            v
        }
    }
    fn f64c(v: f64) -> f64 {
        if v.is_nan() {
            f64::NAN
        } else {
            v
        }
    }
    fn node(n: &Node) -> Node {
        let mut n = n.clone();
        if let Node::Elem { content, .. } = &mut n {
            match content {
                Content::Children(c) => *c = c.iter().map(node).collect(),
                Content::Leaf(Val::F32(v)) => *v = f32c(*v),
                Content::Leaf(Val::F64(v)) => *v = f64c(*v),
                Content::Array(Array::F32(v)) => *v = v.iter().map(|&x| f32c(x)).collect(),
                Content::Array(Array::F64(v)) => *v = v.iter().map(|&x| f64c(x)).collect(),
                _ => {}
            }
        }
        n
    }
    Tree {
        before: t.before.iter().map(node).collect(),
        root: node(&t.root),
        after: t.after.iter().map(node).collect(),
    }
}

fn binary(doc: &TypedDocument, order: ByteOrder) -> Vec<u8> {
    let mut w = BinaryWriter::with_byte_order(Vec::new(), order);
    doc.write(&mut w)
        .expect("the builder makes valid documents");
    w.finish().expect("complete")
}

fn text(doc: &TypedDocument) -> Vec<u8> {
    let mut w = Writer::new(Vec::new());
    doc.write(&mut w)
        .expect("the builder makes valid documents");
    w.finish().expect("complete")
}

fn canonical(xml: &[u8]) -> String {
    let options = C14nOptions::new(Mode::Inclusive, true);
    String::from_utf8(c14n::to_vec(xml, &options).expect("canonicalizable")).unwrap()
}

// ----- typed content, bit for bit -------------------------------------------------------------

/// A value's bytes (floats as their bits, so NaNs compare too).
fn value_bits(v: &TypedValue<'_>) -> Vec<u8> {
    match *v {
        TypedValue::I8(x) => x.to_le_bytes().to_vec(),
        TypedValue::I16(x) => x.to_le_bytes().to_vec(),
        TypedValue::I32(x) => x.to_le_bytes().to_vec(),
        TypedValue::I64(x) => x.to_le_bytes().to_vec(),
        TypedValue::U8(x) => x.to_le_bytes().to_vec(),
        TypedValue::U16(x) => x.to_le_bytes().to_vec(),
        TypedValue::U32(x) => x.to_le_bytes().to_vec(),
        TypedValue::U64(x) => x.to_le_bytes().to_vec(),
        TypedValue::F32(x) => x.to_bits().to_le_bytes().to_vec(),
        TypedValue::F64(x) => x.to_bits().to_le_bytes().to_vec(),
        TypedValue::Bool(x) => vec![u8::from(x)],
        TypedValue::String(s) => s.as_bytes().to_vec(),
        TypedValue::Bytes(b) => b.to_vec(),
    }
}

/// Typed content as comparable bits: whether an array, the type, the values' bits.
type Bits = (bool, PrimitiveType, Vec<Vec<u8>>);

fn typed_bits(t: &Typed<'_>) -> Bits {
    match t {
        Typed::Value(v) => (false, v.primitive_type(), vec![value_bits(v)]),
        Typed::Array(a) => (
            true,
            a.primitive_type(),
            (0..a.len()).map(|i| value_bits(&a.get(i))).collect(),
        ),
    }
}

fn content_bits(c: &Content) -> Bits {
    match c {
        Content::Leaf(v) => typed_bits(&Typed::Value(v.value())),
        Content::Array(a) => typed_bits(&Typed::Array(a.clone())),
        Content::Children(_) => unreachable!("typed contents only"),
    }
}

/// Whether the reader is at a start tag after `next`; `None` at the end.
fn next_is_start(r: &mut Reader<'_>) -> Option<bool> {
    match r.next().expect("valid binary") {
        Event::Eof => None,
        e => Some(matches!(e, Event::Start(_))),
    }
}

/// `Reader::array::<T>` on the element just started, as bits; `None` if it declined.
macro_rules! array_bits {
    ($r:expr, $t:ty) => {
        $r.array::<$t>()
            .expect("no error")
            .map(|v| typed_bits(&Typed::Array(<$t as Primitive>::wrap(v))))
    };
}

fn array_as(r: &mut Reader<'_>, ty: PrimitiveType) -> Option<Bits> {
    match ty {
        PrimitiveType::I8 => array_bits!(r, i8),
        PrimitiveType::I16 => array_bits!(r, i16),
        PrimitiveType::I32 => array_bits!(r, i32),
        PrimitiveType::I64 => array_bits!(r, i64),
        PrimitiveType::U8 => array_bits!(r, u8),
        PrimitiveType::U16 => array_bits!(r, u16),
        PrimitiveType::U32 => array_bits!(r, u32),
        PrimitiveType::U64 => array_bits!(r, u64),
        PrimitiveType::F32 => array_bits!(r, f32),
        PrimitiveType::F64 => array_bits!(r, f64),
        PrimitiveType::Bool => array_bits!(r, bool),
        PrimitiveType::String | PrimitiveType::Bytes => unreachable!("arrays are fixed-width"),
    }
}

/// Reads every typed content of `bytes` twice and compares it with the tree's: with
/// `typed_content` at every start tag; then, at every start tag, after an `array::<U>` of a
/// type the element does not hold (which must decline and leave the content unread), with
/// `array::<T>` of the expected type for arrays and `typed_content` for leaves.
fn check_typed(bytes: &[u8], want: &[Content]) -> Result<(), TestCaseError> {
    let want: Vec<Bits> = want.iter().map(content_bits).collect();
    let mut got = Vec::new();
    let mut r = Reader::from_slice(bytes);
    while let Some(start) = next_is_start(&mut r) {
        if start {
            if let Some(t) = r.typed_content().expect("no error") {
                got.push(typed_bits(&t));
            }
        }
    }
    prop_assert_eq!(&got, &want, "typed_content");

    let mut got = Vec::new();
    let mut r = Reader::from_slice(bytes);
    while let Some(start) = next_is_start(&mut r) {
        let Some(next) = want.get(got.len()).filter(|_| start) else {
            continue;
        };
        let (is_array, ty, _) = next;
        let other = if *ty == PrimitiveType::I8 {
            PrimitiveType::U8
        } else {
            PrimitiveType::I8
        };
        prop_assert_eq!(array_as(&mut r, other), None, "array of another type");
        let t = if *is_array {
            array_as(&mut r, *ty)
        } else {
            r.typed_content().expect("no error").map(|t| typed_bits(&t))
        };
        // `None`: an untyped element before the next typed one.
        got.extend(t);
    }
    prop_assert_eq!(&got, &want, "array::<T>");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_typed_trees_round_trip(t in tree()) {
        let (doc, typing, typed) = build(&t);
        let (canon_doc, _, _) = build(&canonical_nans(&t));
        let native_canon = binary(&canon_doc, ByteOrder::NATIVE);
        let text_form = text(&doc);
        let canonical_text = canonical(&text_form);
        let encode = |xml: &[u8]| {
            encode_events(&mut Reader::from_slice(xml), &mut typing.clone(), Vec::new())
        };

        // The text writer's output encodes to what the binary writer writes.
        let from_text = encode(&text_form).expect("the text form encodes");
        prop_assert_eq!(
            &from_text,
            &native_canon,
            "\n{}",
            String::from_utf8_lossy(&text_form)
        );

        for order in [ByteOrder::Little, ByteOrder::Big] {
            let bytes = binary(&doc, order);

            // binary → model → binary
            let back = TypedDocument::read(&mut Reader::from_slice(&bytes)).expect("reads");
            prop_assert_eq!(&binary(&back, order), &bytes, "TypedDocument::read, {:?}", order);

            // binary → text → binary
            let decoded = decode_to_text(&bytes, Vec::new()).expect("decodes");
            let again = encode(&decoded).expect("the decoded text encodes");
            prop_assert_eq!(
                &again,
                &native_canon,
                "{:?}\n{}",
                order,
                String::from_utf8_lossy(&decoded)
            );

            // binary → text has the canonical form of the text writer's output.
            prop_assert_eq!(&canonical(&decoded), &canonical_text, "{:?}", order);

            check_typed(&bytes, &typed)?;
        }
    }
}
