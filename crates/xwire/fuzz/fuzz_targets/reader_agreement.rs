//! Slice and streaming input must agree: same events, or the same error at the same offset;
//! and a `ReaderSlot`, kept across inputs (whatever the last one left in it), must read the
//! slice as a new reader does. The first byte picks the chunk size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use xwire::{Config, Event, OwnedEvent, Reader, ReaderSlot};

fn run(r: &mut Reader<'_>) -> (Vec<OwnedEvent>, Option<String>) {
    let mut events = Vec::new();
    loop {
        match r.next() {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            Err(e) => return (events, Some(format!("{:?} at {}", e.kind(), e.location().offset))),
        }
    }
}

thread_local! {
    static SLOT: RefCell<ReaderSlot> = RefCell::new(ReaderSlot::default());
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, doc)) = data.split_first() else { return };
    let slice = run(&mut Reader::from_slice(doc));
    let mut config = Config::default();
    config.chunk_size = 1 + first as usize;
    let stream = run(&mut Reader::from_reader(doc, config));
    assert_eq!(slice, stream);
    let kept = SLOT.with(|s| s.borrow_mut().read(doc, |r| run(r)));
    assert_eq!(slice, kept);
});
