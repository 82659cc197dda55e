//! Validation errors and options.

use std::fmt;

/// One violation of the schema by an instance document, or the reason it could not be read.
///
/// A `well-formed` error that the reader reported has the reader's [`xwire::Error`] as its
/// [`source`](std::error::Error::source), and through it the `std::io::Error` of a failed
/// read; other errors have none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The validation rule of XML Schema Part 1 that failed (`cvc-complex-type.2.4`,
    /// `cvc-datatype-valid`, ...), or `well-formed` for a document the reader rejected.
    pub constraint: &'static str,
    /// What was found and what was wrong with it, in a sentence.
    pub message: String,
    /// For content-model errors: the names (or wildcards) allowed instead, in model order.
    pub expected: Vec<String>,
    /// 1-based line of the start of the offending tag or text.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// Byte offset (resolved to line and column when the event is done).
    pub(crate) offset: u64,
    /// The reader's error, for a document the reader rejected.
    pub(crate) source: Option<xwire::Error>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} [{}]",
            self.line, self.column, self.message, self.constraint
        )
    }
}

impl std::error::Error for ValidationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// How to validate.
///
/// ```
/// use xwire_schema::validate::ValidationOptions;
/// let opts = ValidationOptions { max_errors: 10, ..ValidationOptions::default() };
/// assert!(!opts.schema_location_hints);
/// ```
#[derive(Clone, Debug)]
pub struct ValidationOptions {
    /// Stop after this many errors (at least one is always reported). Default 100.
    pub max_errors: usize,
    /// Honour `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation`. Off by default: a
    /// document does not choose the schema it is validated against. When on, the hints are
    /// collected ([`crate::validate::Validator::schema_location_hints`]) for the caller to
    /// load (loading needs the schema loader).
    pub schema_location_hints: bool,
    /// The reader's configuration (limits, namespaces).
    pub reader: xwire::Config,
}

impl Default for ValidationOptions {
    fn default() -> ValidationOptions {
        ValidationOptions {
            max_errors: 100,
            schema_location_hints: false,
            reader: xwire::Config::default(),
        }
    }
}
