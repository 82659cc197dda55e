//! Edits of an indexed document, recorded as byte splices and applied in one pass on write
//! (see [`Editor`]).

use std::fmt;
use std::io::{self, Write};

use super::*;

/// Why an edit was refused: the [`Editor`] records each edit as a splice of the document's
/// bytes, and this splice cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpliceError {
    /// The edit touches bytes an earlier edit replaces (for example editing inside a deleted
    /// element); the range is the new edit's.
    Conflict {
        /// Start of the refused edit's range in the document.
        start: usize,
        /// End of the refused edit's range.
        end: usize,
    },
    /// The node cannot take this edit; the string says why (the document node, namespace
    /// nodes and attributes defaulted from the DTD have no bytes of their own to edit;
    /// content can only be replaced in elements and text nodes).
    NotEditable(&'static str),
}

impl fmt::Display for SpliceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpliceError::Conflict { start, end } => write!(
                f,
                "the edit of bytes {start}..{end} overlaps an earlier edit"
            ),
            SpliceError::NotEditable(why) => write!(f, "cannot edit this node: {why}"),
        }
    }
}

impl std::error::Error for SpliceError {}

/// One splice: `start..end` of the document becomes `bytes[data.0..data.1]`.
#[derive(Clone, Copy, Debug)]
struct Splice {
    start: usize,
    end: usize,
    data: (usize, usize),
}

/// Records edits of an indexed document as byte splices, applied in one pass on write. The
/// index is not changed: write the result and index it again to go on.
///
/// Every edit becomes a splice: a range of the document's bytes replaced by new bytes (an
/// insertion is an empty range). Writing copies the untouched regions unchanged and the new
/// bytes in between, so a document written without edits is its input byte for byte.
///
/// Conflicts are refused when the edit is recorded ([`SpliceError::Conflict`]): a splice whose
/// range overlaps an earlier one (editing inside a deleted element, replacing a value twice),
/// or an insertion strictly inside a replaced range. Insertions at the edge of a range are
/// fine and keep their place: [`Editor::insert_before`] a node that is deleted lands before
/// where it was, [`Editor::insert_after`] after. Several insertions at one position are
/// written in the order they were recorded.
///
/// ```
/// use xwire::index::Index;
///
/// let doc = br#"<list><item n="1">one</item><item n="2">two</item><!--old--></list>"#;
/// let ix = Index::parse(doc)?;
/// let list = ix.root_element().unwrap();
/// let items: Vec<_> = ix.children(list).collect();
/// let mut ed = ix.edit();
/// ed.delete(items[0])?;
/// ed.set_attribute_value(ix.first_attribute(items[1]).unwrap(), "<&>")?;
/// ed.set_text(items[1], "deux")?;
/// ed.insert_after(items[1], b"<item n=\"3\"/>")?;
/// ed.delete(items[2])?;
/// assert_eq!(
///     ed.to_vec(),
///     br#"<list><item n="&lt;&amp;&gt;">deux</item><item n="3"/></list>"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Editor<'i, 'a> {
    ix: &'i Index<'a>,
    /// Non-empty replaced ranges, sorted by start, disjoint.
    ranges: Vec<Splice>,
    /// Insertions (empty ranges), sorted by position, in recording order at one position.
    inserts: Vec<Splice>,
    /// The new bytes of every splice.
    bytes: Vec<u8>,
}

impl fmt::Debug for Editor<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Editor")
            .field("ranges", &self.ranges.len())
            .field("inserts", &self.inserts.len())
            .finish()
    }
}

impl<'i, 'a> Editor<'i, 'a> {
    pub(super) fn new(ix: &'i Index<'a>) -> Self {
        Editor {
            ix,
            ranges: Vec::new(),
            inserts: Vec::new(),
            bytes: Vec::new(),
        }
    }

