//! The BXSA data-set experiment (issue 6): the size table of the BXSA paper for 1,000
//! (int32 index, float64 value) pairs, and the time to build, encode, decode and consume such a
//! data set from 0 to 5.5 million pairs, for xwire's binary XML against text XML (xwire's own
//! writer and reader), gzip'd text and EXI, in one run.
//!
//! # The data and the model
//!
//! `n` pairs from [`crate::workloads::pair_data`] (the numbers of the `numeric-*` workloads):
//! increasing `i32` indices and `f64` values of mixed magnitudes, full precision. The model is
//! a [`binary::TypedDocument`](xwire::binary::TypedDocument):
//! `<num:model xmlns:num="urn:xwire:bench:numeric">` holding `<num:indices>`, an ARRAY of
//! `i32`, and `<num:values>`, an ARRAY of `f64` ([`model`]).
//!
//! # Encodings
//!
//! - [`Encoding::Native`]: the raw `12 n` bytes, the size reference; its phases are
//!   [`Phase::Memcpy`], a copy of those bytes into a buffer allocated before timing, and
//!   [`Phase::CopyNew`], a copy into a buffer each run allocates (and frees): what a decode
//!   into a new model would pay for fresh memory, page faults included.
//! - [`Encoding::Xwire`]: the model written by [`BinaryWriter`](xwire::binary::BinaryWriter)
//!   (machine byte order), read back by [`TypedDocument::read_into`](xwire::binary::TypedDocument::read_into);
//!   [`Phase::InPlace`] reads it with `xwire::Reader` and sums the arrays through
//!   `Reader::array`, viewed in the input without a copy ([`decode_in_place`]).
//! - [`Encoding::Text`]: the model written by the text [`Writer`](xwire::writer::Writer)
//!   (arrays as white-space separated lists); decoding parses it with `xwire::Reader` and
//!   turns the lists back into arrays with xwire's number parsing
//!   ([`Array::parse`](xwire::binary::Array::parse)): [`decode_text`].
//! - [`Encoding::Gzip`]: the text, written through flate2's gzip encoder at its default level;
//!   decoding gunzips and decodes the text.
//! - [`Encoding::Exi`]: EXIficient with its default (schema-less) options on the text
//!   document, in the Java harness, which times itself after warm-up and reports the EXI
//!   size. Its encode includes the Xerces SAX parse of the text and its decode ends at SAX
//!   events (counted, not turned into arrays): neither builds nor reads the typed model.
//!
//! # Phases
//!
//! [`Phase::Build`] (raw arrays to model) and [`Phase::Consume`] (walk the model summing the
//! indices and the values) belong to the model ([`Encoding::Model`]), shared by xwire, text
//! and gzip. Encode is model to bytes, into one output buffer reused from run to run (as a
//! service answering request after request would; the writers' own scratch is theirs), and
//! decode bytes to model, into one model reused from run to run likewise
//! ([`xwire::binary::TypedDocument::read_into`]: arrays are copied into the memory of the previous
//! run's). Every in-process phase of one
//! size is timed by the helpers of [`crate::timing`]: interleaved rounds, medians and minima, or for the
//! sizes up to 1,000 pairs batches of calls (the timer's resolution). A size whose first round
//! takes more than the budget's share of one round gets 3 rounds. Before timing, each decode's
//! result is checked to be the data, bit for bit; each run's sums are checked against the
//! data's. Speeds are MB/s of the native `12 n` bytes, whatever the encoding's size.
//!
//! # Selection
//!
//! `xwire bench` runs it when the numeric workloads and `encode`/`decode` are among those
//! asked for (by default); `--peers` picks the encodings by name: `xwire`, `text`, `gzip`,
//! `exificient` ([`Encoding::from_peer_name`]); the model and native rows always run.

mod codecs;

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use xwire::binary::TypedDocument;

pub use codecs::*;
use codecs::{fresh, Decode, Encode};

use crate::peers::external::{Harness, Task, TaskResult};
use crate::peers::{Engine, Op, Outcome, Peer, Runner};
use crate::timing::{self, Cell};

/// The namespace of the model's elements.
pub const NS: &str = "urn:xwire:bench:numeric";

/// Bytes of one pair in native form: a 4-byte index and an 8-byte value.
pub const PAIR_BYTES: usize = 12;

/// The sizes of `--quick`, in pairs (the full run takes
/// [`NUMERIC_PAIRS`](crate::workloads::NUMERIC_PAIRS)).
pub const QUICK_PAIRS: &[usize] = &[0, 1_000, 100_000];

/// The size of the paper's table, in pairs (native 12,000 bytes).
pub const TABLE_PAIRS: usize = 1_000;

/// The size the binary-against-text speed-up goal is read at, in pairs.
pub const SPEEDUP_PAIRS: usize = 100_000;

/// The BXSA paper's overheads over native at 1,000 pairs, in percent: quoted, not measured.
pub const PAPER: &[(&str, f64)] = &[("BXSA", 1.3), ("netCDF", 2.2), ("text XML", 99.0)];

/// Goal: xwire binary's size overhead at [`TABLE_PAIRS`], at most this many percent.
pub const OVERHEAD_GOAL_PCT: f64 = 1.5;

/// Goal: decoding the arrays at least at this fraction of memcpy's throughput.
pub const MEMCPY_GOAL: f64 = 0.5;

/// Goal: binary at least this many times faster than text at [`SPEEDUP_PAIRS`], both ways.
pub const SPEEDUP_GOAL: f64 = 20.0;

