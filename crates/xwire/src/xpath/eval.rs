//! The evaluator: walks a compiled [`Expr`] over any [`Navigator`].
//!
//! Node-sets are `Vec`s of handles kept in document order without duplicates. A location
//! path is evaluated step by step over the whole set of context nodes; each step knows from
//! the shape of its input whether its output is already in document order (child steps from
//! nodes none of which contains another, attribute steps, a single context node, ...) and
//! sorts only when it cannot be. Positional predicates (`[3]`, `[position() = 3]`) stop the
//! axis walk at the wanted node; `//x` without positional predicates becomes one descendant
//! walk; a path whose only use is its truth value stops at its first node. Scratch vectors
//! are pooled so that steps do not allocate per context node.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use super::ast::{Axis, BinaryOp, Expr, NodeTest, PathStart, Predicate, QName, Step};
use super::error::{XPathError, XPathErrorKind};
use super::functions;
use super::nav::{Navigator, NodeKind};
use super::value::{parse_number, Value, Variables};
use super::XPath;

/// The signature of an extension function: the evaluation context and the evaluated
/// arguments in, a value out, or an [`XPathError`] (made with [`XPathError::new`], usually of
/// kind [`Function`](super::XPathErrorKind::Function)).
pub type ExtensionFn<N> =
    dyn Fn(&FunctionContext<'_, N>, Vec<Value<N>>) -> Result<Value<N>, XPathError> + Send + Sync;

/// What an extension function sees of the evaluation: the document and the context.
pub struct FunctionContext<'a, N> {
    /// The document.
    pub nav: &'a dyn Navigator<Node = N>,
    /// The context node.
    pub node: N,
    /// The context position (1-based).
    pub position: usize,
    /// The context size.
    pub size: usize,
}

/// Extension functions by expanded name (namespace URI, `""` for unprefixed names, and
/// local name), for [`Evaluator::with_functions`]. Unprefixed names must also be given to
/// [`XPath::compile_with_functions`] so that the compiler accepts them.
///
/// ```
/// use xwire::tree::{Document, Handle};
/// use xwire::xpath::{Evaluator, Functions, Namespaces, Value, XPath};
///
/// let doc = Document::parse(b"<a><b/></a>")?;
/// let mut functions = Functions::new();
/// // XML Signature's here(): the node that holds the expression, fixed by the caller.
/// let b = XPath::compile("/a/b")?.select(&doc, xwire::xpath::Navigator::root(&doc))?[0];
/// functions.insert("", "here", move |_, _| Ok(Value::NodeSet(vec![b])));
/// let xp = XPath::compile_with_functions("name(here()/..)", &Namespaces::new(), &["here"])?;
/// let mut ev = Evaluator::new().with_functions(&functions);
/// let v = ev.evaluate(&xp, &doc, xwire::xpath::Navigator::root(&doc))?;
/// assert_eq!(v, Value::String("a".into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Functions<N> {
    map: HashMap<(String, String), Arc<ExtensionFn<N>>>,
}

impl<N> Default for Functions<N> {
    fn default() -> Self {
        Functions {
            map: HashMap::new(),
        }
    }
}

impl<N> Functions<N> {
    /// No functions.
    pub fn new() -> Self {
        Functions::default()
    }

    /// Registers `f` as the function `(uri, local)`, replacing an earlier one.
    pub fn insert<F>(&mut self, uri: impl Into<String>, local: impl Into<String>, f: F)
    where
        F: Fn(&FunctionContext<'_, N>, Vec<Value<N>>) -> Result<Value<N>, XPathError>
            + Send
            + Sync
            + 'static,
    {
        self.map.insert((uri.into(), local.into()), Arc::new(f));
    }

    fn get(&self, uri: &str, local: &str) -> Option<&Arc<ExtensionFn<N>>> {
        self.map.get(&(uri.to_string(), local.to_string()))
    }
}

impl<N> std::fmt::Debug for Functions<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.map.keys()).finish()
    }
}

/// A reusable evaluator: variable bindings, extension functions and scratch buffers kept
/// across evaluations (for hot loops over many documents or context nodes).
///
/// ```
/// use xwire::tree::Document;
/// use xwire::xpath::{Evaluator, Value, Variables, XPath};
///
/// let doc = Document::parse(b"<r><i n='1'/><i n='2'/><i n='3'/></r>")?;
/// let xp = XPath::compile("count(//i[@n > $min])")?;
/// let vars = Variables::new().with("min", Value::Number(1.0));
/// let mut ev = Evaluator::new().with_variables(&vars);
/// assert_eq!(ev.evaluate(&xp, &doc, doc.root().into())?, Value::Number(2.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Evaluator<'e, N> {
    vars: Option<&'e Variables<N>>,
    functions: Option<&'e Functions<N>>,
    pool: Vec<Vec<N>>,
}

