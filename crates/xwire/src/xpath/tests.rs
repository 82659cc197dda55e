use super::*;

fn c(s: &str) -> XPath {
    match XPath::compile(s) {
        Ok(x) => x,
        Err(e) => panic!("{s:?} failed: {e}"),
    }
}

fn unabbrev(s: &str) -> String {
    c(s).to_string()
}

fn err(s: &str) -> XPathError {
    match XPath::compile(s) {
        Ok(x) => panic!("{s:?} compiled to {x}"),
        Err(e) => e,
    }
}

/// Prints, re-parses and compares the trees.
fn round_trip(s: &str, ns: &Namespaces) {
    let x = XPath::compile_with(s, ns).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    let printed = x.to_string();
    let y = XPath::compile_with(&printed, ns)
        .unwrap_or_else(|e| panic!("{s:?} printed as {printed:?}: {e}"));
    assert_eq!(x.expr(), y.expr(), "{s:?} printed as {printed:?}");
}

#[test]
fn star_disambiguation() {
    assert_eq!(unabbrev("*"), "child::*");
    assert_eq!(unabbrev("* * *"), "child::* * child::*");
    assert_eq!(unabbrev("a*b"), "child::a * child::b");
    assert_eq!(unabbrev("child::*"), "child::*");
    assert_eq!(unabbrev("@*"), "attribute::*");
    assert_eq!(unabbrev("*[*]"), "child::*[child::*]");
    assert_eq!(unabbrev("(*)*(*)"), "child::* * child::*");
}

#[test]
fn operator_names_disambiguation() {
    assert_eq!(unabbrev("div div div"), "child::div div child::div");
    assert_eq!(unabbrev("and and and"), "child::and and child::and");
    assert_eq!(unabbrev("or or or"), "child::or or child::or");
    assert_eq!(unabbrev("mod mod mod"), "child::mod mod child::mod");
    assert_eq!(unabbrev("div/div"), "child::div/child::div");
    assert_eq!(
        unabbrev("a and b or c"),
        "child::a and child::b or child::c"
    );
    assert_eq!(
        unabbrev("@div and @mod"),
        "attribute::div and attribute::mod"
    );
    assert_eq!(err("a b").kind(), XPathErrorKind::UnexpectedToken);
}

#[test]
fn abbreviations() {
    assert_eq!(
        unabbrev("//para[last()]"),
        "/descendant-or-self::node()/child::para[last()]"
    );
    assert_eq!(unabbrev("../@lang"), "parent::node()/attribute::lang");
    assert_eq!(unabbrev("."), "self::node()");
    assert_eq!(unabbrev("/"), "/");
    assert_eq!(
        unabbrev("a//b"),
        "child::a/descendant-or-self::node()/child::b"
    );
    assert_eq!(unabbrev("$v//b"), "$v/descendant-or-self::node()/child::b");
    assert_eq!(
        unabbrev("processing-instruction('x')"),
        "child::processing-instruction('x')"
    );
    assert_eq!(
        unabbrev("text() | comment()"),
        "child::text() | child::comment()"
    );
    assert_eq!(unabbrev("a|b|c"), "child::a | child::b | child::c");
    assert_eq!(unabbrev("$var"), "$var");
    assert_eq!(
        unabbrev("(//a)[1]"),
        "(/descendant-or-self::node()/child::a)[1]"
    );
}

#[test]
fn unary_minus_and_folding() {
    assert_eq!(c("-1 - -1").expr(), &Expr::Number(0.0));
    assert_eq!(c("1 + 2 * 3").expr(), &Expr::Number(7.0));
    assert_eq!(c("7 mod -2").expr(), &Expr::Number(1.0));
    assert_eq!(c(".5").expr(), &Expr::Number(0.5));
    assert_eq!(c("1.").expr(), &Expr::Number(1.0));
    assert_eq!(unabbrev("1 div 0"), "1 div 0");
    assert_eq!(unabbrev("-a"), "-child::a");
    assert_eq!(unabbrev("- - a"), "--child::a");
    assert_eq!(unabbrev("-(a + 1)"), "-(child::a + 1)");
    assert_eq!(unabbrev("a - -1"), "child::a - -1");
    assert_eq!(unabbrev("(-1) | a"), "(-1) | child::a");
}

