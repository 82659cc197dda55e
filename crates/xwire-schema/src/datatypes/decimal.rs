//! Arbitrary-precision decimals: a sign, the digits of an unscaled integer and a scale.

use std::cmp::Ordering;
use std::fmt;

/// A decimal number of any size and precision: `(-1)^neg × digits × 10^-scale`.
///
/// Always normalized: `digits` has no leading zeros, the fraction no trailing zeros, and zero
/// is `digits = []`, `scale = 0`, not negative. So equal values have equal representations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    neg: bool,
    /// ASCII digits of the unscaled integer, most significant first.
    digits: Vec<u8>,
    /// How many of the (implicitly zero-padded) trailing digits are after the point.
    scale: u32,
}

impl Decimal {
    /// Zero.
    pub fn zero() -> Decimal {
        Decimal {
            neg: false,
            digits: Vec::new(),
            scale: 0,
        }
    }

    fn normalized(neg: bool, mut digits: Vec<u8>, mut scale: u32) -> Decimal {
        while scale > 0 && digits.last() == Some(&b'0') {
            digits.pop();
            scale -= 1;
        }
        let lead = digits.iter().take_while(|&&d| d == b'0').count();
        digits.drain(..lead);
        if digits.is_empty() {
            return Decimal::zero();
        }
        Decimal { neg, digits, scale }
    }

    /// Parses the `decimal` lexical space: `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`.
    pub fn parse(s: &str) -> Option<Decimal> {
        let (neg, rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = match rest.split_once('.') {
            Some((i, f)) => (i, f),
            None => (rest, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits = Vec::with_capacity(int.len() + frac.len());
        digits.extend_from_slice(int.as_bytes());
        digits.extend_from_slice(frac.as_bytes());
        let scale = u32::try_from(frac.len()).ok()?;
        Some(Decimal::normalized(neg, digits, scale))
    }

    /// Parses the `integer` lexical space: `(\+|-)?[0-9]+`.
    pub fn parse_integer(s: &str) -> Option<Decimal> {
        let body = s.strip_prefix(['+', '-']).unwrap_or(s);
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Decimal::parse(s)
    }

    /// The decimal of an `i128`.
    pub fn from_i128(v: i128) -> Decimal {
        let digits = v.unsigned_abs().to_string().into_bytes();
        Decimal::normalized(v < 0, digits, 0)
    }

    /// The value as an `i128`, when it is an integer that fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.scale != 0 {
            return None;
        }
        let mut v: i128 = 0;
        for &d in &self.digits {
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
            f.extend_from_slice(&self.digits);
            (Vec::new(), f)
        }
    }

    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        let (ai, af) = self.split();
        let (bi, bf) = other.split();
        // Normalized: no leading zeros in the integer parts, no trailing zeros in fractions,
        // so a longer integer part is larger and fractions compare lexicographically.
        ai.len()
            .cmp(&bi.len())
            .then_with(|| ai.cmp(&bi))
            .then_with(|| af.cmp(&bf))
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