/// What is measured: an encoding of the data set, or the model itself.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// The typed model (`binary::TypedDocument`): build and consume, shared by xwire, text, gzip.
    Model,
    /// The raw arrays, `12 n` bytes: the size reference, and memcpy.
    Native,
    /// xwire's binary XML.
    Xwire,
    /// Text XML through xwire's writer and reader.
    Text,
    /// The text XML, gzip'd (flate2, default level).
    Gzip,
    /// EXI through EXIficient (Java harness), default options.
    Exi,
}

impl Encoding {
    /// Every one, in report order.
    pub const ALL: [Encoding; 6] = [
        Encoding::Model,
        Encoding::Native,
        Encoding::Xwire,
        Encoding::Text,
        Encoding::Gzip,
        Encoding::Exi,
    ];

    /// The encodings `--peers` chooses among, in report order.
    pub const SELECTABLE: [Encoding; 4] = [
        Encoding::Xwire,
        Encoding::Text,
        Encoding::Gzip,
        Encoding::Exi,
    ];

    /// Its name on the command line (`--peers`) and in the reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Model => "model",
            Encoding::Native => "native",
            Encoding::Xwire => "xwire",
            Encoding::Text => "text",
            Encoding::Gzip => "gzip",
            Encoding::Exi => "exificient",
        }
    }

    /// What it is, for headings.
    pub fn title(self) -> &'static str {
        match self {
            Encoding::Model => "model (binary::TypedDocument)",
            Encoding::Native => "native arrays",
            Encoding::Xwire => "xwire binary",
            Encoding::Text => "text XML",
            Encoding::Gzip => "gzip'd text XML",
            Encoding::Exi => "EXI (EXIficient)",
        }
    }

    /// The encoding a `--peers` name selects: `xwire`, `text`, `gzip`, `exificient`.
    pub fn from_peer_name(name: &str) -> Option<Encoding> {
        Encoding::SELECTABLE.into_iter().find(|e| e.name() == name)
    }
}

/// A timed step.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Raw arrays to model.
    Build,
    /// Model to bytes (EXI: text document to EXI).
    Encode,
    /// Bytes to model (EXI: EXI to SAX events, counted).
    Decode,
    /// Walk the model summing indices and values.
    Consume,
    /// Read the binary input and sum the arrays viewed in place: decode and consume, no model.
    InPlace,
    /// Copy the native bytes into a preallocated buffer.
    Memcpy,
    /// Copy the native bytes into a buffer allocated by the run (and freed): what fresh
    /// memory costs, what a decode into a new model would add.
    CopyNew,
}

impl Phase {
    /// Every one, in report order.
    pub const ALL: [Phase; 7] = [
        Phase::Build,
        Phase::Encode,
        Phase::Decode,
        Phase::Consume,
        Phase::InPlace,
        Phase::Memcpy,
        Phase::CopyNew,
    ];

    /// A short name for table headings (`in place`).
    pub fn short(self) -> &'static str {
        match self {
            Phase::InPlace => "in place",
            Phase::CopyNew => "copy to new",
            p => p.name(),
        }
    }

    /// Its name in the reports.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Build => "build",
            Phase::Encode => "encode",
            Phase::Decode => "decode",
            Phase::Consume => "consume",
            Phase::InPlace => "decode+consume in place",
            Phase::Memcpy => "memcpy",
            Phase::CopyNew => "copy into new memory",
        }
    }
}

/// How the experiment runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Quick: the sizes of [`QUICK_PAIRS`] and the quick [`timing::rounds`].
    pub quick: bool,
    /// Seed of the data.
    pub seed: u64,
    /// Sizes, in pairs.
    pub pairs: Vec<usize>,
    /// The encodings of [`Encoding::SELECTABLE`] to run (the model and native always run).
    pub encodings: Vec<Encoding>,
    /// The longest one harness call (EXI) may take; past it the harness is killed and that
    /// size and the larger ones are reported as skipped.
    pub exi_limit: Duration,
    /// Folder for the text documents the harness reads (a temporary folder when `None`).
    pub workdir: Option<PathBuf>,
}

impl Options {
    /// Quick or full defaults: every encoding, the default seed.
    pub fn new(quick: bool) -> Options {
        Options {
            quick,
            seed: crate::workloads::DEFAULT_SEED,
            pairs: if quick {
                QUICK_PAIRS.to_vec()
            } else {
                crate::workloads::NUMERIC_PAIRS.to_vec()
            },
            encodings: Encoding::SELECTABLE.to_vec(),
            exi_limit: Duration::from_secs(if quick { 60 } else { 900 }),
            workdir: None,
        }
    }

    fn runs(&self, e: Encoding) -> bool {
        matches!(e, Encoding::Model | Encoding::Native) || self.encodings.contains(&e)
    }
}

/// The encoded size of one encoding at one size.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SizeRow {
    /// Pairs.
    pub pairs: usize,
    /// The encoding.
    pub encoding: Encoding,
    /// Bytes.
    pub bytes: u64,
}

impl SizeRow {
    /// Percent over the native size (`None` for 0 pairs).
    pub fn overhead_pct(&self) -> Option<f64> {
        overhead_pct(self.bytes, self.pairs)
    }
}

/// Percent of `bytes` over the native size of `pairs` (`None` for 0 pairs).
pub fn overhead_pct(bytes: u64, pairs: usize) -> Option<f64> {
    let native = (pairs * PAIR_BYTES) as f64;
    (pairs > 0).then(|| (bytes as f64 - native) / native * 100.0)
}

/// A figure quoted from the BXSA paper, not measured: overhead over native at 1,000 pairs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PaperRow {
    /// The format, as the paper names it.
    pub format: String,
    /// Percent over native.
    pub overhead_pct: f64,
}

/// One timing.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TimeRow {
    /// Pairs.
    pub pairs: usize,
    /// The encoding (or the model, or native).
    pub encoding: Encoding,
    /// The phase.
    pub phase: Phase,
    /// The outcome; `checksum_differs` means the run's sums were not the data's.
    pub cell: Cell,
}

