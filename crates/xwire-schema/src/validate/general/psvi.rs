//! What a consumer sees of an event's validation: [`Psvi`] and [`AttributeInfo`].

use crate::model::{AttributeId, ElementId, SimpleValue, TypeId};
use crate::validate::TypedValue;

/// The validation information of one attribute of a start tag.
#[derive(Clone, Debug, PartialEq)]
pub struct AttributeInfo {
    /// The position of the attribute in [`StartTag::attributes`](xwire::StartTag::attributes),
    /// or `None` for an attribute added from a default or fixed value of the schema.
    pub index: Option<usize>,
    /// The governing attribute declaration, if any.
    pub decl: Option<AttributeId>,
    /// The typed value, when the attribute was validated and valid.
    pub value: Option<SimpleValue>,
}

/// The validation information that comes with an event (the post-schema-validation infoset,
/// as far as a consumer needs it).
#[derive(Clone, Copy, Debug)]
pub enum Psvi<'v> {
    /// Nothing to add (text, comments, ..., or an element that was not assessed).
    None,
    /// A start tag.
    Start {
        /// The governing element declaration.
        decl: Option<ElementId>,
        /// The governing type definition (after `xsi:type`).
        type_def: Option<TypeId>,
        /// `xsi:nil="true"`.
        nil: bool,
        /// The attributes (validated ones, then defaulted ones).
        attributes: &'v [AttributeInfo],
    },
    /// An end tag.
    End {
        /// The governing element declaration.
        decl: Option<ElementId>,
        /// The governing type definition.
        type_def: Option<TypeId>,
        /// For simple content: the typed value (the default or fixed value when empty).
        value: Option<TypedValue<'v>>,
    },
}
