//! Reads a file with the reader and writes it back through the writer into memory, repeatedly,
//! and prints MB/s (input bytes per second) for the read + write pipeline and for reading alone.
//! `cargo run --release -p xwire --example rewrite -- FILE [ITERATIONS]`

use std::time::Instant;

use xwire::writer::Writer;
use xwire::{Event, Reader};

fn rewrite(bytes: &[u8], out: Vec<u8>) -> Vec<u8> {
    let mut reader = Reader::from_slice(bytes);
    let mut w = Writer::new(out);
    loop {
        match reader.next().expect("well-formed") {
            Event::Eof => break,
            e => w.write_event(&e).expect("writable"),
        }
    }
    w.finish().expect("complete")
}

fn read_only(bytes: &[u8]) -> usize {
    let mut reader = Reader::from_slice(bytes);
    let mut n = 0;
    while !matches!(reader.next().expect("well-formed"), Event::Eof) {
        n += 1;
    }
    n
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let iters: usize = std::env::args()
        .nth(2)
        .map_or(15, |s| s.parse().expect("number"));
    let bytes = std::fs::read(&path).expect("readable file");
    let mut out = Vec::with_capacity(bytes.len() * 2);
    let (mut rw, mut ro) = (Vec::new(), Vec::new());
    for _ in 0..iters {
        out.clear();
        let t = Instant::now();
        out = rewrite(&bytes, std::mem::take(&mut out));
        rw.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        std::hint::black_box(read_only(&bytes));
        ro.push(t.elapsed().as_secs_f64());
    }
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "{path}: read + write {:.0} MB/s, read only {:.0} MB/s (medians of {iters}); output {} bytes",
        mb / median(rw),
        mb / median(ro),
        out.len()
    );
}
