//! The general engine: one pass over the reader's events that checks everything, says what is
//! wrong and where, and gives each event its validation information ([`Psvi`]): the
//! declaration and type of each element, the typed values of attributes and elements.
//!
//! Its state is its own ([`General`]): one frame per open element (mode, declaration, type,
//! content model state, text), the errors, the ID and identity-constraint tables, the
//! attribute information of the last start, the value of the last end; and a cache of the
//! attribute uses of types by name. What it shares with the lean engine (the reader's names,
//! the bindings in scope, the value checks) is [`Shared`].
//!
//! A start or end tries the ways an element plan decides first (`planned`), then the full
//! start (`start`) and end (`end`); the attributes (`attributes`), `xsi:type` and `xsi:nil`
//! (`xsi`) and the messages (`messages`) are apart.

use xwire::{Event, Reader};

use super::errors::ValidationError;
use super::identity::{IdError, Identity, KeyPart};
use super::ids::IdTable;
use super::shared::{Shared, UseIndex};
use super::typed_value::TypedValue;
use crate::datatypes::Builtin;
use crate::model::{
    ContentType, ElementId, NameId, NamespaceId, ProcessContents, SimpleTypeId, SimpleValue, TypeId,
};
use crate::validate::automaton::{MatchState, MemberStatus};

mod attributes;
mod end;
mod messages;
mod planned;
mod psvi;
mod start;
mod xsi;

pub use psvi::{AttributeInfo, Psvi};

/// How an element is assessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Not validated (a `skip` wildcard, or the subtree of an invalid element): only
    /// well-formedness.
    Skip,
    /// No declaration or type: children are assessed laxly (by global declarations).
    Lax,
    /// Validated against `Frame::ty`.
    Typed,
}

#[derive(Debug)]
struct Frame {
    mode: Mode,
    decl: Option<ElementId>,
    ty: TypeId,
    nil: bool,
    state: MatchState,
    /// Character data, kept when the content is simple or a value constraint applies.
    text: String,
    collect_text: bool,
    had_child: bool,
    /// A child did not fit the content model (reported): the end is not checked again.
    content_failed: bool,
    offset: u64,
    name: Option<NameId>,
    /// The name as written, kept only when the schema does not know it.
    raw: String,
    /// Length of the namespace binding stack before this element.
    bindings: usize,
    /// The simple type whose value plan is all the element's end needs, when it has text
    /// and no child ([`ElementPlan::planned_end`](crate::validate::plans::ElementPlan::planned_end); set by the general start too,
    /// for an element typed by `xsi:type`).
    planned_end: Option<SimpleTypeId>,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            mode: Mode::Skip,
            decl: None,
            ty: TypeId::ANY_TYPE,
            nil: false,
            state: MatchState::default(),
            text: String::new(),
            collect_text: false,
            had_child: false,
            content_failed: false,
            offset: 0,
            name: None,
            raw: String::new(),
            bindings: 0,
            planned_end: None,
        }
    }
}

/// What a start decided for its element's frame ([`General::open_frame`]).
struct Opening {
    mode: Mode,
    decl: Option<ElementId>,
    ty: TypeId,
    nil: bool,
    collect_text: bool,
    name: Option<NameId>,
    planned_end: Option<SimpleTypeId>,
}

/// What the event last validated was, for [`General::psvi`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Start,
    /// An end tag (the element's frame is the one just above the depth).
    End,
    Other,
}

/// What a child element matched, without borrowing the model.
enum Stepped {
    Element(ElementId, MemberStatus),
    Wildcard(ProcessContents),
}

