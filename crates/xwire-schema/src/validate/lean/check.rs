//! The lean engine's checks: an element's end (its value, or its content model), the values
//! of text and attributes, and the attributes of a start tag. None builds a value it can
//! avoid building, and none says what is wrong: a failed check gives up.

use xwire::StartTag;

use super::frame::{End, Frame};
use super::Reason;
use crate::datatypes::{is_plain_temporal, parse_plain};
use crate::model::{NamespaceId, ProcessContents, SimpleTypeId, TypeId, ValueConstraint};
use crate::validate::ids::IdKind;
use crate::validate::plans::Check;
use crate::validate::shared::{Shared, UseIndex};

/// The end of the element of frame `f`, whose value's text is `pending` (a slice of `doc`)
/// if any, else the frame's.
#[inline]
pub(super) fn end(
    sh: &Shared<'_>,
    f: &Frame<'_>,
    pending: &mut Option<&str>,
    doc: &[u8],
) -> Result<(), Reason> {
    match f.end {
        End::Value(s) => value(sh, s, pending.take().unwrap_or(&f.text), doc),
        End::Model(m) | End::MixedModel(m) => match f.can_end(m) {
            true => Ok(()),
            false => Err(Reason::Unproven),
        },
        End::AnyText | End::Nothing => Ok(()),
    }
}

/// Whether `lexical` is a valid value of `ty` (not of an ID type): by its value plan's scan
/// or parse, else the full check. No value is kept. A number's scan is inline
/// (numeric data is mostly numbers); the rest is out of line, one copy for the ends of
/// elements and for attributes (a small document reads each line of code it runs from a
/// cold cache).
///
/// `lexical` may be a slice of `doc`, the document, whose bytes before it an integer's scan
/// reads ([`Check::scan_in`]).
#[inline(always)]
fn value(sh: &Shared<'_>, ty: SimpleTypeId, lexical: &str, doc: &[u8]) -> Result<(), Reason> {
    let plan = sh.plan(ty);
    if let check @ (Check::Number(_) | Check::IntRange { .. }) = plan.check {
        if plan.id == IdKind::None && check.scan_in(lexical, doc).is_some() {
            return Ok(());
        }
    }
    value_unscanned(sh, ty, lexical)
}

/// [`value`] but for a number its scan takes. (It looks the plan up again: taking the
/// caller's as an argument cost the inlined caller 0.7% on po-64k.)
#[inline(never)]
fn value_unscanned(sh: &Shared<'_>, ty: SimpleTypeId, lexical: &str) -> Result<(), Reason> {
    let plan = sh.plan(ty);
    if plan.id != IdKind::None {
        return Err(Reason::Unsupported);
    }
    let vouched = match plan.check {
        // (A number the scan did not take goes to the full check.)
        Check::Number(_) | Check::IntRange { .. } => false,
        // The common dates and times by a check at fixed positions, no value built.
        Check::Parse(b) => is_plain_temporal(b, lexical) || parse_plain(b, lexical).is_some(),
        check => sh.text_is_value(check, lexical),
    };
    // What these checks cannot vouch for, the full check of the value.
    match vouched {
        true => Ok(()),
        false => value_full(sh, ty, lexical),
    }
}

#[inline(never)]
fn value_full(sh: &Shared<'_>, ty: SimpleTypeId, lexical: &str) -> Result<(), Reason> {
    let v = sh
        .validate_simple(ty, lexical)
        .map_err(|_| Reason::Unproven)?;
    sh.recycle(Some(v));
    Ok(())
}

/// The attributes of `tag` (not `xmlns` nor `xsi:type`) against type `ty`: each valid for a
/// use of the type or allowed by its wildcard, and no required use missing. The values are
/// read in `doc`, the document, where they are slices of it. A value of an ID type is left
/// to the general engine.
pub(super) fn attributes(
    sh: &mut Shared<'_>,
    uses_by_name: &mut UseIndex,
    tag: &StartTag<'_>,
    ty: TypeId,
    doc: &[u8],
) -> Result<(), Reason> {
    let schema = sh.schema;
    // A simple type allows `xmlns` and `xsi:type` only (the caller's count).
    let TypeId::Complex(c) = ty else {
        return Err(Reason::Unproven);
    };
    let ct = schema.complex_type(c);
    let uses = ct.attribute_uses.as_slice();
    if uses.len() > 64 {
        return Err(Reason::Unsupported);
    }
    let mut seen = 0u64;
    for a in tag.attributes() {
        if a.is_namespace_decl() {
            continue;
        }
        let ans = sh.map_ns(a.ns(), || a.namespace_uri());
        if ans != NamespaceId::UNKNOWN && Some(ans) == sh.xsi.ns {
            continue; // the `xsi:type` the caller found
        }
        let n = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name());
        let (decl, fixed) = match n.and_then(|n| uses_by_name.find(schema, c, n)) {
            Some(ui) => {
                seen |= 1 << ui;
                let u = &uses[ui];
                (
                    u.decl,
                    u.effective_value_constraint(schema).filter(|vc| vc.fixed),
                )
            }
            None => {
                let w = ct
                    .attribute_wildcard
                    .as_ref()
                    .filter(|w| w.allows(ans))
                    .ok_or(Reason::Unproven)?;
                match (w.process, n.and_then(|n| schema.global_attribute(n))) {
                    (ProcessContents::Skip, _) | (ProcessContents::Lax, None) => continue,
                    (_, Some(g)) => {
                        let vc = schema.attribute(g).value_constraint.as_ref();
                        (g, vc.filter(|vc| vc.fixed))
                    }
                    (ProcessContents::Strict, None) => return Err(Reason::Unproven),
                }
            }
        };
        let ty = schema.attribute(decl).type_def;
        // The usual case: the fixed value as the schema writes it (valid, as the schema
        // was checked), which is then the same value.
        let as_written = |vc: &ValueConstraint| {
            vc.value.is_some() && a.value() == vc.lexical && sh.plan(ty).check.context_free()
        };
        if fixed.is_some_and(as_written) {
            continue;
        }
        value(sh, ty, a.value(), doc)?;
        if let Some(vc) = fixed {
            // Rare: the value built again, to compare.
            let v = sh
                .validate_simple(ty, a.value())
                .map_err(|_| Reason::Unproven)?;
            let same = sh.fixed_matches(ty, vc, &v);
            sh.recycle(Some(v));
            if !same {
                return Err(Reason::Unproven);
            }
        }
    }
    let missing = uses
        .iter()
        .enumerate()
        .any(|(ui, u)| u.required && seen & (1 << ui) == 0);
    match missing {
        true => Err(Reason::Unproven),
        false => Ok(()),
    }
}
