//! The start-tag memo. A start tag with the same bytes as an earlier one, under the same
//! namespace bindings, has the same attributes: the scanner finds them with one comparison
//! instead of reading them again. A SOAP array repeats `<item xsi:type="xsd:int">` for every
//! item, an array of structs a few such tags, a record file its `<row kind="a">`.
//!
//! Most tags never repeat, so a tag costs a key (where it is, how long, under which
//! bindings) when it is first read; what reading it gave is kept the second time the same
//! bytes come, and used from the third on.

use super::{Attr, Scanner, Span};
use crate::bytes::same_bytes;

/// How many start tags the memo keeps, in slots by their names' length and last byte (the
/// tags of an array of structs are apart).
const SLOTS: usize = 8;
/// The most attributes a kept tag may have.
const ATTRS: usize = 4;
/// The longest tag kept, so that offsets in it fit a byte.
const BYTES: usize = u8::MAX as usize;

/// Start tags read with no namespace declaration and no value that normalising changed.
#[derive(Debug, Default)]
pub(super) struct TagMemo<'a> {
    keys: [Key; SLOTS],
    /// What the tags of `keys` gave, once one came twice: allocated for the documents
    /// that repeat.
    kept: Option<Box<[Kept<'a>; SLOTS]>>,
}

/// A tag in a slot: where it is in the input, how long (0: none) and the scanner's
/// `epoch` (its bindings) then.
#[derive(Clone, Copy, Debug, Default)]
struct Key {
    tag: usize,
    len: u8,
    /// The slot's [`Kept`] holds what this tag gave.
    kept: bool,
    epoch: u32,
}

/// What reading a tag gave, as offsets from its `<`.
#[derive(Clone, Copy, Debug, Default)]
struct Kept<'a> {
    count: u8,
    attrs: [KeptAttr<'a>; ATTRS],
    prefixed: bool,
    self_closing: bool,
    /// Its `xsi:type`, as `Scanner::xsi`: the URI and the local part.
    xsi: Option<Option<(&'a str, (u8, u8))>>,
}

/// An attribute of a [`Kept`] tag.
#[derive(Clone, Copy, Debug, Default)]
struct KeptAttr<'a> {
    name: (u8, u8),
    local: u8,
    value: (u8, u8),
    ns: &'a str,
}

/// What the memo knows of a start tag, by its slot.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seen {
    /// Not these bytes, or not under these bindings.
    New(usize),
    /// These bytes once before: what reading them gives is to be kept.
    Again(usize),
    /// These bytes, and what they give ([`Scanner::recall`]).
    Known(usize),
}

impl TagMemo<'_> {
    /// What the memo knows of the start tag at `tag` in `bytes`, named `name`, under the
    /// bindings of `epoch`.
    #[inline]
    pub(super) fn seen(&self, bytes: &[u8], tag: usize, name: Span, epoch: u32) -> Seen {
        let name = &bytes[name.start..name.end];
        let slot = (name.len() + name.last().map_or(0, |&b| b as usize)) % SLOTS;
        let key = self.keys[slot];
        let len = key.len as usize;
        let same = len != 0
            && key.epoch == epoch
            && bytes
                .get(tag..tag + len)
                .is_some_and(|new| same_bytes(new, &bytes[key.tag..key.tag + len]));
        match (same, key.kept) {
            (false, _) => Seen::New(slot),
            (true, false) => Seen::Again(slot),
            (true, true) => Seen::Known(slot),
        }
    }
}

impl Scanner<'_> {
    /// Notes the start tag just read (at `self.tag`, no declarations in it) in its slot,
    /// and keeps what it gave when the same bytes came before.
    pub(super) fn remember(&mut self, seen: Seen) {
        let tag = self.tag;
        let len = self.pos - tag;
        let slot = match seen {
            Seen::New(slot) | Seen::Again(slot) | Seen::Known(slot) => slot,
        };
        if len > BYTES || self.attrs.len() > ATTRS || self.attrs.iter().any(|a| a.normalised) {
            self.memo.keys[slot].len = 0;
            return;
        }
        let Seen::Again(_) = seen else {
            self.memo.keys[slot] = Key {
                tag,
                len: len as u8,
                kept: false,
                epoch: self.epoch,
            };
            return;
        };
        // Offsets within the tag, which is at most `BYTES` long.
        let at = |p: usize| (p - tag) as u8;
        let mut attrs = [KeptAttr::default(); ATTRS];
        for (k, a) in attrs.iter_mut().zip(&self.attrs) {
            *k = KeptAttr {
                name: (at(a.name.start), at(a.name.end)),
                local: at(a.local),
                value: (at(a.value.start), at(a.value.end)),
                ns: a.ns,
            };
        }
        let kept = self.memo.kept.get_or_insert_with(Default::default);
        kept[slot] = Kept {
            count: self.attrs.len() as u8,
            attrs,
            prefixed: self.prefixed,
            self_closing: self.self_closing,
            xsi: self
                .xsi
                .map(|x| x.map(|(ns, local, _)| (ns, (at(local.start), at(local.end))))),
        };
        self.memo.keys[slot].kept = true;
    }

    /// Reads the current start tag as its slot's kept tag, [`Seen::Known`]: what
    /// `attributes_from` would find. False when nothing is kept (a known tag always is).
    #[inline]
    pub(super) fn recall(&mut self, slot: usize) -> bool {
        let tag = self.tag;
        let len = self.memo.keys[slot].len as usize;
        let Some(kept) = &self.memo.kept else {
            return false;
        };
        let kept = &kept[slot];
        let span = |(start, end): (u8, u8)| Span {
            start: tag + start as usize,
            end: tag + end as usize,
        };
        self.attrs.clear();
        self.attrs
            .extend(kept.attrs[..kept.count as usize].iter().map(|a| Attr {
                name: span(a.name),
                ns: a.ns,
                local: tag + a.local as usize,
                value: span(a.value),
                normalised: false,
                decl: false,
            }));
        self.values.clear();
        self.prefixed = kept.prefixed;
        self.self_closing = kept.self_closing;
        self.xsi = kept
            .xsi
            .map(|x| x.map(|(ns, local)| (ns, span(local), false)));
        self.pos = tag + len;
        true
    }
}
