//! [`BinaryWriter`]: the streaming encoder of the binary format (`docs/binary-format.md`).
//!
//! Sizes precede bodies and the string table precedes every frame, so nothing can be emitted
//! before the document ends. The writer keeps one buffer of frame bodies without their prefixes
//! and sizes, plus a patch list saying what goes between body bytes at emission: a frame's
//! prefix and size (filled in when the frame closes: its body bytes plus the heads of the
//! frames it holds, summed bottom-up), or an array's padding. Array padding depends on the
//! absolute offset of the values, known only at emission, but padding and trailing bytes add
//! up to `width - 1`, so sizes never depend on offsets. Every body byte (array values
//! included) is copied once into the buffer and once out of it, whatever the depth.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;

use super::format::{
    encode_varint, varint_len, write_varint, ByteOrder, FrameKind, MAGIC, VERSION,
};
use super::value::{Array, Primitive, TypedValue};
use crate::chars;
use crate::reader::event::Event;
use crate::reader::XML_NS;
use crate::writer::check::{check_comment, check_ncname, check_ns_name, check_pi, split_qname};
use crate::writer::error::{Result, WriteError};
use crate::writer::escape::check_chars;
use crate::writer::scope::NsScope;
use crate::writer::sink::delegate;
use crate::writer::tag::{attribute_name, AttributeName, NameSpec, PendingAttr, PendingTag};

/// What goes before body byte `at` when the document is emitted.
enum Patch {
    /// A frame's prefix and size.
    Frame {
        at: usize,
        kind: FrameKind,
        size: u64,
    },
    /// An array's pad byte `P` and `P` zero bytes (`at`: its first value).
    Pad { at: usize, width: u8 },
    /// An array's `width - 1 - P` trailing zero bytes (`at`: just after its last value).
    Trail { at: usize, width: u8 },
}

impl Patch {
    fn at(&self) -> usize {
        match *self {
            Patch::Frame { at, .. } | Patch::Pad { at, .. } | Patch::Trail { at, .. } => at,
        }
    }
}

/// What an open element holds so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    Empty,
    /// Frames: child elements, text, comments, ...
    Mixed,
    /// One typed value (a LEAF frame).
    Leaf,
    /// An array (an ARRAY frame).
    Array,
}

struct Open {
    /// Length of the scope's bindings before this element's declarations.
    mark: usize,
    /// The name as given, in `names` (for `Unclosed`).
    name: Range<usize>,
    /// Index of its frame patch; meaningless until the head is written.
    frame: usize,
    /// Body offset of its body.
    start: usize,
    /// Bytes of its body that are not in the buffer: heads of descendant frames, padding.
    extra: u64,
    content: Content,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Prolog,
    Root,
    Epilog,
}

/// The string table in first-use order, encoded as it grows.
#[derive(Default)]
struct Strings {
    index: HashMap<String, u64>,
    encoded: Vec<u8>,
}

impl Strings {
    fn get(&mut self, s: &str) -> u64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.index.len() as u64;
        self.index.insert(s.to_string(), i);
        write_varint(&mut self.encoded, s.len() as u64);
        self.encoded.extend_from_slice(s.as_bytes());
        i
    }
}

