//! The binding plan: which Rust items a schema becomes, decided once from the component model
//! and read by every emitter (types, parsers, serializers).
//!
//! A [`Plan`] is a list of [`Item`]s (structs, choice enums, enumerations, newtypes, unions)
//! and the document elements ([`Root`]s). Fields and variants say where their value comes from
//! in a document ([`Source`]), what Rust type holds it ([`Ty`]) and how often it occurs
//! ([`Occurs`]). Names are final Rust identifiers, unique where Rust needs them to be; the
//! order of everything is the schema's, so the same schema always gives the same plan.
//!
//! How the component model maps:
//!
//! - a complex type is a struct: its attribute uses, then the fields of its content (the
//!   particles of a sequence or `all` in order, a nested sequence that occurs once flattened
//!   into them), or `value` for simple content; mixed content adds `text`, the runs of
//!   character data between the children;
//! - a choice is an enum with a variant per particle; a sequence that repeats or is optional
//!   is a struct of its own;
//! - an element of a simple type holds that type's Rust type: integers sized by their range
//!   (`positiveInteger` below 100 is a `u8`), `f32`/`f64`, `bool`, [`Prim::Decimal`],
//!   date/time values, byte strings, lists as `Vec`; a string type with an enumeration is an
//!   enum, one restricted by a pattern or a length a newtype, a union an enum of its members;
//! - `minOccurs="0"` is `Option`, a larger `maxOccurs` `Vec`, and a field through which a
//!   struct would contain itself is boxed;
//! - an element a wildcard matches is a document of the schema when a global declaration has
//!   its name, owned XML otherwise ([`Prim::Any`]); an element of type `xs:anyType` is owned
//!   XML ([`Prim::AnyElement`]); an attribute wildcard keeps the attributes it admits
//!   ([`Source::AnyAttributes`]).

mod boxing;
mod complex;
pub(crate) mod names;
mod simple;

pub use simple::integer_bounds;

use std::collections::HashMap;

use xwire_schema::model::{
    ComplexTypeId, DerivationSet, ElementId, NameId, Schema, SimpleTypeId, TypeId, Wildcard,
};

pub use xwire_schema::datatypes::TemporalKind;

/// The `Document` variant of a root that no global element names, typed by its `xsi:type`
/// alone.
pub const UNDECLARED: &str = "Undeclared";

/// What a schema becomes in Rust.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The items, in the order they are emitted.
    pub items: Vec<Item>,
    /// The global element declarations: what a document may be.
    pub roots: Vec<Root>,
    /// The Rust type of each simple type the items use.
    pub simple_types: HashMap<SimpleTypeId, Ty>,
    /// The items of the schema's named complex types, in its order: what an `xsi:type` in
    /// wildcard or `xs:anyType` content may name (the `Typed` enum).
    pub typed: Vec<(String, String, ItemId)>,
}

impl Plan {
    /// The item `id` names.
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.0]
    }

    /// The item of this name, if there is one.
    pub fn find(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }
}

/// An index into [`Plan::items`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub usize);

/// One Rust item.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The Rust name, unique in the plan.
    pub name: String,
    /// The schema's documentation of the component, one string per `xs:documentation`.
    pub doc: Vec<String>,
    /// What component it stands for.
    pub origin: Origin,
    /// Struct, enum or newtype.
    pub kind: ItemKind,
}

/// The schema component an item stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A complex type definition, named or anonymous.
    ComplexType(ComplexTypeId),
    /// A simple type definition (a restriction with facets, an enumeration or a union).
    SimpleType(SimpleTypeId),
    /// A model group inside another item's content: a choice, or a sequence that repeats.
    Group(ItemId),
    /// The elements that may stand where this one is expected: it and the members of its
    /// substitution group.
    SubstitutionGroup(ElementId),
    /// A complex type and the types derived from it, which an instance chooses by `xsi:type`.
    TypeFamily(ComplexTypeId),
}

