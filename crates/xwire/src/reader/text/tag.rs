//! Start tags (attributes, their normalisation and defaults, namespace declarations) and end
//! tags.

use crate::bytes::same_bytes;
use crate::chars;
use crate::dtd::{self, Dtd};
use crate::error::{ErrorKind, LimitKind};
use crate::intern::Id;
use crate::reader::token::{Attr, Span, TokenKind};
use crate::scan::str_of;
use crate::scan::{self, bad, syntax, Ref, Scan, Stop};

use super::{wf, Phase, State, StepR};
use crate::reader::token::ns_err;
use crate::reader::token::{NsId, Open, NO_PREFIX, XMLNS_NS, XML_NS};

impl State {
    #[inline(always)]
    pub(in crate::reader) fn start_tag(
        &mut self,
        data: &[u8],
        eof: bool,
        dtd: &Dtd,
        raw_cr: bool,
        base: u64,
    ) -> Scan<StepR> {
        let start = self.pos;
        if self.phase == Phase::Epilog {
            return bad(
                start,
                wf("a document has exactly one root element; found another after it"),
            );
        }
        let name_end = scan::name(data, start + 1, eof, "an element name")?;
        // SAFETY: `scan::name` just checked these bytes as a Name, character by character.
        #[allow(unsafe_code)]
        let name = unsafe { str_of(&data[start + 1..name_end]) };
        let qname = self.tok.intern_qname(name, start + 1, true)?;
        self.tok.attrs.clear();
        self.tok.scratch.clear();
        let mut i = name_end;
        let empty;
        let mut decls = false;
        loop {
            let ws_start = i;
            i = scan::skip_ws(data, i);
            let Some(&b) = data.get(i) else {
                return if eof {
                    bad(start, ErrorKind::UnexpectedEof("a start tag"))
                } else {
                    Err(Stop::Eof)
                };
            };
            if b == b'>' {
                empty = false;
                i += 1;
                break;
            }
            if b == b'/' {
                match data.get(i + 1) {
                    Some(b'>') => {
                        empty = true;
                        i += 2;
                        break;
                    }
                    None if !eof => return Err(Stop::Eof),
                    _ => return syntax(i + 1, "'>' after '/' in an empty-element tag", data),
                }
            }
            if i == ws_start {
                return syntax(i, "white space, '>' or '/>'", data);
            }
            let n_end = scan::name(data, i, eof, "an attribute name, '>' or '/>'")?;
            // SAFETY: `scan::name` just checked these bytes as a Name, character by character.
            #[allow(unsafe_code)]
            let name = unsafe { str_of(&data[i..n_end]) };
            let aq = self.tok.intern_qname(name, i, false)?;
            let mut j = scan::skip_ws(data, n_end);
            match data.get(j) {
                Some(b'=') => j += 1,
                None if !eof => return Err(Stop::Eof),
                _ => return syntax(j, "'=' after the attribute name", data),
            }
            j = scan::skip_ws(data, j);
            let q = match data.get(j) {
                Some(&q @ (b'"' | b'\'')) => q,
                None if !eof => return Err(Stop::Eof),
                _ => return syntax(j, "a quoted attribute value", data),
            };
            let vstart = j + 1;
            let mut k = vstart;
            let mut needs = false;
            loop {
                k = crate::simd::find_attr_stop(data, k);
                let Some(&c) = data.get(k) else {
                    return if eof {
                        bad(vstart - 1, ErrorKind::UnexpectedEof("an attribute value"))
                    } else {
                        Err(Stop::Eof)
                    };
                };
                if c == q {
                    break;
                }
                match c {
                    b'"' | b'\'' => k += 1,
                    b'<' => return bad(k, wf("'<' is not allowed in an attribute value")),
                    b'&' => {
                        k = scan::reference(data, k, eof)?.1;
                        needs = true;
                    }
                    b'\t' | b'\n' | b'\r' => {
                        needs = true;
                        k += 1;
                    }
                    c if c < 0x80 => return bad(k, ErrorKind::InvalidChar(c as char)),
                    _ => k += scan::utf8_char(data, k)?.1,
                }
            }
            self.check_len(vstart, k)?;
            let value = if needs {
                self.expansion.doc = base + k as u64;
                self.normalize_attr(data, vstart, k, dtd, raw_cr)?
            } else {
                Span {
                    start: vstart,
                    end: k,
                    scratch: false,
                }
            };
            if self.tok.attrs.len() >= self.tok.config.limits.max_attributes as usize {
                return bad(
                    i,
                    ErrorKind::LimitExceeded(
                        LimitKind::Attributes,
                        self.tok.config.limits.max_attributes as u64,
                    ),
                );
            }
            decls |= data[i..n_end].starts_with(b"xmlns");
            self.tok.attrs.push(Attr {
                name: Span {
                    start: i,
                    end: n_end,
                    scratch: false,
                },
                value,
                qname: aq,
                ns: NsId::NONE,
                defaulted: false,
                id: false,
            });
            i = k + 1;
        }
        self.check_len(start, i)?;
        if !dtd.attlists.is_empty() {
            let n = self.tok.attrs.len();
            // SAFETY: the attributes were read from `data` by the loop above.
            #[allow(unsafe_code)]
            unsafe { self.apply_attlist(data, dtd, qname, start) }?;
            decls |= self.tok.attrs[n..]
                .iter()
                .any(|a| self.tok.scratch[a.name.start..a.name.end].starts_with("xmlns"));
        }
        if self.tok.attrs.len() > 1 {
            self.check_duplicates(start)?;
        }
        let mark = self.tok.bindings.len() as u32;
        let mut ns = NsId::NONE;
        if self.tok.config.namespaces {
            if decls {
                // SAFETY: the attributes were read from `data` by the loop above.
                #[allow(unsafe_code)]
                unsafe { self.declare_namespaces(data, start) }?;
            }
            ns = self.tok.resolve(qname, start + 1, true)?;
            let mut prefixed = 0;
            for n in 0..self.tok.attrs.len() {
                let a = self.tok.attrs[n];
                if a.ns != NsId::XMLNS && self.tok.qmeta[a.qname.0 as usize].prefix_len > 0 {
                    self.tok.attrs[n].ns = self.tok.resolve(a.qname, a.name.start, false)?;
                    prefixed += 1;
                }
            }
            if prefixed > 1 {
                self.check_expanded_duplicates(start)?;
            }
        }
        if self.tok.stack.len() >= self.tok.config.limits.max_depth as usize {
            return bad(
                start,
                ErrorKind::LimitExceeded(LimitKind::Depth, self.tok.config.limits.max_depth as u64),
            );
        }
        self.tok.stack.push(Open {
            qname,
            ns,
            bindings: mark,
        });
        self.tok.set_token(TokenKind::Start, start, base);
        self.tok.span = Span {
            start: start + 1,
            end: name_end,
            scratch: false,
        };
        self.tok.qname = qname;
        self.tok.ns = ns;
        self.tok.empty = empty;
        self.pending_end = empty;
        self.phase = Phase::Content;
        self.pos = i;
        Ok(if empty { StepR::Empty } else { StepR::Token })
    }