/// A streaming binary XML writer over any [`Write`] sink, with the methods of the text
/// [`Writer`](crate::writer::Writer) (and the same checks and namespace repairing) plus typed
/// content: [`value`](BinaryWriter::value) makes the open element a LEAF,
/// [`array`](BinaryWriter::array) an ARRAY. The document is buffered and emitted by
/// [`finish`](BinaryWriter::finish); the output is deterministic.
///
/// Unlike the text writer, [`write_event`](BinaryWriter::write_event) keeps defaulted
/// attributes (the binary form has no DTD to supply them) and skips the doctype.
///
/// ```
/// use xwire::binary::{BinaryWriter, ByteOrder, TypedValue};
///
/// let mut w = BinaryWriter::with_byte_order(Vec::new(), ByteOrder::Little);
/// w.start_element_ns("urn:x", "a", None)?;
/// w.attribute("n", "1")?;
/// w.start_element_ns("urn:x", "v", None)?;
/// w.value(TypedValue::F64(2.5))?;
/// w.end_element()?;
/// w.end_element()?;
/// let bytes = w.finish()?;
/// assert_eq!(bytes.len(), 54); // the example of docs/binary-format.md
/// # Ok::<(), xwire::writer::WriteError>(())
/// ```
pub struct BinaryWriter<W: Write> {
    out: W,
    order: ByteOrder,
    body: Vec<u8>,
    patches: Vec<Patch>,
    strings: Strings,
    /// Bytes of the document frame's body that are not in the buffer: frame heads, padding.
    top_extra: u64,
    place: Place,
    stack: Vec<Open>,
    names: String,
    scope: NsScope,
    /// The start tag being built, if any.
    tag: PendingTag,
    /// The TEXT frame still open for merging: (patch, body start).
    text: Option<(usize, usize)>,
}

// XmlSink, by the inherent methods below.
delegate!(BinaryWriter);

impl<W: Write> BinaryWriter<W> {
    /// A writer in the machine's byte order ([`ByteOrder::NATIVE`]), so readers on the same
    /// machine view arrays in place.
    pub fn new(out: W) -> BinaryWriter<W> {
        BinaryWriter::with_byte_order(out, ByteOrder::NATIVE)
    }

    /// A writer whose frames and values are in `order`.
    pub fn with_byte_order(out: W, order: ByteOrder) -> BinaryWriter<W> {
        BinaryWriter {
            out,
            order,
            body: Vec::new(),
            patches: Vec::new(),
            strings: Strings::default(),
            top_extra: 0,
            place: Place::Prolog,
            stack: Vec::new(),
            names: String::new(),
            scope: NsScope::new(),
            tag: PendingTag::default(),
            text: None,
        }
    }

    /// Starts an element named by a qualified name as written; its prefix must be declared in
    /// scope or on this element.
    pub fn start_element(&mut self, qname: &str) -> Result<()> {
        let (p, l) = split_qname(qname)
            .ok_or_else(|| WriteError::InvalidName("element name (QName)", qname.into()))?;
        self.open_start(qname)?;
        self.tag.set_qname(p, l);
        Ok(())
    }

    /// Starts an element in namespace `uri` (`""`: none), using a prefix bound to `uri`
    /// (preferring `prefix`) or declaring one, like the text writer.
    pub fn start_element_ns(&mut self, uri: &str, local: &str, prefix: Option<&str>) -> Result<()> {
        check_ns_name("element local name", local, prefix)?;
        self.open_start(local)?;
        self.tag.set_ns(uri, local, prefix);
        Ok(())
    }

    /// Adds an attribute by qualified name to the element just started (`xmlns` and
    /// `xmlns:p` are namespace declarations).
    pub fn attribute(&mut self, qname: &str, value: &str) -> Result<()> {
        match attribute_name(qname)? {
            AttributeName::Namespace(prefix) => self.namespace(prefix, value),
            AttributeName::Attribute(p, l) => self.attribute_qname(p, l, value),
        }
    }

    fn attribute_qname(&mut self, prefix: &str, local: &str, value: &str) -> Result<()> {
        self.tag.check_open()?;
        check_chars(value)?;
        self.tag.add_qname(prefix, local, value)
    }

    /// Adds an attribute in namespace `uri` (`""`: none) to the element just started, using
    /// or declaring a prefix like the text writer.
    pub fn attribute_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<()> {
        check_ns_name("attribute local name", local, prefix)?;
        self.tag.check_open()?;
        check_chars(value)?;
        self.tag.add_ns(uri, local, prefix, value)
    }

