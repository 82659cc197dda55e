//! The binary decoding cursor behind [`crate::Reader`] (`docs/binary-format.md`).
//!
//! A state machine over the stack of open frames (their end offsets, and per element-like
//! frame its namespace declarations, which namespace references index). Each step fills the
//! reader's `State` exactly as the text parser does (names interned through the reader's
//! interners, declarations reported as `xmlns` attributes and pushed as bindings, values as
//! spans into the input), so `Event` and every layer above the reader work unchanged.
//!
//! Everything is checked once, when its frame is read: sizes and counts against the bytes left
//! in the enclosing body before anything is reserved, strings as UTF-8 `Char`s, names as
//! NCNames (once per string table entry), namespace references, typed values. A typed value is
//! decoded again, cheaply and without checks, when it is reported.

use std::borrow::Cow;

use crate::binary::format::FrameInfo;
use crate::binary::format::{
    read_varint, ByteOrder, FrameKind, PrimitiveType, VarintError, BIG_ENDIAN_BIT, HEADER_LEN,
    MAGIC, VERSION,
};
use crate::binary::value::{Array, Typed, TypedValue};
use crate::chars;
use crate::error::{ErrorKind, LimitKind};
use crate::intern::Id;
use crate::reader::token::{Attr, Span, TokenKind};
use crate::reader::token::{NsId, Open, TokenState, NO_PREFIX, XMLNS_NS, XML_NS};
use crate::scan::{self, str_of, Stop};

/// A decoding error: where (byte offset in the file) and what. Boxed so results stay narrow.
pub(crate) type Fail = Box<(usize, ErrorKind)>;
type R<T> = Result<T, Fail>;

#[cold]
fn bad<T>(at: usize, msg: impl Into<String>) -> R<T> {
    Err(Box::new((at, ErrorKind::Binary(msg.into()))))
}

#[cold]
fn limit<T>(at: usize, kind: LimitKind, n: u64) -> R<T> {
    Err(Box::new((at, ErrorKind::LimitExceeded(kind, n))))
}

/// "None" in the `u32` fields below.
const NONE: u32 = u32::MAX;

/// The binary source: the cursor's own state. The [`TokenState`] it fills holds the rest
/// (element stack, bindings, the current event).
///
/// The input is not kept here (the reader owns it) but passed to each call, and it must be
/// the same bytes every time: the string table and the frames were checked in them when they
/// were read, and are viewed later (as `str`s, typed values) without checking again. The
/// methods called from outside this module are `unsafe fn`s whose callers promise that; the
/// private ones rely on it.
#[derive(Default)]
pub(crate) struct Decoder {
    started: bool,
    done: bool,
    /// Offset of the next frame to read.
    pos: usize,
    root_seen: bool,
    /// (start, end) of each string of the table in the input.
    strings: Vec<(usize, usize)>,
    /// Per string: its name id once checked as an NCName and interned (`NONE`: not yet).
    name_ids: Vec<u32>,
    /// The open frames, the DOCUMENT frame first.
    frames: Vec<Frame>,
    /// The declarations of the open element-like frames, outermost first.
    decls: Vec<Decl>,
    /// A qualified name being composed.
    qbuf: String,
    /// (namespace, local name, offset) of the current start tag's attributes.
    keys: Vec<(NsId, Id, usize)>,
    /// Bytes of the distinct `prefix:local` names interned so far (see `qname`).
    composed: usize,
}

#[derive(Clone, Copy)]
struct Decl {
    /// The prefix as a name id (`NO_PREFIX`: the default namespace).
    prefix: Id,
    /// The prefix's string (`NONE`: the default namespace).
    prefix_str: u32,
    /// The URI's string (`NONE`: an undeclaration).
    uri: u32,
    ns: NsId,
}

#[derive(Clone, Copy)]
struct Frame {
    /// Offset of the prefix byte.
    at: usize,
    /// Offset just after the body.
    end: usize,
    big: bool,
    /// This frame's declarations: `decls[d0..d1]`.
    d0: u32,
    d1: u32,
    /// The innermost default-namespace declaration in scope (index into `decls`, or `NONE`).
    default: u32,
    content: Content,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    /// DOCUMENT or ELEMENT: child frames.
    Frames,
    /// LEAF or ARRAY: a value at `at` (its first byte after the type code, or padding).
    Typed {
        ty: PrimitiveType,
        array: bool,
        at: usize,
        count: usize,
        shown: Shown,
    },
}

/// How much of a typed element's content the cursor has reported.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// Nothing yet: the next step reports its text.
    No,
    /// Its text event.
    Text,
    /// Taken by `typed_content`: the next step reports the end.
    Taken,
}

/// The prefix of a resolved name.
#[derive(Clone, Copy)]
enum Pfx {
    None,
    Xml,
    Str(u32),
}

/// Reads a varint that must lie before `end`.
#[inline]
fn varint(data: &[u8], p: &mut usize, end: usize, what: &str) -> R<u64> {
    let at = *p;
    match read_varint(&data[..end], p) {
        Ok(v) => Ok(v),
        Err(VarintError::Truncated) => bad(at, format!("{what}: the varint runs past its frame")),
        Err(VarintError::Invalid) => bad(
            at,
            format!("{what}: invalid varint (over 64 bits, or not minimal)"),
        ),
    }
}

