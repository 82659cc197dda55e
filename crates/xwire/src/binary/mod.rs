//! Binary XML: a typed data model encoded as nested frames with packed arrays
//! (`docs/binary-format.md`), transcodable to and from text XML.
//!
//! Writing: [`BinaryWriter`] has the methods of the text
//! [`Writer`](crate::writer::Writer) (both implement [`XmlSink`](crate::writer::XmlSink)) plus
//! typed values and arrays; [`encode_events`] transcodes a text document, typing elements
//! through a [`Typing`] ([`XsiTyping`], [`MapTyping`]).
//!
//! [`NodeId`] and [`Children`] share their names with [`tree::NodeId`](crate::tree::NodeId) and
//! [`index::Children`](crate::index::Children) on purpose: each document model has its own node
//! id and child iterator, meant to be named module-qualified (`binary::NodeId`), as std has
//! `btree_map::Iter` and `hash_map::Iter`.

mod encode;
pub(crate) mod format;
mod model;
mod to_text;
pub(crate) mod value;
mod writer;

use crate::error::{Error, ErrorKind, Location};

pub use encode::{
    encode_events, encode_events_with, EncodeError, EventEncoder, InScopeNamespaces, Lexical,
    MapTyping, MapTypingBuilder, TypedContent, Typing, XsiTyping,
};
pub use format::{
    is_binary, varint_len, write_varint, ByteOrder, FrameInfo, FrameKind, PrimitiveType,
    BIG_ENDIAN_BIT, HEADER_LEN, MAGIC, VERSION,
};
pub use model::{Children, Kind, NodeId, ReadOptions, TypedDocument};
pub use to_text::{decode_to_text, DecodeError};
pub use value::{parse_base64, push_base64, Array, Primitive, Typed, TypedValue, ValueError};
pub use writer::BinaryWriter;

/// Reads a varint at `*pos` of `bytes`, advancing `*pos` past it. Rejects overlong and
/// non-minimal encodings (so every value has exactly one encoding).
///
/// A varint that runs past the end of `bytes`, or is not valid, is an [`ErrorKind::Binary`]
/// error located as the reader locates binary input (line 1, column `*pos + 1`), and `*pos`
/// does not move.
///
/// ```
/// use xwire::binary::{read_varint, write_varint};
/// let mut bytes = Vec::new();
/// write_varint(&mut bytes, 300);
/// let mut pos = 0;
/// assert_eq!(read_varint(&bytes, &mut pos)?, 300);
/// assert_eq!(pos, 2);
/// assert!(read_varint(&[0x80], &mut 0).is_err());
/// # Ok::<(), xwire::Error>(())
/// ```
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, Error> {
    format::read_varint(bytes, pos).map_err(|e| {
        let what = match e {
            format::VarintError::Truncated => "the varint runs past the end of the bytes",
            format::VarintError::Invalid => "invalid varint (over 64 bits, or not minimal)",
        };
        let location = Location {
            offset: *pos as u64,
            line: 1,
            column: *pos as u64 + 1,
        };
        Error::new(ErrorKind::Binary(what.into()), location)
    })
}
