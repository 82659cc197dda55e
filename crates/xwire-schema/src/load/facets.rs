//! Simple type restriction: which facets apply, their values in the base's value space,
//! narrower than the base's, consistent with each other, and `fixed` facets left alone.

use std::cmp::Ordering;
use std::collections::HashSet;

use super::build::bool_attr;
use super::document::XNode;
use super::Loader;
use crate::datatypes::{Builtin, Value, WhiteSpace};
use crate::model::{DerivationSet, FacetValue, SimpleTypeId, TypeId, Variety};
use crate::regex::Pattern;

const LENGTHS: &[&str] = &[
    "length",
    "minLength",
    "maxLength",
    "pattern",
    "enumeration",
    "whiteSpace",
];
const ORDERED: &[&str] = &[
    "pattern",
    "enumeration",
    "whiteSpace",
    "maxInclusive",
    "maxExclusive",
    "minInclusive",
    "minExclusive",
];
const DECIMAL: &[&str] = &[
    "pattern",
    "enumeration",
    "whiteSpace",
    "maxInclusive",
    "maxExclusive",
    "minInclusive",
    "minExclusive",
    "totalDigits",
    "fractionDigits",
];

/// A base bound, the orderings of a new bound against it that are allowed, its name.
type BoundRule<'a> = (
    &'a Option<FacetValue<Value>>,
    &'static [Ordering],
    &'static str,
);
/// A lower and an upper bound, the orderings allowed between them, the constraint.
type BoundPair<'a> = (
    &'a Option<FacetValue<Value>>,
    &'a Option<FacetValue<Value>>,
    &'static [Ordering],
    &'static str,
);

fn applicable(variety: &Variety) -> &'static [&'static str] {
    match variety {
        Variety::List(_) => LENGTHS,
        Variety::Union(_) => &["pattern", "enumeration"],
        Variety::Atomic(b) if b.is_list() => LENGTHS,
        Variety::Atomic(b) => match b.primitive() {
            Builtin::AnySimpleType => &[],
            Builtin::Boolean => &["pattern", "whiteSpace"],
            Builtin::Decimal => DECIMAL,
            Builtin::Float
            | Builtin::Double
            | Builtin::Duration
            | Builtin::DateTime
            | Builtin::Time
            | Builtin::Date
            | Builtin::GYearMonth
            | Builtin::GYear
            | Builtin::GMonthDay
            | Builtin::GDay
            | Builtin::GMonth => ORDERED,
            _ => LENGTHS,
        },
    }
}

fn cmp(a: &Value, b: &Value) -> Option<Ordering> {
    a.partial_cmp_value(b)
}

fn nat(v: &str) -> Option<usize> {
    let v = v.trim().trim_start_matches('+');
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(v.parse::<usize>().unwrap_or(usize::MAX))
}

