//! The core function library of XPath 1.0 (section 4).

use super::ast::Expr;
use super::error::XPathError;
use super::eval::{sort_dedup, Ctx, Eval, Type};
use super::nav::{Navigator, NodeKind};
use super::value::{is_xml_space, parse_number, Value};
use super::XML_NAMESPACE;

type R<T> = Result<T, XPathError>;

/// The type a core function returns ([`Type::Unknown`] for other names).
pub(crate) fn return_type(name: &str) -> Type {
    match name {
        "last" | "position" | "count" | "string-length" | "number" | "sum" | "floor"
        | "ceiling" | "round" => Type::Number,
        "id" => Type::NodeSet,
        "local-name" | "namespace-uri" | "name" | "string" | "concat" | "substring-before"
        | "substring-after" | "substring" | "normalize-space" | "translate" => Type::String,
        "starts-with" | "contains" | "boolean" | "not" | "true" | "false" | "lang" => Type::Boolean,
        _ => Type::Unknown,
    }
}

/// Whether `name` is a core function.
pub(crate) fn is_core(name: &str) -> bool {
    return_type(name) != Type::Unknown
}

/// XPath's `round()`: the closest integer, halves towards positive infinity, `-0` for
/// `[-0.5, -0]`, NaN and infinities unchanged.
pub(crate) fn round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let f = x.floor();
    let r = if x - f >= 0.5 { f + 1.0 } else { f };
    if r == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

/// Calls the core function `name` (the compiler checked the argument count).
pub(crate) fn call<Nav: Navigator>(
    ev: &mut Eval<'_, Nav>,
    name: &str,
    args: &[Expr],
    c: &Ctx<Nav::Node>,
) -> R<Value<Nav::Node>> {
    let nav = ev.nav;
    // The string-value of the argument, or of the context node without one.
    macro_rules! string_arg {
        () => {
            match args.first() {
                Some(a) => ev.string(a, c)?,
                None => nav.string_value(c.node).into_owned(),
            }
        };
    }
    // The first node (in document order) of the node-set argument, or the context node.
    macro_rules! node_arg {
        () => {
            match args.first() {
                Some(a) => ev.nodes(a, c)?.first().copied(),
                None => Some(c.node),
            }
        };
    }
    let v = match name {
        "last" => Value::Number(c.size as f64),
        "position" => Value::Number(c.pos as f64),
        "count" => Value::Number(ev.nodes(&args[0], c)?.len() as f64),
        "id" => Value::NodeSet(id(ev, &args[0], c)?),
        "local-name" => Value::String(node_arg!().map_or(String::new(), |n| match nav.kind(n) {
            NodeKind::Element | NodeKind::Attribute | NodeKind::Namespace | NodeKind::Pi => {
                nav.local_name(n).to_string()
            }
            _ => String::new(),
        })),
        "namespace-uri" => {
            Value::String(node_arg!().map_or(String::new(), |n| match nav.kind(n) {
                NodeKind::Element | NodeKind::Attribute => nav.namespace_uri(n).to_string(),
                _ => String::new(),
            }))
        }
        "name" => Value::String(node_arg!().map_or(String::new(), |n| qname(nav, n))),
        "string" => Value::String(string_arg!()),
        "concat" => {
            let mut s = String::new();
            for a in args {
                match a {
                    Expr::Literal(l) => s.push_str(l),
                    _ => s.push_str(&ev.string(a, c)?),
                }
            }
            Value::String(s)
        }
        "starts-with" => {
            let (a, b) = (ev.string(&args[0], c)?, ev.string(&args[1], c)?);
            Value::Boolean(a.starts_with(&b))
        }
        "contains" => {
            let (a, b) = (ev.string(&args[0], c)?, ev.string(&args[1], c)?);
            Value::Boolean(a.contains(&b))
        }
        "substring-before" => {
            let (a, b) = (ev.string(&args[0], c)?, ev.string(&args[1], c)?);
            Value::String(a.find(&b).map_or(String::new(), |i| a[..i].to_string()))
        }
        "substring-after" => {
            let (a, b) = (ev.string(&args[0], c)?, ev.string(&args[1], c)?);
            Value::String(
                a.find(&b)
                    .map_or(String::new(), |i| a[i + b.len()..].to_string()),
            )
        }
        "substring" => {
            let s = ev.string(&args[0], c)?;
            let start = ev.number(&args[1], c)?;
            let len = match args.get(2) {
                Some(a) => Some(ev.number(a, c)?),
                None => None,
            };
            Value::String(substring(&s, start, len))
        }
        "string-length" => Value::Number(string_arg!().chars().count() as f64),
        "normalize-space" => {
            let s = string_arg!();
            let mut out = String::with_capacity(s.len());
            for w in s.split(is_xml_space).filter(|w| !w.is_empty()) {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(w);
            }
            Value::String(out)
        }
        "translate" => {
            let s = ev.string(&args[0], c)?;
            let from: Vec<char> = ev.string(&args[1], c)?.chars().collect();
            let to: Vec<char> = ev.string(&args[2], c)?.chars().collect();
            let out = s
                .chars()
                .filter_map(|ch| match from.iter().position(|&f| f == ch) {
                    Some(i) => to.get(i).copied(),
                    None => Some(ch),
                })
                .collect();
            Value::String(out)
        }
        "boolean" => Value::Boolean(ev.boolean(&args[0], c)?),
        "not" => Value::Boolean(!ev.boolean(&args[0], c)?),
        "true" => Value::Boolean(true),
        "false" => Value::Boolean(false),
        "lang" => {
            let want = ev.string(&args[0], c)?;
            Value::Boolean(lang(nav, c.node, &want))
        }
        "number" => Value::Number(match args.first() {
            Some(a) => ev.number(a, c)?,
            None => parse_number(&nav.string_value(c.node)),
        }),
        "sum" => {
            let set = ev.nodes(&args[0], c)?;
            let mut total = 0.0;
            for n in set {
                total += parse_number(&nav.string_value(n));
            }
            Value::Number(total)
        }
        "floor" => Value::Number(ev.number(&args[0], c)?.floor()),
        "ceiling" => Value::Number(ev.number(&args[0], c)?.ceil()),
        "round" => Value::Number(round(ev.number(&args[0], c)?)),
        _ => unreachable!("the caller checks is_core"),
    };
    Ok(v)
}