impl<N> Default for Evaluator<'_, N> {
    fn default() -> Self {
        Evaluator {
            vars: None,
            functions: None,
            pool: Vec::new(),
        }
    }
}

impl<'e, N: Copy + Eq> Evaluator<'e, N> {
    /// An evaluator without variables or extension functions.
    pub fn new() -> Self {
        Evaluator::default()
    }

    /// Uses these variable bindings.
    pub fn with_variables(mut self, vars: &'e Variables<N>) -> Self {
        self.vars = Some(vars);
        self
    }

    /// Uses these extension functions.
    pub fn with_functions(mut self, functions: &'e Functions<N>) -> Self {
        self.functions = Some(functions);
        self
    }

    /// Evaluates `xpath` with `context` as the context node (position and size 1).
    pub fn evaluate<Nav>(
        &mut self,
        xpath: &XPath,
        nav: &Nav,
        context: N,
    ) -> Result<Value<N>, XPathError>
    where
        Nav: Navigator<Node = N>,
    {
        let mut ev = Eval {
            nav,
            vars: self.vars,
            functions: self.functions,
            pool: std::mem::take(&mut self.pool),
        };
        let c = Ctx {
            node: context,
            pos: 1,
            size: 1,
        };
        let r = ev.eval(xpath.expr(), &c);
        self.pool = ev.pool;
        r
    }

    /// Evaluates `xpath` to a node-set, in document order; an error if it is not one.
    pub fn select<Nav>(
        &mut self,
        xpath: &XPath,
        nav: &Nav,
        context: N,
    ) -> Result<Vec<N>, XPathError>
    where
        Nav: Navigator<Node = N>,
    {
        match self.evaluate(xpath, nav, context)? {
            Value::NodeSet(v) => Ok(v),
            other => Err(node_set_expected(&other)),
        }
    }
}

impl XPath {
    /// Evaluates the expression with `context` as the context node.
    ///
    /// ```
    /// use xwire::tree::Document;
    /// use xwire::xpath::{Value, XPath};
    ///
    /// let doc = Document::parse(b"<r><i>2</i><i>3.5</i></r>")?;
    /// let sum = XPath::compile("sum(/r/i) * 2")?;
    /// assert_eq!(sum.evaluate(&doc, doc.root().into())?, Value::Number(11.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluate<N: Navigator>(
        &self,
        nav: &N,
        context: N::Node,
    ) -> Result<Value<N::Node>, XPathError> {
        Evaluator::new().evaluate(self, nav, context)
    }

    /// Evaluates the expression with variable bindings.
    pub fn evaluate_with<N: Navigator>(
        &self,
        nav: &N,
        context: N::Node,
        vars: &Variables<N::Node>,
    ) -> Result<Value<N::Node>, XPathError> {
        Evaluator::new()
            .with_variables(vars)
            .evaluate(self, nav, context)
    }

    /// The node-set result in document order; an error if the expression is not a node-set.
    ///
    /// ```
    /// use xwire::tree::Document;
    /// use xwire::xpath::{Navigator, XPath};
    ///
    /// let doc = Document::parse(b"<r><i id='a'/><j/><i id='b'/></r>")?;
    /// let ids = XPath::compile("//i/@id")?.select(&doc, doc.root().into())?;
    /// let values: Vec<_> = ids.iter().map(|&n| doc.string_value(n)).collect();
    /// assert_eq!(values, ["a", "b"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn select<N: Navigator>(
        &self,
        nav: &N,
        context: N::Node,
    ) -> Result<Vec<N::Node>, XPathError> {
        Evaluator::new().select(self, nav, context)
    }
}

#[cold]
pub(crate) fn node_set_expected<N>(v: &Value<N>) -> XPathError
where
    N: Copy,
{
    XPathError::new(
        XPathErrorKind::NodeSetExpected,
        format!("expected a node-set, found a {}", v.type_name()),
    )
}

/// The evaluation context: node, position and size.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<N> {
    pub node: N,
    pub pos: usize,
    pub size: usize,
}

/// What is known about the order of a node-set produced by a step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Order {
    /// At most one node.
    Single,
    /// In document order, and no node is an ancestor of another.
    Disjoint,
    /// In document order without duplicates.
    Sorted,
}

