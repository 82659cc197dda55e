//! The serializer side of generated code: typed values back to XML through an [`XmlSink`],
//! so the same call writes text ([`crate::Writer`]) or binary XML
//! ([`crate::binary::BinaryWriter`], where numbers stay typed and numeric lists go out as
//! packed arrays).
//!
//! Generated code implements [`Lexical`] for the items of simple types (enumerations,
//! newtypes, unions) and [`Content`] for the items that hold attributes and elements; the
//! functions here write one element around them. What they write reads back, through the
//! generated parser, to an equal value: date/time values keep their timezone, floats their
//! shortest exact digits, and names their namespaces (prefixes are chosen by the writer).
//!
//! What the values do not hold cannot be written back:
//! - the lexical form of a value that is not a string: a pattern facet that asks for one
//!   form may reject the form written. Booleans and floats have a second form
//!   ([`Lexical::other_form`]: `1`, `1.0E-2`) that generated newtypes fall back on; three
//!   fraction digits on a time or months on a duration are not met;
//! - an `xsi:type` that named a simple type derived from an element's declared simple type;
//! - the attributes of a nil element ([`Nillable::Nil`](super::Nillable));
//! - the prefixes of kept XML ([`AnyElement`]): a QName in its text may not resolve as it
//!   did (its `xsi:type` is kept resolved and written with a new prefix).
//!
//! ```
//! use xwire::bind::write::{self, Name};
//!
//! let qty = Name { ns: "urn:po", prefix: "po", local: "qty" };
//! let xml = write::to_string(|s| write::simple(s, qty, &42u8))?;
//! assert_eq!(xml, r#"<po:qty xmlns:po="urn:po">42</po:qty>"#);
//! # Ok::<(), write::WriteError>(())
//! ```

use std::borrow::Cow;

use super::{Any, AnyAttribute, AnyElement, AnyNode, Decimal, Duration, Integer, MixedText};
use super::{Date, DateTime, GDay, GMonth, GMonthDay, GYear, GYearMonth, Nillable, Time, XSI};
use super::{QName, Text};
use crate::binary::{push_base64, Array, TypedValue};
use crate::writer::Writer;

pub use crate::writer::{WriteError, XmlSink};

/// An element's expanded name and the prefix to prefer for its namespace (empty for no
/// namespace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<'a> {
    /// The namespace URI, empty for none.
    pub ns: &'a str,
    /// The prefix to bind it to where it is not bound already; ignored without a namespace.
    pub prefix: &'a str,
    /// The local name.
    pub local: &'a str,
}

impl Name<'_> {
    fn start<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        // No prefix asked for: the writer binds one (or the default namespace).
        let prefix = (!self.ns.is_empty() && !self.prefix.is_empty()).then_some(self.prefix);
        s.start_element_ns(self.ns, self.local, prefix)
    }
}

/// A value of a simple type: its lexical form, and how it goes into element content.
pub trait Lexical {
    /// Appends the lexical form, one the type's parser reads back to an equal value.
    fn lexical(&self, out: &mut String);

    /// Writes the value as the content of the open element: as text, or typed where the
    /// sink keeps types.
    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        let mut t = String::new();
        self.lexical(&mut t);
        s.text(&t)
    }

    /// Appends another lexical form of the value, for a type whose pattern facet rejects the
    /// first (`1` for `true`, `1.0E-2` for `0.01`); `false` when there is none.
    fn other_form(&self, out: &mut String) -> bool {
        let _ = out;
        false
    }

    /// Binds, on the element just started, the prefixes the lexical form uses: a QName's
    /// ([`QName`]); nothing for other values. Called before the value is written.
    fn declare<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        let _ = s;
        Ok(())
    }

    /// Writes the items of a list type, separated by spaces (a packed array for numbers).
    fn write_list<S: XmlSink + ?Sized>(items: &[Self], s: &mut S) -> Result<(), WriteError>
    where
        Self: Sized,
    {
        let mut t = String::new();
        List(items).lexical(&mut t);
        s.text(&t)
    }
}

/// The items of a list type: their lexical forms separated by single spaces.
#[derive(Clone, Copy, Debug)]
pub struct List<'a, T>(pub &'a [T]);

