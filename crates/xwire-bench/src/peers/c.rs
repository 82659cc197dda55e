//! Adapters for the C processors, through the shims in `shim/` that build.rs compiles when
//! pkg-config finds the library.

use std::ffi::{c_char, c_void, CString};
use std::path::Path;
use std::ptr::NonNull;

use super::{pipeline_checksum, simple, Engine, Lang, Op, Outcome, Peer, PipelineExpr, Prepare};

/// What the DOM peers with XPath (libxml2, pugixml) do: tree, reserialize, the five pipelines.
pub(super) const DOM_OPS: [Op; 7] = super::with_pipelines([Op::Tree, Op::Reserialize]);

const LIBXML2_MISSING: &str = "libxml2-dev not found at build time (scripts/install-peers.sh)";

pub(super) fn peers() -> Vec<Peer> {
    vec![
        peer(
            "libxml2-sax",
            Lang::C,
            "everything a non-validating parser checks; SAX2 namespace callbacks",
            Op::Push,
            libxml2::SAX,
            LIBXML2_MISSING,
        ),
        peer(
            "libxml2-reader",
            Lang::C,
            "as libxml2-sax, through the xmlTextReader pull API",
            Op::Parse,
            libxml2::READER,
            LIBXML2_MISSING,
        ),
        peer_ops(
            "libxml2-dom",
            Lang::C,
            "everything a non-validating parser checks; builds libxml2's tree (xmlReadMemory), \
             reserializes with xmlDocDumpMemory; pipelines: XPath compiled once \
             (xmlXPathCompile), xmlXPathCompiledEval, xmlUnlinkNode + xmlFreeNode, \
             xmlDocDumpMemory",
            &DOM_OPS,
            libxml2::dom(),
            LIBXML2_MISSING,
        ),
        peer_ops(
            "libxml2-xsd",
            Lang::C,
            "well-formedness and XML Schema 1.0 validity, streaming (xmlSchemaValidateStream \
             over SAX2), schema compiled once",
            &[Op::Validate],
            libxml2::xsd(),
            LIBXML2_MISSING,
        ),
        peer_ops(
            "libxml2-xsd-doc",
            Lang::C,
            "as libxml2-xsd, on a tree: xmlReadMemory, then xmlSchemaValidateDoc (schema compiled \
             once, validation context reused), then the walk of libxml2-dom",
            &[Op::Validate],
            libxml2::xsd_doc(),
            LIBXML2_MISSING,
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

/// A peer doing `ops` through `engine`, or missing (with `missing` as the reason) when `engine`
/// is `None`.
pub(super) fn peer_ops(
    name: &'static str,
    lang: Lang,
    checks: &'static str,
    ops: &[Op],
    engine: Option<Vec<(Op, Prepare)>>,
    missing: &str,
) -> Peer {
    let engine = match engine {
        Some(v) => Engine::InProcess(v),
        None => Engine::Missing {
            reason: missing.to_string(),
            ops: ops.to_vec(),
        },
    };
    Peer {
        name,
        lang,
        checks,
        engine,
    }
}

/// An object made by a shim's `*_new` (a compiled schema, a reusable parser), freed by the
/// matching `*_free` when the runner owning it is dropped.
// Unused when no shim is built (no library found, or XWIRE_NO_C_PEERS).
#[cfg_attr(
    not(any(xwire_libxml2, xwire_expat, xwire_xerces, xwire_pugixml)),
    allow(dead_code)
)]
pub(super) struct Handle {
    ptr: NonNull<c_void>,
    free: unsafe extern "C" fn(*mut c_void),
}

// The crate denies unsafe code; a handle to a C object is one of the few places that need it.
#[allow(unsafe_code)]
// SAFETY: the shims' objects are not tied to the thread that made them (no thread-local state
// is kept in them), and a runner, which owns its handle, is called from one thread at a time.
unsafe impl Send for Handle {}

#[allow(unsafe_code)]
#[cfg_attr(
    not(any(xwire_libxml2, xwire_expat, xwire_xerces, xwire_pugixml)),
    allow(dead_code)
)]
impl Handle {
    /// Wraps what a `*_new` returned; `None` for a null pointer (the shim failed).
    ///
    /// # Safety
    ///
    /// `ptr` must be null or an object that `free` releases, owned by nobody else.
    pub(super) unsafe fn new(
        ptr: *mut c_void,
        free: unsafe extern "C" fn(*mut c_void),
    ) -> Option<Handle> {
        NonNull::new(ptr).map(|ptr| Handle { ptr, free })
    }

