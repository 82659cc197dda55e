//! XML Schema 1.0 regular expressions (Part 2, appendix F), for the `pattern` facet.
//!
//! A pattern is parsed by the XSD grammar (module `parse`) and translated construct by
//! construct into the syntax of the `regex` crate (module `translate`); no text of the
//! pattern reaches the `regex` crate unparsed. The translation anchors the whole expression
//! (`\A(?:...)\z`: an XSD pattern matches the entire value), writes every literal as
//! `\x{...}`, gives `.` and `\s` their XSD 1.0 meanings, expands `\i` and `\c` into the
//! XML 1.0 Fifth Edition name characters, and block escapes into code point ranges.
//!
//! Categories (`\p{Lu}`, `\d`, `\w`) use the Unicode version of the `regex` crate, not the
//! Unicode 3.1 of XSD 1.0; a few characters assigned since then match where an XSD 1.0
//! processor of its day would not.
//!
//! ```
//! use xwire_schema::regex::Pattern;
//!
//! let zip = Pattern::compile(r"\d{5}(-\d{4})?").unwrap();
//! assert!(zip.is_match("12345-6789"));
//! assert!(!zip.is_match("x12345")); // patterns are implicitly anchored
//!
//! let vowelless = Pattern::compile("[a-z-[aeiou]]+").unwrap();
//! assert!(vowelless.is_match("rhythm"));
//! assert!(!vowelless.is_match("vowel"));
//!
//! let err = Pattern::compile("a*?").unwrap_err();
//! assert_eq!(err.position(), 2);
//! ```

mod blocks;
mod dfa;
mod parse;
mod translate;

#[cfg(test)]
mod tests;

use std::fmt;

/// A compiled XSD pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    regex: regex::Regex,
    /// The same expression as a full DFA, when small enough (faster per value); built on
    /// first use, so that schemas only loaded (or patterns never used) do not pay for it.
    dfa: std::sync::OnceLock<Option<dfa::WholeDfa>>,
    translated: String,
}

impl Pattern {
    /// Parses `pattern` as an XSD 1.0 regular expression and compiles it.
    pub fn compile(pattern: &str) -> Result<Pattern, RegexError> {
        let ast = parse::parse(pattern)?;
        let translated = translate::translate(&ast);
        // At most 16 MiB per compiled program (it was 64): the `regex` crate builds several
        // programs per pattern, and a counted repeat of a large Unicode class
        // (`\p{L}{0,9999}`, `(.{0,1000}){0,1000}`) took 0.7 s and 170 MB to be refused at
        // 64 MiB (fuzz target `xsd_regex`). `\w{0,300}` and `.{0,10000}` still compile.
        let regex = regex::RegexBuilder::new(&translated)
            .size_limit(16 << 20)
            .build()
            .map_err(|e| RegexError {
                position: 0,
                message: match e {
                    regex::Error::CompiledTooBig(_) => "pattern too large to compile".to_string(),
                    other => format!("internal translation error: {other}"),
                },
            })?;
        Ok(Pattern {
            source: pattern.to_string(),
            regex,
            dfa: std::sync::OnceLock::new(),
            translated,
        })
    }

    /// Whether the whole of `value` matches the pattern.
    pub fn is_match(&self, value: &str) -> bool {
        match self.full_dfa() {
            Some(d) => d.is_match(value),
            None => self.regex.is_match(value),
        }
    }

    fn full_dfa(&self) -> Option<&dfa::WholeDfa> {
        self.dfa
            .get_or_init(|| dfa::WholeDfa::build(&self.translated))
            .as_ref()
    }

    /// The pattern as written in the schema.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The pattern as tables a matcher without a regular-expression engine can walk (what
    /// `xwire-codegen` writes into generated code for `xwire::bind::Dfa`): `None` when its
    /// automaton is too large for them.
    pub fn table(&self) -> Option<PatternTable> {
        let t = dfa::WholeDfa::table(&self.translated)?;
        let mut classes = [0u8; 256];
        for (c, &k) in classes.iter_mut().zip(&t.class) {
            *c = u8::try_from(k).ok()?;
        }
        Some(PatternTable {
            classes,
            stride: t.classes,
            next: t.next.iter().map(|&n| n as u16).collect(),
            accept: t.accept,
            start: 1,
        })
    }
}

/// A pattern's automaton over the bytes of a value's UTF-8 ([`Pattern::table`]): state 0 is
/// dead, `next[state * stride + classes[byte]]` is the next state, `accept[state]` whether a
/// value may end there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTable {
    /// The class of each byte value.
    pub classes: [u8; 256],
    /// The number of classes.
    pub stride: usize,
    /// The transitions, a row of `stride` per state.
    pub next: Vec<u16>,
    /// Whether a value may end in each state.
    pub accept: Vec<bool>,
    /// The state before the first byte.
    pub start: u16,
}

impl PatternTable {
    /// Whether the whole of `value` matches (as the generated code's matcher does).
    pub fn matches(&self, value: &str) -> bool {
        let mut s = self.start as usize;
        for &b in value.as_bytes() {
            s = self.next[s * self.stride + self.classes[b as usize] as usize] as usize;
            if s == 0 {
                return false;
            }
        }
        self.accept[s]
    }
}

/// A pattern that is not an XSD 1.0 regular expression, or too large to compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    position: usize,
    message: String,
}

impl RegexError {
    /// Byte offset in the pattern where the problem was found.
    pub fn position(&self) -> usize {
        self.position
    }

    /// What is wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid XSD pattern at byte {}: {}",
            self.position, self.message
        )
    }
}

impl std::error::Error for RegexError {}
