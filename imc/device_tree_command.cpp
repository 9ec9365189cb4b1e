// `pmusim imc-dt`: the imc-counters device-tree node for a platform (docs/imc.md).
#include <fmt/format.h>

#include "imc/imc.h"
#include "tb/platform_config.h"

namespace pmusim::imc {

std::string imc_device_tree_text(const platform_config& p, const std::string& unit_name, bool linux_view,
                                 std::optional<uint64_t> avl_override) {
    const unit_config* u = nullptr;
    for (const unit_config* c : p.units_of_type("power9_imc"))
        if (unit_name.empty() || c->name == unit_name) {
            u = c;
            break;
        }
    if (!u)
        throw input_error(p.file, 0, unit_name.empty() ? std::string("the platform has no power9_imc unit")
                                                       : fmt::format("no power9_imc unit named '{}'", unit_name));
    std::string path = u->param_string("catalog");
    path = path.empty() ? builtin_catalog_path() : p.resolve_path(path);
    catalog c = load_catalog_file(path);
    std::vector<chip_homer> chips;
    for (unsigned i = 0; i < u->param_int("chips"); ++i)
        chips.push_back({i, u->param_int("homer_base") + i * u->param_int("homer_stride")});
    uint64_t avl = avl_override.value_or(u->param_int("avl_vector"));
    dt_node root;
    root.name = "/";
    const std::string dd = u->param_choice("dd_level"); // "2.1"
    bool trace = trace_supported_on(unsigned(dd[0] - '0'), unsigned(dd[2] - '0'));
    root.children.push_back(imc_counters_node(c, chips, avl, true, trace));
    if (!linux_view) return format_dts(root);
    std::string out;
    for (const auto& e : linux_events(root.children.front(), path)) {
        out += fmt::format("{}/{} event={:#x}", e.pmu, e.name, e.value);
        if (e.scale) out += " scale=" + *e.scale;
        if (e.unit) out += " unit=" + *e.unit;
        out += '\n';
    }
    return out;
}

} // namespace pmusim::imc
