//! The generators. Each writes until the document reaches about the requested size, then
//! closes it; output is ASCII/UTF-8 and well-formed (checked by a test).

use std::fmt::Write;

use super::Rng;

const FIRST: &[&str] = &[
    "Alice", "Robert", "Chloé", "Dmitri", "Eve", "Fatima", "Günter", "Hiroshi", "Ines", "José",
];
const LAST: &[&str] = &[
    "Smith", "Jones", "Müller", "Kowalski", "Nguyen", "O'Brien", "García", "Tanaka", "Rossi",
];
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
    while out.len() < size {
        n += 1;
        let _ = writeln!(
            out,
            "  <apo:purchaseOrder orderDate=\"2026-{:02}-{:02}\" id=\"po{n}\">",
            1 + rng.below(12),
            1 + rng.below(28)
        );
        address(&mut out, "shipTo", &mut rng);
        address(&mut out, "billTo", &mut rng);
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
    }
    out.push_str("</apo:purchaseOrders>\n");
    out.into_bytes()
}

/// A SOAP 1.1 request carrying a SOAP-encoded array of doubles (`soapenc:arrayType`), with
/// `xsi:type="xsd:double"` on every item, as SOAP toolkits write them. 100,000 items make about
/// 5 MB; the item count scales with `size`.
pub fn soap_doubles(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    // About 50 bytes an item.
    let items = (size / 50).max(1);
    let mut out = String::with_capacity(size + 4096);
    let _ = write!(
        out,
        concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" ",
            "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" ",
            "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" ",
            "xmlns:soapenc=\"http://schemas.xmlsoap.org/soap/encoding/\">\n",
            "<soapenv:Body>\n",
            "<ns1:echoDoubleArray xmlns:ns1=\"http://soapinterop.org/\" ",
            "soapenv:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\">\n",
            "<inputDoubleArray soapenc:arrayType=\"xsd:double[{}]\" xsi:type=\"soapenc:Array\">\n"
        ),
        items
    );
    for _ in 0..items {
        let v = (rng.unit() - 0.5) * 10f64.powi(rng.below(12) as i32 - 4);
        let _ = writeln!(out, "<item xsi:type=\"xsd:double\">{v:e}</item>");
    }
    out.push_str(
        "</inputDoubleArray>\n</ns1:echoDoubleArray>\n</soapenv:Body>\n</soapenv:Envelope>\n",
    );
    out.into_bytes()
}

/// Mesh interface objects: (int, int, double) records with namespace prefixes, as a grid
/// application's data exchange writes them.
pub fn mesh(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(
        "<?xml version=\"1.0\"?>\n<mesh:MeshInterfaceObjects xmlns:mesh=\"urn:xwire:bench:mesh\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
    );
    while out.len() < size {
        let _ = writeln!(
            out,
            "<mesh:mio><mesh:i>{}</mesh:i><mesh:j>{}</mesh:j><mesh:value>{}</mesh:value></mesh:mio>",
            rng.below(1 << 20),
            rng.below(1 << 20),
            rng.unit() * 1000.0
        );
    }
    out.push_str("</mesh:MeshInterfaceObjects>\n");
    out.into_bytes()
}

/// The smallest document: one element, no attributes.
pub fn overhead(_size: usize, _seed: u64) -> Vec<u8> {
    b"<a/>".to_vec()
}
