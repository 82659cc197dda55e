//! `xwire canon`, run as a program: whole documents and XPath-selected document subsets.

use std::process::{Command, Output};

fn canon(xml: &str, args: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("xwire-canon-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("doc-{}.xml", args.join(" ").len()));
    std::fs::write(&file, xml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xwire"))
        .arg("canon")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    out
}

fn stdout(out: &Output) -> &str {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::str::from_utf8(&out.stdout).unwrap()
}

const DOC: &str = r#"<a xmlns:p="urn:p" xmlns="urn:d" xml:lang="en"><p:b x="1" p:y="2"><c>t</c><!--k--></p:b><d/></a>"#;
const SUBTREE: &str = "(//. | //@* | //namespace::*)[ancestor-or-self::q:b]";

#[test]
fn whole_document() {
    assert_eq!(
        stdout(&canon(DOC, &[])),
        r#"<a xmlns="urn:d" xmlns:p="urn:p" xml:lang="en"><p:b x="1" p:y="2"><c>t</c></p:b><d></d></a>"#
    );
}

#[test]
fn xpath_subset_in_each_mode() {
    let ns = ["--xpath", SUBTREE, "--ns", "q=urn:p"];
    assert_eq!(
        stdout(&canon(DOC, &ns)),
        r#"<p:b xmlns="urn:d" xmlns:p="urn:p" x="1" xml:lang="en" p:y="2"><c>t</c></p:b>"#
    );
    assert_eq!(
        stdout(&canon(DOC, &[&ns[..], &["--with-comments"]].concat())),
        r#"<p:b xmlns="urn:d" xmlns:p="urn:p" x="1" xml:lang="en" p:y="2"><c>t</c><!--k--></p:b>"#
    );
    assert_eq!(
        stdout(&canon(DOC, &[&ns[..], &["--exclusive"]].concat())),
        r#"<p:b xmlns:p="urn:p" x="1" p:y="2"><c xmlns="urn:d">t</c></p:b>"#
    );
    assert_eq!(
        stdout(&canon(
            DOC,
            &[
                &ns[..],
                &["--exclusive", "--inclusive-prefixes", "#default"]
            ]
            .concat()
        )),
        r#"<p:b xmlns="urn:d" xmlns:p="urn:p" x="1" p:y="2"><c>t</c></p:b>"#
    );
    // Attributes and namespace nodes count only when selected.
    assert_eq!(
        stdout(&canon(
            DOC,
            &[
                "--xpath",
                "//*[ancestor-or-self::q:b] | //text()",
                "--ns",
                "q=urn:p",
                "--c14n11"
            ]
        )),
        r#"<p:b xml:lang="en"><c>t</c></p:b>"#
    );
}

#[test]
fn bad_expressions_are_usage_errors() {
    let out = canon(DOC, &["--xpath", "count(//a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains('^'));
    let out = canon(DOC, &["--xpath", "count(//*)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("node-set"));
    let out = canon(DOC, &["--xpath", "//q:b", "--ns", "q"]);
    assert_eq!(out.status.code(), Some(2));
}
