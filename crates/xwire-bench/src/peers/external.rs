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
//! driver (at least `min_runs`, at most `max_runs`, stop after `budget_s`). For `encode` and
//! `decode` a result also gives `encoded_bytes`, the size of the binary form the run wrote or
//! read (the BXSA experiment's size table, [`crate::bxsa`]). A peer with nothing for a task's
//! workload (a `bind` peer given a schema it has no types or checksum for) answers
//! `unsupported` with its reason instead of timings, and the cell is "cannot", as for an
//! in-process peer's [`super::NOT_HERE`]. A caller may bound a request's time
//! ([`Harness::measure_within`]): the harness is killed when it runs over.
//!
//! Each harness also answers `--probe` with one JSON line per peer it can run on this machine:
//! `{"peer": "woodstox", "ops": ["parse"], "checks": "...", "version": "6.6.2"}`, so a missing
//! jar or pip package shows up as a missing peer, never as a failure.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Engine, Lang, Op, Peer, PipelineExpr};

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
    /// Tests only: after timing, run once more and write what the run wrote (reserialize,
    /// pipelines) to this file, so that its well-formedness can be checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<PathBuf>,
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
    /// `encode` and `decode`: size in bytes of the binary form written or read.
    #[serde(default)]
    pub encoded_bytes: Option<u64>,
    /// The processor's error, when it failed.
    pub error: Option<String>,
    /// Why the peer has nothing for this task's workload, when it has not (not a failure).
    #[serde(default)]
    pub unsupported: Option<String>,
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
        self.measure_within(tasks, None)
    }

    /// Runs `tasks`, killing the harness (an error) if it has not answered within `limit`;
    /// results in task order.
    pub fn measure_within(
        &self,
        tasks: Vec<Task>,
        limit: Option<Duration>,
    ) -> Result<Vec<TaskResult>, String> {
        let n = tasks.len();
        let req = Request::Measure {
            peer: self.peer.clone(),
            tasks,
        };
        let mut out: Vec<TaskResult> = self.call(&req, limit)?;
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
        let mut v: Vec<ThroughputResult> = self.call(&req, None)?;
        v.pop()
            .ok_or_else(|| format!("harness for {} gave no result", self.peer))
    }

    fn call<T: for<'de> Deserialize<'de>>(
        &self,
        req: &Request,
        limit: Option<Duration>,
    ) -> Result<Vec<T>, String> {
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
        // Both pipes are read on threads, so that neither can fill up and block the harness
        // while this thread waits for it.
        let mut stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let out = std::thread::spawn(move || {
            let mut s = String::new();
            stdout.read_to_string(&mut s).map(|_| s)
        });
        let err = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let status = match limit {
            None => child.wait().map_err(|e| format!("{program}: {e}"))?,
            Some(limit) => {
                let start = Instant::now();
                loop {
                    match child.try_wait() {
                        Ok(Some(status)) => break status,
                        Ok(None) if start.elapsed() > limit => {
                            let _ = child.kill();
                            let _ = child.wait();
                            return Err(format!(
                                "the harness for {} did not finish within {} s (killed)",
                                self.peer,
                                limit.as_secs_f64()
                            ));
                        }
                        Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                        Err(e) => return Err(format!("{program}: {e}")),
                    }
                }
            }
        };
        let out = out
            .join()
            .map_err(|_| "harness output reader panicked".to_string())?
            .map_err(|e| format!("{program}: {e}"))?;
        let err = err.join().unwrap_or_default();
        if !status.success() {
            return Err(format!(
                "harness for {} failed ({}): {}",
                self.peer,
                status,
                err.trim()
            ));
        }
        let mut results = Vec::new();
        for line in out.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str(line) {
                Ok(r) => results.push(r),
                Err(e) => return Err(format!("harness answered '{line}': {e}")),
            }
        }
        Ok(results)
    }
}

/// A peer one of the harnesses knows, whether or not it runs here.
struct Known {
    name: &'static str,
    ops: &'static [Op],
    checks: &'static str,
}

