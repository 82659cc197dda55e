//! The namespace bindings in scope while writing, and namespace repairing: shared by the text
//! [`Writer`](super::Writer) and the binary writer, so both choose the same prefixes.

use super::error::{Result, WriteError};
use super::escape::check_chars;
use crate::reader::{XMLNS_NS, XML_NS};

/// (prefix, URI) bindings, innermost last; `""` is the default namespace, an empty URI
/// undeclares it. Each open element remembers the length before its declarations (its mark).
pub(crate) struct NsScope {
    bindings: Vec<(String, String)>,
    generated: u32,
}

/// The bindings every document starts with: `xml`, and no default namespace.
pub(crate) const BASE: usize = 2;

impl NsScope {
    pub(crate) fn new() -> NsScope {
        NsScope {
            bindings: vec![
                ("xml".to_string(), XML_NS.to_string()),
                (String::new(), String::new()),
            ],
            generated: 0,
        }
    }

    /// The mark of an element opened now.
    pub(crate) fn len(&self) -> usize {
        self.bindings.len()
    }

    /// All bindings, outermost first.
    pub(crate) fn all(&self) -> &[(String, String)] {
        &self.bindings
    }

    /// The declarations of the element whose mark is `mark`.
    pub(crate) fn declared(&self, mark: usize) -> &[(String, String)] {
        &self.bindings[mark..]
    }

    /// Drops the declarations of the element whose mark is `mark`.
    pub(crate) fn truncate(&mut self, mark: usize) {
        self.bindings.truncate(mark);
    }

    /// The index of the innermost binding of `prefix`.
    pub(crate) fn lookup_index(&self, prefix: &str) -> Option<usize> {
        self.bindings.iter().rposition(|b| b.0 == prefix)
    }

    /// The URI bound to `prefix` in scope.
    pub(crate) fn lookup(&self, prefix: &str) -> Option<&str> {
        self.lookup_index(prefix)
            .map(|i| self.bindings[i].1.as_str())
    }

    /// An explicit declaration on the element whose mark is `mark`. One identical to the
    /// binding in scope is dropped; a second, different one for the same prefix is an error.
    pub(crate) fn namespace(&mut self, mark: usize, prefix: &str, uri: &str) -> Result<()> {
        check_binding(prefix, uri)?;
        let inherited = self.bindings[..mark].iter().rev().find(|b| b.0 == prefix);
        if inherited.is_some_and(|b| b.1 == uri)
            && self.bindings[mark..].iter().all(|b| b.0 != prefix)
        {
            return Ok(());
        }
        if let Some(b) = self.bindings[mark..].iter().find(|b| b.0 == prefix) {
            if b.1 == uri {
                return Ok(());
            }
            return Err(WriteError::DuplicateAttribute(if prefix.is_empty() {
                "xmlns".into()
            } else {
                format!("xmlns:{prefix}")
            }));
        }
        self.bindings.push((prefix.to_string(), uri.to_string()));
        Ok(())
    }

    /// A declaration that repairing needs on the element whose mark is `mark`.
    pub(crate) fn declare(&mut self, prefix: &str, uri: &str, mark: usize) -> Result<()> {
        check_binding(prefix, uri)?;
        if self.bindings[mark..].iter().any(|b| b.0 == prefix) {
            return Err(WriteError::DuplicateAttribute(format!("xmlns:{prefix}")));
        }
        self.bindings.push((prefix.to_string(), uri.to_string()));
        Ok(())
    }

    /// The prefix to write for a name in namespace `uri` (`""`: none), preferring `wanted`,
    /// declaring one on the element whose mark is `mark` when none in scope fits and `repair`
    /// is on. `taken(p)`: for an attribute, whether the element or another attribute of the tag
    /// already uses the prefix `p` (redeclaring it would change their names).
    pub(crate) fn resolve_ns(
        &mut self,
        uri: &str,
        wanted: Option<&str>,
        element: bool,
        mark: usize,
        repair: bool,
        taken: impl Fn(&str) -> bool,
    ) -> Result<String> {
        // No namespace: unprefixed, with the default namespace undone for elements.
        if uri.is_empty() {
            if element && self.lookup("").is_some_and(|d| !d.is_empty()) {
                self.declare("", "", mark)?;
            }
            return Ok(String::new());
        }
        let bound = |s: &NsScope, p: &str| s.lookup(p) == Some(uri) && (element || !p.is_empty());
        if let Some(p) = wanted.filter(|p| bound(self, p)) {
            return Ok(p.to_string());
        }
        if element && wanted.is_none() && bound(self, "") {
            return Ok(String::new());
        }
        // Any prefix in scope bound to the URI and not shadowed.
        let found = self
            .bindings
            .iter()
            .rev()
            .map(|b| b.0.as_str())
            .find(|p| (element || !p.is_empty()) && bound(self, p));
        if let Some(p) = found {
            return Ok(p.to_string());
        }
        if !repair {
            return Err(WriteError::UndeclaredPrefix(
                wanted.unwrap_or_default().to_string(),
            ));
        }
        let p = match wanted {
            // Not a prefix this tag declares already, nor (for an attribute) one a name of this
            // tag uses.
            Some(p) if self.bindings[mark..].iter().all(|b| b.0 != p) && (element || !taken(p)) => {
                p.to_string()
            }
            None if element && self.bindings[mark..].iter().all(|b| !b.0.is_empty()) => {
                String::new()
            }
            _ => loop {
                self.generated += 1;
                let p = format!("ns{}", self.generated);
                if self.lookup(&p).is_none() {
                    break p;
                }
            },
        };
        self.declare(&p, uri, mark)?;
        Ok(p)
    }
}

/// Checks a binding against the Namespaces recommendation's reserved names.
pub(crate) fn check_binding(prefix: &str, uri: &str) -> Result<()> {
    let err = |m: &str| Err(WriteError::ReservedNamespace(m.to_string()));
    match prefix {
        "xmlns" => return err("the prefix 'xmlns' cannot be declared"),
        "xml" if uri != XML_NS => {
            return err("the prefix 'xml' can only be bound to its own namespace")
        }
        "xml" => return Ok(()),
        _ => {}
    }
    if uri == XML_NS || uri == XMLNS_NS {
        return err("the xml and xmlns namespaces cannot be bound to another prefix");
    }
    if !prefix.is_empty() && uri.is_empty() {
        return err("a prefix cannot be bound to the empty namespace name in XML 1.0");
    }
    check_chars(uri)
}
