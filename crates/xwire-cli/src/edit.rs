//! `xwire edit`: change a document in place of its bytes. Nodes are selected by XPath and
//! edited through the token index ([`xwire::index::Editor`]), so everything the actions do
//! not touch (comments, white space, quote style, references, the XML declaration) is copied
//! byte for byte.
//!
//! Actions run in the order given, and every expression is evaluated on the original
//! document (an action never sees another's result):
//!
//! - `--delete XPATH`: elements (with their content), attributes, text, comments, PIs.
//! - `--set XPATH VALUE`: an element's content becomes the text VALUE (escaped), an
//!   attribute's value becomes VALUE, a text node, comment or PI gets VALUE as its text.
//! - `--insert-before XPATH XML` / `--insert-after XPATH XML`: markup beside elements, text,
//!   comments and PIs.
//! - `--replace XPATH XML`: an element, text, comment or PI replaced by markup.
//!
//! Markup given on the command line must be well-formed content where it goes: it is parsed
//! inside an element declaring the namespaces in scope there (entities other than the
//! predefined ones and character references are not known to it). The edited document is
//! parsed again before it is written, so the command never writes something that is not
//! well-formed.
//!
//! Overlaps: a node inside a node that an action deletes or replaces (or inside an element
//! whose content `--set` replaces) is skipped, whichever action comes first, and so is a
//! second deletion of one node. Any other pair of edits of the same bytes (setting one value
//! twice, say) is an error. Exit codes: 0 done, 1 an expression selected nothing (and
//! nothing is written) unless `--allow-empty`, 2 on usage, document and edit errors.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use xwire::index::{Editor, Index, NodeRef, SpliceError};
use xwire::xpath::{Namespaces, Navigator, NodeKind, XPath};

use crate::{read_input, report, Failure};

/// The `edit` command's arguments. The actions are read again from the [`ArgMatches`] to
/// learn their order on the command line.
#[derive(clap::Args)]
#[command(after_help = "\
Actions run in the order given; every XPATH is evaluated on the original document.
Nodes inside a node that an action deletes or replaces (or inside an element whose
content --set replaces) are skipped, as is a second deletion of the same node; other
overlapping edits are errors. Untouched bytes are copied as they are.

Exit codes: 0 done, 1 an XPATH selected nothing (nothing is written) unless
--allow-empty, 2 usage, document or edit errors.

Example:
  xwire edit po.xml --ns p=urn:po --delete '//p:item[@qty=0]' \\
      --set '//p:total' 42 --insert-after '//p:item[last()]' '<p:item qty=\"1\"/>' --in-place")]
pub struct EditArgs {
    /// Document to edit (`-` for standard input; UTF-8).
    file: PathBuf,
    /// Bind a namespace prefix for the expressions: `p=URI` (repeatable).
    #[arg(long = "ns", value_name = "PREFIX=URI")]
    namespaces: Vec<String>,
    /// Delete the selected nodes (elements, attributes, text, comments, PIs).
    #[arg(long, value_name = "XPATH")]
    delete: Vec<String>,
    /// Set the selected nodes' text: an element's content (escaped), an attribute's value,
    /// a text node's, comment's or PI's text.
    #[arg(long, num_args = 2, value_names = ["XPATH", "VALUE"], allow_hyphen_values = true)]
    set: Vec<String>,
    /// Insert well-formed markup before each selected element, text, comment or PI.
    #[arg(long, num_args = 2, value_names = ["XPATH", "XML"], allow_hyphen_values = true)]
    insert_before: Vec<String>,
    /// Insert well-formed markup after each selected element, text, comment or PI.
    #[arg(long, num_args = 2, value_names = ["XPATH", "XML"], allow_hyphen_values = true)]
    insert_after: Vec<String>,
    /// Replace each selected element, text, comment or PI by well-formed markup.
    #[arg(long, num_args = 2, value_names = ["XPATH", "XML"], allow_hyphen_values = true)]
    replace: Vec<String>,
    /// Do not fail (exit code 1) when an expression selects nothing.
    #[arg(long)]
    allow_empty: bool,
    /// Write the result to this file instead of standard output.
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    output: Option<PathBuf>,
    /// Replace FILE with the result (written to a temporary file beside it, then renamed).
    #[arg(long)]
    in_place: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Delete,
    Set,
    InsertBefore,
    InsertAfter,
    Replace,
}

