//! Mesh interface objects: (int, int, double) records, as a grid application's data exchange
//! writes them.

use std::fmt::Write;

use super::text::records_until;
use super::Rng;

fn open(out: &mut String) {
    out.push_str(
        "<?xml version=\"1.0\"?>\n<mesh:MeshInterfaceObjects xmlns:mesh=\"urn:xwire:bench:mesh\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
    );
}

fn object(out: &mut String, rng: &mut Rng) {
    let _ = writeln!(
        out,
        "<mesh:mio><mesh:i>{}</mesh:i><mesh:j>{}</mesh:j><mesh:value>{}</mesh:value></mesh:mio>",
        rng.below(1 << 20),
        rng.below(1 << 20),
        rng.unit() * 1000.0
    );
}

/// Mesh interface objects with namespace prefixes, about `size` bytes.
pub fn mesh(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    open(&mut out);
    records_until(&mut out, size, 0, |out| {
        object(out, &mut rng);
    });
    out.push_str("</mesh:MeshInterfaceObjects>\n");
    out.into_bytes()
}

/// Exactly `n` mesh interface objects.
pub fn mesh_objects(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(n * 90 + 200);
    open(&mut out);
    for _ in 0..n {
        object(&mut out, &mut rng);
    }
    out.push_str("</mesh:MeshInterfaceObjects>\n");
    out.into_bytes()
}
