//! Document-subset canonicalization: the first bytes choose which nodes of the document (the
//! rest) are in the set. No subset may panic, and the full node set must give the bytes of
//! the streaming canonicalizer.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use xwire::c14n::{self, C14nOptions, Mode};
use xwire::tree::{Document, Handle};

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (mask, xml) = data.split_at(8);
    let mask = u64::from_le_bytes(mask.try_into().unwrap_or_default());
    let Ok(doc) = Document::parse(xml) else {
        return;
    };
    let root: Handle = doc.root().into();
    let all = c14n::subtree_nodes(&doc, root, true);
    for options in [
        C14nOptions::new(Mode::Inclusive, true),
        C14nOptions::new(Mode::Inclusive11, false),
        C14nOptions::new(Mode::exclusive("#default a"), true),
    ] {
        if let Ok(streaming) = c14n::to_vec(xml, &options) {
            let full: HashSet<Handle> = all.iter().copied().collect();
            let mut out = Vec::new();
            c14n::canonicalize_subset(&doc, &full, &options, &mut out)
                .expect("the streaming canonicalizer accepted the document");
            assert_eq!(out, streaming);
        }
        let some: HashSet<Handle> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| mask.rotate_right(*i as u32 % 64) & 1 == 1)
            .map(|(_, &h)| h)
            .collect();
        let _ = c14n::canonicalize_subset(&doc, &some, &options, Vec::new());
        if let Some(&apex) = all.get(mask as usize % all.len().max(1)) {
            let _ = c14n::canonicalize_subtree(&doc, apex, &options, Vec::new());
        }
    }
});
