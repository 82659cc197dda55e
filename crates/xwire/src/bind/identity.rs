//! Identity constraints (`xs:unique`, `xs:key`, `xs:keyref`) evaluated on a stream of
//! elements: the one engine of the schema validator and of generated parsers.
//!
//! A *scope* opens at each element whose declaration carries constraints. Elements below it
//! that a selector matches become *targets*; the fields of a target are captured from its
//! attributes (at its start tag) and from the typed values of its descendants (at their end
//! tags). When a target closes, its key goes into the scope's table (duplicates violate
//! `unique`/`key`; a missing field violates `key`). Key tables that a `keyref` refers to
//! propagate to the ancestors (node tables), so a `keyref` checks its references against the
//! tables of its own element and its descendants when its scope closes.
//!
//! The engine reaches the constraints through [`Constraints`]: the validator implements it
//! over its component model, generated parsers over the static tables of [`Constraint`].
//!
//! ```
//! use xwire::bind::identity::{Constraint, Field, Identity, Kind, Path, Test};
//! use xwire::bind::Text;
//!
//! // <xs:key name="k"><xs:selector xpath="item"/><xs:field xpath="@id"/></xs:key>
//! const KEYS: &[Constraint] = &[Constraint {
//!     name: "k",
//!     kind: Kind::Key,
//!     selector: &[Path { descendants: false, steps: &[Test::Name("", "item")], attribute: None }],
//!     fields: &[Field {
//!         source: "@id",
//!         paths: &[Path { descendants: false, steps: &[], attribute: Some(Test::Name("", "id")) }],
//!     }],
//! }];
//! let name = |l: &str| (Text::from(""), Text::from(l));
//! let mut id = Identity::default();
//! let mut errors = Vec::new();
//! id.start(KEYS, 0, &name("list"), 0);
//! id.open(KEYS, 0, &name("list"), &[0], 0);
//! for offset in [10, 20] {
//!     id.start(KEYS, 1, &name("item"), offset);
//!     id.attribute(KEYS, &name("id"), &(0, "a".to_string()), offset, &mut errors);
//!     id.end(KEYS, 1, None, false, offset, &mut errors);
//! }
//! id.end(KEYS, 0, None, false, 30, &mut errors);
//! assert_eq!(errors[0].0, "cvc-identity-constraint.4.2.2"); // a duplicate key, at the second item
//! assert_eq!(errors[0].2, 20);
//! ```

use std::collections::HashSet;

use super::Text;

/// One field value: a class (values of different primitive types never compare equal) and
/// the canonical form.
pub type KeyPart = (u8, String);

/// An error found: constraint, message, offset.
pub type IdError = (&'static str, String, u64);

/// What an identity constraint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `xs:unique`: selected elements with all fields differ.
    Unique,
    /// `xs:key`: every selected element has all fields, and they differ.
    Key,
    /// `xs:keyref`: the fields of every selected element are a key of the constraint at this
    /// index.
    KeyRef(usize),
}

/// Where a field's path lands on the element it matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldStep {
    /// The element itself: its typed value, at its end.
    Element,
    /// Its attributes that the path's attribute step (alternative `path`) names.
    Attribute {
        /// Which alternative of the field matched.
        path: usize,
    },
}

/// The constraints an [`Identity`] evaluates, numbered from 0.
pub trait Constraints {
    /// An element or attribute name as the engine keeps it.
    type Name: Clone + Default;

    /// The constraint's kind.
    fn kind(&self, ic: usize) -> Kind;
    /// Its name, for messages.
    fn display(&self, ic: usize) -> String;
    /// How many fields it has.
    fn field_count(&self, ic: usize) -> usize;
    /// A field's XPath, as written, for messages.
    fn field_source(&self, ic: usize, field: usize) -> &str;
    /// Whether the selector selects the element whose names below the scope's element are
    /// `rel` (the scope's child first, the element last; empty for the scope itself).
    fn selects(&self, ic: usize, rel: &[Self::Name]) -> bool;
    /// Whether, and where, a field's first matching alternative lands on the element whose
    /// names below the target are `rel`.
    fn field_step(&self, ic: usize, field: usize, rel: &[Self::Name]) -> Option<FieldStep>;
    /// Whether the attribute step of alternative `path` of a field names `attribute`.
    fn attribute_selected(
        &self,
        ic: usize,
        field: usize,
        path: usize,
        attribute: &Self::Name,
    ) -> bool;
}

