//! Building an [`Index`] in one pass over the reader's tokens.
//!
//! The reader has checked every constraint; this only records where things are. The
//! positions come from the reader: [`Reader::offset`] (start of the token), `bytes_read`
//! (its end) and the name spans of the start tag, which index the caller's bytes because the
//! index reads UTF-8 slices only (`spans_index_input`).

use super::*;
use crate::{Event, Reader};

/// Vectors reused from one build to the next.
#[derive(Default)]
pub(super) struct Scratch {
    /// Last child so far of each open element (and the document), innermost last.
    lasts: Vec<u32>,
    /// Content of the text node being built, when it must be kept as a string.
    pending: String,
    /// The unescaped data of the current text token, while it is collected.
    piece: String,
}

/// What to do with the current token once its position is known.
enum After {
    Nothing,
    Text(u32),
    Comment,
    Pi,
    Doctype,
    Skipped,
}

/// The text node being extended by adjacent character data.
struct OpenText {
    node: u32,
    /// Its content is collected in `Scratch::pending` (references to entities the DTD
    /// declares may be in it).
    pending: bool,
}

struct Builder<'i, 'a> {
    ix: &'i mut Index<'a>,
    open: u32,
    depth: u32,
    text: Option<OpenText>,
    /// The DTD declares entities or attribute lists: values it changed are kept as strings.
    dtd_values: bool,
    /// Most descriptors before a start tag (which adds its attributes too).
    node_limit: usize,
}

pub(super) fn build<'a>(ix: &mut Index<'a>, doc: &'a [u8], config: &Config) -> crate::Result<()> {
    ix.reset(doc);
    ix.namespaces = config.namespaces;
    if doc.len() >= u32::MAX as usize {
        return Err(too_big(0, u32::MAX as u64));
    }
    // A guess at the descriptor count (a node per 10 to 30 bytes in usual documents), so a
    // cold build grows its six arrays once or twice instead of a dozen times.
    let guess = doc.len() / 32;
    if ix.off.capacity() < guess {
        for v in [
            &mut ix.off,
            &mut ix.len,
            &mut ix.info,
            &mut ix.parent,
            &mut ix.next,
            &mut ix.aux,
        ] {
            v.reserve(guess);
        }
    }
    let bufs = ix.reader.take().unwrap_or_default();
    let mut r = Reader::with_buffers(doc, config.clone(), bufs);
    let mut scratch = std::mem::take(&mut ix.scratch);
    scratch.lasts.clear();
    scratch.lasts.push(NONE);
    let mut b = Builder {
        ix,
        open: 0,
        depth: 0,
        text: None,
        dtd_values: false,
        node_limit: (NONE as usize - 2).saturating_sub(config.limits.max_attributes as usize),
    };
    let result = b.run(&mut r, &mut scratch);
    if result.is_ok() {
        // The distinct namespace URIs, by the reader's ids (the ids the descriptors hold).
        let ix = &mut *b.ix;
        ix.uri_spans.clear();
        for i in 0..r.namespace_count() {
            let uri = r.namespace_uri(crate::NsId(i as u32));
            ix.uri_spans
                .push((ix.uri_text.len() as u32, uri.len() as u32));
            ix.uri_text.push_str(uri);
        }
    }
    b.ix.scratch = scratch;
    b.ix.reader = Some(r.into_buffers());
    result
}

