//! Runs the conformance suites as tests. Each fails on a failure that is not in
//! `known-failures/<suite>.txt`, and on a listed failure that now passes (the list only
//! shrinks). Under `CI=true` a missing corpus is a failure, elsewhere a loud skip.

use std::collections::BTreeSet;

use xwire_conformance::{corpus, known_failures, Outcome, Report};

fn check(report: &Report, min_passed: usize) {
    check_against(report, &report.suite, min_passed);
}

/// As [`check`], with the known failures of `list` (the XSD suite's schema and instance
/// reports share one list).
fn check_against(report: &Report, list: &str, min_passed: usize) {
    println!("{}", report.summary());
    let known: BTreeSet<String> = known_failures(list).into_iter().map(|(id, _)| id).collect();
    let failed: BTreeSet<String> = report
        .results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
        .map(|r| r.id.clone())
        .collect();
    let unexpected: Vec<String> = report
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Fail(why) if !known.contains(&r.id) => Some(format!("{}: {why}", r.id)),
            _ => None,
        })
        .collect();
    let ran: BTreeSet<&String> = report.results.iter().map(|r| &r.id).collect();
    // Only entries of this report: a shared list also holds the other report's ids.
    let fixed: Vec<&String> = known
        .difference(&failed)
        .filter(|id| ran.contains(id))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed as known failures but now pass (remove them): {fixed:?}"
    );
    let (passed, _, _) = report.counts();
    assert!(
        passed >= min_passed,
        "only {passed} tests passed; expected at least {min_passed}"
    );
}

#[test]
fn xmlconf() {
    let Some(dir) = corpus("xmlconf") else { return };
    let report = xwire_conformance::xmlconf::run(&dir).expect("catalog readable");
    // 1,975 tests apply (XML 1.0 5th edition + Namespaces 1.0, optional errors excluded).
    check(&report, 1975);
}

#[test]
fn c14n() {
    let Some(dir) = corpus("c14n") else { return };
    let report = xwire_conformance::c14n::run(&dir).expect("vectors readable");
    // 28 whole-document vectors (18 libxml2, 10 Santuario) and 241 document subsets: 55
    // libxml2 XPath node-sets in the four modes, Santuario's XPath and subtree examples, the
    // C14N 1.1 interop outputs and Appendix A, and 81 XML Signature intermediate outputs.
    check(&report, 269);
    let (_, failed, skipped) = report.counts();
    // One known failure (a bogus interop output); skipped: 4 vectors without an expected
    // output or XPath expression in the corpus.
    assert_eq!((failed, skipped), (1, 4), "{}", report.summary());
}

#[test]
fn xpath() {
    let Some(dir) = corpus("xpath") else { return };
    let report = xwire_conformance::xpath::run(&dir).expect("suites readable");
    let passed = |prefix: &str| {
        report
            .results
            .iter()
            .filter(|r| r.id.starts_with(prefix) && r.outcome == Outcome::Pass)
            .count()
    };
    // Over the tree (`xpath::run`; the index's navigator is held to the tree's by the core
    // crate's tests/models_agree.rs, not by this suite). jaxen: all 281 tests of
    // tests.xml but the 4 of document() (skipped); libxml2: the 327 expressions of expr/ and
    // tests/, 2 of them known failures (the 7 files of xptr/, XPointer, are skipped).
    assert!(passed("jaxen:") >= 277, "jaxen: {}", passed("jaxen:"));
    assert!(passed("libxml2/") >= 325, "libxml2: {}", passed("libxml2/"));
    check(&report, 602);
}

