//! Builds a tree and reports its heap size against the document size, and build speed.
//! `cargo run --release -p xwire --example tree_memory -- FILE`
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let t = std::time::Instant::now();
    let d = xwire::tree::Document::parse(&bytes).unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{}: {} nodes, heap {:.1} MB = {:.2}x the document, built at {:.0} MB/s",
        path,
        d.len(),
        d.heap_bytes() as f64 / 1e6,
        d.heap_bytes() as f64 / bytes.len() as f64,
        bytes.len() as f64 / dt / 1e6
    );
}
