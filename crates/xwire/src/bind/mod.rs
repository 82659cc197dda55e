//! The runtime of parsers generated from XML Schemas by `xwire-codegen`: what generated code
//! calls, stable enough for it to target.
//!
//! A generated parser is recursive descent over a [`Source`], the steps of a document (its
//! root, an element's attributes, its next child, its text). Two sources serve it:
//!
//! - [`Scanner`], the fast path of XML Screamer: it reads an ordinary document's bytes
//!   directly, compares the names the parser expects in place and hands out text as slices
//!   of the input; on anything unusual, and on every error, it gives [`Fallback`];
//! - [`Cursor`], the general path: the [`Reader`](crate::Reader)'s tokens, so every
//!   well-formedness and namespace check of the reader holds, and a failed step is an
//!   [`Error`] with its line and column.
//!
//! A generated `from_slice` tries the scanner and reads the document again with the cursor
//! when it falls back, so the scanner only has to be right when it succeeds: it accepts
//! nothing the reader rejects, and the differential fuzz targets hold the two equal.
//!
//! Values convert with the functions of [`value`] (the same lexical rules as the schema
//! validator, from [`crate::datatypes`]). The value types generated structs hold are here
//! too: [`Text`] (strings, short ones without an allocation), [`Decimal`], [`Integer`], one type per date/time kind ([`Date`], [`DateTime`],
//! [`Time`], ...), [`Duration`], and [`Dfa`], the tables a pattern facet is compiled to.
//!
//! ```
//! use xwire::bind::{value, Cursor, Source};
//!
//! // What generated code does for `<qty>` of type positiveInteger below 100:
//! let mut c = Cursor::new(b"<qty> 42 </qty>");
//! c.root()?;
//! assert!(c.at("", "qty"));
//! let qty: u8 = value::int(c.text()?, 1, 99).map_err(|f| c.fail(f))?;
//! c.finish()?;
//! assert_eq!(qty, 42);
//! # Ok::<(), xwire::bind::Error>(())
//! ```

mod any;
mod cursor;
mod dfa;
pub mod events;
mod facets;
pub mod identity;
mod ids;
mod lax;
mod mixed;
mod qname;
mod records;
mod scanner;
mod source;
mod text;
pub mod value;
pub mod write;

pub use any::{
    check_value, Any, AnyAttribute, AnyElement, AnyNode, Globals, NamedType, Namespaces, Process,
    TypedElement, Wildcard,
};
pub use cursor::Cursor;
pub use dfa::Dfa;
pub use facets::{Enumeration, Facets};
pub use ids::{IdKind, Ids};
pub use lax::CheckGlobals;
pub use mixed::MixedText;
pub use qname::{Bindings, QName};
pub use records::{RecordStream, Records};
pub use scanner::{Fallback, Scanner};
pub use source::{
    nil_content, nil_fixed, nil_simple, nillable, other_attribute, simple_element,
    simple_element_text, simple_id_element, simple_id_element_text, Content, Expected, Source,
    ValueConstraint,
};
pub use text::Text;
pub use value::{Date, DateTime, GDay, GMonth, GMonthDay, GYear, GYearMonth, Integer, Time};

pub use crate::datatypes::{Decimal, Duration};

use std::fmt;

/// The value of a nillable element: `Nil` for one with `xsi:nil="true"` (no content; its
/// attributes were checked, not kept), its value otherwise.
///
/// ```
/// use xwire::bind::Nillable;
///
/// let price: Nillable<u32> = Nillable::Value(3);
/// assert_eq!(price.value(), Some(&3));
/// assert_eq!(Nillable::<u32>::Nil.value(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nillable<T> {
    /// `xsi:nil="true"`.
    Nil,
    /// The element's value.
    Value(T),
}

impl<T> Nillable<T> {
    /// The value, unless the element is nil.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nillable::Nil => None,
            Nillable::Value(v) => Some(v),
        }
    }
}

/// The XML Schema instance namespace (`xsi:`).
pub const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// Why a document is not an instance of the schema the parser was generated from (or not
/// well-formed): the first problem, where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Line of the token at fault, from 1.
    pub line: u64,
    /// Column, in characters, from 1.
    pub column: u64,
    /// The constraint of XML Schema Part 1 that failed (`cvc-complex-type.2.4`, ...), or
    /// `well-formedness` for what the reader rejected.
    pub constraint: &'static str,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} [{}]",
            self.line, self.column, self.message, self.constraint
        )
    }
}

impl std::error::Error for Error {}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        let loc = e.location();
        Error {
            line: loc.line,
            column: loc.column,
            constraint: "well-formedness",
            message: e.kind().to_string(),
        }
    }
}

/// A problem found without the position at hand (a value that does not convert, an
/// attribute not allowed): [`Cursor::fail`] places it at the current token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The constraint that failed.
    pub constraint: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Fault {
    /// A fault of `constraint`.
    #[cold]
    pub fn new(constraint: &'static str, message: impl Into<String>) -> Fault {
        Fault {
            constraint,
            message: message.into(),
        }
    }

    /// The fault of a global attribute `{ns}local` whose values generated parsers do not
    /// check in wildcard content (they hold QNames, which resolve through an element's
    /// bindings).
    #[cold]
    pub fn unread_attribute(ns: &str, local: &str) -> Fault {
        let m = format!("the type of attribute {{{ns}}}{local} is not read by generated parsers");
        Fault::new("cvc-attribute.3", m)
    }
}
