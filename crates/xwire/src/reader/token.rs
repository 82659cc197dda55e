//! The token state: the contract between the sources (text, binary) and everything that reads
//! their tokens.

use crate::intern::Id;

/// The namespace URI bound to the `xml` prefix.
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace URI of namespace declarations (`xmlns` attributes).
pub const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// Id of a namespace URI interned by a reader. [`NsId::NONE`] is "no namespace".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NsId(pub u32);

impl NsId {
    /// No namespace (an unprefixed attribute, or an element outside any default namespace).
    pub const NONE: NsId = NsId(0);
    /// `http://www.w3.org/XML/1998/namespace`.
    pub const XML: NsId = NsId(1);
    /// `http://www.w3.org/2000/xmlns/`.
    pub const XMLNS: NsId = NsId(2);
}

#[derive(Clone, Copy)]
pub(crate) struct Open {
    pub(crate) qname: Id,
    pub(crate) ns: NsId,
    /// Length of `bindings` before this element's declarations.
    pub(crate) bindings: u32,
}

/// Per interned qualified name: where its prefix ends and its cached namespace resolution.
#[derive(Clone, Copy)]
pub(crate) struct QMeta {
    /// Length of the prefix in bytes (0: no prefix).
    pub(crate) prefix_len: u32,
    /// Interned prefix (valid if `prefix_len > 0`).
    pub(in crate::reader) prefix: Id,
    pub(in crate::reader) epoch: u32,
    pub(in crate::reader) ns: NsId,
}

pub(crate) const NO_PREFIX: Id = Id(u32::MAX);

// Text flags.
pub(crate) const F_REFS: u8 = 1;
pub(crate) const F_CR: u8 = 2;
