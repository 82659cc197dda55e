//! The W3C XML Schema Test Suite (XSTS, `xsdtests/`), XSD 1.0 tests only, run against any
//! schema processor through [`XsdProcessor`].
//!
//! - [`catalog`] reads `suite.xml` and the test sets and decides which tests apply to an XSD
//!   1.0 processor (the rules are in its documentation).
//! - [`run`] loads each group's schema once, runs its schema test (accepted or rejected as
//!   expected) and its instance tests (valid or invalid as expected), catching panics, timing
//!   every call and filtering by set, group or contributor.
//! - [`XsdReport`] counts by contributor and closes with
//!   `xsd schema tests: N passed, M failed, K skipped` and
//!   `xsd instance tests: N passed, M failed, K skipped`. Known failures are in
//!   `known-failures/xsd.txt`, keyed by `SET/GROUP/TEST`.
//! - [`xmllint::XmllintProcessor`] is a reference processor (libxml2's `xmllint` as a
//!   subprocess) that proves the harness and gives a peer comparison.

pub mod catalog;
pub mod xmllint;
pub mod xwire;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{json_str, Outcome, Report, TestResult};
use catalog::{Kind, Planned, Suite, Verdict};

/// The known-failures list of this suite: `known-failures/xsd.txt`.
pub const KNOWN_FAILURES: &str = "xsd";

/// Closing-line name of the schema tests.
pub const SCHEMA_SUITE: &str = "xsd schema tests";
/// Closing-line name of the instance tests.
pub const INSTANCE_SUITE: &str = "xsd instance tests";

/// Calls slower than this are listed in the report.
pub const SLOW: Duration = Duration::from_secs(5);

/// An XML Schema 1.0 processor under test.
pub trait XsdProcessor {
    /// A loaded schema, reused for every instance test of a group.
    type Schema;

    /// A short name for reports (`xmllint`, `xwire`).
    fn name(&self) -> String;

    /// XSTS `version` tokens other than `1.0` that this processor supports; they choose
    /// among expected results that differ by feature. The suite uses `Unicode_4.0.0` /
    /// `Unicode_6.0.0` (character properties in regular expressions) and the XSD 1.1 tokens
    /// `full-xpath-in-CTA` / `restricted-xpath-in-CTA`. Default: Unicode 6.0.0 (and later
    /// versions, which agree with it on the tests concerned).
    fn features(&self) -> Vec<String> {
        vec!["Unicode_6.0.0".to_string()]
    }

    /// Builds a schema from these documents, loaded one by one in this order (an empty list:
    /// the built-in components only). `Err` with a message when the schema is not a
    /// conforming schema.
    fn load(&self, docs: &[PathBuf]) -> Result<Self::Schema, String>;

    /// Validates the document at `instance` (its outermost element is the validation root,
    /// with no stipulated declaration). `Err` with a message when it is not valid.
    fn validate(&self, schema: &Self::Schema, instance: &Path) -> Result<(), String>;
}

/// One test's result, with what the processor said.
#[derive(Debug, Clone)]
pub struct XsdTestResult {
    /// `SET/GROUP/TEST`.
    pub id: String,
    /// Schema or instance test.
    pub kind: Kind,
    /// Contributor key of the set (`ms`, `sun`, ...).
    pub contributor: String,
    /// The expected result, when the test was run: `valid` or `invalid`.
    pub expected: Option<&'static str>,
    /// What the processor answered: `valid`, `invalid`, `panic` or `schema error`.
    pub got: Option<&'static str>,
    /// The processor's message (or the panic's).
    pub message: String,
    /// Pass, fail, or skip with a reason.
    pub outcome: Outcome,
    /// Time taken by the processor for this test (schema loading counts for the test that
    /// triggered it).
    pub elapsed: Duration,
}

