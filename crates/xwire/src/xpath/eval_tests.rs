//! Evaluator tests over the tree: axes, node tests, predicates, operators, every core
//! function, conversions and errors.

use super::*;
use crate::tree::{Document, Handle};

const DOC: &str = r#"<?xml version="1.0"?>
<!--c0-->
<r xmlns:p="urn:p" xml:lang="en-GB">
  <a id="a1" n="1">one<b n="2">two</b><b n="3"/><?pi data?></a>
  <a id="a2" n="4" p:x="y"><c><d/><!--c1--></c><b n="5">five</b></a>
  <p:e p:n="6"/>
  <f xml:lang="fr">x</f>
</r>"#;

fn doc() -> Document {
    Document::parse(DOC.as_bytes()).unwrap()
}

fn ns() -> Namespaces {
    Namespaces::new().with("p", "urn:p")
}

fn eval(doc: &Document, e: &str) -> Value<Handle> {
    let xp = XPath::compile_with(e, &ns()).unwrap_or_else(|err| panic!("{e}: {err}"));
    xp.evaluate(doc, Navigator::root(doc))
        .unwrap_or_else(|err| panic!("{e}: {err}"))
}

fn string(e: &str) -> String {
    let d = doc();
    eval(&d, e).to_string(&d)
}

fn number(e: &str) -> f64 {
    let d = doc();
    eval(&d, e).to_number(&d)
}

fn boolean(e: &str) -> bool {
    eval(&doc(), e).to_boolean()
}

/// A short description of each selected node: element/attribute names, `#text:...`, etc.
fn names(e: &str) -> Vec<String> {
    let d = doc();
    let Value::NodeSet(v) = eval(&d, e) else {
        panic!("{e}: not a node-set")
    };
    v.iter()
        .map(|&n| match Navigator::kind(&d, n) {
            NodeKind::Document => "/".to_string(),
            NodeKind::Element => Navigator::local_name(&d, n).to_string(),
            NodeKind::Attribute => format!("@{}", Navigator::local_name(&d, n)),
            NodeKind::Namespace => format!("ns:{}", Navigator::local_name(&d, n)),
            NodeKind::Text => format!("#{}", Navigator::string_value(&d, n)),
            NodeKind::Comment => format!("!{}", Navigator::string_value(&d, n)),
            NodeKind::Pi => format!("?{}", Navigator::local_name(&d, n)),
        })
        .collect()
}

fn ids(e: &str) -> Vec<String> {
    let d = doc();
    let Value::NodeSet(v) = eval(&d, e) else {
        panic!("{e}: not a node-set")
    };
    v.iter()
        .map(|&n| {
            let mut a = Navigator::first_attribute(&d, n);
            while let Some(x) = a {
                if Navigator::local_name(&d, x) == "n" {
                    return Navigator::string_value(&d, x).into_owned();
                }
                a = Navigator::next_attribute(&d, x);
            }
            Navigator::local_name(&d, n).to_string()
        })
        .collect()
}

#[test]
fn child_and_descendant() {
    assert_eq!(names("/r/a"), ["a", "a"]);
    assert_eq!(names("/r/*"), ["a", "a", "e", "f"]);
    assert_eq!(ids("//b"), ["2", "3", "5"]);
    assert_eq!(ids("/r//b"), ["2", "3", "5"]);
    assert_eq!(ids("//a/b"), ["2", "3", "5"]);
    assert_eq!(ids("//a/descendant::*"), ["2", "3", "c", "d", "5"]);
    assert_eq!(names("/r/a[1]/node()"), ["#one", "b", "b", "?pi"]);
    assert_eq!(names("/r/a[1]/text()"), ["#one"]);
    assert_eq!(names("//comment()"), ["!c0", "!c1"]);
    assert_eq!(names("/comment()"), ["!c0"]);
    assert_eq!(names("//processing-instruction('pi')"), ["?pi"]);
    assert_eq!(names("//processing-instruction('x')").len(), 0);
    assert_eq!(names("//processing-instruction()"), ["?pi"]);
    assert_eq!(names("/"), ["/"]);
    assert_eq!(names("/descendant-or-self::node()").len(), 23);
}

