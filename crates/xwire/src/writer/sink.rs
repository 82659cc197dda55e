//! [`XmlSink`]: the methods the text [`Writer`](super::Writer) and the
//! [`BinaryWriter`](crate::binary::BinaryWriter) share, so an application picks the encoding
//! in one place and writes documents through generic code. Each writer implements it in its
//! own file with `delegate!`, so this file depends on neither.

use super::error::WriteError;
use crate::binary::value::{Array, TypedValue};
use crate::reader::event::Event;

/// Something that writes an XML document: the text [`Writer`](super::Writer) or the binary
/// [`BinaryWriter`](crate::binary::BinaryWriter). Each method behaves as the inherent method
/// of the same name.
///
/// ```
/// use xwire::binary::{BinaryWriter, TypedValue};
/// use xwire::writer::{WriteError, Writer, XmlSink};
///
/// fn point(w: &mut impl XmlSink) -> Result<(), WriteError> {
///     w.start_element("point")?;
///     w.attribute("unit", "m")?;
///     w.value(TypedValue::F64(2.5))?;
///     w.end_element()
/// }
///
/// let mut text = Writer::new(Vec::new());
/// point(&mut text)?;
/// assert_eq!(text.finish()?, br#"<point unit="m">2.5</point>"#);
///
/// let mut binary = BinaryWriter::new(Vec::new());
/// point(&mut binary)?;
/// assert!(xwire::binary::is_binary(&binary.finish()?));
/// # Ok::<(), WriteError>(())
/// ```
pub trait XmlSink {
    /// Starts an element named by a qualified name as written.
    fn start_element(&mut self, qname: &str) -> Result<(), WriteError>;
    /// Starts an element by namespace URI, local name and preferred prefix.
    fn start_element_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
    ) -> Result<(), WriteError>;
    /// Adds an attribute by qualified name to the element just started.
    fn attribute(&mut self, qname: &str, value: &str) -> Result<(), WriteError>;
    /// Adds an attribute by namespace URI, local name and preferred prefix.
    fn attribute_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<(), WriteError>;
    /// Declares a namespace on the element just started (`None`: the default namespace).
    fn namespace(&mut self, prefix: Option<&str>, uri: &str) -> Result<(), WriteError>;
    /// Writes character data.
    fn text(&mut self, text: &str) -> Result<(), WriteError>;
    /// Writes a CDATA section.
    fn cdata(&mut self, text: &str) -> Result<(), WriteError>;
    /// Writes a comment.
    fn comment(&mut self, text: &str) -> Result<(), WriteError>;
    /// Writes a processing instruction.
    fn processing_instruction(&mut self, target: &str, data: &str) -> Result<(), WriteError>;
    /// Ends the innermost open element.
    fn end_element(&mut self) -> Result<(), WriteError>;
    /// Copies an event read by [`crate::Reader`].
    fn write_event(&mut self, event: &Event<'_>) -> Result<(), WriteError>;
    /// Writes a typed value as the content of the open element.
    fn value(&mut self, value: TypedValue<'_>) -> Result<(), WriteError>;
    /// Writes an array of values as the content of the open element.
    fn array(&mut self, array: &Array<'_>) -> Result<(), WriteError>;
}

/// A sink reached through a mutable reference: what lets generic code hand a sink on as a
/// `&mut dyn XmlSink` whatever its type.
impl<S: XmlSink + ?Sized> XmlSink for &mut S {
    fn start_element(&mut self, qname: &str) -> Result<(), WriteError> {
        (**self).start_element(qname)
    }
    fn start_element_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
    ) -> Result<(), WriteError> {
        (**self).start_element_ns(uri, local, prefix)
    }
    fn attribute(&mut self, qname: &str, value: &str) -> Result<(), WriteError> {
        (**self).attribute(qname, value)
    }
    fn attribute_ns(
        &mut self,
        uri: &str,
        local: &str,
        prefix: Option<&str>,
        value: &str,
    ) -> Result<(), WriteError> {
        (**self).attribute_ns(uri, local, prefix, value)
    }
    fn namespace(&mut self, prefix: Option<&str>, uri: &str) -> Result<(), WriteError> {
        (**self).namespace(prefix, uri)
    }
    fn text(&mut self, text: &str) -> Result<(), WriteError> {
        (**self).text(text)
    }
    fn cdata(&mut self, text: &str) -> Result<(), WriteError> {
        (**self).cdata(text)
    }
    fn comment(&mut self, text: &str) -> Result<(), WriteError> {
        (**self).comment(text)
    }
    fn processing_instruction(&mut self, target: &str, data: &str) -> Result<(), WriteError> {
        (**self).processing_instruction(target, data)
    }
    fn end_element(&mut self) -> Result<(), WriteError> {
        (**self).end_element()
    }
    fn write_event(&mut self, event: &Event<'_>) -> Result<(), WriteError> {
        (**self).write_event(event)
    }
    fn value(&mut self, value: TypedValue<'_>) -> Result<(), WriteError> {
        (**self).value(value)
    }
    fn array(&mut self, array: &Array<'_>) -> Result<(), WriteError> {
        (**self).array(array)
    }
}

/// Implements [`XmlSink`] for a writer `$ty<W: Write>` by calling its inherent methods of the
/// same names. Invoked next to each writer's type; the paths are absolute so the caller needs
/// no imports.
macro_rules! delegate {
    ($ty:ident) => {
        impl<W: std::io::Write> $crate::writer::sink::XmlSink for $ty<W> {
            fn start_element(
                &mut self,
                qname: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::start_element(self, qname)
            }
            fn start_element_ns(
                &mut self,
                uri: &str,
                local: &str,
                prefix: Option<&str>,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::start_element_ns(self, uri, local, prefix)
            }
            fn attribute(
                &mut self,
                qname: &str,
                value: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::attribute(self, qname, value)
            }
            fn attribute_ns(
                &mut self,
                uri: &str,
                local: &str,
                prefix: Option<&str>,
                value: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::attribute_ns(self, uri, local, prefix, value)
            }
            fn namespace(
                &mut self,
                prefix: Option<&str>,
                uri: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::namespace(self, prefix, uri)
            }
            fn text(
                &mut self,
                text: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::text(self, text)
            }
            fn cdata(
                &mut self,
                text: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::cdata(self, text)
            }
            fn comment(
                &mut self,
                text: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::comment(self, text)
            }
            fn processing_instruction(
                &mut self,
                target: &str,
                data: &str,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::processing_instruction(self, target, data)
            }
            fn end_element(
                &mut self,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::end_element(self)
            }
            fn write_event(
                &mut self,
                event: &$crate::reader::event::Event<'_>,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::write_event(self, event)
            }
            fn value(
                &mut self,
                value: $crate::binary::value::TypedValue<'_>,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::value(self, value)
            }
            fn array(
                &mut self,
                array: &$crate::binary::value::Array<'_>,
            ) -> ::std::result::Result<(), $crate::writer::error::WriteError> {
                $ty::array(self, array)
            }
        }
    };
}

pub(crate) use delegate;
