//! The constants and primitives of the binary format (`docs/binary-format.md`): the header,
//! frame kinds, type codes and LEB128 varints.

use std::ops::Range;

/// The first 8 bytes of every `.xwb` file: `\x89XWB\r\n\x1a\n`.
pub const MAGIC: [u8; 8] = [0x89, b'X', b'W', b'B', 0x0D, 0x0A, 0x1A, 0x0A];
/// The format version this crate reads and writes.
pub const VERSION: u8 = 1;
/// Header length: magic, version, flags.
pub const HEADER_LEN: usize = 10;
/// The byte-order bit of a frame prefix (set: big-endian contents).
pub const BIG_ENDIAN_BIT: u8 = 0x80;

/// The byte order of the fixed-width numbers in a frame (the E bit of its prefix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Least significant byte first (E = 0).
    Little,
    /// Most significant byte first (E = 1).
    Big,
}

impl ByteOrder {
    /// The byte order of the machine this code runs on.
    ///
    /// ```
    /// use xwire::binary::ByteOrder;
    /// assert_eq!(ByteOrder::NATIVE == ByteOrder::Big, cfg!(target_endian = "big"));
    /// ```
    pub const NATIVE: ByteOrder = if cfg!(target_endian = "big") {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };

    /// The byte order a frame prefix declares.
    pub fn of_prefix(prefix: u8) -> ByteOrder {
        if prefix & BIG_ENDIAN_BIT != 0 {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    /// The E bit to set in frame prefixes of this order.
    pub fn prefix_bit(self) -> u8 {
        match self {
            ByteOrder::Little => 0,
            ByteOrder::Big => BIG_ENDIAN_BIT,
        }
    }
}

/// Whether `bytes` start like a binary XML file (the magic number), as opposed to text XML.
///
/// ```
/// assert!(xwire::binary::is_binary(b"\x89XWB\r\n\x1a\n\x01\x00"));
/// assert!(!xwire::binary::is_binary(b"<a/>"));
/// ```
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// The kind of a frame (bits 0-6 of its prefix byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FrameKind {
    /// The document: string table, then the top-level frames.
    Document = 0x01,
    /// An element with child frames.
    Element = 0x02,
    /// An element holding one typed value.
    Leaf = 0x03,
    /// An element holding a packed array of one primitive type.
    Array = 0x04,
    /// Character data.
    Text = 0x05,
    /// A CDATA section.
    CData = 0x06,
    /// A comment.
    Comment = 0x07,
    /// A processing instruction.
    Pi = 0x08,
}

impl FrameKind {
    /// The kind of a prefix byte's low 7 bits, `None` for reserved codes.
    pub fn from_code(code: u8) -> Option<FrameKind> {
        Some(match code {
            0x01 => FrameKind::Document,
            0x02 => FrameKind::Element,
            0x03 => FrameKind::Leaf,
            0x04 => FrameKind::Array,
            0x05 => FrameKind::Text,
            0x06 => FrameKind::CData,
            0x07 => FrameKind::Comment,
            0x08 => FrameKind::Pi,
            _ => return None,
        })
    }

    /// Whether frames of this kind are elements (ELEMENT, LEAF, ARRAY).
    pub fn is_element(self) -> bool {
        matches!(
            self,
            FrameKind::Element | FrameKind::Leaf | FrameKind::Array
        )
    }
}

/// The primitive types of leaf and array values, with their type codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PrimitiveType {
    /// Signed 8-bit integer.
    I8 = 0x01,
    /// Signed 16-bit integer.
    I16 = 0x02,
    /// Signed 32-bit integer.
    I32 = 0x03,
    /// Signed 64-bit integer.
    I64 = 0x04,
    /// Unsigned 8-bit integer.
    U8 = 0x05,
    /// Unsigned 16-bit integer.
    U16 = 0x06,
    /// Unsigned 32-bit integer.
    U32 = 0x07,
    /// Unsigned 64-bit integer.
    U64 = 0x08,
    /// IEEE 754 binary32.
    F32 = 0x09,
    /// IEEE 754 binary64.
    F64 = 0x0A,
    /// Boolean, one byte 0 or 1.
    Bool = 0x0B,
    /// UTF-8 string (leaves only).
    String = 0x0C,
    /// Bytes (leaves only), base64 in text.
    Bytes = 0x0D,
}

impl PrimitiveType {
    /// Every type, in code order.
    pub const ALL: [PrimitiveType; 13] = [
        PrimitiveType::I8,
        PrimitiveType::I16,
        PrimitiveType::I32,
        PrimitiveType::I64,
        PrimitiveType::U8,
        PrimitiveType::U16,
        PrimitiveType::U32,
        PrimitiveType::U64,
        PrimitiveType::F32,
        PrimitiveType::F64,
        PrimitiveType::Bool,
        PrimitiveType::String,
        PrimitiveType::Bytes,
    ];

    /// The type of a type code, `None` for unknown codes.
    pub fn from_code(code: u8) -> Option<PrimitiveType> {
        PrimitiveType::ALL
            .get(code.wrapping_sub(1) as usize)
            .copied()
    }

    /// The size of one value in bytes; `None` for the variable-length string and bytes.
    pub fn width(self) -> Option<usize> {
        use PrimitiveType::*;
        Some(match self {
            I8 | U8 | Bool => 1,
            I16 | U16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 => 8,
            String | Bytes => return None,
        })
    }

