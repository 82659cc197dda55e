//! Just enough of XML Signature to reproduce the intermediate canonical outputs of the
//! Santuario interop vectors: each `Reference` of a signature is dereferenced (`URI=""`,
//! `#id`, `#xpointer(/)`, `#xpointer(id('id'))`, or a file next to the signature), its
//! transforms applied (XPath filter with `here()`, enveloped signature, the canonicalization
//! algorithms with an `InclusiveNamespaces PrefixList`), and the resulting node-set
//! canonicalized; `SignedInfo` is canonicalized by its `CanonicalizationMethod`. No digest or
//! signature value is computed or checked: this is not a signature verifier.
//!
//! IDs: attributes declared of type ID in the DTD (the tree records them), and otherwise, as
//! XML Signature implementations commonly do for same-document references, every attribute
//! named `Id`, `ID` or `id` (no namespace) and `xml:id` ([`Ids`]).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::path::Path;

use xwire::c14n::{self, C14nOptions, Mode};
use xwire::tree::{Document, Handle, NodeId};
use xwire::xpath::{Evaluator, Functions, Namespaces, Navigator, NodeKind, Value, XPath};
use xwire::{Config, FsResolver, Reader};

const DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";
const EXC: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
const XPATH_FILTER: &str = "http://www.w3.org/TR/1999/REC-xpath-19991116";
const ENVELOPED: &str = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

/// A document seen through [`Navigator`] with `id()` answered from DTD IDs, else `Id`-like
/// attributes.
pub struct Ids<'d>(pub &'d Document);

impl Navigator for Ids<'_> {
    type Node = Handle;
    fn root(&self) -> Handle {
        Navigator::root(self.0)
    }
    fn kind(&self, n: Handle) -> NodeKind {
        Navigator::kind(self.0, n)
    }
    fn parent(&self, n: Handle) -> Option<Handle> {
        Navigator::parent(self.0, n)
    }
    fn first_child(&self, n: Handle) -> Option<Handle> {
        Navigator::first_child(self.0, n)
    }
    fn last_child(&self, n: Handle) -> Option<Handle> {
        Navigator::last_child(self.0, n)
    }
    fn next_sibling(&self, n: Handle) -> Option<Handle> {
        Navigator::next_sibling(self.0, n)
    }
    fn prev_sibling(&self, n: Handle) -> Option<Handle> {
        Navigator::prev_sibling(self.0, n)
    }
    fn first_attribute(&self, e: Handle) -> Option<Handle> {
        Navigator::first_attribute(self.0, e)
    }
    fn next_attribute(&self, a: Handle) -> Option<Handle> {
        Navigator::next_attribute(self.0, a)
    }
    fn namespaces(&self, e: Handle, out: &mut Vec<Handle>) {
        Navigator::namespaces(self.0, e, out)
    }
    fn local_name(&self, n: Handle) -> &str {
        Navigator::local_name(self.0, n)
    }
    fn namespace_uri(&self, n: Handle) -> &str {
        Navigator::namespace_uri(self.0, n)
    }
    fn prefix(&self, n: Handle) -> &str {
        Navigator::prefix(self.0, n)
    }
    fn string_value(&self, n: Handle) -> Cow<'_, str> {
        Navigator::string_value(self.0, n)
    }
    fn cmp_order(&self, a: Handle, b: Handle) -> Ordering {
        Navigator::cmp_order(self.0, a, b)
    }
    fn element_by_id(&self, id: &str) -> Option<Handle> {
        element_by_id(self.0, id).map(Handle::Node)
    }
}

fn element_by_id(doc: &Document, id: &str) -> Option<NodeId> {
    if let Some(e) = doc.element_by_id(id) {
        return Some(e);
    }
    doc.descendants(doc.root()).find(|&n| {
        doc.attributes(n).any(|a| {
            a.value == id
                && match a.namespace_uri {
                    "" => matches!(a.local_name, "Id" | "ID" | "id"),
                    xwire::xpath::XML_NAMESPACE => a.local_name == "id",
                    _ => false,
                }
        })
    })
}

/// Parses a file with its folder's external DTD and entities.
pub fn parse(path: &Path) -> Result<Document, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut config = Config::default();
    config.base_uri = Some(path.to_string_lossy().into_owned());
    let mut reader = Reader::with_config(&bytes, config);
    if let Some(folder) = path.parent() {
        reader.set_resolver(FsResolver::new(folder));
    }
    Document::from_reader(&mut reader).map_err(|e| format!("{}: {e}", path.display()))
}

fn children(doc: &Document, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    doc.children(n)
        .filter(move |&c| doc.kind(c) == NodeKind::Element)
}

fn child(doc: &Document, n: NodeId, local: &str) -> Option<NodeId> {
    children(doc, n).find(|&c| doc.local_name(c) == local && doc.namespace_uri(c) == DSIG)
}

/// The canonicalization options of an algorithm element (`Transform` or
/// `CanonicalizationMethod`), with its `InclusiveNamespaces PrefixList`.
fn c14n_options(doc: &Document, method: NodeId) -> Option<C14nOptions> {
    let mut options = C14nOptions::from_algorithm_uri(doc.attribute(method, "", "Algorithm")?)?;
    if let Mode::Exclusive { .. } = options.mode {
        let list = children(doc, method)
            .find(|&c| doc.local_name(c) == "InclusiveNamespaces" && doc.namespace_uri(c) == EXC)
            .and_then(|c| doc.attribute(c, "", "PrefixList"))
            .unwrap_or("");
        options.mode = Mode::exclusive(list);
    }
    Some(options)
}

