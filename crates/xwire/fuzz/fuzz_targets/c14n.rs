//! Canonicalization of arbitrary bytes: no panics, and canonical output is a fixed point
//! (canonicalizing it again gives the same bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::c14n::{to_vec, C14nOptions, Mode};

fuzz_target!(|data: &[u8]| {
    for options in [
        C14nOptions::new(Mode::Inclusive, true),
        C14nOptions::new(Mode::exclusive(""), false),
    ] {
        if let Ok(once) = to_vec(data, &options) {
            let twice = to_vec(&once, &options).expect("canonical XML is well-formed");
            assert_eq!(once, twice);
        }
    }
});
