//! XML Schema 1.0 (Second Edition) for xwire: schema loading into an immutable component
//! model, and a one-pass streaming validator with typed values.
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
//! The modules (see `docs/architecture.md`, "XML Schema"):
//!
//! - `datatypes/`: every built-in datatype of XML Schema Part 2 with its lexical space, value
//!   space, canonical form and the facets that apply to it;
//! - `regex/`: XSD regular expressions (Part 2 appendix F) parsed by their own grammar and
//!   translated faithfully (character class subtraction, `\i` `\c`, Unicode blocks and
//!   categories, implicit anchoring) for the `regex` crate;
//! - `model/` and `load/`: schema documents (with include, import and redefine through a
//!   catalog, never the network) into an immutable component model, with the constraints on
//!   schemas checked and reported at the component's file, line and column;
//! - `validate/`: content models compiled into automata with counters, and a streaming
//!   validator in one pass over the reader's tokens, producing typed values.

// `unsafe` is denied everywhere but in the SSE2 classification of a number's bytes
// (`datatypes::numbers`, module `x86`), whose blocks each say why they are sound.
#![deny(unsafe_code)]

pub mod binary;
pub mod datatypes;
pub mod load;
pub mod model;
pub mod regex;
pub mod validate;
