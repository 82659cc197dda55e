//! Complex types to structs, their model groups to fields, nested structs and choice enums.

use xwire_schema::model::{
    ComplexTypeId, Compositor, ContentType, ElementId, MaxOccurs, Particle, Term,
};

use super::names::{self, Taken};
use super::{
    docs, ns_of, Field, ItemId, ItemKind, Occurs, Origin, PlanError, Planner, Prim, Source, Ty,
    Variant,
};

/// The fields of one struct being planned, with the names they took.
struct Fields {
    list: Vec<Field>,
    taken: Taken,
}

impl Fields {
    fn new() -> Fields {
        Fields {
            list: Vec::new(),
            taken: Taken::default(),
        }
    }

    fn push(&mut self, name: &str, source: Source, ty: Ty, occurs: Occurs) -> &mut Field {
        let name = self.taken.take_field(&names::field_name(name));
        self.list.push(Field {
            name,
            source,
            ty,
            occurs,
            boxed: false,
            value_constraint: None,
            simple: None,
        });
        self.list.last_mut().expect("just pushed")
    }
}

/// A particle's bounds.
fn occurs(p: &Particle) -> Occurs {
    let max = match p.max_occurs {
        MaxOccurs::Bounded(n) => Some(n),
        MaxOccurs::Unbounded => None,
    };
    Occurs::of(p.min_occurs, max)
}

