//! Loading external entities: off unless the caller installs a [`Resolver`].

use std::path::{Component, Path, PathBuf};

/// The bytes of an external entity, as a resolver found them.
#[derive(Debug, Clone)]
pub struct ResolvedEntity {
    /// The entity's bytes, in whatever encoding it declares.
    pub bytes: Vec<u8>,
    /// The entity's own URI (or path), used as the base for references inside it.
    pub uri: String,
}

/// Finds external entities (the external DTD subset, external parameter and general entities).
///
/// The reader never loads anything by itself: without a resolver, external entities are
/// reported (declared but not read) and a non-validating reader carries on as the XML
/// recommendation allows. Return `Ok(None)` to leave an entity unread.
pub trait Resolver {
    /// Loads the entity with these identifiers. `base` is the URI of the entity (or document)
    /// that holds the declaration, for resolving a relative `system_id`.
    fn resolve(
        &mut self,
        public_id: Option<&str>,
        system_id: &str,
        base: Option<&str>,
    ) -> Result<Option<ResolvedEntity>, String>;
}

/// A resolver that reads files below one directory and refuses everything else: URLs with a
/// scheme, absolute paths and relative paths that climb out of the root.
///
/// ```
/// use xwire::{FsResolver, Resolver};
/// let mut r = FsResolver::new(std::env::temp_dir());
/// assert!(r.resolve(None, "http://example.com/x.dtd", None).is_err());
/// assert!(r.resolve(None, "../../etc/passwd", None).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct FsResolver {
    root: PathBuf,
}

impl FsResolver {
    /// A resolver confined to `root`.
    pub fn new(root: impl Into<PathBuf>) -> FsResolver {
        let root = root.into();
        let root = root.canonicalize().unwrap_or(root);
        FsResolver { root }
    }
}

/// Joins `rel` to the directory of `base` lexically (no file system access).
fn join(base: Option<&str>, rel: &str) -> PathBuf {
    let rel_path = Path::new(rel);
    let joined = match base {
        Some(b) if rel_path.is_relative() => Path::new(b)
            .parent()
            .map(|p| p.join(rel_path))
            .unwrap_or_else(|| rel_path.to_path_buf()),
        _ => rel_path.to_path_buf(),
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

impl Resolver for FsResolver {
    fn resolve(
        &mut self,
        _public_id: Option<&str>,
        system_id: &str,
        base: Option<&str>,
    ) -> Result<Option<ResolvedEntity>, String> {
        let sys = system_id.strip_prefix("file:").unwrap_or(system_id);
        if sys.contains("://") || sys.contains('#') {
            return Err(format!(
                "refusing to load \"{system_id}\": only local files are allowed"
            ));
        }
        let path = join(base, sys);
        let path = if path.is_relative() {
            self.root.join(path)
        } else {
            path
        };
        let real = path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "refusing to load \"{system_id}\": outside {}",
                self.root.display()
            ));
        }
        let bytes = std::fs::read(&real).map_err(|e| format!("{}: {e}", real.display()))?;
        Ok(Some(ResolvedEntity {
            bytes,
            uri: real.to_string_lossy().into_owned(),
        }))
    }
}
