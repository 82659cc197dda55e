//! SOAP encoding: the SOAPBuilders corpus decoded and its echoes compared as values, random
//! shared and cyclic graphs through both versions and both encodings, and hostile graphs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use xwire_soap::{Envelope, Graph, NodeRef, QName, Value, Version};

/// Whether node `a` of `ga` and node `b` of `gb` are the same value: the graphs reachable
/// from them are isomorphic (sharing and cycles included), simple values equal as typed
/// values where both have a built-in type, else as trimmed text. Struct fields are matched
/// by local name when `by_name`, else in order.
fn same(ga: &Graph, a: NodeRef, gb: &Graph, b: NodeRef, by_name: bool) -> Result<(), String> {
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
            (va @ Value::Simple { text: ta, .. }, vb @ Value::Simple { text: tb, .. }) => {
                let equal = match (binary(va), binary(vb)) {
                    // A service typed by its WSDL may answer a string with base64Binary
                    // (SOAPBuilders' echoBase64 given an xsd:string): the same bytes.
                    (Some(x), Some(y)) => x == y,
                    (Some(x), None) => x == tb.trim().as_bytes(),
                    (None, Some(y)) => ta.trim().as_bytes() == y,
                    (None, None) => match (va.typed(), vb.typed()) {
                        (Some(x), Some(y)) if x.primitive_type() == y.primitive_type() => x == y,
                        // Typed differently by the two sides (an int answered as a boolean):
                        // the same boolean, or the same number.
                        _ => match (boolean(ta), boolean(tb)) {
                            (Some(x), Some(y)) => x == y,
                            _ => match (ta.trim().parse::<f64>(), tb.trim().parse::<f64>()) {
                                (Ok(x), Ok(y)) => x == y,
                                _ => ta.trim() == tb.trim(),
                            },
                        },
                    },
                };
                if !equal {
                    return Err(format!("'{ta}' and '{tb}' differ"));
                }
            }
            (Value::Struct { fields: fa, .. }, Value::Struct { fields: fb, .. }) => {
                if fa.len() != fb.len() {
                    return Err(format!("{} fields and {}", fa.len(), fb.len()));
                }
                let mut fb: Vec<&(QName, NodeRef)> = fb.iter().collect();
                let mut fa: Vec<&(QName, NodeRef)> = fa.iter().collect();
                if by_name {
                    fa.sort_by(|x, y| x.0.local.cmp(&y.0.local));
                    fb.sort_by(|x, y| x.0.local.cmp(&y.0.local));
                }
                for (x, y) in fa.iter().zip(&fb) {
                    if by_name && x.0.local != y.0.local {
                        return Err(format!("field {} and {}", x.0.local, y.0.local));
                    }
                    stack.push((x.1, y.1));
                }
            }
            (Value::Array { .. }, Value::Array { .. })
                if by_name && rectangular(ga, a).is_some() && rectangular(gb, b).is_some() =>
            {
                // A jagged array of equal rows answered as a 2-D array (SOAPBuilders'
                // echo2DStringArray): the same shape, the same values.
                let (sa, la) = rectangular(ga, a).unwrap();
                let (sb, lb) = rectangular(gb, b).unwrap();
                if sa != sb {
                    return Err(format!("arrays of shape {sa:?} and {sb:?}"));
                }
                stack.extend(la.into_iter().zip(lb));
            }
            (
                Value::Array {
                    items: ia,
                    dims: da,
                    ..
                },
                Value::Array {
                    items: ib,
                    dims: db,
                    ..
                },
            ) => {
                if ia.len() != ib.len() || da.len() != db.len() {
                    return Err(format!("arrays of {} and {} items", ia.len(), ib.len()));
                }
                for (x, y) in ia.iter().zip(ib) {
                    if x.0 != y.0 {
                        return Err(format!("item positions {} and {}", x.0, y.0));
                    }
                    stack.push((x.1, y.1));
                }
            }
            (x, y) => return Err(format!("{x:?} and {y:?}")),
        }
    }
    Ok(())
}

/// A dense array's shape (its rows of arrays of equal length flattened into dimensions)
/// and its leaves in row-major order.
fn rectangular(g: &Graph, r: NodeRef) -> Option<(Vec<usize>, Vec<NodeRef>)> {
    let Value::Array { dims, items, .. } = g.value(r) else {
        return Some((Vec::new(), vec![r]));
    };
    let known: Option<Vec<usize>> = dims.iter().copied().collect();
    let mut shape = match known {
        Some(d) if d.iter().product::<usize>() == items.len() => d,
        None if dims.len() == 1 => vec![items.len()],
        _ => return None,
    };
    if items.iter().enumerate().any(|(i, (at, _))| i != *at) {
        return None;
    }
    let mut leaves = Vec::new();
    let mut inner: Option<Vec<usize>> = None;
    for (_, item) in items {
        let (s, l) = rectangular(g, *item)?;
        if inner.as_ref().is_some_and(|i| *i != s) {
            return None;
        }
        inner = Some(s);
        leaves.extend(l);
    }
    shape.extend(inner.unwrap_or_default());
    Some((shape, leaves))
}