/// The general engine's state, kept from document to document (its buffers keep their
/// allocations).
pub(crate) struct General {
    frames: Vec<Frame>,
    depth: usize,
    errors: Vec<ValidationError>,
    /// Errors before this index have their line and column.
    resolved: usize,
    stopped: bool,
    /// [`ValidationOptions::max_errors`](super::ValidationOptions::max_errors).
    max_errors: usize,
    ids: IdTable,
    identity: Identity,
    id_errors: Vec<IdError>,
    attr_infos: Vec<AttributeInfo>,
    attr_seen: Vec<bool>,
    /// Positions of `xsi:type` and `xsi:nil` in the current start tag.
    xsi_type_at: Option<usize>,
    xsi_nil_at: Option<usize>,
    /// The attribute uses of the types by name.
    uses: UseIndex,
    /// The attributes of a start tag with their keys, for identity constraints.
    attr_keys: Vec<((NamespaceId, String), KeyPart)>,
    /// The name of the element that starts, for identity constraints.
    id_name: (NamespaceId, String),
    /// The identity constraints it declares, as the engine numbers them.
    id_ics: Vec<usize>,
    /// The value of the element that just ended, when built during validation.
    end_value: Option<SimpleValue>,
    /// Otherwise, for a number checked by a scan: its built-in and type, for a
    /// [`TypedValue`] to build from the frame's text on demand (into `lazy_value`).
    end_lazy: Option<(Builtin, SimpleTypeId)>,
    lazy_value: std::cell::OnceCell<SimpleValue>,
    last: Last,
    hints: Vec<(String, String)>,
    /// Whether the general pass ran since the last [`General::clear`] (the lean
    /// pass fills none of what that empties).
    used: bool,
    saw_root: bool,
}

impl std::fmt::Debug for General {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("General")
            .field("depth", &self.depth)
            .field("errors", &self.errors)
            .finish_non_exhaustive()
    }
}