/// One of the issue's goals, as measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Goal {
    /// What is measured.
    pub name: String,
    /// The measured value, when it could be measured.
    pub measured: Option<f64>,
    /// The goal.
    pub target: f64,
    /// Whether the goal is a minimum (else a maximum).
    pub at_least: bool,
    /// The unit of both (`%`, `x`).
    pub unit: String,
    /// Whether it is met, when measured.
    pub met: Option<bool>,
    /// How it was measured, or why it was not.
    pub detail: String,
}

impl Goal {
    fn new(name: &str, measured: Option<f64>, target: f64, at_least: bool, unit: &str) -> Goal {
        Goal {
            name: name.to_string(),
            measured,
            target,
            at_least,
            unit: unit.to_string(),
            met: measured.map(|m| if at_least { m >= target } else { m <= target }),
            detail: String::new(),
        }
    }

    /// The measured value and the goal as text: `1.07% (goal <= 1.5%): met`.
    pub fn line(&self) -> String {
        let v = |x: f64| {
            if self.unit == "%" {
                format!("{x:.2}%")
            } else {
                format!("{x:.2}{}", self.unit)
            }
        };
        let goal = format!(
            "goal {} {}",
            if self.at_least { ">=" } else { "<=" },
            v(self.target)
        );
        match (self.measured, self.met) {
            (Some(m), Some(met)) => {
                format!("{} ({goal}): {}", v(m), if met { "met" } else { "NOT MET" })
            }
            _ => format!("not measured ({goal})"),
        }
    }
}

/// Everything the experiment measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BxsaReport {
    /// Seed of the data.
    pub seed: u64,
    /// The sizes run, in pairs.
    pub pairs: Vec<usize>,
    /// The encodings run (the model and native included).
    pub encodings: Vec<Encoding>,
    /// Encoded sizes per size and encoding.
    pub sizes: Vec<SizeRow>,
    /// The paper's figures, quoted.
    pub paper: Vec<PaperRow>,
    /// Timings per size, encoding and phase.
    pub times: Vec<TimeRow>,
    /// The issue's goals.
    pub goals: Vec<Goal>,
    /// What did not run and why, and anything else worth knowing.
    pub notes: Vec<String>,
}

impl BxsaReport {
    /// Bytes of `encoding` at `pairs`.
    pub fn size(&self, pairs: usize, encoding: Encoding) -> Option<u64> {
        self.sizes
            .iter()
            .find(|s| s.pairs == pairs && s.encoding == encoding)
            .map(|s| s.bytes)
    }

    /// The cell of (`pairs`, `encoding`, `phase`).
    pub fn cell(&self, pairs: usize, encoding: Encoding, phase: Phase) -> Option<&Cell> {
        self.times
            .iter()
            .find(|t| t.pairs == pairs && t.encoding == encoding && t.phase == phase)
            .map(|t| &t.cell)
    }

    /// The median seconds of (`pairs`, `encoding`, `phase`), when measured with the right sums.
    pub fn median(&self, pairs: usize, encoding: Encoding, phase: Phase) -> Option<f64> {
        match self.cell(pairs, encoding, phase)? {
            Cell::Measured {
                median_s,
                checksum_differs: false,
                ..
            } => Some(*median_s),
            _ => None,
        }
    }

    /// The size table at [`TABLE_PAIRS`]: (label, bytes, overhead %, quoted from the paper),
    /// measured rows first (in encoding order), then the paper's.
    pub fn size_table(&self) -> Vec<(String, Option<u64>, Option<f64>, bool)> {
        let mut rows: Vec<(String, Option<u64>, Option<f64>, bool)> = self
            .encodings
            .iter()
            .filter(|&&e| e != Encoding::Model)
            .map(|&e| {
                let b = self.size(TABLE_PAIRS, e);
                (
                    e.title().to_string(),
                    b,
                    b.and_then(|b| overhead_pct(b, TABLE_PAIRS)),
                    false,
                )
            })
            .collect();
        rows.extend(self.paper.iter().map(|p| {
            (
                format!("{} (paper)", p.format),
                None,
                Some(p.overhead_pct),
                true,
            )
        }));
        rows
    }
}

// ----- running ----------------------------------------------------------------------------

/// The data of one size and its encodings, shared by the runners.
struct Prepared {
    indices: Vec<i32>,
    values: Vec<f64>,
    doc: TypedDocument,
    native: Vec<u8>,
    binary: Vec<u8>,
    text: Vec<u8>,
    gzip: Vec<u8>,
    /// The checksum of the data's sums.
    sums: u64,
}

/// One timed (encoding, phase) of a size.
struct Slot {
    encoding: Encoding,
    phase: Phase,
    runner: Runner,
    /// The checksum each run must return, when it is known.
    expect: Option<u64>,
}

