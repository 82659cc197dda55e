//! How the lean engine opens an element: its declaration from the parent's content model,
//! its type (declared, or named by `xsi:type`), its attributes, and what its end checks.

use xwire::StartTag;

use super::frame::{Child, Decl, End, Frame, Model, Repeat, Xsi};
use super::{check, Cache, Reason};
use crate::datatypes::Builtin;
use crate::model::{ContentType, ElementId, NamespaceId, ProcessContents, SimpleTypeId, TypeId};
use crate::validate::ids::IdKind;
use crate::validate::plans::{opens_without_checks, Check, ElementPlan, ValuePlan};
use crate::validate::shared::Shared;

/// The [`Decl`] of every element declaration of `sh`'s schema.
pub(super) fn decls<'s>(sh: &Shared<'s>) -> Vec<Decl<'s>> {
    let schema = sh.schema;
    (0..schema.elements.len())
        .map(|i| {
            if schema.elements[i].value_constraint.is_some() {
                return Decl::GiveUp;
            }
            let plan = |plans: &[Option<ElementPlan>]| plans.get(i).copied().flatten();
            let (plan, attributed) = match plan(&sh.plans.elements) {
                Some(p) => (p, false),
                None => match plan(&sh.plans.attributed) {
                    Some(p) => (p, true),
                    None => return Decl::GiveUp,
                },
            };
            match (end_of(sh, plan.ty), attributed) {
                (None, _) => Decl::GiveUp,
                (Some(end), false) => Decl::Unattributed(plan.ty, end),
                (Some(end), true) => Decl::Attributed(plan.ty, end),
            }
        })
        .collect()
}

impl<'s> Cache<'s> {
    /// The start of `tag` under `parent` (`None` for the root), into frame `f`; `doc` is the
    /// document (for the values of its attributes).
    #[inline]
    pub(super) fn start(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        mut parent: Option<&mut Frame<'s>>,
        f: &mut Frame<'s>,
        doc: &[u8],
    ) -> Result<(), Reason> {
        let schema = sh.schema;
        f.bindings = sh.bindings();
        if let Some(p) = parent.as_deref() {
            if let Some(r) = &p.repeat {
                if p.at(r) && repeats(sh, r, tag) {
                    f.open(r.end);
                    return Ok(());
                }
            }
        }
        // Namespace declarations first (an `xsi:type` value may use them), and `xsi:type`.
        let mut xsi_type = None;
        let mut others = 0usize;
        if tag.attributes().len() != 0 {
            for (i, a) in tag.attributes().enumerate() {
                if a.is_namespace_decl() {
                    sh.push_binding(&a);
                    continue;
                }
                let ans = sh.map_ns(a.ns(), || a.namespace_uri());
                if ans != NamespaceId::UNKNOWN && Some(ans) == sh.xsi.ns {
                    let n = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name());
                    // `xsi:nil` and the location hints go to the general engine.
                    if n.is_none() || n != sh.xsi.type_name {
                        return Err(Reason::Unsupported);
                    }
                    xsi_type = Some(i);
                } else {
                    others += 1;
                }
            }
        }
        let ns = sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = sh.map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        // The declaration, from the parent's content model (or the global one); `None` for
        // a lax wildcard's element that has none.
        // Whether the parent's plain content model stays where it was (the start may repeat).
        let mut stays = false;
        let decl = match parent.as_deref_mut() {
            None => Some(
                name.and_then(|n| schema.global_element(n))
                    .ok_or(Reason::Unproven)?,
            ),
            Some(p) => {
                let child;
                (child, stays) = p.child(name, ns).ok_or(Reason::Unproven)?;
                match child {
                    Child::Element(e) => Some(e),
                    Child::Wildcard(wc) => {
                        let global = name.and_then(|n| schema.global_element(n));
                        match (wc.process, global) {
                            (ProcessContents::Skip, _) => return Err(Reason::Unsupported),
                            (ProcessContents::Strict, None) => return Err(Reason::Unproven),
                            _ => global,
                        }
                    }
                }
            }
        };
        // The type, and the check of the attributes.
        let end = match (xsi_type, decl) {
            (None, None) => return Err(Reason::Unsupported), // assessed laxly
            // The common case: no attributes to check.
            (None, Some(e)) => {
                let end = match *self.decls.get(e.index()).ok_or(Reason::Unsupported)? {
                    Decl::Unattributed(_, end) if others == 0 => end,
                    Decl::Unattributed(ty, end) | Decl::Attributed(ty, end) => {
                        check::attributes(sh, &mut self.uses, tag, ty, doc)?;
                        end
                    }
                    Decl::GiveUp => return Err(Reason::Unsupported),
                };
                if let Some(p) = parent.filter(|_| stays) {
                    p.remember(tag, None, end);
                }
                f.open(end);
                return Ok(());
            }
            // Rare in most documents, but SOAP-encoded arrays type every item so: inline.
            (Some(i), decl) => {
                let a = tag.attributes().nth(i).ok_or(Reason::Unproven)?;
                let value = a.value();
                // Slot 0: elements with no declaration (a lax wildcard's).
                let slot = decl.map_or(0, |e| e.index() + 1);
                let known = self
                    .xsi
                    .get(slot)
                    .copied()
                    .flatten()
                    .filter(|m| sh.xsi_type_cached(m.entry, value, m.ty));
                let m = match known {
                    Some(m) => m,
                    None => {
                        let m = xsi_of(sh, decl, value)?;
                        if self.xsi.len() <= slot {
                            self.xsi.resize(slot + 1, None);
                        }
                        self.xsi[slot] = Some(m);
                        m
                    }
                };
                if others != 0 || !m.opens_without_checks {
                    check::attributes(sh, &mut self.uses, tag, m.ty, doc)?;
                }
                if let Some(p) = parent.filter(|_| stays) {
                    p.remember(tag, Some((a.name_id(), a.ns(), m)), m.end);
                }
                m.end
            }
        };
        f.open(end);
        Ok(())
    }
}