#[test]
fn reverse_axes_and_positions() {
    // Proximity positions count backwards on reverse axes; results are in document order.
    assert_eq!(ids("//d/ancestor::*"), ["r", "4", "c"]);
    assert_eq!(ids("//d/ancestor::*[1]"), ["c"]);
    assert_eq!(ids("//d/ancestor::*[last()]"), ["r"]);
    assert_eq!(ids("//d/ancestor-or-self::*[1]"), ["d"]);
    assert_eq!(ids("//b[@n='5']/preceding::*"), ["1", "2", "3", "c", "d"]);
    assert_eq!(ids("//b[@n='5']/preceding::*[1]"), ["d"]);
    assert_eq!(ids("//b[@n='5']/preceding::b[1]"), ["3"]);
    assert_eq!(ids("//b[@n='3']/preceding-sibling::*[1]"), ["2"]);
    assert_eq!(ids("//b[@n='2']/following-sibling::*"), ["3"]);
    assert_eq!(
        ids("//b[@n='2']/following::*"),
        ["3", "4", "c", "d", "5", "6", "f"]
    );
    assert_eq!(ids("//b[@n='2']/following::*[2]"), ["4"]);
    assert_eq!(ids("//d/parent::*"), ["c"]);
    assert_eq!(ids("//d/.."), ["c"]);
    assert_eq!(ids("//b/.."), ["1", "4"]);
    assert_eq!(ids("//b/self::b"), ["2", "3", "5"]);
    assert_eq!(ids("//b/self::a"), Vec::<String>::new());
    // Attributes: following includes the owner's descendants, preceding excludes the owner.
    assert_eq!(ids("/r/a[1]/@id/following::b"), ["2", "3", "5"]);
    assert_eq!(ids("/r/a[2]/@id/preceding::*"), ["1", "2", "3"]);
    assert_eq!(ids("/r/a[2]/@id/ancestor::*"), ["r", "4"]);
    assert_eq!(names("//b[1]/@n/following-sibling::node()").len(), 0);
}

#[test]
fn attributes_and_namespaces() {
    assert_eq!(names("/r/a/@*"), ["@id", "@n", "@id", "@n", "@x"]);
    assert_eq!(names("//@p:*"), ["@x", "@n"]);
    assert_eq!(names("//p:*"), ["e"]);
    assert_eq!(names("//@p:n"), ["@n"]);
    assert_eq!(string("//@p:x"), "y");
    assert_eq!(names("/r/namespace::*"), ["ns:p", "ns:xml"]);
    assert_eq!(names("/r/namespace::p"), ["ns:p"]);
    assert_eq!(string("/r/namespace::p"), "urn:p");
    assert_eq!(string("name(/r/namespace::p)"), "p");
    assert_eq!(string("local-name(/r/namespace::xml)"), "xml");
    assert_eq!(names("/r/namespace::p/parent::*"), ["r"]);
    assert_eq!(names("/r/a/attribute::node()").len(), 5);
    assert_eq!(names("/r/a/@*/self::node()").len(), 5);
    assert_eq!(names("/r/a/@id/text()").len(), 0);
    assert_eq!(names("//attribute::*[name() = 'p:n']"), ["@n"]);
}

