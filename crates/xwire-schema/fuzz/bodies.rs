//! The bodies of the fuzz targets, shared by the targets in `fuzz_targets/` and by
//! `crates/xwire-schema/tests/fuzz_regressions.rs`, which runs them over the saved crashes and
//! the committed seeds (so a target's checks also run under `cargo test`).
//!
//! Each body panics when the property it checks fails; anything else it returns is fine.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use xwire::{Event, Reader};
use xwire_schema::datatypes::numbers::{is_xsd_number, xsd_integer, xsd_integer_in};
use xwire_schema::datatypes::Builtin;
use xwire_schema::load::LoadOptions;
use xwire_schema::model::{Schema, SimpleTypeId};
use xwire_schema::regex::Pattern;
use xwire_schema::validate::{differential, Psvi, ValidatingReader, ValidationOptions, Validator};

/// Loading options for fuzzing: the defaults, with fewer documents and errors (a fuzzed
/// `xs:include` may name any file relative to the working folder).
fn load_options() -> LoadOptions {
    LoadOptions {
        max_documents: 16,
        max_errors: 50,
        ..LoadOptions::default()
    }
}

/// `schema_load`: arbitrary bytes (lossy UTF-8) as one schema document. Never panics; an
/// error list is never empty and every error prints.
pub fn schema_load(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Schema::parse_str(&text, &load_options()) {
        Ok(schema) => {
            // A loaded schema validates something without panicking.
            let _ = Validator::new(&schema, ValidationOptions::default()).validate(b"<a/>");
        }
        Err(errors) => {
            assert!(!errors.0.is_empty(), "a failed load reports an error");
            for e in &errors.0 {
                let _ = e.to_string();
            }
        }
    }
}

/// Real schemas the structured `schema_mutate` target edits.
pub const REAL_SCHEMAS: &[&str] = &[
    include_str!("seeds/real/po.xsd"),
    include_str!("seeds/real/ipo.xsd"),
    include_str!("seeds/real/ipo_address.xsd"),
    include_str!("seeds/real/numeric.xsd"),
    include_str!("seeds/real/purchase-orders.xsd"),
    include_str!("seeds/real/soap-encoding-1.1.xsd"),
    include_str!("seeds/real/soapinterop-xsd.xsd"),
];

