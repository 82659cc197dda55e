//! What both engines use ([`Shared`]): the schema, the plans compiled from it and the options,
//! and the services whose state outlives a pass, as the reader slot does: the schema's names
//! of the reader's names (`names`), the namespace bindings in scope and the `xsi:type` values
//! resolved under them (`scope`), and the checks of simple values with the string
//! allocations they recycle (`values`).
//!
//! The engines' own state and caches are theirs ([`Lean`](super::lean::Lean),
//! the general pass's in the validator); these are shared because they are keyed by what
//! both passes over one document see alike: the reader's interned ids, and the namespace
//! bindings of the document.

use std::cell::RefCell;
use std::sync::Arc;

use super::errors::ValidationOptions;
use super::plans::Plans;
use crate::model::{AttributeId, ComplexTypeId, NameId, NamespaceId, Schema, XSI_NAMESPACE};

mod names;
mod scope;
mod uses;
mod values;

pub(crate) use names::Names;
pub(crate) use scope::{Scope, XsiTypes};
pub(crate) use uses::UseIndex;

/// The pieces both engines use; see the [module](self).
pub(crate) struct Shared<'s> {
    pub(crate) schema: &'s Schema,
    /// What the validator compiled from the schema (shared by its clones).
    pub(crate) plans: Arc<Plans>,
    pub(crate) options: ValidationOptions,
    /// The schema's `xsi:` namespace and names.
    pub(crate) xsi: Xsi,
    names: Names,
    scope: Scope,
    xsi_types: XsiTypes,
    /// Allocations of the string values dropped, for the next ones.
    string_pool: RefCell<Vec<String>>,
}

/// The schema instance namespace and the names of `xsi:type` and `xsi:nil` as the schema
/// interned them, and the declaration of `xsi:type` (the schema's built-in one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Xsi {
    pub(crate) ns: Option<NamespaceId>,
    pub(crate) type_name: Option<NameId>,
    pub(crate) nil_name: Option<NameId>,
    pub(crate) type_decl: Option<AttributeId>,
}

impl<'s> Shared<'s> {
    pub(crate) fn new(schema: &'s Schema, plans: Arc<Plans>, options: ValidationOptions) -> Self {
        let ns = schema.names.lookup_namespace(XSI_NAMESPACE);
        let name = |local| ns.and_then(|ns| schema.names.lookup(ns, local));
        Shared {
            schema,
            plans,
            options,
            xsi: Xsi {
                ns,
                type_name: name("type"),
                nil_name: name("nil"),
                type_decl: name("type").and_then(|n| schema.global_attribute(n)),
            },
            names: Names::default(),
            scope: Scope::default(),
            xsi_types: XsiTypes::default(),
            string_pool: RefCell::new(Vec::new()),
        }
    }

    /// Starts a new document, read by `reader`: no bindings in scope; the name caches stay
    /// while the reader's ids mean the names they meant for the last document.
    #[inline]
    pub(crate) fn reset(&mut self, reader: &xwire::Reader<'_>) {
        self.names.reset(reader.name_generation());
        self.scope.clear();
    }
}

/// The content model of complex type `c`: the schema's, or the one `plans` compiled for a
/// schema without its own.
#[inline]
pub(crate) fn model_of<'a>(
    schema: &'a Schema,
    plans: &'a Plans,
    c: ComplexTypeId,
) -> Option<&'a crate::validate::ContentModel> {
    let models = match &plans.fallback {
        Some(f) => f.as_slice(),
        None => schema.content_models.as_slice(),
    };
    models.get(c.index())?.as_ref()
}
