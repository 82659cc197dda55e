//! SOAP encoding (1.1 section 5, 1.2 part 2 section 3): the object graph that `rpc/encoded`
//! messages carry. Structs, arrays (multidimensional, partially transmitted, sparse) and
//! simple values, with shared and cyclic references (1.1 `id`/`href`, 1.2 `enc:id`/`enc:ref`).
//!
//! [`Graph::decode`] reads an accessor element of an envelope into a [`Graph`] in time linear
//! in the message: every element is visited once, references are resolved through one table
//! of ids, and nothing recurses, so a chain of 100,000 references or a cycle costs what its
//! elements cost. [`Graph::encode`] writes a graph back, giving an id to every node reached
//! more than once (shared objects found by identity: the node).

use std::collections::HashMap;

use xwire::binary::{Kind, NodeId, PrimitiveType, TypedDocument, TypedValue};

use crate::envelope::Envelope;
use crate::error::Error;
use crate::fault::{element_children, resolve_qname, simple_text, QName};
use crate::version::Version;

/// The XML Schema namespace (`xsd`).
pub const XSD: &str = "http://www.w3.org/2001/XMLSchema";
/// The XML Schema instance namespace (`xsi`).
pub const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// A node of a [`Graph`]: an index into its arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeRef(u32);

impl NodeRef {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What one node of the graph holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `xsi:nil="true"`.
    Nil,
    /// A simple value: its text as sent (kept, so that it goes back out as it came) and its
    /// `xsi:type`, if it had one.
    Simple {
        /// The type named by `xsi:type`.
        ty: Option<QName>,
        /// The lexical form.
        text: String,
    },
    /// A struct: accessors in order, each a name and a node.
    Struct {
        /// The type named by `xsi:type`.
        ty: Option<QName>,
        /// The fields.
        fields: Vec<(QName, NodeRef)>,
    },
    /// An array: its item type and dimensions, and the items present, each at its position
    /// in row-major order (an array partially transmitted or sparse has fewer items than
    /// its dimensions multiply to).
    Array {
        /// The type named by `xsi:type` (`soapenc:Array` or a type derived from it).
        ty: Option<QName>,
        /// The item type (1.1 `arrayType` without its dimensions, 1.2 `itemType`); for an
        /// array of arrays in 1.1 (`xsd:int[][2]`), the item type with its inner ranks, as
        /// written after the prefix is resolved (`{xsd}int[]`).
        item_type: Option<QName>,
        /// The dimensions; `None` for a size not given (1.2 `*`, 1.1 `[]`).
        dims: Vec<Option<usize>>,
        /// `(position, item)` in increasing position.
        items: Vec<(usize, NodeRef)>,
    },
}

impl Value {
    /// A simple value's typed form, where its `xsi:type` is an XML Schema built-in with a
    /// native form (`xsd:int` as `I32`, `xsd:double` as `F64`, ...) and its text is valid.
    pub fn typed(&self) -> Option<TypedValue<'_>> {
        let Value::Simple { ty: Some(ty), text } = self else {
            return None;
        };
        let p = match ty.ns == XSD {
            true => PrimitiveType::of_xsd_builtin(&ty.local)?,
            false => return None,
        };
        if p == PrimitiveType::Bytes {
            return None; // base64 is decoded by the caller, who owns the bytes
        }
        TypedValue::parse(p, text.trim()).ok()
    }
}

