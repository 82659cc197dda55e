//! Evaluates XPath expressions over a tree repeatedly and reports evaluations per second.
//! `cargo run --release -p xwire --example xpath_speed -- FILE [EXPR...]`
//! (default expressions suit the purchase-order workload: `xwire gen po -o po.xml`).
use xwire::tree::Document;
use xwire::xpath::{Evaluator, Navigator, Value, XPath};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: xpath_speed FILE [EXPR...]");
    let bytes = std::fs::read(&path).unwrap();
    let doc = Document::parse(&bytes).unwrap();
    let mut exprs: Vec<String> = args.collect();
    if exprs.is_empty() {
        exprs = [
            "//item/comment",
            "count(//item)",
            "//item[1]",
            "//item[@partNum][last()]",
            "sum(//item/quantity)",
            "//*[local-name() = 'comment']",
        ]
        .map(String::from)
        .to_vec();
    }
    println!("{path}: {} bytes, {} nodes", bytes.len(), doc.len());
    let mut ev = Evaluator::new();
    for e in &exprs {
        let xp = XPath::compile(e).unwrap();
        let root = Navigator::root(&doc);
        let shape = match ev.evaluate(&xp, &doc, root).unwrap() {
            Value::NodeSet(v) => format!("{} nodes", v.len()),
            v => format!("{:?}", v),
        };
        let t = std::time::Instant::now();
        let mut n = 0u32;
        while t.elapsed().as_secs_f64() < 1.0 {
            std::hint::black_box(ev.evaluate(&xp, &doc, root).unwrap());
            n += 1;
        }
        let per = t.elapsed().as_secs_f64() / f64::from(n);
        println!(
            "{e:40} {shape:>16}  {:>10.0} evaluations/s  {:>8.1} µs  {:>6.0} MB/s",
            1.0 / per,
            per * 1e6,
            bytes.len() as f64 / per / 1e6
        );
    }
}