    /// Attribute-value normalisation (XML 1.0 section 3.3.3) into the scratch buffer.
    pub(in crate::reader) fn normalize_attr(
        &mut self,
        data: &[u8],
        s: usize,
        e: usize,
        dtd: &Dtd,
        raw_cr: bool,
    ) -> Scan<Span> {
        let s0 = self.tok.scratch.len();
        let mut i = s;
        while i < e {
            let run = crate::simd::find_attr_stop(&data[..e], i);
            // SAFETY: ASCII: `find_attr_stop` stops at every byte >= 0x80.
            #[allow(unsafe_code)]
            let plain = unsafe { str_of(&data[i..run]) };
            self.tok.scratch.push_str(plain);
            if run >= e {
                break;
            }
            i = run;
            match data[i] {
                b'&' => {
                    let (r, end) = scan::reference(data, i, true)?;
                    match r {
                        Ref::Char(c) => self.tok.scratch.push(c),
                        Ref::Entity(ns, ne) => {
                            // SAFETY: `scan::reference` matched a Name there with `scan::name`,
                            // which checked it character by character.
                            #[allow(unsafe_code)]
                            let name = unsafe { str_of(&data[ns..ne]) };
                            match dtd.general(name) {
                                None if self.standalone || !dtd.has_external_parts => {
                                    return bad(i, ErrorKind::UndeclaredEntity(name.to_string()))
                                }
                                None => {}
                                Some(id) => {
                                    let ent = &dtd.entities[id];
                                    if ent.ndata.is_some() {
                                        return bad(i, wf(format!("attribute values cannot refer to the unparsed entity '{name}'")));
                                    }
                                    if self.standalone && ent.external_decl {
                                        return bad(i, wf(format!("entity '{name}' is declared externally but the document is standalone")));
                                    }
                                    let limits = self.tok.config.limits.clone();
                                    dtd::attr_entity(
                                        dtd,
                                        id,
                                        &mut self.tok.scratch,
                                        0,
                                        &limits,
                                        &mut self.expansion,
                                    )
                                    .map_err(|k| Stop::at(i, k))?;
                                }
                            }
                        }
                    }
                    i = end;
                }
                b'\r' if raw_cr && data.get(i + 1) == Some(&b'\n') => i += 1,
                b'\t' | b'\n' | b'\r' => {
                    self.tok.scratch.push(' ');
                    i += 1;
                }
                _ => {
                    // Quotes of the other kind and non-ASCII characters (already checked).
                    let (c, l) = scan::any_char(data, i)?;
                    self.tok.scratch.push(c);
                    i += l;
                }
            }
        }
        if (self.tok.scratch.len() - s0) as u64 > self.tok.config.limits.max_text_length {
            return bad(
                s,
                ErrorKind::LimitExceeded(
                    LimitKind::TextLength,
                    self.tok.config.limits.max_text_length,
                ),
            );
        }
        Ok(Span {
            start: s0,
            end: self.tok.scratch.len(),
            scratch: true,
        })
    }

