//! The code generated for the schemas the benchmark uses, checked in under `tests/golden/`:
//! a change to the generator that changes its output fails here until the files are updated
//! (`XWIRE_BLESS=1 cargo test -p xwire-codegen --test golden` writes them), so every change
//! to generated code is seen in review. Each file must also be formatted as rustfmt would.

use std::path::{Path, PathBuf};

use xwire_codegen::Api;

/// The benchmark's schemas (tests/schemas holds the ones made for these tests).
fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xwire-bench/schemas")
}

fn check(golden: &str, schemas_: &[&str], parsers: bool) {
    // Every API, so that all the generated code is seen in review and compiled by the tests.
    let apis: &[Api] = match parsers {
        true => &[Api::Objects, Api::Validate, Api::Events, Api::AnyType],
        false => &[],
    };
    let mut config = xwire_codegen::Config::new().apis(apis);
    for s in schemas_ {
        let own = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/schemas")
            .join(s);
        config = config.schema(if own.exists() { own } else { schemas().join(s) });
    }
    let code = config.generate().expect("generates").code;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(golden);
    if std::env::var_os("XWIRE_BLESS").is_some() {
        std::fs::write(&path, &code).expect("write golden file");
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (XWIRE_BLESS=1 writes it)", path.display()));
    assert!(
        want == code,
        "the code generated for {schemas_:?} differs from {}; if the change is meant, \
         run XWIRE_BLESS=1 cargo test -p xwire-codegen --test golden and review the diff",
        path.display()
    );
    rustfmt_clean(&path);
}

/// The file is as rustfmt formats it (rustfmt ships with the toolchain; CI installs it).
fn rustfmt_clean(path: &Path) {
    let out = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .arg(path)
        .output();
    match out {
        Ok(o) => assert!(
            o.status.success(),
            "{} is not rustfmt-clean:\n{}",
            path.display(),
            String::from_utf8_lossy(&o.stdout)
        ),
        Err(e) => panic!("rustfmt could not run ({e}): rustup component add rustfmt"),
    }
}

#[test]
fn purchase_order() {
    check("po.rs", &["po.xsd"], true);
}

#[test]
fn international_purchase_order() {
    check("ipo.rs", &["ipo.xsd"], true);
}

#[test]
fn drawing() {
    check("drawing.rs", &["drawing.xsd"], true);
}

#[test]
fn notes() {
    check("notes.rs", &["notes.xsd"], true);
}

#[test]
fn soap_encoding() {
    check("soap_encoding.rs", &["soap-encoding-1.1.xsd"], true);
}

#[test]
fn purchase_orders() {
    check("purchase_orders.rs", &["purchase-orders.xsd"], true);
}
