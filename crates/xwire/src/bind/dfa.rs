//! A pattern facet compiled to tables: generated code holds one [`Dfa`] per pattern, built
//! when the code was generated (by `xwire-codegen`, from the schema's XSD regular expression),
//! so that checking a value is a table lookup per byte and needs no regular-expression engine.

/// A deterministic automaton over the bytes of a value's UTF-8, matching whole values.
///
/// State 0 is the dead state (no value through it matches); `next` holds, for each state and
/// byte class, the next state as two little-endian bytes; `accept` says for each state whether
/// a value may end there. The tables are byte strings, so that generated code holds them as
/// literals.
#[derive(Clone, Copy, Debug)]
pub struct Dfa {
    /// The class of each byte value (bytes every state treats alike share one).
    pub classes: &'static [u8; 256],
    /// How many classes: the width of a row of `next`.
    pub stride: u16,
    /// `next[2 * (state * stride + class)..][..2]`: the next state, little-endian.
    pub next: &'static [u8],
    /// `accept[state]`: 1 where a value may end, 0 elsewhere.
    pub accept: &'static [u8],
    /// The state before the first byte.
    pub start: u16,
}

impl Dfa {
    /// Whether the whole of `value` matches.
    ///
    /// ```
    /// use xwire::bind::Dfa;
    ///
    /// // `a+` over classes {a: 1, everything else: 0}; states: 0 dead, 1 start, 2 after 'a'.
    /// let mut classes = [0u8; 256];
    /// classes[b'a' as usize] = 1;
    /// static CLASSES: std::sync::OnceLock<[u8; 256]> = std::sync::OnceLock::new();
    /// let dfa = Dfa {
    ///     classes: CLASSES.get_or_init(|| classes),
    ///     stride: 2,
    ///     next: b"\0\0\0\0\0\0\x02\0\0\0\x02\0",
    ///     accept: b"\0\0\x01",
    ///     start: 1,
    /// };
    /// assert!(dfa.matches("aaa"));
    /// assert!(!dfa.matches("") && !dfa.matches("ab"));
    /// ```
    pub fn matches(&self, value: &str) -> bool {
        let stride = self.stride as usize;
        let mut state = self.start as usize;
        for &b in value.as_bytes() {
            let i = 2 * (state * stride + self.classes[b as usize] as usize);
            // A table out of bounds is a table not made by the generator: no match.
            let Some(pair) = self.next.get(i..i + 2) else {
                return false;
            };
            state = u16::from_le_bytes([pair[0], pair[1]]) as usize;
            if state == 0 {
                return false;
            }
        }
        self.accept.get(state) == Some(&1)
    }
}
