//! A SAX-style push API: the reader calls a [`Handler`] for every event.
//!
//! ```
//! use xwire::sax::{self, Handler};
//! #[derive(Default)]
//! struct Count { elements: usize, text: usize }
//! impl Handler for Count {
//!     fn start_element(&mut self, _tag: &xwire::StartTag<'_>) -> Result<(), xwire::Error> { self.elements += 1; Ok(()) }
//!     fn characters(&mut self, text: &str) -> Result<(), xwire::Error> { self.text += text.len(); Ok(()) }
//! }
//! let mut c = Count::default();
//! sax::parse(&mut xwire::Reader::from_slice(b"<a><b>hi</b><b/></a>"), &mut c)?;
//! assert_eq!((c.elements, c.text), (3, 2));
//! # Ok::<(), xwire::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::reader::event::{Doctype, EndTag, Event, StartTag};
use crate::reader::Reader;

/// Receives the events of a document. Every method has an empty default; return an error to
/// stop parsing (it is passed back by [`parse`]).
#[allow(unused_variables)]
pub trait Handler {
    /// The document type declaration.
    fn doctype(&mut self, doctype: &Doctype<'_>) -> Result<(), Error> {
        Ok(())
    }
    /// A start tag (attributes on `tag`).
    fn start_element(&mut self, tag: &StartTag<'_>) -> Result<(), Error> {
        Ok(())
    }
    /// An end tag.
    fn end_element(&mut self, tag: &EndTag<'_>) -> Result<(), Error> {
        Ok(())
    }
    /// Character data, unescaped (CDATA sections too, unless `cdata` is overridden).
    fn characters(&mut self, text: &str) -> Result<(), Error> {
        Ok(())
    }
    /// A CDATA section; by default passed to `characters`.
    fn cdata(&mut self, text: &str) -> Result<(), Error> {
        self.characters(text)
    }
    /// A comment.
    fn comment(&mut self, text: &str) -> Result<(), Error> {
        Ok(())
    }
    /// A processing instruction.
    fn processing_instruction(&mut self, target: &str, data: &str) -> Result<(), Error> {
        Ok(())
    }
    /// A reference to an entity that was not read (see [`Event::SkippedEntity`]).
    fn skipped_entity(&mut self, name: &str) -> Result<(), Error> {
        Ok(())
    }
    /// The end of the document.
    fn end_document(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

/// Reads the whole document, pushing each event to `handler`.
pub fn parse<H: Handler + ?Sized>(reader: &mut Reader<'_>, handler: &mut H) -> Result<()> {
    loop {
        match reader.next()? {
            Event::Start(t) => handler.start_element(&t)?,
            Event::End(t) => handler.end_element(&t)?,
            Event::Text(t) => handler.characters(&t.unescape())?,
            Event::CData(c) => handler.cdata(&c.text())?,
            Event::Comment(c) => handler.comment(&c.text())?,
            Event::Pi(p) => handler.processing_instruction(p.target(), &p.data())?,
            Event::Doctype(d) => handler.doctype(&d)?,
            Event::SkippedEntity(e) => handler.skipped_entity(e.name())?,
            Event::Eof => return handler.end_document(),
        }
    }
}
