//! The events a [`crate::Reader`] yields: borrowed views of its current token.
//!
//! A view borrows the reader, so it lives until the next call to `next`. Names and text borrow
//! from the input where they appear in it unchanged; only values that must be normalised
//! (attribute values with references or white space, text with references or carriage
//! returns) are produced in a buffer, and text only when [`Text::unescape`] asks for it.

use std::borrow::Cow;

use super::token::{Attr, DoctypeInfo, NsId, Span, TokenState, F_CR, F_REFS};
use crate::dtd::{self, Dtd};
use crate::intern::Id;

pub use super::token::TokenKind;
use crate::scan::str_of;
use crate::scan::{self, Ref};

/// One event of the document, borrowed from the reader.
#[derive(Clone, Copy, Debug)]
pub enum Event<'r> {
    /// A start tag. An empty-element tag `<a/>` gives a `Start` (with
    /// [`StartTag::is_empty`]) followed by an `End`.
    Start(StartTag<'r>),
    /// An end tag.
    End(EndTag<'r>),
    /// Character data (references inside it expanded lazily by [`Text::unescape`]).
    Text(Text<'r>),
    /// A CDATA section.
    CData(CData<'r>),
    /// A comment.
    Comment(Comment<'r>),
    /// A processing instruction.
    Pi(Pi<'r>),
    /// The document type declaration.
    Doctype(Doctype<'r>),
    /// A reference in content to an entity the reader did not read: an external parsed
    /// entity while no [`crate::Resolver`] is installed (or the resolver declined it), or an
    /// undeclared entity in a document whose declarations may be incomplete (external markup
    /// not read). The XML spec requires telling the application; the text around it is
    /// reported as separate `Text` events.
    SkippedEntity(SkippedEntity<'r>),
    /// The end of the document: every element was closed.
    Eof,
}

impl Event<'_> {
    /// The kind of this event.
    pub fn kind(&self) -> TokenKind {
        match self {
            Event::Start(_) => TokenKind::Start,
            Event::End(_) => TokenKind::End,
            Event::Text(_) => TokenKind::Text,
            Event::CData(_) => TokenKind::CData,
            Event::Comment(_) => TokenKind::Comment,
            Event::Pi(_) => TokenKind::Pi,
            Event::Doctype(_) => TokenKind::Doctype,
            Event::SkippedEntity(_) => TokenKind::SkippedEntity,
            Event::Eof => TokenKind::Eof,
        }
    }
}

/// The view of the token in `st`.
///
/// # Safety
///
/// `data` must be the bytes the source filled `st` from: the text source's window or the
/// open entity frame's text, or the binary input. Each span of `st` outside `scratch` then
/// covers characters the source checked as UTF-8, from one character boundary to another; the
/// views view them as `str`s, and [`StartTag`], [`Attributes`] and [`Attribute`] keep `data`
/// and `st` together for that (they are made only here and from one another).
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) unsafe fn view<'r>(data: &'r [u8], st: &'r TokenState, dtd: &'r Dtd) -> Event<'r> {
    let slice = |s: Span| -> &'r str {
        // SAFETY: a span of `st` outside `scratch`: in `data`, on characters the source checked
        // (the caller's promise).
        unsafe { str_of(&data[s.start..s.end]) }
    };
    // Spans of the current token's name or text are in the scratch buffer only for binary input
    // (a composed `prefix:local`, the text form of a typed value).
    let either = |s: Span| -> &'r str {
        let src = if s.scratch {
            st.scratch.as_bytes()
        } else {
            data
        };
        // SAFETY: a span of `scratch`, a `String`, around whole values the source pushed there;
        // or, as in `slice`, a span of `data` on characters the source checked.
        unsafe { str_of(&src[s.start..s.end]) }
    };
    match st.kind {
        TokenKind::Start => Event::Start(StartTag { data, st }),
        TokenKind::End => Event::End(EndTag { st }),
        TokenKind::Text => Event::Text(Text {
            raw: either(st.span),
            flags: st.flags,
            dtd,
        }),
        TokenKind::CData => Event::CData(CData {
            raw: slice(st.span),
            flags: st.flags,
        }),
        TokenKind::Comment => Event::Comment(Comment {
            raw: slice(st.span),
            flags: st.flags,
        }),
        TokenKind::Pi => Event::Pi(Pi {
            target: slice(st.span),
            raw: slice(st.pi_data),
            flags: st.flags,
        }),
        TokenKind::Doctype => match &st.doctype {
            Some(info) => Event::Doctype(Doctype { info }),
            None => Event::Eof,
        },
        TokenKind::SkippedEntity => Event::SkippedEntity(SkippedEntity {
            name: slice(st.span),
        }),
        TokenKind::Eof => Event::Eof,
    }
}

/// A reference to an entity whose replacement text was not read (see
/// [`Event::SkippedEntity`]).
#[derive(Clone, Copy, Debug)]
pub struct SkippedEntity<'r> {
    name: &'r str,
}

