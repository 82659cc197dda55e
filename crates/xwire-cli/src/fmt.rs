//! `xwire fmt`: re-serialise a document through the writer.

use std::io::Write;
use std::path::PathBuf;

use xwire::writer::{Writer, WriterConfig};
use xwire::{Config, Event, Reader};

use crate::{read_input, report, Failure};

/// Options of `xwire fmt`.
#[derive(clap::Args)]
pub struct FmtArgs {
    /// The document (`-` for standard input).
    file: PathBuf,
    /// Indent element-only content (white space between elements is replaced).
    #[arg(long)]
    pretty: bool,
    /// Spaces per level with --pretty.
    #[arg(long, default_value_t = 2, value_name = "N")]
    indent: usize,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Read without namespace processing (names are plain XML 1.0 names; the writer still
    /// checks prefixes, so use this only for documents without colons in names).
    #[arg(long)]
    no_namespaces: bool,
    /// Keep `<a></a>` instead of writing `<a/>` for empty elements.
    #[arg(long)]
    no_self_close: bool,
}

pub fn run(args: &FmtArgs) -> Result<(), Failure> {
    let input = read_input(&args.file)?;
    let bytes = &input[..];
    let mut config = Config::default();
    config.namespaces = !args.no_namespaces;
    config.base_uri = Some(args.file.to_string_lossy().into_owned());
    let mut reader = Reader::with_config(bytes, config);
    let mut wconfig = if args.pretty {
        WriterConfig::pretty(&" ".repeat(args.indent))
    } else {
        WriterConfig::default()
    };
    wconfig.self_close_empty = !args.no_self_close;
    let name = args.file.display().to_string();
    let mut writer = Writer::with_config(Vec::with_capacity(bytes.len() + 1024), wconfig);
    let fail = |e: xwire::Error| Failure {
        code: 1,
        message: report::error_with_caret(&name, &e, Some(bytes)),
    };
    // Peeking reads the XML declaration; the output is UTF-8, so only its standalone
    // declaration is carried over.
    reader.peek_kind().map_err(fail)?;
    if let Some(d) = reader.xml_decl() {
        let standalone = d.standalone;
        writer
            .xml_declaration("1.0", None, standalone)
            .map_err(|e| write_failure(&name, e))?;
    }
    loop {
        let event = reader.next().map_err(fail)?;
        if matches!(event, Event::Eof) {
            break;
        }
        writer
            .write_event(&event)
            .map_err(|e| write_failure(&name, e))?;
    }
    let out = writer.finish().map_err(|e| write_failure(&name, e))?;
    let written = match &args.output {
        Some(path) => std::fs::write(path, &out).map_err(|e| (path.display().to_string(), e)),
        None => std::io::stdout()
            .lock()
            .write_all(&out)
            .map_err(|e| ("standard output".to_string(), e)),
    };
    written.map_err(|(w, e)| Failure::usage(format!("xwire: {w}: {e}")))
}

fn write_failure(name: &str, e: xwire::writer::WriteError) -> Failure {
    Failure {
        code: 1,
        message: format!("{name}: error: cannot re-serialise: {e}"),
    }
}