/// Runs the experiment. `peers` gives the EXI harness (the peer `exificient`), when it is
/// among them and available; `progress` is told what is being measured.
pub fn run(opts: &Options, peers: &[Peer], progress: &mut dyn FnMut(&str)) -> BxsaReport {
    let encodings: Vec<Encoding> = Encoding::ALL
        .into_iter()
        .filter(|&e| opts.runs(e))
        .collect();
    let mut r = BxsaReport {
        seed: opts.seed,
        pairs: opts.pairs.clone(),
        encodings: encodings.clone(),
        sizes: Vec::new(),
        paper: PAPER
            .iter()
            .map(|&(f, p)| PaperRow {
                format: f.to_string(),
                overhead_pct: p,
            })
            .collect(),
        times: Vec::new(),
        goals: Vec::new(),
        notes: Vec::new(),
    };
    let exi = if opts.runs(Encoding::Exi) {
        match peers.iter().find(|p| p.name == "exificient") {
            Some(Peer {
                engine: Engine::External(h),
                ..
            }) if h.ops.contains(&Op::Encode) && h.ops.contains(&Op::Decode) => Some(h),
            Some(p) => {
                r.notes.push(format!(
                    "EXI not run: exificient is missing ({})",
                    p.missing().unwrap_or("it cannot encode and decode here")
                ));
                None
            }
            None => {
                r.notes
                    .push("EXI not run: the peer exificient was not selected".to_string());
                None
            }
        }
    } else {
        None
    };
    // A folder of its own per run (runs may overlap in one process: tests).
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let workdir = opts.workdir.clone().unwrap_or_else(|| {
        let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::env::temp_dir().join(format!("xwire-bxsa-{}-{k}", std::process::id()))
    });
    let mut exi_files: Vec<(usize, PathBuf, u64)> = Vec::new();

    for &n in &opts.pairs {
        progress(&format!("BXSA data set: {n} pairs"));
        let p = match prepare(n, opts) {
            Ok(p) => p,
            Err(e) => {
                r.notes
                    .push(format!("{n} pairs: could not be prepared: {e}"));
                continue;
            }
        };
        r.sizes.push(SizeRow {
            pairs: n,
            encoding: Encoding::Native,
            bytes: p.native.len() as u64,
        });
        for (e, bytes) in [
            (Encoding::Xwire, &p.binary),
            (Encoding::Text, &p.text),
            (Encoding::Gzip, &p.gzip),
        ] {
            if opts.runs(e) {
                r.sizes.push(SizeRow {
                    pairs: n,
                    encoding: e,
                    bytes: bytes.len() as u64,
                });
            }
        }
        if exi.is_some() {
            let file = workdir.join(format!("bxsa-{n}.xml"));
            let written =
                std::fs::create_dir_all(&workdir).and_then(|()| std::fs::write(&file, &p.text));
            match written {
                Ok(()) => {
                    exi_files.push((n, file, parse_checksum(&p.text)));
                }
                Err(e) => r.notes.push(format!("EXI at {n} pairs not run: {e}")),
            }
        }
        let (borrowed, rows) = measure_in_process(n, p, opts);
        if borrowed == Some(false) {
            r.notes.push(format!(
                "at {n} pairs the reader copied the arrays instead of viewing them in place"
            ));
        }
        r.times.extend(rows);
    }

    if let Some(h) = exi {
        progress("BXSA data set: EXI (harness)");
        measure_exi(h, &exi_files, opts, &mut r);
    }
    if opts.workdir.is_none() && !exi_files.is_empty() {
        let _ = std::fs::remove_dir_all(&workdir);
    } else {
        for (_, f, _) in &exi_files {
            let _ = std::fs::remove_file(f);
        }
    }
    r.goals = goals(&r);
    r
}

/// The data of `n` pairs, its model and every in-process encoding of it.
fn prepare(n: usize, opts: &Options) -> Result<Prepared, String> {
    let (indices, values) = crate::workloads::pair_data(n, opts.seed);
    let doc = model(&indices, &values);
    let native = native(&indices, &values);
    let binary = encode_binary(&doc)?;
    let text = encode_text(&doc)?;
    let gzip = if opts.runs(Encoding::Gzip) {
        encode_gzip(&doc)?
    } else {
        Vec::new()
    };
    let sums = sums_checksum(sum_i32(&indices), sum_f64(&values));
    Ok(Prepared {
        indices,
        values,
        doc,
        native,
        binary,
        text,
        gzip,
        sums,
    })
}

/// The runners of one size: (encoding, phase), what each run must return.
fn slots(p: &Arc<Prepared>, opts: &Options) -> Vec<Slot> {
    let mut v = Vec::new();
    let mut add = |encoding, phase, expect, runner: Runner| {
        v.push(Slot {
            encoding,
            phase,
            runner,
            expect,
        })
    };
    let q = p.clone();
    add(
        Encoding::Model,
        Phase::Build,
        None,
        Box::new(move |_| Ok(black_box(model(&q.indices, &q.values)).len() as u64)),
    );
    let q = p.clone();
    add(
        Encoding::Model,
        Phase::Consume,
        Some(p.sums),
        Box::new(move |_| consume(black_box(&q.doc))),
    );
    let q = p.clone();
    add(
        Encoding::Native,
        Phase::CopyNew,
        Some(p.native.len() as u64),
        Box::new(move |_| Ok(black_box(black_box(&q.native).to_vec()).len() as u64)),
    );
    let q = p.clone();
    let mut dst = vec![0u8; p.native.len()];
    add(
        Encoding::Native,
        Phase::Memcpy,
        Some(p.native.len() as u64),
        Box::new(move |_| {
            dst.copy_from_slice(black_box(&q.native));
            Ok(black_box(&dst).len() as u64)
        }),
    );
    type Bytes = fn(&Prepared) -> &[u8];
    let codecs: [(Encoding, Encode, Decode, Bytes); 3] = [
        (
            Encoding::Xwire,
            encode_binary_into,
            decode_binary_into,
            |p| &p.binary,
        ),
        (Encoding::Text, encode_text_into, decode_text_into, |p| {
            &p.text
        }),
        (Encoding::Gzip, encode_gzip_into, decode_gzip_into, |p| {
            &p.gzip
        }),
    ];
    for (e, encode, decode, bytes) in codecs {
        if !opts.runs(e) {
            continue;
        }
        let q = p.clone();
        let mut out = Vec::with_capacity(bytes(p).len());
        add(
            e,
            Phase::Encode,
            Some(bytes(p).len() as u64),
            Box::new(move |_| {
                encode(&q.doc, &mut out)?;
                Ok(black_box(&out).len() as u64)
            }),
        );
        let q = p.clone();
        let mut doc = TypedDocument::new();
        add(
            e,
            Phase::Decode,
            Some(p.doc.len() as u64),
            Box::new(move |_| {
                decode(bytes(&q), &mut doc)?;
                Ok(black_box(&doc).len() as u64)
            }),
        );
        if e == Encoding::Xwire {
            let q = p.clone();
            add(
                e,
                Phase::InPlace,
                Some(p.sums),
                Box::new(move |_| decode_in_place(black_box(&q.binary)).map(|(s, _)| s)),
            );
        }
    }
    v
}