    /// Declares a namespace on the element just started (`None`: the default namespace). A
    /// declaration identical to the binding in scope is dropped.
    pub fn namespace(&mut self, prefix: Option<&str>, uri: &str) -> Result<()> {
        self.tag.check_open()?;
        let prefix = prefix.unwrap_or("");
        if !prefix.is_empty() {
            check_ncname("prefix", prefix)?;
        }
        let mark = self.stack.last().expect("a start tag is pending").mark;
        self.scope.namespace(mark, prefix, uri)
    }

    /// Writes character data; adjacent calls make one TEXT frame. White space outside the
    /// root element is dropped (it is not part of the data model).
    pub fn text(&mut self, text: &str) -> Result<()> {
        if self.stack.is_empty() {
            if chars::is_all_whitespace(text.as_bytes()) {
                return Ok(());
            }
            return Err(WriteError::TextOutsideRoot);
        }
        if text.is_empty() {
            return Ok(());
        }
        check_chars(text)?;
        if self.text.is_none() {
            self.begin_content()?;
            let at = self.open_frame(FrameKind::Text);
            self.text = Some((self.patches.len() - 1, at));
        }
        self.body.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// Writes a CDATA section, as the text writer's output for the same call reads back: a
    /// `]]>` inside `text` splits it into two sections (`...]]` and `>...`), and a carriage
    /// return (which text XML cannot hold in a CDATA section: it reads as a line feed) is
    /// character data between sections. So the binary and the text form hold the same
    /// document, and a decoder can refuse CDATA frames that no text document gives.
    ///
    /// ```
    /// use xwire::{binary::BinaryWriter, Event, Reader};
    /// let mut w = BinaryWriter::new(Vec::new());
    /// w.start_element("a")?;
    /// w.cdata("x]]>y\r")?;
    /// w.end_element()?;
    /// let bytes = w.finish()?;
    /// let mut r = Reader::from_slice(&bytes);
    /// r.next()?;
    /// let mut parts = Vec::new();
    /// loop {
    ///     match r.next()? {
    ///         Event::CData(c) => parts.push(format!("cdata {}", c.text())),
    ///         Event::Text(t) => parts.push(format!("text {:?}", t.unescape())),
    ///         _ => break,
    ///     }
    /// }
    /// assert_eq!(parts, ["cdata x]]", "cdata >y", "text \"\\r\""]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cdata(&mut self, text: &str) -> Result<()> {
        if self.stack.is_empty() {
            return Err(WriteError::TextOutsideRoot);
        }
        check_chars(text)?;
        // The same pieces as `Writer::cdata` writes.
        for (k, part) in text.split('\r').enumerate() {
            if k > 0 {
                self.text("\r")?;
                if part.is_empty() {
                    continue;
                }
            }
            let mut rest = part;
            while let Some(i) = rest.find("]]>") {
                self.cdata_frame(&rest[..i + 2])?;
                rest = &rest[i + 2..];
            }
            self.cdata_frame(rest)?;
        }
        Ok(())
    }

    fn cdata_frame(&mut self, text: &str) -> Result<()> {
        self.begin_content()?;
        let at = self.open_frame(FrameKind::CData);
        self.body.extend_from_slice(text.as_bytes());
        self.close_frame(self.patches.len() - 1, at, 0);
        Ok(())
    }

    /// Writes a comment. Line ends (CR LF, CR) are stored as line feeds, as text XML reads
    /// them (a comment has no way to escape a carriage return).
    pub fn comment(&mut self, text: &str) -> Result<()> {
        check_comment(text)?;
        self.begin_misc()?;
        let at = self.open_frame(FrameKind::Comment);
        push_normalized(&mut self.body, text);
        self.close_frame(self.patches.len() - 1, at, 0);
        Ok(())
    }

