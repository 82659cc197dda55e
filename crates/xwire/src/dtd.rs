//! The document type declaration: the model of what it declares, and its parser.
//!
//! A non-validating processor must read the internal subset, expand internal entities, apply
//! attribute defaults and normalise attribute values by their declared types. External
//! entities (the external subset, external parameter entities) are read only through a
//! [`Resolver`]; when one is not read, later entity and attribute-list declarations are parsed but
//! not processed, as section 5.1 of the recommendation requires (unless `standalone="yes"`).
//!
//! Parameter-entity references are expanded by a stack of frames: each frame is the text of one
//! entity and a position in it. Nothing here recurses in proportion to the input: content
//! models are checked with an explicit stack and entity nesting is bounded by a limit.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use std::sync::OnceLock;

use crate::chars::{self, is_whitespace};
use crate::config::Limits;
use crate::decl::{self, DeclKind};
use crate::error::{ErrorKind, LimitKind};
use crate::resolver::Resolver;
use crate::scan::{self, syntax, Ref, Scan, Stop};

/// A declared entity, general or parameter.
#[derive(Debug)]
pub(crate) struct Entity {
    pub(crate) name: Box<str>,
    /// Replacement text of an internal entity.
    pub(crate) value: Option<Arc<str>>,
    pub(crate) public_id: Option<Box<str>>,
    pub(crate) system_id: Option<Box<str>>,
    /// Notation of an unparsed entity.
    pub(crate) ndata: Option<Box<str>>,
    /// URI of the entity that holds the declaration, to resolve `system_id` against.
    pub(crate) base: Option<Arc<str>>,
    /// Declared in the external subset or in a parameter entity (matters for `standalone`).
    pub(crate) external_decl: bool,
    /// Replacement text of an external entity, once loaded (`None` inside: could not be read).
    pub(crate) loaded: OnceLock<Option<(Arc<str>, Arc<str>)>>,
    /// Content class of a general entity, computed on first reference.
    pub(crate) class: ClassCell,
    /// Full expansion of a pure-text general entity.
    pub(crate) expanded: OnceLock<Arc<str>>,
}

impl Entity {
    pub(crate) fn is_external(&self) -> bool {
        self.value.is_none()
    }
}

/// What referencing a general entity in content produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Unknown,
    /// Being classified: seeing this again means the entity refers to itself.
    InProgress,
    /// Character data only: it can be expanded inside a text token.
    Text,
    /// Markup (or an external entity): it must be parsed as content in a frame of its own.
    Markup,
}

/// A [`Class`] that can change behind a shared reference, like a `Cell`, but `Sync`, so a
/// DTD (and the reader and index holding one) can move between and be shared by threads.
#[derive(Debug)]
pub(crate) struct ClassCell(AtomicU8);

impl ClassCell {
    const ALL: [Class; 4] = [
        Class::Unknown,
        Class::InProgress,
        Class::Text,
        Class::Markup,
    ];

    fn new(c: Class) -> ClassCell {
        ClassCell(AtomicU8::new(c as u8))
    }

    pub(crate) fn get(&self) -> Class {
        Self::ALL[self.0.load(Relaxed) as usize]
    }

    pub(crate) fn set(&self, c: Class) {
        self.0.store(c as u8, Relaxed);
    }

    fn replace(&self, c: Class) -> Class {
        Self::ALL[self.0.swap(c as u8, Relaxed) as usize]
    }
}

/// Declared type of an attribute: all that matters to a non-validating processor is whether
/// values are normalised as CDATA or as tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttType {
    Cdata,
    Id,
    Tokenized,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AttDefault {
    Required,
    Implied,
    Value(Box<str>),
    Fixed(Box<str>),
}

#[derive(Debug, Clone)]
pub(crate) struct AttDef {
    pub(crate) name: Box<str>,
    pub(crate) ty: AttType,
    pub(crate) default: AttDefault,
}

/// An `ExternalID`: (public identifier, system identifier).
type ExternalId = (Option<Box<str>>, Option<Box<str>>);

/// A loaded external entity: (replacement text, URI it was loaded from).
type LoadedEntity = (Arc<str>, Arc<str>);

/// What the DTD declared.
#[derive(Debug, Default)]
pub(crate) struct Dtd {
    pub(crate) entities: Vec<Entity>,
    general: HashMap<Box<str>, usize>,
    params: HashMap<Box<str>, usize>,
    pub(crate) attlists: HashMap<Box<str>, Vec<AttDef>>,
    /// Notations: name and external identifier.
    pub(crate) notations: Vec<(Box<str>, ExternalId)>,
    /// Processing instructions inside the DTD, in order: (target, data).
    pub(crate) pis: Vec<(Box<str>, Box<str>)>,
    /// The document has an external subset or parameter-entity references: undeclared
    /// entities are then a validity error only (WFC: Entity Declared).
    pub(crate) has_external_parts: bool,
    /// An external subset or parameter entity was not read: declarations may be missing.
    pub(crate) incomplete: bool,
    /// Declarations after an unread parameter entity are not processed (section 5.1).
    skipping: bool,
    /// A [`DtdParser`] (the only writer) has worked on it since it was last cleared: when
    /// not, every table is empty and every flag false, known with one test.
    touched: bool,
}

impl Dtd {
    /// Whether nothing was declared.
    pub(crate) fn is_empty(&self) -> bool {
        !self.touched
            || (self.entities.is_empty()
                && self.attlists.is_empty()
                && self.notations.is_empty()
                && self.pis.is_empty())
    }

    /// Whether there is nothing for [`Dtd::clear`] to forget (the DTD of most documents).
    #[inline]
    fn is_clear(&self) -> bool {
        !self.touched
    }

    /// Forgets every declaration, keeping the allocations (a recycled reader's DTD). Most
    /// documents declare nothing: their readers skip the clearing of every table.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.is_clear() {
            return;
        }
        self.clear_all();
    }

    #[cold]
    #[inline(never)]
    fn clear_all(&mut self) {
        let Dtd {
            entities,
            general,
            params,
            attlists,
            notations,
            pis,
            has_external_parts,
            incomplete,
            skipping,
            touched,
        } = self;
        *touched = false;
        entities.clear();
        general.clear();
        params.clear();
        attlists.clear();
        notations.clear();
        pis.clear();
        *has_external_parts = false;
        *incomplete = false;
        *skipping = false;
    }

    /// Whether any general entity was declared.
    pub(crate) fn has_general_entities(&self) -> bool {
        !self.general.is_empty()
    }

    pub(crate) fn general(&self, name: &str) -> Option<usize> {
        self.general.get(name).copied()
    }

    fn param(&self, name: &str) -> Option<usize> {
        self.params.get(name).copied()
    }
}