/// An object graph of SOAP encoding: nodes in an arena, which fields and items point into,
/// so that a node can be shared and a graph can hold cycles.
///
/// ```
/// use xwire_soap::{Envelope, Graph, Value};
/// let msg = br##"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"
///     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
///     xmlns:xsd="http://www.w3.org/2001/XMLSchema">
///   <s:Body>
///     <m:op xmlns:m="urn:m"><a href="#p"/><b href="#p"/></m:op>
///     <person id="p"><name xsi:type="xsd:string">Ann</name><self href="#p"/></person>
///   </s:Body>
/// </s:Envelope>"##;
/// let env = Envelope::parse(msg)?;
/// let op = env.body_elements().next().unwrap();
/// let (graph, root) = Graph::decode(&env, op)?;
/// let Value::Struct { fields, .. } = graph.value(root) else { panic!() };
/// // Both accessors are the one person, whose `self` is itself.
/// assert_eq!(fields[0].1, fields[1].1);
/// let Value::Struct { fields: person, .. } = graph.value(fields[0].1) else { panic!() };
/// assert_eq!(person[1].1, fields[0].1);
/// # Ok::<(), xwire_soap::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    nodes: Vec<Value>,
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Graph {
        Graph::default()
    }

    /// Adds a node.
    pub fn add(&mut self, value: Value) -> NodeRef {
        let r = NodeRef(u32::try_from(self.nodes.len()).expect("at most 2^32 nodes"));
        self.nodes.push(value);
        r
    }

    /// The value of node `r`.
    pub fn value(&self, r: NodeRef) -> &Value {
        &self.nodes[r.index()]
    }

    /// The value of node `r`, to change.
    pub fn value_mut(&mut self, r: NodeRef) -> &mut Value {
        &mut self.nodes[r.index()]
    }

    /// Every node, in the order they were added.
    pub fn refs(&self) -> impl Iterator<Item = NodeRef> {
        (0..self.nodes.len() as u32).map(NodeRef)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Reads the accessor element `el` of `env` (an RPC call's element, a parameter, any
    /// encoded element) and what it references into a graph, returning the graph and the
    /// node of `el`. References resolve against every `id` of the envelope (header and
    /// body). A reference to no id, two elements with one id, a chain of references that
    /// loops without reaching a value, or an array whose positions are out of bounds or
    /// repeated are errors whose fault is `Sender`.
    pub fn decode(env: &Envelope, el: NodeId) -> Result<(Graph, NodeRef), Error> {
        let mut d = Decoder::new(env)?;
        let root = d.node_for(el)?;
        while let Some((el, r)) = d.pending.pop() {
            let v = d.read(el)?;
            d.graph.nodes[r.index()] = v;
        }
        Ok((d.graph, root))
    }

    /// Writes node `root` as the accessor element `name` under `parent` of `env`, with
    /// `xsi:type` on simple values, structs and arrays that have a type, and an id on every
    /// node reached more than once. In 1.1 a shared node is written once, as an independent
    /// element appended to the `Body` (`<multiRef id="idN">`), and every accessor to it is a
    /// `href="#idN"`; in 1.2 it is written where it is first reached, with `enc:id`, and
    /// referenced with `enc:ref` after that. Returns the accessor element.
    pub fn encode(
        &self,
        root: NodeRef,
        env: &mut Envelope,
        parent: NodeId,
        name: &QName,
    ) -> NodeId {
        Encoder::new(self, env).run(root, parent, name)
    }
}

struct Decoder<'e> {
    env: &'e Envelope,
    doc: &'e TypedDocument,
    version: Version,
    ids: HashMap<&'e str, NodeId>,
    /// The node made for an element (targets of references are reached more than once).
    made: HashMap<NodeId, NodeRef>,
    /// Elements whose node is made but not yet read.
    pending: Vec<(NodeId, NodeRef)>,
    graph: Graph,
}

