//! The schema component model of XML Schema 1.0 (Part 1, section 3).
//!
//! A [`Schema`] owns every component in arenas and refers to them by small integer ids
//! ([`ElementId`], [`TypeId`], ...), so the model is immutable once loaded, cheap to share
//! (`Arc<Schema>` is `Send + Sync`) and has no reference cycles. Names are interned once
//! ([`NameId`], [`NamespaceId`]) so that the validator compares integers.
//!
//! The components hold their *effective* properties, as the specification defines them:
//! a complex type derived by extension has the base's attribute uses and a content model that
//! is the sequence of the base's and its own; a simple type's [`Facets`] are the base's facets
//! overridden by its own. Consumers never walk a derivation chain to find what applies.
//!
//! The built-in types come first in their arenas: simple type `i` is `Builtin::ALL[i]`
//! ([`SimpleTypeId::builtin`]) and complex type 0 is `xs:anyType` ([`ComplexTypeId::ANY_TYPE`]).

mod describe;
mod names;
mod simple;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::datatypes::{Builtin, Value, WhiteSpace};
use crate::regex::Pattern;

pub use names::{NameTable, XSD_NAMESPACE, XSI_NAMESPACE};
pub(crate) use simple::same_value;
pub use simple::SimpleValue;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The position of the component in its arena.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of the component at `index` in its arena.
            #[allow(dead_code)] // not every arena is filled outside the loader
            pub(crate) fn from_index(index: usize) -> Self {
                $name(u32::try_from(index).expect("fewer than 2^32 components"))
            }
        }
    };
}

id_type!(
    /// An interned namespace name: the schema's own numbering of the namespace names it
    /// mentions ([`NamespaceId::ABSENT`] is "no namespace"). It is a type apart from the
    /// reader's [`xwire::NsId`], the reader's numbering of the namespace URIs it meets in
    /// documents: the validator maps one to the other, and passing a reader's id where a
    /// schema's is expected (or the reverse) is a bug that the two types make a compile error.
    NamespaceId
);
id_type!(
    /// An interned expanded name (namespace and local name).
    NameId
);
id_type!(
    /// An element declaration, global or local.
    ElementId
);
id_type!(
    /// An attribute declaration, global or local.
    AttributeId
);
id_type!(
    /// A simple type definition; the first ones are the built-ins.
    SimpleTypeId
);
id_type!(
    /// A complex type definition; 0 is `xs:anyType`.
    ComplexTypeId
);
id_type!(
    /// A model group (sequence, choice or all), named or anonymous.
    ModelGroupId
);
id_type!(
    /// A named attribute group definition (kept for summaries; its uses are copied into the
    /// complex types that refer to it).
    AttributeGroupId
);
id_type!(
    /// An identity constraint (unique, key or keyref).
    IdentityConstraintId
);
id_type!(
    /// A notation declaration.
    NotationId
);
id_type!(
    /// A schema document the schema was loaded from.
    FileId
);

impl NamespaceId {
    /// No namespace (unqualified names).
    pub const ABSENT: NamespaceId = NamespaceId(0);
    /// A namespace the schema never mentions: what the validator maps an instance's unknown
    /// namespace to. Only wildcards can match it.
    pub const UNKNOWN: NamespaceId = NamespaceId(u32::MAX);
}

/// No namespace.
impl Default for NamespaceId {
    fn default() -> NamespaceId {
        NamespaceId::ABSENT
    }
}

impl SimpleTypeId {
    /// The id of a built-in simple type.
    pub fn builtin(b: Builtin) -> SimpleTypeId {
        let i = Builtin::ALL
            .iter()
            .position(|&x| x == b)
            .expect("every built-in is in Builtin::ALL");
        SimpleTypeId::from_index(i)
    }

    /// `xs:anySimpleType`.
    pub const ANY_SIMPLE_TYPE: SimpleTypeId = SimpleTypeId(0);
}

impl ComplexTypeId {
    /// `xs:anyType`, the root of the type hierarchy.
    pub const ANY_TYPE: ComplexTypeId = ComplexTypeId(0);
}

/// A type definition: simple or complex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeId {
    /// A simple type definition.
    Simple(SimpleTypeId),
    /// A complex type definition.
    Complex(ComplexTypeId),
}

impl TypeId {
    /// `xs:anyType`.
    pub const ANY_TYPE: TypeId = TypeId::Complex(ComplexTypeId::ANY_TYPE);
}

