//! Adapters for the C++ processors (Xerces-C++, pugixml), through the shims in `shim/` that
//! build.rs compiles when pkg-config finds the library. The shims catch every C++ exception;
//! none crosses into Rust.

use super::c::{peer_ops, DOM_OPS};
use super::Peer;
use super::{Lang, Op};

const XERCES_MISSING: &str = "libxerces-c-dev not found at build time (scripts/install-peers.sh)";
const PUGIXML_MISSING: &str = "libpugixml-dev not found at build time (scripts/install-peers.sh)";

pub(super) fn peers() -> Vec<Peer> {
    vec![
        peer_ops(
            "xerces-sax2",
            Lang::Cpp,
            "everything a non-validating parser checks; SAX2 with namespaces, no validation, \
             text in UTF-16 (counted as UTF-8 bytes without transcoding)",
            &[Op::Push],
            xerces::sax2(),
            XERCES_MISSING,
        ),
        peer_ops(
            "xerces-dom",
            Lang::Cpp,
            "as xerces-sax2; builds the W3C DOM (XercesDOMParser, parser reused), reserializes \
             with DOMLSSerializer to a MemBufFormatTarget (UTF-8); no pipelines: Xerces-C's \
             XPath is the small subset of XML Schema identity constraints",
            &[Op::Tree, Op::Reserialize],
            xerces::dom(),
            XERCES_MISSING,
        ),
        peer_ops(
            "xerces-sax2-validating",
            Lang::Cpp,
            "well-formedness and XML Schema 1.0 validity (grammar loaded once and cached, \
             scheme always, full schema checking off, errors fatal)",
            &[Op::Validate],
            xerces::validating(),
            XERCES_MISSING,
        ),
        peer_ops(
            "pugixml",
            Lang::Cpp,
            "tag matching and basic syntax only: no namespaces (xmlns attributes skipped by the \
             walk), no Char/Name checks, no duplicate-attribute check, DOCTYPE skipped, only \
             predefined entities and character references expanded; pipelines: \
             pugi::xpath_query compiled once, remove_child, save (format_raw) to memory",
            &DOM_OPS,
            pugixml::dom(),
            PUGIXML_MISSING,
        ),
    ]
}

/// pugixml's pipeline, when its shim is built (tests read its output through it).
#[cfg(test)]
pub(super) static PUGIXML_PIPELINE: Option<&super::c::PipelineShim> = pugixml::PIPELINE;

#[cfg(xwire_xerces)]
#[allow(unsafe_code)]
mod xerces {
    use std::ffi::{c_char, c_void};

    use super::super::c::{check_len, outcome, schema_path, Handle};
    use super::super::{Op, Outcome, Prepare, Runner};

    extern "C" {
        fn xw_xerces_sax_new() -> *mut c_void;
        fn xw_xerces_validating_new(schema: *const c_char) -> *mut c_void;
        fn xw_xerces_sax_run(h: *mut c_void, buf: *const u8, len: usize) -> i64;
        fn xw_xerces_sax_free(h: *mut c_void);
        fn xw_xerces_dom_new() -> *mut c_void;
        fn xw_xerces_dom_run(h: *mut c_void, buf: *const u8, len: usize, reserialize: i32) -> i64;
        fn xw_xerces_dom_free(h: *mut c_void);
    }

    /// A runner parsing with a SAX2 reader (made by the shim, reused for every document).
    ///
    /// # Safety
    ///
    /// `h` must hold a SAX2 reader made by `xw_xerces_sax_new` or `xw_xerces_validating_new`
    /// (not a DOM parser: the handle does not say which shim object it holds).
    unsafe fn sax_runner(h: Handle, name: &'static str) -> Runner {
        Box::new(move |doc: &[u8]| -> Outcome {
            check_len(name, doc)?;
            // SAFETY: `h` is a live SAX2 reader (the caller's promise) owned by this runner
            // (one thread at a time); the shim reads exactly `len` bytes of `doc` and keeps no
            // pointer to them.
            outcome(name, unsafe {
                xw_xerces_sax_run(h.get(), doc.as_ptr(), doc.len())
            })
        })
    }

    pub fn sax2() -> Option<Vec<(Op, Prepare)>> {
        let prepare: Prepare = Box::new(|_| {
            // SAFETY: the shim returns null or a reader freed by `xw_xerces_sax_free`.
            let h = unsafe { Handle::new(xw_xerces_sax_new(), xw_xerces_sax_free) }
                .ok_or("Xerces-C++ could not make a SAX2 reader")?;
            // SAFETY: `h` holds a SAX2 reader made by `xw_xerces_sax_new`.
            Ok(unsafe { sax_runner(h, "Xerces-C++") })
        });
        Some(vec![(Op::Push, prepare)])
    }