#[test]
fn predicates() {
    assert_eq!(ids("//b[2]"), ["3"]);
    assert_eq!(ids("(//b)[2]"), ["3"]);
    assert_eq!(ids("(//b)[last()]"), ["5"]);
    assert_eq!(ids("//b[last()]"), ["3", "5"]);
    assert_eq!(ids("//b[position() = 1]"), ["2", "5"]);
    assert_eq!(ids("//b[position() > 1]"), ["3"]);
    assert_eq!(ids("//b[@n > 2][1]"), ["3", "5"]);
    assert_eq!(ids("(//b[@n > 2])[1]"), ["3"]);
    assert_eq!(ids("//a[b = 'two']"), ["1"]);
    assert_eq!(ids("//a[.//d]"), ["4"]);
    assert_eq!(ids("//*[@n][2]"), ["3", "4"]);
    assert_eq!(ids("//b[1.5]"), Vec::<String>::new());
    assert_eq!(ids("//b[true()]"), ["2", "3", "5"]);
    assert_eq!(ids("//b[0]"), Vec::<String>::new());
    assert_eq!(ids("//b[last() - 1]"), ["2"]);
    assert_eq!(ids("/r/a[2]/*[2]"), ["5"]);
    assert_eq!(ids("//a[b][2]"), ["4"]);
    assert_eq!(ids("//*[self::b or self::c][3]"), Vec::<String>::new());
    assert_eq!(ids("//*[self::b or self::c]"), ["2", "3", "c", "5"]);
}

#[test]
fn unions() {
    assert_eq!(ids("//b | //a"), ["1", "2", "3", "4", "5"]);
    assert_eq!(ids("//b[2] | //b | /r"), ["r", "2", "3", "5"]);
    assert_eq!(ids("(//b | //c)/.."), ["1", "4"]);
    assert_eq!(names("//@id | /r/a"), ["a", "@id", "a", "@id"]);
}

#[test]
fn nested_descendants_are_deduplicated() {
    let d = Document::parse(b"<x><x><x><y/></x><y/></x></x>").unwrap();
    let count = |e: &str| eval(&d, e).as_node_set().unwrap().len();
    assert_eq!(count("//x//y"), 2);
    assert_eq!(count("//x/descendant::y"), 2);
    assert_eq!(count("//x/descendant-or-self::x"), 3);
    assert_eq!(count("//x//y[1]"), 2);
    assert_eq!(count("//x/y[1]"), 2);
    assert_eq!(count("//x/descendant::y[1]"), 1);
    assert_eq!(count("//x/descendant::y[2]"), 1);
    assert_eq!(count("//x/ancestor::x"), 2);
    assert_eq!(count("//y/ancestor::*"), 3);
    assert_eq!(count("//y/following::*"), 1);
}

#[test]
fn comparisons() {
    assert!(boolean("//b/@n = 3"));
    assert!(boolean("//b/@n != 3"));
    assert!(!boolean("(//b)[1]/@n != 2"));
    assert!(boolean("//b/@n > 4"));
    assert!(!boolean("//b/@n > 5"));
    assert!(boolean("5 > //b/@n"));
    assert!(boolean("//b/@n < //a/@n"));
    assert!(!boolean("//a/@n = //b/@n"));
    assert!(boolean("//b = 'five'"));
    assert!(boolean("//b = //b"));
    assert!(!boolean("//nothing = //nothing"));
    assert!(!boolean("//nothing != //nothing"));
    assert!(boolean("//nothing = false()"));
    assert!(boolean("//b = true()"));
    assert!(boolean("true() = 1"));
    assert!(boolean("'1' = 1.0"));
    assert!(!boolean("'abc' = 'abd'"));
    assert!(boolean("'abc' != 'abd'"));
    assert!(!boolean("'2' > '10'"));
    assert!(boolean("true() > false()"));
    assert!(!boolean("0 div 0 = 0 div 0"));
    assert!(boolean("0 div 0 != 0 div 0"));
    assert!(!boolean("//nothing < 1"));
    assert!(boolean("//nothing < true()"));
}

#[test]
fn arithmetic() {
    assert_eq!(number("1 + 2 * 3"), 7.0);
    assert_eq!(number("7 mod 3"), 1.0);
    assert_eq!(number("-7 mod 3"), -1.0);
    assert_eq!(number("7 mod -3"), 1.0);
    assert_eq!(number("5.5 mod 2"), 1.5);
    assert!(number("1 mod 0").is_nan());
    assert_eq!(number("1 div 0"), f64::INFINITY);
    assert_eq!(number("-1 div 0"), f64::NEG_INFINITY);
    assert!(number("0 div 0").is_nan());
    assert_eq!(string("-(//b/@n)"), "-2");
    assert_eq!(string("- - 3"), "3");
    assert_eq!(number("//b[1]/@n * 10"), 20.0);
    assert!(number("'x' + 1").is_nan());
    assert_eq!(string("1 div -0 "), "-Infinity");
    assert_eq!(string("0 * -1"), "0");
}