    /// Applies the attribute-list declarations of the element: defaults for missing
    /// attributes, token normalisation for non-CDATA ones.
    ///
    /// # Safety
    ///
    /// `data` must be the bytes the current start tag's attributes were read from (their
    /// values are viewed in it as `str`s).
    #[allow(unsafe_code)]
    pub(in crate::reader) unsafe fn apply_attlist(
        &mut self,
        data: &[u8],
        dtd: &Dtd,
        qname: Id,
        at: usize,
    ) -> Scan<()> {
        let Some(defs) = dtd.attlists.get(self.tok.names.get(qname)) else {
            return Ok(());
        };
        for def in defs {
            let id = self
                .tok
                .intern_qname(&def.name, 0, false)
                .map_err(|s| match s {
                    Stop::Bad(b) => Stop::at(at, b.1),
                    s => s,
                })?;
            let found = self.tok.attrs.iter().position(|a| a.qname == id);
            if let Some(n) = found {
                self.tok.attrs[n].id = def.ty == dtd::AttType::Id;
            }
            match found {
                Some(n) if def.ty != dtd::AttType::Cdata => {
                    // SAFETY: the caller promises that the attributes were read from `data`.
                    let v = unsafe { self.tok.value_of(data, self.tok.attrs[n].value) };
                    if v.starts_with(' ') || v.ends_with(' ') || v.contains("  ") {
                        let c = dtd::collapse(v);
                        let s0 = self.tok.scratch.len();
                        self.tok.scratch.push_str(&c);
                        self.tok.attrs[n].value = Span {
                            start: s0,
                            end: self.tok.scratch.len(),
                            scratch: true,
                        };
                    }
                }
                Some(_) => {}
                None => {
                    let (dtd::AttDefault::Value(v) | dtd::AttDefault::Fixed(v)) = &def.default
                    else {
                        continue;
                    };
                    let n0 = self.tok.scratch.len();
                    self.tok.scratch.push_str(&def.name);
                    let v0 = self.tok.scratch.len();
                    self.tok.scratch.push_str(v);
                    if self.tok.attrs.len() >= self.tok.config.limits.max_attributes as usize {
                        return bad(
                            at,
                            ErrorKind::LimitExceeded(
                                LimitKind::Attributes,
                                self.tok.config.limits.max_attributes as u64,
                            ),
                        );
                    }
                    self.tok.attrs.push(Attr {
                        name: Span {
                            start: n0,
                            end: v0,
                            scratch: true,
                        },
                        value: Span {
                            start: v0,
                            end: self.tok.scratch.len(),
                            scratch: true,
                        },
                        qname: id,
                        ns: NsId::NONE,
                        defaulted: true,
                        id: def.ty == dtd::AttType::Id,
                    });
                }
            }
        }
        Ok(())
    }

