//! Builds a tree and reports its heap size against the document size, the process's peak
//! resident set, and build and write speed (best of five).
//! `cargo run --release -p xwire --example tree_memory -- FILE`
//!
//! The figures quoted in `docs/architecture.md` are for the XMark documents of
//! `../shared/corpora/xmark` and the purchase orders of `xwire gen po --size 4000000 --seed 1
//! -o po.xml` (4 MB, indented: half the nodes are white space between elements).
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let mut best = f64::INFINITY;
    let mut d = None;
    for _ in 0..5 {
        // The previous tree is dropped first, so the peak holds one tree and the document.
        drop(d.take());
        let t = std::time::Instant::now();
        d = Some(xwire::tree::Document::parse(&bytes).unwrap());
        best = best.min(t.elapsed().as_secs_f64());
    }
    let d = d.unwrap();
    let mut write = f64::INFINITY;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        let out = d.to_xml().unwrap();
        write = write.min(t.elapsed().as_secs_f64());
        drop(out);
    }
    let mb = |n: usize| n as f64 / 1e6;
    println!(
        "{}: {} nodes, heap {:.1} MB = {:.2}x the document, peak RSS {} ({} MB document), built at {:.0} MB/s, written at {:.0} MB/s",
        path,
        d.len(),
        mb(d.heap_bytes()),
        d.heap_bytes() as f64 / bytes.len() as f64,
        peak_rss().map_or("unknown".into(), |kb| format!("{:.1} MB", kb as f64 / 1e3)),
        mb(bytes.len()),
        mb(bytes.len()) / best,
        mb(bytes.len()) / write
    );
}

/// VmHWM of /proc/self/status in kB (Linux only).
fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let v = s.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    v.trim().trim_end_matches("kB").trim().parse().ok()
}