#[test]
fn number_formatting() {
    for (e, s) in [
        ("1", "1"),
        ("-1", "-1"),
        ("1.5", "1.5"),
        ("0.1 + 0.2", "0.30000000000000004"),
        ("1 div 3", "0.3333333333333333"),
        (
            "1000000 * 1000000 * 1000000 * 1000",
            "1000000000000000000000",
        ),
        ("0.0000001", "0.0000001"),
        ("0 div 0", "NaN"),
        ("1 div 0", "Infinity"),
        ("-0", "0"),
        ("number('')", "NaN"),
        ("number(' 12 ')", "12"),
        ("number('1e2')", "NaN"),
        ("number('-.5')", "-0.5"),
        ("number('5.')", "5"),
        ("number('- 5')", "NaN"),
        ("number('.')", "NaN"),
        ("number(true())", "1"),
    ] {
        assert_eq!(string(e), s, "{e}");
    }
}

#[test]
fn string_functions() {
    for (e, s) in [
        ("string(/r/a[1])", "onetwo"),
        ("string(//b)", "two"),
        ("string(//nothing)", ""),
        ("string(true())", "true"),
        ("concat('a', 1, true(), //b)", "a1truetwo"),
        ("substring-before('1999/04/01', '/')", "1999"),
        ("substring-after('1999/04/01', '/')", "04/01"),
        ("substring-after('abc', '')", "abc"),
        ("substring-before('abc', '')", ""),
        ("substring-after('abc', 'x')", ""),
        ("substring('12345', 2, 3)", "234"),
        ("substring('12345', 2)", "2345"),
        ("substring('12345', 1.5, 2.6)", "234"),
        ("substring('12345', 0, 3)", "12"),
        ("substring('12345', 0 div 0, 3)", ""),
        ("substring('12345', 1, 0 div 0)", ""),
        ("substring('12345', -42, 1 div 0)", "12345"),
        ("substring('12345', -1 div 0, 1 div 0)", ""),
        ("substring('12345', -1)", "12345"),
        ("substring('ééé', 2, 1)", "é"),
        ("normalize-space('  a \t b\n\nc  ')", "a b c"),
        ("normalize-space('')", ""),
        ("translate('bar', 'abc', 'ABC')", "BAr"),
        ("translate('--aaa--', 'abc-', 'ABC')", "AAA"),
        ("translate('aba', 'aa', 'xy')", "xbx"),
        ("local-name(//@p:x)", "x"),
        ("name(//@p:x)", "p:x"),
        ("namespace-uri(//@p:x)", "urn:p"),
        ("name(//p:e)", "p:e"),
        ("namespace-uri(/r)", ""),
        ("name(/)", ""),
        ("name(//comment())", ""),
        ("name(//processing-instruction())", "pi"),
        ("local-name(//nothing)", ""),
        ("string(//processing-instruction())", "data"),
    ] {
        assert_eq!(string(e), s, "{e}");
    }
    assert_eq!(number("string-length('ééé')"), 3.0);
    assert_eq!(number("string-length(//b)"), 3.0);
    assert!(boolean("starts-with('abc', 'ab')"));
    assert!(boolean("starts-with('abc', '')"));
    assert!(!boolean("starts-with('abc', 'b')"));
    assert!(boolean("contains('abc', 'bc')"));
    assert!(!boolean("contains('abc', 'cb')"));
}

