// `pmusim imc-dt`: the imc-counters device-tree node for a power9_imc unit (docs/imc.md), a tool
// of the unit type (models/unit_tool.h) registered with its descriptor (imc/register.cpp).
#include <fmt/format.h>

#include "imc/imc.h"
#include "models/unit_descriptor.h"

namespace pmusim::imc {

std::string imc_device_tree_text(const imc_options& o, bool linux_view, std::optional<uint64_t> avl_override) {
    catalog c = load_catalog_file(o.catalog_path);
    std::vector<chip_homer> chips;
    for (unsigned i = 0; i < o.chips; ++i) chips.push_back({i, o.homer_base_of(i)});
    dt_node root;
    root.name = "/";
    root.children.push_back(imc_counters_node(c, chips, avl_override.value_or(o.avl_vector), true, o.trace_supported));
    if (!linux_view) return format_dts(root);
    std::string out;
    for (const auto& e : linux_events(root.children.front(), o.catalog_path)) {
        out += fmt::format("{}/{} event={:#x}", e.pmu, e.name, e.value);
        if (e.scale) out += " scale=" + *e.scale;
        if (e.unit) out += " unit=" + *e.unit;
        out += '\n';
    }
    return out;
}

unit_tool imc_device_tree_tool() {
    unit_tool t;
    t.name = "imc-dt";
    t.summary = "print the imc-counters device-tree node skiboot hands to Linux";
    t.default_platform = "power9-default";
    t.options = {
        {"avl_vector", param_type::integer, "", "nest availability vector instead of the unit's avl_vector"},
        {"linux_events", param_type::boolean, "false", "list the PMUs/events Linux creates from it instead"},
    };
    t.examples = "  pmusim imc-dt --platform power9-default --unit imc0 --avl-vector 0xff --linux-events";
    t.run = [](const unit_entry& u, const platform_view& p, const unit_tool_options& o) {
        return imc_device_tree_text(read_imc_options(u, p), o.flag("linux_events"), o.integer("avl_vector"));
    };
    return t;
}

} // namespace pmusim::imc
