//! Saving the descriptor arrays beside the document, and loading them back without parsing
//! (the format is in the documentation of `Index::save`).

use std::fmt;
use std::io::{self, Write};

use super::*;

const MAGIC: &[u8; 8] = b"XWIRIDX\0";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 8 + 8 + 6 * 4;

/// Why a saved index was refused by [`Index::load`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The bytes do not start with the index magic.
    NotAnIndex,
    /// Saved by another version of the format.
    Version(u32),
    /// Saved for another document (length or hash differ).
    Stale,
    /// The file is damaged or forged; the string says which check failed.
    Corrupt(&'static str),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotAnIndex => f.write_str("not a saved xwire index"),
            LoadError::Version(v) => write!(f, "saved index version {v} is not supported"),
            LoadError::Stale => f.write_str("the saved index belongs to another document"),
            LoadError::Corrupt(what) => write!(f, "corrupt saved index: {what}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// A fast non-cryptographic 64-bit hash, eight bytes at a time.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = bytes.len() as u64 ^ 0x243F_6A88_85A3_08D3;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^ (h >> 32)
}

/// Reads little-endian fields, refusing to read past the end.
struct In<'s> {
    s: &'s [u8],
    pos: usize,
}

impl<'s> In<'s> {
    fn take(&mut self, n: usize) -> Result<&'s [u8], LoadError> {
        let end = self.pos.checked_add(n).ok_or(LoadError::Corrupt("size"))?;
        let b = self
            .s
            .get(self.pos..end)
            .ok_or(LoadError::Corrupt("truncated"))?;
        self.pos = end;
        Ok(b)
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn u32s(&mut self, n: usize, out: &mut Vec<u32>) -> Result<(), LoadError> {
        let b = self.take(n.checked_mul(4).ok_or(LoadError::Corrupt("size"))?)?;
        out.clear();
        out.extend(
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))),
        );
        Ok(())
    }
}

