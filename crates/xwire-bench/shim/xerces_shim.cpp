// Drives Xerces-C++ for the benchmark: SAX2 (namespaces on, validation off), the DOM
// (XercesDOMParser + a walk, DOMLSSerializer to memory) and SAX2 with XML Schema validation
// against a grammar loaded and cached once. Each engine is an opaque handle made by `*_new`,
// reused for every document (as its users would) and freed by `xw_xerces_free`; every run
// returns the checksum (elements + attributes + UTF-8 bytes of text) or -1. No exception
// crosses into Rust: every entry point catches everything.
#include <cstddef>
#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/MemBufFormatTarget.hpp>
#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/parsers/XercesDOMParser.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/sax2/Attributes.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/XMLString.hpp>
#include <xercesc/util/XMLUni.hpp>
#include <xercesc/validators/common/Grammar.hpp>
#include "xerces_init.hpp"

using namespace xercesc;

extern "C" volatile unsigned long long xw_xerces_touch;
volatile unsigned long long xw_xerces_touch;

namespace {

// UTF-8 length of a UTF-16 run, without transcoding: a surrogate pair is 4 bytes (counted on
// its high half), other units 1, 2 or 3.
long long utf8_len(const XMLCh *s, XMLSize_t n) {
    long long b = 0;
    for (XMLSize_t i = 0; i < n; i++) {
        XMLCh c = s[i];
        if (c < 0x80) b += 1;
        else if (c < 0x800) b += 2;
        else if (c >= 0xD800 && c <= 0xDBFF) b += 4;
        else if (c >= 0xDC00 && c <= 0xDFFF) b += 0;
        else b += 3;
    }
    return b;
}

// Counts through SAX2 callbacks; every error (validation errors too) is fatal.
class Counter : public DefaultHandler {
  public:
    long long sum = 0;
    void startElement(const XMLCh *const uri, const XMLCh *const local, const XMLCh *const,
                      const Attributes &attrs) override {
        sum += 1;
        xw_xerces_touch += local[0] + (uri ? uri[0] : 0);
        // Without the namespace-prefixes feature, xmlns attributes are not reported.
        XMLSize_t n = attrs.getLength();
        for (XMLSize_t i = 0; i < n; i++) {
            sum += 1;
            xw_xerces_touch += attrs.getValue(i)[0];
        }
    }
    void characters(const XMLCh *const chars, const XMLSize_t length) override {
        sum += utf8_len(chars, length);
    }
    void ignorableWhitespace(const XMLCh *const chars, const XMLSize_t length) override {
        sum += utf8_len(chars, length);
    }
    void error(const SAXParseException &e) override { throw e; }
    void fatalError(const SAXParseException &e) override { throw e; }
    void warning(const SAXParseException &) override {}
};

struct Sax {
    SAX2XMLReader *reader = nullptr;
    Counter counter;
    ~Sax() { delete reader; }
};

Sax *sax_new(bool validating, const char *schema) {
    if (!xw_xerces_initialise()) return nullptr;
    Sax *s = new Sax;
    try {
        s->reader = XMLReaderFactory::createXMLReader();
        s->reader->setFeature(XMLUni::fgSAX2CoreNameSpaces, true);
        s->reader->setFeature(XMLUni::fgSAX2CoreNameSpacePrefixes, false);
        s->reader->setFeature(XMLUni::fgXercesLoadExternalDTD, false);
        s->reader->setContentHandler(&s->counter);
        s->reader->setErrorHandler(&s->counter);
        if (validating) {
            s->reader->setFeature(XMLUni::fgSAX2CoreValidation, true);
            s->reader->setFeature(XMLUni::fgXercesDynamic, false); // scheme "always"
            s->reader->setFeature(XMLUni::fgXercesSchema, true);
            s->reader->setFeature(XMLUni::fgXercesSchemaFullChecking, false);
            s->reader->setFeature(XMLUni::fgXercesValidationErrorAsFatal, true);
            s->reader->setFeature(XMLUni::fgXercesUseCachedGrammarInParse, true);
            s->reader->setFeature(XMLUni::fgXercesLoadSchema, false); // only the cached one
            if (!s->reader->loadGrammar(schema, Grammar::SchemaGrammarType, true)) {
                delete s;
                return nullptr;
            }
        } else {
            s->reader->setFeature(XMLUni::fgSAX2CoreValidation, false);
        }
    } catch (...) {
        delete s;
        return nullptr;
    }
    return s;
}

const XMLCh doc_id[] = {chLatin_d, chLatin_o, chLatin_c, chNull};
const XMLCh xmlns_uri[] = {chLatin_h, chLatin_t, chLatin_t, chLatin_p, chColon, chForwardSlash,
                           chForwardSlash, chLatin_w, chLatin_w, chLatin_w, chPeriod, chLatin_w,
                           chDigit_3, chPeriod, chLatin_o, chLatin_r, chLatin_g, chForwardSlash,
                           chDigit_2, chDigit_0, chDigit_0, chDigit_0, chForwardSlash, chLatin_x,
                           chLatin_m, chLatin_l, chLatin_n, chLatin_s, chForwardSlash, chNull};

struct Dom {
    XercesDOMParser *parser = nullptr;
    Counter errors;
    DOMLSSerializer *serializer = nullptr;
    DOMLSOutput *output = nullptr;
    ~Dom() {
        if (output) output->release();
        if (serializer) serializer->release();
        delete parser;
    }
};

// Walks the DOM without recursion (parent and sibling links).
long long walk(DOMNode *root) {
    long long sum = 0;
    DOMNode *n = root;
    while (n) {
        DOMNode::NodeType t = n->getNodeType();
        if (t == DOMNode::ELEMENT_NODE) {
            sum += 1;
            const XMLCh *local = n->getLocalName();
            xw_xerces_touch += local ? local[0] : 0;
            DOMNamedNodeMap *attrs = n->getAttributes();
            XMLSize_t count = attrs->getLength();
            for (XMLSize_t i = 0; i < count; i++) {
                DOMNode *a = attrs->item(i);
                if (XMLString::equals(a->getNamespaceURI(), xmlns_uri)) continue;
                sum += 1;
                xw_xerces_touch += a->getNodeValue()[0];
            }
            if (DOMNode *c = n->getFirstChild()) {
                n = c;
                continue;
            }
        } else if (t == DOMNode::TEXT_NODE || t == DOMNode::CDATA_SECTION_NODE) {
            DOMCharacterData *d = static_cast<DOMCharacterData *>(n);
            sum += utf8_len(d->getData(), d->getLength());
        }
        while (n != root && !n->getNextSibling()) n = n->getParentNode();
        if (n == root) break;
        n = n->getNextSibling();
    }
    return sum;
}

}  // namespace

