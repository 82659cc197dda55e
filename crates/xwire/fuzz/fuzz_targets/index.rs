//! The token index over arbitrary bytes; the checks are in `index_check.rs`, which
//! `tests/fuzz_regressions.rs` also runs over the W3C suite and the kept crash inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "index_check.rs"]
mod index_check;

fuzz_target!(|data: &[u8]| {
    index_check::check(data);
});
