//! What a generated parser reads from: the steps of recursive descent over a document, the
//! same whether the bytes go through the fast [`Scanner`](super::Scanner) or the general
//! [`Cursor`](super::Cursor).

use super::identity::{Constraint, KeyPart, Tracker};
use super::{Bindings, Fault, IdKind, Ids, MixedText, Nillable, Text, XSI};
use crate::datatypes::Builtin;

/// One step through the content of an element whose content may hold text and elements
/// ([`Source::content`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content<'s> {
    /// The source is at a child's start tag.
    Start,
    /// A run of character data (white space included), references replaced.
    Text(&'s str),
    /// The source is past the element's end tag.
    End,
}

/// An element name a content model expects next: what [`Source::child_expecting`] may
/// compare in place of scanning a name. Generated code keeps one `const` per name, so the
/// check that it is an NCName of ASCII characters (the names the scanner compares; others it
/// scans as usual) runs when the code is compiled.
///
/// ```
/// use xwire::bind::{Expected, Scanner, Source};
///
/// const ITEM: Expected = Expected::new("", "item");
/// let mut s = Scanner::new(b"<list><item/><note/></list>");
/// s.root().unwrap();
/// // The expected name, compared in place; then another, scanned.
/// assert!(s.child_expecting(&ITEM).unwrap() && s.at("", "item"));
/// s.empty().unwrap();
/// assert!(s.child_expecting(&ITEM).unwrap() && s.at("", "note"));
/// s.empty().unwrap();
/// assert_eq!(s.child_expecting(&ITEM), Ok(false));
/// s.finish().unwrap();
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    ns: &'static str,
    local: &'static str,
    /// `local` is an NCName of ASCII characters, not longer than a name the scanner takes.
    plain: bool,
}

impl Expected {
    /// The element `{ns}local` (`ns` empty for none).
    pub const fn new(ns: &'static str, local: &'static str) -> Expected {
        let b = local.as_bytes();
        let mut plain = match b.first() {
            Some(&c) => (c.is_ascii_alphabetic() || c == b'_') && b.len() <= 1000,
            None => false,
        };
        let mut i = 1;
        while i < b.len() {
            let c = b[i];
            plain &= c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.';
            i += 1;
        }
        Expected { ns, local, plain }
    }

    /// The namespace URI (empty for none).
    pub const fn ns(&self) -> &'static str {
        self.ns
    }

    /// The local name.
    pub const fn local(&self) -> &'static str {
        self.local
    }

    /// The local name when a source may compare it in place: an NCName of ASCII characters.
    #[inline]
    pub(crate) fn plain(&self) -> Option<&'static [u8]> {
        self.plain.then_some(self.local.as_bytes())
    }
}

/// A document seen as the steps of recursive descent: the root, an element's attributes, its
/// next child, its text. Generated readers are generic over it, so one reader serves both
/// [`Scanner`](super::Scanner) (the fast path, which gives up on anything unusual) and
/// [`Cursor`](super::Cursor) (every rule of the reader, and the messages).
///
/// A source is at a start tag once [`Source::root`] or [`Source::child`] found one. Generated
/// code reads the element's attributes ([`Source::attributes`]), then its content: the
/// children one by one ([`Source::child`]), its text ([`Source::text`]) or nothing
/// ([`Source::empty`]); each of these ends past the element's end tag.
///
/// ```
/// use xwire::bind::{value, Cursor, Scanner, Source};
///
/// // What generated code does for `<qty>` of type positiveInteger below 100, written once
/// // for both sources.
/// fn qty<S: Source>(c: &mut S) -> Result<u8, S::Error> {
///     c.root()?;
///     if !c.at("", "qty") {
///         return Err(c.unexpected("<qty>"));
///     }
///     c.no_attributes()?;
///     let v = value::int(c.text()?, 1, 99).map_err(|f| c.fail(f))?;
///     c.finish()?;
///     Ok(v)
/// }
/// let doc = b"<qty>42</qty>";
/// assert_eq!(qty(&mut Scanner::new(doc)).ok(), Some(42));
/// assert_eq!(qty(&mut Cursor::new(doc))?, 42);
/// // The scanner leaves the comment to the cursor; the cursor reads it.
/// let doc = b"<qty>4<!-- two -->2</qty>";
/// assert!(qty(&mut Scanner::new(doc)).is_err());
/// assert_eq!(qty(&mut Cursor::new(doc))?, 42);
/// # Ok::<(), xwire::bind::Error>(())
/// ```
pub trait Source {
    /// What a failed step gives: [`Error`](super::Error) for the cursor,
    /// [`Fallback`](super::Fallback) for the scanner.
    type Error;

