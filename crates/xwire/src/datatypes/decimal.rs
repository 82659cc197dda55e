//! Arbitrary-precision decimals: a sign, the digits of an unscaled integer and a scale.

use std::cmp::Ordering;
use std::fmt;

use super::numbers::skip_digits;

/// A decimal number of any size and precision: `(-1)^neg × digits × 10^-scale`.
///
/// Always normalized: `digits` has no leading zeros, the fraction no trailing zeros, and zero
/// is `digits = []`, `scale = 0`, not negative. So equal values have equal representations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    neg: bool,
    /// ASCII digits of the unscaled integer, most significant first.
    digits: Digits,
    /// How many of the (implicitly zero-padded) trailing digits are after the point.
    scale: u32,
}

/// Digits kept inline up to `INLINE` of them (no allocation for the numbers of everyday
/// documents), on the heap beyond.
#[derive(Clone)]
enum Digits {
    Inline { len: u8, buf: [u8; INLINE] },
    Heap(Box<[u8]>),
}

const INLINE: usize = 22;

impl Digits {
    fn from_parts(a: &[u8], b: &[u8]) -> Digits {
        let n = a.len() + b.len();
        if n <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..a.len()].copy_from_slice(a);
            buf[a.len()..n].copy_from_slice(b);
            Digits::Inline { len: n as u8, buf }
        } else {
            let mut v = Vec::with_capacity(n);
            v.extend_from_slice(a);
            v.extend_from_slice(b);
            Digits::Heap(v.into_boxed_slice())
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            Digits::Inline { len, buf } => &buf[..*len as usize],
            Digits::Heap(v) => v,
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    fn split_at(&self, mid: usize) -> (&[u8], &[u8]) {
        self.as_slice().split_at(mid)
    }
}

impl PartialEq for Digits {
    fn eq(&self, other: &Digits) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Digits {}

impl std::hash::Hash for Digits {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl Decimal {
    /// Zero.
    pub fn zero() -> Decimal {
        Decimal {
            neg: false,
            digits: Digits::from_parts(&[], &[]),
            scale: 0,
        }
    }

    fn normalized(neg: bool, digits: &[u8], scale: u32) -> Decimal {
        Decimal::normalized_parts(neg, digits, &[], scale)
    }

    /// The decimal whose digits are `a` then `b`, the last `scale` of them after the point.
    fn normalized_parts(neg: bool, mut a: &[u8], mut b: &[u8], mut scale: u32) -> Decimal {
        // Trailing zeros of the fraction.
        while scale > 0 {
            let last = if let Some((&l, rest)) = b.split_last() {
                if l != b'0' {
                    break;
                }
                b = rest;
                l
            } else if let Some((&l, rest)) = a.split_last() {
                if l != b'0' {
                    break;
                }
                a = rest;
                l
            } else {
                break;
            };
            debug_assert_eq!(last, b'0');
            scale -= 1;
        }
        // Leading zeros.
        while let Some((&b'0', rest)) = a.split_first() {
            a = rest;
        }
        if a.is_empty() {
            while let Some((&b'0', rest)) = b.split_first() {
                b = rest;
            }
        }
        if a.is_empty() && b.is_empty() {
            return Decimal::zero();
        }
        Decimal {
            neg,
            digits: Digits::from_parts(a, b),
            scale,
        }
    }

    /// Parses the `decimal` lexical space: `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`.
    pub fn parse(s: &str) -> Option<Decimal> {
        let b = s.as_bytes();
        let d = DecimalLexical::prefix_of(b)?;
        if d.end != b.len() {
            return None;
        }
        let frac = &b[d.frac];
        let scale = u32::try_from(frac.len()).ok()?;
        Some(Decimal::normalized_parts(d.neg, &b[d.int], frac, scale))
    }

    /// Parses the `integer` lexical space: `(\+|-)?[0-9]+`.
    pub fn parse_integer(s: &str) -> Option<Decimal> {
        let b = s.as_bytes();
        let neg = b.first() == Some(&b'-');
        let body = &b[usize::from(matches!(b.first(), Some(b'-' | b'+')))..];
        if body.is_empty() || !body.iter().all(u8::is_ascii_digit) {
            return None;
        }
        // Digits only: no point to look for nor fraction to trim, only leading zeros.
        let first = body.iter().position(|&c| c != b'0').unwrap_or(body.len());
        if first == body.len() {
            return Some(Decimal::zero());
        }
        Some(Decimal {
            neg,
            digits: Digits::from_parts(&body[first..], &[]),
            scale: 0,
        })
    }

    /// The decimal of an `i64`, its digits written on the stack (no allocation: they fit
    /// inline).
    pub fn from_i64(v: i64) -> Decimal {
        let mut buf = [0u8; 20];
        let mut at = buf.len();
        let mut u = v.unsigned_abs();
        while u > 0 {
            at -= 1;
            buf[at] = b'0' + (u % 10) as u8;
            u /= 10;
        }
        match at == buf.len() {
            true => Decimal::zero(),
            false => Decimal {
                neg: v < 0,
                digits: Digits::from_parts(&buf[at..], &[]),
                scale: 0,
            },
        }
    }

    /// The decimal of an `i128`.
    pub fn from_i128(v: i128) -> Decimal {
        let digits = v.unsigned_abs().to_string().into_bytes();
        Decimal::normalized(v < 0, &digits, 0)
    }

    /// The value as an `i128`, when it is an integer that fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.scale != 0 {
            return None;
        }
        let mut v: i128 = 0;
        for &d in self.digits.as_slice() {
            let d = i128::from(d - b'0');
            v = v.checked_mul(10)?;
            v = if self.neg {
                v.checked_sub(d)?
            } else {
                v.checked_add(d)?
            };
        }
        Some(v)
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.neg
    }