impl Builder<'_, '_> {
    fn run(&mut self, r: &mut Reader<'_>, sc: &mut Scratch) -> crate::Result<()> {
        if r.is_binary() {
            return Err(self.unsupported(
                r,
                0,
                "the token index reads text XML only; decode binary XML to text first (binary::decode_to_text), or build a tree::Document",
            ));
        }
        if !r.spans_index_input() {
            return Err(self.unsupported(
                r,
                0,
                "the index reads UTF-8 (or ASCII) documents only; transcode the document first",
            ));
        }
        // The token's position is read after the event (no peeking: it costs a sixth of the
        // reader's speed), so the event's data is taken first and placed after.
        loop {
            if self.ix.off.len() >= self.node_limit {
                return Err(too_big(r.bytes_read(), NONE as u64 - 1));
            }
            let after = match r.next()? {
                Event::Start(t) => {
                    self.close_text(sc);
                    if self.depth >= MAX_DEPTH {
                        return Err(too_big(t.name_offset() as u64, MAX_DEPTH as u64));
                    }
                    let flags = if t.is_empty() { F_EMPTY } else { 0 };
                    let e = self.push(
                        K_ELEMENT,
                        flags,
                        t.name_offset() as u32,
                        t.name().len() as u32,
                        t.ns().0,
                        sc,
                    );
                    let mut prev_attr = NONE;
                    for a in t.attributes() {
                        if a.is_namespace_decl() {
                            let uri = t.namespace_id_of(a.value()).map_or(0, |ns| ns.0);
                            let plen = a.name().len().saturating_sub(6) as u32;
                            let decl = match a.name_offset() {
                                Some(o) => Decl {
                                    owner: e,
                                    prefix: o as u32 + 6,
                                    prefix_len: plen,
                                    uri,
                                    in_extra: false,
                                },
                                None => {
                                    let p = self.ix.extra_text.len() as u32;
                                    self.ix.extra_text.push_str(a.name().get(6..).unwrap_or(""));
                                    Decl {
                                        owner: e,
                                        prefix: p,
                                        prefix_len: plen,
                                        uri,
                                        in_extra: true,
                                    }
                                }
                            };
                            self.ix.decls.push(decl);
                            continue;
                        }
                        let i = self.ix.off.len() as u32;
                        let name_len = a.name().len() as u32;
                        match a.name_offset() {
                            Some(o) => {
                                let mut f = 0;
                                if a.is_normalized() {
                                    if self.dtd_values {
                                        f = F_EXTRA;
                                        self.push_extra(i, "", a.value());
                                    } else {
                                        f = F_ESC;
                                    }
                                }
                                self.push_attr(f, o as u32, name_len, a.ns().0, e);
                            }
                            None => {
                                self.push_extra(i, a.name(), a.value());
                                self.push_attr(F_EXTRA | F_DEFAULTED, 0, 0, a.ns().0, e);
                            }
                        }
                        if prev_attr != NONE {
                            self.ix.next[prev_attr as usize] = i;
                        }
                        prev_attr = i;
                    }
                    sc.lasts.push(NONE);
                    self.open = e;
                    self.depth += 1;
                    After::Nothing
                }
                Event::End(_) => {
                    self.close_text(sc);
                    sc.lasts.pop();
                    self.open = self.ix.parent[self.open as usize];
                    self.depth -= 1;
                    After::Nothing
                }
                Event::Text(t) => {
                    if self.collecting() {
                        sc.piece.clear();
                        sc.piece.push_str(&t.unescape());
                    }
                    After::Text(if t.is_plain() { 0 } else { F_ESC })
                }
                Event::CData(c) => {
                    if c.raw().is_empty() && self.text.is_none() {
                        After::Nothing
                    } else {
                        if self.collecting() {
                            sc.piece.clear();
                            sc.piece.push_str(&c.text());
                        }
                        After::Text(F_CDATA)
                    }
                }
                Event::Comment(_) => After::Comment,
                Event::Pi(_) => After::Pi,
                Event::Doctype(_) => After::Doctype,
                Event::SkippedEntity(_) => After::Skipped,
                Event::Eof => {
                    self.close_text(sc);
                    return Ok(());
                }
            };
            if r.in_entity() {
                let at = r.offset();
                return Err(self.unsupported(
                    r,
                    at,
                    "a reference to an entity whose replacement text holds markup (the index \
                     needs every node in the document's bytes)",
                ));
            }
            let (start, end) = (r.offset() as u32, r.bytes_read() as u32);
            match after {
                After::Nothing => {}
                After::Text(flags) => {
                    let piece = std::mem::take(&mut sc.piece);
                    self.add_text(start, end, flags, self.collecting().then_some(&*piece), sc);
                    sc.piece = piece;
                }
                After::Comment => {
                    self.close_text(sc);
                    let body = start + 4;
                    let f = self.cr_flag(body, end - 3);
                    self.push(K_COMMENT, f, body, end - 3 - body, 0, sc);
                }
                After::Pi => {
                    self.close_text(sc);
                    let body = start + 2;
                    let f = self.cr_flag(body, end - 2);
                    self.push(K_PI, f, body, end - 2 - body, 0, sc);
                }
                After::Doctype => self.dtd_values = r.dtd_shapes_values(),
                After::Skipped => {
                    // An unread entity: nothing of it is in the data model. Text around it is
                    // one node whose bytes hold the reference, which unescaping skips.
                    if let Some(t) = &self.text {
                        let node = t.node as usize;
                        self.ix.len[node] = end - self.ix.off[node];
                        self.ix.info[node] |= F_ESC << FLAG_SHIFT;
                    }
                }
            }
        }
    }
    /// Whether the content of character data is collected (the DTD may change it).
    #[inline]
    fn collecting(&self) -> bool {
        self.dtd_values
    }

