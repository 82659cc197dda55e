//! Compiles the C shims for the peers whose development files are installed (found through
//! pkg-config) and sets `xwire_libxml2` / `xwire_expat`. Without them the benchmark still
//! builds and lists those peers as not found (`scripts/install-peers.sh` installs them).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(xwire_libxml2)");
    println!("cargo::rustc-check-cfg=cfg(xwire_expat)");
    println!("cargo:rerun-if-changed=shim");
    println!("cargo:rerun-if-env-changed=XWIRE_NO_C_PEERS");
    if std::env::var_os("XWIRE_NO_C_PEERS").is_some() {
        return;
    }
    shim("libxml-2.0", "shim/libxml2_shim.c", "xwire_libxml2");
    shim("expat", "shim/expat_shim.c", "xwire_expat");
}

/// Builds one shim against a pkg-config package. The shim's static library must precede the
/// shared library on the link line (the linker keeps only shared libraries already needed), so
/// pkg-config's link flags are printed after `cc` compiles.
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
