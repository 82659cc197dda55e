//! Content models compiled into automata with counters.
//!
//! A particle of `ContentType::Elements` becomes a Glushkov position automaton whose positions
//! are the element and wildcard particles, extended with *counters* for occurrence bounds
//! (after Kilpeläinen and Tuhkanen, and Gelade, Gyssens and Martens): a repeated particle
//! `r{min,max}` with `max >= 2` (or `min >= 2`) gets a counter instead of `max` copies of `r`,
//! so `maxOccurs="1000"` costs one counter, not a thousand states. A transition from position
//! `p` to position `q` carries the counter actions of the particles it leaves (*exit*: the
//! counter must have reached `min`), loops in (*increment*: below `max`) and enters (*reset* to
//! one). A configuration is a position and the counter vector.
//!
//! Unique Particle Attribution (`cos-nonambig`) makes the *position* reached by each child
//! unique, but not always the counter update: `(a{2,3}){2}` reads `aaaaa` as 2+3 or 3+2. The
//! matcher therefore keeps a set of configurations; for every content model that counts
//! strongly deterministically (nearly all real ones) the set holds one configuration and a
//! step is one binary search in the state's sorted name table plus the guard checks. The set
//! is capped ([`MAX_CONFIGS`]); a model that needs more is reported as too ambiguous rather
//! than given unbounded memory. Stepping allocates nothing once a [`MatchState`]'s buffers have
//! grown.
//!
//! Glushkov automata have up to `positions²` transitions. The element children of one choice
//! follow alike, so they share one state table: a repeated choice of `n` elements has `n`
//! transitions. Models that would still need more than four million transitions are refused
//! (`cos-content-model`) before anything is built.
//!
//! `xs:all` (only at the top of a content model in XSD 1.0) is a bitset of the children seen.
//!
//! `cos-nonambig` is checked exactly, by exploring every reachable set of configurations
//! (positions with their counter values; one position may hold several values at once, as in
//! `(b+|a){2}, a`, where the pairwise view of transitions misses the ambiguity). Past a budget
//! (large bounds nested in large bounds) the check falls back to comparing the transitions of
//! each state pairwise, treating an increment and an exit of a counter with `min == max` as
//! exclusive: that check never reports an unambiguous model but may miss the ambiguities that
//! need several counter values at once. `cos-element-consistent` compares the types of the
//! element particles (and substitution group members) of one name.
//!
//! Element particles match every member of their substitution group; members that are
//! abstract or whose substitution the head blocks match too, flagged ([`MemberStatus`]), so
//! the validator can say why they are not allowed.

use std::collections::HashMap;

use crate::model::{
    ComplexTypeId, Compositor, ContentType, ElementId, Location, MaxOccurs, NameId,
    NamespaceConstraint, NamespaceId, Particle, Schema, SchemaError, Term, TypeId, Wildcard,
};

/// The most configurations a match keeps at once (see the module documentation).
pub const MAX_CONFIGS: usize = 256;

/// Positions and nodes beyond this make the model too large to compile.
const MAX_POSITIONS: usize = 1 << 20;

/// Whether an element that matched a particle by name may appear there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberStatus {
    /// Allowed.
    Ok,
    /// The declaration is abstract: only members of its substitution group may appear.
    Abstract,
    /// The head of the substitution group blocks this substitution.
    Blocked,
}

/// What a child element matched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Matched<'m> {
    /// An element particle: `decl` is the declaration of the element that appeared (the head
    /// itself or a member of its substitution group), `particle` the one the particle names.
    Element {
        /// The governing declaration.
        decl: ElementId,
        /// The declaration of the particle (the substitution group head).
        particle: ElementId,
        /// Whether it may appear.
        status: MemberStatus,
    },
    /// A wildcard particle.
    Wildcard(&'m Wildcard),
}

/// A name or wildcard allowed at some point of a content model, for messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expected<'m> {
    /// An element name.
    Element(NameId),
    /// A wildcard.
    Wildcard(&'m Wildcard),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Act {
    /// Leave the counted particle: the counter must be at least `min`; it is cleared.
    Exit,
    /// Another iteration: the counter must be below `max`.
    Inc,
    /// Enter the counted particle: the counter becomes one.
    Enter,
}

#[derive(Clone, Copy, Debug)]
struct Counter {
    /// Effective `minOccurs` (0 when the repeated term is nullable).
    min: u32,
    /// `maxOccurs`, `None` for unbounded (the counter then saturates at `min`).
    max: Option<u32>,
}

#[derive(Clone, Debug)]
enum PosTerm {
    /// The particle's declaration and its name.
    Element(ElementId, NameId),
    Wildcard(Wildcard),
}

