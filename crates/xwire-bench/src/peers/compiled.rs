//! [`Op::Bind`]: documents read into typed objects. `xwire-compiled` runs the parsers
//! xwire-codegen generates from the workloads' schemas (the build script writes them to
//! `OUT_DIR`, as a user's would): parse, validate, deserialize in one pass (XML Screamer's
//! "business objects"), and for [`Op::Check`] the same code's validate-only API (nothing
//! built). `quick-xml-serde` is what Rust users write today: structs with
//! `#[derive(Deserialize)]` for po.xml, read by quick-xml's serde deserializer, which checks
//! no schema (quantities are `u8`, prices `f64`, dates strings).

use super::{Engine, Lang, Op, Outcome, Peer, Setup};

// Generated code: every item is public, not every one is used here.
#[allow(dead_code, missing_docs)]
mod po {
    include!(concat!(env!("OUT_DIR"), "/po.rs"));
}

#[allow(dead_code, missing_docs)]
mod ipo {
    include!(concat!(env!("OUT_DIR"), "/ipo.rs"));
}

#[allow(dead_code, missing_docs)]
mod purchase_orders {
    include!(concat!(env!("OUT_DIR"), "/purchase_orders.rs"));
}

#[allow(dead_code, missing_docs)]
mod numeric {
    include!(concat!(env!("OUT_DIR"), "/numeric.rs"));
}

#[allow(dead_code, missing_docs, clippy::large_enum_variant)]
mod soapinterop {
    include!(concat!(env!("OUT_DIR"), "/soapinterop.rs"));
}

// Variant names come from the schema's type names (`IntValue` in `Value`).
#[allow(
    dead_code,
    missing_docs,
    clippy::large_enum_variant,
    clippy::enum_variant_names
)]
mod mcs {
    include!(concat!(env!("OUT_DIR"), "/mcs.rs"));
}

pub(super) fn peers() -> Vec<Peer> {
    vec![
        Peer {
            name: "xwire-compiled",
            lang: Lang::Rust,
            checks: "everything the validator checks for these schemas (generated from po.xsd, \
                     ipo.xsd, purchase-orders.xsd, numeric.xsd and soapinterop.xsd by \
                     xwire-codegen), and every check of the reader; builds the typed objects \
                     (bind) or nothing (check)",
            engine: Engine::InProcess(vec![
                (Op::Bind, Box::new(prepare)),
                (Op::Check, Box::new(prepare_check)),
                (Op::Events, Box::new(prepare_events)),
            ]),
        },
        Peer {
            name: "xwire-compiled-anytype",
            lang: Lang::Rust,
            checks: "the generated event API's baseline (Document::events_any_type): the same \
                     sources, the root taken as xs:anyType, its content assessed laxly (elements \
                     with global declarations and xsi:types checked, every other name from the \
                     document); po.xsd's declarations, or the workload's own where its \
                     xsi:types name them (ipo, SOAP)",
            engine: Engine::InProcess(vec![(Op::Events, Box::new(prepare_events_any_type))]),
        },
        Peer {
            name: "quick-xml-serde",
            lang: Lang::Rust,
            checks: "what quick-xml checks (no namespace processing, no schema), then serde's \
                     shape: hand-written #[derive(Deserialize)] structs of po.xml (u8 \
                     quantities, f64 prices, dates as strings); po.xsd only (ipo's xsi:type \
                     families and namespaces are what serde cannot map)",
            engine: Engine::InProcess(vec![(Op::Bind, Box::new(prepare_serde))]),
        },
    ]
}

/// quick-xml + serde on po.xsd's documents.
fn prepare_serde(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    match schema.file_name().and_then(|f| f.to_str()) {
        Some("po.xsd") => Ok(Box::new(serde_po::bind)),
        _ => Err(super::NOT_HERE.to_string()),
    }
}

/// The structs a user writes for the Primer's po.xml, for quick-xml's deserializer.
mod serde_po {
    use serde::Deserialize;

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct PurchaseOrder {
        #[serde(rename = "@orderDate")]
        _order_date: Option<String>,
        #[serde(rename = "shipTo")]
        _ship_to: Address,
        #[serde(rename = "billTo")]
        _bill_to: Address,
        #[serde(rename = "comment")]
        _comment: Option<String>,
        items: Items,
    }

