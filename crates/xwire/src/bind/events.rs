//! The event API of generated code (XML Screamer's SAX with precomputed events): a document
//! checked against the schema as it is read, its content handed to a [`Handler`] as it goes,
//! nothing built.
//!
//! The generated `Document::events(bytes, handler)` gives every element of the schema with
//! the names its declaration has, string constants of the generated code: no name is
//! resolved, hashed or copied to make an event. Text comes as the document has it (after
//! references are replaced), once its element's type accepted it. `Document::events_any_type`
//! is the baseline that shows what the schema buys: the same events from the same sources,
//! the root taken as `xs:anyType` ([`any_type_document`]): its content assessed laxly, as
//! `xs:anyType`'s wildcard says (an element with a global declaration, or whose `xsi:type`
//! names a complex type of the schema, is checked against it; every other name is taken
//! from the document and looked up). [`any`] gives the events of an element with no schema
//! at all.
//!
//! Events come in document order: [`Handler::start`], the element's attributes
//! ([`Handler::attribute`]: the ones its type declares as they come, then those an attribute
//! wildcard admitted), its text and child elements, [`Handler::end`]. Attributes the
//! schema-instance namespace defines (`xsi:type`, `xsi:nil`, ...) and namespace declarations
//! are not events; defaults are not filled in. When the document is not valid, the events
//! before the first error have been given, and the error follows: a handler that must not act
//! on an invalid document keeps what it gathers until `events` returns `Ok`.
//!
//! ```
//! use xwire::bind::events::{any, Handler};
//! use xwire::bind::{Cursor, Source};
//!
//! #[derive(Default)]
//! struct Names(Vec<String>);
//!
//! impl Handler for Names {
//!     fn start(&mut self, _ns: &str, local: &str) {
//!         self.0.push(local.to_string());
//!     }
//! }
//!
//! let mut c = Cursor::new(b"<order><item n='1'/><item n='2'>x</item></order>");
//! let mut names = Names::default();
//! c.root()?;
//! any(&mut c, &mut names)?;
//! c.finish()?;
//! assert_eq!(names.0, ["order", "item", "item"]);
//! # Ok::<(), xwire::bind::Error>(())
//! ```

use super::any::{Any, Globals, Wildcard};
use super::lax::Visit;
use super::scanner::{Fallback, Scanner};
use super::source::{Content, Source};
use super::{Cursor, Error};

/// What a document's events go to. Every method does nothing by default: a handler writes the
/// ones it needs.
pub trait Handler {
    /// An element starts: its namespace URI (empty for none) and local name.
    fn start(&mut self, ns: &str, local: &str) {
        let _ = (ns, local);
    }

    /// An attribute of the element that started last: namespace URI, local name and its
    /// normalised value.
    fn attribute(&mut self, ns: &str, local: &str, value: &str) {
        let _ = (ns, local, value);
    }

    /// Character data of the current element (a simple value whole; in wildcard and
    /// `xs:anyType` content, each run between tags).
    fn text(&mut self, text: &str) {
        let _ = text;
    }

    /// The current element ends.
    fn end(&mut self) {}
}

/// The handler that ignores every event.
impl Handler for () {}

impl<H: Handler + ?Sized> Handler for &mut H {
    fn start(&mut self, ns: &str, local: &str) {
        (**self).start(ns, local);
    }

    fn attribute(&mut self, ns: &str, local: &str, value: &str) {
        (**self).attribute(ns, local, value);
    }

    fn text(&mut self, text: &str) {
        (**self).text(text);
    }

    fn end(&mut self) {
        (**self).end();
    }
}

/// What the schema's global declarations and named types make of lax content, for its
/// events: implemented by the generated `Document` of the event API.
pub trait EventGlobals: Globals {
    /// If the source is at an element with a global declaration: checks it and gives its
    /// events (start to end), and returns `true`.
    fn events_element<S: Source, H: Handler>(c: &mut S, h: &mut H) -> Result<bool, S::Error>;

    /// If `index` is a named complex type of the schema ([`Globals::complex_type`](super::Globals::complex_type)):
    /// checks the current element as that type and gives its attributes and content (its
    /// start and end are the caller's), and returns `true`.
    fn events_typed<S: Source, H: Handler>(
        c: &mut S,
        h: &mut H,
        index: usize,
    ) -> Result<bool, S::Error>;
}

