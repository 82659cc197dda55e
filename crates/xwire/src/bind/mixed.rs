//! Mixed content: character data between the children of an element whose type says
//! `mixed="true"`. Generated code reads the children with the same content-model code as
//! element-only content; the source, told the element is mixed ([`Source::mixed`]), keeps the
//! text it passes between them as [`MixedText`] runs, each with the number of children
//! before it, and hands them over at the end tag ([`Source::mixed_text`]).
//!
//! [`Source::mixed`]: super::Source::mixed
//! [`Source::mixed_text`]: super::Source::mixed_text

use super::Text;

/// A run of character data in mixed content, and where it stands among the element's
/// children: `before` children come before it (0: before the first child; the number of
/// children: after the last). The runs of one element are in document order, at most one
/// per place; white space counts as text.
///
/// ```
/// use xwire::bind::{Cursor, MixedText, Source};
///
/// let mut c = Cursor::new(b"<p>Hello <b>you</b>, all.</p>");
/// c.root()?;
/// c.mixed(true);
/// assert!(c.child()?); // <b>
/// assert_eq!(c.text()?, "you");
/// assert!(!c.child()?); // </p>
/// let text = c.mixed_text();
/// assert_eq!(text, [MixedText::new(0, "Hello "), MixedText::new(1, ", all.")]);
/// # Ok::<(), xwire::bind::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MixedText {
    /// How many element children come before the text.
    pub before: u32,
    /// The text, references replaced.
    pub text: Text,
}

impl MixedText {
    /// `text`, after `before` children.
    pub fn new(before: u32, text: impl Into<Text>) -> MixedText {
        MixedText {
            before,
            text: text.into(),
        }
    }
}

/// One mixed element whose end tag is still to come.
#[derive(Debug)]
struct Open {
    /// Its depth: 1 for the root.
    depth: usize,
    /// Its children so far.
    children: u32,
    /// Whether its text is kept (validate-only code drops it).
    keep: bool,
    runs: Vec<MixedText>,
}

/// The mixed elements open in a source, innermost last: what both sources keep to read text
/// between children. Nested ones end (and are taken) before their parent goes on.
#[derive(Debug, Default)]
pub(crate) struct MixedRuns {
    open: Vec<Open>,
}

impl MixedRuns {
    /// The element at `depth` (its start tag the current one) has mixed content.
    pub(crate) fn begin(&mut self, depth: usize, keep: bool) {
        self.open.push(Open {
            depth,
            children: 0,
            keep,
            runs: Vec::new(),
        });
    }

    /// Whether the element at `depth` (whose children are being read) has mixed content.
    #[inline]
    pub(crate) fn at(&self, depth: usize) -> bool {
        self.open.last().is_some_and(|o| o.depth == depth)
    }

    /// Text between the children of the innermost mixed element; joined to the run before
    /// it when no child came between (a comment split them).
    pub(crate) fn text(&mut self, s: &str) {
        let Some(o) = self.open.last_mut().filter(|o| o.keep && !s.is_empty()) else {
            return;
        };
        match o.runs.last_mut() {
            Some(last) if last.before == o.children => {
                let mut joined = String::from(std::mem::take(&mut last.text));
                joined.push_str(s);
                last.text = Text::from(joined);
            }
            _ => o.runs.push(MixedText::new(o.children, s)),
        }
    }

    /// A child of the innermost mixed element started.
    #[inline]
    pub(crate) fn child(&mut self) {
        if let Some(o) = self.open.last_mut() {
            o.children += 1;
        }
    }

    /// Hands `f` the runs of the innermost mixed element kept so far, and forgets them.
    pub(crate) fn flush(&mut self, f: &mut dyn FnMut(&str)) {
        if let Some(o) = self.open.last_mut() {
            for run in o.runs.drain(..) {
                f(&run.text);
            }
        }
    }

    /// The runs of the innermost mixed element, which has ended.
    pub(crate) fn take(&mut self) -> Vec<MixedText> {
        self.open.pop().map(|o| o.runs).unwrap_or_default()
    }
}
