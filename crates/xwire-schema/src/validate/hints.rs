//! `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation`: the hints an instance gives about
//! where its schema is. Validation never follows them on its own (a document must not choose
//! the schema it is checked against); a caller that trusts its documents reads them here and
//! loads the schema first (`xwire validate --use-hints`).

use std::path::{Path, PathBuf};

use crate::model::XSI_NAMESPACE;

/// At most this many hints are kept: a document may repeat them on every element.
const MAX_HINTS: usize = 1000;

/// The hints of every element of `bytes`, in document order, as (namespace, location) pairs;
/// the namespace is empty for `xsi:noNamespaceSchemaLocation`. Errors only when the
/// document is not well-formed.
///
/// ```
/// use xwire_schema::validate::schema_location_hints;
///
/// let doc = br#"<po xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
///                  xsi:schemaLocation="urn:po po.xsd  urn:a a.xsd"/>"#;
/// let hints = schema_location_hints(doc).unwrap();
/// assert_eq!(hints, [("urn:po".into(), "po.xsd".into()), ("urn:a".into(), "a.xsd".into())]);
/// ```
pub fn schema_location_hints(bytes: &[u8]) -> Result<Vec<(String, String)>, xwire::Error> {
    let mut hints = Vec::new();
    let mut reader = xwire::Reader::from_slice(bytes);
    loop {
        match reader.next()? {
            xwire::Event::Start(tag) => {
                for a in tag.attributes() {
                    if hints.len() >= MAX_HINTS || a.namespace_uri() != XSI_NAMESPACE {
                        continue;
                    }
                    match a.local_name() {
                        "schemaLocation" => {
                            let value = a.value();
                            let mut it = value.split_ascii_whitespace();
                            while let (Some(ns), Some(loc)) = (it.next(), it.next()) {
                                hints.push((ns.to_string(), loc.to_string()));
                            }
                        }
                        "noNamespaceSchemaLocation" => {
                            hints.push((String::new(), a.value().trim().to_string()));
                        }
                        _ => {}
                    }
                }
            }
            xwire::Event::Eof => return Ok(hints),
            _ => {}
        }
    }
}

/// The local schema documents `hints` point to, relative to the folder of `instance`, each
/// once, in order. Absolute URLs (`http:`, `urn:`, ...) are left out: schemas are never
/// fetched from the network (map them to files with a catalog instead).
pub fn hinted_schema_paths(instance: &Path, hints: &[(String, String)]) -> Vec<PathBuf> {
    let dir = instance.parent().unwrap_or(Path::new("."));
    let mut paths: Vec<PathBuf> = Vec::new();
    for (_, location) in hints {
        let location = location.strip_prefix("file://").unwrap_or(location);
        let is_url = location.split_once(':').is_some_and(|(scheme, _)| {
            scheme.len() > 1 && scheme.bytes().all(|b| b.is_ascii_alphabetic())
        });
        if location.is_empty() || is_url {
            continue;
        }
        let path = dir.join(location);
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}
