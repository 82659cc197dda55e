// Drives pugixml for the benchmark: load_buffer into a DOM, then a walk; optionally
// xml_document::save to memory. Returns the checksum (elements + attributes + text bytes) or -1.
#include <cstddef>
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
