use super::*;
use crate::datatypes::Builtin;

fn no_prefixes(_: &str) -> Option<String> {
    None
}

/// Adds a simple type restricting `base` with `facets` to a builtins-only schema.
fn derived(
    schema: &mut Schema,
    variety: Variety,
    base: SimpleTypeId,
    facets: Facets,
) -> SimpleTypeId {
    let id = SimpleTypeId::from_index(schema.simple_types.len());
    schema.simple_types.push(SimpleType {
        name: None,
        base: TypeId::Simple(base),
        builtin: None,
        variety,
        facets,
        final_: DerivationSet::EMPTY,
        location: None,
        annotation: Annotation::default(),
    });
    id
}

fn fixed<T>(value: T) -> Option<FacetValue<T>> {
    Some(FacetValue {
        value,
        fixed: false,
    })
}

#[test]
fn builtins_are_in_order_and_named() {
    let s = Schema::builtins();
    for &b in Builtin::ALL {
        let id = SimpleTypeId::builtin(b);
        let st = s.simple_type(id);
        assert_eq!(st.builtin, Some(b));
        let name = st.name.unwrap();
        assert_eq!(s.names().local(name), b.name());
        assert_eq!(s.names().namespace_uri(s.names().ns(name)), XSD_NAMESPACE);
        assert_eq!(s.global_type(name), Some(TypeId::Simple(id)));
    }
    let xs = s.names().lookup_namespace(XSD_NAMESPACE).unwrap();
    let any = s.names().lookup(xs, "anyType").unwrap();
    assert_eq!(s.global_type(any), Some(TypeId::ANY_TYPE));
    let xsi = s.names().lookup_namespace(XSI_NAMESPACE).unwrap();
    for local in ["type", "nil", "schemaLocation", "noNamespaceSchemaLocation"] {
        let n = s.names().lookup(xsi, local).unwrap();
        assert!(s.global_attribute(n).is_some(), "xsi:{local}");
    }
    assert!(s.names().lookup(xsi, "bogus").is_none());
}

#[test]
fn derivation_follows_bases_and_honours_blocks() {
    let s = Schema::builtins();
    let t = |b| TypeId::Simple(SimpleTypeId::builtin(b));
    assert!(s.derives_from(t(Builtin::Byte), t(Builtin::Integer), DerivationSet::EMPTY));
    assert!(s.derives_from(t(Builtin::Byte), TypeId::ANY_TYPE, DerivationSet::EMPTY));
    assert!(!s.derives_from(t(Builtin::Integer), t(Builtin::Byte), DerivationSet::EMPTY));
    assert!(!s.derives_from(
        t(Builtin::Byte),
        t(Builtin::Integer),
        DerivationSet::RESTRICTION
    ));
    assert!(s.derives_from(
        t(Builtin::Byte),
        t(Builtin::Byte),
        DerivationSet::RESTRICTION
    ));
}

