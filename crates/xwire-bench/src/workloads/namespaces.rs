//! Namespace-heavy documents: a signed WS-Security message in canonical form, and a list of
//! same-named elements nested across namespaces.

use std::fmt::Write;

use super::text::{escape, random_base64, records_until, sentence, timestamp, uuid};
use super::Rng;

const WSSE: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
const WSU: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
const DS: &str = "http://www.w3.org/2000/09/xmldsig#";
const EXC: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
const SOAP: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const WSA: &str = "http://www.w3.org/2005/08/addressing";

/// A `ds:Reference` to `#id` in exclusive-canonical form.
fn reference(out: &mut String, rng: &mut Rng, id: &str) {
    let _ = write!(
        out,
        "<ds:Reference URI=\"#{id}\"><ds:Transforms><ds:Transform Algorithm=\"{EXC}\"><ec:InclusiveNamespaces xmlns:ec=\"{EXC}\" PrefixList=\"soapenv\"></ec:InclusiveNamespaces></ds:Transform></ds:Transforms><ds:DigestMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#sha256\"></ds:DigestMethod><ds:DigestValue>{}</ds:DigestValue></ds:Reference>",
        random_base64(rng, 32)
    );
}

/// A SOAP message signed with WS-Security, as exclusive XML canonicalization leaves it (no
/// XML declaration, no empty-element tags, namespace declarations first and redeclared on
/// every signed element, attributes in order): a `wsse:Security` header with a timestamp, a
/// binary security token and a `ds:Signature` holding one `ds:Reference` per signed part;
/// WS-Addressing headers with `wsu:Id`; a body of about `size` bytes of signed records.
pub fn ws_security(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    // Each record and its reference take about 700 bytes.
    let records = (size.saturating_sub(4000) / 700).max(1);
    let mut ids: Vec<String> = vec![
        "TS-1".into(),
        "To-2".into(),
        "Action-3".into(),
        "MsgID-4".into(),
    ];
    let mut body = String::with_capacity(records * 400);
    let _ = write!(
        body,
        "<soapenv:Body xmlns:wsu=\"{WSU}\" wsu:Id=\"Body-5\"><m:submitBatch xmlns:m=\"urn:example:orders\">"
    );
    ids.push("Body-5".into());
    for i in 0..records {
        let id = format!("rec-{}", 6 + i);
        let _ = write!(
            body,
            "<m:record xmlns:m=\"urn:example:orders\" xmlns:wsu=\"{WSU}\" wsu:Id=\"{id}\"><m:created>{}</m:created><m:amount currency=\"EUR\">{}.{:02}</m:amount><m:note xml:lang=\"en\">{}</m:note></m:record>",
            timestamp(&mut rng),
            rng.below(100_000),
            rng.below(100),
            escape(&sentence(&mut rng, 5))
        );
        ids.push(id);
    }
    body.push_str("</m:submitBatch></soapenv:Body>");

    let mut out = String::with_capacity(size + records * 400 + 4096);
    let _ = write!(
        out,
        "<soapenv:Envelope xmlns:soapenv=\"{SOAP}\" xmlns:wsa=\"{WSA}\" xmlns:wsse=\"{WSSE}\" xmlns:wsu=\"{WSU}\"><soapenv:Header><wsse:Security soapenv:mustUnderstand=\"1\"><wsu:Timestamp wsu:Id=\"TS-1\"><wsu:Created>{}</wsu:Created><wsu:Expires>{}</wsu:Expires></wsu:Timestamp><wsse:BinarySecurityToken EncodingType=\"{WSSE}#Base64Binary\" ValueType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3\" wsu:Id=\"X509-0\">{}</wsse:BinarySecurityToken><ds:Signature xmlns:ds=\"{DS}\" Id=\"SIG-0\"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm=\"{EXC}\"><ec:InclusiveNamespaces xmlns:ec=\"{EXC}\" PrefixList=\"soapenv wsa\"></ec:InclusiveNamespaces></ds:CanonicalizationMethod><ds:SignatureMethod Algorithm=\"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256\"></ds:SignatureMethod>",
        timestamp(&mut rng),
        timestamp(&mut rng),
        random_base64(&mut rng, 700),
    );
    for id in &ids {
        reference(&mut out, &mut rng, id);
    }
    let _ = write!(
        out,
        "</ds:SignedInfo><ds:SignatureValue>{}</ds:SignatureValue><ds:KeyInfo Id=\"KI-0\"><wsse:SecurityTokenReference wsu:Id=\"STR-0\"><wsse:Reference URI=\"#X509-0\" ValueType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3\"></wsse:Reference></wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature></wsse:Security><wsa:To xmlns:wsu=\"{WSU}\" wsu:Id=\"To-2\">https://orders.example.com/batch</wsa:To><wsa:Action xmlns:wsu=\"{WSU}\" wsu:Id=\"Action-3\">urn:example:orders:submitBatch</wsa:Action><wsa:MessageID xmlns:wsu=\"{WSU}\" wsu:Id=\"MsgID-4\">urn:uuid:{}</wsa:MessageID></soapenv:Header>",
        random_base64(&mut rng, 256),
        uuid(&mut rng),
    );
    out.push_str(&body);
    out.push_str("</soapenv:Envelope>");
    out.into_bytes()
}

/// A linked list of `node` elements, each nested in the previous one and each in a different
/// namespace from its parent (`<a:node xmlns:a="urn:1"><b:node xmlns:b="urn:2">...`), with a
/// value and a position attribute; about `size` bytes. The list is cut into chains of 50 so the
/// depth stays bounded, and prefixes are reused for other namespaces along the chain.
pub fn nested_list(size: usize, seed: u64) -> Vec<u8> {
    const PREFIXES: &[&str] = &["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("<?xml version=\"1.0\"?>\n<list:lists xmlns:list=\"urn:xwire:bench:list\">\n");
    let mut pos = 0u64;
    let mut ns = 1;
    records_until(&mut out, size, 0, |out| {
        out.push_str("<list:chain>");
        let mut open = Vec::with_capacity(50);
        for depth in 0..50 {
            let prefix = PREFIXES[depth % PREFIXES.len()];
            // Never the parent's namespace.
            ns = 1 + (ns + rng.below(19)) % 20;
            let _ = write!(
                out,
                "<{prefix}:node xmlns:{prefix}=\"urn:{ns}\" {prefix}:pos=\"{pos}\"><{prefix}:value>{}</{prefix}:value>",
                rng.below(1 << 30)
            );
            pos += 1;
            open.push(prefix);
        }
        for prefix in open.iter().rev() {
            let _ = write!(out, "</{prefix}:node>");
        }
        out.push_str("</list:chain>\n");
    });
    out.push_str("</list:lists>\n");
    out.into_bytes()
}
