//! Indexes documents and reports the index's heap size against the document size, and how
//! fast it builds next to a plain pull parse of the same bytes with the reader.
//!
//! `cargo run --release -p xwire --example index_memory -- [FILE...]`
//!
//! Without arguments: the XMark documents of the shared corpora (`XWIRE_CORPORA`, or
//! `../shared/corpora` beside the project) and a generated purchase-order document.

use std::path::{Path, PathBuf};
use std::time::Instant;

use xwire::index::Index;

/// Pulls every event, touching names, attribute values and text as an index build would
/// (without unescaping anything: the index does not).
fn reader_parse(bytes: &[u8]) -> u64 {
    let mut r = xwire::Reader::from_slice(bytes);
    let mut n = 0u64;
    loop {
        match r.next().expect("well-formed") {
            xwire::Event::Start(t) => {
                n += t.ns().0 as u64 + t.name().len() as u64;
                for a in t.attributes() {
                    n += a.value().len() as u64;
                }
            }
            xwire::Event::Text(t) => n += t.raw().len() as u64,
            xwire::Event::Eof => return n,
            _ => {}
        }
    }
}

/// Median seconds of `f` and of `g` over `iters` runs each, interleaved so that both see the
/// same machine (these machines are shared).
fn medians(iters: usize, mut f: impl FnMut(), mut g: impl FnMut()) -> (f64, f64) {
    let time = |h: &mut dyn FnMut()| {
        let t = Instant::now();
        h();
        t.elapsed().as_secs_f64()
    };
    let (mut tf, mut tg) = (Vec::new(), Vec::new());
    for _ in 0..iters {
        tf.push(time(&mut f));
        tg.push(time(&mut g));
    }
    tf.sort_by(f64::total_cmp);
    tg.sort_by(f64::total_cmp);
    (tf[iters / 2], tg[iters / 2])
}

/// A purchase-order document of about `size` bytes (fixed content, like the bench's `po`).
fn purchase_orders(size: usize) -> Vec<u8> {
    let mut s =
        String::from("<?xml version=\"1.0\"?>\n<purchaseOrders xmlns=\"urn:example:po\">\n");
    let mut i = 0;
    while s.len() < size {
        s += &format!(
            "  <purchaseOrder orderDate=\"2024-01-{:02}\">\n    <shipTo country=\"US\">\n      \
             <name>Alice Smith {i}</name>\n      <street>{} Maple Street</street>\n      \
             <city>Mill Valley</city>\n      <state>CA</state>\n      <zip>90952</zip>\n    \
             </shipTo>\n    <comment>Hurry, my lawn is going wild &amp; green!</comment>\n    \
             <items>\n      <item partNum=\"{:03}-AA\">\n        <productName>Lawnmower</productName>\n        \
             <quantity>{}</quantity>\n        <USPrice>148.95</USPrice>\n      </item>\n    \
             </items>\n  </purchaseOrder>\n",
            i % 28 + 1,
            100 + i,
            i % 1000,
            1 + i % 5
        );
        i += 1;
    }
    s += "</purchaseOrders>\n";
    s.into_bytes()
}

fn report(name: &str, bytes: &[u8]) {
    let mb = bytes.len() as f64 / 1e6;
    let iters = (200.0 / mb.max(0.05)).clamp(5.0, 200.0) as usize;
    let mut ix = Index::new();
    ix.parse_into(bytes).expect("indexable");
    let (t_index, t_reader) = medians(
        iters,
        || ix.parse_into(bytes).expect("indexable"),
        || {
            std::hint::black_box(reader_parse(bytes));
        },
    );
    let fresh = Index::parse(bytes).expect("indexable");
    println!(
        "{name}: {:.1} MB, {} descriptors ({:.1} bytes of document each); index heap {:.2} MB = {:.2}x \
         the document ({:.2}x with the growth room of a reused index); index build {:.0} MB/s, reader pull parse {:.0} MB/s \
         (ratio {:.2})",
        mb,
        fresh.len(),
        bytes.len() as f64 / fresh.len() as f64,
        fresh.heap_bytes() as f64 / 1e6,
        fresh.heap_bytes() as f64 / bytes.len() as f64,
        ix.heap_bytes() as f64 / bytes.len() as f64,
        mb / t_index,
        mb / t_reader,
        t_reader / t_index,
    );
}

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let files = if args.is_empty() {
        let base = std::env::var_os("XWIRE_CORPORA")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora")
            });
        ["auction-f0.01.xml", "auction-f0.1.xml"]
            .iter()
            .map(|f| base.join("xmark").join(f))
            .filter(|p| p.is_file())
            .collect()
    } else {
        args
    };
    for f in &files {
        let bytes = std::fs::read(f).expect("readable file");
        report(&f.display().to_string(), &bytes);
    }
    if files.is_empty() || std::env::args().len() == 1 {
        report("generated purchase orders", &purchase_orders(10_000_000));
    }
}
