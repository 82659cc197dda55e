//! The lean engine: [`Validator::validate`](super::Validator::validate)'s first try at a
//! document in memory.
//!
//! Most documents a service validates are valid, and for them nothing but the verdict is
//! needed: no typed values, no error messages, no locations. This engine checks the document
//! against the schema keeping only what validity depends on, one small frame per open
//! element (its type, its place in the content model, its text when the type is simple).
//! The first thing it does not handle, or the first thing not valid, makes it give up
//! ([`GiveUp`], with its [`Reason`]), and the general engine then validates the document
//! from the start, to the same verdict, with its messages.
//!
//! So it may only say "valid" when the general engine would; it may give up on anything. It
//! takes what the general engine's planned starts take, and as well an `xsi:type` with
//! attributes beside it, attributes matched by a wildcard, and a wildcard's element with a
//! global declaration. It gives up on: an ID or IDREF (whose values must be recorded), an
//! identity constraint, a value constraint on an element, `xsi:nil` and the other `xsi:`
//! attributes, a substitution the group's head blocks, a lax or skip subtree, and any value
//! a scan or parse cannot vouch for. Content models without counters are walked by one
//! position ([`PlainModel`](super::automaton::PlainModel)); those with counters or `xs:all`
//! by the general automaton. A start tag like its previous sibling's (same name, no
//! attributes or the same `xsi:type`, where the model repeats a particle) opens the way that
//! one did (`Repeat`): an array's items cost a comparison each, not a look-up.
//!
//! Its state is its own ([`Lean`]): the frames, and a cache of what an element of each
//! declaration (and each `xsi:type` on one) opens to. What it shares with the general engine
//! (the reader's names, the bindings in scope, the value checks) is
//! [`Shared`](super::shared::Shared).

use xwire::{Event, Reader, TokenKind};

use super::shared::{Shared, UseIndex};

mod check;
mod frame;
mod start;

use frame::{Decl, Frame, Xsi};

/// Why the lean engine gave up on a document. Only the general engine says what is wrong,
/// if anything: the reason is for tests and counts, not for users.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The validator is not set up for the lean engine: no plans, or location hints asked
    /// for (which only the general engine collects).
    NotSetUp,
    /// The reader's error, or not one root element: not well-formed.
    NotWellFormed,
    /// A construct the lean engine leaves to the general one: an ID, an identity or value
    /// constraint, `xsi:nil` or a location hint, a lax or skip subtree, a substitution or
    /// `xsi:type` that needs more than the type's own checks.
    Unsupported,
    /// Something the lean engine could not prove valid: not valid, or beyond its checks.
    Unproven,
}

/// The lean engine's give-up: why, and how many events it handed the observer before (the
/// general engine hands out only the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GiveUp {
    pub(crate) reason: Reason,
    pub(crate) observed: usize,
}

/// The lean engine's state: the frames of the open elements and its cache, kept from
/// document to document.
#[derive(Debug, Default)]
pub(crate) struct Lean<'s> {
    frames: Vec<Frame<'s>>,
    cache: Cache<'s>,
}

/// What the lean engine keeps from one document to the next besides its frames.
#[derive(Debug, Default)]
struct Cache<'s> {
    /// How an element of each declaration opens (by [`ElementId`](crate::model::ElementId)),
    /// made on the engine's first document.
    decls: Vec<Decl<'s>>,
    /// What the engine made of the last `xsi:type` on each declaration (by
    /// [`ElementId`](crate::model::ElementId) + 1; 0 for elements without one): the
    /// accessors of SOAP-encoded structs and the items of arrays carry the same one every
    /// time.
    xsi: Vec<Option<Xsi<'s>>>,
    /// The attribute uses of the types by name.
    uses: UseIndex,
}

