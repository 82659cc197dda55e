//! The schema for schemas, as far as structure goes: which children and attributes each
//! `xs:` element allows where it appears, which attributes are required, and whether the
//! attribute values are in their lexical spaces. Violations are reported as `s4s`.

use super::document::XNode;
use crate::datatypes::Builtin;
use crate::model::XSD_NAMESPACE;

/// Where an element appears, when that changes what it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// A child of `xs:schema` or `xs:redefine`.
    Top,
    /// Nested in a type or group.
    Local,
    /// The compositor of a named model group (no occurrence attributes).
    GroupDef,
    /// `xs:restriction` or `xs:extension` of `xs:simpleContent`.
    SimpleContent,
    /// Of `xs:complexContent`.
    ComplexContent,
    /// `xs:restriction` of `xs:simpleType`.
    SimpleType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Id,
    NcName,
    QName,
    QNames,
    Bool,
    Nni,
    Pi,
    Max,
    Form,
    Use,
    Process,
    Namespaces,
    BlockElem,
    DerivCt,
    FinalElem,
    FinalSt,
    FinalDefault,
    BlockDefault,
    Any,
    Token,
    WhiteSpace,
    AllMin,
    AllMax,
}

/// A violation found: message and the element it is about.
pub(crate) struct Violation<'a> {
    pub node: &'a XNode,
    pub message: String,
}

const FACETS: &str = "(minExclusive | minInclusive | maxExclusive | maxInclusive | totalDigits | fractionDigits | length | minLength | maxLength | enumeration | whiteSpace | pattern)";
const ATTRS: &str = "(attribute | attributeGroup)* anyAttribute?";

