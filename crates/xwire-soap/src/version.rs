//! The two SOAP versions and the names each gives the same things.

/// The SOAP 1.1 envelope namespace.
pub const SOAP11_ENV: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// The SOAP 1.2 envelope namespace.
pub const SOAP12_ENV: &str = "http://www.w3.org/2003/05/soap-envelope";
/// The SOAP 1.1 encoding namespace (`soapenc`).
pub const SOAP11_ENC: &str = "http://schemas.xmlsoap.org/soap/encoding/";
/// The SOAP 1.2 encoding namespace.
pub const SOAP12_ENC: &str = "http://www.w3.org/2003/05/soap-encoding";

/// A SOAP version. A message is one or the other by its envelope's namespace; everything
/// that differs between them by name only (media type, fault codes, the attribute that
/// targets a header) is answered here.
///
/// ```
/// use xwire_soap::Version;
/// let v = Version::from_envelope_ns("http://www.w3.org/2003/05/soap-envelope");
/// assert_eq!(v, Some(Version::V12));
/// assert_eq!(Version::V11.media_type(), "text/xml");
/// assert_eq!(Version::V12.role_attribute(), "role");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// SOAP 1.1 (W3C Note, 2000).
    V11,
    /// SOAP 1.2 (W3C Recommendation, second edition 2007).
    V12,
}

impl Version {
    /// The version whose envelope namespace is `ns`.
    pub fn from_envelope_ns(ns: &str) -> Option<Version> {
        match ns {
            SOAP11_ENV => Some(Version::V11),
            SOAP12_ENV => Some(Version::V12),
            _ => None,
        }
    }

    /// The envelope namespace.
    pub const fn envelope_ns(self) -> &'static str {
        match self {
            Version::V11 => SOAP11_ENV,
            Version::V12 => SOAP12_ENV,
        }
    }

    /// The encoding namespace (arrays, structs, references).
    pub const fn encoding_ns(self) -> &'static str {
        match self {
            Version::V11 => SOAP11_ENC,
            Version::V12 => SOAP12_ENC,
        }
    }

    /// The prefix this crate writes the envelope namespace with.
    pub const fn prefix(self) -> &'static str {
        match self {
            Version::V11 => "soap",
            Version::V12 => "env",
        }
    }

    /// The media type of a message in text XML: `text/xml` (1.1, with a `SOAPAction` HTTP
    /// header) or `application/soap+xml` (1.2, with an `action` parameter).
    pub const fn media_type(self) -> &'static str {
        match self {
            Version::V11 => "text/xml",
            Version::V12 => "application/soap+xml",
        }
    }

    /// The local name of the attribute that says which node a header block is for: `actor`
    /// in 1.1, `role` in 1.2 (both in the envelope namespace).
    pub const fn role_attribute(self) -> &'static str {
        match self {
            Version::V11 => "actor",
            Version::V12 => "role",
        }
    }

    /// The role every node plays: the next one on the message path.
    pub const fn next_role(self) -> &'static str {
        match self {
            Version::V11 => "http://schemas.xmlsoap.org/soap/actor/next",
            Version::V12 => "http://www.w3.org/2003/05/soap-envelope/role/next",
        }
    }

    /// The role of the ultimate receiver, named in 1.2 only (in 1.1 a header block without
    /// an actor is for the ultimate receiver, and has no name for it).
    pub const fn ultimate_receiver_role(self) -> Option<&'static str> {
        match self {
            Version::V11 => None,
            Version::V12 => Some("http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"),
        }
    }

    /// The role no node plays (1.2 only): blocks for it are data for others to read.
    pub const fn none_role(self) -> Option<&'static str> {
        match self {
            Version::V11 => None,
            Version::V12 => Some("http://www.w3.org/2003/05/soap-envelope/role/none"),
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Version::V11 => "SOAP 1.1",
            Version::V12 => "SOAP 1.2",
        })
    }
}
