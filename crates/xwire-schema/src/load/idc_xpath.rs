//! The restricted XPath subset of identity constraints (section 3.11.6):
//!
//! ```text
//! Selector ::= Path ( '|' Path )*
//! Path     ::= ('.//')? Step ( '/' Step )*
//! Field    ::= ('.//')? ( Step '/' )* ( Step | '@' NameTest )
//! Step     ::= '.' | NameTest          (also with 'child::'; '@' as 'attribute::')
//! NameTest ::= QName | '*' | NCName ':' '*'
//! ```

use crate::datatypes::Builtin;
use crate::model::{NameTable, NameTest, NamespaceId, RestrictedPath};

/// A path whose namespaces are still URIs.
pub(crate) struct RawPath {
    descendants: bool,
    steps: Vec<RawTest>,
    attribute: Option<RawTest>,
}

enum RawTest {
    Any,
    Namespace(String),
    Name(String, String),
}

#[derive(Debug, PartialEq)]
enum Tok {
    Slash,
    DoubleSlash,
    Dot,
    At,
    Bar,
    Star,
    Axis(String),
    Name(String),
    NsStar(String),
}

fn tokens(s: &str) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < c.len() {
        match c[i] {
            ' ' | '\t' | '\n' | '\r' => i += 1,
            '/' if c.get(i + 1) == Some(&'/') => {
                out.push(Tok::DoubleSlash);
                i += 2;
            }
            '/' => {
                out.push(Tok::Slash);
                i += 1;
            }
            '.' => {
                out.push(Tok::Dot);
                i += 1;
            }
            '@' => {
                out.push(Tok::At);
                i += 1;
            }
            '|' => {
                out.push(Tok::Bar);
                i += 1;
            }
            '*' => {
                out.push(Tok::Star);
                i += 1;
            }
            _ => {
                let start = i;
                while i < c.len()
                    && !matches!(c[i], ' ' | '\t' | '\n' | '\r' | '/' | '@' | '|' | '*' | ':')
                {
                    i += 1;
                }
                let first: String = c[start..i].iter().collect();
                if Builtin::NcName.parse(&first).is_err() || first.trim() != first {
                    return Err(format!("unexpected '{first}'"));
                }
                let mut j = i;
                while j < c.len() && matches!(c[j], ' ' | '\t' | '\n' | '\r') {
                    j += 1;
                }
                if c.get(j) == Some(&':') && c.get(j + 1) == Some(&':') {
                    i = j + 2;
                    out.push(Tok::Axis(first));
                } else if c.get(i) == Some(&':') {
                    i += 1;
                    if c.get(i) == Some(&'*') {
                        i += 1;
                        out.push(Tok::NsStar(first));
                    } else {
                        let s2 = i;
                        while i < c.len()
                            && !matches!(
                                c[i],
                                ' ' | '\t' | '\n' | '\r' | '/' | '@' | '|' | '*' | ':'
                            )
                        {
                            i += 1;
                        }
                        let second: String = c[s2..i].iter().collect();
                        if Builtin::NcName.parse(&second).is_err() || second.trim() != second {
                            return Err(format!("'{first}:{second}' is not a QName"));
                        }
                        out.push(Tok::Name(format!("{first}:{second}")));
                    }
                } else {
                    out.push(Tok::Name(first));
                }
            }
        }
    }
    Ok(out)
}

/// Parses a selector (`field` false) or field path.
pub(crate) fn parse(
    s: &str,
    field: bool,
    resolve: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<RawPath>, String> {
    let toks = tokens(s)?;
    let mut paths = Vec::new();
    let mut i = 0;
    loop {
        let mut p = RawPath {
            descendants: false,
            steps: Vec::new(),
            attribute: None,
        };
        if toks.get(i) == Some(&Tok::Dot) && toks.get(i + 1) == Some(&Tok::DoubleSlash) {
            p.descendants = true;
            i += 2;
        }
        loop {
            // A step.
            let mut attribute = false;
            match toks.get(i) {
                Some(Tok::At) => {
                    attribute = true;
                    i += 1;
                }
                Some(Tok::Axis(a)) if a == "attribute" => {
                    attribute = true;
                    i += 1;
                }
                Some(Tok::Axis(a)) if a == "child" => i += 1,
                Some(Tok::Axis(a)) => return Err(format!("the axis '{a}' is not allowed")),
                _ => {}
            }
            let test = match toks.get(i) {
                Some(Tok::Dot) if !attribute => None,
                Some(Tok::Star) => Some(RawTest::Any),
                Some(Tok::NsStar(prefix)) => {
                    Some(RawTest::Namespace(resolve(prefix).ok_or_else(|| {
                        format!("the prefix '{prefix}' is not declared")
                    })?))
                }
                Some(Tok::Name(q)) => {
                    let (prefix, local) = q.split_once(':').unwrap_or(("", q));
                    let ns = if prefix.is_empty() {
                        String::new()
                    } else {
                        resolve(prefix)
                            .ok_or_else(|| format!("the prefix '{prefix}' is not declared"))?
                    };
                    Some(RawTest::Name(ns, local.to_string()))
                }
                _ => return Err("a step is missing".into()),
            };
            i += 1;
            if attribute {
                if !field {
                    return Err("a selector may not select attributes".into());
                }
                p.attribute = test;
                if !matches!(toks.get(i), None | Some(Tok::Bar)) {
                    return Err("an attribute step must be the last".into());
                }
                break;
            }
            if let Some(t) = test {
                p.steps.push(t);
            }
            match toks.get(i) {
                Some(Tok::Slash) => i += 1,
                None | Some(Tok::Bar) => break,
                Some(t) => return Err(format!("unexpected {t:?}")),
            }
        }
        paths.push(p);
        match toks.get(i) {
            None => break,
            Some(Tok::Bar) => i += 1,
            Some(t) => return Err(format!("unexpected {t:?}")),
        }
    }
    Ok(paths)
}

/// Interns the namespaces of a parsed path.
pub(crate) fn intern(p: RawPath, names: &mut NameTable) -> RestrictedPath {
    let mut test = |t: RawTest| match t {
        RawTest::Any => NameTest::Any,
        RawTest::Namespace(u) => NameTest::Namespace(names.namespace(&u)),
        RawTest::Name(u, l) => {
            let ns = if u.is_empty() {
                NamespaceId::ABSENT
            } else {
                names.namespace(&u)
            };
            NameTest::Name(ns, l.into_boxed_str())
        }
    };
    RestrictedPath {
        descendants: p.descendants,
        steps: p.steps.into_iter().map(&mut test).collect(),
        attribute: p.attribute.map(test),
    }
}