impl Op {
    const ALL: [(Op, &'static str, usize); 5] = [
        (Op::Delete, "delete", 1),
        (Op::Set, "set", 2),
        (Op::InsertBefore, "insert_before", 2),
        (Op::InsertAfter, "insert_after", 2),
        (Op::Replace, "replace", 2),
    ];

    fn flag(self) -> &'static str {
        match self {
            Op::Delete => "--delete",
            Op::Set => "--set",
            Op::InsertBefore => "--insert-before",
            Op::InsertAfter => "--insert-after",
            Op::Replace => "--replace",
        }
    }

    /// Whether the action takes markup (checked before it is spliced in).
    fn takes_markup(self) -> bool {
        matches!(self, Op::InsertBefore | Op::InsertAfter | Op::Replace)
    }
}

/// One action of the command line.
struct Action {
    op: Op,
    expr: String,
    xpath: XPath,
    /// VALUE or XML (empty for `--delete`).
    arg: String,
}

impl Action {
    fn describe(&self) -> String {
        format!("{} '{}'", self.op.flag(), self.expr)
    }
}

/// The actions in command-line order, compiled.
fn actions(args: &EditArgs, matches: &ArgMatches) -> Result<Vec<Action>, Failure> {
    let mut ns = Namespaces::new();
    for b in &args.namespaces {
        let Some((prefix, uri)) = b.split_once('=') else {
            return Err(Failure::usage(format!(
                "xwire: --ns {b}: expected PREFIX=URI"
            )));
        };
        ns.insert(prefix, uri);
    }
    let mut found: Vec<(usize, Op, Vec<String>)> = Vec::new();
    for (op, id, arity) in Op::ALL {
        let (Some(values), Some(indices)) =
            (matches.get_many::<String>(id), matches.indices_of(id))
        else {
            continue;
        };
        let values: Vec<String> = values.cloned().collect();
        let indices: Vec<usize> = indices.collect();
        for (vs, ix) in values.chunks(arity).zip(indices.chunks(arity)) {
            found.push((ix[0], op, vs.to_vec()));
        }
    }
    if found.is_empty() {
        return Err(Failure::usage(
            "xwire: edit: no action given (--delete, --set, --insert-before, --insert-after, --replace)",
        ));
    }
    found.sort_by_key(|f| f.0);
    found
        .into_iter()
        .map(|(_, op, mut vs)| {
            let arg = if vs.len() > 1 {
                vs.pop().unwrap_or_default()
            } else {
                String::new()
            };
            let expr = vs.pop().unwrap_or_default();
            let xpath = XPath::compile_with(&expr, &ns)
                .map_err(|e| Failure::usage(format!("xwire: {} {e}", op.flag())))?;
            Ok(Action {
                op,
                expr,
                xpath,
                arg,
            })
        })
        .collect()
}

