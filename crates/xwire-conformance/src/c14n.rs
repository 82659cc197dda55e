//! Canonical XML test vectors (`c14n/` in the corpora) from libxml2's test suite and Apache
//! Santuario's, run through [`xwire::c14n`]: whole documents by the streaming canonicalizer,
//! document subsets through the tree ([`xwire::tree`]) and the node-set canonicalizer.
//!
//! What runs:
//! - `libxml2/test/c14n/<mode>/NAME.xml` against `libxml2/result/c14n/<mode>/NAME`, for the
//!   modes `without-comments`, `with-comments`, `1-1-without-comments` (Canonical XML 1.1) and
//!   `exc-without-comments`; `NAME.ns` holds the inclusive prefixes of exclusive mode. A
//!   `NAME.xpath` (an XML document whose root element holds the expression and declares its
//!   prefixes) selects a document subset: the node-set the expression gives with the document
//!   node as context, as libxml2's `testC14N` evaluates it.
//! - `santuario/org/apache/xml/security/c14n/in`: the examples of Canonical XML 1.0 section 3
//!   (`3N_input.xml` against `3N_c14n.xml`, `31_c14n-comments.xml` with comments, 3.7 as the
//!   XPath of `37_subset.xpath`, and the same expression under Canonical XML 1.1 for 38), the
//!   validating-parser variant of 3.4, `relative-ns-behaviour.xml` (must be rejected: relative
//!   namespace URI), `testTranslationFromUTF16toUTF8.xml` (the file re-encoded as UTF-16 must
//!   canonicalize to itself in UTF-8), and `default_ns_redefinition` (the `dsig:Object`
//!   subtree).
//! - `inExcl`: element subtrees, selected as Santuario's tests do (an
//!   `ancestor-or-self::` XPath, or the subtree of an element), inclusive and exclusive.
//! - `org/w3c/www/interop/c14n11`: each `NAME[-IMPLEMENTATION].output` is `NAME.xpath`
//!   (prefix `ietf` bound to `http://www.ietf.org`) over the matching `*-input.xml` in Canonical
//!   XML 1.1; `appendixa` checks the `xml:base` dot-segment removal line by line, through the
//!   canonical form of an element under an omitted parent.
//! - `interop/c14n/Y1`..`Y5` and `merlin-exc-c14n-one`: `c14n-N.txt` is the canonical form of
//!   reference N of the signature (its URI dereferenced, its XPath filter, enveloped-signature
//!   and canonicalization transforms applied) or, after the last reference, of `SignedInfo`;
//!   see [`crate::dsig`], which computes no digest and verifies nothing.
//!
//! Skipped: vectors without an expected output, or (one interop output) without its XPath
//! expression in the corpus. Known failures are listed in `known-failures/c14n.txt`.
//!
//! Each vector's external DTD and entities are read through an [`FsResolver`] confined to the
//! vector's folder, so attribute defaults and external entities apply as the examples expect.

use std::path::{Path, PathBuf};

use xwire::c14n::{self, C14nOptions, Canonicalizer, Mode};
use xwire::xpath::{Namespaces, XPath};
use xwire::{Config, FsResolver, Reader};

use crate::dsig::Ids;

use crate::{Outcome, Report, TestResult};

/// What a vector expects.
#[derive(Debug, Clone)]
pub enum Expect {
    /// This canonical form, byte for byte.
    Output(PathBuf),
    /// An error (the document cannot be canonicalized).
    Error,
}

/// The part of a vector's input that is canonicalized.
#[derive(Debug, Clone)]
pub enum Selection {
    /// The whole document, by the streaming canonicalizer.
    Document,
    /// The node-set of an XPath expression evaluated with the document node as context, with
    /// these namespace bindings.
    XPath {
        /// The expression.
        expr: String,
        /// Prefix bindings.
        namespaces: Vec<(String, String)>,
    },
    /// The node-set of libxml2's `NAME.xpath` file: an XML document whose root element holds
    /// the expression as text and declares the prefixes it uses.
    XPathFile(PathBuf),
    /// The subtree of the first element with this namespace URI and local name.
    Subtree(String, String),
    /// Reference `n` of the XML Signature in the input (`SignedInfo` when `n` is the number of
    /// references), by [`crate::dsig`].
    Reference(usize),
    /// Canonical XML 1.1 Appendix A: each line of the input file joined as a relative
    /// `xml:base` must give the same line of the expected file.
    DotSegments,
}

