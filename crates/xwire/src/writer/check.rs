//! The checks of names and markup both writers make before writing: QNames, NCNames,
//! comments and processing instructions.

use super::error::{Result, WriteError};
use super::escape::check_chars;
use crate::chars;

/// Checks a comment's text: XML characters, no `--`, no final `-`.
pub(crate) fn check_comment(text: &str) -> Result<()> {
    if text.contains("--") || text.ends_with('-') {
        return Err(WriteError::InvalidComment);
    }
    check_chars(text)
}

/// Checks a processing instruction: the target is a Name other than `xml`, the data holds no
/// `?>`, both are XML characters.
pub(crate) fn check_pi(target: &str, data: &str) -> Result<()> {
    if !chars::is_name(target) {
        return Err(WriteError::InvalidName("PI target", target.into()));
    }
    if target.eq_ignore_ascii_case("xml") {
        return Err(WriteError::InvalidPi(format!(
            "the target '{target}' is reserved"
        )));
    }
    if data.contains("?>") {
        return Err(WriteError::InvalidPi("the data contains '?>'".into()));
    }
    check_chars(data)
}

/// The prefix of a QName (`""`: none).
pub(crate) fn prefix_of(qname: &str) -> &str {
    qname.split_once(':').map_or("", |(p, _)| p)
}

/// Splits a QName into (prefix, local); `None` if it is not one. ASCII names (nearly all)
/// are checked in one pass over the bytes.
pub(crate) fn split_qname(q: &str) -> Option<(&str, &str)> {
    let b = q.as_bytes();
    let mut colon = None;
    let mut ascii = true;
    for (i, &c) in b.iter().enumerate() {
        if c >= 0x80 {
            ascii = false;
            break;
        }
        if c == b':' {
            if colon.is_some() {
                return None;
            }
            colon = Some(i);
        }
    }
    let ok = if ascii {
        let part_ok = |p: &[u8]| {
            p.first()
                .is_some_and(|&c| chars::CLASS[c as usize] & chars::NAME_START != 0)
                && p.iter()
                    .all(|&c| chars::CLASS[c as usize] & chars::NAME != 0)
        };
        match colon {
            Some(i) => part_ok(&b[..i]) && part_ok(&b[i + 1..]),
            None => part_ok(b),
        }
    } else {
        chars::is_qname(q)
    };
    if !ok {
        return None;
    }
    Some(q.split_once(':').unwrap_or(("", q)))
}

/// Checks an NCName; `what` says which name it is, for the error.
pub(crate) fn check_ncname(what: &'static str, s: &str) -> Result<()> {
    if chars::is_ncname(s) {
        Ok(())
    } else {
        Err(WriteError::InvalidName(what, s.into()))
    }
}

/// Checks the local name and, when given, the prefix of a namespaced name.
pub(crate) fn check_ns_name(what: &'static str, local: &str, prefix: Option<&str>) -> Result<()> {
    check_ncname(what, local)?;
    prefix.map_or(Ok(()), |p| check_ncname("prefix", p))
}
