//! The processors compared, one adapter each.
//!
//! Every adapter parses a whole in-memory document, consuming every event, reading every
//! element name, attribute value and text run (unescaped where the processor offers it), and
//! returns a checksum: elements + attributes (namespace declarations excluded) + bytes of
//! character data. The checksums of processors that agree on the document agree with each
//! other (a test checks it), so no adapter can skip work unnoticed.

mod c;
mod rust;

/// What an adapter's parse returns: the checksum, or the processor's error message.
pub type Outcome = Result<u64, String>;

/// One processor, configured one way.
#[derive(Clone, Copy)]
pub struct Peer {
    /// Name in the report and on the command line (`--peers`).
    pub name: &'static str,
    /// What it checks and what it doesn't, so ratios are read honestly.
    pub checks: &'static str,
    /// Parses a document, `None` when the processor was not found at build time.
    pub parse: Option<fn(&[u8]) -> Outcome>,
    /// Why it is missing, when `parse` is `None`.
    pub missing: &'static str,
}

impl Peer {
    /// Whether the processor is available in this build.
    pub fn available(&self) -> bool {
        self.parse.is_some()
    }
}

/// Every peer, xwire first.
pub fn all() -> Vec<Peer> {
    let mut v = rust::peers();
    v.extend(c::peers());
    v
}

/// The peers named in `list` (comma-separated), or all of them.
pub fn select(list: Option<&str>) -> Result<Vec<Peer>, String> {
    let all = all();
    let Some(list) = list else { return Ok(all) };
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            all.iter().find(|p| p.name == n).copied().ok_or_else(|| {
                let names: Vec<_> = all.iter().map(|p| p.name).collect();
                format!("unknown peer '{n}' (known: {})", names.join(", "))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entities, CDATA, namespaces, attributes, defaults-free DTD-less document.
    const DOC: &[u8] = br#"<?xml version="1.0"?>
<p:root xmlns:p="urn:p" xmlns="urn:d" a="1">
  <item id="x&amp;y" p:k="2">text &lt;here&gt; &#233;t&#xE9;</item>
  <![CDATA[raw <cdata>]]>
  <empty/>
  <!-- comment --><?pi data?>
</p:root>
"#;

    #[test]
    fn every_available_peer_agrees_with_xwire() {
        let peers = all();
        let expected = (peers[0].parse.expect("xwire is always there"))(DOC).expect("xwire");
        for p in peers.iter().filter(|p| p.available()) {
            let got = (p.parse.unwrap())(DOC);
            assert_eq!(got, Ok(expected), "{} disagrees with xwire", p.name);
        }
        for w in crate::workloads::ALL {
            let Ok(doc) = w.load(300_000, 1) else {
                continue;
            };
            let expected = (peers[0].parse.unwrap())(&doc).expect("xwire");
            for p in peers.iter().filter(|p| p.available()) {
                assert_eq!(
                    (p.parse.unwrap())(&doc),
                    Ok(expected),
                    "{} on {}",
                    p.name,
                    w.name
                );
            }
        }
    }

    #[test]
    fn every_available_peer_rejects_a_broken_document() {
        for p in all().iter().filter(|p| p.available()) {
            let got = (p.parse.unwrap())(b"<a><b></a>");
            // xmlparser tokenizes only; it cannot see mismatched tags.
            if p.name != "xmlparser" {
                assert!(got.is_err(), "{} accepted a mismatched end tag", p.name);
            }
            assert!(
                (p.parse.unwrap())(b"<a").is_err(),
                "{} accepted '<a'",
                p.name
            );
        }
    }

    #[test]
    fn select_by_name() {
        assert_eq!(select(Some("xwire")).unwrap().len(), 1);
        assert!(select(Some("nope")).is_err());
    }
}
