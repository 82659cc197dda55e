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

pub use crate::scan::same_bytes;

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
}
