//! MetaData Catalog Service (MCS) messages: a SOAP query for logical files by attribute
//! constraints, and the response listing the matching files with their attributes.

use std::fmt::Write;

use super::text::{envelope_close, envelope_open, escape, records_until, sentence, timestamp};
use super::Rng;

const ATTRS: &[(&str, &str)] = &[
    ("experiment", "string"),
    ("runNumber", "int"),
    ("temperature", "float"),
    ("detector", "string"),
    ("creationDate", "datetime"),
    ("calibrated", "string"),
];

fn value(rng: &mut Rng, ty: &str) -> String {
    match ty {
        "int" => rng.below(100_000).to_string(),
        "float" => format!("{:.3}", rng.unit() * 400.0),
        "datetime" => timestamp(rng),
        _ => escape(&sentence(rng, 2)),
    }
}

/// An MCS `queryByAttributes` request: object type, a conjunction of attribute constraints
/// (name, operator, type, value) and the attributes to return; about `size` bytes.
pub fn query(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    envelope_open(
        &mut out,
        "<mcs:credentials xmlns:mcs=\"urn:mcs:types\"><mcs:user>/O=Grid/OU=example.org/CN=Ada Lovelace</mcs:user></mcs:credentials>\n",
    );
    out.push_str("<mcs:queryByAttributes xmlns:mcs=\"urn:mcs:types\">\n<mcs:objectType>logical_file</mcs:objectType>\n<mcs:constraints logic=\"and\">\n");
    records_until(&mut out, size, 400, |out| {
        let (name, ty) = *rng.pick(ATTRS);
        let op = *rng.pick(&["=", "&lt;", "&gt;", "&lt;=", "like"]);
        let _ = writeln!(
            out,
            "<mcs:constraint><mcs:attribute name=\"{name}\" type=\"{ty}\"/><mcs:operator>{op}</mcs:operator><mcs:value>{}</mcs:value></mcs:constraint>",
            value(&mut rng, ty)
        );
    });
    out.push_str("</mcs:constraints>\n<mcs:returnAttributes>");
    for (name, _) in ATTRS {
        let _ = write!(out, "<mcs:name>{name}</mcs:name>");
    }
    out.push_str("</mcs:returnAttributes>\n</mcs:queryByAttributes>\n");
    envelope_close(&mut out);
    out.into_bytes()
}

/// An MCS query response: logical files (name, data type, version, creator, dates, collection,
/// valid flag) each with user-defined attributes; about `size` bytes.
pub fn response(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    envelope_open(&mut out, "");
    out.push_str("<mcs:queryByAttributesResponse xmlns:mcs=\"urn:mcs:types\">\n<mcs:result objectType=\"logical_file\">\n");
    let mut n = 0;
    records_until(&mut out, size, 200, |out| {
        let _ = writeln!(
            out,
            "<mcs:logicalFile name=\"lfn://example.org/run{}/file{n}.dat\" version=\"{}\" valid=\"{}\">\n<mcs:dataType>binary</mcs:dataType><mcs:creator>{}</mcs:creator><mcs:created>{}</mcs:created><mcs:modified>{}</mcs:modified><mcs:collection>run{}</mcs:collection>",
            rng.below(500),
            1 + rng.below(4),
            rng.below(8) != 0,
            escape(&sentence(&mut rng, 1)),
            timestamp(&mut rng),
            timestamp(&mut rng),
            rng.below(500)
        );
        for _ in 0..2 + rng.below(4) {
            let (name, ty) = *rng.pick(ATTRS);
            let _ = writeln!(
                out,
                "<mcs:attribute name=\"{name}\" type=\"{ty}\">{}</mcs:attribute>",
                value(&mut rng, ty)
            );
        }
        out.push_str("</mcs:logicalFile>\n");
        n += 1;
    });
    let _ = writeln!(
        out,
        "</mcs:result>\n<mcs:count>{n}</mcs:count>\n</mcs:queryByAttributesResponse>"
    );
    envelope_close(&mut out);
    out.into_bytes()
}
