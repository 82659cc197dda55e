//! Document order: arena order until the first structural edit, stamps after it.

use std::cmp::Ordering;

use super::{Document, NodeId, K_FREE, NONE};

impl Document {
    /// Compares two nodes in document order (a node before its descendants, those before its
    /// following siblings). Nodes outside the document's tree (detached ones and their
    /// descendants) come after every node in it, subtree by subtree in the order of their
    /// roots' ids.
    ///
    /// O(1): arena order for a document not restructured since parsing; after a structural
    /// edit, the first call walks the tree once to number the nodes, and later calls
    /// compare the numbers until the next edit.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// let mut doc = xwire::tree::Document::parse(b"<r><a/><b/></r>")?;
    /// let r = doc.root_element().unwrap();
    /// let (a, b) = (doc.first_child(r).unwrap(), doc.last_child(r).unwrap());
    /// assert_eq!(doc.cmp_order(a, b), Ordering::Less);
    /// doc.detach(a)?;
    /// doc.append_child(r, a)?;
    /// assert_eq!(doc.cmp_order(a, b), Ordering::Greater);
    /// assert_eq!(doc.cmp_order(r, a), Ordering::Less);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[track_caller]
    pub fn cmp_order(&self, a: NodeId, b: NodeId) -> Ordering {
        self.node(a);
        self.node(b);
        self.order_key(a).cmp(&self.order_key(b))
    }

    /// The position of `n` in document order: comparable between nodes of this document
    /// until the next structural edit (the XPath navigator compares these).
    pub(crate) fn order_key(&self, n: NodeId) -> u32 {
        if !self.edited {
            return n.0;
        }
        self.order.get_or_init(|| self.stamps())[n.index()]
    }

    /// Document order positions by arena index (`u32::MAX` for removed nodes).
    fn stamps(&self) -> Vec<u32> {
        let mut stamps = vec![u32::MAX; self.nodes.len()];
        let mut next = 0;
        let mut number = |top: NodeId| {
            for n in self.descendants(top) {
                stamps[n.index()] = next;
                next += 1;
            }
        };
        number(self.root());
        for (i, node) in self.nodes.iter().enumerate().skip(1) {
            if node.parent == NONE && node.kind() != K_FREE {
                number(NodeId(i as u32));
            }
        }
        stamps
    }

    /// Called by every edit that changes the shape of the tree.
    pub(super) fn reordered(&mut self) {
        self.edited = true;
        self.order.take();
    }
}
