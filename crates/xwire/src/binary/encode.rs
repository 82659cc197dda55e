//! Text to binary: [`encode_events`] copies a [`Reader`]'s events into a [`BinaryWriter`],
//! making the elements a [`Typing`] names LEAF or ARRAY frames.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;

use super::format::{ByteOrder, PrimitiveType};
use super::value::{parse_base64, push_base64, Array, TypedValue, ValueError};
use super::writer::BinaryWriter;
use crate::error::{Error, Location};
use crate::reader::event::{Event, StartTag};
use crate::reader::Reader;
use crate::writer::scope::NsScope;
use crate::writer::WriteError;

const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// How an element's content is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypedContent {
    /// One value of the type (a LEAF frame).
    Leaf(PrimitiveType),
    /// A white-space separated list of values of a fixed-width type (an ARRAY frame).
    Array(PrimitiveType),
}

/// The namespace bindings in scope at a start tag (its own declarations included: the XML
/// Infoset's in-scope namespaces), for resolving QNames in attribute values such as
/// `xsi:type`.
pub struct InScopeNamespaces<'a> {
    bindings: &'a [(String, String)],
}

impl<'a> InScopeNamespaces<'a> {
    pub(crate) fn of(scope: &'a NsScope) -> InScopeNamespaces<'a> {
        InScopeNamespaces {
            bindings: scope.all(),
        }
    }

    /// The namespace URI bound to `prefix` (`""`: the default namespace); `None` when it is
    /// unbound (or the default namespace is undeclared).
    pub fn uri(&self, prefix: &str) -> Option<&'a str> {
        let b = self.bindings.iter().rev().find(|b| b.0 == prefix)?;
        (!b.1.is_empty()).then_some(b.1.as_str())
    }
}

/// Decides which elements hold typed content. Called for every start tag, with the element's
/// namespace URI (`""`: none) and local name, the tag (for its attributes) and the namespace
/// bindings in scope.
///
/// ```
/// use xwire::binary::{encode_events, InScopeNamespaces, PrimitiveType, TypedContent, Typing};
/// use xwire::StartTag;
///
/// /// Every element named `n` holds an `i64`.
/// struct Numbers;
/// impl Typing for Numbers {
///     fn element_type(&mut self, _: &str, local: &str, _: &StartTag<'_>, _: &InScopeNamespaces<'_>)
///         -> Option<TypedContent> {
///         (local == "n").then_some(TypedContent::Leaf(PrimitiveType::I64))
///     }
/// }
/// let mut reader = xwire::Reader::from_slice(b"<r><n>42</n></r>");
/// let bytes = encode_events(&mut reader, &mut Numbers, Vec::new())?;
/// assert!(bytes.ends_with(&42i64.to_ne_bytes()));
/// # Ok::<(), xwire::binary::EncodeError>(())
/// ```
pub trait Typing {
    /// The typed content of this element, `None` for ordinary content.
    fn element_type(
        &mut self,
        ns_uri: &str,
        local: &str,
        tag: &StartTag<'_>,
        namespaces: &InScopeNamespaces<'_>,
    ) -> Option<TypedContent>;
}

/// Types elements by their `xsi:type` attribute naming an XML Schema built-in type with a
/// fixed-size value space: `byte`..`long` (i8..i64), `unsignedByte`..`unsignedLong` (u8..u64),
/// `float`, `double`, `boolean`, `string`, `normalizedString`, `token` (strings) and
/// `base64Binary` (bytes). Unbounded types (`integer`, `decimal`, ...) and all others stay
/// text.
///
/// ```
/// use xwire::binary::{encode_events, XsiTyping};
/// let xml = br#"<t xmlns:xs="http://www.w3.org/2001/XMLSchema"
///     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:double">2.5</t>"#;
/// let bytes = encode_events(&mut xwire::Reader::from_slice(xml), &mut XsiTyping, Vec::new())?;
/// assert!(bytes.ends_with(&2.5f64.to_ne_bytes()));
/// # Ok::<(), xwire::binary::EncodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct XsiTyping;

