//! What a reader knows of the document besides its tokens.

use crate::decl::XmlDecl;
use crate::intern::Id;
use crate::reader::token::TokenKind;
use crate::scan::str_of;

use super::token::{NsId, NO_PREFIX};
use super::Reader;

impl<'a> Reader<'a> {
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
        self.core.st.tok.names_gen
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
    #[allow(unsafe_code)]
    pub fn text_in_input(&self) -> Option<&'a str> {
        let st = &self.core.st;
        if st.tok.kind != TokenKind::Text
            || st.tok.flags != 0
            || st.tok.span.scratch
            || self.input.owned
            || self.binary.is_some()
            || !st.frames.is_empty()
        {
            return None;
        }
        let text = self.input.slice.get(st.tok.span.start..st.tok.span.end)?;
        // SAFETY: the span of the current text token, outside `scratch`, with no entity frame
        // open and the input neither owned nor binary: a span of `input.slice`, the bytes the
        // text source read it from, which checked its characters while scanning it.
        Some(unsafe { str_of(text) })
    }

    /// Byte offset of the start of the current event. For binary input: the offset of the
    /// event's frame (for an end, of the byte after the frame; for the text of a typed element,
    /// of its value).
    pub fn offset(&self) -> u64 {
        self.core.st.tok.start
    }

    // ----- binary input -----------------------------------------------------------------------

    /// The XML declaration, once read.
    pub fn xml_decl(&self) -> Option<&XmlDecl> {
        self.core.st.xml_decl.as_ref()
    }

    /// Whether the document declared `standalone="yes"`.
    pub fn standalone(&self) -> bool {
        self.core.st.standalone
    }

    /// Current element nesting depth (1 inside the root element).
    pub fn depth(&self) -> usize {
        self.core.st.tok.stack.len()
    }

    /// The namespace URI of an id.
    pub fn namespace_uri(&self, ns: NsId) -> &str {
        self.core.st.tok.uris.get(Id(ns.0))
    }

    /// The id of a namespace URI, if the document used it so far.
    pub fn namespace_id(&self, uri: &str) -> Option<NsId> {
        self.core.st.tok.uris.find(uri).map(|i| NsId(i.0))
    }

    /// The qualified name an id stands for.
    pub fn name_of(&self, id: Id) -> &str {
        self.core.st.tok.names.get(id)
    }

    /// The namespace bindings in scope, innermost last: (prefix, namespace). The default
    /// namespace has the prefix `""`; an empty URI undeclares it.
    pub fn namespaces_in_scope(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.core.st.tok.bindings.iter().map(move |&(p, ns)| {
            let prefix = if p == NO_PREFIX {
                ""
            } else {
                self.core.st.tok.names.get(p)
            };
            (prefix, self.core.st.tok.uris.get(Id(ns.0)))
        })
    }

    /// Names of the notations the DTD declared, with public and system identifiers.
    pub fn notations(&self) -> impl Iterator<Item = (&str, Option<&str>, Option<&str>)> + '_ {
        self.core
            .dtd
            .notations
            .iter()
            .map(|(n, (p, s))| (&**n, p.as_deref(), s.as_deref()))
    }

    /// Processing instructions inside the DTD, in document order: (target, data).
    pub fn dtd_processing_instructions(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.core.dtd.pis.iter().map(|(t, d)| (&**t, &**d))
    }

    /// Whether some declarations may be missing because external markup was not read (the
    /// caller installed no resolver, or it declined).
    pub fn dtd_incomplete(&self) -> bool {
        self.core.dtd.incomplete
    }

    /// Bytes of the document read so far (the offset after the current event).
    pub fn bytes_read(&self) -> u64 {
        self.input.base
            + if self.core.st.frames.is_empty() {
                self.core.st.pos as u64
            } else {
                self.core.st.frames[0].saved_pos as u64
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
        !self.core.st.frames.is_empty()
    }

    /// Whether the DTD makes values differ from what the document's bytes say with only the
    /// predefined entities and character references: it declares general entities or
    /// attribute lists (defaults, tokenized types).
    pub(crate) fn dtd_shapes_values(&self) -> bool {
        self.core.dtd.has_general_entities() || !self.core.dtd.attlists.is_empty()
    }

    /// How many namespace URIs the reader has interned ([`NsId`]s `0..count`).
    pub(crate) fn namespace_count(&self) -> usize {
        self.core.st.tok.uris.len()
    }
}
