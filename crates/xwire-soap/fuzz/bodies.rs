//! The bodies of the fuzz targets, shared by the targets in `fuzz_targets/` and by
//! `crates/xwire-soap/tests/fuzz_regressions.rs`, which runs them over the committed seeds,
//! the SOAP corpora and the inputs the fuzzer found (so a target's checks also run under
//! `cargo test`).
//!
//! Each body panics when the property it checks fails; anything else it returns is fine.
#![allow(dead_code)]

use std::collections::HashMap;

use xwire_soap::{Envelope, Graph, Node, NodeRef, QName, Value, Version};

/// `envelope`: arbitrary bytes (text or binary XML) as a SOAP message.
///
/// - A message that reads writes back, and what it writes reads as the same envelope:
///   same version, same header blocks with the same flags and roles, same body elements,
///   the same fault (or none), and the same bytes when written again.
/// - Processing it as an ultimate receiver that understands nothing either gives its
///   blocks or a `MustUnderstand` fault whose reply envelope reads back as that fault.
/// - A message that does not read gives a fault whose reply envelope reads back with the
///   same code.
pub fn envelope(data: &[u8]) {
    match Envelope::parse(data) {
        Ok(env) => {
            let fault = env.fault();
            let bytes = env.to_bytes().expect("a message read writes");
            let back = Envelope::parse(&bytes).unwrap_or_else(|e| panic!("written, refused: {e}"));
            assert_eq!(back.version(), env.version());
            let blocks = |e: &Envelope| -> Vec<(String, bool, bool, Option<String>)> {
                e.header_blocks()
                    .map(|b| {
                        let name = b.name().to_string();
                        (
                            name,
                            b.must_understand(),
                            b.relay(),
                            b.role().map(str::to_string),
                        )
                    })
                    .collect()
            };
            assert_eq!(blocks(&back), blocks(&env));
            assert_eq!(back.body_elements().count(), env.body_elements().count());
            match (fault, back.fault()) {
                (Ok(a), Ok(b)) => assert_eq!(a.map(|f| f.code), b.map(|f| f.code)),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("the fault read differently: {a:?} then {b:?}"),
            }
            assert_eq!(back.to_bytes().expect("writes"), bytes, "written twice");
            if let Err(f) = Node::ultimate_receiver().process(&env, |_| false) {
                let reply = f
                    .to_envelope(env.version())
                    .to_bytes()
                    .expect("a fault writes");
                let read = Envelope::parse(&reply).expect("a fault reply reads");
                let again = read.fault().expect("reads as a fault").expect("a fault");
                assert_eq!(again.code, f.code);
            }
        }
        Err(e) => {
            let fault = e.to_fault();
            let v = e.version().unwrap_or(Version::V12);
            let reply = fault.to_envelope(v).to_bytes().expect("a fault writes");
            let read = Envelope::parse(&reply).expect("a fault reply reads");
            let again = read.fault().expect("reads as a fault").expect("a fault");
            assert_eq!(again.code, fault.code);
            assert!(!e.to_string().is_empty());
        }
    }
}

/// `encoding`: bytes as a SOAP message, its first body elements decoded as SOAP encoding
/// graphs (the multi-ref resolver). Never a panic or a hang; a graph that decodes is
/// written in both versions and decodes back to an isomorphic graph (1.2 only for graphs
/// without sparse arrays, which 1.2 cannot express, and within the reader's depth limit,
/// which 1.2's inline references can pass).
pub fn encoding(data: &[u8]) {
    let Ok(env) = Envelope::parse(data) else {
        return;
    };
    for el in env.body_elements().take(4) {
        let (g, root) = match Graph::decode(&env, el) {
            Ok(d) => d,
            Err(e) => {
                assert_eq!(e.to_fault().code, xwire_soap::Code::Sender, "{e}");
                continue;
            }
        };
        for v in [Version::V11, Version::V12] {
            if v == Version::V12 && has_sparse_array(&g) {
                continue;
            }
            let mut out = Envelope::new(v);
            let op = out.add_body_element("urn:fuzz", "f:call");
            g.encode(root, &mut out, op, &QName::new("", "arg"));
            let bytes = out.to_bytes().expect("a decoded graph writes");
            let back = match Envelope::parse(&bytes) {
                Ok(b) => b,
                Err(xwire_soap::Error::Xml(e))
                    if v == Version::V12 && e.to_string().contains("depth") =>
                {
                    continue
                }
                Err(e) => panic!("{v}: written, refused: {e}"),
            };
            let call = back.body_elements().next().expect("the call");
            let (g2, r2) = Graph::decode(&back, call).unwrap_or_else(|e| panic!("{v}: {e}"));
            let Value::Struct { fields, .. } = g2.value(r2) else {
                panic!("{v}: the call is a struct")
            };
            if let Err(e) = isomorphic(&g, root, &g2, fields[0].1) {
                panic!("{v}: {e}");
            }
        }
    }
}

fn has_sparse_array(g: &Graph) -> bool {
    g.refs().any(|r| {
        matches!(g.value(r), Value::Array { items, .. }
            if items.iter().enumerate().any(|(k, (at, _))| k != *at))
    })
}

/// Whether the graphs reachable from `a` and `b` are the same: same shape of sharing,
/// same names, types and texts (an array's item type only where the first had one).
pub fn isomorphic(ga: &Graph, a: NodeRef, gb: &Graph, b: NodeRef) -> Result<(), String> {
    let mut pairs: HashMap<NodeRef, NodeRef> = HashMap::new();
    let mut back: HashMap<NodeRef, NodeRef> = HashMap::new();
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (pairs.get(&a), back.get(&b)) {
            (Some(&pb), _) if pb == b => continue,
            (None, None) => {
                pairs.insert(a, b);
                back.insert(b, a);
            }
            _ => return Err(format!("sharing differs at {a:?} / {b:?}")),
        }
        match (ga.value(a), gb.value(b)) {
            (Value::Nil, Value::Nil) => {}
            (Value::Simple { ty: t1, text: x }, Value::Simple { ty: t2, text: y }) => {
                if t1 != t2 || x != y {
                    return Err(format!("{t1:?} '{x}' and {t2:?} '{y}'"));
                }
            }
            (Value::Struct { ty: t1, fields: f1 }, Value::Struct { ty: t2, fields: f2 }) => {
                if t1 != t2 || f1.len() != f2.len() {
                    return Err(format!("structs {t1:?} and {t2:?}"));
                }
                for (x, y) in f1.iter().zip(f2) {
                    if x.0 != y.0 {
                        return Err(format!("fields {} and {}", x.0, y.0));
                    }
                    stack.push((x.1, y.1));
                }
            }
            (
                Value::Array {
                    ty: t1,
                    item_type: i1,
                    dims: d1,
                    items: x1,
                },
                Value::Array {
                    ty: t2,
                    item_type: i2,
                    dims: d2,
                    items: x2,
                },
            ) => {
                let items_typed = i1.is_none() || i1 == i2;
                if t1 != t2 || !items_typed || d1 != d2 || x1.len() != x2.len() {
                    return Err(format!("arrays {t1:?} {d1:?} and {t2:?} {d2:?}"));
                }
                for (x, y) in x1.iter().zip(x2) {
                    if x.0 != y.0 {
                        return Err(format!("positions {} and {}", x.0, y.0));
                    }
                    stack.push((x.1, y.1));
                }
            }
            (x, y) => return Err(format!("{x:?} and {y:?}")),
        }
    }
    Ok(())
}
