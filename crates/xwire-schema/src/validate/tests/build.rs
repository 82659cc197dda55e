//! A test-only schema builder: pushes components into `Schema::builtins()` through the
//! crate's arenas (the loader is not available to these tests).

use std::path::PathBuf;

use crate::datatypes::Builtin;
use crate::model::*;

/// Builds a schema by hand. Every particle gets a location on its own line (1, 2, ...), so
/// tests can assert where errors point.
pub struct B {
    pub s: Schema,
    pub tns: NamespaceId,
    line: u32,
}

pub fn st(b: Builtin) -> TypeId {
    TypeId::Simple(SimpleTypeId::builtin(b))
}

impl B {
    pub fn new(tns: &str) -> B {
        let mut s = Schema::builtins();
        s.files.push(PathBuf::from("test.xsd"));
        let tns = s.names.namespace(tns);
        s.target_namespaces.push(tns);
        B { s, tns, line: 0 }
    }

    pub fn loc(&mut self) -> Option<Location> {
        self.line += 1;
        Some(Location {
            file: FileId::from_index(0),
            line: self.line,
            column: 1,
        })
    }

    pub fn name(&mut self, local: &str) -> NameId {
        self.s.names.name(self.tns, local)
    }

    pub fn ns(&mut self, uri: &str) -> NamespaceId {
        self.s.names.namespace(uri)
    }

    fn decl(&mut self, name: NameId, ty: TypeId, global: bool) -> ElementId {
        let id = ElementId::from_index(self.s.elements.len());
        let location = self.loc();
        self.s.elements.push(ElementDecl {
            name,
            type_def: ty,
            global,
            value_constraint: None,
            nillable: false,
            is_abstract: false,
            block: DerivationSet::EMPTY,
            final_: DerivationSet::EMPTY,
            substitution_group: None,
            identity_constraints: Vec::new(),
            location,
            annotation: Annotation::default(),
        });
        self.s.substitutions.push(Vec::new());
        if global {
            self.s.global_elements.insert(name, id);
        }
        id
    }

    /// A global element declaration in the target namespace.
    pub fn global(&mut self, local: &str, ty: TypeId) -> ElementId {
        let n = self.name(local);
        self.decl(n, ty, true)
    }

    /// A local element declaration (qualified: in the target namespace).
    pub fn local(&mut self, local: &str, ty: TypeId) -> ElementId {
        let n = self.name(local);
        self.decl(n, ty, false)
    }

    pub fn elem_mut(&mut self, e: ElementId) -> &mut ElementDecl {
        &mut self.s.elements[e.index()]
    }

    /// Makes `member` a member of `head`'s substitution group (transitively for the heads of
    /// `head`).
    pub fn substitute(&mut self, member: ElementId, head: ElementId) {
        self.s.elements[member.index()].substitution_group = Some(head);
        let mut h = Some(head);
        while let Some(x) = h {
            let list = &mut self.s.substitutions[x.index()];
            if list.is_empty() {
                list.push(x);
            }
            list.push(member);
            h = self.s.elements[x.index()].substitution_group;
        }
    }

    pub fn p(&mut self, term: Term, min: u32, max: Option<u32>) -> Particle {
        let location = self.loc();
        Particle {
            min_occurs: min,
            max_occurs: max.map_or(MaxOccurs::Unbounded, MaxOccurs::Bounded),
            term,
            location,
        }
    }

    pub fn e(&mut self, e: ElementId) -> Particle {
        self.p(Term::Element(e), 1, Some(1))
    }

    pub fn eo(&mut self, e: ElementId, min: u32, max: Option<u32>) -> Particle {
        self.p(Term::Element(e), min, max)
    }

    pub fn any(&mut self, ns: NamespaceConstraint, process: ProcessContents) -> Particle {
        self.p(
            Term::Wildcard(Wildcard {
                namespaces: ns,
                process,
            }),
            1,
            Some(1),
        )
    }

