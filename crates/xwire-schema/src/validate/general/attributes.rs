//! The attributes of a start tag, fully checked: each against an attribute use or the
//! type's wildcard, the `xsi:` ones, the defaults of the uses not present, the IDs they
//! record, and the location hints.

use xwire::StartTag;

use super::messages::{fixed_mismatch, AttrWhat, Label, RawName};
use super::{AttributeInfo, General};
use crate::model::{
    AttributeId, AttributeUse, NameId, NamespaceId, ProcessContents, SimpleTypeId, SimpleValue,
    TypeId, ValueConstraint, XSI_NAMESPACE,
};
use crate::validate::ids::IdKind;
use crate::validate::shared::Shared;

impl<'s> General {
    pub(super) fn attributes(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        ty: TypeId,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let schema = sh.schema;
        let ct = match ty {
            TypeId::Complex(c) => Some(schema.complex_type(c)),
            TypeId::Simple(_) => None,
        };
        let uses = ct.map_or(&[][..], |ct| ct.attribute_uses.as_slice());
        if uses.is_empty() && tag.attributes().len() == 0 {
            // Nothing to check nor to add (most elements of most documents).
            return;
        }
        self.attr_seen.clear();
        self.attr_seen.resize(uses.len(), false);
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                continue;
            }
            let ans = sh.map_ns(a.ns(), || a.namespace_uri());
            let aname = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name());
            if ans != NamespaceId::UNKNOWN && Some(ans) == sh.xsi.ns {
                self.xsi_attribute(sh, i, &a, aname, label, offset);
                continue;
            }
            let alabel = Label {
                schema,
                name: aname,
                raw: RawName::Str(a.name()),
            };
            let found = match (aname, ty) {
                (Some(n), TypeId::Complex(c)) => self.uses.find(sh.schema, c, n),
                _ => None,
            };
            if let Some(ui) = found {
                self.attr_seen[ui] = true;
                let u = &uses[ui];
                let vc = u.effective_value_constraint(schema);
                self.attribute_value(sh, i, u.decl, a.value(), vc, &alabel, label, offset);
                continue;
            }
            let wildcard = ct.and_then(|ct| ct.attribute_wildcard.as_ref());
            match wildcard {
                Some(w) if w.allows(ans) => {
                    let global = aname.and_then(|n| schema.global_attribute(n));
                    match (w.process, global) {
                        (ProcessContents::Skip, _) | (ProcessContents::Lax, None) => {
                            self.attr_infos.push(AttributeInfo {
                                index: Some(i),
                                decl: None,
                                value: None,
                            })
                        }
                        (_, Some(g)) => {
                            let vc = schema.attribute(g).value_constraint.as_ref();
                            self.attribute_value(sh, i, g, a.value(), vc, &alabel, label, offset);
                        }
                        (ProcessContents::Strict, None) => self.error(
                            "cvc-complex-type.3.2.2",
                            format!("attribute '{alabel}' on element '{label}' matches a strict wildcard but has no declaration"),
                            offset,
                        ),
                    }
                }
                _ => {
                    let c = if ct.is_some() {
                        "cvc-complex-type.3.2.2"
                    } else {
                        "cvc-type.3.1.1"
                    };
                    self.error(
                        c,
                        format!("attribute '{alabel}' is not allowed on element '{label}'"),
                        offset,
                    );
                }
            }
        }
        for (ui, u) in uses.iter().enumerate() {
            if self.attr_seen[ui] {
                continue;
            }
            let d = schema.attribute(u.decl);
            if u.required {
                self.error(
                    "cvc-complex-type.4",
                    format!(
                        "element '{label}' must have the attribute '{}'",
                        schema.display_name(d.name)
                    ),
                    offset,
                );
                continue;
            }
            self.add_default(sh, u);
        }
    }

    /// The attribute of use `u`, absent from its tag, added from its default or fixed value
    /// (the use's, else the declaration's), if it has one.
    pub(super) fn add_default(&mut self, sh: &mut Shared<'s>, u: &AttributeUse) {
        if let Some(vc) = u.effective_value_constraint(sh.schema) {
            let ty = sh.schema.attribute(u.decl).type_def;
            let value = sh.validate_simple(ty, &vc.lexical).ok();
            self.attr_infos.push(AttributeInfo {
                index: None,
                decl: Some(u.decl),
                value,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn attribute_value(
        &mut self,
        sh: &mut Shared<'s>,
        index: usize,
        decl: AttributeId,
        lexical: &str,
        vc: Option<&ValueConstraint>,
        alabel: &dyn std::fmt::Display,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let ty = sh.schema.attribute(decl).type_def;
        let value = match sh.validate_simple(ty, lexical) {
            Ok(v) => {
                if let Some(vc) = vc.filter(|vc| vc.fixed) {
                    if !sh.fixed_matches(ty, vc, &v) {
                        let m = fixed_mismatch(vc, lexical, &v);
                        self.error(
                            "cvc-au",
                            format!("attribute '{alabel}' of element '{label}' {m}"),
                            offset,
                        );
                    }
                }
                let what = AttrWhat(alabel);
                self.record_id(sh, ty, &v, &what, offset);
                Some(v)
            }
            Err(e) => {
                self.error(
                    "cvc-attribute.3",
                    format!("attribute '{alabel}' of element '{label}' is not valid: {e}"),
                    offset,
                );
                None
            }
        };
        self.attr_infos.push(AttributeInfo {
            index: Some(index),
            decl: Some(decl),
            value,
        });
    }

    pub(super) fn xsi_attribute(
        &mut self,
        sh: &mut Shared<'s>,
        index: usize,
        a: &xwire::Attribute<'_>,
        aname: Option<NameId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let schema = sh.schema;
        // xsi:type and xsi:nil (found by the first pass over the attributes) are checked
        // apart; the others are the location hints, checked here.
        let type_or_nil = Some(index) == self.xsi_type_at || Some(index) == self.xsi_nil_at;
        let local = || a.local_name();
        match aname.and_then(|n| schema.global_attribute(n)) {
            Some(g)
                if !type_or_nil
                    && matches!(local(), "schemaLocation" | "noNamespaceSchemaLocation") =>
            {
                let local = local();
                let v = sh.validate_simple(schema.attribute(g).type_def, a.value());
                if let Err(e) = &v {
                    self.error(
                        "cvc-attribute.3",
                        format!("attribute 'xsi:{local}' of element '{label}' is not valid: {e}"),
                        offset,
                    );
                }
                self.attr_infos.push(AttributeInfo {
                    index: Some(index),
                    decl: Some(g),
                    value: v.ok(),
                });
            }
            Some(g) => self.attr_infos.push(AttributeInfo {
                index: Some(index),
                decl: Some(g),
                value: None,
            }),
            None => self.error(
                "cvc-complex-type.3.2.2",
                format!(
                    "attribute 'xsi:{}' is not an attribute of the schema instance namespace",
                    local()
                ),
                offset,
            ),
        }
    }

    pub(super) fn lax_attributes(&mut self, sh: &mut Shared<'s>, tag: &StartTag<'_>, offset: u64) {
        let schema = sh.schema;
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                continue;
            }
            let ans = sh.map_ns(a.ns(), || a.namespace_uri());
            let aname = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name());
            if let Some(g) = aname.and_then(|n| schema.global_attribute(n)) {
                if Some(ans) == sh.xsi.ns {
                    continue;
                }
                let alabel = Label {
                    schema,
                    name: Some(schema.attribute(g).name),
                    raw: RawName::Str(""),
                };
                let vc = schema.attribute(g).value_constraint.as_ref();
                self.attribute_value(sh, i, g, a.value(), vc, &alabel, &tag.name(), offset);
            }
        }
    }

    pub(super) fn collect_hints(&mut self, tag: &StartTag<'_>) {
        // A document may repeat hints on every element: keep a bounded number.
        const MAX_HINTS: usize = 1000;
        for a in tag.attributes() {
            if self.hints.len() >= MAX_HINTS {
                return;
            }
            if a.namespace_uri() != XSI_NAMESPACE {
                continue;
            }
            match a.local_name() {
                "schemaLocation" => {
                    let mut it = a.value().split_ascii_whitespace();
                    while let (Some(ns), Some(loc)) = (it.next(), it.next()) {
                        self.hints.push((ns.to_string(), loc.to_string()));
                    }
                }
                "noNamespaceSchemaLocation" => {
                    self.hints
                        .push((String::new(), a.value().trim().to_string()));
                }
                _ => {}
            }
        }
    }

    #[inline]
    pub(super) fn record_id(
        &mut self,
        sh: &mut Shared<'s>,
        ty: SimpleTypeId,
        v: &SimpleValue,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let kind = match sh.plan(v.member).id {
            IdKind::None => sh.plan(ty).id,
            kind => kind,
        };
        if kind != IdKind::None {
            self.record_id_of(kind, v, label, offset);
        }
    }

    #[inline(never)]
    pub(super) fn record_id_of(
        &mut self,
        kind: IdKind,
        v: &SimpleValue,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        if let Some(dup) = self.ids.record(kind, &v.value, offset) {
            self.error(
                "cvc-id.2",
                format!("the ID '{dup}' of {label} is not unique in the document"),
                offset,
            );
        }
    }
}
