//! What the validator compiles from a schema ([`Plans`]), once per validator: what checking
//! a value of each simple type takes ([`ValuePlan`]): most element and attribute types need
//! only their built-in's lexical check, or that and an integer range, so the validator can
//! skip the general walk over the facets ([`Schema::validate_simple`]) for them. Decided at
//! the same time: which element declarations a start tag opens by its plan
//! ([`ElementPlan`]).
//!
//! The plans are the validator's, not the component model's: the [`Schema`] holds what the
//! schema says (and the content models its own constraints need); how one validator checks
//! it is made here, from it.

use super::automaton::{compile_every, ContentModel};
use super::ids::{id_kind, IdKind};
use crate::datatypes::{
    i64_bounds, is_plain_number, is_scanned_number, is_string_type, rejects_inner_space,
    small_integer, small_integer_in, Builtin, Value, WhiteSpace,
};
use crate::model::{
    AttributeUse, ContentType, FacetValue, Facets, Schema, SimpleTypeId, TypeId, Variety,
};

/// What a validator compiles from its [`Schema`]: the value plans of the simple types, the
/// string rules they refer to and the element plans of the declarations; for a schema whose
/// content models were not compiled (built without the loader), the validator's own models
/// and no plans (every start, end and value then goes the full way).
#[derive(Debug, Default)]
pub(crate) struct Plans {
    /// How the values of each simple type are checked, by [`SimpleTypeId`] (empty: the
    /// full check for every type).
    pub(crate) values: Vec<ValuePlan>,
    /// What the values of the `string` restrictions whose plan is `StringFacets` are checked
    /// against, by the plan's index.
    pub(crate) string_rules: Vec<StringRule>,
    /// Which element declarations a start tag without attributes opens by its plan, by
    /// [`ElementId`](crate::model::ElementId): those whose type has no attribute uses.
    pub(crate) elements: ElementPlans,
    /// The same for the declarations whose type has attribute uses, which a start tag takes
    /// by its plan once its attributes are checked against them.
    pub(crate) attributed: ElementPlans,
    /// The content models, compiled here for a schema whose own were not (`None`: the
    /// schema's).
    pub(crate) fallback: Option<Vec<Option<ContentModel>>>,
}

impl Plans {
    /// The plans of `schema`.
    pub(crate) fn new(schema: &Schema) -> Plans {
        if schema.content_models.len() != schema.complex_types.len() {
            return Plans {
                fallback: Some(compile_every(schema).0),
                ..Plans::default()
            };
        }
        let (values, string_rules) = value_plans(schema);
        let (elements, attributed) = element_plans(schema, &values);
        Plans {
            values,
            string_rules,
            elements,
            attributed,
            fallback: None,
        }
    }

    /// No plans for `schema`: its documents are validated the full way only, more
    /// slowly, to the same outcome (for the differential checks).
    pub(crate) fn none(schema: &Schema) -> Plans {
        Plans {
            fallback: (schema.content_models.len() != schema.complex_types.len())
                .then(|| compile_every(schema).0),
            ..Plans::default()
        }
    }
}

/// How the validator checks the values of one simple type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ValuePlan {
    pub(crate) check: Check,
    /// Whether the type is (derived from) ID, IDREF or a list of IDREFs.
    pub(crate) id: IdKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// Anything else: [`Schema::validate_simple`].
    Full,
    /// The built-in's lexical space and nothing more (the built-ins, restrictions without
    /// facets of their own).
    Builtin(Builtin),
    /// As `Builtin`, for a built-in with no whitespace inside its values (booleans, dates
    /// and times): the value is parsed from the trimmed text straight away.
    Parse(Builtin),
    /// As `Plain`, for `decimal`, `float` and `double`: an element's text is checked by a
    /// scan of its bytes, its value built only when asked for.
    Number(Builtin),
    /// A restriction of `string` (whitespace preserved) whose facets are among patterns,
    /// lengths and enumerations: the text as it is, checked against them (the schema's
    /// [`StringRule`] of this index). A value that fails goes to the full check, for its
    /// message.
    StringFacets(u32),
    /// An integer type whose only facets are bounds (the built-in integers among them):
    /// `lo <= value <= hi`, the built-in's bounds included. An element's value is built only
    /// when asked for. A value out of range (or beyond an `i64`) goes to the full check, for
    /// its message.
    IntRange { builtin: Builtin, lo: i64, hi: i64 },
}

impl ValuePlan {
    /// The full check for `ty` (for a validator without plans): the walk over the
    /// facets, and IDs still recorded.
    pub(crate) fn full(schema: &Schema, ty: SimpleTypeId) -> ValuePlan {
        ValuePlan {
            check: Check::Full,
            id: id_kind(schema, ty),
        }
    }
}

