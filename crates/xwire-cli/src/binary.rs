//! `xwire encode`, `xwire decode`, `xwire inspect`: binary XML (`docs/binary-format.md`).

use std::io::Write;
use std::path::{Path, PathBuf};

use xwire::binary::{
    encode_events_with, Lexical, MapTyping, PrimitiveType, Typed, TypedContent, Typing, XsiTyping,
};
use xwire::{Event, Reader};

use crate::{read_input, report, Failure};

/// Options of `xwire encode`.
#[derive(clap::Args)]
pub struct EncodeArgs {
    /// The text XML document (`-` for standard input).
    file: PathBuf,
    /// Type elements by this XML Schema: simple types with a native form become leaves,
    /// lists of numbers arrays (the document must be valid).
    #[arg(long, value_name = "S.xsd", conflicts_with = "types")]
    schema: Option<PathBuf>,
    /// Type elements by name: `NAME=TYPE` (leaf) or `NAME=TYPE[]` (array), NAME a local name
    /// or `{uri}local`, TYPE one of i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool string bytes;
    /// repeatable. Without --schema or --type, elements are typed by their `xsi:type`.
    #[arg(long = "type", value_name = "NAME=TYPE")]
    types: Vec<String>,
    /// Write every typed element as its value, even where its text is not the value's
    /// canonical form (`45` typed as a float decodes as `45.0`): smaller, but decoding no
    /// longer gives the same XML back. By default such text stays text.
    #[arg(long)]
    pub values_only: bool,
    /// Where to write the binary document.
    #[arg(short, long, value_name = "OUT.xwb")]
    output: PathBuf,
}

/// Options of `xwire decode`.
#[derive(clap::Args)]
pub struct DecodeArgs {
    /// The binary document.
    file: PathBuf,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Options of `xwire inspect`.
#[derive(clap::Args)]
pub struct InspectArgs {
    /// The binary document.
    file: PathBuf,
    /// Array values (and string table entries) to show.
    #[arg(long, default_value_t = 8, value_name = "N")]
    values: usize,
}

fn write_out(path: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    let written = match path {
        Some(p) => std::fs::write(p, bytes).map_err(|e| (p.display().to_string(), e)),
        None => std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| ("standard output".to_string(), e)),
    };
    written.map_err(|(w, e)| Failure::usage(format!("xwire: {w}: {e}")))
}

fn parse_type_arg(arg: &str) -> Result<(String, String, TypedContent), Failure> {
    let bad = || {
        Failure::usage(format!(
            "xwire encode: --type '{arg}': expected NAME=TYPE or NAME=TYPE[] with TYPE one of \
             i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool string bytes"
        ))
    };
    let (name, ty) = arg.split_once('=').ok_or_else(bad)?;
    let (ty, array) = match ty.strip_suffix("[]") {
        Some(t) => (t, true),
        None => (ty, false),
    };
    let ty = PrimitiveType::from_name(ty).ok_or_else(bad)?;
    let content = if array {
        if ty.width().is_none() {
            return Err(Failure::usage(format!(
                "xwire encode: --type '{arg}': arrays hold fixed-width types only"
            )));
        }
        TypedContent::Array(ty)
    } else {
        TypedContent::Leaf(ty)
    };
    let (ns, local) = match name.strip_prefix('{').and_then(|n| n.split_once('}')) {
        Some((ns, local)) => (ns, local),
        None => ("", name),
    };
    if local.is_empty() {
        return Err(bad());
    }
    Ok((ns.to_string(), local.to_string(), content))
}