    /// Moves to the root element's start tag, past the prolog.
    fn root(&mut self) -> Result<(), Self::Error>;

    /// Whether the source is at the start tag of element `{ns}local` (`ns` empty for none).
    fn at(&self, ns: &str, local: &str) -> bool;

    /// The namespace URI (empty for none) and local name of the current start tag: what a
    /// wildcard tests and keeps.
    fn name(&self) -> (&str, &str);

    /// Calls `f` with the namespace URI, local name and normalised value of each attribute of
    /// the current start tag (namespace declarations left out), stopping at its first fault.
    fn attributes<F>(&mut self, f: F) -> Result<(), Self::Error>
    where
        F: FnMut(&str, &str, &str) -> Result<(), Fault>;

    /// The namespace bindings in scope at the current start tag, its own declarations
    /// included: what the QName values of its attributes and text resolve through (an
    /// element of simple content has no child to change them).
    fn bindings(&self) -> Bindings;

    /// Whether the current start tag certainly has no attributes at all (so no `xsi:type`
    /// either): simple elements then take their short path. `false` when that is not known
    /// cheaply.
    #[inline]
    fn bare(&self) -> bool {
        false
    }

    /// Checks that the current start tag has no attributes but the schema-location hints
    /// (`xsi:schemaLocation`, `xsi:noNamespaceSchemaLocation`) and `xsi:type` (checked apart,
    /// [`Source::check_xsi_type`]): the attributes of an element of simple type.
    fn no_attributes(&mut self) -> Result<(), Self::Error> {
        self.attributes(|ns, local, _| simple_type_attribute(ns, local))
    }

    /// Whether the current start tag has `xsi:nil="true"`, for an element whose declaration
    /// is nillable: from here on its `xsi:nil` is one of the attributes every element may
    /// have ([`Source::attributes`] leaves it out). A value that is not a boolean is an
    /// error.
    fn nil(&mut self) -> Result<bool, Self::Error> {
        let mut nil = Ok(false);
        self.attributes(|ns, local, value| {
            if ns == XSI && local == "nil" {
                nil = super::value::boolean(value);
            }
            Ok(())
        })?;
        self.allow_nil();
        nil.map_err(|f| self.fail(f))
    }

    /// Makes the current start tag's `xsi:nil` one [`Source::attributes`] leaves out.
    fn allow_nil(&mut self);

    /// The type the current start tag's `xsi:type` names, as (namespace URI, local name),
    /// its prefix resolved with the bindings in scope; `None` without `xsi:type`. Borrowed
    /// from the source: nothing is copied ([`Source::xsi_type`] owns them).
    fn xsi_type_name(&mut self) -> Result<Option<(&str, &str)>, Self::Error>;

    /// [`Source::xsi_type_name`], owned: for a caller that reads on before it is done with
    /// the name.
    fn xsi_type(&mut self) -> Result<Option<(String, String)>, Self::Error> {
        let name = self.xsi_type_name()?;
        Ok(name.map(|(ns, local)| (ns.to_owned(), local.to_owned())))
    }