/// An element declaration whose start needs no check beyond its place in the parent's
/// content and its attributes: not abstract, no identity constraints, a type that is not
/// abstract and whose attribute uses (if any) record no IDs. The validator fills the frame
/// from it straight away, after checking the attributes against the uses when there are any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ElementPlan {
    pub(crate) ty: TypeId,
    /// Whether the element's character data is kept (simple content, or mixed content under
    /// a value constraint), as the full start decides for an element that is not nil.
    pub(crate) collect_text: bool,
    /// A simple type whose value plan is all the end of an element with text and no child
    /// needs ([`planned_end`]), and no value constraint.
    pub(crate) planned_end: Option<SimpleTypeId>,
}

impl Check {
    /// Whether a value's lexical form alone decides it (no in-scope namespaces, as `QName`
    /// and `NOTATION` need): two equal texts are then the same value. Unknown (`false`) for
    /// the general check.
    pub(crate) fn context_free(self) -> bool {
        !matches!(
            self,
            Check::Full | Check::Builtin(Builtin::QName | Builtin::Notation)
        )
    }

    /// For a number (`Number`, `IntRange`): its built-in when the scan of `text` vouches for
    /// it (the value then built on demand); `None` when it cannot, or for another check.
    #[inline]
    pub(crate) fn scan(self, text: &str) -> Option<Builtin> {
        self.scan_with(text, small_integer)
    }

    /// [`Check::scan`] of `text`, a slice of `doc` (where the reader read it) or not: an
    /// integer's digits are then read with the bytes before them, in two words.
    #[inline(always)]
    pub(crate) fn scan_in(self, text: &str, doc: &[u8]) -> Option<Builtin> {
        self.scan_with(text, |t| small_integer_in(t, doc))
    }

    #[inline(always)]
    fn scan_with(self, text: &str, integer: impl FnOnce(&str) -> Option<i64>) -> Option<Builtin> {
        match self {
            Check::Number(b) if is_plain_number(b, text) => Some(b),
            Check::IntRange { builtin, lo, hi }
                if integer(text).is_some_and(|v| lo <= v && v <= hi) =>
            {
                Some(builtin)
            }
            _ => None,
        }
    }
}

/// The simple type of an element of type `ty` whose end (not nil, text and no child) needs
/// only its value plan, when there is one: no value constraint, and a number scanned
/// (`Number`, `IntRange`), a string taken as it is (`string`, or patterns only) or a value
/// parsed straight away (`Plain`); not an ID type (whose values are recorded).
pub(crate) fn planned_end(
    plans: &Plans,
    ty: TypeId,
    value_constraint: bool,
) -> Option<SimpleTypeId> {
    planned_end_in(&plans.values, ty, value_constraint)
}

/// [`planned_end`] with the value plans `values` (while the plans are made).
#[inline]
fn planned_end_in(
    values: &[ValuePlan],
    ty: TypeId,
    value_constraint: bool,
) -> Option<SimpleTypeId> {
    let TypeId::Simple(st) = ty else {
        return None;
    };
    let plan = values.get(st.index())?;
    let planned = match plan.check {
        Check::Number(_) | Check::IntRange { .. } | Check::Parse(_) | Check::StringFacets(_) => {
            true
        }
        Check::Builtin(b) => is_string_type(b),
        Check::Full => false,
    };
    (planned && !value_constraint && plan.id == IdKind::None).then_some(st)
}

/// Whether the character data of an element of type `ty` (assessed, not nil) is kept:
/// simple content, or mixed content under a value constraint.
pub(crate) fn keeps_text(schema: &Schema, ty: TypeId, value_constraint: bool) -> bool {
    match ty {
        TypeId::Simple(_) => true,
        TypeId::Complex(c) => match &schema.complex_type(c).content {
            ContentType::Simple(_) => true,
            ContentType::Elements { mixed: true, .. } => value_constraint,
            _ => false,
        },
    }
}

/// Whether a start tag without attributes of its own can open an element of type `ty` with
/// no check: the type is not abstract and has no attribute uses (none can be missing or
/// defaulted).
pub(crate) fn opens_without_checks(schema: &Schema, ty: TypeId) -> bool {
    match ty {
        TypeId::Simple(_) => true,
        TypeId::Complex(c) => {
            let ct = schema.complex_type(c);
            !ct.is_abstract && ct.attribute_uses.is_empty()
        }
    }
}

