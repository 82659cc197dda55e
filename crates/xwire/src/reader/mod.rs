//! The pull cursor: turns bytes into tokens, checking every well-formedness and namespace
//! constraint on the way.
//!
//! The reader is a façade over two sources that fill one token state:
//!
//! - [`token`]: the contract between the sources and everything above them: the current
//!   token (its kind and spans named by role), its attributes, the element stack, the
//!   namespace bindings in scope and the interned names, with the operations on them
//!   (intern a QName, resolve a prefix).
//! - [`text`]: the text source. One parse function per construct works on the bytes of the
//!   *current frame* (the document buffer, or the replacement text of an entity being
//!   expanded) from the current position. It either completes the token, stops with
//!   [`Stop::Eof`] when a streaming buffer ends too early (the reader reads more and parses
//!   the token again from its start), or stops with an error.
//! - [`binary`]: the binary source, the frame decoder of `docs/binary-format.md`.
//! - [`event`]: the borrowed views of the current token ([`Event`]; nothing is copied unless
//!   a value must be normalised). They read only the token state.
//! - This module: the [`Reader`] itself, which picks a source and a path for the next token
//!   ([`advance`]) and answers locations ([`location`]), document information ([`info`]) and
//!   the typed content of binary input ([`typed`]);
//!   [`reuse`] keeps a reader's allocations for the next document. What the caller sets
//!   ([`Config`], [`Limits`]) lives below, in `crate::config`, where the DTD parser reads it
//!   too.
//!
//! Names are interned to ids on first sight; namespace resolution of a name is cached per id
//! and invalidated only when a declaration changes the bindings in scope.

mod advance;
mod binary;
pub(crate) mod event;
mod info;
mod location;
mod reuse;
pub(crate) mod text;
pub(crate) mod token;
mod typed;

use std::io::Read;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};
use crate::input::{self, ChunkDecoder, Enc};
use crate::resolver::Resolver;
use binary::Decoder;
use event::Event;
use token::TokenKind;

use reuse::Core;
use text::window::{read_some, Input, Stream, DETECT_WINDOW};
use text::Phase;

pub use crate::config::{Config, Limits};
pub use reuse::ReaderBuffers;
pub use token::{NsId, XMLNS_NS, XML_NS};

/// A streaming, zero-copy XML 1.0 + Namespaces reader (a pull cursor).
///
/// It also reads binary XML (`docs/binary-format.md`, recognised by its magic number) with the
/// same events, so code reads either encoding unchanged; see [`Reader::typed_content`] for
/// the typed values only binary input has.
///
/// ```
/// use xwire::{Event, Reader};
/// let mut r = Reader::from_slice(br#"<a xmlns="urn:x" n="1">hi &amp; bye<b/></a>"#);
/// let mut seen = Vec::new();
/// loop {
///     match r.next()? {
///         Event::Start(t) => seen.push(format!("start {} {}", t.local_name(), t.attributes().count())),
///         Event::End(t) => seen.push(format!("end {}", t.name())),
///         Event::Text(t) => seen.push(format!("text {}", t.unescape())),
///         Event::Eof => break,
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["start a 2", "text hi & bye", "start b 0", "end b", "end a"]);
/// # Ok::<(), xwire::Error>(())
/// ```
pub struct Reader<'a> {
    input: Input<'a>,
    /// The token state, the text source's state and the DTD, boxed so that reuse moves a
    /// pointer (see `reuse`); taken out only by `Drop` and `into_buffers`.
    core: ManuallyDrop<Box<Core>>,
    resolver: Option<Box<dyn Resolver + 'a>>,
    /// The error that stopped the reader, returned again by every later call.
    failed: Option<Error>,
    /// The cursor over the binary encoding, when the input is binary XML. Its `unsafe fn`s
    /// must be passed the input it was made with, every time, and `input.data()` is that: the
    /// decoder is made with the input (`init_slice`, `from_reader`) and dropped before other
    /// input is set (`restart`, `init_slice`); `park` empties the input of a reader that is
    /// restarted before it reads again.
    binary: Option<Box<Decoder>>,
    /// How `advance` reads the next token (see [`Reader::choose_path`]).
    path: Path,
    /// The current token was read by [`Reader::peek`]: the next call returns it again.
    peeked: bool,
}

