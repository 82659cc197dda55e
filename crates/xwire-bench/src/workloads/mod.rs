//! Benchmark documents: deterministic generators (seeded, so every run and every machine parses
//! the same bytes) and files from the shared corpora.

mod generate;
mod rng;

use std::path::PathBuf;

pub use generate::{mesh, overhead, purchase_orders, soap_doubles};
pub use rng::Rng;

/// Where a workload's bytes come from.
#[derive(Clone, Copy, Debug)]
pub enum Source {
    /// Generated: `(target size in bytes, seed) -> document`.
    Generated(fn(usize, u64) -> Vec<u8>),
    /// A file below the corpora folder (`../shared/corpora` or `$XWIRE_CORPORA`).
    Corpus(&'static str),
}

/// A named benchmark document.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    /// Short name used on the command line (`--only`).
    pub name: &'static str,
    /// What it is and what it exercises.
    pub description: &'static str,
    /// Where its bytes come from.
    pub source: Source,
    /// Default size for generated workloads, in bytes.
    pub size: usize,
}

/// Seed used unless the caller picks another.
pub const DEFAULT_SEED: u64 = 0x005E_ED0F_C0DE;

/// Every workload of the reader comparison, in report order.
pub const ALL: &[Workload] = &[
    Workload {
        name: "po",
        description: "purchase orders of the XML Schema Primer, namespaced root, ~5 MB",
        source: Source::Generated(purchase_orders),
        size: 5_000_000,
    },
    Workload {
        name: "soap-doubles",
        description: "SOAP 1.1 encoded array of 100,000 doubles, xsi:type on every item, ~5 MB",
        source: Source::Generated(soap_doubles),
        size: 5_000_000,
    },
    Workload {
        name: "mesh",
        description: "mesh interface objects (int, int, double) with namespace prefixes, ~7 MB",
        source: Source::Generated(mesh),
        size: 7_000_000,
    },
    Workload {
        name: "xmark",
        description: "XMark auction document, factor 0.1 (11.7 MB, text-heavy)",
        source: Source::Corpus("xmark/auction-f0.1.xml"),
        size: 0,
    },
];

/// The one-element document used to measure the fixed cost of a parse.
pub const OVERHEAD: Workload = Workload {
    name: "overhead",
    description: "a single element, no attributes: setup and teardown cost of one parse",
    source: Source::Generated(overhead),
    size: 0,
};

impl Workload {
    /// Finds a workload by name (including `overhead`).
    pub fn named(name: &str) -> Option<Workload> {
        ALL.iter()
            .chain(std::iter::once(&OVERHEAD))
            .find(|w| w.name == name)
            .copied()
    }

    /// The document's bytes: generated at `size` (0: the workload's default) with `seed`, or
    /// read from the corpora. Errors name the missing file.
    pub fn load(&self, size: usize, seed: u64) -> Result<Vec<u8>, String> {
        match self.source {
            Source::Generated(f) => Ok(f(if size == 0 { self.size } else { size }, seed)),
            Source::Corpus(rel) => {
                let Some(dir) = corpora_dir() else {
                    return Err(format!(
                        "corpora not found (set XWIRE_CORPORA or check out ../shared/corpora); needed for {rel}"
                    ));
                };
                let path = dir.join(rel);
                std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
            }
        }
    }
}

/// `$XWIRE_CORPORA`, else `../shared/corpora` from the workspace root or the current directory
/// or one of its parents.
pub fn corpora_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("XWIRE_CORPORA") {
        return Some(PathBuf::from(d));
    }
    let mut starts = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")];
    starts.extend(std::env::current_dir().ok());
    starts.iter().find_map(|s| {
        s.ancestors()
            .map(|d| d.join("../shared/corpora"))
            .find(|c| c.is_dir())
            .and_then(|c| c.canonicalize().ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_documents_are_well_formed_and_deterministic() {
        for w in ALL.iter().chain([&OVERHEAD]) {
            let Source::Generated(f) = w.source else {
                continue;
            };
            let size = 200_000;
            let a = f(size, 7);
            assert_eq!(a, f(size, 7), "{} is not deterministic", w.name);
            let stats = crate::stats::collect(&mut xwire::Reader::from_slice(&a), a.len() as u64)
                .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", w.name));
            assert!(stats.elements >= 1, "{}", w.name);
            if w.name != "overhead" {
                assert!(
                    (size / 2..size * 2).contains(&a.len()),
                    "{}: asked for {size} bytes, got {}",
                    w.name,
                    a.len()
                );
                assert_ne!(a, f(size, 8), "{}: the seed changes nothing", w.name);
            }
        }
    }
}
