//! Wildcards and `xs:anyType` content: elements a schema does not type, kept as owned XML,
//! and the elements among them that it does declare, read as the schema's documents.
//!
//! A generated parser reads an element matched by `xs:any` with [`Wildcard::read`] and an
//! element of type `xs:anyType` with [`AnyElement::read`]. What they do follows the
//! validator's assessment (`processContents`):
//!
//! - *strict*: the element must have a global declaration, and is read as that document;
//! - *lax*: an element with a global declaration is read as that document ([`Any::Known`]);
//!   another is kept as XML ([`Any::Other`]), its attributes checked against the global
//!   attribute declarations of their names and its children read laxly in turn; an
//!   `xsi:type` naming a simple type checks its text;
//! - *skip*: the element is kept as XML, unchecked (it is still well-formed).
//!
//! The schema's global declarations come from the generated `Document` type, through
//! [`Globals`].

use crate::bytes::same_str;
use std::borrow::Cow;
use std::fmt;

use crate::datatypes::Builtin;

use super::source::other_attribute;
use super::{value, Content, Fault, Source, Text, XSI};

/// The XML Schema namespace, whose built-in types `xsi:type` may name.
pub(super) const XS: &str = "http://www.w3.org/2001/XMLSchema";

/// What a schema's global declarations are, as generated code gives them to the readers of
/// wildcard content: the generated `Document` implements it.
pub trait Globals: Sized {
    /// The schema's named complex types, one variant each (the generated `Typed`): what an
    /// element of lax content is when its `xsi:type` names one of them.
    type Typed;

    /// The place of the schema's named complex type `{ns}local` among its complex types
    /// (what [`Globals::typed`] and the check and event readers take), `None` when it has
    /// none of that name. An `xsi:type` is looked up while its name is borrowed from the
    /// source, so that reading the element after copies nothing.
    fn complex_type(ns: &str, local: &str) -> Option<usize>;

    /// Reads the current element as the complex type at `index` ([`Globals::complex_type`]),
    /// the source at its start tag, left past its end tag; `None` (nothing read) for an
    /// index of no type.
    fn typed<S: Source>(c: &mut S, index: usize) -> Result<Option<Self::Typed>, S::Error>;

    /// Reads the current element as the document of its name, when a global element
    /// declaration has that name: the source at its start tag, left past its end tag.
    /// `None` (nothing read) when no declaration has the name.
    fn element<S: Source>(c: &mut S) -> Result<Option<Self>, S::Error>;

    /// Checks `value` against the global attribute declaration named `{ns}local`; `None`
    /// when there is none.
    fn attribute(ns: &str, local: &str, value: &str) -> Option<Result<(), Fault>>;

    /// What the schema's type named `{ns}local` makes of an element whose `xsi:type` names
    /// it and whose text is `text`.
    fn named_type(ns: &str, local: &str, text: &str) -> NamedType;
}

/// What a schema's type of some name is, for an `xsi:type` in wildcard content
/// ([`Globals::named_type`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NamedType {
    /// A simple type, and whether the element's text is valid for it.
    Simple(Result<(), Fault>),
    /// A complex type.
    Complex,
    /// No type of the schema has the name.
    None,
}

impl NamedType {
    /// The simple type `{ns}local`, whose values generated parsers do not check in wildcard
    /// content (they hold QNames, which resolve through an element's bindings): an error
    /// that names it.
    #[cold]
    pub fn unread(ns: &str, local: &str) -> NamedType {
        let m = format!("the simple type {{{ns}}}{local} is not read by generated parsers");
        NamedType::Simple(Err(Fault::new("cvc-elt.4.3", m)))
    }
}

/// `processContents`: how far the content a wildcard admits is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Process {
    /// Declared, and valid.
    Strict,
    /// Valid where declared.
    Lax,
    /// Not checked.
    Skip,
}

/// The namespaces a wildcard admits; the empty string stands for no namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Namespaces {
    /// `##any`.
    Any,
    /// `##other`: any namespace but this one, and not no namespace.
    Not(&'static str),
    /// A list of namespaces (`##local` is the empty string).
    In(&'static [&'static str]),
}

impl Namespaces {
    /// Whether a name in namespace `ns` (empty for none) is admitted.
    #[inline]
    pub fn admits(&self, ns: &str) -> bool {
        match self {
            Namespaces::Any => true,
            Namespaces::Not(not) => !ns.is_empty() && ns != *not,
            Namespaces::In(set) => set.contains(&ns),
        }
    }
}

