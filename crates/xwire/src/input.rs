//! Encoding detection and transcoding to UTF-8.
//!
//! The reader works on UTF-8 only. This module decides, from the byte order mark and the
//! encoding declaration (XML 1.0 Appendix F), which encoding the bytes are in, and turns them into
//! UTF-8: not at all for UTF-8 (the scanner validates it while it reads), by a small loop for
//! ISO-8859-1 and US-ASCII, and through `encoding_rs` for everything else. A declaration that
//! contradicts the bytes is an error.

use encoding_rs::{DecoderResult, Encoding};

/// The encoding a document's bytes are in, as decided by [`detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Enc {
    /// UTF-8, with `bom` bytes of byte order mark to skip.
    Utf8 { bom: usize },
    /// ISO-8859-1: every byte is the code point of the same value.
    Latin1,
    /// US-ASCII: bytes above 0x7F are errors.
    Ascii,
    /// Anything `encoding_rs` decodes (UTF-16 included), with `bom` bytes to skip.
    Other { enc: &'static Encoding, bom: usize },
}

impl Enc {
    pub(crate) fn bom_len(self) -> usize {
        match self {
            Enc::Utf8 { bom } | Enc::Other { bom, .. } => bom,
            _ => 0,
        }
    }
}

/// The byte layout the first bytes reveal, before the declaration is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Utf8Bom,
    Utf16LeBom,
    Utf16BeBom,
    Utf16Le,
    Utf16Be,
    AsciiCompatible,
}

fn family(b: &[u8]) -> Result<Family, String> {
    Ok(match b {
        [0xEF, 0xBB, 0xBF, ..] => Family::Utf8Bom,
        [0xFF, 0xFE, 0, 0, ..]
        | [0, 0, 0xFE, 0xFF, ..]
        | [0, 0, 0, 0x3C, ..]
        | [0x3C, 0, 0, 0, ..] => return Err("UCS-4 is not supported".into()),
        [0xFF, 0xFE, ..] => Family::Utf16LeBom,
        [0xFE, 0xFF, ..] => Family::Utf16BeBom,
        [0x3C, 0, 0x3F, 0, ..] => Family::Utf16Le,
        [0, 0x3C, 0, 0x3F, ..] => Family::Utf16Be,
        [0x4C, 0x6F, 0xA7, 0x94, ..] => return Err("EBCDIC is not supported".into()),
        _ => Family::AsciiCompatible,
    })
}

fn is_utf16_label(l: &str) -> bool {
    matches!(
        l,
        "utf-16" | "utf-16le" | "utf-16be" | "iso-10646-ucs-2" | "ucs-2" | "unicode"
    )
}

/// Decides the encoding of a document (or external entity) from its first bytes. `head` should
/// hold at least the first few hundred bytes, or the whole input if it is shorter.
#[inline]
pub(crate) fn detect(head: &[u8]) -> Result<Enc, String> {
    // Most documents without a declaration start with their root's `<` and a name: no byte
    // order mark, no declaration, an ASCII-compatible encoding (what the rest concludes too).
    if let [b'<', b, ..] = head {
        if *b != b'?' && *b != 0 {
            return Ok(Enc::Utf8 { bom: 0 });
        }
    }
    detect_marked(head)
}

/// [`detect`] of a document that starts with a byte order mark, a declaration or anything
/// but markup.
#[inline(never)]
fn detect_marked(head: &[u8]) -> Result<Enc, String> {
    let bom = match family(head)? {
        Family::AsciiCompatible => 0,
        Family::Utf8Bom => 3,
        fam => return detect_utf16(head, fam),
    };
    if crate::decl::usual(&head[bom..]).is_some() {
        return Ok(Enc::Utf8 { bom });
    }
    match crate::decl::declared_encoding(&head[bom..]) {
        None => Ok(Enc::Utf8 { bom }),
        Some(l) if l.eq_ignore_ascii_case(b"utf-8") || l.eq_ignore_ascii_case(b"utf8") => {
            Ok(Enc::Utf8 { bom })
        }
        Some(label) => declared_other(label, bom),
    }
}

