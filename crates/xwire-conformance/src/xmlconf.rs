//! The W3C XML Conformance Test Suite (xmlts20130923 layout): XML 1.0 Fifth Edition and
//! Namespaces in XML 1.0 tests.
//!
//! The master catalog `xmlconf.xml` includes each contributor's catalog as an external entity;
//! xwire reads it with its own reader and a resolver confined to the suite's folder. Each test:
//! not-wf documents must be rejected; valid and invalid ones accepted (a non-validating
//! processor does not check validity); where an OUTPUT file is given, the canonical form must
//! match it byte for byte. Tests of optional behaviour (`TYPE="error"`), of XML 1.1, of
//! Namespaces 1.1, or of editions other than the fifth are skipped.

use std::path::{Path, PathBuf};

use xwire::{Config, Event, FsResolver, Reader};

use crate::{Outcome, Report, TestResult};

/// One test from the catalogs.
#[derive(Debug, Clone, Default)]
pub struct Test {
    /// Test id.
    pub id: String,
    /// `valid`, `invalid`, `not-wf` or `error`.
    pub kind: String,
    /// Path of the test document.
    pub uri: PathBuf,
    /// Path of the expected canonical output, if any.
    pub output: Option<PathBuf>,
    /// `NAMESPACE="no"`: the test is for processors without namespaces.
    pub namespace: bool,
    /// Why the test does not apply, if it does not.
    pub skip: Option<String>,
}

fn resolve(base: &Path, rel: &str) -> PathBuf {
    base.join(rel)
}

/// Reads the catalogs below `dir` (the suite's folder, holding `xmlconf.xml`).
pub fn load_catalog(dir: &Path) -> Result<Vec<Test>, String> {
    let master = dir.join("xmlconf.xml");
    let bytes = std::fs::read(&master).map_err(|e| format!("{}: {e}", master.display()))?;
    let mut config = Config::default();
    config.base_uri = Some(master.to_string_lossy().into_owned());
    let mut r = Reader::with_config(&bytes, config);
    r.set_resolver(FsResolver::new(dir));
    let mut bases: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut tests = Vec::new();
    loop {
        let ev = r.next().map_err(|e| format!("{}: {e}", master.display()))?;
        match ev {
            Event::Start(t) => {
                let parent = bases.last().cloned().unwrap_or_default();
                let base = match t.attribute_ns(xwire::XML_NS, "base") {
                    Some(b) => resolve(&parent, b),
                    None => parent,
                };
                bases.push(base.clone());
                if t.name() == "TEST" {
                    let get = |n: &str| t.attribute(n).map(str::to_string);
                    let mut test = Test {
                        id: get("ID").unwrap_or_default(),
                        kind: get("TYPE").unwrap_or_default(),
                        uri: resolve(&base, &get("URI").unwrap_or_default()),
                        output: get("OUTPUT").map(|o| resolve(&base, &o)),
                        namespace: get("NAMESPACE").as_deref() != Some("no"),
                        skip: None,
                    };
                    let version = get("VERSION").unwrap_or_default();
                    let rec = get("RECOMMENDATION").unwrap_or_default();
                    let edition = get("EDITION");
                    test.skip = if version.split_whitespace().any(|v| v == "1.1")
                        && !version.split_whitespace().any(|v| v == "1.0")
                    {
                        Some("XML 1.1 test".into())
                    } else if matches!(rec.as_str(), "XML1.1" | "NS1.1") {
                        Some(format!("{rec} test"))
                    } else if edition
                        .as_deref()
                        .is_some_and(|e| !e.split_whitespace().any(|x| x == "5"))
                    {
                        Some(format!(
                            "applies to editions {} only",
                            edition.unwrap_or_default()
                        ))
                    } else if test.kind == "error" {
                        Some("optional error (TYPE=\"error\")".into())
                    } else {
                        None
                    };
                    tests.push(test);
                }
            }
            Event::End(_) => {
                bases.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(tests)
}

/// Runs one test.
pub fn run_test(test: &Test, root: &Path) -> Outcome {
    if let Some(why) = &test.skip {
        return Outcome::Skip(why.clone());
    }
    let bytes = match std::fs::read(&test.uri) {
        Ok(b) => b,
        Err(e) => return Outcome::Fail(format!("cannot read {}: {e}", test.uri.display())),
    };
    let mut config = Config::default();
    config.namespaces = test.namespace;
    config.base_uri = Some(test.uri.to_string_lossy().into_owned());
    let mut r = Reader::with_config(&bytes, config);
    r.set_resolver(FsResolver::new(root));
    let result = crate::canonical::canonical(&mut r);
    match (test.kind.as_str(), result) {
        ("not-wf", Ok(_)) => Outcome::Fail("accepted a document that is not well-formed".into()),
        ("not-wf", Err(_)) => Outcome::Pass,
        (_, Err(e)) => Outcome::Fail(format!("rejected: {e}")),
        (_, Ok(out)) => match &test.output {
            None => Outcome::Pass,
            Some(path) => match std::fs::read(path) {
                Ok(expected) if expected == out.as_bytes() => Outcome::Pass,
                Ok(expected) => Outcome::Fail(format!(
                    "canonical output differs: expected {:?}, got {:?}",
                    String::from_utf8_lossy(&expected)
                        .chars()
                        .take(300)
                        .collect::<String>(),
                    out.chars().take(300).collect::<String>()
                )),
                Err(e) => Outcome::Fail(format!("cannot read {}: {e}", path.display())),
            },
        },
    }
}

/// Runs the whole suite found in `dir`.
pub fn run(dir: &Path) -> Result<Report, String> {
    let tests = load_catalog(dir)?;
    let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let results = tests
        .iter()
        .map(|t| {
            // A panic is a bug; report it as a failure of that test rather than losing the run.
            let outcome = std::panic::catch_unwind(|| run_test(t, &root))
                .unwrap_or_else(|_| Outcome::Fail("PANIC".into()));
            TestResult {
                id: t.id.clone(),
                outcome,
            }
        })
        .collect();
    Ok(Report {
        suite: "xmlconf".into(),
        results,
    })
}