    pub fn validating() -> Option<Vec<(Op, Prepare)>> {
        let prepare: Prepare = Box::new(|setup| {
            let path = schema_path(setup.schema)?;
            // SAFETY: `path` is NUL-terminated and alive across the call (Xerces copies what it
            // keeps); the shim returns null or a reader freed by `xw_xerces_sax_free`.
            let h =
                unsafe { Handle::new(xw_xerces_validating_new(path.as_ptr()), xw_xerces_sax_free) }
                    .ok_or_else(|| format!("Xerces-C++ could not load the schema {path:?}"))?;
            // SAFETY: `h` holds a SAX2 reader made by `xw_xerces_validating_new`.
            Ok(unsafe { sax_runner(h, "Xerces-C++ (XML Schema)") })
        });
        Some(vec![(Op::Validate, prepare)])
    }

    fn dom_prepare(reserialize: i32) -> Prepare {
        Box::new(move |_| {
            // SAFETY: the shim returns null or a DOM parser freed by `xw_xerces_dom_free`.
            let h = unsafe { Handle::new(xw_xerces_dom_new(), xw_xerces_dom_free) }
                .ok_or("Xerces-C++ could not make a DOM parser")?;
            Ok(Box::new(move |doc: &[u8]| -> Outcome {
                check_len("Xerces-C++", doc)?;
                // SAFETY: `h` is a live DOM parser owned by this runner (one thread at a time);
                // the shim reads exactly `len` bytes of `doc` and releases the document before
                // returning.
                outcome("Xerces-C++", unsafe {
                    xw_xerces_dom_run(h.get(), doc.as_ptr(), doc.len(), reserialize)
                })
            }))
        })
    }

    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        Some(vec![
            (Op::Tree, dom_prepare(0)),
            (Op::Reserialize, dom_prepare(1)),
        ])
    }
}

#[cfg(not(xwire_xerces))]
mod xerces {
    use super::super::{Op, Prepare};
    pub fn sax2() -> Option<Vec<(Op, Prepare)>> {
        None
    }
    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        None
    }
    pub fn validating() -> Option<Vec<(Op, Prepare)>> {
        None
    }
}

#[cfg(xwire_pugixml)]
#[allow(unsafe_code)]
mod pugixml {
    use std::ffi::{c_char, c_void};

    use super::super::c::{check_len, outcome, PipelineResult, PipelineShim};
    use super::super::{simple, Op, Outcome, Prepare};

    extern "C" {
        fn xw_pugixml_dom(buf: *const u8, len: usize, reserialize: i32) -> i64;
        fn xw_pugixml_pipeline_new(expr: *const c_char) -> *mut c_void;
        fn xw_pugixml_pipeline_free(h: *mut c_void);
        fn xw_pugixml_pipeline_run(
            h: *mut c_void,
            buf: *const u8,
            len: usize,
            keep: i32,
            r: *mut PipelineResult,
        ) -> i32;
        fn xw_pugixml_output_free(out: *mut u8);
    }

    /// The pipeline through pugixml's XPath (`shim/pugixml_shim.cpp`).
    // SAFETY: the four functions of `shim/pugixml_shim.cpp`'s pipeline, which keep its
    // contract.
    pub static PIPELINE: Option<&PipelineShim> = Some(&unsafe {
        PipelineShim::new(
            "pugixml",
            xw_pugixml_pipeline_new,
            xw_pugixml_pipeline_free,
            xw_pugixml_pipeline_run,
            xw_pugixml_output_free,
        )
    });

    fn run(doc: &[u8], reserialize: i32) -> Outcome {
        check_len("pugixml", doc)?;
        // SAFETY: the shim reads exactly `len` bytes from `buf` (load_buffer copies them) and
        // frees the document before returning.
        outcome("pugixml", unsafe {
            xw_pugixml_dom(doc.as_ptr(), doc.len(), reserialize)
        })
    }

    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        let mut v = vec![
            (Op::Tree, simple(|doc| run(doc, 0))),
            (Op::Reserialize, simple(|doc| run(doc, 1))),
        ];
        v.extend(PIPELINE.expect("built").prepares());
        Some(v)
    }
}

#[cfg(not(xwire_pugixml))]
mod pugixml {
    use super::super::c::PipelineShim;
    use super::super::{Op, Prepare};
    // Read by the tests only (`PUGIXML_PIPELINE`): without pugixml the library leaves it unused.
    #[cfg_attr(not(test), allow(dead_code))]
    pub static PIPELINE: Option<&PipelineShim> = None;
    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        None
    }
}
