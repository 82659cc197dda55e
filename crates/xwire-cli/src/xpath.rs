//! `xwire xpath`: evaluate an XPath 1.0 expression over documents and print the result.
//!
//! Node-sets print one node a line: elements (and the document node) as their XML,
//! attributes as `name="value"`, namespace nodes as `xmlns:p="uri"`, text as is, comments
//! and processing instructions as markup; `--values` prints every node's string-value
//! instead, `--count` only the number of nodes. Other results print as XPath's `string()`
//! writes them. Like grep, the exit code is 1 when no document yields a node (an empty
//! node-set everywhere) and 2 on errors.

use std::io::Write;
use std::path::PathBuf;

use xwire::tree::{Document, Handle};
use xwire::writer::Writer;
use xwire::xpath::{Namespaces, Navigator, NodeKind, Value, Variables, XPath};

use crate::{read_input, report, Failure};

/// The `xpath` command's arguments.
#[derive(clap::Args)]
pub struct XPathArgs {
    /// The expression, e.g. `//item[@sku]/name`.
    expr: String,
    /// Documents to search (`-` for standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Bind a namespace prefix for the expression: `p=URI` (repeatable).
    #[arg(long = "ns", value_name = "PREFIX=URI")]
    namespaces: Vec<String>,
    /// Bind the variable `$NAME` to a string: `NAME=VALUE` (repeatable).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    vars: Vec<String>,
    /// Print the number of selected nodes instead of the nodes.
    #[arg(short, long)]
    count: bool,
    /// Print each node's string-value instead of its markup.
    #[arg(long, conflicts_with = "count")]
    values: bool,
    /// Never prefix lines with the file name (the default with several files is to).
    #[arg(long)]
    no_filename: bool,
}

fn split_binding<'a>(s: &'a str, what: &str) -> Result<(&'a str, &'a str), Failure> {
    s.split_once('=')
        .ok_or_else(|| Failure::usage(format!("xwire: --{what} expects NAME=VALUE, got '{s}'")))
}

/// Runs `xwire xpath`.
pub fn run(args: &XPathArgs) -> Result<(), Failure> {
    let mut ns = Namespaces::new();
    for b in &args.namespaces {
        let (p, uri) = split_binding(b, "ns")?;
        ns.insert(p, uri);
    }
    let xp = XPath::compile_with(&args.expr, &ns)
        .map_err(|e| Failure::usage(format!("xwire: invalid expression: {e}")))?;
    let mut vars = Variables::new();
    for b in &args.vars {
        let (name, value) = split_binding(b, "var")?;
        vars.insert(name, Value::String(value.to_string()));
    }
    let prefix = args.files.len() > 1 && !args.no_filename;
    let mut out = std::io::stdout().lock();
    let mut matched = false;
    let mut bad_document = false;
    for path in &args.files {
        let name = path.display().to_string();
        let input = read_input(path)?;
        let doc = match Document::parse(&input[..]) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}", report::error_with_caret(&name, &e, Some(&input[..])));
                bad_document = true;
                continue;
            }
        };
        let value = xp
            .evaluate_with(&doc, Navigator::root(&doc), &vars)
            .map_err(|e| Failure::usage(format!("xwire: {name}: {e}")))?;
        let lead = if prefix {
            format!("{name}:")
        } else {
            String::new()
        };
        let written = match &value {
            Value::NodeSet(nodes) => {
                matched |= !nodes.is_empty();
                if args.count {
                    writeln!(out, "{lead}{}", nodes.len())
                } else {
                    nodes.iter().try_for_each(|&n| {
                        let text = if args.values {
                            Navigator::string_value(&doc, n).into_owned()
                        } else {
                            show(&doc, n)
                        };
                        writeln!(out, "{lead}{text}")
                    })
                }
            }
            other => {
                matched = true;
                writeln!(out, "{lead}{}", other.to_string(&doc))
            }
        };
        written.map_err(|e| Failure::usage(format!("xwire: standard output: {e}")))?;
    }
    if bad_document {
        Err(Failure {
            code: 2,
            message: String::new(),
        })
    } else if !matched {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    } else {
        Ok(())
    }
}

/// A node as markup.
fn show(doc: &Document, n: Handle) -> String {
    let value = || Navigator::string_value(doc, n).into_owned();
    match Navigator::kind(doc, n) {
        NodeKind::Document => doc.to_xml().unwrap_or_else(|_| value()),
        NodeKind::Element => element_xml(doc, n.node()).unwrap_or_else(value),
        NodeKind::Attribute => {
            let p = Navigator::prefix(doc, n);
            let local = Navigator::local_name(doc, n);
            let name = if p.is_empty() {
                local.to_string()
            } else {
                format!("{p}:{local}")
            };
            format!("{name}=\"{}\"", escape_attr(&value()))
        }
        NodeKind::Namespace => {
            let p = Navigator::local_name(doc, n);
            let name = if p.is_empty() {
                "xmlns".to_string()
            } else {
                format!("xmlns:{p}")
            };
            format!("{name}=\"{}\"", escape_attr(&value()))
        }
        NodeKind::Text => value(),
        NodeKind::Comment => format!("<!--{}-->", value()),
        NodeKind::Pi => {
            let data = value();
            let target = Navigator::local_name(doc, n);
            if data.is_empty() {
                format!("<?{target}?>")
            } else {
                format!("<?{target} {data}?>")
            }
        }
    }
}

/// An element's markup as it appears in the document (like `xmllint --xpath`): prefixes
/// declared on ancestors are used but not declared again. The element is written inside a
/// wrapper declaring what is in scope, and the wrapper's tags are cut off.
fn element_xml(doc: &Document, e: xwire::tree::NodeId) -> Option<String> {
    let mut w = Writer::new(Vec::new());
    w.start_element("x").ok()?;
    if let Some(parent) = doc.parent(e).filter(|&p| doc.kind(p) == NodeKind::Element) {
        for (prefix, uri) in doc.in_scope_namespaces(parent) {
            if prefix != "xml" {
                w.namespace((!prefix.is_empty()).then_some(prefix), uri)
                    .ok()?;
            }
        }
    }
    doc.write_node(e, &mut w).ok()?;
    w.end_element().ok()?;
    let bytes = w.finish().ok()?;
    let s = String::from_utf8(bytes).ok()?;
    // The wrapper's start tag ends at the first '>' outside quotes.
    let mut quote = None;
    let start = s.char_indices().find_map(|(i, c)| {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i + 1),
            _ => {}
        }
        None
    })?;
    Some(s.get(start..s.len().checked_sub(4)?)?.to_string())
}

fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
}
