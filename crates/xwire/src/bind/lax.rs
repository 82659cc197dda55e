//! Wildcard and `xs:anyType` content read without building anything: what the generated
//! validate-only API (`Document::validate`, `Type::check`) and event API
//! (`Document::events`) do where the object readers read an [`Any`](super::Any).
//!
//! The verdict and the first error are the object readers' ([`Wildcard::read`],
//! [`Any::read_any_type`]): the same declarations found and checked, the same `xsi:type`s,
//! the same attributes, the faults in the same order. Declared elements and complex
//! `xsi:type`s go to the generated readers: the check readers through [`CheckGlobals`], the
//! event readers through [`EventGlobals`](super::events::EventGlobals). One walker serves
//! both ([`Visit`]): the event API's also hands on what it passes.

use super::any::{no_reader, simple_with_children, undefined, Any, Globals, NamedType};
use super::any::{Process, Wildcard, XS};
use super::identity::KeyPart;
use super::source::{simple_type_attribute, KeptName};
use super::{value, Content, Fault, Source, XSI};
use crate::bytes::same_bytes;
use crate::bytes::same_str;

/// What the schema's global declarations and named complex types make of lax content when
/// nothing is built: implemented by the generated `Document` of the validate-only API.
pub trait CheckGlobals: Globals {
    /// If the source is at an element with a global declaration: checks it (start tag to
    /// end tag) and returns `true`.
    fn check_element<S: Source>(c: &mut S) -> Result<bool, S::Error>;

    /// If `index` is a named complex type of the schema ([`Globals::complex_type`]): checks
    /// the current element as that type (start tag to end tag) and returns `true`.
    fn check_typed<S: Source>(c: &mut S, index: usize) -> Result<bool, S::Error>;
}

impl Wildcard {
    /// Checks the current element, which this wildcard admits, as [`Wildcard::read`] reads
    /// it, building nothing: the source at its start tag, left past its end tag.
    pub fn check<D: CheckGlobals, S: Source>(&self, c: &mut S) -> Result<(), S::Error> {
        self.visit::<D, S, _>(c, &mut Check)
    }

    /// Reads the current element as [`Wildcard::read`] does, `v` given what it passes.
    pub(super) fn visit<D, S, V>(&self, c: &mut S, v: &mut V) -> Result<(), S::Error>
    where
        D: Globals,
        S: Source,
        V: Visit<D, S>,
    {
        if self.process == Process::Skip {
            return skip(c, v);
        }
        if v.element(c)? {
            return Ok(());
        }
        if self.process == Process::Strict && c.xsi_type_name()?.is_none() {
            return Err(c.fail(Wildcard::undeclared(c.name())));
        }
        lax::<D, S, V>(c, v)
    }
}

impl<D: CheckGlobals> Any<D> {
    /// Checks a document's root that no global declaration names as [`Any::read_root`]
    /// reads it, building nothing: `false`, the source left at the start tag, when it has
    /// no `xsi:type`.
    pub fn check_root<S: Source>(c: &mut S) -> Result<bool, S::Error> {
        if c.xsi_type_name()?.is_none() {
            return Ok(false);
        }
        lax::<D, S, _>(c, &mut Check)?;
        Ok(true)
    }

    /// Checks the current element, declared of type `xs:anyType`, as
    /// [`Any::read_any_type`] reads it, building nothing.
    pub fn check_any_type<S: Source>(c: &mut S) -> Result<(), S::Error> {
        Any::<D>::visit_declared(c, false, &mut Check)
    }

    /// [`Any::check_any_type`] for a declaration that blocks restriction, as
    /// [`Any::read_own_type`] reads it.
    pub fn check_own_type<S: Source>(c: &mut S) -> Result<(), S::Error> {
        Any::<D>::visit_declared(c, true, &mut Check)
    }
}

impl<D: Globals> Any<D> {
    /// Reads the current element, declared of type `xs:anyType` (`own_type`: blocking
    /// restriction), as [`Any::read_any_type`] does, `v` given what it passes.
    pub(super) fn visit_declared<S, V>(c: &mut S, own_type: bool, v: &mut V) -> Result<(), S::Error>
    where
        S: Source,
        V: Visit<D, S>,
    {
        let simple = Any::<D>::prelude(c, own_type)?;
        // A field may select the element: then a built-in `xsi:type` gives its value a key.
        let mut key = c.identity_active().then_some(None);
        let Some(mut top) = open::<D, S, V>(c, v, key.as_mut())? else {
            return c.identity_value(key.flatten(), simple);
        };
        lax_content::<D, S, V>(c, v, &mut top)?;
        c.identity_value(None, simple)
    }
}

