//! The processors compared, one adapter each, and the operations each can do.
//!
//! # What an operation must do
//!
//! Every adapter of every [`Op`] consumes the whole document and returns a checksum:
//! elements + attributes (namespace declarations excluded) + bytes of character data (after
//! unescaping, in UTF-8). Processors that read the same document the same way return the same
//! checksum (a test checks it against xwire's), so no adapter can skip work unnoticed:
//!
//! - [`Op::Parse`]: pull every event, read every element name, attribute value and text run;
//! - [`Op::Push`]: the same through callbacks (SAX);
//! - [`Op::Tree`]: build the processor's tree, then walk it reading the same things;
//! - [`Op::Reserialize`]: build a tree (or stream events) and write the document back to
//!   memory; the checksum is the one of the parse plus nothing else, the output length goes to
//!   `black_box`;
//! - [`Op::Validate`]: parse and validate against the workload's schema (compiled once, before
//!   timing, in [`Prepare`]); an invalid document is an error;
//! - [`Op::Index`]: build a non-extractive index (VTD-style) and walk it like a tree;
//! - [`Op::Encode`]: encode into a binary XML format; the checksum is the parse's;
//! - [`Op::Decode`]: decode the binary form (made in [`Prepare`] or the harness's set-up,
//!   untimed) and consume every event like a parse.
//!
//! # In process and in a harness
//!
//! Rust and C/C++ peers run in this process: the driver times each call of a [`Runner`].
//! Java and Python peers run in a harness process that times itself after warm-up
//! ([`Engine::External`]): starting a JVM per document would measure the JVM, not the parser.

mod c;
mod cpp;
pub mod probes;
mod rust;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What an adapter's run returns: the checksum, or the processor's error message.
pub type Outcome = Result<u64, String>;

/// An operation a processor may be able to do on a document.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Pull parsing, every event and attribute consumed.
    Parse,
    /// Push parsing (SAX callbacks).
    Push,
    /// Build an in-memory tree and walk it.
    Tree,
    /// Parse and write the document back to memory.
    Reserialize,
    /// Parse and validate against the workload's schema.
    Validate,
    /// Build a non-extractive token index (VTD-style) and walk it.
    Index,
    /// Encode the document into a binary XML format (EXI, xwire's binary encoding).
    Encode,
    /// Decode the binary form (encoded before timing) and consume every event.
    Decode,
}

impl Op {
    /// Every operation, in report order.
    pub const ALL: &'static [Op] = &[
        Op::Parse,
        Op::Push,
        Op::Tree,
        Op::Reserialize,
        Op::Validate,
        Op::Index,
        Op::Encode,
        Op::Decode,
    ];

    /// Name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Op::Parse => "parse",
            Op::Push => "push",
            Op::Tree => "tree",
            Op::Reserialize => "reserialize",
            Op::Validate => "validate",
            Op::Index => "index",
            Op::Encode => "encode",
            Op::Decode => "decode",
        }
    }

    /// Parses a name given on the command line.
    pub fn from_name(s: &str) -> Option<Op> {
        Op::ALL.iter().copied().find(|o| o.name() == s)
    }

    /// Whether the operation needs a schema from the workload.
    pub fn needs_schema(self) -> bool {
        self == Op::Validate
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the workload offers an operation besides its bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Setup<'a> {
    /// The schema the document is valid against, for [`Op::Validate`].
    pub schema: Option<&'a Path>,
}

/// A prepared operation: runs on one document after another (a schema already compiled, a
/// parser object possibly reused, as its users would). Called from one thread at a time; the
/// throughput mode prepares one per worker thread.
pub type Runner = Box<dyn FnMut(&[u8]) -> Outcome + Send>;

/// Prepares an operation for a workload (compiling its schema, say), outside the timing.
pub type Prepare = Box<dyn Fn(&Setup<'_>) -> Result<Runner, String> + Send + Sync>;

/// An operation with nothing to prepare: every run calls `f`.
pub fn simple(f: fn(&[u8]) -> Outcome) -> Prepare {
    Box::new(move |_| Ok(Box::new(f)))
}

/// The language a processor is written in (how it is run).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    /// Rust, linked in.
    Rust,
    /// C, through FFI.
    C,
    /// C++, through FFI.
    Cpp,
    /// Java, in the JVM harness of `bench/java`.
    Java,
    /// Python, in the harness of `bench/python`.
    Python,
}

/// How a processor is run.
pub enum Engine {
    /// In this process: `(operation, prepare)` for each operation it can do.
    InProcess(Vec<(Op, Prepare)>),
    /// In a harness process that times itself.
    External(external::Harness),
    /// Not found on this machine: why, and how to get it.
    Missing {
        /// Why it is missing.
        reason: String,
        /// Operations it would do.
        ops: Vec<Op>,
    },
}

pub mod external;

/// One processor, configured one way.
pub struct Peer {
    /// Name in the report and on the command line (`--peers`).
    pub name: &'static str,
    /// Its language.
    pub lang: Lang,
    /// What it checks and what it doesn't, so ratios are read honestly.
    pub checks: &'static str,
    /// How it runs.
    pub engine: Engine,
}

