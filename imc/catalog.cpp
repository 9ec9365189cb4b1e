#include "imc/catalog.h"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "models/input_error.h"
#include "models/input_file.h"
#include "models/limits.h"
#include "models/data_files.h"

namespace pmusim::imc {

const char* to_string(imc_domain d) {
    switch (d) {
    case imc_domain::nest: return "nest";
    case imc_domain::core: return "core";
    case imc_domain::thread: return "thread";
    case imc_domain::trace: return "trace";
    }
    return "?";
}

std::string catalog_unit::pmu_name() const {
    return domain == imc_domain::nest ? "nest_" + name + "_imc" : name + "_imc";
}

const catalog_event* catalog_unit::find_event(const std::string& full_name) const {
    for (const auto& e : events)
        if (e.name == full_name) return &e;
    return nullptr;
}

namespace {

std::optional<imc_domain> domain_of(uint64_t type) {
    switch (type) {
    case type_chip: return imc_domain::nest;
    case type_core: return imc_domain::core;
    case type_thread: return imc_domain::thread;
    case type_trace: return imc_domain::trace;
    default: return std::nullopt;
    }
}

bool is_imc_unit(const dt_node& n) {
    const dt_property* c = n.find("compatible");
    if (!c) return false;
    for (const auto& s : c->strings)
        if (s == "ibm,imc-counters") return true;
    return false;
}

} // namespace

std::vector<catalog_unit> read_units(const dt_node& parent, const std::string& file, bool strict) {
    std::vector<catalog_unit> out;
    for (const dt_node& n : parent.children) {
        if (!is_imc_unit(n)) continue;
        auto bad = [&](const std::string& what) {
            if (strict) throw input_error(file, n.line, fmt::format("IMC unit {}: expected {}", n.name, what));
        };
        catalog_unit u;
        u.node_name = n.name;
        u.name = n.base_name();
        u.line = n.line;
        // A unit of missing or unknown type is no error: skiboot deletes it (hw/imc.c
        // check_imc_device_type) and Linux skips it (opal-imc.c), so neither sees a PMU.
        auto type = n.cell_of("type");
        auto dom = type ? domain_of(*type) : std::nullopt;
        if (!dom) continue;
        u.domain = *dom;
        auto size = n.cell_of("size");
        if (!size) {
            bad("a `size` property (counter memory per instance)");
            continue;
        }
        u.size = uint32_t(*size);
        auto reg = n.cell_of("reg");
        if (!reg) {
            bad("a `reg` property (the base added to every event's reg)");
            continue;
        }
        u.reg = uint32_t(*reg);
        if (auto o = n.cell_of("offset")) u.offset = uint32_t(*o);
        if (auto o = n.cell_of("cb_offset")) u.cb_offset = uint32_t(*o);
        if (u.domain == imc_domain::nest && !u.offset) bad("an `offset` property (nest counters' offset in HOMER)");
        u.scale = n.string_of("scale");
        u.unit = n.string_of("unit");
        auto prefix = n.string_of("events-prefix");
        const dt_property* ev = n.find("events");
        const dt_node* events = nullptr;
        if (ev && !ev->refs.empty() && !ev->refs[0].empty()) events = parent.find_label(ev->refs[0]);
        if (!prefix || !events) {
            // Linux registers the PMU without event attributes.
            if (!prefix) bad("an `events-prefix` property");
            if (!events) bad("an `events` phandle <&label> to an events node in the same tree");
            out.push_back(std::move(u));
            continue;
        }
        u.prefix = *prefix;
        for (const dt_node& e : events->children) {
            auto name = e.string_of("event-name");
            auto ereg = e.cell_of("reg");
            if (!name || !ereg) {
                if (strict)
                    throw input_error(file, e.line,
                                      fmt::format("event {}: expected `event-name` and `reg` properties", e.name));
                continue; // Linux drops it
            }
            catalog_event ce;
            ce.event_name = *name;
            ce.name = u.prefix + *name;
            ce.reg = uint32_t(*ereg);
            ce.value = u.reg + ce.reg;
            ce.desc = e.string_of("desc").value_or("");
            ce.scale = e.string_of("scale");
            ce.unit = e.string_of("unit");
            if (!ce.scale && u.scale) {
                ce.scale = u.scale;
                ce.scale_inherited = true;
            }
            if (!ce.unit && u.unit) {
                ce.unit = u.unit;
                ce.unit_inherited = true;
            }
            if (strict && u.domain != imc_domain::trace && ce.value + 8 > u.size) // trace values are sampling configs
                throw input_error(file, e.line,
                                  fmt::format("event {}: value {:#x} + 8 bytes lies beyond the unit's size {:#x}",
                                              ce.name, ce.value, u.size));
            u.events.push_back(std::move(ce));
        }
        out.push_back(std::move(u));
    }
    return out;
}

const catalog_unit* catalog::find_unit(const std::string& name) const {
    for (const auto& u : units)
        if (u.name == name) return &u;
    return nullptr;
}

const catalog_unit* catalog::domain_unit(imc_domain d) const {
    for (const auto& u : units)
        if (u.domain == d) return &u;
    return nullptr;
}

catalog load_catalog(const std::string& text, const std::string& file) {
    catalog c;
    c.file = file;
    c.root = parse_dts(text, file);
    c.units = read_units(c.root, file, true);
    for (imc_domain d : {imc_domain::core, imc_domain::thread, imc_domain::trace}) {
        int n = 0;
        for (const auto& u : c.units) n += u.domain == d;
        if (n > 1) throw input_error(file, 0, fmt::format("expected at most one {} unit, found {}", to_string(d), n));
    }
    return c;
}

std::string builtin_catalog_path() { return pmusim::data_file("imc/catalog/power9_dd2.dts"); }

catalog load_catalog_file(const std::string& path) {
    return load_catalog(read_input_file(path, limits::max_catalog_file_bytes, "IMC catalog file"), path);
}

const std::vector<std::string>& nest_units_p9() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n{"powerbus0"};
        for (int i = 0; i < 8; ++i) n.push_back(fmt::format("mcs{}", i));
        for (int i = 0; i < 8; ++i) n.push_back(fmt::format("mba{}", i));
        for (int i = 0; i < 8; ++i) n.push_back(fmt::format("centaur{}", i));
        for (int i = 0; i < 3; ++i) n.push_back(fmt::format("xlink{}", i));
        for (int i = 0; i < 2; ++i) n.push_back(fmt::format("mcd{}", i));
        for (int i = 0; i < 6; ++i) n.push_back(fmt::format("phb{}", i));
        n.push_back("nx");
        n.push_back("capp0");
        n.push_back("capp1");
        n.push_back("vas");
        n.push_back("int");
        for (int i = 0; i < 4; ++i) n.push_back(fmt::format("alink{}", i));
        for (int i = 0; i < 6; ++i) n.push_back(fmt::format("nvlink{}", i));
        return n; // bits 0..50; 51..63 reserved
    }();
    return names;
}

