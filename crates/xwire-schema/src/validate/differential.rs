//! Checks of the validator's planned ways against its full way, for the differential test
//! and the `schema_validate` and `schema_mutate` fuzz targets. Not part of the API: hidden
//! from the documentation.
//!
//! Every planned way (a start or end from an element plan, a value from a value plan) must
//! give what the full way gives. A validator without plans ([`observe_without_plans`]) sends every
//! start, end and value the full way; [`observe`] records everything a consumer sees of a
//! document, to compare the two.

use super::plans::Plans;
use super::validator::{ValidatingReader, Validator};
use super::Psvi;
use super::ValidationOptions;
use crate::model::Schema;

/// Everything a consumer sees of a document validated against `schema`, one line per event:
/// its kind, and its PSVI (declaration, type, nil, attributes and their values, element
/// value); then each error. Stops at the first well-formedness error (which the errors
/// include).
pub fn observe(schema: &Schema, xml: &[u8]) -> Vec<String> {
    observe_with(Validator::new(schema, ValidationOptions::default()), xml)
}

/// As [`observe`], by a validator without plans: every start, end and value the general
/// way, more slowly, to the same outcome.
pub fn observe_without_plans(schema: &Schema, xml: &[u8]) -> Vec<String> {
    let plans = std::sync::Arc::new(Plans::none(schema));
    observe_with(
        Validator::with_plans(schema, plans, ValidationOptions::default()),
        xml,
    )
}

fn observe_with(mut v: Validator<'_>, xml: &[u8]) -> Vec<String> {
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml));
    let mut seen = Vec::new();
    while let Ok(e) = r.next() {
        let (ev, psvi) = e.split();
        let what = match psvi {
            Psvi::None => String::new(),
            Psvi::Start {
                decl,
                type_def,
                nil,
                attributes,
            } => format!("{decl:?} {type_def:?} {nil} {attributes:?}"),
            Psvi::End {
                decl,
                type_def,
                value,
            } => format!("{decl:?} {type_def:?} {:?}", value.map(|v| v.get().clone())),
        };
        seen.push(format!("{:?} {what}", ev.kind()));
        if matches!(ev, xwire::Event::Eof) {
            break;
        }
    }
    seen.extend(r.errors().iter().map(|e| e.to_string()));
    seen
}

/// Whether the lean pass of [`Validator::validate`] proves `xml` valid against `schema`
/// (`Ok(true)`), or gives up (`Ok(false)`); an error when it proves valid a document the
/// general pass finds errors in (the one thing it must never do).
pub fn check_lean(schema: &Schema, xml: &[u8]) -> Result<bool, String> {
    let mut v = Validator::new(schema, ValidationOptions::default());
    if v.lean_pass(xml, &mut None::<fn(&xwire::Event<'_>)>)
        .is_err()
    {
        return Ok(false);
    }
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(xml));
    while let Ok(e) = r.next() {
        if matches!(e.event(), xwire::Event::Eof) {
            break;
        }
    }
    match r.errors().first() {
        None => Ok(true),
        Some(e) => Err(format!(
            "the lean pass proved valid a document with an error: {e}"
        )),
    }
}
