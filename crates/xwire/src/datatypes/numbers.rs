//! The lexical forms of XML Schema's numbers (`decimal`, `float`, `double`, the integers),
//! checked without building the value.
//!
//! A validator checks every number of a numeric array, and a loop per digit costs more than
//! the check itself: its exit, at a length that varies from number to number, is
//! mispredicted. So a number's bytes are classified in one go and the shape is checked on
//! the class masks (on x86_64 sixteen bytes a compare with SSE2, elsewhere one by one, with
//! the same answers), and an integer's digits are checked and converted eight at a time, in
//! a machine word. A fuzz target (`numbers`, in `crates/xwire-schema/fuzz`) holds them to the
//! grammar read in order.
//!
//! ```
//! use xwire::datatypes::numbers::{is_xsd_number, xsd_integer};
//!
//! assert!(is_xsd_number(b"-3.1094197354383014e-6", true));
//! assert!(!is_xsd_number(b"1e5", false)); // a decimal has no exponent
//! assert!(!is_xsd_number(b"INF", true)); // the special values are not numbers here
//! assert_eq!(xsd_integer(b"+0042"), Some(42));
//! assert_eq!(xsd_integer(b"4 2"), None);
//! ```

use crate::bytes::first_eight;

/// Whether `b` is a finite number in XML Schema's lexical form, as it is (no white space
/// around it): with `exponent` false, a `decimal` (`(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`);
/// with `exponent` true, a `float` or `double`: such a mantissa and an optional exponent
/// `[eE](\+|-)?[0-9]+`. The special values `INF`, `-INF` and `NaN` answer `false`: whoever
/// accepts them checks for them.
///
/// ```
/// use xwire::datatypes::numbers::is_xsd_number;
///
/// assert!(is_xsd_number(b".5", false) && is_xsd_number(b"5.", false));
/// assert!(is_xsd_number(b"+1.5E+10", true));
/// assert!(!is_xsd_number(b".", false) && !is_xsd_number(b"1e", true));
/// ```
#[inline]
pub fn is_xsd_number(b: &[u8], exponent: bool) -> bool {
    match number_bytes(b) {
        Some(m) => number_shape(m, b.len(), exponent),
        None => number_in_order(b, exponent),
    }
}

/// Which of a number's bytes (at most 32: bit `i` for byte `i`) are ASCII digits, points,
/// exponent markers (`e`, `E`) and signs (`+`, `-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct NumberBytes {
    digit: u32,
    dot: u32,
    exp: u32,
    sign: u32,
}

impl NumberBytes {
    /// The classes of `b`'s bytes one by one: `None` when `b` is longer than 32 bytes. (On
    /// x86_64 only the tests use it, to check the vector classes.)
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn of(b: &[u8]) -> Option<NumberBytes> {
        if b.len() > 32 {
            return None;
        }
        let mut m = NumberBytes::default();
        for (i, &c) in b.iter().enumerate() {
            let bit = 1u32 << i;
            match c {
                b'0'..=b'9' => m.digit |= bit,
                b'.' => m.dot |= bit,
                b'e' | b'E' => m.exp |= bit,
                b'+' | b'-' => m.sign |= bit,
                _ => {}
            }
        }
        Some(m)
    }
}

/// The classes of the bytes of a short text (at most 32 bytes; `None` when longer) for
/// [`is_xsd_number`].
#[inline]
fn number_bytes(b: &[u8]) -> Option<NumberBytes> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::number_bytes(b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        NumberBytes::of(b)
    }
}

