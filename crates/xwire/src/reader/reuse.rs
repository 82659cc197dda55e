//! Reusing a reader's allocations for the next document.
//!
//! One mechanism serves every kind of reuse: a reader's state (the token state and the text
//! source's, with the allocations of its names, element stack and buffers) lives in one box,
//! and the reader of the next document takes that box and resets it in place
//! ([`Reader::restart`]): nothing is moved but a pointer. Three owners keep a box between
//! documents:
//!
//! - a [`ReaderSlot`](crate::ReaderSlot): one reader kept and lent for one document at a
//!   time. This is the way to reuse readers: a server keeps one slot per thread and lends it
//!   to each message.
//! - the thread's spare: a reader dropped on a thread leaves its box there (when small: about
//!   64 KB, no DTD), and the next [`Reader::from_slice`] (or any constructor) on that thread
//!   takes it, so that code which simply creates a reader per document allocates nothing
//!   once warm. It holds allocations only: a reader starts afresh whatever it reused.
//! - [`ReaderBuffers`]: the box handed over explicitly ([`Reader::into_buffers`],
//!   [`Reader::with_buffers`]), to keep one per connection or move it across threads.
//!
//! The names of the last document stay, with their ids, when they are few and were read the
//! same way and without error ([`Reader::name_generation`]).

use std::mem::ManuallyDrop;

use crate::config::Config;
use crate::dtd::{Dtd, Expansion};
use crate::intern::{Id, Interner};

use super::text::lines::LineTracker;
use super::text::window::Input;
use super::text::{Phase, State};
use super::token::{clear, Attr, NsId, Open, QMeta, Span, TokenKind, TokenState, BASE_EPOCH};
use super::{Path, Reader};

/// What a reader keeps from one document to the next, in one box: the text source's state
/// (with the token state) and the DTD.
pub(crate) struct Core {
    pub(crate) st: State,
    pub(crate) dtd: Dtd,
}

/// The allocations of a finished [`Reader`], for the next one to reuse
/// ([`Reader::into_buffers`], [`Reader::with_buffers`]): the box a
/// [`ReaderSlot`](crate::ReaderSlot) keeps, handed over by hand.
pub struct ReaderBuffers {
    core: Box<Core>,
    buf: Vec<u8>,
}

impl Default for ReaderBuffers {
    fn default() -> ReaderBuffers {
        ReaderBuffers {
            core: new_core(Config::default()),
            buf: Vec::new(),
        }
    }
}

thread_local! {
    /// The state of the last reader dropped on this thread, for the next one (see the module
    /// documentation).
    static SPARE: std::cell::Cell<Option<Box<Core>>> = const { std::cell::Cell::new(None) };
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        let clean = self.clean();
        // SAFETY: `core` is taken here once and never used again: the reader is being
        // dropped, and `ManuallyDrop` keeps the drop glue from dropping it a second time.
        #[allow(unsafe_code)]
        let mut core = unsafe { ManuallyDrop::take(&mut self.core) };
        if !clean {
            core.st.tok.names_gen = 0;
        }
        if small(&core) {
            // `try_with`: the thread-local may already be gone while a thread exits.
            let _ = SPARE.try_with(move |s| s.set(Some(core)));
        }
    }
}

/// Whether a core is small enough to keep for the next reader of its thread: about 64 KB in
/// all, no entity frame and no DTD (whose entities could be large), so a thread never holds on
/// to a big document's buffers.
fn small(core: &Core) -> bool {
    let st = &core.st;
    let tok = &st.tok;
    let bytes = tok.names.heap_bytes()
        + tok.uris.heap_bytes()
        + tok.stack.capacity() * std::mem::size_of::<Open>()
        + tok.qmeta.capacity() * std::mem::size_of::<QMeta>()
        + tok.attrs.capacity() * std::mem::size_of::<Attr>()
        + tok.scratch.capacity();
    bytes <= 64 << 10 && st.frames.is_empty() && core.dtd.is_empty()
}

/// A new core, with room for the names, elements and attributes of a small document.
#[cold]
fn new_core(config: Config) -> Box<Core> {
    let st = State {
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
            attrs: Vec::with_capacity(8),
            scratch: String::new(),
            doctype: None,
            stack: Vec::with_capacity(16),
            names: Interner::with_capacity(64, 256),
            qmeta: Vec::with_capacity(32),
            uris: Interner::with_capacity(16, 128),
            bindings: Vec::with_capacity(8),
            epoch: BASE_EPOCH,
            epochs: BASE_EPOCH,
            // No names yet: `restart` gives the first document a generation.
            names_gen: 0,
        },
        pos: 0,
        frames: Vec::new(),
        phase: Phase::Start,
        doc_start: 0,
        xml_decl: None,
        standalone: false,
        pending_end: false,
        expansion: Expansion::default(),
        lines: LineTracker::START,
        early: None,
    };
    Box::new(Core {
        st,
        dtd: Dtd::default(),
    })
}

/// At most this many names and namespace names are kept from one document for the next
/// (see [`Reader::name_generation`]): a stream of ever-new names cannot grow the tables.
pub(in crate::reader) const KEPT_NAMES: usize = 256;
pub(in crate::reader) const KEPT_URIS: usize = 32;

/// Whether a document's names and namespace names are few enough to keep for the next one
/// (with the binding epochs far from wrapping).
pub(in crate::reader) fn names_fit(names: &Interner, uris: &Interner, epochs: u32) -> bool {
    names.len() <= KEPT_NAMES && uris.len() <= KEPT_URIS && epochs < u32::MAX / 2
}