    pub(in crate::reader) fn check_duplicates(&self, at: usize) -> Scan<()> {
        let n = self.tok.attrs.len();
        if n < 2 {
            return Ok(());
        }
        let dup = if n <= 16 {
            (1..n).find_map(|i| {
                (0..i)
                    .find(|&j| self.tok.attrs[j].qname == self.tok.attrs[i].qname)
                    .map(|_| i)
            })
        } else {
            let mut seen = std::collections::HashSet::with_capacity(n);
            (0..n).find(|&i| !seen.insert(self.tok.attrs[i].qname))
        };
        match dup {
            Some(i) => bad(
                if self.tok.attrs[i].defaulted {
                    at
                } else {
                    self.tok.attrs[i].name.start
                },
                ErrorKind::DuplicateAttribute(
                    self.tok.names.get(self.tok.attrs[i].qname).to_string(),
                ),
            ),
            None => Ok(()),
        }
    }

    /// Two prefixed attributes whose prefixes are bound to the same URI, with the same local
    /// name, are duplicates (Namespaces in XML 1.0, "Attributes Unique").
    pub(in crate::reader) fn check_expanded_duplicates(&self, at: usize) -> Scan<()> {
        let is_pref = |a: &Attr| a.ns != NsId::NONE && a.ns != NsId::XMLNS;
        if self.tok.attrs.iter().filter(|a| is_pref(a)).take(2).count() < 2 {
            return Ok(());
        }
        let pref: Vec<usize> = (0..self.tok.attrs.len())
            .filter(|&i| is_pref(&self.tok.attrs[i]))
            .collect();
        let local = |i: usize| {
            let a = &self.tok.attrs[i];
            let n = self.tok.names.get(a.qname);
            &n[self.tok.qmeta[a.qname.0 as usize].prefix_len as usize + 1..]
        };
        let mut seen = std::collections::HashSet::with_capacity(pref.len());
        for &i in &pref {
            if !seen.insert((self.tok.attrs[i].ns, local(i))) {
                let a = &self.tok.attrs[i];
                return bad(
                    if a.defaulted { at } else { a.name.start },
                    ns_err(format!(
                        "attribute '{}' duplicates another with the same namespace and local name",
                        self.tok.names.get(a.qname)
                    )),
                );
            }
        }
        Ok(())
    }

    /// Processes the `xmlns` and `xmlns:p` attributes of the current start tag.
    ///
    /// # Safety
    ///
    /// `data` must be the bytes the current start tag's attributes were read from (their
    /// names and values are viewed in it as `str`s).
    #[allow(unsafe_code)]
    pub(in crate::reader) unsafe fn declare_namespaces(
        &mut self,
        data: &[u8],
        at: usize,
    ) -> Scan<()> {
        let mut changed = false;
        for n in 0..self.tok.attrs.len() {
            let a = self.tok.attrs[n];
            let m = self.tok.qmeta[a.qname.0 as usize];
            let name = self.tok.names.get(a.qname);
            let is_default = m.prefix_len == 0 && name == "xmlns";
            let is_prefixed = m.prefix_len == 5 && name.starts_with("xmlns:");
            if !is_default && !is_prefixed {
                continue;
            }
            let where_ = if a.defaulted { at } else { a.name.start };
            let v = a.value;
            let uri = if v.scratch {
                &self.tok.scratch[v.start..v.end]
            } else {
                // SAFETY: the caller promises that the attributes were read from `data`, where
                // the start tag's scan checked each value's characters.
                unsafe { str_of(&data[v.start..v.end]) }
            };
            let uri_id = if is_default {
                if uri == XML_NS || uri == XMLNS_NS {
                    return bad(
                        where_,
                        ns_err(format!("the default namespace cannot be \"{uri}\"")),
                    );
                }
                (NO_PREFIX, uri)
            } else {
                let local = &name[6..];
                if local == "xmlns" {
                    return bad(where_, ns_err("the prefix 'xmlns' cannot be declared"));
                }
                if local == "xml" {
                    if uri != XML_NS {
                        return bad(
                            where_,
                            ns_err(format!("the prefix 'xml' must be bound to \"{XML_NS}\"")),
                        );
                    }
                    self.tok.attrs[n].ns = NsId::XMLNS;
                    continue;
                }
                if uri == XML_NS || uri == XMLNS_NS {
                    return bad(
                        where_,
                        ns_err(format!("the prefix '{local}' cannot be bound to \"{uri}\"")),
                    );
                }
                if uri.is_empty() {
                    return bad(where_, ns_err(format!("the prefix '{local}' cannot be undeclared (bound to \"\") in Namespaces 1.0")));
                }
                // Interned from the document's bytes when the name is there (no copy);
                // a name defaulted from the DTD lives in `scratch`, beside the value.
                let id = if a.name.scratch {
                    let local = local.to_string();
                    self.tok.names.intern(&local)
                } else {
                    // SAFETY: the caller promises that the attributes were read from `data`,
                    // where `scan::name` checked this name; it starts with the ASCII `xmlns:`.
                    let local = unsafe { str_of(&data[a.name.start + 6..a.name.end]) };
                    self.tok.names.intern(local)
                };
                (id, uri)
            };
            let (prefix, uri) = uri_id;
            let ns = NsId(self.tok.uris.intern(uri).0);
            self.tok.bindings.push((prefix, ns));
            self.tok.cover_names();
            self.tok.attrs[n].ns = NsId::XMLNS;
            changed = true;
        }
        if changed {
            self.tok.bindings_changed();
        }
        Ok(())
    }