/// What the walker of lax content does besides checking: the generated readers of declared
/// elements and complex types, and what it passes (the event API's handler).
pub(super) trait Visit<D: Globals, S: Source> {
    /// If the source is at an element with a global declaration: reads it (start tag to
    /// end tag) and returns `true`.
    fn element(&mut self, c: &mut S) -> Result<bool, S::Error>;

    /// If `index` is a named complex type of the schema ([`Globals::complex_type`]): reads
    /// the current element as that type (its attributes and content; the start and end are
    /// the walker's) and returns `true`.
    fn typed(&mut self, c: &mut S, index: usize) -> Result<bool, S::Error>;

    /// An element starts.
    fn start(&mut self, _ns: &str, _local: &str) {}

    /// An attribute of the element that started last (not an `xsi:` one).
    fn attribute(&mut self, _ns: &str, _local: &str, _value: &str) {}

    /// Character data.
    fn text(&mut self, _text: &str) {}

    /// The element ends.
    fn end(&mut self) {}
}

/// The validate-only API's visitor: the check readers, nothing handed on.
struct Check;

impl<D: CheckGlobals, S: Source> Visit<D, S> for Check {
    #[inline]
    fn element(&mut self, c: &mut S) -> Result<bool, S::Error> {
        D::check_element(c)
    }

    #[inline]
    fn typed(&mut self, c: &mut S, index: usize) -> Result<bool, S::Error> {
        D::check_typed(c, index)
    }
}

/// The current element assessed laxly, without looking for a global declaration (its
/// descendants are looked for). Iterative: depth costs heap (one frame per open element
/// below the first), not stack, but what declared descendants' readers take.
pub(super) fn lax<D, S, V>(c: &mut S, v: &mut V) -> Result<(), S::Error>
where
    D: Globals,
    S: Source,
    V: Visit<D, S>,
{
    match open::<D, S, V>(c, v, None)? {
        Some(mut top) => lax_content::<D, S, V>(c, v, &mut top),
        None => Ok(()),
    }
}

/// The content of `top`, an element of lax content that [`open`] opened, to its end tag.
fn lax_content<D, S, V>(c: &mut S, v: &mut V, top: &mut Frame) -> Result<(), S::Error>
where
    D: Globals,
    S: Source,
    V: Visit<D, S>,
{
    let mut below: Vec<Frame> = Vec::new();
    loop {
        match c.content()? {
            Content::Text(t) => v.text(t),
            Content::Start => {
                if v.element(c)? {
                    continue;
                }
                if let Some(f) = open::<D, S, V>(c, v, None)? {
                    below.push(std::mem::replace(top, f));
                }
            }
            Content::End => {
                // An `xsi:type` kept to the end is one whose element had an element child.
                if let Some(named) = &top.named {
                    let fault = fault(named, check::<D>(named, ""), true, None);
                    if let Some(fault) = fault {
                        return Err(c.fail_at(top.at, fault));
                    }
                }
                v.end();
                match below.pop() {
                    Some(f) => *top = f,
                    None => return Ok(()),
                }
            }
        }
    }
}

/// What the type `named` makes of an element whose text is `text`.
fn check<D: Globals>(named: &KeptName, text: &str) -> NamedType {
    match named {
        KeptName::Builtin(b) => NamedType::Simple(value::check_builtin(*b, text)),
        KeptName::Other(ns, _) if same_str(ns, XS) => NamedType::None,
        KeptName::Other(ns, local) => D::named_type(ns, local, text),
    }
}

