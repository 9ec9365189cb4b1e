// Registers this folder's device type with the platform builder: the `psci` descriptor.
#include <fmt/format.h>

#include "devices/psci/psci.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

std::unique_ptr<unit> make_psci(soc& system, const unit_entry& u, const platform_view& p) {
    for (const char* key : {"base", "clock", "cpus", "irq"})
        if (u.key_written(key))
            throw u.key_error(key, fmt::format("a psci device takes no '{}': it has no registers and serves every CPU "
                                               "through SMC or HVC", key));
    if (p.power_arch) throw u.error("PSCI is an Arm interface: expected arch arm");
    const std::string v = u.params.choice("version");
    const uint32_t version = v == "0.2" ? psci::version_of(0, 2) : psci::version_of(1, 0);
    return std::make_unique<psci_unit>(u.name.c_str(), system, u.params.choice("conduit"), version);
}

} // namespace

PMUSIM_REGISTER_UNITS(register_psci_devices, 140) {
    using pt = param_type;
    register_unit({
        "psci",
        "PSCI firmware calls (DEN 0022): VERSION, FEATURES, CPU_ON, CPU_OFF, AFFINITY_INFO, MIGRATE_INFO_TYPE, "
        "SYSTEM_OFF, SYSTEM_RESET over the platform's CPU power control",
        {
            {"conduit", pt::choice, "smc", "the instruction that calls it, as the device tree says", {"smc", "hvc"}},
            {"version", pt::choice, "1.0", "the PSCI version it reports", {"0.2", "1.0"}},
        },
        {},
        {},
        make_psci,
    });
}

} // namespace pmusim
