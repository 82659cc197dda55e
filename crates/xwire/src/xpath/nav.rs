//! The navigation trait the XPath evaluator (and node-set canonicalization) runs on.
//!
//! A model (the [`tree`](crate::tree), the token index) implements [`Navigator`] once; the
//! evaluator is generic over it and never sees the model's storage. Handles are small `Copy`
//! values; nothing is reference-counted.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::hash::Hash;

pub use crate::node::NodeKind;

/// Read access to a document in the XPath 1.0 data model.
///
/// Rules every implementation keeps (the evaluator relies on them):
///
/// - Text nodes are maximal: adjacent character data and CDATA sections form one node, and
///   there are no empty text nodes.
/// - Attributes do not include namespace declarations (`xmlns`, `xmlns:p`); those appear as
///   namespace nodes, which every element has for each prefix in scope (including `xml`).
/// - The parent of an attribute or namespace node is its element, but neither is a child of
///   it: `first_child`/`next_sibling` never reach them.
/// - Document order: the document node first; an element before its namespace nodes, those
///   before its attributes, those before its children; `cmp_order` is a total order that
///   agrees with it, and is cheap (it is called while sorting node-sets).
///
/// ```
/// use xwire::xpath::{Navigator, NodeKind};
///
/// // Counts the elements under `n` through the trait alone.
/// fn elements<N: Navigator>(nav: &N, n: N::Node) -> usize {
///     let mut count = 0;
///     let mut child = nav.first_child(n);
///     while let Some(c) = child {
///         if nav.kind(c) == NodeKind::Element {
///             count += 1 + elements(nav, c);
///         }
///         child = nav.next_sibling(c);
///     }
///     count
/// }
/// ```
pub trait Navigator {
    /// A node handle, valid for this navigator only.
    type Node: Copy + Eq + Hash + Debug;

    /// The document node.
    fn root(&self) -> Self::Node;

    /// What `n` is.
    fn kind(&self, n: Self::Node) -> NodeKind;

    /// The parent: the element of an attribute or namespace node; `None` for the document.
    fn parent(&self, n: Self::Node) -> Option<Self::Node>;

    /// The first child of a document or element node.
    fn first_child(&self, n: Self::Node) -> Option<Self::Node>;

    /// The last child of a document or element node.
    fn last_child(&self, n: Self::Node) -> Option<Self::Node>;

    /// The next sibling (`None` for attributes, namespaces and the document).
    fn next_sibling(&self, n: Self::Node) -> Option<Self::Node>;

    /// The previous sibling (`None` for attributes, namespaces and the document).
    fn prev_sibling(&self, n: Self::Node) -> Option<Self::Node>;

    /// The first attribute of an element, in document order.
    fn first_attribute(&self, element: Self::Node) -> Option<Self::Node>;

    /// The attribute after `attribute` on the same element.
    fn next_attribute(&self, attribute: Self::Node) -> Option<Self::Node>;

    /// Appends the namespace nodes of an element to `out`: one per prefix in scope (the
    /// default namespace as prefix `""` unless undeclared, and always `xml`), in a stable
    /// order. Called rarely (the namespace axis and canonicalization).
    fn namespaces(&self, element: Self::Node, out: &mut Vec<Self::Node>);

    /// Local name of an element or attribute, target of a PI, prefix of a namespace node
    /// (`""` for the default); `""` for other nodes.
    fn local_name(&self, n: Self::Node) -> &str;

    /// Namespace URI of an element or attribute (`""`: none); `""` for other nodes.
    fn namespace_uri(&self, n: Self::Node) -> &str;

    /// Prefix of an element or attribute as written (`""`: none); `""` for other nodes.
    fn prefix(&self, n: Self::Node) -> &str;

    /// The XPath string-value: the text of text and comment nodes, PI data, attribute value,
    /// namespace URI, and the concatenated descendant text of elements and the document.
    fn string_value(&self, n: Self::Node) -> Cow<'_, str>;

    /// Compares two nodes in document order.
    fn cmp_order(&self, a: Self::Node, b: Self::Node) -> Ordering;

    /// The element with an attribute of type ID (declared in the DTD) equal to `id`, for
    /// `id()`. Models that do not track ID types return `None`.
    fn element_by_id(&self, _id: &str) -> Option<Self::Node> {
        None
    }

    /// Whether `n` has local name `local` and namespace URI `uri`; a model may override it
    /// to compare interned ids instead of strings.
    fn has_name(&self, n: Self::Node, local: &str, uri: &str) -> bool {
        self.local_name(n) == local && self.namespace_uri(n) == uri
    }

    /// A key for the expanded name `(local, uri)` that [`has_name_key`](Navigator::has_name_key)
    /// compares cheaply, resolved once per name test; models that intern names override both
    /// (the default, `None`, makes the evaluator call [`has_name`](Navigator::has_name)).
    fn name_key(&self, _local: &str, _uri: &str) -> Option<u64> {
        None
    }

    /// Whether `n` has the expanded name `key` came from (only called with keys that
    /// [`name_key`](Navigator::name_key) returned).
    fn has_name_key(&self, _n: Self::Node, _key: u64) -> bool {
        false
    }

    /// Appends the string-value of `n` to `out` (a model may avoid the `Cow`).
    fn append_string_value(&self, n: Self::Node, out: &mut String) {
        out.push_str(&self.string_value(n));
    }
}
