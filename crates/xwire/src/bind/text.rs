//! [`Text`], the string type of generated structs: a short value lives inline, a long one on
//! the heap.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes a [`Text`] holds without an allocation.
const INLINE: usize = 22;

/// An immutable string, the type generated code gives string values (`xs:string`, `xs:token`,
/// `xs:NCName`, ...). Most values of everyday documents (names, codes, cities, identifiers)
/// are short: up to 22 bytes live inside the value itself, so reading them allocates nothing,
/// where a `String` per value would make allocation the largest cost of building the
/// objects. Longer values are on the heap. It is the size of a `String`, dereferences to
/// `str`, and converts to and from `String`.
///
/// ```
/// use xwire::bind::Text;
///
/// let city = Text::from("Old Town");
/// assert_eq!(city, "Old Town");
/// assert_eq!(city.len(), 8);
/// assert!(city.starts_with("Old"));
/// let owned: String = city.into();
/// assert_eq!(owned, "Old Town");
/// assert_eq!(Text::from("x".repeat(100)).len(), 100);
/// ```
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    /// `buf[..len]` is the string.
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    Heap(Box<str>),
    /// A namespace URI too long to be inline that documents use everywhere
    /// ([`WELL_KNOWN`]): shared, not copied.
    Static(&'static str),
}

/// Namespace URIs longer than [`INLINE`] that a [`Text`] refers to rather than copies: the
/// names `xsi:type` gives (XML Schema), the SOAP envelopes and encodings, XML's own.
const WELL_KNOWN: [&str; 7] = [
    super::any::XS,
    super::XSI,
    crate::XML_NS,
    "http://schemas.xmlsoap.org/soap/encoding/",
    "http://schemas.xmlsoap.org/soap/envelope/",
    "http://www.w3.org/2003/05/soap-envelope",
    "http://www.w3.org/2003/05/soap-encoding",
];

/// The constant among [`WELL_KNOWN`] equal to `s`, if any: what a source keeps instead of
/// the input's copy of a URI, so that comparing it with the constant is comparing two
/// pointers.
#[inline]
pub(crate) fn well_known(s: &str) -> Option<&'static str> {
    WELL_KNOWN
        .iter()
        .find(|k| k.len() == s.len() && **k == s)
        .copied()
}

impl Text {
    /// The empty string.
    pub const fn new() -> Text {
        Text(Repr::Inline {
            len: 0,
            buf: [0; INLINE],
        })
    }

    /// The string.
    #[inline]
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, buf } => {
                let bytes = &buf[..*len as usize];
                // SAFETY: an inline buffer is only ever filled with the bytes of a `str`
                // (`From<&str>`), cut at its end: valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Repr::Heap(s) => s,
            Repr::Static(s) => s,
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::new()
    }
}

impl From<&str> for Text {
    #[inline]
    fn from(s: &str) -> Text {
        if s.len() <= INLINE {
            Text(Repr::Inline {
                len: s.len() as u8,
                buf: packed(s.as_bytes()),
            })
        } else if let Some(k) = well_known(s) {
            Text(Repr::Static(k))
        } else {
            Text(Repr::Heap(s.into()))
        }
    }
}

/// `b` (at most [`INLINE`] bytes) followed by zeros, read in a few overlapping loads and put
/// together in registers. Copied with `copy_from_slice` (a call to `memcpy`), the buffer is
/// stored in pieces and then read back whole as the `Text` moves: a load that spans several
/// recent stores waits for them (store-to-load forwarding fails), 12% of building a SOAP
/// array's items.
#[inline(always)]
fn packed(b: &[u8]) -> [u8; INLINE] {
    let n = b.len();
    debug_assert!(n <= INLINE);
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]));
    // Bytes 0..16 and 16..22 (`high`'s first six).
    let (low, high): (u128, u64) = if n >= 16 {
        let first = u128::from(word(0)) | u128::from(word(8)) << 64;
        // The last eight bytes, of which the last `n - 16` go after the first sixteen.
        (first, (word(n - 8) >> 8) >> ((23 - n) * 8))
    } else if n >= 8 {
        // Two words that overlap where `n < 16`: the bytes they share are the same.
        (
            u128::from(word(0)) | u128::from(word(n - 8)) << ((n - 8) * 8),
            0,
        )
    } else if n >= 4 {
        let v = u64::from(half(0)) | u64::from(half(n - 4)) << ((n - 4) * 8);
        (u128::from(v), 0)
    } else if n > 0 {
        let v = u32::from(b[0])
            | u32::from(b[n / 2]) << (n / 2 * 8)
            | u32::from(b[n - 1]) << ((n - 1) * 8);
        (u128::from(v), 0)
    } else {
        (0, 0)
    };
    let mut buf = [0; INLINE];
    buf[..16].copy_from_slice(&low.to_le_bytes());
    buf[16..].copy_from_slice(&high.to_le_bytes()[..INLINE - 16]);
    buf
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        if s.len() <= INLINE {
            Text::from(s.as_str())
        } else {
            Text(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        match t.0 {
            Repr::Heap(s) => s.into_string(),
            Repr::Inline { .. } | Repr::Static(_) => t.as_str().to_string(),
        }
    }
}

impl Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_strings_round_trip() {
        for n in [0, 1, 21, 22, 23, 200] {
            let s = "é".repeat(n / 2) + &"a".repeat(n % 2);
            let t = Text::from(s.as_str());
            assert_eq!(t, s);
            assert_eq!(Text::from(s.clone()), t);
            assert_eq!(String::from(t.clone()), s);
            assert_eq!(format!("{t}"), s);
            assert_eq!(format!("{t:?}"), format!("{s:?}"));
        }
        assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<String>());
        assert_eq!(Text::from("a").cmp(&Text::from("b")), Ordering::Less);
        assert_eq!(Text::default(), "");
    }

    #[test]
    fn packed_is_the_bytes_then_zeros_at_every_length() {
        let all: Vec<u8> = (b'a'..).take(INLINE).collect();
        for n in 0..=INLINE {
            let mut want = [0; INLINE];
            want[..n].copy_from_slice(&all[..n]);
            assert_eq!(packed(&all[..n]), want, "{n} bytes");
            assert_eq!(Text::from(std::str::from_utf8(&all[..n]).unwrap()).len(), n);
        }
    }

    #[test]
    fn well_known_uris_are_shared_and_compare_as_strings() {
        for uri in WELL_KNOWN {
            assert!(uri.len() > INLINE, "{uri} would be inline");
            let t = Text::from(uri);
            assert!(matches!(t.0, Repr::Static(_)), "{uri}");
            assert_eq!(t, uri);
            assert_eq!(t, Text::from(uri.to_string()));
            assert_eq!(String::from(t), uri);
        }
        let other = Text::from("http://www.w3.org/2001/XMLSchema-instancf");
        assert!(matches!(other.0, Repr::Heap(_)));
    }
}
