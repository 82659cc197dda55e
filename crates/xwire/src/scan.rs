//! Byte-level scanning primitives: the only code that looks at input bytes one by one.
//!
//! Everything here works on a UTF-8 byte slice and a position, returns the position after what
//! it recognised, and reports problems as a [`Stop`] so callers can tell "the buffer ended" (read
//! more and retry) from "the input is wrong" (an error at this offset).

use crate::chars::{self, CLASS};
use crate::error::ErrorKind;
use crate::simd;

/// Views bytes known to be UTF-8 as a `str`, without reading them again.
///
/// The reader checks every character of the input once, where it scans it (text, names,
/// attribute values, comments, PIs, CDATA, literals, binary strings); spans cut from that
/// input afterwards are viewed through this function, since re-validating would read every
/// byte a second time. Bytes that are a `str` already should be sliced as one instead.
///
/// # Safety
///
/// `b` must be valid UTF-8: bytes the scanner (or the binary decoder) checked as UTF-8
/// characters, or a slice of a `str` that starts and ends on character boundaries (at ASCII
/// delimiters, or at the end of a scanned character). Anything else makes a `str` that breaks
/// the language's invariant: undefined behaviour. Debug builds check it.
#[inline]
#[allow(unsafe_code)]
pub(crate) unsafe fn str_of(b: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(b).is_ok(), "span not validated: {b:?}");
    // SAFETY: the caller promises that `b` is UTF-8 (see above).
    unsafe { std::str::from_utf8_unchecked(b) }
}

/// Why a scanning primitive stopped without a result.
///
/// Kept two words wide (the error is boxed) because every scanning function returns it: a
/// wide `Result` would be copied through memory on the hot path.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The data ended before the construct did; more input may complete it.
    Eof,
    /// The input is wrong at this offset.
    Bad(Box<(usize, ErrorKind)>),
}

impl Stop {
    #[cold]
    pub(crate) fn at(at: usize, kind: ErrorKind) -> Stop {
        Stop::Bad(Box::new((at, kind)))
    }
}

pub(crate) type Scan<T> = Result<T, Stop>;

#[cold]
pub(crate) fn bad<T>(at: usize, kind: ErrorKind) -> Scan<T> {
    Err(Stop::at(at, kind))
}

#[cold]
pub(crate) fn syntax<T>(at: usize, expected: &'static str, data: &[u8]) -> Scan<T> {
    bad(
        at,
        ErrorKind::Syntax {
            expected,
            found: describe(data, at),
        },
    )
}

/// A short human description of what is at `at`, for error messages. It looks at the one
/// byte at `at` only: a streaming reader may hold no more than that, and the message must not
/// depend on how the input was chunked.
#[cold]
pub(crate) fn describe(data: &[u8], at: usize) -> String {
    match data.get(at) {
        None => "end of input".to_string(),
        Some(&b) if b.is_ascii_graphic() => format!("'{}'", b as char),
        Some(&b) if b < 0x80 => format!("character U+{b:04X}"),
        Some(_) => "a non-ASCII character".to_string(),
    }
}

/// Decodes one non-ASCII UTF-8 character at `pos` (`data[pos] >= 0x80`) and checks that it is a
/// legal XML `Char`. Returns the character and its length in bytes.
#[inline]
pub(crate) fn utf8_char(data: &[u8], pos: usize) -> Scan<(char, usize)> {
    let b0 = data[pos];
    let (len, min) = match b0 {
        0xC2..=0xDF => (2, 0x80),
        0xE0..=0xEF => (3, 0x800),
        0xF0..=0xF4 => (4, 0x10000),
        _ => {
            return bad(
                pos,
                ErrorKind::InvalidEncoding(format!(
                    "byte 0x{b0:02X} cannot start a UTF-8 sequence"
                )),
            )
        }
    };
    if pos + len > data.len() {
        // The sequence may be completed by the next chunk. A byte that cannot continue it is
        // reported as the complete-data path below would, so chunking never changes the error.
        if data[pos + 1..].iter().any(|&b| b & 0xC0 != 0x80) {
            return bad(
                pos,
                ErrorKind::InvalidEncoding("invalid UTF-8 sequence".into()),
            );
        }
        return Err(Stop::Eof);
    }
    let mut cp = (b0 as u32) & (0x7F >> len);
    for i in 1..len {
        let b = data[pos + i];
        if b & 0xC0 != 0x80 {
            return bad(
                pos,
                ErrorKind::InvalidEncoding("invalid UTF-8 sequence".into()),
            );
        }
        cp = (cp << 6) | (b as u32 & 0x3F);
    }
    if cp < min || cp > 0x10FFFF || (0xD800..=0xDFFF).contains(&cp) {
        return bad(
            pos,
            ErrorKind::InvalidEncoding("invalid UTF-8 sequence".into()),
        );
    }
    let c = char::from_u32(cp).expect("checked scalar value");
    if cp == 0xFFFE || cp == 0xFFFF {
        return bad(pos, ErrorKind::InvalidChar(c));
    }
    Ok((c, len))
}