bool nest_unit_kept(const std::string& name, uint64_t avl) {
    auto bit = [avl](unsigned ibm) { return ((avl >> (63 - ibm)) & 1) != 0; };
    if (name.size() == 4 && name.rfind("mcs", 0) == 0 && name[3] >= '0' && name[3] <= '7') return false;
    if (name == "mcs01") return bit(1) || bit(2);
    if (name == "mcs23") return bit(3) || bit(4);
    if (name == "mcs45") return bit(5) || bit(6);
    if (name == "mcs67") return bit(7) || bit(8);
    const auto& names = nest_units_p9();
    for (unsigned i = 0; i < names.size(); ++i)
        if (names[i] == name) return bit(i);
    return true; // skiboot only deletes the units it names
}

dt_node imc_counters_node(const catalog& c, const std::vector<chip_homer>& chips, uint64_t avl_vector,
                          bool nest_available, bool trace_supported) {
    dt_node n;
    n.name = "imc-counters";
    n.set(dt_property::string("compatible", "ibm,opal-in-memory-counters"));
    n.set(dt_property::u32("#address-cells", {1}));
    n.set(dt_property::u32("#size-cells", {1}));
    if (auto v = c.root.cell_of("version-id")) n.set(dt_property::u32("version-id", {*v}));
    std::vector<uint64_t> bases, ids;
    for (const auto& ch : chips) {
        bases.push_back(ch.homer_base);
        ids.push_back(ch.chip_id);
    }
    for (const dt_node& child : c.root.children) {
        if (is_imc_unit(child)) {
            auto type = child.cell_of("type");
            if (!type || !domain_of(*type)) continue; // check_imc_device_type
            if (*type == type_trace && !trace_supported) continue;
            if (*type == type_chip) {
                if (!nest_available || !nest_unit_kept(child.base_name(), avl_vector)) continue;
                dt_node kept = child;
                kept.set(dt_property::u64("base-addr", bases));
                kept.set(dt_property::u32("chip-id", ids));
                n.children.push_back(std::move(kept));
                continue;
            }
        }
        n.children.push_back(child);
    }
    return n;
}

std::vector<linux_event> linux_events(const dt_node& imc_counters, const std::string& file) {
    const std::vector<catalog_unit> units = read_units(imc_counters, file, false);
    // opal_imc_counters_probe: "If core imc is not registered, unregister thread-imc".
    bool core_registered = false;
    for (const auto& u : units) core_registered |= u.domain == imc_domain::core;
    std::vector<linux_event> out;
    for (const auto& u : units) {
        if (u.domain == imc_domain::thread && !core_registered) continue;
        for (const auto& e : u.events) out.push_back({u.pmu_name(), e.name, e.value, e.scale, e.unit});
    }
    return out;
}

} // namespace pmusim::imc
