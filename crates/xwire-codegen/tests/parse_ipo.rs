//! The parser generated for ipo.xsd (addresses a family of types chosen by `xsi:type`,
//! elements in a target namespace, enumerations, patterns) against the schema validator, on
//! the benchmark's 8 KB international purchase order (`xwire gen ipo-8k`, in tests/data) and
//! on each way of breaking it.

#[allow(dead_code)]
mod ipo {
    include!("golden/ipo.rs");
}

mod common;

const DOC: &str = include_str!("data/ipo-8k.xml");

const BROKEN: &[common::Break] = &[
    (
        "an xsi:type outside the family",
        r#"xsi:type="ipo:USAddress""#,
        r#"xsi:type="ipo:Items""#,
    ),
    (
        "an unknown xsi:type",
        r#"xsi:type="ipo:USAddress""#,
        r#"xsi:type="ipo:CAAddress""#,
    ),
    (
        "an undeclared prefix",
        r#"xsi:type="ipo:USAddress""#,
        r#"xsi:type="p:USAddress""#,
    ),
    ("a US address without its state", "<state>AL</state>", ""),
    (
        "a state not in the enumeration",
        "<state>AL</state>",
        "<state>XX</state>",
    ),
    (
        "a UK postcode against its pattern",
        "<postcode>LS2 9JT</postcode>",
        "<postcode>9JT LS2</postcode>",
    ),
    (
        "a UK address without exportCode's fixed value",
        r#"exportCode="1""#,
        r#"exportCode="2""#,
    ),
    (
        "the family's base type with a derived type's element",
        r#"<billTo exportCode="1" xsi:type="ipo:UKAddress">"#,
        "<billTo>",
    ),
    (
        "an unqualified comment",
        "<ipo:comment>Hurry",
        "<comment>Hurry",
    ),
];

#[test]
fn the_generated_parser_agrees_with_the_validator() {
    common::agree_with_the_validator(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../xwire-bench/schemas/ipo.xsd"
        ),
        DOC,
        BROKEN,
        |doc| {
            ipo::Document::from_slice(doc)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
}

#[test]
fn xsi_type_chooses_the_variant() {
    let ipo::Document::PurchaseOrder(po) = ipo::Document::from_slice(DOC.as_bytes()).unwrap()
    else {
        panic!("a purchase order");
    };
    match &po.ship_to {
        ipo::AddressFamily::UsAddress(a) => {
            assert_eq!(a.state, ipo::UsState::Al);
            assert_eq!(a.city, "Mobile");
        }
        a => panic!("{a:?}"),
    }
    match po.bill_to.as_ref().unwrap() {
        ipo::AddressFamily::UkAddress(a) => {
            assert_eq!(a.postcode, ipo::UkPostcode("LS2 9JT".into()))
        }
        a => panic!("{a:?}"),
    }
}
