//! Pieces shared by the generators: escaping, base64, SOAP envelopes and word lists.

use super::Rng;

/// Escapes `&`, `<`, `>`, `"` and `'`, so the result fits text and either kind of attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `n` random bytes, base64-encoded.
pub fn random_base64(rng: &mut Rng, n: usize) -> String {
    let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
    base64(&bytes)
}

/// A date `2026-MM-DD`.
pub fn date(rng: &mut Rng) -> String {
    format!("2026-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28))
}

/// A timestamp `2026-MM-DDThh:mm:ss.mmmZ`.
pub fn timestamp(rng: &mut Rng) -> String {
    format!(
        "{}T{:02}:{:02}:{:02}.{:03}Z",
        date(rng),
        rng.below(24),
        rng.below(60),
        rng.below(60),
        rng.below(1000)
    )
}

/// A sentence of `words` words from a small vocabulary (with a few non-ASCII letters).
pub fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick::<&str>(WORDS));
    }
    s
}

/// A version-4-shaped UUID.
pub fn uuid(rng: &mut Rng) -> String {
    let a = rng.next_u64();
    let b = rng.next_u64();
    format!(
        "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

const WORDS: &[&str] = &[
    "grid",
    "service",
    "message",
    "node",
    "sensor",
    "value",
    "request",
    "catalog",
    "déjà",
    "workflow",
    "Straße",
    "event",
    "notify",
    "timeout",
    "ok",
    "retry",
    "queue",
    "batch",
    "checkpoint",
    "replica",
    "naïve",
    "latency",
    "commit",
];

pub const FIRST: &[&str] = &[
    "Alice", "Robert", "Chloé", "Dmitri", "Eve", "Fatima", "Günter", "Hiroshi", "Ines", "José",
];
pub const LAST: &[&str] = &[
    "Smith", "Jones", "Müller", "Kowalski", "Nguyen", "O'Brien", "García", "Tanaka", "Rossi",
];

/// Namespace declarations of a SOAP 1.1 envelope with encoding.
pub const SOAP_NS: &str = concat!(
    "xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" ",
    "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" ",
    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" ",
    "xmlns:soapenc=\"http://schemas.xmlsoap.org/soap/encoding/\""
);

/// `encodingStyle` attribute for SOAP-encoded operation elements.
pub const ENCODING: &str = "soapenv:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"";

/// Opens a SOAP 1.1 envelope (XML declaration, envelope, optional header, body).
pub fn envelope_open(out: &mut String, header: &str) {
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<soapenv:Envelope ");
    out.push_str(SOAP_NS);
    out.push_str(">\n");
    if !header.is_empty() {
        out.push_str("<soapenv:Header>\n");
        out.push_str(header);
        out.push_str("</soapenv:Header>\n");
    }
    out.push_str("<soapenv:Body>\n");
}

/// Closes what [`envelope_open`] opened.
pub fn envelope_close(out: &mut String) {
    out.push_str("</soapenv:Body>\n</soapenv:Envelope>\n");
}

/// Appends records written by `record` until `out` holds about `size` bytes, keeping `tail`
/// bytes for what closes the document; always at least one record, however small `size`.
pub fn records_until(
    out: &mut String,
    size: usize,
    tail: usize,
    mut record: impl FnMut(&mut String),
) {
    loop {
        record(out);
        if out.len() + tail >= size {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
        ] {
            assert_eq!(super::base64(i.as_bytes()), o);
        }
    }
}
