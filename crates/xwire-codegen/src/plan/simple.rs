//! Simple types to Rust types: built-ins to native types, integers sized by their ranges,
//! enumerations to enums, patterns and lengths to newtypes, lists to `Vec`, unions to enums.

use xwire_schema::datatypes::{self, Builtin, TemporalKind, Value};
use xwire_schema::model::{Facets, SimpleTypeId, Variety};

use super::names::{self, Taken};
use super::{docs, IntType, ItemId, ItemKind, Origin, PlanError, Planner, Prim, Ty};

impl Planner<'_> {
    /// The Rust type of simple type `id`; `context`: the element (and the item declaring it)
    /// an anonymous type is named after.
    pub(super) fn simple_type(
        &mut self,
        id: SimpleTypeId,
        context: Option<(&str, Option<ItemId>)>,
    ) -> Result<Ty, PlanError> {
        if let Some(ty) = self.simple.get(&id) {
            return Ok(ty.clone());
        }
        let schema = self.schema;
        let st = schema.simple_type(id);
        if let Some(b) = st.builtin {
            let ty = builtin(b);
            self.simple.insert(id, ty.clone());
            return Ok(ty);
        }
        let name = match st.name {
            Some(n) => names::type_name(schema.names().local(n)),
            None => self.anonymous_name(context, "Value"),
        };
        let doc = docs(&st.annotation, || match (st.name, context) {
            (Some(n), _) => format!("Simple type `{}`.", schema.names().display(n)),
            (None, Some((local, _))) => format!("The simple type of `{local}`."),
            (None, None) => "An anonymous simple type.".to_string(),
        });
        let ty = match &st.variety {
            Variety::List(item) => {
                let item_name = format!("{name}Item");
                Ty::List(Box::new(self.simple_type(*item, Some((&item_name, None)))?))
            }
            Variety::Union(members) => {
                let item = self.reserve(&name, Origin::SimpleType(id), doc);
                // Cached before the members, which take their names from it.
                self.simple.insert(id, Ty::Item(item));
                let mut taken = Taken::default();
                let mut variants = Vec::new();
                for (i, &m) in members.iter().enumerate() {
                    let member = schema.simple_type(m);
                    let vname = match (member.builtin, member.name) {
                        (Some(b), _) => names::type_name(b.name()),
                        (None, Some(n)) => names::type_name(schema.names().local(n)),
                        (None, None) => format!("Member{}", i + 1),
                    };
                    let mname = format!("{}{}", self.items[item.0].name, vname);
                    let ty = self.simple_type(m, Some((&mname, None)))?;
                    variants.push((taken.take(&vname), ty));
                }
                self.items[item.0].kind = ItemKind::Union { members: variants };
                Ty::Item(item)
            }
            Variety::Atomic(b) => {
                let prim = atomic(*b, &st.facets);
                if let Some(values) = &st.facets.enumeration {
                    let mut taken = Taken::default();
                    let values = values
                        .iter()
                        .map(|(_, lexical)| {
                            (taken.take(&names::type_name(lexical)), lexical.clone())
                        })
                        .collect();
                    let item = self.reserve(&name, Origin::SimpleType(id), doc);
                    self.items[item.0].kind = ItemKind::Enumeration { base: prim, values };
                    Ty::Item(item)
                } else {
                    // NMTOKENS, IDREFS and ENTITIES are atomic in the model, lists here.
                    let ty = match b.is_list() {
                        true => builtin(*b),
                        false => Ty::Prim(prim),
                    };
                    match needs_newtype(&st.facets) {
                        true => {
                            let item = self.reserve(&name, Origin::SimpleType(id), doc);
                            self.items[item.0].kind = ItemKind::Newtype { inner: ty };
                            Ty::Item(item)
                        }
                        false => ty,
                    }
                }
            }
        };
        self.simple.insert(id, ty.clone());
        Ok(ty)
    }
}

/// Whether facets give a value a form its Rust type does not show: a pattern or a length.
/// (Ranges size integer types, enumerations are enums, and every facet is checked while a
/// value converts.)
fn needs_newtype(f: &Facets) -> bool {
    !f.patterns.is_empty() || f.length.is_some() || f.min_length.is_some() || f.max_length.is_some()
}

/// The Rust type of a built-in simple type.
pub(super) fn builtin(b: Builtin) -> Ty {
    if b.is_list() {
        return Ty::List(Box::new(Ty::Prim(Prim::String)));
    }
    Ty::Prim(atomic(b, &Facets::default()))
}

/// The Rust type of an atomic type whose nearest built-in is `b`, under `facets`.
fn atomic(b: Builtin, facets: &Facets) -> Prim {
    use Builtin::*;
    match b.primitive() {
        Boolean => Prim::Bool,
        Float => Prim::F32,
        Double => Prim::F64,
        Duration => Prim::Duration,
        DateTime => Prim::DateTime(TemporalKind::DateTime),
        Time => Prim::DateTime(TemporalKind::Time),
        Date => Prim::DateTime(TemporalKind::Date),
        GYearMonth => Prim::DateTime(TemporalKind::GYearMonth),
        GYear => Prim::DateTime(TemporalKind::GYear),
        GMonthDay => Prim::DateTime(TemporalKind::GMonthDay),
        GDay => Prim::DateTime(TemporalKind::GDay),
        GMonth => Prim::DateTime(TemporalKind::GMonth),
        HexBinary | Base64Binary => Prim::Bytes,
        QName | Notation => Prim::QName,
        Decimal if b.derives_from(Integer) => integer(b, facets),
        Decimal => Prim::Decimal,
        _ => Prim::String,
    }
}

/// An integer type sized by the range its built-in and its facets allow.
fn integer(b: Builtin, f: &Facets) -> Prim {
    match integer_bounds(b, f) {
        (Some(lo), Some(hi)) => IntType::fitting(lo, hi).map_or(Prim::Integer, Prim::Int),
        _ => Prim::Integer,
    }
}

/// The range an integer type allows: its built-in's, narrowed by its facets (`None`:
/// unbounded on that side).
pub fn integer_bounds(b: Builtin, f: &Facets) -> (Option<i128>, Option<i128>) {
    let (mut lo, mut hi) = datatypes::integer_range(b);
    let bound = |v: &Value| match v {
        Value::Integer(d) | Value::Decimal(d) => d.to_i128(),
        _ => None,
    };
    let tighten = |cur: &mut Option<i128>, new: Option<i128>, lower: bool| {
        if let Some(n) = new {
            *cur = Some(match *cur {
                Some(c) if lower => c.max(n),
                Some(c) => c.min(n),
                None => n,
            });
        }
    };
    tighten(
        &mut lo,
        f.min_inclusive.as_ref().and_then(|v| bound(&v.value)),
        true,
    );
    tighten(
        &mut lo,
        f.min_exclusive
            .as_ref()
            .and_then(|v| bound(&v.value))
            .map(|n| n + 1),
        true,
    );
    tighten(
        &mut hi,
        f.max_inclusive.as_ref().and_then(|v| bound(&v.value)),
        false,
    );
    tighten(
        &mut hi,
        f.max_exclusive
            .as_ref()
            .and_then(|v| bound(&v.value))
            .map(|n| n - 1),
        false,
    );
    (lo, hi)
}
