//! Numeric data sets for binary XML: parallel arrays of 4-byte integer indices and 8-byte
//! doubles, the case binary encodings shrink most.

use std::fmt::Write;

use super::Rng;

/// The data of a model of `n` (index, value) pairs, as native arrays: `n` increasing `i32`
/// indices (steps of 1 to 8) and `n` doubles of mixed magnitudes (`(u - 0.5) * 10^k`, `u`
/// uniform in `[0, 1)`, `k` from -3 to 6), full precision. The same seed gives the same data
/// as the `numeric-*` workloads' documents hold (the BXSA experiment, [`crate::bxsa`], uses it).
pub fn pair_data(n: usize, seed: u64) -> (Vec<i32>, Vec<f64>) {
    let mut rng = Rng::new(seed);
    let mut index = 0i64;
    let indices = (0..n)
        .map(|_| {
            index += 1 + rng.below(8) as i64;
            i32::try_from(index).expect("at most 8 per pair: fits for n < 2^28")
        })
        .collect();
    let values = (0..n)
        .map(|_| (rng.unit() - 0.5) * 10f64.powi(rng.below(10) as i32 - 3))
        .collect();
    (indices, values)
}

/// A model of `n` (index, value) pairs: an array of `n` `xsd:int` indices, then an array of
/// `n` `xsd:double` values (full precision), one short element per value; the values of
/// [`pair_data`]. `n = 0` gives the two empty arrays.
pub fn pairs(n: usize, seed: u64) -> Vec<u8> {
    let (indices, values) = pair_data(n, seed);
    let mut out = String::with_capacity(n * 40 + 400);
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\"?>\n<num:model xmlns:num=\"urn:xwire:bench:numeric\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" pairs=\"{n}\">\n<num:indices type=\"xsd:int\" count=\"{n}\">"
    );
    for i in indices {
        let _ = write!(out, "<i>{i}</i>");
    }
    let _ = writeln!(
        out,
        "</num:indices>\n<num:values type=\"xsd:double\" count=\"{n}\">"
    );
    for v in values {
        let _ = write!(out, "<d>{v:e}</d>");
    }
    out.push_str("</num:values>\n</num:model>\n");
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_is_what_the_document_holds() {
        let (indices, values) = pair_data(50, 7);
        assert!(indices.windows(2).all(|w| w[0] < w[1]));
        let doc = String::from_utf8(pairs(50, 7)).unwrap();
        for i in &indices {
            assert!(doc.contains(&format!("<i>{i}</i>")));
        }
        for v in &values {
            assert!(doc.contains(&format!("<d>{v:e}</d>")));
        }
        // Mixed magnitudes.
        let big = values.iter().filter(|v| v.abs() > 100.0).count();
        let small = values.iter().filter(|v| v.abs() < 0.01).count();
        assert!(big > 0 && small > 0, "{values:?}");
    }
}
