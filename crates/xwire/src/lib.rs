//! # xwire
//!
//! A conformant, fast, streaming XML 1.0 (Fifth Edition) + Namespaces in XML 1.0 reader and
//! writer: the core every other part of xwire (tree, index, XPath, schema validation, binary
//! XML, SOAP) is built on.
//!
//! - [`Reader`]: the pull cursor. Zero-copy over a byte slice, bounded memory over any
//!   `std::io::Read`. Every well-formedness and namespace constraint is checked; the internal
//!   DTD subset is read, internal entities are expanded and attribute defaults applied;
//!   external entities are loaded only through a [`Resolver`] the caller installs.
//! - On top of it, never beside it: [`Events`] (an owned-event iterator), [`Reader::peek`],
//!   [`Filter`] (skip kinds of events), the SAX-style [`sax::Handler`], and StAX-style helpers
//!   ([`Reader::next_tag`], [`Reader::element_text`], [`Reader::skip_element`]).
//!
//! ```
//! use xwire::{Event, Reader};
//!
//! let xml = br#"<po:order xmlns:po="urn:po"><po:item sku="a&amp;b">3</po:item></po:order>"#;
//! let mut reader = Reader::from_slice(xml);
//! let mut total = 0;
//! while let Some(tag) = reader.next_start()? {
//!     if tag == "item" {
//!         total += reader.element_text()?.parse::<i32>().unwrap();
//!     }
//! }
//! assert_eq!(total, 3);
//! # Ok::<(), xwire::Error>(())
//! ```
//!
//! Any panic, hang or unbounded allocation on any input is a bug.

// `unsafe` is denied everywhere but in the function that views scanner-validated bytes as `str`
// (scan::str_of), the SSE2 scans (simd.rs), the file mapping (mmap.rs) and the lending of a
// kept reader for one document's lifetime (slot.rs), each of which says why it is sound.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod binary;
pub mod bytes;
pub mod c14n;
pub mod chars;
mod config;
mod decl;
mod dtd;
mod error;
mod events;
pub mod index;
mod input;
mod intern;
#[cfg(feature = "mmap")]
mod mmap;
mod node;
mod reader;
mod resolver;
pub mod sax;
mod scan;
mod simd;
mod slot;
pub mod stats;
mod stax;
pub mod tree;
pub mod writer;
pub mod xpath;

pub use decl::XmlDecl;
pub use error::{Error, ErrorKind, LimitKind, Location, Result};
pub use events::{Events, Filter, OwnedEvent};
pub use intern::Id;
#[cfg(feature = "mmap")]
pub use mmap::MappedFile;
pub use node::NodeKind;
pub use reader::event::{
    Attribute, Attributes, CData, Comment, Doctype, EndTag, Event, Pi, SkippedEntity, StartTag,
    Text, TokenKind,
};
pub use reader::{Config, Limits, NsId, Reader, ReaderBuffers, XMLNS_NS, XML_NS};
pub use resolver::{FsResolver, ResolvedEntity, Resolver};
pub use slot::ReaderSlot;