impl<'a> Index<'a> {
    /// Writes the index (not the document) for [`Index::load`]: versioned, and tied to the
    /// document by its length and hash.
    ///
    /// Format (all integers little-endian):
    ///
    /// ```text
    /// magic        8 bytes  "XWIRIDX\0"
    /// version      u32      1
    /// flags        u32      bit 0: namespaces were processed
    /// doc_len      u64      length of the document
    /// doc_hash     u64      hash of the document's bytes (a stale index is refused)
    /// nodes        u32      descriptors, then:
    /// decls        u32      namespace declarations
    /// uris         u32      distinct namespace URIs
    /// uri_bytes    u32
    /// extras       u32      values kept as strings
    /// extra_bytes  u32
    /// off, len, info, parent, aux      nodes × u32 each (`next` is derived on load)
    /// decls        decls × (owner, prefix, prefix_len, uri, in_extra) u32
    /// uri spans    uris × (start, len) u32, then uri_bytes of UTF-8
    /// extras       extras × (node, name, name_len, value, value_len) u32, then extra_bytes
    /// checksum     u64      hash of everything before it
    /// ```
    ///
    /// The hash (of the document and of the file) reads eight bytes at a time as little-endian
    /// words `w`: `h = len ^ 0x243F6A8885A308D3`, then `h = rotl((h ^ w) * 0x9E3779B97F4A7C15, 29)`
    /// per word, then the zero-padded tail word `t`: `h = (h ^ t) * 0x9E3779B97F4A7C15`, and the
    /// result is `h ^ (h >> 32)` (wrapping multiplication).
    ///
    /// Loading checks every field: sizes against the input, spans against the document and the
    /// string tables, and the shape of the tree (preorder, parents before children, attributes
    /// right after their element, depths, kinds), so a corrupt or hostile file gives a
    /// [`LoadError`], never a panic or an out-of-bounds access. The hash is not cryptographic: a
    /// forged file that passes every check describes the document wrongly (wrong strings), but
    /// cannot make the index misbehave.
    ///
    /// ```
    /// use xwire::index::Index;
    /// let doc = b"<a x='1'><b>text</b></a>";
    /// let ix = Index::parse(doc)?;
    /// let mut saved = Vec::new();
    /// ix.save(&mut saved)?;
    /// let back = Index::load(doc, &saved)?;
    /// assert_eq!(back.string_value(back.root()), "text");
    /// assert!(Index::load(b"<a x='2'><b>text</b></a>", &saved).is_err()); // another document
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        let mut body = Vec::with_capacity(HEADER + self.off.len() * 20 + 64);
        self.save_body(&mut body);
        w.write_all(&body)?;
        w.write_all(&hash(&body).to_le_bytes())
    }

    /// Everything `save` writes before the checksum, for hashing.
    fn save_body(&self, v: &mut Vec<u8>) {
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&VERSION.to_le_bytes());
        v.extend_from_slice(&u32::from(self.namespaces).to_le_bytes());
        v.extend_from_slice(&(self.doc.len() as u64).to_le_bytes());
        v.extend_from_slice(&hash(self.doc).to_le_bytes());
        for n in [
            self.off.len(),
            self.decls.len(),
            self.uri_spans.len(),
            self.uri_text.len(),
            self.extras.len(),
            self.extra_text.len(),
        ] {
            v.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for a in [&self.off, &self.len, &self.info, &self.parent, &self.aux] {
            for x in a.iter() {
                v.extend_from_slice(&x.to_le_bytes());
            }
        }
        for d in &self.decls {
            for x in [
                d.owner,
                d.prefix,
                d.prefix_len,
                d.uri,
                u32::from(d.in_extra),
            ] {
                v.extend_from_slice(&x.to_le_bytes());
            }
        }
        for &(a, l) in &self.uri_spans {
            v.extend_from_slice(&a.to_le_bytes());
            v.extend_from_slice(&l.to_le_bytes());
        }
        v.extend_from_slice(self.uri_text.as_bytes());
        for e in &self.extras {
            for x in [e.node, e.name, e.name_len, e.value, e.value_len] {
                v.extend_from_slice(&x.to_le_bytes());
            }
        }
        v.extend_from_slice(self.extra_text.as_bytes());
    }

    /// Rebuilds an index of `doc` from what [`Index::save`] wrote, without parsing: the
    /// arrays are read and checked (see [`Index::save`] for the format).
    pub fn load(doc: &'a [u8], saved: &[u8]) -> Result<Index<'a>, LoadError> {
        let mut ix = Index::new();
        ix.load_into(doc, saved)?;
        Ok(ix)
    }

    /// [`Index::load`] into this index, reusing its allocations. On error the index
    /// describes the empty document.
    pub fn load_into(&mut self, doc: &'a [u8], saved: &[u8]) -> Result<(), LoadError> {
        let r = self.load_inner(doc, saved);
        if r.is_err() {
            self.reset(&[]);
        }
        r
    }

    fn load_inner(&mut self, doc: &'a [u8], saved: &[u8]) -> Result<(), LoadError> {
        use LoadError::Corrupt;
        if saved.len() < 8 || &saved[..8] != MAGIC {
            return Err(LoadError::NotAnIndex);
        }
        if saved.len() < HEADER + 8 {
            return Err(Corrupt("truncated"));
        }
        let (body, sum) = saved.split_at(saved.len() - 8);
        if hash(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(Corrupt("checksum"));
        }
        let mut r = In { s: body, pos: 8 };
        let version = r.u32()?;
        if version != VERSION {
            return Err(LoadError::Version(version));
        }
        let flags = r.u32()?;
        if flags > 1 {
            return Err(Corrupt("flags"));
        }
        if r.u64()? != doc.len() as u64 || r.u64()? != hash(doc) {
            return Err(LoadError::Stale);
        }
        let counts: Vec<usize> = (0..6)
            .map(|_| r.u32().map(|n| n as usize))
            .collect::<Result<_, _>>()?;
        let (nodes, ndecls, nuris, uri_bytes, nextras, extra_bytes) = (
            counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
        );
        // The sizes must add up to the file exactly (so nothing is allocated for sizes the
        // file does not hold).
        let expect = (nodes as u128) * 20
            + (ndecls as u128) * 20
            + (nuris as u128) * 8
            + uri_bytes as u128
            + (nextras as u128) * 20
            + extra_bytes as u128;
        if expect != (body.len() - HEADER) as u128 {
            return Err(Corrupt("sizes do not match the file"));
        }
        if nodes == 0 || nodes >= NONE as usize || nuris == 0 {
            return Err(Corrupt("counts"));
        }
        self.reset(doc);
        self.namespaces = flags & 1 != 0;
        r.u32s(nodes, &mut self.off)?;
        r.u32s(nodes, &mut self.len)?;
        r.u32s(nodes, &mut self.info)?;
        r.u32s(nodes, &mut self.parent)?;
        r.u32s(nodes, &mut self.aux)?;
        let mut tmp = Vec::new();
        r.u32s(ndecls * 5, &mut tmp)?;
        self.decls.clear();
        self.decls.extend(tmp.chunks_exact(5).map(|c| Decl {
            owner: c[0],
            prefix: c[1],
            prefix_len: c[2],
            uri: c[3],
            in_extra: c[4] != 0,
        }));
        r.u32s(nuris * 2, &mut tmp)?;
        self.uri_spans.clear();
        self.uri_spans
            .extend(tmp.chunks_exact(2).map(|c| (c[0], c[1])));
        let uri_text = std::str::from_utf8(r.take(uri_bytes)?).map_err(|_| Corrupt("URI table"))?;
        self.uri_text.clear();
        self.uri_text.push_str(uri_text);
        r.u32s(nextras * 5, &mut tmp)?;
        self.extras.clear();
        self.extras.extend(tmp.chunks_exact(5).map(|c| Extra {
            node: c[0],
            name: c[1],
            name_len: c[2],
            value: c[3],
            value_len: c[4],
        }));
        let extra_text =
            std::str::from_utf8(r.take(extra_bytes)?).map_err(|_| Corrupt("string table"))?;
        self.extra_text.clear();
        self.extra_text.push_str(extra_text);
        self.validate()
    }

    /// Checks a loaded index field by field, and derives `next`.
    fn validate(&mut self) -> Result<(), LoadError> {
        use LoadError::Corrupt;
        let n = self.off.len();
        let doc_len = self.doc.len() as u64;
        let in_str = |s: &str, a: u32, l: u32| {
            let (a, b) = (a as usize, a as usize + l as usize);
            s.is_char_boundary(a.min(s.len())) && b <= s.len() && s.is_char_boundary(b) && a <= b
        };
        for &(a, l) in &self.uri_spans {
            if !in_str(&self.uri_text, a, l) {
                return Err(Corrupt("URI span"));
            }
        }
        if !self.uri(0).is_empty() {
            return Err(Corrupt("URI 0 must be empty"));
        }
        if self.info[0] != K_DOCUMENT || self.parent[0] != NONE {
            return Err(Corrupt("document node"));
        }
        // Preorder: the ancestors of the current node on a stack; each node's parent must be
        // on it. `lasts[d]` is the last child seen at stack level d.
        let mut stack: Vec<u32> = vec![0];
        let mut lasts: Vec<u32> = vec![NONE];
        self.next.clear();
        self.next.resize(n, NONE);
        let mut last_attr = NONE;
        for i in 1..n {
            let info = self.info[i];
            let kind = info & 7;
            let depth = info >> DEPTH_SHIFT;
            let p = self.parent[i];
            if !(K_ELEMENT..=K_PI).contains(&kind) {
                return Err(Corrupt("node kind"));
            }
            while stack.last().is_some_and(|&s| s != p) {
                stack.pop();
                lasts.pop();
            }
            if stack.is_empty() {
                return Err(Corrupt("parent out of document order"));
            }
            let pk = self.info[p as usize] & 7;
            if depth as usize != stack.len() {
                return Err(Corrupt("depth"));
            }
            let (off, len) = (self.off[i] as u64, self.len[i] as u64);
            let defaulted = kind == K_ATTRIBUTE && (info >> FLAG_SHIFT) & F_DEFAULTED != 0;
            if !defaulted && off + len > doc_len {
                return Err(Corrupt("span outside the document"));
            }
            if matches!(kind, K_ELEMENT | K_ATTRIBUTE)
                && self.aux[i] as usize >= self.uri_spans.len()
            {
                return Err(Corrupt("namespace URI id"));
            }
            if kind == K_ATTRIBUTE {
                // Right after its element or the element's previous attribute.
                let prev = i as u32 - 1;
                let ok = pk == K_ELEMENT
                    && (prev == p
                        || (self.info[prev as usize] & 7 == K_ATTRIBUTE
                            && self.parent[prev as usize] == p));
                if !ok {
                    return Err(Corrupt("attribute position"));
                }
                if prev != p {
                    self.next[prev as usize] = i as u32;
                }
                last_attr = i as u32;
                continue;
            }
            if pk != K_ELEMENT && pk != K_DOCUMENT {
                return Err(Corrupt("parent kind"));
            }
            let level = lasts.len() - 1;
            if lasts[level] != NONE {
                self.next[lasts[level] as usize] = i as u32;
            }
            lasts[level] = i as u32;
            if kind == K_ELEMENT {
                stack.push(i as u32);
                lasts.push(NONE);
            }
        }
        let _ = last_attr;
        let mut prev = None;
        for d in &self.decls {
            if d.owner as usize >= n || self.info[d.owner as usize] & 7 != K_ELEMENT {
                return Err(Corrupt("declaration owner"));
            }
            if prev.is_some_and(|p| p > d.owner) {
                return Err(Corrupt("declarations out of order"));
            }
            prev = Some(d.owner);
            if d.uri as usize >= self.uri_spans.len() {
                return Err(Corrupt("declaration URI id"));
            }
            let ok = if d.in_extra {
                in_str(&self.extra_text, d.prefix, d.prefix_len)
            } else {
                d.prefix as u64 + d.prefix_len as u64 <= doc_len
            };
            if !ok {
                return Err(Corrupt("declaration prefix"));
            }
        }
        let mut prev = None;
        for e in &self.extras {
            if prev.is_some_and(|p| p >= e.node) {
                return Err(Corrupt("extras out of order"));
            }
            prev = Some(e.node);
            if e.node as usize >= n
                || !matches!(self.info[e.node as usize] & 7, K_ATTRIBUTE | K_TEXT)
                || !in_str(&self.extra_text, e.name, e.name_len)
                || !in_str(&self.extra_text, e.value, e.value_len)
            {
                return Err(Corrupt("kept value"));
            }
        }
        for i in 0..n {
            let f = (self.info[i] >> FLAG_SHIFT) & 31;
            if f & F_EXTRA != 0 && self.extra(i as u32).is_none() {
                return Err(Corrupt("kept value missing"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) fn hash_for_tests(bytes: &[u8]) -> u64 {
    hash(bytes)
}
