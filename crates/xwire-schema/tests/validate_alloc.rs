//! A warm validator allocates (almost) nothing per document: its stacks, name caches and the
//! reader's buffers are reused. Its own test binary, for its counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use xwire_schema::load::LoadOptions;
use xwire_schema::model::Schema;
use xwire_schema::validate::{ValidationOptions, Validator};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A message typed through `xsi:type` only (the loader is not here yet to build a schema):
/// a root of `xs:anyType` with boolean, date-free children.
fn message(n: usize, flip: bool) -> Vec<u8> {
    let mut s = String::from(
        "<m xmlns:xs='http://www.w3.org/2001/XMLSchema' \
         xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:type='xs:anyType'>",
    );
    for i in 0..n {
        let v = if (i % 2 == 0) ^ flip { "true" } else { "0" };
        s += &format!("<flag xsi:type='xs:boolean'>{v}</flag><d xsi:type='xs:double'>{i}.5</d>");
    }
    s += "</m>";
    s.into_bytes()
}

/// An international purchase order schema in the manner of the XML Schema Primer: a target
/// namespace, strings, tokens, decimals, dates, an integer range, a pattern, an enumeration,
/// an attribute with a pattern and a type derived by extension, chosen with `xsi:type`.
const PO_SCHEMA: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:po="urn:example:po" targetNamespace="urn:example:po" elementFormDefault="qualified">
  <xs:element name="purchaseOrder">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="shipTo" type="po:Address"/>
        <xs:element name="comment" type="xs:string" minOccurs="0"/>
        <xs:element name="item" type="po:Item" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="orderDate" type="xs:date" use="required"/>
    </xs:complexType>
  </xs:element>
  <xs:complexType name="Address">
    <xs:sequence>
      <xs:element name="name" type="xs:string"/>
      <xs:element name="street" type="xs:token"/>
      <xs:element name="city" type="xs:string"/>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="USAddress">
    <xs:complexContent>
      <xs:extension base="po:Address">
        <xs:sequence>
          <xs:element name="state" type="po:State"/>
          <xs:element name="zip" type="xs:positiveInteger"/>
        </xs:sequence>
      </xs:extension>
    </xs:complexContent>
  </xs:complexType>
  <xs:simpleType name="State">
    <xs:restriction base="xs:string">
      <xs:enumeration value="AK"/><xs:enumeration value="CA"/><xs:enumeration value="NY"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="SKU">
    <xs:restriction base="xs:string"><xs:pattern value="\d{3}-[A-Z]{2}"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="Item">
    <xs:sequence>
      <xs:element name="productName" type="xs:string"/>
      <xs:element name="quantity">
        <xs:simpleType>
          <xs:restriction base="xs:positiveInteger"><xs:maxExclusive value="100"/></xs:restriction>
        </xs:simpleType>
      </xs:element>
      <xs:element name="price" type="xs:decimal"/>
      <xs:element name="weight" type="xs:double"/>
      <xs:element name="shipDate" type="xs:date" minOccurs="0"/>
      <xs:element name="gift" type="xs:boolean" minOccurs="0"/>
    </xs:sequence>
    <xs:attribute name="partNum" type="po:SKU" use="required"/>
  </xs:complexType>
</xs:schema>"#;

fn purchase_order(items: usize, flip: bool) -> Vec<u8> {
    let mut s = String::from(
        "<po:purchaseOrder xmlns:po='urn:example:po' \
         xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' orderDate='2026-11-23'>\
         <po:shipTo xsi:type='po:USAddress'><po:name>Alice Smith</po:name>\
         <po:street> 123  Maple Street </po:street><po:city>Mill Valley</po:city>\
         <po:state>CA</po:state><po:zip>90952</po:zip></po:shipTo>\
         <po:comment>Hurry, my lawn is going wild</po:comment>",
    );
    for i in 0..items {
        let state = if (i % 2 == 0) ^ flip { "true" } else { "0" };
        s += &format!(
            "<po:item partNum='{:03}-AB'><po:productName>Lawnmower {i}</po:productName>\
             <po:quantity>{}</po:quantity><po:price>{}.{:02}</po:price>\
             <po:weight>{i}.25e1</po:weight><po:shipDate>2026-12-{:02}</po:shipDate>\
             <po:gift>{state}</po:gift></po:item>",
            i % 1000,
            1 + i % 99,
            100 + i,
            i % 100,
            1 + i % 28
        );
    }
    s += "</po:purchaseOrder>";
    s.into_bytes()
}

/// Allocations while validating `doc` a third time (after two warm-up rounds).
fn warm_allocations(v: &mut Validator<'_>, docs: [&[u8]; 2]) -> usize {
    assert_eq!(v.validate(docs[0]), Ok(()));
    assert_eq!(v.validate(docs[1]), Ok(()));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(v.validate(docs[0]), Ok(()));
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// One test binary, one test: the counter is global.
#[test]
fn a_warm_validator_allocates_nothing_per_message() {
    // A purchase order: strings, tokens, decimals, dates, patterns, enumerations, xsi:type.
    let po = Schema::parse_str(PO_SCHEMA, &LoadOptions::default()).expect("schema");
    let mut v = Validator::new(&po, ValidationOptions::default());
    let (first, second) = (purchase_order(10, false), purchase_order(10, true));
    let allocations = warm_allocations(&mut v, [&first, &second]);
    eprintln!(
        "purchase order of {} bytes: {allocations} allocations",
        first.len()
    );
    assert_eq!(
        allocations, 0,
        "allocations while validating a warm purchase order"
    );

    let schema = Schema::builtins();
    let mut v = Validator::new(&schema, ValidationOptions::default());
    let first = message(50, false);
    let second = message(50, true);
    assert_eq!(v.validate(&first), Ok(()));
    assert_eq!(v.validate(&second), Ok(()));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(v.validate(&first), Ok(()));
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        allocations, 0,
        "allocations while validating a warm message"
    );
}
