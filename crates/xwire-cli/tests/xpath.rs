//! `xwire xpath` end to end: output forms, options and exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn doc(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xwire-cli-xpath-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn xwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const PO: &str =
    r#"<po xmlns:p="urn:p"><p:item sku="1">A &amp; B</p:item><item sku="2"/><!--c--></po>"#;

#[test]
fn prints_nodes_one_per_line() {
    let f = doc("po.xml", PO);
    let f = f.to_str().unwrap();
    let o = xwire(&["xpath", "//p:item | //comment()", f, "--ns", "p=urn:p"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "<p:item sku=\"1\">A &amp; B</p:item>\n<!--c-->\n"
    );
    let o = xwire(&["xpath", "//@sku", f]);
    assert_eq!(stdout(&o), "sku=\"1\"\nsku=\"2\"\n");
    let o = xwire(&["xpath", "--values", "/po/*", f]);
    assert_eq!(stdout(&o), "A & B\n\n");
    let o = xwire(&["xpath", "--count", "//@sku", f, f]);
    assert_eq!(stdout(&o), format!("{f}:2\n{f}:2\n"));
}

#[test]
fn prints_scalars() {
    let f = doc("scalars.xml", PO);
    let f = f.to_str().unwrap();
    for (e, want) in [
        ("sum(//@sku) div 4", "0.75\n"),
        (
            "count(//@sku) * 1000000 * 1000000 * 1000000 * 1000",
            "2000000000000000000000\n",
        ),
        ("1 div 0", "Infinity\n"),
        ("//item = 'A & B'", "false\n"),
        ("concat($v, '!')", "hi!\n"),
    ] {
        let o = xwire(&["xpath", e, f, "--var", "v=hi"]);
        assert_eq!(o.status.code(), Some(0), "{e}");
        assert_eq!(stdout(&o), want, "{e}");
    }
}

#[test]
fn exit_codes() {
    let f = doc("codes.xml", PO);
    let f = f.to_str().unwrap();
    // Nothing selected: 1, like grep.
    let o = xwire(&["xpath", "//nothing", f]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    // A bad expression: 2, with the caret.
    let o = xwire(&["xpath", "//item[", f]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("//item[\n") && err.contains('^'), "{err}");
    // An undeclared prefix, an evaluation error, a bad document, a bad binding.
    assert_eq!(xwire(&["xpath", "//q:x", f]).status.code(), Some(2));
    assert_eq!(xwire(&["xpath", "1/x", f]).status.code(), Some(2));
    assert_eq!(xwire(&["xpath", "$undefined", f]).status.code(), Some(2));
    let bad = doc("bad.xml", "<a><b></a>");
    assert_eq!(
        xwire(&["xpath", "/a", bad.to_str().unwrap()]).status.code(),
        Some(2)
    );
    assert_eq!(
        xwire(&["xpath", "1", f, "--ns", "p"]).status.code(),
        Some(2)
    );
}
