//! # xwire-cli
//!
//! The `xwire` command line: a thin shell over the libraries. Each command parses its
//! arguments (clap, derived from the structs of its module), calls one library entry point and
//! turns the result into output and an exit code; the work is in `xwire`, `xwire-schema`,
//! `xwire-codegen`, `xwire-conformance` and, for `bench` and `gen`, `xwire-bench`.
//!
//! | command | module | library |
//! |---|---|---|
//! | `parse` | here | `xwire::Reader`, `xwire::stats` |
//! | `fmt` | `fmt` | `xwire::writer` |
//! | `canon` | `canon` | `xwire::c14n` (node sets over `xwire::tree`) |
//! | `xpath` | `xpath` | `xwire::xpath` over `xwire::tree` |
//! | `edit` | `edit` | `xwire::index` and its editor |
//! | `validate`, `schema` | `schema` | `xwire_schema` |
//! | `compile` | `compile` | `xwire_codegen` |
//! | `encode`, `decode`, `inspect` | `binary` | `xwire::binary`, `xwire_schema::binary` |
//! | `conformance` | here | `xwire_conformance` |
//! | `bench`, `gen` | `bench` | `xwire_bench` |
//!
//! ```text
//! $ xwire gen po-8k -o po.xml
//! $ xwire validate --schema crates/xwire-bench/schemas/po.xsd po.xml
//! po.xml: valid
//! $ xwire xpath --count '//item[USPrice < 100]' po.xml
//! 11
//! ```
//!
//! Exit codes: 0 success, 1 the document (or a conformance run) is bad, 2 usage or I/O error;
//! `xwire xpath` follows grep: 1 when nothing is selected, 2 on any error; `xwire edit` gives 1
//! when an expression selects nothing (unless `--allow-empty`), 2 on any error. Errors are
//! printed with the file, line and column and a caret under the place (`report`).
//!
//! `bench` and `gen` come with the `bench` feature (on by default), which links the benchmark
//! suite and its peers; without it (`cargo install --path crates/xwire-cli
//! --no-default-features`) the other commands are all there and no peer is compiled
//! (`tests/features.rs` checks it).
//!
//! Where next: `docs/cli.md` documents every command and option. `cargo doc` leaves this
//! binary out (`doc = false` in its manifest: its page would overwrite the `xwire` library's).

#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

#[cfg(feature = "bench")]
mod bench;
mod binary;
mod canon;
mod compile;
mod edit;
mod fmt;
mod report;
mod schema;
mod xpath;

use xwire::stats::{self, Stats};

#[derive(Parser)]
#[command(
    name = "xwire",
    version,
    about = "Fast, conformant XML processing",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check documents for well-formedness and print their characteristics.
    Parse {
        /// Documents to read (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Stream the file through a buffered reader instead of mapping it into memory.
        #[arg(long)]
        stream: bool,
        /// Process without namespaces (plain XML 1.0 names).
        #[arg(long)]
        no_namespaces: bool,
        /// Load external entities and the external DTD subset from files below the document's
        /// folder (off by default: nothing external is ever read otherwise).
        #[arg(long)]
        load_external: bool,
        /// Print only errors.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Write the canonical form of a document (Canonical XML 1.0 or Exclusive XML
    /// Canonicalization 1.0), as XML Signature digests it.
    Canon(canon::CanonArgs),
    /// Run a conformance suite from ../shared/corpora (or $XWIRE_CORPORA).
    Conformance {
        /// Which suite.
        suite: Suite,
        /// Print the full report as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Print every failing test with the reason.
        #[arg(short, long)]
        verbose: bool,
        /// `xsd` only: the schema processor under test.
        #[arg(long, value_enum, default_value_t = XsdProcessorKind::Xmllint)]
        processor: XsdProcessorKind,
        /// `xsd` only: run only these test sets (name, file or contributor such as `ms`) or
        /// groups (`SET/GROUP`); repeatable.
        #[arg(long)]
        filter: Vec<String>,
    },
    /// Re-serialise a document through the writer (optionally pretty-printed).
    Fmt(fmt::FmtArgs),
    /// Evaluate an XPath 1.0 expression over documents and print the result (exit code 1
    /// when no node is selected, like grep).
    Xpath(xpath::XPathArgs),
    /// Edit a document through XPath selections, copying every untouched byte as it is:
    /// delete nodes, set text and attribute values, insert or replace markup.
    Edit(edit::EditArgs),
    /// Validate documents against an XML Schema 1.0 (exit code 1 when one is invalid, 2
    /// when the schema does not load).
    Validate(schema::ValidateArgs),
    /// Load an XML Schema and summarise its components (exit code 1 when it is not valid).
    Schema(schema::SchemaArgs),
    /// Generate the Rust types of an XML Schema and the parsers that read and validate
    /// documents into them (exit code 1 when the schema does not load).
    Compile(compile::CompileArgs),
    /// Encode a text XML document as binary XML (typed by a schema, `--type` or `xsi:type`).
    Encode(binary::EncodeArgs),
    /// Decode a binary XML document to text XML.
    Decode(binary::DecodeArgs),
    /// Dump a binary XML document frame by frame: offsets, kinds, byte order, sizes, names,
    /// typed values and where arrays lie.
    Inspect(binary::InspectArgs),
    /// Run the benchmark suite against the peers found on this machine (and, with the numeric
    /// workloads and encode/decode, the BXSA binary XML data-set experiment).
    #[cfg(feature = "bench")]
    Bench(bench::BenchArgs),
    /// Write a generated benchmark workload to a file.
    #[cfg(feature = "bench")]
    Gen(bench::GenArgs),
    /// Print shell completions for xwire.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Suite {
    /// W3C XML Conformance Test Suite (XML 1.0 5th edition + Namespaces 1.0).
    Xmlconf,
    /// Canonical XML vectors of libxml2 and Apache Santuario (whole documents).
    C14n,
    /// XPath 1.0 suites of jaxen and libxml2, evaluated over the tree.
    Xpath,
    /// W3C XML Schema Test Suite, XSD 1.0 schema and instance tests (see --processor).
    Xsd,
}