/// The shape of an item.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// A struct of fields.
    Struct {
        /// The fields, attributes first, then the content in document order.
        fields: Vec<Field>,
    },
    /// An enum with one variant per alternative: a choice, a substitution group or the types
    /// an `xsi:type` may name.
    Choice {
        /// The alternatives, in the schema's order.
        variants: Vec<Variant>,
    },
    /// An enum of the values of an enumeration facet.
    Enumeration {
        /// The simple type the values are in.
        base: Prim,
        /// The values: the variant's name and the value as the schema writes it.
        values: Vec<(String, String)>,
    },
    /// A newtype around the value of a simple type restricted by facets the Rust type does
    /// not express (a pattern, a length, digits).
    Newtype {
        /// The value's type.
        inner: Ty,
    },
    /// An enum of the member types of a union, tried in order.
    Union {
        /// One variant per member type.
        members: Vec<(String, Ty)>,
    },
}

/// A field of a struct.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The Rust name (a raw identifier where the name is a keyword).
    pub name: String,
    /// Where the value comes from.
    pub source: Source,
    /// The type of one occurrence.
    pub ty: Ty,
    /// How many occurrences.
    pub occurs: Occurs,
    /// Boxed: the struct would otherwise contain itself.
    pub boxed: bool,
    /// The `default` or `fixed` value, as written in the schema.
    pub value_constraint: Option<(bool, String)>,
    /// The simple type of the value, when it has one (an attribute, simple content, an
    /// element of simple type): what a parser converts the text with.
    pub simple: Option<SimpleTypeId>,
}

/// An alternative of a [`ItemKind::Choice`].
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The Rust name.
    pub name: String,
    /// Where the value comes from.
    pub source: Source,
    /// The type of one occurrence.
    pub ty: Ty,
    /// How many occurrences.
    pub occurs: Occurs,
    /// Boxed: the enum would otherwise contain itself.
    pub boxed: bool,
    /// The simple type of the value, when it has one.
    pub simple: Option<SimpleTypeId>,
    /// An element's `default` (`false`) or `fixed` (`true`) value, as written.
    pub value_constraint: Option<(bool, String)>,
}

/// Where a value comes from in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// An attribute: namespace URI (empty for none) and local name.
    Attribute {
        /// The namespace URI, empty for none.
        ns: String,
        /// The local name.
        local: String,
        /// `use="required"`: the document must have it, even where a default or fixed
        /// value would give the field a value without it.
        required: bool,
    },
    /// A child element.
    Element {
        /// The namespace URI, empty for none.
        ns: String,
        /// The local name.
        local: String,
        /// `nillable="true"`: `xsi:nil` may stand for its content.
        nillable: bool,
        /// The declaration's `block`: derivations `xsi:type` may not name.
        block: DerivationSet,
        /// The declaration (whose identity constraints open scopes at the element).
        element: ElementId,
    },
    /// The element's own character data: simple content, or text in mixed content.
    Text,
    /// A model group of the content (its item holds the elements).
    Group,
    /// Elements matched by a wildcard (`xs:any`).
    AnyElement(Wildcard),
    /// The attributes an attribute wildcard admits (the type's `xs:anyAttribute`s, as
    /// derivation combined them).
    AnyAttributes(Wildcard),
    /// The character data of mixed content (its elements are fields as in element-only
    /// content): runs of text, each with the number of children before it.
    Mixed,
    /// The element whose `xsi:type` names this type (a variant of a type family).
    XsiType {
        /// The type's namespace URI, empty for none.
        ns: String,
        /// The type's local name.
        local: String,
        /// The element's declared type, also what an element without `xsi:type` has.
        declared: bool,
    },
}

/// How many times a field's value occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occurs {
    /// Exactly once: `T`.
    One,
    /// At most once: `Option<T>`.
    Optional,
    /// Any other bounds: `Vec<T>`, checked against them.
    Many {
        /// `minOccurs`.
        min: u32,
        /// `maxOccurs`; `None` for unbounded.
        max: Option<u32>,
    },
}

impl Occurs {
    /// The occurrence of a particle with these bounds.
    pub fn of(min: u32, max: Option<u32>) -> Occurs {
        match (min, max) {
            (1, Some(1)) => Occurs::One,
            (0, Some(1)) => Occurs::Optional,
            _ => Occurs::Many { min, max },
        }
    }