/// Where a component was declared: a schema document and the line and column (1-based, in
/// characters) of the start tag that declared it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The schema document ([`Schema::file`] gives its path).
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A set of derivation methods, for `final`, `block` and their defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DerivationSet(u8);

impl DerivationSet {
    /// The empty set.
    pub const EMPTY: DerivationSet = DerivationSet(0);
    /// `extension`.
    pub const EXTENSION: DerivationSet = DerivationSet(1);
    /// `restriction`.
    pub const RESTRICTION: DerivationSet = DerivationSet(2);
    /// `substitution` (element `block` only).
    pub const SUBSTITUTION: DerivationSet = DerivationSet(4);
    /// `list` (simple type `final` only).
    pub const LIST: DerivationSet = DerivationSet(8);
    /// `union` (simple type `final` only).
    pub const UNION: DerivationSet = DerivationSet(16);

    /// Whether every method of `other` is in this set.
    pub fn contains(self, other: DerivationSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the two sets share a method.
    pub fn intersects(self, other: DerivationSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The methods in both sets.
    pub fn intersection(self, other: DerivationSet) -> DerivationSet {
        DerivationSet(self.0 & other.0)
    }
}

impl std::ops::BitOr for DerivationSet {
    type Output = DerivationSet;
    fn bitor(self, rhs: DerivationSet) -> DerivationSet {
        DerivationSet(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for DerivationSet {
    fn bitor_assign(&mut self, rhs: DerivationSet) {
        self.0 |= rhs.0;
    }
}

/// How a type was derived from its base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Derivation {
    /// `xs:extension` (complex types only).
    Extension,
    /// `xs:restriction`; also the relation of `anyType` to itself.
    Restriction,
}

/// A default or fixed value of an element or attribute.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueConstraint {
    /// `fixed` rather than `default`.
    pub fixed: bool,
    /// The value as written in the schema.
    pub lexical: String,
    /// The value in the value space of the declaration's simple type (or of the simple
    /// content of its complex type); `None` for mixed element content, where the constraint
    /// is a string.
    pub value: Option<Value>,
}

/// The annotations of a component, kept for documentation: the text content of its
/// `xs:documentation` and `xs:appinfo` children, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// The text of each `xs:documentation`.
    pub documentation: Vec<String>,
    /// The text of each `xs:appinfo`.
    pub appinfo: Vec<String>,
}

impl Annotation {
    /// Whether there is nothing in it.
    pub fn is_empty(&self) -> bool {
        self.documentation.is_empty() && self.appinfo.is_empty()
    }
}

/// An element declaration (section 3.3).
#[derive(Clone, Debug)]
pub struct ElementDecl {
    /// The expanded name.
    pub name: NameId,
    /// The type definition.
    pub type_def: TypeId,
    /// Top-level (a global declaration) rather than local to a complex type.
    pub global: bool,
    /// `default` or `fixed`.
    pub value_constraint: Option<ValueConstraint>,
    /// `nillable`.
    pub nillable: bool,
    /// `abstract`.
    pub is_abstract: bool,
    /// `block` (extension, restriction, substitution), with the schema's default applied.
    pub block: DerivationSet,
    /// `final` (extension, restriction), with the schema's default applied.
    pub final_: DerivationSet,
    /// `substitutionGroup`: the head of the group this element may substitute for.
    pub substitution_group: Option<ElementId>,
    /// The identity constraints (`unique`, `key`, `keyref`) declared on this element.
    pub identity_constraints: Vec<IdentityConstraintId>,
    /// Where it was declared (`None` for none of the built-ins: there are no built-in
    /// elements, so always `Some` for a loaded schema).
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// An attribute declaration (section 3.2).
#[derive(Clone, Debug)]
pub struct AttributeDecl {
    /// The expanded name.
    pub name: NameId,
    /// The type definition (always simple).
    pub type_def: SimpleTypeId,
    /// Top-level rather than local.
    pub global: bool,
    /// `default` or `fixed` on the declaration.
    pub value_constraint: Option<ValueConstraint>,
    /// Where it was declared; `None` for the built-in `xsi:` attributes.
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// An attribute use of a complex type (section 3.5).
#[derive(Clone, Debug)]
pub struct AttributeUse {
    /// The attribute declaration.
    pub decl: AttributeId,
    /// `use="required"`.
    pub required: bool,
    /// `default` or `fixed` on the use (which takes precedence over the declaration's).
    pub value_constraint: Option<ValueConstraint>,
}

impl AttributeUse {
    /// The value constraint that governs the use: its own, else its declaration's in
    /// `schema`.
    pub fn effective_value_constraint<'a>(
        &'a self,
        schema: &'a Schema,
    ) -> Option<&'a ValueConstraint> {
        self.value_constraint
            .as_ref()
            .or(schema.attribute(self.decl).value_constraint.as_ref())
    }
}

/// How a wildcard's matches are validated (`processContents`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProcessContents {
    /// Must be declared and valid.
    Strict,
    /// Validated if a declaration is found.
    Lax,
    /// Not validated (only well-formed).
    Skip,
}

/// The namespaces a wildcard allows (section 3.10).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NamespaceConstraint {
    /// `##any`.
    Any,
    /// `##other`: any namespace but this one, and not unqualified names (`not(ns)` of
    /// XSD 1.0, whose `##other` also excludes absent).
    Not(NamespaceId),
    /// An explicit list; [`NamespaceId::ABSENT`] stands for `##local`.
    Set(Vec<NamespaceId>),
}