/// The QName of a node for `name()`: `prefix:local` for elements and attributes with a
/// prefix, the prefix of a namespace node, the target of a PI, `""` for other nodes.
fn qname<Nav: Navigator>(nav: &Nav, n: Nav::Node) -> String {
    match nav.kind(n) {
        NodeKind::Element | NodeKind::Attribute => {
            let p = nav.prefix(n);
            if p.is_empty() {
                nav.local_name(n).to_string()
            } else {
                format!("{p}:{}", nav.local_name(n))
            }
        }
        NodeKind::Namespace | NodeKind::Pi => nav.local_name(n).to_string(),
        _ => String::new(),
    }
}

/// `substring(s, start, len)`: the characters at positions `p` with
/// `round(start) <= p < round(start) + round(len)`, computed in floating point so that NaN
/// and the infinities behave as the specification's examples say.
pub(crate) fn substring(s: &str, start: f64, len: Option<f64>) -> String {
    let first = round(start);
    let end = match len {
        Some(l) => first + round(l),
        None => f64::INFINITY,
    };
    // NaN bounds select nothing (every comparison is false).
    if first.is_nan() || end.is_nan() {
        return String::new();
    }
    s.chars()
        .enumerate()
        .filter(|&(i, _)| {
            let p = (i + 1) as f64;
            p >= first && p < end
        })
        .map(|(_, ch)| ch)
        .collect()
}

/// `id()`: the elements whose ID is one of the whitespace-separated tokens of the argument
/// (of each node's string-value for a node-set).
fn id<Nav: Navigator>(ev: &mut Eval<'_, Nav>, arg: &Expr, c: &Ctx<Nav::Node>) -> R<Vec<Nav::Node>> {
    let nav = ev.nav;
    let v = ev.eval(arg, c)?;
    let mut out = Vec::new();
    let mut lookup = |s: &str| {
        for token in s.split(is_xml_space).filter(|t| !t.is_empty()) {
            out.extend(nav.element_by_id(token));
        }
    };
    match &v {
        Value::NodeSet(set) => {
            for &n in set {
                lookup(&nav.string_value(n));
            }
        }
        other => lookup(&other.to_string(nav)),
    }
    sort_dedup(nav, &mut out);
    Ok(out)
}

/// `lang()`: whether the nearest `xml:lang` on the context node or an ancestor is `want`
/// or a sub-language of it, ignoring case.
fn lang<Nav: Navigator>(nav: &Nav, node: Nav::Node, want: &str) -> bool {
    let mut cur = Some(node);
    while let Some(n) = cur {
        if nav.kind(n) == NodeKind::Element {
            let mut a = nav.first_attribute(n);
            while let Some(attr) = a {
                if nav.has_name(attr, "lang", XML_NAMESPACE) {
                    let v = nav.string_value(attr);
                    let v = v.as_bytes();
                    let w = want.as_bytes();
                    return v.len() >= w.len()
                        && v[..w.len()].eq_ignore_ascii_case(w)
                        && (v.len() == w.len() || v[w.len()] == b'-');
                }
                a = nav.next_attribute(attr);
            }
        }
        cur = nav.parent(n);
    }
    false
}
