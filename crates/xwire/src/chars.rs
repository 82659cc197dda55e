//! Character classes of XML 1.0 (Fifth Edition): `Char`, `NameStartChar`, `NameChar`, `S`.
//!
//! The ASCII range is answered from a 256-entry table of flag bits so the scanner's hot loops
//! do one load per byte; everything above U+007F goes through the range checks of the spec.

/// The byte may start a Name (ASCII only; bytes >= 0x80 are never flagged).
pub(crate) const NAME_START: u8 = 1;
/// The byte may continue a Name (ASCII only).
pub(crate) const NAME: u8 = 2;
/// The byte ends a plain run of character data: `<`, `&`, `]`, `\r`, a forbidden control
/// character, or any byte >= 0x80 (which needs UTF-8 and `Char` checks).
pub(crate) const TEXT_STOP: u8 = 4;
/// The byte ends a plain run inside an attribute value: `<`, `&`, `"`, `'`, `\t`, `\n`, `\r`,
/// a forbidden control character, or any byte >= 0x80.
pub(crate) const ATTR_STOP: u8 = 8;
/// White space: `#x20 | #x9 | #xD | #xA`.
pub(crate) const WS: u8 = 16;
/// A control character that is not a legal `Char` (everything below 0x20 but tab, LF, CR).
pub(crate) const BAD_CTRL: u8 = 32;

/// The byte may continue an NCName (a name char other than `:`; ASCII only).
pub(crate) const NCNAME: u8 = 64;

pub(crate) static CLASS: [u8; 256] = build_class_table();

const fn build_class_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        let mut f = 0u8;
        if c.is_ascii_alphabetic() || c == b'_' || c == b':' {
            f |= NAME_START | NAME;
        }
        if c.is_ascii_digit() || c == b'-' || c == b'.' {
            f |= NAME;
        }
        if f & NAME != 0 && c != b':' {
            f |= NCNAME;
        }
        if c < 0x20 && c != b'\t' && c != b'\n' && c != b'\r' {
            f |= BAD_CTRL | TEXT_STOP | ATTR_STOP;
        }
        if c >= 0x80 || c == b'<' || c == b'&' || c == b']' || c == b'\r' {
            f |= TEXT_STOP;
        }
        if c >= 0x80
            || c == b'<'
            || c == b'&'
            || c == b'"'
            || c == b'\''
            || c == b'\t'
            || c == b'\n'
            || c == b'\r'
        {
            f |= ATTR_STOP;
        }
        if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
            f |= WS;
        }
        t[b] = f;
        b += 1;
    }
    t
}

/// `Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`
#[inline]
pub fn is_xml_char(c: char) -> bool {
    let c = c as u32;
    if c < 0x20 {
        return c == 0x9 || c == 0xA || c == 0xD;
    }
    c <= 0xD7FF || (0xE000..=0xFFFD).contains(&c) || (0x10000..=0x10FFFF).contains(&c)
}

/// `NameStartChar` of XML 1.0 Fifth Edition.
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return CLASS[u as usize] & NAME_START != 0;
    }
    matches!(u,
        0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x2FF | 0x370..=0x37D | 0x37F..=0x1FFF
        | 0x200C..=0x200D | 0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF
        | 0xF900..=0xFDCF | 0xFDF0..=0xFFFD | 0x10000..=0xEFFFF)
}

/// `NameChar` of XML 1.0 Fifth Edition.
#[inline]
pub fn is_name_char(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return CLASS[u as usize] & NAME != 0;
    }
    is_name_start_char(c)
        || u == 0xB7
        || (0x300..=0x36F).contains(&u)
        || (0x203F..=0x2040).contains(&u)
}

/// `S ::= (#x20 | #x9 | #xD | #xA)+`, one character of it.
#[inline]
pub fn is_whitespace(b: u8) -> bool {
    CLASS[b as usize] & WS != 0
}

/// Whether every byte of `s` is white space (`S`); true for an empty `s`.
///
/// ```
/// assert!(xwire::chars::is_all_whitespace(b"\n    \t"));
/// assert!(!xwire::chars::is_all_whitespace(b"\n  x "));
/// ```
#[inline]
pub fn is_all_whitespace(s: &[u8]) -> bool {
    // The usual case, indentation (a line feed, then spaces), is compared a word at a time;
    // anything else goes byte by byte.
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    const LF_SPACES: u64 = u64::from_ne_bytes(*b"\n       ");
    const LF_SPACES4: u32 = u32::from_ne_bytes(*b"\n   ");
    let w8 = |at: usize| s[at..].first_chunk::<8>().map(|w| u64::from_ne_bytes(*w));
    let w4 = |at: usize| s[at..].first_chunk::<4>().map(|w| u32::from_ne_bytes(*w));
    let n = s.len();
    let indent = match n {
        0..=3 => false,
        4..=8 => w4(0) == Some(LF_SPACES4) && w4(n - 4) == Some(SPACES as u32),
        _ => {
            w8(0) == Some(LF_SPACES)
                && (1..n / 8).all(|i| w8(i * 8) == Some(SPACES))
                && w8(n - 8) == Some(SPACES)
        }
    };
    indent || s.iter().all(|&b| is_whitespace(b))
}

/// Whether `s` matches the `Name` production.
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if is_name_start_char(c) => chars.all(is_name_char),
        _ => false,
    }
}

/// Whether `s` matches `NCName` (a `Name` without a colon).
pub fn is_ncname(s: &str) -> bool {
    is_name(s) && !s.contains(':')
}

