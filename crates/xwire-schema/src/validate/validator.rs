//! The streaming validator: one pass over the reader's events, memory bounded by the depth of
//! the document (plus the ID and identity-constraint tables).
//!
//! [`Validator`] holds every mutable state and keeps its buffers from one document to the
//! next; [`ValidatingReader`] wraps an [`xwire::Reader`] and hands out each event with its
//! validation information ([`Psvi`]); [`validate_bytes`] validates a whole document.

use std::sync::Arc;

use xwire::{Event, Reader, ReaderSlot, StartTag};

use super::automaton::{
    complex_type_label, ContentModel, Expected, MatchState, Matched, MemberStatus,
};
use super::errors::{ValidationError, ValidationOptions};
use super::identity::{key_part, IdError, Identity, KeyPart};
use super::ids::{IdKind, IdTable};
use super::lean::{GiveUp, Lean};
use super::plans::{self, keeps_text, opens_plainly, Check, ElementPlan, Plans};
use super::shared::{model_of, Shared, UseIndex};
use super::typed_value::TypedValue;
use crate::datatypes::{parse_plain, trim_xml, Builtin, Value};
use crate::model::{
    AttributeId, AttributeUse, ComplexTypeId, ContentType, DerivationSet, ElementId, NameId, NsId,
    ProcessContents, Schema, SimpleTypeId, SimpleValue, TypeId, ValueConstraint, Wildcard,
    XSI_NAMESPACE,
};

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
    /// and no child ([`ElementPlan::quick_end`]; set by the general start too,
    /// for an element typed by `xsi:type`).
    quick_end: Option<SimpleTypeId>,
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
            quick_end: None,
        }
    }
}

/// The validation information of one attribute of a start tag.
#[derive(Clone, Debug, PartialEq)]
pub struct AttributeInfo {
    /// The position of the attribute in [`StartTag::attributes`], or `None` for an attribute
    /// added from a default or fixed value of the schema.
    pub index: Option<usize>,
    /// The governing attribute declaration, if any.
    pub decl: Option<AttributeId>,
    /// The typed value, when the attribute was validated and valid.
    pub value: Option<SimpleValue>,
}

/// The validation information that comes with an event (the post-schema-validation infoset,
/// as far as a consumer needs it).
#[derive(Clone, Copy, Debug)]
pub enum Psvi<'v> {
    /// Nothing to add (text, comments, ..., or an element that was not assessed).
    None,
    /// A start tag.
    Start {
        /// The governing element declaration.
        decl: Option<ElementId>,
        /// The governing type definition (after `xsi:type`).
        type_def: Option<TypeId>,
        /// `xsi:nil="true"`.
        nil: bool,
        /// The attributes (validated ones, then defaulted ones).
        attributes: &'v [AttributeInfo],
    },
    /// An end tag.
    End {
        /// The governing element declaration.
        decl: Option<ElementId>,
        /// The governing type definition.
        type_def: Option<TypeId>,
        /// For simple content: the typed value (the default or fixed value when empty).
        value: Option<TypedValue<'v>>,
    },
}

/// A validator for one schema, reused from document to document: its stacks, tables and
/// name caches keep their allocations, so validating a small message allocates almost
/// nothing.
///
/// ```
/// use xwire_schema::model::Schema;
/// use xwire_schema::validate::{ValidationOptions, Validator};
///
/// let schema = Schema::builtins(); // declares no element
/// let mut v = Validator::new(&schema, ValidationOptions::default());
/// let errors = v.validate(b"<a/>").unwrap_err();
/// assert_eq!(errors[0].message, "no declaration found for the root element 'a'");
/// assert_eq!((errors[0].line, errors[0].column), (1, 1));
/// ```
pub struct Validator<'s> {
    /// What both engines use: the schema, the plans, the options, the name and `xsi:type`
    /// caches, the bindings in scope, the value checks.
    sh: Shared<'s>,
    /// The lean engine (its frames and cache).
    lean: Lean<'s>,
    frames: Vec<Frame>,
    depth: usize,
    errors: Vec<ValidationError>,
    /// Errors before this index have their line and column.
    resolved: usize,
    stopped: bool,
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
    attr_keys: Vec<(NsId, String, KeyPart)>,
    /// The value of the element that just ended, when built during validation.
    end_value: Option<SimpleValue>,
    /// Otherwise, for a number checked by a scan: its built-in and type, for a
    /// [`TypedValue`] to build from the frame's text on demand (into `lazy_value`).
    end_lazy: Option<(Builtin, SimpleTypeId)>,
    lazy_value: std::cell::OnceCell<SimpleValue>,
    last: Last,
    hints: Vec<(String, String)>,
    /// Whether the general pass ran since the last [`Validator::general_reset`] (the lean
    /// pass fills none of what that empties).
    general_used: bool,
    /// The reader of every document given as bytes, kept in place between them (boxed, so
    /// that the validator stays small). Made on first use.
    slot: Option<Box<ReaderSlot>>,
    saw_root: bool,
}

/// What a start decided for its element's frame ([`Validator::open_frame`]).
struct Opening {
    mode: Mode,
    decl: Option<ElementId>,
    ty: TypeId,
    nil: bool,
    collect_text: bool,
    name: Option<NameId>,
    quick_end: Option<SimpleTypeId>,
}

/// What the event last validated was, for [`Validator::psvi`].
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

/// A validator of the same schema with the same options, which shares the plans this one
/// compiled (no compilation): one per thread, or one per message where a validator cannot be
/// kept. It starts afresh: empty caches, nothing of the documents this one validated.
///
/// ```
/// use xwire_schema::model::Schema;
/// use xwire_schema::validate::{ValidationOptions, Validator};
///
/// let schema = Schema::builtins();
/// let v = Validator::new(&schema, ValidationOptions::default());
/// std::thread::scope(|s| {
///     for _ in 0..2 {
///         let mut v = v.clone();
///         s.spawn(move || assert!(v.validate(b"<a/>").is_err()));
///     }
/// });
/// ```
impl Clone for Validator<'_> {
    fn clone(&self) -> Self {
        let sh = &self.sh;
        Validator::with_plans(sh.schema, Arc::clone(&sh.plans), sh.options.clone())
    }
}

impl std::fmt::Debug for Validator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator")
            .field("options", &self.sh.options)
            .field("depth", &self.depth)
            .field("errors", &self.errors)
            .finish_non_exhaustive()
    }
}

/// A name for messages, formatted only when an error is reported (no allocation per element).
#[derive(Clone, Copy)]
struct Label<'a> {
    schema: &'a Schema,
    name: Option<NameId>,
    raw: RawName<'a>,
}

