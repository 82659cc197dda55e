//! The parser generated for po.xsd (tests/golden/po.rs) against the schema validator of
//! xwire-schema: on a valid purchase order and on each way of breaking one, both must give
//! the same verdict, and the parser must fill the types with the document's values.

#[allow(dead_code)]
mod po {
    include!("golden/po.rs");
}

mod common;

const VALID: &str = r#"<?xml version="1.0"?>
<purchaseOrder orderDate="1999-10-20">
  <shipTo country="US">
    <name>Alice Smith</name><street>123 Maple Street</street>
    <city>Mill Valley</city><state>CA</state><zip>90952</zip>
  </shipTo>
  <billTo country="US">
    <name>Robert Smith</name><street>8 Oak Avenue</street>
    <city>Old Town</city><state>PA</state><zip>95819</zip>
  </billTo>
  <comment>Hurry, my lawn is going wild</comment>
  <items>
    <item partNum="872-AA">
      <productName>Lawnmower</productName><quantity>1</quantity>
      <USPrice>148.95</USPrice><comment>Confirm this is electric</comment>
    </item>
    <!-- a comment between items -->
    <item partNum="926-AA">
      <productName>Baby Monitor</productName><quantity> 99 </quantity>
      <USPrice>39.98</USPrice><shipDate>1999-05-21</shipDate>
    </item>
  </items>
</purchaseOrder>"#;

/// Each (what, from, to): a change of VALID.
const BROKEN: &[common::Break] = &[
    (
        "quantity at the bound",
        "<quantity> 99 </quantity>",
        "<quantity>100</quantity>",
    ),
    (
        "quantity zero",
        "<quantity>1</quantity>",
        "<quantity>0</quantity>",
    ),
    (
        "quantity not a number",
        "<quantity>1</quantity>",
        "<quantity>one</quantity>",
    ),
    ("SKU pattern", "872-AA", "872-aA"),
    ("SKU missing", r#"<item partNum="926-AA">"#, "<item>"),
    (
        "unknown attribute",
        r#"<item partNum="872-AA">"#,
        r#"<item partNum="872-AA" color="red">"#,
    ),
    (
        "fixed attribute",
        r#"<billTo country="US">"#,
        r#"<billTo country="UK">"#,
    ),
    ("bad date", "1999-10-20", "1999-13-20"),
    ("missing element", "<city>Old Town</city>", ""),
    (
        "elements out of order",
        "<name>Alice Smith</name><street>123 Maple Street</street>",
        "<street>123 Maple Street</street><name>Alice Smith</name>",
    ),
    (
        "extra element",
        "<zip>95819</zip>",
        "<zip>95819</zip><zip>1</zip>",
    ),
    (
        "unknown element",
        "<comment>Hurry",
        "<note>x</note><comment>Hurry",
    ),
    (
        "text in element-only content",
        "<items>",
        "<items>loose text",
    ),
    (
        "child in simple content",
        "<name>Robert Smith</name>",
        "<name>Robert <b>Smith</b></name>",
    ),
    (
        "attribute on simple content",
        "<zip>90952</zip>",
        r#"<zip unit="x">90952</zip>"#,
    ),
    (
        "decimal",
        "<USPrice>39.98</USPrice>",
        "<USPrice>39,98</USPrice>",
    ),
    (
        "unknown root",
        "<purchaseOrder orderDate",
        "<order orderDate",
    ),
    ("not well-formed", "</items>", "</item>"),
];

#[test]
fn the_generated_parser_agrees_with_the_validator() {
    common::agree_with_the_validator(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../xwire-bench/schemas/po.xsd"),
        VALID,
        BROKEN,
        |doc| {
            po::Document::from_slice(doc)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
}

#[test]
fn the_types_hold_the_documents_values() {
    let po::Document::PurchaseOrder(order) = po::Document::from_slice(VALID.as_bytes()).unwrap()
    else {
        panic!("a purchase order");
    };
    assert_eq!(
        order
            .order_date
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("1999-10-20")
    );
    assert_eq!(order.ship_to.name, "Alice Smith");
    assert_eq!(order.ship_to.country, "US", "the fixed value fills in");
    assert_eq!(order.bill_to.zip.canonical_decimal(), "95819.0");
    assert_eq!(
        order.comment.as_deref(),
        Some("Hurry, my lawn is going wild")
    );
    let items = &order.items.item;
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].part_num, po::Sku("872-AA".into()));
    assert_eq!((items[0].quantity, items[1].quantity), (1u8, 99u8));
    assert_eq!(items[1].us_price.canonical_decimal(), "39.98");
    assert!(items[0].ship_date.is_none());
    assert_eq!(
        items[1].ship_date.as_ref().unwrap().to_string(),
        "1999-05-21"
    );
}

#[test]
fn errors_say_where_and_which_constraint() {
    let doc = VALID.replacen("<quantity>1</quantity>", "<quantity>0</quantity>", 1);
    let e = po::Document::from_slice(doc.as_bytes()).unwrap_err();
    // At the element's start tag, as the validator places it.
    assert_eq!((e.line, e.column), (14, 43), "{e}");
    assert!(e.constraint.starts_with("cvc-datatype-valid"), "{e}");
    let doc = VALID.replacen("<city>Old Town</city>", "", 1);
    let e = po::Document::from_slice(doc.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.constraint), (9, "cvc-complex-type.2.4.a"), "{e}");
    assert!(
        e.message.contains("<state>") && e.message.contains("<city>"),
        "{e}"
    );
}
