//! The lean pass: [`Validator::validate`]'s first try at a document in memory.
//!
//! Most documents a service validates are valid, and for them nothing but the verdict is
//! needed: no typed values, no error messages, no locations. This pass checks the document
//! against the schema keeping only what validity depends on, one small frame per open
//! element (its type, its place in the content model, its text when the type is simple).
//! The first thing it does not handle, or the first thing not valid, makes it give up, and
//! the general pass then validates the document from the start, to the same verdict, with
//! its messages.
//!
//! So it may only say "valid" when the general pass would; it may give up on anything. It
//! takes what the quick starts take, and as well an `xsi:type` with attributes beside it,
//! attributes matched by a wildcard, and a wildcard's element with a global declaration.
//! It gives up on: an ID or IDREF (whose values must be recorded), an identity
//! constraint, a value constraint on an element, `xsi:nil` and the other `xsi:`
//! attributes, a substitution the group's head blocks, a lax or skip subtree, and any
//! value a scan or plain parse cannot vouch for. Content models without counters are
//! walked by one position ([`PlainModel`]); those with counters or `xs:all` by the
//! general automaton. A start tag like its previous sibling's (same name, no attributes
//! or the same `xsi:type`, where the model repeats a particle) opens the way that one did
//! ([`LeanRepeat`]): an array's items cost a comparison each, not a look-up.

use xwire::TokenKind;

use crate::datatypes::is_plain_temporal;

use crate::validate::automaton::PlainModel;

use super::*;

/// The state of one open element.
#[derive(Debug, Default)]
pub(super) struct LeanFrame<'s> {
    /// The position in a plain content model.
    at: u32,
    /// The configurations of a content model that is not plain.
    state: MatchState,
    /// What the end checks: the value of the simple type, or the content model.
    end: LeanEnd<'s>,
    /// Length of the namespace binding stack before the element.
    bindings: usize,
    /// The text of an element of simple type or simple content.
    text: String,
    /// The last child start the plain content model took, to take again as it was.
    repeat: Option<LeanRepeat<'s>>,
}

