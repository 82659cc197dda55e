//! Schema-typed binary XML: which elements of a document become typed leaves and arrays in
//! the binary encoding (`docs/binary-format.md`), decided by their governing types.
//!
//! An element whose type (or simple content) derives from a built-in with a native form
//! becomes a leaf: `byte`..`long` and `unsignedByte`..`unsignedLong` as the integer of that
//! width, `float`, `double`, `boolean`, `base64Binary` as bytes, and `string`,
//! `normalizedString`, `token` as a string. A list of one of the fixed-width ones becomes an
//! array. Everything else (`decimal`, `integer`, dates, unions, ...) stays text: it has no
//! native form the format can hold without losing values.
//!
//! ```
//! use xwire_schema::binary::encode_with_schema;
//! use xwire_schema::model::Schema;
//!
//! let schema = Schema::parse_str(r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
//!   <xs:element name="data"><xs:complexType><xs:sequence>
//!     <xs:element name="n" type="xs:int"/>
//!     <xs:element name="v"><xs:simpleType><xs:list itemType="xs:double"/></xs:simpleType></xs:element>
//!   </xs:sequence></xs:complexType></xs:element></xs:schema>"#, &Default::default())?;
//! let bin = encode_with_schema(&schema, b"<data><n>3</n><v>1.5 2.5</v></data>", Vec::new())?;
//! let mut r = xwire::Reader::from_slice(&bin);
//! r.next()?; // <data>
//! r.next()?; // <n>
//! assert_eq!(r.typed_content()?.map(|t| format!("{t:?}")), Some("Value(I32(3))".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use xwire::binary::{
    EncodeError, EventEncoder, InScopeNamespaces, Lexical, PrimitiveType, TypedContent, Typing,
};
use xwire::StartTag;

use crate::datatypes::Builtin;
use crate::model::{ContentType, Schema, SimpleTypeId, TypeId, Variety};
use crate::validate::{Psvi, ValidatingReader, ValidationError, ValidationOptions, Validator};

/// The binary form of the content of elements of type `ty`, if it has one.
pub fn typed_content(schema: &Schema, ty: TypeId) -> Option<TypedContent> {
    let st = match ty {
        TypeId::Simple(st) => st,
        TypeId::Complex(c) => match &schema.complex_type(c).content {
            ContentType::Simple(st) => *st,
            _ => return None,
        },
    };
    simple_content(schema, st)
}

fn simple_content(schema: &Schema, st: SimpleTypeId) -> Option<TypedContent> {
    match &schema.simple_type(st).variety {
        Variety::Atomic(b) if b.is_list() => None,
        Variety::Atomic(b) => primitive(*b).map(TypedContent::Leaf),
        Variety::List(item) => match schema.simple_type(*item).variety {
            Variety::Atomic(b) => primitive(b)
                .filter(|p| p.width().is_some())
                .map(TypedContent::Array),
            _ => None,
        },
        Variety::Union(_) => None,
    }
}

/// The native type of a built-in and the types derived from it: the nearest ancestor with one.
fn primitive(b: Builtin) -> Option<PrimitiveType> {
    let mut b = b;
    loop {
        let p = match b {
            Builtin::Byte => PrimitiveType::I8,
            Builtin::Short => PrimitiveType::I16,
            Builtin::Int => PrimitiveType::I32,
            Builtin::Long => PrimitiveType::I64,
            Builtin::UnsignedByte => PrimitiveType::U8,
            Builtin::UnsignedShort => PrimitiveType::U16,
            Builtin::UnsignedInt => PrimitiveType::U32,
            Builtin::UnsignedLong => PrimitiveType::U64,
            Builtin::Float => PrimitiveType::F32,
            Builtin::Double => PrimitiveType::F64,
            Builtin::Boolean => PrimitiveType::Bool,
            Builtin::Base64Binary => PrimitiveType::Bytes,
            // Strings that keep their text as written; the token types below `token`
            // (Name, NCName, language, ...) are strings too, but `token`'s collapsing is
            // what a string leaf keeps, so they map to it through their ancestry.
            Builtin::String | Builtin::NormalizedString | Builtin::Token => PrimitiveType::String,
            // Unbounded integers and everything without a native form stay text.
            Builtin::Integer | Builtin::Decimal | Builtin::AnySimpleType => return None,
            other => {
                b = other.base()?;
                continue;
            }
        };
        return Some(p);
    }
}