/// Runs `xwire edit`; `matches` are the subcommand's.
pub fn run(args: &EditArgs, matches: &ArgMatches) -> Result<(), Failure> {
    if args.in_place && args.file.as_os_str() == "-" {
        return Err(Failure::usage(
            "xwire: --in-place needs a file, not standard input",
        ));
    }
    let actions = actions(args, matches)?;
    let name = args.file.display().to_string();
    let input = read_input(&args.file)?;
    let bytes = &input[..];
    let ix = Index::parse(bytes).map_err(|e| Failure {
        code: 2,
        message: report::error_with_caret(&name, &e, Some(bytes)),
    })?;

    // Every expression on the original document first: the skip rules look at all of them.
    let mut selected = Vec::with_capacity(actions.len());
    let mut empty = Vec::new();
    for a in &actions {
        let nodes = a
            .xpath
            .select(&ix, Navigator::root(&ix))
            .map_err(|e| Failure::usage(format!("xwire: {name}: {}: {e}", a.describe())))?;
        if nodes.is_empty() {
            empty.push(a.describe());
        }
        for &n in &nodes {
            check_target(&ix, a, n, bytes)?;
        }
        selected.push(nodes);
    }
    if !empty.is_empty() && !args.allow_empty {
        let list: Vec<String> = empty
            .iter()
            .map(|e| format!("xwire: {name}: {e} selected nothing"))
            .collect();
        return Err(Failure {
            code: 1,
            message: list.join("\n"),
        });
    }

    let mut removed = HashSet::new(); // Deleted or replaced nodes: nothing inside them stays.
    let mut emptied = HashSet::new(); // Elements whose content `--set` replaces.
    for (a, nodes) in actions.iter().zip(&selected) {
        match a.op {
            Op::Delete | Op::Replace => removed.extend(nodes.iter().copied()),
            Op::Set => emptied.extend(
                nodes
                    .iter()
                    .copied()
                    .filter(|&n| ix.kind(n) == NodeKind::Element),
            ),
            Op::InsertBefore | Op::InsertAfter => {}
        }
    }

    let mut ed = ix.edit();
    let mut deleted = HashSet::new();
    let mut checked = HashSet::new(); // (action, context element) whose markup parsed.
    for (k, (a, nodes)) in actions.iter().zip(&selected).enumerate() {
        for &n in nodes {
            if inside_removed(&ix, n, &removed, &emptied) {
                continue;
            }
            if a.op == Op::Delete && !deleted.insert(n) {
                continue;
            }
            if a.op.takes_markup() {
                let context = ix.parent(n).unwrap_or(ix.root());
                if checked.insert((k, context)) {
                    check_markup(&ix, a, context)?;
                }
            }
            apply(&ix, &mut ed, a, n).map_err(|e| edit_failure(&name, &ix, a, n, &e))?;
        }
    }

    let out = ed.to_vec();
    // The markup was checked where it goes; what remains is the document level (a deleted
    // root element, a second one, text beside it).
    if let Err(e) = drain(&out) {
        return Err(Failure::usage(format!(
            "xwire: {name}: the edits would make the document not well-formed:\n{}",
            report::error_with_caret("(edited document)", &e, Some(&out))
        )));
    }
    write_output(args, &out)
}

/// Refuses what no action can edit, with a message naming the node.
fn check_target(ix: &Index<'_>, a: &Action, n: NodeRef, doc: &[u8]) -> Result<(), Failure> {
    let why = match (ix.kind(n), a.op) {
        (NodeKind::Namespace, _) => Some(
            "it is a namespace node (edit the xmlns attribute's element instead: namespace \
             declarations are not attributes in XPath)",
        ),
        (NodeKind::Document, _) => Some("it is the document node"),
        (NodeKind::Attribute, Op::InsertBefore | Op::InsertAfter | Op::Replace) => {
            Some("it is an attribute (markup goes beside elements, text, comments and PIs)")
        }
        _ => None,
    };
    match why {
        Some(why) => Err(Failure::usage(format!(
            "xwire: {} selects a node at {} that it cannot edit: {why}",
            a.describe(),
            line_col(doc, ix.offset(n) as usize)
        ))),
        None => Ok(()),
    }
}

/// Whether `n` lies inside a node another action deletes or replaces, or inside the content
/// of an element whose content is set (an attribute of that element is not inside it).
fn inside_removed(
    ix: &Index<'_>,
    n: NodeRef,
    removed: &HashSet<NodeRef>,
    emptied: &HashSet<NodeRef>,
) -> bool {
    let mut up = ix.parent(n);
    if ix.kind(n) == NodeKind::Attribute {
        let Some(owner) = up else { return false };
        if removed.contains(&owner) {
            return true;
        }
        up = ix.parent(owner);
    }
    while let Some(p) = up {
        if removed.contains(&p) || emptied.contains(&p) {
            return true;
        }
        up = ix.parent(p);
    }
    false
}

/// Records one action on one node.
fn apply(
    ix: &Index<'_>,
    ed: &mut Editor<'_, '_>,
    a: &Action,
    n: NodeRef,
) -> Result<(), SpliceError> {
    match a.op {
        Op::Delete => ed.delete(n),
        Op::InsertBefore => ed.insert_before(n, a.arg.as_bytes()),
        Op::InsertAfter => ed.insert_after(n, a.arg.as_bytes()),
        Op::Replace => {
            // The markup is inserted where the node starts and the node deleted: the
            // editor writes insertions before a range that starts at the same place.
            ed.insert_before(n, a.arg.as_bytes())?;
            ed.delete(n)
        }
        Op::Set => match ix.kind(n) {
            NodeKind::Attribute => ed.set_attribute_value(n, &a.arg),
            NodeKind::Comment => {
                if a.arg.contains("--") || a.arg.ends_with('-') {
                    return Err(SpliceError::NotEditable(
                        "a comment cannot contain '--' or end with '-'",
                    ));
                }
                ed.insert_before(n, format!("<!--{}-->", a.arg).as_bytes())?;
                ed.delete(n)
            }
            NodeKind::Pi => {
                if a.arg.contains("?>") {
                    return Err(SpliceError::NotEditable(
                        "a processing instruction cannot contain '?>'",
                    ));
                }
                let target = ix.name(n);
                let markup = if a.arg.is_empty() {
                    format!("<?{target}?>")
                } else {
                    format!("<?{target} {}?>", a.arg)
                };
                ed.insert_before(n, markup.as_bytes())?;
                ed.delete(n)
            }
            _ => ed.set_text(n, &a.arg),
        },
    }
}

