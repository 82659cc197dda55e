//! Lexical forms to values, by the rules of the schema validator ([`crate::datatypes`]): what
//! generated code calls for each simple-typed attribute and element. Each function takes the
//! text as the document has it (whitespace is handled here, as the type's `whiteSpace` facet
//! says) and gives the value or a [`Fault`].

use crate::datatypes::{self, Builtin, Decimal, Duration, Value};

use super::{Dfa, Fault, Text};

/// The constraint a lexical form breaks.
const DATATYPE: &str = "cvc-datatype-valid.1.2.1";

fn parse(b: Builtin, s: &str) -> Result<Value, Fault> {
    b.parse(s).map_err(|e| Fault::new(DATATYPE, e.message()))
}

/// A value of a string type `b` (`string`, `token`, `NCName`, ...): whitespace normalised as
/// the type says, the lexical form checked.
pub fn string(s: &str, b: Builtin) -> Result<Text, Fault> {
    if b == Builtin::String {
        return Ok(Text::from(s));
    }
    if b.is_string_family() {
        // Checked where it stands: no `String` made for the value and dropped (an
        // allocation per `token` or `NMTOKEN` attribute on a purchase order).
        let n = b.white_space().normalize(s);
        return match datatypes::string_lexical(b, &n) {
            Ok(()) => Ok(Text::from(&*n)),
            Err(e) => Err(Fault::new(DATATYPE, e.message())),
        };
    }
    match parse(b, s)? {
        Value::String(v) => Ok(Text::from(v)),
        v => Ok(Text::from(v.canonical())),
    }
}

/// Whether the built-in type named `local` (in the XML Schema namespace) may stand for an
/// element of built-in type `base` through `xsi:type`, and `s` is one of its values:
/// `Ok(false)` when it names no built-in type or one not derived from `base`, the value's
/// fault when `s` is not valid for it. `base` itself (but `anySimpleType`) is `Ok(true)`
/// unchecked: the element's own conversion checks its value for `base`.
///
/// ```
/// use xwire::bind::value::builtin_derived;
/// use xwire::datatypes::Builtin;
///
/// assert_eq!(builtin_derived("int", Builtin::Decimal, " 42 "), Ok(true));
/// assert_eq!(builtin_derived("string", Builtin::Decimal, "42"), Ok(false));
/// assert!(builtin_derived("byte", Builtin::Decimal, "300").is_err());
/// ```
pub fn builtin_derived(local: &str, base: Builtin, s: &str) -> Result<bool, Fault> {
    let Some(b) = Builtin::from_name(local) else {
        return Ok(false);
    };
    // The declared type itself: the element's own conversion checks the value (lax content
    // has none: it asks with `anySimpleType`).
    if b == base && base != Builtin::AnySimpleType {
        return Ok(true);
    }
    // A list type's base is anySimpleType, not its item type (Builtin::derives_from counts
    // the item type).
    let derived =
        base == Builtin::AnySimpleType || (b.is_list() == base.is_list() && b.derives_from(base));
    if !derived {
        return Ok(false);
    }
    check_builtin(b, s).map(|()| true)
}

/// Checks `s` against the built-in type `b`, no value built when a scan of the bytes tells
/// (integers of up to 18 digits, plain numbers, dates and strings as they stand); a QName's
/// form only (its prefix resolves where its element's bindings are).
///
/// ```
/// use xwire::bind::value::check_builtin;
/// use xwire::datatypes::Builtin;
///
/// assert!(check_builtin(Builtin::Int, " -7275 ").is_ok());
/// assert!(check_builtin(Builtin::Int, "3000000000").is_err());
/// assert!(check_builtin(Builtin::Double, "INF").is_ok());
/// assert!(check_builtin(Builtin::Boolean, "yes").is_err());
/// ```
pub fn check_builtin(b: Builtin, s: &str) -> Result<(), Fault> {
    if matches!(b, Builtin::QName | Builtin::Notation) {
        // The prefix resolves where the element's own conversion has its bindings: here only
        // the form is checked.
        return match crate::chars::is_qname(datatypes::trim_xml(s)) {
            true => Ok(()),
            false => Err(Fault::new(DATATYPE, "not a QName")),
        };
    }
    let plain = if b.derives_from(Builtin::Integer) {
        let (lo, hi) = datatypes::i64_bounds(b);
        datatypes::small_integer(s).is_some_and(|v| lo <= v && v <= hi)
    } else if datatypes::is_scanned_number(b) {
        datatypes::is_plain_number(b, s)
    } else if b == Builtin::Boolean {
        matches!(datatypes::trim_xml(s), "true" | "false" | "1" | "0")
    } else {
        datatypes::is_plain_string(b, s) || datatypes::is_plain_temporal(b, s)
    };
    if plain {
        return Ok(());
    }
    parse(b, s).map(drop)
}

