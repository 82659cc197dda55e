//! The test-suite metadata of the W3C XML Schema Test Suite (XSTS), as `common/xsts.xsd`
//! describes it, and the rules that decide which tests an XSD 1.0 processor runs.
//!
//! `suite.xml` lists `testSetRef`s; each test set holds `testGroup`s, each with at most one
//! `schemaTest` (one or more `schemaDocument`s) and any number of `instanceTest`s (one
//! `instanceDocument`). Tests carry `expected` results (several, told apart by `version`
//! tokens) and a `current` status.
//!
//! The rules applied by [`plan`], from `common/xsts.xsd`:
//! - `version` on `testSet`, `testGroup`, `schemaTest` and `instanceTest` is a list of tokens
//!   joined by *or*: the tests apply to a processor configuration supporting any of them; no
//!   attribute (or an empty one) means all configurations. A processor that skips a set or a
//!   group does not look at what is inside, so the levels are joined by *and*.
//! - `version` on `expected` is joined by *and*: the result holds for configurations
//!   supporting all of the tokens. When several apply, the most specific (most tokens) wins.
//! - A test that does not apply to XSD 1.0 whatever its other features is not an XSD 1.0 test:
//!   it is left out of the counts ([`Verdict::Excluded`]). A 1.0 test that needs a feature the
//!   processor lacks (e.g. `Unicode_4.0.0`) is skipped.
//! - `current/@status` must be `accepted` or `stable` (`stable` is what a query resolved in the
//!   test's favour leaves: `accepted` → `queried` → `stable`); `submitted`, `queried`,
//!   `disputed-test`, `disputed-spec` and a missing `current` (not yet reviewed: the schema says
//!   tests included in the suite always have one) are skipped.
//! - Only `valid` and `invalid` results are checked; `indeterminate`, `notKnown`,
//!   `implementation-defined`, `implementation-dependent` (and no result for 1.0) are skipped.
//! - Instance tests are validated against the group's schema; when the group's schema is not
//!   expected to be valid under 1.0 they are skipped, and when its schema test is an XSD
//!   1.1-only test they are left out too. A group without a `schemaTest` validates
//!   its instances against the built-in components alone (an empty list of documents).
//!
//! `extra-suite.xml` is not read: it holds the precisionDecimal sets (an XSD 1.1 draft
//! feature) and a second copy of `introspection`.

use std::path::{Path, PathBuf};

use xwire::{Config, Event, Reader};

/// The XSTS metadata namespace.
pub const TS_NS: &str = "http://www.w3.org/XML/2004/xml-schema-test-suite/";
/// The XLink namespace (`xlink:href`).
pub const XLINK_NS: &str = "http://www.w3.org/1999/xlink";

/// The tokens of the XSD-version dimension (`known-xsd-version` in `xsts.xsd`).
const XSD_VERSIONS: [&str; 2] = ["1.0", "1.1"];

/// The feature tokens (other than XSD versions) that the suite's metadata uses; a test that
/// applies to none of them in XSD 1.0 is an XSD 1.1 test.
const FEATURE_TOKENS: [&str; 4] = [
    "Unicode_4.0.0",
    "Unicode_6.0.0",
    "full-xpath-in-CTA",
    "restricted-xpath-in-CTA",
];

/// One `expected` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// `valid`, `invalid`, `indeterminate`, `notKnown`, ...
    pub validity: String,
    /// The `version` tokens (all must be supported for the result to apply).
    pub version: Vec<String>,
}

/// A `schemaTest` or an `instanceTest`.
#[derive(Debug, Clone, Default)]
pub struct Test {
    /// The test's `name`.
    pub name: String,
    /// `schemaDocument`s (schema test) or the one `instanceDocument` (instance test),
    /// resolved against the test set's folder.
    pub documents: Vec<PathBuf>,
    /// The `expected` elements, in document order.
    pub expected: Vec<Expected>,
    /// `current/@status`, if there is a `current`.
    pub status: Option<String>,
    /// The `version` attribute, if any.
    pub version: Option<String>,
}

