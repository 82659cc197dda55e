//! Rust source for the serializers of a plan's types: what the parsers read, written back
//! through an `xwire::bind::write::XmlSink` (text or binary XML), formatted as rustfmt would.
//!
//! Items of simple types implement `xwire::bind::write::Lexical`, the others
//! `xwire::bind::write::Content` (attributes, then content); `Document::write` writes the
//! root element around them. What is written reads back to an equal value; the runtime
//! (`xwire::bind::write`) holds the lexical forms. Each namespace gets one prefix for the
//! whole file (`ns1`, `ns2`, ... in the order of their URIs), declared where first used.

use std::collections::BTreeMap;
use std::fmt::Write;

use xwire_schema::datatypes::{Builtin, Value};
use xwire_schema::model::{Schema, SimpleTypeId, Variety};

use crate::parse::{arm, conversion_name, scoped};
use crate::plan::{
    Field, Item, ItemKind, Occurs, Origin, Plan, Prim, Source, Ty, Variant, UNDECLARED,
};

const W: &str = "xwire::bind::write";

/// The XML namespace, whose prefix is always `xml`.
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// The serializers of `plan` (whose types and parsers were written before).
pub(crate) fn serializers(plan: &Plan, schema: &Schema) -> String {
    let mut e = Emitter {
        plan,
        schema,
        names: BTreeMap::new(),
        out: String::new(),
    };
    e.document();
    e.globals();
    for item in &plan.items {
        e.item(item);
    }
    let body = std::mem::take(&mut e.out);
    let mut out = String::new();
    e.name_consts(&mut out);
    out.push_str(&body);
    out
}

struct Emitter<'p> {
    plan: &'p Plan,
    schema: &'p Schema,
    /// Every name written, numbered in order of first use: `NAME_n` constants.
    names: BTreeMap<(String, String), usize>,
    out: String,
}

/// How a value is held, one occurrence: what to write it with.
enum Shape {
    /// A simple value: `Lexical`.
    Simple(SimpleTypeId),
    /// A complex type's value: `Content`.
    Complex,
    /// Owned XML or a document (`Any`), which carries its own name.
    Any,
    /// No content.
    Empty,
}

