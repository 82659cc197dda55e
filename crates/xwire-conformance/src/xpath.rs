//! XPath 1.0 test suites (`xpath/` in the corpora), run through [`xwire::xpath`] over any
//! document model that implements [`Navigator`] (see [`Model`]; the tree by default).
//!
//! What runs:
//! - jaxen's `core/xml/test/tests.xml`: each `<document url>` (relative to `core/`) is parsed,
//!   each `<context select>` is evaluated at the document node, and every `<test select
//!   count>` and `<valueOf select>expected</valueOf>` below it is evaluated at each context
//!   node (`exception="true"`: compiling or evaluating must fail; a `<valueOf>` inside a
//!   `<test>` is evaluated at each node the test selects). Namespace prefixes are those in
//!   scope on the test's element in `tests.xml`; `var:` attributes of the context bind
//!   string variables. The harness registers jaxen's extension functions `evaluate()`,
//!   `upper-case()`, `lower-case()` and `ends-with()` through [`Functions`]. Test ids are
//!   `jaxen:LINE` in `tests.xml`.
//! - libxml2's `test/XPath/expr/*` (one expression a line, evaluated at the root element of
//!   `<doc/>`) and `test/XPath/tests/*` (evaluated at the root element of the document in
//!   `test/XPath/docs/` whose name is the longest prefix of the test file's name), against
//!   the dumps in `result/XPath/`: numbers, booleans and strings compare by value, node-sets
//!   by size and each node's kind and name; "Object is empty (NULL)" expects an error. Ids
//!   are `libxml2/expr/FILE:LINE` and `libxml2/tests/FILE:LINE`.
//!
//! Number literals in exponent notation (libxml2's `1.23e3`) run: the lexer accepts them as an
//! extension that no valid XPath 1.0 expression can meet.
//!
//! Skipped, as not XPath 1.0: libxml2's `xptr/` tests (XPointer), jaxen's tests of
//! `document()` (XSLT's function, loading a second document).

use std::path::Path;
use std::sync::Arc;

use xwire::tree::Document;
use xwire::xpath::{
    format_number, Evaluator, Functions, Namespaces, Navigator, NodeKind, Value, Variables, XPath,
    XPathError, XPathErrorKind,
};

use crate::{Outcome, Report, TestResult};

/// A document model the suites can run on.
pub trait Model: Sized + Send + Sync + 'static {
    /// Its navigator.
    type Nav: Navigator;
    /// A short name for reports.
    const NAME: &'static str;
    /// Parses a whole document.
    fn parse(bytes: &[u8]) -> Result<Self, String>;
    /// The navigator over the parsed document.
    fn nav(&self) -> &Self::Nav;
}

impl Model for Document {
    type Nav = Document;
    const NAME: &'static str = "tree";
    fn parse(bytes: &[u8]) -> Result<Self, String> {
        Document::parse(bytes).map_err(|e| e.to_string())
    }
    fn nav(&self) -> &Document {
        self
    }
}

type Node<M> = <<M as Model>::Nav as Navigator>::Node;

/// The namespace URI of jaxen's `var:` attributes.
const JAXEN_VAR: &str = "https://github.com/jaxen-xpath/jaxen/test-harness/var";

/// Runs both suites below `dir` (the `xpath` corpus folder) over the tree.
pub fn run(dir: &Path) -> Result<Report, String> {
    run_model::<Document>(dir)
}

/// Runs both suites below `dir` over the model `M`.
pub fn run_model<M: Model>(dir: &Path) -> Result<Report, String> {
    let mut results = Vec::new();
    let jaxen = dir.join("jaxen/core");
    if jaxen.is_dir() {
        results.extend(jaxen_tests::<M>(&jaxen)?);
    }
    let libxml2 = dir.join("libxml2");
    if libxml2.is_dir() {
        results.extend(libxml2_tests::<M>(&libxml2)?);
    }
    if results.is_empty() {
        return Err(format!("{}: no jaxen/ or libxml2/ suite", dir.display()));
    }
    Ok(Report {
        suite: "xpath".into(),
        results,
    })
}

/// Catches a panic in one test and reports it as a failure.
fn guarded(f: impl FnOnce() -> Outcome) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Outcome::Fail("PANIC".into()))
}

