//! Benchmark documents: deterministic generators (seeded, so every run and every machine parses
//! the same bytes) and files from the shared corpora.
//!
//! Workloads come in [`Group`]s (what they probe); families that vary one parameter (array
//! length, document size) form a [`Series`], drawn as a line in the HTML report.
//!
//! Generators live in modules named after what they write: `soap` (encoded arrays, echo
//! messages), `multiref` (object graphs), `namespaces` (WS-Security, nested namespaces), `po`
//! (the XML Schema Primer's purchase orders), `workflow`, `catalog`, `genomics`, `mesh`,
//! `events`, `molecules` and `numeric`. Workloads with a schema point into
//! `crates/xwire-bench/schemas/`; a test checks every one of them with `xmllint`.

mod catalog;
mod events;
mod genomics;
mod mesh;
mod molecules;
mod multiref;
mod namespaces;
mod numeric;
mod po;
mod rng;
mod soap;
mod text;
mod workflow;

use std::path::PathBuf;

use serde::Serialize;

pub use mesh::{mesh, mesh_objects};
pub use numeric::pair_data;
pub use po::{ipo, po_primer, purchase_orders};
pub use rng::Rng;
pub use soap::{soap_doubles, Item};

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
    /// Part of the XPath-pipeline set ([`PIPELINE_WORKLOADS`]): the pipeline operations run on
    /// it (on other workloads they are not run: "cannot").
    pub pipelines: bool,
}

/// The workloads of the XPath-and-edit pipeline benchmark (issue 4, after the VTD-XML
/// article): purchase orders of the Primer's `po.xml` shape (no namespace, so the expressions'
/// plain names match) of about 7 KB, 110 KB and 1 MB, and the XMark files of 1.2 and 11.7 MB.
pub const PIPELINE_WORKLOADS: &[&str] = &[
    "latency-small",
    "latency-medium",
    "latency-big",
    "xmark-small",
    "xmark",
];

/// A generator: `(size, seed) -> document`.
pub type Generator = fn(usize, u64) -> Vec<u8>;

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
        pipelines: false,
    }
}

impl Workload {
    /// The same workload as a point of `series` at `x` counted in `unit`.
    fn in_series(mut self, series: &str, x: usize, unit: &'static str) -> Workload {
        self.series = Some(Series {
            name: series.to_string(),
            x: x as f64,
            unit,
        });
        self
    }

    /// The same workload, its size counted in `unit` rather than bytes.
    fn counting(mut self, unit: &'static str) -> Workload {
        self.size_unit = unit;
        self
    }

    /// The same workload, valid against `schemas/<file>`.
    fn with_schema(mut self, file: &str) -> Workload {
        self.schema = Some(schema_path(file));
        self
    }
}

/// The schema of the SOAP 1.1 messages (`arrays-*`, `soap-echo-*`): the echo operations, with
/// local copies of the SOAP envelope and encoding schemas imported.
pub const SOAP_SCHEMA: &str = "soapinterop.xsd";

/// A schema of `crates/xwire-bench/schemas/`.
pub fn schema_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(file)
}

fn corpus(name: &str, description: &str, rel: &'static str, quick: bool) -> Workload {
    Workload {
        name: name.into(),
        group: Group::Real,
        series: None,
        description: description.into(),
        source: Source::Corpus(rel),
        size_unit: "bytes",
        schema: None,
        quick,
        pipelines: false,
    }
}

/// `1_000` -> `"1k"`, `1_000_000` -> `"1m"`, others as they are.
fn short(n: usize) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}m", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// Lengths of the array series (log scale).
pub const ARRAY_LENGTHS: &[usize] = &[10, 100, 1_000, 10_000, 100_000];
/// Model sizes of the numeric series, in (index, value) pairs.
pub const NUMERIC_PAIRS: &[usize] = &[0, 1_000, 10_000, 100_000, 1_000_000, 5_500_000];
/// Sizes of the purchase-order series, in bytes.
pub const PO_SIZES: &[usize] = &[1_000, 8_000, 64_000, 1_000_000];
/// Object counts of the mesh series.
pub const MESH_OBJECTS: &[usize] = &[100, 1_000, 10_000, 100_000];