/// The Java harness's peers (bench/java), in report order.
const JAVA: &[Known] = &[
    Known {
        name: "jdk-stax",
        ops: &[Op::Parse],
        checks:
            "the JDK's built-in StAX (SJSXP lineage): well-formedness, namespaces, internal DTD",
    },
    Known {
        name: "woodstox",
        ops: &[Op::Parse],
        checks: "well-formedness, namespaces, internal DTD (StAX, not validating)",
    },
    Known {
        name: "aalto",
        ops: &[Op::Parse],
        checks: "well-formedness, namespaces (StAX); a reference to a DTD-declared entity is an error",
    },
    Known {
        name: "xerces-j-sax",
        ops: &[Op::Push],
        checks: "everything a non-validating parser checks; SAX2 with namespaces",
    },
    Known {
        name: "xerces-j-dom",
        ops: &super::with_pipelines([Op::Tree, Op::Reserialize]),
        checks: "as xerces-j-sax; builds a (deferred) DOM and walks it; LSSerializer to bytes; \
                 pipelines through the JDK's built-in XPath (javax.xml.xpath) on the Xerces DOM",
    },
    Known {
        name: "xerces-j-validating",
        ops: &[Op::Validate],
        checks: "XML Schema 1.0 validation (Xerces-J), schema compiled once, a ValidatorHandler fed by SAX",
    },
    Known {
        name: "vtd-xml",
        ops: &super::with_pipelines([Op::Index, Op::Reserialize]),
        checks: "well-formedness and namespace prefixes; a DTD-declared entity is an error; text read as stored \
                 (CR LF not normalised); reserialize and pipelines through XMLModifier (byte splices)",
    },
    Known {
        name: "exificient",
        ops: &[Op::Encode, Op::Decode],
        checks: "EXI 1.0, default options: schema-less, no comments/PIs/DTD/prefixes, \
                 whitespace-only text between elements dropped (decode checksum lower); \
                 encode includes the Xerces SAX parse of the text; reports the EXI size",
    },
];

/// The Python harness's peers (bench/python), in report order.
const PYTHON: &[Known] = &[
    Known {
        name: "lxml",
        ops: &[
            Op::Parse,
            Op::Tree,
            Op::Reserialize,
            Op::Validate,
            Op::Pipeline(PipelineExpr::EvenGrandchildren),
            Op::Pipeline(PipelineExpr::CheapItems),
            Op::Pipeline(PipelineExpr::QuantityText),
            Op::Pipeline(PipelineExpr::ItemComments),
            Op::Pipeline(PipelineExpr::CommentedQuantities),
        ],
        checks: "libxml2 through lxml: well-formedness, namespaces, internal DTD; XML Schema 1.0",
    },
    Known {
        name: "xmlschema",
        ops: &[Op::Tree, Op::Validate],
        checks: "XML Schema 1.0 in pure Python (xmlschema) on an xml.etree tree; tree: the same \
                 XMLResource parse and walk without validation",
    },
    Known {
        name: "python-expat",
        ops: &[Op::Push],
        checks: "the standard library's expat binding with namespaces; callbacks in Python",
    },
    Known {
        name: "xsdata",
        ops: &[Op::Bind],
        checks: "xsdata's dataclasses (`xsdata generate` on po.xsd, ipo.xsd and \
                 purchase-orders.xsd, before timing), read by its XmlParser with \
                 XmlEventHandler (expat through xml.etree: well-formedness, namespaces; the \
                 default LxmlEventHandler parses with lxml's recover=True and accepts broken \
                 documents) and its strictest stock config: element and attribute names, \
                 required elements and attributes, values that convert to their Python type \
                 (int, Decimal, XmlDate: numbers in Python's syntax, so 1_0, NaN and 1e2 \
                 pass), enumerations, fixed values, xsi:type (ipo's addresses); not facets \
                 (quantity < 100, positiveInteger's lower bound, the SKU pattern, lengths: \
                 xsdata keeps them as metadata), element order, text in element-only content \
                 or the root's name (the class is given)",
    },
];