impl Typing for XsiTyping {
    fn element_type(
        &mut self,
        _: &str,
        _: &str,
        tag: &StartTag<'_>,
        namespaces: &InScopeNamespaces<'_>,
    ) -> Option<TypedContent> {
        let qname = tag.attribute_ns(XSI_NS, "type")?.trim_matches(is_xml_space);
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        if namespaces.uri(prefix)? != XSD_NS {
            return None;
        }
        PrimitiveType::of_xsd_builtin(local).map(TypedContent::Leaf)
    }
}

/// Types elements from a map of (namespace URI, local name) to content, built with
/// [`MapTyping::builder`].
///
/// ```
/// use xwire::binary::{encode_events, MapTyping, PrimitiveType};
/// let mut typing = MapTyping::builder()
///     .leaf("urn:x", "v", PrimitiveType::F64)
///     .array("urn:x", "samples", PrimitiveType::I32)
///     .build();
/// let xml = br#"<a xmlns="urn:x"><v>2.5</v><samples>1 2 3</samples></a>"#;
/// encode_events(&mut xwire::Reader::from_slice(xml), &mut typing, Vec::new())?;
/// # Ok::<(), xwire::binary::EncodeError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct MapTyping {
    /// Namespace URI, then local name.
    map: HashMap<String, HashMap<String, TypedContent>>,
}

impl MapTyping {
    /// A builder for an empty map.
    pub fn builder() -> MapTypingBuilder {
        MapTypingBuilder {
            typing: MapTyping::default(),
        }
    }

    /// The content of the element (`ns_uri`, `local`), if the map has it.
    pub fn get(&self, ns_uri: &str, local: &str) -> Option<TypedContent> {
        self.map.get(ns_uri)?.get(local).copied()
    }
}

impl Typing for MapTyping {
    fn element_type(
        &mut self,
        ns_uri: &str,
        local: &str,
        _: &StartTag<'_>,
        _: &InScopeNamespaces<'_>,
    ) -> Option<TypedContent> {
        self.get(ns_uri, local)
    }
}

/// Builds a [`MapTyping`].
#[derive(Clone, Debug)]
pub struct MapTypingBuilder {
    typing: MapTyping,
}

impl MapTypingBuilder {
    /// Elements (`ns_uri`, `local`) hold one value of type `ty`.
    pub fn leaf(self, ns_uri: &str, local: &str, ty: PrimitiveType) -> MapTypingBuilder {
        self.content(ns_uri, local, TypedContent::Leaf(ty))
    }

    /// Elements (`ns_uri`, `local`) hold a list of values of the fixed-width type `ty`
    /// (a string or bytes type makes encoding such an element fail).
    pub fn array(self, ns_uri: &str, local: &str, ty: PrimitiveType) -> MapTypingBuilder {
        self.content(ns_uri, local, TypedContent::Array(ty))
    }

    /// Elements (`ns_uri`, `local`) hold `content`.
    pub fn content(mut self, ns_uri: &str, local: &str, content: TypedContent) -> MapTypingBuilder {
        self.typing
            .map
            .entry(ns_uri.to_string())
            .or_default()
            .insert(local.to_string(), content);
        self
    }

    /// The map.
    pub fn build(self) -> MapTyping {
        self.typing
    }
}

/// Why a document could not be encoded.
#[derive(Debug)]
#[non_exhaustive]
pub enum EncodeError {
    /// The text document is not well-formed (or could not be read).
    Read(Error),
    /// The writer refused an event (an unexpanded entity reference, or writing failed).
    Write {
        /// What the writer said.
        error: WriteError,
        /// Where the event starts.
        location: Location,
    },
    /// A typed element's text is not a value of its type.
    Value {
        /// The element's qualified name.
        element: String,
        /// The type and the text.
        error: ValueError,
        /// Where its start tag is.
        location: Location,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Read(e) => write!(f, "{e}"),
            EncodeError::Write { error, location } => write!(f, "{location}: {error}"),
            EncodeError::Value {
                element,
                error,
                location,
            } => write!(f, "{location}: element '{element}': {error}"),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EncodeError::Read(e) => Some(e),
            EncodeError::Write { error, .. } => Some(error),
            EncodeError::Value { error, .. } => Some(error),
        }
    }
}

