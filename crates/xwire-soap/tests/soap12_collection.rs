//! The W3C SOAP 1.2 test collection's messages, as Apache Axis2 keeps them
//! (`../shared/corpora/soap/axis2/.../SOAP12Testing`), run through two nodes in process:
//! the intermediary B (role `http://example.org/ts-tests/B`) forwarding to the ultimate
//! receiver C (role `.../C`). Each node implements the collection's header and body blocks
//! (section 3.2 and 3.3 of the collection: echoOk, Ignore, requiredHeader, the
//! concatAndForward blocks, validateCountryCode; echoOk, returnVoid, echoHeader) on
//! `xwire_soap`'s processing model. The reply is compared with the corpus's as values: the
//! fault code and subcodes, the NotUnderstood and other header blocks, and the blocks
//! replied with their text (white space collapsed). Reason texts are not compared: they are
//! prose.
//!
//! A request named `Tn` goes from A straight to C; `Tn_A` (and `T38_1`, `T38_2`) from A
//! to B, which forwards to C; `Tn_B` is the message B forwards, sent to C. Requests
//! without a reply in the corpus are counted as not run.

use std::path::Path;

use xwire::binary::{Kind, NodeId, TypedDocument};
use xwire_soap::{Code, Envelope, Fault, HeaderBlock, Node, QName, Version};

const TS: &str = "http://example.org/ts-tests";
const RPC: &str = "http://www.w3.org/2003/05/soap-rpc";
const ROLE_B: &str = "http://example.org/ts-tests/B";
const ROLE_C: &str = "http://example.org/ts-tests/C";
const ENV: &str = xwire_soap::SOAP12_ENV;

fn understands(b: &HeaderBlock<'_>) -> bool {
    b.namespace() == TS
        && matches!(
            b.local_name(),
            "echoOk"
                | "Ignore"
                | "requiredHeader"
                | "concatAndForwardEchoOk"
                | "concatAndForwardEchoOkArg1"
                | "concatAndForwardEchoOkArg2"
                | "validateCountryCode"
        )
}