/// One evaluation: the navigator, the bindings and the buffer pool.
pub(crate) struct Eval<'a, Nav: Navigator> {
    pub nav: &'a Nav,
    vars: Option<&'a Variables<Nav::Node>>,
    functions: Option<&'a Functions<Nav::Node>>,
    pool: Vec<Vec<Nav::Node>>,
}

type R<T> = Result<T, XPathError>;

/// The type an expression is known to have before it is evaluated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    NodeSet,
    Boolean,
    Number,
    String,
    Unknown,
}

pub(crate) fn static_type(e: &Expr) -> Type {
    match e {
        Expr::Binary(op, ..) => match op {
            BinaryOp::Or
            | BinaryOp::And
            | BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => Type::Boolean,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                Type::Number
            }
            BinaryOp::Union => Type::NodeSet,
        },
        Expr::Negate(_) | Expr::Number(_) => Type::Number,
        Expr::Path { .. } | Expr::Filter { .. } => Type::NodeSet,
        Expr::Literal(_) => Type::String,
        Expr::Variable(_) => Type::Unknown,
        Expr::Function { name, .. } if name.prefix.is_some() => Type::Unknown,
        Expr::Function { name, .. } => functions::return_type(&name.local),
    }
}

/// Whether `e`, evaluated as a predicate, depends on the context position or size (it uses
/// `position()` or `last()` in its own context, or may be a number). Conservative.
fn is_positional(e: &Expr) -> bool {
    match static_type(e) {
        Type::Boolean | Type::NodeSet | Type::String => uses_position(e),
        Type::Number | Type::Unknown => true,
    }
}

/// Whether `e` calls `position()` or `last()` (or a function that might) in the context it
/// is evaluated in (predicates have their own contexts and are not looked into).
fn uses_position(e: &Expr) -> bool {
    match e {
        Expr::Binary(_, l, r) => uses_position(l) || uses_position(r),
        Expr::Negate(x) => uses_position(x),
        Expr::Path { start, .. } => match start {
            PathStart::Expr(x) => uses_position(x),
            _ => false,
        },
        Expr::Filter { primary, .. } => uses_position(primary),
        Expr::Function { name, args } => {
            name.prefix.is_some()
                || (name.local == "position" || name.local == "last")
                || !functions::is_core(&name.local)
                || args.iter().any(uses_position)
        }
        Expr::Variable(_) | Expr::Literal(_) | Expr::Number(_) => false,
    }
}

fn principal(axis: Axis) -> NodeKind {
    match axis {
        Axis::Attribute => NodeKind::Attribute,
        Axis::Namespace => NodeKind::Namespace,
        _ => NodeKind::Element,
    }
}

impl<'a, Nav: Navigator> Eval<'a, Nav> {
    fn buf(&mut self) -> Vec<Nav::Node> {
        self.pool.pop().unwrap_or_default()
    }

    fn give(&mut self, mut v: Vec<Nav::Node>) {
        v.clear();
        if self.pool.len() < 64 {
            self.pool.push(v);
        }
    }

    pub(crate) fn eval(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<Value<Nav::Node>> {
        match e {
            Expr::Number(n) => Ok(Value::Number(*n)),
            Expr::Literal(s) => Ok(Value::String(s.clone())),
            Expr::Variable(q) => self.variable(q),
            Expr::Negate(x) => {
                // `- - - x` without recursion per minus.
                let (mut odd, mut cur) = (true, &**x);
                while let Expr::Negate(y) = cur {
                    odd = !odd;
                    cur = y;
                }
                let n = self.number(cur, c)?;
                Ok(Value::Number(if odd { -n } else { n }))
            }
            Expr::Binary(..) => self.binary_chain(e, c),
            Expr::Path { start, steps } => Ok(Value::NodeSet(self.path(start, steps, c, false)?)),
            Expr::Filter {
                primary,
                predicates,
            } => Ok(Value::NodeSet(self.filter(primary, predicates, c)?)),
            Expr::Function { name, args } => self.function(name, args, c),
        }
    }

    fn variable(&self, q: &QName) -> R<Value<Nav::Node>> {
        let uri = q.uri.as_deref().unwrap_or("");
        match self.vars.and_then(|v| v.get(uri, &q.local)) {
            Some(Value::NodeSet(v)) => {
                let mut v = v.clone();
                sort_dedup(self.nav, &mut v);
                Ok(Value::NodeSet(v))
            }
            Some(v) => Ok(v.clone()),
            None => Err(XPathError::new(
                XPathErrorKind::UndefinedVariable,
                format!("undefined variable ${q}"),
            )),
        }
    }

    fn function(&mut self, name: &QName, args: &[Expr], c: &Ctx<Nav::Node>) -> R<Value<Nav::Node>> {
        let uri = name.uri.as_deref().unwrap_or("");
        if let Some(f) = self.functions.and_then(|f| f.get(uri, &name.local)) {
            let f = Arc::clone(f);
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                values.push(self.eval(a, c)?);
            }
            let fc = FunctionContext {
                nav: self.nav as &dyn Navigator<Node = Nav::Node>,
                node: c.node,
                position: c.pos,
                size: c.size,
            };
            return match f(&fc, values)? {
                Value::NodeSet(mut v) => {
                    sort_dedup(self.nav, &mut v);
                    Ok(Value::NodeSet(v))
                }
                v => Ok(v),
            };
        }
        if name.prefix.is_none() && functions::is_core(&name.local) {
            return functions::call(self, &name.local, args, c);
        }
        Err(XPathError::new(
            XPathErrorKind::UnknownFunction,
            format!("unknown function {name}()"),
        ))
    }