/// Counters shared by every expansion in one document.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Expansion {
    pub(crate) total: u64,
    /// Bytes of every external entity loaded (once each).
    pub(crate) input: u64,
    /// Bytes of the document read up to the reference being expanded. The ratio limit compares
    /// expansion with input *read so far*, so a slice and a stream (which cannot know the
    /// document's length in advance) fail at the same place.
    pub(crate) doc: u64,
}

impl Expansion {
    /// Accounts for `n` more bytes of expansion, checking the limits.
    pub(crate) fn add(&mut self, n: usize, limits: &Limits) -> Result<(), ErrorKind> {
        let doc_len = self.input.saturating_add(self.doc);
        self.total = self.total.saturating_add(n as u64);
        if self.total > limits.max_entity_expansion {
            return Err(ErrorKind::LimitExceeded(
                LimitKind::EntityExpansion,
                limits.max_entity_expansion,
            ));
        }
        if self.total > 1 << 20
            && self.total > limits.max_expansion_ratio.saturating_mul(doc_len.max(1))
        {
            return Err(ErrorKind::LimitExceeded(
                LimitKind::ExpansionRatio,
                limits.max_expansion_ratio,
            ));
        }
        Ok(())
    }
}

/// Loads and decodes an external entity through the resolver: its replacement text (text
/// declaration removed, line ends normalised) and its URI.
pub(crate) fn load_external(
    resolver: &mut dyn Resolver,
    public_id: Option<&str>,
    system_id: &str,
    base: Option<&str>,
) -> Result<Option<LoadedEntity>, ErrorKind> {
    let Some(found) = resolver
        .resolve(public_id, system_id, base)
        .map_err(ErrorKind::Resolver)?
    else {
        return Ok(None);
    };
    let enc = crate::input::detect(&found.bytes).map_err(ErrorKind::EncodingMismatch)?;
    let bytes = match enc {
        crate::input::Enc::Utf8 { bom } => found.bytes[bom..].to_vec(),
        _ => match crate::input::decode_all(&found.bytes, enc) {
            (text, None) => text,
            (_, Some((at, m))) => {
                return Err(ErrorKind::InvalidEncoding(format!(
                    "{m} at byte {at} of \"{system_id}\""
                )))
            }
        },
    };
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return Err(ErrorKind::InvalidEncoding(format!(
                "invalid UTF-8 at byte {} of \"{system_id}\"",
                e.utf8_error().valid_up_to()
            )))
        }
    };
    if decl::starts_decl(text.as_bytes(), 0) {
        match decl::parse(text.as_bytes(), 0, true, DeclKind::Text) {
            Ok((d, end)) => {
                if d.version.as_deref().is_some_and(|v| v != "1.0") {
                    return Err(ErrorKind::WellFormedness(format!(
                        "external entity \"{system_id}\" is XML {}, but this is an XML 1.0 processor",
                        d.version.unwrap_or_default()
                    )));
                }
                text.drain(..end);
            }
            Err(Stop::Bad(b)) => return Err(b.1),
            Err(Stop::Eof) => return Err(ErrorKind::UnexpectedEof("the text declaration")),
        }
    }
    if text.contains('\r') {
        text = text.replace("\r\n", "\n").replace('\r', "\n");
    }
    Ok(Some((Arc::from(text), Arc::from(found.uri))))
}

/// Error from inside the DTD: the offset in the base frame (the internal subset) and, if the
/// error came from a parameter entity, its name.
pub(crate) struct DtdError {
    pub(crate) at: usize,
    pub(crate) kind: ErrorKind,
    pub(crate) entity: Option<String>,
}

struct Frame {
    text: Arc<str>,
    pos: usize,
    /// Index of the parameter entity this frame expands; `None` for the subset itself.
    entity: Option<usize>,
    /// References inside declarations are allowed here (external subset or external PE).
    external: bool,
    /// Line ends in this text are not yet normalised (only the document's internal subset).
    raw_cr: bool,
    /// URI of this text, the base for system identifiers declared in it.
    base: Option<Arc<str>>,
    /// The frame was pushed inside a declaration: its end counts as a space.
    in_decl: bool,
}

/// Parses the internal and external subsets into a [`Dtd`].
pub(crate) struct DtdParser<'p> {
    pub(crate) dtd: &'p mut Dtd,
    pub(crate) resolver: Option<&'p mut dyn Resolver>,
    pub(crate) limits: &'p Limits,
    pub(crate) expansion: &'p mut Expansion,
    pub(crate) standalone: bool,
    /// Namespaces are on: entity and notation names must not contain colons.
    pub(crate) namespaces: bool,
    frames: Vec<Frame>,
    /// Nesting of conditional sections per frame depth, to find their ends.
    cond_depth: usize,
}

type R<T> = Result<T, DtdError>;