extern "C" {

void *xw_xerces_sax_new(void) { return sax_new(false, nullptr); }

void *xw_xerces_validating_new(const char *schema) { return sax_new(true, schema); }

long long xw_xerces_sax_run(void *h, const char *buf, size_t len) {
    Sax *s = static_cast<Sax *>(h);
    s->counter.sum = 0;
    try {
        MemBufInputSource in(reinterpret_cast<const XMLByte *>(buf), len, doc_id, false);
        s->reader->parse(in);
        return s->counter.sum;
    } catch (...) {
        return -1;
    }
}

void xw_xerces_sax_free(void *h) { delete static_cast<Sax *>(h); }

void *xw_xerces_dom_new(void) {
    if (!xw_xerces_initialise()) return nullptr;
    Dom *d = new Dom;
    try {
        d->parser = new XercesDOMParser;
        d->parser->setDoNamespaces(true);
        d->parser->setValidationScheme(XercesDOMParser::Val_Never);
        d->parser->setLoadExternalDTD(false);
        d->parser->setCreateEntityReferenceNodes(false);
        d->parser->setErrorHandler(&d->errors);
        static const XMLCh ls[] = {chLatin_L, chLatin_S, chNull};
        DOMImplementation *impl = DOMImplementationRegistry::getDOMImplementation(ls);
        d->serializer = impl->createLSSerializer();
        d->output = impl->createLSOutput();
    } catch (...) {
        delete d;
        return nullptr;
    }
    return d;
}

// Parses into a DOM and walks it; with `reserialize`, also writes it back to memory.
long long xw_xerces_dom_run(void *h, const char *buf, size_t len, int reserialize) {
    Dom *d = static_cast<Dom *>(h);
    try {
        MemBufInputSource in(reinterpret_cast<const XMLByte *>(buf), len, doc_id, false);
        d->parser->parse(in);
        DOMDocument *doc = d->parser->getDocument();
        DOMElement *root = doc ? doc->getDocumentElement() : nullptr;
        long long sum = root ? walk(root) : -1;
        if (reserialize && sum >= 0) {
            MemBufFormatTarget target;
            d->output->setByteStream(&target);
            if (!d->serializer->write(doc, d->output)) sum = -1;
            xw_xerces_touch += target.getLen();
            d->output->setByteStream(nullptr);
        }
        d->parser->resetDocumentPool();
        return sum;
    } catch (...) {
        d->parser->resetDocumentPool();
        return -1;
    }
}

void xw_xerces_dom_free(void *h) { delete static_cast<Dom *>(h); }

}  // extern "C"
