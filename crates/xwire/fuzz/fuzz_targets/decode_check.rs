//! The checks of the `decode` fuzz target, shared with `tests/fuzz_regressions.rs` (which runs
//! them on kept crash inputs and on binaries of the W3C suite, without cargo-fuzz). Arbitrary
//! bytes through the binary decoder (`Reader` over binary XML), every event and typed value
//! consumed; any panic, hang or runaway allocation is a bug:
//!
//! - a failed reader keeps failing;
//! - slice and stream (chunk size 7) give the same events and the same error;
//! - while a reader works, no single allocation exceeds the bound `docs/binary-format.md`
//!   promises ([`alloc_bound`]), measured by [`Counting`] when it is the global allocator;
//! - a file the reader accepts decodes to text that the text reader accepts and that reads back
//!   as the same document: the same events but for namespace declarations (the text writer
//!   drops redundant ones; names carry their namespace URIs either way), the empty-element
//!   flag, and adjacent texts (several TEXT frames read back as one text).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use xwire::binary::{decode_to_text, MAGIC};
use xwire::{Config, Event, OwnedEvent, Reader};

thread_local! {
    /// Whether this thread's allocations are being measured.
    static TRACK: Cell<bool> = const { Cell::new(false) };
    /// The largest allocation (or reallocation) of this thread since the last reset.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

/// A global allocator that records, per thread, the largest allocation requested while
/// measuring; otherwise the system allocator.
pub struct Counting;

fn note(size: usize) {
    // `try_with`: allocations may happen while a thread's locals are being torn down.
    let _ = TRACK.try_with(|t| {
        if t.get() {
            let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        }
    });
}

// SAFETY: every call goes to the system allocator unchanged; only sizes are recorded, in
// thread-locals that are `const`-initialised and never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

/// The largest single allocation a reader may make for a binary file of `len` bytes
/// (`docs/binary-format.md`, "Limits a reader enforces").
pub fn alloc_bound(len: usize) -> usize {
    16 * len + (4 << 20)
}

/// Runs `f` with this thread's allocations measured.
fn tracked<T>(f: impl FnOnce() -> T) -> T {
    TRACK.with(|t| t.set(true));
    let out = f();
    TRACK.with(|t| t.set(false));
    out
}

/// The events (typed content taken from every other typed element) and the error, if any.
/// Only the reader's own work is measured, not the copies this harness makes.
fn run<'a>(make: impl FnOnce() -> Reader<'a>) -> (Vec<OwnedEvent>, Option<String>) {
    let mut r = tracked(make);
    let mut events = Vec::new();
    let mut starts = 0u32;
    loop {
        TRACK.with(|t| t.set(true));
        let e = r.next();
        TRACK.with(|t| t.set(false));
        match e {
            Ok(Event::Eof) => return (events, None),
            Ok(e) => {
                let start = matches!(e, Event::Start(_));
                events.push(OwnedEvent::from_event(&e).expect("not eof"));
                if start {
                    starts += 1;
                    if starts % 2 == 0 {
                        TRACK.with(|t| t.set(true));
                        let t = r.typed_content();
                        TRACK.with(|t| t.set(false));
                        if let Ok(Some(t)) = t {
                            let mut s = String::new();
                            t.write_text(&mut s);
                            events.push(OwnedEvent::Text(s));
                        }
                    }
                }
            }
            Err(e) => {
                assert!(r.next().is_err(), "a failed reader keeps failing");
                return (
                    events,
                    Some(format!("{:?} at {}", e.kind(), e.location().offset)),
                );
            }
        }
    }
}

/// Events as the text form can give them back: namespace declarations and the empty-element
/// flag dropped, adjacent texts joined (empty ones dropped).
fn comparable(events: &[OwnedEvent]) -> Vec<OwnedEvent> {
    let mut out: Vec<OwnedEvent> = Vec::new();
    for e in events {
        match e {
            OwnedEvent::Start {
                name,
                ns,
                attributes,
                ..
            } => out.push(OwnedEvent::Start {
                name: name.clone(),
                ns: ns.clone(),
                attributes: attributes
                    .iter()
                    .filter(|a| a.1 != xwire::XMLNS_NS)
                    .cloned()
                    .collect(),
                empty: false,
            }),
            OwnedEvent::Text(t) if t.is_empty() => {}
            OwnedEvent::Text(t) => match out.last_mut() {
                Some(OwnedEvent::Text(prev)) => prev.push_str(t),
                _ => out.push(e.clone()),
            },
            e => out.push(e.clone()),
        }
    }
    out
}

/// All events, no typed content taken.
fn events_of(bytes: &[u8]) -> Result<Vec<OwnedEvent>, xwire::Error> {
    Reader::from_slice(bytes).into_events().collect()
}

/// The file the target decodes for fuzzer input `data`: unless the first byte is `0xFF`, a
/// valid header replaces it, so the fuzzer spends its time on frames.
pub fn file_of(data: &[u8]) -> Vec<u8> {
    let mut file = Vec::with_capacity(data.len() + 10);
    if data.first().is_some_and(|&b| b != 0xFF) {
        file.extend_from_slice(&MAGIC);
        file.extend_from_slice(&[1, 0]);
        file.extend_from_slice(&data[1..]);
    } else {
        file.extend_from_slice(data);
    }
    file
}

/// The fuzzer input that decodes `file` (a binary file with its header).
#[allow(dead_code)] // used by tests/fuzz_regressions.rs, not by the fuzz target
pub fn input_of(file: &[u8]) -> Vec<u8> {
    let mut data = vec![0];
    data.extend_from_slice(&file[10..]);
    data
}

/// Every check on fuzzer input `data`. `measured`: whether [`Counting`] is the global
/// allocator (else the allocation bound is not checked).
pub fn check(data: &[u8], measured: bool) {
    let file = file_of(data);
    LARGEST.with(|l| l.set(0));
    let slice = run(|| Reader::from_slice(&file));
    let mut config = Config::default();
    config.chunk_size = 7;
    assert_eq!(slice, run(|| Reader::from_reader(&file[..], config)));
    let largest = LARGEST.with(Cell::get);
    assert!(
        !measured || largest <= alloc_bound(file.len()),
        "an allocation of {largest} bytes for a file of {} bytes (bound {})",
        file.len(),
        alloc_bound(file.len())
    );
    if slice.1.is_none() && xwire::binary::is_binary(&file) {
        let text = decode_to_text(&file, Vec::new()).expect("an accepted file decodes to text");
        let back = match events_of(&text) {
            Ok(e) => e,
            Err(e) => panic!(
                "decoded text is not well-formed: {e}\n{}",
                String::from_utf8_lossy(&text)
            ),
        };
        let binary = events_of(&file).expect("accepted above");
        assert_eq!(
            comparable(&binary),
            comparable(&back),
            "the text form reads back differently:\n{}",
            String::from_utf8_lossy(&text)
        );
    }
}

/// The largest allocation measured by the last [`check`] on this thread.
#[allow(dead_code)] // used by tests/fuzz_regressions.rs, not by the fuzz target
pub fn largest() -> usize {
    LARGEST.with(Cell::get)
}
