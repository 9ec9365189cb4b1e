// Registers this folder's unit types with the platform builder.
#include <fmt/format.h>

#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "tb/platform_config.h"
#include "tb/unit_factory.h"

namespace pmusim {

std::unique_ptr<unit> make_dsu_clusterpmu(soc& system, const unit_config& u) {
    dsu_options o;
    const std::string v = u.param_choice("variant");
    o.variant = v == "original" ? dsu_variant::original : v == "dsu-120" ? dsu_variant::dsu120 : dsu_variant::dsu110;
    o.counters = unsigned(u.param_int("counters"));
    o.filter_reading_b = u.param_choice("filter_reading") == "b";
    o.irq_needs_enable = u.param_bool("irq_needs_enable");
    const std::string sl = u.param_choice("software_lock");
    o.software_lock = sl == "yes" || (sl == "auto" && o.variant == dsu_variant::original);
    o.mdcr_el1_alias = u.param_bool("mdcr_el1_alias");
    if (o.variant == dsu_variant::dsu120 && o.counters > 7)
        throw u.param_error("counters", fmt::format("a DSU-120 snapshot frame (PMEVCNTSRn at 0x600+8n, PMSSSR at "
                                                    "0x638) has room for at most 7 counters, found {}",
                                                    o.counters));
    if (u.clock.empty()) throw u.error("a dsu_clusterpmu needs `clock:` (the DSU SCLK domain)");
    if (u.cpus.empty()) throw u.error("a dsu_clusterpmu needs `cpus:` (the cores of its cluster)");
    std::vector<unsigned> cpus;
    for (const auto& c : u.cpus) cpus.push_back(unsigned(std::stoul(c.substr(3))));
    return std::make_unique<dsu_clusterpmu>(u.name.c_str(), system, o, u.clock, cpus, u.irq,
                                            u.has_mmio ? u.base : 0, u.has_mmio ? u.size : 0);
}

void register_dsu_units() {
    using pt = param_type;
    register_unit_type(
        "dsu_clusterpmu",
        {
            {"variant", pt::choice, "dsu-110",
             "DSU generation: original (32-bit event counters, 64-bit cycle counter), dsu-110 (64-bit), "
             "dsu-120 (64-bit, no cycle counter)",
             {"original", "dsu-110", "dsu-120"}},
            {"counters", pt::integer, "6", "number of CLUSTERPMU event counters (CLUSTERPMCR_EL1.N)", {}, 1, 31},
            {"filter_reading", pt::choice, "a",
             "PMEVTYPER S(bit31)/NS(bit29) reading: a = Non-secure counted iff NS==S; b = NS=1 excludes "
             "Non-secure (docs/dsu_clusterpmu.md)",
             {"a", "b"}},
            {"irq_needs_enable", pt::boolean, "false", "nCLUSTERPMUIRQ also requires PMCR.E=1 (UNVERIFIED)"},
            {"software_lock", pt::choice, "auto",
             "PMLAR/PMLSR software lock implemented: auto = original variant only",
             {"auto", "yes", "no"}},
            {"mdcr_el1_alias", pt::boolean, "false",
             "also decode CLUSTERPMMDCR at op1=0 (the Linux header's CLUSTERPMMDCR_EL1; UNVERIFIED)"},
        },
        "Arm DynamIQ Shared Unit cluster PMU (CLUSTERPMU): system-register and memory-mapped views");
    register_unit_factory("dsu_clusterpmu", [](soc& s, const unit_config& u, const platform_config&) {
        return make_dsu_clusterpmu(s, u);
    });
    for (auto v : {dsu_variant::dsu110, dsu_variant::original, dsu_variant::dsu120})
        register_table_for_docs(dsu_table(v));
}

} // namespace pmusim