impl<'s> Lean<'s> {
    /// Readies the engine for documents of `sh`'s schema: `Err` when the validator is not
    /// set up for it (no plans, location hints asked for).
    #[inline]
    pub(crate) fn ready(&mut self, sh: &Shared<'s>) -> Result<(), Reason> {
        if sh.plans.elements.is_empty()
            || sh.plans.fallback.is_some()
            || sh.options.schema_location_hints
        {
            return Err(Reason::NotSetUp);
        }
        if self.cache.decls.len() != sh.schema.elements.len() {
            self.cache.decls = start::decls(sh);
        }
        Ok(())
    }

    /// The pass over `doc` (the reader's input, from its start; [`Lean::ready`] said yes and
    /// `sh` was reset for it): `Ok` when it proves the document valid, else why it gave up.
    /// Each event it gets through is handed to `observe`, if any, and counted in
    /// `observed`.
    #[inline(always)]
    pub(crate) fn run<'d, F: FnMut(&Event<'_>)>(
        &mut self,
        sh: &mut Shared<'s>,
        reader: &mut Reader<'d>,
        doc: &[u8],
        observe: &mut Option<F>,
        observed: &mut usize,
    ) -> Result<(), Reason> {
        // The frames out of the engine while it runs (a local, not a field behind `self`).
        let mut frames = std::mem::take(&mut self.frames);
        let r = self
            .cache
            .pass(sh, &mut frames, reader, doc, observe, observed);
        self.frames = frames;
        r
    }
}

impl<'s> Cache<'s> {
    /// The pass itself, over `doc` (the reader's input, from its start): `Err` as soon as it
    /// gives up. Out of line: the loop, with the reader's code inlined into it, is compiled
    /// on its own, whatever surrounds the pass.
    #[inline(never)]
    fn pass<'d, F: FnMut(&Event<'_>)>(
        &mut self,
        sh: &mut Shared<'s>,
        frames: &mut Vec<Frame<'s>>,
        reader: &mut Reader<'d>,
        doc: &[u8],
        observe: &mut Option<F>,
        observed: &mut usize,
    ) -> Result<(), Reason> {
        let cache = self;
        let mut d = 0usize;
        let mut saw_root = false;
        // The text of the innermost element with a value, borrowed from the document.
        let mut pending: Option<&'d str> = None;
        loop {
            // The end tag needs no view of the token (only the observer may).
            let kind = reader.next_token().map_err(|_| Reason::NotWellFormed)?;
            if kind == TokenKind::End {
                d -= 1;
                check::end(sh, &frames[d], &mut pending, doc)?;
                if frames[d].bindings != sh.bindings() {
                    sh.pop_bindings(frames[d].bindings);
                }
                if let Some(f) = observe {
                    f(&reader.current());
                }
                *observed += 1;
                continue;
            }
            let ev = reader.current();
            // By reference: a payload moved out of `ev` is copied to another stack slot, and
            // that copy stalls on the stores that just built `ev`.
            match &ev {
                Event::Start(tag) => {
                    if d == 0 && std::mem::replace(&mut saw_root, true) {
                        return Err(Reason::NotWellFormed);
                    }
                    if frames.len() <= d {
                        frames.resize_with(d + 1, Frame::default);
                    }
                    let (parents, rest) = frames.split_at_mut(d);
                    cache.start(sh, tag, parents.last_mut(), &mut rest[0], doc)?;
                    d += 1;
                }
                Event::Text(t) if d > 0 => {
                    let in_input = || reader.text_in_input();
                    frames[d - 1].take_text(
                        &mut pending,
                        in_input,
                        || t.unescape(),
                        || t.is_whitespace(),
                    )?;
                }
                Event::CData(c) if d > 0 => {
                    let s = c.text();
                    let whitespace = || xwire::chars::is_all_whitespace(s.as_bytes());
                    frames[d - 1].take_text(&mut pending, || None, || s.clone(), whitespace)?;
                }
                Event::Eof => {
                    return match saw_root {
                        true => Ok(()),
                        false => Err(Reason::NotWellFormed),
                    }
                }
                _ => {}
            }
            if let Some(f) = observe {
                f(&ev);
            }
            *observed += 1;
        }
    }
}
