//! The full start of an element: what governs the element (its parent's content model, or a
//! global declaration), its type (declared, or named by `xsi:type`), `xsi:nil`, its
//! attributes, its frame, and the identity constraints it starts or takes part in.

use xwire::StartTag;

use super::messages::{Label, RawName};
use super::{Frame, General, Mode, Opening, Stepped};
use crate::model::{
    ComplexTypeId, ContentType, ElementId, NameId, NamespaceId, ProcessContents, TypeId,
};
use crate::validate::automaton::{complex_type_label, Matched, MemberStatus};
use crate::validate::identity::key_part;
use crate::validate::plans::{self, keeps_text};
use crate::validate::shared::{model_of, Shared};

impl<'s> General {
    /// Drops the attribute information of the previous start (keeping string allocations).
    #[inline]
    pub(super) fn clear_attr_infos(&mut self, sh: &mut Shared<'s>) {
        while let Some(info) = self.attr_infos.pop() {
            sh.recycle(info.value);
        }
    }

    /// Fills the frame of the element a start tag opens (at the depth, which it then goes
    /// past) and starts its content model. Always inlined: out of line, the call and the
    /// moves of its arguments cost a planned start a fifth more.
    #[inline(always)]
    pub(super) fn open_frame(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
        bindings: usize,
        o: Opening,
    ) {
        let d = self.depth;
        let model = match o.ty {
            TypeId::Complex(c) if o.mode == Mode::Typed => model_of(sh.schema, &sh.plans, c),
            _ => None,
        };
        if self.frames.len() <= d {
            self.frames.resize_with(d + 1, Frame::default);
        }
        let f = &mut self.frames[d];
        f.mode = o.mode;
        f.decl = o.decl;
        f.ty = o.ty;
        f.nil = o.nil;
        f.text.clear();
        f.collect_text = o.collect_text;
        f.had_child = false;
        f.content_failed = false;
        f.offset = offset;
        f.name = o.name;
        f.raw.clear();
        if o.name.is_none() {
            f.raw.push_str(tag.name());
        }
        f.bindings = bindings;
        f.planned_end = o.planned_end;
        if let Some(m) = model {
            m.start(&mut f.state);
        }
        self.depth += 1;
    }

    /// The full start of an element, in its steps: the namespace declarations and `xsi:`
    /// attributes; what governs the element (the parent's content model, or a global
    /// declaration); its type; `xsi:nil`; its attributes; its frame; its identity
    /// constraints. The errors come in that order.
    pub(super) fn start(&mut self, sh: &mut Shared<'s>, tag: &StartTag<'_>, offset: u64) {
        let d = self.depth;
        self.saw_root = true;
        self.clear_attr_infos(sh);
        let bindings = sh.bindings();
        self.scan_attributes(sh, tag);
        let ns = sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = sh.map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        let label = Label {
            schema: sh.schema,
            name,
            raw: RawName::Tag(tag),
        };
        let governing = self.governing(sh, d, name, ns, &label, offset);
        let (mode, ty) = self.type_of(sh, tag, governing, &label, offset);
        let decl = governing.decl;
        let nil = mode == Mode::Typed && self.xsi_nil(sh, tag, decl, &label, offset);
        self.start_attributes(sh, tag, mode, ty, &label, offset);
        let started = Started {
            decl,
            mode,
            ty,
            nil,
            name,
        };
        self.open_started(sh, tag, offset, bindings, started);
        self.start_identity(sh, tag, d, ns, decl, mode, offset);
    }

    /// The first pass over the attributes of `tag`: its namespace declarations put in scope,
    /// and where `xsi:type` and `xsi:nil` are.
    fn scan_attributes(&mut self, sh: &mut Shared<'s>, tag: &StartTag<'_>) {
        self.xsi_type_at = None;
        self.xsi_nil_at = None;
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                sh.push_binding(&a);
            } else if let Some(xsi) = sh.xsi.ns {
                let ans = sh.map_ns(a.ns(), || a.namespace_uri());
                if ans != xsi {
                    continue;
                }
                // By schema name (no string compare); by local name for a schema that does
                // not name them.
                let (xsi_type, xsi_nil) = (sh.xsi.type_name, sh.xsi.nil_name);
                let n = sh.map_name(a.name_id(), a.ns(), ans, || a.local_name());
                let local = if n.is_some() { "" } else { a.local_name() };
                if n.is_some() && n == xsi_type || local == "type" {
                    self.xsi_type_at = Some(i);
                } else if n.is_some() && n == xsi_nil || local == "nil" {
                    self.xsi_nil_at = Some(i);
                }
            }
        }
    }

    /// What governs the element `label` (schema name `name`, namespace `ns`) opening at depth
    /// `d`: a global declaration for the root, else what its parent's content allows.
    fn governing(
        &mut self,
        sh: &mut Shared<'s>,
        d: usize,
        name: Option<NameId>,
        ns: NamespaceId,
        label: &Label<'_>,
        offset: u64,
    ) -> Governing {
        let schema = sh.schema;
        let mut g = Governing {
            decl: None,
            mode: Mode::Typed,
            strict: false,
        };
        if self.stopped {
            g.mode = Mode::Skip;
        } else if d == 0 {
            match name.and_then(|n| schema.global_element(n)) {
                Some(e) => g.decl = Some(e),
                None => {
                    if self.xsi_type_at.is_some() {
                        g.mode = Mode::Lax;
                    } else {
                        self.error(
                            "cvc-elt.1",
                            format!("no declaration found for the root element '{label}'"),
                            offset,
                        );
                        g.mode = Mode::Skip;
                    }
                }
            }
        } else {
            g = self.governing_child(sh, d - 1, name, ns, label, offset);
        }
        g
    }

    /// [`General::governing`] below the root: what the content of the element at depth `p`
    /// makes of its child.
    fn governing_child(
        &mut self,
        sh: &mut Shared<'s>,
        p: usize,
        name: Option<NameId>,
        ns: NamespaceId,
        label: &Label<'_>,
        offset: u64,
    ) -> Governing {
        let schema = sh.schema;
        let mut decl = None;
        let mut mode = Mode::Typed;
        let mut strict = false;
        self.frames[p].had_child = true;
        let (pmode, pty, pnil) = {
            let f = &self.frames[p];
            (f.mode, f.ty, f.nil)
        };
        match pmode {
            Mode::Skip => mode = Mode::Skip,
            Mode::Lax => match name.and_then(|n| schema.global_element(n)) {
                Some(e) => decl = Some(e),
                None => mode = Mode::Lax,
            },
            Mode::Typed if pnil => {
                self.refuse_child(
                    sh,
                    p,
                    "cvc-elt.3.2.1",
                    "is nil (xsi:nil=\"true\") and may not contain",
                    label,
                    offset,
                );
                mode = Mode::Skip;
            }
            Mode::Typed => match pty {
                TypeId::Simple(_) => {
                    self.refuse_child(
                        sh,
                        p,
                        "cvc-type.3.1.2",
                        "has a simple type and may not contain",
                        label,
                        offset,
                    );
                    mode = Mode::Skip;
                }
                TypeId::Complex(c) => match &schema.complex_type(c).content {
                    ContentType::Empty => {
                        self.refuse_child(
                            sh,
                            p,
                            "cvc-complex-type.2.1",
                            "must be empty (its type has empty content) but contains",
                            label,
                            offset,
                        );
                        mode = Mode::Skip;
                    }
                    ContentType::Simple(_) => {
                        self.refuse_child(
                            sh,
                            p,
                            "cvc-complex-type.2.2",
                            "has simple content and may not contain",
                            label,
                            offset,
                        );
                        mode = Mode::Skip;
                    }
                    ContentType::Elements { .. } => match self.step_child(sh, c, p, name, ns) {
                        Some(Stepped::Element(e, status)) => {
                            decl = Some(e);
                            if status == MemberStatus::Blocked {
                                self.error(
                                    "cvc-elt.4.3",
                                    format!("element '{label}' may not substitute for the element expected here: the substitution is blocked"),
                                    offset,
                                );
                            }
                        }
                        Some(Stepped::Wildcard(process)) => match process {
                            ProcessContents::Skip => mode = Mode::Skip,
                            ProcessContents::Lax => {
                                decl = name.and_then(|n| schema.global_element(n));
                                if decl.is_none() {
                                    mode = Mode::Lax;
                                }
                            }
                            ProcessContents::Strict => {
                                decl = name.and_then(|n| schema.global_element(n));
                                if decl.is_none() {
                                    mode = Mode::Lax;
                                    strict = true;
                                }
                            }
                        },
                        None => {
                            self.content_error(sh, c, p, label, offset);
                            self.frames[p].content_failed = true;
                            mode = Mode::Skip;
                        }
                    },
                },
            },
        }
        Governing { decl, mode, strict }
    }

    /// The element's type, `anyType` when it has none, and how it is assessed: the declared
    /// type, then the one `xsi:type` names; the declaration's and the type's abstractness.
    fn type_of(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        g: Governing,
        label: &Label<'_>,
        offset: u64,
    ) -> (Mode, TypeId) {
        let schema = sh.schema;
        let (decl, mut mode) = (g.decl, g.mode);
        let ed = decl.map(|e| schema.element(e));
        let mut ty = ed.map(|ed| ed.type_def);
        if let Some(ed) = ed {
            if ed.is_abstract {
                self.error(
                    "cvc-elt.2",
                    format!("element '{label}' is abstract and may not appear in a document"),
                    offset,
                );
            }
        }
        if mode != Mode::Skip {
            if let Some(xt) = self.xsi_type_at.and_then(|i| tag.attributes().nth(i)) {
                if let Some(t) = self.xsi_type(sh, xt.value(), decl, ty, label, offset) {
                    ty = Some(t);
                    mode = Mode::Typed;
                }
            }
        }
        if g.strict && ty.is_none() {
            self.error(
                "cvc-complex-type.2.4.c",
                format!(
                    "no declaration found for element '{label}', which a strict wildcard requires"
                ),
                offset,
            );
            mode = Mode::Skip;
        }
        if mode == Mode::Typed && ty.is_none() {
            mode = Mode::Lax;
        }
        let ty = ty.unwrap_or(TypeId::ANY_TYPE);
        if mode == Mode::Typed {
            if let TypeId::Complex(c) = ty {
                if schema.complex_type(c).is_abstract {
                    self.error(
                        "cvc-type.2",
                        format!(
                            "element '{label}' has the abstract {}; use xsi:type to name a concrete type derived from it",
                            complex_type_label(schema, c)
                        ),
                        offset,
                    );
                }
            }
        }
        (mode, ty)
    }

    /// The attributes of an element assessed as `mode` against type `ty`, and its location
    /// hints when they are asked for.
    fn start_attributes(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        mode: Mode,
        ty: TypeId,
        label: &Label<'_>,
        offset: u64,
    ) {
        if mode == Mode::Typed {
            self.attributes(sh, tag, ty, label, offset);
        } else if mode == Mode::Lax {
            self.lax_attributes(sh, tag, offset);
        }
        if sh.options.schema_location_hints && mode != Mode::Skip {
            self.collect_hints(tag);
        }
    }

    /// The frame of the element a full start decided, `bindings` the length of the binding
    /// stack before its tag.
    fn open_started(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        offset: u64,
        bindings: usize,
        s: Started,
    ) {
        let schema = sh.schema;
        let assessed = s.mode == Mode::Typed && !s.nil;
        let vc = s
            .decl
            .is_some_and(|e| schema.element(e).value_constraint.is_some());
        let collect_text = assessed && keeps_text(schema, s.ty, vc);
        // The end may still be the plan alone (the items of a SOAP array, typed by xsi:type).
        let planned_end = assessed
            .then(|| plans::planned_end(&sh.plans, s.ty, vc))
            .flatten();
        self.open_frame(
            sh,
            tag,
            offset,
            bindings,
            Opening {
                mode: s.mode,
                decl: s.decl,
                ty: s.ty,
                nil: s.nil,
                collect_text,
                name: s.name,
                planned_end,
            },
        );
    }

    /// The identity constraints of the element opened at depth `d` (declaration `decl`,
    /// assessed as `mode`) start, and those in scope see its attributes.
    #[allow(clippy::too_many_arguments)]
    fn start_identity(
        &mut self,
        sh: &mut Shared<'s>,
        tag: &StartTag<'_>,
        d: usize,
        ns: NamespaceId,
        decl: Option<ElementId>,
        mode: Mode,
        offset: u64,
    ) {
        let schema = sh.schema;
        let ics: &[crate::model::IdentityConstraintId] = match decl {
            Some(e) if mode == Mode::Typed => &schema.element(e).identity_constraints,
            _ => &[],
        };
        if !self.identity.active() && ics.is_empty() {
            return;
        }
        self.attr_keys.clear();
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                continue;
            }
            let ans = sh.map_ns(a.ns(), || a.namespace_uri());
            let typed = self
                .attr_infos
                .iter()
                .find(|info| info.index == Some(i))
                .and_then(|info| info.value.as_ref());
            let key = match typed {
                Some(v) => key_part(&v.value),
                None => (0, a.value().to_string()),
            };
            self.attr_keys
                .push(((ans, a.local_name().to_string()), key));
        }
        // Attributes added from a default or fixed value take part as well (3.11.4: fields
        // evaluate over the post-validation infoset).
        for info in self.attr_infos.iter().filter(|info| info.index.is_none()) {
            if let (Some(decl), Some(v)) = (info.decl, &info.value) {
                let name = schema.attribute(decl).name;
                let (ans, local) = (schema.names.ns(name), schema.names.local(name));
                self.attr_keys
                    .push(((ans, local.to_string()), key_part(&v.value)));
            }
        }
        self.id_ics.clear();
        self.id_ics.extend(ics.iter().map(|ic| ic.index()));
        self.id_name.0 = ns;
        self.id_name.1.clear();
        self.id_name.1.push_str(tag.local_name());
        let mut errs = std::mem::take(&mut self.id_errors);
        self.identity.start(schema, d, &self.id_name, offset);
        self.identity
            .open(schema, d, &self.id_name, &self.id_ics, offset);
        for (name, key) in &self.attr_keys {
            self.identity
                .attribute(schema, name, key, offset, &mut errs);
        }
        self.id_errors = errs;
        self.flush_id_errors();
    }

    pub(super) fn step_child(
        &mut self,
        sh: &mut Shared<'s>,
        c: ComplexTypeId,
        p: usize,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<Stepped> {
        let m = model_of(sh.schema, &sh.plans, c)?;
        let f = &mut self.frames[p];
        match m.step(&mut f.state, name, ns)? {
            Matched::Element { decl, status, .. } => Some(Stepped::Element(decl, status)),
            Matched::Wildcard(w) => Some(Stepped::Wildcard(w.process)),
        }
    }
}

/// What governs an element ([`General::governing`]): its declaration, if any; how it is
/// assessed; whether a strict wildcard took it without a global declaration (an error unless
/// `xsi:type` names its type).
#[derive(Clone, Copy)]
struct Governing {
    decl: Option<ElementId>,
    mode: Mode,
    strict: bool,
}

/// What a full start decided of its element, for its frame ([`General::open_started`]).
struct Started {
    decl: Option<ElementId>,
    mode: Mode,
    ty: TypeId,
    nil: bool,
    name: Option<NameId>,
}
