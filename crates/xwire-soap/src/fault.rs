//! Faults of both versions as one typed value: read from an envelope's body, written into a
//! reply envelope.

use xwire::binary::{Kind, NodeId, TypedDocument};

use crate::envelope::Envelope;
use crate::error::Error;
use crate::version::Version;

/// A qualified name: namespace URI (`""` for none) and local name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QName {
    /// The namespace URI.
    pub ns: String,
    /// The local name.
    pub local: String,
}

impl QName {
    /// The name `local` in namespace `ns`.
    pub fn new(ns: impl Into<String>, local: impl Into<String>) -> QName {
        QName {
            ns: ns.into(),
            local: local.into(),
        }
    }
}

impl std::fmt::Display for QName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{{{}}}{}", self.ns, self.local)
    }
}

/// A fault's code: the five SOAP 1.2 codes (1.1 names two of them `Client` and `Server`),
/// or, in 1.1 only, a code of the application's own namespace.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The envelope is of no version the node knows.
    VersionMismatch,
    /// A header block for the node, marked `mustUnderstand`, was not understood.
    MustUnderstand,
    /// A header or body block is in an encoding the node does not support (1.2; written as
    /// `Client` in 1.1).
    DataEncodingUnknown,
    /// The message was wrong (1.1: `Client`).
    Sender,
    /// The node failed on a right message (1.1: `Server`).
    Receiver,
    /// A 1.1 fault code in another namespace than the envelope's (written as `Receiver` with
    /// this as its subcode in 1.2, which allows only the five codes).
    Other(QName),
}

impl Code {
    /// The local name of the code in the envelope namespace of `version`.
    fn local(&self, version: Version) -> &'static str {
        match (self, version) {
            (Code::VersionMismatch, _) => "VersionMismatch",
            (Code::MustUnderstand, _) => "MustUnderstand",
            (Code::DataEncodingUnknown, Version::V12) => "DataEncodingUnknown",
            (Code::Sender | Code::DataEncodingUnknown, Version::V11) => "Client",
            (Code::Sender, Version::V12) => "Sender",
            (Code::Receiver | Code::Other(_), Version::V11) => "Server",
            (Code::Receiver | Code::Other(_), Version::V12) => "Receiver",
        }
    }

    /// The code named `local` in the envelope namespace of `version`.
    fn from_local(local: &str, version: Version) -> Option<Code> {
        Some(match (local, version) {
            ("VersionMismatch", _) => Code::VersionMismatch,
            ("MustUnderstand", _) => Code::MustUnderstand,
            ("DataEncodingUnknown", Version::V12) => Code::DataEncodingUnknown,
            ("Sender", Version::V12) | ("Client", Version::V11) => Code::Sender,
            ("Receiver", Version::V12) | ("Server", Version::V11) => Code::Receiver,
            _ => return None,
        })
    }
}

/// One human-readable explanation of a fault, in a language (`xml:lang`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The language tag (`en`, `en-US`); `""` where the fault read gave none.
    pub lang: String,
    /// The text.
    pub text: String,
}

/// A SOAP fault, the same value for both versions.
///
/// ```
/// use xwire_soap::{Code, Envelope, Fault, Version};
/// let mut fault = Fault::new(Code::Sender, "no such operation");
/// fault.node = Some("http://example.org/node".into());
/// let reply = fault.to_envelope(Version::V12);
/// let back = Envelope::parse(&reply.to_bytes()?)?.fault()?.expect("a fault");
/// assert_eq!(back.code, Code::Sender);
/// assert_eq!(back.reason(), "no such operation");
/// // The same fault in SOAP 1.1 has faultcode Client.
/// let text = String::from_utf8(fault.to_envelope(Version::V11).to_bytes()?).unwrap();
/// assert!(text.contains("<faultcode>soap:Client</faultcode>"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Fault {
    /// The code.
    pub code: Code,
    /// The subcodes, most general first (1.2 `Subcode` chain; 1.1 `Client.Auth` notation,
    /// each part after the first a subcode in the envelope namespace).
    pub subcodes: Vec<QName>,
    /// The explanations, one per language; the first is the one [`Fault::reason`] gives.
    pub reasons: Vec<Reason>,
    /// The node that faulted (1.2 `Node`, 1.1 `faultactor`).
    pub node: Option<String>,
    /// The role the node was playing (1.2 only).
    pub role: Option<String>,
    /// Application details: a document whose document node holds the detail element's
    /// children.
    pub detail: Option<TypedDocument>,
    /// For a `MustUnderstand` fault in 1.2: the header blocks not understood, written as
    /// `NotUnderstood` header blocks.
    pub not_understood: Vec<QName>,
    /// For a `VersionMismatch` fault in 1.2: the versions the node supports, in order of
    /// preference, written as an `Upgrade` header block.
    pub upgrade: Vec<Version>,
}

