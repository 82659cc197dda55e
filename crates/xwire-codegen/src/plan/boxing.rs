//! Boxes the fields through which an item would contain itself: a struct holding a value of
//! its own type, directly or through other items, has no finite size. `Vec` already puts its
//! items behind a pointer, so only fields that occur once or optionally count.

use std::collections::HashSet;

use super::{Item, ItemId, ItemKind, Occurs, Ty};

/// The items a value of `ty` holds inline (not behind a `Vec`).
fn inline_items(ty: &Ty, occurs: Occurs, out: &mut Vec<ItemId>) {
    if matches!(occurs, Occurs::Many { .. }) {
        return;
    }
    if let Ty::Item(id) = ty {
        out.push(*id);
    }
}

/// The items item `i` holds inline, by field or variant.
fn edges(item: &Item) -> Vec<ItemId> {
    let mut out = Vec::new();
    match &item.kind {
        ItemKind::Struct { fields } => {
            for f in fields {
                inline_items(&f.ty, f.occurs, &mut out);
            }
        }
        ItemKind::Choice { variants } => {
            for v in variants {
                inline_items(&v.ty, v.occurs, &mut out);
            }
        }
        ItemKind::Newtype { inner } => inline_items(inner, Occurs::One, &mut out),
        ItemKind::Union { members } => {
            for (_, ty) in members {
                inline_items(ty, Occurs::One, &mut out);
            }
        }
        ItemKind::Enumeration { .. } => {}
    }
    out
}

/// Whether `to` holds `from` inline, through any chain of items.
fn reaches(items: &[Item], from: ItemId, to: ItemId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![from];
    while let Some(i) = stack.pop() {
        if i == to {
            return true;
        }
        if seen.insert(i) {
            stack.extend(edges(&items[i.0]));
        }
    }
    false
}

/// Marks `boxed` every field and variant whose item leads back to the item holding it.
pub(super) fn box_cycles(items: &mut [Item]) {
    for i in 0..items.len() {
        let me = ItemId(i);
        let loops = |ty: &Ty, occurs: Occurs, items: &[Item]| match ty {
            Ty::Item(t) if !matches!(occurs, Occurs::Many { .. }) => reaches(items, *t, me),
            _ => false,
        };
        let mut marks = Vec::new();
        match &items[i].kind {
            ItemKind::Struct { fields } => {
                for f in fields {
                    marks.push(loops(&f.ty, f.occurs, items));
                }
            }
            ItemKind::Choice { variants } => {
                for v in variants {
                    marks.push(loops(&v.ty, v.occurs, items));
                }
            }
            _ => {}
        }
        match &mut items[i].kind {
            ItemKind::Struct { fields } => {
                for (f, m) in fields.iter_mut().zip(marks) {
                    f.boxed = m;
                }
            }
            ItemKind::Choice { variants } => {
                for (v, m) in variants.iter_mut().zip(marks) {
                    v.boxed = m;
                }
            }
            _ => {}
        }
    }
}