pub fn encode(args: &EncodeArgs) -> Result<(), Failure> {
    let input = read_input(&args.file)?;
    let bytes = &input[..];
    let name = args.file.display().to_string();
    let lexical = match args.values_only {
        true => Lexical::Drop,
        false => Lexical::Keep,
    };
    let out = if let Some(schema_path) = &args.schema {
        let schema = xwire_schema::model::Schema::load(schema_path).map_err(|e| Failure {
            code: 2,
            message: format!("xwire: {}: {e}", schema_path.display()),
        })?;
        let out = Vec::with_capacity(bytes.len());
        xwire_schema::binary::encode_with_schema_lexical(&schema, bytes, out, lexical).map_err(
            |e| Failure {
                code: 1,
                message: format!("{name}: {e}"),
            },
        )?
    } else {
        let mut map;
        let mut xsi = XsiTyping;
        let typing: &mut dyn Typing = if args.types.is_empty() {
            &mut xsi
        } else {
            let mut b = MapTyping::builder();
            for t in &args.types {
                let (ns, local, content) = parse_type_arg(t)?;
                b = b.content(&ns, &local, content);
            }
            map = b.build();
            &mut map
        };
        let mut reader = Reader::from_slice(bytes);
        let out = Vec::with_capacity(bytes.len());
        encode_events_with(&mut reader, typing, out, lexical).map_err(|e| Failure {
            code: 1,
            message: match &e {
                xwire::binary::EncodeError::Read(re) => {
                    report::error_with_caret(&name, re, Some(bytes))
                }
                other => format!("{name}:{other}"),
            },
        })?
    };
    write_out(Some(&args.output), &out)
}

pub fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let input = read_input(&args.file)?;
    let bytes = &input[..];
    if !xwire::binary::is_binary(bytes) {
        return Err(Failure {
            code: 1,
            message: format!(
                "{}: not a binary XML document (no \\x89XWB magic number)",
                args.file.display()
            ),
        });
    }
    let text =
        xwire::binary::decode_to_text(bytes, Vec::with_capacity(bytes.len() * 2)).map_err(|e| {
            Failure {
                code: 1,
                message: format!("{}: {e}", args.file.display()),
            }
        })?;
    write_out(args.output.as_deref(), &text)
}

