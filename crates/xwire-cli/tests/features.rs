//! The `bench` feature: without it no benchmark peer is compiled or linked, and `bench` and
//! `gen` are gone from the command line while every other command stays.

use std::collections::HashSet;
use std::process::{Command, Output};

/// The peers' Rust crates and the build tools of the C and C++ peers' shims: none of them may
/// be in the build without the `bench` feature.
const PEER_CRATES: [&str; 6] = [
    "quick-xml",
    "xml-rs",
    "roxmltree",
    "xmlparser",
    "cc",
    "pkg-config",
];

/// The crates `cargo tree` lists for xwire-cli built with `features` (normal and build
/// dependencies, for this machine), with the listing for messages.
fn crates(features: &[&str]) -> (HashSet<String>, String) {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "xwire-cli",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listing = String::from_utf8(out.stdout).unwrap();
    let names = listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    (names, listing)
}

#[test]
fn without_the_bench_feature_no_peer_crate_is_built() {
    let (names, listing) = crates(&["--no-default-features"]);
    // The listing is the command line's: an empty or failed listing must not pass.
    for ours in [
        "xwire-cli",
        "xwire",
        "xwire-conformance",
        "xwire-schema",
        "clap",
    ] {
        assert!(names.contains(ours), "{ours} missing from:\n{listing}");
    }
    assert!(!names.contains("xwire-bench"), "{listing}");
    for peer in PEER_CRATES {
        assert!(!names.contains(peer), "{peer} is back in:\n{listing}");
    }
}

/// The names above are the crates' real names: with the feature (the default) they are all in
/// the tree, so the check above cannot pass by looking for names that never appear.
#[test]
fn with_the_default_features_the_peers_are_built() {
    let (names, listing) = crates(&[]);
    for name in PEER_CRATES.iter().chain(&["xwire-bench"]) {
        assert!(names.contains(*name), "{name} missing from:\n{listing}");
    }
}

fn xwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn help_lists_bench_and_gen_only_with_the_feature() {
    let help = stdout(&xwire(&["--help"]));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for always in ["parse", "conformance", "validate", "encode", "completions"] {
        assert!(commands.contains(&always), "{always}: {commands:?}");
    }
    for command in ["bench", "gen"] {
        assert_eq!(
            commands.contains(&command),
            cfg!(feature = "bench"),
            "{command}: {commands:?}"
        );
    }
}

#[test]
fn completions_cover_the_commands_built() {
    let script = stdout(&xwire(&["completions", "bash"]));
    let words: HashSet<&str> = script
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .collect();
    assert!(words.contains("conformance"), "{script}");
    for command in ["bench", "gen"] {
        assert_eq!(
            words.contains(command),
            cfg!(feature = "bench"),
            "{command}"
        );
    }
}

#[cfg(not(feature = "bench"))]
#[test]
fn bench_is_an_unknown_command_without_the_feature() {
    let out = xwire(&["bench", "--quick"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand 'bench'"));
}
