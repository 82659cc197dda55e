//! The checks of simple values: by the type's [`ValuePlan`] where it decides, else the
//! general walk over the facets; string values take their allocations from a pool that the
//! values dropped fill.

use super::Shared;
use crate::datatypes::{is_plain_string, is_string_type, parse_plain, Builtin, Value};
use crate::model::{same_value, SimpleTypeId, SimpleValue, ValueConstraint, Variety};
use crate::validate::plans::{Check, ValuePlan};

/// How many string allocations a validator keeps for reuse.
const STRING_POOL: usize = 64;

impl Shared<'_> {
    /// How values of `ty` are checked (the full check for a validator without plans).
    #[inline]
    pub(crate) fn plan(&self, ty: SimpleTypeId) -> ValuePlan {
        self.plans
            .values
            .get(ty.index())
            .copied()
            .unwrap_or_else(|| ValuePlan::full(self.schema, ty))
    }

    /// The value of `lexical` as a value of `ty`, or why it is not one.
    pub(crate) fn validate_simple(
        &self,
        ty: SimpleTypeId,
        lexical: &str,
    ) -> Result<SimpleValue, String> {
        match self.plan(ty).check {
            Check::Parse(b) | Check::Number(b) => match parse_plain(b, lexical) {
                Some(value) => Ok(SimpleValue { value, member: ty }),
                // Not valid (or rare): the full check says why.
                None => self.parse_builtin(b, ty, lexical),
            },
            Check::Builtin(b) => self.parse_builtin(b, ty, lexical),
            Check::StringFacets(r) if self.string_facets_hold(r, lexical) => {
                let mut s = self.string_pool.borrow_mut().pop().unwrap_or_default();
                s.clear();
                s.push_str(lexical);
                Ok(SimpleValue {
                    value: Value::String(s),
                    member: ty,
                })
            }
            Check::IntRange { builtin, lo, hi } => match parse_plain(builtin, lexical) {
                Some(Value::Integer(d))
                    if d.small_integer().is_some_and(|x| lo <= x && x <= hi) =>
                {
                    Ok(SimpleValue {
                        value: Value::Integer(d),
                        member: ty,
                    })
                }
                // Out of range (or too large to tell here): the full check says why.
                _ => self.validate_full(ty, lexical),
            },
            Check::Full | Check::StringFacets(_) => self.validate_full(ty, lexical),
        }
    }

    /// Whether `s` (a `string` value: no whitespace normalization) satisfies string rule `r`
    /// (of a [`Check::StringFacets`] type).
    pub(crate) fn string_facets_hold(&self, r: u32, s: &str) -> bool {
        self.plans.string_rules[r as usize].holds(self.schema, s)
    }

    /// Whether the text of an element whose type is checked `check` is its value as it is:
    /// a `string` (the reader has checked the characters), another string type (`token`,
    /// `NMTOKEN`, ...) whose whitespace facet leaves the text as it is and whose lexical
    /// check it passes, or a `string` restriction whose facets the text satisfies.
    #[inline]
    pub(crate) fn text_is_value(&self, check: Check, text: &str) -> bool {
        match check {
            Check::Builtin(Builtin::String | Builtin::AnySimpleType) => true,
            Check::Builtin(b) => is_plain_string(b, text),
            Check::StringFacets(r) => self.string_facets_hold(r, text),
            _ => false,
        }
    }

    /// A value of a type that is its built-in's lexical space: parsed straight away (no
    /// normalized copy).
    fn parse_builtin(
        &self,
        b: Builtin,
        ty: SimpleTypeId,
        lexical: &str,
    ) -> Result<SimpleValue, String> {
        let mut spare = if is_string_type(b) {
            self.string_pool.borrow_mut().pop()
        } else {
            None
        };
        let r = b
            .parse_reusing(
                b.white_space(),
                lexical,
                &|p| self.resolve_prefix(p),
                &mut spare,
            )
            .map(|value| SimpleValue { value, member: ty })
            .map_err(|e| e.to_string());
        self.unused_spare(spare);
        r
    }

    pub(crate) fn validate_full(
        &self,
        ty: SimpleTypeId,
        lexical: &str,
    ) -> Result<SimpleValue, String> {
        let st = self.schema.simple_type(ty);
        let mut spare = match st.variety {
            Variety::Atomic(b) if is_string_type(b) => self.string_pool.borrow_mut().pop(),
            _ => None,
        };
        let r = self
            .schema
            .validate_simple_reusing(ty, lexical, &|p| self.resolve_prefix(p), &mut spare)
            .map_err(|e| e.to_string());
        self.unused_spare(spare);
        r
    }

    fn unused_spare(&self, spare: Option<String>) {
        if let Some(s) = spare {
            self.string_pool.borrow_mut().push(s);
        }
    }

    /// Whether value `v` of `ty` is the fixed value of `vc`.
    pub(crate) fn fixed_matches(
        &self,
        ty: SimpleTypeId,
        vc: &ValueConstraint,
        v: &SimpleValue,
    ) -> bool {
        if let Some(fixed) = &vc.value {
            return same_value(fixed, &v.value);
        }
        match self.validate_simple(ty, &vc.lexical) {
            Ok(f) => same_value(&f.value, &v.value),
            Err(_) => false,
        }
    }

    /// Keeps the allocation of a dropped value's string for the next string value.
    #[inline]
    pub(crate) fn recycle(&self, v: Option<SimpleValue>) {
        match v {
            Some(SimpleValue {
                value: Value::String(s),
                ..
            }) => self.recycle_string(s),
            // Numbers, booleans and dates own nothing on the heap (mostly): nothing to keep.
            None => {}
            Some(v) => drop(v),
        }
    }

    fn recycle_string(&self, s: String) {
        let mut pool = self.string_pool.borrow_mut();
        if pool.len() < STRING_POOL {
            pool.push(s);
        }
    }

    /// A string from the pool (its allocation, not its contents, to reuse), or a new one.
    #[inline]
    pub(crate) fn pooled_string(&self) -> String {
        self.string_pool.borrow_mut().pop().unwrap_or_default()
    }
}
