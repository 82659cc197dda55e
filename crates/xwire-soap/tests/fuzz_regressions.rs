//! The fuzz targets of `crates/xwire-soap/fuzz` (`envelope`, `encoding`), run as tests:
//! their bodies over the
//! committed seeds, every message of the SOAP corpora (SOAPBuilders, Axis2, Axiom; good
//! and bad), the same messages in binary XML and cut short, and the inputs the fuzzer
//! found (`tests/data/fuzz/`, named after their target).

#[path = "../fuzz/bodies.rs"]
mod bodies;

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "xml") {
            out.push(p);
        }
    }
}

fn run(data: &[u8], what: &str) {
    let r = std::panic::catch_unwind(|| bodies::envelope(data));
    assert!(r.is_ok(), "{what} fails (envelope)");
    let r = std::panic::catch_unwind(|| bodies::encoding(data));
    assert!(r.is_ok(), "{what} fails (encoding)");
}

#[test]
fn envelope_over_the_seeds_and_found_inputs() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&here.join("fuzz/seeds"), &mut files);
    assert!(files.len() >= 2, "seeds");
    let found = here.join("tests/data/fuzz");
    if found.is_dir() {
        for e in std::fs::read_dir(found).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    for f in files {
        run(&std::fs::read(&f).unwrap(), &f.display().to_string());
    }
}

#[test]
fn envelope_over_the_soap_corpora() {
    let Some(root) = xwire_conformance::corpus("soap") else {
        return;
    };
    let mut files = Vec::new();
    files_under(&root, &mut files);
    let mut binary = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f.display().to_string();
        run(&data, &name);
        // Cut short at a few places: a clear error, never a panic.
        for cut in [data.len() / 3, data.len() / 2, data.len().saturating_sub(2)] {
            run(&data[..cut], &format!("{name} cut at {cut}"));
        }
        // The same message as binary XML.
        if let Ok(env) = xwire_soap::Envelope::parse(&data) {
            let mut w = xwire::binary::BinaryWriter::new(Vec::new());
            env.write(&mut w).expect("encodes");
            let bytes = w.finish().expect("encodes");
            run(&bytes, &format!("{name} in binary"));
            binary += 1;
        }
    }
    eprintln!(
        "fuzz body over {} corpus messages, {binary} also in binary",
        files.len()
    );
    assert!(
        files.len() > 600 && binary > 400,
        "{} and {binary}",
        files.len()
    );
}

/// A message that is not XML because its encoding declaration holds NUL bytes: the error
/// quoted them, and the fault's reason could not be written. Fault texts now replace what
/// XML cannot hold.
#[test]
fn envelope_nul_in_fault_reason() {
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/envelope-nul-in-fault-reason"),
    )
    .unwrap();
    bodies::envelope(&data);
    let f = xwire_soap::Fault::new(xwire_soap::Code::Sender, "a\u{0}b\u{FFFF}");
    let bytes = f.to_envelope(xwire_soap::Version::V11).to_bytes().unwrap();
    let back = xwire_soap::Envelope::parse(&bytes)
        .unwrap()
        .fault()
        .unwrap()
        .unwrap();
    assert_eq!(back.reason(), "a\u{FFFD}b\u{FFFD}");
}

/// An `xsi:type` without a prefix (`xsdƖtring`) names a type in no namespace; writing it
/// bound a prefix to the empty namespace name, which XML 1.0 forbids. A type in no
/// namespace is now written unprefixed.
#[test]
fn encoding_type_in_no_namespace() {
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/encoding-type-in-no-namespace"),
    )
    .unwrap();
    bodies::encoding(&data);
}

/// A 1.1 array of arrays whose inner items are typed in another namespace, written in 1.2:
/// the inner array's item type took the prefix `t`, already bound above it to the
/// namespace of the `xsi:type` just written on the same element, which then resolved to
/// the wrong type. New prefixes are now ones bound nowhere in scope.
#[test]
fn encoding_prefix_shadowed() {
    let data = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/encoding-prefix-shadowed"),
    )
    .unwrap();
    bodies::encoding(&data);
}
