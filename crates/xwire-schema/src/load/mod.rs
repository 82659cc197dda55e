//! The schema loader: XML Schema 1.0 documents into the component model.
//!
//! - `catalog`: where documents are found ([`Catalog`]: namespaces and locations to files,
//!   OASIS XML Catalogs);
//! - `document`: one schema document read into a small tree with line and column numbers;
//! - `structure`: the schema for schemas (allowed children and attributes, lexical values);
//! - `documents`: include, import and redefine, each document once, chameleon includes;
//! - `build`: the components, with their effective properties;
//! - `facets`: simple type derivation and the constraining facets;
//! - `wildcard`: namespace constraints, their union, intersection and subset;
//! - `checks`: the constraints checked once every component is built;
//! - `idc_xpath`: the restricted XPath of identity constraint selectors and fields.
//!
//! The loader goes on after an error to report more; nothing it reads can make it panic,
//! loop or allocate without bound (nesting is limited, occurrence bounds saturate, every
//! recursion over components is guarded against cycles, shared groups and unions are not
//! expanded exponentially).
//!
//! Not checked here: Unique Particle Attribution and Element Declarations Consistent (the
//! content-model compiler in `validate/` checks them). Known simplifications: the rcase rules
//! are those of XSD 1.0 as written (no special case for blocked substitution groups); a
//! reference to a missing component is always an error (no deferral to validation time);
//! the `xml:` attributes are declared on first use when no document of the XML namespace is
//! loaded (its usual location is on the network).

mod build;
mod catalog;
mod checks;
mod document;
mod documents;
mod facets;
mod idc_xpath;
mod particles;
mod structure;
mod wildcard;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use catalog::Catalog;

use crate::model::{
    AttributeGroupId, AttributeId, ComplexTypeId, DerivationSet, ElementId, FileId, Location,
    ModelGroupId, NameId, NamespaceId, Schema, SchemaError, SchemaErrors, SimpleTypeId, TypeId,
};
use document::XNode;

/// How to load a schema.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Where `include`, `import` and `redefine` find their documents (consulted first).
    pub catalog: Catalog,
    /// At most this many schema documents are read (a guard against runaway includes).
    pub max_documents: usize,
    /// Stop after this many errors.
    pub max_errors: usize,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            catalog: Catalog::new(),
            max_documents: 10_000,
            max_errors: 1_000,
        }
    }
}

impl Schema {
    /// Loads the schema document at `path` with the documents it includes, imports and
    /// redefines (relative to its folder; never from the network).
    ///
    /// ```
    /// use xwire_schema::model::Schema;
    ///
    /// let dir = std::env::temp_dir().join("xwire-schema-doc-load");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("greeting.xsd");
    /// std::fs::write(&path, r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    ///   <xs:element name="greeting" type="xs:string"/>
    /// </xs:schema>"#).unwrap();
    /// let schema = Schema::load(&path).unwrap();
    /// assert_eq!(schema.global_elements().count(), 1);
    ///
    /// std::fs::write(&path, r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    ///   <xs:element name="greeting" type="xs:nothing"/>
    /// </xs:schema>"#).unwrap();
    /// let errors = Schema::load(&path).unwrap_err();
    /// assert_eq!(errors.0[0].constraint, "src-resolve");
    /// assert_eq!(errors.0[0].position, Some((2, 3)));
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Schema, SchemaErrors> {
        Schema::load_with(&[path.as_ref().to_path_buf()], &LoadOptions::default())
    }

    /// Loads several schema documents (and what they include, import and redefine) into one
    /// schema.
    pub fn load_with(paths: &[PathBuf], options: &LoadOptions) -> Result<Schema, SchemaErrors> {
        let mut loader = Loader::new(options);
        for p in paths {
            loader.load_root_file(p);
        }
        loader.finish()
    }

    /// Loads a schema from text; its relative includes resolve against the current folder.
    pub fn parse_str(text: &str, options: &LoadOptions) -> Result<Schema, SchemaErrors> {
        let mut loader = Loader::new(options);
        loader.load_root_bytes(
            text.as_bytes(),
            PathBuf::from("<string>"),
            PathBuf::from("."),
        );
        loader.finish()
    }
}

/// A schema document taking part, with its defaults.
pub(crate) struct Doc {
    pub file: FileId,
    /// The effective target namespace (the includer's for a chameleon include).
    pub tns: NamespaceId,
    /// Included without a target namespace into one that has one.
    pub chameleon: bool,
    pub element_qualified: bool,
    pub attribute_qualified: bool,
    pub block_default: DerivationSet,
    pub final_default: DerivationSet,
    /// Namespaces this document imports (its own and the XSD namespace are always visible).
    pub imports: HashSet<NamespaceId>,
    /// The folder relative locations resolve against.
    pub dir: PathBuf,
}

/// The kinds of top-level definitions (symbol spaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Type,
    Element,
    Attribute,
    Group,
    AttributeGroup,
    Notation,
}

/// A top-level definition found in a document.
#[derive(Clone)]
pub(crate) struct Def {
    pub kind: Kind,
    pub name: NameId,
    pub doc: usize,
    pub node: Rc<XNode>,
    /// Defined in an `xs:redefine`: the index of the definition it redefines.
    pub redefines: Option<usize>,
}

/// How far a component is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    InProgress,
    Done,
}

/// The source of a component still to build.
#[derive(Clone)]
pub(crate) struct Src {
    pub doc: usize,
    pub node: Rc<XNode>,
    /// For a redefinition: the id of the original component of the same name.
    pub original: Option<u32>,
}

