//! Errors and their locations: byte offsets turned into lines and columns.

use crate::error::{Error, ErrorKind, Location};

use super::text::lines::LineTracker;
use super::Reader;

impl<'a> Reader<'a> {
    /// An error at `at` in the current frame (or at the outermost entity reference).
    #[cold]
    pub(in crate::reader) fn error_here(&mut self, at: usize, kind: ErrorKind) -> Error {
        match self.core.st.frames.first() {
            None => self.error_at_doc(self.input.base + at as u64, kind),
            Some(f) => {
                let doc_at = self.input.base + f.saved_pos as u64;
                let name = self
                    .core
                    .st
                    .frames
                    .last()
                    .map(|f| self.core.dtd.entities[f.entity].name.to_string())
                    .unwrap_or_default();
                self.error_at_doc(doc_at, kind).with_entity(&name)
            }
        }
    }

    #[cold]
    pub(in crate::reader) fn error_at_doc(&mut self, offset: u64, kind: ErrorKind) -> Error {
        Error::new(kind, self.location_of(offset))
    }

    /// Line and column of a byte offset in the document. Offsets before the window a streaming
    /// reader still holds are answered as the start of that window. Binary input has no lines:
    /// line 1, column `offset + 1`.
    pub fn location_of(&mut self, offset: u64) -> Location {
        if self.binary.is_some() {
            // Binary input has no lines: one line, a column per byte.
            return Location {
                offset,
                line: 1,
                column: offset + 1,
            };
        }
        let data = self.input.data();
        let base = self.input.base;
        if offset < self.core.st.lines.offset {
            if base == 0 {
                self.core.st.lines = LineTracker::START;
            } else {
                return Location {
                    offset,
                    line: self.core.st.lines.line,
                    column: self.core.st.lines.col + 1,
                };
            }
        }
        let from = (self.core.st.lines.offset - base) as usize;
        let to = ((offset - base) as usize).min(data.len());
        if from < to {
            self.core.st.lines.advance(&data[from..to]);
        }
        Location {
            offset,
            line: self.core.st.lines.line,
            column: self.core.st.lines.col + 1,
        }
    }

    /// Location of the start of the current event (for events from an entity's replacement
    /// text: the location of the reference).
    pub fn location(&mut self) -> Location {
        let o = self.core.st.tok.start;
        self.location_of(o)
    }
}
