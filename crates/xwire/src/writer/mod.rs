//! The streaming writer: the one serializer of xwire.
//!
//! [`Writer`] takes names and values, not pre-formatted text, and refuses to produce anything
//! that is not well-formed XML 1.0 with namespaces: bad names, characters outside `Char`, `--`
//! in comments, `?>` in PIs, unbalanced elements, a second root, an undeclared prefix. It
//! escapes text and attribute values (so they read back as written, `\r`, tabs and newlines in
//! attributes included), declares the namespaces it needs (namespace repairing) and can indent
//! element-only content.
//!
//! A start tag is kept open until its first content or its end, so attributes and namespace
//! declarations can be added in any order and checked together (duplicates by expanded name,
//! prefixes bound on the same tag).
//!
//! ```
//! use xwire::writer::Writer;
//!
//! let mut w = Writer::new(Vec::new());
//! w.start_element_ns("urn:po", "order", Some("po"))?;
//! w.attribute("id", "7 < 8")?;
//! w.start_element_ns("urn:po", "item", None)?;
//! w.text("Bolts & nuts")?;
//! w.end_element()?;
//! w.end_element()?;
//! let xml = w.finish()?;
//! assert_eq!(
//!     String::from_utf8(xml).unwrap(),
//!     r#"<po:order xmlns:po="urn:po" id="7 &lt; 8"><po:item>Bolts &amp; nuts</po:item></po:order>"#
//! );
//! # Ok::<(), xwire::writer::WriteError>(())
//! ```

// The parts both writers share: they import nothing of this file, and the binary writer
// takes them from their own files (scripts/layers.txt lists each on its own line, so
// scripts/layers.sh fails if one imports either writer).
pub(crate) mod check;
pub(crate) mod error;
pub(crate) mod escape;
pub(crate) mod scope;
pub(crate) mod sink;
pub(crate) mod tag;

use std::io::Write;
use std::ops::Range;

use crate::binary::{Array, TypedValue};
use crate::chars;
use crate::reader::event::Event;
use check::{check_comment, check_ncname, check_ns_name, check_pi, prefix_of, split_qname};
use error::Result;
pub use error::WriteError;
use escape::{check_chars, escape_into, Context};
use scope::NsScope;
use sink::delegate;
pub use sink::XmlSink;
use tag::{attribute_name, AttributeName, NameSpec, PendingAttr, PendingTag};

/// How the writer formats.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WriterConfig {
    /// Indent element-only content with this string per level (`None`: write as given).
    /// White-space-only text is then replaced by the indentation, except under
    /// `xml:space="preserve"` and inside elements that already have other text.
    pub indent: Option<String>,
    /// Write `<a/>` for an element with no content (else `<a></a>`).
    pub self_close_empty: bool,
    /// Declare the namespaces that elements and attributes written by URI need.
    pub repair_namespaces: bool,
}

impl Default for WriterConfig {
    fn default() -> WriterConfig {
        WriterConfig {
            indent: None,
            self_close_empty: true,
            repair_namespaces: true,
        }
    }
}

impl WriterConfig {
    /// The default configuration with indentation by `indent`.
    pub fn pretty(indent: &str) -> WriterConfig {
        WriterConfig {
            indent: Some(indent.to_string()),
            ..WriterConfig::default()
        }
    }
}

/// Where the document is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    /// Nothing written yet (an XML declaration may still come).
    Start,
    /// After the declaration or doctype, before the root.
    Prolog,
    /// Inside the root element.
    Root,
    /// After the root element.
    Epilog,
}

/// An open element.
struct Open {
    /// Its qualified name in `names`.
    name: Range<usize>,
    /// Length of `bindings` before its declarations.
    mark: usize,
    /// It has child elements, comments or PIs (for indentation).
    children: bool,
    /// It has text other than indentation: no more indentation inside it.
    text: bool,
    /// `xml:space="preserve"` applies.
    preserve: bool,
}

/// A streaming XML writer over any [`Write`] sink. See the [module documentation](self).
pub struct Writer<W: Write> {
    out: W,
    buf: Vec<u8>,
    config: WriterConfig,
    place: Place,
    stack: Vec<Open>,
    /// Qualified names of open elements.
    names: String,
    /// The namespace bindings in scope.
    scope: NsScope,
    /// The start tag being built, if any.
    tag: PendingTag,
    /// Resolved qualified names of the pending tag's attributes, and their spans.
    qnames: String,
    done: Vec<Range<usize>>,
}

