// Registers this folder's unit type with the platform builder: the `cmn600` descriptor.
#include <fmt/format.h>
#include <map>
#include <sstream>

#include "cmn/cmn600.h"
#include "cmn/cmn_traffic_text.h"
#include "models/unit_descriptor.h"
#include "models/values.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

cmn_text_origin origin_of(const unit_entry& u, const std::string& param) {
    return {u.file, u.param_line(param), fmt::format("units[{}].params.{}", u.index, param)};
}

// `events` text: `TARGET EVENT RATE` per line (or `;`-separated); TARGET is a node
// name (hnf0, xp_1_0) or a node-type prefix (hnf, xp, ...) meaning every such node.
std::vector<cmn600_rate> parse_rates(const cmn_mesh& mesh, const std::string& text, const cmn_text_origin& o) {
    std::vector<cmn600_rate> out;
    std::map<std::tuple<size_t, uint8_t, uint8_t, int>, unsigned> seen;
    for_each_cmn_text_entry(text, o, false, [&](const cmn_text_entry& e) {
        const unsigned line = e.line;
        const std::string& entry = e.text;
        const std::vector<std::string>& t = e.words;
        auto fail = [&](const std::string& what) { return input_error(o.file, line, o.param_path + ": " + what); };
        if (t.size() != 3)
            throw fail(fmt::format("expected 'NODE EVENT RATE' like 'hnf hnf_cache_miss 1/8', found '{}'", entry));
        std::vector<size_t> targets;
        for (size_t i = 0; i < mesh.nodes.size(); ++i) {
            const cmn_node& n = mesh.nodes[i];
            if (n.external || !(has_pmu_events(n.type) || n.type == cmn_node_type::xp)) continue;
            if (n.name == t[0] || node_prefix(n.type) == t[0]) targets.push_back(i);
        }
        if (targets.empty()) {
            std::string names;
            for (const auto& n : mesh.nodes)
                if (!n.external && (has_pmu_events(n.type) || n.type == cmn_node_type::xp))
                    names += (names.empty() ? "" : ", ") + n.name;
            throw fail(fmt::format("no node with PMU events named '{}' in this mesh (nodes: {}; or a type: hnf, "
                                   "hni, dn, rni, rnd, sbsx, cxra, cxha, xp)",
                                   t[0], names));
        }
        const rational rate = values::parse_rational(t[2], o.file, line, "as the rate of " + t[0] + " " + t[1]);
        for (size_t node : targets) {
            std::string error;
            auto ref = resolve_cmn_event(mesh.nodes[node].type, t[1], error);
            if (!ref) throw fail(error);
            auto key = std::make_tuple(node, ref->eventid, ref->occupid, ref->watchpoint);
            if (auto it = seen.find(key); it != seen.end())
                throw fail(fmt::format("{} {} already has a rate (line {})", mesh.nodes[node].name, t[1],
                                       it->second));
            seen[key] = line;
            out.push_back({node, *ref, rate});
        }
    });
    return out;
}

} // namespace

std::unique_ptr<unit> make_cmn600(soc& system, const unit_entry& u, const platform_view&) {
    const unsigned mx = unsigned(u.params.integer("mesh_x")), my = unsigned(u.params.integer("mesh_y"));
    cmn_mesh mesh = build_cmn_mesh(mx, my, u.params.text("nodes"), origin_of(u, "nodes"));

    cmn600_options o;
    const uint64_t periphbase = u.params.integer("periphbase");
    if (u.has_mmio) {
        if (!u.param_is_default("periphbase") && periphbase != u.base)
            throw u.param_error("periphbase", fmt::format("PERIPHBASE {:#x} differs from the unit's base {:#x}; the "
                                                          "configuration space starts at PERIPHBASE",
                                                          periphbase, u.base));
        o.periphbase = u.base;
        o.window_size = u.size;
    } else {
        o.periphbase = periphbase;
    }
    uint64_t top = 0;
    for (const auto& n : mesh.nodes) top = std::max<uint64_t>(top, n.offset + 0x4000);
    if (top > o.window_size)
        throw u.key_error(u.has_mmio ? "size" : "params",
                          fmt::format("the {}x{} mesh's configuration space needs {:#x} bytes from PERIPHBASE, the "
                                      "window has {:#x}",
                                      mx, my, top, o.window_size));
    if (!u.param_is_default("root_node_offset") && u.params.integer("root_node_offset") != mesh.root_offset) {
        const cmn_node& cfg = mesh.nodes.front();
        throw u.param_error("root_node_offset",
                            fmt::format("the root (CFG) node sits at offset {:#x}, slot 0 of the hn-d port p{} of "
                                        "crosspoint {},{}; found {:#x}",
                                        mesh.root_offset, cfg.port, cfg.x, cfg.y, u.params.integer("root_node_offset")));
    }
    const std::string& rev = u.params.choice("revision");
    const char* revs[] = {"r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1"};
    for (unsigned i = 0; i < 7; ++i)
        if (rev == revs[i]) o.revision = cmn600_revision(i);
    if (u.clock.empty()) throw u.error("a cmn600 needs `clock:` (the mesh clock domain)");

    std::vector<cmn600_rate> rates = parse_rates(mesh, u.params.text("events"), origin_of(u, "events"));
    cmn_traffic_timing timing;
    auto cycles = [&](const char* name) { return unsigned(u.params.integer(name)); };
    timing.hop_cycles = cycles("hop_latency");
    timing.port_cycles = cycles("port_latency");
    timing.hnf_cycles = cycles("hnf_latency");
    timing.snf_cycles = cycles("snf_latency");
    timing.hnf_sets = cycles("hnf_cache_sets");
    timing.hnf_ways = cycles("hnf_cache_ways");
    timing.max_outstanding = cycles("max_outstanding");
    timing.rnf_sets = cycles("rnf_cache_sets");
    timing.rnf_ways = cycles("rnf_cache_ways");
    timing.rnf_snoop_cycles = cycles("rnf_snoop_latency");
    timing.hni_cycles = cycles("hni_latency");
    timing.io_ranges = parse_cmn_io_ranges(mesh, u.params.text("io"), origin_of(u, "io"));
    std::vector<cmn_generator_config> generators =
        parse_cmn_traffic(mesh, u.params.text("traffic"), origin_of(u, "traffic"), timing.io_ranges);
    std::vector<cmn_flow_config> flows = parse_cmn_flows(mesh, u.params.text("flows"), origin_of(u, "flows"), timing);
    const bool per_request = u.params.choice("flow_mode") == "per-request";
    return std::make_unique<cmn600>(u.name.c_str(), system, std::move(mesh), o, u.clock, u.irq, std::move(rates),
                                    timing, std::move(generators), std::move(flows), per_request);
}