/// Whether `tag` is a start that `r` took: the same name, in the same namespace, and the
/// same attributes (none, or the same `xsi:type` meaning the same type).
#[inline(always)]
fn repeats(sh: &Shared<'_>, r: &Repeat<'_>, tag: &StartTag<'_>) -> bool {
    if r.qname != tag.name_id() || r.ns != tag.ns() {
        return false;
    }
    let mut attributes = tag.attributes();
    match (attributes.next(), r.xsi) {
        (None, None) => true,
        (Some(a), Some((qname, ns, m))) => {
            attributes.len() == 0
                && a.name_id() == qname
                && a.ns() == ns
                && sh.xsi_type_cached(m.entry, a.value(), m.ty)
        }
        _ => false,
    }
}

/// What `xsi:type="value"` on an element of `decl` makes of it, when the lean engine can
/// read it; [`Xsi::entry`] is `usize::MAX` when the cache of types was full.
fn xsi_of<'s>(
    sh: &mut Shared<'s>,
    decl: Option<ElementId>,
    value: &str,
) -> Result<Xsi<'s>, Reason> {
    let schema = sh.schema;
    let ty = sh
        .xsi_type_lookup(value)
        .flatten()
        .ok_or(Reason::Unproven)?;
    if let Some(e) = decl {
        let ed = schema.element(e);
        if !ed.identity_constraints.is_empty() || ed.value_constraint.is_some() {
            return Err(Reason::Unsupported);
        }
        if !sh.xsi_type_without_checks(e, ty) {
            return Err(Reason::Unproven);
        }
    }
    if matches!(ty, TypeId::Complex(c) if schema.complex_type(c).is_abstract) {
        return Err(Reason::Unproven);
    }
    Ok(Xsi {
        entry: sh.xsi_type_entry().unwrap_or(usize::MAX),
        ty,
        opens_without_checks: opens_without_checks(schema, ty),
        end: end_of(sh, ty).ok_or(Reason::Unsupported)?,
    })
}

/// What the end of an element of type `ty` checks; `None` for a type the lean engine does
/// not take.
fn end_of<'s>(sh: &Shared<'s>, ty: TypeId) -> Option<End<'s>> {
    let schema = sh.schema;
    let value = |s: SimpleTypeId| match sh.plan(s) {
        ValuePlan {
            check: Check::Builtin(Builtin::String | Builtin::AnySimpleType),
            id: IdKind::None,
        } => End::AnyText,
        _ => End::Value(s),
    };
    Some(match ty {
        TypeId::Simple(s) => value(s),
        TypeId::Complex(c) => match &schema.complex_type(c).content {
            ContentType::Simple(s) => value(*s),
            ContentType::Empty => End::Nothing,
            ContentType::Elements { mixed, .. } => {
                // The schema's own model (the engine is not ready without it).
                let m = schema.content_models.get(c.index())?.as_ref()?;
                let m = match m.plain() {
                    Some(plain) => Model::Plain(plain),
                    None => Model::Full(m),
                };
                match mixed {
                    true => End::MixedModel(m),
                    false => End::Model(m),
                }
            }
        },
    })
}