/// The name generation and last binding epoch handed out for the next document: the same
/// generation when its names are kept, with the epochs going on from where they were (the
/// names' cached resolutions are of those epochs); else a new generation.
pub(in crate::reader) fn name_ids(keep: bool, names_gen: u64, epochs: u32) -> (u64, u32) {
    if keep {
        (names_gen, epochs)
    } else {
        (next_name_generation(), BASE_EPOCH)
    }
}

/// A new generation of name ids, unique in the process.
pub(in crate::reader) fn next_name_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Resets a kept core for a new document, in place; `clean`: the last document ended without
/// error and was text, so its names may be kept (when few).
fn reset_core(core: &mut Core, clean: bool) {
    let Core { st, dtd } = core;
    let keep =
        clean && st.tok.names_gen != 0 && names_fit(&st.tok.names, &st.tok.uris, st.tok.epochs);
    (st.tok.names_gen, st.tok.epochs) = name_ids(keep, st.tok.names_gen, st.tok.epochs);
    // A kept name resolved under the bindings every document starts with stays resolved.
    st.tok.epoch = BASE_EPOCH;
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
    st.tok.reset_names(keep);
    dtd.clear();
}

impl<'a> Reader<'a> {
    /// A reader on the state a dropped reader of this thread left (see the module
    /// documentation), or on a new one.
    #[inline]
    pub(crate) fn empty(config: Config) -> Reader<'a> {
        let core = match SPARE.with(|s| s.take()) {
            Some(core) => core,
            None => new_core(config.clone()),
        };
        Reader::on_core(core, Vec::new(), config)
    }

    /// A reader on a kept core, reset for a new document read with `config`.
    #[inline]
    fn on_core(mut core: Box<Core>, mut buf: Vec<u8>, config: Config) -> Reader<'a> {
        // Names read without namespaces were not checked as QNames: not kept for a reader
        // with them, nor the other way round.
        let tok = &mut core.st.tok;
        if tok.config.namespaces != config.namespaces {
            tok.names_gen = 0;
        }
        tok.config = config;
        // The rest of the reader is new: only the kept parts need a reset.
        reset_core(&mut core, true);
        buf.clear();
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
            core: ManuallyDrop::new(core),
            resolver: None,
            failed: None,
            binary: None,
            path: Path::Check,
            peeked: false,
        }
    }

    /// Whether what the reader read can be kept for the next document. A name is interned
    /// before its first check: after an error the names may hold one that failed. (Nor after
    /// binary input, to keep to one way.)
    fn clean(&self) -> bool {
        self.failed.is_none() && self.binary.is_none()
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
        let ReaderBuffers { core, buf } = buffers;
        let mut r = Reader::on_core(core, buf, config);
        r.init_slice(bytes);
        r
    }

    /// Gives back the reader's allocations for [`Reader::with_buffers`].
    pub fn into_buffers(self) -> ReaderBuffers {
        let clean = self.clean();
        let mut me = ManuallyDrop::new(self);
        // Every field named, so that a new one is not forgotten (`me` is never dropped).
        let Reader {
            input,
            core,
            resolver,
            failed,
            binary,
            path: _,
            peeked: _,
        } = &mut *me;
        // SAFETY: `me` is never dropped nor used again, so `core` is taken exactly once.
        #[allow(unsafe_code)]
        let mut core = unsafe { ManuallyDrop::take(core) };
        if !clean {
            core.st.tok.names_gen = 0;
        }
        let Input {
            slice: _,
            buf,
            owned: _,
            stream,
            eof: _,
            bad_encoding,
            base: _,
        } = input;
        drop((stream.take(), bad_encoding.take()));
        drop((resolver.take(), failed.take(), binary.take()));
        ReaderBuffers {
            core,
            buf: std::mem::take(buf),
        }
    }

    /// Makes the reader a new one with its allocations, configuration and (when few) names,
    /// in place. For every kind of reuse (see the module documentation); the input is set
    /// next.
    pub(crate) fn restart(&mut self) {
        let clean = self.clean();
        let Reader {
            input,
            core,
            resolver,
            failed,
            binary,
            path,
            peeked,
        } = self;
        *peeked = false;
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
        reset_core(core, clean);
    }

    /// The configuration the reader reads with.
    pub(crate) fn config(&self) -> &Config {
        &self.core.st.tok.config
    }

    /// Lets go of everything the reader borrows for `'a` (its input, stream and resolver),
    /// leaving what a reader of any lifetime may hold. After an unwind, the names it read are
    /// not kept (one may have been interned before its check).
    pub(crate) fn park(&mut self) {
        self.input.slice = &[];
        if std::thread::panicking() {
            self.core.st.tok.names_gen = 0;
        }
        // Dropped last: their drops may panic, and nothing of `'a` may stay if they do.
        let stream = self.input.stream.take();
        let resolver = self.resolver.take();
        drop(stream);
        drop(resolver);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader is returned by value from every constructor: at 128 bytes or less the
    /// compiler moves it with a few stores, above that it calls `memcpy` (twice per new
    /// reader, a twentieth of a one-element document's cost). Rarely used parts belong in
    /// `Core` or behind a box.
    #[test]
    fn a_reader_moves_in_registers() {
        assert!(std::mem::size_of::<Reader<'static>>() <= 128);
    }
}