/// Transcodes the document `reader` reads to binary XML (in the machine's byte order) and
/// returns `out`. Elements that `typing` types become LEAF or ARRAY frames: their text (and
/// CDATA) content is parsed as the type (string leaves take the text as it is); text that
/// does not parse is an error naming the element. Text that parses but is not its value's
/// canonical form (`+7`, ` 2.50 `, `45` as a float) stays text, so that decoding gives the
/// same XML back ([`Lexical::Keep`]); [`encode_events_with`] and [`Lexical::Drop`] make it a
/// value anyway, white space around values collapsed.
/// A typed element that turns out to hold child elements, comments or PIs is encoded as an
/// ordinary element instead (its children may be typed themselves). Everything else is copied
/// as [`BinaryWriter::write_event`] does: defaulted attributes kept, the doctype dropped.
///
/// ```
/// use xwire::binary::{encode_events, MapTyping, PrimitiveType};
/// let typing = &mut MapTyping::builder().leaf("", "n", PrimitiveType::U8).build();
/// let err = encode_events(&mut xwire::Reader::from_slice(b"<r>\n<n>300</n></r>"), typing, Vec::new())
///     .unwrap_err();
/// assert_eq!(err.to_string(), "2:1: element 'n': '300' is not a valid u8 value");
/// ```
pub fn encode_events<W: Write>(
    reader: &mut Reader<'_>,
    typing: &mut dyn Typing,
    out: W,
) -> Result<W, EncodeError> {
    encode_events_with(reader, typing, out, Lexical::Keep)
}

/// [`encode_events`], treating the text of typed elements as `lexical` says.
pub fn encode_events_with<W: Write>(
    reader: &mut Reader<'_>,
    typing: &mut dyn Typing,
    out: W,
    lexical: Lexical,
) -> Result<W, EncodeError> {
    let mut enc = EventEncoder::new(out).lexical(lexical);
    loop {
        let (result, eof) = {
            let (offset, event) = reader.next_with_offset().map_err(EncodeError::Read)?;
            (
                enc.event(offset, &event, typing),
                matches!(event, Event::Eof),
            )
        };
        result.map_err(|e| e.locate(|o| reader.location_of(o)))?;
        if eof {
            break;
        }
    }
    enc.finish().map_err(|error| EncodeError::Write {
        error,
        location: reader.location(),
    })
}

impl EncodeError {
    /// The error with the line and column of its offset, from `location_of` (the
    /// reader's [`Reader::location_of`]); [`EventEncoder`] only knows offsets.
    pub fn locate(self, location_of: impl FnOnce(u64) -> Location) -> EncodeError {
        match self {
            EncodeError::Write { error, location } => EncodeError::Write {
                error,
                location: location_of(location.offset),
            },
            EncodeError::Value {
                element,
                error,
                location,
            } => EncodeError::Value {
                element,
                error,
                location: location_of(location.offset),
            },
            read => read,
        }
    }
}

/// The encoder behind [`encode_events`], fed one event at a time, for callers that read the
/// events themselves (the schema-typed encoder of `xwire-schema` reads them through its
/// validator, deciding types from the validation as it goes).
pub struct EventEncoder<W: Write> {
    w: BinaryWriter<W>,
    lexical: Lexical,
    /// The canonical text of the last typed value, compared with the text it came from.
    canonical: String,
    /// The innermost open element, when it is typed and has had only text so far.
    typed: Option<Typed>,
    /// Its text and CDATA so far, concatenated.
    text: String,
    /// Where each piece of `text` ends, and whether it was CDATA (to replay them).
    pieces: Vec<(usize, bool)>,
}

