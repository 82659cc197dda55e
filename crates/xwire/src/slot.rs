//! A reader kept in place between documents.

use crate::reader::{Config, Reader};

/// A [`Reader`] kept for reading one document after another, in place: its allocations, its
/// configuration and (when they are few) the names it read stay from one document to the
/// next, and nothing of it is moved.
///
/// [`Reader::with_buffers`] does the same with a reader that is built for each document and
/// taken apart after it; a reader is some 1.2 KB, and building and taking it apart moves
/// that about three times (2.5% of the instructions of validating a 1 KB order; more when
/// the caches are cold, as the copies touch lines nothing else does). The slot is for a loop that reads many small documents (a server, a
/// validator); the reader lends itself to `f` for one document at a time.
///
/// ```
/// use xwire::{Config, Event, ReaderSlot};
///
/// let mut slot = ReaderSlot::new(Config::default());
/// let mut names = Vec::new();
/// for doc in [&b"<a x='1'/>"[..], b"<b><c/></b>"] {
///     slot.read(doc, |r| -> xwire::Result<()> {
///         loop {
///             match r.next()? {
///                 Event::Start(t) => names.push(t.name().to_string()),
///                 Event::Eof => return Ok(()),
///                 _ => {}
///             }
///         }
///     })?;
/// }
/// assert_eq!(names, ["a", "b", "c"]);
/// # Ok::<(), xwire::Error>(())
/// ```
pub struct ReaderSlot {
    /// Between reads it holds no input, stream nor resolver (see [`Reader::park`]): nothing
    /// that borrows, so `'static` is true of it.
    reader: Reader<'static>,
}

impl ReaderSlot {
    /// A slot whose reader reads with `config`.
    pub fn new(config: Config) -> ReaderSlot {
        ReaderSlot {
            reader: Reader::empty(config),
        }
    }

    /// The configuration every document is read with.
    pub fn config(&self) -> &Config {
        self.reader.config()
    }

    /// Reads the document `bytes`: `f` gets a reader at its start, as
    /// [`Reader::with_config`] makes one (UTF-8 read in place, other encodings transcoded
    /// once), and its answer is returned. The reader is lent for this call only; when `f`
    /// returns (or unwinds), the reader lets go of `bytes`, and of any resolver `f` gave it.
    #[inline(always)]
    pub fn read<'d, T>(&mut self, bytes: &'d [u8], f: impl FnOnce(&mut Reader<'d>) -> T) -> T {
        /// Parks the reader when `read` ends, returning or unwinding.
        struct Park<'s>(&'s mut Reader<'static>);
        impl Drop for Park<'_> {
            fn drop(&mut self) {
                self.0.park();
            }
        }
        self.reader.restart();
        let park = Park(&mut self.reader);
        let reader: *mut Reader<'static> = &mut *park.0;
        // SAFETY: `Reader<'static>` and `Reader<'d>` differ only in a lifetime, so they have one
        // layout. The reader is lent as a `Reader<'d>` to `f` alone, for this call (`park` is
        // not used until `f` is done with it, and `f` cannot keep the borrow). Whatever `f`
        // leaves in it that borrows for `'d` (the input set here, a stream or resolver it
        // installed, or a whole other reader it swapped in) is in the three fields
        // `Reader::park` clears when `park` drops, before `read` returns or unwinds: the slot
        // never holds a `'d` borrow once `'d` may have ended.
        #[allow(unsafe_code)]
        let reader: &mut Reader<'d> = unsafe { &mut *reader.cast::<Reader<'d>>() };
        reader.init_slice(bytes);
        f(reader)
    }
}

impl Default for ReaderSlot {
    fn default() -> ReaderSlot {
        ReaderSlot::new(Config::default())
    }
}

