//! Typed values, their canonical forms and the constraining facets.

use std::cmp::Ordering;

use crate::chars;

use super::binary;
use super::decimal::Decimal;
use super::numbers::{is_xsd_number, xsd_integer, xsd_integer_in};
use super::temporal::{DateTime, Duration, TemporalKind};
use super::{Builtin, DatatypeError};

/// A value in the value space of a built-in type.
///
/// `==` compares representations: two date/time values for the same instant written with
/// different timezones are not `==`; [`Value::partial_cmp_value`] is the value-space order.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `string` and the types derived from it, and `anyURI`.
    String(String),
    /// `boolean`.
    Bool(bool),
    /// `decimal`.
    Decimal(Decimal),
    /// `integer` and the types derived from it (always integral).
    Integer(Decimal),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `duration`.
    Duration(Duration),
    /// The date/time types.
    DateTime(DateTime),
    /// `hexBinary`.
    HexBinary(Vec<u8>),
    /// `base64Binary`.
    Base64Binary(Vec<u8>),
    /// `QName` and `NOTATION`: the namespace name (`""` for none), the prefix as written and
    /// the local name.
    QName {
        /// The namespace name, empty for none.
        namespace: String,
        /// The prefix as written, empty for none (kept for the canonical form).
        prefix: String,
        /// The local part.
        local: String,
    },
    /// The list types: the items in order.
    List(Vec<Value>),
}

/// The range of an integer built-in (`None`: unbounded on that side; both for the types that
/// are not integers or have no bound, `integer` and `decimal`).
pub fn integer_range(ty: Builtin) -> (Option<i128>, Option<i128>) {
    match ty {
        Builtin::NonPositiveInteger => (None, Some(0)),
        Builtin::NegativeInteger => (None, Some(-1)),
        Builtin::Long => (Some(i64::MIN.into()), Some(i64::MAX.into())),
        Builtin::Int => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        Builtin::Short => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        Builtin::Byte => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        Builtin::NonNegativeInteger => (Some(0), None),
        Builtin::UnsignedLong => (Some(0), Some(u64::MAX.into())),
        Builtin::UnsignedInt => (Some(0), Some(u32::MAX.into())),
        Builtin::UnsignedShort => (Some(0), Some(u16::MAX.into())),
        Builtin::UnsignedByte => (Some(0), Some(u8::MAX.into())),
        Builtin::PositiveInteger => (Some(1), None),
        _ => (None, None),
    }
}

/// `float`/`double` lexical space: a decimal with an optional exponent, `INF`, `-INF`, `NaN`.
/// After an optional sign, a number starts with a digit or a point; from there on Rust's
/// grammar for floats is XSD's (digits, an optional point and digits, an optional exponent),
/// so Rust's parser both checks and converts it. Its words (`inf`, `nan`, ...) differ from
/// XSD's, which are compared apart.
fn parse_float<T: std::str::FromStr>(s: &str, inf: T, neg_inf: T, nan: T) -> Option<T> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(body.as_bytes().first(), Some(b'0'..=b'9' | b'.')) {
        return s.parse().ok();
    }
    match s {
        "INF" => Some(inf),
        "-INF" => Some(neg_inf),
        "NaN" => Some(nan),
        _ => None,
    }
}

/// `language`: `[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*`.
fn is_language(s: &str) -> bool {
    let mut parts = s.split('-');
    let first = parts.next().unwrap_or("");
    let ok = |p: &str, alpha_only: bool| {
        (1..=8).contains(&p.len())
            && p.bytes()
                .all(|b| b.is_ascii_alphabetic() || (!alpha_only && b.is_ascii_digit()))
    };
    ok(first, true) && parts.all(|p| ok(p, false))
}

/// The lexical check of the string types (`string`, `token`, `NCName`, `anyURI`, ...):
/// `None` for the other types.
fn string_check(ty: Builtin, s: &str) -> Option<Result<(), &'static str>> {
    let ok = |b: bool, why: &'static str| Some(if b { Ok(()) } else { Err(why) });
    match ty {
        Builtin::AnySimpleType
        | Builtin::String
        | Builtin::NormalizedString
        | Builtin::Token
        | Builtin::AnyUri => ok(
            chars::is_xml_text(s),
            "contains a character that is not allowed in XML",
        ),
        Builtin::Language => ok(is_language(s), "not a language tag"),
        Builtin::NmToken => ok(chars::is_nmtoken(s), "not an XML Nmtoken"),
        Builtin::Name => ok(chars::is_name(s), "not an XML Name"),
        Builtin::NcName | Builtin::Id | Builtin::IdRef | Builtin::Entity => {
            ok(chars::is_ncname(s), "not an NCName")
        }
        _ => None,
    }
}

