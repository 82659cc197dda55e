//! String interning: names and namespace URIs become small integer ids.
//!
//! One open-addressing table over a single string pool. Names are hashed once when a tag is read
//! and compared as integers afterwards; the pool also owns the bytes, so names survive the
//! refilling of a streaming buffer.

use crate::bytes::{first_eight, same_bytes};

/// A small integer standing for an interned string. Ids are dense, starting at 0, and valid for
/// the [`crate::Reader`] that produced them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub u32);

#[derive(Clone)]
pub(crate) struct Interner {
    pool: String,
    /// (start, end) of each id's string in `pool`.
    spans: Vec<(u32, u32)>,
    /// Open-addressing table, length a power of two. A slot holds the first eight bytes and the
    /// length of its string, so most probes compare two integers and never touch the pool.
    slots: Vec<Slot>,
    /// Sequence prediction for [`Interner::predicted`], per id, `id + 1` of the name that
    /// followed it last time (0: none yet): `[0]` the next element after an element, `[1]`
    /// the next attribute after an element (its first) or an attribute.
    next: Vec<[u32; 2]>,
    /// The name interned last through the prediction (`u32::MAX`: none).
    last: u32,
    /// The element name interned last through the prediction (`u32::MAX`: none).
    last_element: u32,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    head: u64,
    len: u32,
    /// `id + 1`; 0 marks an empty slot.
    id1: u32,
}

#[inline]
fn hash(first: u64, b: &[u8]) -> u64 {
    // Multiply-fold: names are short, so the head word decides almost everything.
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (first ^ (b.len() as u64).rotate_left(56)).wrapping_mul(K);
    if b.len() > 8 {
        for c in b[8..].chunks(8) {
            h = (h.rotate_left(23) ^ first_eight(c)).wrapping_mul(K);
        }
    }
    h ^ (h >> 29)
}

impl Default for Interner {
    fn default() -> Interner {
        Interner {
            pool: String::new(),
            spans: Vec::new(),
            slots: Vec::new(),
            next: Vec::new(),
            last: u32::MAX,
            last_element: u32::MAX,
        }
    }
}

impl Interner {
    /// An interner with room for about `slots / 2` names and `pool` bytes before it grows.
    pub(crate) fn with_capacity(slots: usize, pool: usize) -> Interner {
        let slots = slots.next_power_of_two().max(8);
        Interner {
            pool: String::with_capacity(pool),
            spans: Vec::with_capacity(slots / 2),
            slots: vec![Slot::default(); slots],
            next: Vec::with_capacity(slots / 2),
            last: u32::MAX,
            last_element: u32::MAX,
        }
    }

