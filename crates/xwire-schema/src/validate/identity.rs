//! Identity constraints (`xs:unique`, `xs:key`, `xs:keyref`): the engine is the runtime's
//! (`xwire::bind::identity`, shared with generated parsers); here are the schema's
//! constraints as it asks for them, and the key of a typed value.

use xwire::bind::identity::{self, Constraints, FieldStep};

use crate::datatypes::Value;
use crate::model::{IdentityConstraintId, IdentityKind, NameTest, NamespaceId, Schema};

pub(crate) use xwire::bind::identity::{IdError, KeyPart};

/// The identity-constraint state of one document: element names as namespace ids.
pub(crate) type Identity = identity::Identity<(NamespaceId, String)>;

/// A key part from a typed value.
pub(crate) fn key_part(v: &Value) -> KeyPart {
    identity::value_key(v)
}

fn test_matches(t: &NameTest, (ns, local): &(NamespaceId, String)) -> bool {
    match t {
        NameTest::Any => true,
        NameTest::Namespace(n) => n == ns,
        NameTest::Name(n, l) => n == ns && **l == **local,
    }
}

impl Constraints for Schema {
    type Name = (NamespaceId, String);

    fn kind(&self, ic: usize) -> identity::Kind {
        match self
            .identity_constraint(IdentityConstraintId::from_index(ic))
            .kind
        {
            IdentityKind::Unique => identity::Kind::Unique,
            IdentityKind::Key => identity::Kind::Key,
            IdentityKind::KeyRef(target) => identity::Kind::KeyRef(target.index()),
        }
    }

    fn display(&self, ic: usize) -> String {
        self.display_name(
            self.identity_constraint(IdentityConstraintId::from_index(ic))
                .name,
        )
    }

    fn field_count(&self, ic: usize) -> usize {
        self.identity_constraint(IdentityConstraintId::from_index(ic))
            .fields
            .len()
    }

    fn field_source(&self, ic: usize, field: usize) -> &str {
        &self
            .identity_constraint(IdentityConstraintId::from_index(ic))
            .fields[field]
            .1
    }

    fn selects(&self, ic: usize, rel: &[(NamespaceId, String)]) -> bool {
        self.identity_constraint(IdentityConstraintId::from_index(ic))
            .selector
            .iter()
            .any(|p| identity::path_matches(p.descendants, &p.steps, rel, test_matches))
    }

    fn field_step(
        &self,
        ic: usize,
        field: usize,
        rel: &[(NamespaceId, String)],
    ) -> Option<FieldStep> {
        let paths = &self
            .identity_constraint(IdentityConstraintId::from_index(ic))
            .fields[field]
            .0;
        let i = paths
            .iter()
            .position(|p| identity::path_matches(p.descendants, &p.steps, rel, test_matches))?;
        Some(match paths[i].attribute {
            None => FieldStep::Element,
            Some(_) => FieldStep::Attribute { path: i },
        })
    }

    fn attribute_selected(
        &self,
        ic: usize,
        field: usize,
        path: usize,
        attribute: &(NamespaceId, String),
    ) -> bool {
        self.identity_constraint(IdentityConstraintId::from_index(ic))
            .fields[field]
            .0[path]
            .attribute
            .as_ref()
            .is_some_and(|t| test_matches(t, attribute))
    }
}
