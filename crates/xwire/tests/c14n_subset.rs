//! Document-subset canonicalization against the streaming canonicalizer: the subset made of
//! every node of a document (attributes and namespace nodes included) must canonicalize to the
//! bytes of the whole document, in every mode, on every W3C-suite and C14N-vector input the
//! streaming canonicalizer accepts. Random subsets of the same documents must not panic.

mod common;

use std::collections::HashSet;
use std::path::Path;

use xwire::c14n::{self, C14nOptions, Mode};
use xwire::tree::{Document, Handle};
use xwire::xpath::{Navigator, NodeKind};
use xwire::{Config, FsResolver, Reader};

fn modes() -> Vec<C14nOptions> {
    vec![
        C14nOptions::new(Mode::Inclusive, false),
        C14nOptions::new(Mode::Inclusive, true),
        C14nOptions::new(Mode::Inclusive11, false),
        C14nOptions::new(Mode::exclusive(""), true),
        C14nOptions::new(Mode::exclusive("#default p a b"), false),
    ]
}

fn reader<'a>(bytes: &'a [u8], path: &Path) -> Reader<'a> {
    let mut config = Config::default();
    config.base_uri = Some(path.to_string_lossy().into_owned());
    let mut r = Reader::with_config(bytes, config);
    if let Some(folder) = path.parent() {
        r.set_resolver(FsResolver::new(folder));
    }
    r
}

fn all_nodes(doc: &Document) -> Vec<Handle> {
    let mut out = Vec::new();
    for n in doc.descendants(doc.root()) {
        let h = Handle::Node(n);
        out.push(h);
        if Navigator::kind(doc, h) == NodeKind::Element {
            Navigator::namespaces(doc, h, &mut out);
            let mut a = Navigator::first_attribute(doc, h);
            while let Some(x) = a {
                out.push(x);
                a = Navigator::next_attribute(doc, x);
            }
        }
    }
    out
}

/// Checks one file; whether the streaming canonicalizer accepted it.
fn check(path: &Path, rng: &mut common::Rng) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let Ok(doc) = Document::from_reader(&mut reader(&bytes, path)) else {
        return false;
    };
    let nodes = all_nodes(&doc);
    let full: HashSet<Handle> = nodes.iter().copied().collect();
    let mut accepted = false;
    for options in modes() {
        let mut streaming = Vec::new();
        if c14n::canonicalize_reader(&mut reader(&bytes, path), &options, &mut streaming).is_err() {
            continue;
        }
        accepted = true;
        let mut subset = Vec::new();
        c14n::canonicalize_subset(&doc, &full, &options, &mut subset)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            String::from_utf8_lossy(&subset),
            String::from_utf8_lossy(&streaming),
            "{} {options:?}",
            path.display()
        );
        // A random subset: anything may come out, but nothing may panic.
        let keep = rng.next();
        let random: HashSet<Handle> = nodes
            .iter()
            .enumerate()
            .filter(|(i, _)| keep.rotate_left(*i as u32 % 64) & 3 != 0)
            .map(|(_, &h)| h)
            .collect();
        let _ = c14n::canonicalize_subset(&doc, &random, &options, Vec::new());
    }
    accepted
}

#[test]
fn full_node_set_equals_the_streaming_canonical_form() {
    let mut rng = common::Rng(7);
    let mut checked = 0;
    for corpus in ["xmlconf", "c14n"] {
        let Some(dir) = common::corpus(corpus) else {
            continue;
        };
        for path in common::xml_files(&dir) {
            checked += usize::from(check(&path, &mut rng));
        }
    }
    if checked > 0 {
        assert!(checked > 500, "only {checked} documents");
    }
    println!("{checked} documents");
}