impl Emitter<'_> {
    /// The constant naming `{ns}local`.
    fn name(&mut self, ns: &str, local: &str) -> String {
        let n = self.names.len();
        let i = *self
            .names
            .entry((ns.to_string(), local.to_string()))
            .or_insert(n);
        format!("NAME_{i}")
    }

    fn name_consts(&self, out: &mut String) {
        // One prefix per namespace for the whole file.
        let mut prefixes = BTreeMap::new();
        for (ns, _) in self.names.keys() {
            if !ns.is_empty() && ns != XML_NS && !prefixes.contains_key(ns) {
                prefixes.insert(ns.clone(), String::new());
            }
        }
        for (i, p) in prefixes.values_mut().enumerate() {
            *p = format!("ns{}", i + 1);
        }
        let mut by_number: Vec<(&(String, String), &usize)> = self.names.iter().collect();
        by_number.sort_by_key(|(_, i)| **i);
        for ((ns, local), i) in by_number {
            let prefix = match ns.as_str() {
                "" => "",
                XML_NS => "xml",
                _ => &prefixes[ns],
            };
            let _ = writeln!(out);
            let _ = writeln!(out, "const NAME_{i}: {W}::Name = {W}::Name {{");
            let _ = writeln!(out, "    ns: {ns:?},");
            let _ = writeln!(out, "    prefix: {prefix:?},");
            let _ = writeln!(out, "    local: {local:?},");
            let _ = writeln!(out, "}};");
        }
    }

    /// The prefix a type name's namespace has in this file (a name constant's).
    fn type_name(&mut self, ns: &str, local: &str) -> String {
        // The constant carries the prefix; the type's own name is its local part.
        self.name(ns, local)
    }

    fn document(&mut self) {
        let plan = self.plan;
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl Document {{");
        let _ = writeln!(
            o,
            "    /// Writes the document to `s`: XML text through `xwire::Writer`, binary XML"
        );
        let _ = writeln!(
            o,
            "    /// through `xwire::binary::BinaryWriter` (numbers stay typed there)."
        );
        sink_signature(&mut o, "    pub fn write", "&self");
        let _ = writeln!(o, "        match self {{");
        for root in &plan.roots {
            let name = self.name(&root.ns, &root.local);
            let shape = self.shape(&root.ty, root.simple);
            let _ = writeln!(o, "            Document::{}(v) => {{", root.name);
            self.occurrence(&mut o, 16, &name, &shape, &root.ty, root.nillable, "v");
            let _ = writeln!(o, "            }}");
        }
        let _ = writeln!(o, "            Document::{UNDECLARED}(v) => v.write(s)?,");
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "        Ok(())");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "    /// The document as XML text (UTF-8, no XML declaration)."
        );
        let _ = writeln!(
            o,
            "    pub fn to_xml(&self) -> Result<String, {W}::WriteError> {{"
        );
        let _ = writeln!(o, "        {W}::to_string(|s| self.write(s))");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
    }

    /// `impl xwire::bind::write::Globals`: how `Any` content writes documents and values
    /// of the named types.
    fn globals(&mut self) {
        let plan = self.plan;
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {W}::Globals for Document {{");
        sink_signature(&mut o, "    fn write_element", "&self");
        let _ = writeln!(o, "        self.write(s)");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o);
        let _ = writeln!(o, "    fn write_typed<S: {W}::XmlSink + ?Sized>(");
        let _ = writeln!(o, "        t: &Typed,");
        // No typed variants: the sink and name go unused.
        let unused = if plan.typed.is_empty() { "_" } else { "" };
        let _ = writeln!(o, "        {unused}s: &mut S,");
        let _ = writeln!(o, "        {unused}name: {W}::Name<'_>,");
        let _ = writeln!(o, "    ) -> Result<(), {W}::WriteError> {{");
        if plan.typed.is_empty() {
            let _ = writeln!(o, "        match *t {{}}");
        } else {
            let _ = writeln!(o, "        match t {{");
            for (ns, local, item) in &plan.typed {
                let variant = &plan.item(*item).name;
                let ty = self.type_name(ns, local);
                let pattern = format!("Typed::{variant}(v)");
                arm(
                    &mut o,
                    "            ",
                    &pattern,
                    &format!("{W}::typed(s, name, {ty}, v)"),
                );
            }
            let _ = writeln!(o, "        }}");
        }
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
    }

    fn item(&mut self, item: &Item) {
        match (&item.origin, &item.kind) {
            (Origin::ComplexType(_) | Origin::Group(_), ItemKind::Struct { fields }) => {
                self.content_struct(item, fields)
            }
            (_, ItemKind::Choice { variants }) => self.content_choice(item, variants),
            (Origin::SimpleType(st), ItemKind::Enumeration { values, .. }) => {
                match scoped(self.schema, *st) {
                    true => self.qname_enumeration(item, *st, values),
                    false => self.enumeration(item, values),
                }
            }
            (Origin::SimpleType(st), ItemKind::Newtype { inner }) => {
                let expr = value_ref(self.schema, inner, *st, "&self.0");
                let mut body = format!("        {W}::Lexical::lexical({expr}, out);\n");
                if matches!(inner, Ty::Prim(Prim::Bool | Prim::F32 | Prim::F64)) {
                    // A pattern facet may ask for the other form (`1`, `1.0E-2`).
                    body = other_form(&conversion_name(*st), &expr);
                }
                let declare = scoped(self.schema, *st)
                    .then(|| format!("        {W}::Lexical::declare({expr}, s)\n"));
                self.lexical_impl_declaring(item, &body, declare.as_deref());
            }
            (Origin::SimpleType(st), ItemKind::Union { members }) => self.union(item, *st, members),
            _ => {}
        }
    }

    fn content_struct(&mut self, item: &Item, fields: &[Field]) {
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {W}::Content for {} {{", item.name);
        sink_signature(&mut o, "    fn write_content", "&self");
        // Attributes first: they belong to the start tag.
        let (attributes, content): (Vec<&Field>, Vec<&Field>) = fields.iter().partition(|f| {
            matches!(
                f.source,
                Source::Attribute { .. } | Source::AnyAttributes(_)
            )
        });
        let mut body = String::new();
        for f in &attributes {
            let place = format!("&self.{}", f.name);
            self.field(&mut body, f, &place);
        }
        // Mixed content: the children through a sink that writes the text between them.
        let mixed = content.iter().find(|f| f.source == Source::Mixed);
        if let Some(f) = mixed {
            // Through `dyn XmlSink`: mixed types that nest make no type that nests.
            let _ = writeln!(body, "        let mut inner = &mut *s;");
            let _ = writeln!(
                body,
                "        let s = &mut {W}::Interleave::new(&mut inner, &self.{});",
                f.name
            );
        }
        for f in &content {
            let place = format!("&self.{}", f.name);
            self.field(&mut body, f, &place);
        }
        if mixed.is_some() {
            let _ = writeln!(body, "        s.finish()?;");
        }
        if body.is_empty() {
            // Nothing to write (no attributes, empty content): the sink goes unused.
            o = o.replace("s: &mut S", "_s: &mut S");
        }
        o.push_str(&body);
        let _ = writeln!(o, "        Ok(())");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
    }

    /// One field: every occurrence of it.
    fn field(&mut self, o: &mut String, f: &Field, place: &str) {
        match &f.source {
            Source::AnyAttributes(_) => {
                let _ = writeln!(o, "        {W}::other_attributes(s, {place})?;");
            }
            Source::Attribute { ns, local, .. } => {
                let name = self.name(ns, local);
                let st = f.simple.expect("an attribute has a simple type");
                self.occurs(o, f.occurs, place, |e, o, pad, v| {
                    let expr = value_ref(e.schema, &f.ty, st, v);
                    let _ = writeln!(o, "{pad}{W}::attribute(s, {name}, {expr})?;");
                });
            }
            Source::Text => {
                let st = f.simple.expect("simple content has a simple type");
                let expr = value_ref(self.schema, &f.ty, st, place);
                if scoped(self.schema, st) {
                    // The prefixes of its QNames, while the start tag is open.
                    let _ = writeln!(o, "        {W}::Lexical::declare({expr}, s)?;");
                }
                let _ = writeln!(o, "        {W}::Lexical::write_text({expr}, s)?;");
            }
            _ => self.particle(o, &f.source, &f.ty, f.simple, f.occurs, place),
        }
    }

    /// A field or variant of content: child elements.
    fn particle(
        &mut self,
        o: &mut String,
        source: &Source,
        ty: &Ty,
        simple: Option<SimpleTypeId>,
        occurs: Occurs,
        place: &str,
    ) {
        match source {
            Source::Element {
                ns,
                local,
                nillable,
                ..
            } => {
                let name = self.name(ns, local);
                let shape = self.shape(ty, simple);
                self.occurs(o, occurs, place, |e, o, pad, v| {
                    let indent = pad.len();
                    e.occurrence(o, indent, &name, &shape, ty, *nillable, v);
                });
            }
            Source::Group => self.occurs(o, occurs, place, |_, o, pad, v| {
                let _ = writeln!(o, "{pad}{W}::Content::write_content({v}, s)?;");
            }),
            Source::AnyElement(_) => self.occurs(o, occurs, place, |_, o, pad, v| {
                let _ = writeln!(o, "{pad}{v}.write(s)?;");
            }),
            // Mixed content's text goes between the children (`content_struct`).
            _ => {}
        }
    }

    /// Runs `one` for each occurrence of `place` (a reference), with the reference to it.
    fn occurs(
        &mut self,
        o: &mut String,
        occurs: Occurs,
        place: &str,
        one: impl FnOnce(&mut Self, &mut String, &str, &str),
    ) {
        let pad = "        ";
        match occurs {
            Occurs::One => one(self, o, pad, place),
            Occurs::Optional => {
                let _ = writeln!(o, "{pad}if let Some(v) = {place} {{");
                one(self, o, &format!("{pad}    "), "v");
                let _ = writeln!(o, "{pad}}}");
            }
            Occurs::Many { .. } => {
                let _ = writeln!(o, "{pad}for v in {place} {{");
                one(self, o, &format!("{pad}    "), "v");
                let _ = writeln!(o, "{pad}}}");
            }
        }
    }

    /// One element `name` holding the value `v` refers to.
    #[allow(clippy::too_many_arguments)]
    fn occurrence(
        &mut self,
        o: &mut String,
        indent: usize,
        name: &str,
        shape: &Shape,
        ty: &Ty,
        nillable: bool,
        v: &str,
    ) {
        let pad = " ".repeat(indent);
        let call = match (shape, nillable) {
            (Shape::Simple(st), false) => {
                format!(
                    "{W}::simple(s, {name}, {})?;",
                    value_ref(self.schema, ty, *st, v)
                )
            }
            (Shape::Complex, false) => format!("{W}::element(s, {name}, {v})?;"),
            (Shape::Empty, false) => format!("{W}::empty(s, {name})?;"),
            (Shape::Any, false) => format!("{v}.write(s)?;"),
            (shape, true) => {
                // The closure writes the value when the element is not nil.
                let f = match shape {
                    Shape::Simple(st) => match value_ref(self.schema, ty, *st, "v") {
                        arg if arg == "v" => format!("{W}::simple"),
                        arg => format!("|s, n, v| {W}::simple(s, n, {arg})"),
                    },
                    Shape::Complex => format!("{W}::element"),
                    Shape::Empty => format!("|s, n, _| {W}::empty(s, n)"),
                    Shape::Any => "|s, _, v| v.write(s)".to_string(),
                };
                format!("{W}::nillable(s, {name}, {v}, {f})?;")
            }
        };
        call_line(o, &pad, &call);
    }

    fn shape(&self, ty: &Ty, simple: Option<SimpleTypeId>) -> Shape {
        match (simple, ty) {
            (Some(st), _) => Shape::Simple(st),
            (None, Ty::Prim(Prim::Any | Prim::AnyElement)) => Shape::Any,
            (None, Ty::Prim(Prim::Unit)) => Shape::Empty,
            _ => Shape::Complex,
        }
    }

    /// `impl Lexical` with `body` (written at eight columns) as `lexical`.
    fn lexical_impl(&mut self, item: &Item, body: &str) {
        self.lexical_impl_declaring(item, body, None);
    }

    /// `impl Lexical` with `body` as `lexical` and `declare` (eight columns) as `declare`:
    /// the prefixes of a value that holds QNames.
    fn lexical_impl_declaring(&mut self, item: &Item, body: &str, declare: Option<&str>) {
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {W}::Lexical for {} {{", item.name);
        let _ = writeln!(o, "    fn lexical(&self, out: &mut String) {{");
        o.push_str(body);
        let _ = writeln!(o, "    }}");
        if let Some(declare) = declare {
            let _ = writeln!(o);
            sink_signature(&mut o, "    fn declare", "&self");
            o.push_str(declare);
            let _ = writeln!(o, "    }}");
        }
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
    }

    /// An enumeration of QNames: each value written as the schema wrote it, its prefix
    /// declared as the schema bound it.
    fn qname_enumeration(&mut self, item: &Item, st: SimpleTypeId, values: &[(String, String)]) {
        let facet = self.schema.simple_type(st).facets.enumeration.clone();
        let mut body = String::from("        out.push_str(match self {\n");
        let mut declare = String::from("        match self {\n");
        for ((variant, _), (value, _)) in values.iter().zip(facet.iter().flatten()) {
            let pattern = format!("{}::{variant}", item.name);
            let Value::QName {
                namespace,
                prefix,
                local,
            } = value
            else {
                continue;
            };
            let (lexical, call) = match (namespace.is_empty(), prefix.is_empty()) {
                (true, _) => (local.clone(), "s.namespace(None, \"\")".to_string()),
                (false, true) => (local.clone(), format!("s.namespace(None, {namespace:?})")),
                (false, false) => (
                    format!("{prefix}:{local}"),
                    format!("s.namespace(Some({prefix:?}), {namespace:?})"),
                ),
            };
            arm(&mut body, "            ", &pattern, &format!("{lexical:?}"));
            arm(&mut declare, "            ", &pattern, &call);
        }
        body.push_str("        });\n");
        declare.push_str("        }\n");
        self.lexical_impl_declaring(item, &body, Some(&declare));
    }

    fn enumeration(&mut self, item: &Item, values: &[(String, String)]) {
        let mut body = String::from("        out.push_str(match self {\n");
        for (variant, value) in values {
            let pattern = format!("{}::{variant}", item.name);
            arm(&mut body, "            ", &pattern, &format!("{value:?}"));
        }
        body.push_str("        });\n");
        self.lexical_impl(item, &body);
    }

    fn union(&mut self, item: &Item, st: SimpleTypeId, members: &[(String, Ty)]) {
        let member_types = match &self.schema.simple_type(st).variety {
            Variety::Union(m) => m.clone(),
            _ => Vec::new(),
        };
        let mut body = String::from("        match self {\n");
        let mut declare = body.clone();
        for (i, (variant, ty)) in members.iter().enumerate() {
            let mst = member_types.get(i).copied().unwrap_or(st);
            let expr = value_ref(self.schema, ty, mst, "v");
            let pattern = format!("{}::{variant}(v)", item.name);
            let value = format!("{W}::Lexical::lexical({expr}, out)");
            arm(&mut body, "            ", &pattern, &value);
            let value = format!("{W}::Lexical::declare({expr}, s)");
            arm(&mut declare, "            ", &pattern, &value);
        }
        body.push_str("        }\n");
        declare.push_str("        }\n");
        let declare = scoped(self.schema, st).then_some(declare.as_str());
        self.lexical_impl_declaring(item, &body, declare);
    }

    fn content_choice(&mut self, item: &Item, variants: &[Variant]) {
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {W}::Content for {} {{", item.name);
        if variants.is_empty() {
            // A choice of nothing has no values to write.
            sink_signature(&mut o, "    fn write_content", "&self");
            o = o.replace("s: &mut S", "_s: &mut S");
            let _ = writeln!(o, "        match *self {{}}");
            let _ = writeln!(o, "    }}");
            let _ = writeln!(o, "}}");
            self.out.push_str(&o);
            return;
        }
        sink_signature(&mut o, "    fn write_content", "&self");
        let _ = writeln!(o, "        match self {{");
        for v in variants {
            let _ = writeln!(o, "            {}::{}(v) => {{", item.name, v.name);
            let mut inner = String::new();
            match &v.source {
                Source::XsiType {
                    ns,
                    local,
                    declared,
                } => {
                    if !declared {
                        let ty = self.type_name(ns, local);
                        let _ = writeln!(inner, "        {W}::xsi_type(s, {ty})?;");
                    }
                    let _ = writeln!(inner, "        {W}::Content::write_content(v, s)?;");
                }
                source => self.particle(&mut inner, source, &v.ty, v.simple, v.occurs, "v"),
            }
            for line in inner.lines() {
                let _ = writeln!(o, "        {line}");
            }
            let _ = writeln!(o, "            }}");
        }
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "        Ok(())");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
    }
}

/// An expression that is a reference to the value `r` refers to, of simple type `st` held as
/// `ty`, as something that implements `Lexical` and `identity::Key`: bytes wrapped in `Hex`
/// or `Base64` by their type, lists in `List`.
pub(crate) fn value_ref(schema: &Schema, ty: &Ty, st: SimpleTypeId, r: &str) -> String {
    match ty {
        Ty::Prim(Prim::Bytes) => format!("&{W}::{}({r})", bytes(schema, st)),
        Ty::List(inner) => match **inner {
            Ty::Prim(Prim::Bytes) => {
                let item = match &schema.simple_type(st).variety {
                    Variety::List(item) => *item,
                    _ => st,
                };
                format!(
                    "&{W}::List(&{r}.iter().map(|b| {W}::{}(b)).collect::<Vec<_>>())",
                    bytes(schema, item)
                )
            }
            _ => format!("&{W}::List({r})"),
        },
        _ => r.to_string(),
    }
}

/// `Hex` or `Base64`: how bytes of `st` are written.
fn bytes(schema: &Schema, st: SimpleTypeId) -> &'static str {
    let mut t = st;
    loop {
        match &schema.simple_type(t).variety {
            Variety::Atomic(b) if b.primitive() == Builtin::HexBinary => return "Hex",
            Variety::List(item) => t = *item,
            _ => return "Base64",
        }
    }
}

/// The body of a newtype's `lexical` that writes its value's other form when the type's own
/// conversion (`conv`, its facets) rejects the first.
fn other_form(conv: &str, expr: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "        let start = out.len();");
    let _ = writeln!(o, "        {W}::Lexical::lexical({expr}, out);");
    let _ = writeln!(o, "        if {conv}(&out[start..]).is_err() {{");
    let _ = writeln!(o, "            let mut other = String::new();");
    let _ = writeln!(
        o,
        "            let some = {W}::Lexical::other_form({expr}, &mut other);"
    );
    let _ = writeln!(o, "            if some && {conv}(&other).is_ok() {{");
    let _ = writeln!(o, "                out.truncate(start);");
    let _ = writeln!(o, "                out.push_str(&other);");
    let _ = writeln!(o, "            }}");
    let _ = writeln!(o, "        }}");
    o
}

/// A call statement (`callee(args)?;`), broken one argument a line where rustfmt would.
pub(crate) fn call_line(o: &mut String, pad: &str, call: &str) {
    let call = call.strip_suffix("?;").expect("a call statement");
    call_then(o, pad, call, "?;");
}

/// The call `callee(args)` followed by `tail`, broken one argument a line where rustfmt
/// would.
pub(crate) fn call_then(o: &mut String, pad: &str, call: &str, tail: &str) {
    if pad.len() + call.len() + tail.len() <= 100 {
        let _ = writeln!(o, "{pad}{call}{tail}");
        return;
    }
    let open = call.find('(').expect("a call");
    let args = &call[open + 1..call.len() - 1];
    let _ = writeln!(o, "{pad}{}(", &call[..open]);
    for a in split_args(args) {
        let _ = writeln!(o, "{pad}    {a},");
    }
    let _ = writeln!(o, "{pad}){tail}");
}

/// The top-level arguments of a call, split at commas outside brackets and closures' bars.
fn split_args(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut bars, mut start) = (0i32, 0, 0);
    for (i, c) in args.char_indices() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            '|' => bars += 1,
            ',' if depth == 0 && bars % 2 == 0 => {
                out.push(args[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(args[start..].trim());
    out
}

/// The first line of a function taking `self_` and a sink `s`, broken as rustfmt would.
fn sink_signature(o: &mut String, head: &str, self_: &str) {
    let generics = format!("<S: {W}::XmlSink + ?Sized>");
    let ret = format!("Result<(), {W}::WriteError>");
    let line = format!("{head}{generics}({self_}, s: &mut S) -> {ret} {{");
    if line.len() <= 100 {
        let _ = writeln!(o, "{line}");
        return;
    }
    let indent = head.len() - head.trim_start().len();
    let pad = " ".repeat(indent);
    let _ = writeln!(o, "{head}{generics}(");
    let _ = writeln!(o, "{pad}    {self_},");
    let _ = writeln!(o, "{pad}    s: &mut S,");
    let _ = writeln!(o, "{pad}) -> {ret} {{");
}
