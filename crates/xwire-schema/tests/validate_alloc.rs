//! A warm validator allocates (almost) nothing per document: its stacks, name caches and the
//! reader's buffers are reused. Its own test binary, for its counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidationOptions, Validator};

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

/// A message typed through `xsi:type` only (the loader is not here yet to build a schema):
/// a root of `xs:anyType` with boolean, date-free children.
fn message(n: usize, flip: bool) -> Vec<u8> {
    let mut s = String::from(
        "<m xmlns:xs='http://www.w3.org/2001/XMLSchema' \
         xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:type='xs:anyType'>",
    );
    for i in 0..n {
        let v = if (i % 2 == 0) ^ flip { "true" } else { "0" };
        s += &format!("<flag xsi:type='xs:boolean'>{v}</flag><d xsi:type='xs:double'>{i}.5</d>");
    }
    s += "</m>";
    s.into_bytes()
}

/// One test binary, one test: the counter is global.
#[test]
fn a_warm_validator_allocates_nothing_per_message() {
    let schema = Schema::builtins();
    let mut v = Validator::new(&schema, ValidationOptions::default());
    let first = message(50, false);
    let second = message(50, true);
    assert_eq!(v.validate(&first), Ok(()));
    assert_eq!(v.validate(&second), Ok(()));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(v.validate(&first), Ok(()));
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        allocations, 0,
        "allocations while validating a warm message"
    );
}
