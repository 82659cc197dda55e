//! The general engine's messages: names formatted only when an error is reported, what a
//! content model expected, why a child or a value was refused.

use xwire::StartTag;

use super::General;
use crate::datatypes::trim_xml;
use crate::model::{
    ComplexTypeId, NameId, NamespaceId, Schema, SimpleValue, ValueConstraint, Wildcard,
};
use crate::validate::automaton::Expected;
use crate::validate::shared::{model_of, Shared};

/// A name for messages, formatted only when an error is reported (no allocation per element).
#[derive(Clone, Copy)]
pub(super) struct Label<'a> {
    pub(super) schema: &'a Schema,
    pub(super) name: Option<NameId>,
    pub(super) raw: RawName<'a>,
}

/// The name as written, for a [`Label`] the schema has no name for: a start tag's is only
/// sliced out if a message needs it.
#[derive(Clone, Copy)]
pub(super) enum RawName<'a> {
    Str(&'a str),
    Tag(&'a StartTag<'a>),
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name {
            Some(n) => f.write_str(&self.schema.display_name(n)),
            None => match self.raw {
                RawName::Str(s) => f.write_str(s),
                RawName::Tag(t) => f.write_str(t.name()),
            },
        }
    }
}

/// `attribute 'x'`, formatted lazily.
pub(super) struct AttrWhat<'a>(pub(super) &'a dyn std::fmt::Display);

impl std::fmt::Display for AttrWhat<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "attribute '{}'", self.0)
    }
}

/// `element 'x'`, formatted lazily.
pub(super) struct ElemWhat<'a>(pub(super) &'a dyn std::fmt::Display);

impl std::fmt::Display for ElemWhat<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "element '{}'", self.0)
    }
}

/// What a value `found` (as written) that is not the fixed value of `vc` gets told: when
/// the two are written alike (a QName whose prefix is bound elsewhere), the values too.
#[cold]
pub(super) fn fixed_mismatch(vc: &ValueConstraint, found: &str, v: &SimpleValue) -> String {
    let found = trim_xml(found);
    let mut m = format!(
        "must have the fixed value '{}', found '{found}'",
        vc.lexical
    );
    if let Some(fixed) = vc.value.as_ref().filter(|_| found == trim_xml(&vc.lexical)) {
        // A QName as {namespace}local, which is what differs.
        m += &format!(
            " (the value {}, not {})",
            v.value.expanded_canonical(),
            fixed.expanded_canonical()
        );
    }
    m
}

pub(super) fn wildcard_label(schema: &Schema, w: &Wildcard) -> String {
    use crate::model::NamespaceConstraint::*;
    match &w.namespaces {
        Any => "any element".to_string(),
        Not(ns) => format!(
            "any element not in namespace '{}'",
            schema.names.namespace_uri(*ns)
        ),
        Set(set) => {
            let list: Vec<String> = set
                .iter()
                .map(|ns| {
                    if *ns == NamespaceId::ABSENT {
                        "no namespace".to_string()
                    } else {
                        format!("'{}'", schema.names.namespace_uri(*ns))
                    }
                })
                .collect();
            format!("any element in {}", list.join(" or "))
        }
    }
}

impl<'s> General {
    /// The element at depth `p` may not contain the child `label`: `why` says why
    /// ("has simple content and may not contain").
    #[cold]
    pub(super) fn refuse_child(
        &mut self,
        sh: &mut Shared<'s>,
        p: usize,
        constraint: &'static str,
        why: &str,
        label: &Label<'_>,
        offset: u64,
    ) {
        let plabel = self.frame_label(sh, p);
        self.error(
            constraint,
            format!("element '{plabel}' {why} element '{label}'"),
            offset,
        );
    }

    pub(super) fn lazy_frame_label(&self, sh: &Shared<'s>, depth: usize) -> Label<'s> {
        let f = &self.frames[depth];
        Label {
            schema: sh.schema,
            name: f.name.or(f.decl.map(|e| sh.schema.element(e).name)),
            raw: RawName::Str("?"),
        }
    }

    pub(super) fn frame_label(&self, sh: &Shared<'s>, depth: usize) -> String {
        let f = &self.frames[depth];
        match (f.name, f.decl) {
            (Some(n), _) => sh.schema.display_name(n),
            (None, Some(e)) => sh.schema.display_name(sh.schema.element(e).name),
            _ => f.raw.clone(),
        }
    }

    /// The names allowed next in the content of the element at `p`: full names (for
    /// [`ValidationError::expected`]), the phrase for messages, and whether the content may
    /// end. Names in the element's own namespace are shown by their local part.
    pub(super) fn expected_names(
        &mut self,
        sh: &mut Shared<'s>,
        c: ComplexTypeId,
        p: usize,
    ) -> (Vec<String>, String, bool) {
        let schema = sh.schema;
        let Some(m) = model_of(schema, &sh.plans, c) else {
            return (Vec::new(), String::new(), true);
        };
        let own_ns = self.frames[p].name.map(|n| schema.names.ns(n));
        let mut out: Vec<Expected<'_>> = Vec::new();
        m.expected(&self.frames[p].state, &mut out);
        let mut full = Vec::with_capacity(out.len());
        let mut short = Vec::with_capacity(out.len());
        for e in &out {
            match e {
                Expected::Element(n) => {
                    full.push(schema.display_name(*n));
                    short.push(if Some(schema.names.ns(*n)) == own_ns {
                        schema.names.local(*n).to_string()
                    } else {
                        schema.display_name(*n)
                    });
                }
                Expected::Wildcard(w) => {
                    let l = wildcard_label(schema, w);
                    full.push(l.clone());
                    short.push(l);
                }
            }
        }
        let phrase = match (out.as_slice(), short.as_slice()) {
            ([], _) => String::new(),
            ([Expected::Element(_)], [one]) => format!("'{one}'"),
            ([Expected::Wildcard(_)], [one]) => one.clone(),
            _ if short.len() > 12 => format!(
                "one of {{{}, ... ({} more)}}",
                short[..10].join(", "),
                short.len() - 10
            ),
            _ => format!("one of {{{}}}", short.join(", ")),
        };
        (full, phrase, m.can_end(&self.frames[p].state))
    }

    pub(super) fn content_error(
        &mut self,
        sh: &mut Shared<'s>,
        c: ComplexTypeId,
        p: usize,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let (expected, phrase, can_end) = self.expected_names(sh, c, p);
        let plabel = self.frame_label(sh, p);
        let message = if expected.is_empty() {
            format!("element '{label}' is not allowed here: the content of '{plabel}' must end")
        } else {
            let also = if can_end {
                " (or the end of the content)"
            } else {
                ""
            };
            format!("element '{label}' is not allowed here in '{plabel}': expected {phrase}{also}")
        };
        self.error_expecting("cvc-complex-type.2.4", message, expected, offset);
    }
}
