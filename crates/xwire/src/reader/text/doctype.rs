//! The document type declaration: its internal subset and, through a resolver, its external
//! one.

use std::sync::Arc;

use crate::chars;
use crate::dtd::{self, Dtd, DtdParser};
use crate::error::ErrorKind;
use crate::reader::token::TokenKind;
use crate::resolver::Resolver;
use crate::scan::str_of;
use crate::scan::{self, bad, syntax, Scan, Stop};

use super::{wf, Phase, State, StepR};

/// Finds the `]` that closes an internal subset starting at `start`, skipping comments, PIs and
/// quoted literals inside declarations. `None`: the data ended first.
/// The `>` that ends the document type declaration starting at `start`: outside quoted
/// literals, after the internal subset if there is one. `None` if it is not in `data`.
pub(in crate::reader) fn doctype_end(data: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 9;
    loop {
        let b = *data.get(i)?;
        match b {
            b'"' | b'\'' => i += 1 + memchr::memchr(b, &data[i + 1..])? + 1,
            b'[' => i = subset_end(data, i + 1)? + 1,
            b'>' => return Some(i),
            _ => i += 1,
        }
    }
}

pub(in crate::reader) fn subset_end(data: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    loop {
        let off = memchr::memchr2(b']', b'<', &data[i..])?;
        let at = i + off;
        if data[at] == b']' {
            return Some(at);
        }
        let rest = &data[at..];
        if rest.starts_with(b"<!--") {
            i = at + 4 + memchr::memmem::find(&data[at + 4..], b"-->")? + 3;
        } else if rest.starts_with(b"<?") {
            i = at + 2 + memchr::memmem::find(&data[at + 2..], b"?>")? + 2;
        } else if rest.starts_with(b"<!") && !rest.starts_with(b"<![") {
            // A declaration: skip to its '>' outside quotes.
            let mut j = at + 2;
            loop {
                let b = *data.get(j)?;
                match b {
                    b'"' | b'\'' => j += 1 + memchr::memchr(b, &data[j + 1..])? + 1,
                    b'>' => break,
                    b']' => return Some(j),
                    _ => j += 1,
                }
            }
            i = j + 1;
        } else {
            i = at + 1;
        }
    }
}

