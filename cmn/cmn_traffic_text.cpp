// The text grammar of CMN-600 traffic (docs/cmn.md "Traffic", "I/O traffic", "The `traffic`
// statement"): the platform's `traffic` and `io` texts and the `traffic` command's words, turned
// into the configurations the CHI engine (cmn_traffic.cpp) runs.
#include "cmn/cmn_traffic_text.h"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <sstream>

#include "models/input_error.h"
#include "models/values.h"

namespace pmusim {

namespace {
const char* const generator_form = "'X,Y pP[.D] rate=R range=LO-HI mix=Op:W,... [seed=N] [start=C] [count=N]'";

// "LO-HI": two integers of the one value grammar (models/values.h); false when malformed.
bool scan_address_range(std::string_view text, uint64_t& lo, uint64_t& hi) {
    const size_t dash = text.find('-');
    if (dash == std::string_view::npos) return false;
    const auto l = values::scan_integer(text.substr(0, dash)), h = values::scan_integer(text.substr(dash + 1));
    if (!l || !h) return false;
    lo = *l, hi = *h;
    return true;
}

bool range_needs_memory(const std::vector<cmn_io_range>& io, uint64_t lo, uint64_t hi) {
    // Whether some line of [lo, hi] lies outside every I/O range.
    uint64_t at = lo & ~uint64_t(63);
    for (;;) {
        bool moved = false;
        for (const auto& r : io)
            if (at >= r.lo && at <= r.hi) {
                if (r.hi >= (hi | 63)) return false;
                at = (r.hi | 63) + 1;
                moved = true;
            }
        if (!moved) return true;
    }
}
} // namespace

void parse_cmn_requester(const cmn_mesh& mesh, const std::string& xy, const std::string& port_word,
                         cmn_generator_config& g, const std::string& file, unsigned line) {
    static const std::regex xy_form(R"(([0-7]),([0-7]))"), port_form(R"(p([01])(\.([0-3]))?)");
    std::smatch m;
    if (!std::regex_match(xy, m, xy_form) || unsigned(std::stoi(m[1])) >= mesh.mesh_x ||
        unsigned(std::stoi(m[2])) >= mesh.mesh_y)
        throw input_error(file, line,
                          fmt::format("expected a crosspoint X,Y of the {}x{} mesh, found '{}'", mesh.mesh_x,
                                      mesh.mesh_y, xy));
    const unsigned x = unsigned(std::stoi(m[1])), y = unsigned(std::stoi(m[2]));
    g.xp = y * mesh.mesh_x + x;
    if (!std::regex_match(port_word, m, port_form))
        throw input_error(file, line,
                          fmt::format("expected a port p0 or p1 (p1.1 for device 1), found '{}'", port_word));
    const unsigned p = unsigned(std::stoi(m[1])), d = m[3].matched ? unsigned(std::stoi(m[3])) : 0;
    g.port = p, g.device = d;
    const cmn_port& port = mesh.xps[g.xp].ports[p];
    if (port.kind != cmn_port_kind::rnf && port.kind != cmn_port_kind::rni && port.kind != cmn_port_kind::rnd)
        throw input_error(file, line,
                          fmt::format("traffic comes from requesters: port {} of crosspoint {},{} is {}, not rn-f, "
                                      "rn-i or rn-d",
                                      port_word, x, y,
                                      port.kind == cmn_port_kind::none ? "empty" : port_kind_name(port.kind)));
    if (d >= port.devices)
        throw input_error(file, line,
                          fmt::format("port {} of crosspoint {},{} has {} device(s), found device {}",
                                      port_word.substr(0, 2), x, y, port.devices, d));
}

void apply_cmn_generator_settings(cmn_generator_config& g, const std::vector<std::string>& settings,
                                  std::vector<std::string>& given, const std::string& file, unsigned line) {
    auto fail = [&](const std::string& what) { return input_error(file, line, what); };
    for (const std::string& s : settings) {
        auto eq = s.find('=');
        const std::string key = s.substr(0, eq), value = eq == std::string::npos ? "" : s.substr(eq + 1);
        if (std::find(given.begin(), given.end(), key) != given.end())
            throw fail(fmt::format("{}= is written twice, found '{}'", key, s));
        // One branch per cmn_traffic_keys entry.
        if (key == "rate") {
            g.rate = values::parse_rational(value, file, line, "as the request rate");
        } else if (key == "range") {
            if (!scan_address_range(value, g.lo, g.hi))
                throw fail(fmt::format("expected range=LO-HI like range=0x80000000-0x807fffff, found '{}'", s));
            if (g.hi < g.lo) throw fail(fmt::format("range {:#x}-{:#x} ends before it starts", g.lo, g.hi));
        } else if (key == "mix") {
            g.mix.clear();
            std::istringstream ms(value);
            std::string item;
            while (std::getline(ms, item, ',')) {
                auto colon = item.find(':');
                const std::string name = item.substr(0, colon);
                const int op = chi_request_opcode(name);
                if (op < 0)
                    throw fail(fmt::format("unknown request '{}': expected ReadNoSnp, ReadOnce, ReadShared, "
                                           "ReadUnique, WriteNoSnpFull or WriteBackFull",
                                           name));
                uint64_t w = 1;
                if (colon != std::string::npos) {
                    const auto weight = values::scan_integer(item.substr(colon + 1));
                    if (!weight || *weight == 0 || *weight > UINT32_MAX)
                        throw fail(fmt::format("expected a weight like {}:3, found '{}'", name, item));
                    w = *weight;
                }
                g.mix.emplace_back(uint8_t(op), unsigned(w));
            }
            if (g.mix.empty()) throw fail(fmt::format("expected mix=Op:W,... like mix=ReadShared:3, found '{}'", s));
        } else if (key == "seed" || key == "start" || key == "count") {
            const auto v = values::scan_integer(value);
            if (!v) throw fail(fmt::format("expected {}=N (a number), found '{}'", key, s));
            (key == "seed" ? g.seed : key == "start" ? g.start_cycle : g.count) = *v;
        } else {
            throw fail(fmt::format("unknown key '{}': expected rate=, range=, mix=, seed=, start= or count=", key));
        }
        given.push_back(key);
    }
}

void check_cmn_generator_homes(const cmn_mesh& mesh, const std::vector<cmn_io_range>& io_ranges,
                               const cmn_generator_config& g, const std::string& file, unsigned line) {
    if (!range_needs_memory(io_ranges, g.lo, g.hi)) return;
    if (mesh.node_count_of(cmn_node_type::hnf) == 0)
        throw input_error(file, line, "traffic needs at least one hn-f (the home of every request outside the io "
                                      "ranges)");
    bool memory = false;
    for (const auto& xp : mesh.xps)
        for (const auto& port : xp.ports)
            memory = memory || port.kind == cmn_port_kind::snf || port.kind == cmn_port_kind::sbsx;
    if (!memory) throw input_error(file, line, "traffic needs at least one sn-f or sbsx (the memory behind the HN-Fs)");
}

std::vector<cmn_generator_config> parse_cmn_traffic(const cmn_mesh& mesh, const std::string& text,
                                                    const cmn_text_origin& o,
                                                    const std::vector<cmn_io_range>& io_ranges) {
    std::vector<cmn_generator_config> out;
    for_each_cmn_text_entry(text, o, false, [&](const cmn_text_entry& e) {
        const unsigned line = e.line;
        const std::string& entry = e.text;
        const std::vector<std::string>& t = e.words;
        try {
            if (t.size() < 2)
                throw input_error("", 0, fmt::format("expected {}, found '{}'", generator_form, entry));
            cmn_generator_config g;
            g.line = line;
            parse_cmn_requester(mesh, t[0], t[1], g, "", 0);
            for (const auto& other : out)
                if (other.xp == g.xp && other.port == g.port && other.device == g.device)
                    throw input_error("", 0, fmt::format("requester {} {} already has a generator (line {})",
                                                         t[0], t[1], other.line));
            std::vector<std::string> given;
            apply_cmn_generator_settings(g, std::vector<std::string>(t.begin() + 2, t.end()), given, "", 0);
            auto has = [&](const char* k) { return std::find(given.begin(), given.end(), k) != given.end(); };
            if (!has("rate") || !has("range") || !has("mix"))
                throw input_error("", 0,
                                  fmt::format("a generator needs rate=, range= and mix=: expected {}",
                                              generator_form));
            check_cmn_generator_homes(mesh, io_ranges, g, "", 0);
            out.push_back(g);
        } catch (const input_error& error) {
            throw input_error(o.file, line, o.param_path + ": " + error.message());
        }
    });
    return out;
}

cmn_traffic_change resolve_cmn_traffic_statement(
    const cmn_mesh& mesh, const std::vector<cmn_io_range>& io_ranges, const std::vector<std::string>& requester,
    const std::vector<std::string>& settings,
    const std::function<const cmn_generator_config*(size_t, unsigned, unsigned)>& running) {
    if (requester.size() != 2) throw input_error("", 0, "expected a requester 'X,Y pP[.D]' like '1,0 p0'");
    cmn_traffic_change c;
    parse_cmn_requester(mesh, requester[0], requester[1], c.config, "", 0);
    if (settings.size() == 1 && settings[0] == "off") {
        c.off = true;
        return c;
    }
    // Unwritten settings keep the running generator's; start= and count= count from the statement.
    const cmn_generator_config* now = running(c.config.xp, c.config.port, c.config.device);
    if (now) c.config = *now, c.config.start_cycle = 0, c.config.count = UINT64_MAX;
    std::vector<std::string> given;
    apply_cmn_generator_settings(c.config, settings, given, "", 0);
    auto has = [&](const char* k) { return std::find(given.begin(), given.end(), k) != given.end(); };
    if (!now && !(has("rate") && has("range") && has("mix")))
        throw input_error("", 0, fmt::format("{} {} has no traffic running: write rate=, range= and mix=", requester[0],
                                             requester[1]));
    check_cmn_generator_homes(mesh, io_ranges, c.config, "", 0);
    c.keep_stream = !has("seed");
    return c;
}

std::vector<cmn_io_range> parse_cmn_io_ranges(const cmn_mesh& mesh, const std::string& text,
                                              const cmn_text_origin& o) {
    std::vector<cmn_io_range> out;
    for_each_cmn_text_entry(text, o, false, [&](const cmn_text_entry& e) {
        const std::string& entry = e.text;
        const std::vector<std::string>& t = e.words;
        auto fail = [&](const std::string& what) { return input_error(o.file, e.line, o.param_path + ": " + what); };
        if (t.empty() || t.size() > 2)
            throw fail(fmt::format("expected 'LO-HI [hniN]' like '0x40000000-0x4fffffff hni0', found '{}'", entry));
        cmn_io_range r;
        if (!scan_address_range(t[0], r.lo, r.hi))
            throw fail(fmt::format("expected an address range LO-HI like 0x40000000-0x4fffffff, found '{}'", t[0]));
        if (r.hi < r.lo) throw fail(fmt::format("range {:#x}-{:#x} ends before it starts", r.lo, r.hi));
        const std::string hni = t.size() == 2 ? t[1] : "hni0";
        const cmn_node* n = mesh.find(hni);
        if (!n || n->type != cmn_node_type::hni) {
            std::string names;
            for (const auto& m : mesh.nodes)
                if (m.type == cmn_node_type::hni) names += (names.empty() ? "" : ", ") + m.name;
            throw fail(fmt::format("expected an HN-I of the mesh ({}), found '{}'", names, hni));
        }
        for (const auto& other : out)
            if (r.lo <= other.hi && other.lo <= r.hi)
                throw fail(fmt::format("range {:#x}-{:#x} overlaps {:#x}-{:#x}", r.lo, r.hi, other.lo, other.hi));
        r.hni = size_t(n - mesh.nodes.data());
        out.push_back(r);
    });
    return out;
}

} // namespace pmusim
