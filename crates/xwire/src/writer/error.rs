//! [`WriteError`], the error of both writers, and their `Result`.

use std::fmt;
use std::io;

/// Why the writer refused an operation. After an error the output may be incomplete.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// Writing to the underlying sink failed.
    Io(io::Error),
    /// Not a `Name` / `QName` (what, the name).
    InvalidName(&'static str, String),
    /// A character XML 1.0 does not allow.
    InvalidChar(char),
    /// A comment containing `--` or ending in `-`.
    InvalidComment,
    /// A processing instruction whose target is `xml` (in any case) or whose data holds `?>`.
    InvalidPi(String),
    /// `end_element` with no open element.
    NoOpenElement,
    /// `finish` with elements still open (their names, outermost first).
    Unclosed(Vec<String>),
    /// `finish` before any element was written.
    NoRootElement,
    /// Something that must come before the root element came after it, or a second root.
    Misplaced(&'static str),
    /// Text other than white space outside the root element.
    TextOutsideRoot,
    /// An attribute or namespace declaration after the element's content began.
    AttributeAfterContent,
    /// The same attribute (by namespace URI and local name) twice on one element.
    DuplicateAttribute(String),
    /// A prefix that no declaration in scope binds (and repairing cannot, having no URI).
    UndeclaredPrefix(String),
    /// A declaration the Namespaces recommendation forbids (rebinding `xml` or `xmlns`,
    /// binding their URIs to another prefix, or a prefix to the empty URI).
    ReservedNamespace(String),
    /// Typed content (a value or an array) mixed with other content, or where no element
    /// can hold it (binary writer).
    TypedContent(&'static str),
    /// Something the binary format cannot hold: an entity reference the reader did not
    /// expand (its name).
    Unencodable(String),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "write failed: {e}"),
            WriteError::InvalidName(what, n) => write!(f, "'{n}' is not a valid {what}"),
            WriteError::InvalidChar(c) => {
                write!(
                    f,
                    "the character U+{:04X} is not allowed in XML 1.0",
                    *c as u32
                )
            }
            WriteError::InvalidComment => {
                f.write_str("a comment cannot contain '--' or end with '-'")
            }
            WriteError::InvalidPi(why) => write!(f, "invalid processing instruction: {why}"),
            WriteError::NoOpenElement => f.write_str("end_element with no open element"),
            WriteError::Unclosed(names) => write!(f, "unclosed elements: {}", names.join(" > ")),
            WriteError::NoRootElement => f.write_str("the document has no root element"),
            WriteError::Misplaced(what) => write!(f, "{what}"),
            WriteError::TextOutsideRoot => {
                f.write_str("only white space may appear outside the root element")
            }
            WriteError::AttributeAfterContent => {
                f.write_str("attributes and namespace declarations must come before content")
            }
            WriteError::DuplicateAttribute(n) => write!(f, "duplicate attribute '{n}'"),
            WriteError::UndeclaredPrefix(p) => write!(f, "the prefix '{p}' is not declared"),
            WriteError::ReservedNamespace(why) => write!(f, "{why}"),
            WriteError::TypedContent(why) => write!(f, "{why}"),
            WriteError::Unencodable(name) => write!(
                f,
                "the entity reference '&{name};' was not expanded and cannot be encoded in binary"
            ),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// The writers' result.
pub(crate) type Result<T> = std::result::Result<T, WriteError>;
