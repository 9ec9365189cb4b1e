// Registers this folder's unit type with the platform builder: the `dsu_clusterpmu` descriptor.
#include <fmt/format.h>

#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

std::unique_ptr<unit> make_dsu_clusterpmu(soc& system, const unit_entry& u, const platform_view&) {
    dsu_options o;
    const std::string& v = u.params.choice("variant");
    o.variant = v == "original" ? dsu_variant::original : v == "dsu-120" ? dsu_variant::dsu120 : dsu_variant::dsu110;
    o.counters = unsigned(u.params.integer("counters"));
    o.filter_reading_b = u.params.choice("filter_reading") == "b";
    o.irq_needs_enable = u.params.boolean("irq_needs_enable");
    const std::string& sl = u.params.choice("software_lock");
    o.software_lock = sl == "yes" || (sl == "auto" && o.variant == dsu_variant::original);
    o.mdcr_el1_alias = u.params.boolean("mdcr_el1_alias");
    if (o.variant == dsu_variant::dsu120 && o.counters > 7)
        throw u.param_error("counters", fmt::format("a DSU-120 snapshot frame (PMEVCNTSRn at 0x600+8n, PMSSSR at "
                                                    "0x638) has room for at most 7 counters, found {}",
                                                    o.counters));
    if (u.clock.empty()) throw u.error("a dsu_clusterpmu needs `clock:` (the DSU SCLK domain)");
    if (u.cpus.empty()) throw u.error("a dsu_clusterpmu needs `cpus:` (the cores of its cluster)");
    return std::make_unique<dsu_clusterpmu>(u.name.c_str(), system, o, u.clock, u.cpus, u.irq,
                                            u.has_mmio ? u.base : 0, u.has_mmio ? u.size : 0);
}

PMUSIM_REGISTER_UNITS(register_dsu_units, 20) {
    using pt = param_type;
    register_unit({
        "dsu_clusterpmu",
        "Arm DynamIQ Shared Unit cluster PMU (CLUSTERPMU): system-register and memory-mapped views",
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
        {}, // no per-CPU feature keys
        {&dsu_table(dsu_variant::dsu110), &dsu_table(dsu_variant::original), &dsu_table(dsu_variant::dsu120)},
        make_dsu_clusterpmu,
    });
}

} // namespace pmusim
