//! xwire's own processor for the XSD suite: `xwire_schema`'s loader and validator.

use std::path::{Path, PathBuf};

use xwire_schema::load::LoadOptions;
use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidationOptions, Validator};

use super::XsdProcessor;

/// Loads schemas with [`Schema::load_with`] (no catalog: the suite's documents refer to each
/// other by relative paths) and validates with a [`Validator`] per instance.
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
    type Schema = Schema;

    fn name(&self) -> String {
        "xwire".to_string()
    }

    fn load(&self, docs: &[PathBuf]) -> Result<Schema, String> {
        Schema::load_with(docs, &self.options).map_err(|e| e.to_string())
    }

    fn validate(&self, schema: &Schema, instance: &Path) -> Result<(), String> {
        let bytes = std::fs::read(instance).map_err(|e| format!("{}: {e}", instance.display()))?;
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
