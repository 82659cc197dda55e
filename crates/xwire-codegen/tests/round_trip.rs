//! The generated serializers against the generated parsers and the schema validator: random
//! values of the types generated for po.xsd and ipo.xsd (proptest) are written as XML text
//! and as binary XML, the text is valid for the runtime validator, and both read back to
//! the value written. The suite's documents (drawing.xsd's, ipo-8k) go the same way from
//! their parsed values.

use proptest::prelude::*;
use xwire::bind::{self, Date, Decimal, Integer, Text};
use xwire_schema::validate::{ValidationOptions, Validator};

#[allow(dead_code)]
mod po {
    include!("golden/po.rs");
}

#[allow(dead_code)]
mod ipo {
    include!("golden/ipo.rs");
}

#[allow(dead_code)]
mod drawing {
    include!("golden/drawing.rs");
}

#[allow(dead_code)]
mod soap_encoding {
    include!("golden/soap_encoding.rs");
}

fn schema(path: &str) -> xwire_schema::model::Schema {
    xwire_schema::model::Schema::load(path).expect("the schema loads")
}

const PO_XSD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../xwire-bench/schemas/po.xsd");
const IPO_XSD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xwire-bench/schemas/ipo.xsd"
);
const DRAWING_XSD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/drawing.xsd");

/// Writes `doc` as text and as binary XML, checks the text against the validator, and
/// returns what each reads back to.
fn write_both<D>(
    doc: &D,
    schema: &xwire_schema::model::Schema,
    text: impl Fn(&D) -> Result<String, bind::write::WriteError>,
    binary: impl Fn(
        &D,
        &mut xwire::binary::BinaryWriter<Vec<u8>>,
    ) -> Result<(), bind::write::WriteError>,
) -> (String, String) {
    let xml = text(doc).expect("writes as text");
    if let Err(e) = Validator::new(schema, ValidationOptions::default()).validate(xml.as_bytes()) {
        panic!("the validator rejects what was written: {e:?}\n{xml}");
    }
    let mut w = xwire::binary::BinaryWriter::new(Vec::new());
    binary(doc, &mut w).expect("writes as binary XML");
    let bytes = w.finish().expect("finishes the binary document");
    let decoded = xwire::binary::decode_to_text(&bytes, Vec::new()).expect("decodes");
    (xml, String::from_utf8(decoded).expect("UTF-8"))
}

// Strategies for the values of the schemas' simple types.

