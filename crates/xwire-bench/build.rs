//! Compiles the C and C++ shims for the peers whose development files are installed (found
//! through pkg-config) and sets `xwire_libxml2` / `xwire_expat` / `xwire_xerces` /
//! `xwire_pugixml`. Without them the benchmark still builds and lists those peers as not found
//! (`scripts/install-peers.sh` installs them); `XWIRE_NO_C_PEERS=1` leaves them all out.
//! It also generates, with xwire-codegen, the parsers of the `bind` operation from the
//! workloads' schemas (`po.xsd`, `ipo.xsd`, `purchase-orders.xsd`), as a user's build
//! script would.

fn main() {
    for cfg in [
        "xwire_libxml2",
        "xwire_expat",
        "xwire_xerces",
        "xwire_pugixml",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    for (schema, out) in [
        ("schemas/po.xsd", "po.rs"),
        ("schemas/ipo.xsd", "ipo.rs"),
        ("schemas/purchase-orders.xsd", "purchase_orders.rs"),
    ] {
        if let Err(e) = xwire_codegen::Config::new()
            .schema(schema)
            .apis(&[
                xwire_codegen::Api::Objects,
                xwire_codegen::Api::Validate,
                xwire_codegen::Api::Events,
            ])
            .compile_to_out_dir(out)
        {
            panic!("{schema}: {e}");
        }
    }
    println!("cargo:rerun-if-changed=shim");
    println!("cargo:rerun-if-env-changed=XWIRE_NO_C_PEERS");
    if std::env::var_os("XWIRE_NO_C_PEERS").is_some() {
        return;
    }
    shim("libxml-2.0", "shim/libxml2_shim.c", "xwire_libxml2");
    shim("expat", "shim/expat_shim.c", "xwire_expat");
    shim("xerces-c", "shim/xerces_shim.cpp", "xwire_xerces");
    shim("pugixml", "shim/pugixml_shim.cpp", "xwire_pugixml");
}

/// Builds one shim against a pkg-config package (C++ when the source ends in `.cpp`; cc then
/// links the C++ standard library). The shim's static library must precede the shared library
/// on the link line (the linker keeps only shared libraries already needed), so pkg-config's
/// link flags are printed after `cc` compiles.
fn shim(package: &str, source: &str, cfg: &str) {
    let Ok(lib) = pkg_config::Config::new()
        .cargo_metadata(false)
        .probe(package)
    else {
        println!("cargo:warning={package} not found by pkg-config: that peer is left out");
        return;
    };
    let mut build = cc::Build::new();
    build.file(source).warnings(true);
    if source.ends_with(".cpp") {
        build.cpp(true).std("c++17");
    }
    for dir in &lib.include_paths {
        build.include(dir);
    }
    build.compile(cfg);
    for dir in &lib.link_paths {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
    for name in &lib.libs {
        println!("cargo:rustc-link-lib={name}");
    }
    println!("cargo:rustc-cfg={cfg}");
}