/// A `testGroup`.
#[derive(Debug, Clone, Default)]
pub struct Group {
    /// The group's `name`.
    pub name: String,
    /// The `version` attribute, if any.
    pub version: Option<String>,
    /// The `schemaTest`, if any.
    pub schema: Option<Test>,
    /// The `instanceTest`s.
    pub instances: Vec<Test>,
}

/// A `testSet` file.
#[derive(Debug, Clone, Default)]
pub struct TestSet {
    /// The set's `name`.
    pub name: String,
    /// Short contributor key from the metadata folder: `ms`, `sun`, `boeing`, `ibm`, `saxon`,
    /// `oracle`, `wg`, `common` (`msMeta/…` → `ms`).
    pub contributor: String,
    /// The `href` of the `testSetRef`.
    pub href: String,
    /// The `version` attribute, if any.
    pub version: Option<String>,
    /// The groups.
    pub groups: Vec<Group>,
}

/// A whole test suite.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// The sets that could be read, in `suite.xml` order.
    pub sets: Vec<TestSet>,
    /// `testSetRef`s whose file is not in the corpus (the NIST datatype set is not shipped).
    pub missing: Vec<String>,
}

/// Which kind of test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A `schemaTest`: is the schema built from the documents conforming?
    Schema,
    /// An `instanceTest`: is the document valid against the group's schema?
    Instance,
}

/// What the suite says about one test for the processor configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not an XSD 1.0 test (applies to XSD 1.1 only); not counted.
    Excluded,
    /// An XSD 1.0 test that is not run; the string says why.
    Skip(String),
    /// Run it; `true` when the expected result is `valid`.
    Run(bool),
}

/// One test with the verdict of the rules.
#[derive(Debug, Clone)]
pub struct Planned {
    /// `SET/GROUP/TEST`, unique within the suite (set names are unique in a suite, test names
    /// within a group).
    pub id: String,
    /// Index of the set in [`Suite::sets`].
    pub set: usize,
    /// Index of the group in its set.
    pub group: usize,
    /// Schema or instance test.
    pub kind: Kind,
    /// The test's documents: the schema documents, or the instance document.
    pub documents: Vec<PathBuf>,
    /// What to do.
    pub verdict: Verdict,
}

fn tokens(v: &Option<String>) -> Vec<&str> {
    v.as_deref()
        .map(|s| s.split_whitespace().collect())
        .unwrap_or_default()
}

/// Does a `version` list (joined by *or*) apply to a configuration?
fn applies(v: &Option<String>, config: &[String]) -> bool {
    let t = tokens(v);
    t.is_empty() || t.iter().any(|t| config.iter().any(|c| c == t))
}

