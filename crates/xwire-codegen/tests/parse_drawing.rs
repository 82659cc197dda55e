//! The parser generated for tests/schemas/drawing.xsd (a namespace, a choice, a repeated
//! sequence, a substitution group, an enumeration with a default, a built-in list, simple and
//! empty content, a recursive type) against the schema validator: the same verdict on a valid
//! drawing and on each way of breaking it, and the values in the types.

// Generated readers are public (`Circle::read`) or reached from `Document::from_slice`; the
// allow is for the parts of the API this test does not call.
#[allow(dead_code)]
mod drawing {
    include!("golden/drawing.rs");
}

mod common;

use xwire::bind::{Any, AnyNode, Nillable};

/// A drawing with something of everything the schema has (shared with tests/round_trip.rs).
const VALID: &str = include_str!("data/drawing.xml");

const BROKEN: &[common::Break] = &[
    (
        "two layers of one name (key)",
        "<d:layer>top</d:layer>",
        "<d:layer>base</d:layer>",
    ),
    (
        "two circles of one radius, 2.5 and 2.50 (unique)",
        "<d:polygon><d:points>a b c</d:points><d:closed>true</d:closed><d:kind> polygon </d:kind></d:polygon>",
        "<d:circle><d:r>2.50</d:r></d:circle>",
    ),
    ("a list of three", r#"origin=" 10  -20 ""#, r#"origin="1 2 3""#),
    ("a list of non-integers", r#"origin=" 10  -20 ""#, r#"origin="a b""#),
    ("a value of no member type", "<d:size> auto </d:size>", "<d:size>0</d:size>"),
    ("a value of no member type, in words", "<d:size> auto </d:size>", "<d:size>big</d:size>"),
    (
        "both alternatives of the choice",
        "<d:landscape/>",
        "<d:landscape/><d:portrait/>",
    ),
    ("no alternative", "<d:landscape/>", ""),
    (
        "a fourth repetition",
        "<d:layer>top</d:layer>",
        "<d:layer>top</d:layer><d:layer>a</d:layer><d:layer>b</d:layer>",
    ),
    (
        "opacity out of range",
        "<d:opacity>50</d:opacity>",
        "<d:opacity>101</d:opacity>",
    ),
    (
        "layer not an NCName",
        "<d:layer>base</d:layer>",
        "<d:layer>1base</d:layer>",
    ),
    (
        "the abstract head itself",
        r#"<d:circle id="c1"><d:r>2.5</d:r><d:stroke/></d:circle>"#,
        "<d:shape/>",
    ),
    (
        "no shape",
        "<d:circle id=\"c1\"><d:r>2.5</d:r><d:stroke/></d:circle>\n  <d:polygon><d:points>a b c</d:points><d:closed>true</d:closed><d:kind> polygon </d:kind></d:polygon>",
        "",
    ),
    (
        "units not in the enumeration",
        r#"version="2""#,
        r#"version="2" units="cm""#,
    ),
    ("version missing", r#" version="2""#, ""),
    ("version too large", r#"version="2""#, r#"version="256""#),
    (
        "empty content with text",
        "<d:landscape/>",
        "<d:landscape>wide</d:landscape>",
    ),
    (
        "boolean",
        "<d:closed>true</d:closed>",
        "<d:closed>yes</d:closed>",
    ),
    ("double", "<d:r>2.5</d:r>", "<d:r>2,5</d:r>"),
    (
        "element from no namespace",
        "<d:title lang=\"en\">Plan</d:title>",
        "<title xmlns=\"\">Plan</title>",
    ),
    ("language", r#"lang="en""#, r#"lang="e n""#),
    ("a fixed value", "<d:kind> polygon </d:kind>", "<d:kind>square</d:kind>"),
    ("a radius of zero", "<d:r>2.5</d:r>", "<d:r>0</d:r>"),
    (
        "twice in an all group",
        "<d:author>Ann</d:author>",
        "<d:author>Ann</d:author><d:author>Bob</d:author>",
    ),
    ("a required element of an all group missing", "<d:date>2026-11-26</d:date>", ""),
    ("another element in an all group", "<d:author>Ann</d:author>", "<d:title/>"),
    ("a radius too large", "<d:r>2.5</d:r>", "<d:r>2e6</d:r>"),
    ("a default that is not the value", "<d:stroke/>", "<d:stroke>thin</d:stroke>"),
    (
        "a wildcard element of the schema's own namespace (##other)",
        r#"<x:thing a="1">text<x:inner/></x:thing>"#,
        "<d:thing/>",
    ),
    (
        "a wildcard element of no namespace (##other)",
        r#"<x:thing a="1">text<x:inner/></x:thing>"#,
        r#"<thing xmlns=""/>"#,
    ),
    ("a global attribute's value, laxly checked", r#"d:weight="1.5""#, r#"d:weight="heavy""#),
    ("an xsi:type in wildcard content", ">42<", ">forty-two<"),
    ("a nil element with content", r#"lang="en"/>"#, r#"lang="en">x</d:caption>"#),
    ("a nil element's attribute", r#"xsi:nil="true" lang="en""#, r#"xsi:nil="true" lang="e n""#),
    ("xsi:nil not a boolean", r#"xsi:nil="false""#, r#"xsi:nil="no""#),
    ("xsi:nil false and no value", ">1.5</d:scale>", "/>"),
    (
        "xsi:nil on an element that is not nillable",
        "<d:size> auto </d:size>",
        r#"<d:size xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>"#,
    ),
    (
        "xsi:nil on an element an attribute wildcard admits anything on",
        r#"d:weight="1.5" x:any="y""#,
        r#"d:weight="1.5" x:any="y" xsi:nil="true""#,
    ),
    ("an IDREF naming no ID", r#"uses="c1""#, r#"uses="c1 c9""#),
    (
        "an ID twice",
        "<d:polygon><d:points>a b c",
        r#"<d:polygon id="c1"><d:points>a b c"#,
    ),
    ("a complex xsi:type in wildcard content", "<d:r>4</d:r>", "<d:r>0</d:r>"),
    (
        "an xsi:type naming no type of the schema",
        r#"xsi:type="d:Circle""#,
        r#"xsi:type="d:Ring""#,
    ),
    ("a declared element in anyType content", "<d:r>3</d:r>", "<d:r>-3</d:r>"),
    (
        "a global attribute in anyType content, laxly checked",
        "<d:note>free",
        r#"<d:note d:weight="x">free"#,
    ),
    (
        "deep group content",
        "<d:points>x</d:points>",
        "<d:points>x</d:points><d:r>1</d:r>",
    ),
];

#[test]
fn the_generated_parser_agrees_with_the_validator() {
    common::agree_with_the_validator(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/drawing.xsd"),
        VALID,
        BROKEN,
        |doc| {
            drawing::Document::from_slice(doc)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
}

#[test]
fn the_types_hold_the_drawings_values() {
    let doc = drawing::Document::from_slice(VALID.as_bytes()).unwrap();
    // Both sources read it (identity constraints included) to the same value.
    let general = drawing::Document::read(&mut xwire::bind::Cursor::new(VALID.as_bytes()));
    assert_eq!(general.as_ref(), Ok(&doc));
    let fast = drawing::Document::read(&mut xwire::bind::Scanner::new(VALID.as_bytes()));
    assert_eq!(
        fast.ok().as_ref(),
        Some(&doc),
        "the scanner reads it without falling back"
    );
    let drawing::Document::Drawing(d) = doc else {
        panic!("a drawing");
    };
    assert_eq!(d.version, 2u8);
    assert_eq!(d.units, drawing::Units::Mm, "the default fills in");
    assert_eq!(d.origin, Some(vec![10, -20]));
    assert!(
        matches!(
            d.size,
            Some(drawing::SizeOrAuto::Member2(
                drawing::SizeOrAutoMember2::Auto
            ))
        ),
        "{:?}",
        d.size
    );
    let title = d.title.as_ref().unwrap();
    assert_eq!(
        (title.value.as_str(), title.lang.as_deref()),
        ("Plan", Some("en"))
    );
    assert!(matches!(d.choice, drawing::DrawingChoice::Landscape(_)));
    let layers: Vec<(&str, Option<u8>)> = d
        .sequence
        .iter()
        .map(|s| (s.layer.as_str(), s.opacity))
        .collect();
    assert_eq!(layers, [("base", Some(50)), ("top", None)]);
    assert_eq!(d.shape.len(), 2);
    match &d.shape[0] {
        drawing::ShapeGroup::Circle(c) => {
            assert_eq!((c.id.as_deref(), c.r), (Some("c1"), 2.5));
            let stroke = c.stroke.as_ref().map(|s| s.to_string());
            assert_eq!(
                stroke.as_deref(),
                Some("0.5"),
                "an empty element has its default"
            );
        }
        s => panic!("{s:?}"),
    }
    match &d.shape[1] {
        drawing::ShapeGroup::Polygon(p) => {
            assert_eq!(p.points, ["a", "b", "c"]);
            assert_eq!(p.closed, Some(true));
            assert_eq!(p.kind.as_deref(), Some("polygon"));
        }
        s => panic!("{s:?}"),
    }
    match &d.meta {
        Some(m) => {
            assert_eq!(m.author.as_deref(), Some("Ann"), "read in any order");
            assert_eq!(m.date.to_string(), "2026-11-26");
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(
        d.scale
            .as_ref()
            .and_then(|s| s.value())
            .map(|v| v.to_string()),
        Some("1.5".to_string())
    );
    assert_eq!(
        d.caption,
        Some(Nillable::Nil),
        "nil, its attributes checked"
    );
    let extras = d.extras.as_ref().unwrap();
    let attrs: Vec<(&str, &str, &str)> = extras
        .other_attributes
        .iter()
        .map(|a| (a.ns.as_str(), a.local.as_str(), a.value.as_str()))
        .collect();
    assert_eq!(
        attrs,
        [("urn:drawing", "weight", "1.5"), ("urn:x", "any", "y")]
    );
    let [Any::Other(thing), Any::Other(more), Any::Typed(ring)] = &extras.any[..] else {
        panic!("{:?}", extras.any);
    };
    assert_eq!(
        (thing.ns.as_str(), thing.local.as_str()),
        ("urn:x", "thing")
    );
    assert_eq!(thing.attributes[0].value, "1");
    assert!(
        matches!(&thing.children[..], [AnyNode::Text(t), AnyNode::Element(Any::Other(i))]
        if t == "text" && i.local == "inner" && i.children.is_empty())
    );
    assert!(matches!(&more.children[..], [AnyNode::Text(t)] if t == "42"));
    assert_eq!(ring.local, "ring", "the element's own name is kept");
    match &ring.value {
        drawing::Typed::Circle(c) => assert_eq!(c.r, 4.0, "read as the type xsi:type names"),
        t => panic!("{t:?}"),
    }
    let Some(Any::Other(note)) = extras.note.as_ref() else {
        panic!("{:?}", extras.note);
    };
    match &note.children[..] {
        [AnyNode::Text(a), AnyNode::Element(Any::Known(circle)), AnyNode::Text(b)] => {
            assert_eq!((a.as_str(), b.as_str()), ("free ", " text"));
            let drawing::Document::Circle(c) = &**circle else {
                panic!("{circle:?}");
            };
            assert_eq!(
                c.r, 3.0,
                "a declared element in anyType content is read typed"
            );
        }
        other => panic!("{other:?}"),
    }
    let inner = d.group.as_ref().unwrap().group.as_ref().unwrap();
    assert!(matches!(inner.shape[0], drawing::ShapeGroup::Polygon(_)));
}
