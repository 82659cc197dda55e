//! Arbitrary bytes with tiny limits, in slice and stream mode: limits must be enforced without
//! panics, and both modes must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::{Config, Event, OwnedEvent, Reader};

fn run(mut r: Reader<'_>) -> (Vec<OwnedEvent>, Option<String>) {
    let mut events = Vec::new();
    loop {
        match r.next() {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            Err(e) => return (events, Some(format!("{:?} at {}", e.kind(), e.location().offset))),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut config = Config::default();
    config.limits.max_depth = 4;
    config.limits.max_attributes = 3;
    config.limits.max_name_length = 8;
    config.limits.max_text_length = 32;
    config.limits.max_entity_expansion = 256;
    config.limits.max_entity_depth = 3;
    let slice = run(Reader::with_config(data, config.clone()));
    config.chunk_size = 3;
    let stream = run(Reader::from_reader(data, config));
    assert_eq!(slice, stream);
});