/// An `xs:any` or `xs:anyAttribute`, as a constant of generated code.
///
/// ```
/// use xwire::bind::{Any, Cursor, Namespaces, Process, Source, Wildcard};
/// # use xwire::bind::{Fault, Globals, NamedType};
/// # enum Document {}
/// # impl Globals for Document {
/// #     type Typed = ();
/// #     fn complex_type(_: &str, _: &str) -> Option<usize> { None }
/// #     fn typed<S: Source>(_: &mut S, _: usize) -> Result<Option<()>, S::Error> { Ok(None) }
/// #     fn element<S: Source>(_: &mut S) -> Result<Option<Self>, S::Error> { Ok(None) }
/// #     fn attribute(_: &str, _: &str, _: &str) -> Option<Result<(), Fault>> { None }
/// #     fn named_type(_: &str, _: &str, _: &str) -> NamedType { NamedType::None }
/// # }
///
/// const OTHER: Wildcard = Wildcard {
///     namespaces: Namespaces::Not("urn:mine"),
///     process: Process::Lax,
/// };
/// let mut c = Cursor::new(br#"<x:note xmlns:x="urn:x" n="1">hi <b/></x:note>"#);
/// c.root()?;
/// assert!(OTHER.matches(&c));
/// let Any::<Document>::Other(note) = OTHER.read(&mut c)? else { unreachable!() };
/// assert_eq!((note.ns.as_str(), note.local.as_str()), ("urn:x", "note"));
/// assert_eq!(note.attributes[0].value, "1");
/// assert_eq!(note.children.len(), 2);
/// # Ok::<(), xwire::bind::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wildcard {
    /// The namespaces it admits.
    pub namespaces: Namespaces,
    /// How what it admits is checked.
    pub process: Process,
}

impl Wildcard {
    /// Whether the source's current start tag is an element this wildcard admits.
    #[inline]
    pub fn matches<S: Source>(&self, c: &S) -> bool {
        self.namespaces.admits(c.name().0)
    }

    /// Reads the current element, which this wildcard admits: the source at its start tag,
    /// left past its end tag.
    pub fn read<D: Globals, S: Source>(&self, c: &mut S) -> Result<Any<D>, S::Error> {
        if self.process == Process::Skip {
            return AnyElement::build(c, Process::Skip).map(Any::Other);
        }
        if let Some(d) = D::element(c)? {
            return Ok(Any::Known(Box::new(d)));
        }
        // Strict without a declaration: only an `xsi:type` can still give the element a type.
        if self.process == Process::Strict && c.xsi_type_name()?.is_none() {
            return Err(c.fail(Wildcard::undeclared(c.name())));
        }
        Any::lax(c)
    }

    /// The fault of an element `(ns, local)` that a strict wildcard admits and no global
    /// declaration names.
    #[cold]
    pub(super) fn undeclared((ns, local): (&str, &str)) -> Fault {
        let m = format!(
            "no declaration found for element {}, which a strict wildcard requires",
            display(ns, local)
        );
        Fault::new("cvc-complex-type.2.4.c", m)
    }

    /// What a reader does with attribute `{ns}local` of its element `owner`, which no
    /// attribute use of its type declares: keeps it in `kept` when this (attribute)
    /// wildcard admits it (checked as it says), ignores the `xsi:` attributes every element
    /// may have, and refuses the others.
    pub fn attribute<D: Globals>(
        &self,
        ns: &str,
        local: &str,
        value: &str,
        owner: &str,
        kept: &mut Vec<AnyAttribute>,
    ) -> Result<(), Fault> {
        // The `xsi:` attributes are never a wildcard's: the hints are allowed, the others
        // (`xsi:nil` where the element is not nillable) are not.
        if same_str(ns, XSI) || !self.namespaces.admits(ns) {
            return other_attribute(ns, local, owner);
        }
        match (self.process, D::attribute(ns, local, value)) {
            (Process::Skip, _) | (Process::Lax, None) => {}
            (_, Some(checked)) => checked?,
            (Process::Strict, None) => {
                let m = format!(
                    "attribute {} on <{owner}> matches a strict wildcard but has no declaration",
                    display(ns, local)
                );
                return Err(Fault::new("cvc-complex-type.3.2.2", m));
            }
        }
        kept.push(AnyAttribute::new(ns, local, value));
        Ok(())
    }
}

