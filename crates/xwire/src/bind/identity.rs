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
//! over its component model, generated parsers over the static table of [`Constraint`]s
//! they are generated with, read once per document ([`compile`]).
//!
//! ```
//! use xwire::bind::identity::{compile, Constraint, Identity, Kind};
//! use xwire::bind::Text;
//!
//! // <xs:key name="k"><xs:selector xpath="item"/><xs:field xpath="@id"/></xs:key>
//! const KEYS: &[Constraint] = &[Constraint {
//!     name: "k",
//!     kind: Kind::Key,
//!     selector: "{}item",
//!     fields: "@{}id",
//! }];
//! let keys = compile(KEYS);
//! let keys = &keys[..];
//! let name = |l: &str| (Text::from(""), Text::from(l));
//! let mut id = Identity::default();
//! let mut errors = Vec::new();
//! id.start(keys, 0, &name("list"), 0);
//! id.open(keys, 0, &name("list"), &[0], 0);
//! for offset in [10, 20] {
//!     id.start(keys, 1, &name("item"), offset);
//!     id.attribute(keys, &name("id"), &(0, "a".to_string()), offset, &mut errors);
//!     id.end(keys, 1, None, false, offset, &mut errors);
//! }
//! id.end(keys, 0, None, false, 30, &mut errors);
//! assert_eq!(errors[0].0, "cvc-identity-constraint.4.2.2"); // a duplicate key, at the second item
//! assert_eq!(errors[0].2, 20);
//! ```

use std::collections::HashSet;

use super::write::{Base64, Hex, List};
use super::{Date, DateTime, Decimal, Duration, GDay, GMonth, GMonthDay, GYear, GYearMonth};
use super::{Integer, QName, Source, Text, Time};
use crate::datatypes::Value;

/// One field value: a class (values of different primitive types never compare equal) and
/// the canonical form.
pub type KeyPart = (u8, String);

/// An error found: constraint, message, offset.
pub type IdError = (&'static str, String, u64);

/// The key of a typed value: values of different primitive types never compare equal,
/// integers and decimals share a value space, QNames are equal by namespace and local name.
pub fn value_key(v: &Value) -> KeyPart {
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
        Value::Decimal(d) => decimal_key(d),
        Value::Integer(d) => d.canonical_integer(),
        _ => v.expanded_canonical(),
    };
    (class, text)
}

/// A decimal in the form integers have when it is whole.
fn decimal_key(d: &Decimal) -> String {
    let c = d.canonical_decimal();
    match c.strip_suffix(".0") {
        Some(int) => int.to_string(),
        None => c,
    }
}

/// The key of the value `lexical` has in built-in `b` (its text when it is none: an
/// enumeration's values are valid).
pub fn lexical_key(b: crate::datatypes::Builtin, lexical: &str) -> KeyPart {
    // A string as it stands is its own value: no value built, no canonical form made.
    if crate::datatypes::is_plain_string(b, lexical) {
        return (0, lexical.to_string());
    }
    match b.parse(lexical) {
        Ok(v) => value_key(&v),
        Err(_) => (0, lexical.to_string()),
    }
}

/// A value generated types hold, as identity constraints compare it ([`value_key`]).
pub trait Key {
    /// The value's key.
    fn key(&self) -> KeyPart;
}

impl Key for Text {
    fn key(&self) -> KeyPart {
        (0, self.to_string())
    }
}

/// `{ns}local`, as [`value_key`] gives a QName.
impl Key for QName {
    fn key(&self) -> KeyPart {
        (9, format!("{{{}}}{}", self.ns, self.local))
    }
}

impl Key for bool {
    fn key(&self) -> KeyPart {
        (1, self.to_string())
    }
}

macro_rules! int_key {
    ($($t:ty),*) => {
        $(impl Key for $t {
            fn key(&self) -> KeyPart {
                (2, self.to_string())
            }
        })*
    };
}

int_key!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Key for Integer {
    fn key(&self) -> KeyPart {
        (2, self.0.canonical_integer())
    }
}

impl Key for Decimal {
    fn key(&self) -> KeyPart {
        (2, decimal_key(self))
    }
}

impl Key for f32 {
    fn key(&self) -> KeyPart {
        value_key(&Value::Float(*self))
    }
}

impl Key for f64 {
    fn key(&self) -> KeyPart {
        value_key(&Value::Double(*self))
    }
}

