//! `xwire parse`, run as a program: the characteristics it prints, mapped and streamed.

use std::process::Command;

const DOC: &str = r#"<!DOCTYPE a [<!ENTITY e SYSTEM "e.xml">]>
<a xmlns="urn:a" xmlns:p="urn:p" x="1" p:y="2"><b>t&amp;&e;</b><p:b><![CDATA[c]]></p:b><b/></a>"#;

#[test]
fn characteristics_one_a_line_mapped_or_streamed() {
    let dir = std::env::temp_dir().join(format!("xwire-parse-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("doc.xml");
    std::fs::write(&file, DOC).unwrap();
    let expected = format!(
        "{}: well-formed
  size: 137 bytes
  elements: 4
  attributes: 2
  max depth: 2
  distinct element names: 3
  attributes per element: 0.50
  namespace declarations: 2
  text: 3 bytes
  entity references not read: 1 (external entities are read only with --load-external)
",
        file.display()
    );
    for stream in [false, true] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_xwire"));
        cmd.arg("parse").arg(&file);
        if stream {
            cmd.arg("--stream");
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected,
            "--stream {stream}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A read that fails (here: a directory given as the file, which opens but cannot be read) is
/// an I/O error, exit code 2, where a document that is not well-formed is 1.
#[test]
fn a_failed_read_exits_2_and_a_bad_document_1() {
    let dir = std::env::temp_dir().join(format!("xwire-parse-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.xml");
    std::fs::write(&bad, "<a><b></a>").unwrap();
    let run = |path: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_xwire"))
            .args(["parse", "--stream"])
            .arg(path)
            .output()
            .unwrap()
    };
    let out = run(&dir);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("I/O error"));
    assert_eq!(run(&bad).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}