    /// The object, for the shim's run functions.
    pub(super) fn get(&self) -> *mut c_void {
        self.ptr.as_ptr()
    }
}

#[allow(unsafe_code)]
impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from the `*_new` matching `free` (see `new`) and is released once.
        unsafe { (self.free)(self.ptr.as_ptr()) }
    }
}

/// The schema's path as a C string, or why there is none.
#[cfg_attr(
    not(any(xwire_libxml2, xwire_expat, xwire_xerces, xwire_pugixml)),
    allow(dead_code)
)]
pub(super) fn schema_path(schema: Option<&Path>) -> Result<CString, String> {
    let path = schema.ok_or("this workload has no schema")?;
    let s = path
        .to_str()
        .ok_or_else(|| format!("schema path is not UTF-8: {}", path.display()))?;
    CString::new(s).map_err(|_| format!("schema path contains NUL: {}", path.display()))
}

/// Refuses documents longer than the `int` lengths of the C libraries.
#[cfg_attr(
    not(any(xwire_libxml2, xwire_expat, xwire_xerces, xwire_pugixml)),
    allow(dead_code)
)]
pub(super) fn check_len(name: &str, doc: &[u8]) -> Result<(), String> {
    if doc.len() > i32::MAX as usize {
        return Err(format!("document too large for {name}"));
    }
    Ok(())
}

/// The shim's result: the checksum, or -1 for a document the library rejected.
#[cfg_attr(
    not(any(xwire_libxml2, xwire_expat, xwire_xerces, xwire_pugixml)),
    allow(dead_code)
)]
pub(super) fn outcome(name: &str, rc: i64) -> Outcome {
    u64::try_from(rc).map_err(|_| format!("{name} rejected the document"))
}

/// What a shim's pipeline run reports (`xw_pipeline_result_t` in the shims, same layout).
#[repr(C)]
pub(super) struct PipelineResult {
    selected: i64,
    elements: i64,
    out_len: i64,
    out: *mut u8,
}

/// The four entry points of a shim's XPath-and-edit pipeline ([`Op::Pipeline`]). Its safe
/// methods call them as the shims' contract says; [`PipelineShim::new`] is where the four
/// functions are promised to keep it.
pub(super) struct PipelineShim {
    /// The library, for messages.
    name: &'static str,
    /// Compiles a NUL-terminated expression; null if it does not compile.
    new: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    /// Frees what `new` made.
    free: unsafe extern "C" fn(*mut c_void),
    /// One run on `len` bytes; with `keep` non-zero the output is left in the result for
    /// `free_output`. 0, or -1 when the document is rejected.
    run: unsafe extern "C" fn(*mut c_void, *const u8, usize, i32, *mut PipelineResult) -> i32,
    /// Frees an output kept by `run`.
    free_output: unsafe extern "C" fn(*mut u8),
}

// Unused when no shim with a pipeline is built.
#[cfg_attr(not(any(xwire_libxml2, xwire_pugixml)), allow(dead_code))]
impl PipelineShim {
    /// The pipeline of the library `name` through these four functions.
    ///
    /// # Safety
    ///
    /// They must keep the contract of `shim/*_shim.*`'s pipeline: `new` takes a
    /// NUL-terminated expression it does not keep and returns null or an object that `free`
    /// (alone) releases; `run` takes such an object, reads exactly `len` bytes at `buf`,
    /// keeps no pointer to them, writes only into its result and, when `keep` is non-zero,
    /// leaves there `out_len` bytes at `out` that `free_output` releases.
    #[allow(unsafe_code)]
    pub(super) const unsafe fn new(
        name: &'static str,
        new: unsafe extern "C" fn(*const c_char) -> *mut c_void,
        free: unsafe extern "C" fn(*mut c_void),
        run: unsafe extern "C" fn(*mut c_void, *const u8, usize, i32, *mut PipelineResult) -> i32,
        free_output: unsafe extern "C" fn(*mut u8),
    ) -> PipelineShim {
        PipelineShim {
            name,
            new,
            free,
            run,
            free_output,
        }
    }