/// Whether `s` (text the reader has checked) is as it stands a value of string built-in `ty`:
/// its whitespace facet leaves it unchanged, and it passes the type's lexical check. `false`
/// for the other types, and for text the facet would change (normalized first elsewhere).
pub fn is_plain_string(ty: Builtin, s: &str) -> bool {
    ty.white_space().keeps(s) && matches!(string_check(ty, s), Some(Ok(())))
}

pub(crate) fn string_lexical(ty: Builtin, s: &str) -> Result<(), DatatypeError> {
    match string_check(ty, s) {
        Some(Err(why)) => Err(DatatypeError::lexical(ty, s, why)),
        _ => Ok(()),
    }
}

/// Whether no value of this built-in has whitespace inside its lexical form (numbers,
/// booleans, dates and times): for these, a value that parses after trimming is the value of
/// the collapsed form.
#[inline]
pub fn rejects_inner_space(ty: Builtin) -> bool {
    matches!(
        ty,
        Builtin::Boolean
            | Builtin::Decimal
            | Builtin::Float
            | Builtin::Double
            | Builtin::DateTime
            | Builtin::Time
            | Builtin::Date
            | Builtin::GYearMonth
            | Builtin::GYear
            | Builtin::GMonthDay
            | Builtin::GDay
            | Builtin::GMonth
            | Builtin::Integer
            | Builtin::NonPositiveInteger
            | Builtin::NegativeInteger
            | Builtin::Long
            | Builtin::Int
            | Builtin::Short
            | Builtin::Byte
            | Builtin::NonNegativeInteger
            | Builtin::UnsignedLong
            | Builtin::UnsignedInt
            | Builtin::UnsignedShort
            | Builtin::UnsignedByte
            | Builtin::PositiveInteger
    )
}

/// Whether the values of this built-in (or of a type derived from it) are written in a
/// small alphabet that a scan can test: numbers, booleans, dates, times and durations
/// (`bind::value::may_be` rules values out by it). Not lists, strings, names or binary.
pub fn has_restricted_form(ty: Builtin) -> bool {
    let p = ty.primitive();
    !ty.is_list() && (rejects_inner_space(p) || p == Builtin::Duration)
}

/// The value of `lexical` for a built-in without whitespace inside its values
/// ([`rejects_inner_space`]), parsed from the text trimmed of XML whitespace (its collapsed
/// form, when valid) without the general machinery: `None` when it is not valid, for the
/// general way to say why.
pub fn parse_plain(ty: Builtin, lexical: &str) -> Option<Value> {
    debug_assert!(rejects_inner_space(ty));
    parse_normalized(ty, trim_xml(lexical), &|_| None).ok()
}

/// Whether the values of a built-in are checked by [`is_plain_number`]: `decimal`, `float`
/// and `double`, whose lexical check is a scan of a few bytes, far cheaper than building the
/// value (a double's conversion alone costs some 300 instructions). The integers have
/// [`small_integer`].
pub fn is_scanned_number(ty: Builtin) -> bool {
    matches!(ty, Builtin::Decimal | Builtin::Float | Builtin::Double)
}

/// Whether `lexical` is, once trimmed of XML whitespace, certainly a valid value of `ty`
/// (`decimal`, `float` or `double`), by a scan of its bytes: no value is built. `true`
/// implies that [`parse_plain`] gives a value; `false` when it is not valid or cannot be
/// told this way (`INF`, `NaN`): then [`parse_plain`] decides.
pub fn is_plain_number(ty: Builtin, lexical: &str) -> bool {
    debug_assert!(is_scanned_number(ty));
    is_xsd_number(trim_xml(lexical).as_bytes(), ty != Builtin::Decimal)
}

/// The value of an `integer` lexical (trimmed of XML whitespace) of at most 18 digits
/// after its sign, which always fits an `i64`: `None` for anything else (invalid, or
/// longer: then [`parse_plain`] decides).
pub fn small_integer(lexical: &str) -> Option<i64> {
    xsd_integer(trim_xml(lexical).as_bytes())
}