// XmlSink, by the inherent methods below.
delegate!(Writer);

const FLUSH_AT: usize = 64 * 1024;

impl<W: Write> Writer<W> {
    /// A writer with the default configuration (no indentation, `<a/>` for empty elements,
    /// namespace repairing on).
    pub fn new(out: W) -> Writer<W> {
        Writer::with_config(out, WriterConfig::default())
    }

    /// A writer with a configuration.
    pub fn with_config(out: W, config: WriterConfig) -> Writer<W> {
        Writer {
            out,
            buf: Vec::with_capacity(FLUSH_AT + 4096),
            config,
            place: Place::Start,
            stack: Vec::new(),
            names: String::new(),
            scope: NsScope::new(),
            tag: PendingTag::default(),
            qnames: String::new(),
            done: Vec::new(),
        }
    }

    /// Writes the XML declaration. Only as the very first thing.
    pub fn xml_declaration(
        &mut self,
        version: &str,
        encoding: Option<&str>,
        standalone: Option<bool>,
    ) -> Result<()> {
        if self.place != Place::Start {
            return Err(WriteError::Misplaced(
                "the XML declaration must be the first thing in the document",
            ));
        }
        if version != "1.0" {
            return Err(WriteError::InvalidName(
                "XML version (this writer writes 1.0)",
                version.into(),
            ));
        }
        self.buf.extend_from_slice(b"<?xml version=\"1.0\"");
        if let Some(e) = encoding {
            let ok = e.starts_with(|c: char| c.is_ascii_alphabetic())
                && e.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            if !ok {
                return Err(WriteError::InvalidName("encoding name", e.into()));
            }
            self.buf.extend_from_slice(b" encoding=\"");
            self.buf.extend_from_slice(e.as_bytes());
            self.buf.push(b'"');
        }
        if let Some(s) = standalone {
            self.buf.extend_from_slice(if s {
                b" standalone=\"yes\""
            } else {
                b" standalone=\"no\""
            });
        }
        self.buf.extend_from_slice(b"?>");
        self.place = Place::Prolog;
        Ok(())
    }

    /// Writes a document type declaration (before the root element, once). The internal
    /// subset, if any, is written as given: it is the caller's markup.
    pub fn doctype(
        &mut self,
        name: &str,
        public_id: Option<&str>,
        system_id: Option<&str>,
        internal_subset: Option<&str>,
    ) -> Result<()> {
        if self.place == Place::Root || self.place == Place::Epilog {
            return Err(WriteError::Misplaced(
                "the doctype must come before the root element",
            ));
        }
        if !chars::is_name(name) {
            return Err(WriteError::InvalidName("doctype name", name.into()));
        }
        self.newline_at_top();
        self.buf.extend_from_slice(b"<!DOCTYPE ");
        self.buf.extend_from_slice(name.as_bytes());
        let quoted = |buf: &mut Vec<u8>, s: &str| -> Result<()> {
            let q = if s.contains('"') { b'\'' } else { b'"' };
            if s.contains('"') && s.contains('\'') {
                return Err(WriteError::InvalidName("system literal", s.into()));
            }
            check_chars(s)?;
            buf.push(b' ');
            buf.push(q);
            buf.extend_from_slice(s.as_bytes());
            buf.push(q);
            Ok(())
        };
        match (public_id, system_id) {
            (Some(p), Some(s)) => {
                if !p.chars().all(is_pubid_char) {
                    return Err(WriteError::InvalidName("public identifier", p.into()));
                }
                self.buf.extend_from_slice(b" PUBLIC");
                quoted(&mut self.buf, p)?;
                quoted(&mut self.buf, s)?;
            }
            (None, Some(s)) => {
                self.buf.extend_from_slice(b" SYSTEM");
                quoted(&mut self.buf, s)?;
            }
            (Some(p), None) => {
                return Err(WriteError::InvalidName(
                    "doctype without a system id, public id",
                    p.into(),
                ))
            }
            (None, None) => {}
        }
        if let Some(subset) = internal_subset.filter(|s| !s.is_empty()) {
            check_chars(subset)?;
            self.buf.extend_from_slice(b" [");
            self.buf.extend_from_slice(subset.as_bytes());
            self.buf.push(b']');
        }
        self.buf.push(b'>');
        self.place = Place::Prolog;
        Ok(())
    }

