//! Canonical XML test vectors (`c14n/` in the corpora): whole-document input/output pairs from
//! libxml2's test suite and from Apache Santuario's, run through [`xwire::c14n`].
//!
//! What runs:
//! - `libxml2/test/c14n/<mode>/NAME.xml` against `libxml2/result/c14n/<mode>/NAME`, for the
//!   modes `without-comments`, `with-comments`, `1-1-without-comments` (Canonical XML 1.1) and
//!   `exc-without-comments`; `NAME.ns` holds the inclusive prefixes of exclusive mode. Vectors
//!   with a `NAME.xpath` select a document subset and are skipped.
//! - `santuario/org/apache/xml/security/c14n/in`: the examples of Canonical XML 1.0 section 3
//!   (`3N_input.xml` against `3N_c14n.xml`, and `31_c14n-comments.xml` with comments), the
//!   validating-parser variant of 3.4, `relative-ns-behaviour.xml` (must be rejected: relative
//!   namespace URI), and `testTranslationFromUTF16toUTF8.xml` (the file re-encoded as UTF-16
//!   must canonicalize to itself in UTF-8).
//!
//! What is skipped, and why: every other expected output in the Santuario tree is the
//! canonical form of a document subset, not of a whole document: spec examples 3.7 and 3.8
//! (XPath subset), `default_ns_redefinition` and the `inExcl` examples (element subtrees), the
//! `interop/c14n/Y1`..`Y5` and `merlin-exc-c14n-one` intermediate outputs (references selected
//! by XPath or `xpointer(id(...))` inside signatures), the `c14n11` outputs (each with an XPath)
//! and `c14n11/appendixa` (xml:base path joining, used only by subset fix-ups).
//!
//! Each vector's external DTD and entities are read through an [`FsResolver`] confined to the
//! vector's folder, so attribute defaults and external entities apply as the examples expect.

use std::path::{Path, PathBuf};

/// Picks the files of a folder that are expected outputs.
type FileFilter = fn(&str) -> bool;

use xwire::c14n::{C14nOptions, Canonicalizer, Mode};
use xwire::{Config, FsResolver, Reader};

use crate::{Outcome, Report, TestResult};

/// What a vector expects.
#[derive(Debug, Clone)]
pub enum Expect {
    /// This canonical form, byte for byte.
    Output(PathBuf),
    /// An error (the document cannot be canonicalized).
    Error,
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
            skip: None,
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
            if tests.join(format!("{name}.xpath")).exists() {
                out.push(Vector::skipped(
                    id,
                    input,
                    "document subset (XPath node set): only whole documents are canonicalized",
                ));
                continue;
            }
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
            out.push(Vector::new(id, input, Expect::Output(expected), options));
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
    let subset = "document subset: element subtree or XPath node set, not a whole document";
    for (id, file) in [
        ("37", "37_input.xml"),
        ("38", "38_input.xml"),
        (
            "default_ns_redefinition",
            "default_ns_redefinition_input.xml",
        ),
    ] {
        out.push(Vector::skipped(
            format!("santuario/c14n/in/{id}"),
            c14n_in.join(file),
            subset,
        ));
    }
    // Expected outputs of subsets: every remaining output file in the tree.
    let subset_outputs: [(&str, FileFilter); 4] = [
        ("org/apache/xml/security/c14n/inExcl", |n| {
            n.contains("_c14nized")
        }),
        ("org/w3c/www/interop/c14n11", |n| n.ends_with(".output")),
        ("org/w3c/www/interop/c14n11/appendixa", |n| {
            n == "outputs.txt"
        }),
        ("ie/baltimore/merlin-examples/merlin-exc-c14n-one", |n| {
            n.starts_with("c14n-") && n.ends_with(".txt")
        }),
    ];
    let interop = (1..=5).map(|y| format!("interop/c14n/Y{y}"));
    let folders = subset_outputs
        .iter()
        .map(|&(d, f)| (d.to_string(), f))
        .chain(interop.map(|d| {
            (
                d,
                (|n: &str| n.starts_with("c14n-") && n.ends_with(".txt")) as fn(&str) -> bool,
            )
        }));
    for (folder, is_output) in folders {
        for path in sorted_entries(&dir.join(&folder)) {
            let name = file_name(&path);
            if is_output(&name) {
                out.push(Vector::skipped(
                    format!("santuario/{folder}/{name}"),
                    path,
                    subset,
                ));
            }
        }
    }
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
        (Expect::Output(path), Ok(())) => match std::fs::read(path) {
            Ok(expected) if expected == out => Outcome::Pass,
            Ok(expected) => Outcome::Fail(difference(&expected, &out)),
            Err(e) => Outcome::Fail(format!("cannot read {}: {e}", path.display())),
        },
    }
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
