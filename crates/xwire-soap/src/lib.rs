//! # xwire-soap
//!
//! SOAP 1.1 and 1.2 on xwire. A message is an [`Envelope`]: the binary data model's
//! [`TypedDocument`](xwire::binary::TypedDocument), the same value whether the message came
//! as text XML or as xwire's binary XML, with its [`Version`] and the places of its `Header`
//! and `Body`.
//!
//! - [`Envelope`] reads and checks a message (each [`Error`] knows the fault to answer it
//!   with), and builds one in order.
//! - [`HeaderBlock`] and [`Node`]: the processing model. Which blocks are for this node (1.2
//!   roles, 1.1 actors) and the `MustUnderstand` fault when one of them is not understood.
//! - [`Fault`]: faults of both versions as one typed value, read from a body and written
//!   into a reply.
//! - [`encoding`]: SOAP encoding's object graphs ([`Graph`]): structs, arrays and shared or
//!   cyclic references, read from and written to an envelope.
//!
//! ```
//! use xwire_soap::{Envelope, Node};
//! let request = br#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
//!   <soap:Body><m:ping xmlns:m="urn:m"/></soap:Body>
//! </soap:Envelope>"#;
//! let reply = match Envelope::parse(request) {
//!     Err(e) => e.to_fault().to_envelope(e.version().unwrap_or(xwire_soap::Version::V11)),
//!     Ok(env) => match Node::ultimate_receiver().process(&env, |_| false) {
//!         Err(fault) => fault.to_envelope(env.version()),
//!         Ok(_) => {
//!             let mut reply = Envelope::new(env.version());
//!             reply.add_body_element("urn:m", "m:pong");
//!             reply
//!         }
//!     },
//! };
//! assert!(String::from_utf8(reply.to_bytes()?)?.contains("<m:pong xmlns:m=\"urn:m\"/>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encoding;
mod envelope;
mod error;
mod fault;
mod header;
mod version;

pub use encoding::{Graph, NodeRef, Value};
pub use envelope::Envelope;
pub use error::Error;
pub use fault::{Code, Fault, QName, Reason};
pub use header::{HeaderBlock, Node};
pub use version::{Version, SOAP11_ENC, SOAP11_ENV, SOAP12_ENC, SOAP12_ENV};