/// The name as written, for a [`Label`] the schema has no name for: a start tag's is only
/// sliced out if a message needs it.
#[derive(Clone, Copy)]
enum RawName<'a> {
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
struct AttrWhat<'a>(&'a dyn std::fmt::Display);

impl std::fmt::Display for AttrWhat<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "attribute '{}'", self.0)
    }
}

/// `element 'x'`, formatted lazily.
struct ElemWhat<'a>(&'a dyn std::fmt::Display);

impl std::fmt::Display for ElemWhat<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "element '{}'", self.0)
    }
}

impl<'s> Validator<'s> {
    /// A validator for `schema`. It compiles its plans from the schema (how the values of
    /// each type are checked, which declarations a start tag opens without the general
    /// checks): reuse it from document to document, and [clone](Validator::clone) it for
    /// more validators of the schema (a clone shares the plans).
    pub fn new(schema: &'s Schema, options: ValidationOptions) -> Validator<'s> {
        Validator::with_plans(schema, Arc::new(Plans::new(schema)), options)
    }

    /// A validator for `schema` with `plans` (made from it).
    pub(crate) fn with_plans(
        schema: &'s Schema,
        plans: Arc<Plans>,
        options: ValidationOptions,
    ) -> Validator<'s> {
        Validator {
            sh: Shared::new(schema, plans, options),
            lean: Lean::default(),
            frames: Vec::new(),
            depth: 0,
            errors: Vec::new(),
            resolved: 0,
            stopped: false,
            ids: IdTable::default(),
            identity: Identity::default(),
            id_errors: Vec::new(),
            attr_infos: Vec::new(),
            attr_seen: Vec::new(),
            xsi_type_at: None,
            xsi_nil_at: None,
            uses: UseIndex::default(),
            attr_keys: Vec::new(),
            end_value: None,
            end_lazy: None,
            lazy_value: std::cell::OnceCell::new(),
            last: Last::Other,
            hints: Vec::new(),
            general_used: false,
            slot: None,
            saw_root: false,
        }
    }