fn spec(local: &str, ctx: Ctx) -> Option<Spec> {
    use Ctx::*;
    use Ty::*;
    let id = ("id", Id);
    let occurs = [("minOccurs", Nni), ("maxOccurs", Max)];
    let facet_value = |ty| {
        (
            vec![id, ("value", ty), ("fixed", Bool)],
            &["value"][..],
            "annotation?".to_string(),
        )
    };
    Some(match (local, ctx) {
        ("schema", _) => (
            vec![
                id,
                ("attributeFormDefault", Form),
                ("elementFormDefault", Form),
                ("blockDefault", BlockDefault),
                ("finalDefault", FinalDefault),
                ("targetNamespace", Any),
                ("version", Token),
            ],
            &[],
            "(include | import | redefine | annotation)* (simpleType | complexType | group | attributeGroup | element | attribute | notation | annotation)*".into(),
        ),
        ("include", _) => (vec![id, ("schemaLocation", Any)], &["schemaLocation"], "annotation?".into()),
        ("import", _) => (vec![id, ("namespace", Any), ("schemaLocation", Any)], &[], "annotation?".into()),
        ("redefine", _) => (
            vec![id, ("schemaLocation", Any)],
            &["schemaLocation"],
            "(annotation | simpleType | complexType | group | attributeGroup)*".into(),
        ),
        ("annotation", _) => (vec![id], &[], "(appinfo | documentation)*".into()),
        ("element", Top) => (
            vec![
                id,
                ("name", NcName),
                ("type", QName),
                ("substitutionGroup", QName),
                ("default", Any),
                ("fixed", Any),
                ("nillable", Bool),
                ("abstract", Bool),
                ("final", FinalElem),
                ("block", BlockElem),
            ],
            &["name"],
            "annotation? (simpleType | complexType)? (unique | key | keyref)*".into(),
        ),
        ("element", _) => (
            vec![
                id,
                ("name", NcName),
                ("ref", QName),
                ("type", QName),
                ("default", Any),
                ("fixed", Any),
                ("nillable", Bool),
                ("block", BlockElem),
                ("form", Form),
                occurs[0],
                occurs[1],
            ],
            &[],
            "annotation? (simpleType | complexType)? (unique | key | keyref)*".into(),
        ),
        ("attribute", Top) => (
            vec![id, ("name", NcName), ("type", QName), ("default", Any), ("fixed", Any)],
            &["name"],
            "annotation? simpleType?".into(),
        ),
        ("attribute", _) => (
            vec![
                id,
                ("name", NcName),
                ("ref", QName),
                ("type", QName),
                ("default", Any),
                ("fixed", Any),
                ("form", Form),
                ("use", Use),
            ],
            &[],
            "annotation? simpleType?".into(),
        ),
        ("complexType", c) => {
            let mut attrs = vec![id, ("mixed", Bool)];
            if c == Top {
                attrs.extend([("name", NcName), ("abstract", Bool), ("block", DerivCt), ("final", DerivCt)]);
            }
            (
                attrs,
                if c == Top { &["name"] } else { &[] },
                format!("annotation? (simpleContent | complexContent | ((group | all | choice | sequence)? {ATTRS}))"),
            )
        }
        ("simpleContent", _) => (vec![id], &[], "annotation? (restriction | extension)".into()),
        ("complexContent", _) => (vec![id, ("mixed", Bool)], &[], "annotation? (restriction | extension)".into()),
        ("restriction", SimpleContent) => (
            vec![id, ("base", QName)],
            &["base"],
            format!("annotation? simpleType? {FACETS}* {ATTRS}"),
        ),
        ("extension", SimpleContent) => (vec![id, ("base", QName)], &["base"], format!("annotation? {ATTRS}")),
        ("restriction" | "extension", ComplexContent) => (
            vec![id, ("base", QName)],
            &["base"],
            format!("annotation? (group | all | choice | sequence)? {ATTRS}"),
        ),
        ("restriction", _) => (vec![id, ("base", QName)], &[], format!("annotation? simpleType? {FACETS}*")),
        ("simpleType", c) => {
            let mut attrs = vec![id];
            if c == Top {
                attrs.extend([("name", NcName), ("final", FinalSt)]);
            }
            (attrs, if c == Top { &["name"] } else { &[] }, "annotation? (restriction | list | union)".into())
        }
        ("list", _) => (vec![id, ("itemType", QName)], &[], "annotation? simpleType?".into()),
        ("union", _) => (vec![id, ("memberTypes", QNames)], &[], "annotation? simpleType*".into()),
        ("group", Top) => (vec![id, ("name", NcName)], &["name"], "annotation? (all | choice | sequence)".into()),
        ("group", _) => (vec![id, ("ref", QName), occurs[0], occurs[1]], &["ref"], "annotation?".into()),
        ("all", c) => {
            let mut attrs = vec![id];
            if c != GroupDef {
                attrs.extend([("minOccurs", AllMin), ("maxOccurs", AllMax)]);
            }
            (attrs, &[], "annotation? element*".into())
        }
        ("choice" | "sequence", c) => {
            let mut attrs = vec![id];
            if c != GroupDef {
                attrs.extend(occurs);
            }
            (attrs, &[], "annotation? (element | group | choice | sequence | any)*".into())
        }
        ("any", _) => (
            vec![id, ("namespace", Namespaces), ("processContents", Process), occurs[0], occurs[1]],
            &[],
            "annotation?".into(),
        ),
        ("anyAttribute", _) => (
            vec![id, ("namespace", Namespaces), ("processContents", Process)],
            &[],
            "annotation?".into(),
        ),
        ("attributeGroup", Top) => (vec![id, ("name", NcName)], &["name"], format!("annotation? {ATTRS}")),
        ("attributeGroup", _) => (vec![id, ("ref", QName)], &["ref"], "annotation?".into()),
        ("unique" | "key", _) => (vec![id, ("name", NcName)], &["name"], "annotation? selector field+".into()),
        ("keyref", _) => (
            vec![id, ("name", NcName), ("refer", QName)],
            &["name", "refer"],
            "annotation? selector field+".into(),
        ),
        ("selector" | "field", _) => (vec![id, ("xpath", Any)], &["xpath"], "annotation?".into()),
        ("notation", _) => (
            vec![id, ("name", NcName), ("public", Token), ("system", Any)],
            &["name"],
            "annotation?".into(),
        ),
        ("length" | "minLength" | "maxLength", _) => facet_value(Nni),
        ("totalDigits", _) => facet_value(Pi),
        ("fractionDigits", _) => facet_value(Nni),
        ("whiteSpace", _) => facet_value(WhiteSpace),
        ("minExclusive" | "minInclusive" | "maxExclusive" | "maxInclusive", _) => facet_value(Any),
        ("enumeration" | "pattern", _) => (vec![id, ("value", Any)], &["value"], "annotation?".into()),
        _ => return None,
    })
}