/// Whether an element of type `ty` can open by its plan: `Some(false)` when it opens
/// without checks, `Some(true)` when its type is not abstract and has attribute uses of which none
/// is of an ID type (whose values the full start records).
fn planned_uses(schema: &Schema, ty: TypeId) -> Option<bool> {
    if opens_without_checks(schema, ty) {
        return Some(false);
    }
    // A simple type opens without checks.
    let TypeId::Complex(c) = ty else {
        return None;
    };
    let ct = schema.complex_type(c);
    let ids = |u: &AttributeUse| id_kind(schema, schema.attribute(u.decl).type_def) != IdKind::None;
    (!ct.is_abstract && !ct.attribute_uses.iter().any(ids)).then_some(true)
}

/// A table of [`ElementPlan`]s by [`ElementId`](crate::model::ElementId).
pub(crate) type ElementPlans = Vec<Option<ElementPlan>>;

/// The [`ElementPlan`] of every element declaration that has one (after the value plans), in
/// two tables: for the declarations whose type has no attribute uses, and for those whose
/// type has some. A tag may open the second kind only once its attributes are checked
/// against the uses (a use may be required, or add a default, even when the tag has no
/// attributes).
fn element_plans(schema: &Schema, values: &[ValuePlan]) -> (ElementPlans, ElementPlans) {
    let n = schema.elements.len();
    let (mut plain, mut attributed) = (vec![None; n], vec![None; n]);
    for (i, ed) in schema.elements.iter().enumerate() {
        if ed.is_abstract || !ed.identity_constraints.is_empty() {
            continue;
        }
        let Some(uses) = planned_uses(schema, ed.type_def) else {
            continue;
        };
        let vc = ed.value_constraint.is_some();
        let plan = ElementPlan {
            ty: ed.type_def,
            collect_text: keeps_text(schema, ed.type_def, vc),
            planned_end: planned_end_in(values, ed.type_def, vc),
        };
        if uses {
            attributed[i] = Some(plan);
        } else {
            plain[i] = Some(plan);
        }
    }
    (plain, attributed)
}

/// The plan of every simple type, by [`SimpleTypeId`], and the [`StringRule`]s their
/// [`Check::StringFacets`] refer to.
fn value_plans(schema: &Schema) -> (Vec<ValuePlan>, Vec<StringRule>) {
    let mut rules = Vec::new();
    let plans = (0..schema.simple_types.len())
        .map(|i| {
            let ty = SimpleTypeId::from_index(i);
            ValuePlan {
                check: check_of(schema, ty, &mut rules),
                id: id_kind(schema, ty),
            }
        })
        .collect();
    (plans, rules)
}

/// What the text of a [`Check::StringFacets`] type is checked against, in one small record
/// (the facets themselves are spread over the heap: a value's check should touch few cache
/// lines).
#[derive(Clone, Debug)]
pub(crate) struct StringRule {
    /// The length in characters: at least, at most.
    len: (usize, usize),
    /// The enumerated strings, each after its length (four bytes, little-endian); `None`:
    /// any string.
    enums: Option<Box<[u8]>>,
    /// The type, when it has patterns (in its facets).
    patterns: Option<SimpleTypeId>,
}

impl StringRule {
    fn new(ty: SimpleTypeId, f: &Facets) -> StringRule {
        let exact = f.length.as_ref().map(|l| l.value);
        let min = exact.max(f.min_length.as_ref().map(|l| l.value));
        let max = exact
            .into_iter()
            .chain(f.max_length.as_ref().map(|l| l.value))
            .min();
        let enums = f.enumeration.as_ref().map(|e| {
            let mut all = Vec::new();
            for (v, _) in e {
                if let Value::String(x) = v {
                    let len = u32::try_from(x.len()).unwrap_or(u32::MAX);
                    all.extend_from_slice(&len.to_le_bytes());
                    all.extend_from_slice(x.as_bytes());
                }
            }
            all.into_boxed_slice()
        });
        StringRule {
            len: (min.unwrap_or(0), max.unwrap_or(usize::MAX)),
            enums,
            patterns: (!f.patterns.is_empty()).then_some(ty),
        }
    }

    /// Whether `s`, a value of the rule's type as it stands, satisfies it: its length in
    /// characters, one of the enumerated strings, a pattern of every derivation step.
    pub(crate) fn holds(&self, schema: &Schema, s: &str) -> bool {
        if self.len != (0, usize::MAX) {
            let n = s.chars().count();
            if n < self.len.0 || n > self.len.1 {
                return false;
            }
        }
        if let Some(e) = &self.enums {
            if !enumerates(e, s.as_bytes()) {
                return false;
            }
        }
        self.patterns.map_or(true, |ty| {
            schema.simple_type(ty).facets.unmatched_pattern(s).is_none()
        })
    }
}

