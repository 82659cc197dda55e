//! The pull cursor: turns UTF-8 bytes into tokens, checking every well-formedness and namespace
//! constraint on the way.
//!
//! Design in brief:
//! - One parse function per token kind works on the bytes of the *current frame* (the document
//!   buffer, or the replacement text of an entity being expanded) from the current position. It
//!   either completes the token, stops with [`Stop::Eof`] when a streaming buffer ends too early
//!   (the reader reads more and parses the token again from its start), or stops with an error.
//! - A token is stored as spans into the frame plus a little state; [`Reader::next`] returns a
//!   borrowed view of it ([`Event`]), so nothing is copied unless a value must be normalised.
//! - Names are interned to ids on first sight; namespace resolution of a name is cached per id
//!   and invalidated only when a declaration changes the bindings in scope.

use std::borrow::Cow;
use std::io::Read;
use std::sync::Arc;

use crate::binary::decode::Decoder;
use crate::binary::{self, Primitive, Typed};
use crate::bytes::same_bytes;
use crate::chars;
use crate::decl::{self, DeclKind, XmlDecl};
use crate::dtd::{self, Class, Dtd, DtdParser, Expansion};
use crate::error::{Error, ErrorKind, LimitKind, Location, Result};
use crate::event::{Attr, Event, Span, TokenKind};
use crate::input::{self, ChunkDecoder, Enc};
use crate::intern::{Id, Interner};
use crate::resolver::Resolver;
use crate::scan::str_of;
use crate::scan::{self, bad, syntax, Ref, Scan, Stop};

/// The namespace URI bound to the `xml` prefix.
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace URI of namespace declarations (`xmlns` attributes).
pub const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// Id of a namespace URI interned by a reader. [`NsId::NONE`] is "no namespace".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NsId(pub u32);

impl NsId {
    /// No namespace (an unprefixed attribute, or an element outside any default namespace).
    pub const NONE: NsId = NsId(0);
    /// `http://www.w3.org/XML/1998/namespace`.
    pub const XML: NsId = NsId(1);
    /// `http://www.w3.org/2000/xmlns/`.
    pub const XMLNS: NsId = NsId(2);
}

/// Safety limits. Every default is chosen so ordinary documents never meet it and hostile ones
/// fail fast in bounded memory.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum element nesting depth. Default 4096.
    pub max_depth: u32,
    /// Maximum attributes on one element. Default 10,000.
    pub max_attributes: u32,
    /// Maximum length of a name in bytes. Default 50,000.
    pub max_name_length: u32,
    /// Maximum length in bytes of one token: text node, attribute value, comment, PI, CDATA
    /// section, start tag or DTD. Default 10,000,000.
    pub max_text_length: u64,
    /// Maximum bytes produced by entity expansion over the whole document. Default 10,000,000.
    pub max_entity_expansion: u64,
    /// Maximum ratio of entity expansion to document size, checked once expansion passes 1 MiB.
    /// Default 20.
    pub max_expansion_ratio: u64,
    /// Maximum nesting of entity references. Default 64.
    pub max_entity_depth: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 4096,
            max_attributes: 10_000,
            max_name_length: 50_000,
            max_text_length: 10_000_000,
            max_entity_expansion: 10_000_000,
            max_expansion_ratio: 20,
            max_entity_depth: 64,
        }
    }
}

/// How a [`Reader`] behaves.
///
/// ```
/// let mut config = xwire::Config::default();
/// config.limits.max_depth = 2;
/// let mut r = xwire::Reader::with_config(b"<a><b><c/></b></a>", config);
/// let err = std::iter::from_fn(|| Some(r.next().map(|e| e.kind()))).find_map(|e| e.err()).unwrap();
/// assert!(err.to_string().contains("nesting depth"));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Safety limits.
    pub limits: Limits,
    /// Process namespaces (resolve prefixes, check the constraints of Namespaces in XML 1.0).
    /// Default true. When false, names are plain XML 1.0 names and every namespace id is
    /// [`NsId::NONE`].
    pub namespaces: bool,
    /// Bytes read from a `std::io::Read` at a time. Default 64 KiB.
    pub chunk_size: usize,
    /// Base URI of the document, passed to the resolver for relative system identifiers.
    pub base_uri: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            namespaces: true,
            chunk_size: 64 * 1024,
            base_uri: None,
        }
    }
}

// ----- input --------------------------------------------------------------------------------

struct Stream<'a> {
    read: Box<dyn Read + 'a>,
    decoder: Option<ChunkDecoder>,
    raw: Vec<u8>,
    chunk: usize,
}

/// The document's bytes in UTF-8: a borrowed slice, an owned transcoding, or a window on a stream.
struct Input<'a> {
    slice: &'a [u8],
    buf: Vec<u8>,
    owned: bool,
    stream: Option<Stream<'a>>,
    eof: bool,
    /// Bytes that could not be decoded follow the data: the error is reported when the reader
    /// needs data past the end of `buf`.
    bad_encoding: Option<String>,
    /// Absolute offset of `data()[0]` in the document.
    base: u64,
}

impl<'a> Input<'a> {
    /// Holds back a decoding error until the reader reaches it.
    fn defer(&mut self, err: Option<(usize, String)>) {
        if let Some((_, m)) = err {
            self.bad_encoding = Some(m);
            self.eof = false;
        }
    }

    #[inline]
    fn data(&self) -> &[u8] {
        if self.owned {
            &self.buf
        } else {
            self.slice
        }
    }

    /// Drops bytes before `keep` and appends more from the stream. Returns how many bytes
    /// were dropped.
    fn refill(&mut self, keep: usize) -> std::result::Result<usize, ErrorKind> {
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
                        self.bad_encoding = Some(m);
                        self.eof = false;
                        break;
                    }
                }
            }
        }
        Ok(keep)
    }
}

fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> std::result::Result<usize, ErrorKind> {
    loop {
        match r.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ErrorKind::Io(e.to_string())),
        }
    }
}

// ----- state --------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    /// Nothing read yet: the XML declaration may come.
    Start,
    /// Before the root element.
    Prolog,
    /// Inside the root element.
    Content,
    /// After the root element.
    Epilog,
    /// End of document reported (or a fatal error).
    Done,
}

/// An entity being expanded in content.
struct EntFrame {
    text: Arc<str>,
    /// Position in the parent frame to return to.
    saved_pos: usize,
    entity: usize,
    /// Open elements when the entity started: it must close exactly those it opens.
    depth: usize,
}

#[derive(Clone, Copy)]
pub(crate) struct Open {
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    /// Length of `bindings` before this element's declarations.
    pub(crate) bindings: u32,
}

/// Per interned qualified name: where its prefix ends and its cached namespace resolution.
#[derive(Clone, Copy)]
pub(crate) struct QMeta {
    /// Length of the prefix in bytes (0: no prefix).
    pub(crate) prefix_len: u32,
    /// Interned prefix (valid if `prefix_len > 0`).
    prefix: Id,
    epoch: u32,
    ns: NsId,
}

pub(crate) const NO_PREFIX: Id = Id(u32::MAX);

/// The allocations of a finished [`Reader`], for the next one to reuse
/// ([`Reader::into_buffers`], [`Reader::with_buffers`]). Without them a new reader takes the
/// (small) buffers the last reader dropped on its thread left behind, so explicit reuse only
/// matters for keeping buffers per connection or across threads.
#[derive(Default)]
pub struct ReaderBuffers {
    st: StateBufs,
    dtd: Dtd,
    buf: Vec<u8>,
}

thread_local! {
    /// The allocations of the last reader dropped on this thread, for the next one: a server
    /// parsing one small message after another then allocates almost nothing per message,
    /// without managing [`ReaderBuffers`] itself. Only small sets are kept
    /// ([`ReaderBuffers::small`]), so a thread never holds on to a big document's buffers.
    static SPARE: std::cell::Cell<Option<ReaderBuffers>> = const { std::cell::Cell::new(None) };
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if self.st.names.is_unallocated() {
            return; // into_buffers took them.
        }
        let bufs = self.take_buffers();
        if bufs.small() {
            // `try_with`: the thread-local may already be gone while a thread exits.
            let _ = SPARE.try_with(|s| s.set(Some(bufs)));
        }
    }
}

impl ReaderBuffers {
    /// Whether the buffers are small enough to keep for the next reader of this thread:
    /// about 64 KB in all, and no DTD (whose entities could be large).
    fn small(&self) -> bool {
        let st = &self.st;
        let bytes = self.buf.capacity()
            + st.names.heap_bytes()
            + st.uris.heap_bytes()
            + st.stack.capacity() * std::mem::size_of::<Open>()
            + st.qmeta.capacity() * std::mem::size_of::<QMeta>()
            + st.attrs.capacity() * std::mem::size_of::<Attr>()
            + st.scratch.capacity();
        bytes <= 64 << 10 && st.frames.is_empty() && self.dtd.is_empty()
    }
}

/// The reusable vectors of [`State`].
struct StateBufs {
    frames: Vec<EntFrame>,
    stack: Vec<Open>,
    names: Interner,
    qmeta: Vec<QMeta>,
    uris: Interner,
    bindings: Vec<(Id, NsId)>,
    attrs: Vec<Attr>,
    scratch: String,
    /// What the names were read under: their ids' generation (0: none), the last binding
    /// epoch (the next reader goes on from it, so no cached resolution of a name matches a
    /// new scope) and whether namespaces were on (their QName checks and prefixes).
    names_gen: u64,
    epoch: u32,
    namespaces: bool,
}

/// At most this many names and namespace names are kept from one document for the next
/// (see [`Reader::name_generation`]): a stream of ever-new names cannot grow the tables.
const KEPT_NAMES: usize = 256;
const KEPT_URIS: usize = 32;

/// Whether a document's names and namespace names are few enough to keep for the next one
/// (with the binding epoch far from wrapping).
fn names_fit(names: &Interner, uris: &Interner, epoch: u32) -> bool {
    names.len() <= KEPT_NAMES && uris.len() <= KEPT_URIS && epoch < u32::MAX / 2
}

/// The name generation and binding epoch of the next document: the same generation when
/// its names are kept, and the epoch going on from where it was; else a new generation.
fn name_ids(keep: bool, names_gen: u64, epoch: u32) -> (u64, u32) {
    if keep {
        (names_gen, epoch + 1)
    } else {
        (next_name_generation(), 1)
    }
}

/// Empties `o`, its value dropped out of line: the reset of a reader between documents
/// keeps the drop code of what most documents never set out of its cache lines.
#[inline(always)]
fn clear<T>(o: &mut Option<T>) {
    #[cold]
    #[inline(never)]
    fn drop_cold<T>(_: T) {}
    if o.is_some() {
        drop_cold(o.take());
    }
}

/// A new generation of name ids, unique in the process.
fn next_name_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Default for StateBufs {
    fn default() -> StateBufs {
        StateBufs {
            frames: Vec::new(),
            stack: Vec::with_capacity(16),
            names: Interner::with_capacity(64, 256),
            qmeta: Vec::with_capacity(32),
            uris: Interner::with_capacity(16, 128),
            bindings: Vec::with_capacity(8),
            attrs: Vec::with_capacity(8),
            scratch: String::new(),
            names_gen: 0,
            epoch: 0,
            namespaces: false,
        }
    }
}