/// One input/output pair.
#[derive(Debug, Clone)]
pub struct Vector {
    /// `corpus/folder/name`.
    pub id: String,
    /// The input document.
    pub input: PathBuf,
    /// The expected result.
    pub expect: Expect,
    /// How to canonicalize.
    pub options: C14nOptions,
    /// Re-encode the input as UTF-16 (with a byte order mark) before reading it.
    pub as_utf16: bool,
    /// What part of the input to canonicalize.
    pub selection: Selection,
    /// Why the vector does not apply, if it does not.
    pub skip: Option<String>,
}

impl Vector {
    fn new(id: String, input: PathBuf, expect: Expect, options: C14nOptions) -> Vector {
        Vector {
            id,
            input,
            expect,
            options,
            as_utf16: false,
            selection: Selection::Document,
            skip: None,
        }
    }

    fn subset(
        id: String,
        input: PathBuf,
        expect: PathBuf,
        options: C14nOptions,
        selection: Selection,
    ) -> Vector {
        Vector {
            selection,
            ..Vector::new(id, input, Expect::Output(expect), options)
        }
    }

    fn skipped(id: String, input: PathBuf, why: impl Into<String>) -> Vector {
        Vector {
            skip: Some(why.into()),
            ..Vector::new(id, input, Expect::Error, C14nOptions::default())
        }
    }
}

const LIBXML2_MODES: [&str; 4] = [
    "without-comments",
    "with-comments",
    "1-1-without-comments",
    "exc-without-comments",
];

