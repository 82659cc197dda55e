//! Compiles arbitrary UTF-8 as XPath: never panics, and a successful compile prints an
//! unabbreviated form that compiles again to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::xpath::{Namespaces, XPath};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let ns = Namespaces::new().with("f", "urn:f").with("p", "urn:p");
    match XPath::compile_with(s, &ns) {
        Ok(x) => {
            let printed = x.to_string();
            let y = XPath::compile_with(&printed, &ns)
                .unwrap_or_else(|e| panic!("{s:?} printed as {printed:?} fails: {e}"));
            assert_eq!(x.expr(), y.expr(), "{s:?} printed as {printed:?}");
        }
        Err(e) => {
            let at = e.position().expect("a compile error has a position");
            assert!(at <= s.len());
            assert!(s.is_char_boundary(at));
            let _ = e.to_string();
        }
    }
});