    /// Checks that the current start tag has no `xsi:type`, or one naming `{ns}local`: the
    /// type the parser reads it as (an element whose type has no derived types that may
    /// stand for it). An anonymous type (`local` empty) allows no `xsi:type`.
    fn check_xsi_type(&mut self, ns: &str, local: &str) -> Result<(), Self::Error> {
        match self.xsi_type_name()? {
            Some((n, l)) if local.is_empty() || n != ns || l != local => {
                let (n, l) = (n.to_owned(), l.to_owned());
                Err(self.not_derived(&n, &l))
            }
            _ => Ok(()),
        }
    }

    /// The error of an `xsi:type` naming `{ns}local`, a type that may not stand for the
    /// element's.
    #[cold]
    fn not_derived(&mut self, ns: &str, local: &str) -> Self::Error {
        let m =
            format!("xsi:type names {{{ns}}}{local}, which may not stand for the element's type");
        self.fail(Fault::new("cvc-elt.4.3", m))
    }

    /// Moves to the next child element of the current element: `true` at its start tag,
    /// `false` past the current element's end tag. White space, comments and processing
    /// instructions between children are skipped; other text is an error (element-only
    /// content).
    fn child(&mut self) -> Result<bool, Self::Error>;

    /// The current start tag's content is mixed: until its end tag, [`Source::child`]
    /// takes character data between its children (white space included) instead of
    /// refusing it, and keeps it, when `keep`, for [`Source::mixed_text`]. Called before
    /// its first child.
    fn mixed(&mut self, keep: bool);

    /// The text between the children of the mixed element that just ended (its end tag read
    /// by [`Source::child`]), in order, with where each run stands. Called once for every
    /// [`Source::mixed`], after the end tag.
    fn mixed_text(&mut self) -> Vec<MixedText>;

    /// Hands `f` the text kept so far in the innermost mixed element, and forgets it: what
    /// event readers call before each child's events and at the element's end, so the
    /// handler sees text and elements in document order.
    fn mixed_flush(&mut self, f: &mut dyn FnMut(&str));

    /// [`Source::child`], told the element the content model expects next: a source may
    /// compare its name in place instead of scanning one. It moves exactly as `child` does,
    /// whatever comes, and [`Source::at`] answers after it as after `child`.
    #[inline]
    fn child_expecting(&mut self, next: &Expected) -> Result<bool, Self::Error> {
        let _ = next;
        self.child()
    }

    /// The character data of the current element, to its end tag: the text of an element of
    /// simple type or simple content. A child element is an error. The text lives in the
    /// source until the next call.
    fn text(&mut self) -> Result<&str, Self::Error>;

    /// [`Source::text`] where a child element is not an error: `None` when one comes, and
    /// then the next [`Source::content`] step is that child's start (the text before it is
    /// dropped). For content whose verdict a child decides alone: an element of wildcard
    /// content whose `xsi:type` names a simple type.
    fn text_only(&mut self) -> Result<Option<&str>, Self::Error>;

    /// The next step through the content of the current element when it may hold both text
    /// and elements (mixed content, `xs:anyType`): a child's start tag, a run of character
    /// data (references replaced, comments and processing instructions left out), or the
    /// end, past its end tag. The text lives in the source until the next call.
    fn content(&mut self) -> Result<Content<'_>, Self::Error>;

    /// Moves past the end tag of the current element, which must be empty: no child and no
    /// character data (comments and processing instructions may be there).
    fn empty(&mut self) -> Result<(), Self::Error>;

    /// Reads to the end of the document after the root element (comments, processing
    /// instructions and white space only), and checks that every IDREF names an ID.
    fn finish(&mut self) -> Result<(), Self::Error>;

    /// The document's IDs and IDREFs so far.
    fn ids(&mut self) -> &mut Ids;

    /// Records the value of the current start tag's attribute `{ns}local`, if it has it, as
    /// an ID or IDREFs of `kind` (after the attribute's own conversion accepted it).
    fn id_attribute(&mut self, kind: IdKind, ns: &str, local: &str) -> Result<(), Self::Error> {
        let at = self.offset();
        let mut value = None;
        self.attributes(|n, l, v| {
            if n == ns && l == local {
                value = Some(v.to_owned());
            }
            Ok(())
        })?;
        match value {
            Some(v) => self.id_value(kind, &v, at),
            None => Ok(()),
        }
    }

