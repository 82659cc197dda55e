//! Runs (workload x peer x operation) measurements.
//!
//! For each workload and operation every in-process peer runs once to warm up (and to check
//! its checksum against xwire's), then the peers take turns in rounds, each round starting with
//! a different peer, so that noise on the shared machine falls on all of them alike. A round
//! times one whole run per peer. Medians and minima over the rounds are reported. Peers in a
//! harness process (Java, Python) are timed by their harness after its own warm-up, on files
//! the driver writes, with the same round rules. An operation measured only beside validation
//! (a validating peer's own parse, planned by the private `Plan`) is timed in validation's
//! rounds.
//!
//! The overhead workload is timed in batches (one call is shorter than the timer's
//! resolution). Peak memory is measured in a fresh process per (workload, peer, operation)
//! (see [`crate::memory`]); throughput in the manner of XMLTest by [`crate::throughput`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use xwire::stats::Stats;

use crate::peers::external::Task;
use crate::peers::{Engine, Lang, Op, Peer, Runner, Setup};
use crate::timing::{median, time_batches, time_interleaved, Cell};
use crate::workloads::{Group, Series, Workload};

/// How long and how hard to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Fewer rounds and a smaller time budget: the whole quick suite in under 2 minutes.
    pub quick: bool,
    /// Seed for generated workloads.
    pub seed: u64,
    /// Size of generated workloads (0: each workload's default).
    pub size: usize,
    /// Operations to measure (empty: all).
    pub ops: Vec<Op>,
    /// Parse each run from the next of several copies of the document (at least 64 MB in
    /// all), so caches are not unrealistically warm.
    pub cold: bool,
    /// Measure peak memory by running this program as `PROGRAM bench --probe-memory ...`
    /// (the `xwire` binary); `None`: not measured.
    pub memory_probe: Option<PathBuf>,
    /// Folder for the files harness processes read (a temporary folder when `None`).
    pub workdir: Option<PathBuf>,
}

impl Options {
    /// Quick or full defaults with the default seed, every operation, no memory probe.
    pub fn new(quick: bool) -> Options {
        Options {
            quick,
            seed: crate::workloads::DEFAULT_SEED,
            size: 0,
            ops: Vec::new(),
            cold: false,
            memory_probe: None,
            workdir: None,
        }
    }

    /// (minimum rounds, maximum rounds, time budget per workload and operation).
    pub fn rounds(&self) -> (usize, usize, Duration) {
        crate::timing::rounds(self.quick)
    }

    fn wants(&self, op: Op) -> bool {
        self.ops.is_empty() || self.ops.contains(&op)
    }
}

/// One measurement.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// Peer name.
    pub peer: String,
    /// Operation.
    pub op: Op,
    /// Outcome.
    pub cell: Cell,
}

/// One workload's results.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadResult {
    /// Workload name.
    pub name: String,
    /// Its group.
    pub group: Group,
    /// Its place in a family.
    pub series: Option<Series>,
    /// Its description.
    pub description: String,
    /// Its characteristics (as xwire reads it).
    #[serde(with = "StatsDef")]
    pub stats: Stats,
    /// Whether it has a schema (so `validate` can run).
    pub has_schema: bool,
    /// Whether it is of the XPath-pipeline set (so the pipelines run on it).
    pub pipelines: bool,
    /// Every (peer, operation) of the run, in peer then operation order.
    pub results: Vec<Measurement>,
}

/// How a report writes [`Stats`] (which, being the core crate's, does not know serde).
#[derive(Serialize)]
#[serde(remote = "Stats")]
struct StatsDef {
    size: u64,
    elements: u64,
    attributes: u64,
    max_depth: usize,
    distinct_names: usize,
    namespaces_declared: u64,
    text_bytes: u64,
    skipped_entities: u64,
}

impl WorkloadResult {
    /// The cell of `peer` doing `op`.
    pub fn cell(&self, peer: &str, op: Op) -> Option<&Cell> {
        self.results
            .iter()
            .find(|m| m.peer == peer && m.op == op)
            .map(|m| &m.cell)
    }