impl Key for Duration {
    fn key(&self) -> KeyPart {
        (5, self.canonical())
    }
}

macro_rules! temporal_key {
    ($($t:ty),*) => {
        $(impl Key for $t {
            fn key(&self) -> KeyPart {
                (6, self.0.canonical())
            }
        })*
    };
}

temporal_key!(DateTime, Time, Date, GYearMonth, GYear, GMonthDay, GDay, GMonth);

impl Key for Hex<'_> {
    fn key(&self) -> KeyPart {
        value_key(&Value::HexBinary(self.0.to_vec()))
    }
}

impl Key for Base64<'_> {
    fn key(&self) -> KeyPart {
        value_key(&Value::Base64Binary(self.0.to_vec()))
    }
}

impl<T: Key> Key for List<'_, T> {
    fn key(&self) -> KeyPart {
        let items: Vec<String> = self.0.iter().map(|v| v.key().1).collect();
        (10, items.join(" "))
    }
}

impl<T: Key + ?Sized> Key for &T {
    fn key(&self) -> KeyPart {
        (**self).key()
    }
}

impl<T: Key + ?Sized> Key for Box<T> {
    fn key(&self) -> KeyPart {
        (**self).key()
    }
}

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

/// An identity constraint as generated code writes it: its paths in one string each, with
/// expanded names, which [`compile`] reads.
///
/// A path is `.`, or steps separated by `/` (after `.//` for any descendant), each `*`,
/// `{uri}*` or `{uri}local` (`{}` for no namespace); a field's last step may be `@` and a
/// name test. Alternatives are separated by `|`, fields by a space.
#[derive(Clone, Copy, Debug)]
pub struct Constraint {
    /// The name, for messages (`{uri}local` when qualified).
    pub name: &'static str,
    /// Unique, key or keyref.
    pub kind: Kind,
    /// The selector's alternatives.
    pub selector: &'static str,
    /// The fields, separated by spaces.
    pub fields: &'static str,
}

/// A restricted XPath: child steps, optionally from any descendant, and for fields an
/// attribute step.
#[derive(Clone, Debug, Default)]
pub struct Path {
    /// Starts with `.//`.
    pub descendants: bool,
    /// The child steps (empty for `.`).
    pub steps: Vec<Test>,
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

/// A [`Constraint`] with its paths read.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The constraint.
    pub constraint: Constraint,
    /// The selector's alternatives.
    pub selector: Vec<Path>,
    /// Each field's alternatives, and its text.
    pub fields: Vec<(Vec<Path>, &'static str)>,
}

/// Reads the paths of a table of constraints (the form [`Constraint`] describes; what it
/// cannot read selects nothing).
pub fn compile(table: &[Constraint]) -> Vec<Compiled> {
    table
        .iter()
        .map(|c| Compiled {
            constraint: *c,
            selector: paths(c.selector),
            fields: c
                .fields
                .split(' ')
                .filter(|f| !f.is_empty())
                .map(|f| (paths(f), f))
                .collect(),
        })
        .collect()
}

/// The alternatives of one path string.
fn paths(text: &'static str) -> Vec<Path> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let mut p = Path::default();
        if let Some(r) = rest.strip_prefix(".//") {
            p.descendants = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('.') {
            // `.` alone, or `./` before steps.
            rest = r.strip_prefix('/').unwrap_or(r);
        }
        loop {
            let attribute = match rest.strip_prefix('@') {
                Some(r) => {
                    rest = r;
                    true
                }
                None => false,
            };
            let Some((test, r)) = name_test(rest) else {
                break;
            };
            rest = r;
            if attribute {
                p.attribute = Some(test);
            } else {
                p.steps.push(test);
            }
            match rest.strip_prefix('/') {
                Some(r) => rest = r,
                None => break,
            }
        }
        out.push(p);
        match rest.strip_prefix('|') {
            Some(r) => rest = r,
            None => return out,
        }
    }
}

/// A name test at the start of `s`: `*`, `{uri}*` or `{uri}local`.
fn name_test(s: &'static str) -> Option<(Test, &'static str)> {
    if let Some(r) = s.strip_prefix('*') {
        return Some((Test::Any, r));
    }
    let r = s.strip_prefix('{')?;
    let close = r.find('}')?;
    let (ns, r) = (&r[..close], &r[close + 1..]);
    if let Some(r) = r.strip_prefix('*') {
        return Some((Test::Namespace(ns), r));
    }
    let end = r.find(['/', '|', ' ']).unwrap_or(r.len());
    Some((Test::Name(ns, &r[..end]), &r[end..]))
}

impl Constraints for [Compiled] {
    type Name = (Text, Text);

