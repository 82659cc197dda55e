//! StAX-style helpers on the cursor: `next_tag`, `next_start`, `element_text`, `skip_element`.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::event::Event;
use crate::reader::Reader;

impl Reader<'_> {
    /// Skips to the next start or end tag, ignoring white space, comments and processing
    /// instructions (StAX `nextTag`). Non-white-space text is an error; so is the end of the
    /// document.
    pub fn next_tag(&mut self) -> Result<Event<'_>> {
        loop {
            match self.peek()? {
                Event::Start(_) | Event::End(_) => break,
                Event::Text(t) if !t.is_whitespace() => {
                    return Err(self.misuse("next_tag found non-white-space text"))
                }
                Event::CData(c) if !crate::chars::is_all_whitespace(c.raw().as_bytes()) => {
                    return Err(self.misuse("next_tag found a non-white-space CDATA section"))
                }
                Event::Eof => return Err(self.misuse("next_tag reached the end of the document")),
                _ => {
                    self.next()?;
                }
            }
        }
        self.next()
    }

    /// Advances to the next start tag anywhere below and returns its local name, or `None` at
    /// the end of the document.
    pub fn next_start(&mut self) -> Result<Option<&str>> {
        loop {
            match self.peek()? {
                Event::Start(_) => break,
                Event::Eof => return Ok(None),
                _ => {
                    self.next()?;
                }
            }
        }
        match self.next()? {
            Event::Start(t) => Ok(Some(t.local_name())),
            _ => Ok(None),
        }
    }

    /// After a start tag: reads the element's text content up to its end tag and returns it
    /// (StAX `getElementText`). Comments and PIs are skipped; a child element is an error.
    pub fn element_text(&mut self) -> Result<String> {
        let mut out = String::new();
        loop {
            match self.next()? {
                Event::Text(t) => out.push_str(&t.unescape()),
                Event::CData(c) => out.push_str(&c.text()),
                Event::End(_) => return Ok(out),
                Event::Start(_) => return Err(self.misuse("element_text found a child element")),
                Event::Eof => {
                    return Err(self.misuse("element_text reached the end of the document"))
                }
                _ => {}
            }
        }
    }

    /// After a start tag: skips everything up to and including the matching end tag.
    pub fn skip_element(&mut self) -> Result<()> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next()? {
                Event::Start(_) => depth += 1,
                Event::End(_) => depth -= 1,
                Event::Eof => {
                    return Err(self.misuse("skip_element reached the end of the document"))
                }
                _ => {}
            }
        }
        Ok(())
    }

    #[cold]
    fn misuse(&mut self, msg: &str) -> Error {
        let loc = self.location();
        Error::new(ErrorKind::WellFormedness(msg.to_string()), loc)
    }
}
