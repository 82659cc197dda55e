//! Typed values: one value of a primitive type ([`TypedValue`]), a run of them ([`Array`]), and
//! their text forms (`docs/binary-format.md`, "The text form of typed values").

use std::borrow::Cow;
use std::fmt::Write as _;

use super::format::PrimitiveType;

/// One typed value, as a leaf element holds it. Strings and bytes borrow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TypedValue<'a> {
    /// `i8`.
    I8(i8),
    /// `i16`.
    I16(i16),
    /// `i32`.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `u8`.
    U8(u8),
    /// `u16`.
    U16(u16),
    /// `u32`.
    U32(u32),
    /// `u64`.
    U64(u64),
    /// `f32`.
    F32(f32),
    /// `f64`.
    F64(f64),
    /// `bool`.
    Bool(bool),
    /// A string.
    String(&'a str),
    /// Bytes (base64 in text).
    Bytes(&'a [u8]),
}

/// A packed run of values of one fixed-width type, as an array element holds it. Borrowed when
/// the reader could view the encoded bytes in place (matching byte order, aligned), owned
/// otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Array<'a> {
    /// `i8` values.
    I8(Cow<'a, [i8]>),
    /// `i16` values.
    I16(Cow<'a, [i16]>),
    /// `i32` values.
    I32(Cow<'a, [i32]>),
    /// `i64` values.
    I64(Cow<'a, [i64]>),
    /// `u8` values.
    U8(Cow<'a, [u8]>),
    /// `u16` values.
    U16(Cow<'a, [u16]>),
    /// `u32` values.
    U32(Cow<'a, [u32]>),
    /// `u64` values.
    U64(Cow<'a, [u64]>),
    /// `f32` values.
    F32(Cow<'a, [f32]>),
    /// `f64` values.
    F64(Cow<'a, [f64]>),
    /// `bool` values.
    Bool(Cow<'a, [bool]>),
}

impl TypedValue<'_> {
    /// The value's type.
    pub fn primitive_type(&self) -> PrimitiveType {
        match self {
            TypedValue::I8(_) => PrimitiveType::I8,
            TypedValue::I16(_) => PrimitiveType::I16,
            TypedValue::I32(_) => PrimitiveType::I32,
            TypedValue::I64(_) => PrimitiveType::I64,
            TypedValue::U8(_) => PrimitiveType::U8,
            TypedValue::U16(_) => PrimitiveType::U16,
            TypedValue::U32(_) => PrimitiveType::U32,
            TypedValue::U64(_) => PrimitiveType::U64,
            TypedValue::F32(_) => PrimitiveType::F32,
            TypedValue::F64(_) => PrimitiveType::F64,
            TypedValue::Bool(_) => PrimitiveType::Bool,
            TypedValue::String(_) => PrimitiveType::String,
            TypedValue::Bytes(_) => PrimitiveType::Bytes,
        }
    }

    /// Appends the value's text form (the lexical form the decoder writes).
    ///
    /// ```
    /// use xwire::binary::TypedValue;
    /// let mut s = String::new();
    /// TypedValue::F64(2.5).write_text(&mut s);
    /// s.push(' ');
    /// TypedValue::F64(f64::NEG_INFINITY).write_text(&mut s);
    /// assert_eq!(s, "2.5 -INF");
    /// ```
    pub fn write_text(&self, out: &mut String) {
        match *self {
            TypedValue::I8(v) => push_int(out, v),
            TypedValue::I16(v) => push_int(out, v),
            TypedValue::I32(v) => push_int(out, v),
            TypedValue::I64(v) => push_int(out, v),
            TypedValue::U8(v) => push_int(out, v),
            TypedValue::U16(v) => push_int(out, v),
            TypedValue::U32(v) => push_int(out, v),
            TypedValue::U64(v) => push_int(out, v),
            TypedValue::F32(v) => push_float(out, v, v.is_nan(), v.is_infinite(), v < 0.0),
            TypedValue::F64(v) => push_float(out, v, v.is_nan(), v.is_infinite(), v < 0.0),
            TypedValue::Bool(v) => out.push_str(if v { "true" } else { "false" }),
            TypedValue::String(s) => out.push_str(s),
            TypedValue::Bytes(b) => push_base64(out, b),
        }
    }

    /// Parses the text form of a value of type `ty`, after collapsing white space around it
    /// (strings are taken as they are). Accepts what XML Schema accepts for the matching
    /// built-in type (`+7`, `007`, `1E3`, `INF`, `1`/`0` for booleans).
    ///
    /// ```
    /// use xwire::binary::{PrimitiveType, TypedValue};
    /// assert_eq!(TypedValue::parse(PrimitiveType::I32, " +007 "), Ok(TypedValue::I32(7)));
    /// assert_eq!(TypedValue::parse(PrimitiveType::F64, "INF"), Ok(TypedValue::F64(f64::INFINITY)));
    /// assert!(TypedValue::parse(PrimitiveType::U8, "256").is_err());
    /// ```
    pub fn parse(ty: PrimitiveType, text: &str) -> Result<TypedValue<'_>, ValueError> {
        if ty == PrimitiveType::String {
            return Ok(TypedValue::String(text));
        }
        let s = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let bad = || ValueError {
            ty,
            text: s.chars().take(64).collect(),
        };
        Ok(match ty {
            PrimitiveType::I8 => TypedValue::I8(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::I16 => TypedValue::I16(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::I32 => TypedValue::I32(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::I64 => TypedValue::I64(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::U8 => TypedValue::U8(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::U16 => TypedValue::U16(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::U32 => TypedValue::U32(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::U64 => TypedValue::U64(parse_int(s).ok_or_else(bad)?),
            PrimitiveType::F32 => TypedValue::F32(parse_float(s).ok_or_else(bad)?),
            PrimitiveType::F64 => TypedValue::F64(parse_float(s).ok_or_else(bad)?),
            PrimitiveType::Bool => TypedValue::Bool(match s {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => return Err(bad()),
            }),
            PrimitiveType::Bytes => return Err(bad()), // see `parse_base64`: it allocates
            PrimitiveType::String => unreachable!("handled above"),
        })
    }
}

/// A text that is not a value of the expected type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// The type expected.
    pub ty: PrimitiveType,
    /// The text found (its first 64 characters).
    pub text: String,
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not a valid {} value", self.text, self.ty.name())
    }
}

impl std::error::Error for ValueError {}

fn push_int(out: &mut String, v: impl std::fmt::Display) {
    let _ = write!(out, "{v}");
}

fn push_float(out: &mut String, v: impl std::fmt::Debug, nan: bool, inf: bool, neg: bool) {
    if nan {
        out.push_str("NaN");
    } else if inf {
        out.push_str(if neg { "-INF" } else { "INF" });
    } else {
        // `{:?}` writes the shortest digits that read back to the same value.
        let _ = write!(out, "{v:?}");
    }
}

/// An integer in XML Schema's lexical form: optional sign, decimal digits (leading zeros
/// allowed).
fn parse_int<T: std::str::FromStr>(s: &str) -> Option<T> {
    let (signed, body) = match s.as_bytes().first() {
        Some(b'-') => (s, &s[1..]),
        Some(b'+') => (&s[1..], &s[1..]),
        _ => (s, s),
    };
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    signed.parse().ok()
}

/// A float in XML Schema's lexical form (`1.5`, `-1E3`, `.5`, `INF`, `-INF`, `NaN`; not
/// Rust's `inf`, `infinity`, `nan`).
fn parse_float<T: std::str::FromStr + From<f32>>(s: &str) -> Option<T> {
    match s {
        "INF" | "+INF" => return Some(T::from(f32::INFINITY)),
        "-INF" => return Some(T::from(f32::NEG_INFINITY)),
        "NaN" => return Some(T::from(f32::NAN)),
        _ => {}
    }
    // Rust's parser accepts words XML Schema does not; allow only digits, sign, point, exponent.
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'))
    {
        return None;
    }
    s.parse().ok()
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends `bytes` in base64 with padding, no line breaks.
pub fn push_base64(out: &mut String, bytes: &[u8]) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let w = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= n {
                out.push(BASE64[(w >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
}

/// Decodes base64 text (white space anywhere is ignored, as `xs:base64Binary` allows).
///
/// ```
/// assert_eq!(xwire::binary::parse_base64("aGk=").unwrap(), b"hi");
/// ```
pub fn parse_base64(text: &str) -> Result<Vec<u8>, ValueError> {
    let bad = || ValueError {
        ty: PrimitiveType::Bytes,
        text: text.chars().take(64).collect(),
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits, mut pad) = (0u32, 0u32, 0usize);
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return Err(bad()),
        };
        if pad > 0 {
            return Err(bad()); // data after padding
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // Whole quanta only: 0 leftover bits, or 2 (one pad) or 4 (two pads) zero bits.
    let ok = match (bits, pad) {
        (0, 0) => true,
        (4, 2) | (2, 1) => acc == 0,
        _ => false,
    };
    if ok {
        Ok(out)
    } else {
        Err(bad())
    }
}

/// A native number type that arrays can hold: lets callers ask for `&[f64]` and friends
/// generically ([`Array::as_slice`]).
pub trait Primitive: Copy + 'static {
    /// The type code of this Rust type.
    const TYPE: PrimitiveType;
    /// The values of `array` if it holds this type.
    fn slice<'s>(array: &'s Array<'_>) -> Option<&'s [Self]>;
    /// The array of these values.
    fn wrap(values: Cow<'_, [Self]>) -> Array<'_>;
    /// `values` as an array that borrows them.
    ///
    /// ```
    /// use xwire::binary::{Primitive, PrimitiveType};
    /// let a = f32::array(&[1.0, 2.0]);
    /// assert_eq!((a.primitive_type(), a.len()), (PrimitiveType::F32, 2));
    /// ```
    fn array(values: &[Self]) -> Array<'_> {
        Self::wrap(Cow::Borrowed(values))
    }
    /// The values of `array`, taken out of it, if it holds this type.
    fn from_array(array: Array<'_>) -> Option<Cow<'_, [Self]>>;
}

macro_rules! primitive {
    ($($t:ty => $variant:ident),*) => {$(
        impl Primitive for $t {
            const TYPE: PrimitiveType = PrimitiveType::$variant;
            fn slice<'s>(array: &'s Array<'_>) -> Option<&'s [$t]> {
                match array {
                    Array::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(values: Cow<'_, [$t]>) -> Array<'_> {
                Array::$variant(values)
            }
            fn from_array(array: Array<'_>) -> Option<Cow<'_, [$t]>> {
                match array {
                    Array::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

primitive!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32,
    u64 => U64, f32 => F32, f64 => F64, bool => Bool);

impl Array<'_> {
    /// The type of the values.
    pub fn primitive_type(&self) -> PrimitiveType {
        match self {
            Array::I8(_) => PrimitiveType::I8,
            Array::I16(_) => PrimitiveType::I16,
            Array::I32(_) => PrimitiveType::I32,
            Array::I64(_) => PrimitiveType::I64,
            Array::U8(_) => PrimitiveType::U8,
            Array::U16(_) => PrimitiveType::U16,
            Array::U32(_) => PrimitiveType::U32,
            Array::U64(_) => PrimitiveType::U64,
            Array::F32(_) => PrimitiveType::F32,
            Array::F64(_) => PrimitiveType::F64,
            Array::Bool(_) => PrimitiveType::Bool,
        }
    }

    /// Makes the array owned like [`Array::into_owned`], copying borrowed values into the
    /// first array of `spare` of the same type with room for them (taken out of `spare`, its
    /// allocation reused) instead of a new allocation.
    pub(crate) fn into_owned_reusing(self, spare: &mut Vec<Array<'static>>) -> Array<'static> {
        macro_rules! reuse {
            ($($variant:ident),*) => {
                match self {
                    $(Array::$variant(Cow::Borrowed(s)) => {
                        let room = spare.iter().position(|a| {
                            matches!(a, Array::$variant(Cow::Owned(v)) if v.capacity() >= s.len())
                        });
                        let mut v = match room.map(|i| spare.swap_remove(i)) {
                            Some(Array::$variant(Cow::Owned(v))) => v,
                            _ => Vec::with_capacity(s.len()),
                        };
                        v.clear();
                        v.extend_from_slice(s);
                        Array::$variant(Cow::Owned(v))
                    })*
                    owned => owned.into_owned(),
                }
            };
        }
        reuse!(I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool)
    }

    /// The same values, owned (copied if they were borrowed).
    pub fn into_owned(self) -> Array<'static> {
        fn own<T: Clone>(c: Cow<'_, [T]>) -> Cow<'static, [T]> {
            Cow::Owned(c.into_owned())
        }
        match self {
            Array::I8(v) => Array::I8(own(v)),
            Array::I16(v) => Array::I16(own(v)),
            Array::I32(v) => Array::I32(own(v)),
            Array::I64(v) => Array::I64(own(v)),
            Array::U8(v) => Array::U8(own(v)),
            Array::U16(v) => Array::U16(own(v)),
            Array::U32(v) => Array::U32(own(v)),
            Array::U64(v) => Array::U64(own(v)),
            Array::F32(v) => Array::F32(own(v)),
            Array::F64(v) => Array::F64(own(v)),
            Array::Bool(v) => Array::Bool(own(v)),
        }
    }

    /// Whether the values are viewed in place (borrowed from the input), not copied.
    pub fn is_borrowed(&self) -> bool {
        matches!(
            self,
            Array::I8(Cow::Borrowed(_))
                | Array::I16(Cow::Borrowed(_))
                | Array::I32(Cow::Borrowed(_))
                | Array::I64(Cow::Borrowed(_))
                | Array::U8(Cow::Borrowed(_))
                | Array::U16(Cow::Borrowed(_))
                | Array::U32(Cow::Borrowed(_))
                | Array::U64(Cow::Borrowed(_))
                | Array::F32(Cow::Borrowed(_))
                | Array::F64(Cow::Borrowed(_))
                | Array::Bool(Cow::Borrowed(_))
        )
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Array::I8(v) => v.len(),
            Array::I16(v) => v.len(),
            Array::I32(v) => v.len(),
            Array::I64(v) => v.len(),
            Array::U8(v) => v.len(),
            Array::U16(v) => v.len(),
            Array::U32(v) => v.len(),
            Array::U64(v) => v.len(),
            Array::F32(v) => v.len(),
            Array::F64(v) => v.len(),
            Array::Bool(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values as a slice of `T`, if they are of that type.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::binary::Array;
    /// let a = Array::F64(Cow::Borrowed(&[1.5, 2.5]));
    /// assert_eq!(a.as_slice::<f64>(), Some(&[1.5, 2.5][..]));
    /// assert_eq!(a.as_slice::<i32>(), None);
    /// ```
    pub fn as_slice<T: Primitive>(&self) -> Option<&[T]> {
        T::slice(self)
    }

    /// Value `i` (panics when out of range, like indexing).
    pub fn get(&self, i: usize) -> TypedValue<'static> {
        match self {
            Array::I8(v) => TypedValue::I8(v[i]),
            Array::I16(v) => TypedValue::I16(v[i]),
            Array::I32(v) => TypedValue::I32(v[i]),
            Array::I64(v) => TypedValue::I64(v[i]),
            Array::U8(v) => TypedValue::U8(v[i]),
            Array::U16(v) => TypedValue::U16(v[i]),
            Array::U32(v) => TypedValue::U32(v[i]),
            Array::U64(v) => TypedValue::U64(v[i]),
            Array::F32(v) => TypedValue::F32(v[i]),
            Array::F64(v) => TypedValue::F64(v[i]),
            Array::Bool(v) => TypedValue::Bool(v[i]),
        }
    }

    /// Appends the values' text form, separated by single spaces.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::binary::Array;
    /// let mut s = String::new();
    /// Array::I32(Cow::Borrowed(&[1, -2, 3])).write_text(&mut s);
    /// assert_eq!(s, "1 -2 3");
    /// ```
    pub fn write_text(&self, out: &mut String) {
        for i in 0..self.len() {
            if i > 0 {
                out.push(' ');
            }
            self.get(i).write_text(out);
        }
    }

    /// Parses a white-space separated list of values of the fixed-width type `ty`.
    ///
    /// ```
    /// use xwire::binary::{Array, PrimitiveType};
    /// let a = Array::parse(PrimitiveType::F64, " 1.5\n2 ").unwrap();
    /// assert_eq!(a.as_slice::<f64>(), Some(&[1.5, 2.0][..]));
    /// ```
    pub fn parse(ty: PrimitiveType, text: &str) -> Result<Array<'static>, ValueError> {
        fn collect<T: Clone>(
            text: &str,
            ty: PrimitiveType,
            f: impl Fn(TypedValue<'_>) -> Option<T>,
        ) -> Result<Cow<'static, [T]>, ValueError> {
            text.split([' ', '\t', '\n', '\r'])
                .filter(|s| !s.is_empty())
                .map(|s| {
                    TypedValue::parse(ty, s).map(|v| f(v).expect("parse gives the type asked"))
                })
                .collect::<Result<Vec<T>, _>>()
                .map(Cow::Owned)
        }
        use PrimitiveType as P;
        Ok(match ty {
            P::I8 => Array::I8(collect(text, ty, |v| {
                if let TypedValue::I8(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::I16 => Array::I16(collect(text, ty, |v| {
                if let TypedValue::I16(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::I32 => Array::I32(collect(text, ty, |v| {
                if let TypedValue::I32(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::I64 => Array::I64(collect(text, ty, |v| {
                if let TypedValue::I64(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::U8 => Array::U8(collect(text, ty, |v| {
                if let TypedValue::U8(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::U16 => Array::U16(collect(text, ty, |v| {
                if let TypedValue::U16(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::U32 => Array::U32(collect(text, ty, |v| {
                if let TypedValue::U32(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::U64 => Array::U64(collect(text, ty, |v| {
                if let TypedValue::U64(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::F32 => Array::F32(collect(text, ty, |v| {
                if let TypedValue::F32(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::F64 => Array::F64(collect(text, ty, |v| {
                if let TypedValue::F64(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::Bool => Array::Bool(collect(text, ty, |v| {
                if let TypedValue::Bool(x) = v {
                    Some(x)
                } else {
                    None
                }
            })?),
            P::String | P::Bytes => {
                return Err(ValueError {
                    ty,
                    text: "arrays hold fixed-width types only".into(),
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_shortest_and_read_back() {
        for v in [
            0.1,
            1.5,
            1e16,
            1.2345678901234568e17,
            -0.0,
            2.5e-5,
            f64::MIN_POSITIVE,
            f64::MAX,
        ] {
            let mut s = String::new();
            TypedValue::F64(v).write_text(&mut s);
            assert_eq!(
                TypedValue::parse(PrimitiveType::F64, &s),
                Ok(TypedValue::F64(v)),
                "{s}"
            );
        }
        let mut s = String::new();
        TypedValue::F32(0.1).write_text(&mut s);
        assert_eq!(s, "0.1");
    }

    #[test]
    fn words_rust_accepts_but_xsd_does_not_are_errors() {
        for t in ["inf", "infinity", "nan", "", "1.5x", "0x10"] {
            assert!(TypedValue::parse(PrimitiveType::F64, t).is_err(), "{t}");
        }
        for t in ["", "+", "-", "1.0", "+-1", "1 2"] {
            assert!(TypedValue::parse(PrimitiveType::I64, t).is_err(), "{t}");
        }
        assert!(TypedValue::parse(PrimitiveType::I8, "128").is_err());
        assert_eq!(
            TypedValue::parse(PrimitiveType::I8, "-128"),
            Ok(TypedValue::I8(-128))
        );
        assert!(TypedValue::parse(PrimitiveType::U32, "-1").is_err());
        assert_eq!(
            TypedValue::parse(PrimitiveType::Bool, "1"),
            Ok(TypedValue::Bool(true))
        );
    }

    #[test]
    fn base64_round_trips_and_rejects_bad_input() {
        for n in 0..10 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 200) as u8).collect();
            let mut s = String::new();
            push_base64(&mut s, &bytes);
            assert_eq!(parse_base64(&s).unwrap(), bytes, "{s}");
        }
        for bad in ["a", "ab=c", "a!==", "aGk", "aGl="] {
            assert!(parse_base64(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_base64(" aG\nk= ").unwrap(), b"hi");
    }
}

/// The typed content of a LEAF or ARRAY element, as [`crate::Reader::typed_content`] returns
/// it: strings, bytes and (when the byte order and alignment allow) arrays borrow the input.
#[derive(Clone, Debug, PartialEq)]
pub enum Typed<'a> {
    /// A LEAF element's value.
    Value(TypedValue<'a>),
    /// An ARRAY element's values.
    Array(Array<'a>),
}

impl Typed<'_> {
    /// The type of the value or of the array's values.
    pub fn primitive_type(&self) -> PrimitiveType {
        match self {
            Typed::Value(v) => v.primitive_type(),
            Typed::Array(a) => a.primitive_type(),
        }
    }

    /// Appends the text form (what the text reader would report as the element's content).
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::binary::{Array, Typed};
    /// let mut s = String::new();
    /// Typed::Array(Array::F32(Cow::Borrowed(&[0.5, 2.0]))).write_text(&mut s);
    /// assert_eq!(s, "0.5 2.0");
    /// ```
    pub fn write_text(&self, out: &mut String) {
        match self {
            Typed::Value(v) => v.write_text(out),
            Typed::Array(a) => a.write_text(out),
        }
    }
}