/// The fault of an element whose `xsi:type` names `named`, which makes `checked` of its
/// text, at its end: the object readers' order (an element child, the value, then the
/// attribute a simple type refused; or a name that is no simple type).
fn fault(
    named: &KeptName,
    checked: NamedType,
    child: bool,
    refused: Option<Fault>,
) -> Option<Fault> {
    match checked {
        NamedType::Simple(_) if child => Some(simple_with_children()),
        NamedType::Simple(Err(f)) => Some(f),
        NamedType::Simple(Ok(())) => refused,
        NamedType::Complex => Some(no_reader(named.name().0, named.name().1)),
        NamedType::None => Some(undefined(named.name().0, named.name().1)),
    }
}

/// An element of lax content whose end tag is still to come.
struct Frame {
    /// Where its start tag is, for the faults found at its end.
    at: u64,
    /// Its `xsi:type`, when it names a type other than `xs:anyType` and an element child
    /// came (text alone is checked at the start tag); boxed: rare, and frames move as
    /// elements open and close.
    named: Option<Box<KeptName>>,
}

/// Opens the current element of lax content, giving `v` its start: `None` when it was read
/// whole (its `xsi:type` names a complex type of the schema, or a simple one and it holds
/// text alone), its frame when its content follows. Its attributes are checked against the
/// global declarations, and its `xsi:type` is kept for its end. With `key`, a valid text
/// of a built-in `xsi:type` puts its identity key there.
fn open<D, S, V>(
    c: &mut S,
    v: &mut V,
    key: Option<&mut Option<KeyPart>>,
) -> Result<Option<Frame>, S::Error>
where
    D: Globals,
    S: Source,
    V: Visit<D, S>,
{
    let at = c.offset();
    let (ns, local) = c.name();
    v.start(ns, local);
    // A complex type of the schema is found by index while the name is borrowed; any other
    // name is kept (copied only when it names no built-in type).
    let (index, named) = match c.xsi_type_name()? {
        None => (None, None),
        Some((ns, local)) if !same_str(ns, XS) => match D::complex_type(ns, local) {
            Some(i) => (Some(i), None),
            None => (None, Some(KeptName::new(ns, local))),
        },
        Some((_, "anyType")) => (None, None),
        Some((ns, local)) => (None, Some(KeptName::new(ns, local))),
    };
    if let Some(index) = index {
        if v.typed(c, index)? {
            v.end();
            return Ok(None);
        }
    }
    let typed = named.is_some();
    let mut refused = None;
    c.attributes(|ns, local, value| {
        if !same_bytes(ns.as_bytes(), XSI.as_bytes()) {
            if let Some(checked) = D::attribute(ns, local, value) {
                checked?;
            }
            v.attribute(ns, local, value);
        }
        if typed && refused.is_none() {
            refused = simple_type_attribute(ns, local).err();
        }
        Ok(())
    })?;
    let Some(named) = named else {
        return Ok(Some(Frame { at, named: None }));
    };
    // Text alone (the common case: an item of a SOAP array) is checked where it stands.
    let Some(text) = c.text_only()? else {
        return Ok(Some(Frame {
            at,
            named: Some(Box::new(named)),
        }));
    };
    let checked = check::<D>(&named, text);
    if let (Some(key), KeptName::Builtin(b), NamedType::Simple(Ok(()))) = (key, &named, &checked) {
        *key = Some(super::identity::lexical_key(*b, text));
    }
    if !text.is_empty() {
        v.text(text);
    }
    // Valid (the common case) without going through the faults.
    if !matches!((&checked, &refused), (NamedType::Simple(Ok(())), None)) {
        if let Some(fault) = fault(&named, checked, false, refused) {
            return Err(c.fail_at(at, fault));
        }
    }
    v.end();
    Ok(None)
}

/// Skips the current element (start tag to end tag), giving `v` what it passes: what a
/// `skip` wildcard checks is what the source checks (well-formedness, namespaces).
fn skip<D, S, V>(c: &mut S, v: &mut V) -> Result<(), S::Error>
where
    D: Globals,
    S: Source,
    V: Visit<D, S>,
{
    let mut depth = 0usize;
    skipped_start(c, v)?;
    loop {
        match c.content()? {
            Content::Text(t) => v.text(t),
            Content::Start => {
                skipped_start(c, v)?;
                depth += 1;
            }
            Content::End => {
                v.end();
                match depth {
                    0 => return Ok(()),
                    _ => depth -= 1,
                }
            }
        }
    }
}