    /// The fastest median for `op` among the peers, with its peer.
    pub fn fastest(&self, op: Op) -> Option<(&str, f64)> {
        self.results
            .iter()
            .filter(|m| m.op == op)
            .filter_map(|m| m.cell.median().map(|t| (m.peer.as_str(), t)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Operations that have at least one measurement.
    pub fn measured_ops(&self) -> Vec<Op> {
        Op::ALL
            .iter()
            .copied()
            .filter(|&op| {
                self.results
                    .iter()
                    .any(|m| m.op == op && m.cell.median().is_some())
            })
            .collect()
    }
}

/// A peer as the report lists it.
#[derive(Clone, Debug, Serialize)]
pub struct PeerInfo {
    /// Name.
    pub name: String,
    /// Language.
    pub lang: Lang,
    /// What it checks.
    pub checks: String,
    /// Operations it can do.
    pub ops: Vec<Op>,
    /// Why it is missing, and how to get it, if it is.
    pub missing: Option<String>,
}

/// The machine the run was on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// Logical CPUs available.
    pub cpus: usize,
    /// CPU model, from /proc/cpuinfo when there is one.
    pub cpu: String,
    /// Operating system and architecture.
    pub os: String,
}

impl Machine {
    /// This machine.
    pub fn this() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }
}

/// Everything one run measured.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// xwire's version.
    pub version: String,
    /// Quick or full.
    pub quick: bool,
    /// Whether runs parsed from separate copies (cold caches).
    pub cold: bool,
    /// The command line that produced the report.
    pub command: String,
    /// Where it ran.
    pub machine: Machine,
    /// Peers of the run.
    pub peers: Vec<PeerInfo>,
    /// Operations of the run.
    pub ops: Vec<Op>,
    /// Per workload.
    pub workloads: Vec<WorkloadResult>,
    /// Workloads that could not be loaded: (name, why).
    pub skipped: Vec<(String, String)>,
    /// Throughput mode results, when it ran.
    pub throughput: Option<crate::throughput::ThroughputReport>,
    /// Which not-well-formed probes each in-process peer rejects.
    pub probes: Vec<crate::peers::probes::ProbeRow>,
    /// The probes' names, in the order of each row's `rejected`.
    pub probe_names: Vec<String>,
    /// The BXSA data-set experiment (binary XML sizes and times), when it ran
    /// ([`crate::bxsa`]; the caller runs it and sets this).
    pub bxsa: Option<crate::bxsa::BxsaReport>,
}

/// Progress callback: (what is being measured, steps done, steps in all).
pub type Progress<'a> = &'a mut dyn FnMut(&str, u64, u64);

/// A loaded workload.
struct Loaded<'w> {
    w: &'w Workload,
    doc: Vec<u8>,
    stats: Stats,
    reference: Option<u64>,
    file: Option<PathBuf>,
}

/// Which (peer, operation) pairs a run measures: every peer on the operations of `opts`, and
/// when `validate` is one of them, each validating peer's own non-validating parse
/// ([`crate::peers::VALIDATE_BESIDE`]) for the reports' validation tables, even when its
/// operation was not asked for (then only for that peer).
struct Plan {
    /// The operations asked for.
    wanted: Vec<Op>,
    /// `(peer, op)` measured beside validation only.
    beside: Vec<(&'static str, Op)>,
}

impl Plan {
    fn new(peers: &[Peer], opts: &Options) -> Plan {
        let wanted: Vec<Op> = Op::ALL.iter().copied().filter(|&o| opts.wants(o)).collect();
        let beside = if wanted.contains(&Op::Validate) {
            peers
                .iter()
                .filter(|p| p.can(Op::Validate))
                .filter_map(|p| crate::peers::validate_beside(p.name))
                .filter(|(q, op)| !wanted.contains(op) && peers.iter().any(|p| p.name == *q))
                .collect()
        } else {
            Vec::new()
        };
        Plan { wanted, beside }
    }

    /// The operations of the run, in report order.
    fn ops(&self) -> Vec<Op> {
        Op::ALL
            .iter()
            .copied()
            .filter(|o| self.wanted.contains(o) || self.beside.iter().any(|b| b.1 == *o))
            .collect()
    }