/// Decodes the character at `pos` (any byte value), checking that it is a legal `Char`.
#[inline]
pub(crate) fn any_char(data: &[u8], pos: usize) -> Scan<(char, usize)> {
    let b = data[pos];
    if b < 0x80 {
        if CLASS[b as usize] & chars::BAD_CTRL != 0 {
            return bad(pos, ErrorKind::InvalidChar(b as char));
        }
        Ok((b as char, 1))
    } else {
        utf8_char(data, pos)
    }
}

/// Scans a `Name` starting at `pos`; returns the end position. `what` names the construct for
/// error messages. The name must be followed by something (more data) or the caller knows the
/// data is complete (`eof`).
#[inline]
pub(crate) fn name(data: &[u8], pos: usize, eof: bool, what: &'static str) -> Scan<usize> {
    // ASCII names are the common case: one table load per byte, no decoding.
    match data.get(pos) {
        Some(&b) if CLASS[b as usize] & chars::NAME_START != 0 => {}
        Some(&b) if b >= 0x80 => return name_slow(data, pos, eof, what),
        Some(_) => return syntax(pos, what, data),
        None => {
            return if eof {
                syntax(pos, what, data)
            } else {
                Err(Stop::Eof)
            }
        }
    }
    let mut i = pos + 1;
    while let Some(&b) = data.get(i) {
        if CLASS[b as usize] & chars::NAME == 0 {
            if b >= 0x80 {
                return name_slow(data, pos, eof, what);
            }
            return Ok(i);
        }
        i += 1;
    }
    if eof {
        Ok(i)
    } else {
        Err(Stop::Eof)
    }
}

/// [`name`] for names with non-ASCII characters.
#[cold]
fn name_slow(data: &[u8], pos: usize, eof: bool, what: &'static str) -> Scan<usize> {
    let mut i = pos;
    // First character.
    match data.get(i) {
        None => {
            return if eof {
                syntax(pos, what, data)
            } else {
                Err(Stop::Eof)
            }
        }
        Some(&b) if b < 0x80 => {
            if CLASS[b as usize] & chars::NAME_START == 0 {
                return syntax(pos, what, data);
            }
            i += 1;
        }
        Some(_) => {
            let (c, l) = utf8_char(data, i)?;
            if !chars::is_name_start_char(c) {
                return syntax(pos, what, data);
            }
            i += l;
        }
    }
    loop {
        match data.get(i) {
            None => return if eof { Ok(i) } else { Err(Stop::Eof) },
            Some(&b) if b < 0x80 => {
                if CLASS[b as usize] & chars::NAME == 0 {
                    return Ok(i);
                }
                i += 1;
            }
            Some(_) => {
                let (c, l) = utf8_char(data, i)?;
                if !chars::is_name_char(c) {
                    return Ok(i);
                }
                i += l;
            }
        }
    }
}

/// Scans an `Nmtoken` starting at `pos`.
pub(crate) fn nmtoken(data: &[u8], pos: usize, eof: bool) -> Scan<usize> {
    let mut i = pos;
    loop {
        match data.get(i) {
            None if !eof => return Err(Stop::Eof),
            Some(&b) if b < 0x80 && CLASS[b as usize] & chars::NAME != 0 => i += 1,
            Some(&b) if b >= 0x80 => {
                let (c, l) = utf8_char(data, i)?;
                if !chars::is_name_char(c) {
                    break;
                }
                i += l;
            }
            _ => break,
        }
    }
    if i == pos {
        return syntax(pos, "a name token", data);
    }
    Ok(i)
}

/// The position of the first `?>` in `hay`, the end of a declaration or processing
/// instruction. These are short: a `memchr` for `?` costs less than `memmem`, which builds a
/// searcher on each call (a few hundred instructions, every document).
#[inline]
pub(crate) fn find_pi_end(hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'?', hay.get(at..)?) {
        let q = at + i;
        if hay.get(q + 1) == Some(&b'>') {
            return Some(q);
        }
        at = q + 1;
    }
    None
}

