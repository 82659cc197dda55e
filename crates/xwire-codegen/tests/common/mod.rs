//! What the tests of generated parsers share: holding a parser to the schema validator on a
//! valid document and on each way of breaking it.

use xwire_schema::validate::{ValidationOptions, Validator};

/// A change of the valid document: (what it breaks, text to replace, replacement).
pub type Break = (&'static str, &'static str, &'static str);

/// Checks that `parse` (a generated parser's verdict) accepts `valid`, and that on each
/// change in `broken` the validator rejects the document and `parse` agrees.
pub fn agree_with_the_validator(
    xsd: &str,
    valid: &str,
    broken: &[Break],
    parse: impl Fn(&[u8]) -> Result<(), String>,
) {
    let schema = xwire_schema::model::Schema::load(xsd).expect("the schema loads");
    let validator_says = |doc: &str| {
        Validator::new(&schema, ValidationOptions::default())
            .validate(doc.as_bytes())
            .is_ok()
    };
    assert!(
        validator_says(valid),
        "the validator accepts the valid document"
    );
    if let Err(e) = parse(valid.as_bytes()) {
        panic!("the generated parser rejects the valid document: {e}");
    }
    for (what, from, to) in broken {
        assert!(
            valid.contains(from),
            "{what}: {from} is not in the document"
        );
        let doc = valid.replacen(from, to, 1);
        let validator = validator_says(&doc);
        let parser = parse(doc.as_bytes());
        assert_eq!(
            parser.is_ok(),
            validator,
            "{what}: validator {validator}, parser {parser:?}"
        );
        assert!(!validator, "{what}: meant to be invalid");
    }
}