    #[derive(Deserialize)]
    struct Address {
        #[serde(rename = "@country")]
        _country: Option<String>,
        #[serde(rename = "name")]
        _name: String,
        #[serde(rename = "street")]
        _street: String,
        #[serde(rename = "city")]
        _city: String,
        #[serde(rename = "state")]
        _state: String,
        #[serde(rename = "zip")]
        _zip: String,
    }

    #[derive(Deserialize)]
    struct Items {
        #[serde(default)]
        item: Vec<Item>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Item {
        #[serde(rename = "@partNum")]
        _part_num: String,
        product_name: String,
        quantity: u8,
        #[serde(rename = "USPrice")]
        _us_price: f64,
        #[serde(rename = "comment")]
        _comment: Option<String>,
        #[serde(rename = "shipDate")]
        _ship_date: Option<String>,
    }

    pub(super) fn bind(doc: &[u8]) -> super::Outcome {
        let text = std::str::from_utf8(doc).map_err(|e| e.to_string())?;
        let po: PurchaseOrder = quick_xml::de::from_str(text).map_err(|e| e.to_string())?;
        Ok(super::items_sum(
            po.items
                .item
                .iter()
                .map(|i| (i.quantity, i.product_name.as_str())),
        ))
    }
}

/// The generated parser of the workload's schema.
fn prepare(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    let file = schema.file_name().and_then(|f| f.to_str()).unwrap_or("");
    let run: fn(&[u8]) -> Outcome = match file {
        "po.xsd" => bind_po,
        "ipo.xsd" => bind_ipo,
        "purchase-orders.xsd" => bind_purchase_orders,
        "numeric.xsd" => bind_numeric,
        "soapinterop.xsd" => bind_soap,
        "mcs.xsd" => bind_mcs,
        _ => return Err(super::NOT_HERE.to_string()),
    };
    Ok(Box::new(run))
}

/// The generated validate-only parser of the workload's schema: the document's length when
/// it is valid.
fn prepare_check(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    let file = schema.file_name().and_then(|f| f.to_str()).unwrap_or("");
    let check: fn(&[u8]) -> Result<(), xwire::bind::Error> = match file {
        "po.xsd" => po::Document::validate,
        "ipo.xsd" => ipo::Document::validate,
        "purchase-orders.xsd" => purchase_orders::Document::validate,
        "numeric.xsd" => numeric::Document::validate,
        "soapinterop.xsd" => soapinterop::Document::validate,
        "mcs.xsd" => mcs::Document::validate,
        _ => return Err(super::NOT_HERE.to_string()),
    };
    Ok(Box::new(move |doc: &[u8]| {
        check(doc).map_err(|e| e.to_string())?;
        Ok(doc.len() as u64)
    }))
}

/// The checksum of `events`: elements + attributes + bytes of the text events that are not
/// white space alone.
#[derive(Default)]
struct Count(u64);

impl xwire::bind::events::Handler for Count {
    fn start(&mut self, _ns: &str, _local: &str) {
        self.0 += 1;
    }
    fn attribute(&mut self, _ns: &str, _local: &str, _value: &str) {
        self.0 += 1;
    }
    fn text(&mut self, text: &str) {
        if !text.bytes().all(|b| b.is_ascii_whitespace()) {
            self.0 += text.len() as u64;
        }
    }
}

type EventsFn = fn(&[u8], &mut Count) -> Result<(), xwire::bind::Error>;

/// A runner of one of the generated event functions.
fn events_runner(events: EventsFn) -> super::Runner {
    Box::new(move |doc: &[u8]| {
        let mut count = Count::default();
        events(doc, &mut count).map_err(|e| e.to_string())?;
        Ok(count.0)
    })
}

/// The generated event API of the workload's schema.
fn prepare_events(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    let events: EventsFn = match schema.file_name().and_then(|f| f.to_str()) {
        Some("po.xsd") => po::Document::events,
        Some("ipo.xsd") => ipo::Document::events,
        Some("purchase-orders.xsd") => purchase_orders::Document::events,
        Some("numeric.xsd") => numeric::Document::events,
        Some("soapinterop.xsd") => soapinterop::Document::events,
        Some("mcs.xsd") => mcs::Document::events,
        _ => return Err(super::NOT_HERE.to_string()),
    };
    Ok(events_runner(events))
}

/// The same events with the root as `xs:anyType`, on the workloads `prepare_events` runs:
/// a schema's generated baseline (`Document::events_any_type`), which assesses the root's
/// content laxly as the object readers do: elements with a global declaration and
/// `xsi:type`s naming the schema's complex types are read as the schema says, `xsi:type`s
/// naming simple types check their text, every other name comes from the document.
/// po.xsd's baseline, which declares none of the content's elements on these workloads (the
/// workloads' own schemas declare the `po` orders, numeric's arrays, the MCS query and the
/// SOAP Body globally, and would check them all), except where the documents' `xsi:type`s
/// name types only their own schema has (ipo's addresses, SOAP arrays): its own there.
fn prepare_events_any_type(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    let events: EventsFn = match schema.file_name().and_then(|f| f.to_str()) {
        Some("ipo.xsd") => ipo::Document::events_any_type,
        Some("soapinterop.xsd") => soapinterop::Document::events_any_type,
        _ => {
            drop(prepare_events(setup)?);
            po::Document::events_any_type
        }
    };
    Ok(events_runner(events))
}

/// What `bind` says of a root no global element names (typed by its `xsi:type` alone): no
/// workload has one.
const UNDECLARED: &str = "the root is not a global element of the schema";

/// The checksum of `bind`: items + quantities + bytes of product names, over every order.
pub(super) fn items_sum<'a, Q: Into<u64>>(items: impl Iterator<Item = (Q, &'a str)>) -> u64 {
    items
        .map(|(qty, name)| 1 + qty.into() + name.len() as u64)
        .sum()
}

