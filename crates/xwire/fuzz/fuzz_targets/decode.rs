//! Arbitrary bytes (most behind a valid binary header) through the binary decoder: no panic,
//! no runaway allocation (a counting global allocator checks every allocation the reader makes
//! against the bound the format promises), slice and stream agree, and an accepted file
//! decodes to text that reads back as the same document. The checks live in `decode_check.rs`,
//! shared with `tests/fuzz_regressions.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "decode_check.rs"]
mod decode_check;

#[global_allocator]
static ALLOCATOR: decode_check::Counting = decode_check::Counting;

fuzz_target!(|data: &[u8]| {
    decode_check::check(data, true);
});
