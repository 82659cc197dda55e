//! `xwire validate` and `xwire schema` end to end: exit codes, messages with positions, the
//! summary, and `--use-hints`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn xwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(args)
        .output()
        .expect("runs")
}

/// A fresh folder with these files in it.
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xwire-validate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

const SCHEMA: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
           targetNamespace="urn:orders" xmlns="urn:orders" elementFormDefault="qualified">
  <xs:element name="order">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="item" type="Item" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="id" type="xs:ID" use="required"/>
    </xs:complexType>
  </xs:element>
  <xs:complexType name="Item">
    <xs:sequence>
      <xs:element name="sku" type="Sku"/>
      <xs:element name="qty" type="xs:positiveInteger"/>
    </xs:sequence>
  </xs:complexType>
  <xs:simpleType name="Sku">
    <xs:restriction base="xs:string"><xs:pattern value="\d{3}-[A-Z]{2}"/></xs:restriction>
  </xs:simpleType>
</xs:schema>
"#;

const VALID: &str = r#"<order xmlns="urn:orders" id="o1">
  <item><sku>123-AB</sku><qty>2</qty></item>
</order>
"#;

const INVALID: &str = r#"<order xmlns="urn:orders" id="o1">
  <item><sku>123-ab</sku><qty>0</qty></item>
  <item><qty>1</qty></item>
</order>
"#;

#[test]
fn valid_invalid_and_broken_schemas_have_their_exit_codes() {
    let dir = folder(
        "codes",
        &[
            ("orders.xsd", SCHEMA),
            ("good.xml", VALID),
            ("bad.xml", INVALID),
            ("broken.xsd", "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'><xs:element name='a' type='nope'/></xs:schema>"),
        ],
    );
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();

    let o = xwire(&[
        "validate",
        "--schema",
        &path("orders.xsd"),
        &path("good.xml"),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("good.xml: valid"));

    let o = xwire(&[
        "validate",
        "-s",
        &path("orders.xsd"),
        &path("good.xml"),
        &path("bad.xml"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    // The pattern and the bound, at line 2; the missing sku at line 3, naming what was expected.
    assert!(
        err.contains("bad.xml:2:") && err.contains("123-ab"),
        "{err}"
    );
    assert!(err.contains("'0'") || err.contains(" 0 "), "{err}");
    assert!(err.contains("bad.xml:3:") && err.contains("sku"), "{err}");
    assert!(err.contains("bad.xml: invalid (3 errors)"), "{err}");

    let o = xwire(&[
        "validate",
        "-s",
        &path("orders.xsd"),
        "--max-errors",
        "1",
        &path("bad.xml"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("(1 error, stopped at --max-errors)"));

    let o = xwire(&["validate", "-s", &path("broken.xsd"), &path("good.xml")]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("broken.xsd:1:") && err.contains("src-resolve"),
        "{err}"
    );

    let o = xwire(&["validate", "-s", &path("orders.xsd"), &path("missing.xml")]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn hints_are_followed_only_when_asked() {
    let hinted = VALID.replace(
        "id=\"o1\"",
        "id=\"o1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"urn:orders orders.xsd\"",
    );
    let dir = folder("hints", &[("orders.xsd", SCHEMA), ("hinted.xml", &hinted)]);
    let doc = dir.join("hinted.xml").to_string_lossy().into_owned();

    let o = xwire(&["validate", "--use-hints", &doc]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // Without --use-hints a schema is required.
    let o = xwire(&["validate", &doc]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn schema_summarises_components() {
    let dir = folder("summary", &[("orders.xsd", SCHEMA)]);
    let o = xwire(&["schema", &dir.join("orders.xsd").to_string_lossy()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("target namespace  urn:orders"), "{out}");
    assert!(
        out.contains("1 global elements (3 local), 2 complex types, 1 simple types"),
        "{out}"
    );
    assert!(
        out.contains("  Item: complex; (sku, qty)  (orders.xsd:11)"),
        "{out}"
    );
    assert!(
        out.contains("  Sku: restricts xs:string (pattern \\d{3}-[A-Z]{2})"),
        "{out}"
    );
    assert!(
        out.contains("  order: (anonymous, line 4)  (orders.xsd:3)"),
        "{out}"
    );
}
