//! Adapters for the C processors, through the shims in `shim/` that build.rs compiles when
//! pkg-config finds the library.

use super::{simple, Engine, Lang, Op, Outcome, Peer};

pub(super) fn peers() -> Vec<Peer> {
    vec![
        peer(
            "libxml2-sax",
            Lang::C,
            "everything a non-validating parser checks; SAX2 namespace callbacks",
            Op::Push,
            libxml2::SAX,
            "libxml2-dev not found at build time (scripts/install-peers.sh)",
        ),
        peer(
            "libxml2-reader",
            Lang::C,
            "as libxml2-sax, through the xmlTextReader pull API",
            Op::Parse,
            libxml2::READER,
            "libxml2-dev not found at build time (scripts/install-peers.sh)",
        ),
        peer(
            "expat",
            Lang::C,
            "everything a non-validating parser checks; no namespace processing",
            Op::Push,
            expat::PLAIN,
            "libexpat1-dev not found at build time (scripts/install-peers.sh)",
        ),
        peer(
            "expat-ns",
            Lang::C,
            "as expat, with namespace processing",
            Op::Push,
            expat::NS,
            "libexpat1-dev not found at build time (scripts/install-peers.sh)",
        ),
    ]
}

/// A peer doing one operation through `f`, or missing when `f` is `None`.
fn peer(
    name: &'static str,
    lang: Lang,
    checks: &'static str,
    op: Op,
    f: Option<fn(&[u8]) -> Outcome>,
    missing: &str,
) -> Peer {
    let engine = match f {
        Some(f) => Engine::InProcess(vec![(op, simple(f))]),
        None => Engine::Missing {
            reason: missing.to_string(),
            ops: vec![op],
        },
    };
    Peer {
        name,
        lang,
        checks,
        engine,
    }
}

/// The shim's result: the checksum, or -1 for a document the library rejected.
fn outcome(name: &str, rc: i64) -> Outcome {
    u64::try_from(rc).map_err(|_| format!("{name} rejected the document"))
}

#[cfg(xwire_libxml2)]
#[allow(unsafe_code)]
mod libxml2 {
    use super::{outcome, Outcome};

    extern "C" {
        fn xw_libxml2_sax(buf: *const u8, len: usize) -> i64;
        fn xw_libxml2_reader(buf: *const u8, len: usize) -> i64;
    }

    pub const SAX: Option<fn(&[u8]) -> Outcome> = Some(sax);
    pub const READER: Option<fn(&[u8]) -> Outcome> = Some(reader);

    fn sax(doc: &[u8]) -> Outcome {
        // libxml2 takes the length as an int.
        if doc.len() > i32::MAX as usize {
            return Err("document too large for libxml2".into());
        }
        // SAFETY: the shim reads exactly `len` bytes from `buf`, which points into `doc`, and
        // keeps no pointer after returning.
        outcome("libxml2", unsafe {
            xw_libxml2_sax(doc.as_ptr(), doc.len())
        })
    }

    fn reader(doc: &[u8]) -> Outcome {
        if doc.len() > i32::MAX as usize {
            return Err("document too large for libxml2".into());
        }
        // SAFETY: as for `sax`; the text reader is freed before the shim returns.
        outcome("libxml2", unsafe {
            xw_libxml2_reader(doc.as_ptr(), doc.len())
        })
    }
}

#[cfg(not(xwire_libxml2))]
mod libxml2 {
    use super::Outcome;
    pub const SAX: Option<fn(&[u8]) -> Outcome> = None;
    pub const READER: Option<fn(&[u8]) -> Outcome> = None;
}

#[cfg(xwire_expat)]
#[allow(unsafe_code)]
mod expat {
    use super::{outcome, Outcome};

    extern "C" {
        fn xw_expat_parse(buf: *const u8, len: usize, namespaces: i32) -> i64;
    }

    pub const PLAIN: Option<fn(&[u8]) -> Outcome> = Some(plain);
    pub const NS: Option<fn(&[u8]) -> Outcome> = Some(ns);

    fn run(doc: &[u8], namespaces: i32) -> Outcome {
        if doc.len() > i32::MAX as usize {
            return Err("document too large for expat".into());
        }
        // SAFETY: the shim reads exactly `len` bytes from `buf`, which points into `doc`; the
        // parser is freed before it returns.
        outcome("expat", unsafe {
            xw_expat_parse(doc.as_ptr(), doc.len(), namespaces)
        })
    }

    fn plain(doc: &[u8]) -> Outcome {
        run(doc, 0)
    }

    fn ns(doc: &[u8]) -> Outcome {
        run(doc, 1)
    }
}

#[cfg(not(xwire_expat))]
mod expat {
    use super::Outcome;
    pub const PLAIN: Option<fn(&[u8]) -> Outcome> = None;
    pub const NS: Option<fn(&[u8]) -> Outcome> = None;
}
