//! Escaping of character data and attribute values, with the XML `Char` check done in the same
//! pass: clean runs are copied whole, only special bytes are looked at one by one.

use super::error::WriteError;

const TEXT: u8 = 1;
const ATTR: u8 = 2;
/// A control character that XML 1.0 does not allow at all.
const BAD: u8 = 4;
/// First byte of U+FFFE / U+FFFF (`EF BF BE` / `EF BF BF`), which are not XML characters.
const EF: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = BAD;
        b += 1;
    }
    t[b'\t' as usize] = ATTR;
    t[b'\n' as usize] = ATTR;
    t[b'\r' as usize] = TEXT | ATTR;
    t[b'&' as usize] = TEXT | ATTR;
    t[b'<' as usize] = TEXT | ATTR;
    t[b'>' as usize] = TEXT;
    t[b'"' as usize] = ATTR;
    t[0xEF] = EF;
    t
};

/// Where escaped data goes: character data or a double-quoted attribute value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    Text,
    Attribute,
}

/// Appends `s` to `out` escaped for `ctx`, failing on characters XML 1.0 does not allow.
pub(crate) fn escape_into(out: &mut Vec<u8>, s: &str, ctx: Context) -> Result<(), WriteError> {
    let mask = BAD
        | EF
        | match ctx {
            Context::Text => TEXT,
            Context::Attribute => ATTR,
        };
    let b = s.as_bytes();
    let attr = ctx == Context::Attribute;
    let mut run = 0;
    let mut i = 0;
    loop {
        // Plain runs are skipped 16 bytes at a time and copied whole.
        i = crate::simd::find_escape_stop(b, i, attr, |c| CLASS[c as usize] & mask != 0);
        if i == b.len() {
            break;
        }
        let c = b[i];
        let rep: &[u8] = match c {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\t' => b"&#9;",
            b'\n' => b"&#10;",
            b'\r' => b"&#13;",
            0xEF => {
                if b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF)) {
                    let ch = s[i..].chars().next().expect("a character starts here");
                    return Err(WriteError::InvalidChar(ch));
                }
                i += 1;
                continue;
            }
            _ => return Err(WriteError::InvalidChar(c as char)),
        };
        out.extend_from_slice(&b[run..i]);
        out.extend_from_slice(rep);
        i += 1;
        run = i;
    }
    out.extend_from_slice(&b[run..]);
    Ok(())
}

/// Checks that every character of `s` is an XML `Char` (for comments, PIs, CDATA).
pub(crate) fn check_chars(s: &str) -> Result<(), WriteError> {
    match s.chars().find(|&c| !crate::chars::is_xml_char(c)) {
        Some(c) => Err(WriteError::InvalidChar(c)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &str, ctx: Context) -> Result<String, WriteError> {
        let mut v = Vec::new();
        escape_into(&mut v, s, ctx).map(|()| String::from_utf8(v).unwrap())
    }

    #[test]
    fn text_and_attribute_escapes() {
        assert_eq!(
            esc("a<b>&c\r\n\t\"'", Context::Text).unwrap(),
            "a&lt;b&gt;&amp;c&#13;\n\t\"'"
        );
        assert_eq!(
            esc("a<b>&c\r\n\t\"'", Context::Attribute).unwrap(),
            "a&lt;b>&amp;c&#13;&#10;&#9;&quot;'"
        );
        assert_eq!(esc("plain ü € 𝄞", Context::Text).unwrap(), "plain ü € 𝄞");
        assert_eq!(esc("\u{FFFD}", Context::Text).unwrap(), "\u{FFFD}");
    }

    #[test]
    fn characters_outside_xml_are_refused() {
        for bad in ["\u{0}", "a\u{1}b", "\u{B}", "x\u{FFFE}", "\u{FFFF}"] {
            assert!(
                matches!(esc(bad, Context::Text), Err(WriteError::InvalidChar(_))),
                "{bad:?}"
            );
            assert!(check_chars(bad).is_err());
        }
        assert!(check_chars("ok\t\n\r").is_ok());
    }
}
