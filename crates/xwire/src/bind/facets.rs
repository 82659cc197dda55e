//! [`Facets`] and [`Enumeration`]: constraining facets that generated code checks through
//! the validator's own rules, where it has no direct check of its own (ranges of decimals,
//! floats, dates and durations, digit counts, lengths of binary values, enumerations of
//! values that are not strings). The schema's values are parsed once, when first used.

use std::sync::OnceLock;

use std::cmp::Ordering;

use crate::datatypes::{Builtin, Decimal, Facet, Value};

use super::Fault;

/// Facets of one simple type, as generated code writes them: the built-in the values are
/// read as, and each facet's name and value as the schema gives them. The bounds are parsed
/// once, the first time a value is checked (a constant computed lazily, shared by every
/// thread), and each value is compared with them by [`Facet::check`], as the validator does.
///
/// ```
/// use xwire::bind::Facets;
/// use xwire::datatypes::Builtin;
///
/// static PRICE: Facets = Facets::new(
///     Builtin::Decimal,
///     &[("minExclusive", "0"), ("maxInclusive", "999.99"), ("fractionDigits", "2")],
/// );
/// assert!(PRICE.check("19.90").is_ok());
/// assert!(PRICE.check("0").is_err());
/// assert!(PRICE.check("1.005").is_err());
/// ```
#[derive(Debug)]
pub struct Facets {
    builtin: Builtin,
    spec: &'static [(&'static str, &'static str)],
    parsed: OnceLock<Result<Vec<Facet>, String>>,
}

impl Facets {
    /// The facets `spec` (name, value) on values of `builtin`.
    pub const fn new(builtin: Builtin, spec: &'static [(&'static str, &'static str)]) -> Facets {
        Facets {
            builtin,
            spec,
            parsed: OnceLock::new(),
        }
    }

    /// Checks the value whose lexical form is `s` against every facet.
    pub fn check(&self, s: &str) -> Result<(), Fault> {
        let facets = self.facets()?;
        let value = self
            .builtin
            .parse(s)
            .map_err(|e| Fault::new("cvc-datatype-valid.1.2.1", e.message()))?;
        Facets::check_all(facets, &value)
    }

    /// [`Facets::check`] of a decimal read already, facets on `xs:decimal` itself: the value
    /// is not read a second time.
    ///
    /// ```
    /// use xwire::bind::{value, Facets};
    /// use xwire::datatypes::Builtin;
    ///
    /// static PRICE: Facets = Facets::new(Builtin::Decimal, &[("fractionDigits", "2")]);
    /// assert!(PRICE.check_decimal(&value::decimal("19.90")?).is_ok());
    /// assert!(PRICE.check_decimal(&value::decimal("1.005")?).is_err());
    /// # Ok::<(), xwire::bind::Fault>(())
    /// ```
    pub fn check_decimal(&self, v: &Decimal) -> Result<(), Fault> {
        debug_assert_eq!(self.builtin, Builtin::Decimal);
        Facets::check_all(self.facets()?, &Value::Decimal(v.clone()))
    }

    /// The facets, parsed the first time.
    fn facets(&self) -> Result<&[Facet], Fault> {
        match self.parsed.get_or_init(|| self.parse()) {
            Ok(facets) => Ok(facets),
            Err(m) => Err(Fault::new("cvc-facet-valid", m.clone())),
        }
    }

    fn check_all(facets: &[Facet], value: &Value) -> Result<(), Fault> {
        for f in facets {
            f.check(value)
                .map_err(|e| Fault::new("cvc-facet-valid", e.message().to_string()))?;
        }
        Ok(())
    }

    fn parse(&self) -> Result<Vec<Facet>, String> {
        let bound = |v: &str| {
            self.builtin
                .parse(v)
                .map_err(|e| format!("the facet value '{v}' is not valid: {}", e.message()))
        };
        let count = |v: &str| {
            v.trim()
                .parse::<u32>()
                .map_err(|_| format!("the facet value '{v}' is not a count"))
        };
        self.spec
            .iter()
            .map(|&(name, v)| {
                Ok(match name {
                    "length" => Facet::Length(count(v)? as usize),
                    "minLength" => Facet::MinLength(count(v)? as usize),
                    "maxLength" => Facet::MaxLength(count(v)? as usize),
                    "totalDigits" => Facet::TotalDigits(count(v)?),
                    "fractionDigits" => Facet::FractionDigits(count(v)?),
                    "minInclusive" => Facet::MinInclusive(bound(v)?),
                    "maxInclusive" => Facet::MaxInclusive(bound(v)?),
                    "minExclusive" => Facet::MinExclusive(bound(v)?),
                    "maxExclusive" => Facet::MaxExclusive(bound(v)?),
                    other => return Err(format!("no facet is named '{other}'")),
                })
            })
            .collect()
    }
}

/// The values an enumeration of a type that is not a string allows, as generated code writes
/// them (the schema's lexical forms); a value is found among them in the value space, so
/// `1.0` is the decimal `1` and `+1` the integer `1`. The allowed values are parsed once,
/// the first time one is looked up.
///
/// ```
/// use xwire::bind::Enumeration;
/// use xwire::datatypes::Builtin;
///
/// static SIZES: Enumeration = Enumeration::new(Builtin::Decimal, &["1", "1.5"]);
/// assert_eq!(SIZES.position(" 1.50 "), Ok(1));
/// assert!(SIZES.position("2").is_err());
/// static KEYS: Enumeration = Enumeration::new(Builtin::HexBinary, &["adf7"]);
/// assert_eq!(KEYS.position("AdF7"), Ok(0));
/// ```
#[derive(Debug)]
pub struct Enumeration {
    builtin: Builtin,
    allowed: &'static [&'static str],
    parsed: OnceLock<Vec<Option<Value>>>,
}

impl Enumeration {
    /// The values `allowed` (lexical forms) of `builtin`.
    pub const fn new(builtin: Builtin, allowed: &'static [&'static str]) -> Enumeration {
        Enumeration {
            builtin,
            allowed,
            parsed: OnceLock::new(),
        }
    }

    /// The position among the allowed values of the value whose lexical form is `s`.
    pub fn position(&self, s: &str) -> Result<usize, Fault> {
        let v = self
            .builtin
            .parse(s)
            .map_err(|e| Fault::new("cvc-datatype-valid.1.2.1", e.message()))?;
        let allowed = self.parsed.get_or_init(|| {
            self.allowed
                .iter()
                .map(|a| self.builtin.parse(a).ok())
                .collect()
        });
        // Binary values are equal without an order.
        allowed
            .iter()
            .position(|a| {
                a.as_ref()
                    .is_some_and(|a| *a == v || v.partial_cmp_value(a) == Some(Ordering::Equal))
            })
            .ok_or_else(|| {
                let s = crate::datatypes::trim_xml(s);
                super::value::not_enumerated(s, &self.allowed.join(", "))
            })
    }
}
