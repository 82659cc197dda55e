//! Identity constraints over the post-validation infoset: default attribute values take part
//! in fields, and QName fields compare by namespace and local name.

use xwire_schema::model::Schema;
use xwire_schema::validate::{validate_bytes, ValidationOptions};

fn schema(text: &str) -> Schema {
    Schema::parse_str(text, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn constraints(s: &Schema, xml: &str) -> Vec<&'static str> {
    match validate_bytes(s, xml.as_bytes(), &ValidationOptions::default()) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(|e| e.constraint).collect(),
    }
}

#[test]
fn defaulted_attributes_are_field_values() {
    let s = schema(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="root">
    <xs:complexType><xs:sequence><xs:element ref="uid" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
    <xs:unique name="u"><xs:selector xpath="uid"/><xs:field xpath="@val"/></xs:unique>
  </xs:element>
  <xs:element name="uid">
    <xs:complexType><xs:attribute name="val" type="xs:string" default="test"/></xs:complexType>
  </xs:element>
</xs:schema>"#,
    );
    assert_eq!(
        constraints(&s, r#"<root><uid val="a"/><uid/></root>"#),
        Vec::<&str>::new()
    );
    assert_eq!(
        constraints(&s, r#"<root><uid val="test"/><uid/></root>"#),
        ["cvc-identity-constraint.4.1"]
    );
}

#[test]
fn qname_fields_compare_resolved_names() {
    let s = schema(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="root">
    <xs:complexType><xs:choice maxOccurs="unbounded">
      <xs:element name="key" type="xs:QName"/><xs:element name="ref" type="xs:QName"/>
    </xs:choice></xs:complexType>
    <xs:key name="k"><xs:selector xpath="key"/><xs:field xpath="."/></xs:key>
    <xs:keyref name="r" refer="k"><xs:selector xpath="ref"/><xs:field xpath="."/></xs:keyref>
  </xs:element>
</xs:schema>"#,
    );
    let ok = r#"<root xmlns:p="urn:a" xmlns:q="urn:a"><key>p:x</key><ref>q:x</ref></root>"#;
    assert_eq!(constraints(&s, ok), Vec::<&str>::new());
    let dup = r#"<root xmlns:p="urn:a" xmlns:q="urn:a"><key>p:x</key><key>q:x</key></root>"#;
    assert_eq!(constraints(&s, dup), ["cvc-identity-constraint.4.2.2"]);
    let dangling = r#"<root xmlns:p="urn:a" xmlns:q="urn:b"><key>p:x</key><ref>q:x</ref></root>"#;
    assert_eq!(constraints(&s, dangling), ["cvc-identity-constraint.4.3"]);
}

#[test]
fn a_field_selecting_two_elements_is_an_error_even_without_simple_values() {
    let s = schema(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="root">
    <xs:complexType><xs:sequence><xs:element ref="uid" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
    <xs:unique name="u"><xs:selector xpath="uid"/><xs:field xpath="pid"/></xs:unique>
  </xs:element>
  <xs:element name="uid">
    <xs:complexType><xs:sequence><xs:element name="pid" type="xs:string" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>"#,
    );
    assert_eq!(
        constraints(&s, "<root><uid><pid>a</pid></uid></root>"),
        Vec::<&str>::new()
    );
    assert_eq!(
        constraints(&s, "<root><uid><pid>a</pid><pid>b</pid></uid></root>"),
        ["cvc-identity-constraint.3"]
    );
}

#[test]
fn a_field_must_select_an_element_with_a_simple_type() {
    let s = schema(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="root">
    <xs:complexType><xs:sequence><xs:element ref="uid" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
    <xs:key name="k"><xs:selector xpath="uid"/><xs:field xpath="*"/></xs:key>
  </xs:element>
  <xs:element name="uid">
    <xs:complexType><xs:choice>
      <xs:element name="text" type="xs:string"/>
      <xs:element name="priced"><xs:complexType><xs:simpleContent>
        <xs:extension base="xs:decimal"><xs:attribute name="cur" type="xs:string"/></xs:extension>
      </xs:simpleContent></xs:complexType></xs:element>
      <xs:element name="any"/>
      <xs:element name="nested"><xs:complexType><xs:sequence>
        <xs:element name="x" type="xs:string"/>
      </xs:sequence></xs:complexType></xs:element>
    </xs:choice></xs:complexType>
  </xs:element>
</xs:schema>"#,
    );
    // Simple types and simple content are fine.
    let ok = r#"<root><uid><text>a</text></uid><uid><priced cur="EUR">1.5</priced></uid></root>"#;
    assert_eq!(constraints(&s, ok), Vec::<&str>::new());
    // anyType (no type given) and element-only content are not simple.
    assert_eq!(
        constraints(&s, "<root><uid><any>a</any></uid></root>"),
        ["cvc-identity-constraint.3"]
    );
    assert_eq!(
        constraints(&s, "<root><uid><nested><x>a</x></nested></uid></root>"),
        ["cvc-identity-constraint.3"]
    );
}