/// Skips white space; returns the new position.
#[inline]
pub(crate) fn skip_ws(data: &[u8], pos: usize) -> usize {
    // Most runs are none or one space (between attributes, around `=`): two bytes are looked
    // at one by one before a longer run (a line end and indentation) goes 16 bytes a step.
    let ws = |p: usize| {
        data.get(p)
            .is_some_and(|&b| CLASS[b as usize] & chars::WS != 0)
    };
    match (ws(pos), ws(pos + 1)) {
        (false, _) => pos,
        (true, false) => pos + 1,
        (true, true) => simd::skip_ws(data, pos + 2),
    }
}

/// What an `&...;` reference is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ref {
    /// A character reference or a predefined entity, already decoded.
    Char(char),
    /// A reference to the general entity whose name is `data[start..end]`.
    Entity(usize, usize),
}

/// Parses a reference starting at `pos` (which holds `&`); returns it and the position after `;`.
#[inline]
pub(crate) fn reference(data: &[u8], pos: usize, eof: bool) -> Scan<(Ref, usize)> {
    let i = pos + 1;
    match data.get(i) {
        None => {
            return if eof {
                syntax(i, "a name or '#' after '&'", data)
            } else {
                Err(Stop::Eof)
            }
        }
        Some(b'#') => return char_ref(data, pos, eof),
        _ => {}
    }
    let end = name(data, i, eof, "a name or '#' after '&'")?;
    match data.get(end) {
        Some(b';') => {}
        None if !eof => return Err(Stop::Eof),
        _ => return syntax(end, "';' to end the entity reference", data),
    }
    let r = match &data[i..end] {
        b"lt" => Ref::Char('<'),
        b"gt" => Ref::Char('>'),
        b"amp" => Ref::Char('&'),
        b"apos" => Ref::Char('\''),
        b"quot" => Ref::Char('"'),
        _ => Ref::Entity(i, end),
    };
    Ok((r, end + 1))
}

/// Parses `&#N;` or `&#xH;` at `pos`.
pub(crate) fn char_ref(data: &[u8], pos: usize, eof: bool) -> Scan<(Ref, usize)> {
    let mut i = pos + 2;
    let hex = match data.get(i) {
        Some(b'x') => {
            i += 1;
            true
        }
        None if !eof => return Err(Stop::Eof),
        _ => false,
    };
    let start = i;
    let mut v: u32 = 0;
    loop {
        let Some(&b) = data.get(i) else {
            return if eof {
                syntax(i, "';' to end the character reference", data)
            } else {
                Err(Stop::Eof)
            };
        };
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' if hex => b - b'a' + 10,
            b'A'..=b'F' if hex => b - b'A' + 10,
            b';' if i > start => break,
            _ => {
                return syntax(
                    i,
                    if hex {
                        "a hexadecimal digit"
                    } else {
                        "a decimal digit"
                    },
                    data,
                )
            }
        };
        v = v
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d as u32);
        i += 1;
    }
    match char::from_u32(v) {
        Some(c) if chars::is_xml_char(c) => Ok((Ref::Char(c), i + 1)),
        _ => bad(
            pos,
            ErrorKind::WellFormedness(format!(
                "character reference &#{}{}; does not refer to a legal XML character",
                if hex { "x" } else { "" },
                String::from_utf8_lossy(&data[start..i])
            )),
        ),
    }
}

/// Checks that `data[pos..end]` holds only legal `Char`s and valid UTF-8 (used for comments,
/// PIs, CDATA and other runs found with `memchr`). Returns the position of the first bad byte.
pub(crate) fn check_chars(data: &[u8], mut pos: usize, end: usize) -> Scan<()> {
    while pos < end {
        pos = find_non_plain(data, pos, end);
        if pos >= end {
            break;
        }
        let (_, l) = any_char(&data[..end], pos).map_err(|e| match e {
            Stop::Eof => Stop::at(
                pos,
                ErrorKind::InvalidEncoding("truncated UTF-8 sequence".into()),
            ),
            e => e,
        })?;
        pos += l;
    }
    Ok(())
}

/// First position in `pos..end` holding a byte >= 0x80 or a forbidden control character.
#[inline]
fn find_non_plain(data: &[u8], mut pos: usize, end: usize) -> usize {
    while pos < end {
        let b = data[pos];
        if b >= 0x80 || CLASS[b as usize] & chars::BAD_CTRL != 0 {
            return pos;
        }
        pos += 1;
    }
    end
}