/// Reads a count of items that take at least `min` bytes each, checking that they can fit in
/// what is left of the body before anyone reserves space for them.
#[inline]
fn count(data: &[u8], p: &mut usize, end: usize, min: usize, what: &str) -> R<usize> {
    let at = *p;
    let n = varint(data, p, end, what)?;
    // A multiplication, not a division by `min`: this runs for every element.
    let room = (end - *p) as u64;
    if !matches!(n.checked_mul(min as u64), Some(b) if b <= room) {
        return bad(
            at,
            format!("{what} count {n} overflows the frame ({room} bytes left)"),
        );
    }
    Ok(n as usize)
}

/// Checks that `data[s..e]` is UTF-8 made of XML `Char`s.
fn check_text(data: &[u8], s: usize, e: usize, what: &str) -> R<()> {
    scan::check_chars(data, s, e).or_else(|stop| match stop {
        Stop::Bad(b) => bad(b.0, format!("{} in {what}", b.1)),
        Stop::Eof => bad(s, format!("truncated UTF-8 in {what}")),
    })
}

/// A string for a message: its first 40 characters.
fn shown(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl Decoder {
    /// Reads the next event into `st`.
    ///
    /// # Safety
    ///
    /// `data` must be the bytes this decoder was given on its first call, unchanged.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn advance(&mut self, data: &[u8], st: &mut TokenState) -> R<()> {
        if !self.started {
            self.header(data, st)?;
        }
        loop {
            if self.done {
                st.kind = TokenKind::Eof;
                st.start = data.len() as u64;
                return Ok(());
            }
            let top = *self.frames.last().expect("open until done");
            if let Content::Typed { .. } = top.content {
                return self.typed_step(data, st);
            }
            if self.pos >= top.end {
                if self.frames.len() == 1 {
                    if !self.root_seen {
                        return bad(top.at, "the DOCUMENT frame holds no element");
                    }
                    self.done = true;
                    self.pos = top.end;
                    continue;
                }
                self.end(st);
                return Ok(());
            }
            if self.child(data, st)? {
                return Ok(());
            }
        }
    }

    /// The header and the DOCUMENT frame's string table.
    #[cold]
    fn header(&mut self, data: &[u8], st: &mut TokenState) -> R<()> {
        self.started = true;
        if !data.starts_with(&MAGIC) {
            return bad(0, "bad magic: not a binary XML file");
        }
        if data.len() < HEADER_LEN {
            return bad(data.len(), "the file ends inside its header");
        }
        if data[8] != VERSION {
            return bad(8, format!("unsupported version {}", data[8]));
        }
        if data[9] != 0 {
            return bad(
                9,
                format!("reserved header flags 0x{:02X} are not zero", data[9]),
            );
        }
        let at = HEADER_LEN;
        let Some(&prefix) = data.get(at) else {
            return bad(at, "the file has no DOCUMENT frame");
        };
        if prefix & !BIG_ENDIAN_BIT != FrameKind::Document as u8 {
            return bad(
                at,
                format!(
                    "the first frame has kind 0x{:02X}, not DOCUMENT (0x01)",
                    prefix & !BIG_ENDIAN_BIT
                ),
            );
        }
        let mut p = at + 1;
        let size = varint(data, &mut p, data.len(), "the DOCUMENT frame's size")?;
        let rest = data.len() - p;
        if size > rest as u64 {
            return bad(
                at,
                format!("frame size {size} exceeds the file's remaining {rest} bytes"),
            );
        }
        if size < rest as u64 {
            return bad(
                p + size as usize,
                format!("{} bytes after the DOCUMENT frame", rest as u64 - size),
            );
        }
        let end = data.len();
        let n = count(data, &mut p, end, 1, "string")?;
        self.strings.reserve(n);
        self.name_ids.clear();
        self.name_ids.resize(n, NONE);
        let max_len = st.config.limits.max_text_length;
        for k in 0..n {
            let s = p;
            let len = varint(data, &mut p, end, "a string's length")?;
            if len > (end - p) as u64 {
                return bad(
                    s,
                    format!(
                        "string {k} of {len} bytes exceeds the {} bytes left",
                        end - p
                    ),
                );
            }
            if len > max_len {
                return limit(s, LimitKind::TextLength, max_len);
            }
            let e = p + len as usize;
            check_text(data, p, e, &format!("string {k}"))?;
            self.strings.push((p, e));
            p = e;
        }
        self.frames.push(Frame {
            at,
            end,
            big: prefix & BIG_ENDIAN_BIT != 0,
            d0: 0,
            d1: 0,
            default: NONE,
            content: Content::Frames,
        });
        self.pos = p;
        Ok(())
    }

    /// Reads the child frame at `self.pos`. `false`: nothing to report (an empty TEXT frame).
    fn child(&mut self, data: &[u8], st: &mut TokenState) -> R<bool> {
        let parent_end = self.frames.last().expect("open").end;
        let at = self.pos;
        let prefix = data[at];
        let code = prefix & !BIG_ENDIAN_BIT;
        let Some(kind) = FrameKind::from_code(code) else {
            return bad(at, format!("reserved frame kind 0x{code:02X}"));
        };
        let mut p = at + 1;
        let size = varint(data, &mut p, parent_end, "a frame size")?;
        let left = parent_end - p;
        if size > left as u64 {
            return bad(
                at,
                format!("frame size {size} exceeds its parent's remaining {left} bytes"),
            );
        }
        let end = p + size as usize;
        let in_document = self.frames.len() == 1;
        let max_len = st.config.limits.max_text_length;
        if !kind.is_element() && (end - p) as u64 > max_len {
            return limit(at, LimitKind::TextLength, max_len);
        }
        let span = |s, e| Span {
            start: s,
            end: e,
            scratch: false,
        };
        match kind {
            FrameKind::Document => return bad(at, "a DOCUMENT frame inside another frame"),
            FrameKind::Element | FrameKind::Leaf | FrameKind::Array => {
                self.start(data, st, kind, at, p, end, prefix & BIG_ENDIAN_BIT != 0)?;
                return Ok(true);
            }
            FrameKind::Text | FrameKind::CData => {
                let what = if kind == FrameKind::Text {
                    "a TEXT frame"
                } else {
                    "a CDATA frame"
                };
                if in_document {
                    return bad(
                        at,
                        format!("{what} directly in the DOCUMENT frame (text belongs in elements)"),
                    );
                }
                check_text(data, p, end, what)?;
                if kind == FrameKind::CData {
                    // Text XML has no CDATA section holding these (a carriage return reads as
                    // a line feed), so the text form could not give this frame back.
                    if memchr::memchr(b'\r', &data[p..end]).is_some() {
                        return bad(at, "a CDATA frame cannot hold a carriage return");
                    }
                    if memchr::memmem::find(&data[p..end], b"]]>").is_some() {
                        return bad(at, "a CDATA frame cannot hold ']]>'");
                    }
                }
                self.pos = end;
                if kind == FrameKind::Text && p == end {
                    return Ok(false);
                }
                st.kind = if kind == FrameKind::Text {
                    TokenKind::Text
                } else {
                    TokenKind::CData
                };
                st.span = span(p, end);
            }
            FrameKind::Comment => {
                check_text(data, p, end, "a COMMENT frame")?;
                let text = &data[p..end];
                if memchr::memmem::find(text, b"--").is_some() || text.ends_with(b"-") {
                    return bad(at, "a comment cannot contain '--' or end with '-'");
                }
                if memchr::memchr(b'\r', text).is_some() {
                    return bad(
                        at,
                        "a comment cannot hold a carriage return (text XML reads it as a line feed)",
                    );
                }
                st.kind = TokenKind::Comment;
                st.span = span(p, end);
            }
            FrameKind::Pi => {
                let t = self.string_ref(data, &mut p, end)?;
                let (ts, te) = self.strings[t as usize];
                let target = self.str(data, t);
                let colon = st.config.namespaces && target.contains(':');
                if !chars::is_name(target) || colon || target.eq_ignore_ascii_case("xml") {
                    return bad(
                        at,
                        format!("'{}' is not a processing instruction target", shown(target)),
                    );
                }
                check_text(data, p, end, "a PI frame")?;
                if memchr::memmem::find(&data[p..end], b"?>").is_some() {
                    return bad(at, "processing instruction data cannot contain '?>'");
                }
                if memchr::memchr(b'\r', &data[p..end]).is_some() {
                    return bad(
                        at,
                        "processing instruction data cannot hold a carriage return (text XML reads it as a line feed)",
                    );
                }
                if data[p..end]
                    .first()
                    .is_some_and(|&b| chars::is_whitespace(b))
                {
                    return bad(
                        at,
                        "processing instruction data cannot start with white space (in text XML that white space separates it from the target)",
                    );
                }
                st.kind = TokenKind::Pi;
                st.span = span(ts, te);
                st.pi_data = span(p, end);
            }
        }
        st.flags = 0;
        st.start = at as u64;
        self.pos = end;
        Ok(true)
    }

    /// Reads the head of an element-like frame and reports its start.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        data: &[u8],
        st: &mut TokenState,
        kind: FrameKind,
        at: usize,
        mut p: usize,
        end: usize,
        big: bool,
    ) -> R<()> {
        let limits = &st.config.limits;
        let (max_depth, max_attrs) = (limits.max_depth, limits.max_attributes);
        let max_len = limits.max_text_length;
        if st.stack.len() >= max_depth as usize {
            return limit(at, LimitKind::Depth, max_depth as u64);
        }
        if self.frames.len() == 1 {
            if self.root_seen {
                return bad(
                    at,
                    "a second element in the DOCUMENT frame (a document has one root element)",
                );
            }
            self.root_seen = true;
        }
        let namespaces = st.config.namespaces;
        st.attrs.clear();
        st.scratch.clear();
        self.keys.clear();
        let mark = st.bindings.len() as u32;
        let d0 = self.decls.len();
        let mut default = self.frames.last().expect("open").default;

        // Declarations, reported as `xmlns` attributes before the others, as text reports them.
        let nd = count(data, &mut p, end, 2, "declaration")?;
        if nd > max_attrs as usize {
            return limit(at, LimitKind::Attributes, max_attrs as u64);
        }
        let mut bound = false;
        for _ in 0..nd {
            let dat = p;
            let pfx = varint(data, &mut p, end, "a declaration's prefix")?;
            let uri = varint(data, &mut p, end, "a declaration's uri")?;
            let prefix_str = if pfx == 0 {
                NONE
            } else {
                self.string_index(pfx - 1, dat)?
            };
            let uri_str = if uri == 0 {
                NONE
            } else {
                self.string_index(uri - 1, dat)?
            };
            let uri_text = (uri_str != NONE).then(|| self.str(data, uri_str));
            if uri_text == Some("") {
                return bad(
                    dat,
                    "a declaration's uri is the empty string (an undeclaration has no uri)",
                );
            }
            if uri_text.is_some_and(|u| u == XMLNS_NS) {
                return bad(dat, format!("no prefix can be bound to \"{XMLNS_NS}\""));
            }
            let (prefix, pname) = if prefix_str == NONE {
                if uri_text == Some(XML_NS) {
                    return bad(dat, format!("the default namespace cannot be \"{XML_NS}\""));
                }
                (NO_PREFIX, "")
            } else {
                let id = self.name(data, st, prefix_str, dat)?;
                let pname = self.str(data, prefix_str);
                if pname == "xmlns" {
                    return bad(dat, "the prefix 'xmlns' cannot be declared");
                }
                let Some(u) = uri_text else {
                    return bad(
                        dat,
                        format!("the prefix '{pname}' has no uri (Namespaces in XML 1.0 cannot undeclare a prefix)"),
                    );
                };
                if (pname == "xml") != (u == XML_NS) {
                    return bad(
                        dat,
                        format!("only the prefix 'xml' is bound to \"{XML_NS}\", and only to it"),
                    );
                }
                (id, pname)
            };
            if self.decls[d0..].iter().any(|d| d.prefix == prefix) {
                return bad(
                    dat,
                    format!("two declarations of the prefix '{pname}' on one element"),
                );
            }
            let ns = match uri_text {
                Some(u) => NsId(st.uris.intern(u).0),
                None => NsId::NONE,
            };
            if prefix_str == NONE {
                default = self.decls.len() as u32;
            }
            self.decls.push(Decl {
                prefix,
                prefix_str,
                uri: uri_str,
                ns,
            });
            self.qbuf.clear();
            self.qbuf.push_str("xmlns");
            if prefix_str != NONE {
                self.qbuf.push(':');
                self.qbuf.push_str(pname);
            }
            let qname = st.intern_split(&self.qbuf, if prefix_str == NONE { 0 } else { 5 });
            let n0 = st.scratch.len();
            st.scratch.push_str(&self.qbuf);
            let value = match uri_str {
                NONE => Span {
                    start: n0,
                    end: n0,
                    scratch: true,
                },
                u => {
                    let (s, e) = self.strings[u as usize];
                    Span {
                        start: s,
                        end: e,
                        scratch: false,
                    }
                }
            };
            st.attrs.push(Attr {
                name: Span {
                    start: n0,
                    end: st.scratch.len(),
                    scratch: true,
                },
                value,
                qname,
                ns: if namespaces { NsId::XMLNS } else { NsId::NONE },
                defaulted: false,
                id: false,
            });
            // As in text, `xmlns:xml` binds nothing new.
            if namespaces && pname != "xml" {
                st.bindings.push((prefix, ns));
                bound = true;
            }
        }
        if bound {
            st.bindings_changed();
        }
        self.frames.push(Frame {
            at,
            end,
            big,
            d0: d0 as u32,
            d1: self.decls.len() as u32,
            default,
            content: Content::Frames,
        });

        // The element's name.
        let nat = p;
        let (ns, pfx) = self.ns_ref(data, &mut p, end, false)?;
        let local = self.string_ref(data, &mut p, end)?;
        let lid = self.name(data, st, local, nat)?;
        let (qname, name) = self.qname(data, st, pfx, local, lid)?;

        // Attributes.
        let na = count(data, &mut p, end, 3, "attribute")?;
        if nd + na > max_attrs as usize {
            return limit(at, LimitKind::Attributes, max_attrs as u64);
        }
        for _ in 0..na {
            let aat = p;
            let (ans, apfx) = self.ns_ref(data, &mut p, end, true)?;
            let local = self.string_ref(data, &mut p, end)?;
            let lid = self.name(data, st, local, aat)?;
            if matches!(apfx, Pfx::None) && self.str(data, local) == "xmlns" {
                return bad(
                    aat,
                    "an attribute named 'xmlns' in no namespace (declarations are not attributes)",
                );
            }
            let vat = p;
            let len = varint(data, &mut p, end, "an attribute value's length")?;
            if len > (end - p) as u64 {
                return bad(
                    vat,
                    format!(
                        "attribute value of {len} bytes exceeds the {} bytes left",
                        end - p
                    ),
                );
            }
            if len > max_len {
                return limit(vat, LimitKind::TextLength, max_len);
            }
            let (vs, ve) = (p, p + len as usize);
            check_text(data, vs, ve, "an attribute value")?;
            p = ve;
            let (aq, aname) = self.qname(data, st, apfx, local, lid)?;
            self.keys.push((ans, lid, aat));
            st.attrs.push(Attr {
                name: aname,
                value: Span {
                    start: vs,
                    end: ve,
                    scratch: false,
                },
                qname: aq,
                ns: if namespaces { ans } else { NsId::NONE },
                defaulted: false,
                id: false,
            });
        }
        if self.keys.len() > 1 {
            self.check_duplicates(st)?;
        }

        let content = match kind {
            FrameKind::Leaf => self.leaf(data, st, p, end)?,
            FrameKind::Array => self.array(data, p, end)?,
            _ => Content::Frames,
        };
        self.frames.last_mut().expect("pushed").content = content;
        let ns = if namespaces { ns } else { NsId::NONE };
        st.stack.push(Open {
            qname,
            ns,
            bindings: mark,
        });
        st.kind = TokenKind::Start;
        st.start = at as u64;
        st.span = name;
        st.qname = qname;
        st.ns = ns;
        st.empty = kind == FrameKind::Element && p == end;
        self.pos = if content == Content::Frames { p } else { end };
        Ok(())
    }

    /// Attributes must differ by (namespace, local name).
    fn check_duplicates(&mut self, st: &TokenState) -> R<()> {
        let keys = &mut self.keys;
        let dup = if keys.len() <= 16 {
            (1..keys.len()).find_map(|i| {
                (0..i)
                    .any(|j| keys[j].0 == keys[i].0 && keys[j].1 == keys[i].1)
                    .then_some(keys[i])
            })
        } else {
            keys.sort_unstable();
            keys.windows(2)
                .find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
                .map(|w| w[1])
        };
        match dup {
            None => Ok(()),
            Some((ns, local, at)) => bad(
                at,
                format!(
                    "duplicate attribute {{{}}}{}",
                    st.uris.get(Id(ns.0)),
                    st.names.get(local)
                ),
            ),
        }
    }

    /// Reads a namespace reference: the namespace and the prefix it gives the name.
    fn ns_ref(&self, data: &[u8], p: &mut usize, end: usize, attr: bool) -> R<(NsId, Pfx)> {
        let at = *p;
        let v = varint(data, p, end, "a namespace reference")?;
        let top = self.frames.last().expect("open");
        match v {
            0 => {
                if !attr && top.default != NONE {
                    let d = self.decls[top.default as usize];
                    if d.uri != NONE {
                        return bad(
                            at,
                            format!(
                                "an element in no namespace while the default namespace \"{}\" is in scope (its text form would be in that namespace)",
                                shown(self.str(data, d.uri))
                            ),
                        );
                    }
                }
                Ok((NsId::NONE, Pfx::None))
            }
            1 => Ok((NsId::XML, Pfx::Xml)),
            _ => {
                let level = v - 2;
                let i = varint(data, p, end, "a namespace reference's index")?;
                let open = self.frames.len() - 1;
                if level >= open as u64 {
                    return bad(
                        at,
                        format!("namespace reference {level} levels up, above the root element (depth {open})"),
                    );
                }
                let f = &self.frames[self.frames.len() - 1 - level as usize];
                let n = f.d1 - f.d0;
                if i >= n as u64 {
                    return bad(
                        at,
                        format!(
                            "namespace reference to declaration {i} of an element that has {n}"
                        ),
                    );
                }
                let g = f.d0 as usize + i as usize;
                let d = self.decls[g];
                if d.uri == NONE {
                    return bad(at, "namespace reference to an undeclaration (xmlns=\"\")");
                }
                if d.prefix_str == NONE {
                    if attr {
                        return bad(at, "an attribute refers to a default namespace declaration (default namespaces do not apply to attributes)");
                    }
                    if top.default != g as u32 {
                        return bad(
                            at,
                            "namespace reference to a default namespace declaration that a nearer one overrides",
                        );
                    }
                    return Ok((d.ns, Pfx::None));
                }
                if self.decls[g + 1..].iter().any(|e| e.prefix == d.prefix) {
                    return bad(
                        at,
                        format!(
                            "namespace reference to a declaration of the prefix '{}' that a nearer one overrides",
                            self.str(data, d.prefix_str)
                        ),
                    );
                }
                Ok((d.ns, Pfx::Str(d.prefix_str)))
            }
        }
    }

    /// A name's id and span: the string table entry itself when unprefixed (zero copy), else
    /// `prefix:local` composed in the scratch buffer.
    fn qname(
        &mut self,
        data: &[u8],
        st: &mut TokenState,
        pfx: Pfx,
        local: u32,
        lid: Id,
    ) -> R<(Id, Span)> {
        let prefix = match pfx {
            Pfx::None => {
                let (s, e) = self.strings[local as usize];
                return Ok((
                    lid,
                    Span {
                        start: s,
                        end: e,
                        scratch: false,
                    },
                ));
            }
            Pfx::Xml => "xml",
            Pfx::Str(k) => self.str(data, k),
        };
        self.qbuf.clear();
        self.qbuf.push_str(prefix);
        self.qbuf.push(':');
        self.qbuf.push_str(self.str(data, local));
        let max = st.config.limits.max_name_length;
        if self.qbuf.len() as u64 > max as u64 {
            let (s, _) = self.strings[local as usize];
            return limit(s, LimitKind::NameLength, max as u64);
        }
        let known = st.names.len();
        let id = st.intern_split(&self.qbuf, prefix.len());
        if st.names.len() > known {
            self.composed += self.qbuf.len();
        }
        // Every combination of a prefix and a local name of the table is a new name: long
        // strings combined could take far more memory than the file. Allow a small multiple.
        let budget = data.len().saturating_mul(4).saturating_add(1 << 20);
        if self.composed > budget || st.scratch.len() + self.qbuf.len() > budget {
            let (s, _) = self.strings[local as usize];
            return bad(
                s,
                format!("prefixed names take more than {budget} bytes, 4 times the file and 1 MiB"),
            );
        }
        let s0 = st.scratch.len();
        st.scratch.push_str(&self.qbuf);
        Ok((
            id,
            Span {
                start: s0,
                end: st.scratch.len(),
                scratch: true,
            },
        ))
    }

    /// A LEAF's type code and value, which must end the body.
    fn leaf(&self, data: &[u8], st: &TokenState, mut p: usize, end: usize) -> R<Content> {
        let ty = type_code(data, p, end, "a LEAF frame")?;
        p += 1;
        let at = p;
        match ty.width() {
            Some(w) => {
                if end - p < w {
                    return bad(p, format!("the {} value is cut short", ty.name()));
                }
                if ty == PrimitiveType::Bool && data[p] > 1 {
                    return bad(p, format!("bool value 0x{:02X} is not 0 or 1", data[p]));
                }
                p += w;
            }
            None => {
                let len = varint(data, &mut p, end, "a value's length")?;
                if len > (end - p) as u64 {
                    return bad(
                        at,
                        format!(
                            "{} value of {len} bytes exceeds the {} bytes left",
                            ty.name(),
                            end - p
                        ),
                    );
                }
                let max = st.config.limits.max_text_length;
                if ty == PrimitiveType::String {
                    if len > max {
                        return limit(at, LimitKind::TextLength, max);
                    }
                    check_text(data, p, p + len as usize, "a string value")?;
                }
                p += len as usize;
            }
        }
        if p != end {
            return bad(
                p,
                format!(
                    "{} bytes after the leaf value (it must end the frame)",
                    end - p
                ),
            );
        }
        Ok(Content::Typed {
            ty,
            array: false,
            at,
            count: 1,
            shown: Shown::No,
        })
    }

    /// An ARRAY's type code, count, padding, values and trailing padding.
    fn array(&self, data: &[u8], mut p: usize, end: usize) -> R<Content> {
        let ty = type_code(data, p, end, "an ARRAY frame")?;
        let Some(w) = ty.width() else {
            return bad(
                p,
                format!(
                    "an array of {}: arrays hold fixed-width types only",
                    ty.name()
                ),
            );
        };
        p += 1;
        let cat = p;
        let count = varint(data, &mut p, end, "an array count")?;
        if p >= end {
            return bad(p, "an ARRAY frame ends before its padding byte");
        }
        let pad = data[p] as usize;
        if pad >= w {
            return bad(p, format!("array padding {pad} is not below the width {w}"));
        }
        p += 1;
        let trailing = w - 1 - pad;
        // Padding and trailing bytes add up to width - 1 whatever the count.
        if end - p < w - 1 {
            return bad(p, "an ARRAY frame ends inside its padding");
        }
        let room = end - p - (w - 1);
        let Some(bytes) = count.checked_mul(w as u64).filter(|&b| b <= room as u64) else {
            return bad(
                cat,
                format!("array count {count} overflows the frame ({room} bytes left for {w}-byte values)"),
            );
        };
        if data[p..p + pad].iter().any(|&b| b != 0) {
            return bad(p, "array padding bytes are not zero");
        }
        let at = p + pad;
        let values_end = at + bytes as usize;
        if end - values_end != trailing {
            return bad(
                values_end,
                format!(
                    "{} bytes after the array values, {trailing} expected (padding and trailing bytes add up to width - 1)",
                    end - values_end
                ),
            );
        }
        if data[values_end..end].iter().any(|&b| b != 0) {
            return bad(values_end, "array trailing bytes are not zero");
        }
        if ty == PrimitiveType::Bool {
            if let Some(i) = data[at..values_end].iter().position(|&b| b > 1) {
                return bad(
                    at + i,
                    format!("bool value 0x{:02X} is not 0 or 1", data[at + i]),
                );
            }
        }
        Ok(Content::Typed {
            ty,
            array: true,
            at,
            count: count as usize,
            shown: Shown::No,
        })
    }

    /// In a LEAF or ARRAY element: its text (unless empty or taken), then its end.
    fn typed_step(&mut self, data: &[u8], st: &mut TokenState) -> R<()> {
        let top = self.frames.last_mut().expect("open");
        let Content::Typed { shown, at, .. } = &mut top.content else {
            unreachable!("called for typed frames")
        };
        if *shown == Shown::No {
            *shown = Shown::Text;
            let at = *at;
            let frame = *top;
            st.scratch.clear();
            // SAFETY: the innermost frame, read from `data` (the same input on every call).
            #[allow(unsafe_code)]
            let typed = unsafe { typed_of(data, &frame) };
            typed.write_text(&mut st.scratch);
            if !st.scratch.is_empty() {
                let max = st.config.limits.max_text_length;
                if st.scratch.len() as u64 > max {
                    return limit(at, LimitKind::TextLength, max);
                }
                st.kind = TokenKind::Text;
                st.start = at as u64;
                st.span = Span {
                    start: 0,
                    end: st.scratch.len(),
                    scratch: true,
                };
                st.flags = 0;
                return Ok(());
            }
        }
        self.end(st);
        Ok(())
    }

    /// Closes the innermost element-like frame.
    fn end(&mut self, st: &mut TokenState) {
        let f = self.frames.pop().expect("an element is open");
        self.decls.truncate(f.d0 as usize);
        let open = *st.stack.last().expect("pushed with the frame");
        st.kind = TokenKind::End;
        st.start = f.end as u64;
        st.qname = open.qname;
        st.ns = open.ns;
        st.pop_element();
        self.pos = f.end;
    }

    /// The typed content of the element just started, marking it taken so the cursor skips
    /// its text; `want`: only if of this type, as an array. See [`crate::Reader::typed_content`].
    ///
    /// # Safety
    ///
    /// As for [`Decoder::advance`]: `data` is the input this decoder has read from.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn take_typed<'d>(
        &mut self,
        data: &'d [u8],
        st: &TokenState,
        peeked: &mut bool,
        want: Option<PrimitiveType>,
    ) -> Option<Typed<'d>> {
        let top = self.frames.last_mut()?;
        let frame = *top;
        let Content::Typed {
            ty, array, shown, ..
        } = &mut top.content
        else {
            return None;
        };
        if want.is_some_and(|w| w != *ty || !*array) {
            return None;
        }
        match *shown {
            // The start was just read (or peeked).
            Shown::No => {}
            // The text was only peeked: take it back.
            Shown::Text if *peeked && st.kind == TokenKind::Text => *peeked = false,
            _ => return None,
        }
        *shown = Shown::Taken;
        // SAFETY: the innermost frame, read from `data` (the caller's promise).
        Some(unsafe { typed_of(data, &frame) })
    }

    /// The frame of the event in `st` (see [`FrameInfo`]): the open element-like frame for a
    /// start, the child frame just read for text, CDATA, comments and PIs; `None` for ends,
    /// for the text form of a typed value and at the end.
    pub(crate) fn frame_info(&self, data: &[u8], st: &TokenState) -> Option<FrameInfo> {
        let top = self.frames.last()?;
        let (at, values) = match st.kind {
            TokenKind::Start => {
                let values = match top.content {
                    Content::Frames => None,
                    Content::Typed {
                        ty,
                        array: true,
                        at,
                        count,
                        ..
                    } => Some(at..at + count * ty.width().expect("checked: fixed width")),
                    Content::Typed { at, .. } => Some(at..top.end),
                };
                (top.at, values)
            }
            TokenKind::Text | TokenKind::CData | TokenKind::Comment | TokenKind::Pi
                if top.content == Content::Frames =>
            {
                (st.start as usize, None)
            }
            _ => return None,
        };
        let prefix = data[at];
        let mut p = at + 1;
        let size = read_varint(data, &mut p).expect("checked when the frame was read") as usize;
        Some(FrameInfo {
            offset: at,
            kind: FrameKind::from_code(prefix & !BIG_ENDIAN_BIT).expect("checked"),
            byte_order: ByteOrder::of_prefix(prefix),
            body: p..p + size,
            values,
        })
    }

    /// The string table, in order.
    ///
    /// # Safety
    ///
    /// As for [`Decoder::advance`]: `data` is the input this decoder has read from.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn strings<'d>(
        &'d self,
        data: &'d [u8],
    ) -> impl Iterator<Item = &'d str> + 'd {
        (0..self.strings.len() as u32).map(move |k| self.str(data, k))
    }

    fn string_index(&self, v: u64, at: usize) -> R<u32> {
        if v >= self.strings.len() as u64 {
            return bad(
                at,
                format!(
                    "string reference {v} out of range (table has {})",
                    self.strings.len()
                ),
            );
        }
        Ok(v as u32)
    }

    fn string_ref(&self, data: &[u8], p: &mut usize, end: usize) -> R<u32> {
        let at = *p;
        let v = varint(data, p, end, "a string reference")?;
        self.string_index(v, at)
    }

    /// String `k` of the table (checked when the table was read).
    #[inline]
    #[allow(unsafe_code)]
    fn str<'d>(&self, data: &'d [u8], k: u32) -> &'d str {
        let (s, e) = self.strings[k as usize];
        // SAFETY: `header` checked every string of the table as UTF-8 `Char`s (`check_text`)
        // before recording its span, in these same bytes (see `Decoder`).
        unsafe { str_of(&data[s..e]) }
    }

    /// The name id of string `k`, checking on its first use as a name that it is an NCName.
    #[inline]
    fn name(&mut self, data: &[u8], st: &mut TokenState, k: u32, at: usize) -> R<Id> {
        let id = self.name_ids[k as usize];
        if id != NONE {
            return Ok(Id(id));
        }
        let s = self.str(data, k);
        if !chars::is_ncname(s) {
            return bad(
                at,
                format!("string {k} \"{}\" is not a name (NCName)", shown(s)),
            );
        }
        let max = st.config.limits.max_name_length;
        if s.len() as u64 > max as u64 {
            return limit(at, LimitKind::NameLength, max as u64);
        }
        let id = st.intern_split(s, 0);
        self.name_ids[k as usize] = id.0;
        Ok(id)
    }
}

