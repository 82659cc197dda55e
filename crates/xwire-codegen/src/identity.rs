//! Rust source for a schema's identity constraints (`xs:unique`, `xs:key`, `xs:keyref`):
//! the static table the runtime's engine (`xwire::bind::identity`) evaluates, and `Key` for
//! the items of simple types, so that the values a field selects compare as the validator
//! compares them. Nothing is written for a schema without identity constraints.
//!
//! The parsers do the rest (`parse.rs`): an element whose declaration has constraints is read
//! inside `identity::scope`, and where a scope is open, attributes give their keys after
//! conversion and elements their values when they end.

use std::fmt::Write;

use xwire_schema::model::{
    ElementId, IdentityKind, NameTest, RestrictedPath, Schema, SimpleTypeId, Variety,
};

use crate::plan::{Item, ItemKind, Origin, Plan, Ty};
use crate::serialize::{call_then, value_ref};

const I: &str = "xwire::bind::identity";

/// Whether the schema has identity constraints: only then is anything written.
pub(crate) fn any(schema: &Schema) -> bool {
    schema.identity_constraints().next().is_some()
}

/// The `IDENTITY` table and the `Key` impls.
pub(crate) fn tables(plan: &Plan, schema: &Schema) -> String {
    let mut o = String::new();
    if !any(schema) {
        return o;
    }
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "/// The schema's identity constraints, by the index elements open them with."
    );
    // One constraint goes on the array's line, as rustfmt puts it.
    let one = schema.identity_constraints().count() == 1;
    let (open, pad) = match one {
        true => (
            format!("static IDENTITY: &[{I}::Constraint] = &[{I}::Constraint {{"),
            "",
        ),
        false => (format!("static IDENTITY: &[{I}::Constraint] = &["), "    "),
    };
    let _ = writeln!(o, "{open}");
    for (_, ic) in schema.identity_constraints() {
        let kind = match ic.kind {
            IdentityKind::Unique => "Unique".to_string(),
            IdentityKind::Key => "Key".to_string(),
            IdentityKind::KeyRef(target) => format!("KeyRef({})", target.index()),
        };
        let selector: Vec<String> = ic.selector.iter().map(|p| path(schema, p)).collect();
        let fields: Vec<String> = ic
            .fields
            .iter()
            .map(|(paths, _)| {
                let alternatives: Vec<String> = paths.iter().map(|p| path(schema, p)).collect();
                alternatives.join("|")
            })
            .collect();
        if !one {
            let _ = writeln!(o, "    {I}::Constraint {{");
        }
        let _ = writeln!(o, "{pad}    name: {:?},", schema.display_name(ic.name));
        let _ = writeln!(o, "{pad}    kind: {I}::Kind::{kind},");
        let _ = writeln!(o, "{pad}    selector: {:?},", selector.join("|"));
        let _ = writeln!(o, "{pad}    fields: {:?},", fields.join(" "));
        if !one {
            let _ = writeln!(o, "    }},");
        }
    }
    let _ = writeln!(o, "{}", if one { "}];" } else { "];" });
    for item in &plan.items {
        key_impl(&mut o, schema, item);
    }
    o
}

/// A path in the form the runtime reads (`xwire::bind::identity::Constraint`): `.`, or
/// steps of expanded names separated by `/`, `.//` first for any descendant, `@` before an
/// attribute step.
fn path(schema: &Schema, p: &RestrictedPath) -> String {
    let mut steps: Vec<String> = p.steps.iter().map(|t| test(schema, t)).collect();
    if let Some(a) = &p.attribute {
        steps.push(format!("@{}", test(schema, a)));
    }
    match (p.descendants, steps.is_empty()) {
        (true, _) => format!(".//{}", steps.join("/")),
        (false, true) => ".".to_string(),
        (false, false) => steps.join("/"),
    }
}