impl Fault {
    /// A fault with `code` and one reason in English.
    pub fn new(code: Code, reason: impl Into<String>) -> Fault {
        Fault {
            code,
            subcodes: Vec::new(),
            reasons: vec![Reason {
                lang: "en".into(),
                text: reason.into(),
            }],
            node: None,
            role: None,
            detail: None,
            not_understood: Vec::new(),
            upgrade: Vec::new(),
        }
    }

    /// The first reason's text (`""` if there is none).
    pub fn reason(&self) -> &str {
        self.reasons.first().map_or("", |r| &r.text)
    }

    /// A reply envelope of `version` carrying this fault (and, in 1.2, its `NotUnderstood`
    /// and `Upgrade` header blocks).
    pub fn to_envelope(&self, version: Version) -> Envelope {
        let mut env = Envelope::new(version);
        if version == Version::V12 {
            self.write_v12_headers(&mut env);
        }
        let ns = version.envelope_ns();
        let p = version.prefix();
        let fault = env.add_body_element(ns, &format!("{p}:Fault"));
        let doc = env.document_mut();
        match version {
            Version::V11 => self.write_v11(doc, fault, p),
            Version::V12 => self.write_v12(doc, fault, ns, p),
        }
        env
    }

    fn write_v12_headers(&self, env: &mut Envelope) {
        let ns = Version::V12.envelope_ns();
        let p = Version::V12.prefix();
        for q in &self.not_understood {
            let h = env.add_header_block(ns, &format!("{p}:NotUnderstood"));
            let doc = env.document_mut();
            doc.declare_namespace(h, "nu", &q.ns);
            doc.set_attribute(h, "", "qname", &format!("nu:{}", q.local));
        }
        if !self.upgrade.is_empty() {
            let h = env.add_header_block(ns, &format!("{p}:Upgrade"));
            let doc = env.document_mut();
            for (i, v) in self.upgrade.iter().enumerate() {
                let s = doc.append_element(h, ns, &format!("{p}:SupportedEnvelope"));
                let prefix = format!("v{i}");
                doc.declare_namespace(s, &prefix, v.envelope_ns());
                doc.set_attribute(s, "", "qname", &format!("{prefix}:Envelope"));
            }
        }
    }

    fn write_v11(&self, doc: &mut TypedDocument, fault: NodeId, p: &str) {
        let code = doc.append_element(fault, "", "faultcode");
        let mut text = match &self.code {
            Code::Other(q) => {
                doc.declare_namespace(code, "c", &q.ns);
                format!("c:{}", q.local)
            }
            c => format!("{p}:{}", c.local(Version::V11)),
        };
        for s in &self.subcodes {
            text.push('.');
            text.push_str(&s.local);
        }
        doc.append_text(code, &xml_text(&text));
        let string = doc.append_element(fault, "", "faultstring");
        doc.append_text(string, &xml_text(self.reason()));
        if let Some(node) = &self.node {
            let actor = doc.append_element(fault, "", "faultactor");
            doc.append_text(actor, &xml_text(node));
        }
        if let Some(detail) = &self.detail {
            let d = doc.append_element(fault, "", "detail");
            doc.append_copy(d, detail, detail.root());
        }
    }