#[derive(Clone, Debug)]
struct Position {
    term: PosTerm,
    location: Option<Location>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Transition {
    target: u32,
    /// Range in `Glushkov::actions`.
    actions: (u32, u32),
}

/// (instance name, transition, declaration, particle declaration, status).
type ByName = (NameId, u32, ElementId, ElementId, MemberStatus);

#[derive(Clone, Debug, Default)]
struct State {
    /// (instance name, transition, declaration, particle declaration, status), sorted by name.
    by_name: Vec<ByName>,
    /// Transitions to wildcard positions.
    wild: Vec<u32>,
    /// Every outgoing transition, in order.
    all: Vec<u32>,
    /// When accepting: the counters that must have reached their minimum (range in
    /// `Glushkov::accept_counters`).
    accept: Option<(u32, u32)>,
}

impl State {
    /// The element particle for name `n`, and whether it is the only one.
    #[inline]
    fn named(&self, n: NameId) -> Option<(&ByName, bool)> {
        // Most states allow a few names: a scan beats the search's branches.
        if self.by_name.len() <= 4 {
            let at = self.by_name.iter().position(|m| m.0 == n)?;
            let only = self.by_name.get(at + 1).map_or(true, |m2| m2.0 != n);
            return Some((&self.by_name[at], only));
        }
        let lo = self.by_name.partition_point(|m| m.0 < n);
        let hits = &self.by_name[lo..];
        let m = hits.first().filter(|m| m.0 == n)?;
        Some((m, hits.get(1).map_or(true, |m2| m2.0 != n)))
    }
}

#[derive(Clone, Debug)]
struct Glushkov {
    positions: Vec<Position>,
    /// The position whose state a position uses: the element children of one choice all
    /// follow the same way, so they share one state table (a repeated choice of `n`
    /// elements has `n` transitions, not `n * n`).
    rep: Vec<u32>,
    counters: Vec<Counter>,
    states: Vec<State>,
    transitions: Vec<Transition>,
    actions: Vec<(u32, Act)>,
    accept_counters: Vec<u32>,
    /// The moves [`PlainModel`] takes, flat (empty for a model with counters).
    moves: PlainMoves,
}

/// The moves of a model without counters, flat, for [`PlainModel`]: one load for the
/// position and a scan of its names, where the general tables take four dependent loads
/// (representative, state, its names, the transition).
#[derive(Clone, Debug, Default)]
struct PlainMoves {
    /// Per position: its range in `moves` (start, length) and whether the content may end
    /// there.
    at: Vec<(u32, u16, bool)>,
    /// (name, declaration, target) for each name that one element particle matches as it is
    /// (not abstract, not blocked), sorted by name per position.
    moves: Vec<(NameId, ElementId, u32)>,
}

impl PlainMoves {
    /// The tables of `states` (by representative, `rep`), without counters.
    fn new(rep: &[u32], states: &[State], transitions: &[Transition]) -> PlainMoves {
        let mut ranges = vec![None; states.len()];
        let mut moves = Vec::new();
        let mut at = Vec::with_capacity(rep.len());
        for &r in rep {
            let range = *ranges[r as usize].get_or_insert_with(|| {
                let state = &states[r as usize];
                let start = moves.len();
                for m in &state.by_name {
                    let alone = state.named(m.0).is_some_and(|(_, only)| only);
                    if m.4 == MemberStatus::Ok && alone {
                        moves.push((m.0, m.2, transitions[m.1 as usize].target));
                    }
                }
                // A state with more names than fit is left to the general tables.
                let len = u16::try_from(moves.len() - start).unwrap_or_else(|_| {
                    moves.truncate(start);
                    0
                });
                (start as u32, len)
            });
            at.push((range.0, range.1, states[r as usize].accept.is_some()));
        }
        PlainMoves { at, moves }
    }
}

#[derive(Clone, Debug)]
struct AllModel {
    /// (name, child index, declaration, particle declaration, status) sorted by name.
    by_name: Vec<(NameId, u32, ElementId, ElementId, MemberStatus)>,
    /// Per child: its declaration and whether it is required.
    children: Vec<(ElementId, bool, NameId)>,
    /// The group itself may be absent (`minOccurs="0"`).
    optional: bool,
}

#[derive(Clone, Debug)]
enum Kind {
    Glushkov(Glushkov),
    All(AllModel),
}

/// The compiled content model of one complex type with element content.
#[derive(Clone, Debug)]
pub struct ContentModel {
    kind: Kind,
}

/// A content model whose matching state is one position: no counters, not `xs:all`
/// ([`ContentModel::plain`]). Its walk takes only the moves that need no more than that
/// position; for anything else it says `None` and [`ContentModel::step`] must decide.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlainModel<'m>(&'m Glushkov);

impl<'m> PlainModel<'m> {
    /// The position before the first child.
    pub(crate) const START: u32 = 0;

    /// The declaration of child `name` at position `at` and the position after it, when one
    /// element particle matches the name as it is (not abstract, not blocked).
    #[inline(always)]
    pub(crate) fn step(self, at: u32, name: NameId) -> Option<(ElementId, u32)> {
        let PlainMoves {
            at: positions,
            moves,
        } = &self.0.moves;
        let (start, len, _) = *positions.get(at as usize)?;
        let moves = moves.get(start as usize..start as usize + len as usize)?;
        // Most positions allow a few names: a scan beats the search's branches.
        let m = if moves.len() <= 8 {
            moves.iter().find(|m| m.0 == name)?
        } else {
            &moves[moves.binary_search_by_key(&name, |m| m.0).ok()?]
        };
        Some((m.1, m.2))
    }

    /// The wildcard that child `name` (its schema name, if any) in namespace `ns` matches
    /// at position `at`, and the position after it: no element particle for the name, one
    /// wildcard.
    #[inline]
    pub(crate) fn wildcard(
        self,
        at: u32,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<(&'m Wildcard, u32)> {
        let g = self.0;
        let state = &g.states[g.rep[at as usize] as usize];
        if state.wild.len() != 1 || name.is_some_and(|n| state.named(n).is_some()) {
            return None;
        }
        let tr = &g.transitions[state.wild[0] as usize];
        match &g.positions[tr.target as usize].term {
            PosTerm::Wildcard(wc) if wc.allows(ns) => Some((wc, tr.target)),
            _ => None,
        }
    }

    /// Whether the content may end at position `at`.
    #[inline]
    pub(crate) fn can_end(self, at: u32) -> bool {
        self.0.moves.at.get(at as usize).is_some_and(|a| a.2)
    }
}

/// The state of a match in progress: the configurations of the automaton. Reuse one per
/// open element; its buffers keep their capacity.
#[derive(Clone, Debug, Default)]
pub struct MatchState {
    /// Flat configurations: `[position, counters...]` each (for `xs:all`, the bitset words).
    cur: Vec<u32>,
    next: Vec<u32>,
    /// Configurations were dropped for exceeding [`MAX_CONFIGS`].
    pub(crate) overflow: bool,
}

impl ContentModel {
    /// Sets `st` to the start of the content.
    pub fn start(&self, st: &mut MatchState) {
        st.cur.clear();
        st.overflow = false;
        match &self.kind {
            Kind::Glushkov(g) => {
                st.cur.push(0);
                st.cur.extend(std::iter::repeat(0).take(g.counters.len()));
            }
            Kind::All(a) => {
                st.cur
                    .extend(std::iter::repeat(0).take(a.children.len().div_ceil(32)));
            }
        }
    }

    /// Consumes a child element named `name` (its schema name, `None` when the schema does
    /// not know the name) in namespace `ns` ([`NamespaceId::UNKNOWN`] for a namespace the schema
    /// does not know). On no match `st` is left as it was.
    #[inline]
    pub fn step(
        &self,
        st: &mut MatchState,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<Matched<'_>> {
        match &self.kind {
            Kind::Glushkov(g) => g.step(st, name, ns),
            Kind::All(a) => a.step(st, name),
        }
    }

    /// The declaration of child `name` and the state after it, when matching it is a plain
    /// move: one configuration, no counters, one element particle for the name, allowed as
    /// it is (not abstract, not blocked). `None` otherwise, and then [`ContentModel::step`]
    /// decides; `st` is not changed either way ([`ContentModel::plain_move`] makes the move).
    #[inline]
    pub(crate) fn plain_step(&self, st: &MatchState, name: NameId) -> Option<(ElementId, u32)> {
        match st.cur.as_slice() {
            &[at] => self.plain()?.step(at, name),
            _ => None,
        }
    }

