//! # xwire-conformance
//!
//! The runners of the external conformance suites that xwire is held to: each suite is data
//! in the corpora (`../shared/corpora`, or `$XWIRE_CORPORA`), read by one runner that reports
//! pass, fail or skip, with a reason, per test. `xwire conformance SUITE` prints their reports
//! and the tests in `tests/` run them under `cargo test --workspace`; the benchmark finds its
//! corpus workloads with [`corpora_dir`].
//!
//! | module | suite |
//! |---|---|
//! | [`xmlconf`] | the W3C XML Conformance Test Suite (XML 1.0 Fifth Edition, Namespaces 1.0) |
//! | [`c14n`] | Canonical XML and Exclusive C14N vectors of libxml2 and Apache Santuario, with the XML Signature references of [`dsig`] |
//! | [`xpath`] | the XPath 1.0 suites of jaxen and libxml2, over any [`xpath::Model`] |
//! | [`xsd`] | the W3C XML Schema Test Suite, XSD 1.0 tests, against any [`xsd::XsdProcessor`] (xwire's or xmllint) |
//! | [`canonical`] | James Clark's canonical form, in which the XML suite's expected outputs are written |
//!
//! Every runner returns a [`Report`] of [`TestResult`]s, each an [`Outcome`]. Known failures
//! live in `known-failures/<suite>.txt`, one `ID reason` per line ([`known_failures`]); the
//! tests fail when a test fails that is not listed, and when a listed test passes (so the list
//! only shrinks). [`corpus`] finds a suite's folder, and under `CI=true` fails instead of
//! skipping when it is missing.
//!
//! ```no_run
//! use xwire_conformance::{corpus, xmlconf};
//!
//! if let Some(dir) = corpus("xmlconf") {
//!     let report = xmlconf::run(&dir)?;
//!     println!("{}", report.summary()); // xmlconf: 1975 passed, 0 failed, 611 skipped
//! }
//! # Ok::<(), String>(())
//! ```
//!
//! Where next: `docs/testing.md` has the current figures, what each suite covers and skips,
//! and how fuzzing and CI fit in; each module's page says exactly what its runner checks.

#![forbid(unsafe_code)]

pub mod c14n;
pub mod canonical;
pub mod dsig;
pub mod xmlconf;
pub mod xpath;
pub mod xsd;

use std::path::{Path, PathBuf};

/// Where the corpora are: `$XWIRE_CORPORA`, else `../shared/corpora` from the workspace root
/// or from the current directory or one of its parents.
pub fn corpora_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("XWIRE_CORPORA") {
        return Some(PathBuf::from(d));
    }
    let mut starts = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")];
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    for s in starts {
        let mut d: Option<&Path> = Some(&s);
        while let Some(dir) = d {
            let c = dir.join("../shared/corpora");
            if c.is_dir() {
                return c.canonicalize().ok();
            }
            d = dir.parent();
        }
    }
    None
}

/// The corpus folder `name` under [`corpora_dir`] (`"."`: the corpora folder itself), for
/// tests: `None` with a loud skip message when it is missing, and a panic instead under
/// `CI=true` (CI must not pass by skipping).
pub fn corpus(name: &str) -> Option<PathBuf> {
    let dir = corpora_dir().map(|d| d.join(name)).filter(|d| d.is_dir());
    if dir.is_none() {
        let what = if name == "." {
            "the corpora folder".to_string()
        } else {
            format!("corpus '{name}'")
        };
        let msg = format!("{what} not found (set XWIRE_CORPORA or check out ../shared/corpora)");
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
    }
    dir
}

/// The outcome of one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Behaved as the suite expects.
    Pass,
    /// Did not; the string says how.
    Fail(String),
    /// Not applicable to this processor; the string says why.
    Skip(String),
}

/// One test's result.
#[derive(Debug, Clone)]
pub struct TestResult {
    /// The suite's id of the test.
    pub id: String,
    /// What happened.
    pub outcome: Outcome,
}

/// Results of a whole suite.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Suite name, printed in the closing line.
    pub suite: String,
    /// Every test's result, in catalog order.
    pub results: Vec<TestResult>,
}

impl Report {
    /// (passed, failed, skipped)
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for r in &self.results {
            match r.outcome {
                Outcome::Pass => c.0 += 1,
                Outcome::Fail(_) => c.1 += 1,
                Outcome::Skip(_) => c.2 += 1,
            }
        }
        c
    }

    /// The closing line: `SUITE: N passed, M failed, K skipped`.
    pub fn summary(&self) -> String {
        let (p, f, s) = self.counts();
        format!("{}: {p} passed, {f} failed, {s} skipped", self.suite)
    }

    /// The report as JSON (no dependency: the format is small and fixed).
    pub fn to_json(&self) -> String {
        let (p, f, s) = self.counts();
        let mut out = format!(
            "{{\"suite\":{},\"passed\":{p},\"failed\":{f},\"skipped\":{s},\"results\":[",
            json_str(&self.suite)
        );
        for (i, r) in self.results.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let (o, why) = match &r.outcome {
                Outcome::Pass => ("pass", ""),
                Outcome::Fail(w) => ("fail", w.as_str()),
                Outcome::Skip(w) => ("skip", w.as_str()),
            };
            out.push_str(&format!(
                "{{\"id\":{},\"outcome\":\"{o}\",\"detail\":{}}}",
                json_str(&r.id),
                json_str(why)
            ));
        }
        out.push_str("]}");
        out
    }
}

pub(crate) fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Known failures of a suite: test id → reason.
pub fn known_failures(suite: &str) -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("known-failures")
        .join(format!("{suite}.txt"));
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((id, why)) => (id.to_string(), why.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}