/// The items of a built-in list of strings (`NMTOKENS`, `IDREFS`, `ENTITIES`).
pub fn string_list(s: &str, item: Builtin) -> Result<Vec<Text>, Fault> {
    let items = s
        .split([' ', '\t', '\n', '\r'])
        .filter(|t| !t.is_empty())
        .map(|t| string(t, item))
        .collect::<Result<Vec<_>, _>>()?;
    // NMTOKENS, IDREFS and ENTITIES have at least one item (their minLength is 1).
    if items.is_empty() {
        return Err(Fault::new(
            DATATYPE,
            "a list of this type needs at least one item",
        ));
    }
    Ok(items)
}

/// An integer from `min` to `max` (the range of the Rust type `T` holds it; the type's and
/// its facets' bounds are `min` and `max`).
pub fn int<T: TryFrom<i128>>(s: &str, min: i128, max: i128) -> Result<T, Fault> {
    let v = match datatypes::small_integer(datatypes::trim_xml(s)) {
        Some(v) => i128::from(v),
        None => match parse(Builtin::Integer, s)? {
            Value::Integer(d) => d
                .to_i128()
                .ok_or_else(|| out_of_range(s.trim(), min, max))?,
            _ => unreachable!("integer values are integers"),
        },
    };
    if v < min || v > max {
        return Err(out_of_range(s.trim(), min, max));
    }
    T::try_from(v).map_err(|_| out_of_range(s.trim(), min, max))
}

#[cold]
fn out_of_range(s: &str, min: i128, max: i128) -> Fault {
    Fault::new(
        "cvc-datatype-valid.1.2.1",
        format!("'{s}' is not an integer from {min} to {max}"),
    )
}

/// An integer of any size, at least `min` and at most `max` where they are given.
pub fn integer(s: &str, min: Option<i128>, max: Option<i128>) -> Result<Integer, Fault> {
    // Most values have a few digits: read in words, built without a parse.
    if let Some(v) = datatypes::small_integer(s) {
        let w = i128::from(v);
        if min.map_or(true, |m| m <= w) && max.map_or(true, |m| w <= m) {
            return Ok(Integer(Decimal::from_i64(v)));
        }
    }
    let d = match parse(Builtin::Integer, s)? {
        Value::Integer(d) => d,
        _ => unreachable!("integer values are integers"),
    };
    let below = min.is_some_and(|m| d.cmp_i128(m).is_lt());
    let above = max.is_some_and(|m| d.cmp_i128(m).is_gt());
    if below || above {
        let bound = |b: Option<i128>| b.map_or("unbounded".to_string(), |b| b.to_string());
        return Err(Fault::new(
            "cvc-datatype-valid.1.2.1",
            format!(
                "'{}' is not an integer from {} to {}",
                s.trim(),
                bound(min),
                bound(max)
            ),
        ));
    }
    Ok(Integer(d))
}

/// Checks an `xs:string` value that has no facets, for validate-only code: every string is
/// one (the source has checked its characters), so nothing is built.
///
/// ```
/// assert_eq!(xwire::bind::value::check_string("any text"), Ok(()));
/// ```
#[inline(always)]
pub fn check_string(_s: &str) -> Result<(), Fault> {
    Ok(())
}