/// An element a wildcard matched, or of type `xs:anyType`: a document of the schema when a
/// global declaration has its name (wildcards only, and not `skip`), a value of one of its
/// complex types when its `xsi:type` names one, XML otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Any<D: Globals> {
    /// An element the schema declares, read as that document.
    Known(Box<D>),
    /// An element whose `xsi:type` names a complex type of the schema, read as that type.
    Typed(Box<TypedElement<D::Typed>>),
    /// Any other element, kept as XML. Boxed, as the other variants are: an `Any` is two
    /// words, so a wildcard's items (a SOAP array's thousand of them) move and grow their
    /// `Vec` by 16 bytes each, not by an element's 144.
    Other(Box<AnyElement<D>>),
}

impl<D: Globals> Any<D> {
    /// Reads the current element, declared of type `xs:anyType`: the source at its start
    /// tag, left past its end tag.
    pub fn read_any_type<S: Source>(c: &mut S) -> Result<Any<D>, S::Error> {
        Any::declared(c, false)
    }

    /// Reads a whole document with its root taken as `xs:anyType` (its content assessed
    /// laxly against `D`'s declarations), through the scanner and, when it gives up, the
    /// cursor: the generated `Document::from_slice_any_type`, the baseline that shows what
    /// the schema buys the typed objects.
    ///
    /// ```
    /// use xwire::bind::{Any, Fault, Globals, NamedType, Source};
    ///
    /// /// A schema that declares nothing.
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Nothing;
    /// impl Globals for Nothing {
    ///     type Typed = ();
    ///     fn complex_type(_: &str, _: &str) -> Option<usize> { None }
    ///     fn typed<S: Source>(_: &mut S, _: usize) -> Result<Option<()>, S::Error> { Ok(None) }
    ///     fn element<S: Source>(_: &mut S) -> Result<Option<Self>, S::Error> { Ok(None) }
    ///     fn attribute(_: &str, _: &str, _: &str) -> Option<Result<(), Fault>> { None }
    ///     fn named_type(_: &str, _: &str, _: &str) -> NamedType { NamedType::None }
    /// }
    ///
    /// let Any::Other(root) = Any::<Nothing>::from_slice_any_type(b"<a><b>x</b></a>")? else {
    ///     panic!("an element no declaration names is kept as XML");
    /// };
    /// assert_eq!((root.local.as_str(), root.children.len()), ("a", 1));
    /// # Ok::<(), xwire::bind::Error>(())
    /// ```
    pub fn from_slice_any_type(bytes: &[u8]) -> Result<Any<D>, super::Error> {
        fn read<D: Globals, S: Source>(c: &mut S) -> Result<Any<D>, S::Error> {
            c.root()?;
            let any = Any::read_any_type(c)?;
            c.finish()?;
            Ok(any)
        }
        match read(&mut super::Scanner::new(bytes)) {
            Ok(any) => Ok(any),
            Err(super::Fallback) => read(&mut super::Cursor::new(bytes)),
        }
    }

    /// [`Any::read_any_type`] for an element whose declaration blocks restriction: an
    /// `xsi:type` may name only `xs:anyType` itself (every simple type, and every complex
    /// type the parsers read this way, derives from it by restriction).
    pub fn read_own_type<S: Source>(c: &mut S) -> Result<Any<D>, S::Error> {
        Any::declared(c, true)
    }

    fn declared<S: Source>(c: &mut S, own_type: bool) -> Result<Any<D>, S::Error> {
        let simple = Any::<D>::prelude(c, own_type)?;
        let keyed = c.identity_active();
        let any = Any::lax(c)?;
        // Of a complex type unless `xsi:type` named a simple one: what a field may select,
        // with the key of its value when that type is a built-in.
        let key = match (&any, keyed) {
            (Any::Other(e), true) => e.builtin_key(),
            _ => None,
        };
        c.identity_value(key, simple)?;
        Ok(any)
    }

