//! What the `index` fuzz target checks on one input (shared with the regression tests):
//!
//! - building never panics;
//! - a built index can be walked through the `Navigator` (names, string-values, document
//!   order agreeing with the walk), and every edit operation on every node either records or
//!   refuses cleanly;
//! - a write without edits is the input, byte for byte;
//! - save → load gives an index that answers the same;
//! - the saved bytes with one byte changed (position and value from the input) load or fail,
//!   never panic, and a loaded index answers without panicking.

use std::cmp::Ordering;

use xwire::index::Index;
use xwire::xpath::{Navigator, NodeKind};

/// Everything the navigator says about the document, in a walk.
fn walk(ix: &Index<'_>) -> String {
    let mut out = String::new();
    let mut stack = vec![Navigator::root(ix)];
    let mut prev = None;
    let mut ns = Vec::new();
    while let Some(n) = stack.pop() {
        if let Some(p) = prev {
            assert_eq!(Navigator::cmp_order(ix, p, n), Ordering::Less);
        }
        prev = Some(n);
        out += &format!(
            "{:?} {}:{} {{{}}} {:?}\n",
            Navigator::kind(ix, n),
            Navigator::prefix(ix, n),
            Navigator::local_name(ix, n),
            Navigator::namespace_uri(ix, n),
            Navigator::string_value(ix, n)
        );
        if Navigator::kind(ix, n) == NodeKind::Element {
            ns.clear();
            Navigator::namespaces(ix, n, &mut ns);
            for &x in &ns {
                out += &format!(
                    "ns {} {:?}\n",
                    Navigator::local_name(ix, x),
                    Navigator::string_value(ix, x)
                );
            }
            let mut a = Navigator::first_attribute(ix, n);
            while let Some(x) = a {
                out += &format!(
                    "@{} {:?}\n",
                    Navigator::local_name(ix, x),
                    Navigator::string_value(ix, x)
                );
                a = Navigator::next_attribute(ix, x);
            }
        }
        let mut kids = Vec::new();
        let mut c = Navigator::first_child(ix, n);
        while let Some(k) = c {
            kids.push(k);
            c = Navigator::next_sibling(ix, k);
        }
        assert_eq!(Navigator::last_child(ix, n), kids.last().copied());
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// Touches every accessor and edit of every node of an index that may describe its
/// document wrongly (a forged saved index): nothing may panic.
fn poke(ix: &Index<'_>) {
    for i in 0..ix.len() {
        let n = ix.node(i).expect("in range");
        let _ = (
            ix.name(n),
            ix.local_name(n),
            ix.namespace_uri(n),
            ix.text(n),
            ix.value(n),
        );
        let _ = (ix.string_value(n), ix.span(n), ix.offset(n), ix.depth(n));
        let _ = (
            ix.first_child(n),
            ix.last_child(n),
            ix.prev_sibling(n),
            ix.next_sibling(n),
        );
        let _ = ix.descendants(n).count();
        let mut ns = Vec::new();
        ix.namespaces(n, &mut ns);
        for &x in &ns {
            let _ = (ix.name(x), ix.string_value(x));
        }
        let mut ed = ix.edit();
        let _ = ed.replace_content(n, b"<x/>");
        let _ = ed.set_attribute_value(n, "v");
        let _ = ed.insert_before(n, b"a");
        let _ = ed.delete(n);
        let _ = ed.insert_after(n, b"b");
        let _ = ed.to_vec();
    }
}

/// The checksum of the saved format (see `index/save.rs`), to forge files that reach the
/// field checks.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = bytes.len() as u64 ^ 0x243F_6A88_85A3_08D3;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^ (h >> 32)
}

pub fn check(data: &[u8]) {
    let Ok(ix) = Index::parse(data) else {
        return;
    };
    let seen = walk(&ix);
    poke(&ix);
    assert_eq!(
        ix.edit().to_vec(),
        data,
        "a write without edits changed the document"
    );
    let mut saved = Vec::new();
    ix.save(&mut saved).expect("saving to a Vec");
    let back = Index::load(data, &saved).expect("a saved index loads");
    assert_eq!(walk(&back), seen, "the loaded index answers differently");
    // One damaged byte, with the checksum made to match, so the field checks are reached.
    if let (Some(&a), Some(&b)) = (data.first(), data.last()) {
        let mut bad = saved.clone();
        let body = bad.len() - 8;
        bad[a as usize * 31 % body] ^= b | 1;
        let sum = hash(&bad[..body]);
        bad[body..].copy_from_slice(&sum.to_le_bytes());
        if let Ok(forged) = Index::load(data, &bad) {
            poke(&forged);
        }
    }
}
