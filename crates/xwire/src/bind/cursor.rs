//! The cursor a generated parser walks a document with: the reader's tokens, seen as the
//! steps of recursive descent (the root, an element's attributes, its next child, its text).

use crate::{Event, Reader};

use super::identity::Tracker;
use super::mixed::MixedRuns;
use super::{Bindings, Content, Error, Fault, Ids, MixedText, Source, Text, XSI};

/// The general [`Source`]: the reader's tokens, so every rule of the reader holds (comments,
/// CDATA sections, references, DTDs, any encoding), and a failed step is an [`Error`] with
/// the validator's constraint and message at its line and column.
pub struct Cursor<'a> {
    reader: Reader<'a>,
    /// The text of the last element [`Cursor::text`] read, reused from one to the next.
    text: String,
    /// [`Source::content`] read a start or end tag after text, and gave the text first: the
    /// tag is its next step.
    pending: Option<Pending>,
    ids: Ids,
    /// The identity constraints, from the first scope on (every start and end tag goes
    /// through it while one is open).
    track: Option<Box<Tracker>>,
    /// The offset of the start tag whose `xsi:nil` is allowed ([`Source::allow_nil`]).
    nil_at: Option<u64>,
    /// The mixed elements open ([`Source::mixed`]).
    mixed: MixedRuns,
}

/// A tag [`Source::content`] read but did not give yet.
#[derive(Clone, Copy, Debug)]
enum Pending {
    Start,
    End,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of the document in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            reader: Reader::from_slice(bytes),
            text: String::new(),
            pending: None,
            ids: Ids::default(),
            track: None,
            nil_at: None,
            mixed: MixedRuns::default(),
        }
    }

    /// A cursor on a reader made some other way (a stream, another configuration), at the
    /// start of its document.
    pub fn from_reader(reader: Reader<'a>) -> Cursor<'a> {
        Cursor {
            reader,
            text: String::new(),
            pending: None,
            ids: Ids::default(),
            track: None,
            nil_at: None,
            mixed: MixedRuns::default(),
        }
    }
}

/// Where a skipped entity stops [`Cursor::gather`]: the error names what is unknown.
#[derive(Clone, Copy)]
enum SkippedIn {
    Text,
    Content,
}

impl Cursor<'_> {
    /// The current start tag's `xsi:type`, resolved: `None` without one, `Some(Err(m))`
    /// when its prefix is not bound (`m` says so).
    fn xsi_type_at(&self) -> Option<Result<(&str, &str), String>> {
        let Event::Start(t) = self.reader.current() else {
            return None;
        };
        let value = t.attribute_ns(XSI, "type")?;
        let qname = crate::datatypes::trim_xml(value);
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        // The innermost binding of the prefix: the last in scope order.
        let resolved = self
            .reader
            .namespaces_in_scope()
            .filter(|(p, _)| *p == prefix)
            .last()
            .map(|(_, ns)| ns);
        Some(match resolved {
            Some(ns) => Ok((ns, local)),
            // No default namespace: an unprefixed name is in no namespace.
            None if prefix.is_empty() => Ok(("", local)),
            None => Err(format!(
                "xsi:type '{qname}': the prefix '{prefix}' is not declared"
            )),
        })
    }

    /// The reader is at a start tag: the identity constraints see it, where a scope is open.
    #[inline]
    fn started(&mut self) -> Result<(), Error> {
        let Some(t) = self.track.as_mut().filter(|t| t.active()) else {
            return Ok(());
        };
        let depth = self.reader.depth().saturating_sub(1);
        let at = self.reader.offset();
        match self.reader.current() {
            Event::Start(s) => {
                let name = (Text::from(s.namespace_uri()), Text::from(s.local_name()));
                t.start(depth, name, at);
                for a in s.attributes().filter(|a| a.namespace_uri() == XSI) {
                    t.xsi_attribute(a.local_name(), a.value(), at);
                }
            }
            _ => t.start(depth, (Text::default(), Text::default()), at),
        }
        self.identity_check()
    }

    /// The reader is past an end tag: the identity constraints see it, where a scope is
    /// open.
    #[inline]
    fn ended(&mut self) -> Result<(), Error> {
        let Some(t) = self.track.as_mut().filter(|t| t.active()) else {
            return Ok(());
        };
        t.end(self.reader.depth(), self.reader.offset());
        self.identity_check()
    }

    /// Reads character data into `self.text` (comments and processing instructions left
    /// out, CDATA sections taken as text) up to the next start or end tag, which it gives.
    fn gather(&mut self, skipped: SkippedIn) -> Result<Pending, Error> {
        self.text.clear();
        loop {
            match self.reader.next()? {
                Event::Text(t) => self.text.push_str(&t.unescape()),
                Event::CData(c) => self.text.push_str(&c.text()),
                Event::Start(_) => return Ok(Pending::Start),
                Event::End(_) => return Ok(Pending::End),
                Event::SkippedEntity(e) => {
                    let name = e.name();
                    let fault = match skipped {
                        SkippedIn::Text => Fault::new(
                            "cvc-datatype-valid.1",
                            format!("the entity '{name}' was not expanded: its text is unknown"),
                        ),
                        SkippedIn::Content => Fault::new(
                            "cvc-complex-type.2.4",
                            format!("the entity '{name}' was not expanded: the content is unknown"),
                        ),
                    };
                    return Err(self.fail(fault));
                }
                Event::Eof => {
                    return Err(self.fail(Fault::new("well-formedness", "the document ended")))
                }
                _ => {}
            }
        }
    }
}

