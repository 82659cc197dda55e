package xwire.bench;

import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The checksum every peer computes (see the bench crate's peers module): elements + attributes
 * (namespace declarations excluded) + UTF-8 bytes of character data inside the root element.
 */
final class Checksum {
    private Checksum() {}

    static final String XMLNS_URI = "http://www.w3.org/2000/xmlns/";

    /** Where names and values read go, so that the JIT cannot drop the reads. */
    static volatile long sink;

    /** UTF-8 length of a char range, without allocating; a surrogate pair counts 4 bytes. */
    static long utf8(char[] ch, int start, int len) {
        long n = 0;
        int end = start + len;
        for (int i = start; i < end; i++) {
            char c = ch[i];
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(ch[i + 1])) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** UTF-8 length of a string, without allocating. */
    static long utf8(CharSequence s) {
        long n = 0;
        int end = s.length();
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    static boolean isNamespaceDeclaration(String qname, String uri) {
        return XMLNS_URI.equals(uri) || "xmlns".equals(qname) || (qname != null && qname.startsWith("xmlns:"));
    }

    /** A SAX handler counting the checksum; errors (validation included) are fatal. */
    static class Sax extends DefaultHandler {
        long sum;
        int depth;
        long touched;

        void reset() {
            sum = 0;
            depth = 0;
            touched = 0;
        }

        @Override
        public void startElement(String uri, String local, String qname, Attributes atts) throws SAXException {
            depth++;
            sum++;
            touched += local.length() + (uri == null ? 0 : uri.length());
            int n = atts.getLength();
            for (int i = 0; i < n; i++) {
                String q = atts.getQName(i);
                String u = atts.getURI(i);
                if (isNamespaceDeclaration(q, u)) {
                    continue;
                }
                sum++;
                touched += atts.getLocalName(i).length() + atts.getValue(i).length();
            }
        }

        @Override
        public void endElement(String uri, String local, String qname) {
            depth--;
        }

        @Override
        public void characters(char[] ch, int start, int len) {
            if (depth > 0) {
                sum += utf8(ch, start, len);
            }
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int len) {
            characters(ch, start, len);
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }

        long finish() {
            sink += touched;
            return sum;
        }
    }
}
