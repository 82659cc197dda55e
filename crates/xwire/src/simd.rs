//! Vectorised scans for the two hottest loops: finding the end of a plain run of character data
//! and of an attribute value.
//!
//! On x86_64, SSE2 is part of the baseline, so no runtime detection is needed: 16 bytes are
//! classified per step with byte compares. Elsewhere the table-driven scalar loop of
//! [`find_class`] is used. Both must agree: a property test compares them.

use crate::chars::{self, CLASS};

/// First position at or after `pos` holding a byte that ends a plain text run
/// ([`chars::TEXT_STOP`]): `<`, `&`, `]`, `\r`, a forbidden control character, or any byte >= 0x80.
#[inline]
pub(crate) fn find_text_stop(data: &[u8], pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        x86::find(data, pos, false)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        find_class(data, pos, chars::TEXT_STOP)
    }
}

/// First position at or after `pos` holding a byte that ends a plain attribute-value run
/// ([`chars::ATTR_STOP`]): a quote, `<`, `&`, any control character, or any byte >= 0x80.
#[inline]
pub(crate) fn find_attr_stop(data: &[u8], pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        x86::find(data, pos, true)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        find_class(data, pos, chars::ATTR_STOP)
    }
}

/// First position at or after `pos` of a byte the writer must look at when escaping: `<`, `&`
/// and `>` (text) or `<`, `&` and `"` (attribute), control characters (in text, tab and line
/// feed pass), and 0xEF (the lead byte of U+FFFE / U+FFFF). `is_stop` gives the same answer
/// byte by byte; the scalar fallback uses it.
#[inline]
pub(crate) fn find_escape_stop(
    data: &[u8],
    pos: usize,
    attr: bool,
    is_stop: impl Fn(u8) -> bool,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    let pos = x86::skip_plain_escape(data, pos, attr);
    data[pos..]
        .iter()
        .position(|&b| is_stop(b))
        .map_or(data.len(), |k| pos + k)
}

/// First position at or after `pos` that is not XML white space (space, tab, line feed,
/// carriage return): the indentation between elements, 16 bytes a step.
#[inline]
pub(crate) fn skip_ws(data: &[u8], pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    let pos = x86::skip_ws(data, pos);
    skip_ws_scalar(data, pos)
}

/// Finds the first byte at or after `pos` whose class has any bit of `mask`; returns
/// `data.len()` if none: the scalar scan, for the tails the vector loops leave and for other
/// targets.
#[inline]
pub(crate) fn find_class(data: &[u8], mut pos: usize, mask: u8) -> usize {
    // 8 bytes per step on the common all-plain path: one table load per byte, no bounds checks
    // inside the (compiler-unrolled) block.
    while pos + 8 <= data.len() {
        let block: &[u8; 8] = data[pos..pos + 8].try_into().expect("8 bytes");
        if let Some(k) = block.iter().position(|&b| CLASS[b as usize] & mask != 0) {
            return pos + k;
        }
        pos += 8;
    }
    while pos < data.len() && CLASS[data[pos] as usize] & mask == 0 {
        pos += 1;
    }
    pos
}

