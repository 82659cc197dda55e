//! Rust source for the parsers of a plan's types: recursive descent over an
//! `xwire::bind::Cursor`, one function per struct and per model group, one conversion per
//! simple type, checking the schema as it reads (content models by greedy matching, which the
//! Unique Particle Attribution constraint makes exact; attributes required, allowed, default
//! and fixed; values by their built-ins and facets).
//!
//! What the parsers do not handle yet is refused when the code is generated, naming the
//! construct ([`Unsupported`]): an `xs:all` that is not the whole content (or, optional,
//! holds more than elements), default and fixed values of QNames, and nillable elements of
//! abstract types. Mixed content is element-only content whose source keeps the text
//! between the children (`c.mixed(keep)` before them, `c.mixed_text()` after the end tag). A value that holds QNames converts with
//! the namespace bindings the reader takes at its element's start tag
//! (`let scope = &c.bindings();`, passed as the conversion's second argument). Wildcards and
//! `xs:anyType` content are read by the runtime (`xwire::bind::Wildcard`, `AnyElement`),
//! which reaches the schema's global declarations through the generated
//! `impl xwire::bind::Globals for Document`.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;

use xwire_schema::datatypes::{has_restricted_form, Builtin, Value};
use xwire_schema::model::{
    ComplexTypeId, Compositor, ContentType, DerivationSet, ElementId, Facets, NameId,
    NamespaceConstraint, NamespaceId, Particle, ProcessContents, Schema, SimpleTypeId, Term,
    TypeId, Variety, Wildcard,
};

use crate::identity;
use crate::plan::{
    names, Field, IntType, Item, ItemId, ItemKind, Occurs, Origin, Plan, Prim, Source,
    TemporalKind, Ty, Variant, UNDECLARED,
};

/// A construct the parsers cannot read yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

type R<T> = Result<T, Unsupported>;

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Unsupported(what.into()))
}

const B: &str = "xwire::bind";

/// The XML Schema namespace, where the built-in types are.
const XS: &str = "http://www.w3.org/2001/XMLSchema";

/// The XML Schema instance namespace, whose attributes the runtime reads itself.
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// `Document::from_slice_any_type`: the typed objects' baseline ([`crate::Api::AnyType`]).
pub(crate) const ANY_TYPE: &str = "
impl Document {
    /// Reads a document with its root taken as `xs:anyType`: its content assessed laxly
    /// (elements with global declarations, and `xsi:type`s naming complex types, read as the
    /// schema's types), the rest kept as XML. The baseline that shows what the schema buys.
    pub fn from_slice_any_type(
        bytes: &[u8],
    ) -> Result<xwire::bind::Any<Document>, xwire::bind::Error> {
        xwire::bind::Any::from_slice_any_type(bytes)
    }
}
";

/// The parsers of `plan` (whose types `emit::types` wrote).
/// With `validate`, the validate-only readers too (`Document::validate`, `Type::check`),
/// and with `events` the event readers (`Document::events`, `Type::events`), which share
/// the object readers' conversions and element readers.
pub(crate) fn parsers(plan: &Plan, schema: &Schema, validate: bool, events: bool) -> R<String> {
    let mut e = Emitter::new(plan, schema);
    e.document()?;
    for (i, item) in plan.items.iter().enumerate() {
        e.item(ItemId(i), item)?;
    }
    if validate {
        e.check = true;
        e.check_document()?;
        for (i, item) in plan.items.iter().enumerate() {
            e.item(ItemId(i), item)?;
        }
        e.check = false;
    }
    if events {
        (e.check, e.events) = (true, true);
        e.events_document()?;
        for (i, item) in plan.items.iter().enumerate() {
            e.item(ItemId(i), item)?;
        }
        (e.check, e.events) = (false, false);
    }
    let mut out = std::mem::take(&mut e.out);
    // The element readers first: they name the conversions of the types `xsi:type` may name.
    let mut elems = String::new();
    let typed: BTreeSet<(SimpleTypeId, bool)> = (e.elements.iter())
        .chain(&e.event_elements)
        .chain(&e.light_elements)
        .chain(&e.light_event_elements)
        .map(|&(st, _, b)| (st, b))
        .collect();
    for &(st, blocked) in &typed {
        e.xsi_types(&mut elems, st, blocked)?;
    }
    let sets = [
        (&e.elements, false, false),
        (&e.event_elements, true, false),
        (&e.light_elements, false, true),
        (&e.light_event_elements, true, true),
    ];
    let readers: Vec<(Vec<_>, bool, bool)> = sets
        .into_iter()
        .map(|(set, events, light)| (set.iter().copied().collect(), events, light))
        .collect();
    for (elements, events, light) in readers {
        for (st, constraint, blocked) in elements {
            e.element_reader_fn(&mut elems, st, constraint, blocked, events, light)?;
        }
    }
    let mut done = BTreeSet::new();
    let mut queue: Vec<SimpleTypeId> = e.conversions.iter().rev().copied().collect();
    let mut convs = String::new();
    while let Some(st) = queue.pop() {
        if !done.insert(st) {
            continue;
        }
        // A conversion may call others (a list's items, a union's members).
        let mut inner = Emitter::new(plan, schema);
        let code = inner.conversion(st)?;
        convs.push_str(&code);
        e.statics.push_str(&inner.statics);
        queue.extend(inner.conversions.iter().copied());
    }
    out.push_str(&convs);
    out.push_str(&elems);
    for &el in &e.scopes {
        out.push_str(&identity::scope_fn(schema, el, el.index()));
    }
    out.push_str(&e.statics);
    Ok(out)
}

/// An element declaration's value constraint, as its element reader takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Constraint {
    None,
    Default,
    Fixed,
}

/// The reader of an element of simple type `st` with a value constraint of kind `k`, whose
/// declaration blocks restriction or not (`xsi:type` may then name only `st`).
fn element_reader(st: SimpleTypeId, k: Constraint, blocked: bool) -> String {
    let own = if blocked { "_own_type" } else { "" };
    match k {
        Constraint::None => format!("element_{}{own}", st.index()),
        Constraint::Default => format!("element_{}{own}_or_default", st.index()),
        Constraint::Fixed => format!("element_{}{own}_fixed", st.index()),
    }
}

/// `xsi_type_N`: the types `xsi:type` may name on an element of simple type `st`.
fn xsi_type_fn(st: SimpleTypeId, blocked: bool) -> String {
    let own = if blocked { "_own_type" } else { "" };
    format!("xsi_type_{}{own}", st.index())
}

/// Whether an element of `block` may name only its own simple type with `xsi:type` (simple
/// types derive by restriction alone).
fn restriction_blocked(block: DerivationSet) -> bool {
    block.contains(DerivationSet::RESTRICTION)
}

struct Emitter<'p> {
    plan: &'p Plan,
    schema: &'p Schema,
    out: String,
    /// The simple types whose conversion functions the code calls.
    conversions: BTreeSet<SimpleTypeId>,
    /// The simple types of elements (and the kind of their value constraint), whose element
    /// readers the code calls.
    elements: BTreeSet<(SimpleTypeId, Constraint, bool)>,
    /// The pattern tables and wildcards.
    statics: String,
    /// The wildcards of `statics`, by their place in it.
    wildcards: Vec<Wildcard>,
    /// The element names of `statics` (`EXPECT_N`, for `Source::child_expecting`), by their
    /// place in it.
    names: Vec<(String, String)>,
    /// The struct items some nillable element has: they get a `read_nil`.
    nil_items: HashSet<ItemId>,
    /// The element declarations with identity constraints read: each gets a `scope_N`.
    scopes: BTreeSet<ElementId>,
    /// Writing the validate-only readers (`check`: nothing built) rather than the object
    /// readers (`read`).
    check: bool,
    /// Writing the event readers (`events`: nothing built, the content given to a handler);
    /// `check` is set too.
    events: bool,
    /// The element readers of the event readers, as `elements`.
    event_elements: BTreeSet<(SimpleTypeId, Constraint, bool)>,
    /// The element readers of the validate-only and event readers whose values need nothing
    /// built (`check_element_N`, `events_check_element_N`): strings, decimals, floats and
    /// doubles without facets, checked by `bind::value::check_string`, `check_decimal`, ...
    light_elements: BTreeSet<(SimpleTypeId, Constraint, bool)>,
    light_event_elements: BTreeSet<(SimpleTypeId, Constraint, bool)>,
    /// How far the code being written will be indented (4 inside an `impl`).
    indent: usize,
    /// The items of optional `all` groups (a complex type's whole content, `minOccurs="0"`):
    /// read in any order from whichever of their elements comes first.
    all_groups: HashSet<ItemId>,
    /// Some complex type has mixed content: event readers give the text kept before each
    /// child element (`Source::mixed_flush`).
    has_mixed: bool,
}

impl<'p> Emitter<'p> {
    fn new(plan: &'p Plan, schema: &'p Schema) -> Emitter<'p> {
        Emitter {
            plan,
            schema,
            out: String::new(),
            conversions: BTreeSet::new(),
            elements: BTreeSet::new(),
            statics: String::new(),
            wildcards: Vec::new(),
            names: Vec::new(),
            nil_items: nil_items(plan, schema),
            scopes: BTreeSet::new(),
            check: false,
            events: false,
            event_elements: BTreeSet::new(),
            light_elements: BTreeSet::new(),
            light_event_elements: BTreeSet::new(),
            indent: 0,
            all_groups: HashSet::new(),
            has_mixed: plan.items.iter().any(|i| match &i.kind {
                ItemKind::Struct { fields } => fields.iter().any(|f| f.source == Source::Mixed),
                _ => false,
            }),
        }
    }

    /// [`stmt_in`] at the indentation of the code being written.
    fn stmt(&self, o: &mut String, pad: &str, read: &str) {
        stmt_in(o, pad, self.indent, read);
    }

    /// The name of a complex type's reader: `read`, `check` in validate-only code, `events`
    /// in event code.
    fn read_fn(&self) -> &'static str {
        match (self.check, self.events) {
            (_, true) => "events",
            (true, false) => "check",
            (false, false) => "read",
        }
    }

    /// A reader's name with its generic parameters: the source, and the handler of event
    /// readers.
    fn generic(&self, name: &str) -> String {
        match self.events {
            true => format!("{name}<Src: {B}::Source, H: {B}::events::Handler>"),
            false => generic(name),
        }
    }

    /// The arguments after `c` of a reader's call (`, h` for event readers).
    fn handler_arg(&self) -> &'static str {
        if self.events {
            ", h"
        } else {
            ""
        }
    }

    /// The name of a group's, choice's or family's reader (`read_x` or `check_x`).
    fn reader_name(&self, item: &Item) -> String {
        let name = names::field_name(&item.name);
        format!("{}_{}", self.read_fn(), name.trim_start_matches("r#"))
    }

    /// What a reader of `item` returns: the item, or nothing in validate-only code.
    fn returns<'a>(&self, item: &'a Item) -> &'a str {
        if self.check {
            "()"
        } else {
            &item.name
        }
    }

    /// The signature of the reader of a group, choice or family `item` (after a blank
    /// line): `read_x(c)`, or `read_x(c, more)` for one that starts at the current child.
    fn reader_signature(&self, o: &mut String, item: &Item, more: bool) {
        let params = match (more, self.events) {
            (true, false) => "c: &mut Src, more: &mut bool",
            (true, true) => "c: &mut Src, more: &mut bool, h: &mut H",
            (false, false) => "c: &mut Src",
            (false, true) => "c: &mut Src, h: &mut H",
        };
        let _ = writeln!(o);
        signature(
            o,
            &self.generic(&self.reader_name(item)),
            params,
            &format!("Result<{}, Src::Error>", self.returns(item)),
        );
    }
}

/// The `length`, `minLength` and `maxLength` facets as the bounds generated code passes:
/// the least length, and the greatest as `Some(n)` or `None`.
fn length_bounds(f: &Facets) -> (usize, String) {
    let exact = f.length.as_ref().map(|l| l.value);
    let min = exact
        .or(f.min_length.as_ref().map(|l| l.value))
        .unwrap_or(0);
    let max = exact.or(f.max_length.as_ref().map(|l| l.value));
    (
        min,
        max.map_or("None".to_string(), |m| format!("Some({m})")),
    )
}

/// `{head} = {callee}({arg}, &[{items}]);` at the top level, laid out as rustfmt lays it out
/// (100 columns, 60 for a call's arguments and for an array): on one line when it fits,
/// else the call on the next line, else an argument a line, the array broken in turn (an
/// item a line, or as many as fit when every item is short).
fn static_call(o: &mut String, head: &str, callee: &str, arg: &str, items: &[String]) {
    let array = format!("&[{}]", items.join(", "));
    let args = format!("{arg}, {array}");
    let call = format!("{callee}({args});");
    if args.len() <= 60 && head.len() + 3 + call.len() <= 100 {
        let _ = writeln!(o, "{head} = {call}");
        return;
    }
    if args.len() <= 60 && 4 + call.len() <= 100 {
        let _ = writeln!(o, "{head} =\n    {call}");
        return;
    }
    let _ = writeln!(o, "{head} = {callee}(");
    let _ = writeln!(o, "    {arg},");
    if array.len() <= 60 && 4 + array.len() < 100 {
        let _ = writeln!(o, "    {array},");
    } else if items.iter().all(|i| i.len() <= 10) {
        let _ = writeln!(o, "    &[");
        let mut line = String::new();
        for item in items {
            if !line.is_empty() && 8 + line.len() + 1 + item.len() + 1 > 100 {
                let _ = writeln!(o, "        {}", line.trim_end());
                line.clear();
            }
            line.push_str(item);
            line.push_str(", ");
        }
        let _ = writeln!(o, "        {}", line.trim_end());
        let _ = writeln!(o, "    ],");
    } else {
        let _ = writeln!(o, "    &[");
        for item in items {
            let _ = writeln!(o, "        {item},");
        }
        let _ = writeln!(o, "    ],");
    }
    let _ = writeln!(o, ");");
}

/// The body of `CheckGlobals::check_typed` and `EventGlobals::events_typed`: the named
/// complex types' readers (`Type::{call}`) by index (`Globals::complex_type`), `Ok(true)`
/// when one read the element, `Ok(false)` for any other index.
fn typed_dispatch(o: &mut String, plan: &Plan, call: &str) {
    if plan.typed.is_empty() {
        let _ = writeln!(o, "    Ok(false)");
        return;
    }
    let _ = writeln!(o, "    match index {{");
    for (i, (_, _, item)) in plan.typed.iter().enumerate() {
        let value = format!("{}::{call}?", plan.item(*item).name);
        arm_in(o, "        ", 4, &i.to_string(), &value);
    }
    let _ = writeln!(o, "        _ => return Ok(false),");
    let _ = writeln!(o, "    }}");
    let _ = writeln!(o, "    Ok(true)");
}

/// `name` generic over the source a reader reads from.
fn generic(name: &str) -> String {
    format!("{name}<Src: {B}::Source>")
}

/// The name of a simple type's conversion.
pub(crate) fn conversion_name(st: SimpleTypeId) -> String {
    format!("value_{}", st.index())
}

/// Whether values of `st` hold QNames (`xs:QName`, `xs:NOTATION`, lists and unions of them):
/// their conversion then also takes the namespace bindings in scope (`scope`, a
/// `&Bindings`), and the serializer declares their prefixes.
pub(crate) fn scoped(schema: &Schema, st: SimpleTypeId) -> bool {
    fn walk(schema: &Schema, st: SimpleTypeId, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        match &schema.simple_type(st).variety {
            Variety::Atomic(b) => matches!(b.primitive(), Builtin::QName | Builtin::Notation),
            Variety::List(items) => walk(schema, *items, depth + 1),
            Variety::Union(members) => members.iter().any(|&m| walk(schema, m, depth + 1)),
        }
    }
    walk(schema, st, 0)
}

/// A call of a simple type's conversion on `arg`, with the bindings `scope` for a type that
/// holds QNames.
fn conversion_apply(schema: &Schema, st: SimpleTypeId, arg: &str) -> String {
    match scoped(schema, st) {
        true => format!("{}({arg}, scope)", conversion_name(st)),
        false => format!("{}({arg})", conversion_name(st)),
    }
}

/// Where a reader's body (from `body_start` in `o`) converts a value that holds QNames,
/// takes the bindings in scope first, at the element's start tag.
fn take_scope(o: &mut String, body_start: usize) {
    const TAKE: &str = "    let scope = &c.bindings();\n";
    if o[body_start..].contains(", scope)") && !o[body_start..].starts_with(TAKE) {
        o.insert_str(body_start, TAKE);
    }
}