/// Results of a run.
#[derive(Debug, Clone, Default)]
pub struct XsdReport {
    /// The processor's name.
    pub processor: String,
    /// Every XSD 1.0 test in suite order (XSD 1.1-only tests are not included).
    pub results: Vec<XsdTestResult>,
    /// Schema and instance tests left out as XSD 1.1-only.
    pub excluded: (usize, usize),
    /// Test sets referenced by the suite but missing from the corpus.
    pub missing_sets: Vec<String>,
    /// Calls slower than [`SLOW`]: test id and time.
    pub slow: Vec<(String, Duration)>,
}

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// When not empty, only sets or groups matching one of these: a set name (`Regex`), a
    /// contributor (`ms`), a set href (`msMeta/Regex_w3c.xml`) or `SET/GROUP`.
    pub filter: Vec<String>,
}

impl RunOptions {
    fn wants(&self, set: &catalog::TestSet, group: &str) -> bool {
        self.filter.is_empty()
            || self.filter.iter().any(|f| {
                f == &set.name
                    || f == &set.contributor
                    || f == &set.href
                    || *f == format!("{}/{}", set.name, group)
            })
    }
}

/// `panic!` payload as text.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".into()
    }
}

/// (set, group) indices.
type GroupKey = (usize, usize);
/// A group's schema, or why it could not be had.
type Loaded<S> = Result<S, Refusal>;

/// Why a call did not succeed: the processor said no, or it panicked.
enum Refusal {
    Invalid(String),
    Panic(String),
}

fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> (Result<T, Refusal>, Duration) {
    let start = Instant::now();
    let r = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(m)) => Err(Refusal::Invalid(m)),
        Err(p) => Err(Refusal::Panic(panic_message(p))),
    };
    (r, start.elapsed())
}

/// Reads the suite in `dir` (the `xsdtests` folder) and runs it against `processor`.
pub fn run<P: XsdProcessor>(
    dir: &Path,
    processor: &P,
    options: &RunOptions,
) -> Result<XsdReport, String> {
    let suite = catalog::load_suite(dir, "suite.xml")?;
    Ok(run_suite(&suite, processor, options))
}

