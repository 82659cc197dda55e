//! `xwire encode`, `xwire decode`, `xwire inspect`: binary XML (`docs/binary-format.md`).

use std::io::Write;
use std::path::{Path, PathBuf};

use xwire::binary::{
    encode_events, MapTyping, PrimitiveType, Typed, TypedContent, Typing, XsiTyping,
};
use xwire::{Event, Reader};

use crate::{report, Failure, Input};

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
    /// Array values to show per array.
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
    let input = Input::open(&args.file)?;
    let bytes = input.bytes();
    let name = args.file.display().to_string();
    let out = if let Some(schema_path) = &args.schema {
        let schema = xwire_schema::model::Schema::load(schema_path).map_err(|e| Failure {
            code: 2,
            message: format!("xwire: {}: {e}", schema_path.display()),
        })?;
        xwire_schema::binary::encode_with_schema(&schema, bytes, Vec::with_capacity(bytes.len()))
            .map_err(|e| Failure {
                code: 1,
                message: format!("{name}: {e}"),
            })?
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
        encode_events(&mut reader, typing, Vec::with_capacity(bytes.len())).map_err(|e| {
            Failure {
                code: 1,
                message: match &e {
                    xwire::binary::EncodeError::Read(re) => {
                        report::error_with_caret(&name, re, Some(bytes))
                    }
                    other => format!("{name}:{other}"),
                },
            }
        })?
    };
    write_out(Some(&args.output), &out)
}

pub fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let input = Input::open(&args.file)?;
    let bytes = input.bytes();
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

/// A dump of the document event by event: each element with the offset of its frame, its
/// declarations, attributes and typed content.
pub fn inspect(args: &InspectArgs) -> Result<(), Failure> {
    use std::fmt::Write as _;
    let input = Input::open(&args.file)?;
    let bytes = input.bytes();
    let name = args.file.display().to_string();
    if !xwire::binary::is_binary(bytes) {
        return Err(Failure {
            code: 1,
            message: format!("{name}: not a binary XML document (no \\x89XWB magic number)"),
        });
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "header: version {}, {} bytes",
        bytes.get(8).copied().unwrap_or(0),
        bytes.len()
    );
    let mut reader = Reader::from_slice(bytes);
    let mut depth = 0usize;
    let fail = |e: xwire::Error| Failure {
        code: 1,
        message: format!("{name}: {e}"),
    };
    loop {
        let offset = reader.offset();
        let ev = match reader.next() {
            Ok(ev) => ev,
            Err(e) => {
                print!("{out}");
                return Err(fail(e));
            }
        };
        let indent = "  ".repeat(depth);
        let was_start = matches!(ev, Event::Start(_));
        match ev {
            Event::Eof => break,
            Event::Start(t) => {
                let _ = write!(out, "{indent}@{offset} element {}", t.name());
                if !t.namespace_uri().is_empty() {
                    let _ = write!(out, " {{{}}}", t.namespace_uri());
                }
                for a in t.attributes() {
                    let _ = write!(out, " {}=\"{}\"", a.name(), a.value());
                }
                out.push('\n');
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(t) => {
                let _ = writeln!(out, "{indent}@{offset} text {:?}", clip(&t.unescape()));
            }
            Event::CData(c) => {
                let _ = writeln!(out, "{indent}@{offset} cdata {:?}", clip(&c.text()));
            }
            Event::Comment(c) => {
                let _ = writeln!(out, "{indent}@{offset} comment {:?}", clip(&c.text()));
            }
            Event::Pi(p) => {
                let _ = writeln!(
                    out,
                    "{indent}@{offset} pi {} {:?}",
                    p.target(),
                    clip(&p.data())
                );
            }
            _ => {}
        }
        if was_start {
            let at = reader.offset();
            match reader.typed_content() {
                Ok(Some(Typed::Value(v))) => {
                    let mut s = String::new();
                    v.write_text(&mut s);
                    let _ = writeln!(
                        out,
                        "{indent}  @{at} leaf {} {:?}",
                        v.primitive_type().name(),
                        clip(&s)
                    );
                }
                Ok(Some(Typed::Array(a))) => {
                    let mut s = String::new();
                    for i in 0..a.len().min(args.values) {
                        if i > 0 {
                            s.push(' ');
                        }
                        a.get(i).write_text(&mut s);
                    }
                    if a.len() > args.values {
                        s.push_str(" ...");
                    }
                    let _ = writeln!(
                        out,
                        "{indent}  @{at} array {}[{}] ({}) {s}",
                        a.primitive_type().name(),
                        a.len(),
                        if a.is_borrowed() {
                            "viewed in place"
                        } else {
                            "copied"
                        }
                    );
                }
                Ok(None) => {}
                Err(e) => {
                    print!("{out}");
                    return Err(fail(e));
                }
            }
        }
    }
    write_out(None, out.as_bytes())
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
