//! Every XPath expression of the jaxen and libxml2 test suites compiles (or, for those the
//! suite marks as errors, fails to), except the checked-in known failures, each with a reason.
//! The known-failure list may only shrink: an entry that now behaves is an error too.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use xwire::xpath::{Namespaces, XPath};
use xwire::{Event, Reader};

/// One expression of a suite and whether the suite expects it to compile.
struct Case {
    origin: String,
    expr: String,
    ns: Namespaces,
    valid: bool,
}

/// The `select` attributes of jaxen's `tests.xml`, with the namespaces in scope where they
/// appear; `exception="true"` marks the ones that must not compile.
fn jaxen_cases(root: &Path) -> Vec<Case> {
    let file = root.join("xpath/jaxen/core/xml/test/tests.xml");
    let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut reader = Reader::from_slice(&data);
    let mut scopes: Vec<Namespaces> = vec![Namespaces::new()];
    let mut out = Vec::new();
    loop {
        match reader.next().expect("tests.xml is well-formed") {
            Event::Start(tag) => {
                let mut ns = scopes.last().unwrap().clone();
                for a in tag.attributes() {
                    if a.is_namespace_decl() && a.prefix().is_some() {
                        ns.insert(a.local_name(), a.value());
                    }
                }
                if let Some(sel) = tag.attribute("select") {
                    out.push(Case {
                        origin: format!("jaxen <{}>", tag.name()),
                        expr: sel.to_string(),
                        ns: ns.clone(),
                        valid: tag.attribute("exception") != Some("true"),
                    });
                }
                scopes.push(ns);
            }
            Event::End(_) => {
                scopes.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

/// libxml2's expression files: one expression a line, in `test/XPath/expr` and
/// `test/XPath/tests` (the `xptr` folder holds XPointer, not XPath).
fn libxml2_cases(root: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    for sub in ["expr", "tests"] {
        let dir = root.join("xpath/libxml2/test/XPath").join(sub);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                out.push(Case {
                    origin: format!("libxml2 {sub}/{name}:{}", i + 1),
                    expr: line.to_string(),
                    ns: Namespaces::new(),
                    valid: true,
                });
            }
        }
    }
    out
}

/// `expression<TAB>reason` lines; `#` starts a comment line.
fn known_failures() -> BTreeMap<String, String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xpath-compile-known-failures.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (e, r) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("no reason: {l:?}"));
            assert!(!r.trim().is_empty(), "no reason: {l:?}");
            (e.to_string(), r.trim().to_string())
        })
        .collect()
}

#[test]
fn suites_compile() {
    let Some(root) = common::corpus("xpath") else {
        return;
    };
    let root = root.parent().unwrap();
    let known = known_failures();
    let mut unexpected = Vec::new();
    let mut still_known = std::collections::BTreeSet::new();
    for (suite, cases) in [
        ("jaxen", jaxen_cases(root)),
        ("libxml2", libxml2_cases(root)),
    ] {
        let (mut compiled, mut rejected, mut known_hit) = (0, 0, 0);
        for c in &cases {
            let r = XPath::compile_with(&c.expr, &c.ns);
            let ok = r.is_ok() == c.valid;
            if let Ok(x) = &r {
                // Printing the unabbreviated form and parsing it again gives the same tree.
                let printed = x.to_string();
                let y = XPath::compile_with(&printed, &c.ns).unwrap_or_else(|e| {
                    panic!("{}: {:?} printed as {printed:?}: {e}", c.origin, c.expr)
                });
                assert_eq!(x.expr(), y.expr(), "{}: {:?}", c.origin, c.expr);
            }
            match (ok, known.contains_key(&c.expr)) {
                (true, false) => {}
                (true, true) => unexpected.push(format!(
                    "{}: {:?} is in the known failures but now behaves; remove it",
                    c.origin, c.expr
                )),
                (false, true) => {
                    known_hit += 1;
                    still_known.insert(c.expr.clone());
                }
                (false, false) => unexpected.push(match &r {
                    Ok(x) => format!("{}: {:?} should fail but compiled to {x}", c.origin, c.expr),
                    Err(e) => format!("{}: {:?} failed: {e}", c.origin, c.expr),
                }),
            }
            if r.is_ok() {
                compiled += 1;
            } else {
                rejected += 1;
            }
        }
        println!(
            "{suite}: {} expressions, {compiled} compiled, {rejected} rejected ({known_hit} known failures)",
            cases.len()
        );
    }
    for k in known.keys() {
        if !still_known.contains(k) {
            unexpected.push(format!(
                "known failure {k:?} no longer occurs in the suites; remove it"
            ));
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

/// The body of the `xpath_eval` fuzz target, run over every expression of both suites on
/// every document of both suites, at the document node and the root element: no panics,
/// node-sets in document order without duplicates.
#[test]
fn suites_evaluate_on_every_document() {
    use xwire::tree::Document;
    use xwire::xpath::{Navigator, Value};

    let Some(root) = common::corpus("xpath") else {
        return;
    };
    let root = root.parent().unwrap().to_path_buf();
    let mut docs = Vec::new();
    for dir in [
        root.join("xpath/jaxen/core/xml"),
        root.join("xpath/libxml2/test/XPath/docs"),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            // The largest documents make the slowest expressions slow in debug builds.
            if bytes.len() > 64 * 1024 {
                continue;
            }
            if let Ok(d) = Document::parse(&bytes) {
                docs.push(d);
            }
        }
    }
    let mut cases = jaxen_cases(&root);
    cases.extend(libxml2_cases(&root));
    let compiled: Vec<XPath> = cases
        .iter()
        .filter_map(|c| XPath::compile_with(&c.expr, &c.ns).ok())
        .collect();
    assert!(docs.len() > 20 && compiled.len() > 600);
    // The default test stack (2 MiB), as in a fuzz run.
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut evaluations = 0;
            for d in &docs {
                let doc_root = Navigator::root(d);
                let contexts = [Some(doc_root), d.root_element().map(Into::into)];
                for xp in &compiled {
                    for ctx in contexts.into_iter().flatten() {
                        evaluations += 1;
                        let Ok(v) = xp.evaluate(d, ctx) else { continue };
                        if let Value::NodeSet(set) = &v {
                            for w in set.windows(2) {
                                assert_eq!(
                                    Navigator::cmp_order(d, w[0], w[1]),
                                    std::cmp::Ordering::Less,
                                    "{xp}: not in document order"
                                );
                            }
                        }
                        let _ = (v.to_string(d), v.to_number(d), v.to_boolean());
                    }
                }
            }
            println!("{evaluations} evaluations");
        })
        .unwrap()
        .join()
        .unwrap();
}
