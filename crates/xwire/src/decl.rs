//! The XML declaration (`<?xml version=... encoding=... standalone=...?>`) and the text
//! declaration of external entities, checked exactly as productions [23]-[32] and [77] say.

use std::borrow::Cow;
use std::ops::Range;

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
        if i < end && !is_whitespace(data[i]) {
            return syntax(i, "white space before a pseudo-attribute", data);
        }
        let p = match pseudo_attribute(&data[..end], i) {
            Ok(Some(p)) => p,
            Ok(None) => break,
            Err((at, expected)) => return syntax(at, expected, data),
        };
        let name_start = p.name.start;
        let name = &data[p.name];
        let vstart = p.value.start;
        let value = std::str::from_utf8(&data[p.value]).unwrap_or("\u{FFFD}");
        i = p.end;
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

/// Where one pseudo-attribute (`name = 'value'`) of a declaration lies.
struct Pseudo {
    name: Range<usize>,
    value: Range<usize>,
    /// Just after the closing quote.
    end: usize,
}

/// Reads the pseudo-attribute after the white space at `i` of `decl` (the declaration up to,
/// not including, `?>`): `None` at the end. The one reading of the declaration's grammar:
/// [`parse`] checks what it reads strictly, [`declared_encoding`] leniently. An error is the
/// position and what was expected there.
fn pseudo_attribute(decl: &[u8], mut i: usize) -> Result<Option<Pseudo>, (usize, &'static str)> {
    let skip_ws = |mut i: usize| {
        while decl.get(i).is_some_and(|&b| is_whitespace(b)) {
            i += 1;
        }
        i
    };
    i = skip_ws(i);
    if i >= decl.len() {
        return Ok(None);
    }
    let name_start = i;
    while decl.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    let name = name_start..i;
    i = skip_ws(i);
    if decl.get(i) != Some(&b'=') {
        return Err((i, "'=' after the pseudo-attribute name"));
    }
    i = skip_ws(i + 1);
    let q = match decl.get(i) {
        Some(&q) if q == b'"' || q == b'\'' => q,
        _ => return Err((i, "a quoted value")),
    };
    let vstart = i + 1;
    let Some(vend) = memchr::memchr(q, &decl[vstart..]).map(|e| vstart + e) else {
        return Err((decl.len(), "the closing quote of the value"));
    };
    Ok(Some(Pseudo {
        name,
        value: vstart..vend,
        end: vend + 1,
    }))
}

/// The `encoding` pseudo-attribute of an XML or text declaration at the start of `b`
/// (ASCII-compatible bytes), for choosing a decoder before the reader starts: `None` when there
/// is no declaration, no encoding in it, or its syntax breaks before the encoding. Order and
/// values are not checked here; the reader parses the declaration with [`parse`] later.
pub(crate) fn declared_encoding(b: &[u8]) -> Option<&[u8]> {
    if !starts_decl(b, 0) {
        return None;
    }
    let decl = &b[..crate::scan::find_pi_end(&b[..b.len().min(4096)])?];
    let mut i = 5;
    while let Some(p) = pseudo_attribute(decl, i).ok()? {
        if &decl[p.name] == b"encoding" {
            return Some(&decl[p.value]);
        }
        i = p.end;
    }
    None
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

    #[test]
    fn finds_the_declared_encoding() {
        let cases: [(&[u8], Option<&[u8]>); 8] = [
            (b"<?xml version='1.0' encoding='UTF-8'?>", Some(b"UTF-8")),
            (
                b"<?xml version=\"1.0\"\n encoding = \"latin1\" standalone='no'?>",
                Some(b"latin1"),
            ),
            (b"<?xml encoding='x'?>", Some(b"x")),
            // Out of order: found (the reader reports the order later).
            (
                b"<?xml standalone='yes' encoding='x' version='1.0'?>",
                Some(b"x"),
            ),
            (b"<?xml version='1.0'?>", None),
            (
                b"<?xml version='1.0' standalone='yes'?><a encoding='x'/>",
                None,
            ),
            (b"<?xml version=1.0 encoding='x'?>", None),
            (b"<?xmlversion='1.0' encoding='x'?>", None),
        ];
        for (doc, want) in cases {
            assert_eq!(
                declared_encoding(doc),
                want,
                "{}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}
