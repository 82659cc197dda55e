//! The streaming validator on hand-built schemas: every feature with its error messages and
//! positions.

use super::build::{st, B};
use crate::datatypes::{Builtin, Value};
use crate::model::*;
use crate::validate::differential::{observe, observe_without_plans};
use crate::validate::lean::Reason;
use crate::validate::{validate_bytes, Psvi, ValidatingReader, ValidationOptions, Validator};

const NS: &str = "urn:t";

fn errors(s: &Schema, xml: &str) -> Vec<String> {
    match validate_bytes(s, xml.as_bytes(), &ValidationOptions::default()) {
        Ok(()) => Vec::new(),
        Err(es) => es.iter().map(|e| e.to_string()).collect(),
    }
}

fn valid(s: &Schema, xml: &str) {
    let es = errors(s, xml);
    assert!(es.is_empty(), "{xml}\n{es:#?}");
}

/// order = (shipTo, billTo?, note*, item{1,3}); shipTo and billTo are `Address` =
/// (name, zip:int); note is a string; item has an int `qty` attribute (required) and a
/// string `code` attribute with default "X".
fn po() -> Schema {
    let mut b = B::new(NS);
    let name = b.local("name", st(Builtin::String));
    let zip = b.local("zip", st(Builtin::Int));
    let (pn, pz) = (b.e(name), b.e(zip));
    let addr_p = b.seq(vec![pn, pz]);
    let addr = b.elements(Some("Address"), addr_p, false);
    let ship = b.local("shipTo", addr);
    let bill = b.local("billTo", addr);
    let note = b.local("note", st(Builtin::String));
    let item_t = TypeId::Complex(b.complex(
        None,
        ContentType::Simple(SimpleTypeId::builtin(Builtin::Decimal)),
    ));
    let qty = b.attr("qty", Builtin::Int);
    let code = b.attr("code", Builtin::String);
    b.use_(item_t, qty, true, None);
    b.use_(item_t, code, false, Some((false, "X")));
    let item = b.local("item", item_t);
    let (p1, p2, p3, p4) = (
        b.e(ship),
        b.eo(bill, 0, Some(1)),
        b.eo(note, 0, None),
        b.eo(item, 1, Some(3)),
    );
    let order_p = b.seq(vec![p1, p2, p3, p4]);
    let order_t = b.elements(Some("Order"), order_p, false);
    b.global("order", order_t);
    b.finish()
}

const ADDR: &str = "<name>A</name><zip>1</zip>";

#[test]
fn a_valid_document_passes() {
    let s = po();
    valid(
        &s,
        &format!(
            "<order xmlns='{NS}'>\n  <shipTo>{ADDR}</shipTo>\n  <billTo>{ADDR}</billTo>\n  <note>n</note><note/>\n  <item qty='2'>1.5</item>\n</order>"
        ),
    );
}

#[test]
fn undeclared_root_and_not_well_formed() {
    let s = po();
    assert_eq!(
        errors(&s, "<?xml version='1.0'?>\n<bogus/>"),
        ["2:1: no declaration found for the root element 'bogus' [cvc-elt.1]"]
    );
    let es = errors(&s, &format!("<order xmlns='{NS}'>\n<shipTo>"));
    assert_eq!(es.len(), 1, "{es:?}");
    assert!(es[0].contains("the document is not well-formed"), "{es:?}");
    assert!(es[0].ends_with("[well-formed]"));
}

#[test]
fn the_validating_reader_views_each_event_and_stops_at_the_readers_error() {
    let s = po();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let xml = format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><item qty='x'>1</item></bad>");
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml.as_bytes()));
    let mut starts = Vec::new();
    let err = loop {
        let e = match r.next() {
            Ok(e) => e,
            Err(err) => break err,
        };
        // The views can be taken again, and agree with each other.
        assert_eq!(e.event().kind(), e.split().0.kind());
        match (e.event(), e.psvi()) {
            (xwire::Event::Start(t), Psvi::Start { decl, .. }) => {
                assert_eq!(&xml[e.offset() as usize..][..1], "<");
                starts.push((t.local_name().to_string(), decl.is_some()));
            }
            (xwire::Event::Start(t), p) => panic!("{}: {p:?}", t.name()),
            (_, Psvi::Start { .. }) => panic!("a start's information on another event"),
            _ => {}
        }
    };
    assert_eq!(starts.len(), 5, "{starts:?}");
    assert!(starts.iter().all(|(_, declared)| *declared), "{starts:?}");
    // The reader's own error, and both errors recorded in document order.
    assert!(err.to_string().contains("bad"), "{err}");
    let es: Vec<&str> = r.errors().iter().map(|e| e.constraint).collect();
    assert_eq!(es, ["cvc-attribute.3", "well-formed"]);
}

#[test]
fn content_model_errors_say_what_was_expected_and_where() {
    let s = po();
    let es = errors(
        &s,
        &format!("<order xmlns='{NS}'>\n  <item qty='1'>1</item>\n  <shipTo>{ADDR}</shipTo>\n  <item qty='1'>1</item>\n</order>"),
    );
    assert_eq!(
        es,
        [
            "2:3: element '{urn:t}item' is not allowed here in '{urn:t}order': expected 'shipTo' [cvc-complex-type.2.4]",
        ]
    );
    let es = validate_bytes(
        &s,
        format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><zip>1</zip></order>").as_bytes(),
        &ValidationOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        es[0].to_string(),
        "1:65: element '{urn:t}zip' is not allowed here in '{urn:t}order': expected one of {billTo, note, item} [cvc-complex-type.2.4]"
    );
    assert_eq!(
        es[0].expected,
        ["{urn:t}billTo", "{urn:t}note", "{urn:t}item"]
    );
    // Once a child did not fit, the end of that content is not reported again.
    assert_eq!(es.len(), 1);
    // The validator goes on: two errors in one document, the second one in a later element.
    let es = errors(
        &s,
        &format!("<order xmlns='{NS}'><shipTo><zip>1</zip></shipTo>\n<item qty='1'>1</item><item qty='1'>1</item><item qty='1'>1</item><item qty='1'>1</item></order>"),
    );
    assert_eq!(es.len(), 2, "{es:?}");
    assert!(
        es[0].starts_with(
            "1:30: element '{urn:t}zip' is not allowed here in '{urn:t}shipTo': expected 'name'"
        ),
        "{es:?}"
    );
    assert!(es[1].starts_with("2:67: element '{urn:t}item' is not allowed here: the content of '{urn:t}order' must end"), "{es:?}");
}

#[test]
fn incomplete_content_is_reported_at_the_end_tag() {
    let s = po();
    let es = errors(
        &s,
        &format!("<order xmlns='{NS}'>\n<shipTo><name>x</name></shipTo>\n</order>"),
    );
    assert_eq!(
        es,
        [
            "2:23: the content of element '{urn:t}shipTo' is not complete: expected 'zip' [cvc-complex-type.2.4.b]",
            "3:1: the content of element '{urn:t}order' is not complete: expected one of {billTo, note, item} [cvc-complex-type.2.4.b]",
        ]
    );
}

#[test]
fn text_in_element_only_content() {
    let s = po();
    let es = errors(
        &s,
        &format!(
            "<order xmlns='{NS}'><shipTo>{ADDR}</shipTo> hello <item qty='1'>1</item></order>"
        ),
    );
    assert_eq!(
        es,
        ["1:65: element '{urn:t}order' may only contain elements (its type is element-only), found text 'hello' [cvc-complex-type.2.3]"]
    );
}

#[test]
fn simple_content_values_attributes_and_defaults() {
    let s = po();
    let doc = |item: &str| format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo>{item}</order>");
    assert_eq!(
        errors(&s, &doc("<item qty='1'>abc</item>")),
        ["1:65: the content of element '{urn:t}item' is not valid: 'abc' is not a valid decimal: expected digits with an optional sign and point, no exponent [cvc-datatype-valid]"]
    );
    let es = errors(&s, &doc("<item>1</item>"));
    assert_eq!(
        es,
        ["1:65: element '{urn:t}item' must have the attribute 'qty' [cvc-complex-type.4]"]
    );
    let es = errors(&s, &doc("<item qty='x' other='1'>1</item>"));
    assert_eq!(es.len(), 2, "{es:?}");
    assert!(
        es[0].starts_with("1:65: attribute 'qty' of element '{urn:t}item' is not valid:"),
        "{es:?}"
    );
    assert_eq!(
        es[1],
        "1:65: attribute 'other' is not allowed on element '{urn:t}item' [cvc-complex-type.3.2.2]"
    );
    let es = errors(&s, &doc("<item qty='1'><b/></item>"));
    assert_eq!(es, ["1:79: element '{urn:t}item' has simple content and may not contain element 'b' [cvc-complex-type.2.2]"]);
}

#[test]
fn typed_values_come_out_of_the_validating_reader() {
    let s = po();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let xml =
        format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><item qty=' 7 '>2.50</item></order>");
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml.as_bytes()));
    let mut seen = Vec::new();
    loop {
        let (ev, psvi) = r.next().unwrap().split();
        match (ev, psvi) {
            (xwire::Event::Eof, _) => break,
            (xwire::Event::Start(t), Psvi::Start { attributes, .. })
                if t.local_name() == "item" =>
            {
                for a in attributes {
                    let v = a.value.as_ref().unwrap();
                    seen.push(format!(
                        "{:?}@{:?}={}",
                        a.decl.is_some(),
                        a.index,
                        v.value.canonical()
                    ));
                }
            }
            (
                xwire::Event::End(t),
                Psvi::End {
                    value: Some(v),
                    type_def,
                    ..
                },
            ) => {
                seen.push(format!(
                    "{}={} {}",
                    t.local_name(),
                    v.value().canonical(),
                    type_def.is_some()
                ));
            }
            _ => {}
        }
    }
    assert!(r.errors().is_empty());
    assert_eq!(
        seen,
        [
            "name=A true",
            "zip=1 true",
            "true@Some(0)=7",
            "true@None=X",
            "item=2.5 true"
        ]
    );
}