// The one module of the crate with `unsafe`: SSE2 intrinsics (unaligned loads from a slice's
// pointer; the vector operations are `unsafe fn`s on the oldest compilers the crate supports),
// each block with its safety note.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use super::{first_eight, NumberBytes};
    use std::arch::x86_64::*;

    /// [`super::number_bytes`]: the text in one or two 16-byte vectors (the second the last
    /// 16 bytes, overlapping the first).
    #[inline]
    pub(super) fn number_bytes(b: &[u8]) -> Option<NumberBytes> {
        let n = b.len();
        if n > 32 {
            return None;
        }
        if n >= 16 {
            // SAFETY: SSE2 is baseline on x86_64; the two unaligned loads read b[0..16] and
            // b[n - 16..n], inside the slice.
            let (first, last) = unsafe {
                (
                    _mm_loadu_si128(b.as_ptr() as *const __m128i),
                    _mm_loadu_si128(b.as_ptr().add(n - 16) as *const __m128i),
                )
            };
            // The last vector's lane k is byte n - 16 + k; where the two overlap they agree.
            return Some(or_shifted(classes(first), classes(last), n - 16));
        }
        // The bytes in the low lanes, zeros above them, which are in no class.
        let lo = first_eight(b);
        let hi = if n > 8 { first_eight(&b[8..]) } else { 0 };
        // SAFETY: SSE2 is baseline on x86_64 (no memory is read).
        let v = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        Some(classes(v))
    }

    /// The classes `a`, and `b`'s moved up by `by` bytes.
    #[inline(always)]
    fn or_shifted(a: NumberBytes, b: NumberBytes, by: usize) -> NumberBytes {
        NumberBytes {
            digit: a.digit | b.digit << by,
            dot: a.dot | b.dot << by,
            exp: a.exp | b.exp << by,
            sign: a.sign | b.sign << by,
        }
    }

    /// The classes of the 16 bytes of `v`, by five compares.
    #[inline(always)]
    fn classes(v: __m128i) -> NumberBytes {
        // SAFETY: SSE2 is baseline on x86_64 (no memory is read).
        unsafe {
            let digit = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(b'9' as i8 + 1)),
            );
            let dot = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8));
            // Only `E` and `e` become `e` with bit 5 set.
            let exp = _mm_cmpeq_epi8(
                _mm_or_si128(v, _mm_set1_epi8(0x20)),
                _mm_set1_epi8(b'e' as i8),
            );
            let sign = _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'+' as i8)),
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'-' as i8)),
            );
            let bits = |m: __m128i| _mm_movemask_epi8(m) as u32;
            NumberBytes {
                digit: bits(digit),
                dot: bits(dot),
                exp: bits(exp),
                sign: bits(sign),
            }
        }
    }
}

/// [`is_xsd_number`] from the classes of a text of `n` bytes: every byte is in a class, the
/// exponent marker (at most one, and only with `exponent`) splits a mantissa with at most one
/// point and a digit from an exponent with a digit, and a sign stands only first or right
/// after the marker. Branch-light: the lengths of the digit runs do not matter.
#[inline]
fn number_shape(m: NumberBytes, n: usize, exponent: bool) -> bool {
    let all = ((1u64 << n) - 1) as u32;
    let NumberBytes {
        digit,
        dot,
        exp,
        sign,
    } = m;
    // The bytes below the exponent marker (all of them without one).
    let mantissa = if exp == 0 { all } else { exp - 1 };
    (digit | dot | exp | sign) == all
        && exp & exp.wrapping_sub(1) == 0
        && (exponent || exp == 0)
        && sign & !(1 | exp << 1) == 0
        && dot & dot.wrapping_sub(1) == 0
        && dot & !mantissa == 0
        && digit & mantissa != 0
        && (exp == 0 || digit & !mantissa != 0)
}

/// [`is_xsd_number`] for any length, reading the parts in order.
fn number_in_order(b: &[u8], exponent: bool) -> bool {
    let start = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut i = skip_digits(b, start);
    let mut digits = i - start;
    if b.get(i) == Some(&b'.') {
        let end = skip_digits(b, i + 1);
        digits += end - (i + 1);
        i = end;
    }
    if digits == 0 {
        return false;
    }
    if i == b.len() {
        return true;
    }
    if !exponent || !matches!(b[i], b'e' | b'E') {
        return false;
    }
    i += 1;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let end = skip_digits(b, i);
    end > i && end == b.len()
}

