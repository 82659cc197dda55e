//! Canonical XML: [Canonical XML 1.0], [Canonical XML 1.1] and
//! [Exclusive XML Canonicalization 1.0], with or without comments, of whole documents
//! (streaming, over the reader) and of document subsets (XPath node-sets, over any
//! [`Navigator`](crate::xpath::Navigator): the tree today).
//!
//! Canonicalization turns every document into one byte sequence that is the same for all
//! documents that are logically equivalent (same infoset, different syntax): the form that
//! XML Signature digests. It runs in one streaming pass over a [`Reader`], which already does
//! what the specifications ask of the parser (UTF-8, line ends, attribute-value normalisation,
//! references and entities expanded, attribute defaults from the DTD, namespaces resolved).
//! On top of that this module:
//!
//! - drops the XML declaration and the DOCTYPE; writes CDATA sections as escaped text and
//!   empty elements as start and end tag pairs;
//! - drops white space outside the document element; writes each comment or PI before it
//!   followed by `\n` and each after it preceded by `\n`;
//! - writes namespace declarations first, sorted by prefix (default first), then attributes
//!   sorted by namespace URI and local name, every value in `"` with `& < " TAB LF CR` as
//!   references; text with `& < > CR` as references; `<?target data?>` with no space when the
//!   data is empty;
//! - writes only the namespace declarations the output needs: in inclusive mode, those whose
//!   binding differs from the parent's; in exclusive mode, those the element visibly uses
//!   (its own prefix, or the default namespace when it has none, and its attributes' prefixes)
//!   and no output ancestor has written with the same value yet, plus the inclusive ones of the
//!   `InclusiveNamespaces PrefixList` handled as in inclusive mode.
//!
//! A namespace declaration with a relative URI (no scheme, such as `xmlns:p="../x"`) is an
//! error, as Canonical XML 1.0 section 2 requires (and libxml2 and Apache Santuario do).
//! Canonical XML 1.1 differs from 1.0 only for document subsets (`xml:id`, `xml:base` fix-ups),
//! so on whole documents [`Mode::Inclusive11`] gives the same bytes as [`Mode::Inclusive`].
//!
//! ```
//! use xwire::c14n::{self, C14nOptions, Mode};
//!
//! let xml = br#"<?xml version="1.0"?>
//! <doc xmlns:b="urn:b" xmlns:a="urn:a" z="1" b:y='2' a:x="&lt;3"><e/><![CDATA[<&>]]></doc>"#;
//! let mut out = Vec::new();
//! c14n::canonicalize(xml, &C14nOptions::default(), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     r#"<doc xmlns:a="urn:a" xmlns:b="urn:b" z="1" a:x="&lt;3" b:y="2"><e></e>&lt;&amp;&gt;</doc>"#
//! );
//!
//! // Exclusive: declarations move to where they are used.
//! let options = C14nOptions::new(Mode::exclusive(""), false);
//! let out = c14n::to_vec(br#"<a xmlns:p="urn:p" xmlns:q="urn:q"><p:b/></a>"#, &options)?;
//! assert_eq!(out, br#"<a><p:b xmlns:p="urn:p"></p:b></a>"#);
//! # Ok::<(), xwire::c14n::C14nError>(())
//! ```
//!
//! # Document subsets
//!
//! [`canonicalize_subset`] writes the canonical form of any set of nodes ([`NodeSet`]: a
//! `HashSet` or a predicate) of a document seen through a
//! [`Navigator`](crate::xpath::Navigator); [`canonicalize_xpath`] selects the set with an XPath
//! expression, [`canonicalize_subtree`] takes an element and its descendants (XML Signature
//! same-document references), and [`subtree_nodes`] with [`xpath_filter`] give the node-sets of
//! XML Signature references and XPath filter transforms. The rules (Canonical XML 1.0
//! sections 2.3 and 4, 1.1 section 2.4, Exclusive 1.0 section 3):
//!
//! - an element outside the set is omitted, but its descendants in the set are written, and
//!   so are its attribute and namespace nodes that are in the set (bare, as the specification
//!   processes the axes of omitted elements too);
//! - attributes and namespace nodes are written only if they are in the set; in inclusive modes
//!   a namespace node is written unless the nearest output ancestor has one in the set with
//!   the same prefix and URI, and `xmlns=""` when the element has no default namespace node in
//!   the set but that ancestor has one;
//! - Canonical XML 1.0 copies onto an element whose parent is omitted the `xml:` attributes
//!   (nearest occurrences among all ancestors) it does not have; 1.1 copies only `xml:lang`
//!   and `xml:space` from the omitted ancestors, never `xml:id`, and joins the omitted
//!   ancestors' `xml:base` values onto the element's (RFC 3986 resolution with the dot-segment
//!   removal of its Appendix A); exclusive mode copies nothing;
//! - exclusive mode renders the namespace nodes in the set that the element visibly uses (its
//!   own prefix, the default namespace when unprefixed, the prefixes of its attributes in the
//!   set), unless the nearest output ancestor using the prefix had the same URI with its node in
//!   the set; prefixes of the `InclusiveNamespaces PrefixList` are handled as in inclusive
//!   mode, `#default` being the default namespace;
//! - comments and PIs outside the document element keep their line feed on the element's
//!   side even when the element is omitted.
//!
//! ```
//! use xwire::c14n::{self, C14nOptions, Mode};
//! use xwire::tree::Document;
//! use xwire::xpath::{Namespaces, XPath};
//!
//! let doc = Document::parse(
//!     br#"<env xmlns="urn:e" xmlns:p="urn:p" xml:lang="en"><body p:id="b"><p:x>1</p:x></body></env>"#,
//! )?;
//! let ns = Namespaces::new().with("e", "urn:e");
//! let body = XPath::compile_with("(//. | //@* | //namespace::*)[ancestor-or-self::e:body]", &ns)?;
//! let mut out = Vec::new();
//! c14n::canonicalize_xpath(&doc, &body, &C14nOptions::default(), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     r#"<body xmlns="urn:e" xmlns:p="urn:p" xml:lang="en" p:id="b"><p:x>1</p:x></body>"#
//! );
//! let mut out = Vec::new();
//! c14n::canonicalize_xpath(&doc, &body, &C14nOptions::new(Mode::exclusive(""), false), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     r#"<body xmlns="urn:e" xmlns:p="urn:p" p:id="b"><p:x>1</p:x></body>"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [Canonical XML 1.0]: https://www.w3.org/TR/2001/REC-xml-c14n-20010315
//! [Canonical XML 1.1]: https://www.w3.org/TR/2008/REC-xml-c14n11-20080502/
//! [Exclusive XML Canonicalization 1.0]: https://www.w3.org/TR/2002/REC-xml-exc-c14n-20020718/