impl<W: Write> EventEncoder<W> {
    /// An encoder writing to `out` in the machine's byte order.
    pub fn new(out: W) -> EventEncoder<W> {
        EventEncoder::with_byte_order(out, ByteOrder::NATIVE)
    }

    /// An encoder writing every frame in byte order `order` (for a reader of the other
    /// order; see [`BinaryWriter::with_byte_order`]).
    pub fn with_byte_order(out: W, order: ByteOrder) -> EventEncoder<W> {
        EventEncoder {
            w: BinaryWriter::with_byte_order(out, order),
            lexical: Lexical::Keep,
            canonical: String::new(),
            typed: None,
            text: String::new(),
            pieces: Vec::new(),
        }
    }

    /// This encoder, treating the text of typed elements as `lexical` says (by default
    /// [`Lexical::Keep`]).
    pub fn lexical(mut self, lexical: Lexical) -> EventEncoder<W> {
        self.lexical = lexical;
        self
    }

    /// Encodes the event that starts at byte `offset`, asking `typing` about a start tag.
    /// Errors give the offset only (line and column 0): see [`EncodeError::locate`].
    ///
    /// Inline, with `step`: called once an event from the caller's loop, where the call cost
    /// 3% of encoding (the compiler stopped inlining it on its own when unrelated code
    /// changed).
    #[inline]
    pub fn event(
        &mut self,
        offset: u64,
        event: &Event<'_>,
        typing: &mut dyn Typing,
    ) -> Result<(), EncodeError> {
        let at = |offset| Location {
            offset,
            line: 0,
            column: 0,
        };
        self.step(offset, event, typing).map_err(|f| match f {
            Failure::Write(error) => EncodeError::Write {
                error,
                location: at(offset),
            },
            Failure::Value(element, error, start) => EncodeError::Value {
                element,
                error,
                location: at(start),
            },
        })
    }

    /// Checks that the document is complete, emits it and returns the sink.
    pub fn finish(self) -> Result<W, WriteError> {
        self.w.finish()
    }
}

/// A typed element whose content is being collected.
struct Typed {
    content: TypedContent,
    name: String,
    /// Offset of its start tag.
    offset: u64,
}

enum Failure {
    Write(WriteError),
    /// Element name, error, offset of its start tag.
    Value(String, ValueError, u64),
}

impl From<WriteError> for Failure {
    fn from(e: WriteError) -> Failure {
        Failure::Write(e)
    }
}

impl<W: Write> EventEncoder<W> {
    #[inline]
    fn step(
        &mut self,
        offset: u64,
        event: &Event<'_>,
        typing: &mut dyn Typing,
    ) -> Result<(), Failure> {
        match event {
            Event::Text(t) if self.typed.is_some() => self.collect(&t.unescape(), false),
            Event::CData(c) if self.typed.is_some() => self.collect(&c.text(), true),
            Event::End(_) => {
                if let Some(typed) = self.typed.take() {
                    self.write_typed(typed)?;
                }
                self.w.end_element()?;
            }
            Event::Start(tag) => {
                self.fall_back()?;
                self.w.write_event(event)?;
                let namespaces = InScopeNamespaces::of(self.w.scope());
                let content =
                    typing.element_type(tag.namespace_uri(), tag.local_name(), tag, &namespaces);
                if let Some(content) = content {
                    self.typed = Some(Typed {
                        content,
                        name: tag.name().to_string(),
                        offset,
                    });
                }
            }
            _ => {
                self.fall_back()?;
                self.w.write_event(event)?;
            }
        }
        Ok(())
    }

    fn collect(&mut self, text: &str, cdata: bool) {
        self.text.push_str(text);
        self.pieces.push((self.text.len(), cdata));
    }

    /// The typed element has other content: write what was collected as it came.
    fn fall_back(&mut self) -> Result<(), WriteError> {
        if self.typed.take().is_none() {
            return Ok(());
        }
        self.write_pieces()
    }

