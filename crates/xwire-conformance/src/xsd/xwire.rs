//! xwire's own processor for the XSD suite: `xwire_schema`'s loader and validator.

use std::path::{Path, PathBuf};

use xwire_schema::load::LoadOptions;
use xwire_schema::model::Schema;
use xwire_schema::validate::{
    hinted_schema_paths, schema_location_hints, ValidationOptions, Validator,
};

use super::XsdProcessor;

/// Loads schemas with [`Schema::load_with`] (no catalog: the suite's documents refer to each
/// other by relative paths) and validates with a [`Validator`] per instance.
///
/// A test group without a schema test leaves the schema to the instance: the suite expects
/// its `xsi:schemaLocation` hints to be followed there, so for those groups (and only those)
/// the instance's hinted local files are loaded first.
#[derive(Debug, Default)]
pub struct XwireProcessor {
    options: LoadOptions,
}

impl XwireProcessor {
    /// A processor with default load options.
    pub fn new() -> XwireProcessor {
        XwireProcessor::default()
    }
}

impl XsdProcessor for XwireProcessor {
    /// `None`: the group has no schema documents; the instance's hints decide.
    type Schema = Option<Schema>;

    fn name(&self) -> String {
        "xwire".to_string()
    }

    fn load(&self, docs: &[PathBuf]) -> Result<Option<Schema>, String> {
        if docs.is_empty() {
            return Ok(None);
        }
        Schema::load_with(docs, &self.options)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    fn validate(&self, schema: &Option<Schema>, instance: &Path) -> Result<(), String> {
        let bytes = std::fs::read(instance).map_err(|e| format!("{}: {e}", instance.display()))?;
        let hinted;
        let schema = match schema {
            Some(s) => s,
            None => {
                // Not well-formed: the validator below reports it.
                let hints = schema_location_hints(&bytes).unwrap_or_default();
                let paths = hinted_schema_paths(instance, &hints);
                hinted = if paths.is_empty() {
                    Schema::builtins()
                } else {
                    Schema::load_with(&paths, &self.options)
                        .map_err(|e| format!("the hinted schema does not load: {e}"))?
                };
                &hinted
            }
        };
        let mut validator = Validator::new(schema, ValidationOptions::default());
        validator.validate(&bytes).map_err(|errors| {
            errors
                .iter()
                .take(5)
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    }
}
