//! The streaming validator: one pass over the reader's events, memory bounded by the depth of
//! the document (plus the ID and identity-constraint tables).
//!
//! [`Validator`] is a thin façade over two engines, as regex-automata's meta regex is over its:
//! the lean engine ([`super::lean`]), which proves most valid documents valid keeping nothing
//! but the verdict, and the general engine ([`super::general`]), which checks everything and
//! says what is wrong; and over what both use ([`Shared`]) and the reader slot. A document in
//! memory goes to the lean engine first; when it gives up (a typed [`GiveUp`]), the general
//! engine validates the document from the start. [`ValidatingReader`] wraps an
//! [`xwire::Reader`] and hands out each event with its validation information ([`Psvi`]),
//! from the general engine; [`validate_bytes`] validates a whole document.

use std::sync::Arc;

use xwire::{Event, Reader, ReaderSlot};

use super::errors::{ValidationError, ValidationOptions};
use super::general::{General, Psvi};
use super::lean::{GiveUp, Lean};
use super::plans::Plans;
use super::shared::Shared;
use crate::model::Schema;

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
    /// The lean engine: its frames and cache.
    lean: Lean<'s>,
    /// The general engine: its frames, errors, tables and cache.
    general: General,
    /// The reader of every document given as bytes, kept in place between them (boxed, so
    /// that the validator stays small). Made on first use.
    slot: Option<Box<ReaderSlot>>,
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
            .field("depth", &self.general.depth())
            .field("errors", &self.general.errors())
            .finish_non_exhaustive()
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
        let max_errors = options.max_errors;
        Validator {
            sh: Shared::new(schema, plans, options),
            lean: Lean::default(),
            general: General::new(max_errors),
            slot: None,
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
            v.general.forget();
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
        f: Option<F>,
        observed: usize,
    ) -> Result<(), Vec<ValidationError>> {
        self.reset(reader);
        self.general.run(&mut self.sh, reader, f, observed)
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
        self.general.hints()
    }

    /// Starts a new document for the general pass, read by `reader`: the name caches stay
    /// while its ids mean the names they meant for the last document.
    fn reset(&mut self, reader: &Reader<'_>) {
        self.sh.reset(reader);
        self.general.reset();
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
        self.v.general.psvi()
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
        let v = &mut *self.v;
        v.general.step(&mut v.sh, &mut self.reader)?;
        Ok(Validated {
            reader: &self.reader,
            v: self.v,
        })
    }

    /// The errors found so far, in document order.
    pub fn errors(&mut self) -> &[ValidationError] {
        self.v.general.resolve_locations(&mut self.reader);
        self.v.general.errors()
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
