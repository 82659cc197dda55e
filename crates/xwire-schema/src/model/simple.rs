//! Validation of a string against a simple type definition: whitespace, lexical space of the
//! nearest built-in, then the effective facets; lists item by item, unions member by member.
//!
//! The loader uses it for enumeration, default and fixed values; the validator for every
//! attribute and simple-content element.

use std::cmp::Ordering;

use super::{Facets, Schema, SimpleTypeId, Variety};
use crate::datatypes::{DatatypeError, Facet, Value, WhiteSpace};

/// A value validated against a simple type.
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleValue {
    /// The value.
    pub value: Value,
    /// The type that validated it: for a union, the member type that matched (the
    /// innermost, for nested unions); otherwise the type asked for.
    pub member: SimpleTypeId,
}

/// Unions of unions of ... deeper than this are refused (a loaded schema has no cycles; this
/// guards the recursion against hand-built ones).
const MAX_DEPTH: usize = 64;

impl Schema {
    /// The `whiteSpace` a simple type applies before validation: its facet, else its
    /// built-in's; `collapse` for lists; `preserve` for unions (each member normalizes).
    pub fn white_space(&self, ty: SimpleTypeId) -> WhiteSpace {
        let st = self.simple_type(ty);
        if let Some(ws) = &st.facets.white_space {
            return ws.value;
        }
        match &st.variety {
            Variety::Atomic(b) => b.white_space(),
            Variety::List(_) => WhiteSpace::Collapse,
            Variety::Union(_) => WhiteSpace::Preserve,
        }
    }

    /// Validates `lexical` against simple type `ty`, resolving QName prefixes with
    /// `resolve` (as [`Builtin::parse_with`](crate::datatypes::Builtin::parse_with)).
    ///
    /// ```
    /// use xwire_schema::datatypes::{Builtin, Value};
    /// use xwire_schema::model::{Schema, SimpleTypeId};
    ///
    /// let schema = Schema::builtins();
    /// let int = SimpleTypeId::builtin(Builtin::Int);
    /// let v = schema.validate_simple(int, " 42 ", &|_| None).unwrap();
    /// assert_eq!(v.value.canonical(), "42");
    /// assert!(schema.validate_simple(int, "4.2", &|_| None).is_err());
    /// ```
    pub fn validate_simple(
        &self,
        ty: SimpleTypeId,
        lexical: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
    ) -> Result<SimpleValue, DatatypeError> {
        self.validate_at(ty, lexical, resolve, 0, &mut None)
    }

    /// [`Schema::validate_simple`], building a string value in `spare`'s allocation when
    /// there is one (taken only then).
    pub(crate) fn validate_simple_reusing(
        &self,
        ty: SimpleTypeId,
        lexical: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
        spare: &mut Option<String>,
    ) -> Result<SimpleValue, DatatypeError> {
        self.validate_at(ty, lexical, resolve, 0, spare)
    }

    fn validate_at(
        &self,
        ty: SimpleTypeId,
        lexical: &str,
        resolve: &dyn Fn(&str) -> Option<String>,
        depth: usize,
        spare: &mut Option<String>,
    ) -> Result<SimpleValue, DatatypeError> {
        if depth > MAX_DEPTH {
            return Err(DatatypeError::new("simple types nested too deeply"));
        }
        let st = self.simple_type(ty);
        match &st.variety {
            Variety::Atomic(b) => {
                let ws = self.white_space(ty);
                let value = b.parse_reusing(ws, lexical, resolve, spare)?;
                // A string value is its normalized lexical form.
                let normalized = match &value {
                    Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
                    _ => ws.normalize(lexical),
                };
                check_facets(&st.facets, &normalized, &value)?;
                Ok(SimpleValue { value, member: ty })
            }
            Variety::List(item) => {
                let normalized = WhiteSpace::Collapse.normalize(lexical);
                let mut items = Vec::new();
                if !normalized.is_empty() {
                    for token in normalized.split(' ') {
                        items.push(
                            self.validate_at(*item, token, resolve, depth + 1, &mut None)?
                                .value,
                        );
                    }
                }
                let value = Value::List(items);
                check_facets(&st.facets, &normalized, &value)?;
                Ok(SimpleValue { value, member: ty })
            }
            Variety::Union(members) => {
                let mut found = None;
                for &m in members {
                    if let Ok(v) = self.validate_at(m, lexical, resolve, depth + 1, spare) {
                        found = Some(v);
                        break;
                    }
                }
                let Some(v) = found else {
                    let names: Vec<String> = members.iter().map(|&m| self.type_label(m)).collect();
                    return Err(DatatypeError::new(format!(
                        "'{lexical}' is not valid for any member type of the union ({})",
                        names.join(", ")
                    )));
                };
                let normalized = self.white_space(ty).normalize(lexical);
                check_facets(&st.facets, &normalized, &v.value)?;
                Ok(v)
            }
        }
    }

