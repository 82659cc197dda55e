//! [`QName`] values and the [`Bindings`] they resolve through: an `xs:QName` (or
//! `xs:NOTATION`) in an attribute or element means a namespace URI and a local name, and
//! the prefix it is written with only says which, through the namespace declarations in
//! scope where it stands.
//!
//! Generated code takes the bindings at an element's start tag ([`Source::bindings`]),
//! where they are the same as at its text, and converts with [`qname`]; the serializer
//! declares the value's prefix on the element it writes it in ([`Lexical::declare`]).
//!
//! [`Source::bindings`]: super::Source::bindings
//! [`qname`]: super::value::qname
//! [`Lexical::declare`]: super::write::Lexical::declare

use std::fmt;
use std::hash::{Hash, Hasher};

use super::Text;
use crate::XML_NS;

/// A value of `xs:QName` or `xs:NOTATION`: a namespace URI (empty for none) and a local
/// name. Two are equal when these are, whatever prefix each was written with; the prefix
/// the document used is kept, so the value is written back the same way.
///
/// ```
/// use xwire::bind::{value, Bindings, QName};
///
/// let mut scope = Bindings::default();
/// scope.push("a", "urn:x");
/// scope.push("b", "urn:x");
/// let (one, two) = (value::qname("a:item", &scope)?, value::qname(" b:item ", &scope)?);
/// assert_eq!(one, two);
/// assert_eq!(one, QName::new("urn:x", "item"));
/// assert_eq!(two.prefix, "b");
/// # Ok::<(), xwire::bind::Fault>(())
/// ```
#[derive(Clone, Default)]
pub struct QName {
    /// The namespace URI, empty for none.
    pub ns: Text,
    /// The local name.
    pub local: Text,
    /// The prefix it was written with (empty: none, the default namespace); what the
    /// serializer writes it with and declares.
    pub prefix: Text,
}

impl QName {
    /// `{ns}local`, without a prefix: written in the default namespace, declared on the
    /// element that holds it.
    pub fn new(ns: impl Into<Text>, local: impl Into<Text>) -> QName {
        QName {
            ns: ns.into(),
            local: local.into(),
            prefix: Text::default(),
        }
    }

    /// `{ns}local`, written as `prefix:local`.
    pub fn with_prefix(
        ns: impl Into<Text>,
        local: impl Into<Text>,
        prefix: impl Into<Text>,
    ) -> QName {
        QName {
            ns: ns.into(),
            local: local.into(),
            prefix: prefix.into(),
        }
    }
}

impl PartialEq for QName {
    fn eq(&self, other: &QName) -> bool {
        self.local == other.local && self.ns == other.ns
    }
}

impl Eq for QName {}

impl Hash for QName {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.ns.hash(h);
        self.local.hash(h);
    }
}

/// `{ns}local`: the value, without the prefix that does not belong to it.
impl fmt::Debug for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}{}", self.ns, self.local)
    }
}

impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix.is_empty() {
            true => f.write_str(&self.local),
            false => write!(f, "{}:{}", self.prefix, self.local),
        }
    }
}

/// The namespace bindings in scope at an element, innermost last: what its QName values
/// resolve their prefixes through. A source takes them at a start tag
/// ([`Source::bindings`](super::Source::bindings)).
///
/// ```
/// use xwire::bind::Bindings;
///
/// let mut scope = Bindings::default();
/// scope.push("p", "urn:outer");
/// scope.push("p", "urn:inner");
/// assert_eq!(scope.uri("p"), Some("urn:inner"));
/// assert_eq!(scope.uri(""), Some("")); // no default namespace: none
/// assert_eq!(scope.uri("q"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// (prefix, URI); the prefix empty for the default namespace, the URI empty where a
    /// declaration undoes it (`xmlns=""`).
    pairs: Vec<(Text, Text)>,
}

impl Bindings {
    /// Adds a binding, inside those already there.
    pub fn push(&mut self, prefix: impl Into<Text>, uri: impl Into<Text>) {
        self.pairs.push((prefix.into(), uri.into()));
    }

    /// The URI `prefix` is bound to (`xml` always is); for the empty prefix, the default
    /// namespace, empty when there is none. `None` for a prefix nothing binds.
    pub fn uri(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(XML_NS);
        }
        match self.pairs.iter().rev().find(|(p, _)| *p == prefix) {
            Some((_, uri)) => Some(uri),
            None if prefix.is_empty() => Some(""),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bind::write::{self, Name};
    use crate::bind::{value, Cursor, Scanner, Source};

    const ROOT: Name<'static> = Name {
        ns: "urn:r",
        prefix: "r",
        local: "root",
    };

    /// The QName value of a document's root, through `source`.
    fn read_back<S: Source>(c: &mut S) -> QName
    where
        S::Error: fmt::Debug,
    {
        c.root().unwrap();
        let scope = c.bindings();
        value::qname(c.text().unwrap(), &scope).unwrap()
    }

    #[test]
    fn written_values_declare_their_prefixes() {
        let cases = [
            (
                QName::with_prefix("urn:x", "a", "x"),
                "x:a",
                r#"xmlns:x="urn:x""#,
            ),
            (QName::new("urn:d", "a"), "a", r#"xmlns="urn:d""#),
            (QName::new("", "a"), "a", ""),
        ];
        for (q, text, decl) in cases {
            let xml = write::to_string(|s| write::simple(s, ROOT, &q)).unwrap();
            assert!(xml.ends_with(&format!(">{text}</r:root>")), "{xml}");
            assert!(xml.contains(decl), "{xml}");
            // Read back through both sources, the value is the same.
            assert_eq!(read_back(&mut Scanner::new(xml.as_bytes())), q, "{xml}");
            assert_eq!(read_back(&mut Cursor::new(xml.as_bytes())), q, "{xml}");
            let xml = write::to_string(|s| {
                s.start_element_ns(ROOT.ns, ROOT.local, Some(ROOT.prefix))?;
                let at = Name {
                    ns: "",
                    prefix: "",
                    local: "v",
                };
                write::attribute(s, at, &q)?;
                s.end_element()
            })
            .unwrap();
            assert!(xml.contains(&format!(r#"v="{text}""#)), "{xml}");
            assert!(xml.contains(decl), "{xml}");
        }
    }

    #[test]
    fn a_value_resolves_in_its_own_element_scope() {
        let doc = br#"<a xmlns:p="urn:1"><b xmlns:p="urn:2">p:x</b><c>p:x</c></a>"#;
        let mut c = Cursor::new(doc);
        c.root().unwrap();
        let mut seen = Vec::new();
        while c.child().unwrap() {
            let b = c.bindings();
            seen.push(value::qname(c.text().unwrap(), &b).unwrap());
        }
        assert_eq!(seen, [QName::new("urn:2", "x"), QName::new("urn:1", "x")]);
        let undeclared = Bindings::default();
        let e = value::qname("q:x", &undeclared).unwrap_err();
        assert!(e.message.contains("'q'"), "{}", e.message);
    }
}