/// Text that XML can carry in element content as it is: no control characters, and no
/// carriage return (line ends are normalized when read).
fn text() -> impl Strategy<Value = Text> {
    proptest::collection::vec(
        any::<char>().prop_filter("an XML character", |&c| {
            matches!(c, '\t' | '\n' | ' '..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        }),
        0..12,
    )
    .prop_map(|cs| Text::from(cs.into_iter().collect::<String>()))
}

fn decimal() -> impl Strategy<Value = Decimal> {
    (any::<i64>(), 0u32..6).prop_map(|(digits, scale)| {
        let s = digits.unsigned_abs().to_string();
        let s = match scale as usize {
            0 => s,
            k if k < s.len() => format!("{}.{}", &s[..s.len() - k], &s[s.len() - k..]),
            k => format!("0.{}{s}", "0".repeat(k - s.len())),
        };
        let sign = if digits < 0 { "-" } else { "" };
        bind::value::decimal(&format!("{sign}{s}")).expect("a decimal")
    })
}

/// A `positiveInteger`, of any size.
fn positive_integer() -> impl Strategy<Value = Integer> {
    proptest::collection::vec(0u8..10, 0..30).prop_map(|ds| {
        let s: String = std::iter::once('1')
            .chain(ds.iter().map(|d| char::from(b'0' + d)))
            .collect();
        bind::value::integer(&s, Some(1), None).expect("a positive integer")
    })
}

/// A date, with or without a timezone (kept as given).
fn date() -> impl Strategy<Value = Date> {
    (
        1i32..10000,
        1u8..13,
        1u8..29,
        proptest::option::of(-14i16 * 4..=14 * 4),
    )
        .prop_map(|(y, m, d, tz)| {
            let tz = match tz.map(|q| q * 15) {
                None => String::new(),
                Some(0) => "Z".to_string(),
                Some(t) => format!(
                    "{}{:02}:{:02}",
                    if t < 0 { '-' } else { '+' },
                    t.abs() / 60,
                    t.abs() % 60
                ),
            };
            bind::value::date(&format!("{y:04}-{m:02}-{d:02}{tz}")).expect("a date")
        })
}

/// A SKU: `\d{3}-[A-Z]{2}`.
fn sku_text() -> impl Strategy<Value = Text> {
    "[0-9]{3}-[A-Z]{2}".prop_map(Text::from)
}

mod po_values {
    use super::*;
    use crate::po::*;

    fn address() -> impl Strategy<Value = UsAddress> {
        (text(), text(), text(), text(), decimal()).prop_map(|(name, street, city, state, zip)| {
            UsAddress {
                country: Text::from("US"),
                name,
                street,
                city,
                state,
                zip,
            }
        })
    }

    fn item() -> impl Strategy<Value = Item> {
        (
            sku_text(),
            text(),
            1u8..100,
            decimal(),
            proptest::option::of(text()),
            proptest::option::of(date()),
        )
            .prop_map(
                |(sku, product_name, quantity, us_price, comment, ship_date)| Item {
                    part_num: Sku(sku),
                    product_name,
                    quantity,
                    us_price,
                    comment,
                    ship_date,
                },
            )
    }

    pub fn document() -> impl Strategy<Value = Document> {
        let order = (
            proptest::option::of(date()),
            address(),
            address(),
            proptest::option::of(text()),
            proptest::collection::vec(item(), 0..5),
        )
            .prop_map(|(order_date, ship_to, bill_to, comment, item)| {
                Document::PurchaseOrder(PurchaseOrderType {
                    order_date,
                    ship_to,
                    bill_to,
                    comment,
                    items: Items { item },
                })
            });
        prop_oneof![order, text().prop_map(Document::Comment)]
    }
}

mod ipo_values {
    use super::*;
    use crate::ipo::*;

    fn us_state() -> impl Strategy<Value = UsState> {
        prop_oneof![
            Just(UsState::Ak),
            Just(UsState::Al),
            Just(UsState::Ar),
            Just(UsState::Ca),
            Just(UsState::Pa),
        ]
    }

    fn address() -> impl Strategy<Value = AddressFamily> {
        let plain = (text(), text(), text()).prop_map(|(name, street, city)| {
            AddressFamily::Address(Address { name, street, city })
        });
        let us = (text(), text(), text(), us_state(), positive_integer()).prop_map(
            |(name, street, city, state, zip)| {
                AddressFamily::UsAddress(UsAddress {
                    name,
                    street,
                    city,
                    state,
                    zip,
                })
            },
        );
        let postcode = "[A-Z]{2}[0-9][ \t\n][0-9][A-Z]{2}".prop_map(|s| UkPostcode(Text::from(s)));
        let uk = (text(), text(), text(), postcode).prop_map(|(name, street, city, postcode)| {
            AddressFamily::UkAddress(UkAddress {
                export_code: bind::value::integer("1", Some(1), None).expect("1"),
                name,
                street,
                city,
                postcode,
            })
        });
        prop_oneof![plain, us, uk]
    }

    fn item() -> impl Strategy<Value = Item> {
        (
            sku_text(),
            text(),
            1u8..100,
            decimal(),
            proptest::option::of(text()),
            proptest::option::of(date()),
        )
            .prop_map(
                |(sku, product_name, quantity, us_price, comment, ship_date)| Item {
                    part_num: Sku(sku),
                    product_name,
                    quantity,
                    us_price,
                    comment,
                    ship_date,
                },
            )
    }

    pub fn document() -> impl Strategy<Value = Document> {
        (
            proptest::option::of(date()),
            address(),
            proptest::option::of(address()),
            proptest::option::of(text()),
            proptest::option::of(proptest::collection::vec(item(), 0..5)),
        )
            .prop_map(|(order_date, ship_to, bill_to, comment, items)| {
                Document::PurchaseOrder(PurchaseOrderType {
                    order_date,
                    ship_to,
                    bill_to,
                    comment,
                    items: items.map(|item| Items { item }),
                })
            })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn purchase_orders_round_trip(doc in po_values::document()) {
        let schema = schema(PO_XSD);
        let (xml, decoded) = write_both(&doc, &schema, po::Document::to_xml, |d, w| d.write(w));
        prop_assert_eq!(po::Document::from_slice(xml.as_bytes()).expect("reads back"), doc.clone());
        prop_assert_eq!(po::Document::from_slice(decoded.as_bytes()).expect("reads back"), doc);
    }

    #[test]
    fn international_purchase_orders_round_trip(doc in ipo_values::document()) {
        let schema = schema(IPO_XSD);
        let (xml, decoded) = write_both(&doc, &schema, ipo::Document::to_xml, |d, w| d.write(w));
        prop_assert_eq!(ipo::Document::from_slice(xml.as_bytes()).expect("reads back"), doc.clone());
        prop_assert_eq!(ipo::Document::from_slice(decoded.as_bytes()).expect("reads back"), doc);
    }
}

#[test]
fn the_ipo_document_reads_back_from_what_is_written() {
    let doc = ipo::Document::from_slice(include_bytes!("data/ipo-8k.xml")).expect("reads");
    let (xml, decoded) = write_both(&doc, &schema(IPO_XSD), ipo::Document::to_xml, |d, w| {
        d.write(w)
    });
    assert_eq!(ipo::Document::from_slice(xml.as_bytes()), Ok(doc.clone()));
    assert_eq!(ipo::Document::from_slice(decoded.as_bytes()), Ok(doc));
}

/// drawing.xsd has what po and ipo lack: wildcards and `xs:anyType` (kept XML, documents of
/// the schema and values named by `xsi:type`), nillable elements, IDs, lists, a union.
#[test]
fn a_drawing_with_wildcards_and_nil_reads_back_from_what_is_written() {
    let source = include_str!("data/drawing.xml");
    let doc = drawing::Document::from_slice(source.as_bytes()).expect("reads");
    let (xml, decoded) = write_both(
        &doc,
        &schema(DRAWING_XSD),
        drawing::Document::to_xml,
        |d, w| d.write(w),
    );
    assert_eq!(
        drawing::Document::from_slice(xml.as_bytes()),
        Ok(doc.clone()),
        "{xml}"
    );
    assert_eq!(drawing::Document::from_slice(decoded.as_bytes()), Ok(doc));
}

/// SOAP encoding's `root` attribute is a boolean restricted by the pattern `0|1`: written as
/// `true` it would be invalid, so its serializer writes the other form, which its own
/// conversion accepts.
#[test]
fn a_pattern_on_a_booleans_form_is_written_as_it_asks() {
    use xwire::bind::write::Lexical;
    for (v, want) in [(true, "1"), (false, "0")] {
        let mut out = String::from("x");
        soap_encoding::Root(v).lexical(&mut out);
        assert_eq!(out, format!("x{want}"));
    }
    // Without a pattern the first form stands.
    let mut out = String::new();
    true.lexical(&mut out);
    assert_eq!(out, "true");
}
