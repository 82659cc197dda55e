//! The lean engine's frame of an open element, and what it keeps of how elements open.

use xwire::StartTag;

use super::Reason;
use crate::model::{ElementId, NameId, NamespaceId, SimpleTypeId, TypeId, Wildcard};
use crate::validate::automaton::{ContentModel, MatchState, Matched, MemberStatus, PlainModel};

/// The state of one open element.
#[derive(Debug, Default)]
pub(super) struct Frame<'s> {
    /// The position in a plain content model.
    at: u32,
    /// The configurations of a content model that is not plain.
    state: MatchState,
    /// What the end checks: the value of the simple type, or the content model.
    pub(super) end: End<'s>,
    /// Length of the namespace binding stack before the element.
    pub(super) bindings: usize,
    /// The text of an element of simple type or simple content.
    pub(super) text: String,
    /// The last child start the plain content model took, to take again as it was.
    pub(super) repeat: Option<Repeat<'s>>,
}

/// A child start that a plain content model took at position `at` and stayed there (a
/// particle that may repeat): a start tag with the same name in the same namespace, and the
/// same attributes, at `at` again opens the same way. Arrays are runs of such siblings.
/// The child's frame gets `end`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Repeat<'s> {
    pub(super) qname: xwire::Id,
    pub(super) ns: xwire::NsId,
    pub(super) at: u32,
    /// The tag's one attribute, `xsi:type`, when it had one: its name and namespace as the
    /// reader interned them, and what the value made of the element (kept while the
    /// shared `xsi:type` cache still says so); `None`: the tag had no attributes.
    pub(super) xsi: Option<(xwire::Id, xwire::NsId, Xsi<'s>)>,
    pub(super) end: End<'s>,
}

/// What the end of an element checks.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum End<'s> {
    /// The value of this type, from the text (simple type or simple content).
    Value(SimpleTypeId),
    /// The end of this content model (element-only content).
    Model(Model<'s>),
    /// As `Model`, for mixed content (text allowed, not kept).
    MixedModel(Model<'s>),
    /// Nothing: any text is valid (a `string` without facets, simple content or not).
    AnyText,
    /// Nothing: empty content.
    #[default]
    Nothing,
}

/// What the lean engine made of an `xsi:type` on an element of one declaration, kept while
/// entry `entry` of the shared `xsi:type` cache still says the same value names `ty` (what
/// follows depends on the declaration and the type alone).
#[derive(Clone, Copy, Debug)]
pub(super) struct Xsi<'s> {
    pub(super) entry: usize,
    pub(super) ty: TypeId,
    pub(super) opens_without_checks: bool,
    pub(super) end: End<'s>,
}

