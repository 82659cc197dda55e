//! Benchmark documents: deterministic generators (seeded, so every run and every machine parses
//! the same bytes) and files from the shared corpora.
//!
//! Workloads come in [`Group`]s (what they probe); families that vary one parameter (array
//! length, document size) form a [`Series`], drawn as a line in the HTML report.

mod generate;
mod rng;

use std::path::PathBuf;

use serde::Serialize;

pub use generate::{mesh, overhead, purchase_orders, soap_doubles};
pub use rng::Rng;

/// What a workload probes; the report is organised by group.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    /// One element: the fixed cost of a parse.
    Overhead,
    /// SOAP-encoded arrays of one item type, by length.
    Arrays,
    /// Namespace-heavy documents.
    Namespaces,
    /// SOAP multi-ref object graphs.
    ObjectGraphs,
    /// SOAP request and response envelopes.
    Soap,
    /// Application documents (workflows, catalogues, genomics, meshes, events, molecules).
    Application,
    /// The purchase-order family of the XML Schema Primer, with schemas.
    PurchaseOrders,
    /// Small / medium / big purchase-order files for latency tables.
    Latency,
    /// Numeric data sets for binary XML.
    Numeric,
    /// Real documents from the shared corpora.
    Real,
}

impl Group {
    /// Every group, in report order.
    pub const ALL: &'static [Group] = &[
        Group::Overhead,
        Group::Arrays,
        Group::Namespaces,
        Group::ObjectGraphs,
        Group::Soap,
        Group::Application,
        Group::PurchaseOrders,
        Group::Latency,
        Group::Numeric,
        Group::Real,
    ];

    /// Heading in reports.
    pub fn title(self) -> &'static str {
        match self {
            Group::Overhead => "overhead",
            Group::Arrays => "SOAP-encoded arrays",
            Group::Namespaces => "namespaces",
            Group::ObjectGraphs => "object graphs (multi-ref)",
            Group::Soap => "SOAP messages",
            Group::Application => "application documents",
            Group::PurchaseOrders => "purchase orders (XML Schema Primer)",
            Group::Latency => "latency: small / medium / big",
            Group::Numeric => "numeric data sets",
            Group::Real => "real documents (corpora)",
        }
    }
}

/// A point of a family of workloads that vary one parameter.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    /// The family (`"arrays-double"`): one line per series and peer in charts.
    pub name: String,
    /// The parameter's value (x axis).
    pub x: f64,
    /// What `x` counts (`"elements"`, `"bytes"`, `"pairs"`).
    pub unit: &'static str,
}

/// Where a workload's bytes come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Generated: `(size, seed) -> document`, at `size` unless the caller picks another. What
    /// `size` counts is the workload's `size_unit`.
    Generated {
        /// The generator.
        f: fn(usize, u64) -> Vec<u8>,
        /// The default size.
        size: usize,
    },
    /// A file below the corpora folder (`../shared/corpora` or `$XWIRE_CORPORA`).
    Corpus(&'static str),
}

/// A named benchmark document.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Unique name used on the command line (`--only`, `xwire gen`).
    pub name: String,
    /// What it probes.
    pub group: Group,
    /// Its place in a family, if it is part of one.
    pub series: Option<Series>,
    /// What it is and what it exercises.
    pub description: String,
    /// Where its bytes come from.
    pub source: Source,
    /// What the size of a generated workload counts (`"bytes"`, `"elements"`, ...).
    pub size_unit: &'static str,
    /// The schema the document is valid against, if there is one.
    pub schema: Option<PathBuf>,
    /// Part of `bench --quick`.
    pub quick: bool,
}

/// Seed used unless the caller picks another.
pub const DEFAULT_SEED: u64 = 0x005E_ED0F_C0DE;

fn generated(
    name: &str,
    group: Group,
    description: &str,
    f: fn(usize, u64) -> Vec<u8>,
    size: usize,
    quick: bool,
) -> Workload {
    Workload {
        name: name.to_string(),
        group,
        series: None,
        description: description.to_string(),
        source: Source::Generated { f, size },
        size_unit: "bytes",
        schema: None,
        quick,
    }
}