    /// The name used by the CLI and in messages (`f64`, `i32`, `string`, ...).
    pub fn name(self) -> &'static str {
        use PrimitiveType::*;
        match self {
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            F32 => "f32",
            F64 => "f64",
            Bool => "bool",
            String => "string",
            Bytes => "bytes",
        }
    }

    /// The type named `name` (see [`PrimitiveType::name`]).
    pub fn from_name(name: &str) -> Option<PrimitiveType> {
        PrimitiveType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The type that holds the values of the XML Schema built-in datatype `local` (in the
    /// XSD namespace), for the built-ins with a native form; `None` for the others
    /// (decimal, integer, dates, ...), which stay text.
    ///
    /// ```
    /// use xwire::binary::PrimitiveType;
    /// assert_eq!(PrimitiveType::of_xsd_builtin("unsignedShort"), Some(PrimitiveType::U16));
    /// assert_eq!(PrimitiveType::of_xsd_builtin("decimal"), None);
    /// ```
    pub fn of_xsd_builtin(local: &str) -> Option<PrimitiveType> {
        use PrimitiveType as P;
        Some(match local {
            "byte" => P::I8,
            "short" => P::I16,
            "int" => P::I32,
            "long" => P::I64,
            "unsignedByte" => P::U8,
            "unsignedShort" => P::U16,
            "unsignedInt" => P::U32,
            "unsignedLong" => P::U64,
            "float" => P::F32,
            "double" => P::F64,
            "boolean" => P::Bool,
            "string" | "normalizedString" | "token" => P::String,
            "base64Binary" => P::Bytes,
            _ => return None,
        })
    }
}

/// Appends `v` as a minimal LEB128 varint.
#[inline]
pub fn write_varint(out: &mut Vec<u8>, v: u64) {
    let (bytes, n) = encode_varint(v);
    out.extend_from_slice(&bytes[..n]);
}

/// `v` as a minimal LEB128 varint: the bytes and how many of them are used.
#[inline]
pub(crate) fn encode_varint(mut v: u64) -> ([u8; 10], usize) {
    let mut b = [0u8; 10];
    let mut n = 0;
    while v >= 0x80 {
        b[n] = v as u8 | 0x80;
        v >>= 7;
        n += 1;
    }
    b[n] = v as u8;
    (b, n + 1)
}

/// The number of bytes of `v` as a varint.
#[inline]
pub fn varint_len(v: u64) -> usize {
    // 1 + floor(bits / 7), with 0 taking one byte.
    let bits = 64 - (v | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Why a varint could not be read. Crate-private: the public
/// [`read_varint`](crate::binary::read_varint) reports it as an [`Error`](crate::Error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarintError {
    /// The bytes ended inside it.
    Truncated,
    /// More than 64 bits, or a non-minimal encoding.
    Invalid,
}

/// Reads a varint at `*pos`, advancing `*pos` past it. Rejects overlong and non-minimal
/// encodings (so every value has exactly one encoding).
#[inline]
pub(crate) fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, VarintError> {
    // Most varints (sizes of small frames, counts, string references) are one byte.
    if let Some(&b) = bytes.get(*pos) {
        if b < 0x80 {
            *pos += 1;
            return Ok(u64::from(b));
        }
    }
    read_long_varint(bytes, pos)
}

/// [`read_varint`] past its one-byte fast path.
fn read_long_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, VarintError> {
    let mut v = 0u64;
    let mut shift = 0u32;
    let mut i = *pos;
    loop {
        let Some(&b) = bytes.get(i) else {
            return Err(VarintError::Truncated);
        };
        i += 1;
        if shift == 63 && b > 1 {
            return Err(VarintError::Invalid);
        }
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            if b == 0 && shift > 0 {
                return Err(VarintError::Invalid);
            }
            *pos = i;
            return Ok(v);
        }
        shift += 7;
        if shift > 63 {
            return Err(VarintError::Invalid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_with_minimal_lengths() {
        for v in [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u32::MAX as u64,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out.len(), varint_len(v), "{v}");
            let mut pos = 0;
            assert_eq!(read_varint(&out, &mut pos), Ok(v));
            assert_eq!(pos, out.len());
        }
        assert_eq!(varint_len(u64::MAX), 10);
    }

    #[test]
    fn bad_varints_are_errors() {
        let mut pos = 0;
        assert_eq!(read_varint(&[0x80], &mut pos), Err(VarintError::Truncated));
        assert_eq!(
            read_varint(&[0x80, 0x00], &mut 0),
            Err(VarintError::Invalid)
        );
        assert_eq!(read_varint(&[0xFF; 10], &mut 0), Err(VarintError::Invalid));
        let mut too_big = vec![0xFF; 9];
        too_big.push(0x02);
        assert_eq!(read_varint(&too_big, &mut 0), Err(VarintError::Invalid));
        assert_eq!(pos, 0);
    }

    #[test]
    fn type_codes_and_names_round_trip() {
        for t in PrimitiveType::ALL {
            assert_eq!(PrimitiveType::from_code(t as u8), Some(t));
            assert_eq!(PrimitiveType::from_name(t.name()), Some(t));
        }
        assert_eq!(PrimitiveType::from_code(0), None);
        assert_eq!(PrimitiveType::from_code(0x0E), None);
    }
}

/// Where the frame of the current event lies in a binary file, as
/// [`crate::Reader::frame`] returns it: for tools that show or patch the layout (`xwire
/// inspect`), and for checking where arrays landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// Offset of the frame's prefix byte in the file.
    pub offset: usize,
    /// The frame's kind.
    pub kind: FrameKind,
    /// The byte order its prefix declares.
    pub byte_order: ByteOrder,
    /// The body: what follows the prefix and the size.
    pub body: Range<usize>,
    /// LEAF: the value's bytes (for strings and bytes, after their length); ARRAY: the packed
    /// values, after the padding (aligned to the type's width from the start of the file when
    /// the writer followed the format). `None` for other kinds.
    pub values: Option<Range<usize>>,
}