impl<T: Lexical> Lexical for List<'_, T> {
    fn lexical(&self, out: &mut String) {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            v.lexical(out);
        }
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        T::write_list(self.0, s)
    }

    fn declare<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        self.0.iter().try_for_each(|v| v.declare(s))
    }
}

/// Bytes of an `xs:hexBinary`: upper-case digits, the canonical form.
#[derive(Clone, Copy, Debug)]
pub struct Hex<'a>(pub &'a [u8]);

impl Lexical for Hex<'_> {
    fn lexical(&self, out: &mut String) {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        out.reserve(self.0.len() * 2);
        for &b in self.0 {
            out.push(DIGITS[usize::from(b >> 4)] as char);
            out.push(DIGITS[usize::from(b & 15)] as char);
        }
    }
}

/// Bytes of an `xs:base64Binary`: padded, without line breaks.
#[derive(Clone, Copy, Debug)]
pub struct Base64<'a>(pub &'a [u8]);

impl Lexical for Base64<'_> {
    fn lexical(&self, out: &mut String) {
        push_base64(out, self.0);
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        s.value(TypedValue::Bytes(self.0))
    }
}

impl Lexical for str {
    fn lexical(&self, out: &mut String) {
        out.push_str(self);
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        s.text(self)
    }
}

impl Lexical for Text {
    fn lexical(&self, out: &mut String) {
        out.push_str(self);
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        s.text(self)
    }
}

/// `prefix:local`, the prefix declared on the element ([`Lexical::declare`]): the one the
/// value was read with, or the default namespace for a value without one (undone, for a name
/// in no namespace). A declaration that clashes with one the element already has is an
/// error.
impl Lexical for QName {
    fn lexical(&self, out: &mut String) {
        if !self.prefix.is_empty() && !self.ns.is_empty() {
            out.push_str(&self.prefix);
            out.push(':');
        }
        out.push_str(&self.local);
    }

    fn declare<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        match (self.ns.is_empty(), self.prefix.is_empty()) {
            (true, _) => s.namespace(None, ""),
            (false, true) => s.namespace(None, &self.ns),
            // Bound everywhere, and not to be declared.
            (false, false) if &*self.prefix == "xml" => Ok(()),
            (false, false) => s.namespace(Some(&self.prefix), &self.ns),
        }
    }
}

impl<T: Lexical + ?Sized> Lexical for &T {
    fn lexical(&self, out: &mut String) {
        (**self).lexical(out);
    }

    fn declare<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        (**self).declare(s)
    }

    fn other_form(&self, out: &mut String) -> bool {
        (**self).other_form(out)
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        (**self).write_text(s)
    }
}

impl<T: Lexical + ?Sized> Lexical for Box<T> {
    fn lexical(&self, out: &mut String) {
        (**self).lexical(out);
    }

    fn declare<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        (**self).declare(s)
    }

    fn other_form(&self, out: &mut String) -> bool {
        (**self).other_form(out)
    }

    fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        (**self).write_text(s)
    }
}

/// Numbers and booleans: typed in the sink, so binary XML keeps them binary and packs their
/// lists as arrays.
macro_rules! typed {
    ($($ty:ident => $variant:ident),* $(,)?) => {
        $(
            impl Lexical for $ty {
                fn lexical(&self, out: &mut String) {
                    TypedValue::$variant(*self).write_text(out);
                }

                fn write_text<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
                    s.value(TypedValue::$variant(*self))
                }

                fn write_list<S: XmlSink + ?Sized>(items: &[$ty], s: &mut S) -> Result<(), WriteError> {
                    s.array(&Array::$variant(Cow::Borrowed(items)))
                }

                fn other_form(&self, out: &mut String) -> bool {
                    other_form(TypedValue::$variant(*self), out)
                }
            }
        )*
    };
}

typed! {
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64,
    f32 => F32, f64 => F64, bool => Bool,
}

/// The second form of a number or boolean: digits for a boolean, XML Schema's canonical
/// form (mantissa and exponent) for a float.
fn other_form(v: TypedValue<'_>, out: &mut String) -> bool {
    use crate::datatypes::Value;
    match v {
        TypedValue::Bool(b) => out.push_str(if b { "1" } else { "0" }),
        TypedValue::F32(f) => out.push_str(&Value::Float(f).canonical()),
        TypedValue::F64(f) => out.push_str(&Value::Double(f).canonical()),
        _ => return false,
    }
    true
}