    /// Bytes held on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pool.capacity()
            + self.spans.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.next.capacity() * std::mem::size_of::<[u32; 2]>()
    }

    pub(crate) fn clear(&mut self) {
        self.pool.clear();
        self.spans.clear();
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
        self.next.clear();
        self.last = u32::MAX;
        self.last_element = u32::MAX;
    }

    /// Like [`Interner::intern`] for a stream of names (element and attribute names in document
    /// order): documents repeat their patterns, so the name that followed the previous one last
    /// time is checked first, by one short compare instead of a hash probe. Elements follow
    /// elements and attributes their element or attribute: an element name followed by
    /// `xsi:type` everywhere (SOAP) predicts both what comes after it and the element after.
    #[cfg(test)]
    fn intern_next(&mut self, s: &str, element: bool) -> Id {
        match self.predicted(s.as_bytes(), element) {
            Some(id) => id,
            None => self.intern_unpredicted(s, element),
        }
    }

    /// The prediction for the next name in document order, taken when it holds (see
    /// `intern_next`).
    #[inline(always)]
    pub(crate) fn predicted(&mut self, b: &[u8], element: bool) -> Option<Id> {
        let (prev, k) = if element {
            (self.last_element, 0)
        } else {
            (self.last, 1)
        };
        let p1 = self.next.get(prev as usize)?[k];
        let &(ps, pe) = self.spans.get((p1 as usize).wrapping_sub(1))?;
        let name = self.pool.as_bytes().get(ps as usize..pe as usize)?;
        if !same_bytes(name, b) {
            return None;
        }
        self.last = p1 - 1;
        if element {
            self.last_element = p1 - 1;
        }
        Some(Id(p1 - 1))
    }

    /// Interns a name the prediction missed, and predicts it after the previous one next
    /// time.
    #[inline(never)]
    pub(crate) fn intern_unpredicted(&mut self, s: &str, element: bool) -> Id {
        let prev = if element {
            self.last_element
        } else {
            self.last
        };
        let id = self.intern(s);
        if let Some(p) = self.next.get_mut(prev as usize) {
            p[usize::from(!element)] = id.0 + 1;
        }
        if self.next.len() < self.spans.len() {
            self.next.resize(self.spans.len(), [0; 2]);
        }
        self.last = id.0;
        if element {
            self.last_element = id.0;
        }
        id
    }

    /// Forgets every id from `n` on, keeping the first `n` (and the allocations).
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.spans.len() {
            return;
        }
        // Linear probing stays intact: the kept ids were inserted before every removed one, so
        // their probe sequences only ever crossed slots of other kept ids.
        for slot in &mut self.slots {
            if slot.id1 as usize > n {
                *slot = Slot::default();
            }
        }
        self.pool.truncate(self.spans[n].0 as usize);
        self.spans.truncate(n);
        self.next.clear();
        self.last = u32::MAX;
        self.last_element = u32::MAX;
    }

    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    #[inline]
    fn tail_eq(&self, id1: u32, b: &[u8]) -> bool {
        b.len() <= 8 || {
            let (s, e) = self.spans[id1 as usize - 1];
            same_bytes(&self.pool.as_bytes()[s as usize + 8..e as usize], &b[8..])
        }
    }

    /// Looks `b` (whose head word is `hd`) up: its id, or the empty slot where it would go.
    /// The table must not be empty.
    #[inline]
    fn probe(&self, b: &[u8], hd: u64) -> Result<Id, usize> {
        let mask = self.slots.len() - 1;
        let mut i = hash(hd, b) as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.id1 == 0 {
                return Err(i);
            }
            if slot.head == hd && slot.len as usize == b.len() && self.tail_eq(slot.id1, b) {
                return Ok(Id(slot.id1 - 1));
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `s`, adding it if new.
    #[inline]
    pub(crate) fn intern(&mut self, s: &str) -> Id {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); 64];
        }
        let b = s.as_bytes();
        let hd = first_eight(b);
        let i = match self.probe(b, hd) {
            Ok(id) => return id,
            Err(i) => i,
        };
        let id = self.spans.len() as u32;
        let start = self.pool.len() as u32;
        self.pool.push_str(s);
        self.spans.push((start, self.pool.len() as u32));
        self.slots[i] = Slot {
            head: hd,
            len: b.len() as u32,
            id1: id + 1,
        };
        if self.spans.len() * 2 > self.slots.len() {
            self.grow();
        }
        Id(id)
    }

    /// The id of `s` if it was interned before.
    pub(crate) fn find(&self, s: &str) -> Option<Id> {
        if self.slots.is_empty() {
            return None;
        }
        let b = s.as_bytes();
        self.probe(b, first_eight(b)).ok()
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); n]);
        for slot in old.into_iter().filter(|s| s.id1 != 0) {
            let (s, e) = self.spans[slot.id1 as usize - 1];
            let b = &self.pool.as_bytes()[s as usize..e as usize];
            let mut i = hash(slot.head, b) as usize & (n - 1);
            while self.slots[i].id1 != 0 {
                i = (i + 1) & (n - 1);
            }
            self.slots[i] = slot;
        }
    }

    /// The bytes of a name: `get` without the slicing of a `str` (which checks both ends
    /// fall on character boundaries).
    #[inline]
    pub(crate) fn bytes(&self, id: Id) -> &[u8] {
        let (s, e) = self.spans[id.0 as usize];
        &self.pool.as_bytes()[s as usize..e as usize]
    }

    #[inline]
    pub(crate) fn get(&self, id: Id) -> &str {
        let (s, e) = self.spans[id.0 as usize];
        &self.pool[s as usize..e as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_and_finds() {
        let mut i = Interner::default();
        let mut names: Vec<String> = (0..1000).map(|n| format!("name{n}")).collect();
        names.extend((0..300).map(|n| format!("a-rather-long-element-name-{n}")));
        names.push(String::new());
        let ids: Vec<Id> = names.iter().map(|n| i.intern(n)).collect();
        for (n, id) in names.iter().zip(&ids) {
            assert_eq!(i.intern(n), *id);
            assert_eq!(i.find(n), Some(*id));
            assert_eq!(i.get(*id), n);
        }
        assert_eq!(i.find("nope"), None);
        // Predicted and unpredicted lookups agree, whatever the order.
        for round in 0..3 {
            for (k, (n, id)) in names.iter().zip(&ids).enumerate() {
                if (k + round) % 3 != 0 {
                    assert_eq!(i.intern_next(n, k % 4 == 0), *id);
                }
            }
        }
        assert_eq!(i.intern_next("brand-new", true), Id(names.len() as u32));
        i.truncate(10);
        assert_eq!(i.find("name9"), Some(ids[9]));
        assert_eq!(i.find("name10"), None);
        assert_eq!(i.intern("name10b"), Id(10));
        i.clear();
        assert_eq!(i.find("name1"), None);
        assert_eq!(i.intern("x"), Id(0));
    }
}