impl Loader<'_> {
    /// Fills simple type `id` as a restriction of `base` by the facets among the children of
    /// `rnode`.
    pub(crate) fn restrict_simple(
        &mut self,
        id: SimpleTypeId,
        base: SimpleTypeId,
        d: usize,
        rnode: &XNode,
    ) {
        let mut base = base;
        if !self.ensure_type(TypeId::Simple(base)) {
            self.error(
                "st-props-correct",
                d,
                rnode,
                "circular simple type definition".into(),
            );
            base = SimpleTypeId::ANY_SIMPLE_TYPE;
        }
        let bt = self.s.simple_type(base).clone();
        if bt.final_.contains(DerivationSet::RESTRICTION) {
            self.error(
                "st-props-correct",
                d,
                rnode,
                "the base type is final for restriction".into(),
            );
        }
        let mut f = bt.facets.clone();
        let allowed = applicable(&bt.variety);
        let atomic = match bt.variety {
            Variety::Atomic(b) => Some(b),
            _ => None,
        };
        let resolve = |p: &str| -> Option<String> { rnode.resolve_prefix(p).map(str::to_string) };
        let mut own_patterns = Vec::new();
        let mut own_enum: Option<Vec<(Value, String)>> = None;
        let mut seen = HashSet::new();
        let (mut own_length, mut own_minmax_length) = (false, false);
        let (mut own_min_inc, mut own_min_exc, mut own_max_inc, mut own_max_exc) =
            (false, false, false, false);
        for fc in rnode.xs_children() {
            let name = fc.local.as_str();
            if name == "simpleType" {
                continue;
            }
            let Some(value) = fc.attr("value") else {
                continue;
            };
            if !allowed.contains(&name) {
                self.error(
                    "cos-applicable-facets",
                    d,
                    fc,
                    format!("the facet {name} does not apply to the base type"),
                );
                continue;
            }
            if name != "pattern" && name != "enumeration" && !seen.insert(name.to_string()) {
                self.error(
                    "src-single-facet-value",
                    d,
                    fc,
                    format!("the facet {name} is given twice"),
                );
                continue;
            }
            let fixed = bool_attr(fc, "fixed");
            let constraint: &'static str = match name {
                "length" => "length-valid-restriction",
                "minLength" => "minLength-valid-restriction",
                "maxLength" => "maxLength-valid-restriction",
                "totalDigits" => "totalDigits-valid-restriction",
                "fractionDigits" => "fractionDigits-valid-restriction",
                "whiteSpace" => "whiteSpace-valid-restriction",
                "minInclusive" => "minInclusive-valid-restriction",
                "maxInclusive" => "maxInclusive-valid-restriction",
                "minExclusive" => "minExclusive-valid-restriction",
                "maxExclusive" => "maxExclusive-valid-restriction",
                "enumeration" => "enumeration-valid-restriction",
                _ => "cos-applicable-facets",
            };
            macro_rules! fail {
                ($($m:tt)*) => {{
                    self.error(constraint, d, fc, format!($($m)*));
                    continue;
                }};
            }
            match name {
                "length" | "minLength" | "maxLength" => {
                    let Some(n) = nat(value) else {
                        fail!("'{value}' is not a valid {name}")
                    };
                    let slot = match name {
                        "length" => &f.length,
                        "minLength" => &f.min_length,
                        _ => &f.max_length,
                    };
                    if let Some(b) = slot {
                        if b.fixed && b.value != n {
                            fail!("{name} is fixed to {} in the base type", b.value);
                        }
                    }
                    match name {
                        "length" => {
                            if let Some(b) = &f.length {
                                if b.value != n {
                                    fail!("length {n} differs from the base's {}", b.value);
                                }
                            }
                            own_length = true;
                            f.length = Some(FacetValue { value: n, fixed });
                        }
                        "minLength" => {
                            if let Some(b) = &f.min_length {
                                if n < b.value {
                                    fail!("minLength {n} is less than the base's {}", b.value);
                                }
                            }
                            // With length in the same step only when it restates the
                            // base's (Part 2, length-minLength-maxLength 1.2).
                            let restated = bt.facets.length.is_none()
                                && bt.facets.min_length.as_ref().is_some_and(|b| b.value == n);
                            own_minmax_length |= !restated;
                            f.min_length = Some(FacetValue { value: n, fixed });
                        }
                        _ => {
                            if let Some(b) = &f.max_length {
                                if n > b.value {
                                    fail!("maxLength {n} is greater than the base's {}", b.value);
                                }
                            }
                            let restated = bt.facets.length.is_none()
                                && bt.facets.max_length.as_ref().is_some_and(|b| b.value == n);
                            own_minmax_length |= !restated;
                            f.max_length = Some(FacetValue { value: n, fixed });
                        }
                    }
                }
                "totalDigits" | "fractionDigits" => {
                    let Some(n) = nat(value) else {
                        fail!("'{value}' is not a valid {name}")
                    };
                    let n = u32::try_from(n).unwrap_or(u32::MAX);
                    let slot = if name == "totalDigits" {
                        &mut f.total_digits
                    } else {
                        &mut f.fraction_digits
                    };
                    if let Some(b) = slot {
                        if b.fixed && b.value != n {
                            fail!("{name} is fixed to {} in the base type", b.value);
                        }
                        if n > b.value {
                            fail!("{name} {n} is greater than the base's {}", b.value);
                        }
                    }
                    *slot = Some(FacetValue { value: n, fixed });
                }
                "whiteSpace" => {
                    let ws = match value.trim() {
                        "preserve" => WhiteSpace::Preserve,
                        "replace" => WhiteSpace::Replace,
                        "collapse" => WhiteSpace::Collapse,
                        _ => fail!("'{value}' is not a whiteSpace value"),
                    };
                    let base_ws = self.s.white_space(base);
                    if let Some(b) = &f.white_space {
                        if b.fixed && b.value != ws {
                            fail!("whiteSpace is fixed in the base type");
                        }
                    }
                    let ok = match base_ws {
                        WhiteSpace::Collapse => ws == WhiteSpace::Collapse,
                        WhiteSpace::Replace => ws != WhiteSpace::Preserve,
                        WhiteSpace::Preserve => true,
                    };
                    if !ok || (atomic.is_none() && ws != WhiteSpace::Collapse) {
                        fail!("whiteSpace may not be relaxed from the base's");
                    }
                    f.white_space = Some(FacetValue { value: ws, fixed });
                }
                "pattern" => match Pattern::compile(value) {
                    Ok(p) => own_patterns.push(p),
                    Err(e) => {
                        self.error(
                            "s4s",
                            d,
                            fc,
                            format!("'{value}' is not a valid pattern: {}", e.message()),
                        );
                    }
                },
                "enumeration" => match self.s.validate_simple(base, value, &resolve) {
                    Ok(v) => {
                        if let (
                            Some(Builtin::Notation),
                            Value::QName {
                                namespace, local, ..
                            },
                        ) = (atomic.map(Builtin::primitive), &v.value)
                        {
                            let declared = self
                                .s
                                .names
                                .lookup_namespace(namespace)
                                .and_then(|ns| self.s.names.lookup(ns, local))
                                .is_some_and(|n| self.s.global_notations.contains_key(&n));
                            if !declared {
                                fail!("enumeration value '{value}' does not name a notation");
                            }
                        }
                        own_enum
                            .get_or_insert_with(Vec::new)
                            .push((v.value, value.to_string()))
                    }
                    Err(e) => fail!(
                        "enumeration value '{value}' is not valid for the base type: {}",
                        e.message()
                    ),
                },
                _ => {
                    // The four bounds.
                    let Some(b) = atomic else { continue };
                    let normalized = self.s.white_space(base).apply(value);
                    let v = match b.parse_with(&normalized, &resolve) {
                        Ok(v) => v,
                        Err(e) => fail!(
                            "{name} value '{value}' is not valid for the base type: {}",
                            e.message()
                        ),
                    };
                    let slot = match name {
                        "minInclusive" => &f.min_inclusive,
                        "maxInclusive" => &f.max_inclusive,
                        "minExclusive" => &f.min_exclusive,
                        _ => &f.max_exclusive,
                    };
                    if let Some(old) = slot {
                        if old.fixed && cmp(&old.value, &v) != Some(Ordering::Equal) {
                            fail!("{name} is fixed in the base type");
                        }
                    }
                    use Ordering::*;
                    // (base facet, orderings of the new value against it that are allowed)
                    let rules: Vec<BoundRule> = match name {
                        "minInclusive" => vec![
                            (&f.min_inclusive, &[Greater, Equal], "minInclusive"),
                            (&f.min_exclusive, &[Greater], "minExclusive"),
                            (&f.max_inclusive, &[Less, Equal], "maxInclusive"),
                            (&f.max_exclusive, &[Less], "maxExclusive"),
                        ],
                        "maxInclusive" => vec![
                            (&f.max_inclusive, &[Less, Equal], "maxInclusive"),
                            (&f.max_exclusive, &[Less], "maxExclusive"),
                            (&f.min_inclusive, &[Greater, Equal], "minInclusive"),
                            (&f.min_exclusive, &[Greater], "minExclusive"),
                        ],
                        "minExclusive" => vec![
                            (&f.min_exclusive, &[Greater, Equal], "minExclusive"),
                            (&f.min_inclusive, &[Greater, Equal], "minInclusive"),
                            (&f.max_inclusive, &[Less, Equal], "maxInclusive"),
                            (&f.max_exclusive, &[Less], "maxExclusive"),
                        ],
                        _ => vec![
                            (&f.max_exclusive, &[Less, Equal], "maxExclusive"),
                            (&f.max_inclusive, &[Less, Equal], "maxInclusive"),
                            (&f.min_inclusive, &[Greater], "minInclusive"),
                            (&f.min_exclusive, &[Greater], "minExclusive"),
                        ],
                    };
                    let mut bad = None;
                    for (bf, ok, bname) in rules {
                        if let Some(bv) = bf {
                            match cmp(&v, &bv.value) {
                                Some(o) if ok.contains(&o) => {}
                                _ => bad = Some((bname, bv.value.canonical())),
                            }
                        }
                    }
                    if let Some((bname, bval)) = bad {
                        fail!("{name} '{value}' is not within the base type's {bname} '{bval}'");
                    }
                    if let Some(en) = &bt.facets.enumeration {
                        let _ = en; // bounds need not be enumerated values
                    }
                    let fv = Some(FacetValue { value: v, fixed });
                    match name {
                        "minInclusive" => {
                            own_min_inc = true;
                            f.min_inclusive = fv;
                        }
                        "maxInclusive" => {
                            own_max_inc = true;
                            f.max_inclusive = fv;
                        }
                        "minExclusive" => {
                            own_min_exc = true;
                            f.min_exclusive = fv;
                        }
                        _ => {
                            own_max_exc = true;
                            f.max_exclusive = fv;
                        }
                    }
                }
            }
        }
        // Consistency of the effective facets.
        if own_min_inc && own_min_exc {
            self.error(
                "minInclusive-minExclusive",
                d,
                rnode,
                "minInclusive and minExclusive in the same step".into(),
            );
        }
        if own_max_inc && own_max_exc {
            self.error(
                "maxInclusive-maxExclusive",
                d,
                rnode,
                "maxInclusive and maxExclusive in the same step".into(),
            );
        }
        let pairs: [BoundPair; 4] = [
            (
                &f.min_inclusive,
                &f.max_inclusive,
                &[Ordering::Less, Ordering::Equal],
                "minInclusive-less-than-equal-to-maxInclusive",
            ),
            (
                &f.min_exclusive,
                &f.max_exclusive,
                &[Ordering::Less, Ordering::Equal],
                "minExclusive-less-than-equal-to-maxExclusive",
            ),
            (
                &f.min_exclusive,
                &f.max_inclusive,
                &[Ordering::Less],
                "minExclusive-less-than-maxInclusive",
            ),
            (
                &f.min_inclusive,
                &f.max_exclusive,
                &[Ordering::Less],
                "minInclusive-less-than-maxExclusive",
            ),
        ];
        let mut errs = Vec::new();
        for (lo, hi, ok, c) in pairs {
            if let (Some(lo), Some(hi)) = (lo, hi) {
                match cmp(&lo.value, &hi.value) {
                    Some(o) if ok.contains(&o) => {}
                    _ => errs.push(c),
                }
            }
        }
        for c in errs {
            self.error(
                c,
                d,
                rnode,
                "the lower bound is not below the upper bound".into(),
            );
        }
        if let (Some(min), Some(max)) = (&f.min_length, &f.max_length) {
            if min.value > max.value {
                self.error(
                    "minLength-less-than-equal-to-maxLength",
                    d,
                    rnode,
                    "minLength is greater than maxLength".into(),
                );
            }
        }
        if let Some(len) = &f.length {
            let bad_min = f.min_length.as_ref().is_some_and(|m| m.value > len.value);
            let bad_max = f.max_length.as_ref().is_some_and(|m| m.value < len.value);
            if (own_length && own_minmax_length) || bad_min || bad_max {
                self.error(
                    "length-minLength-maxLength",
                    d,
                    rnode,
                    "length and minLength or maxLength together".into(),
                );
            }
        }
        if let (Some(t), Some(fr)) = (&f.total_digits, &f.fraction_digits) {
            if fr.value > t.value {
                self.error(
                    "fractionDigits-totalDigits",
                    d,
                    rnode,
                    "fractionDigits is greater than totalDigits".into(),
                );
            }
        }
        if !own_patterns.is_empty() {
            f.patterns.push(own_patterns);
        }
        if own_enum.is_some() {
            f.enumeration = own_enum;
        }
        if atomic == Some(Builtin::Notation)
            && bt.builtin == Some(Builtin::Notation)
            && f.enumeration.is_none()
        {
            self.error(
                "enumeration-required-notation",
                d,
                rnode,
                "a restriction of NOTATION needs an enumeration".into(),
            );
        }
        let st = &mut self.s.simple_types[id.index()];
        st.base = TypeId::Simple(base);
        st.variety = bt.variety;
        st.facets = f;
    }
}