/// Checks an `xs:decimal` value that has no facets, for validate-only code: [`decimal`]'s
/// verdict and fault, the value not built when the lexical form is right.
///
/// ```
/// use xwire::bind::value::{check_decimal, decimal};
///
/// assert_eq!(check_decimal(" 174.93 "), Ok(()));
/// assert_eq!(check_decimal("1.5e3").unwrap_err(), decimal("1.5e3").unwrap_err());
/// ```
pub fn check_decimal(s: &str) -> Result<(), Fault> {
    let b = datatypes::trim_xml(s).as_bytes();
    match crate::datatypes::decimal::DecimalLexical::prefix_of(b) {
        Some(d) if d.end == b.len() => Ok(()),
        // The fault as `decimal` words it.
        _ => decimal(s).map(|_| ()),
    }
}

/// Checks an `xs:float` value that has no facets, for validate-only code: [`float`]'s
/// verdict and fault, the value not converted when a scan of its bytes tells
/// ([`check_builtin`]).
///
/// ```
/// use xwire::bind::value::{check_float, float};
///
/// assert_eq!(check_float(" -4.75e-4 "), Ok(()));
/// assert_eq!(check_float("INF"), Ok(()));
/// assert_eq!(check_float("1,5").unwrap_err(), float("1,5").unwrap_err());
/// ```
pub fn check_float(s: &str) -> Result<(), Fault> {
    check_builtin(Builtin::Float, s)
}

/// Checks an `xs:double` value that has no facets, for validate-only code: [`double`]'s
/// verdict and fault, the value not converted when a scan of its bytes tells
/// ([`check_builtin`]).
///
/// ```
/// use xwire::bind::value::{check_double, double};
///
/// assert_eq!(check_double("-4.2200362637681266e-5"), Ok(()));
/// assert_eq!(check_double("1e"), double("1e").map(drop));
/// ```
pub fn check_double(s: &str) -> Result<(), Fault> {
    check_builtin(Builtin::Double, s)
}

/// An `xs:decimal`.
pub fn decimal(s: &str) -> Result<Decimal, Fault> {
    // The direct lexer first; the general parse says why a value is wrong.
    if let Some(d) = Decimal::parse(datatypes::trim_xml(s)) {
        return Ok(d);
    }
    match parse(Builtin::Decimal, s)? {
        Value::Decimal(d) => Ok(d),
        _ => unreachable!("decimal values are decimals"),
    }
}

/// An `xs:QName` or `xs:NOTATION`: its prefix resolved through `scope`, the bindings in
/// scope where the value stands; an unprefixed name is in the default namespace.
///
/// ```
/// use xwire::bind::{value, Bindings, QName};
///
/// let mut scope = Bindings::default();
/// scope.push("", "urn:default");
/// assert_eq!(value::qname(" item ", &scope)?, QName::new("urn:default", "item"));
/// assert!(value::qname("p:item", &scope).is_err()); // p is not declared
/// assert!(value::qname("a b", &scope).is_err());
/// # Ok::<(), xwire::bind::Fault>(())
/// ```
pub fn qname(s: &str, scope: &super::Bindings) -> Result<super::QName, Fault> {
    let resolve = |p: &str| scope.uri(p).map(str::to_string);
    match Builtin::QName.parse_with(s, &resolve) {
        Ok(Value::QName {
            namespace,
            prefix,
            local,
        }) => Ok(super::QName::with_prefix(namespace, local, prefix)),
        Ok(_) => unreachable!("QName values are QNames"),
        Err(e) => Err(Fault::new(DATATYPE, e.message())),
    }
}

/// An `xs:float`.
pub fn float(s: &str) -> Result<f32, Fault> {
    // A plain number (no `INF`, `NaN`) is what Rust's parser reads, as the validator does.
    if datatypes::is_plain_number(Builtin::Float, s) {
        if let Ok(v) = datatypes::trim_xml(s).parse() {
            return Ok(v);
        }
    }
    match parse(Builtin::Float, s)? {
        Value::Float(f) => Ok(f),
        _ => unreachable!("float values are floats"),
    }
}