use std::cmp::Ordering;
use std::fmt;
use std::io::Write;
use std::ops::Range;

use crate::error::{Error, ErrorKind};
use crate::reader::event::{Attribute, StartTag};
use crate::reader::{NsId, Reader};
use crate::Event;

mod base;
mod subset;

pub use subset::{
    canonicalize_subset, canonicalize_subtree, canonicalize_xpath, subtree_nodes, xpath_filter,
    NodeSet,
};

/// Which canonicalization algorithm to apply.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Mode {
    /// Canonical XML 1.0 (inclusive): every namespace binding in scope is rendered where it
    /// first appears or changes.
    #[default]
    Inclusive,
    /// Canonical XML 1.1. Identical to [`Mode::Inclusive`] on whole documents; kept apart so the
    /// algorithm a caller asked for is known (see [`C14nOptions::algorithm_uri`]).
    Inclusive11,
    /// Exclusive XML Canonicalization 1.0.
    Exclusive {
        /// The `InclusiveNamespaces PrefixList`: prefixes handled as in inclusive mode, with
        /// `#default` for the default namespace.
        inclusive_prefixes: Vec<String>,
    },
}

impl Mode {
    /// Exclusive mode with the prefixes of a white-space separated `PrefixList`
    /// (`"soap #default"`).
    pub fn exclusive(prefix_list: &str) -> Mode {
        Mode::Exclusive {
            inclusive_prefixes: prefix_list
                .split_ascii_whitespace()
                .map(str::to_string)
                .collect(),
        }
    }
}