fn type_code(data: &[u8], p: usize, end: usize, what: &str) -> R<PrimitiveType> {
    if p >= end {
        return bad(p, format!("{what} ends before its type code"));
    }
    PrimitiveType::from_code(data[p])
        .ok_or(())
        .or_else(|()| bad(p, format!("unknown type code 0x{:02X}", data[p])))
}

/// The value of a typed frame whose content was checked when it was read.
///
/// # Safety
///
/// `f` must be a typed frame this decoder read from `data`: its value was checked then
/// (`leaf`, `array`).
#[allow(unsafe_code)]
unsafe fn typed_of<'d>(data: &'d [u8], f: &Frame) -> Typed<'d> {
    let Content::Typed {
        ty,
        array,
        at,
        count,
        ..
    } = f.content
    else {
        unreachable!("typed frames only")
    };
    let big = f.big;
    if array {
        let w = ty.width().expect("checked: fixed width");
        // SAFETY: `array` checked the values of a `Bool` array to be 0 or 1 when it read the
        // frame from `data` (the caller's promise).
        return Typed::Array(unsafe { array_of(ty, &data[at..at + count * w], big) });
    }
    let b = &data[at..];
    Typed::Value(match ty {
        PrimitiveType::I8 => TypedValue::I8(i8::load(b, big)),
        PrimitiveType::I16 => TypedValue::I16(i16::load(b, big)),
        PrimitiveType::I32 => TypedValue::I32(i32::load(b, big)),
        PrimitiveType::I64 => TypedValue::I64(i64::load(b, big)),
        PrimitiveType::U8 => TypedValue::U8(u8::load(b, big)),
        PrimitiveType::U16 => TypedValue::U16(u16::load(b, big)),
        PrimitiveType::U32 => TypedValue::U32(u32::load(b, big)),
        PrimitiveType::U64 => TypedValue::U64(u64::load(b, big)),
        PrimitiveType::F32 => TypedValue::F32(f32::load(b, big)),
        PrimitiveType::F64 => TypedValue::F64(f64::load(b, big)),
        PrimitiveType::Bool => TypedValue::Bool(bool::load(b, big)),
        PrimitiveType::String | PrimitiveType::Bytes => {
            let mut p = 0;
            let len = read_varint(b, &mut p).expect("checked") as usize;
            let bytes = &b[p..p + len];
            if ty == PrimitiveType::String {
                // SAFETY: `leaf` checked a string value as UTF-8 `Char`s (`check_text`) when
                // it read the frame from `data` (the caller's promise).
                TypedValue::String(unsafe { str_of(bytes) })
            } else {
                TypedValue::Bytes(bytes)
            }
        }
    })
}