/// How the lean engine opens an element of one declaration, when the start tag has no
/// `xsi:type`: decided once per engine from the declaration's
/// [`ElementPlan`](crate::validate::plans::ElementPlan).
#[derive(Clone, Copy, Debug)]
pub(super) enum Decl<'s> {
    /// No plan, a value constraint, or a type the lean engine does not take: give up.
    GiveUp,
    /// A type without attribute uses: a tag without attributes of its own opens it as it is.
    Unattributed(TypeId, End<'s>),
    /// A type with attribute uses: the attributes are checked first, even when there are
    /// none (a use may be required).
    Attributed(TypeId, End<'s>),
}

/// A content model, as the lean engine walks it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Model<'s> {
    /// No counters, not `xs:all`: the frame's `at` is the whole state.
    Plain(PlainModel<'s>),
    /// Counters or `xs:all`: the frame's `state`.
    Full(&'s ContentModel),
}

/// What a child element matched in its parent's content model.
pub(super) enum Child<'s> {
    /// An element particle (or a member of its substitution group) allowed as it is.
    Element(ElementId),
    /// A wildcard.
    Wildcard(&'s Wildcard),
}

impl<'s> Frame<'s> {
    /// Fills the frame for an element whose end checks `end`.
    #[inline(always)]
    pub(super) fn open(&mut self, end: End<'s>) {
        self.text.clear();
        self.end = end;
        self.at = PlainModel::START;
        self.repeat = None;
        if let End::Model(Model::Full(m)) | End::MixedModel(Model::Full(m)) = end {
            m.start(&mut self.state);
        }
    }

    /// Whether the content of the frame's element may end here.
    #[inline]
    pub(super) fn can_end(&self, m: Model<'s>) -> bool {
        match m {
            Model::Plain(m) => m.can_end(self.at),
            // Dropped configurations make the general engine report an error.
            Model::Full(m) => !self.state.overflow && m.can_end(&self.state),
        }
    }

    /// Whether the frame's plain content model is where `r` took its start.
    #[inline(always)]
    pub(super) fn at(&self, r: &Repeat<'s>) -> bool {
        r.at == self.at
    }

    /// The move of the frame's content model for child `name` (the schema's name, if any)
    /// in namespace `ns`, and whether the move left a plain model where it was (the same
    /// start may follow: see [`Repeat`]). `None`: not element content, no match, or a
    /// match the general engine must judge (an abstract or blocked declaration, several
    /// particles in a plain model).
    #[inline]
    pub(super) fn child(
        &mut self,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<(Child<'s>, bool)> {
        let (End::Model(m) | End::MixedModel(m)) = self.end else {
            return None;
        };
        match m {
            Model::Plain(m) => {
                let (child, target) = match name.and_then(|n| m.step(self.at, n)) {
                    Some((e, target)) => (Child::Element(e), target),
                    None => {
                        let (wc, target) = m.wildcard(self.at, name, ns)?;
                        (Child::Wildcard(wc), target)
                    }
                };
                let stays = target == self.at;
                self.at = target;
                Some((child, stays))
            }
            Model::Full(m) => match m.step(&mut self.state, name, ns)? {
                Matched::Element {
                    decl,
                    status: MemberStatus::Ok,
                    ..
                } => Some((Child::Element(decl), false)),
                Matched::Element { .. } => None,
                Matched::Wildcard(wc) => Some((Child::Wildcard(wc), false)),
            },
        }
    }

    /// Remembers child start `tag`, which left a plain model where it was and opened to
    /// `end`, when its attributes are none (`xsi` `None`) or only that `xsi:type`.
    #[inline]
    pub(super) fn remember(
        &mut self,
        tag: &StartTag<'_>,
        xsi: Option<(xwire::Id, xwire::NsId, Xsi<'s>)>,
        end: End<'s>,
    ) {
        if tag.attributes().len() == usize::from(xsi.is_some()) {
            self.repeat = Some(Repeat {
                qname: tag.name_id(),
                ns: tag.ns(),
                at: self.at,
                xsi,
                end,
            });
        }
    }

    /// Character data in the element of this frame: kept for a value, allowed as it is by
    /// mixed content or a type any text fits, else only white space.
    ///
    /// A value's first text is kept in `pending` when it can be borrowed from the document
    /// (`in_input`), not copied; more text joins it in the frame. (An element with a value
    /// has no child element, so one `pending` serves the innermost frame.)
    #[inline(always)]
    pub(super) fn take_text<'t, 'd>(
        &mut self,
        pending: &mut Option<&'d str>,
        in_input: impl FnOnce() -> Option<&'d str>,
        text: impl FnOnce() -> std::borrow::Cow<'t, str>,
        whitespace: impl FnOnce() -> bool,
    ) -> Result<(), Reason> {
        if let End::Value(_) = self.end {
            match in_input() {
                Some(s) if pending.is_none() && self.text.is_empty() => *pending = Some(s),
                _ => {
                    if let Some(p) = pending.take() {
                        self.text.push_str(p);
                    }
                    self.text.push_str(&text());
                }
            }
        } else if !matches!(self.end, End::AnyText | End::MixedModel(_)) && !whitespace() {
            return Err(Reason::Unproven);
        }
        Ok(())
    }
}
