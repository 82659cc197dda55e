//! The full end of an element: the content model's end, the element's value (with its value
//! constraint and its ID), and the identity constraints and IDREFs it closes.

use super::messages::{fixed_mismatch, ElemWhat};
use super::{General, Mode};
use crate::datatypes::Value;
use crate::model::{ContentType, ElementId, SimpleTypeId, SimpleValue, TypeId};
use crate::validate::identity::{key_part, KeyPart};
use crate::validate::shared::{model_of, Shared};

impl<'s> General {
    /// Drops the value of the element that ended before (keeping a string's allocation).
    #[inline]
    pub(super) fn clear_end_value(&mut self, sh: &mut Shared<'s>) {
        // Only a string value has an allocation to keep (no move of the others).
        if matches!(
            self.end_value,
            Some(SimpleValue {
                value: Value::String(_),
                ..
            })
        ) {
            let old = self.end_value.take();
            sh.recycle(old);
        } else {
            self.end_value = None;
        }
        if self.end_lazy.take().is_some() {
            self.lazy_value.take();
        }
    }

    pub(super) fn end(&mut self, sh: &mut Shared<'s>, offset: u64) {
        if self.depth == 0 {
            return;
        }
        let schema = sh.schema;
        let d = self.depth - 1;
        self.clear_end_value(sh);
        let (mode, ty, nil, decl, had_child) = {
            let f = &self.frames[d];
            (f.mode, f.ty, f.nil, f.decl, f.had_child)
        };
        let mut value_key = None;
        if mode == Mode::Typed && !self.stopped {
            let simple = match ty {
                TypeId::Simple(s) => Some(s),
                TypeId::Complex(c) => match &schema.complex_type(c).content {
                    ContentType::Simple(s) => Some(*s),
                    ContentType::Elements { .. } => {
                        if !nil {
                            let can_end = match model_of(schema, &sh.plans, c) {
                                Some(m) => m.can_end(&self.frames[d].state),
                                None => true,
                            };
                            if !can_end && !self.frames[d].content_failed {
                                let (expected, phrase, _) = self.expected_names(sh, c, d);
                                let label = self.frame_label(sh, d);
                                let message = if expected.is_empty() {
                                    format!("the content of element '{label}' is not complete")
                                } else {
                                    format!(
                                        "the content of element '{label}' is not complete: expected {phrase}"
                                    )
                                };
                                self.error_expecting(
                                    "cvc-complex-type.2.4.b",
                                    message,
                                    expected,
                                    offset,
                                );
                            }
                            if self.frames[d].state.overflow {
                                let label = self.frame_label(sh, d);
                                self.error(
                                    "cvc-complex-type.2.4",
                                    format!("the content model of element '{label}' is too ambiguous to validate"),
                                    offset,
                                );
                            }
                            self.mixed_fixed(sh, d, decl, had_child, offset);
                        }
                        None
                    }
                    ContentType::Empty => None,
                },
            };
            if let (Some(s), false, false) = (simple, nil, had_child) {
                value_key = self.simple_end(sh, d, s, decl, offset);
            }
        }
        if self.identity.active() {
            // A field may only select an element with a simple type or simple content
            // (cvc-identity-constraint.3); elements not assessed are not judged.
            let simple_typed = mode != Mode::Typed
                || match ty {
                    TypeId::Simple(_) => true,
                    TypeId::Complex(c) => {
                        matches!(schema.complex_type(c).content, ContentType::Simple(_))
                    }
                };
            let mut errs = std::mem::take(&mut self.id_errors);
            self.identity
                .end(schema, d, value_key, simple_typed, offset, &mut errs);
            self.id_errors = errs;
            self.flush_id_errors();
        }
        if sh.bindings() != self.frames[d].bindings {
            sh.pop_bindings(self.frames[d].bindings);
        }
        self.depth -= 1;
        if self.depth == 0 && !self.stopped {
            let unresolved: Vec<(String, u64)> = self
                .ids
                .unresolved()
                .map(|(r, o)| (r.to_string(), o))
                .collect();
            for (r, o) in unresolved {
                self.error(
                    "cvc-id.1",
                    format!("the IDREF '{r}' does not match any ID in the document"),
                    o,
                );
            }
        }
    }

    /// Validates the text of a simple-content element; returns its key for identity
    /// constraints.
    pub(super) fn simple_end(
        &mut self,
        sh: &mut Shared<'s>,
        d: usize,
        s: SimpleTypeId,
        decl: Option<ElementId>,
        offset: u64,
    ) -> Option<KeyPart> {
        let schema = sh.schema;
        let vc = decl.and_then(|e| schema.element(e).value_constraint.as_ref());
        if vc.is_none() && !self.frames[d].text.is_empty() {
            let text = &self.frames[d].text;
            let check = sh.plan(s).check;
            if sh.text_is_value(check, text) {
                return self.text_as_value(sh, d, s, offset);
            }
            // A number nobody needs the value of here (no identity constraint to key, no ID
            // to record): a scan of its text, the value built on demand. Text the scan
            // cannot vouch for goes the full way.
            if !self.identity.active() {
                if let Some(b) = check.scan(text) {
                    self.end_lazy = Some((b, s));
                    return None;
                }
            }
        }
        let text = std::mem::take(&mut self.frames[d].text);
        let label = self.lazy_frame_label(sh, d);
        let lexical = if text.is_empty() {
            vc.map_or("", |vc| vc.lexical.as_str())
        } else {
            text.as_str()
        };
        let result = sh.validate_simple(s, lexical);
        let key = match result {
            Ok(v) => {
                if let Some(vc) = vc.filter(|vc| vc.fixed && !text.is_empty()) {
                    if !sh.fixed_matches(s, vc, &v) {
                        let m = fixed_mismatch(vc, &text, &v);
                        self.error(
                            "cvc-elt.5.2.2.2.2",
                            format!("element '{label}' {m}"),
                            offset,
                        );
                    }
                }
                let what = ElemWhat(&label);
                self.record_id(sh, s, &v, &what, offset);
                // Only identity constraints need the key (a canonical string).
                let k = self.identity.active().then(|| key_part(&v.value));
                self.end_value = Some(v);
                k
            }
            Err(e) => {
                let start = self.frames[d].offset;
                self.error(
                    "cvc-datatype-valid",
                    format!("the content of element '{label}' is not valid: {e}"),
                    start,
                );
                None
            }
        };
        self.frames[d].text = text;
        key
    }

    /// The end of an element of a `string` type whose (checked) text is its value as is: the
    /// collected text becomes the value, and the frame takes a pooled buffer for its next
    /// text (no copy).
    pub(super) fn text_as_value(
        &mut self,
        sh: &mut Shared<'s>,
        d: usize,
        s: SimpleTypeId,
        offset: u64,
    ) -> Option<KeyPart> {
        let v = SimpleValue {
            value: Value::String(self.take_text(sh, d)),
            member: s,
        };
        let label = self.lazy_frame_label(sh, d);
        self.record_id(sh, s, &v, &ElemWhat(&label), offset);
        let k = self.identity.active().then(|| key_part(&v.value));
        self.end_value = Some(v);
        k
    }

    /// The collected text of the frame at `d`, which takes a pooled buffer for its next text
    /// (no copy).
    #[inline]
    pub(super) fn take_text(&mut self, sh: &mut Shared<'s>, d: usize) -> String {
        let spare = sh.pooled_string();
        std::mem::replace(&mut self.frames[d].text, spare)
    }

    /// A fixed value on an element of mixed content is compared as a string.
    pub(super) fn mixed_fixed(
        &mut self,
        sh: &mut Shared<'s>,
        d: usize,
        decl: Option<ElementId>,
        had_child: bool,
        offset: u64,
    ) {
        let schema = sh.schema;
        let Some(vc) = decl.and_then(|e| schema.element(e).value_constraint.as_ref()) else {
            return;
        };
        if !vc.fixed {
            return;
        }
        let text = &self.frames[d].text;
        if had_child || (!text.is_empty() && *text != vc.lexical) {
            let label = self.frame_label(sh, d);
            self.error(
                "cvc-elt.5.2.2.2.1",
                format!(
                    "element '{label}' must have the fixed value '{}'",
                    vc.lexical
                ),
                offset,
            );
        }
    }
}