    /// Evaluates `e` and requires a node-set.
    pub(crate) fn nodes(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<Vec<Nav::Node>> {
        match e {
            Expr::Path { start, steps } => self.path(start, steps, c, false),
            Expr::Filter {
                primary,
                predicates,
            } => self.filter(primary, predicates, c),
            _ => match self.eval(e, c)? {
                Value::NodeSet(v) => Ok(v),
                other => Err(node_set_expected(&other)),
            },
        }
    }

    pub(crate) fn number(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<f64> {
        match e {
            Expr::Number(n) => Ok(*n),
            _ => {
                let v = self.eval(e, c)?;
                Ok(v.to_number(self.nav))
            }
        }
    }

    pub(crate) fn string(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<String> {
        match e {
            Expr::Literal(s) => Ok(s.clone()),
            _ => {
                let v = self.eval(e, c)?;
                Ok(v.to_string(self.nav))
            }
        }
    }

    /// Evaluates `e` and converts it to a boolean, stopping paths at their first node.
    pub(crate) fn boolean(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<bool> {
        match e {
            // Short chains only: a long one is folded without recursion by `eval`.
            Expr::Binary(BinaryOp::Or, l, r) if !matches!(**l, Expr::Binary(..)) => {
                Ok(self.boolean(l, c)? || self.boolean(r, c)?)
            }
            Expr::Binary(BinaryOp::And, l, r) if !matches!(**l, Expr::Binary(..)) => {
                Ok(self.boolean(l, c)? && self.boolean(r, c)?)
            }
            Expr::Binary(op, l, r) if is_comparison(*op) => self.compare(*op, l, r, c),
            Expr::Path { start, steps } => Ok(!self.path(start, steps, c, true)?.is_empty()),
            _ => Ok(self.eval(e, c)?.to_boolean()),
        }
    }

    /// A chain of left-associative binary operators (`a + b - c ...`, `a = b = c`, `a | b |
    /// c`), which the parser builds left-deep at a cost of 1 per operand: evaluated by a walk
    /// down its left spine and a fold back up, so that the stack does not grow with it.
    fn binary_chain(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<Value<Nav::Node>> {
        let mut spine: Vec<(BinaryOp, &Expr)> = Vec::new();
        let mut cur = e;
        while let Expr::Binary(op, l, r) = cur {
            spine.push((*op, r));
            cur = l;
        }
        let mut acc = self.eval(cur, c)?;
        for &(op, r) in spine.iter().rev() {
            acc = self.binary(op, acc, r, c)?;
        }
        Ok(acc)
    }

    /// `a op r` where `a` is already evaluated.
    fn binary(
        &mut self,
        op: BinaryOp,
        a: Value<Nav::Node>,
        r: &Expr,
        c: &Ctx<Nav::Node>,
    ) -> R<Value<Nav::Node>> {
        let nav = self.nav;
        let n = match op {
            BinaryOp::Or => return Ok(Value::Boolean(a.to_boolean() || self.boolean(r, c)?)),
            BinaryOp::And => return Ok(Value::Boolean(a.to_boolean() && self.boolean(r, c)?)),
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => {
                let b = self.eval(r, c)?;
                return Ok(Value::Boolean(compare_values(nav, op, &a, &b)));
            }
            BinaryOp::Union => {
                let Value::NodeSet(a) = a else {
                    return Err(node_set_expected(&a));
                };
                let b = self.nodes(r, c)?;
                return Ok(Value::NodeSet(union(nav, a, b)));
            }
            BinaryOp::Add => a.to_number(nav) + self.number(r, c)?,
            BinaryOp::Sub => a.to_number(nav) - self.number(r, c)?,
            BinaryOp::Mul => a.to_number(nav) * self.number(r, c)?,
            BinaryOp::Div => a.to_number(nav) / self.number(r, c)?,
            // Truncated remainder, like C's fmod (and Rust's `%` on floats).
            BinaryOp::Mod => a.to_number(nav) % self.number(r, c)?,
        };
        Ok(Value::Number(n))
    }

    /// The comparisons of XPath 1.0 section 3.4.
    fn compare(&mut self, op: BinaryOp, l: &Expr, r: &Expr, c: &Ctx<Nav::Node>) -> R<bool> {
        let a = self.eval(l, c)?;
        let b = self.eval(r, c)?;
        Ok(compare_values(self.nav, op, &a, &b))
    }

    /// A location path from `start`. With `any`, the caller needs only to know whether the
    /// result is empty, so the last step may stop at its first node.
    fn path(
        &mut self,
        start: &PathStart,
        steps: &[Step],
        c: &Ctx<Nav::Node>,
        any: bool,
    ) -> R<Vec<Nav::Node>> {
        let (mut set, mut order) = match start {
            PathStart::Root => (vec![self.nav.root()], Order::Single),
            PathStart::Context => (vec![c.node], Order::Single),
            PathStart::Expr(e) => {
                let v = self.nodes(e, c)?;
                let o = if v.len() <= 1 {
                    Order::Single
                } else {
                    Order::Sorted
                };
                (v, o)
            }
        };
        let mut i = 0;
        while i < steps.len() && !set.is_empty() {
            let s = &steps[i];
            // `descendant-or-self::node()/child::x[p]` is `descendant::x[p]` when `p` does not
            // depend on positions: one walk instead of a node-set of every node.
            let fused = s.axis == Axis::DescendantOrSelf
                && s.test == NodeTest::Node
                && s.predicates.is_empty()
                && steps.get(i + 1).is_some_and(|n| {
                    n.axis == Axis::Child && n.predicates.iter().all(|p| !is_positional(&p.expr))
                });
            let (axis, step) = if fused {
                i += 1;
                (Axis::Descendant, &steps[i])
            } else {
                (s.axis, s)
            };
            i += 1;
            let last = any && i == steps.len();
            let (out, o) = self.step(&set, order, axis, step, last)?;
            self.give(std::mem::replace(&mut set, out));
            order = o;
        }
        Ok(set)
    }

    /// Applies one step to every node of `input`. With `first`, stops at the first result.
    fn step(
        &mut self,
        input: &[Nav::Node],
        order: Order,
        axis: Axis,
        step: &Step,
        first: bool,
    ) -> R<(Vec<Nav::Node>, Order)> {
        let nav = self.nav;
        let mut out = self.buf();
        let preds = &step.predicates;
        // The first predicate's position, if it is positional: the walk stops there.
        let limit = match preds.first() {
            Some(p) => p
                .position
                .map_or(usize::MAX, |k| k.min(usize::MAX as u64) as usize),
            None if first => 1,
            None => usize::MAX,
        };
        let can_skip_nested = matches!(axis, Axis::Descendant | Axis::DescendantOrSelf)
            && order == Order::Sorted
            && preds.iter().all(|p| !is_positional(&p.expr));
        let test = Test::new(nav, &step.test);
        let mut scratch = self.buf();
        // The last descendant of the previous context node, to skip context nodes inside it.
        let mut subtree_end: Option<Nav::Node> = None;
        for &n in input {
            if can_skip_nested {
                if let Some(end) = subtree_end {
                    if nav.cmp_order(n, end) != Ordering::Greater {
                        continue;
                    }
                }
                subtree_end = Some(last_descendant(nav, n));
            }
            scratch.clear();
            collect_axis(nav, n, axis, &test, limit, &mut scratch);
            if !preds.is_empty() {
                if let Err(e) = self.apply_predicates(&mut scratch, preds) {
                    self.give(scratch);
                    self.give(out);
                    return Err(e);
                }
            }
            if axis.is_reverse() {
                scratch.reverse();
            }
            out.extend_from_slice(&scratch);
            if first && !out.is_empty() {
                break;
            }
        }
        self.give(scratch);
        let single = input.len() <= 1 || order == Order::Single;
        let new_order = match axis {
            Axis::Child | Axis::SelfAxis if single || order == Order::Disjoint => {
                Some(if out.len() <= 1 {
                    Order::Single
                } else {
                    Order::Disjoint
                })
            }
            Axis::SelfAxis => Some(order),
            Axis::Attribute | Axis::Namespace => Some(Order::Disjoint),
            Axis::FollowingSibling | Axis::PrecedingSibling | Axis::Parent if single => {
                Some(Order::Disjoint)
            }
            Axis::Descendant | Axis::DescendantOrSelf
                if single || order == Order::Disjoint || can_skip_nested =>
            {
                Some(Order::Sorted)
            }
            _ if single => Some(Order::Sorted),
            _ => None,
        };
        let new_order = match new_order {
            Some(o) => o,
            None => {
                sort_dedup(nav, &mut out);
                Order::Sorted
            }
        };
        let new_order = if out.len() <= 1 {
            Order::Single
        } else {
            new_order
        };
        Ok((out, new_order))
    }

    /// Filters `nodes` (in the axis' order) through predicates, each with positions counted
    /// in the order of the list it is applied to.
    fn apply_predicates(&mut self, nodes: &mut Vec<Nav::Node>, preds: &[Predicate]) -> R<()> {
        for p in preds {
            if nodes.is_empty() {
                break;
            }
            if let Some(k) = p.position {
                let keep = usize::try_from(k)
                    .ok()
                    .and_then(|k| nodes.get(k - 1).copied());
                nodes.clear();
                nodes.extend(keep);
                continue;
            }
            let size = nodes.len();
            let mut kept = 0;
            for i in 0..size {
                let c = Ctx {
                    node: nodes[i],
                    pos: i + 1,
                    size,
                };
                if self.predicate(&p.expr, &c)? {
                    nodes[kept] = nodes[i];
                    kept += 1;
                }
            }
            nodes.truncate(kept);
        }
        Ok(())
    }

    /// The truth of a predicate: a number is compared with the position.
    fn predicate(&mut self, e: &Expr, c: &Ctx<Nav::Node>) -> R<bool> {
        match static_type(e) {
            Type::Boolean | Type::NodeSet | Type::String => self.boolean(e, c),
            Type::Number | Type::Unknown => match self.eval(e, c)? {
                Value::Number(n) => Ok(n == c.pos as f64),
                v => Ok(v.to_boolean()),
            },
        }
    }

    /// `(expr)[p]...`: predicates over a node-set, positions in document order.
    fn filter(
        &mut self,
        primary: &Expr,
        predicates: &[Predicate],
        c: &Ctx<Nav::Node>,
    ) -> R<Vec<Nav::Node>> {
        let mut v = self.nodes(primary, c)?;
        self.apply_predicates(&mut v, predicates)?;
        Ok(v)
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    )
}

/// Sorts a node-set into document order and removes duplicates.
pub(crate) fn sort_dedup<Nav: Navigator + ?Sized>(nav: &Nav, v: &mut Vec<Nav::Node>) {
    if v.len() > 1 {
        v.sort_unstable_by(|&a, &b| nav.cmp_order(a, b));
        v.dedup();
    }
}

/// The union of two node-sets in document order.
fn union<Nav: Navigator>(nav: &Nav, a: Vec<Nav::Node>, b: Vec<Nav::Node>) -> Vec<Nav::Node> {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match nav.cmp_order(a[i], b[j]) {
            Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The last node of `n`'s subtree in document order (`n` itself when it has no children).
fn last_descendant<Nav: Navigator>(nav: &Nav, n: Nav::Node) -> Nav::Node {
    let mut cur = n;
    while let Some(c) = nav.last_child(cur) {
        cur = c;
    }
    cur
}

/// A node test with its name resolved to the model's key, if the model has keys.
pub(crate) struct Test<'t> {
    test: &'t NodeTest,
    key: Option<u64>,
}

impl<'t> Test<'t> {
    pub(crate) fn new<Nav: Navigator>(nav: &Nav, test: &'t NodeTest) -> Test<'t> {
        let key = match test {
            NodeTest::Name(q) => nav.name_key(&q.local, q.uri.as_deref().unwrap_or("")),
            _ => None,
        };
        Test { test, key }
    }
}

/// Whether `n` passes `test` on an axis whose principal node kind is `principal`.
#[inline]
fn matches<Nav: Navigator>(nav: &Nav, n: Nav::Node, test: &Test<'_>, principal: NodeKind) -> bool {
    if let Some(key) = test.key {
        return nav.kind(n) == principal && nav.has_name_key(n, key);
    }
    match test.test {
        NodeTest::Node => true,
        NodeTest::Any => nav.kind(n) == principal,
        NodeTest::Name(q) => {
            nav.kind(n) == principal && nav.has_name(n, &q.local, q.uri.as_deref().unwrap_or(""))
        }
        NodeTest::Namespace { uri, .. } => {
            nav.kind(n) == principal
                && principal != NodeKind::Namespace
                && nav.namespace_uri(n) == uri
        }
        NodeTest::Text => nav.kind(n) == NodeKind::Text,
        NodeTest::Comment => nav.kind(n) == NodeKind::Comment,
        NodeTest::ProcessingInstruction(target) => {
            nav.kind(n) == NodeKind::Pi
                && target.as_deref().map_or(true, |t| nav.local_name(n) == t)
        }
    }
}

/// The node after `n`'s subtree within `stop`'s subtree, in document order.
fn next_outside<Nav: Navigator>(nav: &Nav, n: Nav::Node, stop: Nav::Node) -> Option<Nav::Node> {
    let mut x = n;
    loop {
        if x == stop {
            return None;
        }
        if let Some(s) = nav.next_sibling(x) {
            return Some(s);
        }
        x = nav.parent(x)?;
    }
}

/// Appends the nodes of `n`'s `axis` that pass `test` to `out`, in the axis' order (reverse
/// document order for reverse axes), stopping once `out` holds `limit` nodes.
pub(crate) fn collect_axis<Nav: Navigator>(
    nav: &Nav,
    n: Nav::Node,
    axis: Axis,
    test: &Test<'_>,
    limit: usize,
    out: &mut Vec<Nav::Node>,
) {
    let p = principal(axis);
    // Pushes a matching node; `true` when the limit is reached.
    macro_rules! visit {
        ($x:expr) => {{
            let x = $x;
            if matches(nav, x, test, p) {
                out.push(x);
                if out.len() >= limit {
                    return;
                }
            }
        }};
    }
    let is_tree_node = !matches!(nav.kind(n), NodeKind::Attribute | NodeKind::Namespace);
    match axis {
        Axis::SelfAxis => visit!(n),
        Axis::Child => {
            let mut cur = nav.first_child(n);
            while let Some(x) = cur {
                visit!(x);
                cur = nav.next_sibling(x);
            }
        }
        Axis::Descendant | Axis::DescendantOrSelf => {
            if axis == Axis::DescendantOrSelf {
                visit!(n);
            }
            let mut cur = nav.first_child(n);
            while let Some(x) = cur {
                visit!(x);
                cur = nav.first_child(x).or_else(|| next_outside(nav, x, n));
            }
        }
        Axis::Parent => {
            if let Some(x) = nav.parent(n) {
                visit!(x);
            }
        }
        Axis::Ancestor | Axis::AncestorOrSelf => {
            if axis == Axis::AncestorOrSelf {
                visit!(n);
            }
            let mut cur = nav.parent(n);
            while let Some(x) = cur {
                visit!(x);
                cur = nav.parent(x);
            }
        }
        Axis::FollowingSibling => {
            if is_tree_node {
                let mut cur = nav.next_sibling(n);
                while let Some(x) = cur {
                    visit!(x);
                    cur = nav.next_sibling(x);
                }
            }
        }
        Axis::PrecedingSibling => {
            if is_tree_node {
                let mut cur = nav.prev_sibling(n);
                while let Some(x) = cur {
                    visit!(x);
                    cur = nav.prev_sibling(x);
                }
            }
        }
        Axis::Following => {
            let mut a = n;
            if !is_tree_node {
                // After an attribute or namespace node come its element's descendants.
                let Some(owner) = nav.parent(n) else { return };
                let mut cur = nav.first_child(owner);
                while let Some(x) = cur {
                    visit!(x);
                    cur = nav.first_child(x).or_else(|| next_outside(nav, x, owner));
                }
                a = owner;
            }
            loop {
                let mut sib = nav.next_sibling(a);
                while let Some(s) = sib {
                    visit!(s);
                    let mut cur = nav.first_child(s);
                    while let Some(x) = cur {
                        visit!(x);
                        cur = nav.first_child(x).or_else(|| next_outside(nav, x, s));
                    }
                    sib = nav.next_sibling(s);
                }
                match nav.parent(a) {
                    Some(up) => a = up,
                    None => return,
                }
            }
        }
        Axis::Preceding => {
            let mut a = n;
            if !is_tree_node {
                match nav.parent(n) {
                    Some(owner) => a = owner,
                    None => return,
                }
            }
            loop {
                let mut sib = nav.prev_sibling(a);
                while let Some(s) = sib {
                    // `s`'s subtree in reverse document order: deepest last node first.
                    let mut cur = last_descendant(nav, s);
                    loop {
                        visit!(cur);
                        if cur == s {
                            break;
                        }
                        cur = match nav.prev_sibling(cur) {
                            Some(p) => last_descendant(nav, p),
                            None => match nav.parent(cur) {
                                Some(up) => up,
                                None => break,
                            },
                        };
                    }
                    sib = nav.prev_sibling(s);
                }
                match nav.parent(a) {
                    Some(up) => a = up,
                    None => return,
                }
            }
        }
        Axis::Attribute => {
            let mut cur = nav.first_attribute(n);
            while let Some(x) = cur {
                visit!(x);
                cur = nav.next_attribute(x);
            }
        }
        Axis::Namespace => {
            if nav.kind(n) == NodeKind::Element {
                let mut all = Vec::new();
                nav.namespaces(n, &mut all);
                for x in all {
                    visit!(x);
                }
            }
        }
    }
}

/// The comparisons of XPath 1.0 section 3.4 on two values.
pub(crate) fn compare_values<Nav: Navigator>(
    nav: &Nav,
    op: BinaryOp,
    a: &Value<Nav::Node>,
    b: &Value<Nav::Node>,
) -> bool {
    use Value::*;
    match (a, b) {
        (NodeSet(x), NodeSet(y)) => {
            if x.is_empty() || y.is_empty() {
                return false;
            }
            if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                let ys: Vec<_> = y.iter().map(|&n| nav.string_value(n)).collect();
                x.iter().any(|&n| {
                    let s = nav.string_value(n);
                    ys.iter().any(|t| (s == *t) == (op == BinaryOp::Eq))
                })
            } else {
                let ys: Vec<f64> = y
                    .iter()
                    .map(|&n| parse_number(&nav.string_value(n)))
                    .collect();
                x.iter().any(|&n| {
                    let v = parse_number(&nav.string_value(n));
                    ys.iter().any(|&w| compare_numbers(op, v, w))
                })
            }
        }
        (NodeSet(x), other) => compare_node_set(nav, op, x, other, false),
        (other, NodeSet(y)) => compare_node_set(nav, op, y, other, true),
        _ => {
            if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                let eq = if matches!(a, Boolean(_)) || matches!(b, Boolean(_)) {
                    a.to_boolean() == b.to_boolean()
                } else if matches!(a, Number(_)) || matches!(b, Number(_)) {
                    a.to_number(nav) == b.to_number(nav)
                } else {
                    a.to_string(nav) == b.to_string(nav)
                };
                eq == (op == BinaryOp::Eq)
            } else {
                compare_numbers(op, a.to_number(nav), b.to_number(nav))
            }
        }
    }
}

/// A node-set compared with a non-node-set; `swapped` when the node-set is the right operand.
fn compare_node_set<Nav: Navigator>(
    nav: &Nav,
    op: BinaryOp,
    set: &[Nav::Node],
    other: &Value<Nav::Node>,
    swapped: bool,
) -> bool {
    let op = if swapped { flip(op) } else { op };
    match other {
        Value::Boolean(b) => {
            let s = !set.is_empty();
            if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                (s == *b) == (op == BinaryOp::Eq)
            } else {
                compare_numbers(op, f64::from(u8::from(s)), f64::from(u8::from(*b)))
            }
        }
        Value::Number(x) => set
            .iter()
            .any(|&n| compare_numbers(op, parse_number(&nav.string_value(n)), *x)),
        Value::String(t) => {
            if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                let eq = op == BinaryOp::Eq;
                set.iter()
                    .any(|&n| (nav.string_value(n) == t.as_str()) == eq)
            } else {
                let x = parse_number(t);
                set.iter()
                    .any(|&n| compare_numbers(op, parse_number(&nav.string_value(n)), x))
            }
        }
        Value::NodeSet(_) => unreachable!("handled by the caller"),
    }
}

/// The operator with its operands swapped: `a < b` is `b > a`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        op => op,
    }
}

fn compare_numbers(op: BinaryOp, a: f64, b: f64) -> bool {
    match op {
        BinaryOp::Eq => a == b,
        BinaryOp::Ne => a != b,
        BinaryOp::Lt => a < b,
        BinaryOp::Le => a <= b,
        BinaryOp::Gt => a > b,
        BinaryOp::Ge => a >= b,
        _ => false,
    }
}
