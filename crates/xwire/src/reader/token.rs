//! The token state: the contract between the sources (text, binary) and everything that reads
//! their tokens.
//!
//! A source fills a [`TokenState`]: the current token's kind, start and spans, the attributes
//! of a start tag, the open elements and the namespace bindings in scope, and the interned
//! names with their cached resolutions. Event views ([`super::event`]) read only this.

use crate::chars;
use crate::error::{ErrorKind, LimitKind};
use crate::intern::{Id, Interner};
use crate::scan::{bad, str_of, Scan};

use crate::config::Config;

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
    pub(crate) prefix: Id,
    pub(crate) epoch: u32,
    pub(crate) ns: NsId,
}

pub(crate) const NO_PREFIX: Id = Id(u32::MAX);

/// The binding epoch of the bindings every document starts with (`xml` alone); a name never
/// resolved has epoch 0.
pub(crate) const BASE_EPOCH: u32 = 1;

impl QMeta {
    /// A name not yet known to have a prefix, never resolved.
    pub(crate) const NONE: QMeta = QMeta {
        prefix_len: 0,
        prefix: NO_PREFIX,
        epoch: 0,
        ns: NsId::NONE,
    };
}

// Text flags.
pub(crate) const F_REFS: u8 = 1;
pub(crate) const F_CR: u8 = 2;

/// A span of the current frame's bytes or of the reader's scratch buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) scratch: bool,
}

/// An attribute of the current start tag, as the reader stores it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attr {
    pub(crate) name: Span,
    pub(crate) value: Span,
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    pub(crate) defaulted: bool,
    /// Declared of type ID in the DTD.
    pub(crate) id: bool,
}

/// The document type declaration, kept by the reader once read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DoctypeInfo {
    pub(crate) name: String,
    pub(crate) public_id: Option<String>,
    pub(crate) system_id: Option<String>,
    pub(crate) internal_subset: String,
}

/// The kind of an [`Event`](crate::Event), without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A start tag (also for empty-element tags).
    Start,
    /// An end tag (also reported right after the start of an empty element).
    End,
    /// Character data.
    Text,
    /// A CDATA section.
    CData,
    /// A comment.
    Comment,
    /// A processing instruction.
    Pi,
    /// The document type declaration.
    Doctype,
    /// A reference to an entity whose replacement text was not read.
    SkippedEntity,
    /// The end of the document.
    Eof,
}

/// The current token and what it is read against, filled by a source.
pub(crate) struct TokenState {
    pub(crate) config: Config,
    pub(crate) kind: TokenKind,
    /// Offset in the document of the token's first byte.
    pub(crate) start: u64,
    /// The token's span: the name of a start tag or skipped entity, the target of a
    /// processing instruction, the content of text, CDATA or a comment.
    pub(crate) span: Span,
    /// The data of a processing instruction.
    pub(crate) pi_data: Span,
    /// Of text: [`F_REFS`] (has references), [`F_CR`] (has carriage returns).
    pub(crate) flags: u8,
    /// The qualified name of a start or end tag, and its namespace.
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    /// A start tag that was an empty-element tag.
    pub(crate) empty: bool,
    /// The attributes of a start tag.
    pub(crate) attrs: Vec<Attr>,
    /// Values a source had to produce (normalised attribute values, binary text): spans with
    /// `scratch` set point here.
    pub(crate) scratch: String,
    pub(crate) doctype: Option<DoctypeInfo>,
    /// The open elements, the root first.
    pub(crate) stack: Vec<Open>,
    pub(crate) names: Interner,
    /// Per name in `names`: its prefix and cached resolution.
    pub(crate) qmeta: Vec<QMeta>,
    /// Namespace names; an [`NsId`] indexes it.
    pub(crate) uris: Interner,
    /// The bindings in scope, innermost last: (prefix or [`NO_PREFIX`], namespace).
    pub(crate) bindings: Vec<(Id, NsId)>,
    /// Changes whenever the bindings in scope do: a cached resolution of another epoch is
    /// stale. [`BASE_EPOCH`] while only the bindings every document starts with are in
    /// scope, so that a kept name resolved there stays resolved in the next document.
    pub(crate) epoch: u32,
    /// The last epoch handed out for other bindings (see [`TokenState::bindings_changed`]).
    pub(crate) epochs: u32,
    /// The generation of the ids in `names` and `uris` ([`crate::Reader::name_generation`]).
    pub(crate) names_gen: u64,
}

impl TokenState {
    /// Back to no token and no open element, for the next document (the names stay: see
    /// [`TokenState::reset_names`]).
    pub(crate) fn clear_token(&mut self) {
        // Every field named, so that a new one is not forgotten here.
        let TokenState {
            config: _,
            kind,
            start,
            span,
            pi_data,
            flags,
            qname,
            ns,
            empty,
            attrs,
            scratch,
            doctype,
            stack,
            names: _,
            qmeta: _,
            uris: _,
            bindings: _,
            epoch: _,
            epochs: _,
            names_gen: _,
        } = self;
        *kind = TokenKind::Eof;
        *start = 0;
        *span = Span::default();
        *pi_data = Span::default();
        *flags = 0;
        *qname = Id(0);
        *ns = NsId::NONE;
        *empty = false;
        attrs.clear();
        scratch.clear();
        clear(doctype);
        stack.clear();
    }

