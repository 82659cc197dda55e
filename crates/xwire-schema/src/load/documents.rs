//! Reading the schema documents: include (same or chameleon namespace), import and redefine,
//! through the catalog first, then relative to the referring document; each document once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::document::{self, XNode};
use super::{structure, Def, Doc, Kind, Loader};
use crate::model::{Cause, DerivationSet, FileId, SchemaError, XSD_NAMESPACE};

/// How a document is reached.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Via {
    Root,
    Include,
    Import,
    Redefine,
}

/// Parses a `blockDefault`/`finalDefault`/`block`/`final` value.
pub(crate) fn derivation_set(value: Option<&str>, allowed: DerivationSet) -> Option<DerivationSet> {
    let v = value?;
    let mut set = DerivationSet::EMPTY;
    for w in v.split_whitespace() {
        set |= match w {
            "#all" => allowed,
            "extension" => DerivationSet::EXTENSION,
            "restriction" => DerivationSet::RESTRICTION,
            "substitution" => DerivationSet::SUBSTITUTION,
            "list" => DerivationSet::LIST,
            "union" => DerivationSet::UNION,
            _ => DerivationSet::EMPTY,
        };
    }
    Some(set.intersection(allowed))
}

impl Loader<'_> {
    pub(super) fn load_root_file(&mut self, path: &Path) {
        match std::fs::read(path) {
            Ok(bytes) => {
                let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
                self.load_root_bytes(&bytes, path.to_path_buf(), dir);
            }
            Err(e) => self.errors.push(SchemaError {
                constraint: "schema-document",
                message: format!("cannot read the schema document: {e}"),
                file: Some(path.to_path_buf()),
                position: None,
                source: Some(Cause::io(e)),
            }),
        }
    }

    pub(super) fn load_root_bytes(&mut self, bytes: &[u8], path: PathBuf, dir: PathBuf) {
        self.load_bytes(bytes, path, dir, Via::Root, None, None);
    }

    /// Reads a document; `from` is the referring document and element.
    fn load_bytes(
        &mut self,
        bytes: &[u8],
        path: PathBuf,
        dir: PathBuf,
        via: Via,
        from: Option<(usize, &XNode)>,
        expected_ns: Option<Option<&str>>,
    ) -> Option<usize> {
        self.documents_read += 1;
        if self.documents_read > self.opts.max_documents {
            return None;
        }
        let root = match document::read(bytes) {
            Ok(r) => r,
            Err((message, position, e)) => {
                // A document that is found but is not XML is an error (a missing one is not).
                self.errors.push(SchemaError {
                    constraint: "schema-document",
                    message: format!("not a well-formed XML document: {message}"),
                    file: Some(path),
                    position,
                    source: e.map(Cause::Xml),
                });
                return None;
            }
        };
        if !root.is_xs("schema") {
            let constraint = match via {
                Via::Root => "s4s",
                Via::Include => "src-include",
                Via::Import => "src-import",
                Via::Redefine => "src-redefine",
            };
            // A referenced document that is not a schema: reported at the reference.
            if let Some((d, n)) = from {
                self.error(
                    constraint,
                    d,
                    n,
                    format!("{} is not a schema document", path.display()),
                );
            } else {
                self.errors.push(SchemaError {
                    constraint,
                    message: "the root element is not xs:schema".into(),
                    file: Some(path),
                    position: Some((root.line, root.column)),
                    source: None,
                });
            }
            return None;
        }
        let own_tns = root.attr("targetNamespace");
        // Namespace agreement.
        let mut chameleon = false;
        let tns_str: String = match (via, from) {
            (Via::Include | Via::Redefine, Some((d, n))) => {
                let outer = self.docs[d].tns;
                let outer_uri = self.s.names.namespace_uri(outer).to_string();
                match own_tns {
                    Some(t) if t != outer_uri => {
                        let c = if via == Via::Include {
                            "src-include"
                        } else {
                            "src-redefine"
                        };
                        self.error(c, d, n, format!(
                            "the document has target namespace '{t}', the including one '{outer_uri}'"
                        ));
                        return None;
                    }
                    Some(t) => t.to_string(),
                    None => {
                        chameleon = !outer_uri.is_empty();
                        outer_uri
                    }
                }
            }
            (Via::Import, Some((d, n))) => {
                let expected = expected_ns.flatten();
                if own_tns != expected {
                    self.error(
                        "src-import",
                        d,
                        n,
                        format!(
                            "the imported document's target namespace is '{}', the import says '{}'",
                            own_tns.unwrap_or(""),
                            expected.unwrap_or("")
                        ),
                    );
                    return None;
                }
                own_tns.unwrap_or("").to_string()
            }
            _ => own_tns.unwrap_or("").to_string(),
        };
        if own_tns == Some("") {
            self.errors.push(SchemaError {
                constraint: "s4s",
                message: "targetNamespace may not be the empty string".into(),
                file: Some(path.clone()),
                position: Some((root.line, root.column)),
                source: None,
            });
        }
        let tns = self.s.names.namespace(&tns_str);
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if let Some(&d) = self.loaded.get(&(canonical.clone(), tns)) {
            return Some(d);
        }
        let file = FileId::from_index(self.s.files.len());
        self.s.files.push(path.clone());
        if !self.s.target_namespaces.contains(&tns) {
            self.s.target_namespaces.push(tns);
        }
        let block_default = derivation_set(
            root.attr("blockDefault"),
            DerivationSet::EXTENSION | DerivationSet::RESTRICTION | DerivationSet::SUBSTITUTION,
        )
        .unwrap_or_default();
        let final_default = derivation_set(
            root.attr("finalDefault"),
            DerivationSet::EXTENSION
                | DerivationSet::RESTRICTION
                | DerivationSet::LIST
                | DerivationSet::UNION,
        )
        .unwrap_or_default();
        let d = self.docs.len();
        self.docs.push(Doc {
            file,
            tns,
            chameleon,
            element_qualified: root.attr("elementFormDefault").map(str::trim) == Some("qualified"),
            attribute_qualified: root.attr("attributeFormDefault").map(str::trim)
                == Some("qualified"),
            block_default,
            final_default,
            imports: HashSet::new(),
            dir,
        });
        self.loaded.insert((canonical, tns), d);
        let mut violations = Vec::new();
        structure::check(&root, &mut violations);
        for v in violations {
            self.error("s4s", d, v.node, v.message);
        }
        // Composition first, so that redefinitions find what they redefine.
        for child in root.children.iter().filter(|c| c.ns == XSD_NAMESPACE) {
            match child.local.as_str() {
                "include" => {
                    if let Some(loc) = child.attr("schemaLocation") {
                        self.follow(d, child, loc, Via::Include, None);
                    }
                }
                "redefine" => {
                    let target = child
                        .attr("schemaLocation")
                        .and_then(|loc| self.follow(d, child, loc, Via::Redefine, None));
                    self.register_redefinitions(d, child, target);
                }
                "import" => {
                    let ns = child.attr("namespace");
                    if ns == Some("") {
                        self.error(
                            "s4s",
                            d,
                            child,
                            "the namespace of an import may not be empty".into(),
                        );
                    }
                    let own = self.s.names.namespace_uri(self.docs[d].tns).to_string();
                    if ns.unwrap_or("") == own {
                        self.error(
                            "src-import",
                            d,
                            child,
                            format!("a document may not import its own target namespace '{own}'"),
                        );
                        continue;
                    }
                    let ns_id = self.s.names.namespace(ns.unwrap_or(""));
                    self.docs[d].imports.insert(ns_id);
                    let by_ns = ns.and_then(|n| self.opts.catalog.resolve_namespace(n));
                    if let Some(p) = by_ns {
                        self.read_referenced(d, child, p, Via::Import, Some(ns));
                    } else if let Some(loc) = child.attr("schemaLocation") {
                        self.follow(d, child, loc, Via::Import, Some(ns));
                    }
                }
                _ => {}
            }
        }
        for child in root.children.iter().filter(|c| c.ns == XSD_NAMESPACE) {
            self.register(d, child, None);
        }
        Some(d)
    }

    /// Resolves a `schemaLocation` (catalog, then relative) and reads the document. A location
    /// that resolves to nothing is not an error (references into it will fail).
    fn follow(
        &mut self,
        d: usize,
        node: &XNode,
        location: &str,
        via: Via,
        expected_ns: Option<Option<&str>>,
    ) -> Option<usize> {
        let location = location.trim();
        let path = if let Some(p) = self.opts.catalog.resolve_location(location) {
            p
        } else if location.contains("://") && !location.starts_with("file://") {
            return None; // never the network
        } else {
            let l = location.strip_prefix("file://").unwrap_or(location);
            let l = l.split('#').next().unwrap_or(l);
            self.docs[d].dir.join(l)
        };
        self.read_referenced(d, node, path, via, expected_ns)
    }

    fn read_referenced(
        &mut self,
        d: usize,
        node: &XNode,
        path: PathBuf,
        via: Via,
        expected_ns: Option<Option<&str>>,
    ) -> Option<usize> {
        if !path.is_file() {
            return None;
        }
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        // The same document included into itself (directly or not) with the same namespace
        // is found in `loaded` (it is registered before its includes are followed).
        let bytes = std::fs::read(&path).ok()?;
        let dir = canonical.parent().unwrap_or(Path::new(".")).to_path_buf();
        let own = self.docs[d].tns;
        if via != Via::Import {
            if let Some(&existing) = self.loaded.get(&(canonical.clone(), own)) {
                return Some(existing);
            }
        }
        self.load_bytes(&bytes, path, dir, via, Some((d, node)), expected_ns)
    }

    /// Registers a top-level definition under its name.
    fn register(&mut self, d: usize, node: &Rc<XNode>, redefines: Option<usize>) -> Option<usize> {
        let kind = match node.local.as_str() {
            "simpleType" | "complexType" => Kind::Type,
            "element" => Kind::Element,
            "attribute" => Kind::Attribute,
            "group" => Kind::Group,
            "attributeGroup" => Kind::AttributeGroup,
            "notation" => Kind::Notation,
            _ => return None,
        };
        let local = node.attr("name")?.trim().to_string();
        let name = self.s.names.name(self.docs[d].tns, &local);
        let idx = self.defs.len();
        self.defs.push(Def {
            kind,
            name,
            doc: d,
            node: node.clone(),
            redefines,
        });
        if redefines.is_some() {
            self.def_index.insert((kind, name), idx);
            return Some(idx);
        }
        let builtin = kind == Kind::Type && self.s.global_types.contains_key(&name);
        if builtin || self.def_index.contains_key(&(kind, name)) {
            let what = match kind {
                Kind::Type => "type definition",
                Kind::Element => "element declaration",
                Kind::Attribute => "attribute declaration",
                Kind::Group => "model group definition",
                Kind::AttributeGroup => "attribute group definition",
                Kind::Notation => "notation declaration",
            };
            let shown = self.s.display_name(name);
            self.error(
                "sch-props-correct",
                d,
                node,
                format!("a second {what} named '{shown}'"),
            );
            self.defs.pop();
            return None;
        }
        self.def_index.insert((kind, name), idx);
        Some(idx)
    }

    /// The children of an `xs:redefine`: each replaces the definition of the same name of the
    /// redefined document.
    fn register_redefinitions(&mut self, d: usize, redefine: &XNode, target: Option<usize>) {
        for child in redefine.children.iter().filter(|c| c.ns == XSD_NAMESPACE) {
            let kind = match child.local.as_str() {
                "simpleType" | "complexType" => Kind::Type,
                "group" => Kind::Group,
                "attributeGroup" => Kind::AttributeGroup,
                _ => continue,
            };
            let Some(local) = child.attr("name") else {
                continue;
            };
            let name = self.s.names.name(self.docs[d].tns, local.trim());
            let original = self.def_index.get(&(kind, name)).copied();
            match original {
                Some(o) if target.is_some() && self.defs[o].doc >= target.unwrap_or(0) => {
                    self.register(d, child, Some(o));
                }
                _ => {
                    if target.is_some() {
                        let shown = self.s.display_name(name);
                        self.error(
                            "src-redefine",
                            d,
                            child,
                            format!(
                                "the redefined document has no '{shown}' of this kind to redefine"
                            ),
                        );
                    }
                }
            }
        }
    }
}
