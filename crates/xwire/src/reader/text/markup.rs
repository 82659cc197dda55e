//! Comments, processing instructions and CDATA sections.

use crate::chars;
use crate::error::ErrorKind;
use crate::reader::token::{Span, TokenKind};
use crate::scan::{self, bad, syntax, Scan, Stop};

use super::{wf, Phase, State, StepR};
use crate::reader::token::ns_err;
use crate::reader::token::F_CR;

/// Parses the body of a processing instruction at `start` (`<?`): returns the end of the target,
/// the start of the data and the position after `?>`. The caller has ruled out the XML
/// declaration.
pub(crate) fn pi_body(data: &[u8], start: usize, eof: bool) -> Scan<(usize, usize, usize)> {
    let ts = start + 2;
    let te = scan::name(data, ts, eof, "a processing instruction target")?;
    if data[ts..te].eq_ignore_ascii_case(b"xml") {
        return bad(ts, wf("the processing instruction target 'xml' is reserved (an XML declaration is allowed only at the very start)"));
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
    let ds = scan::skip_ws(data, te);
    let Some(end) = scan::find_pi_end(&data[ds..]).map(|e| ds + e) else {
        return if eof {
            bad(start, ErrorKind::UnexpectedEof("a processing instruction"))
        } else {
            Err(Stop::Eof)
        };
    };
    scan::check_chars(data, ds, end)?;
    Ok((te, ds, end + 2))
}

impl State {
    pub(in crate::reader) fn comment(
        &mut self,
        data: &[u8],
        eof: bool,
        raw_cr: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        let body = start + 4;
        let Some(end) = memchr::memmem::find(&data[body..], b"--").map(|e| body + e) else {
            return if eof {
                bad(start, ErrorKind::UnexpectedEof("a comment"))
            } else {
                Err(Stop::Eof)
            };
        };
        match data.get(end + 2) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return bad(end, wf("'--' is not allowed inside a comment")),
        }
        scan::check_chars(data, body, end)?;
        self.check_len(body, end)?;
        self.tok.set_token(TokenKind::Comment, start, base);
        self.tok.span = Span {
            start: body,
            end,
            scratch: false,
        };
        self.tok.flags = if raw_cr && memchr::memchr(b'\r', &data[body..end]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = end + 3;
        Ok(StepR::Token)
    }

    pub(in crate::reader) fn pi(
        &mut self,
        data: &[u8],
        eof: bool,
        raw_cr: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        let (te, ds, after) = pi_body(data, start, eof)?;
        if self.tok.config.namespaces && memchr::memchr(b':', &data[start + 2..te]).is_some() {
            return bad(
                start + 2,
                ns_err("a processing instruction target cannot contain ':'"),
            );
        }
        self.check_len(start, after)?;
        self.tok.set_token(TokenKind::Pi, start, base);
        self.tok.span = Span {
            start: start + 2,
            end: te,
            scratch: false,
        };
        self.tok.pi_data = Span {
            start: ds,
            end: after - 2,
            scratch: false,
        };
        self.tok.flags = if raw_cr && memchr::memchr(b'\r', &data[ds..after - 2]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = after;
        if self.phase == Phase::Start {
            self.phase = Phase::Prolog;
        }
        Ok(StepR::Token)
    }

    pub(in crate::reader) fn cdata(
        &mut self,
        data: &[u8],
        eof: bool,
        raw_cr: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        if self.phase != Phase::Content {
            return bad(
                start,
                wf("CDATA sections are allowed only inside the root element"),
            );
        }
        let body = start + 9;
        let Some(end) = memchr::memmem::find(&data[body..], b"]]>").map(|e| body + e) else {
            return if eof {
                bad(start, ErrorKind::UnexpectedEof("a CDATA section"))
            } else {
                Err(Stop::Eof)
            };
        };
        scan::check_chars(data, body, end)?;
        self.check_len(body, end)?;
        self.tok.set_token(TokenKind::CData, start, base);
        self.tok.span = Span {
            start: body,
            end,
            scratch: false,
        };
        self.tok.flags = if raw_cr && memchr::memchr(b'\r', &data[body..end]).is_some() {
            F_CR
        } else {
            0
        };
        self.pos = end + 3;
        Ok(StepR::Token)
    }
}