/// Whether a path of name tests (`descendants`: `.//` first) selects the element whose names
/// below the context are `rel`.
pub fn path_matches<T, N>(
    descendants: bool,
    steps: &[T],
    rel: &[N],
    test: impl Fn(&T, &N) -> bool,
) -> bool {
    let n = steps.len();
    if (descendants && rel.len() < n) || (!descendants && rel.len() != n) {
        return false;
    }
    steps
        .iter()
        .zip(&rel[rel.len() - n..])
        .all(|(t, r)| test(t, r))
}

/// An identity constraint as generated code writes it: static tables.
#[derive(Clone, Copy, Debug)]
pub struct Constraint {
    /// The name, for messages (`{ns}local` when qualified).
    pub name: &'static str,
    /// Unique, key or keyref.
    pub kind: Kind,
    /// The selector's alternatives.
    pub selector: &'static [Path],
    /// The fields.
    pub fields: &'static [Field],
}

/// A field of a [`Constraint`].
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The XPath as written.
    pub source: &'static str,
    /// Its alternatives.
    pub paths: &'static [Path],
}

/// A restricted XPath: child steps, optionally from any descendant, and for fields an
/// attribute step.
#[derive(Clone, Copy, Debug)]
pub struct Path {
    /// Starts with `.//`.
    pub descendants: bool,
    /// The child steps (empty for `.`).
    pub steps: &'static [Test],
    /// A final `@name` step.
    pub attribute: Option<Test>,
}

/// A name test of a [`Path`].
#[derive(Clone, Copy, Debug)]
pub enum Test {
    /// `*`.
    Any,
    /// `prefix:*`: any name in this namespace.
    Namespace(&'static str),
    /// A name: namespace URI (empty for none) and local name.
    Name(&'static str, &'static str),
}

impl Test {
    fn matches(&self, (ns, local): &(Text, Text)) -> bool {
        match *self {
            Test::Any => true,
            Test::Namespace(n) => n == ns.as_str(),
            Test::Name(n, l) => n == ns.as_str() && l == local.as_str(),
        }
    }
}

impl Constraints for [Constraint] {
    type Name = (Text, Text);

    fn kind(&self, ic: usize) -> Kind {
        self[ic].kind
    }

    fn display(&self, ic: usize) -> String {
        self[ic].name.to_string()
    }

    fn field_count(&self, ic: usize) -> usize {
        self[ic].fields.len()
    }

    fn field_source(&self, ic: usize, field: usize) -> &str {
        self[ic].fields[field].source
    }

    fn selects(&self, ic: usize, rel: &[(Text, Text)]) -> bool {
        self[ic]
            .selector
            .iter()
            .any(|p| path_matches(p.descendants, p.steps, rel, Test::matches))
    }

    fn field_step(&self, ic: usize, field: usize, rel: &[(Text, Text)]) -> Option<FieldStep> {
        let paths = self[ic].fields[field].paths;
        let i = paths
            .iter()
            .position(|p| path_matches(p.descendants, p.steps, rel, Test::matches))?;
        Some(match paths[i].attribute {
            None => FieldStep::Element,
            Some(_) => FieldStep::Attribute { path: i },
        })
    }