/// Parses the body of a processing instruction at `start` (`<?`): returns the end of the target,
/// the start of the data and the position after `?>`. The caller has ruled out the XML
/// declaration.
pub(crate) fn pi_body(data: &[u8], start: usize, eof: bool) -> Scan<(usize, usize, usize)> {
    let ts = start + 2;
    let te = name(data, ts, eof, "a processing instruction target")?;
    if data[ts..te].eq_ignore_ascii_case(b"xml") {
        return bad(
            ts,
            ErrorKind::WellFormedness(
                "the processing instruction target 'xml' is reserved (an XML declaration is \
                 allowed only at the very start)"
                    .into(),
            ),
        );
    }
    if data[te..].starts_with(b"?>") {
        return Ok((te, te, te + 2));
    }
    match data.get(te) {
        None if !eof => return Err(Stop::Eof),
        Some(&b) if chars::is_whitespace(b) => {}
        Some(b'?') if !eof && te + 1 == data.len() => return Err(Stop::Eof),
        _ => {
            return syntax(
                te,
                "white space or '?>' after the processing instruction target",
                data,
            )
        }
    }
    let ds = skip_ws(data, te);
    let Some(end) = find_pi_end(&data[ds..]).map(|e| ds + e) else {
        return if eof {
            bad(start, ErrorKind::UnexpectedEof("a processing instruction"))
        } else {
            Err(Stop::Eof)
        };
    };
    check_chars(data, ds, end)?;
    Ok((te, ds, end + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_pi_end_agrees_with_memmem() {
        let cases: [&[u8]; 9] = [
            b"",
            b"?",
            b">",
            b"?>",
            b"version='1.0'?>",
            b"a?b?>c?>",
            b"??>",
            b"? > ?",
            b"x?",
        ];
        for hay in cases {
            assert_eq!(
                find_pi_end(hay),
                memchr::memmem::find(hay, b"?>"),
                "{hay:?}"
            );
        }
        proptest::proptest!(|(hay in proptest::collection::vec(
            proptest::sample::select(vec![b'?', b'>', b'x']), 0..40))| {
            proptest::prop_assert_eq!(find_pi_end(&hay), memchr::memmem::find(&hay, b"?>"));
        });
    }

    #[test]
    fn utf8_checks() {
        assert_eq!(utf8_char("é".as_bytes(), 0).unwrap(), ('é', 2));
        assert!(matches!(utf8_char(b"\xC0\x80", 0), Err(Stop::Bad(..))));
        assert!(matches!(utf8_char(b"\xED\xA0\x80", 0), Err(Stop::Bad(..))));
        assert!(
            matches!(utf8_char(b"\xEF\xBF\xBE", 0), Err(Stop::Bad(b)) if matches!(b.1, ErrorKind::InvalidChar(_)))
        );
        assert!(matches!(utf8_char(b"\xE2\x82", 0), Err(Stop::Eof)));
        assert!(matches!(utf8_char(b"\xE2\x41", 0), Err(Stop::Bad(..))));
    }

    #[test]
    fn refs() {
        assert_eq!(reference(b"&lt;", 0, true).unwrap(), (Ref::Char('<'), 4));
        assert_eq!(reference(b"&#x41;", 0, true).unwrap(), (Ref::Char('A'), 6));
        assert_eq!(reference(b"&#65;x", 0, true).unwrap(), (Ref::Char('A'), 5));
        assert_eq!(reference(b"&e1;", 0, true).unwrap(), (Ref::Entity(1, 3), 4));
        assert!(reference(b"&#0;", 0, true).is_err());
        assert!(reference(b"&#x;", 0, true).is_err());
        assert!(reference(b"&#xD800;", 0, true).is_err());
        assert!(matches!(reference(b"&#x4", 0, false), Err(Stop::Eof)));
        assert!(reference(b"&a b;", 0, true).is_err());
    }

    #[test]
    fn names() {
        assert_eq!(name(b"abc def", 0, true, "").unwrap(), 3);
        assert_eq!(name(b"abc", 0, true, "").unwrap(), 3);
        assert!(matches!(name(b"abc", 0, false, ""), Err(Stop::Eof)));
        assert!(name(b"1bc", 0, true, "").is_err());
        assert_eq!(name("é·x=".as_bytes(), 0, true, "").unwrap(), 5);
    }
}
