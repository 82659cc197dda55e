//! The fast [`Source`]: XML Screamer's scanner. It reads the bytes of an ordinary document
//! directly, comparing the names a generated parser expects in place, handing out text and
//! attribute values as slices of the input (decoded into a buffer only when they hold
//! references or line ends to normalise), and gives up ([`Fallback`]) on anything it does
//! not handle itself or that is wrong, so that the [`Cursor`](super::Cursor) reads the
//! document again with every rule of the reader and its messages.
//!
//! What it handles: UTF-8 input with an optional byte order mark and XML declaration (version
//! 1.0, encoding UTF-8), elements and attributes with ASCII names, namespace declarations,
//! text and attribute values with the predefined entities and character references, white
//! space between elements. What it leaves to the cursor: everything else (comments,
//! processing instructions, CDATA sections, document types and their entities, non-ASCII
//! names, other encodings, XML 1.1) and every error. It never accepts what the reader
//! rejects: each check the reader makes on the constructs above is made here too (names,
//! quotes, end tags matching start tags, duplicate attributes, namespace constraints, legal
//! characters, `]]>` in text, the reader's default limits); `tests/bind_sources.rs` and the
//! generated parsers' fuzz targets hold it to the cursor.

use crate::bytes::{same_bytes, same_str};
use crate::chars::{self, CLASS};
use crate::scan::{any_char, reference, skip_ws, str_of, Ref};
use crate::simd;
use crate::{XMLNS_NS, XML_NS};

use self::memo::{Seen, TagMemo};
use super::identity::Tracker;
use super::mixed::MixedRuns;
use super::source::simple_type_attribute;
use super::{Bindings, Content, Expected, Fault, Ids, MixedText, Source, Text, XSI};

mod memo;

/// What a [`Scanner`] gives when it stops: the document holds something it leaves to the
/// [`Cursor`](super::Cursor), or is wrong. Either way, read it again with the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallback;

/// The reader's default limits ([`crate::Limits`]): past them the cursor gives their error.
const MAX_DEPTH: usize = 4096;
const MAX_NAME: usize = 50_000;
const MAX_TOKEN: usize = 10_000_000;
/// Attributes on one start tag the scanner checks for duplicates pair by pair; a tag with
/// more goes to the cursor.
const MAX_ATTRIBUTES: usize = 32;

/// A byte range of the input.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: usize,
    end: usize,
}

/// An attribute of the current start tag (namespace declarations included).
#[derive(Clone, Copy, Debug)]
struct Attr<'a> {
    /// The qualified name.
    name: Span,
    /// The namespace URI ("" without a prefix), resolved once by `check_attributes`.
    ns: &'a str,
    /// Where the local part starts (`name.start` without a prefix).
    local: usize,
    /// The value: a span of the input, or of `Scanner::values` when it was normalised.
    value: Span,
    normalised: bool,
    /// An `xmlns` or `xmlns:p` attribute.
    decl: bool,
}

/// An element whose end tag is still to come.
#[derive(Clone, Copy, Debug)]
struct Open {
    name: Span,
    /// How many bindings were in scope before its start tag: its own go at its end.
    bindings: usize,
}

