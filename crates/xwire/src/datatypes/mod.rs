//! The built-in datatypes of XML Schema 1.0 Part 2 (Second Edition).
//!
//! [`Builtin`] names every built-in simple type and knows its derivation ([`Builtin::base`],
//! [`Builtin::primitive`]), its `whiteSpace` facet and whether it is a list type.
//! [`Builtin::parse`] normalizes whitespace, checks the lexical space exactly and returns the
//! typed [`Value`]; [`Value::canonical`] gives the canonical representation back, and
//! [`Facet::check`] applies the constraining facets the validator needs.
//!
//! ```
//! use xwire::datatypes::{Builtin, Facet, Value};
//!
//! let v = Builtin::Decimal.parse(" +0012.50 ").unwrap();
//! assert_eq!(v.canonical(), "12.5");
//! assert!(Facet::TotalDigits(3).check(&v).is_ok());
//! assert!(Facet::FractionDigits(0).check(&v).is_err());
//!
//! assert!(Builtin::Byte.parse("128").is_err());
//! assert_eq!(Builtin::Double.parse("-INF").unwrap().canonical(), "-INF");
//! assert_eq!(
//!     Builtin::DateTime.parse("2004-02-29T23:30:00-01:00").unwrap().canonical(),
//!     "2004-03-01T00:30:00Z"
//! );
//! ```
//!
//! [`numbers`] checks the lexical forms of the numbers on bytes without building a value, as
//! the validator does for every number of a numeric array. The shortcuts that decide common
//! lexical forms without the general machinery ([`parse_plain`], [`small_integer`],
//! [`is_plain_number`], [`is_plain_temporal`], [`trim_xml`], ...) are public for the two users
//! this module has: `xwire-schema`'s validator and the parsers `xwire-codegen` generates, which
//! must agree with it value for value.
//!
//! What is not here (yet): user-derived types and the `pattern` and `enumeration` facets (the
//! validator combines these with [`Builtin`]); `anyURI` accepts any string (no RFC 2396 check);
//! the canonical forms of `date`, `gYearMonth`, `gYear`, `gMonthDay`, `gDay` and `gMonth` keep
//! their timezone as written (only `+00:00` becomes `Z`); `base64Binary`'s canonical form has no
//! line breaks.

mod binary;
pub(crate) mod decimal;
pub mod numbers;
mod temporal;
mod value;
pub(crate) use value::string_lexical;

#[cfg(test)]
mod tests;

use std::fmt;

pub use decimal::Decimal;
pub use temporal::is_plain_temporal;
pub use temporal::{DateTime, Duration, TemporalKind};
pub use value::{
    has_restricted_form, i64_bounds, integer_range, is_plain_number, is_plain_string,
    is_scanned_number, is_string_type, parse_plain, rejects_inner_space, small_integer,
    small_integer_in, trim_xml,
};
pub use value::{Facet, Value};

/// The value of the `whiteSpace` facet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhiteSpace {
    /// Leave the string alone.
    Preserve,
    /// Replace each tab, line feed and carriage return by a space.
    Replace,
    /// `Replace`, then collapse runs of spaces into one and trim both ends.
    Collapse,
}

impl WhiteSpace {
    /// Applies this normalization to `s`.
    pub fn apply(self, s: &str) -> String {
        match self {
            WhiteSpace::Preserve => s.to_owned(),
            WhiteSpace::Replace => s.replace(['\t', '\n', '\r'], " "),
            WhiteSpace::Collapse => {
                let mut out = String::with_capacity(s.len());
                for word in s.split([' ', '\t', '\n', '\r']).filter(|w| !w.is_empty()) {
                    if !out.is_empty() {
                        out.push(' ');
                    }
                    out.push_str(word);
                }
                out
            }
        }
    }

    /// The stronger of two normalizations (`collapse` over `replace` over `preserve`).
    pub(crate) fn stronger(self, other: WhiteSpace) -> WhiteSpace {
        let rank = |w: WhiteSpace| match w {
            WhiteSpace::Preserve => 0,
            WhiteSpace::Replace => 1,
            WhiteSpace::Collapse => 2,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }

    /// [`WhiteSpace::apply`], appending to `out`.
    pub(crate) fn apply_into(self, s: &str, out: &mut String) {
        match self {
            WhiteSpace::Preserve => out.push_str(s),
            WhiteSpace::Replace => out.extend(s.chars().map(|c| match c {
                '\t' | '\n' | '\r' => ' ',
                c => c,
            })),
            WhiteSpace::Collapse => {
                let start = out.len();
                for word in s.split([' ', '\t', '\n', '\r']).filter(|w| !w.is_empty()) {
                    if out.len() > start {
                        out.push(' ');
                    }
                    out.push_str(word);
                }
            }
        }
    }

    /// Like [`WhiteSpace::apply`], but borrows `s` when it is already normalized (no
    /// allocation for the common case of values without stray whitespace).
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::datatypes::WhiteSpace;
    /// assert!(matches!(WhiteSpace::Collapse.normalize("a b"), Cow::Borrowed("a b")));
    /// assert_eq!(WhiteSpace::Collapse.normalize(" a  b"), "a b");
    /// ```
    pub fn normalize(self, s: &str) -> std::borrow::Cow<'_, str> {
        if self.keeps(s) {
            std::borrow::Cow::Borrowed(s)
        } else {
            std::borrow::Cow::Owned(self.apply(s))
        }
    }

