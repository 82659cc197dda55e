//! Identity constraints (`xs:unique`, `xs:key`, `xs:keyref`) evaluated on the stream.
//!
//! A *scope* opens at each element whose declaration carries constraints. Elements below it
//! that match the selector become *targets*; the fields of a target are captured from its
//! attributes (at its start tag) and from the typed values of its descendants (at their end
//! tags). When a target closes, its key goes into the scope's table (duplicates violate
//! `unique`/`key`; a missing field violates `key`). Key tables that a `keyref` refers to
//! propagate to the ancestors (node tables), so a `keyref` checks its references against the
//! tables of its own element and its descendants when its scope closes.

use std::collections::HashSet;

use crate::datatypes::Value;
use crate::model::{
    IdentityConstraintId, IdentityKind, NameTest, NamespaceId, RestrictedPath, Schema,
};

/// One field value: a class (values of different primitive types never compare equal) and
/// the canonical form.
pub(crate) type KeyPart = (u8, String);

/// A key part from a typed value.
pub(crate) fn key_part(v: &Value) -> KeyPart {
    let class = match v {
        Value::String(_) => 0,
        Value::Bool(_) => 1,
        Value::Decimal(_) | Value::Integer(_) => 2,
        Value::Float(_) => 3,
        Value::Double(_) => 4,
        Value::Duration(_) => 5,
        Value::DateTime(_) => 6,
        Value::HexBinary(_) => 7,
        Value::Base64Binary(_) => 8,
        Value::QName { .. } => 9,
        Value::List(_) => 10,
    };
    let text = match v {
        // Integers and decimals share a value space: compare them in one form.
        Value::Decimal(d) => {
            let c = d.canonical_decimal();
            match c.strip_suffix(".0") {
                Some(int) => int.to_string(),
                None => c,
            }
        }
        Value::Integer(d) => d.canonical_integer(),
        // QNames are equal by namespace and local name, whatever their prefixes.
        _ => v.expanded_canonical(),
    };
    (class, text)
}

