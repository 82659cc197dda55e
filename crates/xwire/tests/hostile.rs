//! Hostile documents: each must fail fast with the right error, in bounded memory, in slice
//! and in streaming mode alike; nothing external is read unless a resolver is installed.
//!
//! A watchdog fails a case that runs longer than a generous bound: it detects hangs, it is not
//! a speed test.

mod common;

use std::io::Read;
use std::sync::mpsc;
use std::time::Duration;

use xwire::{Config, ErrorKind, Event, LimitKind, OwnedEvent, Reader};

/// Runs `f` on another thread; fails if it does not finish within 20 seconds.
fn watchdog<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: no answer within 20 s (hang?)"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: the checking thread panicked"),
    }
}

/// Reads the whole document; the first error's kind and byte offset, or the events.
fn outcome(mut r: Reader<'_>) -> Result<Vec<OwnedEvent>, (ErrorKind, u64)> {
    let mut events = Vec::new();
    loop {
        match r.next() {
            Ok(Event::Eof) => return Ok(events),
            Ok(e) => events.push(OwnedEvent::from_event(&e).expect("not eof")),
            Err(e) => return Err((e.kind().clone(), e.location().offset)),
        }
    }
}

/// The outcome over a slice and over streams with several chunk sizes, checked to agree.
fn both(doc: Vec<u8>, config: Config) -> Result<Vec<OwnedEvent>, (ErrorKind, u64)> {
    watchdog("hostile document", move || {
        let slice = outcome(Reader::with_config(&doc, config.clone()));
        for chunk in [1, 3, 4096] {
            if chunk == 1 && doc.len() > 200_000 {
                continue;
            }
            let mut c = config.clone();
            c.chunk_size = chunk;
            let stream = outcome(Reader::from_reader(&doc[..], c));
            assert_eq!(slice, stream, "slice and stream (chunk {chunk}) disagree");
        }
        slice
    })
}

fn limit(r: Result<Vec<OwnedEvent>, (ErrorKind, u64)>) -> LimitKind {
    match r {
        Err((ErrorKind::LimitExceeded(k, _), _)) => k,
        other => panic!("expected a limit error, got {other:?}"),
    }
}

#[test]
fn billion_laughs() {
    let mut doc = String::from("<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    doc.push_str("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">");
    for i in 2..=9 {
        let p = i - 1;
        doc.push_str(&format!(
            "<!ENTITY lol{i} \"{}\">",
            format!("&lol{p};").repeat(10)
        ));
    }
    doc.push_str("]><lolz>&lol9;</lolz>");
    let k = limit(both(doc.into_bytes(), Config::default()));
    assert!(
        matches!(k, LimitKind::EntityExpansion | LimitKind::ExpansionRatio),
        "{k:?}"
    );
}

#[test]
fn billion_laughs_in_an_attribute_value() {
    let mut doc = String::from("<!DOCTYPE a [<!ENTITY l0 \"lollollollol\">");
    for i in 1..=8 {
        doc.push_str(&format!(
            "<!ENTITY l{i} \"{}\">",
            format!("&l{};", i - 1).repeat(10)
        ));
    }
    doc.push_str("]><a v=\"&l8;\"/>");
    let k = limit(both(doc.into_bytes(), Config::default()));
    assert!(
        matches!(k, LimitKind::EntityExpansion | LimitKind::ExpansionRatio),
        "{k:?}"
    );
}

#[test]
fn quadratic_blowup() {
    let big = "x".repeat(50_000);
    let refs = "&e;".repeat(20_000);
    let doc = format!("<!DOCTYPE a [<!ENTITY e \"{big}\">]><a>{refs}</a>");
    let k = limit(both(doc.into_bytes(), Config::default()));
    assert!(
        matches!(k, LimitKind::EntityExpansion | LimitKind::ExpansionRatio),
        "{k:?}"
    );
}

