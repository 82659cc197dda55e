//! SOAP 1.1 messages: SOAP-encoded arrays (`soapenc:arrayType`, `xsi:type` on every item) and
//! request/response envelopes of the SOAPBuilders-style echo operations.

use std::fmt::Write;

use super::text::{envelope_close, envelope_open, escape, random_base64, sentence, ENCODING};
use super::Rng;

/// The item type of an encoded array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Item {
    /// `xsd:int`.
    Int,
    /// `xsd:float`.
    Float,
    /// `xsd:double`.
    Double,
    /// `xsd:string`, a few words with non-ASCII letters.
    String,
    /// `xsd:base64Binary`.
    Base64,
    /// `SOAPStruct` of a string, an int and a double.
    Struct,
}

impl Item {
    /// Every item type, in report order.
    pub const ALL: &'static [Item] = &[
        Item::Int,
        Item::Float,
        Item::Double,
        Item::String,
        Item::Base64,
        Item::Struct,
    ];

    /// Short name (`"double"`), used in workload names.
    pub fn name(self) -> &'static str {
        match self {
            Item::Int => "int",
            Item::Float => "float",
            Item::Double => "double",
            Item::String => "string",
            Item::Base64 => "base64",
            Item::Struct => "struct",
        }
    }

    /// The array's item type as `arrayType` names it, and the echo operation.
    fn soap(self) -> (&'static str, &'static str) {
        match self {
            Item::Int => ("xsd:int", "echoIntegerArray"),
            Item::Float => ("xsd:float", "echoFloatArray"),
            Item::Double => ("xsd:double", "echoDoubleArray"),
            Item::String => ("xsd:string", "echoStringArray"),
            Item::Base64 => ("xsd:base64Binary", "echoBase64Array"),
            Item::Struct => ("ns1:SOAPStruct", "echoStructArray"),
        }
    }

    /// The generator of an array of `n` items of this type.
    pub fn generator(self) -> fn(usize, u64) -> Vec<u8> {
        match self {
            Item::Int => |n, seed| array(Item::Int, n, seed),
            Item::Float => |n, seed| array(Item::Float, n, seed),
            Item::Double => |n, seed| array(Item::Double, n, seed),
            Item::String => |n, seed| array(Item::String, n, seed),
            Item::Base64 => |n, seed| array(Item::Base64, n, seed),
            Item::Struct => |n, seed| array(Item::Struct, n, seed),
        }
    }
}

fn double(rng: &mut Rng) -> f64 {
    (rng.unit() - 0.5) * 10f64.powi(rng.below(12) as i32 - 4)
}

/// One `<item>` (or `tag`) of type `t`.
fn item(out: &mut String, rng: &mut Rng, t: Item, tag: &str) {
    let (ty, _) = t.soap();
    let _ = write!(out, "<{tag} xsi:type=\"{ty}\">");
    match t {
        Item::Int => {
            let _ = write!(out, "{}", rng.next_u64() as i32 >> rng.below(31));
        }
        Item::Float => {
            let _ = write!(out, "{:e}", double(rng) as f32);
        }
        Item::Double => {
            let _ = write!(out, "{:e}", double(rng));
        }
        Item::String => {
            let n = 1 + rng.below(5) as usize;
            out.push_str(&escape(&sentence(rng, n)));
        }
        Item::Base64 => {
            let n = 8 + rng.below(40) as usize;
            out.push_str(&random_base64(rng, n));
        }
        Item::Struct => {
            let n = 1 + rng.below(3) as usize;
            let _ = write!(
                out,
                "<varString xsi:type=\"xsd:string\">{}</varString><varInt xsi:type=\"xsd:int\">{}</varInt><varDouble xsi:type=\"xsd:double\">{:e}</varDouble>",
                escape(&sentence(rng, n)),
                rng.below(1 << 20) as i64 - (1 << 19),
                double(rng)
            );
        }
    }
    let _ = writeln!(out, "</{tag}>");
}

/// An encoded array of `n` items of type `t` named `tag`: the `soapenc:Array` element and its
/// items.
fn encoded_array(out: &mut String, rng: &mut Rng, t: Item, tag: &str, n: usize) {
    let (ty, _) = t.soap();
    let _ = writeln!(
        out,
        "<{tag} soapenc:arrayType=\"{ty}[{n}]\" xsi:type=\"soapenc:Array\">"
    );
    for _ in 0..n {
        item(out, rng, t, "item");
    }
    let _ = writeln!(out, "</{tag}>");
}

