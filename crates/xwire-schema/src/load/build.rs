//! The components, built from their definitions with their effective properties. Top-level
//! components are allocated first (so references are ids); each is then completed on demand,
//! bases before derived types, with cycles reported.

use std::rc::Rc;

use super::document::XNode;
use super::documents::derivation_set;
use super::{idc_xpath, wildcard, Kind, Loader, Src, State};
use crate::datatypes::Builtin;
use crate::model::{
    Annotation, AttributeDecl, AttributeGroup, AttributeGroupId, AttributeId, AttributeUse,
    ComplexType, ComplexTypeId, Compositor, ContentType, Derivation, DerivationSet, ElementDecl,
    ElementId, Facets, IdentityConstraint, IdentityConstraintId, IdentityKind, Location, MaxOccurs,
    ModelGroup, ModelGroupId, NameId, NamespaceConstraint, NamespaceId, Notation, Particle,
    ProcessContents, SimpleType, SimpleTypeId, Term, TypeId, ValueConstraint, Variety, Wildcard,
    XSD_NAMESPACE,
};

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";

/// Unions that expand to more member types than this are refused (validation tries the
/// members in turn; nested shared unions would otherwise grow exponentially).
const MAX_UNION_LEAVES: usize = 1000;

/// Recursion guard for completing components (base chains, attribute groups, heads).
const MAX_NESTING: usize = 200;

/// The attributes of a complex type or attribute group as written.
pub(crate) struct AttrContent {
    pub uses: Vec<AttributeUse>,
    pub prohibited: Vec<NameId>,
    pub wildcard: Option<Wildcard>,
}

/// Where a particle appears (for `xs:all`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PCtx {
    /// The particle of a complex type.
    TypeTop,
    /// The compositor of a named group.
    GroupDef,
    /// Inside another model group.
    Nested,
}

/// The `xs:annotation` children of a component's element.
pub(crate) fn annotation(node: &XNode) -> Annotation {
    let mut a = Annotation::default();
    for ann in node.children.iter().filter(|c| c.is_xs("annotation")) {
        for c in &ann.children {
            if c.is_xs("documentation") {
                a.documentation.push(c.deep_text.clone());
            } else if c.is_xs("appinfo") {
                a.appinfo.push(c.deep_text.clone());
            }
        }
    }
    a
}

pub(crate) fn bool_attr(node: &XNode, name: &str) -> bool {
    matches!(node.attr(name).map(str::trim), Some("true" | "1"))
}

fn placeholder_simple(
    name: Option<NameId>,
    location: Option<Location>,
    annotation: Annotation,
) -> SimpleType {
    SimpleType {
        name,
        base: TypeId::Simple(SimpleTypeId::ANY_SIMPLE_TYPE),
        builtin: None,
        variety: Variety::Atomic(Builtin::AnySimpleType),
        facets: Facets::default(),
        final_: DerivationSet::EMPTY,
        location,
        annotation,
    }
}

fn placeholder_complex(
    name: Option<NameId>,
    location: Option<Location>,
    annotation: Annotation,
) -> ComplexType {
    ComplexType {
        name,
        base: TypeId::ANY_TYPE,
        derivation: Derivation::Restriction,
        is_abstract: false,
        final_: DerivationSet::EMPTY,
        block: DerivationSet::EMPTY,
        attribute_uses: Vec::new(),
        attribute_wildcard: None,
        content: ContentType::Empty,
        location,
        annotation,
    }
}

fn placeholder_element(
    name: NameId,
    global: bool,
    location: Option<Location>,
    annotation: Annotation,
) -> ElementDecl {
    ElementDecl {
        name,
        type_def: TypeId::ANY_TYPE,
        global,
        value_constraint: None,
        nillable: false,
        is_abstract: false,
        block: DerivationSet::EMPTY,
        final_: DerivationSet::EMPTY,
        substitution_group: None,
        identity_constraints: Vec::new(),
        location,
        annotation,
    }
}

/// `minOccurs` and `maxOccurs` (saturating; invalid values were reported by `s4s`).
fn occurs(node: &XNode) -> (u32, MaxOccurs) {
    let num = |v: &str| -> Option<u32> {
        let v = v.trim().trim_start_matches('+');
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(v.parse::<u32>().unwrap_or(u32::MAX))
    };
    let min = node.attr("minOccurs").and_then(num).unwrap_or(1);
    let max = match node.attr("maxOccurs").map(str::trim) {
        Some("unbounded") => MaxOccurs::Unbounded,
        Some(v) => match num(v) {
            Some(u32::MAX) => MaxOccurs::Unbounded,
            Some(n) => MaxOccurs::Bounded(n),
            None => MaxOccurs::Bounded(1),
        },
        None => MaxOccurs::Bounded(1),
    };
    (min, max)
}

