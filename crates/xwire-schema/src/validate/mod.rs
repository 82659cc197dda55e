//! Validation of instance documents against a [`Schema`](crate::model::Schema).
//!
//! - [`automaton`]: content models compiled into automata with counters, and the two
//!   constraints on schemas that need them (`cos-nonambig`, `cos-element-consistent`);
//! - `validator`: the streaming validator, one pass over the reader's events
//!   ([`Validator`], [`ValidatingReader`], [`validate_bytes`]);
//! - `errors`: [`ValidationError`] and [`ValidationOptions`];
//! - `hints`: the `xsi:schemaLocation` hints of a document, for callers that follow them;
//! - `typed_value`: [`TypedValue`], an element's value, built when first asked for;
//! - `ids`, `identity`: ID/IDREF and identity-constraint tables;
//! - `plans`: what the validator compiles from its schema: how the values of each simple type
//!   are checked, and which element declarations a start tag opens by its plan;
//! - `differential`: the planned ways checked against the full way (hidden; for the tests
//!   and the fuzz targets).

pub mod automaton;
#[doc(hidden)]
pub mod differential;
mod errors;
mod general;
mod hints;
mod identity;
mod ids;
mod lean;
mod plans;
mod shared;
mod typed_value;
mod validator;

#[cfg(test)]
mod tests;

pub(crate) use automaton::compile_content_models;
pub use automaton::{ContentModel, Expected, MatchState, Matched, MemberStatus};
pub use errors::{ValidationError, ValidationOptions};
pub use general::{AttributeInfo, Psvi};
pub use hints::{hinted_schema_paths, schema_location_hints};
pub use ids::{id_kind, IdKind};
pub use typed_value::TypedValue;
pub use validator::{validate_bytes, Validated, ValidatingReader, Validator};