    /// The wildcard child `name` (its schema name, if any) in namespace `ns` matches and
    /// the state after it, when that is a plain move: one configuration, no counters, no
    /// element particle for the name, one wildcard. `None` otherwise; `st` is not changed.
    #[inline]
    pub(crate) fn plain_wildcard(
        &self,
        st: &MatchState,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<(&Wildcard, u32)> {
        match st.cur.as_slice() {
            &[at] => self.plain()?.wildcard(at, name, ns),
            _ => None,
        }
    }

    /// The model as a plain automaton, whose whole state is one position (no counters, not
    /// `xs:all`), starting at [`PlainModel::START`]; `None` for any other.
    #[inline]
    pub(crate) fn plain(&self) -> Option<PlainModel<'_>> {
        match &self.kind {
            Kind::Glushkov(g) if g.counters.is_empty() => Some(PlainModel(g)),
            _ => None,
        }
    }

    /// Makes the move [`ContentModel::plain_step`] found.
    #[inline]
    pub(crate) fn plain_move(st: &mut MatchState, target: u32) {
        st.cur[0] = target;
    }

    /// Whether the content may end here.
    pub fn can_end(&self, st: &MatchState) -> bool {
        match &self.kind {
            Kind::Glushkov(g) => {
                let w = 1 + g.counters.len();
                st.cur.chunks(w).any(|c| g.accepts(c))
            }
            Kind::All(a) => a.can_end(&st.cur),
        }
    }

    /// The names and wildcards allowed next, each once, in model order.
    pub fn expected<'m>(&'m self, st: &MatchState, out: &mut Vec<Expected<'m>>) {
        out.clear();
        match &self.kind {
            Kind::Glushkov(g) => {
                let w = 1 + g.counters.len();
                for c in st.cur.chunks(w) {
                    let state = &g.states[g.rep[c[0] as usize] as usize];
                    for &t in &state.all {
                        let tr = &g.transitions[t as usize];
                        if g.guards_pass(c, tr) {
                            let e = match &g.positions[tr.target as usize].term {
                                PosTerm::Element(_, n) => Expected::Element(*n),
                                PosTerm::Wildcard(w) => Expected::Wildcard(w),
                            };
                            if !out.contains(&e) {
                                out.push(e);
                            }
                        }
                    }
                }
            }
            Kind::All(a) => {
                for (i, &(_, _, n)) in a.children.iter().enumerate() {
                    if st.cur[i / 32] & (1 << (i % 32)) == 0 {
                        out.push(Expected::Element(n));
                    }
                }
            }
        }
    }

    /// The number of counters (0 for `xs:all`), for tests and diagnostics.
    pub fn counter_count(&self) -> usize {
        match &self.kind {
            Kind::Glushkov(g) => g.counters.len(),
            Kind::All(_) => 0,
        }
    }

    /// The number of transitions (children for `xs:all`), for tests and diagnostics.
    pub fn transition_count(&self) -> usize {
        match &self.kind {
            Kind::Glushkov(g) => g.transitions.len(),
            Kind::All(a) => a.children.len(),
        }
    }

    /// The number of states (positions plus the initial state; children for `xs:all`).
    pub fn state_count(&self) -> usize {
        match &self.kind {
            Kind::Glushkov(g) => g.states.len(),
            Kind::All(a) => a.children.len(),
        }
    }
}

impl Glushkov {
    fn guards_pass(&self, config: &[u32], tr: &Transition) -> bool {
        let (s, e) = tr.actions;
        self.actions[s as usize..e as usize]
            .iter()
            .all(|&(c, act)| {
                let v = config[1 + c as usize];
                let k = self.counters[c as usize];
                match act {
                    Act::Exit => v >= k.min,
                    Act::Inc => k.max.map_or(true, |m| v < m),
                    Act::Enter => true,
                }
            })
    }

    fn apply(&self, config: &[u32], tr: &Transition, out: &mut Vec<u32>) {
        let start = out.len();
        out.push(tr.target);
        out.extend_from_slice(&config[1..]);
        let (s, e) = tr.actions;
        for &(c, act) in &self.actions[s as usize..e as usize] {
            let k = self.counters[c as usize];
            let slot = &mut out[start + 1 + c as usize];
            match act {
                Act::Exit => *slot = 0,
                Act::Enter => *slot = 1,
                Act::Inc => {
                    *slot = match k.max {
                        Some(_) => *slot + 1,
                        None => (*slot + 1).min(k.min.max(1)),
                    }
                }
            }
        }
        // Drop a duplicate configuration.
        let w = out.len() - start;
        let (before, new) = out.split_at(start);
        if before.chunks(w).any(|c| c == new) {
            out.truncate(start);
        }
    }

    fn accepts(&self, config: &[u32]) -> bool {
        let Some((s, e)) = self.states[self.rep[config[0] as usize] as usize].accept else {
            return false;
        };
        self.accept_counters[s as usize..e as usize]
            .iter()
            .all(|&c| config[1 + c as usize] >= self.counters[c as usize].min)
    }

    /// One step: in place for one configuration without counters (the usual deterministic
    /// case) when the name has one element particle or the state one wildcard; the general
    /// walk over configurations otherwise. Inlined into the validator, the general walk out
    /// of line (its register saves cost a fifth of a step in place).
    #[inline]
    fn step(
        &self,
        st: &mut MatchState,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<Matched<'_>> {
        if self.counters.is_empty() && st.cur.len() == 1 {
            let state = &self.states[self.rep[st.cur[0] as usize] as usize];
            let mut named = false;
            if let Some((m, only)) = name.and_then(|n| state.named(n)) {
                if only {
                    st.cur[0] = self.transitions[m.1 as usize].target;
                    return Some(Matched::Element {
                        decl: m.2,
                        particle: m.3,
                        status: m.4,
                    });
                }
                named = true;
            }
            // No element particle for the name and one wildcard (the items of a SOAP array):
            // no counters, so no guards.
            if !named && state.wild.len() == 1 {
                let tr = &self.transitions[state.wild[0] as usize];
                if let PosTerm::Wildcard(wc) = &self.positions[tr.target as usize].term {
                    if wc.allows(ns) {
                        st.cur[0] = tr.target;
                        return Some(Matched::Wildcard(wc));
                    }
                }
            }
        }
        self.step_configurations(st, name, ns)
    }