    /// The checks of an element declared of type `xs:anyType` before its content: no
    /// `xsi:nil`, and with `own_type` no `xsi:type` but `xs:anyType`. Whether its `xsi:type`
    /// names a simple type.
    pub(super) fn prelude<S: Source>(c: &mut S, own_type: bool) -> Result<bool, S::Error> {
        // Generated parsers refuse nillable declarations: this one is not.
        c.attributes(|ns, local, _| match same_str(ns, XSI) && local == "nil" {
            true => {
                let m = "the element is not nillable, so it may not have xsi:nil";
                Err(Fault::new("cvc-elt.3.1", m))
            }
            false => Ok(()),
        })?;
        if own_type {
            if let Some((ns, local)) = c.xsi_type_name()? {
                if !(same_str(ns, XS) && local == "anyType") {
                    let m = format!(
                        "xsi:type names {}: the declaration blocks derivation by restriction",
                        display(ns, local)
                    );
                    return Err(c.fail(Fault::new("cvc-elt.4.3", m)));
                }
            }
        }
        Any::<D>::simple_xsi_type(c)
    }

    /// Whether the current start tag's `xsi:type` names a simple type.
    fn simple_xsi_type<S: Source>(c: &mut S) -> Result<bool, S::Error> {
        Ok(match c.xsi_type_name()? {
            Some((ns, local)) if same_str(ns, XS) => local != "anyType",
            Some((ns, local)) => matches!(D::named_type(ns, local, ""), NamedType::Simple(_)),
            None => false,
        })
    }

    /// A nil element of type `xs:anyType`: its attributes checked laxly (none allowed when
    /// its `xsi:type` names a simple type), no content.
    pub fn read_nil<S: Source>(c: &mut S) -> Result<(), S::Error> {
        let simple = Any::<D>::simple_xsi_type(c)?;
        c.attributes(|ns, local, value| match (same_str(ns, XSI), simple) {
            (true, _) => Ok(()),
            (false, true) => super::source::simple_type_attribute(ns, local),
            (false, false) => D::attribute(ns, local, value).unwrap_or(Ok(())),
        })?;
        super::nil_content(c)?;
        c.identity_value(None, simple)
    }

    /// Reads a document's root that no global declaration names (the generated
    /// `Document::Undeclared`): its `xsi:type` gives it a type, as the validator assesses
    /// such a root (XML Schema 1.0, 3.3.4, Schema-Validity Assessment (Element), 1.2): a
    /// complex type's reader, a simple type's value check, `xs:anyType`'s lax content.
    /// `None`, the source left at the start tag, when it has no `xsi:type`: then the root
    /// is not valid.
    ///
    /// ```
    /// use xwire::bind::{Any, Fault, Globals, NamedType, Scanner, Source};
    ///
    /// /// A schema that declares nothing.
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Nothing;
    /// impl Globals for Nothing {
    ///     type Typed = ();
    ///     fn complex_type(_: &str, _: &str) -> Option<usize> { None }
    ///     fn typed<S: Source>(_: &mut S, _: usize) -> Result<Option<()>, S::Error> { Ok(None) }
    ///     fn element<S: Source>(_: &mut S) -> Result<Option<Self>, S::Error> { Ok(None) }
    ///     fn attribute(_: &str, _: &str, _: &str) -> Option<Result<(), Fault>> { None }
    ///     fn named_type(_: &str, _: &str, _: &str) -> NamedType { NamedType::None }
    /// }
    ///
    /// let xsi = r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
    /// let xs = r#"xmlns:xs="http://www.w3.org/2001/XMLSchema""#;
    /// let doc = format!(r#"<n {xsi} {xs} xsi:type="xs:int">42</n>"#);
    /// let mut s = Scanner::new(doc.as_bytes());
    /// s.root().unwrap();
    /// let Some(Any::Other(n)) = Any::<Nothing>::read_root(&mut s).unwrap() else {
    ///     panic!("a root typed by xsi:type");
    /// };
    /// assert_eq!(n.xsi_type.as_ref().map(|(_, l)| l.as_str()), Some("int"));
    ///
    /// let doc = format!(r#"<n {xsi} {xs} xsi:type="xs:int">forty-two</n>"#);
    /// let mut s = Scanner::new(doc.as_bytes());
    /// s.root().unwrap();
    /// assert!(Any::<Nothing>::read_root(&mut s).is_err(), "not an int");
    ///
    /// let mut s = Scanner::new(b"<n>42</n>");
    /// s.root().unwrap();
    /// assert!(Any::<Nothing>::read_root(&mut s).unwrap().is_none(), "no type at all");
    /// ```
    pub fn read_root<S: Source>(c: &mut S) -> Result<Option<Any<D>>, S::Error> {
        if c.xsi_type_name()?.is_none() {
            return Ok(None);
        }
        Any::lax(c).map(Some)
    }

