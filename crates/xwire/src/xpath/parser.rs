//! A recursive-descent parser for the XPath 1.0 grammar (section 3), over the tokens of
//! [`lexer`](super::lexer). Recursion is bounded by a depth budget, and literal arithmetic is
//! folded as the tree is built (only when the result is finite, so that every tree prints).

use super::ast::{Axis, BinaryOp, Expr, NodeTest, PathStart, Predicate, QName, Step};
use super::error::{XPathError, XPathErrorKind};
use super::lexer::{tokenize, NodeType, Tok, Token};
use super::Namespaces;

/// The depth budget. A parenthesised expression, predicate or argument list costs
/// [`NEST_COST`], each unary minus and each further operand of a binary operator costs 1, so
/// that the parser's stack stays small and the tree depth is bounded.
const MAX_DEPTH: usize = 1024;
const NEST_COST: usize = 8;

/// The core function library: name, minimum and maximum argument counts.
const CORE_FUNCTIONS: &[(&str, usize, usize)] = &[
    ("last", 0, 0),
    ("position", 0, 0),
    ("count", 1, 1),
    ("id", 1, 1),
    ("local-name", 0, 1),
    ("namespace-uri", 0, 1),
    ("name", 0, 1),
    ("string", 0, 1),
    ("concat", 2, usize::MAX),
    ("starts-with", 2, 2),
    ("contains", 2, 2),
    ("substring-before", 2, 2),
    ("substring-after", 2, 2),
    ("substring", 2, 3),
    ("string-length", 0, 1),
    ("normalize-space", 0, 1),
    ("translate", 3, 3),
    ("boolean", 1, 1),
    ("not", 1, 1),
    ("true", 0, 0),
    ("false", 0, 0),
    ("lang", 1, 1),
    ("number", 0, 1),
    ("sum", 1, 1),
    ("floor", 1, 1),
    ("ceiling", 1, 1),
    ("round", 1, 1),
];

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    ns: &'a Namespaces,
    extensions: &'a [&'a str],
}

