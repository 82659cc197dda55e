//! # xwire-schema
//!
//! XML Schema 1.0 (Second Edition) for xwire: schema documents loaded into an immutable
//! component model, and validation of documents in the one pass of the xwire reader, with
//! typed values. Use it to check documents against an XSD, to read a document's typed values
//! (the PSVI), or to type elements for xwire's binary XML by their schema.
//!
//! The main types:
//!
//! - [`Schema`](model::Schema): the component model. [`Schema::load`](model::Schema::load)
//!   reads schema files (includes, imports and redefines through a
//!   [`Catalog`](load::Catalog), never the network); every constraint on schemas is reported
//!   with the file, line and column of the component. Load it once and share it between
//!   threads in an `Arc`.
//! - [`Validator`](validate::Validator): checks documents against a schema and goes on after an
//!   error. Keep one per thread and reuse it: a warm validator checking a small message
//!   allocates nothing. [`Validator::validate`](validate::Validator::validate) takes a document
//!   in memory and returns its errors ([`ValidationError`](validate::ValidationError): line,
//!   column, message, the constraint's name).
//! - [`ValidatingReader`](validate::ValidatingReader): the xwire reader's events, each with its
//!   declaration, type and typed value, for a consumer that wants the post-schema-validation
//!   infoset.
//!
//! ```
//! use xwire_schema::model::Schema;
//! use xwire_schema::validate::{ValidationOptions, Validator};
//!
//! let schema = Schema::parse_str(r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
//!   <xs:element name="qty" type="xs:positiveInteger"/></xs:schema>"#, &Default::default())?;
//! let mut validator = Validator::new(&schema, ValidationOptions::default()); // reuse it
//! assert!(validator.validate(b"<qty>3</qty>").is_ok());
//! let errors = validator.validate(b"<qty>0</qty>").unwrap_err();
//! assert_eq!((errors[0].line, errors[0].column), (1, 1));
//! assert_eq!(errors[0].constraint, "cvc-datatype-valid");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The modules:
//!
//! - [`datatypes`]: every built-in datatype of XML Schema Part 2 with its lexical space, value
//!   space, canonical form and the facets that apply to it (the core crate's
//!   [`xwire::datatypes`], which parsers generated from schemas share);
//! - [`regex`]: XSD regular expressions (Part 2 appendix F) parsed by their own grammar and
//!   translated faithfully (character class subtraction, `\i` `\c`, Unicode blocks and
//!   categories, implicit anchoring) for the `regex` crate;
//! - [`model`] and [`load`]: schema documents (with include, import and redefine through a
//!   catalog, never the network) into an immutable component model, with the constraints on
//!   schemas checked and reported at the component's file, line and column;
//! - [`validate`]: content models compiled into automata with counters, and a streaming
//!   validator in one pass over the reader's tokens, producing typed values;
//! - [`binary`]: which elements become typed leaves and arrays in xwire's binary XML, decided
//!   by their schema types.
//!
//! Where next: `xwire validate` and `xwire schema` on the command line (`docs/cli.md`), the
//! `validate` module's page for the options and the PSVI, `docs/architecture.md` for the
//! design, and `docs/testing.md` for the W3C test suite results.

#![forbid(unsafe_code)]

pub mod binary;
/// The built-in datatypes: [`xwire::datatypes`], here under the name the validator's code and
/// this crate's users know.
pub use xwire::datatypes;
pub mod load;
pub mod model;
pub mod regex;
pub mod validate;

#[cfg(test)]
mod source_tests;
