//! Binary input through the reader: typed content, frames and the string table (the binary
//! source itself is [`super::binary`]).

use std::borrow::Cow;

use crate::binary::{self, Primitive, Typed};
use crate::error::Result;

use super::Reader;

impl<'a> Reader<'a> {
    /// Whether the reader reads binary XML (`docs/binary-format.md`): the input started with
    /// [`binary::MAGIC`]. Events are the same as for the text form of the document; see
    /// [`Reader::typed_content`] for what only binary input has.
    pub fn is_binary(&self) -> bool {
        self.binary.is_some()
    }

    /// The typed content of a LEAF or ARRAY element of binary input, called right after its
    /// [`Event::Start`](crate::Event::Start) (before reading or peeking further): the value, or the values viewed
    /// in place when their byte order is the machine's and they are aligned in memory (else
    /// copied). The cursor then skips the text event that would have carried the content's
    /// text form: the next event is the element's end. `None` for text input, for other
    /// elements, and once the content was read.
    ///
    /// ```
    /// use xwire::binary::{Typed, TypedValue};
    /// use xwire::{Event, Reader};
    /// // <v>2.5</v> with v a LEAF of type f64 (little-endian).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x12, 0x01, 0x01, b'v', 0x03, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x0A]);
    /// file.extend(2.5f64.to_le_bytes());
    /// let mut r = Reader::from_slice(&file);
    /// assert!(matches!(r.next()?, Event::Start(t) if t.name() == "v"));
    /// assert_eq!(r.typed_content()?, Some(Typed::Value(TypedValue::F64(2.5))));
    /// assert!(matches!(r.next()?, Event::End(_)));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn typed_content(&mut self) -> Result<Option<Typed<'_>>> {
        self.take_typed(None)
    }

    /// Like [`Reader::typed_content`] for an ARRAY element of values of type `T`: its values,
    /// `None` (and the content left unread) for anything else.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use xwire::{Event, Reader};
    /// // <a>1 2</a> with a an ARRAY of i32, little-endian, values at offset 24 (aligned).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x17, 0x01, 0x01, b'a', 0x04, 0x12, 0x00, 0x00, 0x00, 0x00, 0x03, 0x02, 0x00]);
    /// file.extend([1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]);
    /// let mut r = Reader::from_slice(&file);
    /// r.next()?;
    /// let values = r.array::<i32>()?.unwrap();
    /// assert_eq!(&*values, &[1, 2]);
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn array<T: Primitive>(&mut self) -> Result<Option<Cow<'_, [T]>>> {
        Ok(match self.take_typed(Some(T::TYPE))? {
            Some(Typed::Array(a)) => T::from_array(a),
            _ => None,
        })
    }

    /// Where the current event's frame lies, for binary input (see [`binary::FrameInfo`]):
    /// the element-like frame after an [`Event::Start`](crate::Event::Start), the frame of a text, CDATA, comment or
    /// PI event. `None` for text input, for ends, for the text form of a typed value, and
    /// after an error.
    ///
    /// ```
    /// use xwire::binary::{ByteOrder, FrameKind};
    /// use xwire::Reader;
    /// // <v>2.5</v> with v a LEAF of type f64 (little-endian).
    /// let mut file = b"\x89XWB\r\n\x1a\n\x01\x00".to_vec();
    /// file.extend([0x01, 0x12, 0x01, 0x01, b'v', 0x03, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x0A]);
    /// file.extend(2.5f64.to_le_bytes());
    /// let mut r = Reader::from_slice(&file);
    /// r.next()?;
    /// let f = r.frame().unwrap();
    /// assert_eq!((f.offset, f.kind, f.byte_order), (15, FrameKind::Leaf, ByteOrder::Little));
    /// assert_eq!((f.body, f.values), (17..30, Some(22..30)));
    /// # Ok::<(), xwire::Error>(())
    /// ```
    pub fn frame(&self) -> Option<binary::FrameInfo> {
        if self.failed.is_some() {
            return None;
        }
        self.binary
            .as_ref()?
            .frame_info(self.input.data(), &self.core.st.tok)
    }

    /// The string table of binary input (names, prefixes, URIs and PI targets, in table
    /// order), once the first event was read; empty for text input.
    #[allow(unsafe_code)]
    pub fn string_table(&self) -> impl Iterator<Item = &str> + '_ {
        let data = self.input.data();
        self.binary.iter().flat_map(move |d| {
            // SAFETY: the input the decoder was made with (see `Reader::binary`).
            unsafe { d.strings(data) }
        })
    }

    #[allow(unsafe_code)]
    pub(in crate::reader) fn take_typed(
        &mut self,
        want: Option<binary::PrimitiveType>,
    ) -> Result<Option<Typed<'_>>> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Reader {
            input,
            core,
            binary,
            peeked,
            ..
        } = self;
        let st = &core.st;
        Ok(match binary.as_mut() {
            // SAFETY: the input the decoder was made with (see `Reader::binary`).
            Some(d) => unsafe { d.take_typed(input.data(), &st.tok, peeked, want) },
            None => None,
        })
    }

    // ----- document information ---------------------------------------------------------------
}