    fn attribute_selected(&self, ic: usize, field: usize, path: usize, a: &(Text, Text)) -> bool {
        self[ic].fields[field].paths[path]
            .attribute
            .is_some_and(|t| t.matches(a))
    }
}

#[derive(Debug)]
struct Scope {
    ic: usize,
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
    ic: usize,
    depth: usize,
    keys: HashSet<Vec<KeyPart>>,
}

/// The identity-constraint state of one document.
#[derive(Debug)]
pub struct Identity<N> {
    scopes: Vec<Scope>,
    targets: Vec<Target>,
    captures: Vec<Capture>,
    tables: Vec<Table>,
    /// Element names by depth, while a scope is open.
    names: Vec<N>,
    /// The attribute steps of fields matched on the element that started last (`depth`
    /// holds the alternative's index).
    pending: Vec<Capture>,
}

impl<N> Default for Identity<N> {
    fn default() -> Identity<N> {
        Identity {
            scopes: Vec::new(),
            targets: Vec::new(),
            captures: Vec::new(),
            tables: Vec::new(),
            names: Vec::new(),
            pending: Vec::new(),
        }
    }
}

fn more_than_one(source: &str, name: &str) -> String {
    format!("the field '{source}' of identity constraint '{name}' selects more than one value")
}

impl<N: Clone + Default> Identity<N> {
    /// Forgets everything: ready for the next document.
    pub fn clear(&mut self) {
        self.scopes.clear();
        self.targets.clear();
        self.captures.clear();
        self.tables.clear();
        self.pending.clear();
    }

    /// Whether a scope is open: element names and values must be reported.
    pub fn active(&self) -> bool {
        !self.scopes.is_empty()
    }

    /// An element starts at `depth` (0 for the root): the open scopes' selectors and fields
    /// are matched against it. Its attributes follow ([`Identity::attribute`]), after the
    /// scopes it opens itself ([`Identity::open`]).
    pub fn start<C: Constraints<Name = N> + ?Sized>(
        &mut self,
        cs: &C,
        depth: usize,
        name: &N,
        offset: u64,
    ) {
        self.pending.clear();
        if self.scopes.is_empty() {
            return;
        }
        if self.names.len() <= depth {
            self.names.resize_with(depth + 1, N::default);
        }
        self.names[depth].clone_from(name);
        self.select(cs, 0, depth, offset);
    }

    /// The element that started at `depth` (named `name`) opens the scopes of the identity
    /// constraints `ics` its declaration has.
    pub fn open<C: Constraints<Name = N> + ?Sized>(
        &mut self,
        cs: &C,
        depth: usize,
        name: &N,
        ics: &[usize],
        offset: u64,
    ) {
        if ics.is_empty() {
            return;
        }
        if self.scopes.is_empty() {
            self.pending.clear();
        }
        if self.names.len() <= depth {
            self.names.resize_with(depth + 1, N::default);
        }
        self.names[depth].clone_from(name);
        let first = self.scopes.len();
        for &ic in ics {
            self.scopes.push(Scope {
                ic,
                depth,
                keys: HashSet::new(),
                refs: Vec::new(),
            });
        }
        self.select(cs, first, depth, offset);
    }

    /// Matches the selectors of the scopes from `first` on, and the fields of the targets
    /// they make, against the element at `depth`.
    fn select<C: Constraints<Name = N> + ?Sized>(
        &mut self,
        cs: &C,
        first: usize,
        depth: usize,
        offset: u64,
    ) {
        let targets = self.targets.len();
        for (si, scope) in self.scopes.iter().enumerate().skip(first) {
            let rel = &self.names[scope.depth + 1..=depth];
            if cs.selects(scope.ic, rel) {
                let n = cs.field_count(scope.ic);
                self.targets.push(Target {
                    scope: si,
                    depth,
                    values: vec![None; n],
                    selected: vec![false; n],
                    faulted: false,
                    offset,
                });
            }
        }
        // The fields: of every target when matching for all scopes, else of the new ones.
        let from = if first == 0 { 0 } else { targets };
        for ti in from..self.targets.len() {
            let t = &self.targets[ti];
            let ic = self.scopes[t.scope].ic;
            let rel = &self.names[t.depth + 1..=depth];
            for fi in 0..cs.field_count(ic) {
                match cs.field_step(ic, fi, rel) {
                    None => {}
                    Some(FieldStep::Element) => self.captures.push(Capture {
                        target: ti,
                        field: fi,
                        depth,
                    }),
                    Some(FieldStep::Attribute { path }) => self.pending.push(Capture {
                        target: ti,
                        field: fi,
                        depth: path,
                    }),
                }
            }
        }
    }