/// The schema processor `xwire conformance xsd` runs the suite against.
#[derive(Clone, Copy, ValueEnum)]
enum XsdProcessorKind {
    /// libxml2's xmllint as a subprocess: a reference for the harness and a peer comparison.
    Xmllint,
    /// xwire's own schema loader and validator (xwire-schema).
    Xwire,
}

/// Failure of a command: the exit code and what to print.
pub(crate) struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

fn main() -> ExitCode {
    // The matches are kept: `edit` reads the order of its actions from them.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Parse {
            files,
            stream,
            no_namespaces,
            load_external,
            quiet,
        } => parse_files(&files, stream, !no_namespaces, load_external, quiet),
        Command::Canon(args) => canon::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Xpath(args) => xpath::run(&args),
        Command::Edit(args) => {
            let sub = matches
                .subcommand_matches("edit")
                .expect("the edit subcommand");
            edit::run(&args, sub)
        }
        Command::Conformance {
            suite: Suite::Xsd,
            json,
            verbose,
            processor,
            filter,
        } => conformance_xsd(processor, &filter, json, verbose),
        Command::Conformance {
            suite,
            json,
            verbose,
            ..
        } => conformance(suite, json, verbose),
        Command::Validate(args) => schema::validate(&args),
        Command::Schema(args) => schema::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Encode(args) => binary::encode(&args),
        Command::Decode(args) => binary::decode(&args),
        Command::Inspect(args) => binary::inspect(&args),
        #[cfg(feature = "bench")]
        Command::Bench(args) => bench::bench(args),
        #[cfg(feature = "bench")]
        Command::Gen(args) => bench::generate(args),
        Command::Completions { shell } => {
            // Generated into memory and written once: `generate` panics when stdout is closed
            // early (`xwire completions bash | head`), where a closed pipe is no error.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "xwire", &mut script);
            match std::io::stdout().lock().write_all(&script) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(Failure::usage(format!("xwire: {e}")))
                }
                _ => Ok(()),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("{}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

/// A whole input document: the file at `path`, or standard input for `-`, read into memory.
///
/// Not mapped (`xwire::MappedFile`): a document is read once, and the reader's zero-copy
/// views rest on the bytes not changing after they were checked, which a mapping of a file
/// someone else may truncate or rewrite cannot promise.
pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    if path.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut v)
            .map_err(|e| Failure::usage(format!("xwire: standard input: {e}")))?;
        return Ok(v);
    }
    std::fs::read(path).map_err(|e| Failure::usage(format!("xwire: {}: {e}", path.display())))
}

fn parse_files(
    files: &[PathBuf],
    stream: bool,
    namespaces: bool,
    load_external: bool,
    quiet: bool,
) -> Result<(), Failure> {
    let mut worst = 0u8;
    let mut out = std::io::stdout().lock();
    for path in files {
        let mut config = xwire::Config::default();
        config.namespaces = namespaces;
        config.base_uri = Some(path.to_string_lossy().into_owned());
        let outcome = if stream && path.as_os_str() != "-" {
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::usage(format!("xwire: {}: {e}", path.display())))?;
            let size = file.metadata().map(|m| m.len()).unwrap_or(0);
            let mut r = xwire::Reader::from_reader(
                std::io::BufReader::with_capacity(1 << 16, file),
                config,
            );
            if load_external {
                r.set_resolver(resolver_for(path));
            }
            stats::collect(&mut r, size).map_err(|e| (e, None))
        } else {
            let input = read_input(path)?;
            let bytes = &input[..];
            let mut r = xwire::Reader::with_config(bytes, config);
            if load_external {
                r.set_resolver(resolver_for(path));
            }
            stats::collect(&mut r, bytes.len() as u64).map_err(|e| (e, Some(bytes.to_vec())))
        };
        match outcome {
            Ok(s) => {
                if !quiet {
                    let _ = writeln!(out, "{}: well-formed\n{}", path.display(), render(&s));
                }
            }
            Err((e, bytes)) => {
                // A read that failed is an I/O error (2), not a bad document (1).
                let io = matches!(e.kind(), xwire::ErrorKind::Io(_));
                worst = worst.max(if io { 2 } else { 1 });
                let bytes = match bytes {
                    Some(b) => Some(b),
                    None => std::fs::read(path).ok(),
                };
                eprintln!(
                    "{}",
                    report::error_with_caret(&path.display().to_string(), &e, bytes.as_deref())
                );
            }
        }
    }
    if worst > 0 {
        Err(Failure {
            code: worst,
            message: String::new(),
        })
    } else {
        Ok(())
    }
}