/// The fast [`Source`]: XML Screamer's scanner. It reads an ordinary document's bytes
/// directly (UTF-8, an optional XML declaration, elements, attributes, namespace
/// declarations, text with the predefined references and character references), comparing
/// expected names in place and handing out text as slices of the input. Anything else
/// (comments, processing instructions, CDATA sections, a document type, other encodings,
/// XML 1.1) and every error give [`Fallback`]; it never accepts what the reader rejects.
/// Generated `from_slice` functions try it first and read the document again with a [`Cursor`](super::Cursor)
/// when it gives [`Fallback`].
///
/// ```
/// use xwire::bind::{Scanner, Source};
///
/// let mut s = Scanner::new(br#"<a xmlns="urn:x"><b k="v">hi</b></a>"#);
/// s.root().unwrap();
/// assert!(s.at("urn:x", "a"));
/// assert!(s.child().unwrap() && s.at("urn:x", "b"));
/// let mut k = String::new();
/// s.attributes(|_, local, value| {
///     k = format!("{local}={value}");
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!((k.as_str(), s.text().unwrap()), ("k=v", "hi"));
/// assert_eq!(s.child(), Ok(false));
/// s.finish().unwrap();
/// ```
pub struct Scanner<'a> {
    bytes: &'a [u8],
    /// Where scanning goes on.
    pos: usize,
    /// Where the current start tag starts (its `<`).
    tag: usize,
    /// The current start tag's qualified name and where its local part starts.
    name: Span,
    local: usize,
    /// The current element's namespace URI ("" for none).
    ns: &'a str,
    /// The current start tag ended with `/>`: its (empty) content is still to be read.
    self_closing: bool,
    /// The current start tag has a prefixed attribute other than a declaration (so perhaps
    /// `xsi:type`).
    prefixed: bool,
    attrs: Vec<Attr<'a>>,
    /// The current start tag's `xsi:type`, resolved once when its attributes are read
    /// (`check_attributes`): its namespace URI and its local part (in `values` when
    /// normalised, else in the input); `Some(None)` when its prefix is unbound. Valid while
    /// `prefixed`.
    xsi: Option<Option<(&'a str, Span, bool)>>,
    /// The current start tag's attribute values that normalising changed.
    values: String,
    memo: TagMemo<'a>,
    /// The text [`Source::text`] decoded last (the others are slices of the input).
    text: String,
    open: Vec<Open>,
    /// Namespace declarations in scope, innermost last: (prefix, URI), the prefix empty for
    /// the default namespace.
    bindings: Vec<(&'a [u8], &'a str)>,
    /// The default namespace in scope (the innermost `xmlns` of `bindings`): every
    /// unprefixed element name looks it up.
    default_ns: Option<&'a str>,
    /// Counts the changes to `bindings`: what `element_prefix` was resolved under.
    epoch: u32,
    /// The prefix of the last prefixed element name (in the input), the URI it was bound to
    /// and the `epoch` then: while no declaration comes or goes, an expected name in that
    /// namespace is compared in place as `prefix:local` (`mcs:constraint`), as an
    /// unprefixed one is.
    element_prefix: Option<(Span, &'a str, u32)>,
    ids: Ids,
    /// The identity constraints, from the first scope on (every start and end tag goes
    /// through it while one is open).
    track: Option<Box<Tracker>>,
    /// The current start tag's `xsi:nil` is allowed ([`Source::allow_nil`]).
    nil_ok: bool,
    /// The mixed elements open ([`Source::mixed`]).
    mixed: MixedRuns,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of the document in `bytes`.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Scanner<'a> {
        Scanner {
            bytes,
            pos: 0,
            tag: 0,
            name: Span::default(),
            local: 0,
            ns: "",
            self_closing: false,
            prefixed: false,
            attrs: Vec::new(),
            xsi: None,
            values: String::new(),
            memo: TagMemo::default(),
            text: String::new(),
            open: Vec::new(),
            bindings: Vec::new(),
            default_ns: None,
            epoch: 0,
            element_prefix: None,
            ids: Ids::default(),
            track: None,
            nil_ok: false,
            mixed: MixedRuns::default(),
        }
    }

    #[inline]
    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    /// Input bytes the scanner checked as UTF-8 (ASCII, or characters `any_char` decoded),
    /// viewed as a `str`.
    #[inline]
    #[allow(unsafe_code)]
    fn str(&self, span: Span) -> &'a str {
        // SAFETY: every span the scanner cuts starts and ends at ASCII delimiters and holds
        // only bytes it checked: ASCII name bytes, or text and value bytes that the stop scans
        // passed as plain ASCII or `any_char` decoded as whole UTF-8 characters.
        unsafe { str_of(&self.bytes[span.start..span.end]) }
    }

    /// Scans a QName at `at`: ASCII name characters, at most one colon with a name on both
    /// sides. Returns its end and where its local part starts.
    #[inline]
    fn qname(&self, at: usize) -> Result<(usize, usize), Fallback> {
        let end = self.ncname(at)?;
        let (end, local) = match self.byte(end) {
            Some(b':') => (self.ncname(end + 1)?, end + 1),
            _ => (end, at),
        };
        match self.byte(end) {
            // A non-ASCII name character, or a second colon.
            Some(b) if b >= 0x80 || b == b':' => Err(Fallback),
            _ if end - at > MAX_NAME => Err(Fallback),
            _ => Ok((end, local)),
        }
    }

    /// Scans an NCName of ASCII characters at `at`; returns its end.
    #[inline(always)]
    fn ncname(&self, at: usize) -> Result<usize, Fallback> {
        match self.byte(at) {
            Some(b) if CLASS[b as usize] & chars::NAME_START != 0 && b != b':' => {}
            _ => return Err(Fallback),
        }
        let mut p = at + 1;
        while self
            .byte(p)
            .is_some_and(|b| CLASS[b as usize] & chars::NCNAME != 0)
        {
            p += 1;
        }
        Ok(p)
    }

    /// Scans character data from `at` to the next `<`, checking its characters; gives up on
    /// `]]>`. Returns its end and whether it is the input as it stands, or was decoded into
    /// `self.text` (references, line ends).
    #[inline]
    fn text_run(&mut self, at: usize) -> Result<(usize, bool), Fallback> {
        let mut p = at;
        loop {
            p = simd::find_text_stop(self.bytes, p);
            match self.byte(p) {
                Some(b'<') if p - at <= MAX_TOKEN => return Ok((p, true)),
                Some(b']') if !self.bytes[p..].starts_with(b"]]>") => p += 1,
                Some(b) if b >= 0x80 => p += any_char(self.bytes, p).map_err(|_| Fallback)?.1,
                Some(b'&' | b'\r') => {
                    let mut buf = std::mem::take(&mut self.text);
                    buf.clear();
                    let end = self.decode(&mut buf, at, p, None);
                    self.text = buf;
                    return end.map(|end| (end, false));
                }
                _ => return Err(Fallback),
            }
        }
    }

    /// Scans an attribute value from `at` to its closing `quote`; gives up on `<`. Returns its
    /// end and whether it is the input as it stands, or was normalised onto the end of
    /// `self.values` (references, white space).
    #[inline]
    fn value(&mut self, at: usize, quote: u8) -> Result<(usize, bool), Fallback> {
        let mut p = at;
        loop {
            p = simd::find_attr_stop(self.bytes, p);
            match self.byte(p) {
                Some(b) if b == quote => {
                    return if p - at <= MAX_TOKEN {
                        Ok((p, true))
                    } else {
                        Err(Fallback)
                    }
                }
                // The other quote.
                Some(b'"' | b'\'') => p += 1,
                Some(b) if b >= 0x80 => p += any_char(self.bytes, p).map_err(|_| Fallback)?.1,
                Some(b'&' | b'\t' | b'\n' | b'\r') => {
                    let mut buf = std::mem::take(&mut self.values);
                    let end = self.decode(&mut buf, at, p, Some(quote));
                    self.values = buf;
                    return end.map(|end| (end, false));
                }
                _ => return Err(Fallback),
            }
        }
    }

    /// Appends to `buf` the text (`quote` `None`) or attribute value (`quote` its delimiter)
    /// from `at`, plain up to `p`, with references replaced and line ends normalised (and, in
    /// a value, white space turned into spaces). Returns where it ends: the `<` after text,
    /// the closing quote of a value. Entity references other than the predefined ones go to
    /// the cursor (a document without a DTD declares none).
    fn decode(
        &self,
        buf: &mut String,
        at: usize,
        mut p: usize,
        quote: Option<u8>,
    ) -> Result<usize, Fallback> {
        let space = if quote.is_some() { ' ' } else { '\n' };
        buf.push_str(self.str(Span { start: at, end: p }));
        loop {
            if p - at > MAX_TOKEN {
                return Err(Fallback);
            }
            match self.byte(p) {
                Some(b) if quote == Some(b) => return Ok(p),
                Some(b'<') if quote.is_none() => return Ok(p),
                Some(b'&') => match reference(self.bytes, p, true) {
                    Ok((Ref::Char(c), next)) => {
                        buf.push(c);
                        p = next;
                    }
                    _ => return Err(Fallback),
                },
                Some(b'\r') => {
                    buf.push(space);
                    p += 1 + usize::from(self.byte(p + 1) == Some(b'\n'));
                }
                Some(b'\t' | b'\n') if quote.is_some() => {
                    buf.push(' ');
                    p += 1;
                }
                Some(b']') if quote.is_none() && !self.bytes[p..].starts_with(b"]]>") => {
                    buf.push(']');
                    p += 1;
                }
                Some(b'"' | b'\'') if quote.is_some() => {
                    buf.push(self.bytes[p] as char);
                    p += 1;
                }
                Some(b) if b >= 0x80 => {
                    let (_, n) = any_char(self.bytes, p).map_err(|_| Fallback)?;
                    buf.push_str(self.str(Span {
                        start: p,
                        end: p + n,
                    }));
                    p += n;
                }
                _ => return Err(Fallback),
            }
            let q = match quote {
                None => simd::find_text_stop(self.bytes, p),
                Some(_) => simd::find_attr_stop(self.bytes, p),
            };
            buf.push_str(self.str(Span { start: p, end: q }));
            p = q;
        }
    }

    /// The URI bound to `prefix` (empty: the default namespace), innermost first; `None`
    /// when nothing binds it.
    #[inline]
    fn resolve(&self, prefix: &[u8]) -> Option<&'a str> {
        if prefix.is_empty() {
            return self.default_ns;
        }
        if prefix == b"xml" {
            return Some(XML_NS);
        }
        self.bindings
            .iter()
            .rev()
            .find(|(p, _)| same_bytes(p, prefix))
            .map(|&(_, uri)| uri)
    }

    /// An attribute's normalised value.
    #[inline]
    fn value_of(&self, a: &Attr) -> &str {
        self.value_part(a.value, a.normalised)
    }

    /// Part of an attribute value: in `values` when normalising changed it, else in the
    /// input.
    #[inline]
    fn value_part(&self, span: Span, normalised: bool) -> &str {
        match normalised {
            true => &self.values[span.start..span.end],
            false => self.str(span),
        }
    }

    /// The namespace URI of an attribute ("" without a prefix).
    fn attr_ns(&self, a: &Attr) -> Result<&'a str, Fallback> {
        if a.local == a.name.start {
            return Ok("");
        }
        self.resolve(&self.bytes[a.name.start..a.local - 1])
            .ok_or(Fallback)
    }

    /// Reads the start tag at `self.pos` (its `<`), making it the current element.
    #[inline]
    fn start_tag(&mut self) -> Result<(), Fallback> {
        let (name_end, local) = self.qname(self.pos + 1)?;
        self.start_tag_named(name_end, local, None)
    }

    /// Reads the start tag at `self.pos` whose name, scanned or compared already, ends at
    /// `name_end` with its local part at `local`; `known`: the namespace its prefix had
    /// before the tag, when the caller knows it.
    #[inline(always)]
    fn start_tag_named(
        &mut self,
        name_end: usize,
        local: usize,
        known: Option<&'a str>,
    ) -> Result<(), Fallback> {
        if self.open.len() >= MAX_DEPTH {
            return Err(Fallback);
        }
        let tag = self.pos;
        self.tag = tag;
        self.nil_ok = false;
        self.name = Span {
            start: tag + 1,
            end: name_end,
        };
        self.local = local;
        self.open.push(Open {
            name: self.name,
            bindings: self.bindings.len(),
        });
        // The usual tag: a name, then `>`.
        let epoch = self.epoch;
        if self.byte(name_end) == Some(b'>') {
            self.attrs.clear();
            self.prefixed = false;
            self.self_closing = false;
            self.pos = name_end + 1;
        } else {
            // A tag that repeats an earlier one's bytes is taken from the memo.
            let seen = self.memo.seen(self.bytes, tag, self.name, epoch);
            if !matches!(seen, Seen::Known(slot) if self.recall(slot)) {
                self.attributes_from(name_end, seen)?;
            }
        }
        self.ns = match (known, local == tag + 1, self.bindings.is_empty()) {
            // Unless the tag itself declared something.
            (Some(ns), ..) if self.epoch == epoch => ns,
            (_, true, true) => "",
            _ => self.element_ns()?,
        };
        match self.track.is_some() {
            true => self.identity_start(tag),
            false => Ok(()),
        }
    }

    /// Reads the current start tag's attributes from `p` (the end of its name) to its end,
    /// noting it in the memo as `seen`.
    fn attributes_from(&mut self, mut p: usize, seen: Seen) -> Result<(), Fallback> {
        let tag = self.tag;
        self.attrs.clear();
        self.values.clear();
        self.prefixed = false;
        self.xsi = None;
        let mut decls = false;
        self.self_closing = loop {
            let before = p;
            p = skip_ws(self.bytes, p);
            match self.byte(p) {
                Some(b'>') => break false,
                Some(b'/') if self.byte(p + 1) == Some(b'>') => {
                    p += 1;
                    break true;
                }
                // An attribute, after white space.
                Some(_) if p > before => {}
                _ => return Err(Fallback),
            }
            let (a_end, a_local) = self.qname(p)?;
            let name = Span {
                start: p,
                end: a_end,
            };
            p = skip_ws(self.bytes, a_end);
            if self.byte(p) != Some(b'=') {
                return Err(Fallback);
            }
            p = skip_ws(self.bytes, p + 1);
            let quote = match self.byte(p) {
                Some(q @ (b'"' | b'\'')) => q,
                _ => return Err(Fallback),
            };
            let from = self.values.len();
            let (v_end, plain) = self.value(p + 1, quote)?;
            let value = match plain {
                true => Span {
                    start: p + 1,
                    end: v_end,
                },
                false => Span {
                    start: from,
                    end: self.values.len(),
                },
            };
            p = v_end + 1;
            let qname = &self.bytes[name.start..name.end];
            let decl =
                qname == b"xmlns" || (a_local == name.start + 6 && qname.starts_with(b"xmlns:"));
            self.prefixed |= !decl && a_local != name.start;
            decls |= decl;
            if self.attrs.len() == MAX_ATTRIBUTES || p - tag > MAX_TOKEN {
                return Err(Fallback);
            }
            self.attrs.push(Attr {
                name,
                ns: "",
                local: a_local,
                value,
                normalised: !plain,
                decl,
            });
        };
        self.pos = p + 1;
        if decls {
            self.declare()?;
        }
        if self.prefixed || self.attrs.len() > 1 {
            self.check_attributes()?;
        }
        if !decls {
            self.remember(seen);
        }
        Ok(())
    }

    /// The current element's namespace URI, from its prefix and the bindings in scope.
    fn element_ns(&mut self) -> Result<&'a str, Fallback> {
        if self.local == self.name.start {
            // `declare` never binds the default namespace to `xml`'s.
            return Ok(self.default_ns.unwrap_or(""));
        }
        let prefix = Span {
            start: self.name.start,
            end: self.local - 1,
        };
        // Elements in the `xml` namespace are left to the cursor with their prefix.
        match self.resolve(&self.bytes[prefix.start..prefix.end]) {
            Some(XML_NS) | None => Err(Fallback),
            Some(uri) => {
                self.element_prefix = Some((prefix, uri, self.epoch));
                Ok(uri)
            }
        }
    }

    /// Puts the current start tag's namespace declarations in scope, with the constraints of
    /// Namespaces in XML 1.0 (the rare legal cases among those, such as declaring `xml`, go to
    /// the cursor).
    fn declare(&mut self) -> Result<(), Fallback> {
        for i in 0..self.attrs.len() {
            let a = self.attrs[i];
            if !a.decl {
                continue;
            }
            // A URI that needed normalising would outlive the buffer it is in: rare enough to
            // leave to the cursor.
            if a.normalised {
                return Err(Fallback);
            }
            let uri = self.str(a.value);
            // `xmlns:p` declares its local part; `xmlns` (no prefix) the default namespace.
            let prefix = match a.local == a.name.start {
                true => &b""[..],
                false => &self.bytes[a.local..a.name.end],
            };
            if uri == XML_NS
                || uri == XMLNS_NS
                || prefix == b"xml"
                || prefix == b"xmlns"
                || (uri.is_empty() && !prefix.is_empty())
            {
                return Err(Fallback);
            }
            // A well-known URI (`xsi:`, `xsd:`, SOAP's) as its constant: every comparison
            // with it (`xsi:type`, its type's namespace) is then a pointer comparison.
            let uri = super::text::well_known(uri).unwrap_or(uri);
            self.bindings.push((prefix, uri));
            self.epoch = self.epoch.wrapping_add(1);
            if prefix.is_empty() {
                self.default_ns = Some(uri);
            }
        }
        Ok(())
    }

    /// Resolves the prefixes of the current start tag's attributes (into `Attr::ns`, so that
    /// each is looked up once). Unbound prefixes and duplicate attributes (by qualified name
    /// or by expanded name) are the cursor's errors.
    fn check_attributes(&mut self) -> Result<(), Fallback> {
        for i in 0..self.attrs.len() {
            let a = self.attrs[i];
            if !a.decl && a.local != a.name.start {
                let ns = self.attr_ns(&a)?;
                self.attrs[i].ns = ns;
                if same_str(ns, XSI) && same_bytes(&self.bytes[a.local..a.name.end], b"type") {
                    self.xsi = Some(self.resolve_type(&a));
                }
            }
        }
        for (i, a) in self.attrs.iter().enumerate() {
            let a_name = &self.bytes[a.name.start..a.name.end];
            for b in &self.attrs[i + 1..] {
                if a_name == &self.bytes[b.name.start..b.name.end] {
                    return Err(Fallback);
                }
                // Two prefixed attributes may still share an expanded name.
                if !a.decl
                    && !b.decl
                    && a.local != a.name.start
                    && b.local != b.name.start
                    && self.bytes[a.local..a.name.end] == self.bytes[b.local..b.name.end]
                    && same_str(a.ns, b.ns)
                {
                    return Err(Fallback);
                }
            }
        }
        Ok(())
    }

    /// Reads the end tag at `self.pos`, which must close the innermost open element.
    #[inline]
    fn end_tag(&mut self) -> Result<(), Fallback> {
        let open = self.open.pop().ok_or(Fallback)?;
        let name = &self.bytes[open.name.start..open.name.end];
        let s = self.pos + 2;
        let e = s + name.len();
        match self.bytes.get(s..e) {
            Some(b) if same_bytes(b, name) => {}
            _ => return Err(Fallback),
        }
        let p = skip_ws(self.bytes, e);
        if self.byte(p) != Some(b'>') {
            return Err(Fallback);
        }
        self.pos = p + 1;
        self.unbind(open.bindings);
        self.identity_end(s)
    }

    /// Takes the declarations after the first `keep` out of scope.
    #[inline]
    fn unbind(&mut self, keep: usize) {
        if self.bindings.len() > keep {
            let default = self.bindings[keep..].iter().any(|(p, _)| p.is_empty());
            self.bindings.truncate(keep);
            self.epoch = self.epoch.wrapping_add(1);
            if default {
                let innermost = self.bindings.iter().rev().find(|(p, _)| p.is_empty());
                self.default_ns = innermost.map(|&(_, uri)| uri);
            }
        }
    }

    /// Ends the current element read as `<x/>`.
    #[inline]
    fn close_empty(&mut self) -> Result<(), Fallback> {
        self.self_closing = false;
        if let Some(open) = self.open.pop() {
            self.unbind(open.bindings);
        }
        self.identity_end(self.tag)
    }

    /// The current start tag, at byte `at`, to the open scopes of identity constraints (out
    /// of line: most documents have none).
    #[inline(never)]
    fn identity_start(&mut self, at: usize) -> Result<(), Fallback> {
        if !self.track.as_ref().is_some_and(|t| t.active()) {
            return Ok(());
        }
        let (ns, local) = self.name();
        let name = (Text::from(ns), Text::from(local));
        let depth = self.open.len() - 1;
        // Out of `self` meanwhile, so that the attributes can be read.
        let mut track = self.track.take();
        if let Some(t) = &mut track {
            t.start(depth, name, at as u64);
            // Only a prefixed attribute can be an `xsi:` one.
            if self.prefixed {
                for a in self.attrs.iter().filter(|a| !a.decl && same_str(a.ns, XSI)) {
                    let local = self.str(Span {
                        start: a.local,
                        end: a.name.end,
                    });
                    t.xsi_attribute(local, self.value_of(a), at as u64);
                }
            }
        }
        self.track = track;
        self.identity_check()
    }

    /// The end tag just read, at byte `at`, to the open scopes of identity constraints.
    #[inline]
    fn identity_end(&mut self, at: usize) -> Result<(), Fallback> {
        match self.track.is_some() {
            true => self.identity_ended(at),
            false => Ok(()),
        }
    }

    #[inline(never)]
    fn identity_ended(&mut self, at: usize) -> Result<(), Fallback> {
        let depth = self.open.len();
        match &mut self.track {
            Some(t) if t.active() => t.end(depth, at as u64),
            _ => return Ok(()),
        }
        self.identity_check()
    }

    /// The `xsi:type` of the current start tag, which has a prefixed attribute.
    #[inline]
    fn named_type(&self) -> Result<Option<(&str, &str)>, Fallback> {
        match self.xsi {
            None => Ok(None),
            Some(None) => Err(Fallback),
            Some(Some((ns, local, normalised))) => {
                Ok(Some((ns, self.value_part(local, normalised))))
            }
        }
    }

    /// The type the `xsi:type` attribute `a` names: its namespace URI (`None`: the prefix
    /// is unbound) and where its local part is, as `xsi` keeps them. Once per start tag:
    /// the readers ask for the type several times (a SOAP item's reader, its type's, its
    /// fields').
    fn resolve_type(&self, a: &Attr) -> Option<(&'a str, Span, bool)> {
        let value = self.value_of(a);
        let qname = crate::datatypes::trim_xml(value);
        let lead = qname.as_ptr() as usize - value.as_ptr() as usize;
        // A byte loop: the name is a few bytes, shorter than a searcher takes to set up.
        let (prefix, local_at) = match qname.bytes().position(|b| b == b':') {
            Some(i) => (&qname[..i], i + 1),
            None => ("", 0),
        };
        let ns = match self.resolve(prefix.as_bytes()) {
            Some(ns) => ns,
            None if prefix.is_empty() => "",
            None => return None,
        };
        let start = a.value.start + lead;
        let local = Span {
            start: start + local_at,
            end: start + qname.len(),
        };
        Some((ns, local, a.normalised))
    }

    /// The current start tag's attributes are only those every element may have.
    #[cold]
    fn only_xsi_attributes(&mut self) -> Result<(), Fallback> {
        self.attributes(|ns, local, _| simple_type_attribute(ns, local))
    }

    /// [`Source::child`]; with `expected` compared in place first: when the tag's name is
    /// its local name (an ASCII NCName), unprefixed or with the prefix the last prefixed
    /// element bound to its namespace, no name is scanned and no prefix looked up.
    #[inline(always)]
    fn next_child(&mut self, expected: Option<&Expected>) -> Result<bool, Fallback> {
        if self.self_closing {
            self.close_empty()?;
            return Ok(false);
        }
        if self.mixed.at(self.open.len()) {
            return self.mixed_child();
        }
        self.pos = skip_ws(self.bytes, self.pos);
        if self.byte(self.pos) != Some(b'<') {
            return Err(Fallback);
        }
        if self.byte(self.pos + 1) == Some(b'/') {
            self.end_tag()?;
            return Ok(false);
        }
        if let Some((e, name)) = expected.and_then(|e| Some((e, e.plain()?))) {
            let start = self.pos + 1;
            if let Some(end) = self.name_at(start, name) {
                self.start_tag_named(end, start, None)?;
                return Ok(true);
            }
            if let Some((local, end, ns)) = self.prefixed_name_at(start, name, e.ns()) {
                self.start_tag_named(end, local, Some(ns))?;
                return Ok(true);
            }
        }
        self.start_tag()?;
        Ok(true)
    }

    /// Where the name `name` that the input has at `at` ends, if it has it there.
    #[inline(always)]
    fn name_at(&self, at: usize, name: &[u8]) -> Option<usize> {
        let end = at + name.len();
        // The name ends where the tag's name must: at white space, `>` or `/>` (`:` would
        // make it a prefix; anything else, a longer name).
        let here = self.bytes.get(at..end).is_some_and(|b| same_bytes(b, name))
            && matches!(
                self.byte(end),
                Some(b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r')
            );
        here.then_some(end)
    }

    /// The tag name at `at` as `prefix:local`, `prefix` the last element prefix, still bound
    /// to namespace `ns`: where its local part starts, where it ends and that namespace.
    #[inline(always)]
    fn prefixed_name_at(
        &self,
        at: usize,
        local: &[u8],
        ns: &str,
    ) -> Option<(usize, usize, &'a str)> {
        let (prefix, uri, epoch) = self.element_prefix?;
        if epoch != self.epoch || !same_str(uri, ns) {
            return None;
        }
        let prefix = &self.bytes[prefix.start..prefix.end];
        let colon = at + prefix.len();
        let here = self
            .bytes
            .get(at..colon)
            .is_some_and(|b| same_bytes(b, prefix))
            && self.byte(colon) == Some(b':');
        if !here {
            return None;
        }
        let end = self.name_at(colon + 1, local)?;
        // The length the scanned name would be refused at.
        (end - at <= MAX_NAME).then_some((colon + 1, end, uri))
    }

    /// [`Source::child`] in mixed content: the text up to the next tag kept, then the tag.
    #[inline(never)]
    fn mixed_child(&mut self) -> Result<bool, Fallback> {
        let start = self.pos;
        let (end, plain) = self.text_run(start)?;
        match plain {
            true => self.mixed.text(self.str(Span { start, end })),
            false => {
                let text = std::mem::take(&mut self.text);
                self.mixed.text(&text);
                self.text = text;
            }
        }
        self.pos = end;
        if self.byte(self.pos + 1) == Some(b'/') {
            self.end_tag()?;
            return Ok(false);
        }
        self.start_tag()?;
        self.mixed.child();
        Ok(true)
    }

    /// Reads an XML declaration at the start of the input, if there is one: version 1.0,
    /// encoding UTF-8 if any, standalone yes or no if any.
    fn declaration(&mut self) -> Result<(), Fallback> {
        let b = self.bytes;
        if !(b.starts_with(b"<?xml") && b.len() > 5 && chars::is_whitespace(b[5])) {
            return Ok(());
        }
        let mut p = skip_ws(b, 5);
        let pseudo = |p: &mut usize, name: &[u8]| -> Option<Span> {
            if !b[*p..].starts_with(name) {
                return None;
            }
            let mut q = skip_ws(b, *p + name.len());
            if b.get(q) != Some(&b'=') {
                return None;
            }
            q = skip_ws(b, q + 1);
            let quote = *b.get(q).filter(|&&c| c == b'"' || c == b'\'')?;
            let start = q + 1;
            let end = start + b[start..].iter().position(|&c| c == quote)?;
            *p = end + 1;
            Some(Span { start, end })
        };
        let v = pseudo(&mut p, b"version").ok_or(Fallback)?;
        if &b[v.start..v.end] != b"1.0" {
            return Err(Fallback);
        }
        let mut q = skip_ws(b, p);
        if q > p {
            if let Some(e) = pseudo(&mut q, b"encoding") {
                if !b[e.start..e.end].eq_ignore_ascii_case(b"UTF-8") {
                    return Err(Fallback);
                }
                p = q;
                q = skip_ws(b, p);
            }
        }
        if q > p {
            if let Some(s) = pseudo(&mut q, b"standalone") {
                if !matches!(&b[s.start..s.end], b"yes" | b"no") {
                    return Err(Fallback);
                }
                p = q;
            }
        }
        p = skip_ws(b, p);
        if !b[p..].starts_with(b"?>") {
            return Err(Fallback);
        }
        self.pos = p + 2;
        Ok(())
    }
}