    /// The schema.
    pub fn schema(&self) -> &'s Schema {
        self.sh.schema
    }

    /// Validates a whole document in memory.
    ///
    /// A lean pass that keeps nothing but the verdict tries the document first and proves
    /// most valid documents valid; on anything it does not handle, or anything not valid,
    /// it gives up and the general pass validates the document from the start (and says
    /// what is wrong). The result is the general pass's either way.
    pub fn validate(&mut self, bytes: &[u8]) -> Result<(), Vec<ValidationError>> {
        // No observer: the lean pass builds no view of end tags.
        self.validate_observed(bytes, None::<fn(&Event<'_>)>)
    }

    /// As [`Validator::validate`], handing each event of the document to `f`, once and in
    /// order, whichever pass validates it: up to the end ([`Event::Eof`] not included), the
    /// first well-formedness error, or where validation stopped
    /// ([`ValidationOptions::max_errors`]). For a consumer that needs the events but not
    /// their typed values (a [`ValidatingReader`] gives both, and is slower).
    ///
    /// ```
    /// use xwire_schema::model::Schema;
    /// use xwire_schema::validate::{ValidationOptions, Validator};
    ///
    /// let xsd = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    ///   <xs:element name="n" type="xs:int"/></xs:schema>"#;
    /// let schema = Schema::parse_str(xsd, &Default::default()).unwrap();
    /// let mut v = Validator::new(&schema, ValidationOptions::default());
    /// let mut starts = 0;
    /// let r = v.validate_with(b"<n>12</n>", |e| starts += matches!(e, xwire::Event::Start(_)) as u32);
    /// assert!(r.is_ok());
    /// assert_eq!(starts, 1);
    /// ```
    pub fn validate_with<F: FnMut(&Event<'_>)>(
        &mut self,
        bytes: &[u8],
        f: F,
    ) -> Result<(), Vec<ValidationError>> {
        self.validate_observed(bytes, Some(f))
    }

    fn validate_observed<F: FnMut(&Event<'_>)>(
        &mut self,
        bytes: &[u8],
        mut f: Option<F>,
    ) -> Result<(), Vec<ValidationError>> {
        let Err(gave_up) = self.lean_pass(bytes, &mut f) else {
            return Ok(());
        };
        self.general_pass(bytes, f, gave_up.observed)
    }

    /// The lean engine over `bytes`: `Ok` when it proves the document valid; else why it
    /// gave up, and how many events it handed `observe` before.
    pub(crate) fn lean_pass<F: FnMut(&Event<'_>)>(
        &mut self,
        bytes: &[u8],
        observe: &mut Option<F>,
    ) -> Result<(), GiveUp> {
        if let Err(reason) = self.lean.ready(&self.sh) {
            return Err(GiveUp {
                reason,
                observed: 0,
            });
        }
        let mut observed = 0;
        self.read_in_slot(bytes, |v, reader| {
            v.forget();
            v.sh.reset(reader);
            v.lean.run(&mut v.sh, reader, bytes, observe, &mut observed)
        })
        .map_err(|reason| GiveUp { reason, observed })
    }

    /// The general pass over `bytes`, the observer taking the events after the first
    /// `observed` (the lean pass handed those out). Out of line: the lean pass's loop stays
    /// compact in the instruction cache.
    #[inline(never)]
    fn general_pass<F: FnMut(&Event<'_>)>(
        &mut self,
        bytes: &[u8],
        f: Option<F>,
        observed: usize,
    ) -> Result<(), Vec<ValidationError>> {
        self.read_in_slot(bytes, |v, reader| v.general_loop(reader, f, observed))
    }

    /// The general pass over the document of `reader`, from its start; the observer takes
    /// the events after the first `observed`.
    fn general_loop<F: FnMut(&Event<'_>)>(
        &mut self,
        reader: &mut Reader<'_>,
        mut f: Option<F>,
        observed: usize,
    ) -> Result<(), Vec<ValidationError>> {
        self.reset(reader);
        let mut n = 0usize;
        while self.step(reader).is_ok() {
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

    /// Reads the next event of `reader` and validates it (the general pass's step, for
    /// [`ValidatingReader::next`] and the validator's own loop). A reader's error is recorded
    /// as a validation error and returned.
    #[inline]
    fn step(&mut self, reader: &mut Reader<'_>) -> Result<(), xwire::Error> {
        self.resolve_locations(reader);
        if let Err(e) = reader.next_token() {
            self.not_well_formed(&e);
            return Err(e);
        }
        self.on_event(&reader.current(), reader.offset());
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
    fn resolve_locations(&mut self, reader: &mut Reader<'_>) {
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

    /// Runs a pass `f` over the document `bytes`, read by the validator's reader slot (made
    /// on first use; out of the validator while `f` runs, so `f` has the validator too).
    #[inline(always)]
    fn read_in_slot<T>(
        &mut self,
        bytes: &[u8],
        f: impl FnOnce(&mut Self, &mut Reader<'_>) -> T,
    ) -> T {
        let mut slot = match self.slot.take() {
            Some(slot) => slot,
            None => Box::new(ReaderSlot::new(self.sh.options.reader.clone())),
        };
        let answer = slot.read(bytes, |reader| f(self, reader));
        self.slot = Some(slot);
        answer
    }

    /// Validates a document read from `read` in chunks (memory bounded by the reader's
    /// window and the depth of the document, not its size).
    pub fn validate_read(&mut self, read: impl std::io::Read) -> Result<(), Vec<ValidationError>> {
        let mut reader = Reader::from_reader(read, self.sh.options.reader.clone());
        self.general_loop(&mut reader, None::<fn(&Event<'_>)>, 0)
    }

    /// The `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation` hints of the last
    /// document, as (namespace, location) pairs, when
    /// [`ValidationOptions::schema_location_hints`] is on.
    pub fn schema_location_hints(&self) -> &[(String, String)] {
        &self.hints
    }

    /// Starts a new document for the general pass, read by `reader`: the name caches stay
    /// while its ids mean the names they meant for the last document.
    fn reset(&mut self, reader: &Reader<'_>) {
        self.sh.reset(reader);
        if self.general_used {
            self.general_reset();
        }
        self.general_used = true;
        self.depth = 0;
        self.resolved = 0;
        self.stopped = false;
        self.saw_root = false;
        self.last = Last::Other;
    }

    /// Before a lean pass: empties what the general pass filled, if it ran since that was
    /// last emptied. (The lean pass fills none of it. A small document reads every line it
    /// touches from a cold cache, and the clearing took some twenty.)
    #[inline]
    fn forget(&mut self) {
        if self.general_used {
            self.general_reset();
            self.general_used = false;
        }
    }

    /// Empties what only the general pass fills: the errors, IDs, identity constraints'
    /// tables and the location hints, and its position in the document.
    #[cold]
    #[inline(never)]
    fn general_reset(&mut self) {
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
        });
        if self.errors.len() >= self.sh.options.max_errors.max(1) {
            self.stopped = true;
        }
    }

    fn flush_id_errors(&mut self) {
        while let Some((c, m, o)) = (!self.id_errors.is_empty()).then(|| self.id_errors.remove(0)) {
            self.error(c, m, o);
        }
    }

    // ----- names ----------------------------------------------------------------------------

    // ----- events ---------------------------------------------------------------------------

    /// The complex type of the element open at depth `d - 1` when a quick start may step
    /// its content: assessed against a type, not nil.
    #[inline]
    fn quick_parent(&self, d: usize) -> Option<ComplexTypeId> {
        let p = &self.frames[d - 1];
        match p.ty {
            TypeId::Complex(c) if p.mode == Mode::Typed && !p.nil => Some(c),
            _ => None,
        }
    }

    /// Whether a quick start may be tried at depth `d`: below the root, the validator not
    /// stopped, no identity constraint in scope (whose fields and selectors need the
    /// general way's attribute keys).
    #[inline]
    fn quick_allowed(&self, d: usize) -> bool {
        d != 0 && !self.stopped && !self.identity.active()
    }

    /// Where a quick start of `tag` (below the root) goes: its declaration, the target of
    /// its plain move in the parent's content model, the declaration's
    /// [`ElementPlan`] (in the plans of declarations whose type has
    /// attribute uses when `attributed`) and the element's name. `None` when the parent is
    /// not assessed against a complex type, the move is not plain, or the declaration has no
    /// plan there. Changes nothing but the name caches.
    #[inline(always)]
    fn quick_target(
        &mut self,
        tag: &StartTag<'_>,
        d: usize,
        attributed: bool,
    ) -> Option<(ElementId, u32, ElementPlan, NameId)> {
        let schema = self.sh.schema;
        let pc = self.quick_parent(d)?;
        let ns = self.sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = self
            .sh
            .map_name(tag.name_id(), tag.ns(), ns, || tag.local_name())?;
        let m = model_of(schema, &self.sh.plans, pc)?;
        let (decl, target) = m.quick_step(&self.frames[d - 1].state, name)?;
        let plans = match attributed {
            false => &self.sh.plans.elements,
            true => &self.sh.plans.attributed,
        };
        let plan = plans.get(decl.index()).copied().flatten()?;
        Some((decl, target, plan, name))
    }

    /// The start of an element whose tag has no attributes (no namespace declarations
    /// either), which is a plain move in its parent's content model to a declaration with
    /// an [`ElementPlan`] (whose type has no attribute uses), while no
    /// identity constraint is in scope: its frame is filled straight away. `false` (nothing
    /// changed) for anything else, which [`Validator::start_quick_attributed`] or
    /// [`Validator::start`] then takes, to the same outcome.
    #[inline]
    fn start_quick(&mut self, tag: &StartTag<'_>, offset: u64) -> bool {
        let d = self.depth;
        if !self.quick_allowed(d) || tag.attributes().len() != 0 {
            return false;
        }
        let Some((decl, target, plan, name)) = self.quick_target(tag, d, false) else {
            return false;
        };
        self.clear_attr_infos();
        self.open_quick(tag, offset, d, target, Some(decl), plan, Some(name));
        true
    }

    /// As [`Validator::start_quick`], for a declaration whose type has attribute uses (its
    /// plan among the attributed plans): the tag's attributes are checked against them first
    /// ([`Validator::quick_attributes`]). `false` (nothing changed but the last start's
    /// attributes dropped) when they need the general way.
    #[inline(never)]
    fn start_quick_attributed(&mut self, tag: &StartTag<'_>, offset: u64) -> bool {
        let d = self.depth;
        if !self.quick_allowed(d) {
            return false;
        }
        let Some((decl, target, plan, name)) = self.quick_target(tag, d, true) else {
            return false;
        };
        self.clear_attr_infos();
        if !self.quick_attributes(tag, plan.ty) {
            return false;
        }
        self.open_quick(tag, offset, d, target, Some(decl), plan, Some(name));
        true
    }

    /// The end of every quick start: the move to `target` in the content of the element
    /// open at depth `d - 1`, and the frame of the new element from its plan (assessed, not
    /// nil). Always inlined, like [`Validator::open_frame`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn open_quick(
        &mut self,
        tag: &StartTag<'_>,
        offset: u64,
        d: usize,
        target: u32,
        decl: Option<ElementId>,
        plan: ElementPlan,
        name: Option<NameId>,
    ) {
        let p = &mut self.frames[d - 1];
        ContentModel::quick_move(&mut p.state, target);
        p.had_child = true;
        let bindings = self.sh.bindings();
        self.open_frame(
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
                quick_end: plan.quick_end,
            },
        );
    }

    /// The attributes of a quick start for type `ty` (whose uses record no IDs), into
    /// `attr_infos` as the general way puts them: each attribute valid for a use of the type
    /// (its fixed value kept), then the uses not present with a default or fixed value.
    /// `false` for anything the general way would report or treat apart: a namespace
    /// declaration (its binding), an attribute with no use (`xsi:`, a wildcard's), an invalid
    /// value, a required use missing.
    #[inline(never)]
    fn quick_attributes(&mut self, tag: &StartTag<'_>, ty: TypeId) -> bool {
        let schema = self.sh.schema;
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
            let ans = self.sh.map_ns(a.ns(), || a.namespace_uri());
            let Some(n) = self
                .sh
                .map_name(a.name_id(), a.ns(), ans, || a.local_name())
            else {
                return false;
            };
            let Some(ui) = self.uses.find(self.sh.schema, c, n) else {
                return false;
            };
            let u = &uses[ui];
            let ad = schema.attribute(u.decl);
            let Ok(v) = self.sh.validate_simple(ad.type_def, a.value()) else {
                return false;
            };
            let vc = u.effective_value_constraint(schema);
            if vc.is_some_and(|vc| vc.fixed && !self.sh.fixed_matches(ad.type_def, vc, &v)) {
                self.sh.recycle(Some(v));
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
            self.add_default(u);
        }
        true
    }

    /// The start of an element whose only attribute is `xsi:type` (the items of a
    /// SOAP-encoded array, the accessors of an encoded struct): as [`Validator::start_quick`],
    /// for a plain move in the parent's model to a declaration (whose type the `xsi:type`
    /// derives from, unblocked) or to a lax wildcard (no global declaration for the name),
    /// to a type named by a cached or well-formed `xsi:type` that is not abstract and has no
    /// attribute uses. `false` (nothing changed but caches) for anything else.
    #[inline(never)]
    fn start_quick_typed(&mut self, tag: &StartTag<'_>, offset: u64) -> bool {
        let d = self.depth;
        // Like the other quick ways, only for a schema whose plans were made.
        if !self.quick_allowed(d)
            || tag.attributes().len() != 1
            || self.sh.plans.elements.is_empty()
            || self.sh.options.schema_location_hints
        {
            return false;
        }
        let (Some(xsi), (Some(xsi_type), _)) = (
            self.sh.xsi.ns,
            (self.sh.xsi.type_name, self.sh.xsi.nil_name),
        ) else {
            return false;
        };
        let Some(a) = tag.attributes().next() else {
            return false;
        };
        if a.is_namespace_decl()
            || self.sh.map_ns(a.ns(), || a.namespace_uri()) != xsi
            || self
                .sh
                .map_name(a.name_id(), a.ns(), xsi, || a.local_name())
                != Some(xsi_type)
        {
            return false;
        }
        let schema = self.sh.schema;
        let Some(xsi_type_decl) = self.sh.xsi.type_decl else {
            return false;
        };
        let Some(pc) = self.quick_parent(d) else {
            return false;
        };
        let ns = self.sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = self
            .sh
            .map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        let Some(Some(ty)) = self.sh.xsi_type_fast(a.value()) else {
            return false;
        };
        let Some(m) = model_of(schema, &self.sh.plans, pc) else {
            return false;
        };
        let st = &self.frames[d - 1].state;
        let (decl, target) = if let Some((e, target)) = name.and_then(|n| m.quick_step(st, n)) {
            if !self.sh.xsi_type_plainly(e, ty) {
                return false;
            }
            (Some(e), target)
        } else if let Some((wc, target)) = m.quick_wildcard(st, name, ns) {
            if wc.process != ProcessContents::Lax
                || name.is_some_and(|n| schema.global_element(n).is_some())
            {
                return false;
            }
            (None, target)
        } else {
            return false;
        };
        if !opens_plainly(schema, ty) {
            return false;
        }
        // No value constraint: a wildcard's child has no declaration, a declaration with
        // one was left to the general way.
        let plan = ElementPlan {
            ty,
            collect_text: keeps_text(schema, ty, false),
            quick_end: plans::quick_end(&self.sh.plans.values, ty, false),
        };
        self.clear_attr_infos();
        self.attr_infos.push(AttributeInfo {
            index: Some(0),
            decl: Some(xsi_type_decl),
            value: None,
        });
        self.open_quick(tag, offset, d, target, decl, plan, name);
        true
    }

    /// Drops the attribute information of the previous start (keeping string allocations).
    #[inline]
    fn clear_attr_infos(&mut self) {
        while let Some(info) = self.attr_infos.pop() {
            self.sh.recycle(info.value);
        }
    }

    /// Fills the frame of the element a start tag opens (at the depth, which it then goes
    /// past) and starts its content model. Always inlined: out of line, the call and the
    /// moves of its arguments cost a quick start a fifth more.
    #[inline(always)]
    fn open_frame(&mut self, tag: &StartTag<'_>, offset: u64, bindings: usize, o: Opening) {
        let d = self.depth;
        let model = match o.ty {
            TypeId::Complex(c) if o.mode == Mode::Typed => {
                model_of(self.sh.schema, &self.sh.plans, c)
            }
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
        f.quick_end = o.quick_end;
        if let Some(m) = model {
            m.start(&mut f.state);
        }
        self.depth += 1;
    }

    fn start(&mut self, tag: &StartTag<'_>, offset: u64) {
        let schema = self.sh.schema;
        let d = self.depth;
        self.saw_root = true;
        self.clear_attr_infos();
        // One pass over the attributes: namespace bindings, xsi:type, xsi:nil.
        let bindings = self.sh.bindings();
        self.xsi_type_at = None;
        self.xsi_nil_at = None;
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                self.sh.push_binding(&a);
            } else if let Some(xsi) = self.sh.xsi.ns {
                let ans = self.sh.map_ns(a.ns(), || a.namespace_uri());
                if ans != xsi {
                    continue;
                }
                // By schema name (no string compare); by local name for a schema that does
                // not name them.
                let (xsi_type, xsi_nil) = (self.sh.xsi.type_name, self.sh.xsi.nil_name);
                let n = self
                    .sh
                    .map_name(a.name_id(), a.ns(), ans, || a.local_name());
                let local = if n.is_some() { "" } else { a.local_name() };
                if n.is_some() && n == xsi_type || local == "type" {
                    self.xsi_type_at = Some(i);
                } else if n.is_some() && n == xsi_nil || local == "nil" {
                    self.xsi_nil_at = Some(i);
                }
            }
        }
        let ns = self.sh.map_ns(tag.ns(), || tag.namespace_uri());
        let name = self
            .sh
            .map_name(tag.name_id(), tag.ns(), ns, || tag.local_name());
        let label = Label {
            schema,
            name,
            raw: RawName::Tag(tag),
        };

        // What governs the element: from the parent.
        let mut decl = None;
        let mut mode = Mode::Typed;
        let mut wildcard_strict = false;
        if self.stopped {
            mode = Mode::Skip;
        } else if d == 0 {
            match name.and_then(|n| schema.global_element(n)) {
                Some(e) => decl = Some(e),
                None => {
                    if self.xsi_type_at.is_some() {
                        mode = Mode::Lax;
                    } else {
                        self.error(
                            "cvc-elt.1",
                            format!("no declaration found for the root element '{label}'"),
                            offset,
                        );
                        mode = Mode::Skip;
                    }
                }
            }
        } else {
            let p = d - 1;
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
                        p,
                        "cvc-elt.3.2.1",
                        "is nil (xsi:nil=\"true\") and may not contain",
                        &label,
                        offset,
                    );
                    mode = Mode::Skip;
                }
                Mode::Typed => match pty {
                    TypeId::Simple(_) => {
                        self.refuse_child(
                            p,
                            "cvc-type.3.1.2",
                            "has a simple type and may not contain",
                            &label,
                            offset,
                        );
                        mode = Mode::Skip;
                    }
                    TypeId::Complex(c) => match &schema.complex_type(c).content {
                        ContentType::Empty => {
                            self.refuse_child(
                                p,
                                "cvc-complex-type.2.1",
                                "must be empty (its type has empty content) but contains",
                                &label,
                                offset,
                            );
                            mode = Mode::Skip;
                        }
                        ContentType::Simple(_) => {
                            self.refuse_child(
                                p,
                                "cvc-complex-type.2.2",
                                "has simple content and may not contain",
                                &label,
                                offset,
                            );
                            mode = Mode::Skip;
                        }
                        ContentType::Elements { .. } => match self.step_child(c, p, name, ns) {
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
                                        wildcard_strict = true;
                                    }
                                }
                            },
                            None => {
                                self.content_error(c, p, &label, offset);
                                self.frames[p].content_failed = true;
                                mode = Mode::Skip;
                            }
                        },
                    },
                },
            }
        }

        // The type: declared, then xsi:type.
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
                if let Some(t) = self.xsi_type(xt.value(), decl, ty, &label, offset) {
                    ty = Some(t);
                    mode = Mode::Typed;
                }
            }
        }
        if wildcard_strict && ty.is_none() {
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
        let ct = match ty {
            TypeId::Complex(c) => Some((c, schema.complex_type(c))),
            TypeId::Simple(_) => None,
        };
        if mode == Mode::Typed {
            if let Some((c, ct)) = ct {
                if ct.is_abstract {
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

        // xsi:nil.
        let mut nil = false;
        if mode == Mode::Typed {
            nil = self.xsi_nil(tag, decl, &label, offset);
        }

        // Attributes.
        if mode == Mode::Typed {
            self.attributes(tag, ty, &label, offset);
        } else if mode == Mode::Lax {
            self.lax_attributes(tag, offset);
        }
        if self.sh.options.schema_location_hints && mode != Mode::Skip {
            self.collect_hints(tag);
        }

        // The frame.
        let assessed = mode == Mode::Typed && !nil;
        let vc = ed.is_some_and(|ed| ed.value_constraint.is_some());
        let collect_text = assessed && keeps_text(schema, ty, vc);
        // The end may still be the plan alone (the items of a SOAP array, typed by xsi:type).
        let quick_end = assessed
            .then(|| plans::quick_end(&self.sh.plans.values, ty, vc))
            .flatten();
        self.open_frame(
            tag,
            offset,
            bindings,
            Opening {
                mode,
                decl,
                ty,
                nil,
                collect_text,
                name,
                quick_end,
            },
        );
        // Identity constraints.
        let ics: &[crate::model::IdentityConstraintId] = match ed {
            Some(ed) if mode == Mode::Typed => &ed.identity_constraints,
            _ => &[],
        };
        if self.identity.active() || !ics.is_empty() {
            self.attr_keys.clear();
            for (i, a) in tag.attributes().enumerate() {
                if a.is_namespace_decl() {
                    continue;
                }
                let ans = self.sh.map_ns(a.ns(), || a.namespace_uri());
                let typed = self
                    .attr_infos
                    .iter()
                    .find(|info| info.index == Some(i))
                    .and_then(|info| info.value.as_ref());
                let key = match typed {
                    Some(v) => key_part(&v.value),
                    None => (0, a.value().to_string()),
                };
                self.attr_keys.push((ans, a.local_name().to_string(), key));
            }
            // Attributes added from a default or fixed value take part as well (3.11.4: fields
            // evaluate over the post-validation infoset).
            for info in self.attr_infos.iter().filter(|info| info.index.is_none()) {
                if let (Some(decl), Some(v)) = (info.decl, &info.value) {
                    let name = schema.attribute(decl).name;
                    let (ans, local) = (schema.names.ns(name), schema.names.local(name));
                    self.attr_keys
                        .push((ans, local.to_string(), key_part(&v.value)));
                }
            }
            let attrs: Vec<(NsId, &str, KeyPart)> = self
                .attr_keys
                .iter()
                .map(|(n, l, k)| (*n, l.as_str(), k.clone()))
                .collect();
            let mut errs = std::mem::take(&mut self.id_errors);
            self.identity.start(
                schema,
                d,
                ns,
                tag.local_name(),
                ics,
                &attrs,
                offset,
                &mut errs,
            );
            self.id_errors = errs;
            self.flush_id_errors();
        }
    }

    /// Validates one event (at byte `offset`); [`Validator::psvi`] then gives its validation
    /// information. Inlined into the reader's loop: it returns nothing, so no result is moved.
    #[inline]
    fn on_event(&mut self, ev: &Event<'_>, offset: u64) {
        self.last = Last::Other;
        match ev {
            Event::Start(tag) => {
                if !self.start_quick(tag, offset)
                    && !self.start_quick_typed(tag, offset)
                    && !self.start_quick_attributed(tag, offset)
                {
                    self.start(tag, offset);
                }
                self.last = Last::Start;
            }
            Event::End(_) if self.depth > 0 => {
                if !self.end_quick() {
                    self.end(offset);
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
                    self.text(t.raw(), t.is_whitespace(), offset);
                }
            }
            Event::CData(c) => {
                let s = c.text();
                let ws = s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
                self.text(&s, ws, offset);
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
    fn psvi(&self) -> Psvi<'_> {
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

    /// The element at depth `p` may not contain the child `label`: `why` says why
    /// ("has simple content and may not contain").
    #[cold]
    fn refuse_child(
        &mut self,
        p: usize,
        constraint: &'static str,
        why: &str,
        label: &Label<'_>,
        offset: u64,
    ) {
        let plabel = self.frame_label(p);
        self.error(
            constraint,
            format!("element '{plabel}' {why} element '{label}'"),
            offset,
        );
    }

    fn lazy_frame_label(&self, depth: usize) -> Label<'s> {
        let f = &self.frames[depth];
        Label {
            schema: self.sh.schema,
            name: f.name.or(f.decl.map(|e| self.sh.schema.element(e).name)),
            raw: RawName::Str("?"),
        }
    }

    fn frame_label(&self, depth: usize) -> String {
        let f = &self.frames[depth];
        match (f.name, f.decl) {
            (Some(n), _) => self.sh.schema.display_name(n),
            (None, Some(e)) => self.sh.schema.display_name(self.sh.schema.element(e).name),
            _ => f.raw.clone(),
        }
    }

    fn step_child(
        &mut self,
        c: ComplexTypeId,
        p: usize,
        name: Option<NameId>,
        ns: NsId,
    ) -> Option<Stepped> {
        let m = model_of(self.sh.schema, &self.sh.plans, c)?;
        let f = &mut self.frames[p];
        match m.step(&mut f.state, name, ns)? {
            Matched::Element { decl, status, .. } => Some(Stepped::Element(decl, status)),
            Matched::Wildcard(w) => Some(Stepped::Wildcard(w.process)),
        }
    }

    /// The names allowed next in the content of the element at `p`: full names (for
    /// [`ValidationError::expected`]), the phrase for messages, and whether the content may
    /// end. Names in the element's own namespace are shown by their local part.
    fn expected_names(&mut self, c: ComplexTypeId, p: usize) -> (Vec<String>, String, bool) {
        let schema = self.sh.schema;
        let Some(m) = model_of(schema, &self.sh.plans, c) else {
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

    fn content_error(
        &mut self,
        c: ComplexTypeId,
        p: usize,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let (expected, phrase, can_end) = self.expected_names(c, p);
        let plabel = self.frame_label(p);
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

    /// Resolves `xsi:type` and checks it against the declared type.
    fn xsi_type(
        &mut self,
        value: &str,
        decl: Option<ElementId>,
        declared: Option<TypeId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<TypeId> {
        let t = match self.sh.xsi_type_fast(value) {
            Some(t) => t,
            None => self.xsi_type_slow(value, label, offset)?,
        };
        self.xsi_type_check(t, value, decl, declared, label, offset)
    }

    /// `xsi:type` through the QName datatype (for the error message of a bad value).
    fn xsi_type_slow(
        &mut self,
        value: &str,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<Option<TypeId>> {
        let schema = self.sh.schema;
        let qname = SimpleTypeId::builtin(Builtin::QName);
        let v = match self.sh.validate_simple(qname, value) {
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
    fn xsi_type_check(
        &mut self,
        t: Option<TypeId>,
        value: &str,
        decl: Option<ElementId>,
        declared: Option<TypeId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) -> Option<TypeId> {
        let schema = self.sh.schema;
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
            if !schema.derives_from(t, dt, self.sh.blocked_by(decl, dt)) {
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

    fn xsi_nil(
        &mut self,
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
        let ed = self.sh.schema.element(e);
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

    #[inline]
    fn record_id(
        &mut self,
        ty: SimpleTypeId,
        v: &SimpleValue,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let kind = match self.sh.plan(v.member).id {
            IdKind::None => self.sh.plan(ty).id,
            kind => kind,
        };
        if kind != IdKind::None {
            self.record_id_of(kind, v, label, offset);
        }
    }

    #[inline(never)]
    fn record_id_of(
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

    fn attributes(
        &mut self,
        tag: &StartTag<'_>,
        ty: TypeId,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let schema = self.sh.schema;
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
            let ans = self.sh.map_ns(a.ns(), || a.namespace_uri());
            let aname = self
                .sh
                .map_name(a.name_id(), a.ns(), ans, || a.local_name());
            if ans != NsId::UNKNOWN && Some(ans) == self.sh.xsi.ns {
                self.xsi_attribute(i, &a, aname, label, offset);
                continue;
            }
            let alabel = Label {
                schema,
                name: aname,
                raw: RawName::Str(a.name()),
            };
            let found = match (aname, ty) {
                (Some(n), TypeId::Complex(c)) => self.uses.find(self.sh.schema, c, n),
                _ => None,
            };
            if let Some(ui) = found {
                self.attr_seen[ui] = true;
                let u = &uses[ui];
                let vc = u.effective_value_constraint(schema);
                self.attribute_value(i, u.decl, a.value(), vc, &alabel, label, offset);
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
                            self.attribute_value(i, g, a.value(), vc, &alabel, label, offset);
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
            self.add_default(u);
        }
    }

    /// The attribute of use `u`, absent from its tag, added from its default or fixed value
    /// (the use's, else the declaration's), if it has one.
    fn add_default(&mut self, u: &AttributeUse) {
        if let Some(vc) = u.effective_value_constraint(self.sh.schema) {
            let ty = self.sh.schema.attribute(u.decl).type_def;
            let value = self.sh.validate_simple(ty, &vc.lexical).ok();
            self.attr_infos.push(AttributeInfo {
                index: None,
                decl: Some(u.decl),
                value,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn attribute_value(
        &mut self,
        index: usize,
        decl: AttributeId,
        lexical: &str,
        vc: Option<&ValueConstraint>,
        alabel: &dyn std::fmt::Display,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let ty = self.sh.schema.attribute(decl).type_def;
        let value = match self.sh.validate_simple(ty, lexical) {
            Ok(v) => {
                if let Some(vc) = vc.filter(|vc| vc.fixed) {
                    if !self.sh.fixed_matches(ty, vc, &v) {
                        let m = fixed_mismatch(vc, lexical, &v);
                        self.error(
                            "cvc-au",
                            format!("attribute '{alabel}' of element '{label}' {m}"),
                            offset,
                        );
                    }
                }
                let what = AttrWhat(alabel);
                self.record_id(ty, &v, &what, offset);
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

    fn xsi_attribute(
        &mut self,
        index: usize,
        a: &xwire::Attribute<'_>,
        aname: Option<NameId>,
        label: &dyn std::fmt::Display,
        offset: u64,
    ) {
        let schema = self.sh.schema;
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
                let v = self
                    .sh
                    .validate_simple(schema.attribute(g).type_def, a.value());
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

    fn lax_attributes(&mut self, tag: &StartTag<'_>, offset: u64) {
        let schema = self.sh.schema;
        for (i, a) in tag.attributes().enumerate() {
            if a.is_namespace_decl() {
                continue;
            }
            let ans = self.sh.map_ns(a.ns(), || a.namespace_uri());
            let aname = self
                .sh
                .map_name(a.name_id(), a.ns(), ans, || a.local_name());
            if let Some(g) = aname.and_then(|n| schema.global_attribute(n)) {
                if Some(ans) == self.sh.xsi.ns {
                    continue;
                }
                let alabel = Label {
                    schema,
                    name: Some(schema.attribute(g).name),
                    raw: RawName::Str(""),
                };
                let vc = schema.attribute(g).value_constraint.as_ref();
                self.attribute_value(i, g, a.value(), vc, &alabel, &tag.name(), offset);
            }
        }
    }

    fn collect_hints(&mut self, tag: &StartTag<'_>) {
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

    fn text(&mut self, text: &str, whitespace: bool, offset: u64) {
        if self.depth == 0 {
            return;
        }
        let schema = self.sh.schema;
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
            let label = self.frame_label(d);
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
                    let label = self.frame_label(d);
                    self.error(
                        "cvc-complex-type.2.1",
                        format!("element '{label}' must be empty (its type has empty content) but contains text"),
                        offset,
                    );
                }
                ContentType::Elements { mixed: false, .. } => {
                    let label = self.frame_label(d);
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

    /// The end of an element whose value plan is all its end needs ([`Frame::quick_end`]),
    /// with text and no child, below the root, that declared no namespace, while no identity
    /// constraint is in scope: a number's scan (its value built on demand), a date's parse, a
    /// string's text taken as its value. `false` (nothing changed) when the plan cannot
    /// vouch for the text, or for anything else: [`Validator::end`] then decides (and says
    /// what is wrong).
    #[inline]
    fn end_quick(&mut self) -> bool {
        let d = self.depth - 1;
        let f = &self.frames[d];
        let Some(s) = f.quick_end else {
            return false;
        };
        // The root's end checks the document's IDREFs (a root of simple type holds none,
        // but that is the general way's to say).
        if f.had_child
            || f.text.is_empty()
            || d == 0
            || f.bindings != self.sh.bindings()
            || self.stopped
            || self.identity.active()
        {
            return false;
        }
        // A number: its scan, the value built on demand.
        let b = match self.sh.plan(s).check {
            check @ (Check::Number(_) | Check::IntRange { .. }) => match check.scan(&f.text) {
                Some(b) => b,
                None => return false,
            },
            check => return self.end_quick_value(d, s, check),
        };
        self.clear_end_value();
        self.end_lazy = Some((b, s));
        self.depth -= 1;
        true
    }

    /// [`Validator::end_quick`] for a value built here: a date's parse, or a string's text
    /// taken as it is. Out of line, so that the numbers' quick end stays small.
    #[inline(never)]
    fn end_quick_value(&mut self, d: usize, s: SimpleTypeId, check: Check) -> bool {
        let text = &self.frames[d].text;
        let value = match check {
            Check::Plain(b) => match parse_plain(b, text) {
                Some(v) => Some(v),
                None => return false,
            },
            _ if self.sh.text_is_value(check, text) => None,
            _ => return false,
        };
        self.clear_end_value();
        let value = value.unwrap_or_else(|| Value::String(self.take_text(d)));
        self.end_value = Some(SimpleValue { value, member: s });
        self.depth -= 1;
        true
    }

    /// Drops the value of the element that ended before (keeping a string's allocation).
    #[inline]
    fn clear_end_value(&mut self) {
        // Only a string value has an allocation to keep (no move of the others).
        if matches!(
            self.end_value,
            Some(SimpleValue {
                value: Value::String(_),
                ..
            })
        ) {
            let old = self.end_value.take();
            self.sh.recycle(old);
        } else {
            self.end_value = None;
        }
        if self.end_lazy.take().is_some() {
            self.lazy_value.take();
        }
    }

    fn end(&mut self, offset: u64) {
        if self.depth == 0 {
            return;
        }
        let schema = self.sh.schema;
        let d = self.depth - 1;
        self.clear_end_value();
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
                            let can_end = match model_of(schema, &self.sh.plans, c) {
                                Some(m) => m.can_end(&self.frames[d].state),
                                None => true,
                            };
                            if !can_end && !self.frames[d].content_failed {
                                let (expected, phrase, _) = self.expected_names(c, d);
                                let label = self.frame_label(d);
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
                                let label = self.frame_label(d);
                                self.error(
                                    "cvc-complex-type.2.4",
                                    format!("the content model of element '{label}' is too ambiguous to validate"),
                                    offset,
                                );
                            }
                            self.mixed_fixed(d, decl, had_child, offset);
                        }
                        None
                    }
                    ContentType::Empty => None,
                },
            };
            if let (Some(s), false, false) = (simple, nil, had_child) {
                value_key = self.simple_end(d, s, decl, offset);
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
        if self.sh.bindings() != self.frames[d].bindings {
            self.sh.pop_bindings(self.frames[d].bindings);
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
    fn simple_end(
        &mut self,
        d: usize,
        s: SimpleTypeId,
        decl: Option<ElementId>,
        offset: u64,
    ) -> Option<KeyPart> {
        let schema = self.sh.schema;
        let vc = decl.and_then(|e| schema.element(e).value_constraint.as_ref());
        if vc.is_none() && !self.frames[d].text.is_empty() {
            let text = &self.frames[d].text;
            let check = self.sh.plan(s).check;
            if self.sh.text_is_value(check, text) {
                return self.text_as_value(d, s, offset);
            }
            // A number nobody needs the value of here (no identity constraint to key, no ID
            // to record): a scan of its text, the value built on demand. Text the scan
            // cannot vouch for goes the general way.
            if !self.identity.active() {
                if let Some(b) = check.scan(text) {
                    self.end_lazy = Some((b, s));
                    return None;
                }
            }
        }
        let text = std::mem::take(&mut self.frames[d].text);
        let label = self.lazy_frame_label(d);
        let lexical = if text.is_empty() {
            vc.map_or("", |vc| vc.lexical.as_str())
        } else {
            text.as_str()
        };
        let result = self.sh.validate_simple(s, lexical);
        let key = match result {
            Ok(v) => {
                if let Some(vc) = vc.filter(|vc| vc.fixed && !text.is_empty()) {
                    if !self.sh.fixed_matches(s, vc, &v) {
                        let m = fixed_mismatch(vc, &text, &v);
                        self.error(
                            "cvc-elt.5.2.2.2.2",
                            format!("element '{label}' {m}"),
                            offset,
                        );
                    }
                }
                let what = ElemWhat(&label);
                self.record_id(s, &v, &what, offset);
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
    fn text_as_value(&mut self, d: usize, s: SimpleTypeId, offset: u64) -> Option<KeyPart> {
        let v = SimpleValue {
            value: Value::String(self.take_text(d)),
            member: s,
        };
        let label = self.lazy_frame_label(d);
        self.record_id(s, &v, &ElemWhat(&label), offset);
        let k = self.identity.active().then(|| key_part(&v.value));
        self.end_value = Some(v);
        k
    }

    /// The collected text of the frame at `d`, which takes a pooled buffer for its next text
    /// (no copy).
    #[inline]
    fn take_text(&mut self, d: usize) -> String {
        let spare = self.sh.pooled_string();
        std::mem::replace(&mut self.frames[d].text, spare)
    }

    /// A fixed value on an element of mixed content is compared as a string.
    fn mixed_fixed(&mut self, d: usize, decl: Option<ElementId>, had_child: bool, offset: u64) {
        let schema = self.sh.schema;
        let Some(vc) = decl.and_then(|e| schema.element(e).value_constraint.as_ref()) else {
            return;
        };
        if !vc.fixed {
            return;
        }
        let text = &self.frames[d].text;
        if had_child || (!text.is_empty() && *text != vc.lexical) {
            let label = self.frame_label(d);
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

/// What a value `found` (as written) that is not the fixed value of `vc` gets told: when
/// the two are written alike (a QName whose prefix is bound elsewhere), the values too.
#[cold]
fn fixed_mismatch(vc: &ValueConstraint, found: &str, v: &SimpleValue) -> String {
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

fn wildcard_label(schema: &Schema, w: &Wildcard) -> String {
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
                    if *ns == NsId::ABSENT {
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

/// An [`xwire::Reader`] whose events come with their validation information.
///
/// ```
/// use xwire_schema::model::Schema;
/// use xwire_schema::validate::{Psvi, ValidatingReader, ValidationOptions, Validator};
///
/// let schema = Schema::builtins();
/// let mut v = Validator::new(&schema, ValidationOptions::default());
/// let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(b"<a/>"));
/// loop {
///     let (ev, psvi) = r.next().unwrap().split();
///     if matches!(ev, xwire::Event::Eof) {
///         break;
///     }
///     if let Psvi::End { value: Some(v), .. } = psvi {
///         println!("typed value {:?}", v.value()); // built once, on demand
///     }
/// }
/// assert_eq!(r.errors().len(), 1);
/// ```
pub struct ValidatingReader<'r, 's> {
    reader: Reader<'r>,
    v: &'r mut Validator<'s>,
}

/// The event a [`ValidatingReader`] just read, with its validation information: a borrow
/// of the reader and the validator, each viewed on demand. (Handing out the event and its
/// information by value moved about a hundred bytes per event, which cost more than
/// validating most events.)
#[derive(Clone, Copy)]
pub struct Validated<'a> {
    reader: &'a Reader<'a>,
    v: &'a Validator<'a>,
}

impl<'a> Validated<'a> {
    /// The event.
    #[inline]
    pub fn event(self) -> Event<'a> {
        self.reader.current()
    }

    /// Its validation information.
    #[inline]
    pub fn psvi(self) -> Psvi<'a> {
        self.v.psvi()
    }

    /// The event and its validation information.
    #[inline]
    pub fn split(self) -> (Event<'a>, Psvi<'a>) {
        (self.event(), self.psvi())
    }

    /// The byte offset where the event starts.
    #[inline]
    pub fn offset(self) -> u64 {
        self.reader.offset()
    }
}

impl<'r, 's> ValidatingReader<'r, 's> {
    /// Starts validating the document of `reader` (the validator's previous state is reset).
    pub fn new(validator: &'r mut Validator<'s>, reader: Reader<'r>) -> ValidatingReader<'r, 's> {
        validator.reset(&reader);
        ValidatingReader {
            reader,
            v: validator,
        }
    }

    /// Reads and validates the next event. A document that is not well-formed gives the
    /// reader's error (also recorded in [`ValidatingReader::errors`]); validation errors do
    /// not stop the reader, they are collected.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> Result<Validated<'_>, xwire::Error> {
        self.v.step(&mut self.reader)?;
        Ok(Validated {
            reader: &self.reader,
            v: self.v,
        })
    }

    /// The errors found so far, in document order.
    pub fn errors(&mut self) -> &[ValidationError] {
        self.v.resolve_locations(&mut self.reader);
        &self.v.errors
    }

    /// The underlying reader (for locations, namespaces in scope, ...). Advancing it
    /// directly skips those events' validation.
    pub fn reader(&mut self) -> &mut Reader<'r> {
        &mut self.reader
    }
}

/// Validates the document `bytes` against `schema`: `Ok` when it is valid, else every error
/// found (up to [`ValidationOptions::max_errors`]), in document order.
///
/// ```
/// use xwire_schema::model::Schema;
/// use xwire_schema::validate::{validate_bytes, ValidationOptions};
///
/// let schema = Schema::builtins();
/// let errors = validate_bytes(&schema, b"<a>", &ValidationOptions::default()).unwrap_err();
/// assert_eq!(errors.last().unwrap().constraint, "well-formed");
/// ```
pub fn validate_bytes(
    schema: &Schema,
    bytes: &[u8],
    options: &ValidationOptions,
) -> Result<(), Vec<ValidationError>> {
    Validator::new(schema, options.clone()).validate(bytes)
}