#[test]
fn context_defaults() {
    let d = doc();
    let b = XPath::compile("//b[1]")
        .unwrap()
        .select(&d, Navigator::root(&d))
        .unwrap()[0];
    let at = |e: &str| {
        XPath::compile(e)
            .unwrap()
            .evaluate(&d, b)
            .unwrap()
            .to_string(&d)
    };
    assert_eq!(at("string()"), "two");
    assert_eq!(at("string-length()"), "3");
    assert_eq!(at("name()"), "b");
    assert_eq!(at("local-name()"), "b");
    assert_eq!(at("namespace-uri()"), "");
    assert_eq!(at("normalize-space()"), "two");
    assert_eq!(at("number()"), "NaN");
    assert_eq!(at("number(@n)"), "2");
    assert_eq!(at("position()"), "1");
    assert_eq!(at("last()"), "1");
    assert_eq!(at("count(../*)"), "2");
    assert_eq!(at("name(/*)"), "r");
}

#[test]
fn boolean_and_number_functions() {
    assert!(boolean("boolean(//b)"));
    assert!(!boolean("boolean(//nothing)"));
    assert!(!boolean("boolean(0)"));
    assert!(!boolean("boolean(0 div 0)"));
    assert!(boolean("boolean(-1)"));
    assert!(!boolean("boolean('')"));
    assert!(boolean("boolean('false')"));
    assert!(boolean("not(false())"));
    assert!(boolean("true() and not(false() or false())"));
    assert_eq!(number("count(//b)"), 3.0);
    assert_eq!(number("count(//b | //a)"), 5.0);
    assert_eq!(number("sum(//b/@n)"), 10.0);
    assert!(number("sum(//b)").is_nan());
    assert_eq!(number("sum(//nothing)"), 0.0);
    assert_eq!(number("floor(-1.5)"), -2.0);
    assert_eq!(number("ceiling(-1.5)"), -1.0);
    assert_eq!(number("ceiling(1.1)"), 2.0);
    assert_eq!(number("round(2.5)"), 3.0);
    assert_eq!(number("round(-2.5)"), -2.0);
    assert_eq!(number("round(0.49999999999999994)"), 0.0);
    let neg_zero = number("round(-0.5)");
    assert!(neg_zero == 0.0 && neg_zero.is_sign_negative());
    assert!(number("round(-0.2)").is_sign_negative());
    assert!(number("round(0 div 0)").is_nan());
    assert_eq!(number("round(1 div 0)"), f64::INFINITY);
    assert_eq!(string("1 div round(-0.5)"), "-Infinity");
    assert_eq!(number("last()"), 1.0);
    assert_eq!(number("position()"), 1.0);
}

#[test]
fn lang() {
    assert_eq!(
        ids("//*[lang('en')]"),
        ["r", "1", "2", "3", "4", "c", "d", "5", "6"]
    );
    assert_eq!(ids("//*[lang('EN-gb')]").len(), 9);
    assert_eq!(ids("//*[lang('fr')]"), ["f"]);
    assert_eq!(ids("//*[lang('e')]").len(), 0);
    assert!(boolean("//f/text()[lang('fr')]"));
    assert!(!boolean("lang('en')"));
}

#[test]
fn variables() {
    let d = doc();
    let xp = XPath::compile("$x + count($set) + string-length($s)").unwrap();
    let set = XPath::compile("//b")
        .unwrap()
        .select(&d, Navigator::root(&d))
        .unwrap();
    let vars = Variables::new()
        .with("x", Value::Number(1.0))
        .with("set", Value::NodeSet(set))
        .with("s", Value::String("abc".into()));
    let v = xp.evaluate_with(&d, Navigator::root(&d), &vars).unwrap();
    assert_eq!(v, Value::Number(7.0));
    let xp = XPath::compile("$set[2]/@n").unwrap();
    let v = xp.evaluate_with(&d, Navigator::root(&d), &vars).unwrap();
    assert_eq!(v.to_string(&d), "3");
    let err = XPath::compile("$nope")
        .unwrap()
        .evaluate(&d, Navigator::root(&d));
    assert_eq!(err.unwrap_err().kind(), XPathErrorKind::UndefinedVariable);
    let mut vars = Variables::new();
    vars.insert_ns("urn:p", "v", Value::Boolean(true));
    let xp = XPath::compile_with("$p:v", &ns()).unwrap();
    assert_eq!(
        xp.evaluate_with(&d, Navigator::root(&d), &vars).unwrap(),
        Value::Boolean(true)
    );
}