    /// The expression compiled once, ready to run on one document after another.
    pub(super) fn compile(&'static self, expr: PipelineExpr) -> Result<CompiledPipeline, String> {
        let c = CString::new(expr.xpath()).expect("no NUL in the expressions");
        // SAFETY: `c` is NUL-terminated and alive across the call (the libraries copy what
        // they keep); `new` returns null or an object that `free` releases, owned by nobody.
        #[allow(unsafe_code)]
        let handle = unsafe { Handle::new((self.new)(c.as_ptr()), self.free) }
            .ok_or_else(|| format!("{} could not compile {}", self.name, expr.xpath()))?;
        Ok(CompiledPipeline { shim: self, handle })
    }

    /// The five pipelines, each compiling its expression in [`Prepare`].
    pub(super) fn prepares(&'static self) -> Vec<(Op, Prepare)> {
        PipelineExpr::ALL
            .into_iter()
            .map(|e| {
                let prepare: Prepare = Box::new(move |_| {
                    let mut c = self.compile(e)?;
                    Ok(Box::new(move |doc: &[u8]| {
                        c.run(doc, false).map(|(sum, _)| sum)
                    }))
                });
                (Op::Pipeline(e), prepare)
            })
            .collect()
    }
}

/// A shim's compiled expression (see [`PipelineShim`]).
pub(super) struct CompiledPipeline {
    shim: &'static PipelineShim,
    handle: Handle,
}

#[cfg_attr(not(any(xwire_libxml2, xwire_pugixml)), allow(dead_code))]
impl CompiledPipeline {
    /// One run: the checksum, and the output when `keep` (for tests; not timed).
    pub(super) fn run(&mut self, doc: &[u8], keep: bool) -> Result<(u64, Option<Vec<u8>>), String> {
        check_len(self.shim.name, doc)?;
        let mut r = PipelineResult {
            selected: 0,
            elements: 0,
            out_len: 0,
            out: std::ptr::null_mut(),
        };
        // SAFETY: the handle is a live compiled expression owned by this runner (one thread
        // at a time); the shim reads exactly `len` bytes of `doc`, keeps no pointer to them,
        // frees its document before returning and writes only into `r`.
        #[allow(unsafe_code)]
        let rc = unsafe {
            (self.shim.run)(
                self.handle.get(),
                doc.as_ptr(),
                doc.len(),
                i32::from(keep),
                &mut r,
            )
        };
        let out = if r.out.is_null() {
            None
        } else {
            let len = usize::try_from(r.out_len).unwrap_or(0);
            // SAFETY: with `keep`, the shim left `out_len` bytes of output at `out`, which
            // nobody else owns; they are copied, then released once by the matching free.
            #[allow(unsafe_code)]
            let bytes = unsafe {
                let v = std::slice::from_raw_parts(r.out, len).to_vec();
                (self.shim.free_output)(r.out);
                v
            };
            Some(bytes)
        };
        if rc != 0 {
            return Err(format!("{} rejected the document", self.shim.name));
        }
        if r.out_len <= 0 {
            return Err(format!("{} wrote an empty document", self.shim.name));
        }
        let sum = pipeline_checksum(r.selected as u64, r.elements as u64);
        Ok((sum, out))
    }
}

#[cfg(xwire_libxml2)]
#[allow(unsafe_code)]
mod libxml2 {
    use std::ffi::{c_char, c_void};

    use super::{
        check_len, outcome, schema_path, simple, Handle, Op, Outcome, PipelineResult, PipelineShim,
        Prepare,
    };

