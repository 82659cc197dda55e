//! The text source: XML 1.0 text, read one construct at a time.
//!
//! [`State::step_at`] dispatches on the bytes at the position to one parse function per
//! construct: tags ([`tag`]), character data and entity references ([`content`]), comments,
//! processing instructions and CDATA sections ([`markup`]) and the document type declaration
//! ([`doctype`]). [`window`] holds the input, [`lines`] turns offsets into lines.

pub(crate) mod content;
pub(crate) mod doctype;
pub(crate) mod lines;
pub(crate) mod markup;
pub(crate) mod tag;
pub(crate) mod window;

use std::sync::Arc;

use crate::chars;
use crate::decl::XmlDecl;
use crate::dtd::{Dtd, Expansion};
use crate::error::{ErrorKind, LimitKind};
use crate::resolver::Resolver;
use crate::scan::{self, bad, syntax, Scan, Stop};

use super::token::TokenState;
use lines::LineTracker;

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
pub(in crate::reader) struct EntFrame {
    pub(in crate::reader) text: Arc<str>,
    /// Position in the parent frame to return to.
    pub(in crate::reader) saved_pos: usize,
    pub(in crate::reader) entity: usize,
    /// Open elements when the entity started: it must close exactly those it opens.
    pub(in crate::reader) depth: usize,
}

/// The text source's state: the token state it fills, and where it is in the text.
pub(crate) struct State {
    /// The current token, the open elements, bindings and names (shared with the binary
    /// source).
    pub(crate) tok: TokenState,
    /// Position in the current frame's bytes.
    pub(crate) pos: usize,
    /// Entities being expanded, innermost last; their bytes are read instead of the input's.
    pub(in crate::reader) frames: Vec<EntFrame>,
    pub(crate) phase: Phase,
    /// Offset of the first byte after a byte order mark.
    pub(in crate::reader) doc_start: u64,
    pub(in crate::reader) xml_decl: Option<XmlDecl>,
    pub(in crate::reader) standalone: bool,
    /// An empty-element tag was reported as a start: its end comes next.
    pub(in crate::reader) pending_end: bool,
    pub(in crate::reader) expansion: Expansion,
    pub(in crate::reader) lines: LineTracker,
    /// An error found before parsing started (encoding), reported by the first `next`.
    pub(in crate::reader) early: Option<(usize, ErrorKind)>,
}

/// Bytes of markup a token may have beyond [`Limits::max_text_length`] of content.
pub(in crate::reader) const TOKEN_SLACK: usize = 1024;

/// What becomes of a general entity reference in content.
pub(in crate::reader) enum EntityUse {
    /// Pure text: it stays inside the text token, expanded by `Text::unescape`.
    Inline,
    /// Its replacement text has markup (or was loaded): parsed in a frame of its own.
    Frame(Arc<str>, usize),
    /// Not read: reported as [`TokenKind::SkippedEntity`].
    Skipped,
}

/// What one parsing step did.
pub(in crate::reader) enum StepR {
    /// A token is ready.
    Token,
    /// An empty element's start tag is ready; its end is the next token (`pending_end`).
    Empty,
    /// Something was consumed that is not reported (white space outside the root, the XML
    /// declaration, an entity frame pushed or popped): step again.
    Continue,
    /// The current frame has no more bytes.
    End,
}

#[cold]
pub(in crate::reader) fn wf(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::WellFormedness(msg.into())
}

impl State {
    /// How far past its position one step may look: the token limit plus room for markup.
    /// A token that does not end within it is too long.
    #[inline]
    pub(in crate::reader) fn window(&self) -> usize {
        usize::try_from(self.tok.config.limits.max_text_length)
            .unwrap_or(usize::MAX)
            .saturating_add(TOKEN_SLACK)
    }

    /// Inlined: a compare and a branch on every text token, where a call to it would cost
    /// more than its body (it was left out of line in the validator's loop).
    #[inline(always)]
    pub(in crate::reader) fn check_len(&self, start: usize, end: usize) -> Scan<()> {
        if (end - start) as u64 > self.tok.config.limits.max_text_length {
            return bad(
                start,
                ErrorKind::LimitExceeded(
                    LimitKind::TextLength,
                    self.tok.config.limits.max_text_length,
                ),
            );
        }
        Ok(())
    }

    /// One parsing step at `pos` in `data` (the document's window or an entity's replacement
    /// text), past the start of the document; `base` locates tokens in the document.
    #[inline(always)]
    pub(in crate::reader) fn step_at(
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
}
