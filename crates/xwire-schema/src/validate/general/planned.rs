//! The starts and ends an element plan decides (the plain moves of the parent's content
//! model to declarations with an [`ElementPlan`], a value plan that is all an end needs): tried
//! before the full start and end, to the same outcome, changing nothing when they decline.

use xwire::StartTag;

use super::{AttributeInfo, General, Mode, Opening};
use crate::datatypes::{parse_plain, Value};
use crate::model::{
    ComplexTypeId, ElementId, NameId, ProcessContents, SimpleTypeId, SimpleValue, TypeId,
};
use crate::validate::automaton::ContentModel;
use crate::validate::plans::{self, keeps_text, opens_without_checks, Check, ElementPlan};
use crate::validate::shared::{model_of, Shared};

impl<'s> General {
    /// The complex type of the element open at depth `d - 1` when a planned start may step
    /// its content: assessed against a type, not nil.
    #[inline]
    pub(super) fn planned_parent(&self, d: usize) -> Option<ComplexTypeId> {
        let p = &self.frames[d - 1];
        match p.ty {
            TypeId::Complex(c) if p.mode == Mode::Typed && !p.nil => Some(c),
            _ => None,
        }
    }

    /// Whether a planned start may be tried at depth `d`: below the root, the validator not
    /// stopped, no identity constraint in scope (whose fields and selectors need the
    /// full start's attribute keys).
    #[inline]
    pub(super) fn planned_allowed(&self, d: usize) -> bool {
        d != 0 && !self.stopped && !self.identity.active()
    }

    /// Where a planned start of `tag` (below the root) goes: its declaration, the target of
    /// its plain move in the parent's content model, the declaration's
    /// [`ElementPlan`] (in the plans of declarations whose type has
    /// attribute uses when `attributed`) and the element's name. `None` when the parent is
    /// not assessed against a complex type, the move is not plain, or the declaration has no
    /// plan there. Changes nothing but the name caches.
    #[inline(always)]
    pub(super) fn planned_target(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        d: usize,
        attributed: bool,
    ) -> Option<(ElementId, u32, ElementPlan, NameId)> {
        let schema = sh.schema;
        let pc = self.planned_parent(d)?;
        let ns = sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = sh.map_name(tag.name_id(), tag.ns(), ns, || tag.local_name())?;
        let m = model_of(schema, &sh.plans, pc)?;
        let (decl, target) = m.plain_step(&self.frames[d - 1].state, name)?;
        let plans = match attributed {
            false => &sh.plans.elements,
            true => &sh.plans.attributed,
        };
        let plan = plans.get(decl.index()).copied().flatten()?;
        Some((decl, target, plan, name))
    }

    /// The start of an element whose tag has no attributes (no namespace declarations
    /// either), which is a plain move in its parent's content model to a declaration with
    /// an [`ElementPlan`] (whose type has no attribute uses), while no
    /// identity constraint is in scope: its frame is filled straight away. `false` (nothing
    /// changed) for anything else, which [`General::start_planned_attributed`] or
    /// [`General::start`] then takes, to the same outcome.
    #[inline]
    pub(super) fn start_planned(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
    ) -> bool {
        let d = self.depth;
        if !self.planned_allowed(d) || tag.attributes().len() != 0 {
            return false;
        }
        let Some((decl, target, plan, name)) = self.planned_target(sh, tag, d, false) else {
            return false;
        };
        self.clear_attr_infos(sh);
        self.open_planned(sh, tag, offset, d, target, Some(decl), plan, Some(name));
        true
    }

    /// As [`General::start_planned`], for a declaration whose type has attribute uses (its
    /// plan among the attributed plans): the tag's attributes are checked against them first
    /// ([`General::planned_attributes`]). `false` (nothing changed but the last start's
    /// attributes dropped) when they need the full start.
    #[inline(never)]
    pub(super) fn start_planned_attributed(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
    ) -> bool {
        let d = self.depth;
        if !self.planned_allowed(d) {
            return false;
        }
        let Some((decl, target, plan, name)) = self.planned_target(sh, tag, d, true) else {
            return false;
        };
        self.clear_attr_infos(sh);
        if !self.planned_attributes(sh, tag, plan.ty) {
            return false;
        }
        self.open_planned(sh, tag, offset, d, target, Some(decl), plan, Some(name));
        true
    }

    /// The end of every planned start: the move to `target` in the content of the element
    /// open at depth `d - 1`, and the frame of the new element from its plan (assessed, not
    /// nil). Always inlined, like [`General::open_frame`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn open_planned(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
        d: usize,
        target: u32,
        decl: Option<ElementId>,
        plan: ElementPlan,
        name: Option<NameId>,
    ) {
        let p = &mut self.frames[d - 1];
        ContentModel::plain_move(&mut p.state, target);
        p.had_child = true;
        let bindings = sh.bindings();
        self.open_frame(
            sh,
            tag,
            offset,
            bindings,
            Opening {
                mode: Mode::Typed,
                decl,
                ty: plan.ty,
                nil: false,
                collect_text: plan.collect_text,
                name,
                planned_end: plan.planned_end,
            },
        );
    }

    /// The attributes of a planned start for type `ty` (whose uses record no IDs), into
    /// `attr_infos` as the full start puts them: each attribute valid for a use of the type
    /// (its fixed value kept), then the uses not present with a default or fixed value.
    /// `false` for anything the full start would report or treat apart: a namespace
    /// declaration (its binding), an attribute with no use (`xsi:`, a wildcard's), an invalid
    /// value, a required use missing.
    #[inline(never)]
    pub(super) fn planned_attributes(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        ty: TypeId,
    ) -> bool {
        let schema = sh.schema;
        let TypeId::Complex(c) = ty else {
            return false;
        };
        let uses = schema.complex_type(c).attribute_uses.as_slice();
        if uses.len() > 64 {
            return false;
        }
        let mut seen = 0u64;
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                return false;
            }
            // An `xsi:` attribute is no type's use (the loader refuses to declare one,
            // `no-xsi`): it finds none, like a wildcard's attribute.
            let ans = sh.map_ns(a.ns(), || a.namespace_uri());
            let Some(n) = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name()) else {
                return false;
            };
            let Some(ui) = self.uses.find(sh.schema, c, n) else {
                return false;
            };
            let u = &uses[ui];
            let ad = schema.attribute(u.decl);
            let Ok(v) = sh.validate_simple(ad.type_def, a.value()) else {
                return false;
            };
            let vc = u.effective_value_constraint(schema);
            if vc.is_some_and(|vc| vc.fixed && !sh.fixed_matches(ad.type_def, vc, &v)) {
                sh.recycle(Some(v));
                return false;
            }
            seen |= 1 << ui;
            self.attr_infos.push(AttributeInfo {
                index: Some(i),
                decl: Some(u.decl),
                value: Some(v),
            });
        }
        for (ui, u) in uses.iter().enumerate() {
            if seen & (1 << ui) != 0 {
                continue;
            }
            if u.required {
                return false;
            }
            self.add_default(sh, u);
        }
        true
    }

    /// The start of an element whose only attribute is `xsi:type` (the items of a
    /// SOAP-encoded array, the accessors of an encoded struct): as [`General::start_planned`],
    /// for a plain move in the parent's model to a declaration (whose type the `xsi:type`
    /// derives from, unblocked) or to a lax wildcard (no global declaration for the name),
    /// to a type named by a cached or well-formed `xsi:type` that is not abstract and has no
    /// attribute uses. `false` (nothing changed but caches) for anything else.
    #[inline(never)]
    pub(super) fn start_planned_xsi_type(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
    ) -> bool {
        let d = self.depth;
        // Like the other planned ways, only for a validator with plans.
        if !self.planned_allowed(d)
            || tag.attributes().len() != 1
            || sh.plans.elements.is_empty()
            || sh.options.schema_location_hints
        {
            return false;
        }
        let (Some(xsi), (Some(xsi_type), _)) = (sh.xsi.ns, (sh.xsi.type_name, sh.xsi.nil_name))
        else {
            return false;
        };
        let Some(a) = tag.attributes().next() else {
            return false;
        };
        if a.is_namespace_decl()
            || sh.map_ns(a.ns(), || a.namespace_uri()) != xsi
            || sh.map_name(a.name_id(), a.ns(), xsi, || a.local_name()) != Some(xsi_type)
        {
            return false;
        }
        let schema = sh.schema;
        let Some(xsi_type_decl) = sh.xsi.type_decl else {
            return false;
        };
        let Some(pc) = self.planned_parent(d) else {
            return false;
        };
        let ns = sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = sh.map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        let Some(Some(ty)) = sh.xsi_type_lookup(a.value()) else {
            return false;
        };
        let Some(m) = model_of(schema, &sh.plans, pc) else {
            return false;
        };
        let st = &self.frames[d - 1].state;
        let (decl, target) = if let Some((e, target)) = name.and_then(|n| m.plain_step(st, n)) {
            if !sh.xsi_type_without_checks(e, ty) {
                return false;
            }
            (Some(e), target)
        } else if let Some((wc, target)) = m.plain_wildcard(st, name, ns) {
            if wc.process != ProcessContents::Lax
                || name.is_some_and(|n| schema.global_element(n).is_some())
            {
                return false;
            }
            (None, target)
        } else {
            return false;
        };
        if !opens_without_checks(schema, ty) {
            return false;
        }
        // No value constraint: a wildcard's child has no declaration, a declaration with
        // one was left to the full start.
        let plan = ElementPlan {
            ty,
            collect_text: keeps_text(schema, ty, false),
            planned_end: plans::planned_end(&sh.plans, ty, false),
        };
        self.clear_attr_infos(sh);
        self.attr_infos.push(AttributeInfo {
            index: Some(0),
            decl: Some(xsi_type_decl),
            value: None,
        });
        self.open_planned(sh, tag, offset, d, target, decl, plan, name);
        true
    }

    /// The end of an element whose value plan is all its end needs ([`Frame::planned_end`]),
    /// with text and no child, below the root, that declared no namespace, while no identity
    /// constraint is in scope: a number's scan (its value built on demand), a date's parse, a
    /// string's text taken as its value. `false` (nothing changed) when the plan cannot
    /// vouch for the text, or for anything else: [`General::end`] then decides (and says
    /// what is wrong).
    #[inline]
    pub(super) fn end_planned(&mut self, sh: &mut Shared<'s>) -> bool {
        let d = self.depth - 1;
        let f = &self.frames[d];
        let Some(s) = f.planned_end else {
            return false;
        };
        // The root's end checks the document's IDREFs (a root of simple type holds none,
        // but that is the full end's to say).
        if f.had_child
            || f.text.is_empty()
            || d == 0
            || f.bindings != sh.bindings()
            || self.stopped
            || self.identity.active()
        {
            return false;
        }
        // A number: its scan, the value built on demand.
        let b = match sh.plan(s).check {
            check @ (Check::Number(_) | Check::IntRange { .. }) => match check.scan(&f.text) {
                Some(b) => b,
                None => return false,
            },
            check => return self.end_planned_value(sh, d, s, check),
        };
        self.clear_end_value(sh);
        self.end_lazy = Some((b, s));
        self.depth -= 1;
        true
    }

    /// [`General::end_planned`] for a value built here: a date's parse, or a string's text
    /// taken as it is. Out of line, so that the numbers' planned end stays small.
    #[inline(never)]
    pub(super) fn end_planned_value(
        &mut self,
        sh: &mut Shared<'s>,
        d: usize,
        s: SimpleTypeId,
        check: Check,
    ) -> bool {
        let text = &self.frames[d].text;
        let value = match check {
            Check::Parse(b) => match parse_plain(b, text) {
                Some(v) => Some(v),
                None => return false,
            },
            _ if sh.text_is_value(check, text) => None,
            _ => return false,
        };
        self.clear_end_value(sh);
        let value = value.unwrap_or_else(|| Value::String(self.take_text(sh, d)));
        self.end_value = Some(SimpleValue { value, member: s });
        self.depth -= 1;
        true
    }
}