    /// Starts an element named by a qualified name as written (`soap:Envelope`). Its prefix
    /// must be declared in scope or on this element (with [`Writer::namespace`]).
    pub fn start_element(&mut self, qname: &str) -> Result<()> {
        let (p, l) = split_qname(qname)
            .ok_or_else(|| WriteError::InvalidName("element name (QName)", qname.into()))?;
        self.start_qname(p, l)
    }

    /// `start_element` for a name already split and known to be a QName (from the reader).
    pub(crate) fn start_qname(&mut self, prefix: &str, local: &str) -> Result<()> {
        self.open_start()?;
        self.tag.set_qname(prefix, local);
        Ok(())
    }

    /// Starts an element in namespace `uri` (`""`: no namespace). With repairing on, the
    /// writer uses a prefix already bound to `uri` (preferring `prefix`), or declares one:
    /// `prefix`, or the default namespace when `prefix` is `None`.
    pub fn start_element_ns(&mut self, uri: &str, local: &str, prefix: Option<&str>) -> Result<()> {
        check_ns_name("element local name", local, prefix)?;
        self.open_start()?;
        self.tag.set_ns(uri, local, prefix);
        Ok(())
    }

    /// Adds an attribute by qualified name to the element just started. A prefix must be
    /// declared; `xmlns` attributes are written with [`Writer::namespace`].
    pub fn attribute(&mut self, qname: &str, value: &str) -> Result<()> {
        match attribute_name(qname)? {
            AttributeName::Namespace(prefix) => self.namespace(prefix, value),
            AttributeName::Attribute(p, l) => self.attribute_qname(p, l, value),
        }
    }

    /// `attribute` for a name already split, known to be a QName and not a namespace
    /// declaration (from the reader).
    pub(crate) fn attribute_qname(&mut self, prefix: &str, local: &str, value: &str) -> Result<()> {
        self.tag.add_qname(prefix, local, value)
    }

    /// Adds an attribute in namespace `uri` (`""`: none) to the element just started; with
    /// repairing on, a prefix bound to `uri` is used (preferring `prefix`) or declared
    /// (`prefix`, else a generated `ns1`, `ns2`, ...).
    pub fn attribute_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<()> {
        check_ns_name("attribute local name", local, prefix)?;
        self.tag.add_ns(uri, local, prefix, value)
    }

    /// Declares a namespace on the element just started: `prefix` (`None`: the default
    /// namespace) bound to `uri`. A declaration identical to the binding in scope is not
    /// written again.
    pub fn namespace(&mut self, prefix: Option<&str>, uri: &str) -> Result<()> {
        self.tag.check_open()?;
        let prefix = prefix.unwrap_or("");
        if !prefix.is_empty() {
            check_ncname("prefix", prefix)?;
        }
        let mark = self.stack.last().map_or(scope::BASE, |o| o.mark);
        self.scope.namespace(mark, prefix, uri)
    }

    /// Writes character data, escaped.
    pub fn text(&mut self, text: &str) -> Result<()> {
        if self.stack.is_empty() {
            if chars::is_all_whitespace(text.as_bytes()) {
                if self.config.indent.is_none() {
                    self.buf.extend_from_slice(text.as_bytes());
                }
                return Ok(());
            }
            return Err(WriteError::TextOutsideRoot);
        }
        if text.is_empty() {
            return Ok(());
        }
        self.flush_start(false)?;
        let open = self.stack.last_mut().expect("inside the root");
        if self.config.indent.is_some()
            && !open.preserve
            && !open.text
            && chars::is_all_whitespace(text.as_bytes())
        {
            // Indentation replaces white space between elements.
            return Ok(());
        }
        open.text = true;
        escape_into(&mut self.buf, text, Context::Text)?;
        self.maybe_flush()
    }

    /// Writes a CDATA section. `]]>` inside `text` is split across two sections, and a
    /// carriage return (which a reader would turn into a line feed inside CDATA) is written as
    /// `&#13;` between sections, so the text reads back as given.
    pub fn cdata(&mut self, text: &str) -> Result<()> {
        if self.stack.is_empty() {
            return Err(WriteError::TextOutsideRoot);
        }
        check_chars(text)?;
        self.flush_start(false)?;
        self.stack.last_mut().expect("inside the root").text = true;
        for (k, part) in text.split('\r').enumerate() {
            if k > 0 {
                self.buf.extend_from_slice(b"&#13;");
            }
            if part.is_empty() && k > 0 {
                continue;
            }
            self.buf.extend_from_slice(b"<![CDATA[");
            let mut rest = part;
            while let Some(i) = rest.find("]]>") {
                self.buf.extend_from_slice(&rest.as_bytes()[..i + 2]);
                self.buf.extend_from_slice(b"]]><![CDATA[");
                rest = &rest[i + 2..];
            }
            self.buf.extend_from_slice(rest.as_bytes());
            self.buf.extend_from_slice(b"]]>");
        }
        self.maybe_flush()
    }

