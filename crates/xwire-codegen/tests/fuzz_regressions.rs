//! The fuzz targets of `crates/xwire-codegen/fuzz`, run as tests: their bodies over the
//! committed seeds and the saved crashes (`fuzz/seeds/<target>`, `tests/data/fuzz/<target>`),
//! so that their checks (no panic; the generated parser and the validator agree) also run
//! under `cargo test`.

#[path = "../fuzz/bodies.rs"]
mod bodies;

use std::path::Path;

fn run_over(dir: &str, body: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut n = 0;
    for e in entries {
        let path = e.unwrap().path();
        body(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn generated_po() {
    let seeds = run_over("fuzz/seeds/po", bodies::generated_po);
    assert!(seeds >= 2, "the po seeds are checked in");
    run_over("tests/data/fuzz/generated_po", bodies::generated_po);
}

#[test]
fn generated_drawing() {
    let seeds = run_over("fuzz/seeds/drawing", bodies::generated_drawing);
    assert!(seeds >= 1, "the drawing seeds are checked in");
    run_over(
        "tests/data/fuzz/generated_drawing",
        bodies::generated_drawing,
    );
}

#[test]
fn generated_ipo() {
    let seeds = run_over("fuzz/seeds/ipo", bodies::generated_ipo);
    assert!(seeds >= 1, "the ipo seeds are checked in");
    run_over("tests/data/fuzz/generated_ipo", bodies::generated_ipo);
}

#[test]
fn generated_notes() {
    let seeds = run_over("fuzz/seeds/notes", bodies::generated_notes);
    assert!(seeds >= 1, "the notes seeds are checked in");
    run_over("tests/data/fuzz/generated_notes", bodies::generated_notes);
}