/// A wildcard: `xs:any` or `xs:anyAttribute`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wildcard {
    /// The namespaces allowed.
    pub namespaces: NamespaceConstraint,
    /// `processContents`.
    pub process: ProcessContents,
}

impl Wildcard {
    /// Whether a name in namespace `ns` matches ([`NamespaceId::UNKNOWN`] for a namespace the
    /// schema does not know).
    pub fn allows(&self, ns: NamespaceId) -> bool {
        match &self.namespaces {
            NamespaceConstraint::Any => true,
            NamespaceConstraint::Not(not) => ns != *not && ns != NamespaceId::ABSENT,
            NamespaceConstraint::Set(set) => set.contains(&ns),
        }
    }
}

/// `maxOccurs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MaxOccurs {
    /// A bound. Schemas may write larger numbers than `u32::MAX`; those load as
    /// `Unbounded`, which no instance can tell apart.
    Bounded(u32),
    /// `unbounded`.
    Unbounded,
}

/// A particle: a term with occurrence bounds (section 3.9).
#[derive(Clone, Debug)]
pub struct Particle {
    /// `minOccurs`.
    pub min_occurs: u32,
    /// `maxOccurs`.
    pub max_occurs: MaxOccurs,
    /// What occurs.
    pub term: Term,
    /// The `xs:element`, `xs:any`, `xs:group` or compositor that wrote it.
    pub location: Option<Location>,
}

/// The term of a particle.
#[derive(Clone, Debug)]
pub enum Term {
    /// An element declaration (a local one, or the global one an `xs:element ref` names).
    Element(ElementId),
    /// An element wildcard.
    Wildcard(Wildcard),
    /// A model group.
    Group(ModelGroupId),
}

/// The compositor of a model group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compositor {
    /// `xs:sequence`.
    Sequence,
    /// `xs:choice`.
    Choice,
    /// `xs:all`.
    All,
}

/// A model group (section 3.8).
#[derive(Clone, Debug)]
pub struct ModelGroup {
    /// The name, for a top-level `xs:group` definition.
    pub name: Option<NameId>,
    /// Sequence, choice or all.
    pub compositor: Compositor,
    /// The particles, in order.
    pub particles: Vec<Particle>,
    /// Where the compositor was written.
    pub location: Option<Location>,
    /// Its annotations (those of the `xs:group` definition for named groups).
    pub annotation: Annotation,
}

/// The content type of a complex type (section 3.4).
#[derive(Clone, Debug)]
pub enum ContentType {
    /// No children, no text.
    Empty,
    /// Character data of a simple type, no children.
    Simple(SimpleTypeId),
    /// Element children described by the particle; text only if `mixed`.
    Elements {
        /// The effective content model.
        particle: Particle,
        /// `mixed`.
        mixed: bool,
    },
}