    /// Writes a comment.
    pub fn comment(&mut self, text: &str) -> Result<()> {
        check_comment(text)?;
        self.misc_start()?;
        self.buf.extend_from_slice(b"<!--");
        self.buf.extend_from_slice(text.as_bytes());
        self.buf.extend_from_slice(b"-->");
        self.maybe_flush()
    }

    /// Writes a processing instruction.
    pub fn processing_instruction(&mut self, target: &str, data: &str) -> Result<()> {
        check_pi(target, data)?;
        self.misc_start()?;
        self.buf.extend_from_slice(b"<?");
        self.buf.extend_from_slice(target.as_bytes());
        if !data.is_empty() {
            self.buf.push(b' ');
            self.buf.extend_from_slice(data.as_bytes());
        }
        self.buf.extend_from_slice(b"?>");
        self.maybe_flush()
    }

    /// Writes a reference to a general entity (`&name;`), for entities the document's DTD
    /// declares (the writer cannot check that).
    pub fn entity_reference(&mut self, name: &str) -> Result<()> {
        if !chars::is_name(name) || name.contains(':') {
            return Err(WriteError::InvalidName("entity name", name.into()));
        }
        if self.stack.is_empty() {
            return Err(WriteError::TextOutsideRoot);
        }
        self.flush_start(false)?;
        self.stack.last_mut().expect("inside the root").text = true;
        self.buf.push(b'&');
        self.buf.extend_from_slice(name.as_bytes());
        self.buf.push(b';');
        Ok(())
    }

    /// Writes a typed value as its text form (`docs/binary-format.md`), escaped, so the
    /// same code writes text or binary XML ([`XmlSink`]).
    ///
    /// ```
    /// use xwire::binary::TypedValue;
    /// use xwire::writer::Writer;
    /// let mut w = Writer::new(Vec::new());
    /// w.start_element("t")?;
    /// w.value(TypedValue::F64(2.5))?;
    /// w.end_element()?;
    /// assert_eq!(w.finish()?, b"<t>2.5</t>");
    /// # Ok::<(), xwire::writer::WriteError>(())
    /// ```
    pub fn value(&mut self, value: TypedValue<'_>) -> Result<()> {
        let mut s = String::new();
        value.write_text(&mut s);
        self.text(&s)
    }

    /// Writes an array as its text form: the values separated by single spaces.
    pub fn array(&mut self, array: &Array<'_>) -> Result<()> {
        let mut s = String::new();
        array.write_text(&mut s);
        self.text(&s)
    }

