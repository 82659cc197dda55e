//! `xwire conformance xsd` end to end: the processor choice, the filter, the closing lines and
//! the exit codes.

use std::process::{Command, Output};

fn xwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(args)
        .output()
        .expect("runs")
}

fn corpus_present() -> bool {
    let found = xwire_conformance::corpora_dir().is_some_and(|d| d.join("xsdtests").is_dir());
    if !found {
        let msg = "corpus 'xsdtests' not found (set XWIRE_CORPORA or check out ../shared/corpora)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
    }
    found
}

fn xmllint_present() -> bool {
    let found = Command::new("xmllint").arg("--version").output().is_ok();
    if !found {
        let msg = "xmllint not found (scripts/install-peers.sh installs libxml2-utils)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
    }
    found
}

#[test]
fn xmllint_over_one_set_closes_with_both_lines() {
    if !corpus_present() || !xmllint_present() {
        return;
    }
    // Sun's AGroupDef set: 13 schema tests and 6 instance tests, all XSD 1.0 and accepted.
    let o = xwire(&[
        "conformance",
        "xsd",
        "--filter",
        "sunMeta/AGroupDef.testSet",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "{out}");
    let total = |line: &str| -> usize {
        let (_, counts) = line.split_once(": ").expect("closing line");
        counts
            .split(", ")
            .map(|c| c.split(' ').next().unwrap().parse::<usize>().unwrap())
            .sum()
    };
    assert!(lines[n - 2].starts_with("xsd schema tests: "), "{out}");
    assert!(lines[n - 1].starts_with("xsd instance tests: "), "{out}");
    assert_eq!((total(lines[n - 2]), total(lines[n - 1])), (13, 6), "{out}");
    assert!(out.contains("sun "), "{out}");
    // Exit code 0 when every test passed, 1 when one failed.
    let all_pass = lines[n - 2].contains(" 0 failed") && lines[n - 1].contains(" 0 failed");
    assert_eq!(o.status.code(), Some(if all_pass { 0 } else { 1 }), "{out}");

    let o = xwire(&[
        "conformance",
        "xsd",
        "--json",
        "--filter",
        "sunMeta/AGroupDef.testSet",
    ]);
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(
        json.starts_with("{\"suite\":\"xsd\",\"processor\":\"xmllint\""),
        "{json}"
    );
    assert!(json.contains("\"contributors\":{\"sun\":"), "{json}");

    let o = xwire(&["conformance", "xsd", "--filter", "no-such-set"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no test set or group matches"));
}

#[test]
fn xwire_processor_runs_a_set() {
    if !corpus_present() {
        return;
    }
    let o = xwire(&[
        "conformance",
        "xsd",
        "--processor",
        "xwire",
        "--filter",
        "msMeta/Group_w3c.xml",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("xsd schema tests: 218 passed, 0 failed, 0 skipped"),
        "{out}"
    );
    assert!(
        out.contains("xsd instance tests: 126 passed, 0 failed, 0 skipped"),
        "{out}"
    );
}