/// How to install the harnesses, for the reasons of missing peers.
const HOW: &str = "scripts/install-peers.sh builds bench/java with Maven and pip-installs \
                   bench/python/requirements.txt";

/// How long a `--probe` may take before the harness is taken as broken.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// One line of a harness's `--probe` answer.
#[derive(Clone, Debug, Deserialize)]
struct ProbeLine {
    peer: String,
    ops: Vec<String>,
    version: String,
}

/// A harness's command and what its probe answered, or why it cannot run.
type Probed = Result<(Vec<String>, Vec<ProbeLine>), String>;

/// The repository root (the harnesses live in its `bench/`).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Java harness: `java -jar bench/java/target/xwire-bench-harness.jar`, or the jar named by
/// `XWIRE_JAVA_HARNESS`.
fn java() -> &'static Probed {
    static PROBE: OnceLock<Probed> = OnceLock::new();
    PROBE.get_or_init(|| {
        let jar = std::env::var_os("XWIRE_JAVA_HARNESS")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo().join("bench/java/target/xwire-bench-harness.jar"));
        if !jar.is_file() {
            return Err(format!("{} not built ({HOW})", jar.display()));
        }
        let command = vec![
            "java".to_string(),
            "-jar".to_string(),
            jar.to_string_lossy().into_owned(),
        ];
        probe(command)
    })
}

/// The Python harness: `python3 bench/python/harness.py`.
fn python() -> &'static Probed {
    static PROBE: OnceLock<Probed> = OnceLock::new();
    PROBE.get_or_init(|| {
        let script = repo().join("bench/python/harness.py");
        let command = vec!["python3".to_string(), script.to_string_lossy().into_owned()];
        probe(command)
    })
}

/// Runs `command --probe` (killed after [`PROBE_TIMEOUT`]) and reads its answer.
fn probe(command: Vec<String>) -> Probed {
    let (program, args) = command.split_first().ok_or("empty harness command")?;
    let mut child = Command::new(program)
        .args(args)
        .arg("--probe")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program}: {e} ({HOW})"))?;
    // Read both pipes on threads so that a chatty harness cannot block on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > PROBE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`{} --probe` did not answer within {} s",
                    command.join(" "),
                    PROBE_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("{program}: {e}")),
        }
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    if !status.success() {
        let last = err.lines().last().unwrap_or("").trim().to_string();
        return Err(format!(
            "`{} --probe` failed ({status}): {last} ({HOW})",
            command.join(" ")
        ));
    }
    let lines = out
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("probe answered '{l}': {e}")))
        .collect::<Result<Vec<ProbeLine>, String>>()?;
    Ok((command, lines))
}

/// The peers of one harness: those its probe listed run in it, the others are missing.
fn harness_peers(known: &[Known], lang: Lang, probed: &Probed, absent: &str) -> Vec<Peer> {
    known
        .iter()
        .map(|k| {
            let engine = match probed {
                Ok((command, lines)) => match lines.iter().find(|l| l.peer == k.name) {
                    Some(l) => Engine::External(Harness {
                        command: command.clone(),
                        peer: k.name.to_string(),
                        ops: l
                            .ops
                            .iter()
                            .filter_map(|o| serde_json::from_value(o.as_str().into()).ok())
                            .collect(),
                        version: l.version.clone(),
                    }),
                    None => Engine::Missing {
                        reason: format!("{absent} ({HOW})"),
                        ops: k.ops.to_vec(),
                    },
                },
                Err(reason) => Engine::Missing {
                    reason: reason.clone(),
                    ops: k.ops.to_vec(),
                },
            };
            Peer {
                name: k.name,
                lang,
                checks: k.checks,
                engine,
            }
        })
        .collect()
}