    fn kind(&self, ic: usize) -> Kind {
        self[ic].constraint.kind
    }

    fn display(&self, ic: usize) -> String {
        self[ic].constraint.name.to_string()
    }

    fn field_count(&self, ic: usize) -> usize {
        self[ic].fields.len()
    }

    fn field_source(&self, ic: usize, field: usize) -> &str {
        self[ic].fields[field].1
    }

    fn selects(&self, ic: usize, rel: &[(Text, Text)]) -> bool {
        self[ic]
            .selector
            .iter()
            .any(|p| path_matches(p.descendants, &p.steps, rel, Test::matches))
    }

    fn field_step(&self, ic: usize, field: usize, rel: &[(Text, Text)]) -> Option<FieldStep> {
        let paths = &self[ic].fields[field].0;
        let i = paths
            .iter()
            .position(|p| path_matches(p.descendants, &p.steps, rel, Test::matches))?;
        Some(match paths[i].attribute {
            None => FieldStep::Element,
            Some(_) => FieldStep::Attribute { path: i },
        })
    }

    fn attribute_selected(&self, ic: usize, field: usize, path: usize, a: &(Text, Text)) -> bool {
        self[ic].fields[field].0[path]
            .attribute
            .is_some_and(|t| t.matches(a))
    }
}

#[derive(Debug)]
struct Scope {
    ic: usize,
    depth: usize,
    keys: KeySet,
    refs: Vec<(Vec<KeyPart>, u64)>,
}

#[derive(Debug)]
struct Target {
    scope: usize,
    depth: usize,
    /// Per field, what it selected so far (one vector, not a second one of flags: a target
    /// is made for every element a selector picks).
    fields: Vec<Field>,
    /// A field already broke cvc-identity-constraint.3 for this node: it takes no further
    /// part (no second "missing value" error, no entry in the table).
    faulted: bool,
    offset: u64,
}

/// What a field of a target selected so far. Selecting a second node is an error even
/// when neither has a simple value.
#[derive(Clone, Debug, PartialEq)]
enum Field {
    Unselected,
    /// A node without a value (element content, or nil).
    Selected,
    Value(KeyPart),
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
    keys: KeySet,
}

/// The keys of one table. The first few are kept in a list and compared one by one: most
/// tables (a message's handful of names, a record's fields) stay that small, and a hash
/// set would hash each key and grow its table twice to hold them, the larger part of what
/// the constraint costs. Past [`KeySet::FEW`] keys they move to a hash set, so large
/// documents stay linear.
#[derive(Debug, Default)]
struct KeySet {
    few: Vec<Vec<KeyPart>>,
    many: HashSet<Vec<KeyPart>>,
}

impl KeySet {
    const FEW: usize = 16;

    fn contains(&self, key: &[KeyPart]) -> bool {
        match self.many.is_empty() {
            true => self.few.iter().any(|k| k[..] == *key),
            false => self.many.contains(key),
        }
    }