/// A complex type definition (section 3.4).
#[derive(Clone, Debug)]
pub struct ComplexType {
    /// The name, for a top-level definition.
    pub name: Option<NameId>,
    /// The base type definition (`anyType` for `anyType` itself).
    pub base: TypeId,
    /// How it was derived from `base`.
    pub derivation: Derivation,
    /// `abstract`.
    pub is_abstract: bool,
    /// `final`, with the schema's default applied.
    pub final_: DerivationSet,
    /// `block` (prohibited substitutions), with the schema's default applied.
    pub block: DerivationSet,
    /// The effective attribute uses, inherited ones included; prohibited ones removed.
    pub attribute_uses: Vec<AttributeUse>,
    /// The effective attribute wildcard.
    pub attribute_wildcard: Option<Wildcard>,
    /// The effective content type.
    pub content: ContentType,
    /// Where it was defined (`None` for `anyType`).
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// The variety of a simple type (section 3.14).
#[derive(Clone, Debug, PartialEq)]
pub enum Variety {
    /// An atomic type whose nearest built-in ancestor is `builtin` (for the built-in list
    /// types `NMTOKENS`, `IDREFS` and `ENTITIES`, their own [`Builtin`]: the datatypes module
    /// parses them whole). `anySimpleType` is `Atomic(AnySimpleType)`.
    Atomic(Builtin),
    /// A list of items of the item type.
    List(SimpleTypeId),
    /// A union of the member types, tried in order.
    Union(Vec<SimpleTypeId>),
}

/// A facet value and whether it was declared `fixed`.
#[derive(Clone, Debug, PartialEq)]
pub struct FacetValue<T> {
    /// The value.
    pub value: T,
    /// `fixed="true"`: derived types may not change it.
    pub fixed: bool,
}

/// The effective constraining facets of a simple type (its own over its base's).
///
/// Built-in types have none beyond `whiteSpace`: their own value spaces (the range of `int`,
/// the lexical form of `NCName`) are checked by [`Builtin::parse`].
#[derive(Clone, Debug, Default)]
pub struct Facets {
    /// `whiteSpace`; `None` means the built-in's (or `collapse` for lists and unions).
    pub white_space: Option<FacetValue<WhiteSpace>>,
    /// `length`.
    pub length: Option<FacetValue<usize>>,
    /// `minLength`.
    pub min_length: Option<FacetValue<usize>>,
    /// `maxLength`.
    pub max_length: Option<FacetValue<usize>>,
    /// `totalDigits`.
    pub total_digits: Option<FacetValue<u32>>,
    /// `fractionDigits`.
    pub fraction_digits: Option<FacetValue<u32>>,
    /// `minInclusive`.
    pub min_inclusive: Option<FacetValue<Value>>,
    /// `maxInclusive`.
    pub max_inclusive: Option<FacetValue<Value>>,
    /// `minExclusive`.
    pub min_exclusive: Option<FacetValue<Value>>,
    /// `maxExclusive`.
    pub max_exclusive: Option<FacetValue<Value>>,
    /// `enumeration`: the values allowed (of the most derived step that has any), with the
    /// lexical forms as written for messages.
    pub enumeration: Option<Vec<(Value, String)>>,
    /// `pattern`: one entry per derivation step that has patterns; a value must match one
    /// pattern of every step.
    pub patterns: Vec<Vec<Pattern>>,
}

impl Facets {
    /// The first derivation step none of whose patterns `s` matches (`None`: `s` satisfies
    /// the patterns).
    pub(crate) fn unmatched_pattern(&self, s: &str) -> Option<&[Pattern]> {
        self.patterns
            .iter()
            .find(|step| !step.iter().any(|p| p.is_match(s)))
            .map(Vec::as_slice)
    }
}

/// A simple type definition (section 3.14).
#[derive(Clone, Debug)]
pub struct SimpleType {
    /// The name, for top-level definitions and built-ins.
    pub name: Option<NameId>,
    /// The base type (`anyType` for `anySimpleType`).
    pub base: TypeId,
    /// The built-in this is, for the built-ins.
    pub builtin: Option<Builtin>,
    /// Atomic, list or union.
    pub variety: Variety,
    /// The effective facets.
    pub facets: Facets,
    /// `final` (restriction, list, union), with the schema's default applied.
    pub final_: DerivationSet,
    /// Where it was defined (`None` for built-ins).
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// Unique, key or keyref.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdentityKind {
    /// `xs:unique`.
    Unique,
    /// `xs:key`.
    Key,
    /// `xs:keyref`, referring to a key or unique constraint.
    KeyRef(IdentityConstraintId),
}

/// A name test of the restricted XPath of identity constraints.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NameTest {
    /// `*`.
    Any,
    /// `prefix:*`.
    Namespace(NamespaceId),
    /// A QName; the local name is kept as text since instance names need not be in the
    /// schema's name table.
    Name(NamespaceId, Box<str>),
}

/// One alternative (`|`) of a selector or field path: `(.//)? step/step/...`, where a step is
/// `.`-free child step (`.` steps are dropped when compiled); a field may end in an attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RestrictedPath {
    /// Starts with `.//`: the steps may begin at any descendant.
    pub descendants: bool,
    /// The child steps, in order (empty for `.`).
    pub steps: Vec<NameTest>,
    /// A final `@name` step (fields only).
    pub attribute: Option<NameTest>,
}