/// The value of an XML Schema integer in its lexical form as it is (optional sign, decimal
/// digits, leading zeros allowed; no white space around it) of at most 18 digits, which
/// always fits an `i64`: `None` for anything else (not an integer, or longer).
///
/// Eight digits are checked and converted at a time, in a machine word.
///
/// ```
/// use xwire::datatypes::numbers::xsd_integer;
///
/// assert_eq!(xsd_integer(b"-999999999999999999"), Some(-999_999_999_999_999_999));
/// assert_eq!(xsd_integer(b"1000000000000000000"), None); // 19 digits
/// assert_eq!(xsd_integer(b"-"), None);
/// ```
#[inline]
pub fn xsd_integer(b: &[u8]) -> Option<i64> {
    // The sign without a branch: in an array of numbers it is a coin toss.
    let first = b.first().copied().unwrap_or(0);
    let neg = first == b'-';
    let d = &b[usize::from(neg | (first == b'+'))..];
    let n = d.len();
    let v = match n {
        1..=8 => digits8(d)?,
        // The leading 1 to 8 digits from a whole first word: no branch on how many there
        // are, which reading a shorter slice takes (9 and 10 digits alternate among 32-bit
        // numbers).
        9..=16 => leading_digits(first_eight(d), n - 8)? * 100_000_000 + digits8(&d[n - 8..])?,
        17..=18 => {
            digits8(&d[..n - 16])? * 10_000_000_000_000_000
                + digits8(&d[n - 16..n - 8])? * 100_000_000
                + digits8(&d[n - 8..])?
        }
        _ => return None,
    };
    Some(signed(neg, v))
}

/// [`xsd_integer`] of `doc[range]`, read in the two words that end where it ends: when it is
/// 1 to 16 bytes long (sign included) and at least 16 bytes of `doc` end with it, the bytes
/// before it are masked to `'0'`s, and there is no branch on its length (an array's numbers,
/// each of its own length, mispredict the branches of a read in pieces). Otherwise, as
/// [`xsd_integer`] reads it. A range outside `doc` panics, as slicing does.
///
/// ```
/// use xwire::datatypes::numbers::xsd_integer_in;
///
/// let doc = b"<array><i>-42</i><i>7</i><i>x</i></array>";
/// assert_eq!(xsd_integer_in(doc, 10..13), Some(-42));
/// assert_eq!(xsd_integer_in(doc, 20..21), Some(7));
/// assert_eq!(xsd_integer_in(doc, 28..29), None);
/// assert_eq!(xsd_integer_in(doc, 1..6), None); // "array"
/// ```
#[inline]
pub fn xsd_integer_in(doc: &[u8], range: std::ops::Range<usize>) -> Option<i64> {
    let (start, end) = (range.start, range.end);
    let n = end.wrapping_sub(start);
    if !(1..=16).contains(&n) || end < 16 || end > doc.len() {
        return xsd_integer(&doc[range]);
    }
    let word = |at: usize| u64::from_le_bytes(doc[at..at + 8].try_into().unwrap_or([0; 8]));
    let (high, low) = (word(end - 16), word(end - 8));
    let first = doc[start];
    let neg = first == b'-';
    let digits = n - usize::from(neg | (first == b'+'));
    // The last `k` (0 to 8) bytes of a word are its high ones.
    let last = |k: usize| (u128::from(u64::MAX) << (64 - 8 * k)) as u64;
    let (keep_high, keep_low) = (last(digits.saturating_sub(8)), last(digits.min(8)));
    let high = (high & keep_high) | (DIGIT_ZEROS & !keep_high);
    let low = (low & keep_low) | (DIGIT_ZEROS & !keep_low);
    if digits == 0 || !(all_digits(high) & all_digits(low)) {
        return None;
    }
    Some(signed(
        neg,
        digit_value(high) * 100_000_000 + digit_value(low),
    ))
}

/// `v` (below 10^18 < 2^63) with its sign.
#[inline(always)]
fn signed(neg: bool, v: u64) -> i64 {
    let v = v as i64;
    if neg {
        -v
    } else {
        v
    }
}

/// The value of 1 to 8 ASCII digits (`None` if a byte is not one), in one word: the digits
/// go to its high bytes, `'0'`s fill the low ones.
#[inline(always)]
fn digits8(d: &[u8]) -> Option<u64> {
    leading_digits(first_eight(d), d.len())
}