/// Everything the reader tracks besides its input and DTD.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) pos: usize,
    frames: Vec<EntFrame>,
    pub(crate) phase: Phase,
    doc_start: u64,
    xml_decl: Option<XmlDecl>,
    standalone: bool,
    pub(crate) stack: Vec<Open>,
    pub(crate) names: Interner,
    pub(crate) qmeta: Vec<QMeta>,
    pub(crate) uris: Interner,
    pub(crate) bindings: Vec<(Id, NsId)>,
    pub(crate) epoch: u32,
    /// The generation of the ids in `names` and `uris` ([`Reader::name_generation`]).
    names_gen: u64,
    // The current token.
    pub(crate) kind: TokenKind,
    pub(crate) tok_start: u64,
    pub(crate) a: Span,
    pub(crate) b: Span,
    pub(crate) flags: u8,
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    pub(crate) empty: bool,
    pending_end: bool,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) scratch: String,
    pub(crate) doctype: Option<crate::event::DoctypeInfo>,
    expansion: Expansion,
    pub(crate) peeked: bool,
    lines: LineTracker,
    /// An error found before parsing started (encoding), reported by the first `next`.
    early: Option<(usize, ErrorKind)>,
}

/// Turns byte offsets into lines and columns, moving forward through the document.
#[derive(Default, Clone, Copy)]
struct LineTracker {
    offset: u64,
    line: u64,
    col: u64,
}

impl LineTracker {
    /// At the start of a document: line 1, before its first column.
    const START: LineTracker = LineTracker {
        offset: 0,
        line: 1,
        col: 0,
    };