/// Times every in-process (encoding, phase) of one size: whether the reader viewed the
/// arrays in place (when xwire ran), and the rows.
fn measure_in_process(n: usize, p: Prepared, opts: &Options) -> (Option<bool>, Vec<TimeRow>) {
    let p = Arc::new(p);
    // Each decode gives the data back, bit for bit, or its cells say so (and are not timed).
    let mut broken: Vec<(Encoding, String)> = Vec::new();
    let decoders: [(Encoding, Decode, &[u8]); 3] = [
        (Encoding::Xwire, decode_binary_into, &p.binary),
        (Encoding::Text, decode_text_into, &p.text),
        (Encoding::Gzip, decode_gzip_into, &p.gzip),
    ];
    for (e, decode, bytes) in decoders {
        if opts.runs(e) {
            if let Err(why) =
                fresh(decode, bytes).and_then(|d| same_data(&d, &p.indices, &p.values))
            {
                broken.push((e, format!("the decoded data is not the original: {why}")));
            }
        }
    }
    let borrowed = opts
        .runs(Encoding::Xwire)
        .then(|| decode_in_place(&p.binary).is_ok_and(|(_, b)| b));

    let mut keys: Vec<(Encoding, Phase)> = Vec::new();
    let mut cells: Vec<Cell> = Vec::new();
    let mut runners: Vec<Option<Runner>> = Vec::new();
    let mut first_round = 0.0;
    for mut s in slots(&p, opts) {
        keys.push((s.encoding, s.phase));
        if let Some((_, why)) = broken
            .iter()
            .find(|(e, _)| *e == s.encoding && s.phase != Phase::Encode)
        {
            cells.push(Cell::Failed { error: why.clone() });
            runners.push(None);
            continue;
        }
        // The warm-up run, which also checks what the run returns.
        let t = Instant::now();
        let out: Outcome = (s.runner)(&[]);
        first_round += t.elapsed().as_secs_f64();
        match out {
            Ok(sum) => {
                cells.push(Cell::Measured {
                    median_s: 0.0,
                    min_s: 0.0,
                    runs: 0,
                    checksum_differs: s.expect.is_some_and(|x| x != sum),
                    peak_bytes: None,
                });
                runners.push(Some(s.runner));
            }
            Err(error) => {
                cells.push(Cell::Failed { error });
                runners.push(None);
            }
        }
    }
    let live: Vec<usize> = (0..runners.len())
        .filter(|&i| runners[i].is_some())
        .collect();
    let (min, max, budget) = timing::rounds(opts.quick);
    let times = if n <= TABLE_PAIRS {
        timing::time_batches(&[], &mut runners, &live, min)
    } else {
        let min = if first_round * min as f64 > budget.as_secs_f64() {
            min.min(3)
        } else {
            min
        };
        timing::time_interleaved(&[], &[], &mut runners, &live, (min, max, budget))
    };
    for (&i, mut t) in live.iter().zip(times) {
        if let Cell::Measured {
            median_s,
            min_s,
            runs,
            ..
        } = &mut cells[i]
        {
            *runs = t.len();
            *median_s = timing::median(&mut t);
            *min_s = t[0];
        }
    }
    let order = Encoding::ALL
        .iter()
        .flat_map(|&e| Phase::ALL.map(|ph| (e, ph)));
    let mut rows: Vec<TimeRow> = Vec::new();
    for (e, ph) in order {
        if let Some(i) = keys.iter().position(|&k| k == (e, ph)) {
            rows.push(TimeRow {
                pairs: n,
                encoding: e,
                phase: ph,
                cell: cells[i].clone(),
            });
        }
    }
    (borrowed, rows)
}