    fn write_v12(&self, doc: &mut TypedDocument, fault: NodeId, ns: &str, p: &str) {
        let code = doc.append_element(fault, ns, &format!("{p}:Code"));
        let value = doc.append_element(code, ns, &format!("{p}:Value"));
        doc.append_text(value, &format!("{p}:{}", self.code.local(Version::V12)));
        let mut subcodes: Vec<&QName> = Vec::new();
        if let Code::Other(q) = &self.code {
            subcodes.push(q);
        }
        subcodes.extend(&self.subcodes);
        let mut parent = code;
        for (i, q) in subcodes.into_iter().enumerate() {
            let sub = doc.append_element(parent, ns, &format!("{p}:Subcode"));
            let value = doc.append_element(sub, ns, &format!("{p}:Value"));
            let text = if q.ns == ns {
                format!("{p}:{}", q.local)
            } else {
                let prefix = format!("s{i}");
                doc.declare_namespace(value, &prefix, &q.ns);
                format!("{prefix}:{}", q.local)
            };
            doc.append_text(value, &xml_text(&text));
            parent = sub;
        }
        let reason = doc.append_element(fault, ns, &format!("{p}:Reason"));
        let fallback = [Reason {
            lang: "en".into(),
            text: String::new(),
        }];
        let reasons = match self.reasons.is_empty() {
            true => &fallback[..],
            false => &self.reasons[..],
        };
        for r in reasons {
            let t = doc.append_element(reason, ns, &format!("{p}:Text"));
            let lang = if r.lang.is_empty() { "en" } else { &r.lang };
            doc.set_attribute(t, xwire::XML_NS, "xml:lang", lang);
            doc.append_text(t, &xml_text(&r.text));
        }
        for (name, v) in [("Node", &self.node), ("Role", &self.role)] {
            if let Some(v) = v {
                let e = doc.append_element(fault, ns, &format!("{p}:{name}"));
                doc.append_text(e, &xml_text(v));
            }
        }
        if let Some(detail) = &self.detail {
            let d = doc.append_element(fault, ns, &format!("{p}:Detail"));
            doc.append_copy(d, detail, detail.root());
        }
    }

