//! What the caller sets: safety limits and the reader's configuration.

/// Safety limits. Every default is chosen so ordinary documents never meet it and hostile ones
/// fail fast in bounded memory.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum element nesting depth. Default 4096.
    pub max_depth: u32,
    /// Maximum attributes on one element. Default 10,000.
    pub max_attributes: u32,
    /// Maximum length of a name in bytes. Default 50,000.
    pub max_name_length: u32,
    /// Maximum length in bytes of one token: text node, attribute value, comment, PI, CDATA
    /// section, start tag or DTD. Default 10,000,000.
    pub max_text_length: u64,
    /// Maximum bytes produced by entity expansion over the whole document. Default 10,000,000.
    pub max_entity_expansion: u64,
    /// Maximum ratio of entity expansion to document size, checked once expansion passes 1 MiB.
    /// Default 20.
    pub max_expansion_ratio: u64,
    /// Maximum nesting of entity references. Default 64.
    pub max_entity_depth: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 4096,
            max_attributes: 10_000,
            max_name_length: 50_000,
            max_text_length: 10_000_000,
            max_entity_expansion: 10_000_000,
            max_expansion_ratio: 20,
            max_entity_depth: 64,
        }
    }
}

/// How a [`Reader`](crate::Reader) behaves.
///
/// ```
/// let mut config = xwire::Config::default();
/// config.limits.max_depth = 2;
/// let mut r = xwire::Reader::with_config(b"<a><b><c/></b></a>", config);
/// let err = std::iter::from_fn(|| Some(r.next().map(|e| e.kind()))).find_map(|e| e.err()).unwrap();
/// assert!(err.to_string().contains("nesting depth"));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Safety limits.
    pub limits: Limits,
    /// Process namespaces (resolve prefixes, check the constraints of Namespaces in XML 1.0).
    /// Default true. When false, names are plain XML 1.0 names and every namespace id is
    /// [`NsId::NONE`](crate::NsId::NONE).
    pub namespaces: bool,
    /// Bytes read from a `std::io::Read` at a time. Default 64 KiB.
    pub chunk_size: usize,
    /// Base URI of the document, passed to the resolver for relative system identifiers.
    pub base_uri: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            namespaces: true,
            chunk_size: 64 * 1024,
            base_uri: None,
        }
    }
}