/// The attributes allowed (with their types), the required ones, the content pattern.
type Spec = (Vec<(&'static str, Ty)>, &'static [&'static str], String);

fn child_ctx(parent: &str, parent_ctx: Ctx, child: &str) -> Ctx {
    match (parent, child) {
        ("schema" | "redefine", _) => Ctx::Top,
        ("group", _) if parent_ctx == Ctx::Top => Ctx::GroupDef,
        ("simpleContent", _) => Ctx::SimpleContent,
        ("complexContent", _) => Ctx::ComplexContent,
        ("simpleType", _) => Ctx::SimpleType,
        _ => Ctx::Local,
    }
}

fn lexical_ok(ty: Ty, v: &str) -> bool {
    let t = v.trim_matches([' ', '\t', '\n', '\r']);
    let words = || t.split([' ', '\t', '\n', '\r']).filter(|w| !w.is_empty());
    let set = |allowed: &[&str]| t == "#all" || words().all(|w| allowed.contains(&w));
    match ty {
        Ty::Id | Ty::NcName => Builtin::NcName.parse(v).is_ok(),
        Ty::QName => is_qname(t),
        Ty::QNames => words().all(is_qname),
        Ty::Bool => Builtin::Boolean.parse(v).is_ok(),
        Ty::Nni => Builtin::NonNegativeInteger.parse(v).is_ok(),
        Ty::Pi => Builtin::PositiveInteger.parse(v).is_ok(),
        Ty::Max => t == "unbounded" || Builtin::NonNegativeInteger.parse(v).is_ok(),
        Ty::AllMin => matches!(t, "0" | "1"),
        Ty::AllMax => t == "1",
        Ty::Form => matches!(t, "qualified" | "unqualified"),
        Ty::Use => matches!(t, "optional" | "required" | "prohibited"),
        Ty::Process => matches!(t, "skip" | "lax" | "strict"),
        Ty::WhiteSpace => matches!(t, "preserve" | "replace" | "collapse"),
        Ty::Namespaces => {
            matches!(t, "##any" | "##other")
                || words()
                    .all(|w| matches!(w, "##targetNamespace" | "##local") || !w.starts_with("##"))
        }
        Ty::BlockElem | Ty::BlockDefault => set(&["extension", "restriction", "substitution"]),
        Ty::DerivCt | Ty::FinalElem => set(&["extension", "restriction"]),
        Ty::FinalSt => set(&["list", "union", "restriction"]),
        Ty::FinalDefault => set(&["extension", "restriction", "list", "union"]),
        Ty::Token => Builtin::Token.parse(v).is_ok(),
        Ty::Any => true,
    }
}

/// Whether `s` is a lexical QName (prefix resolution is checked where it is used).
pub(crate) fn is_qname(s: &str) -> bool {
    let mut parts = s.splitn(2, ':');
    let a = parts.next().unwrap_or("");
    let ok = |p: &str| Builtin::NcName.parse(p).is_ok() && p == p.trim();
    match parts.next() {
        Some(b) => ok(a) && ok(b),
        None => ok(a),
    }
}

/// Checks a whole schema document against the schema for schemas.
pub(crate) fn check<'a>(root: &'a XNode, out: &mut Vec<Violation<'a>>) {
    if !root.is_xs("schema") {
        out.push(Violation {
            node: root,
            message: format!(
                "the root element is {{{}}}{}, not xs:schema",
                root.ns, root.local
            ),
        });
        return;
    }
    check_node(root, Ctx::Top, out);
    let mut ids = std::collections::HashSet::new();
    check_ids(root, &mut ids, out);
}

/// `id` attributes are of type ID: unique in the document.
fn check_ids<'a>(
    node: &'a XNode,
    ids: &mut std::collections::HashSet<&'a str>,
    out: &mut Vec<Violation<'a>>,
) {
    if node.ns != XSD_NAMESPACE || node.local == "appinfo" || node.local == "documentation" {
        return;
    }
    if let Some(id) = node.attr("id") {
        if !ids.insert(id.trim()) {
            out.push(Violation {
                node,
                message: format!("the id '{}' is used twice in the document", id.trim()),
            });
        }
    }
    for c in &node.children {
        check_ids(c, ids, out);
    }
}

fn check_node<'a>(node: &'a XNode, ctx: Ctx, out: &mut Vec<Violation<'a>>) {
    if node.local == "appinfo" || node.local == "documentation" {
        for (ns, local, value) in &node.attrs {
            if ns.is_empty() && local != "source" {
                out.push(Violation {
                    node,
                    message: format!("xs:{} has no attribute '{local}'", node.local),
                });
            }
            if ns == "http://www.w3.org/XML/1998/namespace"
                && local == "lang"
                && Builtin::Language.parse(value).is_err()
            {
                out.push(Violation {
                    node,
                    message: format!("xml:lang '{value}' is not a language"),
                });
            }
        }
        return;
    }
    let Some((attrs, required, content)) = spec(&node.local, ctx) else {
        out.push(Violation {
            node,
            message: format!("xs:{} is not allowed here", node.local),
        });
        return;
    };
    for (ns, local, value) in &node.attrs {
        if ns == XSD_NAMESPACE {
            out.push(Violation {
                node,
                message: format!("attribute xs:{local} is not allowed"),
            });
        } else if ns.is_empty() {
            match attrs.iter().find(|(n, _)| n == local) {
                None => out.push(Violation {
                    node,
                    message: format!("xs:{} has no attribute '{local}'", node.local),
                }),
                Some((_, ty)) => {
                    if !lexical_ok(*ty, value) {
                        out.push(Violation {
                            node,
                            message: format!(
                                "'{value}' is not a valid value of attribute '{local}' of xs:{}",
                                node.local
                            ),
                        });
                    }
                }
            }
        }
    }
    if node.local == "notation" && node.attr("public").is_none() && node.attr("system").is_none() {
        out.push(Violation {
            node,
            message: "xs:notation needs a public or a system identifier".into(),
        });
    }
    for r in required {
        if node.attr(r).is_none() {
            out.push(Violation {
                node,
                message: format!("xs:{} needs attribute '{r}'", node.local),
            });
        }
    }
    if !node.text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        out.push(Violation {
            node,
            message: format!("xs:{} may not contain text", node.local),
        });
    }
    let mut names = Vec::new();
    for c in &node.children {
        if c.ns != XSD_NAMESPACE {
            out.push(Violation {
                node: c,
                message: format!(
                    "element {{{}}}{} is not allowed in xs:{}",
                    c.ns, c.local, node.local
                ),
            });
        } else {
            names.push(c.local.as_str());
        }
    }
    let pattern = Pattern::parse(&content);
    if !pattern.matches_all(&names) {
        out.push(Violation {
            node,
            message: format!(
                "the children of xs:{} ({}) do not match {content}",
                node.local,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        });
    }
    for c in node.children.iter().filter(|c| c.ns == XSD_NAMESPACE) {
        check_node(c, child_ctx(&node.local, ctx, &c.local), out);
    }
}

