//! The envelope rules of both versions, faults written and read back, and messages that
//! come as binary XML.

use xwire::binary::BinaryWriter;
use xwire_soap::{Code, Envelope, Error, Fault, Node, QName, Reason, Version};

const V11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const V12: &str = "http://www.w3.org/2003/05/soap-envelope";

fn envelope(ns: &str, inner: &str) -> String {
    format!(r#"<e:Envelope xmlns:e="{ns}">{inner}</e:Envelope>"#)
}

fn refused(msg: &str) -> String {
    match Envelope::parse(msg.as_bytes()).and_then(|e| e.fault().map(|_| e)) {
        Ok(_) => panic!("accepted: {msg}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn structure_rules_of_both_versions() {
    for ns in [V11, V12] {
        let cases = [
            ("", "no Body"),
            ("<e:Header/><e:Header/><e:Body/>", "a second Header"),
            ("<e:Body/><e:Header/>", "follows the Body"),
            ("<e:Body/><e:Body/>", "follows the Body"),
            (
                "<e:HeaDER/><e:Body/>",
                "where it expects a Header or the Body",
            ),
            (
                "<Header/><e:Body/>",
                "where it expects a Header or the Body",
            ),
            ("text<e:Body/>", "holds text among its elements"),
            ("<e:Header><h/></e:Header><e:Body/>", "has no namespace"),
            (
                r#"<e:Header><h xmlns="urn:h" e:mustUnderstand="yes"/></e:Header><e:Body/>"#,
                "is not a boolean",
            ),
        ];
        for (inner, why) in cases {
            let e = refused(&envelope(ns, inner));
            assert!(e.contains(why), "{ns} {inner}: {e}");
        }
        // White space, comments and an XML declaration are fine; so are unqualified body
        // elements.
        let ok = format!(
            "<?xml version='1.0'?><!-- c -->{}",
            envelope(
                ns,
                " <!-- c --> <e:Header> </e:Header>\n<e:Body><a/></e:Body> "
            )
        );
        let env = Envelope::parse(ok.as_bytes()).unwrap();
        assert_eq!(env.body_elements().count(), 1);
    }
    // Processing instructions: refused in 1.1, ignored (and kept) in 1.2.
    let pi = "<e:Body><?pi x?></e:Body>";
    assert!(refused(&envelope(V11, pi)).contains("processing instruction ('pi')"));
    let env = Envelope::parse(envelope(V12, pi).as_bytes()).unwrap();
    assert_eq!(env.body_elements().count(), 0);
    // After the Body: qualified elements in 1.1 only.
    let after = "<e:Body/><x:more xmlns:x='urn:x'/>";
    assert!(Envelope::parse(envelope(V11, after).as_bytes()).is_ok());
    assert!(refused(&envelope(V12, after)).contains("follows the Body"));
    assert!(refused(&envelope(V11, "<e:Body/><more/>")).contains("follows the Body"));
    // relay is a 1.2 attribute, and must be a boolean there.
    let relay = r#"<e:Header><h xmlns="urn:h" e:relay="maybe"/></e:Header><e:Body/>"#;
    assert!(refused(&envelope(V12, relay)).contains("relay='maybe'"));
    assert!(Envelope::parse(envelope(V11, relay).as_bytes()).is_ok());
    // encodingStyle may not sit on the 1.2 envelope, header or body.
    let style = r#"<e:Body e:encodingStyle="http://www.w3.org/2003/05/soap-encoding"/>"#;
    assert!(refused(&envelope(V12, style)).contains("encodingStyle on the Body"));
}

#[test]
fn what_is_not_an_envelope_is_a_version_mismatch_or_not_xml() {
    for msg in [
        "<Envelope/>",
        "<e:Envelope xmlns:e='http://schemas.xmlsoap.org/soap/envelope'/>",
        "<e:Body xmlns:e='http://www.w3.org/2003/05/soap-envelope'/>",
    ] {
        let e = Envelope::parse(msg.as_bytes()).unwrap_err();
        assert!(matches!(e, Error::VersionMismatch { .. }), "{msg}: {e}");
        let fault = e.to_fault();
        assert_eq!(fault.code, Code::VersionMismatch);
        assert_eq!(fault.upgrade, [Version::V12, Version::V11]);
    }
    let doctype = format!("<!DOCTYPE e:Envelope>{}", envelope(V12, "<e:Body/>"));
    let e = Envelope::parse(doctype.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("document type declaration"), "{e}");
    assert_eq!(e.to_fault().code, Code::Sender);
    for truncated in ["", "<e:Envelope xmlns:e='urn:x'", "\u{0}"] {
        let e = Envelope::parse(truncated.as_bytes()).unwrap_err();
        assert!(matches!(e, Error::Xml(_)), "{truncated:?}: {e}");
    }
}

fn full_fault() -> Fault {
    let mut f = Fault::new(Code::Sender, "bad input");
    f.subcodes = vec![QName::new("urn:app", "Validation")];
    f.reasons.push(Reason {
        lang: "fr".into(),
        text: "entrée invalide".into(),
    });
    f.node = Some("http://example.org/node".into());
    f.role = Some("http://example.org/role".into());
    let mut detail = xwire::binary::TypedDocument::new();
    let d = detail.append_element(detail.root(), "urn:app", "a:why");
    detail.declare_namespace(d, "a", "urn:app");
    detail.append_text(d, "field 3");
    f.detail = Some(detail);
    f
}

#[test]
fn faults_written_read_back_in_1_2() {
    let f = full_fault();
    let bytes = f.to_envelope(Version::V12).to_bytes().unwrap();
    let back = Envelope::parse(&bytes).unwrap().fault().unwrap().unwrap();
    assert_eq!(back.code, f.code);
    assert_eq!(back.subcodes, f.subcodes);
    assert_eq!(back.reasons, f.reasons);
    assert_eq!((back.node, back.role), (f.node, f.role));
    let detail = back.detail.unwrap();
    let why = detail.root_element().unwrap();
    assert_eq!(
        (detail.namespace_uri(why), detail.local_name(why)),
        ("urn:app", "why")
    );
    // A 1.1 code of the application's namespace becomes Receiver with it as a subcode.
    let other = Fault::new(Code::Other(QName::new("urn:app", "Busy")), "later");
    let bytes = other.to_envelope(Version::V12).to_bytes().unwrap();
    let back = Envelope::parse(&bytes).unwrap().fault().unwrap().unwrap();
    assert_eq!(back.code, Code::Receiver);
    assert_eq!(back.subcodes, [QName::new("urn:app", "Busy")]);
}

#[test]
fn faults_written_read_back_in_1_1() {
    let mut f = full_fault();
    f.subcodes = vec![QName::new(V11, "Validation")];
    let text = String::from_utf8(f.to_envelope(Version::V11).to_bytes().unwrap()).unwrap();
    assert!(
        text.contains("<faultcode>soap:Client.Validation</faultcode>"),
        "{text}"
    );
    let back = Envelope::parse(text.as_bytes())
        .unwrap()
        .fault()
        .unwrap()
        .unwrap();
    assert_eq!((&back.code, &back.subcodes), (&Code::Sender, &f.subcodes));
    assert_eq!(back.reason(), "bad input");
    assert_eq!(back.node, f.node);
    assert!(back.role.is_none(), "1.1 has no role");
    let other = Fault::new(Code::Other(QName::new("urn:app", "Busy")), "later");
    let bytes = other.to_envelope(Version::V11).to_bytes().unwrap();
    let back = Envelope::parse(&bytes).unwrap().fault().unwrap().unwrap();
    assert_eq!(back.code, Code::Other(QName::new("urn:app", "Busy")));
}

#[test]
fn malformed_faults_are_refused() {
    let cases = [
        (V12, "<e:Fault><e:Reason><e:Text xml:lang='en'>x</e:Text></e:Reason></e:Fault>", "where it expects Code"),
        (V12, "<e:Fault><e:Code><e:Value>e:Sender</e:Value></e:Code></e:Fault>", "needs a Code and a Reason"),
        (V12, "<e:Fault><e:Code><e:Value>e:Nope</e:Value></e:Code><e:Reason><e:Text xml:lang='en'>x</e:Text></e:Reason></e:Fault>", "is not a SOAP 1.2 fault code"),
        (V12, "<e:Fault><e:Code><e:Value>q:Sender</e:Value></e:Code><e:Reason><e:Text xml:lang='en'>x</e:Text></e:Reason></e:Fault>", "not a QName with a bound prefix"),
        (V12, "<e:Fault><e:Code><e:Value>e:Sender</e:Value></e:Code><e:Reason><e:Text xml:lang='en'>x</e:Text></e:Reason><e:Detail/><e:Node>n</e:Node></e:Fault>", "where it expects its end"),
        (V12, "<e:Fault><e:Code>e:Sender</e:Code><e:Reason><e:Text xml:lang='en'>x</e:Text></e:Reason></e:Fault>", "text among its elements"),
        (V11, "<e:Fault><faultstring>x</faultstring></e:Fault>", "has no faultcode"),
        (V11, "<e:Fault><faultcode>e:Client</faultcode></e:Fault>", "has no faultstring"),
        (V11, "<e:Fault><faultcode>e:Client</faultcode><faultstring>x</faultstring><faultstring>y</faultstring></e:Fault>", "two faultstring"),
        (V11, "<e:Fault><faultcode>e:Oops</faultcode><faultstring>x</faultstring></e:Fault>", "not a SOAP 1.1 fault code"),
        (V11, "<e:Fault><faultcode>e:Client</faultcode><faultstring>x</faultstring><extra/></e:Fault>", "unqualified element 'extra'"),
    ];
    for (ns, fault, why) in cases {
        let e = refused(&envelope(ns, &format!("<e:Body>{fault}</e:Body>")));
        assert!(e.contains(why), "{fault}: {e}");
    }
}

#[test]
fn a_reason_without_a_language_reads() {
    let msg = envelope(
        V12,
        "<e:Body><e:Fault><e:Code><e:Value>e:Sender</e:Value></e:Code><e:Reason><e:Text>no</e:Text></e:Reason></e:Fault></e:Body>",
    );
    let f = Envelope::parse(msg.as_bytes())
        .unwrap()
        .fault()
        .unwrap()
        .unwrap();
    assert_eq!((f.reasons[0].lang.as_str(), f.reason()), ("", "no"));
    let again = f.to_envelope(Version::V12).to_bytes().unwrap();
    assert!(String::from_utf8(again)
        .unwrap()
        .contains(r#"<env:Text xml:lang="en">no</env:Text>"#));
}

#[test]
fn headers_are_inserted_before_the_body_and_processed_by_role() {
    let mut env = Envelope::new(Version::V12);
    let b = env.add_body_element("urn:m", "m:op");
    env.document_mut().append_text(b, "x");
    let h = env.add_header_block("urn:h", "h:one");
    env.document_mut()
        .set_attribute(h, V12, "env:mustUnderstand", "true");
    let h2 = env.add_header_block("urn:h", "h:two");
    env.document_mut()
        .set_attribute(h2, V12, "env:role", "urn:elsewhere");
    let bytes = env.to_bytes().unwrap();
    let back = Envelope::parse(&bytes).unwrap();
    let names: Vec<_> = back.header_blocks().map(|b| b.local_name()).collect();
    assert_eq!(names, ["one", "two"]);
    let blocks: Vec<_> = back.header_blocks().collect();
    assert!(blocks[0].must_understand() && !blocks[1].must_understand());
    assert_eq!(blocks[1].role(), Some("urn:elsewhere"));
    let node = Node::ultimate_receiver();
    let mine = node.process(&back, |b| b.local_name() == "one").unwrap();
    assert_eq!(mine.len(), 1, "two is for urn:elsewhere");
    let fault = node.process(&back, |_| false).unwrap_err();
    assert_eq!(fault.not_understood, [QName::new("urn:h", "one")]);
    // The fault's reply names the block in a NotUnderstood header block.
    let reply = fault.to_envelope(Version::V12);
    let nu = reply.header_blocks().next().unwrap();
    assert_eq!(nu.local_name(), "NotUnderstood");
    let doc = reply.document();
    let qname = doc.attribute(nu.node(), "", "qname").unwrap();
    let (p, local) = qname.split_once(':').unwrap();
    assert_eq!(
        (doc.lookup_namespace(nu.node(), p), local),
        (Some("urn:h"), "one")
    );
    // An intermediary is not the ultimate receiver: a block without a role is not for it.
    assert!(Node::intermediary()
        .process(&back, |_| false)
        .unwrap()
        .is_empty());
}

#[test]
fn roles_and_actors() {
    let msg = |ns: &str, role_attr: &str, role: &str| {
        envelope(
            ns,
            &format!(r#"<e:Header><h xmlns="urn:h" e:{role_attr}="{role}"/></e:Header><e:Body/>"#),
        )
    };
    let targets = |m: String, node: &Node| {
        let env = Envelope::parse(m.as_bytes()).unwrap();
        let b = env.header_blocks().next().unwrap();
        node.targets(&b)
    };
    let ur = Node::ultimate_receiver();
    let mid = Node::intermediary().with_role("urn:b");
    let v12 = Version::V12;
    let next = v12.next_role();
    let last = v12.ultimate_receiver_role().unwrap();
    let none = v12.none_role().unwrap();
    assert!(targets(msg(V12, "role", next), &ur) && targets(msg(V12, "role", next), &mid));
    assert!(targets(msg(V12, "role", last), &ur) && !targets(msg(V12, "role", last), &mid));
    assert!(!targets(msg(V12, "role", none), &ur) && !targets(msg(V12, "role", none), &mid));
    assert!(!targets(msg(V12, "role", "urn:b"), &ur) && targets(msg(V12, "role", "urn:b"), &mid));
    // 1.1 names it actor; `role` there is an attribute like any other.
    let next11 = Version::V11.next_role();
    assert!(targets(msg(V11, "actor", next11), &mid));
    assert!(!targets(msg(V11, "actor", "urn:c"), &mid));
    assert!(
        targets(msg(V11, "role", "urn:c"), &ur),
        "no actor: the ultimate receiver's"
    );
}

#[test]
fn a_message_in_binary_xml_is_the_same_envelope() {
    let text = envelope(
        V12,
        r#"<e:Header><h:t xmlns:h="urn:h" e:mustUnderstand="1">on</h:t></e:Header><e:Body><m:v xmlns:m="urn:m">3</m:v></e:Body>"#,
    );
    let env = Envelope::parse(text.as_bytes()).unwrap();
    let mut w = BinaryWriter::new(Vec::new());
    env.write(&mut w).unwrap();
    let binary = w.finish().unwrap();
    assert!(xwire::binary::is_binary(&binary));
    let back = Envelope::parse(&binary).unwrap();
    assert_eq!(back.version(), Version::V12);
    assert!(back.header_blocks().next().unwrap().must_understand());
    assert_eq!(back.to_bytes().unwrap(), env.to_bytes().unwrap());
}