fn options_for(mode_dir: &str) -> C14nOptions {
    let mode = match mode_dir {
        "1-1-without-comments" => Mode::Inclusive11,
        "exc-without-comments" => Mode::exclusive(""),
        _ => Mode::Inclusive,
    };
    C14nOptions::new(mode, mode_dir == "with-comments")
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The libxml2 vectors below `dir` (the folder holding `test/` and `result/`).
pub fn libxml2_vectors(dir: &Path) -> Vec<Vector> {
    let mut out = Vec::new();
    for mode in LIBXML2_MODES {
        let tests = dir.join("test/c14n").join(mode);
        for input in sorted_entries(&tests) {
            let Some(name) = file_name(&input).strip_suffix(".xml").map(str::to_string) else {
                continue;
            };
            let id = format!("libxml2/{mode}/{name}");
            let expected = dir.join("result/c14n").join(mode).join(&name);
            if !expected.exists() {
                out.push(Vector::skipped(
                    id,
                    input,
                    "no expected result in the corpus",
                ));
                continue;
            }
            let mut options = options_for(mode);
            if let Ok(list) = std::fs::read_to_string(tests.join(format!("{name}.ns"))) {
                options.mode = Mode::exclusive(&list);
            }
            let xpath = tests.join(format!("{name}.xpath"));
            let mut v = Vector::new(id, input, Expect::Output(expected), options);
            if xpath.exists() {
                v.selection = Selection::XPathFile(xpath);
            }
            out.push(v);
        }
    }
    out
}

/// The Santuario vectors below `dir` (the folder holding `org/`, `ie/` and `interop/`).
pub fn santuario_vectors(dir: &Path) -> Vec<Vector> {
    let mut out = Vec::new();
    let inc = |comments| C14nOptions::new(Mode::Inclusive, comments);
    let c14n_in = dir.join("org/apache/xml/security/c14n/in");
    let pair = |id: &str, input: &str, output: &str, comments: bool| {
        Vector::new(
            format!("santuario/c14n/in/{id}"),
            c14n_in.join(input),
            Expect::Output(c14n_in.join(output)),
            inc(comments),
        )
    };
    out.push(pair("31", "31_input.xml", "31_c14n.xml", false));
    out.push(pair(
        "31-comments",
        "31_input.xml",
        "31_c14n-comments.xml",
        true,
    ));
    for n in 32..=36 {
        out.push(pair(
            &n.to_string(),
            &format!("{n}_input.xml"),
            &format!("{n}_c14n.xml"),
            false,
        ));
    }
    out.push(pair(
        "34-validatingParser",
        "34_input_validatingParser.xml",
        "34_c14n_validatingParser.xml",
        false,
    ));
    out.push(Vector::new(
        "santuario/c14n/in/relative-ns-behaviour".into(),
        c14n_in.join("relative-ns-behaviour.xml"),
        Expect::Error,
        inc(false),
    ));
    let utf16 = c14n_in.join("testTranslationFromUTF16toUTF8.xml");
    out.push(Vector {
        as_utf16: true,
        ..Vector::new(
            "santuario/c14n/in/testTranslationFromUTF16toUTF8".into(),
            utf16.clone(),
            Expect::Output(utf16),
            inc(false),
        )
    });
    // Document subsets, as Santuario's tests select them.
    let ietf = || vec![("ietf".to_string(), "http://www.ietf.org".to_string())];
    let subset37 = std::fs::read_to_string(c14n_in.join("37_subset.xpath"))
        .map(|s| strip_comments(&s))
        .unwrap_or_default();
    for (n, mode) in [(37, Mode::Inclusive), (38, Mode::Inclusive11)] {
        out.push(Vector::subset(
            format!("santuario/c14n/in/{n}"),
            c14n_in.join(format!("{n}_input.xml")),
            c14n_in.join(format!("{n}_c14n.xml")),
            C14nOptions::new(mode, false),
            Selection::XPath {
                expr: subset37.clone(),
                namespaces: ietf(),
            },
        ));
    }
    out.push(Vector::subset(
        "santuario/c14n/in/default_ns_redefinition".into(),
        c14n_in.join("default_ns_redefinition_input.xml"),
        c14n_in.join("default_ns_redefinition_c14n.xml"),
        inc(false),
        Selection::Subtree("http://www.w3.org/2000/09/xmldsig#".into(), "Object".into()),
    ));
    let excl = dir.join("org/apache/xml/security/c14n/inExcl");
    let exclusive = || C14nOptions::new(Mode::exclusive(""), false);
    let below = |prefix: &str, uri: &str, local: &str| Selection::XPath {
        expr: format!("(//. | //@* | //namespace::*)[ancestor-or-self::{local}]"),
        namespaces: if prefix.is_empty() {
            vec![]
        } else {
            vec![(prefix.to_string(), uri.to_string())]
        },
    };
    let elem2 = || below("n1", "http://example.net", "n1:elem2");
    for (input, output, options, selection) in [
        (
            "example2_2_1.xml",
            "example2_2_1_c14nized.xml",
            inc(false),
            elem2(),
        ),
        (
            "example2_2_2.xml",
            "example2_2_2_c14nized.xml",
            inc(false),
            elem2(),
        ),
        (
            "example2_2_1.xml",
            "example2_2_c14nized_exclusive.xml",
            exclusive(),
            elem2(),
        ),
        (
            "example2_2_3.xml",
            "example2_2_3_c14nized_exclusive.xml",
            exclusive(),
            below("", "", "p"),
        ),
        (
            "example2_4.xml",
            "example2_4_c14nized.xml",
            exclusive(),
            Selection::Subtree("http://example.net".into(), "elem2".into()),
        ),
        (
            "plain-soap-1.1.xml",
            "plain-soap-c14nized.xml",
            exclusive(),
            Selection::Subtree(
                "http://schemas.xmlsoap.org/soap/envelope/".into(),
                "Body".into(),
            ),
        ),
    ] {
        out.push(Vector::subset(
            format!("santuario/org/apache/xml/security/c14n/inExcl/{output}"),
            excl.join(input),
            excl.join(output),
            options,
            selection,
        ));
    }
    // The Canonical XML 1.1 interop outputs: NAME[-IMPL].output is NAME.xpath applied to
    // PREFIX-input.xml, PREFIX being NAME without its trailing number.
    let c14n11 = dir.join("org/w3c/www/interop/c14n11");
    for path in sorted_entries(&c14n11) {
        let file = file_name(&path);
        let Some(stem) = file.strip_suffix(".output") else {
            continue;
        };
        let id = format!("santuario/org/w3c/www/interop/c14n11/{file}");
        let name = match stem.rsplit_once('-') {
            Some((n, imp)) if imp.chars().all(|c| c.is_ascii_uppercase()) => n,
            _ => stem,
        };
        let Some((prefix, _)) = name.rsplit_once('-') else {
            continue;
        };
        // The 103 outputs are of the third xml:base example.
        let (prefix, name) = match name {
            "xmlbase-c14n11spec-103" => ("xmlbase-c14n11spec3", "xmlbase-c14n11spec3-103"),
            _ => (prefix, name),
        };
        let input = c14n11.join(format!("{prefix}-input.xml"));
        let Ok(expr) = std::fs::read_to_string(c14n11.join(format!("{name}.xpath"))) else {
            out.push(Vector::skipped(
                id,
                input,
                "no XPath expression for this output in the corpus",
            ));
            continue;
        };
        out.push(Vector::subset(
            id,
            input,
            path,
            C14nOptions::new(Mode::Inclusive11, false),
            Selection::XPath {
                expr: strip_comments(&expr),
                namespaces: ietf(),
            },
        ));
    }
    let appendix = c14n11.join("appendixa");
    out.push(Vector::subset(
        "santuario/org/w3c/www/interop/c14n11/appendixa/outputs.txt".into(),
        appendix.join("inputs.txt"),
        appendix.join("outputs.txt"),
        C14nOptions::new(Mode::Inclusive11, false),
        Selection::DotSegments,
    ));
    // XML Signature intermediate outputs: c14n-N.txt is reference N of the signature, or its
    // SignedInfo after the last reference.
    for (folder, signature) in [
        (
            "ie/baltimore/merlin-examples/merlin-exc-c14n-one",
            "exc-signature.xml",
        ),
        ("interop/c14n/Y1", "exc-signature.xml"),
        ("interop/c14n/Y2", "signature-joseph-exc.xml"),
        ("interop/c14n/Y3", "signature.xml"),
        ("interop/c14n/Y4", "signature.xml"),
        ("interop/c14n/Y5", "signature.xml"),
    ] {
        for path in sorted_entries(&dir.join(folder)) {
            let name = file_name(&path);
            let Some(n) = name
                .strip_prefix("c14n-")
                .and_then(|n| n.strip_suffix(".txt"))
                .and_then(|n| n.parse().ok())
            else {
                continue;
            };
            out.push(Vector::subset(
                format!("santuario/{folder}/{name}"),
                dir.join(folder).join(signature),
                path,
                inc(false),
                Selection::Reference(n),
            ));
        }
    }
    out
}

/// An XPath file's text without XML comments (Santuario's start with one).
fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("-->").map_or("", |j| &rest[i + j + 3..]);
    }
    out.push_str(rest);
    out
}