/// An identity constraint definition (section 3.11).
#[derive(Clone, Debug)]
pub struct IdentityConstraint {
    /// Its name (identity constraint names are one symbol space per namespace).
    pub name: NameId,
    /// Unique, key or keyref.
    pub kind: IdentityKind,
    /// The selector, as alternatives.
    pub selector: Vec<RestrictedPath>,
    /// The selector as written.
    pub selector_source: String,
    /// The fields, each as alternatives, with their source.
    pub fields: Vec<(Vec<RestrictedPath>, String)>,
    /// Where it was declared.
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// A notation declaration (section 3.12).
#[derive(Clone, Debug)]
pub struct Notation {
    /// Its name.
    pub name: NameId,
    /// `public`.
    pub public: Option<String>,
    /// `system`.
    pub system: Option<String>,
    /// Where it was declared.
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// A named attribute group definition, as declared (its uses are also copied into every
/// complex type that references it).
#[derive(Clone, Debug)]
pub struct AttributeGroup {
    /// Its name.
    pub name: NameId,
    /// The attribute uses.
    pub attribute_uses: Vec<AttributeUse>,
    /// The attribute wildcard.
    pub attribute_wildcard: Option<Wildcard>,
    /// Where it was declared.
    pub location: Option<Location>,
    /// Its annotations.
    pub annotation: Annotation,
}

/// A map keyed by schema name. The validator looks global declarations up per element
/// (children of a lax wildcard, such as the items of a SOAP array): a name is a small
/// integer the schema gave out, so a multiplicative hash does, where SipHash cost a hundred
/// instructions a lookup.
pub(crate) type NameMap<V> = HashMap<NameId, V, std::hash::BuildHasherDefault<NameHasher>>;

/// The hash of a [`NameId`]: its index times a large odd constant (Fibonacci hashing; the
/// table takes its control bits from the top, its bucket from the bottom).
#[derive(Default)]
pub(crate) struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }
}

/// A loaded, immutable XML Schema: every component of every schema document that took part.
///
/// Build one with the loader (`Schema::load`); share it across threads in an `Arc`.
#[derive(Debug)]
pub struct Schema {
    pub(crate) names: NameTable,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) elements: Vec<ElementDecl>,
    pub(crate) attributes: Vec<AttributeDecl>,
    pub(crate) simple_types: Vec<SimpleType>,
    pub(crate) complex_types: Vec<ComplexType>,
    pub(crate) model_groups: Vec<ModelGroup>,
    pub(crate) attribute_groups: Vec<AttributeGroup>,
    pub(crate) identity_constraints: Vec<IdentityConstraint>,
    pub(crate) notations: Vec<Notation>,
    /// Top-level components by name, one map per symbol space.
    pub(crate) global_elements: NameMap<ElementId>,
    pub(crate) global_attributes: NameMap<AttributeId>,
    pub(crate) global_types: NameMap<TypeId>,
    pub(crate) global_groups: NameMap<ModelGroupId>,
    pub(crate) global_attribute_groups: NameMap<AttributeGroupId>,
    pub(crate) global_identity_constraints: NameMap<IdentityConstraintId>,
    pub(crate) global_notations: NameMap<NotationId>,
    /// For each element declaration, itself and the declarations that may substitute for
    /// it ([`Schema::substitution_group`]).
    pub(crate) substitutions: Vec<Vec<ElementId>>,
    /// The target namespaces of the schema documents, in load order.
    pub(crate) target_namespaces: Vec<NamespaceId>,
    /// The compiled content model of each complex type with element content, by
    /// [`ComplexTypeId`] (`crate::validate::compile_content_models` fills it).
    pub(crate) content_models: Vec<Option<crate::validate::ContentModel>>,
}