/// [`small_integer`] of `lexical`, a slice of `doc` (where the reader read it) or not: when
/// it is, read with the bytes before it in `doc` ([`xsd_integer_in`]).
#[inline]
pub fn small_integer_in(lexical: &str, doc: &[u8]) -> Option<i64> {
    let t = trim_xml(lexical).as_bytes();
    let start = (t.as_ptr() as usize).wrapping_sub(doc.as_ptr() as usize);
    match start.checked_add(t.len()) {
        Some(end) if end <= doc.len() => xsd_integer_in(doc, start..end),
        _ => xsd_integer(t),
    }
}

/// The bounds of an integer built-in, as far as an `i64` reaches (`unsignedLong`'s upper
/// bound is beyond it; `integer` has none).
pub fn i64_bounds(ty: Builtin) -> (i64, i64) {
    let (lo, hi) = integer_range(ty);
    let clamp = |b: i128| i64::try_from(b).unwrap_or(if b < 0 { i64::MIN } else { i64::MAX });
    (lo.map_or(i64::MIN, clamp), hi.map_or(i64::MAX, clamp))
}

/// `s` without leading and trailing XML whitespace (a byte loop: cheaper than
/// `str::trim_matches`, which decodes characters).
#[inline]
pub fn trim_xml(s: &str) -> &str {
    let b = s.as_bytes();
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    // Most values have no white space around them: two compares, no slicing.
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) if !ws(f) && !ws(l) => return s,
        _ => {}
    }
    let (mut start, mut end) = (0, b.len());
    while start < end && ws(b[start]) {
        start += 1;
    }
    while end > start && ws(b[end - 1]) {
        end -= 1;
    }
    // Both ends are next to ASCII bytes (or the ends of `s`): character boundaries.
    &s[start..end]
}

/// Whether values of this built-in are strings.
pub fn is_string_type(ty: Builtin) -> bool {
    string_check(ty, "").is_some()
}

pub(crate) fn parse_normalized(
    ty: Builtin,
    s: &str,
    resolve: &dyn Fn(&str) -> Option<String>,
) -> Result<Value, DatatypeError> {
    let err = |why: &str| DatatypeError::lexical(ty, s, why);
    if let Some(item) = ty.item_type() {
        let items = s
            .split(' ')
            .filter(|i| !i.is_empty())
            .map(|i| parse_normalized(item, i, resolve))
            .collect::<Result<Vec<_>, _>>()?;
        if items.is_empty() {
            return Err(err("a list of this type needs at least one item"));
        }
        return Ok(Value::List(items));
    }
    let temporal = |k: TemporalKind| DateTime::parse(k, s).map(Value::DateTime).map_err(err);
    match ty {
        Builtin::AnySimpleType
        | Builtin::String
        | Builtin::NormalizedString
        | Builtin::Token
        | Builtin::AnyUri
        | Builtin::Language
        | Builtin::NmToken
        | Builtin::Name
        | Builtin::NcName
        | Builtin::Id
        | Builtin::IdRef
        | Builtin::Entity => {
            string_lexical(ty, s)?;
            Ok(Value::String(s.to_owned()))
        }
        Builtin::Boolean => match s {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(err("expected true, false, 1 or 0")),
        },
        Builtin::Decimal => Decimal::parse(s)
            .map(Value::Decimal)
            .ok_or_else(|| err("expected digits with an optional sign and point, no exponent")),
        Builtin::Float => parse_float(s, f32::INFINITY, f32::NEG_INFINITY, f32::NAN)
            .map(Value::Float)
            .ok_or_else(|| err("expected a decimal with an optional exponent, INF, -INF or NaN")),
        Builtin::Double => parse_float(s, f64::INFINITY, f64::NEG_INFINITY, f64::NAN)
            .map(Value::Double)
            .ok_or_else(|| err("expected a decimal with an optional exponent, INF, -INF or NaN")),
        Builtin::Duration => Duration::parse(s).map(Value::Duration).map_err(err),
        Builtin::DateTime => temporal(TemporalKind::DateTime),
        Builtin::Time => temporal(TemporalKind::Time),
        Builtin::Date => temporal(TemporalKind::Date),
        Builtin::GYearMonth => temporal(TemporalKind::GYearMonth),
        Builtin::GYear => temporal(TemporalKind::GYear),
        Builtin::GMonthDay => temporal(TemporalKind::GMonthDay),
        Builtin::GDay => temporal(TemporalKind::GDay),
        Builtin::GMonth => temporal(TemporalKind::GMonth),
        Builtin::HexBinary => binary::decode_hex(s).map(Value::HexBinary).map_err(err),
        Builtin::Base64Binary => binary::decode_base64(s)
            .map(Value::Base64Binary)
            .map_err(err),
        Builtin::QName | Builtin::Notation => {
            if !chars::is_qname(s) {
                return Err(err("not a QName"));
            }
            let (prefix, local) = s.split_once(':').unwrap_or(("", s));
            let namespace = resolve(prefix)
                .ok_or_else(|| err(&format!("the prefix '{prefix}' is not declared")))?;
            Ok(Value::QName {
                namespace,
                prefix: prefix.to_owned(),
                local: local.to_owned(),
            })
        }
        _ => {
            // integer and everything derived from it
            let d = Decimal::parse_integer(s)
                .ok_or_else(|| err("expected digits with an optional sign"))?;
            let (lo, hi) = integer_range(ty);
            let small = d.small_integer();
            let cmp = |bound: i128| match small {
                Some(v) => i128::from(v).cmp(&bound),
                None => d.cmp_i128(bound),
            };
            if lo.is_some_and(|lo| cmp(lo) == Ordering::Less) {
                return Err(err(&format!(
                    "below the minimum {}",
                    lo.unwrap_or_default()
                )));
            }
            if hi.is_some_and(|hi| cmp(hi) == Ordering::Greater) {
                return Err(err(&format!(
                    "above the maximum {}",
                    hi.unwrap_or_default()
                )));
            }
            Ok(Value::Integer(d))
        }
    }
}

