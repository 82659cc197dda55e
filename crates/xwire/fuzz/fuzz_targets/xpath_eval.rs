//! Evaluation of arbitrary expressions over arbitrary documents: the input is an expression,
//! a NUL byte, then a document. Never panics; node-sets come back in document order without
//! duplicates; every result converts to a string, a number and a boolean.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::tree::Document;
use xwire::xpath::{Namespaces, Navigator, NodeKind, Value, Variables, XPath};

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|&b| b == 0) else {
        return;
    };
    let Ok(expr) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let ns = Namespaces::new().with("p", "urn:p");
    let Ok(xp) = XPath::compile_with(expr, &ns) else {
        return;
    };
    let Ok(doc) = Document::parse(&data[split + 1..]) else {
        return;
    };
    let vars = Variables::new()
        .with("n", Value::Number(2.0))
        .with("s", Value::String("a".into()));
    let root = Navigator::root(&doc);
    let mut contexts = vec![root];
    let mut c = Navigator::first_child(&doc, root);
    while let Some(n) = c {
        if Navigator::kind(&doc, n) == NodeKind::Element {
            contexts.push(n);
            contexts.extend(Navigator::first_attribute(&doc, n));
        }
        c = Navigator::next_sibling(&doc, n);
    }
    for ctx in contexts {
        if let Ok(v) = xp.evaluate_with(&doc, ctx, &vars) {
            if let Value::NodeSet(set) = &v {
                for w in set.windows(2) {
                    assert_eq!(
                        Navigator::cmp_order(&doc, w[0], w[1]),
                        std::cmp::Ordering::Less,
                        "{expr:?}: not in document order"
                    );
                }
            }
            let _ = (v.to_string(&doc), v.to_number(&doc), v.to_boolean());
        }
    }
});
