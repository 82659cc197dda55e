//! Rust names for XML names: `UpperCamelCase` types and variants, `snake_case` fields, raw
//! identifiers for keywords, and numbered suffixes where two would collide.

use std::collections::HashSet;

/// The words Rust reserves: a field named after one is written as a raw identifier.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Keywords that cannot be raw identifiers: these take a trailing underscore.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The words of an XML name: split at characters Rust names cannot hold and where lower case
/// meets upper case (`purchaseOrder` -> purchase, Order), keeping acronyms whole
/// (`USAddress` -> US, Address; `USPrice` -> US, Price).
fn words(xml: &str) -> Vec<String> {
    let mut words = Vec::new();
    for part in xml.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                None => false,
                Some(p) => {
                    (p.is_lowercase() || p.is_numeric()) && c.is_uppercase()
                        || p.is_uppercase()
                            && c.is_uppercase()
                            && next.is_some_and(|n| n.is_lowercase())
                }
            };
            if boundary && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c);
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// A type or variant name: `purchaseOrder` -> `PurchaseOrder`, `USAddress` -> `UsAddress`,
/// `SKU` -> `Sku`, `2nd-item` -> `_2ndItem`.
pub(crate) fn type_name(xml: &str) -> String {
    let mut out = String::new();
    for w in words(xml) {
        let mut cs = w.chars();
        if let Some(first) = cs.next() {
            out.extend(first.to_uppercase());
            out.extend(cs.flat_map(char::to_lowercase));
        }
    }
    let name = finish(out, "Value");
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// A field name: `shipTo` -> `ship_to`, `USPrice` -> `us_price`, `type` -> `r#type`.
pub(crate) fn field_name(xml: &str) -> String {
    let joined = words(xml)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    let name = finish(joined, "value");
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else {
        name
    }
}

/// A name that is a Rust identifier: not empty, not starting with a digit, ASCII (the other
/// letters XML allows become their code points).
fn finish(name: String, empty: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            out.push_str(&format!("U{:04X}", c as u32));
        }
    }
    if out.is_empty() {
        return empty.to_string();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// The names taken in one scope (the items of a plan, the fields of a struct).
#[derive(Default)]
pub(crate) struct Taken {
    names: HashSet<String>,
}

/// Names generated code uses unqualified (the prelude's types and variants, the document
/// enum, and `Src`, the readers' type parameter): an item named so would shadow them.
const RESERVED_TYPES: &[&str] = &[
    "Box", "Document", "Err", "None", "Ok", "Option", "Result", "Some", "Src", "String", "Typed",
    "Vec",
];

impl Taken {
    /// The scope of a plan's item names, with the names generated code relies on taken.
    pub(crate) fn items() -> Taken {
        Taken {
            names: RESERVED_TYPES.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// `name`, or `name2`, `name3`, ... if it is taken; marked taken.
    pub(crate) fn take(&mut self, name: &str) -> String {
        let mut candidate = name.to_string();
        let mut n = 2;
        while self.names.contains(&candidate) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        self.names.insert(candidate.clone());
        candidate
    }

    /// A field name: as [`Taken::take`], the suffix after an underscore.
    pub(crate) fn take_field(&mut self, name: &str) -> String {
        let mut candidate = name.to_string();
        let mut n = 2;
        while self.names.contains(&candidate) {
            candidate = format!("{}_{n}", name.trim_start_matches("r#"));
            n += 1;
        }
        self.names.insert(candidate.clone());
        candidate
    }

    /// Whether `name` is taken.
    pub(crate) fn is_taken(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_names_become_rust_names() {
        for (xml, ty, field) in [
            ("purchaseOrder", "PurchaseOrder", "purchase_order"),
            ("USAddress", "UsAddress", "us_address"),
            ("USPrice", "UsPrice", "us_price"),
            ("SKU", "Sku", "sku"),
            ("partNum", "PartNum", "part_num"),
            ("ship-to.address", "ShipToAddress", "ship_to_address"),
            ("item2Count", "Item2Count", "item2_count"),
            ("type", "Type", "r#type"),
            ("self", "Self_", "self_"),
            ("2nd", "_2nd", "_2nd"),
            ("größe", "GrU00F6U00DFe", "grU00F6U00DFe"),
        ] {
            assert_eq!(type_name(xml), ty, "{xml}");
            assert_eq!(field_name(xml), field, "{xml}");
        }
    }

    #[test]
    fn taken_names_get_a_number() {
        let mut t = Taken::default();
        assert_eq!(t.take("Item"), "Item");
        assert_eq!(t.take("Item"), "Item2");
        assert_eq!(t.take("Item"), "Item3");
        let mut f = Taken::default();
        assert_eq!(f.take_field("r#type"), "r#type");
        assert_eq!(f.take_field("r#type"), "type_2");
    }
}
