//! # xwire-bench
//!
//! The benchmark suite of xwire: deterministic [`workloads`] shaped like the documents grid
//! and web-service applications exchange, adapters for the [`peers`] people use today (Rust
//! crates directly, C libraries through FFI shims found at build time), the [`driver`] that
//! measures them in interleaved rounds (its primitives, shared with [`bxsa`], in [`timing`]),
//! and the [`report`]. Beside the workloads, [`bxsa`]
//! runs the BXSA data-set experiment of binary XML (sizes against the paper's, build / encode
//! / decode / consume times of xwire binary, text, gzip'd text and EXI from 0 to 5.5 million
//! pairs, the goals of issue 6); `xwire bench` runs it when the numeric workloads and the
//! encode/decode operations are selected (`--only bxsa` alone; `--peers` picks its encodings:
//! `xwire`, `text`, `gzip`, `exificient`; `--no-bxsa` skips it).
//!
//! ```no_run
//! use xwire_bench::{driver, peers, report, workloads};
//! let opts = driver::Options::new(true);
//! let r = driver::run(&workloads::quick(), &peers::all(), &opts, &mut |_, _, _| {});
//! println!("{}", report::text(&r));
//! ```

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
