//! Comments, processing instructions and CDATA sections.

use crate::error::ErrorKind;
use crate::reader::token::{ns_err, Span, TokenKind, F_CR};
use crate::scan::{self, bad, pi_body, Scan, Stop};

use super::{wf, Phase, State, StepR};

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