// ---------------------------------------------------------------------------------------
// jaxen

/// jaxen's extension functions, evaluated on `doc`.
fn jaxen_functions<M: Model>(doc: &Arc<M>) -> Functions<Node<M>> {
    let mut f = Functions::new();
    let d = Arc::clone(doc);
    f.insert("", "evaluate", move |fc, args: Vec<Value<Node<M>>>| {
        let expr = args
            .first()
            .map(|a| a.to_string(fc.nav))
            .unwrap_or_default();
        let xp = XPath::compile(&expr)
            .map_err(|e| XPathError::new(XPathErrorKind::Function, e.to_string()))?;
        xp.evaluate(d.nav(), fc.node)
    });
    let string_fn = |name: &'static str| {
        move |fc: &xwire::xpath::FunctionContext<'_, Node<M>>,
              args: Vec<Value<Node<M>>>|
              -> Result<Value<Node<M>>, XPathError> {
            let s = args
                .first()
                .map(|a| a.to_string(fc.nav))
                .unwrap_or_default();
            Ok(match name {
                "upper-case" => Value::String(s.to_uppercase()),
                "lower-case" => Value::String(s.to_lowercase()),
                _ => {
                    let t = args.get(1).map(|a| a.to_string(fc.nav)).unwrap_or_default();
                    Value::Boolean(s.ends_with(&t))
                }
            })
        }
    };
    for name in ["upper-case", "lower-case", "ends-with"] {
        f.insert("", name, string_fn(name));
    }
    f
}

const JAXEN_FUNCTIONS: [&str; 4] = ["evaluate", "upper-case", "lower-case", "ends-with"];

fn line_of(text: &[u8], offset: u64) -> usize {
    let end = (offset as usize).min(text.len());
    1 + text[..end].iter().filter(|&&b| b == b'\n').count()
}

/// The prefixes in scope on an element of `tests.xml`.
fn namespaces_at(tests: &Document, e: xwire::tree::NodeId) -> Namespaces {
    let mut ns = Namespaces::new();
    for (p, u) in tests.in_scope_namespaces(e) {
        if !p.is_empty() && p != "xml" {
            ns.insert(p, u);
        }
    }
    ns
}

fn child_elements(doc: &Document, n: xwire::tree::NodeId, name: &str) -> Vec<xwire::tree::NodeId> {
    doc.children(n)
        .filter(|&c| doc.kind(c) == NodeKind::Element && doc.local_name(c) == name)
        .collect()
}

/// The jaxen tests of `tests.xml` below `core` (jaxen's `core` folder).
pub fn jaxen_tests<M: Model>(core: &Path) -> Result<Vec<TestResult>, String> {
    let file = core.join("xml/test/tests.xml");
    let text = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let tests = Document::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let root = tests.root_element().ok_or("tests.xml: no root element")?;
    let mut out = Vec::new();
    for d in child_elements(&tests, root, "document") {
        let url = tests.attribute(d, "", "url").unwrap_or_default();
        let parsed = std::fs::read(core.join(url))
            .map_err(|e| e.to_string())
            .and_then(|b| M::parse(&b))
            .map(Arc::new);
        for ctx in child_elements(&tests, d, "context") {
            let mut vars = Variables::new();
            for a in tests.attributes(ctx) {
                if a.namespace_uri == JAXEN_VAR {
                    vars.insert(a.local_name, Value::String(a.value.to_string()));
                }
            }
            let ctx_select = tests.attribute(ctx, "", "select").unwrap_or("/");
            for t in tests.children(ctx) {
                if tests.kind(t) != NodeKind::Element {
                    continue;
                }
                let id = format!("jaxen:{}", line_of(&text, tests.offset(t).unwrap_or(0)));
                let select = tests.attribute(t, "", "select").unwrap_or_default();
                let outcome = match &parsed {
                    _ if select.contains("document(") => Outcome::Skip(
                        "document() is XSLT's (a jaxen extension that loads another document), not XPath 1.0".into(),
                    ),
                    Err(e) => Outcome::Fail(format!("cannot read {url}: {e}")),
                    Ok(doc) => guarded(|| {
                        jaxen_test::<M>(doc, &tests, ctx, ctx_select, t, &vars)
                            .map_or_else(Outcome::Fail, |()| Outcome::Pass)
                    }),
                };
                out.push(TestResult { id, outcome });
            }
        }
    }
    Ok(out)
}

