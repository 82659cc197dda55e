//! The envelope: a typed document whose root is a SOAP `Envelope`, checked against its
//! version's rules when read, and built in order when written.

use xwire::binary::{Kind, NodeId, ReadOptions, TypedDocument};
use xwire::writer::{WriteError, Writer, XmlSink};
use xwire::Reader;

use crate::error::Error;
use crate::fault::{element_children, Fault};
use crate::header::HeaderBlock;
use crate::version::Version;

/// A SOAP message: the binary data model's [`TypedDocument`] (the same value whether the
/// message came as text or as binary XML) with its version and the places of its
/// `Header` and `Body`.
///
/// Reading checks what both versions require of an envelope: the root is an `Envelope` of
/// a known version (else the error's fault is `VersionMismatch`); no document type
/// declaration; no processing instructions in 1.1 (1.2 ignores them, and keeps them in the
/// document); at most one `Header`, before exactly one
/// `Body`; namespace-qualified header blocks with valid `mustUnderstand` (and, in 1.2,
/// `relay`) values; in 1.2 nothing after the `Body`, in 1.1 only namespace-qualified
/// elements there.
///
/// ```
/// use xwire_soap::{Envelope, Version};
/// let msg = br#"<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope">
///   <env:Header><t:trace xmlns:t="urn:t">on</t:trace></env:Header>
///   <env:Body><m:echo xmlns:m="urn:m">hi</m:echo></env:Body>
/// </env:Envelope>"#;
/// let env = Envelope::parse(msg)?;
/// assert_eq!(env.version(), Version::V12);
/// assert_eq!(env.header_blocks().next().unwrap().local_name(), "trace");
/// let doc = env.document();
/// let echo = env.body_elements().next().unwrap();
/// assert_eq!((doc.namespace_uri(echo), doc.local_name(echo)), ("urn:m", "echo"));
///
/// // Building: headers may be added after the body; the Header goes before it.
/// let mut reply = Envelope::new(Version::V11);
/// let r = reply.add_body_element("urn:m", "m:echoResponse");
/// reply.document_mut().append_text(r, "hi");
/// reply.add_header_block("urn:t", "t:trace");
/// let text = String::from_utf8(reply.to_bytes()?).unwrap();
/// assert!(text.starts_with(r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header><t:trace"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Envelope {
    doc: TypedDocument,
    version: Version,
    envelope: NodeId,
    header: Option<NodeId>,
    body: NodeId,
}

impl Envelope {
    /// An envelope of `version` with an empty `Body`.
    pub fn new(version: Version) -> Envelope {
        let mut doc = TypedDocument::new();
        let ns = version.envelope_ns();
        let p = version.prefix();
        let envelope = doc.append_element(doc.root(), ns, &format!("{p}:Envelope"));
        doc.declare_namespace(envelope, p, ns);
        let body = doc.append_element(envelope, ns, &format!("{p}:Body"));
        Envelope {
            doc,
            version,
            envelope,
            header: None,
            body,
        }
    }

    /// Reads a message from text or binary XML bytes (see [`Envelope::read`]).
    pub fn parse(bytes: &[u8]) -> Result<Envelope, Error> {
        Envelope::read(&mut Reader::from_slice(bytes))
    }

    /// Reads a message from `reader` and checks it is an envelope (see the type's page).
    pub fn read(reader: &mut Reader<'_>) -> Result<Envelope, Error> {
        let mut doc = TypedDocument::new();
        // Processing instructions are refused in 1.1 and ignored in 1.2, which the version
        // decides once the root is read (`check_structure`).
        let mut options = ReadOptions::default();
        options.refuse_doctype = true;
        doc.read_into_with(reader, options)?;
        Envelope::from_document(doc)
    }