    /// This occurrence nested in one of `outer` (a particle inside a group that repeats).
    pub fn within(self, outer: Occurs) -> Occurs {
        let bounds = |o: Occurs| match o {
            Occurs::One => (1, Some(1)),
            Occurs::Optional => (0, Some(1)),
            Occurs::Many { min, max } => (min, max),
        };
        let (a, b) = (bounds(self), bounds(outer));
        let max = match (a.1, b.1) {
            (Some(x), Some(y)) => x.checked_mul(y),
            _ => None,
        };
        Occurs::of(a.0.saturating_mul(b.0), max)
    }
}

/// The Rust type of one value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An item of the plan.
    Item(ItemId),
    /// A type the runtime or the language has.
    Prim(Prim),
    /// A list type's items: `Vec<T>`.
    List(Box<Ty>),
}

/// The types every schema shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `xs:boolean`.
    Bool,
    /// An integer type whose range fits a Rust integer.
    Int(IntType),
    /// An integer type without a bound on one side: arbitrary precision.
    Integer,
    /// `xs:decimal` and its restrictions that allow fractions: exact.
    Decimal,
    /// `xs:float`.
    F32,
    /// `xs:double`.
    F64,
    /// The string types, `anyURI` and `anySimpleType`.
    String,
    /// A date/time type.
    DateTime(TemporalKind),
    /// `xs:duration`.
    Duration,
    /// `hexBinary` and `base64Binary`: the bytes.
    Bytes,
    /// `QName` and `NOTATION`: namespace URI and local name.
    QName,
    /// An element a wildcard matched: a document of the schema, or XML.
    Any,
    /// An element of type `xs:anyType`, kept as XML.
    AnyElement,
    /// An attribute kept as it is: one an attribute wildcard admitted.
    AnyAttribute,
    /// No content (an element of empty content without attributes).
    Unit,
    /// A run of text in mixed content and its place among the children.
    MixedText,
}

