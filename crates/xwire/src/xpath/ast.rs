//! The expression tree of a compiled XPath 1.0 expression.
//!
//! Abbreviations are expanded by the parser (`//` is `/descendant-or-self::node()/`, `.` is
//! `self::node()`, `..` is `parent::node()`, `@x` is `attribute::x`), parentheses leave no node
//! of their own, and prefixes are resolved against the caller's [`Namespaces`](super::Namespaces)
//! at compile time. [`Expr`]'s `Display` prints the unabbreviated form, which parses back to the
//! same tree.

use std::fmt;

/// A qualified name with its prefix as written and the namespace URI it was resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QName {
    /// The prefix as written, if any.
    pub prefix: Option<String>,
    /// The namespace URI of the prefix; `None` when there is no prefix.
    pub uri: Option<String>,
    /// The local part.
    pub local: String,
}

impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.prefix {
            Some(p) => write!(f, "{p}:{}", self.local),
            None => f.write_str(&self.local),
        }
    }
}

/// The thirteen axes of XPath 1.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// `ancestor::`
    Ancestor,
    /// `ancestor-or-self::`
    AncestorOrSelf,
    /// `attribute::` (abbreviated `@`)
    Attribute,
    /// `child::` (the default axis)
    Child,
    /// `descendant::`
    Descendant,
    /// `descendant-or-self::`
    DescendantOrSelf,
    /// `following::`
    Following,
    /// `following-sibling::`
    FollowingSibling,
    /// `namespace::`
    Namespace,
    /// `parent::` (abbreviated `..` with `node()`)
    Parent,
    /// `preceding::`
    Preceding,
    /// `preceding-sibling::`
    PrecedingSibling,
    /// `self::` (abbreviated `.` with `node()`)
    SelfAxis,
}

impl Axis {
    /// All axes, in alphabetical order.
    pub const ALL: [Axis; 13] = [
        Axis::Ancestor,
        Axis::AncestorOrSelf,
        Axis::Attribute,
        Axis::Child,
        Axis::Descendant,
        Axis::DescendantOrSelf,
        Axis::Following,
        Axis::FollowingSibling,
        Axis::Namespace,
        Axis::Parent,
        Axis::Preceding,
        Axis::PrecedingSibling,
        Axis::SelfAxis,
    ];

    /// The name of the axis as written before `::`.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Ancestor => "ancestor",
            Axis::AncestorOrSelf => "ancestor-or-self",
            Axis::Attribute => "attribute",
            Axis::Child => "child",
            Axis::Descendant => "descendant",
            Axis::DescendantOrSelf => "descendant-or-self",
            Axis::Following => "following",
            Axis::FollowingSibling => "following-sibling",
            Axis::Namespace => "namespace",
            Axis::Parent => "parent",
            Axis::Preceding => "preceding",
            Axis::PrecedingSibling => "preceding-sibling",
            Axis::SelfAxis => "self",
        }
    }

    /// The axis of that name.
    pub fn from_name(name: &str) -> Option<Axis> {
        Axis::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether the axis goes backwards in document order (positions count from the context
    /// node outwards).
    pub fn is_reverse(self) -> bool {
        matches!(
            self,
            Axis::Ancestor
                | Axis::AncestorOrSelf
                | Axis::Preceding
                | Axis::PrecedingSibling
                | Axis::Parent
        )
    }
}

/// What a step selects on its axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeTest {
    /// `*`: any node of the axis' principal node type.
    Any,
    /// `prefix:*`: any principal node in that namespace.
    Namespace {
        /// The prefix as written.
        prefix: String,
        /// Its namespace URI.
        uri: String,
    },
    /// A QName: principal nodes of that expanded name.
    Name(QName),
    /// `node()`
    Node,
    /// `text()`
    Text,
    /// `comment()`
    Comment,
    /// `processing-instruction()` with an optional target literal.
    ProcessingInstruction(Option<String>),
}

/// A predicate `[expr]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Predicate {
    /// The expression.
    pub expr: Expr,
    /// `Some(n)` when the predicate is positional, `[n]` or `[position() = n]` with an integer
    /// `n >= 1`: it keeps only the n-th node, so an evaluator may stop after it.
    pub position: Option<u64>,
}

/// One location step: `axis::test[predicate]...`.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The axis.
    pub axis: Axis,
    /// The node test.
    pub test: NodeTest,
    /// The predicates, in order.
    pub predicates: Vec<Predicate>,
}

/// Where a path starts.
#[derive(Debug, Clone, PartialEq)]
pub enum PathStart {
    /// `/...`: the root of the context node's document.
    Root,
    /// A relative location path: the context node.
    Context,
    /// `expr/...`: the nodes of a filter expression.
    Expr(Box<Expr>),
}

/// Binary operators, from loosest to tightest binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `div`
    Div,
    /// `mod`
    Mod,
    /// `|`
    Union,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "=",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::Union => "|",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq | BinaryOp::Ne => 3,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 6,
            BinaryOp::Union => 8,
        }
    }
}