/// A content model over child names: `a`, `(p q)`, `(p | q)`, with `?`, `*`, `+`.
enum Pattern {
    Name(String),
    Seq(Vec<Pattern>),
    Alt(Vec<Pattern>),
    Opt(Box<Pattern>),
    Star(Box<Pattern>),
}

impl Pattern {
    fn parse(s: &str) -> Pattern {
        let tokens: Vec<String> = s
            .replace('(', " ( ")
            .replace(')', " ) ")
            .replace('|', " | ")
            .replace('?', " ? ")
            .replace('*', " * ")
            .replace('+', " + ")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let mut pos = 0;
        Pattern::seq(&tokens, &mut pos)
    }

    fn seq(t: &[String], pos: &mut usize) -> Pattern {
        let mut alts = Vec::new();
        let mut items = Vec::new();
        while *pos < t.len() && t[*pos] != ")" {
            if t[*pos] == "|" {
                *pos += 1;
                alts.push(Pattern::Seq(std::mem::take(&mut items)));
                continue;
            }
            let mut p = if t[*pos] == "(" {
                *pos += 1;
                let inner = Pattern::seq(t, pos);
                *pos += 1; // ")"
                inner
            } else {
                *pos += 1;
                Pattern::Name(t[*pos - 1].clone())
            };
            while *pos < t.len() && matches!(t[*pos].as_str(), "?" | "*" | "+") {
                p = match t[*pos].as_str() {
                    "?" => Pattern::Opt(Box::new(p)),
                    "*" => Pattern::Star(Box::new(p)),
                    _ => {
                        // p+ = p p*
                        let again = Pattern::parse_clone(&p);
                        Pattern::Seq(vec![p, Pattern::Star(Box::new(again))])
                    }
                };
                *pos += 1;
            }
            items.push(p);
        }
        if alts.is_empty() {
            Pattern::Seq(items)
        } else {
            alts.push(Pattern::Seq(items));
            Pattern::Alt(alts)
        }
    }

