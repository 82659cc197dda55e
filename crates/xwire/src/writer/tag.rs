//! The start tag being built, shared by the text and binary writers: a tag stays open until
//! its first content or its end, so attributes and declarations can come in any order and be
//! checked together. The writers differ only in how they resolve and write it.

use std::ops::Range;

use super::check::split_qname;
use super::error::WriteError;

/// How an element's or attribute's name was given.
#[derive(Clone)]
pub(crate) enum NameSpec {
    /// A qualified name as written: (prefix, local) in `pend`.
    QName(Range<usize>, Range<usize>),
    /// A namespace URI, local name and preferred prefix, in `pend`.
    Ns {
        uri: Range<usize>,
        local: Range<usize>,
        prefix: Option<Range<usize>>,
    },
}

pub(crate) struct PendingAttr {
    pub(crate) name: NameSpec,
    pub(crate) value: Range<usize>,
}

/// The pending start tag: its name (`None` once written, or before any), attributes, and the
/// strings of both in one buffer reused from tag to tag.
#[derive(Default)]
pub(crate) struct PendingTag {
    pub(crate) name: Option<NameSpec>,
    pub(crate) attrs: Vec<PendingAttr>,
    pub(crate) pend: String,
}

impl PendingTag {
    /// Forgets the previous tag's strings and attributes (the name is set next).
    pub(crate) fn begin(&mut self) {
        self.pend.clear();
        self.attrs.clear();
    }

    pub(crate) fn stash(&mut self, s: &str) -> Range<usize> {
        let start = self.pend.len();
        self.pend.push_str(s);
        start..self.pend.len()
    }

    /// The name given by namespace URI, local name and preferred prefix; the caller has
    /// checked the names with `check_ns_name`.
    pub(crate) fn ns_spec(&mut self, uri: &str, local: &str, prefix: Option<&str>) -> NameSpec {
        NameSpec::Ns {
            uri: self.stash(uri),
            local: self.stash(local),
            prefix: prefix.map(|p| self.stash(p)),
        }
    }

    /// Names the tag by a qualified name already split.
    pub(crate) fn set_qname(&mut self, prefix: &str, local: &str) {
        let spec = NameSpec::QName(self.stash(prefix), self.stash(local));
        self.name = Some(spec);
    }

    /// Names the tag by namespace URI, local name and preferred prefix.
    pub(crate) fn set_ns(&mut self, uri: &str, local: &str, prefix: Option<&str>) {
        let spec = self.ns_spec(uri, local, prefix);
        self.name = Some(spec);
    }

    /// An error unless a tag is pending (attributes come before content).
    pub(crate) fn check_open(&self) -> Result<(), WriteError> {
        if self.name.is_none() {
            return Err(WriteError::AttributeAfterContent);
        }
        Ok(())
    }

    /// Adds an attribute by a qualified name already split, not a namespace declaration.
    pub(crate) fn add_qname(
        &mut self,
        prefix: &str,
        local: &str,
        value: &str,
    ) -> Result<(), WriteError> {
        self.check_open()?;
        let name = NameSpec::QName(self.stash(prefix), self.stash(local));
        let value = self.stash(value);
        self.attrs.push(PendingAttr { name, value });
        Ok(())
    }

    /// Adds an attribute by namespace URI, local name and preferred prefix.
    pub(crate) fn add_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<(), WriteError> {
        self.check_open()?;
        let name = self.ns_spec(uri, local, prefix);
        let value = self.stash(value);
        self.attrs.push(PendingAttr { name, value });
        Ok(())
    }
}

/// What `attribute(qname, value)` names.
pub(crate) enum AttributeName<'a> {
    /// `xmlns` (`None`) or `xmlns:p` (`Some(p)`): a namespace declaration.
    Namespace(Option<&'a str>),
    /// Any other attribute: (prefix, local).
    Attribute(&'a str, &'a str),
}

/// Splits an attribute's qualified name and tells declarations apart.
pub(crate) fn attribute_name(qname: &str) -> Result<AttributeName<'_>, WriteError> {
    let (p, l) = split_qname(qname)
        .ok_or_else(|| WriteError::InvalidName("attribute name (QName)", qname.into()))?;
    Ok(if qname == "xmlns" {
        AttributeName::Namespace(None)
    } else if p == "xmlns" {
        AttributeName::Namespace(Some(l))
    } else {
        AttributeName::Attribute(p, l)
    })
}
