//! How much of the W3C XML Schema Test Suite the generator takes today: for every XSD 1.0
//! schema test whose schema is valid, whether `xwire-codegen` generates the types and the
//! parsers, and, where it refuses the parsers, which construct (grouped, most frequent first).
//!
//! `cargo run --release -p xwire-codegen --example xsd_coverage [-- --show TEXT] [--rustfmt]`
//! (corpora in `../shared/corpora` or `$XWIRE_CORPORA`). `--show TEXT` also prints each
//! schema test whose refusal contains TEXT, with its documents; `--rustfmt` checks that the
//! code generated for each schema is as rustfmt formats it (rustfmt on PATH), and names the
//! first few that are not.

use std::collections::BTreeMap;

use xwire_conformance::xsd::catalog::{self, Kind, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = args
        .iter()
        .position(|a| a == "--show")
        .map(|i| args.get(i + 1).expect("--show TEXT").clone());
    let rustfmt = args.iter().any(|a| a == "--rustfmt");
    let out = std::env::temp_dir().join(format!("xwire-coverage-{}", std::process::id()));
    if rustfmt {
        std::fs::create_dir_all(&out).expect("a temporary folder");
    }
    let mut written: Vec<(std::path::PathBuf, String)> = Vec::new();
    let dir = xwire_conformance::corpora_dir()
        .expect("the corpora (../shared/corpora or $XWIRE_CORPORA)")
        .join("xsdtests");
    let suite = catalog::load_suite(&dir, "suite.xml").expect("the suite's catalog");
    let plan = catalog::plan(&suite, &catalog::configuration(&["Unicode_6.0.0".into()]));
    let (mut schemas, mut parsers, mut types) = (0, 0, 0);
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    for p in plan.iter().filter(|p| p.kind == Kind::Schema) {
        if p.verdict != Verdict::Run(true) {
            continue;
        }
        schemas += 1;
        let mut config = xwire_codegen::Config::new();
        for d in &p.documents {
            config = config.schema(d);
        }
        match config.clone().generate() {
            Ok(g) => {
                parsers += 1;
                types += 1;
                if rustfmt {
                    let file = out.join(format!("m{}.rs", written.len()));
                    std::fs::write(&file, g.code).expect("write the generated code");
                    written.push((file, p.id.clone()));
                }
            }
            Err(xwire_codegen::Error::Unsupported(m)) => {
                // The construct, without the item it was found in.
                let what = m.rsplit(": ").next().unwrap_or(&m).to_string();
                if show.as_ref().is_some_and(|t| m.contains(t.as_str())) {
                    println!("{}: {m}", p.id);
                    for d in &p.documents {
                        println!("    {}", d.display());
                    }
                }
                *refused.entry(what).or_default() += 1;
                if config.parsers(false).generate().is_ok() {
                    types += 1;
                }
            }
            Err(e) => {
                let first = e.to_string().chars().take(60).collect::<String>();
                *failed.entry(first).or_default() += 1;
            }
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / schemas.max(1) as f64;
    println!("valid XSD 1.0 schemas in the suite: {schemas}");
    println!(
        "  types generated:             {types} ({:.1}%)",
        pct(types)
    );
    println!(
        "  types and parsers generated: {parsers} ({:.1}%)",
        pct(parsers)
    );
    let mut refused: Vec<_> = refused.into_iter().collect();
    refused.sort_by_key(|r| std::cmp::Reverse(r.1));
    println!("parsers refused, by construct:");
    for (what, n) in refused.iter().take(30) {
        println!("  {n:>5}  {what}");
    }
    if rustfmt {
        // Files rustfmt would change, listed by `--check -l`; a few hundred per call.
        let mut unformatted = Vec::new();
        for chunk in written.chunks(300) {
            let listed = std::process::Command::new("rustfmt")
                .args(["--edition", "2021", "--check", "-l"])
                .args(chunk.iter().map(|(f, _)| f))
                .output()
                .expect("run rustfmt");
            let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
            for (f, id) in chunk {
                if listed.lines().any(|l| std::path::Path::new(l) == f) {
                    unformatted.push((f.clone(), id.clone()));
                }
            }
        }
        println!(
            "rustfmt-clean: {} of {} generated files",
            written.len() - unformatted.len(),
            written.len()
        );
        for (f, id) in unformatted.iter().take(10) {
            println!("  not clean: {id} ({})", f.display());
        }
        if unformatted.is_empty() {
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    if !failed.is_empty() {
        println!("not generated at all:");
        for (what, n) in &failed {
            println!("  {n:>5}  {what}");
        }
    }
}
