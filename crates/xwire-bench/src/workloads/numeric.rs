//! Numeric data sets for binary XML: parallel arrays of 4-byte integer indices and 8-byte
//! doubles, the case binary encodings shrink most.

use std::fmt::Write;

use super::Rng;

/// A model of `n` (index, value) pairs: an array of `n` `xsd:int` indices, then an array of
/// `n` `xsd:double` values (full precision). `n = 0` gives the two empty arrays.
pub fn pairs(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(n * 40 + 400);
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\"?>\n<num:model xmlns:num=\"urn:xwire:bench:numeric\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" pairs=\"{n}\">\n<num:indices type=\"xsd:int\" count=\"{n}\">"
    );
    let mut index = 0u64;
    for _ in 0..n {
        index += 1 + rng.below(8);
        let _ = write!(out, "<i>{}</i>", index as u32);
    }
    let _ = writeln!(
        out,
        "</num:indices>\n<num:values type=\"xsd:double\" count=\"{n}\">"
    );
    for _ in 0..n {
        let v = (rng.unit() - 0.5) * 10f64.powi(rng.below(10) as i32 - 3);
        let _ = write!(out, "<d>{v:e}</d>");
    }
    out.push_str("</num:values>\n</num:model>\n");
    out.into_bytes()
}