    /// Advances over `bytes`, which start at `self.offset`.
    fn advance(&mut self, bytes: &[u8]) {
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

/// How many bytes encoding detection looks at (the byte order mark and the XML declaration
/// must lie within them), for slices and streams alike.
const DETECT_WINDOW: usize = 4096;

/// Bytes of markup a token may have beyond [`Limits::max_text_length`] of content.
const TOKEN_SLACK: usize = 1024;

// Text flags.
pub(crate) const F_REFS: u8 = 1;
pub(crate) const F_CR: u8 = 2;

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
    dtd: Dtd,
    st: State,
    resolver: Option<Box<dyn Resolver + 'a>>,
    /// The error that stopped the reader, returned again by every later call.
    failed: Option<Error>,
    /// The cursor over the binary encoding, when the input is binary XML.
    binary: Option<Box<Decoder>>,
    /// How `advance` reads the next token (see [`Reader::choose_path`]).
    path: Path,
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
}

impl<'a> Reader<'a> {
    /// A reader over a whole document in memory. UTF-8 input is read in place; other encodings
    /// are transcoded once.
    pub fn from_slice(bytes: &'a [u8]) -> Reader<'a> {
        Reader::with_config(bytes, Config::default())
    }

    /// A reader over a whole document in memory, with a configuration.
    pub fn with_config(bytes: &'a [u8], config: Config) -> Reader<'a> {
        let mut r = Reader::empty(config);
        r.init_slice(bytes);
        r
    }

    pub(crate) fn init_slice(&mut self, bytes: &'a [u8]) {
        let r = self;
        r.input.slice = bytes;
        r.input.eof = true;
        if binary::is_binary(bytes) {
            r.binary = Some(Box::default());
            r.path = Path::Check;
            return;
        }
        match input::detect(&bytes[..bytes.len().min(DETECT_WINDOW)]) {
            Ok(Enc::Utf8 { bom }) => r.st.pos = bom,
            Ok(enc) => {
                let (buf, err) = input::decode_all(bytes, enc);
                r.input.buf = buf;
                r.input.owned = true;
                r.input.defer(err);
            }
            Err(m) => r.fail_early(0, ErrorKind::EncodingMismatch(m)),
        }
        r.st.doc_start = r.st.pos as u64;
        r.st.lines.offset = 0;
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
        if binary::is_binary(&head) {
            let mut read = stream.read;
            let mut head = head;
            if !eof {
                if let Err(e) = read.read_to_end(&mut head) {
                    r.fail_early(head.len(), ErrorKind::Io(e.to_string()));
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
                r.st.pos = bom;
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
        r.input.stream = Some(stream);
        r.st.doc_start = r.st.pos as u64;
        r
    }

    /// A reader on the allocations a dropped reader of this thread left (see [`SPARE`]), or
    /// on new ones.
    pub(crate) fn empty(config: Config) -> Reader<'a> {
        let bufs = SPARE.with(|s| s.take()).unwrap_or_default();
        Reader::recycled(config, bufs)
    }

    /// A reader built on the allocations of an earlier one.
    fn recycled(config: Config, bufs: ReaderBuffers) -> Reader<'a> {
        let ReaderBuffers {
            st: old,
            mut dtd,
            mut buf,
        } = bufs;
        dtd.clear();
        buf.clear();
        // The names of the last document stay (with their ids) when they are few and were
        // read the same way; the binding epoch goes on from where it was.
        let keep = old.names_gen != 0
            && old.namespaces == config.namespaces
            && names_fit(&old.names, &old.uris, old.epoch);
        let (names_gen, epoch) = name_ids(keep, old.names_gen, old.epoch);
        let mut st = State {
            config,
            pos: 0,
            frames: old.frames,
            phase: Phase::Start,
            doc_start: 0,
            xml_decl: None,
            standalone: false,
            stack: old.stack,
            names: old.names,
            qmeta: old.qmeta,
            uris: old.uris,
            bindings: old.bindings,
            epoch,
            names_gen,
            kind: TokenKind::Eof,
            tok_start: 0,
            a: Span::default(),
            b: Span::default(),
            flags: 0,
            qname: Id(0),
            ns: NsId::NONE,
            empty: false,
            pending_end: false,
            attrs: old.attrs,
            scratch: old.scratch,
            doctype: None,
            expansion: Expansion::default(),
            peeked: false,
            lines: LineTracker::START,
            early: None,
        };
        st.frames.clear();
        st.stack.clear();
        st.attrs.clear();
        st.scratch.clear();
        st.reset_names(keep);
        Reader {
            input: Input {
                slice: &[],
                buf,
                owned: false,
                stream: None,
                eof: true,
                bad_encoding: None,
                base: 0,
            },
            dtd,
            st,
            resolver: None,
            failed: None,
            binary: None,
            // The XML declaration is read off the fast path.
            path: Path::Check,
        }
    }

    /// Like [`Reader::with_config`], reusing the allocations of a finished reader (see
    /// [`Reader::into_buffers`]): once warm, parsing a small document allocates nothing.
    ///
    /// ```
    /// let mut buffers = xwire::ReaderBuffers::default();
    /// for doc in [&b"<a x='1'/>"[..], b"<b><c/></b>"] {
    ///     let mut r = xwire::Reader::with_buffers(doc, xwire::Config::default(), buffers);
    ///     while !matches!(r.next()?, xwire::Event::Eof) {}
    ///     buffers = r.into_buffers();
    /// }
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn with_buffers(bytes: &'a [u8], config: Config, buffers: ReaderBuffers) -> Reader<'a> {
        let mut r = Reader::recycled(config, buffers);
        r.init_slice(bytes);
        r
    }

    /// Gives back the reader's allocations for [`Reader::with_buffers`].
    pub fn into_buffers(mut self) -> ReaderBuffers {
        self.take_buffers()
    }

    /// Moves the reusable allocations out, leaving empty (unallocated) ones.
    fn take_buffers(&mut self) -> ReaderBuffers {
        // A name is interned before its first check: after an error the names may hold one
        // that failed, and are not kept. (Nor after binary input, to keep to one way.)
        let clean = self.failed.is_none() && self.binary.is_none();
        let names_gen = if clean { self.st.names_gen } else { 0 };
        let st = &mut self.st;
        ReaderBuffers {
            st: StateBufs {
                frames: std::mem::take(&mut st.frames),
                stack: std::mem::take(&mut st.stack),
                names: std::mem::take(&mut st.names),
                qmeta: std::mem::take(&mut st.qmeta),
                uris: std::mem::take(&mut st.uris),
                bindings: std::mem::take(&mut st.bindings),
                attrs: std::mem::take(&mut st.attrs),
                scratch: std::mem::take(&mut st.scratch),
                names_gen,
                epoch: st.epoch,
                namespaces: st.config.namespaces,
            },
            dtd: std::mem::take(&mut self.dtd),
            buf: std::mem::take(&mut self.input.buf),
        }
    }

    /// Makes the reader a new one with its allocations, configuration and (when few) names,
    /// in place: what [`Reader::take_buffers`] and [`Reader::recycled`] do, without moving
    /// the reader (some 1.2 KB) twice. For [`ReaderSlot`]; the input is set next.
    pub(crate) fn restart(&mut self) {
        let clean = self.failed.is_none() && self.binary.is_none();
        let Reader {
            input,
            dtd,
            st,
            resolver,
            failed,
            binary,
            path,
        } = self;
        let keep = clean && st.names_gen != 0 && names_fit(&st.names, &st.uris, st.epoch);
        (st.names_gen, st.epoch) = name_ids(keep, st.names_gen, st.epoch);
        let State {
            config: _,
            pos,
            frames,
            phase,
            doc_start,
            xml_decl,
            standalone,
            stack,
            names: _,
            qmeta: _,
            uris: _,
            bindings: _,
            epoch: _,
            names_gen: _,
            kind,
            tok_start,
            a,
            b,
            flags,
            qname,
            ns,
            empty,
            pending_end,
            attrs,
            scratch,
            doctype,
            expansion,
            peeked,
            lines,
            early,
        } = st;
        *pos = 0;
        frames.clear();
        *phase = Phase::Start;
        *doc_start = 0;
        clear(xml_decl);
        *standalone = false;
        stack.clear();
        *kind = TokenKind::Eof;
        *tok_start = 0;
        *a = Span::default();
        *b = Span::default();
        *flags = 0;
        *qname = Id(0);
        *ns = NsId::NONE;
        *empty = false;
        *pending_end = false;
        attrs.clear();
        scratch.clear();
        clear(doctype);
        *expansion = Expansion::default();
        *peeked = false;
        *lines = LineTracker::START;
        clear(early);
        st.reset_names(keep);
        dtd.clear();
        input.buf.clear();
        input.owned = false;
        clear(&mut input.stream);
        input.eof = true;
        clear(&mut input.bad_encoding);
        input.base = 0;
        clear(resolver);
        clear(failed);
        clear(binary);
        // The XML declaration is read off the fast path.
        *path = Path::Check;
    }

    /// The configuration the reader reads with.
    pub(crate) fn config(&self) -> &Config {
        &self.st.config
    }

    /// Lets go of everything the reader borrows for `'a` (its input, stream and resolver),
    /// leaving what a reader of any lifetime may hold. After an unwind, the names it read are
    /// not kept (one may have been interned before its check).
    pub(crate) fn park(&mut self) {
        self.input.slice = &[];
        if std::thread::panicking() {
            self.st.names_gen = 0;
        }
        // Dropped last: their drops may panic, and nothing of `'a` may stay if they do.
        let stream = self.input.stream.take();
        let resolver = self.resolver.take();
        drop(stream);
        drop(resolver);
    }

    /// Installs a resolver for external entities (the external DTD subset, external parameter
    /// and general entities). Without one, nothing external is ever loaded.
    pub fn set_resolver(&mut self, resolver: impl Resolver + 'a) {
        self.resolver = Some(Box::new(resolver));
    }

    #[cold]
    fn fail_early(&mut self, at: usize, kind: ErrorKind) {
        self.st.early = Some((at, kind));
        self.path = Path::Check;
    }
}

impl State {
    /// Readies the names for a new document: only the binding of `xml` stays in scope.
    /// With `keep`, the names and namespace names of the last document stay too (their
    /// cached resolutions are of older epochs).
    fn reset_names(&mut self, keep: bool) {
        // A recycled state keeps the predefined entries: "" and the xml/xmlns namespace URIs,
        // the name "xml" and its binding.
        if self.uris.len() >= 3 && !self.qmeta.is_empty() && !self.bindings.is_empty() {
            self.bindings.truncate(1);
            if keep {
                return;
            }
            self.uris.truncate(3);
            self.names.truncate(1);
            self.qmeta.truncate(1);
            self.qmeta[0] = QMeta {
                prefix_len: 0,
                prefix: NO_PREFIX,
                epoch: 0,
                ns: NsId::NONE,
            };
            self.bindings.truncate(1);
            return;
        }
        self.names.clear();
        self.qmeta.clear();
        self.uris.clear();
        self.uris.intern("");
        self.uris.intern(XML_NS);
        self.uris.intern(XMLNS_NS);
        self.bindings.clear();
        let xml = self.names.intern("xml");
        self.qmeta.push(QMeta {
            prefix_len: 0,
            prefix: NO_PREFIX,
            epoch: 0,
            ns: NsId::NONE,
        });
        self.bindings.push((xml, NsId::XML));
    }
}

/// What becomes of a general entity reference in content.
enum EntityUse {
    /// Pure text: it stays inside the text token, expanded by `Text::unescape`.
    Inline,
    /// Its replacement text has markup (or was loaded): parsed in a frame of its own.
    Frame(Arc<str>, usize),
    /// Not read: reported as [`TokenKind::SkippedEntity`].
    Skipped,
}

/// What one parsing step did.
enum StepR {
    /// A token is ready.
    Token,
    /// Something was consumed that is not reported (white space outside the root, the XML
    /// declaration, an entity frame pushed or popped): step again.
    Continue,
    /// The current frame has no more bytes.
    End,
}

#[cold]
fn wf(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::WellFormedness(msg.into())
}

#[cold]
fn ns_err(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Namespace(msg.into())
}

/// Parses the body of a processing instruction at `start` (`<?`): returns the end of the target,
/// the start of the data and the position after `?>`. The caller has ruled out the XML
/// declaration.
pub(crate) fn pi_body(data: &[u8], start: usize, eof: bool) -> Scan<(usize, usize, usize)> {
    let ts = start + 2;
    let te = scan::name(data, ts, eof, "a processing instruction target")?;
    if data[ts..te].eq_ignore_ascii_case(b"xml") {
        return bad(ts, wf("the processing instruction target 'xml' is reserved (an XML declaration is allowed only at the very start)"));
    }
    if data[te..].starts_with(b"?>") {
        return Ok((te, te, te + 2));
    }
    match data.get(te) {
        None if !eof => return Err(Stop::Eof),
        Some(&b) if chars::is_whitespace(b) => {}
        Some(b'?') if !eof && te + 1 == data.len() => return Err(Stop::Eof),
        _ => {
            return syntax(
                te,
                "white space or '?>' after the processing instruction target",
                data,
            )
        }
    }
    let ds = scan::skip_ws(data, te);
    let Some(end) = scan::find_pi_end(&data[ds..]).map(|e| ds + e) else {
        return if eof {
            bad(start, ErrorKind::UnexpectedEof("a processing instruction"))
        } else {
            Err(Stop::Eof)
        };
    };
    scan::check_chars(data, ds, end)?;
    Ok((te, ds, end + 2))
}

/// Finds the `]` that closes an internal subset starting at `start`, skipping comments, PIs and
/// quoted literals inside declarations. `None`: the data ended first.
/// The `>` that ends the document type declaration starting at `start`: outside quoted
/// literals, after the internal subset if there is one. `None` if it is not in `data`.
fn doctype_end(data: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 9;
    loop {
        let b = *data.get(i)?;
        match b {
            b'"' | b'\'' => i += 1 + memchr::memchr(b, &data[i + 1..])? + 1,
            b'[' => i = subset_end(data, i + 1)? + 1,
            b'>' => return Some(i),
            _ => i += 1,
        }
    }
}

fn subset_end(data: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    loop {
        let off = memchr::memchr2(b']', b'<', &data[i..])?;
        let at = i + off;
        if data[at] == b']' {
            return Some(at);
        }
        let rest = &data[at..];
        if rest.starts_with(b"<!--") {
            i = at + 4 + memchr::memmem::find(&data[at + 4..], b"-->")? + 3;
        } else if rest.starts_with(b"<?") {
            i = at + 2 + memchr::memmem::find(&data[at + 2..], b"?>")? + 2;
        } else if rest.starts_with(b"<!") && !rest.starts_with(b"<![") {
            // A declaration: skip to its '>' outside quotes.
            let mut j = at + 2;
            loop {
                let b = *data.get(j)?;
                match b {
                    b'"' | b'\'' => j += 1 + memchr::memchr(b, &data[j + 1..])? + 1,
                    b'>' => break,
                    b']' => return Some(j),
                    _ => j += 1,
                }
            }
            i = j + 1;
        } else {
            i = at + 1;
        }
    }
}

impl State {
    #[inline]
    fn set_token(&mut self, kind: TokenKind, start: usize, base: u64) {
        self.kind = kind;
        self.tok_start = base + start as u64;
    }

    /// How far past its position one step may look: the token limit plus room for markup.
    /// A token that does not end within it is too long.
    #[inline]
    fn window(&self) -> usize {
        usize::try_from(self.config.limits.max_text_length)
            .unwrap_or(usize::MAX)
            .saturating_add(TOKEN_SLACK)
    }

    fn check_len(&self, start: usize, end: usize) -> Scan<()> {
        if (end - start) as u64 > self.config.limits.max_text_length {
            return bad(
                start,
                ErrorKind::LimitExceeded(LimitKind::TextLength, self.config.limits.max_text_length),
            );
        }
        Ok(())
    }

    /// Interns a qualified name (of an element or an attribute), checking its syntax (and
    /// length) on first sight. Inline when the interner predicts the name (a document
    /// repeating its pattern), out of line otherwise.
    #[inline(always)]
    fn intern_qname(&mut self, data: &[u8], s: usize, e: usize, element: bool) -> Scan<Id> {
        let over = (e - s) as u64 > self.config.limits.max_name_length as u64;
        if !over {
            if let Some(id) = self.names.predicted(&data[s..e], element) {
                // Its checks were made when it was first interned.
                if (id.0 as usize) < self.qmeta.len() {
                    return Ok(id);
                }
            }
        }
        self.intern_qname_cold(data, s, e, element)
    }

    #[inline(never)]
    fn intern_qname_cold(&mut self, data: &[u8], s: usize, e: usize, element: bool) -> Scan<Id> {
        if (e - s) as u64 > self.config.limits.max_name_length as u64 {
            return bad(
                s,
                ErrorKind::LimitExceeded(
                    LimitKind::NameLength,
                    self.config.limits.max_name_length as u64,
                ),
            );
        }
        let name = str_of(&data[s..e]);
        let id = self.names.intern_unpredicted(name, element);
        if (id.0 as usize) < self.qmeta.len() {
            return Ok(id);
        }
        self.qmeta.push(QMeta {
            prefix_len: 0,
            prefix: NO_PREFIX,
            epoch: 0,
            ns: NsId::NONE,
        });
        if self.config.namespaces {
            if let Some(c) = memchr::memchr(b':', name.as_bytes()) {
                let local = &name[c + 1..];
                let ok = c > 0
                    && !local.is_empty()
                    && !local.contains(':')
                    && local.chars().next().is_some_and(chars::is_name_start_char);
                if !ok {
                    return bad(
                        s,
                        ns_err(format!("'{name}' is not a qualified name (QName)")),
                    );
                }
                let p = self.names.intern(&name[..c]);
                while self.qmeta.len() < self.names.len() {
                    self.qmeta.push(QMeta {
                        prefix_len: 0,
                        prefix: NO_PREFIX,
                        epoch: 0,
                        ns: NsId::NONE,
                    });
                }
                let m = &mut self.qmeta[id.0 as usize];
                m.prefix_len = c as u32;
                m.prefix = p;
            }
        }
        Ok(id)
    }

    /// Interns a qualified name known to be valid (the binary decoder checked its parts),
    /// whose prefix is its first `prefix_len` bytes (0: none).
    pub(crate) fn intern_split(&mut self, qname: &str, prefix_len: usize) -> Id {
        // Plain `intern`: the prediction (`Interner::predicted`) follows the text parser's
        // names in document order, which the decoder's calls would interleave with others.
        let id = self.names.intern(qname);
        if (id.0 as usize) < self.qmeta.len() {
            return id;
        }
        let prefix = if prefix_len > 0 && self.config.namespaces {
            self.names.intern(&qname[..prefix_len])
        } else {
            NO_PREFIX
        };
        while self.qmeta.len() < self.names.len() {
            self.qmeta.push(QMeta {
                prefix_len: 0,
                prefix: NO_PREFIX,
                epoch: 0,
                ns: NsId::NONE,
            });
        }
        if prefix != NO_PREFIX {
            let m = &mut self.qmeta[id.0 as usize];
            m.prefix_len = prefix_len as u32;
            m.prefix = prefix;
        }
        id
    }

    fn lookup_prefix(&self, prefix: Id) -> Option<NsId> {
        self.bindings
            .iter()
            .rev()
            .find(|b| b.0 == prefix)
            .map(|b| b.1)
    }

    /// Namespace of an element or prefixed attribute name, cached per name until the bindings
    /// in scope change.
    #[inline(always)]
    fn resolve(&mut self, qname: Id, at: usize, element: bool) -> Scan<NsId> {
        let m = self.qmeta[qname.0 as usize];
        if m.prefix_len == 0 && !element {
            return Ok(NsId::NONE);
        }
        if m.epoch == self.epoch {
            return Ok(m.ns);
        }
        self.resolve_anew(qname, at)
    }

    /// [`State::resolve`] of a name not resolved under the bindings in scope.
    #[inline(never)]
    fn resolve_anew(&mut self, qname: Id, at: usize) -> Scan<NsId> {
        let m = self.qmeta[qname.0 as usize];
        let ns = if m.prefix_len == 0 {
            self.lookup_prefix(NO_PREFIX).unwrap_or(NsId::NONE)
        } else {
            match self.lookup_prefix(m.prefix) {
                Some(ns) => ns,
                None => {
                    let name = self.names.get(qname);
                    let p = &name[..m.prefix_len as usize];
                    if p == "xmlns" {
                        return bad(
                            at,
                            ns_err(format!(
                                "the prefix 'xmlns' cannot be used on the element <{name}>"
                            )),
                        );
                    }
                    return bad(
                        at,
                        ns_err(format!("the prefix '{p}' of '{name}' is not declared")),
                    );
                }
            }
        };
        let m = &mut self.qmeta[qname.0 as usize];
        m.epoch = self.epoch;
        m.ns = ns;
        Ok(ns)
    }

    #[inline]
    fn value_of<'d>(&'d self, data: &'d [u8], span: Span) -> &'d str {
        if span.scratch {
            &self.scratch[span.start..span.end]
        } else {
            str_of(&data[span.start..span.end])
        }
    }

    /// One parsing step at `pos` in `data` (the document's window or an entity's replacement
    /// text), past the start of the document; `base` locates tokens in the document.
    #[inline(always)]
    fn step_at(
        &mut self,
        data: &[u8],
        eof: bool,
        base: u64,
        in_entity: bool,
        dtd: &mut Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
    ) -> Scan<StepR> {
        let st = self;
        let pos = st.pos;
        let Some(&b) = data.get(pos) else {
            return Ok(StepR::End);
        };
        let raw_cr = !in_entity;
        if b == b'<' {
            let b1 = match data.get(pos + 1) {
                Some(&b1) => b1,
                None if !eof => return Err(Stop::Eof),
                None => return bad(pos, ErrorKind::UnexpectedEof("markup")),
            };
            return match b1 {
                b'/' => st.end_tag(data, eof, base),
                b'?' => st.pi(data, eof, raw_cr, base),
                b'!' => {
                    let rest = &data[pos..];
                    if rest.starts_with(b"<!--") {
                        st.comment(data, eof, raw_cr, base)
                    } else if rest.starts_with(b"<![CDATA[") {
                        st.cdata(data, eof, raw_cr, base)
                    } else if rest.starts_with(b"<!DOCTYPE") {
                        if in_entity {
                            return bad(
                                pos,
                                wf("a document type declaration cannot occur inside an entity"),
                            );
                        }
                        st.doctype(data, eof, dtd, resolver, base)
                    } else if rest.len() < 9 && !eof {
                        Err(Stop::Eof)
                    } else {
                        syntax(pos, "'<!--', '<![CDATA[' or '<!DOCTYPE'", data)
                    }
                }
                _ => st.start_tag(data, eof, dtd, raw_cr, base),
            };
        }
        if st.phase == Phase::Content {
            return st.text(data, eof, dtd, resolver, in_entity, base);
        }
        // Outside the root element only white space may appear between markup.
        let end = scan::skip_ws(data, pos);
        if end == pos {
            let kind = if b == b'&' {
                wf("references are not allowed outside the root element")
            } else if b >= 0x80 || chars::CLASS[b as usize] & chars::BAD_CTRL == 0 {
                wf(format!(
                    "text is not allowed outside the root element (found {})",
                    scan::describe(data, pos)
                ))
            } else {
                ErrorKind::InvalidChar(b as char)
            };
            return bad(pos, kind);
        }
        st.pos = end;
        Ok(StepR::Continue)
    }

    #[inline(always)]
    fn start_tag(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &Dtd,
        raw_cr: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        if self.phase == Phase::Epilog {
            return bad(
                start,
                wf("a document has exactly one root element; found another after it"),
            );
        }
        let name_end = scan::name(data, start + 1, eof, "an element name")?;
        let qname = self.intern_qname(data, start + 1, name_end, true)?;
        self.attrs.clear();
        self.scratch.clear();
        let mut i = name_end;
        let empty;
        let mut decls = false;
        loop {
            let ws_start = i;
            i = scan::skip_ws(data, i);
            let Some(&b) = data.get(i) else {
                return if eof {
                    bad(start, ErrorKind::UnexpectedEof("a start tag"))
                } else {
                    Err(Stop::Eof)
                };
            };
            if b == b'>' {
                empty = false;
                i += 1;
                break;
            }
            if b == b'/' {
                match data.get(i + 1) {
                    Some(b'>') => {
                        empty = true;
                        i += 2;
                        break;
                    }
                    None if !eof => return Err(Stop::Eof),
                    _ => return syntax(i + 1, "'>' after '/' in an empty-element tag", data),
                }
            }
            if i == ws_start {
                return syntax(i, "white space, '>' or '/>'", data);
            }
            let n_end = scan::name(data, i, eof, "an attribute name, '>' or '/>'")?;
            let aq = self.intern_qname(data, i, n_end, false)?;
            let mut j = scan::skip_ws(data, n_end);
            match data.get(j) {
                Some(b'=') => j += 1,
                None if !eof => return Err(Stop::Eof),
                _ => return syntax(j, "'=' after the attribute name", data),
            }
            j = scan::skip_ws(data, j);
            let q = match data.get(j) {
                Some(&q @ (b'"' | b'\'')) => q,
                None if !eof => return Err(Stop::Eof),
                _ => return syntax(j, "a quoted attribute value", data),
            };
            let vstart = j + 1;
            let mut k = vstart;
            let mut needs = false;
            loop {
                k = crate::simd::find_attr_stop(data, k);
                let Some(&c) = data.get(k) else {
                    return if eof {
                        bad(vstart - 1, ErrorKind::UnexpectedEof("an attribute value"))
                    } else {
                        Err(Stop::Eof)
                    };
                };
                if c == q {
                    break;
                }
                match c {
                    b'"' | b'\'' => k += 1,
                    b'<' => return bad(k, wf("'<' is not allowed in an attribute value")),
                    b'&' => {
                        k = scan::reference(data, k, eof)?.1;
                        needs = true;
                    }
                    b'\t' | b'\n' | b'\r' => {
                        needs = true;
                        k += 1;
                    }
                    c if c < 0x80 => return bad(k, ErrorKind::InvalidChar(c as char)),
                    _ => k += scan::utf8_char(data, k)?.1,
                }
            }
            self.check_len(vstart, k)?;
            let value = if needs {
                self.expansion.doc = base + k as u64;
                self.normalize_attr(data, vstart, k, dtd, raw_cr)?
            } else {
                Span {
                    start: vstart,
                    end: k,
                    scratch: false,
                }
            };
            if self.attrs.len() >= self.config.limits.max_attributes as usize {
                return bad(
                    i,
                    ErrorKind::LimitExceeded(
                        LimitKind::Attributes,
                        self.config.limits.max_attributes as u64,
                    ),
                );
            }
            decls |= data[i..n_end].starts_with(b"xmlns");
            self.attrs.push(Attr {
                name: Span {
                    start: i,
                    end: n_end,
                    scratch: false,
                },
                value,
                qname: aq,
                ns: NsId::NONE,
                defaulted: false,
                id: false,
            });
            i = k + 1;
        }
        self.check_len(start, i)?;
        if !dtd.attlists.is_empty() {
            let n = self.attrs.len();
            self.apply_attlist(data, dtd, qname, start)?;
            decls |= self.attrs[n..]
                .iter()
                .any(|a| self.scratch[a.name.start..a.name.end].starts_with("xmlns"));
        }
        if self.attrs.len() > 1 {
            self.check_duplicates(start)?;
        }
        let mark = self.bindings.len() as u32;
        let mut ns = NsId::NONE;
        if self.config.namespaces {
            if decls {
                self.declare_namespaces(data, start)?;
            }
            ns = self.resolve(qname, start + 1, true)?;
            let mut prefixed = 0;
            for n in 0..self.attrs.len() {
                let a = self.attrs[n];
                if a.ns != NsId::XMLNS && self.qmeta[a.qname.0 as usize].prefix_len > 0 {
                    self.attrs[n].ns = self.resolve(a.qname, a.name.start, false)?;
                    prefixed += 1;
                }
            }
            if prefixed > 1 {
                self.check_expanded_duplicates(start)?;
            }
        }
        if self.stack.len() >= self.config.limits.max_depth as usize {
            return bad(
                start,
                ErrorKind::LimitExceeded(LimitKind::Depth, self.config.limits.max_depth as u64),
            );
        }
        self.stack.push(Open {
            qname,
            ns,
            bindings: mark,
        });
        self.set_token(TokenKind::Start, start, base);
        self.a = Span {
            start: start + 1,
            end: name_end,
            scratch: false,
        };
        self.qname = qname;
        self.ns = ns;
        self.empty = empty;
        self.pending_end = empty;
        self.phase = Phase::Content;
        self.pos = i;
        Ok(StepR::Token)
    }

    /// Attribute-value normalisation (XML 1.0 section 3.3.3) into the scratch buffer.
    fn normalize_attr(
        &mut self,
        data: &[u8],
        s: usize,
        e: usize,
        dtd: &Dtd,
        raw_cr: bool,
    ) -> Scan<Span> {
        let s0 = self.scratch.len();
        let mut i = s;
        while i < e {
            let run = crate::simd::find_attr_stop(&data[..e], i);
            self.scratch.push_str(str_of(&data[i..run]));
            if run >= e {
                break;
            }
            i = run;
            match data[i] {
                b'&' => {
                    let (r, end) = scan::reference(data, i, true)?;
                    match r {
                        Ref::Char(c) => self.scratch.push(c),
                        Ref::Entity(ns, ne) => {
                            let name = str_of(&data[ns..ne]);
                            match dtd.general(name) {
                                None if self.standalone || !dtd.has_external_parts => {
                                    return bad(i, ErrorKind::UndeclaredEntity(name.to_string()))
                                }
                                None => {}
                                Some(id) => {
                                    let ent = &dtd.entities[id];
                                    if ent.ndata.is_some() {
                                        return bad(i, wf(format!("attribute values cannot refer to the unparsed entity '{name}'")));
                                    }
                                    if self.standalone && ent.external_decl {
                                        return bad(i, wf(format!("entity '{name}' is declared externally but the document is standalone")));
                                    }
                                    let limits = self.config.limits.clone();
                                    dtd::attr_entity(
                                        dtd,
                                        id,
                                        &mut self.scratch,
                                        0,
                                        &limits,
                                        &mut self.expansion,
                                    )
                                    .map_err(|k| Stop::at(i, k))?;
                                }
                            }
                        }
                    }
                    i = end;
                }
                b'\r' if raw_cr && data.get(i + 1) == Some(&b'\n') => i += 1,
                b'\t' | b'\n' | b'\r' => {
                    self.scratch.push(' ');
                    i += 1;
                }
                _ => {
                    // Quotes of the other kind and non-ASCII characters (already checked).
                    let (c, l) = scan::any_char(data, i)?;
                    self.scratch.push(c);
                    i += l;
                }
            }
        }
        if (self.scratch.len() - s0) as u64 > self.config.limits.max_text_length {
            return bad(
                s,
                ErrorKind::LimitExceeded(LimitKind::TextLength, self.config.limits.max_text_length),
            );
        }
        Ok(Span {
            start: s0,
            end: self.scratch.len(),
            scratch: true,
        })
    }

    /// Applies the attribute-list declarations of the element: defaults for missing
    /// attributes, token normalisation for non-CDATA ones.
    fn apply_attlist(&mut self, data: &[u8], dtd: &Dtd, qname: Id, at: usize) -> Scan<()> {
        let Some(defs) = dtd.attlists.get(self.names.get(qname)) else {
            return Ok(());
        };
        for def in defs {
            let id = self
                .intern_qname(def.name.as_bytes(), 0, def.name.len(), false)
                .map_err(|s| match s {
                    Stop::Bad(b) => Stop::at(at, b.1),
                    s => s,
                })?;
            let found = self.attrs.iter().position(|a| a.qname == id);
            if let Some(n) = found {
                self.attrs[n].id = def.ty == dtd::AttType::Id;
            }
            match found {
                Some(n) if def.ty != dtd::AttType::Cdata => {
                    let v = self.value_of(data, self.attrs[n].value);
                    if v.starts_with(' ') || v.ends_with(' ') || v.contains("  ") {
                        let c = dtd::collapse(v);
                        let s0 = self.scratch.len();
                        self.scratch.push_str(&c);
                        self.attrs[n].value = Span {
                            start: s0,
                            end: self.scratch.len(),
                            scratch: true,
                        };
                    }
                }
                Some(_) => {}
                None => {
                    let (dtd::AttDefault::Value(v) | dtd::AttDefault::Fixed(v)) = &def.default
                    else {
                        continue;
                    };
                    let n0 = self.scratch.len();
                    self.scratch.push_str(&def.name);
                    let v0 = self.scratch.len();
                    self.scratch.push_str(v);
                    if self.attrs.len() >= self.config.limits.max_attributes as usize {
                        return bad(
                            at,
                            ErrorKind::LimitExceeded(
                                LimitKind::Attributes,
                                self.config.limits.max_attributes as u64,
                            ),
                        );
                    }
                    self.attrs.push(Attr {
                        name: Span {
                            start: n0,
                            end: v0,
                            scratch: true,
                        },
                        value: Span {
                            start: v0,
                            end: self.scratch.len(),
                            scratch: true,
                        },
                        qname: id,
                        ns: NsId::NONE,
                        defaulted: true,
                        id: def.ty == dtd::AttType::Id,
                    });
                }
            }
        }
        Ok(())
    }

    fn check_duplicates(&self, at: usize) -> Scan<()> {
        let n = self.attrs.len();
        if n < 2 {
            return Ok(());
        }
        let dup = if n <= 16 {
            (1..n).find_map(|i| {
                (0..i)
                    .find(|&j| self.attrs[j].qname == self.attrs[i].qname)
                    .map(|_| i)
            })
        } else {
            let mut seen = std::collections::HashSet::with_capacity(n);
            (0..n).find(|&i| !seen.insert(self.attrs[i].qname))
        };
        match dup {
            Some(i) => bad(
                if self.attrs[i].defaulted {
                    at
                } else {
                    self.attrs[i].name.start
                },
                ErrorKind::DuplicateAttribute(self.names.get(self.attrs[i].qname).to_string()),
            ),
            None => Ok(()),
        }
    }

    /// Two prefixed attributes whose prefixes are bound to the same URI, with the same local
    /// name, are duplicates (Namespaces in XML 1.0, "Attributes Unique").
    fn check_expanded_duplicates(&self, at: usize) -> Scan<()> {
        let is_pref = |a: &Attr| a.ns != NsId::NONE && a.ns != NsId::XMLNS;
        if self.attrs.iter().filter(|a| is_pref(a)).take(2).count() < 2 {
            return Ok(());
        }
        let pref: Vec<usize> = (0..self.attrs.len())
            .filter(|&i| is_pref(&self.attrs[i]))
            .collect();
        let local = |i: usize| {
            let a = &self.attrs[i];
            let n = self.names.get(a.qname);
            &n[self.qmeta[a.qname.0 as usize].prefix_len as usize + 1..]
        };
        let mut seen = std::collections::HashSet::with_capacity(pref.len());
        for &i in &pref {
            if !seen.insert((self.attrs[i].ns, local(i))) {
                let a = &self.attrs[i];
                return bad(
                    if a.defaulted { at } else { a.name.start },
                    ns_err(format!(
                        "attribute '{}' duplicates another with the same namespace and local name",
                        self.names.get(a.qname)
                    )),
                );
            }
        }
        Ok(())
    }

    /// Processes the `xmlns` and `xmlns:p` attributes of the current start tag.
    fn declare_namespaces(&mut self, data: &[u8], at: usize) -> Scan<()> {
        let mut changed = false;
        for n in 0..self.attrs.len() {
            let a = self.attrs[n];
            let m = self.qmeta[a.qname.0 as usize];
            let name = self.names.get(a.qname);
            let is_default = m.prefix_len == 0 && name == "xmlns";
            let is_prefixed = m.prefix_len == 5 && name.starts_with("xmlns:");
            if !is_default && !is_prefixed {
                continue;
            }
            let where_ = if a.defaulted { at } else { a.name.start };
            let v = a.value;
            let uri = if v.scratch {
                &self.scratch[v.start..v.end]
            } else {
                str_of(&data[v.start..v.end])
            };
            let uri_id = if is_default {
                if uri == XML_NS || uri == XMLNS_NS {
                    return bad(
                        where_,
                        ns_err(format!("the default namespace cannot be \"{uri}\"")),
                    );
                }
                (NO_PREFIX, uri)
            } else {
                let local = &name[6..];
                if local == "xmlns" {
                    return bad(where_, ns_err("the prefix 'xmlns' cannot be declared"));
                }
                if local == "xml" {
                    if uri != XML_NS {
                        return bad(
                            where_,
                            ns_err(format!("the prefix 'xml' must be bound to \"{XML_NS}\"")),
                        );
                    }
                    self.attrs[n].ns = NsId::XMLNS;
                    continue;
                }
                if uri == XML_NS || uri == XMLNS_NS {
                    return bad(
                        where_,
                        ns_err(format!("the prefix '{local}' cannot be bound to \"{uri}\"")),
                    );
                }
                if uri.is_empty() {
                    return bad(where_, ns_err(format!("the prefix '{local}' cannot be undeclared (bound to \"\") in Namespaces 1.0")));
                }
                // Interned from the document's bytes when the name is there (no copy);
                // a name defaulted from the DTD lives in `scratch`, beside the value.
                let id = if a.name.scratch {
                    let local = local.to_string();
                    self.names.intern(&local)
                } else {
                    self.names
                        .intern(str_of(&data[a.name.start + 6..a.name.end]))
                };
                (id, uri)
            };
            let (prefix, uri) = uri_id;
            let ns = NsId(self.uris.intern(uri).0);
            self.bindings.push((prefix, ns));
            while self.qmeta.len() < self.names.len() {
                self.qmeta.push(QMeta {
                    prefix_len: 0,
                    prefix: NO_PREFIX,
                    epoch: 0,
                    ns: NsId::NONE,
                });
            }
            self.attrs[n].ns = NsId::XMLNS;
            changed = true;
        }
        if changed {
            self.epoch += 1;
        }
        Ok(())
    }

    #[inline(always)]
    fn end_tag(&mut self, data: &[u8], eof: bool, base: u64) -> Scan<StepR> {
        let start = self.pos;
        let s = start + 2;
        // Fast path: the name of the open element, then a byte that cannot continue a name. The
        // open element's name was validated by its start tag, so nothing is scanned twice.
        let (e, matched) = match self.stack.last() {
            Some(top) => {
                let open = self.names.bytes(top.qname);
                let e = s + open.len();
                match data.get(e) {
                    Some(&b)
                        if same_bytes(&data[s..e], open)
                            && (b == b'>' || chars::is_whitespace(b)) =>
                    {
                        (e, true)
                    }
                    None if !eof && data.len() < e + 1 => return Err(Stop::Eof),
                    _ => (
                        scan::name(data, s, eof, "an element name in the end tag")?,
                        false,
                    ),
                }
            }
            None => (
                scan::name(data, s, eof, "an element name in the end tag")?,
                false,
            ),
        };
        let i = scan::skip_ws(data, e);
        match data.get(i) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return syntax(i, "'>' to end the end tag", data),
        }
        let Some(top) = self.stack.last().copied() else {
            return bad(
                start,
                wf(format!(
                    "end tag </{}> without a start tag",
                    str_of(&data[s..e])
                )),
            );
        };
        if !matched && !same_bytes(self.names.bytes(top.qname), &data[s..e]) {
            return bad(
                start,
                ErrorKind::MismatchedEndTag {
                    expected: self.names.get(top.qname).to_string(),
                    found: str_of(&data[s..e]).to_string(),
                },
            );
        }
        if self
            .frames
            .last()
            .is_some_and(|f| self.stack.len() <= f.depth)
        {
            return bad(
                start,
                wf(format!(
                    "the end tag </{}> closes an element opened outside the entity",
                    str_of(&data[s..e])
                )),
            );
        }
        self.set_token(TokenKind::End, start, base);
        self.qname = top.qname;
        self.ns = top.ns;
        self.pop_element();
        self.pos = i + 1;
        Ok(StepR::Token)
    }

    /// The end event of an empty-element tag (`<a/>`), read after its start event.
    #[inline(always)]
    fn end_empty_element(&mut self) {
        self.pending_end = false;
        self.kind = TokenKind::End;
        self.pop_element();
    }

    pub(crate) fn pop_element(&mut self) {
        if let Some(o) = self.stack.pop() {
            if self.bindings.len() > o.bindings as usize {
                self.bindings.truncate(o.bindings as usize);
                self.epoch += 1;
            }
        }
        if self.stack.is_empty() {
            self.phase = Phase::Epilog;
        }
    }

    fn comment(&mut self, data: &[u8], eof: bool, raw_cr: bool, base: u64) -> Scan<StepR> {
        let start = self.pos;
        let body = start + 4;
        let Some(end) = memchr::memmem::find(&data[body..], b"--").map(|e| body + e) else {
            return if eof {
                bad(start, ErrorKind::UnexpectedEof("a comment"))
            } else {
                Err(Stop::Eof)
            };
        };
        match data.get(end + 2) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return bad(end, wf("'--' is not allowed inside a comment")),
        }
        scan::check_chars(data, body, end)?;
        self.check_len(body, end)?;
        self.set_token(TokenKind::Comment, start, base);
        self.a = Span {
            start: body,
            end,
            scratch: false,
        };
        self.flags = if raw_cr && memchr::memchr(b'\r', &data[body..end]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = end + 3;
        Ok(StepR::Token)
    }

    fn pi(&mut self, data: &[u8], eof: bool, raw_cr: bool, base: u64) -> Scan<StepR> {
        let start = self.pos;
        let (te, ds, after) = pi_body(data, start, eof)?;
        if self.config.namespaces && memchr::memchr(b':', &data[start + 2..te]).is_some() {
            return bad(
                start + 2,
                ns_err("a processing instruction target cannot contain ':'"),
            );
        }
        self.check_len(start, after)?;
        self.set_token(TokenKind::Pi, start, base);
        self.a = Span {
            start: start + 2,
            end: te,
            scratch: false,
        };
        self.b = Span {
            start: ds,
            end: after - 2,
            scratch: false,
        };
        self.flags = if raw_cr && memchr::memchr(b'\r', &data[ds..after - 2]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = after;
        if self.phase == Phase::Start {
            self.phase = Phase::Prolog;
        }
        Ok(StepR::Token)
    }

    fn cdata(&mut self, data: &[u8], eof: bool, raw_cr: bool, base: u64) -> Scan<StepR> {
        let start = self.pos;
        if self.phase != Phase::Content {
            return bad(
                start,
                wf("CDATA sections are allowed only inside the root element"),
            );
        }
        let body = start + 9;
        let Some(end) = memchr::memmem::find(&data[body..], b"]]>").map(|e| body + e) else {
            return if eof {
                bad(start, ErrorKind::UnexpectedEof("a CDATA section"))
            } else {
                Err(Stop::Eof)
            };
        };
        scan::check_chars(data, body, end)?;
        self.check_len(body, end)?;
        self.set_token(TokenKind::CData, start, base);
        self.a = Span {
            start: body,
            end,
            scratch: false,
        };
        self.flags = if raw_cr && memchr::memchr(b'\r', &data[body..end]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = end + 3;
        Ok(StepR::Token)
    }

    /// Character data up to the next markup. Entity references to pure-text entities stay inside
    /// the token (expanded lazily by `Text::unescape`); a reference to an entity with markup
    /// ends the token, and the next step pushes a frame for it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn text(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        in_entity: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        let mut i = start;
        let mut flags = 0u8;
        loop {
            i = crate::simd::find_text_stop(data, i);
            let Some(&b) = data.get(i) else {
                if !eof {
                    return Err(Stop::Eof);
                }
                break;
            };
            match b {
                b'<' => break,
                b'&' => {
                    let (r, end) = scan::reference(data, i, eof)?;
                    match r {
                        Ref::Char(_) => {
                            flags |= F_REFS;
                            i = end;
                        }
                        Ref::Entity(ns, ne) => {
                            self.expansion.doc = base + end as u64;
                            let used =
                                self.entity_in_content(data, i, ns, ne, dtd, resolver, in_entity)?;
                            match used {
                                EntityUse::Inline => {
                                    flags |= F_REFS;
                                    i = end;
                                }
                                EntityUse::Frame(text, id) => {
                                    if i > start {
                                        break;
                                    }
                                    self.push_frame(text, id, i, end)?;
                                    return Ok(StepR::Continue);
                                }
                                EntityUse::Skipped => {
                                    if i > start {
                                        break;
                                    }
                                    self.set_token(TokenKind::SkippedEntity, start, base);
                                    self.a = Span {
                                        start: ns,
                                        end: ne,
                                        scratch: false,
                                    };
                                    self.pos = end;
                                    return Ok(StepR::Token);
                                }
                            }
                        }
                    }
                }
                b']' => {
                    if data.len() < i + 3 && !eof {
                        return Err(Stop::Eof);
                    }
                    if data[i..].starts_with(b"]]>") {
                        return bad(i, wf("']]>' is not allowed in character data"));
                    }
                    i += 1;
                }
                b'\r' => {
                    if !in_entity {
                        flags |= F_CR;
                    }
                    i += 1;
                }
                b if b < 0x80 => return bad(i, ErrorKind::InvalidChar(b as char)),
                _ => i += scan::utf8_char(data, i)?.1,
            }
        }
        self.check_len(start, i)?;
        self.set_token(TokenKind::Text, start, base);
        self.a = Span {
            start,
            end: i,
            scratch: false,
        };
        self.flags = flags;
        self.pos = i;
        Ok(StepR::Token)
    }

    /// Checks a general entity reference in content and says what becomes of it.
    #[allow(clippy::too_many_arguments)]
    fn entity_in_content(
        &mut self,
        data: &[u8],
        at: usize,
        ns: usize,
        ne: usize,
        dtd: &Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        in_entity: bool,
    ) -> Scan<EntityUse> {
        let name = str_of(&data[ns..ne]);
        let Some(id) = dtd.general(name) else {
            if self.standalone || !dtd.has_external_parts {
                return bad(at, ErrorKind::UndeclaredEntity(name.to_string()));
            }
            return Ok(EntityUse::Skipped);
        };
        let e = &dtd.entities[id];
        if e.ndata.is_some() {
            return bad(
                at,
                wf(format!(
                    "reference to the unparsed entity '{name}' in content"
                )),
            );
        }
        if self.standalone && e.external_decl && !in_entity {
            return bad(
                at,
                wf(format!(
                    "entity '{name}' is declared externally but the document is standalone"
                )),
            );
        }
        if self.frames.iter().any(|f| f.entity == id) {
            return bad(at, ErrorKind::RecursiveEntity(name.to_string()));
        }
        let limits = &self.config.limits;
        if e.is_external() {
            let loaded = match e.loaded.get() {
                Some(l) => l.clone(),
                None => {
                    let l = match resolver.as_deref_mut() {
                        Some(r) => dtd::load_external(
                            r,
                            e.public_id.as_deref(),
                            e.system_id.as_deref().unwrap_or(""),
                            e.base.as_deref(),
                        )
                        .map_err(|k| Stop::at(at, k))?,
                        None => None,
                    };
                    if let Some((t, _)) = &l {
                        self.expansion.input += t.len() as u64;
                    }
                    let _ = e.loaded.set(l.clone());
                    l
                }
            };
            return match loaded {
                Some((text, _)) => {
                    self.expansion
                        .add(text.len(), limits)
                        .map_err(|k| Stop::at(at, k))?;
                    Ok(EntityUse::Frame(text, id))
                }
                None => Ok(EntityUse::Skipped),
            };
        }
        match dtd::classify(dtd, id, 0, limits).map_err(|k| Stop::at(at, k))? {
            Class::Text => {
                let x = dtd::expanded(dtd, id, limits).map_err(|k| Stop::at(at, k))?;
                self.expansion
                    .add(x.len(), limits)
                    .map_err(|k| Stop::at(at, k))?;
                Ok(EntityUse::Inline)
            }
            _ => {
                let text = e.value.clone().expect("internal entity");
                self.expansion
                    .add(text.len(), limits)
                    .map_err(|k| Stop::at(at, k))?;
                Ok(EntityUse::Frame(text, id))
            }
        }
    }

    fn push_frame(&mut self, text: Arc<str>, entity: usize, at: usize, end: usize) -> Scan<()> {
        if self.frames.len() as u64 >= self.config.limits.max_entity_depth {
            return bad(
                at,
                ErrorKind::LimitExceeded(
                    LimitKind::EntityDepth,
                    self.config.limits.max_entity_depth,
                ),
            );
        }
        self.frames.push(EntFrame {
            text,
            saved_pos: end,
            entity,
            depth: self.stack.len(),
        });
        self.pos = 0;
        Ok(())
    }

    fn doctype(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &mut Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        if self.doctype.is_some() || !matches!(self.phase, Phase::Start | Phase::Prolog) {
            return bad(
                start,
                wf("the document type declaration must come once, before the root element"),
            );
        }
        // Parse only once the whole declaration is at hand, over a view that ends with it: a
        // slice and a stream then see exactly the same bytes, however the input is chunked.
        let Some(gt) = doctype_end(data, start) else {
            return if eof {
                bad(
                    start,
                    ErrorKind::UnexpectedEof("the document type declaration"),
                )
            } else {
                Err(Stop::Eof)
            };
        };
        let data = &data[..=gt];
        let eof = true;
        let mut i = start + 9;
        if !data.get(i).is_some_and(|&b| chars::is_whitespace(b)) {
            return if data.len() <= i && !eof {
                Err(Stop::Eof)
            } else {
                syntax(i, "white space after '<!DOCTYPE'", data)
            };
        }
        i = scan::skip_ws(data, i);
        let ne = scan::name(data, i, eof, "the root element name")?;
        let name = str_of(&data[i..ne]).to_string();
        i = ne;
        let mut public_id = None;
        let mut system_id = None;
        let ws = scan::skip_ws(data, i);
        let literal = |data: &[u8], at: usize| -> Scan<(usize, usize)> {
            match data.get(at) {
                Some(&q @ (b'"' | b'\'')) => match memchr::memchr(q, &data[at + 1..]) {
                    Some(e) => Ok((at + 1, at + 1 + e)),
                    None if !eof => Err(Stop::Eof),
                    None => bad(at, ErrorKind::UnexpectedEof("a quoted literal")),
                },
                None if !eof => Err(Stop::Eof),
                _ => syntax(at, "a quoted literal", data),
            }
        };
        if data[ws..].starts_with(b"SYSTEM") || data[ws..].starts_with(b"PUBLIC") {
            if ws == i {
                return syntax(i, "white space before the external identifier", data);
            }
            let public = data[ws..].starts_with(b"PUBLIC");
            i = ws + 6;
            let w = scan::skip_ws(data, i);
            if w == i {
                return syntax(i, "white space after SYSTEM or PUBLIC", data);
            }
            if public {
                let (ps, pe) = literal(data, w)?;
                if let Some(k) = data[ps..pe].iter().position(|&b| {
                    !(b.is_ascii_alphanumeric() || b" \r\n-'()+,./:=?;!*#@$_%".contains(&b))
                }) {
                    return syntax(ps + k, "a public identifier character", data);
                }
                public_id = Some(dtd::collapse(
                    &str_of(&data[ps..pe]).replace(['\r', '\n'], " "),
                ));
                i = pe + 1;
                let w2 = scan::skip_ws(data, i);
                if w2 == i {
                    return syntax(i, "white space before the system identifier", data);
                }
                i = w2;
            } else {
                i = w;
            }
            let (ss, se) = literal(data, i)?;
            scan::check_chars(data, ss, se)?;
            let sys = str_of(&data[ss..se]);
            if sys.contains('#') {
                return bad(
                    ss,
                    wf("a system identifier cannot contain a fragment identifier ('#')"),
                );
            }
            system_id = Some(sys.to_string());
            i = se + 1;
        }
        i = scan::skip_ws(data, i);
        let mut subset = None;
        if data.get(i) == Some(&b'[') {
            let s = i + 1;
            let Some(e) = subset_end(data, s) else {
                return if eof {
                    bad(
                        start,
                        ErrorKind::UnexpectedEof("the document type declaration"),
                    )
                } else {
                    Err(Stop::Eof)
                };
            };
            subset = Some((s, e));
            i = scan::skip_ws(data, e + 1);
        }
        match data.get(i) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return syntax(i, "'>' to end the document type declaration", data),
        }
        self.check_len(start, i)?;
        // The declaration is complete: now process the subsets.
        dtd.clear();
        let limits = self.config.limits.clone();
        let base_uri: Option<Arc<str>> = self.config.base_uri.as_deref().map(Arc::from);
        let mut internal = String::new();
        if let Some((s, e)) = subset {
            scan::check_chars(data, s, e)?;
            self.expansion.doc = base + e as u64;
            internal = str_of(&data[s..e]).to_string();
            let mut p = DtdParser::new(
                dtd,
                resolver.as_deref_mut().map(|r| r as &mut dyn Resolver),
                &limits,
                &mut self.expansion,
                self.standalone,
            );
            p.namespaces = self.config.namespaces;
            p.internal_subset(Arc::from(internal.as_str()), base_uri.clone())
                .map_err(|e| Stop::at(s + e.at, dtd_kind(e)))?;
        }
        if let Some(sys) = &system_id {
            let mut p = DtdParser::new(
                dtd,
                resolver.as_deref_mut().map(|r| r as &mut dyn Resolver),
                &limits,
                &mut self.expansion,
                self.standalone,
            );
            p.namespaces = self.config.namespaces;
            p.external_subset(public_id.as_deref(), sys, base_uri)
                .map_err(|e| Stop::at(start, dtd_kind(e)))?;
        }
        self.doctype = Some(crate::event::DoctypeInfo {
            name,
            public_id,
            system_id,
            internal_subset: internal,
        });
        self.set_token(TokenKind::Doctype, start, base);
        self.phase = Phase::Prolog;
        self.pos = i + 1;
        Ok(StepR::Token)
    }
}

#[cold]
fn dtd_kind(e: dtd::DtdError) -> ErrorKind {
    match e.entity {
        Some(name) => match e.kind {
            ErrorKind::WellFormedness(m) => {
                ErrorKind::WellFormedness(format!("{m} (in entity '{name}')"))
            }
            ErrorKind::Syntax { expected, found } => ErrorKind::Syntax {
                expected,
                found: format!("{found} (in entity '{name}')"),
            },
            k => k,
        },
        None => e.kind,
    }
}

impl<'a> Reader<'a> {
    /// Reads the next event. After [`Event::Eof`] or an error, every further call returns the
    /// same again.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Event<'_>> {
        if self.st.peeked {
            self.st.peeked = false;
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
        if self.st.peeked {
            self.st.peeked = false;
        } else {
            self.advance()?;
        }
        Ok((self.st.tok_start, self.event()))
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
        if self.st.peeked {
            self.st.peeked = false;
        } else {
            self.advance()?;
        }
        Ok(self.st.kind)
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
        if !self.st.peeked {
            self.advance()?;
            self.st.peeked = true;
        }
        Ok(self.event())
    }

    /// Kind of the next event, without consuming it.
    pub fn peek_kind(&mut self) -> Result<TokenKind> {
        self.peek().map(|e| e.kind())
    }

    #[inline(always)]
    fn advance(&mut self) -> Result<()> {
        if self.path != Path::Doc {
            return self.advance_slow();
        }
        match self.advance_doc::<false>() {
            Ok(()) => Ok(()),
            Err(e) => Err(self.halt(e)),
        }
    }

    #[cold]
    fn halt(&mut self, e: Error) -> Error {
        self.st.phase = Phase::Done;
        self.st.kind = TokenKind::Eof;
        self.failed = Some(e.clone());
        self.path = Path::Check;
        e
    }

    /// Off the fast path of a UTF-8 slice: a transcoded document, text input on the general
    /// path, or the checks of [`Path::Check`].
    #[inline(never)]
    fn advance_slow(&mut self) -> Result<()> {
        let r = match self.path {
            Path::General => {
                let r = self.advance_general();
                // Back out of an entity's replacement text (a stream stays here).
                if r.is_ok() && self.st.frames.is_empty() && self.input.stream.is_none() {
                    self.choose_path();
                }
                r
            }
            Path::Transcoded => self.advance_doc::<true>(),
            _ => return self.advance_checked(),
        };
        r.map_err(|e| self.halt(e))
    }

    /// A reader at the start of a document, failed, holding an early error, reading binary
    /// input or done.
    fn advance_checked(&mut self) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if let Some((at, k)) = self.st.early.take() {
            let e = self.error_at_doc(at as u64, k);
            return Err(self.halt(e));
        }
        if self.binary.is_some() {
            return self.advance_binary();
        }
        if self.st.phase == Phase::Done {
            self.st.kind = TokenKind::Eof;
            return Ok(());
        }
        // The start of a text document: its first token (and XML declaration) on the general
        // path, which then chooses the path for the rest.
        self.path = Path::General;
        self.advance_slow()
    }

    /// Sets the path for the next token: the fast path ([`Reader::advance_doc`]) for text
    /// input held whole in memory (a slice or its transcoding, no stream, no deferred decoding
    /// error) that no token's window cuts short, past the start of the document, outside
    /// entities, not failed and not done; else the general loop, or the checks.
    fn choose_path(&mut self) {
        self.path = if self.failed.is_some()
            || self.st.early.is_some()
            || self.binary.is_some()
            || matches!(self.st.phase, Phase::Start | Phase::Done)
        {
            Path::Check
        } else if !self.st.frames.is_empty()
            || self.input.stream.is_some()
            || !self.input.eof
            || self.input.base != 0
            || self.input.data().len() > self.st.window()
        {
            Path::General
        } else if self.input.owned {
            Path::Transcoded
        } else {
            Path::Doc
        };
    }

    /// The document's bytes on the fast path: the slice read in place, or its transcoding.
    #[inline(always)]
    fn doc<'i, const OWNED: bool>(input: &'i Input<'a>) -> &'i [u8] {
        if OWNED {
            &input.buf
        } else {
            input.slice
        }
    }

    /// One event of binary input (`binary/decode.rs`).
    fn advance_binary(&mut self) -> Result<()> {
        let Reader {
            input, st, binary, ..
        } = self;
        let decoder = binary.as_mut().expect("binary input");
        match decoder.advance(input.data(), st) {
            Ok(()) => Ok(()),
            Err(fail) => {
                let (at, kind) = *fail;
                let e = self.error_at_doc(at as u64, kind);
                Err(self.halt(e))
            }
        }
    }

    /// One token on the fast path ([`Reader::choose_path`]): the whole document in memory
    /// (`OWNED`: transcoded), no entity, no window. Anything else leaves for the general loop
    /// out of line. Inlined into the caller's loop (through `next`, `next_token`): a call
    /// per token saved its registers and passed its outcome through memory, ~7% of
    /// validating a small document's instructions.
    #[inline(always)]
    fn advance_doc<const OWNED: bool>(&mut self) -> Result<()> {
        if self.st.pending_end {
            self.st.end_empty_element();
            return Ok(());
        }
        // One step, no loop: most calls read their token in one, and a loop here had the
        // compiler set up what the step's inner loops use on every call.
        match self.step::<true, OWNED>() {
            Ok(StepR::Token) => Ok(()),
            r => self.leave_doc::<OWNED>(r),
        }
    }

    /// The fast path's step read no token: it skipped white space outside the root element,
    /// ended the document, failed or entered an entity's replacement text (where the general
    /// loop takes over until the reader may return to the fast path).
    #[inline(never)]
    fn leave_doc<const OWNED: bool>(&mut self, r: Scan<StepR>) -> Result<()> {
        if let Ok(StepR::Continue) = r {
            if self.st.frames.is_empty() {
                // White space skipped: the step after it reads markup or the end.
                return self.advance_doc::<OWNED>();
            }
        }
        if let Some(done) = self.after_step(r) {
            return done;
        }
        // (An error is halted on twice, here and by the caller: the same state either way.)
        self.path = Path::General;
        self.advance_slow()
    }

    /// One token of text input in any state: inside entities, on a stream's window.
    #[inline(always)]
    fn advance_general(&mut self) -> Result<()> {
        if self.st.pending_end {
            self.st.end_empty_element();
            return Ok(());
        }
        loop {
            let r = self.step::<false, false>();
            if let Ok(StepR::Token) = r {
                return Ok(());
            }
            if let Some(done) = self.after_step(r) {
                return done;
            }
        }
    }

    /// What a step's outcome means for the token being read: `Some` when it is read (or
    /// failed), `None` when the reader steps again.
    fn after_step(&mut self, r: Scan<StepR>) -> Option<Result<()>> {
        match r {
            Ok(StepR::Token) => Some(Ok(())),
            Ok(StepR::Continue) => None,
            Ok(StepR::End) => {
                if let Some(f) = self.st.frames.last() {
                    if self.st.stack.len() != f.depth {
                        let name = self.dtd.entities[f.entity].name.to_string();
                        return Some(Err(self.error_here(
                            0,
                            wf(format!("entity '{name}' ends inside an element it opened")),
                        )));
                    }
                    let f = self.st.frames.pop().expect("frame");
                    self.st.pos = f.saved_pos;
                    return None;
                }
                if !self.input.eof {
                    return self.refill().err().map(Err);
                }
                Some(self.end_of_document())
            }
            Err(Stop::Eof) => {
                if self.st.frames.is_empty()
                    && self.input.data().len() - self.st.pos > self.st.window()
                {
                    // The token does not end within the window (see `State::window`).
                    let limit = self.st.config.limits.max_text_length;
                    return Some(Err(self.error_here(
                        self.st.pos,
                        ErrorKind::LimitExceeded(LimitKind::TextLength, limit),
                    )));
                }
                if self.st.frames.is_empty() && !self.input.eof {
                    return self.refill_for_token().err().map(Err);
                }
                let what = if self.st.frames.is_empty() {
                    "the document"
                } else {
                    "an entity's replacement text (a construct must end in the entity where it starts)"
                };
                Some(Err(
                    self.error_here(self.st.pos, ErrorKind::UnexpectedEof(what))
                ))
            }
            Err(Stop::Bad(b)) => Some(Err(self.error_here(b.0, b.1))),
        }
    }

    /// Reads more of the document for a token the buffer cut short, until the token may end:
    /// markup ends with `>` and text with `<`, so until new bytes hold that delimiter, the
    /// input ends or the window is full. Parsing the token again after every `read` would cost
    /// its length each time: quadratic for a `Read` returning a few bytes per call. Never waits
    /// for more than the token may need, so a stream that pauses after a document's last byte
    /// (a socket) does not block. A token full of its own delimiter (`>` in attribute values)
    /// still costs its length per read; the window bounds that.
    fn refill_for_token(&mut self) -> Result<()> {
        let delim = if self.input.data().get(self.st.pos) == Some(&b'<') {
            b'>'
        } else {
            b'<'
        };
        loop {
            let held = self.input.data().len() - self.st.pos;
            self.refill()?;
            let data = self.input.data();
            let done = self.input.eof
                || self.input.bad_encoding.is_some()
                || data.len() - self.st.pos > self.st.window();
            if done || memchr::memchr(delim, &data[self.st.pos + held..]).is_some() {
                return Ok(());
            }
        }
    }

    fn refill(&mut self) -> Result<()> {
        if let Some(m) = self.input.bad_encoding.take() {
            // Reported where the reader reaches it, so the same document gives the same error
            // however it is chunked.
            let at = self.input.data().len();
            return Err(self.error_here(at, ErrorKind::InvalidEncoding(m)));
        }
        let keep = self.st.pos;
        // Count lines in what is dropped, so later locations stay right.
        let from = (self.st.lines.offset.saturating_sub(self.input.base)) as usize;
        if from < keep {
            let bytes = &self.input.data()[from..keep];
            self.st.lines.advance(bytes);
        }
        match self.input.refill(keep) {
            Ok(dropped) => {
                self.st.pos -= dropped;
                Ok(())
            }
            Err(k) => Err(self.error_here(self.st.pos, k)),
        }
    }

    fn end_of_document(&mut self) -> Result<()> {
        match self.st.phase {
            Phase::Content => {
                let name = self
                    .st
                    .stack
                    .last()
                    .map(|o| self.st.names.get(o.qname).to_string())
                    .unwrap_or_default();
                Err(self.error_here(
                    self.st.pos,
                    wf(format!("the document ends before the end tag of <{name}>")),
                ))
            }
            Phase::Start | Phase::Prolog => {
                Err(self.error_here(self.st.pos, wf("the document has no root element")))
            }
            Phase::Epilog | Phase::Done => {
                self.st.phase = Phase::Done;
                self.path = Path::Check;
                self.st.kind = TokenKind::Eof;
                self.st.tok_start = self.input.base + self.st.pos as u64;
                Ok(())
            }
        }
    }

    /// One parsing step at the current position of the current frame. `DOC`: on the fast
    /// path ([`Reader::choose_path`]), where the data is the whole document (`OWNED`: its
    /// transcoding) with no frame, past its start.
    #[inline(always)]
    fn step<const DOC: bool, const OWNED: bool>(&mut self) -> Scan<StepR> {
        let Reader {
            input,
            dtd,
            st,
            resolver,
            ..
        } = self;
        if DOC {
            return st.step_at(Self::doc::<OWNED>(input), true, 0, false, dtd, resolver);
        }
        let frame_text = st.frames.last().map(|f| f.text.clone());
        let in_entity = frame_text.is_some();
        // Tokens inside entities are located at the reference in the document.
        let (data, eof, base): (&[u8], bool, u64) = match (&frame_text, st.frames.first()) {
            (Some(t), Some(outer)) => (t.as_bytes(), true, input.base + outer.saved_pos as u64),
            _ => {
                // Each step sees at most a window of the document past its position, in slice
                // and stream mode alike, so both stop a too-long token at the same place (and a
                // stream's buffer stays bounded).
                let d = input.data();
                let w = st.pos.saturating_add(st.window());
                if d.len() > w {
                    (&d[..w], false, input.base)
                } else {
                    (d, input.eof, input.base)
                }
            }
        };
        let pos = st.pos;
        if pos >= data.len() {
            return Ok(StepR::End);
        }
        if st.phase == Phase::Start {
            // `doc_start` is a document offset: a stream may have dropped the byte order mark
            // before it from its buffer (fuzz: a declaration after a BOM and a refill was read
            // as a processing instruction named 'xml').
            let at_start = !in_entity && input.base + pos as u64 == st.doc_start;
            if at_start && data.len() >= pos + 6 && decl::starts_decl(data, pos) {
                let (d, end) = decl::parse(data, pos, eof, DeclKind::Xml)?;
                st.standalone = d.standalone == Some(true);
                st.xml_decl = Some(d);
                st.pos = end;
                st.phase = Phase::Prolog;
                return Ok(StepR::Continue);
            }
            if at_start && data.len() < pos + 6 && !eof {
                return Err(Stop::Eof);
            }
            st.phase = Phase::Prolog;
        }
        st.step_at(data, eof, base, in_entity, dtd, resolver)
    }

    // ----- errors and locations ---------------------------------------------------------------

    /// An error at `at` in the current frame (or at the outermost entity reference).
    #[cold]
    fn error_here(&mut self, at: usize, kind: ErrorKind) -> Error {
        match self.st.frames.first() {
            None => self.error_at_doc(self.input.base + at as u64, kind),
            Some(f) => {
                let doc_at = self.input.base + f.saved_pos as u64;
                let name = self
                    .st
                    .frames
                    .last()
                    .map(|f| self.dtd.entities[f.entity].name.to_string())
                    .unwrap_or_default();
                self.error_at_doc(doc_at, kind).with_entity(&name)
            }
        }
    }

    #[cold]
    fn error_at_doc(&mut self, offset: u64, kind: ErrorKind) -> Error {
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
        if offset < self.st.lines.offset {
            if base == 0 {
                self.st.lines = LineTracker::START;
            } else {
                return Location {
                    offset,
                    line: self.st.lines.line,
                    column: self.st.lines.col + 1,
                };
            }
        }
        let from = (self.st.lines.offset - base) as usize;
        let to = ((offset - base) as usize).min(data.len());
        if from < to {
            self.st.lines.advance(&data[from..to]);
        }
        Location {
            offset,
            line: self.st.lines.line,
            column: self.st.lines.col + 1,
        }
    }

    /// Location of the start of the current event (for events from an entity's replacement
    /// text: the location of the reference).
    pub fn location(&mut self) -> Location {
        let o = self.st.tok_start;
        self.location_of(o)
    }

    /// The generation of this reader's name ids: the [`Id`]s of names
    /// ([`StartTag::name_id`](crate::StartTag::name_id)) and the [`NsId`]s of namespaces mean
    /// the same names for every reader of one generation. A reader made with the buffers of
    /// another ([`Reader::with_buffers`], or the spare buffers of its thread) keeps its
    /// generation when that one's names were few; a layer that caches by those ids (a
    /// validator's map to its schema's names) keeps its cache while the generation is the
    /// same, and drops it when it changes.
    ///
    /// ```
    /// use xwire::{Config, Event, Reader};
    ///
    /// let root = |r: &mut Reader<'_>| match r.next().unwrap() {
    ///     Event::Start(t) => t.name_id(),
    ///     _ => unreachable!(),
    /// };
    /// let mut r = Reader::from_slice(b"<a/>");
    /// let (a, generation) = (root(&mut r), r.name_generation());
    /// let mut r = Reader::with_buffers(b"<a><b/></a>", Config::default(), r.into_buffers());
    /// assert_eq!(r.name_generation(), generation);
    /// assert_eq!(root(&mut r), a);
    /// ```
    pub fn name_generation(&self) -> u64 {
        self.st.names_gen
    }

    /// The character data of the current text token borrowed from the input itself, for the
    /// input's whole lifetime (so it may be kept while the reader moves on): `Some` when the
    /// reader reads a UTF-8 slice in place, outside an entity's replacement text, and the
    /// text needs nothing replaced (it is then what [`Text::unescape`](crate::Text::unescape)
    /// borrows). `None` for anything else, CDATA among it.
    ///
    /// ```
    /// use xwire::{Reader, TokenKind};
    ///
    /// let doc = b"<a>kept</a>";
    /// let mut r = Reader::from_slice(doc);
    /// r.next_token().unwrap();
    /// assert_eq!(r.text_in_input(), None); // a start tag
    /// assert_eq!(r.next_token().unwrap(), TokenKind::Text);
    /// let text = r.text_in_input();
    /// assert_eq!(r.next_token().unwrap(), TokenKind::End);
    /// assert_eq!(text, Some("kept"));
    /// ```
    #[inline]
    pub fn text_in_input(&self) -> Option<&'a str> {
        let st = &self.st;
        if st.kind != TokenKind::Text
            || st.flags != 0
            || st.a.scratch
            || self.input.owned
            || self.binary.is_some()
            || !st.frames.is_empty()
        {
            return None;
        }
        Some(str_of(self.input.slice.get(st.a.start..st.a.end)?))
    }

    /// Byte offset of the start of the current event. For binary input: the offset of the
    /// event's frame (for an end, of the byte after the frame; for the text of a typed element,
    /// of its value).
    pub fn offset(&self) -> u64 {
        self.st.tok_start
    }

    // ----- binary input -----------------------------------------------------------------------

    /// Whether the reader reads binary XML (`docs/binary-format.md`): the input started with
    /// [`binary::MAGIC`]. Events are the same as for the text form of the document; see
    /// [`Reader::typed_content`] for what only binary input has.
    pub fn is_binary(&self) -> bool {
        self.binary.is_some()
    }

    /// The typed content of a LEAF or ARRAY element of binary input, called right after its
    /// [`Event::Start`] (before reading or peeking further): the value, or the values viewed
    /// in place when their byte order is the machine's and they are aligned in memory (else
    /// copied). The cursor then skips the text event that would have carried the content's
    /// text form: the next event is the element's end. `None` for text input, for other
    /// elements, and once the content was read.
    ///
    /// ```
    /// use xwire::binary::{Typed, Value};
    /// use xwire::{Event, Reader};
    /// // <v>2.5</v> with v a LEAF of type f64 (little-endian).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x12, 0x01, 0x01, b'v', 0x03, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x0A]);
    /// file.extend(2.5f64.to_le_bytes());
    /// let mut r = Reader::from_slice(&file);
    /// assert!(matches!(r.next()?, Event::Start(t) if t.name() == "v"));
    /// assert_eq!(r.typed_content()?, Some(Typed::Value(Value::F64(2.5))));
    /// assert!(matches!(r.next()?, Event::End(_)));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn typed_content(&mut self) -> Result<Option<Typed<'_>>> {
        self.take_typed(None)
    }