impl<'p> DtdParser<'p> {
    pub(crate) fn new(
        dtd: &'p mut Dtd,
        resolver: Option<&'p mut dyn Resolver>,
        limits: &'p Limits,
        expansion: &'p mut Expansion,
        standalone: bool,
    ) -> DtdParser<'p> {
        dtd.touched = true;
        DtdParser {
            dtd,
            resolver,
            limits,
            expansion,
            standalone,
            namespaces: true,
            frames: Vec::new(),
            cond_depth: 0,
        }
    }

    /// Parses the internal subset (the text between `[` and `]`, line ends not normalised).
    pub(crate) fn internal_subset(&mut self, text: Arc<str>, base: Option<Arc<str>>) -> R<()> {
        self.frames.push(Frame {
            text,
            pos: 0,
            entity: None,
            external: false,
            raw_cr: true,
            base,
            in_decl: false,
        });
        let r = self.decls(false);
        self.frames.clear();
        r
    }

    /// Loads and parses the external subset, if a resolver is installed.
    pub(crate) fn external_subset(
        &mut self,
        public_id: Option<&str>,
        system_id: &str,
        base: Option<Arc<str>>,
    ) -> R<()> {
        self.dtd.has_external_parts = true;
        let loaded = match self.resolver.as_deref_mut() {
            Some(r) => {
                load_external(r, public_id, system_id, base.as_deref()).map_err(|k| DtdError {
                    at: 0,
                    kind: k,
                    entity: Some(system_id.to_string()),
                })?
            }
            None => None,
        };
        let Some((text, uri)) = loaded else {
            self.dtd.incomplete = true;
            return Ok(());
        };
        self.expansion.input += text.len() as u64;
        self.frames.push(Frame {
            text,
            pos: 0,
            entity: None,
            external: true,
            raw_cr: false,
            base: Some(uri),
            in_decl: false,
        });
        let r = self.decls(false).map_err(|mut e| {
            e.entity.get_or_insert_with(|| system_id.to_string());
            e
        });
        self.frames.clear();
        r
    }

    // ----- frame access -------------------------------------------------------------------

    fn top(&self) -> &Frame {
        self.frames.last().expect("a frame")
    }

    fn data(&self) -> &[u8] {
        self.top().text.as_bytes()
    }

    /// The current frame's text as a `str`, for slicing out names and literals (spans the
    /// scanner found end at ASCII delimiters, so they lie on character boundaries).
    fn text(&self) -> &str {
        &self.top().text
    }

    fn pos(&self) -> usize {
        self.top().pos
    }

    fn set_pos(&mut self, p: usize) {
        self.frames.last_mut().expect("a frame").pos = p;
    }

    fn peek(&self) -> Option<u8> {
        self.data().get(self.pos()).copied()
    }

    fn starts(&self, s: &[u8]) -> bool {
        self.data()[self.pos()..].starts_with(s)
    }

    fn err<T>(&self, at: usize, kind: ErrorKind) -> R<T> {
        Err(self.error_at(at, kind))
    }

    #[cold]
    fn error_at(&self, at: usize, kind: ErrorKind) -> DtdError {
        // Errors inside a parameter entity are reported at the reference in the subset.
        let base = self.frames.iter().position(|f| f.entity.is_some());
        match base {
            None => DtdError {
                at,
                kind,
                entity: None,
            },
            Some(i) => {
                let at = self.frames[..i].last().map_or(0, |f| f.pos);
                let e = self
                    .frames
                    .last()
                    .and_then(|f| f.entity)
                    .map(|e| self.dtd.entities[e].name.to_string());
                DtdError {
                    at,
                    kind,
                    entity: e,
                }
            }
        }
    }

    fn lift<T>(&self, r: Scan<T>) -> R<T> {
        r.map_err(|s| match s {
            Stop::Bad(b) => self.error_at(b.0, b.1),
            Stop::Eof => self.error_at(
                self.data().len(),
                ErrorKind::UnexpectedEof("a markup declaration"),
            ),
        })
    }

    fn expect(&mut self, s: &'static [u8], what: &'static str) -> R<()> {
        if self.starts(s) {
            let p = self.pos() + s.len();
            self.set_pos(p);
            Ok(())
        } else {
            let d = self.data();
            self.lift(syntax(self.pos(), what, d))
        }
    }

    /// Skips white space inside a declaration, expanding parameter-entity references where the
    /// context allows them and leaving frames that end. Returns whether anything was skipped.
    fn ws(&mut self) -> R<bool> {
        let mut any = false;
        loop {
            let p = scan::skip_ws(self.data(), self.pos());
            if p != self.pos() {
                any = true;
                self.set_pos(p);
            }
            if p == self.data().len() && self.top().in_decl {
                self.frames.pop();
                any = true;
                continue;
            }
            if self.peek() == Some(b'%')
                && self.data().get(p + 1).is_some_and(|&b| !is_whitespace(b))
            {
                if !self.top().external {
                    return self.err(p, wf("a parameter-entity reference cannot occur inside a markup declaration in the internal subset"));
                }
                self.pe_reference(true)?;
                any = true;
                continue;
            }
            return Ok(any);
        }
    }

    fn req_ws(&mut self, what: &'static str) -> R<()> {
        if !self.ws()? {
            let d = self.data();
            return self.lift(syntax(self.pos(), what, d));
        }
        Ok(())
    }

    fn name(&mut self, what: &'static str) -> R<Box<str>> {
        let p = self.pos();
        let end = self.lift(scan::name(self.data(), p, true, what))?;
        self.set_pos(end);
        Ok(self.text()[p..end].into())
    }

    /// A parameter-entity reference at the current position: pushes its replacement text, or
    /// records that it could not be read.
    fn pe_reference(&mut self, in_decl: bool) -> R<()> {
        let start = self.pos();
        let end = self.lift(scan::name(
            self.data(),
            start + 1,
            true,
            "a parameter entity name after '%'",
        ))?;
        if self.data().get(end) != Some(&b';') {
            let d = self.data();
            return self.lift(syntax(end, "';' to end the parameter-entity reference", d));
        }
        let name = self.text()[start + 1..end].to_string();
        self.set_pos(end + 1);
        self.dtd.has_external_parts = true;
        let Some(id) = self.dtd.param(&name) else {
            if self.standalone || !self.dtd.incomplete {
                return self.err(start, ErrorKind::UndeclaredEntity(format!("%{name}")));
            }
            self.dtd.skipping = true;
            return Ok(());
        };
        if self.frames.iter().any(|f| f.entity == Some(id)) {
            return self.err(start, ErrorKind::RecursiveEntity(format!("%{name}")));
        }
        if self.frames.len() > self.limits.max_entity_depth as usize {
            return self.err(
                start,
                ErrorKind::LimitExceeded(LimitKind::EntityDepth, self.limits.max_entity_depth),
            );
        }
        let text = match self.entity_text(id, start)? {
            Some(t) => t,
            None => {
                self.dtd.incomplete = true;
                if !self.standalone {
                    self.dtd.skipping = true;
                }
                return Ok(());
            }
        };
        let e = &self.dtd.entities[id];
        let external = self.top().external || e.is_external();
        // Declarations in an internal entity's text belong to the external entity (or document)
        // they are parsed in (erratum E18); an external entity is its own base.
        let base = if e.is_external() {
            e.loaded.get().and_then(|l| l.as_ref()).map(|l| l.1.clone())
        } else {
            self.top().base.clone()
        };
        self.expansion
            .add(text.len(), self.limits)
            .map_err(|k| self.error_at(start, k))?;
        self.frames.push(Frame {
            text,
            pos: 0,
            entity: Some(id),
            external,
            raw_cr: false,
            base,
            in_decl,
        });
        Ok(())
    }

    /// The replacement text of entity `id`, loading it through the resolver if external.
    fn entity_text(&mut self, id: usize, at: usize) -> R<Option<Arc<str>>> {
        let e = &self.dtd.entities[id];
        if let Some(v) = &e.value {
            return Ok(Some(v.clone()));
        }
        if let Some(l) = e.loaded.get() {
            return Ok(l.as_ref().map(|l| l.0.clone()));
        }
        let Some(resolver) = self.resolver.as_deref_mut() else {
            return Ok(None);
        };
        let sys = e.system_id.as_deref().unwrap_or("");
        let loaded = load_external(resolver, e.public_id.as_deref(), sys, e.base.as_deref())
            .map_err(|k| self.error_at(at, k))?;
        let text = loaded.as_ref().map(|l| l.0.clone());
        if let Some(t) = &text {
            self.expansion.input += t.len() as u64;
        }
        let _ = self.dtd.entities[id].loaded.set(loaded);
        Ok(text)
    }

    // ----- declarations --------------------------------------------------------------------

    /// Parses markup declarations until the base frame ends (or, inside an INCLUDE section,
    /// until its `]]>`).
    fn decls(&mut self, in_include: bool) -> R<()> {
        let base_depth = self.frames.len();
        loop {
            let p = scan::skip_ws(self.data(), self.pos());
            self.set_pos(p);
            if p == self.data().len() {
                if self.frames.len() > base_depth || (in_include && self.top().entity.is_some()) {
                    self.frames.pop();
                    continue;
                }
                if in_include {
                    return self.err(p, ErrorKind::UnexpectedEof("a conditional section"));
                }
                return Ok(());
            }
            let data = self.data();
            match data[p] {
                b'%' => self.pe_reference(false)?,
                b']' if in_include && self.starts(b"]]>") => {
                    self.set_pos(p + 3);
                    return Ok(());
                }
                b'<' => {
                    if self.starts(b"<!--") {
                        self.comment()?;
                    } else if self.starts(b"<?") {
                        self.pi()?;
                    } else if self.starts(b"<!ELEMENT") {
                        self.element_decl()?;
                    } else if self.starts(b"<!ATTLIST") {
                        self.attlist_decl()?;
                    } else if self.starts(b"<!ENTITY") {
                        self.entity_decl()?;
                    } else if self.starts(b"<!NOTATION") {
                        self.notation_decl()?;
                    } else if self.starts(b"<![") {
                        if !self.top().external {
                            return self.err(
                                p,
                                wf("conditional sections are allowed only in the external subset"),
                            );
                        }
                        self.conditional()?;
                    } else {
                        let d = self.data();
                        return self.lift(syntax(p, "a markup declaration", d));
                    }
                }
                _ => {
                    let d = self.data();
                    return self.lift(syntax(p, "a markup declaration, comment, processing instruction or parameter-entity reference", d));
                }
            }
        }
    }

    fn comment(&mut self) -> R<()> {
        let start = self.pos();
        let data = self.data();
        let body = start + 4;
        let Some(end) = memchr::memmem::find(&data[body..], b"--").map(|e| body + e) else {
            return self.err(start, ErrorKind::UnexpectedEof("a comment"));
        };
        if data.get(end + 2) != Some(&b'>') {
            return self.err(end, wf("'--' is not allowed inside a comment"));
        }
        self.lift(scan::check_chars(data, body, end))?;
        self.set_pos(end + 3);
        Ok(())
    }

    fn pi(&mut self) -> R<()> {
        let start = self.pos();
        let data = self.data();
        if decl::starts_decl(data, start) {
            // A text declaration is allowed only at the very start of an external entity.
            if start == 0 && self.top().external {
                let (_, end) = self.lift(decl::parse(data, start, true, DeclKind::Text))?;
                self.set_pos(end);
                return Ok(());
            }
            return self.err(
                start,
                wf("the XML declaration is allowed only at the start of the document"),
            );
        }
        let (te, ds, end) = self.lift(scan::pi_body(data, start, true))?;
        if self.namespaces && data[start + 2..te].contains(&b':') {
            return self.err(
                start,
                ErrorKind::Namespace("a processing instruction target cannot contain ':'".into()),
            );
        }
        let text = self.text();
        let mut body = text[ds..end - 2].to_string();
        if self.top().raw_cr && body.contains('\r') {
            body = body.replace("\r\n", "\n").replace('\r', "\n");
        }
        let target = text[start + 2..te].into();
        self.dtd.pis.push((target, body.into()));
        self.set_pos(end);
        Ok(())
    }

    fn element_decl(&mut self) -> R<()> {
        let p = self.pos() + 9;
        self.set_pos(p);
        self.req_ws("white space after '<!ELEMENT'")?;
        self.name("an element name")?;
        self.req_ws("white space after the element name")?;
        if self.starts(b"EMPTY") {
            self.set_pos(self.pos() + 5);
        } else if self.starts(b"ANY") {
            self.set_pos(self.pos() + 3);
        } else if self.peek() == Some(b'(') {
            self.content_model()?;
        } else {
            let d = self.data();
            return self.lift(syntax(
                self.pos(),
                "EMPTY, ANY or a content model in parentheses",
                d,
            ));
        }
        self.ws()?;
        self.expect(b">", "'>' to end the element declaration")
    }

    /// Checks the syntax of a content model, `Mixed` or `children`, with an explicit stack.
    fn content_model(&mut self) -> R<()> {
        self.expect(b"(", "'('")?;
        self.ws()?;
        if self.starts(b"#PCDATA") {
            self.set_pos(self.pos() + 7);
            let mut names = 0;
            loop {
                self.ws()?;
                match self.peek() {
                    Some(b'|') => {
                        self.set_pos(self.pos() + 1);
                        self.ws()?;
                        self.name("an element name in mixed content")?;
                        names += 1;
                    }
                    Some(b')') => {
                        self.set_pos(self.pos() + 1);
                        if self.peek() == Some(b'*') {
                            self.set_pos(self.pos() + 1);
                        } else if names > 0 {
                            let d = self.data();
                            return self.lift(syntax(
                                self.pos(),
                                "')*' to end mixed content with element names",
                                d,
                            ));
                        }
                        return Ok(());
                    }
                    _ => {
                        let d = self.data();
                        return self.lift(syntax(self.pos(), "'|' or ')' in mixed content", d));
                    }
                }
            }
        }
        // children: a stack of open groups, each remembering its separator once known.
        let mut stack: Vec<Option<u8>> = vec![None];
        loop {
            // A content particle: a name or a nested group.
            self.ws()?;
            if self.peek() == Some(b'(') {
                if stack.len() > 256 {
                    return self.err(self.pos(), ErrorKind::LimitExceeded(LimitKind::Depth, 256));
                }
                self.set_pos(self.pos() + 1);
                stack.push(None);
                continue;
            }
            self.name("an element name or '(' in a content model")?;
            self.occurrence();
            // After a particle: a separator or the end of one or more groups.
            loop {
                self.ws()?;
                let Some(b) = self.peek() else {
                    return self.err(self.pos(), ErrorKind::UnexpectedEof("a content model"));
                };
                match b {
                    b'|' | b',' => {
                        let top = stack.last_mut().expect("open group");
                        if top.is_some_and(|s| s != b) {
                            return self.err(
                                self.pos(),
                                wf("a content model group cannot mix '|' and ','"),
                            );
                        }
                        *top = Some(b);
                        self.set_pos(self.pos() + 1);
                        break;
                    }
                    b')' => {
                        self.set_pos(self.pos() + 1);
                        stack.pop();
                        self.occurrence();
                        if stack.is_empty() {
                            return Ok(());
                        }
                    }
                    _ => {
                        let d = self.data();
                        return self.lift(syntax(
                            self.pos(),
                            "'|', ',' or ')' in a content model",
                            d,
                        ));
                    }
                }
            }
        }
    }

    fn occurrence(&mut self) {
        if matches!(self.peek(), Some(b'?' | b'*' | b'+')) {
            self.set_pos(self.pos() + 1);
        }
    }

    fn attlist_decl(&mut self) -> R<()> {
        self.set_pos(self.pos() + 9);
        self.req_ws("white space after '<!ATTLIST'")?;
        let element = self.name("an element name")?;
        loop {
            let had_ws = self.ws()?;
            if self.peek() == Some(b'>') {
                self.set_pos(self.pos() + 1);
                return Ok(());
            }
            if !had_ws {
                let d = self.data();
                return self.lift(syntax(
                    self.pos(),
                    "white space before an attribute definition",
                    d,
                ));
            }
            let name = self.name("an attribute name")?;
            self.req_ws("white space after the attribute name")?;
            let ty = self.att_type()?;
            self.req_ws("white space after the attribute type")?;
            let default = if self.starts(b"#REQUIRED") {
                self.set_pos(self.pos() + 9);
                AttDefault::Required
            } else if self.starts(b"#IMPLIED") {
                self.set_pos(self.pos() + 8);
                AttDefault::Implied
            } else {
                let fixed = self.starts(b"#FIXED");
                if fixed {
                    self.set_pos(self.pos() + 6);
                    self.req_ws("white space after #FIXED")?;
                }
                let v = self.att_value_literal(ty)?;
                if fixed {
                    AttDefault::Fixed(v.into())
                } else {
                    AttDefault::Value(v.into())
                }
            };
            if self.dtd.skipping {
                continue;
            }
            let defs = self.dtd.attlists.entry(element.clone()).or_default();
            if !defs.iter().any(|d| d.name == name) {
                defs.push(AttDef { name, ty, default });
            }
        }
    }

    fn att_type(&mut self) -> R<AttType> {
        const TYPES: [(&[u8], AttType); 8] = [
            (b"CDATA", AttType::Cdata),
            (b"IDREFS", AttType::Tokenized),
            (b"IDREF", AttType::Tokenized),
            (b"ID", AttType::Id),
            (b"ENTITY", AttType::Tokenized),
            (b"ENTITIES", AttType::Tokenized),
            (b"NMTOKENS", AttType::Tokenized),
            (b"NMTOKEN", AttType::Tokenized),
        ];
        // Longest keyword first where one is a prefix of another.
        for kw in [
            &b"ENTITIES"[..],
            b"ENTITY",
            b"NMTOKENS",
            b"NMTOKEN",
            b"IDREFS",
            b"IDREF",
            b"ID",
            b"CDATA",
        ] {
            if self.starts(kw) {
                let after = self.data().get(self.pos() + kw.len()).copied();
                if after.is_some_and(|b| b < 0x80 && chars::CLASS[b as usize] & chars::NAME != 0) {
                    continue;
                }
                self.set_pos(self.pos() + kw.len());
                return Ok(TYPES.iter().find(|t| t.0 == kw).expect("listed").1);
            }
        }
        let notation = self.starts(b"NOTATION");
        if notation {
            self.set_pos(self.pos() + 8);
            self.req_ws("white space after NOTATION")?;
        }
        self.expect(b"(", "an attribute type")?;
        loop {
            self.ws()?;
            if notation {
                self.name("a notation name")?;
            } else {
                let p = self.pos();
                let end = self.lift(scan::nmtoken(self.data(), p, true))?;
                self.set_pos(end);
            }
            self.ws()?;
            match self.peek() {
                Some(b'|') => self.set_pos(self.pos() + 1),
                Some(b')') => {
                    self.set_pos(self.pos() + 1);
                    return Ok(AttType::Tokenized);
                }
                _ => {
                    let d = self.data();
                    return self.lift(syntax(self.pos(), "'|' or ')' in an enumeration", d));
                }
            }
        }
    }

    /// A default value in an attribute-list declaration, normalised for its type.
    fn att_value_literal(&mut self, ty: AttType) -> R<String> {
        let q = match self.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => {
                let d = self.data();
                return self.lift(syntax(
                    self.pos(),
                    "a quoted default value, #REQUIRED, #IMPLIED or #FIXED",
                    d,
                ));
            }
        };
        let start = self.pos() + 1;
        let raw_cr = self.top().raw_cr;
        let mut out = String::new();
        let mut i = start;
        let text = self.top().text.clone();
        let data = text.as_bytes();
        loop {
            let Some(&b) = data.get(i) else {
                return self.err(i, ErrorKind::UnexpectedEof("an attribute value"));
            };
            match b {
                _ if b == q => break,
                b'<' => return self.err(i, wf("'<' is not allowed in an attribute value")),
                b'&' => {
                    let (r, end) = self.lift(scan::reference(data, i, true))?;
                    match r {
                        Ref::Char(c) => out.push(c),
                        Ref::Entity(s, e) => {
                            let name = &text[s..e];
                            match self.dtd.general(name) {
                                Some(id) => {
                                    let mut exp = *self.expansion;
                                    let r = attr_entity(
                                        self.dtd,
                                        id,
                                        &mut out,
                                        0,
                                        self.limits,
                                        &mut exp,
                                    );
                                    *self.expansion = exp;
                                    r.map_err(|k| self.error_at(i, k))?;
                                }
                                None if self.dtd.has_external_parts && !self.standalone => {}
                                None => {
                                    return self
                                        .err(i, ErrorKind::UndeclaredEntity(name.to_string()))
                                }
                            }
                        }
                    }
                    i = end;
                }
                b'\r' if raw_cr => {
                    if data.get(i + 1) != Some(&b'\n') {
                        out.push(' ');
                    }
                    i += 1;
                }
                b'\t' | b'\n' | b'\r' => {
                    out.push(' ');
                    i += 1;
                }
                _ => {
                    let (c, l) = self.lift(scan::any_char(data, i))?;
                    out.push(c);
                    i += l;
                }
            }
        }
        self.set_pos(i + 1);
        if ty != AttType::Cdata {
            out = collapse(&out);
        }
        Ok(out)
    }

    fn entity_decl(&mut self) -> R<()> {
        let external_decl = self.in_external_context();
        self.set_pos(self.pos() + 8);
        self.req_ws("white space after '<!ENTITY'")?;
        let is_param = self.peek() == Some(b'%');
        if is_param {
            self.set_pos(self.pos() + 1);
            if !self.peek().is_some_and(is_whitespace) {
                let d = self.data();
                return self.lift(syntax(
                    self.pos(),
                    "white space after '%' in a parameter entity declaration",
                    d,
                ));
            }
            self.req_ws("white space after '%'")?;
        }
        let name_at = self.pos();
        let name = self.name("an entity name")?;
        if self.namespaces && name.contains(':') {
            return self.err(
                name_at,
                ErrorKind::Namespace(format!("the entity name '{name}' contains a colon")),
            );
        }
        self.req_ws("white space after the entity name")?;
        let mut e = Entity {
            name,
            value: None,
            public_id: None,
            system_id: None,
            ndata: None,
            base: self.frames.iter().rev().find_map(|f| f.base.clone()),
            external_decl,
            loaded: OnceLock::new(),
            class: ClassCell::new(Class::Unknown),
            expanded: OnceLock::new(),
        };
        match self.peek() {
            Some(b'"' | b'\'') => e.value = Some(Arc::from(self.entity_value()?)),
            _ => {
                let (public, system) = self.external_id(false)?;
                e.public_id = public;
                e.system_id = system;
                let had_ws = self.ws()?;
                if self.starts(b"NDATA") {
                    if is_param {
                        return self.err(
                            self.pos(),
                            wf("a parameter entity cannot be unparsed (NDATA)"),
                        );
                    }
                    if !had_ws {
                        return self.err(self.pos(), wf("white space is required before NDATA"));
                    }
                    self.set_pos(self.pos() + 5);
                    self.req_ws("white space after NDATA")?;
                    e.ndata = Some(self.name("a notation name")?);
                }
            }
        }
        self.ws()?;
        self.expect(b">", "'>' to end the entity declaration")?;
        if self.dtd.skipping {
            return Ok(());
        }
        let map = if is_param {
            &mut self.dtd.params
        } else {
            &mut self.dtd.general
        };
        if !map.contains_key(&e.name) {
            map.insert(e.name.clone(), self.dtd.entities.len());
            self.dtd.entities.push(e);
        }
        Ok(())
    }

    fn in_external_context(&self) -> bool {
        self.frames.iter().any(|f| f.external || f.entity.is_some())
    }

    /// `ExternalID` (or, for notations, a `PublicID` alone).
    fn external_id(&mut self, public_only_ok: bool) -> R<ExternalId> {
        if self.starts(b"SYSTEM") {
            self.set_pos(self.pos() + 6);
            self.req_ws("white space after SYSTEM")?;
            let s = self.system_literal()?;
            return Ok((None, Some(s)));
        }
        if self.starts(b"PUBLIC") {
            self.set_pos(self.pos() + 6);
            self.req_ws("white space after PUBLIC")?;
            let p = self.pubid_literal()?;
            let had_ws = self.ws()?;
            if matches!(self.peek(), Some(b'"' | b'\'')) {
                if !had_ws {
                    return self.err(
                        self.pos(),
                        wf("white space is required between the public and system identifiers"),
                    );
                }
                let s = self.system_literal()?;
                return Ok((Some(p), Some(s)));
            }
            if public_only_ok {
                return Ok((Some(p), None));
            }
            let d = self.data();
            return self.lift(syntax(self.pos(), "a system identifier", d));
        }
        let d = self.data();
        self.lift(syntax(self.pos(), "a quoted value, SYSTEM or PUBLIC", d))
    }

    fn system_literal(&mut self) -> R<Box<str>> {
        let (s, e) = self.quoted()?;
        let data = self.data();
        self.lift(scan::check_chars(data, s, e))?;
        let v = &self.text()[s..e];
        if v.contains('#') {
            return self.err(
                s,
                wf("a system identifier cannot contain a fragment identifier ('#')"),
            );
        }
        Ok(v.into())
    }

    fn pubid_literal(&mut self) -> R<Box<str>> {
        let (s, e) = self.quoted()?;
        let data = self.data();
        for (i, &b) in data[s..e].iter().enumerate() {
            let ok = b.is_ascii_alphanumeric() || b" \r\n-'()+,./:=?;!*#@$_%".contains(&b);
            if !ok {
                let d = self.data();
                return self.lift(syntax(s + i, "a public identifier character", d));
            }
        }
        // Public identifiers are compared with white space normalised (section 4.2.2).
        Ok(collapse(&self.text()[s..e].replace(['\r', '\n'], " ")).into())
    }

    /// A quoted literal in the current frame; returns the span of its contents.
    fn quoted(&mut self) -> R<(usize, usize)> {
        let p = self.pos();
        let data = self.data();
        let q = match data.get(p) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return self.lift(syntax(p, "a quoted literal", data)),
        };
        let Some(end) = memchr::memchr(q, &data[p + 1..]).map(|e| p + 1 + e) else {
            return self.err(p, ErrorKind::UnexpectedEof("a quoted literal"));
        };
        self.set_pos(end + 1);
        Ok((p + 1, end))
    }

    /// An `EntityValue`: character references and parameter-entity references are expanded,
    /// general-entity references are kept as they are.
    fn entity_value(&mut self) -> R<String> {
        let q = self.peek().expect("quote");
        let mut out = String::new();
        let text = self.top().text.clone();
        let start = self.pos() + 1;
        let external = self.top().external;
        let raw_cr = self.top().raw_cr;
        let end = self.value_text(&text, start, Some(q), external, raw_cr, &mut out, 0)?;
        self.set_pos(end + 1);
        Ok(out)
    }

    /// Expands `text[pos..]` into `out` up to the quote `q` (or the end of the text when `q` is
    /// `None`, for an included parameter entity). Returns the position of the quote.
    #[allow(clippy::too_many_arguments)]
    fn value_text(
        &mut self,
        text: &Arc<str>,
        mut i: usize,
        q: Option<u8>,
        external: bool,
        raw_cr: bool,
        out: &mut String,
        depth: u32,
    ) -> R<usize> {
        let data = text.as_bytes();
        loop {
            let Some(&b) = data.get(i) else {
                if q.is_none() {
                    return Ok(i);
                }
                return self.err(i, ErrorKind::UnexpectedEof("an entity value"));
            };
            match b {
                _ if Some(b) == q => return Ok(i),
                b'%' => {
                    if !external {
                        return self.err(i, wf("a parameter-entity reference cannot occur inside a markup declaration in the internal subset"));
                    }
                    let end = self.lift(scan::name(
                        data,
                        i + 1,
                        true,
                        "a parameter entity name after '%'",
                    ))?;
                    if data.get(end) != Some(&b';') {
                        return self.lift(syntax(
                            end,
                            "';' to end the parameter-entity reference",
                            data,
                        ));
                    }
                    let name = &text[i + 1..end];
                    self.dtd.has_external_parts = true;
                    match self.dtd.param(name) {
                        Some(id) => {
                            if depth >= self.limits.max_entity_depth as u32 {
                                return self.err(i, ErrorKind::RecursiveEntity(format!("%{name}")));
                            }
                            if let Some(t) = self.entity_text(id, i)? {
                                self.expansion
                                    .add(t.len(), self.limits)
                                    .map_err(|k| self.error_at(i, k))?;
                                self.value_text(&t, 0, None, true, false, out, depth + 1)?;
                            } else {
                                self.dtd.incomplete = true;
                                if !self.standalone {
                                    self.dtd.skipping = true;
                                }
                            }
                        }
                        None if self.dtd.incomplete && !self.standalone => self.dtd.skipping = true,
                        None => {
                            return self.err(i, ErrorKind::UndeclaredEntity(format!("%{name}")))
                        }
                    }
                    i = end + 1;
                }
                b'&' => {
                    let (r, end) = self.lift(scan::reference(data, i, true))?;
                    match r {
                        Ref::Char(c) if data[i + 1] == b'#' => out.push(c),
                        _ => out.push_str(&text[i..end]),
                    }
                    i = end;
                }
                b'\r' if raw_cr => {
                    if data.get(i + 1) != Some(&b'\n') {
                        out.push('\n');
                    }
                    i += 1;
                }
                _ => {
                    let (c, l) = self.lift(scan::any_char(data, i))?;
                    out.push(c);
                    i += l;
                }
            }
        }
    }

    fn notation_decl(&mut self) -> R<()> {
        self.set_pos(self.pos() + 10);
        self.req_ws("white space after '<!NOTATION'")?;
        let name_at = self.pos();
        let name = self.name("a notation name")?;
        if self.namespaces && name.contains(':') {
            return self.err(
                name_at,
                ErrorKind::Namespace(format!("the notation name '{name}' contains a colon")),
            );
        }
        self.req_ws("white space after the notation name")?;
        let (p, s) = self.external_id(true)?;
        self.ws()?;
        self.expect(b">", "'>' to end the notation declaration")?;
        if !self.dtd.notations.iter().any(|n| n.0 == name) {
            self.dtd.notations.push((name, (p, s)));
        }
        Ok(())
    }

    fn conditional(&mut self) -> R<()> {
        let start = self.pos();
        self.set_pos(start + 3);
        self.ws()?;
        let include = if self.starts(b"INCLUDE") {
            self.set_pos(self.pos() + 7);
            true
        } else if self.starts(b"IGNORE") {
            self.set_pos(self.pos() + 6);
            false
        } else {
            let d = self.data();
            return self.lift(syntax(self.pos(), "INCLUDE or IGNORE", d));
        };
        self.ws()?;
        self.expect(b"[", "'[' after INCLUDE or IGNORE")?;
        if self.cond_depth > 256 {
            return self.err(start, ErrorKind::LimitExceeded(LimitKind::Depth, 256));
        }
        if include {
            self.cond_depth += 1;
            let r = self.decls(true);
            self.cond_depth -= 1;
            return r;
        }
        // IGNORE: skip nested sections by counting their delimiters.
        let data = self.data();
        let mut i = self.pos();
        let mut depth = 1usize;
        while depth > 0 {
            let Some(off) = memchr::memchr2(b'<', b']', &data[i..]) else {
                return self.err(start, ErrorKind::UnexpectedEof("an IGNORE section"));
            };
            let at = i + off;
            if data[at..].starts_with(b"<![") {
                depth += 1;
                i = at + 3;
            } else if data[at..].starts_with(b"]]>") {
                depth -= 1;
                i = at + 3;
            } else {
                i = at + 1;
            }
        }
        self.lift(scan::check_chars(data, self.pos(), i))?;
        self.set_pos(i);
        Ok(())
    }
}