impl Mode {
    /// `Some` in exclusive mode: the prefixes of the `InclusiveNamespaces PrefixList`, with
    /// `""` for `#default`.
    fn exclusive_prefixes(&self) -> Option<Vec<String>> {
        match self {
            Mode::Exclusive { inclusive_prefixes } => Some(
                inclusive_prefixes
                    .iter()
                    .map(|p| {
                        if p == "#default" {
                            String::new()
                        } else {
                            p.clone()
                        }
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// How to canonicalize.
///
/// ```
/// let o = xwire::c14n::C14nOptions::default();
/// assert!(!o.with_comments);
/// assert_eq!(o.mode, xwire::c14n::Mode::Inclusive);
/// assert_eq!(o.algorithm_uri(), "http://www.w3.org/TR/2001/REC-xml-c14n-20010315");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct C14nOptions {
    /// Keep comments (the `#WithComments` variants). Default false.
    pub with_comments: bool,
    /// The algorithm. Default [`Mode::Inclusive`] (Canonical XML 1.0).
    pub mode: Mode,
}

const C14N10: &str = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const C14N11: &str = "http://www.w3.org/2006/12/xml-c14n11";
const EXC_C14N: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";

impl C14nOptions {
    /// Options with a mode and the comments choice.
    pub fn new(mode: Mode, with_comments: bool) -> C14nOptions {
        C14nOptions {
            with_comments,
            mode,
        }
    }

    /// The options an XML Signature algorithm URI stands for (`CanonicalizationMethod` or
    /// `Transform`), or `None` for an unknown URI. Exclusive mode starts with an empty prefix list.
    ///
    /// ```
    /// use xwire::c14n::{C14nOptions, Mode};
    /// let o = C14nOptions::from_algorithm_uri("http://www.w3.org/2001/10/xml-exc-c14n#WithComments").unwrap();
    /// assert!(o.with_comments);
    /// assert_eq!(o.mode, Mode::Exclusive { inclusive_prefixes: vec![] });
    /// assert_eq!(o.algorithm_uri(), "http://www.w3.org/2001/10/xml-exc-c14n#WithComments");
    /// ```
    pub fn from_algorithm_uri(uri: &str) -> Option<C14nOptions> {
        let (base, with_comments) = match uri.strip_suffix("#WithComments") {
            Some(b) if b == C14N10 || b == C14N11 => (b, true),
            Some(b) if format!("{b}#") == EXC_C14N => (EXC_C14N, true),
            _ => (uri, false),
        };
        let mode = match base {
            C14N10 => Mode::Inclusive,
            C14N11 => Mode::Inclusive11,
            EXC_C14N => Mode::Exclusive {
                inclusive_prefixes: Vec::new(),
            },
            _ => return None,
        };
        Some(C14nOptions {
            with_comments,
            mode,
        })
    }

    /// The algorithm URI of these options, as XML Signature names it.
    pub fn algorithm_uri(&self) -> &'static str {
        match (&self.mode, self.with_comments) {
            (Mode::Inclusive, false) => C14N10,
            (Mode::Inclusive, true) => {
                "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments"
            }
            (Mode::Inclusive11, false) => C14N11,
            (Mode::Inclusive11, true) => "http://www.w3.org/2006/12/xml-c14n11#WithComments",
            (Mode::Exclusive { .. }, false) => EXC_C14N,
            (Mode::Exclusive { .. }, true) => "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
        }
    }
}

/// Why canonicalization stopped: the document is bad (an [`Error`] of the reader, with its
/// location; also for relative namespace URIs), or writing the output failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum C14nError {
    /// The document is not well-formed, breaks a namespace constraint, a limit, or cannot be
    /// canonicalized (relative namespace URI, reported as [`ErrorKind::Namespace`]).
    Xml(Error),
    /// Writing the output failed.
    Io(std::io::Error),
    /// A namespace node of a document subset cannot be canonicalized (relative URI).
    Namespace(String),
    /// The XPath expression selecting a document subset failed.
    XPath(crate::xpath::XPathError),
}

impl fmt::Display for C14nError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            C14nError::Xml(e) => e.fmt(f),
            C14nError::Io(e) => write!(f, "cannot write canonical output: {e}"),
            C14nError::Namespace(m) => f.write_str(m),
            C14nError::XPath(e) => write!(f, "cannot select the document subset: {e}"),
        }
    }
}

impl std::error::Error for C14nError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            C14nError::Xml(e) => Some(e),
            C14nError::Io(e) => Some(e),
            C14nError::Namespace(_) => None,
            C14nError::XPath(e) => Some(e),
        }
    }
}

impl From<Error> for C14nError {
    fn from(e: Error) -> C14nError {
        C14nError::Xml(e)
    }
}

impl From<std::io::Error> for C14nError {
    fn from(e: std::io::Error) -> C14nError {
        C14nError::Io(e)
    }
}