impl Lexical for Decimal {
    fn lexical(&self, out: &mut String) {
        // XML Schema 1.1's canonical form: no `.0` on a whole number (patterns written for
        // integers in decimal types accept it).
        let c = self.canonical_decimal();
        out.push_str(c.strip_suffix(".0").unwrap_or(&c));
    }
}

impl Lexical for Integer {
    fn lexical(&self, out: &mut String) {
        out.push_str(&self.0.canonical_integer());
    }
}

impl Lexical for Duration {
    fn lexical(&self, out: &mut String) {
        out.push_str(&self.canonical());
    }
}

macro_rules! temporal {
    ($($ty:ident),*) => {
        $(
            impl Lexical for $ty {
                fn lexical(&self, out: &mut String) {
                    out.push_str(&self.0.lexical());
                }
            }
        )*
    };
}

temporal!(DateTime, Time, Date, GYearMonth, GYear, GMonthDay, GDay, GMonth);

/// A value that is an element's attributes and content: what generated code implements for
/// complex types and for the groups of their content (which write child elements only).
pub trait Content {
    /// Writes the attributes, then the content, of the element the caller has just started
    /// (a group: its elements, inside the open element).
    fn write_content<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError>;
}

impl<T: Content + ?Sized> Content for Box<T> {
    fn write_content<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        (**self).write_content(s)
    }
}

/// The sink a mixed element's children are written through: before each child at its own
/// level it writes the text runs that stand before that child ([`MixedText::before`]), and
/// [`Interleave::finish`] writes those after the last.
///
/// It holds the sink as `&mut dyn XmlSink`, so a mixed type inside a mixed type writes
/// through one more `Interleave`, not through a type that nests without end.
///
/// ```
/// use xwire::bind::write::{self, Interleave, Name};
/// use xwire::bind::MixedText;
/// use xwire::writer::XmlSink;
///
/// let text = [MixedText::new(0, "Hello "), MixedText::new(1, ", all.")];
/// let b = Name { ns: "", prefix: "", local: "b" };
/// let xml = write::to_string(|s| {
///     s.start_element("p")?;
///     let mut inner = &mut *s;
///     let s = &mut Interleave::new(&mut inner, &text);
///     write::simple(s, b, "you")?;
///     s.finish()?;
///     s.end_element()
/// })?;
/// assert_eq!(xml, "<p>Hello <b>you</b>, all.</p>");
/// # Ok::<(), write::WriteError>(())
/// ```
pub struct Interleave<'s, 't> {
    inner: &'s mut dyn XmlSink,
    text: &'t [MixedText],
    /// The next run to write.
    next: usize,
    /// The children started so far at the level of the runs.
    children: u32,
    /// Elements open through this sink.
    depth: usize,
}

impl<'s, 't> Interleave<'s, 't> {
    /// Writes `text` between the children written through it into `inner`.
    pub fn new(inner: &'s mut dyn XmlSink, text: &'t [MixedText]) -> Interleave<'s, 't> {
        Interleave {
            inner,
            text,
            next: 0,
            children: 0,
            depth: 0,
        }
    }

    /// Writes the runs that stand before the child starting now, if it is one of the level.
    fn child(&mut self) -> Result<(), WriteError> {
        if self.depth == 0 {
            self.runs(Some(self.children))?;
            self.children += 1;
        }
        self.depth += 1;
        Ok(())
    }

    /// Writes the runs up to place `upto` (`None`: all that are left).
    fn runs(&mut self, upto: Option<u32>) -> Result<(), WriteError> {
        while let Some(run) = self.text.get(self.next) {
            if upto.is_some_and(|n| run.before > n) {
                break;
            }
            self.inner.text(&run.text)?;
            self.next += 1;
        }
        Ok(())
    }

    /// Writes the runs after the last child (and any that stand further than the children
    /// written).
    pub fn finish(&mut self) -> Result<(), WriteError> {
        self.runs(None)
    }
}