#[cold]
fn wf(msg: &str) -> ErrorKind {
    ErrorKind::WellFormedness(msg.to_string())
}

/// Collapses white space as for non-CDATA attributes: trims and folds runs of spaces.
pub(crate) fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for part in s.split(' ').filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

/// Appends the attribute-value normalisation of general entity `id`'s replacement text to
/// `out` (white space characters become spaces, references are expanded).
pub(crate) fn attr_entity(
    dtd: &Dtd,
    id: usize,
    out: &mut String,
    depth: u32,
    limits: &Limits,
    exp: &mut Expansion,
) -> Result<(), ErrorKind> {
    let e = &dtd.entities[id];
    let Some(text) = &e.value else {
        return Err(wf(&format!(
            "attribute values cannot refer to the external entity '{}'",
            e.name
        )));
    };
    if depth >= limits.max_entity_depth as u32 {
        return Err(ErrorKind::LimitExceeded(
            LimitKind::EntityDepth,
            limits.max_entity_depth,
        ));
    }
    if e.class.get() == Class::InProgress {
        return Err(ErrorKind::RecursiveEntity(e.name.to_string()));
    }
    exp.add(text.len(), limits)?;
    let data = text.as_bytes();
    let saved = e.class.replace(Class::InProgress);
    let r = (|| {
        let mut i = 0;
        while i < data.len() {
            match data[i] {
                b'<' => {
                    return Err(wf(&format!(
                    "the replacement text of entity '{}', used in an attribute value, contains '<'",
                    e.name
                )))
                }
                b'&' => {
                    let (r, end) = scan::reference(data, i, true).map_err(stop_kind)?;
                    match r {
                        Ref::Char(c) => out.push(c),
                        Ref::Entity(s, en) => {
                            let name = &text[s..en];
                            match dtd.general(name) {
                                Some(inner) => {
                                    attr_entity(dtd, inner, out, depth + 1, limits, exp)?
                                }
                                None if dtd.has_external_parts => {}
                                None => return Err(ErrorKind::UndeclaredEntity(name.to_string())),
                            }
                        }
                    }
                    i = end;
                }
                b'\t' | b'\n' | b'\r' => {
                    out.push(' ');
                    i += 1;
                }
                _ => {
                    let (c, l) = scan::any_char(data, i).map_err(stop_kind)?;
                    out.push(c);
                    i += l;
                }
            }
            if out.len() as u64 > limits.max_text_length {
                return Err(ErrorKind::LimitExceeded(
                    LimitKind::TextLength,
                    limits.max_text_length,
                ));
            }
        }
        Ok(())
    })();
    e.class.set(if saved == Class::InProgress {
        Class::Unknown
    } else {
        saved
    });
    r
}

