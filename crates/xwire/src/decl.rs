//! The XML declaration (`<?xml version=... encoding=... standalone=...?>`) and the text
//! declaration of external entities, checked exactly as productions [23]-[32] and [77] say.

use std::borrow::Cow;

use crate::chars::is_whitespace;
use crate::error::ErrorKind;
use crate::scan::{bad, syntax, Scan, Stop};

/// What an XML or text declaration said. The usual values (version `1.0`, encoding `UTF-8`)
/// are borrowed from static strings: most documents' declarations cost no allocation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct XmlDecl {
    /// The version number (`1.0`), if given (always given in an XML declaration).
    pub version: Option<Cow<'static, str>>,
    /// The encoding name, as written.
    pub encoding: Option<Cow<'static, str>>,
    /// The standalone document declaration.
    pub standalone: Option<bool>,
}

/// Which declaration is being parsed: they differ in which pseudo-attributes are required.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeclKind {
    Xml,
    Text,
}

/// Parses a declaration at `pos` (which starts with `<?xml` followed by white space). Returns the
/// declaration and the position after `?>`.
pub(crate) fn parse(data: &[u8], pos: usize, eof: bool, kind: DeclKind) -> Scan<(XmlDecl, usize)> {
    if let Some((encoding, len)) = usual(&data[pos..]).filter(|_| kind == DeclKind::Xml) {
        let d = XmlDecl {
            version: Some(Cow::Borrowed("1.0")),
            encoding: encoding.map(Cow::Borrowed),
            standalone: None,
        };
        return Ok((d, pos + len));
    }
    parse_any(data, pos, eof, kind)
}