/// An `xs:double`.
pub fn double(s: &str) -> Result<f64, Fault> {
    if datatypes::is_plain_number(Builtin::Double, s) {
        if let Ok(v) = datatypes::trim_xml(s).parse() {
            return Ok(v);
        }
    }
    match parse(Builtin::Double, s)? {
        Value::Double(f) => Ok(f),
        _ => unreachable!("double values are doubles"),
    }
}

/// An `xs:boolean`.
pub fn boolean(s: &str) -> Result<bool, Fault> {
    match datatypes::trim_xml(s) {
        "true" | "1" => return Ok(true),
        "false" | "0" => return Ok(false),
        _ => {}
    }
    match parse(Builtin::Boolean, s)? {
        Value::Bool(b) => Ok(b),
        _ => unreachable!("boolean values are booleans"),
    }
}

/// An `xs:duration`.
pub fn duration(s: &str) -> Result<Duration, Fault> {
    match parse(Builtin::Duration, s)? {
        Value::Duration(d) => Ok(d),
        _ => unreachable!("duration values are durations"),
    }
}

/// The bytes of an `xs:hexBinary`.
pub fn hex_binary(s: &str) -> Result<Vec<u8>, Fault> {
    match parse(Builtin::HexBinary, s)? {
        Value::HexBinary(b) => Ok(b),
        _ => unreachable!("hexBinary values are bytes"),
    }
}

/// The bytes of an `xs:base64Binary`.
pub fn base64_binary(s: &str) -> Result<Vec<u8>, Fault> {
    match parse(Builtin::Base64Binary, s)? {
        Value::Base64Binary(b) => Ok(b),
        _ => unreachable!("base64Binary values are bytes"),
    }
}

/// Checks a (normalised) value against a pattern facet: `pattern` is the expression as the
/// schema writes it, for the message.
pub fn pattern(value: &str, dfa: &Dfa, pattern: &str) -> Result<(), Fault> {
    if dfa.matches(value) {
        Ok(())
    } else {
        Err(Fault::new(
            "cvc-pattern-valid",
            format!("'{value}' does not match the pattern '{pattern}'"),
        ))
    }
}

/// The position of a (normalised) string value among the values an enumeration allows.
pub fn enumeration(value: &str, allowed: &[&str]) -> Result<usize, Fault> {
    allowed.iter().position(|a| *a == value).ok_or_else(|| {
        Fault::new(
            "cvc-enumeration-valid",
            format!("'{value}' is not one of {}", allowed.join(", ")),
        )
    })
}

/// The lexical form of a list value as its facets see it: white space collapsed (what a
/// list type's `pattern` facet is matched against).
///
/// ```
/// assert_eq!(xwire::bind::value::list_lexical(" 1\t 2\n3 "), "1 2 3");
/// ```
pub fn list_lexical(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for item in s.split([' ', '\t', '\n', '\r']).filter(|t| !t.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(item);
    }
    out
}

/// Whether the list value `v` is one of the enumerated lists `allowed` (their lexical
/// forms), compared in the value space: each converted item by item with `item`, the
/// conversion of the list's item type.
///
/// ```
/// use xwire::bind::value::{int, list_enumerated};
///
/// let item = |s: &str| int::<u8>(s, 0, 255);
/// assert!(list_enumerated(&[1u8, 2], &["3", "01 2"], item));
/// assert!(!list_enumerated(&[1u8], &["1 2"], item));
/// ```
pub fn list_enumerated<T, F>(v: &[T], allowed: &[&str], item: F) -> bool
where
    T: PartialEq,
    F: Fn(&str) -> Result<T, Fault>,
{
    allowed.iter().any(|e| {
        let mut items = e.split([' ', '\t', '\n', '\r']).filter(|t| !t.is_empty());
        let mut n = 0;
        let same = items.by_ref().all(|t| {
            n += 1;
            v.get(n - 1).is_some_and(|x| item(t).is_ok_and(|y| *x == y))
        });
        same && n == v.len()
    })
}

/// The fault of a value that is none of an enumeration's (`allowed`: the values, listed for
/// the message).
#[cold]
pub fn not_enumerated(value: &str, allowed: &str) -> Fault {
    Fault::new(
        "cvc-enumeration-valid",
        format!("'{value}' is not one of {allowed}"),
    )
}