    /// Whether `op` is measured only beside validation (for some validating peers): then in
    /// validation's rounds.
    fn with_validation(&self, op: Op) -> bool {
        op != Op::Validate
            && !self.wanted.contains(&op)
            && self.wanted.contains(&Op::Validate)
            && self.beside.iter().any(|b| b.1 == op)
    }

    /// Whether `peer` runs `op` (if it can).
    fn runs(&self, peer: &str, op: Op) -> bool {
        self.wanted.contains(&op) || self.beside.contains(&(peer, op))
    }
}

/// Runs every workload against every peer, for every operation of `opts` (and, with
/// `validate`, the validating peers' non-validating parses: see `Plan`; a peer that runs an
/// operation only for that has no cell for it on the other peers).
pub fn run(
    workloads: &[Workload],
    peers: &[Peer],
    opts: &Options,
    progress: Progress<'_>,
) -> Report {
    let plan = Plan::new(peers, opts);
    let ops = plan.ops();
    let externals: Vec<&Peer> = peers
        .iter()
        .filter(|p| matches!(p.engine, Engine::External(_)))
        .collect();
    let steps = workloads.len() as u64 * 2 + externals.len() as u64;
    let mut step = 0u64;
    let mut report = Report {
        version: env!("CARGO_PKG_VERSION").to_string(),
        quick: opts.quick,
        cold: opts.cold,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        machine: Machine::this(),
        peers: peers
            .iter()
            .map(|p| PeerInfo {
                name: p.name.to_string(),
                lang: p.lang,
                checks: p.checks.to_string(),
                ops: p.ops(),
                missing: p.missing().map(str::to_string),
            })
            .collect(),
        ops: ops.clone(),
        workloads: Vec::new(),
        skipped: Vec::new(),
        throughput: None,
        probes: crate::peers::probes::run(peers),
        probe_names: crate::peers::probes::PROBES
            .iter()
            .map(|(n, _)| n.to_string())
            .collect(),
        bxsa: None,
    };
    let workdir = Workdir::new(opts.workdir.as_deref(), !externals.is_empty());

    // Load, characterise and (for harnesses and memory probes) write every document.
    let mut loaded = Vec::new();
    for w in workloads {
        progress(&format!("loading {}", w.name), step, steps);
        step += 1;
        let doc = match w.load(opts.size, opts.seed) {
            Ok(d) => d,
            Err(e) => {
                report.skipped.push((w.name.clone(), e));
                continue;
            }
        };
        let stats =
            match xwire::stats::collect(&mut xwire::Reader::from_slice(&doc), doc.len() as u64) {
                Ok(s) => s,
                Err(e) => {
                    report
                        .skipped
                        .push((w.name.clone(), format!("not well-formed: {e}")));
                    continue;
                }
            };
        let file = match workdir.write(&w.name, &doc, opts.memory_probe.is_some()) {
            Ok(f) => f,
            Err(e) => {
                report.skipped.push((w.name.clone(), e));
                continue;
            }
        };
        let reference = crate::peers::reference(&doc).ok();
        loaded.push(Loaded {
            w,
            doc,
            stats,
            reference,
            file,
        });
    }

    // In-process peers, workload by workload; the references of the operations whose
    // checksum is not the parse's, by (workload, operation), for the harness peers.
    let mut references: Vec<(usize, Op, u64)> = Vec::new();
    for (wi, l) in loaded.iter().enumerate() {
        progress(&format!("measuring {}", l.w.name), step, steps);
        step += 1;
        let mut results = Vec::new();
        let setup = Setup {
            schema: l.w.schema.as_deref(),
            document: Some(&l.doc),
        };
        let runs_of = |op: Op| -> (Op, Vec<&Peer>) {
            (op, peers.iter().filter(|p| plan.runs(p.name, op)).collect())
        };
        for &op in &ops {
            if plan.with_validation(op) {
                continue; // timed in validation's rounds, below
            }
            // Validation, and the parses measured only beside it, in the same rounds.
            let mut groups = vec![runs_of(op)];
            if op == Op::Validate {
                groups.extend(
                    ops.iter()
                        .filter(|&&o| plan.with_validation(o))
                        .map(|&o| runs_of(o)),
                );
            }
            let measured = measure_together(l, &groups, &setup, opts);
            for ((op, ps), (cells, reference)) in groups.into_iter().zip(measured) {
                if let (false, Some(r)) = (op.has_parse_checksum(), reference) {
                    references.push((wi, op, r));
                }
                for (p, cell) in ps.iter().zip(cells) {
                    results.push(Measurement {
                        peer: p.name.to_string(),
                        op,
                        cell,
                    });
                }
            }
        }
        // In report order of the operations.
        results.sort_by_key(|m| ops.iter().position(|&o| o == m.op));
        if let Some(exe) = &opts.memory_probe {
            // Each probe is a process of its own and is not timed: two at a time.
            let half = results.len().div_ceil(2);
            std::thread::scope(|s| {
                for chunk in results.chunks_mut(half.max(1)) {
                    s.spawn(|| {
                        for m in chunk {
                            probe_memory(exe, l, m, peers);
                        }
                    });
                }
            });
        }
        report.workloads.push(WorkloadResult {
            name: l.w.name.clone(),
            group: l.w.group,
            series: l.w.series.clone(),
            description: l.w.description.clone(),
            stats: l.stats.clone(),
            has_schema: l.w.schema.is_some(),
            pipelines: l.w.pipelines,
            results,
        });
    }

    // Harness peers, one harness call per peer for every workload and operation.
    for p in externals {
        progress(&format!("measuring {} (harness)", p.name), step, steps);
        step += 1;
        let ops: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|&op| plan.runs(p.name, op))
            .collect();
        measure_external(p, &loaded, &ops, &references, opts, &mut report.workloads);
    }
    progress("done", steps, steps);
    report
}

