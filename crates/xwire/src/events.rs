//! Owned events and the adapters built on the cursor: an iterator of owned events and a filter.

use crate::error::Result;
use crate::reader::event::{Event, TokenKind};
use crate::reader::{NsId, Reader};

/// An event that owns its data, for code that wants a plain `Iterator` or to keep events.
/// Costs an allocation per name and text; the borrowed [`Event`] is the fast path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedEvent {
    /// A start tag: qualified name, namespace URI, attributes (qualified name, namespace URI,
    /// value), empty-element flag.
    Start {
        /// Qualified name.
        name: String,
        /// Namespace URI, `""` for none.
        ns: String,
        /// Attributes as (qualified name, namespace URI, value).
        attributes: Vec<(String, String, String)>,
        /// Whether it was an empty-element tag.
        empty: bool,
    },
    /// An end tag: qualified name and namespace URI.
    End {
        /// Qualified name.
        name: String,
        /// Namespace URI.
        ns: String,
    },
    /// Character data, unescaped.
    Text(String),
    /// A CDATA section.
    CData(String),
    /// A comment.
    Comment(String),
    /// A processing instruction: target and data.
    Pi(String, String),
    /// A document type declaration: name, public id, system id.
    Doctype(String, Option<String>, Option<String>),
    /// A reference to an entity that was not read: its name.
    SkippedEntity(String),
}

impl OwnedEvent {
    /// Copies a borrowed event. Returns `None` for [`Event::Eof`].
    pub fn from_event(e: &Event<'_>) -> Option<OwnedEvent> {
        Some(match e {
            Event::Start(t) => OwnedEvent::Start {
                name: t.name().to_string(),
                ns: t.namespace_uri().to_string(),
                attributes: t
                    .attributes()
                    .map(|a| {
                        (
                            a.name().to_string(),
                            a.namespace_uri().to_string(),
                            a.value().to_string(),
                        )
                    })
                    .collect(),
                empty: t.is_empty(),
            },
            Event::End(t) => OwnedEvent::End {
                name: t.name().to_string(),
                ns: t.namespace_uri().to_string(),
            },
            Event::Text(t) => OwnedEvent::Text(t.unescape().into_owned()),
            Event::CData(c) => OwnedEvent::CData(c.text().into_owned()),
            Event::Comment(c) => OwnedEvent::Comment(c.text().into_owned()),
            Event::Pi(p) => OwnedEvent::Pi(p.target().to_string(), p.data().into_owned()),
            Event::SkippedEntity(e) => OwnedEvent::SkippedEntity(e.name().to_string()),
            Event::Doctype(d) => OwnedEvent::Doctype(
                d.name().to_string(),
                d.public_id().map(String::from),
                d.system_id().map(String::from),
            ),
            Event::Eof => return None,
        })
    }
}

/// An `Iterator` of [`OwnedEvent`]s over a reader. Stops after the end of the document or the
/// first error (which it yields).
///
/// ```
/// let kinds: Vec<_> = xwire::Reader::from_slice(b"<a>x</a>").into_events().collect::<Result<_, _>>()?;
/// assert_eq!(kinds.len(), 3);
/// # Ok::<(), xwire::Error>(())
/// ```
pub struct Events<'a> {
    reader: Reader<'a>,
    done: bool,
}

impl<'a> Reader<'a> {
    /// Turns the reader into an iterator of owned events.
    pub fn into_events(self) -> Events<'a> {
        Events {
            reader: self,
            done: false,
        }
    }

    /// A cursor that skips the kinds of events in `skip`.
    ///
    /// ```
    /// use xwire::{Event, TokenKind};
    /// let mut r = xwire::Reader::from_slice(b"<a><!--c--><?p?>t</a>");
    /// let mut f = r.filter(&[TokenKind::Comment, TokenKind::Pi]);
    /// assert!(matches!(f.next()?, Event::Start(_)));
    /// assert!(matches!(f.next()?, Event::Text(_)));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn filter(&mut self, skip: &[TokenKind]) -> Filter<'_, 'a> {
        let mut mask = 0u16;
        for k in skip {
            mask |= 1 << (*k as u16);
        }
        mask &= !(1 << TokenKind::Eof as u16);
        Filter { reader: self, mask }
    }
}

impl Iterator for Events<'_> {
    type Item = Result<OwnedEvent>;

    fn next(&mut self) -> Option<Result<OwnedEvent>> {
        if self.done {
            return None;
        }
        match self.reader.next() {
            Ok(e) => {
                let o = OwnedEvent::from_event(&e);
                self.done = o.is_none();
                o.map(Ok)
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// A cursor that skips some kinds of events; see [`Reader::filter`].
pub struct Filter<'f, 'a> {
    reader: &'f mut Reader<'a>,
    mask: u16,
}

impl Filter<'_, '_> {
    /// The next event whose kind is not skipped.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Event<'_>> {
        loop {
            let k = self.reader.peek_kind()?;
            if self.mask & (1 << k as u16) == 0 {
                break;
            }
            self.reader.next()?;
        }
        self.reader.next()
    }
}

#[allow(dead_code)]
const _: NsId = NsId::NONE;
