//! What the planner makes of the schema constructs a binding must handle: each test writes a
//! small schema, plans it and checks the items, fields and types.

use xwire_codegen::plan::{self, IntType, ItemKind, Occurs, Plan, Prim, Ty};

/// Calls `f` with the path of a schema document whose `xs:schema` element holds `body`
/// (prefix `xs`, no target namespace), removed afterwards.
fn with_schema<T>(body: &str, f: impl FnOnce(&std::path::Path) -> T) -> T {
    let dir = std::env::temp_dir().join(format!(
        "xwire-codegen-plan-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.xsd");
    let xsd =
        format!(r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">{body}</xs:schema>"#);
    std::fs::write(&path, xsd).unwrap();
    let out = f(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

/// Plans a schema whose `xs:schema` element holds `body`.
fn plan_of(body: &str) -> Plan {
    with_schema(body, |path| {
        let schema = xwire_schema::model::Schema::load(path).expect("schema loads");
        plan::plan(&schema).expect("plans")
    })
}

/// The fields of struct `name`: (field name, type, occurrence, boxed).
fn fields(p: &Plan, name: &str) -> Vec<(String, Ty, Occurs, bool)> {
    match &p
        .find(name)
        .unwrap_or_else(|| panic!("no item {name}"))
        .kind
    {
        ItemKind::Struct { fields } => fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone(), f.occurs, f.boxed))
            .collect(),
        k => panic!("{name} is not a struct: {k:?}"),
    }
}

fn item_ty(p: &Plan, name: &str) -> Ty {
    let i = p.items.iter().position(|i| i.name == name).unwrap();
    Ty::Item(plan::ItemId(i))
}

#[test]
fn integers_are_sized_by_their_range() {
    let p = plan_of(
        r#"<xs:complexType name="T"><xs:sequence>
             <xs:element name="a" type="xs:int"/>
             <xs:element name="b" type="xs:unsignedShort"/>
             <xs:element name="c" type="xs:integer"/>
             <xs:element name="d"><xs:simpleType><xs:restriction base="xs:int">
               <xs:minInclusive value="-5"/><xs:maxExclusive value="100"/></xs:restriction></xs:simpleType></xs:element>
             <xs:element name="e"><xs:simpleType><xs:restriction base="xs:nonNegativeInteger">
               <xs:maxInclusive value="70000"/></xs:restriction></xs:simpleType></xs:element>
             <xs:element name="f" type="xs:long"/>
             <xs:element name="g" type="xs:positiveInteger"/>
           </xs:sequence></xs:complexType>"#,
    );
    let tys: Vec<Ty> = fields(&p, "T").into_iter().map(|f| f.1).collect();
    use IntType::*;
    let int = |t| Ty::Prim(Prim::Int(t));
    assert_eq!(
        tys,
        [
            int(I32),
            int(U16),
            Ty::Prim(Prim::Integer),
            int(I8),
            int(U32),
            int(I64),
            Ty::Prim(Prim::Integer)
        ]
    );
}

#[test]
fn occurrence_is_option_and_vec() {
    let p = plan_of(
        r#"<xs:complexType name="T"><xs:sequence>
             <xs:element name="one" type="xs:string"/>
             <xs:element name="maybe" type="xs:string" minOccurs="0"/>
             <xs:element name="many" type="xs:string" maxOccurs="unbounded"/>
             <xs:element name="two" type="xs:string" minOccurs="2" maxOccurs="2"/>
           </xs:sequence></xs:complexType>"#,
    );
    let occurs: Vec<Occurs> = fields(&p, "T").into_iter().map(|f| f.2).collect();
    assert_eq!(
        occurs,
        [
            Occurs::One,
            Occurs::Optional,
            Occurs::Many { min: 1, max: None },
            Occurs::Many {
                min: 2,
                max: Some(2)
            }
        ]
    );
}

#[test]
fn a_type_that_contains_itself_is_boxed_where_the_cycle_closes() {
    let p = plan_of(
        r#"<xs:complexType name="Node"><xs:sequence>
             <xs:element name="next" type="Node" minOccurs="0"/>
             <xs:element name="children" type="Node" minOccurs="0" maxOccurs="unbounded"/>
             <xs:element name="pair" type="Pair"/>
           </xs:sequence></xs:complexType>
           <xs:complexType name="Pair"><xs:sequence>
             <xs:element name="left" type="Node" minOccurs="0"/>
           </xs:sequence></xs:complexType>"#,
    );
    let node: Vec<(String, bool)> = fields(&p, "Node").into_iter().map(|f| (f.0, f.3)).collect();
    // `children` is a Vec (already behind a pointer); `pair` leads back through Pair.left.
    assert_eq!(
        node,
        [
            ("next".into(), true),
            ("children".into(), false),
            ("pair".into(), true)
        ]
    );
    assert!(
        fields(&p, "Pair")[0].3,
        "Pair.left closes the cycle from Pair's side too"
    );
}

#[test]
fn choices_become_enums_and_repeated_sequences_structs() {
    let p = plan_of(
        r#"<xs:complexType name="T"><xs:sequence>
             <xs:choice>
               <xs:element name="a" type="xs:string"/>
               <xs:element name="b" type="xs:int" maxOccurs="3"/>
             </xs:choice>
             <xs:sequence maxOccurs="unbounded">
               <xs:element name="k" type="xs:string"/>
               <xs:element name="v" type="xs:string"/>
             </xs:sequence>
           </xs:sequence></xs:complexType>"#,
    );
    let f = fields(&p, "T");
    assert_eq!(f[0].0, "choice");
    assert_eq!(f[0].1, item_ty(&p, "TChoice"));
    match &p.find("TChoice").unwrap().kind {
        ItemKind::Choice { variants } => {
            let v: Vec<(&str, Occurs)> = variants
                .iter()
                .map(|v| (v.name.as_str(), v.occurs))
                .collect();
            assert_eq!(
                v,
                [
                    ("A", Occurs::One),
                    (
                        "B",
                        Occurs::Many {
                            min: 1,
                            max: Some(3)
                        }
                    )
                ]
            );
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(
        (f[1].0.as_str(), f[1].2),
        ("sequence", Occurs::Many { min: 1, max: None })
    );
    let kv: Vec<String> = fields(&p, "TSequence").into_iter().map(|f| f.0).collect();
    assert_eq!(kv, ["k", "v"]);
}

#[test]
fn mixed_content_is_the_elements_fields_and_the_text_between() {
    let p = plan_of(
        r#"<xs:element name="para"><xs:complexType mixed="true"><xs:sequence>
             <xs:element name="b" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
             <xs:element name="i" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
           </xs:sequence></xs:complexType></xs:element>"#,
    );
    let f = fields(&p, "Para");
    let names: Vec<&str> = f.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["b", "i", "text"]);
    assert_eq!(f[2].1, Ty::Prim(Prim::MixedText));
    assert_eq!(f[2].2, Occurs::Many { min: 0, max: None });
    // No enum of text and elements: the fields keep their types.
    assert!(p.find("ParaContent").is_none());
}

#[test]
fn simple_types_become_enums_newtypes_lists_and_unions() {
    let p = plan_of(
        r#"<xs:simpleType name="Color"><xs:restriction base="xs:token">
             <xs:enumeration value="red"/><xs:enumeration value="dark-blue"/></xs:restriction></xs:simpleType>
           <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/></xs:restriction></xs:simpleType>
           <xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
           <xs:simpleType name="IntOrColor"><xs:union memberTypes="xs:int Color"/></xs:simpleType>
           <xs:complexType name="T"><xs:sequence>
             <xs:element name="ints" type="Ints"/>
             <xs:element name="either" type="IntOrColor"/>
           </xs:sequence><xs:attribute name="code" type="Code" use="required"/></xs:complexType>"#,
    );
    match &p.find("Color").unwrap().kind {
        ItemKind::Enumeration { values, .. } => assert_eq!(
            values,
            &[
                ("Red".to_string(), "red".to_string()),
                ("DarkBlue".to_string(), "dark-blue".to_string())
            ]
        ),
        k => panic!("{k:?}"),
    }
    assert_eq!(
        p.find("Code").unwrap().kind,
        ItemKind::Newtype {
            inner: Ty::Prim(Prim::String)
        }
    );
    let t = fields(&p, "T");
    assert_eq!((t[0].0.as_str(), &t[0].1), ("code", &item_ty(&p, "Code")));
    assert_eq!(
        t[1].1,
        Ty::List(Box::new(Ty::Prim(Prim::Int(IntType::I32))))
    );
    match &p.find("IntOrColor").unwrap().kind {
        ItemKind::Union { members } => {
            assert_eq!(
                members[0],
                ("Int".to_string(), Ty::Prim(Prim::Int(IntType::I32)))
            );
            assert_eq!(members[1], ("Color".to_string(), item_ty(&p, "Color")));
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn substitution_groups_and_xsi_type_families_are_enums() {
    let p = plan_of(
        r#"<xs:element name="shape" type="Shape" abstract="true"/>
           <xs:element name="circle" type="Circle" substitutionGroup="shape"/>
           <xs:element name="square" type="Shape" substitutionGroup="shape"/>
           <xs:complexType name="Shape"><xs:attribute name="id" type="xs:ID"/></xs:complexType>
           <xs:complexType name="Circle"><xs:complexContent><xs:extension base="Shape">
             <xs:attribute name="r" type="xs:double"/></xs:extension></xs:complexContent></xs:complexType>
           <xs:complexType name="Drawing"><xs:sequence>
             <xs:element ref="shape" maxOccurs="unbounded"/>
             <xs:element name="background" type="Shape"/>
           </xs:sequence></xs:complexType>"#,
    );
    let d = fields(&p, "Drawing");
    assert_eq!(d[0].1, item_ty(&p, "ShapeGroup"));
    match &p.find("ShapeGroup").unwrap().kind {
        // The abstract head cannot appear itself.
        ItemKind::Choice { variants } => {
            let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            assert_eq!(names, ["Circle", "Square"]);
        }
        k => panic!("{k:?}"),
    }
    // `background` may be a Shape or, by xsi:type, a Circle.
    assert_eq!(d[1].1, item_ty(&p, "ShapeFamily"));
    match &p.find("ShapeFamily").unwrap().kind {
        ItemKind::Choice { variants } => {
            let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            assert_eq!(names, ["Shape", "Circle"]);
        }
        k => panic!("{k:?}"),
    }
    let circle: Vec<String> = fields(&p, "Circle").into_iter().map(|f| f.0).collect();
    assert_eq!(
        circle,
        ["id", "r"],
        "an extension holds its base's attributes too"
    );
}

#[test]
fn names_that_collide_are_numbered_and_keywords_escaped() {
    let p = plan_of(
        r#"<xs:complexType name="Item"><xs:sequence>
             <xs:element name="type" type="xs:string"/>
             <xs:element name="Type" type="xs:string"/>
           </xs:sequence><xs:attribute name="type" type="xs:string"/></xs:complexType>
           <xs:element name="item"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
           <xs:complexType name="String"><xs:sequence/></xs:complexType>"#,
    );
    let f: Vec<String> = fields(&p, "Item").into_iter().map(|f| f.0).collect();
    assert_eq!(f, ["r#type", "type_2", "type_3"]);
    // The anonymous type of `item` cannot take the named type's name; `String` is the
    // prelude's.
    assert!(p.find("Item2").is_some());
    assert!(p.find("String2").is_some() && p.find("String").is_none());
}

#[test]
fn the_parsers_refuse_what_they_cannot_read_yet() {
    for (construct, body) in [
        (
            "a default or fixed value of QNames",
            r#"<xs:element name="r"><xs:complexType><xs:sequence>
             <xs:element name="e" type="xs:QName" fixed="xs:int"/>
             </xs:sequence></xs:complexType></xs:element>"#,
        ),
        (
            "a default or fixed value on mixed content",
            r#"<xs:element name="r"><xs:complexType><xs:sequence>
             <xs:element name="e" default="none"><xs:complexType mixed="true"><xs:sequence>
             <xs:element name="a" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>
             </xs:element></xs:sequence></xs:complexType></xs:element>"#,
        ),
    ] {
        with_schema(body, |path| {
            match xwire_codegen::Config::new().schema(path).generate() {
                Err(xwire_codegen::Error::Unsupported(m)) => {
                    assert!(m.contains(construct), "{construct}: {m}")
                }
                other => panic!("{construct}: {other:?}"),
            }
            // The types alone are generated.
            let types = xwire_codegen::Config::new()
                .schema(path)
                .parsers(false)
                .generate();
            assert!(types.is_ok(), "{construct}: {types:?}");
        });
    }
}

#[test]
fn a_schema_without_global_elements_has_readers_and_typed_roots_only() {
    let body = r#"<xs:complexType name="T">
             <xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence>
           </xs:complexType>"#;
    let code = with_schema(body, |path| {
        xwire_codegen::Config::new()
            .schema(path)
            .generate()
            .unwrap()
            .code
    });
    // A document is a root that its `xsi:type` types, or an error.
    let document = code
        .split("pub enum Document {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("a Document enum");
    let variants: Vec<&str> = document
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("///"))
        .collect();
    assert_eq!(variants, ["Undeclared(xwire::bind::Any<Document>),"]);
    assert!(code.contains("Err(c.unexpected(\"a global element (the schema declares none)\"))"));
    assert!(code.contains(
        "    pub fn read<Src: xwire::bind::Source>(c: &mut Src) -> Result<T, Src::Error> {"
    ));
}