impl Peer {
    /// Whether the processor is available on this machine.
    pub fn available(&self) -> bool {
        !matches!(self.engine, Engine::Missing { .. })
    }

    /// The operations it can do (or would, when missing).
    pub fn ops(&self) -> Vec<Op> {
        match &self.engine {
            Engine::InProcess(v) => v.iter().map(|(o, _)| *o).collect(),
            Engine::External(h) => h.ops.clone(),
            Engine::Missing { ops, .. } => ops.clone(),
        }
    }

    /// Whether it can do `op`.
    pub fn can(&self, op: Op) -> bool {
        self.ops().contains(&op)
    }

    /// Prepares `op` in this process; `None` if the peer does not run in process or cannot
    /// do `op`.
    pub fn prepare(&self, op: Op, setup: &Setup<'_>) -> Option<Result<Runner, String>> {
        match &self.engine {
            Engine::InProcess(v) => v.iter().find(|(o, _)| *o == op).map(|(_, p)| p(setup)),
            _ => None,
        }
    }

    /// Why it is missing, if it is.
    pub fn missing(&self) -> Option<&str> {
        match &self.engine {
            Engine::Missing { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

/// Every peer, xwire first.
pub fn all() -> Vec<Peer> {
    let mut v = in_process();
    v.extend(external::peers());
    v
}

/// The peers linked into this process (Rust, C, C++), without probing the harnesses (which
/// starts a JVM and a Python interpreter).
pub fn in_process() -> Vec<Peer> {
    let mut v = rust::peers();
    v.extend(c::peers());
    v.extend(cpp::peers());
    v
}

/// xwire's pull parse: the reference checksum every other peer is compared with.
pub fn reference(doc: &[u8]) -> Outcome {
    rust::xwire(doc)
}

/// The peers named in `list` (comma-separated), or all of them.
pub fn select(list: Option<&str>) -> Result<Vec<Peer>, String> {
    let all = all();
    let Some(list) = list else { return Ok(all) };
    let names: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if let Some(bad) = names.iter().find(|n| !all.iter().any(|p| p.name == **n)) {
        let known: Vec<_> = all.iter().map(|p| p.name).collect();
        return Err(format!(
            "unknown peer '{bad}' (known: {})",
            known.join(", ")
        ));
    }
    Ok(all
        .into_iter()
        .filter(|p| names.contains(&p.name))
        .collect())
}

/// Entities, CDATA, namespaces, attributes, defaults-free DTD-less document: what every
/// peer's tests check the checksum contract on.
#[cfg(test)]
pub(crate) const TEST_DOC: &[u8] = br#"<?xml version="1.0"?>
<p:root xmlns:p="urn:p" xmlns="urn:d" a="1">
  <item id="x&amp;y" p:k="2">text &lt;here&gt; &#233;t&#xE9;</item>
  <![CDATA[raw <cdata>]]>
  <empty/>
  <!-- comment --><?pi data?>
</p:root>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &[u8] = TEST_DOC;

    /// Every in-process operation that needs no schema, of every available peer.
    fn each_schemaless_runner(mut f: impl FnMut(&str, Op, Runner)) {
        for p in all() {
            for op in p.ops() {
                if op.needs_schema() {
                    continue;
                }
                if let Some(r) = p.prepare(op, &Setup::default()) {
                    f(
                        p.name,
                        op,
                        r.unwrap_or_else(|e| panic!("{} {op}: {e}", p.name)),
                    );
                }
            }
        }
    }

    #[test]
    fn every_in_process_operation_agrees_with_xwire() {
        let expected = reference(DOC).expect("xwire");
        each_schemaless_runner(|name, op, mut run| {
            assert_eq!(run(DOC), Ok(expected), "{name} {op} disagrees with xwire");
        });
        for w in crate::workloads::all() {
            if w.group == crate::workloads::Group::Real {
                continue;
            }
            let doc = w.load_small(1);
            let expected = reference(&doc).expect("xwire");
            each_schemaless_runner(|name, op, mut run| {
                assert_eq!(run(&doc), Ok(expected), "{name} {op} on {}", w.name);
            });
        }
    }

    #[test]
    fn every_in_process_operation_rejects_a_broken_document() {
        each_schemaless_runner(|name, op, mut run| {
            // xmlparser tokenizes only; it cannot see mismatched tags.
            if name != "xmlparser" {
                assert!(
                    run(b"<a><b></a>").is_err(),
                    "{name} {op} accepted <a><b></a>"
                );
            }
            assert!(run(b"<a").is_err(), "{name} {op} accepted '<a'");
        });
    }

    #[test]
    fn select_by_name() {
        assert_eq!(select(Some("xwire")).unwrap().len(), 1);
        assert!(select(Some("nope")).is_err());
    }

    #[test]
    fn names_are_unique() {
        let all = all();
        for (i, p) in all.iter().enumerate() {
            assert!(
                all[i + 1..].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
        }
    }
}
