//! The document's bytes in UTF-8 as the text source sees them: a borrowed slice, an owned
//! transcoding, or a window on a stream that is refilled as tokens need more.

use std::io::Read;
use std::sync::Arc;

use crate::error::ErrorKind;
use crate::input::ChunkDecoder;

pub(in crate::reader) struct Stream<'a> {
    pub(in crate::reader) read: Box<dyn Read + 'a>,
    pub(in crate::reader) decoder: Option<ChunkDecoder>,
    pub(in crate::reader) raw: Vec<u8>,
    pub(in crate::reader) chunk: usize,
}

/// The document's bytes in UTF-8: a borrowed slice, an owned transcoding, or a window on a stream.
pub(in crate::reader) struct Input<'a> {
    pub(in crate::reader) slice: &'a [u8],
    pub(in crate::reader) buf: Vec<u8>,
    pub(in crate::reader) owned: bool,
    pub(in crate::reader) stream: Option<Box<Stream<'a>>>,
    pub(in crate::reader) eof: bool,
    /// Bytes that could not be decoded follow the data: the error is reported when the reader
    /// needs data past the end of `buf`.
    pub(in crate::reader) bad_encoding: Option<Box<str>>,
    /// Absolute offset of `data()[0]` in the document.
    pub(in crate::reader) base: u64,
}

impl<'a> Input<'a> {
    /// Holds back a decoding error until the reader reaches it.
    pub(in crate::reader) fn defer(&mut self, err: Option<(usize, String)>) {
        if let Some((_, m)) = err {
            self.bad_encoding = Some(m.into());
            self.eof = false;
        }
    }

    #[inline]
    pub(in crate::reader) fn data(&self) -> &[u8] {
        if self.owned {
            &self.buf
        } else {
            self.slice
        }
    }

    /// Drops bytes before `keep` and appends more from the stream. Returns how many bytes
    /// were dropped.
    pub(in crate::reader) fn refill(
        &mut self,
        keep: usize,
    ) -> std::result::Result<usize, ErrorKind> {
        let Some(s) = self.stream.as_mut() else {
            self.eof = true;
            return Ok(0);
        };
        self.buf.drain(..keep);
        self.base += keep as u64;
        // Read at least as much as is already held, so retrying a long token stays linear.
        let want = s.chunk.max(self.buf.len());
        // Read through a scratch buffer that only grows: zeroing `want` bytes of `buf` for
        // every `read` cost 64 KB of memset per call, ruinous for readers returning a few bytes.
        if s.raw.len() < want {
            s.raw.resize(want, 0);
        }
        let raw = &mut s.raw[..want];
        let before = self.buf.len();
        while self.buf.len() == before && !self.eof {
            match &mut s.decoder {
                None => {
                    let n = read_some(&mut s.read, raw)?;
                    self.buf.extend_from_slice(&raw[..n]);
                    self.eof = n == 0;
                }
                Some(dec) => {
                    let n = read_some(&mut s.read, raw)?;
                    self.eof = n == 0;
                    if let Err((_, m)) = dec.decode(&raw[..n], &mut self.buf, n == 0) {
                        self.bad_encoding = Some(m.into());
                        self.eof = false;
                        break;
                    }
                }
            }
        }
        Ok(keep)
    }
}

pub(in crate::reader) fn read_some(
    r: &mut dyn Read,
    buf: &mut [u8],
) -> std::result::Result<usize, ErrorKind> {
    loop {
        match r.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ErrorKind::Io(Arc::new(e))),
        }
    }
}

/// How many bytes encoding detection looks at (the byte order mark and the XML declaration
/// must lie within them), for slices and streams alike.
pub(in crate::reader) const DETECT_WINDOW: usize = 4096;
