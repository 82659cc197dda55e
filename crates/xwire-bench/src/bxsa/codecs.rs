//! The model of the BXSA data set and its encodings: build, encode, decode and consume, one
//! function each (see the [parent module](super) for what is timed and how).

use std::io::{Read, Write};

use xwire::binary::{Array, BinaryWriter, NodeId, PrimitiveType, TypedDocument};
use xwire::{Event, Reader};

use super::NS;

/// An in-process encoder: the model into a buffer (emptied first).
pub(super) type Encode = fn(&TypedDocument, &mut Vec<u8>) -> Result<(), String>;

/// An in-process decoder: bytes into a model (emptied first, its memory reused).
pub(super) type Decode = fn(&[u8], &mut TypedDocument) -> Result<(), String>;

/// Builds the model of `indices` and `values` (copied in).
pub fn model(indices: &[i32], values: &[f64]) -> TypedDocument {
    let mut doc = TypedDocument::new();
    let m = doc.append_element(doc.root(), NS, "num:model");
    doc.declare_namespace(m, "num", NS);
    doc.append_array(m, NS, "num:indices", indices.to_vec());
    doc.append_array(m, NS, "num:values", values.to_vec());
    doc
}

/// The arrays of a model: its root element `num:model` and children `num:indices` (`i32`)
/// and `num:values` (`f64`).
pub fn arrays_of(doc: &TypedDocument) -> Result<(&[i32], &[f64]), String> {
    let root = doc.root_element().ok_or("no root element")?;
    if doc.namespace_uri(root) != NS || doc.local_name(root) != "model" {
        return Err(format!(
            "root element {} is not num:model",
            doc.local_name(root)
        ));
    }
    let child = |local: &str| -> Result<NodeId, String> {
        doc.children(root)
            .find(|&c| doc.namespace_uri(c) == NS && doc.local_name(c) == local)
            .ok_or_else(|| format!("no num:{local}"))
    };
    let indices = doc
        .array_of::<i32>(child("indices")?)
        .ok_or("num:indices is not an array of i32")?;
    let values = doc
        .array_of::<f64>(child("values")?)
        .ok_or("num:values is not an array of f64")?;
    Ok((indices, values))
}

/// The sum of the indices.
pub fn sum_i32(v: &[i32]) -> i64 {
    v.iter().map(|&x| i64::from(x)).sum()
}

/// The sum of the values, in eight partial sums (so that a walk is bound by memory, not by
/// the latency of one chain of additions), added up at the end.
pub fn sum_f64(v: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let chunks = v.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] += c[k];
        }
    }
    let mut s = acc.iter().sum::<f64>();
    for x in rest {
        s += x;
    }
    s
}

/// The checksum of the sums a walk computes: equal sums, equal checksums.
pub fn sums_checksum(indices: i64, values: f64) -> u64 {
    (indices as u64).rotate_left(32) ^ values.to_bits()
}

/// Consume: walks the model summing the indices and the values; [`sums_checksum`].
pub fn consume(doc: &TypedDocument) -> Result<u64, String> {
    let (i, v) = arrays_of(doc)?;
    Ok(sums_checksum(sum_i32(i), sum_f64(v)))
}

/// The native form: the indices, then the values, in the machine's byte order.
pub fn native(indices: &[i32], values: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() * 4 + values.len() * 8);
    for i in indices {
        out.extend_from_slice(&i.to_ne_bytes());
    }
    for v in values {
        out.extend_from_slice(&v.to_ne_bytes());
    }
    out
}

pub(super) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The model in xwire's binary format (the machine's byte order).
pub fn encode_binary(doc: &TypedDocument) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(doc_values_len(doc) + 256);
    encode_binary_into(doc, &mut out)?;
    Ok(out)
}

/// [`encode_binary`] into `out`, emptied first (its memory reused: the timed runs write into
/// one buffer, as a service answering request after request would).
pub fn encode_binary_into(doc: &TypedDocument, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    let mut w = BinaryWriter::new(&mut *out);
    doc.write(&mut w).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(())
}

/// Bytes of the model's arrays, for buffer sizes.
fn doc_values_len(doc: &TypedDocument) -> usize {
    arrays_of(doc).map_or(0, |(i, v)| i.len() * 4 + v.len() * 8)
}