#[test]
fn validator_is_reusable_across_documents() {
    let s = po();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let good = format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><item qty='1'>1</item></order>");
    for _ in 0..3 {
        assert_eq!(v.validate(good.as_bytes()), Ok(()));
        assert_eq!(v.validate(b"<x/>").unwrap_err().len(), 1);
    }
    // The validator keeps its map of the reader's names from one document to the next
    // (while the reader keeps its name ids): the same names in other namespaces, bound by
    // prefix or by default, must be told apart, in both passes, as a new validator does.
    let docs = [
        good.clone(),
        format!("<p:order xmlns:p='{NS}'><p:shipTo>{ADDR}</p:shipTo><p:item qty='1'>1</p:item></p:order>"),
        format!("<p:order xmlns:p='urn:other'><p:shipTo>{ADDR}</p:shipTo><p:item qty='1'>1</p:item></p:order>"),
        format!("<order xmlns='urn:other'><shipTo>{ADDR}</shipTo><item qty='1'>1</item></order>"),
        format!("<order xmlns='{NS}'><shipTo xmlns='urn:other'>{ADDR}</shipTo><item qty='1'>1</item></order>"),
        format!("<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><item qty='x'>1</item></order>"),
        good.clone(),
        // Not well-formed: the reader then gives its names new ids, the first to `item`.
        format!("<order xmlns='{NS}'><unclosed></order>"),
        format!("<item xmlns='{NS}' qty='1'>1</item>"),
        good,
    ];
    for _ in 0..2 {
        for doc in &docs {
            let fresh = Validator::new(&s, ValidationOptions::default())
                .validate(doc.as_bytes())
                .map_err(|es| es.len());
            assert_eq!(
                v.validate(doc.as_bytes()).map_err(|es| es.len()),
                fresh,
                "{doc}"
            );
        }
    }
    assert!(v.validate(docs[2].as_bytes()).is_err());
}

#[test]
fn error_limit_stops_validation() {
    let s = po();
    let xml = format!(
        "<order xmlns='{NS}'><shipTo>{ADDR}</shipTo>{}</order>",
        "<item>1</item>".repeat(3)
    );
    let opts = ValidationOptions {
        max_errors: 2,
        ..ValidationOptions::default()
    };
    assert_eq!(
        validate_bytes(&s, xml.as_bytes(), &opts).unwrap_err().len(),
        2
    );
    assert_eq!(errors(&s, &xml).len(), 3);
}

/// Base = (a); Ext extends Base with (b); the element `e` is declared with Base; `nil` is
/// nillable int; `fix` is an int fixed to 5, `def` a string defaulting to "d".
fn types_schema(block: DerivationSet, abstract_base: bool) -> Schema {
    let mut b = B::new(NS);
    let a = b.local("a", st(Builtin::String));
    let bb = b.local("b", st(Builtin::String));
    let pa = b.e(a);
    let base_p = b.seq(vec![pa]);
    let base = b.elements(Some("Base"), base_p, false);
    b.ct_mut(base).is_abstract = abstract_base;
    let (pa2, pb) = (b.e(a), b.e(bb));
    let ext_p = b.seq(vec![pa2, pb]);
    let ext = b.elements(Some("Ext"), ext_p, false);
    b.ct_mut(ext).base = base;
    b.ct_mut(ext).derivation = Derivation::Extension;
    let e = b.local("e", base);
    b.elem_mut(e).block = block;
    let nil = b.local("nil", st(Builtin::Int));
    b.elem_mut(nil).nillable = true;
    let fix = b.local("fix", st(Builtin::Int));
    b.elem_mut(fix).value_constraint = Some(ValueConstraint {
        fixed: true,
        lexical: "5".into(),
        value: None,
    });
    let def = b.local("def", st(Builtin::String));
    b.elem_mut(def).value_constraint = Some(ValueConstraint {
        fixed: false,
        lexical: "d".into(),
        value: None,
    });
    let ps: Vec<Particle> = [e, nil, fix, def]
        .iter()
        .map(|&x| b.eo(x, 0, None))
        .collect();
    let root_p = b.group(Compositor::Choice, ps, 0, None);
    let root_t = b.elements(None, root_p, false);
    b.global("root", root_t);
    b.finish()
}

fn doc(body: &str) -> String {
    format!("<root xmlns='{NS}' xmlns:t='{NS}' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>{body}</root>")
}

/// One validator over many documents keeps what each declaration's `xsi:type` made of it only
/// while the value names the same type: other values, the same value with its prefix bound
/// elsewhere, and the content each type wants.
#[test]
fn xsi_types_kept_per_declaration_follow_the_value() {
    let s = types_schema(DerivationSet::EMPTY, false);
    let mut v = Validator::new(&s, ValidationOptions::default());
    let ext = "<e xsi:type='t:Ext'><a/><b/></e>";
    let base = "<e xsi:type='t:Base'><a/></e>";
    let cases = [
        (format!("{ext}{ext}{base}{ext}{base}{base}"), true),
        (doc(&format!("{ext}{base}")), true),
        // `t:Base` wants no `b`, `t:Ext` wants one.
        (
            doc(&format!("{ext}<e xsi:type='t:Base'><a/><b/></e>")),
            false,
        ),
        (doc(&format!("{base}<e xsi:type='t:Ext'><a/></e>")), false),
        (doc(&format!("{ext}{ext}")), true),
        // The same value with `t` bound to another namespace names no type of the schema.
        (
            doc(&format!(
                "{ext}<e xmlns:t='urn:other' xsi:type='t:Ext'><a/><b/></e>"
            )),
            false,
        ),
        (doc(&format!("{ext}{ext}")), true),
    ];
    for (i, (xml, ok)) in cases.iter().enumerate() {
        let xml = if i == 0 { doc(xml) } else { xml.clone() };
        let fresh = validate_bytes(&s, xml.as_bytes(), &ValidationOptions::default()).is_ok();
        assert_eq!(fresh, *ok, "{xml}");
        assert_eq!(
            v.validate(xml.as_bytes()).is_ok(),
            *ok,
            "kept validator: {xml}"
        );
    }
}

#[test]
fn xsi_type_must_resolve_and_derive() {
    let s = types_schema(DerivationSet::EMPTY, false);
    valid(&s, &doc("<e><a/></e><e xsi:type='t:Ext'><a/><b/></e>"));
    let es = errors(&s, &doc("<e xsi:type='t:Ext'><a/></e>"));
    assert_eq!(es.len(), 1);
    assert!(
        es[0].contains("the content of element '{urn:t}e' is not complete: expected 'b'"),
        "{es:?}"
    );
    let es = errors(&s, &doc("<e xsi:type='t:Nope'><a/></e>"));
    assert!(es[0].contains("xsi:type 't:Nope' on element '{urn:t}e' names no type definition of the schema [cvc-elt.4.2]"), "{es:?}");
    let es = errors(&s, &doc("<e xsi:type='nope:Ext'><a/></e>"));
    assert!(es[0].ends_with("[cvc-elt.4.1]"), "{es:?}");
    let es = errors(&s, &doc("<e xsi:type='t:Address'><a/></e>"));
    assert!(es[0].contains("names no type"), "{es:?}");
    let es = errors(
        &s,
        &doc("<nil xsi:type='xsd:string' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>1</nil>"),
    );
    assert!(
        es[0].contains("it does not derive from the declared type [cvc-elt.4.3]"),
        "{es:?}"
    );
    valid(
        &s,
        &doc("<nil xsi:type='xsd:short' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>1</nil>"),
    );
    let s = types_schema(DerivationSet::EXTENSION, false);
    let es = errors(&s, &doc("<e xsi:type='t:Ext'><a/><b/></e>"));
    assert!(
        es[0].contains(
            "may not be used on element '{urn:t}e': its derivation is blocked [cvc-elt.4.3]"
        ),
        "{es:?}"
    );
}

/// The same `xsi:type` text under other bindings names another type: the resolution cache
/// keys on the bindings, within a document and from one document to the next.
#[test]
fn xsi_type_follows_the_prefix_bindings() {
    let s = types_schema(DerivationSet::EMPTY, false);
    let mut v = Validator::new(&s, ValidationOptions::default());
    let xsd = "http://www.w3.org/2001/XMLSchema";
    // p bound to the schema's namespace, then to XSD's (no type 'Ext' there), then again.
    let body = format!(
        "<e xsi:type='p:Ext' xmlns:p='{NS}'><a/><b/></e><e xsi:type='p:Ext' xmlns:p='{xsd}'><a/></e><e xsi:type='p:Ext' xmlns:p='{NS}'><a/><b/></e>"
    );
    for _ in 0..2 {
        let es = v.validate(doc(&body).as_bytes()).unwrap_err();
        assert_eq!(es.len(), 1, "{es:?}");
        assert!(es[0].message.contains("names no type"), "{es:?}");
    }
    // Bound to XSD in one document, to the schema's in the next.
    let xsd_doc = format!("<e xsi:type='p:Ext' xmlns:p='{xsd}'><a/></e>");
    assert!(v.validate(doc(&xsd_doc).as_bytes()).is_err());
    let ns_doc = format!("<e xsi:type='p:Ext' xmlns:p='{NS}'><a/><b/></e>");
    assert_eq!(v.validate(doc(&ns_doc).as_bytes()), Ok(()));
    // Bound on the root, as a message's envelope binds its prefixes: the same declarations
    // make the same bindings from one document to the next, other ones other bindings, and
    // past the states a validator tells apart (64) each declaration makes its own.
    let rooted = |uri: &str, extra: &str| {
        format!(
            "<root xmlns='{NS}' xmlns:p='{uri}' {extra} xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><e xsi:type='p:Ext'><a/><b/></e><e xsi:type='p:Ext'><a/><b/></e></root>"
        )
    };
    for i in 0..100 {
        let extra = format!("xmlns:q{i}='urn:q{i}'");
        for (uri, extra) in [
            (NS, ""),
            (xsd, ""),
            (NS, extra.as_str()),
            (xsd, extra.as_str()),
        ] {
            let xml = rooted(uri, extra);
            let fresh = Validator::new(&s, ValidationOptions::default()).validate(xml.as_bytes());
            assert_eq!(fresh.is_ok(), uri == NS, "{xml}");
            assert_eq!(v.validate(xml.as_bytes()), fresh, "{xml}");
        }
    }
}