    #[inline(never)]
    fn step_configurations(
        &self,
        st: &mut MatchState,
        name: Option<NameId>,
        ns: NamespaceId,
    ) -> Option<Matched<'_>> {
        let w = 1 + self.counters.len();
        st.next.clear();
        let mut matched = None;
        let mut i = 0;
        while i < st.cur.len() {
            let config = &st.cur[i..i + w];
            i += w;
            let state = &self.states[self.rep[config[0] as usize] as usize];
            let mut found_element = false;
            if let Some(n) = name {
                let lo = state.by_name.partition_point(|m| m.0 < n);
                for m in state.by_name[lo..].iter().take_while(|m| m.0 == n) {
                    let tr = &self.transitions[m.1 as usize];
                    if self.guards_pass(config, tr) {
                        found_element = true;
                        matched.get_or_insert(Matched::Element {
                            decl: m.2,
                            particle: m.3,
                            status: m.4,
                        });
                        self.apply(config, tr, &mut st.next);
                    }
                }
            }
            if !found_element {
                for &t in &state.wild {
                    let tr = &self.transitions[t as usize];
                    let PosTerm::Wildcard(wc) = &self.positions[tr.target as usize].term else {
                        continue;
                    };
                    if wc.allows(ns) && self.guards_pass(config, tr) {
                        matched.get_or_insert(Matched::Wildcard(wc));
                        self.apply(config, tr, &mut st.next);
                    }
                }
            }
            // At most MAX_CONFIGS configurations, and at most 4K words (16 KB) per open
            // element, so a deep document on a pathological model stays bounded.
            let cap = MAX_CONFIGS.min((1 << 12) / w).max(1) * w;
            if st.next.len() > cap {
                st.next.truncate(cap);
                st.overflow = true;
            }
        }
        if matched.is_some() {
            std::mem::swap(&mut st.cur, &mut st.next);
        }
        matched
    }
}

#[cfg(test)]
impl ContentModel {
    /// Whether some reachable configuration set lets one element name match two different
    /// particles, found by exploring every reachable set (element particles only; for tests
    /// of the static `cos-nonambig` check). `None` when the exploration is too large.
    pub(crate) fn ambiguous_by_exploration(&self) -> Option<bool> {
        let Kind::Glushkov(g) = &self.kind else {
            return Some(false);
        };
        let w = 1 + g.counters.len();
        let normalize = |v: &[u32]| {
            let mut cs: Vec<Vec<u32>> = v.chunks(w).map(|c| c.to_vec()).collect();
            cs.sort();
            cs.dedup();
            cs.concat()
        };
        let mut st = MatchState::default();
        self.start(&mut st);
        let mut seen = std::collections::HashSet::new();
        let mut queue = vec![normalize(&st.cur)];
        seen.insert(queue[0].clone());
        while let Some(cur) = queue.pop() {
            if seen.len() > 20_000 {
                return None;
            }
            let mut names: Vec<NameId> = Vec::new();
            for c in cur.chunks(w) {
                let state = &g.states[g.rep[c[0] as usize] as usize];
                names.extend(state.by_name.iter().map(|m| m.0));
            }
            names.sort();
            names.dedup();
            for n in names {
                let mut targets = Vec::new();
                for c in cur.chunks(w) {
                    let state = &g.states[g.rep[c[0] as usize] as usize];
                    for m in state.by_name.iter().filter(|m| m.0 == n) {
                        let tr = &g.transitions[m.1 as usize];
                        if g.guards_pass(c, tr) && !targets.contains(&tr.target) {
                            targets.push(tr.target);
                        }
                    }
                }
                if targets.len() > 1 {
                    return Some(true);
                }
                let mut st = MatchState {
                    cur: cur.clone(),
                    next: Vec::new(),
                    overflow: false,
                };
                let ns = NamespaceId::UNKNOWN;
                if self.step(&mut st, Some(n), ns).is_some() {
                    let next = normalize(&st.cur);
                    if seen.insert(next.clone()) {
                        queue.push(next);
                    }
                }
            }
        }
        Some(false)
    }
}

impl AllModel {
    fn step(&self, st: &mut MatchState, name: Option<NameId>) -> Option<Matched<'_>> {
        let n = name?;
        let lo = self.by_name.partition_point(|m| m.0 < n);
        let m = self.by_name.get(lo).filter(|m| m.0 == n)?;
        let i = m.1 as usize;
        let bit = 1u32 << (i % 32);
        if st.cur[i / 32] & bit != 0 {
            return None;
        }
        st.cur[i / 32] |= bit;
        Some(Matched::Element {
            decl: m.2,
            particle: m.3,
            status: m.4,
        })
    }

    fn can_end(&self, bits: &[u32]) -> bool {
        let seen = |i: usize| bits[i / 32] & (1 << (i % 32)) != 0;
        if self.optional && bits.iter().all(|&w| w == 0) {
            return true;
        }
        self.children
            .iter()
            .enumerate()
            .all(|(i, &(_, required, _))| !required || seen(i))
    }
}

// ----- compilation ------------------------------------------------------------------------------

#[derive(Debug)]
enum NodeKind {
    Leaf(u32),
    Seq(Vec<usize>),
    Choice(Vec<usize>),
    Repeat {
        child: usize,
        max_many: bool,
        counter: Option<u32>,
    },
    Empty,
}

#[derive(Debug)]
struct Node {
    kind: NodeKind,
    parent: Option<usize>,
    nullable: bool,
    first: Vec<u32>,
    last: Vec<u32>,
}

struct Builder<'s> {
    schema: &'s Schema,
    nodes: Vec<Node>,
    positions: Vec<Position>,
    leaf_of: Vec<usize>,
    counters: Vec<Counter>,
    counter_node: Vec<usize>,
    errors: Vec<SchemaError>,
    owner: String,
}

pub(crate) fn schema_error(
    schema: &Schema,
    constraint: &'static str,
    message: String,
    loc: Option<Location>,
) -> SchemaError {
    SchemaError {
        constraint,
        message,
        file: loc.and_then(|l| schema.files.get(l.file.index()).cloned()),
        position: loc.map(|l| (l.line, l.column)),
        source: None,
    }
}

impl<'s> Builder<'s> {
    fn node(&mut self, kind: NodeKind) -> usize {
        self.nodes.push(Node {
            kind,
            parent: None,
            nullable: false,
            first: Vec::new(),
            last: Vec::new(),
        });
        self.nodes.len() - 1
    }

    fn too_big(&self) -> bool {
        self.nodes.len() > MAX_POSITIONS || self.positions.len() > MAX_POSITIONS
    }

    /// Builds the node of a particle; `depth` guards against group cycles in hand-built
    /// schemas.
    fn particle(&mut self, p: &Particle, depth: usize) -> usize {
        let max = match p.max_occurs {
            MaxOccurs::Bounded(0) => return self.node(NodeKind::Empty),
            MaxOccurs::Bounded(m) => Some(m),
            MaxOccurs::Unbounded => None,
        };
        let min = match max {
            Some(m) => p.min_occurs.min(m),
            None => p.min_occurs,
        };
        let term = if depth > 256 || self.too_big() {
            self.errors.push(schema_error(
                self.schema,
                "cos-content-model",
                format!(
                    "the content model of {} is too large or too deeply nested",
                    self.owner
                ),
                p.location,
            ));
            self.node(NodeKind::Empty)
        } else {
            match &p.term {
                Term::Element(e) => {
                    let name = self.schema.element(*e).name;
                    self.leaf(PosTerm::Element(*e, name), p.location)
                }
                Term::Wildcard(w) => self.leaf(PosTerm::Wildcard(w.clone()), p.location),
                Term::Group(g) => {
                    let group = self.schema.model_group(*g);
                    let children: Vec<usize> = group
                        .particles
                        .iter()
                        .map(|c| self.particle(c, depth + 1))
                        .collect();
                    match group.compositor {
                        Compositor::Sequence => self.node(NodeKind::Seq(children)),
                        Compositor::Choice => self.node(NodeKind::Choice(children)),
                        Compositor::All => {
                            self.errors.push(schema_error(
                                self.schema,
                                "cos-all-limited",
                                format!(
                                    "an xs:all group may only be the whole content model (in {})",
                                    self.owner
                                ),
                                group.location.or(p.location),
                            ));
                            self.node(NodeKind::Seq(children))
                        }
                    }
                }
            }
        };
        if (min, max) == (1, Some(1)) {
            return term;
        }
        self.repeat(term, min, max)
    }

