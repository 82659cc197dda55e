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
use crate::event::{Attr, Span, TokenKind};
use crate::intern::{Id, Interner};
use crate::resolver::Resolver;
use crate::scan::str_of;
use crate::scan::{self, bad, syntax, Scan, Stop};

use super::config::Config;
use super::token::{NsId, Open, QMeta, NO_PREFIX, XMLNS_NS, XML_NS};
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

/// Everything the reader tracks besides its input and DTD.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) pos: usize,
    pub(in crate::reader) frames: Vec<EntFrame>,
    pub(crate) phase: Phase,
    pub(in crate::reader) doc_start: u64,
    pub(in crate::reader) xml_decl: Option<XmlDecl>,
    pub(in crate::reader) standalone: bool,
    pub(crate) stack: Vec<Open>,
    pub(crate) names: Interner,
    pub(crate) qmeta: Vec<QMeta>,
    pub(crate) uris: Interner,
    pub(crate) bindings: Vec<(Id, NsId)>,
    pub(crate) epoch: u32,
    /// The generation of the ids in `names` and `uris` ([`Reader::name_generation`]).
    pub(in crate::reader) names_gen: u64,
    // The current token.
    pub(crate) kind: TokenKind,
    pub(crate) tok_start: u64,
    pub(crate) a: Span,
    pub(crate) b: Span,
    pub(crate) flags: u8,
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    pub(crate) empty: bool,
    pub(in crate::reader) pending_end: bool,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) scratch: String,
    pub(crate) doctype: Option<crate::event::DoctypeInfo>,
    pub(in crate::reader) expansion: Expansion,
    pub(crate) peeked: bool,
    pub(in crate::reader) lines: LineTracker,
    /// An error found before parsing started (encoding), reported by the first `next`.
    pub(in crate::reader) early: Option<(usize, ErrorKind)>,
}

/// Bytes of markup a token may have beyond [`Limits::max_text_length`] of content.
pub(in crate::reader) const TOKEN_SLACK: usize = 1024;

impl State {
    /// Readies the names for a new document: only the binding of `xml` stays in scope.
    /// With `keep`, the names and namespace names of the last document stay too (their
    /// cached resolutions are of older epochs).
    pub(in crate::reader) fn reset_names(&mut self, keep: bool) {
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

#[cold]
pub(in crate::reader) fn ns_err(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Namespace(msg.into())
}

impl State {
    #[inline]
    pub(in crate::reader) fn set_token(&mut self, kind: TokenKind, start: usize, base: u64) {
        self.kind = kind;
        self.tok_start = base + start as u64;
    }

    /// How far past its position one step may look: the token limit plus room for markup.
    /// A token that does not end within it is too long.
    #[inline]
    pub(in crate::reader) fn window(&self) -> usize {
        usize::try_from(self.config.limits.max_text_length)
            .unwrap_or(usize::MAX)
            .saturating_add(TOKEN_SLACK)
    }

    pub(in crate::reader) fn check_len(&self, start: usize, end: usize) -> Scan<()> {
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
    pub(in crate::reader) fn intern_qname(
        &mut self,
        data: &[u8],
        s: usize,
        e: usize,
        element: bool,
    ) -> Scan<Id> {
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
    pub(in crate::reader) fn intern_qname_cold(
        &mut self,
        data: &[u8],
        s: usize,
        e: usize,
        element: bool,
    ) -> Scan<Id> {
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

    pub(in crate::reader) fn lookup_prefix(&self, prefix: Id) -> Option<NsId> {
        self.bindings
            .iter()
            .rev()
            .find(|b| b.0 == prefix)
            .map(|b| b.1)
    }

    /// Namespace of an element or prefixed attribute name, cached per name until the bindings
    /// in scope change.
    #[inline(always)]
    pub(in crate::reader) fn resolve(&mut self, qname: Id, at: usize, element: bool) -> Scan<NsId> {
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
    pub(in crate::reader) fn resolve_anew(&mut self, qname: Id, at: usize) -> Scan<NsId> {
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
    pub(in crate::reader) fn value_of<'d>(&'d self, data: &'d [u8], span: Span) -> &'d str {
        if span.scratch {
            &self.scratch[span.start..span.end]
        } else {
            str_of(&data[span.start..span.end])
        }
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
