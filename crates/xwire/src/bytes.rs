//! Word-at-a-time helpers for short byte strings, shared by the reader, its interner and the
//! layers above: equality without a `memcmp` call, and a string's first eight bytes as one word.
//!
//! They are hot in the way the reader's own scanning is: names and values are mostly a few
//! bytes long, and a call or a loop per byte costs more than the work itself.
//!
//! ```
//! use xwire::bytes::{first_eight, same_bytes};
//!
//! assert!(same_bytes(b"xsd:double", b"xsd:double"));
//! assert_eq!(first_eight(b"42") as u16, u16::from_le_bytes(*b"42"));
//! ```

/// String equality for namespace URIs: the same URI is often the same slice of the input,
/// or the same constant (a source keeps the well-known ones as constants), and then two
/// pointers say so; otherwise as [`same_bytes`].
///
/// ```
/// const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// assert!(xwire::bytes::same_str(XSI, XSI));
/// assert!(xwire::bytes::same_str(&XSI.to_string(), XSI));
/// assert!(!xwire::bytes::same_str("urn:x", XSI));
/// ```
#[inline(always)]
pub fn same_str(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || same_bytes(a.as_bytes(), b.as_bytes())
}

/// Byte equality that stays inline for short names and values (a libc `memcmp` call costs
/// more than the comparison itself): up to 16 bytes are compared as two overlapping words,
/// up to 64 (namespace URIs) a word at a time.
/// Always inline: the reader's step, inlined into its callers, had stopped inlining it.
///
/// ```
/// assert!(xwire::bytes::same_bytes(b"xsd:double", b"xsd:double"));
/// assert!(!xwire::bytes::same_bytes(b"xsd:double", b"xsd:decimal"));
/// ```
#[inline(always)]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    #[inline(always)]
    fn w8(x: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(x[at..at + 8].try_into().expect("8 bytes"))
    }
    #[inline(always)]
    fn w4(x: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(x[at..at + 4].try_into().expect("4 bytes"))
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        // Namespace URIs: a word at a time, the last word overlapping.
        17..=64 => {
            let mut i = 0;
            while i + 8 < n {
                if w8(a, i) != w8(b, i) {
                    return false;
                }
                i += 8;
            }
            w8(a, n - 8) == w8(b, n - 8)
        }
        _ => a == b,
    }
}

/// The first eight bytes of `b` as a little-endian word, zero-padded when `b` is shorter,
/// built from (possibly overlapping) loads of its first and last bytes instead of a byte
/// loop. The interner hashes names with it, and the schema crate's number lexers read
/// digits and classify bytes a word at a time from it.
///
/// ```
/// use xwire::bytes::first_eight;
///
/// assert_eq!(first_eight(b"xs:int"), u64::from_le_bytes(*b"xs:int\0\0"));
/// assert_eq!(first_eight(b"0123456789"), u64::from_le_bytes(*b"01234567"));
/// assert_eq!(first_eight(b""), 0);
/// ```
#[inline]
pub fn first_eight(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 8 {
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    } else if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
        lo | (hi << (8 * (n - 4)))
    } else if n >= 2 {
        let lo = u16::from_le_bytes([b[0], b[1]]) as u64;
        let hi = u16::from_le_bytes([b[n - 2], b[n - 1]]) as u64;
        lo | (hi << (8 * (n - 2)))
    } else if n == 1 {
        b[0] as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_eight_is_the_padded_prefix() {
        for n in 0..12 {
            let b: Vec<u8> = (1..=n as u8).collect();
            let mut w = [0u8; 8];
            let k = n.min(8);
            w[..k].copy_from_slice(&b[..k]);
            assert_eq!(first_eight(&b), u64::from_le_bytes(w), "length {n}");
        }
    }

    #[test]
    fn same_bytes_agrees_with_slice_equality() {
        for n in 0..80usize {
            let a: Vec<u8> = (0..n as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            for k in 0..n {
                let mut b = a.clone();
                b[k] ^= 0x20;
                assert!(!same_bytes(&a, &b), "length {n}, differs at {k}");
            }
            assert!(!same_bytes(&a, &a[..n.saturating_sub(1)]) || n == 0);
        }
    }
}
