//! Validation of instance documents against a [`Schema`](crate::model::Schema).
//!
//! - [`automaton`]: content models compiled into automata with counters, and the two
//!   constraints on schemas that need them (`cos-nonambig`, `cos-element-consistent`);
//! - the streaming validator: one pass over the reader's events.

pub mod automaton;

#[cfg(test)]
mod tests;

pub(crate) use automaton::compile_content_models;
pub use automaton::{ContentModel, Expected, MatchState, Matched, MemberStatus};