impl Schema {
    /// A schema with only the built-in components: the 45 built-in simple types, `anyType`
    /// and the four `xsi:` attributes. The loader starts from this.
    pub fn builtins() -> Schema {
        let mut s = Schema {
            names: NameTable::new(),
            files: Vec::new(),
            elements: Vec::new(),
            attributes: Vec::new(),
            simple_types: Vec::new(),
            complex_types: Vec::new(),
            model_groups: Vec::new(),
            attribute_groups: Vec::new(),
            identity_constraints: Vec::new(),
            notations: Vec::new(),
            global_elements: NameMap::default(),
            global_attributes: NameMap::default(),
            global_types: NameMap::default(),
            global_groups: NameMap::default(),
            global_attribute_groups: NameMap::default(),
            global_identity_constraints: NameMap::default(),
            global_notations: NameMap::default(),
            substitutions: Vec::new(),
            target_namespaces: Vec::new(),
            content_models: Vec::new(),
        };
        let xs = s.names.namespace(XSD_NAMESPACE);
        for &b in Builtin::ALL {
            let name = s.names.name(xs, b.name());
            let base = match b.base() {
                None => TypeId::ANY_TYPE,
                Some(base) => TypeId::Simple(SimpleTypeId::builtin(base)),
            };
            let id = SimpleTypeId::from_index(s.simple_types.len());
            s.simple_types.push(SimpleType {
                name: Some(name),
                base,
                builtin: Some(b),
                variety: Variety::Atomic(b),
                facets: Facets::default(),
                final_: DerivationSet::EMPTY,
                location: None,
                annotation: Annotation::default(),
            });
            s.global_types.insert(name, TypeId::Simple(id));
        }
        let any_type = s.names.name(xs, "anyType");
        let any_group = ModelGroupId::from_index(s.model_groups.len());
        s.model_groups.push(ModelGroup {
            name: None,
            compositor: Compositor::Sequence,
            particles: vec![Particle {
                min_occurs: 0,
                max_occurs: MaxOccurs::Unbounded,
                term: Term::Wildcard(Wildcard {
                    namespaces: NamespaceConstraint::Any,
                    process: ProcessContents::Lax,
                }),
                location: None,
            }],
            location: None,
            annotation: Annotation::default(),
        });
        s.complex_types.push(ComplexType {
            name: Some(any_type),
            base: TypeId::ANY_TYPE,
            derivation: Derivation::Restriction,
            is_abstract: false,
            final_: DerivationSet::EMPTY,
            block: DerivationSet::EMPTY,
            attribute_uses: Vec::new(),
            attribute_wildcard: Some(Wildcard {
                namespaces: NamespaceConstraint::Any,
                process: ProcessContents::Lax,
            }),
            content: ContentType::Elements {
                particle: Particle {
                    min_occurs: 1,
                    max_occurs: MaxOccurs::Bounded(1),
                    term: Term::Group(any_group),
                    location: None,
                },
                mixed: true,
            },
            location: None,
            annotation: Annotation::default(),
        });
        s.global_types.insert(any_type, TypeId::ANY_TYPE);
        let xsi = s.names.namespace(XSI_NAMESPACE);
        let qname = SimpleTypeId::builtin(Builtin::QName);
        let boolean = SimpleTypeId::builtin(Builtin::Boolean);
        let any_uri = SimpleTypeId::builtin(Builtin::AnyUri);
        let uri_list = SimpleTypeId::from_index(s.simple_types.len());
        s.simple_types.push(SimpleType {
            name: None,
            base: TypeId::Simple(SimpleTypeId::ANY_SIMPLE_TYPE),
            builtin: None,
            variety: Variety::List(any_uri),
            facets: Facets::default(),
            final_: DerivationSet::EMPTY,
            location: None,
            annotation: Annotation::default(),
        });
        for (local, ty) in [
            ("type", qname),
            ("nil", boolean),
            ("schemaLocation", uri_list),
            ("noNamespaceSchemaLocation", any_uri),
        ] {
            let name = s.names.name(xsi, local);
            let id = AttributeId::from_index(s.attributes.len());
            s.attributes.push(AttributeDecl {
                name,
                type_def: ty,
                global: true,
                value_constraint: None,
                location: None,
                annotation: Annotation::default(),
            });
            s.global_attributes.insert(name, id);
        }
        crate::validate::compile_content_models(&mut s).expect("anyType's content model compiles");
        s
    }

    /// The interned names and namespaces.
    pub fn names(&self) -> &NameTable {
        &self.names
    }

    /// The path of a schema document.
    pub fn file(&self, id: FileId) -> &Path {
        &self.files[id.index()]
    }