/// The start of a skipped element: its name and attributes to `v`.
fn skipped_start<D, S, V>(c: &mut S, v: &mut V) -> Result<(), S::Error>
where
    D: Globals,
    S: Source,
    V: Visit<D, S>,
{
    let (ns, local) = c.name();
    v.start(ns, local);
    c.attributes(|ns, local, value| {
        if !same_bytes(ns.as_bytes(), XSI.as_bytes()) {
            v.attribute(ns, local, value);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bind::events::{EventGlobals, Handler};
    use crate::bind::{Cursor, Namespaces, Scanner};

    /// A schema with one global element `{urn:s}n` of `xs:int`, one global attribute
    /// `{urn:s}a` of `xs:boolean`, one named simple type `{urn:s}small` (0 to 9) and one
    /// named complex type `{urn:s}empty` (empty content, no attributes).
    #[derive(Clone, Debug, PartialEq)]
    struct Schema(i32);

    fn empty_type<S: Source>(c: &mut S) -> Result<(), S::Error> {
        c.attributes(|ns, local, _| super::super::other_attribute(ns, local, "empty"))?;
        c.empty()
    }

    fn int<S: Source>(c: &mut S) -> Result<i32, S::Error> {
        c.no_attributes()?;
        let t = c.text()?;
        match t.trim().parse() {
            Ok(v) => Ok(v),
            Err(_) => Err(c.fail(Fault::new("cvc-datatype-valid.1.2.1", "not an int"))),
        }
    }

    impl Globals for Schema {
        type Typed = ();
        fn complex_type(ns: &str, local: &str) -> Option<usize> {
            ((ns, local) == ("urn:s", "empty")).then_some(0)
        }
        fn typed<S: Source>(c: &mut S, index: usize) -> Result<Option<()>, S::Error> {
            match index {
                0 => empty_type(c).map(Some),
                _ => Ok(None),
            }
        }
        fn element<S: Source>(c: &mut S) -> Result<Option<Self>, S::Error> {
            match c.at("urn:s", "n") {
                true => int(c).map(|v| Some(Schema(v))),
                false => Ok(None),
            }
        }
        fn attribute(ns: &str, local: &str, value: &str) -> Option<Result<(), Fault>> {
            let ok = matches!(value, "true" | "false" | "1" | "0");
            let bad = Fault::new("cvc-datatype-valid.1.2.1", "not a boolean");
            ((ns, local) == ("urn:s", "a")).then_some(if ok { Ok(()) } else { Err(bad) })
        }
        fn named_type(ns: &str, local: &str, text: &str) -> NamedType {
            match (ns, local) {
                ("urn:s", "small") => NamedType::Simple(match text.trim().parse::<u8>() {
                    Ok(0..=9) => Ok(()),
                    _ => Err(Fault::new("cvc-maxInclusive-valid", "not 0 to 9")),
                }),
                ("urn:s", "empty") => NamedType::Complex,
                _ => NamedType::None,
            }
        }
    }

    impl CheckGlobals for Schema {
        fn check_element<S: Source>(c: &mut S) -> Result<bool, S::Error> {
            match c.at("urn:s", "n") {
                true => int(c).map(|_| true),
                false => Ok(false),
            }
        }
        fn check_typed<S: Source>(c: &mut S, index: usize) -> Result<bool, S::Error> {
            match index {
                0 => empty_type(c).map(|_| true),
                _ => Ok(false),
            }
        }
    }

    const LAX: Wildcard = Wildcard {
        namespaces: Namespaces::Any,
        process: Process::Lax,
    };
    const STRICT: Wildcard = Wildcard {
        process: Process::Strict,
        ..LAX
    };
    const SKIP: Wildcard = Wildcard {
        process: Process::Skip,
        ..LAX
    };

    /// Reading and checking `doc`'s root with `w` give the same verdict and first error,
    /// through the cursor and through the scanner (with the cursor after it gives up): the
    /// verdict.
    fn verdict(w: &Wildcard, doc: &str) -> bool {
        fn read<S: Source>(w: &Wildcard, c: &mut S) -> Result<(), S::Error> {
            c.root()?;
            w.read::<Schema, S>(c)?;
            c.finish()
        }
        fn check<S: Source>(w: &Wildcard, c: &mut S) -> Result<(), S::Error> {
            c.root()?;
            w.check::<Schema, S>(c)?;
            c.finish()
        }
        let b = doc.as_bytes();
        let general = read(w, &mut Cursor::new(b));
        assert_eq!(check(w, &mut Cursor::new(b)), general, "{doc}");
        let fast_read = read(w, &mut Scanner::new(b)).is_ok();
        let fast_check = check(w, &mut Scanner::new(b)).is_ok();
        assert!(!fast_read || general.is_ok(), "{doc}");
        assert_eq!(fast_check, fast_read, "{doc}");
        general.is_ok()
    }

    #[test]
    fn an_item_of_wildcard_content_is_two_words() {
        // What moves when a wildcard's `Vec` grows: the element kept as XML is boxed.
        assert_eq!(std::mem::size_of::<Any<Schema>>(), 16);
        assert!(std::mem::size_of::<crate::bind::AnyNode<Schema>>() <= 32);
    }

    #[test]
    fn checking_agrees_with_reading() {
        let s = r#"xmlns:s="urn:s" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
        let cases: &[(&Wildcard, String, bool)] = &[
            (&LAX, format!("<s:n {s}>4</s:n>"), true),
            (&LAX, format!("<s:n {s}>four</s:n>"), false),
            (
                &LAX,
                format!("<x {s}><y s:a='1'><s:n>5</s:n></y>t</x>"),
                true,
            ),
            (&LAX, format!("<x {s}><y s:a='maybe'/></x>"), false),
            (&LAX, format!("<x {s}><y><s:n>no</s:n></y></x>"), false),
            (&LAX, format!("<x {s} xsi:type='xs:int'> 12 </x>"), true),
            (
                &LAX,
                format!("<x {s} xsi:type='xs:int'>1<!-- c -->2</x>"),
                true,
            ),
            (&LAX, format!("<x {s} xsi:type='xs:int'>1.5</x>"), false),
            (&LAX, format!("<x {s} xsi:type='xs:int'><y/></x>"), false),
            (
                &LAX,
                format!("<x {s} xsi:type='xs:int'>11231<y/></x>"),
                false,
            ),
            (
                &LAX,
                format!("<x {s} xsi:type='xs:int'>1<s:n>x</s:n></x>"),
                false,
            ),
            (
                &LAX,
                format!("<x {s} xsi:type='s:none'>1<y s:a='no'/></x>"),
                false,
            ),
            (&LAX, format!("<x {s} xsi:type='s:small'>1<y/>2</x>"), false),
            (&LAX, format!("<x {s} xsi:type='xs:int' b='1'>x</x>"), false),
            (&LAX, format!("<x {s} xsi:type='xs:int' b='1'>1</x>"), false),
            (
                &LAX,
                format!("<x {s} xsi:type='xs:int' xsi:nil='true'>1</x>"),
                false,
            ),
            (&LAX, format!("<x {s} xsi:type='xs:nothing'>1</x>"), false),
            (
                &LAX,
                format!("<x {s} xsi:type='xs:anyType' b='2'><y/></x>"),
                true,
            ),
            (&LAX, format!("<x {s} xsi:type='s:small'>7</x>"), true),
            (&LAX, format!("<x {s} xsi:type='s:small'>17</x>"), false),
            (&LAX, format!("<x {s} xsi:type='s:empty'/>"), true),
            (&LAX, format!("<x {s} xsi:type='s:empty'>t</x>"), false),
            (&LAX, format!("<x {s} xsi:type='s:none'/>"), false),
            (
                &LAX,
                format!("<x {s}><y xsi:type='s:small'>3</y></x>"),
                true,
            ),
            (
                &LAX,
                format!("<x {s}><y xsi:type='s:small'>x</y></x>"),
                false,
            ),
            (&LAX, format!("<x {s} xsi:type='q:int'/>"), false),
            (&STRICT, format!("<x {s}/>"), false),
            (&STRICT, format!("<x {s} xsi:type='xs:int'>3</x>"), true),
            (&STRICT, format!("<s:n {s}>3</s:n>"), true),
            (&SKIP, format!("<s:n {s}>four<y s:a='maybe'/></s:n>"), true),
            (&SKIP, format!("<x {s}><y></x>"), false),
        ];
        for (w, doc, valid) in cases {
            assert_eq!(verdict(w, doc), *valid, "{:?} {doc}", w.process);
        }
    }

    #[test]
    fn any_type_checks_as_it_reads() {
        let s = r#"xmlns:s="urn:s" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
        for (doc, valid) in [
            (format!("<x {s}><s:n>1</s:n></x>"), true),
            (format!("<x {s}><s:n>x</s:n></x>"), false),
            (format!("<x {s} xsi:nil='true'/>"), false),
            (format!("<x {s} xsi:type='xs:int'>3</x>"), true),
        ] {
            let b = doc.as_bytes();
            let mut c = Cursor::new(b);
            c.root().unwrap();
            let read = Any::<Schema>::read_any_type(&mut c).map(drop);
            let mut c = Cursor::new(b);
            c.root().unwrap();
            let check = Any::<Schema>::check_any_type(&mut c);
            assert_eq!(check, read, "{doc}");
            assert_eq!(check.is_ok(), valid, "{doc}");
        }
    }

    /// What a handler was given, one string an event.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Handler for Log {
        fn start(&mut self, _ns: &str, local: &str) {
            self.0.push(format!("<{local}"));
        }
        fn attribute(&mut self, _ns: &str, local: &str, value: &str) {
            self.0.push(format!("@{local}={value}"));
        }
        fn text(&mut self, text: &str) {
            self.0.push(format!("'{text}'"));
        }
        fn end(&mut self) {
            self.0.push(">".into());
        }
    }

    impl EventGlobals for Schema {
        fn events_element<S: Source, H: Handler>(c: &mut S, h: &mut H) -> Result<bool, S::Error> {
            if !c.at("urn:s", "n") {
                return Ok(false);
            }
            h.start("urn:s", "n");
            h.text(&int(c)?.to_string());
            h.end();
            Ok(true)
        }
        fn events_typed<S: Source, H: Handler>(
            c: &mut S,
            _h: &mut H,
            index: usize,
        ) -> Result<bool, S::Error> {
            match index {
                0 => empty_type(c).map(|_| true),
                _ => Ok(false),
            }
        }
    }

    /// The events of `doc`'s root read with `w`, through the scanner and then the cursor
    /// when it gives up (as the generated `Document::events` reads).
    fn events(w: &Wildcard, doc: &str) -> Result<Vec<String>, crate::bind::Error> {
        fn read<S: Source, H: Handler>(w: &Wildcard, c: &mut S, h: &mut H) -> Result<(), S::Error> {
            c.root()?;
            crate::bind::events::wildcard::<Schema, S, H>(w, c, h)?;
            c.finish()
        }
        let mut log = Log::default();
        crate::bind::events::document(
            doc.as_bytes(),
            &mut log,
            |c, h| read(w, c, h),
            |c, h| read(w, c, h),
        )?;
        Ok(log.0)
    }

    #[test]
    fn events_come_in_document_order_as_the_content_is_checked() {
        let s = r#"xmlns:s="urn:s" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#;
        let body = "t<s:n> 5 </s:n><y xsi:type='xs:int'>3</y><z xsi:type='s:empty'/><w b='2'>u</w>";
        let expected = [
            "<x", "@a=1", "'t'", "<n", "'5'", ">", "<y", "'3'", ">", "<z", ">", "<w", "@b=2",
            "'u'", ">", ">",
        ];
        // The scanner reads it all; with a comment, the cursor reads it again from where
        // the scanner gave up, no event given twice.
        let plain = format!("<x {s} s:a='1'>{body}</x>");
        assert_eq!(events(&LAX, &plain).unwrap(), expected);
        let commented = format!("<x {s} s:a='1'>{body}<!-- c --></x>");
        assert_eq!(events(&LAX, &commented).unwrap(), expected);
        // Skipped content: every element by its name, nothing checked.
        let skipped = format!("<x {s}><s:n>five</s:n></x>");
        assert_eq!(
            events(&SKIP, &skipped).unwrap(),
            ["<x", "<n", "'five'", ">", ">"]
        );
        // An error ends the events with the verdict the object readers give.
        let bad = format!("<x {s}><y xsi:type='xs:int'>three</y></x>");
        assert!(events(&LAX, &bad).is_err());
        assert!(!verdict(&LAX, &bad));
    }
}