fn utf16_with_bom(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = vec![0xFF, 0xFE];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

/// Runs one vector, reusing `c`'s buffers.
pub fn run_vector(v: &Vector, c: &mut Canonicalizer) -> Outcome {
    if let Some(why) = &v.skip {
        return Outcome::Skip(why.clone());
    }
    if !matches!(v.selection, Selection::Document) {
        return match (&v.expect, run_subset(v)) {
            (Expect::Output(path), Ok(out)) => compare(path, &out),
            (Expect::Output(_), Err(e)) => Outcome::Fail(e),
            (Expect::Error, Ok(_)) => {
                Outcome::Fail("canonicalized a document that must be rejected".into())
            }
            (Expect::Error, Err(_)) => Outcome::Pass,
        };
    }
    let bytes = match std::fs::read(&v.input) {
        Ok(b) if v.as_utf16 => utf16_with_bom(&b),
        Ok(b) => b,
        Err(e) => return Outcome::Fail(format!("cannot read {}: {e}", v.input.display())),
    };
    let mut config = Config::default();
    config.base_uri = Some(v.input.to_string_lossy().into_owned());
    let mut reader = Reader::with_config(&bytes, config);
    if let Some(folder) = v.input.parent() {
        reader.set_resolver(FsResolver::new(folder));
    }
    if c.options() != &v.options {
        *c = Canonicalizer::new(v.options.clone());
    }
    let mut out = Vec::new();
    let result = c.canonicalize(&mut reader, &mut out);
    match (&v.expect, result) {
        (Expect::Error, Err(_)) => Outcome::Pass,
        (Expect::Error, Ok(())) => {
            Outcome::Fail("canonicalized a document that must be rejected".into())
        }
        (Expect::Output(_), Err(e)) => Outcome::Fail(format!("rejected: {e}")),
        (Expect::Output(path), Ok(())) => compare(path, &out),
    }
}

fn compare(expected: &Path, out: &[u8]) -> Outcome {
    match std::fs::read(expected) {
        Ok(e) if e == out => Outcome::Pass,
        Ok(e) => Outcome::Fail(difference(&e, out)),
        Err(e) => Outcome::Fail(format!("cannot read {}: {e}", expected.display())),
    }
}

/// Canonicalizes the selected subset of a vector's input through the tree.
fn run_subset(v: &Vector) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let xpath = |expr: &str, namespaces: &[(String, String)]| {
        let mut ns = Namespaces::new();
        for (p, u) in namespaces {
            ns.insert(p.as_str(), u.as_str());
        }
        XPath::compile_with(expr, &ns).map_err(|e| format!("bad XPath: {e}"))
    };
    match &v.selection {
        Selection::Document => return Err("not a subset".into()),
        Selection::Reference(n) => return crate::dsig::reference_output(&v.input, *n),
        Selection::DotSegments => return dot_segments(&v.input),
        Selection::XPath { expr, namespaces } => {
            let doc = crate::dsig::parse(&v.input)?;
            let xp = xpath(expr, namespaces)?;
            c14n::canonicalize_xpath(&Ids(&doc), &xp, &v.options, &mut out)
        }
        Selection::XPathFile(file) => {
            let holder = crate::dsig::parse(file)?;
            let e = holder.root_element().ok_or("empty XPath file")?;
            let namespaces: Vec<(String, String)> = holder
                .namespace_declarations(e)
                .map(|(p, u)| (p.to_string(), u.to_string()))
                .collect();
            let xp = xpath(&holder.text_content(e), &namespaces)?;
            let doc = crate::dsig::parse(&v.input)?;
            c14n::canonicalize_xpath(&Ids(&doc), &xp, &v.options, &mut out)
        }
        Selection::Subtree(uri, local) => {
            let doc = crate::dsig::parse(&v.input)?;
            let e = doc
                .descendants(doc.root())
                .find(|&n| doc.local_name(n) == local && doc.namespace_uri(n) == uri)
                .ok_or_else(|| format!("no element {{{uri}}}{local}"))?;
            c14n::canonicalize_subtree(&doc, e.into(), &v.options, &mut out)
        }
    }
    .map_err(|e| format!("rejected: {e}"))?;
    Ok(out)
}

