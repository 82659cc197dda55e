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
        Some(WholeDfa { dfa, start })
    }

    /// Whether the whole of `value` matches.
    #[inline]
    pub(super) fn is_match(&self, value: &str) -> bool {
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
