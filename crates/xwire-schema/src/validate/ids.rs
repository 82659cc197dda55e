//! ID uniqueness and IDREF resolution (Validation Rule: Validation Root Valid (ID/IDREF)).

use xwire::bind::{self, Ids};

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

/// The IDs seen and the IDREFs to resolve at the end of the document: the table generated
/// parsers keep ([`xwire::bind::Ids`]), fed with typed values.
#[derive(Debug, Default)]
pub(crate) struct IdTable(Ids);

impl IdTable {
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// Records the ID and IDREF values of `value` (of kind `kind`) found at `offset`;
    /// returns the ID that was already defined, if any.
    pub(crate) fn record(&mut self, kind: IdKind, value: &Value, offset: u64) -> Option<String> {
        let kind = match kind {
            IdKind::None => return None,
            IdKind::Id => bind::IdKind::Id,
            IdKind::IdRef => bind::IdKind::IdRef,
            IdKind::IdRefs => bind::IdKind::IdRefs,
        };
        match (kind, value) {
            (_, Value::String(s)) => self.0.record(kind, s, offset).err().map(|_| s.clone()),
            (bind::IdKind::IdRefs, Value::List(items)) => {
                for v in items {
                    if let Value::String(s) = v {
                        // An IDREF names one ID: recording it cannot fail.
                        let _ = self.0.record(bind::IdKind::IdRef, s, offset);
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// The IDREFs that name no ID, with their offsets.
    pub(crate) fn unresolved(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.0.unresolved()
    }
}
