//! Throughput in the manner of XMLTest: worker threads parse documents from a mix back to
//! back, the way a server handles requests; after a ramp-up period the documents completed
//! during a steady-state period are counted, and the workers go on through a ramp-down period
//! so that the end of the steady state is not measured on an emptying machine.
//!
//! A document counts when it starts after the ramp-up and ends before the steady state does.
//! Reported per processor: transactions (documents) per second over all threads, and the mean
//! response time per document, overall and for each document of the mix.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::peers::external::ThroughputRequest;
use crate::peers::{Engine, Op, Peer, Setup};

/// Parameters of a throughput run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads.
    pub threads: usize,
    /// Untimed start.
    pub ramp_up: Duration,
    /// Measured period.
    pub steady: Duration,
    /// Untimed end.
    pub ramp_down: Duration,
    /// Operations in order of preference: each peer runs the first it can do.
    pub ops: Vec<Op>,
}

impl Options {
    /// Defaults: one worker per CPU, the streaming parse (pull, else push); quick
    /// 0.1 + 0.6 + 0.1 s, full 2 + 10 + 2 s per peer.
    pub fn new(quick: bool) -> Options {
        let (up, steady, down) = if quick {
            (0.1, 0.6, 0.1)
        } else {
            (2.0, 10.0, 2.0)
        };
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ramp_up: Duration::from_secs_f64(up),
            steady: Duration::from_secs_f64(steady),
            ramp_down: Duration::from_secs_f64(down),
            ops: vec![Op::Parse, Op::Push],
        }
    }
}

/// A document of the mix.
#[derive(Clone, Debug, Serialize)]
pub struct MixDoc {
    /// Workload name.
    pub name: String,
    /// Bytes.
    pub size: usize,
}

/// One processor's throughput.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Peer name.
    pub peer: String,
    /// The operation it ran.
    pub op: Op,
    /// Documents per second over all threads, steady state.
    pub tps: Option<f64>,
    /// Mean seconds per document.
    pub mean_s: Option<f64>,
    /// Mean seconds per document of the mix, in mix order.
    pub per_doc_s: Vec<f64>,
    /// Why it has no figures.
    pub error: Option<String>,
}

/// The throughput section of the report.
#[derive(Clone, Debug, Serialize)]
pub struct ThroughputReport {
    /// Worker threads.
    pub threads: usize,
    /// Operations, in order of preference.
    pub ops: Vec<Op>,
    /// Ramp-up, steady state and ramp-down, seconds.
    pub periods_s: [f64; 3],
    /// The mix.
    pub mix: Vec<MixDoc>,
    /// One row per peer able to run the operation.
    pub rows: Vec<Row>,
}

/// A document of the mix: name, bytes, and a file for harness peers (if written).
pub struct Doc {
    /// Workload name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its file, for harness peers.
    pub file: Option<PathBuf>,
}

