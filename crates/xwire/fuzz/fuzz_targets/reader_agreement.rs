//! Slice and streaming input must agree: same events, or the same error at the same offset.
//! The first byte picks the chunk size.
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
    let Some((&first, doc)) = data.split_first() else { return };
    let slice = run(Reader::from_slice(doc));
    let mut config = Config::default();
    config.chunk_size = 1 + first as usize;
    let stream = run(Reader::from_reader(doc, config));
    assert_eq!(slice, stream);
});
