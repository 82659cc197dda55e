//! Binary XML: a typed data model encoded as nested frames with packed arrays
//! (`docs/binary-format.md`), transcodable to and from text XML.

pub(crate) mod decode;
mod format;
mod to_text;
mod value;

pub use decode::Typed;
pub use format::{
    is_binary, read_varint, varint_len, write_varint, FrameKind, PrimitiveType, VarintError,
    BIG_ENDIAN_BIT, HEADER_LEN, MAGIC, VERSION,
};
pub use to_text::{decode_to_text, DecodeError};
pub use value::{parse_base64, push_base64, Array, Primitive, Value, ValueError};