    /// Ends the innermost open element.
    pub fn end_element(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            return Err(WriteError::NoOpenElement);
        }
        if self.tag.name.is_some() {
            self.flush_start(true)?;
        } else {
            let open = self.stack.last().expect("checked");
            let name = open.name.clone();
            if open.children && !open.text && !open.preserve {
                self.indent(self.stack.len() - 1);
            }
            self.buf.extend_from_slice(b"</");
            self.buf.extend_from_slice(self.names[name].as_bytes());
            self.buf.push(b'>');
        }
        let open = self.stack.pop().expect("checked");
        self.names.truncate(open.name.start);
        self.scope.truncate(open.mark);
        if self.stack.is_empty() {
            self.place = Place::Epilog;
        }
        self.maybe_flush()
    }

    /// Copies an event read by [`crate::Reader`]: start tags with their namespace
    /// declarations and attributes (defaulted attributes left out, as the DTD supplies them),
    /// text, CDATA, comments, PIs, the doctype, entity references that were not read.
    pub fn write_event(&mut self, event: &Event<'_>) -> Result<()> {
        match event {
            // The reader has checked the names: they are written as split, not parsed again.
            Event::Start(t) => {
                self.start_qname(t.prefix().unwrap_or(""), t.local_name())?;
                for a in t.attributes() {
                    if a.is_namespace_decl() {
                        let prefix = a.name().strip_prefix("xmlns:");
                        self.namespace(prefix, a.value())?;
                    } else if !a.is_defaulted() {
                        self.attribute_qname(a.prefix().unwrap_or(""), a.local_name(), a.value())?;
                    }
                }
                Ok(())
            }
            Event::End(_) => self.end_element(),
            Event::Text(t) => self.text(&t.unescape()),
            Event::CData(c) => self.cdata(&c.text()),
            Event::Comment(c) => self.comment(&c.text()),
            Event::Pi(p) => self.processing_instruction(p.target(), &p.data()),
            Event::Doctype(d) => self.doctype(
                d.name(),
                d.public_id(),
                d.system_id(),
                Some(d.internal_subset()),
            ),
            Event::SkippedEntity(e) => self.entity_reference(e.name()),
            Event::Eof => Ok(()),
        }
    }

    /// Checks that the document is complete, flushes, and returns the sink.
    pub fn finish(mut self) -> Result<W> {
        if !self.stack.is_empty() {
            let names = self
                .stack
                .iter()
                .map(|o| {
                    if o.name.is_empty() {
                        "(pending)".to_string()
                    } else {
                        self.names[o.name.clone()].to_string()
                    }
                })
                .collect();
            return Err(WriteError::Unclosed(names));
        }
        if self.place != Place::Epilog {
            return Err(WriteError::NoRootElement);
        }
        if self.config.indent.is_some() {
            self.buf.push(b'\n');
        }
        self.out.write_all(&self.buf)?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// The number of open elements.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    // ----- internals ---------------------------------------------------------------------

    /// Before a new start tag: flush the parent's pending start tag, place checks, indent.
    fn open_start(&mut self) -> Result<()> {
        match self.place {
            Place::Epilog => {
                return Err(WriteError::Misplaced(
                    "a document has exactly one root element; this would be a second",
                ))
            }
            Place::Start | Place::Prolog => {
                self.newline_at_top();
                self.place = Place::Root;
            }
            Place::Root => {
                self.flush_start(false)?;
                let depth = self.stack.len();
                let parent = self.stack.last_mut().expect("inside the root");
                parent.children = true;
                if !parent.text && !parent.preserve {
                    self.indent(depth);
                }
            }
        }
        let mark = self.scope.len();
        let preserve = self.stack.last().is_some_and(|o| o.preserve);
        self.stack.push(Open {
            name: 0..0,
            mark,
            children: false,
            text: false,
            preserve,
        });
        self.tag.begin();
        Ok(())
    }

    /// Before a comment or PI.
    fn misc_start(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            self.newline_at_top();
            if self.place == Place::Start {
                self.place = Place::Prolog;
            }
            return Ok(());
        }
        self.flush_start(false)?;
        let depth = self.stack.len();
        let parent = self.stack.last_mut().expect("inside the root");
        parent.children = true;
        if !parent.text && !parent.preserve {
            self.indent(depth);
        }
        Ok(())
    }

    fn newline_at_top(&mut self) {
        if self.config.indent.is_some() && !self.buf.is_empty() {
            self.buf.push(b'\n');
        }
    }

    fn indent(&mut self, depth: usize) {
        if let Some(unit) = &self.config.indent {
            self.buf.push(b'\n');
            for _ in 0..depth {
                self.buf.extend_from_slice(unit.as_bytes());
            }
        }
    }

    /// Resolves and writes the pending start tag; `empty`: the element ends here too.
    fn flush_start(&mut self, empty: bool) -> Result<()> {
        let Some(spec) = self.tag.name.take() else {
            return Ok(());
        };
        let mark = self
            .stack
            .last()
            .expect("a pending tag is on the stack")
            .mark;
        // The element's name, kept in `names` for its end tag.
        let mut names = std::mem::take(&mut self.names);
        let name_start = names.len();
        let resolved = self.resolve(&spec, true, mark, &mut names, &[]);
        let name = name_start..names.len();
        self.names = names;
        resolved?;
        self.stack.last_mut().expect("pushed").name = name.clone();
        // Attributes: resolve names (declaring what repairing needs) before writing anything.
        let attrs = std::mem::take(&mut self.tag.attrs);
        let mut qnames = std::mem::take(&mut self.qnames);
        let mut done = std::mem::take(&mut self.done);
        qnames.clear();
        done.clear();
        let mut result = Ok(());
        for a in &attrs {
            let q0 = qnames.len();
            if let Err(e) = self.resolve(&a.name, false, mark, &mut qnames, &done) {
                result = Err(e);
                break;
            }
            done.push(q0..qnames.len());
        }
        if result.is_ok() && attrs.len() > 1 {
            result = self.check_duplicates(&qnames, &done);
        }
        if result.is_ok() {
            result = self.write_start_tag(name, mark, &attrs, &qnames, &done, empty);
        }
        self.tag.attrs = attrs;
        self.qnames = qnames;
        self.done = done;
        result
    }

    /// Duplicate attributes by expanded name (URI, local name); `spans` index `qnames`.
    fn check_duplicates(&self, qnames: &str, spans: &[Range<usize>]) -> Result<()> {
        let expanded = |r: &Range<usize>| {
            let q = &qnames[r.clone()];
            let (p, local) = q.split_once(':').unwrap_or(("", q));
            let uri = if p.is_empty() {
                ""
            } else {
                self.scope.lookup(p).unwrap_or("")
            };
            (uri, local)
        };
        for (i, a) in spans.iter().enumerate() {
            let ea = expanded(a);
            if spans[..i].iter().any(|b| expanded(b) == ea) {
                return Err(WriteError::DuplicateAttribute(
                    qnames[a.clone()].to_string(),
                ));
            }
        }
        Ok(())
    }

    fn write_start_tag(
        &mut self,
        name: Range<usize>,
        mark: usize,
        attrs: &[PendingAttr],
        qnames: &str,
        spans: &[Range<usize>],
        empty: bool,
    ) -> Result<()> {
        let qname = &self.names[name];
        self.buf.push(b'<');
        self.buf.extend_from_slice(qname.as_bytes());
        for (p, u) in self.scope.declared(mark) {
            self.buf
                .extend_from_slice(if p.is_empty() { b" xmlns" } else { b" xmlns:" });
            self.buf.extend_from_slice(p.as_bytes());
            self.buf.extend_from_slice(b"=\"");
            // Checked by check_binding when declared.
            let _ = escape_into(&mut self.buf, u, Context::Attribute);
            self.buf.push(b'"');
        }
        for (a, q) in attrs.iter().zip(spans) {
            let value = &self.tag.pend[a.value.clone()];
            let q = &qnames[q.clone()];
            if q == "xml:space" {
                self.stack.last_mut().expect("pushed").preserve = value == "preserve";
            }
            self.buf.push(b' ');
            self.buf.extend_from_slice(q.as_bytes());
            self.buf.extend_from_slice(b"=\"");
            escape_into(&mut self.buf, value, Context::Attribute)?;
            self.buf.push(b'"');
        }
        if empty {
            if self.config.self_close_empty {
                self.buf.extend_from_slice(b"/>");
            } else {
                self.buf.extend_from_slice(b"></");
                self.buf.extend_from_slice(qname.as_bytes());
                self.buf.push(b'>');
            }
        } else {
            self.buf.push(b'>');
        }
        Ok(())
    }

    /// The qualified name to write for a name spec, declaring a namespace if repairing needs
    /// one (on the element whose bindings start at `mark`). `used`: spans of `into` holding
    /// the attribute names resolved on this tag so far.
    fn resolve(
        &mut self,
        spec: &NameSpec,
        element: bool,
        mark: usize,
        into: &mut String,
        used: &[Range<usize>],
    ) -> Result<()> {
        match spec {
            NameSpec::QName(p, l) => {
                let (p, l) = (&self.tag.pend[p.clone()], &self.tag.pend[l.clone()]);
                if !p.is_empty() {
                    if self.scope.lookup(p).is_none() {
                        return Err(WriteError::UndeclaredPrefix(p.to_string()));
                    }
                    into.push_str(p);
                    into.push(':');
                }
                into.push_str(l);
                Ok(())
            }
            NameSpec::Ns { uri, local, prefix } => {
                let (uri, local) = (&self.tag.pend[uri.clone()], &self.tag.pend[local.clone()]);
                let wanted = prefix.as_ref().map(|p| &self.tag.pend[p.clone()]);
                let open = self.stack.last().expect("a start tag is being resolved");
                let element_prefix = prefix_of(&self.names[open.name.clone()]);
                let p = self.scope.resolve_ns(
                    uri,
                    wanted,
                    element,
                    mark,
                    self.config.repair_namespaces,
                    |p| {
                        element_prefix == p || used.iter().any(|r| prefix_of(&into[r.clone()]) == p)
                    },
                )?;
                if !p.is_empty() {
                    into.push_str(&p);
                    into.push(':');
                }
                into.push_str(local);
                Ok(())
            }
        }
    }

    fn maybe_flush(&mut self) -> Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

fn is_pubid_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " \r\n-'()+,./:=?;!*#@$_%".contains(c)
}

#[cfg(test)]
mod tests;