/// A typing decided by the caller for the next start tag (here: by the validator).
struct Decided(Option<TypedContent>);

impl Typing for Decided {
    fn element_type(
        &mut self,
        _ns_uri: &str,
        _local: &str,
        _tag: &StartTag<'_>,
        _namespaces: &InScopeNamespaces<'_>,
    ) -> Option<TypedContent> {
        self.0
    }
}

/// Why [`encode_with_schema`] failed. The source of an [`Encode`](Self::Encode) error is
/// the [`EncodeError`]; an invalid document has none (it has a list of errors, not one
/// cause).
#[derive(Debug)]
pub enum SchemaEncodeError {
    /// The document is not valid against the schema (every error found).
    Invalid(Vec<ValidationError>),
    /// Encoding failed (not well-formed, a value the native type cannot hold, output).
    Encode(xwire::binary::EncodeError),
}

impl std::fmt::Display for SchemaEncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SchemaEncodeError::Invalid(errors) => {
                write!(f, "the document is not valid against the schema")?;
                if let Some(e) = errors.first() {
                    write!(f, ": {e}")?;
                    if errors.len() > 1 {
                        write!(f, " (and {} more)", errors.len() - 1)?;
                    }
                }
                Ok(())
            }
            SchemaEncodeError::Encode(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SchemaEncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SchemaEncodeError::Invalid(_) => None,
            SchemaEncodeError::Encode(e) => Some(e),
        }
    }
}

/// Validates `bytes` against `schema` and encodes it to binary XML in the same pass, with the
/// elements the schema types as leaves and arrays (see the [module documentation](self)). An
/// invalid document gives its validation errors: the types of an invalid document are not
/// reliable, so nothing is returned for it.
pub fn encode_with_schema<W: Write>(
    schema: &Schema,
    bytes: &[u8],
    out: W,
) -> Result<W, SchemaEncodeError> {
    encode_with_schema_lexical(schema, bytes, out, Lexical::Keep)
}

/// [`encode_with_schema`], treating the text of typed elements as `lexical` says: by
/// default ([`Lexical::Keep`]) a text that is not its value's canonical form stays text, so
/// that decoding gives the same XML back.
pub fn encode_with_schema_lexical<W: Write>(
    schema: &Schema,
    bytes: &[u8],
    out: W,
    lexical: Lexical,
) -> Result<W, SchemaEncodeError> {
    let mut v = Validator::new(schema, ValidationOptions::default());
    let mut r = ValidatingReader::new(&mut v, xwire::Reader::from_slice(bytes));
    let mut enc = EventEncoder::new(out).lexical(lexical);
    // The first encoding failure; validation goes on, as invalidity is the better report.
    let mut failed = None;
    // A reading error ends the loop; it is recorded in the errors.
    while let Ok(e) = r.next() {
        let (offset, (ev, psvi)) = (e.offset(), e.split());
        let eof = matches!(ev, xwire::Event::Eof);
        if failed.is_none() {
            let decided = match psvi {
                Psvi::Start { type_def, nil, .. } => type_def
                    .filter(|_| !nil)
                    .and_then(|t| typed_content(schema, t)),
                _ => None,
            };
            failed = enc.event(offset, &ev, &mut Decided(decided)).err();
        }
        if eof {
            break;
        }
    }
    let errors = r.errors();
    if !errors.is_empty() {
        return Err(SchemaEncodeError::Invalid(errors.to_vec()));
    }
    if let Some(e) = failed {
        let e = e.locate(|o| r.reader().location_of(o));
        return Err(SchemaEncodeError::Encode(e));
    }
    enc.finish().map_err(|error| {
        SchemaEncodeError::Encode(EncodeError::Write {
            error,
            location: r.reader().location(),
        })
    })
}
#[cfg(test)]
mod tests {
    use super::*;

