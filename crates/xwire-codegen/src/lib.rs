//! Rust code from XML Schema: the types a schema describes, as plain Rust structs and enums.
//!
//! Give [`Config`] the schema documents (include, import and redefine are followed through the
//! folder and an optional catalog, never the network) and it writes one Rust file: a struct per
//! complex type, an enum per choice and substitution group, enumerations as enums, integers
//! sized by their ranges, `Option` and `Vec` for occurrence, `Box` where a type contains
//! itself, and a `Document` enum of the global elements (and `Document::Undeclared`, a root no
//! global element names that its `xsi:type` gives a type, as the validator assesses such a
//! root). The mapping is planned once
//! ([`plan`]) from `xwire-schema`'s component model; the same schema always gives the same
//! file, byte for byte.
//!
//! From a build script, like `prost-build`:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     xwire_codegen::Config::new()
//!         .schema("schemas/po.xsd")
//!         .compile_to_out_dir("po.rs")?;
//!     Ok(())
//! }
//! // src/lib.rs: include!(concat!(env!("OUT_DIR"), "/po.rs"));
//! ```
//!
//! Or into a string, to look at or check in:
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("xwire-codegen-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let xsd = dir.join("qty.xsd");
//! std::fs::write(&xsd, r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
//!   <xs:element name="order">
//!     <xs:complexType>
//!       <xs:sequence>
//!         <xs:element name="qty" maxOccurs="unbounded">
//!           <xs:simpleType>
//!             <xs:restriction base="xs:positiveInteger"><xs:maxExclusive value="100"/></xs:restriction>
//!           </xs:simpleType>
//!         </xs:element>
//!       </xs:sequence>
//!     </xs:complexType>
//!   </xs:element>
//! </xs:schema>"#)?;
//! let code = xwire_codegen::Config::new().schema(&xsd).generate()?.code;
//! assert!(code.contains("pub struct Order {"));
//! assert!(code.contains("pub qty: Vec<u8>,"));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With the types come their parsers: `Document::from_slice` reads a document in one pass
//! (XML Screamer's scanner, the reader's cursor where that falls back), checking the schema
//! as it goes (content models, attributes, values and their facets, wildcards, `xsi:type`,
//! `xsi:nil`, ID/IDREF) and filling the types; generated code depends on the `xwire` crate
//! only (`xwire::bind`). A root whose content is one repeated element also gets
//! `Type::records(bytes)`, its records one at a time in bounded memory. The parsers do not
//! read every construct yet (default and fixed values of QNames, patterns and enumerations
//! on unions):
//! for such a schema, [`Error::Unsupported`] names the construct and
//! [`Config::parsers`]`(false)` generates the types alone. Identity constraints (`unique`,
//! `key`, `keyref`) are checked by the validator's own engine (`xwire::bind::identity`).
//!
//! Beside them, the validate-only API ([`Api::Validate`]): `Document::validate(bytes)` and
//! `Type::check(source)` check everything `from_slice` checks and give the same first error,
//! but build no objects (values are converted, as their facets need, and dropped; only
//! wildcard and `xs:anyType` content is still read into a tree). [`Config::apis`] chooses
//! which APIs are generated. The event API ([`Api::Events`], on demand):
//! `Document::events(bytes, handler)` checks the same and gives the content to an
//! `xwire::bind::events::Handler`, the names of declared elements and attributes as
//! constants of the generated code; `Document::events_any_type` gives the same events with
//! the root as `xs:anyType` (its content assessed laxly), the baseline that shows what the
//! schema buys.
//!
//! And their serializers: `Document::write` writes a value back through any
//! `xwire::bind::write::XmlSink` (XML text, or binary XML where numbers stay typed and
//! numeric lists go out as packed arrays), and `Document::to_xml` gives the text. What is
//! written is valid and reads back to an equal value, with the exceptions the runtime
//! documents (`xwire::bind::write`): a pattern on the lexical form of a non-string value,
//! `xsi:type` on elements of simple types, and a nil element's attributes are not kept.

mod emit;
mod identity;
mod parse;
pub mod plan;
mod serialize;

use std::path::{Path, PathBuf};

use xwire_schema::load::{Catalog, LoadOptions};
use xwire_schema::model::{Schema, SchemaErrors};

/// What to generate code from, and how.
#[derive(Clone, Debug)]
pub struct Config {
    schemas: Vec<PathBuf>,
    catalog: Option<PathBuf>,
    derives: Vec<String>,
    renames: Vec<(String, String)>,
    apis: Vec<Api>,
}

/// An API generated beside the types (XML Screamer's four, as far as they are built).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// Typed objects: `Document::from_slice` and `Type::read` (the document as the generated
    /// types, checked as it is read), `Document::write` and `Document::to_xml` (the types
    /// back to XML), and `Type::records` for record streams.
    Objects,
    /// Validate only: `Document::validate` and `Type::check`, which check what
    /// `from_slice` checks, give the same first error, and build nothing but the content of
    /// wildcards and `xs:anyType` elements (read as the object readers read them, which it
    /// brings along).
    Validate,
    /// Events: `Document::events(bytes, handler)` checks what `validate` checks and gives
    /// the content to an `xwire::bind::events::Handler` as it goes, the names of declared
    /// elements and attributes as constants of the generated code; and
    /// `Document::events_any_type`, the same events with the root as `xs:anyType` (its
    /// content lax), the baseline that shows what the schema buys. Wildcard and `xs:anyType`
    /// content is read as the object readers read it and given from what was read, through
    /// the serializers (which it brings along).
    Events,
    /// The typed objects' baseline: `Document::from_slice_any_type(bytes)`, the document
    /// with its root taken as `xs:anyType`, its content assessed laxly and kept as an
    /// `xwire::bind::Any` tree (elements with global declarations, and `xsi:type`s naming
    /// complex types, read as the schema's types). What the schema buys the objects, as
    /// `events_any_type` shows it for the events.
    AnyType,
}