/// The XSTS metadata read by the harness's rules: XSD 1.0 test counts for a processor with
/// Unicode 6.0.0 character tables (xwire's default). The expected numbers were counted
/// independently from the metadata (a separate script over `suite.xml` and the test sets with
/// the rules of `common/xsts.xsd`).
#[test]
fn xsd_catalog_counts() {
    use xwire_conformance::xsd::catalog::{self, Kind, Verdict};
    let Some(dir) = corpus("xsdtests") else {
        return;
    };
    let suite = catalog::load_suite(&dir, "suite.xml").expect("suite readable");
    // The NIST datatype set is referenced but not shipped in the corpus.
    assert_eq!(
        suite.missing,
        vec!["nistMeta/NISTXMLSchemaDatatypes.testSet"]
    );
    assert_eq!(suite.sets.len(), 92);
    let plan = catalog::plan(&suite, &catalog::configuration(&["Unicode_6.0.0".into()]));
    let count = |kind: Kind, f: &dyn Fn(&Verdict) -> bool| {
        plan.iter()
            .filter(|p| p.kind == kind && f(&p.verdict))
            .count()
    };
    let excluded = |v: &Verdict| *v == Verdict::Excluded;
    let valid = |v: &Verdict| *v == Verdict::Run(true);
    let invalid = |v: &Verdict| *v == Verdict::Run(false);
    let skipped = |v: &Verdict| matches!(v, Verdict::Skip(_));
    assert_eq!(
        [excluded, valid, invalid, skipped].map(|f| count(Kind::Schema, &f)),
        [966, 7071, 3335, 46]
    );
    assert_eq!(
        [excluded, valid, invalid, skipped].map(|f| count(Kind::Instance, &f)),
        [1277, 3326, 2379, 158]
    );
    let reason = |kind: Kind, why: &str| {
        count(
            kind,
            &|v: &Verdict| matches!(v, Verdict::Skip(w) if w == why),
        )
    };
    assert_eq!(reason(Kind::Schema, "expected indeterminate"), 12);
    assert_eq!(reason(Kind::Schema, "status queried"), 21);
    assert_eq!(reason(Kind::Instance, "no status (test not reviewed)"), 105);
    assert_eq!(
        reason(Kind::Instance, "needs version token(s) Unicode_4.0.0"),
        1
    );
    assert_eq!(reason(Kind::Instance, "schema expected indeterminate"), 3);
}

/// The harness with libxml2's xmllint over five test sets chosen for their metadata: plain
/// (Sun's AGroupDef, Microsoft's Notations), multi-document schemas, indeterminate and
/// disputed results (Microsoft's Schema), no status anywhere (Boeing) and a 1.1 set holding
/// 1.0-tagged tests (the WG's substitution groups). The counts were computed from the metadata
/// independently; the pass rate is xmllint's, with a floor below what libxml2 2.9 reaches.
#[test]
fn xsd_with_xmllint() {
    use xwire_conformance::xsd::{self, catalog::Kind, xmllint::XmllintProcessor, RunOptions};
    let Some(dir) = corpus("xsdtests") else {
        return;
    };
    let Some(xmllint) = XmllintProcessor::new() else {
        let msg = "xmllint not found (scripts/install-peers.sh installs libxml2-utils)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
        return;
    };
    let options = RunOptions {
        filter: [
            "sunMeta/AGroupDef.testSet",
            "msMeta/Notations_w3c.xml",
            "msMeta/Schema_w3c.xml",
            "boeingMeta/BoeingXSDTestSet.testSet",
            "wgMeta/substitution-groups.testSet",
        ]
        .map(String::from)
        .to_vec(),
    };
    let report = xsd::run(&dir, &xmllint, &options).expect("suite readable");
    print!("{}", report.render(&[], false));
    let (s, i) = (report.counts(Kind::Schema), report.counts(Kind::Instance));
    assert_eq!(report.excluded, (6, 41));
    assert_eq!((s.total(), s.skipped), (265, 17));
    assert_eq!((i.total(), i.skipped), (56, 18));
    let by = report.by_contributor();
    assert_eq!(by["boeing"].0.skipped + by["boeing"].1.skipped, 18);
    assert!(!by.contains_key("wg"));
    assert_eq!(by["sun"].0.total() + by["sun"].1.total(), 19);
    // Floors: xmllint (libxml2 2.9.14) passes 217 of 248 schema and 31 of 38 instance tests
    // here; it does not follow xsi:schemaLocation hints nor check every schema constraint.
    assert!(s.passed * 100 >= (s.passed + s.failed) * 80, "{s:?}");
    assert!(i.passed * 100 >= (i.passed + i.failed) * 70, "{i:?}");
    // Every test run got an answer from xmllint (no harness errors, no timeouts).
    assert!(report.results.iter().all(
        |r| r.expected.is_none() || matches!(r.got, Some("valid" | "invalid" | "schema error"))
    ));
}