/// The value of the first `n` (1 to 8) bytes of `raw` as ASCII digits (`None` if one is
/// not), the word read little-endian.
#[inline(always)]
fn leading_digits(raw: u64, n: usize) -> Option<u64> {
    debug_assert!((1..=8).contains(&n));
    let x = if n == 8 {
        raw
    } else {
        raw << ((8 - n) * 8) | DIGIT_ZEROS >> (n * 8)
    };
    all_digits(x).then(|| digit_value(x))
}

const DIGIT_ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);

/// Whether the eight bytes of `x` are ASCII digits.
#[inline(always)]
fn all_digits(x: u64) -> bool {
    non_digits(x) == 0
}

/// Bits set in the high nibble of each byte of `x` that is not an ASCII digit, and perhaps in
/// bytes after the first such one. A digit's high nibble is 3, and stays 3 when 6 is added;
/// a carry out of a byte (0xFA and above) only reaches the byte after one already marked.
#[inline(always)]
fn non_digits(x: u64) -> u64 {
    const HIGH: u64 = u64::from_le_bytes([0xF0; 8]);
    const SIXES: u64 = u64::from_le_bytes([6; 8]);
    ((x & HIGH) ^ DIGIT_ZEROS) | ((x.wrapping_add(SIXES) & HIGH) ^ DIGIT_ZEROS)
}