    /// Checks that `doc` is an envelope, as [`Envelope::read`] does (but for the document
    /// type declaration: a `TypedDocument` does not keep one, so only `read` can refuse it).
    pub fn from_document(doc: TypedDocument) -> Result<Envelope, Error> {
        let root = doc.root_element().ok_or_else(|| Error::VersionMismatch {
            found: "(no element)".into(),
        })?;
        let version = match Version::from_envelope_ns(doc.namespace_uri(root)) {
            Some(v) if doc.local_name(root) == "Envelope" && doc.kind(root) == Kind::Element => v,
            _ => {
                return Err(Error::VersionMismatch {
                    found: format!("{{{}}}{}", doc.namespace_uri(root), doc.local_name(root)),
                })
            }
        };
        let mut env = Envelope {
            doc,
            version,
            envelope: root,
            header: None,
            body: root,
        };
        env.check_structure()?;
        Ok(env)
    }

    fn check_structure(&mut self) -> Result<(), Error> {
        let v = self.version;
        let ns = v.envelope_ns();
        let doc = &self.doc;
        // SOAP 1.1 forbids processing instructions; 1.2 (part 1, section 5) says a message
        // should not have them and a receiver must ignore them.
        let pi = descendants(doc, doc.root()).find(|&n| doc.kind(n) == Kind::Pi);
        if let (Some(pi), Version::V11) = (pi, v) {
            return Err(Error::malformed(
                v,
                format!(
                    "a processing instruction ('{}'), which SOAP 1.1 forbids",
                    doc.pi_target(pi)
                ),
            ));
        }
        if v == Version::V12 {
            for n in [self.envelope] {
                if doc.attribute(n, ns, "encodingStyle").is_some() {
                    return Err(Error::malformed(v, "encodingStyle on the Envelope"));
                }
            }
        }
        let mut body = None;
        for c in element_children(self, self.envelope)? {
            let (cns, local) = (doc.namespace_uri(c), doc.local_name(c));
            if body.is_some() {
                // After the Body: nothing in 1.2; qualified elements in 1.1.
                if v == Version::V12 || cns.is_empty() || cns == ns {
                    return Err(Error::malformed(
                        v,
                        format!("the element {{{cns}}}{local} follows the Body"),
                    ));
                }
                continue;
            }
            match (cns == ns, local) {
                (true, "Header") if self.header.is_none() => self.header = Some(c),
                (true, "Header") => return Err(Error::malformed(v, "a second Header")),
                (true, "Body") => body = Some(c),
                _ => {
                    return Err(Error::malformed(
                        v,
                        format!(
                            "the Envelope holds {{{cns}}}{local} where it expects {}Body",
                            if self.header.is_some() {
                                ""
                            } else {
                                "a Header or the "
                            }
                        ),
                    ))
                }
            }
        }
        self.body = body.ok_or_else(|| Error::malformed(v, "the Envelope has no Body"))?;
        for n in [self.header, Some(self.body)].into_iter().flatten() {
            if doc.kind(n) != Kind::Element {
                return Err(Error::malformed(
                    v,
                    "a Header or Body holding a typed value",
                ));
            }
            if v == Version::V12 && doc.attribute(n, ns, "encodingStyle").is_some() {
                let what = doc.local_name(n);
                return Err(Error::malformed(v, format!("encodingStyle on the {what}")));
            }
        }
        if let Some(h) = self.header {
            for b in element_children(self, h)? {
                HeaderBlock::check(self, b)?;
            }
        }
        element_children(self, self.body)?;
        Ok(())
    }

    /// The version, from the envelope's namespace.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The whole message as a document.
    pub fn document(&self) -> &TypedDocument {
        &self.doc
    }

    /// The document, to append to the elements [`Envelope::add_header_block`] and
    /// [`Envelope::add_body_element`] gave. Elements appended elsewhere (after the `Body`,
    /// under the `Envelope`) are the caller's responsibility.
    pub fn document_mut(&mut self) -> &mut TypedDocument {
        &mut self.doc
    }

    /// The message as a document.
    pub fn into_document(self) -> TypedDocument {
        self.doc
    }