/// The text under `n`, white space collapsed.
fn text(doc: &TypedDocument, n: NodeId) -> String {
    let mut out = String::new();
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match doc.kind(n) {
            Kind::Text | Kind::CData => out.push_str(doc.text(n)),
            Kind::Element | Kind::Document => {
                let mut c: Vec<NodeId> = doc.children(n).collect();
                c.reverse();
                stack.extend(c);
            }
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn fault_reply(fault: &Fault) -> Envelope {
    fault.to_envelope(Version::V12)
}

/// `reply` with a responseOk header block for each of `responses` before its own blocks.
fn with_responses(reply: &Envelope, responses: &[String]) -> Envelope {
    let src = reply.document();
    let mut out = Envelope::new(Version::V12);
    for r in responses {
        let h = out.add_header_block(TS, "test:responseOk");
        out.document_mut().append_text(h, r);
    }
    for b in reply.header_blocks() {
        let header = out.header_or_insert();
        out.document_mut().append_copy(header, src, b.node());
    }
    for n in reply.body_elements() {
        let body = out.body();
        out.document_mut().append_copy(body, src, n);
    }
    out
}

/// Node C, the ultimate receiver.
fn at_c(env: &Envelope) -> Envelope {
    let node = Node::ultimate_receiver().with_role(ROLE_C);
    let blocks = match node.process(env, understands) {
        Ok(b) => b,
        Err(f) => return fault_reply(&f),
    };
    let doc = env.document();
    let mut responses = Vec::new();
    let mut required = None;
    for b in &blocks {
        let t = text(doc, b.node());
        match b.local_name() {
            "echoOk" => responses.push(t),
            "requiredHeader" => required = Some(t),
            "validateCountryCode"
                if t.len() != 2 || !t.bytes().all(|c| c.is_ascii_alphabetic()) =>
            {
                let f = Fault::new(Code::Sender, "Not a valid country code");
                let mut reply = fault_reply(&f);
                let h = reply.add_header_block(TS, "test:validateCountryCodeFault");
                reply
                    .document_mut()
                    .append_text(h, "Country code must be 2 letters.");
                return reply;
            }
            _ => {}
        }
    }
    let mut reply = Envelope::new(Version::V12);
    for r in &responses {
        let h = reply.add_header_block(TS, "test:responseOk");
        reply.document_mut().append_text(h, r);
    }
    if let Some(op) = env.body_elements().next() {
        let (ns, local) = (doc.namespace_uri(op), doc.local_name(op));
        let answer = match (ns == TS, local) {
            (true, "echoOk") => Some(("test:responseOk", text(doc, op))),
            (true, "returnVoid") => Some(("test:returnVoidResponse", String::new())),
            (true, "echoHeader") => Some(("test:echoHeaderResponse", required.unwrap_or_default())),
            _ => None,
        };
        match answer {
            Some((name, t)) => {
                let r = reply.add_body_element(TS, name);
                reply.document_mut().append_text(r, &t);
            }
            None => {
                let mut f = Fault::new(Code::Sender, "Procedure Not Present");
                f.subcodes = vec![QName::new(RPC, "ProcedureNotPresent")];
                return fault_reply(&f);
            }
        }
    }
    reply
}

/// Node B, the intermediary: processes the blocks for it, forwards the rest to C, and
/// adds its own responses to C's reply.
fn at_b(env: &Envelope) -> Envelope {
    match forward(env) {
        Ok((fwd, responses)) => with_responses(&at_c(&fwd), &responses),
        Err(fault) => fault,
    }
}

/// What B sends on to C and the responses it adds to the reply, or its fault.
fn forward(env: &Envelope) -> Result<(Envelope, Vec<String>), Envelope> {
    let node = Node::intermediary().with_role(ROLE_B);
    let blocks = match node.process(env, understands) {
        Ok(b) => b,
        Err(mut f) => {
            f.node = Some(ROLE_B.into());
            f.role = Some(ROLE_B.into());
            return Err(fault_reply(&f));
        }
    };
    let doc = env.document();
    let mut responses = Vec::new();
    let mut args = [String::new(), String::new()];
    let mut concat = false;
    for b in &blocks {
        let t = text(doc, b.node());
        match b.local_name() {
            "echoOk" => responses.push(t),
            "concatAndForwardEchoOk" => concat = true,
            "concatAndForwardEchoOkArg1" => args[0] = t,
            "concatAndForwardEchoOkArg2" => args[1] = t,
            _ => {}
        }
    }
    // Forward: blocks not for B, and blocks for B it did not process that ask to be relayed.
    let mut fwd = Envelope::new(Version::V12);
    for b in env.header_blocks() {
        let processed = node.targets(&b) && understands(&b);
        if !node.targets(&b) || (!processed && b.relay()) {
            let header = fwd.header_or_insert();
            fwd.document_mut().append_copy(header, doc, b.node());
        }
    }
    if concat {
        let h = fwd.add_header_block(TS, "test:echoOk");
        let d = fwd.document_mut();
        d.set_attribute(h, ENV, "env:role", ROLE_C);
        d.set_attribute(h, ENV, "env:mustUnderstand", "1");
        d.append_text(h, &format!("{}{}", args[0], args[1]));
    }
    for n in env.body_elements() {
        let body = fwd.body();
        fwd.document_mut().append_copy(body, doc, n);
    }
    // What B sends is a message C reads from the wire.
    let fwd = Envelope::parse(&fwd.to_bytes().unwrap()).expect("the forwarded message reads");
    Ok((fwd, responses))
}

fn run(request: &[u8], to_b: bool) -> Envelope {
    match Envelope::parse(request) {
        Err(e) => e
            .to_fault()
            .to_envelope(e.version().unwrap_or(Version::V12)),
        Ok(env) if to_b => at_b(&env),
        Ok(env) => at_c(&env),
    }
}

/// What a reply says, as compared.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    /// `Some((code, subcodes))` for a fault.
    fault: Option<(String, Vec<String>)>,
    headers: Vec<String>,
    body: Vec<String>,
}

fn summary(bytes: &[u8]) -> Summary {
    let doc = TypedDocument::read(&mut xwire::Reader::from_slice(bytes)).expect("a reply is XML");
    let root = doc.root_element().expect("a root");
    let child = |n: NodeId, local: &str| {
        doc.children(n)
            .find(|&c| doc.kind(c) == Kind::Element && doc.local_name(c) == local)
    };
    let elements = |n: NodeId| -> Vec<NodeId> {
        doc.children(n)
            .filter(|&c| doc.kind(c) == Kind::Element)
            .collect()
    };
    let qname = |n: NodeId, q: &str| {
        let (p, local) = q.trim().split_once(':').unwrap_or(("", q.trim()));
        format!("{{{}}}{local}", doc.lookup_namespace(n, p).unwrap_or(""))
    };
    let mut headers = Vec::new();
    if let Some(h) = child(root, "Header") {
        for b in elements(h) {
            // The reply of T30 names its Upgrade block in the request's (wrong) envelope
            // namespace: the SOAP blocks are compared by local name.
            let name = match doc.local_name(b) {
                l @ ("NotUnderstood" | "Upgrade") => l.to_string(),
                l => format!("{{{}}}{l}", doc.namespace_uri(b)),
            };
            let value = match doc.local_name(b) {
                "NotUnderstood" => qname(b, doc.attribute(b, "", "qname").unwrap_or("")),
                // The node's preferred version: the first one it names.
                "Upgrade" => elements(b)
                    .first()
                    .map(|&s| qname(s, doc.attribute(s, "", "qname").unwrap_or("")))
                    .unwrap_or_default(),
                _ => text(&doc, b),
            };
            headers.push(format!("{name} {value}"));
        }
    }
    let body = child(root, "Body").expect("a Body");
    let mut fault = None;
    let mut entries = Vec::new();
    for b in elements(body) {
        if doc.local_name(b) == "Fault" {
            let (code, subcodes) = match child(b, "Code") {
                Some(c) => {
                    let value = child(c, "Value").unwrap_or(c);
                    let mut subcodes = Vec::new();
                    let mut at = c;
                    while let Some(s) = child(at, "Subcode") {
                        // By local name: T33's reply leaves the `rpc` prefix unbound.
                        if let Some(v) = child(s, "Value") {
                            let t = text(&doc, v);
                            subcodes.push(t.rsplit(':').next().unwrap_or("").to_string());
                        }
                        at = s;
                    }
                    (qname(value, &text(&doc, value)), subcodes)
                }
                None => {
                    let c = child(b, "faultcode").expect("a fault code");
                    (qname(c, &text(&doc, c)), Vec::new())
                }
            };
            let local = code.rsplit('}').next().unwrap_or("").to_string();
            fault = Some((local, subcodes));
        } else {
            entries.push(format!(
                "{{{}}}{} {}",
                doc.namespace_uri(b),
                doc.local_name(b),
                text(&doc, b)
            ));
        }
    }
    Summary {
        fault,
        headers,
        body: entries,
    }
}

/// Whether `got` answers as `expected`: the same fault code and subcodes or the same
/// blocks; a fault may add an Upgrade header block the corpus's reply does not show.
fn agrees(expected: &Summary, got: &Summary) -> bool {
    let upgrade = "Upgrade";
    let headers: Vec<&String> = got
        .headers
        .iter()
        .filter(|h| {
            expected.fault.is_none()
                || !h.starts_with(upgrade)
                || expected.headers.iter().any(|e| e.starts_with(upgrade))
        })
        .collect();
    expected.fault == got.fault
        && expected.headers.iter().collect::<Vec<_>>() == headers
        && expected.body == got.body
}

#[test]
fn the_soap12_test_collection() {
    let Some(root) =
        xwire_conformance::corpus("soap/axis2/modules/integration/test-resources/SOAP12Testing")
    else {
        return;
    };
    let replies: Vec<(String, std::path::PathBuf)> = files(&root.join("ReplyMessages"))
        .into_iter()
        .filter_map(|p| {
            let stem = p
                .file_stem()?
                .to_str()?
                .strip_prefix("SOAP12Res")?
                .to_string();
            Some((stem, p))
        })
        .collect();
    let (mut passed, mut failed, mut not_run) = (0, Vec::new(), Vec::new());
    for req in files(&root.join("RequestMessages")) {
        let Some(id) = req
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.strip_prefix("SOAP12Req"))
        else {
            continue;
        };
        // The reply of T38_1 is T38_1; of T6_A and T6_B, the one reply numbered 6.
        let number = id.split('_').next().unwrap_or(id);
        let reply = replies.iter().find(|(r, _)| r == id).or_else(|| {
            let same: Vec<_> = replies
                .iter()
                .filter(|(r, _)| r.split('_').next() == Some(number))
                .collect();
            (same.len() == 1).then(|| same[0])
        });
        let Some((_, reply)) = reply else {
            not_run.push(id.to_string());
            continue;
        };
        let request = std::fs::read(&req).unwrap();
        // T1 goes from A to C; T6_A from A to B, T6_B from B to C; T38_1 from A through B.
        let through_b = id.contains('_') && !id.ends_with("_B");
        let got = run(&request, through_b).to_bytes().unwrap();
        let expected = summary(&std::fs::read(reply).unwrap());
        let got = summary(&got);
        if agrees(&expected, &got) {
            passed += 1;
        } else {
            failed.push(format!("{id}: expected {expected:?}, got {got:?}"));
        }
    }
    eprintln!(
        "soap12 test collection: {passed} passed, {} failed, {} not run (no reply in the corpus: {})",
        failed.len(),
        not_run.len(),
        not_run.join(", ")
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert_eq!(passed, 44, "the corpus changed");
}

/// Where the corpus has both what A sends B (`Tn_A`) and what B sends C (`Tn_B`), B's
/// forwarded message must be the latter: processed blocks removed, others relayed, the
/// concatenated echoOk of T62 inserted.
#[test]
fn the_intermediary_forwards_what_the_collection_says() {
    let Some(root) = xwire_conformance::corpus(
        "soap/axis2/modules/integration/test-resources/SOAP12Testing/RequestMessages",
    ) else {
        return;
    };
    let mut checked = Vec::new();
    for a in files(&root) {
        let name = a.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix("_A.xml") else {
            continue;
        };
        let b = root.join(format!("{stem}_B.xml"));
        if !b.exists() {
            continue;
        }
        let env = Envelope::parse(&std::fs::read(&a).unwrap());
        // The corpus's T7_A and T8_A close test:Ignore with </test:echoOk>: not XML.
        if stem == "SOAP12ReqT7" || stem == "SOAP12ReqT8" {
            assert!(matches!(env, Err(xwire_soap::Error::Xml(_))), "{name}");
            continue;
        }
        let env = env.unwrap();
        let (fwd, _) = forward(&env).unwrap_or_else(|_| panic!("{name}: B faulted"));
        let got = summary(&fwd.to_bytes().unwrap());
        let expected = summary(&std::fs::read(&b).unwrap());
        assert_eq!(got, expected, "{name}");
        checked.push(stem.trim_start_matches("SOAP12Req").to_string());
    }
    eprintln!("forwarded as the collection says: {}", checked.join(", "));
    assert_eq!(checked.len(), 4, "{checked:?}");
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    out.sort();
    out
}
