//! The processors compared, one adapter each, and the operations each can do.
//!
//! # What an operation must do
//!
//! Every adapter of every [`Op`] consumes the whole document and returns a checksum:
//! elements + attributes (namespace declarations excluded) + bytes of character data (after
//! unescaping, in UTF-8), except the pipelines, whose checksum is below. Processors that read
//! the same document the same way return the same checksum (a test checks it against xwire's,
//! and the pipelines' against each other), so no adapter can skip work unnoticed:
//!
//! - [`Op::Parse`]: pull every event, read every element name, attribute value and text run;
//! - [`Op::Push`]: the same through callbacks (SAX);
//! - [`Op::Tree`]: build the processor's tree, then walk it reading the same things;
//! - [`Op::Reserialize`]: build a tree (or stream events) and write the document back to
//!   memory; the checksum is the one of the parse plus nothing else, the output length goes to
//!   `black_box`;
//! - [`Op::Validate`]: parse and validate against the workload's schema (compiled once, before
//!   timing, in [`Prepare`]); an invalid document is an error;
//! - [`Op::Bind`]: parse, validate and deserialize into the types a schema compiler generated
//!   from the workload's schema (XML Screamer's typed objects; an invalid document is an
//!   error); the checksum is not the parse's but the peers' own sum over the objects (items,
//!   quantities, name lengths), compared between the peers of `bind` only;
//! - [`Op::Check`]: parse and validate with code generated from the workload's schema,
//!   building nothing and counting nothing (XML Screamer's validate-only API); the checksum
//!   is the document's length, given only when the document is valid (there is nothing else
//!   to count without doing the work the operation leaves out);
//! - [`Op::Events`]: parse with code generated from the workload's schema, its events given to
//!   a handler (the schema's names as constants), or the same events with the root as
//!   `xs:anyType` (names from the document); the checksum is elements + attributes + bytes of
//!   the text events that are not white space alone (the schema's events have no white space
//!   between elements), compared between the peers of `events` only;
//! - [`Op::Index`]: build a non-extractive index (VTD-style) and walk it like a tree;
//! - [`Op::Pipeline`]: the XPath-and-edit pipeline of the VTD-XML article (issue 4), with one
//!   of the five [`PipelineExpr`]essions: parse the document from memory, evaluate the
//!   expression (compiled once, in [`Prepare`], outside the timing), delete every selected
//!   node (a text node alone, an element with its subtree; in reverse document order, so a
//!   node is never deleted after an ancestor), and serialize the whole result to memory. Its
//!   checksum is not the parse's but [`pipeline_checksum`]`(selected, elements)`: the number
//!   of nodes the expression selected, plus 1,000,003 times the number of elements left in
//!   the processor's own model after the deletions (counted by walking that model, not by
//!   parsing the output). An empty output is an error. The output's length is not in the
//!   checksum: processors write different declarations, quotes and empty-element tags;
//! - [`Op::Encode`]: encode into a binary XML format (xwire's own, schema-less: elements
//!   typed by `xsi:type` only; EXI with default options); the checksum is the parse's,
//!   counted from the events the encoder reads;
//! - [`Op::Decode`]: decode the binary form (made in [`Prepare`] from
//!   [`Setup::document`] or in the harness's set-up, untimed) and consume every event like a
//!   parse; the checksum is the parse's where the encoding keeps what the parse counts: xwire
//!   gives a typed value back in its canonical text form, so on a document whose `xsi:type`d
//!   values are written otherwise (`-2.2e-3`, ` 7 `) its decode counts the text bytes of the
//!   canonical forms (a test checks it against the parse of the text the binary form decodes
//!   to), and EXI's default options drop whitespace-only text (see its `checks`).
//!
//! # In process and in a harness
//!
//! Rust and C/C++ peers run in this process: the driver times each call of a [`Runner`].
//! Java and Python peers run in a harness process that times itself after warm-up
//! ([`Engine::External`]): starting a JVM per document would measure the JVM, not the parser.

mod c;
mod compiled;
mod cpp;
mod models;
pub mod probes;
mod rust;
mod xsd_parser;
mod xsdcxx;

pub use rust::event_sum;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What an adapter's run returns: the checksum, or the processor's error message.
pub type Outcome = Result<u64, String>;

