//! Compiles the C and C++ shims for the peers whose development files are installed (found
//! through pkg-config) and sets `xwire_libxml2` / `xwire_expat` / `xwire_xerces` /
//! `xwire_pugixml`. When the CodeSynthesis XSD compiler (`xsdcxx`) is on PATH as well as
//! Xerces-C++, it generates that compiler's C++/Parser and C++/Tree mappings of the `bind`
//! schemas into `OUT_DIR` and compiles them with their shims (`xwire_xsdcxx`). Without them
//! the benchmark still builds and lists those peers as not found (`scripts/install-peers.sh`
//! installs them); `XWIRE_NO_C_PEERS=1` leaves them all out.
//! It also generates, with xwire-codegen, the parsers of the `bind` operation from the
//! workloads' schemas (`po.xsd`, `ipo.xsd`, `purchase-orders.xsd`, `numeric.xsd`,
//! `soapinterop.xsd`, `mcs.xsd`), as a user's build script would.

fn main() {
    for cfg in [
        "xwire_libxml2",
        "xwire_expat",
        "xwire_xerces",
        "xwire_pugixml",
        "xwire_xsdcxx",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    for (schema, out) in [
        ("schemas/po.xsd", "po.rs"),
        ("schemas/ipo.xsd", "ipo.rs"),
        ("schemas/purchase-orders.xsd", "purchase_orders.rs"),
        ("schemas/numeric.xsd", "numeric.rs"),
        ("schemas/soapinterop.xsd", "soapinterop.rs"),
        ("schemas/mcs.xsd", "mcs.rs"),
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
    xsd_parser_peer();
    println!("cargo:rerun-if-changed=shim");
    println!("cargo:rerun-if-env-changed=XWIRE_NO_C_PEERS");
    if std::env::var_os("XWIRE_NO_C_PEERS").is_some() {
        return;
    }
    shim("libxml-2.0", "shim/libxml2_shim.c", "xwire_libxml2");
    shim("expat", "shim/expat_shim.c", "xwire_expat");
    shim("xerces-c", "shim/xerces_shim.cpp", "xwire_xerces");
    shim("pugixml", "shim/pugixml_shim.cpp", "xwire_pugixml");
    xsdcxx();
}

/// Generates, with the xsd-parser crate, the types and quick-xml deserializers of the `bind`
/// schemas into `OUT_DIR` (`xsd_parser_po.rs`, ...), as its documentation's build-script
/// recipe does: quick-xml deserialization only, with its boxed deserializers (the faster: the
/// unboxed ones spend their time moving their states, 10.5x against 17x xwire-compiled's time
/// on po-1m), typedefs resolved, struct content flattened,
/// and the simple types' restrictions kept (the default optimizer flags replace a restricted
/// simple type by its base type, so no facet would be checked; xsd-parser's own facet tests
/// drop that flag as well). Not ipo.xsd: its addresses are chosen by `xsi:type` on elements
/// declared with the non-abstract base type, and xsd-parser's deserializers follow `xsi:type`
/// only for abstract types and substitution groups (its "dynamic types"): the base type's
/// deserializer rejects the derived type's content (`Unexpected attribute: exportCode`).
fn xsd_parser_peer() {
    use xsd_parser::config::{GeneratorFlags, OptimizerFlags, Schema};
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    for (schema, file) in [
        ("schemas/po.xsd", "xsd_parser_po.rs"),
        (
            "schemas/purchase-orders.xsd",
            "xsd_parser_purchase_orders.rs",
        ),
    ] {
        println!("cargo:rerun-if-changed={schema}");
        let path = std::path::Path::new(schema).canonicalize().expect(schema);
        let config = xsd_parser::Config::default()
            .with_schema(Schema::File(path))
            .with_optimizer_flags(OptimizerFlags::RESOLVE_TYPEDEFS)
            .without_optimizer_flags(OptimizerFlags::USE_UNRESTRICTED_BASE_TYPE_SIMPLE)
            .with_generator_flags(GeneratorFlags::FLATTEN_STRUCT_CONTENT)
            .with_quick_xml_deserialize_config(true);
        let code = xsd_parser::generate(config).unwrap_or_else(|e| panic!("{schema}: {e}"));
        std::fs::write(out.join(file), code.to_string()).expect(file);
    }
}

/// The schemas of the `bind` workloads and the C++ namespaces their mappings go in (po.xsd
/// has no target namespace; the three would otherwise clash in one library).
const XSDCXX_SCHEMAS: [(&str, &str); 3] = [
    ("po.xsd", "=po"),
    ("ipo.xsd", "http://www.example.com/IPO=ipo"),
    ("purchase-orders.xsd", "http://www.example.com/PO1=pos"),
];

/// Generates the C++/Parser mapping (with validation code and no-op implementations) and the
/// C++/Tree mapping of the `bind` schemas with `xsdcxx`, and builds them with
/// `shim/xsdcxx_*_shim.cpp` against Xerces-C++. The XML Schema built-in types of each mapping
/// are generated once (`--generate-xml-schema`) and shared (`--extern-xml-schema`). ipo.xsd's
/// addresses are chosen by `xsi:type`, which both mappings follow only when polymorphic.
/// `--std c++11` makes xsd 4.0 use `std::unique_ptr` (not `std::auto_ptr`, gone in C++17);
/// the generated code compiles as C++17.
fn xsdcxx() {
    for (schema, _) in XSDCXX_SCHEMAS {
        println!("cargo:rerun-if-changed=schemas/{schema}");
    }
    if std::process::Command::new("xsdcxx")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("cargo:warning=xsdcxx not found on PATH: the xsdcxx peers are left out");
        return;
    }
    let Ok(lib) = pkg_config::Config::new()
        .cargo_metadata(false)
        .probe("xerces-c")
    else {
        return;
    };
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("xsdcxx");
    std::fs::create_dir_all(&out).expect("OUT_DIR/xsdcxx");
    let schemas = std::path::Path::new("schemas")
        .canonicalize()
        .expect("schemas/");
    let run = |mapping: &str, args: &[&str], what: &str| {
        let mut cmd = std::process::Command::new("xsdcxx");
        cmd.arg(mapping).args(["--std", "c++11", "--output-dir"]);
        cmd.arg(&out);
        if mapping == "cxx-parser" {
            // The no-op implementations are not overwritten without it.
            cmd.args([
                "--xml-parser",
                "xerces",
                "--generate-validation",
                "--force-overwrite",
            ]);
        }
        let o = cmd.args(args).output().expect("xsdcxx runs");
        assert!(
            o.status.success(),
            "xsdcxx {mapping} {what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let mut generated = Vec::new();
    for mapping in ["cxx-parser", "cxx-tree"] {
        run(
            mapping,
            &[
                "--generate-polymorphic",
                "--generate-xml-schema",
                "xml-schema.xsd",
            ],
            "xml-schema.xsd",
        );
        for (schema, namespace) in XSDCXX_SCHEMAS {
            let path = schemas.join(schema);
            let path = path.to_str().expect("UTF-8 path");
            let mut args = vec!["--extern-xml-schema", "xml-schema.xsd"];
            args.extend(["--namespace-map", namespace]);
            if schema == "ipo.xsd" {
                args.push("--generate-polymorphic");
            }
            if mapping == "cxx-parser" {
                args.push("--generate-noop-impl");
            }
            args.push(path);
            run(mapping, &args, schema);
            let stem = schema.trim_end_matches(".xsd");
            if mapping == "cxx-parser" {
                generated.push(out.join(format!("{stem}-pskel.cxx")));
                generated.push(out.join(format!("{stem}-pimpl.cxx")));
            } else {
                generated.push(out.join(format!("{stem}.cxx")));
            }
        }
    }
    // The generated code is compiled without warnings (it is xsdcxx's: fall-throughs in its
    // state machines, unused arguments in its no-op implementations), the shims with them,
    // into one library.
    let cxx = |warnings: bool| {
        let mut build = cc::Build::new();
        build
            .cpp(true)
            .std("c++17")
            .include(&out)
            .warnings(warnings);
        for dir in &lib.include_paths {
            build.include(dir);
        }
        build
    };
    let objects = cxx(false).files(&generated).compile_intermediates();
    let mut build = cxx(true);
    build
        .file("shim/xsdcxx_parser_shim.cpp")
        .file("shim/xsdcxx_tree_shim.cpp")
        .objects(&objects);
    build.compile("xwire_xsdcxx");
    for dir in &lib.link_paths {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
    for name in &lib.libs {
        println!("cargo:rustc-link-lib={name}");
    }
    println!("cargo:rustc-cfg=xwire_xsdcxx");
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
