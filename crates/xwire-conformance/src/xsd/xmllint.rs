//! A reference [`XsdProcessor`]: libxml2's `xmllint` run as a subprocess
//! (`xmllint --noout --nonet --schema S.xsd I.xml`). It proves the harness and gives a peer
//! comparison; it is not part of xwire.
//!
//! - Schema verdict: xmllint has no schema-only mode, so the schema is compiled while
//!   validating a one-element probe document; exit code 5 ("failed to compile") means the
//!   schema was rejected, any other code that it was accepted.
//! - Several schema documents: as `common/xsts.xsd` suggests, a generated wrapper schema
//!   document for an otherwise unused namespace holds one `xs:import` per document, in order,
//!   with the document's target namespace and absolute location. (libxml2 skips a second
//!   import of a namespace it already imported, so two documents of one namespace that do not
//!   include each other are not both read: a known xmllint limitation, counted against it.)
//! - No schema documents (a group testing the built-in components only): the wrapper with no
//!   imports.
//! - Instance verdict: exit code 0 is valid; anything else (3 invalid, 1 not well-formed, ...)
//!   is invalid, with xmllint's messages.
//! - `--nonet`: nothing is fetched from the network. A call still running after
//!   [`XmllintProcessor::timeout`] is killed and reported as a panic (no verdict), which the
//!   runner counts as a failure whatever the expected result.
//! - libxml2's character tables are from Unicode 4.0, so its feature token is
//!   `Unicode_4.0.0`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use xwire::{Config, Event, Reader};

use super::XsdProcessor;

const WRAPPER_NS: &str = "urn:xwire:xsts-wrapper";

/// libxml2's `xmllint` as an XSD 1.0 processor.
#[derive(Debug)]
pub struct XmllintProcessor {
    program: PathBuf,
    dir: PathBuf,
    probe: PathBuf,
    counter: AtomicUsize,
    /// How long one xmllint call may take before it is killed.
    pub timeout: Duration,
}

/// A schema xmllint compiled once: the document to pass to `--schema`.
#[derive(Debug, Clone)]
pub struct XmllintSchema {
    /// The schema document (one of the test's, or a generated wrapper).
    pub path: PathBuf,
}

impl XmllintProcessor {
    /// Finds `xmllint` on `PATH` (or `$XMLLINT`) and prepares a scratch folder for wrapper
    /// schemas; `None` when there is no usable xmllint.
    pub fn new() -> Option<XmllintProcessor> {
        let program = PathBuf::from(std::env::var("XMLLINT").unwrap_or_else(|_| "xmllint".into()));
        let ok = Command::new(&program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !ok {
            return None;
        }
        static SEQ: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "xwire-xsts-xmllint-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).ok()?;
        let probe = dir.join("probe.xml");
        std::fs::write(&probe, "<xwire-xsts-probe xmlns=\"urn:xwire:probe\"/>\n").ok()?;
        Some(XmllintProcessor {
            program,
            dir,
            probe,
            counter: AtomicUsize::new(0),
            timeout: Duration::from_secs(30),
        })
    }

    /// `xmllint --version`'s first line (`xmllint: using libxml version 20914`).
    pub fn version(&self) -> String {
        Command::new(&self.program)
            .arg("--version")
            .output()
            .map(|o| {
                let text = String::from_utf8_lossy(&o.stderr).into_owned()
                    + &String::from_utf8_lossy(&o.stdout);
                text.lines().next().unwrap_or("").to_string()
            })
            .unwrap_or_default()
    }

    /// Runs `xmllint --noout --nonet --schema schema instance`: exit code and error messages.
    /// Panics when xmllint cannot be run or does not finish in time: there is no verdict then,
    /// and the runner counts the panic as a failure whatever the expected result.
    fn lint(&self, schema: &Path, instance: &Path) -> (i32, String) {
        let mut child = Command::new(&self.program)
            .args(["--noout", "--nonet", "--schema"])
            .arg(schema)
            .arg(instance)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run xmllint: {e}"));
        let mut stderr = child.stderr.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let mut pause = Duration::from_micros(100);
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "xmllint did not finish in {} s (killed)",
                        self.timeout.as_secs()
                    );
                }
                Ok(None) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                Err(e) => panic!("waiting for xmllint: {e}"),
            }
        };
        let text = reader.join().unwrap_or_default();
        (status.code().unwrap_or(-1), messages(&text))
    }

    fn wrapper(&self, docs: &[PathBuf]) -> Result<PathBuf, String> {
        let mut s = format!(
            "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" targetNamespace=\"{WRAPPER_NS}\">\n"
        );
        for d in docs {
            let abs = d.canonicalize().unwrap_or_else(|_| d.clone());
            let ns = target_namespace(&abs);
            s.push_str("  <xs:import");
            if let Some(ns) = ns {
                s.push_str(&format!(" namespace=\"{}\"", escape(&ns)));
            }
            s.push_str(&format!(
                " schemaLocation=\"{}\"/>\n",
                escape(&abs.to_string_lossy())
            ));
        }
        s.push_str("</xs:schema>\n");
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!("wrapper-{n}.xsd"));
        std::fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }
}

impl Drop for XmllintProcessor {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// xmllint's errors, without the warnings and source excerpts around them (all of its output
/// when no line is an error).
fn messages(stderr: &str) -> String {
    let keep = |l: &&str| {
        l.contains("error") || l.contains("fails to validate") || l.contains("failed to compile")
    };
    let errors: Vec<&str> = stderr.lines().filter(keep).collect();
    if errors.is_empty() {
        stderr.trim().to_string()
    } else {
        errors.join("\n")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// The `targetNamespace` of a schema document's root element (`None` when absent or when
/// the document cannot be read: xmllint then reports the problem itself).
fn target_namespace(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let mut r = Reader::with_config(&bytes, Config::default());
    loop {
        match r.next().ok()? {
            Event::Start(t) => return t.attribute("targetNamespace").map(str::to_string),
            Event::Eof => return None,
            _ => {}
        }
    }
}

impl XsdProcessor for XmllintProcessor {
    type Schema = XmllintSchema;

    fn name(&self) -> String {
        "xmllint".into()
    }

    fn features(&self) -> Vec<String> {
        vec!["Unicode_4.0.0".into()]
    }

    fn load(&self, docs: &[PathBuf]) -> Result<XmllintSchema, String> {
        let path = match docs {
            [one] => one.clone(),
            _ => self.wrapper(docs)?,
        };
        let (code, text) = self.lint(&path, &self.probe);
        if code == 5 {
            return Err(text);
        }
        Ok(XmllintSchema { path })
    }

    fn validate(&self, schema: &XmllintSchema, instance: &Path) -> Result<(), String> {
        let (code, text) = self.lint(&schema.path, instance);
        if code == 0 {
            Ok(())
        } else {
            Err(if text.is_empty() {
                format!("xmllint exit code {code}")
            } else {
                text
            })
        }
    }
}
