//! XPath values, their conversions (the `string()`, `number()` and `boolean()` rules of XPath
//! 1.0 section 4), and variable bindings.

use std::collections::HashMap;

use super::nav::Navigator;

/// The result of an expression: one of XPath 1.0's four types.
///
/// Node-sets returned by the evaluator are in document order without duplicates.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<N> {
    /// A node-set, in document order.
    NodeSet(Vec<N>),
    /// A boolean.
    Boolean(bool),
    /// A number (IEEE 754 double).
    Number(f64),
    /// A string.
    String(String),
}

impl<N: Copy> Value<N> {
    /// `boolean()`: a non-empty node-set, a non-zero non-NaN number, a non-empty string.
    pub fn to_boolean(&self) -> bool {
        match self {
            Value::NodeSet(v) => !v.is_empty(),
            Value::Boolean(b) => *b,
            Value::Number(n) => *n != 0.0 && !n.is_nan(),
            Value::String(s) => !s.is_empty(),
        }
    }

    /// `number()`: a node-set converts through the string-value of its first node.
    pub fn to_number<Nav: Navigator<Node = N> + ?Sized>(&self, nav: &Nav) -> f64 {
        match self {
            Value::NodeSet(v) => match v.first() {
                Some(&n) => parse_number(&nav.string_value(n)),
                None => f64::NAN,
            },
            Value::Boolean(b) => f64::from(u8::from(*b)),
            Value::Number(n) => *n,
            Value::String(s) => parse_number(s),
        }
    }

    /// `string()`: a node-set converts to the string-value of its first node (`""` when
    /// empty), a number as [`format_number`] writes it, a boolean to `true` or `false`.
    pub fn to_string<Nav: Navigator<Node = N> + ?Sized>(&self, nav: &Nav) -> String {
        match self {
            Value::NodeSet(v) => match v.first() {
                Some(&n) => nav.string_value(n).into_owned(),
                None => String::new(),
            },
            Value::Boolean(b) => if *b { "true" } else { "false" }.to_string(),
            Value::Number(n) => format_number(*n),
            Value::String(s) => s.clone(),
        }
    }

    /// The node-set, if this is one.
    pub fn as_node_set(&self) -> Option<&[N]> {
        match self {
            Value::NodeSet(v) => Some(v),
            _ => None,
        }
    }

    /// The name of the value's type: `node-set`, `boolean`, `number` or `string`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::NodeSet(_) => "node-set",
            Value::Boolean(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
        }
    }
}

/// Whether `c` is XML whitespace (space, tab, carriage return, line feed).
pub(crate) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// XPath's `number()` of a string: optional whitespace, an optional `-`, digits with an
/// optional fraction (no exponent, no `+`), optional whitespace; anything else is NaN.
///
/// ```
/// use xwire::xpath::parse_number;
/// assert_eq!(parse_number(" -12.50\n"), -12.5);
/// assert_eq!(parse_number(".5"), 0.5);
/// assert!(parse_number("1e3").is_nan());
/// assert!(parse_number("+1").is_nan());
/// ```
pub fn parse_number(s: &str) -> f64 {
    let t = s.trim_matches(is_xml_space);
    let digits = t.strip_prefix('-').unwrap_or(t);
    let mut seen_digit = false;
    let mut seen_dot = false;
    for b in digits.bytes() {
        match b {
            b'0'..=b'9' => seen_digit = true,
            b'.' if !seen_dot => seen_dot = true,
            _ => return f64::NAN,
        }
    }
    if !seen_digit {
        return f64::NAN;
    }
    // Rust's parser accepts exactly this shape (and rounds correctly); "1." and ".5" included.
    t.parse().unwrap_or(f64::NAN)
}

/// XPath's `string()` of a number: `NaN`, `Infinity`, `-Infinity`, `0` for both zeros,
/// integers without a fraction, other numbers in plain decimal notation (never an exponent)
/// with as few digits as identify the double.
///
/// ```
/// use xwire::xpath::format_number;
/// assert_eq!(format_number(3.0), "3");
/// assert_eq!(format_number(-0.0), "0");
/// assert_eq!(format_number(0.5), "0.5");
/// assert_eq!(format_number(1e21), "1000000000000000000000");
/// assert_eq!(format_number(f64::NEG_INFINITY), "-Infinity");
/// ```
pub fn format_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_string()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if n == 0.0 {
        "0".to_string()
    } else {
        // `Display` for f64 writes the shortest round-tripping digits, never an exponent.
        n.to_string()
    }
}

/// Variable bindings for [`XPath::evaluate_with`](super::XPath::evaluate_with), by expanded
/// name (namespace URI and local name; a variable without a prefix has URI `""`).
#[derive(Debug, Clone)]
pub struct Variables<N> {
    map: HashMap<(String, String), Value<N>>,
}

impl<N> Default for Variables<N> {
    fn default() -> Self {
        Variables {
            map: HashMap::new(),
        }
    }
}

impl<N> Variables<N> {
    /// No bindings.
    pub fn new() -> Self {
        Variables::default()
    }

    /// Binds the unprefixed variable `$name`.
    pub fn insert(&mut self, name: impl Into<String>, value: Value<N>) {
        self.map.insert((String::new(), name.into()), value);
    }

    /// Binds `$p:local` where `p` is a prefix bound to `uri` at compile time.
    pub fn insert_ns(&mut self, uri: impl Into<String>, local: impl Into<String>, value: Value<N>) {
        self.map.insert((uri.into(), local.into()), value);
    }

    /// Binds `$name` and returns the bindings, for chaining.
    pub fn with(mut self, name: impl Into<String>, value: Value<N>) -> Self {
        self.insert(name, value);
        self
    }

    /// The value bound to `(uri, local)`.
    pub fn get(&self, uri: &str, local: &str) -> Option<&Value<N>> {
        // Lookups are rare (once per reference); a temporary key keeps the map simple.
        self.map.get(&(uri.to_string(), local.to_string()))
    }

    /// Whether there are no bindings.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