/// A fixed-width Rust integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntType {
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `u16`.
    U16,
    /// `i16`.
    I16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u64`.
    U64,
    /// `i64`.
    I64,
}

impl IntType {
    /// The narrowest type holding every value from `min` to `max`, unsigned when `min` is
    /// not negative; `None` when even 64 bits do not.
    pub fn fitting(min: i128, max: i128) -> Option<IntType> {
        use IntType::*;
        [U8, I8, U16, I16, U32, I32, U64, I64]
            .into_iter()
            .find(|t| {
                let (lo, hi) = t.range();
                lo <= min && max <= hi
            })
    }

    /// The smallest and largest value.
    pub fn range(self) -> (i128, i128) {
        match self {
            IntType::U8 => (0, u8::MAX.into()),
            IntType::I8 => (i8::MIN.into(), i8::MAX.into()),
            IntType::U16 => (0, u16::MAX.into()),
            IntType::I16 => (i16::MIN.into(), i16::MAX.into()),
            IntType::U32 => (0, u32::MAX.into()),
            IntType::I32 => (i32::MIN.into(), i32::MAX.into()),
            IntType::U64 => (0, u64::MAX.into()),
            IntType::I64 => (i64::MIN.into(), i64::MAX.into()),
        }
    }

    /// The Rust name.
    pub fn name(self) -> &'static str {
        match self {
            IntType::U8 => "u8",
            IntType::I8 => "i8",
            IntType::U16 => "u16",
            IntType::I16 => "i16",
            IntType::U32 => "u32",
            IntType::I32 => "i32",
            IntType::U64 => "u64",
            IntType::I64 => "i64",
        }
    }
}

/// A global element declaration: one kind of document.
#[derive(Clone, Debug, PartialEq)]
pub struct Root {
    /// The variant name in the document enum.
    pub name: String,
    /// The namespace URI, empty for none.
    pub ns: String,
    /// The local name.
    pub local: String,
    /// The type of its value.
    pub ty: Ty,
    /// Its simple type, when it has one.
    pub simple: Option<SimpleTypeId>,
    /// Its declaration.
    pub element: ElementId,
    /// `nillable="true"`: its value is a `Nillable`.
    pub nillable: bool,
}

/// Why a schema cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    /// What, and at which component.
    pub message: String,
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PlanError {}

/// Plans `schema`'s items: every global element and named type, and what they reach.
pub fn plan(schema: &Schema) -> Result<Plan, PlanError> {
    let mut p = Planner {
        schema,
        items: Vec::new(),
        names: names::Taken::items(),
        complex: HashMap::new(),
        simple: HashMap::new(),
        substitutions: HashMap::new(),
        families: HashMap::new(),
        derived: HashMap::new(),
    };
    // Named types first, in the schema's order, so they keep their own names; anonymous
    // types take theirs from the elements that declare them, as they are reached.
    let mut typed = Vec::new();
    for (id, ct) in schema.complex_types() {
        if let (false, Some(name), Some(_)) = (id == ComplexTypeId::ANY_TYPE, ct.name, ct.location)
        {
            let item = p.complex_type(id, None)?;
            let local = schema.names().local(name).to_string();
            typed.push((ns_of(schema, name), local, item));
        }
    }
    for (id, st) in schema.simple_types() {
        if st.builtin.is_none() && st.name.is_some() {
            p.simple_type(id, None)?;
        }
    }
    // The types of global attributes, which wildcards may admit: in the order of their
    // names, the schema keeping no other.
    let mut attributes: Vec<_> = schema
        .global_attributes()
        .map(|(n, a)| (schema.names().display(n), a))
        .filter(|(_, a)| schema.attribute(*a).location.is_some())
        .collect();
    attributes.sort();
    for (_, a) in attributes {
        let decl = schema.attribute(a);
        let local = schema.names().local(decl.name).to_string();
        p.simple_type(decl.type_def, Some((&local, None)))?;
    }
    let mut roots = Vec::new();
    let mut root_names = names::Taken::default();
    // The variant of a root no global element names (`emit::document`).
    root_names.take(UNDECLARED);
    for (_, el) in schema.global_elements() {
        let decl = schema.element(el);
        // An abstract element never appears itself: no document is one.
        if decl.is_abstract {
            continue;
        }
        let local = schema.names().local(decl.name).to_string();
        let ty = p.element_type(el, &local, None)?;
        roots.push(Root {
            name: root_names.take(&names::type_name(&local)),
            ns: ns_of(schema, decl.name),
            local,
            ty,
            simple: simple_type_of(schema, el),
            element: el,
            nillable: decl.nillable,
        });
    }
    let mut items = p.items;
    boxing::box_cycles(&mut items);
    Ok(Plan {
        items,
        roots,
        simple_types: p.simple,
        typed,
    })
}

/// The simple type of element `el`, if its type is simple.
fn simple_type_of(schema: &Schema, el: ElementId) -> Option<SimpleTypeId> {
    match schema.element(el).type_def {
        TypeId::Simple(st) => Some(st),
        TypeId::Complex(_) => None,
    }
}

/// The namespace URI of an expanded name, empty for none.
fn ns_of(schema: &Schema, name: NameId) -> String {
    let names = schema.names();
    names.namespace_uri(names.ns(name)).to_string()
}

/// The planner's state: the items so far, the names taken, and which types have items.
struct Planner<'s> {
    schema: &'s Schema,
    items: Vec<Item>,
    names: names::Taken,
    complex: HashMap<ComplexTypeId, ItemId>,
    simple: HashMap<SimpleTypeId, Ty>,
    substitutions: HashMap<ElementId, ItemId>,
    families: HashMap<Vec<ComplexTypeId>, ItemId>,
    /// [`Planner::derived_types`] by declared type and blocked derivations.
    derived: HashMap<(ComplexTypeId, DerivationSet), Vec<ComplexTypeId>>,
}

impl Planner<'_> {
    /// Adds an item, reserving its place first so that what it refers to comes after it.
    fn reserve(&mut self, name: &str, origin: Origin, doc: Vec<String>) -> ItemId {
        let id = ItemId(self.items.len());
        let name = self.names.take(name);
        self.items.push(Item {
            name,
            doc,
            origin,
            kind: ItemKind::Struct { fields: Vec::new() },
        });
        id
    }

    /// The Rust type of an element's value: its type's, named after the element when the type
    /// is anonymous (`within`: the item of the type that declares the element).
    fn element_type(
        &mut self,
        el: ElementId,
        local: &str,
        within: Option<ItemId>,
    ) -> Result<Ty, PlanError> {
        match self.schema.element(el).type_def {
            TypeId::Simple(st) => self.simple_type(st, Some((local, within))),
            TypeId::Complex(ComplexTypeId::ANY_TYPE) => Ok(Ty::Prim(Prim::AnyElement)),
            TypeId::Complex(ct) => {
                let item = self.complex_type(ct, Some((local, within)))?;
                let family = self.derived_types(el, ct);
                // The declared type alone, or an abstract one with nothing to stand for it
                // (its reader gives the error): no family. An abstract type with one derived
                // type is a family of one, read by `xsi:type`.
                if family.is_empty() || family == [ct] {
                    return Ok(Ty::Item(item));
                }
                Ok(Ty::Item(self.type_family(ct, family)?))
            }
        }
    }

    /// The named complex types an instance of element `el` may name with `xsi:type`: its
    /// declared type `ct` and those derived from it that its `block` and the type's allow,
    /// abstract ones left out, in the schema's order.
    fn derived_types(&mut self, el: ElementId, ct: ComplexTypeId) -> Vec<ComplexTypeId> {
        let schema = self.schema;
        let blocked = schema.element(el).block | schema.complex_type(ct).block;
        // Once per type and block: every element of the type would scan all types again.
        self.derived
            .entry((ct, blocked))
            .or_insert_with(|| {
                let base = TypeId::Complex(ct);
                schema
                    .complex_types()
                    .filter(|(id, t)| {
                        (*id == ct || t.name.is_some())
                            && !t.is_abstract
                            && schema.derives_from(TypeId::Complex(*id), base, blocked)
                    })
                    .map(|(id, _)| id)
                    .collect()
            })
            .clone()
    }

    /// The enum of the types in `family` (see [`Planner::derived_types`]): one variant per
    /// type, chosen by the instance's `xsi:type`.
    fn type_family(
        &mut self,
        base: ComplexTypeId,
        family: Vec<ComplexTypeId>,
    ) -> Result<ItemId, PlanError> {
        if let Some(&item) = self.families.get(&family) {
            return Ok(item);
        }
        let schema = self.schema;
        let base_item = self.complex_type(base, None)?;
        let name = format!("{}Family", self.items[base_item.0].name);
        let doc = vec![format!(
            "A value of type `{}` or of a type derived from it, as the element's `xsi:type` says.",
            self.items[base_item.0].name
        )];
        let item = self.reserve(&name, Origin::TypeFamily(base), doc);
        self.families.insert(family.clone(), item);
        let mut taken = names::Taken::default();
        let mut variants = Vec::new();
        for t in family {
            let t_item = self.complex_type(t, None)?;
            let (ns, local) = match schema.complex_type(t).name {
                Some(n) => (ns_of(schema, n), schema.names().local(n).to_string()),
                None => (String::new(), String::new()),
            };
            let source = Source::XsiType {
                ns,
                local,
                declared: t == base,
            };
            variants.push(Variant {
                name: taken.take(&self.items[t_item.0].name),
                source,
                ty: Ty::Item(t_item),
                occurs: Occurs::One,
                boxed: false,
                simple: None,
                value_constraint: None,
            });
        }
        self.items[item.0].kind = ItemKind::Choice { variants };
        Ok(item)
    }

    /// The name an anonymous component takes from the element that declares it: the
    /// element's, or the enclosing item's and the element's when that is taken.
    fn anonymous_name(&self, context: Option<(&str, Option<ItemId>)>, fallback: &str) -> String {
        let Some((local, within)) = context else {
            return fallback.to_string();
        };
        let own = names::type_name(local);
        if !self.names.is_taken(&own) {
            return own;
        }
        match within {
            Some(w) => format!("{}{}", self.items[w.0].name, own),
            None => own,
        }
    }
}

/// The documentation strings of an annotation, trimmed, empty ones left out; `otherwise`
/// when there are none, so that every generated item is documented.
fn docs(
    annotation: &xwire_schema::model::Annotation,
    otherwise: impl FnOnce() -> String,
) -> Vec<String> {
    let docs: Vec<String> = annotation
        .documentation
        .iter()
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .collect();
    if docs.is_empty() {
        vec![otherwise()]
    } else {
        docs
    }
}