/// The current element as `xs:anyType`, as events: its attributes and content assessed
/// laxly against `D`'s declarations ([`EventGlobals`]) as the object readers assess them
/// (`xsi:type`s checked), every other name from the document. Iterative.
pub fn lax<D, S, H>(c: &mut S, h: &mut H) -> Result<(), S::Error>
where
    D: EventGlobals,
    S: Source,
    H: Handler,
{
    super::lax::lax::<D, S, _>(c, &mut Give { h })
}

/// The event API's visitor of lax content: the event readers of declared elements and
/// complex types, and every event handed on.
struct Give<'h, H> {
    h: &'h mut H,
}

impl<D: EventGlobals, S: Source, H: Handler> Visit<D, S> for Give<'_, H> {
    #[inline]
    fn element(&mut self, c: &mut S) -> Result<bool, S::Error> {
        D::events_element(c, self.h)
    }

    #[inline]
    fn typed(&mut self, c: &mut S, index: usize) -> Result<bool, S::Error> {
        D::events_typed(c, self.h, index)
    }

    #[inline]
    fn start(&mut self, ns: &str, local: &str) {
        self.h.start(ns, local);
    }

    #[inline]
    fn attribute(&mut self, ns: &str, local: &str, value: &str) {
        self.h.attribute(ns, local, value);
    }

    #[inline]
    fn text(&mut self, text: &str) {
        self.h.text(text);
    }

    #[inline]
    fn end(&mut self) {
        self.h.end();
    }
}

/// A document's root that no global declaration names, checked as [`Any::read_root`]
/// reads it, as events: `false`, the source left at the start tag, when it has no
/// `xsi:type`.
pub fn root<D, S, H>(c: &mut S, h: &mut H) -> Result<bool, S::Error>
where
    D: EventGlobals,
    S: Source,
    H: Handler,
{
    if c.xsi_type_name()?.is_none() {
        return Ok(false);
    }
    lax::<D, S, H>(c, h)?;
    Ok(true)
}

/// A whole document's events with its root taken as `xs:anyType` ([`lax`]): the generated
/// `Document::events_any_type`.
pub fn any_type_document<D: EventGlobals, H: Handler>(
    bytes: &[u8],
    h: &mut H,
) -> Result<(), Error> {
    document(
        bytes,
        h,
        |c, h| {
            c.root()?;
            lax::<D, _, _>(c, h)?;
            c.finish()
        },
        |c, h| {
            c.root()?;
            lax::<D, _, _>(c, h)?;
            c.finish()
        },
    )
}

/// The current element and its content as events, names from the document, nothing checked
/// but what the source checks (well-formedness, namespaces): an element of `xs:anyType` whose
/// content is skipped. Iterative: deep nesting costs no stack.
pub fn any<S: Source, H: Handler>(c: &mut S, h: &mut H) -> Result<(), S::Error> {
    let mut depth = 0usize;
    open(c, h)?;
    loop {
        match c.content()? {
            Content::Text(t) => h.text(t),
            Content::Start => {
                open(c, h)?;
                depth += 1;
            }
            Content::End => {
                h.end();
                match depth {
                    0 => return Ok(()),
                    _ => depth -= 1,
                }
            }
        }
    }
}

/// The current start tag's events: the element, then its attributes.
fn open<S: Source, H: Handler>(c: &mut S, h: &mut H) -> Result<(), S::Error> {
    let (ns, local) = c.name();
    h.start(ns, local);
    c.attributes(|ns, local, value| {
        if ns != super::XSI {
            h.attribute(ns, local, value);
        }
        Ok(())
    })
}

/// A document's events through the scanner, and when it gives up, through the cursor from the
/// start again, the events the scanner gave not given twice: `read` is the generated reader of
/// the document's events.
pub fn document<H, F, G>(bytes: &[u8], h: &mut H, scan: F, general: G) -> Result<(), Error>
where
    H: Handler,
    F: FnOnce(&mut Scanner<'_>, &mut Resume<'_, H>) -> Result<(), Fallback>,
    G: FnOnce(&mut Cursor<'_>, &mut Resume<'_, H>) -> Result<(), Error>,
{
    let mut fast = Resume {
        inner: h,
        skip: 0,
        seen: 0,
    };
    match scan(&mut Scanner::new(bytes), &mut fast) {
        Ok(()) => Ok(()),
        Err(Fallback) => {
            // The cursor reads what the scanner read the same way (the bind sources' tests
            // hold them to it), so its first `seen` events are the ones already given.
            let mut again = Resume {
                skip: fast.seen,
                seen: 0,
                inner: fast.inner,
            };
            general(&mut Cursor::new(bytes), &mut again)
        }
    }
}

