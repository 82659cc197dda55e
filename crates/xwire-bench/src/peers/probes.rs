//! Small documents that are not well-formed (or not namespace-well-formed), each breaking one
//! rule. The report shows which peers reject which: what each peer checks, measured rather
//! than claimed, so speed ratios can be read with it.

use serde::Serialize;

use super::{Engine, Op, Peer, Setup};

/// (what is wrong, document).
pub const PROBES: &[(&str, &[u8])] = &[
    ("mismatched end tag", b"<a><b></a></b>"),
    ("unclosed root", b"<a><b/>"),
    ("duplicate attribute", b"<a x='1' x='2'/>"),
    ("undeclared prefix", b"<p:a/>"),
    ("bad name character", b"<a><b@c/></a>"),
    ("control character in text", b"<a>\x01</a>"),
    ("invalid UTF-8", b"<a>\xff\xfe</a>"),
    ("'<' in attribute value", b"<a x='<'/>"),
    ("bare '&' in text", b"<a>x & y</a>"),
    ("undeclared entity", b"<a>&nope;</a>"),
    ("text after root", b"<a/>text"),
    ("']]>' in text", b"<a>]]></a>"),
    ("two root elements", b"<a/><b/>"),
    ("xmlns:p=\"\" (NS 1.0)", b"<a xmlns:p=''/>"),
];

/// Which probes one peer's operation rejected.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeRow {
    /// Peer name.
    pub peer: String,
    /// The operation probed (its first streaming or tree operation).
    pub op: Op,
    /// For each of [`PROBES`], whether it was rejected.
    pub rejected: Vec<bool>,
}

/// Probes every in-process peer through its first parse-like operation.
pub fn run(peers: &[Peer]) -> Vec<ProbeRow> {
    peers
        .iter()
        .filter(|p| matches!(p.engine, Engine::InProcess(_)))
        .filter_map(|p| {
            let op = [Op::Parse, Op::Push, Op::Tree, Op::Index]
                .into_iter()
                .find(|&o| p.can(o))?;
            let mut run = p.prepare(op, &Setup::default())?.ok()?;
            Some(ProbeRow {
                peer: p.name.to_string(),
                op,
                rejected: PROBES.iter().map(|(_, doc)| run(doc).is_err()).collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xwire_rejects_every_probe() {
        let rows = run(&crate::peers::select(Some("xwire")).unwrap());
        assert_eq!(rows.len(), 1);
        assert!(rows[0].rejected.iter().all(|&r| r), "{rows:?}");
    }

    #[test]
    fn a_tokenizer_accepts_what_it_cannot_see() {
        let rows = run(&crate::peers::select(Some("xmlparser")).unwrap());
        // xmlparser does not match end tags against start tags.
        assert!(!rows[0].rejected[0], "{rows:?}");
    }
}