/// One `<test>` or `<valueOf>` element, at every node its context selects.
fn jaxen_test<M: Model>(
    doc: &Arc<M>,
    tests: &Document,
    ctx: xwire::tree::NodeId,
    ctx_select: &str,
    t: xwire::tree::NodeId,
    vars: &Variables<Node<M>>,
) -> Result<(), String> {
    let nav = doc.nav();
    let functions = jaxen_functions(doc);
    let mut ev = Evaluator::new()
        .with_variables(vars)
        .with_functions(&functions);
    let ctx_xp = XPath::compile_with(ctx_select, &namespaces_at(tests, ctx))
        .map_err(|e| format!("context {ctx_select}: {e}"))?;
    let contexts = ev
        .select(&ctx_xp, nav, nav.root())
        .map_err(|e| format!("context {ctx_select}: {e}"))?;
    for &c in &contexts {
        check_element(&mut ev, nav, tests, t, c)?;
    }
    Ok(())
}

/// Checks a `<test>` or `<valueOf>` at context node `c`.
fn check_element<N: Navigator>(
    ev: &mut Evaluator<'_, N::Node>,
    nav: &N,
    tests: &Document,
    t: xwire::tree::NodeId,
    c: N::Node,
) -> Result<(), String> {
    let select = tests.attribute(t, "", "select").unwrap_or_default();
    let exception = tests.attribute(t, "", "exception") == Some("true");
    let ns = namespaces_at(tests, t);
    let result = XPath::compile_with_functions(select, &ns, &JAXEN_FUNCTIONS)
        .map_err(|e| e.to_string())
        .and_then(|xp| ev.evaluate(&xp, nav, c).map_err(|e| e.to_string()));
    let value = match (result, exception) {
        (Err(_), true) => return Ok(()),
        (Ok(v), true) => {
            return Err(format!(
                "{select}: expected an error, got {}",
                describe(nav, &v)
            ))
        }
        (Err(e), false) => return Err(format!("{select}: {e}")),
        (Ok(v), false) => v,
    };
    match tests.local_name(t) {
        "test" => {
            let Value::NodeSet(nodes) = &value else {
                return Err(format!(
                    "{select}: expected a node-set, got {}",
                    describe(nav, &value)
                ));
            };
            if let Some(count) = tests.attribute(t, "", "count") {
                if count.trim().parse::<usize>().ok() != Some(nodes.len()) {
                    return Err(format!(
                        "{select}: expected {count} nodes, got {}",
                        nodes.len()
                    ));
                }
            }
            for inner in child_elements(tests, t, "valueOf") {
                for &n in nodes {
                    check_element(ev, nav, tests, inner, n)?;
                }
            }
            Ok(())
        }
        "valueOf" => {
            let expected = tests.text_content(t);
            let got = value.to_string(nav);
            if got == expected {
                Ok(())
            } else {
                Err(format!("{select}: expected {expected:?}, got {got:?}"))
            }
        }
        other => Err(format!("unknown test element <{other}>")),
    }
}