fn boolean(t: &str) -> Option<bool> {
    match t.trim() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// The bytes of a `base64Binary` or `hexBinary` value.
fn binary(v: &Value) -> Option<Vec<u8>> {
    match v {
        Value::Simple { ty: Some(t), text } if t.local == "base64Binary" => {
            xwire::binary::parse_base64(text.trim()).ok()
        }
        Value::Simple { ty: Some(t), text } if t.local == "hexBinary" => {
            let t = text.trim().as_bytes();
            let nibble = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
            t.chunks(2)
                .map(|p| Some(nibble(p[0])? << 4 | nibble(*p.get(1)?)?))
                .collect()
        }
        _ => None,
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.to_string_lossy().ends_with(".req.xml") {
            out.push(p);
        }
    }
}

/// The parameters of the first body element of a message: its fields, but for 1.2's
/// `rpc:result`, which names the return value and is not one.
fn params(env: &Envelope) -> Result<Option<(Graph, Vec<NodeRef>)>, xwire_soap::Error> {
    if env.fault()?.is_some() {
        return Ok(None);
    }
    let Some(op) = env.body_elements().next() else {
        return Ok(Some((Graph::new(), Vec::new())));
    };
    let (g, root) = Graph::decode(env, op)?;
    let list = match g.value(root) {
        Value::Struct { fields, .. } => fields
            .iter()
            .filter(|(n, _)| n.ns != "http://www.w3.org/2003/05/soap-rpc")
            .map(|f| f.1)
            .collect(),
        _ => Vec::new(),
    };
    Ok(Some((g, list)))
}

#[test]
fn the_soapbuilders_corpus_decodes_and_echoes_compare_as_values() {
    let Some(root) = xwire_conformance::corpus("soap/soapbuilders") else {
        return;
    };
    let mut requests = Vec::new();
    files_under(&root, &mut requests);
    let (mut decoded, mut echoed, mut refused) = (0, 0, Vec::new());
    let mut failed = Vec::new();
    let mut not_echo = 0;
    for req in &requests {
        let name = req
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".req.xml", "");
        let res = req.with_file_name(format!("{name}.res.xml"));
        let Ok(env) = Envelope::parse(&std::fs::read(req).unwrap()) else {
            continue; // envelope faults: tests/soap12_collection.rs and tests/axiom.rs
        };
        let request = match params(&env) {
            Ok(Some(p)) => p,
            Ok(None) => continue,
            Err(e) => {
                refused.push(format!("{name}: {e}"));
                continue;
            }
        };
        decoded += 1;
        let Some(reply) = std::fs::read(&res)
            .ok()
            .and_then(|b| Envelope::parse(&b).ok())
        else {
            continue;
        };
        let op = env
            .document()
            .local_name(env.body_elements().next().unwrap_or(env.body()));
        let Ok(Some((gr, reply))) = params(&reply) else {
            continue; // the corpus answers with a fault
        };
        // An echo gives back what it was given: as many values, the same values.
        if !op.starts_with("echo") || reply.len() != request.1.len() {
            not_echo += 1;
            continue;
        }
        let differs: Vec<String> = request
            .1
            .iter()
            .zip(&reply)
            .filter_map(|(a, b)| same(&request.0, *a, &gr, *b, true).err())
            .collect();
        match differs.is_empty() {
            true => echoed += 1,
            false => failed.push(format!("{name} ({op}): {}", differs.join("; "))),
        }
    }
    eprintln!(
        "soapbuilders: {} requests, {decoded} decoded, {echoed} echoes equal as values, \
         {not_echo} not an echo of their parameters, refused: {refused:?}",
        requests.len()
    );
    assert!(
        failed.is_empty(),
        "echoes that differ:\n{}",
        failed.join("\n")
    );
    // The three refused are the SOAP 1.2 tests whose corpus replies are faults: a reference
    // to no id (T56), an element with both id and ref (T59), '*' not first in arraySize (T61).
    let refused: Vec<&str> = refused.iter().map(|r| &r[..r.find(':').unwrap()]).collect();
    assert_eq!(refused, ["T56", "T59", "T61"]);
    assert!(
        decoded >= 200 && echoed >= 150,
        "{decoded} decoded, {echoed} echoed"
    );
}

/// A random graph: node specs (kind, the nodes its fields or items point to), any node
/// may point to any other, so graphs share and loop.
#[derive(Debug, Clone)]
enum Spec {
    Int(i32),
    Text(String),
    Nil,
    Struct(Vec<usize>),
    Array(Vec<usize>),
}

