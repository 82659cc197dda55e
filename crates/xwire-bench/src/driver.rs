//! Runs (workload x peer) measurements.
//!
//! For each workload every peer parses the document once to warm up (and to check its
//! checksum against xwire's), then the peers take turns in rounds, each round starting with a
//! different peer, so that noise on the shared machine falls on all of them alike. A round
//! times one whole parse per peer. Medians and minima over the rounds are reported.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::peers::Peer;
use crate::stats::Stats;
use crate::workloads::Workload;

/// How long and how hard to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Fewer rounds and a smaller time budget: the whole quick suite in well under 2 minutes.
    pub quick: bool,
    /// Seed for generated workloads.
    pub seed: u64,
    /// Size of generated workloads in bytes (0: each workload's default).
    pub size: usize,
}

impl Options {
    fn rounds(&self) -> (usize, usize, Duration) {
        if self.quick {
            (5, 40, Duration::from_millis(2500))
        } else {
            (15, 200, Duration::from_secs(15))
        }
    }
}

/// The result of one peer on one workload.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Cell {
    /// Timed.
    Measured {
        /// Median seconds per parse.
        median_s: f64,
        /// Fastest parse, seconds.
        min_s: f64,
        /// Number of timed parses.
        runs: usize,
        /// Checksum differs from xwire's (the processor saw a different document).
        checksum_differs: bool,
    },
    /// The processor rejected the document.
    Failed {
        /// Its message.
        error: String,
    },
    /// The processor is not in this build.
    Missing {
        /// Why.
        reason: String,
    },
}

impl Cell {
    /// Median seconds, if measured.
    pub fn median(&self) -> Option<f64> {
        match self {
            Cell::Measured { median_s, .. } => Some(*median_s),
            _ => None,
        }
    }
}

/// One workload's results.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadResult {
    /// Workload name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its characteristics (as xwire reads it).
    pub stats: Stats,
    /// One cell per peer, in peer order: (peer name, cell).
    pub cells: Vec<(String, Cell)>,
}

/// Fixed cost of one parse of a one-element document, per peer.
#[derive(Clone, Debug, Serialize)]
pub struct OverheadResult {
    /// Peer name.
    pub peer: String,
    /// Median nanoseconds per parse (creating the parser included), if measured.
    pub ns_per_parse: Option<f64>,
}

/// Everything one run measured.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Quick or full.
    pub quick: bool,
    /// Peers: (name, what it checks, available or why not).
    pub peers: Vec<(String, String, Option<String>)>,
    /// Per workload.
    pub workloads: Vec<WorkloadResult>,
    /// Workloads that could not be loaded: (name, why).
    pub skipped: Vec<(String, String)>,
    /// Tiny-document overhead.
    pub overhead: Vec<OverheadResult>,
}

/// Progress callback: (what is being measured, steps done, steps in all).
pub type Progress<'a> = &'a mut dyn FnMut(&str, u64, u64);

/// Runs every workload against every peer.
pub fn run(
    workloads: &[Workload],
    peers: &[Peer],
    opts: &Options,
    progress: Progress<'_>,
) -> Report {
    let total = workloads.len() as u64 + 1;
    let mut report = Report {
        quick: opts.quick,
        peers: peers
            .iter()
            .map(|p| {
                let missing = (!p.available()).then(|| p.missing.to_string());
                (p.name.to_string(), p.checks.to_string(), missing)
            })
            .collect(),
        workloads: Vec::new(),
        skipped: Vec::new(),
        overhead: Vec::new(),
    };
    for (k, w) in workloads.iter().enumerate() {
        progress(&format!("loading {}", w.name), k as u64, total);
        let doc = match w.load(opts.size, opts.seed) {
            Ok(d) => d,
            Err(e) => {
                report.skipped.push((w.name.to_string(), e));
                continue;
            }
        };
        let stats =
            match crate::stats::collect(&mut xwire::Reader::from_slice(&doc), doc.len() as u64) {
                Ok(s) => s,
                Err(e) => {
                    report
                        .skipped
                        .push((w.name.to_string(), format!("not well-formed: {e}")));
                    continue;
                }
            };
        progress(&format!("measuring {}", w.name), k as u64, total);
        let cells = measure(&doc, peers, opts);
        report.workloads.push(WorkloadResult {
            name: w.name.to_string(),
            description: w.description.to_string(),
            stats,
            cells: peers
                .iter()
                .map(|p| p.name.to_string())
                .zip(cells)
                .collect(),
        });
    }
    progress(
        "measuring the tiny-document overhead",
        workloads.len() as u64,
        total,
    );
    report.overhead = overhead(peers, opts);
    progress("done", total, total);
    report
}

