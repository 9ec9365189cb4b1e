// The `units:` section of a platform (vp/platform_loader.h): each entry's common keys (name,
// type, MMIO window, clock, CPUs, interrupt line) and its parameters, validated against the
// descriptor its type registered (models/unit_descriptor.h).
#include "vp/platform_loader.h"

#include <algorithm>

#include "models/limits.h"

#include "vp/yaml_nodes.h"

namespace pmusim {

void platform_loader::parse_units(const map_view& top) {
    const map_entry* list = top.find("units");
    auto items = open_list(list, top, "a list of units");
    check_count(list, "units", items.size(), limits::max_units, "units");
    const std::vector<std::string> allowed = {"name", "type", "base", "size", "clock", "cpus", "irq", "params"};
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("units", i);
        map_view m = open_map(items[i], list->key_line, path, "a unit map {" + join_names(allowed) + "}", allowed,
                              {{"cpu", "did you mean cpus?"}, {"parameters", "did you mean params?"}});
        unit_config u;
        u.file = file();
        u.line = m.line;
        u.index = unsigned(i);
        for (const auto& e : m.entries) u.key_lines[e.key] = e.key_line;

        const map_entry& n = required(m, "name", "the unit's name");
        u.name = identifier(m, n, "a unit name (letters, digits, '_', not starting with a digit)");
        claim_name(unit_name_lines_, u.name, m, n, path, "unit");

        const map_entry& t = required(m, "type", "a unit type: " + join_names(registered_unit_types()));
        u.type = scalar(m, t, "a unit type");
        std::optional<unit_descriptor> type = find_unit_type(u.type);
        if (!type)
            fail(m.line_for(t), path + ".type: unknown unit type '" + u.type + "'; registered types: " +
                                    join_names(registered_unit_types()));

        const map_entry* be = m.find("base");
        const map_entry* se = m.find("size");
        if (be) u.base = integer(m, *be, 0, UINT64_MAX);
        if (se) u.size = size(m, *se);
        if (be && !se) fail(m.line_for(*be), path + ": 'base' needs 'size' too (the MMIO window)");
        if (se && !be) fail(m.line_for(*se), path + ": 'size' needs 'base' too (the MMIO window)");
        u.has_mmio = be && se;
        if (u.has_mmio && u.size - 1 > UINT64_MAX - u.base)
            fail(m.line_for(*se), path + ".size: the MMIO window " + format_hex(u.base) + " + " +
                                      format_hex(u.size) + " goes past the end of the 64-bit address space");

        if (const map_entry* c = m.find("clock")) u.clock = clock_ref(m, *c);
        if (const map_entry* c = m.find("cpus")) parse_unit_cpus(m, *c, path, u);
        if (const map_entry* q = m.find("irq")) parse_unit_irq(m, *q, path, u);
        parse_params(m, m.find("params"), *type, u);
        p_.units.push_back(std::move(u));
    }
}

void platform_loader::parse_unit_cpus(const map_view&, const map_entry& c, const std::string& path, unit_config& u) {
    const std::string cpath = key_path(path, "cpus");
    if (!c.value.IsSequence()) expected(c.value, c.key_line, cpath, "a list of CPU names like [cpu0, cpu1]");
    size_t j = 0;
    for (auto it = c.value.begin(); it != c.value.end(); ++it, ++j) {
        const YAML::Node& item = *it;
        const std::string ipath = index_path(cpath, j);
        if (!item.IsScalar()) expected(item, c.key_line, ipath, "a CPU name");
        const std::string name = item.Scalar();
        unsigned l = yaml_line(item) ? yaml_line(item) : c.key_line;
        if (!p_.find_cpu(name)) fail(l, ipath + ": no CPU named '" + name + "'; " + names_of_cpus());
        if (std::find(u.cpus.begin(), u.cpus.end(), name) != u.cpus.end())
            fail(l, ipath + ": CPU '" + name + "' is listed twice");
        u.cpus.push_back(name);
    }
}

// A unit's `irq:` names the line it drives: a new line, or an `irq_lines:` entry nobody drives yet.
void platform_loader::parse_unit_irq(const map_view& m, const map_entry& q, const std::string& path, unit_config& u) {
    u.irq = identifier(m, q, "an interrupt line name (letters, digits, '_', not starting with a digit)");
    unsigned l = m.line_for(q);
    auto it = std::find_if(p_.irq_lines.begin(), p_.irq_lines.end(),
                           [&](const irq_line_config& x) { return x.name == u.irq; });
    if (it == p_.irq_lines.end()) {
        p_.irq_lines.push_back({u.irq, u.name, l});
    } else if (!it->driver.empty()) {
        fail(l, path + ".irq: interrupt line '" + u.irq + "' is already driven by unit '" + it->driver +
                    "'; each line has one driver");
    } else {
        it->driver = u.name;
    }
}

void platform_loader::parse_params(const map_view& unit, const map_entry* e, const unit_descriptor& type,
                                   unit_config& u) {
    const std::string path = key_path(unit.path, "params");
    if (e && !e->value.IsNull()) {
        std::vector<std::string> declared;
        for (const auto& s : type.params) declared.push_back(s.name);
        map_view m = open_map(e->value, e->key_line, path, "a map of parameters of unit type " + type.type, declared,
                              {}, "parameter", "parameters of unit type " + type.type);
        for (const auto& pe : m.entries) {
            u.params[pe.key] = param(m, pe, *type.find_param(pe.key));
            u.param_lines[pe.key] = m.line_for(pe);
        }
    }
    for (const auto& s : type.params)
        if (!u.params.count(s.name)) u.params[s.name] = s.default_value;
}

} // namespace pmusim
