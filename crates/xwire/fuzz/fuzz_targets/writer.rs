//! Whatever the writer accepts, the reader reads back: arbitrary well-formed-or-not input is
//! read, written back through the writer, and the writer's output must parse to the same
//! events.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xwire::writer::Writer;
use xwire::{Event, OwnedEvent, Reader};

fn events(doc: &[u8]) -> Option<Vec<OwnedEvent>> {
    let mut out: Vec<OwnedEvent> = Vec::new();
    for e in Reader::from_slice(doc).into_events() {
        match e.ok()? {
            OwnedEvent::CData(t) | OwnedEvent::Text(t) => match out.last_mut() {
                Some(OwnedEvent::Text(a)) => a.push_str(&t),
                _ => out.push(OwnedEvent::Text(t)),
            },
            OwnedEvent::Start { name, ns, attributes, .. } => out.push(OwnedEvent::Start {
                name,
                ns,
                attributes: attributes
                    .into_iter()
                    .filter(|(n, _, _)| n != "xmlns" && !n.starts_with("xmlns:"))
                    .collect(),
                empty: false,
            }),
            e => out.push(e),
        }
    }
    out.retain(|e| !matches!(e, OwnedEvent::Text(t) if t.is_empty()));
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let Some(before) = events(data) else { return };
    let mut r = Reader::from_slice(data);
    let mut w = Writer::new(Vec::new());
    loop {
        match r.next().expect("parsed once already") {
            Event::Eof => break,
            e => w.write_event(&e).expect("events of a well-formed document are writable"),
        }
    }
    let out = w.finish().expect("complete");
    assert_eq!(Some(before), events(&out), "{}", String::from_utf8_lossy(&out));
});
