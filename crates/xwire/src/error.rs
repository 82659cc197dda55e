//! Errors of the reader, with the location of the offending byte.
//!
//! An [`Error`] is a boxed, cold value so that `Result<Event, Error>` stays two words wide and the
//! happy path never touches it. Its [`ErrorKind`] says what went wrong; [`Error::location`] says
//! where, in bytes, lines and columns of the (UTF-8) document.

use std::fmt;
use std::sync::Arc;

/// Where something is in a document: byte offset (0-based, in the UTF-8 form of the document),
/// line and column (1-based; the column counts characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// Byte offset from the start of the document (after transcoding to UTF-8).
    pub offset: u64,
    /// Line number, starting at 1.
    pub line: u64,
    /// Column number in characters, starting at 1.
    pub column: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The kinds of limit that protect the reader from hostile input. See [`crate::Limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitKind {
    /// Element nesting depth.
    Depth,
    /// Attributes on one element (including defaulted ones).
    Attributes,
    /// Length of one name, in bytes.
    NameLength,
    /// Length of one text node, comment, PI, CDATA section or attribute value, in bytes.
    TextLength,
    /// Total number of bytes produced by entity expansion.
    EntityExpansion,
    /// Entity expansion relative to the size of the document.
    ExpansionRatio,
    /// Nesting of entity references inside entity replacement texts.
    EntityDepth,
    /// Nodes or bytes of text a [`crate::tree::Document`] can hold (4 GiB, 2^32 nodes), and
    /// the size of a document a [`crate::index::Index`] can describe (4 GiB, 2^32 - 1 nodes,
    /// depth 2^24 - 1).
    TreeSize,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitKind::Depth => "element nesting depth",
            LimitKind::Attributes => "attributes per element",
            LimitKind::NameLength => "name length",
            LimitKind::TextLength => "text length",
            LimitKind::EntityExpansion => "total entity expansion",
            LimitKind::ExpansionRatio => "entity expansion ratio",
            LimitKind::EntityDepth => "entity reference nesting",
            LimitKind::TreeSize => "size of a document tree",
        })
    }
}

/// What went wrong. The message of each kind names the rule of the XML or Namespaces
/// recommendation that was broken.
///
/// Two kinds are equal when they are the same variant with equal contents; two
/// [`ErrorKind::Io`] are equal when their [`std::io::ErrorKind`] and messages are (an
/// [`std::io::Error`] has no equality of its own).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a construct; the string says which.
    UnexpectedEof(&'static str),
    /// A byte sequence that is not UTF-8 (or not valid in the declared encoding).
    InvalidEncoding(String),
    /// The encoding named by the XML declaration is not supported, or contradicts the bytes.
    EncodingMismatch(String),
    /// A character that is not a legal XML `Char` at this place.
    InvalidChar(char),
    /// Something else than what the grammar allows; the strings say what was expected and found.
    Syntax {
        /// What the grammar allows here.
        expected: &'static str,
        /// What was found instead.
        found: String,
    },
    /// A well-formedness constraint or other rule of XML 1.0 that is not simply grammar.
    WellFormedness(String),
    /// A constraint of Namespaces in XML 1.0.
    Namespace(String),
    /// An end tag that does not match the open start tag.
    MismatchedEndTag {
        /// Name of the open element.
        expected: String,
        /// Name in the end tag.
        found: String,
    },
    /// The same attribute twice on one element.
    DuplicateAttribute(String),
    /// A reference to an entity that was not declared.
    UndeclaredEntity(String),
    /// An entity that refers to itself, directly or indirectly.
    RecursiveEntity(String),
    /// A safety limit was exceeded; the number is the limit in force.
    LimitExceeded(LimitKind, u64),
    /// An external entity could not be loaded by the installed resolver.
    Resolver(String),
    /// Reading from the underlying `std::io::Read` failed: its error, shared so that
    /// [`Error`] stays `Clone`. [`Error::source`](std::error::Error::source) returns it.
    Io(Arc<std::io::Error>),
    /// The document is well-formed but uses something this API cannot represent (the token
    /// index needs UTF-8 input whose every node lies in the document's own bytes); the string
    /// says what.
    Unsupported(String),
    /// Binary XML (`docs/binary-format.md`) that breaks a rule of the format; the string says
    /// what (a size past its frame, a reference out of range, a reserved kind, ...).
    Binary(String),
}

// By hand only because `io::Error` has no `PartialEq`; every other variant compares as a
// derive would. The match is on `self` alone so that a new variant fails to compile here.
impl PartialEq for ErrorKind {
    fn eq(&self, other: &ErrorKind) -> bool {
        use ErrorKind as K;
        match self {
            K::UnexpectedEof(a) => matches!(other, K::UnexpectedEof(b) if a == b),
            K::InvalidEncoding(a) => matches!(other, K::InvalidEncoding(b) if a == b),
            K::EncodingMismatch(a) => matches!(other, K::EncodingMismatch(b) if a == b),
            K::InvalidChar(a) => matches!(other, K::InvalidChar(b) if a == b),
            K::Syntax { expected, found } => matches!(
                other,
                K::Syntax { expected: e, found: f } if expected == e && found == f
            ),
            K::WellFormedness(a) => matches!(other, K::WellFormedness(b) if a == b),
            K::Namespace(a) => matches!(other, K::Namespace(b) if a == b),
            K::MismatchedEndTag { expected, found } => matches!(
                other,
                K::MismatchedEndTag { expected: e, found: f } if expected == e && found == f
            ),
            K::DuplicateAttribute(a) => matches!(other, K::DuplicateAttribute(b) if a == b),
            K::UndeclaredEntity(a) => matches!(other, K::UndeclaredEntity(b) if a == b),
            K::RecursiveEntity(a) => matches!(other, K::RecursiveEntity(b) if a == b),
            K::LimitExceeded(k, n) => matches!(other, K::LimitExceeded(l, m) if k == l && n == m),
            K::Resolver(a) => matches!(other, K::Resolver(b) if a == b),
            K::Io(a) => matches!(
                other,
                K::Io(b) if a.kind() == b.kind() && a.to_string() == b.to_string()
            ),
            K::Unsupported(a) => matches!(other, K::Unsupported(b) if a == b),
            K::Binary(a) => matches!(other, K::Binary(b) if a == b),
        }
    }
}

// Comparing I/O errors by kind and message is reflexive, symmetric and transitive.
impl Eq for ErrorKind {}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof(what) => write!(f, "unexpected end of input in {what}"),
            ErrorKind::InvalidEncoding(m) => write!(f, "invalid encoding: {m}"),
            ErrorKind::EncodingMismatch(m) => write!(f, "encoding error: {m}"),
            ErrorKind::InvalidChar(c) => {
                write!(f, "character U+{:04X} is not allowed here", *c as u32)
            }
            ErrorKind::Syntax { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ErrorKind::WellFormedness(m) => f.write_str(m),
            ErrorKind::Namespace(m) => write!(f, "namespace error: {m}"),
            ErrorKind::MismatchedEndTag { expected, found } => {
                write!(
                    f,
                    "end tag </{found}> does not match start tag <{expected}>"
                )
            }
            ErrorKind::DuplicateAttribute(n) => write!(f, "duplicate attribute '{n}'"),
            ErrorKind::UndeclaredEntity(n) => write!(f, "reference to undeclared entity '{n}'"),
            ErrorKind::RecursiveEntity(n) => write!(f, "entity '{n}' refers to itself"),
            ErrorKind::LimitExceeded(k, n) => write!(f, "limit exceeded: {k} (limit {n})"),
            ErrorKind::Resolver(m) => write!(f, "cannot load external entity: {m}"),
            ErrorKind::Io(m) => write!(f, "I/O error: {m}"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Binary(m) => write!(f, "binary XML: {m}"),
        }
    }
}

/// An error of the reader: a kind and the location where it was detected.
///
/// ```
/// let mut r = xwire::Reader::from_slice(b"<a></b>");
/// let err = loop {
///     match r.next() {
///         Ok(xwire::Event::Eof) => unreachable!(),
///         Ok(_) => {}
///         Err(e) => break e,
///     }
/// };
/// assert_eq!(err.location().line, 1);
/// assert_eq!(err.location().column, 4);
/// assert!(err.to_string().contains("does not match"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    location: Location,
    entity: Option<String>,
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, location: Location) -> Error {
        Error(Box::new(Inner {
            kind,
            location,
            entity: None,
        }))
    }

    #[cold]
    pub(crate) fn with_entity(mut self, name: &str) -> Error {
        if self.0.entity.is_none() {
            self.0.entity = Some(name.to_string());
        }
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Where in the document it went wrong. For errors inside the replacement text of an
    /// entity, this is the location of the outermost reference in the document.
    pub fn location(&self) -> Location {
        self.0.location
    }

    /// The name of the entity whose replacement text held the error, if any.
    pub fn entity(&self) -> Option<&str> {
        self.0.entity.as_deref()
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?} at {:?})", self.0.kind, self.0.location)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.0.location.line, self.0.location.column, self.0.kind
        )?;
        if let Some(e) = &self.0.entity {
            write!(f, " (in entity '{e}')")?;
        }
        Ok(())
    }
}

