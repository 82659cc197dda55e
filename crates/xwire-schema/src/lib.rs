//! XML Schema 1.0 (Second Edition) for xwire (issue 5, in progress).
//!
//! The plan, so the pieces fit (see `docs/architecture.md`, "XML Schema"):
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

#![forbid(unsafe_code)]

pub mod datatypes;
pub mod load;
pub mod model;
pub mod regex;
pub mod validate;
