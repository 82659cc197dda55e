//! The namespace bindings in scope, and the `xsi:type` values resolved under them.
//!
//! The state of the bindings in scope has an id: the same declarations over the same state,
//! in this document or the next, make the same id, so what was resolved under a state
//! (an `xsi:type` value) holds while the id is the same: the next message's envelope
//! declarations make the same state as the last one's.

use super::Shared;
use crate::datatypes::trim_xml;
use crate::model::{DerivationSet, ElementId, TypeId};

/// How many namespace binding states a validator tells apart from document to document
/// (what a message's envelope declares, and an element or two inside).
const BINDING_STATES: usize = 64;

/// How many distinct `xsi:type` resolutions a validator keeps.
const XSI_TYPE_CACHE: usize = 32;

/// The namespace bindings in scope.
#[derive(Debug)]
pub(crate) struct Scope {
    /// Namespace bindings in scope: (prefix start, uri start, end) in `text`, and the `state`
    /// before the binding.
    bindings: Vec<(usize, usize, usize, u64)>,
    text: String,
    /// The states of the bindings that `state` names by their index + 1 (0: none in scope):
    /// the state before, and the binding declared over it. At most [`BINDING_STATES`];
    /// beyond, each declaration makes a state of its own (`fresh`).
    states: Vec<(u64, Box<str>, Box<str>)>,
    /// The last state id given beyond `states`: never any state's again.
    fresh: u64,
    /// The state of the namespace bindings in scope: the same id, the same bindings.
    state: u64,
}

impl Default for Scope {
    fn default() -> Scope {
        Scope {
            bindings: Vec::new(),
            text: String::new(),
            states: Vec::new(),
            fresh: BINDING_STATES as u64,
            state: 0,
        }
    }
}

impl Scope {
    /// No binding in scope (the states stay known).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.bindings.clear();
        self.text.clear();
        self.state = 0;
    }

    /// How many bindings are in scope (to take out of scope with
    /// [`Shared::pop_bindings`]).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.bindings.len()
    }

    /// The id of the state `prefix` bound to `uri` makes over state `before`.
    fn state_after(&mut self, before: u64, prefix: &str, uri: &str) -> u64 {
        let known = self
            .states
            .iter()
            .position(|(b, p, u)| *b == before && **p == *prefix && **u == *uri);
        match known {
            Some(i) => i as u64 + 1,
            None if self.states.len() < BINDING_STATES => {
                self.states.push((before, prefix.into(), uri.into()));
                self.states.len() as u64
            }
            None => {
                self.fresh += 1;
                self.fresh
            }
        }
    }

    /// The namespace a prefix is bound to in scope (`""` for none), borrowed.
    pub(crate) fn prefix_uri(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(xwire::XML_NS);
        }
        for &(p, u, e, _) in self.bindings.iter().rev() {
            if &self.text[p..u] == prefix {
                return Some(&self.text[u..e]);
            }
        }
        prefix.is_empty().then_some("")
    }
}

/// An `xsi:type` value resolved: the value, the namespace its prefix was bound to, the type
/// it names, and the last binding state under which the prefix was found bound so (the same
/// value under the same bindings needs no lookup: the accessors of an encoded struct).
#[derive(Debug)]
struct XsiTypeEntry {
    value: String,
    uri: String,
    ty: Option<TypeId>,
    state: u64,
}

/// Resolved `xsi:type` values, kept from document to document (the schema does not change).
#[derive(Debug, Default)]
pub(crate) struct XsiTypes {
    entries: Vec<XsiTypeEntry>,
    /// The entry the last `xsi:type` used, with the binding state it was resolved under.
    last: Option<(u64, usize)>,
}