    /// The `Envelope` element.
    pub fn envelope(&self) -> NodeId {
        self.envelope
    }

    /// The `Header` element, if there is one.
    pub fn header(&self) -> Option<NodeId> {
        self.header
    }

    /// The `Body` element.
    pub fn body(&self) -> NodeId {
        self.body
    }

    /// The header blocks, in document order.
    pub fn header_blocks(&self) -> impl Iterator<Item = HeaderBlock<'_>> + '_ {
        let doc = &self.doc;
        self.header
            .into_iter()
            .flat_map(move |h| doc.children(h))
            .filter(move |&n| is_element(doc, n))
            .map(move |n| HeaderBlock::new(self, n))
    }

    /// The element children of the `Body`, in document order.
    pub fn body_elements(&self) -> impl Iterator<Item = NodeId> + '_ {
        let doc = &self.doc;
        doc.children(self.body).filter(move |&n| is_element(doc, n))
    }

    /// The fault the body carries, if its first element is a `Fault` of the envelope's
    /// namespace; an error if that fault is malformed.
    pub fn fault(&self) -> Result<Option<Fault>, Error> {
        let ns = self.version.envelope_ns();
        match self.body_elements().next() {
            Some(f) if self.doc.namespace_uri(f) == ns && self.doc.local_name(f) == "Fault" => {
                Fault::read(self, f).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// Appends a header block named `qname` in namespace `ns` (a `Header` is made, before
    /// the `Body`, if there is none yet), declaring its prefix on it unless it is in scope
    /// already.
    pub fn add_header_block(&mut self, ns: &str, qname: &str) -> NodeId {
        let header = self.header_or_insert();
        self.append_declared(header, ns, qname)
    }

    /// The `Header` element, made before the `Body` if there is none yet: where a block
    /// copied from another message goes
    /// ([`TypedDocument::append_copy`](xwire::binary::TypedDocument::append_copy)).
    pub fn header_or_insert(&mut self) -> NodeId {
        if let Some(h) = self.header {
            return h;
        }
        let v = self.version;
        let qname = format!("{}:Header", v.prefix());
        let h = self
            .doc
            .insert_element_before(self.body, v.envelope_ns(), &qname);
        self.header = Some(h);
        h
    }

    /// Appends an element named `qname` in namespace `ns` to the `Body`, declaring its
    /// prefix on it unless it is in scope already.
    pub fn add_body_element(&mut self, ns: &str, qname: &str) -> NodeId {
        self.append_declared(self.body, ns, qname)
    }

    fn append_declared(&mut self, parent: NodeId, ns: &str, qname: &str) -> NodeId {
        let prefix = qname.split_once(':').map_or("", |(p, _)| p);
        let el = self.doc.append_element(parent, ns, qname);
        let bound = self.doc.lookup_namespace(parent, prefix).unwrap_or("");
        if bound != ns {
            self.doc.declare_namespace(el, prefix, ns);
        }
        el
    }

    /// Writes the message to a text or binary writer (the caller calls its `finish`).
    pub fn write<S: XmlSink + ?Sized>(&self, sink: &mut S) -> Result<(), WriteError> {
        self.doc.write(sink)
    }

    /// The message as text XML (UTF-8, no XML declaration). Fails only for a name given to
    /// the builders that is not an XML name.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let mut w = Writer::new(Vec::new());
        self.doc.write(&mut w)?;
        w.finish()
    }
}

fn is_element(doc: &TypedDocument, n: NodeId) -> bool {
    matches!(doc.kind(n), Kind::Element | Kind::Leaf | Kind::Array)
}

/// Every node under `n`, in document order, without recursion.
fn descendants(doc: &TypedDocument, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let mut stack: Vec<NodeId> = doc.children(n).collect();
    stack.reverse();
    std::iter::from_fn(move || {
        let next = stack.pop()?;
        let at = stack.len();
        stack.extend(doc.children(next));
        stack[at..].reverse();
        Some(next)
    })
}
