//! `xwire edit` end to end: each action, byte-for-byte preservation of what no action
//! touches, the overlap rules, output options and exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn doc(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xwire-cli-edit-{}", std::process::id()));
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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `xwire edit FILE ARGS...` on a fresh copy of `text`, expecting success.
fn edit(text: &str, args: &[&str]) -> String {
    // Tests run in parallel: one file per call.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let f = doc(&format!("in{n}.xml"), text);
    let mut all = vec!["edit", f.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = xwire(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Odd white space, both quote styles, a DOCTYPE, references, CDATA, comments and PIs: none
/// of it may change where no action looks.
const ODD: &str = concat!(
    "<?xml version='1.0' encoding=\"UTF-8\"?>\r\n",
    "<!DOCTYPE po [ <!ENTITY co \"ACME\"> ]>\n",
    "<!--  head \t comment -->\n",
    "<po   xmlns:p = 'urn:p'\n      id=\"7\"  note='a &quot;b&quot;' >\n",
    "\t<p:item  sku = \"1\" >A &amp; B &#x41; &co;</p:item   >\n",
    "  <item sku='2'/><!--c-->\n",
    "  <![CDATA[ <raw> ]]>\n",
    "  <?pi   some  data ?>\n",
    "</po  >\n<!-- tail -->\n",
);

#[test]
fn delete_each_kind() {
    // Elements with their content, attributes with the white space before them, text,
    // comments, PIs.
    assert_eq!(
        edit(ODD, &["--delete", "//p:item", "--ns", "p=urn:p"]),
        ODD.replace(
            "\t<p:item  sku = \"1\" >A &amp; B &#x41; &co;</p:item   >",
            "\t"
        )
    );
    assert_eq!(
        edit(ODD, &["--delete", "/po/@note"]),
        ODD.replace("  note='a &quot;b&quot;'", "")
    );
    assert_eq!(
        edit(ODD, &["--delete", "//comment()"]),
        ODD.replace("<!--  head \t comment -->", "")
            .replace("<!--c-->", "")
            .replace("<!-- tail -->", "")
    );
    assert_eq!(
        edit(ODD, &["--delete", "//processing-instruction('pi')"]),
        ODD.replace("<?pi   some  data ?>", "")
    );
    // The text node after `<!--c-->` is white space, a CDATA section and white space.
    assert_eq!(
        edit(ODD, &["--delete", "/po/text()[contains(., 'raw')]"]),
        ODD.replace("\n  <![CDATA[ <raw> ]]>\n  ", "")
    );
}

#[test]
fn set_each_kind() {
    // Element content becomes escaped text; attribute values keep their quote style.
    assert_eq!(
        edit(ODD, &["--set", "//item", "x < y & z"]),
        ODD.replace("<item sku='2'/>", "<item sku='2'>x &lt; y &amp; z</item>")
    );
    assert_eq!(
        edit(ODD, &["--set", "//@note", "it's \"q\""]),
        ODD.replace("note='a &quot;b&quot;'", "note='it&apos;s \"q\"'")
    );
    assert_eq!(
        edit(ODD, &["--set", "//@sku", "-1"]),
        ODD.replace("sku = \"1\"", "sku = \"-1\"")
            .replace("sku='2'", "sku='-1'")
    );
    assert_eq!(
        edit(ODD, &["--set", "//comment()[.='c']", " new "]),
        ODD.replace("<!--c-->", "<!-- new -->")
    );
    assert_eq!(
        edit(ODD, &["--set", "//processing-instruction()", "x=1"]),
        ODD.replace("<?pi   some  data ?>", "<?pi x=1?>")
    );
    let ns = ["--ns", "p=urn:p"];
    assert_eq!(
        edit(
            ODD,
            &[&["--set", "//p:item/text()", "plain"][..], &ns].concat()
        ),
        ODD.replace("A &amp; B &#x41; &co;", "plain")
    );
}

#[test]
fn insert_and_replace() {
    let ns = ["--ns", "p=urn:p"];
    let out = edit(
        ODD,
        &[
            &[
                "--insert-before",
                "//p:item",
                "<p:new/>",
                "--insert-after",
                "//item",
                "<!--after--><x a='1'>t</x>",
            ][..],
            &ns,
        ]
        .concat(),
    );
    assert_eq!(
        out,
        ODD.replace("\t<p:item ", "\t<p:new/><p:item ").replace(
            "<item sku='2'/>",
            "<item sku='2'/><!--after--><x a='1'>t</x>"
        )
    );
    // The prefixes in scope where the markup goes can be used.
    assert_eq!(
        edit(ODD, &["--replace", "//item", "<p:item2>&amp;</p:item2>"]),
        ODD.replace("<item sku='2'/>", "<p:item2>&amp;</p:item2>")
    );
    assert_eq!(
        edit(ODD, &["--replace", "//comment()[.='c']", "<?done?>"]),
        ODD.replace("<!--c-->", "<?done?>")
    );
    // Several insertions at one place come out in the order given.
    assert_eq!(
        edit(
            "<a><b/></a>",
            &[
                "--insert-after",
                "//b",
                "<c/>",
                "--insert-after",
                "//b",
                "<d/>",
                "--insert-before",
                "//b",
                "x"
            ]
        ),
        "<a>x<b/><c/><d/></a>"
    );
}

#[test]
fn untouched_bytes_are_kept() {
    // No change where no action looks, even with several actions.
    let out = edit(
        ODD,
        &[
            "--set",
            "/po/@id",
            "8",
            "--delete",
            "//processing-instruction()",
            "--insert-after",
            "//item",
            "<n/>",
        ],
    );
    assert_eq!(
        out,
        ODD.replace("id=\"7\"", "id=\"8\"")
            .replace("<?pi   some  data ?>", "")
            .replace("<item sku='2'/>", "<item sku='2'/><n/>")
    );
    // An action that selects nothing (allowed) leaves the document as it was.
    assert_eq!(edit(ODD, &["--delete", "//none", "--allow-empty"]), ODD);
}

#[test]
fn actions_run_in_the_order_given() {
    let d = "<r><a/></r>";
    assert_eq!(
        edit(
            d,
            &[
                "--insert-after",
                "//a",
                "<x/>",
                "--insert-after",
                "//a",
                "<y/>"
            ]
        ),
        "<r><a/><x/><y/></r>"
    );
    assert_eq!(
        edit(
            d,
            &[
                "--insert-after",
                "//a",
                "<y/>",
                "--insert-after",
                "//a",
                "<x/>"
            ]
        ),
        "<r><a/><y/><x/></r>"
    );
    // Expressions see the original document: the inserted `b` is not selected.
    assert_eq!(
        edit(
            d,
            &[
                "--insert-after",
                "//a",
                "<b/>",
                "--set",
                "//b",
                "t",
                "--allow-empty"
            ]
        ),
        "<r><a/><b/></r>"
    );
}

#[test]
fn nodes_inside_deleted_nodes_are_skipped() {
    let d = r#"<r><a n="1"><b>x</b><!--c--></a><a n="2"/></r>"#;
    // Inner nodes first or last: either way the outer deletion wins.
    for args in [
        &["--delete", "//b", "--delete", "//@n", "--delete", "//a"][..],
        &[
            "--delete",
            "//a",
            "--delete",
            "//b",
            "--set",
            "//comment()",
            "z",
        ][..],
        &["--set", "//b", "y", "--replace", "//a", "<z/>"][..],
    ] {
        let out = edit(d, args);
        assert!(!out.contains('b') && !out.contains("n="), "{args:?}: {out}");
    }
    assert_eq!(
        edit(d, &["--delete", "//a", "--delete", "//*[@n]"]),
        "<r></r>"
    );
    // Nested selections of one expression.
    assert_eq!(
        edit("<r><d><d/></d><d/></r>", &["--delete", "//d"]),
        "<r></r>"
    );
    // Setting an element's content replaces its children, not its attributes.
    assert_eq!(
        edit(
            d,
            &[
                "--set",
                "//a[1]",
                "t",
                "--set",
                "//a[1]/@n",
                "9",
                "--delete",
                "//b"
            ]
        ),
        r#"<r><a n="9">t</a><a n="2"/></r>"#
    );
}

#[test]
fn output_options() {
    let f = doc("inplace.xml", "<a x='1'> <b/> </a>");
    let fs = f.to_str().unwrap();
    let out = f.with_file_name("out.xml");
    let o = xwire(&["edit", fs, "--delete", "//b", "-o", out.to_str().unwrap()]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "<a x='1'>  </a>");
    let o = xwire(&["edit", fs, "--set", "//@x", "2", "--in-place"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "<a x='2'> <b/> </a>");
    // Standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(["edit", "-", "--delete", "//b"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"<a><b/>t</a>")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(stdout(&o), "<a>t</a>");
}

#[test]
fn empty_selection_exits_1() {
    let f = doc("empty.xml", "<a><b/></a>");
    let fs = f.to_str().unwrap();
    let o = xwire(&["edit", fs, "--delete", "//b", "--delete", "//zz"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    assert!(
        stderr(&o).contains("--delete '//zz' selected nothing"),
        "{}",
        stderr(&o)
    );
    // Nothing written in place either.
    let o = xwire(&[
        "edit",
        fs,
        "--delete",
        "//b",
        "--delete",
        "//zz",
        "--in-place",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "<a><b/></a>");
    let o = xwire(&[
        "edit",
        fs,
        "--delete",
        "//b",
        "--delete",
        "//zz",
        "--allow-empty",
    ]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "<a></a>"));
}

#[test]
fn errors_exit_2() {
    let f = doc("errors.xml", r#"<a xmlns:p="urn:p"><b x="1"/><!--c--></a>"#);
    let fs = f.to_str().unwrap();
    let fails = |args: &[&str], needle: &str| {
        let mut all = vec!["edit", fs];
        all.extend_from_slice(args);
        let o = xwire(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    };
    fails(&[], "no action given");
    fails(&["--delete", "//b["], "^");
    fails(&["--delete", "//q:b"], "--delete");
    fails(&["--delete", "count(//b)"], "node-set");
    fails(&["--delete", "//b", "--ns", "p"], "PREFIX=URI");
    // Markup that is not well-formed content where it goes.
    fails(&["--insert-after", "//b", "<c>"], "not well-formed");
    fails(&["--insert-after", "//b", "<q:c/>"], "prefix 'q'");
    fails(&["--replace", "//b", "&undeclared;"], "not well-formed");
    fails(&["--insert-before", "//b", "</a><a>"], "not well-formed");
    // Nodes no action can edit.
    fails(&["--delete", "//namespace::p"], "namespace node");
    fails(&["--set", "/", "x"], "document node");
    fails(&["--insert-after", "//@x", "<c/>"], "attribute");
    fails(&["--set", "//comment()", "a--b"], "'--'");
    // Two edits of the same bytes.
    fails(&["--set", "//@x", "1", "--set", "//b/@*", "2"], "overlaps");
    fails(
        &["--set", "//b", "t", "--replace", "//b", "<c/>"],
        "overlaps",
    );
    // A document that would not be well-formed any more.
    fails(&["--delete", "/a"], "not well-formed");
    fails(&["--insert-after", "/a", "<second/>"], "not well-formed");
    // Bad input and bad options.
    let bad = doc("bad.xml", "<a><b></a>");
    let o = xwire(&["edit", bad.to_str().unwrap(), "--delete", "//b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.xml:1:"), "{}", stderr(&o));
    let o = xwire(&["edit", "-", "--delete", "//b", "--in-place"]);
    assert_eq!(o.status.code(), Some(2));
    let o = xwire(&["edit", fs, "--delete", "//b", "--in-place", "-o", "x.xml"]);
    assert_eq!(o.status.code(), Some(2));
}