/// The Java and Python peers, found by probing their harnesses (missing ones say how to get
/// them).
pub fn peers() -> Vec<Peer> {
    let mut v = harness_peers(
        JAVA,
        Lang::Java,
        java(),
        "its classes are not in the harness jar: rebuild it",
    );
    v.extend(harness_peers(
        PYTHON,
        Lang::Python,
        python(),
        "its Python package is not installed",
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::reference;

    const DOC: &[u8] = crate::peers::TEST_DOC;

    const SCHEMA: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t"
           xmlns="urn:t" elementFormDefault="qualified">
  <xs:element name="list">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="n" type="xs:int" maxOccurs="unbounded"/>
        <xs:element name="note" type="xs:string" minOccurs="0"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"#;
    const VALID: &[u8] =
        b"<list xmlns=\"urn:t\" name=\"x\">\n  <n>1</n>\n  <n>-20</n>\n  <n> 300 </n>\n  <note>\xc3\xa9t\xc3\xa9</note>\n</list>\n";
    const INVALID: &[u8] = b"<list xmlns=\"urn:t\" name=\"x\"><n>1</n><n>two</n></list>";

    /// Known disagreements with xwire's checksum, each with its reason (kept in `checks`).
    fn known_difference(peer: &str, op: Op) -> Option<&'static str> {
        match (peer, op) {
            ("exificient", Op::Decode) => {
                Some("EXI default options drop whitespace-only text between elements")
            }
            _ => None,
        }
    }

    /// A scratch directory for the documents the harnesses read.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xwire-harness-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    /// The available harness peers; under `CI=true` every one must be available, otherwise
    /// the missing ones are printed and skipped.
    fn available() -> Vec<Peer> {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        let mut out = Vec::new();
        for p in peers() {
            match p.missing() {
                Some(reason) if ci => panic!("{} is missing under CI: {reason}", p.name),
                Some(reason) => eprintln!("skipping {}: {reason}", p.name),
                None => out.push(p),
            }
        }
        out
    }

    fn harness(p: &Peer) -> &Harness {
        match &p.engine {
            Engine::External(h) => h,
            _ => panic!("{} does not run in a harness", p.name),
        }
    }

    fn task(id: usize, op: Op, file: &Path, schema: Option<&Path>) -> Task {
        Task {
            id,
            op,
            file: file.to_path_buf(),
            schema: schema.map(Path::to_path_buf),
            warmup_s: 0.05,
            min_runs: 2,
            max_runs: 20,
            budget_s: 0.02,
            copies: 2,
            output: None,
        }
    }

    #[test]
    fn a_harness_that_runs_over_its_limit_is_killed() {
        let h = Harness {
            command: ["sh", "-c", "cat >/dev/null; exec sleep 30"]
                .map(String::from)
                .to_vec(),
            peer: "sleepy".into(),
            ops: vec![Op::Parse],
            version: String::new(),
        };
        let start = Instant::now();
        let e = h
            .measure_within(Vec::new(), Some(Duration::from_millis(300)))
            .unwrap_err();
        assert!(e.contains("did not finish within 0.3 s"), "{e}");
        assert!(start.elapsed() < Duration::from_secs(10));
        // Without a limit a harness that answers nothing for no task is fine.
        let quiet = Harness {
            command: ["sh", "-c", "cat >/dev/null"].map(String::from).to_vec(),
            ..h
        };
        assert_eq!(quiet.measure(Vec::new()), Ok(Vec::new()));
    }

    #[test]
    fn every_known_peer_is_listed_once_with_its_language() {
        let v = peers();
        assert_eq!(v.len(), JAVA.len() + PYTHON.len());
        assert!(v[..JAVA.len()].iter().all(|p| p.lang == Lang::Java));
        assert!(v[JAVA.len()..].iter().all(|p| p.lang == Lang::Python));
        for p in &v {
            if let Some(reason) = p.missing() {
                assert!(!p.ops().is_empty(), "{}", p.name);
                assert!(!reason.is_empty(), "{}", p.name);
            }
        }
    }

    #[test]
    fn every_harness_operation_agrees_with_xwire() {
        let dir = scratch("agree");
        let mut docs = vec![("doc".to_string(), DOC.to_vec())];
        for name in ["po", "mesh", "soap-doubles"] {
            let w = crate::workloads::named(name).expect("workload");
            docs.push((name.to_string(), w.load(30_000, 1).expect("generated")));
        }
        let mut files = Vec::new();
        for (name, bytes) in &docs {
            let file = dir.join(format!("{name}.xml"));
            std::fs::write(&file, bytes).expect("write");
            files.push((name.clone(), file, reference(bytes).expect("xwire")));
        }
        for p in available() {
            let h = harness(&p);
            let mut tasks = Vec::new();
            let mut expected = Vec::new();
            for op in h
                .ops
                .iter()
                .copied()
                .filter(|o| !o.needs_schema() && o.has_parse_checksum())
            {
                for (name, file, sum) in &files {
                    tasks.push(task(tasks.len(), op, file, None));
                    expected.push((op, name.clone(), *sum));
                }
            }
            let results = h
                .measure(tasks)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            for (r, (op, name, sum)) in results.into_iter().zip(expected) {
                assert_eq!(r.error, None, "{} {op} on {name}", p.name);
                assert!(r.median_s.is_some() && r.min_s.is_some() && r.runs >= 2);
                if matches!(op, Op::Encode | Op::Decode) {
                    assert!(
                        r.encoded_bytes.is_some_and(|b| b > 0),
                        "{} {op} on {name}: no encoded size",
                        p.name
                    );
                }
                if let Some(why) = known_difference(p.name, op) {
                    eprintln!(
                        "{} {op} on {name}: {:?} vs {sum} ({why})",
                        p.name, r.checksum
                    );
                    assert!(r.checksum.is_some_and(|c| c > 0 && c <= sum));
                } else {
                    assert_eq!(r.checksum, Some(sum), "{} {op} on {name}", p.name);
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn harness_pipelines_agree_with_the_oracle_and_write_well_formed_output() {
        let dir = scratch("pipelines");
        let w = crate::workloads::named("latency-small").expect("workload");
        let po = w.load(0, crate::workloads::DEFAULT_SEED).unwrap();
        let file = dir.join("po.xml");
        std::fs::write(&file, &po).expect("write");
        let mut tried = Vec::new();
        for p in available() {
            let h = harness(&p);
            let ops: Vec<Op> = h.ops.iter().copied().filter(|o| o.is_pipeline()).collect();
            if ops.is_empty() {
                continue;
            }
            let tasks = ops
                .iter()
                .enumerate()
                .map(|(i, &op)| Task {
                    output: Some(dir.join(format!("{}-{op}.xml", p.name))),
                    ..task(i, op, &file, None)
                })
                .collect();
            let results = h
                .measure(tasks)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            for (r, &op) in results.iter().zip(&ops) {
                let Op::Pipeline(e) = op else { unreachable!() };
                let (selected, left) = crate::peers::tests::pipeline_oracle(&po, e);
                assert_eq!(r.error, None, "{} {op}", p.name);
                assert_eq!(
                    r.checksum,
                    Some(crate::peers::pipeline_checksum(selected, left)),
                    "{} {}",
                    p.name,
                    e.xpath()
                );
                let out = std::fs::read(dir.join(format!("{}-{op}.xml", p.name)))
                    .unwrap_or_else(|err| panic!("{} {op}: no output: {err}", p.name));
                let elements = crate::peers::tests::elements_of(&out)
                    .unwrap_or_else(|err| panic!("{} {op}: output not well-formed: {err}", p.name));
                assert_eq!(elements, left, "{} {op}: elements written", p.name);
            }
            tried.push(p.name);
        }
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            for name in ["vtd-xml", "xerces-j-dom"] {
                assert!(tried.contains(&name), "{name} ran no pipeline under CI");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn harness_reserialize_output_is_well_formed() {
        let dir = scratch("reserialize");
        let file = dir.join("doc.xml");
        std::fs::write(&file, DOC).expect("write");
        for p in available().iter().filter(|p| p.can(Op::Reserialize)) {
            let out = dir.join(format!("{}.xml", p.name));
            let r = harness(p)
                .measure(vec![Task {
                    output: Some(out.clone()),
                    ..task(0, Op::Reserialize, &file, None)
                }])
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(r[0].error, None, "{}", p.name);
            // Not every harness keeps a reserialized output (lxml does not).
            if let Ok(bytes) = std::fs::read(&out) {
                let elements = crate::peers::tests::elements_of(&bytes)
                    .unwrap_or_else(|err| panic!("{}: output not well-formed: {err}", p.name));
                assert_eq!(elements, 3, "{}", p.name);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn harness_validation_accepts_the_valid_and_rejects_the_invalid() {
        let dir = scratch("validate");
        let schema = dir.join("list.xsd");
        let valid = dir.join("valid.xml");
        let invalid = dir.join("invalid.xml");
        std::fs::write(&schema, SCHEMA).expect("write");
        std::fs::write(&valid, VALID).expect("write");
        std::fs::write(&invalid, INVALID).expect("write");
        let expected = reference(VALID).expect("xwire");
        for p in available().iter().filter(|p| p.can(Op::Validate)) {
            let r = harness(p)
                .measure(vec![
                    task(0, Op::Validate, &valid, Some(&schema)),
                    task(1, Op::Validate, &invalid, Some(&schema)),
                ])
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(r[0].error, None, "{} rejected the valid document", p.name);
            assert_eq!(r[0].checksum, Some(expected), "{}", p.name);
            assert!(
                r[1].error.is_some(),
                "{} accepted the invalid document",
                p.name
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every harness peer of `bind` gives xwire-compiled's items' sum on the workloads of the
    /// three `bind` schemas, rejects invalid and broken orders, and answers `unsupported` (not
    /// an error) for a schema it has nothing for.
    #[test]
    fn harness_bind_agrees_with_xwire_compiled() {
        let dir = scratch("bind");
        let compiled = crate::peers::in_process()
            .into_iter()
            .find(|p| p.name == "xwire-compiled")
            .expect("xwire-compiled");
        // (what, file, schema, expected: the checksum, or None for an error)
        let mut cases: Vec<(String, PathBuf, PathBuf, Option<u64>)> = Vec::new();
        for name in ["po-8k", "ipo-8k", "po"] {
            let w = crate::workloads::named(name).expect("workload");
            let doc = w.load(if name == "po" { 200_000 } else { 0 }, 7).unwrap();
            let schema = w.schema.clone().expect("a bind workload has a schema");
            let setup = crate::peers::Setup {
                schema: Some(&schema),
                document: None,
            };
            let mut run = compiled.prepare(Op::Bind, &setup).unwrap().unwrap();
            let sum = run(&doc).unwrap();
            assert!(sum > 100, "{name}: {sum}");
            let text = String::from_utf8(doc).unwrap();
            let end = text.trim_end().len();
            let variants = [
                ("valid", text.clone(), Some(sum)),
                (
                    "bad quantity",
                    text.replacen("<quantity>", "<quantity>x", 1),
                    None,
                ),
                (
                    "unknown element",
                    text.replacen("<productName>", "<foo/><productName>", 1),
                    None,
                ),
                (
                    "mismatched end tag",
                    text.replacen("</items>", "</itemz>", 1),
                    None,
                ),
                (
                    "content after the root",
                    format!("{}<x/>", &text[..end]),
                    None,
                ),
            ];
            for (what, body, expected) in variants {
                let file = dir.join(format!("{name}-{}.xml", what.replace(' ', "-")));
                std::fs::write(&file, body).expect("write");
                cases.push((format!("{name} {what}"), file, schema.clone(), expected));
            }
        }
        let numeric = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/numeric.xsd");
        let doc = dir.join("doc.xml");
        std::fs::write(&doc, DOC).expect("write");
        let mut tried = Vec::new();
        for p in available().iter().filter(|p| p.can(Op::Bind)) {
            let mut tasks: Vec<Task> = cases
                .iter()
                .enumerate()
                .map(|(i, (_, file, schema, _))| task(i, Op::Bind, file, Some(schema)))
                .collect();
            tasks.push(task(tasks.len(), Op::Bind, &doc, Some(&numeric)));
            let results = harness(p)
                .measure(tasks)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            for (r, (what, _, _, expected)) in results.iter().zip(&cases) {
                assert_eq!(r.unsupported, None, "{} on {what}", p.name);
                match expected {
                    Some(sum) => {
                        assert_eq!(r.error, None, "{} on {what}", p.name);
                        assert_eq!(r.checksum, Some(*sum), "{} on {what}", p.name);
                    }
                    None => assert!(r.error.is_some(), "{} accepted {what}", p.name),
                }
            }
            let last = results.last().expect("the numeric task");
            assert!(
                last.unsupported.is_some() && last.error.is_none() && last.checksum.is_none(),
                "{} on numeric.xsd: {last:?}",
                p.name
            );
            tried.push(p.name);
        }
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            assert!(tried.contains(&"xsdata"), "xsdata ran no bind under CI");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What xsdata leaves to a validator (its `checks`): facets pass.
    #[test]
    fn xsdata_bind_does_not_check_facets() {
        let Some(p) = available().into_iter().find(|p| p.name == "xsdata") else {
            return;
        };
        let dir = scratch("xsdata-facets");
        let w = crate::workloads::named("po-8k").expect("workload");
        let schema = w.schema.clone().expect("po.xsd");
        let text = String::from_utf8(w.load(0, 7).unwrap()).unwrap();
        let quantity = |q: &str| {
            let at = text.find("<quantity>").unwrap() + "<quantity>".len();
            let end = at + text[at..].find('<').unwrap();
            format!("{}{q}{}", &text[..at], &text[end..])
        };
        let facets = [
            ("quantity 0 (positiveInteger)", quantity("0")),
            ("quantity 100 (maxExclusive)", quantity("100")),
            ("SKU pattern", text.replacen("partNum=\"", "partNum=\"x", 1)),
        ];
        let mut tasks = Vec::new();
        for (i, (what, body)) in facets.iter().enumerate() {
            let file = dir.join(format!("{i}.xml"));
            std::fs::write(&file, body).expect("write");
            assert_ne!(body, &text, "{what}");
            tasks.push(task(i, Op::Bind, &file, Some(&schema)));
        }
        let results = harness(&p).measure(tasks).expect("xsdata");
        for (r, (what, _)) in results.iter().zip(&facets) {
            assert_eq!(r.error, None, "xsdata rejected {what}: see its checks");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn harness_broken_document_is_an_error() {
        let dir = scratch("broken");
        let file = dir.join("broken.xml");
        std::fs::write(&file, b"<a><b></a>").expect("write");
        for p in available() {
            let h = harness(&p);
            let ops: Vec<Op> = h
                .ops
                .iter()
                .copied()
                .filter(|o| !o.needs_schema())
                .collect();
            let tasks = ops
                .iter()
                .enumerate()
                .map(|(i, &op)| task(i, op, &file, None))
                .collect();
            let results = h
                .measure(tasks)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            for (r, op) in results.iter().zip(&ops) {
                assert!(r.error.is_some(), "{} {op} accepted <a><b></a>", p.name);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn harness_throughput_completes_documents() {
        let dir = scratch("throughput");
        let mut files = Vec::new();
        for (i, doc) in [DOC, VALID].iter().enumerate() {
            let f = dir.join(format!("{i}.xml"));
            std::fs::write(&f, doc).expect("write");
            files.push(f);
        }
        for p in available() {
            let h = harness(&p);
            let Some(op) = h.ops.iter().copied().find(|o| !o.needs_schema()) else {
                continue;
            };
            let r = h
                .throughput(ThroughputRequest {
                    files: files.clone(),
                    op,
                    threads: 2,
                    ramp_up_s: 0.1,
                    steady_s: 0.3,
                    ramp_down_s: 0.05,
                })
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(r.error, None, "{} {op}", p.name);
            assert!(r.tps > 0.0 && r.mean_s > 0.0, "{} {op}: {r:?}", p.name);
            assert_eq!(r.per_file_s.len(), files.len());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
