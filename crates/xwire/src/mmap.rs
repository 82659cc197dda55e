//! Memory-mapped files as reader input (feature `mmap`, on by default).
//!
//! Mapping a file lets [`Reader`] read it in place, zero-copy like any slice, without reading
//! it into a buffer first; the operating system pages it in as the reader advances.
//!
//! The mapping shows the file as it is *now*: if another process truncates or rewrites it
//! while it is mapped, the bytes change under the reader (which viewed them as `str`s once it
//! had checked them), or reading them faults. Rust cannot rule that out, so opening a mapping
//! is an `unsafe fn`, as [`memmap2::Mmap::map`] is; read the file with [`std::fs::read`]
//! instead when you cannot promise that nobody changes it.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

use crate::{Config, Reader};

/// A file mapped read-only into memory.
///
/// ```no_run
/// // SAFETY: auction.xml is ours, and nothing writes to it while it is read.
/// let file = unsafe { xwire::MappedFile::open("auction.xml")? };
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
    ///
    /// # Safety
    ///
    /// The file must not be truncated or modified, by this process or another, while the
    /// returned value (or anything borrowed from it, such as a [`Reader`]) lives. A truncated
    /// file makes reading its mapped pages fault (`SIGBUS`); a modified one changes bytes that
    /// were already checked and are viewed as `str`s: undefined behaviour either way. The
    /// operating system does not lock the file for you.
    #[allow(unsafe_code)]
    pub unsafe fn open(path: impl AsRef<Path>) -> io::Result<MappedFile> {
        let file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(MappedFile { map: None });
        }
        // SAFETY: the mapping is read-only and private to this value; the caller promises that
        // the file does not change while it lives, which is all `Mmap::map` requires.
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
        // SAFETY: the file is this test's own, in a directory named after its process, and
        // written again only once this mapping is gone.
        #[allow(unsafe_code)]
        let file = unsafe { MappedFile::open(&path) }.unwrap();
        assert_eq!(&*file, b"<a><b/></a>");
        let mut r = file.reader();
        assert_eq!(r.next_start().unwrap(), Some("a"));
        drop(r);
        drop(file);
        std::fs::write(&path, b"").unwrap();
        // SAFETY: as above; an empty file is not even mapped.
        #[allow(unsafe_code)]
        let empty = unsafe { MappedFile::open(&path) }.unwrap();
        assert!(empty.bytes().is_empty());
        assert!(
            empty.reader().next().is_err(),
            "an empty document has no root element"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