/// A value for a failure message.
fn describe<N: Navigator>(nav: &N, v: &Value<N::Node>) -> String {
    match v {
        Value::NodeSet(s) => format!("a node-set of {}", s.len()),
        Value::Boolean(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {}", format_number(*n)),
        Value::String(_) => format!("string {:?}", v.to_string(nav)),
    }
}

// ---------------------------------------------------------------------------------------
// libxml2

/// What a libxml2 dump expects.
#[derive(Debug, Clone, PartialEq)]
enum Expected {
    /// An error ("Object is empty (NULL)").
    Error,
    Number(String),
    Boolean(bool),
    String(String),
    /// Each node as (kind, name): `ELEMENT`, `TEXT` (CDATA sections too), `ATTRIBUTE`,
    /// `namespace`, `COMMENT`, `PI`, `/` for the document.
    Nodes(Vec<(String, String)>),
}

/// The blocks of a libxml2 result file: (expression, expected).
fn parse_dump(text: &str) -> Vec<(String, Expected)> {
    let mut out = Vec::new();
    for block in text.split("========================\n").skip(1) {
        let mut lines = block.lines();
        let Some(expr) = lines.next().and_then(|l| l.strip_prefix("Expression: ")) else {
            continue;
        };
        let rest: Vec<&str> = lines.collect();
        let first = rest.first().copied().unwrap_or("");
        let expected = if first.starts_with("Object is empty") {
            Expected::Error
        } else if let Some(n) = first.strip_prefix("Object is a number : ") {
            Expected::Number(n.trim().to_string())
        } else if let Some(b) = first.strip_prefix("Object is a Boolean : ") {
            Expected::Boolean(b.trim() == "true")
        } else if let Some(s) = first.strip_prefix("Object is a string : ") {
            // The value runs to the block's end, minus the blank separator line.
            let mut all = vec![s];
            all.extend(rest[1..].iter().copied());
            while all.last() == Some(&"") && all.len() > 1 {
                all.pop();
            }
            Expected::String(all.join("\n"))
        } else if first.starts_with("Object is a Node Set") {
            let mut nodes = Vec::new();
            for l in &rest[1..] {
                let Some((num, entry)) = l.split_once("  ") else {
                    continue;
                };
                if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                let mut parts = entry.split_whitespace();
                let kind = parts.next().unwrap_or("/").to_string();
                let name = unescape_name(parts.next().unwrap_or(""));
                let (kind, name) = match kind.as_str() {
                    "CDATA_SECTION" => ("TEXT".to_string(), String::new()),
                    "ELEMENT" | "ATTRIBUTE" | "PI" | "namespace" => (kind, name),
                    _ => (kind, String::new()),
                };
                nodes.push((kind, name));
            }
            sort_namespace_runs(&mut nodes);
            Expected::Nodes(nodes)
        } else {
            Expected::String(format!("unreadable dump: {first}"))
        };
        out.push((expr.to_string(), expected));
    }
    out
}

/// libxml2 prints non-ASCII bytes of names as `#XX`.
fn unescape_name(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 1..i + 3).and_then(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        });
        match hex {
            Some(v) if b[i] == b'#' => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The order of an element's namespace nodes is implementation-defined (XPath 1.0 section
/// 5): runs of namespace nodes compare as sets.
fn sort_namespace_runs(nodes: &mut [(String, String)]) {
    let mut i = 0;
    while i < nodes.len() {
        let j = i + nodes[i..]
            .iter()
            .take_while(|(k, _)| k == "namespace")
            .count();
        nodes[i..j].sort();
        i = j.max(i + 1);
    }
}

/// The (kind, name) libxml2 prints for a node.
fn node_entry<N: Navigator>(nav: &N, n: N::Node) -> (String, String) {
    let (k, name) = match nav.kind(n) {
        NodeKind::Document => ("/", String::new()),
        NodeKind::Element | NodeKind::Attribute => {
            let kind = if nav.kind(n) == NodeKind::Element {
                "ELEMENT"
            } else {
                "ATTRIBUTE"
            };
            // libxml2 prints the local name of elements and attributes.
            (kind, nav.local_name(n).to_string())
        }
        NodeKind::Namespace => ("namespace", nav.local_name(n).to_string()),
        NodeKind::Text => ("TEXT", String::new()),
        NodeKind::Comment => ("COMMENT", String::new()),
        NodeKind::Pi => ("PI", nav.local_name(n).to_string()),
    };
    (k.to_string(), name)
}

fn check_libxml2<N: Navigator>(
    nav: &N,
    context: N::Node,
    expr: &str,
    expected: &Expected,
) -> Outcome {
    let result = XPath::compile(expr)
        .map_err(|e| e.to_string())
        .and_then(|xp| xp.evaluate(nav, context).map_err(|e| e.to_string()));
    let v = match (result, expected) {
        (Err(_), Expected::Error) => return Outcome::Pass,
        (Ok(v), Expected::Error) => {
            return Outcome::Fail(format!("expected an error, got {}", describe(nav, &v)))
        }
        (Err(e), _) => return Outcome::Fail(e),
        (Ok(v), _) => v,
    };
    let ok = match (expected, &v) {
        (Expected::Number(s), Value::Number(n)) => same_number(s, *n),
        (Expected::Boolean(b), Value::Boolean(c)) => b == c,
        (Expected::String(s), Value::String(t)) => s == t,
        (Expected::Nodes(want), Value::NodeSet(got)) => {
            let mut got: Vec<_> = got.iter().map(|&n| node_entry(nav, n)).collect();
            sort_namespace_runs(&mut got);
            if &got != want {
                return Outcome::Fail(format!("expected nodes {want:?}, got {got:?}"));
            }
            true
        }
        _ => false,
    };
    if ok {
        Outcome::Pass
    } else {
        Outcome::Fail(format!("expected {expected:?}, got {}", describe(nav, &v)))
    }
}

/// Whether libxml2's printed number `s` is `n` (libxml2 prints 15 significant digits and
/// uses exponents for very large and small numbers).
fn same_number(s: &str, n: f64) -> bool {
    let want = match s {
        "NaN" => return n.is_nan(),
        "Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        _ => match s.parse::<f64>() {
            Ok(w) => w,
            Err(_) => return false,
        },
    };
    if want == n {
        return true;
    }
    // In exponent form libxml2 prints 6 significant digits, otherwise up to 15.
    let precision = if s.contains('e') { 1e-5 } else { 1e-14 };
    want.is_finite() && n.is_finite() && ((want - n).abs() <= precision * want.abs().max(n.abs()))
}

