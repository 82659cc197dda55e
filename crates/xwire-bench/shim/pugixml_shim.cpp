// Drives pugixml for the benchmark: load_buffer into a DOM, then a walk; optionally
// xml_document::save to memory. Returns the checksum (elements + attributes + text bytes) or -1.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <pugixml.hpp>

extern "C" volatile unsigned long long xw_pugixml_touch;
volatile unsigned long long xw_pugixml_touch;

namespace {

// pugixml does not process namespaces: declarations are plain attributes, left out here.
bool is_xmlns(const char *name) {
    return std::strncmp(name, "xmlns", 5) == 0 && (name[5] == 0 || name[5] == ':');
}

// Walks the elements under the document node without recursion; text at document level (which
// parse_ws_pcdata would keep) is outside the root and not counted.
long long walk(const pugi::xml_document &doc) {
    long long sum = 0;
    for (pugi::xml_node top = doc.first_child(); top; top = top.next_sibling()) {
        if (top.type() != pugi::node_element) continue;
        pugi::xml_node n = top;
        while (n) {
            pugi::xml_node_type t = n.type();
            if (t == pugi::node_element) {
                sum += 1;
                xw_pugixml_touch += static_cast<unsigned char>(n.name()[0]);
                for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
                    if (is_xmlns(a.name())) continue;
                    sum += 1;
                    xw_pugixml_touch += static_cast<unsigned char>(a.value()[0]);
                }
                if (pugi::xml_node c = n.first_child()) {
                    n = c;
                    continue;
                }
            } else if (t == pugi::node_pcdata || t == pugi::node_cdata) {
                sum += static_cast<long long>(std::strlen(n.value()));
            }
            while (n != top && !n.next_sibling()) n = n.parent();
            if (n == top) break;
            n = n.next_sibling();
        }
    }
    return sum;
}

struct Sink : pugi::xml_writer {
    std::string out;
    void write(const void *data, size_t size) override {
        out.append(static_cast<const char *>(data), size);
    }
};

}  // namespace

extern "C" long long xw_pugixml_dom(const char *buf, size_t len, int reserialize) {
    try {
        pugi::xml_document doc;
        // parse_ws_pcdata keeps whitespace-only text, which the checksum counts.
        pugi::xml_parse_result r = doc.load_buffer(buf, len, pugi::parse_default | pugi::parse_ws_pcdata);
        if (!r) return -1;
        if (!doc.document_element()) return -1;
        long long sum = walk(doc);
        if (reserialize) {
            Sink sink;
            doc.save(sink, "", pugi::format_raw);
            xw_pugixml_touch += sink.out.size();
        }
        return sum;
    } catch (...) {
        return -1;
    }
}

// ---- XPath-and-edit pipeline: load, evaluate a compiled query, delete, save to memory ------

namespace {

struct Pipeline {
    pugi::xpath_query query;
    Sink sink;  // reused: its string keeps its capacity from one run to the next
    explicit Pipeline(const char *expr) : query(expr) {}
};

// Elements of the document, without recursion.
long long count_elements(const pugi::xml_document &doc) {
    long long n = 0;
    pugi::xml_node top = doc;
    pugi::xml_node c = top.first_child();
    while (c) {
        if (c.type() == pugi::node_element) {
            n += 1;
            if (pugi::xml_node f = c.first_child()) {
                c = f;
                continue;
            }
        }
        while (c != top && !c.next_sibling()) c = c.parent();
        if (c == top) break;
        c = c.next_sibling();
    }
    return n;
}

}  // namespace

// What a pipeline run reports; the Rust side (peers/cpp.rs) has the same layout.
struct xw_pipeline_result_t {
    long long selected;
    long long elements;
    long long out_len;
    char *out;  // malloc'd copy of the output when asked to keep it (xw_pugixml_output_free)
};

// Compiles `expr` once; NULL if it does not compile (pugixml throws xpath_exception).
extern "C" void *xw_pugixml_pipeline_new(const char *expr) {
    try {
        Pipeline *p = new Pipeline(expr);
        if (!p->query) {
            delete p;
            return nullptr;
        }
        return p;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void xw_pugixml_pipeline_free(void *p) { delete static_cast<Pipeline *>(p); }

// Loads (as xw_pugixml_dom does), evaluates the query, removes every selected node in reverse
// document order, counts the elements left and saves the document (format_raw) to memory. 0,
// or -1 when the document is rejected or the query does not give a node-set.
extern "C" int xw_pugixml_pipeline_run(void *h, const char *buf, size_t len, int keep,
                                       xw_pipeline_result_t *r) {
    Pipeline *p = static_cast<Pipeline *>(h);
    *r = xw_pipeline_result_t{0, 0, 0, nullptr};
    try {
        pugi::xml_document doc;
        pugi::xml_parse_result res = doc.load_buffer(buf, len, pugi::parse_default | pugi::parse_ws_pcdata);
        if (!res || !doc.document_element()) return -1;
        if (p->query.return_type() != pugi::xpath_type_node_set) return -1;
        pugi::xpath_node_set set = p->query.evaluate_node_set(doc);
        set.sort(false);
        for (size_t i = set.size(); i-- > 0;) {
            const pugi::xpath_node &n = set[i];
            if (pugi::xml_attribute a = n.attribute()) {
                n.parent().remove_attribute(a);
            } else if (pugi::xml_node node = n.node()) {
                node.parent().remove_child(node);
            }
        }
        r->selected = static_cast<long long>(set.size());
        r->elements = count_elements(doc);
        p->sink.out.clear();
        doc.save(p->sink, "", pugi::format_raw);
        r->out_len = static_cast<long long>(p->sink.out.size());
        xw_pugixml_touch += p->sink.out.size();
        if (keep) {
            r->out = static_cast<char *>(std::malloc(p->sink.out.size() + 1));
            if (!r->out) return -1;
            std::memcpy(r->out, p->sink.out.data(), p->sink.out.size());
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" void xw_pugixml_output_free(char *out) { std::free(out); }