    /// Gives every interned name its `QMeta` (interning a prefix adds a name too).
    pub(crate) fn cover_names(&mut self) {
        if self.qmeta.len() < self.names.len() {
            self.qmeta.resize(self.names.len(), QMeta::NONE);
        }
    }

    /// Closes the innermost open element: its bindings go out of scope.
    #[inline]
    pub(crate) fn pop_element(&mut self) {
        if let Some(o) = self.stack.pop() {
            if self.bindings.len() > o.bindings as usize {
                self.bindings.truncate(o.bindings as usize);
                if self.bindings.len() == 1 {
                    // Back to the binding of `xml` alone, as at the start of the document.
                    self.epoch = BASE_EPOCH;
                } else {
                    self.bindings_changed();
                }
            }
        }
    }

    /// Bindings came into or went out of scope: a new epoch, which no cached resolution has.
    #[inline]
    pub(crate) fn bindings_changed(&mut self) {
        self.epochs += 1;
        self.epoch = self.epochs;
    }

    /// Readies the names for a new document: only the binding of `xml` stays in scope.
    /// With `keep`, the names and namespace names of the last document stay too, with their
    /// cached resolutions (those of [`BASE_EPOCH`] hold again; the others are stale).
    pub(crate) fn reset_names(&mut self, keep: bool) {
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
            self.qmeta[0] = QMeta::NONE;
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
        self.qmeta.push(QMeta::NONE);
        self.bindings.push((xml, NsId::XML));
    }

    #[inline]
    pub(crate) fn set_token(&mut self, kind: TokenKind, start: usize, base: u64) {
        self.kind = kind;
        self.start = base + start as u64;
    }

    /// Interns a qualified name (of an element or an attribute) found at offset `s`, checking
    /// its syntax (and length) on first sight. Inline when the interner predicts the name (a
    /// document repeating its pattern), out of line otherwise.
    #[inline(always)]
    pub(crate) fn intern_qname(&mut self, name: &str, s: usize, element: bool) -> Scan<Id> {
        let over = name.len() as u64 > self.config.limits.max_name_length as u64;
        if !over {
            if let Some(id) = self.names.predicted(name.as_bytes(), element) {
                // Its checks were made when it was first interned.
                if (id.0 as usize) < self.qmeta.len() {
                    return Ok(id);
                }
            }
        }
        self.intern_qname_cold(name, s, element)
    }

    #[inline(never)]
    fn intern_qname_cold(&mut self, name: &str, s: usize, element: bool) -> Scan<Id> {
        if name.len() as u64 > self.config.limits.max_name_length as u64 {
            return bad(
                s,
                ErrorKind::LimitExceeded(
                    LimitKind::NameLength,
                    self.config.limits.max_name_length as u64,
                ),
            );
        }
        let id = self.names.intern_unpredicted(name, element);
        if (id.0 as usize) < self.qmeta.len() {
            return Ok(id);
        }
        self.qmeta.push(QMeta::NONE);
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
                self.cover_names();
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
        self.cover_names();
        if prefix != NO_PREFIX {
            let m = &mut self.qmeta[id.0 as usize];
            m.prefix_len = prefix_len as u32;
            m.prefix = prefix;
        }
        id
    }

    pub(crate) fn lookup_prefix(&self, prefix: Id) -> Option<NsId> {
        self.bindings
            .iter()
            .rev()
            .find(|b| b.0 == prefix)
            .map(|b| b.1)
    }

    /// Namespace of an element or prefixed attribute name, cached per name until the bindings
    /// in scope change.
    #[inline(always)]
    pub(crate) fn resolve(&mut self, qname: Id, at: usize, element: bool) -> Scan<NsId> {
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
    pub(crate) fn resolve_anew(&mut self, qname: Id, at: usize) -> Scan<NsId> {
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

    /// The text of `span`: in `scratch`, or in `data`.
    ///
    /// # Safety
    ///
    /// `data` must be the bytes this state's spans were filled from (the text source's window
    /// or entity frame, or the binary input): a span outside `scratch` then covers characters
    /// the source checked as UTF-8, from one character boundary to another.
    #[inline]
    #[allow(unsafe_code)]
    pub(crate) unsafe fn value_of<'d>(&'d self, data: &'d [u8], span: Span) -> &'d str {
        if span.scratch {
            &self.scratch[span.start..span.end]
        } else {
            // SAFETY: a span of this state in `data`, which the caller promises are the bytes
            // the source checked when it made the span.
            unsafe { str_of(&data[span.start..span.end]) }
        }
    }
}

#[cold]
pub(crate) fn ns_err(msg: impl Into<String>) -> ErrorKind {
    ErrorKind::Namespace(msg.into())
}

/// Empties `o`, its value dropped out of line: the reset of a reader between documents
/// keeps the drop code of what most documents never set out of its cache lines.
#[inline(always)]
pub(crate) fn clear<T>(o: &mut Option<T>) {
    #[cold]
    #[inline(never)]
    fn drop_cold<T>(_: T) {}
    if o.is_some() {
        drop_cold(o.take());
    }
}