/// Whether the packed strings `all` (see [`StringRule::enums`]) include `s`.
fn enumerates(all: &[u8], s: &[u8]) -> bool {
    let mut rest = all;
    while let Some((len, tail)) = rest.split_first_chunk::<4>() {
        let len = u32::from_le_bytes(*len) as usize;
        let Some((x, tail)) = tail.split_at_checked(len) else {
            return false;
        };
        if x == s {
            return true;
        }
        rest = tail;
    }
    false
}

fn check_of(schema: &Schema, ty: SimpleTypeId, rules: &mut Vec<StringRule>) -> Check {
    let st = schema.simple_type(ty);
    let Variety::Atomic(b) = st.variety else {
        return Check::Full;
    };
    // A built-in's own facets (the bounds of the integer types, ...) are the ones its
    // lexical check already enforces.
    let facet_free = ty.index() < Builtin::ALL.len() || facet_free(&st.facets);
    if b.derives_from(Builtin::Integer) {
        let (lo, hi) = i64_bounds(b);
        let own = if facet_free {
            Some((lo, hi))
        } else {
            int_bounds(&st.facets)
        };
        if let Some((l, h)) = own {
            return Check::IntRange {
                builtin: b,
                lo: l.max(lo),
                hi: h.min(hi),
            };
        }
    }
    if facet_free {
        return if is_scanned_number(b) {
            Check::Number(b)
        } else if rejects_inner_space(b) {
            Check::Parse(b)
        } else {
            Check::Builtin(b)
        };
    }
    if b == Builtin::String && string_facets_only(&st.facets) {
        if let Ok(i) = u32::try_from(rules.len()) {
            rules.push(StringRule::new(ty, &st.facets));
            return Check::StringFacets(i);
        }
    }
    Check::Full
}

/// Whether a restriction of `string` keeps its text as it is and has only facets that a
/// [`StringRule`] checks.
fn string_facets_only(f: &Facets) -> bool {
    f.white_space
        .as_ref()
        .map_or(true, |w| w.value == WhiteSpace::Preserve)
        && no_digits_nor_bounds(f)
        && f.enumeration.as_ref().map_or(true, |e| {
            e.iter().all(|(v, _)| matches!(v, Value::String(_)))
        })
}

/// Whether `f` has neither digit counts nor bounds.
fn no_digits_nor_bounds(f: &Facets) -> bool {
    f.total_digits.is_none()
        && f.fraction_digits.is_none()
        && f.min_inclusive.is_none()
        && f.max_inclusive.is_none()
        && f.min_exclusive.is_none()
        && f.max_exclusive.is_none()
}

/// Whether a simple type adds no facet to its built-in.
pub(crate) fn facet_free(f: &Facets) -> bool {
    f.patterns.is_empty()
        && f.white_space.is_none()
        && f.length.is_none()
        && f.min_length.is_none()
        && f.max_length.is_none()
        && no_digits_nor_bounds(f)
        && f.enumeration.is_none()
}

/// The inclusive `i64` range of an integer type whose only facets are integral bounds
/// (and `whiteSpace` and `fractionDigits`, which every integer satisfies).
fn int_bounds(f: &Facets) -> Option<(i64, i64)> {
    let only_bounds = f
        .white_space
        .as_ref()
        .map_or(true, |w| w.value == WhiteSpace::Collapse)
        && f.length.is_none()
        && f.min_length.is_none()
        && f.max_length.is_none()
        && f.total_digits.is_none()
        && f.enumeration.is_none()
        && f.patterns.is_empty();
    // `fractionDigits` (0 on `integer`, inherited) holds for every integer.
    if !only_bounds {
        return None;
    }
    let int = |b: &Option<FacetValue<Value>>| -> Option<Option<i64>> {
        match b {
            None => Some(None),
            Some(FacetValue {
                value: Value::Integer(d) | Value::Decimal(d),
                ..
            }) if d.is_integer() => d.small_integer().map(Some),
            Some(_) => None,
        }
    };
    let mut lo = i64::MIN;
    let mut hi = i64::MAX;
    if let Some(v) = int(&f.min_inclusive)? {
        lo = lo.max(v);
    }
    if let Some(v) = int(&f.min_exclusive)? {
        lo = lo.max(v.checked_add(1)?);
    }
    if let Some(v) = int(&f.max_inclusive)? {
        hi = hi.min(v);
    }
    if let Some(v) = int(&f.max_exclusive)? {
        hi = hi.min(v.checked_sub(1)?);
    }
    Some((lo, hi))
}