#[test]
fn all_axes() {
    for a in Axis::ALL {
        let s = format!("{}::node()", a.name());
        let x = c(&s);
        assert_eq!(x.to_string(), s);
        match x.expr() {
            Expr::Path { steps, .. } => assert_eq!(steps[0].axis, a),
            e => panic!("{e:?}"),
        }
    }
    let e = err("foo::bar");
    assert_eq!(
        (e.kind(), e.position()),
        (XPathErrorKind::UnknownAxis, Some(0))
    );
}

#[test]
fn namespaces() {
    let ns = Namespaces::new().with("f", "urn:f");
    let x = XPath::compile_with("f:g() + count(f:*) + $f:v", &ns).unwrap();
    assert_eq!(x.to_string(), "f:g() + count(child::f:*) + $f:v");
    match x.expr() {
        Expr::Binary(_, l, _) => match &**l {
            Expr::Binary(_, f, _) => match &**f {
                Expr::Function { name, .. } => {
                    assert_eq!(name.uri.as_deref(), Some("urn:f"));
                    assert_eq!(name.local, "g");
                }
                e => panic!("{e:?}"),
            },
            e => panic!("{e:?}"),
        },
        e => panic!("{e:?}"),
    }
    let e = err("a/f:g");
    assert_eq!(
        (e.kind(), e.position()),
        (XPathErrorKind::UndeclaredPrefix, Some(2))
    );
    let e = err("1 + f:g()");
    assert_eq!(
        (e.kind(), e.position()),
        (XPathErrorKind::UndeclaredPrefix, Some(4))
    );
    // `xml` is always bound.
    c("@xml:lang");
}

#[test]
fn positional_predicates() {
    let pos = |s: &str| match c(s).expr() {
        Expr::Path { steps, .. } => steps.last().unwrap().predicates[0].position,
        e => panic!("{e:?}"),
    };
    assert_eq!(pos("a[1]"), Some(1));
    assert_eq!(pos("a[position() = 3]"), Some(3));
    assert_eq!(pos("a[2 = position()]"), Some(2));
    assert_eq!(pos("a[1 + 1]"), Some(2));
    assert_eq!(pos("a[1.5]"), None);
    assert_eq!(pos("a[0]"), None);
    assert_eq!(pos("a[last()]"), None);
}

#[test]
fn error_positions() {
    let cases: &[(&str, XPathErrorKind, usize)] = &[
        ("", XPathErrorKind::Empty, 0),
        ("   ", XPathErrorKind::Empty, 0),
        ("string-length('a", XPathErrorKind::UnterminatedLiteral, 14),
        ("/numbers numbers", XPathErrorKind::UnexpectedToken, 9),
        ("/a/b[c > d]efg", XPathErrorKind::UnexpectedToken, 11),
        ("/inv/child::", XPathErrorKind::UnexpectedToken, 12),
        ("/invoice/@test[abcd", XPathErrorKind::UnexpectedToken, 19),
        ("/descendant::()", XPathErrorKind::UnexpectedToken, 13),
        ("(1 + 1", XPathErrorKind::UnexpectedToken, 6),
        ("1 +", XPathErrorKind::UnexpectedToken, 3),
        ("a)", XPathErrorKind::TrailingInput, 1),
        ("foo(1)", XPathErrorKind::UnknownFunction, 0),
        ("1 + count()", XPathErrorKind::ArgumentCount, 4),
        ("concat('a')", XPathErrorKind::ArgumentCount, 0),
        ("substring('a', 1, 2, 3)", XPathErrorKind::ArgumentCount, 0),
        ("a ! b", XPathErrorKind::UnexpectedToken, 2),
        ("a : b", XPathErrorKind::UnexpectedToken, 2),
        ("$", XPathErrorKind::UnexpectedToken, 1),
        ("a #", XPathErrorKind::UnexpectedToken, 2),
        ("./[1]", XPathErrorKind::UnexpectedToken, 2),
        (".[1]", XPathErrorKind::TrailingInput, 1),
        ("//", XPathErrorKind::UnexpectedToken, 2),
        (
            "processing-instruction(1)",
            XPathErrorKind::UnexpectedToken,
            23,
        ),
    ];
    for &(s, kind, pos) in cases {
        let e = err(s);
        assert_eq!((e.kind(), e.position()), (kind, Some(pos)), "{s:?}: {e}");
    }
}