/// Gives the derived built-in types the facets Part 2 defines for them (bounds of the integer
/// types, `fractionDigits` 0 of `integer`, `minLength` 1 of the list types), so that
/// restrictions of them are checked against these.
pub(crate) fn builtin_facets(s: &mut crate::model::Schema) {
    let int = |v: &str| Builtin::Integer.parse(v).ok();
    for (i, &b) in Builtin::ALL.iter().enumerate() {
        let f = &mut s.simple_types[i].facets;
        if b.derives_from(Builtin::Integer) {
            f.fraction_digits = Some(FacetValue {
                value: 0,
                fixed: true,
            });
        }
        let (min, max) = match b {
            Builtin::NonPositiveInteger => (None, Some("0")),
            Builtin::NegativeInteger => (None, Some("-1")),
            Builtin::Long => (Some("-9223372036854775808"), Some("9223372036854775807")),
            Builtin::Int => (Some("-2147483648"), Some("2147483647")),
            Builtin::Short => (Some("-32768"), Some("32767")),
            Builtin::Byte => (Some("-128"), Some("127")),
            Builtin::NonNegativeInteger => (Some("0"), None),
            Builtin::UnsignedLong => (Some("0"), Some("18446744073709551615")),
            Builtin::UnsignedInt => (Some("0"), Some("4294967295")),
            Builtin::UnsignedShort => (Some("0"), Some("65535")),
            Builtin::UnsignedByte => (Some("0"), Some("255")),
            Builtin::PositiveInteger => (Some("1"), None),
            _ => (None, None),
        };
        if let Some(v) = min.and_then(int) {
            f.min_inclusive = Some(FacetValue {
                value: v,
                fixed: false,
            });
        }
        if let Some(v) = max.and_then(int) {
            f.max_inclusive = Some(FacetValue {
                value: v,
                fixed: false,
            });
        }
        if b.is_list() {
            f.min_length = Some(FacetValue {
                value: 1,
                fixed: false,
            });
        }
    }
}