    fn leaf(&mut self, term: PosTerm, location: Option<Location>) -> usize {
        let pos = self.positions.len() as u32 + 1;
        self.positions.push(Position { term, location });
        let n = self.node(NodeKind::Leaf(pos));
        self.leaf_of.push(n);
        n
    }

    fn repeat(&mut self, child: usize, min: u32, max: Option<u32>) -> usize {
        // Nullability of the child is only known after `analyse`; decide the counter there.
        let n = self.node(NodeKind::Repeat {
            child,
            max_many: max != Some(1),
            counter: None,
        });
        self.counter_node.push(n);
        self.counters.push(Counter { min, max });
        n
    }

    /// Parents, nullable, first and last, bottom-up (children have lower indices).
    fn analyse(&mut self) {
        let mut repeat_index = 0usize;
        let mut kept_counters = Vec::new();
        let mut kept_nodes = Vec::new();
        for i in 0..self.nodes.len() {
            let (nullable, first, last) = match &self.nodes[i].kind {
                NodeKind::Leaf(p) => (false, vec![*p], vec![*p]),
                NodeKind::Empty => (true, vec![], vec![]),
                NodeKind::Seq(ch) => {
                    let ch = ch.clone();
                    let mut first = Vec::new();
                    let mut nullable = true;
                    for &c in &ch {
                        self.nodes[c].parent = Some(i);
                        if nullable {
                            first.extend_from_slice(&self.nodes[c].first);
                        }
                        nullable &= self.nodes[c].nullable;
                    }
                    let mut last = Vec::new();
                    for &c in ch.iter().rev() {
                        last.extend_from_slice(&self.nodes[c].last);
                        if !self.nodes[c].nullable {
                            break;
                        }
                    }
                    (nullable, first, last)
                }
                NodeKind::Choice(ch) => {
                    let ch = ch.clone();
                    let mut first = Vec::new();
                    let mut last = Vec::new();
                    let mut nullable = ch.is_empty();
                    for &c in &ch {
                        self.nodes[c].parent = Some(i);
                        first.extend_from_slice(&self.nodes[c].first);
                        last.extend_from_slice(&self.nodes[c].last);
                        nullable |= self.nodes[c].nullable;
                    }
                    (nullable, first, last)
                }
                NodeKind::Repeat { child, .. } => {
                    let child = *child;
                    self.nodes[child].parent = Some(i);
                    let k = self.counters[repeat_index];
                    repeat_index += 1;
                    let child_nullable = self.nodes[child].nullable;
                    let min = if child_nullable { 0 } else { k.min };
                    let needs = match k.max {
                        Some(m) => m >= 2,
                        None => min >= 2,
                    };
                    if needs {
                        let id = kept_counters.len() as u32;
                        kept_counters.push(Counter { min, max: k.max });
                        kept_nodes.push(i);
                        if let NodeKind::Repeat { counter, .. } = &mut self.nodes[i].kind {
                            *counter = Some(id);
                        }
                    }
                    let n = &self.nodes[child];
                    (
                        k.min == 0 || child_nullable,
                        n.first.clone(),
                        n.last.clone(),
                    )
                }
            };
            let node = &mut self.nodes[i];
            node.nullable = nullable;
            node.first = first;
            node.last = last;
        }
        self.counters = kept_counters;
        self.counter_node = kept_nodes;
    }

    /// The counters on the path from position `p`'s leaf up to (excluding) `stop`.
    fn counters_up(&self, p: u32, stop: Option<usize>, out: &mut Vec<u32>) {
        let mut n = Some(self.leaf_of[p as usize - 1]);
        while let Some(i) = n {
            if Some(i) == stop {
                break;
            }
            if let NodeKind::Repeat {
                counter: Some(c), ..
            } = self.nodes[i].kind
            {
                out.push(c);
            }
            n = self.nodes[i].parent;
        }
    }
}