/// The expected result that applies to a configuration: `None` when none does,
/// `Some(Err(..))` when the most specific ones contradict each other.
pub fn expected_for(test: &Test, config: &[String]) -> Option<Result<String, String>> {
    let applicable: Vec<&Expected> = test
        .expected
        .iter()
        .filter(|e| e.version.iter().all(|t| config.contains(t)))
        .collect();
    let most = applicable.iter().map(|e| e.version.len()).max()?;
    let best: Vec<&&Expected> = applicable
        .iter()
        .filter(|e| e.version.len() == most)
        .collect();
    let first = &best[0].validity;
    if best.iter().all(|e| &e.validity == first) {
        Some(Ok(first.clone()))
    } else {
        Some(Err(format!(
            "contradictory expected results: {}",
            best.iter()
                .map(|e| e.validity.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// The configuration for an XSD 1.0 processor with these feature tokens: `1.0` and the
/// features.
pub fn configuration(features: &[String]) -> Vec<String> {
    let mut c = vec!["1.0".to_string()];
    c.extend(
        features
            .iter()
            .filter(|f| !XSD_VERSIONS.contains(&f.as_str()))
            .cloned(),
    );
    c
}

fn verdict(levels: [&Option<String>; 3], test: &Test, config: &[String]) -> Verdict {
    if !levels.iter().all(|v| applies(v, config)) {
        let mut wide = configuration(&[]);
        wide.extend(FEATURE_TOKENS.iter().map(|s| s.to_string()));
        wide.extend(config.iter().cloned());
        if !levels.iter().all(|v| applies(v, &wide)) {
            return Verdict::Excluded;
        }
        let needs: Vec<String> = levels
            .iter()
            .filter(|v| !applies(v, config))
            .map(|v| (*v).clone().unwrap_or_default())
            .collect();
        return Verdict::Skip(format!("needs version token(s) {}", needs.join("; ")));
    }
    match test.status.as_deref() {
        Some("accepted") | Some("stable") => {}
        Some(s) => return Verdict::Skip(format!("status {s}")),
        None => return Verdict::Skip("no status (test not reviewed)".into()),
    }
    match expected_for(test, config) {
        None => Verdict::Skip("no expected result for XSD 1.0".into()),
        Some(Err(e)) => Verdict::Skip(e),
        Some(Ok(v)) if v == "valid" => Verdict::Run(true),
        Some(Ok(v)) if v == "invalid" => Verdict::Run(false),
        Some(Ok(v)) => Verdict::Skip(format!("expected {v}")),
    }
}

/// Applies the rules (see the module documentation) to every test of the suite for an XSD 1.0
/// processor whose configuration is `config` (from [`configuration`]).
pub fn plan(suite: &Suite, config: &[String]) -> Vec<Planned> {
    let mut out = Vec::new();
    for (si, set) in suite.sets.iter().enumerate() {
        for (gi, group) in set.groups.iter().enumerate() {
            let schema_expected = group.schema.as_ref().map(|s| expected_for(s, config));
            let schema_verdict = group
                .schema
                .as_ref()
                .map(|s| verdict([&set.version, &group.version, &s.version], s, config));
            let id = |t: &Test| format!("{}/{}/{}", set.name, group.name, t.name);
            if let (Some(s), Some(v)) = (&group.schema, &schema_verdict) {
                out.push(Planned {
                    id: id(s),
                    set: si,
                    group: gi,
                    kind: Kind::Schema,
                    documents: s.documents.clone(),
                    verdict: v.clone(),
                });
            }
            for t in &group.instances {
                let mut v = verdict([&set.version, &group.version, &t.version], t, config);
                match &schema_verdict {
                    // The schema is not an XSD 1.0 schema: neither are the tests that use it.
                    Some(Verdict::Excluded) => v = Verdict::Excluded,
                    Some(Verdict::Skip(why))
                        if why.starts_with("needs") && matches!(v, Verdict::Run(_)) =>
                    {
                        v = Verdict::Skip(format!("schema {why}"))
                    }
                    _ => {}
                }
                if matches!(v, Verdict::Run(_)) {
                    match &schema_expected {
                        None => {}
                        Some(Some(Ok(e))) if e == "valid" => {}
                        Some(Some(Ok(e))) => v = Verdict::Skip(format!("schema expected {e}")),
                        Some(Some(Err(e))) => v = Verdict::Skip(format!("schema: {e}")),
                        Some(None) => v = Verdict::Skip("no expected result for the schema".into()),
                    }
                }
                out.push(Planned {
                    id: id(t),
                    set: si,
                    group: gi,
                    kind: Kind::Instance,
                    documents: t.documents.clone(),
                    verdict: v,
                });
            }
        }
    }
    out
}

fn reader_for<'a>(path: &Path, bytes: &'a [u8]) -> Reader<'a> {
    let mut config = Config::default();
    config.base_uri = Some(path.to_string_lossy().into_owned());
    Reader::with_config(bytes, config)
}

/// Reads `suite.xml` (or another suite file) in `dir` and every test set it references.
pub fn load_suite(dir: &Path, file: &str) -> Result<Suite, String> {
    let path = dir.join(file);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut r = reader_for(&path, &bytes);
    let mut hrefs = Vec::new();
    loop {
        match r.next().map_err(|e| format!("{}: {e}", path.display()))? {
            Event::Start(t) if t.namespace_uri() == TS_NS && t.local_name() == "testSetRef" => {
                if let Some(h) = t.attribute_ns(XLINK_NS, "href") {
                    hrefs.push(h.to_string());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut suite = Suite::default();
    for href in hrefs {
        let p = dir.join(&href);
        if !p.is_file() {
            suite.missing.push(href);
            continue;
        }
        let mut set = load_test_set(&p)?;
        set.contributor = contributor_of(&href);
        set.href = href;
        suite.sets.push(set);
    }
    Ok(suite)
}

/// `msMeta/Regex_w3c.xml` → `ms`; `common/…` → `common`.
fn contributor_of(href: &str) -> String {
    let dir = href.split('/').next().unwrap_or(href);
    dir.strip_suffix("Meta").unwrap_or(dir).to_string()
}

/// Reads one test-set file; hrefs are resolved against its folder.
pub fn load_test_set(path: &Path) -> Result<TestSet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut r = reader_for(path, &bytes);
    let mut set = TestSet::default();
    // Local names of the open elements in the metadata namespace ("" for others).
    let mut stack: Vec<&'static str> = Vec::new();
    let mut test: Option<(Kind, Test)> = None;
    loop {
        let ev = r.next().map_err(|e| format!("{}: {e}", path.display()))?;
        match ev {
            Event::Start(t) => {
                let parent = stack.last().copied().unwrap_or("");
                let local = if t.namespace_uri() == TS_NS {
                    t.local_name()
                } else {
                    ""
                };
                let get = |n: &str| t.attribute(n).map(str::to_string);
                let href = || t.attribute_ns(XLINK_NS, "href").map(|h| base.join(h));
                let name: &'static str = match (parent, local) {
                    ("", "testSet") if stack.is_empty() => {
                        set.name = get("name").unwrap_or_default();
                        set.version = get("version");
                        "testSet"
                    }
                    ("testSet", "testGroup") => {
                        set.groups.push(Group {
                            name: get("name").unwrap_or_default(),
                            version: get("version"),
                            ..Group::default()
                        });
                        "testGroup"
                    }
                    ("testGroup", "schemaTest") | ("testGroup", "instanceTest") => {
                        let kind = if local == "schemaTest" {
                            Kind::Schema
                        } else {
                            Kind::Instance
                        };
                        test = Some((
                            kind,
                            Test {
                                name: get("name").unwrap_or_default(),
                                version: get("version"),
                                ..Test::default()
                            },
                        ));
                        if kind == Kind::Schema {
                            "schemaTest"
                        } else {
                            "instanceTest"
                        }
                    }
                    ("schemaTest", "schemaDocument") | ("instanceTest", "instanceDocument") => {
                        if let (Some((_, t)), Some(h)) = (test.as_mut(), href()) {
                            t.documents.push(h);
                        }
                        "document"
                    }
                    ("schemaTest", "expected") | ("instanceTest", "expected") => {
                        if let Some((_, tt)) = test.as_mut() {
                            tt.expected.push(Expected {
                                validity: get("validity").unwrap_or_default(),
                                version: get("version")
                                    .unwrap_or_default()
                                    .split_whitespace()
                                    .map(str::to_string)
                                    .collect(),
                            });
                        }
                        "expected"
                    }
                    ("schemaTest", "current") | ("instanceTest", "current") => {
                        if let Some((_, tt)) = test.as_mut() {
                            tt.status = get("status");
                        }
                        "current"
                    }
                    _ => "",
                };
                stack.push(name);
            }
            Event::End(_) => {
                let closed = stack.pop().unwrap_or("");
                if closed == "schemaTest" || closed == "instanceTest" {
                    if let (Some((kind, t)), Some(g)) = (test.take(), set.groups.last_mut()) {
                        match kind {
                            Kind::Schema => g.schema = Some(t),
                            Kind::Instance => g.instances.push(t),
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if set.name.is_empty() {
        return Err(format!("{}: not an XSTS testSet", path.display()));
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(version: Option<&str>, status: Option<&str>, expected: &[(Option<&str>, &str)]) -> Test {
        Test {
            name: "t".into(),
            documents: vec![],
            expected: expected
                .iter()
                .map(|(v, e)| Expected {
                    validity: e.to_string(),
                    version: v
                        .map(|v| v.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default(),
                })
                .collect(),
            status: status.map(str::to_string),
            version: version.map(str::to_string),
        }
    }

    fn cfg(extra: &[&str]) -> Vec<String> {
        configuration(&extra.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn expected_picks_the_one_for_1_0() {
        let c = cfg(&["Unicode_6.0.0"]);
        let x = t(
            None,
            None,
            &[(Some("1.0"), "invalid"), (Some("1.1"), "valid")],
        );
        assert_eq!(expected_for(&x, &c), Some(Ok("invalid".into())));
        // The versioned result is more specific than the unversioned one.
        let x = t(None, None, &[(None, "valid"), (Some("1.0"), "invalid")]);
        assert_eq!(expected_for(&x, &c), Some(Ok("invalid".into())));
        let x = t(None, None, &[(Some("1.1"), "valid")]);
        assert_eq!(expected_for(&x, &c), None);
        let x = t(
            None,
            None,
            &[
                (Some("Unicode_4.0.0"), "valid"),
                (Some("Unicode_6.0.0"), "invalid"),
            ],
        );
        assert_eq!(expected_for(&x, &c), Some(Ok("invalid".into())));
        assert_eq!(
            expected_for(&x, &cfg(&["Unicode_4.0.0"])),
            Some(Ok("valid".into()))
        );
        let x = t(None, None, &[(None, "valid"), (None, "invalid")]);
        assert!(matches!(expected_for(&x, &c), Some(Err(_))));
    }

    #[test]
    fn versions_status_and_results_decide_the_verdict() {
        let c = cfg(&["Unicode_6.0.0"]);
        let ok = Some("accepted");
        let none: Option<String> = None;
        let v11 = Some("1.1".to_string());
        let both = Some("1.0 1.1".to_string());
        let cta = Some("full-xpath-in-CTA".to_string());
        let u4 = Some("Unicode_4.0.0".to_string());
        let valid = [(None, "valid")];
        assert_eq!(
            verdict([&none, &none, &none], &t(None, ok, &valid), &c),
            Verdict::Run(true)
        );
        assert_eq!(
            verdict([&none, &both, &none], &t(None, ok, &valid), &c),
            Verdict::Run(true)
        );
        // Any level saying 1.1 only excludes the test, even if an inner level says 1.0.
        assert_eq!(
            verdict([&v11, &both, &none], &t(None, ok, &valid), &c),
            Verdict::Excluded
        );
        assert_eq!(
            verdict([&none, &v11, &none], &t(None, ok, &valid), &c),
            Verdict::Excluded
        );
        assert!(matches!(
            verdict([&none, &cta, &none], &t(None, ok, &valid), &c),
            Verdict::Skip(_)
        ));
        assert!(matches!(
            verdict([&none, &none, &u4], &t(None, ok, &valid), &c),
            Verdict::Skip(_)
        ));
        assert_eq!(
            verdict(
                [&none, &none, &u4],
                &t(None, ok, &valid),
                &cfg(&["Unicode_4.0.0"])
            ),
            Verdict::Run(true)
        );
        assert_eq!(
            verdict(
                [&none, &none, &none],
                &t(None, Some("stable"), &[(None, "invalid")]),
                &c
            ),
            Verdict::Run(false)
        );
        for s in ["queried", "submitted", "disputed-test", "disputed-spec"] {
            assert_eq!(
                verdict([&none, &none, &none], &t(None, Some(s), &valid), &c),
                Verdict::Skip(format!("status {s}"))
            );
        }
        assert!(matches!(
            verdict([&none, &none, &none], &t(None, None, &valid), &c),
            Verdict::Skip(_)
        ));
        assert_eq!(
            verdict(
                [&none, &none, &none],
                &t(None, ok, &[(None, "indeterminate")]),
                &c
            ),
            Verdict::Skip("expected indeterminate".into())
        );
    }

    #[test]
    fn reads_a_test_set_and_plans_it() {
        let dir = std::env::temp_dir().join(format!("xwire-xsts-catalog-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("m")).unwrap();
        std::fs::write(
            dir.join("suite.xml"),
            r#"<ts:testSuite xmlns:ts="http://www.w3.org/XML/2004/xml-schema-test-suite/"
                 xmlns:xlink="http://www.w3.org/1999/xlink" name="s" releaseDate="2000-01-01" schemaVersion="x">
               <ts:testSetRef xlink:href="m/a.testSet"/>
               <ts:testSetRef xlink:href="gone/b.testSet"/>
               </ts:testSuite>"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("m/a.testSet"),
            r#"<testSet xmlns="http://www.w3.org/XML/2004/xml-schema-test-suite/"
                 xmlns:xlink="http://www.w3.org/1999/xlink" name="A" contributor="me">
              <annotation><documentation><schemaTest name="not-a-test"/></documentation></annotation>
              <testGroup name="g1">
                <schemaTest name="s1">
                  <schemaDocument xlink:href="d/one.xsd"/><schemaDocument xlink:href="d/two.xsd"/>
                  <expected validity="invalid"/><current status="accepted" date="2000-01-01"/>
                </schemaTest>
                <instanceTest name="i1">
                  <instanceDocument xlink:href="d/one.xml"/>
                  <expected validity="valid"/><current status="accepted" date="2000-01-01"/>
                  <prior status="queried" date="1999-01-01"/>
                </instanceTest>
              </testGroup>
              <testGroup name="g2" version="1.1">
                <schemaTest name="s2"><schemaDocument xlink:href="x.xsd"/>
                  <expected validity="valid"/><current status="accepted" date="2000-01-01"/></schemaTest>
              </testGroup>
              <testGroup name="g4">
                <schemaTest name="s4" version="1.1"><schemaDocument xlink:href="x.xsd"/>
                  <expected validity="valid"/><current status="accepted" date="2000-01-01"/></schemaTest>
                <instanceTest name="i4"><instanceDocument xlink:href="x.xml"/>
                  <expected validity="valid"/><current status="accepted" date="2000-01-01"/></instanceTest>
              </testGroup>
              <testGroup name="g3">
                <!-- <instanceTest name="commented"/> -->
                <instanceTest name="i3" version="1.0">
                  <instanceDocument xlink:href="b.xml"/>
                  <expected validity="invalid" version="1.0"/><expected validity="valid" version="1.1"/>
                  <current status="stable" date="2000-01-01"/>
                </instanceTest>
              </testGroup>
            </testSet>"#,
        )
        .unwrap();
        let suite = load_suite(&dir, "suite.xml").unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(suite.missing, vec!["gone/b.testSet".to_string()]);
        assert_eq!(suite.sets.len(), 1);
        let set = &suite.sets[0];
        assert_eq!((set.name.as_str(), set.contributor.as_str()), ("A", "m"));
        assert_eq!(set.groups.len(), 4);
        let s1 = set.groups[0].schema.as_ref().unwrap();
        assert_eq!(s1.documents.len(), 2);
        assert!(s1.documents[1].ends_with("m/d/two.xsd"));
        assert_eq!(
            set.groups[0].instances[0].status.as_deref(),
            Some("accepted")
        );
        assert_eq!(set.groups[3].instances.len(), 1);
        let p = plan(&suite, &cfg(&[]));
        let got: Vec<(&str, Kind, &Verdict)> = p
            .iter()
            .map(|p| (p.id.as_str(), p.kind, &p.verdict))
            .collect();
        assert_eq!(
            got,
            vec![
                ("A/g1/s1", Kind::Schema, &Verdict::Run(false)),
                (
                    "A/g1/i1",
                    Kind::Instance,
                    &Verdict::Skip("schema expected invalid".into())
                ),
                ("A/g2/s2", Kind::Schema, &Verdict::Excluded),
                ("A/g4/s4", Kind::Schema, &Verdict::Excluded),
                ("A/g4/i4", Kind::Instance, &Verdict::Excluded),
                ("A/g3/i3", Kind::Instance, &Verdict::Run(false)),
            ]
        );
    }
}