/// An error found: constraint, message, offset.
pub(crate) type IdError = (&'static str, String, u64);

#[derive(Debug)]
struct Scope {
    ic: IdentityConstraintId,
    depth: usize,
    keys: HashSet<Vec<KeyPart>>,
    refs: Vec<(Vec<KeyPart>, u64)>,
}

#[derive(Debug)]
struct Target {
    scope: usize,
    depth: usize,
    values: Vec<Option<KeyPart>>,
    /// Per field, whether a node was already selected (with or without a value): a field
    /// selecting two nodes is an error even when they have no simple value.
    selected: Vec<bool>,
    /// A field already broke cvc-identity-constraint.3 for this node: it takes no further
    /// part (no second "missing value" error, no entry in the table).
    faulted: bool,
    offset: u64,
}

#[derive(Debug)]
struct Capture {
    target: usize,
    field: usize,
    depth: usize,
}

/// A closed key or unique table, kept for the keyrefs of the ancestors.
#[derive(Debug)]
struct Table {
    ic: IdentityConstraintId,
    depth: usize,
    keys: HashSet<Vec<KeyPart>>,
}

/// The identity-constraint state of one document.
#[derive(Debug, Default)]
pub(crate) struct Identity {
    scopes: Vec<Scope>,
    targets: Vec<Target>,
    captures: Vec<Capture>,
    tables: Vec<Table>,
    /// Element names by depth, while a scope is open.
    names: Vec<(NamespaceId, String)>,
}

fn test_matches(t: &NameTest, ns: NamespaceId, local: &str) -> bool {
    match t {
        NameTest::Any => true,
        NameTest::Namespace(n) => *n == ns,
        NameTest::Name(n, l) => *n == ns && **l == *local,
    }
}

/// Whether `path` (without its attribute step) selects the element whose ancestors below the
/// context are `rel` (context child first, the element last).
fn path_matches(path: &RestrictedPath, rel: &[(NamespaceId, String)]) -> bool {
    let n = path.steps.len();
    if path.descendants {
        if rel.len() < n {
            return false;
        }
    } else if rel.len() != n {
        return false;
    }
    let tail = &rel[rel.len() - n..];
    path.steps
        .iter()
        .zip(tail)
        .all(|(t, (ns, l))| test_matches(t, *ns, l))
}

impl Identity {
    pub(crate) fn clear(&mut self) {
        self.scopes.clear();
        self.targets.clear();
        self.captures.clear();
        self.tables.clear();
    }

    /// Whether element names must be reported (a scope is open).
    pub(crate) fn active(&self) -> bool {
        !self.scopes.is_empty()
    }

    /// An element starts at `depth` (0 for the root): opens the scopes of `ics`, matches
    /// selectors and attribute fields. `attrs` are the element's attributes with their key
    /// values.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        &mut self,
        schema: &Schema,
        depth: usize,
        ns: NamespaceId,
        local: &str,
        ics: &[IdentityConstraintId],
        attrs: &[(NamespaceId, &str, KeyPart)],
        offset: u64,
        errors: &mut Vec<IdError>,
    ) {
        if self.scopes.is_empty() && ics.is_empty() {
            return;
        }
        if self.names.len() <= depth {
            self.names
                .resize_with(depth + 1, || (NamespaceId::ABSENT, String::new()));
        }
        self.names[depth].0 = ns;
        self.names[depth].1.clear();
        self.names[depth].1.push_str(local);
        for &ic in ics {
            self.scopes.push(Scope {
                ic,
                depth,
                keys: HashSet::new(),
                refs: Vec::new(),
            });
        }
        // Selectors.
        for (si, scope) in self.scopes.iter().enumerate() {
            let rel = &self.names[scope.depth + 1..=depth];
            let c = schema.identity_constraint(scope.ic);
            if c.selector.iter().any(|p| path_matches(p, rel)) {
                self.targets.push(Target {
                    scope: si,
                    depth,
                    values: vec![None; c.fields.len()],
                    selected: vec![false; c.fields.len()],
                    faulted: false,
                    offset,
                });
            }
        }
        // Fields.
        for ti in 0..self.targets.len() {
            let t = &self.targets[ti];
            let ic = schema.identity_constraint(self.scopes[t.scope].ic);
            let rel = &self.names[t.depth + 1..=depth];
            for (fi, (alternatives, source)) in ic.fields.iter().enumerate() {
                for p in alternatives {
                    if !path_matches(p, rel) {
                        continue;
                    }
                    match &p.attribute {
                        None => self.captures.push(Capture {
                            target: ti,
                            field: fi,
                            depth,
                        }),
                        Some(test) => {
                            for (ans, alocal, key) in attrs {
                                if test_matches(test, *ans, alocal) {
                                    let again =
                                        std::mem::replace(&mut self.targets[ti].selected[fi], true);
                                    let slot = &mut self.targets[ti].values[fi];
                                    if again {
                                        errors.push((
                                            "cvc-identity-constraint.3",
                                            format!(
                                                "the field '{source}' of identity constraint '{}' selects more than one value",
                                                schema.display_name(ic.name)
                                            ),
                                            offset,
                                        ));
                                    }
                                    *slot = Some(key.clone());
                                }
                            }
                        }
                    }
                    break;
                }
            }
        }
    }

    /// The element at `depth` ends with typed value `value` (`None` for element content or
    /// nil).
    pub(crate) fn end(
        &mut self,
        schema: &Schema,
        depth: usize,
        value: Option<KeyPart>,
        simple_typed: bool,
        offset: u64,
        errors: &mut Vec<IdError>,
    ) {
        if self.scopes.is_empty() {
            return;
        }
        while let Some(c) = self.captures.last() {
            if c.depth != depth {
                break;
            }
            let c = self.captures.pop().expect("checked");
            let t = &mut self.targets[c.target];
            let again = std::mem::replace(&mut t.selected[c.field], true);
            if !simple_typed {
                t.faulted = true;
                let ic = schema.identity_constraint(self.scopes[t.scope].ic);
                errors.push((
                    "cvc-identity-constraint.3",
                    format!(
                        "the field '{}' of identity constraint '{}' selects an element without a simple type",
                        ic.fields[c.field].1,
                        schema.display_name(ic.name)
                    ),
                    offset,
                ));
            }
            if again || value.is_some() {
                let ic = schema.identity_constraint(self.scopes[t.scope].ic);
                if again {
                    t.faulted = true;
                    errors.push((
                        "cvc-identity-constraint.3",
                        format!(
                            "the field '{}' of identity constraint '{}' selects more than one value",
                            ic.fields[c.field].1,
                            schema.display_name(ic.name)
                        ),
                        offset,
                    ));
                }
                if let Some(v) = &value {
                    t.values[c.field] = Some(v.clone());
                }
            }
        }
        while let Some(t) = self.targets.last() {
            if t.depth != depth {
                break;
            }
            let t = self.targets.pop().expect("checked");
            let scope = &mut self.scopes[t.scope];
            let ic = schema.identity_constraint(scope.ic);
            let name = schema.display_name(ic.name);
            if t.faulted {
                continue;
            }
            if t.values.iter().any(Option::is_none) {
                if ic.kind == IdentityKind::Key {
                    errors.push((
                        "cvc-identity-constraint.4.2.1",
                        format!("an element selected by key '{name}' has no value for one of its fields"),
                        t.offset,
                    ));
                }
                continue;
            }
            let key: Vec<KeyPart> = t.values.into_iter().map(|v| v.expect("checked")).collect();
            match ic.kind {
                IdentityKind::KeyRef(_) => scope.refs.push((key, t.offset)),
                kind => {
                    if scope.keys.contains(&key) {
                        let shown: Vec<&str> = key.iter().map(|k| k.1.as_str()).collect();
                        errors.push((
                            if kind == IdentityKind::Key {
                                "cvc-identity-constraint.4.2.2"
                            } else {
                                "cvc-identity-constraint.4.1"
                            },
                            format!(
                                "duplicate value ({}) for identity constraint '{name}'",
                                shown.join(", ")
                            ),
                            t.offset,
                        ));
                    } else {
                        scope.keys.insert(key);
                    }
                }
            }
        }
        // Close the scopes of this element: tables first, then keyrefs.
        let first = self
            .scopes
            .iter()
            .rposition(|s| s.depth < depth)
            .map_or(0, |i| i + 1);
        if first < self.scopes.len() {
            let closing: Vec<Scope> = self.scopes.drain(first..).collect();
            let mut refs = Vec::new();
            for s in closing {
                match schema.identity_constraint(s.ic).kind {
                    IdentityKind::KeyRef(target) => refs.push((s, target)),
                    _ => self.tables.push(Table {
                        ic: s.ic,
                        depth,
                        keys: s.keys,
                    }),
                }
            }
            for (s, target) in refs {
                for (key, off) in &s.refs {
                    let found = self
                        .tables
                        .iter()
                        .any(|t| t.ic == target && t.depth >= depth && t.keys.contains(key));
                    if !found {
                        let shown: Vec<&str> = key.iter().map(|k| k.1.as_str()).collect();
                        errors.push((
                            "cvc-identity-constraint.4.3",
                            format!(
                                "keyref '{}' refers to ({}), which is not a value of '{}'",
                                schema.display_name(schema.identity_constraint(s.ic).name),
                                shown.join(", "),
                                schema.display_name(schema.identity_constraint(target).name)
                            ),
                            *off,
                        ));
                    }
                }
            }
        }
        // Propagate the node tables to the parent; drop them when no scope remains.
        if self.scopes.is_empty() {
            self.tables.clear();
        } else {
            for t in &mut self.tables {
                if t.depth >= depth {
                    t.depth = depth.saturating_sub(1);
                }
            }
        }
    }
}