    /// Records `value`, found at byte `at`, as an ID or IDREFs of `kind`.
    fn id_value(&mut self, kind: IdKind, value: &str, at: u64) -> Result<(), Self::Error> {
        let recorded = self.ids().record(kind, value, at);
        recorded.map_err(|f| self.fail_at(at, f))
    }

    /// The elements open: 1 at the root's start tag, 0 past its end tag.
    fn depth(&self) -> usize;

    /// The state of the document's identity constraints, which the source shows every start
    /// and end tag; `None` for a source that does not check them.
    fn tracker(&mut self) -> Option<&mut Tracker> {
        None
    }

    /// The current start tag's declaration has the identity constraints `ics` (indices into
    /// `constraints`, the schema's whole table): their scopes open here.
    fn identity_open(
        &mut self,
        constraints: &'static [Constraint],
        ics: &[usize],
    ) -> Result<(), Self::Error> {
        let (ns, local) = self.name();
        let name = (Text::from(ns), Text::from(local));
        let at = self.offset();
        let depth = self.depth().saturating_sub(1);
        match self.tracker() {
            Some(t) => t.open(constraints, ics, depth, name, at),
            None => {
                let m = "identity constraints are checked by the general path";
                return Err(self.fail(Fault::new("identity", m)));
            }
        }
        self.identity_check()
    }

    /// Whether fields select attributes of the current start tag: only then does generated
    /// code give their keys ([`Source::identity_attribute`]).
    fn identity_attributes_wanted(&mut self) -> bool {
        self.tracker().is_some_and(|t| t.wants_attributes())
    }

    /// The key of the current start tag's attribute `{ns}local`.
    fn identity_attribute(
        &mut self,
        ns: &str,
        local: &str,
        key: KeyPart,
    ) -> Result<(), Self::Error> {
        let at = self.offset();
        if let Some(t) = self.tracker() {
            t.attribute((Text::from(ns), Text::from(local)), &key, at);
        }
        self.identity_check()
    }

    /// Whether a scope of an identity constraint is open, so that the current element's value
    /// may be a field's (cheap, and creates nothing: most documents have no constraint).
    fn identity_active(&self) -> bool {
        false
    }

    /// Whether the element that just ended needs its value's key ([`Source::identity_value`]).
    fn identity_value_wanted(&mut self) -> bool {
        self.tracker().is_some_and(|t| t.wants_value())
    }

    /// The key of the value of the element that just ended (`None`: it has none) and whether
    /// it has a simple type or simple content.
    fn identity_value(
        &mut self,
        key: Option<KeyPart>,
        simple_typed: bool,
    ) -> Result<(), Self::Error> {
        if let Some(t) = self.tracker() {
            t.value(key, simple_typed);
        }
        self.identity_check()
    }

    /// The first identity-constraint error found, as this source's error.
    #[inline]
    fn identity_check(&mut self) -> Result<(), Self::Error> {
        match self.tracker().and_then(Tracker::error) {
            Some((constraint, message, at)) => {
                Err(self.fail_at(at, Fault::new(constraint, message)))
            }
            None => Ok(()),
        }
    }

    /// The error a generated parser gives where an element it expected is missing: at a
    /// start tag, that element is not allowed here; past an end tag, the content ended
    /// too early. `expected` names what would have been allowed.
    fn unexpected(&mut self, expected: &str) -> Self::Error;

    /// The byte offset of the current token, to place a fault found later at it
    /// ([`Source::fail_at`]): a value's error is reported at its element's start tag.
    fn offset(&self) -> u64;

    /// `fault`, placed at the token that started at byte `offset` (from [`Source::offset`]).
    fn fail_at(&mut self, offset: u64, fault: Fault) -> Self::Error;