    #[inline(always)]
    pub(in crate::reader) fn end_tag(&mut self, data: &[u8], eof: bool, base: u64) -> Scan<StepR> {
        let start = self.pos;
        let s = start + 2;
        // Fast path: the name of the open element, then a byte that cannot continue a name. The
        // open element's name was validated by its start tag, so nothing is scanned twice.
        let (e, matched) = match self.tok.stack.last() {
            Some(top) => {
                let open = self.tok.names.bytes(top.qname);
                let e = s + open.len();
                match data.get(e) {
                    Some(&b)
                        if same_bytes(&data[s..e], open)
                            && (b == b'>' || chars::is_whitespace(b)) =>
                    {
                        (e, true)
                    }
                    None if !eof && data.len() < e + 1 => return Err(Stop::Eof),
                    _ => (
                        scan::name(data, s, eof, "an element name in the end tag")?,
                        false,
                    ),
                }
            }
            None => (
                scan::name(data, s, eof, "an element name in the end tag")?,
                false,
            ),
        };
        let i = scan::skip_ws(data, e);
        match data.get(i) {
            Some(b'>') => {}
            None if !eof => return Err(Stop::Eof),
            _ => return syntax(i, "'>' to end the end tag", data),
        }
        let Some(top) = self.tok.stack.last().copied() else {
            return bad(
                start,
                wf(format!(
                    "end tag </{}> without a start tag",
                    String::from_utf8_lossy(&data[s..e])
                )),
            );
        };
        if !matched && !same_bytes(self.tok.names.bytes(top.qname), &data[s..e]) {
            return bad(
                start,
                ErrorKind::MismatchedEndTag {
                    expected: self.tok.names.get(top.qname).to_string(),
                    found: String::from_utf8_lossy(&data[s..e]).into_owned(),
                },
            );
        }
        if self
            .frames
            .last()
            .is_some_and(|f| self.tok.stack.len() <= f.depth)
        {
            return bad(
                start,
                wf(format!(
                    "the end tag </{}> closes an element opened outside the entity",
                    String::from_utf8_lossy(&data[s..e])
                )),
            );
        }
        self.tok.set_token(TokenKind::End, start, base);
        self.tok.qname = top.qname;
        self.tok.ns = top.ns;
        self.pop_element();
        self.pos = i + 1;
        Ok(StepR::Token)
    }

    /// The end event of an empty-element tag (`<a/>`), read after its start event.
    #[inline(always)]
    pub(in crate::reader) fn end_empty_element(&mut self) {
        self.pending_end = false;
        self.tok.kind = TokenKind::End;
        self.pop_element();
    }

    /// Closes the innermost open element; after the root, the epilog begins.
    pub(in crate::reader) fn pop_element(&mut self) {
        self.tok.pop_element();
        if self.tok.stack.is_empty() {
            self.phase = Phase::Epilog;
        }
    }
}
