//! Memory-mapped files as reader input (feature `mmap`, on by default).
//!
//! Mapping a file lets [`Reader`] read it in place, zero-copy like any slice, without reading
//! it into a buffer first; the operating system pages it in as the reader advances.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

use crate::{Config, Reader};

/// A file mapped read-only into memory.
///
/// ```no_run
/// let file = xwire::MappedFile::open("auction.xml")?;
/// let mut reader = file.reader();
/// while reader.next_start()?.is_some() {}
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MappedFile {
    /// `None` for an empty file, which cannot be mapped.
    map: Option<memmap2::Mmap>,
}

impl MappedFile {
    /// Maps the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> io::Result<MappedFile> {
        let file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(MappedFile { map: None });
        }
        // SAFETY: the mapping is read-only and private to this value. memmap2 cannot stop
        // another process from truncating or rewriting the file while it is mapped; that is the
        // documented caveat of every mapped input (the reader would then see changed bytes or
        // fault), which callers accept by choosing this type over `std::fs::read`.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Ok(MappedFile { map: Some(map) })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// A reader over the mapped bytes with the default configuration.
    pub fn reader(&self) -> Reader<'_> {
        Reader::from_slice(self.bytes())
    }

    /// A reader over the mapped bytes with a configuration.
    pub fn reader_with(&self, config: Config) -> Reader<'_> {
        Reader::with_config(self.bytes(), config)
    }
}

impl Deref for MappedFile {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_and_reads_a_file() {
        let dir = std::env::temp_dir().join(format!("xwire-mmap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("doc.xml");
        std::fs::write(&path, b"<a><b/></a>").unwrap();
        let file = MappedFile::open(&path).unwrap();
        assert_eq!(&*file, b"<a><b/></a>");
        let mut r = file.reader();
        assert_eq!(r.next_start().unwrap(), Some("a"));
        std::fs::write(&path, b"").unwrap();
        let empty = MappedFile::open(&path).unwrap();
        assert!(empty.bytes().is_empty());
        assert!(
            empty.reader().next().is_err(),
            "an empty document has no root element"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
