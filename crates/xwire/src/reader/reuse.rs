//! Reusing a reader's allocations for the next document.

use crate::dtd::{Dtd, Expansion};
use crate::intern::{Id, Interner};
use crate::reader::token::{Attr, Span, TokenKind};

use super::text::lines::LineTracker;
use super::text::window::Input;
use super::text::{EntFrame, Phase, State};
use super::token::{clear, NsId, Open, QMeta, TokenState};
use super::{Path, Reader};
use crate::config::Config;

/// The allocations of a finished [`Reader`], for the next one to reuse
/// ([`Reader::into_buffers`], [`Reader::with_buffers`]). Without them a new reader takes the
/// (small) buffers the last reader dropped on its thread left behind, so explicit reuse only
/// matters for keeping buffers per connection or across threads.
#[derive(Default)]
pub struct ReaderBuffers {
    pub(in crate::reader) st: StateBufs,
    pub(in crate::reader) dtd: Dtd,
    pub(in crate::reader) buf: Vec<u8>,
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
        if self.st.tok.names.is_unallocated() {
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
    pub(in crate::reader) fn small(&self) -> bool {
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
pub(in crate::reader) struct StateBufs {
    pub(in crate::reader) frames: Vec<EntFrame>,
    pub(in crate::reader) stack: Vec<Open>,
    pub(in crate::reader) names: Interner,
    pub(in crate::reader) qmeta: Vec<QMeta>,
    pub(in crate::reader) uris: Interner,
    pub(in crate::reader) bindings: Vec<(Id, NsId)>,
    pub(in crate::reader) attrs: Vec<Attr>,
    pub(in crate::reader) scratch: String,
    /// What the names were read under: their ids' generation (0: none), the last binding
    /// epoch (the next reader goes on from it, so no cached resolution of a name matches a
    /// new scope) and whether namespaces were on (their QName checks and prefixes).
    pub(in crate::reader) names_gen: u64,
    pub(in crate::reader) epoch: u32,
    pub(in crate::reader) namespaces: bool,
}

/// At most this many names and namespace names are kept from one document for the next
/// (see [`Reader::name_generation`]): a stream of ever-new names cannot grow the tables.
pub(in crate::reader) const KEPT_NAMES: usize = 256;
pub(in crate::reader) const KEPT_URIS: usize = 32;

/// Whether a document's names and namespace names are few enough to keep for the next one
/// (with the binding epoch far from wrapping).
pub(in crate::reader) fn names_fit(names: &Interner, uris: &Interner, epoch: u32) -> bool {
    names.len() <= KEPT_NAMES && uris.len() <= KEPT_URIS && epoch < u32::MAX / 2
}

/// The name generation and binding epoch of the next document: the same generation when
/// its names are kept, and the epoch going on from where it was; else a new generation.
pub(in crate::reader) fn name_ids(keep: bool, names_gen: u64, epoch: u32) -> (u64, u32) {
    if keep {
        (names_gen, epoch + 1)
    } else {
        (next_name_generation(), 1)
    }
}

/// A new generation of name ids, unique in the process.
pub(in crate::reader) fn next_name_generation() -> u64 {
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

impl<'a> Reader<'a> {
    /// A reader on the allocations a dropped reader of this thread left (see [`SPARE`]), or
    /// on new ones.
    pub(crate) fn empty(config: Config) -> Reader<'a> {
        let bufs = SPARE.with(|s| s.take()).unwrap_or_default();
        Reader::recycled(config, bufs)
    }

    /// A reader built on the allocations of an earlier one.
    pub(in crate::reader) fn recycled(config: Config, bufs: ReaderBuffers) -> Reader<'a> {
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
            tok: TokenState {
                config,
                kind: TokenKind::Eof,
                start: 0,
                span: Span::default(),
                pi_data: Span::default(),
                flags: 0,
                qname: Id(0),
                ns: NsId::NONE,
                empty: false,
                attrs: old.attrs,
                scratch: old.scratch,
                doctype: None,
                stack: old.stack,
                names: old.names,
                qmeta: old.qmeta,
                uris: old.uris,
                bindings: old.bindings,
                epoch,
                names_gen,
            },
            pos: 0,
            frames: old.frames,
            phase: Phase::Start,
            doc_start: 0,
            xml_decl: None,
            standalone: false,
            pending_end: false,
            expansion: Expansion::default(),
            lines: LineTracker::START,
            early: None,
        };
        st.frames.clear();
        st.tok.stack.clear();
        st.tok.attrs.clear();
        st.tok.scratch.clear();
        st.tok.reset_names(keep);
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
            peeked: false,
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
    pub(in crate::reader) fn take_buffers(&mut self) -> ReaderBuffers {
        // A name is interned before its first check: after an error the names may hold one
        // that failed, and are not kept. (Nor after binary input, to keep to one way.)
        let clean = self.failed.is_none() && self.binary.is_none();
        let names_gen = if clean { self.st.tok.names_gen } else { 0 };
        let st = &mut self.st;
        ReaderBuffers {
            st: StateBufs {
                frames: std::mem::take(&mut st.frames),
                stack: std::mem::take(&mut st.tok.stack),
                names: std::mem::take(&mut st.tok.names),
                qmeta: std::mem::take(&mut st.tok.qmeta),
                uris: std::mem::take(&mut st.tok.uris),
                bindings: std::mem::take(&mut st.tok.bindings),
                attrs: std::mem::take(&mut st.tok.attrs),
                scratch: std::mem::take(&mut st.tok.scratch),
                names_gen,
                epoch: st.tok.epoch,
                namespaces: st.tok.config.namespaces,
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
            peeked,
        } = self;
        let keep =
            clean && st.tok.names_gen != 0 && names_fit(&st.tok.names, &st.tok.uris, st.tok.epoch);
        (st.tok.names_gen, st.tok.epoch) = name_ids(keep, st.tok.names_gen, st.tok.epoch);
        let State {
            tok,
            pos,
            frames,
            phase,
            doc_start,
            xml_decl,
            standalone,
            pending_end,
            expansion,
            lines,
            early,
        } = st;
        tok.clear_token();
        *pos = 0;
        frames.clear();
        *phase = Phase::Start;
        *doc_start = 0;
        clear(xml_decl);
        *standalone = false;
        *pending_end = false;
        *expansion = Expansion::default();
        *lines = LineTracker::START;
        clear(early);
        *peeked = false;
        st.tok.reset_names(keep);
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
        &self.st.tok.config
    }

    /// Lets go of everything the reader borrows for `'a` (its input, stream and resolver),
    /// leaving what a reader of any lifetime may hold. After an unwind, the names it read are
    /// not kept (one may have been interned before its check).
    pub(crate) fn park(&mut self) {
        self.input.slice = &[];
        if std::thread::panicking() {
            self.st.tok.names_gen = 0;
        }
        // Dropped last: their drops may panic, and nothing of `'a` may stay if they do.
        let stream = self.input.stream.take();
        let resolver = self.resolver.take();
        drop(stream);
        drop(resolver);
    }
}