/// A whole document's events, no schema at all ([`any`]).
pub fn any_document<H: Handler>(bytes: &[u8], h: &mut H) -> Result<(), Error> {
    document(
        bytes,
        h,
        |c, h| {
            c.root()?;
            any(c, h)?;
            c.finish()
        },
        |c, h| {
            c.root()?;
            any(c, h)?;
            c.finish()
        },
    )
}

/// The handler of [`document`]'s passes: counts the events, and passes on those past the
/// first `skip`.
pub struct Resume<'h, H> {
    inner: &'h mut H,
    skip: u64,
    seen: u64,
}

impl<H> Resume<'_, H> {
    #[inline(always)]
    fn fresh(&mut self) -> bool {
        self.seen += 1;
        self.seen > self.skip
    }
}

impl<H: Handler> Handler for Resume<'_, H> {
    #[inline]
    fn start(&mut self, ns: &str, local: &str) {
        if self.fresh() {
            self.inner.start(ns, local);
        }
    }

    #[inline]
    fn attribute(&mut self, ns: &str, local: &str, value: &str) {
        if self.fresh() {
            self.inner.attribute(ns, local, value);
        }
    }

    #[inline]
    fn text(&mut self, text: &str) {
        if self.fresh() {
            self.inner.text(text);
        }
    }

    #[inline]
    fn end(&mut self) {
        if self.fresh() {
            self.inner.end();
        }
    }
}

/// Content a wildcard admits, as events: checked as the object readers read it
/// (`Wildcard::read`), its events given as it goes.
pub fn wildcard<D, S, H>(w: &Wildcard, c: &mut S, h: &mut H) -> Result<(), S::Error>
where
    D: EventGlobals,
    S: Source,
    H: Handler,
{
    // In mixed content, the text before it first.
    c.mixed_flush(&mut |t| h.text(t));
    w.visit::<D, S, _>(c, &mut Give { h })
}

/// An element of type `xs:anyType` (a complex type's content of that type), as events:
/// checked as the object readers read it (`own_type`: its declaration blocks `xsi:type`
/// substitution), its events given as it goes.
pub fn any_type<D, S, H>(c: &mut S, h: &mut H, own_type: bool) -> Result<(), S::Error>
where
    D: EventGlobals,
    S: Source,
    H: Handler,
{
    Any::<D>::visit_declared(c, own_type, &mut Give { h })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl Handler for Log {
        fn start(&mut self, ns: &str, local: &str) {
            self.0.push(format!("<{{{ns}}}{local}"));
        }
        fn attribute(&mut self, ns: &str, local: &str, value: &str) {
            self.0.push(format!("@{{{ns}}}{local}={value}"));
        }
        fn text(&mut self, text: &str) {
            self.0.push(text.to_string());
        }
        fn end(&mut self) {
            self.0.push(">".to_string());
        }
    }

    fn any_events(doc: &[u8]) -> Result<Vec<String>, Error> {
        let mut log = Log::default();
        any_document(doc, &mut log)?;
        Ok(log.0)
    }

    #[test]
    fn any_gives_names_attributes_and_text_in_order() {
        let doc = br#"<p:a xmlns:p="urn:p" x="1"><b p:y="2">t&amp;u</b><c/></p:a>"#;
        assert_eq!(
            any_events(doc).unwrap(),
            [
                "<{urn:p}a",
                "@{}x=1",
                "<{}b",
                "@{urn:p}y=2",
                "t&u",
                ">",
                "<{}c",
                ">",
                ">"
            ]
        );
    }

    #[test]
    fn a_fallback_halfway_gives_no_event_twice() {
        // The comment sends the scanner to the cursor after `a`, `b` and its text.
        let doc = b"<a><b>x</b><!-- c --><c>y</c></a>";
        assert_eq!(
            any_events(doc).unwrap(),
            ["<{}a", "<{}b", "x", ">", "<{}c", "y", ">", ">"]
        );
    }

    #[test]
    fn an_error_ends_the_events() {
        let err = any_events(b"<a><b></a>").unwrap_err();
        assert_eq!(err.constraint, "well-formedness");
    }
}