impl State {
    pub(in crate::reader) fn doctype(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &mut Dtd,
        resolver: &mut Option<Box<dyn Resolver + '_>>,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        if self.tok.doctype.is_some() || !matches!(self.phase, Phase::Start | Phase::Prolog) {
            return bad(
                start,
                wf("the document type declaration must come once, before the root element"),
            );
        }
        // Parse only once the whole declaration is at hand, over a view that ends with it: a
        // slice and a stream then see exactly the same bytes, however the input is chunked.
        let Some(gt) = doctype_end(data, start) else {
            return if eof {
                bad(
                    start,
                    ErrorKind::UnexpectedEof("the document type declaration"),
                )
            } else {
                Err(Stop::Eof)
            };
        };
        let data = &data[..=gt];
        let eof = true;
        let mut i = start + 9;
        if !data.get(i).is_some_and(|&b| chars::is_whitespace(b)) {
            return if data.len() <= i && !eof {
                Err(Stop::Eof)
            } else {
                syntax(i, "white space after '<!DOCTYPE'", data)
            };
        }
        i = scan::skip_ws(data, i);
        let ne = scan::name(data, i, eof, "the root element name")?;
        // SAFETY: `scan::name` just checked these bytes as a Name, character by character.
        #[allow(unsafe_code)]
        let name = unsafe { str_of(&data[i..ne]) }.to_string();
        i = ne;
        let mut public_id = None;
        let mut system_id = None;
        let ws = scan::skip_ws(data, i);
        let literal = |data: &[u8], at: usize| -> Scan<(usize, usize)> {
            match data.get(at) {
                Some(&q @ (b'"' | b'\'')) => match memchr::memchr(q, &data[at + 1..]) {
                    Some(e) => Ok((at + 1, at + 1 + e)),
                    None if !eof => Err(Stop::Eof),
                    None => bad(at, ErrorKind::UnexpectedEof("a quoted literal")),
                },
                None if !eof => Err(Stop::Eof),
                _ => syntax(at, "a quoted literal", data),
            }
        };
        if data[ws..].starts_with(b"SYSTEM") || data[ws..].starts_with(b"PUBLIC") {
            if ws == i {
                return syntax(i, "white space before the external identifier", data);
            }
            let public = data[ws..].starts_with(b"PUBLIC");
            i = ws + 6;
            let w = scan::skip_ws(data, i);
            if w == i {
                return syntax(i, "white space after SYSTEM or PUBLIC", data);
            }
            if public {
                let (ps, pe) = literal(data, w)?;
                if let Some(k) = data[ps..pe].iter().position(|&b| {
                    !(b.is_ascii_alphanumeric() || b" \r\n-'()+,./:=?;!*#@$_%".contains(&b))
                }) {
                    return syntax(ps + k, "a public identifier character", data);
                }
                // SAFETY: ASCII: every byte was just checked to be a public identifier character.
                #[allow(unsafe_code)]
                let pubid = unsafe { str_of(&data[ps..pe]) };
                public_id = Some(dtd::collapse(&pubid.replace(['\r', '\n'], " ")));
                i = pe + 1;
                let w2 = scan::skip_ws(data, i);
                if w2 == i {
                    return syntax(i, "white space before the system identifier", data);
                }
                i = w2;
            } else {
                i = w;
            }
            let (ss, se) = literal(data, i)?;
            scan::check_chars(data, ss, se)?;
            // SAFETY: `check_chars` just checked these bytes as UTF-8 `Char`s.
            #[allow(unsafe_code)]
            let sys = unsafe { str_of(&data[ss..se]) };
            if sys.contains('#') {
                return bad(
                    ss,
                    wf("a system identifier cannot contain a fragment identifier ('#')"),
                );
            }
            system_id = Some(sys.to_string());
            i = se + 1;
        }
        i = scan::skip_ws(data, i);
        let mut subset = None;
        if data.get(i) == Some(&b'[') {
            let s = i + 1;
            let Some(e) = subset_end(data, s) else {
                return if eof {
                    bad(
                        start,
                        ErrorKind::UnexpectedEof("the document type declaration"),
                    )
                } else {
                    Err(Stop::Eof)
                };
            };
            subset = Some((s, e));
            i = scan::skip_ws(data, e + 1);
        }
        match data.get(i) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return syntax(i, "'>' to end the document type declaration", data),
        }
        self.check_len(start, i)?;
        // The declaration is complete: now process the subsets.
        dtd.clear();
        let limits = self.tok.config.limits.clone();
        let base_uri: Option<Arc<str>> = self.tok.config.base_uri.as_deref().map(Arc::from);
        let mut internal = String::new();
        if let Some((s, e)) = subset {
            scan::check_chars(data, s, e)?;
            self.expansion.doc = base + e as u64;
            // SAFETY: `check_chars` just checked these bytes as UTF-8 `Char`s.
            #[allow(unsafe_code)]
            let subset = unsafe { str_of(&data[s..e]) };
            internal = subset.to_string();
            let mut p = DtdParser::new(
                dtd,
                resolver.as_deref_mut().map(|r| r as &mut dyn Resolver),
                &limits,
                &mut self.expansion,
                self.standalone,
            );
            p.namespaces = self.tok.config.namespaces;
            p.internal_subset(Arc::from(internal.as_str()), base_uri.clone())
                .map_err(|e| Stop::at(s + e.at, dtd_kind(e)))?;
        }
        if let Some(sys) = &system_id {
            let mut p = DtdParser::new(
                dtd,
                resolver.as_deref_mut().map(|r| r as &mut dyn Resolver),
                &limits,
                &mut self.expansion,
                self.standalone,
            );
            p.namespaces = self.tok.config.namespaces;
            p.external_subset(public_id.as_deref(), sys, base_uri)
                .map_err(|e| Stop::at(start, dtd_kind(e)))?;
        }
        self.tok.doctype = Some(crate::reader::token::DoctypeInfo {
            name,
            public_id,
            system_id,
            internal_subset: internal,
        });
        self.tok.set_token(TokenKind::Doctype, start, base);
        self.phase = Phase::Prolog;
        self.pos = i + 1;
        Ok(StepR::Token)
    }
}

#[cold]
pub(in crate::reader) fn dtd_kind(e: dtd::DtdError) -> ErrorKind {
    match e.entity {
        Some(name) => match e.kind {
            ErrorKind::WellFormedness(m) => {
                ErrorKind::WellFormedness(format!("{m} (in entity '{name}')"))
            }
            ErrorKind::Syntax { expected, found } => ErrorKind::Syntax {
                expected,
                found: format!("{found} (in entity '{name}')"),
            },
            k => k,
        },
        None => e.kind,
    }
}