    /// `fault`, placed at the current token.
    #[cold]
    fn fail(&mut self, fault: Fault) -> Self::Error {
        let at = self.offset();
        self.fail_at(at, fault)
    }
}

/// What an element of simple type does with its attribute `{ns}local`: nothing for
/// [`is_xsi_hint`]'s, a fault for the others.
pub(super) fn simple_type_attribute(ns: &str, local: &str) -> Result<(), Fault> {
    if is_xsi_hint(ns, local) {
        return Ok(());
    }
    Err(Fault::new(
        "cvc-type.3.1.1",
        format!("attribute '{local}' is not allowed on an element of simple type"),
    ))
}

/// Whether an attribute is one any element may have whatever its type: `xsi:type` (checked
/// apart, [`Source::check_xsi_type`]) and the schema-location hints.
fn is_xsi_hint(ns: &str, local: &str) -> bool {
    // The local name first: a short match, where the namespace is a 41-byte comparison.
    matches!(
        local,
        "type" | "schemaLocation" | "noNamespaceSchemaLocation"
    ) && crate::bytes::same_bytes(ns.as_bytes(), XSI.as_bytes())
}

/// What a generated reader does with an attribute its type does not declare: nothing for
/// `xsi:type` and the schema-location hints, a fault naming the attribute and `owner` (the
/// type) for the others.
pub fn other_attribute(ns: &str, local: &str, owner: &str) -> Result<(), Fault> {
    if is_xsi_hint(ns, local) {
        return Ok(());
    }
    Err(Fault::new(
        "cvc-complex-type.3.2.2",
        format!("attribute '{local}' is not allowed on <{owner}>"),
    ))
}

/// An element declaration's value constraint, as [`simple_element`] takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueConstraint<'s> {
    /// None.
    None,
    /// `default`: an empty element has this value.
    Default(&'s str),
    /// `fixed`: an empty element has this value; any other must equal it.
    Fixed(&'s str),
}

impl<'s> ValueConstraint<'s> {
    /// The text an element's value is read from: its own, or when empty the default or
    /// fixed value.
    #[inline(always)]
    fn text<'t>(self, text: &'t str) -> &'t str
    where
        's: 't,
    {
        match self {
            ValueConstraint::Default(d) | ValueConstraint::Fixed(d) if text.is_empty() => d,
            _ => text,
        }
    }

    /// Checks a value `v` read with `convert` against a fixed value.
    #[inline(always)]
    fn check<T: PartialEq>(
        self,
        v: &T,
        convert: impl Fn(&str) -> Result<T, Fault>,
    ) -> Result<(), Fault> {
        match self {
            ValueConstraint::Fixed(fixed) if convert(fixed).ok().as_ref() != Some(v) => {
                Err(not_fixed(fixed))
            }
            _ => Ok(()),
        }
    }
}