/// The loader's working state.
pub(crate) struct Loader<'o> {
    pub s: Schema,
    pub opts: &'o LoadOptions,
    pub errors: Vec<SchemaError>,
    pub docs: Vec<Doc>,
    /// (canonical path, effective target namespace) -> document.
    pub loaded: HashMap<(PathBuf, NamespaceId), usize>,
    /// Documents being loaded (their includes may not come back to them).
    pub defs: Vec<Def>,
    /// Per kind and name, the definition that holds the name.
    pub def_index: HashMap<(Kind, NameId), usize>,
    /// Component sources and build states.
    pub simple_src: HashMap<SimpleTypeId, Src>,
    pub complex_src: HashMap<ComplexTypeId, Src>,
    pub element_src: HashMap<ElementId, Src>,
    pub attribute_src: HashMap<AttributeId, Src>,
    pub group_src: HashMap<ModelGroupId, Src>,
    pub agroup_src: HashMap<AttributeGroupId, Src>,
    pub type_state: HashMap<TypeId, State>,
    pub element_state: HashMap<ElementId, State>,
    pub agroup_state: HashMap<AttributeGroupId, State>,
    pub group_state: HashMap<ModelGroupId, State>,
    /// Which document each element and attribute declaration and type came from (for
    /// QName resolution in later checks).
    pub element_doc: HashMap<ElementId, (usize, Rc<XNode>)>,
    pub attribute_doc: HashMap<AttributeId, (usize, Rc<XNode>)>,
    /// Attribute uses to check at the end: declaration, document, `xs:attribute` element.
    pub attr_use_nodes: Vec<(AttributeId, usize, Rc<XNode>)>,
    /// While building a redefining group: its name, the original and the self references.
    pub redef_group: Option<(NameId, ModelGroupId, u32)>,
    /// The same for attribute groups.
    pub redef_agroup: Option<(NameId, AttributeGroupId, u32)>,
    /// Group redefinitions without a self reference: (new, original, doc, node), to check
    /// as restrictions.
    pub pending_group_restrictions: Vec<(ModelGroupId, ModelGroupId, usize, Rc<XNode>)>,
    /// The same for attribute group redefinitions (src-redefine.7.2.2).
    pub pending_agroup_restrictions: Vec<(AttributeGroupId, AttributeGroupId, usize, Rc<XNode>)>,
    /// Keyrefs whose `refer` is resolved at the end.
    pub keyrefs: Vec<(crate::model::IdentityConstraintId, usize, Rc<XNode>)>,
    /// Complex type restrictions to check at the end: (type, doc, node).
    pub restrictions: Vec<(ComplexTypeId, usize, Rc<XNode>)>,
    /// How many documents were read (bounded by the options).
    pub documents_read: usize,
    /// Nesting guard for recursive completion.
    pub depth: usize,
}

impl<'o> Loader<'o> {
    fn new(opts: &'o LoadOptions) -> Self {
        let mut s = Schema::builtins();
        facets::builtin_facets(&mut s);
        Loader {
            s,
            opts,
            errors: Vec::new(),
            docs: Vec::new(),
            loaded: HashMap::new(),
            defs: Vec::new(),
            def_index: HashMap::new(),
            simple_src: HashMap::new(),
            complex_src: HashMap::new(),
            element_src: HashMap::new(),
            attribute_src: HashMap::new(),
            group_src: HashMap::new(),
            agroup_src: HashMap::new(),
            type_state: HashMap::new(),
            element_state: HashMap::new(),
            agroup_state: HashMap::new(),
            group_state: HashMap::new(),
            element_doc: HashMap::new(),
            attribute_doc: HashMap::new(),
            attr_use_nodes: Vec::new(),
            redef_group: None,
            redef_agroup: None,
            pending_group_restrictions: Vec::new(),
            pending_agroup_restrictions: Vec::new(),
            keyrefs: Vec::new(),
            restrictions: Vec::new(),
            documents_read: 0,
            depth: 0,
        }
    }

    /// Records an error at a node of a document.
    pub fn error(&mut self, constraint: &'static str, doc: usize, node: &XNode, message: String) {
        if self.errors.len() >= self.opts.max_errors {
            return;
        }
        let file = self
            .docs
            .get(doc)
            .map(|d| self.s.files[d.file.index()].clone());
        self.errors.push(SchemaError {
            constraint,
            message,
            file,
            position: (node.line > 0).then_some((node.line, node.column)),
            source: None,
        });
    }

    /// Records an error at a component's location.
    pub fn error_at(&mut self, constraint: &'static str, loc: Option<Location>, message: String) {
        if self.errors.len() >= self.opts.max_errors {
            return;
        }
        self.errors.push(SchemaError {
            constraint,
            message,
            file: loc.map(|l| self.s.files[l.file.index()].clone()),
            position: loc.map(|l| (l.line, l.column)),
            source: None,
        });
    }

    /// The location of a node.
    pub fn loc(&self, doc: usize, node: &XNode) -> Option<Location> {
        Some(Location {
            file: self.docs[doc].file,
            line: node.line,
            column: node.column,
        })
    }

    fn finish(mut self) -> Result<Schema, SchemaErrors> {
        self.allocate();
        self.complete_all();
        self.check_all();
        // The content models are compiled once here, so a loaded schema is ready to validate;
        // the compiler checks Unique Particle Attribution and Element Declarations
        // Consistent. It runs only on a schema without other errors: its input must be sound.
        if self.errors.is_empty() {
            if let Err(errors) = crate::validate::compile_content_models(&mut self.s) {
                self.errors.extend(errors);
            }
        }
        if self.errors.is_empty() {
            Ok(self.s)
        } else {
            Err(SchemaErrors(self.errors))
        }
    }
}