fn measure(doc: &[u8], peers: &[Peer], opts: &Options) -> Vec<Cell> {
    let reference = crate::peers::all()[0].parse.and_then(|f| f(doc).ok());
    let mut cells: Vec<Cell> = peers
        .iter()
        .map(|p| match p.parse {
            None => Cell::Missing {
                reason: p.missing.to_string(),
            },
            // The warm-up parse: also checks that the peer accepts the document.
            Some(f) => match f(doc) {
                Ok(sum) => Cell::Measured {
                    median_s: 0.0,
                    min_s: 0.0,
                    runs: 0,
                    checksum_differs: reference.is_some_and(|r| r != sum),
                },
                Err(error) => Cell::Failed { error },
            },
        })
        .collect();
    let live: Vec<usize> = (0..peers.len())
        .filter(|&i| matches!(cells[i], Cell::Measured { .. }))
        .collect();
    let (min_rounds, max_rounds, budget) = opts.rounds();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); peers.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < min_rounds || (round < max_rounds && start.elapsed() < budget) {
        for k in 0..live.len() {
            let i = live[(k + round) % live.len()];
            let f = peers[i].parse.expect("live peers are available");
            let t = Instant::now();
            let r = std::hint::black_box(f(std::hint::black_box(doc)));
            times[i].push(t.elapsed().as_secs_f64());
            debug_assert!(r.is_ok());
        }
        round += 1;
    }
    for &i in &live {
        if let Cell::Measured {
            median_s,
            min_s,
            runs,
            ..
        } = &mut cells[i]
        {
            *median_s = median(&mut times[i]);
            *min_s = times[i][0];
            *runs = times[i].len();
        }
    }
    cells
}

/// Sorts `v` and returns its median.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn overhead(peers: &[Peer], opts: &Options) -> Vec<OverheadResult> {
    let doc = crate::workloads::OVERHEAD
        .load(0, opts.seed)
        .expect("generated");
    let rounds = if opts.quick { 5 } else { 15 };
    peers
        .iter()
        .map(|p| OverheadResult {
            peer: p.name.to_string(),
            ns_per_parse: p.parse.filter(|f| f(&doc).is_ok()).map(|f| {
                // Batches long enough (~2 ms) that the timer's resolution does not matter.
                let t = Instant::now();
                for _ in 0..100 {
                    std::hint::black_box(f(std::hint::black_box(&doc))).ok();
                }
                let per = t.elapsed().as_secs_f64() / 100.0;
                let batch = ((2e-3 / per.max(1e-9)) as usize).clamp(100, 200_000);
                let mut samples: Vec<f64> = (0..rounds)
                    .map(|_| {
                        let t = Instant::now();
                        for _ in 0..batch {
                            std::hint::black_box(f(std::hint::black_box(&doc))).ok();
                        }
                        t.elapsed().as_secs_f64() / batch as f64 * 1e9
                    })
                    .collect();
                median(&mut samples)
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn a_tiny_run_measures_every_available_peer() {
        let peers = crate::peers::all();
        let opts = Options {
            quick: true,
            seed: 1,
            size: 20_000,
        };
        let w = crate::workloads::Workload::named("mesh").unwrap();
        let report = run(&[w], &peers, &opts, &mut |_, _, _| {});
        assert_eq!(report.workloads.len(), 1);
        for (peer, (name, cell)) in peers.iter().zip(&report.workloads[0].cells) {
            assert_eq!(peer.name, name);
            match cell {
                Cell::Measured {
                    runs,
                    median_s,
                    checksum_differs,
                    ..
                } => {
                    assert!(peer.available());
                    assert!(*runs >= 5 && *median_s > 0.0, "{name}");
                    assert!(!checksum_differs, "{name} saw a different document");
                }
                Cell::Missing { .. } => assert!(!peer.available()),
                Cell::Failed { error } => panic!("{name} failed: {error}"),
            }
        }
        assert_eq!(report.overhead.len(), peers.len());
    }
}