    /// Whether the value has no fractional part.
    pub fn is_integer(&self) -> bool {
        self.scale == 0
    }

    /// The number of significant digits (the `totalDigits` facet's measure): the length of
    /// the smallest `i` with the value equal to `i × 10^-n`. Zero counts as one digit.
    pub fn total_digits(&self) -> u32 {
        u32::try_from(self.digits.len()).unwrap_or(u32::MAX).max(1)
    }

    /// The number of digits after the point (the `fractionDigits` facet's measure).
    pub fn fraction_digits(&self) -> u32 {
        self.scale
    }

    /// Integer and fraction digit strings, the integer part possibly empty (meaning 0).
    fn split(&self) -> (Vec<u8>, Vec<u8>) {
        let scale = self.scale as usize;
        if self.digits.len() > scale {
            let (i, f) = self.digits.split_at(self.digits.len() - scale);
            (i.to_vec(), f.to_vec())
        } else {
            let mut f = vec![b'0'; scale - self.digits.len()];
            f.extend_from_slice(self.digits.as_slice());
            (Vec::new(), f)
        }
    }

    /// The integer digits (possibly empty, meaning 0) and the number of leading zeros the
    /// fraction has before `digits`' own fraction digits; borrowed, no allocation.
    fn parts(&self) -> (&[u8], usize, &[u8]) {
        let scale = self.scale as usize;
        if self.digits.len() > scale {
            let (i, f) = self.digits.split_at(self.digits.len() - scale);
            (i, 0, f)
        } else {
            (&[], scale - self.digits.len(), self.digits.as_slice())
        }
    }

    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        let (ai, az, af) = self.parts();
        let (bi, bz, bf) = other.parts();
        // Normalized: no leading zeros in the integer parts, no trailing zeros in fractions,
        // so a longer integer part is larger and fractions compare lexicographically (the
        // fraction is `az` zeros then `af`).
        ai.len()
            .cmp(&bi.len())
            .then_with(|| ai.cmp(bi))
            .then_with(|| {
                let a = std::iter::repeat(b'0').take(az).chain(af.iter().copied());
                let b = std::iter::repeat(b'0').take(bz).chain(bf.iter().copied());
                a.cmp(b)
            })
    }

    /// The value as an `i64`, when it is an integer of at most 18 digits (always fits).
    pub fn small_integer(&self) -> Option<i64> {
        let d = self.digits.as_slice();
        if self.scale != 0 || d.len() > 18 {
            return None;
        }
        let mut m: i64 = 0;
        for &c in d {
            m = m * 10 + i64::from(c - b'0');
        }
        Some(if self.neg { -m } else { m })
    }

    /// Compares with an `i128` without building a decimal.
    pub(crate) fn cmp_i128(&self, v: i128) -> Ordering {
        if self.digits.len() <= 37 {
            // |self| < 10^37 fits an i128 (scaled part truncated toward zero, then the
            // fraction breaks ties).
            let (int, _, frac) = self.parts();
            let mut m: i128 = 0;
            for &d in int {
                m = m * 10 + i128::from(d - b'0');
            }
            let x = if self.neg { -m } else { m };
            return x.cmp(&v).then(if frac.is_empty() || self.scale == 0 {
                Ordering::Equal
            } else if self.neg {
                Ordering::Less
            } else {
                Ordering::Greater
            });
        }
        self.cmp(&Decimal::from_i128(v))
    }

    /// The canonical representation of `decimal`: a point with at least one digit on each
    /// side, no other leading or trailing zeros, no `+`.
    pub fn canonical_decimal(&self) -> String {
        let (i, f) = self.split();
        let mut s = String::new();
        if self.neg {
            s.push('-');
        }
        push_digits(&mut s, &i, "0");
        s.push('.');
        push_digits(&mut s, &f, "0");
        s
    }

    /// The canonical representation of `integer`: no point, no leading zeros, no `+`.
    /// Only meaningful for integral values (a fraction is dropped).
    pub fn canonical_integer(&self) -> String {
        let (i, _) = self.split();
        let mut s = String::new();
        if self.neg {
            s.push('-');
        }
        push_digits(&mut s, &i, "0");
        s
    }
}

fn push_digits(s: &mut String, digits: &[u8], empty: &str) {
    if digits.is_empty() {
        s.push_str(empty);
    } else {
        s.extend(digits.iter().map(|&b| b as char));
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical_decimal())
    }
}

/// The `decimal` lexical (`(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`) at the start of some bytes,
/// by the indices of its parts (a `float` or `double` may go on with an exponent).
pub(crate) struct DecimalLexical {
    pub(crate) neg: bool,
    /// The digits before the point.
    pub(crate) int: std::ops::Range<usize>,
    /// The digits after the point (empty, at `end`, without a point).
    pub(crate) frac: std::ops::Range<usize>,
    /// The index of the first byte after it.
    pub(crate) end: usize,
}

impl DecimalLexical {
    /// The decimal at the start of `b`, in one pass: `None` when there is none (no digit).
    #[inline]
    pub(crate) fn prefix_of(b: &[u8]) -> Option<DecimalLexical> {
        let neg = b.first() == Some(&b'-');
        let int_start = usize::from(matches!(b.first(), Some(b'-' | b'+')));
        let int_end = skip_digits(b, int_start);
        let mut end = int_end;
        if b.get(end) == Some(&b'.') {
            end = skip_digits(b, end + 1);
        }
        let frac_start = (int_end + 1).min(end);
        if int_end == int_start && end == frac_start {
            return None;
        }
        Some(DecimalLexical {
            neg,
            int: int_start..int_end,
            frac: frac_start..end,
            end,
        })
    }
}