    /// The current element assessed laxly, without looking for a global declaration.
    fn lax<S: Source>(c: &mut S) -> Result<Any<D>, S::Error> {
        match Any::<D>::typed(c)? {
            Some(t) => Ok(Any::Typed(Box::new(t))),
            None => AnyElement::build(c, Process::Lax).map(Any::Other),
        }
    }

    /// The current element read as the complex type its `xsi:type` names, if it names one.
    fn typed<S: Source>(c: &mut S) -> Result<Option<TypedElement<D::Typed>>, S::Error> {
        let index = match c.xsi_type_name()? {
            Some((ns, local)) if !same_str(ns, XS) => D::complex_type(ns, local),
            _ => None,
        };
        let Some(index) = index else {
            return Ok(None);
        };
        let (ns, local) = c.name();
        let (ns, local) = (Text::from(ns), Text::from(local));
        Ok(D::typed(c, index)?.map(|value| TypedElement { ns, local, value }))
    }
}

/// An element read as the complex type its `xsi:type` names: its name and the value.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedElement<T> {
    /// The element's namespace URI, empty for none.
    pub ns: Text,
    /// The element's local name.
    pub local: Text,
    /// The value, of the type `xsi:type` named (a variant of the generated `Typed`).
    pub value: T,
}

/// An element kept as XML: its expanded name, attributes (namespace declarations left out)
/// and content; comments and processing instructions are not kept. Descendants that the
/// schema declares are read as its documents (unless skipped).
// Clone, Debug and PartialEq are written out below: derived, they would ask them of `D`
// alone, not of `D::Typed` inside the children.
pub struct AnyElement<D: Globals> {
    /// The namespace URI, empty for none.
    pub ns: Text,
    /// The local name.
    pub local: Text,
    /// The attributes, in document order.
    pub attributes: Vec<AnyAttribute>,
    /// The type its `xsi:type` names, resolved as (namespace URI, local name), and then left
    /// out of `attributes`. Not read in skipped content, where the attribute is kept as
    /// written.
    pub xsi_type: Option<(Text, Text)>,
    /// The content: text and elements in document order.
    pub children: Vec<AnyNode<D>>,
}

/// A piece of an [`AnyElement`]'s content.
pub enum AnyNode<D: Globals> {
    /// Character data, white space included.
    Text(Text),
    /// A child element.
    Element(Any<D>),
}

impl<D: Globals> AnyElement<D> {
    /// The identity key of the element's text as the built-in type its `xsi:type` names,
    /// if it names one and the element holds text alone (checked by then).
    fn builtin_key(&self) -> Option<super::identity::KeyPart> {
        let (ns, local) = self.xsi_type.as_ref()?;
        if !same_str(ns, XS) {
            return None;
        }
        let b = Builtin::from_name(local)?;
        Some(super::identity::lexical_key(b, &self.text_only()?))
    }

    /// The element's text, copied only when it is in pieces; `None` when it has an element
    /// child.
    fn text_only(&self) -> Option<Cow<'_, str>> {
        let mut text = Cow::Borrowed("");
        for n in &self.children {
            match n {
                AnyNode::Text(t) if text.is_empty() => text = Cow::Borrowed(t),
                AnyNode::Text(t) => text.to_mut().push_str(t),
                AnyNode::Element(_) => return None,
            }
        }
        Some(text)
    }
}

impl<D: Globals> Clone for AnyElement<D>
where
    Any<D>: Clone,
{
    fn clone(&self) -> Self {
        AnyElement {
            ns: self.ns.clone(),
            local: self.local.clone(),
            attributes: self.attributes.clone(),
            xsi_type: self.xsi_type.clone(),
            children: self.children.clone(),
        }
    }
}

impl<D: Globals> fmt::Debug for AnyElement<D>
where
    Any<D>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyElement")
            .field("ns", &self.ns)
            .field("local", &self.local)
            .field("attributes", &self.attributes)
            .field("xsi_type", &self.xsi_type)
            .field("children", &self.children)
            .finish()
    }
}