#[test]
fn error_display_has_caret() {
    let e = err("a/é b");
    assert_eq!(e.position(), Some(5));
    assert_eq!(
        e.to_string(),
        "expected an operator, found name 'b'\n  a/é b\n      ^"
    );
}

#[test]
fn deep_nesting_is_an_error() {
    for s in [
        "(".repeat(100_000),
        format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
        "-".repeat(100_000) + "1",
        "a[".repeat(100_000),
        "f(".repeat(100_000),
        "1+".repeat(100_000) + "1",
        "a|".repeat(100_000) + "a",
    ] {
        // Run in a thread with a small stack, as a server worker might: 512 KB is enough for
        // the depth budget in an optimised build; unoptimised frames are several times larger.
        let stack = if cfg!(debug_assertions) {
            4 << 20
        } else {
            512 << 10
        };
        let r = std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || XPath::compile(&s).map(|_| ()).map_err(|e| e.kind()))
            .unwrap()
            .join()
            .unwrap();
        assert!(r.is_err(), "compiled");
    }
    let e = err(&"(".repeat(1000));
    assert_eq!(e.kind(), XPathErrorKind::TooDeep);
    // Reasonable nesting is fine.
    c(&format!("{}1{}", "(".repeat(100), ")".repeat(100)));
    c(&("a|".repeat(500) + "a"));
}

#[test]
fn round_trips() {
    let ns = Namespaces::new().with("f", "urn:f");
    for s in [
        "/",
        "/ | a",
        "(/)[1]",
        "- /",
        "(/)/a",
        "1 div 0",
        "0 div 0",
        "-0",
        "1e3",
        "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "0.1 + 0.2",
        "((a)[1])[2]",
        "(a)[1][2]",
        "$x[1]/b",
        "'it''s'",
        "\"it's\"",
        "f:g(1, 'a', $v) | f:*",
        "a[b = 'x' or c != 2 and d <= -e]",
        "(a | b) / c",
        "-(-(a))",
        "1 - (2 - 3)",
        "(1 - a) - 3",
        "a mod (b * c)",
        "(a = b) = c",
        "a = (b = c)",
        "-a | b",
        "(-a) | b",
        "id('x')//p[position() = 2]",
        "processing-instruction()",
        "(//a)[1]//b",
        "'a'/b",
        "1/b",
        "(-1)/b",
        "(1 div 0)/b",
        "a[/]",
        "count(/)",
        "/ * 2",
        "(/) * 2",
        "(/) div 2",
    ] {
        if let Ok(x) = XPath::compile_with(s, &ns) {
            let _ = x;
            round_trip(s, &ns);
        }
    }
}

#[test]
fn send_sync_clone() {
    fn is<T: Send + Sync + Clone>() {}
    is::<XPath>();
    is::<XPathError>();
}

#[test]
fn printed_bare_root_costs_no_depth() {
    // The printer writes `- /` as `-(/)`; at the depth limit that must not make the printed
    // form too deep to compile.
    let s = format!("{}- /{}", "a[".repeat(126), "]".repeat(126));
    round_trip(&s, &Namespaces::new());
}