fn canonical_float(v: f64, shortest: String) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "INF" } else { "-INF" }.into();
    }
    // `shortest` is Rust's `{:E}`: `1E0`, `-1.5E-7`; Part 2 wants a point in the mantissa.
    match shortest.split_once('E') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0E{e}"),
        _ => shortest,
    }
}

impl Value {
    /// The canonical representation of Part 2 (see the module docs for the deviations).
    pub fn canonical(&self) -> String {
        match self {
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Decimal(d) => d.canonical_decimal(),
            Value::Integer(d) => d.canonical_integer(),
            Value::Float(f) => canonical_float(f64::from(*f), format!("{f:E}")),
            Value::Double(f) => canonical_float(*f, format!("{f:E}")),
            Value::Duration(d) => d.canonical(),
            Value::DateTime(d) => d.canonical(),
            Value::HexBinary(b) => binary::encode_hex(b),
            Value::Base64Binary(b) => binary::encode_base64(b),
            Value::QName { prefix, local, .. } => {
                if prefix.is_empty() {
                    local.clone()
                } else {
                    format!("{prefix}:{local}")
                }
            }
            Value::List(items) => items
                .iter()
                .map(Value::canonical)
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// The canonical form, but a QName as `{namespace}local`: what tells two QName values
    /// apart whatever their prefixes.
    pub fn expanded_canonical(&self) -> String {
        match self {
            Value::QName {
                namespace, local, ..
            } => format!("{{{namespace}}}{local}"),
            v => v.canonical(),
        }
    }

    /// The measure of `length`, `minLength` and `maxLength`: characters for strings, octets
    /// for binary, items for lists. `None` for `QName` and `NOTATION` (where these facets
    /// always succeed, per erratum E2-36) and for types these facets do not apply to.
    pub fn length(&self) -> Option<usize> {
        match self {
            Value::String(s) => Some(s.chars().count()),
            Value::HexBinary(b) | Value::Base64Binary(b) => Some(b.len()),
            Value::List(items) => Some(items.len()),
            _ => None,
        }
    }

    /// The order of the value space: `None` for unordered types, for values of different
    /// types, for `NaN`, and for indeterminate duration and date/time comparisons.
    pub fn partial_cmp_value(&self, other: &Value) -> Option<Ordering> {
        match (self, other) {
            (Value::Decimal(a) | Value::Integer(a), Value::Decimal(b) | Value::Integer(b)) => {
                Some(a.cmp(b))
            }
            (Value::Float(a), Value::Float(b)) => a.partial_cmp(b),
            (Value::Double(a), Value::Double(b)) => a.partial_cmp(b),
            (Value::Duration(a), Value::Duration(b)) => a.partial_cmp(b),
            (Value::DateTime(a), Value::DateTime(b)) => a.partial_cmp(b),
            _ => None,
        }
    }
}

/// A constraining facet that applies to a built-in value.
#[derive(Clone, Debug, PartialEq)]
pub enum Facet {
    /// `length`.
    Length(usize),
    /// `minLength`.
    MinLength(usize),
    /// `maxLength`.
    MaxLength(usize),
    /// `totalDigits` (decimal and integer types).
    TotalDigits(u32),
    /// `fractionDigits` (decimal and integer types).
    FractionDigits(u32),
    /// `minInclusive`.
    MinInclusive(Value),
    /// `maxInclusive`.
    MaxInclusive(Value),
    /// `minExclusive`.
    MinExclusive(Value),
    /// `maxExclusive`.
    MaxExclusive(Value),
}

impl Facet {
    /// The facet's name in a schema.
    pub fn name(&self) -> &'static str {
        match self {
            Facet::Length(_) => "length",
            Facet::MinLength(_) => "minLength",
            Facet::MaxLength(_) => "maxLength",
            Facet::TotalDigits(_) => "totalDigits",
            Facet::FractionDigits(_) => "fractionDigits",
            Facet::MinInclusive(_) => "minInclusive",
            Facet::MaxInclusive(_) => "maxInclusive",
            Facet::MinExclusive(_) => "minExclusive",
            Facet::MaxExclusive(_) => "maxExclusive",
        }
    }

    /// Checks `value` against this facet. A bound that cannot be compared with the value
    /// (a different type, `NaN`, an indeterminate order) fails; length facets on values
    /// without a length (`QName`, `NOTATION`) succeed.
    pub fn check(&self, value: &Value) -> Result<(), DatatypeError> {
        let fail = |what: String| {
            Err(DatatypeError::new(format!(
                "'{}' does not satisfy {}: {what}",
                value.canonical(),
                self.name()
            )))
        };
        let digits = |v: &Value| match v {
            Value::Decimal(d) | Value::Integer(d) => Some((d.total_digits(), d.fraction_digits())),
            _ => None,
        };
        match self {
            Facet::Length(n) | Facet::MinLength(n) | Facet::MaxLength(n) => {
                let Some(len) = value.length() else {
                    return Ok(());
                };
                let ok = match self {
                    Facet::Length(_) => len == *n,
                    Facet::MinLength(_) => len >= *n,
                    _ => len <= *n,
                };
                if ok {
                    Ok(())
                } else {
                    fail(format!("its length is {len}, the facet is {n}"))
                }
            }
            Facet::TotalDigits(n) => match digits(value) {
                Some((t, _)) if t <= *n => Ok(()),
                Some((t, _)) => fail(format!("it has {t} digits, at most {n} are allowed")),
                None => fail("it is not a decimal".into()),
            },
            Facet::FractionDigits(n) => match digits(value) {
                Some((_, f)) if f <= *n => Ok(()),
                Some((_, f)) => fail(format!(
                    "it has {f} fraction digits, at most {n} are allowed"
                )),
                None => fail("it is not a decimal".into()),
            },
            Facet::MinInclusive(b)
            | Facet::MaxInclusive(b)
            | Facet::MinExclusive(b)
            | Facet::MaxExclusive(b) => {
                let ord = value.partial_cmp_value(b);
                let ok = match (self, ord) {
                    (_, None) => false,
                    (Facet::MinInclusive(_), Some(o)) => o != Ordering::Less,
                    (Facet::MaxInclusive(_), Some(o)) => o != Ordering::Greater,
                    (Facet::MinExclusive(_), Some(o)) => o == Ordering::Greater,
                    (_, Some(o)) => o == Ordering::Less,
                };
                if ok {
                    Ok(())
                } else if ord.is_none() {
                    fail(format!("it cannot be compared with '{}'", b.canonical()))
                } else {
                    fail(format!("the bound is '{}'", b.canonical()))
                }
            }
        }
    }
}