fn arrays() -> Vec<Workload> {
    let mut v = Vec::new();
    for &t in Item::ALL {
        for &n in ARRAY_LENGTHS {
            let quick = matches!(
                (t, n),
                (Item::Double | Item::Struct, 10_000) | (Item::Int, 1_000)
            );
            let what = match t {
                Item::Struct => {
                    "structs (varString, varInt, varDouble, each with xsi:type)".to_string()
                }
                Item::Base64 => "base64Binary values (8 to 47 bytes each)".to_string(),
                t => format!("{}s", t.name()),
            };
            let series = format!("arrays-{}", t.name());
            v.push(
                generated(
                    &format!("{series}-{n}"),
                    Group::Arrays,
                    &format!(
                        "SOAP 1.1 request carrying a SOAP-encoded array (soapenc:arrayType) of {n} {what}, xsi:type on every item: typed-array decoding, one item per element"
                    ),
                    t.generator(),
                    n,
                    quick,
                )
                .counting("elements")
                .in_series(&series, n, "elements")
                .with_schema(SOAP_SCHEMA),
            );
        }
    }
    v
}

fn namespaces() -> Vec<Workload> {
    let wssec = "WS-Security signed SOAP message in exclusive-canonical form: wsse:Security with timestamp, X.509 token and ds:Signature (one ds:Reference with transforms and DigestValue per signed part), WS-Addressing headers, wsu:Id on every signed part, namespace declarations repeated on signed elements";
    let nested = "linked list of same-named elements nested 50 deep, each in a different namespace from its parent (<a:node xmlns:a=\"urn:1\"><b:node xmlns:b=\"urn:2\">...), with prefixed attributes: namespace scoping and prefix rebinding";
    vec![
        generated(
            "wssec-signed",
            Group::Namespaces,
            &format!("{wssec}; ~8 KB"),
            namespaces::ws_security,
            8_000,
            true,
        ),
        generated(
            "wssec-signed-1m",
            Group::Namespaces,
            &format!("{wssec}; ~1 MB"),
            namespaces::ws_security,
            1_000_000,
            false,
        ),
        generated(
            "ns-nested",
            Group::Namespaces,
            &format!("{nested}; ~16 KB"),
            namespaces::nested_list,
            16_000,
            true,
        ),
        generated(
            "ns-nested-1m",
            Group::Namespaces,
            &format!("{nested}; ~1 MB"),
            namespaces::nested_list,
            1_000_000,
            false,
        ),
    ]
}

fn object_graphs() -> Vec<Workload> {
    let graph = "SOAP 1.1 multi-ref encoding of a graph of nodes: href=\"#idN\" accessors, multiRef elements with id at the end of the Body, every reference pointing forward (next edges and random forward links): id/href resolution";
    vec![
        generated("multiref-graph", Group::ObjectGraphs, &format!("{graph}; ~16 KB"), multiref::graph, 16_000, true),
        generated("multiref-graph-1m", Group::ObjectGraphs, &format!("{graph}; ~1 MB"), multiref::graph, 1_000_000, false),
        generated(
            "multiref-strings",
            Group::ObjectGraphs,
            "SOAP-encoded string array where 7 items in 8 are href references to shared multiRef strings (one per 20 items) at the end of the Body: aliasing of identical objects; ~8 KB",
            multiref::shared_strings,
            8_000,
            false,
        ),
    ]
}