impl XmlSink for Interleave<'_, '_> {
    fn start_element(&mut self, qname: &str) -> Result<(), WriteError> {
        self.child()?;
        self.inner.start_element(qname)
    }

    fn start_element_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
    ) -> Result<(), WriteError> {
        self.child()?;
        self.inner.start_element_ns(uri, local, prefix)
    }

    fn attribute(&mut self, qname: &str, value: &str) -> Result<(), WriteError> {
        self.inner.attribute(qname, value)
    }

    fn attribute_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<(), WriteError> {
        self.inner.attribute_ns(uri, local, prefix, value)
    }

    fn namespace(&mut self, prefix: Option<&str>, uri: &str) -> Result<(), WriteError> {
        self.inner.namespace(prefix, uri)
    }

    fn text(&mut self, text: &str) -> Result<(), WriteError> {
        self.inner.text(text)
    }

    fn cdata(&mut self, text: &str) -> Result<(), WriteError> {
        self.inner.cdata(text)
    }

    fn comment(&mut self, text: &str) -> Result<(), WriteError> {
        self.inner.comment(text)
    }

    fn processing_instruction(&mut self, target: &str, data: &str) -> Result<(), WriteError> {
        self.inner.processing_instruction(target, data)
    }

    fn end_element(&mut self) -> Result<(), WriteError> {
        self.depth = self.depth.saturating_sub(1);
        self.inner.end_element()
    }

    fn write_event(&mut self, event: &crate::Event<'_>) -> Result<(), WriteError> {
        match event {
            crate::Event::Start(_) => self.child()?,
            crate::Event::End(_) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.inner.write_event(event)
    }

    fn value(&mut self, value: TypedValue<'_>) -> Result<(), WriteError> {
        self.inner.value(value)
    }

    fn array(&mut self, array: &Array<'_>) -> Result<(), WriteError> {
        self.inner.array(array)
    }
}

