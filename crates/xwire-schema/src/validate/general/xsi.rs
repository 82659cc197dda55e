//! `xsi:type` (resolved, then checked against the declared type) and `xsi:nil`.

use xwire::StartTag;

use super::General;
use crate::datatypes::Builtin;
use crate::model::{DerivationSet, ElementId, SimpleTypeId, TypeId};
use crate::validate::shared::Shared;

impl<'s> General {
    /// Resolves `xsi:type` and checks it against the declared type.
    pub(super) fn xsi_type(
        &mut self,
        sh: &mut Shared<'s>,
        value: &str,
        decl: Option<ElementId>,
        declared: Option<TypeId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<TypeId> {
        let t = match sh.xsi_type_lookup(value) {
            Some(t) => t,
            None => self.xsi_type_as_qname(sh, value, label, offset)?,
        };
        self.xsi_type_check(sh, t, value, decl, declared, label, offset)
    }

    /// `xsi:type` through the QName datatype (for the error message of a bad value).
    pub(super) fn xsi_type_as_qname(
        &mut self,
        sh: &mut Shared<'s>,
        value: &str,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<Option<TypeId>> {
        let schema = sh.schema;
        let qname = SimpleTypeId::builtin(Builtin::QName);
        let v = match sh.validate_simple(qname, value) {
            Ok(v) => v,
            Err(e) => {
                self.error(
                    "cvc-elt.4.1",
                    format!("xsi:type on '{label}' is not a QName: {e}"),
                    offset,
                );
                return None;
            }
        };
        let crate::datatypes::Value::QName {
            namespace, local, ..
        } = &v.value
        else {
            return None;
        };
        Some(
            schema
                .names
                .lookup_namespace(namespace)
                .and_then(|ns| schema.names.lookup(ns, local))
                .and_then(|n| schema.global_type(n)),
        )
    }

    /// Checks a resolved `xsi:type` (`None`: names no type) against the declared type.
    // (Everything `xsi_type` has, passed on as it is.)
    #[allow(clippy::too_many_arguments)]
    pub(super) fn xsi_type_check(
        &mut self,
        sh: &Shared<'s>,
        t: Option<TypeId>,
        value: &str,
        decl: Option<ElementId>,
        declared: Option<TypeId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<TypeId> {
        let schema = sh.schema;
        let Some(t) = t else {
            self.error(
                "cvc-elt.4.2",
                format!(
                    "xsi:type '{}' on element '{label}' names no type definition of the schema",
                    value.trim()
                ),
                offset,
            );
            return None;
        };
        if let Some(dt) = declared {
            if !schema.derives_from(t, dt, sh.blocked_by(decl, dt)) {
                let why = if schema.derives_from(t, dt, DerivationSet::EMPTY) {
                    "its derivation is blocked"
                } else {
                    "it does not derive from the declared type"
                };
                self.error(
                    "cvc-elt.4.3",
                    format!(
                        "xsi:type '{}' may not be used on element '{label}': {why}",
                        value.trim()
                    ),
                    offset,
                );
                return None;
            }
        }
        Some(t)
    }

    pub(super) fn xsi_nil(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        decl: Option<ElementId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> bool {
        let Some(a) = self.xsi_nil_at.and_then(|i| tag.attributes().nth(i)) else {
            return false;
        };
        let v = a.value().trim();
        let nil = match v {
            "true" | "1" => true,
            "false" | "0" => false,
            _ => {
                self.error(
                    "cvc-datatype-valid",
                    format!("xsi:nil on '{label}' must be a boolean, found '{v}'"),
                    offset,
                );
                return false;
            }
        };
        let Some(e) = decl else {
            return false;
        };
        let ed = sh.schema.element(e);
        if !ed.nillable {
            self.error(
                "cvc-elt.3.1",
                format!("element '{label}' is not nillable, so it may not have xsi:nil"),
                offset,
            );
            return false;
        }
        if nil && ed.value_constraint.as_ref().is_some_and(|vc| vc.fixed) {
            self.error(
                "cvc-elt.3.2.2",
                format!("element '{label}' has a fixed value, so it may not be nil"),
                offset,
            );
        }
        nil
    }
}