fn bind_po(doc: &[u8]) -> Outcome {
    match po::Document::from_slice(doc).map_err(|e| e.to_string())? {
        po::Document::PurchaseOrder(o) => Ok(items_sum(
            o.items
                .item
                .iter()
                .map(|i| (i.quantity, i.product_name.as_str())),
        )),
        po::Document::Comment(c) => Ok(c.len() as u64),
        po::Document::Undeclared(_) => Err(UNDECLARED.into()),
    }
}

fn bind_ipo(doc: &[u8]) -> Outcome {
    match ipo::Document::from_slice(doc).map_err(|e| e.to_string())? {
        ipo::Document::PurchaseOrder(o) => Ok(items_sum(
            o.items
                .iter()
                .flat_map(|items| &items.item)
                .map(|i| (i.quantity, i.product_name.as_str())),
        )),
        ipo::Document::Comment(c) => Ok(c.len() as u64),
        ipo::Document::Undeclared(_) => Err(UNDECLARED.into()),
    }
}

fn bind_purchase_orders(doc: &[u8]) -> Outcome {
    match purchase_orders::Document::from_slice(doc).map_err(|e| e.to_string())? {
        purchase_orders::Document::PurchaseOrders(all) => Ok(items_sum(
            all.purchase_order
                .iter()
                .flat_map(|o| &o.items.item)
                .map(|i| (i.quantity, i.product_name.as_str())),
        )),
        purchase_orders::Document::PurchaseOrder(o) => Ok(items_sum(
            o.items
                .item
                .iter()
                .map(|i| (i.quantity, i.product_name.as_str())),
        )),
        purchase_orders::Document::Undeclared(_) => Err(UNDECLARED.into()),
    }
}

/// The checksum of `bind` on the numeric model: its indices and values, each converted.
fn bind_numeric(doc: &[u8]) -> Outcome {
    let (indices, values) = match numeric::Document::from_slice(doc).map_err(|e| e.to_string())? {
        numeric::Document::Model(m) => (m.indices.i.len(), m.values.d.len()),
        numeric::Document::Indices(i) => (i.i.len(), 0),
        numeric::Document::Values(v) => (0, v.d.len()),
        numeric::Document::Undeclared(_) => return Err(UNDECLARED.into()),
    };
    Ok((indices + values) as u64)
}