/// Parses a whole expression.
pub(crate) fn parse(src: &str, ns: &Namespaces, extensions: &[&str]) -> Result<Expr, XPathError> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
        ns,
        extensions,
    };
    if p.peek() == &Tok::Eof {
        return Err(p.err(XPathErrorKind::Empty, 0, "empty expression".into()));
    }
    let e = p.expr()?;
    if p.peek() != &Tok::Eof {
        let t = &p.toks[p.pos];
        return Err(p.err(
            XPathErrorKind::TrailingInput,
            t.start,
            format!(
                "unexpected {} after a complete expression",
                t.tok.describe()
            ),
        ));
    }
    Ok(e)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn here(&self) -> usize {
        self.toks[self.pos].start
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    #[cold]
    fn err(&self, kind: XPathErrorKind, at: usize, message: String) -> XPathError {
        XPathError::compile(kind, at, message, self.src)
    }

    #[cold]
    fn unexpected(&self, expected: &str) -> XPathError {
        self.err(
            XPathErrorKind::UnexpectedToken,
            self.here(),
            format!("expected {expected}, found {}", self.peek().describe()),
        )
    }

    fn expect(&mut self, t: &Tok, expected: &str) -> Result<(), XPathError> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn enter(&mut self, cost: usize) -> Result<(), XPathError> {
        self.depth += cost;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                XPathErrorKind::TooDeep,
                self.here(),
                format!("expression nested too deeply (limit {MAX_DEPTH})"),
            ));
        }
        Ok(())
    }

    fn resolve(&self, prefix: Option<String>, at: usize) -> Result<Option<String>, XPathError> {
        match prefix {
            None => Ok(None),
            Some(p) => match self.ns.get(&p) {
                Some(uri) => Ok(Some(uri.to_string())),
                None => Err(self.err(
                    XPathErrorKind::UndeclaredPrefix,
                    at,
                    format!("namespace prefix '{p}' is not declared"),
                )),
            },
        }
    }

    fn qname(&self, prefix: Option<String>, local: String, at: usize) -> Result<QName, XPathError> {
        let uri = self.resolve(prefix.clone(), at)?;
        Ok(QName { prefix, uri, local })
    }

    /// `Expr ::= OrExpr`, nested (costing [`NEST_COST`]).
    fn expr(&mut self) -> Result<Expr, XPathError> {
        self.enter(NEST_COST)?;
        let saved = self.depth;
        let e = self.binary(1);
        self.depth = saved - NEST_COST;
        e
    }

    /// The binary operators, by precedence climbing (one stack frame per precedence level
    /// actually used, not one per grammar rule): or, and, equality, relational, additive,
    /// multiplicative, all left-associative.
    fn binary(&mut self, min: u8) -> Result<Expr, XPathError> {
        let saved = self.depth;
        let mut lhs = self.unary()?;
        loop {
            let (op, prec) = match self.peek() {
                Tok::Or => (BinaryOp::Or, 1),
                Tok::And => (BinaryOp::And, 2),
                Tok::Eq => (BinaryOp::Eq, 3),
                Tok::Ne => (BinaryOp::Ne, 3),
                Tok::Lt => (BinaryOp::Lt, 4),
                Tok::Le => (BinaryOp::Le, 4),
                Tok::Gt => (BinaryOp::Gt, 4),
                Tok::Ge => (BinaryOp::Ge, 4),
                Tok::Plus => (BinaryOp::Add, 5),
                Tok::Minus => (BinaryOp::Sub, 5),
                Tok::Multiply => (BinaryOp::Mul, 6),
                Tok::Div => (BinaryOp::Div, 6),
                Tok::Mod => (BinaryOp::Mod, 6),
                _ => break,
            };
            if prec < min {
                break;
            }
            self.bump();
            self.enter(1)?;
            let rhs = self.binary(prec + 1)?;
            lhs = fold(op, lhs, rhs);
        }
        self.depth = saved;
        Ok(lhs)
    }

    /// `UnaryExpr ::= UnionExpr | '-' UnaryExpr`, without recursion per minus.
    fn unary(&mut self) -> Result<Expr, XPathError> {
        let saved = self.depth;
        let mut minuses = 0;
        while self.eat(&Tok::Minus) {
            self.enter(1)?;
            minuses += 1;
        }
        let mut e = self.union()?;
        for _ in 0..minuses {
            e = match e {
                Expr::Number(n) => Expr::Number(-n),
                e => Expr::Negate(Box::new(e)),
            };
        }
        self.depth = saved;
        Ok(e)
    }

    /// `UnionExpr ::= PathExpr ('|' PathExpr)*`
    fn union(&mut self) -> Result<Expr, XPathError> {
        let saved = self.depth;
        let mut lhs = self.path()?;
        while self.eat(&Tok::Pipe) {
            self.enter(1)?;
            let rhs = self.path()?;
            lhs = Expr::Binary(BinaryOp::Union, Box::new(lhs), Box::new(rhs));
        }
        self.depth = saved;
        Ok(lhs)
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Name(..)
                | Tok::Star
                | Tok::NsStar(_)
                | Tok::NodeType(_)
                | Tok::Axis(_)
                | Tok::At
                | Tok::Dot
                | Tok::DotDot
        )
    }

    /// `PathExpr ::= LocationPath | FilterExpr (('/' | '//') RelativeLocationPath)?`
    fn path(&mut self) -> Result<Expr, XPathError> {
        match self.peek() {
            Tok::Slash => {
                self.bump();
                let mut steps = Vec::new();
                if self.starts_step() {
                    self.steps(&mut steps)?;
                }
                Ok(Expr::Path {
                    start: PathStart::Root,
                    steps,
                })
            }
            Tok::DoubleSlash => {
                self.bump();
                let mut steps = vec![descendant_or_self()];
                self.steps(&mut steps)?;
                Ok(Expr::Path {
                    start: PathStart::Root,
                    steps,
                })
            }
            _ if self.starts_step() => {
                let mut steps = Vec::new();
                self.steps(&mut steps)?;
                Ok(Expr::Path {
                    start: PathStart::Context,
                    steps,
                })
            }
            _ => {
                let primary = self.primary()?;
                let predicates = self.predicates()?;
                let filter = if predicates.is_empty() {
                    primary
                } else {
                    Expr::Filter {
                        primary: Box::new(primary),
                        predicates,
                    }
                };
                let mut steps = Vec::new();
                match self.peek() {
                    Tok::Slash => {
                        self.bump();
                    }
                    Tok::DoubleSlash => {
                        self.bump();
                        steps.push(descendant_or_self());
                    }
                    _ => return Ok(filter),
                }
                self.steps(&mut steps)?;
                Ok(Expr::Path {
                    start: PathStart::Expr(Box::new(filter)),
                    steps,
                })
            }
        }
    }

    /// `RelativeLocationPath ::= Step (('/' | '//') Step)*`
    fn steps(&mut self, steps: &mut Vec<Step>) -> Result<(), XPathError> {
        loop {
            steps.push(self.step()?);
            match self.peek() {
                Tok::Slash => {
                    self.bump();
                }
                Tok::DoubleSlash => {
                    self.bump();
                    steps.push(descendant_or_self());
                }
                _ => return Ok(()),
            }
        }
    }

    fn step(&mut self) -> Result<Step, XPathError> {
        let axis = match self.peek() {
            Tok::Dot => {
                self.bump();
                return Ok(node_step(Axis::SelfAxis));
            }
            Tok::DotDot => {
                self.bump();
                return Ok(node_step(Axis::Parent));
            }
            Tok::At => {
                self.bump();
                Axis::Attribute
            }
            &Tok::Axis(a) => {
                self.bump();
                self.expect(&Tok::ColonColon, "'::'")?;
                a
            }
            _ => Axis::Child,
        };
        let at = self.here();
        if !matches!(
            self.peek(),
            Tok::Star | Tok::NsStar(_) | Tok::Name(..) | Tok::NodeType(_)
        ) {
            return Err(self.unexpected("a node test (a name, '*', or a node type)"));
        }
        let test = match self.bump() {
            Tok::Star => NodeTest::Any,
            Tok::NsStar(prefix) => {
                let uri = self.resolve(Some(prefix.clone()), at)?.unwrap_or_default();
                NodeTest::Namespace { prefix, uri }
            }
            Tok::Name(p, l) => NodeTest::Name(self.qname(p, l, at)?),
            Tok::NodeType(nt) => {
                self.expect(&Tok::LParen, "'('")?;
                let test = match nt {
                    NodeType::Node => NodeTest::Node,
                    NodeType::Text => NodeTest::Text,
                    NodeType::Comment => NodeTest::Comment,
                    NodeType::ProcessingInstruction => match self.peek().clone() {
                        Tok::Literal(s) => {
                            self.bump();
                            NodeTest::ProcessingInstruction(Some(s))
                        }
                        _ => NodeTest::ProcessingInstruction(None),
                    },
                };
                let expected = if test == NodeTest::ProcessingInstruction(None) {
                    "a literal or ')'"
                } else {
                    "')'"
                };
                self.expect(&Tok::RParen, expected)?;
                test
            }
            _ => unreachable!("checked above"),
        };
        let predicates = self.predicates()?;
        Ok(Step {
            axis,
            test,
            predicates,
        })
    }

    fn predicates(&mut self) -> Result<Vec<Predicate>, XPathError> {
        let mut out = Vec::new();
        while self.eat(&Tok::LBracket) {
            let expr = self.expr()?;
            self.expect(&Tok::RBracket, "']'")?;
            let position = positional(&expr);
            out.push(Predicate { expr, position });
        }
        Ok(out)
    }

    /// `PrimaryExpr ::= VariableReference | '(' Expr ')' | Literal | Number | FunctionCall`
    fn primary(&mut self) -> Result<Expr, XPathError> {
        let at = self.here();
        match self.peek().clone() {
            Tok::Variable(p, l) => {
                self.bump();
                Ok(Expr::Variable(self.qname(p, l, at)?))
            }
            Tok::LParen => {
                // `(/)` is how the printer writes a bare root path next to an operator; it
                // costs nothing, so that printing never makes an expression too deep.
                if self.toks.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::Slash)
                    && self.toks.get(self.pos + 2).map(|t| &t.tok) == Some(&Tok::RParen)
                {
                    self.pos += 3;
                    return Ok(Expr::Path {
                        start: PathStart::Root,
                        steps: Vec::new(),
                    });
                }
                self.bump();
                let e = self.expr()?;
                self.expect(&Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Literal(s) => {
                self.bump();
                Ok(Expr::Literal(s))
            }
            Tok::Number(n) => {
                self.bump();
                Ok(Expr::Number(n))
            }
            Tok::Function(p, l) => {
                self.bump();
                let name = self.qname(p, l, at)?;
                let arity = if name.prefix.is_none() {
                    match CORE_FUNCTIONS.iter().find(|f| f.0 == name.local) {
                        Some(&(_, min, max)) => Some((min, max)),
                        None if self.extensions.contains(&name.local.as_str()) => None,
                        None => {
                            return Err(self.err(
                                XPathErrorKind::UnknownFunction,
                                at,
                                format!("unknown function '{}'", name.local),
                            ))
                        }
                    }
                } else {
                    None
                };
                self.expect(&Tok::LParen, "'('")?;
                let mut args = Vec::new();
                if !self.eat(&Tok::RParen) {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(&Tok::RParen) {
                            break;
                        }
                        self.expect(&Tok::Comma, "',' or ')'")?;
                    }
                }
                if let Some((min, max)) = arity {
                    if args.len() < min || args.len() > max {
                        let want = if min == max {
                            format!("{min}")
                        } else if max == usize::MAX {
                            format!("at least {min}")
                        } else {
                            format!("{min} to {max}")
                        };
                        return Err(self.err(
                            XPathErrorKind::ArgumentCount,
                            at,
                            format!(
                                "function '{}' takes {want} argument{}, not {}",
                                name.local,
                                if want == "1" { "" } else { "s" },
                                args.len()
                            ),
                        ));
                    }
                }
                Ok(Expr::Function { name, args })
            }
            _ => Err(self.unexpected("an expression")),
        }
    }
}

