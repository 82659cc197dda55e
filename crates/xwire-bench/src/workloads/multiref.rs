//! SOAP 1.1 multi-reference encoding (section 5.4.1 of SOAP 1.1): values referenced with
//! `href="#id"` and serialized once as `multiRef` accessors with `id="id"`, placed at the end
//! of the Body after the operation element, so that every reference points forward.

use std::fmt::Write;

use super::text::{envelope_close, envelope_open, escape, sentence, ENCODING};
use super::Rng;

/// A graph of nodes (an int, a string, a `next` edge and sometimes a `link` edge to a later
/// node) as multi-ref accessors, about `size` bytes. Edges only go from a node to later ones,
/// so every `href` names an `id` further down.
pub fn graph(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    // About 330 bytes a node.
    let n = (size / 330).max(2);
    let mut out = String::with_capacity(size + 1024);
    envelope_open(&mut out, "");
    let _ = writeln!(
        out,
        "<ns1:echoGraph xmlns:ns1=\"http://soapinterop.org/\" xmlns:ns2=\"http://soapinterop.org/xsd\" {ENCODING}>\n<inputGraph href=\"#id0\"/>\n</ns1:echoGraph>"
    );
    for i in 0..n {
        let _ = write!(
            out,
            "<multiRef id=\"id{i}\" soapenc:root=\"0\" {ENCODING} xsi:type=\"ns2:Node\" xmlns:ns2=\"http://soapinterop.org/xsd\">\n<value xsi:type=\"xsd:int\">{}</value>\n<label xsi:type=\"xsd:string\">{}</label>\n",
            rng.below(1_000_000),
            escape(&sentence(&mut rng, 2)),
        );
        if i + 1 < n {
            let _ = writeln!(out, "<next href=\"#id{}\"/>", i + 1);
        }
        if i + 2 < n && rng.below(2) == 0 {
            let to = i + 2 + rng.below((n - i - 2) as u64) as usize;
            let _ = writeln!(out, "<link href=\"#id{to}\"/>");
        }
        out.push_str("</multiRef>\n");
    }
    envelope_close(&mut out);
    out.into_bytes()
}

/// An `echoStringArray` request of about `size` bytes whose items are mostly references to a
/// few shared strings (serialized once each as `multiRef` at the end of the Body); one item in
/// eight is an inline string.
pub fn shared_strings(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    // About 30 bytes an item; one shared string per 20 items.
    let n = (size / 30).max(1);
    let shared = n.div_ceil(20);
    let mut items = String::with_capacity(n * 30);
    for _ in 0..n {
        if rng.below(8) == 0 {
            let _ = writeln!(
                items,
                "<item xsi:type=\"xsd:string\">{}</item>",
                escape(&sentence(&mut rng, 2))
            );
        } else {
            let _ = writeln!(items, "<item href=\"#s{}\"/>", rng.below(shared as u64));
        }
    }
    let mut out = String::with_capacity(size + 1024);
    envelope_open(&mut out, "");
    let _ = write!(
        out,
        "<ns1:echoStringArray xmlns:ns1=\"http://soapinterop.org/\" {ENCODING}>\n<inputStringArray soapenc:arrayType=\"xsd:string[{n}]\" xsi:type=\"soapenc:Array\">\n{items}</inputStringArray>\n</ns1:echoStringArray>\n"
    );
    for i in 0..shared {
        let _ = writeln!(
            out,
            "<multiRef id=\"s{i}\" soapenc:root=\"0\" {ENCODING} xsi:type=\"xsd:string\">{}</multiRef>",
            escape(&sentence(&mut rng, 3))
        );
    }
    envelope_close(&mut out);
    out.into_bytes()
}
