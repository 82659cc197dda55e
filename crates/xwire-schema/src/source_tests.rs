//! The `source()` chains of the crate's errors reach the error they wrap, down to the
//! `std::io::Error` of a failed read or write.

use std::error::Error as _;
use std::io;

use crate::binary::{encode_with_schema, SchemaEncodeError};
use crate::model::Schema;

type DynError = dyn std::error::Error + 'static;

/// `e` and its chain of sources.
fn chain(e: &DynError) -> Vec<&DynError> {
    std::iter::successors(Some(e), |&e| e.source()).collect()
}

fn io_kind(e: &DynError) -> io::ErrorKind {
    e.downcast_ref::<io::Error>()
        .expect("the chain ends in the io::Error")
        .kind()
}

/// A sink that refuses every write.
#[derive(Debug)]
struct Refusing;

impl io::Write for Refusing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A schema whose root element `a` is an `xs:int`.
fn schema() -> Schema {
    let xsd = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
        <xs:element name="a" type="xs:int"/></xs:schema>"#;
    Schema::parse_str(xsd, &Default::default()).unwrap()
}

#[test]
fn encoding_into_a_full_disk_reaches_the_io_error() {
    // SchemaEncodeError::Encode -> EncodeError::Write -> WriteError::Io -> io::Error.
    let e = encode_with_schema(&schema(), b"<a>1</a>", Refusing).unwrap_err();
    assert!(matches!(e, SchemaEncodeError::Encode(_)), "{e:?}");
    let c = chain(&e);
    assert_eq!(c.len(), 4, "{e:?}");
    assert!(c[1].downcast_ref::<xwire::binary::EncodeError>().is_some());
    assert!(c[2].downcast_ref::<xwire::writer::WriteError>().is_some());
    assert_eq!(io_kind(c[3]), io::ErrorKind::StorageFull);

    // An invalid document has a list of errors, no one source.
    let e = encode_with_schema(&schema(), b"<a>x</a>", Vec::new()).unwrap_err();
    assert!(matches!(e, SchemaEncodeError::Invalid(_)), "{e:?}");
    assert!(e.source().is_none());
}

/// A source that gives `ok` bytes of a document, then fails.
struct Failing {
    ok: &'static [u8],
}

impl io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ok.is_empty() {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "pipe closed"));
        }
        let n = self.ok.len().min(buf.len());
        buf[..n].copy_from_slice(&self.ok[..n]);
        self.ok = &self.ok[n..];
        Ok(n)
    }
}

#[test]
fn a_failed_read_is_the_source_of_the_validation_error() {
    use crate::validate::{ValidationError, ValidationOptions, Validator};

    // ValidationError (well-formed) -> xwire::Error (Io) -> io::Error.
    let s = schema();
    let mut v = Validator::new(&s, ValidationOptions::default());
    let errors = v.validate_read(Failing { ok: b"<a>1" }).unwrap_err();
    let e: &ValidationError = errors.last().unwrap();
    assert_eq!(e.constraint, "well-formed");
    let c = chain(e);
    assert_eq!(c.len(), 3, "{e:?}");
    assert!(matches!(
        c[1].downcast_ref::<xwire::Error>().unwrap().kind(),
        xwire::ErrorKind::Io(_)
    ));
    assert_eq!(io_kind(c[2]), io::ErrorKind::BrokenPipe);

    // A violation of the schema wraps nothing.
    let errors = v.validate(b"<a>x</a>").unwrap_err();
    assert!(errors[0].source().is_none());
}

#[test]
fn an_unreadable_schema_document_keeps_its_io_error() {
    let missing = std::env::temp_dir().join("xwire-source-tests-no-such-dir/missing.xsd");
    let errors = Schema::load(&missing).unwrap_err();
    let e = &errors.0[0];
    assert_eq!(e.constraint, "schema-document");
    assert_eq!(chain(e).len(), 2, "{e:?}");
    assert_eq!(io_kind(e.source().unwrap()), io::ErrorKind::NotFound);
    assert_eq!(e, &e.clone());

    let catalog = crate::load::Catalog::from_file(&missing).unwrap_err();
    assert_eq!(io_kind(catalog.source().unwrap()), io::ErrorKind::NotFound);

    // A constraint violation wraps nothing.
    let errors = Schema::parse_str("<a/>", &Default::default()).unwrap_err();
    assert!(errors.0[0].source().is_none());
}

#[test]
fn a_schema_document_that_is_not_well_formed_keeps_the_readers_error() {
    let dir = std::env::temp_dir().join(format!("xwire-source-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.xsd");
    std::fs::write(
        &bad,
        "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'>\n  <a></b>",
    )
    .unwrap();
    let errors = Schema::load(&bad).unwrap_err();
    let e = &errors.0[0];
    assert_eq!(e.constraint, "schema-document");
    // The position is the reader's, in the schema's fields and in its message once.
    assert_eq!(e.position, Some((2, 6)));
    assert_eq!(e.to_string().matches("2:6").count(), 1, "{e}");
    let xml = e.source().unwrap().downcast_ref::<xwire::Error>().unwrap();
    assert_eq!((xml.location().line, xml.location().column), (2, 6));
    assert_eq!(e, &e.clone());

    std::fs::write(&bad, "<catalog><a></b></catalog>").unwrap();
    let catalog = crate::load::Catalog::from_file(&bad).unwrap_err();
    assert!(catalog
        .source()
        .unwrap()
        .downcast_ref::<xwire::Error>()
        .is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