/// Canonicalizes the document in `xml` (any encoding the reader detects) into `out`. No external
/// entity is loaded; use [`canonicalize_reader`] with a configured [`Reader`] for that.
pub fn canonicalize(xml: &[u8], options: &C14nOptions, out: impl Write) -> Result<(), C14nError> {
    Canonicalizer::new(options.clone()).canonicalize(&mut Reader::from_slice(xml), out)
}

/// Canonicalizes the rest of the document `reader` reads into `out` (the reader should not have
/// passed the document element's start tag yet). The reader's configuration applies: resolver,
/// limits, base URI. It must process namespaces (the default).
pub fn canonicalize_reader(
    reader: &mut Reader<'_>,
    options: &C14nOptions,
    out: impl Write,
) -> Result<(), C14nError> {
    Canonicalizer::new(options.clone()).canonicalize(reader, out)
}

/// [`canonicalize`] into a new vector.
pub fn to_vec(xml: &[u8], options: &C14nOptions) -> Result<Vec<u8>, C14nError> {
    let mut out = Vec::with_capacity(xml.len());
    canonicalize(xml, options, &mut out)?;
    Ok(out)
}

/// Bytes held before they are written out.
const FLUSH_AT: usize = 64 * 1024;

/// A reusable canonicalizer: keeps its buffers between documents, so canonicalizing many small
/// documents (signatures, messages) allocates nothing after the first.
///
/// ```
/// use xwire::c14n::{C14nOptions, Canonicalizer};
/// let mut c = Canonicalizer::new(C14nOptions::default());
/// for doc in [&b"<a b='1'/>"[..], b"<x:a xmlns:x='urn:x'/>"] {
///     let mut out = Vec::new();
///     c.canonicalize(&mut xwire::Reader::from_slice(doc), &mut out)?;
///     assert!(out.starts_with(b"<"));
/// }
/// # Ok::<(), xwire::c14n::C14nError>(())
/// ```
#[derive(Debug)]
pub struct Canonicalizer {
    options: C14nOptions,
    /// `Some` in exclusive mode: the prefixes of the `InclusiveNamespaces PrefixList` (`""` for
    /// `#default`).
    inclusive: Option<Vec<String>>,
    /// Output not yet written.
    buf: Vec<u8>,
    /// Namespace declarations rendered by the open elements, innermost last.
    rendered: Vec<NsDecl>,
    /// Prefixes and URIs of `rendered`.
    names: String,
    /// Per open element: lengths of `rendered` and `names` before it.
    marks: Vec<(usize, usize)>,
    /// Attributes rendered apart when they need sorting.
    scratch: Vec<u8>,
    sorted: Vec<AttrRec>,
}

#[derive(Debug, Clone)]
struct NsDecl {
    prefix: Range<usize>,
    uri: Range<usize>,
}

#[derive(Debug, Clone)]
struct AttrRec {
    uri: Range<usize>,
    local: Range<usize>,
    text: Range<usize>,
}

/// Where we are relative to the document element: comments and PIs are separated from it by
/// a line feed on its side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Before,
    Inside,
    After,
}

