//! # xwire
//!
//! The core of xwire: a conformant, fast XML 1.0 (Fifth Edition) + Namespaces in XML 1.0
//! reader and writer, and what is built directly on them: a tree, a token index, XPath 1.0,
//! Canonical XML and binary XML. XML Schema (`xwire-schema`), the benchmark and the command
//! line are built on this crate. It depends only on memchr, encoding_rs and, for
//! [`MappedFile`] (feature `mmap`, on by default), memmap2.
//!
//! ## Reading
//!
//! [`Reader`] is the pull cursor, and the only parser: zero-copy over a byte slice
//! ([`Reader::from_slice`]), bounded memory over any `std::io::Read` ([`Reader::from_reader`]).
//! It detects the encoding (UTF-8, UTF-16, ISO-8859-1 and US-ASCII natively, every other one
//! through encoding_rs), checks every well-formedness and namespace constraint, reads the
//! internal DTD subset, expands internal entities, applies attribute defaults, and knows the
//! line and column of every token; [`Config`] sets its options and [`Limits`]. Other ways of
//! reading sit on top of it, never beside it: [`Events`] (an owned-event iterator),
//! [`Reader::peek`], [`Filter`] (skip kinds of events), the SAX-style [`sax::Handler`], and
//! StAX-style helpers ([`Reader::next_tag`], [`Reader::next_start`], [`Reader::element_text`],
//! [`Reader::skip_element`]).
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
//! ## Documents, XPath, canonical and binary forms
//!
//! | module | for |
//! |---|---|
//! | [`writer`] | the one serializer ([`writer::Writer`]): escaping, namespace repair, pretty printing |
//! | [`tree`] | a mutable, namespace-aware DOM in an arena ([`tree::Document`]) |
//! | [`index`] | a token index over the original bytes, whose edits splice bytes ([`index::Index`]) |
//! | [`xpath`] | XPath 1.0 compiled once ([`xpath::XPath`]), run over any [`xpath::Navigator`]: the tree or the index |
//! | [`c14n`] | Canonical XML 1.0 and 1.1 and Exclusive C14N, of documents and of node sets |
//! | [`binary`] | binary XML with typed leaves and packed arrays, read by the same [`Reader`] |
//! | [`stats`] | a document's characteristics, as `xwire parse` prints them |
//! | [`bind`] | the runtime of parsers generated from schemas by `xwire-codegen` |
//! | [`datatypes`] | XML Schema's built-in datatypes: lexical spaces, values, canonical forms, facets (for `xwire-schema`'s validator and for parsers generated from schemas) |
//!
//! Pick the reader (or [`sax`]) to stream through a document once, the index to query or edit a
//! document that stays as it is (a no-edit write is the input byte for byte), and the tree to
//! build or restructure one.
//!
//! ```
//! use xwire::index::Index;
//! use xwire::xpath::{Value, XPath};
//!
//! let total = XPath::compile("sum(//qty)")?; // compile once, evaluate on many documents
//! let index = Index::parse(b"<order><qty>2</qty><qty>3</qty></order>")?;
//! assert_eq!(total.evaluate(&index, index.root())?, Value::Number(5.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Untrusted input
//!
//! [`Limits`] bound what a document may cost (by default: depth 4,096; 10,000 attributes per
//! element; names of 50,000 bytes; text of 10 MB; entity expansion of 10 MB and 20 times the
//! input; entity nesting 64), each breach a clear [`ErrorKind::LimitExceeded`]. External
//! entities and DTDs are read only through a [`Resolver`] the caller installs ([`FsResolver`]
//! confines them to one folder); nothing is fetched from the network. Any panic, hang or
//! unbounded allocation on any input is a bug.
//!
//! ## Where next
//!
//! Each module's page above opens with its own guide and examples. `docs/architecture.md` in
//! the repository shows how the parts fit and the rules that keep them fast;
//! `docs/binary-format.md` specifies the binary format. For XML Schema validation, see the
//! `xwire-schema` crate.

// `unsafe` is denied but where an item allows it, each `unsafe` block with a `// SAFETY:`
// argument and each `unsafe fn` with a `# Safety` section saying what its caller promises:
// - `scan::str_of`, an `unsafe fn` viewing bytes known to be UTF-8 as a `str`, and its calls in
//   the reader: its text source (reader/text/), its binary source (reader/binary.rs), the token
//   state and the event views, with the `unsafe fn`s that pass the promise up to where it is
//   known (`event::view`, `TokenState::value_of`, the binary decoder's entry points);
// - the in-place view of a binary array's values (reader/binary.rs: `cast` and the
//   `unsafe fn`s above it, whose callers promise that bool values were checked to be 0 or 1);
// - the file mapping (mmap.rs: `MappedFile::open` is an `unsafe fn`, its caller promises
//   that the file does not change while it is mapped);
// - the SSE2 scans (simd.rs) and the SSE2 classification of a number's bytes
//   (datatypes/numbers.rs, module `x86`), the lending of a kept reader for one document's
//   lifetime (slot.rs) and the taking of a reader's state box (reader/reuse.rs).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod binary;
pub mod bind;
pub mod bytes;
pub mod c14n;
pub mod chars;
mod config;
pub mod datatypes;
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
