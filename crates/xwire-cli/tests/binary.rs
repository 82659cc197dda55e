//! `xwire encode`, `xwire decode` and `xwire inspect`, run as a program.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch directory of this test process.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xwire-binary-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn xwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

const DOC: &str = "<m xmlns=\"urn:m\"><!--c--><v>2.5</v><a>1.0 2.0 3.0</a><t>hi</t></m>";

/// Encodes DOC with `v` a double leaf and `a` an array of doubles; the file's path.
fn encoded(test: &str) -> PathBuf {
    let d = dir(test);
    let xml = d.join("doc.xml");
    let xwb = d.join("doc.xwb");
    std::fs::write(&xml, DOC).unwrap();
    ok(&xwire(&[
        "encode",
        xml.to_str().unwrap(),
        "--type",
        "{urn:m}v=f64",
        "--type",
        "{urn:m}a=f64[]",
        "-o",
        xwb.to_str().unwrap(),
    ]));
    xwb
}

#[test]
fn encode_then_decode_gives_the_document_back() {
    let xwb = encoded("decode");
    let bytes = std::fs::read(&xwb).unwrap();
    assert!(bytes.starts_with(b"\x89XWB\r\n\x1a\n"));
    assert_eq!(ok(&xwire(&["decode", xwb.to_str().unwrap()])), DOC);
}

#[test]
fn values_only_writes_every_typed_element_as_its_value() {
    let d = dir("values-only");
    let xml = d.join("doc.xml");
    let xwb = d.join("doc.xwb");
    std::fs::write(&xml, "<a>1 2 3</a>").unwrap();
    let encode = |extra: &[&str]| {
        let mut args = vec!["encode", xml.to_str().unwrap(), "--type", "a=f64[]"];
        args.extend(extra);
        args.extend(["-o", xwb.to_str().unwrap()]);
        ok(&xwire(&args));
        ok(&xwire(&["decode", xwb.to_str().unwrap()]))
    };
    // `1` is not the canonical form of the double 1 (`1.0`): kept as text by default.
    assert_eq!(encode(&[]), "<a>1 2 3</a>");
    assert_eq!(encode(&["--values-only"]), "<a>1.0 2.0 3.0</a>");
}

#[test]
fn inspect_shows_every_frame_with_its_layout() {
    let xwb = encoded("inspect");
    let bytes = std::fs::read(&xwb).unwrap();
    let dump = ok(&xwire(&["inspect", xwb.to_str().unwrap()]));
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(
        lines[0],
        format!("header: version 1, flags 0x00, {} bytes", bytes.len())
    );
    assert!(lines[1].starts_with("@10 DOCUMENT little-endian, body "));
    assert!(lines[1].ends_with("string table of 5 strings"), "{dump}");
    let strings: Vec<&str> = lines[2..7].to_vec();
    assert_eq!(
        strings,
        [
            "  string 0 \"urn:m\"",
            "  string 1 \"m\"",
            "  string 2 \"v\"",
            "  string 3 \"a\"",
            "  string 4 \"t\""
        ]
    );
    // One line per frame, each at the offset of its prefix byte, whose kind it names.
    let kinds = [
        ("ELEMENT", 0x02),
        ("COMMENT", 0x07),
        ("LEAF", 0x03),
        ("ARRAY", 0x04),
        ("ELEMENT", 0x02),
        ("TEXT", 0x05),
    ];
    let frames: Vec<&str> = lines.iter().copied().filter(|l| l.contains(" @")).collect();
    assert_eq!(frames.len(), kinds.len(), "{dump}");
    for (line, (kind, code)) in frames.iter().zip(kinds) {
        let at: usize = line.trim_start()[1..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(bytes[at], code, "{line}");
        assert!(
            line.contains(&format!(" {kind} little-endian, body ")),
            "{line}"
        );
    }
    assert!(dump.contains("      f64 \"2.5\" at "), "{dump}");
    // The array's values: where they lie, aligned to 8, and viewed in place.
    let array = lines
        .iter()
        .find(|l| l.trim_start().starts_with("f64[3]"))
        .expect("the array's values");
    let range = array
        .split(" at ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let (s, e) = range.split_once("..").unwrap();
    let (s, e): (usize, usize) = (s.parse().unwrap(), e.parse().unwrap());
    assert_eq!((s % 8, e - s), (0, 24), "{array}");
    assert_eq!(&bytes[s..s + 8], &1.0f64.to_le_bytes());
    assert!(
        array.ends_with("(offset aligned to 8), viewed in place: 1.0 2.0 3.0"),
        "{array}"
    );
}

#[test]
fn inspect_shows_the_frames_before_an_error() {
    let xwb = encoded("truncated");
    let mut bytes = std::fs::read(&xwb).unwrap();
    // Make the TEXT frame's kind a reserved one.
    let text = bytes.len() - 4;
    assert_eq!(bytes[text], 0x05);
    bytes[text] = 0x7F;
    std::fs::write(&xwb, &bytes).unwrap();
    let out = xwire(&["inspect", xwb.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(" ARRAY little-endian"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("reserved frame kind 0x7F"), "{stderr}");
}

#[test]
fn inspect_refuses_text_xml() {
    let d = dir("text");
    let xml = d.join("doc.xml");
    std::fs::write(&xml, DOC).unwrap();
    let out = xwire(&["inspect", xml.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a binary XML document"));
}