/// Checks the number of items of a list value against `length`, `minLength` and `maxLength`.
pub fn items(n: usize, min: usize, max: Option<usize>) -> Result<(), Fault> {
    if n < min || max.is_some_and(|m| n > m) {
        let max = max.map_or("unbounded".to_string(), |m| m.to_string());
        return Err(Fault::new(
            "cvc-length-valid",
            format!("the list has {n} items; from {min} to {max} are allowed"),
        ));
    }
    Ok(())
}

/// Whether `s` may be a value of the built-in `b` (or a type derived from it), by a scan of
/// its bytes that no valid value fails: a union tries its member types in order, and a
/// member this rules out costs no fault (whose message is formatted, then dropped). `true`
/// for the types it does not scan (strings, lists, binary, names).
///
/// ```
/// use xwire::bind::value::may_be;
/// use xwire::datatypes::Builtin;
///
/// assert!(may_be(Builtin::Int, " -42 "));
/// assert!(!may_be(Builtin::Int, "catalog"));
/// assert!(!may_be(Builtin::Int, "109.071"));
/// assert!(may_be(Builtin::Decimal, "109.071"));
/// assert!(may_be(Builtin::Double, "INF"));
/// assert!(!may_be(Builtin::DateTime, "x2026-11-27T00:00:00Z"));
/// assert!(may_be(Builtin::String, "anything"));
/// ```
// Always inline: `b` is a constant in generated code, and the type tests fold away.
#[inline(always)]
pub fn may_be(b: Builtin, s: &str) -> bool {
    let t = datatypes::trim_xml(s).as_bytes();
    let Some(&first) = t.first() else {
        return true;
    };
    if b.is_list() {
        return true;
    }
    let p = b.primitive();
    match p {
        // Integers: an optional sign, then digits.
        Builtin::Decimal if b.derives_from(Builtin::Integer) => {
            let digits = match first {
                b'+' | b'-' => &t[1..],
                _ => t,
            };
            digits.iter().all(u8::is_ascii_digit)
        }
        Builtin::Decimal => t
            .iter()
            .all(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.')),
        Builtin::Float | Builtin::Double => {
            first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.' | b'I' | b'N')
        }
        Builtin::Boolean => matches!(t, b"true" | b"false" | b"1" | b"0"),
        Builtin::Duration => matches!(first, b'P' | b'-'),
        // The date and time types (the rest of `has_restricted_form`'s).
        _ if datatypes::rejects_inner_space(p) => first.is_ascii_digit() || first == b'-',
        _ => true,
    }
}

/// The fault of a value that none of a union's member types accepts.
#[cold]
pub fn no_member(value: &str) -> Fault {
    Fault::new(
        "cvc-datatype-valid.1.2.3",
        format!(
            "'{}' is a value of none of the union's member types",
            value.trim()
        ),
    )
}

/// Checks the length of a string value (in characters) against `length`, `minLength` and
/// `maxLength` facets.
pub fn length(value: &str, min: usize, max: Option<usize>) -> Result<(), Fault> {
    let n = value.chars().count();
    if n < min || max.is_some_and(|m| n > m) {
        let max = max.map_or("unbounded".to_string(), |m| m.to_string());
        return Err(Fault::new(
            "cvc-length-valid",
            format!("'{value}' has {n} characters; from {min} to {max} are allowed"),
        ));
    }
    Ok(())
}

/// A fixed value: the value given must be the schema's.
pub fn fixed<T: PartialEq>(value: T, fixed: T, lexical: &str) -> Result<T, Fault> {
    if value == fixed {
        Ok(value)
    } else {
        Err(Fault::new(
            "cvc-attribute.4",
            format!("the value must be the fixed value '{lexical}'"),
        ))
    }
}

/// An integer of any size (`xs:integer` and the types derived from it that have no bound
/// on one side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Integer(pub Decimal);

impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.canonical_integer())
    }
}