impl<'r> SkippedEntity<'r> {
    /// The entity's name (`e` for `&e;`).
    pub fn name(&self) -> &'r str {
        self.name
    }
}

/// A start tag.
#[derive(Clone, Copy)]
pub struct StartTag<'r> {
    /// The bytes `st` was filled from (made only by [`view`], whose caller promises it).
    data: &'r [u8],
    st: &'r TokenState,
}

impl<'r> StartTag<'r> {
    /// The qualified name as written (`soap:Envelope`).
    #[inline]
    #[allow(unsafe_code)]
    pub fn name(&self) -> &'r str {
        let a = self.st.span;
        // In the scratch buffer only for binary input (a composed `prefix:local`).
        let src = if a.scratch {
            self.st.scratch.as_bytes()
        } else {
            self.data
        };
        // SAFETY: the name's span in `scratch`, a `String` the binary source pushed the whole
        // name to, or in `data`, the bytes `st` was filled from (see `view`), where the source
        // checked the name.
        unsafe { str_of(&src[a.start..a.end]) }
    }

    /// The prefix, if the name has one.
    pub fn prefix(&self) -> Option<&'r str> {
        let n = self.prefix_len();
        (n > 0).then(|| &self.name()[..n])
    }

    fn prefix_len(&self) -> usize {
        self.st.qmeta[self.st.qname.0 as usize].prefix_len as usize
    }

    /// The local part of the name (all of it when namespaces are off).
    #[inline]
    pub fn local_name(&self) -> &'r str {
        let n = self.prefix_len();
        let name = self.name();
        if n > 0 {
            &name[n + 1..]
        } else {
            name
        }
    }

    /// The id of the qualified name, interned by the reader.
    #[inline]
    pub fn name_id(&self) -> Id {
        self.st.qname
    }

    /// The id of the element's namespace ([`NsId::NONE`] for none).
    #[inline]
    pub fn ns(&self) -> NsId {
        self.st.ns
    }

    /// The element's namespace URI (`""` for none).
    pub fn namespace_uri(&self) -> &'r str {
        self.st.uris.get(Id(self.st.ns.0))
    }

    /// Whether this was an empty-element tag (`<a/>`); an `End` event follows either way.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.st.empty
    }

    /// The attributes, in document order, then the defaulted ones. Namespace declarations
    /// (`xmlns`, `xmlns:p`) are included, with [`Attribute::is_namespace_decl`] true.
    #[inline]
    pub fn attributes(&self) -> Attributes<'r> {
        Attributes {
            data: self.data,
            st: self.st,
            i: 0,
        }
    }

    /// The value of the attribute with this qualified name.
    pub fn attribute(&self, qname: &str) -> Option<&'r str> {
        self.attributes()
            .find(|a| a.name() == qname)
            .map(|a| a.value())
    }

    /// The value of the attribute with this namespace URI and local name.
    pub fn attribute_ns(&self, ns_uri: &str, local: &str) -> Option<&'r str> {
        self.attributes()
            .find(|a| a.local_name() == local && a.namespace_uri() == ns_uri)
            .map(|a| a.value())
    }
}

impl StartTag<'_> {
    /// Offset of the name in the bytes of the current frame (the document for a slice
    /// reader over UTF-8).
    pub(crate) fn name_offset(&self) -> usize {
        self.st.span.start
    }

    /// The id of a namespace URI the reader has interned (for a declaration's value).
    pub(crate) fn namespace_id_of(&self, uri: &str) -> Option<NsId> {
        self.st.uris.find(uri).map(|i| NsId(i.0))
    }
}

impl std::fmt::Debug for StartTag<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartTag")
            .field("name", &self.name())
            .field("ns", &self.namespace_uri())
            .field(
                "attributes",
                &self
                    .attributes()
                    .map(|a| (a.name(), a.value()))
                    .collect::<Vec<_>>(),
            )
            .field("empty", &self.is_empty())
            .finish()
    }
}

/// Iterator over the attributes of a start tag.
#[derive(Clone)]
pub struct Attributes<'r> {
    /// The bytes `st` was filled from (copied from a [`StartTag`]).
    data: &'r [u8],
    st: &'r TokenState,
    i: usize,
}

impl<'r> Iterator for Attributes<'r> {
    type Item = Attribute<'r>;

