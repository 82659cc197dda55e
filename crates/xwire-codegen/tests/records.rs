//! Streaming records (`Type::records`, `xwire::bind::Records`) from the parser generated for
//! the benchmark's purchase-orders.xsd (golden/purchase_orders.rs): the same orders as
//! `from_slice`, one at a time; a document the scanner leaves to the cursor halfway gives the
//! same records; an error ends the stream where it is, as `from_slice` reports it.

#[allow(dead_code)]
mod orders {
    include!("golden/purchase_orders.rs");
}

use orders::{Document, PurchaseOrders};

fn order(id: u32, qty: u32) -> String {
    format!(
        r#"<p:purchaseOrder id="o{id}" orderDate="2026-11-26">
    <shipTo country="US"><name>A</name><street>1 Main</street><city>X</city><state>CA</state><zip>90952</zip></shipTo>
    <billTo country="US"><name>B</name><street>2 Oak</street><city>Y</city><state>PA</state><zip>95819</zip></billTo>
    <items><item partNum="872-AA"><productName>Mower {id}</productName><quantity>{qty}</quantity><USPrice>148.95</USPrice></item></items>
  </p:purchaseOrder>"#
    )
}

fn document(orders: &[String]) -> String {
    format!(
        "<p:purchaseOrders xmlns:p=\"http://www.example.com/PO1\">\n  {}\n</p:purchaseOrders>\n",
        orders.join("\n  ")
    )
}

fn names(doc: &str) -> Vec<Result<String, String>> {
    PurchaseOrders::records(doc.as_bytes())
        .map(|r| {
            r.map(|o| o.items.item[0].product_name.to_string())
                .map_err(|e| e.to_string())
        })
        .collect()
}

#[test]
fn records_are_the_orders_of_the_whole_document() {
    let orders: Vec<String> = (1..=5).map(|i| order(i, i)).collect();
    let doc = document(&orders);
    let Document::PurchaseOrders(all) = Document::from_slice(doc.as_bytes()).unwrap() else {
        panic!("the root");
    };
    let streamed: Vec<_> = PurchaseOrders::records(doc.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(streamed, all.purchase_order);
    assert_eq!(names(&document(&[])), vec![], "no orders");
}

#[test]
fn a_comment_halfway_goes_to_the_cursor_without_repeating_records() {
    let mut orders: Vec<String> = (1..=4).map(|i| order(i, i)).collect();
    orders[2] = format!("<!-- the scanner stops here -->{}", orders[2]);
    let got = names(&document(&orders));
    let want: Vec<Result<String, String>> = (1..=4).map(|i| Ok(format!("Mower {i}"))).collect();
    assert_eq!(got, want);
}

#[test]
fn an_error_ends_the_stream_where_it_is() {
    let mut orders: Vec<String> = (1..=4).map(|i| order(i, i)).collect();
    orders[2] = order(3, 100); // quantity below 100
    let doc = document(&orders);
    let got = names(&doc);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[..2], [Ok("Mower 1".into()), Ok("Mower 2".into())]);
    let whole = Document::from_slice(doc.as_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(got[2], Err(whole), "the same error as the whole document's");
    // A duplicate ID.
    orders[2] = order(1, 1);
    let got = names(&document(&orders));
    assert!(
        got.last()
            .unwrap()
            .as_ref()
            .unwrap_err()
            .contains("cvc-id.2"),
        "{got:?}"
    );
    // A root that is one order, not the orders' root.
    let root = r#"<p:purchaseOrder xmlns:p="http://www.example.com/PO1""#;
    let got = names(&orders[0].replacen("<p:purchaseOrder", root, 1));
    assert!(
        got[0].as_ref().unwrap_err().contains("purchaseOrders"),
        "{got:?}"
    );
    // Something after the last record.
    let doc = document(&orders[..1]).replace("</p:purchaseOrders>", "<extra/></p:purchaseOrders>");
    let got = names(&doc);
    assert_eq!(got[0], Ok("Mower 1".into()));
    assert!(got[1].as_ref().unwrap_err().contains("extra"), "{got:?}");
    assert_eq!(got.len(), 2);
}