#[test]
fn errors() {
    let d = doc();
    for (e, kind) in [
        ("1/a", XPathErrorKind::NodeSetExpected),
        ("'x'[1]", XPathErrorKind::NodeSetExpected),
        ("1 | //a", XPathErrorKind::NodeSetExpected),
        ("//a | 1", XPathErrorKind::NodeSetExpected),
        ("count(1)", XPathErrorKind::NodeSetExpected),
        ("sum('a')", XPathErrorKind::NodeSetExpected),
        ("local-name(1)", XPathErrorKind::NodeSetExpected),
        ("p:f()", XPathErrorKind::UnknownFunction),
        ("$v", XPathErrorKind::UndefinedVariable),
    ] {
        let err = XPath::compile_with(e, &ns())
            .unwrap()
            .evaluate(&d, Navigator::root(&d))
            .unwrap_err();
        assert_eq!(err.kind(), kind, "{e}");
        assert!(!err.to_string().is_empty());
    }
    let err = XPath::compile("1 + 1")
        .unwrap()
        .select(&d, Navigator::root(&d))
        .unwrap_err();
    assert_eq!(err.to_string(), "expected a node-set, found a number");
}

#[test]
fn extension_functions() {
    let d = doc();
    let mut functions = Functions::new();
    functions.insert("urn:p", "twice", |fc, args| {
        let n = args[0].to_number(fc.nav);
        Ok(Value::Number(2.0 * n))
    });
    functions.insert("", "here", |fc, _| Ok(Value::NodeSet(vec![fc.node])));
    let xp = XPath::compile_with_functions("p:twice(count(//b)) + count(here())", &ns(), &["here"])
        .unwrap();
    let v = Evaluator::new()
        .with_functions(&functions)
        .evaluate(&xp, &d, Navigator::root(&d))
        .unwrap();
    assert_eq!(v, Value::Number(7.0));
    assert!(XPath::compile("here()").is_err());
}

#[test]
fn deep_expressions_do_not_overflow() {
    // The parser's depth budget bounds the evaluator's recursion: whatever compiles on the
    // default 2 MiB test stack evaluates on a stack of the same size (debug build).
    let exprs = [
        format!("{}1{}", "(".repeat(127), ")".repeat(127)),
        format!("{}1", "-".repeat(1000)),
        format!("1{}", " + 1".repeat(1000)),
        format!("1{}", " = 1".repeat(1000)),
        format!("//*{}", "[*".repeat(127) + &"]".repeat(127)),
        format!("{}1{}", "not(".repeat(127), ")".repeat(127)),
        format!("{}1{}", "(/)[".repeat(127), "]".repeat(127)),
    ];
    let compiled: Vec<XPath> = exprs
        .iter()
        .filter_map(|e| XPath::compile(e).ok())
        .collect();
    assert_eq!(compiled.len(), exprs.len());
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let d = doc();
            for xp in &compiled {
                let _ = xp.evaluate(&d, Navigator::root(&d));
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn evaluator_reuse() {
    let d = doc();
    let xp = XPath::compile("//b[@n > 2]").unwrap();
    let mut ev = Evaluator::new();
    for _ in 0..3 {
        assert_eq!(ev.select(&xp, &d, Navigator::root(&d)).unwrap().len(), 2);
    }
}

#[test]
fn exponent_literals_are_an_extension_of_the_lexer_only() {
    assert_eq!(number("1.23e3"), 1230.0);
    assert_eq!(number("1E-2 * 100"), 1.0);
    assert_eq!(number("2e+1"), 20.0);
    assert_eq!(number("1e400"), f64::INFINITY);
    assert_eq!(number("1e-400"), 0.0);
    // A name after a number without digits after `e` is still no exponent.
    assert!(XPath::compile("2e").is_err());
    assert!(XPath::compile("1 div 2ex").is_err());
    // Strings convert by XPath 1.0's rules: no exponent.
    assert!(number("number('1e3')").is_nan());
}
