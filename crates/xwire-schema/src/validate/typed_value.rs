//! The typed value of an element, as [`Psvi::End`](super::Psvi::End) hands it out: built
//! when first asked for. The validator checks a number's text with a scan of its bytes and
//! leaves the conversion (for a double, most of the cost of validating it) to whoever reads
//! the value; a value that is never read is never built, and one that is read is built once.

use std::cell::OnceCell;
use std::fmt;

use crate::datatypes::{parse_plain, Builtin, Value};
use crate::model::{SimpleTypeId, SimpleValue};

/// The post-schema-validation value of an element with simple content.
///
/// ```
/// use xwire_schema::datatypes::Value;
/// use xwire_schema::load::LoadOptions;
/// use xwire_schema::model::Schema;
/// use xwire_schema::validate::{Psvi, ValidatingReader, ValidationOptions, Validator};
///
/// let xsd = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
///   <xs:element name="d" type="xs:double"/>
/// </xs:schema>"#;
/// let schema = Schema::parse_str(xsd, &LoadOptions::default()).unwrap();
/// let mut v = Validator::new(&schema, ValidationOptions::default());
/// let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(b"<d> 2.5e3 </d>"));
/// loop {
///     let (ev, psvi) = r.next().unwrap().split();
///     if let Psvi::End { value: Some(v), .. } = psvi {
///         assert_eq!(v.get().value, Value::Double(2500.0)); // converted here, once
///     }
///     if matches!(ev, xwire::Event::Eof) {
///         break;
///     }
/// }
/// assert!(r.errors().is_empty());
/// ```
#[derive(Clone, Copy)]
pub struct TypedValue<'v>(Inner<'v>);

#[derive(Clone, Copy)]
enum Inner<'v> {
    /// Built during validation (strings, dates, values with facets to check, ...).
    Ready(&'v SimpleValue),
    /// A number whose text has been checked: built into `cell` on first use.
    Lazy {
        cell: &'v OnceCell<SimpleValue>,
        builtin: Builtin,
        member: SimpleTypeId,
        text: &'v str,
    },
}

impl<'v> TypedValue<'v> {
    pub(crate) fn ready(v: &'v SimpleValue) -> TypedValue<'v> {
        TypedValue(Inner::Ready(v))
    }

    /// A value of `member` (whose built-in is `builtin`) still to be parsed from `text`,
    /// which the validator has found valid.
    pub(crate) fn lazy(
        cell: &'v OnceCell<SimpleValue>,
        builtin: Builtin,
        member: SimpleTypeId,
        text: &'v str,
    ) -> TypedValue<'v> {
        TypedValue(Inner::Lazy {
            cell,
            builtin,
            member,
            text,
        })
    }

    /// The value (built now if it was not yet).
    pub fn get(&self) -> &'v SimpleValue {
        match self.0 {
            Inner::Ready(v) => v,
            Inner::Lazy {
                cell,
                builtin,
                member,
                text,
            } => cell.get_or_init(|| SimpleValue {
                // The validator accepted the text with `is_plain_number`, whose `true`
                // implies this parse succeeds (the property tests of `datatypes` hold
                // them to it).
                value: parse_plain(builtin, text).expect("a number the validator accepted parses"),
                member,
            }),
        }
    }

    /// The type that validated the value (without building it).
    pub fn member(&self) -> SimpleTypeId {
        match self.0 {
            Inner::Ready(v) => v.member,
            Inner::Lazy { member, .. } => member,
        }
    }

    /// The value itself (built now if it was not yet).
    pub fn value(&self) -> &'v Value {
        &self.get().value
    }
}

impl fmt::Debug for TypedValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}
