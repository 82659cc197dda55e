//! Arbitrary bytes through the reader: every event consumed, every text and attribute value
//! unescaped. Any panic, hang or runaway allocation is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::{Event, Reader};

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::from_slice(data);
    loop {
        match r.next() {
            Ok(Event::Start(t)) => {
                for a in t.attributes() {
                    let _ = (a.value(), a.namespace_uri(), a.local_name());
                }
                let _ = (t.namespace_uri(), t.local_name());
            }
            Ok(Event::Text(t)) => {
                let _ = t.unescape();
            }
            Ok(Event::CData(c)) => {
                let _ = c.text();
            }
            Ok(Event::Pi(p)) => {
                let _ = p.data();
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = e.to_string();
                // A failed reader keeps failing, never panics.
                assert!(r.next().is_err());
                break;
            }
        }
    }
});