/// The values of an array of `ty` (see [`view`]).
///
/// # Safety
///
/// For `Bool`, every byte of `b` must be 0 or 1.
#[allow(unsafe_code)]
unsafe fn array_of(ty: PrimitiveType, b: &[u8], big: bool) -> Array<'_> {
    // SAFETY: any bytes are values of the integer and float types; the bytes of a `Bool`
    // array are 0 or 1 (the caller's promise).
    unsafe {
        match ty {
            PrimitiveType::I8 => Array::I8(view(b, big)),
            PrimitiveType::I16 => Array::I16(view(b, big)),
            PrimitiveType::I32 => Array::I32(view(b, big)),
            PrimitiveType::I64 => Array::I64(view(b, big)),
            PrimitiveType::U8 => Array::U8(view(b, big)),
            PrimitiveType::U16 => Array::U16(view(b, big)),
            PrimitiveType::U32 => Array::U32(view(b, big)),
            PrimitiveType::U64 => Array::U64(view(b, big)),
            PrimitiveType::F32 => Array::F32(view(b, big)),
            PrimitiveType::F64 => Array::F64(view(b, big)),
            PrimitiveType::Bool => Array::Bool(view(b, big)),
            PrimitiveType::String | PrimitiveType::Bytes => unreachable!("checked: fixed width"),
        }
    }
}

