//! String interning: names and namespace URIs become small integer ids.
//!
//! One open-addressing table over a single string pool. Names are hashed once when a tag is read
//! and compared as integers afterwards; the pool also owns the bytes, so names survive the
//! refilling of a streaming buffer.

/// A small integer standing for an interned string. Ids are dense, starting at 0, and valid for
/// the [`crate::Reader`] that produced them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub u32);

#[derive(Clone, Default)]
pub(crate) struct Interner {
    pool: String,
    /// (start, end) of each id's string in `pool`.
    spans: Vec<(u32, u32)>,
    /// Open-addressing slots holding `id + 1`, 0 = empty. Length is a power of two.
    slots: Vec<u32>,
    hashes: Vec<u32>,
}

#[inline]
fn hash(b: &[u8]) -> u32 {
    // FxHash-style: fold 8 bytes at a time. Names are short; this is a few cycles for most.
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let r = chunks.remainder();
    if !r.is_empty() {
        let mut w = [0u8; 8];
        w[..r.len()].copy_from_slice(r);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    (h >> 32) as u32 ^ h as u32
}

impl Interner {
    pub(crate) fn clear(&mut self) {
        self.pool.clear();
        self.spans.clear();
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.hashes.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The id of `s`, adding it if new.
    #[inline]
    pub(crate) fn intern(&mut self, s: &str) -> Id {
        if self.slots.is_empty() {
            self.slots = vec![0; 64];
        }
        let h = hash(s.as_bytes());
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                break;
            }
            let id = slot - 1;
            if self.hashes[id as usize] == h && self.get(Id(id)) == s {
                return Id(id);
            }
            i = (i + 1) & mask;
        }
        let id = self.spans.len() as u32;
        let start = self.pool.len() as u32;
        self.pool.push_str(s);
        self.spans.push((start, self.pool.len() as u32));
        self.hashes.push(h);
        self.slots[i] = id + 1;
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
        let h = hash(s.as_bytes());
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if self.hashes[slot as usize - 1] == h && self.get(Id(slot - 1)) == s {
                return Some(Id(slot - 1));
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots = vec![0; n];
        for (id, &h) in self.hashes.iter().enumerate() {
            let mut i = h as usize & (n - 1);
            while self.slots[i] != 0 {
                i = (i + 1) & (n - 1);
            }
            self.slots[i] = id as u32 + 1;
        }
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
        let names: Vec<String> = (0..1000).map(|n| format!("name{n}")).collect();
        let ids: Vec<Id> = names.iter().map(|n| i.intern(n)).collect();
        for (n, id) in names.iter().zip(&ids) {
            assert_eq!(i.intern(n), *id);
            assert_eq!(i.find(n), Some(*id));
            assert_eq!(i.get(*id), n);
        }
        assert_eq!(i.find("nope"), None);
        i.clear();
        assert_eq!(i.find("name1"), None);
        assert_eq!(i.intern("x"), Id(0));
    }
}
