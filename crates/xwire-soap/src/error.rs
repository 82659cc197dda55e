//! Why a message is not a SOAP message this node can act on, and the fault that says so.

use crate::fault::{Code, Fault};
use crate::version::Version;

/// A message that could not be read as a SOAP envelope. Each error knows the fault a node
/// answers it with ([`Error::to_fault`]), in the version the message was in where that is
/// known.
///
/// ```
/// use xwire_soap::{Code, Envelope};
/// let e = Envelope::parse(b"<Envelope/>").unwrap_err();
/// assert_eq!(e.to_fault().code, Code::VersionMismatch);
/// let e = Envelope::parse(b"<a>").unwrap_err();
/// assert_eq!(e.to_fault().code, Code::Sender);
/// ```
#[derive(Debug, Clone)]
pub enum Error {
    /// The bytes are not well-formed XML, or hold what SOAP forbids (a document type
    /// declaration, a processing instruction), located by the reader.
    Xml(xwire::Error),
    /// The root element is not a SOAP 1.1 or 1.2 `Envelope`: the fault is
    /// `VersionMismatch`.
    VersionMismatch {
        /// The root element's namespace and local name, as `{ns}local`.
        found: String,
    },
    /// An envelope whose structure breaks its version's rules (no `Body`, two `Header`s, a
    /// header block without a namespace, a bad `mustUnderstand`, a malformed fault).
    Malformed {
        /// The message's version.
        version: Version,
        /// What is wrong.
        message: String,
    },
}

impl Error {
    pub(crate) fn malformed(version: Version, message: impl Into<String>) -> Error {
        Error::Malformed {
            version,
            message: message.into(),
        }
    }

    /// The version the faulty message was in, where it is known.
    pub fn version(&self) -> Option<Version> {
        match self {
            Error::Malformed { version, .. } => Some(*version),
            _ => None,
        }
    }

    /// The fault a SOAP node answers this error with: `VersionMismatch` for an envelope of
    /// no known version (with an `Upgrade` header naming both, in 1.2), `Sender` (1.1:
    /// `Client`) for everything else: the message is at fault, not the node.
    pub fn to_fault(&self) -> Fault {
        match self {
            Error::VersionMismatch { found } => {
                let mut f = Fault::new(
                    Code::VersionMismatch,
                    format!("the root element {found} is not a SOAP 1.1 or 1.2 Envelope"),
                );
                f.upgrade = vec![Version::V12, Version::V11];
                f
            }
            Error::Xml(e) => Fault::new(Code::Sender, format!("the message is not XML: {e}")),
            Error::Malformed { message, .. } => Fault::new(Code::Sender, message.clone()),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Xml(e) => write!(f, "{e}"),
            Error::VersionMismatch { found } => {
                write!(
                    f,
                    "the root element {found} is not a SOAP 1.1 or 1.2 Envelope"
                )
            }
            Error::Malformed { version, message } => write!(f, "{version}: {message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Xml(e) => Some(e),
            _ => None,
        }
    }
}

impl From<xwire::Error> for Error {
    fn from(e: xwire::Error) -> Error {
        Error::Xml(e)
    }
}
