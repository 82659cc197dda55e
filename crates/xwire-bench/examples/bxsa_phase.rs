//! One phase of the BXSA experiment in a loop, for profilers (`perf record`, callgrind):
//!
//! ```text
//! cargo run --release -p xwire-bench --example bxsa_phase -- PHASE ENCODING PAIRS [RUNS]
//! ```
//!
//! PHASE: build, encode, decode, consume, in-place, memcpy; ENCODING: xwire, text, gzip
//! (ignored by build, consume, in-place and memcpy). Prints the median time per run.

use std::hint::black_box;
use std::time::Instant;

use xwire_bench::bxsa;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: bxsa_phase PHASE ENCODING PAIRS [RUNS]");
        std::process::exit(2);
    }
    let pairs: usize = args[2].parse().expect("PAIRS: a number");
    let runs: usize = args
        .get(3)
        .map_or(20, |r| r.parse().expect("RUNS: a number"));
    let (indices, values) =
        xwire_bench::workloads::pair_data(pairs, xwire_bench::workloads::DEFAULT_SEED);
    let doc = bxsa::model(&indices, &values);
    type Codec = (
        fn(&xwire::binary::TypedDocument, &mut Vec<u8>) -> Result<(), String>,
        fn(&[u8]) -> Result<xwire::binary::TypedDocument, String>,
    );
    let (encode, decode): Codec = match args[1].as_str() {
        "xwire" => (bxsa::encode_binary_into, bxsa::decode_binary),
        "text" => (bxsa::encode_text_into, bxsa::decode_text),
        "gzip" => (bxsa::encode_gzip_into, bxsa::decode_gzip),
        e => panic!("unknown encoding {e}"),
    };
    let mut bytes = Vec::new();
    encode(&doc, &mut bytes).expect("encodes");
    let mut out = Vec::new();
    let binary = bxsa::encode_binary(&doc).expect("encodes");
    let native = bxsa::native(&indices, &values);
    let mut dst = vec![0u8; native.len()];
    let mut phase: Box<dyn FnMut()> = match args[0].as_str() {
        "build" => Box::new(|| drop(black_box(bxsa::model(&indices, &values)))),
        "encode" => Box::new(|| {
            encode(&doc, &mut out).unwrap();
            black_box(&out);
        }),
        "decode" => Box::new(|| drop(black_box(decode(&bytes).unwrap()))),
        "consume" => Box::new(|| {
            black_box(bxsa::consume(&doc).unwrap());
        }),
        "in-place" => Box::new(|| {
            black_box(bxsa::decode_in_place(&binary).unwrap());
        }),
        "memcpy" => Box::new(|| {
            dst.copy_from_slice(black_box(&native));
            black_box(&mut dst);
        }),
        p => panic!("unknown phase {p}"),
    };
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            phase();
            t.elapsed().as_secs_f64()
        })
        .collect();
    let median = xwire_bench::timing::median(&mut times);
    println!(
        "{} {} {pairs} pairs: median {:.1} us, {:.0} MB/s of the native {} bytes",
        args[0],
        args[1],
        median * 1e6,
        (pairs * bxsa::PAIR_BYTES) as f64 / median / 1e6,
        pairs * bxsa::PAIR_BYTES
    );
}