    extern "C" {
        fn xw_libxml2_pipeline_new(expr: *const c_char) -> *mut c_void;
        fn xw_libxml2_pipeline_free(h: *mut c_void);
        fn xw_libxml2_pipeline_run(
            h: *mut c_void,
            buf: *const u8,
            len: usize,
            keep: i32,
            r: *mut PipelineResult,
        ) -> i32;
        fn xw_libxml2_output_free(out: *mut u8);
        fn xw_libxml2_sax(buf: *const u8, len: usize) -> i64;
        fn xw_libxml2_reader(buf: *const u8, len: usize) -> i64;
        fn xw_libxml2_dom(buf: *const u8, len: usize, reserialize: i32) -> i64;
        fn xw_libxml2_xsd_new(path: *const c_char) -> *mut c_void;
        fn xw_libxml2_xsd_validate(h: *mut c_void, buf: *const u8, len: usize) -> i64;
        fn xw_libxml2_xsd_validate_doc(h: *mut c_void, buf: *const u8, len: usize) -> i64;
        fn xw_libxml2_xsd_free(h: *mut c_void);
    }

    /// The pipeline through libxml2's XPath (`shim/libxml2_shim.c`).
    // SAFETY: the four functions of `shim/libxml2_shim.c`'s pipeline, which keep its contract.
    pub static PIPELINE: Option<&PipelineShim> = Some(&unsafe {
        PipelineShim::new(
            "libxml2",
            xw_libxml2_pipeline_new,
            xw_libxml2_pipeline_free,
            xw_libxml2_pipeline_run,
            xw_libxml2_output_free,
        )
    });

    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        let mut v = vec![
            (Op::Tree, simple(|doc| run_dom(doc, 0))),
            (Op::Reserialize, simple(|doc| run_dom(doc, 1))),
        ];
        v.extend(PIPELINE.expect("built").prepares());
        Some(v)
    }

    fn run_dom(doc: &[u8], reserialize: i32) -> Outcome {
        check_len("libxml2", doc)?;
        // SAFETY: the shim reads exactly `len` bytes from `buf`, which points into `doc`; the
        // tree and the serialized copy are freed before it returns.
        outcome("libxml2", unsafe {
            xw_libxml2_dom(doc.as_ptr(), doc.len(), reserialize)
        })
    }

    /// Streaming validation (`xmlSchemaValidateStream`).
    pub fn xsd() -> Option<Vec<(Op, Prepare)>> {
        // SAFETY: one of the shim's validation runs on a schema from `xw_libxml2_xsd_new`.
        unsafe { xsd_with(xw_libxml2_xsd_validate) }
    }

    /// Whole-document validation (`xmlReadMemory` + `xmlSchemaValidateDoc`).
    pub fn xsd_doc() -> Option<Vec<(Op, Prepare)>> {
        // SAFETY: one of the shim's validation runs on a schema from `xw_libxml2_xsd_new`.
        unsafe { xsd_with(xw_libxml2_xsd_validate_doc) }
    }

    /// Validation through `validate`, one of the shim's runs on a compiled schema.
    ///
    /// # Safety
    ///
    /// `validate` must take a schema made by `xw_libxml2_xsd_new`, read exactly `len` bytes
    /// at `buf`, free what it parsed and keep no pointer to them after returning.
    unsafe fn xsd_with(
        validate: unsafe extern "C" fn(*mut c_void, *const u8, usize) -> i64,
    ) -> Option<Vec<(Op, Prepare)>> {
        let prepare: Prepare = Box::new(move |setup| {
            let path = schema_path(setup.schema)?;
            // SAFETY: `path` is a NUL-terminated string alive across the call (libxml2 copies
            // it); what the shim returns is null or a schema freed by `xw_libxml2_xsd_free`.
            let schema =
                unsafe { Handle::new(xw_libxml2_xsd_new(path.as_ptr()), xw_libxml2_xsd_free) }
                    .ok_or_else(|| format!("libxml2 could not compile the schema {path:?}"))?;
            Ok(Box::new(move |doc: &[u8]| {
                check_len("libxml2", doc)?;
                // SAFETY: `schema` is alive (owned by this runner, used by one thread at a
                // time) and made by `xw_libxml2_xsd_new`, which `validate` takes; it reads
                // exactly `len` bytes of `doc`, frees what it parsed and keeps no pointer to
                // them after returning (the promise of `xsd_with`'s caller).
                outcome("libxml2 (XML Schema)", unsafe {
                    validate(schema.get(), doc.as_ptr(), doc.len())
                })
            }))
        });
        Some(vec![(Op::Validate, prepare)])
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
    use super::{Op, Outcome, PipelineShim, Prepare};
    // Read by the tests only: without libxml2 the library leaves it unused.
    #[cfg_attr(not(test), allow(dead_code))]
    pub static PIPELINE: Option<&PipelineShim> = None;
    pub fn dom() -> Option<Vec<(Op, Prepare)>> {
        None
    }
    pub fn xsd() -> Option<Vec<(Op, Prepare)>> {
        None
    }
    pub fn xsd_doc() -> Option<Vec<(Op, Prepare)>> {
        None
    }
    pub const SAX: Option<fn(&[u8]) -> Outcome> = None;
    pub const READER: Option<fn(&[u8]) -> Outcome> = None;
}