/// Every workload, in report order.
pub fn all() -> Vec<Workload> {
    vec![
        generated(
            "overhead",
            Group::Overhead,
            "a single element, no attributes: setup and teardown cost of one parse",
            overhead,
            0,
            true,
        ),
        generated(
            "po",
            Group::PurchaseOrders,
            "purchase orders of the XML Schema Primer, namespaced root, ~5 MB",
            purchase_orders,
            5_000_000,
            true,
        ),
        generated(
            "soap-doubles",
            Group::Arrays,
            "SOAP 1.1 encoded array of doubles, xsi:type on every item, ~5 MB",
            soap_doubles,
            5_000_000,
            true,
        ),
        generated(
            "mesh",
            Group::Application,
            "mesh interface objects (int, int, double) with namespace prefixes, ~7 MB",
            mesh,
            7_000_000,
            true,
        ),
        Workload {
            name: "xmark".into(),
            group: Group::Real,
            series: None,
            description: "XMark auction document, factor 0.1 (11.7 MB, text-heavy)".into(),
            source: Source::Corpus("xmark/auction-f0.1.xml"),
            size_unit: "bytes",
            schema: None,
            quick: true,
        },
    ]
}

/// The workloads of `bench --quick`.
pub fn quick() -> Vec<Workload> {
    all().into_iter().filter(|w| w.quick).collect()
}

/// Finds a workload by name.
pub fn named(name: &str) -> Option<Workload> {
    all().into_iter().find(|w| w.name == name)
}

impl Workload {
    /// The document's bytes: generated at `size` (0: the workload's default) with `seed`, or
    /// read from the corpora. Errors name the missing file.
    pub fn load(&self, size: usize, seed: u64) -> Result<Vec<u8>, String> {
        match &self.source {
            Source::Generated { f, size: default } => {
                Ok(f(if size == 0 { *default } else { size }, seed))
            }
            Source::Corpus(rel) => {
                let Some(dir) = xwire_conformance::corpora_dir() else {
                    return Err(format!(
                        "corpora not found (set XWIRE_CORPORA or check out ../shared/corpora); needed for {rel}"
                    ));
                };
                let path = dir.join(rel);
                std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
            }
        }
    }

    /// A small instance for tests: generated workloads at a tenth of their size (at most about
    /// 300 KB), corpus files as they are.
    pub fn load_small(&self, seed: u64) -> Vec<u8> {
        let size = match &self.source {
            Source::Generated { size, .. } if self.size_unit == "bytes" => {
                (*size / 10).min(300_000)
            }
            Source::Generated { size, .. } => (*size / 10).max(1),
            Source::Corpus(_) => 0,
        };
        self.load(size, seed)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let all = all();
        for (i, w) in all.iter().enumerate() {
            assert!(
                all[i + 1..].iter().all(|v| v.name != w.name),
                "{} twice",
                w.name
            );
        }
    }

    #[test]
    fn generated_documents_are_well_formed_and_deterministic() {
        for w in all() {
            let Source::Generated { f, .. } = w.source else {
                continue;
            };
            let a = w.load_small(7);
            assert_eq!(a, w.load_small(7), "{} is not deterministic", w.name);
            let stats = crate::stats::collect(&mut xwire::Reader::from_slice(&a), a.len() as u64)
                .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", w.name));
            assert!(stats.elements >= 1, "{}", w.name);
            if w.name != "overhead" && w.size_unit == "bytes" {
                let size = 200_000;
                let b = f(size, 7);
                assert!(
                    (size / 2..size * 2).contains(&b.len()),
                    "{}: asked for {size} bytes, got {}",
                    w.name,
                    b.len()
                );
                assert_ne!(b, f(size, 8), "{}: the seed changes nothing", w.name);
            }
        }
    }
}
