// From platform_config to what a unit's factory receives (vp/platform_view.h).
#include "vp/platform_view.h"

#include <fmt/format.h>

namespace pmusim {

platform_view platform_view_of(const platform_config& p) {
    platform_view v;
    v.file = p.file;
    v.power_arch = p.arch == arch_kind::power;
    std::vector<param_spec> feature_schema;
    for (const auto& f : registered_cpu_features()) feature_schema.push_back(f.spec);
    for (const auto& c : p.cpus) {
        platform_cpu pc;
        pc.index = c.index;
        pc.name = c.name;
        pc.clock = c.clock;
        pc.cluster = c.cluster;
        pc.chip = c.chip;
        pc.core = c.core;
        pc.thread = c.thread;
        pc.line = c.line;
        pc.features = param_values(feature_schema, c.features);
        v.cpus.push_back(std::move(pc));
    }
    for (const auto& c : p.clocks) v.clocks.push_back(c.name);
    for (const auto& m : p.memory) v.memory.push_back({m.name, m.base, m.size, m.endianness == endianness::big, m.line});
    v.resolve_path = [file = p.file](const std::string& written) { return resolve_platform_path(file, written); };
    return v;
}

unit_entry unit_entry_of(const platform_config& p, const unit_config& u) {
    unit_entry e;
    static_cast<unit_origin&>(e) = u;
    e.type = u.type;
    e.has_mmio = u.has_mmio;
    e.base = u.base;
    e.size = u.size;
    e.clock = u.clock;
    for (const auto& name : u.cpus) e.cpus.push_back(p.find_cpu(name)->index);
    e.irq = u.irq;
    e.params = u.typed_params();
    return e;
}

const unit_config& unit_of_type(const platform_config& p, const std::string& type, const std::string& name) {
    for (const unit_config* c : p.units_of_type(type))
        if (name.empty() || c->name == name) return *c;
    throw input_error(p.file, 0, name.empty() ? fmt::format("the platform has no {} unit", type)
                                              : fmt::format("no {} unit named '{}'", type, name));
}

} // namespace pmusim