    /// A short label for a simple type in messages: its name, or `anonymous type (line N)`.
    pub(crate) fn type_label(&self, ty: SimpleTypeId) -> String {
        let st = self.simple_type(ty);
        match (st.name, st.location) {
            (Some(n), _) => self.display_name(n),
            (None, Some(loc)) => format!("anonymous type at line {}", loc.line),
            (None, None) => "anonymous type".to_string(),
        }
    }
}

/// Value-space equality as enumeration needs it: numbers and times by value, QNames by
/// namespace and local name, the rest by representation.
pub(crate) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (
            Value::QName {
                namespace: na,
                local: la,
                ..
            },
            Value::QName {
                namespace: nb,
                local: lb,
                ..
            },
        ) => na == nb && la == lb,
        (Value::List(xs), Value::List(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_value(x, y))
        }
        (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::Double(x), Value::Double(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a.partial_cmp_value(b) == Some(Ordering::Equal) || a == b,
    }
}

fn check_facets(facets: &Facets, normalized: &str, value: &Value) -> Result<(), DatatypeError> {
    if let Some(step) = facets.unmatched_pattern(normalized) {
        let alternatives: Vec<&str> = step.iter().map(|p| p.as_str()).collect();
        return Err(DatatypeError::new(format!(
            "'{normalized}' does not match the pattern '{}'",
            alternatives.join("' or '")
        )));
    }
    if let Some(enumeration) = &facets.enumeration {
        if !enumeration.iter().any(|(v, _)| same_value(v, value)) {
            let mut allowed: Vec<&str> = enumeration.iter().map(|(_, l)| l.as_str()).collect();
            if allowed.len() > 10 {
                allowed.truncate(10);
                allowed.push("...");
            }
            return Err(DatatypeError::new(format!(
                "'{normalized}' is not one of the enumerated values ({})",
                allowed.join(", ")
            )));
        }
    }
    // Each facet checked in place (no table of facets built per value).
    if let Some(f) = &facets.length {
        Facet::Length(f.value).check(value)?;
    }
    if let Some(f) = &facets.min_length {
        Facet::MinLength(f.value).check(value)?;
    }
    if let Some(f) = &facets.max_length {
        Facet::MaxLength(f.value).check(value)?;
    }
    if let Some(f) = &facets.total_digits {
        Facet::TotalDigits(f.value).check(value)?;
    }
    if let Some(f) = &facets.fraction_digits {
        Facet::FractionDigits(f.value).check(value)?;
    }
    let bounds = [
        (
            &facets.min_inclusive,
            "minInclusive",
            [Ordering::Greater, Ordering::Equal],
        ),
        (
            &facets.max_inclusive,
            "maxInclusive",
            [Ordering::Less, Ordering::Equal],
        ),
        (
            &facets.min_exclusive,
            "minExclusive",
            [Ordering::Greater; 2],
        ),
        (&facets.max_exclusive, "maxExclusive", [Ordering::Less; 2]),
    ];
    for (facet, name, allowed) in bounds {
        let Some(bound) = facet else { continue };
        match value.partial_cmp_value(&bound.value) {
            Some(o) if allowed.contains(&o) => {}
            _ => {
                return Err(DatatypeError::new(format!(
                    "'{}' does not satisfy {name}: the bound is '{}'",
                    value.canonical(),
                    bound.value.canonical()
                )))
            }
        }
    }
    Ok(())
}
