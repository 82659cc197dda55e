//! Lines and columns, counted only when a location is asked for.

/// Turns byte offsets into lines and columns, moving forward through the document.
#[derive(Default, Clone, Copy)]
pub(in crate::reader) struct LineTracker {
    pub(in crate::reader) offset: u64,
    pub(in crate::reader) line: u64,
    pub(in crate::reader) col: u64,
}

impl LineTracker {
    /// At the start of a document: line 1, before its first column.
    pub(in crate::reader) const START: LineTracker = LineTracker {
        offset: 0,
        line: 1,
        col: 0,
    };

    /// Advances over `bytes`, which start at `self.offset`.
    pub(in crate::reader) fn advance(&mut self, bytes: &[u8]) {
        let mut last_nl = None;
        for i in memchr::memrchr_iter(b'\n', bytes) {
            if last_nl.is_none() {
                last_nl = Some(i);
            }
            self.line += 1;
        }
        let tail = match last_nl {
            Some(i) => {
                self.col = 0;
                &bytes[i + 1..]
            }
            None => bytes,
        };
        self.col += tail.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64;
        self.offset += bytes.len() as u64;
    }
}
