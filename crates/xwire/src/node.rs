//! The kinds of node shared by the document models and XPath.

/// What a node is, in the XPath 1.0 data model.
///
/// [`tree::Document::kind`](crate::tree::Document::kind) never returns `Attribute` or
/// `Namespace` (attributes are not tree nodes there); navigators over a model
/// ([`xpath::Navigator`](crate::xpath::Navigator)) return all seven.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NodeKind {
    /// The document node, parent of the root element.
    Document,
    /// An element.
    Element,
    /// An attribute (namespace declarations are not attributes).
    Attribute,
    /// A namespace node: a prefix in scope on an element.
    Namespace,
    /// Character data (CDATA sections included, merged with adjacent text).
    Text,
    /// A comment.
    Comment,
    /// A processing instruction.
    Pi,
}
