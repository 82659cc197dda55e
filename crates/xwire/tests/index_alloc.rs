//! A warm index allocates nothing: indexing a second document of the same shape reuses every
//! vector of the index and of its reader. Its own test binary, for its counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use xwire::index::Index;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn order(n: usize, id: &str) -> Vec<u8> {
    let mut s = format!(
        r#"<po:order xmlns:po="urn:po" xmlns="urn:default" id="{id}"><!-- n --><?pi data?>"#
    );
    for i in 0..n {
        s += &format!(
            r#"<po:item sku="{i}-{id}" note="a &amp; b"><name>item {i} &lt;{id}&gt;</name><![CDATA[raw]]>tail</po:item>"#
        );
    }
    s += "</po:order>";
    s.into_bytes()
}

/// One test binary, one test: the counter is global, and tests run on parallel threads.
#[test]
fn second_parse_of_a_same_shape_document_allocates_nothing() {
    let first = order(200, "A");
    let second = order(200, "B");
    let mut ix = Index::new();
    ix.parse_into(&first).unwrap();
    let nodes = ix.len();

    let before = ALLOCATIONS.load(Ordering::Relaxed);
    ix.parse_into(&second).unwrap();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(allocations, 0, "allocations while indexing a warm document");
    assert_eq!(ix.len(), nodes);

    // Reading borrowed values allocates nothing either.
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let root = ix.root_element().unwrap();
    let mut total = 0;
    for n in ix.descendants(root) {
        total += ix.local_name(n).len();
        for a in ix.attributes(n) {
            total += ix.local_name(a).len() + ix.namespace_uri(a).len();
        }
    }
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed) - before, 0);
    assert!(total > 0);

    // Nor does an XML declaration with the usual values (`XmlDecl` borrows them).
    let mut with_decl = b"<?xml version='1.0'?>".to_vec();
    with_decl.extend_from_slice(&first);
    let mut ix = ix.reuse();
    ix.parse_into(&with_decl).unwrap();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    ix.parse_into(&with_decl).unwrap();
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed) - before, 0);
}
