// `pmusim imc-dt`: the imc-counters device-tree node for a power9_imc unit (docs/imc.md).
#include <fmt/format.h>

#include "imc/imc.h"

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

} // namespace pmusim::imc