/// How [`Reader::advance`] reads the next token, chosen after every token off the fast path
/// ([`Reader::choose_path`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Path {
    /// A UTF-8 document in memory, past its start and outside entities: one step, no tests.
    Doc,
    /// The same over a transcoded document.
    Transcoded,
    /// Any text input, token by token: a stream, an entity's replacement text, a document
    /// longer than a token's window.
    General,
    /// Everything else first tested: the start of a document (its XML declaration), an early
    /// error, binary input, a failed or finished reader.
    Check,
    /// [`Path::Doc`] or [`Path::Transcoded`] after an empty element's start tag: its end comes
    /// next, and then that path again. So the fast path tests nothing but the path before its
    /// step.
    EndEmpty,
}

impl<'a> Reader<'a> {
    /// A reader over a whole document in memory. UTF-8 input is read in place; other encodings
    /// are transcoded once.
    #[inline]
    pub fn from_slice(bytes: &'a [u8]) -> Reader<'a> {
        Reader::with_config(bytes, Config::default())
    }

    /// A reader over a whole document in memory, with a configuration.
    #[inline]
    pub fn with_config(bytes: &'a [u8], config: Config) -> Reader<'a> {
        let mut r = Reader::empty(config);
        r.init_slice(bytes);
        r
    }

    pub(crate) fn init_slice(&mut self, bytes: &'a [u8]) {
        let r = self;
        r.input.slice = bytes;
        r.input.eof = true;
        if crate::binary::is_binary(bytes) {
            r.binary = Some(Box::default());
            r.path = Path::Check;
            return;
        }
        // A decoder views what it checked in earlier calls as the same input: none may
        // outlive its own (callers pass a new or restarted reader; this makes sure of it).
        r.binary = None;
        match input::detect(&bytes[..bytes.len().min(DETECT_WINDOW)]) {
            Ok(Enc::Utf8 { bom }) => {
                r.core.st.pos = bom;
                // Without an XML declaration the document is past its start already (what
                // the first step would conclude): its first token is read on the fast path.
                if !crate::decl::starts_decl(bytes, bom) {
                    r.core.st.phase = Phase::Prolog;
                    r.choose_path();
                }
            }
            Ok(enc) => {
                let (buf, err) = input::decode_all(bytes, enc);
                r.input.buf = buf;
                r.input.owned = true;
                r.input.defer(err);
            }
            Err(m) => r.fail_early(0, ErrorKind::EncodingMismatch(m)),
        }
        r.core.st.doc_start = r.core.st.pos as u64;
        r.core.st.lines.offset = 0;
    }

    /// A reader that pulls the document from `read` in chunks, holding only a window of it in
    /// memory (plus the longest token, bounded by [`Limits::max_text_length`]).
    ///
    /// Binary XML (recognised by its magic number) is read into memory whole first: its frames
    /// can be skipped and its arrays viewed in place only over the complete file. No limit of
    /// the configuration bounds that read; bound the input with [`Read::take`] if needed.
    pub fn from_reader<R: Read + 'a>(read: R, config: Config) -> Reader<'a> {
        let chunk = config.chunk_size.max(64);
        let mut r = Reader::empty(config);
        r.input.owned = true;
        let mut stream = Stream {
            read: Box::new(read),
            decoder: None,
            raw: Vec::new(),
            chunk,
        };
        // Read enough to see the byte order mark and the XML declaration.
        let mut head = Vec::new();
        let mut tmp = vec![0u8; chunk];
        let mut eof = false;
        // Always the same amount (or all of a shorter document): detection then sees exactly
        // the bytes it sees for a slice (see `DETECT_WINDOW`), however the stream is chunked.
        while !eof && head.len() < DETECT_WINDOW {
            match read_some(&mut stream.read, &mut tmp) {
                Ok(0) => eof = true,
                Ok(n) => head.extend_from_slice(&tmp[..n]),
                Err(k) => {
                    r.fail_early(0, k);
                    return r;
                }
            }
        }
        if crate::binary::is_binary(&head) {
            let mut read = stream.read;
            let mut head = head;
            if !eof {
                if let Err(e) = read.read_to_end(&mut head) {
                    r.fail_early(head.len(), ErrorKind::Io(Arc::new(e)));
                }
            }
            r.input.buf = head;
            r.input.eof = true;
            r.binary = Some(Box::default());
            r.path = Path::Check;
            return r;
        }
        match input::detect(&head[..head.len().min(DETECT_WINDOW)]) {
            Ok(Enc::Utf8 { bom }) => {
                r.input.buf = head;
                r.core.st.pos = bom;
            }
            Ok(enc) => {
                let mut dec = ChunkDecoder::new(enc);
                let bom = enc.bom_len().min(head.len());
                let err = dec.decode(&head[bom..], &mut r.input.buf, eof).err();
                stream.decoder = Some(dec);
                r.input.eof = eof;
                r.input.defer(err);
            }
            Err(m) => r.fail_early(0, ErrorKind::EncodingMismatch(m)),
        }
        r.input.eof = eof && r.input.bad_encoding.is_none();
        r.input.stream = Some(Box::new(stream));
        r.core.st.doc_start = r.core.st.pos as u64;
        r
    }

    /// Installs a resolver for external entities (the external DTD subset, external parameter
    /// and general entities). Without one, nothing external is ever loaded.
    pub fn set_resolver(&mut self, resolver: impl Resolver + 'a) {
        self.resolver = Some(Box::new(resolver));
    }

    #[cold]
    fn fail_early(&mut self, at: usize, kind: ErrorKind) {
        self.core.st.early = Some((at, kind));
        self.path = Path::Check;
    }
}

impl<'a> Reader<'a> {
    /// Reads the next event. After [`Event::Eof`] or an error, every further call returns the
    /// same again.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Event<'_>> {
        if self.peeked {
            self.peeked = false;
        } else {
            self.advance()?;
        }
        Ok(self.event())
    }

    /// Reads the next event, like [`Reader::next`], with the byte offset of its start (what
    /// [`Reader::offset`] would say after it, which the borrow of the event does not allow).
    ///
    /// ```
    /// use xwire::{Event, Reader};
    ///
    /// let mut r = Reader::from_slice(b"<a>hi</a>");
    /// let mut starts = Vec::new();
    /// loop {
    ///     let (offset, ev) = r.next_with_offset().unwrap();
    ///     if matches!(ev, Event::Eof) {
    ///         break;
    ///     }
    ///     starts.push(offset);
    /// }
    /// assert_eq!(starts, [0, 3, 5]);
    /// ```
    #[inline]
    pub fn next_with_offset(&mut self) -> Result<(u64, Event<'_>)> {
        if self.peeked {
            self.peeked = false;
        } else {
            self.advance()?;
        }
        Ok((self.core.st.tok.start, self.event()))
    }

    /// Moves to the next event without building its view, and says what kind it is;
    /// [`Reader::current`] then views it (as often as needed, through `&self`). For a layer
    /// on the reader that hands out its own view of each event: it keeps only a borrow of the
    /// reader, where [`Reader::next`] would have it carry the event along.
    ///
    /// ```
    /// use xwire::{Event, Reader, TokenKind};
    ///
    /// let mut r = Reader::from_slice(b"<a>hi</a>");
    /// assert_eq!(r.next_token().unwrap(), TokenKind::Start);
    /// assert!(matches!(r.current(), Event::Start(t) if t.name() == "a"));
    /// assert_eq!(r.next_token().unwrap(), TokenKind::Text);
    /// assert_eq!(r.offset(), 3);
    /// ```
    #[inline]
    pub fn next_token(&mut self) -> Result<TokenKind> {
        if self.peeked {
            self.peeked = false;
        } else {
            self.advance()?;
        }
        Ok(self.core.st.tok.kind)
    }

    /// The event last read (by [`Reader::next_token`], [`Reader::next`] or
    /// [`Reader::peek`]); [`Event::Eof`] before the first.
    #[inline(always)]
    pub fn current(&self) -> Event<'_> {
        self.event()
    }

    /// Returns the next event without consuming it: the following [`Reader::next`] returns it
    /// again.
    pub fn peek(&mut self) -> Result<Event<'_>> {
        if !self.peeked {
            self.advance()?;
            self.peeked = true;
        }
        Ok(self.event())
    }

    /// Kind of the next event, without consuming it.
    pub fn peek_kind(&mut self) -> Result<TokenKind> {
        self.peek().map(|e| e.kind())
    }

    /// Builds the borrowed view of the current token. Always inlined: built out of line, the
    /// event goes through memory, and the caller's first wide load of it stalls on the
    /// narrower stores that wrote it (store forwarding fails).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn event(&self) -> Event<'_> {
        let data: &[u8] = match self.core.st.frames.last() {
            Some(f) => f.text.as_bytes(),
            None => self.input.data(),
        };
        // SAFETY: the bytes the current token was read from: the text of the innermost entity
        // frame while one is open, else the input as it is now (a window moves only when the
        // next token is read, and binary input is never a window).
        unsafe { event::view(data, &self.core.st.tok, &self.core.dtd) }
    }
}