fn soap_messages() -> Vec<Workload> {
    let f = |name: &str, what: &str, f: fn(usize, u64) -> Vec<u8>, size: usize, quick: bool| {
        generated(
            name,
            Group::Soap,
            &format!(
                "SOAP 1.1 rpc/encoded {what}, ~{} KB: a message of the throughput mix",
                size / 1000
            ),
            f,
            size,
            quick,
        )
        .with_schema(SOAP_SCHEMA)
    };
    vec![
        f(
            "soap-echo-string-req",
            "echoString request: one long string with escaped markup characters",
            soap::echo_string_request,
            4_000,
            false,
        ),
        f(
            "soap-echo-string-res",
            "echoStringResponse: one long string with escaped markup characters",
            soap::echo_string_response,
            4_000,
            false,
        ),
        f(
            "soap-echo-int-array-req",
            "echoIntegerArray request: encoded xsd:int array, xsi:type per item",
            soap::echo_int_array_request,
            8_000,
            true,
        ),
        f(
            "soap-echo-int-array-res",
            "echoIntegerArrayResponse: encoded xsd:int array, xsi:type per item",
            soap::echo_int_array_response,
            8_000,
            false,
        ),
        f(
            "soap-echo-struct-req",
            "echoStruct request: a struct of primitives, a nested struct and an array of structs",
            soap::echo_struct_request,
            8_000,
            false,
        ),
        f(
            "soap-echo-struct-res",
            "echoStructResponse: a struct of primitives, a nested struct and an array of structs",
            soap::echo_struct_response,
            8_000,
            true,
        ),
    ]
}

fn applications() -> Vec<Workload> {
    let mut v = vec![
        generated("workflow-moml", Group::Application, "Kepler workflow in MoML: composite actors with director, actors, ports, properties (class/value attributes), relations and links; attribute-heavy, ~300 KB", workflow::moml, 300_000, false),
        generated("workflow-bpel", Group::Application, "WS-BPEL 2.0 process: partner links, variables, scopes with assign/copy, if/else, flow with links, while, XPath expressions in text; nested, ~300 KB", workflow::bpel, 300_000, false),
        generated("mcs-query", Group::Application, "MetaData Catalog Service query: SOAP request for logical files by attribute constraints (attribute, operator, value), ~4 KB", catalog::query, 4_000, true).with_schema("mcs.xsd"),
        generated("mcs-response", Group::Application, "MetaData Catalog Service response: logical files with metadata and typed user attributes, ~64 KB", catalog::response, 64_000, false),
        generated("hapmap", Group::Application, "HapMap-like SNP genotype records: many attributes per SNP (rs, alleles, position, LSIDs) and 90 genotypes as space-separated text, ~5 MB", genomics::hapmap, 5_000_000, false),
        generated("mesh", Group::Application, "mesh interface objects (int, int, double) with namespace prefixes, ~7 MB: many tiny elements", mesh::mesh, 7_000_000, true),
    ];
    for &n in MESH_OBJECTS {
        v.push(
            generated(
                &format!("mesh-{}", short(n)),
                Group::Application,
                &format!("{n} mesh interface objects (int, int, double), 4 elements each"),
                mesh::mesh_objects,
                n,
                false,
            )
            .counting("objects")
            .in_series("mesh", n, "objects"),
        );
    }
    v.extend([
        generated("events-stream", Group::Application, "event stream: structs of sequence number, timestamp, severity and message text, ~1 MB", events::stream, 1_000_000, false),
        generated("events-wsn", Group::Application, "WS-Notification Notify message (SOAP 1.2, WS-Addressing) with NotificationMessages: subscription and producer references, topic, namespaced payload; ~16 KB", events::ws_notification, 16_000, false),
        generated("events-wse", Group::Application, "WS-Eventing event delivery (SOAP 1.2, WS-Addressing, wse:Identifier reference parameter) batching sensor readings, ~16 KB", events::ws_eventing, 16_000, false),
        generated("pdbml", Group::Application, "PDBML-like molecule record: PDBx categories, one atom_site with ~17 child elements (coordinates, B factor, residue, chain) per atom, xsi:nil; ~2 MB", molecules::pdbml, 2_000_000, false),
    ]);
    v
}