impl<'e> Decoder<'e> {
    fn new(env: &'e Envelope) -> Result<Decoder<'e>, Error> {
        let doc = env.document();
        let version = env.version();
        let enc = version.encoding_ns();
        let mut ids = HashMap::new();
        // Every id of the envelope, in one walk without recursion.
        let mut stack = vec![env.envelope()];
        while let Some(n) = stack.pop() {
            let id = match version {
                Version::V11 => doc.attribute(n, "", "id"),
                Version::V12 => doc.attribute(n, enc, "id"),
            };
            if let Some(id) = id {
                if ids.insert(id, n).is_some() {
                    return Err(Error::malformed(
                        version,
                        format!("two elements with id '{id}'"),
                    ));
                }
            }
            stack.extend(doc.children(n).filter(|&c| doc.kind(c) == Kind::Element));
        }
        Ok(Decoder {
            env,
            doc,
            version,
            ids,
            made: HashMap::new(),
            pending: Vec::new(),
            graph: Graph::new(),
        })
    }

    /// The id element `el` refers to, if it is a reference.
    fn reference(&self, el: NodeId) -> Result<Option<NodeId>, Error> {
        let target = match self.version {
            Version::V11 => match self.doc.attribute(el, "", "href") {
                None => return Ok(None),
                Some(h) => h.trim().strip_prefix('#').ok_or_else(|| {
                    Error::malformed(self.version, format!("href '{h}' is not a local reference"))
                })?,
            },
            Version::V12 => match self.doc.attribute(el, self.version.encoding_ns(), "ref") {
                None => return Ok(None),
                // An element is a value or a reference to one (part 2, 3.1.5.3).
                Some(_)
                    if self
                        .doc
                        .attribute(el, self.version.encoding_ns(), "id")
                        .is_some() =>
                {
                    return Err(Error::malformed(
                        self.version,
                        "an element with both enc:id and enc:ref",
                    ))
                }
                // An IDREF; the `#` of 1.1's href, which PHP's ext/soap also sends in 1.2,
                // is read past.
                Some(r) => r.trim().trim_start_matches('#'),
            },
        };
        match self.ids.get(target) {
            Some(&n) => Ok(Some(n)),
            None => Err(Error::malformed(
                self.version,
                format!("a reference to '{target}', which no element has as its id"),
            )),
        }
    }

    /// The node of the value `el` stands for: made now (and queued to be read) or earlier.
    fn node_for(&mut self, el: NodeId) -> Result<NodeRef, Error> {
        // Follow a chain of references to the element with the value; a chain that comes
        // back on itself never reaches one. Each step is one table lookup.
        let mut at = el;
        let mut steps = 0usize;
        while let Some(next) = self.reference(at)? {
            if has_content(self.doc, at) {
                return Err(Error::malformed(
                    self.version,
                    "a reference with content of its own",
                ));
            }
            at = next;
            steps += 1;
            if steps > self.ids.len() {
                return Err(Error::malformed(
                    self.version,
                    "references in a cycle that reaches no value",
                ));
            }
        }
        if let Some(&r) = self.made.get(&at) {
            return Ok(r);
        }
        let r = self.graph.add(Value::Nil);
        self.made.insert(at, r);
        self.pending.push((at, r));
        Ok(r)
    }

    fn xsi_type(&self, el: NodeId) -> Result<Option<QName>, Error> {
        match self.doc.attribute(el, XSI, "type") {
            None => Ok(None),
            Some(t) => attribute_qname(self.env, el, t, "xsi:type").map(Some),
        }
    }

    /// The value of element `el` (not a reference), its accessors queued.
    fn read(&mut self, el: NodeId) -> Result<Value, Error> {
        let doc = self.doc;
        if let Some(nil) = doc.attribute(el, XSI, "nil") {
            if matches!(nil.trim(), "true" | "1") {
                return Ok(Value::Nil);
            }
        }
        let ty = self.xsi_type(el)?;
        if let Some(array) = self.array_shape(el, &ty)? {
            return self.read_array(el, ty, array);
        }
        let has_elements = doc
            .children(el)
            .any(|c| matches!(doc.kind(c), Kind::Element | Kind::Leaf | Kind::Array));
        if !has_elements {
            let text = simple_text(self.env, el, "a simple value")?;
            return Ok(Value::Simple { ty, text });
        }
        let children = element_children(self.env, el)?;
        let mut fields = Vec::with_capacity(children.len());
        for c in children {
            let name = QName::new(doc.namespace_uri(c), doc.local_name(c));
            fields.push((name, self.node_for(c)?));
        }
        Ok(Value::Struct { ty, fields })
    }

    /// The item type, dimensions and offset of an array element; `None` if `el` is not one.
    fn array_shape(&self, el: NodeId, ty: &Option<QName>) -> Result<Option<Shape>, Error> {
        let doc = self.doc;
        let enc = self.version.encoding_ns();
        let v = self.version;
        match v {
            Version::V11 => {
                let Some(at) = doc.attribute(el, enc, "arrayType") else {
                    let is_array = ty
                        .as_ref()
                        .is_some_and(|t| t.ns == enc && t.local == "Array");
                    return Ok(is_array.then(|| Shape {
                        item_type: None,
                        dims: vec![None],
                        offset: 0,
                    }));
                };
                let at = at.trim();
                let open = at.rfind('[').filter(|_| at.ends_with(']')).ok_or_else(|| {
                    Error::malformed(v, format!("arrayType '{at}' has no dimensions"))
                })?;
                let item = attribute_qname(self.env, el, &at[..open], "arrayType")?;
                let dims = at[open + 1..at.len() - 1]
                    .split(',')
                    .map(|d| size(d.trim(), v))
                    .collect::<Result<Vec<_>, _>>()?;
                let offset = match doc.attribute(el, enc, "offset") {
                    Some(o) => position(o, &dims, v)?,
                    None => 0,
                };
                Ok(Some(Shape {
                    item_type: Some(item),
                    dims,
                    offset,
                }))
            }
            Version::V12 => {
                let item = doc.attribute(el, enc, "itemType");
                let sizes = doc.attribute(el, enc, "arraySize");
                if item.is_none() && sizes.is_none() {
                    return Ok(None);
                }
                let item_type = match item {
                    Some(t) => Some(attribute_qname(self.env, el, t, "itemType")?),
                    None => None,
                };
                let dims = match sizes {
                    Some(s) => s
                        .split_whitespace()
                        .enumerate()
                        .map(|(i, d)| match (i, d) {
                            (0, "*") => Ok(None),
                            _ => size(d, v),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    None => vec![None],
                };
                if dims.is_empty() {
                    return Err(Error::malformed(v, "an empty arraySize"));
                }
                Ok(Some(Shape {
                    item_type,
                    dims,
                    offset: 0,
                }))
            }
        }
    }

    fn read_array(&mut self, el: NodeId, ty: Option<QName>, shape: Shape) -> Result<Value, Error> {
        let v = self.version;
        let enc = v.encoding_ns();
        let mut items = Vec::new();
        let mut next = shape.offset;
        for c in element_children(self.env, el)? {
            let at = match (v, self.doc.attribute(c, enc, "position")) {
                (Version::V11, Some(p)) => position(p, &shape.dims, v)?,
                _ => next,
            };
            if items.last().is_some_and(|&(last, _)| at <= last) {
                return Err(Error::malformed(
                    v,
                    format!("array items out of order at position {at}"),
                ));
            }
            if let Some(total) = total(&shape.dims) {
                if at >= total {
                    return Err(Error::malformed(
                        v,
                        format!("an array item at position {at}, past the array's {total} items"),
                    ));
                }
            }
            items.push((at, self.node_for(c)?));
            next = at + 1;
        }
        Ok(Value::Array {
            ty,
            item_type: shape.item_type,
            dims: shape.dims,
            items,
        })
    }
}

struct Shape {
    item_type: Option<QName>,
    dims: Vec<Option<usize>>,
    offset: usize,
}

/// The number of items dimensions give, if all are known and it fits.
fn total(dims: &[Option<usize>]) -> Option<usize> {
    dims.iter()
        .try_fold(1usize, |acc, d| acc.checked_mul((*d)?))
}

fn size(d: &str, v: Version) -> Result<Option<usize>, Error> {
    if d.is_empty() {
        return Ok(None);
    }
    d.parse::<usize>()
        .map(Some)
        .map_err(|_| Error::malformed(v, format!("'{d}' is not an array size")))
}

/// A 1.1 position or offset, `[i]` or `[i,j]`, as a row-major index into `dims`.
fn position(p: &str, dims: &[Option<usize>], v: Version) -> Result<usize, Error> {
    let bad = || Error::malformed(v, format!("'{p}' is not a position in the array"));
    let inner = p
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(bad)?;
    let idx: Vec<usize> = inner
        .split(',')
        .map(|s| s.trim().parse::<usize>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if idx.len() != dims.len() {
        return Err(bad());
    }
    let mut at = 0usize;
    for (i, (&x, d)) in idx.iter().zip(dims).enumerate() {
        let d = match d {
            Some(d) => *d,
            None if i == 0 => usize::MAX,
            None => return Err(bad()),
        };
        if x >= d {
            return Err(bad());
        }
        at = at.checked_mul(if i == 0 { 1 } else { d }).ok_or_else(bad)?;
        at = at.checked_add(x).ok_or_else(bad)?;
    }
    Ok(at)
}

fn has_content(doc: &TypedDocument, el: NodeId) -> bool {
    doc.children(el).any(|c| match doc.kind(c) {
        Kind::Text | Kind::CData => !doc.text(c).trim().is_empty(),
        Kind::Comment | Kind::Pi => false,
        _ => true,
    })
}

/// A QName in an attribute value, resolved on its element (with the item type's ranks of
/// a 1.1 array of arrays, `xsd:int[]`, kept on the local name).
fn attribute_qname(env: &Envelope, el: NodeId, value: &str, what: &str) -> Result<QName, Error> {
    let value = value.trim();
    let (name, ranks) = match value.find('[') {
        Some(i) => value.split_at(i),
        None => (value, ""),
    };
    let mut q = resolve_qname(env, el, name, what)?;
    q.local.push_str(ranks);
    Ok(q)
}

/// How deep below the call a 1.1 encoder nests values before it writes them as
/// independent elements (each a body entry referenced by `href`).
const MAX_INLINE_DEPTH: usize = 256;

struct Encoder<'g, 'e> {
    graph: &'g Graph,
    env: &'e mut Envelope,
    /// How many times each node is reached (from the root and from fields and items).
    reached: Vec<u32>,
    /// The id given to a shared node, once it has been written (1.2) or queued (1.1).
    ids: HashMap<NodeRef, String>,
}

impl<'g, 'e> Encoder<'g, 'e> {
    fn new(graph: &'g Graph, env: &'e mut Envelope) -> Encoder<'g, 'e> {
        Encoder {
            graph,
            env,
            reached: vec![0; graph.len()],
            ids: HashMap::new(),
        }
    }

    fn run(mut self, root: NodeRef, parent: NodeId, name: &QName) -> NodeId {
        self.count(root);
        let v = self.env.version();
        let first = self.accessor(parent, name);
        self.declare(first);
        // (element to fill, node it stands for, its depth below the call); 1.1 shared
        // nodes wait in `independent`.
        let mut stack = Vec::new();
        let mut independent = Vec::new();
        self.place(first, root, 0, &mut stack, &mut independent);
        loop {
            while let Some((el, r, depth)) = stack.pop() {
                self.fill(el, r, depth, &mut stack, &mut independent);
            }
            let Some((id, r)) = independent.pop() else {
                break;
            };
            // A 1.1 independent element: after the Body's first entry, named multiRef.
            let body = self.env.body();
            let el = self.accessor(body, &QName::new("", "multiRef"));
            self.declare(el);
            let doc = self.env.document_mut();
            doc.set_attribute(el, "", "id", &id);
            // Not a root of the serialization: reached only through references.
            doc.set_attribute(el, v.encoding_ns(), "enc:root", "0");
            stack.push((el, r, 0));
        }
        first
    }

    /// Counts how often each node is reached, without recursion.
    fn count(&mut self, root: NodeRef) {
        let mut stack = vec![root];
        while let Some(r) = stack.pop() {
            self.reached[r.index()] += 1;
            if self.reached[r.index()] > 1 {
                continue; // its children were counted the first time
            }
            match self.graph.value(r) {
                Value::Struct { fields, .. } => stack.extend(fields.iter().map(|f| f.1)),
                Value::Array { items, .. } => stack.extend(items.iter().map(|i| i.1)),
                _ => {}
            }
        }
    }

    fn accessor(&mut self, parent: NodeId, name: &QName) -> NodeId {
        let doc = self.env.document_mut();
        if name.ns.is_empty() {
            let el = doc.append_element(parent, "", &name.local);
            undeclare_default(doc, el);
            return el;
        }
        let prefix = match doc.lookup_namespace(parent, "m") {
            Some(ns) if ns == name.ns => {
                return doc.append_element(parent, &name.ns, &format!("m:{}", name.local))
            }
            _ => "m",
        };
        let el = doc.append_element(parent, &name.ns, &format!("{prefix}:{}", name.local));
        doc.declare_namespace(el, prefix, &name.ns);
        el
    }

    /// Declares `xsi`, `xsd` and the encoding prefix on `el` unless they are in scope.
    fn declare(&mut self, el: NodeId) {
        let enc = self.env.version().encoding_ns();
        let doc = self.env.document_mut();
        for (p, ns) in [("xsi", XSI), ("xsd", XSD), ("enc", enc)] {
            if doc.lookup_namespace(el, p) != Some(ns) {
                doc.declare_namespace(el, p, ns);
            }
        }
    }

    /// Writes the accessor `el` for node `r`: a reference if `r` is shared and already
    /// has an id, else queued to be filled (with an id first if it is shared).
    fn place(
        &mut self,
        el: NodeId,
        r: NodeRef,
        depth: usize,
        stack: &mut Vec<(NodeId, NodeRef, usize)>,
        independent: &mut Vec<(String, NodeRef)>,
    ) {
        let v = self.env.version();
        // In 1.1 a node deeper than MAX_INLINE_DEPTH is written as an independent element
        // too, so that a long chain (a linked list) stays within readers' depth limits.
        let deep = v == Version::V11 && depth >= MAX_INLINE_DEPTH;
        let shared = self.reached[r.index()] > 1 || deep;
        if let Some(id) = self.ids.get(&r) {
            let doc = self.env.document_mut();
            match v {
                Version::V11 => doc.set_attribute(el, "", "href", &format!("#{id}")),
                Version::V12 => doc.set_attribute(el, v.encoding_ns(), "enc:ref", id),
            }
            return;
        }
        if !shared {
            stack.push((el, r, depth));
            return;
        }
        let id = format!("id{}", self.ids.len() + 1);
        self.ids.insert(r, id.clone());
        let doc = self.env.document_mut();
        match v {
            Version::V11 => {
                doc.set_attribute(el, "", "href", &format!("#{id}"));
                independent.push((id, r));
            }
            Version::V12 => {
                doc.set_attribute(el, v.encoding_ns(), "enc:id", &id);
                stack.push((el, r, depth));
            }
        }
    }

    fn fill(
        &mut self,
        el: NodeId,
        r: NodeRef,
        depth: usize,
        stack: &mut Vec<(NodeId, NodeRef, usize)>,
        independent: &mut Vec<(String, NodeRef)>,
    ) {
        let v = self.env.version();
        let enc = v.encoding_ns();
        let value = self.graph.value(r);
        let set_type = |doc: &mut TypedDocument, ty: &Option<QName>| {
            if let Some(ty) = ty {
                let text = type_text(doc, el, ty);
                doc.set_attribute(el, XSI, "xsi:type", &text);
            }
        };
        match value {
            Value::Nil => self
                .env
                .document_mut()
                .set_attribute(el, XSI, "xsi:nil", "true"),
            Value::Simple { ty, text } => {
                let doc = self.env.document_mut();
                set_type(doc, ty);
                doc.append_text(el, text);
            }
            Value::Struct { ty, fields } => {
                set_type(self.env.document_mut(), ty);
                let mut children = Vec::with_capacity(fields.len());
                for (name, child) in fields {
                    children.push((self.accessor(el, name), *child));
                }
                // Filled in order: pushed in reverse onto the stack.
                for (c, child) in children.into_iter().rev() {
                    self.place(c, child, depth + 1, stack, independent);
                }
            }
            Value::Array {
                ty,
                item_type,
                dims,
                items,
            } => {
                let doc = self.env.document_mut();
                set_type(doc, ty);
                let dense = items.iter().enumerate().all(|(i, (at, _))| i == *at);
                match v {
                    Version::V11 => {
                        let item = item_type
                            .as_ref()
                            .map_or_else(|| "xsd:anyType".to_string(), |t| type_text(doc, el, t));
                        let sizes: Vec<String> = dims
                            .iter()
                            .map(|d| d.map_or(String::new(), |d| d.to_string()))
                            .collect();
                        doc.set_attribute(
                            el,
                            enc,
                            "enc:arrayType",
                            &format!("{item}[{}]", sizes.join(",")),
                        );
                    }
                    Version::V12 => {
                        if let Some(t) = item_type {
                            let text = type_text(doc, el, t);
                            doc.set_attribute(el, enc, "enc:itemType", &text);
                        }
                        let sizes: Vec<String> = dims
                            .iter()
                            .map(|d| d.map_or("*".to_string(), |d| d.to_string()))
                            .collect();
                        doc.set_attribute(el, enc, "enc:arraySize", &sizes.join(" "));
                    }
                }
                let mut children = Vec::with_capacity(items.len());
                let mut next = 0;
                for (at, child) in items {
                    if v == Version::V12 {
                        // 1.2 has no positions: the items absent are sent as nil.
                        while next < *at {
                            let gap = self.accessor(el, &QName::new("", "item"));
                            self.env
                                .document_mut()
                                .set_attribute(gap, XSI, "xsi:nil", "true");
                            next += 1;
                        }
                        next = at + 1;
                    }
                    let c = self.accessor(el, &QName::new("", "item"));
                    if !dense && v == Version::V11 {
                        let p = position_text(*at, dims);
                        self.env
                            .document_mut()
                            .set_attribute(c, enc, "enc:position", &p);
                    }
                    children.push((c, *child));
                }
                for (c, child) in children.into_iter().rev() {
                    self.place(c, child, depth + 1, stack, independent);
                }
            }
        }
    }
}

/// An element in no namespace under a default namespace (a caller's parent may have one):
/// `xmlns=""` on it, so that it and unprefixed QNames in its attributes stay in none.
fn undeclare_default(doc: &mut TypedDocument, el: NodeId) {
    if doc.lookup_namespace(el, "").is_some() {
        doc.declare_namespace(el, "", "");
    }
}

/// `ty` as `prefix:local` in scope at `el`, declaring a prefix on `el` if none is bound
/// (unprefixed for a type in no namespace: no prefix can be bound to none).
fn type_text(doc: &mut TypedDocument, el: NodeId, ty: &QName) -> String {
    let (local, ranks) = match ty.local.find('[') {
        Some(i) => ty.local.split_at(i),
        None => (ty.local.as_str(), ""),
    };
    if ty.ns.is_empty() {
        undeclare_default(doc, el);
        return format!("{local}{ranks}");
    }
    for p in ["xsd", "enc", "m", "t"] {
        if doc.lookup_namespace(el, p) == Some(ty.ns.as_str()) {
            return format!("{p}:{local}{ranks}");
        }
    }
    if let Some((p, _)) = doc.namespaces(el).find(|(_, u)| *u == ty.ns) {
        return format!("{p}:{local}{ranks}");
    }
    // A prefix bound nowhere in scope: declaring one that is bound would shadow it for the
    // QNames already written on this element (an array's type, then its items' type).
    let prefix = (0..)
        .map(|i| match i {
            0 => "t".to_string(),
            i => format!("t{i}"),
        })
        .find(|p| doc.lookup_namespace(el, p).is_none())
        .expect("a free prefix");
    doc.declare_namespace(el, &prefix, &ty.ns);
    format!("{prefix}:{local}{ranks}")
}

/// A row-major index as a 1.1 position, `[i,j]`.
fn position_text(mut at: usize, dims: &[Option<usize>]) -> String {
    let mut idx = vec![0usize; dims.len()];
    for (i, d) in dims.iter().enumerate().rev() {
        match (i, d) {
            (0, _) | (_, None) => {
                idx[i] = at;
                break;
            }
            (_, Some(d)) => {
                idx[i] = at % d;
                at /= d;
            }
        }
    }
    let parts: Vec<String> = idx.iter().map(usize::to_string).collect();
    format!("[{}]", parts.join(","))
}