/// Files the harness processes and memory probes read.
struct Workdir {
    dir: Option<PathBuf>,
    temporary: bool,
    needed: bool,
}

impl Workdir {
    fn new(dir: Option<&Path>, needed: bool) -> Workdir {
        match dir {
            Some(d) => Workdir {
                dir: Some(d.to_path_buf()),
                temporary: false,
                needed,
            },
            None => Workdir {
                dir: Some(std::env::temp_dir().join(format!("xwire-bench-{}", std::process::id()))),
                temporary: true,
                needed,
            },
        }
    }

    /// Writes `doc` when a harness or probe will read it.
    fn write(&self, name: &str, doc: &[u8], probe: bool) -> Result<Option<PathBuf>, String> {
        if !self.needed && !probe {
            return Ok(None);
        }
        let dir = self.dir.as_ref().expect("set");
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(format!("{name}.xml"));
        std::fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some(path))
    }
}

impl Drop for Workdir {
    fn drop(&mut self) {
        if let (true, Some(d)) = (self.temporary, &self.dir) {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// How many copies of `doc` a cold-cache run cycles through: 64 MB in all, at least 2,
/// at most 256.
fn copies(doc_len: usize, cold: bool) -> usize {
    if !cold {
        return 1;
    }
    (64usize << 20).div_ceil(doc_len.max(1)).clamp(2, 256)
}

/// Whether `op` runs on the workload at all: `validate` needs a schema, the pipelines a
/// workload of the XPath-pipeline set.
fn runs_on(op: Op, w: &Workload) -> bool {
    (!op.needs_schema() || w.schema.is_some()) && (!op.is_pipeline() || w.pipelines)
}

/// The checksum most of `sums` agree on (the first of them on a tie), if any: the reference of
/// the pipelines, which xwire cannot do yet. Peers are in report order, xwire first.
fn consensus(sums: &[Option<u64>]) -> Option<u64> {
    let mut best: Option<(u64, usize)> = None;
    for s in sums.iter().flatten() {
        let n = sums.iter().filter(|t| **t == Some(*s)).count();
        if best.map_or(true, |(_, m)| n > m) {
            best = Some((*s, n));
        }
    }
    best.map(|(s, _)| s)
}

/// Measures operations on a loaded workload, each with its in-process peers, all timed in the
/// same interleaved rounds (a ratio between two of their cells, a peer validating and the
/// same peer parsing, then compares runs at the same moments of a noisy machine). For each
/// operation, the cells in peer order and the checksum they were compared with (xwire's
/// parse, or for a pipeline the consensus of the peers that ran it), for the harness peers to
/// be compared with too.
fn measure_together(
    l: &Loaded<'_>,
    groups: &[(Op, Vec<&Peer>)],
    setup: &Setup<'_>,
    opts: &Options,
) -> Vec<(Vec<Cell>, Option<u64>)> {
    let mut runners: Vec<Option<Runner>> = Vec::new();
    let mut out = Vec::new();
    for (op, peers) in groups {
        let (cells, reference) = prepare_cells(l, *op, setup, peers, &mut runners);
        out.push((cells, reference));
    }
    let live: Vec<usize> = (0..runners.len())
        .filter(|&i| runners[i].is_some())
        .collect();
    if live.is_empty() {
        return out;
    }
    let times = if l.w.group == Group::Overhead {
        time_batches(&l.doc, &mut runners, &live, opts.rounds().0)
    } else {
        time_rounds(&l.doc, &mut runners, &live, opts)
    };
    let mut cells: Vec<&mut Cell> = out.iter_mut().flat_map(|(c, _)| c.iter_mut()).collect();
    for (&i, mut t) in live.iter().zip(times) {
        if let Cell::Measured {
            median_s,
            min_s,
            runs,
            ..
        } = &mut *cells[i]
        {
            *runs = t.len();
            *median_s = median(&mut t);
            *min_s = t[0];
        }
    }
    out
}

/// Readies `op` with each of `peers`: its cell (to be timed when `Measured`) and its runner,
/// pushed on `runners` (`None` when it does not run), after a first run that checks it
/// accepts the document and gives its checksum; and the checksum the cells were compared with.
fn prepare_cells(
    l: &Loaded<'_>,
    op: Op,
    setup: &Setup<'_>,
    peers: &[&Peer],
    runners: &mut Vec<Option<Runner>>,
) -> (Vec<Cell>, Option<u64>) {
    let mut cells: Vec<Cell> = Vec::new();
    let mut sums: Vec<Option<u64>> = Vec::new();
    for p in peers {
        let mut sum = None;
        let (cell, runner) = match &p.engine {
            Engine::Missing { .. } => (Cell::Missing, None),
            // Filled in by `measure_external`.
            Engine::External(h) if h.ops.contains(&op) && runs_on(op, l.w) => (Cell::Missing, None),
            Engine::External(_) => (Cell::Unsupported, None),
            Engine::InProcess(_) if !runs_on(op, l.w) => (Cell::Unsupported, None),
            Engine::InProcess(_) => match p.prepare(op, setup) {
                None => (Cell::Unsupported, None),
                Some(Err(error)) => (Cell::Failed { error }, None),
                // The warm-up run: also checks that the peer accepts the document.
                Some(Ok(mut r)) => match r(&l.doc) {
                    Ok(s) => {
                        sum = Some(s);
                        (
                            Cell::Measured {
                                median_s: 0.0,
                                min_s: 0.0,
                                runs: 0,
                                checksum_differs: false,
                                peak_bytes: None,
                            },
                            Some(r),
                        )
                    }
                    Err(error) => (Cell::Failed { error }, None),
                },
            },
        };
        cells.push(cell);
        runners.push(runner);
        sums.push(sum);
    }
    let reference = if op.has_parse_checksum() {
        l.reference
    } else {
        consensus(&sums)
    };
    for (cell, sum) in cells.iter_mut().zip(&sums) {
        if let (
            Cell::Measured {
                checksum_differs, ..
            },
            Some(s),
        ) = (cell, sum)
        {
            *checksum_differs = reference.is_some_and(|x| x != *s);
        }
    }
    (cells, reference)
}

/// Interleaved rounds of one timed run per live peer.
fn time_rounds(
    doc: &[u8],
    runners: &mut [Option<Runner>],
    live: &[usize],
    opts: &Options,
) -> Vec<Vec<f64>> {
    let docs: Vec<Vec<u8>> = (1..copies(doc.len(), opts.cold))
        .map(|_| doc.to_vec())
        .collect();
    time_interleaved(doc, &docs, runners, live, opts.rounds())
}

fn measure_external(
    p: &Peer,
    loaded: &[Loaded<'_>],
    ops: &[Op],
    references: &[(usize, Op, u64)],
    opts: &Options,
    results: &mut [WorkloadResult],
) {
    let Engine::External(h) = &p.engine else {
        return;
    };
    let (min_runs, max_runs, budget) = opts.rounds();
    // Quick: one harness call must stay within seconds, so the JIT gets a longer warm-up on
    // the first task of each operation only (later ones run the same, already compiled code),
    // tasks have a small budget, and Python peers (tens of MB/s) skip documents over 1 MB.
    let (warm_first, warm, budget) = if opts.quick {
        (0.5, 0.03, Duration::from_millis(100))
    } else {
        (2.0, 0.5, budget)
    };
    let mut warmed: Vec<Op> = Vec::new();
    let mut tasks = Vec::new();
    let mut slots = Vec::new();
    for (wi, l) in loaded.iter().enumerate() {
        for &op in ops.iter().filter(|o| h.ops.contains(o)) {
            let Some(file) = &l.file else { continue };
            if !runs_on(op, l.w) {
                set(&mut results[wi], p.name, op, Cell::Unsupported);
                continue;
            }
            if opts.quick && p.lang == Lang::Python && l.doc.len() > 1 << 20 {
                let reason = "documents over 1 MB are left to the full run for Python peers".into();
                set(&mut results[wi], p.name, op, Cell::Skipped { reason });
                continue;
            }
            let overhead = l.w.group == Group::Overhead;
            let first = !warmed.contains(&op);
            warmed.push(op);
            tasks.push(Task {
                id: tasks.len(),
                op,
                file: file.clone(),
                schema: l.w.schema.clone(),
                warmup_s: if first { warm_first } else { warm },
                min_runs: if overhead { 1000 } else { min_runs.min(3) },
                max_runs: if overhead { 100_000 } else { max_runs },
                budget_s: budget.as_secs_f64(),
                copies: copies(l.doc.len(), opts.cold),
                output: None,
            });
            let reference = if op.has_parse_checksum() {
                l.reference
            } else {
                references
                    .iter()
                    .find(|r| r.0 == wi && r.1 == op)
                    .map(|r| r.2)
            };
            slots.push((wi, op, reference));
        }
    }
    if tasks.is_empty() {
        return;
    }
    match h.measure(tasks) {
        Ok(out) => {
            for (r, (wi, op, reference)) in out.into_iter().zip(slots) {
                let cell = match (r.error, r.median_s, r.min_s) {
                    // Nothing prepared for this workload, as an in-process `NOT_HERE`.
                    (None, _, _) if r.unsupported.is_some() => Cell::Unsupported,
                    (Some(error), _, _) => Cell::Failed { error },
                    (None, Some(median_s), Some(min_s)) => Cell::Measured {
                        median_s,
                        min_s,
                        runs: r.runs,
                        checksum_differs: reference.is_some() && r.checksum != reference,
                        peak_bytes: r.peak_bytes,
                    },
                    _ => Cell::Failed {
                        error: "the harness returned no timing".into(),
                    },
                };
                set(&mut results[wi], p.name, op, cell);
            }
        }
        Err(error) => {
            for (wi, op, _) in slots {
                set(
                    &mut results[wi],
                    p.name,
                    op,
                    Cell::Failed {
                        error: error.clone(),
                    },
                );
            }
        }
    }
}

fn set(w: &mut WorkloadResult, peer: &str, op: Op, cell: Cell) {
    if let Some(m) = w.results.iter_mut().find(|m| m.peer == peer && m.op == op) {
        m.cell = cell;
    }
}

/// Runs the memory probe for a measured in-process cell and records its peak.
fn probe_memory(exe: &Path, l: &Loaded<'_>, m: &mut Measurement, peers: &[Peer]) {
    let Cell::Measured { peak_bytes, .. } = &mut m.cell else {
        return;
    };
    let Some(file) = &l.file else { return };
    if !peers
        .iter()
        .any(|p| p.name == m.peer && matches!(p.engine, Engine::InProcess(_)))
    {
        return;
    }
    *peak_bytes = crate::memory::probe(exe, &m.peer, m.op, file, l.w.schema.as_deref()).ok();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::PipelineExpr;

    #[test]
    fn cold_runs_cycle_through_64_mb_of_copies() {
        assert_eq!(copies(1 << 20, false), 1);
        assert_eq!(copies(1 << 20, true), 64);
        assert_eq!(copies(100 << 20, true), 2);
        assert_eq!(copies(10, true), 256);
    }

    #[test]
    fn a_tiny_run_measures_every_available_in_process_peer() {
        let peers: Vec<Peer> = crate::peers::all()
            .into_iter()
            .filter(|p| !matches!(p.engine, Engine::External(_)))
            .collect();
        let mut opts = Options::new(true);
        opts.size = 20_000;
        opts.cold = true;
        let w = crate::workloads::named("mesh").unwrap();
        let report = run(std::slice::from_ref(&w), &peers, &opts, &mut |_, _, _| {});
        assert_eq!(report.workloads.len(), 1);
        let wr = &report.workloads[0];
        assert_eq!(wr.results.len(), peers.len() * Op::ALL.len());
        for p in &peers {
            for &op in Op::ALL {
                let cell = wr.cell(p.name, op).expect("every pair has a cell");
                match cell {
                    Cell::Measured {
                        runs,
                        median_s,
                        checksum_differs,
                        ..
                    } => {
                        assert!(p.can(op), "{} {op} measured but not offered", p.name);
                        assert!(*runs >= 5 && *median_s > 0.0, "{} {op}", p.name);
                        assert!(
                            !checksum_differs,
                            "{} {op} saw a different document",
                            p.name
                        );
                    }
                    Cell::Missing => assert!(!p.available()),
                    Cell::Skipped { reason } => panic!("{} {op} skipped: {reason}", p.name),
                    Cell::Unsupported => assert!(
                        !p.can(op) || !runs_on(op, &w),
                        "{} {op} offered but not run",
                        p.name
                    ),
                    Cell::Failed { error } => panic!("{} {op} failed: {error}", p.name),
                }
            }
        }
        assert!(wr.cell("xwire", Op::Parse).unwrap().median().is_some());
    }

    /// A harness answering `unsupported` for a task leaves its cell "cannot", not failed.
    #[test]
    fn a_harness_peer_without_a_workload_is_unsupported_there() {
        let answer = r#"{"id": 0, "median_s": null, "min_s": null, "runs": 0, "checksum": null, "peak_bytes": null, "error": null, "unsupported": "no types for this schema"}"#;
        let peer = Peer {
            name: "fake-binder",
            lang: Lang::Python,
            checks: "",
            engine: Engine::External(crate::peers::external::Harness {
                command: vec![
                    "sh".into(),
                    "-c".into(),
                    format!("cat >/dev/null; echo '{answer}'"),
                ],
                peer: "fake-binder".into(),
                ops: vec![Op::Bind],
                version: String::new(),
            }),
        };
        let mut opts = Options::new(true);
        opts.ops = vec![Op::Bind];
        let w = crate::workloads::named("po-1k").unwrap();
        let report = run(&[w], &[peer], &opts, &mut |_, _, _| {});
        let wr = &report.workloads[0];
        assert_eq!(wr.cell("fake-binder", Op::Bind), Some(&Cell::Unsupported));
    }

    #[test]
    fn validate_also_runs_each_validating_peers_own_parse() {
        let peers = crate::peers::select(Some("xwire,libxml2-sax,libxml2-xsd,quick-xml")).unwrap();
        if !peers.iter().all(Peer::available) {
            eprintln!("note: libxml2 not built; not checked");
            return;
        }
        let mut opts = Options::new(true);
        opts.size = 1_000;
        opts.ops = vec![Op::Validate];
        let w = crate::workloads::named("po-1k").unwrap();
        let report = run(&[w], &peers, &opts, &mut |_, _, _| {});
        // xwire validates too, so its own parse runs beside it.
        assert_eq!(report.ops, [Op::Parse, Op::Push, Op::Validate]);
        let wr = &report.workloads[0];
        let measured = |p: &str, op| match wr.cell(p, op) {
            Some(Cell::Measured {
                checksum_differs, ..
            }) => !checksum_differs,
            c => panic!("{p} {op}: {c:?}"),
        };
        assert!(measured("libxml2-xsd", Op::Validate));
        assert!(measured("libxml2-sax", Op::Push));
        assert!(measured("xwire", Op::Validate));
        assert!(measured("xwire", Op::Parse));
        // Only the pairs' parses run: not xwire's push, nor the other peers'.
        assert_eq!(wr.cell("xwire", Op::Push), None);
        assert_eq!(wr.cell("quick-xml", Op::Push), None);
        assert_eq!(wr.cell("quick-xml", Op::Parse), None);
        assert_eq!(wr.cell("quick-xml", Op::Validate), Some(&Cell::Unsupported));
    }

    #[test]
    fn parses_beside_validation_are_timed_in_its_rounds() {
        let peers = crate::peers::select(Some("xwire,libxml2-sax,libxml2-xsd,quick-xml")).unwrap();
        let plan = |ops: Vec<Op>| {
            let mut opts = Options::new(true);
            opts.ops = ops;
            Plan::new(&peers, &opts)
        };
        // Asked for validation alone: the parses beside it go in its rounds.
        let p = plan(vec![Op::Validate]);
        assert!(p.with_validation(Op::Parse));
        assert!(!p.with_validation(Op::Validate));
        assert!(p.runs("xwire", Op::Parse) && !p.runs("quick-xml", Op::Parse));
        // Parsing asked for too: it has its own rounds, with every peer.
        let p = plan(vec![Op::Parse, Op::Validate]);
        assert!(!p.with_validation(Op::Parse));
        assert!(p.runs("quick-xml", Op::Parse));
        // No validation: nothing beside it.
        let p = plan(vec![Op::Parse]);
        assert!(!p.with_validation(Op::Parse) && !p.with_validation(Op::Push));
    }

    #[test]
    fn consensus_is_the_most_common_checksum() {
        assert_eq!(consensus(&[]), None);
        assert_eq!(consensus(&[None, Some(3)]), Some(3));
        assert_eq!(consensus(&[Some(1), Some(2), Some(2)]), Some(2));
        assert_eq!(consensus(&[Some(1), None, Some(2)]), Some(1));
    }

    #[test]
    fn pipelines_run_on_the_pipeline_set_with_their_own_reference() {
        let peers: Vec<Peer> = crate::peers::in_process()
            .into_iter()
            .filter(|p| p.available() && p.can(Op::Pipeline(PipelineExpr::ItemComments)))
            .collect();
        let mut opts = Options::new(true);
        opts.size = 8_000;
        opts.ops = Op::pipelines().collect();
        let ws = [
            crate::workloads::named("latency-small").unwrap(),
            crate::workloads::named("mesh").unwrap(),
        ];
        let report = run(&ws, &peers, &opts, &mut |_, _, _| {});
        let (po, mesh) = (&report.workloads[0], &report.workloads[1]);
        assert!(po.pipelines && !mesh.pipelines);
        for p in &peers {
            for op in Op::pipelines() {
                match po.cell(p.name, op) {
                    Some(Cell::Measured {
                        checksum_differs, ..
                    }) => assert!(!checksum_differs, "{} {op}", p.name),
                    c => panic!("{} {op}: {c:?}", p.name),
                }
                assert_eq!(mesh.cell(p.name, op), Some(&Cell::Unsupported));
            }
        }
    }

    #[test]
    fn the_overhead_workload_is_timed_per_call() {
        let peers: Vec<Peer> = crate::peers::select(Some("xwire")).unwrap();
        let mut opts = Options::new(true);
        opts.ops = vec![Op::Parse];
        let w = crate::workloads::named("overhead").unwrap();
        let report = run(&[w], &peers, &opts, &mut |_, _, _| {});
        let t = report.workloads[0]
            .cell("xwire", Op::Parse)
            .unwrap()
            .median()
            .unwrap();
        // One call of a one-element parse takes well under a millisecond: a batch time
        // reported unnormalised would be far above that.
        assert!(t > 0.0 && t < 1e-3, "{t}");
    }
}