fn test(schema: &Schema, t: &NameTest) -> String {
    let uri = |ns| schema.names().namespace_uri(ns).to_string();
    match t {
        NameTest::Any => "*".to_string(),
        NameTest::Namespace(ns) => format!("{{{}}}*", uri(*ns)),
        NameTest::Name(ns, local) => format!("{{{}}}{}", uri(*ns), &**local),
    }
}

/// `Key` for an item of a simple type: an enumeration by its value (parsed as its base
/// type), a newtype by its inner value, a union by its member's.
fn key_impl(o: &mut String, schema: &Schema, item: &Item) {
    let Origin::SimpleType(st) = item.origin else {
        return;
    };
    let name = &item.name;
    let body = match &item.kind {
        ItemKind::Enumeration { .. } => {
            let b = primitive(schema, st);
            format!("{I}::lexical_key(xwire::datatypes::Builtin::{b:?}, self.as_str())")
        }
        ItemKind::Newtype { inner } => {
            format!("{I}::Key::key({})", value_ref(schema, inner, st, "&self.0"))
        }
        ItemKind::Union { members } => {
            let types = match &schema.simple_type(st).variety {
                Variety::Union(m) => m.clone(),
                _ => Vec::new(),
            };
            let mut m = String::from("match self {\n");
            for (i, (variant, ty)) in members.iter().enumerate() {
                let mst = types.get(i).copied().unwrap_or(st);
                let _ = writeln!(
                    m,
                    "            {name}::{variant}(v) => {I}::Key::key({}),",
                    value_ref(schema, ty, mst, "v")
                );
            }
            m.push_str("        }");
            m
        }
        _ => return,
    };
    let _ = writeln!(o);
    let _ = writeln!(o, "impl {I}::Key for {name} {{");
    let _ = writeln!(o, "    fn key(&self) -> {I}::KeyPart {{");
    let _ = writeln!(o, "        {body}");
    let _ = writeln!(o, "    }}");
    let _ = writeln!(o, "}}");
}

/// The built-in primitive a simple type's values are of (a list's or union's: its own
/// variety is handled by the items' types).
fn primitive(schema: &Schema, st: SimpleTypeId) -> xwire_schema::datatypes::Builtin {
    match &schema.simple_type(st).variety {
        Variety::Atomic(b) => b.primitive(),
        _ => xwire_schema::datatypes::Builtin::String,
    }
}

/// The statement giving the key of `v` (a reference to a value of simple type `st`, held as
/// `ty`) to the element that just ended, when a field waits for it.
pub(crate) fn element_value(
    schema: &Schema,
    ty: &Ty,
    st: SimpleTypeId,
    v: &str,
    pad: &str,
) -> String {
    let key = format!("{I}::Key::key({})", value_ref(schema, ty, st, v));
    let mut o = format!("{pad}if c.identity_value_wanted() {{\n");
    let _ = writeln!(o, "{pad}    let key = {key};");
    let _ = writeln!(o, "{pad}    c.identity_value(Some(key), true)?;");
    let _ = writeln!(o, "{pad}}}");
    o
}

/// The wrapper that opens the scopes of element declaration `element`'s identity
/// constraints (numbered `n`) and reads the element.
pub(crate) fn scope_fn(schema: &Schema, element: ElementId, n: usize) -> String {
    let decl = schema.element(element);
    let ics: Vec<String> = decl
        .identity_constraints
        .iter()
        .map(|i| i.index().to_string())
        .collect();
    let mut o = String::new();
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "/// Reads element `{}` with `read`, the scopes of its identity constraints open.",
        schema.display_name(decl.name)
    );
    let _ = writeln!(o, "fn scope_{n}<Src: xwire::bind::Source, T>(");
    let _ = writeln!(o, "    c: &mut Src,");
    let _ = writeln!(
        o,
        "    read: impl FnOnce(&mut Src) -> Result<T, Src::Error>,"
    );
    let _ = writeln!(o, ") -> Result<T, Src::Error> {{");
    let call = format!("{I}::scope(c, IDENTITY, &[{}], read)", ics.join(", "));
    call_then(&mut o, "    ", &call, "");
    let _ = writeln!(o, "}}");
    o
}