    /// Number of splices recorded.
    pub fn len(&self) -> usize {
        self.ranges.len() + self.inserts.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of a node that an edit may replace.
    fn node_range(&self, n: NodeRef) -> Result<(usize, usize), SpliceError> {
        if n.ns != 0 {
            return Err(SpliceError::NotEditable(
                "a namespace node has no bytes of its own",
            ));
        }
        match self.ix.k(n.node) {
            K_DOCUMENT => Err(SpliceError::NotEditable("the document node")),
            K_ATTRIBUTE if self.ix.flags(n.node) & F_DEFAULTED != 0 => {
                Err(SpliceError::NotEditable(
                    "the attribute was defaulted from the DTD; it has no bytes",
                ))
            }
            K_TEXT => {
                // An empty CDATA section with no text before it makes no node of its own
                // (the text node, and its offset, start after it), but its bytes belong with
                // the text: an insertion before the text lands before them, where it lands
                // before a non-empty section. No other markup can end in `<![CDATA[]]>`
                // right where a text node starts.
                const EMPTY: &[u8] = b"<![CDATA[]]>";
                let (mut a, b) = self.ix.range(n.node);
                while self.ix.doc[..a].ends_with(EMPTY) {
                    a -= EMPTY.len();
                }
                Ok((a, b))
            }
            _ => Ok(self.ix.range(n.node)),
        }
    }

    /// Records `start..end` → `data`, refusing conflicts. `replace` says whether the
    /// splice replaces something (even an empty range: an empty value or element content,
    /// which a second replacement must not also replace) or only inserts.
    fn splice(
        &mut self,
        start: usize,
        end: usize,
        data: &[&[u8]],
        replace: bool,
    ) -> Result<(), SpliceError> {
        let conflict = SpliceError::Conflict { start, end };
        // Ranges are disjoint and sorted, so only the last one starting before the new
        // splice (or at it) can overlap it.
        if !replace {
            let k = self.ranges.partition_point(|r| r.start < start);
            if k > 0 && self.ranges[k - 1].end > start {
                return Err(conflict);
            }
        } else if start == end {
            let k = self.ranges.partition_point(|r| r.start <= start);
            if k > 0 {
                let r = self.ranges[k - 1];
                if r.end > start || (r.start == start && r.end == start) {
                    return Err(conflict);
                }
            }
        } else {
            let k = self.ranges.partition_point(|r| r.start < end);
            if k > 0 && self.ranges[k - 1].end > start {
                return Err(conflict);
            }
            let i = self.inserts.partition_point(|s| s.start <= start);
            if self.inserts.get(i).is_some_and(|s| s.start < end) {
                return Err(conflict);
            }
        }
        let from = self.bytes.len();
        for d in data {
            self.bytes.extend_from_slice(d);
        }
        let s = Splice {
            start,
            end,
            data: (from, self.bytes.len()),
        };
        if replace {
            let k = self.ranges.partition_point(|r| r.start < start);
            self.ranges.insert(k, s);
        } else {
            let k = self.inserts.partition_point(|r| r.start <= start);
            self.inserts.insert(k, s);
        }
        Ok(())
    }

    /// Deletes a node: an element with its content, an attribute (with the white space
    /// before it), a text node, a comment or a PI.
    pub fn delete(&mut self, n: NodeRef) -> Result<(), SpliceError> {
        let (a, b) = self.node_range(n)?;
        self.splice(a, b, &[], true)
    }

    /// Inserts `xml` just before a node, as given (it is not checked: it should be
    /// well-formed content there, like ` name="value"` before an attribute).
    pub fn insert_before(&mut self, n: NodeRef, xml: &[u8]) -> Result<(), SpliceError> {
        let (a, _) = self.node_range(n)?;
        self.splice(a, a, &[xml], false)
    }

    /// Inserts `xml` just after a node (after an element's end tag), as given.
    pub fn insert_after(&mut self, n: NodeRef, xml: &[u8]) -> Result<(), SpliceError> {
        let (_, b) = self.node_range(n)?;
        self.splice(b, b, &[xml], false)
    }

    /// Replaces the content of an element (everything between its tags; an empty-element
    /// tag is rewritten with an end tag) or a whole text node by `xml`, as given.
    pub fn replace_content(&mut self, n: NodeRef, xml: &[u8]) -> Result<(), SpliceError> {
        let (a, b) = self.node_range(n)?;
        match self.ix.k(n.node) {
            K_ELEMENT => {
                let e = n.node;
                let stag_end = self.ix.start_tag_end(e);
                if self.ix.flags(e) & F_EMPTY != 0 {
                    // `<a x="1"/>` → `<a x="1">xml</a>`: replace the `/>`.
                    let name = self.ix.qname_bytes(e);
                    let slash = stag_end.saturating_sub(2).max(a);
                    self.splice(slash, stag_end, &[b">", xml, b"</", name, b">"], true)
                } else {
                    let etag = self.end_tag_start(e, b);
                    self.splice(stag_end.min(etag), etag, &[xml], true)
                }
            }
            K_TEXT => self.splice(a, b, &[xml], true),
            _ => Err(SpliceError::NotEditable(
                "content can be replaced in elements and text nodes only",
            )),
        }
    }

    /// Replaces the content of an element or a whole text node by the text `text`,
    /// escaped (`&`, `<`, `>` and carriage returns become references).
    pub fn set_text(&mut self, n: NodeRef, text: &str) -> Result<(), SpliceError> {
        let escaped = escape(text, 0);
        self.replace_content(n, &escaped)
    }

    /// Replaces the value of an attribute, escaped for the quotes it is written in (`&`,
    /// `<`, `>`, the quote and white space other than spaces become references, so the value
    /// reads back exactly as given).
    pub fn set_attribute_value(
        &mut self,
        attribute: NodeRef,
        value: &str,
    ) -> Result<(), SpliceError> {
        if attribute.ns != 0 || self.ix.k(attribute.node) != K_ATTRIBUTE {
            return Err(SpliceError::NotEditable("not an attribute"));
        }
        self.node_range(attribute)?;
        let (a, b) = self.ix.attr_value_span(attribute.node);
        let quote = self.ix.doc.get(b).copied().unwrap_or(b'"');
        let escaped = escape(value, quote);
        self.splice(a, b, &[&escaped], true)
    }

    /// Start of the end tag of element `e`, which ends at `end`.
    fn end_tag_start(&self, e: u32, end: usize) -> usize {
        let doc = self.ix.doc;
        let head = doc.get(..end).unwrap_or(doc);
        let _ = e;
        memchr::memrchr(b'<', head).unwrap_or(end)
    }

    /// Writes the edited document: untouched regions copied, splices applied, in one pass.
    pub fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        let doc = self.ix.doc;
        let mut pos = 0;
        let (mut r, mut i) = (0, 0);
        loop {
            // The next splice: insertions at a position before a range starting there.
            let take_insert = match (self.inserts.get(i), self.ranges.get(r)) {
                (Some(s), Some(g)) => s.start <= g.start,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let s = if take_insert {
                i += 1;
                self.inserts[i - 1]
            } else {
                r += 1;
                self.ranges[r - 1]
            };
            let start = s.start.clamp(pos, doc.len());
            w.write_all(&doc[pos..start])?;
            w.write_all(&self.bytes[s.data.0..s.data.1])?;
            pos = s.end.clamp(start, doc.len());
        }
        w.write_all(&doc[pos..])
    }

    /// The edited document.
    pub fn to_vec(&self) -> Vec<u8> {
        let grow: usize = self.bytes.len();
        let mut out = Vec::with_capacity(self.ix.doc.len() + grow);
        self.write_to(&mut out)
            .expect("writing to a Vec cannot fail");
        out
    }
}

/// `s` escaped for content (`quote` 0) or an attribute value in `quote`s.
fn escape(s: &str, quote: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &b in s.as_bytes() {
        match b {
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'\r' => out.extend_from_slice(b"&#13;"),
            b'"' if quote == b'"' => out.extend_from_slice(b"&quot;"),
            b'\'' if quote == b'\'' => out.extend_from_slice(b"&apos;"),
            b'\t' if quote != 0 => out.extend_from_slice(b"&#9;"),
            b'\n' if quote != 0 => out.extend_from_slice(b"&#10;"),
            _ => out.push(b),
        }
    }
    out
}