impl Api {
    /// The API named `name` (`objects`, `validate`, `events`, `any`), as the command line
    /// spells it.
    pub fn from_name(name: &str) -> Option<Api> {
        match name {
            "objects" => Some(Api::Objects),
            "validate" => Some(Api::Validate),
            "events" => Some(Api::Events),
            "any" => Some(Api::AnyType),
            _ => None,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// Generated code and what it was generated from.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The Rust source.
    pub code: String,
    /// Every schema document read (the ones given and those they include, import and
    /// redefine): a build script reruns when one changes.
    pub files: Vec<PathBuf>,
}

impl Config {
    /// A configuration with no schema yet, deriving `Clone, Debug, PartialEq` on every item.
    pub fn new() -> Config {
        Config {
            schemas: Vec::new(),
            catalog: None,
            derives: ["Clone", "Debug", "PartialEq"].map(String::from).to_vec(),
            renames: Vec::new(),
            apis: vec![Api::Objects, Api::Validate],
        }
    }

    /// Whether to generate the parsers and serializers beside the types (the objects and
    /// validate-only APIs): on by default. Off, for schemas whose constructs the parsers do
    /// not read yet (see [`Error::Unsupported`]), the types alone are generated.
    pub fn parsers(self, on: bool) -> Config {
        match on {
            true => self.apis(&[Api::Objects, Api::Validate]),
            false => self.apis(&[]),
        }
    }

    /// The APIs to generate beside the types: objects and validate-only by default (events
    /// on demand), none for the types alone.
    pub fn apis(mut self, apis: &[Api]) -> Config {
        self.apis = apis.to_vec();
        self
    }

    /// Adds a schema document.
    pub fn schema(mut self, path: impl AsRef<Path>) -> Config {
        self.schemas.push(path.as_ref().to_path_buf());
        self
    }

    /// Resolves `include`, `import` and `redefine` through an XML catalog first (OASIS
    /// catalog: `uri`, `system` and namespace entries).
    pub fn catalog(mut self, path: impl AsRef<Path>) -> Config {
        self.catalog = Some(path.as_ref().to_path_buf());
        self
    }

    /// Adds a derive to every generated item (`"serde::Serialize"`, `"Eq"`, ...).
    pub fn derive(mut self, derive: &str) -> Config {
        if !self.derives.iter().any(|d| d == derive) {
            self.derives.push(derive.to_string());
        }
        self
    }

    /// Gives the item that would be named `from` the name `to`.
    pub fn rename_type(mut self, from: &str, to: &str) -> Config {
        self.renames.push((from.to_string(), to.to_string()));
        self
    }

    /// Loads the schema, plans it and writes the code.
    pub fn generate(&self) -> Result<Generated, Error> {
        if self.schemas.is_empty() {
            return Err(Error::NoSchema);
        }
        let mut options = LoadOptions::default();
        if let Some(c) = &self.catalog {
            options.catalog =
                Catalog::from_file(c).map_err(|e| Error::Schema(SchemaErrors(vec![e])))?;
        }
        let schema = Schema::load_with(&self.schemas, &options).map_err(Error::Schema)?;
        let mut plan = plan::plan(&schema).map_err(Error::Plan)?;
        self.apply_renames(&mut plan)?;
        let sources: Vec<String> = self
            .schemas
            .iter()
            .map(|p| {
                p.file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
            })
            .collect();
        let mut code = emit::types(
            &plan,
            &emit::Options {
                sources: &sources,
                derives: &self.derives,
            },
        );
        let objects = self.apis.contains(&Api::Objects);
        let validate = self.apis.contains(&Api::Validate);
        let events = self.apis.contains(&Api::Events);
        let any_type = self.apis.contains(&Api::AnyType);
        if objects || validate || events || any_type {
            // The validate-only and event readers read wildcard content through the object
            // readers; the event readers give it through the serializers; the anyType
            // baseline reads declared content with the object readers.
            let parsers = parse::parsers(&plan, &schema, validate, events)
                .map_err(|u| Error::Unsupported(u.0))?;
            code.push_str(&parsers);
            if any_type {
                code.push_str(parse::ANY_TYPE);
            }
            if objects || events {
                code.push_str(&serialize::serializers(&plan, &schema));
            }
            code.push_str(&identity::tables(&plan, &schema));
        }
        let files = schema.files().map(|(_, p)| p.to_path_buf()).collect();
        Ok(Generated { code, files })
    }

    fn apply_renames(&self, plan: &mut plan::Plan) -> Result<(), Error> {
        for (from, to) in &self.renames {
            if plan.find(to).is_some() {
                return Err(Error::Rename(format!(
                    "cannot rename {from} to {to}: an item is named {to} already"
                )));
            }
            match plan.items.iter_mut().find(|i| &i.name == from) {
                Some(item) => item.name = to.clone(),
                None => {
                    return Err(Error::Rename(format!(
                        "cannot rename {from}: no item has that name"
                    )))
                }
            }
        }
        Ok(())
    }

    /// Writes the code to `$OUT_DIR/file` and tells Cargo to rerun the build script when a
    /// schema document changes. For `build.rs`.
    pub fn compile_to_out_dir(&self, file: &str) -> Result<PathBuf, Error> {
        let dir = std::env::var_os("OUT_DIR").ok_or(Error::NoOutDir)?;
        let generated = self.generate()?;
        for f in &generated.files {
            println!("cargo:rerun-if-changed={}", f.display());
        }
        if let Some(c) = &self.catalog {
            println!("cargo:rerun-if-changed={}", c.display());
        }
        let path = Path::new(&dir).join(file);
        std::fs::write(&path, generated.code).map_err(Error::Io)?;
        Ok(path)
    }
}

/// Why code could not be generated.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// No schema document was given.
    NoSchema,
    /// The schema did not load: its documents' errors, with file, line and column.
    Schema(SchemaErrors),
    /// The schema loaded but cannot be mapped to Rust.
    Plan(plan::PlanError),
    /// A rename names no item, or a name already taken.
    Rename(String),
    /// The parsers cannot read a construct of the schema yet (named in the message); the
    /// types alone can be generated ([`Config::parsers`]).
    Unsupported(String),
    /// `compile_to_out_dir` outside a build script.
    NoOutDir,
    /// The file could not be written.
    Io(std::io::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoSchema => f.write_str("no schema document given"),
            Error::Schema(e) => write!(f, "the schema did not load: {e}"),
            Error::Plan(e) => write!(f, "the schema cannot be mapped to Rust: {e}"),
            Error::Rename(m) => f.write_str(m),
            Error::Unsupported(m) => write!(
                f,
                "the parsers cannot read this schema yet: {m} (the types alone can be generated: Config::parsers(false), xwire compile --types-only)"
            ),
            Error::NoOutDir => f.write_str("OUT_DIR is not set (run from a build script)"),
            Error::Io(e) => write!(f, "writing the generated code: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Schema(e) => Some(e),
            Error::Plan(e) => Some(e),
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

// The README's Rust examples are doctests of this crate, the one that sees `xwire` (a
// dev-dependency), `xwire_schema` and itself, so that an example that stops compiling fails
// `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