impl<'s> General {
    /// The engine, stopping after `max_errors` errors.
    pub(crate) fn new(max_errors: usize) -> General {
        General {
            frames: Vec::new(),
            depth: 0,
            errors: Vec::new(),
            resolved: 0,
            stopped: false,
            max_errors,
            ids: IdTable::default(),
            identity: Identity::default(),
            id_errors: Vec::new(),
            attr_infos: Vec::new(),
            attr_seen: Vec::new(),
            xsi_type_at: None,
            xsi_nil_at: None,
            uses: UseIndex::default(),
            attr_keys: Vec::new(),
            id_name: (NamespaceId::ABSENT, String::new()),
            id_ics: Vec::new(),
            end_value: None,
            end_lazy: None,
            lazy_value: std::cell::OnceCell::new(),
            last: Last::Other,
            hints: Vec::new(),
            used: false,
            saw_root: false,
        }
    }

    /// Starts a new document (the shared pieces were reset for it).
    pub(crate) fn reset(&mut self) {
        if self.used {
            self.clear();
        }
        self.used = true;
        self.depth = 0;
        self.resolved = 0;
        self.stopped = false;
        self.saw_root = false;
        self.last = Last::Other;
    }

    /// The pass over the document of `reader`, from its start (the engine and `sh` reset for
    /// it); the observer takes the events after the first `observed`.
    pub(crate) fn run<F: FnMut(&Event<'_>)>(
        &mut self,
        sh: &mut Shared<'s>,
        reader: &mut Reader<'_>,
        mut f: Option<F>,
        observed: usize,
    ) -> Result<(), Vec<ValidationError>> {
        let mut n = 0usize;
        while self.step(sh, reader).is_ok() {
            let ev = reader.current();
            if matches!(ev, Event::Eof) {
                break;
            }
            if let Some(f) = f.as_mut().filter(|_| n >= observed) {
                f(&ev);
            }
            n += 1;
            if self.stopped {
                break;
            }
        }
        self.resolve_locations(reader);
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(std::mem::take(&mut self.errors))
        }
    }

    /// The errors found so far, in the order of their offsets once
    /// [`General::resolve_locations`] has run.
    pub(crate) fn errors(&self) -> &[ValidationError] {
        &self.errors
    }

    /// How many elements are open.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The location hints of the document.
    pub(crate) fn hints(&self) -> &[(String, String)] {
        &self.hints
    }

    /// Reads the next event of `reader` and validates it (the general pass's step, for
    /// [`ValidatingReader::next`](crate::validate::ValidatingReader::next) and the validator's own loop). A reader's error is recorded
    /// as a validation error and returned.
    #[inline]
    pub(crate) fn step(
        &mut self,
        sh: &mut Shared<'s>,
        reader: &mut Reader<'_>,
    ) -> Result<(), xwire::Error> {
        self.resolve_locations(reader);
        if let Err(e) = reader.next_token() {
            self.not_well_formed(&e);
            return Err(e);
        }
        self.on_event(sh, &reader.current(), reader.offset());
        Ok(())
    }

    /// Records the reader's error as a validation error (once).
    #[cold]
    fn not_well_formed(&mut self, e: &xwire::Error) {
        let loc = e.location();
        let err = ValidationError {
            constraint: "well-formed",
            message: format!("the document is not well-formed: {}", e.kind()),
            expected: Vec::new(),
            line: loc.line,
            column: loc.column,
            offset: loc.offset,
            source: Some(e.clone()),
        };
        if !self.errors.iter().any(|x| x.constraint == "well-formed") {
            self.stopped = false;
            self.errors.push(err);
            self.stopped = true;
        }
    }

    /// Gives the new errors their line and column (in offset order, so the reader's line
    /// tracker moves forward) and keeps the list in document order.
    #[inline]
    pub(crate) fn resolve_locations(&mut self, reader: &mut Reader<'_>) {
        if self.resolved != self.errors.len() {
            self.resolve_new_locations(reader);
        }
    }

    #[cold]
    fn resolve_new_locations(&mut self, reader: &mut Reader<'_>) {
        let new = &mut self.errors[self.resolved..];
        new.sort_by_key(|e| e.offset);
        for e in new.iter_mut() {
            if e.line == 0 {
                let loc = reader.location_of(e.offset);
                e.line = loc.line;
                e.column = loc.column;
            }
        }
        // Merge when the new ones start before the last old one (rare: IDREFs at the end,
        // values reported at their start tag).
        if self.resolved > 0
            && self.errors[self.resolved].offset < self.errors[self.resolved - 1].offset
        {
            self.errors.sort_by_key(|e| e.offset);
        }
        self.resolved = self.errors.len();
    }

    /// Before a lean pass: empties what the general pass filled, if it ran since that was
    /// last emptied. (The lean pass fills none of it. A small document reads every line it
    /// touches from a cold cache, and the clearing took some twenty.)
    #[inline]
    pub(crate) fn forget(&mut self) {
        if self.used {
            self.clear();
            self.used = false;
        }
    }

    /// Empties what only the general pass fills: the errors, IDs, identity constraints'
    /// tables and the location hints, and its position in the document.
    #[cold]
    #[inline(never)]
    fn clear(&mut self) {
        self.depth = 0;
        self.resolved = 0;
        self.stopped = false;
        self.saw_root = false;
        self.last = Last::Other;
        self.errors.clear();
        self.ids.clear();
        self.identity.clear();
        self.id_errors.clear();
        self.hints.clear();
    }

    fn error(&mut self, constraint: &'static str, message: String, offset: u64) {
        self.error_expecting(constraint, message, Vec::new(), offset);
    }

    fn error_expecting(
        &mut self,
        constraint: &'static str,
        message: String,
        expected: Vec<String>,
        offset: u64,
    ) {
        if self.stopped {
            return;
        }
        self.errors.push(ValidationError {
            constraint,
            message,
            expected,
            line: 0,
            column: 0,
            offset,
            source: None,
        });
        if self.errors.len() >= self.max_errors.max(1) {
            self.stopped = true;
        }
    }

    fn flush_id_errors(&mut self) {
        while let Some((c, m, o)) = (!self.id_errors.is_empty()).then(|| self.id_errors.remove(0)) {
            self.error(c, m, o);
        }
    }

    // ----- events ---------------------------------------------------------------------------

    /// Validates one event (at byte `offset`); [`General::psvi`] then gives its validation
    /// information. Inlined into the reader's loop: it returns nothing, so no result is moved.
    #[inline]
    fn on_event(&mut self, sh: &mut Shared<'s>, ev: &Event<'_>, offset: u64) {
        self.last = Last::Other;
        match ev {
            Event::Start(tag) => {
                if !self.start_planned(sh, tag, offset)
                    && !self.start_planned_xsi_type(sh, tag, offset)
                    && !self.start_planned_attributed(sh, tag, offset)
                {
                    self.start(sh, tag, offset);
                }
                self.last = Last::Start;
            }
            Event::End(_) if self.depth > 0 => {
                if !self.end_planned(sh) {
                    self.end(sh, offset);
                }
                self.last = Last::End;
            }
            Event::Text(t) => {
                if self.depth > 0 && self.frames[self.depth - 1].collect_text {
                    // Only typed elements collect: no other check applies.
                    let d = self.depth - 1;
                    match t.unescape() {
                        std::borrow::Cow::Borrowed(s) => self.frames[d].text.push_str(s),
                        std::borrow::Cow::Owned(s) => self.frames[d].text.push_str(&s),
                    }
                } else {
                    self.text(sh, t.raw(), t.is_whitespace(), offset);
                }
            }
            Event::CData(c) => {
                let s = c.text();
                let ws = s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
                self.text(sh, &s, ws, offset);
            }
            Event::Eof if !self.saw_root => {
                self.error(
                    "well-formed",
                    "the document has no root element".to_string(),
                    offset,
                );
            }
            _ => {}
        }
    }

    /// The validation information of the event last validated.
    #[inline]
    pub(crate) fn psvi(&self) -> Psvi<'_> {
        match self.last {
            Last::Other => Psvi::None,
            Last::Start => {
                let f = &self.frames[self.depth - 1];
                if f.mode == Mode::Skip {
                    Psvi::None
                } else {
                    Psvi::Start {
                        decl: f.decl,
                        type_def: (f.mode == Mode::Typed).then_some(f.ty),
                        nil: f.nil,
                        attributes: &self.attr_infos,
                    }
                }
            }
            // The frame of the element that ended is the one above the depth.
            Last::End => {
                let f = &self.frames[self.depth];
                if f.mode == Mode::Skip {
                    Psvi::None
                } else {
                    Psvi::End {
                        decl: f.decl,
                        type_def: (f.mode == Mode::Typed).then_some(f.ty),
                        value: match (&self.end_value, self.end_lazy) {
                            (Some(v), _) => Some(TypedValue::ready(v)),
                            (None, Some((b, member))) => {
                                Some(TypedValue::lazy(&self.lazy_value, b, member, &f.text))
                            }
                            (None, None) => None,
                        },
                    }
                }
            }
        }
    }

    fn text(&mut self, sh: &mut Shared<'s>, text: &str, whitespace: bool, offset: u64) {
        if self.depth == 0 {
            return;
        }
        let schema = sh.schema;
        let d = self.depth - 1;
        let f = &mut self.frames[d];
        if f.mode != Mode::Typed {
            return;
        }
        if f.collect_text {
            f.text.push_str(text);
            return;
        }
        if whitespace {
            return;
        }
        if f.nil {
            let label = self.frame_label(sh, d);
            self.error(
                "cvc-elt.3.2.1",
                format!("element '{label}' is nil (xsi:nil=\"true\") and may not contain text"),
                offset,
            );
            return;
        }
        if let TypeId::Complex(c) = f.ty {
            match &schema.complex_type(c).content {
                ContentType::Empty => {
                    let label = self.frame_label(sh, d);
                    self.error(
                        "cvc-complex-type.2.1",
                        format!("element '{label}' must be empty (its type has empty content) but contains text"),
                        offset,
                    );
                }
                ContentType::Elements { mixed: false, .. } => {
                    let label = self.frame_label(sh, d);
                    let shown: String = text.trim().chars().take(20).collect();
                    self.error(
                        "cvc-complex-type.2.3",
                        format!("element '{label}' may only contain elements (its type is element-only), found text '{shown}'"),
                        offset,
                    );
                }
                _ => {}
            }
        }
    }
}