/// EXI through the harness: the sizes up to [`SPEEDUP_PAIRS`] in one call, each larger size
/// in its own, each call bounded by [`Options::exi_limit`]; once a call runs over, the larger
/// sizes are skipped.
fn measure_exi(h: &Harness, files: &[(usize, PathBuf, u64)], opts: &Options, r: &mut BxsaReport) {
    let (min_runs, max_runs, budget) = timing::rounds(opts.quick);
    let (warm_first, warm) = if opts.quick { (0.5, 0.03) } else { (2.0, 0.5) };
    let budget = if opts.quick {
        Duration::from_millis(100)
    } else {
        budget
    };
    let mut groups: Vec<Vec<&(usize, PathBuf, u64)>> = Vec::new();
    for f in files {
        match groups.last_mut() {
            Some(g) if f.0 <= SPEEDUP_PAIRS && g.iter().all(|x| x.0 <= SPEEDUP_PAIRS) => g.push(f),
            _ => groups.push(vec![f]),
        }
    }
    let mut over: Option<String> = None;
    for group in groups {
        let cells: Vec<(usize, Phase, Cell, Option<u64>)> = if let Some(why) = &over {
            group
                .iter()
                .flat_map(|f| {
                    [Phase::Encode, Phase::Decode].map(|ph| {
                        let reason = why.clone();
                        (f.0, ph, Cell::Skipped { reason }, None)
                    })
                })
                .collect()
        } else {
            let mut tasks = Vec::new();
            for (k, f) in group.iter().enumerate() {
                for op in [Op::Encode, Op::Decode] {
                    tasks.push(Task {
                        id: tasks.len(),
                        op,
                        file: f.1.clone(),
                        schema: None,
                        warmup_s: if k == 0 { warm_first } else { warm },
                        min_runs: min_runs.min(3),
                        max_runs,
                        budget_s: budget.as_secs_f64(),
                        copies: 1,
                        output: None,
                    });
                }
            }
            match h.measure_within(tasks, Some(opts.exi_limit)) {
                Ok(results) => results
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let f = group[i / 2];
                        let ph = if i % 2 == 0 {
                            Phase::Encode
                        } else {
                            Phase::Decode
                        };
                        (f.0, ph, exi_cell(&t, f.2), t.encoded_bytes)
                    })
                    .collect(),
                Err(e) => {
                    let timed_out = e.contains("did not finish");
                    let why = if timed_out {
                        format!(
                            "EXI ran over its time budget of {} s at {} pairs",
                            opts.exi_limit.as_secs(),
                            group[0].0
                        )
                    } else {
                        e.clone()
                    };
                    r.notes.push(why.clone());
                    if timed_out {
                        over = Some(why.clone());
                    }
                    group
                        .iter()
                        .flat_map(|f| {
                            [Phase::Encode, Phase::Decode].map(|ph| {
                                let cell = if timed_out {
                                    Cell::Skipped {
                                        reason: why.clone(),
                                    }
                                } else {
                                    Cell::Failed { error: why.clone() }
                                };
                                (f.0, ph, cell, None)
                            })
                        })
                        .collect()
                }
            }
        };
        for (n, ph, cell, bytes) in cells {
            if let Some(b) = bytes {
                if r.size(n, Encoding::Exi).is_none() {
                    r.sizes.push(SizeRow {
                        pairs: n,
                        encoding: Encoding::Exi,
                        bytes: b,
                    });
                }
            }
            r.times.push(TimeRow {
                pairs: n,
                encoding: Encoding::Exi,
                phase: ph,
                cell,
            });
        }
    }
    // Keep rows in (size, encoding, phase) order.
    r.times.sort_by_key(|t| (t.pairs, t.encoding, t.phase));
    r.sizes.sort_by_key(|s| (s.pairs, s.encoding));
}

/// A harness result as a cell; the checksum is compared with xwire's parse of the text.
fn exi_cell(t: &TaskResult, reference: u64) -> Cell {
    match (&t.error, t.median_s, t.min_s) {
        (Some(error), _, _) => Cell::Failed {
            error: error.clone(),
        },
        (None, Some(median_s), Some(min_s)) => Cell::Measured {
            median_s,
            min_s,
            runs: t.runs,
            checksum_differs: t.checksum != Some(reference),
            peak_bytes: None,
        },
        _ => Cell::Failed {
            error: "the harness returned no timing".into(),
        },
    }
}

