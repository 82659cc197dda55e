//! `xwire compile`: the Rust types of a schema and their parsers, serializers and
//! validate-only checkers (crate xwire-codegen), to a file or stdout.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::Failure;

#[derive(Args)]
pub(crate) struct CompileArgs {
    /// Schema documents (their includes, imports and redefines are read with them).
    #[arg(required = true)]
    schemas: Vec<PathBuf>,
    /// An OASIS XML catalog mapping namespaces and schema locations to local files.
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Where to write the Rust source (standard output when absent).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// A derive to add to every generated item (repeatable), e.g. `--derive serde::Serialize`.
    #[arg(long)]
    derive: Vec<String>,
    /// Give an item another name: `FROM=TO` (repeatable).
    #[arg(long, value_name = "FROM=TO")]
    rename: Vec<String>,
    /// The APIs to generate beside the types, comma-separated: `objects` (parse into the
    /// types, write them back), `validate` (check only, nothing built), `events` (check and
    /// give the content to a handler), `any` (the objects' baseline: the root as
    /// `xs:anyType`). Objects and validate by default.
    #[arg(long, value_delimiter = ',', value_name = "API,...", value_parser = parse_api)]
    api: Vec<xwire_codegen::Api>,
    /// The types alone, without their parsers (for schemas whose constructs the parsers do
    /// not read yet).
    #[arg(long, conflicts_with = "api")]
    types_only: bool,
}

fn parse_api(name: &str) -> Result<xwire_codegen::Api, String> {
    xwire_codegen::Api::from_name(name)
        .ok_or_else(|| format!("unknown API '{name}' (expected objects, validate, events or any)"))
}

pub(crate) fn run(args: &CompileArgs) -> Result<(), Failure> {
    let mut config = xwire_codegen::Config::new().parsers(!args.types_only);
    if !args.api.is_empty() {
        config = config.apis(&args.api);
    }
    for s in &args.schemas {
        config = config.schema(s);
    }
    if let Some(c) = &args.catalog {
        config = config.catalog(c);
    }
    for d in &args.derive {
        config = config.derive(d);
    }
    for r in &args.rename {
        let Some((from, to)) = r.split_once('=') else {
            return Err(Failure::usage(format!(
                "xwire compile: --rename {r}: expected FROM=TO"
            )));
        };
        config = config.rename_type(from, to);
    }
    let generated = config.generate().map_err(|e| match e {
        // A schema that does not load is the input's fault (1), like `xwire schema`.
        xwire_codegen::Error::Schema(errors) => Failure {
            code: 1,
            message: format!("xwire compile: the schema did not load:\n{errors}"),
        },
        e => Failure::usage(format!("xwire compile: {e}")),
    })?;
    match &args.output {
        Some(path) => std::fs::write(path, &generated.code).map_err(|e| Failure {
            code: 2,
            message: format!("xwire compile: {}: {e}", path.display()),
        }),
        None => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) ends the output quietly.
            match out.write_all(generated.code.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure {
                    code: 2,
                    message: format!("xwire compile: writing: {e}"),
                }),
                _ => Ok(()),
            }
        }
    }
}