fn purchase_order_family() -> Vec<Workload> {
    let mut v = vec![generated(
        "po",
        Group::PurchaseOrders,
        "purchase orders of the XML Schema Primer, many under a namespaced root, ~5 MB",
        purchase_orders,
        5_000_000,
        true,
    )
    .with_schema("purchase-orders.xsd")];
    for &n in PO_SIZES {
        v.push(
            generated(
                &format!("po-{}", short(n)),
                Group::PurchaseOrders,
                &format!("one purchase order of the XML Schema Primer (po.xml: no namespace, addresses, items with SKU pattern and dates), ~{}", human(n)),
                po_primer,
                n,
                n == 8_000,
            )
            .in_series("po", n, "bytes")
            .with_schema("po.xsd"),
        );
    }
    for &n in PO_SIZES {
        v.push(
            generated(
                &format!("ipo-{}", short(n)),
                Group::PurchaseOrders,
                &format!("one international purchase order of the XML Schema Primer (ipo.xml: target namespace, xsi:type on derived US/UK addresses, enumerations, patterns), ~{}", human(n)),
                ipo,
                n,
                n == 8_000,
            )
            .in_series("ipo", n, "bytes")
            .with_schema("ipo.xsd"),
        );
    }
    for (name, n, quick) in [
        ("small", 7_000, true),
        ("medium", 110_000, false),
        ("big", 1_000_000, false),
    ] {
        v.push(
            generated(
                &format!("latency-{name}"),
                Group::Latency,
                &format!("{name} purchase order (Primer po.xml shape), ~{}: parse and parse+reserialize latency", human(n)),
                po_primer,
                n,
                quick,
            )
            .with_schema("po.xsd"),
        );
    }
    v
}

fn human(bytes: usize) -> String {
    if bytes >= 1_000_000 {
        format!("{} MB", bytes / 1_000_000)
    } else {
        format!("{} KB", bytes / 1_000)
    }
}

fn numeric_sets() -> Vec<Workload> {
    NUMERIC_PAIRS
        .iter()
        .map(|&n| {
            generated(
                &format!("numeric-{}", short(n)),
                Group::Numeric,
                &format!("numeric model of {n} pairs: an array of {n} 4-byte integer indices and an array of {n} 8-byte doubles, one short element per value (what binary XML compresses)"),
                numeric::pairs,
                n,
                // One size in quick runs, for the compiled table (XML Screamer's numeric-10k).
                n == 10_000,
            )
            .counting("pairs")
            .in_series("numeric", n, "pairs")
            .with_schema("numeric.xsd")
        })
        .collect()
}

fn real() -> Vec<Workload> {
    vec![
        corpus("xmark", "XMark auction document, factor 0.1 (11.7 MB, text-heavy)", "xmark/auction-f0.1.xml", true),
        corpus("xmark-small", "XMark auction document, factor 0.01 (1.2 MB, text-heavy)", "xmark/auction-f0.01.xml", false),
        corpus("soapbuilders-struct-array", "SOAPBuilders round 2 base echoStructArray request (encoded array of structs, ~1 KB)", "soap/soapbuilders/interop/Round2/Base/r2_base_015s.req.xml", false),
        corpus("soapbuilders-faults", "SOAPBuilders round 2 group B echoMultipleFaults request (~1 KB)", "soap/soapbuilders/interop/Round2/GroupB/r2_groupB_003s.req.xml", false),
        corpus("soapbuilders-complex", "SOAPBuilders round 4 group H complex rpc/encoded request with derived struct types (~1.4 KB)", "soap/soapbuilders/interop/Round4/GroupH/r4_groupH_complex_rpcenc_007w.req.xml", false),
        corpus("axiom-big-message", "Apache Axiom's reallyReallyBigMessage: a SOAP 1.1 message of ~110 KB", "soap/axiom/testing/axiom-testsuite/src/main/resources/soap/soap11/reallyReallyBigMessage.xml", false),
    ]
}