/// One of the five expressions of the XPath-and-edit pipelines (the VTD-XML article's, run on
/// the XML Schema Primer's `po.xml` without a namespace): [`Op::Pipeline`] deletes what it
/// selects.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum PipelineExpr {
    /// `/*/*/*[position() mod 2 = 0]`: every second grandchild of the root element.
    EvenGrandchildren,
    /// `/purchaseOrder/items/item[USPrice<100]`: the cheap items.
    CheapItems,
    /// `/*/*/*/quantity/text()`: the quantities' text nodes.
    QuantityText,
    /// `//item/comment`: the items' comments.
    ItemComments,
    /// `//item/comment/../quantity`: the quantities of items with a comment.
    CommentedQuantities,
}

impl PipelineExpr {
    /// The five, in report order (`pipeline1` to `pipeline5`).
    pub const ALL: [PipelineExpr; 5] = [
        PipelineExpr::EvenGrandchildren,
        PipelineExpr::CheapItems,
        PipelineExpr::QuantityText,
        PipelineExpr::ItemComments,
        PipelineExpr::CommentedQuantities,
    ];

    /// The XPath 1.0 expression.
    pub fn xpath(self) -> &'static str {
        match self {
            PipelineExpr::EvenGrandchildren => "/*/*/*[position() mod 2 = 0]",
            PipelineExpr::CheapItems => "/purchaseOrder/items/item[USPrice<100]",
            PipelineExpr::QuantityText => "/*/*/*/quantity/text()",
            PipelineExpr::ItemComments => "//item/comment",
            PipelineExpr::CommentedQuantities => "//item/comment/../quantity",
        }
    }

    /// Its number, 1 to 5 (the shims and harnesses take the expression itself).
    pub fn number(self) -> usize {
        PipelineExpr::ALL
            .iter()
            .position(|&e| e == self)
            .expect("listed")
            + 1
    }
}

/// The checksum of a pipeline run (see the module documentation): `selected` nodes deleted,
/// `elements` left in the processor's model afterwards.
pub fn pipeline_checksum(selected: u64, elements: u64) -> u64 {
    selected + elements * 1_000_003
}

/// `ops` followed by the five pipelines.
pub(crate) const fn with_pipelines(ops: [Op; 2]) -> [Op; 7] {
    [
        ops[0],
        ops[1],
        Op::Pipeline(PipelineExpr::EvenGrandchildren),
        Op::Pipeline(PipelineExpr::CheapItems),
        Op::Pipeline(PipelineExpr::QuantityText),
        Op::Pipeline(PipelineExpr::ItemComments),
        Op::Pipeline(PipelineExpr::CommentedQuantities),
    ]
}

