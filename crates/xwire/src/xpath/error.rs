//! [`XPathError`], the one error of XPath: an expression that does not compile, or one whose
//! evaluation failed.

use std::fmt;

/// What kind of error an expression has. The first kinds are found when compiling, the last
/// ones ([`UndefinedVariable`](Self::UndefinedVariable) to [`Limit`](Self::Limit)) when
/// evaluating; [`UnknownFunction`](Self::UnknownFunction) can be either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum XPathErrorKind {
    /// The expression is empty (or only whitespace).
    Empty,
    /// A token (or character) the grammar does not allow here.
    UnexpectedToken,
    /// A string literal without its closing quote.
    UnterminatedLiteral,
    /// A name before `::` that is not one of the 13 axes.
    UnknownAxis,
    /// A function that is not known: when compiling, an unprefixed name outside the XPath 1.0
    /// core library (and the extension names given to the compiler); when evaluating, a
    /// prefixed function that is not registered in the [`Functions`](super::Functions).
    UnknownFunction,
    /// A core function called with the wrong number of arguments.
    ArgumentCount,
    /// A prefix that the namespace map does not declare.
    UndeclaredPrefix,
    /// A complete expression followed by more input.
    TrailingInput,
    /// The expression nests deeper than the limit.
    TooDeep,
    /// A variable that is not bound.
    UndefinedVariable,
    /// An operand that must be a node-set is not (`1/a`, `"x"[1]`, `1 | 2`, `count(1)`).
    NodeSetExpected,
    /// An extension function failed or was given unsuitable arguments.
    Function,
    /// A resource limit was reached while evaluating.
    Limit,
}

/// An error of an XPath expression: its kind and a message, and for an expression that does
/// not compile, the expression and the byte offset where the error was found. `Display`
/// shows the message, then (for a compile error) the expression with a caret under the
/// offset.
///
/// ```
/// use xwire::xpath::{XPath, XPathErrorKind};
///
/// let err = XPath::compile("1 +").unwrap_err();
/// assert_eq!((err.kind(), err.position()), (XPathErrorKind::UnexpectedToken, Some(3)));
///
/// let doc = xwire::tree::Document::parse(b"<a/>")?;
/// let err = XPath::compile("$n")?.evaluate(&doc, doc.root().into()).unwrap_err();
/// assert_eq!((err.kind(), err.position()), (XPathErrorKind::UndefinedVariable, None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct XPathError(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: XPathErrorKind,
    message: String,
    /// For a compile error: the expression and the byte offset in it.
    at: Option<(String, usize)>,
}

impl XPathError {
    /// An error of `kind` with `message`, found while evaluating: what an
    /// [`ExtensionFn`](super::ExtensionFn) returns when it fails.
    #[cold]
    pub fn new(kind: XPathErrorKind, message: impl Into<String>) -> XPathError {
        XPathError(Box::new(Inner {
            kind,
            message: message.into(),
            at: None,
        }))
    }

    /// An error of `kind` at byte `position` of the expression `expr`, found while compiling.
    #[cold]
    pub(crate) fn compile(
        kind: XPathErrorKind,
        position: usize,
        message: String,
        expr: &str,
    ) -> XPathError {
        XPathError(Box::new(Inner {
            kind,
            message,
            at: Some((expr.to_string(), position)),
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> XPathErrorKind {
        self.0.kind
    }

    /// The byte offset in the expression where it went wrong, for an expression that did not
    /// compile (`None` for an error found while evaluating).
    pub fn position(&self) -> Option<usize> {
        self.0.at.as_ref().map(|&(_, p)| p)
    }

    /// The message, without the expression and caret.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The expression that failed to compile (`None` for an error found while evaluating).
    pub fn expression(&self) -> Option<&str> {
        self.0.at.as_ref().map(|(e, _)| e.as_str())
    }
}

impl fmt::Debug for XPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.at {
            Some((_, at)) => write!(
                f,
                "XPathError({:?} at {at}: {})",
                self.0.kind, self.0.message
            ),
            None => write!(f, "XPathError({:?}: {})", self.0.kind, self.0.message),
        }
    }
}

impl fmt::Display for XPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((expr, position)) = &self.0.at else {
            return f.write_str(&self.0.message);
        };
        // Control characters (newlines, tabs) would break the caret line up; show them as
        // spaces, one column per character.
        let shown: String = expr
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let col = expr.get(..*position).map_or(0, |s| s.chars().count());
        write!(f, "{}\n  {}\n  {}^", self.0.message, shown, " ".repeat(col))
    }
}

impl std::error::Error for XPathError {}