/// A document in UTF-16 (by its byte order mark or first bytes): the declaration must agree.
#[cold]
fn detect_utf16(head: &[u8], fam: Family) -> Result<Enc, String> {
    let (enc, bom) = match fam {
        Family::Utf16LeBom => (encoding_rs::UTF_16LE, 2),
        Family::Utf16BeBom => (encoding_rs::UTF_16BE, 2),
        Family::Utf16Le => (encoding_rs::UTF_16LE, 0),
        _ => (encoding_rs::UTF_16BE, 0),
    };
    // Read the declaration through a decoding of the first bytes.
    let n = head.len().min(1024) & !1;
    let (text, _) = enc.decode_without_bom_handling(&head[bom..n.max(bom)]);
    if let Some(label) = crate::decl::declared_encoding(text.as_bytes()) {
        let l = String::from_utf8_lossy(label).to_ascii_lowercase();
        if !is_utf16_label(&l) {
            return Err(format!(
                "the document is in UTF-16 but declares encoding \"{}\"",
                String::from_utf8_lossy(label)
            ));
        }
    } else if bom == 0 {
        return Err("UTF-16 without a byte order mark must declare its encoding".into());
    }
    Ok(Enc::Other { enc, bom })
}

/// An ASCII-compatible document that declares an encoding other than UTF-8 (out of line:
/// most documents are UTF-8).
#[cold]
fn declared_other(label: &[u8], bom: usize) -> Result<Enc, String> {
    let l = String::from_utf8_lossy(label).to_ascii_lowercase();
    match l.as_str() {
        _ if bom != 0 => Err(format!(
            "the document starts with a UTF-8 byte order mark but declares encoding \"{}\"",
            String::from_utf8_lossy(label)
        )),
        "iso-8859-1" | "iso8859-1" | "latin1" | "l1" | "iso_8859-1" | "iso-ir-100" | "cp819"
        | "ibm819" | "iso_8859-1:1987" | "csisolatin1" => Ok(Enc::Latin1),
        "us-ascii" | "ascii" | "iso-ir-6" | "ansi_x3.4-1968" | "ansi_x3.4-1986" | "iso646-us"
        | "us" | "ibm367" | "cp367" | "csascii" => Ok(Enc::Ascii),
        _ if is_utf16_label(&l) => Err(format!(
            "encoding \"{}\" declared, but the bytes are not UTF-16 (no byte order mark)",
            String::from_utf8_lossy(label)
        )),
        _ => match Encoding::for_label_no_replacement(label) {
            Some(enc) if enc.is_ascii_compatible() => Ok(Enc::Other { enc, bom: 0 }),
            _ => Err(format!(
                "unsupported encoding \"{}\"",
                String::from_utf8_lossy(label)
            )),
        },
    }
}

/// Decodes a whole input to UTF-8 in one go (for non-UTF-8 slices and external entities).
/// On a byte sequence that is invalid in the encoding, returns the offset in the input.
/// Decodes a whole document: the UTF-8 text, and the error that stopped decoding if any (the
/// text then holds everything before the bad bytes).
pub(crate) fn decode_all(bytes: &[u8], enc: Enc) -> (Vec<u8>, Option<(usize, String)>) {
    let mut d = ChunkDecoder::new(enc);
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 2);
    let err = d
        .decode(&bytes[enc.bom_len().min(bytes.len())..], &mut out, true)
        .err();
    (out, err)
}

/// A decoder that turns a stream of bytes in a non-UTF-8 encoding into UTF-8, chunk by chunk.
pub(crate) struct ChunkDecoder {
    kind: DecoderKind,
    /// Bytes consumed so far, for error offsets.
    consumed: usize,
}

enum DecoderKind {
    Latin1,
    Ascii,
    Rs(Box<encoding_rs::Decoder>),
    Utf8,
}

impl ChunkDecoder {
    pub(crate) fn new(enc: Enc) -> ChunkDecoder {
        let kind = match enc {
            Enc::Utf8 { .. } => DecoderKind::Utf8,
            Enc::Latin1 => DecoderKind::Latin1,
            Enc::Ascii => DecoderKind::Ascii,
            Enc::Other { enc, .. } => {
                DecoderKind::Rs(Box::new(enc.new_decoder_without_bom_handling()))
            }
        };
        ChunkDecoder { kind, consumed: 0 }
    }