/// Every workload, in report order.
pub fn all() -> Vec<Workload> {
    let mut v = vec![generated(
        "overhead",
        Group::Overhead,
        "a single element, no attributes: setup and teardown cost of one parse",
        overhead,
        0,
        true,
    )];
    v.extend(arrays());
    v.extend(namespaces());
    v.extend(object_graphs());
    v.extend(soap_messages());
    v.extend(applications());
    v.extend(purchase_order_family());
    v.extend(numeric_sets());
    v.extend(real());
    for w in &mut v {
        w.pipelines = PIPELINE_WORKLOADS.contains(&w.name.as_str());
    }
    v
}

/// The workloads of the XPath-pipeline set, in report order.
pub fn pipelines() -> Vec<Workload> {
    all().into_iter().filter(|w| w.pipelines).collect()
}

/// The smallest document: one element, no attributes.
pub fn overhead(_size: usize, _seed: u64) -> Vec<u8> {
    b"<a/>".to_vec()
}

/// The workloads of `bench --quick`.
pub fn quick() -> Vec<Workload> {
    all().into_iter().filter(|w| w.quick).collect()
}

/// Finds a workload by name. `soap-doubles`, the former 5 MB array of doubles, names
/// `arrays-double-100000`.
pub fn named(name: &str) -> Option<Workload> {
    let name = if name == "soap-doubles" {
        "arrays-double-100000"
    } else {
        name
    };
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
    /// 300 KB, or 5,000 elements or pairs), corpus files as they are.
    pub fn load_small(&self, seed: u64) -> Vec<u8> {
        let size = match &self.source {
            Source::Generated { size, .. } if self.size_unit == "bytes" => {
                (*size / 10).min(300_000)
            }
            Source::Generated { size, .. } => (*size / 10).clamp(1, 5_000),
            Source::Corpus(_) => 0,
        };
        self.load(size, seed)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xwire::Event;

    fn stats(name: &str, doc: &[u8]) -> xwire::stats::Stats {
        xwire::stats::collect(&mut xwire::Reader::from_slice(doc), doc.len() as u64)
            .unwrap_or_else(|e| panic!("{name} is not well-formed: {e}"))
    }

    /// Every generated workload, with its generator.
    fn generators() -> Vec<(Workload, Generator)> {
        all()
            .into_iter()
            .filter_map(|w| match w.source {
                Source::Generated { f, .. } => Some((w, f)),
                Source::Corpus(_) => None,
            })
            .collect()
    }

    #[test]
    fn names_are_unique() {
        let all = all();
        for (i, w) in all.iter().enumerate() {
            assert!(
                all[i + 1..].iter().all(|v| v.name != w.name),
                "{} twice",
                w.name
            );
            assert!(!w.description.is_empty(), "{} has no description", w.name);
        }
        assert!(named("soap-doubles").is_some());
    }

    #[test]
    fn the_pipeline_set_is_primer_orders_and_xmark() {
        let set = pipelines();
        assert_eq!(set.len(), PIPELINE_WORKLOADS.len(), "every name exists");
        for w in &set {
            if let Source::Generated { .. } = w.source {
                // The expressions name purchaseOrder, items, item, USPrice, quantity and
                // comment without a prefix: the document must have no namespace.
                let doc = w.load(20_000, 1).unwrap();
                let text = std::str::from_utf8(&doc).unwrap();
                assert!(text.contains("\n<purchaseOrder "), "{}", w.name);
                assert!(!text.contains("xmlns"), "{}", w.name);
            }
        }
        let sizes: Vec<usize> = set
            .iter()
            .filter_map(|w| match w.source {
                Source::Generated { size, .. } => Some(size),
                Source::Corpus(_) => None,
            })
            .collect();
        assert_eq!(sizes, [7_000, 110_000, 1_000_000]);
    }

    #[test]
    fn the_quick_set_stays_small() {
        let quick = quick();
        assert!(
            (15..=21).contains(&quick.len()),
            "{} quick workloads",
            quick.len()
        );
    }

    #[test]
    fn generated_documents_are_well_formed_and_deterministic() {
        for (w, f) in generators() {
            let a = w.load_small(7);
            assert_eq!(a, w.load_small(7), "{} is not deterministic", w.name);
            let s = stats(&w.name, &a);
            if w.name != "overhead" {
                assert!(
                    s.elements >= 3 && s.attributes + s.namespaces_declared >= 1,
                    "{}: {s:?}",
                    w.name
                );
                assert!(a != w.load_small(8), "{}: the seed changes nothing", w.name);
            }
            if w.name != "overhead" && w.size_unit == "bytes" {
                let size = 200_000;
                let b = f(size, 7);
                assert!(
                    (size / 2..size * 2).contains(&b.len()),
                    "{}: asked for {size} bytes, got {}",
                    w.name,
                    b.len()
                );
                stats(&w.name, &b);
            }
        }
    }

    #[test]
    fn message_workloads_are_message_sized_at_their_default() {
        for (w, f) in generators() {
            let Source::Generated { size, .. } = w.source else {
                unreachable!()
            };
            if w.size_unit == "bytes" && w.name != "overhead" {
                let len = f(size, 1).len();
                assert!(
                    (size / 2..size * 2).contains(&len),
                    "{}: default {size} bytes, got {len}",
                    w.name
                );
            }
            if w.group == Group::Soap {
                assert!(size < 256 << 10, "{} is not message-sized", w.name);
            }
        }
    }

    #[test]
    fn series_grow_with_their_parameter() {
        let mut series: Vec<(String, Vec<(f64, Workload)>)> = Vec::new();
        for w in all() {
            let Some(s) = w.series.clone() else { continue };
            match series.iter_mut().find(|(n, _)| *n == s.name) {
                Some((_, v)) => v.push((s.x, w)),
                None => series.push((s.name.clone(), vec![(s.x, w)])),
            }
        }
        assert!(series.len() >= 10, "{} series", series.len());
        for (name, mut points) in series {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            // The small points only: enough to see growth, fast to check.
            let small: Vec<_> = points.iter().filter(|(x, _)| *x <= 64_000.0).collect();
            assert!(small.len() >= 2, "{name}");
            let mut last = 0;
            for (x, w) in small {
                let doc = w.load(*x as usize, 1).unwrap();
                let e = stats(&w.name, &doc).elements;
                assert!(e > last, "{name}: {e} elements at {x}, {last} before");
                last = e;
            }
        }
    }

    /// `(declared length, items)` of every `soapenc:arrayType` array of `doc`.
    fn arrays_of(doc: &[u8]) -> Vec<(usize, usize)> {
        let mut r = xwire::Reader::from_slice(doc);
        let mut depth = 0;
        // (depth of the array element, declared length, items so far)
        let mut open: Vec<(usize, usize, usize)> = Vec::new();
        let mut done = Vec::new();
        loop {
            match r.next().unwrap() {
                Event::Start(t) => {
                    depth += 1;
                    if let Some(top) = open.last_mut() {
                        if top.0 + 1 == depth {
                            top.2 += 1;
                        }
                    }
                    let declared = t.attributes().find(|a| a.local_name() == "arrayType");
                    if let Some(a) = declared {
                        let v = a.value();
                        let n = v[v.rfind('[').unwrap() + 1..v.len() - 1].parse().unwrap();
                        open.push((depth, n, 0));
                    }
                }
                Event::End(_) => {
                    if open.last().is_some_and(|top| top.0 == depth) {
                        let (_, n, items) = open.pop().unwrap();
                        done.push((n, items));
                    }
                    depth -= 1;
                }
                Event::Eof => return done,
                _ => {}
            }
        }
    }

    #[test]
    fn soap_arrays_hold_as_many_items_as_they_declare() {
        let mut seen = 0;
        for (w, f) in generators() {
            if !matches!(w.group, Group::Arrays | Group::Soap | Group::ObjectGraphs) {
                continue;
            }
            let size = if w.size_unit == "bytes" { 10_000 } else { 57 };
            for (declared, items) in arrays_of(&f(size, 3)) {
                assert_eq!(declared, items, "{}", w.name);
                seen += 1;
            }
        }
        assert!(seen >= 35, "{seen} arrays");
    }

    #[test]
    fn every_multi_ref_points_forward_to_an_id() {
        let mut hrefs = 0;
        for (w, f) in generators() {
            let doc = f(if w.size_unit == "bytes" { 20_000 } else { 50 }, 5);
            let mut r = xwire::Reader::from_slice(&doc);
            let mut pending: Vec<String> = Vec::new();
            loop {
                match r.next().unwrap() {
                    Event::Start(t) => {
                        for a in t.attributes() {
                            match a.local_name() {
                                "href" => {
                                    let v = a.value();
                                    let id = v.strip_prefix('#').expect("a local href");
                                    pending.push(id.to_string());
                                    hrefs += 1;
                                }
                                "id" => {
                                    let v = a.value();
                                    pending.retain(|p| p != v);
                                }
                                _ => {}
                            }
                        }
                    }
                    Event::Eof => break,
                    _ => {}
                }
                // An id met before its href would leave the href pending: checked at the end.
            }
            assert!(
                pending.is_empty(),
                "{}: no later id for {pending:?}",
                w.name
            );
        }
        assert!(hrefs > 100, "{hrefs} hrefs");
    }

    /// Whether `xmllint` runs here (it must under CI).
    fn xmllint_available() -> bool {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        match std::process::Command::new("xmllint")
            .arg("--version")
            .output()
        {
            Ok(o) if o.status.success() => true,
            _ if ci => panic!("xmllint is needed under CI (apt-get install libxml2-utils)"),
            _ => {
                eprintln!(
                    "note: xmllint not found; schemas not checked (apt-get install libxml2-utils)"
                );
                false
            }
        }
    }

    /// `xmllint --schema`: `Ok` when `doc` (written to `file`) is valid, else the messages.
    fn xmllint(schema: &std::path::Path, doc: &[u8], file: &std::path::Path) -> Result<(), String> {
        std::fs::write(file, doc).unwrap();
        let out = std::process::Command::new("xmllint")
            .arg("--noout")
            .arg("--schema")
            .arg(schema)
            .arg(file)
            .output()
            .unwrap();
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    #[test]
    fn documents_are_valid_against_their_schemas() {
        let with_schema: Vec<Workload> = all().into_iter().filter(|w| w.schema.is_some()).collect();
        assert!(with_schema.len() >= 12);
        if !xmllint_available() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("xwire-schema-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for w in with_schema {
            let schema = w.schema.as_ref().unwrap();
            assert!(schema.is_file(), "{}: {} missing", w.name, schema.display());
            let file = dir.join(format!("{}.xml", w.name));
            // Small, and the smallest instance a generator writes.
            for (i, doc) in [w.load_small(2), w.load(1, 3).unwrap()].iter().enumerate() {
                if let Err(e) = xmllint(schema, doc, &file) {
                    panic!(
                        "{} (instance {i}) is not valid against {}: {e}",
                        w.name,
                        schema.display()
                    );
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// xwire's validator (the `xwire` peer's): `Ok` when `doc` is valid against `schema`, else
    /// the first error. A schema that does not load panics, so it is never taken for an
    /// invalid document.
    fn xwire_validate(schema: &std::path::Path, doc: &[u8]) -> Result<(), String> {
        use xwire_schema::validate::{ValidationOptions, Validator};
        let schema = xwire_schema::model::Schema::load(schema)
            .unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
        let mut validator = Validator::new(&schema, ValidationOptions::default());
        validator.validate(doc).map_err(|e| e[0].to_string())
    }

    /// The SOAP Body takes its children laxly, and array items are checked against their
    /// `xsi:type` only: a wrong accessor name or item value must still be an error, so no
    /// validator passes the SOAP (MCS included) and numeric workloads by skipping their
    /// payload. Checked with xwire's validator, and with `xmllint` where it runs.
    #[test]
    fn soap_and_numeric_payloads_are_validated_not_skipped() {
        for w in all() {
            let soap = matches!(w.group, Group::Arrays | Group::Soap);
            let schema = w.schema.as_ref().map(|s| s.file_name().unwrap().to_owned());
            assert_eq!(
                soap,
                schema.as_deref() == Some(SOAP_SCHEMA.as_ref()),
                "{}",
                w.name
            );
            if w.group == Group::Numeric {
                assert!(w.schema.is_some(), "{}", w.name);
            }
        }
        let xmllint_runs = xmllint_available();
        let dir = std::env::temp_dir().join(format!("xwire-schema-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases = [
            ("arrays-int-10", "\"xsd:int\">", "\"xsd:int\">x"),
            ("arrays-float-10", "\"xsd:float\">", "\"xsd:float\">x"),
            ("arrays-double-10", "\"xsd:double\">", "\"xsd:double\">x"),
            (
                "arrays-base64-10",
                "\"xsd:base64Binary\">",
                "\"xsd:base64Binary\">=",
            ),
            ("arrays-struct-10", "\"xsd:double\">", "\"xsd:double\">x"),
            ("arrays-string-10", "inputArray", "inputArrays"),
            (
                "soap-echo-int-array-req",
                "inputIntegerArray",
                "inputArray2",
            ),
            ("soap-echo-struct-res", "\"xsd:float\">", "\"xsd:float\">x"),
            ("soap-echo-string-req", "inputString", "inputText"),
            ("numeric-1k", "<d>", "<d>x"),
            // The MCS query: its operation in the Body and its Header entry are declared by
            // mcs.xsd, so both are validated strictly.
            ("mcs-query", "</mcs:operator>", "x</mcs:operator>"),
            ("mcs-query", "mcs:value>", "mcs:val>"),
            ("mcs-query", "<mcs:value>", "<mcs:value>#"),
            ("mcs-query", "logic=\"and\"", "logic=\"or\""),
            ("mcs-query", "mcs:user>", "mcs:username>"),
            ("mcs-query", "<mcs:name>runNumber<", "<mcs:name>experiment<"),
        ];
        for (name, from, to) in cases {
            let w = named(name).unwrap();
            let doc = String::from_utf8(w.load_small(4)).unwrap();
            assert!(doc.contains(from), "{name}: no {from}");
            let bad = doc.replace(from, to);
            let schema = w.schema.as_ref().unwrap();
            assert_eq!(xwire_validate(schema, doc.as_bytes()), Ok(()), "{name}");
            assert!(
                xwire_validate(schema, bad.as_bytes()).is_err(),
                "{name} with {to} instead of {from} passed xwire's validator"
            );
            let file = dir.join(format!("{name}.xml"));
            assert!(
                !xmllint_runs || xmllint(schema, bad.as_bytes(), &file).is_err(),
                "{name} with {to} instead of {from} passed xmllint"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn corpus_workloads_exist_and_are_well_formed() {
        if xwire_conformance::corpora_dir().is_none() {
            eprintln!("note: corpora not found; corpus workloads not checked");
            return;
        }
        for w in all()
            .into_iter()
            .filter(|w| matches!(w.source, Source::Corpus(_)))
        {
            let doc = w.load(0, 0).unwrap_or_else(|e| panic!("{}: {e}", w.name));
            let s = stats(&w.name, &doc);
            assert!(s.elements > 10, "{}", w.name);
        }
    }
}