#[test]
fn abstract_types_need_xsi_type() {
    let s = types_schema(DerivationSet::EMPTY, true);
    let es = errors(&s, &doc("<e><a/></e>"));
    assert_eq!(es.len(), 1);
    assert!(
        es[0].contains("element '{urn:t}e' has the abstract type '{urn:t}Base'; use xsi:type"),
        "{es:?}"
    );
    valid(&s, &doc("<e xsi:type='t:Ext'><a/><b/></e>"));
}

#[test]
fn xsi_nil() {
    let s = types_schema(DerivationSet::EMPTY, false);
    valid(
        &s,
        &doc("<nil xsi:nil='true'/><nil xsi:nil='false'>3</nil>"),
    );
    let es = errors(&s, &doc("<nil xsi:nil='true'>3</nil>"));
    assert!(es[0].contains("element '{urn:t}nil' is nil (xsi:nil=\"true\") and may not contain text [cvc-elt.3.2.1]"), "{es:?}");
    let es = errors(&s, &doc("<fix xsi:nil='true'/>"));
    assert!(
        es[0].contains(
            "element '{urn:t}fix' is not nillable, so it may not have xsi:nil [cvc-elt.3.1]"
        ),
        "{es:?}"
    );
    let es = errors(&s, &doc("<nil xsi:nil='maybe'/>"));
    assert!(es[0].contains("must be a boolean"), "{es:?}");
}

#[test]
fn default_and_fixed_element_values() {
    let s = types_schema(DerivationSet::EMPTY, false);
    valid(&s, &doc("<fix>5</fix><fix> 005 </fix><fix/><def/>"));
    let es = errors(&s, &doc("\n<fix>6</fix>"));
    assert_eq!(
        es,
        ["2:7: element '{urn:t}fix' must have the fixed value '5', found '6' [cvc-elt.5.2.2.2.2]"]
    );
    // The default value is the typed value of an empty element.
    let mut v = Validator::new(&s, ValidationOptions::default());
    let xml = doc("<def/>");
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml.as_bytes()));
    let mut got = None;
    loop {
        match r.next().unwrap().split() {
            (xwire::Event::Eof, _) => break,
            (xwire::Event::End(_), Psvi::End { value: Some(v), .. }) => {
                got = Some(v.value().clone())
            }
            _ => {}
        }
    }
    assert_eq!(got, Some(Value::String("d".into())));
}

#[test]
fn abstract_elements_and_substitution_groups() {
    let mut b = B::new(NS);
    let head = b.global("head", st(Builtin::Decimal));
    b.elem_mut(head).is_abstract = true;
    let m1 = b.global("m1", st(Builtin::Int));
    let m2 = b.global("m2", st(Builtin::String));
    b.substitute(m1, head);
    b.substitute(m2, head);
    let p = b.eo(head, 0, None);
    let t = b.elements(None, p, false);
    b.global("root", t);
    let s = b.finish();
    valid(
        &s,
        &format!("<root xmlns='{NS}'><m1>1</m1><m1>2</m1></root>"),
    );
    let es = errors(&s, &format!("<root xmlns='{NS}'><head>1</head></root>"));
    assert_eq!(
        es,
        ["1:21: element '{urn:t}head' is abstract and may not appear in a document [cvc-elt.2]"]
    );
    let es = errors(&s, &format!("<root xmlns='{NS}'><m2>x</m2></root>"));
    assert_eq!(es, ["1:21: element '{urn:t}m2' may not substitute for the element expected here: the substitution is blocked [cvc-elt.4.3]"]);
}

