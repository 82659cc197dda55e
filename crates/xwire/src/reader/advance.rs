//! Reading the next token: the path a token takes (the fast path of a document in memory,
//! the general loop, the checks at the start and after errors) and what a step's outcome
//! means.

use crate::decl::{self, DeclKind};
use crate::error::{Error, ErrorKind, LimitKind, Result};
use crate::reader::token::TokenKind;
use crate::scan::{Scan, Stop};

use super::text::window::Input;
use super::text::{wf, Phase, StepR};
use super::{Core, Path, Reader};

impl<'a> Reader<'a> {
    #[inline(always)]
    pub(in crate::reader) fn advance(&mut self) -> Result<()> {
        if self.path != Path::Doc {
            return self.advance_slow();
        }
        match self.advance_doc::<false>() {
            Ok(()) => Ok(()),
            Err(e) => Err(self.halt(e)),
        }
    }

    #[cold]
    pub(in crate::reader) fn halt(&mut self, e: Error) -> Error {
        self.core.st.phase = Phase::Done;
        self.core.st.tok.kind = TokenKind::Eof;
        self.failed = Some(e.clone());
        self.path = Path::Check;
        e
    }

    /// Off the fast path of a UTF-8 slice: a transcoded document, text input on the general
    /// path, or the checks of [`Path::Check`].
    #[inline(never)]
    pub(in crate::reader) fn advance_slow(&mut self) -> Result<()> {
        let r = match self.path {
            Path::General => {
                let r = self.advance_general();
                // Back out of an entity's replacement text (a stream stays here).
                if r.is_ok() && self.core.st.frames.is_empty() && self.input.stream.is_none() {
                    self.choose_path();
                }
                r
            }
            Path::Transcoded => self.advance_doc::<true>(),
            Path::EndEmpty => {
                self.core.st.end_empty_element();
                self.path = if self.input.owned {
                    Path::Transcoded
                } else {
                    Path::Doc
                };
                return Ok(());
            }
            _ => return self.advance_checked(),
        };
        r.map_err(|e| self.halt(e))
    }