/// Runs an already read suite against `processor`.
pub fn run_suite<P: XsdProcessor>(suite: &Suite, processor: &P, options: &RunOptions) -> XsdReport {
    let config = catalog::configuration(&processor.features());
    let planned = catalog::plan(suite, &config);
    let mut report = XsdReport {
        processor: processor.name(),
        missing_sets: suite.missing.clone(),
        ..XsdReport::default()
    };
    // The schema of the group being run: (set, group) and the load result (a panic counts as a
    // failure to load).
    let mut cache: Option<(GroupKey, Loaded<P::Schema>)> = None;
    for p in planned {
        let set = &suite.sets[p.set];
        let group = &set.groups[p.group];
        if !options.wants(set, &group.name) {
            continue;
        }
        let key = (p.set, p.group);
        let Planned {
            id,
            kind,
            verdict,
            documents,
            ..
        } = p;
        let mut r = XsdTestResult {
            id,
            kind,
            contributor: set.contributor.clone(),
            expected: None,
            got: None,
            message: String::new(),
            outcome: Outcome::Pass,
            elapsed: Duration::ZERO,
        };
        let expect_valid = match verdict {
            Verdict::Excluded => {
                match kind {
                    Kind::Schema => report.excluded.0 += 1,
                    Kind::Instance => report.excluded.1 += 1,
                }
                continue;
            }
            Verdict::Skip(why) => {
                r.outcome = Outcome::Skip(why);
                report.results.push(r);
                continue;
            }
            Verdict::Run(v) => v,
        };
        r.expected = Some(if expect_valid { "valid" } else { "invalid" });
        let mut elapsed = Duration::ZERO;
        if cache.as_ref().map(|c| c.0) != Some(key) {
            let docs: Vec<PathBuf> = group
                .schema
                .as_ref()
                .map(|s| s.documents.clone())
                .unwrap_or_default();
            let (loaded, t) = guarded(|| processor.load(&docs));
            elapsed += t;
            cache = Some((key, loaded));
        }
        let loaded = &cache.as_ref().expect("cached above").1;
        let validated: Result<(), Refusal>;
        let answer: Result<(), &Refusal> = match (kind, loaded) {
            (Kind::Schema, Ok(_)) => Ok(()),
            (Kind::Schema, Err(e)) => Err(e),
            (Kind::Instance, Err(Refusal::Invalid(m)))
            | (Kind::Instance, Err(Refusal::Panic(m))) => {
                r.got = Some("schema error");
                r.message = m.clone();
                r.outcome = Outcome::Fail(format!(
                    "expected {}, got schema error: the group's schema failed to load: {}",
                    r.expected.unwrap_or_default(),
                    first_line(m)
                ));
                r.elapsed = elapsed;
                report.results.push(r);
                continue;
            }
            (Kind::Instance, Ok(schema)) => {
                let doc = documents.first().cloned().unwrap_or_default();
                let (v, t) = guarded(|| processor.validate(schema, &doc));
                elapsed += t;
                validated = v;
                validated.as_ref().map(|_| ())
            }
        };
        r.elapsed = elapsed;
        if elapsed > SLOW {
            report.slow.push((r.id.clone(), elapsed));
        }
        let (got, message) = match answer {
            Ok(()) => ("valid", String::new()),
            Err(Refusal::Invalid(m)) => ("invalid", m.clone()),
            Err(Refusal::Panic(m)) => ("panic", m.clone()),
        };
        r.got = Some(got);
        r.message = message;
        r.outcome = if (got == "valid") == expect_valid && got != "panic" {
            Outcome::Pass
        } else {
            let mut why = format!("expected {}, got {got}", r.expected.unwrap_or_default());
            if !r.message.is_empty() {
                why.push_str(": ");
                why.push_str(first_line(&r.message));
            }
            Outcome::Fail(why)
        };
        report.results.push(r);
    }
    report
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// Passed, failed and skipped counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Behaved as expected.
    pub passed: usize,
    /// Did not.
    pub failed: usize,
    /// Not run, with a reason.
    pub skipped: usize,
}

impl Counts {
    fn add(&mut self, o: &Outcome) {
        match o {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail(_) => self.failed += 1,
            Outcome::Skip(_) => self.skipped += 1,
        }
    }

    /// All three added.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped
    }
}

impl XsdReport {
    /// The results of one kind as a generic [`Report`] (named [`SCHEMA_SUITE`] or
    /// [`INSTANCE_SUITE`], so its `summary()` is the closing line).
    pub fn report(&self, kind: Kind) -> Report {
        Report {
            suite: match kind {
                Kind::Schema => SCHEMA_SUITE,
                Kind::Instance => INSTANCE_SUITE,
            }
            .to_string(),
            results: self
                .results
                .iter()
                .filter(|r| r.kind == kind)
                .map(|r| TestResult {
                    id: r.id.clone(),
                    outcome: r.outcome.clone(),
                })
                .collect(),
        }
    }

    /// Counts of one kind.
    pub fn counts(&self, kind: Kind) -> Counts {
        let mut c = Counts::default();
        for r in self.results.iter().filter(|r| r.kind == kind) {
            c.add(&r.outcome);
        }
        c
    }

    /// Counts by contributor: contributor → (schema, instance).
    pub fn by_contributor(&self) -> BTreeMap<String, (Counts, Counts)> {
        let mut m: BTreeMap<String, (Counts, Counts)> = BTreeMap::new();
        for r in &self.results {
            let e = m.entry(r.contributor.clone()).or_default();
            match r.kind {
                Kind::Schema => e.0.add(&r.outcome),
                Kind::Instance => e.1.add(&r.outcome),
            }
        }
        m
    }

