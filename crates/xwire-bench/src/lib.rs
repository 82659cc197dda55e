//! # xwire-bench
//!
//! The benchmark suite of xwire: deterministic [`workloads`] shaped like the documents grid
//! and web-service applications exchange, adapters for the [`peers`] people use today (Rust
//! crates directly, C libraries through FFI shims found at build time), the [`driver`] that
//! measures them in interleaved rounds, and the [`report`].
//!
//! ```no_run
//! use xwire_bench::{driver, peers, report, workloads};
//! let opts = driver::Options::new(true);
//! let r = driver::run(&workloads::quick(), &peers::all(), &opts, &mut |_, _, _| {});
//! println!("{}", report::text(&r));
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod driver;
pub mod html;
pub mod memory;
pub mod peers;
pub mod report;
pub mod stats;
pub mod throughput;
pub mod workloads;
