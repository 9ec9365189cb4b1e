// Registers this folder's unit types with the platform builder.
#include "amu/amu.h"
#include "tb/unit_factory.h"

namespace pmusim {

void register_amu_units() {
    register_table_for_docs(amu_table());
    // One `amu` unit serves every CPU whose features.amu is v1 or v1p1; none when no CPU has it.
    register_feature_factory("amu", [](soc& system, const platform_config&) {
        std::vector<std::unique_ptr<unit>> out;
        for (const auto& d : system.cpus)
            if (d.amu_version > 0 && !d.power_arch) {
                out.push_back(std::make_unique<amu_unit>("amu", system));
                break;
            }
        return out;
    });
}

} // namespace pmusim