    /// `F_ESC` if the document's bytes `a..b` hold a carriage return.
    fn cr_flag(&self, a: u32, b: u32) -> u32 {
        let bytes = self.ix.doc.get(a as usize..b as usize).unwrap_or(&[]);
        if memchr::memchr(b'\r', bytes).is_some() {
            F_ESC
        } else {
            0
        }
    }

    #[cold]
    fn unsupported(&self, r: &mut Reader<'_>, at: u64, what: &str) -> Error {
        let loc = r.location_of(at);
        Error::new(ErrorKind::Unsupported(what.to_string()), loc)
    }

    /// Appends a child of the open element (or document); its index.
    #[inline(always)]
    fn push(
        &mut self,
        kind: u32,
        flags: u32,
        off: u32,
        len: u32,
        aux: u32,
        sc: &mut Scratch,
    ) -> u32 {
        let ix = &mut *self.ix;
        let i = ix.off.len() as u32;
        ix.off.push(off);
        ix.len.push(len);
        ix.info
            .push(kind | flags << FLAG_SHIFT | (self.depth + 1) << DEPTH_SHIFT);
        ix.parent.push(self.open);
        ix.next.push(NONE);
        ix.aux.push(aux);
        if let Some(last) = sc.lasts.last_mut() {
            if *last != NONE {
                ix.next[*last as usize] = i;
            }
            *last = i;
        }
        i
    }

    #[inline(always)]
    fn push_attr(&mut self, flags: u32, off: u32, len: u32, aux: u32, element: u32) {
        let ix = &mut *self.ix;
        ix.off.push(off);
        ix.len.push(len);
        ix.info
            .push(K_ATTRIBUTE | flags << FLAG_SHIFT | (self.depth + 2) << DEPTH_SHIFT);
        ix.parent.push(element);
        ix.next.push(NONE);
        ix.aux.push(aux);
    }

    fn push_extra(&mut self, node: u32, name: &str, value: &str) {
        let ix = &mut *self.ix;
        let n = ix.extra_text.len() as u32;
        ix.extra_text.push_str(name);
        let v = ix.extra_text.len() as u32;
        ix.extra_text.push_str(value);
        ix.extras.push(Extra {
            node,
            name: n,
            name_len: name.len() as u32,
            value: v,
            value_len: value.len() as u32,
        });
    }

    /// Character data `start..end` (a text token or a CDATA section): extends the open text
    /// node or starts one. `content` is the unescaped data when it is collected.
    fn add_text(
        &mut self,
        start: u32,
        end: u32,
        flags: u32,
        content: Option<&str>,
        sc: &mut Scratch,
    ) {
        if let Some(t) = &self.text {
            let node = t.node as usize;
            self.ix.len[node] = end - self.ix.off[node];
            self.ix.info[node] |= flags << FLAG_SHIFT;
            if t.pending {
                if let Some(c) = content {
                    sc.pending.push_str(c);
                }
            }
            return;
        }
        if content.as_ref().is_some_and(|c| c.is_empty()) {
            return; // No empty text nodes (an entity that expands to nothing).
        }
        let node = self.push(K_TEXT, flags, start, end - start, 0, sc);
        let pending = self.collecting();
        if pending {
            sc.pending.clear();
            if let Some(c) = content {
                sc.pending.push_str(c);
            }
        }
        self.text = Some(OpenText { node, pending });
    }

    /// Ends the open text node, keeping its collected content when it differs from what the
    /// bytes say.
    fn close_text(&mut self, sc: &mut Scratch) {
        let Some(t) = self.text.take() else {
            return;
        };
        if !t.pending {
            return;
        }
        let node = t.node as usize;
        if (self.ix.info[node] >> FLAG_SHIFT) & F_ESC == 0 {
            return; // No references: the bytes say it all.
        }
        self.ix.info[node] |= F_EXTRA << FLAG_SHIFT;
        let v = self.ix.extra_text.len() as u32;
        self.ix.extra_text.push_str(&sc.pending);
        self.ix.extras.push(Extra {
            node: t.node,
            name: v,
            name_len: 0,
            value: v,
            value_len: sc.pending.len() as u32,
        });
    }
}