fn node_step(axis: Axis) -> Step {
    Step {
        axis,
        test: NodeTest::Node,
        predicates: Vec::new(),
    }
}

fn descendant_or_self() -> Step {
    node_step(Axis::DescendantOrSelf)
}

/// Folds arithmetic on two numbers when the result is finite; otherwise builds the node.
fn fold(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    if let (Expr::Number(a), Expr::Number(b)) = (&lhs, &rhs) {
        let r = match op {
            BinaryOp::Add => Some(a + b),
            BinaryOp::Sub => Some(a - b),
            BinaryOp::Mul => Some(a * b),
            BinaryOp::Div => Some(a / b),
            // XPath's mod truncates like C's fmod, which is what Rust's `%` on floats does.
            BinaryOp::Mod => Some(a % b),
            _ => None,
        };
        if let Some(r) = r.filter(|r| r.is_finite()) {
            return Expr::Number(r);
        }
    }
    Expr::Binary(op, Box::new(lhs), Box::new(rhs))
}

/// The position a predicate selects, if it is `[n]`, `[position() = n]` or `[n = position()]`
/// with a whole `n >= 1`.
fn positional(e: &Expr) -> Option<u64> {
    let whole =
        |n: f64| (n >= 1.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_992.0).then_some(n as u64);
    let is_position = |e: &Expr| matches!(e, Expr::Function { name, args } if name.prefix.is_none() && name.local == "position" && args.is_empty());
    match e {
        Expr::Number(n) => whole(*n),
        Expr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
            (Expr::Number(n), p) | (p, Expr::Number(n)) if is_position(p) => whole(*n),
            _ => None,
        },
        _ => None,
    }
}