#[test]
fn element_wildcards_strict_lax_skip() {
    let mut b = B::new(NS);
    let other = b.ns("urn:o");
    let known = b.s.names.name(other, "known");
    let kid = ElementId::from_index(b.s.elements.len());
    b.s.elements.push(ElementDecl {
        name: known,
        type_def: st(Builtin::Int),
        global: true,
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
    b.s.substitutions.push(Vec::new());
    b.s.global_elements.insert(known, kid);
    let wild = |b: &mut B, name: &str, process| {
        let w = b.any(NamespaceConstraint::Not(b.tns), process);
        let w = Particle {
            min_occurs: 0,
            max_occurs: MaxOccurs::Unbounded,
            ..w
        };
        let t = b.elements(None, w, false);
        b.global(name, t);
    };
    wild(&mut b, "strict", ProcessContents::Strict);
    wild(&mut b, "lax", ProcessContents::Lax);
    wild(&mut b, "skip", ProcessContents::Skip);
    let s = b.finish();
    let d = |root: &str, body: &str| {
        format!("<{root} xmlns='{NS}' xmlns:o='urn:o' xmlns:u='urn:unknown'>{body}</{root}>")
    };
    valid(&s, &d("strict", "<o:known>1</o:known>"));
    let es = errors(&s, &d("strict", "<o:known>x</o:known>"));
    assert!(
        es[0].contains("the content of element '{urn:o}known' is not valid"),
        "{es:?}"
    );
    let es = errors(&s, &d("strict", "<u:x/>"));
    assert_eq!(es.len(), 1);
    assert!(es[0].contains("no declaration found for element 'u:x', which a strict wildcard requires [cvc-complex-type.2.4.c]"), "{es:?}");
    let es = errors(&s, &d("strict", "<x xmlns=''/>"));
    assert!(
        es[0].contains("expected any element not in namespace 'urn:t' (or the end of the content)"),
        "{es:?}"
    );
    valid(&s, &d("lax", "<u:x a='1'><o:known>1</o:known><u:y/></u:x>"));
    let es = errors(&s, &d("lax", "<u:x><o:known>no</o:known></u:x>"));
    assert_eq!(es.len(), 1, "{es:?}");
    valid(&s, &d("skip", "<o:known>not an int<deep/></o:known>"));
}

#[test]
fn attribute_wildcards_and_fixed_attributes() {
    let mut b = B::new(NS);
    let other = b.ns("urn:o");
    let ga = b.s.names.name(other, "g");
    let gid = AttributeId::from_index(b.s.attributes.len());
    b.s.attributes.push(AttributeDecl {
        name: ga,
        type_def: SimpleTypeId::builtin(Builtin::Int),
        global: true,
        value_constraint: None,
        location: None,
        annotation: Annotation::default(),
    });
    b.s.global_attributes.insert(ga, gid);
    let mk = |b: &mut B, name: &str, process| {
        let t = TypeId::Complex(b.complex(None, ContentType::Empty));
        b.ct_mut(t).attribute_wildcard = Some(Wildcard {
            namespaces: NamespaceConstraint::Not(NamespaceId::ABSENT),
            process,
        });
        let f = b.attr("f", Builtin::Decimal);
        b.use_(t, f, false, Some((true, "1.0")));
        b.global(name, t);
    };
    mk(&mut b, "strict", ProcessContents::Strict);
    mk(&mut b, "lax", ProcessContents::Lax);
    mk(&mut b, "skip", ProcessContents::Skip);
    let s = b.finish();
    let d = |root: &str, attrs: &str| {
        format!("<{root} xmlns='{NS}' xmlns:o='urn:o' xmlns:u='urn:u' {attrs}/>")
    };
    valid(&s, &d("strict", "o:g='1' f='1'"));
    let es = errors(&s, &d("strict", "u:x='1'"));
    assert!(es[0].contains("attribute 'u:x' on element '{urn:t}strict' matches a strict wildcard but has no declaration"), "{es:?}");
    let es = errors(&s, &d("lax", "o:g='x' u:y='2'"));
    assert_eq!(es.len(), 1, "{es:?}");
    valid(&s, &d("skip", "o:g='x' u:y='2'"));
    let es = errors(&s, &d("skip", "g='1'"));
    assert!(
        es[0].contains("attribute 'g' is not allowed on element '{urn:t}skip'"),
        "{es:?}"
    );
    let es = errors(&s, &d("skip", "f='2'"));
    assert!(es[0].contains("attribute 'f' of element '{urn:t}skip' must have the fixed value '1.0', found '2' [cvc-au]"), "{es:?}");
    let es = errors(
        &s,
        &d(
            "skip",
            "xsi:bogus='1' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'",
        ),
    );
    assert!(
        es[0].contains("'xsi:bogus' is not an attribute of the schema instance namespace"),
        "{es:?}"
    );
}

#[test]
fn empty_and_mixed_content() {
    let mut b = B::new(NS);
    let e = b.complex(None, ContentType::Empty);
    let empty = b.local("empty", TypeId::Complex(e));
    let pe = b.eo(empty, 0, None);
    let mixed_p = b.seq(vec![pe]);
    let mixed = b.elements(None, mixed_p, true);
    b.global("m", mixed);
    let s = b.finish();
    valid(
        &s,
        &format!("<m xmlns='{NS}'>text <empty/> more <empty> </empty></m>"),
    );
    let es = errors(
        &s,
        &format!("<m xmlns='{NS}'><empty>x</empty><empty><m/></empty></m>"),
    );
    assert_eq!(
        es,
        [
            "1:25: element '{urn:t}empty' must be empty (its type has empty content) but contains text [cvc-complex-type.2.1]",
            "1:41: element '{urn:t}empty' must be empty (its type has empty content) but contains element '{urn:t}m' [cvc-complex-type.2.1]",
        ]
    );
}

#[test]
fn ids_are_unique_and_idrefs_resolve() {
    let mut b = B::new(NS);
    let t = TypeId::Complex(b.complex(None, ContentType::Empty));
    let id = b.attr("id", Builtin::Id);
    let rf = b.attr("ref", Builtin::IdRef);
    let rfs = b.attr("refs", Builtin::IdRefs);
    b.use_(t, id, false, None);
    b.use_(t, rf, false, None);
    b.use_(t, rfs, false, None);
    let x = b.local("x", t);
    let p = b.eo(x, 0, None);
    let root = b.elements(None, p, false);
    b.global("r", root);
    let s = b.finish();
    valid(
        &s,
        &format!("<r xmlns='{NS}'><x ref='b'/><x id='a' refs='a b'/><x id='b'/></r>"),
    );
    let es = errors(
        &s,
        &format!("<r xmlns='{NS}'>\n<x id='a'/>\n<x id='a' ref='zz'/>\n<x refs='a yy'/></r>"),
    );
    assert_eq!(
        es,
        [
            "3:1: the ID 'a' of attribute 'id' is not unique in the document [cvc-id.2]",
            "3:1: the IDREF 'zz' does not match any ID in the document [cvc-id.1]",
            "4:1: the IDREF 'yy' does not match any ID in the document [cvc-id.1]",
        ]
    );
}

/// root > (item @id @grp, ref @to)*, with key k on (@id), unique u on (code) of items and a
/// keyref from ref/@to to k.
fn identity_schema() -> Schema {
    let mut b = B::new(NS);
    let code = b.local("code", st(Builtin::Int));
    let pc = b.eo(code, 0, Some(1));
    let item_p = b.seq(vec![pc]);
    let item_t = b.elements(None, item_p, false);
    let id = b.attr("id", Builtin::Int);
    b.use_(item_t, id, false, None);
    let item = b.local("item", item_t);
    let ref_t = TypeId::Complex(b.complex(None, ContentType::Empty));
    let to = b.attr("to", Builtin::Decimal);
    b.use_(ref_t, to, true, None);
    let rf = b.local("ref", ref_t);
    let (pi, pr) = (b.e(item), b.e(rf));
    let ch = b.group(Compositor::Choice, vec![pi, pr], 0, None);
    let root_t = b.elements(None, ch, false);
    let root = b.global("root", root_t);
    let tns = b.tns;
    let path = |steps: &[&str], attr: Option<&str>| RestrictedPath {
        descendants: false,
        steps: steps
            .iter()
            .map(|s| NameTest::Name(tns, (*s).into()))
            .collect(),
        attribute: attr.map(|a| NameTest::Name(NamespaceId::ABSENT, a.into())),
    };
    let ic = |b: &mut B, name: &str, kind, sel: &[&str], field: RestrictedPath| {
        let id = IdentityConstraintId::from_index(b.s.identity_constraints.len());
        let n = b.name(name);
        b.s.identity_constraints.push(IdentityConstraint {
            name: n,
            kind,
            selector: vec![path(sel, None)],
            selector_source: sel.join("/"),
            fields: vec![(vec![field], "f".into())],
            location: None,
            annotation: Annotation::default(),
        });
        b.elem_mut(root).identity_constraints.push(id);
        id
    };
    let k = ic(
        &mut b,
        "k",
        IdentityKind::Key,
        &["item"],
        path(&[], Some("id")),
    );
    ic(
        &mut b,
        "u",
        IdentityKind::Unique,
        &["item"],
        path(&["code"], None),
    );
    ic(
        &mut b,
        "kr",
        IdentityKind::KeyRef(k),
        &["ref"],
        path(&[], Some("to")),
    );
    b.finish()
}

#[test]
fn identity_constraints_on_the_stream() {
    let s = identity_schema();
    let d = |body: &str| format!("<root xmlns='{NS}'>{body}</root>");
    valid(
        &s,
        &d("<ref to='2.0'/><item id='1'><code>1</code></item><item id='2'/><ref to='1'/>"),
    );
    let es = errors(&s, &d("\n<item id='1'><code>7</code></item>\n<item id='01'><code>07</code></item>\n<item/>\n<ref to='3'/>"));
    assert_eq!(
        es,
        [
            "3:1: duplicate value (7) for identity constraint '{urn:t}u' [cvc-identity-constraint.4.1]",
            "3:1: duplicate value (1) for identity constraint '{urn:t}k' [cvc-identity-constraint.4.2.2]",
            "4:1: an element selected by key '{urn:t}k' has no value for one of its fields [cvc-identity-constraint.4.2.1]",
            "5:1: keyref '{urn:t}kr' refers to (3), which is not a value of '{urn:t}k' [cvc-identity-constraint.4.3]",
        ]
    );
}

#[test]
fn schema_location_hints_are_off_by_default() {
    let s = po();
    let xml = format!("<order xmlns='{NS}' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:schemaLocation='urn:t po.xsd'><shipTo>{ADDR}</shipTo><item qty='1'>1</item></order>");
    let mut v = Validator::new(&s, ValidationOptions::default());
    assert_eq!(v.validate(xml.as_bytes()), Ok(()));
    assert!(v.schema_location_hints().is_empty());
    let mut v = Validator::new(
        &s,
        ValidationOptions {
            schema_location_hints: true,
            ..ValidationOptions::default()
        },
    );
    assert_eq!(v.validate(xml.as_bytes()), Ok(()));
    assert_eq!(
        v.schema_location_hints(),
        [("urn:t".to_string(), "po.xsd".to_string())]
    );
}

#[test]
fn hostile_inputs_give_errors_not_panics() {
    let s = po();
    for xml in [
        "",
        "<",
        "<order xmlns='urn:t'>",
        "\u{feff}<a/><b/>",
        "<order xmlns='urn:t'><shipTo></order>",
        "<?xml version='1.0'?>",
    ] {
        let r = validate_bytes(&s, xml.as_bytes(), &ValidationOptions::default());
        assert!(r.is_err(), "{xml:?}");
    }
    let deep = format!("<order xmlns='urn:t'>{}", "<x>".repeat(10_000));
    assert!(validate_bytes(&s, deep.as_bytes(), &ValidationOptions::default()).is_err());
}

#[test]
fn all_groups_in_documents() {
    let mut b = B::new(NS);
    let [x, y, z] = ["x", "y", "z"].map(|n| b.local(n, st(Builtin::Int)));
    let (px, py, pz) = (b.e(x), b.eo(y, 0, Some(1)), b.e(z));
    let all = b.group(Compositor::All, vec![px, py, pz], 1, Some(1));
    let t = b.elements(None, all, false);
    b.global("r", t);
    let s = b.finish();
    valid(&s, &format!("<r xmlns='{NS}'><z>1</z><x>2</x></r>"));
    valid(&s, &format!("<r xmlns='{NS}'><y>1</y><z>1</z><x>2</x></r>"));
    assert_eq!(
        errors(&s, &format!("<r xmlns='{NS}'><z>1</z><z>2</z></r>")),
        ["1:26: element '{urn:t}z' is not allowed here in '{urn:t}r': expected one of {x, y} [cvc-complex-type.2.4]"]
    );
    assert_eq!(
        errors(&s, &format!("<r xmlns='{NS}'><y>1</y></r>")),
        ["1:26: the content of element '{urn:t}r' is not complete: expected one of {x, z} [cvc-complex-type.2.4.b]"]
    );
}

#[test]
fn streaming_input_gives_the_same_errors() {
    let s = po();
    let xml = format!(
        "<order xmlns='{NS}'>\n{}<shipTo><zip>x</zip></shipTo>\n<item>1</item></order>",
        "<!-- padding -->\n".repeat(200)
    );
    let from_slice = validate_bytes(&s, xml.as_bytes(), &ValidationOptions::default()).unwrap_err();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let mut config = xwire::Config::default();
    config.chunk_size = 64;
    let reader = xwire::Reader::from_reader(xml.as_bytes(), config);
    let mut r = ValidatingReader::new(&mut v, reader);
    while !matches!(r.next().unwrap().event(), xwire::Event::Eof) {}
    assert_eq!(r.errors(), from_slice.as_slice());
    drop(r);
    assert_eq!(v.validate_read(xml.as_bytes()).unwrap_err(), from_slice);
    assert_eq!(from_slice.len(), 2, "{from_slice:?}");
    assert_eq!((from_slice[0].line, from_slice[0].column), (202, 9));
    assert_eq!((from_slice[1].line, from_slice[1].column), (203, 1));
}

#[test]
fn undeclared_root_with_xsi_type_is_validated_by_the_type() {
    let s = po();
    let xml = format!("<x xmlns:t='{NS}' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:type='t:Address'><zip xmlns='{NS}'>1</zip></x>");
    let es = errors(&s, &xml);
    assert_eq!(es.len(), 1, "{es:?}");
    assert_eq!(es[0], "1:95: element '{urn:t}zip' is not allowed here in 'x': expected '{urn:t}name' [cvc-complex-type.2.4]");
}

#[test]
fn errors_before_a_well_formedness_error_are_kept() {
    let s = po();
    let es = errors(
        &s,
        &format!("<order xmlns='{NS}'><bogus/>\n<shipTo></order>"),
    );
    assert_eq!(es.len(), 2, "{es:?}");
    assert!(
        es[0].starts_with("1:22: element 'bogus' is not allowed here"),
        "{es:?}"
    );
    assert!(es[1].starts_with("2:"), "{es:?}");
    assert!(es[1].ends_with("[well-formed]"), "{es:?}");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]
        /// Mutated documents (bytes replaced, cut, duplicated) never panic or hang.
        #[test]
        fn mutated_documents_never_panic(cuts in prop::collection::vec((0usize..400, 0u8..6, any::<u8>()), 0..6)) {
            let s = po();
            let mut xml = format!(
                "<order xmlns='{NS}' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'><shipTo>{ADDR}</shipTo><billTo xsi:nil='true'/><note>n</note><item qty='2' code='c'>1.5</item><item qty='x'/></order>"
            ).into_bytes();
            for (at, op, byte) in cuts {
                let at = at % (xml.len() + 1);
                match op {
                    0 => xml.truncate(at),
                    1 => xml.insert(at, byte),
                    2 if at < xml.len() => { xml.remove(at); }
                    3 => { let tail = xml[at..].to_vec(); xml.extend_from_slice(&tail); }
                    4 => xml.splice(at..at, b"<item qty='1'>".iter().copied()).for_each(drop),
                    _ => xml.splice(at..at, b"</shipTo>".iter().copied()).for_each(drop),
                }
            }
            let _ = validate_bytes(&s, &xml, &ValidationOptions::default());
        }

        /// The borrowing normalization agrees with the allocating one.
        #[test]
        fn normalize_agrees_with_apply(text in "[ a\t\n\rb]{0,12}") {
            use crate::datatypes::WhiteSpace;
            for ws in [WhiteSpace::Preserve, WhiteSpace::Replace, WhiteSpace::Collapse] {
                let (n, a) = (ws.normalize(&text).into_owned(), ws.apply(&text));
                prop_assert_eq!(n, a);
            }
        }
    }
}