    /// Writes a processing instruction. The data is stored as text XML reads it back: line
    /// ends (CR LF, CR) as line feeds, and without leading white space (in `<?t  x?>` the
    /// white space after the target separates it from the data `x`, so text XML cannot
    /// hold data that starts with white space).
    ///
    /// ```
    /// use xwire::{binary::BinaryWriter, Event, Reader};
    /// let mut w = BinaryWriter::new(Vec::new());
    /// w.processing_instruction("t", " \r\n x\r\n")?;
    /// w.start_element("a")?;
    /// w.end_element()?;
    /// let bytes = w.finish()?;
    /// let mut r = Reader::from_slice(&bytes);
    /// let Event::Pi(pi) = r.next()? else { panic!("a PI first") };
    /// assert_eq!(pi.data(), "x\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn processing_instruction(&mut self, target: &str, data: &str) -> Result<()> {
        check_pi(target, data)?;
        self.begin_misc()?;
        let at = self.open_frame(FrameKind::Pi);
        let t = self.strings.get(target);
        write_varint(&mut self.body, t);
        let data = data.trim_start_matches(['\r', '\n', '\t', ' ']);
        push_normalized(&mut self.body, data);
        self.close_frame(self.patches.len() - 1, at, 0);
        Ok(())
    }

    /// Makes the open element a LEAF holding `value`: it must have no other content, before
    /// or after. A string value may be empty.
    ///
    /// ```
    /// use xwire::binary::{BinaryWriter, TypedValue};
    /// let mut w = BinaryWriter::new(Vec::new());
    /// w.start_element("count")?;
    /// w.value(TypedValue::U32(7))?;
    /// assert!(w.text("more").is_err());
    /// # Ok::<(), xwire::writer::WriteError>(())
    /// ```
    pub fn value(&mut self, value: TypedValue<'_>) -> Result<()> {
        if let TypedValue::String(s) = value {
            check_chars(s)?;
        }
        self.begin_typed()?;
        let (body, order) = (&mut self.body, self.order);
        body.push(value.primitive_type() as u8);
        match value {
            TypedValue::I8(v) => v.put(order, body),
            TypedValue::I16(v) => v.put(order, body),
            TypedValue::I32(v) => v.put(order, body),
            TypedValue::I64(v) => v.put(order, body),
            TypedValue::U8(v) => v.put(order, body),
            TypedValue::U16(v) => v.put(order, body),
            TypedValue::U32(v) => v.put(order, body),
            TypedValue::U64(v) => v.put(order, body),
            TypedValue::F32(v) => v.put(order, body),
            TypedValue::F64(v) => v.put(order, body),
            TypedValue::Bool(v) => v.put(order, body),
            TypedValue::String(s) => put_bytes(body, s.as_bytes()),
            TypedValue::Bytes(b) => put_bytes(body, b),
        }
        self.stack.last_mut().expect("checked").content = Content::Leaf;
        Ok(())
    }

    /// Makes the open element an ARRAY holding `array`'s values, packed and aligned: it must
    /// have no other content, before or after.
    pub fn array(&mut self, array: &Array<'_>) -> Result<()> {
        self.begin_typed()?;
        let ty = array.primitive_type();
        let width = ty.width().expect("arrays hold fixed-width types") as u8;
        self.body.push(ty as u8);
        write_varint(&mut self.body, array.len() as u64);
        self.patches.push(Patch::Pad {
            at: self.body.len(),
            width,
        });
        let (body, order) = (&mut self.body, self.order);
        match array {
            Array::I8(v) => put_all(body, order, v),
            Array::I16(v) => put_all(body, order, v),
            Array::I32(v) => put_all(body, order, v),
            Array::I64(v) => put_all(body, order, v),
            Array::U8(v) => put_all(body, order, v),
            Array::U16(v) => put_all(body, order, v),
            Array::U32(v) => put_all(body, order, v),
            Array::U64(v) => put_all(body, order, v),
            Array::F32(v) => put_all(body, order, v),
            Array::F64(v) => put_all(body, order, v),
            Array::Bool(v) => put_all(body, order, v),
        }
        self.patches.push(Patch::Trail {
            at: self.body.len(),
            width,
        });
        let open = self.stack.last_mut().expect("checked");
        // The pad byte, then padding and trailing bytes, width - 1 in all.
        open.extra += u64::from(width);
        open.content = Content::Array;
        Ok(())
    }

    /// [`array`](BinaryWriter::array) for a slice of a primitive type.
    ///
    /// ```
    /// use xwire::binary::BinaryWriter;
    /// let mut w = BinaryWriter::new(Vec::new());
    /// w.start_element("samples")?;
    /// w.array_of(&[0.5f32, 1.5, 2.5])?;
    /// w.end_element()?;
    /// w.finish()?;
    /// # Ok::<(), xwire::writer::WriteError>(())
    /// ```
    pub fn array_of<T: Primitive>(&mut self, values: &[T]) -> Result<()> {
        self.array(&T::array(values))
    }

    /// Ends the innermost open element.
    pub fn end_element(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            return Err(WriteError::NoOpenElement);
        }
        self.close_text();
        self.flush_start()?;
        let open = self.stack.pop().expect("checked");
        if let Some(Patch::Frame { kind, .. }) = self.patches.get_mut(open.frame) {
            *kind = match open.content {
                Content::Leaf => FrameKind::Leaf,
                Content::Array => FrameKind::Array,
                Content::Empty | Content::Mixed => FrameKind::Element,
            };
        }
        self.close_frame(open.frame, open.start, open.extra);
        self.scope.truncate(open.mark);
        self.names.truncate(open.name.start);
        if self.stack.is_empty() {
            self.place = Place::Epilog;
        }
        Ok(())
    }

    /// Copies an event read by [`crate::Reader`]: start tags with their namespace
    /// declarations and all attributes (defaulted ones included: the binary form has no DTD),
    /// text, CDATA, comments, PIs. The doctype is skipped; an entity reference the reader did
    /// not expand is an error ([`WriteError::Unencodable`]).
    pub fn write_event(&mut self, event: &Event<'_>) -> Result<()> {
        match event {
            Event::Start(t) => {
                // The reader has checked the names: they are used as split.
                self.open_start(t.name())?;
                self.tag.set_qname(t.prefix().unwrap_or(""), t.local_name());
                for a in t.attributes() {
                    if a.is_namespace_decl() {
                        self.namespace(a.name().strip_prefix("xmlns:"), a.value())?;
                    } else {
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
            Event::Doctype(_) | Event::Eof => Ok(()),
            Event::SkippedEntity(e) => Err(WriteError::Unencodable(e.name().to_string())),
        }
    }

    /// Checks that the document is complete, emits it, and returns the sink.
    pub fn finish(mut self) -> Result<W> {
        if !self.stack.is_empty() {
            let names = self
                .stack
                .iter()
                .map(|o| self.names[o.name.clone()].to_string())
                .collect();
            return Err(WriteError::Unclosed(names));
        }
        if self.place != Place::Epilog {
            return Err(WriteError::NoRootElement);
        }
        let e = self.order.prefix_bit();
        let count = self.strings.index.len() as u64;
        let doc_size = (varint_len(count) + self.strings.encoded.len() + self.body.len()) as u64
            + self.top_extra;
        let mut out = Emitter {
            w: &mut self.out,
            buf: Vec::with_capacity(EMIT_CHUNK),
            offset: 0,
        };
        out.put(&MAGIC)?;
        out.put(&[VERSION, 0, FrameKind::Document as u8 | e])?;
        out.varint(doc_size)?;
        out.varint(count)?;
        out.put(&self.strings.encoded)?;
        let (mut pos, mut pad) = (0, 0);
        for p in &self.patches {
            let at = p.at();
            debug_assert!(at >= pos, "patches are in body order");
            out.put(&self.body[pos..at])?;
            pos = at;
            match *p {
                Patch::Frame { kind, size, .. } => {
                    out.put(&[kind as u8 | e])?;
                    out.varint(size)?;
                }
                Patch::Pad { width, .. } => {
                    // The first value goes after the pad byte, at a multiple of the width.
                    let first = out.offset + 1;
                    let w = u64::from(width);
                    pad = ((w - first % w) % w) as u8;
                    out.put(&[pad])?;
                    out.put(&ZEROS[..pad as usize])?;
                }
                Patch::Trail { width, .. } => out.put(&ZEROS[..(width - 1 - pad) as usize])?,
            }
        }
        out.put(&self.body[pos..])?;
        out.flush()?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// The number of open elements.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The namespace bindings in scope (with those of the start tag being built).
    pub(crate) fn scope(&self) -> &NsScope {
        &self.scope
    }

    // ----- internals ---------------------------------------------------------------------

    /// Before a new start tag: place checks, the parent's content, a new stack entry.
    fn open_start(&mut self, name: &str) -> Result<()> {
        match self.place {
            Place::Epilog => {
                return Err(WriteError::Misplaced(
                    "a document has exactly one root element; this would be a second",
                ))
            }
            Place::Prolog => self.place = Place::Root,
            Place::Root => self.begin_content()?,
        }
        let start = self.names.len();
        self.names.push_str(name);
        self.stack.push(Open {
            mark: self.scope.len(),
            name: start..self.names.len(),
            frame: usize::MAX,
            start: 0,
            extra: 0,
            content: Content::Empty,
        });
        self.tag.begin();
        Ok(())
    }

    /// Before a child frame of the open element other than more text.
    fn begin_content(&mut self) -> Result<()> {
        self.close_text();
        self.flush_start()?;
        let open = self.stack.last_mut().expect("inside the root");
        match open.content {
            Content::Leaf | Content::Array => Err(WriteError::TypedContent(
                "an element holding a typed value or array can have no other content",
            )),
            Content::Empty | Content::Mixed => {
                open.content = Content::Mixed;
                Ok(())
            }
        }
    }

    /// Before a comment or PI, which may also stand outside the root.
    fn begin_misc(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            Ok(())
        } else {
            self.begin_content()
        }
    }

    /// Before a typed value or array.
    fn begin_typed(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            return Err(WriteError::TypedContent(
                "a typed value or array must be the content of an element",
            ));
        }
        self.flush_start()?;
        if self.text.is_some() || self.stack.last().expect("checked").content != Content::Empty {
            return Err(WriteError::TypedContent(
                "a typed value or array must be the only content of its element",
            ));
        }
        Ok(())
    }

    /// Starts a frame at the end of the body; returns where its body starts.
    fn open_frame(&mut self, kind: FrameKind) -> usize {
        let at = self.body.len();
        self.patches.push(Patch::Frame { at, kind, size: 0 });
        at
    }

    /// Sets the size of the frame of patch `patch` whose body started at `start` and holds
    /// `extra` bytes that are not in the buffer; the enclosing frame (the open element, else
    /// the document) holds those and this frame's head.
    fn close_frame(&mut self, patch: usize, start: usize, extra: u64) {
        let n = (self.body.len() - start) as u64 + extra;
        if let Some(Patch::Frame { size, .. }) = self.patches.get_mut(patch) {
            *size = n;
        }
        let outside = extra + 1 + varint_len(n) as u64;
        match self.stack.last_mut() {
            Some(open) => open.extra += outside,
            None => self.top_extra += outside,
        }
    }

    fn close_text(&mut self) {
        if let Some((patch, start)) = self.text.take() {
            self.close_frame(patch, start, 0);
        }
    }

    /// Resolves and writes the head of the pending start tag.
    fn flush_start(&mut self) -> Result<()> {
        let Some(spec) = self.tag.name.take() else {
            return Ok(());
        };
        let attrs = std::mem::take(&mut self.tag.attrs);
        let result = self.write_head(&spec, &attrs);
        self.tag.attrs = attrs;
        if result.is_err() {
            // Still pending: a caller that goes on gets the error again, not a frame-less
            // element.
            self.tag.name = Some(spec);
        }
        result
    }

    fn write_head(&mut self, spec: &NameSpec, attrs: &[PendingAttr]) -> Result<()> {
        let mark = self
            .stack
            .last()
            .expect("a pending tag is on the stack")
            .mark;
        // Names first (repairing may add declarations), then the bindings they use.
        let (element_prefix, local) = self.resolve(spec, true, mark, "", &[])?;
        let mut names = Vec::with_capacity(attrs.len());
        for a in attrs {
            let name = self.resolve(&a.name, false, mark, &element_prefix, &names)?;
            names.push(name);
        }
        let element_ns = self.scope.lookup_index(&element_prefix);
        let attr_ns: Vec<Option<usize>> = names
            .iter()
            .map(|(p, _)| {
                (!p.is_empty())
                    .then(|| self.scope.lookup_index(p))
                    .flatten()
            })
            .collect();
        let uri = |b: Option<usize>| b.map_or("", |b| self.scope.all()[b].1.as_str());
        for (i, ((_, l), &b)) in names.iter().zip(&attr_ns).enumerate() {
            let l = &self.tag.pend[l.clone()];
            let dup = names[..i]
                .iter()
                .zip(&attr_ns)
                .any(|((_, l2), &b2)| &self.tag.pend[l2.clone()] == l && uri(b2) == uri(b));
            if dup {
                return Err(WriteError::DuplicateAttribute(l.to_string()));
            }
        }

        let at = self.open_frame(FrameKind::Element);
        let open = self.stack.last_mut().expect("pushed");
        open.frame = self.patches.len() - 1;
        open.start = at;
        let body = &mut self.body;
        let declared = self.scope.declared(mark);
        write_varint(body, declared.len() as u64);
        for (p, u) in declared {
            for s in [p, u] {
                let r = if s.is_empty() {
                    0
                } else {
                    self.strings.get(s) + 1
                };
                write_varint(body, r);
            }
        }
        self.write_ns_ref(element_ns);
        let l = self.strings.get(&self.tag.pend[local]);
        write_varint(&mut self.body, l);
        write_varint(&mut self.body, attrs.len() as u64);
        for ((a, (_, local)), b) in attrs.iter().zip(names).zip(attr_ns) {
            self.write_ns_ref(b);
            let l = self.strings.get(&self.tag.pend[local]);
            write_varint(&mut self.body, l);
            put_bytes(&mut self.body, self.tag.pend[a.value.clone()].as_bytes());
        }
        Ok(())
    }

    /// Writes the namespace reference of a name whose prefix is bound by binding `b` of the
    /// scope (`None`: an attribute without prefix).
    fn write_ns_ref(&mut self, b: Option<usize>) {
        let bindings = self.scope.all();
        let (v, i) = match b {
            None => (0, None),
            Some(b) if bindings[b].1.is_empty() => (0, None),
            Some(b) if bindings[b].1 == XML_NS => (1, None),
            Some(b) => {
                // The innermost element whose declarations start at or before `b` declares it.
                let e = self.stack.partition_point(|o| o.mark <= b) - 1;
                let up = (self.stack.len() - 1 - e) as u64;
                (up + 2, Some((b - self.stack[e].mark) as u64))
            }
        };
        write_varint(&mut self.body, v);
        if let Some(i) = i {
            write_varint(&mut self.body, i);
        }
    }

    /// The prefix and local name (in `pend`) of a name of the pending tag, declaring what
    /// repairing needs. `element_prefix` and `done`: the names of the tag resolved so far.
    fn resolve(
        &mut self,
        spec: &NameSpec,
        element: bool,
        mark: usize,
        element_prefix: &str,
        done: &[(String, Range<usize>)],
    ) -> Result<(String, Range<usize>)> {
        match spec {
            NameSpec::QName(p, l) => {
                let prefix = &self.tag.pend[p.clone()];
                if !prefix.is_empty() && self.scope.lookup(prefix).is_none() {
                    return Err(WriteError::UndeclaredPrefix(prefix.to_string()));
                }
                Ok((prefix.to_string(), l.clone()))
            }
            NameSpec::Ns { uri, local, prefix } => {
                let uri = &self.tag.pend[uri.clone()];
                let wanted = prefix.as_ref().map(|p| &self.tag.pend[p.clone()]);
                let p = self
                    .scope
                    .resolve_ns(uri, wanted, element, mark, true, |p| {
                        element_prefix == p || done.iter().any(|(q, _)| q == p)
                    })?;
                Ok((p, local.clone()))
            }
        }
    }
}

const EMIT_CHUNK: usize = 64 * 1024;
const ZEROS: [u8; 8] = [0; 8];

/// Buffers small writes, passes large ones through, counts the offset.
struct Emitter<'w, W: Write> {
    w: &'w mut W,
    buf: Vec<u8>,
    offset: u64,
}

