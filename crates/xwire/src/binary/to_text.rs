//! Binary XML to text XML: the reader's events through the text writer.

use std::fmt;
use std::io::Write;

use crate::error::{Error, ErrorKind, Location};
use crate::writer::{WriteError, Writer};
use crate::{Event, Reader};

/// Why [`decode_to_text`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is not valid binary XML (or a reader limit was exceeded).
    Read(Error),
    /// Writing the text failed (an I/O error of the sink, or content text XML cannot hold).
    Write(WriteError),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Read(e) => write!(f, "{e}"),
            DecodeError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::Read(e) => Some(e),
            DecodeError::Write(e) => Some(e),
        }
    }
}

impl From<Error> for DecodeError {
    fn from(e: Error) -> DecodeError {
        DecodeError::Read(e)
    }
}

impl From<WriteError> for DecodeError {
    fn from(e: WriteError) -> DecodeError {
        DecodeError::Write(e)
    }
}

/// Writes the text form of a binary XML file to `out` (UTF-8, no XML declaration), typed
/// values in their text form (`docs/binary-format.md`), and returns `out`.
///
/// ```
/// // The example of docs/binary-format.md.
/// let file = [
///     0x89, 0x58, 0x57, 0x42, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x00, 0x01, 0x2A, 0x04, 0x05,
///     0x75, 0x72, 0x6E, 0x3A, 0x78, 0x01, 0x61, 0x01, 0x6E, 0x01, 0x76, 0x02, 0x1B, 0x01,
///     0x00, 0x01, 0x02, 0x00, 0x01, 0x01, 0x00, 0x02, 0x01, 0x31, 0x03, 0x0E, 0x00, 0x03,
///     0x00, 0x03, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40,
/// ];
/// let text = xwire::binary::decode_to_text(&file, Vec::new())?;
/// assert_eq!(text, br#"<a xmlns="urn:x" n="1"><v>2.5</v></a>"#);
/// # Ok::<(), xwire::binary::DecodeError>(())
/// ```
pub fn decode_to_text<W: Write>(bytes: &[u8], out: W) -> Result<W, DecodeError> {
    if !super::is_binary(bytes) {
        let kind = ErrorKind::Binary("bad magic: not a binary XML file".into());
        let at = Location {
            offset: 0,
            line: 1,
            column: 1,
        };
        return Err(DecodeError::Read(Error::new(kind, at)));
    }
    let mut r = Reader::from_slice(bytes);
    let mut w = Writer::new(out);
    loop {
        let e = r.next()?;
        if matches!(e, Event::Eof) {
            return Ok(w.finish()?);
        }
        w.write_event(&e)?;
    }
}
