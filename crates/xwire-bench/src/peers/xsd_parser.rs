//! [`Op::Bind`] with the code the xsd-parser crate generates from the workloads' schemas: Rust
//! types and their quick-xml deserializers (its `QuickXmlDeserialize` render step; the build
//! script writes them to `OUT_DIR`). The deserializers read quick-xml's (0.38) namespace-aware
//! events from a `SliceReader` straight into the types; what they check is in the peer's
//! `checks`. Not on ipo.xsd: see `build.rs`.

use super::compiled::items_sum;
use super::{Engine, Lang, Op, Outcome, Peer, Setup};

// Generated code: every item is public, not every one is used here, and its deserializers
// have unused variables and needless `mut`s.
#[allow(unused, missing_docs, clippy::all, clippy::pedantic)]
mod po {
    include!(concat!(env!("OUT_DIR"), "/xsd_parser_po.rs"));
}

#[allow(unused, missing_docs, clippy::all, clippy::pedantic)]
mod purchase_orders {
    include!(concat!(env!("OUT_DIR"), "/xsd_parser_purchase_orders.rs"));
}

pub(super) fn peers() -> Vec<Peer> {
    vec![Peer {
        name: "xsd-parser",
        lang: Lang::Rust,
        checks: "what quick-xml 0.38 checks (end tags match their start tags, among \
                     others), then the generated deserializers (xsd-parser 1.5, \
                     which lists schema validation as planned): element order and names, \
                     unknown attributes, required elements, values that do not parse as \
                     their Rust type (integers, f64 for xs:decimal), and the facets kept \
                     (the SKU pattern, quantity < 100); not xs:positiveInteger's lower \
                     bound (a usize: 0 passes), dates (strings), fixed values (country), or \
                     content after the root; po.xsd and purchase-orders.xsd only (ipo's \
                     xsi:type addresses are followed for abstract types alone)",
        engine: Engine::InProcess(vec![(Op::Bind, Box::new(prepare))]),
    }]
}

/// The generated deserializer of the workload's schema.
fn prepare(setup: &Setup<'_>) -> Result<super::Runner, String> {
    let schema = setup.schema.ok_or("this workload has no schema")?;
    let run: fn(&[u8]) -> Outcome = match schema.file_name().and_then(|f| f.to_str()) {
        Some("po.xsd") => bind_po,
        Some("purchase-orders.xsd") => bind_purchase_orders,
        _ => return Err(super::NOT_HERE.to_string()),
    };
    Ok(Box::new(run))
}

/// Deserializes the document's root element as `T`.
fn read<T: xsd_parser_types::quick_xml::WithDeserializer>(doc: &[u8]) -> Result<T, String> {
    use xsd_parser_types::quick_xml::{DeserializeSync, SliceReader};
    T::deserialize(&mut SliceReader::from_bytes(doc)).map_err(|e| e.to_string())
}

fn bind_po(doc: &[u8]) -> Outcome {
    let o: po::PurchaseOrder = read(doc)?;
    Ok(items_sum(
        o.items
            .item
            .iter()
            .map(|i| (i.quantity.0 as u64, i.product_name.as_str())),
    ))
}

fn bind_purchase_orders(doc: &[u8]) -> Outcome {
    let all: purchase_orders::PurchaseOrders = read(doc)?;
    Ok(items_sum(
        all.purchase_order
            .iter()
            .flat_map(|o| &o.items.item)
            .map(|i| (i.quantity.0 as u64, i.product_name.as_str())),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xwire-compiled's `bind` runner for `setup`.
    fn compiled(setup: &Setup<'_>) -> super::super::Runner {
        let peer = super::super::all()
            .into_iter()
            .find(|p| p.name == "xwire-compiled")
            .expect("xwire-compiled");
        let Engine::InProcess(ops) = peer.engine else {
            panic!("xwire-compiled runs in process")
        };
        let (_, prepare) = ops.iter().find(|(op, _)| *op == Op::Bind).expect("bind");
        prepare(setup).expect("xwire-compiled prepares")
    }

    #[test]
    fn bind_sums_as_xwire_compiled() {
        for name in ["po-8k", "po"] {
            let w = crate::workloads::named(name).unwrap();
            let doc = w.load(if name == "po" { 200_000 } else { 0 }, 7).unwrap();
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: None,
            };
            let mut run = prepare(&setup).unwrap();
            let sum = run(&doc).unwrap();
            assert!(sum > 100, "{name}: {sum}");
            assert_eq!(Ok(sum), compiled(&setup)(&doc), "{name}");
            // What it checks, and two of what it does not (see `checks`).
            let doc = String::from_utf8(doc).unwrap();
            for (from, to, valid) in [
                ("<quantity>", "<quantity>x", false),
                ("<quantity>", "<quantity>10", false),
                ("partNum=\"", "partNum=\"x", false),
                ("<productName>", "<foo/><productName>", false),
                ("<quantity>1<", "<quantity>0<", true),
                ("<shipDate>", "<shipDate>x", true),
            ] {
                let bad = doc.replacen(from, to, 1);
                assert_ne!(bad, doc, "{name}: {from}");
                assert_eq!(run(bad.as_bytes()).is_ok(), valid, "{name}: {to}");
            }
        }
    }

    #[test]
    fn ipo_is_left_out() {
        let w = crate::workloads::named("ipo-8k").unwrap();
        let setup = Setup {
            schema: w.schema.as_deref(),
            document: None,
        };
        assert_eq!(
            prepare(&setup).err().as_deref(),
            Some(super::super::NOT_HERE)
        );
    }
}
