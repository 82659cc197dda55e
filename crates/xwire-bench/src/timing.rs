//! Timing primitives of the driver ([`crate::driver`]) and the BXSA experiment
//! ([`crate::bxsa`]): the [`Cell`] a measurement ends in, how many rounds a run takes
//! ([`rounds`]), interleaved rounds of one run per runner, batches of calls for runs shorter
//! than the timer's resolution, and the [`median`].

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::peers::Runner;

/// The result of one peer doing one operation on one workload.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Cell {
    /// Timed.
    Measured {
        /// Median seconds per run.
        median_s: f64,
        /// Fastest run, seconds.
        min_s: f64,
        /// Number of timed runs.
        runs: usize,
        /// Checksum differs from xwire's (the processor saw a different document).
        checksum_differs: bool,
        /// Peak memory of one run in bytes, when measured.
        peak_bytes: Option<u64>,
    },
    /// The processor rejected the document (or its harness failed).
    Failed {
        /// Its message.
        error: String,
    },
    /// The processor is not on this machine.
    Missing,
    /// Not run in this mode (`--quick` keeps slow harness peers to small documents).
    Skipped {
        /// Why.
        reason: String,
    },
    /// The processor cannot do this operation (or the workload has no schema to validate
    /// against, or is not of the XPath-pipeline set for a pipeline).
    Unsupported,
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

/// (minimum rounds, maximum rounds, time budget per workload and operation), quick or full.
pub fn rounds(quick: bool) -> (usize, usize, Duration) {
    if quick {
        (3, 20, Duration::from_millis(400))
    } else {
        (15, 200, Duration::from_secs(8))
    }
}

/// Interleaved rounds: at least `min_rounds`, at most `max_rounds`, stopping once
/// `budget` has passed; each round times one run of every live runner, starting with a
/// different one each round. Each run reads `doc`, or with `docs` (cold caches) the next of
/// those copies. Seconds per run, per live runner.
pub(crate) fn time_interleaved(
    doc: &[u8],
    docs: &[Vec<u8>],
    runners: &mut [Option<Runner>],
    live: &[usize],
    (min_rounds, max_rounds, budget): (usize, usize, Duration),
) -> Vec<Vec<f64>> {
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); live.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < min_rounds || (round < max_rounds && start.elapsed() < budget) {
        for k in 0..live.len() {
            let slot = (k + round) % live.len();
            let run = runners[live[slot]].as_mut().expect("live");
            // Cold: each run reads a copy the previous runs did not touch recently.
            let input: &[u8] = match docs.len() {
                0 => doc,
                n => &docs[(round * live.len() + k) % n],
            };
            let t = Instant::now();
            let r = std::hint::black_box(run(std::hint::black_box(input)));
            times[slot].push(t.elapsed().as_secs_f64());
            debug_assert!(r.is_ok());
        }
        round += 1;
    }
    times
}

/// Batches of calls long enough (~2 ms) that the timer's resolution does not matter; one
/// sample per batch, in seconds per call; `min_rounds` batches per live runner.
pub(crate) fn time_batches(
    doc: &[u8],
    runners: &mut [Option<Runner>],
    live: &[usize],
    min_rounds: usize,
) -> Vec<Vec<f64>> {
    live.iter()
        .map(|&i| {
            let run = runners[i].as_mut().expect("live");
            let t = Instant::now();
            for _ in 0..100 {
                std::hint::black_box(run(std::hint::black_box(doc))).ok();
            }
            let per = t.elapsed().as_secs_f64() / 100.0;
            let batch = ((2e-3 / per.max(1e-9)) as usize).clamp(100, 200_000);
            (0..min_rounds)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..batch {
                        std::hint::black_box(run(std::hint::black_box(doc))).ok();
                    }
                    t.elapsed().as_secs_f64() / batch as f64
                })
                .collect()
        })
        .collect()
}

/// Sorts `v` and returns its median.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
