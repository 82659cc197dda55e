//! Binary XML: a typed data model encoded as nested frames with packed arrays
//! (`docs/binary-format.md`), transcodable to and from text XML.
//!
//! Writing: [`BinaryWriter`] has the methods of the text
//! [`Writer`](crate::writer::Writer) (both implement [`XmlSink`](crate::writer::XmlSink)) plus
//! typed values and arrays; [`encode_events`] transcodes a text document, typing elements
//! through a [`Typing`] ([`XsiTyping`], [`MapTyping`]).

mod encode;
pub(crate) mod format;
mod model;
mod to_text;
pub(crate) mod value;
mod writer;

pub use encode::{
    encode_events, EncodeError, EventEncoder, MapTyping, MapTypingBuilder, Namespaces,
    TypedContent, Typing, XsiTyping,
};
pub use format::{
    is_binary, read_varint, varint_len, write_varint, ByteOrder, FrameInfo, FrameKind,
    PrimitiveType, VarintError, BIG_ENDIAN_BIT, HEADER_LEN, MAGIC, VERSION,
};
pub use model::{Children, Document, Kind, NodeId};
pub use to_text::{decode_to_text, DecodeError};
pub use value::{parse_base64, push_base64, Array, Primitive, Typed, Value, ValueError};
pub use writer::BinaryWriter;