/// Compiles one content particle.
pub(crate) fn compile(
    schema: &Schema,
    particle: &Particle,
    owner: &str,
) -> (ContentModel, Vec<SchemaError>) {
    // xs:all at the top.
    if let Term::Group(g) = &particle.term {
        let group = schema.model_group(*g);
        if group.compositor == Compositor::All {
            return compile_all(schema, particle, owner);
        }
    }
    let mut b = Builder {
        schema,
        nodes: Vec::new(),
        positions: Vec::new(),
        leaf_of: Vec::new(),
        counters: Vec::new(),
        counter_node: Vec::new(),
        errors: Vec::new(),
        owner: owner.to_string(),
    };
    let root = b.particle(particle, 0);
    b.analyse();
    let npos = b.positions.len();
    let mut rep: Vec<u32> = (0..=npos as u32).collect();
    {
        let mut first_of_choice: HashMap<usize, u32> = HashMap::new();
        for p in 1..=npos as u32 {
            let leaf = b.leaf_of[p as usize - 1];
            if let Some(c) = b.nodes[leaf].parent {
                if matches!(b.nodes[c].kind, NodeKind::Choice(_)) {
                    rep[p as usize] = *first_of_choice.entry(c).or_insert(p);
                }
            }
        }
    }
    let is_rep = |p: u32| rep[p as usize] == p;
    let mut transitions: Vec<Transition> = Vec::new();
    let mut actions: Vec<(u32, Act)> = Vec::new();
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); npos + 1];
    // (source, target) -> the transitions between them (usually one; a pair comes again
    // with other counter actions only through nested repetitions).
    let mut seen: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let mut scratch = Vec::new();
    let mut add = |p: u32,
                   q: u32,
                   acts: &[(u32, Act)],
                   transitions: &mut Vec<Transition>,
                   actions: &mut Vec<(u32, Act)>| {
        let same = seen.entry((p, q)).or_default();
        if same.iter().any(|&t| {
            let (s, e) = transitions[t as usize].actions;
            &actions[s as usize..e as usize] == acts
        }) {
            return;
        }
        let s = actions.len() as u32;
        actions.extend_from_slice(acts);
        let id = transitions.len() as u32;
        transitions.push(Transition {
            target: q,
            actions: (s, actions.len() as u32),
        });
        out[p as usize].push(id);
        same.push(id);
    };
    // Initial transitions.
    for &q in &b.nodes[root].first {
        scratch.clear();
        b.counters_up(q, None, &mut scratch);
        let acts: Vec<(u32, Act)> = scratch.iter().rev().map(|&c| (c, Act::Enter)).collect();
        add(0, q, &acts, &mut transitions, &mut actions);
    }
    // Glushkov automata have up to positions^2 transitions; refuse rather than exhaust
    // memory (a choice of 2,000 repeated elements is within the budget).
    let mut budget: usize = 4_000_000;
    let mut pairs: Vec<(u32, u32, Option<u32>)> = Vec::new();
    for m in 0..b.nodes.len() {
        // Count first, so an oversized model is refused before anything is built.
        let count: usize = match &b.nodes[m].kind {
            NodeKind::Seq(ch) => {
                let mut n = 0usize;
                for (i, &ci) in ch.iter().enumerate() {
                    for &cj in &ch[i + 1..] {
                        let sources = b.nodes[ci].last.iter().filter(|&&p| is_rep(p)).count();
                        n = n.saturating_add(sources.saturating_mul(b.nodes[cj].first.len()));
                        if !b.nodes[cj].nullable {
                            break;
                        }
                    }
                }
                n
            }
            NodeKind::Repeat {
                child,
                max_many: true,
                ..
            } => {
                let sources = b.nodes[*child].last.iter().filter(|&&p| is_rep(p)).count();
                sources.saturating_mul(b.nodes[*child].first.len())
            }
            _ => 0,
        };
        if count > budget {
            b.errors.push(schema_error(
                schema,
                "cos-content-model",
                format!("the content model of {owner} is too large to compile"),
                particle.location,
            ));
            break;
        }
        budget -= count;
        pairs.clear();
        match &b.nodes[m].kind {
            NodeKind::Seq(ch) => {
                for (i, &ci) in ch.iter().enumerate() {
                    for &cj in &ch[i + 1..] {
                        for &p in b.nodes[ci].last.iter().filter(|&&p| is_rep(p)) {
                            for &q in &b.nodes[cj].first {
                                pairs.push((p, q, None));
                            }
                        }
                        if !b.nodes[cj].nullable {
                            break;
                        }
                    }
                }
            }
            NodeKind::Repeat {
                child,
                max_many: true,
                counter,
            } => {
                for &p in b.nodes[*child].last.iter().filter(|&&p| is_rep(p)) {
                    for &q in &b.nodes[*child].first {
                        pairs.push((p, q, Some(counter.unwrap_or(u32::MAX))));
                    }
                }
            }
            _ => {}
        }
        let mut acts = Vec::new();
        for &(p, q, inc) in &pairs {
            acts.clear();
            scratch.clear();
            b.counters_up(p, Some(m), &mut scratch);
            acts.extend(scratch.iter().map(|&c| (c, Act::Exit)));
            if let Some(c) = inc.filter(|&c| c != u32::MAX) {
                acts.push((c, Act::Inc));
            }
            scratch.clear();
            b.counters_up(q, Some(m), &mut scratch);
            acts.extend(scratch.iter().rev().map(|&c| (c, Act::Enter)));
            add(p, q, &acts, &mut transitions, &mut actions);
        }
    }
    // Accepting states.
    let mut accept_counters = Vec::new();
    let mut states: Vec<State> = (0..=npos).map(|_| State::default()).collect();
    if b.nodes[root].nullable {
        states[0].accept = Some((0, 0));
    }
    for &p in b.nodes[root].last.iter().filter(|&&p| is_rep(p)) {
        scratch.clear();
        b.counters_up(p, None, &mut scratch);
        let s = accept_counters.len() as u32;
        accept_counters.extend_from_slice(&scratch);
        states[p as usize].accept = Some((s, accept_counters.len() as u32));
    }
    // Name tables.
    let mut members_cache: HashMap<ElementId, Vec<(NameId, ElementId, MemberStatus)>> =
        HashMap::new();
    for (p, trs) in out.iter().enumerate() {
        let st = &mut states[p];
        st.all = trs.clone();
        for &t in trs {
            let q = transitions[t as usize].target;
            match &b.positions[q as usize - 1].term {
                PosTerm::Element(e, _) => {
                    let members = members_cache
                        .entry(*e)
                        .or_insert_with(|| members(schema, *e));
                    for &(n, d, s) in members.iter() {
                        st.by_name.push((n, t, d, *e, s));
                    }
                }
                PosTerm::Wildcard(_) => st.wild.push(t),
            }
        }
        st.by_name.sort_by_key(|m| (m.0, m.1));
    }
    let moves = if b.counters.is_empty() {
        PlainMoves::new(&rep, &states, &transitions)
    } else {
        PlainMoves::default()
    };
    let g = Glushkov {
        positions: std::iter::once(Position {
            term: PosTerm::Wildcard(Wildcard {
                namespaces: NamespaceConstraint::Set(Vec::new()),
                process: crate::model::ProcessContents::Skip,
            }),
            location: None,
        })
        .chain(b.positions)
        .collect(),
        rep,
        counters: b.counters,
        states,
        transitions,
        actions,
        accept_counters,
        moves,
    };
    let mut errors = b.errors;
    check_upa(schema, &g, owner, &mut errors);
    (
        ContentModel {
            kind: Kind::Glushkov(g),
        },
        errors,
    )
}

/// The declarations an element particle matches: itself and its substitution group.
fn members(schema: &Schema, head: ElementId) -> Vec<(NameId, ElementId, MemberStatus)> {
    let group = schema.substitution_group(head);
    let list: Vec<ElementId> = if group.is_empty() {
        vec![head]
    } else {
        group.to_vec()
    };
    list.into_iter()
        .map(|d| {
            let e = schema.element(d);
            let status = if e.is_abstract {
                MemberStatus::Abstract
            } else if schema.substitution_blocked(head, d) {
                MemberStatus::Blocked
            } else {
                MemberStatus::Ok
            };
            (e.name, d, status)
        })
        .collect()
}