    fn parse_clone(p: &Pattern) -> Pattern {
        match p {
            Pattern::Name(n) => Pattern::Name(n.clone()),
            Pattern::Seq(v) => Pattern::Seq(v.iter().map(Pattern::parse_clone).collect()),
            Pattern::Alt(v) => Pattern::Alt(v.iter().map(Pattern::parse_clone).collect()),
            Pattern::Opt(b) => Pattern::Opt(Box::new(Pattern::parse_clone(b))),
            Pattern::Star(b) => Pattern::Star(Box::new(Pattern::parse_clone(b))),
        }
    }

    /// Adds this pattern to a Thompson automaton: (start, end) states.
    fn build<'p>(&'p self, nfa: &mut Vec<Vec<(Option<&'p str>, usize)>>) -> (usize, usize) {
        let state = |nfa: &mut Vec<Vec<(Option<&'p str>, usize)>>| {
            nfa.push(Vec::new());
            nfa.len() - 1
        };
        let (s, e) = (state(nfa), state(nfa));
        match self {
            Pattern::Name(n) => nfa[s].push((Some(n.as_str()), e)),
            Pattern::Seq(items) => {
                let mut cur = s;
                for item in items {
                    let (a, b) = item.build(nfa);
                    nfa[cur].push((None, a));
                    cur = b;
                }
                nfa[cur].push((None, e));
            }
            Pattern::Alt(alts) => {
                for a in alts {
                    let (x, y) = a.build(nfa);
                    nfa[s].push((None, x));
                    nfa[y].push((None, e));
                }
            }
            Pattern::Opt(p) | Pattern::Star(p) => {
                let (x, y) = p.build(nfa);
                nfa[s].push((None, x));
                nfa[y].push((None, e));
                nfa[s].push((None, e));
                if matches!(self, Pattern::Star(_)) {
                    nfa[y].push((None, x));
                }
            }
        }
        (s, e)
    }

    /// Whether the names match the whole pattern (an automaton simulation: linear in the
    /// number of children).
    fn matches_all(&self, names: &[&str]) -> bool {
        let mut nfa = Vec::new();
        let (start, end) = self.build(&mut nfa);
        let closure = |set: &mut Vec<bool>, nfa: &Vec<Vec<(Option<&str>, usize)>>| {
            let mut stack: Vec<usize> = (0..set.len()).filter(|&i| set[i]).collect();
            while let Some(x) = stack.pop() {
                for &(label, t) in &nfa[x] {
                    if label.is_none() && !set[t] {
                        set[t] = true;
                        stack.push(t);
                    }
                }
            }
        };
        let mut cur = vec![false; nfa.len()];
        cur[start] = true;
        closure(&mut cur, &nfa);
        for name in names {
            let mut next = vec![false; nfa.len()];
            for (x, on) in cur.iter().enumerate() {
                if *on {
                    for &(label, t) in &nfa[x] {
                        if label == Some(name) {
                            next[t] = true;
                        }
                    }
                }
            }
            closure(&mut next, &nfa);
            cur = next;
        }
        cur[end]
    }
}