/// The index of the first byte of `b` from `from` on that is not an ASCII digit (`b.len()`
/// when there is none): eight bytes a step while eight remain, then one by one.
///
/// ```
/// use xwire::datatypes::numbers::skip_digits;
///
/// assert_eq!(skip_digits(b"-12345678901.5", 1), 12);
/// assert_eq!(skip_digits(b"42", 0), 2);
/// assert_eq!(skip_digits(b"x", 1), 1);
/// ```
#[inline]
pub fn skip_digits(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let marks = non_digits(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        if marks != 0 {
            // The first byte marked is the lowest (little-endian).
            return i + (marks.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The value of the eight digits of `x` (read little-endian: the first digit is the lowest
/// byte): pairs, fours and eights combined by three multiplications.
#[inline(always)]
fn digit_value(x: u64) -> u64 {
    let x = x - DIGIT_ZEROS;
    let x = (x.wrapping_mul(10) + (x >> 8)) & 0x00FF_00FF_00FF_00FF;
    let x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_FFFF_0000_FFFF;
    (x.wrapping_mul(10_000) + (x >> 32)) & 0xFFFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: the lexical spaces as XML Schema writes them.
    fn reference(s: &[u8], exponent: bool) -> bool {
        let Ok(s) = std::str::from_utf8(s) else {
            return false;
        };
        let mantissa = |m: &str| {
            let m = m.strip_prefix(['+', '-']).unwrap_or(m);
            let (int, frac) = m.split_once('.').unwrap_or((m, ""));
            let digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
            digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty())
        };
        match s.find(['e', 'E']) {
            Some(i) if exponent => {
                let e = &s[i + 1..];
                let e = e.strip_prefix(['+', '-']).unwrap_or(e);
                mantissa(&s[..i]) && !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())
            }
            Some(_) => false,
            None => mantissa(s),
        }
    }

    #[test]
    fn numbers_agree_with_the_lexical_spaces_on_every_short_string() {
        // Every string of up to five bytes over an alphabet with every class and some
        // strangers, in both modes, through both ways.
        let alphabet = b"09.eE+-x \xc3";
        let mut strings: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = strings.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s| {
                    alphabet.iter().map(move |&c| {
                        let mut t = s.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            strings.extend(last.iter().cloned());
        }
        for s in &strings {
            for exponent in [false, true] {
                let want = reference(s, exponent);
                assert_eq!(is_xsd_number(s, exponent), want, "{s:?} {exponent}");
                assert_eq!(number_in_order(s, exponent), want, "{s:?} {exponent}");
            }
        }
    }

    #[test]
    fn numbers_of_every_length_and_placement() {
        // Lengths across the 16-byte and 32-byte steps of the vector classification, with
        // a stranger or each class of byte at each position.
        for n in 1..=40usize {
            let base: Vec<u8> = (0..n).map(|i| b'0' + (i % 10) as u8).collect();
            for at in 0..n {
                for c in [
                    b'.', b'e', b'E', b'+', b'-', b'a', b' ', 0, 0x80, b'/', b':',
                ] {
                    let mut s = base.clone();
                    s[at] = c;
                    for exponent in [false, true] {
                        let want = reference(&s, exponent);
                        assert_eq!(is_xsd_number(&s, exponent), want, "{s:?} {exponent}");
                    }
                }
            }
            assert!(is_xsd_number(&base, false));
        }
    }

    #[test]
    fn vector_and_scalar_classes_agree() {
        for n in 0..=33usize {
            for c in 0..=255u8 {
                for at in 0..n {
                    let mut s: Vec<u8> = (0..n).map(|i| b"1.e+-9"[i % 6]).collect();
                    s[at] = c;
                    assert_eq!(number_bytes(&s), NumberBytes::of(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn integers_agree_with_the_standard_parse() {
        let mut cases: Vec<String> = Vec::new();
        for n in 1..=20usize {
            let digits: String = (0..n).map(|i| char::from(b'1' + (i % 9) as u8)).collect();
            for sign in ["", "+", "-"] {
                cases.push(format!("{sign}{digits}"));
                cases.push(format!("{sign}{}", "9".repeat(n)));
                cases.push(format!("{sign}{}", "0".repeat(n)));
                for at in 0..n {
                    for c in ['/', ':', 'a', ' ', '.', '-', '\u{e9}'] {
                        let mut s: Vec<char> = digits.chars().collect();
                        s[at] = c;
                        cases.push(format!("{sign}{}", s.into_iter().collect::<String>()));
                    }
                }
            }
        }
        cases.extend(["", "+", "-", "+-1", "--1"].map(String::from));
        for s in &cases {
            let body = s.trim_start_matches(['+', '-']);
            let plain = s.len() - body.len() <= 1
                && (1..=18).contains(&body.len())
                && body.bytes().all(|c| c.is_ascii_digit());
            let want = if plain { s.parse::<i64>().ok() } else { None };
            assert_eq!(xsd_integer(s.as_bytes()), want, "{s:?}");
            // In a document, after bytes that would change the value or its sign if read
            // (digits, signs), and after too few bytes for the two words.
            for before in 0..=20 {
                for fill in [b'9', b'-', b'<', 0xff] {
                    let mut doc = vec![fill; before];
                    doc.extend_from_slice(s.as_bytes());
                    doc.extend_from_slice(b"</i>");
                    let range = before..before + s.len();
                    assert_eq!(xsd_integer_in(&doc, range), want, "{s:?} after {before}");
                }
            }
        }
    }

    #[test]
    fn digits_are_skipped_to_the_first_other_byte() {
        // Every byte value at every place of runs across the eight-byte steps, from every
        // start (high bytes carry across byte borders in the word test).
        for n in 0..=20usize {
            for at in 0..=n {
                for c in (0..=255u8).step_by(3).chain([b'/', b':', b'0', b'9']) {
                    let mut b = vec![b'5'; n];
                    if at < n {
                        b[at] = c;
                    }
                    for from in 0..=n + 1 {
                        let naive = from
                            + b.get(from..)
                                .map_or(0, |t| t.iter().take_while(|x| x.is_ascii_digit()).count());
                        assert_eq!(skip_digits(&b, from), naive, "{b:?} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_byte_value_in_every_lane_of_a_digit_word() {
        for n in 1..=8usize {
            for at in 0..n {
                for c in 0..=255u8 {
                    let mut d = vec![b'7'; n];
                    d[at] = c;
                    let want = std::str::from_utf8(&d)
                        .ok()
                        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|s| s.parse::<u64>().ok());
                    assert_eq!(digits8(&d), want, "{d:?}");
                }
            }
        }
    }
}