#[test]
fn atomic_facets_apply_after_whitespace() {
    let mut s = Schema::builtins();
    let string = SimpleTypeId::builtin(Builtin::String);
    let sku = derived(
        &mut s,
        Variety::Atomic(Builtin::String),
        string,
        Facets {
            white_space: fixed(WhiteSpace::Collapse),
            patterns: vec![vec![Pattern::compile(r"\d{3}-[A-Z]{2}").unwrap()]],
            ..Facets::default()
        },
    );
    assert!(s.validate_simple(sku, "  926-AA ", &no_prefixes).is_ok());
    let err = s.validate_simple(sku, "926-aa", &no_prefixes).unwrap_err();
    assert!(err.message().contains("pattern"), "{}", err.message());

    let int = SimpleTypeId::builtin(Builtin::Int);
    let small = derived(
        &mut s,
        Variety::Atomic(Builtin::Int),
        int,
        Facets {
            min_exclusive: fixed(Builtin::Int.parse("0").unwrap()),
            max_inclusive: fixed(Builtin::Int.parse("100").unwrap()),
            ..Facets::default()
        },
    );
    assert!(s.validate_simple(small, "100", &no_prefixes).is_ok());
    assert!(s.validate_simple(small, "1", &no_prefixes).is_ok());
    for bad in ["0", "101", "abc", "99999999999"] {
        assert!(
            s.validate_simple(small, bad, &no_prefixes).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn enumeration_compares_values() {
    let mut s = Schema::builtins();
    let decimal = SimpleTypeId::builtin(Builtin::Decimal);
    let e = derived(
        &mut s,
        Variety::Atomic(Builtin::Decimal),
        decimal,
        Facets {
            enumeration: Some(vec![
                (Builtin::Decimal.parse("1.5").unwrap(), "1.5".into()),
                (Builtin::Decimal.parse("2").unwrap(), "2".into()),
            ]),
            ..Facets::default()
        },
    );
    assert!(s.validate_simple(e, "1.50", &no_prefixes).is_ok());
    assert!(s.validate_simple(e, "2.0", &no_prefixes).is_ok());
    let err = s.validate_simple(e, "3", &no_prefixes).unwrap_err();
    assert!(err.message().contains("1.5, 2"), "{}", err.message());
}

#[test]
fn lists_and_unions() {
    let mut s = Schema::builtins();
    let int = SimpleTypeId::builtin(Builtin::Int);
    let ints = derived(
        &mut s,
        Variety::List(int),
        SimpleTypeId::ANY_SIMPLE_TYPE,
        Facets {
            max_length: fixed(3),
            ..Facets::default()
        },
    );
    let v = s.validate_simple(ints, " 1\n2  3 ", &no_prefixes).unwrap();
    assert_eq!(v.value.canonical(), "1 2 3");
    assert!(s.validate_simple(ints, "1 2 3 4", &no_prefixes).is_err());
    assert!(s.validate_simple(ints, "1 x", &no_prefixes).is_err());
    assert_eq!(
        s.validate_simple(ints, "", &no_prefixes).unwrap().value,
        Value::List(vec![])
    );

    let date = SimpleTypeId::builtin(Builtin::Date);
    let either = derived(
        &mut s,
        Variety::Union(vec![int, date]),
        SimpleTypeId::ANY_SIMPLE_TYPE,
        Facets::default(),
    );
    assert_eq!(
        s.validate_simple(either, "7", &no_prefixes).unwrap().member,
        int
    );
    assert_eq!(
        s.validate_simple(either, "2026-11-23", &no_prefixes)
            .unwrap()
            .member,
        date
    );
    let err = s.validate_simple(either, "soon", &no_prefixes).unwrap_err();
    assert!(err.message().contains("member type"), "{}", err.message());
}

#[test]
fn wildcards_match_namespaces() {
    let w = |namespaces| Wildcard {
        namespaces,
        process: ProcessContents::Strict,
    };
    let tns = NamespaceId(3);
    assert!(w(NamespaceConstraint::Any).allows(NamespaceId::UNKNOWN));
    let other = w(NamespaceConstraint::Not(tns));
    assert!(other.allows(NamespaceId(4)) && other.allows(NamespaceId::UNKNOWN));
    assert!(!other.allows(tns) && !other.allows(NamespaceId::ABSENT));
    let local = w(NamespaceConstraint::Set(vec![NamespaceId::ABSENT, tns]));
    assert!(
        local.allows(NamespaceId::ABSENT)
            && local.allows(tns)
            && !local.allows(NamespaceId::UNKNOWN)
    );
}

#[test]
fn schema_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Schema>();
}

#[test]
fn descriptions_are_compact() {
    let mut s = Schema::builtins();
    let tns = s.names.namespace("urn:t");
    s.target_namespaces.push(tns);
    let element = |s: &mut Schema, local: &str| {
        let name = s.names.name(tns, local);
        let id = ElementId::from_index(s.elements.len());
        s.elements.push(ElementDecl {
            name,
            type_def: TypeId::ANY_TYPE,
            global: false,
            value_constraint: None,
            nillable: false,
            is_abstract: false,
            block: DerivationSet::EMPTY,
            final_: DerivationSet::EMPTY,
            substitution_group: None,
            identity_constraints: Vec::new(),
            location: None,
            annotation: Annotation::default(),
        });
        id
    };
    let a = element(&mut s, "a");
    let b = element(&mut s, "b");
    let particle = |term, min, max| Particle {
        min_occurs: min,
        max_occurs: max,
        term,
        location: None,
    };
    let choice = ModelGroupId::from_index(s.model_groups.len());
    s.model_groups.push(ModelGroup {
        name: None,
        compositor: Compositor::Choice,
        particles: vec![
            particle(Term::Element(a), 1, MaxOccurs::Bounded(1)),
            particle(Term::Element(b), 2, MaxOccurs::Bounded(5)),
        ],
        location: None,
        annotation: Annotation::default(),
    });
    let seq = ModelGroupId::from_index(s.model_groups.len());
    s.model_groups.push(ModelGroup {
        name: None,
        compositor: Compositor::Sequence,
        particles: vec![
            particle(Term::Group(choice), 0, MaxOccurs::Unbounded),
            particle(Term::Element(a), 0, MaxOccurs::Bounded(1)),
            particle(
                Term::Wildcard(Wildcard {
                    namespaces: NamespaceConstraint::Not(tns),
                    process: ProcessContents::Skip,
                }),
                1,
                MaxOccurs::Unbounded,
            ),
        ],
        location: None,
        annotation: Annotation::default(),
    });
    let top = particle(Term::Group(seq), 1, MaxOccurs::Bounded(1));
    assert_eq!(
        s.particle_display(&top),
        "((a | b{2,5})*, a?, any(##other than urn:t, skip)+)"
    );
    let int = TypeId::Simple(SimpleTypeId::builtin(Builtin::Int));
    assert_eq!(s.type_display(int), "xs:int");
    assert_eq!(s.type_summary(int), "built-in");
}