    /// Skipped tests of one kind by reason.
    pub fn skip_reasons(&self, kind: Kind) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for r in self.results.iter().filter(|r| r.kind == kind) {
            if let Outcome::Skip(why) = &r.outcome {
                *m.entry(why.clone()).or_insert(0) += 1;
            }
        }
        m
    }

    /// Failures not in `known` (regressions), and failures in it.
    pub fn failures<'a>(
        &'a self,
        known: &[(String, String)],
    ) -> (Vec<&'a XsdTestResult>, Vec<&'a XsdTestResult>) {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
            .partition(|r| !known.iter().any(|(id, _)| id == &r.id))
    }

    /// Listed failures that did not fail (fixed: remove them from the list), among the tests
    /// that were run.
    pub fn fixed<'a>(&self, known: &'a [(String, String)]) -> Vec<&'a str> {
        known
            .iter()
            .filter(|(id, _)| {
                self.results
                    .iter()
                    .any(|r| &r.id == id && !matches!(r.outcome, Outcome::Fail(_)))
            })
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// The text report: counts by contributor, skip reasons, slow tests, failures that are not
    /// known (all failures with `verbose`, each with expected, got and the processor's
    /// message), and the two closing lines.
    pub fn render(&self, known: &[(String, String)], verbose: bool) -> String {
        let mut o = String::new();
        o.push_str(&format!(
            "W3C XML Schema Test Suite, XSD 1.0 tests, processor {}\n",
            self.processor
        ));
        for m in &self.missing_sets {
            o.push_str(&format!("missing test set (not in the corpus): {m}\n"));
        }
        o.push_str(&format!(
            "left out as XSD 1.1-only: {} schema tests, {} instance tests\n",
            self.excluded.0, self.excluded.1
        ));
        o.push_str(&format!(
            "{:<10} {:>24} {:>24}\n",
            "contrib", "schema pass/fail/skip", "instance pass/fail/skip"
        ));
        for (c, (s, i)) in self.by_contributor() {
            o.push_str(&format!(
                "{c:<10} {:>24} {:>24}\n",
                format!("{}/{}/{}", s.passed, s.failed, s.skipped),
                format!("{}/{}/{}", i.passed, i.failed, i.skipped)
            ));
        }
        for kind in [Kind::Schema, Kind::Instance] {
            let reasons = self.skip_reasons(kind);
            if !reasons.is_empty() {
                o.push_str(&format!(
                    "skipped {} tests by reason:\n",
                    if kind == Kind::Schema {
                        "schema"
                    } else {
                        "instance"
                    }
                ));
                for (why, n) in reasons {
                    o.push_str(&format!("  {n:>6}  {why}\n"));
                }
            }
        }
        for (id, t) in &self.slow {
            o.push_str(&format!("SLOW {id}: {:.1} s\n", t.as_secs_f64()));
        }
        let (new, old) = self.failures(known);
        let show = |o: &mut String, r: &XsdTestResult, tag: &str| {
            o.push_str(&format!(
                "FAIL{tag} {}: expected {}, got {}\n",
                r.id,
                r.expected.unwrap_or("?"),
                r.got.unwrap_or("?")
            ));
            if verbose {
                for l in r.message.lines().filter(|l| !l.trim().is_empty()).take(8) {
                    o.push_str(&format!("    {}\n", l.trim_end()));
                }
            }
        };
        for r in &new {
            show(&mut o, r, "");
        }
        if verbose {
            for r in &old {
                show(&mut o, r, " (known)");
            }
        }
        for id in self.fixed(known) {
            o.push_str(&format!(
                "FIXED {id}: listed in known-failures/xsd.txt but did not fail (remove it)\n"
            ));
        }
        o.push_str(&format!(
            "failures: {} not in known-failures/xsd.txt, {} known\n",
            new.len(),
            old.len()
        ));
        for kind in [Kind::Schema, Kind::Instance] {
            o.push_str(&self.report(kind).summary());
            o.push('\n');
        }
        o
    }

    /// The report as JSON: processor, counts per kind and contributor, and every test.
    pub fn to_json(&self) -> String {
        let counts = |c: Counts| {
            format!(
                "{{\"passed\":{},\"failed\":{},\"skipped\":{}}}",
                c.passed, c.failed, c.skipped
            )
        };
        let mut o = format!(
            "{{\"suite\":\"xsd\",\"processor\":{},\"schema\":{},\"instance\":{},\"excluded_xsd11\":{{\"schema\":{},\"instance\":{}}},\"contributors\":{{",
            json_str(&self.processor),
            counts(self.counts(Kind::Schema)),
            counts(self.counts(Kind::Instance)),
            self.excluded.0,
            self.excluded.1
        );
        for (i, (c, (s, n))) in self.by_contributor().into_iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str(&format!(
                "{}:{{\"schema\":{},\"instance\":{}}}",
                json_str(&c),
                counts(s),
                counts(n)
            ));
        }
        o.push_str("},\"results\":[");
        for (i, r) in self.results.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            let (outcome, detail) = match &r.outcome {
                Outcome::Pass => ("pass", ""),
                Outcome::Fail(w) => ("fail", w.as_str()),
                Outcome::Skip(w) => ("skip", w.as_str()),
            };
            o.push_str(&format!(
                "{{\"id\":{},\"kind\":\"{}\",\"outcome\":\"{outcome}\",\"expected\":{},\"got\":{},\"detail\":{},\"ms\":{}}}",
                json_str(&r.id),
                if r.kind == Kind::Schema { "schema" } else { "instance" },
                r.expected.map(json_str).unwrap_or_else(|| "null".into()),
                r.got.map(json_str).unwrap_or_else(|| "null".into()),
                json_str(detail),
                r.elapsed.as_millis()
            ));
        }
        o.push_str("]}");
        o
    }
}