impl<D: Globals> PartialEq for AnyElement<D>
where
    Any<D>: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.ns == other.ns
            && self.local == other.local
            && self.attributes == other.attributes
            && self.xsi_type == other.xsi_type
            && self.children == other.children
    }
}

impl<D: Globals> Clone for AnyNode<D>
where
    Any<D>: Clone,
{
    fn clone(&self) -> Self {
        match self {
            AnyNode::Text(t) => AnyNode::Text(t.clone()),
            AnyNode::Element(e) => AnyNode::Element(e.clone()),
        }
    }
}

impl<D: Globals> fmt::Debug for AnyNode<D>
where
    Any<D>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyNode::Text(t) => f.debug_tuple("Text").field(t).finish(),
            AnyNode::Element(e) => f.debug_tuple("Element").field(e).finish(),
        }
    }
}

impl<D: Globals> PartialEq for AnyNode<D>
where
    Any<D>: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (AnyNode::Text(a), AnyNode::Text(b)) => a == b,
            (AnyNode::Element(a), AnyNode::Element(b)) => a == b,
            _ => false,
        }
    }
}

/// An attribute kept as it is: one that a wildcard admitted, or one of an [`AnyElement`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnyAttribute {
    /// The namespace URI, empty for none.
    pub ns: Text,
    /// The local name.
    pub local: Text,
    /// The normalised value.
    pub value: Text,
}

impl AnyAttribute {
    fn new(ns: &str, local: &str, value: &str) -> AnyAttribute {
        AnyAttribute {
            ns: ns.into(),
            local: local.into(),
            value: value.into(),
        }
    }
}

/// An element of [`AnyElement::build`] whose end tag is still to come.
struct Open<D: Globals> {
    /// The element so far; its `xsi_type` is checked against its content at its end. Boxed
    /// from its start tag on, where it will end up: then it moves as a pointer.
    element: Box<AnyElement<D>>,
    /// Where its start tag is, for the faults found at its end.
    at: u64,
}

impl<D: Globals> AnyElement<D> {
    /// Reads the current element, `process` being lax or skip. Iterative, so that deep
    /// nesting costs heap, not stack; declared descendants recurse into `D`'s readers.
    pub(super) fn build<S: Source>(
        c: &mut S,
        process: Process,
    ) -> Result<Box<AnyElement<D>>, S::Error> {
        // The innermost open element, and those around it (none for most elements: a leaf
        // of wildcard content allocates no stack).
        let mut top = AnyElement::open(c, process)?;
        let mut below: Vec<Open<D>> = Vec::new();
        loop {
            match c.content()? {
                Content::Text(t) => {
                    let children = &mut top.element.children;
                    // Most elements kept as XML hold text alone: room for one node, not four.
                    if children.is_empty() {
                        children.reserve_exact(1);
                    }
                    children.push(AnyNode::Text(t.into()));
                }
                Content::Start => {
                    if process == Process::Lax {
                        if let Some(d) = D::element(c)? {
                            let known = AnyNode::Element(Any::Known(Box::new(d)));
                            top.element.children.push(known);
                            continue;
                        }
                        if let Some(t) = Any::<D>::typed(c)? {
                            let typed = AnyNode::Element(Any::Typed(Box::new(t)));
                            top.element.children.push(typed);
                            continue;
                        }
                    }
                    let child = AnyElement::open(c, process)?;
                    below.push(std::mem::replace(&mut top, child));
                }
                Content::End => {
                    if let Some((ns, local)) = &top.element.xsi_type {
                        if let Err(f) = check_named_type::<D>(&top.element, ns, local) {
                            return Err(c.fail_at(top.at, f));
                        }
                    }
                    match below.pop() {
                        Some(parent) => {
                            let done = std::mem::replace(&mut top, parent);
                            let e = AnyNode::Element(Any::Other(done.element));
                            top.element.children.push(e);
                        }
                        None => return Ok(top.element),
                    }
                }
            }
        }
    }

