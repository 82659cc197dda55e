//! Tests of the loader: components built, errors with their constraint and line, the
//! Primer schemas.

use std::path::{Path, PathBuf};

use super::{Catalog, LoadOptions};
use crate::datatypes::{Builtin, Value};
use crate::model::{
    Compositor, ContentType, Derivation, IdentityKind, MaxOccurs, NameTest, NamespaceConstraint,
    ProcessContents, Schema, SchemaErrors, SimpleTypeId, Term, TypeId, Variety, Wildcard,
};

const XS: &str = r#"xmlns:xs="http://www.w3.org/2001/XMLSchema""#;

fn load(body: &str) -> Result<Schema, SchemaErrors> {
    let text = format!("<xs:schema {XS}>\n{body}\n</xs:schema>");
    Schema::parse_str(&text, &LoadOptions::default())
}

fn load_ns(body: &str) -> Result<Schema, SchemaErrors> {
    let text = format!(
        "<xs:schema {XS} targetNamespace=\"urn:t\" xmlns=\"urn:t\" elementFormDefault=\"qualified\">\n{body}\n</xs:schema>"
    );
    Schema::parse_str(&text, &LoadOptions::default())
}

fn ok(body: &str) -> Schema {
    match load(body) {
        Ok(s) => s,
        Err(e) => panic!("unexpected errors:\n{e}"),
    }
}

/// The (constraint, line) of every error; lines count the `<xs:schema>` line as 1.
fn errors(body: &str) -> Vec<(&'static str, u32)> {
    match load(body) {
        Ok(_) => Vec::new(),
        Err(e) => {
            e.0.iter()
                .map(|e| (e.constraint, e.position.map_or(0, |p| p.0)))
                .collect()
        }
    }
}

fn has(body: &str, constraint: &str, line: u32) {
    let errs = errors(body);
    assert!(
        errs.iter().any(|&(c, l)| c == constraint && l == line),
        "expected {constraint} at line {line}, got {errs:?}"
    );
}

fn name(s: &Schema, local: &str) -> crate::model::NameId {
    s.names()
        .lookup(crate::model::NamespaceId::ABSENT, local)
        .expect("name interned")
}

fn simple(s: &Schema, local: &str) -> SimpleTypeId {
    match s.global_type(name(s, local)) {
        Some(TypeId::Simple(t)) => t,
        other => panic!("{local} is {other:?}"),
    }
}

fn complex(s: &Schema, local: &str) -> crate::model::ComplexTypeId {
    match s.global_type(name(s, local)) {
        Some(TypeId::Complex(t)) => t,
        other => panic!("{local} is {other:?}"),
    }
}

#[test]
fn element_and_attribute_declarations() {
    let s = ok(
        r#"<xs:element name="a" type="xs:int" default="7" nillable="true"/>
<xs:attribute name="lang" type="xs:language" fixed="en"/>
<xs:element name="b">
  <xs:complexType>
    <xs:sequence><xs:element name="c" type="xs:string" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
    <xs:attribute ref="lang"/>
    <xs:attribute name="n" type="xs:int" use="required"/>
  </xs:complexType>
</xs:element>"#,
    );
    let a = s.element(s.global_element(name(&s, "a")).unwrap());
    assert_eq!(
        a.type_def,
        TypeId::Simple(SimpleTypeId::builtin(Builtin::Int))
    );
    assert!(a.nillable && a.global);
    let vc = a.value_constraint.as_ref().unwrap();
    assert!(!vc.fixed);
    assert_eq!(vc.value.as_ref().map(Value::canonical), Some("7".into()));
    let b = s.element(s.global_element(name(&s, "b")).unwrap());
    let TypeId::Complex(ct) = b.type_def else {
        panic!()
    };
    let ct = s.complex_type(ct);
    assert_eq!(ct.attribute_uses.len(), 2);
    assert!(ct.attribute_uses.iter().any(|u| u.required));
    let ContentType::Elements { particle, mixed } = &ct.content else {
        panic!()
    };
    assert!(!mixed);
    let Term::Group(g) = particle.term else {
        panic!()
    };
    let g = s.model_group(g);
    assert_eq!(g.compositor, Compositor::Sequence);
    assert_eq!(g.particles[0].min_occurs, 0);
    assert_eq!(g.particles[0].max_occurs, MaxOccurs::Unbounded);
}