// SAFETY: the reader is `Send` but for its resolver and its stream (boxed trait objects
// without a `Send` bound). Between reads both are `None` (`Reader::park`); during a read the
// slot is mutably borrowed by `read`, and the reader lent to `f` is not `Send`, so neither can
// cross to another thread while it may hold them.
#[allow(unsafe_code)]
unsafe impl Send for ReaderSlot {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Event, ResolvedEntity, Resolver};
    use std::cell::Cell;

    fn names(slot: &mut ReaderSlot, doc: &[u8]) -> crate::Result<Vec<String>> {
        slot.read(doc, |r| {
            let mut out = Vec::new();
            loop {
                match r.next()? {
                    Event::Start(t) => {
                        out.push(format!("{{{}}}{}", t.namespace_uri(), t.local_name()))
                    }
                    Event::Eof => return Ok(out),
                    _ => {}
                }
            }
        })
    }

    #[test]
    fn each_document_starts_afresh() {
        let mut slot = ReaderSlot::default();
        assert_eq!(
            names(&mut slot, b"<a xmlns='urn:1'><b/></a>").unwrap(),
            ["{urn:1}a", "{urn:1}b"]
        );
        // The kept names mean the same; the bindings of the last document are gone.
        assert_eq!(names(&mut slot, b"<b><a/></b>").unwrap(), ["{}b", "{}a"]);
        // An error does not outlive its document.
        assert!(names(&mut slot, b"<a><b></a>").is_err());
        assert_eq!(
            names(&mut slot, b"<?xml version='1.0'?><c/>").unwrap(),
            ["{}c"]
        );
        // Nor a DTD's declarations.
        let text = |r: &mut Reader<'_>| -> crate::Result<String> {
            r.next_start()?;
            r.element_text()
        };
        let dtd = b"<!DOCTYPE a [<!ENTITY e 'x'>]><a>&e;</a>";
        assert_eq!(slot.read(dtd, text).unwrap(), "x");
        assert!(slot.read(b"<a>&e;</a>", text).is_err());
        // Other encodings are transcoded, and the next UTF-8 document read in place.
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("<é/>".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(names(&mut slot, &utf16).unwrap(), ["{}é"]);
        assert_eq!(names(&mut slot, b"<d/>").unwrap(), ["{}d"]);
    }

    /// Counts its calls and its drop in cells it borrows. Dropped after the borrow ended, it
    /// would write freed memory (which `cargo miri test` reports).
    struct Counting<'a> {
        calls: &'a Cell<u32>,
        drops: &'a Cell<u32>,
    }

    impl Resolver for Counting<'_> {
        fn resolve(
            &mut self,
            _: Option<&str>,
            _: &str,
            _: Option<&str>,
        ) -> Result<Option<ResolvedEntity>, String> {
            self.calls.set(self.calls.get() + 1);
            Ok(None)
        }
    }

    impl Drop for Counting<'_> {
        fn drop(&mut self) {
            self.drops.set(self.drops.get() + 1);
        }
    }

    fn to_the_end(r: &mut Reader<'_>) {
        while !matches!(r.next(), Ok(Event::Eof) | Err(_)) {}
    }

    #[test]
    fn lets_go_of_what_it_borrowed() {
        let mut slot = ReaderSlot::default();
        let (calls, drops) = (Cell::new(0), Cell::new(0));
        let doc = b"<!DOCTYPE a SYSTEM 'a.dtd'><a/>".to_vec();
        slot.read(&doc, |r| {
            r.set_resolver(Counting {
                calls: &calls,
                drops: &drops,
            });
            to_the_end(r);
        });
        assert_eq!((calls.get(), drops.get()), (1, 1));
        // The resolver went with the document: the next one loads nothing.
        slot.read(&doc, to_the_end);
        assert_eq!(calls.get(), 1);
        // A panic in `f` parks the reader too; the slot reads on.
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            slot.read(b"<a><b/></a>", |r| {
                r.next().unwrap();
                panic!("stop");
            })
        }));
        assert!(caught.is_err());
        assert_eq!(names(&mut slot, b"<a><b/></a>").unwrap(), ["{}a", "{}b"]);
    }

    #[test]
    fn a_reader_swapped_in_is_parked_too() {
        let mut slot = ReaderSlot::default();
        {
            let (calls, drops) = (Cell::new(0), Cell::new(0));
            let doc = b"<x/>".to_vec();
            slot.read(b"<a/>", |r| {
                let mut other = Reader::from_slice(&doc);
                other.set_resolver(Counting {
                    calls: &calls,
                    drops: &drops,
                });
                std::mem::swap(r, &mut other);
            });
            // The swapped-in reader's resolver went when `read` returned.
            assert_eq!(drops.get(), 1);
        }
        assert_eq!(names(&mut slot, b"<b/>").unwrap(), ["{}b"]);
    }

    #[test]
    fn is_send() {
        fn send<T: Send>() {}
        send::<ReaderSlot>();
    }
}