    /// A reader at the start of a document, failed, holding an early error, reading binary
    /// input or done.
    pub(in crate::reader) fn advance_checked(&mut self) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if let Some((at, k)) = self.core.st.early.take() {
            let e = self.error_at_doc(at as u64, k);
            return Err(self.halt(e));
        }
        if self.binary.is_some() {
            return self.advance_binary();
        }
        if self.core.st.phase == Phase::Done {
            self.core.st.tok.kind = TokenKind::Eof;
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
    pub(in crate::reader) fn choose_path(&mut self) {
        self.path = if self.failed.is_some()
            || self.core.st.early.is_some()
            || self.binary.is_some()
            || matches!(self.core.st.phase, Phase::Start | Phase::Done)
        {
            Path::Check
        } else if !self.core.st.frames.is_empty()
            || self.input.stream.is_some()
            || !self.input.eof
            || self.input.base != 0
            || self.input.data().len() > self.core.st.window()
        {
            Path::General
        } else if self.core.st.pending_end {
            Path::EndEmpty
        } else if self.input.owned {
            Path::Transcoded
        } else {
            Path::Doc
        };
    }

    /// The document's bytes on the fast path: the slice read in place, or its transcoding.
    #[inline(always)]
    pub(in crate::reader) fn doc<'i, const OWNED: bool>(input: &'i Input<'a>) -> &'i [u8] {
        if OWNED {
            &input.buf
        } else {
            input.slice
        }
    }

    /// One event of binary input (`reader/binary.rs`).
    #[allow(unsafe_code)]
    pub(in crate::reader) fn advance_binary(&mut self) -> Result<()> {
        let Reader {
            input,
            core,
            binary,
            ..
        } = self;
        let st = &mut core.st;
        let decoder = binary.as_mut().expect("binary input");
        // SAFETY: the input the decoder was made with (see `Reader::binary`).
        match unsafe { decoder.advance(input.data(), &mut st.tok) } {
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
    pub(in crate::reader) fn advance_doc<const OWNED: bool>(&mut self) -> Result<()> {
        // An empty element's end is read off this path (`Path::EndEmpty`).
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
    pub(in crate::reader) fn leave_doc<const OWNED: bool>(&mut self, r: Scan<StepR>) -> Result<()> {
        match r {
            Ok(StepR::Empty) => {
                self.path = Path::EndEmpty;
                return Ok(());
            }
            // White space skipped: the step after it reads markup or the end.
            Ok(StepR::Continue) if self.core.st.frames.is_empty() => {
                return self.advance_doc_again::<OWNED>();
            }
            // The whole document read (what `after_step` concludes, without its other cases).
            Ok(StepR::End) if self.core.st.frames.is_empty() && self.input.eof => {
                return self.end_of_document();
            }
            _ => {}
        }
        if let Some(done) = self.after_step(r) {
            return done;
        }
        // (An error is halted on twice, here and by the caller: the same state either way.)
        self.path = Path::General;
        self.advance_slow()
    }

    /// [`Reader::advance_doc`] out of line, for [`Reader::leave_doc`]: inlined there, the
    /// fast path's step made `leave_doc` save every register on entry, even for the end of
    /// an empty element or of the document.
    #[inline(never)]
    fn advance_doc_again<const OWNED: bool>(&mut self) -> Result<()> {
        self.advance_doc::<OWNED>()
    }

    /// One token of text input in any state: inside entities, on a stream's window.
    #[inline(always)]
    pub(in crate::reader) fn advance_general(&mut self) -> Result<()> {
        if self.core.st.pending_end {
            self.core.st.end_empty_element();
            return Ok(());
        }
        loop {
            let r = self.step::<false, false>();
            if let Ok(StepR::Token | StepR::Empty) = r {
                return Ok(());
            }
            if let Some(done) = self.after_step(r) {
                return done;
            }
        }
    }

    /// What a step's outcome means for the token being read: `Some` when it is read (or
    /// failed), `None` when the reader steps again.
    pub(in crate::reader) fn after_step(&mut self, r: Scan<StepR>) -> Option<Result<()>> {
        match r {
            Ok(StepR::Token | StepR::Empty) => Some(Ok(())),
            Ok(StepR::Continue) => None,
            Ok(StepR::End) => {
                if let Some(f) = self.core.st.frames.last() {
                    if self.core.st.tok.stack.len() != f.depth {
                        let name = self.core.dtd.entities[f.entity].name.to_string();
                        return Some(Err(self.error_here(
                            0,
                            wf(format!("entity '{name}' ends inside an element it opened")),
                        )));
                    }
                    let f = self.core.st.frames.pop().expect("frame");
                    self.core.st.pos = f.saved_pos;
                    return None;
                }
                if !self.input.eof {
                    return self.refill().err().map(Err);
                }
                Some(self.end_of_document())
            }
            Err(Stop::Eof) => {
                if self.core.st.frames.is_empty()
                    && self.input.data().len() - self.core.st.pos > self.core.st.window()
                {
                    // The token does not end within the window (see `State::window`).
                    let limit = self.core.st.tok.config.limits.max_text_length;
                    return Some(Err(self.error_here(
                        self.core.st.pos,
                        ErrorKind::LimitExceeded(LimitKind::TextLength, limit),
                    )));
                }
                if self.core.st.frames.is_empty() && !self.input.eof {
                    return self.refill_for_token().err().map(Err);
                }
                let what = if self.core.st.frames.is_empty() {
                    "the document"
                } else {
                    "an entity's replacement text (a construct must end in the entity where it starts)"
                };
                Some(Err(self.error_here(
                    self.core.st.pos,
                    ErrorKind::UnexpectedEof(what),
                )))
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
    pub(in crate::reader) fn refill_for_token(&mut self) -> Result<()> {
        let delim = if self.input.data().get(self.core.st.pos) == Some(&b'<') {
            b'>'
        } else {
            b'<'
        };
        loop {
            let held = self.input.data().len() - self.core.st.pos;
            self.refill()?;
            let data = self.input.data();
            let done = self.input.eof
                || self.input.bad_encoding.is_some()
                || data.len() - self.core.st.pos > self.core.st.window();
            if done || memchr::memchr(delim, &data[self.core.st.pos + held..]).is_some() {
                return Ok(());
            }
        }
    }

    pub(in crate::reader) fn refill(&mut self) -> Result<()> {
        if let Some(m) = self.input.bad_encoding.take() {
            // Reported where the reader reaches it, so the same document gives the same error
            // however it is chunked.
            let at = self.input.data().len();
            return Err(self.error_here(at, ErrorKind::InvalidEncoding(m.into())));
        }
        let keep = self.core.st.pos;
        // Count lines in what is dropped, so later locations stay right.
        let from = (self.core.st.lines.offset.saturating_sub(self.input.base)) as usize;
        if from < keep {
            let bytes = &self.input.data()[from..keep];
            self.core.st.lines.advance(bytes);
        }
        match self.input.refill(keep) {
            Ok(dropped) => {
                self.core.st.pos -= dropped;
                Ok(())
            }
            Err(k) => Err(self.error_here(self.core.st.pos, k)),
        }
    }

    #[inline]
    pub(in crate::reader) fn end_of_document(&mut self) -> Result<()> {
        if !matches!(self.core.st.phase, Phase::Epilog | Phase::Done) {
            return self.unfinished_document();
        }
        self.core.st.phase = Phase::Done;
        self.path = Path::Check;
        self.core.st.tok.kind = TokenKind::Eof;
        self.core.st.tok.start = self.input.base + self.core.st.pos as u64;
        Ok(())
    }

    /// The document ends before its root element does, or has none.
    #[cold]
    #[inline(never)]
    fn unfinished_document(&mut self) -> Result<()> {
        match self.core.st.phase {
            Phase::Content => {
                let name = self
                    .core
                    .st
                    .tok
                    .stack
                    .last()
                    .map(|o| self.core.st.tok.names.get(o.qname).to_string())
                    .unwrap_or_default();
                Err(self.error_here(
                    self.core.st.pos,
                    wf(format!("the document ends before the end tag of <{name}>")),
                ))
            }
            // Start or Prolog (the caller has seen to the others).
            _ => Err(self.error_here(self.core.st.pos, wf("the document has no root element"))),
        }
    }

    /// One parsing step at the current position of the current frame. `DOC`: on the fast
    /// path ([`Reader::choose_path`]), where the data is the whole document (`OWNED`: its
    /// transcoding) with no frame, past its start.
    #[inline(always)]
    pub(in crate::reader) fn step<const DOC: bool, const OWNED: bool>(&mut self) -> Scan<StepR> {
        let Reader {
            input,
            core,
            resolver,
            ..
        } = self;
        let Core { st, dtd, .. } = &mut ***core;
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
}