/// xwire's own loader and validator over every XSD 1.0 test of the suite.
#[test]
fn xsd_with_xwire() {
    use xwire_conformance::xsd::{self, catalog::Kind, xwire::XwireProcessor, RunOptions};
    let Some(dir) = corpus("xsdtests") else {
        return;
    };
    let report =
        xsd::run(&dir, &XwireProcessor::new(), &RunOptions::default()).expect("suite readable");
    // Targets of issue 5: 90% of schema tests, 95% of instance tests; the floors sit at the
    // numbers reached, so a regression fails here as well as through the known failures.
    check_against(&report.report(Kind::Schema), xsd::KNOWN_FAILURES, 10_385);
    check_against(&report.report(Kind::Instance), xsd::KNOWN_FAILURES, 5_662);
}

/// The lean pass of `Validator::validate` against the general pass on every instance of
/// the XSD suite, valid or not: it may give up on any, but each it proves valid must be
/// valid for the general pass too. It must also prove some (or it would be switched off
/// without anyone noticing).
#[test]
fn xsd_lean_pass_agrees_with_the_general_pass() {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    use xwire_conformance::xsd::{self, xwire::XwireProcessor, RunOptions, XsdProcessor};
    use xwire_schema::model::Schema;

    struct LeanChecked {
        inner: XwireProcessor,
        proved: AtomicUsize,
        instances: AtomicUsize,
        disagreements: Mutex<Vec<String>>,
    }
    impl XsdProcessor for LeanChecked {
        type Schema = Option<Schema>;
        fn name(&self) -> String {
            "xwire (lean pass checked)".to_string()
        }
        fn load(&self, docs: &[PathBuf]) -> Result<Option<Schema>, String> {
            self.inner.load(docs)
        }
        fn validate(&self, schema: &Option<Schema>, instance: &Path) -> Result<(), String> {
            if let (Some(s), Ok(bytes)) = (schema, std::fs::read(instance)) {
                self.instances.fetch_add(1, Ordering::Relaxed);
                match xwire_schema::validate::differential::check_lean(s, &bytes) {
                    Ok(true) => {
                        self.proved.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(false) => {}
                    Err(e) => self
                        .disagreements
                        .lock()
                        .unwrap()
                        .push(format!("{}: {e}", instance.display())),
                }
            }
            self.inner.validate(schema, instance)
        }
    }

    let Some(dir) = corpus("xsdtests") else {
        return;
    };
    let p = LeanChecked {
        inner: XwireProcessor::new(),
        proved: AtomicUsize::new(0),
        instances: AtomicUsize::new(0),
        disagreements: Mutex::new(Vec::new()),
    };
    xsd::run(&dir, &p, &RunOptions::default()).expect("suite readable");
    let (proved, instances) = (p.proved.into_inner(), p.instances.into_inner());
    println!("the lean pass proved {proved} of {instances} instances valid");
    let disagreements = p.disagreements.into_inner().unwrap();
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // 142 when this was written: most of the suite's instances are invalid, or use what
    // the lean pass leaves to the general one (IDs, identity constraints, value
    // constraints, `xsi:nil`, lax subtrees).
    assert!(
        proved >= 130,
        "the lean pass proved only {proved} instances valid"
    );
}
