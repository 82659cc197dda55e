//! The schema's names of the reader's names, by the ids the reader interned them under: a
//! name's text is looked at only on its first sighting.

use super::Shared;
use crate::model::{NameId, NamespaceId};

const NS_UNSEEN: NamespaceId = NamespaceId(u32::MAX - 1);

/// The schema namespace of each reader namespace id, and the schema name of each reader
/// qualified-name id, seen so far; kept from one document to the next while the reader's
/// name generation is the same.
#[derive(Debug, Default)]
pub(crate) struct Names {
    /// Schema namespace by reader namespace id (`NS_UNSEEN` when not looked up yet).
    ns: Vec<NamespaceId>,
    /// Schema name by reader qualified-name id: (reader namespace id, name) of the last
    /// lookup.
    names: Vec<(u32, Option<NameId>)>,
    /// The reader name generation the two caches are of
    /// ([`Reader::name_generation`](xwire::Reader::name_generation); 0: none).
    generation: u64,
}

impl Names {
    /// Empties the caches unless they are of name generation `generation`.
    #[inline]
    pub(crate) fn reset(&mut self, generation: u64) {
        if generation != self.generation {
            self.ns.clear();
            self.names.clear();
            self.generation = generation;
        }
    }
}

impl Shared<'_> {
    /// The schema's namespace of reader namespace `rns`; `uri` is asked for only on its first
    /// sighting.
    #[inline]
    pub(crate) fn map_ns<'u>(
        &mut self,
        rns: xwire::NsId,
        uri: impl FnOnce() -> &'u str,
    ) -> NamespaceId {
        match self.names.ns.get(rns.0 as usize) {
            Some(&n) if n != NS_UNSEEN => n,
            _ => self.map_ns_miss(rns, uri()),
        }
    }

    #[cold]
    fn map_ns_miss(&mut self, rns: xwire::NsId, uri: &str) -> NamespaceId {
        let i = rns.0 as usize;
        let n = self
            .schema
            .names
            .lookup_namespace(uri)
            .unwrap_or(NamespaceId::UNKNOWN);
        let cache = &mut self.names.ns;
        if i < 1 << 20 {
            if cache.len() <= i {
                cache.resize(i + 1, NS_UNSEEN);
            }
            cache[i] = n;
        }
        n
    }

    /// The schema's name of reader name `qname` in reader namespace `rns` (schema namespace
    /// `ns`); `local` is asked for only on its first sighting.
    #[inline]
    pub(crate) fn map_name<'u>(
        &mut self,
        qname: xwire::Id,
        rns: xwire::NsId,
        ns: NamespaceId,
        local: impl FnOnce() -> &'u str,
    ) -> Option<NameId> {
        match self.names.names.get(qname.0 as usize) {
            Some(&(cached_ns, n)) if cached_ns == rns.0 => n,
            _ => self.map_name_miss(qname, rns, ns, local()),
        }
    }

    #[cold]
    fn map_name_miss(
        &mut self,
        qname: xwire::Id,
        rns: xwire::NsId,
        ns: NamespaceId,
        local: &str,
    ) -> Option<NameId> {
        let i = qname.0 as usize;
        let n = if ns == NamespaceId::UNKNOWN {
            None
        } else {
            self.schema.names.lookup(ns, local)
        };
        let cache = &mut self.names.names;
        if i < 1 << 20 {
            if cache.len() <= i {
                cache.resize(i + 1, (u32::MAX, None));
            }
            cache[i] = (rns.0, n);
        }
        n
    }
}