/// Runs every peer able to do one of `opts.ops` over the mix, one peer at a time.
pub fn run(
    mix: &[Doc],
    peers: &[Peer],
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> ThroughputReport {
    let rows = peers
        .iter()
        .filter(|p| p.available())
        .filter_map(|p| {
            let op = opts.ops.iter().copied().find(|&o| p.can(o))?;
            progress(p.name);
            Some(match &p.engine {
                Engine::External(h) => external(p.name, op, h, mix, opts),
                _ => in_process(p, op, mix, opts),
            })
        })
        .collect();
    ThroughputReport {
        threads: opts.threads,
        ops: opts.ops.clone(),
        periods_s: [
            opts.ramp_up.as_secs_f64(),
            opts.steady.as_secs_f64(),
            opts.ramp_down.as_secs_f64(),
        ],
        mix: mix
            .iter()
            .map(|d| MixDoc {
                name: d.name.clone(),
                size: d.bytes.len(),
            })
            .collect(),
        rows,
    }
}

fn failed(peer: &str, op: Op, error: String) -> Row {
    Row {
        peer: peer.to_string(),
        op,
        tps: None,
        mean_s: None,
        per_doc_s: Vec::new(),
        error: Some(error),
    }
}

fn in_process(p: &Peer, op: Op, mix: &[Doc], opts: &Options) -> Row {
    let start = Instant::now();
    let steady_from = start + opts.ramp_up;
    let steady_to = steady_from + opts.steady;
    let end = steady_to + opts.ramp_down;
    // Per worker: (documents counted, seconds) per document of the mix.
    let results: Vec<Result<Vec<(u64, f64)>, String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..opts.threads.max(1))
            .map(|worker| {
                s.spawn(move || {
                    let mut run = p
                        .prepare(op, &Setup::default())
                        .ok_or("cannot run in process")??;
                    let mut acc = vec![(0u64, 0f64); mix.len()];
                    let mut k = worker;
                    loop {
                        let i = k % mix.len();
                        k += 1;
                        let t0 = Instant::now();
                        if t0 >= end {
                            return Ok(acc);
                        }
                        std::hint::black_box(run(std::hint::black_box(&mix[i].bytes)))
                            .map_err(|e| format!("{}: {e}", mix[i].name))?;
                        let t1 = Instant::now();
                        if t0 >= steady_from && t1 <= steady_to {
                            acc[i].0 += 1;
                            acc[i].1 += (t1 - t0).as_secs_f64();
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("worker panicked".into())))
            .collect()
    });
    let mut total = vec![(0u64, 0f64); mix.len()];
    for r in results {
        match r {
            Ok(acc) => {
                for (t, a) in total.iter_mut().zip(acc) {
                    t.0 += a.0;
                    t.1 += a.1;
                }
            }
            Err(e) => return failed(p.name, op, e),
        }
    }
    let count: u64 = total.iter().map(|t| t.0).sum();
    let secs: f64 = total.iter().map(|t| t.1).sum();
    if count == 0 {
        return failed(
            p.name,
            op,
            "no document completed within the steady state".into(),
        );
    }
    Row {
        peer: p.name.to_string(),
        op,
        tps: Some(count as f64 / opts.steady.as_secs_f64()),
        mean_s: Some(secs / count as f64),
        per_doc_s: total
            .iter()
            .map(|&(n, s)| if n > 0 { s / n as f64 } else { f64::NAN })
            .collect(),
        error: None,
    }
}

fn external(
    name: &str,
    op: Op,
    h: &crate::peers::external::Harness,
    mix: &[Doc],
    opts: &Options,
) -> Row {
    let Some(files) = mix
        .iter()
        .map(|d| d.file.clone())
        .collect::<Option<Vec<_>>>()
    else {
        return failed(
            name,
            op,
            "documents were not written for the harness".into(),
        );
    };
    let req = ThroughputRequest {
        files,
        op,
        threads: opts.threads,
        ramp_up_s: opts.ramp_up.as_secs_f64(),
        steady_s: opts.steady.as_secs_f64(),
        ramp_down_s: opts.ramp_down.as_secs_f64(),
    };
    match h.throughput(req) {
        Ok(r) => match r.error {
            Some(e) => failed(name, op, e),
            None => Row {
                peer: name.to_string(),
                op,
                tps: Some(r.tps),
                mean_s: Some(r.mean_s),
                per_doc_s: r.per_file_s,
                error: None,
            },
        },
        Err(e) => failed(name, op, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_complete_documents_in_the_steady_state() {
        let peers = crate::peers::select(Some("xwire,quick-xml,roxmltree")).unwrap();
        let mix: Vec<Doc> = ["overhead", "mesh"]
            .iter()
            .map(|n| Doc {
                name: n.to_string(),
                bytes: crate::workloads::named(n).unwrap().load(20_000, 1).unwrap(),
                file: None,
            })
            .collect();
        let opts = Options {
            threads: 2,
            ramp_up: Duration::from_millis(50),
            steady: Duration::from_millis(200),
            ramp_down: Duration::from_millis(50),
            ops: vec![Op::Parse, Op::Push],
        };
        let r = run(&mix, &peers, &opts, &mut |_| {});
        // roxmltree only builds trees: not a streaming parser, not in the run.
        assert_eq!(r.rows.len(), 2);
        for row in &r.rows {
            assert!(row.error.is_none(), "{row:?}");
            let tps = row.tps.unwrap();
            let mean = row.mean_s.unwrap();
            assert!(tps > 10.0, "{row:?}");
            // Two workers busy for the steady state: tps x mean is at most 2 (and near it).
            assert!(tps * mean <= 2.05 && tps * mean > 0.5, "{row:?}");
            // The one-element document is faster than the 20 KB one.
            assert!(row.per_doc_s[0] < row.per_doc_s[1], "{row:?}");
        }
    }
}
