//! Purchase orders in the shapes of the XML Schema Primer: many `po.xml` orders under one root
//! (the `po` workload), one `po.xml` order with many items, and the international `ipo.xml`
//! variant with a target namespace and `xsi:type` addresses. Each writes until the document
//! reaches about the requested size, then closes it.

use std::fmt::Write;

use super::Rng;

use super::text::{date, records_until, FIRST, LAST};
const STREETS: &[&str] = &[
    "Maple Street",
    "Oak Avenue",
    "Elm Road",
    "Pine Lane",
    "Cedar Court",
];
const CITIES: &[(&str, &str)] = &[
    ("Mill Valley", "CA"),
    ("Old Town", "PA"),
    ("Springfield", "IL"),
    ("Portland", "OR"),
];
const PRODUCTS: &[&str] = &[
    "Lawnmower",
    "Baby Monitor",
    "Lapis necklace",
    "Sturdy Shelves",
    "Garden hose & reel",
    "Desk <lamp>",
    "Coffee grinder",
];

fn address(out: &mut String, tag: &str, rng: &mut Rng) {
    let (city, state) = *rng.pick(CITIES);
    let _ = write!(
        out,
        "    <{tag} country=\"US\">\n      <name>{} {}</name>\n      <street>{} {}</street>\n      <city>{city}</city>\n      <state>{state}</state>\n      <zip>{}</zip>\n    </{tag}>\n",
        rng.pick(FIRST),
        escape(rng.pick::<&str>(LAST)),
        100 + rng.below(9900),
        rng.pick(STREETS),
        10000 + rng.below(89999),
    );
}

/// Escapes `&`, `<` and `'` for text and single-quoted attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('\'', "&apos;")
}

/// Purchase orders in the shape of the XML Schema Primer's `po.xml`, many to a document, under
/// a namespaced root (`apo:purchaseOrders`; the orders' own elements are unqualified, as with
/// the Primer's `elementFormDefault="unqualified"`).
pub fn purchase_orders(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<apo:purchaseOrders xmlns:apo=\"http://www.example.com/PO1\">\n",
    );
    let mut n = 0u64;
    records_until(&mut out, size, 0, |out| {
        n += 1;
        let _ = writeln!(
            out,
            "  <apo:purchaseOrder orderDate=\"2026-{:02}-{:02}\" id=\"po{n}\">",
            1 + rng.below(12),
            1 + rng.below(28)
        );
        address(out, "shipTo", &mut rng);
        address(out, "billTo", &mut rng);
        if rng.below(3) == 0 {
            out.push_str("    <comment>Hurry, my lawn is going wild!</comment>\n");
        }
        out.push_str("    <items>\n");
        for _ in 0..1 + rng.below(6) {
            let _ = write!(
                out,
                "      <item partNum=\"{:03}-{}{}\">\n        <productName>{}</productName>\n        <quantity>{}</quantity>\n        <USPrice>{}.{:02}</USPrice>\n",
                rng.below(1000),
                (b'A' + rng.below(26) as u8) as char,
                (b'A' + rng.below(26) as u8) as char,
                escape(rng.pick::<&str>(PRODUCTS)),
                1 + rng.below(99),
                rng.below(500),
                rng.below(100),
            );
            if rng.below(4) == 0 {
                out.push_str("        <comment>Confirm this is electric</comment>\n");
            }
            if rng.below(2) == 0 {
                let _ = writeln!(
                    out,
                    "        <shipDate>2026-{:02}-{:02}</shipDate>",
                    1 + rng.below(12),
                    1 + rng.below(28)
                );
            }
            out.push_str("      </item>\n");
        }
        out.push_str("    </items>\n  </apo:purchaseOrder>\n");
    });
    out.push_str("</apo:purchaseOrders>\n");
    out.into_bytes()
}