/// A SOAP 1.1 request of the echo operation for `t`, carrying a SOAP-encoded array of `n`
/// items of type `t` (`soapenc:arrayType="xsd:int[n]"`, `xsi:type` on every item).
pub fn array(t: Item, n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(600 + n * 60);
    let (_, op) = t.soap();
    envelope_open(&mut out, "");
    let _ = writeln!(
        out,
        "<ns1:{op} xmlns:ns1=\"http://soapinterop.org/\" {ENCODING}>"
    );
    encoded_array(&mut out, &mut rng, t, "inputArray", n);
    let _ = writeln!(out, "</ns1:{op}>");
    envelope_close(&mut out);
    out.into_bytes()
}

/// An array of doubles of about `size` bytes (about 50 bytes an item): the former
/// `soap-doubles` generator, sized in bytes.
pub fn soap_doubles(size: usize, seed: u64) -> Vec<u8> {
    array(Item::Double, (size / 50).max(1), seed)
}

/// The echo operations of the message mix.
#[derive(Clone, Copy)]
enum Echo {
    String,
    IntArray,
    Struct,
}

/// A request (or response) of `op` of about `size` bytes: the operation element (or
/// `...Response`) with its `input...` (or `return`) accessor.
fn echo(op: Echo, response: bool, size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    envelope_open(&mut out, "");
    let name = match op {
        Echo::String => "echoString",
        Echo::IntArray => "echoIntegerArray",
        Echo::Struct => "echoStruct",
    };
    let (el, accessor) = if response {
        (format!("{name}Response"), "return".to_string())
    } else {
        (name.to_string(), format!("input{}", &name[4..]))
    };
    let _ = writeln!(
        out,
        "<ns1:{el} xmlns:ns1=\"http://soapinterop.org/\" xmlns:ns2=\"http://soapinterop.org/xsd\" {ENCODING}>"
    );
    // What the envelope's closing tags and the operation's take.
    let budget = size.saturating_sub(out.len() + 120);
    match op {
        Echo::String => {
            let mut s = String::new();
            // At least one sentence, however small the size.
            while s.is_empty() || s.len() < budget {
                s.push_str(&sentence(&mut rng, 12));
                s.push_str(if rng.below(4) == 0 {
                    " & <more>\n"
                } else {
                    ".\n"
                });
            }
            let _ = writeln!(
                out,
                "<{accessor} xsi:type=\"xsd:string\">{}</{accessor}>",
                escape(&s)
            );
        }
        Echo::IntArray => {
            // About 38 bytes an item.
            let n = (budget / 38).max(1);
            encoded_array(&mut out, &mut rng, Item::Int, &accessor, n);
        }
        Echo::Struct => {
            // A struct of primitives whose last member is an array of structs, about 210
            // bytes an item.
            let _ = writeln!(out, "<{accessor} xsi:type=\"ns2:SOAPStructStruct\">");
            item(&mut out, &mut rng, Item::Struct, "varStruct");
            let _ = writeln!(
                out,
                "<varString xsi:type=\"xsd:string\">{}</varString>\n<varInt xsi:type=\"xsd:int\">{}</varInt>\n<varFloat xsi:type=\"xsd:float\">{:e}</varFloat>",
                escape(&sentence(&mut rng, 4)),
                rng.below(100_000),
                double(&mut rng) as f32
            );
            let n = (budget / 210).max(1);
            encoded_array(&mut out, &mut rng, Item::Struct, "varArray", n);
            let _ = writeln!(out, "</{accessor}>");
        }
    }
    let _ = writeln!(out, "</ns1:{el}>");
    envelope_close(&mut out);
    out.into_bytes()
}

/// `echoString` request: one long string with escaped markup characters.
pub fn echo_string_request(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::String, false, size, seed)
}

/// `echoStringResponse`.
pub fn echo_string_response(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::String, true, size, seed ^ 1)
}

/// `echoIntegerArray` request: an encoded `xsd:int` array.
pub fn echo_int_array_request(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::IntArray, false, size, seed)
}

/// `echoIntegerArrayResponse`.
pub fn echo_int_array_response(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::IntArray, true, size, seed ^ 1)
}

/// `echoStruct` request: a nested struct with an array of structs.
pub fn echo_struct_request(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::Struct, false, size, seed)
}

/// `echoStructResponse`.
pub fn echo_struct_response(size: usize, seed: u64) -> Vec<u8> {
    echo(Echo::Struct, true, size, seed ^ 1)
}
