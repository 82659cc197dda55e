//! The attribute uses of a complex type by name.

use crate::model::{ComplexTypeId, NameId, Schema};

/// Finds the attribute use of a complex type named so: by a walk over few, through a sorted
/// index among many (built on first use, kept for the next documents). Each engine keeps its
/// own.
#[derive(Debug, Default)]
pub(crate) struct UseIndex {
    /// Sorted attribute-use names of complex types with many uses, by type.
    index: Vec<Option<Vec<(NameId, usize)>>>,
}

impl UseIndex {
    /// The attribute use of complex type `c` named `n`.
    #[inline]
    pub(crate) fn find(&mut self, schema: &Schema, c: ComplexTypeId, n: NameId) -> Option<usize> {
        let uses = &schema.complex_type(c).attribute_uses;
        if uses.len() > 8 {
            return self.find_indexed(schema, c, n);
        }
        uses.iter().position(|u| schema.attribute(u.decl).name == n)
    }

    /// The attribute use named `n` of a type with many: through the index.
    fn find_indexed(&mut self, schema: &Schema, c: ComplexTypeId, n: NameId) -> Option<usize> {
        if self.index.len() <= c.index() {
            self.index.resize_with(c.index() + 1, || None);
        }
        let index = self.index[c.index()].get_or_insert_with(|| {
            let mut v: Vec<(NameId, usize)> = schema
                .complex_type(c)
                .attribute_uses
                .iter()
                .enumerate()
                .map(|(i, u)| (schema.attribute(u.decl).name, i))
                .collect();
            v.sort();
            v
        });
        let i = index.partition_point(|x| x.0 < n);
        index.get(i).filter(|x| x.0 == n).map(|x| x.1)
    }
}
