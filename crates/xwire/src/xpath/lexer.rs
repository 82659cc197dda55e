//! The lexical structure of XPath 1.0 (section 3.7), with its disambiguation rules: whether `*`
//! multiplies and an NCName is an operator depends on the preceding token, and what follows an
//! NCName (`(` or `::`) says whether it names a function, node type or axis.

use super::ast::Axis;
use super::error::{XPathError, XPathErrorKind};
use crate::chars::{is_name_char, is_name_start_char};

/// The node types that may precede `(` in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeType {
    Node,
    Text,
    Comment,
    ProcessingInstruction,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    Slash,
    DoubleSlash,
    Pipe,
    Plus,
    Minus,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Mod,
    Div,
    Multiply,
    /// `*` as a name test.
    Star,
    /// `prefix:*`
    NsStar(String),
    /// A QName as a name test.
    Name(Option<String>, String),
    /// A QName followed by `(` that is not a node type.
    Function(Option<String>, String),
    NodeType(NodeType),
    Axis(Axis),
    Literal(String),
    Number(f64),
    Variable(Option<String>, String),
    Eof,
}

impl Tok {
    /// What the token is, for error messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::Dot => "'.'".into(),
            Tok::DotDot => "'..'".into(),
            Tok::At => "'@'".into(),
            Tok::Comma => "','".into(),
            Tok::ColonColon => "'::'".into(),
            Tok::Slash => "'/'".into(),
            Tok::DoubleSlash => "'//'".into(),
            Tok::Pipe => "'|'".into(),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Eq => "'='".into(),
            Tok::Ne => "'!='".into(),
            Tok::Lt => "'<'".into(),
            Tok::Le => "'<='".into(),
            Tok::Gt => "'>'".into(),
            Tok::Ge => "'>='".into(),
            Tok::And => "'and'".into(),
            Tok::Or => "'or'".into(),
            Tok::Mod => "'mod'".into(),
            Tok::Div => "'div'".into(),
            Tok::Multiply => "'*'".into(),
            Tok::Star => "name test '*'".into(),
            Tok::NsStar(p) => format!("name test '{p}:*'"),
            Tok::Name(p, l) => format!("name '{}'", qname(p, l)),
            Tok::Function(p, l) => format!("function '{}'", qname(p, l)),
            Tok::NodeType(_) => "node type test".into(),
            Tok::Axis(a) => format!("axis '{}'", a.name()),
            Tok::Literal(_) => "string literal".into(),
            Tok::Number(_) => "number".into(),
            Tok::Variable(p, l) => format!("variable '${}'", qname(p, l)),
            Tok::Eof => "end of expression".into(),
        }
    }

    /// Whether this token is an `Operator` of the lexical structure.
    fn is_operator(&self) -> bool {
        matches!(
            self,
            Tok::And
                | Tok::Or
                | Tok::Mod
                | Tok::Div
                | Tok::Multiply
                | Tok::Slash
                | Tok::DoubleSlash
                | Tok::Pipe
                | Tok::Plus
                | Tok::Minus
                | Tok::Eq
                | Tok::Ne
                | Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
        )
    }
}

fn qname(p: &Option<String>, l: &str) -> String {
    match p {
        Some(p) => format!("{p}:{l}"),
        None => l.to_string(),
    }
}