fn element_test(ns: &str, local: &str) -> String {
    format!("c.at({ns:?}, {local:?})")
}

fn display(ns: &str, local: &str) -> String {
    if ns.is_empty() {
        format!("<{local}>")
    } else {
        format!("<{{{ns}}}{local}>")
    }
}

impl Emitter<'_> {
    fn document(&mut self) -> R<()> {
        let o = &mut String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl Document {{");
        let lines = [
            "    /// Reads a document, checking it against the schema as it goes: the first",
            "    /// problem (not well-formed, or not valid) is the error, with its line and column.",
            "    pub fn from_slice(bytes: &[u8]) -> Result<Document, xwire::bind::Error> {",
            "        // The scanner reads ordinary documents fast; the cursor reads the others again,",
            "        // and every document with an error, for the reader's checks and messages.",
            "        match Document::read(&mut xwire::bind::Scanner::new(bytes)) {",
            "            Ok(doc) => Ok(doc),",
            "            Err(xwire::bind::Fallback) => Document::read(&mut xwire::bind::Cursor::new(bytes)),",
            "        }",
            "    }",
            "",
            "    /// Reads a document from `c`, at its start, to its end.",
            "    pub fn read<Src: xwire::bind::Source>(c: &mut Src) -> Result<Document, Src::Error> {",
            "        c.root()?;",
            "        let Some(doc) = <Document as xwire::bind::Globals>::element(c)? else {",
        ];
        for line in lines {
            let _ = writeln!(o, "{line}");
        }
        let expected: Vec<String> = self
            .plan
            .roots
            .iter()
            .map(|r| display(&r.ns, &r.local))
            .collect();
        let expected = match expected.is_empty() {
            // No element may be a document: every document is invalid. The types' readers
            // (`Type::read`) still read elements of them.
            true => "a global element (the schema declares none)".to_string(),
            false => expected.join(" or "),
        };
        let lines = [
            "            // No global element names the root: only its `xsi:type` can type it.",
            "            let Some(root) = xwire::bind::Any::<Document>::read_root(c)? else {",
        ];
        for line in lines {
            let _ = writeln!(o, "{line}");
        }
        unexpected(o, "                ", "return Err(", &expected, ");");
        let _ = writeln!(o, "            }};");
        let _ = writeln!(o, "            c.finish()?;");
        let _ = writeln!(o, "            return Ok(Document::{UNDECLARED}(root));");
        let _ = writeln!(o, "        }};");
        let _ = writeln!(o, "        c.finish()?;");
        let _ = writeln!(o, "        Ok(doc)");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {B}::Globals for Document {{");
        let globals = &mut String::new();
        let _ = writeln!(globals, "type Typed = Typed;");
        let _ = writeln!(globals);
        self.globals_typed(globals);
        let _ = writeln!(globals);
        self.globals_element(globals)?;
        self.globals_attribute(globals)?;
        self.globals_named_type(globals)?;
        o.push_str(&indented(globals));
        let _ = writeln!(o, "}}");
        self.out.push_str(o);
        Ok(())
    }

    /// `Document::validate` and `Document::check`: the document checked, nothing built.
    fn check_document(&mut self) -> R<()> {
        let o = &mut String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl Document {{");
        let lines = [
            "    /// Checks a document against the schema, building nothing: the first problem (not",
            "    /// well-formed, or not valid) is the error, as `from_slice` gives it.",
            "    pub fn validate(bytes: &[u8]) -> Result<(), xwire::bind::Error> {",
            "        match Document::check(&mut xwire::bind::Scanner::new(bytes)) {",
            "            Ok(()) => Ok(()),",
            "            Err(xwire::bind::Fallback) => Document::check(&mut xwire::bind::Cursor::new(bytes)),",
            "        }",
            "    }",
            "",
            "    /// Checks a document from `c`, at its start, to its end.",
            "    pub fn check<Src: xwire::bind::Source>(c: &mut Src) -> Result<(), Src::Error> {",
            "        c.root()?;",
            "        // A root no global element names: only its `xsi:type` can type it.",
            "        if !Document::check_element(c)? && !xwire::bind::Any::<Document>::check_root(c)? {",
        ];
        for line in lines {
            let _ = writeln!(o, "{line}");
        }
        let expected: Vec<String> = self
            .plan
            .roots
            .iter()
            .map(|r| display(&r.ns, &r.local))
            .collect();
        let expected = match expected.is_empty() {
            true => "a global element (the schema declares none)".to_string(),
            false => expected.join(" or "),
        };
        unexpected(o, "            ", "return Err(", &expected, ");");
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "        c.finish()");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o);
        let body = &mut String::new();
        let _ = writeln!(
            body,
            "/// Checks a global element, if the source is at one."
        );
        self.indent = 4;
        let mut values = Vec::new();
        for root in &self.plan.roots {
            values.push(self.root_value(root)?);
        }
        self.indent = 0;
        if values.iter().collect::<HashSet<_>>().len() < values.len() {
            // Global elements of one type are checked alike, each under its own name.
            let _ = writeln!(body, "#[allow(clippy::if_same_then_else)]");
        }
        let params = match self.plan.roots.is_empty() {
            true => "_c: &mut Src",
            false => "c: &mut Src",
        };
        signature_in(
            body,
            "",
            4,
            &format!("check_element<Src: {B}::Source>"),
            params,
            "Result<bool, Src::Error>",
        );
        let mut first = true;
        self.indent = 4;
        for (root, value) in self.plan.roots.iter().zip(&values) {
            let kw = if first { "if" } else { "} else if" };
            first = false;
            let _ = writeln!(body, "    {kw} {} {{", element_test(&root.ns, &root.local));
            self.stmt(body, "        ", value);
        }
        self.indent = 0;
        if first {
            let _ = writeln!(body, "    Ok(false)");
        } else {
            let _ = writeln!(body, "    }} else {{");
            let _ = writeln!(body, "        return Ok(false);");
            let _ = writeln!(body, "    }}");
            let _ = writeln!(body, "    Ok(true)");
        }
        let _ = writeln!(body, "}}");
        o.push_str(&indented(body));
        let _ = writeln!(o, "}}");
        self.check_globals(o);
        self.out.push_str(o);
        Ok(())
    }

    /// `impl bind::CheckGlobals for Document`: the global elements' and named complex
    /// types' check readers, for lax content.
    fn check_globals(&self, o: &mut String) {
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {B}::CheckGlobals for Document {{");
        let body = &mut String::new();
        let _ = writeln!(
            body,
            "fn check_element<Src: {B}::Source>(c: &mut Src) -> Result<bool, Src::Error> {{"
        );
        let _ = writeln!(body, "    Document::check_element(c)");
        let _ = writeln!(body, "}}");
        let _ = writeln!(body);
        let plan = self.plan;
        let params = match plan.typed.is_empty() {
            true => "_c: &mut Src, _index: usize",
            false => "c: &mut Src, index: usize",
        };
        signature_in(
            body,
            "",
            4,
            &format!("check_typed<Src: {B}::Source>"),
            params,
            "Result<bool, Src::Error>",
        );
        typed_dispatch(body, plan, "check(c)");
        let _ = writeln!(body, "}}");
        o.push_str(&indented(body));
        let _ = writeln!(o, "}}");
    }

    /// `Document::events`, `Document::events_from` and `Document::events_any_type`: the
    /// document's events given to a handler, nothing built.
    fn events_document(&mut self) -> R<()> {
        let o = &mut String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl Document {{");
        let lines = [
            "    /// Reads a document, checking it as `validate` does, and gives its content to `h` as",
            "    /// events, the names of declared elements and attributes as the schema has them: the",
            "    /// first problem is the error, after the events that came before it.",
            "    pub fn events<H: xwire::bind::events::Handler>(",
            "        bytes: &[u8],",
            "        h: &mut H,",
            "    ) -> Result<(), xwire::bind::Error> {",
            "        xwire::bind::events::document(",
            "            bytes,",
            "            h,",
            "            |c, h| Document::events_from(c, h),",
            "            |c, h| Document::events_from(c, h),",
            "        )",
            "    }",
            "",
            "    /// The same events with the root taken as `xs:anyType`, its content assessed laxly",
            "    /// (elements with global declarations, and `xsi:type`s naming complex types,",
            "    /// checked; every other name from the document): the baseline that shows what the",
            "    /// schema buys.",
            "    pub fn events_any_type<H: xwire::bind::events::Handler>(",
            "        bytes: &[u8],",
            "        h: &mut H,",
            "    ) -> Result<(), xwire::bind::Error> {",
            "        xwire::bind::events::any_type_document::<Document, H>(bytes, h)",
            "    }",
            "",
            "    /// Gives the events of a document from `c`, at its start, to its end.",
            "    pub fn events_from<Src, H>(c: &mut Src, h: &mut H) -> Result<(), Src::Error>",
            "    where",
            "        Src: xwire::bind::Source,",
            "        H: xwire::bind::events::Handler,",
            "    {",
            "        c.root()?;",
            "        // A root no global element names: only its `xsi:type` can type it.",
            "        if !Document::events_element(c, h)? && !xwire::bind::events::root::<Document, _, _>(c, h)? {",
        ];
        for line in lines {
            let _ = writeln!(o, "{line}");
        }
        let expected: Vec<String> = self
            .plan
            .roots
            .iter()
            .map(|r| display(&r.ns, &r.local))
            .collect();
        let expected = match expected.is_empty() {
            true => "a global element (the schema declares none)".to_string(),
            false => expected.join(" or "),
        };
        unexpected(o, "            ", "return Err(", &expected, ");");
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "        c.finish()");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o);
        let body = &mut String::new();
        let _ = writeln!(
            body,
            "/// Gives the events of a global element, if the source is at one."
        );
        let params = match self.plan.roots.is_empty() {
            true => "_c: &mut Src, _h: &mut H",
            false => "c: &mut Src, h: &mut H",
        };
        signature_in(
            body,
            "",
            4,
            &self.generic("events_element"),
            params,
            "Result<bool, Src::Error>",
        );
        let mut first = true;
        self.indent = 4;
        for root in &self.plan.roots {
            let value = self.root_value(root)?;
            let kw = if first { "if" } else { "} else if" };
            first = false;
            let _ = writeln!(body, "    {kw} {} {{", element_test(&root.ns, &root.local));
            self.stmt(body, "        ", &value);
        }
        self.indent = 0;
        if first {
            let _ = writeln!(body, "    Ok(false)");
        } else {
            let _ = writeln!(body, "    }} else {{");
            let _ = writeln!(body, "        return Ok(false);");
            let _ = writeln!(body, "    }}");
            let _ = writeln!(body, "    Ok(true)");
        }
        let _ = writeln!(body, "}}");
        o.push_str(&indented(body));
        let _ = writeln!(o, "}}");
        if self.events {
            self.event_globals(o);
        }
        self.out.push_str(o);
        Ok(())
    }

    /// `impl bind::events::EventGlobals for Document`: the global elements' and named complex
    /// types' event readers, for lax content.
    fn event_globals(&self, o: &mut String) {
        let _ = writeln!(o);
        let _ = writeln!(o, "impl xwire::bind::events::EventGlobals for Document {{");
        let body = &mut String::new();
        let _ = writeln!(
            body,
            "fn events_element<Src, H>(c: &mut Src, h: &mut H) -> Result<bool, Src::Error>"
        );
        let _ = writeln!(body, "where");
        let _ = writeln!(body, "    Src: xwire::bind::Source,");
        let _ = writeln!(body, "    H: xwire::bind::events::Handler,");
        let _ = writeln!(body, "{{");
        let _ = writeln!(body, "    Document::events_element(c, h)");
        let _ = writeln!(body, "}}");
        let _ = writeln!(body);
        let plan = self.plan;
        let (c, h, index) = match plan.typed.is_empty() {
            true => ("_c", "_h", "_index"),
            false => ("c", "h", "index"),
        };
        // 96 columns at most once indented: one line, as rustfmt writes it.
        let params = format!("{c}: &mut Src, {h}: &mut H, {index}: usize");
        let _ = writeln!(
            body,
            "fn events_typed<Src, H>({params}) -> Result<bool, Src::Error>"
        );
        let _ = writeln!(body, "where");
        let _ = writeln!(body, "    Src: xwire::bind::Source,");
        let _ = writeln!(body, "    H: xwire::bind::events::Handler,");
        let _ = writeln!(body, "{{");
        typed_dispatch(body, plan, "events(c, h)");
        let _ = writeln!(body, "}}");
        o.push_str(&indented(body));
        let _ = writeln!(o, "}}");
    }

    /// The expression reading a global element's value, the source at it.
    fn root_value(&mut self, root: &crate::plan::Root) -> R<String> {
        let decl = self.schema.element(root.element);
        let constraint = decl.value_constraint.as_ref();
        let constraint = constraint.map(|v| (v.fixed, v.lexical.clone()));
        self.value(
            &root.ty,
            root.simple,
            false,
            &root.local,
            constraint.as_ref(),
            decl.block,
            decl.nillable,
            root.element,
        )
    }

    /// `Globals::typed`: the readers of the named complex types.
    fn globals_typed(&mut self, o: &mut String) {
        let plan = self.plan;
        let params = match plan.typed.is_empty() {
            true => "_ns: &str, _local: &str",
            false => "ns: &str, local: &str",
        };
        signature_in(o, "", 4, "complex_type", params, "Option<usize>");
        if plan.typed.is_empty() {
            let _ = writeln!(o, "    None");
        } else {
            let _ = writeln!(o, "    match (ns, local) {{");
            for (i, (ns, local, _)) in plan.typed.iter().enumerate() {
                let value = format!("Some({i})");
                arm_in(o, "        ", 4, &format!("({ns:?}, {local:?})"), &value);
            }
            let _ = writeln!(o, "        _ => None,");
            let _ = writeln!(o, "    }}");
        }
        let _ = writeln!(o, "}}");
        let _ = writeln!(o);
        let params = match plan.typed.is_empty() {
            true => "_c: &mut Src, _index: usize",
            false => "c: &mut Src, index: usize",
        };
        signature_in(
            o,
            "",
            4,
            &format!("typed<Src: {B}::Source>"),
            params,
            "Result<Option<Typed>, Src::Error>",
        );
        if plan.typed.is_empty() {
            let _ = writeln!(o, "    Ok(None)");
        } else {
            let _ = writeln!(o, "    let t = match index {{");
            for (i, (_, _, item)) in plan.typed.iter().enumerate() {
                let name = &plan.item(*item).name;
                let value = format!("Typed::{name}({name}::read(c)?)");
                arm_in(o, "        ", 4, &i.to_string(), &value);
            }
            let _ = writeln!(o, "        _ => return Ok(None),");
            let _ = writeln!(o, "    }};");
            let _ = writeln!(o, "    Ok(Some(t))");
        }
        let _ = writeln!(o, "}}");
    }

    /// `Globals::element`: the global element declarations, as documents.
    fn globals_element(&mut self, o: &mut String) -> R<()> {
        let params = match self.plan.roots.is_empty() {
            true => "_c: &mut Src",
            false => "c: &mut Src",
        };
        signature_in(
            o,
            "",
            4,
            &format!("element<Src: {B}::Source>"),
            params,
            "Result<Option<Document>, Src::Error>",
        );
        let mut first = true;
        for root in &self.plan.roots {
            let value = self.root_value(root)?;
            let kw = if first { "let doc = if" } else { "} else if" };
            first = false;
            let _ = writeln!(o, "    {kw} {} {{", element_test(&root.ns, &root.local));
            let _ = writeln!(o, "        Document::{}({value})", root.name);
        }
        if first {
            let _ = writeln!(o, "    Ok(None)");
        } else {
            let _ = writeln!(o, "    }} else {{");
            let _ = writeln!(o, "        return Ok(None);");
            let _ = writeln!(o, "    }};");
            let _ = writeln!(o, "    Ok(Some(doc))");
        }
        let _ = writeln!(o, "}}");
        Ok(())
    }

    /// `Globals::attribute`: the global attribute declarations' checks of a value.
    fn globals_attribute(&mut self, o: &mut String) -> R<()> {
        let schema = self.schema;
        let mut arms = Vec::new();
        for (_, id) in schema.global_attributes() {
            let decl = schema.attribute(id);
            let (ns, local) = self.expanded(Some(decl.name));
            if ns == XSI {
                continue;
            }
            let fixed = match &decl.value_constraint {
                Some(v) if v.fixed => format!("Some({:?})", v.lexical),
                _ => "None".to_string(),
            };
            let check = match self.converts(decl.type_def) {
                true => {
                    self.conversions.insert(decl.type_def);
                    let conv = conversion_name(decl.type_def);
                    format!("Some({B}::check_value({conv}, value, {fixed}))")
                }
                false => format!("Some(Err({B}::Fault::unread_attribute(ns, local)))"),
            };
            arms.push(((ns.clone(), local.clone()), check));
        }
        arms.sort();
        let params = match (
            arms.is_empty(),
            arms.iter().any(|(_, c)| c.contains("value")),
        ) {
            (true, _) => "_ns: &str, _local: &str, _value: &str",
            (false, false) => "ns: &str, local: &str, _value: &str",
            (false, true) => "ns: &str, local: &str, value: &str",
        };
        let _ = writeln!(o);
        signature_in(
            o,
            "",
            4,
            "attribute",
            params,
            &format!("Option<Result<(), {B}::Fault>>"),
        );
        match_names(o, &arms, "None");
        let _ = writeln!(o, "}}");
        Ok(())
    }

    /// `Globals::named_type`: what the schema's named types make of an `xsi:type` in
    /// wildcard content (the built-ins are the runtime's).
    fn globals_named_type(&mut self, o: &mut String) -> R<()> {
        let schema = self.schema;
        let mut arms = Vec::new();
        for (st, t) in schema.simple_types() {
            if t.builtin.is_some() || t.name.is_none() {
                continue;
            }
            let (ns, local) = self.simple_type_name(st);
            let check = match self.converts(st) {
                true => {
                    self.conversions.insert(st);
                    format!(
                        "{B}::NamedType::Simple({}(s).map(drop))",
                        conversion_name(st)
                    )
                }
                false => format!("{B}::NamedType::unread(ns, local)"),
            };
            arms.push(((ns, local), check));
        }
        for (ct, t) in schema.complex_types() {
            if ct == ComplexTypeId::ANY_TYPE || t.name.is_none() {
                continue;
            }
            let (ns, local) = self.expanded(t.name);
            arms.push(((ns, local), format!("{B}::NamedType::Complex")));
        }
        let checks = arms.iter().any(|(_, v)| v.contains("(s)"));
        let params = match (arms.is_empty(), checks) {
            (true, _) => "_ns: &str, _local: &str, _s: &str",
            (false, false) => "ns: &str, local: &str, _s: &str",
            (false, true) => "ns: &str, local: &str, s: &str",
        };
        let _ = writeln!(o);
        signature_in(o, "", 4, "named_type", params, &format!("{B}::NamedType"));
        match_names(o, &arms, &format!("{B}::NamedType::None"));
        let _ = writeln!(o, "}}");
        Ok(())
    }

    /// Whether the conversion of `st` (and of the types it calls on) can be generated for
    /// wildcard content: not for one that holds QNames, which needs the bindings of an
    /// element there is no source for.
    fn converts(&self, st: SimpleTypeId) -> bool {
        // Wildcard content checks a value without its element's bindings.
        if scoped(self.schema, st) {
            return false;
        }
        let mut done = BTreeSet::new();
        let mut queue = vec![st];
        while let Some(st) = queue.pop() {
            if !done.insert(st) {
                continue;
            }
            let mut inner = Emitter::new(self.plan, self.schema);
            if inner.conversion(st).is_err() {
                return false;
            }
            queue.extend(inner.conversions.iter().copied());
        }
        true
    }

    /// The name of the constant of wildcard `w`, added to the statics the first time.
    fn wildcard(&mut self, w: &Wildcard) -> String {
        if let Some(i) = self.wildcards.iter().position(|x| x == w) {
            return format!("WILDCARD_{i}");
        }
        let i = self.wildcards.len();
        self.wildcards.push(w.clone());
        let uri = |n: NamespaceId| -> String {
            match n == NamespaceId::ABSENT {
                true => String::new(),
                false => self.schema.names().namespace_uri(n).to_string(),
            }
        };
        let namespaces = match &w.namespaces {
            NamespaceConstraint::Any => "Any".to_string(),
            NamespaceConstraint::Not(n) => format!("Not({:?})", uri(*n)),
            NamespaceConstraint::Set(set) => {
                let list: Vec<String> = set.iter().map(|&n| format!("{:?}", uri(n))).collect();
                format!("In(&[{}])", list.join(", "))
            }
        };
        let process = match w.process {
            ProcessContents::Strict => "Strict",
            ProcessContents::Lax => "Lax",
            ProcessContents::Skip => "Skip",
        };
        let o = &mut self.statics;
        let _ = writeln!(o);
        let _ = writeln!(o, "/// {}", self.schema.wildcard_display(w));
        let _ = writeln!(o, "const WILDCARD_{i}: {B}::Wildcard = {B}::Wildcard {{");
        let line = format!("    namespaces: {B}::Namespaces::{namespaces},");
        if line.len() <= 100 {
            let _ = writeln!(o, "{line}");
        } else {
            // One namespace a line, as rustfmt breaks a long array.
            let _ = writeln!(o, "    namespaces: {B}::Namespaces::In(&[");
            if let NamespaceConstraint::Set(set) = &w.namespaces {
                for &n in set {
                    let _ = writeln!(o, "        {:?},", uri(n));
                }
            }
            let _ = writeln!(o, "    ]),");
        }
        let _ = writeln!(o, "    process: {B}::Process::{process},");
        let _ = writeln!(o, "}};");
        format!("WILDCARD_{i}")
    }

    /// The name of the constant of element name `{ns}local`, added to the statics the first
    /// time.
    fn name_const(&mut self, ns: &str, local: &str) -> String {
        let key = (ns.to_string(), local.to_string());
        let i = match self.names.iter().position(|x| *x == key) {
            Some(i) => i,
            None => {
                self.names.push(key);
                let i = self.names.len() - 1;
                let line = format!(
                    "const EXPECT_{i}: {B}::Expected = {B}::Expected::new({ns:?}, {local:?});"
                );
                let o = &mut self.statics;
                let _ = writeln!(o);
                if line.len() <= 100 {
                    let _ = writeln!(o, "{line}");
                } else {
                    let _ = writeln!(o, "const EXPECT_{i}: {B}::Expected =");
                    let _ = writeln!(o, "    {B}::Expected::new({ns:?}, {local:?});");
                }
                i
            }
        };
        format!("EXPECT_{i}")
    }

    /// The call that moves to the next child: `c.child_expecting(&EXPECT_N)` when the content
    /// model most likely has element `next` there (the scanner compares its name in place),
    /// `c.child()` otherwise.
    fn advance(&mut self, next: Option<&First>) -> String {
        match next {
            Some(First::Name(ns, local)) => {
                format!("c.child_expecting(&{})", self.name_const(ns, local))
            }
            _ => "c.child()".to_string(),
        }
    }

    /// The element a field most likely starts with: the first of its first set.
    fn likely(&mut self, f: Option<&Field>) -> R<Option<First>> {
        match f {
            Some(f) => Ok(self.first_set(&f.source, &f.ty)?.into_iter().next()),
            None => Ok(None),
        }
    }

    /// How messages name what a wildcard admits.
    fn wildcard_names(&self, w: &Wildcard) -> String {
        let names = self.schema.names();
        let uri = |n: NamespaceId| match n == NamespaceId::ABSENT {
            true => "no namespace".to_string(),
            false => format!("namespace '{}'", names.namespace_uri(n)),
        };
        match &w.namespaces {
            NamespaceConstraint::Any => "an element of any namespace".to_string(),
            NamespaceConstraint::Not(n) if *n == NamespaceId::ABSENT => {
                "an element in a namespace".to_string()
            }
            NamespaceConstraint::Not(n) => format!(
                "an element in a namespace other than {}",
                uri(*n).trim_start_matches("namespace ")
            ),
            NamespaceConstraint::Set(set) => {
                let list: Vec<String> = set.iter().map(|&n| uri(n)).collect();
                format!("an element in {}", list.join(" or "))
            }
        }
    }

    /// The reader of an element of simple type `st` (`events`: the event readers', which
    /// also give its text to the handler).
    fn element_reader_fn(
        &mut self,
        elems: &mut String,
        st: SimpleTypeId,
        constraint: Constraint,
        blocked: bool,
        events: bool,
        light: bool,
    ) -> R<()> {
        let check = light.then(|| self.light_check(st)).flatten();
        let (rust, mut conv) = match check {
            Some(_) => ("()".to_string(), "check".to_string()),
            None => (self.rust_simple(st)?.0, conversion_name(st)),
        };
        if constraint != Constraint::None && scoped(self.schema, st) {
            // The schema's value resolves where the schema has it, not in the document.
            return unsupported("a default or fixed value of QNames");
        }
        let _ = writeln!(elems);
        let (params, doc) = match constraint {
            Constraint::None => ("", None),
            Constraint::Default => (
                ", default: &str",
                Some("/// An element with a default value: empty, it has the default."),
            ),
            Constraint::Fixed => (
                ", fixed: &str",
                Some(
                    "/// An element with a fixed value: empty, it has it; otherwise it must be it.",
                ),
            ),
        };
        if let Some(doc) = doc {
            let _ = writeln!(elems, "{doc}");
        }
        let name = match light {
            true => format!("check_{}", element_reader(st, constraint, blocked)),
            false => element_reader(st, constraint, blocked),
        };
        let (name, params) = match events {
            true => (
                format!("events_{name}<Src: {B}::Source, H: {B}::events::Handler>"),
                format!("c: &mut Src, h: &mut H{params}"),
            ),
            false => (
                format!("{name}<Src: {B}::Source>"),
                format!("c: &mut Src{params}"),
            ),
        };
        signature(
            elems,
            &name,
            &params,
            &format!("Result<{rust}, Src::Error>"),
        );
        // Where QNames are converted, the bindings at the start tag go along, through
        // closures named, not passed inline (rustfmt lays out a call whose last argument is
        // a closure its own way).
        let mut xsi = xsi_type_fn(st, blocked);
        let conv_scoped = check.is_none() && scoped(self.schema, st);
        let xsi_scoped = self.xsi_takes_scope(st, blocked);
        if conv_scoped || xsi_scoped {
            let _ = writeln!(elems, "    let scope = &c.bindings();");
        }
        if conv_scoped {
            let _ = writeln!(elems, "    let convert = |s: &str| {conv}(s, scope);");
            conv = "convert".to_string();
        }
        if xsi_scoped {
            let _ = writeln!(
                elems,
                "    let xsi = |ns: &str, l: &str, s: &str| {xsi}(ns, l, s, scope);"
            );
            xsi = "xsi".to_string();
        }
        // The event readers' values come with their text, given to the handler.
        let (suffix, text) = match events {
            true => ("_text", ", |s| h.text(s)"),
            false => ("", ""),
        };
        let (k, arg) = match constraint {
            Constraint::None => ("None", ""),
            Constraint::Default => ("Default", "(default)"),
            Constraint::Fixed => ("Fixed", "(fixed)"),
        };
        let _ = writeln!(elems, "    let k = {B}::ValueConstraint::{k}{arg};");
        if let Some(check) = check {
            let _ = writeln!(elems, "    let check = {B}::value::{check};");
        }
        if identity::any(self.schema) {
            // The value, then its key for a field that waits for it.
            let call = match id_kind(self.schema, st) {
                Some(kind) => format!("{B}::simple_id_element{suffix}(c, {kind}, k, "),
                None => format!("{B}::simple_element{suffix}(c, k, "),
            };
            let _ = writeln!(elems, "    let v = {call}{xsi}, {conv}{text})?;");
            let ty = &self.plan.simple_types[&st];
            elems.push_str(&identity::element_value(self.schema, ty, st, "&v", "    "));
            let _ = writeln!(elems, "    Ok(v)");
            let _ = writeln!(elems, "}}");
            return Ok(());
        }
        match id_kind(self.schema, st) {
            Some(kind) => {
                let call =
                    format!("{B}::simple_id_element{suffix}(c, {kind}, k, {xsi}, {conv}{text})");
                match call.len() + 4 <= 100 {
                    true => {
                        let _ = writeln!(elems, "    {call}");
                    }
                    false => {
                        let hook = text.trim_start_matches(", ");
                        let mut args = vec![kind.as_str(), "k", &xsi, &conv];
                        if events {
                            args.push(hook);
                        }
                        let args: Vec<&str> = std::iter::once("c").chain(args).collect();
                        let callee = format!("{B}::simple_id_element{suffix}");
                        call_fn(elems, "    ", 0, "", &callee, &args, "");
                    }
                }
            }
            None => {
                let call = format!("{B}::simple_element{suffix}(c, k, {xsi}, {conv}{text})");
                match call.len() + 4 <= 100 {
                    true => {
                        let _ = writeln!(elems, "    {call}");
                    }
                    false => {
                        let mut args = vec!["c", "k", &xsi, &conv];
                        if events {
                            args.push(text.trim_start_matches(", "));
                        }
                        let callee = format!("{B}::simple_element{suffix}");
                        call_fn(elems, "    ", 0, "", &callee, &args, "");
                    }
                }
            }
        }
        let _ = writeln!(elems, "}}");
        Ok(())
    }

    /// The expression that reads the current element's value (the cursor at its start tag,
    /// left past its end tag).
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        ty: &Ty,
        simple: Option<SimpleTypeId>,
        boxed: bool,
        local: &str,
        constraint: Option<&(bool, String)>,
        block: DerivationSet,
        nillable: bool,
        element: ElementId,
    ) -> R<String> {
        // The reader, as a function of the source (`f`, or `|c| f(c, ..)`), and what checks
        // the element when it is nil.
        let (read, nil) = match (simple, ty) {
            (Some(st), _) => {
                self.conversions.insert(st);
                let (k, arg) = match constraint {
                    None => (Constraint::None, String::new()),
                    Some((false, lexical)) => (Constraint::Default, format!(", {lexical:?}")),
                    Some((true, lexical)) => (Constraint::Fixed, format!(", {lexical:?}")),
                };
                let blocked = restriction_blocked(block);
                let nil = match k {
                    Constraint::Fixed => format!("{B}::nil_fixed"),
                    _ => format!("{B}::nil_simple"),
                };
                // Validate-only and event code check a string or decimal without facets
                // without building it (its value is dropped), unless a fixed value, an ID
                // table or an identity constraint needs the value.
                let light = self.check
                    && k != Constraint::Fixed
                    && id_kind(self.schema, st).is_none()
                    && !identity::any(self.schema)
                    && self.light_check(st).is_some();
                let prefix = if light { "check_" } else { "" };
                if self.events {
                    match light {
                        true => self.light_event_elements.insert((st, k, blocked)),
                        false => self.event_elements.insert((st, k, blocked)),
                    };
                    let f = format!("events_{prefix}{}", element_reader(st, k, blocked));
                    (format!("|c| {f}(c, h{arg})"), nil)
                } else {
                    match light {
                        true => self.light_elements.insert((st, k, blocked)),
                        false => self.elements.insert((st, k, blocked)),
                    };
                    let f = format!("{prefix}{}", element_reader(st, k, blocked));
                    match arg.is_empty() {
                        true => (f, nil),
                        false => (format!("|c| {f}(c{arg})"), nil),
                    }
                }
            }
            (None, Ty::Item(id)) => {
                let item = self.plan.item(*id);
                let mixed = match &item.kind {
                    ItemKind::Struct { fields } => fields.iter().any(|f| f.source == Source::Mixed),
                    _ => false,
                };
                if mixed && constraint.is_some() {
                    // The value is the text when no child came: not read yet.
                    return unsupported(format!(
                        "element <{local}>: a default or fixed value on mixed content"
                    ));
                }
                match (&item.origin, &item.kind) {
                    (Origin::ComplexType(_), ItemKind::Struct { .. }) if self.events => (
                        format!("|c| {}::events(c, h)", item.name),
                        format!("{}::read_nil", item.name),
                    ),
                    (Origin::ComplexType(_), ItemKind::Struct { .. }) => (
                        format!("{}::{}", item.name, self.read_fn()),
                        format!("{}::read_nil", item.name),
                    ),
                    (Origin::TypeFamily(_), _) if !nillable && self.events => (
                        format!("|c| {}(c, h)", self.reader_name(item)),
                        String::new(),
                    ),
                    (Origin::TypeFamily(_), _) if !nillable => {
                        (self.reader_name(item), String::new())
                    }
                    (Origin::TypeFamily(_), _) => {
                        return unsupported(format!(
                            "element <{local}>: nillable, of a type with derived types"
                        ))
                    }
                    _ => return unsupported(format!("element <{local}> of {}", item.name)),
                }
            }
            (None, Ty::Prim(Prim::AnyElement)) if constraint.is_none() && self.events => {
                let own = restriction_blocked(block);
                (
                    format!("|c| {B}::events::any_type::<Document, _, _>(c, h, {own})"),
                    format!("{B}::Any::<Document>::read_nil"),
                )
            }
            (None, Ty::Prim(Prim::AnyElement)) if constraint.is_none() => {
                let (any, verb) = match self.check {
                    true => (format!("{B}::Any::<Document>"), "check"),
                    false => (format!("{B}::Any"), "read"),
                };
                let read = match restriction_blocked(block) {
                    true => format!("{any}::{verb}_own_type"),
                    false => format!("{any}::{verb}_any_type"),
                };
                (read, format!("{B}::Any::<Document>::read_nil"))
            }
            (None, t) => return unsupported(format!("element <{local}> of type {t:?}")),
        };
        let ics = &self.schema.element(element).identity_constraints;
        let v = match (nillable, read.strip_prefix("|c| ")) {
            // The element opens the scopes of its identity constraints, then is read.
            _ if !ics.is_empty() => {
                let read = match nillable {
                    true => format!("|c| {B}::nillable(c, {nil}, {read})"),
                    false => read,
                };
                self.scopes.insert(element);
                format!("scope_{}(c, {read})?", element.index())
            }
            (true, _) => format!("{B}::nillable(c, {nil}, {read})?"),
            (false, Some(call)) => format!("{call}?"),
            (false, None) => format!("{read}(c)?"),
        };
        if self.events {
            // Between its start and end events, named by its declaration: three statements
            // (the caller writes them a line each, `stmt`).
            let decl = self.schema.element(element);
            let (ns, local) = self.expanded(Some(decl.name));
            // In mixed content, the text before it first.
            let flush = match self.has_mixed {
                true => "c.mixed_flush(&mut |t| h.text(t));\n",
                false => "",
            };
            return Ok(format!("{flush}h.start({ns:?}, {local:?});\n{v};\nh.end()"));
        }
        Ok(if boxed && !self.check {
            format!("Box::new({v})")
        } else {
            v
        })
    }

    fn item(&mut self, id: ItemId, item: &Item) -> R<()> {
        match (&item.origin, &item.kind) {
            (Origin::ComplexType(_), ItemKind::Struct { fields }) => self.complex(id, item, fields),
            (Origin::Group(_), ItemKind::Struct { fields }) if self.all_groups.contains(&id) => {
                self.all_sequence(item, fields)
            }
            (Origin::Group(_), ItemKind::Struct { fields }) => self.sequence(item, fields),
            (Origin::Group(_) | Origin::SubstitutionGroup(_), ItemKind::Choice { variants }) => {
                self.choice(item, variants)
            }
            (Origin::TypeFamily(_), ItemKind::Choice { variants }) => self.family(item, variants),
            (Origin::SimpleType(_), _) => Ok(()),
            (o, k) => unsupported(format!("{}: {o:?} {k:?}", item.name)),
        }
    }

    /// The reader of a complex type: attributes, then content, to the end tag.
    fn complex(&mut self, id: ItemId, item: &Item, fields: &[Field]) -> R<()> {
        // Inside `impl {name}`.
        self.indent = 4;
        let r = self.complex_in(id, item, fields);
        self.indent = 0;
        r
    }

    fn complex_in(&mut self, id: ItemId, item: &Item, fields: &[Field]) -> R<()> {
        let name = &item.name;
        // An `all` group that is the whole content (once) is read in any order; one
        // anywhere else is refused (greedy reading in order would be wrong).
        let mut all = false;
        if let Origin::ComplexType(id) = item.origin {
            if let ContentType::Elements { particle, .. } = &self.schema.complex_type(id).content {
                all = is_all_once(self.schema, particle);
                if !all && has_all(self.schema, particle) {
                    // An optional `all` as the whole content: the field of its item, read in
                    // any order once one of its elements comes.
                    match optional_all(self.schema, particle, fields) {
                        Some(group) => {
                            self.all_groups.insert(group);
                        }
                        None => return unsupported(format!("{name}: an xs:all group of groups")),
                    }
                }
            }
        }
        let mut o = String::new();
        signature_in(
            &mut o,
            "pub ",
            4,
            &self.generic(self.read_fn()),
            match self.events {
                true => "c: &mut Src, h: &mut H",
                false => "c: &mut Src",
            },
            &format!("Result<{}, Src::Error>", self.returns(item)),
        );
        let body_start = o.len();
        let (tns, tlocal) = self.type_name(item);
        if let Origin::ComplexType(ct) = item.origin {
            if self.schema.complex_type(ct).is_abstract {
                // Read only through a family's reader, which dispatches on `xsi:type` to the
                // derived types: an element read as this type named none.
                let m = format!(
                    "the type {tlocal} is abstract: xsi:type must name a type derived from it"
                );
                let _ = writeln!(o, "    let m = {m:?};");
                let _ = writeln!(o, "    Err(c.fail({B}::Fault::new(\"cvc-type.2\", m)))");
                let _ = writeln!(o, "}}");
                if self.nil_items.contains(&id) {
                    return unsupported(format!("{name}: a nillable element of an abstract type"));
                }
                self.finish_read(name, &o);
                return Ok(());
            }
        }
        // `xsi:type`, when there is one, names this type (a family's reader chose it).
        let _ = writeln!(o, "    c.check_xsi_type({tns:?}, {tlocal:?})?;");
        let attrs: Vec<&Field> = fields
            .iter()
            .filter(|f| matches!(f.source, Source::Attribute { .. }))
            .collect();
        for f in &attrs {
            let _ = writeln!(o, "    let mut attr_{} = None;", bare(&f.name));
        }
        // An attribute no use declares: kept when the attribute wildcard admits it.
        let wildcard = fields.iter().find_map(|f| match &f.source {
            Source::AnyAttributes(w) => Some((w, local_name(f))),
            _ => None,
        });
        let owner = format!("{name:?}");
        let (callee, args, value) = match wildcard {
            Some((w, kept)) => {
                let _ = writeln!(o, "    let mut {kept} = Vec::new();");
                let callee = format!("{}.attribute::<Document>", self.wildcard(w));
                let kept = format!("&mut {kept}");
                (
                    callee,
                    vec!["ns", "local", "value", &owner, &kept]
                        .into_iter()
                        .map(String::from)
                        .collect::<Vec<_>>(),
                    "value",
                )
            }
            None => (
                format!("{B}::other_attribute"),
                vec!["ns".to_string(), "local".to_string(), owner.clone()],
                "_",
            ),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let other = format!("{callee}({})", args.join(", "));
        // Inside `impl {name}`: four more columns than written here.
        if attrs.is_empty() {
            let line = format!("    c.attributes(|ns, local, {value}| {other})?;");
            if line.len() + 4 <= 100 {
                let _ = writeln!(o, "{line}");
            } else {
                let _ = writeln!(o, "    c.attributes(|ns, local, {value}| {{");
                call_fn(&mut o, "        ", 4, "", &callee, &args, "");
                let _ = writeln!(o, "    }})?;");
            }
        } else {
            let _ = writeln!(o, "    c.attributes(|ns, local, value| {{");
            let _ = writeln!(o, "        match (ns, local) {{");
            for f in &attrs {
                let Source::Attribute { ns, local, .. } = &f.source else {
                    unreachable!()
                };
                let st = f.simple.expect("attributes are of simple types");
                self.conversions.insert(st);
                let pattern = format!("({ns:?}, {local:?})");
                let value = format!(
                    "attr_{} = Some({}?)",
                    bare(&f.name),
                    conversion_apply(self.schema, st, "value")
                );
                if self.events {
                    // Converted, then given.
                    let _ = writeln!(o, "            {pattern} => {{");
                    let _ = writeln!(o, "                {value};");
                    let (ns, local) = (format!("{ns:?}"), format!("{local:?}"));
                    let args = [ns.as_str(), &local, "value"];
                    call_fn(&mut o, "                ", 4, "", "h.attribute", &args, ";");
                    let _ = writeln!(o, "            }}");
                    continue;
                }
                arm_in(&mut o, "            ", 4, &pattern, &value);
            }
            call_fn(&mut o, "            ", 4, "_ => ", &callee, &args, "?,");
            let _ = writeln!(o, "        }}");
            let _ = writeln!(o, "        Ok(())");
            let _ = writeln!(o, "    }})?;");
        }
        let kept = fields
            .iter()
            .find(|f| matches!(f.source, Source::AnyAttributes(_)));
        if let (Some(kept), true) = (kept.map(local_name), self.events) {
            // What the attribute wildcard admitted, after the declared ones.
            let _ = writeln!(o, "    for a in &{kept} {{");
            let _ = writeln!(o, "        h.attribute(&a.ns, &a.local, &a.value);");
            let _ = writeln!(o, "    }}");
        }
        for f in &attrs {
            let Source::Attribute {
                local, required, ..
            } = &f.source
            else {
                unreachable!()
            };
            let var = format!("attr_{}", bare(&f.name));
            let st = f.simple.expect("attributes are of simple types");
            let conv = conversion_name(st);
            if f.value_constraint.is_some() && scoped(self.schema, st) {
                // The schema's value resolves where the schema has it, not in the document.
                return unsupported(format!("{name}: a default or fixed value of QNames"));
            }
            let missing = |o: &mut String| {
                let _ = writeln!(o, "        let m = \"attribute '{local}' is required\";");
                let _ = writeln!(
                    o,
                    "        return Err(c.fail({B}::Fault::new(\"cvc-complex-type.4\", m)));"
                );
            };
            match (&f.value_constraint, f.occurs) {
                (Some((fixed, lexical)), _) => {
                    // Required, with a fixed value: present all the same.
                    if *required {
                        let _ = writeln!(o, "    if {var}.is_none() {{");
                        missing(&mut o);
                        let _ = writeln!(o, "    }}");
                    }
                    let _ = writeln!(
                        o,
                        "    let {} = {conv}({lexical:?}).map_err(|f| c.fail(f))?;",
                        local_name(f)
                    );
                    if *fixed {
                        let _ = writeln!(o, "    if let Some(v) = {var} {{");
                        let _ = writeln!(o, "        if v != {} {{", local_name(f));
                        let _ = writeln!(
                            o,
                            "            let m = \"attribute '{local}' must be '{}'\";",
                            lexical
                                .replace('"', "'")
                                .replace('{', "{{")
                                .replace('}', "}}")
                        );
                        let _ = writeln!(o, "            return Err(c.fail({B}::Fault::new(\"cvc-attribute.4\", m)));");
                        let _ = writeln!(o, "        }}");
                        let _ = writeln!(o, "    }}");
                    } else {
                        let l = local_name(f);
                        let _ = writeln!(o, "    let {l} = {var}.unwrap_or({l});");
                    }
                }
                (None, Occurs::One) => {
                    let _ = writeln!(o, "    let Some({}) = {var} else {{", local_name(f));
                    missing(&mut o);
                    let _ = writeln!(o, "    }};");
                }
                (None, _) => {
                    let _ = writeln!(o, "    let {} = {var};", local_name(f));
                }
            }
        }
        // IDs and IDREFs go to the document's table once their values converted.
        for f in &attrs {
            let Source::Attribute { ns, local, .. } = &f.source else {
                unreachable!()
            };
            let st = f.simple.expect("attributes are of simple types");
            let Some(kind) = id_kind(self.schema, st) else {
                continue;
            };
            // An ID or IDREF read as text and not defaulted: its converted value (normalised
            // as the validator records it), without reading the attributes again.
            let plain = f.ty == Ty::Prim(Prim::String)
                && f.value_constraint.is_none()
                && !kind.ends_with("IdRefs");
            match (plain, f.occurs) {
                (true, Occurs::One) => {
                    let _ = writeln!(o, "    let at = c.offset();");
                    let _ = writeln!(o, "    c.id_value({kind}, &{}, at)?;", local_name(f));
                }
                (true, _) => {
                    let _ = writeln!(o, "    if let Some(v) = &{} {{", local_name(f));
                    let _ = writeln!(o, "        let at = c.offset();");
                    let _ = writeln!(o, "        c.id_value({kind}, v, at)?;");
                    let _ = writeln!(o, "    }}");
                }
                (false, _) => {
                    let _ = writeln!(o, "    c.id_attribute({kind}, {ns:?}, {local:?})?;");
                }
            }
        }
        if identity::any(self.schema) {
            self.attribute_keys(&mut o, fields);
        }
        take_scope(&mut o, body_start);
        let attribute_code = o[body_start..].to_string();
        // A nil element of this type: the same attributes, no content (one reader for
        // both APIs).
        let nil = (self.nil_items.contains(&id) && !self.check).then(|| {
            let mut n = String::new();
            let _ = writeln!(n);
            let _ = writeln!(
                n,
                "/// Reads a nil element (`xsi:nil=\"true\"`) of this type: its attributes, no content."
            );
            signature_in(
                &mut n,
                "pub ",
                4,
                &generic("read_nil"),
                "c: &mut Src",
                "Result<(), Src::Error>",
            );
            n.push_str(&o[body_start..]);
            discard_attributes(&mut n, fields);
            let _ = writeln!(n, "    {B}::nil_content(c)");
            let _ = writeln!(n, "}}");
            n
        });
        let content: Vec<&Field> = fields
            .iter()
            .filter(|f| !is_attribute(f) && f.source != Source::Mixed)
            .collect();
        // Mixed content: the source keeps the text between the children (the event API's
        // handler gets it before each child, `mixed_flush`).
        let mixed = fields.iter().find(|f| f.source == Source::Mixed);
        if mixed.is_some() {
            let _ = writeln!(o, "    c.mixed({});", !self.check || self.events);
        }
        if let Some(f) = content.iter().find(|f| f.source == Source::Text) {
            let st = f.simple.expect("simple content has a simple type");
            self.conversions.insert(st);
            let _ = writeln!(o, "    let at = c.offset();");
            match id_kind(self.schema, st) {
                // The text is kept for the ID table past the conversion.
                Some(kind) => {
                    let _ = writeln!(o, "    let text = c.text()?.to_owned();");
                    if self.events {
                        let _ = writeln!(o, "    h.text(&text);");
                    }
                    let _ = writeln!(
                        o,
                        "    let {} = {}.map_err(|f| c.fail_at(at, f))?;",
                        local_name(f),
                        conversion_apply(self.schema, st, "&text")
                    );
                    let _ = writeln!(o, "    c.id_value({kind}, &text, at)?;");
                }
                None if self.events => {
                    let _ = writeln!(o, "    let text = c.text()?;");
                    let _ = writeln!(o, "    h.text(text);");
                    let _ = writeln!(
                        o,
                        "    let {} = {}.map_err(|f| c.fail_at(at, f))?;",
                        local_name(f),
                        conversion_apply(self.schema, st, "text")
                    );
                }
                None => {
                    let _ = writeln!(
                        o,
                        "    let {} = {}.map_err(|f| c.fail_at(at, f))?;",
                        local_name(f),
                        conversion_apply(self.schema, st, "c.text()?")
                    );
                }
            }
            if identity::any(self.schema) {
                let v = format!("&{}", local_name(f));
                o.push_str(&identity::element_value(self.schema, &f.ty, st, &v, "    "));
            }
        } else {
            if content.is_empty() && mixed.is_some() {
                // Text alone.
                let _ = writeln!(o, "    if c.child()? {{");
                let what = format!("the end of the content of {name}");
                unexpected(&mut o, "        ", "return Err(", &what, ");");
                let _ = writeln!(o, "    }}");
            } else if content.is_empty() {
                let _ = writeln!(o, "    c.empty()?;");
            } else if all {
                self.all(&mut o, &content)?;
            } else {
                let first = self.likely(content.first().copied())?;
                let _ = writeln!(o, "    let more = &mut {}?;", self.advance(first.as_ref()));
                for (i, f) in content.iter().enumerate() {
                    let next = self.likely(content.get(i + 1).copied())?;
                    self.field(&mut o, f, next.as_ref())?;
                }
                let _ = writeln!(o, "    if *more {{");
                let what = format!("the end of the content of {name}");
                unexpected(&mut o, "        ", "return Err(", &what, ");");
                let _ = writeln!(o, "    }}");
            }
            if let Some(f) = mixed {
                if self.events {
                    let _ = writeln!(o, "    c.mixed_flush(&mut |t| h.text(t));");
                }
                match self.check {
                    true => {
                        let _ = writeln!(o, "    c.mixed_text();");
                    }
                    false => {
                        let _ = writeln!(o, "    let {} = c.mixed_text();", local_name(f));
                    }
                }
            }
            if identity::any(self.schema) {
                // Ended without a simple value: a field may not select it.
                let _ = writeln!(o, "    c.identity_value(None, false)?;");
            }
        }
        self.construct(&mut o, name, fields);
        let _ = writeln!(o, "}}");
        take_scope(&mut o, body_start);
        if let Some(nil) = nil {
            o.push_str(&nil);
        }
        self.finish_read(name, &o);
        if !self.check {
            self.records(id, item, fields, &content, &attribute_code)?;
        }
        Ok(())
    }

    /// Where a field selects attributes of this element: their keys, after conversion and
    /// defaults.
    fn attribute_keys(&self, o: &mut String, fields: &[Field]) {
        let mut body = String::new();
        for f in fields {
            match &f.source {
                Source::Attribute { ns, local, .. } => {
                    let st = f.simple.expect("attributes are of simple types");
                    let var = local_name(f);
                    let one = f.value_constraint.is_some() || f.occurs == Occurs::One;
                    let (r, pad) = match one {
                        true => (format!("&{var}"), "        "),
                        false => {
                            let _ = writeln!(body, "        if let Some(v) = &{var} {{");
                            ("v".to_string(), "            ")
                        }
                    };
                    let key = format!(
                        "{B}::identity::Key::key({})",
                        crate::serialize::value_ref(self.schema, &f.ty, st, &r)
                    );
                    let _ = writeln!(body, "{pad}let key = {key};");
                    let call = format!("c.identity_attribute({ns:?}, {local:?}, key)?;");
                    crate::serialize::call_line(&mut body, pad, &call);
                    if !one {
                        let _ = writeln!(body, "        }}");
                    }
                }
                Source::AnyAttributes(_) => {
                    let kept = local_name(f);
                    let _ = writeln!(body, "        for a in &{kept} {{");
                    let _ = writeln!(body, "            let key = (0, a.value.to_string());");
                    let _ = writeln!(
                        body,
                        "            c.identity_attribute(&a.ns, &a.local, key)?;"
                    );
                    let _ = writeln!(body, "        }}");
                }
                _ => {}
            }
        }
        if body.is_empty() {
            return;
        }
        let _ = writeln!(o, "    if c.identity_attributes_wanted() {{");
        o.push_str(&body);
        let _ = writeln!(o, "    }}");
    }

    /// For a document root whose content is one repeated element, `Type::records` and the
    /// `RecordStream` it reads through: the records one at a time (`attribute_code`: the
    /// reader's checks of the root's start tag).
    fn records(
        &mut self,
        id: ItemId,
        item: &Item,
        fields: &[Field],
        content: &[&Field],
        attribute_code: &str,
    ) -> R<()> {
        let plan = self.plan;
        let roots: Vec<&crate::plan::Root> =
            plan.roots.iter().filter(|r| r.ty == Ty::Item(id)).collect();
        let (Some(first), [f]) = (roots.first(), content) else {
            return Ok(());
        };
        let (
            Source::Element {
                ns,
                local,
                nillable: false,
                ..
            },
            Occurs::Many { min, max },
        ) = (&f.source, f.occurs)
        else {
            return Ok(());
        };
        // Streamed records have no place for mixed content's text.
        if roots.iter().any(|r| r.nillable) || fields.iter().any(|f| f.source == Source::Mixed) {
            return Ok(());
        }
        let name = &item.name;
        let record_ty = match f.boxed {
            true => format!("Box<{}>", crate::emit::rust_type(plan, &f.ty)),
            false => crate::emit::rust_type(plan, &f.ty),
        };
        let read = self.read_field(f)?;
        let o = &mut String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {name} {{");
        let code = |n: String| format!("`{n}`");
        let _ = writeln!(o, "    /// The records of a document whose root is");
        let _ = writeln!(o, "    /// {}:", code(display(&first.ns, &first.local)));
        let _ = writeln!(o, "    /// its {} elements,", code(display(ns, local)));
        let _ = writeln!(
            o,
            "    /// one at a time, in bounded memory, the rest of the document checked as"
        );
        let _ = writeln!(o, "    /// `from_slice` checks it.");
        let _ = writeln!(
            o,
            "    pub fn records(bytes: &[u8]) -> {B}::Records<'_, {name}> {{"
        );
        let _ = writeln!(o, "        {B}::Records::new(bytes)");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        let _ = writeln!(o);
        let _ = writeln!(o, "impl {B}::RecordStream for {name} {{");
        let body = &mut String::new();
        let _ = writeln!(body, "type Record = {record_ty};");
        let _ = writeln!(body);
        let max = match max {
            Some(m) => format!("Some({m})"),
            None => "None".to_string(),
        };
        let _ = writeln!(body, "const MAX: Option<usize> = {max};");
        let _ = writeln!(body);
        signature_in(
            body,
            "",
            4,
            &generic("open"),
            "c: &mut Src",
            "Result<bool, Src::Error>",
        );
        let _ = writeln!(body, "    c.root()?;");
        let tests: Vec<String> = roots
            .iter()
            .map(|r| element_test(&r.ns, &r.local))
            .collect();
        let expected: Vec<String> = roots.iter().map(|r| display(&r.ns, &r.local)).collect();
        let test = match tests.len() {
            1 => format!("!{}", tests[0]),
            _ => format!("!({})", tests.join(" || ")),
        };
        let _ = writeln!(body, "    if {test} {{");
        unexpected_in(
            body,
            "        ",
            "return Err(",
            &expected.join(" or "),
            ");",
        );
        let _ = writeln!(body, "    }}");
        // The root's identity constraints, before its attributes give their keys.
        for r in &roots {
            let ics = &self.schema.element(r.element).identity_constraints;
            if ics.is_empty() {
                continue;
            }
            let ics: Vec<String> = ics.iter().map(|i| i.index().to_string()).collect();
            let _ = writeln!(body, "    if {} {{", element_test(&r.ns, &r.local));
            let _ = writeln!(
                body,
                "        c.identity_open(IDENTITY, &[{}])?;",
                ics.join(", ")
            );
            let _ = writeln!(body, "    }}");
        }
        body.push_str(attribute_code);
        discard_attributes(body, fields);
        let _ = writeln!(body, "    c.child()");
        let _ = writeln!(body, "}}");
        let _ = writeln!(body);
        signature_in(
            body,
            "",
            4,
            &format!("at_record<Src: {B}::Source>"),
            "c: &Src",
            "bool",
        );
        let _ = writeln!(body, "    {}", element_test(ns, local));
        let _ = writeln!(body, "}}");
        let _ = writeln!(body);
        signature_in(
            body,
            "",
            4,
            &generic("record"),
            "c: &mut Src",
            &format!("Result<{record_ty}, Src::Error>"),
        );
        match read.strip_suffix('?') {
            Some(call) => {
                let _ = writeln!(body, "    {call}");
            }
            None => {
                let _ = writeln!(body, "    Ok({read})");
            }
        }
        let _ = writeln!(body, "}}");
        let _ = writeln!(body);
        let params = match min {
            0 => "c: &mut Src, more: bool, _count: usize",
            _ => "c: &mut Src, more: bool, count: usize",
        };
        signature_in(
            body,
            "",
            4,
            &generic("close"),
            params,
            "Result<(), Src::Error>",
        );
        if min > 0 {
            let _ = writeln!(body, "    if count < {min} {{");
            let what = format!("another {}", display(ns, local));
            unexpected_in(body, "        ", "return Err(", &what, ");");
            let _ = writeln!(body, "    }}");
        }
        let _ = writeln!(body, "    if more {{");
        let what = format!("the end of the content of {name}");
        unexpected_in(body, "        ", "return Err(", &what, ");");
        let _ = writeln!(body, "    }}");
        if identity::any(self.schema) {
            let _ = writeln!(body, "    c.identity_value(None, false)?;");
        }
        let _ = writeln!(body, "    c.finish()");
        let _ = writeln!(body, "}}");
        o.push_str(&indented(body));
        let _ = writeln!(o, "}}");
        self.out.push_str(o);
        Ok(())
    }

    /// The content of an `all` group: its elements in any order, each at most once; then
    /// the ones that must occur are checked.
    fn all(&mut self, o: &mut String, content: &[&Field]) -> R<()> {
        let mut names = Vec::new();
        for f in content {
            let Source::Element { ns, local, .. } = &f.source else {
                return unsupported(format!("{}: an xs:all group of {:?}", f.name, f.source));
            };
            if !matches!(f.occurs, Occurs::One | Occurs::Optional) {
                return unsupported("an xs:all group with a repeated element");
            }
            names.push(display(ns, local));
            let empty = if self.check { "false" } else { "None" };
            let _ = writeln!(o, "    let mut {} = {empty};", local_name(f));
        }
        let expected = names.join(" or ");
        let _ = writeln!(o, "    while c.child()? {{");
        let mut first = true;
        for f in content {
            let Source::Element { ns, local, .. } = &f.source else {
                unreachable!("checked above")
            };
            let read = self.read_field(f)?;
            let l = local_name(f);
            let kw = if first { "if" } else { "} else if" };
            first = false;
            // A second occurrence is not allowed here, as any other element.
            let test = element_test(ns, local);
            match self.check {
                true => {
                    let _ = writeln!(o, "        {kw} {test} && !{l} {{");
                    self.stmt(o, "            ", &read);
                    let _ = writeln!(o, "            {l} = true;");
                }
                false => {
                    let _ = writeln!(o, "        {kw} {test} && {l}.is_none() {{");
                    let _ = writeln!(o, "            {l} = Some({read});");
                }
            }
        }
        let _ = writeln!(o, "        }} else {{");
        unexpected(o, "            ", "return Err(", &expected, ");");
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "    }}");
        // Past the end tag: a missing element is "the content ends too early".
        for (f, name) in content.iter().zip(&names) {
            let l = local_name(f);
            match (f.occurs, self.check) {
                (Occurs::One, true) => {
                    let _ = writeln!(o, "    if !{l} {{");
                    unexpected(o, "        ", "return Err(", name, ");");
                    let _ = writeln!(o, "    }}");
                }
                (Occurs::One, false) => {
                    let _ = writeln!(o, "    let Some({l}) = {l} else {{");
                    unexpected(o, "        ", "return Err(", name, ");");
                    let _ = writeln!(o, "    }};");
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Writes the `impl` block of a complex type's reader `read`.
    fn finish_read(&mut self, name: &str, read: &str) {
        let _ = writeln!(self.out);
        let _ = writeln!(self.out, "impl {name} {{");
        let doc = match (self.check, self.events) {
            (_, true) => "    /// Checks an element of this type and gives its attributes and content to `h`, building\n    /// nothing: the source at its start tag, to its end tag.",
            (true, false) => "    /// Checks an element of this type, building nothing: the source at its start tag, to\n    /// its end tag.",
            (false, false) => "    /// Reads an element of this type: the source at its start tag, to its end tag.",
        };
        let _ = writeln!(self.out, "{doc}");
        self.out.push_str(&indented(read));
        let _ = writeln!(self.out, "}}");
    }

    /// The reader of a sequence that is a field of its own (it repeats or is optional): its
    /// fields from the current child on.
    fn sequence(&mut self, item: &Item, fields: &[Field]) -> R<()> {
        let name = &item.name;
        let mut o = String::new();
        self.reader_signature(&mut o, item, true);
        for (i, f) in fields.iter().enumerate() {
            let next = self.likely(fields.get(i + 1))?;
            self.field(&mut o, f, next.as_ref())?;
        }
        self.construct(&mut o, name, fields);
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
        Ok(())
    }

    /// The reader of an optional `all` group, entered at one of its elements: its elements
    /// in any order, each at most once, from the current child on; then the ones that must
    /// occur are checked.
    fn all_sequence(&mut self, item: &Item, fields: &[Field]) -> R<()> {
        let name = &item.name;
        let mut o = String::new();
        self.reader_signature(&mut o, item, true);
        let mut names = Vec::new();
        for f in fields {
            let Source::Element { ns, local, .. } = &f.source else {
                return unsupported(format!("{name}: an xs:all group of {:?}", f.source));
            };
            if !matches!(f.occurs, Occurs::One | Occurs::Optional) {
                return unsupported("an xs:all group with a repeated element");
            }
            names.push(display(ns, local));
            let empty = if self.check { "false" } else { "None" };
            let _ = writeln!(o, "    let mut {} = {empty};", local_name(f));
        }
        let _ = writeln!(o, "    while *more {{");
        for (i, f) in fields.iter().enumerate() {
            let Source::Element { ns, local, .. } = &f.source else {
                unreachable!("checked above")
            };
            let read = self.read_field(f)?;
            let l = local_name(f);
            let kw = if i == 0 { "if" } else { "} else if" };
            let test = element_test(ns, local);
            match self.check {
                true => {
                    let _ = writeln!(o, "        {kw} {test} && !{l} {{");
                    self.stmt(&mut o, "            ", &read);
                    let _ = writeln!(o, "            {l} = true;");
                }
                false => {
                    let _ = writeln!(o, "        {kw} {test} && {l}.is_none() {{");
                    let _ = writeln!(o, "            {l} = Some({read});");
                }
            }
        }
        // Anything else (a second occurrence too) ends the group; the caller's content goes on.
        let _ = writeln!(o, "        }} else {{");
        let _ = writeln!(o, "            break;");
        let _ = writeln!(o, "        }}");
        let _ = writeln!(o, "        *more = c.child()?;");
        let _ = writeln!(o, "    }}");
        for (f, what) in fields.iter().zip(&names) {
            let l = local_name(f);
            match (f.occurs, self.check) {
                (Occurs::One, true) => {
                    let _ = writeln!(o, "    if !{l} {{");
                    unexpected(&mut o, "        ", "return Err(", what, ");");
                    let _ = writeln!(o, "    }}");
                }
                (Occurs::One, false) => {
                    let _ = writeln!(o, "    let Some({l}) = {l} else {{");
                    unexpected(&mut o, "        ", "return Err(", what, ");");
                    let _ = writeln!(o, "    }};");
                }
                _ => {}
            }
        }
        if self.events && !uses_handler(&o) {
            let _ = writeln!(o, "    let _ = h;");
        }
        match self.check {
            true => {
                let _ = writeln!(o, "    Ok(())");
            }
            false => construct(&mut o, name, fields),
        }
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
        Ok(())
    }

    /// The reader of a choice: the alternative whose first element is the current child.
    fn choice(&mut self, item: &Item, variants: &[Variant]) -> R<()> {
        let name = &item.name;
        let mut o = String::new();
        self.reader_signature(&mut o, item, true);
        let mut expected = Vec::new();
        for v in variants {
            let first = self.first_set(&v.source, &v.ty)?;
            expected.extend(first.iter().map(First::display));
            let start = Start::of(&first);
            let test = &start.test;
            let _ = writeln!(o, "    if *more && {test} {{");
            let read = self.read_one(
                &v.source,
                &v.ty,
                v.simple,
                v.boxed,
                v.value_constraint.as_ref(),
            )?;
            match v.occurs {
                Occurs::One | Occurs::Optional if self.check => {
                    self.stmt(&mut o, "        ", &read);
                    if !matches!(v.source, Source::Group) {
                        let _ = writeln!(o, "        *more = c.child()?;");
                    }
                    let _ = writeln!(o, "        return Ok(());");
                }
                Occurs::Many { min, max } if self.check => {
                    self.repeat(&mut o, "v", (&v.source, &v.ty), &read, &start, min, max, 2);
                    let _ = writeln!(o, "        return Ok(());");
                }
                Occurs::One | Occurs::Optional => {
                    let _ = writeln!(o, "        let v = {read};");
                    if !matches!(v.source, Source::Group) {
                        let _ = writeln!(o, "        *more = c.child()?;");
                    }
                    let v_in = if v.occurs == Occurs::One {
                        "v"
                    } else {
                        "Some(v)"
                    };
                    let _ = writeln!(o, "        return Ok({name}::{}({v_in}));", v.name);
                }
                Occurs::Many { min, max } => {
                    self.repeat(&mut o, "v", (&v.source, &v.ty), &read, &start, min, max, 2);
                    let _ = writeln!(o, "        return Ok({name}::{}(v));", v.name);
                }
            }
            let _ = writeln!(o, "    }}");
        }
        // No alternative starts here: the first that may be empty is taken, empty.
        let empty = variants
            .iter()
            .find(|v| self.emptiable(&v.source, &v.ty, v.occurs));
        if let (Some(v), true) = (empty, self.check) {
            if v.occurs == Occurs::One {
                let read = self.read_one(
                    &v.source,
                    &v.ty,
                    v.simple,
                    v.boxed,
                    v.value_constraint.as_ref(),
                )?;
                self.stmt(&mut o, "    ", &read);
            }
            let _ = writeln!(o, "    Ok(())");
            let _ = writeln!(o, "}}");
            self.out.push_str(&o);
            return Ok(());
        }
        if let Some(v) = empty {
            let value = match v.occurs {
                Occurs::Optional => "None".to_string(),
                Occurs::Many { .. } => "Vec::new()".to_string(),
                Occurs::One => self.read_one(
                    &v.source,
                    &v.ty,
                    v.simple,
                    v.boxed,
                    v.value_constraint.as_ref(),
                )?,
            };
            let _ = writeln!(o, "    Ok({name}::{}({value}))", v.name);
            let _ = writeln!(o, "}}");
            self.out.push_str(&o);
            return Ok(());
        }
        unexpected(&mut o, "    ", "Err(", &expected.join(" or "), ")");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
        Ok(())
    }

    /// The simple types of the schema, derived from `st` and named, that `xsi:type` may name
    /// on an element of type `st` (none where the element blocks them).
    fn derived_simple_types(&self, st: SimpleTypeId, blocked: bool) -> Vec<SimpleTypeId> {
        let schema = self.schema;
        schema
            .simple_types()
            .filter(|(d, t)| {
                !blocked
                    && *d != st
                    && t.name.is_some()
                    && t.builtin.is_none()
                    && schema.derives_from(
                        TypeId::Simple(*d),
                        TypeId::Simple(st),
                        DerivationSet::default(),
                    )
            })
            .map(|(d, _)| d)
            .collect()
    }

    /// Whether `xsi_type_N` takes the bindings too: a type `xsi:type` may name on an element
    /// of type `st` holds QNames.
    fn xsi_takes_scope(&self, st: SimpleTypeId, blocked: bool) -> bool {
        self.derived_simple_types(st, blocked)
            .into_iter()
            .any(|d| scoped(self.schema, d))
    }

    /// `fn xsi_type_N(ns, l, s) -> Result<bool, Fault>`: whether the type an element of simple
    /// type `st` names with `xsi:type` may stand for `st` (the type itself, a simple type of
    /// the schema derived from it, or a built-in derived from it), `s` valid for it.
    fn xsi_types(&mut self, out: &mut String, st: SimpleTypeId, blocked: bool) -> R<()> {
        let schema = self.schema;
        let mut arms = Vec::new();
        let (tns, tlocal) = self.simple_type_name(st);
        if !tlocal.is_empty() && (blocked || schema.simple_type(st).builtin.is_none()) {
            arms.push((format!("({tns:?}, {tlocal:?})"), "Ok(true)".to_string()));
        }
        let mut takes_scope = false;
        for d in self.derived_simple_types(st, blocked) {
            let (ns, local) = self.simple_type_name(d);
            self.conversions.insert(d);
            takes_scope |= scoped(schema, d);
            let check = format!("{}.map(|_| true)", conversion_apply(schema, d, "s"));
            arms.push((format!("({ns:?}, {local:?})"), check));
        }
        if let (Some(b), false) = (schema.simple_type(st).builtin, blocked) {
            let check =
                format!("{B}::value::builtin_derived(l, xwire::datatypes::Builtin::{b:?}, s)");
            arms.push((format!("({XS:?}, l)"), check));
        }
        let _ = writeln!(out);
        // Parameters no arm reads are named `_` so the user's crate has no warning.
        let checks = arms.iter().any(|(_, v)| v != "Ok(true)");
        let mut params = match (arms.is_empty(), checks) {
            (true, _) => "_ns: &str, _l: &str, _s: &str",
            (false, false) => "ns: &str, l: &str, _s: &str",
            (false, true) => "ns: &str, l: &str, s: &str",
        }
        .to_string();
        if takes_scope {
            params.push_str(&format!(", scope: &{B}::Bindings"));
        }
        signature(
            out,
            &xsi_type_fn(st, blocked),
            &params,
            &format!("Result<bool, {B}::Fault>"),
        );
        if arms.is_empty() {
            // An anonymous type: no name stands for it.
            let _ = writeln!(out, "    Ok(false)");
        } else {
            let _ = writeln!(out, "    match (ns, l) {{");
            for (pattern, value) in &arms {
                arm(out, "        ", pattern, value);
            }
            let _ = writeln!(out, "        _ => Ok(false),");
            let _ = writeln!(out, "    }}");
        }
        let _ = writeln!(out, "}}");
        Ok(())
    }

    /// The expanded name of a complex type's item (empty for an anonymous type).
    fn type_name(&self, item: &Item) -> (String, String) {
        match item.origin {
            Origin::ComplexType(id) => self.expanded(self.schema.complex_type(id).name),
            _ => (String::new(), String::new()),
        }
    }

    /// The expanded name of a simple type (empty for an anonymous type).
    fn simple_type_name(&self, st: SimpleTypeId) -> (String, String) {
        self.expanded(self.schema.simple_type(st).name)
    }

    /// A type's name as (namespace URI, local name); empty for none.
    fn expanded(&self, name: Option<NameId>) -> (String, String) {
        let Some(n) = name else {
            return (String::new(), String::new());
        };
        let names = self.schema.names();
        (
            names.namespace_uri(names.ns(n)).to_string(),
            names.local(n).to_string(),
        )
    }

    /// The reader of a type family: the type `xsi:type` names, or the declared type.
    fn family(&mut self, item: &Item, variants: &[Variant]) -> R<()> {
        let name = &item.name;
        let mut o = String::new();
        self.reader_signature(&mut o, item, false);
        let read_fn = self.read_fn();
        let h = self.handler_arg();
        let read = |v: &Variant, plan: &Plan| match &v.ty {
            Ty::Item(id) => format!("{}::{read_fn}(c{h})", plan.item(*id).name),
            _ => unreachable!("a family's variants are complex types"),
        };
        // The object reader wraps the variant's value; validate-only code returns it.
        let wrap = |v: &Variant, read: String| match self.check {
            true => read,
            false => format!("Ok({name}::{}({read}?))", v.name),
        };
        let _ = writeln!(o, "    let Some((ns, local)) = c.xsi_type()? else {{");
        match variants
            .iter()
            .find(|v| matches!(v.source, Source::XsiType { declared: true, .. }))
        {
            Some(v) => {
                let _ = writeln!(o, "        return {};", wrap(v, read(v, self.plan)));
            }
            None => {
                let _ = writeln!(o, "        let m = \"the element's type is abstract: xsi:type must name a type derived from it\";");
                let _ = writeln!(
                    o,
                    "        return Err(c.fail({B}::Fault::new(\"cvc-type.2\", m)));"
                );
            }
        }
        let _ = writeln!(o, "    }};");
        let _ = writeln!(o, "    match (ns.as_str(), local.as_str()) {{");
        for v in variants {
            let Source::XsiType { ns, local, .. } = &v.source else {
                return unsupported(format!("{name}: a family variant without a type name"));
            };
            let pattern = format!("({ns:?}, {local:?})");
            arm(&mut o, "        ", &pattern, &wrap(v, read(v, self.plan)));
        }
        let _ = writeln!(o, "        _ => Err(c.not_derived(&ns, &local)),");
        let _ = writeln!(o, "    }}");
        let _ = writeln!(o, "}}");
        self.out.push_str(&o);
        Ok(())
    }

    /// The elements a value of this source and type may start with.
    fn first_set(&mut self, source: &Source, ty: &Ty) -> R<Vec<First>> {
        let plan = self.plan;
        match source {
            Source::Element { ns, local, .. } => Ok(vec![First::Name(ns.clone(), local.clone())]),
            Source::Group => {
                let Ty::Item(id) = ty else {
                    return unsupported("a group without an item");
                };
                match &plan.item(*id).kind {
                    // Any element of an `all` group may come first.
                    ItemKind::Struct { fields } if self.all_groups.contains(id) => {
                        let mut all = Vec::new();
                        for f in fields {
                            all.extend(self.first_set(&f.source, &f.ty)?);
                        }
                        Ok(all)
                    }
                    ItemKind::Choice { variants } => {
                        let mut all = Vec::new();
                        for v in variants {
                            all.extend(self.first_set(&v.source, &v.ty)?);
                        }
                        Ok(all)
                    }
                    ItemKind::Struct { fields } => {
                        let mut all = Vec::new();
                        for f in fields {
                            all.extend(self.first_set(&f.source, &f.ty)?);
                            let optional = match f.occurs {
                                Occurs::One => false,
                                Occurs::Optional => true,
                                Occurs::Many { min, .. } => min == 0,
                            };
                            if !optional {
                                break;
                            }
                        }
                        Ok(all)
                    }
                    k => unsupported(format!("a group of {k:?}")),
                }
            }
            Source::AnyElement(w) => Ok(vec![First::Any {
                constant: self.wildcard(w),
                names: self.wildcard_names(w),
            }]),
            Source::Mixed => unsupported("mixed content"),
            s => unsupported(format!("content from {s:?}")),
        }
    }

    /// Whether a field or variant may match no element at all: its occurrence allows zero, or
    /// it is a group whose content may be empty. Such a particle is not entered on its first
    /// set alone (nothing there is no error).
    fn emptiable(&self, source: &Source, ty: &Ty, occurs: Occurs) -> bool {
        match occurs {
            Occurs::Optional | Occurs::Many { min: 0, .. } => return true,
            _ => {}
        }
        let (Source::Group, Ty::Item(id)) = (source, ty) else {
            return false;
        };
        match &self.plan.item(*id).kind {
            ItemKind::Choice { variants } => variants
                .iter()
                .any(|v| self.emptiable(&v.source, &v.ty, v.occurs)),
            ItemKind::Struct { fields } => fields
                .iter()
                .all(|f| self.emptiable(&f.source, &f.ty, f.occurs)),
            _ => false,
        }
    }

    /// The expression reading one occurrence of a content field.
    fn read_field(&mut self, f: &Field) -> R<String> {
        let constraint = f.value_constraint.as_ref();
        self.read_one(&f.source, &f.ty, f.simple, f.boxed, constraint)
    }

    /// The expression reading one occurrence of a content field or variant.
    fn read_one(
        &mut self,
        source: &Source,
        ty: &Ty,
        simple: Option<SimpleTypeId>,
        boxed: bool,
        constraint: Option<&(bool, String)>,
    ) -> R<String> {
        match source {
            Source::Element {
                local,
                block,
                nillable,
                element,
                ..
            } => self.value(
                ty, simple, boxed, local, constraint, *block, *nillable, *element,
            ),
            // Validate-only code names the globals the content is read with (the object
            // readers' field types say it).
            Source::AnyElement(w) if self.events => Ok(format!(
                "{B}::events::wildcard::<Document, _, _>(&{}, c, h)?",
                self.wildcard(w)
            )),
            Source::AnyElement(w) if self.check => {
                Ok(format!("{}.check::<Document, _>(c)?", self.wildcard(w)))
            }
            Source::AnyElement(w) => Ok(format!("{}.read(c)?", self.wildcard(w))),
            Source::Group => {
                let Ty::Item(id) = ty else {
                    return unsupported("a group without an item");
                };
                let r = format!(
                    "{}(c, more{})?",
                    self.reader_name(self.plan.item(*id)),
                    self.handler_arg()
                );
                Ok(if boxed && !self.check {
                    format!("Box::new({r})")
                } else {
                    r
                })
            }
            s => unsupported(format!("content from {s:?}")),
        }
    }

    /// Reads occurrences into `var` while the current child starts one, at most `max`, at
    /// least `min`.
    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        o: &mut String,
        var: &str,
        (source, ty): (&Source, &Ty),
        read: &str,
        start: &Start,
        min: u32,
        max: Option<u32>,
        depth: usize,
    ) {
        let test = &start.test;
        // One more of the same is what most likely comes next.
        let child = self.advance(start.first.as_ref());
        let pad = "    ".repeat(depth);
        // Validate-only code counts the occurrences, when a bound needs the count.
        // A group that may be empty meets its minimum with empty occurrences.
        let min = match self.emptiable(source, ty, Occurs::One) {
            true => 0,
            false => min,
        };
        let counted = !self.check || min > 0 || max.is_some();
        let len = match self.check {
            true => var.to_string(),
            false => format!("{var}.len()"),
        };
        match (self.check, counted) {
            (false, _) => {
                let _ = writeln!(o, "{pad}let mut {var} = Vec::new();");
            }
            (true, true) => {
                let _ = writeln!(o, "{pad}let mut {var} = 0usize;");
            }
            (true, false) => {}
        }
        let bound = max.map(|m| format!("{len} < {m}"));
        let operands: Vec<&str> = ["*more"]
            .into_iter()
            .chain(bound.as_deref())
            .chain([test.as_str()])
            .collect();
        let line = format!("{pad}while {} {{", operands.join(" && "));
        if line.len() + self.indent <= 100 {
            let _ = writeln!(o, "{line}");
        } else {
            // As rustfmt breaks it: an operand a line, the brace on its own.
            let _ = writeln!(o, "{pad}while {}", operands[0]);
            for operand in &operands[1..] {
                let _ = writeln!(o, "{pad}    && {operand}");
            }
            let _ = writeln!(o, "{pad}{{");
        }
        match (self.check, counted) {
            (false, _) => {
                let _ = writeln!(o, "{pad}    {var}.push({read});");
            }
            (true, true) => {
                self.stmt(o, &format!("{pad}    "), read);
                let _ = writeln!(o, "{pad}    {var} += 1;");
            }
            (true, false) => self.stmt(o, &format!("{pad}    "), read),
        }
        if !matches!(source, Source::Group) {
            let _ = writeln!(o, "{pad}    *more = {child}?;");
        }
        let _ = writeln!(o, "{pad}}}");
        if min > 0 {
            // `is_empty` where clippy would ask for it in the user's crate.
            let short = match (self.check, min) {
                (false, 1) => format!("{var}.is_empty()"),
                (true, 1) => format!("{var} == 0"),
                _ => format!("{len} < {min}"),
            };
            let _ = writeln!(o, "{pad}if {short} {{");
            // A wildcard's names start "an element": "another element".
            let names = &start.names;
            let what = format!("another {}", names.strip_prefix("an ").unwrap_or(names));
            // In an `impl`, four columns further in than written here.
            let write = match self.indent {
                0 => unexpected,
                _ => unexpected_in,
            };
            write(o, &format!("{pad}    "), "return Err(", &what, ");");
            let _ = writeln!(o, "{pad}}}");
        }
    }

    /// The reader of field `f` of a sequence, the source at its first child or past its
    /// end; `next` is the element most likely after it.
    fn field(&mut self, o: &mut String, f: &Field, next: Option<&First>) -> R<()> {
        let first = self.first_set(&f.source, &f.ty)?;
        let start = Start::of(&first);
        let test = &start.test;
        let read = self.read_field(f)?;
        let advance = !matches!(f.source, Source::Group);
        let child = self.advance(next);
        match f.occurs {
            Occurs::One => {
                // A group that may be empty reads itself whatever comes next.
                if !self.emptiable(&f.source, &f.ty, f.occurs) {
                    let _ = writeln!(o, "    if !(*more && {test}) {{");
                    unexpected(o, "        ", "return Err(", &start.names, ");");
                    let _ = writeln!(o, "    }}");
                }
                match self.check {
                    true => self.stmt(o, "    ", &read),
                    false => {
                        let _ = writeln!(o, "    let {} = {read};", local_name(f));
                    }
                }
                if advance {
                    let _ = writeln!(o, "    *more = {child}?;");
                }
            }
            Occurs::Optional if self.check => {
                let _ = writeln!(o, "    if *more && {test} {{");
                self.stmt(o, "        ", &read);
                if advance {
                    let _ = writeln!(o, "        *more = {child}?;");
                }
                let _ = writeln!(o, "    }}");
            }
            Occurs::Optional => {
                let _ = writeln!(o, "    let {} = if *more && {test} {{", local_name(f));
                let _ = writeln!(o, "        let v = {read};");
                if advance {
                    let _ = writeln!(o, "        *more = {child}?;");
                }
                let _ = writeln!(o, "        Some(v)");
                let _ = writeln!(o, "    }} else {{");
                let _ = writeln!(o, "        None");
                let _ = writeln!(o, "    }};");
            }
            Occurs::Many { min, max } => {
                let item = (&f.source, &f.ty);
                self.repeat(o, &local_name(f), item, &read, &start, min, max, 1);
            }
        }
        Ok(())
    }

    /// The conversion of simple type `st`: `fn value_N(s: &str) -> Result<T, Fault>`.
    fn conversion(&mut self, st: SimpleTypeId) -> R<String> {
        let schema = self.schema;
        let t = schema.simple_type(st);
        let display = t.name.map_or_else(
            || "an anonymous simple type".to_string(),
            |n| schema.names().display(n),
        );
        let (rust, item) = self.rust_simple(st)?;
        let mut o = String::new();
        let _ = writeln!(o);
        let _ = writeln!(o, "/// The value of simple type {display}.");
        let params = match scoped(schema, st) {
            true => format!("s: &str, scope: &{B}::Bindings"),
            false => "s: &str".to_string(),
        };
        signature(
            &mut o,
            &conversion_name(st),
            &params,
            &format!("Result<{rust}, {B}::Fault>"),
        );
        let b = match &t.variety {
            // NMTOKENS, IDREFS and ENTITIES: atomic in the model, lists of strings here.
            // With an enumeration, an enum of the allowed lists: read below as strings, their
            // canonical form (the items joined by a space) matched.
            Variety::Atomic(b) if b.is_list() && t.facets.enumeration.is_none() => {
                let items = b.item_type().expect("a built-in list has items");
                let _ = writeln!(
                    o,
                    "    let v = {B}::value::string_list(s, xwire::datatypes::Builtin::{items:?})?;"
                );
                self.list_facets(&mut o, st, &display, &t.facets, None)?;
                self.list_end(&mut o, &t.facets, item);
                return Ok(o);
            }
            Variety::Atomic(b) => *b,
            Variety::List(items) => {
                self.conversions.insert(*items);
                let _ = writeln!(o, "    let v = s");
                let _ = writeln!(o, "        .split([' ', '\\t', '\\n', '\\r'])");
                let _ = writeln!(o, "        .filter(|t| !t.is_empty())");
                match scoped(schema, *items) {
                    true => {
                        let call = conversion_apply(schema, *items, "t");
                        let _ = writeln!(o, "        .map(|t| {call})");
                    }
                    false => {
                        let _ = writeln!(o, "        .map({})", conversion_name(*items));
                    }
                }
                let _ = writeln!(o, "        .collect::<Result<Vec<_>, _>>()?;");
                self.list_facets(&mut o, st, &display, &t.facets, Some(*items))?;
                self.list_end(&mut o, &t.facets, item);
                return Ok(o);
            }
            Variety::Union(members) => {
                self.union(&mut o, &display, &t.facets, item, members)?;
                let _ = writeln!(o, "}}");
                return Ok(o);
            }
        };
        let f = &t.facets;
        let prim = match self.prim_of(st) {
            Some(p) => p,
            None => return unsupported(display),
        };
        let base = match prim {
            Prim::String => format!("{B}::value::string(s, xwire::datatypes::Builtin::{b:?})?"),
            Prim::Int(it) => {
                let (lo, hi) = int_range(it, f, b);
                format!("{B}::value::int::<{}>(s, {lo}, {hi})?", it.name())
            }
            Prim::Integer => {
                let (lo, hi) = crate::plan::integer_bounds(b, f);
                let o = |v: Option<i128>| v.map_or("None".to_string(), |v| format!("Some({v})"));
                format!("{B}::value::integer(s, {}, {})?", o(lo), o(hi))
            }
            Prim::Decimal => format!("{B}::value::decimal(s)?"),
            Prim::F32 => format!("{B}::value::float(s)?"),
            Prim::F64 => format!("{B}::value::double(s)?"),
            Prim::Bool => format!("{B}::value::boolean(s)?"),
            Prim::Duration => format!("{B}::value::duration(s)?"),
            Prim::Bytes if b.primitive() == Builtin::HexBinary => {
                format!("{B}::value::hex_binary(s)?")
            }
            Prim::Bytes => format!("{B}::value::base64_binary(s)?"),
            Prim::DateTime(k) => format!("{B}::value::{}(s)?", temporal_fn(k)),
            Prim::QName => format!("{B}::value::qname(s, scope)?"),
            p => return unsupported(format!("{display}: values of {p:?}")),
        };
        // Facets with a direct check here: integer ranges (in `int`/`integer`), lengths of
        // strings, enumerations of strings. Ranges of other types, digit counts and lengths
        // of binary values go through the validator's own facet checks (`Facets`).
        let stringy = prim == Prim::String;
        let integral = matches!(prim, Prim::Int(_) | Prim::Integer);
        // An enumeration of values that are not strings is matched in the value space
        // (`bind::Enumeration`), which reads the value itself.
        // QNames are matched by expanded name, below.
        let valued_enum = f.enumeration.is_some() && !stringy && prim != Prim::QName;
        let mut general: Vec<(&str, String)> = Vec::new();
        if !integral {
            let bounds = [
                ("minInclusive", &f.min_inclusive),
                ("maxInclusive", &f.max_inclusive),
                ("minExclusive", &f.min_exclusive),
                ("maxExclusive", &f.max_exclusive),
            ];
            for (name, bound) in bounds {
                if let Some(v) = bound {
                    general.push((name, v.value.canonical()));
                }
            }
        }
        if let Some(t) = &f.total_digits {
            general.push(("totalDigits", t.value.to_string()));
        }
        if let (Some(d), false) = (&f.fraction_digits, integral) {
            general.push(("fractionDigits", d.value.to_string()));
        }
        // Lengths are always met by QNames (erratum E2-36).
        if !stringy && prim != Prim::QName {
            let lengths = [
                ("length", &f.length),
                ("minLength", &f.min_length),
                ("maxLength", &f.max_length),
            ];
            for (name, l) in lengths {
                if let Some(l) = l {
                    general.push((name, l.value.to_string()));
                }
            }
        }
        if !valued_enum {
            let _ = writeln!(o, "    let v = {base};");
        }
        let lexical = if stringy {
            "&v"
        } else {
            "xwire::datatypes::trim_xml(s)"
        };
        if !general.is_empty() {
            let sname = format!("FACETS_{}", st.index());
            let spec: Vec<String> = general
                .iter()
                .map(|(n, v)| format!("({n:?}, {v:?})"))
                .collect();
            let _ = writeln!(self.statics);
            static_call(
                &mut self.statics,
                &format!("static {sname}: {B}::Facets"),
                &format!("{B}::Facets::new"),
                &format!("xwire::datatypes::Builtin::{b:?}"),
                &spec,
            );
            // A decimal read already is checked as it is, not read again.
            let check = match (prim, b, valued_enum) {
                (Prim::Decimal, Builtin::Decimal, false) => "check_decimal(&v)",
                _ => "check(s)",
            };
            let _ = writeln!(o, "    {sname}.{check}?;");
        }
        if stringy && (f.length.is_some() || f.min_length.is_some() || f.max_length.is_some()) {
            let (min, max) = length_bounds(f);
            let _ = writeln!(o, "    {B}::value::length(&v, {min}, {max})?;");
        }
        self.patterns(&mut o, st, &display, f, lexical)?;
        match (item, &f.enumeration) {
            (Some(id), Some(values)) => {
                let it = self.plan.item(id);
                let ItemKind::Enumeration {
                    values: variants, ..
                } = &it.kind
                else {
                    return unsupported(format!("{display}: an enumeration without its enum"));
                };
                if valued_enum {
                    let lexicals: Vec<String> =
                        values.iter().map(|(_, l)| format!("{l:?}")).collect();
                    let sname = format!("VALUES_{}", st.index());
                    let _ = writeln!(self.statics);
                    static_call(
                        &mut self.statics,
                        &format!("static {sname}: {B}::Enumeration"),
                        &format!("{B}::Enumeration::new"),
                        &format!("xwire::datatypes::Builtin::{b:?}"),
                        &lexicals,
                    );
                    let _ = writeln!(o, "    let i = {sname}.position(s)?;");
                    let all = variants
                        .iter()
                        .map(|(v, _)| format!("{}::{v}", it.name))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let _ = writeln!(o, "    Ok([{all}][i])");
                    let _ = writeln!(o, "}}");
                    return Ok(o);
                }
                match prim {
                    // The schema's values, resolved where the schema wrote them.
                    Prim::QName => {
                        let _ = writeln!(o, "    match (v.ns.as_str(), v.local.as_str()) {{");
                        for ((variant, _), (value, _)) in variants.iter().zip(values) {
                            let Value::QName {
                                namespace, local, ..
                            } = value
                            else {
                                return unsupported(format!("{display}: a value not a QName"));
                            };
                            let value = format!("Ok({}::{variant})", it.name);
                            arm(
                                &mut o,
                                "        ",
                                &format!("({namespace:?}, {local:?})"),
                                &value,
                            );
                        }
                    }
                    _ => {
                        let _ = writeln!(o, "    match v.as_str() {{");
                        for ((variant, _), (_, lexical)) in variants.iter().zip(values) {
                            let value = format!("Ok({}::{variant})", it.name);
                            arm(&mut o, "        ", &format!("{lexical:?}"), &value);
                        }
                    }
                }
                let all = values
                    .iter()
                    .map(|(_, l)| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                let shown = match prim {
                    Prim::QName => "xwire::datatypes::trim_xml(s)",
                    _ => "&v",
                };
                let inner = format!("{B}::value::not_enumerated({shown}, {all:?})");
                let call = format!("Err({inner})");
                // One line when it fits in 100 characters and the inner call in rustfmt's
                // `fn_call_width` (60).
                if format!("        _ => {call},").len() <= 100 && inner.len() <= 60 {
                    let _ = writeln!(o, "        _ => {call},");
                } else {
                    let _ = writeln!(o, "        _ => Err({B}::value::not_enumerated(");
                    let _ = writeln!(o, "            {shown},");
                    let _ = writeln!(o, "            {all:?},");
                    let _ = writeln!(o, "        )),");
                }
                let _ = writeln!(o, "    }}");
            }
            (Some(id), None) => {
                let _ = writeln!(o, "    Ok({}(v))", self.plan.item(id).name);
            }
            (None, _) => {
                let _ = writeln!(o, "    Ok(v)");
            }
        }
        let _ = writeln!(o, "}}");
        Ok(o)
    }

    /// The checks of `st`'s pattern facets on `lexical` (an expression of the value's lexical
    /// form): each derivation step's patterns, any of which may match.
    fn patterns(
        &mut self,
        o: &mut String,
        st: SimpleTypeId,
        display: &str,
        f: &Facets,
        lexical: &str,
    ) -> R<()> {
        for (step, patterns) in f.patterns.iter().enumerate() {
            let mut names = Vec::new();
            for (k, p) in patterns.iter().enumerate() {
                let Some(table) = p.table() else {
                    return unsupported(format!(
                        "{display}: the pattern '{}' is too large for a table",
                        p.as_str()
                    ));
                };
                let sname = format!("PATTERN_{}_{step}_{k}", st.index());
                self.pattern_static(&sname, &table);
                names.push((sname, p.as_str().to_string()));
            }
            if names.len() == 1 {
                let (dfa, pattern) = (format!("&{}", names[0].0), format!("{:?}", names[0].1));
                let args = [lexical, dfa.as_str(), pattern.as_str()];
                call_fn(
                    o,
                    "    ",
                    0,
                    "",
                    &format!("{B}::value::pattern"),
                    &args,
                    "?;",
                );
            } else {
                let any = names
                    .iter()
                    .map(|(n, _)| format!("{n}.matches({lexical})"))
                    .collect::<Vec<_>>()
                    .join(" || ");
                let all = names
                    .iter()
                    .map(|(_, p)| p.as_str())
                    .collect::<Vec<_>>()
                    .join("' or '");
                let _ = writeln!(o, "    if !({any}) {{");
                let _ = writeln!(o, "        let m = format!(\"'{{}}' does not match the pattern '{}'\", {lexical});", all.replace('"', "\\\"").replace('{', "{{").replace('}', "}}"));
                let _ = writeln!(
                    o,
                    "        return Err({B}::Fault::new(\"cvc-pattern-valid\", m));"
                );
                let _ = writeln!(o, "    }}");
            }
        }
        Ok(())
    }

    /// A list's pattern facets, on its lexical form with white space collapsed, and its
    /// enumeration, in the value space: each allowed list converted by the item type's
    /// conversion (`items`) and compared item by item.
    fn list_facets(
        &mut self,
        o: &mut String,
        st: SimpleTypeId,
        display: &str,
        f: &Facets,
        items: Option<SimpleTypeId>,
    ) -> R<()> {
        if f.patterns.is_empty() && f.enumeration.is_none() {
            return Ok(());
        }
        let _ = writeln!(o, "    let lexical = {B}::value::list_lexical(s);");
        self.patterns(o, st, display, f, "&lexical")?;
        let Some(values) = &f.enumeration else {
            return Ok(());
        };
        let Some(items) = items else {
            return unsupported(format!("{display}: an enumeration on a built-in list"));
        };
        if scoped(self.schema, items) {
            return unsupported(format!("{display}: an enumeration on a list of QNames"));
        }
        let allowed: Vec<String> = values.iter().map(|(_, l)| format!("{l:?}")).collect();
        let all = values
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let conv = conversion_name(items);
        let _ = writeln!(o, "    let allowed = [{}];", allowed.join(", "));
        let _ = writeln!(
            o,
            "    if !{B}::value::list_enumerated(&v, &allowed, {conv}) {{"
        );
        let _ = writeln!(o, "        let all = {all:?};");
        let _ = writeln!(
            o,
            "        return Err({B}::value::not_enumerated(&lexical, all));"
        );
        let _ = writeln!(o, "    }}");
        Ok(())
    }

    /// The end of a list type's conversion, its items in `v`: their number checked against the
    /// length facets, the value wrapped in the type's newtype when it has one.
    fn list_end(&self, o: &mut String, f: &Facets, item: Option<ItemId>) {
        if f.length.is_some() || f.min_length.is_some() || f.max_length.is_some() {
            let (min, max) = length_bounds(f);
            let _ = writeln!(o, "    {B}::value::items(v.len(), {min}, {max})?;");
        }
        match item {
            Some(id) => {
                let _ = writeln!(o, "    Ok({}(v))", self.plan.item(id).name);
            }
            None => {
                let _ = writeln!(o, "    Ok(v)");
            }
        }
        let _ = writeln!(o, "}}");
    }

    /// The body of a union's conversion: the first member type the value converts to.
    fn union(
        &mut self,
        o: &mut String,
        display: &str,
        f: &Facets,
        item: Option<ItemId>,
        members: &[SimpleTypeId],
    ) -> R<()> {
        if !f.patterns.is_empty() || f.enumeration.is_some() {
            return unsupported(format!(
                "{display}: a pattern or enumeration on a union type"
            ));
        }
        let Some(id) = item else {
            return unsupported(format!("{display}: a union without its enum"));
        };
        let it = self.plan.item(id);
        let ItemKind::Union { members: variants } = &it.kind else {
            return unsupported(format!("{display}: a union without its enum"));
        };
        for (&m, (variant, _)) in members.iter().zip(variants) {
            self.conversions.insert(m);
            let call = conversion_apply(self.schema, m, "s");
            // A member whose values a scan rules out is passed over without its fault.
            let screened = match self.schema.simple_type(m).variety {
                Variety::Atomic(b) if has_restricted_form(b) => Some(format!(
                    "{B}::value::may_be(xwire::datatypes::Builtin::{b:?}, s)"
                )),
                _ => None,
            };
            let pad = match &screened {
                Some(test) => {
                    let _ = writeln!(o, "    if {test} {{");
                    "    "
                }
                None => "",
            };
            let _ = writeln!(o, "    {pad}if let Ok(v) = {call} {{");
            let _ = writeln!(o, "    {pad}    return Ok({}::{variant}(v));", it.name);
            let _ = writeln!(o, "    {pad}}}");
            if screened.is_some() {
                let _ = writeln!(o, "    }}");
            }
        }
        let _ = writeln!(o, "    Err({B}::value::no_member(s))");
        Ok(())
    }

    /// The Rust type a conversion returns, and the plan's item for it when it has one.
    fn rust_simple(&self, st: SimpleTypeId) -> R<(String, Option<ItemId>)> {
        match self.plan.simple_types.get(&st) {
            Some(Ty::Item(id)) => Ok((self.plan.item(*id).name.clone(), Some(*id))),
            Some(t) => Ok((crate::emit::rust_type(self.plan, t), None)),
            None => unsupported(format!("simple type {} has no Rust type", st.index())),
        }
    }

    /// The primitive a simple type's values convert through (its base's, for a newtype or
    /// an enumeration).
    /// The runtime check (`bind::value::check_string`, `check_decimal`, `check_float`,
    /// `check_double`) that validate-only code may call for a value of `st` instead of its
    /// conversion: those types without facets, whose value would only be built to be dropped.
    fn light_check(&self, st: SimpleTypeId) -> Option<&'static str> {
        let t = self.schema.simple_type(st);
        let f = &t.facets;
        let plain = f.length.is_none()
            && f.min_length.is_none()
            && f.max_length.is_none()
            && f.total_digits.is_none()
            && f.fraction_digits.is_none()
            && f.min_inclusive.is_none()
            && f.max_inclusive.is_none()
            && f.min_exclusive.is_none()
            && f.max_exclusive.is_none()
            && f.enumeration.is_none()
            && f.patterns.is_empty();
        match (&t.variety, self.prim_of(st)) {
            (Variety::Atomic(Builtin::String), Some(Prim::String)) if plain => Some("check_string"),
            (Variety::Atomic(Builtin::Decimal), Some(Prim::Decimal)) if plain => {
                Some("check_decimal")
            }
            (Variety::Atomic(Builtin::Float), Some(Prim::F32)) if plain => Some("check_float"),
            (Variety::Atomic(Builtin::Double), Some(Prim::F64)) if plain => Some("check_double"),
            _ => None,
        }
    }

    fn prim_of(&self, st: SimpleTypeId) -> Option<Prim> {
        match self.plan.simple_types.get(&st)? {
            Ty::Prim(p) => Some(*p),
            Ty::Item(id) => match &self.plan.item(*id).kind {
                ItemKind::Newtype { inner: Ty::Prim(p) } => Some(*p),
                ItemKind::Enumeration { base, .. } => Some(*base),
                _ => None,
            },
            Ty::List(_) => None,
        }
    }

    fn pattern_static(&mut self, name: &str, t: &xwire_schema::regex::PatternTable) {
        let bytes = |b: &[u8]| b.iter().map(|x| format!("\\x{x:02x}")).collect::<String>();
        let next: Vec<u8> = t.next.iter().flat_map(|n| n.to_le_bytes()).collect();
        let accept: Vec<u8> = t.accept.iter().map(|&a| a as u8).collect();
        let o = &mut self.statics;
        let _ = writeln!(o);
        let _ = writeln!(o, "static {name}: {B}::Dfa = {B}::Dfa {{");
        let _ = writeln!(o, "    classes: b\"{}\",", bytes(&t.classes));
        let _ = writeln!(o, "    stride: {},", t.stride);
        let _ = writeln!(o, "    next: b\"{}\",", bytes(&next));
        let _ = writeln!(o, "    accept: b\"{}\",", bytes(&accept));
        let _ = writeln!(o, "    start: {},", t.start);
        let _ = writeln!(o, "}};");
    }
}

/// A function's first line, or its first three when rustfmt would break it (over 100
/// characters): the parameters on a line of their own.
fn signature(o: &mut String, name: &str, params: &str, ret: &str) {
    signature_in(o, "", 0, name, params, ret)
}

/// [`signature`] with a visibility (`"pub "`), for a function that will be indented by
/// `indent` (inside an `impl`).
fn signature_in(o: &mut String, vis: &str, indent: usize, name: &str, params: &str, ret: &str) {
    let line = format!("{vis}fn {name}({params}) -> {ret} {{");
    if line.len() + indent <= 100 {
        let _ = writeln!(o, "{line}");
    } else {
        let _ = writeln!(o, "{vis}fn {name}(");
        for p in params.split(", ") {
            let _ = writeln!(o, "    {p},");
        }
        let _ = writeln!(o, ") -> {ret} {{");
    }
}

/// Whether code uses the handler `h` (other than declaring it).
fn uses_handler(code: &str) -> bool {
    let b = code.as_bytes();
    code.match_indices('h').any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| b[j]);
        let word_start = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
        word_start && matches!(b.get(i + 1), Some(b'.' | b')' | b','))
    })
}

/// `read` (an expression, or statements a line each) as statements at `pad`, in code that
/// will be indented by `indent` more columns: an event's call broken as rustfmt breaks it.
fn stmt_in(o: &mut String, pad: &str, indent: usize, read: &str) {
    for line in read.lines() {
        let line = line.trim_end_matches(';');
        match line
            .strip_prefix("h.start(")
            .and_then(|a| a.strip_suffix(')'))
        {
            Some(args) => {
                let args: Vec<&str> = args.split(", ").collect();
                call_fn(o, pad, indent, "", "h.start", &args, ";");
            }
            None => {
                let _ = writeln!(o, "{pad}{line};");
            }
        }
    }
}

/// `text` with every line that is not empty indented by four spaces.
fn indented(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        if !line.is_empty() {
            out.push_str("    ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// [`unexpected`] in code that will be indented by four more columns.
fn unexpected_in(o: &mut String, pad: &str, head: &str, what: &str, tail: &str) {
    let mut wide = String::new();
    unexpected(&mut wide, &format!("    {pad}"), head, what, tail);
    for line in wide.lines() {
        let _ = writeln!(o, "{}", line.strip_prefix("    ").unwrap_or(line));
    }
}

/// `{head}c.unexpected("{what}"){tail}` at `pad`, broken as rustfmt breaks it past 100
/// characters (the message on a line of its own).
fn unexpected(o: &mut String, pad: &str, head: &str, what: &str, tail: &str) {
    let line = format!("{pad}{head}c.unexpected({what:?}){tail}");
    let inner = format!("{pad}    c.unexpected({what:?})");
    if line.len() <= 100 {
        let _ = writeln!(o, "{line}");
    } else if head.ends_with("Err(") && inner.len() <= 100 {
        // rustfmt breaks the outer call first, when the inner one fits on a line of its own.
        let _ = writeln!(o, "{pad}{head}");
        let _ = writeln!(o, "{inner}");
        let _ = writeln!(o, "{pad}{tail}");
    } else {
        let _ = writeln!(o, "{pad}{head}c.unexpected(");
        let _ = writeln!(o, "{pad}    {what:?},");
        let _ = writeln!(o, "{pad}){tail}");
    }
}

/// A match arm `{pattern} => {value},` at `pad`, or in a block where rustfmt would put it
/// (past 100 characters).
pub(crate) fn arm(o: &mut String, pad: &str, pattern: &str, value: &str) {
    arm_in(o, pad, 0, pattern, value);
}

/// [`arm`] in code that will be indented by `indent` more columns.
fn arm_in(o: &mut String, pad: &str, indent: usize, pattern: &str, value: &str) {
    let line = format!("{pad}{pattern} => {value},");
    if line.len() + indent <= 100 {
        let _ = writeln!(o, "{line}");
    } else {
        let _ = writeln!(o, "{pad}{pattern} => {{");
        let _ = writeln!(o, "{pad}    {value}");
        let _ = writeln!(o, "{pad}}}");
    }
}

/// The body of a `Globals` function of `(ns, local)`: a match of the expanded names in
/// `arms` to their values, `other` for the rest (alone when there are no arms), in code
/// that will be indented by four more columns.
fn match_names(o: &mut String, arms: &[((String, String), String)], other: &str) {
    if arms.is_empty() {
        let _ = writeln!(o, "    {other}");
        return;
    }
    let _ = writeln!(o, "    match (ns, local) {{");
    for ((ns, local), value) in arms {
        arm_in(o, "        ", 4, &format!("({ns:?}, {local:?})"), value);
    }
    let _ = writeln!(o, "        _ => {other},");
    let _ = writeln!(o, "    }}");
}

/// The struct items of the elements that are nillable (content elements and roots).
fn nil_items(plan: &Plan, schema: &Schema) -> HashSet<ItemId> {
    let mut items = HashSet::new();
    let mut add = |source: &Source, ty: &Ty| {
        if let (Source::Element { nillable: true, .. }, Ty::Item(id)) = (source, ty) {
            items.insert(*id);
        }
    };
    for item in &plan.items {
        match &item.kind {
            ItemKind::Struct { fields } => fields.iter().for_each(|f| add(&f.source, &f.ty)),
            ItemKind::Choice { variants } => variants.iter().for_each(|v| add(&v.source, &v.ty)),
            _ => {}
        }
    }
    for root in &plan.roots {
        if let (true, Ty::Item(id)) = (schema.element(root.element).nillable, &root.ty) {
            items.insert(*id);
        }
    }
    items
}

/// Whether a field holds attributes (a use, or what the attribute wildcard keeps).
fn is_attribute(f: &Field) -> bool {
    matches!(
        f.source,
        Source::Attribute { .. } | Source::AnyAttributes(_)
    )
}

/// `let _ = (a, b);` of the attribute locals a reader checked but does not keep (a nil
/// element's, a stream's root's), so the user's crate has no unused-variable warning.
fn discard_attributes(o: &mut String, fields: &[Field]) {
    discard(o, fields.iter().filter(|f| is_attribute(f)));
}

/// `let _ = (a, b);` of the locals of `fields`.
fn discard<'f>(o: &mut String, fields: impl Iterator<Item = &'f Field>) {
    let kept: Vec<String> = fields.map(local_name).collect();
    match kept.as_slice() {
        [] => {}
        [one] => {
            let _ = writeln!(o, "    let _ = {one};");
        }
        _ => {
            let _ = writeln!(o, "    let _ = ({});", kept.join(", "));
        }
    }
}

/// The runtime's `IdKind` of values of simple type `st`, if they are IDs or IDREFs.
fn id_kind(schema: &Schema, st: SimpleTypeId) -> Option<String> {
    use xwire_schema::validate::IdKind;
    let kind = match xwire_schema::validate::id_kind(schema, st) {
        IdKind::None => return None,
        IdKind::Id => "Id",
        IdKind::IdRef => "IdRef",
        IdKind::IdRefs => "IdRefs",
    };
    Some(format!("{B}::IdKind::{kind}"))
}

/// `{pad}{head}{callee}({args}){tail}` as rustfmt writes it, in code that will be indented by
/// `indent` more columns: on one line when it fits in 100, else one argument a line.
fn call_fn(
    o: &mut String,
    pad: &str,
    indent: usize,
    head: &str,
    callee: &str,
    args: &[&str],
    tail: &str,
) {
    let joined = args.join(", ");
    let line = format!("{pad}{head}{callee}({joined}){tail}");
    // rustfmt's limits: 100 columns, and 60 for a call's arguments (`fn_call_width`).
    if line.len() + indent <= 100 && joined.len() <= 60 {
        let _ = writeln!(o, "{line}");
        return;
    }
    let _ = writeln!(o, "{pad}{head}{callee}(");
    for a in args {
        let _ = writeln!(o, "{pad}    {a},");
    }
    let _ = writeln!(o, "{pad}){tail}");
}

/// Whether a content particle is an `all` group that occurs exactly once.
fn is_all_once(schema: &Schema, p: &Particle) -> bool {
    match &p.term {
        Term::Group(g) => {
            schema.model_group(*g).compositor == Compositor::All
                && p.min_occurs == 1
                && p.max_occurs == xwire_schema::model::MaxOccurs::Bounded(1)
        }
        _ => false,
    }
}

/// The item of an `all` group that is the whole content, optional (`minOccurs="0"`), of
/// elements alone: the one group field among `fields`.
fn optional_all(schema: &Schema, p: &Particle, fields: &[Field]) -> Option<ItemId> {
    let Term::Group(g) = &p.term else {
        return None;
    };
    let group = schema.model_group(*g);
    let elements = group
        .particles
        .iter()
        .all(|q| matches!(q.term, Term::Element(_)));
    if group.compositor != Compositor::All || p.min_occurs != 0 || !elements {
        return None;
    }
    let mut groups = fields.iter().filter(|f| f.source == Source::Group);
    match (groups.next(), groups.next()) {
        (
            Some(Field {
                ty: Ty::Item(id),
                occurs: Occurs::Optional,
                ..
            }),
            None,
        ) => Some(*id),
        _ => None,
    }
}

fn has_all(schema: &Schema, p: &Particle) -> bool {
    match &p.term {
        Term::Group(g) => {
            let group = schema.model_group(*g);
            group.compositor == Compositor::All
                || group.particles.iter().any(|q| has_all(schema, q))
        }
        _ => false,
    }
}

/// A field name without `r#`, for variables derived from it.
fn bare(name: &str) -> &str {
    name.trim_start_matches("r#")
}

/// The local variable a reader keeps a field's value in: the field's name, unless the
/// reader's own variables (`c`, `more`, `at`) or attribute slots (`attr_*`) have it.
fn local_name(f: &Field) -> String {
    let b = bare(&f.name);
    if matches!(b, "c" | "more" | "at") || b.starts_with("attr_") {
        format!("{b}_")
    } else {
        f.name.clone()
    }
}

/// What a particle may start with: an element of some name, or one a wildcard admits.
#[derive(Clone, Debug)]
enum First {
    /// Namespace URI and local name.
    Name(String, String),
    /// The wildcard's constant, and how messages name what it admits.
    Any { constant: String, names: String },
}

impl First {
    /// The test on the source.
    fn test(&self) -> String {
        match self {
            First::Name(ns, local) => element_test(ns, local),
            First::Any { constant, .. } => format!("{constant}.matches(c)"),
        }
    }

    /// How messages name it.
    fn display(&self) -> String {
        match self {
            First::Name(ns, local) => display(ns, local),
            First::Any { names, .. } => names.clone(),
        }
    }
}

/// How generated code tells that the current child starts a particle: the test on the
/// cursor, and the element names for messages.
struct Start {
    /// `c.at(..)`, or `(c.at(..) || c.at(..))` for several first elements.
    test: String,
    /// `<a> or <b>`.
    names: String,
    /// The first of the first elements.
    first: Option<First>,
}

impl Start {
    fn of(first: &[First]) -> Start {
        let t: Vec<String> = first.iter().map(First::test).collect();
        let test = if t.is_empty() {
            // Content that can start with no element (an empty group).
            "false".to_string()
        } else if t.len() == 1 {
            t[0].clone()
        } else {
            format!("({})", t.join(" || "))
        };
        let names = first
            .iter()
            .map(First::display)
            .collect::<Vec<_>>()
            .join(" or ");
        Start {
            test,
            names,
            first: first.first().cloned(),
        }
    }
}

/// `Ok(Name { a, b, .. })` of the fields read into variables of their names, on one line
/// when rustfmt would put it there (its `struct_lit_width`: a body of at most 18 characters).
fn construct(o: &mut String, name: &str, fields: &[Field]) {
    if fields.is_empty() {
        let _ = writeln!(o, "    Ok({name})");
        return;
    }
    let init = |f: &Field| match local_name(f) {
        l if l == f.name => l,
        l => format!("{}: {l}", f.name),
    };
    let body = fields.iter().map(init).collect::<Vec<_>>().join(", ");
    if body.len() <= 18 {
        let _ = writeln!(o, "    Ok({name} {{ {body} }})");
        return;
    }
    let _ = writeln!(o, "    Ok({name} {{");
    for f in fields {
        let _ = writeln!(o, "        {},", init(f));
    }
    let _ = writeln!(o, "    }})");
}

impl Emitter<'_> {
    /// The end of a reader: the item built from the fields' locals, or in validate-only
    /// code the locals it checked dropped (attributes, simple content) and nothing built.
    fn construct(&self, o: &mut String, name: &str, fields: &[Field]) {
        if !self.check {
            construct(o, name, fields);
            return;
        }
        let kept: Vec<&Field> = fields
            .iter()
            .filter(|f| is_attribute(f) || f.source == Source::Text)
            .collect();
        discard(o, kept.into_iter());
        if self.events && !uses_handler(o) {
            // A type with nothing to give (no attributes, no content).
            let _ = writeln!(o, "    let _ = h;");
        }
        let _ = writeln!(o, "    Ok(())");
    }
}

/// The integer range a conversion checks: the type's own and its facets', within `it`.
fn int_range(it: IntType, f: &xwire_schema::model::Facets, b: Builtin) -> (i128, i128) {
    let (lo, hi) = crate::plan::integer_bounds(b, f);
    let (tlo, thi) = it.range();
    (lo.unwrap_or(tlo), hi.unwrap_or(thi))
}

fn temporal_fn(k: TemporalKind) -> &'static str {
    match k {
        TemporalKind::DateTime => "date_time",
        TemporalKind::Time => "time",
        TemporalKind::Date => "date",
        TemporalKind::GYearMonth => "g_year_month",
        TemporalKind::GYear => "g_year",
        TemporalKind::GMonthDay => "g_month_day",
        TemporalKind::GDay => "g_day",
        TemporalKind::GMonth => "g_month",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screened_types_are_those_may_be_scans() {
        // No value of a scanned type starts with `~`; the others are not scanned.
        for &b in Builtin::ALL {
            assert_eq!(
                !xwire::bind::value::may_be(b, "~"),
                has_restricted_form(b),
                "{b:?}"
            );
        }
    }
}
