//! Where schema documents are found: a map from namespace names and `schemaLocation` URIs to
//! files, filled by hand or from an OASIS XML Catalog.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::document;
use crate::model::{Cause, SchemaError};

/// Nested `nextCatalog` files deeper than this are ignored (and cycles are cut).
const MAX_CATALOG_DEPTH: usize = 16;

/// Maps namespace names and `schemaLocation` URIs to local files. The loader consults it
/// before resolving a location relative to the referring document; it never uses the
/// network.
///
/// ```
/// use xwire_schema::load::Catalog;
///
/// let mut catalog = Catalog::new();
/// catalog.add_namespace("http://example.com/po", "schemas/po.xsd");
/// catalog.add_location("http://example.com/po.xsd", "schemas/po.xsd");
/// assert!(catalog.resolve_namespace("http://example.com/po").is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    namespaces: HashMap<String, PathBuf>,
    locations: HashMap<String, PathBuf>,
    /// (URI prefix, replacement path prefix), longest prefix wins.
    rewrites: Vec<(String, String)>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Catalog::default()
    }

    /// The schema document for namespace `ns` (used by `xs:import`, also without a
    /// `schemaLocation`).
    pub fn add_namespace(&mut self, ns: &str, path: impl Into<PathBuf>) {
        self.namespaces.insert(ns.to_string(), path.into());
    }

    /// The file to read for the `schemaLocation` URI `uri`.
    pub fn add_location(&mut self, uri: &str, path: impl Into<PathBuf>) {
        self.locations.insert(uri.to_string(), path.into());
    }

    /// The file registered for a namespace.
    pub fn resolve_namespace(&self, ns: &str) -> Option<PathBuf> {
        self.namespaces.get(ns).cloned()
    }

    /// The file for a `schemaLocation` URI: an exact entry, else the longest rewrite prefix.
    pub fn resolve_location(&self, uri: &str) -> Option<PathBuf> {
        if let Some(p) = self.locations.get(uri) {
            return Some(p.clone());
        }
        self.rewrites
            .iter()
            .filter(|(prefix, _)| uri.starts_with(prefix.as_str()))
            .max_by_key(|(prefix, _)| prefix.len())
            .map(|(prefix, to)| PathBuf::from(format!("{to}{}", &uri[prefix.len()..])))
    }

    /// Reads an OASIS XML Catalog (the subset `uri`, `system`, `rewriteURI`,
    /// `rewriteSystem` and `nextCatalog`; `group` elements are entered). Relative paths are
    /// relative to the catalog file. Entries of a `nextCatalog` never replace earlier ones.
    pub fn from_file(path: &Path) -> Result<Catalog, SchemaError> {
        let mut catalog = Catalog::new();
        let mut seen = Vec::new();
        catalog.read_file(path, 0, &mut seen)?;
        Ok(catalog)
    }

    fn read_file(
        &mut self,
        path: &Path,
        depth: usize,
        seen: &mut Vec<PathBuf>,
    ) -> Result<(), SchemaError> {
        let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if depth > MAX_CATALOG_DEPTH || seen.contains(&canonical) {
            return Ok(());
        }
        seen.push(canonical);
        let error = |message: String, position, source| SchemaError {
            constraint: "catalog",
            message,
            file: Some(path.to_path_buf()),
            position,
            source,
        };
        let bytes = std::fs::read(path).map_err(|e| {
            let message = format!("cannot read the catalog: {e}");
            error(message, None, Some(Cause::io(e)))
        })?;
        let root = document::read(&bytes).map_err(|(m, p, e)| {
            let message = format!("the catalog is not well-formed: {m}");
            error(message, p, e.map(Cause::Xml))
        })?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut next = Vec::new();
        self.entries(&root, &dir, &mut next);
        for n in next {
            self.read_file(&n, depth + 1, seen)?;
        }
        Ok(())
    }

    fn entries(&mut self, node: &document::XNode, dir: &Path, next: &mut Vec<PathBuf>) {
        let rel = |p: &str| -> PathBuf {
            let p = p.strip_prefix("file://").unwrap_or(p);
            dir.join(p)
        };
        for c in &node.children {
            match c.local.as_str() {
                "uri" => {
                    if let (Some(name), Some(uri)) = (c.attr("name"), c.attr("uri")) {
                        let p = rel(uri);
                        self.namespaces
                            .entry(name.to_string())
                            .or_insert_with(|| p.clone());
                        self.locations.entry(name.to_string()).or_insert(p);
                    }
                }
                "system" => {
                    if let (Some(id), Some(uri)) = (c.attr("systemId"), c.attr("uri")) {
                        self.locations.entry(id.to_string()).or_insert(rel(uri));
                    }
                }
                "rewriteURI" | "rewriteSystem" => {
                    let start = c.attr("uriStartString").or(c.attr("systemIdStartString"));
                    if let (Some(start), Some(to)) = (start, c.attr("rewritePrefix")) {
                        if !self.rewrites.iter().any(|(s, _)| s == start) {
                            let to = rel(to).to_string_lossy().into_owned();
                            self.rewrites.push((start.to_string(), to));
                        }
                    }
                }
                "nextCatalog" => {
                    if let Some(p) = c.attr("catalog") {
                        next.push(rel(p));
                    }
                }
                "group" => self.entries(c, dir, next),
                _ => {}
            }
        }
    }
}