    /// Whether the normalization leaves `s` as it is.
    pub(crate) fn keeps(self, s: &str) -> bool {
        let b = s.as_bytes();
        match self {
            WhiteSpace::Preserve => true,
            WhiteSpace::Replace => !b.iter().any(|b| matches!(b, b'\t' | b'\n' | b'\r')),
            WhiteSpace::Collapse => {
                // One pass: no control whitespace, no leading, trailing or double space.
                let mut prev_space = true;
                let mut ok = true;
                for &c in b {
                    match c {
                        b'\t' | b'\n' | b'\r' => {
                            ok = false;
                            break;
                        }
                        b' ' => {
                            if prev_space {
                                ok = false;
                                break;
                            }
                            prev_space = true;
                        }
                        _ => prev_space = false,
                    }
                }
                ok && (b.is_empty() || !prev_space)
            }
        }
    }
}

/// What was wrong with a lexical form or a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatatypeError {
    message: String,
}

impl DatatypeError {
    /// An error with this message (without a trailing period).
    #[cold]
    pub fn new(message: impl Into<String>) -> DatatypeError {
        DatatypeError {
            message: message.into(),
        }
    }

    #[cold]
    pub(crate) fn lexical(ty: Builtin, lexical: &str, why: &str) -> DatatypeError {
        DatatypeError::new(format!("'{lexical}' is not a valid {}: {why}", ty.name()))
    }

    /// The message, without a trailing period.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DatatypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DatatypeError {}

macro_rules! builtins {
    ($($variant:ident = $name:literal, base $base:ident;)*) => {
        /// Every built-in simple type of XML Schema 1.0 Part 2.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Builtin {
            $(
                #[doc = concat!("`xs:", $name, "`")]
                $variant,
            )*
        }

        impl Builtin {
            /// All built-in types, `anySimpleType` first, primitives before derived types.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant),*];

            /// The local name in the XML Schema namespace.
            pub fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// The type with this local name in the XML Schema namespace.
            pub fn from_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }

            /// The base type: the type this one restricts, or for the list types their item
            /// type. `None` only for `anySimpleType` (whose base, `anyType`, is complex).
            #[inline]
            pub fn base(self) -> Option<Builtin> {
                let base = match self {
                    $(Builtin::$variant => Builtin::$base,)*
                };
                (self != Builtin::AnySimpleType).then_some(base)
            }
        }
    };
}

builtins! {
    AnySimpleType = "anySimpleType", base AnySimpleType;
    String = "string", base AnySimpleType;
    Boolean = "boolean", base AnySimpleType;
    Decimal = "decimal", base AnySimpleType;
    Float = "float", base AnySimpleType;
    Double = "double", base AnySimpleType;
    Duration = "duration", base AnySimpleType;
    DateTime = "dateTime", base AnySimpleType;
    Time = "time", base AnySimpleType;
    Date = "date", base AnySimpleType;
    GYearMonth = "gYearMonth", base AnySimpleType;
    GYear = "gYear", base AnySimpleType;
    GMonthDay = "gMonthDay", base AnySimpleType;
    GDay = "gDay", base AnySimpleType;
    GMonth = "gMonth", base AnySimpleType;
    HexBinary = "hexBinary", base AnySimpleType;
    Base64Binary = "base64Binary", base AnySimpleType;
    AnyUri = "anyURI", base AnySimpleType;
    QName = "QName", base AnySimpleType;
    Notation = "NOTATION", base AnySimpleType;
    NormalizedString = "normalizedString", base String;
    Token = "token", base NormalizedString;
    Language = "language", base Token;
    NmToken = "NMTOKEN", base Token;
    NmTokens = "NMTOKENS", base NmToken;
    Name = "Name", base Token;
    NcName = "NCName", base Name;
    Id = "ID", base NcName;
    IdRef = "IDREF", base NcName;
    IdRefs = "IDREFS", base IdRef;
    Entity = "ENTITY", base NcName;
    Entities = "ENTITIES", base Entity;
    Integer = "integer", base Decimal;
    NonPositiveInteger = "nonPositiveInteger", base Integer;
    NegativeInteger = "negativeInteger", base NonPositiveInteger;
    Long = "long", base Integer;
    Int = "int", base Long;
    Short = "short", base Int;
    Byte = "byte", base Short;
    NonNegativeInteger = "nonNegativeInteger", base Integer;
    UnsignedLong = "unsignedLong", base NonNegativeInteger;
    UnsignedInt = "unsignedInt", base UnsignedLong;
    UnsignedShort = "unsignedShort", base UnsignedInt;
    UnsignedByte = "unsignedByte", base UnsignedShort;
    PositiveInteger = "positiveInteger", base NonNegativeInteger;
}