    /// The schema documents, in load order.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &Path)> + '_ {
        self.files
            .iter()
            .enumerate()
            .map(|(i, p)| (FileId::from_index(i), p.as_path()))
    }

    /// The target namespaces of the loaded documents, each once, in load order.
    pub fn target_namespaces(&self) -> &[NamespaceId] {
        &self.target_namespaces
    }

    /// An element declaration.
    pub fn element(&self, id: ElementId) -> &ElementDecl {
        &self.elements[id.index()]
    }

    /// An attribute declaration.
    pub fn attribute(&self, id: AttributeId) -> &AttributeDecl {
        &self.attributes[id.index()]
    }

    /// A simple type definition.
    pub fn simple_type(&self, id: SimpleTypeId) -> &SimpleType {
        &self.simple_types[id.index()]
    }

    /// A complex type definition.
    pub fn complex_type(&self, id: ComplexTypeId) -> &ComplexType {
        &self.complex_types[id.index()]
    }

    /// A model group.
    pub fn model_group(&self, id: ModelGroupId) -> &ModelGroup {
        &self.model_groups[id.index()]
    }

    /// A named attribute group.
    pub fn attribute_group(&self, id: AttributeGroupId) -> &AttributeGroup {
        &self.attribute_groups[id.index()]
    }

    /// An identity constraint.
    pub fn identity_constraint(&self, id: IdentityConstraintId) -> &IdentityConstraint {
        &self.identity_constraints[id.index()]
    }

    /// Every identity constraint of the schema, in the order of their ids.
    pub fn identity_constraints(
        &self,
    ) -> impl Iterator<Item = (IdentityConstraintId, &IdentityConstraint)> {
        self.identity_constraints
            .iter()
            .enumerate()
            .map(|(i, c)| (IdentityConstraintId::from_index(i), c))
    }

    /// A notation.
    pub fn notation(&self, id: NotationId) -> &Notation {
        &self.notations[id.index()]
    }

    /// Every element declaration, global and local.
    pub fn elements(&self) -> impl Iterator<Item = (ElementId, &ElementDecl)> + '_ {
        self.elements
            .iter()
            .enumerate()
            .map(|(i, e)| (ElementId::from_index(i), e))
    }

    /// Every simple type definition, the built-ins first.
    pub fn simple_types(&self) -> impl Iterator<Item = (SimpleTypeId, &SimpleType)> + '_ {
        self.simple_types
            .iter()
            .enumerate()
            .map(|(i, t)| (SimpleTypeId::from_index(i), t))
    }

    /// Every complex type definition, `anyType` first.
    pub fn complex_types(&self) -> impl Iterator<Item = (ComplexTypeId, &ComplexType)> + '_ {
        self.complex_types
            .iter()
            .enumerate()
            .map(|(i, t)| (ComplexTypeId::from_index(i), t))
    }

    /// The global element declaration named `name`.
    pub fn global_element(&self, name: NameId) -> Option<ElementId> {
        self.global_elements.get(&name).copied()
    }

    /// The global attribute declaration named `name` (including the `xsi:` attributes).
    pub fn global_attribute(&self, name: NameId) -> Option<AttributeId> {
        self.global_attributes.get(&name).copied()
    }

    /// The type definition named `name` (including the built-ins).
    pub fn global_type(&self, name: NameId) -> Option<TypeId> {
        self.global_types.get(&name).copied()
    }

    /// The named model group `name`.
    pub fn global_group(&self, name: NameId) -> Option<ModelGroupId> {
        self.global_groups.get(&name).copied()
    }

    /// The named attribute group `name`.
    pub fn global_attribute_group(&self, name: NameId) -> Option<AttributeGroupId> {
        self.global_attribute_groups.get(&name).copied()
    }

    /// The identity constraint named `name`.
    pub fn global_identity_constraint(&self, name: NameId) -> Option<IdentityConstraintId> {
        self.global_identity_constraints.get(&name).copied()
    }

    /// The notation named `name`.
    pub fn global_notation(&self, name: NameId) -> Option<NotationId> {
        self.global_notations.get(&name).copied()
    }

    /// Top-level element declarations, in no particular order.
    pub fn global_elements(&self) -> impl Iterator<Item = (NameId, ElementId)> + '_ {
        self.global_elements.iter().map(|(&n, &e)| (n, e))
    }

    /// Top-level attribute declarations (the `xsi:` ones included), in no particular order.
    pub fn global_attributes(&self) -> impl Iterator<Item = (NameId, AttributeId)> + '_ {
        self.global_attributes.iter().map(|(&n, &a)| (n, a))
    }

    /// Top-level type definitions (built-ins included), in no particular order.
    pub fn global_types(&self) -> impl Iterator<Item = (NameId, TypeId)> + '_ {
        self.global_types.iter().map(|(&n, &t)| (n, t))
    }

    /// The declarations that may appear where `head` is expected: `head` first, then every member of
    /// its substitution group, transitively, abstract ones included (the validator rejects
    /// abstract elements and blocked substitutions itself). Empty until the loader has
    /// computed the groups.
    pub fn substitution_group(&self, head: ElementId) -> &[ElementId] {
        self.substitutions
            .get(head.index())
            .map_or(&[], |v| v.as_slice())
    }

    /// Whether `head`'s declaration (its `block`, its type's `block`) keeps `member`, a member
    /// of its substitution group, from standing for it (Substitution Group OK, section
    /// 3.3.6). An element never blocks itself.
    pub fn substitution_blocked(&self, head: ElementId, member: ElementId) -> bool {
        if head == member {
            return false;
        }
        let h = self.element(head);
        let mut blocked = h.block;
        if let TypeId::Complex(c) = h.type_def {
            blocked |= self.complex_type(c).block;
        }
        blocked.contains(DerivationSet::SUBSTITUTION)
            || !self.derives_from(self.element(member).type_def, h.type_def, blocked)
    }

    /// Whether type `derived` is `base` or derives from it, not counting derivations by a
    /// method in `blocked` at any step (Type Derivation OK, sections 3.4.6 and 3.14.6).
    pub fn derives_from(&self, derived: TypeId, base: TypeId, blocked: DerivationSet) -> bool {
        let mut t = derived;
        // The chain is finite and acyclic in a loaded schema; the bound is a guard for
        // schemas under construction.
        for _ in 0..=self.simple_types.len() + self.complex_types.len() {
            if t == base {
                return true;
            }
            if t == TypeId::ANY_TYPE {
                return false;
            }
            let (next, method) = match t {
                TypeId::Simple(s) => (self.simple_type(s).base, DerivationSet::RESTRICTION),
                TypeId::Complex(c) => {
                    let ct = self.complex_type(c);
                    let m = match ct.derivation {
                        Derivation::Extension => DerivationSet::EXTENSION,
                        Derivation::Restriction => DerivationSet::RESTRICTION,
                    };
                    (ct.base, m)
                }
            };
            if blocked.intersects(method) {
                return false;
            }
            t = next;
        }
        false
    }

    /// A readable form of a name: `{namespace}local`, or `local` when unqualified.
    pub fn display_name(&self, name: NameId) -> String {
        self.names.display(name)
    }

    /// The display form of a component's location: `file:line:column`.
    pub fn display_location(&self, loc: Location) -> String {
        format!(
            "{}:{}:{}",
            self.file(loc.file).display(),
            loc.line,
            loc.column
        )
    }
}