macro_rules! temporal {
    ($($(#[$doc:meta])* $name:ident, $fn:ident, $builtin:ident;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug, PartialEq)]
            pub struct $name(pub datatypes::DateTime);

            impl std::fmt::Display for $name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(&self.0.canonical())
                }
            }

            #[doc = concat!("An `xs:", stringify!($fn), "` value.")]
            pub fn $fn(s: &str) -> Result<$name, Fault> {
                let kind = datatypes::TemporalKind::$builtin;
                if let Ok(d) = datatypes::DateTime::parse(kind, datatypes::trim_xml(s)) {
                    return Ok($name(d));
                }
                match parse(Builtin::$builtin, s)? {
                    Value::DateTime(d) => Ok($name(d)),
                    _ => unreachable!("date/time values are date/times"),
                }
            }
        )*
    };
}

temporal! {
    /// An `xs:dateTime`.
    DateTime, date_time, DateTime;
    /// An `xs:time`.
    Time, time, Time;
    /// An `xs:date`.
    Date, date, Date;
    /// An `xs:gYearMonth`.
    GYearMonth, g_year_month, GYearMonth;
    /// An `xs:gYear`.
    GYear, g_year, GYear;
    /// An `xs:gMonthDay`.
    GMonthDay, g_month_day, GMonthDay;
    /// An `xs:gDay`.
    GDay, g_day, GDay;
    /// An `xs:gMonth`.
    GMonth, g_month, GMonth;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `may_be` rules out no valid value of any built-in type.
    #[test]
    fn may_be_passes_every_valid_value() {
        let samples = [
            "0",
            "-42",
            "+7",
            " 365 ",
            "109.071",
            "-.5",
            "5.",
            "1e3",
            "-1.5E-3",
            "INF",
            "-INF",
            "NaN",
            "true",
            "false",
            "1",
            "2026-11-27",
            "2026-11-27T10:00:00Z",
            "-0001-01-01",
            "10:00:00",
            "2026-11",
            "2026",
            "--11-27",
            "---27",
            "--11",
            "P1Y2M",
            "-PT5S",
            "0F",
            "abcd",
            "x y",
            "",
            " ",
            "catalog déjà",
            "Zm9v",
        ];
        for &b in Builtin::ALL {
            for s in samples {
                if b.parse(s).is_ok() {
                    assert!(may_be(b, s), "{b:?} {s:?}");
                }
            }
        }
    }

    /// `check_decimal` gives `decimal`'s verdict and fault on every lexical corner.
    #[test]
    fn check_decimal_is_decimal_without_the_value() {
        let cases = [
            "0",
            "174.93",
            " 1.5\n",
            "+.5",
            "-5.",
            ".",
            "",
            " ",
            "+",
            "-",
            "1.2.3",
            "1e3",
            "0x1",
            "１",
            "1 2",
            "\t-0.000\r",
            "00012.3400",
            "1,5",
            "NaN",
            "INF",
            "5.-",
        ];
        for s in cases {
            assert_eq!(check_decimal(s), decimal(s).map(|_| ()), "{s:?}");
        }
        assert_eq!(check_string("\u{1}"), Ok(()));
    }

    /// The string types checked where they stand give what the datatype's parse gives: the
    /// whitespace-normalised value, or the same error.
    #[test]
    fn string_types_agree_with_their_parse() {
        let types = [
            Builtin::NormalizedString,
            Builtin::Token,
            Builtin::AnyUri,
            Builtin::Language,
            Builtin::NmToken,
            Builtin::Name,
            Builtin::NcName,
            Builtin::Id,
            Builtin::IdRef,
            Builtin::Entity,
        ];
        let inputs = [
            "US", " a  b ", "a\tb", "x:y", "1a", "en-GB", "", "é-ü", "a b",
        ];
        for b in types {
            assert!(b.is_string_family());
            for s in inputs {
                let by_parse = match b.parse(s) {
                    Ok(Value::String(v)) => Ok(Text::from(v)),
                    Ok(v) => panic!("{b:?} parses {s:?} to {v:?}"),
                    Err(e) => Err(Fault::new(DATATYPE, e.message())),
                };
                assert_eq!(string(s, b), by_parse, "{b:?} {s:?}");
            }
        }
    }
}
