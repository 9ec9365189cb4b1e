// Registers this folder's unit type with the platform builder: the `arm_cspmu` descriptor. With
// cspmu/ itself and one line in tb/unit_list.{h,cpp}, this is all a new unit touches
// (docs/extending.md).
#include <fmt/format.h>

#include "cspmu/arm_cspmu.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

constexpr uint64_t page_size = 0x1000; // one register page: PMCIDR3 is its last word

std::unique_ptr<unit> make_arm_cspmu(soc& system, const unit_entry& u, const platform_view&) {
    cspmu_options o;
    o.counters = unsigned(u.params.integer("counters"));
    o.counter_width = unsigned(u.params.integer("counter_width"));
    o.cycle_counter = u.params.boolean("cycle_counter");
    o.pmiidr = uint32_t(u.params.integer("pmiidr"));
    if (!u.has_mmio) throw u.error("an arm_cspmu needs `base:` and `size:` (its register page)");
    if (u.size < page_size)
        throw u.key_error("size", fmt::format("an arm_cspmu register page is {:#x} bytes (PMCIDR3 at 0xFFC), found {:#x}",
                                              page_size, u.size));
    if (u.clock.empty()) throw u.error("an arm_cspmu needs `clock:` (the clock its cycle counter counts)");
    return std::make_unique<arm_cspmu>(u.name.c_str(), system, o, u.clock, u.cpus, u.irq, u.base, u.size);
}

} // namespace

PMUSIM_REGISTER_UNITS(register_cspmu_units, 50) {
    using pt = param_type;
    register_unit({
        "arm_cspmu",
        "Arm CoreSight PMU architecture counter block (IHI 0091), memory-mapped, as Linux's arm_cspmu drives it",
        {
            {"counters", pt::integer, "8", "event counters (PMEVCNTR0..counters-1); PMCFGR.N counts the cycle counter too",
             {}, 1, 31},
            {"counter_width", pt::integer, "64",
             "counter size in bits, PMCFGR.SIZE + 1: 32 gives 32-bit counter registers at 4n, more gives 64-bit ones at 8n",
             {}, 32, 64},
            {"cycle_counter", pt::boolean, "true", "a cycle counter at index 31 counting the unit's clock (PMCFGR.CC)"},
            {"pmiidr", pt::integer, "0x43B",
             "PMIIDR (implementer [11:0], revision, variant, product [31:20]); the PMPIDRs carry the same fields",
             {}, 0, 0xFFFFFFFF},
        },
        {}, // no per-CPU feature keys
        {&cspmu_table(cspmu_layout::ctr64), &cspmu_table(cspmu_layout::ctr32)},
        make_arm_cspmu,
    });
}

} // namespace pmusim