fn stop_kind(s: Stop) -> ErrorKind {
    match s {
        Stop::Bad(b) => b.1,
        Stop::Eof => ErrorKind::UnexpectedEof("an entity replacement text"),
    }
}

/// Classifies general entity `id` for use in content: pure text (expanded once, cached) or
/// markup (parsed in a frame). External entities are always markup.
pub(crate) fn classify(
    dtd: &Dtd,
    id: usize,
    depth: u32,
    limits: &Limits,
) -> Result<Class, ErrorKind> {
    let e = &dtd.entities[id];
    match e.class.get() {
        Class::Unknown => {}
        Class::InProgress => return Err(ErrorKind::RecursiveEntity(e.name.to_string())),
        c => return Ok(c),
    }
    let Some(text) = &e.value else {
        e.class.set(Class::Markup);
        return Ok(Class::Markup);
    };
    if depth >= limits.max_entity_depth as u32 {
        return Err(ErrorKind::LimitExceeded(
            LimitKind::EntityDepth,
            limits.max_entity_depth,
        ));
    }
    e.class.set(Class::InProgress);
    let data = text.as_bytes();
    let mut class = Class::Text;
    if memchr::memchr(b'<', data).is_some() || memchr::memmem::find(data, b"]]>").is_some() {
        class = Class::Markup;
    }
    let mut i = 0;
    let mut err = None;
    while class == Class::Text {
        let Some(off) = memchr::memchr(b'&', &data[i..]) else {
            break;
        };
        let at = i + off;
        match scan::reference(data, at, true) {
            Ok((Ref::Entity(s, en), end)) => {
                match dtd.general(&text[s..en]) {
                    Some(inner) => match classify(dtd, inner, depth + 1, limits) {
                        Ok(Class::Text) => {}
                        Ok(_) => class = Class::Markup,
                        Err(e) => {
                            err = Some(e);
                            break;
                        }
                    },
                    None => class = Class::Markup,
                }
                i = end;
            }
            Ok((_, end)) => i = end,
            Err(_) => class = Class::Markup,
        }
    }
    if let Some(err) = err {
        e.class.set(Class::Unknown);
        return Err(err);
    }
    e.class.set(class);
    Ok(class)
}