    /// An attribute of the element that started last, with its key: the fields that select
    /// it take its value.
    pub fn attribute<C: Constraints<Name = N> + ?Sized>(
        &mut self,
        cs: &C,
        name: &N,
        key: &KeyPart,
        offset: u64,
        errors: &mut Vec<IdError>,
    ) {
        for p in &self.pending {
            let ic = self.scopes[self.targets[p.target].scope].ic;
            if !cs.attribute_selected(ic, p.field, p.depth, name) {
                continue;
            }
            let target = &mut self.targets[p.target];
            if std::mem::replace(&mut target.selected[p.field], true) {
                let m = more_than_one(cs.field_source(ic, p.field), &cs.display(ic));
                errors.push(("cvc-identity-constraint.3", m, offset));
            }
            target.values[p.field] = Some(key.clone());
        }
    }

    /// Whether the element that started last has attributes that fields select: only then
    /// do its attributes need keys.
    pub fn wants_attributes(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The element at `depth` ends with typed value `value` (`None` for element content or
    /// nil); `simple_typed`: it has a simple type or simple content.
    pub fn end<C: Constraints<Name = N> + ?Sized>(
        &mut self,
        cs: &C,
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
            let ic = self.scopes[t.scope].ic;
            let again = std::mem::replace(&mut t.selected[c.field], true);
            if !simple_typed {
                t.faulted = true;
                let m = format!(
                    "the field '{}' of identity constraint '{}' selects an element without a simple type",
                    cs.field_source(ic, c.field),
                    cs.display(ic)
                );
                errors.push(("cvc-identity-constraint.3", m, offset));
            }
            if again {
                t.faulted = true;
                let m = more_than_one(cs.field_source(ic, c.field), &cs.display(ic));
                errors.push(("cvc-identity-constraint.3", m, offset));
            }
            if let Some(v) = &value {
                t.values[c.field] = Some(v.clone());
            }
        }
        while let Some(t) = self.targets.last() {
            if t.depth != depth {
                break;
            }
            let t = self.targets.pop().expect("checked");
            let scope = &mut self.scopes[t.scope];
            let kind = cs.kind(scope.ic);
            if t.faulted {
                continue;
            }
            if t.values.iter().any(Option::is_none) {
                if kind == Kind::Key {
                    let m = format!(
                        "an element selected by key '{}' has no value for one of its fields",
                        cs.display(scope.ic)
                    );
                    errors.push(("cvc-identity-constraint.4.2.1", m, t.offset));
                }
                continue;
            }
            let key: Vec<KeyPart> = t.values.into_iter().map(|v| v.expect("checked")).collect();
            match kind {
                Kind::KeyRef(_) => scope.refs.push((key, t.offset)),
                _ if scope.keys.contains(&key) => {
                    let m = format!(
                        "duplicate value ({}) for identity constraint '{}'",
                        shown(&key),
                        cs.display(scope.ic)
                    );
                    let constraint = match kind {
                        Kind::Key => "cvc-identity-constraint.4.2.2",
                        _ => "cvc-identity-constraint.4.1",
                    };
                    errors.push((constraint, m, t.offset));
                }
                _ => {
                    scope.keys.insert(key);
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
                match cs.kind(s.ic) {
                    Kind::KeyRef(target) => refs.push((s, target)),
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
                        let m = format!(
                            "keyref '{}' refers to ({}), which is not a value of '{}'",
                            cs.display(s.ic),
                            shown(key),
                            cs.display(target)
                        );
                        errors.push(("cvc-identity-constraint.4.3", m, *off));
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

/// A key as messages show it: its canonical values.
fn shown(key: &[KeyPart]) -> String {
    let parts: Vec<&str> = key.iter().map(|k| k.1.as_str()).collect();
    parts.join(", ")
}