impl Canonicalizer {
    /// A canonicalizer for these options.
    pub fn new(options: C14nOptions) -> Canonicalizer {
        let inclusive = options.mode.exclusive_prefixes();
        Canonicalizer {
            options,
            inclusive,
            buf: Vec::new(),
            rendered: Vec::new(),
            names: String::new(),
            marks: Vec::new(),
            scratch: Vec::new(),
            sorted: Vec::new(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &C14nOptions {
        &self.options
    }

    /// Canonicalizes the rest of the document `reader` reads into `out`, then flushes `out`.
    pub fn canonicalize<W: Write>(
        &mut self,
        reader: &mut Reader<'_>,
        mut out: W,
    ) -> Result<(), C14nError> {
        self.buf.clear();
        self.rendered.clear();
        self.names.clear();
        self.marks.clear();
        let result = self.run(reader, &mut out);
        if result.is_ok() {
            out.write_all(&self.buf)?;
            out.flush()?;
        }
        self.buf.clear();
        result
    }

    fn run<W: Write>(&mut self, reader: &mut Reader<'_>, out: &mut W) -> Result<(), C14nError> {
        let mut place = Place::Before;
        // Binary input reports text as character data (`Text::raw` is not markup).
        let markup = !reader.is_binary();
        loop {
            let bad_uri = match reader.next()? {
                Event::Start(tag) => {
                    place = Place::Inside;
                    self.start(&tag).err()
                }
                Event::End(tag) => {
                    self.buf.extend_from_slice(b"</");
                    self.buf.extend_from_slice(tag.name().as_bytes());
                    self.buf.push(b'>');
                    let (r, n) = self.marks.pop().unwrap_or_default();
                    self.rendered.truncate(r);
                    self.names.truncate(n);
                    if self.marks.is_empty() {
                        place = Place::After;
                    }
                    None
                }
                Event::Text(t) if place == Place::Inside => {
                    if t.is_plain() && markup {
                        // Nothing was expanded or normalised, so no `&`, `<` or CR can be there.
                        escape_gt(&mut self.buf, t.raw().as_bytes());
                    } else {
                        escape(&mut self.buf, t.unescape().as_bytes(), &TEXT);
                    }
                    None
                }
                Event::CData(t) => {
                    escape(&mut self.buf, t.text().as_bytes(), &TEXT);
                    None
                }
                Event::Comment(c) if self.options.with_comments => {
                    write_comment(&mut self.buf, place, &c.text());
                    None
                }
                Event::Pi(pi) => {
                    write_pi(&mut self.buf, place, pi.target(), &pi.data());
                    None
                }
                Event::Eof => return Ok(()),
                _ => None,
            };
            if let Some(uri) = bad_uri {
                return Err(relative_uri_error(reader, &uri));
            }
            if self.buf.len() >= FLUSH_AT {
                out.write_all(&self.buf)?;
                self.buf.clear();
            }
        }
    }

    /// Writes a start tag. Fails with the offending URI on a relative namespace URI.
    fn start(&mut self, tag: &StartTag<'_>) -> Result<(), String> {
        let mark = self.rendered.len();
        self.marks.push((mark, self.names.len()));
        let exclusive = self.inclusive.is_some();
        if exclusive {
            // The element's own prefix (or the default namespace) is always visibly utilised.
            self.consider(tag.prefix().unwrap_or(""), tag.namespace_uri());
        }
        // One pass: namespace declarations, prefixes used by attributes, and whether the
        // attributes are already in canonical order.
        let mut in_order = true;
        let mut prev: Option<Attribute<'_>> = None;
        for a in tag.attributes() {
            if a.is_namespace_decl() {
                let uri = a.value();
                if is_relative(uri) {
                    return Err(uri.to_string());
                }
                let prefix = if a.prefix().is_some() {
                    a.local_name()
                } else {
                    ""
                };
                if !exclusive
                    || self
                        .inclusive
                        .as_ref()
                        .is_some_and(|l| l.iter().any(|p| p == prefix))
                {
                    self.consider(prefix, uri);
                }
                continue;
            }
            if exclusive {
                if let Some(p) = a.prefix() {
                    self.consider(p, a.namespace_uri());
                }
            }
            if let Some(p) = prev {
                in_order &= attr_order(&p, &a) == Ordering::Less;
            }
            prev = Some(a);
        }

        self.buf.push(b'<');
        self.buf.extend_from_slice(tag.name().as_bytes());
        if self.rendered.len() > mark {
            let names = &self.names;
            let key = |d: &NsDecl| &names.as_bytes()[d.prefix.clone()];
            self.rendered[mark..].sort_unstable_by(|a, b| key(a).cmp(key(b)));
            for d in &self.rendered[mark..] {
                let names = self.names.as_bytes();
                write_ns(
                    &mut self.buf,
                    &names[d.prefix.clone()],
                    &names[d.uri.clone()],
                );
            }
        }
        if in_order {
            for a in tag.attributes().filter(|a| !a.is_namespace_decl()) {
                write_attr(&mut self.buf, &a);
            }
        } else {
            self.write_sorted(tag);
        }
        self.buf.push(b'>');
        Ok(())
    }

    /// Renders a namespace binding on the current element unless the nearest output ancestor
    /// that rendered the prefix rendered the same URI (an unrendered default counts as empty).
    fn consider(&mut self, prefix: &str, uri: &str) {
        if prefix == "xml" {
            return;
        }
        let names = self.names.as_bytes();
        let current = self
            .rendered
            .iter()
            .rev()
            .find(|d| &names[d.prefix.clone()] == prefix.as_bytes());
        let current = current.map_or(&[][..], |d| &names[d.uri.clone()]);
        // (Empty first: an unprefixed element outside any namespace is the common case.)
        if current.len() == uri.len() && (uri.is_empty() || current == uri.as_bytes()) {
            return;
        }
        let p = self.names.len();
        self.names.push_str(prefix);
        let u = self.names.len();
        self.names.push_str(uri);
        self.rendered.push(NsDecl {
            prefix: p..u,
            uri: u..self.names.len(),
        });
    }

    /// The slow path for attributes out of canonical order: render each apart, sort, copy.
    #[cold]
    fn write_sorted(&mut self, tag: &StartTag<'_>) {
        self.scratch.clear();
        self.sorted.clear();
        for a in tag.attributes().filter(|a| !a.is_namespace_decl()) {
            let s = &mut self.scratch;
            let uri = push_str(s, a.namespace_uri());
            let local = push_str(s, a.local_name());
            let start = s.len();
            write_attr(s, &a);
            self.sorted.push(AttrRec {
                uri,
                local,
                text: start..s.len(),
            });
        }
        let s = &self.scratch;
        self.sorted.sort_unstable_by(|a, b| {
            (&s[a.uri.clone()], &s[a.local.clone()]).cmp(&(&s[b.uri.clone()], &s[b.local.clone()]))
        });
        for r in &self.sorted {
            self.buf.extend_from_slice(&self.scratch[r.text.clone()]);
        }
    }
}

fn push_str(v: &mut Vec<u8>, s: &str) -> Range<usize> {
    let start = v.len();
    v.extend_from_slice(s.as_bytes());
    start..v.len()
}

/// Canonical order of attributes: namespace URI (none first), then local name.
#[inline]
fn attr_order(a: &Attribute<'_>, b: &Attribute<'_>) -> Ordering {
    let by_ns = if a.ns() == b.ns() {
        Ordering::Equal
    } else if a.ns() == NsId::NONE {
        Ordering::Less
    } else if b.ns() == NsId::NONE {
        Ordering::Greater
    } else {
        a.namespace_uri().cmp(b.namespace_uri())
    };
    by_ns.then_with(|| a.local_name().cmp(b.local_name()))
}

#[inline]
fn write_attr(buf: &mut Vec<u8>, a: &Attribute<'_>) {
    write_attr_value(buf, "", a.name(), a.value());
}

/// Writes ` prefix:local="value"` (no prefix when `prefix` is empty).
#[inline]
fn write_attr_value(buf: &mut Vec<u8>, prefix: &str, local: &str, value: &str) {
    buf.push(b' ');
    if !prefix.is_empty() {
        buf.extend_from_slice(prefix.as_bytes());
        buf.push(b':');
    }
    buf.extend_from_slice(local.as_bytes());
    buf.extend_from_slice(b"=\"");
    escape(buf, value.as_bytes(), &ATTR);
    buf.push(b'"');
}

/// Writes a namespace declaration: ` xmlns="uri"` for the empty prefix, else ` xmlns:p="uri"`.
fn write_ns(buf: &mut Vec<u8>, prefix: &[u8], uri: &[u8]) {
    buf.extend_from_slice(b" xmlns");
    if !prefix.is_empty() {
        buf.push(b':');
        buf.extend_from_slice(prefix);
    }
    buf.extend_from_slice(b"=\"");
    escape(buf, uri, &ATTR);
    buf.push(b'"');
}

/// Writes a comment or PI, with the line feed that separates it from the document element.
#[inline]
fn around(buf: &mut Vec<u8>, place: Place, write: impl FnOnce(&mut Vec<u8>)) {
    if place == Place::After {
        buf.push(b'\n');
    }
    write(buf);
    if place == Place::Before {
        buf.push(b'\n');
    }
}

fn write_comment(buf: &mut Vec<u8>, place: Place, text: &str) {
    around(buf, place, |buf| {
        buf.extend_from_slice(b"<!--");
        buf.extend_from_slice(text.as_bytes());
        buf.extend_from_slice(b"-->");
    });
}

/// `<?target data?>`, with no space when the data is empty.
fn write_pi(buf: &mut Vec<u8>, place: Place, target: &str, data: &str) {
    around(buf, place, |buf| {
        buf.extend_from_slice(b"<?");
        buf.extend_from_slice(target.as_bytes());
        if !data.is_empty() {
            buf.push(b' ');
            buf.extend_from_slice(data.as_bytes());
        }
        buf.extend_from_slice(b"?>");
    });
}

/// The message for a namespace URI that cannot be canonicalized.
fn relative_uri_message(uri: &str) -> String {
    format!(
        "relative namespace URI \"{uri}\" cannot be canonicalized (Canonical XML 1.0 section 2)"
    )
}

#[cold]
fn relative_uri_error(reader: &mut Reader<'_>, uri: &str) -> C14nError {
    C14nError::Xml(Error::new(
        ErrorKind::Namespace(relative_uri_message(uri)),
        reader.location(),
    ))
}

/// Whether a namespace URI is a relative reference: not empty and without a scheme
/// (RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
fn is_relative(uri: &str) -> bool {
    let b = uri.as_bytes();
    if b.is_empty() {
        return false;
    }
    let scheme_len = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')));
    !(b[0].is_ascii_alphabetic() && scheme_len.is_some_and(|n| b[n] == b':'))
}

/// Which bytes to escape, and how: `class[b]` is 0 for a byte copied as is, else 1 + the index
/// of its replacement.
struct Table {
    class: [u8; 256],
    replacements: &'static [&'static [u8]],
}

const fn table(bytes: &[u8], replacements: &'static [&'static [u8]]) -> Table {
    let mut class = [0u8; 256];
    let mut i = 0;
    while i < bytes.len() {
        class[bytes[i] as usize] = i as u8 + 1;
        i += 1;
    }
    Table {
        class,
        replacements,
    }
}

/// Text nodes: `& < > CR`.
static TEXT: Table = table(b"&<>\r", &[b"&amp;", b"&lt;", b"&gt;", b"&#xD;"]);

/// Attribute values: `& < " TAB LF CR`.
static ATTR: Table = table(
    b"&<\"\t\n\r",
    &[b"&amp;", b"&lt;", b"&quot;", b"&#x9;", b"&#xA;", b"&#xD;"],
);

/// Appends `s` with the bytes the table names replaced, copying clean runs whole.
#[inline]
fn escape(buf: &mut Vec<u8>, s: &[u8], table: &Table) {
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        let c = table.class[b as usize];
        if c != 0 {
            buf.extend_from_slice(&s[start..i]);
            buf.extend_from_slice(table.replacements[c as usize - 1]);
            start = i + 1;
        }
    }
    buf.extend_from_slice(&s[start..]);
}