/// An XPath 1.0 expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A binary operation, left-associative as in the grammar.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// Unary minus.
    Negate(Box<Expr>),
    /// A location path, or a filter expression followed by steps.
    Path {
        /// Where the path starts.
        start: PathStart,
        /// The steps (none only for `/`).
        steps: Vec<Step>,
    },
    /// A primary expression with predicates: `(expr)[...]`.
    Filter {
        /// The filtered expression.
        primary: Box<Expr>,
        /// The predicates, in order (at least one).
        predicates: Vec<Predicate>,
    },
    /// A function call.
    Function {
        /// The function name.
        name: QName,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `$name`
    Variable(QName),
    /// A string literal.
    Literal(String),
    /// A number (literal, or folded from literal arithmetic).
    Number(f64),
}

const UNARY: u8 = 7;
const PRIMARY: u8 = 9;

impl Expr {
    fn precedence(&self) -> u8 {
        match self {
            Expr::Binary(op, ..) => op.precedence(),
            Expr::Negate(_) => UNARY,
            Expr::Number(n) if n.is_sign_negative() => UNARY,
            _ => PRIMARY,
        }
    }

    /// Whether this prints as a bare primary expression that can take predicates or `/`.
    fn is_primary(&self) -> bool {
        match self {
            Expr::Number(n) => !n.is_sign_negative(),
            Expr::Function { .. } | Expr::Variable(_) | Expr::Literal(_) => true,
            _ => false,
        }
    }

    /// Writes `self` where an operand of binding power `min` is expected.
    fn write(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        if self.precedence() < min {
            f.write_str("(")?;
            self.write(f, 0)?;
            return f.write_str(")");
        }
        match self {
            Expr::Binary(op, l, r) => {
                let p = op.precedence();
                l.write(f, p)?;
                if *op == BinaryOp::Union {
                    f.write_str(" | ")?;
                } else {
                    write!(f, " {} ", op.symbol())?;
                }
                r.write(f, p + 1)
            }
            Expr::Negate(e) => {
                f.write_str("-")?;
                e.write(f, UNARY)
            }
            Expr::Path { start, steps } => {
                match start {
                    PathStart::Root if steps.is_empty() => {
                        // A bare `/` followed by `*` or an operator name would lex as a name
                        // test, so it is parenthesised unless it stands alone.
                        return f.write_str(if min == 0 { "/" } else { "(/)" });
                    }
                    PathStart::Root => f.write_str("/")?,
                    PathStart::Context => {}
                    PathStart::Expr(e) => {
                        if e.is_primary() || matches!(**e, Expr::Filter { .. }) {
                            e.write(f, PRIMARY)?;
                        } else {
                            f.write_str("(")?;
                            e.write(f, 0)?;
                            f.write_str(")")?;
                        }
                        f.write_str("/")?;
                    }
                }
                for (i, s) in steps.iter().enumerate() {
                    if i > 0 {
                        f.write_str("/")?;
                    }
                    write!(f, "{s}")?;
                }
                Ok(())
            }
            Expr::Filter {
                primary,
                predicates,
            } => {
                if primary.is_primary() {
                    primary.write(f, PRIMARY)?;
                } else {
                    f.write_str("(")?;
                    primary.write(f, 0)?;
                    f.write_str(")")?;
                }
                for p in predicates {
                    write!(f, "{p}")?;
                }
                Ok(())
            }
            Expr::Function { name, args } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    a.write(f, 0)?;
                }
                f.write_str(")")
            }
            Expr::Variable(q) => write!(f, "${q}"),
            Expr::Literal(s) => write_literal(f, s),
            // An overlong literal is infinite; so is any number with more than 309 digits. A
            // folded negation keeps its sign (it prints as a negative number does).
            Expr::Number(n) if n.is_infinite() => {
                let sign = if n.is_sign_negative() { "-" } else { "" };
                write!(f, "{sign}1{:0>309}", 0)
            }
            Expr::Number(n) => write!(f, "{n}"),
        }
    }
}

fn write_literal(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    // A literal never holds both quotes: the lexer cannot produce one.
    if s.contains('\'') {
        write!(f, "\"{s}\"")
    } else {
        write!(f, "'{s}'")
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

impl fmt::Display for NodeTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeTest::Any => f.write_str("*"),
            NodeTest::Namespace { prefix, .. } => write!(f, "{prefix}:*"),
            NodeTest::Name(q) => write!(f, "{q}"),
            NodeTest::Node => f.write_str("node()"),
            NodeTest::Text => f.write_str("text()"),
            NodeTest::Comment => f.write_str("comment()"),
            NodeTest::ProcessingInstruction(None) => f.write_str("processing-instruction()"),
            NodeTest::ProcessingInstruction(Some(t)) => {
                f.write_str("processing-instruction(")?;
                write_literal(f, t)?;
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.expr)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}::{}", self.axis.name(), self.test)?;
        for p in &self.predicates {
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