fn edit_failure(name: &str, ix: &Index<'_>, a: &Action, n: NodeRef, e: &SpliceError) -> Failure {
    let at = line_col(ix.document(), ix.offset(n) as usize);
    let why = match e {
        SpliceError::Conflict { .. } => {
            "it overlaps an edit of an earlier action or node (two edits change the same bytes)"
                .to_string()
        }
        e => e.to_string(),
    };
    Failure::usage(format!(
        "xwire: {name}: {} on the {} at {at}: {why}",
        a.describe(),
        match ix.kind(n) {
            NodeKind::Element => "element",
            NodeKind::Attribute => "attribute",
            NodeKind::Text => "text node",
            NodeKind::Comment => "comment",
            NodeKind::Pi => "processing instruction",
            _ => "node",
        }
    ))
}

/// `line L, column C` of a byte offset (columns count characters).
fn line_col(doc: &[u8], offset: usize) -> String {
    let head = &doc[..offset.min(doc.len())];
    let line = head.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = head.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&head[start..]).chars().count() + 1;
    format!("line {line}, column {column}")
}

/// Parses an action's markup as the content of an element declaring the namespaces in scope
/// on `context` (none at the document level).
fn check_markup(ix: &Index<'_>, a: &Action, context: NodeRef) -> Result<(), Failure> {
    let mut wrapper = String::from("<x");
    let mut ns = Vec::new();
    ix.namespaces(context, &mut ns);
    for n in ns {
        let prefix = ix.name(n);
        if prefix == "xml" {
            continue;
        }
        let attr = if prefix.is_empty() {
            "xmlns".to_string()
        } else {
            format!("xmlns:{prefix}")
        };
        let uri = ix
            .value(n)
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('"', "&quot;");
        wrapper.push_str(&format!(" {attr}=\"{uri}\""));
    }
    wrapper.push('>');
    let lead = wrapper.len();
    wrapper.push_str(&a.arg);
    wrapper.push_str("</x>");
    drain(wrapper.as_bytes()).map_err(|e| {
        let at = (e.location().offset as usize).saturating_sub(lead);
        Failure::usage(format!(
            "xwire: {}: the markup is not well-formed content here: {} (at its byte {at}; it is \
             checked as the content of an element `x` declaring the namespaces in scope)\n  {}",
            a.describe(),
            e.kind(),
            a.arg
        ))
    })
}

/// Reads a document to its end: whether it is well-formed.
fn drain(doc: &[u8]) -> xwire::Result<()> {
    let mut r = xwire::Reader::from_slice(doc);
    while !matches!(r.next()?, xwire::Event::Eof) {}
    Ok(())
}

fn write_output(args: &EditArgs, out: &[u8]) -> Result<(), Failure> {
    let fail =
        |path: &Path, e: std::io::Error| Failure::usage(format!("xwire: {}: {e}", path.display()));
    if args.in_place {
        let path = &args.file;
        let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(format!(".xwire-edit-{}", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let written = std::fs::write(&tmp, out).and_then(|()| {
            // Keep the original's permissions.
            if let Ok(meta) = std::fs::metadata(path) {
                std::fs::set_permissions(&tmp, meta.permissions())?;
            }
            std::fs::rename(&tmp, path)
        });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(fail(path, e));
        }
        Ok(())
    } else if let Some(path) = &args.output {
        std::fs::write(path, out).map_err(|e| fail(path, e))
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(out)
            .and_then(|()| stdout.flush())
            .map_err(|e| fail(Path::new("standard output"), e))
    }
}
