//! xwire's document models as peers: the tree (`xwire::tree`) and the token index
//! (`xwire::index`), for the tree, index, reserialize and XPath-pipeline operations.
//!
//! The walks return the parse checksum (elements + attributes + text bytes); the pipelines
//! return [`pipeline_checksum`], counting the elements left by walking the model.

use std::hint::black_box;

use xwire::index::{Index, NodeRef};
use xwire::tree::{Document, Handle, NodeKind};
use xwire::xpath::XPath;

use super::{pipeline_checksum, simple, Op, Outcome, PipelineExpr, Prepare};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The tree's operations (on the `xwire` peer).
pub(super) fn tree_ops() -> Vec<(Op, Prepare)> {
    let mut v: Vec<(Op, Prepare)> = vec![(Op::Tree, simple(tree_walk))];
    v.extend(pipelines(|xp| {
        Box::new(move |doc: &[u8]| tree_pipeline(&xp, doc))
    }));
    v
}

/// The index's operations (the `xwire-index` peer).
pub(super) fn index_ops() -> Vec<(Op, Prepare)> {
    let mut v: Vec<(Op, Prepare)> = vec![
        (Op::Index, Box::new(|_| Ok(reusing_index(index_walk)))),
        (
            Op::Reserialize,
            Box::new(|_| Ok(reusing_index(index_rewrite))),
        ),
    ];
    v.extend(pipelines(|xp| {
        reusing_index(move |ix: &Index<'_>| index_pipeline(&xp, ix))
    }));
    v
}

/// One `Prepare` per pipeline expression: compiles it once and makes the runner.
fn pipelines(make: fn(XPath) -> super::Runner) -> Vec<(Op, Prepare)> {
    PipelineExpr::ALL
        .into_iter()
        .map(|e| {
            let prepare: Prepare = Box::new(move |_| {
                let xp = XPath::compile(e.xpath()).map_err(err)?;
                Ok(make(xp))
            });
            (Op::Pipeline(e), prepare)
        })
        .collect()
}

/// A runner that parses each document into one index reused from run to run (as a server
/// would: no allocation once warm) and hands it to `f`.
fn reusing_index(f: impl Fn(&Index<'_>) -> Outcome + Send + 'static) -> super::Runner {
    let mut spare: Index<'static> = Index::new();
    Box::new(move |doc: &[u8]| {
        let mut ix = std::mem::take(&mut spare).reuse();
        let out = ix.parse_into(doc).map_err(err).and_then(|()| f(&ix));
        spare = ix.reuse();
        out
    })
}

fn tree_walk(doc: &[u8]) -> Outcome {
    let d = Document::parse(doc).map_err(err)?;
    let mut sum = 0u64;
    for n in d.descendants(d.root()) {
        match d.kind(n) {
            NodeKind::Element => {
                let mut attrs = 0;
                for a in d.attributes(n) {
                    black_box(a.value);
                    attrs += 1;
                }
                black_box(d.local_name(n));
                sum += 1 + attrs;
            }
            NodeKind::Text => sum += d.text(n).len() as u64,
            _ => {}
        }
    }
    Ok(sum)
}

fn tree_pipeline(xp: &XPath, doc: &[u8]) -> Outcome {
    let mut d = Document::parse(doc).map_err(err)?;
    let selected = xp.select(&d, Handle::Node(d.root())).map_err(err)?;
    // Reverse document order: a node is never removed after one of its ancestors.
    for &h in selected.iter().rev() {
        match h {
            Handle::Node(n) => d.remove(n).map_err(err)?,
            _ => return Err("the pipelines select no attributes".into()),
        }
    }
    let elements = d
        .descendants(d.root())
        .filter(|&n| d.kind(n) == NodeKind::Element)
        .count();
    let mut w = xwire::writer::Writer::new(Vec::with_capacity(doc.len()));
    d.write_node(d.root(), &mut w).map_err(err)?;
    let out = w.finish().map_err(err)?;
    if out.is_empty() {
        return Err("empty output".into());
    }
    black_box(&out);
    Ok(pipeline_checksum(selected.len() as u64, elements as u64))
}

fn index_walk(ix: &Index<'_>) -> Outcome {
    let mut sum = 0u64;
    for n in ix.descendants(ix.root()) {
        match ix.kind(n) {
            xwire::NodeKind::Element => {
                let mut attrs = 0;
                for a in ix.attributes(n) {
                    black_box(ix.value(a));
                    attrs += 1;
                }
                black_box(ix.local_name(n));
                sum += 1 + attrs;
            }
            xwire::NodeKind::Text => sum += ix.text(n).len() as u64,
            _ => {}
        }
    }
    Ok(sum)
}

/// The index's reserialize: no edits, so the output is the input spliced back together.
fn index_rewrite(ix: &Index<'_>) -> Outcome {
    let out = ix.edit().to_vec();
    black_box(&out);
    index_walk(ix)
}

fn index_pipeline(xp: &XPath, ix: &Index<'_>) -> Outcome {
    let selected = xp.select(ix, ix.root()).map_err(err)?;
    let mut ed = ix.edit();
    let mut removed_elements = 0usize;
    for &n in &selected {
        ed.delete(n).map_err(err)?;
        removed_elements += elements_in(ix, n);
    }
    let elements = elements_in(ix, ix.root()) - removed_elements;
    let out = ed.to_vec();
    if out.is_empty() {
        return Err("empty output".into());
    }
    black_box(&out);
    Ok(pipeline_checksum(selected.len() as u64, elements as u64))
}

/// Elements in the subtree of `n` (`n` included).
fn elements_in(ix: &Index<'_>, n: NodeRef) -> usize {
    ix.descendants(n)
        .filter(|&d| ix.kind(d) == xwire::NodeKind::Element)
        .count()
}
