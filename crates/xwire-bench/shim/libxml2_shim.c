/* Drives libxml2 for the benchmark: SAX2 (namespace-aware callbacks) and xmlTextReader.
 * Each function parses a whole in-memory document, touching every name, attribute value and
 * text run, and returns a checksum (elements + attributes + text bytes), or -1 on error. */
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xmlreader.h>

typedef struct { long long sum; } acc_t;

/* Names and values are read into this sink so no callback's work can be optimised away. */
volatile unsigned long long xw_libxml2_touch;

static void sax_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
                      int nb_ns, const xmlChar **ns, int nb_attrs, int nb_defaulted,
                      const xmlChar **attrs) {
    acc_t *a = ctx;
    (void)prefix; (void)nb_ns; (void)ns; (void)nb_defaulted;
    a->sum += 1;
    xw_libxml2_touch += local[0] + (uri ? uri[0] : 0);
    /* attrs: (localname, prefix, URI, value, end) per attribute */
    for (int i = 0; i < nb_attrs; i++) {
        a->sum += 1;
        xw_libxml2_touch += attrs[i * 5][0] + (attrs[i * 5 + 4] - attrs[i * 5 + 3]);
    }
}

static void sax_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)local; (void)prefix; (void)uri;
}

static void sax_chars(void *ctx, const xmlChar *ch, int len) {
    acc_t *a = ctx;
    (void)ch;
    a->sum += len;
}

static int initialised = 0;

static void init(void) {
    if (!initialised) {
        xmlInitParser();
        initialised = 1;
    }
}

long long xw_libxml2_sax(const char *buf, size_t len) {
    init();
    /* Only our callbacks: libxml2's default SAX2 handlers would build a tree and expect the
     * parser context as user data. */
    xmlSAXHandler h;
    memset(&h, 0, sizeof h);
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = sax_start;
    h.endElementNs = sax_end;
    h.characters = sax_chars;
    h.cdataBlock = sax_chars;
    h.ignorableWhitespace = sax_chars;
    acc_t a = {0};
    int rc = xmlSAXUserParseMemory(&h, &a, buf, (int)len);
    return rc == 0 ? a.sum : -1;
}

static void silent(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }

long long xw_libxml2_reader(const char *buf, size_t len) {
    init();
    xmlGenericErrorFunc handler = silent;
    initGenericErrorDefaultFunc(&handler);
    xmlTextReaderPtr r = xmlReaderForMemory(buf, (int)len, NULL, NULL, XML_PARSE_NONET);
    if (!r) return -1;
    long long sum = 0;
    int rc;
    while ((rc = xmlTextReaderRead(r)) == 1) {
        int type = xmlTextReaderNodeType(r);
        if (type == XML_READER_TYPE_ELEMENT) {
            sum += 1;
            const xmlChar *name = xmlTextReaderConstLocalName(r);
            const xmlChar *uri = xmlTextReaderConstNamespaceUri(r);
            xw_libxml2_touch += name[0] + (uri ? uri[0] : 0);
            while (xmlTextReaderMoveToNextAttribute(r) == 1) {
                if (!xmlTextReaderIsNamespaceDecl(r)) sum += 1;
                const xmlChar *v = xmlTextReaderConstValue(r);
                if (v) xw_libxml2_touch += v[0];
            }
            xmlTextReaderMoveToElement(r);
        } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
                   type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE ||
                   type == XML_READER_TYPE_WHITESPACE) {
            const xmlChar *v = xmlTextReaderConstValue(r);
            if (v) sum += (long long)strlen((const char *)v);
        }
    }
    xmlFreeTextReader(r);
    return rc == 0 ? sum : -1;
}