    pub fn group(
        &mut self,
        c: Compositor,
        particles: Vec<Particle>,
        min: u32,
        max: Option<u32>,
    ) -> Particle {
        let id = ModelGroupId::from_index(self.s.model_groups.len());
        let location = self.loc();
        self.s.model_groups.push(ModelGroup {
            name: None,
            compositor: c,
            particles,
            location,
            annotation: Annotation::default(),
        });
        self.p(Term::Group(id), min, max)
    }

    pub fn seq(&mut self, particles: Vec<Particle>) -> Particle {
        self.group(Compositor::Sequence, particles, 1, Some(1))
    }

    pub fn choice(&mut self, particles: Vec<Particle>) -> Particle {
        self.group(Compositor::Choice, particles, 1, Some(1))
    }

    pub fn complex(&mut self, name: Option<&str>, content: ContentType) -> ComplexTypeId {
        let name = name.map(|n| self.name(n));
        let id = ComplexTypeId::from_index(self.s.complex_types.len());
        let location = self.loc();
        self.s.complex_types.push(ComplexType {
            name,
            base: TypeId::ANY_TYPE,
            derivation: Derivation::Restriction,
            is_abstract: false,
            final_: DerivationSet::EMPTY,
            block: DerivationSet::EMPTY,
            attribute_uses: Vec::new(),
            attribute_wildcard: None,
            content,
            location,
            annotation: Annotation::default(),
        });
        if let Some(n) = name {
            self.s.global_types.insert(n, TypeId::Complex(id));
        }
        id
    }

    pub fn elements(&mut self, name: Option<&str>, particle: Particle, mixed: bool) -> TypeId {
        TypeId::Complex(self.complex(name, ContentType::Elements { particle, mixed }))
    }

    pub fn ct_mut(&mut self, t: TypeId) -> &mut ComplexType {
        let TypeId::Complex(c) = t else {
            panic!("not complex")
        };
        &mut self.s.complex_types[c.index()]
    }

    /// An unqualified attribute declaration, local.
    pub fn attr(&mut self, local: &str, ty: Builtin) -> AttributeId {
        let name = self.s.names.name(NamespaceId::ABSENT, local);
        let id = AttributeId::from_index(self.s.attributes.len());
        let location = self.loc();
        self.s.attributes.push(AttributeDecl {
            name,
            type_def: SimpleTypeId::builtin(ty),
            global: false,
            value_constraint: None,
            location,
            annotation: Annotation::default(),
        });
        id
    }

    pub fn use_(&mut self, t: TypeId, decl: AttributeId, required: bool, vc: Option<(bool, &str)>) {
        let value_constraint = vc.map(|(fixed, lexical)| ValueConstraint {
            fixed,
            lexical: lexical.to_string(),
            value: None,
        });
        self.ct_mut(t).attribute_uses.push(AttributeUse {
            decl,
            required,
            value_constraint,
        });
    }

    /// A simple type restricting a built-in with a few facets.
    #[allow(dead_code)] // for facet tests to come
    pub fn simple(&mut self, base: Builtin, facets: Facets) -> SimpleTypeId {
        let id = SimpleTypeId::from_index(self.s.simple_types.len());
        self.s.simple_types.push(SimpleType {
            name: None,
            base: st(base),
            builtin: None,
            variety: Variety::Atomic(base),
            facets,
            final_: DerivationSet::EMPTY,
            location: None,
            annotation: Annotation::default(),
        });
        id
    }

    pub fn finish(self) -> Schema {
        let mut s = self.s;
        if let Err(e) = crate::validate::compile_content_models(&mut s) {
            panic!("schema errors: {e:?}");
        }
        s
    }

    pub fn finish_err(self) -> Vec<SchemaError> {
        let mut s = self.s;
        crate::validate::compile_content_models(&mut s).expect_err("schema errors expected")
    }
}
