//! # xwire-bench
//!
//! The benchmark suite of xwire: what `xwire bench` (and the README's main job,
//! `cargo run --release -- bench --quick`) runs. It measures xwire against the XML processors
//! people use today on documents shaped like those grid and web-service applications
//! exchange, and writes a text report, JSON and a self-contained HTML page. It is a library so
//! that the command line, the examples under `examples/` and the tests share it; the core
//! crates never depend on it.
//!
//! The parts, in the order a run uses them:
//!
//! - [`workloads`]: deterministic documents ([`workloads::Workload`]: the same size and seed
//!   give the same bytes on every machine) and corpus files, grouped and in series, with their
//!   schemas; [`workloads::quick`] is the `--quick` set.
//! - [`peers`]: one adapter per processor and operation ([`peers::Peer`], [`peers::Op`]): Rust
//!   crates directly, C and C++ libraries through FFI shims found by pkg-config at build time,
//!   Java and Python through harness processes. Every adapter consumes the whole document and
//!   returns a checksum, so a peer cannot skip work unnoticed.
//! - [`driver`]: warm-up, then interleaved rounds over the peers, medians and minima
//!   ([`driver::run`] with [`driver::Options`]); its timing primitives, shared with [`bxsa`],
//!   are in [`timing`]; peak memory per run in [`memory`]; the multi-threaded mode in
//!   [`throughput`].
//! - [`bxsa`]: the BXSA data-set experiment of binary XML (sizes against the paper's, build /
//!   encode / decode / consume times of xwire binary, text, gzip'd text and EXI from 0 to 5.5
//!   million pairs, the goals of issue 6); `xwire bench` runs it when the numeric workloads and
//!   the encode/decode operations are selected (`--only bxsa` alone; `--peers` picks its
//!   encodings: `xwire`, `text`, `gzip`, `exificient`; `--no-bxsa` skips it).
//! - [`report`] and [`html`]: the text and JSON reports and the HTML page.
//!
//! ```
//! use xwire_bench::workloads;
//!
//! let po = workloads::named("po-8k").expect("a workload of the suite");
//! assert!(po.quick && po.schema.is_some()); // in `--quick`, validated against its schema
//! let doc = po.load(0, 7)?; // size 0: the workload's own; seed 7
//! assert_eq!(doc, po.load(0, 7)?); // deterministic
//! let stats = xwire::stats::collect(&mut xwire::Reader::from_slice(&doc), doc.len() as u64)?;
//! assert_eq!(stats.namespaces_declared, 0); // the Primer's po.xml has no namespace
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A whole run, as `xwire bench --quick` does it:
//!
//! ```no_run
//! use xwire_bench::{driver, peers, report, workloads};
//! let opts = driver::Options::new(true);
//! let r = driver::run(&workloads::quick(), &peers::all(), &opts, &mut |_, _, _| {});
//! println!("{}", report::text(&r));
//! ```
//!
//! Where next: `docs/benchmarks.md` explains the method (checksums, rounds, memory,
//! throughput, what each peer checks), how to read the report, how to add a peer or a
//! workload, and keeps the results of past runs; `scripts/install-peers.sh` installs the
//! peers; `scripts/instructions.sh` counts instructions under callgrind.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bxsa;
pub mod driver;
pub mod html;
pub mod memory;
pub mod peers;
pub mod report;
pub mod throughput;
pub mod timing;
pub mod workloads;
