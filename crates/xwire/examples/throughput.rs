//! Parses a file repeatedly, consuming every event, attribute and text, and prints MB/s.
//! `cargo run --release -p xwire --example throughput -- FILE [ITERATIONS]`

use std::time::Instant;

fn consume(bytes: &[u8]) -> Result<u64, xwire::Error> {
    let mut r = xwire::Reader::from_slice(bytes);
    let mut n = 0u64;
    loop {
        match r.next()? {
            xwire::Event::Start(t) => {
                n += t.ns().0 as u64 + t.local_name().len() as u64;
                for a in t.attributes() {
                    n += a.value().len() as u64 + a.ns().0 as u64;
                }
            }
            xwire::Event::Text(t) => n += t.unescape().len() as u64,
            xwire::Event::Eof => return Ok(n),
            _ => {}
        }
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let iters: usize = std::env::args()
        .nth(2)
        .map_or(20, |s| s.parse().expect("number"));
    let bytes = std::fs::read(&path).expect("readable file");
    let mut times = Vec::new();
    let mut check = 0;
    for _ in 0..iters {
        let t = Instant::now();
        check = consume(&bytes).expect("well-formed");
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let med = times[times.len() / 2];
    println!(
        "{path}: {:.0} MB/s median, {:.0} MB/s best ({check})",
        bytes.len() as f64 / med / 1e6,
        bytes.len() as f64 / times[0] / 1e6
    );
}