#[test]
fn many_attributes_use_an_index() {
    let mut b = B::new(NS);
    let t = TypeId::Complex(b.complex(None, ContentType::Empty));
    for i in 0..20 {
        let a = b.attr(&format!("a{i}"), Builtin::Int);
        b.use_(t, a, i == 7, None);
    }
    b.global("r", t);
    let s = b.finish();
    let mut v = Validator::new(&s, ValidationOptions::default());
    assert_eq!(
        v.validate(format!("<r xmlns='{NS}' a19='1' a7='2' a0='3'/>").as_bytes()),
        Ok(())
    );
    let es = v
        .validate(format!("<r xmlns='{NS}' a19='x' a20='1'/>").as_bytes())
        .unwrap_err();
    let es: Vec<String> = es.iter().map(|e| e.to_string()).collect();
    assert_eq!(es.len(), 3, "{es:?}");
    assert!(
        es[0].contains("attribute 'a19' of element '{urn:t}r' is not valid"),
        "{es:?}"
    );
    assert!(es[1].contains("attribute 'a20' is not allowed"), "{es:?}");
    assert!(es[2].contains("must have the attribute 'a7'"), "{es:?}");
}

#[test]
fn validators_and_schemas_cross_threads() {
    fn send<T: Send>() {}
    fn sync<T: Send + Sync>() {}
    sync::<Schema>();
    send::<Validator<'static>>();
    let s = std::sync::Arc::new(po());
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let s = s.clone();
            std::thread::spawn(move || {
                let mut v = Validator::new(&s, ValidationOptions::default());
                v.validate(
                    format!(
                        "<order xmlns='{NS}'><shipTo>{ADDR}</shipTo><item qty='1'>1</item></order>"
                    )
                    .as_bytes(),
                )
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), Ok(()));
    }
}

#[test]
fn schemas_without_compiled_models_still_validate() {
    let mut b = B::new(NS);
    let a = b.local("a", st(Builtin::Int));
    let p = b.eo(a, 1, Some(2));
    let t = b.elements(None, p, false);
    b.global("r", t);
    let s = b.s; // content models of the new type not compiled
    valid(&s, &format!("<r xmlns='{NS}'><a>1</a><a>2</a></r>"));
    let es = errors(&s, &format!("<r xmlns='{NS}'><a>1</a><a>2</a><a>3</a></r>"));
    assert_eq!(es, ["1:34: element '{urn:t}a' is not allowed here: the content of '{urn:t}r' must end [cvc-complex-type.2.4]"]);
}

#[test]
fn keyrefs_see_keys_of_descendants_and_descendant_selectors() {
    let mut b = B::new(NS);
    let tns = b.tns;
    let any = |b: &mut B| {
        let w = b.any(NamespaceConstraint::Any, ProcessContents::Lax);
        let w = Particle {
            min_occurs: 0,
            max_occurs: MaxOccurs::Unbounded,
            ..w
        };
        b.elements(None, w, false)
    };
    let inner_t = any(&mut b);
    let outer_t = any(&mut b);
    let inner = b.global("inner", inner_t);
    let outer = b.global("outer", outer_t);
    let path = |desc: bool, steps: &[&str], attr: Option<&str>| RestrictedPath {
        descendants: desc,
        steps: steps
            .iter()
            .map(|s| NameTest::Name(tns, (*s).into()))
            .collect(),
        attribute: attr.map(|a| NameTest::Name(NamespaceId::ABSENT, a.into())),
    };
    let ic =
        |b: &mut B, on: ElementId, name: &str, kind, sel: RestrictedPath, field: RestrictedPath| {
            let id = IdentityConstraintId::from_index(b.s.identity_constraints.len());
            let n = b.name(name);
            b.s.identity_constraints.push(IdentityConstraint {
                name: n,
                kind,
                selector: vec![sel],
                selector_source: String::new(),
                fields: vec![(vec![field], "@n".into())],
                location: None,
                annotation: Annotation::default(),
            });
            b.elem_mut(on).identity_constraints.push(id);
            id
        };
    let k = ic(
        &mut b,
        inner,
        "k",
        IdentityKind::Key,
        path(true, &["def"], None),
        path(false, &[], Some("n")),
    );
    ic(
        &mut b,
        outer,
        "r",
        IdentityKind::KeyRef(k),
        path(true, &["use"], None),
        path(false, &[], Some("n")),
    );
    let s = b.finish();
    let d = |body: &str| format!("<outer xmlns='{NS}'>{body}</outer>");
    valid(
        &s,
        &d("<use n='a'/><inner><x><def n='a'/></x><def n='b'/></inner><x><use n='b'/></x>"),
    );
    let es = errors(&s, &d("<inner><def n='a'/></inner>\n<use n='c'/>"));
    assert_eq!(es, ["2:1: keyref '{urn:t}r' refers to (c), which is not a value of '{urn:t}k' [cvc-identity-constraint.4.3]"]);
}

#[test]
fn long_expected_sets_are_shortened_in_messages() {
    let mut b = B::new(NS);
    let ps: Vec<Particle> = (0..30)
        .map(|i| {
            let e = b.local(&format!("e{i}"), st(Builtin::String));
            b.e(e)
        })
        .collect();
    let g = b.choice(ps);
    let t = b.elements(None, g, false);
    b.global("r", t);
    let s = b.finish();
    let es = validate_bytes(
        &s,
        format!("<r xmlns='{NS}'><x/></r>").as_bytes(),
        &ValidationOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        es[0].message,
        "element 'x' is not allowed here in '{urn:t}r': expected one of {e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, ... (20 more)}"
    );
    assert_eq!(es[0].expected.len(), 30);
    assert_eq!(es[0].expected[29], "{urn:t}e29");
}

#[test]
fn substitution_blocked_by_a_type_derivation_and_mixed_fixed_values() {
    let mut b = B::new(NS);
    let x = b.local("x", st(Builtin::String));
    let px = b.eo(x, 0, Some(1));
    let base_p = b.seq(vec![px]);
    let base = b.elements(Some("Base"), base_p, true);
    let px2 = b.eo(x, 0, Some(1));
    let ext_p = b.seq(vec![px2]);
    let ext = b.elements(Some("Ext"), ext_p, true);
    b.ct_mut(ext).base = base;
    b.ct_mut(ext).derivation = Derivation::Extension;
    let head = b.global("head", base);
    b.elem_mut(head).block = DerivationSet::EXTENSION;
    b.elem_mut(head).value_constraint = Some(ValueConstraint {
        fixed: true,
        lexical: "v".into(),
        value: None,
    });
    let member = b.global("member", ext);
    b.substitute(member, head);
    let p = b.eo(head, 0, None);
    let t = b.elements(None, p, false);
    b.global("r", t);
    let s = b.finish();
    valid(&s, &format!("<r xmlns='{NS}'><head>v</head><head/></r>"));
    let es = errors(&s, &format!("<r xmlns='{NS}'><member/></r>"));
    assert_eq!(es, ["1:18: element '{urn:t}member' may not substitute for the element expected here: the substitution is blocked [cvc-elt.4.3]"]);
    let es = errors(
        &s,
        &format!("<r xmlns='{NS}'><head>w</head><head><x/></head></r>"),
    );
    assert_eq!(
        es,
        [
            "1:25: element '{urn:t}head' must have the fixed value 'v' [cvc-elt.5.2.2.2.1]",
            "1:42: element '{urn:t}head' must have the fixed value 'v' [cvc-elt.5.2.2.2.1]",
        ]
    );
}