#[test]
fn extension_merges_attributes_and_content() {
    let s = ok(r#"<xs:complexType name="base">
  <xs:sequence><xs:element name="x" type="xs:string"/></xs:sequence>
  <xs:attribute name="a" type="xs:string"/>
</xs:complexType>
<xs:complexType name="derived">
  <xs:complexContent>
    <xs:extension base="base">
      <xs:sequence><xs:element name="y" type="xs:string"/></xs:sequence>
      <xs:attribute name="b" type="xs:string"/>
    </xs:extension>
  </xs:complexContent>
</xs:complexType>"#);
    let d = s.complex_type(complex(&s, "derived"));
    assert_eq!(d.derivation, Derivation::Extension);
    assert_eq!(d.base, TypeId::Complex(complex(&s, "base")));
    assert_eq!(d.attribute_uses.len(), 2);
    let ContentType::Elements { particle, .. } = &d.content else {
        panic!()
    };
    let Term::Group(g) = particle.term else {
        panic!()
    };
    assert_eq!(s.model_group(g).particles.len(), 2, "sequence(base, own)");
    assert!(s.derives_from(
        TypeId::Complex(complex(&s, "derived")),
        TypeId::Complex(complex(&s, "base")),
        crate::model::DerivationSet::EMPTY
    ));
}

#[test]
fn simple_types_and_facets() {
    let s = ok(r#"<xs:simpleType name="small">
  <xs:restriction base="xs:integer"><xs:minInclusive value="1"/><xs:maxInclusive value="10"/></xs:restriction>
</xs:simpleType>
<xs:simpleType name="smaller">
  <xs:restriction base="small"><xs:maxExclusive value="5"/><xs:pattern value="[0-9]"/></xs:restriction>
</xs:simpleType>
<xs:simpleType name="list"><xs:list itemType="small"/></xs:simpleType>
<xs:simpleType name="either"><xs:union memberTypes="small xs:boolean"/></xs:simpleType>
<xs:simpleType name="color">
  <xs:restriction base="xs:token"><xs:enumeration value="red"/><xs:enumeration value="blue"/></xs:restriction>
</xs:simpleType>"#);
    let smaller = simple(&s, "smaller");
    let f = &s.simple_type(smaller).facets;
    assert!(f.min_inclusive.is_some() && f.max_inclusive.is_some() && f.max_exclusive.is_some());
    assert_eq!(f.patterns.len(), 1);
    assert!(s.validate_simple(smaller, "4", &|_| None).is_ok());
    assert!(s.validate_simple(smaller, "5", &|_| None).is_err());
    assert!(matches!(
        s.simple_type(simple(&s, "list")).variety,
        Variety::List(_)
    ));
    assert!(s
        .validate_simple(simple(&s, "list"), "1 2 3", &|_| None)
        .is_ok());
    assert!(s
        .validate_simple(simple(&s, "either"), "true", &|_| None)
        .is_ok());
    assert!(s
        .validate_simple(simple(&s, "color"), "green", &|_| None)
        .is_err());
}

#[test]
fn facet_errors() {
    has(
        r#"<xs:simpleType name="t"><xs:restriction base="xs:boolean">
<xs:length value="1"/></xs:restriction></xs:simpleType>"#,
        "cos-applicable-facets",
        3,
    );
    has(
        r#"<xs:simpleType name="t"><xs:restriction base="xs:string">
<xs:minLength value="5"/><xs:maxLength value="2"/></xs:restriction></xs:simpleType>"#,
        "minLength-less-than-equal-to-maxLength",
        2,
    );
    has(
        r#"<xs:simpleType name="t"><xs:restriction base="xs:int">
<xs:enumeration value="x"/></xs:restriction></xs:simpleType>"#,
        "enumeration-valid-restriction",
        3,
    );
    has(
        r#"<xs:simpleType name="t"><xs:restriction base="xs:byte">
<xs:maxInclusive value="1000"/></xs:restriction></xs:simpleType>"#,
        "maxInclusive-valid-restriction",
        3,
    );
    has(
        r#"<xs:simpleType name="l"><xs:list itemType="xs:int"/></xs:simpleType>
<xs:simpleType name="ll"><xs:list itemType="l"/></xs:simpleType>"#,
        "cos-st-restricts",
        3,
    );
}

#[test]
fn schema_for_schemas() {
    has(r#"<xs:element name="a" bogus="1"/>"#, "s4s", 2);
    has(r#"<xs:element type="xs:int"/>"#, "s4s", 2);
    has(r#"<xs:element name="a" nillable="maybe"/>"#, "s4s", 2);
    has(
        r#"<xs:complexType name="t">
  <xs:attribute name="a"/>
  <xs:sequence/>
</xs:complexType>"#,
        "s4s",
        2,
    );
    has(r#"<xs:element name="a" maxOccurs="2"/>"#, "s4s", 2);
}

#[test]
fn references_and_duplicates() {
    has(r#"<xs:element name="a" type="nothing"/>"#, "src-resolve", 2);
    has(r#"<xs:element name="a" type="p:t"/>"#, "src-resolve", 2);
    has(
        r#"<xs:element name="a"/>
<xs:element name="a"/>"#,
        "sch-props-correct",
        3,
    );
    has(
        r#"<xs:complexType name="a"><xs:complexContent><xs:extension base="b"/></xs:complexContent></xs:complexType>
<xs:complexType name="b"><xs:complexContent><xs:extension base="a"/></xs:complexContent></xs:complexType>"#,
        "ct-props-correct",
        3,
    );
    has(
        r#"<xs:group name="g"><xs:sequence><xs:group ref="g"/></xs:sequence></xs:group>"#,
        "mg-props-correct",
        2,
    );
    has(
        r#"<xs:attributeGroup name="g"><xs:attributeGroup ref="g"/></xs:attributeGroup>
<xs:complexType name="t"><xs:attributeGroup ref="g"/></xs:complexType>"#,
        "src-attribute_group",
        2,
    );
}

#[test]
fn particles_and_all_groups() {
    has(
        r#"<xs:complexType name="t"><xs:sequence>
<xs:element name="a" minOccurs="3" maxOccurs="2"/></xs:sequence></xs:complexType>"#,
        "p-props-correct",
        3,
    );
    has(
        r#"<xs:complexType name="t"><xs:sequence>
<xs:all><xs:element name="a"/></xs:all></xs:sequence></xs:complexType>"#,
        "cos-all-limited",
        3,
    );
    has(
        r#"<xs:group name="g"><xs:all><xs:element name="a"/></xs:all></xs:group>
<xs:complexType name="t"><xs:sequence>
<xs:group ref="g"/></xs:sequence></xs:complexType>"#,
        "cos-all-limited",
        4,
    );
    // A huge maxOccurs saturates instead of allocating.
    let s = ok(r#"<xs:complexType name="t"><xs:sequence>
<xs:element name="a" maxOccurs="99999999999999999999999"/></xs:sequence></xs:complexType>"#);
    let ContentType::Elements { particle, .. } = &s.complex_type(complex(&s, "t")).content else {
        panic!()
    };
    let Term::Group(g) = particle.term else {
        panic!()
    };
    assert_eq!(
        s.model_group(g).particles[0].max_occurs,
        MaxOccurs::Unbounded
    );
}

#[test]
fn declaration_properties() {
    has(
        r#"<xs:element name="a" type="xs:int" default="x"/>"#,
        "e-props-correct",
        2,
    );
    has(
        r#"<xs:attribute name="a" type="xs:ID" fixed="x"/>"#,
        "a-props-correct",
        2,
    );
    has(r#"<xs:attribute name="xmlns"/>"#, "no-xmlns", 2);
    has(
        r#"<xs:element name="head" type="xs:int"/>
<xs:element name="member" type="xs:string" substitutionGroup="head"/>"#,
        "e-props-correct",
        3,
    );
}

#[test]
fn substitution_groups() {
    let s = ok(
        r#"<xs:element name="head" type="xs:anyType" abstract="true"/>
<xs:element name="m1" substitutionGroup="head"/>
<xs:element name="m2" substitutionGroup="m1"/>
<xs:element name="other"/>"#,
    );
    let head = s.global_element(name(&s, "head")).unwrap();
    let m1 = s.global_element(name(&s, "m1")).unwrap();
    let m2 = s.global_element(name(&s, "m2")).unwrap();
    assert_eq!(s.substitution_group(head), &[head, m1, m2]);
    assert_eq!(s.substitution_group(m2), &[m2]);
    assert_eq!(s.element(m2).substitution_group, Some(m1));
    // The member without a type gets the head's.
    assert_eq!(s.element(m1).type_def, TypeId::ANY_TYPE);
    has(
        r#"<xs:element name="a" substitutionGroup="b"/>
<xs:element name="b" substitutionGroup="a"/>"#,
        "e-props-correct",
        3,
    );
}

#[test]
fn complex_restrictions() {
    let base = r#"<xs:complexType name="base">
  <xs:sequence><xs:element name="x" type="xs:string" maxOccurs="3"/></xs:sequence>
  <xs:attribute name="a" type="xs:string" use="required"/>
</xs:complexType>"#;
    let good = format!(
        r#"{base}
<xs:complexType name="r"><xs:complexContent><xs:restriction base="base">
  <xs:sequence><xs:element name="x" type="xs:token" maxOccurs="2"/></xs:sequence>
  <xs:attribute name="a" type="xs:string" use="required"/>
</xs:restriction></xs:complexContent></xs:complexType>"#
    );
    ok(&good);
    let bad = format!(
        r#"{base}
<xs:complexType name="r"><xs:complexContent><xs:restriction base="base">
  <xs:sequence><xs:element name="x" type="xs:string" maxOccurs="4"/></xs:sequence>
  <xs:attribute name="a" type="xs:string" use="required"/>
</xs:restriction></xs:complexContent></xs:complexType>"#
    );
    has(&bad, "derivation-ok-restriction", 6);
    let missing_attr = format!(
        r#"{base}
<xs:complexType name="r"><xs:complexContent><xs:restriction base="base">
  <xs:sequence><xs:element name="x" type="xs:string"/></xs:sequence>
  <xs:attribute name="a" type="xs:string" use="optional"/>
</xs:restriction></xs:complexContent></xs:complexType>"#
    );
    has(&missing_attr, "derivation-ok-restriction", 6);
    has(
        r#"<xs:complexType name="f" final="extension"/>
<xs:complexType name="e"><xs:complexContent><xs:extension base="f"/></xs:complexContent></xs:complexType>"#,
        "cos-ct-extends",
        3,
    );
}

#[test]
fn wildcards() {
    let s = ok(
        r###"<xs:attributeGroup name="g"><xs:anyAttribute namespace="urn:a urn:b"/></xs:attributeGroup>
<xs:complexType name="t">
  <xs:sequence><xs:any namespace="##other" processContents="lax"/></xs:sequence>
  <xs:attributeGroup ref="g"/>
  <xs:anyAttribute namespace="urn:b urn:c" processContents="skip"/>
</xs:complexType>"###,
    );
    let t = s.complex_type(complex(&s, "t"));
    let w = t.attribute_wildcard.as_ref().unwrap();
    let b = s.names().lookup_namespace("urn:b").unwrap();
    assert_eq!(
        w.namespaces,
        NamespaceConstraint::Set(vec![b]),
        "intersection"
    );
    assert_eq!(w.process, ProcessContents::Skip);
    let any = Wildcard {
        namespaces: NamespaceConstraint::Any,
        process: ProcessContents::Strict,
    };
    let u = super::wildcard::union(w, &any).unwrap();
    assert_eq!(u.namespaces, NamespaceConstraint::Any);
}

#[test]
fn identity_constraints() {
    let s = ok(r#"<xs:element name="root">
  <xs:complexType><xs:sequence><xs:element name="item" maxOccurs="unbounded">
    <xs:complexType><xs:attribute name="id" type="xs:string"/></xs:complexType>
  </xs:element></xs:sequence></xs:complexType>
  <xs:key name="k"><xs:selector xpath=".//item | item"/><xs:field xpath="@id"/></xs:key>
  <xs:keyref name="r" refer="k"><xs:selector xpath="item"/><xs:field xpath="@id"/></xs:keyref>
</xs:element>"#);
    let root = s.element(s.global_element(name(&s, "root")).unwrap());
    assert_eq!(root.identity_constraints.len(), 2);
    let k = s.identity_constraint(root.identity_constraints[0]);
    assert_eq!(k.kind, IdentityKind::Key);
    assert_eq!(k.selector.len(), 2);
    assert!(k.selector[0].descendants);
    assert_eq!(
        k.fields[0].0[0].attribute,
        Some(NameTest::Name(
            crate::model::NamespaceId::ABSENT,
            "id".into()
        ))
    );
    let r = s.identity_constraint(root.identity_constraints[1]);
    assert_eq!(r.kind, IdentityKind::KeyRef(root.identity_constraints[0]));
    has(
        r#"<xs:element name="root"><xs:unique name="u"><xs:selector xpath="../a"/><xs:field xpath="."/></xs:unique></xs:element>"#,
        "c-selector-xpath",
        2,
    );
    has(
        r#"<xs:element name="root"><xs:keyref name="u" refer="nokey"><xs:selector xpath="a"/><xs:field xpath="."/></xs:keyref></xs:element>"#,
        "src-resolve",
        2,
    );
}

#[test]
fn annotations_and_notations() {
    let s = ok(r#"<xs:element name="a">
  <xs:annotation><xs:documentation>The <b>a</b> element.</xs:documentation><xs:appinfo>info</xs:appinfo></xs:annotation>
</xs:element>
<xs:notation name="gif" public="image/gif"/>"#);
    let a = s.element(s.global_element(name(&s, "a")).unwrap());
    assert_eq!(
        a.annotation.documentation,
        vec!["The a element.".to_string()]
    );
    assert_eq!(a.annotation.appinfo, vec!["info".to_string()]);
    let n = s.notation(s.global_notation(name(&s, "gif")).unwrap());
    assert_eq!(n.public.as_deref(), Some("image/gif"));
}

#[test]
fn target_namespace_and_forms() {
    let s = load_ns(
        r#"<xs:element name="a"><xs:complexType><xs:sequence>
<xs:element name="b" form="unqualified"/><xs:element name="c"/></xs:sequence>
<xs:attribute name="d"/></xs:complexType></xs:element>"#,
    )
    .unwrap();
    let t = s.names().lookup_namespace("urn:t").unwrap();
    assert!(s.names().lookup(t, "a").is_some());
    assert!(s
        .names()
        .lookup(crate::model::NamespaceId::ABSENT, "b")
        .is_some());
    assert!(s.names().lookup(t, "c").is_some());
    assert!(s
        .names()
        .lookup(crate::model::NamespaceId::ABSENT, "d")
        .is_some());
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xwire-load-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn include_chameleon_cycles_and_redefine() {
    let dir = temp_dir("include");
    std::fs::write(
        dir.join("main.xsd"),
        format!(
            r#"<xs:schema {XS} targetNamespace="urn:m" xmlns="urn:m">
  <xs:include schemaLocation="cham.xsd"/>
  <xs:include schemaLocation="main.xsd"/>
  <xs:include schemaLocation="missing.xsd"/>
  <xs:redefine schemaLocation="red.xsd">
    <xs:simpleType name="r"><xs:restriction base="r"><xs:maxLength value="3"/></xs:restriction></xs:simpleType>
  </xs:redefine>
  <xs:element name="e" type="c"/>
  <xs:element name="f" type="r"/>
</xs:schema>"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("cham.xsd"),
        format!(r#"<xs:schema {XS}><xs:include schemaLocation="main.xsd"/><xs:complexType name="c"><xs:sequence><xs:element ref="e" minOccurs="0"/></xs:sequence></xs:complexType></xs:schema>"#),
    )
    .unwrap();
    std::fs::write(
        dir.join("red.xsd"),
        format!(r#"<xs:schema {XS}><xs:simpleType name="r"><xs:restriction base="xs:string"/></xs:simpleType></xs:schema>"#),
    )
    .unwrap();
    let s = Schema::load(dir.join("main.xsd")).unwrap();
    let m = s.names().lookup_namespace("urn:m").unwrap();
    let c = s.global_type(s.names().lookup(m, "c").unwrap()).unwrap();
    let e = s.element(s.global_element(s.names().lookup(m, "e").unwrap()).unwrap());
    assert_eq!(e.type_def, c);
    let TypeId::Simple(r) = s.global_type(s.names().lookup(m, "r").unwrap()).unwrap() else {
        panic!()
    };
    assert_eq!(
        s.simple_type(r).facets.max_length.as_ref().map(|f| f.value),
        Some(3)
    );
    assert!(s.validate_simple(r, "abcd", &|_| None).is_err());
    assert_eq!(s.files().count(), 3);

    // A document that is not found: references into it fail with src-resolve.
    std::fs::write(
        dir.join("imp.xsd"),
        format!(r#"<xs:schema {XS} xmlns:o="urn:other"><xs:import namespace="urn:other" schemaLocation="http://example.com/o.xsd"/><xs:element name="x" type="o:t"/></xs:schema>"#),
    )
    .unwrap();
    let errs = Schema::load(dir.join("imp.xsd")).unwrap_err();
    assert_eq!(errs.0[0].constraint, "src-resolve");
    assert_eq!(errs.0[0].position.map(|p| p.0), Some(1));

    // The catalog maps the namespace to a local file.
    std::fs::write(
        dir.join("o.xsd"),
        format!(r#"<xs:schema {XS} targetNamespace="urn:other"><xs:simpleType name="t"><xs:restriction base="xs:int"/></xs:simpleType></xs:schema>"#),
    )
    .unwrap();
    std::fs::write(
        dir.join("catalog.xml"),
        r#"<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://example.com/o.xsd" uri="o.xsd"/></catalog>"#,
    )
    .unwrap();
    let options = LoadOptions {
        catalog: Catalog::from_file(&dir.join("catalog.xml")).unwrap(),
        ..LoadOptions::default()
    };
    let s = Schema::load_with(&[dir.join("imp.xsd")], &options).unwrap();
    assert_eq!(s.files().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_gives_errors() {
    for text in [
        "",
        "not xml",
        "<a/>",
        "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:element",
        "\u{0}\u{1}\u{2}",
    ] {
        assert!(
            Schema::parse_str(text, &LoadOptions::default()).is_err(),
            "{text:?}"
        );
    }
    let deep = format!(
        "<xs:schema {XS}>{}{}</xs:schema>",
        "<xs:annotation>".repeat(5000),
        "</xs:annotation>".repeat(5000)
    );
    assert!(Schema::parse_str(&deep, &LoadOptions::default()).is_err());
    let mut nested = String::from(r#"<xs:element name="e0"><xs:complexType><xs:sequence>"#);
    for i in 1..60 {
        nested.push_str(&format!(
            r#"<xs:element name="e{i}"><xs:complexType><xs:sequence>"#
        ));
    }
    for _ in 0..60 {
        nested.push_str("</xs:sequence></xs:complexType></xs:element>");
    }
    assert!(load(&nested).is_ok());
}

/// The shared corpora: `$XWIRE_CORPORA` or `../shared/corpora` next to the repository.
fn corpora() -> Option<PathBuf> {
    let dir = std::env::var_os("XWIRE_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"));
    if dir.join("xsd-primer").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("the corpora are missing under CI: {}", dir.display());
    }
    eprintln!("skipped: no corpora at {}", dir.display());
    None
}

#[test]
fn primer_schemas_load() {
    let Some(dir) = corpora() else { return };
    let primer = dir.join("xsd-primer");
    let count = |s: &Schema| {
        (
            s.global_elements().count(),
            s.global_types().count() - Builtin::ALL.len() - 1,
            s.files().count(),
        )
    };
    let po = Schema::load(primer.join("po.xsd")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count(&po), (2, 4, 1));
    let ipo = Schema::load(primer.join("ipo.xsd")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count(&ipo), IPO);
    let ns = ipo
        .names()
        .lookup_namespace("http://www.example.com/IPO")
        .unwrap();
    let ty = |local: &str| {
        ipo.global_type(ipo.names().lookup(ns, local).unwrap())
            .unwrap()
    };
    let none = crate::model::DerivationSet::EMPTY;
    assert!(ipo.derives_from(ty("USAddress"), ty("Address"), none));
    assert!(ipo.derives_from(ty("UKAddress"), ty("Address"), none));
    let TypeId::Complex(us) = ty("USAddress") else {
        panic!()
    };
    assert_eq!(ipo.complex_type(us).derivation, Derivation::Extension);
    let TypeId::Simple(uk_postcode) = ty("UKPostcode") else {
        panic!()
    };
    let TypeId::Simple(postcode) = ty("Postcode") else {
        panic!()
    };
    assert_eq!(ipo.simple_type(uk_postcode).base, TypeId::Simple(postcode));
    assert_eq!(ipo.simple_type(uk_postcode).facets.patterns.len(), 1);
    let po1 = Schema::load(primer.join("po1.xsd")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count(&po1), PO1);
    for i in 1..=6 {
        let path = primer.join(format!("boeing/ipo{i}/ipo.xsd"));
        let s = Schema::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(s.global_elements().count() >= 2, "{}", path.display());
    }
}

const IPO: (usize, usize, usize) = (2, 9, 2);
const PO1: (usize, usize, usize) = (2, 4, 1);

#[test]
fn pathological_schemas_finish() {
    use std::fmt::Write;
    let start = std::time::Instant::now();
    // Long derivation chains (deeper than the completion guard).
    let mut body = String::from(
        r#"<xs:complexType name="c0"><xs:sequence><xs:element name="e"/></xs:sequence></xs:complexType>
<xs:simpleType name="s0"><xs:restriction base="xs:string"/></xs:simpleType>
<xs:element name="h0"/>"#,
    );
    for i in 1..400 {
        let _ = write!(
            body,
            r#"<xs:complexType name="c{i}"><xs:complexContent><xs:restriction base="c{}"><xs:sequence><xs:element name="e"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>
<xs:simpleType name="s{i}"><xs:restriction base="s{}"/></xs:simpleType>
<xs:element name="h{i}" substitutionGroup="h{}"/>"#,
            i - 1,
            i - 1,
            i - 1
        );
    }
    let _ = load(&body);
    eprintln!("chains {:?}", start.elapsed());
    // Groups and unions shared at every level (exponential if expanded).
    let mut body = String::new();
    for i in 0..60 {
        let _ = write!(
            body,
            r#"<xs:group name="g{i}"><xs:sequence><xs:group ref="g{j}"/><xs:group ref="g{j}" minOccurs="0"/></xs:sequence></xs:group>
<xs:simpleType name="u{i}"><xs:union memberTypes="u{j} u{j}"/></xs:simpleType>"#,
            j = i + 1
        );
    }
    body.push_str(r#"<xs:group name="g60"><xs:sequence><xs:element name="x"/></xs:sequence></xs:group>
<xs:simpleType name="u60"><xs:restriction base="xs:int"/></xs:simpleType>
<xs:complexType name="b"><xs:group ref="g0"/></xs:complexType>
<xs:complexType name="r"><xs:complexContent><xs:restriction base="b"><xs:group ref="g0"/></xs:restriction></xs:complexContent></xs:complexType>
<xs:element name="v" type="u0" default="1"/>
<xs:group name="loop"><xs:sequence><xs:group ref="loop"/><xs:group ref="loop"/></xs:sequence></xs:group>
<xs:complexType name="lb"><xs:group ref="loop"/></xs:complexType>
<xs:complexType name="lr"><xs:complexContent><xs:restriction base="lb"><xs:group ref="loop"/></xs:restriction></xs:complexContent></xs:complexType>"#);
    assert!(load(&body).is_err());
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[test]
fn simple_content_and_notations() {
    let s = ok(r#"<xs:complexType name="price">
  <xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string"/></xs:extension></xs:simpleContent>
</xs:complexType>
<xs:complexType name="small">
  <xs:simpleContent><xs:restriction base="price"><xs:maxInclusive value="100"/></xs:restriction></xs:simpleContent>
</xs:complexType>"#);
    let small = s.complex_type(complex(&s, "small"));
    let ContentType::Simple(st) = small.content else {
        panic!()
    };
    assert!(s.validate_simple(st, "99.5", &|_| None).is_ok());
    assert!(s.validate_simple(st, "100.5", &|_| None).is_err());
    assert_eq!(small.attribute_uses.len(), 1, "inherited from the base");
    has(
        r#"<xs:complexType name="t">
  <xs:simpleContent><xs:restriction base="xs:string"/></xs:simpleContent></xs:complexType>"#,
        "src-ct",
        3,
    );
    has(r#"<xs:notation name="n"/>"#, "s4s", 2);
    has(
        r#"<xs:notation name="png" public="image/png"/>
<xs:simpleType name="pic"><xs:restriction base="xs:NOTATION">
<xs:enumeration value="png"/><xs:enumeration value="jpeg"/></xs:restriction></xs:simpleType>"#,
        "enumeration-valid-restriction",
        4,
    );
    has(
        r#"<xs:element name="a"><xs:annotation><xs:documentation xml:lang="">x</xs:documentation></xs:annotation></xs:element>"#,
        "s4s",
        2,
    );
    has(
        r#"<xs:simpleType name="a" id="x"><xs:restriction base="xs:int"/></xs:simpleType>
<xs:simpleType name="b" id="x"><xs:restriction base="xs:int"/></xs:simpleType>"#,
        "s4s",
        3,
    );
}

#[test]
fn redefine_errors() {
    let dir = temp_dir("redefine");
    std::fs::write(
        dir.join("orig.xsd"),
        format!(
            r#"<xs:schema {XS}>
<xs:attributeGroup name="ag"><xs:attribute name="a" use="required"/></xs:attributeGroup>
<xs:group name="g"><xs:sequence><xs:element name="x" minOccurs="0"/></xs:sequence></xs:group>
<xs:complexType name="t"/>
</xs:schema>"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("main.xsd"),
        format!(
            r#"<xs:schema {XS}>
<xs:redefine schemaLocation="orig.xsd">
  <xs:attributeGroup name="ag"><xs:attribute name="b"/></xs:attributeGroup>
  <xs:group name="g"><xs:sequence><xs:element name="y"/></xs:sequence></xs:group>
  <xs:complexType name="t"><xs:sequence/></xs:complexType>
  <xs:simpleType name="nothing"><xs:restriction base="xs:int"/></xs:simpleType>
</xs:redefine>
</xs:schema>"#
        ),
    )
    .unwrap();
    let errs = Schema::load(dir.join("main.xsd")).unwrap_err();
    let mut lines: Vec<u32> = errs
        .0
        .iter()
        .filter(|e| e.constraint == "src-redefine")
        .filter_map(|e| e.position.map(|p| p.0))
        .collect();
    lines.sort();
    lines.dedup();
    assert_eq!(lines, vec![3, 4, 5, 6], "{errs}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn group_cycles_in_large_graphs() {
    use std::fmt::Write;
    // A long chain of groups (no cycle) and a long cycle: both found quickly.
    let mut body = String::new();
    for i in 0..3000 {
        let _ = write!(
            body,
            r#"<xs:group name="g{i}"><xs:sequence><xs:element name="e"/><xs:group ref="g{}" minOccurs="0"/></xs:sequence></xs:group>"#,
            i + 1
        );
    }
    body.push_str(
        r#"<xs:group name="g3000"><xs:sequence><xs:element name="e"/></xs:sequence></xs:group>"#,
    );
    let start = std::time::Instant::now();
    ok(&body);
    let cyclic = body.replace(
        r#"<xs:group name="g3000"><xs:sequence><xs:element name="e"/></xs:sequence></xs:group>"#,
        r#"<xs:group name="g3000"><xs:sequence><xs:group ref="g0"/></xs:sequence></xs:group>"#,
    );
    let errs = load(&cyclic).unwrap_err();
    // Every group of the cycle, up to the error limit.
    assert_eq!(
        errs.0
            .iter()
            .filter(|e| e.constraint == "mg-props-correct")
            .count(),
        1000
    );
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    assert_eq!(
        super::checks::strongly_cyclic(&[vec![1], vec![0], vec![2], vec![]]),
        vec![0, 1, 2]
    );
}

#[test]
fn version_control_attributes_select_what_xsd_1_0_sees() {
    let vc = r#"xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning""#;
    let s = ok(&format!(
        r#"<xs:element name="a" {vc}>
             <xs:complexType>
               <xs:attribute name="x"/>
               <xs:assert test="@x > 3" vc:minVersion="1.1"/>
               <xs:attribute name="y" type="xs:error" vc:typeAvailable="xs:error"/>
               <xs:attribute name="y" type="xs:int" vc:typeUnavailable="xs:error"/>
               <xs:attribute name="z" type="xs:int" vc:maxVersion="1.0"/>
               <xs:attribute name="w" type="xs:int" vc:minVersion="1.0" vc:facetAvailable="xs:pattern"/>
             </xs:complexType>
           </xs:element>"#
    ));
    let a = s.global_element(name(&s, "a")).unwrap();
    let TypeId::Complex(ct) = s.element(a).type_def else {
        panic!("complex")
    };
    let attrs: Vec<&str> = s
        .complex_type(ct)
        .attribute_uses
        .iter()
        .map(|u| s.names().local(s.attribute(u.decl).name))
        .collect();
    assert_eq!(attrs, ["x", "y", "w"]);
}

/// A QName's fixed or default value is resolved where the schema writes it, on a local
/// declaration's use and on a reference alike (not left for the instance to resolve).
#[test]
fn qname_value_constraints_resolve_in_the_schema() {
    let s = ok(r#"<xs:attribute name="g" type="xs:QName"/>
<xs:complexType name="T" xmlns:p="urn:p">
  <xs:attribute name="local" type="xs:QName" fixed="p:x"/>
  <xs:attribute ref="g" default="xs:int"/>
</xs:complexType>"#);
    let Some(TypeId::Complex(t)) = s.global_type(name(&s, "T")) else {
        panic!()
    };
    let values: Vec<String> = s
        .complex_type(t)
        .attribute_uses
        .iter()
        .map(|u| {
            match u
                .effective_value_constraint(&s)
                .and_then(|vc| vc.value.as_ref())
            {
                Some(Value::QName {
                    namespace, local, ..
                }) => format!("{{{namespace}}}{local}"),
                other => format!("{other:?}"),
            }
        })
        .collect();
    assert_eq!(
        values,
        ["{urn:p}x", "{http://www.w3.org/2001/XMLSchema}int"]
    );
}