/// Whether `s` matches `QName`: an NCName, or two NCNames joined by one colon.
pub fn is_qname(s: &str) -> bool {
    match s.split_once(':') {
        Some((p, l)) => is_ncname(p) && is_ncname(l),
        None => is_ncname(s),
    }
}

/// Whether `s` matches `Nmtoken ::= (NameChar)+`.
pub fn is_nmtoken(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_name_char)
}

/// Whether every character of `s` is a legal XML `Char`.
///
/// A `str` holds no surrogates, so only two kinds of character can fail: C0 controls other
/// than tab, line feed and carriage return, and U+FFFE / U+FFFF (`EF BF BE`, `EF BF BF`). Both
/// are found on the bytes, eight at a time; a word holding neither a byte below 0x20 nor 0xEF
/// is skipped whole (text in any script, not only ASCII).
pub fn is_xml_text(s: &str) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const SPACES: u64 = u64::from_ne_bytes([0x20; 8]);
    const LEAD: u64 = u64::from_ne_bytes([0xEF; 8]);
    let b = s.as_bytes();
    let mut i = 0;
    while i + 8 <= b.len() {
        let w = u64::from_ne_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        // Exact "some byte < 0x20" and "some byte == 0xEF" tests (no false negatives; a
        // positive is settled byte by byte below).
        let low = w.wrapping_sub(SPACES) & !w & HIGH;
        let x = w ^ LEAD;
        let lead = x.wrapping_sub(ONES) & !x & HIGH;
        if low | lead != 0 && !plain_bytes(b, i, i + 8) {
            return false;
        }
        i += 8;
    }
    plain_bytes(b, i, b.len())
}

/// The byte-by-byte test of [`is_xml_text`] on `b[from..to]` (a `U+FFFx` sequence may run
/// past `to`: it is read whole).
fn plain_bytes(b: &[u8], from: usize, to: usize) -> bool {
    (from..to).all(|i| match b[i] {
        0x09 | 0x0A | 0x0D => true,
        0x00..=0x1F => false,
        0xEF => !(b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF))),
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_agrees_with_range_checks_on_ascii() {
        for b in 0u8..0x80 {
            let c = b as char;
            let start = c.is_ascii_alphabetic() || c == '_' || c == ':';
            assert_eq!(CLASS[b as usize] & NAME_START != 0, start, "{b:#x}");
            assert_eq!(
                CLASS[b as usize] & NAME != 0,
                start || c.is_ascii_digit() || c == '-' || c == '.',
                "{b:#x}"
            );
            assert_eq!(CLASS[b as usize] & BAD_CTRL != 0, !is_xml_char(c), "{b:#x}");
        }
    }

    #[test]
    fn xml_text_agrees_with_the_char_test() {
        let samples = [
            "",
            "plain ascii text, long enough for words",
            "Stra\u{df}e na\u{ef}ve d\u{e9}j\u{e0} \u{20ac} \u{1F600} and more text",
            "tab\tline\nreturn\r in a word and more",
            "a bell \u{7} inside",
            "0123456\u{1f}",
            "\u{fffe}",
            "xxxxxxx\u{ffff}yyyyyyy",
            "xxxxxx\u{fffd}\u{fffc}\u{ef}\u{ff}",
            "\u{e000}\u{fffd}\u{10000}\u{10ffff}",
            "\u{7f}\u{85}\u{9f}\u{2028}",
        ];
        for s in samples {
            // Every shift, so each sample's characters fall across word boundaries.
            for pad in 0..8 {
                let t = format!("{}{s}", "p".repeat(pad));
                assert_eq!(is_xml_text(&t), t.chars().all(is_xml_char), "{t:?}");
            }
        }
    }

    #[test]
    fn all_whitespace_agrees_with_the_byte_test() {
        let slow = |s: &[u8]| s.iter().all(|&b| is_whitespace(b));
        // Every string of up to 7 bytes over blanks and two others (one with the high bit,
        // one a zero byte, both of which the word test must not mistake for a blank).
        let alphabet = [b' ', b'\n', b'\t', b'\r', b'a', 0x80 | b' ', 0];
        let mut s = Vec::new();
        for n in 0..=7u32 {
            for mut k in 0..alphabet.len().pow(n) {
                s.clear();
                for _ in 0..n {
                    s.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                assert_eq!(is_all_whitespace(&s), slow(&s), "{s:?}");
            }
        }
        // Longer indentation (one line feed, or one every five bytes), one odd byte anywhere.
        for n in 0..40 {
            for every in [n.max(1), 5] {
                let blank: Vec<u8> = (0..n)
                    .map(|i| if i % every == 0 { b'\n' } else { b' ' })
                    .collect();
                assert!(is_all_whitespace(&blank));
                for at in 0..n {
                    for odd in [b'x', b'\t', 0x80 | b' ', 0x80 | b'\n', 0, 0x7F] {
                        let mut t = blank.clone();
                        t[at] = odd;
                        assert_eq!(is_all_whitespace(&t), slow(&t), "{t:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn names() {
        assert!(is_name("a:b-c.d_e"));
        assert!(is_name("\u{10000}x"));
        assert!(!is_name("1a"));
        assert!(!is_name("-a"));
        assert!(!is_name(""));
        assert!(is_name("a\u{B7}"));
        assert!(!is_name("\u{B7}a"));
        assert!(is_qname("p:l"));
        assert!(!is_qname("p:l:m"));
        assert!(!is_qname(":l"));
        assert!(is_nmtoken("1.-"));
    }

    #[test]
    fn chars() {
        assert!(!is_xml_char('\u{FFFE}'));
        assert!(!is_xml_char('\u{0}'));
        assert!(is_xml_char('\u{10FFFF}'));
        assert!(is_xml_char('\t'));
    }
}