/// The fixed-width types, loaded from bytes in either order.
trait Fixed: Copy + 'static {
    /// Whether every bit pattern of its size is a valid value (not so for `bool`).
    const ANY_BITS: bool;
    fn load(b: &[u8], big: bool) -> Self;
}

macro_rules! fixed {
    ($($t:ty),*) => {$(
        impl Fixed for $t {
            const ANY_BITS: bool = true;
            #[inline]
            fn load(b: &[u8], big: bool) -> $t {
                let a = b[..std::mem::size_of::<$t>()].try_into().expect("sized");
                if big {
                    <$t>::from_be_bytes(a)
                } else {
                    <$t>::from_le_bytes(a)
                }
            }
        }
    )*};
}

fixed!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Fixed for bool {
    const ANY_BITS: bool = false;
    #[inline]
    fn load(b: &[u8], _: bool) -> bool {
        b[0] != 0
    }
}

/// The values of an array: borrowed in place when their byte order is the machine's (or they
/// are single bytes) and they are aligned in memory, else copied.
///
/// # Safety
///
/// As for [`cast`]: unless any bytes are a `T` (`T::ANY_BITS`), every byte is 0 or 1.
#[allow(unsafe_code)]
unsafe fn view<T: Fixed>(b: &[u8], big: bool) -> Cow<'_, [T]> {
    let w = std::mem::size_of::<T>();
    if big == cfg!(target_endian = "big") || w == 1 {
        // SAFETY: the caller's promise, passed on.
        if let Some(s) = unsafe { cast::<T>(b) } {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(b.chunks_exact(w).map(|c| T::load(c, big)).collect())
}

/// Views `b` as a slice of `T` when it is aligned for `T` and a whole number of values.
///
/// # Safety
///
/// The bytes must be valid values of `T`: any bytes are for the integer and float types
/// (`T::ANY_BITS`); for `bool`, every byte must be 0 or 1 (`array` checks them when it reads
/// the frame).
#[allow(unsafe_code)]
unsafe fn cast<T: Fixed>(b: &[u8]) -> Option<&[T]> {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if b.as_ptr() as usize % align != 0 || b.len() % size != 0 {
        return None;
    }
    debug_assert!(T::ANY_BITS || b.iter().all(|&x| x <= 1), "unchecked bools");
    // SAFETY: the pointer is non-null (from a slice) and aligned for `T` (checked above); the
    // `b.len() / size` values cover exactly the bytes of `b`, which stay borrowed for the
    // result's lifetime and are not mutated through it; every byte pattern is a valid value of
    // the integer and float types, and the bytes of a `bool` slice are 0 or 1 (the caller's
    // promise).
    Some(unsafe { std::slice::from_raw_parts(b.as_ptr().cast::<T>(), b.len() / size) })
}
