//! Whole-value matching with a fully compiled DFA, for patterns small enough: a pattern is
//! checked once per value, and a short value through the `regex` crate's lazy DFA costs a
//! few hundred instructions of setup; walking a dense DFA costs a table lookup per byte.

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::util::{primitives::StateID, start};
use regex_automata::Anchored;

/// Largest DFA kept (bytes of transition table), and largest built on the way: beyond, the
/// pattern is matched by the `regex` crate only.
const DFA_LIMIT: usize = 64 << 10;
const DETERMINIZE_LIMIT: usize = 256 << 10;
/// Largest DFA built for [`WholeDfa::table`] (generated code carries its tables).
const TABLE_LIMIT: usize = 4 << 20;

#[derive(Debug, Clone)]
pub(super) struct WholeDfa {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
    /// The same automaton on ASCII text, when small enough.
    ascii: Option<AsciiDfa>,
}

/// The states of a [`WholeDfa`] that ASCII bytes reach from its start, in a table of bytes:
/// a transition is one load from a few cache lines. A dense DFA of a pattern with Unicode
/// classes (`\d` is every decimal digit) has wide rows (one entry per byte class of all of
/// Unicode's UTF-8), so walking it touches a cache line per byte of the value.
#[derive(Debug, Clone)]
struct AsciiDfa {
    /// The class of each ASCII byte: bytes every state treats alike share one.
    class: [u8; 128],
    classes: usize,
    /// `next[state * classes + class]`; state 0 is the dead state.
    next: Box<[u8]>,
    /// Whether the value may end in each state.
    accept: Box<[bool]>,
    start: u8,
}

impl AsciiDfa {
    /// At most this many states (a `u8` each, the dead state among them).
    const MAX_STATES: usize = 255;

    fn build(dfa: &dense::DFA<Vec<u32>>, start: StateID) -> Option<AsciiDfa> {
        let t = Table::build(dfa, start, 128, Self::MAX_STATES)?;
        let mut class = [0u8; 128];
        for (c, &k) in class.iter_mut().zip(&t.class) {
            *c = k as u8;
        }
        Some(AsciiDfa {
            class,
            classes: t.classes,
            next: t.next.iter().map(|&n| n as u8).collect(),
            accept: t.accept.into(),
            start: 1,
        })
    }

    /// Whether the whole of `value` matches; `None` at a byte beyond ASCII.
    #[inline]
    fn is_match(&self, value: &[u8]) -> Option<bool> {
        let mut s = self.start as usize;
        for &b in value {
            let c = *self.class.get(b as usize)? as usize;
            s = self.next[s * self.classes + c] as usize;
            if s == 0 {
                return Some(false);
            }
        }
        Some(self.accept[s])
    }
}

/// The states a DFA reaches from `start` over the bytes below `alphabet`, as a table with
/// byte classes: state 0 is the dead state, the start is state 1.
pub(super) struct Table {
    /// The class of each byte below the alphabet's end.
    pub(super) class: Vec<u16>,
    /// How many classes.
    pub(super) classes: usize,
    /// `next[state * classes + class]`.
    pub(super) next: Vec<u32>,
    /// Whether a value may end in each state.
    pub(super) accept: Vec<bool>,
}

impl Table {
    /// The table, or `None` when more than `max_states` states (the dead one among them)
    /// are reachable or a byte leads to a quit state.
    pub(super) fn build(
        dfa: &dense::DFA<Vec<u32>>,
        start: StateID,
        alphabet: usize,
        max_states: usize,
    ) -> Option<Table> {
        // The states the bytes reach, numbered from 1 in the order found.
        let mut ids: Vec<StateID> = vec![start];
        let mut index = std::collections::HashMap::from([(start, 1u32)]);
        let mut rows: Vec<Vec<u32>> = Vec::new();
        let mut i = 0;
        while i < ids.len() {
            let mut row = vec![0u32; alphabet];
            for (b, cell) in row.iter_mut().enumerate() {
                let t = dfa.next_state(ids[i], b as u8);
                if dfa.is_dead_state(t) {
                    continue; // 0: dead
                }
                if dfa.is_quit_state(t) {
                    return None;
                }
                let n = index.len();
                *cell = *index.entry(t).or_insert_with(|| {
                    ids.push(t);
                    (n + 1) as u32
                });
                if index.len() + 1 > max_states {
                    return None;
                }
            }
            rows.push(row);
            i += 1;
        }
        // Byte classes: the bytes whose column is the same in every row.
        let mut class = vec![0u16; alphabet];
        let mut columns: Vec<Vec<u32>> = Vec::new();
        for (b, k) in class.iter_mut().enumerate() {
            let column: Vec<u32> = rows.iter().map(|r| r[b]).collect();
            *k = match columns.iter().position(|c| *c == column) {
                Some(c) => c as u16,
                None => {
                    columns.push(column);
                    (columns.len() - 1) as u16
                }
            };
        }
        let classes = columns.len();
        // Row 0 is the dead state: every class leads back to it.
        let mut next = vec![0u32; (rows.len() + 1) * classes];
        for (r, row) in rows.iter().enumerate() {
            for (b, &to) in row.iter().enumerate() {
                next[(r + 1) * classes + class[b] as usize] = to;
            }
        }
        let mut accept = vec![false];
        accept.extend(
            ids.iter()
                .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s))),
        );
        Some(Table {
            class,
            classes,
            next,
            accept,
        })
    }
}

impl WholeDfa {
    /// The DFA of `translated` (an expression anchored at both ends), if small enough.
    pub(super) fn build(translated: &str) -> Option<WholeDfa> {
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(DFA_LIMIT))
                    .determinize_size_limit(Some(DETERMINIZE_LIMIT)),
            )
            .build(translated)
            .ok()?;
        // Every search starts at the start of a value: one start state.
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        let ascii = AsciiDfa::build(&dfa, start);
        Some(WholeDfa { dfa, start, ascii })
    }

    /// The automaton of `translated` over all 256 byte values as a [`Table`] (at most 65,535
    /// states), for code that matches without this crate: built apart, with room for the
    /// Unicode classes the validator's own DFA leaves to the `regex` crate.
    pub(super) fn table(translated: &str) -> Option<Table> {
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(TABLE_LIMIT))
                    .determinize_size_limit(Some(4 * TABLE_LIMIT)),
            )
            .build(translated)
            .ok()?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        Table::build(&dfa, start, 256, u16::MAX as usize)
    }

    /// Whether the whole of `value` matches.
    #[inline]
    pub(super) fn is_match(&self, value: &str) -> bool {
        if let Some(m) = self
            .ascii
            .as_ref()
            .and_then(|a| a.is_match(value.as_bytes()))
        {
            return m;
        }
        self.dense_match(value)
    }

    /// Whether the ASCII table was built, and its answer on `value` (tests).
    #[cfg(test)]
    pub(super) fn ascii_match(&self, value: &str) -> Option<Option<bool>> {
        self.ascii.as_ref().map(|a| a.is_match(value.as_bytes()))
    }

    /// [`WholeDfa::is_match`] by the dense DFA itself.
    pub(super) fn dense_match(&self, value: &str) -> bool {
        let mut s = self.start;
        for &b in value.as_bytes() {
            s = self.dfa.next_state(s, b);
            if self.dfa.is_dead_state(s) {
                return false;
            }
        }
        // Matches are reported one transition late: the end of input is that transition.
        self.dfa.is_match_state(self.dfa.next_eoi_state(s))
    }
}