    /// Appends the UTF-8 form of `input` to `out`. Partial sequences at the end of `input` are
    /// kept inside the decoder for the next call unless `last` is set.
    /// On an error, `out` holds what was decoded before the bad bytes.
    pub(crate) fn decode(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        last: bool,
    ) -> Result<(), (usize, String)> {
        match &mut self.kind {
            DecoderKind::Utf8 => out.extend_from_slice(input),
            DecoderKind::Latin1 => {
                out.reserve(input.len() * 2);
                for &b in input {
                    if b < 0x80 {
                        out.push(b);
                    } else {
                        out.push(0xC0 | (b >> 6));
                        out.push(0x80 | (b & 0x3F));
                    }
                }
            }
            DecoderKind::Ascii => {
                if let Some(i) = input.iter().position(|&b| b >= 0x80) {
                    out.extend_from_slice(&input[..i]);
                    return Err((
                        self.consumed + i,
                        format!("byte 0x{:02X} is not US-ASCII", input[i]),
                    ));
                }
                out.extend_from_slice(input);
            }
            DecoderKind::Rs(dec) => {
                let mut src = input;
                loop {
                    let need = dec
                        .max_utf8_buffer_length_without_replacement(src.len())
                        .unwrap_or(src.len() * 3 + 16);
                    let start = out.len();
                    out.resize(start + need, 0);
                    let (res, read, written) =
                        dec.decode_to_utf8_without_replacement(src, &mut out[start..], last);
                    out.truncate(start + written);
                    match res {
                        DecoderResult::InputEmpty => break,
                        DecoderResult::OutputFull => src = &src[read..],
                        DecoderResult::Malformed(bad, _) => {
                            let at =
                                self.consumed + (input.len() - src.len()) + read - bad as usize;
                            return Err((
                                at,
                                format!("malformed {} byte sequence", dec.encoding().name()),
                            ));
                        }
                    }
                }
            }
        }
        self.consumed += input.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_families() {
        assert_eq!(detect(b"<a/>").unwrap(), Enc::Utf8 { bom: 0 });
        assert_eq!(detect(b"\xEF\xBB\xBF<a/>").unwrap(), Enc::Utf8 { bom: 3 });
        assert_eq!(
            detect(b"<?xml version='1.0' encoding='ISO-8859-1'?><a/>").unwrap(),
            Enc::Latin1
        );
        assert!(matches!(
            detect(b"\xFF\xFE<\0a\0/\0>\0").unwrap(),
            Enc::Other { bom: 2, .. }
        ));
        assert!(detect(b"<?xml version='1.0' encoding='UTF-16'?><a/>").is_err());
        assert!(detect(b"\xEF\xBB\xBF<?xml version='1.0' encoding='latin1'?><a/>").is_err());
        assert!(detect(b"<?xml version='1.0' encoding='x-no-such'?><a/>").is_err());
        assert!(matches!(
            detect(b"<?xml version='1.0' encoding='Shift_JIS'?><a/>").unwrap(),
            Enc::Other { bom: 0, .. }
        ));
    }

    #[test]
    fn latin1_is_not_windows_1252() {
        let (out, err) = decode_all(b"\x80\xE9", Enc::Latin1);
        assert!(err.is_none());
        assert_eq!(String::from_utf8(out).unwrap(), "\u{80}\u{E9}");
    }

    #[test]
    fn utf16_chunks_split_anywhere() {
        let text = "<a>\u{1F600}é</a>";
        let bytes: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        for split in 0..bytes.len() {
            let mut d = ChunkDecoder::new(Enc::Other {
                enc: encoding_rs::UTF_16LE,
                bom: 0,
            });
            let mut out = Vec::new();
            d.decode(&bytes[..split], &mut out, false).unwrap();
            d.decode(&bytes[split..], &mut out, true).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), text);
        }
    }

    #[test]
    fn ascii_rejects_high_bytes() {
        let (prefix, err) = decode_all(b"ab\xC3", Enc::Ascii);
        assert_eq!((prefix.as_slice(), err.map(|e| e.0)), (&b"ab"[..], Some(2)));
    }
}