impl Planner<'_> {
    /// The struct of complex type `id` (planned once; `context` names an anonymous one).
    pub(super) fn complex_type(
        &mut self,
        id: ComplexTypeId,
        context: Option<(&str, Option<ItemId>)>,
    ) -> Result<ItemId, PlanError> {
        if let Some(&item) = self.complex.get(&id) {
            return Ok(item);
        }
        let schema = self.schema;
        let ct = schema.complex_type(id);
        let name = match ct.name {
            Some(n) => names::type_name(schema.names().local(n)),
            None => self.anonymous_name(context, "Content"),
        };
        let doc = docs(&ct.annotation, || match (ct.name, context) {
            (Some(n), _) => format!("Complex type `{}`.", schema.names().display(n)),
            (None, Some((local, _))) => format!("The complex type of element `{local}`."),
            (None, None) => "An anonymous complex type.".to_string(),
        });
        let item = self.reserve(&name, Origin::ComplexType(id), doc);
        // Known before its fields are planned: a field may be of this very type.
        self.complex.insert(id, item);
        let mut fields = Fields::new();
        for au in &ct.attribute_uses {
            let decl = schema.attribute(au.decl);
            let local = schema.names().local(decl.name);
            let ty = self.simple_type(decl.type_def, Some((local, Some(item))))?;
            let constraint = au.effective_value_constraint(schema);
            // A default fills in an absent attribute: the value is always there.
            let occurs = if au.required || constraint.is_some() {
                Occurs::One
            } else {
                Occurs::Optional
            };
            let source = Source::Attribute {
                ns: ns_of(schema, decl.name),
                local: local.to_string(),
                required: au.required,
            };
            let f = fields.push(local, source, ty, occurs);
            f.value_constraint = constraint.map(|c| (c.fixed, c.lexical.clone()));
            f.simple = Some(decl.type_def);
        }
        if let Some(w) = &ct.attribute_wildcard {
            let ty = Ty::Prim(Prim::AnyAttribute);
            let many = Occurs::Many { min: 0, max: None };
            let source = Source::AnyAttributes(w.clone());
            fields.push("other_attributes", source, ty, many);
        }
        match &ct.content {
            ContentType::Empty => {}
            ContentType::Simple(st) => {
                let ty = self.simple_type(*st, Some(("Value", Some(item))))?;
                fields.push("value", Source::Text, ty, Occurs::One).simple = Some(*st);
            }
            ContentType::Elements {
                particle,
                mixed: false,
            } => self.particle(particle, item, &mut fields)?,
            ContentType::Elements {
                particle,
                mixed: true,
            } => {
                // The children as in element-only content, and the text between them.
                self.particle(particle, item, &mut fields)?;
                let many = Occurs::Many { min: 0, max: None };
                fields.push("text", Source::Mixed, Ty::Prim(Prim::MixedText), many);
            }
        }
        self.items[item.0].kind = ItemKind::Struct {
            fields: fields.list,
        };
        Ok(item)
    }

    /// The fields a particle of `within`'s content adds: an element or wildcard one field, a
    /// sequence or `all` that occurs once its particles' fields, any other group one field of
    /// its own item.
    fn particle(
        &mut self,
        p: &Particle,
        within: ItemId,
        fields: &mut Fields,
    ) -> Result<(), PlanError> {
        let schema = self.schema;
        let occurs = occurs(p);
        match &p.term {
            Term::Element(el) => {
                let (local, source, ty) = self.element(*el, within)?;
                let f = fields.push(&local, source, ty, occurs);
                f.simple = super::simple_type_of(schema, *el);
                f.value_constraint = constraint_of(schema, *el);
            }
            Term::Wildcard(w) => {
                let source = Source::AnyElement(w.clone());
                fields.push("any", source, Ty::Prim(Prim::Any), occurs);
            }
            Term::Group(g) => {
                let group = schema.model_group(*g);
                match group.compositor {
                    Compositor::Sequence | Compositor::All if occurs == Occurs::One => {
                        for inner in &group.particles {
                            self.particle(inner, within, fields)?;
                        }
                    }
                    _ => {
                        let field = match group.name {
                            Some(n) => schema.names().local(n).to_string(),
                            None => match group.compositor {
                                Compositor::Choice => "choice".to_string(),
                                _ => "sequence".to_string(),
                            },
                        };
                        let item = self.group(*g, within)?;
                        fields.push(&field, Source::Group, Ty::Item(item), occurs);
                    }
                }
            }
        }
        Ok(())
    }

    /// The item of a model group that is not flattened into its parent: a struct for a
    /// sequence or `all`, an enum for a choice. Named after the group, or after `within`.
    fn group(
        &mut self,
        g: xwire_schema::model::ModelGroupId,
        within: ItemId,
    ) -> Result<ItemId, PlanError> {
        let schema = self.schema;
        let group = schema.model_group(g);
        let suffix = match group.compositor {
            Compositor::Choice => "Choice",
            _ => "Sequence",
        };
        // Groups and types are apart in a schema (a group may share a type's name): a named
        // group's item says it is a group.
        let name = match group.name {
            Some(n) => format!("{}Group", names::type_name(schema.names().local(n))),
            None => format!("{}{suffix}", self.items[within.0].name),
        };
        let what = match group.compositor {
            Compositor::Choice => "A choice",
            Compositor::Sequence => "A sequence",
            Compositor::All => "An `all` group",
        };
        let within_name = self.items[within.0].name.clone();
        let doc = docs(&group.annotation, || {
            format!("{what} in the content of `{within_name}`.")
        });
        let item = self.reserve(&name, Origin::Group(within), doc);
        let kind = match group.compositor {
            Compositor::Sequence | Compositor::All => {
                let mut fields = Fields::new();
                for inner in &group.particles {
                    self.particle(inner, item, &mut fields)?;
                }
                ItemKind::Struct {
                    fields: fields.list,
                }
            }
            Compositor::Choice => {
                let mut taken = Taken::default();
                let mut variants = Vec::new();
                for inner in &group.particles {
                    let occurs = occurs(inner);
                    let mut simple = None;
                    let mut value_constraint = None;
                    let (vname, source, ty) = match &inner.term {
                        Term::Element(el) => {
                            let (local, source, ty) = self.element(*el, item)?;
                            simple = super::simple_type_of(schema, *el);
                            value_constraint = constraint_of(schema, *el);
                            (names::type_name(&local), source, ty)
                        }
                        Term::Wildcard(w) => (
                            "Any".to_string(),
                            Source::AnyElement(w.clone()),
                            Ty::Prim(Prim::Any),
                        ),
                        Term::Group(inner_g) => {
                            let inner_item = self.group(*inner_g, item)?;
                            let vname = self.items[inner_item.0].name.clone();
                            (vname, Source::Group, Ty::Item(inner_item))
                        }
                    };
                    variants.push(Variant {
                        name: taken.take(&vname),
                        source,
                        ty,
                        occurs,
                        boxed: false,
                        simple,
                        value_constraint,
                    });
                }
                ItemKind::Choice { variants }
            }
        };
        self.items[item.0].kind = kind;
        Ok(item)
    }

    /// An element particle: its local name, source and type. An element that heads a
    /// substitution group holds an enum of the group's members that may appear.
    fn element(
        &mut self,
        el: ElementId,
        within: ItemId,
    ) -> Result<(String, Source, Ty), PlanError> {
        let schema = self.schema;
        let (local, source) = self.element_source(el);
        let members: Vec<ElementId> = schema
            .substitution_group(el)
            .iter()
            .copied()
            .filter(|&m| !schema.element(m).is_abstract && !schema.substitution_blocked(el, m))
            .collect();
        // Anything but the element alone is an enum of the members: none at all for an
        // abstract element without members, which no element matches.
        if members.as_slice() != [el] {
            let ty = Ty::Item(self.substitution_group(el, &members)?);
            return Ok((local, Source::Group, ty));
        }
        let ty = self.element_type(el, &local, Some(within))?;
        Ok((local, source, ty))
    }

    /// An element declaration's local name and where its value comes from.
    fn element_source(&self, el: ElementId) -> (String, Source) {
        let schema = self.schema;
        let decl = schema.element(el);
        let local = schema.names().local(decl.name).to_string();
        let source = Source::Element {
            ns: ns_of(schema, decl.name),
            local: local.clone(),
            nillable: decl.nillable,
            block: decl.block,
            element: el,
        };
        (local, source)
    }

    /// The variant of an enum of elements (a substitution group's, mixed content's) that
    /// holds element `el`, once, named after it in `taken`'s scope.
    fn element_variant(
        &mut self,
        el: ElementId,
        within: ItemId,
        taken: &mut Taken,
    ) -> Result<Variant, PlanError> {
        let (local, source) = self.element_source(el);
        let ty = self.element_type(el, &local, Some(within))?;
        Ok(Variant {
            name: taken.take(&names::type_name(&local)),
            source,
            ty,
            occurs: Occurs::One,
            boxed: false,
            simple: super::simple_type_of(self.schema, el),
            value_constraint: constraint_of(self.schema, el),
        })
    }

    /// The enum of the elements that may stand where `head` is expected.
    fn substitution_group(
        &mut self,
        head: ElementId,
        members: &[ElementId],
    ) -> Result<ItemId, PlanError> {
        if let Some(&item) = self.substitutions.get(&head) {
            return Ok(item);
        }
        let schema = self.schema;
        let head_local = schema.names().local(schema.element(head).name);
        let name = format!("{}Group", names::type_name(head_local));
        let doc = vec![format!(
            "Element `{}` or a member of its substitution group.",
            schema.names().display(schema.element(head).name)
        )];
        let item = self.reserve(&name, Origin::SubstitutionGroup(head), doc);
        self.substitutions.insert(head, item);
        let mut taken = Taken::default();
        let mut variants = Vec::new();
        for &m in members {
            let v = self.element_variant(m, item, &mut taken)?;
            variants.push(v);
        }
        self.items[item.0].kind = ItemKind::Choice { variants };
        Ok(item)
    }
}

/// An element declaration's `default` or `fixed` value, as a field or variant keeps it.
fn constraint_of(schema: &xwire_schema::model::Schema, el: ElementId) -> Option<(bool, String)> {
    let c = schema.element(el).value_constraint.as_ref()?;
    Some((c.fixed, c.lexical.clone()))
}