/// The model read back from xwire's binary format.
pub fn decode_binary(bytes: &[u8]) -> Result<TypedDocument, String> {
    fresh(decode_binary_into, bytes)
}

/// [`decode_binary`] into `doc`, emptied first (its memory reused, arrays included: the
/// timed runs decode into one model, as a service reading request after request would, the
/// mirror of [`encode_binary_into`]).
pub fn decode_binary_into(bytes: &[u8], doc: &mut TypedDocument) -> Result<(), String> {
    doc.read_into(&mut Reader::from_slice(bytes)).map_err(err)
}

/// A decoder's result in a new document.
pub(super) fn fresh(decode: Decode, bytes: &[u8]) -> Result<TypedDocument, String> {
    let mut doc = TypedDocument::new();
    decode(bytes, &mut doc)?;
    Ok(doc)
}

/// Reads xwire's binary form of the model and sums its arrays, viewed in the input when it
/// can (aligned, the machine's byte order): the checksum of [`consume`], and whether both
/// arrays were viewed in place.
pub fn decode_in_place(bytes: &[u8]) -> Result<(u64, bool), String> {
    let mut r = Reader::from_slice(bytes);
    let (mut si, mut sf, mut borrowed, mut seen) = (0i64, 0.0f64, true, 0);
    loop {
        let which = match r.next().map_err(err)? {
            Event::Start(t) if t.namespace_uri() == NS => match t.local_name() {
                "indices" => 1,
                "values" => 2,
                _ => 0,
            },
            Event::Eof => break,
            _ => 0,
        };
        if which == 1 {
            let a = r
                .array::<i32>()
                .map_err(err)?
                .ok_or("num:indices is not an array of i32")?;
            borrowed &= matches!(a, std::borrow::Cow::Borrowed(_));
            si += sum_i32(&a);
            seen += 1;
        } else if which == 2 {
            let a = r
                .array::<f64>()
                .map_err(err)?
                .ok_or("num:values is not an array of f64")?;
            borrowed &= matches!(a, std::borrow::Cow::Borrowed(_));
            sf += sum_f64(&a);
            seen += 1;
        }
    }
    if seen != 2 {
        return Err(format!("{seen} arrays found, 2 expected"));
    }
    Ok((sums_checksum(si, sf), borrowed))
}

/// The model as text XML (xwire's writer: arrays as white-space separated lists).
pub fn encode_text(doc: &TypedDocument) -> Result<Vec<u8>, String> {
    let n = arrays_of(doc).map_or(0, |(i, _)| i.len());
    let mut out = Vec::with_capacity(n * 32 + 256);
    encode_text_into(doc, &mut out)?;
    Ok(out)
}

/// [`encode_text`] into `out`, emptied first (see [`encode_binary_into`]).
pub fn encode_text_into(doc: &TypedDocument, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    let mut w = xwire::writer::Writer::new(&mut *out);
    doc.write(&mut w).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(())
}

/// The type of the array element `local` of the model.
fn array_type(ns: &str, local: &str) -> Option<PrimitiveType> {
    match (ns, local) {
        (NS, "indices") => Some(PrimitiveType::I32),
        (NS, "values") => Some(PrimitiveType::F64),
        _ => None,
    }
}

/// The model read back from text XML: parsed with `xwire::Reader` (its text limit raised to
/// the document's size: a list is one text node), the lists turned back into arrays with
/// xwire's number parsing.
pub fn decode_text(text: &[u8]) -> Result<TypedDocument, String> {
    fresh(decode_text_into, text)
}