impl Source for Cursor<'_> {
    type Error = Error;

    fn root(&mut self) -> Result<(), Error> {
        loop {
            match self.reader.next()? {
                Event::Start(_) => return self.started(),
                // The reader fails a document without a root element before its end.
                Event::Eof => {
                    return Err(self.fail(Fault::new("well-formedness", "no root element")))
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn at(&self, ns: &str, local: &str) -> bool {
        match self.reader.current() {
            Event::Start(t) => t.local_name() == local && t.namespace_uri() == ns,
            _ => false,
        }
    }

    #[inline]
    fn name(&self) -> (&str, &str) {
        match self.reader.current() {
            Event::Start(t) => (t.namespace_uri(), t.local_name()),
            _ => ("", ""),
        }
    }

    fn attributes<F>(&mut self, mut f: F) -> Result<(), Error>
    where
        F: FnMut(&str, &str, &str) -> Result<(), Fault>,
    {
        let nil_ok = self.nil_at == Some(self.reader.offset());
        let outcome = match self.reader.current() {
            Event::Start(t) => t
                .attributes()
                .filter(|a| !a.is_namespace_decl())
                .filter(|a| !(nil_ok && a.local_name() == "nil" && a.namespace_uri() == XSI))
                .try_for_each(|a| f(a.namespace_uri(), a.local_name(), a.value())),
            _ => Ok(()),
        };
        outcome.map_err(|fault| self.fail(fault))
    }

    fn bindings(&self) -> Bindings {
        let mut b = Bindings::default();
        for (prefix, uri) in self.reader.namespaces_in_scope() {
            b.push(prefix, uri);
        }
        b
    }

    fn mixed(&mut self, keep: bool) {
        self.mixed.begin(self.reader.depth(), keep);
    }

    fn mixed_text(&mut self) -> Vec<MixedText> {
        self.mixed.take()
    }

    fn mixed_flush(&mut self, f: &mut dyn FnMut(&str)) {
        self.mixed.flush(f);
    }

    fn xsi_type_name(&mut self) -> Result<Option<(&str, &str)>, Error> {
        // Resolved twice when the prefix is bound (the name borrowed the second time), so
        // that the fault of an unbound one can take the reader.
        if let Some(Err(m)) = self.xsi_type_at() {
            return Err(self.fail(Fault::new("cvc-elt.4.1", m)));
        }
        Ok(self.xsi_type_at().and_then(Result::ok))
    }

    fn child(&mut self) -> Result<bool, Error> {
        loop {
            // The element whose children these are.
            let mixed = self.mixed.at(self.reader.depth());
            match self.reader.next()? {
                Event::Start(_) => {
                    if mixed {
                        self.mixed.child();
                    }
                    return self.started().map(|()| true);
                }
                Event::End(_) => return self.ended().map(|()| false),
                Event::Text(t) if mixed => self.mixed.text(&t.unescape()),
                Event::CData(c) if mixed => self.mixed.text(&c.text()),
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

    // The text is gathered in one buffer for every element: a value converts from it
    // without an allocation of its own.
    fn text(&mut self) -> Result<&str, Error> {
        match self.gather(SkippedIn::Text)? {
            Pending::End => {
                self.ended()?;
                Ok(&self.text)
            }
            Pending::Start => Err(self.fail(Fault::new(
                "cvc-type.3.1.2",
                "an element of simple content cannot have element children",
            ))),
        }
    }

    fn text_only(&mut self) -> Result<Option<&str>, Error> {
        // The skipped-entity fault of content, as `content` would give it.
        match self.gather(SkippedIn::Content)? {
            Pending::End => {
                self.ended()?;
                Ok(Some(&self.text))
            }
            Pending::Start => {
                self.pending = Some(Pending::Start);
                Ok(None)
            }
        }
    }

    // Text runs split by comments, PIs or CDATA sections are one step, as the scanner (which
    // leaves those to the cursor) gives them.
    fn content(&mut self) -> Result<Content<'_>, Error> {
        let tag = match self.pending.take() {
            Some(tag) => tag,
            None => {
                let tag = self.gather(SkippedIn::Content)?;
                if !self.text.is_empty() {
                    self.pending = Some(tag);
                    return Ok(Content::Text(&self.text));
                }
                tag
            }
        };
        Ok(match tag {
            Pending::Start => {
                self.started()?;
                Content::Start
            }
            Pending::End => {
                self.ended()?;
                Content::End
            }
        })
    }

    fn empty(&mut self) -> Result<(), Error> {
        loop {
            match self.reader.next()? {
                Event::End(_) => return self.ended(),
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

    fn finish(&mut self) -> Result<(), Error> {
        if let Some(t) = &mut self.track {
            t.settle();
            self.identity_check()?;
        }
        while !matches!(self.reader.next()?, Event::Eof) {}
        let dangling = self
            .ids
            .unresolved()
            .next()
            .map(|(r, at)| (Ids::dangling(r), at));
        match dangling {
            Some((fault, at)) => Err(self.fail_at(at, fault)),
            None => Ok(()),
        }
    }

    fn ids(&mut self) -> &mut Ids {
        &mut self.ids
    }

    fn tracker(&mut self) -> Option<&mut Tracker> {
        Some(self.track.get_or_insert_with(Box::default))
    }

    fn identity_active(&self) -> bool {
        self.track.as_ref().is_some_and(|t| t.active())
    }

    #[inline]
    fn depth(&self) -> usize {
        self.reader.depth()
    }

    fn allow_nil(&mut self) {
        self.nil_at = Some(self.reader.offset());
    }

    #[cold]
    fn unexpected(&mut self, expected: &str) -> Error {
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

    #[inline]
    fn offset(&self) -> u64 {
        self.reader.offset()
    }

    #[cold]
    fn fail_at(&mut self, offset: u64, fault: Fault) -> Error {
        let loc = self.reader.location_of(offset);
        Error {
            line: loc.line,
            column: loc.column,
            constraint: fault.constraint,
            message: fault.message,
        }
    }
}
