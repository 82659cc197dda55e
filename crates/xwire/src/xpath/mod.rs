//! XPath 1.0: expressions compiled once, evaluated over any document model.
//!
//! [`XPath::compile`] parses an expression into an [`Expr`] tree with the abbreviations
//! expanded, namespace prefixes resolved and the core function library's names and argument
//! counts checked, so that evaluation never meets a syntax error. Compile errors carry the
//! byte offset of the offending token and print the expression with a caret under it;
//! evaluation errors (an unbound variable, a number where a node-set must be) are the same
//! [`XPathError`], without a position.
//!
//! ```
//! use xwire::xpath::{Namespaces, XPath};
//!
//! let ns = Namespaces::new().with("po", "urn:po");
//! let xp = XPath::compile_with("//po:item[@sku][1]/../@id", &ns)?;
//! assert_eq!(
//!     xp.to_string(),
//!     "/descendant-or-self::node()/child::po:item[attribute::sku][1]/parent::node()/attribute::id"
//! );
//!
//! let err = XPath::compile("count(//a").unwrap_err();
//! assert_eq!(err.position(), Some(9));
//! assert_eq!(err.to_string(), "expected ',' or ')', found end of expression\n  count(//a\n           ^");
//! # Ok::<(), xwire::xpath::XPathError>(())
//! ```
//!
//! A compiled expression is evaluated over anything that implements [`Navigator`] (the
//! [`tree`](crate::tree) does): [`XPath::evaluate`] gives a [`Value`], [`XPath::select`] the
//! node-set in document order, [`XPath::evaluate_with`] binds [`Variables`], and an
//! [`Evaluator`] keeps its scratch buffers (and extension [`Functions`]) across calls.
//!
//! ```
//! use xwire::tree::Document;
//! use xwire::xpath::{Namespaces, Navigator, Value, XPath};
//!
//! // Compile once...
//! let ns = Namespaces::new().with("po", "urn:po");
//! let big = XPath::compile_with("//po:item[po:qty > 1]/@sku", &ns)?;
//! let total = XPath::compile_with("sum(//po:qty)", &ns)?;
//!
//! // ...evaluate on many documents.
//! let doc = Document::parse(br#"<po:order xmlns:po="urn:po">
//!     <po:item sku="a"><po:qty>1</po:qty></po:item>
//!     <po:item sku="b"><po:qty>3</po:qty></po:item>
//! </po:order>"#)?;
//! let skus: Vec<_> = big.select(&doc, doc.root().into())?
//!     .into_iter()
//!     .map(|n| doc.string_value(n).into_owned())
//!     .collect();
//! assert_eq!(skus, ["b"]);
//! assert_eq!(total.evaluate(&doc, doc.root().into())?, Value::Number(4.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Conformance: the whole XPath 1.0 grammar, all 13 axes and the core function library;
//! numbers format as section 4.2 says (no exponent, `-0` as `0`, `NaN`, `Infinity`).
//! `xwire conformance xpath` runs the jaxen and libxml2 suites.
//!
//! Limits: expressions nested too deeply (parentheses, predicates and arguments count 8 levels
//! each, unary minus and each further operand of a binary operator 1) are rejected with
//! [`XPathErrorKind::TooDeep`], so no input can exhaust the stack, at compile time or when
//! evaluating (long operator chains are folded without recursion). Node-sets never hold more
//! nodes than the document; time is polynomial in the document for nested predicates, as
//! XPath 1.0 allows.

pub mod ast;
mod error;
mod eval;
mod functions;
mod lexer;
mod nav;
mod parser;
mod value;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

pub use ast::{Axis, BinaryOp, Expr, NodeTest, PathStart, Predicate, QName, Step};
pub use error::{XPathError, XPathErrorKind};
pub use eval::{Evaluator, ExtensionFn, FunctionContext, Functions};
pub use nav::{Navigator, NodeKind};
pub use value::{format_number, parse_number, Value, Variables};

/// The namespace prefixes an expression may use, mapped to their URIs.
///
/// The `xml` prefix is always bound to `http://www.w3.org/XML/1998/namespace`. An expression
/// compiled without a map may use no other prefix.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Namespaces {
    map: HashMap<String, String>,
}

/// The URI the `xml` prefix is bound to.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";

impl Namespaces {
    /// An empty map (with only the implicit `xml` prefix).
    pub fn new() -> Namespaces {
        Namespaces::default()
    }

    /// Binds `prefix` to `uri`, replacing an earlier binding.
    pub fn insert(&mut self, prefix: impl Into<String>, uri: impl Into<String>) {
        self.map.insert(prefix.into(), uri.into());
    }

    /// Binds `prefix` to `uri` and returns the map, for chaining.
    pub fn with(mut self, prefix: impl Into<String>, uri: impl Into<String>) -> Namespaces {
        self.insert(prefix, uri);
        self
    }

    /// The URI bound to `prefix`.
    pub fn get(&self, prefix: &str) -> Option<&str> {
        match self.map.get(prefix) {
            Some(u) => Some(u),
            None if prefix == "xml" => Some(XML_NAMESPACE),
            None => None,
        }
    }
}

/// A compiled XPath 1.0 expression: immutable, `Send + Sync`, and cheap to clone (the tree is
/// shared). `Display` prints the unabbreviated form.
#[derive(Clone)]
pub struct XPath(Arc<Inner>);

struct Inner {
    source: String,
    expr: Expr,
}

impl XPath {
    /// Compiles `expr`; any namespace prefix other than `xml` is an error.
    pub fn compile(expr: &str) -> Result<XPath, XPathError> {
        XPath::compile_with(expr, &Namespaces::new())
    }

    /// Compiles `expr`, resolving prefixes in name tests, function names and variable names
    /// against `namespaces`.
    pub fn compile_with(expr: &str, namespaces: &Namespaces) -> Result<XPath, XPathError> {
        XPath::compile_with_functions(expr, namespaces, &[])
    }

    /// Compiles `expr` like [`compile_with`](XPath::compile_with), also accepting calls of the
    /// unprefixed extension functions named in `functions` (any number of arguments), such as
    /// XML Signature's `here()`. Their implementations are given at evaluation time through
    /// [`Functions`]. Prefixed function names are always accepted at compile time.
    pub fn compile_with_functions(
        expr: &str,
        namespaces: &Namespaces,
        functions: &[&str],
    ) -> Result<XPath, XPathError> {
        let tree = parser::parse(expr, namespaces, functions)?;
        Ok(XPath(Arc::new(Inner {
            source: expr.to_string(),
            expr: tree,
        })))
    }

    /// The expression tree.
    pub fn expr(&self) -> &Expr {
        &self.0.expr
    }

    /// The expression as it was written.
    pub fn source(&self) -> &str {
        &self.0.source
    }
}

impl fmt::Debug for XPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("XPath").field(&self.0.source).finish()
    }
}

impl fmt::Display for XPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.expr, f)
    }
}

#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod tests;