fn compile_all(
    schema: &Schema,
    particle: &Particle,
    owner: &str,
) -> (ContentModel, Vec<SchemaError>) {
    let mut errors = Vec::new();
    let Term::Group(g) = &particle.term else {
        unreachable!("checked by the caller")
    };
    let group = schema.model_group(*g);
    if particle.max_occurs != MaxOccurs::Bounded(1) || particle.min_occurs > 1 {
        errors.push(schema_error(
            schema,
            "cos-all-limited",
            format!("an xs:all group must occur at most once (in {owner})"),
            particle.location,
        ));
    }
    let mut children = Vec::new();
    let mut by_name = Vec::new();
    for p in &group.particles {
        let Term::Element(e) = p.term else {
            errors.push(schema_error(
                schema,
                "cos-all-limited",
                format!("an xs:all group may only contain element declarations (in {owner})"),
                p.location,
            ));
            continue;
        };
        if p.max_occurs == MaxOccurs::Bounded(0) {
            continue;
        }
        if p.max_occurs != MaxOccurs::Bounded(1) {
            errors.push(schema_error(
                schema,
                "cos-all-limited",
                format!("the particles of an xs:all group must have maxOccurs 1 (in {owner})"),
                p.location,
            ));
        }
        let i = children.len() as u32;
        children.push((e, p.min_occurs > 0, schema.element(e).name));
        for (n, d, s) in members(schema, e) {
            by_name.push((n, i, d, e, s));
        }
    }
    by_name.sort_by_key(|m| (m.0, m.1));
    for w in by_name.windows(2) {
        if w[0].0 == w[1].0 && w[0].1 != w[1].1 {
            let loc = group
                .particles
                .get(w[1].1 as usize)
                .and_then(|p| p.location);
            errors.push(schema_error(
                schema,
                "cos-nonambig",
                format!(
                    "the content model of {owner} is ambiguous: element '{}' matches two particles of the xs:all group",
                    schema.display_name(w[0].0)
                ),
                loc,
            ));
        }
    }
    let optional = particle.min_occurs == 0;
    (
        ContentModel {
            kind: Kind::All(AllModel {
                by_name,
                children,
                optional,
            }),
        },
        errors,
    )
}

/// Whether two transitions can never be enabled together: some counter must be below `max`
/// for one and at least `min == max` for the other.
fn exclusive(g: &Glushkov, a: &Transition, b: &Transition) -> bool {
    let acts = |t: &Transition| &g.actions[t.actions.0 as usize..t.actions.1 as usize];
    for &(c, x) in acts(a) {
        for &(d, y) in acts(b) {
            if c == d && matches!((x, y), (Act::Inc, Act::Exit) | (Act::Exit, Act::Inc)) {
                let k = g.counters[c as usize];
                if k.max.is_some_and(|m| k.min >= m) {
                    return true;
                }
            }
        }
    }
    false
}

fn wildcards_overlap(a: &Wildcard, b: &Wildcard) -> bool {
    use NamespaceConstraint::*;
    match (&a.namespaces, &b.namespaces) {
        (Any, _) | (_, Any) | (Not(_), Not(_)) => true,
        (Not(n), Set(s)) | (Set(s), Not(n)) => {
            s.iter().any(|x| x != n && *x != NamespaceId::ABSENT)
        }
        (Set(s), Set(t)) => s.iter().any(|x| t.contains(x)),
    }
}

/// Explores every reachable set of configurations and returns the conflicts: two particles
/// (positions) that the same element can match after the same prefix, with what they both
/// match. This is Unique Particle Attribution exactly, counters included (a position may hold
/// several counter values at once, as in `(b+|a){2}, a`). `None` when the exploration
/// exceeds its budget (large bounds nested in large bounds); the caller then falls back to
/// the pairwise check.
fn explore_conflicts(schema: &Schema, g: &Glushkov) -> Option<Vec<(u32, u32, String)>> {
    const MAX_SETS: usize = 20_000;
    const MAX_WORK: usize = 4_000_000;
    let w = 1 + g.counters.len();
    let normalize = |v: &[u32]| -> Vec<u32> {
        let mut cs: Vec<&[u32]> = v.chunks(w).collect();
        cs.sort();
        cs.dedup();
        let mut out = Vec::with_capacity(cs.len() * w);
        for c in cs {
            out.push(g.rep[c[0] as usize]);
            out.extend_from_slice(&c[1..]);
        }
        out
    };
    let mut start = vec![0u32];
    start.extend(std::iter::repeat(0).take(g.counters.len()));
    let mut seen = std::collections::HashSet::new();
    seen.insert(start.clone());
    let mut queue = vec![start];
    let mut work = 0usize;
    let mut conflicts: Vec<(u32, u32, String)> = Vec::new();
    let mut names: Vec<(NameId, u32)> = Vec::new();
    let mut enabled: Vec<(usize, u32)> = Vec::new();
    while let Some(cur) = queue.pop() {
        if seen.len() > MAX_SETS || cur.len() > MAX_CONFIGS * w {
            return None;
        }
        names.clear();
        enabled.clear();
        for (ci, c) in cur.chunks(w).enumerate() {
            let state = &g.states[g.rep[c[0] as usize] as usize];
            work += state.all.len() + state.by_name.len();
            for &t in &state.all {
                if g.guards_pass(c, &g.transitions[t as usize]) {
                    enabled.push((ci, t));
                }
            }
            for m in &state.by_name {
                let tr = &g.transitions[m.1 as usize];
                if g.guards_pass(c, tr) {
                    names.push((m.0, tr.target));
                }
            }
        }
        if work > MAX_WORK {
            return None;
        }
        names.sort();
        names.dedup();
        for pair in names.windows(2) {
            if pair[0].0 == pair[1].0 {
                conflicts.push((
                    pair[0].1,
                    pair[1].1,
                    format!("element '{}'", schema.display_name(pair[0].0)),
                ));
            }
        }
        let mut wild: Vec<u32> = enabled
            .iter()
            .map(|&(_, t)| g.transitions[t as usize].target)
            .filter(|&q| matches!(g.positions[q as usize].term, PosTerm::Wildcard(_)))
            .collect();
        wild.sort();
        wild.dedup();
        for (i, &q) in wild.iter().enumerate() {
            let PosTerm::Wildcard(wq) = &g.positions[q as usize].term else {
                continue;
            };
            for &(n, target) in &names {
                if wq.allows(schema.names.ns(n)) {
                    conflicts.push((target, q, format!("element '{}'", schema.display_name(n))));
                }
            }
            for &r in &wild[i + 1..] {
                if let PosTerm::Wildcard(wr) = &g.positions[r as usize].term {
                    if wildcards_overlap(wq, wr) {
                        conflicts.push((q, r, "a wildcard".to_string()));
                    }
                }
            }
        }
        if conflicts.len() > 100 {
            break;
        }
        // Successors: one per target position (for an unambiguous set, every element that
        // can come next leads to exactly one).
        enabled.sort_by_key(|&(ci, t)| (g.transitions[t as usize].target, ci, t));
        for group in enabled.chunk_by(|a, b| {
            g.transitions[a.1 as usize].target == g.transitions[b.1 as usize].target
        }) {
            let mut next = Vec::new();
            for &(ci, t) in group {
                let c = &cur[ci * w..ci * w + w];
                g.apply(c, &g.transitions[t as usize], &mut next);
            }
            let next = normalize(&next);
            if seen.insert(next.clone()) {
                queue.push(next);
            }
        }
    }
    Some(conflicts)
}

