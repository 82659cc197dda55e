//! Reading values out of the document's bytes on demand: unescaping text and attribute
//! values, and finding the delimiters of markup the descriptors do not record (the end of a
//! start tag, an attribute's value, an end tag).
//!
//! Every function here takes any bytes and any positions without panicking: a loaded index
//! may describe a document wrongly (it is validated for shape, not re-parsed), and then
//! gives wrong strings, never a crash.

use std::borrow::Cow;

use crate::chars::is_whitespace;
use crate::scan::{self, Ref};

/// Appends `s` as text, or nothing if it is not UTF-8.
#[inline]
fn push_bytes(out: &mut String, s: &[u8]) {
    if let Ok(s) = std::str::from_utf8(s) {
        out.push_str(s);
    }
}

/// Appends the content of a text node's bytes: references resolved (the predefined entities
/// and character references; references to other entities, unread ones, give nothing),
/// CDATA sections unwrapped, line ends normalised to `\n`.
pub(super) fn unescape_text(raw: &[u8], out: &mut String) {
    let mut i = 0;
    while i < raw.len() {
        let Some(off) = memchr::memchr3(b'&', b'<', b'\r', &raw[i..]) else {
            push_bytes(out, &raw[i..]);
            return;
        };
        push_bytes(out, &raw[i..i + off]);
        i += off;
        match raw[i] {
            b'&' => i = push_reference(raw, i, out),
            b'<' if raw[i..].starts_with(b"<![CDATA[") => {
                let body = i + 9;
                let end =
                    memchr::memmem::find(&raw[body..], b"]]>").map_or(raw.len(), |e| body + e);
                push_line_ends(out, &raw[body..end]);
                i = (end + 3).min(raw.len());
            }
            b'<' => {
                out.push('<');
                i += 1;
            }
            _ => {
                out.push('\n');
                i += if raw.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
            }
        }
    }
}

/// Appends what the reference at `raw[i]` (an `&`) stands for and returns the index after it:
/// a character reference's character; nothing for an entity reference (predefined entities
/// come back as characters; others are unread here); a lone `&` for bytes that are not a
/// reference (the reader has refused those, so only hand-made indexes meet them).
fn push_reference(raw: &[u8], i: usize, out: &mut String) -> usize {
    match scan::reference(raw, i, true) {
        Ok((Ref::Char(c), end)) => {
            out.push(c);
            end
        }
        Ok((Ref::Entity(..), end)) => end,
        Err(_) => {
            out.push('&');
            i + 1
        }
    }
}

/// Appends `raw` with line ends normalised.
fn push_line_ends(out: &mut String, raw: &[u8]) {
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'\r', &raw[i..]) {
        push_bytes(out, &raw[i..i + off]);
        out.push('\n');
        i += off + 1;
        if raw.get(i) == Some(&b'\n') {
            i += 1;
        }
    }
    push_bytes(out, &raw[i..]);
}

/// `raw` with line ends normalised when `cr` says it holds carriage returns.
pub(super) fn line_ends(raw: &[u8], cr: bool) -> Cow<'_, str> {
    if !cr {
        return Cow::Borrowed(std::str::from_utf8(raw).unwrap_or(""));
    }
    let mut out = String::with_capacity(raw.len());
    push_line_ends(&mut out, raw);
    Cow::Owned(out)
}

/// Appends an attribute value normalised as XML 1.0 section 3.3.3 says for CDATA
/// attributes without a DTD: references resolved, each white-space character (a CR LF pair
/// counting as one) becomes a space.
pub(super) fn normalize_attr(raw: &[u8], out: &mut String) {
    let mut i = 0;
    while i < raw.len() {
        let Some(off) = raw[i..]
            .iter()
            .position(|&b| matches!(b, b'&' | b'\t' | b'\n' | b'\r'))
        else {
            push_bytes(out, &raw[i..]);
            return;
        };
        push_bytes(out, &raw[i..i + off]);
        i += off;
        match raw[i] {
            b'&' => i = push_reference(raw, i, out),
            b'\r' if raw.get(i + 1) == Some(&b'\n') => {
                out.push(' ');
                i += 2;
            }
            _ => {
                out.push(' ');
                i += 1;
            }
        }
    }
}

/// End of the name starting at `a` (at white space, `?`, or `b`).
pub(super) fn name_end(doc: &[u8], a: usize, b: usize) -> usize {
    let b = b.min(doc.len());
    let a = a.min(b);
    doc[a..b]
        .iter()
        .position(|&c| is_whitespace(c) || c == b'?')
        .map_or(b, |p| a + p)
}

/// Start of the data of a PI whose target starts at `a` and whose body ends at `b`.
pub(super) fn pi_data_start(doc: &[u8], a: usize, b: usize) -> usize {
    let b = b.min(doc.len());
    let mut i = name_end(doc, a, b);
    while i < b && is_whitespace(doc[i]) {
        i += 1;
    }
    i
}

/// Position after the `>` of the tag whose name ends at `i` (quoted values skipped).
pub(super) fn tag_end(doc: &[u8], mut i: usize) -> usize {
    while i < doc.len() {
        match memchr::memchr3(b'>', b'"', b'\'', &doc[i..]) {
            None => return doc.len(),
            Some(p) => {
                let j = i + p;
                let q = doc[j];
                if q == b'>' {
                    return j + 1;
                }
                i = match memchr::memchr(q, &doc[j + 1..]) {
                    Some(e) => j + 1 + e + 1,
                    None => return doc.len(),
                };
            }
        }
    }
    doc.len()
}

/// The value between the quotes of the attribute whose name ends at `i`.
pub(super) fn attr_value(doc: &[u8], mut i: usize) -> (usize, usize) {
    let n = doc.len();
    while i < n && is_whitespace(doc[i]) {
        i += 1;
    }
    if doc.get(i) == Some(&b'=') {
        i += 1;
    }
    while i < n && is_whitespace(doc[i]) {
        i += 1;
    }
    let Some(&q) = doc.get(i) else {
        return (n, n);
    };
    let start = i + 1;
    match memchr::memchr(q, doc.get(start..).unwrap_or(&[])) {
        Some(e) => (start, start + e),
        None => (n.min(start), n),
    }
}

/// Position after the end tag that follows `i` (CDATA sections before it skipped: empty
/// ones leave no node).
pub(super) fn after_end_tag(doc: &[u8], mut i: usize) -> usize {
    while i < doc.len() {
        let Some(p) = memchr::memchr(b'<', &doc[i..]) else {
            return doc.len();
        };
        let j = i + p;
        if doc[j..].starts_with(b"<![CDATA[") {
            i = memchr::memmem::find(&doc[j..], b"]]>").map_or(doc.len(), |e| j + e + 3);
            continue;
        }
        return match memchr::memchr(b'>', &doc[j..]) {
            Some(e) => j + e + 1,
            None => doc.len(),
        };
    }
    doc.len()
}