#[test]
fn many_errors_stay_in_document_order() {
    let s = po();
    let items = "<note>n</note>\n".repeat(5000);
    let xml = format!("<order xmlns='{NS}'><shipTo><name>x</name><zip>bad</zip></shipTo>\n{items}<item qty='q'>z</item><bogus/></order>");
    let opts = ValidationOptions {
        max_errors: usize::MAX,
        ..ValidationOptions::default()
    };
    let es = validate_bytes(&s, xml.as_bytes(), &opts).unwrap_err();
    let pos: Vec<(u64, u64)> = es.iter().map(|e| (e.line, e.column)).collect();
    let mut sorted = pos.clone();
    sorted.sort();
    assert_eq!(pos, sorted);
    assert_eq!(es.len(), 4, "{es:?}");
    assert_eq!(pos[0], (1, 44));
    assert_eq!(pos[1], (5002, 1));
}

#[test]
fn thousands_of_idref_errors_are_cheap() {
    let mut b = B::new(NS);
    let t = TypeId::Complex(b.complex(None, ContentType::Empty));
    let rf = b.attr("ref", Builtin::IdRef);
    b.use_(t, rf, false, None);
    let x = b.local("x", t);
    let p = b.eo(x, 0, None);
    let root = b.elements(None, p, false);
    b.global("r", root);
    let s = b.finish();
    let body: String = (0..20_000).map(|i| format!("<x ref='n{i}'/>\n")).collect();
    let xml = format!("<r xmlns='{NS}'>\n{body}</r>");
    let opts = ValidationOptions {
        max_errors: usize::MAX,
        ..ValidationOptions::default()
    };
    let es = validate_bytes(&s, xml.as_bytes(), &opts).unwrap_err();
    assert_eq!(es.len(), 20_000);
    assert_eq!((es[0].line, es[0].column), (2, 1));
    assert_eq!((es[19_999].line, es[19_999].column), (20_001, 1));
}

/// Numbers are checked by a scan and built only when asked for; what the scan cannot vouch
/// for (INF, long integers) or refuses goes the full way, with the same values and errors.
#[test]
fn number_values_are_built_on_demand_and_agree_with_the_full_way() {
    let xsd = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
      <xs:simpleType name="qty">
        <xs:restriction base="xs:positiveInteger"><xs:maxExclusive value="100"/></xs:restriction>
      </xs:simpleType>
      <xs:element name="r"><xs:complexType><xs:choice maxOccurs="unbounded">
        <xs:element name="d" type="xs:double"/>
        <xs:element name="i" type="xs:int"/>
        <xs:element name="n" type="xs:integer"/>
        <xs:element name="q" type="qty"/>
        <xs:element name="x" type="xs:decimal"/>
      </xs:choice></xs:complexType></xs:element>
    </xs:schema>"#;
    let s = Schema::parse_str(xsd, &crate::load::LoadOptions::default()).unwrap();
    let values = |xml: &str| {
        let mut v = Validator::new(&s, ValidationOptions::default());
        let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml.as_bytes()));
        let mut got = Vec::new();
        loop {
            match r.next().unwrap().split() {
                (xwire::Event::Eof, _) => break,
                (xwire::Event::End(_), Psvi::End { value: Some(v), .. }) => {
                    // Built once: the second read is the same value.
                    assert!(std::ptr::eq(v.get(), v.get()));
                    assert_eq!(v.member(), v.get().member);
                    got.push(v.value().clone());
                }
                _ => {}
            }
        }
        let errors: Vec<String> = r.errors().iter().map(|e| e.message.clone()).collect();
        (got, errors)
    };
    let (got, errors) = values(
        "<r><d> 2.5e3 </d><d>INF</d><i>-7</i><n>12345678901234567890</n><q>99</q><x>+1.50</x></r>",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let int = |s: &str| Value::Integer(crate::datatypes::Decimal::parse(s).unwrap());
    assert_eq!(
        got,
        [
            Value::Double(2500.0),
            Value::Double(f64::INFINITY),
            int("-7"),
            int("12345678901234567890"),
            int("99"),
            Value::Decimal(crate::datatypes::Decimal::parse("1.5").unwrap()),
        ]
    );
    let (got, errors) = values("<r><d>1e</d><i>2147483648</i><q>100</q><x>.</x></r>");
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(
        errors[1].contains("above the maximum 2147483647"),
        "{errors:?}"
    );
    assert!(errors[2].contains("100"), "{errors:?}");
}

/// The planned start and end (element and value plans) give what the full way gives: the
/// same schema validated with its plans and without, on valid and invalid documents that touch
/// each condition the planned way checks (attributes, abstract and blocked members, identity
/// constraints, required attributes, value constraints, nil, mixed content, numbers the
/// scan refuses, unknown names, text in element-only content).
/// A schema with one element of each kind the planned ways and the lean pass take (and some
/// they leave to the full way), all optional children of `root`.
const QUICK_XSD: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:t="urn:q" targetNamespace="urn:q" elementFormDefault="qualified">
  <xs:element name="root">
    <xs:complexType><xs:sequence>
      <xs:element name="i" type="xs:int" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="small" minOccurs="0" maxOccurs="unbounded">
        <xs:simpleType><xs:restriction base="xs:short"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType>
      </xs:element>
      <xs:element name="d" type="xs:double" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="s" type="xs:string" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="dt" type="xs:date" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="code" minOccurs="0" maxOccurs="unbounded">
        <xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\d{3}-[A-Z]{2}"/></xs:restriction></xs:simpleType>
      </xs:element>
      <xs:element name="st" minOccurs="0" maxOccurs="unbounded">
        <xs:simpleType><xs:restriction base="xs:string">
          <xs:enumeration value="AK"/><xs:enumeration value="&#xE9;"/><xs:enumeration value=""/>
        </xs:restriction></xs:simpleType>
      </xs:element>
      <xs:element name="pc" type="t:Post" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="tk" type="xs:token" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="id" type="xs:ID" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="fixed" type="xs:int" fixed="7" minOccurs="0"/>
      <xs:element name="dflt" type="xs:decimal" default="1.5" minOccurs="0"/>
      <xs:element name="n" type="xs:int" nillable="true" minOccurs="0"/>
      <xs:element ref="t:head" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="req" minOccurs="0">
        <xs:complexType><xs:attribute name="a" type="xs:int" use="required"/></xs:complexType>
      </xs:element>
      <xs:element name="mixed" minOccurs="0" fixed="m">
        <xs:complexType mixed="true"><xs:sequence>
          <xs:element name="b" type="xs:string" minOccurs="0"/>
        </xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="keyed" minOccurs="0">
        <xs:complexType><xs:sequence>
          <xs:element name="k" type="xs:int" maxOccurs="unbounded"/>
        </xs:sequence></xs:complexType>
        <xs:unique name="u"><xs:selector xpath="t:k"/><xs:field xpath="."/></xs:unique>
      </xs:element>
      <xs:element name="inner" minOccurs="0">
        <xs:complexType><xs:sequence>
          <xs:element name="i" type="xs:int"/>
        </xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="arr" minOccurs="0">
        <xs:complexType><xs:sequence>
          <xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
        </xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="blk" type="xs:int" block="restriction" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="att" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType><xs:sequence>
          <xs:element name="i" type="xs:int" minOccurs="0"/>
        </xs:sequence>
          <xs:attribute name="req" type="xs:int" use="required"/>
          <xs:attribute name="code">
            <xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\d{3}-[A-Z]{2}"/></xs:restriction></xs:simpleType>
          </xs:attribute>
          <xs:attribute name="fix" type="xs:NMTOKEN" fixed="US"/>
          <xs:attribute name="fd" type="xs:decimal" fixed="1.0"/>
          <xs:attribute name="qn" type="xs:QName" fixed="t:x"/>
          <xs:attribute name="tok" type="xs:token"/>
          <xs:attribute name="def" type="xs:decimal" default="2.50"/>
          <xs:attribute ref="t:gatt"/>
          <xs:anyAttribute namespace="urn:other" processContents="lax"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="idatt" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType><xs:attribute name="id" type="xs:ID"/></xs:complexType>
      </xs:element>
      <xs:element name="wa" type="t:WithAttr" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="few" minOccurs="0">
        <xs:complexType><xs:sequence>
          <xs:element name="c" type="xs:int" minOccurs="2" maxOccurs="3"/>
          <xs:element ref="t:head" minOccurs="0" maxOccurs="2"/>
          <xs:element ref="t:bhead" minOccurs="0" maxOccurs="2"/>
        </xs:sequence></xs:complexType>
      </xs:element>
      <xs:element name="every" minOccurs="0">
        <xs:complexType><xs:all>
          <xs:element name="x" type="xs:int"/>
          <xs:element name="y" type="xs:date" minOccurs="0"/>
        </xs:all></xs:complexType>
      </xs:element>
    </xs:sequence></xs:complexType>
  </xs:element>
  <xs:attribute name="gatt" type="xs:date"/>
  <xs:element name="glob" type="xs:int"/>
  <xs:complexType name="WithAttr">
    <xs:simpleContent><xs:extension base="xs:int">
      <xs:attribute name="a" type="xs:int" use="required"/>
    </xs:extension></xs:simpleContent>
  </xs:complexType>
  <xs:complexType name="Abs" abstract="true"><xs:sequence/></xs:complexType>
  <xs:complexType name="Pair"><xs:sequence>
    <xs:element name="x" type="xs:int"/>
  </xs:sequence></xs:complexType>
  <xs:element name="head" type="xs:int" abstract="true"/>
  <xs:element name="member" type="xs:int" substitutionGroup="t:head"/>
  <xs:element name="bhead" type="xs:int" block="substitution"/>
  <xs:element name="bmember" type="xs:int" substitutionGroup="t:bhead"/>
  <xs:simpleType name="Post7">
    <xs:restriction base="xs:string"><xs:length value="7"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Post">
    <xs:restriction base="t:Post7"><xs:pattern value="[A-Z]{2}\d\s\d[A-Z]{2}"/></xs:restriction>
  </xs:simpleType>
