//! The syntax tree of `parse` written in the syntax of the `regex` crate.
//!
//! Every class becomes a bracket expression, so classes nest (`[[a-z]--[aeiou]]`) and negate
//! (`[^...]`) without any text of the XSD pattern being reused.

use super::parse::{Atom, Class, ClassExpr, ClassItem, Multi, Node, Piece};
use std::fmt::Write;

/// `NameStartChar` of XML 1.0 Fifth Edition (as `xwire::chars::is_name_start_char`).
const NAME_START: &[(u32, u32)] = &[
    (0x3A, 0x3A),
    (0x41, 0x5A),
    (0x5F, 0x5F),
    (0x61, 0x7A),
    (0xC0, 0xD6),
    (0xD8, 0xF6),
    (0xF8, 0x2FF),
    (0x370, 0x37D),
    (0x37F, 0x1FFF),
    (0x200C, 0x200D),
    (0x2070, 0x218F),
    (0x2C00, 0x2FEF),
    (0x3001, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFFD),
    (0x10000, 0xEFFFF),
];

/// What `NameChar` adds to `NameStartChar`.
const NAME_EXTRA: &[(u32, u32)] = &[
    (0x2D, 0x2E),
    (0x30, 0x39),
    (0xB7, 0xB7),
    (0x300, 0x36F),
    (0x203F, 0x2040),
];

pub(crate) fn translate(node: &Node) -> String {
    let mut out = String::from(r"\A(?:");
    write_node(&mut out, node);
    out.push_str(r")\z");
    out
}

fn write_node(out: &mut String, node: &Node) {
    let Node::Alt(branches) = node;
    for (i, branch) in branches.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        for piece in branch {
            write_piece(out, piece);
        }
    }
}

fn write_piece(out: &mut String, piece: &Piece) {
    match &piece.atom {
        Atom::Char(c) => write_char(out, *c),
        Atom::Class(k) => write_class(out, k),
        Atom::Group(inner) => {
            out.push_str("(?:");
            write_node(out, inner);
            out.push(')');
        }
    }
    match (piece.min, piece.max) {
        (1, Some(1)) => {}
        (0, Some(1)) => out.push('?'),
        (0, None) => out.push('*'),
        (1, None) => out.push('+'),
        (n, None) => {
            let _ = write!(out, "{{{n},}}");
        }
        (n, Some(m)) if n == m => {
            let _ = write!(out, "{{{n}}}");
        }
        (n, Some(m)) => {
            let _ = write!(out, "{{{n},{m}}}");
        }
    }
}

fn write_char(out: &mut String, c: char) {
    let _ = write!(out, "\\x{{{:X}}}", c as u32);
}

fn write_range(out: &mut String, lo: u32, hi: u32) {
    if lo == hi {
        let _ = write!(out, "\\x{{{lo:X}}}");
    } else {
        let _ = write!(out, "\\x{{{lo:X}}}-\\x{{{hi:X}}}");
    }
}

/// A bracket expression of `ranges`, negated or not; an empty set matches nothing.
fn write_ranges(out: &mut String, ranges: &[(u32, u32)], negated: bool) {
    if ranges.is_empty() {
        // `[^\x{0}-\x{10FFFF}]` is the empty class; its negation is every character.
        out.push_str(if negated {
            r"[\x{0}-\x{10FFFF}]"
        } else {
            r"[^\x{0}-\x{10FFFF}]"
        });
        return;
    }
    out.push_str(if negated { "[^" } else { "[" });
    for &(lo, hi) in ranges {
        write_range(out, lo, hi);
    }
    out.push(']');
}

/// Writes `class` as one bracket expression.
fn write_class(out: &mut String, class: &Class) {
    match class {
        Class::Dot => out.push_str(r"[^\n\r]"),
        Class::Multi { which, negated } => {
            let neg = if *negated { "^" } else { "" };
            match which {
                Multi::Space => {
                    let _ = write!(out, r"[{neg}\t\n\r ]");
                }
                Multi::NameStart => write_ranges(out, NAME_START, *negated),
                Multi::NameChar => {
                    out.push_str(if *negated { "[^" } else { "[" });
                    for &(lo, hi) in NAME_START.iter().chain(NAME_EXTRA) {
                        write_range(out, lo, hi);
                    }
                    out.push(']');
                }
                Multi::Digit => {
                    let _ = write!(out, r"[{neg}\p{{Nd}}]");
                }
                // `\w` is `[#x0000-#x10FFFF]-[\p{P}\p{Z}\p{C}]`.
                Multi::Word => {
                    let neg = if *negated { "" } else { "^" };
                    let _ = write!(out, r"[{neg}\p{{P}}\p{{Z}}\p{{C}}]");
                }
            }
        }
        Class::Category { name, negated } => {
            let neg = if *negated { "^" } else { "" };
            let _ = write!(out, r"[{neg}\p{{{name}}}]");
        }
        Class::Block { ranges, negated } => write_ranges(out, ranges, *negated),
        Class::Expr(expr) => write_expr(out, expr),
    }
}

fn write_expr(out: &mut String, expr: &ClassExpr) {
    if expr.subtract.is_some() {
        out.push('[');
    }
    out.push_str(if expr.negated { "[^" } else { "[" });
    for item in &expr.items {
        match item {
            ClassItem::Range(lo, hi) => write_range(out, *lo as u32, *hi as u32),
            ClassItem::Class(k) => write_class(out, k),
        }
    }
    out.push(']');
    if let Some(sub) = &expr.subtract {
        out.push_str("--");
        write_expr(out, sub);
        out.push(']');
    }
}