/// [`skip_ws`] a byte at a time.
#[inline]
fn skip_ws_scalar(data: &[u8], mut pos: usize) -> usize {
    while pos < data.len() && CLASS[data[pos] as usize] & chars::WS != 0 {
        pos += 1;
    }
    pos
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use super::chars;
    use std::arch::x86_64::*;

    #[inline]
    pub(super) fn find(data: &[u8], mut pos: usize, attr: bool) -> usize {
        let mask = if attr {
            chars::ATTR_STOP
        } else {
            chars::TEXT_STOP
        };
        // SAFETY: SSE2 is enabled on every x86_64 target, so the intrinsics are available; every
        // load reads 16 bytes starting at `pos` with `pos + 16 <= data.len()`, inside the slice,
        // and `_mm_loadu_si128` has no alignment requirement.
        unsafe {
            let lt = _mm_set1_epi8(b'<' as i8);
            let amp = _mm_set1_epi8(b'&' as i8);
            let x20 = _mm_set1_epi8(0x20);
            let (a, b) = if attr { (b'"', b'\'') } else { (b']', b'\r') };
            let va = _mm_set1_epi8(a as i8);
            let vb = _mm_set1_epi8(b as i8);
            let tab = _mm_set1_epi8(b'\t' as i8);
            let nl = _mm_set1_epi8(b'\n' as i8);
            while pos + 16 <= data.len() {
                let v = _mm_loadu_si128(data.as_ptr().add(pos) as *const __m128i);
                let special = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, amp)),
                    _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                );
                // Signed compare: bytes >= 0x80 are negative, so this catches them with the
                // control characters.
                let low = _mm_cmplt_epi8(v, x20);
                let low = if attr {
                    low
                } else {
                    // Tab and line feed are ordinary text.
                    _mm_andnot_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, nl)),
                        low,
                    )
                };
                let m = _mm_movemask_epi8(_mm_or_si128(special, low));
                if m != 0 {
                    return pos + m.trailing_zeros() as usize;
                }
                pos += 16;
            }
        }
        super::find_class(data, pos, mask)
    }

    /// Skips white space while whole 16-byte blocks are left; the position of the first
    /// byte that is not white space, or of the tail.
    #[inline]
    pub(super) fn skip_ws(data: &[u8], mut pos: usize) -> usize {
        // SAFETY: as in `find`: SSE2 is baseline on x86_64, and every unaligned 16-byte load
        // lies inside `data` (`pos + 16 <= data.len()`).
        unsafe {
            let sp = _mm_set1_epi8(b' ' as i8);
            let tab = _mm_set1_epi8(b'\t' as i8);
            let nl = _mm_set1_epi8(b'\n' as i8);
            let cr = _mm_set1_epi8(b'\r' as i8);
            while pos + 16 <= data.len() {
                let v = _mm_loadu_si128(data.as_ptr().add(pos) as *const __m128i);
                let ws = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
                    _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr)),
                );
                let other = !_mm_movemask_epi8(ws) & 0xFFFF;
                if other != 0 {
                    return pos + other.trailing_zeros() as usize;
                }
                pos += 16;
            }
        }
        pos
    }

    /// Skips whole 16-byte blocks holding no byte [`super::find_escape_stop`] stops at; the
    /// position of the first block that may hold one (or of the tail).
    #[inline]
    pub(super) fn skip_plain_escape(data: &[u8], mut pos: usize, attr: bool) -> usize {
        // SAFETY: as in `find`: SSE2 is baseline on x86_64, and every unaligned 16-byte load
        // lies inside `data` (`pos + 16 <= data.len()`).
        unsafe {
            let lt = _mm_set1_epi8(b'<' as i8);
            let amp = _mm_set1_epi8(b'&' as i8);
            let third = _mm_set1_epi8(if attr { b'"' } else { b'>' } as i8);
            let ef = _mm_set1_epi8(0xEFu8 as i8);
            let x1f = _mm_set1_epi8(0x1F);
            let tab = _mm_set1_epi8(b'\t' as i8);
            let nl = _mm_set1_epi8(b'\n' as i8);
            while pos + 16 <= data.len() {
                let v = _mm_loadu_si128(data.as_ptr().add(pos) as *const __m128i);
                let special = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, amp)),
                    _mm_or_si128(_mm_cmpeq_epi8(v, third), _mm_cmpeq_epi8(v, ef)),
                );
                // Unsigned v <= 0x1F: max(v, 0x1F) == 0x1F.
                let low = _mm_cmpeq_epi8(_mm_max_epu8(v, x1f), x1f);
                let low = if attr {
                    low
                } else {
                    _mm_andnot_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, nl)),
                        low,
                    )
                };
                if _mm_movemask_epi8(_mm_or_si128(special, low)) != 0 {
                    return pos;
                }
                pos += 16;
            }
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_scan_agrees_with_its_predicate() {
        for attr in [false, true] {
            let stop = |b: u8| {
                matches!(b, b'<' | b'&' | 0xEF)
                    || (attr && b == b'"')
                    || (!attr && b == b'>')
                    || (b < 0x20 && (attr || (b != b'\t' && b != b'\n')))
            };
            for special in 0u8..=255 {
                for at in 0..40 {
                    let mut data = vec![b'a'; 40];
                    data[at] = special;
                    for start in [0, 1, 5, 16, 17, 30] {
                        let want = (start..40).find(|&i| stop(data[i])).unwrap_or(40);
                        assert_eq!(
                            find_escape_stop(&data, start, attr, stop),
                            want,
                            "byte {special:#x} at {at} from {start}, attr {attr}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn find_class_matches_naive() {
        let data = b"hello world, this is plain text & then <markup>";
        for start in 0..data.len() {
            let naive = (start..data.len())
                .find(|&i| CLASS[data[i] as usize] & chars::TEXT_STOP != 0)
                .unwrap_or(data.len());
            assert_eq!(find_class(data, start, chars::TEXT_STOP), naive);
        }
    }

    #[test]
    fn skip_ws_agrees_with_scalar_on_every_byte_value_and_position() {
        for special in 0u8..=255 {
            for at in 0..40 {
                let mut data: Vec<u8> = b" \n\t \r".iter().copied().cycle().take(40).collect();
                data[at] = special;
                for start in [0, 1, 5, 16, 17, 30] {
                    assert_eq!(
                        skip_ws(&data, start),
                        skip_ws_scalar(&data, start),
                        "byte {special:#x} at {at} from {start}"
                    );
                }
            }
        }
    }

    #[test]
    fn agrees_with_scalar_on_every_byte_value_and_position() {
        // Every byte value at every position of a 40-byte window.
        for special in 0u8..=255 {
            for at in 0..40 {
                let mut data = vec![b'a'; 40];
                data[at] = special;
                for start in [0, 1, 5, 16, 17, 30] {
                    assert_eq!(
                        find_text_stop(&data, start),
                        find_class(&data, start, chars::TEXT_STOP),
                        "text byte {special:#x} at {at} from {start}"
                    );
                    assert_eq!(
                        find_attr_stop(&data, start),
                        find_class(&data, start, chars::ATTR_STOP),
                        "attr byte {special:#x} at {at} from {start}"
                    );
                }
            }
        }
    }
}