/// libxml2's pipeline, when its shim is built (tests read its output through it).
#[cfg(test)]
pub(super) static LIBXML2_PIPELINE: Option<&PipelineShim> = libxml2::PIPELINE;

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

#[cfg(test)]
mod tests {
    use super::super::{all, Lang, Op, Setup};

    const SCHEMA: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="a">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="n" type="xs:int" maxOccurs="unbounded"/>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>
"#;

    /// The same content model in a target namespace (documents use a default namespace).
    fn namespaced(schema: &str) -> String {
        schema.replace(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">",
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"urn:t\" \
             elementFormDefault=\"qualified\">",
        )
    }

    #[test]
    fn every_validating_peer_accepts_valid_and_rejects_invalid() {
        for (tag, schema, root) in [
            ("plain", SCHEMA.to_string(), "<a>"),
            ("ns", namespaced(SCHEMA), "<a xmlns=\"urn:t\">"),
        ] {
            let doc = |s: &str| s.replacen("<a>", root, 1).into_bytes();
            let path =
                std::env::temp_dir().join(format!("xwire-cpeers-{}-{tag}.xsd", std::process::id()));
            std::fs::write(&path, &schema).expect("write the schema");
            let setup = Setup {
                schema: Some(&path),
                ..Setup::default()
            };
            let mut tried = 0;
            for p in all() {
                if !p.can(Op::Validate) {
                    continue;
                }
                let Some(run) = p.prepare(Op::Validate, &setup) else {
                    continue;
                };
                let mut run = run.unwrap_or_else(|e| panic!("{} ({tag}): {e}", p.name));
                tried += 1;
                // 2 elements + 2 text bytes, twice (the runner is reused).
                for _ in 0..2 {
                    assert_eq!(
                        run(&doc("<a><n>42</n></a>")),
                        Ok(4),
                        "{} ({tag}) on a valid document",
                        p.name
                    );
                }
                for bad in [
                    "<a><n>x</n></a>",
                    "<a></a>",
                    "<a><m>1</m></a>",
                    "<b><n>1</n></b>",
                    "<a><n>1</n>",
                ] {
                    assert!(run(&doc(bad)).is_err(), "{} ({tag}) accepted {bad}", p.name);
                }
                assert_eq!(
                    run(&doc("<a><n>17</n></a>")),
                    Ok(4),
                    "{} ({tag}) after errors",
                    p.name
                );
            }
            std::fs::remove_file(&path).ok();
            if std::env::var_os("XWIRE_NO_C_PEERS").is_none() && cfg!(xwire_libxml2) {
                assert!(tried >= 1, "no validating peer was tried");
            }
        }
    }

    /// CI installs every peer through scripts/install-peers.sh: a C or C++ peer left out
    /// because its library was not found there is a broken set-up, not a skip.
    #[test]
    fn every_c_peer_is_built_under_ci() {
        if std::env::var("CI").as_deref() != Ok("true") {
            return;
        }
        for p in all() {
            if matches!(p.lang, Lang::C | Lang::Cpp) {
                assert!(
                    p.available(),
                    "{} is missing under CI: {}",
                    p.name,
                    p.missing().unwrap_or("")
                );
            }
        }
    }
}