impl Shared<'_> {
    /// How many bindings are in scope.
    #[inline]
    pub(crate) fn bindings(&self) -> usize {
        self.scope.len()
    }

    /// Puts the binding of namespace declaration `a` in scope.
    pub(crate) fn push_binding(&mut self, a: &xwire::Attribute<'_>) {
        let prefix = if a.prefix().is_some() {
            a.local_name()
        } else {
            ""
        };
        let s = &mut self.scope;
        let before = s.state;
        let p = s.text.len();
        s.text.push_str(prefix);
        let u = s.text.len();
        s.text.push_str(a.value());
        s.bindings.push((p, u, s.text.len(), before));
        s.state = s.state_after(before, prefix, a.value());
    }

    /// Takes the bindings declared since there were `len` out of scope.
    pub(crate) fn pop_bindings(&mut self, len: usize) {
        let s = &mut self.scope;
        if let Some(&(_, _, _, before)) = s.bindings.get(len) {
            s.state = before;
        }
        s.bindings.truncate(len);
        match s.bindings.last() {
            Some(&(_, _, e, _)) => s.text.truncate(e),
            None => s.text.clear(),
        }
    }

    /// The namespace a prefix is bound to in scope (`""` for none), borrowed.
    #[inline]
    pub(crate) fn prefix_uri(&self, prefix: &str) -> Option<&str> {
        self.scope.prefix_uri(prefix)
    }

    /// Resolves a prefix with the bindings in scope (for QName values).
    pub(crate) fn resolve_prefix(&self, prefix: &str) -> Option<String> {
        self.prefix_uri(prefix).map(str::to_string)
    }

    /// The type `xsi:type="value"` names (`Some(None)`: none of the schema), when it can be
    /// told without allocating: from the cache, or a well-formed QName with a bound prefix.
    /// `None` otherwise: the general pass then checks the value as a QName and says what is
    /// wrong.
    pub(crate) fn xsi_type_lookup(&mut self, value: &str) -> Option<Option<TypeId>> {
        let schema = self.schema;
        let trimmed = trim_xml(value);
        let cache = &mut self.xsi_types;
        let gen = self.scope.state;
        // Resolved just before, under the same bindings (the common case: every item of an
        // array typed the same way).
        if let Some((g, i)) = cache.last {
            if g == gen && cache.entries[i].value == trimmed {
                return Some(cache.entries[i].ty);
            }
        }
        // Resolved before under the same bindings.
        if let Some(i) = cache
            .entries
            .iter()
            .position(|e| e.state == gen && e.value == trimmed)
        {
            cache.last = Some((gen, i));
            return Some(cache.entries[i].ty);
        }
        let (prefix, local) = match trimmed.bytes().position(|b| b == b':') {
            Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
            None => ("", trimmed),
        };
        // Resolved before: from the cache, keyed by the value and the namespace its prefix
        // is bound to here.
        let found = self.scope.prefix_uri(prefix).and_then(|uri| {
            cache
                .entries
                .iter()
                .position(|e| e.value == trimmed && e.uri == uri)
        });
        if let Some(i) = found {
            cache.last = Some((gen, i));
            cache.entries[i].state = gen;
            return Some(cache.entries[i].ty);
        }
        let lexical_ok = xwire::chars::is_ncname(local)
            && (prefix.is_empty() || xwire::chars::is_ncname(prefix));
        if !lexical_ok {
            return None;
        }
        let uri = self.scope.prefix_uri(prefix)?;
        let t = schema
            .names
            .lookup_namespace(uri)
            .and_then(|ns| schema.names.lookup(ns, local))
            .and_then(|n| schema.global_type(n));
        if cache.entries.len() < XSI_TYPE_CACHE {
            let uri = uri.to_string();
            cache.last = Some((gen, cache.entries.len()));
            cache.entries.push(XsiTypeEntry {
                value: trimmed.to_string(),
                uri,
                ty: t,
                state: gen,
            });
        }
        Some(t)
    }

    /// Whether entry `i` of the `xsi:type` cache resolves `value` to `ty` under the bindings
    /// in scope. The values are compared in place (a `memcmp` call cost as much as the rest);
    /// out of line, the comparison's four cases are not copied into the lean pass's loop.
    #[inline(never)]
    pub(crate) fn xsi_type_cached(&self, i: usize, value: &str, ty: TypeId) -> bool {
        self.xsi_types.entries.get(i).is_some_and(|e| {
            e.state == self.scope.state
                && e.ty == Some(ty)
                && xwire::bytes::same_bytes(e.value.as_bytes(), trim_xml(value).as_bytes())
        })
    }

    /// The entry of the `xsi:type` cache the last resolution used, if it is current.
    pub(crate) fn xsi_type_entry(&self) -> Option<usize> {
        match self.xsi_types.last {
            Some((g, i)) if g == self.scope.state => Some(i),
            _ => None,
        }
    }

    /// Whether declaration `e` may be typed by `xsi:type` naming `ty` with no check but the
    /// type's own: the declaration is not abstract and has no identity or value constraint,
    /// and `ty` derives from its type without a blocked step.
    pub(crate) fn xsi_type_without_checks(&self, e: ElementId, ty: TypeId) -> bool {
        let ed = self.schema.element(e);
        !ed.is_abstract
            && ed.identity_constraints.is_empty()
            && ed.value_constraint.is_none()
            && self
                .schema
                .derives_from(ty, ed.type_def, self.blocked_by(Some(e), ed.type_def))
    }

    /// The derivations an `xsi:type` may not use in place of `declared`: those its element
    /// declaration and the declared type block.
    pub(crate) fn blocked_by(&self, decl: Option<ElementId>, declared: TypeId) -> DerivationSet {
        let mut blocked = decl.map_or(DerivationSet::EMPTY, |e| self.schema.element(e).block);
        if let TypeId::Complex(c) = declared {
            blocked |= self.schema.complex_type(c).block;
        }
        blocked
    }
}