/// `xwire inspect`: the document frame by frame (see [`dump`]).
pub fn inspect(args: &InspectArgs) -> Result<(), Failure> {
    let input = read_input(&args.file)?;
    let bytes = &input[..];
    let name = args.file.display().to_string();
    if !xwire::binary::is_binary(bytes) {
        return Err(Failure {
            code: 1,
            message: format!("{name}: not a binary XML document (no \\x89XWB magic number)"),
        });
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = dump(bytes, args.values, &mut out);
    let flushed = out.flush();
    match result {
        Ok(()) => flushed.map_err(|e| Failure::usage(format!("xwire: standard output: {e}"))),
        Err(Dump::Io(e)) => Err(Failure::usage(format!("xwire: standard output: {e}"))),
        Err(Dump::Xml(e)) => Err(Failure {
            code: 1,
            message: format!("{name}: {e}"),
        }),
    }
}

/// Why a dump stopped.
enum Dump {
    Io(std::io::Error),
    Xml(xwire::Error),
}

impl From<std::io::Error> for Dump {
    fn from(e: std::io::Error) -> Dump {
        Dump::Io(e)
    }
}

impl From<xwire::Error> for Dump {
    fn from(e: xwire::Error) -> Dump {
        Dump::Xml(e)
    }
}

/// Writes the frame-by-frame dump of a binary document: one line per frame with its offset,
/// kind, byte order and body size, then what it holds. The reader checks everything as it
/// goes, so a dump of a bad file stops at the first error, after the frames before it.
fn dump(bytes: &[u8], values: usize, out: &mut impl Write) -> Result<(), Dump> {
    let mut reader = Reader::from_slice(bytes);
    // Peeking reads the first frames, and with them the header and the string table.
    reader.peek_kind()?;
    writeln!(
        out,
        "header: version {}, flags 0x{:02X}, {} bytes",
        bytes[8],
        bytes[9],
        bytes.len()
    )?;
    let doc = bytes[xwire::binary::HEADER_LEN];
    let mut p = xwire::binary::HEADER_LEN + 1;
    let size = xwire::binary::read_varint(bytes, &mut p).expect("checked by the reader");
    let strings: Vec<&str> = reader.string_table().collect();
    writeln!(
        out,
        "@{} DOCUMENT {}, body {size} bytes, string table of {} strings",
        xwire::binary::HEADER_LEN,
        order(xwire::binary::ByteOrder::of_prefix(doc)),
        strings.len()
    )?;
    for (k, s) in strings.iter().enumerate().take(values) {
        writeln!(out, "  string {k} {:?}", clip(s))?;
    }
    if strings.len() > values {
        writeln!(out, "  ... {} more strings", strings.len() - values)?;
    }
    let mut depth = 1;
    loop {
        reader.peek_kind()?;
        let frame = reader.frame();
        let indent = "  ".repeat(depth);
        if let Some(f) = &frame {
            write!(
                out,
                "{indent}@{} {} {}, body {} bytes:",
                f.offset,
                kind(f.kind),
                order(f.byte_order),
                f.body.len()
            )?;
        }
        match reader.next()? {
            Event::Eof => break,
            Event::End(_) => depth -= 1,
            Event::Start(t) => {
                write!(out, " {}", t.name())?;
                if !t.namespace_uri().is_empty() {
                    write!(out, " {{{}}}", t.namespace_uri())?;
                }
                for a in t.attributes() {
                    write!(out, " {}=\"{}\"", a.name(), clip(a.value()))?;
                }
                writeln!(out)?;
                depth += 1;
                typed(
                    &mut reader,
                    frame.and_then(|f| f.values),
                    values,
                    &indent,
                    out,
                )?;
            }
            Event::Text(t) => writeln!(out, " {:?}", clip(&t.unescape()))?,
            Event::CData(c) => writeln!(out, " {:?}", clip(&c.text()))?,
            Event::Comment(c) => writeln!(out, " {:?}", clip(&c.text()))?,
            Event::Pi(p) => writeln!(out, " {} {:?}", p.target(), clip(&p.data()))?,
            _ => {}
        }
    }
    Ok(())
}

/// The typed content of the element just started, if it is a LEAF or an ARRAY.
fn typed(
    reader: &mut Reader<'_>,
    at_values: Option<std::ops::Range<usize>>,
    values: usize,
    indent: &str,
    out: &mut impl Write,
) -> Result<(), Dump> {
    match reader.typed_content()? {
        Some(Typed::Value(v)) => {
            let mut s = String::new();
            v.write_text(&mut s);
            writeln!(
                out,
                "{indent}  {} {:?}{}",
                v.primitive_type().name(),
                clip(&s),
                at(at_values, false)
            )?;
        }
        Some(Typed::Array(a)) => {
            let mut s = String::new();
            for i in 0..a.len().min(values) {
                s.push(' ');
                a.get(i).write_text(&mut s);
            }
            if a.len() > values {
                s.push_str(" ...");
            }
            writeln!(
                out,
                "{indent}  {}[{}]{}, {}:{s}",
                a.primitive_type().name(),
                a.len(),
                at(at_values, true),
                if a.is_borrowed() {
                    "viewed in place"
                } else {
                    "copied"
                }
            )?;
        }
        None => {}
    }
    Ok(())
}

fn kind(k: xwire::binary::FrameKind) -> &'static str {
    use xwire::binary::FrameKind as K;
    match k {
        K::Document => "DOCUMENT",
        K::Element => "ELEMENT",
        K::Leaf => "LEAF",
        K::Array => "ARRAY",
        K::Text => "TEXT",
        K::CData => "CDATA",
        K::Comment => "COMMENT",
        K::Pi => "PI",
    }
}

fn order(o: xwire::binary::ByteOrder) -> &'static str {
    match o {
        xwire::binary::ByteOrder::Little => "little-endian",
        xwire::binary::ByteOrder::Big => "big-endian",
    }
}

/// Where a typed value lies; for arrays, with the alignment of its offset (leaf values are
/// not aligned).
fn at(r: Option<std::ops::Range<usize>>, array: bool) -> String {
    match r {
        Some(r) if !array => format!(" at {}..{}", r.start, r.end),
        Some(r) if !r.is_empty() => {
            let align = 1usize << r.start.trailing_zeros().min(3);
            format!(" at {}..{} (offset aligned to {align})", r.start, r.end)
        }
        _ => String::new(),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(57).collect();
        c.push_str("...");
        c
    }
}
