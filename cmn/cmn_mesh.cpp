#include "cmn/cmn_mesh.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <sstream>

namespace pmusim {

const char* to_string(cmn_node_type t) {
    switch (t) {
    case cmn_node_type::dvm: return "DN";
    case cmn_node_type::cfg: return "CFG";
    case cmn_node_type::dtc: return "DTC";
    case cmn_node_type::hni: return "HN-I";
    case cmn_node_type::hnf: return "HN-F";
    case cmn_node_type::xp: return "XP";
    case cmn_node_type::sbsx: return "SBSX";
    case cmn_node_type::rni: return "RN-I";
    case cmn_node_type::rnd: return "RN-D";
    case cmn_node_type::rnsam: return "RN-SAM";
    case cmn_node_type::cxra: return "CXRA";
    case cmn_node_type::cxha: return "CXHA";
    case cmn_node_type::cxla: return "CXLA";
    }
    return "?";
}

const char* node_prefix(cmn_node_type t) {
    switch (t) {
    case cmn_node_type::dvm: return "dn";
    case cmn_node_type::cfg: return "cfg";
    case cmn_node_type::dtc: return "dtc";
    case cmn_node_type::hni: return "hni";
    case cmn_node_type::hnf: return "hnf";
    case cmn_node_type::xp: return "xp";
    case cmn_node_type::sbsx: return "sbsx";
    case cmn_node_type::rni: return "rni";
    case cmn_node_type::rnd: return "rnd";
    case cmn_node_type::rnsam: return "rnsam";
    case cmn_node_type::cxra: return "cxra";
    case cmn_node_type::cxha: return "cxha";
    case cmn_node_type::cxla: return "cxla";
    }
    return "?";
}

bool has_pmu_events(cmn_node_type t) {
    switch (t) {
    case cmn_node_type::dvm:
    case cmn_node_type::hni:
    case cmn_node_type::hnf:
    case cmn_node_type::sbsx:
    case cmn_node_type::rni:
    case cmn_node_type::rnd:
    case cmn_node_type::cxra:
    case cmn_node_type::cxha: return true;
    default: return false;
    }
}

namespace {
struct kind_info {
    const char* word;
    cmn_port_kind kind;
    unsigned max_devices;
};
const std::vector<kind_info>& kinds() {
    static const std::vector<kind_info> k = {
        {"rn-f", cmn_port_kind::rnf, 4}, {"rn-i", cmn_port_kind::rni, 4}, {"rn-d", cmn_port_kind::rnd, 4},
        {"hn-f", cmn_port_kind::hnf, 1}, {"hn-i", cmn_port_kind::hni, 1}, {"hn-d", cmn_port_kind::hnd, 1},
        {"sn-f", cmn_port_kind::snf, 4}, {"sbsx", cmn_port_kind::sbsx, 1}, {"cxg", cmn_port_kind::cxg, 1},
    };
    return k;
}
std::string kind_words() {
    std::string s;
    for (const auto& k : kinds()) s += (s.empty() ? "" : ", ") + std::string(k.word);
    return s;
}
std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
bool parse_small(const std::string& s, unsigned& out) {
    if (s.empty() || s.size() > 3 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
    out = unsigned(std::stoul(s));
    return true;
}
} // namespace

const char* port_kind_name(cmn_port_kind k) {
    for (const auto& i : kinds())
        if (i.kind == k) return i.word;
    return "none";
}

uint16_t cmn_mesh::node_id(unsigned x, unsigned y, unsigned port, unsigned device) const {
    return uint16_t((x << (3 + id_bits)) | (y << 3) | (port << 2) | device);
}

uint32_t cmn_mesh::xy_offset(unsigned x, unsigned y) const { return (x << (20 + id_bits)) | (y << 20); }

const cmn_node* cmn_mesh::find(const std::string& name) const {
    for (const auto& n : nodes)
        if (n.name == name) return &n;
    return nullptr;
}

std::vector<size_t> cmn_mesh::event_nodes_at(size_t xp, unsigned port, unsigned device) const {
    std::vector<size_t> out;
    for (size_t c : xps.at(xp).children) {
        const cmn_node& n = nodes[c];
        if (!n.external && n.port == port && n.device == device && has_pmu_events(n.type)) out.push_back(c);
    }
    return out;
}

size_t cmn_mesh::node_count_of(cmn_node_type t) const {
    return size_t(std::count_if(nodes.begin(), nodes.end(), [t](const cmn_node& n) { return n.type == t; }));
}

std::string default_cmn_layout(unsigned mesh_x, unsigned mesh_y) {
    std::string s = "0,0 p0 hn-d\n0,0 p1 sn-f\n";
    const unsigned n = mesh_x * mesh_y;
    for (unsigned i = 1; i < n; ++i) {
        unsigned x = i % mesh_x, y = i / mesh_x;
        if (i == n - 1)
            s += fmt::format("{},{} p0 rn-i\n{},{} p1 sn-f\n", x, y, x, y);
        else
            s += fmt::format("{},{} p0 rn-f\n{},{} p1 hn-f\n", x, y, x, y);
    }
    return s;
}

void for_each_cmn_text_entry(const std::string& text, const cmn_text_origin& origin, bool on_param_line,
                             const std::function<void(const cmn_text_entry&)>& visit) {
    const bool block = !on_param_line && text.find('\n') != std::string::npos;
    std::istringstream in(text);
    std::string raw;
    unsigned row = 0;
    while (std::getline(in, raw)) {
        const unsigned line = block ? origin.param_line + 1 + row : origin.param_line;
        ++row;
        std::istringstream entries(raw.substr(0, raw.find('#')));
        for (std::string entry; std::getline(entries, entry, ';');) {
            cmn_text_entry e{line, trim(entry), {}};
            if (e.text.empty()) continue;
            std::istringstream words(e.text);
            for (std::string w; words >> w;) e.words.push_back(w);
            visit(e);
        }
    }
}

cmn_mesh build_cmn_mesh(unsigned mesh_x, unsigned mesh_y, const std::string& nodes_text,
                        const cmn_text_origin& origin) {
    cmn_mesh m;
    m.mesh_x = mesh_x;
    m.mesh_y = mesh_y;
    m.id_bits = (mesh_x > 4 || mesh_y > 4) ? 3 : 2;
    m.xps.resize(size_t(mesh_x) * mesh_y);
    for (unsigned y = 0; y < mesh_y; ++y)
        for (unsigned x = 0; x < mesh_x; ++x) m.xps[y * mesh_x + x].x = x, m.xps[y * mesh_x + x].y = y;

    const bool defaulted = trim(nodes_text).empty();
    const std::string text = defaulted ? default_cmn_layout(mesh_x, mesh_y) : nodes_text;
    const bool block = text.find('\n') != std::string::npos;
    auto fail = [&](unsigned line, const std::string& what) -> input_error {
        return input_error(origin.file, line, origin.param_path + ": " + what);
    };

    // Ports, from the text.
    int hnd_xp = -1;
    unsigned hnd_port = 0, hnd_line = 0;
    for_each_cmn_text_entry(text, origin, defaulted, [&](const cmn_text_entry& e) {
        const unsigned line = e.line;
        const std::string& entry = e.text;
        const std::vector<std::string>& t = e.words;
        const std::string form = "'X,Y PORT KIND [xN]' like '1,0 p1 hn-f'";
        if (t.size() < 3 || t.size() > 4)
            throw fail(line, fmt::format("expected {}, found '{}'", form, entry));
        unsigned x, y;
        size_t comma = t[0].find(',');
        if (comma == std::string::npos || !parse_small(t[0].substr(0, comma), x) ||
            !parse_small(t[0].substr(comma + 1), y))
            throw fail(line, fmt::format("expected crosspoint coordinates X,Y like 1,0, found '{}'", t[0]));
        if (x >= mesh_x || y >= mesh_y)
            throw fail(line, fmt::format("crosspoint {},{} is outside the {}x{} mesh (X 0..{}, Y 0..{})", x, y,
                                         mesh_x, mesh_y, mesh_x - 1, mesh_y - 1));
        if (t[1] != "p0" && t[1] != "p1")
            throw fail(line, fmt::format("expected a device port p0 or p1 (a CMN-600 XP has two), found '{}'",
                                         t[1]));
        const unsigned port = t[1] == "p1";
        auto k = std::find_if(kinds().begin(), kinds().end(), [&](const kind_info& i) { return t[2] == i.word; });
        if (k == kinds().end())
            throw fail(line, fmt::format("expected a device kind ({}), found '{}'", kind_words(), t[2]));
        unsigned count = 1;
        if (t.size() == 4) {
            if (t[3].size() < 2 || t[3][0] != 'x' || !parse_small(t[3].substr(1), count) || count == 0)
                throw fail(line, fmt::format("expected a device count like x2, found '{}'", t[3]));
            if (count > k->max_devices)
                throw fail(line, k->max_devices == 1
                                     ? fmt::format("a {} port has exactly one device, found '{}'", k->word, t[3])
                                     : fmt::format("a {} port has at most {} devices (device ID is 2 bits), "
                                                   "found '{}'",
                                                   k->word, k->max_devices, t[3]));
        }
        cmn_xp& xp = m.xps[y * mesh_x + x];
        cmn_port& p = xp.ports[port];
        if (p.kind != cmn_port_kind::none)
            throw fail(line, fmt::format("port {} of crosspoint {},{} is already declared{}", t[1], x, y,
                                         p.line && block ? fmt::format(" (at line {})", p.line) : ""));
        p.kind = k->kind;
        p.devices = count;
        p.line = line;
        if (k->kind == cmn_port_kind::hnd) {
            if (hnd_xp >= 0)
                throw fail(line, fmt::format("a CMN-600 has one hn-d (it hosts the root CFG node and DTC0); "
                                             "another is at {},{}{}",
                                             m.xps[size_t(hnd_xp)].x, m.xps[size_t(hnd_xp)].y,
                                             block ? fmt::format(" (line {})", hnd_line) : ""));
            hnd_xp = int(y * mesh_x + x);
            hnd_port = port;
            hnd_line = line;
        }
    });
    if (hnd_xp < 0)
        throw fail(origin.param_line, "the mesh needs one hn-d port (it hosts the root CFG node, the DTC, the DN "
                                      "and an HN-I), found none");

    // Nodes. The CFG node first; then, XP by XP in row-major order, the XP and its device nodes.
    std::map<cmn_node_type, uint16_t> next_logid;
    auto add = [&](cmn_node_type type, unsigned x, unsigned y, unsigned port, unsigned device, uint32_t offset,
                   int xp, bool external) {
        cmn_node n;
        n.type = type;
        n.x = x, n.y = y, n.port = port, n.device = device;
        n.node_id = m.node_id(x, y, port, device);
        n.logical_id = next_logid[type]++;
        n.offset = offset;
        n.xp = xp;
        n.external = external;
        n.name = type == cmn_node_type::cfg ? std::string("cfg")
                 : type == cmn_node_type::xp ? fmt::format("xp_{}_{}", x, y)
                                             : fmt::format("{}{}", node_prefix(type), n.logical_id);
        m.nodes.push_back(n);
        return m.nodes.size() - 1;
    };
    {
        const cmn_xp& h = m.xps[size_t(hnd_xp)];
        m.root_offset = m.xy_offset(h.x, h.y) | (hnd_port << 14);
        add(cmn_node_type::cfg, h.x, h.y, hnd_port, 0, m.root_offset, hnd_xp, false);
    }
    for (size_t i = 0; i < m.xps.size(); ++i) {
        cmn_xp& xp = m.xps[i];
        const uint32_t base = m.xy_offset(xp.x, xp.y);
        xp.node = add(cmn_node_type::xp, xp.x, xp.y, 0, 0, base | 0x8000, int(i), false);
        for (unsigned port = 0; port < 2; ++port) {
            const cmn_port& p = xp.ports[port];
            auto slot = [&](unsigned s) { return base | (port << 14) | (s << 16); };
            auto child = [&](cmn_node_type t, unsigned device, unsigned s, bool external = false) {
                xp.children.push_back(add(t, xp.x, xp.y, port, device, slot(s), int(i), external));
            };
            switch (p.kind) {
            case cmn_port_kind::rnf:
                // The RN-F's RN-SAM sits outside the CMN-600 register space (external child).
                for (unsigned d = 0; d < p.devices; ++d) child(cmn_node_type::rnsam, d, d, true);
                break;
            case cmn_port_kind::rni:
                for (unsigned d = 0; d < p.devices; ++d) child(cmn_node_type::rni, d, d);
                break;
            case cmn_port_kind::rnd:
                for (unsigned d = 0; d < p.devices; ++d) child(cmn_node_type::rnd, d, d);
                break;
            case cmn_port_kind::hnf: child(cmn_node_type::hnf, 0, 0); break;
            case cmn_port_kind::hni: child(cmn_node_type::hni, 0, 0); break;
            case cmn_port_kind::sbsx: child(cmn_node_type::sbsx, 0, 0); break;
            case cmn_port_kind::hnd:
                // Slot 0 is the CFG node (not an XP child: Linux finds it as the root).
                child(cmn_node_type::hni, 0, 1);
                child(cmn_node_type::dvm, 0, 2);
                child(cmn_node_type::dtc, 0, 3);
                break;
            case cmn_port_kind::cxg:
                child(cmn_node_type::cxra, 0, 0);
                child(cmn_node_type::cxha, 0, 1);
                child(cmn_node_type::cxla, 0, 2, true);
                break;
            case cmn_port_kind::snf:
            case cmn_port_kind::none: break;
            }
        }
    }
    return m;
}

} // namespace pmusim