/// A child start that a plain content model took at position `at` and stayed there (a
/// particle that may repeat): a start tag with the same name in the same namespace, and the
/// same attributes, at `at` again opens the same way. Arrays are runs of such siblings.
/// The child's frame gets `end`.
#[derive(Clone, Copy, Debug)]
struct LeanRepeat<'s> {
    qname: xwire::Id,
    ns: xwire::NsId,
    at: u32,
    /// The tag's one attribute, `xsi:type`, when it had one: its name and namespace as the
    /// reader interned them, and what the value made of the element (kept while the
    /// validator's `xsi:type` cache still says so); `None`: the tag had no attributes.
    xsi: Option<(xwire::Id, xwire::NsId, LeanXsi<'s>)>,
    end: LeanEnd<'s>,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) enum LeanEnd<'s> {
    /// The value of this type, from the text (simple type or simple content).
    Value(SimpleTypeId),
    /// The end of this content model (element-only content).
    Model(LeanModel<'s>),
    /// As `Model`, for mixed content (text allowed, not kept).
    MixedModel(LeanModel<'s>),
    /// Nothing: any text is valid (a `string` without facets, simple content or not).
    AnyText,
    /// Nothing: empty content.
    #[default]
    Nothing,
}

/// What the lean pass made of an `xsi:type` on an element of one declaration, kept while
/// entry `entry` of the validator's `xsi:type` cache still says the same value names `ty`
/// (what follows depends on the declaration and the type alone).
#[derive(Clone, Copy, Debug)]
pub(super) struct LeanXsi<'s> {
    entry: usize,
    ty: TypeId,
    opens_plainly: bool,
    end: LeanEnd<'s>,
}

/// How the lean pass opens an element of one declaration, when the start tag has no
/// `xsi:type`: decided once per validator from the declaration's [`ElementPlan`].
#[derive(Clone, Copy, Debug)]
pub(super) enum LeanDecl<'s> {
    /// No plan, a value constraint, or a type the lean pass does not take: give up.
    GiveUp,
    /// A type without attribute uses: a tag without attributes of its own opens it as it is.
    Plain(TypeId, LeanEnd<'s>),
    /// A type with attribute uses: the attributes are checked first, even when there are
    /// none (a use may be required).
    Attributed(TypeId, LeanEnd<'s>),
}

/// A content model, as the lean pass walks it.
#[derive(Clone, Copy, Debug)]
pub(super) enum LeanModel<'s> {
    /// No counters, not `xs:all`: the frame's `at` is the whole state.
    Plain(PlainModel<'s>),
    /// Counters or `xs:all`: the frame's `state`.
    Full(&'s ContentModel),
}

/// What a child element matched in its parent's content model.
enum LeanChild<'s> {
    /// An element particle (or a member of its substitution group) allowed as it is.
    Element(ElementId),
    /// A wildcard.
    Wildcard(&'s Wildcard),
}

impl<'s> LeanFrame<'s> {
    /// The move of the frame's content model for child `name` (the schema's name, if any)
    /// in namespace `ns`, and whether the move left a plain model where it was (the same
    /// start may follow: see [`LeanRepeat`]). `None`: not element content, no match, or a
    /// match the general pass must judge (an abstract or blocked declaration, several
    /// particles in a plain model).
    #[inline]
    fn child(&mut self, name: Option<NameId>, ns: NsId) -> Option<(LeanChild<'s>, bool)> {
        let (LeanEnd::Model(m) | LeanEnd::MixedModel(m)) = self.end else {
            return None;
        };
        match m {
            LeanModel::Plain(m) => {
                let (child, target) = match name.and_then(|n| m.step(self.at, n)) {
                    Some((e, target)) => (LeanChild::Element(e), target),
                    None => {
                        let (wc, target) = m.wildcard(self.at, name, ns)?;
                        (LeanChild::Wildcard(wc), target)
                    }
                };
                let stays = target == self.at;
                self.at = target;
                Some((child, stays))
            }
            LeanModel::Full(m) => match m.step(&mut self.state, name, ns)? {
                Matched::Element {
                    decl,
                    status: MemberStatus::Ok,
                    ..
                } => Some((LeanChild::Element(decl), false)),
                Matched::Element { .. } => None,
                Matched::Wildcard(wc) => Some((LeanChild::Wildcard(wc), false)),
            },
        }
    }

    /// Remembers child start `tag`, which left a plain model where it was and opened to
    /// `end`, when its attributes are none (`xsi` `None`) or only that `xsi:type`.
    #[inline]
    fn remember(
        &mut self,
        tag: &StartTag<'_>,
        xsi: Option<(xwire::Id, xwire::NsId, LeanXsi<'s>)>,
        end: LeanEnd<'s>,
    ) {
        if tag.attributes().len() == usize::from(xsi.is_some()) {
            self.repeat = Some(LeanRepeat {
                qname: tag.name_id(),
                ns: tag.ns(),
                at: self.at,
                xsi,
                end,
            });
        }
    }

    /// Character data in the element of this frame: kept for a value, allowed as it is by
    /// mixed content or a type any text fits, else only white space. `None`: give up.
    ///
    /// A value's first text is kept in `pending` when it can be borrowed from the document
    /// (`in_input`), not copied; more text joins it in the frame. (An element with a value
    /// has no child element, so one `pending` serves the innermost frame.)
    #[inline(always)]
    fn take_text<'t, 'd>(
        &mut self,
        pending: &mut Option<&'d str>,
        in_input: impl FnOnce() -> Option<&'d str>,
        text: impl FnOnce() -> std::borrow::Cow<'t, str>,
        whitespace: impl FnOnce() -> bool,
    ) -> Option<()> {
        if let LeanEnd::Value(_) = self.end {
            match in_input() {
                Some(s) if pending.is_none() && self.text.is_empty() => *pending = Some(s),
                _ => {
                    if let Some(p) = pending.take() {
                        self.text.push_str(p);
                    }
                    self.text.push_str(&text());
                }
            }
        } else if !matches!(self.end, LeanEnd::AnyText | LeanEnd::MixedModel(_)) && !whitespace() {
            return None;
        }
        Some(())
    }
}

/// Fills frame `f` for an element whose end checks `end`.
#[inline(always)]
fn lean_open<'s>(f: &mut LeanFrame<'s>, end: LeanEnd<'s>) {
    f.text.clear();
    f.end = end;
    f.at = PlainModel::START;
    f.repeat = None;
    if let LeanEnd::Model(LeanModel::Full(m)) | LeanEnd::MixedModel(LeanModel::Full(m)) = end {
        m.start(&mut f.state);
    }
}

impl<'s> Validator<'s> {
    /// `Ok` when the lean pass proves `bytes` a valid document; else (invalid, or it could
    /// not tell) how many events it got through. Each of those (all of them, when it proves
    /// the document valid) is handed to `observe`, if any. The validator is left as after
    /// [`Validator::reset`] and a document.
    pub(crate) fn prove_valid<F: FnMut(&Event<'_>)>(
        &mut self,
        bytes: &[u8],
        observe: &mut Option<F>,
    ) -> Result<(), usize> {
        if self.plans.elements.is_empty()
            || self.plans.fallback.is_some()
            || self.options.schema_location_hints
        {
            return Err(0);
        }
        if self.lean_decls.len() != self.schema.elements.len() {
            self.lean_decls = self.make_lean_decls();
        }
        let mut frames = std::mem::take(&mut self.lean_frames);
        let mut observed = 0;
        let valid = self.read_in_slot(bytes, |v, reader| {
            v.reset(reader, Pass::Lean);
            v.lean_pass(reader, bytes, &mut frames, observe, &mut observed)
        });
        self.lean_frames = frames;
        valid.ok_or(observed)
    }

    /// The [`LeanDecl`] of every element declaration.
    fn make_lean_decls(&self) -> Vec<LeanDecl<'s>> {
        let schema = self.schema;
        (0..schema.elements.len())
            .map(|i| {
                if schema.elements[i].value_constraint.is_some() {
                    return LeanDecl::GiveUp;
                }
                let plan = |plans: &[Option<ElementPlan>]| plans.get(i).copied().flatten();
                let (plan, attributed) = match plan(&self.plans.elements) {
                    Some(p) => (p, false),
                    None => match plan(&self.plans.attributed) {
                        Some(p) => (p, true),
                        None => return LeanDecl::GiveUp,
                    },
                };
                match (self.lean_end_of(plan.ty), attributed) {
                    (None, _) => LeanDecl::GiveUp,
                    (Some(end), false) => LeanDecl::Plain(plan.ty, end),
                    (Some(end), true) => LeanDecl::Attributed(plan.ty, end),
                }
            })
            .collect()
    }

    /// The pass itself, over `doc` (the reader's input): `None` as soon as it gives up.
    #[inline(always)]
    fn lean_pass<'d, F: FnMut(&Event<'_>)>(
        &mut self,
        reader: &mut Reader<'d>,
        doc: &[u8],
        frames: &mut Vec<LeanFrame<'s>>,
        observe: &mut Option<F>,
        observed: &mut usize,
    ) -> Option<()> {
        let mut d = 0usize;
        let mut saw_root = false;
        // The text of the innermost element with a value, borrowed from the document.
        let mut pending: Option<&'d str> = None;
        loop {
            // The end tag needs no view of the token (only the observer may).
            let kind = reader.next_token().ok()?;
            if kind == TokenKind::End {
                d -= 1;
                self.lean_end(&frames[d], &mut pending, doc)?;
                if frames[d].bindings != self.bindings.len() {
                    self.pop_bindings(frames[d].bindings);
                }
                if let Some(f) = observe {
                    f(&reader.current());
                }
                *observed += 1;
                continue;
            }
            let ev = reader.current();
            // By reference: a payload moved out of `ev` is copied to another stack slot, and
            // that copy stalls on the stores that just built `ev`.
            match &ev {
                Event::Start(tag) => {
                    if d == 0 && std::mem::replace(&mut saw_root, true) {
                        return None;
                    }
                    if frames.len() <= d {
                        frames.resize_with(d + 1, LeanFrame::default);
                    }
                    let (parents, rest) = frames.split_at_mut(d);
                    self.lean_start(tag, parents.last_mut(), &mut rest[0], doc)?;
                    d += 1;
                }
                Event::Text(t) if d > 0 => {
                    let in_input = || reader.text_in_input();
                    frames[d - 1].take_text(
                        &mut pending,
                        in_input,
                        || t.unescape(),
                        || t.is_whitespace(),
                    )?;
                }
                Event::CData(c) if d > 0 => {
                    let s = c.text();
                    let whitespace = || xwire::chars::is_all_whitespace(s.as_bytes());
                    frames[d - 1].take_text(&mut pending, || None, || s.clone(), whitespace)?;
                }
                Event::Eof => return saw_root.then_some(()),
                _ => {}
            }
            if let Some(f) = observe {
                f(&ev);
            }
            *observed += 1;
        }
    }

    /// The start of `tag` under `parent` (`None` for the root), into frame `f`; `doc` is the
    /// document (for the values of its attributes).
    #[inline]
    fn lean_start(
        &mut self,
        tag: &StartTag<'_>,
        mut parent: Option<&mut LeanFrame<'s>>,
        f: &mut LeanFrame<'s>,
        doc: &[u8],
    ) -> Option<()> {
        let schema = self.schema;
        f.bindings = self.bindings.len();
        if let Some(p) = parent.as_deref() {
            if let Some(r) = &p.repeat {
                if r.at == p.at && self.repeats(r, tag) {
                    lean_open(f, r.end);
                    return Some(());
                }
            }
        }
        // Namespace declarations first (an `xsi:type` value may use them), and `xsi:type`.
        let mut xsi_type = None;
        let mut others = 0usize;
        if tag.attributes().len() != 0 {
            for (i, a) in tag.attributes().enumerate() {
                if a.is_namespace_decl() {
                    self.push_binding(&a);
                    continue;
                }
                let ans = self.map_ns(a.ns(), || a.namespace_uri());
                if ans != NsId::UNKNOWN && Some(ans) == self.xsi {
                    let n = self.map_name(a.name_id(), a.ns(), ans, || a.local_name());
                    // `xsi:nil` and the location hints go the general way.
                    if n.is_none() || n != self.xsi_names.0 {
                        return None;
                    }
                    xsi_type = Some(i);
                } else {
                    others += 1;
                }
            }
        }
        let ns = self.map_ns(tag.ns(), || tag.namespace_uri());
        let name = self.map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        // The declaration, from the parent's content model (or the global one); `None` for
        // a lax wildcard's element that has none.
        // Whether the parent's plain content model stays where it was (the start may repeat).
        let mut stays = false;
        let decl = match parent.as_deref_mut() {
            None => Some(schema.global_element(name?)?),
            Some(p) => {
                let child;
                (child, stays) = p.child(name, ns)?;
                match child {
                    LeanChild::Element(e) => Some(e),
                    LeanChild::Wildcard(wc) => {
                        let global = name.and_then(|n| schema.global_element(n));
                        if wc.process == ProcessContents::Skip
                            || (wc.process == ProcessContents::Strict && global.is_none())
                        {
                            return None;
                        }
                        global
                    }
                }
            }
        };
        // The type, and the check of the attributes.
        let end = match (xsi_type, decl) {
            (None, None) => return None, // assessed laxly
            // The common case: no attributes to check.
            (None, Some(e)) => {
                let end = match *self.lean_decls.get(e.index())? {
                    LeanDecl::Plain(_, end) if others == 0 => end,
                    LeanDecl::Plain(ty, end) | LeanDecl::Attributed(ty, end) => {
                        self.lean_attributes(tag, ty, doc)?;
                        end
                    }
                    LeanDecl::GiveUp => return None,
                };
                if let Some(p) = parent.filter(|_| stays) {
                    p.remember(tag, None, end);
                }
                lean_open(f, end);
                return Some(());
            }
            // Rare in most documents, but SOAP-encoded arrays type every item so: inline.
            (Some(i), decl) => {
                let a = tag.attributes().nth(i)?;
                let value = a.value();
                // Slot 0: elements with no declaration (a lax wildcard's).
                let slot = decl.map_or(0, |e| e.index() + 1);
                let known = self
                    .lean_xsi
                    .get(slot)
                    .copied()
                    .flatten()
                    .filter(|m| self.xsi_type_cached(m.entry, value, m.ty));
                let m = match known {
                    Some(m) => m,
                    None => {
                        let m = self.lean_xsi_of(decl, value)?;
                        if self.lean_xsi.len() <= slot {
                            self.lean_xsi.resize(slot + 1, None);
                        }
                        self.lean_xsi[slot] = Some(m);
                        m
                    }
                };
                if others != 0 || !m.opens_plainly {
                    self.lean_attributes(tag, m.ty, doc)?;
                }
                if let Some(p) = parent.filter(|_| stays) {
                    p.remember(tag, Some((a.name_id(), a.ns(), m)), m.end);
                }
                m.end
            }
        };
        lean_open(f, end);
        Some(())
    }

    /// Whether `tag` is a start that `r` took: the same name, in the same namespace, and
    /// the same attributes (none, or the same `xsi:type` meaning the same type).
    #[inline(always)]
    fn repeats(&self, r: &LeanRepeat<'s>, tag: &StartTag<'_>) -> bool {
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
                    && self.xsi_type_cached(m.entry, a.value(), m.ty)
            }
            _ => false,
        }
    }

    /// What `xsi:type="value" on an element of `decl` makes of it, when the lean pass can
    /// read it; [`LeanXsi::entry`] is `usize::MAX` when the cache of types was full.
    fn lean_xsi_of(&mut self, decl: Option<ElementId>, value: &str) -> Option<LeanXsi<'s>> {
        let schema = self.schema;
        let ty = self.xsi_type_fast(value)??;
        if decl.is_some_and(|e| !self.xsi_type_plainly(e, ty))
            || matches!(ty, TypeId::Complex(c) if schema.complex_type(c).is_abstract)
        {
            return None;
        }
        Some(LeanXsi {
            entry: self.xsi_type_entry().unwrap_or(usize::MAX),
            ty,
            opens_plainly: opens_plainly(schema, ty),
            end: self.lean_end_of(ty)?,
        })
    }

    /// What the end of an element of type `ty` checks; `None` for a type the lean pass does
    /// not take.
    fn lean_end_of(&self, ty: TypeId) -> Option<LeanEnd<'s>> {
        let schema = self.schema;
        let value = |s: SimpleTypeId| match self.plan(s) {
            ValuePlan {
                check: Check::Builtin(Builtin::String | Builtin::AnySimpleType),
                id: IdKind::None,
            } => LeanEnd::AnyText,
            _ => LeanEnd::Value(s),
        };
        Some(match ty {
            TypeId::Simple(s) => value(s),
            TypeId::Complex(c) => match &schema.complex_type(c).content {
                ContentType::Simple(s) => value(*s),
                ContentType::Empty => LeanEnd::Nothing,
                ContentType::Elements { mixed, .. } => {
                    let m = model_of(schema, &None, c)?;
                    let m = match m.plain() {
                        Some(plain) => LeanModel::Plain(plain),
                        None => LeanModel::Full(m),
                    };
                    match mixed {
                        true => LeanEnd::MixedModel(m),
                        false => LeanEnd::Model(m),
                    }
                }
            },
        })
    }

    /// The end of the element of frame `f`, whose value's text is `pending` (a slice of
    /// `doc`) if any, else the frame's.
    #[inline]
    fn lean_end(&self, f: &LeanFrame, pending: &mut Option<&str>, doc: &[u8]) -> Option<()> {
        match f.end {
            LeanEnd::Value(s) => self.lean_value(s, pending.take().unwrap_or(&f.text), doc),
            LeanEnd::Model(m) | LeanEnd::MixedModel(m) => match m {
                LeanModel::Plain(m) => m.can_end(f.at),
                // Dropped configurations make the general pass report an error.
                LeanModel::Full(m) => !f.state.overflow && m.can_end(&f.state),
            }
            .then_some(()),
            LeanEnd::AnyText | LeanEnd::Nothing => Some(()),
        }
    }

    /// Whether `lexical` is a valid value of `ty` (not of an ID type): by its value plan's
    /// scan or plain parse, else the general way. No value is kept. A number's scan is
    /// inline (numeric data is mostly numbers); the rest is out of line, one copy for the
    /// ends of elements and for attributes (a small document reads each line of code it
    /// runs from a cold cache).
    ///
    /// `lexical` may be a slice of `doc`, the document, whose bytes before it an integer's
    /// scan reads ([`Check::scan_in`]).
    #[inline(always)]
    fn lean_value(&self, ty: SimpleTypeId, lexical: &str, doc: &[u8]) -> Option<()> {
        let plan = self.plan(ty);
        if let check @ (Check::Number(_) | Check::IntRange { .. }) = plan.check {
            if plan.id == IdKind::None && check.scan_in(lexical, doc).is_some() {
                return Some(());
            }
        }
        self.lean_value_other(ty, lexical)
    }

    /// [`Validator::lean_value`] but for a number its scan takes. (It looks the plan up
    /// again: taking the caller's as an argument cost the inlined caller 0.7% on po-64k.)
    #[inline(never)]
    fn lean_value_other(&self, ty: SimpleTypeId, lexical: &str) -> Option<()> {
        let plan = self.plan(ty);
        if plan.id != IdKind::None {
            return None;
        }
        let quick = match plan.check {
            // (A number the scan did not take goes the general way.)
            Check::Number(_) | Check::IntRange { .. } => false,
            // The common dates and times by a check at fixed positions, no value built.
            Check::Plain(b) => is_plain_temporal(b, lexical) || parse_plain(b, lexical).is_some(),
            check => self.text_is_value(check, lexical),
        };
        // What the quick checks cannot vouch for, the general check of the value.
        quick
            .then_some(())
            .or_else(|| self.lean_value_general(ty, lexical))
    }

    #[inline(never)]
    fn lean_value_general(&self, ty: SimpleTypeId, lexical: &str) -> Option<()> {
        let v = self.validate_simple(ty, lexical).ok()?;
        self.recycle(Some(v));
        Some(())
    }

    /// The attributes of `tag` (not `xmlns` nor `xsi:type`) against type `ty`: each valid
    /// for a use of the type or allowed by its wildcard, and no required use missing. `None`
    /// for anything else, and for a value of an ID type. The values are read in `doc`, the
    /// document, where they are slices of it.
    fn lean_attributes(&mut self, tag: &StartTag<'_>, ty: TypeId, doc: &[u8]) -> Option<()> {
        let schema = self.schema;
        // A simple type allows `xmlns` and `xsi:type` only (the caller's count).
        let TypeId::Complex(c) = ty else { return None };
        let ct = schema.complex_type(c);
        let uses = ct.attribute_uses.as_slice();
        if uses.len() > 64 {
            return None;
        }
        let mut seen = 0u64;
        for a in tag.attributes() {
            if a.is_namespace_decl() {
                continue;
            }
            let ans = self.map_ns(a.ns(), || a.namespace_uri());
            if ans != NsId::UNKNOWN && Some(ans) == self.xsi {
                continue; // the `xsi:type` the caller found
            }
            let n = self.map_name(a.name_id(), a.ns(), ans, || a.local_name());
            let (decl, fixed) = match n.and_then(|n| self.find_use(c, n)) {
                Some(ui) => {
                    seen |= 1 << ui;
                    let u = &uses[ui];
                    (
                        u.decl,
                        u.effective_value_constraint(schema).filter(|vc| vc.fixed),
                    )
                }
                None => {
                    let w = ct.attribute_wildcard.as_ref().filter(|w| w.allows(ans))?;
                    match (w.process, n.and_then(|n| schema.global_attribute(n))) {
                        (ProcessContents::Skip, _) | (ProcessContents::Lax, None) => continue,
                        (_, Some(g)) => {
                            let vc = schema.attribute(g).value_constraint.as_ref();
                            (g, vc.filter(|vc| vc.fixed))
                        }
                        (ProcessContents::Strict, None) => return None,
                    }
                }
            };
            let ty = schema.attribute(decl).type_def;
            // The usual case: the fixed value as the schema writes it (valid, as the schema
            // was checked), which is then the same value.
            let as_written = |vc: &ValueConstraint| {
                vc.value.is_some() && a.value() == vc.lexical && self.plan(ty).check.context_free()
            };
            if fixed.is_some_and(as_written) {
                continue;
            }
            self.lean_value(ty, a.value(), doc)?;
            if let Some(vc) = fixed {
                // Rare: the value built again, to compare.
                let v = self.validate_simple(ty, a.value()).ok()?;
                let same = self.fixed_matches(ty, vc, &v);
                self.recycle(Some(v));
                same.then_some(())?;
            }
        }
        let missing = uses
            .iter()
            .enumerate()
            .any(|(ui, u)| u.required && seen & (1 << ui) == 0);
        (!missing).then_some(())
    }
}