/// The full expansion of a pure-text entity (see [`classify`]), built once.
pub(crate) fn expanded(dtd: &Dtd, id: usize, limits: &Limits) -> Result<Arc<str>, ErrorKind> {
    let e = &dtd.entities[id];
    if let Some(x) = e.expanded.get() {
        return Ok(x.clone());
    }
    let text = e.value.as_ref().expect("pure-text entities are internal");
    let data = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < data.len() {
        let Some(off) = memchr::memchr(b'&', &data[i..]) else {
            out.push_str(&text[i..]);
            break;
        };
        out.push_str(&text[i..i + off]);
        let at = i + off;
        let (r, end) = scan::reference(data, at, true).map_err(stop_kind)?;
        match r {
            Ref::Char(c) => out.push(c),
            Ref::Entity(s, en) => {
                let inner = dtd.general(&text[s..en]).expect("classified as text");
                out.push_str(&expanded(dtd, inner, limits)?);
            }
        }
        if out.len() as u64 > limits.max_entity_expansion {
            return Err(ErrorKind::LimitExceeded(
                LimitKind::EntityExpansion,
                limits.max_entity_expansion,
            ));
        }
        i = end;
    }
    let x: Arc<str> = Arc::from(out);
    let _ = e.expanded.set(x.clone());
    Ok(x)
}