/// An `<item>` of the Primer's `Items` type; `comment` is the element name of its comment.
fn item(out: &mut String, rng: &mut Rng, comment: &str) {
    let _ = write!(
        out,
        "    <item partNum=\"{:03}-{}{}\">\n      <productName>{}</productName>\n      <quantity>{}</quantity>\n      <USPrice>{}.{:02}</USPrice>\n",
        rng.below(1000),
        (b'A' + rng.below(26) as u8) as char,
        (b'A' + rng.below(26) as u8) as char,
        escape(rng.pick::<&str>(PRODUCTS)),
        1 + rng.below(99),
        rng.below(500),
        rng.below(100),
    );
    if rng.below(4) == 0 {
        let _ = writeln!(out, "      <{comment}>Confirm this is electric</{comment}>");
    }
    if rng.below(2) == 0 {
        let _ = writeln!(out, "      <shipDate>{}</shipDate>", date(rng));
    }
    out.push_str("    </item>\n");
}

/// One purchase order of the Primer's `po.xml` (no target namespace, valid against
/// `schemas/po.xsd`), with as many items as make about `size` bytes.
pub fn po_primer(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\"?>\n<purchaseOrder orderDate=\"{}\">",
        date(&mut rng)
    );
    address(&mut out, "shipTo", &mut rng);
    address(&mut out, "billTo", &mut rng);
    out.push_str("  <comment>Hurry, my lawn is going wild!</comment>\n  <items>\n");
    // The closing tags take about 40 bytes.
    records_until(&mut out, size, 40, |out| item(out, &mut rng, "comment"));
    out.push_str("  </items>\n</purchaseOrder>\n");
    out.into_bytes()
}

const US_STATES: &[(&str, &str)] = &[
    ("Old Town", "PA"),
    ("Anchorage", "AK"),
    ("Mobile", "AL"),
    ("Little Rock", "AR"),
    ("Mill Valley", "CA"),
];
const UK: &[(&str, &str)] = &[
    ("Cambridge", "CB1 1JR"),
    ("London", "SW1 2AA"),
    ("Oxford", "OX1 3BG"),
    ("Leeds", "LS2 9JT"),
];

/// An address of the Primer's international order: `ipo:USAddress` or `ipo:UKAddress`, named by
/// `xsi:type`.
fn ipo_address(out: &mut String, tag: &str, rng: &mut Rng) {
    let name = format!("{} {}", rng.pick(FIRST), escape(rng.pick::<&str>(LAST)));
    let street = format!("{} {}", 1 + rng.below(200), rng.pick(STREETS));
    if rng.below(2) == 0 {
        let (city, postcode) = *rng.pick(UK);
        let _ = write!(
            out,
            "  <{tag} exportCode=\"1\" xsi:type=\"ipo:UKAddress\">\n    <name>{name}</name>\n    <street>{street}</street>\n    <city>{city}</city>\n    <postcode>{postcode}</postcode>\n  </{tag}>\n"
        );
    } else {
        let (city, state) = *rng.pick(US_STATES);
        let _ = write!(
            out,
            "  <{tag} xsi:type=\"ipo:USAddress\">\n    <name>{name}</name>\n    <street>{street}</street>\n    <city>{city}</city>\n    <state>{state}</state>\n    <zip>{}</zip>\n  </{tag}>\n",
            10000 + rng.below(89999)
        );
    }
}

/// One international purchase order of the Primer's `ipo.xml`: target namespace
/// `http://www.example.com/IPO` with unqualified local elements, addresses typed by
/// `xsi:type`, a qualified `ipo:comment`; valid against `schemas/ipo.xsd`.
pub fn ipo(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    let _ = writeln!(
        out,
        concat!(
            "<?xml version=\"1.0\"?>\n<ipo:purchaseOrder ",
            "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" ",
            "xmlns:ipo=\"http://www.example.com/IPO\" orderDate=\"{}\">"
        ),
        date(&mut rng)
    );
    ipo_address(&mut out, "shipTo", &mut rng);
    ipo_address(&mut out, "billTo", &mut rng);
    out.push_str("  <ipo:comment>Hurry, my lawn is going wild!</ipo:comment>\n  <items>\n");
    records_until(&mut out, size, 40, |out| item(out, &mut rng, "ipo:comment"));
    out.push_str("  </items>\n</ipo:purchaseOrder>\n");
    out.into_bytes()
}