/// An operation a processor may be able to do on a document. On the command line, in the JSON
/// report and in the harness protocol it is its [`name`](Op::name), a string.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
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
    /// Parse, validate and build the objects of types generated from the workload's schema.
    Bind,
    /// Parse and validate with code generated from the workload's schema, building and
    /// counting nothing: the verdict alone (XML Screamer's validate-only API).
    Check,
    /// Parse with code generated from the workload's schema, its events given to a handler
    /// (XML Screamer's SAX with precomputed events; with and without the schema).
    Events,
    /// Build a non-extractive token index (VTD-style) and walk it.
    Index,
    /// Parse, evaluate a precompiled XPath expression, delete what it selects, write the
    /// result to memory (runs on the workloads of the XPath-pipeline set only).
    Pipeline(PipelineExpr),
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
        Op::Bind,
        Op::Check,
        Op::Events,
        Op::Index,
        Op::Pipeline(PipelineExpr::EvenGrandchildren),
        Op::Pipeline(PipelineExpr::CheapItems),
        Op::Pipeline(PipelineExpr::QuantityText),
        Op::Pipeline(PipelineExpr::ItemComments),
        Op::Pipeline(PipelineExpr::CommentedQuantities),
        Op::Encode,
        Op::Decode,
    ];

    /// The five pipelines, in report order.
    pub fn pipelines() -> impl Iterator<Item = Op> {
        PipelineExpr::ALL.into_iter().map(Op::Pipeline)
    }

    /// Name on the command line, in the JSON report and in the harness protocol.
    pub fn name(self) -> &'static str {
        match self {
            Op::Parse => "parse",
            Op::Push => "push",
            Op::Tree => "tree",
            Op::Reserialize => "reserialize",
            Op::Validate => "validate",
            Op::Bind => "bind",
            Op::Check => "check",
            Op::Events => "events",
            Op::Index => "index",
            Op::Pipeline(PipelineExpr::EvenGrandchildren) => "pipeline1",
            Op::Pipeline(PipelineExpr::CheapItems) => "pipeline2",
            Op::Pipeline(PipelineExpr::QuantityText) => "pipeline3",
            Op::Pipeline(PipelineExpr::ItemComments) => "pipeline4",
            Op::Pipeline(PipelineExpr::CommentedQuantities) => "pipeline5",
            Op::Encode => "encode",
            Op::Decode => "decode",
        }
    }

    /// Heading in reports: the name, or for a pipeline `pipeline <expression>`.
    pub fn title(self) -> String {
        match self {
            Op::Pipeline(e) => format!("pipeline {}", e.xpath()),
            op => op.name().to_string(),
        }
    }

    /// Parses a name given on the command line.
    pub fn from_name(s: &str) -> Option<Op> {
        Op::ALL.iter().copied().find(|o| o.name() == s)
    }

    /// Parses a name on the command line that may stand for several operations: `pipeline` is
    /// the five pipelines.
    pub fn from_names(s: &str) -> Option<Vec<Op>> {
        match s {
            "pipeline" => Some(Op::pipelines().collect()),
            s => Op::from_name(s).map(|o| vec![o]),
        }
    }

    /// The names `--ops` accepts, for messages.
    pub const NAMES: &'static str =
        "parse, push, tree, reserialize, validate, bind, check, events, index, pipeline (= pipeline1..pipeline5), encode, decode";

    /// Whether the operation needs a schema from the workload.
    pub fn needs_schema(self) -> bool {
        matches!(self, Op::Validate | Op::Bind | Op::Check | Op::Events)
    }

    /// Whether it is one of the XPath-and-edit pipelines.
    pub fn is_pipeline(self) -> bool {
        matches!(self, Op::Pipeline(_))
    }

    /// Whether its checksum is the parse's (xwire's pull parse is its reference); the
    /// pipelines' is [`pipeline_checksum`], `bind`'s a sum over the objects built, `check`'s
    /// the document's length, `events`' its own count of the events.
    pub fn has_parse_checksum(self) -> bool {
        !self.is_pipeline() && !matches!(self, Op::Bind | Op::Check | Op::Events)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Op {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Op {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Op, D::Error> {
        let s = String::deserialize(d)?;
        Op::from_name(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown operation '{s}'")))
    }
}

/// What the workload offers an operation besides its bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Setup<'a> {
    /// The schema the document is valid against, for [`Op::Validate`].
    pub schema: Option<&'a Path>,
    /// The document the runner will run on, when known before timing: operations whose input
    /// is made from it ([`Op::Decode`]: its binary form) make that input here, untimed, and
    /// the runner then reads it whenever it is given this document (or a copy of it: the
    /// runner compares the lengths and the first and last bytes: [`DocumentKey`]). Without it, or given another document, each run makes
    /// its input first (tests and probes, not timed).
    pub document: Option<&'a [u8]>,
}

/// What a runner prepared for one document ([`Setup::document`]) keeps to recognise it (or a
/// copy of it) among the documents it is given: its length and its first and last 64 bytes.
#[derive(Clone, Debug)]
pub struct DocumentKey {
    len: usize,
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl DocumentKey {
    /// The key of `doc`.
    pub fn of(doc: &[u8]) -> DocumentKey {
        let n = doc.len().min(64);
        DocumentKey {
            len: doc.len(),
            head: doc[..n].to_vec(),
            tail: doc[doc.len() - n..].to_vec(),
        }
    }

    /// Whether `doc` is taken for the document of the key.
    pub fn matches(&self, doc: &[u8]) -> bool {
        let n = self.head.len();
        doc.len() == self.len && doc[..n] == self.head[..] && doc[doc.len() - n..] == self.tail[..]
    }
}

/// A prepared operation: runs on one document after another (a schema already compiled, a
/// parser object possibly reused, as its users would). Called from one thread at a time; the
/// throughput mode prepares one per worker thread.
pub type Runner = Box<dyn FnMut(&[u8]) -> Outcome + Send>;

/// Prepares an operation for a workload (compiling its schema, say), outside the timing.
pub type Prepare = Box<dyn Fn(&Setup<'_>) -> Result<Runner, String> + Send + Sync>;

/// What a [`Prepare`] gives for a workload it has nothing for (a `bind` peer and a schema no
/// types were written for): the cell is "cannot", as for an operation the peer lacks, not
/// "failed".
pub const NOT_HERE: &str = "(nothing prepared for this workload)";

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
            Engine::InProcess(v) => v
                .iter()
                .find(|(o, _)| *o == op)
                .map(|(_, p)| p(setup))
                .filter(|r| !matches!(r, Err(e) if e == NOT_HERE)),
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
    v.extend(compiled::peers());
    v.extend(xsd_parser::peers());
    v.extend(c::peers());
    v.extend(cpp::peers());
    v.extend(xsdcxx::peers());
    v
}

/// Each validating peer's own non-validating parse, shown beside its `validate` in the
/// reports (the cost of validation is the ratio of the two): `(validating peer, peer, op)`.
/// The same parser configured without a schema where there is one (Xerces SAX2, lxml's and
/// xmlschema's trees), else the closest: libxml2's streaming validator runs over its SAX2
/// parser, its whole-document one over `xmlReadMemory` and the walk of libxml2-dom.
/// `bench --ops validate` also runs these (see [`beside_validating`] and the driver).
pub const VALIDATE_BESIDE: &[(&str, &str, Op)] = &[
    ("xwire", "xwire", Op::Parse),
    ("xwire-psvi", "xwire", Op::Parse),
    ("libxml2-xsd", "libxml2-sax", Op::Push),
    ("libxml2-xsd-doc", "libxml2-dom", Op::Tree),
    ("xerces-sax2-validating", "xerces-sax2", Op::Push),
    ("xerces-j-validating", "xerces-j-sax", Op::Push),
    ("lxml", "lxml", Op::Tree),
    ("xmlschema", "xmlschema", Op::Tree),
];

/// The non-validating `(peer, op)` shown beside `validating`'s `validate`, if it has one.
pub fn validate_beside(validating: &str) -> Option<(&'static str, Op)> {
    VALIDATE_BESIDE
        .iter()
        .find(|(v, _, _)| *v == validating)
        .map(|&(_, p, op)| (p, op))
}

/// The peers of [`VALIDATE_BESIDE`] that the validating ones among `peers` need and that are
/// not among them, when `validate` is among `ops` (empty: every operation): `bench --peers
/// libxml2-xsd --ops validate` also runs libxml2-sax.
pub fn beside_validating(peers: &[Peer], ops: &[Op]) -> Vec<Peer> {
    if !(ops.is_empty() || ops.contains(&Op::Validate)) {
        return Vec::new();
    }
    let wanted: Vec<&str> = peers
        .iter()
        .filter(|p| p.can(Op::Validate))
        .filter_map(|p| validate_beside(p.name).map(|(q, _)| q))
        .filter(|q| !peers.iter().any(|p| p.name == *q))
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    all()
        .into_iter()
        .filter(|p| wanted.contains(&p.name))
        .collect()
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

    /// Every in-process operation that needs no schema, of every available peer (the
    /// pipelines too when `pipelines`).
    fn each_schemaless_runner_of(pipelines: bool, mut f: impl FnMut(&str, Op, Runner)) {
        for p in all() {
            for op in p.ops() {
                if op.needs_schema() || (op.is_pipeline() && !pipelines) {
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

    /// Every in-process operation whose checksum is the parse's.
    fn each_schemaless_runner(f: impl FnMut(&str, Op, Runner)) {
        each_schemaless_runner_of(false, f)
    }

    /// The checksum `name`'s `op` must return on `doc`: the parse's, except xwire's decode,
    /// which gives `xsi:type`d values back in their canonical text form (`-2.2e-3` comes back
    /// as `-0.0022`): the parse's of the text its binary form decodes to.
    fn expected_sum(name: &str, op: Op, doc: &[u8]) -> Outcome {
        if (name, op) == ("xwire", Op::Decode) {
            let (binary, _) = rust::xwire_encode_counting(doc)?;
            let text =
                xwire::binary::decode_to_text(&binary, Vec::new()).map_err(|e| e.to_string())?;
            return reference(&text);
        }
        reference(doc)
    }

    #[test]
    fn every_in_process_operation_agrees_with_xwire() {
        let expected = reference(DOC).expect("xwire");
        each_schemaless_runner(|name, op, mut run| {
            assert_eq!(run(DOC), Ok(expected), "{name} {op} disagrees with xwire");
        });
        let mut normalised = Vec::new();
        for w in crate::workloads::all() {
            if w.group == crate::workloads::Group::Real {
                continue;
            }
            let doc = w.load_small(1);
            each_schemaless_runner(|name, op, mut run| {
                let expected = expected_sum(name, op, &doc);
                assert_eq!(run(&doc), expected, "{name} {op} on {}", w.name);
                if expected != reference(&doc) {
                    normalised.push(w.name.clone());
                }
            });
            // Prepared for the document, as the driver does (decode: encoded untimed).
            let setup = Setup {
                document: Some(&doc),
                ..Setup::default()
            };
            for p in all() {
                for op in [Op::Encode, Op::Decode] {
                    if let Some(run) = p.prepare(op, &setup) {
                        let expected = expected_sum(p.name, op, &doc);
                        let mut run = run.unwrap_or_else(|e| panic!("{} {op}: {e}", p.name));
                        let copy = doc.clone();
                        for d in [&doc, &copy] {
                            assert_eq!(run(d), expected, "{} {op} on {}", p.name, w.name);
                        }
                        // Another document is encoded first, not mistaken for this one.
                        assert_eq!(run(DOC), reference(DOC), "{} {op}", p.name);
                    }
                }
            }
        }
        // Only documents with typed values written in another form than xwire's differ:
        // the SOAP arrays of floats and doubles (exponent notation), not the untyped ones.
        assert!(
            normalised.iter().any(|w| w.starts_with("arrays-double")),
            "{normalised:?}"
        );
        assert!(
            !normalised
                .iter()
                .any(|w| w.starts_with("po") || w == "mesh"),
            "{normalised:?}"
        );
    }

    #[test]
    fn document_keys_tell_documents_apart() {
        let a = b"<a>same start, same length, different end x</a>".to_vec();
        let key = DocumentKey::of(&a);
        assert!(key.matches(&a.clone()));
        let mut b = a.clone();
        *b.last_mut().unwrap() = b' ';
        assert!(!key.matches(&b));
        assert!(!key.matches(&a[1..]));
        assert!(DocumentKey::of(b"").matches(b""));
        let long: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let mut other = long.clone();
        other[999] ^= 1;
        assert!(DocumentKey::of(&long).matches(&long) && !DocumentKey::of(&long).matches(&other));
    }

    /// Every in-process validating peer accepts a small instance of every workload with a
    /// schema and returns xwire's parse checksum for it (the runner reused: twice).
    #[test]
    fn every_validating_peer_agrees_with_xwire_on_the_schema_workloads() {
        for w in crate::workloads::all() {
            if w.schema.is_none() || w.group == crate::workloads::Group::Real {
                continue;
            }
            let doc = w.load_small(1);
            let expected = reference(&doc).expect("xwire");
            let setup = Setup {
                schema: w.schema.as_deref(),
                document: Some(&doc),
            };
            for p in all().iter().filter(|p| p.can(Op::Validate)) {
                let Some(run) = p.prepare(Op::Validate, &setup) else {
                    continue;
                };
                let mut run = run.unwrap_or_else(|e| panic!("{} on {}: {e}", p.name, w.name));
                for _ in 0..2 {
                    assert_eq!(run(&doc), Ok(expected), "{} validate on {}", p.name, w.name);
                }
            }
        }
    }

    #[test]
    fn every_in_process_operation_rejects_a_broken_document() {
        each_schemaless_runner_of(true, |name, op, mut run| {
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

    /// What each pipeline should do to `doc`, worked out on roxmltree without XPath:
    /// `(selected, elements left)`. Written for the Primer's `po.xml` shape (no namespace) and
    /// for documents where none of the five selections nest.
    pub(crate) fn pipeline_oracle(doc: &[u8], e: PipelineExpr) -> (u64, u64) {
        use roxmltree::Node;
        fn elements(n: Node<'_, '_>) -> u64 {
            n.descendants().filter(|d| d.is_element()).count() as u64
        }
        fn children<'a, 'i>(n: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
            n.children().filter(|c| c.is_element())
        }
        fn named(n: Node<'_, '_>, name: &str) -> bool {
            n.is_element() && n.tag_name().name() == name && n.tag_name().namespace().is_none()
        }
        let text = std::str::from_utf8(doc).unwrap();
        let d = roxmltree::Document::parse(text).unwrap();
        let total = elements(d.root());
        let root = d.root_element();
        let grandchildren = || children(root).flat_map(children);
        let mut selected = Vec::new();
        match e {
            PipelineExpr::EvenGrandchildren => {
                for c in children(root) {
                    selected.extend(children(c).skip(1).step_by(2));
                }
            }
            PipelineExpr::CheapItems => {
                if named(root, "purchaseOrder") {
                    for items in children(root).filter(|c| named(*c, "items")) {
                        selected.extend(children(items).filter(|i| {
                            named(*i, "item")
                                && children(*i).any(|p| {
                                    named(p, "USPrice")
                                        && p.text()
                                            .unwrap_or("")
                                            .trim()
                                            .parse::<f64>()
                                            .is_ok_and(|v| v < 100.0)
                                })
                        }));
                    }
                }
            }
            PipelineExpr::QuantityText => {
                for g in grandchildren() {
                    for q in children(g).filter(|q| named(*q, "quantity")) {
                        selected.extend(q.children().filter(|t| t.is_text()));
                    }
                }
            }
            PipelineExpr::ItemComments | PipelineExpr::CommentedQuantities => {
                for item in d.descendants().filter(|i| named(*i, "item")) {
                    let comments = children(item).filter(|c| named(*c, "comment")).count();
                    if e == PipelineExpr::ItemComments {
                        selected.extend(children(item).filter(|c| named(*c, "comment")));
                    } else if comments > 0 {
                        selected.extend(children(item).filter(|c| named(*c, "quantity")));
                    }
                }
            }
        }
        let removed: u64 = selected.iter().map(|n| elements(*n)).sum();
        (selected.len() as u64, total - removed)
    }

    /// The elements of `doc`, read to the end with xwire's reader (an error if it is not
    /// well-formed).
    pub(crate) fn elements_of(doc: &[u8]) -> Result<u64, String> {
        let mut r = xwire::Reader::from_slice(doc);
        let mut elements = 0u64;
        loop {
            match r.next().map_err(|e| e.to_string())? {
                xwire::Event::Start(_) => elements += 1,
                xwire::Event::Eof => return Ok(elements),
                _ => {}
            }
        }
    }

    /// The purchase order of the pipeline benchmark's smallest file (~7 KB).
    fn small_po() -> Vec<u8> {
        let w = crate::workloads::named("latency-small").expect("workload");
        assert!(w.pipelines, "latency-small is in the pipeline set");
        w.load(0, crate::workloads::DEFAULT_SEED).unwrap()
    }

    #[test]
    fn pipeline_peers_agree_with_the_oracle_on_a_small_po() {
        let po = small_po();
        assert!((6_000..8_000).contains(&po.len()), "{} bytes", po.len());
        for e in PipelineExpr::ALL {
            let op = Op::Pipeline(e);
            let (selected, left) = pipeline_oracle(&po, e);
            // The expressions match the document (no namespace in the way).
            assert!(selected > 0, "{} selects nothing", e.xpath());
            let expected = pipeline_checksum(selected, left);
            let mut tried = Vec::new();
            for p in all().iter().filter(|p| p.can(op)) {
                let Some(run) = p.prepare(op, &Setup::default()) else {
                    continue;
                };
                let mut run = run.unwrap_or_else(|err| panic!("{} {op}: {err}", p.name));
                // Twice: the compiled expression is reused.
                for _ in 0..2 {
                    assert_eq!(run(&po), Ok(expected), "{} {}", p.name, e.xpath());
                }
                tried.push(p.name);
            }
            if std::env::var("CI").as_deref() == Ok("true") {
                for name in ["libxml2-dom", "pugixml"] {
                    assert!(tried.contains(&name), "{name} did not run {op} under CI");
                }
            }
            // xwire's pipelines are not there yet (issue 4): it must say "cannot", not fake it.
            let x = all().into_iter().find(|p| p.name == "xwire").unwrap();
            assert!(!x.can(op) || tried.contains(&"xwire"));
        }
    }

    #[test]
    fn pipeline_peers_agree_with_each_other_on_other_documents() {
        let mut docs = vec![TEST_DOC.to_vec()];
        docs.push(
            crate::workloads::named("latency-medium")
                .unwrap()
                .load(30_000, 3)
                .unwrap(),
        );
        for e in PipelineExpr::ALL {
            let op = Op::Pipeline(e);
            for doc in &docs {
                let sums: Vec<(&str, Outcome)> = all()
                    .iter()
                    .filter_map(|p| Some((p.name, p.prepare(op, &Setup::default())?.ok()?(doc))))
                    .collect();
                for w in sums.windows(2) {
                    assert_eq!(w[0].1, w[1].1, "{} and {} on {}", w[0].0, w[1].0, e.xpath());
                }
            }
        }
    }

    #[test]
    fn pipeline_outputs_are_well_formed_and_hold_what_is_left() {
        let po = small_po();
        let shims = [
            ("libxml2-dom", c::LIBXML2_PIPELINE),
            ("pugixml", cpp::PUGIXML_PIPELINE),
        ];
        for (name, shim) in shims {
            let Some(shim) = shim else {
                eprintln!("skipping {name}: not built");
                continue;
            };
            for e in PipelineExpr::ALL {
                let mut c = shim.compile(e).unwrap();
                let (sum, out) = c.run(&po, true).unwrap();
                let out = out.expect("kept");
                let elements = elements_of(&out).unwrap_or_else(|err| {
                    panic!("{name} {}: output not well-formed: {err}", e.xpath())
                });
                assert_eq!(
                    sum / 1_000_003,
                    elements,
                    "{name} {}: elements written",
                    e.xpath()
                );
                let (selected, left) = pipeline_oracle(&po, e);
                assert_eq!(
                    sum,
                    pipeline_checksum(selected, left),
                    "{name} {}",
                    e.xpath()
                );
            }
        }
    }

    #[test]
    fn pipeline_ops_by_name() {
        assert_eq!(Op::from_names("pipeline").unwrap().len(), 5);
        for (i, op) in Op::pipelines().enumerate() {
            assert_eq!(Op::from_name(&format!("pipeline{}", i + 1)), Some(op));
            let Op::Pipeline(e) = op else { unreachable!() };
            assert_eq!(e.number(), i + 1);
            assert!(op.title().ends_with(e.xpath()));
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"pipeline{}\"", i + 1));
            assert_eq!(serde_json::from_str::<Op>(&json).unwrap(), op);
        }
        assert!(Op::from_names("pipeline6").is_none());
        assert_eq!(serde_json::to_string(&Op::Parse).unwrap(), "\"parse\"");
    }

    #[test]
    fn every_validating_peer_has_its_parse_beside() {
        let all = all();
        for p in all.iter().filter(|p| p.can(Op::Validate)) {
            let (q, op) = validate_beside(p.name)
                .unwrap_or_else(|| panic!("{} has no parse in VALIDATE_BESIDE", p.name));
            let q = all.iter().find(|x| x.name == q).expect("a known peer");
            assert!(q.can(op), "{} cannot {op}", q.name);
            assert!(!op.needs_schema());
        }
        let chosen = select(Some("libxml2-xsd,lxml,xerces-sax2,xerces-sax2-validating")).unwrap();
        let v = beside_validating(&chosen, &[Op::Validate]);
        let names: Vec<&str> = v.iter().map(|p| p.name).collect();
        assert_eq!(names, ["libxml2-sax"]);
        assert!(beside_validating(&chosen, &[Op::Parse]).is_empty());
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