impl Builtin {
    /// Whether this is one of the list types `NMTOKENS`, `IDREFS` and `ENTITIES`.
    #[inline]
    pub fn is_list(self) -> bool {
        matches!(
            self,
            Builtin::NmTokens | Builtin::IdRefs | Builtin::Entities
        )
    }

    /// The item type of a list type.
    pub fn item_type(self) -> Option<Builtin> {
        if self.is_list() {
            self.base()
        } else {
            None
        }
    }

    /// Whether this is a primitive type (its base is `anySimpleType`).
    pub fn is_primitive(self) -> bool {
        self.base() == Some(Builtin::AnySimpleType)
    }

    /// The primitive type this one is derived from (itself for a primitive type); for the
    /// list types, their item type's primitive (`string`); `anySimpleType` for itself.
    #[inline]
    pub fn primitive(self) -> Builtin {
        let mut t = self;
        while let Some(b) = t.base() {
            if b == Builtin::AnySimpleType {
                return t;
            }
            t = b;
        }
        t
    }

    /// Whether `self` is `other` or derived from it (list types count as derived from their
    /// item type here, as [`Builtin::base`] reports).
    #[inline]
    pub fn derives_from(self, other: Builtin) -> bool {
        let mut t = Some(self);
        while let Some(x) = t {
            if x == other {
                return true;
            }
            t = x.base();
        }
        false
    }

    /// The `whiteSpace` facet: `preserve` for `string` (and `anySimpleType`), `replace` for
    /// `normalizedString`, `collapse` for everything else.
    pub fn white_space(self) -> WhiteSpace {
        match self {
            Builtin::AnySimpleType | Builtin::String => WhiteSpace::Preserve,
            Builtin::NormalizedString => WhiteSpace::Replace,
            _ => WhiteSpace::Collapse,
        }
    }

    /// Parses `lexical` into a value of this type; `QName` and `NOTATION` prefixes resolve
    /// only to `xml` (and unprefixed names to no namespace). Use [`Builtin::parse_with`] to
    /// supply the in-scope namespaces.
    pub fn parse(self, lexical: &str) -> Result<Value, DatatypeError> {
        self.parse_with(lexical, &|prefix: &str| match prefix {
            "xml" => Some("http://www.w3.org/XML/1998/namespace".to_owned()),
            "" => Some(String::new()),
            _ => None,
        })
    }

    /// Parses `lexical` into a value of this type, resolving `QName` and `NOTATION` prefixes
    /// with `resolve`: it gets the prefix (`""` for an unprefixed name) and returns the
    /// namespace name (`""` for none), or `None` if the prefix is not declared.
    pub fn parse_with(
        self,
        lexical: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Value, DatatypeError> {
        let s = self.white_space().normalize(lexical);
        value::parse_normalized(self, &s, resolve)
    }
}

impl Builtin {
    /// Whether its values are strings checked by their lexical form alone (`string`,
    /// `token`, `NMTOKEN`, `NCName`, `ID`, `anyURI`, ...; not the lists, `QName` or
    /// `NOTATION`).
    pub fn is_string_family(self) -> bool {
        matches!(
            self,
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
                | Builtin::Entity
        )
    }

    /// [`Builtin::parse_with`] after whitespace `ws` (the type's, at least as strong as the
    /// built-in's), building a string value in `spare`'s allocation when there is one (taken
    /// only then): no allocation for strings, even when the whitespace changes them.
    pub fn parse_reusing(
        self,
        ws: WhiteSpace,
        lexical: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
        spare: &mut Option<String>,
    ) -> Result<Value, DatatypeError> {
        let ws = ws.stronger(self.white_space());
        if let Some(mut buf) = spare.take() {
            if value::is_string_type(self) {
                buf.clear();
                ws.apply_into(lexical, &mut buf);
                return match value::string_lexical(self, &buf) {
                    Ok(()) => Ok(Value::String(buf)),
                    Err(e) => {
                        *spare = Some(buf);
                        Err(e)
                    }
                };
            }
            *spare = Some(buf);
        }
        if ws == WhiteSpace::Collapse && value::rejects_inner_space(self) {
            // Collapsing only trims a value that parses: any whitespace left inside fails.
            // So parse the trimmed slice first; only a failure needs the collapsed copy (for
            // the message, which quotes it).
            if let Some(v) = value::parse_plain(self, lexical) {
                return Ok(v);
            }
        }
        let s = ws.normalize(lexical);
        value::parse_normalized(self, &s, resolve)
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