#[cfg(test)]
thread_local! {
    /// Tests: use the pairwise check only.
    pub(crate) static FORCE_PAIRWISE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn check_upa(schema: &Schema, g: &Glushkov, owner: &str, errors: &mut Vec<SchemaError>) {
    let mut reported = std::collections::HashSet::new();
    let mut report = |p: u32, q: u32, what: String, errors: &mut Vec<SchemaError>| {
        let key = (p.min(q), p.max(q));
        if !reported.insert(key) || errors.len() > 100 {
            return;
        }
        let loc = g.positions[key.1 as usize].location;
        let other = g.positions[key.0 as usize]
            .location
            .map(|l| {
                format!(
                    " (the other particle is at line {}, column {})",
                    l.line, l.column
                )
            })
            .unwrap_or_default();
        errors.push(schema_error(
            schema,
            "cos-nonambig",
            format!(
                "the content model of {owner} is ambiguous: {what} may match two particles{other}"
            ),
            loc,
        ));
    };
    #[cfg(test)]
    let explore = !FORCE_PAIRWISE.with(|f| f.get());
    #[cfg(not(test))]
    let explore = true;
    if let Some(conflicts) = explore.then(|| explore_conflicts(schema, g)).flatten() {
        for (p, q, what) in conflicts {
            report(p, q, what, errors);
        }
        return;
    }
    for st in &g.states {
        // Every pair of transitions on one name (a group is small: the particles that name
        // can reach from here).
        for group in st.by_name.chunk_by(|x, y| x.0 == y.0) {
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    let (ta, tb) = (&g.transitions[a.1 as usize], &g.transitions[b.1 as usize]);
                    if ta.target != tb.target && !exclusive(g, ta, tb) {
                        report(
                            ta.target,
                            tb.target,
                            format!("element '{}'", schema.display_name(a.0)),
                            errors,
                        );
                    }
                }
            }
        }
        for (i, &t) in st.wild.iter().enumerate() {
            let tr = &g.transitions[t as usize];
            let PosTerm::Wildcard(wc) = &g.positions[tr.target as usize].term else {
                continue;
            };
            for m in &st.by_name {
                let te = &g.transitions[m.1 as usize];
                if te.target != tr.target
                    && wc.allows(schema.names.ns(m.0))
                    && !exclusive(g, tr, te)
                {
                    report(
                        te.target,
                        tr.target,
                        format!("element '{}'", schema.display_name(m.0)),
                        errors,
                    );
                }
            }
            for &u in &st.wild[i + 1..] {
                let tu = &g.transitions[u as usize];
                let PosTerm::Wildcard(wu) = &g.positions[tu.target as usize].term else {
                    continue;
                };
                if tu.target != tr.target && wildcards_overlap(wc, wu) && !exclusive(g, tr, tu) {
                    report(tr.target, tu.target, "a wildcard".to_string(), errors);
                }
            }
        }
    }
}

/// Element Declarations Consistent: element particles of one content model with the same name
/// (directly, in nested groups, or through substitution groups) have the same type.
fn check_consistent(
    schema: &Schema,
    particle: &Particle,
    owner: &str,
    errors: &mut Vec<SchemaError>,
) {
    let mut seen: HashMap<NameId, (TypeId, ElementId)> = HashMap::new();
    let mut stack = vec![(particle, 0usize)];
    let mut visited = 0usize;
    while let Some((p, depth)) = stack.pop() {
        visited += 1;
        if depth > 256 || visited > MAX_POSITIONS {
            break;
        }
        match &p.term {
            Term::Element(e) => {
                let group = schema.substitution_group(*e);
                let list: &[ElementId] = if group.is_empty() {
                    std::slice::from_ref(e)
                } else {
                    group
                };
                for &d in list {
                    let decl = schema.element(d);
                    match seen.get(&decl.name) {
                        Some(&(t, other)) if t != decl.type_def && other != d => {
                            errors.push(schema_error(
                                schema,
                                "cos-element-consistent",
                                format!(
                                    "the content model of {owner} has two declarations of element '{}' with different types",
                                    schema.display_name(decl.name)
                                ),
                                p.location,
                            ));
                        }
                        Some(_) => {}
                        None => {
                            seen.insert(decl.name, (decl.type_def, d));
                        }
                    }
                }
            }
            Term::Wildcard(_) => {}
            Term::Group(g) => {
                for c in schema.model_group(*g).particles.iter().rev() {
                    stack.push((c, depth + 1));
                }
            }
        }
    }
}

impl Schema {
    /// The compiled content model of a complex type with element content (`None` for empty
    /// and simple content, or before the models were compiled).
    ///
    /// ```
    /// use xwire_schema::model::{ComplexTypeId, Schema};
    /// use xwire_schema::validate::MatchState;
    ///
    /// let schema = Schema::builtins();
    /// let any = schema.content_model(ComplexTypeId::ANY_TYPE).unwrap();
    /// let mut state = MatchState::default();
    /// any.start(&mut state);
    /// assert!(any.can_end(&state)); // anyType's content is (any lax)*
    /// ```
    pub fn content_model(&self, id: ComplexTypeId) -> Option<&ContentModel> {
        self.content_models.get(id.index())?.as_ref()
    }
}

/// A readable label for a complex type in messages.
pub(crate) fn complex_type_label(schema: &Schema, id: ComplexTypeId) -> String {
    let ct = schema.complex_type(id);
    match (ct.name, ct.location) {
        (Some(n), _) => format!("type '{}'", schema.display_name(n)),
        (None, Some(l)) => format!("the anonymous type at line {}", l.line),
        (None, None) => "an anonymous type".to_string(),
    }
}

/// Compiles the content model of every complex type with element content and stores them in
/// the schema; reports `cos-nonambig`, `cos-element-consistent` and `cos-all-limited`
/// violations. The loader calls this once, at its end. (The validator makes its own plans
/// from the schema: module `plans`.)
pub(crate) fn compile_content_models(schema: &mut Schema) -> Result<(), Vec<SchemaError>> {
    let (models, errors) = compile_every(schema);
    schema.content_models = models;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The content models of every complex type (by id), and the errors found.
pub(crate) fn compile_every(schema: &Schema) -> (Vec<Option<ContentModel>>, Vec<SchemaError>) {
    let mut models = Vec::with_capacity(schema.complex_types.len());
    let mut errors = Vec::new();
    for (id, ct) in schema.complex_types() {
        match &ct.content {
            ContentType::Elements { particle, .. } => {
                let owner = complex_type_label(schema, id);
                check_consistent(schema, particle, &owner, &mut errors);
                let (m, errs) = compile(schema, particle, &owner);
                errors.extend(errs);
                models.push(Some(m));
            }
            _ => models.push(None),
        }
    }
    (models, errors)
}