/// The declarations most documents start with, byte for byte: a comparison or two, where
/// the general parse is a fair amount of code to bring into the instruction cache for every
/// small document.
const USUAL: [(&[u8], Option<&str>); 4] = [
    (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>", Some("UTF-8")),
    (b"<?xml version=\"1.0\"?>", None),
    (b"<?xml version='1.0' encoding='UTF-8'?>", Some("UTF-8")),
    (b"<?xml version='1.0'?>", None),
];

/// The encoding and length of a usual XML declaration at the start of `data`.
#[inline]
pub(crate) fn usual(data: &[u8]) -> Option<(Option<&'static str>, usize)> {
    USUAL
        .iter()
        .find(|(d, _)| data.starts_with(d))
        .map(|&(d, enc)| (enc, d.len()))
}

fn parse_any(data: &[u8], pos: usize, eof: bool, kind: DeclKind) -> Scan<(XmlDecl, usize)> {
    let Some(end) = crate::scan::find_pi_end(&data[pos..]).map(|e| pos + e) else {
        return if eof {
            bad(pos, ErrorKind::UnexpectedEof("the XML declaration"))
        } else {
            Err(Stop::Eof)
        };
    };
    let mut d = XmlDecl::default();
    let mut i = pos + 5;
    let mut seen = 0; // 1 = version, 2 = encoding, 3 = standalone: they must come in this order
    loop {
        let ws = i;
        while i < end && is_whitespace(data[i]) {
            i += 1;
        }
        if i == end {
            break;
        }
        if i == ws {
            return syntax(i, "white space before a pseudo-attribute", data);
        }
        let name_start = i;
        while i < end && data[i].is_ascii_alphabetic() {
            i += 1;
        }
        let name = &data[name_start..i];
        while i < end && is_whitespace(data[i]) {
            i += 1;
        }
        if data.get(i) != Some(&b'=') {
            return syntax(i, "'=' after the pseudo-attribute name", data);
        }
        i += 1;
        while i < end && is_whitespace(data[i]) {
            i += 1;
        }
        let q = data[i];
        if q != b'"' && q != b'\'' {
            return syntax(i, "a quoted value", data);
        }
        let vstart = i + 1;
        let Some(vend) = memchr::memchr(q, &data[vstart..end]).map(|e| vstart + e) else {
            return syntax(end, "the closing quote of the value", data);
        };
        let value = std::str::from_utf8(&data[vstart..vend]).unwrap_or("\u{FFFD}");
        i = vend + 1;
        match name {
            b"version" if seen < 1 => {
                let ok = value.len() > 2
                    && value.starts_with("1.")
                    && value[2..].bytes().all(|b| b.is_ascii_digit());
                if !ok {
                    return bad(
                        vstart,
                        ErrorKind::WellFormedness(format!("version \"{value}\" is not 1.x")),
                    );
                }
                d.version = Some(known(value, &["1.0", "1.1"]));
                seen = 1;
            }
            b"encoding" if seen < 2 => {
                let b = value.as_bytes();
                let ok = !b.is_empty()
                    && b[0].is_ascii_alphabetic()
                    && b.iter()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'));
                if !ok {
                    return bad(
                        vstart,
                        ErrorKind::WellFormedness(format!("\"{value}\" is not an encoding name")),
                    );
                }
                d.encoding = Some(known(value, &["UTF-8", "utf-8"]));
                seen = 2;
            }
            b"standalone" if seen < 3 && kind == DeclKind::Xml => {
                d.standalone = Some(match value {
                    "yes" => true,
                    "no" => false,
                    _ => {
                        return bad(
                            vstart,
                            ErrorKind::WellFormedness(
                                "standalone must be \"yes\" or \"no\"".into(),
                            ),
                        )
                    }
                });
                seen = 3;
            }
            _ => {
                return syntax(
                    name_start,
                    "version, encoding or standalone, in this order",
                    data,
                )
            }
        }
    }
    match kind {
        DeclKind::Xml if d.version.is_none() => bad(
            pos,
            ErrorKind::WellFormedness("the XML declaration must give the version".into()),
        ),
        DeclKind::Text if d.encoding.is_none() => bad(
            pos,
            ErrorKind::WellFormedness("a text declaration must give the encoding".into()),
        ),
        _ => Ok((d, end + 2)),
    }
}

/// `value` borrowed from `common` when it is one of them, else copied.
fn known(value: &str, common: &[&'static str]) -> Cow<'static, str> {
    match common.iter().find(|c| **c == value) {
        Some(c) => Cow::Borrowed(c),
        None => Cow::Owned(value.to_string()),
    }
}

/// Whether `data[pos..]` starts a declaration (`<?xml` and white space).
pub(crate) fn starts_decl(data: &[u8], pos: usize) -> bool {
    data[pos..].starts_with(b"<?xml") && data.get(pos + 5).is_some_and(|&b| is_whitespace(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations() {
        let (d, e) = parse(
            b"<?xml version='1.0' encoding=\"UTF-8\" standalone='yes'?>x",
            0,
            true,
            DeclKind::Xml,
        )
        .unwrap();
        assert_eq!(d.version.as_deref(), Some("1.0"));
        assert_eq!(d.encoding.as_deref(), Some("UTF-8"));
        assert_eq!(d.standalone, Some(true));
        assert_eq!(e, 55);
        // The usual declarations, compared byte for byte, read as the general parse reads them.
        for (usual, _) in USUAL {
            let doc = [usual, b"<a/>"].concat();
            let quick = parse(&doc, 0, true, DeclKind::Xml).unwrap();
            assert_eq!(quick, parse_any(&doc, 0, true, DeclKind::Xml).unwrap());
            assert_eq!(quick.1, usual.len());
        }
        // The usual values are borrowed, the others copied.
        assert!(matches!(d.version, Some(Cow::Borrowed("1.0"))));
        assert!(matches!(d.encoding, Some(Cow::Borrowed("UTF-8"))));
        let (d, _) = parse(
            b"<?xml version='1.2' encoding='latin1'?>",
            0,
            true,
            DeclKind::Xml,
        )
        .unwrap();
        assert!(matches!(d.version, Some(Cow::Owned(ref v)) if v == "1.2"));
        assert!(matches!(d.encoding, Some(Cow::Owned(ref v)) if v == "latin1"));
        assert!(parse(b"<?xml encoding='UTF-8'?>", 0, true, DeclKind::Xml).is_err());
        assert!(parse(b"<?xml encoding='UTF-8'?>", 0, true, DeclKind::Text).is_ok());
        assert!(parse(b"<?xml version='1.0'?>", 0, true, DeclKind::Text).is_err());
        assert!(parse(
            b"<?xml version='1.0' standalone='yes' encoding='UTF-8'?>",
            0,
            true,
            DeclKind::Xml
        )
        .is_err());
        assert!(parse(
            b"<?xml version='1.0'encoding='UTF-8'?>",
            0,
            true,
            DeclKind::Xml
        )
        .is_err());
        assert!(parse(b"<?xml version='2.0'?>", 0, true, DeclKind::Xml).is_err());
        assert!(parse(
            b"<?xml version='1.0' standalone='YES'?>",
            0,
            true,
            DeclKind::Xml
        )
        .is_err());
    }
}