    #[inline]
    fn next(&mut self) -> Option<Attribute<'r>> {
        let a = self.st.attrs.get(self.i)?;
        self.i += 1;
        Some(Attribute {
            data: self.data,
            st: self.st,
            a,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.st.attrs.len() - self.i;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Attributes<'_> {}

/// One attribute, its value normalised as XML 1.0 section 3.3.3 requires.
#[derive(Clone, Copy)]
pub struct Attribute<'r> {
    /// The bytes `st` was filled from (copied from [`Attributes`]).
    data: &'r [u8],
    st: &'r TokenState,
    a: &'r Attr,
}

impl<'r> Attribute<'r> {
    #[inline]
    #[allow(unsafe_code)]
    fn text(&self, s: Span) -> &'r str {
        if s.scratch {
            &self.st.scratch[s.start..s.end]
        } else {
            // SAFETY: a span of the attribute in `data`, the bytes `st` was filled from (see
            // `view`), where the source checked the attribute's name and value.
            unsafe { str_of(&self.data[s.start..s.end]) }
        }
    }

    /// The qualified name as written.
    #[inline]
    pub fn name(&self) -> &'r str {
        self.text(self.a.name)
    }

    /// The local part of the name.
    #[inline]
    pub fn local_name(&self) -> &'r str {
        let n = self.st.qmeta[self.a.qname.0 as usize].prefix_len as usize;
        let name = self.name();
        if n > 0 {
            &name[n + 1..]
        } else {
            name
        }
    }

    /// The prefix, if any.
    pub fn prefix(&self) -> Option<&'r str> {
        let n = self.st.qmeta[self.a.qname.0 as usize].prefix_len as usize;
        (n > 0).then(|| &self.name()[..n])
    }

    /// The normalised value.
    #[inline]
    pub fn value(&self) -> &'r str {
        self.text(self.a.value)
    }

    /// The id of the qualified name.
    #[inline]
    pub fn name_id(&self) -> Id {
        self.a.qname
    }

    /// The namespace id ([`NsId::NONE`] for unprefixed attributes, [`NsId::XMLNS`] for
    /// namespace declarations).
    #[inline]
    pub fn ns(&self) -> NsId {
        self.a.ns
    }

    /// The namespace URI (`""` for none).
    pub fn namespace_uri(&self) -> &'r str {
        self.st.uris.get(Id(self.a.ns.0))
    }

    /// Whether this is a namespace declaration (`xmlns` or `xmlns:p`).
    #[inline]
    pub fn is_namespace_decl(&self) -> bool {
        self.a.ns == NsId::XMLNS
    }

    /// Whether the value came from a default in the DTD rather than the document.
    pub fn is_defaulted(&self) -> bool {
        self.a.defaulted
    }

    /// Whether the DTD declares the attribute of type ID (what XPath's `id()` looks up).
    pub fn is_id(&self) -> bool {
        self.a.id
    }
}

impl Attribute<'_> {
    /// Offset of the name in the bytes of the current frame (the document for a slice
    /// reader over UTF-8); `None` for an attribute defaulted from the DTD.
    pub(crate) fn name_offset(&self) -> Option<usize> {
        (!self.a.name.scratch).then_some(self.a.name.start)
    }

    /// Whether the value was normalised (it differs from the bytes between the quotes).
    pub(crate) fn is_normalized(&self) -> bool {
        self.a.value.scratch
    }
}

impl std::fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={:?}", self.name(), self.value())
    }
}

/// An end tag.
#[derive(Clone, Copy)]
pub struct EndTag<'r> {
    st: &'r TokenState,
}

impl<'r> EndTag<'r> {
    /// The qualified name.
    pub fn name(&self) -> &'r str {
        self.st.names.get(self.st.qname)
    }

    /// The local part of the name.
    pub fn local_name(&self) -> &'r str {
        let n = self.st.qmeta[self.st.qname.0 as usize].prefix_len as usize;
        let name = self.name();
        if n > 0 {
            &name[n + 1..]
        } else {
            name
        }
    }

    /// The id of the qualified name.
    pub fn name_id(&self) -> Id {
        self.st.qname
    }

    /// The element's namespace id.
    pub fn ns(&self) -> NsId {
        self.st.ns
    }

    /// The element's namespace URI.
    pub fn namespace_uri(&self) -> &'r str {
        self.st.uris.get(Id(self.st.ns.0))
    }
}

impl std::fmt::Debug for EndTag<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EndTag({})", self.name())
    }
}

/// Character data.
#[derive(Clone, Copy)]
pub struct Text<'r> {
    raw: &'r str,
    flags: u8,
    dtd: &'r Dtd,
}