</xs:schema>"#;

#[test]
fn planned_ways_agree_with_the_full_way() {
    let xsd = QUICK_XSD;
    let opts = crate::load::LoadOptions::default();
    let schema = Schema::parse_str(xsd, &opts).unwrap();
    assert!(crate::validate::plans::Plans::new(&schema)
        .elements
        .iter()
        .any(|p| p.is_some_and(|p| p.planned_end.is_some())));
    // Without element plans every start and end goes the full way; without value plans
    // every value is checked by the general walk over the facets.
    let docs = [
        "<i>1</i><i> 2 </i><small>3</small><d>2.5e3</d><d>INF</d><inner><i>4</i></inner>",
        "<i>x</i><i/><small>10</small><small>99999</small><d>1e</d><d></d>",
        "<i>12345678901234567890</i><i>1<b/></i><inner><i>1</i><i>2</i></inner>",
        "<fixed>7</fixed><dflt/><n xsi:nil='true'/><member>5</member><head>1</head>",
        "<fixed>8</fixed><dflt>2</dflt><n>3</n><member>x</member><req/><req a='1'/>",
        "<mixed>m</mixed><keyed><k>1</k><k>2</k><k>1</k></keyed>",
        "<mixed>m<b>x</b></mixed><unknown/><i xmlns:p='urn:p'>1</i><i q='1'>1</i>",
        "text<i>1</i>more<d>1.0</d>",
        "<s> a b </s><s/><s>&amp;</s><dt>2026-11-24</dt><dt> 2026-02-30 </dt><dt>x</dt>",
        "<code>123-AB</code><code> 123-AB</code><code>12-AB</code><id>a</id><id>a</id><id>1</id>",
        "<st>AK</st><st>\u{e9}</st><st></st><st/><st> AK</st><st>XX</st><st>AK\u{e9}</st><pc>LS2 9JT</pc><pc>LS2  9JT</pc><pc>LS29JT</pc><pc>ls2 9jt</pc><pc>L\u{e9}2 9JT</pc><tk>a b</tk><tk> a  b </tk><tk>a\tb</tk>",
        "<d xmlns:p='urn:p'>1.0</d><d xsi:type='p:double'>1</d><d xsi:type='xs:double' xmlns:xs='http://www.w3.org/2001/XMLSchema'>1</d>",
        "<t:head xmlns:t='urn:q' xsi:type='xs:int' xmlns:xs='http://www.w3.org/2001/XMLSchema'>2</t:head>",
        "<arr><item xsi:type='xs:double'>1.5</item><item xsi:type='xs:int'>x</item><item xsi:type='xs:nope'>1</item><item xsi:type='t:WithAttr'>1</item><item xsi:type='t:Abs'/><t:glob xsi:type='xs:int'>1</t:glob><t:glob xsi:type='xs:string'>1</t:glob><item xsi:type=' xs:int '>2</item><item xsi:type='bad:int'>3</item><item xsi:type='1x'>3</item><item>free</item><item xsi:type='t:Pair'><x>1</x></item><item xsi:type='t:Pair'><y/></item><item xsi:type='xs:int' xsi:nil='true'/></arr>",
        "<i xsi:type='xs:short'>5</i><i xsi:type='xs:string'>5</i><i xsi:type='t:WithAttr' a='1'>5</i><blk xsi:type='xs:short'>1</blk><blk xsi:type='xs:int'>1</blk>",
        "<att req='1'/><att req=' 2 ' code='123-AB' fix='US' def='3' t:gatt='2026-01-01'><i>1</i></att><att/><att req='x'/><att req='1' code='12-AB'/><att req='1' fix='UK'/><att req='1' fix=' US '/><att req='1' def='x'/>",
        "<att req='1' other='z'/><att req='1' xmlns:o='urn:other' o:x='1'/><att req='1' xmlns:o='urn:other' o:x='1' xmlns:p='urn:p'/><att req='1' xsi:nil='true'/><att req='1' xsi:type='t:Pair'/><att req='1' t:gatt='x'/><att req='1' t:nope='1'/>",
        "<idatt id='a'/><idatt id='a'/><idatt/><wa a='1'>5</wa><wa>5</wa><wa a='x'>5</wa><wa a='1' b='2'>5</wa><wa a='1'>x</wa>",
    ];
    for body in docs {
        let xml = format!(
            "<root xmlns='urn:q' xmlns:t='urn:q' xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>{body}</root>"
        );
        assert_eq!(
            observe(&schema, xml.as_bytes()),
            observe_without_plans(&schema, xml.as_bytes()),
            "{body}"
        );
    }
    // A root of a number type (the document ends with it), typed by xsi:type or declared.
    for xml in [
        "<i xmlns='urn:q'>5</i>",
        "<root xmlns='urn:q' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:type='xs:int' xmlns:xs='http://www.w3.org/2001/XMLSchema'>5</root>",
    ] {
        assert_eq!(
            observe(&schema, xml.as_bytes()),
            observe_without_plans(&schema, xml.as_bytes()),
            "{xml}"
        );
    }
    // Both ways report something for the invalid ones (the comparison is not vacuous).
    let bad = "<root xmlns='urn:q'><i>x</i></root>";
    assert!(observe(&schema, bad.as_bytes())
        .last()
        .unwrap()
        .contains("cvc-datatype-valid"));
}

/// What the general pass records (errors, IDs, identity tables) is emptied before the next
/// general pass, also when documents the lean pass proved valid come between (the lean pass
/// does not empty it).
#[test]
fn general_state_does_not_outlive_its_document() {
    let s = Schema::parse_str(QUICK_XSD, &crate::load::LoadOptions::default()).unwrap();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let doc = |body: &str| format!("<root xmlns='urn:q'>{body}</root>");
    let lean = doc("<i>1</i>");
    let ids = doc("<id>a</id><idatt id='b'/>");
    let keyed = doc("<keyed><k>1</k><k>2</k></keyed>");
    let errors = |v: &mut Validator<'_>, xml: &str| v.validate(xml.as_bytes()).map_err(|e| e.len());
    for _ in 0..2 {
        assert_eq!(errors(&mut v, &ids), Ok(()));
        assert_eq!(errors(&mut v, &lean), Ok(()));
        // The IDs of the first document are not this one's: no duplicate.
        assert_eq!(errors(&mut v, &ids), Ok(()));
        assert_eq!(
            errors(&mut v, &doc("<keyed><k>1</k><k>1</k></keyed>")),
            Err(1)
        );
        assert_eq!(errors(&mut v, &lean), Ok(()));
        assert_eq!(errors(&mut v, &keyed), Ok(()));
        assert_eq!(errors(&mut v, &doc("<i>x</i><id>a</id><id>a</id>")), Err(2));
        assert_eq!(errors(&mut v, &lean), Ok(()));
        assert_eq!(errors(&mut v, &keyed), Ok(()));
    }
}