    /// Adds `key`, which is not in the set yet.
    fn insert(&mut self, key: Vec<KeyPart>) {
        if self.many.is_empty() && self.few.len() < Self::FEW {
            self.few.push(key);
            return;
        }
        self.many.extend(self.few.drain(..));
        self.many.insert(key);
    }
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
                keys: KeySet::default(),
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
                    fields: vec![Field::Unselected; n],
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
            let field = &mut target.fields[p.field];
            if *field != Field::Unselected {
                let m = more_than_one(cs.field_source(ic, p.field), &cs.display(ic));
                errors.push(("cvc-identity-constraint.3", m, offset));
            }
            *field = Field::Value(key.clone());
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
            let field = &mut t.fields[c.field];
            let again = *field != Field::Unselected;
            // A field keeps the value it has when a node without one comes again.
            match &value {
                Some(v) => *field = Field::Value(v.clone()),
                None if !again => *field = Field::Selected,
                None => {}
            }
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
            if t.fields.iter().any(|f| !matches!(f, Field::Value(_))) {
                if kind == Kind::Key {
                    let m = format!(
                        "an element selected by key '{}' has no value for one of its fields",
                        cs.display(scope.ic)
                    );
                    errors.push(("cvc-identity-constraint.4.2.1", m, t.offset));
                }
                continue;
            }
            let key: Vec<KeyPart> = t
                .fields
                .into_iter()
                .filter_map(|f| match f {
                    Field::Value(v) => Some(v),
                    _ => None,
                })
                .collect();
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

/// Reads the current element with `read`, the scopes of its declaration's identity
/// constraints `ics` (indices into `constraints`) open: what generated code wraps the reader
/// of such an element in.
#[inline]
pub fn scope<S: Source, T>(
    c: &mut S,
    constraints: &'static [Constraint],
    ics: &[usize],
    read: impl FnOnce(&mut S) -> Result<T, S::Error>,
) -> Result<T, S::Error> {
    c.identity_open(constraints, ics)?;
    read(c)
}

/// The identity engine as a [`Source`](super::Source) drives it: the end tag whose value is
/// still to come.
///
/// Where a scope is open, a source reports every start tag ([`Tracker::start`]) and end tag
/// ([`Tracker::end`]); generated code opens the scopes of a declaration's constraints
/// ([`Tracker::open`]), gives the keys of attributes and the typed value of the element that
/// just ended ([`Tracker::value`]). An end whose value nobody gives counts as an element
/// without one (not assessed) when the source moves on. Depths count from 0 at the root.
#[derive(Debug, Default)]
pub struct Tracker {
    engine: Identity<(Text, Text)>,
    /// The table generated code gave, and its paths read.
    table: &'static [Constraint],
    constraints: Vec<Compiled>,
    /// An element that ended (at this depth, its end tag at this offset) and whose value
    /// is still to come.
    ended: Option<(usize, u64)>,
    /// The `xsi:` attributes of the element that started last, with its offset. No
    /// generated reader gives their keys, yet a field (`@*`) may select them: they go to
    /// the engine at the next event, when the scopes the element opens are open too.
    xsi: Vec<(Text, KeyPart)>,
    xsi_at: u64,
    errors: Vec<IdError>,
}

impl Tracker {
    /// Whether a scope is open: only then do tags and values need reporting.
    #[inline]
    pub fn active(&self) -> bool {
        self.engine.active()
    }

    /// The start tag, at byte `offset`, of the element at `depth` that `name` gives.
    pub fn start(&mut self, depth: usize, name: (Text, Text), offset: u64) {
        self.settle();
        self.xsi_flush();
        self.engine
            .start(&self.constraints[..], depth, &name, offset);
    }

    /// The end tag, at byte `offset`, of the element at `depth`.
    pub fn end(&mut self, depth: usize, offset: u64) {
        self.settle();
        self.xsi_flush();
        self.ended = Some((depth, offset));
    }

    /// The element at `depth` that started last, `name`, opens the scopes of constraints
    /// `ics` of `constraints` (the document's whole table).
    pub fn open(
        &mut self,
        constraints: &'static [Constraint],
        ics: &[usize],
        depth: usize,
        name: (Text, Text),
        offset: u64,
    ) {
        if !std::ptr::eq(self.table, constraints) {
            self.table = constraints;
            self.constraints = compile(constraints);
        }
        self.engine
            .open(&self.constraints[..], depth, &name, ics, offset);
    }

    /// An `xsi:` attribute (`local`, `value`) of the element that started last, at
    /// `offset`: its key as the validator makes it (`xsi:type` and `xsi:nil` as written, the
    /// location hints as their values).
    pub fn xsi_attribute(&mut self, local: &str, value: &str, offset: u64) {
        let key = match local {
            "schemaLocation" => (
                10,
                value.split_ascii_whitespace().collect::<Vec<_>>().join(" "),
            ),
            "noNamespaceSchemaLocation" => lexical_key(crate::datatypes::Builtin::AnyUri, value),
            _ => (0, value.to_string()),
        };
        self.xsi.push((Text::from(local), key));
        self.xsi_at = offset;
    }

    /// The `xsi:` attributes of the element that started last to the fields that select
    /// them.
    #[inline]
    fn xsi_flush(&mut self) {
        if self.xsi.is_empty() {
            return;
        }
        let wanted = self.engine.wants_attributes();
        let cs = &self.constraints[..];
        for (local, key) in self.xsi.drain(..).filter(|_| wanted) {
            let name = (Text::from(super::XSI), local);
            self.engine
                .attribute(cs, &name, &key, self.xsi_at, &mut self.errors);
        }
    }