    fn schema(body: &str) -> Schema {
        Schema::parse_str(
            &format!(
                r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">{body}</xs:schema>"#
            ),
            &Default::default(),
        )
        .unwrap()
    }

    fn content_of(s: &Schema, element: &str) -> Option<TypedContent> {
        let n = s
            .names
            .lookup(crate::model::NamespaceId::ABSENT, element)
            .unwrap();
        let e = s.global_element(n).unwrap();
        typed_content(s, s.element(e).type_def)
    }

    #[test]
    fn types_map_through_their_ancestry() {
        let s = schema(
            r#"<xs:simpleType name="small"><xs:restriction base="xs:int"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType>
  <xs:element name="a" type="small"/>
  <xs:element name="b" type="xs:NCName"/>
  <xs:element name="c" type="xs:integer"/>
  <xs:element name="d" type="xs:dateTime"/>
  <xs:element name="e"><xs:simpleType><xs:list itemType="xs:unsignedShort"/></xs:simpleType></xs:element>
  <xs:element name="f"><xs:simpleType><xs:list itemType="xs:string"/></xs:simpleType></xs:element>
  <xs:element name="g"><xs:complexType><xs:simpleContent><xs:extension base="xs:double">
    <xs:attribute name="unit" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType></xs:element>
  <xs:element name="h"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  <xs:element name="i" type="xs:NMTOKENS"/>"#,
        );
        use PrimitiveType as P;
        use TypedContent as T;
        assert_eq!(content_of(&s, "a"), Some(T::Leaf(P::I32)));
        assert_eq!(content_of(&s, "b"), Some(T::Leaf(P::String)));
        assert_eq!(content_of(&s, "c"), None);
        assert_eq!(content_of(&s, "d"), None);
        assert_eq!(content_of(&s, "e"), Some(T::Array(P::U16)));
        assert_eq!(content_of(&s, "f"), None);
        assert_eq!(content_of(&s, "g"), Some(T::Leaf(P::F64)));
        assert_eq!(content_of(&s, "h"), None);
        assert_eq!(content_of(&s, "i"), None);
    }

    #[test]
    fn invalid_documents_are_refused_and_typed_ones_round_trip() {
        let s = schema(
            r#"<xs:element name="r"><xs:complexType><xs:sequence>
  <xs:element name="x" type="xs:short" maxOccurs="unbounded" nillable="true"/>
</xs:sequence></xs:complexType></xs:element>"#,
        );
        let err = encode_with_schema(&s, b"<r><x>70000</x></r>", Vec::new()).unwrap_err();
        assert!(matches!(err, SchemaEncodeError::Invalid(_)), "{err}");
        let doc = br#"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><x> 7 </x><x xsi:nil="true"/></r>"#;
        // ` 7 ` is not the canonical form of 7: kept as text unless values only.
        let bin = encode_with_schema(&s, doc, Vec::new()).unwrap();
        let text = xwire::binary::decode_to_text(&bin, Vec::new()).unwrap();
        assert_eq!(text, doc);
        let bin = encode_with_schema_lexical(&s, doc, Vec::new(), Lexical::Drop).unwrap();
        let text = xwire::binary::decode_to_text(&bin, Vec::new()).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            r#"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><x>7</x><x xsi:nil="true"/></r>"#
        );
        let canonical = br#"<r><x>7</x></r>"#;
        let bin = encode_with_schema(&s, canonical, Vec::new()).unwrap();
        assert!(
            bin.ends_with(&7i16.to_ne_bytes()),
            "a value in its canonical form is a leaf"
        );
    }
}