/// A token and its byte span in the expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    out: Vec<Token>,
}

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, XPathError> {
    let mut lx = Lexer {
        src,
        pos: 0,
        out: Vec::new(),
    };
    loop {
        lx.skip_ws();
        let start = lx.pos;
        let tok = match lx.peek() {
            None => {
                lx.out.push(Token {
                    tok: Tok::Eof,
                    start,
                    end: start,
                });
                return Ok(lx.out);
            }
            Some(c) => lx.token(c)?,
        };
        lx.out.push(Token {
            tok,
            start,
            end: lx.pos,
        });
    }
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn skip_ws(&mut self) {
        while let Some(c @ (' ' | '\t' | '\r' | '\n')) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    /// Whether a `*` or NCName here is an operator: there is a preceding token and it is not
    /// one of `@ :: ( [ ,` or an operator.
    fn operator_expected(&self) -> bool {
        match self.out.last() {
            None => false,
            Some(t) => {
                !(matches!(
                    t.tok,
                    Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma
                ) || t.tok.is_operator())
            }
        }
    }

    fn err(&self, kind: XPathErrorKind, at: usize, message: String) -> XPathError {
        XPathError::compile(kind, at, message, self.src)
    }

    fn token(&mut self, c: char) -> Result<Tok, XPathError> {
        let start = self.pos;
        let two = |lx: &mut Self, second: char, both: Tok, one: Tok| {
            if lx.peek_at(1) == Some(second) {
                lx.pos += 2;
                both
            } else {
                lx.pos += 1;
                one
            }
        };
        Ok(match c {
            '(' => self.one(Tok::LParen),
            ')' => self.one(Tok::RParen),
            '[' => self.one(Tok::LBracket),
            ']' => self.one(Tok::RBracket),
            '@' => self.one(Tok::At),
            ',' => self.one(Tok::Comma),
            '|' => self.one(Tok::Pipe),
            '+' => self.one(Tok::Plus),
            '-' => self.one(Tok::Minus),
            '=' => self.one(Tok::Eq),
            '/' => two(self, '/', Tok::DoubleSlash, Tok::Slash),
            '<' => two(self, '=', Tok::Le, Tok::Lt),
            '>' => two(self, '=', Tok::Ge, Tok::Gt),
            '!' => {
                if self.peek_at(1) == Some('=') {
                    self.pos += 2;
                    Tok::Ne
                } else {
                    return Err(self.err(
                        XPathErrorKind::UnexpectedToken,
                        start,
                        "expected '!=', found '!'".into(),
                    ));
                }
            }
            ':' => {
                if self.peek_at(1) == Some(':') {
                    self.pos += 2;
                    Tok::ColonColon
                } else {
                    return Err(self.err(
                        XPathErrorKind::UnexpectedToken,
                        start,
                        "unexpected ':' (a QName has no spaces around its colon)".into(),
                    ));
                }
            }
            '.' => match self.peek_at(1) {
                Some('.') => {
                    self.pos += 2;
                    Tok::DotDot
                }
                Some('0'..='9') => self.number(),
                _ => self.one(Tok::Dot),
            },
            '0'..='9' => self.number(),
            '"' | '\'' => {
                let body = self.pos + 1;
                match self.src[body..].find(c) {
                    Some(n) => {
                        self.pos = body + n + 1;
                        Tok::Literal(self.src[body..body + n].to_string())
                    }
                    None => {
                        return Err(self.err(
                            XPathErrorKind::UnterminatedLiteral,
                            start,
                            format!("string literal has no closing {c}"),
                        ))
                    }
                }
            }
            '$' => {
                self.pos += 1;
                match self.peek() {
                    Some(c) if is_ncname_start(c) => {}
                    _ => {
                        return Err(self.err(
                            XPathErrorKind::UnexpectedToken,
                            self.pos,
                            "expected a variable name after '$'".into(),
                        ))
                    }
                }
                let first = self.ncname();
                if self.peek() == Some(':') && self.peek_at(1).is_some_and(is_ncname_start) {
                    self.pos += 1;
                    let local = self.ncname();
                    Tok::Variable(Some(first), local)
                } else {
                    Tok::Variable(None, first)
                }
            }
            '*' => {
                self.pos += 1;
                if self.operator_expected() {
                    Tok::Multiply
                } else {
                    Tok::Star
                }
            }
            c if is_ncname_start(c) => self.name(start)?,
            c => {
                return Err(self.err(
                    XPathErrorKind::UnexpectedToken,
                    start,
                    format!("unexpected character {c:?}"),
                ))
            }
        })
    }

    fn one(&mut self, t: Tok) -> Tok {
        self.pos += 1;
        t
    }

    fn number(&mut self) -> Tok {
        let start = self.pos;
        let b = self.src.as_bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if self.pos < b.len() && b[self.pos] == b'.' {
            self.pos += 1;
            while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                self.pos += 1;
            }
        }
        // An exponent (`1.5e3`, `1E-9`) is an extension, as in libxml2 and XPath 2.0: in XPath
        // 1.0 a number followed by a name other than an operator is a syntax error, so no
        // valid 1.0 expression changes meaning. (`number('1e3')` stays NaN: that is
        // `parse_number`, not the lexer.)
        let mantissa_end = self.pos;
        if self.pos < b.len() && (b[self.pos] | 0x20) == b'e' {
            let mut p = self.pos + 1;
            if p < b.len() && (b[p] == b'+' || b[p] == b'-') {
                p += 1;
            }
            if p < b.len() && b[p].is_ascii_digit() {
                while p < b.len() && b[p].is_ascii_digit() {
                    p += 1;
                }
                self.pos = p;
            }
        }
        // Digits with at most one dot and at least one digit always parse; an overlong number
        // or exponent becomes infinity or zero, as an IEEE 754 reading of it would.
        let mantissa = &self.src[start..mantissa_end];
        let mantissa = mantissa.strip_suffix('.').unwrap_or(mantissa);
        let owned;
        let text = if mantissa_end == self.pos {
            mantissa
        } else {
            owned = format!("{mantissa}{}", &self.src[mantissa_end..self.pos]);
            &owned
        };
        Tok::Number(text.parse().unwrap_or(f64::NAN))
    }

    fn ncname(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if (self.pos == start && is_ncname_start(c)) || (self.pos > start && is_ncname_char(c))
            {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        self.src[start..self.pos].to_string()
    }

    /// Whatever starts with an NCName: an operator name, a name test, a function name, a node
    /// type or an axis name.
    fn name(&mut self, start: usize) -> Result<Tok, XPathError> {
        let first = self.ncname();
        if self.operator_expected() {
            return match first.as_str() {
                "and" => Ok(Tok::And),
                "or" => Ok(Tok::Or),
                "mod" => Ok(Tok::Mod),
                "div" => Ok(Tok::Div),
                _ => Err(self.err(
                    XPathErrorKind::UnexpectedToken,
                    start,
                    format!("expected an operator, found name '{first}'"),
                )),
            };
        }
        let mut prefix = None;
        let mut local = first;
        if self.peek() == Some(':') {
            match self.peek_at(1) {
                Some('*') => {
                    self.pos += 2;
                    return Ok(Tok::NsStar(local));
                }
                Some(c) if is_ncname_start(c) => {
                    self.pos += 1;
                    prefix = Some(local);
                    local = self.ncname();
                }
                _ => {}
            }
        }
        // Look past whitespace for `(` or `::`.
        let rest = self.src[self.pos..].trim_start_matches([' ', '\t', '\r', '\n']);
        if rest.starts_with('(') {
            if prefix.is_none() {
                let nt = match local.as_str() {
                    "node" => Some(NodeType::Node),
                    "text" => Some(NodeType::Text),
                    "comment" => Some(NodeType::Comment),
                    "processing-instruction" => Some(NodeType::ProcessingInstruction),
                    _ => None,
                };
                if let Some(nt) = nt {
                    return Ok(Tok::NodeType(nt));
                }
            }
            return Ok(Tok::Function(prefix, local));
        }
        if rest.starts_with("::") && prefix.is_none() {
            return match Axis::from_name(&local) {
                Some(a) => Ok(Tok::Axis(a)),
                None => Err(self.err(
                    XPathErrorKind::UnknownAxis,
                    start,
                    format!("unknown axis '{local}'"),
                )),
            };
        }
        Ok(Tok::Name(prefix, local))
    }
}

fn is_ncname_start(c: char) -> bool {
    c != ':' && is_name_start_char(c)
}

fn is_ncname_char(c: char) -> bool {
    c != ':' && is_name_char(c)
}