#[test]
fn parameter_entity_laughs() {
    // Parameter-entity references inside declarations are allowed only in external markup, so
    // the laughs live in an external subset, read through a resolver.
    let dir = std::env::temp_dir().join(format!("xwire-pe-laughs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut dtd = String::from("<!ENTITY % p0 \"<!-- lollollollollollollollol -->\">\n");
    for i in 1..=9 {
        dtd.push_str(&format!(
            "<!ENTITY % p{i} \"{}\">\n",
            format!("%p{};", i - 1).repeat(10)
        ));
    }
    dtd.push_str("%p9;\n");
    std::fs::write(dir.join("laughs.dtd"), dtd).unwrap();
    let doc = b"<!DOCTYPE a SYSTEM 'laughs.dtd'><a/>".to_vec();
    let d = dir.clone();
    let got = watchdog("parameter-entity laughs", move || {
        let mut r = Reader::from_slice(&doc);
        r.set_resolver(xwire::FsResolver::new(&d));
        outcome(r)
    });
    std::fs::remove_dir_all(&dir).unwrap();
    let k = limit(got);
    assert!(
        matches!(k, LimitKind::EntityExpansion | LimitKind::ExpansionRatio),
        "{k:?}"
    );
}

#[test]
fn external_entities_are_not_read_without_a_resolver() {
    let dir = std::env::temp_dir().join(format!("xwire-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET").unwrap();
    let dtd = dir.join("evil.dtd");
    std::fs::write(&dtd, "<!ENTITY leak SYSTEM 'secret.txt'>").unwrap();
    let doc = format!(
        "<!DOCTYPE a SYSTEM '{}' [<!ENTITY x SYSTEM '{}'>]><a>&x;&leak;</a>",
        dtd.display(),
        secret.display()
    );
    let events = both(doc.clone().into_bytes(), Config::default()).expect("well-formed");
    let all = format!("{events:?}");
    assert!(
        !all.contains("TOP-SECRET"),
        "an external entity was read: {all}"
    );
    assert!(events.contains(&OwnedEvent::SkippedEntity("x".into())));
    assert!(events.contains(&OwnedEvent::SkippedEntity("leak".into())));
    let mut r = Reader::from_slice(doc.as_bytes());
    while !matches!(r.next().unwrap(), Event::Eof) {}
    assert!(
        r.dtd_incomplete(),
        "the external subset was not read, so declarations may be missing"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resolver_confined_to_a_folder_refuses_paths_outside_it() {
    let root = std::env::temp_dir().join(format!("xwire-confined-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    for target in [
        "/etc/passwd",
        "../../../../../../etc/passwd",
        "file:///etc/passwd",
    ] {
        let doc = format!("<!DOCTYPE a [<!ENTITY x SYSTEM '{target}'>]><a>&x;</a>");
        let mut r = Reader::from_slice(doc.as_bytes());
        r.set_resolver(xwire::FsResolver::new(&root));
        let got = outcome(r);
        let text = format!("{got:?}");
        assert!(!text.contains("root:"), "{target} was read: {text}");
        assert!(
            matches!(got, Err((ErrorKind::Resolver(_), _))),
            "{target}: expected a resolver error, got {got:?}"
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn deep_nesting() {
    let n = 100_000;
    let doc = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
    assert_eq!(
        limit(both(doc.into_bytes(), Config::default())),
        LimitKind::Depth
    );
}

#[test]
fn many_attributes() {
    let mut doc = String::from("<a");
    for i in 0..100_000 {
        doc.push_str(&format!(" a{i}=\"v\""));
    }
    doc.push_str("/>");
    assert_eq!(
        limit(both(doc.into_bytes(), Config::default())),
        LimitKind::Attributes
    );
}

#[test]
fn many_duplicate_candidates_stay_fast() {
    // 9,000 distinct attributes (under the limit) must not take quadratic time to check.
    let mut doc = String::from("<a");
    for i in 0..9_000 {
        doc.push_str(&format!(" a{i}=\"v\""));
    }
    doc.push_str("/>");
    assert!(both(doc.into_bytes(), Config::default()).is_ok());
}

#[test]
fn long_names() {
    let mut config = Config::default();
    config.limits.max_name_length = 1_000;
    let name = "n".repeat(100_000);
    let doc = format!("<{name}/>");
    assert_eq!(
        limit(both(doc.into_bytes(), config.clone())),
        LimitKind::NameLength
    );
    let doc = format!("<a {name}='1'/>");
    assert_eq!(limit(both(doc.into_bytes(), config)), LimitKind::NameLength);
}

#[test]
fn long_text_in_a_stream() {
    let mut config = Config::default();
    config.limits.max_text_length = 100_000;
    let doc = format!("<a>{}</a>", "x".repeat(1_000_000));
    assert_eq!(
        limit(both(doc.into_bytes(), config.clone())),
        LimitKind::TextLength
    );
    let doc = format!("<a>{}</a>", "&amp;".repeat(1_000_000));
    assert_eq!(
        limit(both(doc.into_bytes(), config.clone())),
        LimitKind::TextLength
    );
    let doc = format!("<a><!--{}--></a>", "x".repeat(1_000_000));
    assert_eq!(limit(both(doc.into_bytes(), config)), LimitKind::TextLength);
}

#[test]
fn invalid_utf8_is_located() {
    // (document, offset, whether the reader sees it as bad UTF-8 rather than misplaced text)
    let cases: [(&[u8], u64, bool); 6] = [
        (b"\xff<a/>", 0, false),
        (b"<a>ok\xc3(</a>", 5, true),
        (b"<a>\xe2\x82</a>", 3, true),
        (b"<a\xc0\x80/>", 2, true),
        (b"<a b='\xed\xa0\x80'/>", 6, true),
        (b"<a/>\xf8", 4, false),
    ];
    for (doc, at, encoding) in cases {
        match both(doc.to_vec(), Config::default()) {
            Err((kind, off)) => {
                assert_eq!(off, at, "{doc:?}: {kind}");
                if encoding {
                    assert!(
                        matches!(kind, ErrorKind::InvalidEncoding(_)),
                        "{doc:?}: {kind}"
                    );
                }
            }
            other => panic!("{doc:?}: {other:?}"),
        }
    }
}

#[test]
fn utf16_with_an_odd_byte_count() {
    let mut doc = vec![0xFF, 0xFE];
    for c in "<a>text</a>".encode_utf16() {
        doc.extend_from_slice(&c.to_le_bytes());
    }
    doc.push(b'x');
    assert!(both(doc, Config::default()).is_err());
}

#[test]
fn every_truncation_of_a_real_document_fails_cleanly() {
    let Some(dir) = common::corpus("soap") else {
        return;
    };
    let mut files = common::xml_files(&dir);
    files.retain(|f| std::fs::metadata(f).is_ok_and(|m| (1_000..6_000).contains(&m.len())));
    let path = files.first().expect("a SOAP message of a few KB");
    let full = std::fs::read(path).unwrap();
    assert!(
        both(full.clone(), Config::default()).is_ok(),
        "{} is well-formed",
        path.display()
    );
    // Every proper prefix that ends inside the root element must fail.
    let root_end = full.iter().rposition(|&b| b == b'>').unwrap();
    watchdog("truncations", move || {
        for n in 0..root_end {
            let doc = &full[..n];
            let slice = outcome(Reader::from_slice(doc));
            assert!(slice.is_err(), "prefix of {n} bytes was accepted");
            let mut c = Config::default();
            c.chunk_size = 7;
            assert_eq!(
                slice,
                outcome(Reader::from_reader(doc, c)),
                "prefix of {n} bytes"
            );
        }
    });
}

/// A document of `records` elements generated on the fly, never held in memory.
struct Generated {
    records: u64,
    state: u8,
    pending: Vec<u8>,
    at: usize,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            match self.state {
                0 => {
                    self.pending.extend_from_slice(b"<data xmlns:m='urn:m'>");
                    self.state = 1;
                }
                1 if self.records > 0 => {
                    for _ in 0..1000.min(self.records) {
                        self.pending.extend_from_slice(
                            b"<m:rec id='1'><m:v>3.14159</m:v><m:w>some text &amp; more</m:w></m:rec>\n",
                        );
                        self.records -= 1;
                    }
                }
                1 => {
                    self.pending.extend_from_slice(b"</data>");
                    self.state = 2;
                }
                _ => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn resident_kb() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4)
}

#[test]
fn a_large_stream_parses_in_bounded_memory() {
    // ~250 MB of XML; the reader must hold a window of it, not the whole.
    let records = 3_000_000;
    let before = resident_kb();
    let (count, bytes, peak) = watchdog("large stream", move || {
        let src = Generated {
            records,
            state: 0,
            pending: Vec::new(),
            at: 0,
        };
        let mut r = Reader::from_reader(src, Config::default());
        let mut count = 0u64;
        let mut peak = 0;
        loop {
            match r.next().expect("well-formed") {
                Event::Start(_) => {
                    count += 1;
                    if count % 100_000 == 0 {
                        peak = peak.max(resident_kb());
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        (count, r.bytes_read(), peak)
    });
    assert_eq!(count, 1 + 3 * records);
    assert!(bytes > 200_000_000, "only {bytes} bytes read");
    // Other tests run in this process at the same time, so allow generous slack; the point
    // is that 200+ MB of input does not become 200+ MB of memory.
    let grown = peak.saturating_sub(before);
    assert!(
        grown < 64 * 1024,
        "resident memory grew by {grown} KB while streaming {bytes} bytes"
    );
}

/// A `Read` that returns one byte per call, like a slow socket.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn long_tokens_read_a_byte_at_a_time_stay_linear() {
    // A 90 KB start tag and 1 MB of text from a reader giving one byte per call: re-parsing the
    // token after every read (or zeroing a chunk per read) would take minutes.
    let mut doc = String::from("<a");
    for i in 0..9_000 {
        doc.push_str(&format!(" a{i}=\"v\""));
    }
    doc.push('>');
    doc.push_str(&"text ".repeat(200_000));
    doc.push_str("</a>");
    let events = watchdog("byte-at-a-time reader", move || {
        outcome(Reader::from_reader(
            Trickle(doc.as_bytes()),
            Config::default(),
        ))
    })
    .expect("well-formed");
    assert!(
        matches!(&events[0], OwnedEvent::Start { attributes, .. } if attributes.len() == 9_000)
    );
    assert!(matches!(&events[1], OwnedEvent::Text(t) if t.len() == 1_000_000));
}
