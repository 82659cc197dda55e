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

const VALID: &str = r#"<d:drawing xmlns:d="urn:drawing" version="2" origin=" 10  -20 ">
  <d:title lang="en">Plan</d:title>
  <d:landscape/>
  <d:layer>base</d:layer><d:opacity>50</d:opacity>
  <d:layer>top</d:layer>
  <d:circle id="c1"><d:r>2.5</d:r><d:stroke/></d:circle>
  <d:polygon><d:points>a b c</d:points><d:closed>true</d:closed><d:kind> polygon </d:kind></d:polygon>
  <d:group><d:circle><d:r>1</d:r></d:circle><d:group><d:polygon><d:points>x</d:points></d:polygon></d:group></d:group>
  <d:size> auto </d:size>
  <d:meta><d:date>2026-11-26</d:date><d:author>Ann</d:author></d:meta>
</d:drawing>"#;

const BROKEN: &[common::Break] = &[
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
    let drawing::Document::Drawing(d) = drawing::Document::from_slice(VALID.as_bytes()).unwrap()
    else {
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
    let inner = d.group.as_ref().unwrap().group.as_ref().unwrap();
    assert!(matches!(inner.shape[0], drawing::ShapeGroup::Polygon(_)));
}
