//! Cost of one parse of a one-element document, including creating the reader.
//! `cargo run --release -p xwire --example tiny`

use std::time::Instant;

fn main() {
    let doc = b"<a/>";
    let n = 1_000_000;
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        let mut k = 0;
        for _ in 0..n {
            let mut r = xwire::Reader::from_slice(std::hint::black_box(doc));
            while !matches!(r.next().expect("well-formed"), xwire::Event::Eof) {
                k += 1;
            }
        }
        assert_eq!(k, 2 * n);
        best = best.min(t.elapsed().as_secs_f64() / n as f64);
    }
    println!(
        "one-element document, new reader: {:.0} ns per parse (best of 7 x {n})",
        best * 1e9
    );

    let mut best = f64::MAX;
    let mut buffers = xwire::ReaderBuffers::default();
    for _ in 0..7 {
        let t = Instant::now();
        for _ in 0..n {
            let config = xwire::Config::default();
            let mut r = xwire::Reader::with_buffers(std::hint::black_box(doc), config, buffers);
            while !matches!(r.next().expect("well-formed"), xwire::Event::Eof) {}
            buffers = r.into_buffers();
        }
        best = best.min(t.elapsed().as_secs_f64() / n as f64);
    }
    println!(
        "one-element document, reused buffers: {:.0} ns per parse (best of 7 x {n})",
        best * 1e9
    );
}