#[cfg(test)]
mod tests {
    use super::catalog::{Expected, Group, Test, TestSet};
    use super::*;
    use std::cell::RefCell;

    /// A processor that answers from the file names: a schema document whose name contains
    /// `bad` is rejected, one containing `boom` panics; an instance whose name contains `bad`
    /// is invalid, `boom` panics.
    #[derive(Default)]
    struct Fake {
        loads: RefCell<Vec<Vec<PathBuf>>>,
    }

    impl XsdProcessor for Fake {
        type Schema = usize;
        fn name(&self) -> String {
            "fake".into()
        }
        fn load(&self, docs: &[PathBuf]) -> Result<usize, String> {
            self.loads.borrow_mut().push(docs.to_vec());
            let names: String = docs.iter().map(|d| d.to_string_lossy()).collect();
            if names.contains("boom") {
                panic!("schema boom");
            }
            if names.contains("bad") {
                return Err("bad schema\nsecond line".into());
            }
            Ok(docs.len())
        }
        fn validate(&self, _: &usize, instance: &Path) -> Result<(), String> {
            let n = instance.to_string_lossy();
            if n.contains("boom") {
                panic!("instance boom {n}");
            }
            if n.contains("bad") {
                return Err("not valid".into());
            }
            Ok(())
        }
    }

    fn test(name: &str, doc: &str, validity: &str) -> Test {
        Test {
            name: name.into(),
            documents: vec![PathBuf::from(doc)],
            expected: vec![Expected {
                validity: validity.into(),
                version: vec![],
            }],
            status: Some("accepted".into()),
            version: None,
        }
    }

    fn suite() -> Suite {
        let group = |name: &str, schema: Option<Test>, instances: Vec<Test>| Group {
            name: name.into(),
            version: None,
            schema,
            instances,
        };
        Suite {
            sets: vec![TestSet {
                name: "S".into(),
                contributor: "c".into(),
                href: "cMeta/S.testSet".into(),
                version: None,
                groups: vec![
                    group(
                        "ok",
                        Some(test("s", "good.xsd", "valid")),
                        vec![
                            test("i1", "good.xml", "valid"),
                            test("i2", "bad.xml", "invalid"),
                            test("i3", "bad.xml", "valid"),
                            test("i4", "boom.xml", "valid"),
                        ],
                    ),
                    group(
                        "rejected",
                        Some(test("s", "bad.xsd", "invalid")),
                        vec![test("i", "good.xml", "valid")],
                    ),
                    group(
                        "wrong",
                        Some(test("s", "bad.xsd", "valid")),
                        vec![test("i", "good.xml", "valid")],
                    ),
                    group("panics", Some(test("s", "boom.xsd", "valid")), vec![]),
                    group("builtin", None, vec![test("i", "good.xml", "valid")]),
                ],
            }],
            missing: vec![],
        }
    }