/// [`decode_text`] into `doc`, emptied first (see [`decode_binary_into`]; the lists are
/// parsed into new arrays).
pub fn decode_text_into(text: &[u8], doc: &mut TypedDocument) -> Result<(), String> {
    doc.clear();
    let mut config = xwire::Config::default();
    let limits = &mut config.limits;
    limits.max_text_length = limits.max_text_length.max(text.len() as u64);
    let mut r = Reader::with_config(text, config);
    let mut root: Option<NodeId> = None;
    // The array element being read: (namespace, qualified name, type), and its text.
    let mut open: Option<(String, String, PrimitiveType)> = None;
    let mut list = String::new();
    loop {
        match r.next().map_err(err)? {
            Event::Start(t) => match root {
                None => root = Some(doc.append_start(doc.root(), &t)),
                Some(_) if open.is_some() => {
                    return Err(format!("element {} inside an array", t.name()))
                }
                Some(_) => {
                    let ty = array_type(t.namespace_uri(), t.local_name())
                        .ok_or_else(|| format!("unexpected element {}", t.name()))?;
                    open = Some((t.namespace_uri().to_string(), t.name().to_string(), ty));
                    list.clear();
                }
            },
            Event::Text(t) if open.is_some() => list.push_str(&t.unescape()),
            Event::End(_) => {
                if let (Some((ns, name, ty)), Some(parent)) = (open.take(), root) {
                    let values = Array::parse(ty, &list).map_err(err)?;
                    doc.append_array_value(parent, &ns, &name, values);
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// The text XML of the model, gzip'd (flate2's default level), written as it is made.
pub fn encode_gzip(doc: &TypedDocument) -> Result<Vec<u8>, String> {
    let n = arrays_of(doc).map_or(0, |(i, _)| i.len());
    let mut out = Vec::with_capacity(n * 14 + 256);
    encode_gzip_into(doc, &mut out)?;
    Ok(out)
}

/// [`encode_gzip`] into `out`, emptied first (see [`encode_binary_into`]).
pub fn encode_gzip_into(doc: &TypedDocument, out: &mut Vec<u8>) -> Result<(), String> {
    use flate2::{write::GzEncoder, Compression};
    out.clear();
    let gz = GzEncoder::new(&mut *out, Compression::default());
    let mut w = xwire::writer::Writer::new(gz);
    doc.write(&mut w).map_err(err)?;
    let mut gz = w.finish().map_err(err)?;
    gz.flush().map_err(err)?;
    gz.finish().map_err(err)?;
    Ok(())
}

/// The model read back from gzip'd text: gunzip (into a buffer of the size the gzip trailer
/// gives), then [`decode_text`].
pub fn decode_gzip(bytes: &[u8]) -> Result<TypedDocument, String> {
    fresh(decode_gzip_into, bytes)
}

/// [`decode_gzip`] into `doc`, emptied first (see [`decode_text_into`]).
pub fn decode_gzip_into(bytes: &[u8], doc: &mut TypedDocument) -> Result<(), String> {
    let hint = match bytes.len() {
        n if n >= 4 => u32::from_le_bytes(bytes[n - 4..].try_into().expect("4 bytes")) as usize,
        _ => 0,
    };
    let mut text = Vec::with_capacity(hint);
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut text)
        .map_err(err)?;
    decode_text_into(&text, doc)
}

/// The parse checksum of a text document (elements, attributes, bytes of text: see
/// [`crate::peers`]) as xwire's parse counts it, with the text limit raised to the document's
/// size (a list of a million numbers is one text node): what EXI's runs must return.
pub fn parse_checksum(text: &[u8]) -> u64 {
    let mut config = xwire::Config::default();
    let limits = &mut config.limits;
    limits.max_text_length = limits.max_text_length.max(text.len() as u64);
    let mut r = Reader::with_config(text, config);
    let mut sum = 0u64;
    loop {
        match r.next() {
            Ok(Event::Start(t)) => {
                sum += 1 + t.attributes().filter(|a| !a.is_namespace_decl()).count() as u64
            }
            Ok(Event::Text(t)) => sum += t.unescape().len() as u64,
            Ok(Event::CData(c)) => sum += c.raw().len() as u64,
            Ok(Event::Eof) => return sum,
            Ok(_) => {}
            // Not a document: no run can agree with it.
            Err(_) => return u64::MAX,
        }
    }
}

/// Whether the model's arrays are those of the data, bit for bit.
pub fn same_data(doc: &TypedDocument, indices: &[i32], values: &[f64]) -> Result<(), String> {
    let (i, v) = arrays_of(doc)?;
    if i != indices {
        return Err(format!(
            "indices differ ({} decoded, {} in the data)",
            i.len(),
            indices.len()
        ));
    }
    if v.len() != values.len()
        || v.iter()
            .zip(values)
            .any(|(a, b)| a.to_bits() != b.to_bits())
    {
        return Err(format!(
            "values differ ({} decoded, {} in the data)",
            v.len(),
            values.len()
        ));
    }
    Ok(())
}
