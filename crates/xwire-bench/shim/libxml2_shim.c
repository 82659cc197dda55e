/* Drives libxml2 for the benchmark: SAX2 (namespace-aware callbacks) and xmlTextReader.
 * Each function parses a whole in-memory document, touching every name, attribute value and
 * text run, and returns a checksum (elements + attributes + text bytes), or -1 on error. */
#include <stdlib.h>
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

/* A SAX2 handler with only the checksum callbacks. */
static void counting_handler(xmlSAXHandler *h) {
    memset(h, 0, sizeof *h);
    h->initialized = XML_SAX2_MAGIC;
    h->startElementNs = sax_start;
    h->endElementNs = sax_end;
    h->characters = sax_chars;
    h->cdataBlock = sax_chars;
    h->ignorableWhitespace = sax_chars;
}

long long xw_libxml2_sax(const char *buf, size_t len) {
    init();
    /* Only our callbacks: libxml2's default SAX2 handlers would build a tree and expect the
     * parser context as user data. */
    xmlSAXHandler h;
    counting_handler(&h);
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

/* ---- Tree: xmlReadMemory, then a walk of the DOM ------------------------------------------ */
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

static void silent_structured(void *ctx, xmlErrorPtr err) { (void)ctx; (void)err; }

/* Walks the tree without recursion (parent and sibling links), reading every element name,
 * attribute value and text node. Namespace declarations live in nsDef, not in properties, so
 * they are not counted. Nothing outside the root element is text in libxml2's tree. */
static long long walk(xmlNodePtr root) {
    long long sum = 0;
    xmlNodePtr n = root;
    while (n) {
        if (n->type == XML_ELEMENT_NODE) {
            sum += 1;
            xw_libxml2_touch += n->name[0] + (n->ns && n->ns->href ? n->ns->href[0] : 0);
            for (xmlAttrPtr a = n->properties; a; a = a->next) {
                sum += 1;
                if (a->children && a->children->content) xw_libxml2_touch += a->children->content[0];
            }
            if (n->children) { n = n->children; continue; }
        } else if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
            if (n->content) sum += (long long)strlen((const char *)n->content);
        }
        while (n && n != root && !n->next) n = n->parent;
        if (!n || n == root) break;
        n = n->next;
    }
    return sum;
}

/* Parses into a tree and walks it; with `reserialize`, also writes the document back to memory
 * with xmlDocDumpMemory. Returns the walk's checksum or -1. */
long long xw_libxml2_dom(const char *buf, size_t len, int reserialize) {
    init();
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) return -1;
    xmlNodePtr root = xmlDocGetRootElement(doc);
    long long sum = root ? walk(root) : -1;
    if (reserialize && sum >= 0) {
        xmlChar *out = NULL;
        int size = 0;
        xmlDocDumpMemory(doc, &out, &size);
        if (!out) sum = -1;
        xw_libxml2_touch += (unsigned long long)size;
        xmlFree(out);
    }
    xmlFreeDoc(doc);
    return sum;
}

/* ---- XML Schema: compiled once, then streaming validation through SAX, or a tree validated
 * whole (xmlSchemaValidateDoc) ------------------------------------------------------------- */
typedef struct {
    xmlSchemaPtr schema;
    xmlSchemaValidCtxtPtr vctxt;
} xw_xsd_t;

void xw_libxml2_xsd_free(void *p) {
    xw_xsd_t *x = p;
    if (!x) return;
    if (x->vctxt) xmlSchemaFreeValidCtxt(x->vctxt);
    if (x->schema) xmlSchemaFree(x->schema);
    free(x);
}

/* Compiles the schema at `path`; NULL if it cannot be read or is not a valid schema. */
void *xw_libxml2_xsd_new(const char *path) {
    init();
    xmlSchemaParserCtxtPtr pctxt = xmlSchemaNewParserCtxt(path);
    if (!pctxt) return NULL;
    xmlSchemaSetParserStructuredErrors(pctxt, silent_structured, NULL);
    xw_xsd_t *x = calloc(1, sizeof *x);
    if (!x) { xmlSchemaFreeParserCtxt(pctxt); return NULL; }
    x->schema = xmlSchemaParse(pctxt);
    xmlSchemaFreeParserCtxt(pctxt);
    if (x->schema) x->vctxt = xmlSchemaNewValidCtxt(x->schema);
    if (!x->vctxt) { xw_libxml2_xsd_free(x); return NULL; }
    xmlSchemaSetValidStructuredErrors(x->vctxt, silent_structured, NULL);
    return x;
}

/* Validates while parsing (xmlSchemaValidateStream plugs the validator into the SAX stream
 * that counts); returns the checksum, or -1 if the document is malformed or invalid. */
long long xw_libxml2_xsd_validate(void *p, const char *buf, size_t len) {
    xw_xsd_t *x = p;
    /* The parser context made by xmlSchemaValidateStream owns and frees this buffer. A
     * static (non-copying) buffer over memory without a terminating NUL ends in an internal
     * error (-1) in libxml2 2.9, so the document is copied, as xmlReadMemory does too. */
    xmlParserInputBufferPtr in = xmlParserInputBufferCreateMem(buf, (int)len,
                                                               XML_CHAR_ENCODING_NONE);
    if (!in) return -1;
    xmlSAXHandler h;
    counting_handler(&h);
    h.serror = silent_structured;
    acc_t a = {0};
    int rc = xmlSchemaValidateStream(x->vctxt, in, XML_CHAR_ENCODING_NONE, &h, &a);
    return rc == 0 ? a.sum : -1;
}

