//! `xwire schema`: load a schema and summarise its components.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use xwire_schema::load::{Catalog, LoadOptions};
use xwire_schema::model::{Schema, SchemaErrors, TypeId};

use crate::Failure;

#[derive(Args)]
pub(crate) struct SchemaArgs {
    /// Schema documents (their includes and imports are loaded with them).
    #[arg(required = true)]
    pub(crate) schemas: Vec<PathBuf>,
    /// An OASIS XML catalog mapping namespaces and schema locations to local files.
    #[arg(long)]
    pub(crate) catalog: Option<PathBuf>,
    /// Print only the errors, or nothing when the schema is valid.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// The load options of `--catalog`.
pub(crate) fn load_options(catalog: Option<&Path>) -> Result<LoadOptions, Failure> {
    let mut options = LoadOptions::default();
    if let Some(path) = catalog {
        options.catalog =
            Catalog::from_file(path).map_err(|e| Failure::usage(format!("xwire: catalog: {e}")))?;
    }
    Ok(options)
}

/// Loads the schema documents, printing its errors (exit code 1) when it is not valid.
pub(crate) fn load(schemas: &[PathBuf], catalog: Option<&Path>) -> Result<Schema, Failure> {
    let options = load_options(catalog)?;
    Schema::load_with(schemas, &options).map_err(|e: SchemaErrors| {
        let n = e.0.len();
        Failure {
            code: 1,
            message: format!(
                "{e}\nxwire: the schema does not load ({n} error{})",
                if n == 1 { "" } else { "s" }
            ),
        }
    })
}

pub(crate) fn run(args: &SchemaArgs) -> Result<(), Failure> {
    let schema = load(&args.schemas, args.catalog.as_deref())?;
    if !args.quiet {
        let _ = std::io::stdout()
            .lock()
            .write_all(summary(&schema).as_bytes());
    }
    Ok(())
}

/// What `xwire schema` prints: the documents, the target namespaces, then every top-level
/// component with its one-line description and where it was declared.
pub(crate) fn summary(schema: &Schema) -> String {
    let mut out = String::new();
    for (_, path) in schema.files() {
        let _ = writeln!(out, "document  {}", path.display());
    }
    for &ns in schema.target_namespaces() {
        let uri = schema.names().namespace_uri(ns);
        let _ = writeln!(
            out,
            "target namespace  {}",
            if uri.is_empty() { "(none)" } else { uri }
        );
    }
    let user_simple = schema
        .simple_types()
        .filter(|(_, t)| t.builtin.is_none() && t.location.is_some())
        .count();
    let user_complex = schema
        .complex_types()
        .filter(|(_, t)| t.location.is_some())
        .count();
    let locals = schema.elements().filter(|(_, e)| !e.global).count();
    let _ = writeln!(
        out,
        "\n{} global elements ({} local), {} complex types, {} simple types",
        schema.global_elements().count(),
        locals,
        user_complex,
        user_simple
    );

    let mut elements: Vec<_> = schema
        .global_elements()
        .map(|(name, id)| (schema.name_display(name), id))
        .collect();
    elements.sort();
    if !elements.is_empty() {
        out.push_str("\nelements\n");
    }
    for (name, id) in elements {
        let e = schema.element(id);
        let mut line = format!("  {name}: {}", schema.type_display(e.type_def));
        if e.is_abstract {
            line.push_str(", abstract");
        }
        if e.nillable {
            line.push_str(", nillable");
        }
        if let Some(head) = e.substitution_group {
            let _ = write!(
                line,
                ", substitutes for {}",
                schema.name_display(schema.element(head).name)
            );
        }
        if let Some(v) = &e.value_constraint {
            let _ = write!(
                line,
                ", {} '{}'",
                if v.fixed { "fixed" } else { "default" },
                v.lexical
            );
        }
        push_located(&mut out, schema, line, e.location);
    }

    let mut types: Vec<_> = schema
        .global_types()
        .filter(|(_, t)| match *t {
            TypeId::Simple(s) => schema.simple_type(s).builtin.is_none(),
            TypeId::Complex(c) => schema.complex_type(c).location.is_some(),
        })
        .map(|(name, t)| (schema.name_display(name), t))
        .collect();
    types.sort_by(|a, b| a.0.cmp(&b.0));
    if !types.is_empty() {
        out.push_str("\ntypes\n");
    }
    for (name, t) in types {
        let location = match t {
            TypeId::Simple(s) => schema.simple_type(s).location,
            TypeId::Complex(c) => schema.complex_type(c).location,
        };
        let line = format!("  {name}: {}", schema.type_summary(t));
        push_located(&mut out, schema, line, location);
    }
    out
}

fn push_located(
    out: &mut String,
    schema: &Schema,
    line: String,
    location: Option<xwire_schema::model::Location>,
) {
    out.push_str(&line);
    if let Some(loc) = location {
        let file = schema.file(loc.file);
        let name = file.file_name().map_or(file.as_os_str(), |n| n);
        let _ = write!(out, "  ({}:{})", Path::new(name).display(), loc.line);
    }
    out.push('\n');
}

#[derive(Args)]
pub(crate) struct ValidateArgs {
    /// The schema (repeat for several documents; includes and imports load with them).
    #[arg(long = "schema", short = 's', required_unless_present = "use_hints")]
    pub(crate) schemas: Vec<PathBuf>,
    /// Also load the local schema documents each document names in `xsi:schemaLocation` /
    /// `xsi:noNamespaceSchemaLocation` (off by default: a document should not choose the
    /// schema it is checked against; URLs are never fetched).
    #[arg(long)]
    pub(crate) use_hints: bool,
    /// An OASIS XML catalog mapping namespaces and schema locations to local files.
    #[arg(long)]
    pub(crate) catalog: Option<PathBuf>,
    /// Documents to validate (`-` for standard input).
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Stop reporting a document's errors after this many.
    #[arg(long, default_value_t = 100)]
    pub(crate) max_errors: usize,
    /// Print nothing for valid documents.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// `xwire validate`: exit 0 when every document is valid, 1 when one is not (or is not
/// well-formed), 2 when the schema cannot be loaded or a file cannot be read.
pub(crate) fn validate(args: &ValidateArgs) -> Result<(), Failure> {
    use xwire_schema::validate::{
        hinted_schema_paths, schema_location_hints, ValidationOptions, Validator,
    };
    let load_schema = |paths: &[PathBuf]| {
        load(paths, args.catalog.as_deref()).map_err(|mut f| {
            // A schema that does not load is a usage error for `validate`, not an invalid
            // document.
            f.code = 2;
            f
        })
    };
    let fixed = if args.use_hints {
        None
    } else {
        Some(load_schema(&args.schemas)?)
    };
    let options = ValidationOptions {
        max_errors: args.max_errors.max(1),
        ..ValidationOptions::default()
    };
    // With --use-hints, the schema of the last set of documents is kept for the next file.
    let mut hinted: Option<(Vec<PathBuf>, Schema)> = None;
    let mut invalid = 0usize;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let input = crate::read_input(path)?;
        let name = path.display();
        let schema = match &fixed {
            Some(schema) => schema,
            None => {
                let hints = schema_location_hints(&input[..]).unwrap_or_default();
                let mut paths = args.schemas.clone();
                for p in hinted_schema_paths(path, &hints) {
                    if !paths.contains(&p) {
                        paths.push(p);
                    }
                }
                if paths.is_empty() {
                    return Err(Failure::usage(format!(
                        "xwire: {name}: no --schema and no local xsi:schemaLocation hint"
                    )));
                }
                if !matches!(&hinted, Some((p, _)) if *p == paths) {
                    let schema = load_schema(&paths)?;
                    hinted = Some((paths, schema));
                }
                &hinted.as_ref().expect("loaded above").1
            }
        };
        let mut validator = Validator::new(schema, options.clone());
        match validator.validate(&input[..]) {
            Ok(()) => {
                if !args.quiet {
                    let _ = writeln!(out, "{name}: valid");
                }
            }
            Err(errors) => {
                invalid += 1;
                for e in &errors {
                    eprintln!("{name}:{e}");
                    if e.expected.len() > 1 && !e.message.contains("expected") {
                        eprintln!("    expected one of: {}", e.expected.join(", "));
                    }
                }
                let n = errors.len();
                eprintln!(
                    "{name}: invalid ({n} error{}{})",
                    if n == 1 { "" } else { "s" },
                    if n >= args.max_errors.max(1) {
                        ", stopped at --max-errors"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    if invalid > 0 {
        return Err(Failure {
            code: 1,
            message: String::new(),
        });
    }
    Ok(())
}