/// Reads an element of simple type, the source at its start tag, to its end tag: no
/// attributes but the `xsi:` ones, its text converted with `convert` (under the element's
/// value constraint). An `xsi:type` must name a type that `xsi_type` accepts, a type that may
/// stand for the declared one (it also checks the text against it). This is the body of
/// every generated `element_N`.
///
/// ```
/// use xwire::bind::{simple_element, value, Cursor, Fault, Source, ValueConstraint};
///
/// let no_xsi_type = |_: &str, _: &str, _: &str| Ok::<bool, Fault>(false);
/// let count = |s: &str| value::int::<u8>(s, 0, 9);
/// let mut c = Cursor::new(b"<n/>");
/// c.root()?;
/// let n = simple_element(&mut c, ValueConstraint::Default("3"), no_xsi_type, count)?;
/// assert_eq!(n, 3);
/// # Ok::<(), xwire::bind::Error>(())
/// ```
// Always inlined: the constraint is a constant at each call, and its branches fold away
// (a call costs 2% of a typed-objects run on po-8k).
#[inline(always)]
pub fn simple_element<S, T, X, F>(
    c: &mut S,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
{
    element_value(c, constraint, xsi_type, convert, None, |_| {})
}

/// [`simple_element`] that also hands the element's text (its default when empty and it has
/// one) to `text` before the checks that may fail it: the event API's simple values.
#[inline(always)]
pub fn simple_element_text<S, T, X, F, E>(
    c: &mut S,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
    text: E,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
    E: FnOnce(&str),
{
    element_value(c, constraint, xsi_type, convert, None, text)
}

/// [`simple_element`] for an element whose type is (derived from) `xs:ID`, `xs:IDREF` or a
/// list of IDREFs: its value is recorded in the source's [`Ids`] as `kind`.
#[inline(always)]
pub fn simple_id_element<S, T, X, F>(
    c: &mut S,
    kind: IdKind,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
{
    element_value(c, constraint, xsi_type, convert, Some(kind), |_| {})
}

/// [`simple_id_element`] that hands the text to `text`, as [`simple_element_text`] does.
#[inline(always)]
pub fn simple_id_element_text<S, T, X, F, E>(
    c: &mut S,
    kind: IdKind,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
    text: E,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
    E: FnOnce(&str),
{
    element_value(c, constraint, xsi_type, convert, Some(kind), text)
}

/// The value of a simple element. Inlined where it is called (the constraint and `id` are
/// constants there), but only the usual element's path: a bare start tag (no attributes, so
/// no `xsi:type`), no ID. Everything else is [`element_value_general`], out of line: inlined
/// at every field of every type, it made the readers of a small schema tens of kilobytes of
/// code, which cost more than the call when a document is read with a cold cache.
#[inline(always)]
fn element_value<S, T, X, F, E>(
    c: &mut S,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
    id: Option<IdKind>,
    on_text: E,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
    E: FnOnce(&str),
{
    if id.is_some() || !c.bare() {
        return element_value_general(c, constraint, xsi_type, convert, id, on_text);
    }
    let at = c.offset();
    let s = constraint.text(c.text()?);
    on_text(s);
    let v = convert(s).map_err(|f| c.fail_at(at, f))?;
    constraint
        .check(&v, &convert)
        .map_err(|f| c.fail_at(at, f))?;
    Ok(v)
}

#[cold]
fn not_fixed(fixed: &str) -> Fault {
    let m = format!("the value must be the fixed value '{fixed}'");
    Fault::new("cvc-elt.5.2.2.2.2", m)
}

/// [`element_value`] of any element: attributes (`xsi:type` among them), IDs, keys.
#[inline(never)]
fn element_value_general<S, T, X, F, E>(
    c: &mut S,
    constraint: ValueConstraint<'_>,
    xsi_type: X,
    convert: F,
    id: Option<IdKind>,
    on_text: E,
) -> Result<T, S::Error>
where
    S: Source,
    T: PartialEq,
    X: FnOnce(&str, &str, &str) -> Result<bool, Fault>,
    F: Fn(&str) -> Result<T, Fault>,
    E: FnOnce(&str),
{
    let at = c.offset();
    let xsi = c
        .xsi_type_name()?
        .map(|(ns, local)| KeptName::new(ns, local));
    // The value a field takes is of the type `xsi:type` names, when it names a built-in.
    let keyed = c.identity_active();
    c.no_attributes()?;
    let s = constraint.text(c.text()?);
    on_text(s);
    let named = xsi.as_ref().map(|n| {
        let (ns, local) = n.name();
        xsi_type(ns, local, s)
    });
    let v = convert(s);
    // Kept for the ID table only once the value converted (the source's text is borrowed).
    let id = match (id, &v) {
        (Some(kind), Ok(_)) => Some((kind, s.to_owned())),
        _ => None,
    };
    let xsi_key = match (&xsi, keyed) {
        (Some(KeptName::Builtin(b)), true) => Some(super::identity::lexical_key(*b, s)),
        _ => None,
    };
    match (named, xsi) {
        (Some(Ok(false)), Some(n)) => {
            let (ns, local) = n.name();
            return Err(c.not_derived(ns, local));
        }
        (Some(Err(f)), _) => return Err(c.fail_at(at, f)),
        _ => {}
    }
    let v = v.map_err(|f| c.fail_at(at, f))?;
    constraint
        .check(&v, &convert)
        .map_err(|f| c.fail_at(at, f))?;
    if let Some((kind, s)) = id {
        c.id_value(kind, &s, at)?;
    }
    // Given here, the key the generated code would give (of the declared type) is not asked.
    if let Some(key) = xsi_key {
        if c.identity_value_wanted() {
            c.identity_value(Some(key), true)?;
        }
    }
    Ok(v)
}

/// An `xsi:type` name kept past its start tag (an element's text is read before its value
/// is checked against the type), copied only when it names no built-in simple type: the
/// generated element readers and the readers of wildcard content (`bind::lax`) keep it so.
pub(super) enum KeptName {
    /// A built-in simple type (in the XML Schema namespace).
    Builtin(Builtin),
    /// Any other name, `{ns}local`.
    Other(String, String),
}

impl KeptName {
    // Always inline: once an item of a SOAP array, where a call showed in the profile.
    #[inline(always)]
    pub(super) fn new(ns: &str, local: &str) -> KeptName {
        if crate::bytes::same_bytes(ns.as_bytes(), super::any::XS.as_bytes()) {
            if let Some(b) = Builtin::from_name(local) {
                return KeptName::Builtin(b);
            }
        }
        KeptName::Other(ns.to_owned(), local.to_owned())
    }

    /// The name, as (namespace URI, local name).
    pub(super) fn name(&self) -> (&str, &str) {
        match self {
            KeptName::Builtin(b) => (super::any::XS, b.name()),
            KeptName::Other(ns, local) => (ns, local),
        }
    }
}

/// Reads a nillable element, the source at its start tag, to its end tag: `Nil` when its
/// `xsi:nil` is true (then `nil` checks it: attributes, empty content), else what `read`
/// reads.
///
/// ```
/// use xwire::bind::{nil_simple, nillable, value, Cursor, Nillable, Source};
///
/// let doc = br#"<n xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>"#;
/// let mut c = Cursor::new(doc);
/// c.root()?;
/// let n = nillable(&mut c, nil_simple, |c| value::int::<u8>(c.text()?, 0, 9).map_err(|f| c.fail(f)))?;
/// assert_eq!(n, Nillable::Nil);
/// # Ok::<(), xwire::bind::Error>(())
/// ```
#[inline]
pub fn nillable<S, T, N, F>(c: &mut S, nil: N, read: F) -> Result<Nillable<T>, S::Error>
where
    S: Source,
    N: FnOnce(&mut S) -> Result<(), S::Error>,
    F: FnOnce(&mut S) -> Result<T, S::Error>,
{
    match c.nil()? {
        true => nil(c).map(|()| Nillable::Nil),
        false => read(c).map(Nillable::Value),
    }
}

/// A nil element of simple type: no attributes but the `xsi:` ones, no content.
pub fn nil_simple<S: Source>(c: &mut S) -> Result<(), S::Error> {
    c.no_attributes()?;
    nil_content(c)
}

/// A nil element whose declaration has a fixed value: not allowed.
#[cold]
pub fn nil_fixed<S: Source>(c: &mut S) -> Result<(), S::Error> {
    let m = "an element whose declaration has a fixed value cannot be nil";
    Err(c.fail(Fault::new("cvc-elt.3.2.2", m)))
}

/// The content of a nil element: none (comments and processing instructions aside).
pub fn nil_content<S: Source>(c: &mut S) -> Result<(), S::Error> {
    let at = c.offset();
    c.empty().map_err(|_| {
        let m = "a nil element (xsi:nil=\"true\") must have no content";
        c.fail_at(at, Fault::new("cvc-elt.3.2.1", m))
    })
}