/// The attribute `{ns}local` (no prefix needed without a namespace) of value `v`.
pub fn attribute<S, T>(s: &mut S, name: Name<'_>, v: &T) -> Result<(), WriteError>
where
    S: XmlSink + ?Sized,
    T: Lexical + ?Sized,
{
    v.declare(s)?;
    let mut t = String::new();
    v.lexical(&mut t);
    let prefix = (!name.ns.is_empty() && !name.prefix.is_empty()).then_some(name.prefix);
    s.attribute_ns(name.ns, name.local, prefix, &t)
}

/// The attributes an attribute wildcard kept.
pub fn other_attributes<S: XmlSink + ?Sized>(
    s: &mut S,
    attributes: &[AnyAttribute],
) -> Result<(), WriteError> {
    for a in attributes {
        s.attribute_ns(&a.ns, &a.local, None, &a.value)?;
    }
    Ok(())
}

/// An element of a simple type.
pub fn simple<S, T>(s: &mut S, name: Name<'_>, v: &T) -> Result<(), WriteError>
where
    S: XmlSink + ?Sized,
    T: Lexical + ?Sized,
{
    name.start(s)?;
    v.declare(s)?;
    v.write_text(s)?;
    s.end_element()
}

/// An element of a complex type.
pub fn element<S, T>(s: &mut S, name: Name<'_>, v: &T) -> Result<(), WriteError>
where
    S: XmlSink + ?Sized,
    T: Content + ?Sized,
{
    name.start(s)?;
    v.write_content(s)?;
    s.end_element()
}

/// An element without attributes or content.
pub fn empty<S: XmlSink + ?Sized>(s: &mut S, name: Name<'_>) -> Result<(), WriteError> {
    name.start(s)?;
    s.end_element()
}

/// A nillable element: `xsi:nil="true"` for [`Nillable::Nil`], otherwise what `value`
/// writes.
pub fn nillable<S, T>(
    s: &mut S,
    name: Name<'_>,
    v: &Nillable<T>,
    value: impl FnOnce(&mut S, Name<'_>, &T) -> Result<(), WriteError>,
) -> Result<(), WriteError>
where
    S: XmlSink + ?Sized,
{
    match v {
        Nillable::Value(v) => value(s, name, v),
        Nillable::Nil => {
            name.start(s)?;
            s.attribute_ns(XSI, "nil", Some("xsi"), "true")?;
            s.end_element()
        }
    }
}

/// Writes `xsi:type` naming the type `ty` on the element just started, binding its
/// prefix there when it is not bound already.
pub fn xsi_type<S: XmlSink + ?Sized>(s: &mut S, ty: Name<'_>) -> Result<(), WriteError> {
    let qname = if ty.ns.is_empty() {
        // An unprefixed QName is in the default namespace: make sure there is none.
        s.namespace(None, "")?;
        Cow::Borrowed(ty.local)
    } else {
        s.namespace(Some(ty.prefix), ty.ns)?;
        Cow::Owned(format!("{}:{}", ty.prefix, ty.local))
    };
    s.attribute_ns(XSI, "type", Some("xsi"), &qname)
}

/// The element `name` holding a value of the complex type `ty`, named by its `xsi:type`.
pub fn typed<S, T>(s: &mut S, name: Name<'_>, ty: Name<'_>, v: &T) -> Result<(), WriteError>
where
    S: XmlSink + ?Sized,
    T: Content + ?Sized,
{
    name.start(s)?;
    xsi_type(s, ty)?;
    v.write_content(s)?;
    s.end_element()
}

/// What `write` writes, as XML text (UTF-8, without an XML declaration).
pub fn to_string(
    write: impl FnOnce(&mut Writer<Vec<u8>>) -> Result<(), WriteError>,
) -> Result<String, WriteError> {
    let mut w = Writer::new(Vec::new());
    write(&mut w)?;
    let bytes = w.finish()?;
    // The writer writes UTF-8 only: every piece it was given is a `&str`.
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// What generated code implements for its `Document` and `Typed` enums, so that wildcard
/// and `xs:anyType` content ([`Any`]) writes back.
pub trait Globals: super::Globals {
    /// Writes the document: its root element and everything in it.
    fn write_element<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError>;

    /// Writes a value of a named complex type as the element `name`, with the `xsi:type`
    /// that names its type.
    fn write_typed<S: XmlSink + ?Sized>(
        t: &Self::Typed,
        s: &mut S,
        name: Name<'_>,
    ) -> Result<(), WriteError>;
}

impl<D: Globals> Any<D> {
    /// Writes the element back: a document of the schema, a value of a named type with its
    /// `xsi:type`, or the XML kept.
    ///
    /// What is kept of foreign XML is names, attributes and text: prefixes are chosen anew,
    /// so a QName in its text or attribute values may not resolve as it did.
    pub fn write<S: XmlSink + ?Sized>(&self, s: &mut S) -> Result<(), WriteError> {
        // Iterative: kept XML may be deeper than the stack allows.
        let mut stack: Vec<std::slice::Iter<'_, AnyNode<D>>> = Vec::new();
        let mut next = Some(self);
        loop {
            if let Some(any) = next.take() {
                match any {
                    Any::Known(d) => d.write_element(s)?,
                    Any::Typed(t) => {
                        let name = Name {
                            ns: &t.ns,
                            prefix: "",
                            local: &t.local,
                        };
                        D::write_typed(&t.value, s, name)?;
                    }
                    Any::Other(e) => {
                        open(s, e)?;
                        stack.push(e.children.iter());
                    }
                }
            }
            let Some(top) = stack.last_mut() else {
                return Ok(());
            };
            match top.next() {
                Some(AnyNode::Text(t)) => s.text(t)?,
                Some(AnyNode::Element(e)) => next = Some(e),
                None => {
                    stack.pop();
                    s.end_element()?;
                }
            }
        }
    }
}

/// Starts a kept element: its name and attributes, `xsi:type` from its resolved name (the
/// prefix it was written with may not be bound here).
fn open<D: super::Globals, S: XmlSink + ?Sized>(
    s: &mut S,
    e: &AnyElement<D>,
) -> Result<(), WriteError> {
    s.start_element_ns(&e.ns, &e.local, None)?;
    other_attributes(s, &e.attributes)?;
    let Some((ns, local)) = &e.xsi_type else {
        return Ok(());
    };
    let prefix = if ns == super::any::XS { "xs" } else { "t" };
    let ty = Name { ns, prefix, local };
    xsi_type(s, ty)
}