/// A violation of a constraint on schemas, or a schema document that cannot be read.
///
/// A file that could not be read has its `std::io::Error` as the
/// [`source`](std::error::Error::source); other errors have none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// The name of the constraint in the specification (`src-resolve`, `cos-nonambig`,
    /// `derivation-ok-restriction`, ...), or `schema-document` for an unreadable or
    /// malformed document.
    pub constraint: &'static str,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The schema document, when known.
    pub file: Option<PathBuf>,
    /// 1-based line and column in it, when known.
    pub position: Option<(u32, u32)>,
    /// The error of a file that could not be read, or the reader's error of a document that
    /// is not well-formed.
    pub(crate) source: Option<Cause>,
}

/// What a [`SchemaError`] wraps. The I/O error is shared, so that the error stays `Clone`,
/// and equal to another when their kinds and messages are, as `io::Error` has no equality of
/// its own.
#[derive(Clone, Debug)]
pub(crate) enum Cause {
    Io(Arc<std::io::Error>),
    Xml(xwire::Error),
}

impl Cause {
    #[cold]
    pub(crate) fn io(e: std::io::Error) -> Cause {
        Cause::Io(Arc::new(e))
    }
}

impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        match (self, other) {
            (Cause::Io(a), Cause::Io(b)) => a.kind() == b.kind() && a.to_string() == b.to_string(),
            (Cause::Xml(a), Cause::Xml(b)) => a == b,
            _ => false,
        }
    }
}

// Comparing by kind and message, or as xwire::Error does, is reflexive, symmetric and
// transitive.
impl Eq for Cause {}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.position) {
            (Some(file), Some((line, col))) => write!(f, "{}:{line}:{col}: ", file.display())?,
            (Some(file), None) => write!(f, "{}: ", file.display())?,
            _ => {}
        }
        write!(f, "{} [{}]", self.message, self.constraint)
    }
}

impl std::error::Error for SchemaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The `io::Error` itself, not the `Arc`, so that `downcast_ref` finds it.
        self.source.as_ref().map(|c| match c {
            Cause::Io(e) => &**e as _,
            Cause::Xml(e) => e as _,
        })
    }
}

/// Every error found while loading a schema (the loader goes on after an error to report
/// more; at least one error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaErrors(pub Vec<SchemaError>);

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}
