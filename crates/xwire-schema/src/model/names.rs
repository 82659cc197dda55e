//! Interned namespaces and expanded names.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{NameId, NamespaceId};

/// A map keyed by text, hashed a word at a time ([`TextHasher`]).
type TextMap<V> = HashMap<Box<str>, V, BuildHasherDefault<TextHasher>>;

/// A multiply-rotate hash over 8-byte words, for the table's names and namespaces. A
/// validator looks up each name of a document once per document, so SipHash (the default,
/// keyed against flooding) cost about a tenth of validating a 1 KB purchase order; the keys
/// are the schema's own names, which lookups never add to.
#[derive(Default)]
struct TextHasher(u64);

impl Hasher for TextHasher {
    fn finish(&self) -> u64 {
        // The table takes its bucket from the low bits: fold the high ones in.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, b: u8) {
        // `str` ends its hash with a 0xff byte.
        self.write_u64(u64::from(b));
    }

    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The XML Schema namespace.
pub const XSD_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema";
/// The XML Schema instance namespace (`xsi:type`, `xsi:nil`, ...).
pub const XSI_NAMESPACE: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// The namespaces and expanded names a schema mentions, each interned once.
///
/// Lookups by text ([`NameTable::lookup`]) never add to the table, so a validator can map an
/// instance's names to ids through a shared, immutable schema.
#[derive(Debug, Clone)]
pub struct NameTable {
    namespaces: Vec<Box<str>>,
    namespace_ids: TextMap<NamespaceId>,
    names: Vec<(NamespaceId, Box<str>)>,
    /// By namespace index, so that a lookup by `&str` needs no allocation.
    name_ids: Vec<TextMap<NameId>>,
}

impl NameTable {
    /// A table holding only [`NamespaceId::ABSENT`] (as the empty string).
    pub(crate) fn new() -> NameTable {
        let mut t = NameTable {
            namespaces: Vec::new(),
            namespace_ids: TextMap::default(),
            names: Vec::new(),
            name_ids: Vec::new(),
        };
        t.namespace("");
        t
    }

    /// Interns a namespace name (`""` is [`NamespaceId::ABSENT`]).
    pub(crate) fn namespace(&mut self, uri: &str) -> NamespaceId {
        if let Some(&id) = self.namespace_ids.get(uri) {
            return id;
        }
        let id = NamespaceId::from_index(self.namespaces.len());
        self.namespaces.push(uri.into());
        self.namespace_ids.insert(uri.into(), id);
        self.name_ids.push(TextMap::default());
        id
    }

    /// Interns an expanded name.
    pub(crate) fn name(&mut self, ns: NamespaceId, local: &str) -> NameId {
        if let Some(id) = self.lookup(ns, local) {
            return id;
        }
        let id = NameId::from_index(self.names.len());
        self.names.push((ns, local.into()));
        self.name_ids[ns.index()].insert(local.into(), id);
        id
    }

    /// The id of a namespace name, if the schema mentions it (`""` gives
    /// [`NamespaceId::ABSENT`]).
    pub fn lookup_namespace(&self, uri: &str) -> Option<NamespaceId> {
        self.namespace_ids.get(uri).copied()
    }

    /// The id of an expanded name, if the schema mentions it.
    pub fn lookup(&self, ns: NamespaceId, local: &str) -> Option<NameId> {
        self.name_ids.get(ns.index())?.get(local).copied()
    }

    /// The namespace name of `ns` (`""` for [`NamespaceId::ABSENT`]; `"?"` for
    /// [`NamespaceId::UNKNOWN`]).
    pub fn namespace_uri(&self, ns: NamespaceId) -> &str {
        if ns == NamespaceId::UNKNOWN {
            return "?";
        }
        &self.namespaces[ns.index()]
    }

    /// The namespace of a name.
    pub fn ns(&self, name: NameId) -> NamespaceId {
        self.names[name.index()].0
    }

    /// The local part of a name.
    pub fn local(&self, name: NameId) -> &str {
        &self.names[name.index()].1
    }

    /// `{namespace}local`, or `local` for an unqualified name.
    pub fn display(&self, name: NameId) -> String {
        let (ns, local) = &self.names[name.index()];
        if *ns == NamespaceId::ABSENT {
            local.to_string()
        } else {
            format!("{{{}}}{}", self.namespace_uri(*ns), local)
        }
    }

    /// How many names are interned.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no name is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
