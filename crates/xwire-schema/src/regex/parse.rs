//! The grammar of XML Schema 1.0 Part 2, appendix F, parsed into a small syntax tree.
//!
//! Everything the grammar does not produce is an error at its byte offset: `(?`, lazy or
//! stacked quantifiers, `{,n}`, backreferences and other unknown escapes, an unescaped `[`
//! inside a class, a `-` in the middle of a class, reversed ranges. `^` and `$` are ordinary
//! characters in XSD.

use super::{blocks, RegexError};

/// A regular expression: alternatives of sequences of pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// `branch ('|' branch)*`; always at least one branch.
    Alt(Vec<Vec<Piece>>),
}

/// `atom quantifier?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    pub atom: Atom,
    pub min: u32,
    /// `None`: unbounded.
    pub max: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Atom {
    Char(char),
    Class(Class),
    Group(Box<Node>),
}

/// The multi-character escapes `\s \i \c \d \w` (their upper-case forms are `negated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Multi {
    Space,
    NameStart,
    NameChar,
    Digit,
    Word,
}

/// A character class: anything that matches exactly one character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class {
    /// `.`: any character but `\n` and `\r`.
    Dot,
    Multi {
        which: Multi,
        negated: bool,
    },
    /// `\p{Lu}`: a general category name (one or two letters).
    Category {
        name: String,
        negated: bool,
    },
    /// `\p{IsBasicLatin}`: a block's ranges.
    Block {
        ranges: &'static [(u32, u32)],
        negated: bool,
    },
    /// `[...]`, `[^...]`, `[...-[...]]`.
    Expr(Box<ClassExpr>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClassExpr {
    pub negated: bool,
    pub items: Vec<ClassItem>,
    pub subtract: Option<Box<ClassExpr>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClassItem {
    Range(char, char),
    Class(Class),
}

/// The general categories of F.1.1.
const CATEGORIES: &[&str] = &[
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc",
    "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Z", "Zs", "Zl", "Zp", "S", "Sm", "Sc", "Sk", "So", "C",
    "Cc", "Cf", "Co", "Cn",
];

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 200;

pub(crate) fn parse(src: &str) -> Result<Node, RegexError> {
    let mut p = Parser {
        src,
        pos: 0,
        depth: 0,
    };
    let node = p.reg_exp()?;
    if p.pos < src.len() {
        // Only an unmatched `)` stops the top-level expression early.
        return Err(p.err("unmatched ')'"));
    }
    Ok(node)
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, msg: impl Into<String>) -> RegexError {
        self.err_at(self.pos, msg)
    }

    fn err_at(&self, pos: usize, msg: impl Into<String>) -> RegexError {
        RegexError {
            position: pos,
            message: msg.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// `regExp ::= branch ('|' branch)*`
    fn reg_exp(&mut self) -> Result<Node, RegexError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("groups nested too deeply"));
        }
        let mut branches = vec![self.branch()?];
        while self.eat('|') {
            branches.push(self.branch()?);
        }
        self.depth -= 1;
        Ok(Node::Alt(branches))
    }

    /// `branch ::= piece*`
    fn branch(&mut self) -> Result<Vec<Piece>, RegexError> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '?' | '*' | '+' => {
                    return Err(if pieces.is_empty() {
                        self.err(format!("quantifier '{c}' with nothing to repeat"))
                    } else {
                        self.err(format!(
                            "quantifier '{c}' cannot follow a quantifier (XSD has no lazy or \
                             possessive quantifiers); escape it as '\\{c}'"
                        ))
                    })
                }
                '{' if !pieces.is_empty() => {
                    return Err(self.err("quantifier '{' cannot follow a quantifier"))
                }
                _ => {}
            }
            let atom = self.atom()?;
            let (min, max) = self.quantifier()?;
            pieces.push(Piece { atom, min, max });
        }
        Ok(pieces)
    }

    /// `quantifier ::= [?*+] | '{' quantity '}'`; returns `(1, Some(1))` when absent.
    fn quantifier(&mut self) -> Result<(u32, Option<u32>), RegexError> {
        let start = self.pos;
        match self.peek() {
            Some('?') => {
                self.bump();
                Ok((0, Some(1)))
            }
            Some('*') => {
                self.bump();
                Ok((0, None))
            }
            Some('+') => {
                self.bump();
                Ok((1, None))
            }
            Some('{') => {
                self.bump();
                let min = self
                    .number()?
                    .ok_or_else(|| self.err("expected a number after '{' ({,n} is not XSD)"))?;
                let max = if self.eat(',') {
                    match self.number()? {
                        Some(m) => {
                            if m < min {
                                return Err(self.err_at(
                                    start,
                                    format!("quantifier {{{min},{m}}}: maximum below minimum"),
                                ));
                            }
                            Some(m)
                        }
                        None => None,
                    }
                } else {
                    Some(min)
                };
                if !self.eat('}') {
                    return Err(self.err("expected '}' to close the quantifier"));
                }
                Ok((min, max))
            }
            _ => Ok((1, Some(1))),
        }
    }

    fn number(&mut self) -> Result<Option<u32>, RegexError> {
        let start = self.pos;
        while let Some('0'..='9') = self.peek() {
            self.bump();
        }
        if start == self.pos {
            return Ok(None);
        }
        self.src[start..self.pos]
            .parse::<u32>()
            .map(Some)
            .map_err(|_| self.err_at(start, "quantity too large"))
    }

    /// `atom ::= Char | charClass | '(' regExp ')'`
    fn atom(&mut self) -> Result<Atom, RegexError> {
        let start = self.pos;
        let c = self.bump().expect("atom() is called before the end");
        match c {
            '(' => {
                if self.peek() == Some('?') {
                    return Err(self.err("'(?' is not XSD: groups cannot have flags or names"));
                }
                let inner = self.reg_exp()?;
                if !self.eat(')') {
                    return Err(self.err_at(start, "unclosed '('"));
                }
                Ok(Atom::Group(Box::new(inner)))
            }
            '.' => Ok(Atom::Class(Class::Dot)),
            '[' => Ok(Atom::Class(Class::Expr(Box::new(
                self.class_expr_body(start)?,
            )))),
            ']' => Err(self.err_at(start, "unescaped ']' outside a character class")),
            '\\' => match self.escape(start)? {
                Esc::Char(c) => Ok(Atom::Char(c)),
                Esc::Class(k) => Ok(Atom::Class(k)),
            },
            c => Ok(Atom::Char(c)),
        }
    }

    /// After `\`: a single-character escape or a class escape.
    fn escape(&mut self, start: usize) -> Result<Esc, RegexError> {
        let Some(c) = self.bump() else {
            return Err(self.err_at(start, "'\\' at the end of the pattern"));
        };
        let multi = |which, negated| Ok(Esc::Class(Class::Multi { which, negated }));
        match c {
            'n' => Ok(Esc::Char('\n')),
            'r' => Ok(Esc::Char('\r')),
            't' => Ok(Esc::Char('\t')),
            '\\' | '|' | '.' | '-' | '^' | '?' | '*' | '+' | '{' | '}' | '(' | ')' | '[' | ']' => {
                Ok(Esc::Char(c))
            }
            's' => multi(Multi::Space, false),
            'S' => multi(Multi::Space, true),
            'i' => multi(Multi::NameStart, false),
            'I' => multi(Multi::NameStart, true),
            'c' => multi(Multi::NameChar, false),
            'C' => multi(Multi::NameChar, true),
            'd' => multi(Multi::Digit, false),
            'D' => multi(Multi::Digit, true),
            'w' => multi(Multi::Word, false),
            'W' => multi(Multi::Word, true),
            'p' | 'P' => self.property(start, c == 'P').map(Esc::Class),
            '0'..='9' => Err(self.err_at(start, "backreferences are not XSD")),
            c => Err(self.err_at(start, format!("unknown escape '\\{c}'"))),
        }
    }

    /// After `\p` or `\P`: `{name}`.
    fn property(&mut self, start: usize, negated: bool) -> Result<Class, RegexError> {
        if !self.eat('{') {
            return Err(self.err("expected '{' after '\\p' or '\\P'"));
        }
        let name_start = self.pos;
        let Some(len) = self.src[name_start..].find('}') else {
            return Err(self.err_at(start, "unclosed '\\p{'"));
        };
        let name = &self.src[name_start..name_start + len];
        self.pos = name_start + len + 1;
        if let Some(block) = name.strip_prefix("Is") {
            match blocks::lookup(block) {
                Some(ranges) => Ok(Class::Block { ranges, negated }),
                None => Err(self.err_at(name_start, format!("unknown block name '{name}'"))),
            }
        } else if CATEGORIES.contains(&name) {
            Ok(Class::Category {
                name: name.to_string(),
                negated,
            })
        } else {
            Err(self.err_at(name_start, format!("unknown category '{name}'")))
        }
    }

    /// After `[`: `charGroup ']'`.
    fn class_expr_body(&mut self, open: usize) -> Result<ClassExpr, RegexError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("character classes nested too deeply"));
        }
        let negated = self.eat('^');
        let mut items = Vec::new();
        let mut subtract = None;
        loop {
            let here = self.pos;
            let Some(c) = self.peek() else {
                return Err(self.err_at(open, "unclosed '['"));
            };
            match c {
                ']' => {
                    if items.is_empty() {
                        return Err(self.err("empty character class"));
                    }
                    self.bump();
                    break;
                }
                '[' => return Err(self.err("'[' must be escaped inside a character class")),
                '-' => {
                    self.bump();
                    match self.peek() {
                        Some('[') => {
                            if items.is_empty() {
                                return Err(self.err_at(here, "nothing to subtract from"));
                            }
                            let sub_open = self.pos;
                            self.bump();
                            subtract = Some(Box::new(self.class_expr_body(sub_open)?));
                            if !self.eat(']') {
                                return Err(self.err(
                                    "a subtraction must be the last thing in its character class",
                                ));
                            }
                            break;
                        }
                        // `-` is an ordinary character first or last in a group.
                        Some(']') => items.push(ClassItem::Range('-', '-')),
                        _ if items.is_empty() => {
                            if self.peek() == Some('-') && self.peek2() != Some('[') {
                                return Err(self.err_at(here, "'--' is not a valid range"));
                            }
                            items.push(ClassItem::Range('-', '-'))
                        }
                        _ => {
                            return Err(self.err_at(
                                here,
                                "'-' must be escaped except first or last in a character class",
                            ))
                        }
                    }
                }
                _ => {
                    self.bump();
                    let first = if c == '\\' {
                        match self.escape(here)? {
                            Esc::Char(c) => c,
                            Esc::Class(k) => {
                                items.push(ClassItem::Class(k));
                                continue;
                            }
                        }
                    } else {
                        c
                    };
                    // A range `s-e` unless the `-` is last or starts a subtraction.
                    if self.peek() == Some('-') && !matches!(self.peek2(), Some(']' | '[') | None) {
                        self.bump();
                        let end_pos = self.pos;
                        let last = match self.bump() {
                            Some('\\') => match self.escape(end_pos)? {
                                Esc::Char(c) => c,
                                Esc::Class(_) => {
                                    return Err(
                                        self.err_at(end_pos, "a class escape cannot end a range")
                                    )
                                }
                            },
                            Some('-' | '[') => {
                                return Err(self
                                    .err_at(end_pos, "'-' or '[' must be escaped to end a range"))
                            }
                            Some(c) => c,
                            None => return Err(self.err_at(open, "unclosed '['")),
                        };
                        if last < first {
                            return Err(
                                self.err_at(here, format!("range {first:?}-{last:?} is reversed"))
                            );
                        }
                        items.push(ClassItem::Range(first, last));
                    } else {
                        items.push(ClassItem::Range(first, first));
                    }
                }
            }
        }
        self.depth -= 1;
        Ok(ClassExpr {
            negated,
            items,
            subtract,
        })
    }
}

enum Esc {
    Char(char),
    Class(Class),
}
