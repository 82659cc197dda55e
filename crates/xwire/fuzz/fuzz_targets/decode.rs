//! Arbitrary bytes through the binary decoder (`Reader` over binary XML): every event and
//! typed value consumed. Any panic, hang or runaway allocation is a bug. A file the reader
//! accepts must also decode to text that the text reader accepts, and read the same from a
//! stream.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::binary::{decode_to_text, MAGIC};
use xwire::{Config, Event, OwnedEvent, Reader};

/// The events (typed content taken from every other typed element) and the error, if any.
fn run(mut r: Reader<'_>) -> (Vec<OwnedEvent>, Option<String>) {
    let mut events = Vec::new();
    let mut starts = 0u32;
    loop {
        match r.next() {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => {
                events.push(OwnedEvent::from_event(&e).expect("not eof"));
                if matches!(e, Event::Start(_)) {
                    starts += 1;
                    if starts % 2 == 0 {
                        if let Ok(Some(t)) = r.typed_content() {
                            let mut s = String::new();
                            t.write_text(&mut s);
                            events.push(OwnedEvent::Text(s));
                        }
                    }
                }
            }
            Err(e) => {
                assert!(r.next().is_err(), "a failed reader keeps failing");
                return (events, Some(format!("{:?} at {}", e.kind(), e.location().offset)));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // Most inputs get a valid header, so the fuzzer spends its time on frames.
    let mut file = Vec::with_capacity(data.len() + 10);
    if data.first().is_some_and(|&b| b != 0xFF) {
        file.extend_from_slice(&MAGIC);
        file.extend_from_slice(&[1, 0]);
        file.extend_from_slice(&data[1..]);
    } else {
        file.extend_from_slice(data);
    }
    let slice = run(Reader::from_slice(&file));
    let mut config = Config::default();
    config.chunk_size = 7;
    assert_eq!(slice, run(Reader::from_reader(&file[..], config)));
    if slice.1.is_none() && xwire::binary::is_binary(&file) {
        let text = decode_to_text(&file, Vec::new()).expect("an accepted file decodes to text");
        let mut r = Reader::from_slice(&text);
        loop {
            match r.next() {
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("decoded text is not well-formed: {e}\n{}", String::from_utf8_lossy(&text)),
            }
        }
    }
});
