//! [`Facets`]: constraining facets that generated code checks through the validator's own
//! rules, where it has no direct check of its own (ranges of decimals, floats, dates and
//! durations, digit counts, lengths of binary values).

use std::sync::OnceLock;

use crate::datatypes::{Builtin, Facet};

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
        let fault = |m: String| Fault::new("cvc-facet-valid", m);
        let facets = self
            .parsed
            .get_or_init(|| self.parse())
            .as_ref()
            .map_err(|m| fault(m.clone()))?;
        let value = self
            .builtin
            .parse(s)
            .map_err(|e| Fault::new("cvc-datatype-valid.1.2.1", e.message()))?;
        for f in facets {
            f.check(&value)
                .map_err(|e| fault(e.message().to_string()))?;
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