    /// Reads the fault element `fault` of `env` (a `Fault` in the envelope namespace).
    pub(crate) fn read(env: &Envelope, fault: NodeId) -> Result<Fault, Error> {
        match env.version() {
            Version::V11 => read_v11(env, fault),
            Version::V12 => read_v12(env, fault),
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let code = match &self.code {
            Code::Other(q) => q.to_string(),
            c => c.local(Version::V12).to_string(),
        };
        write!(f, "SOAP fault {code}")?;
        for s in &self.subcodes {
            write!(f, " / {s}")?;
        }
        write!(f, ": {}", self.reason())
    }
}

impl std::error::Error for Fault {}

fn read_v11(env: &Envelope, fault: NodeId) -> Result<Fault, Error> {
    let v = Version::V11;
    let doc = env.document();
    let mut out = Fault::new(Code::Receiver, "");
    out.reasons.clear();
    let (mut code, mut string) = (false, false);
    for c in element_children(env, fault)? {
        let (ns, local) = (doc.namespace_uri(c), doc.local_name(c));
        if !ns.is_empty() {
            continue; // 1.1 allows namespace-qualified extensions
        }
        let once = |seen: &mut bool| match std::mem::replace(seen, true) {
            true => Err(Error::malformed(
                v,
                format!("the Fault has two {local} elements"),
            )),
            false => Ok(()),
        };
        match local {
            "faultcode" => {
                once(&mut code)?;
                let text = simple_text(env, c, "faultcode")?;
                let q = resolve_qname(env, c, text.trim(), "faultcode")?;
                if q.ns == v.envelope_ns() {
                    let mut parts = q.local.split('.');
                    let first = parts.next().unwrap_or("");
                    out.code = Code::from_local(first, v).ok_or_else(|| {
                        Error::malformed(v, format!("'{first}' is not a SOAP 1.1 fault code"))
                    })?;
                    out.subcodes = parts.map(|s| QName::new(q.ns.as_str(), s)).collect();
                } else {
                    out.code = Code::Other(q);
                }
            }
            "faultstring" => {
                once(&mut string)?;
                let lang = doc.attribute(c, xwire::XML_NS, "lang").unwrap_or("");
                out.reasons.push(Reason {
                    lang: lang.to_string(),
                    text: simple_text(env, c, "faultstring")?,
                });
            }
            "faultactor" => {
                if out.node.is_some() {
                    return Err(Error::malformed(v, "the Fault has two faultactor elements"));
                }
                out.node = Some(simple_text(env, c, "faultactor")?.trim().to_string());
            }
            "detail" => {
                if out.detail.is_some() {
                    return Err(Error::malformed(v, "the Fault has two detail elements"));
                }
                out.detail = Some(detail(doc, c));
            }
            other => {
                return Err(Error::malformed(
                    v,
                    format!("the Fault holds an unqualified element '{other}'"),
                ))
            }
        }
    }
    if !code || !string {
        let missing = if code { "faultstring" } else { "faultcode" };
        return Err(Error::malformed(v, format!("the Fault has no {missing}")));
    }
    Ok(out)
}

fn read_v12(env: &Envelope, fault: NodeId) -> Result<Fault, Error> {
    let v = Version::V12;
    let ns = v.envelope_ns();
    let doc = env.document();
    let mut out = Fault::new(Code::Receiver, "");
    out.reasons.clear();
    let children = element_children(env, fault)?;
    // Code, Reason, Node?, Role?, Detail?: in this order.
    const ORDER: [&str; 5] = ["Code", "Reason", "Node", "Role", "Detail"];
    let mut at = 0;
    for c in children {
        let local = doc.local_name(c);
        let place = ORDER.iter().position(|n| *n == local);
        match place {
            Some(i) if doc.namespace_uri(c) == ns && (i == at || (i > 1 && at >= 2 && i > at)) => {
                at = i + 1
            }
            _ => {
                return Err(Error::malformed(
                    v,
                    format!(
                        "the Fault holds {{{}}}{local} where it expects {}",
                        doc.namespace_uri(c),
                        ORDER.get(at).unwrap_or(&"its end")
                    ),
                ))
            }
        }
        match local {
            "Code" => read_code(env, c, &mut out)?,
            "Reason" => {
                for t in element_children(env, c)? {
                    if doc.namespace_uri(t) != ns || doc.local_name(t) != "Text" {
                        return Err(Error::malformed(v, "a Reason holds an element not Text"));
                    }
                    // SOAP 1.2 requires xml:lang, and deployed peers leave it out (PHP's
                    // ext/soap, in the SOAPBuilders corpus): read as `""`, written as `en`.
                    let lang = doc.attribute(t, xwire::XML_NS, "lang").unwrap_or("");
                    out.reasons.push(Reason {
                        lang: lang.to_string(),
                        text: simple_text(env, t, "Text")?,
                    });
                }
                if out.reasons.is_empty() {
                    return Err(Error::malformed(v, "the Fault's Reason has no Text"));
                }
            }
            "Node" => out.node = Some(simple_text(env, c, "Node")?.trim().to_string()),
            "Role" => out.role = Some(simple_text(env, c, "Role")?.trim().to_string()),
            _ => out.detail = Some(detail(doc, c)),
        }
    }
    if at < 2 {
        return Err(Error::malformed(v, "the Fault needs a Code and a Reason"));
    }
    Ok(out)
}

/// `Code`: a `Value` (one of the five codes) and a chain of `Subcode`s, each a `Value` and
/// maybe a further `Subcode`.
fn read_code(env: &Envelope, code: NodeId, out: &mut Fault) -> Result<(), Error> {
    let v = Version::V12;
    let ns = v.envelope_ns();
    let doc = env.document();
    let mut at = code;
    let mut first = true;
    loop {
        let children = element_children(env, at)?;
        let named = |i: usize, name: &str| {
            children
                .get(i)
                .is_some_and(|&c| doc.namespace_uri(c) == ns && doc.local_name(c) == name)
        };
        if !named(0, "Value") || children.len() > 2 || (children.len() == 2 && !named(1, "Subcode"))
        {
            let what = if first { "Code" } else { "Subcode" };
            return Err(Error::malformed(
                v,
                format!("a {what} must hold a Value and at most one Subcode"),
            ));
        }
        let text = simple_text(env, children[0], "Value")?;
        let q = resolve_qname(env, children[0], text.trim(), "Value")?;
        if first {
            out.code = match q.ns == ns {
                true => Code::from_local(&q.local, v),
                false => None,
            }
            .ok_or_else(|| Error::malformed(v, format!("{q} is not a SOAP 1.2 fault code")))?;
        } else {
            out.subcodes.push(q);
        }
        match children.get(1) {
            Some(&sub) => at = sub,
            None => return Ok(()),
        }
        first = false;
    }
}

/// The element children of `n`; text other than white space is refused, comments skipped.
pub(crate) fn element_children(env: &Envelope, n: NodeId) -> Result<Vec<NodeId>, Error> {
    let doc = env.document();
    let mut out = Vec::new();
    for c in doc.children(n) {
        match doc.kind(c) {
            Kind::Element | Kind::Leaf | Kind::Array => out.push(c),
            Kind::Text | Kind::CData if !is_space(doc.text(c)) => {
                return Err(Error::malformed(
                    env.version(),
                    format!(
                        "the {} element holds text among its elements",
                        doc.local_name(n)
                    ),
                ))
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The text of an element that may hold only text (comments are skipped).
pub(crate) fn simple_text(env: &Envelope, n: NodeId, what: &str) -> Result<String, Error> {
    let doc = env.document();
    match doc.kind(n) {
        Kind::Leaf => {
            let mut s = String::new();
            doc.value(n).expect("a leaf").write_text(&mut s);
            return Ok(s);
        }
        Kind::Array => {
            let mut s = String::new();
            doc.array(n).expect("an array").write_text(&mut s);
            return Ok(s);
        }
        _ => {}
    }
    let mut s = String::new();
    for c in doc.children(n) {
        match doc.kind(c) {
            Kind::Text | Kind::CData => s.push_str(doc.text(c)),
            Kind::Comment | Kind::Pi => {}
            _ => {
                return Err(Error::malformed(
                    env.version(),
                    format!("{what} must hold text only, and holds an element"),
                ))
            }
        }
    }
    Ok(s)
}

/// A `prefix:local` QName in the text of element `n`, resolved where `n` is.
pub(crate) fn resolve_qname(
    env: &Envelope,
    n: NodeId,
    text: &str,
    what: &str,
) -> Result<QName, Error> {
    let (prefix, local) = text.split_once(':').unwrap_or(("", text));
    let ns = env.document().lookup_namespace(n, prefix);
    match ns {
        Some(ns) if is_ncname(local) => Ok(QName::new(ns, local)),
        None if prefix.is_empty() && is_ncname(local) => Ok(QName::new("", local)),
        _ => Err(Error::malformed(
            env.version(),
            format!("{what} '{text}' is not a QName with a bound prefix"),
        )),
    }
}

/// `s` with every character XML 1.0 cannot hold (controls but tab, newline and carriage
/// return; U+FFFE, U+FFFF) replaced by U+FFFD: a fault's texts often quote the input that
/// caused it, and the fault must still be a message that can be sent.
fn xml_text(s: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| {
        (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{FFFE}' || c == '\u{FFFF}'
    };
    match s.contains(bad) {
        false => std::borrow::Cow::Borrowed(s),
        true => std::borrow::Cow::Owned(s.replace(bad, "\u{FFFD}")),
    }
}

fn is_ncname(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '\u{B7}'))
}

fn is_space(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

fn detail(doc: &TypedDocument, d: NodeId) -> TypedDocument {
    let mut out = TypedDocument::new();
    for c in doc.children(d) {
        out.append_copy(out.root(), doc, c);
    }
    out
}
