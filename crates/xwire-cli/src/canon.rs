//! `xwire canon`: the canonical form of a document (Canonical XML 1.0 or 1.1, or Exclusive XML
//! Canonicalization 1.0), or of the document subset an XPath expression selects, written to
//! standard output or a file.

use std::io::Write;
use std::path::{Path, PathBuf};

use xwire::c14n::{C14nError, C14nOptions, Mode};
use xwire::tree::Document;
use xwire::xpath::{Namespaces, XPath};

use crate::{read_input, report, resolver_for, Failure};

/// The `canon` command's arguments.
#[derive(clap::Args)]
pub struct CanonArgs {
    /// Document to canonicalize (`-` for standard input).
    file: PathBuf,
    /// Keep comments (the #WithComments algorithms).
    #[arg(long)]
    with_comments: bool,
    /// Exclusive XML Canonicalization 1.0 instead of Canonical XML 1.0.
    #[arg(long, conflicts_with = "c14n11")]
    exclusive: bool,
    /// Canonical XML 1.1 instead of 1.0 (differs for document subsets: xml:id, xml:base).
    #[arg(long)]
    c14n11: bool,
    /// Canonicalize the document subset this XPath 1.0 expression selects (evaluated with the
    /// document node as context), e.g. `(//. | //@* | //namespace::*)[ancestor-or-self::p:e]`.
    /// Attribute and namespace nodes are output only if selected.
    #[arg(long, value_name = "EXPR")]
    xpath: Option<String>,
    /// Bind a namespace prefix for --xpath (repeatable).
    #[arg(long = "ns", value_name = "PREFIX=URI", requires = "xpath")]
    namespaces: Vec<String>,
    /// The InclusiveNamespaces PrefixList of exclusive mode: prefixes to treat as in inclusive
    /// mode, separated by spaces (`#default` for the default namespace).
    #[arg(long, value_name = "PREFIXES", requires = "exclusive")]
    inclusive_prefixes: Option<String>,
    /// Load the external DTD subset and external entities from files below the document's
    /// folder, so their attribute defaults and replacement texts apply (off by default).
    #[arg(long)]
    load_external: bool,
    /// Write the canonical form to this file instead of standard output (removed again if the
    /// document turns out to be bad).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// Runs `xwire canon`.
pub fn run(args: &CanonArgs) -> Result<(), Failure> {
    let mode = if args.exclusive {
        Mode::exclusive(args.inclusive_prefixes.as_deref().unwrap_or(""))
    } else if args.c14n11 {
        Mode::Inclusive11
    } else {
        Mode::Inclusive
    };
    let options = C14nOptions::new(mode, args.with_comments);
    let xpath = match &args.xpath {
        Some(expr) => Some(compile(expr, &args.namespaces)?),
        None => None,
    };
    let bytes = read_input(&args.file)?;
    let mut config = xwire::Config::default();
    config.base_uri = Some(args.file.to_string_lossy().into_owned());
    let mut reader = xwire::Reader::with_config(&bytes, config);
    if args.load_external {
        reader.set_resolver(resolver_for(&args.file));
    }
    let mut run = |out: &mut dyn Write| -> Result<(), C14nError> {
        match &xpath {
            None => xwire::c14n::canonicalize_reader(&mut reader, &options, out),
            Some(xp) => {
                let doc = Document::from_reader(&mut reader)?;
                xwire::c14n::canonicalize_xpath(&doc, xp, &options, out)
            }
        }
    };
    let result = match &args.output {
        Some(path) => {
            let mut file = std::fs::File::create(path).map_err(|e| io_failure(path, e))?;
            let result = run(&mut file);
            if result.is_err() {
                let _ = std::fs::remove_file(path);
            }
            result
        }
        None => run(&mut std::io::stdout().lock()),
    };
    match result {
        Ok(()) => Ok(()),
        Err(C14nError::Xml(e)) => {
            let name = args.file.display().to_string();
            Err(Failure {
                code: 1,
                message: report::error_with_caret(&name, &e, Some(&bytes)),
            })
        }
        Err(C14nError::Io(e)) => Err(io_failure(
            args.output
                .as_deref()
                .unwrap_or(Path::new("standard output")),
            e,
        )),
        Err(e @ C14nError::XPath(_)) => Err(Failure::usage(format!("xwire: --xpath: {e}"))),
        Err(e) => Err(Failure {
            code: 1,
            message: format!("xwire: {}: {e}", args.file.display()),
        }),
    }
}

/// Compiles `--xpath` with the `--ns` bindings.
fn compile(expr: &str, bindings: &[String]) -> Result<XPath, Failure> {
    let mut ns = Namespaces::new();
    for b in bindings {
        let Some((prefix, uri)) = b.split_once('=') else {
            return Err(Failure::usage(format!(
                "xwire: --ns {b}: expected PREFIX=URI"
            )));
        };
        ns.insert(prefix, uri);
    }
    XPath::compile_with(expr, &ns).map_err(|e| Failure::usage(format!("xwire: --xpath: {e}")))
}

fn io_failure(path: &Path, e: std::io::Error) -> Failure {
    let _ = std::io::stdout().flush();
    Failure::usage(format!("xwire: {}: {e}", path.display()))
}