fn build(specs: &[Spec]) -> (Graph, NodeRef) {
    let mut g = Graph::new();
    let refs: Vec<NodeRef> = specs.iter().map(|_| g.add(Value::Nil)).collect();
    let xsd = |local: &str| Some(QName::new("http://www.w3.org/2001/XMLSchema", local));
    for (i, s) in specs.iter().enumerate() {
        let n = specs.len();
        *g.value_mut(refs[i]) = match s {
            Spec::Int(v) => Value::Simple {
                ty: xsd("int"),
                text: v.to_string(),
            },
            Spec::Text(t) => Value::Simple {
                ty: xsd("string"),
                text: t.clone(),
            },
            Spec::Nil => Value::Nil,
            Spec::Struct(f) => Value::Struct {
                ty: Some(QName::new("urn:t", "S")),
                fields: f
                    .iter()
                    .enumerate()
                    .map(|(k, t)| (QName::new("", format!("f{k}")), refs[t % n]))
                    .collect(),
            },
            Spec::Array(items) => Value::Array {
                ty: None,
                item_type: xsd("anyType"),
                dims: vec![Some(items.len())],
                items: items
                    .iter()
                    .enumerate()
                    .map(|(k, t)| (k, refs[t % n]))
                    .collect(),
            },
        };
    }
    (g, refs[0])
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        any::<i32>().prop_map(Spec::Int),
        "[a-z <>&\"']{0,8}".prop_map(Spec::Text),
        Just(Spec::Nil),
        // At least one field: an empty struct and an empty string are the same element
        // (`<x xsi:type="t:S"/>`), which the decoder reads as a simple value.
        prop::collection::vec(0usize..64, 1..4).prop_map(Spec::Struct),
        prop::collection::vec(0usize..64, 0..4).prop_map(Spec::Array),
    ]
}

fn round_trip(g: &Graph, root: NodeRef, v: Version, binary: bool) -> (Graph, NodeRef) {
    let mut env = Envelope::new(v);
    let body = env.body();
    let op = env.add_body_element("urn:op", "o:call");
    let _ = body;
    g.encode(root, &mut env, op, &QName::new("", "arg"));
    let bytes = if binary {
        let mut w = xwire::binary::BinaryWriter::new(Vec::new());
        env.write(&mut w).unwrap();
        w.finish().unwrap()
    } else {
        env.to_bytes().unwrap()
    };
    let back = Envelope::parse(&bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&env.to_bytes().unwrap())));
    let op = back.body_elements().next().unwrap();
    let (g2, r) = Graph::decode(&back, op).unwrap();
    let Value::Struct { fields, .. } = g2.value(r) else {
        panic!("the call is a struct")
    };
    let arg = fields[0].1;
    (g2, arg)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_graphs_come_back_isomorphic(specs in prop::collection::vec(spec(), 1..12)) {
        let (g, root) = build(&specs);
        for v in [Version::V11, Version::V12] {
            for binary in [false, true] {
                let (g2, r2) = round_trip(&g, root, v, binary);
                if let Err(e) = same(&g, root, &g2, r2, false) {
                    prop_assert!(false, "{v:?} binary={binary}: {e}");
                }
            }
        }
    }
}