/// Canonical XML 1.1 Appendix A, through the public API: each input line is the `xml:base`
/// of an element `b` whose omitted parent has `xml:base="x"`, so that C14N 1.1 joins them
/// (RFC 3986 merge, then the Appendix's dot-segment removal); the value `b` gets must be the
/// expected line (no attribute for an empty one).
fn dot_segments(inputs: &Path) -> Result<Vec<u8>, String> {
    let text = std::fs::read_to_string(inputs).map_err(|e| e.to_string())?;
    let options = C14nOptions::new(Mode::Inclusive11, false);
    let mut out = String::new();
    for line in text.lines() {
        // A path, not a URI reference: `//x` must not read as an authority, and `/.//x` is
        // the same path to dot-segment removal.
        let path = match line.strip_prefix("//") {
            Some(rest) => format!("/.//{rest}"),
            None => line.to_string(),
        };
        let escaped = path
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('\'', "&apos;");
        let xml = format!("<a xml:base='x'><b xml:base='{escaped}'/></a>");
        let doc = xwire::tree::Document::parse(xml.as_bytes()).map_err(|e| e.to_string())?;
        let b = Ids(&doc);
        let keep = |h: xwire::tree::Handle| doc.local_name(h.node()) == "b";
        let mut c = Vec::new();
        c14n::canonicalize_subset(&b, &keep, &options, &mut c).map_err(|e| e.to_string())?;
        let c = String::from_utf8_lossy(&c);
        let value = c
            .strip_prefix("<b xml:base=\"")
            .and_then(|v| v.strip_suffix("\"></b>"))
            .unwrap_or("");
        out.push_str(value);
        out.push('\n');
    }
    Ok(out.into_bytes())
}

/// Where two outputs part, with some context.
fn difference(expected: &[u8], got: &[u8]) -> String {
    let at = expected.iter().zip(got).take_while(|(a, b)| a == b).count();
    let from = at.saturating_sub(40);
    let show = |b: &[u8]| {
        String::from_utf8_lossy(&b[from.min(b.len())..(at + 60).min(b.len())]).into_owned()
    };
    format!(
        "output differs at byte {at}: expected …{:?}, got …{:?}",
        show(expected),
        show(got)
    )
}

/// Runs every vector found below `dir` (the `c14n` corpus folder).
pub fn run(dir: &Path) -> Result<Report, String> {
    let mut vectors = Vec::new();
    let libxml2 = dir.join("libxml2");
    if libxml2.is_dir() {
        vectors.extend(libxml2_vectors(&libxml2));
    }
    let santuario = dir.join("santuario");
    if santuario.is_dir() {
        vectors.extend(santuario_vectors(&santuario));
    }
    if vectors.is_empty() {
        return Err(format!(
            "{}: no libxml2/ or santuario/ vectors",
            dir.display()
        ));
    }
    let mut c = Canonicalizer::new(C14nOptions::default());
    let results = vectors
        .iter()
        .map(|v| {
            // A panic is a bug; report it as a failure of that vector rather than losing the run.
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_vector(v, &mut c)))
                    .unwrap_or_else(|_| Outcome::Fail("PANIC".into()));
            TestResult {
                id: v.id.clone(),
                outcome,
            }
        })
        .collect();
    Ok(Report {
        suite: "c14n".into(),
        results,
    })
}