/// The checksum of `bind` on a SOAP message: the values its operation carries (an array's
/// items; one string or struct).
fn bind_soap(doc: &[u8]) -> Outcome {
    use soapinterop::Document as D;
    let doc = soapinterop::Document::from_slice(doc).map_err(|e| e.to_string())?;
    let D::Envelope(envelope) = doc else {
        return Err("not a SOAP envelope".into());
    };
    let [xwire::bind::Any::Known(operation)] = envelope.body.any.as_slice() else {
        return Err("the Body holds no one operation the schema declares".into());
    };
    let items = |a: &soapinterop::Array| a.array.as_ref().map_or(0, |g| g.any.len());
    Ok(match &**operation {
        D::EchoIntegerArray(op) => match &op.choice {
            soapinterop::EchoIntegerArrayChoice::InputArray(a)
            | soapinterop::EchoIntegerArrayChoice::InputIntegerArray(a) => items(a),
        },
        D::EchoIntegerArrayResponse(r) => items(&r.r#return),
        D::EchoStringArray(op)
        | D::EchoDoubleArray(op)
        | D::EchoFloatArray(op)
        | D::EchoBase64Array(op)
        | D::EchoStructArray(op) => items(&op.input_array),
        D::EchoString(_)
        | D::EchoStringResponse(_)
        | D::EchoStruct(_)
        | D::EchoStructResponse(_) => 1,
        _ => return Err("not an echo operation".into()),
    } as u64)
}

/// The checksum of `bind` on an MCS query: its constraints and the attributes it asks for.
fn bind_mcs(doc: &[u8]) -> Outcome {
    let doc = mcs::Document::from_slice(doc).map_err(|e| e.to_string())?;
    let mcs::Document::Envelope(envelope) = doc else {
        return Err("not a SOAP envelope".into());
    };
    let [xwire::bind::Any::Known(operation)] = envelope.body.any.as_slice() else {
        return Err("the Body holds no one operation the schema declares".into());
    };
    let mcs::Document::QueryByAttributes(q) = &**operation else {
        return Err("not an MCS query".into());
    };
    Ok((q.constraints.constraint.len() + q.return_attributes.name.len()) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `bind` checksum of an order document, counted from the reader's events: one per
    /// `item`, plus its `quantity`, plus the bytes of its `productName`.
    fn items_sum_of_events(doc: &[u8]) -> u64 {
        let mut r = xwire::Reader::from_slice(doc);
        let (mut sum, mut field) = (0u64, "");
        loop {
            match r.next().unwrap() {
                xwire::Event::Start(t) => {
                    field = match t.local_name() {
                        "item" => {
                            sum += 1;
                            ""
                        }
                        "quantity" => "quantity",
                        "productName" => "productName",
                        _ => "",
                    }
                }
                xwire::Event::Text(t) => match field {
                    "quantity" => sum += t.unescape().trim().parse::<u64>().unwrap(),
                    "productName" => sum += t.unescape().len() as u64,
                    _ => {}
                },
                xwire::Event::End(_) => field = "",
                xwire::Event::Eof => return sum,
                _ => {}
            }
        }
    }

    #[test]
    fn bind_reads_every_order_workload_into_objects() {
        for name in ["po-8k", "ipo-8k", "po"] {
            let w = crate::workloads::named(name).unwrap();
            let doc = w.load(if name == "po" { 200_000 } else { 0 }, 7).unwrap();
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: None,
            };
            let mut run = prepare(&setup).unwrap();
            assert_eq!(run(&doc), Ok(items_sum_of_events(&doc)), "{name}");
            if name == "po-8k" {
                let mut serde = prepare_serde(&setup).unwrap();
                assert_eq!(
                    serde(&doc),
                    Ok(items_sum_of_events(&doc)),
                    "serde on {name}"
                );
            }
            // An invalid document is an error, as for `validate`.
            let bad = String::from_utf8(doc)
                .unwrap()
                .replacen("<quantity>", "<quantity>x", 1);
            assert!(run(bad.as_bytes()).is_err(), "{name}");
        }
    }

    /// The numeric and SOAP workloads: (name, the `bind` checksum, 0 where it is counted
    /// from the document, and a way to break the document that the schema catches).
    const TYPED: &[(&str, u64, (&str, &str))] = &[
        ("numeric-1k", 2_000, ("<i>", "<i>x")),
        ("arrays-int-100", 100, ("xsd:int\">", "xsd:int\">x")),
        (
            "arrays-double-100",
            100,
            ("xsd:double\">", "xsd:double\">x"),
        ),
        (
            "arrays-struct-100",
            100,
            ("<varInt xsi:type=\"xsd:int\">", "<varInt>x"),
        ),
        (
            "soap-echo-struct-req",
            1,
            ("<varInt xsi:type=\"xsd:int\">", "<varInt>x"),
        ),
        ("soap-echo-int-array-res", 0, ("xsd:int\">", "xsd:int\">x")),
        ("mcs-query", 0, ("</mcs:operator>", "x</mcs:operator>")),
    ];

    /// Elements of `doc` named `local` in any namespace, counted by the reader.
    fn count_elements(doc: &[u8], locals: &[&str]) -> u64 {
        let mut r = xwire::Reader::from_slice(doc);
        let mut n = 0;
        loop {
            match r.next().unwrap() {
                xwire::Event::Start(t) if locals.contains(&t.local_name()) => n += 1,
                xwire::Event::Eof => return n,
                _ => {}
            }
        }
    }

    #[test]
    fn bind_reads_numeric_and_soap_workloads_into_objects() {
        for &(name, sum, (from, to)) in TYPED {
            let w = crate::workloads::named(name).unwrap();
            let doc = w.load(0, 7).unwrap();
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: None,
            };
            let mut run = prepare(&setup).unwrap();
            let mut check = prepare_check(&setup).unwrap();
            let got = run(&doc).unwrap();
            // An echo response's items and a query's parts, as the generator chose them.
            let counted = match name {
                "mcs-query" => count_elements(&doc, &["constraint", "name"]),
                _ => count_elements(&doc, &["item"]),
            };
            assert_eq!(got, if sum == 0 { counted } else { sum }, "{name}");
            assert_eq!(check(&doc), Ok(doc.len() as u64), "{name}");
            let bad = String::from_utf8(doc).unwrap().replacen(from, to, 1);
            assert!(run(bad.as_bytes()).is_err(), "{name}");
            assert!(check(bad.as_bytes()).is_err(), "{name}");
        }
    }

    #[test]
    fn events_with_and_without_the_schema_count_the_same() {
        let typed = TYPED.iter().map(|t| t.0);
        for name in ["po-8k", "ipo-8k", "po"].into_iter().chain(typed) {
            let w = crate::workloads::named(name).unwrap();
            let doc = w.load(if name == "po" { 200_000 } else { 0 }, 7).unwrap();
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: None,
            };
            let mut events = prepare_events(&setup).unwrap();
            let mut any_type = prepare_events_any_type(&setup).unwrap();
            let sum = events(&doc).unwrap();
            assert!(sum > doc.len() as u64 / 8, "{name}: {sum}");
            assert_eq!(any_type(&doc), Ok(sum), "{name}");
            // The schema's events check it; the baseline's only well-formedness.
            let (from, to) = TYPED
                .iter()
                .find(|t| t.0 == name)
                .map_or(("<quantity>", "<quantity>x"), |t| t.2);
            let bad = String::from_utf8(doc).unwrap().replacen(from, to, 1);
            assert!(events(bad.as_bytes()).is_err(), "{name}");
            if !name.starts_with("arrays") && !name.starts_with("soap") {
                // SOAP items are checked laxly against their xsi:type even there.
                assert!(any_type(bad.as_bytes()).is_ok(), "{name}");
            }
        }
    }

    #[test]
    fn check_gives_the_length_of_valid_documents_only() {
        for name in ["po-8k", "ipo-8k", "po"] {
            let w = crate::workloads::named(name).unwrap();
            let doc = w.load(if name == "po" { 200_000 } else { 0 }, 7).unwrap();
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: None,
            };
            let mut run = prepare_check(&setup).unwrap();
            assert_eq!(run(&doc), Ok(doc.len() as u64), "{name}");
            let bad = String::from_utf8(doc)
                .unwrap()
                .replacen("<quantity>", "<quantity>x", 1);
            let err = run(bad.as_bytes()).unwrap_err();
            assert!(
                err.contains("quantity") || err.contains("integer"),
                "{name}: {err}"
            );
        }
    }
}