    /// Writes the collected text and CDATA as they came, and forgets them.
    fn write_pieces(&mut self) -> Result<(), WriteError> {
        let mut start = 0;
        for &(end, cdata) in &self.pieces {
            let piece = &self.text[start..end];
            if cdata {
                self.w.cdata(piece)?;
            } else {
                self.w.text(piece)?;
            }
            start = end;
        }
        self.text.clear();
        self.pieces.clear();
        Ok(())
    }

    fn write_typed(&mut self, typed: Typed) -> Result<(), Failure> {
        let text = std::mem::take(&mut self.text);
        let fail = |e: ValueError| Failure::Value(typed.name.clone(), e, typed.offset);
        let keep = self.lexical == Lexical::Keep;
        let canonical = &mut self.canonical;
        canonical.clear();
        // Under `Lexical::Keep`, a value is written as one only if decoding gives its text
        // back: its canonical form, which `write_text` writes, is the text it came from.
        let exact = |canonical: &String| !keep || *canonical == text;
        match typed.content {
            TypedContent::Leaf(PrimitiveType::Bytes) => {
                let bytes = parse_base64(&text).map_err(fail)?;
                if keep {
                    push_base64(canonical, &bytes);
                }
                if exact(canonical) {
                    self.w.value(TypedValue::Bytes(&bytes))?;
                    return self.typed_done(text);
                }
            }
            // A string leaf is its text.
            TypedContent::Leaf(PrimitiveType::String) => {
                self.w.value(TypedValue::String(&text))?;
                return self.typed_done(text);
            }
            TypedContent::Leaf(ty) => {
                let value = TypedValue::parse(ty, &text).map_err(fail)?;
                if keep {
                    value.write_text(canonical);
                }
                if exact(canonical) {
                    self.w.value(value)?;
                    return self.typed_done(text);
                }
            }
            TypedContent::Array(ty) => {
                let array = Array::parse(ty, &text).map_err(fail)?;
                if keep {
                    array.write_text(canonical);
                }
                if exact(canonical) {
                    self.w.array(&array)?;
                    return self.typed_done(text);
                }
            }
        }
        // Not in its canonical form: kept as the text it is.
        self.text = text;
        self.write_pieces()?;
        Ok(())
    }

    /// After a typed value is written: the text buffer back, empty, for the next one.
    fn typed_done(&mut self, mut text: String) -> Result<(), Failure> {
        text.clear();
        self.text = text;
        self.pieces.clear();
        Ok(())
    }
}

/// What [`EventEncoder`] (and [`encode_events`]) does with the text of an element its
/// [`Typing`] types.
///
/// ```
/// use xwire::binary::{decode_to_text, encode_events_with, Lexical, XsiTyping};
/// let xml = br#"<v xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xsi:type="xsd:float">45</v>"#;
/// let text = |lexical| {
///     let r = &mut xwire::Reader::from_slice(xml);
///     let bin = encode_events_with(r, &mut XsiTyping, Vec::new(), lexical).unwrap();
///     String::from_utf8(decode_to_text(&bin, Vec::new()).unwrap()).unwrap()
/// };
/// assert!(text(Lexical::Keep).ends_with(">45</v>"));
/// assert!(text(Lexical::Drop).ends_with(">45.0</v>"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lexical {
    /// A typed element becomes a typed value (a leaf or a packed array) only if decoding
    /// writes its text back exactly, that is if the text is the canonical form of its value;
    /// otherwise it stays text (`45` typed `xsd:float`, whose canonical form is `45.0`;
    /// ` 7`; base64 with line breaks). Text → binary → text then gives the same canonical
    /// XML, byte for byte, and a signature over it still verifies. The default.
    #[default]
    Keep,
    /// Every typed element becomes a typed value, and decoding writes the value's
    /// canonical form (`45` comes back as `45.0`): smaller and faster when only the values
    /// matter.
    Drop,
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}
