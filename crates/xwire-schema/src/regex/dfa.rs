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
        // The states ASCII bytes reach, numbered from 1 in the order found.
        let mut ids: Vec<StateID> = vec![start];
        let mut index = std::collections::HashMap::from([(start, 1u8)]);
        let mut rows: Vec<[u8; 128]> = Vec::new();
        let mut i = 0;
        while i < ids.len() {
            let mut row = [0u8; 128];
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
                    (n + 1) as u8
                });
                if index.len() + 1 > Self::MAX_STATES {
                    return None;
                }
            }
            rows.push(row);
            i += 1;
        }
        // Byte classes: the bytes whose column is the same in every row.
        let mut class = [0u8; 128];
        let mut columns: Vec<Vec<u8>> = Vec::new();
        for b in 0..128 {
            let column: Vec<u8> = rows.iter().map(|r| r[b]).collect();
            let c = match columns.iter().position(|c| *c == column) {
                Some(c) => c,
                None => {
                    columns.push(column);
                    columns.len() - 1
                }
            };
            class[b] = c as u8;
        }
        let classes = columns.len();
        // Row 0 is the dead state: every class leads back to it.
        let mut next = vec![0u8; (rows.len() + 1) * classes];
        for (r, row) in rows.iter().enumerate() {
            for b in 0..128 {
                next[(r + 1) * classes + class[b] as usize] = row[b];
            }
        }
        let mut accept = vec![false];
        accept.extend(
            ids.iter()
                .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s))),
        );
        Some(AsciiDfa {
            class,
            classes,
            next: next.into(),
            accept: accept.into(),
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