PMUSIM_REGISTER_UNITS(register_cmn_units, 30) {
    using pt = param_type;
    register_unit({
        "cmn600",
        "Arm CoreLink CMN-600 coherent mesh network: configuration space, DTM and DTC PMU",
        {
            {"mesh_x", pt::integer, "3", "mesh width (crosspoints in X)", {}, 1, 8},
            {"mesh_y", pt::integer, "3", "mesh height (crosspoints in Y)", {}, 1, 8},
            {"periphbase", pt::integer, "0",
             "PERIPHBASE: base address of the configuration space (must equal the unit's base when base is given)"},
            {"root_node_offset", pt::integer, "0",
             "ROOTNODEBASE - PERIPHBASE; derived from the hn-d port when not written, checked when written"},
            {"nodes", pt::string, "",
             "device ports, one per line: 'X,Y p0|p1 KIND [xN]', KIND rn-f rn-i rn-d hn-f hn-i hn-d sn-f sbsx cxg; "
             "empty: the default layout (docs/cmn.md)"},
            {"events", pt::string, "",
             "constant node event rates, one per line: 'NODE|TYPE EVENT RATE' (events per mesh cycle), e.g. "
             "'hnf hnf_cache_miss 1/8'"},
            {"traffic", pt::string, "",
             "request generators, one per line: 'X,Y pP[.D] rate=R range=LO-HI mix=Op:W,... [seed=N] [start=C] "
             "[count=N]' (docs/cmn.md)"},
            {"hop_latency", pt::integer, "2", "mesh cycles for a flit from one XP to the next", {}, 1, 64},
            {"port_latency", pt::integer, "1", "mesh cycles between a device and its XP", {}, 1, 64},
            {"hnf_latency", pt::integer, "8", "mesh cycles from a request reaching an HN-F to its response", {}, 1,
             4096},
            {"snf_latency", pt::integer, "40", "mesh cycles from a request reaching an SN-F to its data", {}, 1, 65536},
            {"hnf_cache_sets", pt::integer, "512", "sets of each HN-F's system-level cache (64-byte lines)", {}, 1,
             1u << 20},
            {"hnf_cache_ways", pt::integer, "16", "ways of each HN-F's system-level cache", {}, 1, 64},
            {"max_outstanding", pt::integer, "32",
             "requests a traffic generator may have in flight; further requests wait for one to complete", {}, 1,
             4096},
            {"rnf_cache_sets", pt::integer, "64", "sets of each RN-F's tag store (the lines it holds, for snoops)", {},
             1, 1u << 16},
            {"rnf_cache_ways", pt::integer, "4", "ways of each RN-F's tag store", {}, 1, 64},
            {"rnf_snoop_latency", pt::integer, "4", "mesh cycles from a snoop reaching an RN-F to its response", {},
             1, 4096},
            {"hni_latency", pt::integer, "16",
             "mesh cycles from a request reaching an HN-I to its read data or write response", {}, 1, 65536},
            {"io", pt::string, "",
             "I/O address ranges served by HN-Is, one per line: 'LO-HI [hniN]' (default hni0; docs/cmn.md)"},
            {"revision", pt::choice, "r1p3", "CMN-600 revision reported in periph_id_2",
             {"r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1"}},
            {"flows", pt::string, "",
             "steady request flows, one per line: 'X,Y pP[.D] to=NODE op=read|write rate=R [miss=M] [mem=K] "
             "[start=C] [stop=C]', counted from time x rate (docs/cmn.md \"Flows\")"},
            {"flow_mode", pt::choice, "rate",
             "rate: flows counted from time x rate; per-request: each request worked out by the traffic engine "
             "(the reference, slow)",
             {"rate", "per-request"}},
        },
        {}, // no per-CPU feature keys
        {&cmn600_cfg_table(), &cmn600_xp_table(), &cmn600_dtc_table(), &cmn600_node_table(cmn_node_type::hnf),
         &cmn600_node_table(cmn_node_type::rni), &cmn600_node_table(cmn_node_type::dvm),
         &cmn600_node_table(cmn_node_type::hni)},
        make_cmn600,
        {},                   // no unit from CPU features alone
        {cmn_traffic_command()}, // unit commands
    });
}

} // namespace pmusim