impl Source for Scanner<'_> {
    type Error = Fallback;

    fn root(&mut self) -> Result<(), Fallback> {
        if self.bytes.starts_with(b"\xEF\xBB\xBF") {
            self.bytes = &self.bytes[3..];
        }
        self.declaration()?;
        self.pos = skip_ws(self.bytes, self.pos);
        // Anything but a start tag (a comment, a document type) is the cursor's.
        match self.byte(self.pos) {
            Some(b'<') => self.start_tag(),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn at(&self, ns: &str, local: &str) -> bool {
        same_bytes(&self.bytes[self.local..self.name.end], local.as_bytes())
            && same_str(self.ns, ns)
    }

    #[inline]
    fn name(&self) -> (&str, &str) {
        let local = self.str(Span {
            start: self.local,
            end: self.name.end,
        });
        (self.ns, local)
    }

    fn attributes<F>(&mut self, mut f: F) -> Result<(), Fallback>
    where
        F: FnMut(&str, &str, &str) -> Result<(), Fault>,
    {
        for a in &self.attrs {
            if a.decl {
                continue;
            }
            let local = self.str(Span {
                start: a.local,
                end: a.name.end,
            });
            let ns = a.ns;
            if self.nil_ok && local == "nil" && same_str(ns, XSI) {
                continue;
            }
            f(ns, local, self.value_of(a)).map_err(|_| Fallback)?;
        }
        Ok(())
    }

    fn mixed(&mut self, keep: bool) {
        self.mixed.begin(self.open.len(), keep);
    }

    fn mixed_text(&mut self) -> Vec<MixedText> {
        self.mixed.take()
    }

    fn mixed_flush(&mut self, f: &mut dyn FnMut(&str)) {
        self.mixed.flush(f);
    }

    fn bindings(&self) -> Bindings {
        let mut b = Bindings::default();
        for &(prefix, uri) in &self.bindings {
            b.push(std::str::from_utf8(prefix).unwrap_or_default(), uri);
        }
        b
    }

    #[inline]
    fn xsi_type_name(&mut self) -> Result<Option<(&str, &str)>, Fallback> {
        // Only a prefixed attribute can be `xsi:type`.
        match self.prefixed {
            false => Ok(None),
            true => self.named_type(),
        }
    }

    #[inline]
    fn bare(&self) -> bool {
        self.attrs.is_empty()
    }

    #[inline]
    fn no_attributes(&mut self) -> Result<(), Fallback> {
        match self.attrs.is_empty() {
            true => Ok(()),
            false => self.only_xsi_attributes(),
        }
    }

    fn child(&mut self) -> Result<bool, Fallback> {
        self.next_child(None)
    }

    fn child_expecting(&mut self, next: &Expected) -> Result<bool, Fallback> {
        self.next_child(Some(next))
    }

    fn text(&mut self) -> Result<&str, Fallback> {
        if self.self_closing {
            self.close_empty()?;
            return Ok("");
        }
        let start = self.pos;
        let (end, plain) = self.text_run(start)?;
        if self.byte(end + 1) != Some(b'/') {
            return Err(Fallback);
        }
        self.pos = end;
        self.end_tag()?;
        match plain {
            true => Ok(self.str(Span { start, end })),
            false => Ok(&self.text),
        }
    }

    fn text_only(&mut self) -> Result<Option<&str>, Fallback> {
        if self.self_closing {
            self.close_empty()?;
            return Ok(Some(""));
        }
        let start = self.pos;
        let (end, plain) = self.text_run(start)?;
        match self.byte(end + 1) {
            Some(b'/') => {}
            // A comment, PI or CDATA section: the cursor's, as in `content`.
            Some(b'!' | b'?') => return Err(Fallback),
            _ => {
                self.pos = end;
                return Ok(None);
            }
        }
        self.pos = end;
        self.end_tag()?;
        match plain {
            true => Ok(Some(self.str(Span { start, end }))),
            false => Ok(Some(&self.text)),
        }
    }

    fn content(&mut self) -> Result<Content<'_>, Fallback> {
        if self.self_closing {
            self.close_empty()?;
            return Ok(Content::End);
        }
        match (self.byte(self.pos), self.byte(self.pos + 1)) {
            (Some(b'<'), Some(b'/')) => {
                self.end_tag()?;
                Ok(Content::End)
            }
            // A comment, PI or CDATA section fails as a name: the cursor's.
            (Some(b'<'), _) => {
                self.start_tag()?;
                Ok(Content::Start)
            }
            _ => {
                let start = self.pos;
                let (end, plain) = self.text_run(start)?;
                // Text that a comment, PI or CDATA section interrupts is the cursor's, which
                // gives the runs around it as one step: handed out here, half of it would
                // already be an event when the cursor reads the document again.
                if matches!(self.byte(end + 1), Some(b'!' | b'?')) {
                    return Err(Fallback);
                }
                self.pos = end;
                match plain {
                    true => Ok(Content::Text(self.str(Span { start, end }))),
                    false => Ok(Content::Text(&self.text)),
                }
            }
        }
    }

    fn empty(&mut self) -> Result<(), Fallback> {
        if self.self_closing {
            return self.close_empty();
        }
        if self.byte(self.pos + 1) != Some(b'/') || self.byte(self.pos) != Some(b'<') {
            return Err(Fallback);
        }
        self.end_tag()
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        if !self.open.is_empty() || self.self_closing {
            return Err(Fallback);
        }
        if let Some(t) = &mut self.track {
            t.settle();
            self.identity_check()?;
        }
        // A dangling IDREF is the cursor's to report.
        match skip_ws(self.bytes, self.pos) == self.bytes.len()
            && self.ids.unresolved().next().is_none()
        {
            true => Ok(()),
            false => Err(Fallback),
        }
    }

    fn ids(&mut self) -> &mut Ids {
        &mut self.ids
    }

    fn tracker(&mut self) -> Option<&mut Tracker> {
        Some(self.track.get_or_insert_with(Box::default))
    }

    fn identity_active(&self) -> bool {
        self.track.as_ref().is_some_and(|t| t.active())
    }

    #[inline]
    fn depth(&self) -> usize {
        self.open.len()
    }

    fn allow_nil(&mut self) {
        self.nil_ok = true;
    }

    #[cold]
    fn unexpected(&mut self, _expected: &str) -> Fallback {
        Fallback
    }

    #[inline]
    fn offset(&self) -> u64 {
        self.tag as u64
    }

    #[cold]
    fn fail_at(&mut self, _offset: u64, _fault: Fault) -> Fallback {
        Fallback
    }

    #[cold]
    fn not_derived(&mut self, _ns: &str, _local: &str) -> Fallback {
        Fallback
    }
}
