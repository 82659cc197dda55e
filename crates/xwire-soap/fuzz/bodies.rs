//! The bodies of the fuzz targets, shared by the targets in `fuzz_targets/` and by
//! `crates/xwire-soap/tests/fuzz_regressions.rs`, which runs them over the committed seeds,
//! the SOAP corpora and the inputs the fuzzer found (so a target's checks also run under
//! `cargo test`).
//!
//! Each body panics when the property it checks fails; anything else it returns is fine.
#![allow(dead_code)]

use xwire_soap::{Envelope, Node, Version};

/// `envelope`: arbitrary bytes (text or binary XML) as a SOAP message.
///
/// - A message that reads writes back, and what it writes reads as the same envelope:
///   same version, same header blocks with the same flags and roles, same body elements,
///   the same fault (or none), and the same bytes when written again.
/// - Processing it as an ultimate receiver that understands nothing either gives its
///   blocks or a `MustUnderstand` fault whose reply envelope reads back as that fault.
/// - A message that does not read gives a fault whose reply envelope reads back with the
///   same code.
pub fn envelope(data: &[u8]) {
    match Envelope::parse(data) {
        Ok(env) => {
            let fault = env.fault();
            let bytes = env.to_bytes().expect("a message read writes");
            let back = Envelope::parse(&bytes).unwrap_or_else(|e| panic!("written, refused: {e}"));
            assert_eq!(back.version(), env.version());
            let blocks = |e: &Envelope| -> Vec<(String, bool, bool, Option<String>)> {
                e.header_blocks()
                    .map(|b| {
                        let name = b.name().to_string();
                        (
                            name,
                            b.must_understand(),
                            b.relay(),
                            b.role().map(str::to_string),
                        )
                    })
                    .collect()
            };
            assert_eq!(blocks(&back), blocks(&env));
            assert_eq!(back.body_elements().count(), env.body_elements().count());
            match (fault, back.fault()) {
                (Ok(a), Ok(b)) => assert_eq!(a.map(|f| f.code), b.map(|f| f.code)),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("the fault read differently: {a:?} then {b:?}"),
            }
            assert_eq!(back.to_bytes().expect("writes"), bytes, "written twice");
            if let Err(f) = Node::ultimate_receiver().process(&env, |_| false) {
                let reply = f
                    .to_envelope(env.version())
                    .to_bytes()
                    .expect("a fault writes");
                let read = Envelope::parse(&reply).expect("a fault reply reads");
                let again = read.fault().expect("reads as a fault").expect("a fault");
                assert_eq!(again.code, f.code);
            }
        }
        Err(e) => {
            let fault = e.to_fault();
            let v = e.version().unwrap_or(Version::V12);
            let reply = fault.to_envelope(v).to_bytes().expect("a fault writes");
            let read = Envelope::parse(&reply).expect("a fault reply reads");
            let again = read.fault().expect("reads as a fault").expect("a fault");
            assert_eq!(again.code, fault.code);
            assert!(!e.to_string().is_empty());
        }
    }
}