#[test]
fn sparse_and_multidimensional_arrays_in_1_1() {
    let msg = br##"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"
        xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/"
        xmlns:xsd="http://www.w3.org/2001/XMLSchema">
      <s:Body><m:op xmlns:m="urn:m">
        <a enc:arrayType="xsd:string[2,3]"><i>r0c0</i><i>r0c1</i><i>r0c2</i><i>r1c0</i></a>
        <b enc:arrayType="xsd:int[5]" enc:offset="[2]"><i>2</i><i>3</i></b>
        <c enc:arrayType="xsd:int[10]"><i enc:position="[1]">1</i><i enc:position="[8]">8</i></c>
        <d enc:arrayType="xsd:int[2,2]"><i enc:position="[1,1]">11</i></d>
      </m:op></s:Body></s:Envelope>"##;
    let env = Envelope::parse(msg).unwrap();
    let (g, root) = Graph::decode(&env, env.body_elements().next().unwrap()).unwrap();
    let Value::Struct { fields, .. } = g.value(root) else {
        panic!()
    };
    let shape = |k: usize| match g.value(fields[k].1) {
        Value::Array {
            dims,
            items,
            item_type,
            ..
        } => (
            dims.clone(),
            items.iter().map(|i| i.0).collect::<Vec<_>>(),
            item_type.clone().unwrap().local,
        ),
        v => panic!("{v:?}"),
    };
    assert_eq!(
        shape(0),
        (
            vec![Some(2), Some(3)],
            vec![0, 1, 2, 3],
            "string".to_string()
        )
    );
    assert_eq!(shape(1).1, [2, 3]);
    assert_eq!(shape(2).1, [1, 8]);
    assert_eq!(shape(3).1, [3]);
    // Written back in 1.1 with positions, read back the same.
    let (g2, r2) = round_trip(&g, fields[2].1, Version::V11, false);
    same(&g, fields[2].1, &g2, r2, false).unwrap();
    for (bad, why) in [
        (
            r#"<x enc:arrayType="xsd:int[2]"><i>1</i><i>2</i><i>3</i></x>"#,
            "past the array's 2 items",
        ),
        (
            r#"<x enc:arrayType="xsd:int[4]"><i enc:position="[2]">1</i><i enc:position="[1]">2</i></x>"#,
            "out of order",
        ),
        (
            r#"<x enc:arrayType="xsd:int[4]"><i enc:position="[9]">1</i></x>"#,
            "not a position",
        ),
        (r#"<x enc:arrayType="xsd:int"/>"#, "has no dimensions"),
        (r#"<x enc:arrayType="xsd:int[a]"/>"#, "not an array size"),
    ] {
        let msg = format!(
            r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><s:Body>{bad}</s:Body></s:Envelope>"#
        );
        let env = Envelope::parse(msg.as_bytes()).unwrap();
        let e = Graph::decode(&env, env.body_elements().next().unwrap()).unwrap_err();
        assert!(e.to_string().contains(why), "{bad}: {e}");
        assert_eq!(e.to_fault().code, xwire_soap::Code::Sender);
    }
}

fn envelope_11(body: &str) -> Envelope {
    let msg = format!(
        r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>{body}</s:Body></s:Envelope>"#
    );
    Envelope::parse(msg.as_bytes()).unwrap()
}

#[test]
fn hostile_graphs_give_a_fault_or_decode_in_linear_time() {
    let decode = |env: &Envelope| Graph::decode(env, env.body_elements().next().unwrap());
    // A reference to nothing, two elements with one id, references in a loop.
    let e = decode(&envelope_11(r##"<op><a href="#x"/></op>"##)).unwrap_err();
    assert!(e.to_string().contains("no element has as its id"), "{e}");
    let e = decode(&envelope_11(r##"<op/><a id="x"/><b id="x"/>"##)).unwrap_err();
    assert!(e.to_string().contains("two elements with id 'x'"), "{e}");
    let e = decode(&envelope_11(
        r##"<op><a href="#x"/></op><b id="x" href="#y"/><c id="y" href="#x"/>"##,
    ))
    .unwrap_err();
    assert!(e.to_string().contains("cycle that reaches no value"), "{e}");
    let e = decode(&envelope_11(
        r##"<op><a href="#x">text</a></op><b id="x"/>"##,
    ))
    .unwrap_err();
    assert!(e.to_string().contains("with content of its own"), "{e}");
    // A chain of 100,000 references to one value, and 100,000 structs each holding the
    // next by reference: no recursion, so no stack overflow.
    let n = 100_000;
    let mut chain = String::from(r##"<op><a href="#r0"/></op>"##);
    for i in 0..n - 1 {
        chain.push_str(&format!(r##"<x id="r{i}" href="#r{}"/>"##, i + 1));
    }
    chain.push_str(&format!(r#"<x id="r{}">end</x>"#, n - 1));
    let env = envelope_11(&chain);
    let (g, root) = decode(&env).unwrap();
    let Value::Struct { fields, .. } = g.value(root) else {
        panic!()
    };
    assert!(matches!(g.value(fields[0].1), Value::Simple { text, .. } if text == "end"));
    let mut nested = String::from(r##"<op><a href="#s0"/></op>"##);
    for i in 0..n - 1 {
        nested.push_str(&format!(r##"<s id="s{i}"><next href="#s{}"/></s>"##, i + 1));
    }
    nested.push_str(&format!(r##"<s id="s{}"><next href="#s0"/></s>"##, n - 1));
    let env = envelope_11(&nested);
    let (g, root) = decode(&env).unwrap();
    assert_eq!(g.len(), n + 1, "the call and one node per struct");
    // Written back: every struct is shared (reached from its predecessor and, for the first,
    // the call too), without recursion; in 1.1, as independent elements, so the text stays
    // flat (1.2 writes a shared node where it is first reached: 100,000 levels deep, past
    // the reader's depth limit).
    let mut out = Envelope::new(Version::V11);
    let op = out.add_body_element("urn:op", "o:call");
    g.encode(root, &mut out, op, &QName::new("", "arg"));
    let bytes = out.to_bytes().unwrap();
    assert!(bytes.len() > n * 10);
    let back = Envelope::parse(&bytes).unwrap();
    let (g2, r2) = decode(&back).unwrap();
    let Value::Struct { fields, .. } = g2.value(r2) else {
        panic!()
    };
    same(&g, root, &g2, fields[0].1, false).unwrap();
}