/// Appends text that can hold no `&`, `<` or CR: only `>` needs escaping.
#[inline]
fn escape_gt(buf: &mut Vec<u8>, s: &[u8]) {
    let mut start = 0;
    for i in memchr::memchr_iter(b'>', s) {
        buf.extend_from_slice(&s[start..i]);
        buf.extend_from_slice(b"&gt;");
        start = i + 1;
    }
    buf.extend_from_slice(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c14n(xml: &str, options: &C14nOptions) -> String {
        String::from_utf8(to_vec(xml.as_bytes(), options).unwrap()).unwrap()
    }

    fn inc(xml: &str) -> String {
        c14n(xml, &C14nOptions::default())
    }

    fn exc(xml: &str, prefixes: &str) -> String {
        c14n(xml, &C14nOptions::new(Mode::exclusive(prefixes), false))
    }

    #[test]
    fn escapes_text_and_attributes() {
        assert_eq!(
            inc("<a b='&lt;&amp;&quot;&#9;&#10;&#13;>'>&lt;&amp;&gt;&#13;\"'</a>"),
            "<a b=\"&lt;&amp;&quot;&#x9;&#xA;&#xD;>\">&lt;&amp;&gt;&#xD;\"'</a>"
        );
        assert_eq!(inc("<a>x > y</a>"), "<a>x &gt; y</a>");
    }

    #[test]
    fn prolog_and_epilog_spacing() {
        let xml = "<?xml version='1.0'?>\n<!--c1--><?p d?>\n<!DOCTYPE a>\n<a><!--in--></a>\n<!--c2-->\n<?q?>\n";
        assert_eq!(inc(xml), "<?p d?>\n<a></a>\n<?q?>");
        assert_eq!(
            c14n(xml, &C14nOptions::new(Mode::Inclusive, true)),
            "<!--c1-->\n<?p d?>\n<a><!--in--></a>\n<!--c2-->\n<?q?>"
        );
    }

    #[test]
    fn sorts_namespaces_and_attributes() {
        let xml = "<a xmlns:z='urn:a' xmlns='urn:d' xmlns:b='urn:z' b:x='1' z:x='2' y='3' x='4'/>";
        assert_eq!(
            inc(xml),
            r#"<a xmlns="urn:d" xmlns:b="urn:z" xmlns:z="urn:a" x="4" y="3" z:x="2" b:x="1"></a>"#
        );
    }

    #[test]
    fn drops_superfluous_declarations() {
        let xml = "<a xmlns:p='urn:p'><b xmlns:p='urn:p' xmlns=''><c xmlns='urn:d'><d xmlns=''/></c></b></a>";
        assert_eq!(
            inc(xml),
            r#"<a xmlns:p="urn:p"><b><c xmlns="urn:d"><d xmlns=""></d></c></b></a>"#
        );
    }

    #[test]
    fn exclusive_renders_where_used() {
        let xml = "<a xmlns='urn:d' xmlns:p='urn:p' xmlns:q='urn:q'><b p:x='1'><p:c/></b><q:d xmlns:q='urn:q2'/></a>";
        assert_eq!(
            exc(xml, ""),
            r#"<a xmlns="urn:d"><b xmlns:p="urn:p" p:x="1"><p:c></p:c></b><q:d xmlns:q="urn:q2"></q:d></a>"#
        );
        assert_eq!(
            exc(xml, "q"),
            r#"<a xmlns="urn:d" xmlns:q="urn:q"><b xmlns:p="urn:p" p:x="1"><p:c></p:c></b><q:d xmlns:q="urn:q2"></q:d></a>"#
        );
    }

    #[test]
    fn exclusive_default_namespace() {
        let xml =
            "<a xmlns='urn:d'><b xmlns=''><c/></b><p:e xmlns:p='urn:p'><f xmlns=''/></p:e></a>";
        assert_eq!(
            exc(xml, ""),
            r#"<a xmlns="urn:d"><b xmlns=""><c></c></b><p:e xmlns:p="urn:p"><f xmlns=""></f></p:e></a>"#
        );
        // An undeclaration is rendered only to undo a rendered non-empty default.
        assert_eq!(exc("<a><b xmlns=''/></a>", "#default"), "<a><b></b></a>");
    }

    #[test]
    fn relative_namespace_uri_is_an_error() {
        let err = to_vec(b"<a>\n<b xmlns:r='../x'/></a>", &C14nOptions::default()).unwrap_err();
        let C14nError::Xml(e) = err else {
            panic!("{err}")
        };
        assert_eq!(e.location().line, 2);
        assert!(e.to_string().contains("relative namespace URI"));
        assert!(to_vec(
            b"<a xmlns='urn:x' xmlns:b='http://x/y'/>",
            &C14nOptions::default()
        )
        .is_ok());
        assert!(
            is_relative("x")
                && is_relative("1a:b")
                && is_relative("#f")
                && !is_relative("a+b.c-d:e")
        );
    }

    #[test]
    fn algorithm_uris_round_trip() {
        for uri in [
            "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
            "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments",
            "http://www.w3.org/2006/12/xml-c14n11",
            "http://www.w3.org/2006/12/xml-c14n11#WithComments",
            "http://www.w3.org/2001/10/xml-exc-c14n#",
            "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
        ] {
            assert_eq!(
                C14nOptions::from_algorithm_uri(uri)
                    .unwrap()
                    .algorithm_uri(),
                uri
            );
        }
        assert!(C14nOptions::from_algorithm_uri("urn:nope").is_none());
    }

    #[test]
    fn unread_external_entity_in_text_gives_nothing() {
        // Text::unescape used to panic on a reference to an external entity without a resolver.
        let xml = "<!DOCTYPE d [<!ENTITY e SYSTEM 'e.txt'><!ENTITY i 'I'>]><d>&i;, &e;!</d>";
        assert_eq!(inc(xml), "<d>I, !</d>");
    }

    #[test]
    fn streaming_reader_gives_the_same_bytes() {
        let xml =
            "<?p?><r xmlns:a='urn:a'><a:e a:z='1' y='&amp;'>t&gt;<![CDATA[c]]></a:e></r><!--x-->";
        let config = crate::Config {
            chunk_size: 7,
            ..Default::default()
        };
        let mut reader = Reader::from_reader(xml.as_bytes(), config);
        let mut out = Vec::new();
        canonicalize_reader(&mut reader, &C14nOptions::default(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), inc(xml));
    }

    #[test]
    fn flushes_large_output_in_order() {
        let mut xml = String::from("<r>");
        for i in 0..20_000 {
            xml.push_str(&format!("<e b='{i}' a='x'>t&amp;</e>"));
        }
        xml.push_str("</r>");
        let out = inc(&xml);
        assert!(out.starts_with("<r><e a=\"x\" b=\"0\">t&amp;</e>"));
        assert!(out.ends_with("<e a=\"x\" b=\"19999\">t&amp;</e></r>"));
    }
}