/// The issue's goals from the measurements.
fn goals(r: &BxsaReport) -> Vec<Goal> {
    let mut v = Vec::new();
    let mut g = Goal::new(
        &format!("xwire binary size overhead over native at {TABLE_PAIRS} pairs"),
        r.size(TABLE_PAIRS, Encoding::Xwire)
            .and_then(|b| overhead_pct(b, TABLE_PAIRS)),
        OVERHEAD_GOAL_PCT,
        false,
        "%",
    );
    g.detail = format!(
        "{} bytes against native {}",
        r.size(TABLE_PAIRS, Encoding::Xwire)
            .map_or("-".to_string(), |b| b.to_string()),
        TABLE_PAIRS * PAIR_BYTES
    );
    v.push(g);
    // The largest size with memcpy measured.
    let largest = r
        .pairs
        .iter()
        .copied()
        .filter(|&n| n > 0 && r.median(n, Encoding::Native, Phase::Memcpy).is_some())
        .max();
    for (phase, what) in [
        (Phase::InPlace, "in place (Reader::array, summed)"),
        (
            Phase::Decode,
            "into the model (TypedDocument::read_into, the model reused)",
        ),
    ] {
        let measured = largest.and_then(|n| {
            Some(
                r.median(n, Encoding::Native, Phase::Memcpy)?
                    / r.median(n, Encoding::Xwire, phase)?,
            )
        });
        let mut g = Goal::new(
            &format!(
                "xwire binary decode {what}, throughput as a fraction of memcpy's{}",
                largest.map_or(String::new(), |n| format!(" at {n} pairs"))
            ),
            measured,
            MEMCPY_GOAL,
            true,
            "x",
        );
        g.detail = "the same 12n bytes: the i32 and the f64 array; memcpy into a buffer allocated before timing".into();
        if phase == Phase::Decode {
            let fresh = largest.and_then(|n| {
                Some(
                    r.median(n, Encoding::Native, Phase::CopyNew)?
                        / r.median(n, Encoding::Xwire, phase)?,
                )
            });
            if let Some(f) = fresh {
                g.detail.push_str(&format!(
                    "; against a copy into newly allocated memory (what a new model's arrays would cost): {f:.2}x"
                ));
            }
        }
        v.push(g);
    }
    for phase in [Phase::Encode, Phase::Decode] {
        let text = r.median(SPEEDUP_PAIRS, Encoding::Text, phase);
        let binary = r.median(SPEEDUP_PAIRS, Encoding::Xwire, phase);
        let measured = text.zip(binary).map(|(t, b)| t / b);
        let mut g = Goal::new(
            &format!(
                "xwire binary {} speed-up over text XML at {SPEEDUP_PAIRS} pairs",
                phase.name()
            ),
            measured,
            SPEEDUP_GOAL,
            true,
            "x",
        );
        g.detail = "median text time over median binary time, both model to bytes or back".into();
        v.push(g);
    }
    v
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    type Codec = (
        &'static str,
        fn(&TypedDocument) -> Result<Vec<u8>, String>,
        fn(&[u8]) -> Result<TypedDocument, String>,
    );

    const CODECS: [Codec; 3] = [
        ("xwire", encode_binary, decode_binary),
        ("text", encode_text, decode_text),
        ("gzip", encode_gzip, decode_gzip),
    ];

    fn check_round_trips(indices: &[i32], values: &[f64]) {
        let doc = model(indices, values);
        same_data(&doc, indices, values).unwrap();
        let sums = sums_checksum(sum_i32(indices), sum_f64(values));
        assert_eq!(consume(&doc), Ok(sums));
        for (name, encode, decode) in CODECS {
            let bytes = encode(&doc).unwrap();
            let back = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            same_data(&back, indices, values)
                .unwrap_or_else(|e| panic!("{name}, {} pairs: {e}", indices.len()));
            assert_eq!(consume(&back), Ok(sums), "{name}");
        }
        let binary = encode_binary(&doc).unwrap();
        let (s, borrowed) = decode_in_place(&binary).unwrap();
        assert_eq!(s, sums);
        // A Vec's buffer is aligned for f64 and the writer aligns the values in the file.
        assert!(borrowed, "the arrays were copied, not viewed in place");
        assert_eq!(native(indices, values).len(), indices.len() * PAIR_BYTES);
    }

    #[test]
    fn each_encoding_decodes_back_to_the_data_bit_for_bit() {
        for n in [0, 1, 7, 1_000, 4_097] {
            let (indices, values) = crate::workloads::pair_data(n, 11);
            check_round_trips(&indices, &values);
        }
        // Values whose text forms are the hard cases.
        let values = [
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            -f64::MAX,
            0.1,
            1.0 / 3.0,
            1e16,
            123_456.789_012_345_67,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let indices: Vec<i32> = (0..values.len() as i32)
            .map(|i| [i32::MIN, -1, 0, 1, i32::MAX][i as usize % 5])
            .collect();
        check_round_trips(&indices, &values);
    }

    #[test]
    fn a_changed_value_is_seen() {
        let (indices, mut values) = crate::workloads::pair_data(10, 3);
        let doc = model(&indices, &values);
        values[9] = f64::from_bits(values[9].to_bits() ^ 1);
        assert!(same_data(&doc, &indices, &values).is_err());
        assert!(same_data(&doc, &indices[..9], &values).is_err());
    }

    #[test]
    fn decoders_reject_what_is_not_the_model() {
        assert!(decode_text(b"<a/>").is_ok_and(|d| arrays_of(&d).is_err()));
        let other = br#"<num:model xmlns:num="urn:xwire:bench:numeric"><num:other>1</num:other></num:model>"#;
        assert!(decode_text(other).is_err());
        let bad = br#"<num:model xmlns:num="urn:xwire:bench:numeric"><num:indices>1 x</num:indices></num:model>"#;
        assert!(decode_text(bad).is_err());
        assert!(decode_gzip(b"not gzip").is_err());
        assert!(decode_binary(b"<a/>").is_ok_and(|d| consume(&d).is_err()));
        assert!(decode_in_place(b"<a/>").is_err());
    }

    #[test]
    fn peers_names_pick_the_encodings() {
        assert_eq!(Encoding::from_peer_name("xwire"), Some(Encoding::Xwire));
        assert_eq!(Encoding::from_peer_name("exificient"), Some(Encoding::Exi));
        assert_eq!(Encoding::from_peer_name("gzip"), Some(Encoding::Gzip));
        assert_eq!(Encoding::from_peer_name("text"), Some(Encoding::Text));
        assert_eq!(Encoding::from_peer_name("native"), None);
        assert_eq!(Encoding::from_peer_name("quick-xml"), None);
        let json = serde_json::to_string(&(Encoding::Exi, Phase::InPlace)).unwrap();
        assert_eq!(json, r#"["exi","in-place"]"#);
    }

    #[test]
    fn the_parse_checksum_reads_past_the_text_limit() {
        let (indices, values) = crate::workloads::pair_data(600_000, 1);
        let text = encode_text(&model(&indices, &values)).unwrap();
        let lists: usize = text.len()
            - br#"<num:model xmlns:num="urn:xwire:bench:numeric"><num:indices></num:indices><num:values></num:values></num:model>"#.len();
        assert!(lists > 10_000_000, "{lists}: over the default text limit");
        assert_eq!(parse_checksum(&text), 3 + lists as u64);
        assert!(
            crate::peers::reference(&text).is_err(),
            "the default limit applies there"
        );
        assert_eq!(parse_checksum(b"<a>"), u64::MAX);
    }

    /// A small run of the in-process encodings (and EXI when the harness is there).
    pub(crate) fn small_run(pairs: &[usize], with_exi: bool) -> BxsaReport {
        let mut opts = Options::new(true);
        opts.pairs = pairs.to_vec();
        let peers = if with_exi {
            crate::peers::external::peers()
                .into_iter()
                .filter(|p| p.name == "exificient")
                .collect()
        } else {
            opts.encodings.retain(|&e| e != Encoding::Exi);
            Vec::new()
        };
        run(&opts, &peers, &mut |_| {})
    }

    #[test]
    fn sizes_at_1000_pairs_are_what_the_encodings_produce() {
        let r = small_run(&[0, TABLE_PAIRS], false);
        let (indices, values) = crate::workloads::pair_data(TABLE_PAIRS, r.seed);
        let doc = model(&indices, &values);
        let binary = encode_binary(&doc).unwrap().len() as u64;
        let text = encode_text(&doc).unwrap().len() as u64;
        let gzip = encode_gzip(&doc).unwrap().len() as u64;
        assert_eq!(r.size(TABLE_PAIRS, Encoding::Native), Some(12_000));
        assert_eq!(r.size(TABLE_PAIRS, Encoding::Xwire), Some(binary));
        assert_eq!(r.size(TABLE_PAIRS, Encoding::Text), Some(text));
        assert_eq!(r.size(TABLE_PAIRS, Encoding::Gzip), Some(gzip));
        assert!(binary > 12_000 && gzip < text, "{binary} {gzip} {text}");
        let table = r.size_table();
        let row = |label: &str| table.iter().find(|t| t.0 == label).unwrap().clone();
        let x = row("xwire binary");
        assert_eq!(x.1, Some(binary));
        let pct = (binary as f64 - 12_000.0) / 120.0;
        assert!((x.2.unwrap() - pct).abs() < 1e-9);
        assert!(!x.3);
        assert_eq!(
            row("BXSA (paper)"),
            ("BXSA (paper)".into(), None, Some(1.3), true)
        );
        assert_eq!(row("text XML (paper)").2, Some(99.0));
        // The goal is about the format, not the machine: it holds.
        let g = &r.goals[0];
        assert!(g.measured.is_some_and(|m| (m - pct).abs() < 1e-9), "{g:?}");
        assert_eq!(g.met, Some(true), "{}", g.line());
        // Every in-process cell was timed, with the data's sums.
        for t in &r.times {
            match &t.cell {
                Cell::Measured {
                    runs,
                    median_s,
                    checksum_differs,
                    ..
                } => {
                    assert!(*runs >= 3 && *median_s > 0.0, "{t:?}");
                    assert!(!checksum_differs, "{t:?}");
                }
                c => panic!("{t:?}: {c:?}"),
            }
        }
        let phases = |n| r.times.iter().filter(|t| t.pairs == n).count();
        // model: build, consume; native: memcpy, copy to new; xwire: encode, decode, in place;
        // text and gzip: encode, decode.
        assert_eq!(phases(TABLE_PAIRS), 11);
        assert_eq!(phases(0), 11);
        // No EXI asked for: no note about it, no rows.
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        assert!(r.size(TABLE_PAIRS, Encoding::Exi).is_none());
    }

    #[test]
    fn exi_runs_in_the_harness_with_its_size() {
        let r = small_run(&[0, TABLE_PAIRS], true);
        if r.notes.iter().any(|n| n.contains("missing")) {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "exificient is missing under CI: {:?}",
                r.notes
            );
            eprintln!("note: {:?}", r.notes);
            return;
        }
        let exi = r
            .size(TABLE_PAIRS, Encoding::Exi)
            .unwrap_or_else(|| panic!("no EXI size: {:?} {:?}", r.notes, r.times));
        assert!(exi > 0, "{exi}");
        for n in [0, TABLE_PAIRS] {
            for ph in [Phase::Encode, Phase::Decode] {
                match r.cell(n, Encoding::Exi, ph) {
                    Some(Cell::Measured {
                        checksum_differs, ..
                    }) => assert!(!checksum_differs, "EXI {} at {n}", ph.name()),
                    c => panic!("EXI {} at {n}: {c:?}", ph.name()),
                }
            }
        }
    }

    #[test]
    fn goals_are_read_from_the_measurements() {
        let measured = |median_s: f64| Cell::Measured {
            median_s,
            min_s: median_s,
            runs: 3,
            checksum_differs: false,
            peak_bytes: None,
        };
        let row = |pairs, encoding, phase, s| TimeRow {
            pairs,
            encoding,
            phase,
            cell: measured(s),
        };
        let r = BxsaReport {
            seed: 1,
            pairs: vec![1_000, 100_000],
            encodings: Encoding::ALL.to_vec(),
            sizes: vec![SizeRow {
                pairs: 1_000,
                encoding: Encoding::Xwire,
                bytes: 12_240,
            }],
            paper: Vec::new(),
            times: vec![
                row(100_000, Encoding::Native, Phase::Memcpy, 1.0),
                row(100_000, Encoding::Xwire, Phase::InPlace, 1.5),
                row(100_000, Encoding::Xwire, Phase::Decode, 2.5),
                row(100_000, Encoding::Xwire, Phase::Encode, 2.0),
                row(100_000, Encoding::Text, Phase::Encode, 50.0),
                row(100_000, Encoding::Text, Phase::Decode, 40.0),
            ],
            goals: Vec::new(),
            notes: Vec::new(),
        };
        let g = goals(&r);
        let got: Vec<(Option<f64>, Option<bool>)> = g.iter().map(|g| (g.measured, g.met)).collect();
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
        assert!(close(got[0].0, 2.0) && got[0].1 == Some(false), "{got:?}");
        assert!(close(got[1].0, 1.0 / 1.5) && got[1].1 == Some(true));
        assert!(close(got[2].0, 0.4) && got[2].1 == Some(false));
        assert!(close(got[3].0, 25.0) && got[3].1 == Some(true));
        assert!(close(got[4].0, 16.0) && got[4].1 == Some(false));
        assert!(g[1].name.contains("at 100000 pairs"), "{}", g[1].name);
        assert_eq!(g[0].line(), "2.00% (goal <= 1.50%): NOT MET");
        assert_eq!(g[3].line(), "25.00x (goal >= 20.00x): met");
        let empty = BxsaReport {
            times: Vec::new(),
            sizes: Vec::new(),
            ..r
        };
        assert!(goals(&empty)
            .iter()
            .all(|g| g.measured.is_none() && g.met.is_none()));
        assert!(goals(&empty)[0].line().starts_with("not measured"));
    }
}