/// Fragments an edit inserts: the vocabulary of schema documents.
pub const FRAGMENTS: &[&str] = &[
    "<xs:element name=\"e\" type=\"xs:string\"/>",
    "<xs:element ref=\"e\"/>",
    "<xs:element name=\"r\"><xs:complexType><xs:sequence><xs:element ref=\"r\" minOccurs=\"0\"/></xs:sequence></xs:complexType></xs:element>",
    "<xs:complexType name=\"t\"><xs:sequence><xs:any maxOccurs=\"unbounded\"/></xs:sequence></xs:complexType>",
    "<xs:complexType name=\"t\"><xs:complexContent><xs:extension base=\"t\"/></xs:complexContent></xs:complexType>",
    "<xs:complexType name=\"t\"><xs:complexContent><xs:restriction base=\"xs:anyType\"><xs:choice minOccurs=\"2\" maxOccurs=\"4294967295\"><xs:element name=\"a\"/></xs:choice></xs:restriction></xs:complexContent></xs:complexType>",
    "<xs:simpleType name=\"s\"><xs:restriction base=\"s\"/></xs:simpleType>",
    "<xs:simpleType name=\"s\"><xs:list itemType=\"s\"/></xs:simpleType>",
    "<xs:simpleType name=\"s\"><xs:union memberTypes=\"s xs:int\"/></xs:simpleType>",
    "<xs:simpleType name=\"u\"><xs:restriction base=\"xs:decimal\"><xs:totalDigits value=\"99999999999999999999\"/><xs:fractionDigits value=\"3\"/><xs:minInclusive value=\"-1e9\"/></xs:restriction></xs:simpleType>",
    "<xs:pattern value=\"(a{1000}){1000}\"/>",
    "<xs:pattern value=\"[\\p{IsBasicLatin}-[a-z]]*\"/>",
    "<xs:length value=\"18446744073709551616\"/>",
    "<xs:maxLength value=\"-1\"/>",
    "<xs:enumeration value=\"x\"/>",
    "<xs:group name=\"g\"><xs:sequence><xs:group ref=\"g\"/></xs:sequence></xs:group>",
    "<xs:group ref=\"g\" maxOccurs=\"1000000\"/>",
    "<xs:attributeGroup name=\"ag\"><xs:attributeGroup ref=\"ag\"/></xs:attributeGroup>",
    "<xs:attribute name=\"a\" type=\"xs:ID\" default=\"x\" fixed=\"y\"/>",
    "<xs:anyAttribute namespace=\"##other ##local urn:x\"/>",
    "<xs:key name=\"k\"><xs:selector xpath=\".//a|b/c\"/><xs:field xpath=\"@x\"/></xs:key>",
    "<xs:keyref name=\"kr\" refer=\"k\"><xs:selector xpath=\"*\"/><xs:field xpath=\".\"/></xs:keyref>",
    "<xs:redefine schemaLocation=\"x.xsd\"/>",
    "<xs:include schemaLocation=\"po.xsd\"/>",
    "<xs:import namespace=\"urn:x\"/>",
    "<xs:all minOccurs=\"0\"><xs:element name=\"x\" maxOccurs=\"2\"/></xs:all>",
    "<xs:notation name=\"n\" public=\"p\"/>",
    " substitutionGroup=\"e\" ",
    " abstract=\"true\" ",
    " nillable=\"true\" ",
    " mixed=\"true\" ",
    " block=\"#all\" final=\"#all\" ",
    " minOccurs=\"18446744073709551615\" ",
    " maxOccurs=\"0\" ",
    " type=\"xs:anyType\" ",
    " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" ",
    "</xs:sequence>",
    "</xs:complexType>",
    "<!DOCTYPE x [<!ENTITY e \"&e;\">]>",
    "&amp;",
    "",
];

/// Applies the edits `ops` describes to a real schema: the first byte picks the schema;
/// then each edit is 4 bytes: a position (2 bytes, modulo the length), a number of bytes to
/// delete, and a fragment to insert there.
pub fn mutate(data: &[u8]) -> Option<String> {
    let (&pick, mut ops) = data.split_first()?;
    let mut text = REAL_SCHEMAS[pick as usize % REAL_SCHEMAS.len()]
        .as_bytes()
        .to_vec();
    while let [a, b, del, frag, rest @ ..] = ops {
        let at = usize::from(u16::from_le_bytes([*a, *b])) % (text.len() + 1);
        let end = (at + usize::from(*del % 64)).min(text.len());
        let frag = FRAGMENTS[*frag as usize % FRAGMENTS.len()];
        text.splice(at..end, frag.bytes());
        ops = rest;
    }
    Some(String::from_utf8_lossy(&text).into_owned())
}

/// Instances validated against each schema `schema_mutate` loads: small ones, and the real
/// instances of the seeds (most edits leave them nearly valid).
const MUTATE_INSTANCES: &[&[u8]] = &[
    b"<purchaseOrder orderDate='1999-10-20'><shipTo/></purchaseOrder>",
    b"<e/>",
    b"<r><r/></r>",
    b"<e a='1' b='x'>1<e/></e>",
    include_bytes!("seeds/real/po.xml"),
    include_bytes!("seeds/real/po1.xml"),
    include_bytes!("seeds/real/ipo.xml"),
];