/* Whole-document validation with the same compiled schema and validation context: parses into
 * a tree (xmlReadMemory, as xw_libxml2_dom does), validates it with xmlSchemaValidateDoc and
 * walks it for the checksum; -1 if the document is malformed or invalid. */
long long xw_libxml2_xsd_validate_doc(void *p, const char *buf, size_t len) {
    xw_xsd_t *x = p;
    init();
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) return -1;
    long long sum = -1;
    if (xmlSchemaValidateDoc(x->vctxt, doc) == 0) {
        xmlNodePtr root = xmlDocGetRootElement(doc);
        if (root) sum = walk(root);
    }
    xmlFreeDoc(doc);
    return sum;
}

/* ---- XPath-and-edit pipeline: parse, evaluate a compiled expression, delete, serialize ---- */
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* What a pipeline run reports; the Rust side (peers/c.rs) has the same layout. */
typedef struct {
    long long selected; /* nodes the expression selected (and that were deleted) */
    long long elements; /* elements left in the tree after the deletions */
    long long out_len;  /* bytes of the serialized result */
    xmlChar *out;       /* the serialized result when asked to keep it (xw_libxml2_output_free) */
} xw_pipeline_result_t;

typedef struct {
    xmlXPathCompExprPtr comp;
    xmlXPathContextPtr ctx; /* reused: only its document and context node change per run */
} xw_pipeline_t;

void xw_libxml2_pipeline_free(void *p) {
    xw_pipeline_t *x = p;
    if (!x) return;
    if (x->ctx) xmlXPathFreeContext(x->ctx);
    if (x->comp) xmlXPathFreeCompExpr(x->comp);
    free(x);
}

/* Compiles `expr` once; NULL if it does not compile. */
void *xw_libxml2_pipeline_new(const char *expr) {
    init();
    xmlGenericErrorFunc handler = silent;
    initGenericErrorDefaultFunc(&handler);
    xw_pipeline_t *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->comp = xmlXPathCompile((const xmlChar *)expr);
    if (x->comp) x->ctx = xmlXPathNewContext(NULL);
    if (!x->ctx) { xw_libxml2_pipeline_free(x); return NULL; }
    return x;
}

/* Elements of the subtree of `root`, without recursion. */
static long long count_elements(xmlNodePtr root) {
    long long n = 0;
    xmlNodePtr c = root;
    while (c) {
        if (c->type == XML_ELEMENT_NODE) {
            n += 1;
            if (c->children) { c = c->children; continue; }
        }
        while (c && c != root && !c->next) c = c->parent;
        if (!c || c == root) break;
        c = c->next;
    }
    return n;
}

/* Parses (as xw_libxml2_dom does), evaluates the compiled expression, unlinks and frees every
 * selected node in reverse document order (so no node is freed after an ancestor), counts the
 * elements left and writes the document to memory with xmlDocDumpMemory. With `keep`, the
 * output stays in r->out for the caller to free with xw_libxml2_output_free. 0, or -1 when the
 * document is rejected or the expression does not give a node-set. */
int xw_libxml2_pipeline_run(void *p, const char *buf, size_t len, int keep,
                            xw_pipeline_result_t *r) {
    xw_pipeline_t *x = p;
    memset(r, 0, sizeof *r);
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) return -1;
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root) { xmlFreeDoc(doc); return -1; }
    x->ctx->doc = doc;
    x->ctx->node = (xmlNodePtr)doc;
    xmlXPathObjectPtr res = xmlXPathCompiledEval(x->comp, x->ctx);
    x->ctx->doc = NULL;
    x->ctx->node = NULL;
    if (!res || res->type != XPATH_NODESET) {
        if (res) xmlXPathFreeObject(res);
        xmlFreeDoc(doc);
        return -1;
    }
    xmlNodeSetPtr set = res->nodesetval;
    int n = set ? set->nodeNr : 0;
    if (n > 1) xmlXPathNodeSetSort(set);
    for (int i = n - 1; i >= 0; i--) {
        xmlNodePtr node = set->nodeTab[i];
        /* Namespace nodes are copies owned by the set, and the root cannot go. */
        if (node->type == XML_NAMESPACE_DECL || node->type == XML_DOCUMENT_NODE) continue;
        if (node == root) root = NULL;
        if (node->type == XML_ATTRIBUTE_NODE) {
            xmlRemoveProp((xmlAttrPtr)node);
        } else {
            xmlUnlinkNode(node);
            xmlFreeNode(node);
        }
    }
    r->selected = n;
    xmlXPathFreeObject(res);
    r->elements = root ? count_elements(root) : 0;
    xmlChar *out = NULL;
    int size = 0;
    xmlDocDumpMemory(doc, &out, &size);
    xmlFreeDoc(doc);
    if (!out) return -1;
    r->out_len = size;
    if (keep) {
        r->out = out;
    } else {
        xw_libxml2_touch += (unsigned long long)size;
        xmlFree(out);
    }
    return 0;
}

void xw_libxml2_output_free(xmlChar *out) { xmlFree(out); }
