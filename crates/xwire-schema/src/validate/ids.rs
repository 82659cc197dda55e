//! ID uniqueness and IDREF resolution (Validation Rule: Validation Root Valid (ID/IDREF)).

use std::collections::HashMap;

use crate::datatypes::{Builtin, Value};
use crate::model::{Schema, SimpleTypeId, Variety};

/// Whether a simple type is (derived from) ID, IDREF or a list of IDREFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    /// None of them.
    None,
    /// `xs:ID` or a type derived from it.
    Id,
    /// `xs:IDREF` or a type derived from it.
    IdRef,
    /// `xs:IDREFS`, or a list of IDREFs.
    IdRefs,
}

/// What simple type `ty` is for ID/IDREF checking.
pub fn id_kind(schema: &Schema, ty: SimpleTypeId) -> IdKind {
    match &schema.simple_type(ty).variety {
        Variety::Atomic(Builtin::Id) => IdKind::Id,
        Variety::Atomic(Builtin::IdRef) => IdKind::IdRef,
        Variety::Atomic(Builtin::IdRefs) => IdKind::IdRefs,
        Variety::List(item) => match schema.simple_type(*item).variety {
            Variety::Atomic(Builtin::IdRef) => IdKind::IdRefs,
            _ => IdKind::None,
        },
        _ => IdKind::None,
    }
}

/// The IDs seen and the IDREFs to resolve at the end of the document.
#[derive(Debug, Default)]
pub(crate) struct IdTable {
    ids: HashMap<Box<str>, u64>,
    refs: Vec<(Box<str>, u64)>,
}

impl IdTable {
    pub(crate) fn clear(&mut self) {
        self.ids.clear();
        self.refs.clear();
    }

    /// Records the ID and IDREF values of `value` (of kind `kind`) found at `offset`;
    /// returns the ID that was already defined, if any.
    pub(crate) fn record(&mut self, kind: IdKind, value: &Value, offset: u64) -> Option<String> {
        match (kind, value) {
            (IdKind::Id, Value::String(s)) => {
                if self.ids.contains_key(s.as_str()) {
                    return Some(s.clone());
                }
                self.ids.insert(s.as_str().into(), offset);
            }
            (IdKind::IdRef, Value::String(s)) => self.refs.push((s.as_str().into(), offset)),
            (IdKind::IdRefs, Value::List(items)) => {
                for v in items {
                    if let Value::String(s) = v {
                        self.refs.push((s.as_str().into(), offset));
                    }
                }
            }
            (IdKind::IdRefs, Value::String(s)) => {
                for t in s.split_ascii_whitespace() {
                    self.refs.push((t.into(), offset));
                }
            }
            _ => {}
        }
        None
    }

    /// The IDREFs that name no ID, with their offsets.
    pub(crate) fn unresolved(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.refs
            .iter()
            .filter(|(r, _)| !self.ids.contains_key(r))
            .map(|(r, o)| (&**r, *o))
    }
}
