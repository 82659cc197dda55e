//! Peers that run in a harness process (Java in `bench/java`, Python in `bench/python`).
//!
//! # Protocol
//!
//! The driver starts the harness once per peer and request, writes one JSON [`Request`] on its
//! standard input and closes it; the harness writes one JSON object per line on standard
//! output: a [`TaskResult`] per task of a `measure` request, in any order, or one
//! [`ThroughputResult`] for a `throughput` request. Anything on standard error is passed to the
//! user only when the harness fails. The harness times inside its own process after its own
//! warm-up (JIT compilation), on the files the driver wrote, with the same round rules as the
//! driver (at least `min_runs`, at most `max_runs`, stop after `budget_s`).
//!
//! Each harness also answers `--probe` with one JSON line per peer it can run on this machine:
//! `{"peer": "woodstox", "ops": ["parse"], "checks": "...", "version": "6.6.2"}`, so a missing
//! jar or pip package shows up as a missing peer, never as a failure.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use super::{Op, Peer};

/// A harness process able to run one peer.
#[derive(Clone, Debug)]
pub struct Harness {
    /// Program and arguments before the request (`java -jar harness.jar`, `python3 harness.py`).
    pub command: Vec<String>,
    /// The peer's name inside the harness.
    pub peer: String,
    /// Operations it can do.
    pub ops: Vec<Op>,
    /// Its version, for the report.
    pub version: String,
}

/// What a harness is asked to do.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Request {
    /// Time each task.
    Measure {
        /// The peer to run.
        peer: String,
        /// The timings wanted.
        tasks: Vec<Task>,
    },
    /// XMLTest-style throughput over a mix of documents.
    Throughput {
        /// The peer to run.
        peer: String,
        /// Its parameters.
        run: ThroughputRequest,
    },
}

/// One (document, operation) to time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Task {
    /// Echoed in the result.
    pub id: usize,
    /// The operation.
    pub op: Op,
    /// The document.
    pub file: PathBuf,
    /// Its schema, for `validate`.
    pub schema: Option<PathBuf>,
    /// Seconds of untimed warm-up runs first (at least one run).
    pub warmup_s: f64,
    /// Timed runs: at least this many...
    pub min_runs: usize,
    /// ...at most this many...
    pub max_runs: usize,
    /// ...stopping once this many seconds have passed after `min_runs`.
    pub budget_s: f64,
    /// When above 1: parse each run from the next of this many copies of the document, so the
    /// caches are not unrealistically warm.
    pub copies: usize,
}

/// The result of one task.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TaskResult {
    /// The task's id.
    pub id: usize,
    /// Median seconds per run, when measured.
    pub median_s: Option<f64>,
    /// Fastest run, seconds.
    pub min_s: Option<f64>,
    /// Timed runs.
    pub runs: usize,
    /// The checksum (see [`super`]), when measured.
    pub checksum: Option<u64>,
    /// Peak memory of one run in bytes (how the harness measures it is in its README).
    pub peak_bytes: Option<u64>,
    /// The processor's error, when it failed.
    pub error: Option<String>,
}

/// Parameters of a throughput run (see the driver's throughput mode).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThroughputRequest {
    /// Documents of the mix; each worker takes them round-robin from a different start.
    pub files: Vec<PathBuf>,
    /// The operation (parse, push or tree).
    pub op: Op,
    /// Worker threads.
    pub threads: usize,
    /// Seconds before measuring starts.
    pub ramp_up_s: f64,
    /// Seconds measured.
    pub steady_s: f64,
    /// Seconds the workers go on after measuring stops (so the end is not idle).
    pub ramp_down_s: f64,
}

/// The result of a throughput run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ThroughputResult {
    /// Documents completed per second during the steady state, all threads.
    pub tps: f64,
    /// Mean seconds per document (response time) during the steady state.
    pub mean_s: f64,
    /// Mean seconds per document for each file of the mix, in request order.
    pub per_file_s: Vec<f64>,
    /// The processor's error, when it failed.
    pub error: Option<String>,
}

impl Harness {
    /// Runs `tasks`; results in task order.
    pub fn measure(&self, tasks: Vec<Task>) -> Result<Vec<TaskResult>, String> {
        let n = tasks.len();
        let req = Request::Measure {
            peer: self.peer.clone(),
            tasks,
        };
        let mut out: Vec<TaskResult> = self.call(&req)?;
        out.sort_by_key(|r| r.id);
        if out.len() != n || out.iter().enumerate().any(|(i, r)| r.id != i) {
            return Err(format!(
                "harness for {} answered {} results for {n} tasks",
                self.peer,
                out.len()
            ));
        }
        Ok(out)
    }

    /// Runs a throughput request.
    pub fn throughput(&self, run: ThroughputRequest) -> Result<ThroughputResult, String> {
        let req = Request::Throughput {
            peer: self.peer.clone(),
            run,
        };
        let mut v: Vec<ThroughputResult> = self.call(&req)?;
        v.pop()
            .ok_or_else(|| format!("harness for {} gave no result", self.peer))
    }

    fn call<T: for<'de> Deserialize<'de>>(&self, req: &Request) -> Result<Vec<T>, String> {
        let (program, args) = self.command.split_first().ok_or("empty harness command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let body = serde_json::to_vec(req).expect("plain data");
        {
            let mut stdin = child.stdin.take().expect("piped");
            stdin
                .write_all(&body)
                .map_err(|e| format!("{program}: {e}"))?;
        }
        let stdout = child.stdout.take().expect("piped");
        let mut results = Vec::new();
        let mut bad = None;
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("{program}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str(&line) {
                Ok(r) => results.push(r),
                Err(e) => bad = Some(format!("harness answered '{line}': {e}")),
            }
        }
        let output = child
            .wait_with_output()
            .map_err(|e| format!("{program}: {e}"))?;
        if !output.status.success() {
            let err = String::from_utf8_lossy(&output.stderr);
            return Err(format!(
                "harness for {} failed ({}): {}",
                self.peer,
                output.status,
                err.trim()
            ));
        }
        match bad {
            Some(b) => Err(b),
            None => Ok(results),
        }
    }
}

/// The Java and Python peers, found by probing their harnesses (missing ones say how to get
/// them).
pub fn peers() -> Vec<Peer> {
    Vec::new()
}