/// A document's characteristics, one indented line each, as `xwire parse` prints them.
fn render(s: &Stats) -> String {
    let mut out = format!(
        "  size: {} bytes\n  elements: {}\n  attributes: {}\n  max depth: {}\n  distinct element names: {}\n  attributes per element: {:.2}\n  namespace declarations: {}\n  text: {} bytes",
        s.size,
        s.elements,
        s.attributes,
        s.max_depth,
        s.distinct_names,
        s.attributes_per_element(),
        s.namespaces_declared,
        s.text_bytes
    );
    if s.skipped_entities > 0 {
        out.push_str(&format!(
            "\n  entity references not read: {} (external entities are read only with --load-external)",
            s.skipped_entities
        ));
    }
    out
}

fn resolver_for(path: &Path) -> xwire::FsResolver {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    xwire::FsResolver::new(dir)
}

fn conformance(suite: Suite, json: bool, verbose: bool) -> Result<(), Failure> {
    let Some(corpora) = xwire_conformance::corpora_dir() else {
        return Err(Failure::usage("xwire: corpora not found: set XWIRE_CORPORA or run from a checkout beside ../shared/corpora"));
    };
    let report = match suite {
        Suite::Xmlconf => xwire_conformance::xmlconf::run(&corpora.join("xmlconf")),
        Suite::C14n => xwire_conformance::c14n::run(&corpora.join("c14n")),
        Suite::Xpath => xwire_conformance::xpath::run(&corpora.join("xpath")),
        Suite::Xsd => unreachable!("run by conformance_xsd"),
    }
    .map_err(|e| Failure::usage(format!("xwire: {e}")))?;
    let known = xwire_conformance::known_failures(&report.suite);
    if json {
        println!("{}", report.to_json());
    } else {
        for r in &report.results {
            if let xwire_conformance::Outcome::Fail(why) = &r.outcome {
                let listed = known.iter().any(|(id, _)| id == &r.id);
                if verbose || !listed {
                    println!(
                        "FAIL {}{}: {}",
                        r.id,
                        if listed { " (known)" } else { "" },
                        why
                    );
                }
            }
        }
        println!("{}", report.summary());
    }
    let (_, failed, _) = report.counts();
    if failed > 0 {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    } else {
        Ok(())
    }
}

/// Runs `f` without the default panic hook's report: the xsd runner catches a processor's
/// panics and reports each as that test's failure, with its message.
fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = f();
    std::panic::set_hook(hook);
    r
}

/// `xwire conformance xsd`: the W3C XML Schema Test Suite against the chosen processor. Exit
/// code 1 when a test fails that is not in `known-failures/xsd.txt`.
fn conformance_xsd(
    processor: XsdProcessorKind,
    filter: &[String],
    json: bool,
    verbose: bool,
) -> Result<(), Failure> {
    use xwire_conformance::xsd;
    let Some(corpora) = xwire_conformance::corpora_dir() else {
        return Err(Failure::usage("xwire: corpora not found: set XWIRE_CORPORA or run from a checkout beside ../shared/corpora"));
    };
    let dir = corpora.join("xsdtests");
    let options = xsd::RunOptions {
        filter: filter.to_vec(),
    };
    let report = match processor {
        XsdProcessorKind::Xmllint => {
            let Some(p) = xsd::xmllint::XmllintProcessor::new() else {
                return Err(Failure::usage(
                    "xwire: xmllint not found (install libxml2-utils, or set XMLLINT)",
                ));
            };
            if !json {
                println!("{}", p.version());
            }
            quietly(|| xsd::run(&dir, &p, &options))
        }
        XsdProcessorKind::Xwire => {
            let p = xsd::xwire::XwireProcessor::new();
            quietly(|| xsd::run(&dir, &p, &options))
        }
    }
    .map_err(|e| Failure::usage(format!("xwire: {e}")))?;
    if !filter.is_empty() && report.results.is_empty() && report.excluded == (0, 0) {
        return Err(Failure::usage(format!(
            "xwire: no test set or group matches {}",
            filter.join(", ")
        )));
    }
    // The known failures are xwire's; for a peer every failure counts.
    let known = match processor {
        XsdProcessorKind::Xwire => xwire_conformance::known_failures(xsd::KNOWN_FAILURES),
        XsdProcessorKind::Xmllint => Vec::new(),
    };
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.render(&known, verbose));
    }
    let (regressions, _) = report.failures(&known);
    if regressions.is_empty() {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    }
}