impl<W: Write> Emitter<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.offset += bytes.len() as u64;
        if self.buf.len() + bytes.len() > EMIT_CHUNK {
            self.flush()?;
            if bytes.len() >= EMIT_CHUNK / 2 {
                return Ok(self.w.write_all(bytes)?);
            }
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    fn varint(&mut self, v: u64) -> Result<()> {
        let (b, n) = encode_varint(v);
        self.put(&b[..n])
    }

    fn flush(&mut self) -> Result<()> {
        self.w.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

/// Appends `text` with its line ends (CR LF, CR) made line feeds, as a text reader reports
/// them.
fn push_normalized(out: &mut Vec<u8>, text: &str) {
    let mut rest = text.as_bytes();
    while let Some(i) = memchr::memchr(b'\r', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\n');
        rest = &rest[i + 1..];
        if rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
    }
    out.extend_from_slice(rest);
}

/// A varint length, then the bytes.
fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    write_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// A fixed-width value in either byte order.
trait Fixed: Copy {
    fn put(self, order: ByteOrder, out: &mut Vec<u8>);
    /// Stores `values` into `dst` (`values.len()` times the width, exactly).
    fn store_all(values: &[Self], order: ByteOrder, dst: &mut [u8]);
}

macro_rules! fixed {
    ($($t:ty),*) => {$(
        impl Fixed for $t {
            #[inline]
            fn put(self, order: ByteOrder, out: &mut Vec<u8>) {
                out.extend_from_slice(&match order {
                    ByteOrder::Little => self.to_le_bytes(),
                    ByteOrder::Big => self.to_be_bytes(),
                });
            }

            #[inline]
            fn store_all(values: &[$t], order: ByteOrder, dst: &mut [u8]) {
                const W: usize = std::mem::size_of::<$t>();
                let pairs = dst.chunks_exact_mut(W).zip(values);
                // One loop per order, each a straight copy the compiler vectorizes (no
                // capacity check per value).
                match order {
                    ByteOrder::Little => pairs.for_each(|(d, v)| d.copy_from_slice(&v.to_le_bytes())),
                    ByteOrder::Big => pairs.for_each(|(d, v)| d.copy_from_slice(&v.to_be_bytes())),
                }
            }
        }
    )*};
}

fixed!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Fixed for bool {
    #[inline]
    fn put(self, _: ByteOrder, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }

    #[inline]
    fn store_all(values: &[bool], _: ByteOrder, dst: &mut [u8]) {
        dst.iter_mut()
            .zip(values)
            .for_each(|(d, &v)| *d = u8::from(v));
    }
}

/// Appends `values` in `order`: the buffer grows once, then the values are stored in bulk.
fn put_all<T: Fixed>(out: &mut Vec<u8>, order: ByteOrder, values: &[T]) {
    let start = out.len();
    out.resize(start + std::mem::size_of_val(values), 0);
    T::store_all(values, order, &mut out[start..]);
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
