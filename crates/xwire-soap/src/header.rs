//! Header blocks, and the processing model that decides which are for this node and
//! whether it may go on: roles (1.2) or actors (1.1), `mustUnderstand`, `relay`.

use xwire::binary::NodeId;

use crate::envelope::Envelope;
use crate::error::Error;
use crate::fault::{Code, Fault, QName};
use crate::version::Version;

/// One header block of an [`Envelope`]: a child element of its `Header`.
#[derive(Clone, Copy, Debug)]
pub struct HeaderBlock<'e> {
    env: &'e Envelope,
    node: NodeId,
}

impl<'e> HeaderBlock<'e> {
    pub(crate) fn new(env: &'e Envelope, node: NodeId) -> HeaderBlock<'e> {
        HeaderBlock { env, node }
    }

    /// Refuses a block that breaks the rules every block must keep: a namespace, and
    /// `mustUnderstand` (and in 1.2 `relay`) values that are booleans.
    pub(crate) fn check(env: &Envelope, node: NodeId) -> Result<(), Error> {
        let v = env.version();
        let doc = env.document();
        if doc.namespace_uri(node).is_empty() {
            return Err(Error::malformed(
                v,
                format!(
                    "the header block '{}' has no namespace",
                    doc.local_name(node)
                ),
            ));
        }
        let mut attrs = vec!["mustUnderstand"];
        if v == Version::V12 {
            attrs.push("relay");
        }
        for a in attrs {
            if let Some(value) = doc.attribute(node, v.envelope_ns(), a) {
                if boolean(value).is_none() {
                    return Err(Error::malformed(
                        v,
                        format!(
                            "{a}='{value}' on the header block '{}' is not a boolean",
                            doc.local_name(node)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The block's element in [`Envelope::document`].
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The block's namespace URI (never empty: reading refuses unqualified blocks).
    pub fn namespace(&self) -> &'e str {
        self.env.document().namespace_uri(self.node)
    }

    /// The block's local name.
    pub fn local_name(&self) -> &'e str {
        self.env.document().local_name(self.node)
    }

    /// The block's name.
    pub fn name(&self) -> QName {
        QName::new(self.namespace(), self.local_name())
    }

    /// The role (1.2 `role`) or actor (1.1 `actor`) the block is for, as written (trimmed);
    /// `None` where it has none: then it is for the ultimate receiver.
    pub fn role(&self) -> Option<&'e str> {
        let v = self.env.version();
        self.env
            .document()
            .attribute(self.node, v.envelope_ns(), v.role_attribute())
            .map(str::trim)
    }

    /// Whether the node it targets must understand it or fault.
    pub fn must_understand(&self) -> bool {
        self.flag("mustUnderstand")
    }

    /// Whether an intermediary that does not process it forwards it (1.2 only).
    pub fn relay(&self) -> bool {
        self.env.version() == Version::V12 && self.flag("relay")
    }

    fn flag(&self, local: &str) -> bool {
        let ns = self.env.version().envelope_ns();
        self.env
            .document()
            .attribute(self.node, ns, local)
            .and_then(boolean)
            .unwrap_or(false)
    }
}

/// `xs:boolean` after white space collapses.
fn boolean(s: &str) -> Option<bool> {
    match s.trim_matches([' ', '\t', '\n', '\r']) {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// What a SOAP node is on the message path: the roles it plays, and so which header blocks
/// are for it. Every node plays `next`; the ultimate receiver also plays the unnamed (1.1)
/// or `ultimateReceiver` (1.2) role; no node plays 1.2's `none`.
///
/// ```
/// use xwire_soap::{Code, Envelope, Node};
/// let msg = br#"<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope">
///   <env:Header>
///     <t:log xmlns:t="urn:t" env:role="urn:logger" env:mustUnderstand="true"/>
///     <t:auth xmlns:t="urn:t" env:mustUnderstand="true">x</t:auth>
///   </env:Header>
///   <env:Body/>
/// </env:Envelope>"#;
/// let env = Envelope::parse(msg)?;
/// // The ultimate receiver gets `auth` (no role); `log` is for another node.
/// let node = Node::ultimate_receiver();
/// let mine = node.process(&env, |b| b.local_name() == "auth").unwrap();
/// assert_eq!(mine.len(), 1);
/// // A node that plays urn:logger too, and understands only auth, must fault.
/// let fault = node.with_role("urn:logger").process(&env, |b| b.local_name() == "auth").unwrap_err();
/// assert_eq!(fault.code, Code::MustUnderstand);
/// assert_eq!(fault.not_understood[0].local, "log");
/// # Ok::<(), xwire_soap::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Node {
    roles: Vec<String>,
    ultimate_receiver: bool,
}

impl Node {
    /// The ultimate receiver: the node the body is for.
    pub fn ultimate_receiver() -> Node {
        Node {
            roles: Vec::new(),
            ultimate_receiver: true,
        }
    }

    /// An intermediary: plays `next` (and the roles added to it) only.
    pub fn intermediary() -> Node {
        Node::default()
    }

    /// This node, also playing the role (or 1.1 actor) `uri`.
    pub fn with_role(mut self, uri: impl Into<String>) -> Node {
        self.roles.push(uri.into());
        self
    }

    /// Whether the node is the ultimate receiver.
    pub fn is_ultimate_receiver(&self) -> bool {
        self.ultimate_receiver
    }

    /// Whether `block` is for this node.
    pub fn targets(&self, block: &HeaderBlock<'_>) -> bool {
        let v = block.env.version();
        match block.role() {
            None | Some("") => self.ultimate_receiver,
            Some(r) if r == v.next_role() => true,
            Some(r) if Some(r) == v.ultimate_receiver_role() => self.ultimate_receiver,
            Some(r) if Some(r) == v.none_role() => false,
            Some(r) => self.roles.iter().any(|mine| mine == r),
        }
    }

    /// The header blocks of `env` for this node, in document order, once every one of
    /// them marked `mustUnderstand` is one `understands` says the node understands.
    /// Otherwise the `MustUnderstand` fault (boxed: a fault is large, and rare), naming the blocks not understood, which the
    /// node must answer with before it processes anything (SOAP 1.2 part 1, 2.6; 1.1,
    /// 4.2.3).
    pub fn process<'e>(
        &self,
        env: &'e Envelope,
        understands: impl Fn(&HeaderBlock<'e>) -> bool,
    ) -> Result<Vec<HeaderBlock<'e>>, Box<Fault>> {
        let mine: Vec<HeaderBlock<'e>> = env.header_blocks().filter(|b| self.targets(b)).collect();
        let not_understood: Vec<QName> = mine
            .iter()
            .filter(|b| b.must_understand() && !understands(b))
            .map(HeaderBlock::name)
            .collect();
        if not_understood.is_empty() {
            return Ok(mine);
        }
        let names: Vec<String> = not_understood.iter().map(QName::to_string).collect();
        let mut fault = Fault::new(
            Code::MustUnderstand,
            format!("header blocks not understood: {}", names.join(", ")),
        );
        fault.not_understood = not_understood;
        Err(Box::new(fault))
    }
}