    /// Like [`Reader::typed_content`] for an ARRAY element of values of type `T`: its values,
    /// `None` (and the content left unread) for anything else.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::{Event, Reader};
    /// // <a>1 2</a> with a an ARRAY of i32, little-endian, values at offset 24 (aligned).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x17, 0x01, 0x01, b'a', 0x04, 0x12, 0x00, 0x00, 0x00, 0x00, 0x03, 0x02, 0x00]);
    /// file.extend([1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]);
    /// let mut r = Reader::from_slice(&file);
    /// r.next()?;
    /// let values = r.array::<i32>()?.unwrap();
    /// assert_eq!(&*values, &[1, 2]);
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn array<T: Primitive>(&mut self) -> Result<Option<Cow<'_, [T]>>> {
        Ok(match self.take_typed(Some(T::TYPE))? {
            Some(Typed::Array(a)) => T::from_array(a),
            _ => None,
        })
    }

    /// Where the current event's frame lies, for binary input (see [`binary::FrameInfo`]):
    /// the element-like frame after an [`Event::Start`], the frame of a text, CDATA, comment or
    /// PI event. `None` for text input, for ends, for the text form of a typed value, and
    /// after an error.
    ///
    /// ```
    /// use xwire::binary::{ByteOrder, FrameKind};
    /// use xwire::Reader;
    /// // <v>2.5</v> with v a LEAF of type f64 (little-endian).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x12, 0x01, 0x01, b'v', 0x03, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x0A]);
    /// file.extend(2.5f64.to_le_bytes());
    /// let mut r = Reader::from_slice(&file);
    /// r.next()?;
    /// let f = r.frame().unwrap();
    /// assert_eq!((f.offset, f.kind, f.byte_order), (15, FrameKind::Leaf, ByteOrder::Little));
    /// assert_eq!((f.body, f.values), (17..30, Some(22..30)));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn frame(&self) -> Option<binary::FrameInfo> {
        if self.failed.is_some() {
            return None;
        }
        self.binary
            .as_ref()?
            .frame_info(self.input.data(), &self.st)
    }

    /// The string table of binary input (names, prefixes, URIs and PI targets, in table
    /// order), once the first event was read; empty for text input.
    pub fn string_table(&self) -> impl Iterator<Item = &str> + '_ {
        let data = self.input.data();
        self.binary.iter().flat_map(move |d| d.strings(data))
    }

    fn take_typed(&mut self, want: Option<binary::PrimitiveType>) -> Result<Option<Typed<'_>>> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Reader {
            input, st, binary, ..
        } = self;
        Ok(match binary.as_mut() {
            Some(d) => d.take_typed(input.data(), st, want),
            None => None,
        })
    }

    // ----- document information ---------------------------------------------------------------

    /// The XML declaration, once read.
    pub fn xml_decl(&self) -> Option<&XmlDecl> {
        self.st.xml_decl.as_ref()
    }

    /// Whether the document declared `standalone="yes"`.
    pub fn standalone(&self) -> bool {
        self.st.standalone
    }

    /// Current element nesting depth (1 inside the root element).
    pub fn depth(&self) -> usize {
        self.st.stack.len()
    }

    /// The namespace URI of an id.
    pub fn namespace_uri(&self, ns: NsId) -> &str {
        self.st.uris.get(Id(ns.0))
    }

    /// The id of a namespace URI, if the document used it so far.
    pub fn namespace_id(&self, uri: &str) -> Option<NsId> {
        self.st.uris.find(uri).map(|i| NsId(i.0))
    }

    /// The qualified name an id stands for.
    pub fn name_of(&self, id: Id) -> &str {
        self.st.names.get(id)
    }

    /// The namespace bindings in scope, innermost last: (prefix, namespace). The default
    /// namespace has the prefix `""`; an empty URI undeclares it.
    pub fn namespaces_in_scope(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.st.bindings.iter().map(move |&(p, ns)| {
            let prefix = if p == NO_PREFIX {
                ""
            } else {
                self.st.names.get(p)
            };
            (prefix, self.st.uris.get(Id(ns.0)))
        })
    }

    /// Names of the notations the DTD declared, with public and system identifiers.
    pub fn notations(&self) -> impl Iterator<Item = (&str, Option<&str>, Option<&str>)> + '_ {
        self.dtd
            .notations
            .iter()
            .map(|(n, (p, s))| (&**n, p.as_deref(), s.as_deref()))
    }

    /// Processing instructions inside the DTD, in document order: (target, data).
    pub fn dtd_processing_instructions(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.dtd.pis.iter().map(|(t, d)| (&**t, &**d))
    }

    /// Whether some declarations may be missing because external markup was not read (the
    /// caller installed no resolver, or it declined).
    pub fn dtd_incomplete(&self) -> bool {
        self.dtd.incomplete
    }

    /// Bytes of the document read so far (the offset after the current event).
    pub fn bytes_read(&self) -> u64 {
        self.input.base
            + if self.st.frames.is_empty() {
                self.st.pos as u64
            } else {
                self.st.frames[0].saved_pos as u64
            }
    }

    // ----- raw token positions, for models over the original bytes (the token index) -------

    /// Whether token spans are offsets into the caller's bytes: a slice reader over UTF-8
    /// input (not transcoded, not a stream). Only then do the offsets of [`Reader::offset`],
    /// [`Reader::bytes_read`] and the name spans of the current start tag index the input.
    pub(crate) fn spans_index_input(&self) -> bool {
        !self.input.owned && self.input.stream.is_none() && self.binary.is_none()
    }

    /// Whether the current token comes from an entity's replacement text rather than from
    /// the document's bytes.
    pub(crate) fn in_entity(&self) -> bool {
        !self.st.frames.is_empty()
    }

    /// Whether the DTD makes values differ from what the document's bytes say with only the
    /// predefined entities and character references: it declares general entities or
    /// attribute lists (defaults, tokenized types).
    pub(crate) fn dtd_shapes_values(&self) -> bool {
        self.dtd.has_general_entities() || !self.dtd.attlists.is_empty()
    }

    /// How many namespace URIs the reader has interned ([`NsId`]s `0..count`).
    pub(crate) fn namespace_count(&self) -> usize {
        self.st.uris.len()
    }

    /// Builds the borrowed view of the current token. Always inlined: built out of line, the
    /// event goes through memory, and the caller's first wide load of it stalls on the
    /// narrower stores that wrote it (store forwarding fails).
    #[inline(always)]
    fn event(&self) -> Event<'_> {
        let data: &[u8] = match self.st.frames.last() {
            Some(f) => f.text.as_bytes(),
            None => self.input.data(),
        };
        crate::event::view(data, &self.st, &self.dtd)
    }
}