impl<'r> Text<'r> {
    /// The text as it appears in the input (references not expanded, line ends not normalised).
    /// For binary input, the character data itself (what [`Text::unescape`] returns).
    #[inline]
    pub fn raw(&self) -> &'r str {
        self.raw
    }

    /// Whether [`Text::unescape`] would borrow (nothing to replace). Always for binary input,
    /// whose [`Text::raw`] is character data (so it may hold `&` and `<`).
    #[inline]
    pub fn is_plain(&self) -> bool {
        self.flags == 0
    }

    /// The character data: references expanded, line ends normalised. Borrowed when nothing
    /// needs replacing.
    #[inline]
    pub fn unescape(&self) -> Cow<'r, str> {
        if self.flags == 0 {
            return Cow::Borrowed(self.raw);
        }
        Cow::Owned(self.unescape_slow())
    }

    #[cold]
    fn unescape_slow(&self) -> String {
        let data = self.raw.as_bytes();
        let mut out = String::with_capacity(data.len());
        let mut i = 0;
        while i < data.len() {
            let next = data[i..]
                .iter()
                .position(|&b| b == b'&' || (b == b'\r' && self.flags & F_CR != 0));
            let Some(off) = next else {
                out.push_str(&self.raw[i..]);
                break;
            };
            out.push_str(&self.raw[i..i + off]);
            i += off;
            if data[i] == b'\r' {
                out.push('\n');
                i += if data.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                continue;
            }
            match scan::reference(data, i, true) {
                Ok((Ref::Char(c), end)) => {
                    out.push(c);
                    i = end;
                }
                Ok((Ref::Entity(s, e), end)) => {
                    // Unread or undeclared entities (allowed when the DTD is incomplete) give
                    // nothing; every other reference was checked when the token was read.
                    if let Some(id) = self
                        .dtd
                        .general(&self.raw[s..e])
                        .filter(|&id| !self.dtd.entities[id].is_external())
                    {
                        if let Ok(x) = dtd::expanded(self.dtd, id, &crate::Limits::default()) {
                            out.push_str(&x);
                        }
                    }
                    i = end;
                }
                Err(_) => {
                    out.push('&');
                    i += 1;
                }
            }
        }
        out
    }

    /// Whether the text is only white space (as written).
    #[inline]
    pub fn is_whitespace(&self) -> bool {
        crate::chars::is_all_whitespace(self.raw.as_bytes())
    }
}

impl std::fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Text({:?})", self.unescape())
    }
}

fn normalize_cr(raw: &str, flags: u8) -> Cow<'_, str> {
    if flags & F_CR == 0 {
        Cow::Borrowed(raw)
    } else {
        Cow::Owned(raw.replace("\r\n", "\n").replace('\r', "\n"))
    }
}

/// A CDATA section.
#[derive(Clone, Copy, Debug)]
pub struct CData<'r> {
    raw: &'r str,
    flags: u8,
}

impl<'r> CData<'r> {
    /// The content as written.
    pub fn raw(&self) -> &'r str {
        self.raw
    }

    /// The content with line ends normalised.
    pub fn text(&self) -> Cow<'r, str> {
        normalize_cr(self.raw, self.flags)
    }
}

/// A comment.
#[derive(Clone, Copy, Debug)]
pub struct Comment<'r> {
    raw: &'r str,
    flags: u8,
}

impl<'r> Comment<'r> {
    /// The comment's text with line ends normalised.
    pub fn text(&self) -> Cow<'r, str> {
        normalize_cr(self.raw, self.flags)
    }
}

/// A processing instruction.
#[derive(Clone, Copy, Debug)]
pub struct Pi<'r> {
    target: &'r str,
    raw: &'r str,
    flags: u8,
}

impl<'r> Pi<'r> {
    /// The target.
    pub fn target(&self) -> &'r str {
        self.target
    }

    /// The data after the target and its white space, line ends normalised.
    pub fn data(&self) -> Cow<'r, str> {
        normalize_cr(self.raw, self.flags)
    }
}

/// The document type declaration.
#[derive(Clone, Copy, Debug)]
pub struct Doctype<'r> {
    info: &'r DoctypeInfo,
}

impl<'r> Doctype<'r> {
    /// The declared root element name.
    pub fn name(&self) -> &'r str {
        &self.info.name
    }

    /// The public identifier of the external subset.
    pub fn public_id(&self) -> Option<&'r str> {
        self.info.public_id.as_deref()
    }

    /// The system identifier of the external subset.
    pub fn system_id(&self) -> Option<&'r str> {
        self.info.system_id.as_deref()
    }

    /// The internal subset as written (between `[` and `]`).
    pub fn internal_subset(&self) -> &'r str {
        &self.info.internal_subset
    }
}

#[allow(dead_code)]
const _: u8 = F_REFS;