    /// The current start tag as an open element: its name, its attributes (checked against
    /// the global attribute declarations when lax) and its `xsi:type`.
    fn open<S: Source>(c: &mut S, process: Process) -> Result<Open<D>, S::Error> {
        let at = c.offset();
        let (ns, local) = c.name();
        let (ns, local) = (Text::from(ns), Text::from(local));
        let xsi_type = match process {
            Process::Skip => None,
            _ => c
                .xsi_type_name()?
                .map(|(ns, local)| (Text::from(ns), Text::from(local))),
        };
        let mut attributes = Vec::new();
        c.attributes(|ns, local, value| {
            if process != Process::Skip && !same_str(ns, XSI) {
                if let Some(checked) = D::attribute(ns, local, value) {
                    checked?;
                }
            }
            // A resolved `xsi:type` is kept as a name: its prefix means nothing elsewhere.
            if !(xsi_type.is_some() && same_str(ns, XSI) && local == "type") {
                attributes.push(AnyAttribute::new(ns, local, value));
            }
            Ok(())
        })?;
        Ok(Open {
            element: Box::new(AnyElement {
                ns,
                local,
                attributes,
                xsi_type,
                children: Vec::new(),
            }),
            at,
        })
    }
}

/// Checks an element of wildcard content whose `xsi:type` names `{ns}local` against that
/// type: `xs:anyType` allows anything; a simple type, text valid for it and no attributes
/// but the `xsi:` ones.
fn check_named_type<D: Globals>(e: &AnyElement<D>, ns: &str, local: &str) -> Result<(), Fault> {
    if same_str(ns, XS) && local == "anyType" {
        return Ok(());
    }
    // The text, or why there is none to check: an element child.
    let text = e.text_only().ok_or_else(simple_with_children);
    let s = text.as_deref().unwrap_or("");
    let checked = match same_str(ns, XS) {
        true => match value::builtin_derived(local, Builtin::AnySimpleType, s) {
            Ok(true) => NamedType::Simple(Ok(())),
            Ok(false) => NamedType::None,
            Err(f) => NamedType::Simple(Err(f)),
        },
        false => D::named_type(ns, local, s),
    };
    match checked {
        NamedType::Simple(r) => {
            text?;
            r?;
            for a in &e.attributes {
                super::source::simple_type_attribute(&a.ns, &a.local)?;
            }
            Ok(())
        }
        // Read as `Any::Typed` at the start tag: only a type the schema has no reader for.
        NamedType::Complex => Err(no_reader(ns, local)),
        NamedType::None => Err(undefined(ns, local)),
    }
}

/// The fault of an element of wildcard content whose `xsi:type` names a simple type, and
/// which has an element child.
#[cold]
pub(super) fn simple_with_children() -> Fault {
    let m = "an element of simple type cannot have element children";
    Fault::new("cvc-type.3.1.2", m)
}

/// The fault of an `xsi:type` in wildcard content naming complex type `{ns}local`, which
/// has no reader.
#[cold]
pub(super) fn no_reader(ns: &str, local: &str) -> Fault {
    let m = format!(
        "xsi:type names the complex type {}, which has no reader",
        display(ns, local)
    );
    Fault::new("cvc-elt.4.3", m)
}

/// The fault of an `xsi:type` naming `{ns}local`, which the schema does not define.
#[cold]
pub(super) fn undefined(ns: &str, local: &str) -> Fault {
    let m = format!(
        "xsi:type names {}, a type the schema does not define",
        display(ns, local)
    );
    Fault::new("cvc-elt.4.2", m)
}

pub(super) fn display(ns: &str, local: &str) -> String {
    match ns.is_empty() {
        true => format!("'{local}'"),
        false => format!("'{{{ns}}}{local}'"),
    }
}

/// Checks `value` against a simple type, through its conversion `convert`, and against the
/// declaration's fixed value if it has one: the check of an attribute that a wildcard
/// admitted and a global declaration names.
///
/// ```
/// use xwire::bind::{check_value, value};
///
/// let count = |s: &str| value::int::<u8>(s, 0, 9);
/// assert!(check_value(count, "3", None).is_ok());
/// assert!(check_value(count, "12", None).is_err());
/// assert!(check_value(count, " 3", Some("3")).is_ok());
/// assert!(check_value(count, "4", Some("3")).is_err());
/// ```
pub fn check_value<T, F>(convert: F, value: &str, fixed: Option<&str>) -> Result<(), Fault>
where
    T: PartialEq,
    F: Fn(&str) -> Result<T, Fault>,
{
    let v = convert(value)?;
    match fixed {
        Some(fixed) if convert(fixed).ok().as_ref() != Some(&v) => {
            let m = format!("the value must be the fixed value '{fixed}'");
            Err(Fault::new("cvc-attribute.4", m))
        }
        _ => Ok(()),
    }
}