    /// Whether the element that started last has attributes that fields select.
    #[inline]
    pub fn wants_attributes(&self) -> bool {
        self.engine.wants_attributes()
    }

    /// An attribute of the element that started last (at byte `offset`), with its key.
    pub fn attribute(&mut self, name: (Text, Text), key: &KeyPart, offset: u64) {
        self.engine
            .attribute(&self.constraints[..], &name, key, offset, &mut self.errors);
    }

    /// Whether an element ended whose value is still to come.
    #[inline]
    pub fn wants_value(&self) -> bool {
        self.ended.is_some()
    }

    /// The typed value of the element that just ended (`None`: it has none), and whether it
    /// has a simple type or simple content.
    pub fn value(&mut self, key: Option<KeyPart>, simple_typed: bool) {
        if let Some((depth, offset)) = self.ended.take() {
            let cs = &self.constraints[..];
            self.engine
                .end(cs, depth, key, simple_typed, offset, &mut self.errors);
        }
    }

    /// Ends the element that ended without a value given: not assessed.
    #[inline]
    pub fn settle(&mut self) {
        if self.ended.is_some() {
            self.value(None, true);
        }
    }

    /// The first error found, if any: the constraint, message and offset.
    #[inline]
    pub fn error(&mut self) -> Option<IdError> {
        match self.errors.is_empty() {
            true => None,
            false => Some(self.errors.swap_remove(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain string's key is the key of its value.
    #[test]
    fn string_keys_are_value_keys() {
        use crate::datatypes::Builtin;
        let samples = [
            "runNumber",
            "a b",
            " a",
            "déjà vu",
            "x:y",
            "",
            "1.50",
            "\tt",
        ];
        for &b in Builtin::ALL {
            for s in samples {
                if let Ok(v) = b.parse(s) {
                    assert_eq!(lexical_key(b, s), value_key(&v), "{b:?} {s:?}");
                }
            }
        }
    }

    fn name(ns: &str, local: &str) -> (Text, Text) {
        (Text::from(ns), Text::from(local))
    }

    #[test]
    fn paths_read_back_as_written() {
        let p = paths(".//{urn:a}b/{}c|{urn:a}*/*|.");
        assert_eq!(p.len(), 3);
        assert!(p[0].descendants);
        assert!(matches!(
            p[0].steps[..],
            [Test::Name("urn:a", "b"), Test::Name("", "c")]
        ));
        assert!(!p[1].descendants);
        assert!(matches!(
            p[1].steps[..],
            [Test::Namespace("urn:a"), Test::Any]
        ));
        assert!(p[2].steps.is_empty() && p[2].attribute.is_none());
        let f = paths("{}x/@{urn:a}id|@*");
        assert!(matches!(f[0].steps[..], [Test::Name("", "x")]));
        assert!(matches!(f[0].attribute, Some(Test::Name("urn:a", "id"))));
        assert!(f[1].steps.is_empty() && matches!(f[1].attribute, Some(Test::Any)));
    }

    /// A key on `item/@id` (constraint 0) and a keyref to it from the elements `refs`
    /// selects (constraint 1), compiled.
    fn item_keys_and_refs(refs: &'static str) -> Vec<Compiled> {
        compile(&[
            Constraint {
                name: "k",
                kind: Kind::Key,
                selector: "{}item",
                fields: "@{}id",
            },
            Constraint {
                name: "r",
                kind: Kind::KeyRef(0),
                selector: refs,
                fields: ".",
            },
        ])
    }

    /// A keyref whose key is declared on a descendant: the key table goes up to the scope
    /// of the keyref, and a reference to a value it lacks is an error where it stands.
    #[test]
    fn a_keyref_sees_the_keys_of_descendants() {
        let cs = item_keys_and_refs(".//{}ref");
        let cs = &cs[..];
        let mut id = Identity::default();
        let mut errors = Vec::new();
        // <doc><list><item id="a"/></list><ref>a</ref><ref>b</ref></doc>
        id.start(cs, 0, &name("", "doc"), 0);
        id.open(cs, 0, &name("", "doc"), &[1], 0);
        id.start(cs, 1, &name("", "list"), 5);
        id.open(cs, 1, &name("", "list"), &[0], 5);
        id.start(cs, 2, &name("", "item"), 11);
        assert!(id.wants_attributes());
        id.attribute(cs, &name("", "id"), &(0, "a".into()), 11, &mut errors);
        id.end(cs, 2, None, false, 11, &mut errors);
        id.end(cs, 1, None, false, 5, &mut errors);
        for (at, v) in [(30, "a"), (40, "b")] {
            id.start(cs, 1, &name("", "ref"), at);
            id.end(cs, 1, Some((0, v.into())), true, at, &mut errors);
        }
        id.end(cs, 0, None, false, 0, &mut errors);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].0, "cvc-identity-constraint.4.3");
        assert_eq!(errors[0].2, 40);
        assert!(!id.active());
    }

    /// Duplicates are found whether the table is still a short list or a hash set, and
    /// across the move from one to the other; keyrefs find keys in both.
    #[test]
    fn duplicates_are_found_in_short_and_long_tables() {
        let cs = item_keys_and_refs("{}ref");
        let cs = &cs[..];
        for n in [
            1,
            KeySet::FEW - 1,
            KeySet::FEW,
            KeySet::FEW + 1,
            3 * KeySet::FEW,
        ] {
            let mut id = Identity::default();
            let mut errors = Vec::new();
            id.start(cs, 0, &name("", "doc"), 0);
            id.open(cs, 0, &name("", "doc"), &[0, 1], 0);
            // n distinct ids, then each of the first, a middle and the last again.
            let ids: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            let again = [0, n / 2, n - 1];
            let items = ids.iter().chain(again.iter().map(|&i| &ids[i]));
            for (at, v) in items.enumerate() {
                id.start(cs, 1, &name("", "item"), at as u64);
                id.attribute(cs, &name("", "id"), &(0, v.clone()), at as u64, &mut errors);
                id.end(cs, 1, None, false, at as u64, &mut errors);
            }
            for (at, v) in [(1000, "k0"), (1001, "absent")] {
                let v = match v {
                    "k0" => ids[n - 1].clone(),
                    _ => v.to_string(),
                };
                id.start(cs, 1, &name("", "ref"), at);
                id.end(cs, 1, Some((0, v)), true, at, &mut errors);
            }
            id.end(cs, 0, None, false, 0, &mut errors);
            let found: Vec<(&str, u64)> = errors.iter().map(|e| (e.0, e.2)).collect();
            let dup = "cvc-identity-constraint.4.2.2";
            let expected = vec![
                (dup, n as u64),
                (dup, n as u64 + 1),
                (dup, n as u64 + 2),
                ("cvc-identity-constraint.4.3", 1001),
            ];
            assert_eq!(found, expected, "{n} keys");
        }
    }

    /// A field `@*` selects the `xsi:` attributes too (no generated reader gives their keys:
    /// the tracker takes them from the source), once the element's own scopes are open.
    #[test]
    fn any_attribute_fields_see_xsi_attributes() {
        const T: &[Constraint] = &[Constraint {
            name: "k",
            kind: Kind::Key,
            selector: "{}t",
            fields: "@*",
        }];
        let run = |xsi: bool| {
            let mut t = Tracker::default();
            t.open(T, &[0], 0, name("", "root"), 0);
            for (at, row) in [(10, "1"), (20, "2")] {
                t.start(1, name("", "t"), at);
                if xsi {
                    t.xsi_attribute("nil", "true", at);
                }
                t.attribute(name("", "row"), &(0, row.to_string()), at);
                t.end(1, at);
                t.value(None, true);
            }
            t.end(0, 30);
            t.settle();
            t.error()
        };
        assert_eq!(run(false), None);
        let e = run(true).expect("two values for one field");
        assert_eq!((e.0, e.2), ("cvc-identity-constraint.3", 10));
    }

    #[test]
    fn keys_compare_in_the_value_space() {
        let d = |s: &str| crate::bind::value::decimal(s).unwrap().key();
        assert_eq!(d("2.50"), d("2.5"));
        assert_eq!(d("3.0"), 3u8.key(), "a whole decimal is the integer");
        assert_ne!(d("3"), Text::from("3").key(), "a number is not a string");
        let t = |s: &str| crate::bind::value::date_time(s).unwrap().key();
        assert_eq!(t("2026-01-01T12:00:00+01:00"), t("2026-01-01T11:00:00Z"));
    }
}