/// `schema_mutate`: a real schema with structured edits, loaded (and, if it loads, instances
/// validated against it). Never panics; the validator's planned ways give what its full way
/// gives against the edited schema (every event's PSVI and every error), and its lean pass
/// proves valid only instances the general engine finds valid.
pub fn schema_mutate(data: &[u8]) {
    let Some(text) = mutate(data) else { return };
    if let Ok(schema) = Schema::parse_str(&text, &load_options()) {
        for doc in MUTATE_INSTANCES {
            if let Err(e) = differential::check_lean(&schema, doc) {
                panic!("{e}, on {}", String::from_utf8_lossy(doc));
            }
        }
        for doc in MUTATE_INSTANCES {
            assert_eq!(
                differential::observe(&schema, doc),
                differential::observe_without_plans(&schema, doc),
                "the planned ways and the full way disagree on {}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}

/// The Primer's purchase order schemas (`po.xsd`, and `ipo.xsd` with its include), loaded
/// once.
pub fn primer() -> &'static [Schema] {
    static SCHEMAS: OnceLock<Vec<Schema>> = OnceLock::new();
    SCHEMAS.get_or_init(load_primer)
}

fn load_primer() -> Vec<Schema> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // From the fuzz crate or from xwire-schema: the seeds are in the fuzz crate.
    let real = if dir.ends_with("fuzz") {
        dir.join("seeds/real")
    } else {
        dir.join("fuzz/seeds/real")
    };
    ["po.xsd", "ipo.xsd"]
        .iter()
        .map(|f| {
            Schema::load(real.join(f))
                .unwrap_or_else(|e| panic!("the Primer schema {f} loads: {e:?}"))
        })
        .collect()
}

/// Validates through a `ValidatingReader` pulled to the end: valid or not. Every element's
/// typed value is built (numbers are built on demand, from text the validator only scanned:
/// building one must not fail).
fn valid_by_reader(v: &mut Validator<'_>, data: &[u8], options: &ValidationOptions) -> bool {
    let reader = Reader::with_config(data, options.reader.clone());
    let mut vr = ValidatingReader::new(v, reader);
    loop {
        match vr.next().map(|e| e.split()) {
            Ok((Event::Eof, _)) => break,
            Ok((_, Psvi::End { value: Some(v), .. })) => {
                let _ = v.value().canonical();
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    vr.errors().is_empty()
}

/// `schema_validate`: arbitrary instance bytes against the Primer schemas, through
/// `Validator::validate` (the lean pass first) and through a `ValidatingReader` (never the
/// lean pass): never panics, and both say the same (valid or not). The validator's planned ways give what its full way gives: every event's
/// PSVI and every error are the same against the schemas without their plans.
pub fn schema_validate(data: &[u8]) {
    let options = ValidationOptions::default();
    for schema in primer() {
        let mut v = Validator::new(schema, options.clone());
        let whole = v.validate(data);
        if let Err(errors) = &whole {
            assert!(!errors.is_empty());
            for e in errors {
                let _ = e.to_string();
            }
        }
        // The same validator again (state reset between documents), then a fresh one.
        let by_reader = valid_by_reader(&mut v, data, &options);
        assert_eq!(
            whole.is_ok(),
            by_reader,
            "validate and ValidatingReader disagree: {whole:?}"
        );
        let mut fresh = Validator::new(schema, options.clone());
        assert_eq!(whole.is_ok(), valid_by_reader(&mut fresh, data, &options));
    }
    for schema in primer() {
        assert_eq!(
            differential::observe(schema, data),
            differential::observe_without_plans(schema, data),
            "the planned ways and the full way disagree"
        );
    }
}

/// `xsd_regex`: the first line is a pattern, the rest a subject. Compiling never panics; a
/// compiled pattern matches without panicking, and an error points into the pattern.
pub fn xsd_regex(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (pattern, subject) = s.split_once('\n').unwrap_or((s, ""));
    match Pattern::compile(pattern) {
        Ok(p) => {
            let _ = p.is_match(subject);
            let _ = p.is_match(pattern);
            assert_eq!(p.as_str(), pattern);
        }
        Err(e) => {
            assert!(
                e.position() <= pattern.len(),
                "{pattern:?}: {}",
                e.position()
            );
            let _ = e.to_string();
        }
    }
}

/// Resolves the prefixes the `simple_value` inputs may use.
fn resolve(prefix: &str) -> Option<String> {
    match prefix {
        "" => Some(String::new()),
        "p" => Some("urn:p".into()),
        "xml" => Some("http://www.w3.org/XML/1998/namespace".into()),
        _ => None,
    }
}

/// `simple_value`: the first byte picks a built-in type, the rest (UTF-8) is a lexical form.
/// Never panics; the canonical form of a valid value is valid and its own canonical form.
pub fn simple_value(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(lexical) = std::str::from_utf8(rest) else {
        return;
    };
    let schema = builtins();
    let b = Builtin::ALL[pick as usize % Builtin::ALL.len()];
    let ty = SimpleTypeId::builtin(b);
    let Ok(v) = schema.validate_simple(ty, lexical, &resolve) else {
        return;
    };
    let canonical = v.value.canonical();
    let again = schema
        .validate_simple(ty, &canonical, &resolve)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {lexical:?} is valid, its canonical form {canonical:?} is not: {e}",
                b.name()
            )
        });
    assert_eq!(
        again.value.canonical(),
        canonical,
        "{}: {lexical:?} canonical form is not a fixed point",
        b.name()
    );
    if let Some(o) = v.value.partial_cmp_value(&again.value) {
        assert_eq!(
            o,
            std::cmp::Ordering::Equal,
            "{}: {lexical:?} and its canonical form {canonical:?} differ",
            b.name()
        );
    }
}

fn builtins() -> &'static Schema {
    static S: OnceLock<Schema> = OnceLock::new();
    S.get_or_init(Schema::builtins)
}

/// `numbers`: the lexical forms of XML Schema's numbers (`datatypes::numbers`) on arbitrary
/// bytes. The vector and word checks agree with the grammar read in order
/// ([`number_grammar`]), and an integer's value with `str::parse`, read alone or in a document
/// (every split of the input into the bytes before it and it).
pub fn numbers(data: &[u8]) {
    for exponent in [false, true] {
        assert_eq!(
            is_xsd_number(data, exponent),
            number_grammar(data, exponent),
            "{data:?} {exponent}"
        );
    }
    let body = match data.first() {
        Some(b'+' | b'-') => &data[1..],
        _ => data,
    };
    let want = if (1..=18).contains(&body.len()) && body.iter().all(u8::is_ascii_digit) {
        let s = std::str::from_utf8(data).expect("ASCII");
        Some(s.parse::<i64>().expect("at most 18 digits"))
    } else {
        None
    };
    assert_eq!(xsd_integer(data), want, "{data:?}");
    for start in 0..data.len() {
        assert_eq!(
            xsd_integer_in(data, start..data.len()),
            xsd_integer(&data[start..]),
            "{data:?} from {start}"
        );
    }
}

/// `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`, then with `exponent` an optional
/// `[eE](\+|-)?[0-9]+`.
fn number_grammar(s: &[u8], exponent: bool) -> bool {
    let digits = |x: &[u8]| x.iter().all(u8::is_ascii_digit);
    let unsigned = |x: &'_ [u8]| -> Vec<u8> {
        match x.first() {
            Some(b'+' | b'-') => x[1..].to_vec(),
            _ => x.to_vec(),
        }
    };
    let mantissa = |m: &[u8]| {
        let m = unsigned(m);
        let (int, frac) = match m.iter().position(|&c| c == b'.') {
            Some(i) => (&m[..i], &m[i + 1..]),
            None => (&m[..], &[][..]),
        };
        digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty())
    };
    match s.iter().position(|&c| c == b'e' || c == b'E') {
        Some(i) if exponent => {
            let e = unsigned(&s[i + 1..]);
            mantissa(&s[..i]) && !e.is_empty() && digits(&e)
        }
        Some(_) => false,
        None => mantissa(s),
    }
}