impl Loader<'_> {
    /// Allocates every top-level component, so that references can be resolved to ids.
    pub(super) fn allocate(&mut self) {
        let mut ids = vec![u32::MAX; self.defs.len()];
        for i in 0..self.defs.len() {
            let def = self.defs[i].clone();
            let global = self.def_index.get(&(def.kind, def.name)) == Some(&i);
            let loc = self.loc(def.doc, &def.node);
            let ann = annotation(&def.node);
            let mut original = def.redefines.map(|o| ids[o]).filter(|&o| o != u32::MAX);
            if let Some(o) = def.redefines {
                if self.defs[o].node.local != def.node.local {
                    self.error(
                        "src-redefine",
                        def.doc,
                        &def.node,
                        format!(
                            "xs:{} redefines an xs:{}",
                            def.node.local, self.defs[o].node.local
                        ),
                    );
                    original = None;
                }
            }
            let src = Src {
                doc: def.doc,
                node: def.node.clone(),
                original,
            };
            match def.kind {
                Kind::Type if def.node.local == "simpleType" => {
                    let id = SimpleTypeId::from_index(self.s.simple_types.len());
                    self.s
                        .simple_types
                        .push(placeholder_simple(Some(def.name), loc, ann));
                    self.simple_src.insert(id, src);
                    if global {
                        self.s.global_types.insert(def.name, TypeId::Simple(id));
                    }
                    ids[i] = id.0;
                }
                Kind::Type => {
                    let id = ComplexTypeId::from_index(self.s.complex_types.len());
                    self.s
                        .complex_types
                        .push(placeholder_complex(Some(def.name), loc, ann));
                    self.complex_src.insert(id, src);
                    if global {
                        self.s.global_types.insert(def.name, TypeId::Complex(id));
                    }
                    ids[i] = id.0;
                }
                Kind::Element => {
                    let id = ElementId::from_index(self.s.elements.len());
                    self.s
                        .elements
                        .push(placeholder_element(def.name, true, loc, ann));
                    self.element_src.insert(id, src);
                    if global {
                        self.s.global_elements.insert(def.name, id);
                    }
                    ids[i] = id.0;
                }
                Kind::Attribute => {
                    let id = AttributeId::from_index(self.s.attributes.len());
                    self.s.attributes.push(AttributeDecl {
                        name: def.name,
                        type_def: SimpleTypeId::ANY_SIMPLE_TYPE,
                        global: true,
                        value_constraint: None,
                        location: loc,
                        annotation: ann,
                    });
                    self.attribute_src.insert(id, src);
                    if global {
                        self.s.global_attributes.insert(def.name, id);
                    }
                    ids[i] = id.0;
                }
                Kind::Group => {
                    let id = ModelGroupId::from_index(self.s.model_groups.len());
                    self.s.model_groups.push(ModelGroup {
                        name: Some(def.name),
                        compositor: Compositor::Sequence,
                        particles: Vec::new(),
                        location: loc,
                        annotation: ann,
                    });
                    self.group_src.insert(id, src);
                    if global {
                        self.s.global_groups.insert(def.name, id);
                    }
                    ids[i] = id.0;
                }
                Kind::AttributeGroup => {
                    let id = AttributeGroupId::from_index(self.s.attribute_groups.len());
                    self.s.attribute_groups.push(AttributeGroup {
                        name: def.name,
                        attribute_uses: Vec::new(),
                        attribute_wildcard: None,
                        location: loc,
                        annotation: ann,
                    });
                    self.agroup_src.insert(id, src);
                    if global {
                        self.s.global_attribute_groups.insert(def.name, id);
                    }
                    ids[i] = id.0;
                }
                Kind::Notation => {
                    let id = crate::model::NotationId::from_index(self.s.notations.len());
                    self.s.notations.push(Notation {
                        name: def.name,
                        public: def.node.attr("public").map(str::to_string),
                        system: def.node.attr("system").map(str::to_string),
                        location: loc,
                        annotation: ann,
                    });
                    if global {
                        self.s.global_notations.insert(def.name, id);
                    }
                    ids[i] = id.0;
                }
            }
        }
    }

    /// Builds every component.
    pub(super) fn complete_all(&mut self) {
        let mut simple: Vec<_> = self.simple_src.keys().copied().collect();
        simple.sort();
        for id in simple {
            self.ensure_type(TypeId::Simple(id));
        }
        let mut complex: Vec<_> = self.complex_src.keys().copied().collect();
        complex.sort();
        for id in complex {
            self.ensure_type(TypeId::Complex(id));
        }
        let mut groups: Vec<_> = self.agroup_src.keys().copied().collect();
        groups.sort();
        for id in groups {
            self.ensure_agroup(id);
        }
        let mut groups: Vec<_> = self.group_src.keys().copied().collect();
        groups.sort();
        for id in groups {
            self.build_group(id);
        }
        let mut elements: Vec<_> = self.element_src.keys().copied().collect();
        elements.sort();
        for id in elements {
            self.ensure_element(id);
        }
        let mut attributes: Vec<_> = self.attribute_src.keys().copied().collect();
        attributes.sort();
        for id in attributes {
            if let Some(src) = self.attribute_src.get(&id).cloned() {
                self.build_global_attribute(id, &src);
            }
        }
        // Anonymous types found while building the above.
        loop {
            let mut pending: Vec<TypeId> = self
                .simple_src
                .keys()
                .map(|&i| TypeId::Simple(i))
                .chain(self.complex_src.keys().map(|&i| TypeId::Complex(i)))
                .filter(|t| !self.type_state.contains_key(t))
                .collect();
            if pending.is_empty() {
                break;
            }
            pending.sort_by_key(|t| match t {
                TypeId::Simple(s) => (0, s.0),
                TypeId::Complex(c) => (1, c.0),
            });
            for t in pending {
                self.ensure_type(t);
            }
        }
    }

    // ---- names -------------------------------------------------------------------------

    /// Resolves a QName written in document `d` at `node`.
    pub(crate) fn qname(&mut self, d: usize, node: &XNode, value: &str) -> Option<NameId> {
        let v = value.trim();
        let (prefix, local) = v.split_once(':').unwrap_or(("", v));
        let uri = match node.resolve_prefix(prefix) {
            Some(u) => u.to_string(),
            None if prefix.is_empty() => String::new(),
            None => {
                self.error(
                    "src-resolve",
                    d,
                    node,
                    format!("the prefix '{prefix}' of '{v}' is not declared"),
                );
                return None;
            }
        };
        let mut ns = self.s.names.namespace(&uri);
        if ns == NamespaceId::ABSENT && self.docs[d].chameleon {
            ns = self.docs[d].tns;
        }
        Some(self.s.names.name(ns, local))
    }

    /// Whether document `d` may refer to components in namespace `ns` (src-resolve.4).
    pub(crate) fn visible(&mut self, d: usize, node: &XNode, name: NameId) -> bool {
        let ns = self.s.names.ns(name);
        let doc = &self.docs[d];
        let uri = self.s.names.namespace_uri(ns);
        if ns == doc.tns
            || doc.imports.contains(&ns)
            || uri == XSD_NAMESPACE
            || uri == XML_NAMESPACE
        {
            return true;
        }
        let shown = self.s.display_name(name);
        let uri = self.s.names.namespace_uri(ns).to_string();
        self.error(
            "src-resolve",
            d,
            node,
            format!("'{shown}' is in namespace '{uri}', which this document does not import"),
        );
        false
    }

    /// `xml:lang`, `xml:space`, `xml:base` and `xml:id`, declared on first use when no
    /// document of the XML namespace was loaded (its usual location is on the network).
    fn xml_attribute(&mut self, name: NameId) -> Option<AttributeId> {
        if self.s.names.namespace_uri(self.s.names.ns(name)) != XML_NAMESPACE {
            return None;
        }
        let ty = match self.s.names.local(name) {
            "lang" => Builtin::Language,
            "space" => Builtin::NcName,
            "base" => Builtin::AnyUri,
            "id" => Builtin::Id,
            _ => return None,
        };
        let id = AttributeId::from_index(self.s.attributes.len());
        self.s.attributes.push(AttributeDecl {
            name,
            type_def: SimpleTypeId::builtin(ty),
            global: true,
            value_constraint: None,
            location: None,
            annotation: Annotation::default(),
        });
        self.s.global_attributes.insert(name, id);
        Some(id)
    }

    fn not_found(&mut self, d: usize, node: &XNode, what: &str, name: NameId) {
        let shown = self.s.display_name(name);
        self.error(
            "src-resolve",
            d,
            node,
            format!("there is no {what} named '{shown}'"),
        );
    }

    pub(crate) fn resolve_type(&mut self, d: usize, node: &XNode, value: &str) -> Option<TypeId> {
        let name = self.qname(d, node, value)?;
        if !self.visible(d, node, name) {
            return None;
        }
        let t = self.s.global_types.get(&name).copied();
        if t.is_none() {
            self.not_found(d, node, "type definition", name);
        }
        t
    }

    fn resolve_element(&mut self, d: usize, node: &XNode, value: &str) -> Option<ElementId> {
        let name = self.qname(d, node, value)?;
        if !self.visible(d, node, name) {
            return None;
        }
        let t = self.s.global_elements.get(&name).copied();
        if t.is_none() {
            self.not_found(d, node, "element declaration", name);
        }
        t
    }

    fn resolve_attribute(&mut self, d: usize, node: &XNode, value: &str) -> Option<AttributeId> {
        let name = self.qname(d, node, value)?;
        if !self.visible(d, node, name) {
            return None;
        }
        let mut t = self.s.global_attributes.get(&name).copied();
        if t.is_none() {
            t = self.xml_attribute(name);
        }
        if t.is_none() {
            self.not_found(d, node, "attribute declaration", name);
        }
        t
    }

    // ---- types -------------------------------------------------------------------------

    /// Builds a type definition if it is not built yet; `false` if it is being built (a
    /// circular definition) or too deep.
    pub(crate) fn ensure_type(&mut self, t: TypeId) -> bool {
        match self.type_state.get(&t) {
            Some(State::Done) => return true,
            Some(State::InProgress) => return false,
            None => {}
        }
        let src = match t {
            TypeId::Simple(id) => self.simple_src.get(&id).cloned(),
            TypeId::Complex(id) => self.complex_src.get(&id).cloned(),
        };
        let Some(src) = src else { return true };
        if self.depth > MAX_NESTING {
            self.error(
                "schema-document",
                src.doc,
                &src.node,
                "type definitions nested or derived too deeply".into(),
            );
            // Not circular: the error is reported; the type stays as allocated.
            self.type_state.insert(t, State::Done);
            return true;
        }
        self.type_state.insert(t, State::InProgress);
        self.depth += 1;
        match t {
            TypeId::Simple(id) => self.build_simple(id, &src),
            TypeId::Complex(id) => self.build_complex(id, &src),
        }
        self.depth -= 1;
        self.type_state.insert(t, State::Done);
        true
    }

    /// An anonymous simple type defined by `node`, built later.
    pub(crate) fn anon_simple(&mut self, d: usize, node: &Rc<XNode>) -> SimpleTypeId {
        let id = SimpleTypeId::from_index(self.s.simple_types.len());
        let loc = self.loc(d, node);
        self.s
            .simple_types
            .push(placeholder_simple(None, loc, annotation(node)));
        self.simple_src.insert(
            id,
            Src {
                doc: d,
                node: node.clone(),
                original: None,
            },
        );
        id
    }

    fn anon_complex(&mut self, d: usize, node: &Rc<XNode>) -> ComplexTypeId {
        let id = ComplexTypeId::from_index(self.s.complex_types.len());
        let loc = self.loc(d, node);
        self.s
            .complex_types
            .push(placeholder_complex(None, loc, annotation(node)));
        self.complex_src.insert(
            id,
            Src {
                doc: d,
                node: node.clone(),
                original: None,
            },
        );
        id
    }

    /// Resolves the `base` of a derivation, honoring redefinition (the base named like the
    /// redefined type is the original).
    fn base_of(&mut self, d: usize, node: &XNode, src: &Src, is_simple: bool) -> Option<TypeId> {
        let b = node.attr("base")?;
        if let Some(orig) = src.original {
            let own = src
                .node
                .attr("name")
                .map(|n| self.s.names.name(self.docs[d].tns, n.trim()));
            let named = self.qname(d, node, b);
            if named.is_some() && named == own {
                return Some(if is_simple {
                    TypeId::Simple(SimpleTypeId(orig))
                } else {
                    TypeId::Complex(ComplexTypeId(orig))
                });
            }
            self.error(
                "src-redefine",
                d,
                node,
                "a type redefinition must derive from the type it redefines".into(),
            );
        }
        self.resolve_type(d, node, b)
    }

    fn build_simple(&mut self, id: SimpleTypeId, src: &Src) {
        let node = src.node.clone();
        let d = src.doc;
        let all = DerivationSet::RESTRICTION | DerivationSet::LIST | DerivationSet::UNION;
        let final_ = derivation_set(node.attr("final"), all)
            .unwrap_or(self.docs[d].final_default.intersection(all));
        self.s.simple_types[id.index()].final_ = final_;
        let Some(child) = node.xs_children().next().cloned() else {
            return;
        };
        if src.original.is_some() && (child.local != "restriction" || child.attr("base").is_none())
        {
            self.error(
                "src-redefine",
                d,
                &child,
                "a type redefinition must restrict the type it redefines".into(),
            );
        }
        match child.local.as_str() {
            "restriction" => {
                let base = self.base_of(d, &child, src, true);
                let inline = child
                    .xs_children()
                    .find(|c| c.local == "simpleType")
                    .cloned();
                let base = match (base, inline) {
                    (Some(_), Some(_)) => {
                        self.error(
                            "src-simple-type",
                            d,
                            &child,
                            "a restriction has both a base attribute and a simpleType child".into(),
                        );
                        None
                    }
                    (None, None) if child.attr("base").is_none() => {
                        self.error(
                            "src-simple-type",
                            d,
                            &child,
                            "a restriction needs a base attribute or a simpleType child".into(),
                        );
                        None
                    }
                    (Some(TypeId::Complex(_)), _) => {
                        self.error(
                            "st-props-correct",
                            d,
                            &child,
                            "the base of a simple type must be a simple type".into(),
                        );
                        None
                    }
                    (Some(TypeId::Simple(b)), None) if b == SimpleTypeId::ANY_SIMPLE_TYPE => {
                        self.error(
                            "st-props-correct",
                            d,
                            &child,
                            "anySimpleType cannot be the base of a restriction".into(),
                        );
                        Some(b)
                    }
                    (Some(TypeId::Simple(b)), None) => Some(b),
                    (None, Some(st)) => Some(self.anon_simple(d, &st)),
                    _ => None,
                };
                let base = base.unwrap_or(SimpleTypeId::ANY_SIMPLE_TYPE);
                self.restrict_simple(id, base, d, &child);
            }
            "list" => {
                let inline = child
                    .xs_children()
                    .find(|c| c.local == "simpleType")
                    .cloned();
                let item = match (child.attr("itemType"), inline) {
                    (Some(_), Some(_)) | (None, None) => {
                        self.error("src-list-itemType-or-simpleType", d, &child, "a list needs exactly one of an itemType attribute and a simpleType child".into());
                        None
                    }
                    (Some(t), None) => match self.resolve_type(d, &child, t) {
                        Some(TypeId::Simple(s)) => Some(s),
                        Some(TypeId::Complex(_)) => {
                            self.error(
                                "cos-st-restricts",
                                d,
                                &child,
                                "the item type of a list must be a simple type".into(),
                            );
                            None
                        }
                        None => None,
                    },
                    (None, Some(st)) => Some(self.anon_simple(d, &st)),
                };
                let item = item.unwrap_or(SimpleTypeId::ANY_SIMPLE_TYPE);
                if !self.ensure_type(TypeId::Simple(item)) {
                    self.error(
                        "st-props-correct",
                        d,
                        &child,
                        "circular simple type definition".into(),
                    );
                } else {
                    if self.contains_list(item, 0) {
                        self.error("cos-st-restricts", d, &child, "the item type of a list may not be a list (or a union with a list member)".into());
                    }
                    if self
                        .s
                        .simple_type(item)
                        .final_
                        .contains(DerivationSet::LIST)
                    {
                        self.error(
                            "cos-st-restricts",
                            d,
                            &child,
                            "the item type is final for list".into(),
                        );
                    }
                }
                let st = &mut self.s.simple_types[id.index()];
                st.variety = Variety::List(item);
                st.base = TypeId::Simple(SimpleTypeId::ANY_SIMPLE_TYPE);
            }
            "union" => {
                let mut members = Vec::new();
                if let Some(list) = child.attr("memberTypes") {
                    for q in list.split_whitespace() {
                        match self.resolve_type(d, &child, q) {
                            Some(TypeId::Simple(s)) => members.push(s),
                            Some(TypeId::Complex(_)) => {
                                self.error(
                                    "cos-st-restricts",
                                    d,
                                    &child,
                                    format!("member type '{q}' is not a simple type"),
                                );
                            }
                            None => {}
                        }
                    }
                }
                let inline: Vec<Rc<XNode>> = child
                    .xs_children()
                    .filter(|c| c.local == "simpleType")
                    .cloned()
                    .collect();
                for st in inline {
                    members.push(self.anon_simple(d, &st));
                }
                if members.is_empty()
                    && child
                        .attr("memberTypes")
                        .map_or(true, |m| m.trim().is_empty())
                {
                    self.error(
                        "src-union-memberTypes-or-simpleTypes",
                        d,
                        &child,
                        "a union needs member types".into(),
                    );
                }
                let mut kept = Vec::new();
                for m in members {
                    if !self.ensure_type(TypeId::Simple(m)) {
                        self.error(
                            "st-props-correct",
                            d,
                            &child,
                            "circular simple type definition".into(),
                        );
                        continue;
                    }
                    if self.s.simple_type(m).final_.contains(DerivationSet::UNION) {
                        self.error(
                            "cos-st-restricts",
                            d,
                            &child,
                            "a member type is final for union".into(),
                        );
                    }
                    kept.push(m);
                }
                let leaves: usize = kept.iter().map(|&m| self.union_leaves(m, 0)).sum();
                if leaves > MAX_UNION_LEAVES {
                    self.error(
                        "schema-document",
                        d,
                        &child,
                        format!("the union has too many member types once nested unions are expanded ({leaves})"),
                    );
                    kept.clear();
                }
                let st = &mut self.s.simple_types[id.index()];
                st.variety = Variety::Union(kept);
                st.base = TypeId::Simple(SimpleTypeId::ANY_SIMPLE_TYPE);
            }
            _ => {}
        }
    }

    /// How many types a simple type expands to, itself and the members of unions counted
    /// out (saturating past the limit): what validation may visit.
    fn union_leaves(&self, t: SimpleTypeId, depth: usize) -> usize {
        match &self.s.simple_type(t).variety {
            Variety::Union(ms) if depth < 64 => {
                let mut total = 1usize;
                for &m in ms {
                    total += self.union_leaves(m, depth + 1);
                    if total > MAX_UNION_LEAVES {
                        return MAX_UNION_LEAVES + 1;
                    }
                }
                total
            }
            Variety::Union(_) => MAX_UNION_LEAVES + 1,
            _ => 1,
        }
    }

    /// Whether a simple type is a list or a union with a list member.
    pub(crate) fn contains_list(&self, t: SimpleTypeId, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        match &self.s.simple_type(t).variety {
            Variety::List(_) => true,
            Variety::Atomic(b) => b.is_list(),
            Variety::Union(ms) => ms.iter().any(|&m| self.contains_list(m, depth + 1)),
        }
    }

    fn build_complex(&mut self, id: ComplexTypeId, src: &Src) {
        let node = src.node.clone();
        let d = src.doc;
        let er = DerivationSet::EXTENSION | DerivationSet::RESTRICTION;
        let final_ = derivation_set(node.attr("final"), er)
            .unwrap_or(self.docs[d].final_default.intersection(er));
        let block = derivation_set(node.attr("block"), er)
            .unwrap_or(self.docs[d].block_default.intersection(er));
        {
            let ct = &mut self.s.complex_types[id.index()];
            ct.is_abstract = bool_attr(&node, "abstract");
            ct.final_ = final_;
            ct.block = block;
        }
        let content_node = node
            .xs_children()
            .find(|c| c.local == "simpleContent" || c.local == "complexContent")
            .cloned();
        if src.original.is_some() && content_node.is_none() {
            self.error(
                "src-redefine",
                d,
                &node,
                "a type redefinition must derive from the type it redefines".into(),
            );
        }
        let Some(cn) = content_node else {
            // Shorthand: a restriction of anyType.
            let mixed = bool_attr(&node, "mixed");
            let particle = self.explicit_content(d, &node);
            let attrs = self.attr_content(d, &node, "ct-props-correct");
            let content = self.content_from(particle, mixed);
            let ct = &mut self.s.complex_types[id.index()];
            ct.base = TypeId::ANY_TYPE;
            ct.derivation = Derivation::Restriction;
            ct.attribute_uses = attrs.uses;
            ct.attribute_wildcard = attrs.wildcard;
            ct.content = content;
            return;
        };
        let Some(der) = cn
            .xs_children()
            .find(|c| c.local == "restriction" || c.local == "extension")
            .cloned()
        else {
            return;
        };
        let extension = der.local == "extension";
        let method = if extension {
            DerivationSet::EXTENSION
        } else {
            DerivationSet::RESTRICTION
        };
        let mut base = self
            .base_of(d, &der, src, false)
            .unwrap_or(TypeId::ANY_TYPE);
        if !self.ensure_type(base) {
            self.error(
                "ct-props-correct",
                d,
                &der,
                "circular type derivation".into(),
            );
            base = TypeId::ANY_TYPE;
        }
        let attrs = self.attr_content(d, &der, "ct-props-correct");
        let (base_uses, base_wildcard, base_content, base_final) = match base {
            TypeId::Complex(b) => {
                let bt = self.s.complex_type(b);
                (
                    bt.attribute_uses.clone(),
                    bt.attribute_wildcard.clone(),
                    Some(bt.content.clone()),
                    bt.final_,
                )
            }
            TypeId::Simple(s) => (Vec::new(), None, None, self.s.simple_type(s).final_),
        };
        if base_final.contains(method) {
            let c = if extension {
                "cos-ct-extends"
            } else {
                "derivation-ok-restriction"
            };
            self.error(
                c,
                d,
                &der,
                format!("the base type is final for {}", der.local),
            );
        }
        let simple = cn.local == "simpleContent";
        let content;
        if simple {
            if extension {
                content = match (&base, &base_content) {
                    (TypeId::Simple(s), _) => ContentType::Simple(*s),
                    (_, Some(ContentType::Simple(s))) => ContentType::Simple(*s),
                    _ => {
                        self.error("src-ct", d, &der, "the base of a simpleContent extension must be a simple type or a complex type with simple content".into());
                        ContentType::Simple(SimpleTypeId::ANY_SIMPLE_TYPE)
                    }
                };
            } else {
                let inline = der.xs_children().find(|c| c.local == "simpleType").cloned();
                let facet_base = match (&base, &base_content) {
                    (TypeId::Complex(_), Some(ContentType::Simple(s))) => Some(*s),
                    (
                        TypeId::Complex(_),
                        Some(ContentType::Elements {
                            particle,
                            mixed: true,
                        }),
                    ) if self.emptiable(particle, 0) => {
                        if inline.is_none() {
                            self.error("src-ct", d, &der, "restricting a mixed type to simple content needs a simpleType child".into());
                        }
                        Some(SimpleTypeId::ANY_SIMPLE_TYPE)
                    }
                    _ => {
                        self.error("src-ct", d, &der, "the base of a simpleContent restriction must be a complex type with simple content".into());
                        None
                    }
                };
                let facet_base = facet_base.unwrap_or(SimpleTypeId::ANY_SIMPLE_TYPE);
                let st_base = match inline {
                    Some(st) => {
                        let t = self.anon_simple(d, &st);
                        self.ensure_type(TypeId::Simple(t));
                        if !self.s.derives_from(
                            TypeId::Simple(t),
                            TypeId::Simple(facet_base),
                            DerivationSet::EMPTY,
                        ) {
                            self.error(
                                "derivation-ok-restriction",
                                d,
                                &st,
                                "the simple type must derive from the base's content type".into(),
                            );
                        }
                        t
                    }
                    None => facet_base,
                };
                let new = SimpleTypeId::from_index(self.s.simple_types.len());
                let loc = self.loc(d, &der);
                self.s
                    .simple_types
                    .push(placeholder_simple(None, loc, Annotation::default()));
                self.type_state.insert(TypeId::Simple(new), State::Done);
                self.restrict_simple(new, st_base, d, &der);
                content = ContentType::Simple(new);
            }
        } else {
            if let TypeId::Simple(_) = base {
                self.error(
                    "src-ct",
                    d,
                    &der,
                    "the base of complexContent must be a complex type".into(),
                );
            }
            let mixed = cn
                .attr("mixed")
                .map_or_else(|| bool_attr(&node, "mixed"), |_| bool_attr(&cn, "mixed"));
            let own = self.explicit_content(d, &der);
            if extension {
                let explicit_mixed = cn.attr("mixed").is_some() || node.attr("mixed").is_some();
                content = match (base_content, own) {
                    (
                        Some(ContentType::Elements {
                            particle,
                            mixed: false,
                        }),
                        None,
                    ) if mixed && explicit_mixed && base != TypeId::ANY_TYPE => {
                        self.error(
                            "cos-ct-extends",
                            d,
                            &der,
                            "an extension must be mixed if and only if its base is".into(),
                        );
                        ContentType::Elements {
                            particle,
                            mixed: false,
                        }
                    }
                    (Some(bc), None) => bc,
                    (None, own) | (Some(ContentType::Empty), own) => self.content_from(own, mixed),
                    (Some(ContentType::Simple(_)), own) => {
                        self.error(
                            "cos-ct-extends",
                            d,
                            &der,
                            "a type with simple content cannot be extended with complex content"
                                .into(),
                        );
                        self.content_from(own, mixed)
                    }
                    (
                        Some(ContentType::Elements {
                            particle,
                            mixed: bmixed,
                        }),
                        Some(p),
                    ) => {
                        if bmixed != mixed && base != TypeId::ANY_TYPE {
                            self.error(
                                "cos-ct-extends",
                                d,
                                &der,
                                "an extension must be mixed if and only if its base is".into(),
                            );
                        }
                        if self.is_all(&particle) || self.is_all(&p) {
                            self.error(
                                "cos-all-limited",
                                d,
                                &der,
                                "an all group cannot be extended with more content".into(),
                            );
                        }
                        let g = ModelGroupId::from_index(self.s.model_groups.len());
                        let loc = self.loc(d, &der);
                        self.s.model_groups.push(ModelGroup {
                            name: None,
                            compositor: Compositor::Sequence,
                            particles: vec![particle, p],
                            location: loc,
                            annotation: Annotation::default(),
                        });
                        ContentType::Elements {
                            particle: Particle {
                                min_occurs: 1,
                                max_occurs: MaxOccurs::Bounded(1),
                                term: Term::Group(g),
                                location: loc,
                            },
                            mixed,
                        }
                    }
                };
            } else {
                content = self.content_from(own, mixed);
            }
        }
        let (uses, wildcard) = if extension {
            let mut uses = base_uses;
            for u in attrs.uses {
                let name = self.s.attribute(u.decl).name;
                if uses.iter().any(|b| self.s.attribute(b.decl).name == name) {
                    let shown = self.s.display_name(name);
                    self.error(
                        "ct-props-correct",
                        d,
                        &der,
                        format!("attribute '{shown}' is already declared in the base type"),
                    );
                } else {
                    uses.push(u);
                }
            }
            let wildcard = match (attrs.wildcard, base_wildcard) {
                (Some(own), Some(b)) => match wildcard::union(&own, &b) {
                    Some(w) => Some(w),
                    None => {
                        self.error(
                            "cos-aw-union",
                            d,
                            &der,
                            "the union of the attribute wildcards is not expressible".into(),
                        );
                        Some(own)
                    }
                },
                (a, b) => a.or(b),
            };
            (uses, wildcard)
        } else {
            let mut uses: Vec<AttributeUse> = Vec::new();
            for b in base_uses {
                let name = self.s.attribute(b.decl).name;
                if attrs.prohibited.contains(&name)
                    || attrs
                        .uses
                        .iter()
                        .any(|u| self.s.attribute(u.decl).name == name)
                {
                    continue;
                }
                uses.push(b);
            }
            uses.extend(attrs.uses);
            self.restrictions.push((id, d, der.clone()));
            (uses, attrs.wildcard)
        };
        let ct = &mut self.s.complex_types[id.index()];
        ct.base = base;
        ct.derivation = if extension {
            Derivation::Extension
        } else {
            Derivation::Restriction
        };
        ct.attribute_uses = uses;
        ct.attribute_wildcard = wildcard;
        ct.content = content;
    }

    fn content_from(&mut self, particle: Option<Particle>, mixed: bool) -> ContentType {
        match particle {
            Some(p) => ContentType::Elements { particle: p, mixed },
            None if mixed => {
                let g = ModelGroupId::from_index(self.s.model_groups.len());
                self.s.model_groups.push(ModelGroup {
                    name: None,
                    compositor: Compositor::Sequence,
                    particles: Vec::new(),
                    location: None,
                    annotation: Annotation::default(),
                });
                ContentType::Elements {
                    particle: Particle {
                        min_occurs: 1,
                        max_occurs: MaxOccurs::Bounded(1),
                        term: Term::Group(g),
                        location: None,
                    },
                    mixed: true,
                }
            }
            None => ContentType::Empty,
        }
    }

    /// Whether a particle's term is an `all` group.
    pub(crate) fn is_all(&self, p: &Particle) -> bool {
        match p.term {
            Term::Group(g) => self.group_compositor(g) == Compositor::All,
            _ => false,
        }
    }

    /// The compositor of a model group, named groups read from their definition (they may not
    /// be built yet).
    fn group_compositor(&self, g: ModelGroupId) -> Compositor {
        if let Some(src) = self.group_src.get(&g) {
            match src.node.xs_children().next().map(|c| c.local.as_str()) {
                Some("all") => Compositor::All,
                Some("choice") => Compositor::Choice,
                _ => Compositor::Sequence,
            }
        } else {
            self.s.model_group(g).compositor
        }
    }

    /// Whether a particle can match nothing.
    pub(crate) fn emptiable(&self, p: &Particle, depth: usize) -> bool {
        let mut memo = std::collections::HashMap::new();
        self.emptiable_in(p, depth, &mut memo)
    }

    /// `emptiable` with each group's answer kept (shared groups are visited once; a group
    /// met again while being visited counts as not emptiable).
    fn emptiable_in(
        &self,
        p: &Particle,
        depth: usize,
        memo: &mut std::collections::HashMap<ModelGroupId, bool>,
    ) -> bool {
        if p.min_occurs == 0 {
            return true;
        }
        if depth > MAX_NESTING {
            return true;
        }
        match &p.term {
            Term::Element(_) | Term::Wildcard(_) => false,
            Term::Group(g) => {
                if let Some(&v) = memo.get(g) {
                    return v;
                }
                memo.insert(*g, false);
                let mg = self.s.model_group(*g);
                let v = match mg.compositor {
                    Compositor::Choice => {
                        mg.particles.is_empty()
                            || mg
                                .particles
                                .iter()
                                .any(|q| self.emptiable_in(q, depth + 1, memo))
                    }
                    _ => mg
                        .particles
                        .iter()
                        .all(|q| self.emptiable_in(q, depth + 1, memo)),
                };
                memo.insert(*g, v);
                v
            }
        }
    }

    /// The content particle of a complex type or derivation, `None` when the content is
    /// empty (section 3.4.2).
    fn explicit_content(&mut self, d: usize, container: &XNode) -> Option<Particle> {
        let pnode = container
            .xs_children()
            .find(|c| matches!(c.local.as_str(), "group" | "all" | "choice" | "sequence"))
            .cloned()?;
        let p = self.particle(d, &pnode, PCtx::TypeTop)?;
        if let Term::Group(g) = p.term {
            let empty = match self.group_src.get(&g) {
                Some(src) => {
                    let c = src.node.xs_children().next();
                    c.map_or(true, |c| {
                        c.xs_children().next().is_none()
                            && (c.local != "choice" || p.min_occurs == 0)
                    })
                }
                None => {
                    let mg = self.s.model_group(g);
                    mg.particles.is_empty()
                        && (mg.compositor != Compositor::Choice || p.min_occurs == 0)
                }
            };
            if empty {
                return None;
            }
        }
        Some(p)
    }

    /// A particle; `None` for `maxOccurs="0"` and for what cannot be built.
    pub(crate) fn particle(&mut self, d: usize, node: &Rc<XNode>, ctx: PCtx) -> Option<Particle> {
        let (min, max) = if ctx == PCtx::GroupDef {
            (1, MaxOccurs::Bounded(1))
        } else {
            occurs(node)
        };
        if let MaxOccurs::Bounded(m) = max {
            if min > m {
                self.error(
                    "p-props-correct",
                    d,
                    node,
                    format!("minOccurs ({min}) is greater than maxOccurs ({m})"),
                );
            }
            if m == 0 {
                return None;
            }
        }
        let loc = self.loc(d, node);
        let term = match node.local.as_str() {
            "element" => Term::Element(self.local_element(d, node)?),
            "any" => Term::Wildcard(self.wildcard(d, node)),
            "group" => {
                let r = node.attr("ref")?;
                let name = self.qname(d, node, r)?;
                let g = match self.redef_group {
                    Some((n, orig, ref mut count)) if n == name => {
                        *count += 1;
                        if min != 1 || max != MaxOccurs::Bounded(1) {
                            self.error("src-redefine", d, node, "the reference to the redefined group must have minOccurs and maxOccurs 1".into());
                        }
                        Some(orig)
                    }
                    _ => {
                        if !self.visible(d, node, name) {
                            return None;
                        }
                        let g = self.s.global_groups.get(&name).copied();
                        if g.is_none() {
                            self.not_found(d, node, "model group definition", name);
                        }
                        g
                    }
                }?;
                if self.group_compositor(g) == Compositor::All
                    && (ctx != PCtx::TypeTop || min > 1 || max != MaxOccurs::Bounded(1))
                {
                    self.error("cos-all-limited", d, node, "a group with an all compositor must be the whole content of a type, with maxOccurs 1".into());
                }
                Term::Group(g)
            }
            "sequence" | "choice" | "all" => {
                let compositor = match node.local.as_str() {
                    "sequence" => Compositor::Sequence,
                    "choice" => Compositor::Choice,
                    _ => Compositor::All,
                };
                if compositor == Compositor::All {
                    if ctx == PCtx::Nested {
                        self.error(
                            "cos-all-limited",
                            d,
                            node,
                            "an all group must be the whole content of a type or group".into(),
                        );
                    }
                    if min > 1 || max != MaxOccurs::Bounded(1) {
                        self.error(
                            "cos-all-limited",
                            d,
                            node,
                            "an all group must have maxOccurs 1 and minOccurs 0 or 1".into(),
                        );
                    }
                }
                let particles = self.particles_of(d, node, compositor);
                let g = ModelGroupId::from_index(self.s.model_groups.len());
                self.s.model_groups.push(ModelGroup {
                    name: None,
                    compositor,
                    particles,
                    location: loc,
                    annotation: annotation(node),
                });
                Term::Group(g)
            }
            _ => return None,
        };
        Some(Particle {
            min_occurs: min,
            max_occurs: max,
            term,
            location: loc,
        })
    }

    fn particles_of(&mut self, d: usize, node: &XNode, compositor: Compositor) -> Vec<Particle> {
        let children: Vec<Rc<XNode>> = node.xs_children().cloned().collect();
        let mut particles = Vec::new();
        for c in children {
            if compositor == Compositor::All {
                if c.local != "element" {
                    continue;
                }
                if let (_, MaxOccurs::Unbounded) | (_, MaxOccurs::Bounded(2..)) = occurs(&c) {
                    self.error(
                        "cos-all-limited",
                        d,
                        &c,
                        "an element in an all group must have maxOccurs 0 or 1".into(),
                    );
                }
            }
            if let Some(p) = self.particle(d, &c, PCtx::Nested) {
                particles.push(p);
            }
        }
        particles
    }

    /// Builds a named model group.
    fn build_group(&mut self, id: ModelGroupId) {
        if self.group_state.contains_key(&id) {
            return;
        }
        self.group_state.insert(id, State::Done);
        let Some(src) = self.group_src.get(&id).cloned() else {
            return;
        };
        let d = src.doc;
        let Some(comp) = src.node.xs_children().next().cloned() else {
            return;
        };
        let compositor = match comp.local.as_str() {
            "all" => Compositor::All,
            "choice" => Compositor::Choice,
            _ => Compositor::Sequence,
        };
        let saved = self.redef_group.take();
        if let Some(orig) = src.original {
            let name = self.s.model_group(id).name;
            if let Some(n) = name {
                self.redef_group = Some((n, ModelGroupId(orig), 0));
            }
        }
        let particles = self.particles_of(d, &comp, compositor);
        if let Some((_, _, count)) = self.redef_group {
            if count > 1 {
                self.error(
                    "src-redefine",
                    d,
                    &src.node,
                    "a group redefinition may refer to the group it redefines only once".into(),
                );
            }
            if count == 0 && src.original.is_some() {
                self.pending_group_restrictions.push((
                    id,
                    ModelGroupId(src.original.unwrap_or(0)),
                    d,
                    src.node.clone(),
                ));
            }
        }
        self.redef_group = saved;
        let mg = &mut self.s.model_groups[id.index()];
        mg.compositor = compositor;
        mg.particles = particles;
    }

    // ---- elements ----------------------------------------------------------------------

    /// Builds a global element declaration if not built; `false` if it is being built.
    pub(crate) fn ensure_element(&mut self, id: ElementId) -> bool {
        match self.element_state.get(&id) {
            Some(State::Done) => return true,
            Some(State::InProgress) => return false,
            None => {}
        }
        let Some(src) = self.element_src.get(&id).cloned() else {
            return true;
        };
        if self.depth > MAX_NESTING {
            self.error(
                "schema-document",
                src.doc,
                &src.node,
                "substitution groups nested too deeply".into(),
            );
            self.element_state.insert(id, State::Done);
            return true;
        }
        self.element_state.insert(id, State::InProgress);
        self.depth += 1;
        self.fill_element(id, src.doc, &src.node, true);
        self.depth -= 1;
        self.element_state.insert(id, State::Done);
        true
    }

    /// A particle's element: a reference to a global one or a local declaration.
    fn local_element(&mut self, d: usize, node: &Rc<XNode>) -> Option<ElementId> {
        if let Some(r) = node.attr("ref") {
            for a in [
                "name", "type", "nillable", "default", "fixed", "form", "block",
            ] {
                if node.attr(a).is_some() {
                    self.error(
                        "src-element",
                        d,
                        node,
                        format!("an element reference may not have the attribute '{a}'"),
                    );
                }
            }
            if node.xs_children().next().is_some() {
                self.error(
                    "src-element",
                    d,
                    node,
                    "an element reference may only contain an annotation".into(),
                );
            }
            return self.resolve_element(d, node, r);
        }
        let Some(local) = node.attr("name") else {
            self.error(
                "src-element",
                d,
                node,
                "a local element needs a name or a ref".into(),
            );
            return None;
        };
        let qualified = match node.attr("form").map(str::trim) {
            Some(f) => f == "qualified",
            None => self.docs[d].element_qualified,
        };
        let ns = if qualified {
            self.docs[d].tns
        } else {
            NamespaceId::ABSENT
        };
        let name = self.s.names.name(ns, local.trim());
        let id = ElementId::from_index(self.s.elements.len());
        let loc = self.loc(d, node);
        self.s
            .elements
            .push(placeholder_element(name, false, loc, annotation(node)));
        self.element_state.insert(id, State::Done);
        self.fill_element(id, d, node, false);
        Some(id)
    }

    fn fill_element(&mut self, id: ElementId, d: usize, node: &Rc<XNode>, global: bool) {
        self.element_doc.insert(id, (d, node.clone()));
        let inline = node
            .xs_children()
            .find(|c| c.local == "simpleType" || c.local == "complexType")
            .cloned();
        let mut type_def = match (node.attr("type"), inline) {
            (Some(_), Some(_)) => {
                self.error(
                    "src-element",
                    d,
                    node,
                    "an element may not have both a type attribute and an anonymous type".into(),
                );
                None
            }
            (Some(t), None) => self.resolve_type(d, node, t),
            (None, Some(c)) if c.local == "simpleType" => {
                Some(TypeId::Simple(self.anon_simple(d, &c)))
            }
            (None, Some(c)) => Some(TypeId::Complex(self.anon_complex(d, &c))),
            (None, None) => None,
        };
        let explicit_type = node.attr("type").is_some() || type_def.is_some();
        let mut head = None;
        if global {
            if let Some(sg) = node.attr("substitutionGroup") {
                if let Some(h) = self.resolve_element(d, node, sg) {
                    if !self.ensure_element(h) || h == id {
                        self.error(
                            "e-props-correct",
                            d,
                            node,
                            "circular substitution group".into(),
                        );
                    } else {
                        head = Some(h);
                        if !explicit_type {
                            type_def = Some(self.s.element(h).type_def);
                        }
                    }
                }
            }
        }
        if node.attr("default").is_some() && node.attr("fixed").is_some() {
            self.error(
                "src-element",
                d,
                node,
                "an element may not have both default and fixed".into(),
            );
        }
        let value_constraint = match (node.attr("default"), node.attr("fixed")) {
            (_, Some(f)) => Some(ValueConstraint {
                fixed: true,
                lexical: f.to_string(),
                value: None,
            }),
            (Some(v), None) => Some(ValueConstraint {
                fixed: false,
                lexical: v.to_string(),
                value: None,
            }),
            _ => None,
        };
        let ers =
            DerivationSet::EXTENSION | DerivationSet::RESTRICTION | DerivationSet::SUBSTITUTION;
        let er = DerivationSet::EXTENSION | DerivationSet::RESTRICTION;
        let block = derivation_set(node.attr("block"), ers)
            .unwrap_or(self.docs[d].block_default.intersection(ers));
        let final_ = derivation_set(node.attr("final"), er)
            .unwrap_or(self.docs[d].final_default.intersection(er));
        let ics: Vec<Rc<XNode>> = node
            .xs_children()
            .filter(|c| matches!(c.local.as_str(), "unique" | "key" | "keyref"))
            .cloned()
            .collect();
        let mut ic_ids = Vec::new();
        for ic in ics {
            if let Some(i) = self.identity_constraint(d, &ic) {
                ic_ids.push(i);
            }
        }
        let e = &mut self.s.elements[id.index()];
        e.type_def = type_def.unwrap_or(TypeId::ANY_TYPE);
        e.value_constraint = value_constraint;
        e.nillable = bool_attr(node, "nillable");
        e.is_abstract = bool_attr(node, "abstract");
        e.block = block;
        e.final_ = final_;
        e.substitution_group = head;
        e.identity_constraints = ic_ids;
    }

    fn identity_constraint(&mut self, d: usize, node: &Rc<XNode>) -> Option<IdentityConstraintId> {
        let local = node.attr("name")?;
        let name = self.s.names.name(self.docs[d].tns, local.trim());
        let id = IdentityConstraintId::from_index(self.s.identity_constraints.len());
        if let std::collections::hash_map::Entry::Vacant(e) =
            self.s.global_identity_constraints.entry(name)
        {
            e.insert(id);
        } else {
            let shown = self.s.display_name(name);
            self.error(
                "sch-props-correct",
                d,
                node,
                format!("a second identity constraint named '{shown}'"),
            );
        }
        let kind = match node.local.as_str() {
            "unique" => IdentityKind::Unique,
            "key" => IdentityKind::Key,
            _ => {
                self.keyrefs.push((id, d, node.clone()));
                IdentityKind::KeyRef(id)
            }
        };
        let resolve_ns =
            |n: &XNode, p: &str| -> Option<String> { n.resolve_prefix(p).map(str::to_string) };
        let mut selector = Vec::new();
        let mut selector_source = String::new();
        let mut fields = Vec::new();
        for c in node.xs_children() {
            let Some(xpath) = c.attr("xpath") else {
                continue;
            };
            let is_field = c.local == "field";
            match idc_xpath::parse(xpath, is_field, &|p| resolve_ns(c, p)) {
                Ok(paths) => {
                    let paths = paths
                        .into_iter()
                        .map(|p| idc_xpath::intern(p, &mut self.s.names))
                        .collect();
                    if is_field {
                        fields.push((paths, xpath.to_string()));
                    } else {
                        selector = paths;
                        selector_source = xpath.to_string();
                    }
                }
                Err(m) => {
                    let constraint = if is_field {
                        "c-fields-xpaths"
                    } else {
                        "c-selector-xpath"
                    };
                    self.error(
                        constraint,
                        d,
                        c,
                        format!("'{xpath}' is not a valid {} path: {m}", c.local),
                    );
                }
            }
        }
        let loc = self.loc(d, node);
        self.s.identity_constraints.push(IdentityConstraint {
            name,
            kind,
            selector,
            selector_source,
            fields,
            location: loc,
            annotation: annotation(node),
        });
        Some(id)
    }

    // ---- attributes --------------------------------------------------------------------

    fn attribute_type(&mut self, d: usize, node: &Rc<XNode>) -> SimpleTypeId {
        let inline = node
            .xs_children()
            .find(|c| c.local == "simpleType")
            .cloned();
        match (node.attr("type"), inline) {
            (Some(_), Some(_)) => {
                self.error(
                    "src-attribute",
                    d,
                    node,
                    "an attribute may not have both a type attribute and an anonymous type".into(),
                );
                SimpleTypeId::ANY_SIMPLE_TYPE
            }
            (Some(t), None) => match self.resolve_type(d, node, t) {
                Some(TypeId::Simple(s)) => s,
                Some(TypeId::Complex(_)) => {
                    self.error(
                        "a-props-correct",
                        d,
                        node,
                        "the type of an attribute must be a simple type".into(),
                    );
                    SimpleTypeId::ANY_SIMPLE_TYPE
                }
                None => SimpleTypeId::ANY_SIMPLE_TYPE,
            },
            (None, Some(st)) => self.anon_simple(d, &st),
            (None, None) => SimpleTypeId::ANY_SIMPLE_TYPE,
        }
    }

    fn attr_value_constraint(&mut self, d: usize, node: &XNode) -> Option<ValueConstraint> {
        if node.attr("default").is_some() && node.attr("fixed").is_some() {
            self.error(
                "src-attribute",
                d,
                node,
                "an attribute may not have both default and fixed".into(),
            );
        }
        match (node.attr("default"), node.attr("fixed")) {
            (_, Some(f)) => Some(ValueConstraint {
                fixed: true,
                lexical: f.to_string(),
                value: None,
            }),
            (Some(v), None) => Some(ValueConstraint {
                fixed: false,
                lexical: v.to_string(),
                value: None,
            }),
            _ => None,
        }
    }

    fn check_attribute_name(&mut self, d: usize, node: &XNode, name: NameId) {
        if self.s.names.local(name) == "xmlns" && self.s.names.ns(name) == NamespaceId::ABSENT {
            self.error(
                "no-xmlns",
                d,
                node,
                "an attribute may not be named xmlns".into(),
            );
        }
        if self.s.names.namespace_uri(self.s.names.ns(name)) == crate::model::XSI_NAMESPACE {
            self.error(
                "no-xsi",
                d,
                node,
                "attributes may not be declared in the XML Schema instance namespace".into(),
            );
        }
    }

    fn build_global_attribute(&mut self, id: AttributeId, src: &Src) {
        let node = src.node.clone();
        let d = src.doc;
        let name = self.s.attribute(id).name;
        self.check_attribute_name(d, &node, name);
        let ty = self.attribute_type(d, &node);
        let vc = self.attr_value_constraint(d, &node);
        self.attribute_doc.insert(id, (d, node.clone()));
        let a = &mut self.s.attributes[id.index()];
        a.type_def = ty;
        a.value_constraint = vc;
    }

    /// The attribute uses, prohibitions and complete wildcard written in `container`.
    pub(crate) fn attr_content(
        &mut self,
        d: usize,
        container: &Rc<XNode>,
        dup_constraint: &'static str,
    ) -> AttrContent {
        let mut out = AttrContent {
            uses: Vec::new(),
            prohibited: Vec::new(),
            wildcard: None,
        };
        let mut local_wildcard = None;
        let mut group_wildcards: Vec<Wildcard> = Vec::new();
        let children: Vec<Rc<XNode>> = container.xs_children().cloned().collect();
        for c in children {
            match c.local.as_str() {
                "attribute" => {
                    let use_ = c.attr("use").map(str::trim).unwrap_or("optional");
                    if c.attr("default").is_some() && use_ != "optional" {
                        self.error(
                            "src-attribute",
                            d,
                            &c,
                            "an attribute with a default must be optional".into(),
                        );
                    }
                    let decl = if let Some(r) = c.attr("ref") {
                        for a in ["name", "type", "form"] {
                            if c.attr(a).is_some() {
                                self.error(
                                    "src-attribute",
                                    d,
                                    &c,
                                    format!(
                                        "an attribute reference may not have the attribute '{a}'"
                                    ),
                                );
                            }
                        }
                        if c.xs_children().next().is_some() {
                            self.error(
                                "src-attribute",
                                d,
                                &c,
                                "an attribute reference may only contain an annotation".into(),
                            );
                        }
                        self.resolve_attribute(d, &c, r)
                    } else if let Some(local) = c.attr("name") {
                        let qualified = match c.attr("form").map(str::trim) {
                            Some(f) => f == "qualified",
                            None => self.docs[d].attribute_qualified,
                        };
                        let ns = if qualified {
                            self.docs[d].tns
                        } else {
                            NamespaceId::ABSENT
                        };
                        let name = self.s.names.name(ns, local.trim());
                        self.check_attribute_name(d, &c, name);
                        let ty = self.attribute_type(d, &c);
                        let vc = self.attr_value_constraint(d, &c);
                        let id = AttributeId::from_index(self.s.attributes.len());
                        let loc = self.loc(d, &c);
                        self.s.attributes.push(AttributeDecl {
                            name,
                            type_def: ty,
                            global: false,
                            value_constraint: vc,
                            location: loc,
                            annotation: annotation(&c),
                        });
                        self.attribute_doc.insert(id, (d, c.clone()));
                        Some(id)
                    } else {
                        self.error(
                            "src-attribute",
                            d,
                            &c,
                            "a local attribute needs a name or a ref".into(),
                        );
                        None
                    };
                    let Some(decl) = decl else { continue };
                    let name = self.s.attribute(decl).name;
                    if use_ == "prohibited" {
                        out.prohibited.push(name);
                        continue;
                    }
                    let vc = if c.attr("ref").is_some() {
                        self.attr_value_constraint(d, &c)
                    } else {
                        self.s.attribute(decl).value_constraint.clone()
                    };
                    if out
                        .uses
                        .iter()
                        .any(|u| self.s.attribute(u.decl).name == name)
                    {
                        let shown = self.s.display_name(name);
                        self.error(
                            dup_constraint,
                            d,
                            &c,
                            format!("attribute '{shown}' is declared twice"),
                        );
                        continue;
                    }
                    self.attr_use_nodes.push((decl, d, c.clone()));
                    out.uses.push(AttributeUse {
                        decl,
                        required: use_ == "required",
                        value_constraint: vc,
                    });
                }
                "attributeGroup" => {
                    let Some(r) = c.attr("ref") else { continue };
                    let Some(name) = self.qname(d, &c, r) else {
                        continue;
                    };
                    let g = match self.redef_agroup {
                        Some((n, orig, ref mut count)) if n == name => {
                            *count += 1;
                            Some(orig)
                        }
                        _ => {
                            if !self.visible(d, &c, name) {
                                continue;
                            }
                            let g = self.s.global_attribute_groups.get(&name).copied();
                            if g.is_none() {
                                self.not_found(d, &c, "attribute group definition", name);
                            }
                            g
                        }
                    };
                    let Some(g) = g else { continue };
                    if !self.ensure_agroup(g) {
                        self.error(
                            "src-attribute_group",
                            d,
                            &c,
                            "circular attribute group reference".into(),
                        );
                        continue;
                    }
                    let group = self.s.attribute_group(g).clone();
                    for u in group.attribute_uses {
                        let name = self.s.attribute(u.decl).name;
                        if out
                            .uses
                            .iter()
                            .any(|x| self.s.attribute(x.decl).name == name)
                        {
                            if !out.uses.iter().any(|x| x.decl == u.decl) {
                                let shown = self.s.display_name(name);
                                self.error(
                                    dup_constraint,
                                    d,
                                    &c,
                                    format!("attribute '{shown}' is declared twice"),
                                );
                            }
                            continue;
                        }
                        out.uses.push(u);
                    }
                    if let Some(w) = group.attribute_wildcard {
                        group_wildcards.push(w);
                    }
                }
                "anyAttribute" => local_wildcard = Some(self.wildcard(d, &c)),
                _ => {}
            }
        }
        let mut complete = local_wildcard;
        for w in group_wildcards {
            complete = Some(match complete {
                None => w,
                Some(c0) => match wildcard::intersection(&c0, &w) {
                    Some(i) => i,
                    None => {
                        self.error(
                            "cos-aw-intersect",
                            d,
                            container,
                            "the intersection of the attribute wildcards is not expressible".into(),
                        );
                        c0
                    }
                },
            });
        }
        out.wildcard = complete;
        out
    }

    /// Builds a named attribute group if not built; `false` if it is being built.
    pub(crate) fn ensure_agroup(&mut self, id: AttributeGroupId) -> bool {
        match self.agroup_state.get(&id) {
            Some(State::Done) => return true,
            Some(State::InProgress) => return false,
            None => {}
        }
        let Some(src) = self.agroup_src.get(&id).cloned() else {
            return true;
        };
        if self.depth > MAX_NESTING {
            return false;
        }
        self.agroup_state.insert(id, State::InProgress);
        self.depth += 1;
        let saved = self.redef_agroup.take();
        if let Some(orig) = src.original {
            self.redef_agroup = Some((self.s.attribute_group(id).name, AttributeGroupId(orig), 0));
        }
        let content = self.attr_content(src.doc, &src.node, "ag-props-correct");
        if let Some((_, orig, 0)) = self.redef_agroup {
            self.pending_agroup_restrictions
                .push((id, orig, src.doc, src.node.clone()));
        }
        if let Some((_, _, count)) = self.redef_agroup {
            if count > 1 {
                self.error(
                    "src-redefine",
                    src.doc,
                    &src.node,
                    "an attribute group redefinition may refer to the group it redefines only once"
                        .into(),
                );
            }
        }
        self.redef_agroup = saved;
        self.depth -= 1;
        let g = &mut self.s.attribute_groups[id.index()];
        g.attribute_uses = content.uses;
        g.attribute_wildcard = content.wildcard;
        self.agroup_state.insert(id, State::Done);
        true
    }

    /// `xs:any` or `xs:anyAttribute`.
    pub(crate) fn wildcard(&mut self, d: usize, node: &XNode) -> Wildcard {
        let tns = self.docs[d].tns;
        let namespaces = match node.attr("namespace").map(str::trim) {
            None | Some("##any") => NamespaceConstraint::Any,
            Some("##other") => NamespaceConstraint::Not(tns),
            Some(list) => {
                let mut set = Vec::new();
                for w in list.split_whitespace() {
                    let ns = match w {
                        "##targetNamespace" => tns,
                        "##local" => NamespaceId::ABSENT,
                        uri => self.s.names.namespace(uri),
                    };
                    if !set.contains(&ns) {
                        set.push(ns);
                    }
                }
                NamespaceConstraint::Set(set)
            }
        };
        let process = match node.attr("processContents").map(str::trim) {
            Some("lax") => ProcessContents::Lax,
            Some("skip") => ProcessContents::Skip,
            _ => ProcessContents::Strict,
        };
        Wildcard {
            namespaces,
            process,
        }
    }
}