fn sorted_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The libxml2 tests below `dir` (the folder holding `test/` and `result/`).
pub fn libxml2_tests<M: Model>(dir: &Path) -> Result<Vec<TestResult>, String> {
    let test_dir = dir.join("test/XPath");
    let result_dir = dir.join("result/XPath");
    let docs: Vec<String> = sorted_files(&test_dir.join("docs"))
        .iter()
        .map(|p| file_name(p))
        .collect();
    let trivial = M::parse(b"<doc/>")?;
    let mut out = Vec::new();
    for sub in ["expr", "tests"] {
        for file in sorted_files(&test_dir.join(sub)) {
            let name = file_name(&file);
            let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
            let dump =
                std::fs::read_to_string(result_dir.join(sub).join(&name)).unwrap_or_default();
            let mut expected = parse_dump(&dump).into_iter();
            let doc = if sub == "expr" {
                None
            } else {
                docs.iter()
                    .filter(|d| name.starts_with(d.as_str()))
                    .max_by_key(|d| d.len())
                    .map(|d| {
                        std::fs::read(test_dir.join("docs").join(d))
                            .map_err(|e| e.to_string())
                            .and_then(|b| M::parse(&b))
                    })
            };
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let id = format!("libxml2/{sub}/{name}:{}", i + 1);
                let outcome = match (expected.next(), &doc) {
                    (None, _) => Outcome::Skip("no expected result in the dump".into()),
                    (Some((e, _)), _) if e != line => {
                        Outcome::Fail(format!("dump out of step: {e:?} for {line:?}"))
                    }
                    (_, Some(Err(e))) => Outcome::Fail(format!("document: {e}")),
                    (Some((_, want)), doc) => {
                        let m = match doc {
                            Some(Ok(d)) => d,
                            _ => &trivial,
                        };
                        let nav = m.nav();
                        guarded(|| {
                            let context = first_element(nav).unwrap_or(nav.root());
                            check_libxml2(nav, context, line, &want)
                        })
                    }
                };
                out.push(TestResult { id, outcome });
            }
        }
    }
    for file in sorted_files(&test_dir.join("xptr")) {
        out.push(TestResult {
            id: format!("libxml2/xptr/{}", file_name(&file)),
            outcome: Outcome::Skip("XPointer, not XPath".into()),
        });
    }
    Ok(out)
}

/// The root element (libxml2's test context node).
fn first_element<N: Navigator>(nav: &N) -> Option<N::Node> {
    let mut c = nav.first_child(nav.root());
    while let Some(n) = c {
        if nav.kind(n) == NodeKind::Element {
            return Some(n);
        }
        c = nav.next_sibling(n);
    }
    None
}