/// The canonical output of reference `index` of the first signature in `path`, or of its
/// `SignedInfo` when `index` is the number of references.
pub fn reference_output(path: &Path, index: usize) -> Result<Vec<u8>, String> {
    let doc = parse(path)?;
    let signature = doc
        .descendants(doc.root())
        .find(|&n| doc.local_name(n) == "Signature" && doc.namespace_uri(n) == DSIG)
        .ok_or("no Signature element")?;
    let signed_info = child(&doc, signature, "SignedInfo").ok_or("no SignedInfo")?;
    let references: Vec<NodeId> = children(&doc, signed_info)
        .filter(|&c| doc.local_name(c) == "Reference")
        .collect();
    let mut out = Vec::new();
    if index == references.len() {
        let method = child(&doc, signed_info, "CanonicalizationMethod")
            .ok_or("no CanonicalizationMethod")?;
        let options = c14n_options(&doc, method).ok_or("unknown CanonicalizationMethod")?;
        c14n::canonicalize_subtree(&doc, signed_info.into(), &options, &mut out)
            .map_err(|e| e.to_string())?;
        return Ok(out);
    }
    let reference = *references.get(index).ok_or("no such Reference")?;
    let uri = doc.attribute(reference, "", "URI").unwrap_or("");
    let transforms: Vec<NodeId> = child(&doc, reference, "Transforms")
        .map(|t| children(&doc, t).collect())
        .unwrap_or_default();
    if uri.is_empty() || uri.starts_with('#') {
        apply(&doc, &doc, uri, &transforms, &mut out)?;
    } else {
        let folder = path.parent().unwrap_or(Path::new("."));
        let target = parse(&folder.join(uri))?;
        apply(&doc, &target, "", &transforms, &mut out)?;
    }
    Ok(out)
}

/// Dereferences `uri` in `target` and applies the transforms (elements of `sig`).
fn apply(
    sig: &Document,
    target: &Document,
    uri: &str,
    transforms: &[NodeId],
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let ids = Ids(target);
    let root = Navigator::root(&ids);
    let mut nodes = match uri.strip_prefix('#') {
        None => c14n::subtree_nodes(&ids, root, false),
        Some("xpointer(/)") => c14n::subtree_nodes(&ids, root, true),
        Some(fragment) => {
            let (id, comments) = match fragment
                .strip_prefix("xpointer(id(")
                .and_then(|s| s.strip_suffix("))"))
            {
                Some(quoted) => (quoted.trim_matches(|c| c == '\'' || c == '"'), true),
                None => (fragment, false),
            };
            let e = element_by_id(target, id).ok_or_else(|| format!("no element with ID {id}"))?;
            c14n::subtree_nodes(&ids, e.into(), comments)
        }
    };
    let mut options = C14nOptions::default();
    for (i, &t) in transforms.iter().enumerate() {
        let algorithm = sig.attribute(t, "", "Algorithm").unwrap_or("");
        if let Some(o) = c14n_options(sig, t) {
            if i + 1 != transforms.len() {
                return Err("canonicalization before another transform".into());
            }
            options = o;
        } else if algorithm == XPATH_FILTER {
            let x = child(sig, t, "XPath").ok_or("no XPath element")?;
            let mut ns = Namespaces::new();
            for (p, u) in sig.in_scope_namespaces(x) {
                ns.insert(p, u);
            }
            let xp = XPath::compile_with_functions(&sig.text_content(x), &ns, &["here"])
                .map_err(|e| e.to_string())?;
            let mut functions = Functions::new();
            // here(): the XPath element, when it is in the document being filtered.
            if std::ptr::eq(sig, target) {
                let here = Handle::Node(x);
                functions.insert("", "here", move |_, _| Ok(Value::NodeSet(vec![here])));
            }
            let mut ev = Evaluator::new().with_functions(&functions);
            let kept = c14n::xpath_filter(&ids, &xp, &mut ev, nodes.iter().copied())
                .map_err(|e| e.to_string())?;
            nodes.retain(|n| kept.contains(n));
        } else if algorithm == ENVELOPED {
            let mut s = Some(t);
            while let Some(n) = s {
                if sig.local_name(n) == "Signature" && sig.namespace_uri(n) == DSIG {
                    break;
                }
                s = sig.parent(n);
            }
            let signature = s.ok_or("enveloped-signature outside a Signature")?;
            let inside = |h: &Handle| {
                let mut cur = Some(h.node());
                while let Some(c) = cur {
                    if c == signature {
                        return true;
                    }
                    cur = sig.parent(c);
                }
                false
            };
            nodes.retain(|h| !inside(h));
        } else {
            return Err(format!("unsupported transform {algorithm}"));
        }
    }
    let set: HashSet<Handle> = nodes.into_iter().collect();
    c14n::canonicalize_subset(&ids, &set, &options, out).map_err(|e| e.to_string())
}
