//! ID uniqueness and IDREF resolution (Validation Rule: Validation Root Valid (ID/IDREF)):
//! each source of a generated parser keeps one table for its document, and so does the
//! schema validator (`xwire-schema`'s general pass).

use std::collections::HashSet;

use super::Fault;

/// What an ID-typed value is: its type is (derived from) `xs:ID`, `xs:IDREF`, or a list of
/// IDREFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    /// `xs:ID`: unique in the document.
    Id,
    /// `xs:IDREF`: names an ID of the document.
    IdRef,
    /// `xs:IDREFS`: each item names an ID of the document.
    IdRefs,
}

/// The IDs a document defined so far and the IDREFs it has to resolve at its end.
///
/// ```
/// use xwire::bind::{IdKind, Ids};
///
/// let mut ids = Ids::default();
/// ids.record(IdKind::IdRefs, "a b", 10)?;
/// ids.record(IdKind::Id, " a ", 20)?;
/// assert!(ids.record(IdKind::Id, "a", 30).is_err(), "a second ID a");
/// assert_eq!(ids.unresolved().collect::<Vec<_>>(), [("b", 10)]);
/// # Ok::<(), xwire::bind::Fault>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Ids {
    ids: HashSet<Box<str>>,
    refs: Vec<(Box<str>, u64)>,
}

impl Ids {
    /// Records `value` of kind `kind`, found at byte `offset`: an ID already defined is an
    /// error (cvc-id.2).
    pub fn record(&mut self, kind: IdKind, value: &str, offset: u64) -> Result<(), Fault> {
        let value = crate::datatypes::trim_xml(value);
        match kind {
            IdKind::Id => {
                if !self.ids.insert(value.into()) {
                    let m = format!("the ID '{value}' is defined twice");
                    return Err(Fault::new("cvc-id.2", m));
                }
            }
            IdKind::IdRef => self.refs.push((value.into(), offset)),
            IdKind::IdRefs => {
                for r in value.split_ascii_whitespace() {
                    self.refs.push((r.into(), offset));
                }
            }
        }
        Ok(())
    }

    /// The IDREFs that name no ID, with where they are, in document order.
    pub fn unresolved(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.refs
            .iter()
            .filter(|(r, _)| !self.ids.contains(r))
            .map(|(r, at)| (&**r, *at))
    }

    /// Forgets every ID and IDREF, for the next document.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.refs.clear();
    }

    /// The error of an IDREF `r` that names no ID.
    #[cold]
    pub(super) fn dangling(r: &str) -> Fault {
        let m = format!("the IDREF '{r}' names no ID of the document");
        Fault::new("cvc-id.1", m)
    }
}
