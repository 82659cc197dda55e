//! The cursor a generated parser walks a document with: the reader's tokens, seen as the
//! steps of recursive descent (the root, an element's attributes, its next child, its text).

use crate::{Event, Reader};

use super::{Error, Fault};

/// The XML Schema instance namespace (`xsi:`).
pub const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// Whether an attribute is one any element may have whatever its type: `xsi:type` (checked
/// apart, [`Cursor::check_xsi_type`]) and the schema-location hints.
fn is_xsi_hint(ns: &str, local: &str) -> bool {
    ns == XSI
        && matches!(
            local,
            "type" | "schemaLocation" | "noNamespaceSchemaLocation"
        )
}

/// What a generated reader does with an attribute its type does not declare: nothing for
/// [`is_xsi_hint`]'s, a fault naming the attribute and `owner` (the type) for the others.
pub fn other_attribute(ns: &str, local: &str, owner: &str) -> Result<(), Fault> {
    if is_xsi_hint(ns, local) {
        return Ok(());
    }
    Err(Fault::new(
        "cvc-complex-type.3.2.2",
        format!("attribute '{local}' is not allowed on <{owner}>"),
    ))
}

/// A position in a document, at a start tag once [`Cursor::root`] or [`Cursor::child`] found
/// one. Generated code reads the element's attributes ([`Cursor::attributes`]), then its
/// content: the children one by one ([`Cursor::child`]), its text ([`Cursor::text`]) or
/// nothing ([`Cursor::empty`]); each of these ends at the element's end tag.
pub struct Cursor<'a> {
    reader: Reader<'a>,
    /// The text of the last element [`Cursor::text`] read, reused from one to the next.
    text: String,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of the document in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            reader: Reader::from_slice(bytes),
            text: String::new(),
        }
    }

    /// A cursor on a reader made some other way (a stream, another configuration), at the
    /// start of its document.
    pub fn from_reader(reader: Reader<'a>) -> Cursor<'a> {
        Cursor {
            reader,
            text: String::new(),
        }
    }

    /// Moves to the root element's start tag, past the prolog.
    pub fn root(&mut self) -> Result<(), Error> {
        loop {
            match self.reader.next()? {
                Event::Start(_) => return Ok(()),
                // The reader fails a document without a root element before its end.
                Event::Eof => {
                    return Err(self.fail(Fault::new("well-formedness", "no root element")))
                }
                _ => {}
            }
        }
    }

    /// Whether the cursor is at the start tag of element `{ns}local` (`ns` empty for none).
    #[inline]
    pub fn at(&self, ns: &str, local: &str) -> bool {
        match self.reader.current() {
            Event::Start(t) => t.local_name() == local && t.namespace_uri() == ns,
            _ => false,
        }
    }

    /// Calls `f` with the namespace URI, local name and normalised value of each attribute of
    /// the current start tag (namespace declarations left out), stopping at its first fault.
    pub fn attributes<F>(&mut self, mut f: F) -> Result<(), Error>
    where
        F: FnMut(&str, &str, &str) -> Result<(), Fault>,
    {
        let outcome = match self.reader.current() {
            Event::Start(t) => t
                .attributes()
                .filter(|a| !a.is_namespace_decl())
                .try_for_each(|a| f(a.namespace_uri(), a.local_name(), a.value())),
            _ => Ok(()),
        };
        outcome.map_err(|fault| self.fail(fault))
    }

    /// Checks that the current start tag has no attributes but the schema-location hints
    /// (`xsi:schemaLocation`, `xsi:noNamespaceSchemaLocation`): the attributes of an element of
    /// simple type.
    pub fn no_attributes(&mut self) -> Result<(), Error> {
        self.attributes(|ns, local, _| {
            // `xsi:type` is checked apart ([`Cursor::check_xsi_type`]).
            if ns == XSI
                && matches!(
                    local,
                    "type" | "schemaLocation" | "noNamespaceSchemaLocation"
                )
            {
                Ok(())
            } else {
                Err(Fault::new(
                    "cvc-type.3.1.1",
                    format!("attribute '{local}' is not allowed on an element of simple type"),
                ))
            }
        })
    }

    /// The type the current start tag's `xsi:type` names, as (namespace URI, local name),
    /// its prefix resolved with the bindings in scope; `None` without `xsi:type`.
    pub fn xsi_type(&mut self) -> Result<Option<(String, String)>, Error> {
        let Event::Start(t) = self.reader.current() else {
            return Ok(None);
        };
        let Some(value) = t.attribute_ns(XSI, "type") else {
            return Ok(None);
        };
        let qname = crate::datatypes::trim_xml(value);
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        // The innermost binding of the prefix: the last in scope order.
        let resolved = self
            .reader
            .namespaces_in_scope()
            .filter(|(p, _)| *p == prefix)
            .last()
            .map(|(_, ns)| ns.to_string());
        match resolved {
            Some(ns) => Ok(Some((ns, local.to_string()))),
            // No default namespace: an unprefixed name is in no namespace.
            None if prefix.is_empty() => Ok(Some((String::new(), local.to_string()))),
            None => {
                let m = format!("xsi:type '{qname}': the prefix '{prefix}' is not declared");
                Err(self.fail(Fault::new("cvc-elt.4.1", m)))
            }
        }
    }

    /// Checks that the current start tag has no `xsi:type`, or one naming `{ns}local`: the
    /// type the parser reads it as (an element whose type has no derived types that may
    /// stand for it). An anonymous type (`local` empty) allows no `xsi:type`.
    pub fn check_xsi_type(&mut self, ns: &str, local: &str) -> Result<(), Error> {
        match self.xsi_type()? {
            Some((n, l)) if local.is_empty() || n != ns || l != local => {
                Err(self.not_derived(&n, &l))
            }
            _ => Ok(()),
        }
    }

    /// The error of an `xsi:type` naming `{ns}local`, a type that may not stand for the
    /// element's.
    #[cold]
    pub fn not_derived(&mut self, ns: &str, local: &str) -> Error {
        let m =
            format!("xsi:type names {{{ns}}}{local}, which may not stand for the element's type");
        self.fail(Fault::new("cvc-elt.4.3", m))
    }

    /// Moves to the next child element of the current element: `true` at its start tag,
    /// `false` past the current element's end tag. White space, comments and processing
    /// instructions between children are skipped; other text is an error (element-only
    /// content).
    pub fn child(&mut self) -> Result<bool, Error> {
        loop {
            match self.reader.next()? {
                Event::Start(_) => return Ok(true),
                Event::End(_) => return Ok(false),
                Event::Text(t) if t.is_whitespace() => {}
                Event::CData(c) if c.raw().bytes().all(|b| b.is_ascii_whitespace()) => {}
                Event::Text(_) | Event::CData(_) => {
                    return Err(self.fail(Fault::new(
                        "cvc-complex-type.2.3",
                        "character data where only elements are allowed",
                    )))
                }
                Event::SkippedEntity(e) => {
                    let m = format!(
                        "the entity '{}' was not expanded: its content is unknown",
                        e.name()
                    );
                    return Err(self.fail(Fault::new("cvc-complex-type.2.4", m)));
                }
                Event::Eof => {
                    return Err(self.fail(Fault::new("well-formedness", "the document ended")))
                }
                _ => {}
            }
        }
    }

    /// The character data of the current element, to its end tag: the text of an element of
    /// simple type or simple content. A child element is an error. The text lives in the
    /// cursor until the next call (one buffer for every element: a value converts from it
    /// without an allocation of its own).
    pub fn text(&mut self) -> Result<&str, Error> {
        self.text.clear();
        loop {
            match self.reader.next()? {
                Event::Text(t) => self.text.push_str(&t.unescape()),
                Event::CData(c) => self.text.push_str(&c.text()),
                Event::End(_) => return Ok(&self.text),
                Event::Start(_) => {
                    return Err(self.fail(Fault::new(
                        "cvc-type.3.1.2",
                        "an element of simple content cannot have element children",
                    )))
                }
                Event::SkippedEntity(e) => {
                    let m = format!(
                        "the entity '{}' was not expanded: its text is unknown",
                        e.name()
                    );
                    return Err(self.fail(Fault::new("cvc-datatype-valid.1", m)));
                }
                Event::Eof => {
                    return Err(self.fail(Fault::new("well-formedness", "the document ended")))
                }
                _ => {}
            }
        }
    }

    /// Moves past the end tag of the current element, which must be empty: no child and no
    /// character data (comments and processing instructions may be there).
    pub fn empty(&mut self) -> Result<(), Error> {
        loop {
            match self.reader.next()? {
                Event::End(_) => return Ok(()),
                Event::Comment(_) | Event::Pi(_) => {}
                _ => {
                    return Err(self.fail(Fault::new(
                        "cvc-complex-type.2.1",
                        "an element of empty content must have no children and no character data",
                    )))
                }
            }
        }
    }

    /// Reads to the end of the document after the root element (comments, processing
    /// instructions and white space only, as the reader checks).
    pub fn finish(&mut self) -> Result<(), Error> {
        while !matches!(self.reader.next()?, Event::Eof) {}
        Ok(())
    }

    /// The error a generated parser gives where an element it expected is missing: at a
    /// start tag, that element is not allowed here; past an end tag, the content ended
    /// too early. `expected` names what would have been allowed.
    #[cold]
    pub fn unexpected(&mut self, expected: &str) -> Error {
        let fault = match self.reader.current() {
            Event::Start(t) => Fault::new(
                "cvc-complex-type.2.4.a",
                format!(
                    "element <{}> is not allowed here; expected {expected}",
                    t.name()
                ),
            ),
            _ => Fault::new(
                "cvc-complex-type.2.4.b",
                format!("the content ends too early; expected {expected}"),
            ),
        };
        self.fail(fault)
    }

    /// `fault`, placed at the current token.
    #[cold]
    pub fn fail(&mut self, fault: Fault) -> Error {
        let at = self.reader.offset();
        self.fail_at(at, fault)
    }

    /// The byte offset of the current token, to place a fault found later at it
    /// ([`Cursor::fail_at`]): a value's error is reported at its element's start tag.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.reader.offset()
    }

    /// `fault`, placed at the token that started at byte `offset` (from [`Cursor::offset`]).
    #[cold]
    pub fn fail_at(&mut self, offset: u64, fault: Fault) -> Error {
        let loc = self.reader.location_of(offset);
        Error {
            line: loc.line,
            column: loc.column,
            constraint: fault.constraint,
            message: fault.message,
        }
    }
}