/// The lean pass of `Validator::validate` proves valid the documents in its reach, gives up on
/// the others, and never proves an invalid one valid.
#[test]
fn the_lean_pass_proves_only_valid_documents() {
    use crate::validate::differential::check_lean;
    let schema = Schema::parse_str(QUICK_XSD, &crate::load::LoadOptions::default()).unwrap();
    let doc = |body: &str| {
        format!(
            "<root xmlns='urn:q' xmlns:t='urn:q' xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>{body}</root>"
        )
    };
    // Valid, and in the lean pass's reach.
    let proved = [
        "",
        "<i>1</i><i> 2 </i><small>3</small><d>2.5e3</d><d>INF</d><s> a b </s><s/><s>&amp;</s>",
        "<dt>2026-11-24</dt><code>123-AB</code><inner><i>4</i></inner>",
        "<i>+7</i><small> 9 </small><d>-0.5E-3</d>",
        "<i xsi:type='xs:short'>5</i><d xmlns:p='urn:p'>1.0</d><blk xsi:type='xs:int'>1</blk>",
        "<d xsi:type='p:double' xmlns:p='http://www.w3.org/2001/XMLSchema'>1</d>",
        "<i xsi:type='t:WithAttr' a='1'>5</i><wa a='1'>5</wa><wa a=' 2 '> 6 </wa>",
        "<arr><item xsi:type='xs:double'>1.5</item><item xsi:type='t:WithAttr' a='3'>1</item><item xsi:type='t:Pair'><x>1</x></item><t:glob>1</t:glob><t:glob xsi:type='xs:int'>1</t:glob><item xsi:type=' xs:int '>2</item></arr>",
        "<att req='1'/><att req=' 2 ' code='123-AB' fix='US' def='3' t:gatt='2026-01-01'><i>1</i></att>",
        "<att req='1' fix=' US '/><att req='1' xmlns:o='urn:other' o:x='1'/><att req='1' xmlns:o='urn:other' o:x='1' xmlns:p='urn:p'/>",
        // Fixed values as written and in other forms of the same value; string types as
        // they stand and collapsed.
        "<att req='1' fd='1.0' fix='US'/><att req='1' fd=' 1.00'/><att req='1' tok='a b'/><att req='1' tok=' a  b '/>",
        "<req a='1'/><!-- a comment --><?pi x?>",
        "<member>5</member>",
        // Counters and xs:all (the general automaton).
        "<few><c>1</c><c>2</c></few><every><y>2026-01-01</y><x>1</x></every>",
        "<few><c>1</c><c> 2</c><c>3</c></few><every><x>1</x></every>",
        "<few><c>1</c><c>2</c><member>3</member><member>4</member><bhead>5</bhead></few>",
        // A value in pieces: borrowed, then joined in order.
        "<code>12<!--c-->3-AB</code><code>1&#50;3-AB</code><code>12<![CDATA[3-]]>AB</code>",
        "<code><![CDATA[12]]>3-AB</code>",
        "<i>1<?pi?>2</i>",
        "<code>123-<!--c-->A<!--c-->B</code>",
        // String restrictions: enumerations, lengths and patterns; a token collapsed.
        "<st>AK</st><st>\u{e9}</st><st/><pc>LS2 9JT</pc><tk>a b</tk><tk> a  b </tk>",
        // Runs of the same start (taken again as the first was), broken by others.
        "<i>1</i><i>2</i><i>3</i><s>a</s><s>b</s><s>c</s>",
        "<i xsi:type='xs:short'>5</i><i xsi:type='xs:short'>6</i><i xsi:type='xs:short'>7</i><i>8</i><i>9</i>",
        "<arr><item xsi:type='xs:int'>1</item><item xsi:type='xs:int'>2</item><item xsi:type='xs:int'>3</item><item xsi:type='xs:double'>1.5</item><item xsi:type='xs:double'>2</item><item xsi:type='xs:double'>3</item><item xsi:type='p:int' xmlns:p='http://www.w3.org/2001/XMLSchema'>4</item><item xsi:type='xs:int'>5</item><item xsi:type='xs:int'>6</item></arr>",
        "<arr><item xsi:type='t:Pair'><x>1</x></item><item xsi:type='t:Pair'><x>2</x></item><item xsi:type='t:Pair'><x>3</x></item></arr>",
    ];
    for body in proved {
        let xml = doc(body);
        assert_eq!(check_lean(&schema, xml.as_bytes()), Ok(true), "{body}");
        valid(&schema, &xml);
    }
    // Valid, but left to the general engine: IDs, identity constraints, value constraints,
    // xsi:nil, lax subtrees.
    let left = [
        "<id>a</id>",
        "<idatt id='a'/>",
        "<keyed><k>1</k><k>2</k></keyed>",
        "<fixed>7</fixed>",
        "<dflt/>",
        "<n xsi:nil='true'/>",
        "<arr><item>free</item></arr>",
        "<mixed>m</mixed>",
    ];
    // Why the lean pass gave up on a document (it has not when `Ok`).
    let reason = |xml: &str| {
        let mut v = Validator::new(&schema, ValidationOptions::default());
        let none = &mut None::<fn(&xwire::Event<'_>)>;
        v.lean_pass(xml.as_bytes(), none).map_err(|g| g.reason)
    };
    for body in left {
        let xml = doc(body);
        assert_eq!(check_lean(&schema, xml.as_bytes()), Ok(false), "{body}");
        assert_eq!(reason(&xml), Err(Reason::Unsupported), "{body}");
        valid(&schema, &xml);
    }
    // Invalid: the lean pass gives up on each, and validate reports the error.
    let invalid = [
        "<i>x</i>",
        "<i/>",
        "<small>10</small>",
        "<d>1e</d>",
        "<dt>2026-02-30</dt>",
        "<code>12-AB</code>",
        "<code> 123-AB</code>",
        "<code>3-AB<!--c-->12</code>",
        "<code>-AB<![CDATA[123]]></code>",
        "<st>XX</st>",
        "<st> AK</st>",
        "<pc>LS29JT</pc>",
        "<pc>LS2 9J1</pc>",
        "<inner><i>1</i><i>2</i></inner>",
        "<inner/>",
        "<i>1<b/></i>",
        "text<i>1</i>",
        "<unknown/>",
        "<s>a</s><i>1</i>",
        "<i q='1'>1</i>",
        "<i xsi:type='xs:string'>5</i>",
        "<blk xsi:type='xs:short'>1</blk>",
        "<head>1</head>",
        "<arr><item xsi:type='xs:int'>x</item></arr>",
        "<arr><item xsi:type='xs:nope'>1</item></arr>",
        "<arr><item xsi:type='t:Abs'/></arr>",
        "<arr><item xsi:type='t:Pair'><y/></item></arr>",
        "<arr><t:glob xsi:type='xs:string'>1</t:glob></arr>",
        "<arr><item xsi:type='bad:int'>3</item></arr>",
        "<att/>",
        "<att req='x'/>",
        "<att req='1' code='12-AB'/>",
        "<att req='1' fix='UK'/>",
        "<att req='1' fd='1.5'/>",
        "<att req='1' qn='t:x' xmlns:t='urn:other'/>",
        "<att req='1' def='x'/>",
        "<att req='1' other='z'/>",
        "<att req='1' t:gatt='x'/>",
        "<att req='1' t:nope='1'/>",
        "<att req='1' xsi:type='t:Pair'/>",
        "<wa>5</wa>",
        "<wa a='x'>5</wa>",
        "<wa a='1' b='2'>5</wa>",
        "<wa a='1'>x</wa>",
        "<req/>",
        "<req a='1'>text</req>",
        "<few><c>1</c></few>",
        "<few><c>1</c><c>2</c><c>3</c><c>4</c></few>",
        "<few><c>1</c><c>x</c></few>",
        "<few><c>1</c><c>2</c><i>3</i></few>",
        "<few><c>1</c><c>2</c><head>3</head></few>",
        "<few><c>1</c><c>2</c><bmember>3</bmember></few>",
        "<few><c>1</c><c>2</c><member>3</member><member>4</member><member>5</member></few>",
        "<every/>",
        "<every><y>2026-01-01</y></every>",
        "<every><x>1</x><x>2</x></every>",
        "<every><x>1</x><c>2</c></every>",
        // The end of a run of the same start: the one that differs is judged afresh.
        "<i>1</i><i>2</i><i>3</i><i>x</i>",
        "<i>1</i><i>2</i><i a='1'>3</i>",
        "<i>1</i><i>2</i><i xmlns='urn:other'>3</i>",
        "<i xsi:type='xs:short'>5</i><i xsi:type='xs:short'>6</i><i xsi:type='xs:string'>7</i>",
        "<i xsi:type='xs:short'>5</i><i xsi:type='xs:short'>6</i><i xsi:type='xs:short'>70000</i>",
        "<arr><item xsi:type='xs:int'>1</item><item xsi:type='xs:int'>2</item><item xsi:type='xs:int'>x</item></arr>",
        "<arr><item xsi:type='xs:int'>1</item><item xsi:type='xs:int'>2</item><item xsi:type='xs:int' xmlns:xs='urn:other'>3</item></arr>",
        "<arr><item xsi:type='xs:int'>1</item><item xsi:type='xs:int'>2</item><item xsi:type='t:Pair'>3</item></arr>",
        "<arr><item xsi:type='t:Pair'><x>1</x></item><item xsi:type='t:Pair'><x>1</x></item><item xsi:type='t:Pair'><y/></item></arr>",
    ];
    for body in invalid {
        let xml = doc(body);
        assert_eq!(check_lean(&schema, xml.as_bytes()), Ok(false), "{body}");
        assert_eq!(reason(&xml), Err(Reason::Unproven), "{body}");
        assert!(!errors(&schema, &xml).is_empty(), "{body}");
    }
    // A QName's fixed value is the same text with the same binding: valid, whichever pass
    // proves it.
    let xml = doc("<att req='1' qn='t:x'/>");
    assert!(check_lean(&schema, xml.as_bytes()).is_ok());
    valid(&schema, &xml);
    let es = errors(&schema, &doc("<att req='1' qn='t:x' xmlns:t='urn:other'/>"));
    assert!(
        es[0].contains(
            "must have the fixed value 't:x', found 't:x' (the value {urn:other}x, not {urn:q}x)"
        ),
        "{es:?}"
    );
    // validate_with hands out each event once, in order, whether the lean pass proves the
    // document, gives up on it half-way (the general pass then goes on from there), or the
    // document is not well-formed.
    let mut v = Validator::new(&schema, ValidationOptions::default());
    for (xml, is_valid) in [
        (doc(proved[2]), true),
        (
            doc("<i>1</i><s>late</s><id>a</id><inner><i>2</i></inner>"),
            true,
        ),
        (doc("<i>1</i><i>x</i><s>after</s>"), false),
        ("<root xmlns='urn:q'><i>1</i><i>2</i>".to_string(), false),
    ] {
        let mut seen = Vec::new();
        let r = v.validate_with(xml.as_bytes(), |e| seen.push(format!("{e:?}")));
        let mut reader = xwire::Reader::from_slice(xml.as_bytes());
        let mut want = Vec::new();
        while let Ok(e) = reader.next() {
            if matches!(e, xwire::Event::Eof) {
                break;
            }
            want.push(format!("{e:?}"));
        }
        assert_eq!(seen, want, "{xml}");
        assert_eq!(r.is_ok(), is_valid, "{xml}");
    }

    // Not well-formed, two roots, no root: given up too.
    for xml in [
        "<root xmlns='urn:q'>",
        "<root xmlns='urn:q'/><root xmlns='urn:q'/>",
        "",
    ] {
        assert_eq!(check_lean(&schema, xml.as_bytes()), Ok(false), "{xml}");
        assert_eq!(reason(xml), Err(Reason::NotWellFormed), "{xml}");
    }
    // Location hints are the general pass's to collect.
    let options = ValidationOptions {
        schema_location_hints: true,
        ..ValidationOptions::default()
    };
    let mut v = Validator::new(&schema, options);
    let none = &mut None::<fn(&xwire::Event<'_>)>;
    let r = v.lean_pass(doc("").as_bytes(), none);
    assert_eq!(r.map_err(|g| g.reason), Err(Reason::NotSetUp));
}