/// The source of an [`ErrorKind::Io`] is its [`std::io::Error`]; other kinds have none.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            // The `io::Error` itself, not the `Arc`, so that `downcast_ref` finds it.
            ErrorKind::Io(e) => Some(&**e),
            _ => None,
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::error::Error as _;
    use std::io;

    use super::*;
    use crate::{Config, Reader};

    /// A source that gives `ok` bytes of a document, then fails.
    struct Failing {
        ok: &'static [u8],
    }

    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.ok.is_empty() {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "pipe closed"));
            }
            let n = self.ok.len().min(buf.len());
            buf[..n].copy_from_slice(&self.ok[..n]);
            self.ok = &self.ok[n..];
            Ok(n)
        }
    }

    fn read_error(ok: &'static [u8]) -> Error {
        let mut r = Reader::from_reader(Failing { ok }, Config::default());
        loop {
            match r.next() {
                Ok(crate::Event::Eof) => panic!("the source fails before the end"),
                Ok(_) => {}
                Err(e) => return e,
            }
        }
    }

    #[test]
    fn io_error_is_kept_as_the_source() {
        // Failing at the first read (encoding detection) and in the middle of the document.
        for ok in [&b""[..], b"<a><b>text"] {
            let e = read_error(ok);
            assert!(matches!(e.kind(), ErrorKind::Io(_)), "{e:?}");
            assert!(e.to_string().ends_with("I/O error: pipe closed"), "{e}");
            let io = e.source().unwrap().downcast_ref::<io::Error>().unwrap();
            assert_eq!(io.kind(), io::ErrorKind::BrokenPipe);
            assert!(io.source().is_none());
        }
    }

    #[test]
    fn io_errors_compare_by_kind_and_message() {
        let io = |k, m: &str| ErrorKind::Io(Arc::new(io::Error::new(k, m.to_string())));
        let a = io(io::ErrorKind::BrokenPipe, "closed");
        assert_eq!(a, a.clone());
        assert_eq!(a, io(io::ErrorKind::BrokenPipe, "closed"));
        assert_ne!(a, io(io::ErrorKind::BrokenPipe, "gone"));
        assert_ne!(a, io(io::ErrorKind::Other, "closed"));
        assert_ne!(a, ErrorKind::Resolver("closed".into()));
        assert!(
            Error::new(ErrorKind::Namespace("x".into()), Location::default())
                .source()
                .is_none()
        );
    }

    /// A sink that refuses every write.
    #[derive(Debug)]
    struct Refusing;

    impl io::Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    type DynError = dyn std::error::Error + 'static;

    /// `e` and its chain of sources.
    fn chain(e: &DynError) -> Vec<&DynError> {
        std::iter::successors(Some(e), |&e| e.source()).collect()
    }

    fn io_kind(e: &DynError) -> io::ErrorKind {
        e.downcast_ref::<io::Error>()
            .expect("the chain ends in the io::Error")
            .kind()
    }

    #[test]
    fn source_chains_reach_the_io_error() {
        use crate::binary::{decode_to_text, encode_events, DecodeError, EncodeError, MapTyping};
        use crate::c14n::{canonicalize, C14nError, C14nOptions, Mode};
        use crate::writer::WriteError;

        // Encoding a stream that fails: EncodeError::Read -> Error -> io::Error.
        let mut r = Reader::from_reader(Failing { ok: b"<a>" }, Config::default());
        let e = encode_events(&mut r, &mut MapTyping::builder().build(), Vec::new()).unwrap_err();
        assert!(matches!(e, EncodeError::Read(_)), "{e:?}");
        let c = chain(&e);
        assert_eq!(c.len(), 3);
        assert!(c[1].downcast_ref::<Error>().is_some());
        assert_eq!(io_kind(c[2]), io::ErrorKind::BrokenPipe);

        // Decoding into a full disk: DecodeError::Write -> WriteError::Io -> io::Error.
        let mut r = Reader::from_slice(b"<a>1</a>");
        let bin = encode_events(&mut r, &mut MapTyping::builder().build(), Vec::new()).unwrap();
        let e = decode_to_text(&bin, Refusing).unwrap_err();
        assert!(matches!(e, DecodeError::Write(WriteError::Io(_))), "{e:?}");
        let c = chain(&e);
        assert_eq!(c.len(), 3);
        assert!(c[1].downcast_ref::<WriteError>().is_some());
        assert_eq!(io_kind(c[2]), io::ErrorKind::StorageFull);

        // Canonicalizing into a full disk: C14nError::Io -> io::Error.
        let opts = C14nOptions::new(Mode::Inclusive, false);
        let e = canonicalize(b"<a/>", &opts, Refusing).unwrap_err();
        assert!(matches!(e, C14nError::Io(_)), "{e:?}");
        assert_eq!(io_kind(e.source().unwrap()), io::ErrorKind::StorageFull);

        // A malformed document: C14nError::Xml -> Error, which wraps nothing.
        let e = canonicalize(b"<a>", &opts, Vec::new()).unwrap_err();
        assert_eq!(chain(&e).len(), 2);
        assert!(chain(&e)[1].downcast_ref::<Error>().is_some());
    }
}
