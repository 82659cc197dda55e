package xwire.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpression;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.w3c.dom.ls.DOMImplementationLS;
import org.w3c.dom.ls.LSOutput;
import org.w3c.dom.ls.LSSerializer;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;

/** The Java peers: what each can do, and its runners. */
final class Peers {
    private Peers() {}

    /** A peer of this harness. */
    record Peer(String name, List<String> ops, String checks, String probeClass, String pom, Factory factory) {
        /** Its version: the library's Maven version, or the JDK's. */
        String version() {
            if (pom == null) {
                return "JDK " + System.getProperty("java.version");
            }
            try (InputStream in = Peers.class.getResourceAsStream("/xwire-bench-versions.properties")) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty(pom, "unknown");
            } catch (Exception e) {
                return "unknown";
            }
        }

        /** Whether its classes load here. */
        boolean available() {
            try {
                Class.forName(probeClass);
                return true;
            } catch (Throwable t) {
                return false;
            }
        }
    }

    /** Prepares `op` of a peer (schema: a file, for validate). */
    interface Factory {
        Runner prepare(String op, String schema) throws Exception;
    }

    static final List<Peer> ALL = List.of(
            new Peer("jdk-stax", List.of("parse"),
                    "the JDK's built-in StAX (SJSXP lineage): well-formedness, namespaces, internal DTD",
                    "javax.xml.stream.XMLInputFactory", null,
                    (op, s) -> new Stax(jdkStax())),
            new Peer("woodstox", List.of("parse"),
                    "well-formedness, namespaces, internal DTD (not validating)",
                    "com.ctc.wstx.stax.WstxInputFactory", "woodstox-core",
                    (op, s) -> new Stax(configure(new com.ctc.wstx.stax.WstxInputFactory()))),
            new Peer("aalto", List.of("parse"),
                    "well-formedness, namespaces (StAX); a reference to a DTD-declared entity is an error",
                    "com.fasterxml.aalto.stax.InputFactoryImpl", "aalto-xml",
                    (op, s) -> new Stax(configure(new com.fasterxml.aalto.stax.InputFactoryImpl()))),
            new Peer("xerces-j-sax", List.of("push"),
                    "everything a non-validating parser checks; SAX2 with namespaces",
                    "org.apache.xerces.parsers.SAXParser", "xercesImpl",
                    (op, s) -> new XercesSax()),
            new Peer("xerces-j-dom", withPipelines("tree", "reserialize"),
                    "as xerces-j-sax; builds a (deferred) DOM, walks it; reserialize with LSSerializer; pipelines: "
                            + "the JDK's built-in XPath (javax.xml.xpath, Xalan-derived) on the Xerces DOM, compiled once, "
                            + "removeChild, LSSerializer",
                    "org.apache.xerces.parsers.DOMParser", "xercesImpl",
                    (op, s) -> Peers.PIPELINES.containsKey(op) ? new XercesPipeline(Peers.PIPELINES.get(op))
                            : new XercesDom(op.equals("reserialize"))),
            new Peer("xerces-j-validating", List.of("validate"),
                    "XML Schema 1.0 validation (Xerces-J), schema compiled once, a ValidatorHandler fed by SAX",
                    "org.apache.xerces.jaxp.validation.XMLSchemaFactory", "xercesImpl",
                    (op, s) -> new XercesValidating(s)),
            new Peer("vtd-xml", withPipelines("index", "reserialize"),
                    "well-formedness and namespace prefixes; a DTD-declared entity is an error; text read raw (CR LF not normalised); "
                            + "reserialize = index, walk, XMLModifier.output (a byte copy); pipelines: AutoPilot compiled once and "
                            + "bound to each document, XMLModifier.remove / removeToken, output to memory",
                    "com.ximpleware.VTDGen", "vtd-xml",
                    (op, s) -> Peers.PIPELINES.containsKey(op) ? new VtdPipeline(Peers.PIPELINES.get(op))
                            : new Vtd(op.equals("reserialize"))),
            new Peer("exificient", List.of("encode", "decode"),
                    "EXI 1.0, default options (schema-less, no comments/PIs/DTD/prefixes); Xerces-J parses for encode",
                    "com.siemens.ct.exi.core.helpers.DefaultEXIFactory", "exificient",
                    (op, s) -> op.equals("encode") ? new ExiEncode() : new ExiDecode()));

    /**
     * The five XPath-and-edit pipelines of the bench crate (`Op::Pipeline`), by operation name:
     * parse, evaluate the expression (compiled once per runner), delete every selected node,
     * write the result to memory.
     */
    static final Map<String, String> PIPELINES = Map.of(
            "pipeline1", "/*/*/*[position() mod 2 = 0]",
            "pipeline2", "/purchaseOrder/items/item[USPrice<100]",
            "pipeline3", "/*/*/*/quantity/text()",
            "pipeline4", "//item/comment",
            "pipeline5", "//item/comment/../quantity");

    static List<String> withPipelines(String... ops) {
        List<String> v = new java.util.ArrayList<>(List.of(ops));
        for (int i = 1; i <= 5; i++) {
            v.add("pipeline" + i);
        }
        return List.copyOf(v);
    }

    /** The pipeline checksum (bench crate: `pipeline_checksum`): nodes selected, elements left. */
    static long pipelineChecksum(long selected, long elements) {
        return selected + elements * 1_000_003L;
    }

    /** An in-memory output stream whose bytes can be read without copying. */
    static final class Out extends ByteArrayOutputStream {
        int length() {
            return count;
        }
    }

    static Peer find(String name) {
        for (Peer p : ALL) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    // --- StAX ----------------------------------------------------------------------------------

    static XMLInputFactory jdkStax() {
        // The JDK's own implementation, even with Woodstox and Aalto on the class path.
        return configure(XMLInputFactory.newDefaultFactory());
    }

    static XMLInputFactory configure(XMLInputFactory f) {
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        return f;
    }

    /** Pull parse: every event, every name, attribute value and text run. */
    static final class Stax extends Runner {
        final XMLInputFactory f;

        Stax(XMLInputFactory f) {
            this.f = f;
        }

        @Override
        long run(Object input) throws Exception {
            XMLStreamReader r = f.createXMLStreamReader(new ByteArrayInputStream((byte[]) input));
            long sum = 0;
            long touched = 0;
            int depth = 0;
            try {
                while (r.hasNext()) {
                    switch (r.next()) {
                        case XMLStreamConstants.START_ELEMENT -> {
                            depth++;
                            sum++;
                            touched += r.getLocalName().length();
                            String ns = r.getNamespaceURI();
                            touched += ns == null ? 0 : ns.length();
                            int n = r.getAttributeCount();
                            sum += n;
                            for (int i = 0; i < n; i++) {
                                touched += r.getAttributeLocalName(i).length() + r.getAttributeValue(i).length();
                            }
                        }
                        case XMLStreamConstants.END_ELEMENT -> depth--;
                        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                            if (depth > 0) {
                                sum += Checksum.utf8(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                            }
                        }
                        default -> {
                        }
                    }
                }
            } finally {
                r.close();
            }
            Checksum.sink += touched;
            return sum;
        }
    }

    // --- Xerces-J ------------------------------------------------------------------------------

    static org.apache.xerces.parsers.SAXParser xercesSax(ContentHandler h) throws SAXException {
        org.apache.xerces.parsers.SAXParser p = new org.apache.xerces.parsers.SAXParser();
        p.setFeature("http://xml.org/sax/features/namespaces", true);
        p.setContentHandler(h);
        if (h instanceof org.xml.sax.ErrorHandler e) {
            p.setErrorHandler(e);
        }
        return p;
    }

    static final class XercesSax extends Runner {
        final Checksum.Sax h = new Checksum.Sax();
        final org.apache.xerces.parsers.SAXParser p;

        XercesSax() throws SAXException {
            p = xercesSax(h);
        }

        @Override
        long run(Object input) throws Exception {
            h.reset();
            p.parse(new InputSource(new ByteArrayInputStream((byte[]) input)));
            return h.finish();
        }
    }

    static final class XercesDom extends Runner {
        final org.apache.xerces.parsers.DOMParser p = new org.apache.xerces.parsers.DOMParser();
        final boolean reserialize;

        XercesDom(boolean reserialize) throws SAXException {
            this.reserialize = reserialize;
            p.setFeature("http://xml.org/sax/features/namespaces", true);
            p.setFeature("http://apache.org/xml/features/dom/create-entity-ref-nodes", false);
            p.setErrorHandler(new Checksum.Sax());
        }

        @Override
        long run(Object input) throws Exception {
            keep = null;
            p.parse(new InputSource(new ByteArrayInputStream((byte[]) input)));
            Document d = p.getDocument();
            p.dropDocumentReferences();
            keep = d;
            long sum = walk(d);
            if (reserialize) {
                DOMImplementationLS ls = (DOMImplementationLS) d.getImplementation();
                LSSerializer ser = ls.createLSSerializer();
                LSOutput out = ls.createLSOutput();
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(((byte[]) input).length + 64);
                out.setByteStream(bytes);
                out.setEncoding("UTF-8");
                ser.write(d, out);
                Checksum.sink += bytes.size();
                last = bytes;
            }
            return sum;
        }

        ByteArrayOutputStream last;

        @Override
        byte[] output() {
            return last == null ? null : last.toByteArray();
        }
    }

    /** Elements of the subtree of `root`, without recursion. */
    static long countElements(Node root) {
        long n = 0;
        Node c = root;
        while (c != null) {
            if (c.getNodeType() == Node.ELEMENT_NODE) {
                n++;
            }
            Node next = c.getFirstChild();
            if (next == null) {
                while (c != null && c != root && c.getNextSibling() == null) {
                    c = c.getParentNode();
                }
                next = c == null || c == root ? null : c.getNextSibling();
            }
            c = next;
        }
        return n;
    }

    /**
     * Xerces-J DOM + the JDK's built-in XPath (javax.xml.xpath: Xerces-J has no XPath engine of
     * its own); the expression is compiled once per runner, the selected nodes are removed in
     * reverse document order, and LSSerializer writes the result to memory.
     */
    static final class XercesPipeline extends Runner {
        final org.apache.xerces.parsers.DOMParser p = new org.apache.xerces.parsers.DOMParser();
        final XPathExpression expr;
        final Out bytes = new Out();

        XercesPipeline(String xpath) throws Exception {
            p.setFeature("http://xml.org/sax/features/namespaces", true);
            p.setFeature("http://apache.org/xml/features/dom/create-entity-ref-nodes", false);
            p.setErrorHandler(new Checksum.Sax());
            expr = XPathFactory.newDefaultInstance().newXPath().compile(xpath);
        }

        @Override
        long run(Object input) throws Exception {
            keep = null;
            p.parse(new InputSource(new ByteArrayInputStream((byte[]) input)));
            Document d = p.getDocument();
            p.dropDocumentReferences();
            keep = d;
            NodeList nodes = (NodeList) expr.evaluate(d, XPathConstants.NODESET);
            int n = nodes.getLength();
            for (int i = n - 1; i >= 0; i--) {
                Node node = nodes.item(i);
                if (node instanceof Attr a) {
                    a.getOwnerElement().removeAttributeNode(a);
                } else if (node.getParentNode() != null) {
                    node.getParentNode().removeChild(node);
                }
            }
            Node root = d.getDocumentElement();
            long elements = root == null ? 0 : countElements(root);
            DOMImplementationLS ls = (DOMImplementationLS) d.getImplementation();
            LSSerializer ser = ls.createLSSerializer();
            LSOutput out = ls.createLSOutput();
            bytes.reset();
            out.setByteStream(bytes);
            out.setEncoding("UTF-8");
            ser.write(d, out);
            if (bytes.length() == 0) {
                throw new IllegalStateException("empty output");
            }
            Checksum.sink += bytes.length();
            return pipelineChecksum(n, elements);
        }

        @Override
        byte[] output() {
            return bytes.toByteArray();
        }
    }

    /** Walks a DOM below the document element without recursion. */
    static long walk(Document d) {
        Node root = d.getDocumentElement();
        long sum = 0;
        long touched = 0;
        Node n = root;
        while (n != null) {
            switch (n.getNodeType()) {
                case Node.ELEMENT_NODE -> {
                    sum++;
                    String local = n.getLocalName();
                    String ns = n.getNamespaceURI();
                    touched += (local == null ? 0 : local.length()) + (ns == null ? 0 : ns.length());
                    NamedNodeMap atts = n.getAttributes();
                    int len = atts.getLength();
                    for (int i = 0; i < len; i++) {
                        Attr a = (Attr) atts.item(i);
                        if (Checksum.isNamespaceDeclaration(a.getName(), a.getNamespaceURI())) {
                            continue;
                        }
                        sum++;
                        touched += a.getValue().length();
                    }
                }
                case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> sum += Checksum.utf8(n.getNodeValue());
                default -> {
                }
            }
            Node next = n.getFirstChild();
            if (next == null) {
                while (n != null && n != root && n.getNextSibling() == null) {
                    n = n.getParentNode();
                }
                next = n == null || n == root ? null : n.getNextSibling();
            }
            n = next;
        }
        Checksum.sink += touched;
        return sum;
    }

    static final class XercesValidating extends Runner {
        final Checksum.Sax h = new Checksum.Sax();
        final org.apache.xerces.parsers.SAXParser p;

        XercesValidating(String schema) throws Exception {
            if (schema == null) {
                throw new IllegalArgumentException("validate needs a schema");
            }
            javax.xml.validation.SchemaFactory sf = new org.apache.xerces.jaxp.validation.XMLSchemaFactory();
            Schema s = sf.newSchema(new StreamSource(new File(schema)));
            javax.xml.validation.ValidatorHandler v = s.newValidatorHandler();
            // Pass on the document's characters, not the schema-normalised values (" 300 " stays
            // " 300 " for an xs:int), so that the checksum is the parse's.
            v.setFeature("http://apache.org/xml/features/validation/schema/normalized-value", false);
            v.setContentHandler(h);
            v.setErrorHandler(h);
            p = xercesSax(v);
            p.setErrorHandler(h);
        }

        @Override
        long run(Object input) throws Exception {
            h.reset();
            p.parse(new InputSource(new ByteArrayInputStream((byte[]) input)));
            return h.finish();
        }
    }

    // --- VTD-XML -------------------------------------------------------------------------------

    static final class Vtd extends Runner {
        final boolean reserialize;
        final Out bytes = new Out();

        Vtd(boolean reserialize) {
            this.reserialize = reserialize;
        }

        @Override
        long run(Object input) throws Exception {
            keep = null;
            com.ximpleware.VTDGen g = new com.ximpleware.VTDGen();
            g.enableIgnoredWhiteSpace(true);
            g.setDoc((byte[]) input);
            g.parse(true);
            com.ximpleware.VTDNav vn = g.getNav();
            keep = vn;
            long sum = 0;
            long touched = 0;
            int n = vn.getTokenCount();
            for (int i = 0; i < n; i++) {
                switch (vn.getTokenType(i)) {
                    case com.ximpleware.VTDNav.TOKEN_STARTING_TAG -> {
                        sum++;
                        touched += vn.getTokenLength(i);
                    }
                    case com.ximpleware.VTDNav.TOKEN_ATTR_NAME -> {
                        sum++;
                        touched += vn.toString(i + 1).length();
                        i++;
                    }
                    case com.ximpleware.VTDNav.TOKEN_ATTR_NS -> i++;
                    case com.ximpleware.VTDNav.TOKEN_CHARACTER_DATA -> {
                        if (vn.getTokenDepth(i) >= 0) {
                            sum += Checksum.utf8(vn.toString(i));
                        }
                    }
                    case com.ximpleware.VTDNav.TOKEN_CDATA_VAL -> {
                        if (vn.getTokenDepth(i) >= 0) {
                            sum += Checksum.utf8(vn.toRawString(i));
                        }
                    }
                    default -> {
                    }
                }
            }
            if (reserialize) {
                // Nothing changed: XMLModifier writes the document's bytes back as they are.
                bytes.reset();
                new com.ximpleware.XMLModifier(vn).output(bytes);
                touched += bytes.length();
            }
            Checksum.sink += touched;
            return sum;
        }

        @Override
        byte[] output() {
            return reserialize ? bytes.toByteArray() : null;
        }
    }

    /**
     * VTD-XML: VTDGen (reused) parses, an AutoPilot compiled once per runner (selectXPath on an
     * unbound AutoPilot) is bound to each document's VTDNav, each selected element is removed
     * with XMLModifier.remove() and each selected text token with removeToken(); the modifier
     * writes the result to memory. Elements left = element tokens of the index minus those
     * inside the removed fragments (VTD's model is the index; edits are recorded, not applied).
     */
    static final class VtdPipeline extends Runner {
        final com.ximpleware.VTDGen g = new com.ximpleware.VTDGen();
        final com.ximpleware.AutoPilot ap = new com.ximpleware.AutoPilot();
        final com.ximpleware.XMLModifier xm = new com.ximpleware.XMLModifier();
        final Out bytes = new Out();

        VtdPipeline(String xpath) throws Exception {
            ap.selectXPath(xpath);
        }

        @Override
        long run(Object input) throws Exception {
            keep = null;
            g.setDoc((byte[]) input);
            g.parse(true);
            com.ximpleware.VTDNav vn = g.getNav();
            keep = vn;
            ap.bind(vn);
            xm.bind(vn);
            long selected = 0;
            long removed = 0;
            try {
                int i;
                while ((i = ap.evalXPath()) != -1) {
                    selected++;
                    int type = vn.getTokenType(i);
                    if (type == com.ximpleware.VTDNav.TOKEN_STARTING_TAG) {
                        long f = vn.getElementFragment();
                        long end = (f & 0xFFFFFFFFL) + (f >>> 32);
                        int n = vn.getTokenCount();
                        for (int j = i; j < n && vn.getTokenOffset(j) < end; j++) {
                            if (vn.getTokenType(j) == com.ximpleware.VTDNav.TOKEN_STARTING_TAG) {
                                removed++;
                            }
                        }
                        xm.remove();
                    } else {
                        xm.removeToken(i);
                    }
                }
            } finally {
                ap.resetXPath();
            }
            long elements = -removed;
            int n = vn.getTokenCount();
            for (int j = 0; j < n; j++) {
                if (vn.getTokenType(j) == com.ximpleware.VTDNav.TOKEN_STARTING_TAG) {
                    elements++;
                }
            }
            bytes.reset();
            xm.output(bytes);
            if (bytes.length() == 0) {
                throw new IllegalStateException("empty output");
            }
            Checksum.sink += bytes.length();
            return pipelineChecksum(selected, elements);
        }

        @Override
        byte[] output() {
            return bytes.toByteArray();
        }
    }

    // --- EXIficient ----------------------------------------------------------------------------

    /** The EXI factory, loaded only when an EXI runner is made. */
    static final class Exi {
        static final com.siemens.ct.exi.core.EXIFactory F = com.siemens.ct.exi.core.helpers.DefaultEXIFactory.newInstance();
    }

    /** Counts like {@link Checksum.Sax} and passes every event on. */
    static final class Tee extends Checksum.Sax {
        ContentHandler next;

        @Override
        public void setDocumentLocator(Locator l) {
            next.setDocumentLocator(l);
        }

        @Override
        public void startDocument() throws SAXException {
            next.startDocument();
        }

        @Override
        public void endDocument() throws SAXException {
            next.endDocument();
        }

        @Override
        public void startPrefixMapping(String p, String u) throws SAXException {
            next.startPrefixMapping(p, u);
        }

        @Override
        public void endPrefixMapping(String p) throws SAXException {
            next.endPrefixMapping(p);
        }

        @Override
        public void startElement(String uri, String local, String qname, Attributes atts) throws SAXException {
            super.startElement(uri, local, qname, atts);
            next.startElement(uri, local, qname, atts);
        }

        @Override
        public void endElement(String uri, String local, String qname) {
            super.endElement(uri, local, qname);
            try {
                next.endElement(uri, local, qname);
            } catch (SAXException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void characters(char[] ch, int start, int len) {
            super.characters(ch, start, len);
            try {
                next.characters(ch, start, len);
            } catch (SAXException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void processingInstruction(String t, String d) throws SAXException {
            next.processingInstruction(t, d);
        }
    }

    static byte[] exiEncode(Tee tee, org.apache.xerces.parsers.SAXParser p, byte[] doc) throws Exception {
        com.siemens.ct.exi.main.api.sax.EXIResult res = new com.siemens.ct.exi.main.api.sax.EXIResult(Exi.F);
        ByteArrayOutputStream out = new ByteArrayOutputStream(doc.length / 4 + 64);
        res.setOutputStream(out);
        tee.reset();
        tee.next = res.getHandler();
        p.parse(new InputSource(new ByteArrayInputStream(doc)));
        return out.toByteArray();
    }

    static final class ExiEncode extends Runner {
        final Tee tee = new Tee();
        final org.apache.xerces.parsers.SAXParser p;

        ExiEncode() throws SAXException {
            p = xercesSax(tee);
        }

        @Override
        long run(Object input) throws Exception {
            byte[] exi = exiEncode(tee, p, (byte[]) input);
            Checksum.sink += exi.length;
            encodedBytes = exi.length;
            return tee.finish();
        }
    }

    static final class ExiDecode extends Runner {
        final Checksum.Sax h = new Checksum.Sax();

        @Override
        Object input(byte[] doc) throws Exception {
            Tee tee = new Tee();
            byte[] exi = exiEncode(tee, xercesSax(tee), doc);
            encodedBytes = exi.length;
            return exi;
        }

        @Override
        long run(Object input) throws Exception {
            com.siemens.ct.exi.main.api.sax.EXISource src = new com.siemens.ct.exi.main.api.sax.EXISource(Exi.F);
            org.xml.sax.XMLReader r = src.getXMLReader();
            h.reset();
            r.setContentHandler(h);
            r.setErrorHandler(h);
            r.parse(new InputSource(new ByteArrayInputStream((byte[]) input)));
            return h.finish();
        }
    }
}