    #[test]
    fn runs_caches_and_survives_panics() {
        let fake = Fake::default();
        // The fake's panics are reported by the default hook (captured by the test runner).
        let report = run_suite(&suite(), &fake, &RunOptions::default());
        // One load per group whose tests run (the "rejected" group's instance is skipped after
        // its schema test loaded the schema).
        assert_eq!(fake.loads.borrow().len(), 5);
        assert_eq!(fake.loads.borrow()[4], Vec::<PathBuf>::new());
        let outcome = |id: &str| {
            report
                .results
                .iter()
                .find(|r| r.id == id)
                .unwrap_or_else(|| panic!("{id}"))
                .clone()
        };
        assert_eq!(outcome("S/ok/s").outcome, Outcome::Pass);
        assert_eq!(outcome("S/ok/i1").outcome, Outcome::Pass);
        assert_eq!(outcome("S/ok/i2").outcome, Outcome::Pass);
        let i3 = outcome("S/ok/i3");
        assert_eq!(
            (i3.expected, i3.got, i3.message.as_str()),
            (Some("valid"), Some("invalid"), "not valid")
        );
        let i4 = outcome("S/ok/i4");
        assert_eq!(i4.got, Some("panic"));
        assert!(i4.message.contains("instance boom"), "{}", i4.message);
        assert_eq!(outcome("S/rejected/s").outcome, Outcome::Pass);
        assert_eq!(
            outcome("S/rejected/i").outcome,
            Outcome::Skip("schema expected invalid".into())
        );
        assert!(matches!(outcome("S/wrong/s").outcome, Outcome::Fail(_)));
        assert_eq!(outcome("S/wrong/i").got, Some("schema error"));
        assert_eq!(outcome("S/panics/s").got, Some("panic"));
        assert_eq!(outcome("S/builtin/i").outcome, Outcome::Pass);
        let (s, i) = (report.counts(Kind::Schema), report.counts(Kind::Instance));
        assert_eq!((s.passed, s.failed, s.skipped), (2, 2, 0));
        assert_eq!((i.passed, i.failed, i.skipped), (3, 3, 1));
        let text = report.render(
            &[
                ("S/ok/i3".into(), "why".into()),
                ("S/ok/i1".into(), "fixed".into()),
            ],
            true,
        );
        assert!(text.contains("FIXED S/ok/i1:"), "{text}");
        assert!(text.ends_with(
            "xsd schema tests: 2 passed, 2 failed, 0 skipped\nxsd instance tests: 3 passed, 3 failed, 1 skipped\n"
        ), "{text}");
        assert!(text.contains("FAIL (known) S/ok/i3: expected valid, got invalid"));
        assert!(text.contains("failures: 4 not in known-failures/xsd.txt, 1 known"));
        assert!(report
            .to_json()
            .starts_with("{\"suite\":\"xsd\",\"processor\":\"fake\""));
    }

    #[test]
    fn filters_by_set_group_or_contributor() {
        let fake = Fake::default();
        let only = |f: &str| {
            run_suite(
                &suite(),
                &fake,
                &RunOptions {
                    filter: vec![f.to_string()],
                },
            )
            .results
            .len()
        };
        assert_eq!(only("S/ok"), 5);
        assert_eq!(only("S/builtin"), 1);
        assert_eq!(only("S"), 11);
        assert_eq!(only("c"), 11);
        assert_eq!(only("cMeta/S.testSet"), 11);
        assert_eq!(only("nothing"), 0);
    }
}
